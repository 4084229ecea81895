"""Voila's pages against a hostile student: :func:`install` and :class:`GuardedKernelManager`.

A class's pages are served by Voila to every student of the class, any of whom may send
any request or any link. This module closes what Voila 0.5 leaves open:

* **Script from a link.** Voila writes ``?theme=`` into its page unescaped while theme
  override is on (its default). The project's ``voila.json`` files and every Voila the
  project starts turn theme and template override off (``VoilaConfiguration.
  allow_theme_override`` and ``allow_template_override`` ``"NO"``), and every response
  carries a Content-Security-Policy (:func:`security_headers`): scripts only from the
  server itself and the inline scripts of Voila's own page template, recognised by their
  exact text and given the response's nonce (:data:`TEMPLATE_SCRIPTS`; any other inline
  script is taken out of the page); nothing from another host; no framing. What it still
  allows: ``style-src 'unsafe-inline'`` (Voila's page and the widgets set inline styles)
  and scripts from ``blob:`` URLs (anywidget's modules, which only script already running
  in the page can make).
* **No asset from another host.** Voila's page links Font Awesome's stylesheets from a CDN
  although its own bundle (``voila-style.js``) already holds Font Awesome 5 with the v4
  names; the links to other hosts are taken out of every page (:func:`local_only`).
* **The legacy kernel protocol.** A kernel WebSocket that does not ask for the
  ``v1.kernel.websocket.jupyter.org`` subprotocol makes Voila 0.5.13 read the first 8
  bytes of each binary message it sends as a count of offsets and allocate without bound
  (every page of the server freezes). Such a socket is refused at the handshake (400).
  The v1 protocol reads its frames the same way (jupyter_server's
  ``deserialize_msg_from_ws_v1``: 8 bytes as a count of offsets, a list that long, on the
  server's loop): a frame whose count is not what its length can hold
  (:func:`sound_v1_frame`) closes its socket unread (one 16-byte frame saying 50 million
  had every lesson page of the class wait 13 s and Voila take 680 MB more).
* **Kernels without end.** Every load of a page starts a kernel. The
  :class:`GuardedKernelManager` caps the kernels of one page, of one client and
  of the whole server (``max_kernels_per_page``, ``max_kernels_per_client``,
  ``max_kernels``; a page beyond a cap says so, 503) and shuts down a kernel whose page
  has not connected within ``unconnected_timeout`` seconds (60) or has left that long
  ago. A client is an address, or a lesson slip's code when the request shows the
  code's pass (``pages_key_file``, :mod:`janus_widgets.table.page_pass`): students
  behind one address, a school's proxy, are counted each on their own.

* **A pool of preheated pages** (``VoilaConfiguration.preheat_kernel``, what the
  ``classroom`` command turns on for the lessons of the day): a pool's kernels start and
  run their notebook up to the student's part before any student asks (at most
  ``warm_at_once`` at a time, so that refilling the pool never takes the machine from
  the pages being opened), belong to nobody while they wait (no cap counts them but the
  server's, they are never shut down for having no page), and a page taken from the pool
  counts for its page and its client like any other, under the same caps, shut down
  ``unconnected_timeout`` seconds after its page left. Only a pool's own kernel may open
  Voila's request-info socket for its id, once (:func:`install`), and a refilled kernel
  carries nothing of the request that emptied its place (Voila gives it that address).

How it is switched on: ``voila.json`` (the project's, the notebooks' and the class's
pages') names :class:`GuardedKernelManager` as Voila's kernel manager, and making it
installs the rest, so ``cd notebooks && voila lesson.ipynb`` is guarded too; the
``classroom`` command runs Voila through :func:`janus_widgets.nodelay.run_voila`, which
installs it and turns the overrides off on the command line as well.
"""

from __future__ import annotations

import asyncio
import base64
import contextvars
import hashlib
import ipaddress
import logging
import os
import posixpath
import re
import secrets
import time
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from tornado.httputil import HTTPHeaders
from traitlets import Bool, Dict, Float, Int, List, Unicode

from .table.page_pass import holds, read_or_make_key

__all__ = ["install", "security_headers", "local_only", "GuardedKernelManager",
           "KERNEL_PROTOCOL", "TEMPLATE_SCRIPTS", "OVERRIDES_OFF", "PageFull",
           "failure_notice", "FAILED_TEXT", "STALL_SECONDS", "SERVER_FAILURE"]

#: The kernel WebSocket protocol every page must ask for (Voila's pages do).
KERNEL_PROTOCOL = "v1.kernel.websocket.jupyter.org"
#: The kernel WebSockets one page's kernel takes at once (its page has one; a reload
#: opens the next before the last is closed). Every widget message a kernel sends goes
#: to each of them: one student's 8 sockets that never read, and a widget value of 4 MB
#: set again and again, grew the pages' Voila by 1 GB in 13 s.
MAX_KERNEL_SOCKETS = 3
#: What a kernel WebSocket may leave unread before it is closed: a page reads all it is
#: sent, and one 16 MiB behind (minutes of a board's frames on a class's crowded
#: network) shows nothing current anyway. So one student's silent sockets hold at most
#: 3 × 16 MiB for each of their pages' kernels.
KERNEL_SOCKET_UNSENT = 16 * 2**20
# Kernel sockets being opened (asked for, the kernel's answer awaited) are counted per
# kernel in their kernel manager's ``_janus_opening``, with the open ones, against
# MAX_KERNEL_SOCKETS.
#: The largest message a page may send its kernel (a lesson's widgets send a few kB).
KERNEL_MESSAGE_BYTES = 2**20

#: Command-line settings that turn Voila's theme and template overrides off.
OVERRIDES_OFF = ("--VoilaConfiguration.allow_theme_override=NO",
                 "--VoilaConfiguration.allow_template_override=NO")

#: The inline scripts of Voila's own ``lab`` page that get the response's nonce, as
#: patterns of their whole text (stripped): the per-cell progress call, the last call,
#: the keep-alive call. Two longer ones (the helper functions, the log forwarding) are
#: taken verbatim from Voila's installed templates (:func:`_template_script_hashes`).
TEMPLATE_SCRIPTS = (re.compile(rb"voila_process\(\d{1,6}, \d{1,6}\)"),
                    re.compile(rb"window\.voila_finish\(\);"),
                    re.compile(rb"window\.voila_heartbeat\(\)"))

#: What a page that did not finish says (and offers: a link to the same page reloads it).
FAILED_TEXT = "This page did not finish loading. Reload it (F5) to try again."
#: Seconds a page may go without progress (no new cell, not finished) before it says it
#: did not finish (the environment's ``JANUS_VOILA_STALL_SECONDS`` changes it).
STALL_SECONDS = 45.0
#: What Voila writes into a cell whose execution failed at the server, not in the
#: notebook (a kernel that died, one that never started): the page then failed at once.
SERVER_FAILURE = (b"An exception occurred at the server (not the notebook)",
                  b'"ename": "DeadKernelError"')
_FAILED_NOW = b'<div class="janus-page-failed-now" hidden></div>'
_BODY = re.compile(rb"<body\b[^>]*>", re.I)

_INSTALLED = "_janus_voila_guard"
_SCRIPT = re.compile(rb"<script(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</script>",
                     re.S | re.I)
_FOREIGN_LINK = re.compile(rb"<link\b[^>]*\bhref=[\"']?(?:https?:)?//[^>]*>\s*", re.I)
_EXECUTABLE = re.compile(rb"\btype\s*=\s*[\"']?(?:text/javascript|module)\b", re.I)
_HAS_TYPE = re.compile(rb"\btype\s*=", re.I)
_HAS_SRC_OR_NONCE = re.compile(rb"\b(?:src|nonce)\s*=", re.I)
_known_hashes: frozenset[bytes] | None = None
#: How a client that showed a lesson slip's pass is named: ``code:`` and the code.
CODE_CLIENT = "code:"
#: The client whose request is rendering a page (its address, or its lesson slip's code:
#: :meth:`GuardedKernelManager.client_of`; set by the handler, read where the page's
#: kernel is started, in the same task).
_CLIENT: contextvars.ContextVar[str | None] = contextvars.ContextVar("janus_client",
                                                                     default=None)
#: The page (the address as asked, made plain) whose request is being rendered.
_PAGE: contextvars.ContextVar[str | None] = contextvars.ContextVar("janus_page",
                                                                   default=None)
#: The notebook whose pool a kernel is being started for (no page, no client yet).
_POOL: contextvars.ContextVar[str | None] = contextvars.ContextVar("janus_pool",
                                                                   default=None)


def security_headers(nonce: str) -> dict[str, str]:
    """The headers every response of a guarded Voila carries, for a response whose
    inline scripts from Voila's template carry ``nonce``."""
    policy = "; ".join([
        "default-src 'self'",
        # blob: for the widgets' own modules: anywidget (the game's keyboard, the status
        # line's live region) imports the module its kernel sent from a blob: URL, which
        # only script already running in the page can make
        f"script-src 'self' blob: 'nonce-{nonce}'",
        "style-src 'self' 'unsafe-inline'",       # Voila's page and the widgets need it
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "worker-src 'self' blob:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])
    return {"Content-Security-Policy": policy, "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}


def _digest(text: bytes) -> bytes:
    return base64.b64encode(hashlib.sha256(text).digest())


def _template_script_hashes() -> frozenset[bytes]:
    """The digests of the two long inline scripts of Voila's ``lab`` page, rendered from
    the templates installed (so a new Voila brings its own)."""
    global _known_hashes
    if _known_hashes is None:
        import jinja2
        from voila.paths import collect_template_paths
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(
            collect_template_paths(["voila", "nbconvert"], "lab")),
            extensions=["jinja2.ext.i18n"])
        env.install_null_translations()  # type: ignore[attr-defined]
        found = set()
        for name, macro in (("voila_setup.macro.html.j2", "voila_setup_helper_functions"),
                            ("log.macro.html.j2", "js")):
            try:
                text = str(getattr(env.get_template(name).module, macro)()).encode()
            except (jinja2.TemplateError, AttributeError):
                continue                # another Voila: its page shows less, never more
            found.update(_digest(m.group("body")) for m in _SCRIPT.finditer(text))
        _known_hashes = frozenset(found)
    return _known_hashes


def _is_template_script(body: bytes) -> bool:
    text = body.strip()
    return any(p.fullmatch(text) for p in TEMPLATE_SCRIPTS) or \
        _digest(body) in _template_script_hashes()


def local_only(html: bytes, nonce: str) -> bytes:
    """``html`` with the links to other hosts taken out, ``nonce`` on the inline scripts
    of Voila's own template and every other inline script taken out (the policy would
    block it: among them the loader of mermaid diagrams from a CDN).

    >>> local_only(b'<link rel="stylesheet" href="https://cdn.example/fa.css">'
    ...            b'<script>voila_process(1, 2)</script><script>alert(1)</script>'
    ...            b'<script type="application/json">{}</script>', "N")
    b'<script nonce="N">voila_process(1, 2)</script><script type="application/json">{}</script>'
    """
    html = _FOREIGN_LINK.sub(b"", html)
    tag = f' nonce="{nonce}"'.encode()

    def mark(match: re.Match[bytes]) -> bytes:
        attrs = match.group("attrs")
        if _HAS_SRC_OR_NONCE.search(attrs) or (
                _HAS_TYPE.search(attrs) and not _EXECUTABLE.search(attrs)):
            return match.group(0)       # a script file (allowed by 'self') or data
        if not _is_template_script(match.group("body")):
            return b""                  # not Voila's own: the policy would block it
        return b"<script" + tag + attrs + b">" + match.group("body") + b"</script>"

    return _SCRIPT.sub(mark, html)


def _stall_seconds() -> float:
    raw = os.environ.get("JANUS_VOILA_STALL_SECONDS", "")
    try:
        value = float(raw) if raw else STALL_SECONDS
    except ValueError:
        return STALL_SECONDS
    return value if 0 < value < 3600 else STALL_SECONDS


def failure_notice(stall: float | None = None) -> bytes:
    """The element the guard puts right after a page's ``<body>``: it says
    :data:`FAILED_TEXT` (with a link that reloads the page) once the page has made no
    progress for ``stall`` seconds, by CSS alone (the policy lets no script of ours in).

    Voila streams a page cell by cell (``<div cell-index>`` in ``#rendered_cells``) and
    removes its spinner (``#loading``) when the page is finished. The notice's reveal is
    an animation whose name alternates with each new cell, which restarts it: it shows
    ``stall`` seconds after the last cell arrived, unless by then the page is finished,
    its spinner gone and a widget shown (every page of the class has one): a kernel that
    died at start leaves the spinner for ever, a reply later than Voila's IOPub timeout a
    page without its widgets. A cell Voila says failed at the server (``SERVER_FAILURE``)
    shows it at once. Pages without cells (the tree, an error page) never show it.

    >>> b"did not finish loading" in failure_notice(5)
    True
    """
    seconds = _stall_seconds() if stall is None else stall
    cells = "#rendered_cells > div > div[cell-index]:last-child"
    css = (
        "#janus-page-failed{position:fixed;top:0;left:0;right:0;z-index:100000;"
        "margin:0;padding:12px 18px;background:#fff4e5;color:#5f2100;"
        "border-bottom:3px solid #b00020;font:16px/1.4 sans-serif;visibility:hidden;"
        f"animation:janus-late {seconds:g}s step-end forwards;display:none}}"
        "body:has(#rendered_cells) #janus-page-failed{display:block}"
        "#janus-page-failed a{color:#0b57d0;font-weight:bold}"
        f"body:has({cells}:nth-child(odd)) #janus-page-failed"
        "{animation-name:janus-late-odd}"
        f"body:has({cells}:nth-child(even)) #janus-page-failed"
        "{animation-name:janus-late-even}"
        "body:not(:has(#loading)):has(#rendered_cells .jupyter-widgets) #janus-page-failed"
        "{display:none}"
        "body:has(.janus-page-failed-now) #janus-page-failed"
        "{display:block!important;visibility:visible!important;animation:none!important}"
        "@keyframes janus-late{to{visibility:visible}}"
        "@keyframes janus-late-odd{to{visibility:visible}}"
        "@keyframes janus-late-even{to{visibility:visible}}")
    return (f'<style id="janus-page-failed-style">{css}</style>'
            '<p id="janus-page-failed" role="alert">This page did not finish loading. '
            '<a href="">Reload it</a> (F5) to try again.</p>').encode()


class PageGuard(web.OutputTransform):
    """Sets :func:`security_headers` on every response and passes HTML through
    :func:`local_only` (a tornado output transform, one per request). Voila streams its
    page in small pieces, so a piece that ends inside a tag or a script is held back until
    the rest arrives."""

    def __init__(self, request: Any) -> None:
        super().__init__(request)
        self.nonce = secrets.token_urlsafe(18)
        self.html = False
        self.held = b""
        self.noticed = False            # the failure notice is in the page

    def transform_first_chunk(self, status_code: int, headers: HTTPHeaders, chunk: bytes,
                              finishing: bool) -> tuple[int, HTTPHeaders, bytes]:
        for name, value in security_headers(self.nonce).items():
            headers[name] = value
        if "Server" in headers:
            del headers["Server"]          # tornado's name and version tell nobody anything
        self.html = headers.get("Content-Type", "").startswith("text/html") and \
            "Content-Encoding" not in headers
        if self.html:
            chunk = self.transform_chunk(chunk, finishing)
            if "Content-Length" in headers:
                if finishing:
                    headers["Content-Length"] = str(len(chunk))
                else:                   # the length changes: send it chunked
                    del headers["Content-Length"]
        return status_code, headers, chunk

    def transform_chunk(self, chunk: bytes, finishing: bool) -> bytes:
        if not self.html:
            return chunk
        text = self.held + chunk
        cut = len(text) if finishing else _complete_until(text)
        self.held = text[cut:]
        out = local_only(text[:cut], self.nonce)
        if not self.noticed:
            body = _BODY.search(out)
            if body is not None:
                self.noticed = True
                out = out[:body.end()] + failure_notice() + out[body.end():]
        if self.noticed and any(sign in out for sign in SERVER_FAILURE):
            out += _FAILED_NOW
        return out


def _complete_until(html: bytes) -> int:
    """Where the part of ``html`` that ends with no tag and no script cut short ends."""
    cut = len(html)
    lower = html.lower()
    opened = lower.rfind(b"<script")
    if opened != -1 and lower.find(b"</script>", opened) == -1:
        cut = opened
    last = html.rfind(b"<", 0, cut)
    if last != -1 and html.find(b">", last, cut) == -1:
        cut = last
    return cut


def _times(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class PageFull(web.HTTPError):
    """A page the server cannot open now (a cap reached): 503, said in words."""

    def __init__(self, sentence: str) -> None:
        super().__init__(503, reason=sentence)


#: The most parts a kernel message of the v1 protocol has here: the channel, header,
#: parent header, metadata and content, then its binary buffers (a widget's message has
#: a few at most).
V1_MAX_PARTS = 1024


def sound_v1_frame(frame: bytes | str) -> bool:
    """Whether a binary frame of the ``v1.kernel.websocket.jupyter.org`` protocol holds
    what its header says: a count of offsets (the parts and the end) that its length can
    hold, at most :data:`V1_MAX_PARTS` + 1, the offsets in order and within the frame.
    (A text frame is no v1 message; jupyter_server refuses it at once, at no cost.)

    >>> def frame(*parts):
    ...     head = 8 * (len(parts) + 2)
    ...     ends = [head + sum(map(len, parts[:k])) for k in range(len(parts) + 1)]
    ...     return b"".join(x.to_bytes(8, "little") for x in [len(ends), *ends]) + b"".join(parts)
    >>> sound_v1_frame(frame(b"shell", b"{}", b"{}", b"{}", b"{}"))
    True
    >>> sound_v1_frame((50_000_000).to_bytes(8, "little") + bytes(8))
    False
    >>> sound_v1_frame(frame(b"shell", b"{}")[:-1]), sound_v1_frame(b"short")
    (False, False)
    """
    if isinstance(frame, str):
        return True
    if len(frame) < 8:                     # the header alone is read: no copy of the frame
        return False
    count = int.from_bytes(frame[:8], "little")
    if not 2 <= count <= V1_MAX_PARTS + 1 or 8 * (count + 1) > len(frame):
        return False
    offsets = [int.from_bytes(frame[8 * (i + 1):8 * (i + 2)], "little") for i in range(count)]
    return offsets[0] >= 8 * (count + 1) and offsets[-1] <= len(frame) and all(
        a <= b for a, b in zip(offsets, offsets[1:]))


_said: set[str] = set()


def _say_once(log: Any, text: str) -> None:
    """Log ``text`` as an error, once per process."""
    if text not in _said:
        _said.add(text)
        log.error(text)


def install() -> bool:
    """Guard every Voila application made in this process from now on (once per process;
    returns whether this call installed it): the table server's guarded HTTP server
    (:func:`janus_widgets.table.server.guarded_http_server`: idle and slow connections
    closed, long bodies refused), :class:`PageGuard` on its responses, legacy kernel
    WebSockets refused, the pages its kernel manager refuses not rendered."""
    from voila.app import Voila
    from voila.handler import VoilaHandler
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
    if getattr(Voila, _INSTALLED, False):
        return False
    init_handlers = Voila.init_handlers

    def guarded_init_handlers(self: Any) -> Any:
        if PageGuard not in self.app.transforms:
            self.app.transforms.append(PageGuard)
        return init_handlers(self)

    pre_get = VoilaKernelWebsocketHandler.pre_get

    async def v1_only_pre_get(self: Any) -> None:
        asked = [p.strip() for p in
                 self.request.headers.get("Sec-WebSocket-Protocol", "").split(",")]
        if KERNEL_PROTOCOL not in asked:
            self.log.warning("janus_widgets: refused a kernel WebSocket without the %s "
                             "subprotocol (from %s)", KERNEL_PROTOCOL, self.request.remote_ip)
            raise web.HTTPError(400, reason=f"a kernel WebSocket must ask for the "
                                            f"{KERNEL_PROTOCOL} subprotocol")
        # Counted from before the wait for the kernel's answer (pre_get), not only once
        # open: sockets asked for all at once would each see none open yet.
        manager, kernel_id = self.kernel_manager, self.kernel_id
        opening = manager.__dict__.setdefault("_janus_opening", {})
        if manager._kernel_connections.get(kernel_id, 0) + opening.get(kernel_id, 0) \
                >= MAX_KERNEL_SOCKETS:
            self.log.warning("janus_widgets: refused a kernel WebSocket for %s: it has %d "
                             "already (from %s)", kernel_id, MAX_KERNEL_SOCKETS,
                             self.request.remote_ip)
            raise web.HTTPError(429, reason=f"a page's kernel takes at most "
                                            f"{MAX_KERNEL_SOCKETS} WebSockets at once")
        opening[kernel_id] = opening.get(kernel_id, 0) + 1
        self._janus_opening = opening       # until open, or the request's end (counted_get)
        await pre_get(self)

    def _opened(self: Any) -> None:
        """This socket is no longer being opened: it is open (and counted by the kernel
        manager), or it failed."""
        opening = getattr(self, "_janus_opening", None)
        if opening is not None:
            self._janus_opening = None
            left = opening.get(self.kernel_id, 0) - 1
            if left > 0:
                opening[self.kernel_id] = left
            else:
                opening.pop(self.kernel_id, None)

    kernel_open = VoilaKernelWebsocketHandler.open

    async def counted_open(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return await kernel_open(self, *args, **kwargs)
        finally:
            _opened(self)

    kernel_get = VoilaKernelWebsocketHandler.get

    async def counted_get(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:                              # (returns when the socket closes, or failed)
            return await kernel_get(self, *args, **kwargs)
        finally:
            _opened(self)                 # a handshake that failed never opened

    def plain_error(self: Any, status_code: int, **kwargs: Any) -> None:
        # jupyter_server renders an error page from a template Voila lacks: each refusal
        # above wrote a traceback to the log instead of its answer
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code} {self._reason}\n")

    kernel_write = VoilaKernelWebsocketHandler.write_message

    def write_to_readers_only(self: Any, message: Any, binary: bool = False) -> Any:
        connection = getattr(self, "ws_connection", None)
        if connection is None or connection.is_closing():
            return None                   # closed: what was for it goes nowhere
        # tornado's bytes not sent yet (a private name: a tornado without it is said once)
        unsent = getattr(getattr(connection, "stream", None), "_write_buffer", None)
        if unsent is None:
            _say_once(self.log, "janus_widgets: cannot see a kernel WebSocket's unsent "
                                "bytes in this tornado: sockets that do not read are kept")
            unsent = ()
        if len(unsent) > KERNEL_SOCKET_UNSENT:
            self.log.warning("janus_widgets: closed a kernel WebSocket that does not read "
                             "what it is sent (from %s)", self.request.remote_ip)
            self.close(1008, "this page does not read its messages")
            return None
        sent = kernel_write(self, message, binary)
        if sent is not None:      # a write the socket's closing cut short is no error
            sent.add_done_callback(lambda done: done.cancelled() or done.exception())
        return sent

    kernel_message = VoilaKernelWebsocketHandler.on_message

    def sound_frames_only(self: Any, message: bytes | str) -> Any:
        if not sound_v1_frame(message):
            self.log.warning("janus_widgets: closed a kernel WebSocket that sent a frame "
                             "its length does not hold (from %s)", self.request.remote_ip)
            self.close(1008, "a frame of the v1 kernel protocol that is not one")
            return None
        return kernel_message(self, message)

    get_generator = VoilaHandler.get_generator
    import voila.app as voila_app
    from voila.request_info_handler import RequestInfoSocketHandler
    factory = voila_app.voila_kernel_manager_factory

    def guarded_factory(base_class: Any, preheat_kernel: bool, default_pool_size: int,
                        page_config_hook: Any = None) -> Any:
        made = factory(base_class, preheat_kernel, default_pool_size,
                       page_config_hook=page_config_hook)
        if preheat_kernel and isinstance(base_class, type) and \
                issubclass(base_class, GuardedKernelManager):
            return type("GuardedKernelPool", (_PoolGuard, made), {})
        return made

    query_get = RequestInfoSocketHandler.get

    async def one_query_socket(self: Any, kernel_id: str, *args: Any, **kwargs: Any) -> Any:
        manager = self.settings.get("kernel_manager")
        claim = getattr(manager, "claim_query_socket", None)
        if claim is None or not claim(kernel_id):
            getattr(manager, "log", logging.getLogger("janus_widgets")).warning(
                "janus_widgets: refused a request-info socket for %s (only a pool's "
                "kernel may open its own, once)", kernel_id)
            raise web.HTTPError(403)
        return await query_get(self, kernel_id, *args, **kwargs)

    def forget_own_waiter(self: Any) -> None:
        # Voila 0.5.13's on_close deletes the last waiter of the table when this
        # socket is not the registered one (another kernel's page would wait for ever)
        waiters = RequestInfoSocketHandler._waiters
        for kernel_id, waiter in list(waiters.items()):
            if waiter is self:
                del waiters[kernel_id]

    async def refusing_get_generator(self: Any, path: str | None = None) -> Any:
        notebook = posixpath.normpath("/" + (self.notebook_path or path or "")).lstrip("/")
        refused = getattr(self.kernel_manager, "refused_pages", ())
        if notebook in {posixpath.normpath("/" + p).lstrip("/") for p in refused}:
            raise web.HTTPError(404)
        client_of = getattr(self.kernel_manager, "client_of", None)
        _CLIENT.set(client_of(self.request.remote_ip, self.request.query_arguments)
                    if client_of else self.request.remote_ip)
        _PAGE.set(posixpath.normpath("/" + self.request.path))
        async for chunk in get_generator(self, path):
            yield chunk

    voila_listen = Voila.listen

    def guarded_listen(self: Any) -> Any:
        # Voila's own HTTP server kept idle connections for ever: 1,100 of them from one
        # student's script (past a laptop's 1,024 files) and no lesson page loaded
        from .table.server import guarded_http_server
        app = self.app

        def listen(port: int, address: str = "", **kwargs: Any) -> Any:
            server = guarded_http_server(app)
            server.listen(port, address=address, backlog=2048)
            return server
        app.listen = listen
        return voila_listen(self)

    Voila.listen = guarded_listen  # type: ignore[method-assign]
    Voila.init_handlers = guarded_init_handlers  # type: ignore[method-assign]
    VoilaKernelWebsocketHandler.pre_get = v1_only_pre_get  # type: ignore[method-assign]
    VoilaKernelWebsocketHandler.on_message = sound_frames_only  # type: ignore[method-assign]
    VoilaKernelWebsocketHandler.write_message = write_to_readers_only  # type: ignore[method-assign]
    VoilaKernelWebsocketHandler.open = counted_open  # type: ignore[method-assign]
    VoilaKernelWebsocketHandler.get = counted_get  # type: ignore[method-assign]
    VoilaKernelWebsocketHandler.write_error = plain_error  # type: ignore[method-assign]
    VoilaKernelWebsocketHandler.max_message_size = KERNEL_MESSAGE_BYTES  # type: ignore[assignment]
    VoilaHandler.get_generator = refusing_get_generator  # type: ignore[method-assign]
    voila_app.voila_kernel_manager_factory = guarded_factory
    RequestInfoSocketHandler.get = one_query_socket  # type: ignore[method-assign]
    RequestInfoSocketHandler.on_close = forget_own_waiter  # type: ignore[method-assign]
    setattr(Voila, _INSTALLED, True)
    return True


class GuardedKernelManager(AsyncMappingKernelManager):
    """Voila's kernel manager with caps and a deadline (and, made, :func:`install`).

    A page (the address a kernel was started for) has at most ``max_kernels_per_page``
    kernels, one client (the address a request comes from, or the lesson slip's code it
    holds with its pass: :meth:`client_of`) ``max_kernels_per_client``,
    the server ``max_kernels``: a load beyond any is answered 503 with a sentence that
    says which cap and what to do. This machine's own requests (loopback) have no
    per-client cap, unless ``cap_loopback``: the teacher's browser, and every client
    behind a reverse proxy on the same machine. A kernel no page is connected to is shut
    down ``unconnected_timeout`` seconds after it last did anything (its notebook ran) or
    its last page left.

    With Voila's preheated kernels on (``VoilaConfiguration.preheat_kernel``), Voila
    makes this class the base of its pool manager and :func:`install` puts
    :class:`_PoolGuard` on top: a pool's kernel counts for the server only (it is
    nobody's page yet) and is never shut down while it waits; taken by a request, it is
    that page's and that client's, under the caps above."""

    max_kernels = Int(60, config=True,
                      help="kernels (pages open) the server runs at most, all pages together")
    max_kernels_per_page = Int(40, config=True,
                               help="kernels one page (one notebook) runs at most")
    max_kernels_per_client = Int(6, config=True,
                                 help="kernels the requests of one client (an address, or "
                                      "a lesson slip's code with its pass) start at most "
                                      "(this machine's own requests: no cap)")
    cap_loopback = Bool(False, config=True,
                        help="count this machine's own requests per client as well")
    unconnected_timeout = Float(60.0, config=True,
                                help="seconds a kernel lives with no page connected")
    check_interval = Float(5.0, config=True, help="seconds between checks for such kernels")
    refused_pages = List(Unicode(), config=True,
                         help="notebooks (paths under the served folder) never rendered")
    warm_at_once = Int(0, config=True,
                       help="pool pages warmed at the same time (0: one per two cores, at "
                            "least one), so that a pool refilling leaves the machine to "
                            "the pages being opened")
    warm_timeout = Float(600.0, config=True,
                         help="seconds a pool page may take to reach its student's part "
                              "before it is offered as it is")
    pools = Dict(value_trait=Int(), config=True,
                 help="pages kept ready with a preheating Voila: notebook (its path under "
                      "the served folder) → how many; every other notebook has none "
                      "(this sets Voila's kernel_pools_config)")
    pages_key_file = Unicode("", config=True,
                             help="the class's pages key (janus_widgets.table.page_pass): "
                                  "a request with a lesson slip's code and its pass counts "
                                  "for that student, not for its address")
    pool_status_file = Unicode("", config=True,
                               help="a JSON file where the pools' state is written (pages "
                                    "ready, warming, their memory) as it changes")

    def __init__(self, **kwargs: Any) -> None:
        install()
        super().__init__(**kwargs)
        self._page_of: dict[str, tuple[str, str | None]] = {}   # kernel → (page, client)
        self._pages_key: bytes | None = None    # read at the first request with a pass
        self._alone_since: dict[str, float] = {}
        self._busy_at: dict[str, float] = {}    # when a check last saw it run code
        self._connected_once: set[str] = set()  # a page was connected to it (and left?)
        self._starting: list[tuple[str, str | None]] = []
        self._checker: Any = None
        self._pooled: set[str] = set()          # in a pool, nobody's page yet
        self._pool_made: set[str] = set()       # started for a pool (taken or not)
        self._query_claimed: set[str] = set()   # its request-info socket opened once
        self._warm: dict[str, asyncio.Event] = {}
        if self.pools and self.has_trait("kernel_pools_config"):
            # Voila gives every notebook without a "default" entry a pool of one, and
            # fills the pools right after this: only the pages named get one
            self.kernel_pools_config = {
                "default": {"pool_size": 0},
                **{page: {"pool_size": size} for page, size in self.pools.items()
                   if posixpath.normpath(page) not in self._refused()}}

    def client_of(self, address: str, query: dict[str, list[bytes]]) -> str:
        """Who a page's request counts for: ``code:`` and the lesson slip's code when
        the request holds the code's pass (the table server sent the student here;
        students behind one address, a school's proxy, are then counted each on their
        own), else its address."""
        codes, passes = query.get("code", []), query.get("pass", [])
        if self.pages_key_file and len(codes) == 1 and len(passes) == 1:
            if self._pages_key is None:
                try:
                    self._pages_key = read_or_make_key(self.pages_key_file)
                except (OSError, ValueError) as exc:
                    self.log.error("the class's pages key %s cannot be read: %s",
                                   self.pages_key_file, exc)
                    return address
            try:
                code, given = codes[0].decode("ascii"), passes[0].decode("ascii")
            except UnicodeDecodeError:
                return address
            if holds(self._pages_key, code, given):
                return f"{CODE_CLIENT}{code}"
        return address

    def _refused(self) -> set[str]:
        return {posixpath.normpath("/" + page).lstrip("/") for page in self.refused_pages}

    def _count(self, page: str | None = None, client: str | None = None) -> int:
        """Kernels running or starting (for ``page``, or for ``client``, if given)."""
        every = [*self._page_of.values(), *self._starting]
        return sum(1 for p, c in every if (page is None or p == page) and
                   (client is None or c == client))

    def _counted(self, client: str | None) -> bool:
        """Whether ``client`` has a cap of its own (not this machine, unless asked)."""
        if client is None:
            return False
        try:
            address = ipaddress.ip_address(client)
        except ValueError:
            return True
        mapped = getattr(address, "ipv4_mapped", None)
        return self.cap_loopback or not (mapped or address).is_loopback

    def _check_caps(self, page: str, client: str | None) -> None:
        """Raise :class:`PageFull` if one more kernel for ``page`` and ``client`` would
        pass a cap."""
        if self._count() >= self.max_kernels:
            raise PageFull(f"This page cannot open now: the server is full, it runs "
                           f"{_times(self.max_kernels, 'page')} at once, its limit. Close "
                           "a page you no longer use, or try again in a minute.")
        if self._counted(client) and \
                self._count(client=client) >= self.max_kernels_per_client:
            whose = ("your lesson slip's code has" if client and
                     client.startswith(CODE_CLIENT) else "your computer has")
            raise PageFull(f"This page cannot open now: {whose} "
                           f"{_times(self.max_kernels_per_client, 'page')} of this server "
                           "open already, its limit. Close one you no longer use, or try "
                           "again in a minute.")
        if self._count(page) >= self.max_kernels_per_page:
            raise PageFull(f"This page cannot open now: it is open "
                           f"{_times(self.max_kernels_per_page, 'time')} already, its "
                           "limit. Close a copy you no longer use, or try again in a "
                           "minute.")

    async def start_kernel(self, *, kernel_id: str | None = None, path: str | None = None,
                           **kwargs: Any) -> str:
        """Start a page's kernel, unless a cap is reached (:class:`PageFull`); a pool's
        kernel (started by :class:`_PoolGuard`) counts for the server only."""
        if kernel_id is not None and kernel_id in self:
            return kernel_id
        pool = _POOL.get()
        if pool is not None:
            place: tuple[str, str | None] = (f"pool:{pool}", None)
            if self._count() >= self.max_kernels:
                raise PageFull("the server is full: no room for a pool's page")
        else:
            env = kwargs.get("env") or {}
            # the page's address as Voila was asked for it, made plain, so that
            # /voila/render//a.ipynb and /voila/render/./a.ipynb count as
            # /voila/render/a.ipynb
            page = posixpath.normpath("/" + str(env.get("SCRIPT_NAME") or path or ""))
            client = _CLIENT.get()
            self._check_caps(page, client)
            place = (page, client)
        self._starting.append(place)
        try:
            kernel_id = await super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)
        finally:
            self._starting.remove(place)
        self._page_of[kernel_id] = place
        if pool is not None:
            self._pooled.add(kernel_id)
            self._pool_made.add(kernel_id)
            self._warm[kernel_id] = asyncio.Event()
        else:
            self._alone_since[kernel_id] = time.monotonic()
        self._start_checker()
        return kernel_id

    def claim_query_socket(self, kernel_id: str) -> bool:
        """Whether Voila's request-info socket for ``kernel_id`` may open: only for a
        kernel started for a pool, and only once (its own, opened while it warms, long
        before its id is on any page). Opening it means the kernel reached its
        student's part: it is warm."""
        if kernel_id not in self._pool_made or kernel_id in self._query_claimed:
            return False
        self._query_claimed.add(kernel_id)
        event = self._warm.get(kernel_id)
        if event is not None:
            event.set()
        return True

    def take_from_pool(self, kernel_id: str, page: str, client: str | None) -> None:
        """A pool's kernel is now the page ``page`` of ``client``: counted for both, and
        shut down once no page has been connected to it for ``unconnected_timeout``."""
        self._pooled.discard(kernel_id)
        self._page_of[kernel_id] = (page, client)
        self._alone_since[kernel_id] = time.monotonic()

    def _start_checker(self) -> None:
        if self._checker is None:
            from tornado.ioloop import PeriodicCallback
            self._checker = PeriodicCallback(self._shut_unconnected,
                                             1000 * self.check_interval)
            self._checker.start()

    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)
        self._alone_since.pop(kernel_id, None)
        self._connected_once.add(kernel_id)

    def notify_disconnect(self, kernel_id: str) -> None:
        super().notify_disconnect(kernel_id)
        if self._kernel_connections.get(kernel_id, 0) <= 0 and kernel_id in self._page_of \
                and kernel_id not in self._pooled:
            self._alone_since[kernel_id] = time.monotonic()

    def _forget(self, kernel_id: str) -> None:
        self._page_of.pop(kernel_id, None)
        self._alone_since.pop(kernel_id, None)
        self._busy_at.pop(kernel_id, None)
        self._connected_once.discard(kernel_id)
        self._pooled.discard(kernel_id)
        self._pool_made.discard(kernel_id)
        self._query_claimed.discard(kernel_id)
        self._warm.pop(kernel_id, None)
        try:
            from voila.request_info_handler import RequestInfoSocketHandler
        except ImportError:  # pragma: no cover - Voila is what runs this class
            return
        RequestInfoSocketHandler._cache.pop(kernel_id, None)

    async def shutdown_kernel(self, kernel_id: str, now: bool = False,
                              restart: bool = False) -> None:
        """Shut a kernel down and stop counting it."""
        try:
            await super().shutdown_kernel(kernel_id, now=now, restart=restart)
        finally:
            if not restart:
                self._forget(kernel_id)
                write = getattr(self, "_write_status", None)
                if write is not None:
                    write()

    async def _shut_unconnected(self) -> None:
        """Shut down every kernel no page has been connected to for the timeout (a
        pool's kernel waiting for its page is nobody's yet: never)."""
        now = time.monotonic()
        for kernel_id in list(self._page_of):
            if kernel_id not in self:
                self._forget(kernel_id)
                continue
            if kernel_id in self._pooled:
                continue
            since = self._alone_since.get(kernel_id)
            if since is None or self._kernel_connections.get(kernel_id, 0) > 0:
                continue
            kernel = self.get_kernel(kernel_id)
            # Its notebook running for its page to come counts as life, as seen at these
            # checks: not the kernel's last_activity, which every message it sends
            # renews (a page's signs of life, every 2 s, kept every closed page's kernel
            # for ever). A kernel whose page came and left works for nobody, busy or
            # not: a student's answer that kept it busy kept it, burning a core, for ever.
            left = kernel_id in self._connected_once
            if getattr(kernel, "execution_state", "") == "busy" and not left:
                self._busy_at[kernel_id] = now
                continue
            quiet = now - (since if left else max(since, self._busy_at.get(kernel_id, since)))
            if quiet >= self.unconnected_timeout:
                self.log.info("janus_widgets: shutting down kernel %s: no page connected "
                              "for %.0f s", kernel_id, quiet)
                try:
                    await self.shutdown_kernel(kernel_id)
                except Exception:  # noqa: BLE001 - one kernel's failure stops no other
                    self.log.exception("janus_widgets: could not shut down kernel %s",
                                       kernel_id)


def _ready(task: Any) -> bool:
    """Whether a pool's item is a warm page (its start finished without an error)."""
    return task.done() and not task.cancelled() and task.exception() is None


def _failed(task: Any) -> bool:
    return task.done() and (task.cancelled() or task.exception() is not None)


class _PoolGuard:
    """Put on top of Voila's pool manager (``VoilaKernelManager``, itself made on
    :class:`GuardedKernelManager`) by :func:`install`: what the pool of preheated pages
    does differently from Voila 0.5.13's.

    * A pool's pages are warmed ``warm_at_once`` at a time, each until its kernel
      reached its student's part (it opened its request-info socket) or ran its whole
      notebook, and only while the server has room under ``max_kernels``.
    * Only a warm page is offered (``get_pool_size`` counts those): with none, a request
      starts a page of its own as without a pool. A request takes a warm page only
      under the caps of its page and its client.
    * A refill carries nothing of the request that emptied its place (Voila puts that
      request's address, query string and all, into the new kernel's environment)."""

    _warming: asyncio.Semaphore | None = None

    def _slots(self: Any) -> asyncio.Semaphore:
        if self._warming is None:
            at_once = self.warm_at_once or max(1, (os.cpu_count() or 2) // 2)
            self._warming = asyncio.Semaphore(at_once)
        return self._warming

    def _query_host(self: Any) -> str:
        """The address a kernel on this machine reaches this server at."""
        ip = str(getattr(self.parent, "ip", "") or "")
        if ip in ("", "0.0.0.0", "::", "localhost", "*"):
            return "127.0.0.1"
        return f"[{ip}]" if ":" in ip else ip

    async def _initialize(self: Any, notebook_path: str, kernel_id: str | None = None,
                          **kwargs: Any) -> Any:
        if kernel_id is not None:                  # a restart: Voila's own
            return await super()._initialize(notebook_path, kernel_id, **kwargs)  # type: ignore[misc]
        async with self._slots():
            while self._count() >= self.max_kernels:   # wait for room
                await asyncio.sleep(2)
            _POOL.set(notebook_path)
            _CLIENT.set(None)
            _PAGE.set(None)
            kwargs["env"] = {**(kwargs.get("env") or {}),
                             "VOILA_APP_IP": self._query_host()}
            content = await super()._initialize(notebook_path, None, **kwargs)  # type: ignore[misc]
            event = self._warm.get(content["kernel_id"])
            waiting = [content["task"]]
            if event is not None:
                waiting.append(asyncio.ensure_future(event.wait()))
            await asyncio.wait(waiting, timeout=self.warm_timeout,
                               return_when=asyncio.FIRST_COMPLETED)
            for extra in waiting[1:]:
                extra.cancel()
        asyncio.get_running_loop().call_soon(self._write_status)   # once this is done
        return content

    def get_pool_size(self: Any, notebook_name: str) -> int:
        """The warm pages in ``notebook_name``'s pool."""
        return sum(1 for task in self._pools.get(notebook_name, []) if _ready(task))

    async def get_rendered_notebook(self: Any, notebook_name: str,
                                    extra_kernel_env_variables: Any = None,
                                    **kwargs: Any) -> Any:
        page = _PAGE.get() or posixpath.normpath("/" + notebook_name)
        client = _CLIENT.get()
        pool = self._pools.get(notebook_name, [])
        pool[:] = [task for task in pool if not _failed(task)]
        ready = [task for task in pool if _ready(task)]
        if not ready:
            raise PageFull("This page cannot open now: its prepared copies are all "
                           "taken. Try again in a minute.")
        self._check_caps(page, client)
        pool.remove(ready[0])
        pool.insert(0, ready[0])            # Voila takes the first
        render_task, rendered, kernel_id = await super().get_rendered_notebook(  # type: ignore[misc]
            notebook_name, {}, **kwargs)
        self.take_from_pool(kernel_id, page, client)
        self._write_status()
        return render_task, rendered, kernel_id

    def pool_status(self: Any) -> dict[str, Any]:
        """The pools as plain data: per notebook its size, pages ready and warming; the
        kernels in all and the memory of the pools' pages (MB, when it can be read)."""
        pools = {}
        for name, tasks in self._pools.items():
            config = self.kernel_pools_config.get(name,
                                                  self.kernel_pools_config.get("default", {}))
            size = int(config.get("pool_size", 0) or 0)
            if not size and not tasks:
                continue
            pools[name] = {"size": size, "ready": sum(map(_ready, tasks)),
                           "warming": sum(1 for t in tasks if not t.done())}
        return {"pools": pools, "kernels": self._count(), "max_kernels": self.max_kernels,
                "pool_rss_mb": _rss_mb(self, self._pooled),
                "all_rss_mb": _rss_mb(self, list(self._page_of))}

    def _write_status(self: Any) -> None:
        if not self.pool_status_file:
            return
        import json
        try:
            status = self.pool_status()
            partial = self.pool_status_file + ".partial"
            with open(partial, "w", encoding="utf-8") as out:
                json.dump(status, out)
            os.replace(partial, self.pool_status_file)
        except Exception:  # noqa: BLE001 - the status is for the teacher's terminal only
            self.log.debug("janus_widgets: could not write the pool status", exc_info=True)


def _rss_mb(manager: Any, kernel_ids: Any) -> float | None:
    """The resident memory of ``kernel_ids``' processes in MB (None without psutil)."""
    try:
        import psutil
    except ImportError:
        return None
    total = 0
    for kernel_id in list(kernel_ids):
        try:
            pid = manager.get_kernel(kernel_id).provisioner.pid
            total += psutil.Process(pid).memory_info().rss
        except Exception:  # noqa: BLE001 - a kernel gone meanwhile counts nothing
            continue
    return round(total / 2**20, 1)

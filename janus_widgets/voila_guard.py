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
* **Kernels without end.** Every load of a page starts a kernel. The
  :class:`GuardedKernelManager` caps the kernels of one page, of one client address and
  of the whole server (``max_kernels_per_page``, ``max_kernels_per_client``,
  ``max_kernels``; a page beyond a cap says so, 503) and shuts down a kernel whose page
  has not connected within ``unconnected_timeout`` seconds (60) or has left that long
  ago.

How it is switched on: ``voila.json`` (the project's, the notebooks' and the class's
pages') names :class:`GuardedKernelManager` as Voila's kernel manager, and making it
installs the rest, so ``cd notebooks && voila lesson.ipynb`` is guarded too; the
``classroom`` command runs Voila through :func:`janus_widgets.nodelay.run_voila`, which
installs it and turns the overrides off on the command line as well.
"""

from __future__ import annotations

import base64
import contextvars
import hashlib
import ipaddress
import os
import posixpath
import re
import secrets
import time
from typing import Any

from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from tornado.httputil import HTTPHeaders
from traitlets import Bool, Float, Int, List, Unicode

__all__ = ["install", "security_headers", "local_only", "GuardedKernelManager",
           "KERNEL_PROTOCOL", "TEMPLATE_SCRIPTS", "OVERRIDES_OFF", "PageFull",
           "failure_notice", "FAILED_TEXT", "STALL_SECONDS", "SERVER_FAILURE"]

#: The kernel WebSocket protocol every page must ask for (Voila's pages do).
KERNEL_PROTOCOL = "v1.kernel.websocket.jupyter.org"

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
#: The address of the client whose request is rendering a page (set by the handler, read
#: where the page's kernel is started, in the same task).
_CLIENT: contextvars.ContextVar[str | None] = contextvars.ContextVar("janus_client",
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


def install() -> bool:
    """Guard every Voila application made in this process from now on (once per process;
    returns whether this call installed it): :class:`PageGuard` on its responses, legacy
    kernel WebSockets refused, the pages its kernel manager refuses not rendered."""
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
        await pre_get(self)

    get_generator = VoilaHandler.get_generator

    async def refusing_get_generator(self: Any, path: str | None = None) -> Any:
        notebook = posixpath.normpath("/" + (self.notebook_path or path or "")).lstrip("/")
        refused = getattr(self.kernel_manager, "refused_pages", ())
        if notebook in {posixpath.normpath("/" + p).lstrip("/") for p in refused}:
            raise web.HTTPError(404)
        _CLIENT.set(self.request.remote_ip)
        async for chunk in get_generator(self, path):
            yield chunk

    Voila.init_handlers = guarded_init_handlers  # type: ignore[method-assign]
    VoilaKernelWebsocketHandler.pre_get = v1_only_pre_get  # type: ignore[method-assign]
    VoilaHandler.get_generator = refusing_get_generator  # type: ignore[method-assign]
    setattr(Voila, _INSTALLED, True)
    return True


class GuardedKernelManager(AsyncMappingKernelManager):
    """Voila's kernel manager with caps and a deadline (and, made, :func:`install`).

    A page (the address a kernel was started for) has at most ``max_kernels_per_page``
    kernels, one client (the address a request comes from) ``max_kernels_per_client``,
    the server ``max_kernels``: a load beyond any is answered 503 with a sentence that
    says which cap and what to do. This machine's own requests (loopback) have no
    per-client cap, unless ``cap_loopback``: the teacher's browser, and every client
    behind a reverse proxy on the same machine. A kernel no page is connected to is shut
    down ``unconnected_timeout`` seconds after it last did anything (its notebook ran) or
    its last page left."""

    max_kernels = Int(60, config=True,
                      help="kernels (pages open) the server runs at most, all pages together")
    max_kernels_per_page = Int(40, config=True,
                               help="kernels one page (one notebook) runs at most")
    max_kernels_per_client = Int(6, config=True,
                                 help="kernels the requests of one client address start at "
                                      "most (this machine's own requests: no cap)")
    cap_loopback = Bool(False, config=True,
                        help="count this machine's own requests per client as well")
    unconnected_timeout = Float(60.0, config=True,
                                help="seconds a kernel lives with no page connected")
    check_interval = Float(5.0, config=True, help="seconds between checks for such kernels")
    refused_pages = List(Unicode(), config=True,
                         help="notebooks (paths under the served folder) never rendered")

    def __init__(self, **kwargs: Any) -> None:
        install()
        super().__init__(**kwargs)
        self._page_of: dict[str, tuple[str, str | None]] = {}   # kernel → (page, client)
        self._alone_since: dict[str, float] = {}
        self._starting: list[tuple[str, str | None]] = []
        self._checker: Any = None

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

    async def start_kernel(self, *, kernel_id: str | None = None, path: str | None = None,
                           **kwargs: Any) -> str:
        """Start a page's kernel, unless a cap is reached (:class:`PageFull`)."""
        if kernel_id is not None and kernel_id in self:
            return kernel_id
        env = kwargs.get("env") or {}
        # the page's address as Voila was asked for it, made plain, so that
        # /voila/render//a.ipynb and /voila/render/./a.ipynb count as /voila/render/a.ipynb
        page = posixpath.normpath("/" + str(env.get("SCRIPT_NAME") or path or ""))
        if self._count() >= self.max_kernels:
            raise PageFull(f"This page cannot open now: the server is full, it runs "
                           f"{_times(self.max_kernels, 'page')} at once, its limit. Close "
                           "a page you no longer use, or try again in a minute.")
        client = _CLIENT.get()
        if self._counted(client) and \
                self._count(client=client) >= self.max_kernels_per_client:
            raise PageFull(f"This page cannot open now: your computer has "
                           f"{_times(self.max_kernels_per_client, 'page')} of this server "
                           "open already, its limit. Close one you no longer use, or try "
                           "again in a minute.")
        if self._count(page) >= self.max_kernels_per_page:
            raise PageFull(f"This page cannot open now: it is open "
                           f"{_times(self.max_kernels_per_page, 'time')} already, its "
                           "limit. Close a copy you no longer use, or try again in a "
                           "minute.")
        place = (page, client)
        self._starting.append(place)
        try:
            kernel_id = await super().start_kernel(kernel_id=kernel_id, path=path, **kwargs)
        finally:
            self._starting.remove(place)
        self._page_of[kernel_id] = place
        self._alone_since[kernel_id] = time.monotonic()
        self._start_checker()
        return kernel_id

    def _start_checker(self) -> None:
        if self._checker is None:
            from tornado.ioloop import PeriodicCallback
            self._checker = PeriodicCallback(self._shut_unconnected,
                                             1000 * self.check_interval)
            self._checker.start()

    def notify_connect(self, kernel_id: str) -> None:
        super().notify_connect(kernel_id)
        self._alone_since.pop(kernel_id, None)

    def notify_disconnect(self, kernel_id: str) -> None:
        super().notify_disconnect(kernel_id)
        if self._kernel_connections.get(kernel_id, 0) <= 0 and kernel_id in self._page_of:
            self._alone_since[kernel_id] = time.monotonic()

    def _forget(self, kernel_id: str) -> None:
        self._page_of.pop(kernel_id, None)
        self._alone_since.pop(kernel_id, None)

    async def shutdown_kernel(self, kernel_id: str, now: bool = False,
                              restart: bool = False) -> None:
        """Shut a kernel down and stop counting it."""
        try:
            await super().shutdown_kernel(kernel_id, now=now, restart=restart)
        finally:
            if not restart:
                self._forget(kernel_id)

    async def _shut_unconnected(self) -> None:
        """Shut down every kernel no page has been connected to for the timeout."""
        now = time.monotonic()
        for kernel_id in list(self._page_of):
            if kernel_id not in self:
                self._forget(kernel_id)
                continue
            since = self._alone_since.get(kernel_id)
            if since is None or self._kernel_connections.get(kernel_id, 0) > 0:
                continue
            kernel = self.get_kernel(kernel_id)
            last = getattr(kernel, "last_activity", None)
            quiet = now - since
            if last is not None:        # its notebook still running counts as life
                from jupyter_server._tz import utcnow
                quiet = min(quiet, (utcnow() - last).total_seconds())
            if quiet >= self.unconnected_timeout and \
                    getattr(kernel, "execution_state", "") != "busy":
                self.log.info("janus_widgets: shutting down kernel %s: no page connected "
                              "for %.0f s", kernel_id, quiet)
                try:
                    await self.shutdown_kernel(kernel_id)
                except Exception:  # noqa: BLE001 - one kernel's failure stops no other
                    self.log.exception("janus_widgets: could not shut down kernel %s",
                                       kernel_id)

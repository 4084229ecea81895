"""Page loads cannot exhaust the server (issue 33, item 3): the kernels of one page, of
one client and of the whole Voila are capped (a load beyond a cap gets a page that says
so), and a kernel whose page never connected, or has left, is shut down after the
timeout.

One Voila, with the project's ``voila.json`` and small caps for the test (2 kernels a
page, 3 a client, this machine counted as one, 4 in all, 4 s without a page); the
kernels are kept by WebSockets as a browser's page keeps them (the v1 kernel protocol).
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from browser_support import voila_tree

from janus_widgets.voila_guard import KERNEL_PROTOCOL

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 4.0
PAGE = {"cells": [{"cell_type": "code", "execution_count": None, "id": "c1", "metadata": {},
                   "outputs": [], "source": ["print('ready')"]}],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                    "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5}

#: A page that sends its own signs of life every 2 s (a classroom's lesson page, the
#: dashboard: :class:`janus_widgets.widgets.alive.Heartbeat`).
BEATING = {**PAGE, "cells": [{**PAGE["cells"][0], "source": [
    "from janus_widgets.table.local import kernel_loop\n",
    "from janus_widgets.widgets.alive import Heartbeat\n",
    "beat = Heartbeat('gone', 'janus-test-stale', kernel_loop())\n",
    "display(beat.widget)"]}]}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("kernels")
    config = json.loads((ROOT / "notebooks" / "voila.json").read_text())
    config["GuardedKernelManager"] = {"max_kernels_per_page": 2, "max_kernels_per_client": 3,
                                      "max_kernels": 4, "cap_loopback": True,
                                      "unconnected_timeout": TIMEOUT,
                                      "check_interval": 0.5}
    (folder / "voila.json").write_text(json.dumps(config))
    for name in ("a", "b"):
        (folder / f"{name}.ipynb").write_text(json.dumps(PAGE))
    (folder / "beating.ipynb").write_text(json.dumps(BEATING))
    with voila_tree(folder, folder / "voila.log") as base:
        yield base


def load(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=120) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def kernel_of(html: str) -> str:
    return re.search(r'"kernelId": "([0-9a-f-]{36})"', html).group(1)


def alive(base: str, kernel: str) -> bool:
    return load(base + f"api/kernels/{kernel}")[0] == 200


class Pages:
    """Kernel WebSockets held open on a thread of their own, as open pages hold them."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.sockets: dict[str, Any] = {}

    def _run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(30)

    async def _connect(self, base: str, kernel: str) -> Any:
        """A kernel socket that reads all it is sent, as a page's does."""
        import tornado.websocket
        url = base.replace("http://", "ws://") + f"api/kernels/{kernel}/channels"
        socket = await tornado.websocket.websocket_connect(url,
                                                           subprotocols=[KERNEL_PROTOCOL])

        async def read() -> None:
            while await socket.read_message() is not None:
                pass
        asyncio.ensure_future(read())
        return socket

    def open(self, base: str, kernel: str) -> None:
        self.sockets[kernel] = self._run(self._connect(base, kernel))

    def open_at_once(self, base: str, kernel: str, n: int) -> int:
        """Ask for ``n`` sockets to ``kernel`` at the same moment; how many opened (they
        are kept open, and closed with the others)."""
        async def all_at_once() -> list[Any]:
            return await asyncio.gather(*(self._connect(base, kernel) for _ in range(n)),
                                        return_exceptions=True)
        opened = [s for s in self._run(all_at_once()) if not isinstance(s, Exception)]
        for k, socket in enumerate(opened):
            self.sockets[f"{kernel}/{k}"] = socket
        return len(opened)

    def leave(self, kernel: str) -> None:
        async def close() -> None:
            self.sockets.pop(kernel).close()
        self._run(close())

    def close(self) -> None:
        for kernel in list(self.sockets):
            self.leave(kernel)
        self.loop.call_soon_threadsafe(self.loop.stop)


def wait_gone(base: str, kernel: str, within: float) -> float:
    """Seconds until the kernel is shut down (fails after ``within``)."""
    start = time.monotonic()
    while time.monotonic() - start < within:
        if not alive(base, kernel):
            return time.monotonic() - start
        time.sleep(0.25)
    pytest.fail(f"kernel {kernel} still runs {within:.0f} s later")


def test_kernels_are_capped_and_unconnected_ones_shut_down(server):
    pages = Pages()
    try:
        status, html = load(server + "voila/render/a.ipynb")
        assert status == 200
        first = kernel_of(html)
        pages.open(server, first)
        status, html = load(server + "voila/render/a.ipynb")
        assert status == 200
        second = kernel_of(html)
        pages.open(server, second)

        # a third copy of page a (under another spelling of its address): the page says
        # why it does not open
        status, html = load(server + "voila/render/./a.ipynb")
        assert status == 503
        assert "This page cannot open now: it is open 2 times already, its limit" in html, html
        assert "<h1>" in html and "Close a copy you no longer use, or try again in a minute" in html
        # another page opens (3 in all), but a fourth kernel is refused to this client
        # (the cap of the whole server is shown in test_classroom_voila.py)
        status, html = load(server + "voila/render/b.ipynb")
        assert status == 200
        never_connected = kernel_of(html)
        status, html = load(server + "voila/render/b.ipynb")
        assert status == 503 and "your computer has 3 pages of this server open" in html

        # the kernel no page connected to goes after the timeout; the connected stay
        waited = wait_gone(server, never_connected, within=TIMEOUT + 10)
        assert waited <= TIMEOUT + 5
        assert alive(server, first) and alive(server, second)
        # a page that leaves: its kernel goes after the timeout, not before
        pages.leave(second)
        left = time.monotonic()
        time.sleep(TIMEOUT / 2)
        assert alive(server, second)
        wait_gone(server, second, within=TIMEOUT + 10)
        assert time.monotonic() - left >= TIMEOUT
        time.sleep(TIMEOUT / 2)
        assert alive(server, first)                 # still connected, still there
        # the freed places open again
        assert load(server + "voila/render/a.ipynb")[0] == 200
    finally:
        pages.close()


def test_a_page_with_signs_of_life_is_shut_down_when_no_page_is_connected(server):
    """A kernel's own messages are no page: every message renewed its last activity,
    and a lesson page's signs of life (every 2 s) kept its kernel for ever once its
    page had closed (a second wave of 30 pages then met the cap of 40 and was refused)."""
    status, html = load(server + "voila/render/beating.ipynb")
    assert status == 200
    beating = kernel_of(html)
    waited = wait_gone(server, beating, within=TIMEOUT + 10)
    assert waited <= TIMEOUT + 5


def test_voilas_http_server_is_the_guarded_one(server):
    """The class's Voila runs the table server's guarded HTTP server: its own kept idle
    connections for ever, and 1,100 of them (past a laptop's 1,024 files) locked every
    lesson page out. Seen from outside: a body announced too long is refused unread with
    the guard's 413, and a Host tornado would choke on with its 400, no traceback."""
    import socket
    port = int(server.rstrip("/").rsplit(":", 1)[1])
    for request, status in ((b"POST /voila/render/a.ipynb HTTP/1.1\r\nHost: x\r\n"
                             b"Content-Length: 9999999\r\n\r\n", b"413"),
                            (b"GET /voila/render/a.ipynb HTTP/1.1\r\nHost: a:" + b"9" * 5000
                             + b"\r\n\r\n", b"400")):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(request)
        answer = s.recv(4096)
        s.close()
        assert answer.split(b" ")[1] == status, answer[:200]
        assert b"application/json" in answer
    assert load(server + "voila/render/a.ipynb")[0] in (200, 503)   # it serves on


def test_this_machine_has_no_cap_of_its_own_unless_asked():
    """The teacher's browser on the server's machine (and a reverse proxy there) is not
    one student: loopback addresses have no per-client cap unless ``cap_loopback``."""
    from types import SimpleNamespace

    from janus_widgets.voila_guard import GuardedKernelManager
    counted = GuardedKernelManager._counted
    default, asked = SimpleNamespace(cap_loopback=False), SimpleNamespace(cap_loopback=True)
    for local in ("127.0.0.1", "::1", "::ffff:127.0.0.1", "127.0.0.2"):
        assert not counted(default, local) and counted(asked, local), local
    for student in ("10.0.0.7", "192.168.1.23", "fe80::1", "2001:db8::5"):
        assert counted(default, student), student
    assert not counted(default, None)


def test_students_behind_one_address_are_counted_by_their_slips_pass(tmp_path):
    """A school's students may all reach the class's pages through one address (a proxy,
    a NAT): counted by address, six lesson pages opened for the whole class and the rest
    were refused "your computer has 6 pages". A request with a lesson slip's code and
    its pass (the table server sends a slip's code on with it) counts for that code; a
    made-up pass, or none, for the address, as before."""
    from html import unescape

    from janus_widgets.table.page_pass import page_pass, read_or_make_key
    key_path = tmp_path / "class.sqlite.pages-key"
    key = read_or_make_key(str(key_path))
    config = json.loads((ROOT / "notebooks" / "voila.json").read_text())
    config["GuardedKernelManager"] = {"max_kernels_per_client": 2, "cap_loopback": True,
                                      "pages_key_file": str(key_path)}
    (tmp_path / "voila.json").write_text(json.dumps(config))
    (tmp_path / "a.ipynb").write_text(json.dumps(PAGE))

    with voila_tree(tmp_path, tmp_path / "voila.log") as base:
        def page(code: str, given: str | None = None) -> tuple[int, str]:
            given = page_pass(key, code) if given is None else given
            return load(f"{base}voila/render/a.ipynb?code={code}&pass={given}")

        for code in ("AAAAAAAAAA", "BBBBBBBBBB", "CCCCCCCCCC"):    # one address, three
            for _ in range(2):                                    # students, 2 pages each
                assert page(code)[0] == 200, code
        status, html = page("AAAAAAAAAA")
        assert status == 503 and "your lesson slip's code has 2 pages" in unescape(html)
        # a made-up pass, a pass of another code, none: the address's pages
        assert page("DDDDDDDDDD", "0" * 32)[0] == 200
        assert page("EEEEEEEEEE", page_pass(key, "AAAAAAAAAA"))[0] == 200
        status, html = load(f"{base}voila/render/a.ipynb?code=FFFFFFFFFF")
        assert status == 503 and "your computer has 2 pages" in html


def test_a_kernel_whose_page_left_is_shut_down_busy_or_not():
    """A hostile student typed an answer that kept their page's kernel busy (a number of
    a billion digits) and closed the page: busy counted as life, so the kernel burned a
    core for ever (two such pages took the teacher's laptop). A kernel whose page came
    and left is shut down after the timeout, busy or not; one still running its notebook
    for a page yet to come is kept while it runs."""
    from types import SimpleNamespace

    from janus_widgets.voila_guard import GuardedKernelManager

    class Kernels:
        unconnected_timeout = 60.0
        log = SimpleNamespace(info=lambda *a: None, exception=lambda *a: None)

        def __init__(self) -> None:
            now = time.monotonic()
            self._page_of = {"left": ("/a", None), "rendering": ("/a", None),
                             "idle": ("/a", None)}
            self._alone_since = {k: now - 120 for k in self._page_of}
            self._connected_once = {"left", "idle"}
            self._kernel_connections, self._pooled, self._busy_at = {}, set(), {}
            self.states = {"left": "busy", "rendering": "busy", "idle": "idle"}
            self.shut: list[str] = []

        def __contains__(self, kernel_id: str) -> bool:
            return kernel_id in self._page_of

        def get_kernel(self, kernel_id: str) -> Any:
            return SimpleNamespace(execution_state=self.states[kernel_id])

        async def shutdown_kernel(self, kernel_id: str) -> None:
            self.shut.append(kernel_id)

    kernels = Kernels()
    # on a thread of its own: this one may be running another test's event loop
    check = threading.Thread(
        target=lambda: asyncio.run(GuardedKernelManager._shut_unconnected(kernels)))
    check.start()
    check.join(30)
    assert sorted(kernels.shut) == ["idle", "left"]


#: A page whose kernel sets a widget's value of 500 kB five times a second for 90 s once
#: shown: every update goes to each of the kernel's sockets (output would be cut by
#: Jupyter's own rate limit for output; widget messages are not).
FLOOD = {**PAGE, "cells": [{**PAGE["cells"][0], "source": [
    "import threading, time\n",
    "import ipywidgets as w\n",
    "box = w.Text()\n",
    "display(box)\n",
    "def flood():\n",
    "    for k in range(450):\n",
    "        box.value = str(k % 10) * 500_000\n",
    "        time.sleep(0.2)\n",
    "threading.Timer(1.0, flood).start()"]}]}


def test_a_kernels_sockets_are_few_and_one_that_does_not_read_is_closed(tmp_path):
    """One student's 8 kernel WebSockets that never read, and a widget value of 4 MB set
    again and again (every kernel message goes to each socket), grew the pages' Voila by
    1 GB in 13 s. A page's kernel takes at most MAX_KERNEL_SOCKETS sockets, and one that
    leaves KERNEL_SOCKET_UNSENT bytes unread is closed; the page's own socket, which
    reads, stays."""
    import socket

    import tornado.httpclient

    from janus_widgets.voila_guard import MAX_KERNEL_SOCKETS
    config = json.loads((ROOT / "notebooks" / "voila.json").read_text())
    config["GuardedKernelManager"] = {"cap_loopback": True}
    (tmp_path / "voila.json").write_text(json.dumps(config))
    (tmp_path / "a.ipynb").write_text(json.dumps(PAGE))
    (tmp_path / "flood.ipynb").write_text(json.dumps(FLOOD))
    pages = Pages()
    with voila_tree(tmp_path, tmp_path / "voila.log") as base:
        try:
            kernel = kernel_of(load(base + "voila/render/a.ipynb")[1])
            # asked for all at once (each waits for the kernel's answer before it opens)
            assert pages.open_at_once(base, kernel, 2 * MAX_KERNEL_SOCKETS) == \
                MAX_KERNEL_SOCKETS
            with pytest.raises(tornado.httpclient.HTTPClientError, match="429"):
                pages.open(base, kernel)
            # the flood: a socket that never reads, beside one that does
            flooding = kernel_of(load(base + "voila/render/flood.ipynb")[1])
            port = int(base.rstrip("/").rsplit(":", 1)[1])
            silent = socket.create_connection(("127.0.0.1", port), timeout=10)
            silent.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            silent.sendall(
                f"GET /api/kernels/{flooding}/channels HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                f"Sec-WebSocket-Protocol: {KERNEL_PROTOCOL}\r\n\r\n".encode())
            pages.open(base, flooding)                     # the page's own: it reads

            def connections() -> int:
                """The flooding kernel's sockets (-1: the kernel is gone)."""
                return json.loads(load(f"{base}api/kernels/{flooding}")[1]).get(
                    "connections", -1)
            deadline = time.monotonic() + 90
            while connections() != 1 and time.monotonic() < deadline:
                time.sleep(0.5)
            assert connections() == 1, "the socket that does not read was kept"
            assert pages.sockets[flooding].close_code is None   # the page's own stays
            silent.close()
            log = (tmp_path / "voila.log").read_text()
            assert "does not read what it is sent" in log
            assert "Traceback" not in log     # the refusal above is an answer, not an error
        finally:
            pages.close()

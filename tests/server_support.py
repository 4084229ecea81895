"""A real table server in its own process, on a free port, with a real SQLite file.

``table_server(folder)`` starts ``python -m janus_widgets serve`` as a teacher would,
reads its address and writes the teacher's token to a file of ``folder``, waits until
it answers, and stops it at the end; ``kill()`` ends it with SIGKILL (nothing flushed,
no goodbye), ``start()`` brings it back on the same port and database. ``Socket`` is a
raw WebSocket client that records every frame it receives, for the tests that look at
what a seat is sent.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from browser_support import free_port, wait_http


class ServerProcess:
    """``python -m janus_widgets serve`` on a port and a database of its own."""

    def __init__(self, folder: Path, bot_delay: float = 0.05) -> None:
        self.folder = Path(folder)
        self.port = free_port()
        self.db = self.folder / "classroom.sqlite"
        self.token_file = self.folder / "teacher-token"
        self.bot_delay = bot_delay
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log = self.folder / "server.log"
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        out = open(self.log, "a")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "janus_widgets", "serve", "--port", str(self.port),
             "--db", str(self.db), "--teacher-token-file", str(self.token_file),
             "--bot-delay", str(self.bot_delay)],
            stdout=out, stderr=subprocess.STDOUT, cwd=self.folder)
        wait_http(self.url + "/api/status", timeout=60, proc=self.proc)

    @property
    def token(self) -> str:
        return self.token_file.read_text().strip()

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to tidy up."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)


@contextmanager
def table_server(folder: Path, bot_delay: float = 0.05) -> Iterator[ServerProcess]:
    server = ServerProcess(folder, bot_delay)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Socket:
    """A raw WebSocket to the server on a thread of its own: ``send(dict)``,
    ``receive(type)`` (the next frame of that type), ``frames`` (every frame so far),
    ``closed`` with the server's ``close_code`` and ``close_reason``."""

    def __init__(self, url: str) -> None:
        import tornado.websocket
        self.frames: list[dict[str, Any]] = []
        self._texts: list[str] = []
        self._cond = threading.Condition()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        ws_url = url.replace("http://", "ws://") + "/ws"
        async def connect() -> Any:
            return await tornado.websocket.websocket_connect(ws_url)
        self._ws = asyncio.run_coroutine_threadsafe(connect(), self._loop).result(10)
        self.closed = False
        self.close_code: int | None = None
        self.close_reason: str | None = None
        asyncio.run_coroutine_threadsafe(self._read(), self._loop)

    async def _read(self) -> None:
        while True:
            text = await self._ws.read_message()
            with self._cond:
                if text is None:
                    self.closed = True
                    self.close_code = self._ws.close_code
                    self.close_reason = self._ws.close_reason
                    self._cond.notify_all()
                    return
                self._texts.append(text)
                self.frames.append(json.loads(text))
                self._cond.notify_all()

    def send_text(self, text: str | bytes) -> None:
        asyncio.run_coroutine_threadsafe(self._write(text), self._loop).result(10)

    async def _write(self, text: str | bytes) -> None:
        await self._ws.write_message(text, binary=isinstance(text, bytes))

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(json.dumps(message))

    def receive(self, kind: str | None = None, timeout: float = 10, after: int = 0,
                where: Any = None) -> dict[str, Any]:
        """The first frame at index ``after`` or later of this type (and matching
        ``where(frame)``), waiting up to ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for frame in self.frames[after:]:
                    if (kind is None or frame.get("type") == kind) and (
                            where is None or where(frame)):
                        return frame
                left = deadline - time.monotonic()
                if left <= 0 or self.closed:
                    raise TimeoutError(f"no {kind} frame within {timeout} s; got "
                                       f"{[f.get('type') for f in self.frames[after:]]}")
                self._cond.wait(left)

    def mark(self) -> int:
        """The number of frames so far (to wait for frames after it)."""
        with self._cond:
            return len(self.frames)

    @property
    def texts(self) -> list[str]:
        with self._cond:
            return list(self._texts)

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._ws.close)


class DeafSocket:
    """A WebSocket client written by hand, as a student's script might be: it signs in
    and sends text frames, and never answers the server's close frame (a browser's
    socket answers at once; tornado then waits up to 5 s for the answer)."""

    def __init__(self, url: str, receive_buffer: int | None = None) -> None:
        import base64
        import socket
        host, port = url.removeprefix("http://").split(":")
        self.sock = socket.socket()
        if receive_buffer:                 # a reader that holds little (set before connecting)
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(10)
        self.sock.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                          f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                          "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(4096)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head

    def send(self, message: dict[str, Any]) -> None:
        payload = json.dumps(message).encode()
        mask = os.urandom(4)
        size = len(payload)
        head = bytes([0x81]) + (bytes([0x80 | size]) if size < 126 else
                                bytes([0x80 | 126]) + size.to_bytes(2, "big"))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def frame(self, timeout: float = 10) -> tuple[int, bytes]:
        """The next frame from the server: (opcode, payload)."""
        self.sock.settimeout(timeout)
        def need(n: int) -> bytes:
            while len(self.buffer) < n:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise ConnectionError("the server closed the connection")
                self.buffer += chunk
            data, self.buffer = self.buffer[:n], self.buffer[n:]
            return data
        first, second = need(2)
        size = second & 0x7F
        if size == 126:
            size = int.from_bytes(need(2), "big")
        elif size == 127:
            size = int.from_bytes(need(8), "big")
        return first & 0x0F, need(size)

    def until(self, kind: str, timeout: float = 10) -> dict[str, Any]:
        """Frames until a JSON message of type ``kind``; it is returned."""
        while True:
            opcode, payload = self.frame(timeout)
            if opcode == 1:
                message = json.loads(payload)
                if message.get("type") == kind:
                    return message

    def close(self) -> None:
        self.sock.close()

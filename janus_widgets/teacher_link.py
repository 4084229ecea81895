"""The teacher's way into the dashboard, with no secret on a screen the class may see.

The dashboard's address holds the teacher's token, and a terminal is often on the
projector. So ``python -m janus_widgets classroom`` never prints the token or an address
that holds it: it writes the address to a small page beside the database
(``classroom.sqlite.dashboard.html``, readable by its owner only, rewritten at every
start) and opens that page in the teacher's browser when the machine has a display
(``--no-browser`` turns that off); the terminal says only where the page is. Opening the
page again (a double click) opens the dashboard again.

>>> address = dashboard_address("http://127.0.0.1:8868/", "http://10.0.0.5:8866", "s3cr3t")
>>> address
'http://127.0.0.1:8868/?server=http%3A%2F%2F10.0.0.5%3A8866&token=s3cr3t'
>>> dashboard_file("class/3b.sqlite").name
'3b.sqlite.dashboard.html'
"""

from __future__ import annotations

import html
import os
import sys
import threading
import webbrowser
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlencode

__all__ = ["dashboard_address", "dashboard_file", "write_dashboard_file",
           "has_display", "open_dashboard", "SUFFIX"]

#: What the dashboard's page adds to the database's name.
SUFFIX = ".dashboard.html"


def dashboard_address(page: str, server: str, token: str) -> str:
    """The dashboard's full address: its ``page`` with the table server's address and
    the teacher's token in the query string (a secret: see the module's docstring)."""
    return f"{page}?" + urlencode({"server": server, "token": token})


def dashboard_file(db: str | os.PathLike[str]) -> Path:
    """Where the dashboard's page is kept: beside the database, its name +
    :data:`SUFFIX` (as the token is kept in its name + ``.token``)."""
    path = Path(db).resolve()
    return path.with_name(path.name + SUFFIX)


def write_dashboard_file(path: Path, address: str) -> Path:
    """Write the page that opens ``address`` (the dashboard, token and all) to ``path``,
    readable and writable by its owner only (0600, whatever the file was before);
    returns ``path``."""
    shown = html.escape(address, quote=True)
    text = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>Classroom dashboard</title>
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0; url={shown}">
</head><body style="font-family:sans-serif">
<p>Opening your <a href="{shown}">classroom dashboard</a>&#8230;</p>
<p>This page holds your teacher's token: it is yours only (no one else on this computer
can read it). The dashboard's address holds the token too: open it before you share or
project the screen, or keep its window off the projected screen.</p>
</body></html>
"""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)          # a file left by an earlier start, however it was
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)
    return path


def has_display(env: Mapping[str, str] | None = None, platform: str | None = None) -> bool:
    """Whether a browser window can open here: always on macOS and Windows; elsewhere
    only with an X or Wayland display (without one, Python's ``webbrowser`` would start
    a text browser in the terminal, or nothing).

    >>> has_display({}, "linux"), has_display({"DISPLAY": ":0"}, "linux"), has_display({}, "darwin")
    (False, True, True)
    """
    env = os.environ if env is None else env
    platform = sys.platform if platform is None else platform
    if platform == "darwin" or platform.startswith("win"):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"))


def open_dashboard(path: Path, wait: float = 5.0) -> bool:
    """Open the dashboard's page (``path``, a local file: no token on a command line)
    in the teacher's browser; whether a browser took it. It never holds the caller up
    for more than ``wait`` seconds (a browser named in ``$BROWSER`` may run until it is
    closed: then it took the page)."""
    answer: list[bool] = []

    def run() -> None:
        try:
            answer.append(bool(webbrowser.open(path.resolve().as_uri(), new=2)))
        except (webbrowser.Error, OSError):
            answer.append(False)
    opener = threading.Thread(target=run, daemon=True, name="janus-open-dashboard")
    opener.start()
    opener.join(wait)
    return answer[0] if answer else True

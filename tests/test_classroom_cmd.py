"""The ``classroom`` command and the teacher's token: never printed, never on a command
line; the dashboard's address (token and all) is in a page beside the database that
only the teacher may read, which the command opens in the teacher's browser when there
is a display. The unit tests need no server; the last test starts the command once (the
table server and its Voilas) as a teacher would."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from janus_widgets import teacher_link


def test_the_dashboards_page_is_the_teachers_only_and_opens_the_dashboard(tmp_path):
    path = tmp_path / "class.sqlite.dashboard.html"
    path.write_text("left by an earlier start")
    os.chmod(path, 0o644)                            # however it was left
    address = teacher_link.dashboard_address("http://127.0.0.1:8868/",
                                             "http://10.0.0.5:8866", "tok<en>&'\"")
    teacher_link.write_dashboard_file(path, address)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    page = path.read_text()
    assert "tok<en>" not in page                     # escaped where it is written
    refresh = re.search(r'http-equiv="refresh" content="0; url=([^"]*)"', page).group(1)
    import html
    assert html.unescape(refresh) == address and "no-referrer" in page


def test_the_browser_is_given_the_file_and_never_the_token(tmp_path, monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr(teacher_link.webbrowser, "open",
                        lambda url, new=0: opened.append(url) or True)
    path = teacher_link.write_dashboard_file(tmp_path / "d.html", "http://h/?token=SECRET")
    assert teacher_link.open_dashboard(path)
    assert opened == [path.resolve().as_uri()] and "SECRET" not in opened[0]


def test_a_display_is_needed_to_open_a_browser():
    assert not teacher_link.has_display({"TERM": "xterm"}, "linux")
    assert teacher_link.has_display({"WAYLAND_DISPLAY": "wayland-0"}, "linux")
    assert teacher_link.has_display({}, "win32")

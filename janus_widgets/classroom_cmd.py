"""``python -m janus_widgets classroom``: the table server and the class's pages at once.

One command for a lesson at many screens. It writes the pages a class opens into a
folder of their own (the seat page, the teacher's dashboard and every lesson's
*student* edition, never a lesson's source, which holds the teacher's notes and
answers), starts the table server and a Voila server for that folder, prints the
addresses, and opens nothing. Ctrl-C stops both; starting it again with the same
database brings every table back.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from .table.server import run_until_stopped

__all__ = ["main", "build_pages", "NOTEBOOKS"]

#: The project's notebooks (the pages are made from them).
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


def build_pages(folder: Path, source: Path = NOTEBOOKS) -> list[Path]:
    """Write the class's pages into ``folder`` (emptied first): ``seat.ipynb``,
    ``teacher.ipynb``, ``voila.json`` and ``lessons/<lesson>.ipynb``, the student
    edition of each lesson."""
    from .analysis import lessons
    if not (source / "seat.ipynb").exists():
        raise FileNotFoundError(f"the class's pages are made from the project's notebooks, "
                                f"and {source} has no seat.ipynb: run the command from a "
                                "clone of janus_widgets")
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    written = []
    for name in ("seat.ipynb", "teacher.ipynb", "voila.json"):
        shutil.copy(source / name, folder / name)
        written.append(folder / name)
    written += lessons.build_editions("student", folder / "lessons", folder=source)
    return written


def _lan_address() -> str:
    """This machine's address on the class's network (for the printed links)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))        # no packet is sent
            return s.getsockname()[0]
    except OSError:
        return socket.gethostbyname(socket.gethostname())


def _wait(url: str, proc: subprocess.Popen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"Voila stopped at start (exit code {proc.returncode})")
        try:
            with urllib.request.urlopen(url, timeout=3):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"Voila did not answer at {url} within {timeout:.0f} s")


def main(args: Any) -> int:
    """Run the classroom until Ctrl-C."""
    host, port = args.host, args.port
    pages_port = args.pages_port or port + 1
    folder = Path(args.pages or Path(args.db).resolve().parent / "classroom-pages")
    try:
        written = build_pages(folder)
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    shown = _lan_address() if host in ("0.0.0.0", "::") else host
    pages_url = f"http://{shown}:{pages_port}"
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(folder / ".runtime")}
    voila = subprocess.Popen(
        [sys.executable, "-m", "janus_widgets.nodelay", str(folder), "--no-browser",
         f"--port={pages_port}", f"--Voila.ip={host}", "--Voila.port_retries=0"],
        cwd=folder, env=env, stdout=subprocess.DEVNULL if not args.verbose else None,
        stderr=subprocess.STDOUT if not args.verbose else None)
    try:
        _wait(f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{pages_port}"
              "/voila/static/voila.js", voila)
    except RuntimeError as exc:
        voila.terminate()
        print(f"error: {exc}", file=sys.stderr)
        return 1

    def ready(url: str, token: str) -> None:
        server_url = url.replace("0.0.0.0", shown)
        lessons = sorted(p.stem for p in (folder / "lessons").glob("*.ipynb"))
        print(f"Table server at {server_url} (database {args.db})")
        print(f"Pages for the class at {pages_url}/ (folder {folder}, {len(written)} files)")
        print(f"  students' seats:  {pages_url}/voila/render/seat.ipynb "
              "(the join slips hold each student's address)")
        print(f"  lessons (student editions): {pages_url}/voila/render/lessons/NAME.ipynb "
              f"for {', '.join(lessons)}")
        if args.teacher_token_file:
            print(f"Teacher's token in {args.teacher_token_file}")
        else:
            print(f"Teacher's token: {token}")
        print(f"  your dashboard:   {pages_url}/voila/render/teacher.ipynb?server="
              f"{server_url}&token=… (keep an address with your token off the projector)")
        print("Ctrl-C stops both.", flush=True)

    try:
        code = run_until_stopped(args, ready, pages=pages_url)
    finally:
        voila.terminate()
        try:
            voila.wait(timeout=15)
        except subprocess.TimeoutExpired:
            voila.kill()
    if code:
        return code
    print("Classroom stopped: the table server and the pages; every table is in the "
          "database.", flush=True)
    return 0

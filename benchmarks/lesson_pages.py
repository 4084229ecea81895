"""A class opening a lesson's page at once, on this machine: how long until each page is ready.

    python benchmarks/lesson_pages.py                          # game-design-lab, 30 pages
    python benchmarks/lesson_pages.py --pages 30 janus-tolls roman-dice
    python benchmarks/lesson_pages.py --pages 30 --no-pool janus-tolls     # as before pools

For each lesson it starts the ``classroom`` command as a teacher does
(``python -m janus_widgets classroom --lesson NAME --students N --no-browser``, a
database and pages of its own), waits until it prints that the lesson's pages are ready,
makes a class of ``--pages`` students, and has every student open the lesson's page at
the same moment with the code on their slip (``?server=…&code=…``), each from its own
thread over HTTP. A page counts as ready when its response ends: Voila sends a page's
last bytes only after its kernel has run the whole notebook and the last cell is
rendered, so the end of the response is the moment the page is complete on the server
(a browser then only draws what it received and fetches the widgets' state). Plain HTTP
clients keep the two cores for the server: 30 Chromium tabs would measure Chromium.
The pages are checked: each shows no error, is the whole page and joined the class.

It prints the median and the slowest page, with the load average, for the first wave
(the pool just warm) and a second wave (the same students again once the pool is made
again, the first wave's pages still open). ``--no-pool`` starts the classroom without
``--lesson``: every page starts its own kernel (what a class got before pools).

Nothing is asserted: these are figures (the tests check behaviour, not speed). The
machine is shared: run it at a quiet moment, and read the load average beside each
figure.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from janus_widgets.analysis.class_link import NOT_JOINED_CLASS  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_classroom(folder: Path, lesson: str, pages: int, pool: bool
                    ) -> tuple[subprocess.Popen, str, str, float]:
    """The classroom command, started and ready: it, the table server's and the pages'
    addresses, and the seconds until its lesson pages were ready."""
    port, pages_port, dash_port = free_port(), free_port(), free_port()
    command = [sys.executable, "-m", "janus_widgets", "classroom", "--port", str(port),
               "--pages-port", str(pages_port), "--dashboard-port", str(dash_port),
               "--db", str(folder / "class.sqlite"), "--no-browser"]
    if pool:
        command += ["--lesson", lesson, "--students", str(pages)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    start = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, cwd=folder, env=env)
    wanted = "The lesson pages are ready" if pool else "Ctrl-C stops"
    assert proc.stdout is not None
    for line in proc.stdout:
        print("   |", line.rstrip(), flush=True)
        if wanted in line:
            break
    else:
        raise SystemExit(f"the classroom stopped before its pages were ready "
                         f"(exit {proc.wait()})")
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
    return proc, f"http://127.0.0.1:{port}", f"http://127.0.0.1:{pages_port}/", \
        time.monotonic() - start


def a_wave(server: str, pages: str, lesson: str, codes: dict[str, str]) -> list[float]:
    """Every student opens the lesson's page at once; the seconds until each was
    complete."""
    times: dict[str, float] = {}
    failed: list[str] = []
    go = threading.Event()

    def one(name: str) -> None:
        query = urllib.parse.urlencode({"server": server, "code": codes[name]})
        go.wait()
        start = time.monotonic()
        try:
            with urllib.request.urlopen(f"{pages}voila/render/lessons/{lesson}.ipynb?"
                                        f"{query}", timeout=1800) as response:
                text = response.read().decode()
        except OSError as exc:
            failed.append(f"{name}: {exc}")
            return
        times[name] = time.monotonic() - start
        if "voila_finish" not in text or "There was an error" in text or \
                "An exception occurred" in text:
            failed.append(f"{name}: the page is incomplete or shows an error")
        elif NOT_JOINED_CLASS in text:                  # it joined no class
            failed.append(f"{name}: the page did not join the class")

    threads = [threading.Thread(target=one, args=(name,)) for name in codes]
    for thread in threads:
        thread.start()
    go.set()
    for thread in threads:
        thread.join()
    if failed:
        raise SystemExit(f"{len(failed)} pages of {lesson} failed: " + "; ".join(failed[:3]))
    return list(times.values())


def pool_ready(folder: Path, lesson: str, size: int) -> bool:
    import json
    try:
        status = json.loads((folder / "classroom-pages" / ".runtime" /
                             "janus-pools.json").read_text())
    except (OSError, ValueError):
        return False
    return status["pools"][f"lessons/{lesson}.ipynb"]["ready"] >= size


def line(lesson: str, kind: str, times: list[float]) -> str:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{lesson:18} {kind:12}: {len(times)} pages, ready median "
            f"{statistics.median(times):5.1f} s, slowest {max(times):5.1f} s, fastest "
            f"{min(times):5.1f} s (load average {load:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", default=["game-design-lab"])
    parser.add_argument("--pages", type=int, default=30)
    parser.add_argument("--no-pool", action="store_true",
                        help="no --lesson: every page starts its own kernel")
    parser.add_argument("--waves", type=int, default=2, choices=(1, 2))
    args = parser.parse_args()
    from janus_widgets.table.client import TeacherClient
    print(f"{os.cpu_count()} cores; {args.pages} pages of each lesson at once; load "
          f"average at the start {os.getloadavg()[0]:.1f}", flush=True)
    results = []
    for lesson in args.lessons:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            proc, server, pages, warm = start_classroom(folder, lesson, args.pages,
                                                        not args.no_pool)
            try:
                token = (folder / "class.sqlite.token").read_text().strip()
                codes = TeacherClient(server, token).create_class(
                    "bench", [f"s{k:02d}" for k in range(1, args.pages + 1)])
                if not args.no_pool:
                    results.append(f"{lesson:18} pool warm   : {args.pages} pages ready "
                                   f"{warm:.0f} s after the start")
                kinds = ["no pool" if args.no_pool else "first wave", "second wave"]
                for wave in range(args.waves):
                    if wave and not args.no_pool:
                        while not pool_ready(folder, lesson, args.pages):
                            time.sleep(2)
                    times = a_wave(server, pages, lesson, codes)
                    results.append(line(lesson, kinds[wave], times))
                    print(results[-1], flush=True)
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    proc.kill()
    print("\n".join(["", *results]))


if __name__ == "__main__":
    main()

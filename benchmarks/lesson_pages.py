"""A class opening a lesson's page at once, on this machine: how long until each page is ready.

    python benchmarks/lesson_pages.py                          # game-design-lab, 30 pages
    python benchmarks/lesson_pages.py --pages 30 jactus-odds janus-tolls
    python benchmarks/lesson_pages.py --pages 1 --cold game-design-lab

Each page is the lesson's student edition run top to bottom by its own nbclient kernel (a
Voila page is the same: a kernel runs the notebook, then the page shows), ``--pages`` of
them started at one moment, all sharing one study folder (``JANUS_WIDGETS_CACHE``, as the
``classroom`` command's pages do), so the heavy studies are computed by the first page that
asks and read by the others (``janus_widgets.analysis.studies``). For each lesson it prints
a cold class (an empty study folder) and a warm one (the folder a first class left): the
median and slowest time from the start to the page ready, and the machine's load average.

Nothing is asserted: these are figures (the tests check behaviour, not speed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def one_page(lesson: str) -> None:
    """Run one page (the child process): print the seconds it took, as JSON."""
    import nbformat
    from nbclient import NotebookClient

    from janus_widgets.analysis import lessons
    from janus_widgets.kernel_client import SlicedKernelManager
    start = float(os.environ["JANUS_BENCH_START"])
    nb = lessons.edition(nbformat.read(lessons.lesson(lesson).path, as_version=4), "student")
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            kernel_manager_class=SlicedKernelManager,
                            resources={"metadata": {"path": str(ROOT / "notebooks")}})
    client.execute()
    errors = [o.get("evalue", "") for c in nb.cells for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    print(json.dumps({"seconds": time.time() - start, "errors": errors}))


def a_class(lesson: str, pages: int, folder: str) -> list[float]:
    """``pages`` pages of ``lesson`` started at once; the seconds until each was ready."""
    env = {**os.environ, "JANUS_WIDGETS_CACHE": folder, "JANUS_BENCH_START": str(time.time()),
           "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH"))
                                         if p)}
    procs = [subprocess.Popen([sys.executable, __file__, "--one", lesson], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(pages)]
    times = []
    for proc in procs:
        out, err = proc.communicate()
        lines = [line for line in out.splitlines() if line.startswith("{")]
        if proc.returncode or not lines:
            raise SystemExit(f"a page of {lesson} failed (exit {proc.returncode}): "
                             + "\n".join(err.strip().splitlines()[-5:]))
        result = json.loads(lines[-1])
        if result["errors"]:
            raise SystemExit(f"a page of {lesson} showed an error: {result['errors'][0]}")
        times.append(result["seconds"])
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lessons", nargs="*", default=["game-design-lab"])
    parser.add_argument("--pages", type=int, default=30)
    parser.add_argument("--cold", action="store_true", help="only the cold class")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one_page(args.one)
        return
    print(f"{os.cpu_count()} cores; {args.pages} pages of each lesson at once")
    for lesson in args.lessons:
        with tempfile.TemporaryDirectory() as folder:
            for kind in (["cold"] if args.cold else ["cold", "warm"]):
                times = a_class(lesson, args.pages, folder)
                load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
                print(f"{lesson:18} {kind}: ready median {statistics.median(times):5.1f} s, "
                      f"slowest {max(times):5.1f} s, fastest {min(times):5.1f} s "
                      f"(load average {load:.1f})", flush=True)


if __name__ == "__main__":
    main()

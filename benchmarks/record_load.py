"""Loading a very long record: seconds and peak memory (issue 13 item 9).

The record is a legal Jactus game of ``--moves`` moves (default 1,000,002): the opening
throw ``r*`` ``=12345``, then for ever ``r5`` ``=5`` (each player picks up the 5 and throws
it again: the dice show 1 2 3 4 5 once more, nothing scores, the next player goes on).
The file is written once; each measurement then runs in a fresh Python process, so the
peak memory is that of the load alone:

* ``Record.load`` (read, parse and check every move by replaying it) and ``.replay()``
  (the replay cursor over it), then stepping: ``goto`` the middle, ``back``, ``forward``;
* ``GameWidget.load`` (the same, plus drawing the last position), with ``--widget``.

Printed per measurement: wall seconds and the process's peak resident memory
(``ru_maxrss``: interpreter and imports included; the figure before loading is printed
too). With ``--heap`` a second run traces the Python heap (``tracemalloc``) for its
peak; tracing slows Python down several times, so that run's seconds are not shown.

Run:  python benchmarks/record_load.py [--moves 1000002] [--widget] [--heap]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path


def write_record(path: Path, moves: int) -> None:
    """A legal Jactus record of ``moves`` moves (an even number, at least 2)."""
    loop = (moves - 2) // 2
    data = {"format": "janus-widgets-record", "version": 1, "game": "jactus",
            "variant": {"players": 2}, "seed": 1, "moves": ["r*", "=12345"] + ["r5", "=5"] * loop}
    path.write_text(json.dumps(data, indent=1))


def measure(path: str, widget: bool, heap: bool) -> dict:
    """Load ``path`` in this process; the figures as a dict."""
    from janus_widgets.core import Record
    if widget:
        from janus_widgets.widgets import GameWidget
        w = GameWidget("jactus", bot_delay=0)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if heap:
        tracemalloc.start()
    start = time.perf_counter()
    if widget:
        w.load(path)
        length = w.replay.length
    else:
        replay = Record.load(path).replay()
        length = replay.length
    loaded = time.perf_counter() - start
    step = time.perf_counter()
    cursor = w.replay if widget else replay
    if widget:
        w.goto(length // 2)
        w.back()
        w.step()
    else:
        cursor.goto(length // 2)
        cursor.back()
        cursor.forward()
    stepped = time.perf_counter() - step
    peak = tracemalloc.get_traced_memory()[1] if heap else 0
    tracemalloc.stop()
    assert cursor.index == length // 2 and cursor.state.ply == length // 2
    return {"moves": length, "load_s": loaded, "steps_ms": stepped * 1000,
            "heap_peak_mb": peak / 2**20, "rss_before_mb": before,
            "rss_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1_000_002)
    parser.add_argument("--widget", action="store_true",
                        help="also load it into a GameWidget")
    parser.add_argument("--heap", action="store_true",
                        help="also trace the Python heap's peak (a slower run)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.widget, args.heap)))
        return
    if args.moves < 2 or args.moves % 2:
        parser.error("--moves must be an even number, at least 2")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.json"
        write_record(path, args.moves)
        size = path.stat().st_size / 2**20
        print(f"record: {args.moves:,} Jactus moves, {size:.1f} MB of JSON")
        kinds = [False, True] if args.widget else [False]
        for widget in kinds:
            what = "GameWidget.load" if widget else "Record.load + replay"
            r = child(path, widget, heap=False)
            print(f"{what:22s} {r['load_s']:6.2f} s   process peak {r['rss_peak_mb']:5.0f} MB "
                  f"({r['rss_before_mb']:.0f} MB before loading)   goto/back/step "
                  f"{r['steps_ms']:.1f} ms")
            if args.heap:
                r = child(path, widget, heap=True)
                print(f"{'':22s} Python heap peak while loading {r['heap_peak_mb']:.0f} MB")


def child(path: Path, widget: bool, heap: bool) -> dict:
    cmd = [sys.executable, __file__, "--child", str(path)]
    cmd += ["--widget"] * widget + ["--heap"] * heap
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


if __name__ == "__main__":
    main()

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
(``VmHWM`` on Linux, else ``ru_maxrss``: interpreter and imports included; the figure
before loading is printed too). With ``--heap`` a second run traces the Python heap (``tracemalloc``) for its
peak; tracing slows Python down several times, so that run's seconds are not shown.

At the size limit (``janus_widgets.core.record.MAX_BYTES``, issue 24), ``--at-limit`` loads three records
as large as a record may be, each in a fresh process:

* a legal Jactus game written compactly (``r5``, ``=5`` … with no spaces: the most
  moves the limit lets in);
* a record whose ``meta`` is the limit's worth of empty lists (``[[],[],…]``: the
  most JSON values per byte, so the most memory the reader can be made to take
  before anything is checked);
* a card game seat's record of a long real game (views and move texts, checked
  against the rules), ``--card-plies`` plies (default 29,000, about 11.5 MB).

Run:  python benchmarks/record_load.py [--moves 1000002] [--widget] [--heap]
      python benchmarks/record_load.py --at-limit [--card-plies 29000]
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


def write_compact(path: Path, limit: int) -> int:
    """The longest legal Jactus record of at most ``limit`` bytes, written without
    spaces; returns its number of moves."""
    head = {"format": "janus-widgets-record", "version": 1, "game": "jactus",
            "variant": {"players": 2}, "seed": 1}
    n = (limit - 200) // 5                   # '"r5",' and '"=5",': five bytes a move
    n -= n % 2
    data = dict(head, moves=["r*", "=12345"] + ["r5", "=5"] * ((n - 2) // 2))
    text = json.dumps(data, separators=(",", ":"))
    assert len(text) <= limit, len(text)
    path.write_text(text)
    return n


def write_hostile(path: Path, limit: int) -> None:
    """A record of ``limit`` bytes whose meta is all empty lists (three bytes each)."""
    head = json.dumps({"format": "janus-widgets-record", "version": 1, "game": "jactus",
                       "variant": {"players": 2}, "seed": 1, "moves": []})
    count = (limit - len(head) - 20) // 3
    text = head[:-1] + ', "meta": {"x": [' + ",".join(["[]"] * count) + "]}}"
    assert len(text) <= limit
    path.write_text(text)


def write_card_record(path: Path, plies: int) -> int:
    """A card game seat's record (seat A, six players) of a real game of about
    ``plies`` plies: random moves that lay no trio until the stall limit is near."""
    from janus_widgets import games
    from janus_widgets.core.rng import RandomStream
    from janus_widgets.games.janus_cards.tables import AGREE
    game = games.get("janus-cards")
    state = game.new(game.variant(players=6, stall_rounds=1000), seed=5)
    eng, stream = state.engine, RandomStream(1)
    while not state.is_over and state.ply < plies:
        if state.is_chance:
            state = state.play_chance()
            continue
        acts = [a for a in eng.actions(state.raw) if a != AGREE]   # nobody ends it
        quiet = [a for a in acts if len(eng.apply(state.raw, a)[6]) == len(state.raw[6])]
        if state.raw[8] >= eng.stall_limit - 2:
            quiet = [a for a in acts if a not in quiet] or quiet
        pick = quiet or list(acts)
        state = state._child(pick[stream.below(len(pick))])
    state.seat_record(0).save(path)
    return state.ply


def peak_mb() -> float:
    """This process's peak resident memory in MB: ``VmHWM`` where Linux has it (its
    own, where ``ru_maxrss`` may carry the parent's peak across the fork), else
    ``ru_maxrss``."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(path: str, widget: bool, heap: bool) -> dict:
    """Load ``path`` in this process; the figures as a dict."""
    from janus_widgets.core import Record
    if widget:
        from janus_widgets.widgets import GameWidget
        w = GameWidget("jactus", bot_delay=0)
    before = peak_mb()
    if heap:
        tracemalloc.start()
    start = time.perf_counter()
    if widget:
        w.load(path)
        length = w.replay.length
    else:
        from janus_widgets.core import RecordError, read_record
        try:
            replay = read_record(path).replay()
        except RecordError as exc:            # a record refused, once read: its peak counts
            return {"refused": str(exc)[:80], "load_s": time.perf_counter() - start,
                    "rss_before_mb": before,
                    "rss_peak_mb": peak_mb()}
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
    assert cursor.index == length // 2
    return {"moves": length, "load_s": loaded, "steps_ms": stepped * 1000,
            "heap_peak_mb": peak / 2**20, "rss_before_mb": before,
            "rss_peak_mb": peak_mb()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1_000_002)
    parser.add_argument("--widget", action="store_true",
                        help="also load it into a GameWidget")
    parser.add_argument("--heap", action="store_true",
                        help="also trace the Python heap's peak (a slower run)")
    parser.add_argument("--at-limit", action="store_true",
                        help="load records as large as the size limit allows (see above)")
    parser.add_argument("--card-plies", type=int, default=29_000,
                        help="plies of the card game record of --at-limit")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.widget, args.heap)))
        return
    if args.at_limit:
        at_limit(args.card_plies)
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


def at_limit(card_plies: int) -> None:
    """Peak memory of loading records at the size limit, each in a fresh process."""
    from janus_widgets.core.record import MAX_BYTES
    print(f"size limit: {MAX_BYTES:,} bytes ({MAX_BYTES / 2**20:.0f} MiB)")
    with tempfile.TemporaryDirectory() as tmp:
        cases = []
        path = Path(tmp) / "compact.json"
        moves = write_compact(path, MAX_BYTES)
        cases.append((f"Jactus, {moves:,} moves, compact", path))
        path = Path(tmp) / "hostile.json"
        write_hostile(path, MAX_BYTES)
        cases.append(("meta of empty lists", path))
        path = Path(tmp) / "cards.json"
        plies = write_card_record(path, card_plies)
        cases.append((f"card game seat A, {plies:,} plies", path))
        for what, path in cases:
            size = path.stat().st_size / 2**20
            r = child(path, widget=False, heap=False)
            note = f"   refused: {r['refused']}" if "refused" in r else ""
            print(f"{what:34s} {size:5.1f} MB  {r['load_s']:6.2f} s   process peak "
                  f"{r['rss_peak_mb']:5.0f} MB ({r['rss_before_mb']:.0f} MB before "
                  f"loading){note}")


def child(path: Path, widget: bool, heap: bool) -> dict:
    cmd = [sys.executable, __file__, "--child", str(path)]
    cmd += ["--widget"] * widget + ["--heap"] * heap
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


if __name__ == "__main__":
    main()

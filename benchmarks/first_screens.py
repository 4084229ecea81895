"""The table server's CPU for a class's first screens, measured in this process.

    python benchmarks/first_screens.py                    # 300 seats at 150 tables
    python benchmarks/first_screens.py --tables 60 --profile 25

A class's tables are made first (``--tables`` of them, the four games in turn, two
human seats each; the card game has a third seat, a greedy bot): that is the
teacher's work, before the students arrive, and its time is printed apart. Then every
seat opens as a web seat page does, through the server's own code: ``Hall.join`` with
the code, then what the WebSocket's ``hello`` does (``Hall.who``, a :class:`PageView`
on the seat's mirror, the welcome, ``Hall.attach``: the first screen, and the
presence news to the table), each message encoded to the JSON text the socket sends (``message_text``).
No socket and no other process: the figure is the server's CPU per seat, the part
that grows with a class (the network and the page's painting are the
``classroom_pages.py`` benchmark's).

It prints the wall time and the process's CPU seconds per seat (median, 90th
percentile, slowest, total), the bytes of the first screens, per game, and the load
average (the machine is shared). ``--profile N`` prints the N costliest functions of
the joins (cProfile). Nothing is asserted: these are figures.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from janus_widgets.table.seat_pages import PageView, message_text  # noqa: E402
from janus_widgets.table.server import Connection, Hall  # noqa: E402
from janus_widgets.table.storage import SQLiteStorage  # noqa: E402

GAMES = ("jactus", "jinns", "janus", "janus-cards")
TOKEN = "first-screens-benchmark"


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def make_tables(hall: Hall, tables: int, seed: int) -> list[tuple[str, str]]:
    """``tables`` tables, two human seats each: ``(game, code)`` for every seat."""
    seats = []
    for i in range(tables):
        game = GAMES[i % len(GAMES)]
        spec = {"game": game, "players": 2, "seed": seed + i}
        if game == "janus-cards":
            spec.update(players=3, bots={"C": "greedy"})
        _, codes = hall.create_table(spec)
        seats += [(game, codes["A"]), (game, codes["B"])]
    return seats


def open_seat(hall: Hall, code: str, sent: list[bytes]) -> None:
    """One seat's page opening: the join, then the socket's hello (as
    ``SocketHandler._hello`` does it for a page asking for screens)."""
    served, seat, credential = hall.join(code, "127.0.0.1")
    conn = Connection(send=lambda data: sent.append(message_text(data).encode()))
    role, served, seat = hall.who(credential)
    conn.role, conn.greeted = role, True
    conn.table_id, conn.seat = served.id, seat
    hall.charge(conn, 1)
    conn.page = PageView(hall.mirror(served, seat))
    conn.send(hall.seat_welcome(served, seat))
    hall.attach(conn, served, seat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="print the N costliest functions of the joins (cProfile)")
    args = parser.parse_args()
    print(load())
    with tempfile.TemporaryDirectory() as folder:
        hall = Hall(SQLiteStorage(str(Path(folder) / "class.sqlite")), TOKEN, bot_delay=0)
        wall, cpu = time.perf_counter(), time.process_time()
        seats = make_tables(hall, args.tables, args.seed)
        made_wall, made_cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(f"{args.tables} tables made: {made_wall:.2f} s wall, {made_cpu:.2f} s CPU "
              f"({1000 * made_cpu / args.tables:.1f} ms CPU a table)")
        profile = cProfile.Profile() if args.profile else None
        per_game: dict[str, list[tuple[float, float, int]]] = {g: [] for g in GAMES}
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        for game, code in seats:
            sent: list[bytes] = []
            w, c = time.perf_counter(), time.process_time()
            if profile is not None:
                profile.enable()
            open_seat(hall, code, sent)
            if profile is not None:
                profile.disable()
            c, w = time.process_time() - c, time.perf_counter() - w
            first = next(b for b in sent if b.startswith(b'{"type":"screen"'))
            per_game[game].append((w, c, len(first)))
        total_wall = time.perf_counter() - start_wall
        total_cpu = time.process_time() - start_cpu
        hall.storage.close()
    everyone = [x for rows in per_game.values() for x in rows]

    def figures(rows: list[tuple[float, float, int]]) -> str:
        walls = sorted(1000 * r[0] for r in rows)
        cpus = sorted(1000 * r[1] for r in rows)
        return (f"wall median {statistics.median(walls):.1f} ms, p90 "
                f"{walls[int(0.9 * (len(walls) - 1))]:.1f}, slowest {walls[-1]:.1f}; CPU "
                f"median {statistics.median(cpus):.1f} ms, slowest {cpus[-1]:.1f}; first "
                f"screen {statistics.median(r[2] for r in rows) / 1000:.1f} kB")

    print(f"{len(everyone)} seats opened: {total_wall:.2f} s wall, {total_cpu:.2f} s CPU, "
          f"{1000 * total_cpu / len(everyone):.1f} ms CPU a seat")
    print("  all:", figures(everyone))
    for game, rows in per_game.items():
        print(f"  {game}:", figures(rows))
    print(load())
    if profile is not None:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(args.profile)


if __name__ == "__main__":
    main()

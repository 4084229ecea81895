"""The measurement behind the Jinns repetition limit's default (JI-20, issue 15 item 7).

For each limit, seeded random 2-player games; those that end by repetition are played
again with the rule off and continued at random to the rulebook's own end (or the cap),
counting how many would have ended with another winner. Prints the table that
seeds/jinns.md shows and the smallest limit with another winner in under 1% of the
repetition endings while every game still ends.

Run:  python benchmarks/jinns_repetition.py [--games 20000] [--seed 0] [--limits 3,5,10,20]
"""

from __future__ import annotations

import argparse
import time

from janus_widgets.analysis.repetition import repetition_study


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--limits", default="3,5,10,20")
    parser.add_argument("--max-plies", type=int, default=20_000)
    args = parser.parse_args()
    limits = [int(x) for x in args.limits.split(",")]
    start = time.perf_counter()
    study = repetition_study(limits, games=args.games, seed=args.seed, players=args.players,
                             max_plies=args.max_plies)
    print(study)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()

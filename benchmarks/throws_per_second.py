"""Simulated Jactus throws per second (one core), and the lesson cells' times.

Three figures, each the best of ``--repeat`` runs:

* single throws: :func:`janus_widgets.analysis.montecarlo.estimate_throw_chance`
  (one throw of five dice = one random uint16 and one table look-up);
* rounds: :func:`janus_widgets.analysis.montecarlo.simulate_rounds`, the dice passing
  between seats until five of a kind, every seat keeping the largest group (a
  throw counts once, whichever seat makes it);
* the lesson cells: 1,000,000 single throws, and 100,000 rounds.

The targets are 10 million throws per second and a 1,000,000-throw cell under half a
second.

Run:  python benchmarks/throws_per_second.py [--throws 20000000] [--rounds 1000000]
"""

from __future__ import annotations

import argparse
import os
import time

from janus_widgets.analysis import montecarlo as mc


def best_time(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--throws", type=int, default=20_000_000)
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    print(f"one core (numpy {__import__('numpy').__version__}, {os.cpu_count()} cores "
          f"on this machine), best of {args.repeat}")
    mc.estimate_throw_chance(10, seed=0)          # build the tables before timing
    mc.simulate_rounds(10, seed=0)

    t = best_time(lambda: mc.estimate_throw_chance(args.throws, seed=args.seed), args.repeat)
    print(f"single throws: {args.throws:>12,} in {t:6.3f} s = "
          f"{args.throws / t / 1e6:7.1f} million throws/s")

    total = mc.simulate_rounds(args.rounds, seed=args.seed).total_throws
    t = best_time(lambda: mc.simulate_rounds(args.rounds, policy=["keep-largest"] * 2,
                                             seed=args.seed), args.repeat)
    print(f"rounds:        {args.rounds:>12,} rounds, {total:,} throws in {t:6.3f} s = "
          f"{total / t / 1e6:7.1f} million throws/s")

    t = best_time(lambda: mc.estimate_throw_chance(1_000_000, seed=args.seed), args.repeat)
    print(f"lesson cell:   1,000,000 throws in {t * 1000:7.1f} ms")
    t = best_time(lambda: mc.simulate_rounds(100_000, seed=args.seed).expected(), args.repeat)
    print(f"lesson cell:   100,000 rounds in {t * 1000:7.1f} ms")


if __name__ == "__main__":
    main()

"""How often the design lab's intervals cover their truths, and how often identical rules
get a ◆: the full check behind ``tests/test_interval_coverage.py``, every figure printed.

Run:  python benchmarks/interval_coverage.py [--studies 4000] [--engine]

1. Shares and two-seat balance, exact (every count's probability summed), for three
   synthetic scenarios and for the certified fair Jactus without spoiling, at n = 20, 50,
   200 and at the odd counts 21, 51, 101; then (1b) two-seat balance from fair to
   lopsided games, and Ludii's advantage and two-seat balance, exact too.
2. Every metric in simulated studies of synthetic games (``--studies`` per size).
3. Real games of Jactus without spoiling under optimal play: 20,000 games walked on the
   solver's strategies, studies of distinct games.
4. Means on the real games' own distributions (each game's 1,000–1,500 greedy games as the
   population, resampled).
5. Balance of four and three seats, at equal, unequal and tied truths.
6. Paired differences at n = 30 (and 100), identical rules and a changed rule.
7. The ◆: identical rules with re-seeded bots, synthetic pairs and real Jinns and Jactus
   tournaments (600 deals, each played three times), Holm against one mark per interval
   that excludes 0.
8. The intervals under Ludii's own definitions (``definition="ludii"``), simulated.

With ``--engine`` it also plays 4,400 games of Jactus without spoiling through the engine
with the optimal bot (about two minutes) and measures advantage and balance on disjoint
studies of 11, 20, 21, 50, 51, 100 and 101 of them, as the issue's reviewer did.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from coverage_support import (LUDII_KEYS, OptimalWalker, Scenario, any_mark,  # noqa: E402
                              bank_comparisons, coverage, ludii_coverage, ludii_truths,
                              optimal_studies, paired, paired_coverage, reseeded_bank)
from scipy.stats import binom  # noqa: E402
from test_interval_coverage import (AHEAD, FAIR, NO_DRAWS, every_result,  # noqa: E402
                                    exact_coverage)

from janus_widgets.analysis.metrics import (LUDII_METRICS, Z95, GameColumns,  # noqa: E402
                                            Studies, _metric, metric_keys, paired_estimate,
                                            result_limits, seat_balance_interval)

KEYS = metric_keys(2)


def row(label: str, figures: dict[str, float], keys: list[str]) -> str:
    return f"  {label:<14}" + " ".join(
        f"{figures[k]:>7.3f}" if math.isfinite(figures.get(k, math.nan)) else f"{'–':>7}"
        for k in keys)


def header(keys: list[str]) -> str:
    short = {"advantage_p1": "adv", "balance": "bal", "completion": "compl",
             "drawishness": "draw", "timeouts": "tmo", "duration": "turns",
             "duration_plies": "plies", "decisiveness": "decis", "lead_change": "lead",
             "branching_factor": "branch", "score_difference": "gap"}
    return f"  {'':<14}" + " ".join(f"{short.get(k, k):>7}" for k in keys)


def exact_part(walker: OptimalWalker) -> None:
    print("1. Exact coverage of shares and two-seat balance")
    keys = ["advantage_p1", "balance", "completion", "drawishness", "timeouts", "win_A",
            "win_B"]
    v = walker.solution.value(walker.solution.start)
    jactus = Scenario("optimal Jactus, no spoiling", shares=(v, 1 - v), draw=0.0)
    for scenario in (FAIR, AHEAD, NO_DRAWS, jactus):
        print(f" {scenario.name}")
        print(header(keys))
        for n in (20, 50, 200) + ((21, 51, 101) if scenario is jactus else ()):
            print(row(f"n = {n}", exact_coverage(scenario, n), keys))


def lopsided_part() -> None:
    print("\n1b. Exact coverage from fair to lopsided games")
    shares = (0.5, 0.55, 0.6, 0.7, 0.8, 0.9, 0.95)
    print(f"  two-seat balance, A's share of m decisive games:"
          f"{''.join(f'{p:>7}' for p in shares)}")
    for m in (11, 20, 21, 50, 51, 100, 101, 200):
        k = np.arange(m + 1)
        low, high = seat_balance_interval(np.stack([k, m - k], -1))
        figures = []
        for p in shares:
            truth = 1 - abs(2 * p - 1)
            held = (low <= truth + 1e-12) & (truth - 1e-12 <= high)
            figures.append(float((binom.pmf(k, m, p) * held).sum()))
        print(f"  {'m = ' + str(m):<48}" + "".join(f"{f:>7.3f}" for f in figures))
    truths = ((0.4, 0.2), (0.6, 0.2), (0.7, 0.1), (0.2, 0.5), (0.05, 0.1), (0.5, 0.0),
              (0.9, 0.05))
    print("  Ludii's advantage and balance (A wins, draws):   "
          + "".join(f"{f'{w}/{d}':>10}" for w, d in truths))
    for n in (20, 50, 200):
        advantage, balance = [], []
        for w, d in truths:
            results, chance = every_result(n, w, d)
            low, high = result_limits(results)
            mean = w + d / 2
            advantage.append(float((chance * ((low <= mean + 1e-12)
                                              & (mean - 1e-12 <= high))).sum()))
            sole = np.where(results == 1, 0, np.where(results == 0, 1, -1))
            low, high = LUDII_METRICS["balance"].measure(Studies.simulated(2, sole)).limits(Z95)
            truth = 1 - abs(w - (1 - w - d))
            balance.append(float((chance * ((low <= truth + 1e-12)
                                            & (truth - 1e-12 <= high))).sum()))
        print(f"  {f'n = {n}: advantage':<48}" + "".join(f"{f:>10.3f}" for f in advantage))
        print(f"  {f'n = {n}: balance':<48}" + "".join(f"{f:>10.3f}" for f in balance))


def simulated_part(studies: int) -> None:
    print(f"\n2. Every metric, {studies:,} simulated studies per size")
    synthetic_table(studies, 2027, coverage, lambda scenario: scenario.truths(), KEYS)


def synthetic_table(studies: int, seed: int, measure, truths, keys: list[str]) -> None:
    """Coverage per size on the three synthetic scenarios: ``measure(studies, truths,
    keys, z)`` (ours or Ludii's definitions), ``truths(scenario)``."""
    for scenario in (FAIR, AHEAD, NO_DRAWS):
        print(f" {scenario.name}")
        print(header(keys))
        for n in (20, 50, 200):
            rng = np.random.default_rng([seed, n])
            measured = measure(scenario.studies(rng, studies, n), truths(scenario), keys,
                               Z95)
            print(row(f"n = {n}", {k: v[0] for k, v in measured.items()}, keys))


def jactus_part(walker: OptimalWalker, games: int) -> None:
    print(f"\n3. Real games: Jactus without spoiling under optimal play ({games:,} walked)")
    began = time.perf_counter()
    bank = walker.play(games, np.random.default_rng(7))
    truths = walker.truths()
    print(f"  walked in {time.perf_counter() - began:.1f} s; A won {(bank['sole'] == 0).mean():.4f} "
          f"(solver {truths['win_A']:.6f}); mean turns {bank['decisions'].mean():.1f} "
          f"(exact {truths['duration']:.1f}), plies {bank['plies'].mean():.1f} "
          f"(exact {truths['duration_plies']:.1f})")
    keys = ["advantage_p1", "balance", "completion", "drawishness", "duration",
            "duration_plies"]
    print(header(keys))
    for n in (20, 50, 200):
        count = min(4000, 40 * games // n)
        rng = np.random.default_rng(n)
        index = np.argsort(rng.random((count, games)), axis=1)[:, :n]
        measured = coverage(optimal_studies(bank, index), truths, keys, Z95)
        print(row(f"n = {n}", {k: v[0] for k, v in measured.items()}, keys) +
              f"   ({count:,} studies)")


def real_means_part(studies: int) -> None:
    print(f"\n4. Means on real games' own distributions ({studies:,} resampled studies)")
    from janus_widgets.analysis.tournament import run_tournament
    names = ["duration", "duration_plies", "decisiveness", "lead_change", "branching_factor",
             "score_difference"]
    print(header(names) + "   (n = 20 / 50 / 200)")
    for game, options, count in (("jinns", {}, 1500), ("jinns", {"players": 4}, 800),
                                 ("janus-cards", {}, 1500),
                                 ("janus-cards", {"players": 2}, 1500),
                                 ("jactus", {}, 1500), ("janus", {}, 400)):
        result = run_tournament(game, options, bots=["greedy"], games=count, seed=7,
                                progress=False)
        columns = result.columns()
        whole = columns.studies()
        truths = {k: float(_metric(k, columns.players).measure(whole).value[0])
                  for k in names}
        for n in (20, 50, 200):
            rng = np.random.default_rng([n, count])
            index = rng.integers(0, columns.n, (studies, n))
            measured = coverage(columns.take(index), truths, names, Z95)
            label = f"{game} {''.join(f'{v}' for v in options.values()) or ''}".strip()
            print(row(f"{label[:9]} {n}", {k: v[0] for k, v in measured.items()}, names))


def seats_part(studies: int) -> None:
    print(f"\n5. Balance of three and four seats ({studies:,} studies, 10% draws)")
    print(f"  {'truth':<32}{'n = 20':>8}{'50':>8}{'200':>8}")
    for shares in ((0.25,) * 4, (0.36, 0.185, 0.215, 0.24), (0.4, 0.2, 0.2, 0.2),
                   (0.3, 0.3, 0.2, 0.2), (0.28, 0.24, 0.24, 0.24), (1 / 3,) * 3,
                   (0.5, 0.3, 0.2), (0.4, 0.3, 0.3)):
        scenario = Scenario("seats", shares=shares, draw=0.1)
        figures = []
        for n in (20, 50, 200):
            rng = np.random.default_rng([n, len(shares)])
            (value, _), = coverage(scenario.studies(rng, studies, n), scenario.truths(),
                                   ["balance"], Z95).values()
            figures.append(value)
        label = ", ".join(f"{s:.3g}" for s in shares)
        print(f"  {label:<32}" + "".join(f"{f:>8.3f}" for f in figures))


def paired_part(studies: int) -> None:
    print(f"\n6. Paired differences ({studies:,} paired studies)")
    slight = Scenario("slightly unfair", shares=(0.55, 0.45), draw=0.2)
    for a, b in ((FAIR, FAIR), (FAIR, AHEAD), (AHEAD, AHEAD), (FAIR, slight)):
        print(f" {a.name} → {b.name}")
        print(header(KEYS))
        for n in (30, 100):
            rng = np.random.default_rng([n, 30])
            sa, sb = paired(rng, a, b, studies, n, link=0.6)
            ta, tb = a.truths(), b.truths()
            measured = paired_coverage(sa, sb, {k: tb[k] - ta[k] for k in KEYS}, KEYS, Z95)
            print(row(f"n = {n}", {k: v[0] for k, v in measured.items()}, KEYS))


def marks_part(comparisons: int) -> None:
    print("\n7. The ◆ under identical rules (re-seeded bots): share of comparisons with any ◆")

    def unadjusted(a, b) -> float:
        hit = np.zeros(a.sole.shape[0], bool)
        for key in KEYS:
            low, high = paired_estimate(a, b, key).limits(Z95)
            hit |= (low > 0) | (high < 0)
        return float(hit.mean())
    print(f"  {'':<34}{'Holm':>8}{'one ◆ per interval':>20}")
    for n in (30, 100, 200):
        rng = np.random.default_rng([n, 5])
        a, b = paired(rng, FAIR, FAIR, comparisons, n, link=0.6)
        print(f"  {'synthetic, n = ' + str(n):<34}{any_mark(a, b, KEYS).mean():>8.3f}"
              f"{unadjusted(a, b):>20.3f}")
    for game in ("jinns", "jactus"):
        began = time.perf_counter()
        bank = reseeded_bank(game, 600, 3, seed=11)
        seconds = time.perf_counter() - began
        for n in (60, 200):
            a, b = bank_comparisons(bank, comparisons, n, np.random.default_rng(n))
            print(f"  {f'{game} (1,800 games, {seconds:.0f} s), n = {n}':<34}"
                  f"{any_mark(a, b, KEYS).mean():>8.3f}{unadjusted(a, b):>20.3f}")


def engine_part() -> None:
    print("\n8. Jactus without spoiling through the engine, the optimal bot at both seats")
    from janus_widgets.analysis.solve import cached_solution
    from janus_widgets.analysis.tournament import run_tournament
    began = time.perf_counter()
    result = run_tournament("jactus", {"spoil": False}, bots=["optimal"], games=4400, seed=3,
                            progress=False)
    print(f"  4,400 games in {time.perf_counter() - began:.0f} s")
    solution = cached_solution({"spoil": False})
    v = solution.value(solution.start)
    truths = {"advantage_p1": v - 0.5, "balance": 1 - abs(2 * v - 1)}
    columns = result.columns()
    print(f"  {'n':>5}{'studies':>9}{'advantage':>11}{'balance':>9}")
    for n in (11, 20, 21, 50, 51, 100, 101):
        count = columns.n // n
        index = np.arange(count * n).reshape(count, n)
        measured = coverage(columns.take(index), truths, list(truths), Z95)
        print(f"  {n:>5}{count:>9}{measured['advantage_p1'][0]:>11.3f}"
              f"{measured['balance'][0]:>9.3f}")
    assert isinstance(columns, GameColumns) and math.isfinite(v)


def ludii_part(studies: int) -> None:
    print(f"\n8. Ludii's own definitions, {studies:,} simulated studies per size")
    synthetic_table(studies, 2028, ludii_coverage, ludii_truths, LUDII_KEYS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=4000)
    parser.add_argument("--engine", action="store_true",
                        help="also play 4,400 optimal games through the engine")
    args = parser.parse_args()
    began = time.perf_counter()
    walker = OptimalWalker({"spoil": False})
    exact_part(walker)
    lopsided_part()
    simulated_part(args.studies)
    jactus_part(walker, 20_000)
    real_means_part(min(args.studies, 3000))
    seats_part(min(args.studies, 2000))
    paired_part(args.studies)
    marks_part(1000)
    ludii_part(args.studies)
    if args.engine:
        engine_part()
    print(f"\n{time.perf_counter() - began:.0f} s in all")


if __name__ == "__main__":
    main()

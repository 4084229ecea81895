"""Why the paired difference of two-seat balance stays conservative near fair games: two
ways to bring it to 95% there, measured against the lab's own (``metrics._BalanceGap``).

Run:  python benchmarks/paired_balance_alternatives.py [--studies 1000]

* **kept** — the lab's: the difference ``|δa| − |δb|`` seen (δ = 2p − 1, A's share of
  the decisive games), against draws at the nearest pair of δ that has the candidate
  difference.
* **joint** — the two sides' δ tested together: the games' distance from the candidate's
  set of pairs, against the distances of draws made at its nearest point.
* **corner** — the same, but calibrated at the corner of the set (where a side is fair)
  whenever the nearest point lies within two standard errors of it.

Figures: the share of paired studies whose interval holds the true difference, at 30, 100
and 400 games a side (the sides' games linked through shared seeds).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from coverage_support import Scenario, paired, paired_coverage  # noqa: E402
from test_interval_coverage import AHEAD, FAIR  # noqa: E402

from janus_widgets.analysis import metrics  # noqa: E402


class _Joint(metrics._BalanceGap):
    """Test inversion on both sides' δ at once (``CORNER`` standard errors: 0 = never)."""

    CORNER = 0.0

    def _curve(self, ka: np.ndarray, ma: np.ndarray, kb: np.ndarray, mb: np.ndarray,
               rho: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        c = self._candidates(ka, ma, kb, mb, rho)
        grid, form = c["grid"], c["form"]
        seen_q, best_a, best_b = metrics._nearest_on(c["da"], c["db"], grid, form)
        if self.CORNER:
            corner_a = np.where(grid >= 0, np.where(best_a < 0, -grid, grid), 0.0)
            corner_b = np.where(grid < 0, np.where(best_b < 0, grid, -grid), 0.0)
            qa, qb, qab = form
            ea, eb = best_a - corner_a, best_b - corner_b
            near = qa * ea * ea + qb * eb * eb + 2 * qab * ea * eb <= self.CORNER ** 2
            best_a = np.where(near, corner_a, best_a)
            best_b = np.where(near, corner_b, best_b)
        star_a, star_b = self._drawn_at(c, best_a, best_b)
        star_q = metrics._nearest_on(star_a, star_b, grid[..., None],
                                     tuple(f[..., None] for f in form))[0]
        obs = seen_q[..., None]
        return grid, (star_q > obs).mean(-1) + 0.5 * (star_q == obs).mean(-1)

    def limits(self, z: Any) -> tuple[np.ndarray, np.ndarray]:
        alpha = 2 * metrics._special().ndtr(-np.broadcast_to(np.asarray(z, float),
                                                              self.value.shape))
        inside = self.tail > alpha[..., None]          # the candidates not refused
        # each end halfway to the first candidate refused beyond it (the grid's end if none)
        count = self.grid.shape[-1]
        first = np.argmax(inside, -1)
        last = count - 1 - np.argmax(inside[..., ::-1], -1)
        take = lambda i: np.take_along_axis(self.grid, i[..., None], -1)[..., 0]  # noqa: E731
        low = (take(first) + take(np.maximum(first - 1, 0))) / 2
        high = (take(last) + take(np.minimum(last + 1, count - 1))) / 2
        low = np.where(self.same, 0.0, np.minimum(low, self.value))
        high = np.where(self.same, 0.0, np.maximum(high, self.value))
        return low, high


class _Corner(_Joint):
    CORNER = 2.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--studies", type=int, default=1000)
    args = parser.parse_args()
    slight = Scenario("0.55 against 0.45", shares=(0.55, 0.45), draw=0.2)
    little = Scenario("0.52 against 0.48", shares=(0.52, 0.48), draw=0.2)
    pairs = ((FAIR, FAIR), (FAIR, little), (FAIR, AHEAD), (slight, slight), (AHEAD, AHEAD))
    kept = metrics._BalanceGap
    print(f"{'':<44}{'kept':>8}{'joint':>8}{'corner':>8}   (coverage of the difference)")
    began = time.perf_counter()
    try:
        for a, b in pairs:
            for n in (30, 100, 400):
                truth = {"balance": b.truths()["balance"] - a.truths()["balance"]}
                figures = []
                for method in (kept, _Joint, _Corner):
                    metrics._BalanceGap = method
                    rng = np.random.default_rng([n, 30])
                    sa, sb = paired(rng, a, b, args.studies, n, link=0.6)
                    (value, _), = paired_coverage(sa, sb, truth, ["balance"],
                                                  metrics.Z95).values()
                    figures.append(value)
                label = f"{a.name[:18]} → {b.name[:18]}, n = {n}"
                print(f"{label:<44}" + "".join(f"{f:>8.3f}" for f in figures), flush=True)
    finally:
        metrics._BalanceGap = kept
    print(f"\n{time.perf_counter() - began:.0f} s in all")


if __name__ == "__main__":
    main()

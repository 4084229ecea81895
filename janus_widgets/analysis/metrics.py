"""Game-design metrics of a set of played games, after Ludii's (``docs/metrics.md``).

:func:`summarize` turns a tournament's rows (one per game) into metrics. Ludii's
metrics (``AdvantageP1``, ``Balance``, ``Completion``, ``Drawishness``,
``Timeouts``, ``DurationTurns``, ``DecisivenessMoves``, ``LeadChange``,
``BranchingFactor``, ``ScoreDifference``) come as ``{"value", "low", "high"}``
with a 95% interval, computed from the games (no resampling, so the same games always
give the same interval):

* a share of games (advantage, completion, drawishness, timeouts, a seat's wins): the
  **Wilson score interval**;
* balance: an interval carried through from the seats' win shares — for two seats a
  score-scale interval for ``|2p − 1|`` that reaches 1 whenever a fair game fits the
  games (:func:`folded_limits`), for three or more the profile-likelihood interval of
  the widest gap (:func:`seat_balance_interval`);
* a mean over games (turns, plies, decisiveness, lead changes, branching, score gap):
  a **t interval corrected for skewness** (Hall's transformation, :func:`mean_limits`).

A 95% interval covers the true value (what endless games would give) in 95% of studies;
the lab's own simulations check it (``tests/test_interval_coverage.py``). It is *not*
the range a rerun's estimate falls in: that lands inside only about 83% of the time.

:func:`paired_difference` compares two sets of games played on the same seeds, game by
game, with an interval and a p-value; a comparison of many metrics corrects for their
number (:func:`holm`).

>>> low, high = wilson(55, 100)
>>> round(low, 3), round(high, 3)
(0.452, 0.644)
>>> rows = [game_row("A", decisions=10), game_row("B", decisions=12),
...         game_row("A", decisions=14), game_row(None, decisions=9)]
>>> m = summarize(rows, 2)
>>> round(m["advantage_p1"]["value"], 4)       # A won 2 of the 3 decisive games
0.1667
>>> m["drawishness"]["value"], m["duration"]["value"]
(0.25, 11.25)

A fair-looking split of 21 decisive games (11 to 10) fits a perfectly fair game:

>>> b = summarize([game_row("A" if i < 11 else "B", seed=i) for i in range(21)], 2)["balance"]
>>> round(b["value"], 3), round(b["low"], 3), b["high"]
(0.952, 0.567, 1.0)
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from statistics import NormalDist
from typing import Any

import numpy as np

from ..core.protocol import seat_name

__all__ = ["wilson", "summarize", "format_metrics", "require_matplotlib", "METRICS", "number",
           "with_interval", "Metric", "metric_keys", "paired_difference", "GameColumns",
           "Studies", "game_row", "html_table", "turn_bins", "LEVEL", "FAMILY_ERROR",
           "folded_limits", "seat_balance_interval", "mean_limits", "result_limits", "holm",
           "DEFINITIONS", "z_for", "ludii_utilities", "paired_estimate", "LUDII_METRICS"]

#: The confidence of every interval the lab reports.
LEVEL = 0.95
#: The family-wise error rate of the marks of a comparison (:func:`holm`).
FAMILY_ERROR = 0.05
#: The two sets of definitions :func:`summarize` knows.
DEFINITIONS = ("ours", "ludii")
_NORMAL = NormalDist()
Z95 = _NORMAL.inv_cdf(0.5 + LEVEL / 2)        # z_for(LEVEL)


def z_for(level: float) -> float:
    """The normal quantile of a two-sided interval of confidence ``level``.

    >>> round(z_for(0.95), 4)
    1.96
    """
    if not 0 < level < 1:
        raise ValueError(f"level={level!r}: a confidence is between 0 and 1, e.g. 0.95")
    return _NORMAL.inv_cdf(0.5 + level / 2)


def _special() -> Any:
    try:
        from scipy import special
    except ImportError:  # pragma: no cover - scipy is a dependency
        raise ImportError("the lab's intervals need scipy: pip install scipy") from None
    return special


def _phi(x: np.ndarray) -> np.ndarray:
    return np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)


def _edge(inside: Callable[[np.ndarray], np.ndarray], kept: np.ndarray, lost: np.ndarray,
          steps: int = 50) -> np.ndarray:
    """Where ``inside`` stops holding, between ``kept`` (where it holds) and ``lost``
    (where it does not), by bisection, elementwise: the last point found inside.

    >>> float(_edge(lambda x: x * x <= 2, np.array(0.0), np.array(2.0)).round(6))
    1.414214
    """
    for _ in range(steps):
        mid = (kept + lost) / 2
        holds = inside(mid)
        kept, lost = np.where(holds, mid, kept), np.where(holds, lost, mid)
    return kept


# --- intervals ------------------------------------------------------------------------
def wilson(k: Any, n: Any, z: Any = Z95) -> Any:
    """The Wilson score interval of a proportion k/n (95% by default).

    Numbers give a pair of floats, arrays a pair of arrays. No game counted gives a lower
    limit of exactly 0, every game counted an upper limit of exactly 1; no game at all
    gives (0, 1).

    >>> wilson(0, 20)[0], wilson(20, 20)[1], wilson(0, 0)
    (0.0, 1.0, (0.0, 1.0))
    """
    scalar = np.ndim(k) == 0 and np.ndim(n) == 0 and np.ndim(z) == 0
    k_, n_, z_ = (np.asarray(v, float) for v in (k, n, z))
    with np.errstate(invalid="ignore", divide="ignore"):
        safe = np.where(n_ > 0, n_, 1.0)
        p = k_ / safe
        zz = z_ * z_
        denom = 1 + zz / safe
        centre = (p + zz / (2 * safe)) / denom
        half = z_ * np.sqrt(np.maximum(p * (1 - p), 0.0) / safe + zz / (4 * safe * safe)) / denom
    low = np.where(k_ <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(k_ >= n_, 1.0, np.clip(centre + half, 0.0, 1.0))
    low = np.where(n_ > 0, low, 0.0)
    high = np.where(n_ > 0, high, 1.0)
    if scalar:
        return (float(low), float(high))
    return low, high


def _upper_edge(theta: np.ndarray, z: np.ndarray) -> np.ndarray:
    """The upper edge of the acceptance region of θ in :func:`folded_limits`: with
    ``l = max(0, θ − z)``, the ``u`` for which ``P(l ≤ |X| ≤ u) = 1 − α``."""
    sp = _special()
    alpha = 2 * sp.ndtr(-z)
    edge = np.maximum(0.0, theta - z)
    target = 1 - alpha + (sp.ndtr(edge - theta) - sp.ndtr(-edge - theta))
    u = theta + sp.ndtri(np.clip(target, 0.5, 1 - 1e-16))      # at or left of the root
    for _ in range(8):          # Newton on a concave increasing function: from the left
        f = sp.ndtr(u - theta) - sp.ndtr(-u - theta) - target
        u = u - f / (_phi(u - theta) + _phi(u + theta))
    return u


def folded_limits(x: Any, z: Any = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Confidence limits for θ ≥ 0 from ``x = |X|``, where ``X ~ N(±θ, 1)``.

    The size of an effect whose sign is unknown: balance is ``1 − |2p − 1|``, and a fair
    game (θ = 0) sits on the edge where a percentile interval never reaches. Here the
    acceptance region of each θ is ``[max(0, θ − z), u(θ)]`` with ``u`` chosen so that it
    holds exactly ``1 − α`` of ``|X|`` (one-sided near 0, two-sided far from it), so the
    limits cover θ in 95% of studies wherever θ is, 0 included: the upper limit is
    ``x + z``, the lower one is 0 as long as ``x ≤ z``.

    >>> low, high = folded_limits([0.3, 4.0])
    >>> low.round(3).tolist(), high.round(3).tolist()
    ([0.0, 2.17], [2.26, 5.96])
    """
    x_ = np.asarray(x, float)
    z_ = np.broadcast_to(np.asarray(z, float), x_.shape)
    high = x_ + z_
    low = np.zeros_like(x_)
    need = x_ > z_
    if need.any():
        xs, zs = x_[need], z_[need]
        low[need] = _edge(lambda theta: _upper_edge(theta, zs) < xs, np.zeros_like(xs),
                          xs.copy(), 48)
    return low, high


def _two_seat_balance(k: np.ndarray, m: np.ndarray, z: Any) -> tuple[np.ndarray, np.ndarray]:
    """Balance limits of two seats from A's wins ``k`` of ``m`` decisive games
    (:func:`_folded_balance` of A's wins and losses)."""
    k_, m_ = np.asarray(k, float), np.asarray(m, float)
    return _folded_balance(m_ - k_, np.zeros(k_.shape), k_, z)


#: The half game of each result added where draws are seen (:func:`_three_point_spread`).
_SPREAD_PRIOR = 0.5


def _three_point_spread(losses: np.ndarray, draws: np.ndarray, wins: np.ndarray,
                        mu: np.ndarray) -> np.ndarray:
    """The spread (variance) of one result at a candidate mean ``mu``, results 0, ½ and
    1 counted ``losses``, ``draws`` and ``wins``: at the shares that fit the counts best
    among those whose mean is ``mu`` (the restricted maximum likelihood, as Wilson's
    interval takes the spread at its candidate). The share of draws ``d`` maximises
    ``losses·log(1 − μ − d/2) + draws·log d + wins·log(μ − d/2)``, a concave function,
    solved by bisection; no draws gives Wilson's ``μ(1 − μ)``.

    >>> float(_three_point_spread(np.array(8.0), np.array(0.0), np.array(12.0), np.array(0.5)))
    0.25
    """
    mu_ = np.clip(mu, 0.0, 1.0)
    if not np.any(draws > 0):                             # wins and losses only: Wilson's
        return mu_ * (1 - mu_)
    # With draws seen, half a game more of each result (Jeffreys' half count): else a
    # result the games happen not to show gets no share at all, and the spread at μ
    # comes out too small (0.91 coverage at 8% wins, 90% draws and 50 games).
    some = np.where(draws > 0, _SPREAD_PRIOR, 0.0)
    losses, draws, wins = losses + some, draws + some, wins + some
    top = 2 * np.minimum(mu_, 1 - mu_)                     # the most draws μ allows

    def rising(d: np.ndarray) -> np.ndarray:              # the log-likelihood's slope
        return (draws / d - losses / (2 * (1 - mu_ - d / 2))
                - wins / (2 * (mu_ - d / 2))) > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        d = _edge(rising, np.zeros(np.shape(mu_)), top, 40)
    d = np.where(draws > 0, d, 0.0)
    return np.maximum(mu_ - d / 4 - mu_ * mu_, 0.0)       # p1 + d/4 − μ², p1 = μ − d/2


def _folded_balance(losses: Any, draws: Any, wins: Any, z: Any
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Limits of ``1 − |2ρ − 1|``, ρ the mean of results 0, ½ and 1 counted ``losses``,
    ``draws`` and ``wins`` (A's wins and losses of the decisive games; or A's results
    over all games, a draw ½), by inverting :func:`folded_limits`' test on the score
    scale: a candidate gap ``θ = |2ρ − 1|`` is kept where the games' gap
    ``|2·mean − 1|`` in standard errors at θ (the spread at θ's ρ, on the games' side
    of ½, as Wilson's interval takes it: :func:`_three_point_spread`) is in θ's
    acceptance region ``[max(0, t − z), u(t)]``, ``t`` θ in those standard errors.
    Near a fair game this is the folded interval; far from one, Wilson's folded (on the
    arcsine scale a 90-to-10 game was covered 0.87 at 20 decisive games; here 0.96)."""
    losses_, draws_, wins_ = (np.asarray(v, float) for v in np.broadcast_arrays(
        losses, draws, wins))
    n = losses_ + draws_ + wins_
    bad = n <= 0
    safe = np.where(bad, 1.0, n)
    mean = (wins_ + draws_ / 2) / safe
    side = np.where(mean >= 0.5, 1.0, -1.0)
    root = np.sqrt(safe)
    gap = root * np.abs(2 * mean - 1)                      # the games' gap times √n
    z_ = np.broadcast_to(np.asarray(z, float), gap.shape)

    def standard(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rho = (1 + side * theta) / 2
        spread = 2 * np.sqrt(np.maximum(_three_point_spread(losses_, draws_, wins_, rho),
                                        1e-300))
        return gap / spread, root * theta / spread         # the games' gap, θ's centre
    def below_wilson(theta: np.ndarray) -> np.ndarray:    # centre at most z above
        seen, centre = standard(theta)
        return centre - z_ <= seen

    def under_edge(theta: np.ndarray) -> np.ndarray:      # the gap within u(centre)
        seen, centre = standard(theta)
        return seen <= _upper_edge(centre, z_)
    # the widest θ kept: its centre at most z above the games' gap (Wilson's bound)
    widest = _edge(below_wilson, np.zeros(gap.shape), np.ones(gap.shape))
    widest = np.where(widest > 1 - 1e-9, 1.0, widest)
    # the narrowest: 0 (a fair game) while the games' gap is within z, else where the
    # games' gap reaches the upper edge u of θ's acceptance region
    need = standard(np.zeros(gap.shape))[0] > z_
    narrowest = np.where(need, _edge(under_edge, widest, np.zeros(gap.shape)), 0.0)
    return np.where(bad, np.nan, 1 - widest), np.where(bad, np.nan, 1 - narrowest)


def _loglik(w: np.ndarray, p: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(w > 0, w * np.log(np.where(w > 0, p, 1.0)), 0.0).sum(-1)


def _widest_at_least(w: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The largest log-likelihood of seat shares whose widest gap is ``d`` or more
    (``d`` above the observed gap): the most-winning seat at ``x``, the least at
    ``x − d``, the others in proportion; ``x`` solves a quadratic."""
    ws = np.sort(w, -1)
    wi, wj = ws[..., -1], ws[..., 0]
    m = ws.sum(-1)
    rest_w = m - wi - wj
    c = 1 + d
    b = wi * (c + 2 * d) + wj * c + 2 * rest_w * d
    root = np.sqrt(np.maximum(b * b - 8 * m * wi * c * d, 0.0))
    x = np.clip((b - root) / (4 * m), d, c / 2)
    alt = np.clip((b + root) / (4 * m), d, c / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        def value(x: np.ndarray) -> np.ndarray:
            out = np.where(wi > 0, wi * np.log(x), 0.0)
            out = out + np.where(wj > 0, wj * np.log(np.maximum(x - d, 0.0)), 0.0)
            share = np.maximum(1 - 2 * x + d, 0.0)
            return out + np.where(rest_w > 0, rest_w * np.log(share), 0.0)
        best = np.maximum(np.nan_to_num(value(x), nan=-np.inf),
                          np.nan_to_num(value(alt), nan=-np.inf))
        middle = ws[..., 1:-1]
        spread = np.where(middle > 0, middle * np.log(np.where(middle > 0, middle, 1.0)
                                                      / np.where(rest_w > 0, rest_w,
                                                                 1.0)[..., None]), 0.0)
    return best + spread.sum(-1)


def _widest_at_most(w: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The largest log-likelihood of seat shares whose widest gap is at most ``d``
    (``d`` below the observed gap), and the floor of those shares. The answer clips the
    ``a`` least-winning seats to a floor ``lo`` and the ``b`` most-winning to ``lo + d``,
    the others in proportion to their wins; every split (a, b) is solved (``lo`` by
    bisection) and the best feasible one kept."""
    players = w.shape[-1]
    ws = np.sort(w, -1)
    best = np.full(np.broadcast_shapes(ws.shape[:-1], d.shape), -np.inf)
    floor_best = np.zeros(best.shape)
    for a in range(1, players):
        for b in range(1, players - a + 1):
            low_w = ws[..., :a].sum(-1)
            high_w = ws[..., players - b:].sum(-1)
            free = ws[..., a:players - b]
            free_w = free.sum(-1)
            lo = np.maximum(0.0, 1 / players - d) + 1e-15
            hi = np.full_like(lo, 1 / players)
            with np.errstate(divide="ignore", invalid="ignore"):
                for _ in range(44):
                    mid = (lo + hi) / 2
                    mu = (low_w / mid + high_w / (mid + d)) / (a + b)
                    total = a * mid + b * (mid + d) + np.where(free_w > 0, free_w / mu, 0.0)
                    over = total > 1
                    lo, hi = np.where(over, lo, mid), np.where(over, mid, hi)
                floor = (lo + hi) / 2
                mu = (low_w / floor + high_w / (floor + d)) / (a + b)
                p_free = free / mu[..., None]
            p = np.concatenate([np.broadcast_to(floor[..., None], floor.shape + (a,)), p_free,
                                np.broadcast_to((floor + d)[..., None], floor.shape + (b,))],
                               axis=-1)
            p = p / p.sum(-1, keepdims=True)
            ok = np.all((p_free >= floor[..., None] - 1e-9)
                        & (p_free <= (floor + d)[..., None] + 1e-9), axis=-1)
            value = np.where(ok, _loglik(ws, p), -np.inf)
            floor_best = np.where(value > best, floor, floor_best)
            best = np.maximum(best, value)
    return best, floor_best


#: Points on each side of the observed gap where the profile likelihood is computed.
_GRID = 96


def _profile(w: np.ndarray) -> tuple[np.ndarray, ...]:
    """The profile likelihood-ratio statistic of the widest gap between seat shares, on
    a grid each side of the observed gap: (gap, lower grid, its LR, the floor of the
    constrained shares there, upper grid, its LR)."""
    m = w.sum(-1)
    shares = w / np.where(m > 0, m, 1)[..., None]
    gap = shares.max(-1) - shares.min(-1)
    top = _loglik(w, shares)
    steps = np.linspace(0.0, 1.0, _GRID)
    below = gap[..., None] * steps                          # 0 … gap
    above = gap[..., None] + (1 - gap[..., None]) * steps   # gap … 1
    wb = w[..., None, :]
    at_most, floor = _widest_at_most(wb, np.minimum(below, gap[..., None] - 1e-12))
    lr_below = 2 * (top[..., None] - at_most)
    with np.errstate(over="ignore", invalid="ignore"):
        lr_above = 2 * (top[..., None] - _widest_at_least(wb, above))
    lr_below[..., -1] = 0.0
    lr_above[..., 0] = 0.0
    lr_below = np.where(gap[..., None] > 0, np.maximum(lr_below, 0.0), 0.0)
    return gap, below, lr_below, floor, above, np.maximum(lr_above, 0.0)


def _crossing(grid: np.ndarray, lr: np.ndarray, limit: np.ndarray, rising: bool
              ) -> np.ndarray:
    """Where a monotone LR curve on ``grid`` (rows) meets ``limit``, by interpolation."""
    if not rising:                                  # decreasing: read it backwards
        grid, lr = grid[..., ::-1], lr[..., ::-1]
    lr = np.maximum.accumulate(lr, axis=-1)          # monotone against rounding
    inside = lr <= limit[..., None]
    last = inside.sum(-1) - 1                       # the last grid point still inside
    last = np.clip(last, 0, grid.shape[-1] - 1)
    nxt = np.minimum(last + 1, grid.shape[-1] - 1)
    g0 = np.take_along_axis(grid, last[..., None], -1)[..., 0]
    g1 = np.take_along_axis(grid, nxt[..., None], -1)[..., 0]
    l0 = np.take_along_axis(lr, last[..., None], -1)[..., 0]
    l1 = np.take_along_axis(lr, nxt[..., None], -1)[..., 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(l1 > l0, (limit - l0) / (l1 - l0), 0.0)
    return np.where(nxt == last, g0, g0 + np.clip(t, 0, 1) * (g1 - g0))


#: How many standard errors from the constrained floor (ceiling) a seat's share may be and
#: still count as tied there (the moment selection of Andrews and Soares, 2010).
_NEAR = 1.0


@functools.lru_cache(maxsize=64)
def _max_gap_table(a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
    """The distribution of ``max X + max(−Y)`` for ``a`` and ``b`` independent standard
    normals, on a grid: (t, log of its upper tail at t), the tail a convolution of the
    two maxima (Φᵃ and Φᵇ) integrated on a grid."""
    sp = _special()
    x = np.linspace(-7.0, 9.0, 1601)
    dx = x[1] - x[0]
    density_a = a * _phi(x) * sp.ndtr(x) ** (a - 1)
    t = np.linspace(-4.0, 16.0, 801)
    # P(max X + max(−Y) > t) = ∫ f_a(x) (1 − Φ(t − x)^b) dx, from the upper tails so
    # that small tails keep their digits
    upper = 1 - sp.ndtr(t[:, None] - x[None, :]) ** b
    small = -np.expm1(b * sp.log_ndtr(t[:, None] - x[None, :]))
    tail = (density_a * np.where(upper < 1e-3, small, upper)).sum(-1) * dx
    return t, np.log(np.maximum(tail, 1e-300))


def _max_gap_quantile(a: Any, b: Any, level: Any) -> np.ndarray:
    """The ``level`` quantile of the largest of the a·b gaps ``(X_i − Y_j)/√2`` between
    ``a`` and ``b`` independent standard normals, for arrays of each (one table per
    (a, b), read backwards); one pair is the normal quantile itself.

    >>> q = _max_gap_quantile(np.array([1, 2]), np.array([1, 2]), 0.975)
    >>> q.round(3).tolist()
    [1.96, 2.455]
    """
    sp = _special()
    a_, b_, level_ = np.broadcast_arrays(np.asarray(a, int), np.asarray(b, int),
                                         np.asarray(level, float))
    out = np.asarray(sp.ndtri(level_), float).copy()          # a = b = 1
    pairs = np.unique(np.stack([a_.ravel(), b_.ravel()], -1), axis=0)
    for pair in {(int(i), int(j)) for i, j in pairs} - {(1, 1)}:
        where = (a_ == pair[0]) & (b_ == pair[1])
        t, log_tail = _max_gap_table(*pair)
        wanted = np.log(np.maximum(1 - level_[where], 1e-300))
        out[where] = np.interp(-wanted, -log_tail, t) / math.sqrt(2)
    return out


class _SeatProfile:
    """The balance interval of three or more seats at any confidence (the profile is
    computed once)."""

    def __init__(self, wins: np.ndarray) -> None:
        self.players = wins.shape[-1]
        self.decisive = wins.sum(-1)
        self.empty = self.decisive <= 0
        self.shares = wins / np.where(self.empty, 1, self.decisive)[..., None]
        self.value = 1 - (self.shares.max(-1) - self.shares.min(-1))
        (self.gap, self.below, self.lr_below, self.floor, self.above,
         self.lr_above) = _profile(wins)

    def _tied(self, floor: np.ndarray, ceiling: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """At each point of a grid, how many seats are tied at the constrained shares'
        ``floor`` and how many at their ``ceiling``: pushed there, or with their own
        share within ``_NEAR`` standard errors of it."""
        m = np.where(self.empty, 1, self.decisive)[..., None]
        se = np.sqrt(np.maximum(self.shares * (1 - self.shares), 1 / m) / m)[..., None, :]
        shares = self.shares[..., None, :]
        at_floor = (shares <= floor[..., None] + _NEAR * se).sum(-1)
        at_ceiling = (shares >= ceiling[..., None] - _NEAR * se).sum(-1)
        return np.maximum(at_floor, 1), np.maximum(at_ceiling, 1)

    def limits(self, z: Any) -> tuple[np.ndarray, np.ndarray]:
        sp = _special()
        z_ = np.broadcast_to(np.asarray(z, float), self.gap.shape)
        one = z_ * z_                                      # χ²(1) quantile
        alpha = 2 * sp.ndtr(-z_)
        fair = sp.chdtri(self.players - 1, alpha)          # χ²(players − 1) quantile
        # Williams' (1976) correction of the likelihood ratio at few games: without it
        # the test of equal seats rejects them 6–7% of the time at 18 decisive games.
        m = np.where(self.empty, 1, self.decisive)
        lr_below = self.lr_below / (1 + (self.players + 1) / (6 * m))[..., None]
        # Below the observed gap, where several seats tie at the floor or the ceiling of
        # the constrained shares, the widest gap is the largest of several pair gaps: it
        # is tested against the quantile of the largest of them, else ties undercover.
        at_floor, at_ceiling = self._tied(self.floor, self.floor + self.below)
        bound = _max_gap_quantile(at_floor, at_ceiling, 1 - alpha[..., None] / 2) ** 2
        d_low = _crossing(self.below, lr_below - bound, np.zeros(self.gap.shape),
                          rising=False)
        d_low = np.where(lr_below[..., 0] <= np.maximum(one, fair), 0.0, d_low)
        d_high = _crossing(self.above, self.lr_above, one, rising=True)
        # The seats' own shares always inside (against rounding on the grid).
        low = np.minimum(1 - d_high, self.value)
        high = np.maximum(1 - d_low, self.value)
        return np.where(self.empty, np.nan, low), np.where(self.empty, np.nan, high)


def seat_balance_interval(wins: Any, z: Any = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Limits of balance, ``1 −`` the widest gap between the seats' shares of the
    decisive games, from each seat's wins (the last axis: one count per seat).

    Two seats: :func:`folded_limits`' test on the score scale
    (:func:`_two_seat_balance`). Three or more: the profile likelihood ratio of the
    widest gap against χ²(1) — below the observed gap, with
    Williams' small-sample correction, against the quantile of the largest of the pair
    gaps between the seats tied at the floor and the ceiling of the constrained shares
    (within a standard error of them) —, the upper limit 1 (a fair game) wherever the
    likelihood-ratio test of equal seats accepts them (χ² with one degree of freedom
    fewer than the seats).

    >>> low, high = seat_balance_interval([[50, 50], [70, 30]])
    >>> low.round(3).tolist(), high.round(3).tolist()
    ([0.808, 0.438], [1.0, 0.782])
    >>> low, high = seat_balance_interval([[30, 35, 35]])
    >>> round(float(low[0]), 3), float(high[0])
    (0.794, 1.0)
    """
    w = np.asarray(wins, float)
    if w.shape[-1] < 2:
        raise ValueError("balance needs at least two seats")
    if w.shape[-1] == 2:
        return _two_seat_balance(w[..., 0], w.sum(-1), z)
    return _SeatProfile(w).limits(z)


#: The fewest games whose skewness corrects a mean's interval (:func:`mean_limits`).
_SKEW_FROM = 6


class _MeanStats:
    """The moments behind :func:`mean_limits`, computed once for any confidence."""

    def __init__(self, values: np.ndarray, valid: np.ndarray | None = None,
                 bounds: tuple[float, float] | None = None) -> None:
        self.bounds = bounds
        x = np.asarray(values, float)
        ok = np.isfinite(x) if valid is None else (np.asarray(valid, bool) & np.isfinite(x))
        n = ok.sum(-1)
        self.n = n
        with np.errstate(invalid="ignore", divide="ignore"):
            safe = np.where(n > 0, n, 1)
            self.mean = np.where(ok, x, 0.0).sum(-1) / safe
            dev = np.where(ok, x - self.mean[..., None], 0.0)
            s2 = (dev * dev).sum(-1) / np.where(n > 1, n - 1, 1)
            self.sd = np.sqrt(s2)
            m3 = (dev ** 3).sum(-1) * n / np.where(n > 2, (n - 1) * (n - 2), 1)
            self.skew = np.where((n > 2) & (self.sd > 0), m3 / np.where(self.sd > 0,
                                                                          self.sd, 1) ** 3, 0.0)
        ordered = np.sort(np.where(ok, x, np.inf), -1)
        distinct = 1 + ((ordered[..., 1:] != ordered[..., :-1])
                        & np.isfinite(ordered[..., 1:])).sum(-1)
        self.distinct = np.where(n > 0, distinct, 0)
        self.first = ordered[..., 0]
        self.last = np.max(np.where(ok, x, -np.inf), -1)
        self.upper_count = (ok & (x == self.last[..., None])).sum(-1)

    def limits(self, z: Any) -> tuple[np.ndarray, np.ndarray]:
        sp = _special()
        z_ = np.broadcast_to(np.asarray(z, float), self.mean.shape)
        n = self.n
        with np.errstate(invalid="ignore", divide="ignore"):
            df = np.where(n > 1, n - 1, 1).astype(float)
            q = sp.stdtrit(df, sp.ndtr(z_))                   # the t quantile, same level
            # (the skewness of fewer than six games is mostly noise: a plain t there)
            a = np.where(n >= _SKEW_FROM, self.skew, 0.0) / np.sqrt(np.where(n > 0, n, 1))
            se = self.sd / np.sqrt(np.where(n > 0, n, 1))

            def back(t: np.ndarray) -> np.ndarray:          # Hall's transformation, undone
                small = np.abs(a) < 1e-12
                safe_a = np.where(small, 1.0, a)
                # beyond the transformation's turning point (t = −3/a) it is flat:
                # stop there rather than run off to a limit far past the data
                bent = (3 / safe_a) * (np.cbrt(np.maximum(1 + safe_a * (t - safe_a / 6),
                                                          0.0)) - 1)
                return np.where(small, t, bent)
            low = self.mean - se * back(q)
            high = self.mean - se * back(-q)
            # Two values seen: a share of games between them (the Wilson interval).
            k_low, k_high = wilson(self.upper_count, n, z_)
            width = self.last - self.first
            # (Two values in ten games or more: with fewer, a continuous measure may
            # simply not have shown a third.)
            two = (self.distinct == 2) & (n >= 10)
            low = np.where(two, self.first + width * k_low, low)
            high = np.where(two, self.first + width * k_high, high)
        # Games all alike say nothing about how far off a rarer value lies (a score gap
        # of 0 in 20 games, where one game in ten has a gap): no interval, unless the
        # measure has bounds (decisiveness: 0 … 1). Then the share of games with
        # another value is at most Wilson's upper limit of 0 in n, and they lie at
        # worst at a bound.
        one = self.distinct == 1
        if self.bounds is not None:
            others = wilson(np.zeros(n.shape), n, z_)[1]
            floor, ceiling = self.bounds
            low = np.where(one, self.mean - (self.mean - floor) * others, low)
            high = np.where(one, self.mean + (ceiling - self.mean) * others, high)
            one = np.zeros(one.shape, bool)
        bad = (n < 2) | one
        return np.where(bad, np.nan, low), np.where(bad, np.nan, high)


def mean_limits(values: Any, valid: Any = None, z: Any = Z95
                ) -> tuple[np.ndarray, np.ndarray]:
    """Limits of a mean over games (the last axis), ``valid`` marking the games that
    count: the t interval with Hall's (1992) correction for skewness — game lengths
    are skewed, and a plain t interval then misses on the long side (from six games:
    the skewness of fewer is mostly noise, and they get a plain t). Ten games or more
    showing only two values (a game gap of 0 or 1, say) get the Wilson interval of the
    share between them; fewer than two games, or games all alike, NaN (no interval:
    nothing in them says how far off a rarer value lies).

    >>> low, high = mean_limits([[3, 5, 4, 9, 4, 6, 5, 12]])
    >>> round(float(low[0]), 2), round(float(high[0]), 2)
    (4.13, 12.65)
    """
    return _MeanStats(np.atleast_1d(np.asarray(values, float)), valid).limits(z)


def result_limits(values: Any, z: Any = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Limits of a mean of results between 0 and 1 (a loss 0, a draw ½, a win 1; the
    last axis: one per game): Wilson's score interval carried to a mean. The limits are
    the means μ whose distance from the games' mean ``x̄`` is within ``z`` standard
    errors at μ itself, ``n(x̄ − μ)² ≤ z²·V(μ)``. Results 0, ½ and 1 take ``V(μ)`` at the
    shares of losses, draws and wins that fit the games best among those with mean μ
    (:func:`_three_point_spread`): wins and losses alone give Wilson's interval itself,
    and 20 draws of 20 a real interval round ½. Other results (a seat's result with
    three or more seats) take the spread ``μ(1 − μ) − c``, ``c`` the games' mean of
    ``x(1 − x)``, and no interval where every game gave the same result. A mean of
    results is not skewed the way a mean of lengths is, and a skew-corrected t pulls it
    towards ½ (0.98 at 20 games with draws, where this is 0.95).

    >>> low, high = result_limits([[1.0] * 11 + [0.0] * 9])     # Wilson's for 11 of 20
    >>> np.allclose([low[0], high[0]], wilson(11, 20))
    True
    >>> low, high = result_limits([[1.0] * 8 + [0.5] * 4 + [0.0] * 8, [0.5] * 20])
    >>> low.round(3).tolist(), high.round(3).tolist()
    ([0.318, 0.41], [0.682, 0.59])
    """
    x = np.atleast_1d(np.asarray(values, float))
    ok = np.isfinite(x)
    n = ok.sum(-1).astype(float)
    z_ = np.broadcast_to(np.asarray(z, float), n.shape)
    safe = np.where(n > 0, n, 1)
    mean = np.where(ok, x, 0.0).sum(-1) / safe
    zz = z_ * z_
    three = np.all(~ok | (x == 0) | (x == 0.5) | (x == 1), -1)
    losses, draws, wins = ((ok & (x == v)).sum(-1).astype(float) for v in (0.0, 0.5, 1.0))

    held = np.where(ok, x * (1 - x), 0.0).sum(-1) / safe

    def spread(mu: np.ndarray) -> np.ndarray:
        plain = mu * (1 - mu) - held
        return np.where(three, _three_point_spread(losses, draws, wins, mu), plain)

    def inside(mu: np.ndarray) -> np.ndarray:
        return n * (mean - mu) ** 2 <= zz * spread(mu)
    # each end by bisection from the games' mean outwards
    low = np.where(mean <= 0, 0.0, _edge(inside, mean, np.zeros(n.shape)))
    high = np.where(mean >= 1, 1.0, _edge(inside, mean, np.ones(n.shape)))
    first = np.where(ok, x, np.inf).min(-1, initial=np.inf)
    alike = ~three & (first == np.where(ok, x, -np.inf).max(-1, initial=-np.inf))
    bad = (n < 1) | alike
    return np.where(bad, np.nan, low), np.where(bad, np.nan, high)


# --- the games as columns ----------------------------------------------------------
class Studies:
    """Games as numpy columns, one row per study (studies × games): the same games
    resampled, many simulated studies at once, or a single tournament (one row).

    ``sole`` is the seat of the single winner (-1: a draw, a shared win, or a game cut
    off by the cap), ``won`` which seats won (several for a shared win), ``decided``
    when the winner took the lead for good (NaN without a single winner), ``lead_rate``
    lead changes of the sole leader per decision, ``lead_rate_ludii`` Ludii's count (a
    change of the set of leaders, ties included) per decision (NaN where the rows do not
    have it), ``spread`` the final gap between the highest and the lowest score,
    ``scores`` the final scores (studies × games × seats).
    """

    FIELDS = ("sole", "won", "capped", "decisions", "plies", "branching", "lead_rate",
              "lead_rate_ludii", "decided", "spread", "scores")

    def __init__(self, players: int, **columns: np.ndarray) -> None:
        missing = set(self.FIELDS) - set(columns)
        if missing:
            raise ValueError(f"Studies needs every column: {', '.join(sorted(missing))} "
                             "missing")
        self.players = players
        for name in self.FIELDS:
            setattr(self, name, np.asarray(columns[name]))
        self.studies, self.n = self.sole.shape

    @classmethod
    def simulated(cls, players: int, sole: np.ndarray, *, capped: np.ndarray | None = None,
                  **columns: np.ndarray) -> Studies:
        """Studies made up from a winner column (studies × games): the others default to
        plain games (10 decisions, no lead change, no score) — for simulations."""
        sole = np.asarray(sole, np.int64)
        shape = sole.shape
        capped = np.zeros(shape, bool) if capped is None else np.asarray(capped, bool)
        won = np.zeros(shape + (players,), bool)
        for seat in range(players):
            won[..., seat] = sole == seat
        defaults: dict[str, Any] = {
            "won": won, "capped": capped, "decisions": np.full(shape, 10.0),
            "plies": None, "branching": np.full(shape, 2.0),
            "lead_rate": np.zeros(shape), "lead_rate_ludii": np.zeros(shape),
            "decided": np.where(sole >= 0, 0.0, np.nan), "spread": np.zeros(shape),
            "scores": np.zeros(shape + (players,))}
        defaults.update(columns)
        if defaults["plies"] is None:
            defaults["plies"] = defaults["decisions"]
        return cls(players, sole=sole, **defaults)


class GameColumns:
    """A tournament's rows as numpy columns, one entry per game (in row order); see
    :class:`Studies` for what each column holds."""

    def __init__(self, rows: Sequence[dict[str, Any]], num_players: int) -> None:
        names = {seat_name(p): p for p in range(num_players)}
        self.players = num_players
        self.n = len(rows)
        self.seeds = [r["seed"] for r in rows]
        self.sole = np.array([names[r["winners"][0]] if len(r["winners"]) == 1 else -1
                              for r in rows], dtype=np.int64)
        self.won = np.zeros((self.n, num_players), bool)
        for i, r in enumerate(rows):
            for w in r["winners"]:
                self.won[i, names[w]] = True
        self.capped = np.array([bool(r["capped"]) for r in rows], dtype=bool)
        self.decisions = np.array([r["decisions"] for r in rows], dtype=float)
        self.plies = np.array([r["plies"] for r in rows], dtype=float)
        self.branching = np.array([r["branching"] for r in rows], dtype=float)
        self.lead_rate = np.array([r["lead_changes"] / r["decisions"] if r["decisions"]
                                   else 0.0 for r in rows], dtype=float)
        self.lead_rate_ludii = np.array(
            [np.nan if r.get("lead_changes_ludii") is None else
             (r["lead_changes_ludii"] / r["decisions"] if r["decisions"] else 0.0)
             for r in rows], dtype=float)
        self.decided = np.array([np.nan if r["decided_at"] is None else r["decided_at"]
                                 for r in rows], dtype=float)
        self.scores = np.zeros((self.n, num_players))
        for i, r in enumerate(rows):
            if r["scores"]:
                self.scores[i, :len(r["scores"])] = r["scores"]
        self.spread = np.array([max(r["scores"]) - min(r["scores"]) if r["scores"] else 0.0
                                for r in rows], dtype=float)

    def take(self, index: np.ndarray) -> Studies:
        """The columns taken by ``index`` (studies × games of game numbers)."""
        index = np.asarray(index)
        return Studies(self.players, **{name: getattr(self, name)[index]
                                        for name in Studies.FIELDS})

    def studies(self) -> Studies:
        """All the games as one study."""
        return self.take(np.arange(self.n)[None, :])


# --- estimates: a value per study and its limits at any confidence --------------------
class _Estimate:
    """A metric measured on studies: ``value`` (one per study), ``limits(z)``, and
    ``influence`` (studies × games: each game's pull on the value, for paired
    correlations; None where it has none)."""

    value: np.ndarray
    influence: np.ndarray | None = None

    def limits(self, z: Any) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
        raise NotImplementedError


class _Share(_Estimate):
    """Games counted over games considered (a ratio where the games considered vary)."""

    def __init__(self, counted: np.ndarray, considered: np.ndarray, offset: float = 0.0
                 ) -> None:
        self.num = counted.astype(float)
        self.den = considered.astype(float)
        self.k, self.of = self.num.sum(-1), self.den.sum(-1)
        self.offset = offset
        with np.errstate(invalid="ignore", divide="ignore"):
            rate = self.k / self.of
            self.value = np.where(self.of > 0, rate + offset, np.nan)
            mean_den = self.den.mean(-1)
            self.influence = np.where(
                (self.of > 0)[..., None],
                (self.num - np.nan_to_num(rate)[..., None] * self.den)
                / np.where(mean_den > 0, mean_den, 1)[..., None], 0.0)

    def limits(self, z: Any) -> tuple[np.ndarray, np.ndarray]:
        low, high = wilson(self.k, self.of, z)
        none = self.of <= 0
        return (np.where(none, np.nan, low + self.offset),
                np.where(none, np.nan, high + self.offset))


class _Mean(_Estimate):
    """A mean over the games that count (``valid``)."""

    def __init__(self, values: np.ndarray, valid: np.ndarray | None = None,
                 bounds: tuple[float, float] | None = None) -> None:
        values = values.astype(float)
        ok = np.isfinite(values) if valid is None else (valid & np.isfinite(values))
        self.values, self.valid = values, ok
        self.stats = _MeanStats(values, ok, bounds)
        self.value = np.where(self.stats.n > 0, self.stats.mean, np.nan)
        share = ok.mean(-1)
        self.influence = np.where(ok, values - self.stats.mean[..., None], 0.0) / \
            np.where(share > 0, share, 1)[..., None]

    def limits(self, z: Any) -> tuple[np.ndarray, np.ndarray]:
        return self.stats.limits(z)


class _MeanResult(_Mean):
    """A mean of results between 0 and 1 (:func:`result_limits`)."""

    def limits(self, z: Any) -> tuple[np.ndarray, np.ndarray]:
        return result_limits(np.where(self.valid, self.values, np.nan), z)


class _Balance(_Estimate):
    """1 − the widest gap between the seats' shares of the decisive games."""

    def __init__(self, t: Studies) -> None:
        decisive = t.sole >= 0
        self.players = t.players
        counts = np.stack([(t.sole == s) for s in range(t.players)], -1).astype(float)
        self.wins = counts.sum(-2)                                 # studies × seats
        m = self.wins.sum(-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            rates = self.wins / np.where(m > 0, m, 1)[..., None]
        self.value = np.where(m > 0, 1 - (rates.max(-1) - rates.min(-1)), np.nan)
        mean_den = decisive.mean(-1)
        scale = np.where(mean_den > 0, mean_den, 1)[..., None]
        top, bottom = rates.argmax(-1), rates.argmin(-1)

        def pull(seat: np.ndarray) -> np.ndarray:
            r = np.take_along_axis(rates, seat[..., None], -1)
            return ((t.sole == seat[..., None]) - r * decisive) / scale
        influence = -(pull(top) - pull(bottom))
        tied = rates.max(-1) == rates.min(-1)                    # no direction to pull in
        self.influence = np.where((tied | (m <= 0))[..., None], 0.0, influence)
        self._profile = _SeatProfile(self.wins) if t.players > 2 else None

    def limits(self, z: Any) -> tuple[np.ndarray, np.ndarray]:
        if self._profile is not None:
            return self._profile.limits(z)
        return _two_seat_balance(self.wins[..., 0], self.wins.sum(-1), z)


class _FoldedMean(_Estimate):
    """``offset − scale·|mean of d|`` for a per-game difference ``d`` whose sign is
    unknown (Ludii's two-seat balance and score difference), limits from
    :func:`folded_limits` on the t scale."""

    def __init__(self, diff: np.ndarray, offset: float, scale: float) -> None:
        self.stats = _MeanStats(diff)
        self.offset, self.scale = offset, scale
        self.value = offset + scale * np.abs(self.stats.mean)
        self.influence = None

    def limits(self, z: Any) -> tuple[np.ndarray, np.ndarray]:
        n = self.stats.n
        with np.errstate(invalid="ignore", divide="ignore"):
            se = self.stats.sd / np.sqrt(np.where(n > 0, n, 1))
            x = np.where(se > 0, np.abs(self.stats.mean) / np.where(se > 0, se, 1), 0.0)
        low_t, high_t = folded_limits(x, z)
        a, b = self.offset + self.scale * low_t * se, self.offset + self.scale * high_t * se
        low, high = np.minimum(a, b), np.maximum(a, b)
        if self.offset == 1.0:                                  # a balance: within 0 … 1
            low, high = np.clip(low, 0, 1), np.clip(high, 0, 1)
        bad = (n < 2) | (self.stats.distinct == 1)             # games all alike: none
        return np.where(bad, np.nan, low), np.where(bad, np.nan, high)


class _ValueOnly(_Estimate):
    """A value without an interval (where no method here gives one)."""

    def __init__(self, value: np.ndarray) -> None:
        self.value = value
        self.influence = None

    def limits(self, z: Any) -> tuple[np.ndarray, np.ndarray]:
        nothing = np.full(np.shape(self.value), np.nan)
        return nothing, nothing


# --- the metrics --------------------------------------------------------------------
@dataclass(frozen=True)
class Metric:
    """One of Ludii's metrics as the lab measures it: ``measure(studies)`` gives its
    estimate (value, limits at any confidence, influence of each game)."""

    key: str
    ludii: str                 #: Ludii's name (``Evaluation/src/metrics/`` in Ludii)
    label: str                 #: the short name a table shows
    meaning: str
    measure: Callable[[Studies], _Estimate]
    #: a mean of one value per game (paired differences take the game-by-game gap)
    per_game: Callable[[Studies], np.ndarray] | None = None
    #: a share of games: (games counted, games considered), for "count" and "of"
    share: Callable[[Studies], tuple[np.ndarray, np.ndarray]] | None = None

    def value(self, columns: GameColumns) -> float | None:
        """The metric over all the games (None where no game qualifies)."""
        return _number(self.measure(columns.studies()).value[0])


def _number(x: Any) -> float | None:
    return None if x is None or not np.isfinite(x) else float(x)


def _share_metric(key: str, ludii: str, label: str, meaning: str,
                  parts: Callable[[Studies], tuple[np.ndarray, np.ndarray]],
                  offset: Callable[[Studies], float] = lambda t: 0.0) -> Metric:
    return Metric(key, ludii, label, meaning,
                  lambda t: _Share(*parts(t), offset=offset(t)), share=parts)


def _mean_metric(key: str, ludii: str, label: str, meaning: str,
                 values: Callable[[Studies], np.ndarray], paired: bool = True) -> Metric:
    return Metric(key, ludii, label, meaning, lambda t: _Mean(values(t)),
                  per_game=values if paired else None)


METRICS: tuple[Metric, ...] = (
    _share_metric("advantage_p1", "AdvantageP1", "advantage A",
                  "A's share of the decisive games minus a fair share (1/players)",
                  lambda t: (t.sole == 0, t.sole >= 0), offset=lambda t: -1 / t.players),
    Metric("balance", "Balance", "balance",
           "1 minus the largest gap between two seats' win rates over decisive games",
           _Balance),
    _share_metric("completion", "Completion", "completion",
                  "share of games that end by the rules (not cut off by the cap)",
                  lambda t: (~t.capped, np.ones(t.capped.shape, bool))),
    _share_metric("drawishness", "Drawishness", "drawishness",
                  "share of finished games without a single winner",
                  lambda t: ((t.sole < 0) & ~t.capped, ~t.capped)),
    _share_metric("timeouts", "Timeouts", "timeouts",
                  "share of games cut off by the cap on plies",
                  lambda t: (t.capped, np.ones(t.capped.shape, bool))),
    _mean_metric("duration", "DurationTurns", "turns",
                 "mean turns per game: decisions, chance outcomes not counted",
                 lambda t: t.decisions),
    _mean_metric("duration_plies", "DurationMoves", "plies",
                 "mean plies per game: decisions and chance outcomes", lambda t: t.plies),
    Metric("decisiveness", "DecisivenessMoves", "decisiveness",
           "when the winner took the lead for good, as a share of the game "
           "(0 = from the start; games with a single winner)",
           lambda t: _Mean(t.decided, ~np.isnan(t.decided), bounds=(0.0, 1.0))),
    _mean_metric("lead_change", "LeadChange", "lead change",
                 "changes of the sole leader (by score) per decision, averaged over games",
                 lambda t: t.lead_rate),
    _mean_metric("branching_factor", "BranchingFactor (average)", "branching",
                 "mean number of legal moves at a decision", lambda t: t.branching),
    _mean_metric("score_difference", "ScoreDifference (at the end)", "score gap",
                 "final gap between the highest and the lowest score, averaged",
                 lambda t: t.spread),
)
_BY_KEY = {m.key: m for m in METRICS}


def _seat_metric(seat: int) -> Metric:
    name = seat_name(seat)
    return _share_metric(f"win_{name}", "", f"wins {name}",
                         f"share of all games {name} wins alone",
                         lambda t: (t.sole == seat, np.ones(t.sole.shape, bool)))


def metric_keys(num_players: int) -> list[str]:
    """Every metric a comparison can show: Ludii's, then each seat's win share."""
    return [m.key for m in METRICS] + [f"win_{seat_name(p)}" for p in range(num_players)]


def _metric(key: str, num_players: int) -> Metric:
    if key in _BY_KEY:
        return _BY_KEY[key]
    for p in range(num_players):
        if key == f"win_{seat_name(p)}":
            return _seat_metric(p)
    raise ValueError(f"no metric {key!r}; the metrics are: "
                     f"{', '.join(metric_keys(num_players))}")


# --- Ludii's own definitions -----------------------------------------------------------
def ludii_utilities(won: np.ndarray) -> np.ndarray:
    """Each seat's result as Ludii scores it (``(utility + 1) / 2`` of
    ``RankUtils.agentUtilities``): the winners share the first ranks, every other seat
    the ranks after them, a rank turned linearly into 1 (first) … 0 (last). A single
    winner scores 1, the others ``(players − 2) / (2 (players − 1))`` (0 with two
    players); a game without a winner (a draw, or cut off) ½ for everyone.

    >>> ludii_utilities(np.array([[True, False], [False, False]])).tolist()
    [[1.0, 0.0], [0.5, 0.5]]
    >>> ludii_utilities(np.array([[False, True, False, False]])).round(3).tolist()
    [[0.333, 1.0, 0.333, 0.333]]
    """
    won = np.asarray(won, bool)
    players = won.shape[-1]
    k = won.sum(-1, keepdims=True).astype(float)
    rank_won = (k + 1) / 2
    rank_lost = (k + 1 + players) / 2
    rank = np.where(won, rank_won, np.where(k > 0, rank_lost, (players + 1) / 2))
    return 1 - (rank - 1) / (players - 1)


class _ResultBalance(_Estimate):
    """``1 − |2ρ − 1|`` for A's mean result ρ over all games, two seats (Ludii's
    balance: 1 − the gap between the two seats' mean results), by
    :func:`_folded_balance`."""

    def __init__(self, results: np.ndarray) -> None:
        self.counts = tuple((results == v).sum(-1) for v in (0.0, 0.5, 1.0))
        self.value = 1 - np.abs(2 * results.mean(-1) - 1)
        self.influence = None

    def limits(self, z: Any) -> tuple[np.ndarray, np.ndarray]:
        return _folded_balance(*self.counts, z)


def _ludii_balance(t: Studies) -> _Estimate:
    scores = ludii_utilities(t.won)
    if t.players == 2:
        return _ResultBalance(scores[..., 0])
    rates = scores.mean(-2)
    return _ValueOnly(1 - (rates.max(-1) - rates.min(-1)))


def _ludii_score_difference(t: Studies) -> _Estimate:
    if t.players == 2:
        return _FoldedMean(t.scores[..., 0] - t.scores[..., 1], 0.0, 1.0)
    means = t.scores.mean(-2)
    return _ValueOnly(means.max(-1) - means.min(-1))


def _results_of_a(t: Studies) -> np.ndarray:
    return ludii_utilities(t.won)[..., 0]


#: The metrics under Ludii's own definitions (``summarize(..., definition="ludii")``),
#: by key; the others are the same as ours (docs/metrics.md lists every difference).
LUDII_METRICS: dict[str, Metric] = {m.key: m for m in (
    Metric("advantage_p1", "AdvantageP1", "advantage A",
           "A's mean result over all games: a win 1, a draw or a game cut off ½ "
           "(0.5 is fair)", lambda t: _MeanResult(_results_of_a(t)), per_game=_results_of_a),
    Metric("balance", "Balance", "balance",
           "1 minus the largest gap between two seats' mean results over all games "
           "(draws half a win)", _ludii_balance),
    _share_metric("completion", "Completion", "completion",
                  "share of all games with a single winner",
                  lambda t: (t.sole >= 0, np.ones(t.sole.shape, bool))),
    _share_metric("drawishness", "Drawishness", "drawishness",
                  "share of all games that end without a winner (not cut off)",
                  lambda t: ((t.sole < 0) & ~t.capped, np.ones(t.sole.shape, bool))),
    _mean_metric("duration", "DurationTurns", "turns",
                 "mean moves per game, chance outcomes not counted (Ludii's moves)",
                 lambda t: t.decisions),
    _mean_metric("duration_plies", "DurationMoves", "moves",
                 "mean moves per game, chance outcomes not counted (Ludii's real moves)",
                 lambda t: t.decisions),
    _mean_metric("lead_change", "LeadChange", "lead change",
                 "changes of the set of leaders (ties included) per move, the first move "
                 "counted", lambda t: t.lead_rate_ludii),
    Metric("score_difference", "ScoreDifference (end)", "score gap",
           "largest gap between two seats' mean final scores",
           _ludii_score_difference),
)}


def _definitions(definition: str) -> list[Metric]:
    if definition not in DEFINITIONS:
        raise ValueError(f"definition={definition!r}: use 'ours' or 'ludii' (Ludii's own "
                         "definitions; docs/metrics.md lists the differences)")
    if definition == "ours":
        return list(METRICS)
    return [LUDII_METRICS.get(m.key, m) for m in METRICS]


# --- summaries ---------------------------------------------------------------------------
def _entry(metric: Metric, t: Studies, z: float = Z95) -> dict[str, Any]:
    estimate = metric.measure(t)
    low, high = estimate.limits(z)
    entry: dict[str, Any] = {"value": _number(estimate.value[0]), "low": _number(low[0]),
                             "high": _number(high[0])}
    if entry["value"] is None:
        entry["low"] = entry["high"] = None
    if isinstance(estimate, _Share):
        entry.update(count=int(estimate.k[0]), of=int(estimate.of[0]))
    stats = getattr(estimate, "stats", None)
    if isinstance(stats, _MeanStats) and stats.distinct[0] == 1 and stats.n[0] >= 2 \
            and entry["low"] is None and entry["value"] is not None:
        entry["alike"] = int(stats.n[0])              # games all alike: no interval
    return entry


def _rate(k: int, n: int) -> dict[str, float]:
    low, high = wilson(k, n)
    return {"wins": k, "games": n, "rate": k / n if n else 0.0, "low": low, "high": high}


def summarize(rows: Sequence[dict[str, Any]], num_players: int, *,
              definition: str = "ours") -> dict[str, Any]:
    """The metrics of tournament rows (see :func:`run_tournament`), each with its 95%
    interval. ``definition="ludii"`` gives Ludii's own definitions instead (advantage
    and balance over all games with draws as half wins, completion as the share with a
    winner, drawishness over all games, lead changes with ties, durations in moves
    without chance); docs/metrics.md lists every difference."""
    metrics = _definitions(definition)
    n = len(rows)
    columns = GameColumns(rows, num_players)
    seats = [seat_name(p) for p in range(num_players)]
    win_rate = {s: _rate(int((columns.sole == p).sum()), n) for p, s in enumerate(seats)}
    bots: dict[str, list[int]] = {}
    for row, winner in zip(rows, columns.sole):
        for seat, bot in enumerate(row["bots"]):
            entry = bots.setdefault(bot, [0, 0])
            entry[1] += 1
            entry[0] += int(winner == seat)
    by_bot = {bot: _rate(k, games) for bot, (k, games) in bots.items()}
    lengths = columns.plies
    counts, edges = np.histogram(lengths, bins=min(20, max(1, n)))
    studies = columns.studies()
    out_metrics = {m.key: _entry(m, studies) if n else
                   {"value": None, "low": None, "high": None} for m in metrics}
    plies = out_metrics.pop("duration_plies")
    out_metrics["duration"]["plies"] = plies
    return {
        "games": n,
        "definition": definition,
        "win_rate": win_rate,
        "by_bot": by_bot,
        # kept for older code: the same as advantage_p1's value
        "first_player_advantage": out_metrics["advantage_p1"]["value"],
        "draws": int(((columns.sole < 0) & ~columns.capped).sum()),
        "capped": int(columns.capped.sum()),
        "length": {"mean": float(lengths.mean()) if n else 0.0,
                   "sd": float(lengths.std(ddof=1)) if n > 1 else 0.0,
                   "min": float(lengths.min()) if n else 0.0,
                   "median": float(np.median(lengths)) if n else 0.0,
                   "max": float(lengths.max()) if n else 0.0,
                   "histogram": {"edges": edges.tolist(), "counts": counts.tolist()}},
        "lead_changes": float(np.mean([r["lead_changes"] for r in rows])) if n else 0.0,
        "branching": float(columns.branching.mean()) if n else 0.0,
        **out_metrics,
    }


# --- paired differences ---------------------------------------------------------------
class _Paired(_Estimate):
    """value(b) − value(a) over paired studies: the game-by-game gap of a mean, or
    Newcombe's MOVER (the two intervals combined, with the correlation of the games'
    influences) for shares, ratios and balance — two-seat balance near a fair game by
    :class:`_BalanceGap`'s test inversion."""

    def __init__(self, metric: Metric, a: Studies, b: Studies) -> None:
        self.ea, self.eb = metric.measure(a), metric.measure(b)
        self.value = self.eb.value - self.ea.value
        self.gap = None
        if metric.per_game is not None:
            self.gap = _MeanStats(metric.per_game(b) - metric.per_game(a))
        ia, ib = self.ea.influence, self.eb.influence
        if ia is None or ib is None:
            self.rho = np.zeros(self.value.shape)
            self.same = np.zeros(self.value.shape, bool)
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                ca, cb = ia - ia.mean(-1, keepdims=True), ib - ib.mean(-1, keepdims=True)
                top = (ca * cb).sum(-1)
                if isinstance(self.ea, _Share) and isinstance(self.eb, _Share):
                    # Newcombe's continuity correction of the paired φ (AD − BC − N/2):
                    # a positive correlation of counted games, shrunk by half a game.
                    scale = self.ea.den.mean(-1) * self.eb.den.mean(-1)
                    top = np.where(top > 0, np.maximum(top - 0.5 / np.where(
                        scale > 0, scale, 1), 0.0), top)
                rho = top / np.sqrt((ca * ca).sum(-1) * (cb * cb).sum(-1))
            self.rho = np.clip(np.nan_to_num(rho), -1, 1)
            self.same = np.all(ia == ib, -1) & (self.ea.value == self.eb.value)
        self.gap_balance = None
        if isinstance(self.ea, _Balance) and a.players == 2 == b.players:
            # The sign of A's advantage on both sides: its games' pull correlates them.
            sa, sb = _Share(a.sole == 0, a.sole >= 0), _Share(b.sole == 0, b.sole >= 0)
            with np.errstate(invalid="ignore", divide="ignore"):
                ca = sa.influence - sa.influence.mean(-1, keepdims=True)
                cb = sb.influence - sb.influence.mean(-1, keepdims=True)
                rho = (ca * cb).sum(-1) / np.sqrt((ca * ca).sum(-1) * (cb * cb).sum(-1))
            same = np.all(a.sole == b.sole, -1)
            # Where either side may be a fair game (its interval reaches 1), balance folds
            # and the test inversion decides; elsewhere the two intervals combine.
            self.folded = (self.ea.limits(Z95)[1] >= 1) | (self.eb.limits(Z95)[1] >= 1)
            self.gap_balance = _BalanceGap(self.ea, self.eb, np.nan_to_num(rho), same,
                                           self.folded)

    @property
    def exact_p(self) -> np.ndarray | None:
        """Where every game differs by the same nonzero amount (every game one turn
        longer, say), no interval, but the sign test's p-value of "no difference":
        ``2·½ⁿ``; NaN elsewhere."""
        if self.gap is None:
            return None
        # (both sides counting the same games: the difference is the gap itself)
        alike = (self.gap.distinct == 1) & (self.gap.first != 0) & (self.gap.n >= 2) \
            & (np.abs(self.value - self.gap.first) < 1e-12)
        return np.where(alike, np.minimum(1.0, 2 * 0.5 ** self.gap.n.astype(float)), np.nan)

    def limits(self, z: Any) -> tuple[np.ndarray, np.ndarray]:
        if self.gap is not None:
            low, high = self.gap.limits(z)
            # Every game the same on both sides (a variant against itself): exactly 0,
            # as for the shares.
            alike = (self.gap.distinct == 1) & (self.gap.first == 0) & (self.gap.n >= 2)
            return np.where(alike, 0.0, low), np.where(alike, 0.0, high)
        mover = self._mover(z)
        if self.gap_balance is not None:
            near = self.gap_balance.limits(z)
            return (np.where(self.folded, near[0], mover[0]),
                    np.where(self.folded, near[1], mover[1]))
        return mover

    def _mover(self, z: Any) -> tuple[np.ndarray, np.ndarray]:
        la, ua = self.ea.limits(z)
        lb, ub = self.eb.limits(z)
        va, vb = self.ea.value, self.eb.value
        with np.errstate(invalid="ignore"):
            down_b, up_a = vb - lb, ua - va
            up_b, down_a = ub - vb, va - la
            low = self.value - np.sqrt(np.maximum(
                down_b ** 2 + up_a ** 2 - 2 * self.rho * down_b * up_a, 0.0))
            high = self.value + np.sqrt(np.maximum(
                up_b ** 2 + down_a ** 2 - 2 * self.rho * up_b * down_a, 0.0))
        return np.where(self.same, 0.0, low), np.where(self.same, 0.0, high)


class _BalanceGap(_Estimate):
    """The paired difference of two-seat balance, ``|δa| − |δb|`` with ``δ = 2p − 1``
    (A's share of the decisive games), by test inversion: for each candidate difference
    the two sides' δ are set to the pair nearest the games' (Mahalanobis distance, with
    the pairing's correlation) that has it, and the difference's distribution there is
    drawn (1,000 fixed normal draws, folded as balance folds). A difference is inside the
    interval where the games' value is not in either 2.5% tail. Near a fair game the
    folding makes the estimate's spread narrower and its bias one-sided; combining the two
    sides' own intervals (MOVER) covers 90% between a fair and an unfair rule. The
    inversion stays valid there (96%); near two fair rules it is conservative (99%): no
    interval of the folded difference is both valid everywhere and 95% there."""

    DRAWS = 1000
    GRID = 33
    _normals: list[np.ndarray] = []

    @classmethod
    def _draws(cls) -> np.ndarray:
        if not cls._normals:
            cls._normals.append(np.random.default_rng(0xBA1).standard_normal((2, cls.DRAWS)))
        return cls._normals[0]

    def __init__(self, ea: _Balance, eb: _Balance, rho: np.ndarray, same: np.ndarray,
                 which: np.ndarray) -> None:
        ka, ma = ea.wins[..., 0], ea.wins.sum(-1)
        kb, mb = eb.wins[..., 0], eb.wins.sum(-1)
        self.value = eb.value - ea.value
        self.same = same
        shape = self.value.shape
        self.grid = np.full(shape + (self.GRID + 1,), np.nan)
        self.tail = np.full(shape + (self.GRID + 1,), np.nan)
        ok = (ma > 0) & (mb > 0) & which
        flat = np.nonzero(ok.ravel())[0]
        for start in range(0, len(flat), 64):
            part = flat[start:start + 64]
            idx = np.unravel_index(part, shape)
            self.grid[idx], self.tail[idx] = self._curve(ka[idx], ma[idx], kb[idx],
                                                         mb[idx], rho[idx])

    def _candidates(self, ka: np.ndarray, ma: np.ndarray, kb: np.ndarray, mb: np.ndarray,
                    rho: np.ndarray) -> dict[str, Any]:
        """The games' δ on each side (``da``, ``db``), the difference seen, the grid of
        candidate differences, the pairing's correlation ``r`` and the quadratic form of
        the distance between pairs of δ (``form``)."""
        da, db = 2 * ka / ma - 1, 2 * kb / mb - 1
        seen = np.abs(da) - np.abs(db)
        # Spreads on the δ scale (never 0: a side all won by one seat still varies).
        sa = np.sqrt(np.maximum(1 - da * da, 1 / ma) / ma)
        sb = np.sqrt(np.maximum(1 - db * db, 1 / mb) / mb)
        r = np.clip(rho, -0.95, 0.95)
        spread = np.sqrt(sa * sa + sb * sb)
        steps = np.linspace(-6, 6, self.GRID)
        grid = np.clip(seen[:, None] + spread[:, None] * steps, -1, 1)
        grid = np.sort(np.concatenate([grid, np.zeros((len(seen), 1))], 1), 1)
        inv = 1 / (1 - r * r)
        form = tuple(f[:, None] for f in (inv / (sa * sa), inv / (sb * sb),
                                          -inv * r / (sa * sb)))
        return {"da": da[:, None], "db": db[:, None], "seen": seen, "grid": grid, "r": r,
                "form": form, "ma": ma, "mb": mb}

    def _drawn_at(self, c: dict[str, Any], best_a: np.ndarray, best_b: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray]:
        """The fixed draws of both sides' δ around the pairs (``best_a``, ``best_b``), one
        pair per candidate: (rows × candidates × draws) each."""
        ma, mb, r = c["ma"][:, None], c["mb"][:, None], c["r"]
        z1, z2 = self._draws()
        ta = np.sqrt(np.maximum(1 - best_a ** 2, 1 / ma ** 2) / ma)
        tb = np.sqrt(np.maximum(1 - best_b ** 2, 1 / mb ** 2) / mb)
        e2 = r[:, None, None] * z1 + np.sqrt(1 - r * r)[:, None, None] * z2
        return (np.clip(best_a[..., None] + ta[..., None] * z1, -1, 1),
                np.clip(best_b[..., None] + tb[..., None] * e2, -1, 1))

    def _curve(self, ka: np.ndarray, ma: np.ndarray, kb: np.ndarray, mb: np.ndarray,
               rho: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        c = self._candidates(ka, ma, kb, mb, rho)
        # The nearest (δa, δb) with |δa| − |δb| = candidate, and draws there.
        _, best_a, best_b = _nearest_on(c["da"], c["db"], c["grid"], c["form"])
        star_a, star_b = self._drawn_at(c, best_a, best_b)
        star = np.abs(star_a) - np.abs(star_b)
        obs = c["seen"][:, None, None]
        tail = ((star < obs).mean(-1) + 0.5 * (star == obs).mean(-1))
        return c["grid"], np.minimum.accumulate(tail, axis=1)   # falls as the candidate grows

    def limits(self, z: Any) -> tuple[np.ndarray, np.ndarray]:
        sp = _special()
        z_ = np.broadcast_to(np.asarray(z, float), self.value.shape)
        alpha = 2 * sp.ndtr(-z_)
        low = _falling_crossing(self.grid, self.tail, 1 - alpha / 2)
        high = _falling_crossing(self.grid, self.tail, alpha / 2)
        low = np.where(self.same, 0.0, np.minimum(low, self.value))
        high = np.where(self.same, 0.0, np.maximum(high, self.value))
        return low, high



def _nearest_on(da: np.ndarray, db: np.ndarray, grid: np.ndarray,
                form: tuple[np.ndarray, np.ndarray, np.ndarray]
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The point ``(δa, δb)`` with ``|δa| − |δb| = grid`` nearest ``(da, db)`` under the
    quadratic ``form`` (qa, qb, qab), over the four sign quadrants: (its squared
    distance, δa, δb). On each quadrant ``δa = ±(w + grid)``, ``δb = ±w`` with
    ``0 ≤ w`` and ``|δ| ≤ 1``: a segment, whose nearest point is a clipped projection."""
    qa, qb, qab = form
    best_q = np.full(np.broadcast_shapes(da.shape, db.shape, grid.shape), np.inf)
    best_a, best_b = np.zeros(best_q.shape), np.zeros(best_q.shape)
    for sign_a in (1.0, -1.0):
        for sign_b in (1.0, -1.0):
            ca = sign_a * grid - da               # δ − d = w·(sign_a, sign_b) + c
            cb = -db + 0 * grid
            vv = qa + qb + 2 * qab * sign_a * sign_b
            vc = qa * sign_a * ca + qb * sign_b * cb + qab * (sign_a * cb + sign_b * ca)
            w = np.clip(-vc / vv, np.maximum(0, -grid), np.minimum(1, 1 - grid))
            ea, eb = sign_a * w + ca, sign_b * w + cb
            q = qa * ea * ea + qb * eb * eb + 2 * qab * ea * eb
            better = q < best_q
            best_q = np.where(better, q, best_q)
            best_a = np.where(better, sign_a * (w + grid), best_a)
            best_b = np.where(better, sign_b * w, best_b)
    return best_q, best_a, best_b


def _falling_crossing(grid: np.ndarray, curve: np.ndarray, level: np.ndarray
                      ) -> np.ndarray:
    """Where a falling curve on ``grid`` (rows) crosses ``level``, interpolated; the
    grid's ends where it never does."""
    above = curve > level[..., None]
    last = np.clip(above.sum(-1) - 1, 0, grid.shape[-1] - 1)   # last point above
    nxt = np.minimum(last + 1, grid.shape[-1] - 1)
    take = lambda a, i: np.take_along_axis(a, i[..., None], -1)[..., 0]  # noqa: E731
    g0, g1, c0, c1 = take(grid, last), take(grid, nxt), take(curve, last), take(curve, nxt)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(c0 > c1, (c0 - level) / (c0 - c1), 0.0)
    out = g0 + np.clip(t, 0, 1) * (g1 - g0)
    out = np.where(above.all(-1), grid[..., -1], out)
    return np.where((~above).all(-1), grid[..., 0], out)


def _p_value(estimate: _Estimate, value: np.ndarray) -> np.ndarray:
    """The two-sided p-value of "no difference": the α at which the interval of
    confidence 1 − α first reaches 0 (limits widen as α falls), found by bisection."""
    sp = _special()
    lo = np.zeros(value.shape)
    hi = np.full(value.shape, 8.3)                       # α ≈ 1e-16
    def holds(low: np.ndarray, high: np.ndarray) -> np.ndarray:
        return ~((low > 0) | (high < 0))          # an unbounded (NaN) limit holds 0 too
    never = ~holds(*estimate.limits(hi))
    for _ in range(40):
        mid = (lo + hi) / 2
        inside = holds(*estimate.limits(mid))
        lo, hi = np.where(inside, lo, mid), np.where(inside, mid, hi)
    p = 2 * sp.ndtr(-(lo + hi) / 2)
    p = np.where(never, 2 * sp.ndtr(-8.3), p)
    exact = getattr(estimate, "exact_p", None)
    if exact is not None:
        p = np.where(np.isfinite(exact), exact, p)
    return np.where(value == 0, 1.0, np.where(np.isfinite(value), p, np.nan))


def paired_estimate(a: Studies, b: Studies, metric: str) -> _Paired:
    """The paired difference of ``metric`` over studies of the same games (row by row,
    game by game): ``value``, ``limits(z)`` (see :func:`paired_difference`)."""
    if a.sole.shape != b.sole.shape:
        raise ValueError("a paired difference needs the same number of games and studies "
                         f"on both sides: {a.sole.shape} against {b.sole.shape}")
    return _Paired(_metric(metric, max(a.players, b.players)), a, b)


def paired_value(a: GameColumns, b: GameColumns, metric: str) -> float | None:
    """``paired_difference(a, b, metric)["value"]`` alone, without the interval and the
    p-value that cost the rest of its time (``None`` where a side has no value)."""
    estimate = _checked_estimate(a, b, metric)
    return None if estimate is None else _difference_of(estimate)[2]


def _difference_of(estimate: _Paired) -> tuple[float | None, float | None, float | None]:
    """The two sides' values and ``b − a`` (None where a side has no value)."""
    va, vb = _number(estimate.ea.value[0]), _number(estimate.eb.value[0])
    return va, vb, None if va is None or vb is None else vb - va


def _checked_estimate(a: GameColumns, b: GameColumns, metric: str) -> _Paired | None:
    """The paired estimate of ``metric`` over the same games (None with no games); games
    on other seeds and an unknown metric are refused."""
    if a.seeds != b.seeds:
        raise ValueError("a paired difference needs the same games on both sides: the "
                         "two tournaments were not played on the same seeds (use the "
                         "same seed and number of games)")
    _metric(metric, max(a.players, b.players))        # an unknown name is refused here
    return paired_estimate(a.studies(), b.studies(), metric) if a.n else None


def paired_difference(a: GameColumns, b: GameColumns, metric: str) -> dict[str, Any]:
    """value(b) − value(a) over games played on the same seeds, with a 95% interval and
    the p-value of "no difference".

    A mean (turns, plies, lead changes, branching, score gap) differs game by game: the
    interval is :func:`mean_limits` of the games' gaps. A share, a ratio over decisive
    or finished games, decisiveness and balance combine the two sides' own intervals by
    Newcombe's MOVER, with the correlation the shared seeds give the two sides. Where
    every game differs by the same nonzero amount there is no interval (``"alike"``: the
    number of games) and the p-value is the sign test's."""
    estimate = _checked_estimate(a, b, metric)
    if estimate is None:
        return {"metric": metric, "a": None, "b": None, "value": None, "low": None,
                "high": None, "p_value": None, "excludes_zero": False}
    va, vb, value = _difference_of(estimate)
    if value is None:
        low = high = p = None
    else:
        lows, highs = estimate.limits(Z95)
        low, high = _number(lows[0]), _number(highs[0])
        p = _number(_p_value(estimate, estimate.value)[0])
    excludes = low is not None and high is not None and (low > 0 or high < 0)
    out = {"metric": metric, "a": va, "b": vb, "value": value, "low": low, "high": high,
           "p_value": p, "excludes_zero": bool(excludes)}
    exact = estimate.exact_p if isinstance(estimate, _Paired) else None
    if value is not None and exact is not None and np.isfinite(exact[0]):
        # every game differs by the same amount: no interval; 0 is excluded where the
        # sign test says so at the intervals' level (from six games)
        out.update(alike=int(estimate.gap.n[0]), excludes_zero=bool(exact[0] < 1 - LEVEL))
    return out


def holm(p_values: Any, rate: float = FAMILY_ERROR) -> np.ndarray:
    """Holm's step-down method: which of many hypotheses to reject so that the chance of
    rejecting any true one stays at most ``rate``, however the tests depend on each
    other. ``p_values``: the last axis is the family (NaN: not tested).

    >>> holm([0.001, 0.02, 0.04, 0.3]).tolist()
    [True, False, False, False]
    >>> holm([0.001, 0.012, 0.04]).tolist()
    [True, True, True]
    """
    p = np.asarray(p_values, float)
    tested = np.isfinite(p)
    m = tested.sum(-1, keepdims=True)
    order = np.argsort(np.where(tested, p, np.inf), -1)
    ranked = np.take_along_axis(np.where(tested, p, np.inf), order, -1)
    steps = np.arange(p.shape[-1])
    passes = ranked <= rate / np.maximum(m - steps, 1)
    passes &= steps < m
    kept = np.cumprod(passes, -1).astype(bool)            # stop at the first failure
    out = np.zeros(p.shape, bool)
    np.put_along_axis(out, order, kept, -1)
    return out


def game_row(winner: str | None, *, decisions: int = 10, plies: int | None = None,
             capped: bool = False, scores: Sequence[float] = (0.0, 0.0),
             branching: float = 2.0, lead_changes: int = 0,
             decided_at: float | None = None, seed: int = 0,
             winners: Sequence[str] | None = None) -> dict[str, Any]:
    """A tournament row made by hand (for examples and tests); ``winners`` for a shared
    win."""
    won = list(winners) if winners is not None else [] if winner is None else [winner]
    return {"index": 0, "seed": seed, "bots": ["greedy"] * len(scores),
            "winners": won, "scores": list(scores),
            "plies": decisions if plies is None else plies, "decisions": decisions,
            "capped": capped, "branching": branching, "lead_changes": lead_changes,
            "decided_at": decided_at}


# --- showing them ---------------------------------------------------------------------
def number(value: float | None, signed: bool = False) -> str:
    """A metric's value in a table: about three significant figures, '–' for none.

    >>> number(0.0123), number(63.61), number(1998.5), number(-0.2, signed=True)
    ('0.0123', '63.6', '1,998', '−0.2')
    """
    if value is None:
        return "–"
    sign = "+" if signed else ""
    size = abs(value)
    if size >= 100:
        text = f"{value:{sign},.0f}"
    elif size >= 10:
        text = f"{value:{sign}.1f}"
    else:
        text = f"{value:{sign}.3g}"
    return text.replace("-", "−")


def with_interval(entry: dict[str, Any], signed: bool = False) -> str:
    """``0.56 [0.49, 0.63]``; ``0 (all 20 alike)`` where every game gave the same value
    (no interval: a rarer value may not have shown).

    >>> with_interval({"value": 0.56, "low": 0.49, "high": 0.63})
    '0.56 [0.49, 0.63]'
    >>> with_interval({"value": 0.0, "low": None, "high": None, "alike": 20})
    '0 (all 20 alike)'
    """
    if entry.get("low") is None:
        if entry.get("alike"):
            return f"{number(entry.get('value'), signed)} (all {entry['alike']} alike)"
        return number(entry.get("value"), signed)
    return (f"{number(entry['value'], signed)} [{number(entry['low'], signed)}, "
            f"{number(entry['high'], signed)}]")


def format_metrics(m: dict[str, Any]) -> str:
    """The metrics as a small text table (the command line prints this)."""
    lines = [f"{'seat':<6}{'wins':>7}{'rate':>8}   95% interval"]
    for seat, r in m["win_rate"].items():
        lines.append(f"{seat:<6}{r['wins']:>7}{r['rate']:>8.3f}   "
                     f"[{r['low']:.3f}, {r['high']:.3f}]")
    if len(m["by_bot"]) > 1:
        lines.append(f"{'bot':<10}{'wins':>5}{'games':>7}{'rate':>8}   95% interval")
        for bot, r in m["by_bot"].items():
            lines.append(f"{bot:<10}{r['wins']:>5}{r['games']:>7}{r['rate']:>8.3f}   "
                         f"[{r['low']:.3f}, {r['high']:.3f}]")
    adv = m["advantage_p1"]
    lines.append("first-player advantage (A's share of the decisive games - 1/players): "
                 + with_interval(adv, True))
    lines.append(f"{'metric':<18}{'Ludii':<29}value [95% interval]")
    for metric in METRICS:
        if metric.key == "duration_plies":
            entry = m["duration"]["plies"]
        else:
            entry = m[metric.key]
        lines.append(f"{metric.key:<18}{metric.ludii:<29}"
                     f"{with_interval(entry, metric.key == 'advantage_p1')}")
    lines.append(f"games {m['games']}, draws {m['draws']}, hit the move cap {m['capped']}; "
                 f"lead changes per game {m['lead_changes']:.2f}")
    return "\n".join(lines).replace("−", "-")


_CELL = "padding:2px 8px;white-space:nowrap;text-align:right"
_HEAD = "padding:2px 8px;white-space:nowrap;text-align:left"


def html_table(header: Sequence[str], rows: Sequence[Sequence[str]], *,
               caption: str = "", notes: Sequence[str] = ()) -> str:
    """A compact HTML table whose cells never wrap (inline styles, so Voila, an
    exported page and a printout all keep them). Texts are escaped here."""
    parts = ['<table class="janus-table" style="border-collapse:collapse;'
             'font-variant-numeric:tabular-nums;font-size:13px">']
    if caption:
        parts.append(f'<caption style="text-align:left;font-weight:bold;'
                     f'white-space:nowrap">{escape(caption)}</caption>')
    parts.append("<tr>" + "".join(f'<th style="{_HEAD};border-bottom:1px solid #888">'
                                  f"{escape(h)}</th>" for h in header) + "</tr>")
    for row in rows:
        cells = [f'<td style="{_HEAD}">{escape(row[0])}</td>']
        cells += [f'<td style="{_CELL}">{escape(c)}</td>' for c in row[1:]]
        parts.append("<tr>" + "".join(cells) + "</tr>")
    parts.append("</table>")
    parts += [f'<div style="font-size:12px">{escape(note)}</div>' for note in notes]
    return "".join(parts)


def turn_bins(values: Sequence[float], most: int = 40) -> np.ndarray:
    """Histogram bin edges on whole turns: each bin holds the same whole numbers (one,
    or a few when the range is wide), edges halfway between them.

    >>> turn_bins([3, 4, 7]).tolist()
    [2.5, 3.5, 4.5, 5.5, 6.5, 7.5]
    """
    low, high = int(min(values)), int(max(values))
    width = max(1, math.ceil((high - low + 1) / most))
    count = math.ceil((high - low + 1) / width)
    return low - 0.5 + width * np.arange(count + 1)


def require_matplotlib() -> Any:
    """matplotlib.pyplot, or a clear error saying how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - a dependency of the package
        raise ImportError("plots need matplotlib (janus_widgets installs it with itself; "
                          "this environment lacks it): pip install matplotlib") from None
    return plt

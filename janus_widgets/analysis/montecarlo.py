"""Vectorised Monte Carlo of Jactus throws and rounds, to set beside the exact odds.

One random whole number ``r`` in ``0 … 7775`` is one throw of five dice: die ``i``
shows ``(r // 6**i) % 6 + 1``. A throw of ``m < 5`` dice uses the first ``m`` of
those digits, which are exactly uniform on ``6**m`` values because ``6**m``
divides 7776. So a throw costs one random 16-bit number and one table look-up:
:func:`throw_hits` runs at about a hundred million throws per second on one core,
and :func:`simulate_rounds` (players passing the dice, each with a policy) at
tens of millions. Every random number comes from a seeded
:class:`numpy.random.Generator` (``rng=`` a Generator or a seed; ``seed=`` for
short), so the same seed gives the same figures.

The tables here are built from the digits of ``r`` by sorting, independently of
:mod:`~janus_widgets.analysis.jactus_odds`'s multinomial counting, so that the
simulation is an honest check of the exact values.

>>> est = estimate_throw_chance(200_000, seed=1)        # any five of a kind, one throw
>>> est.contains(1 / 1296)
True
>>> rounds = simulate_rounds(20_000, seed=2)            # keep the largest group
>>> rounds.expected().contains(11.0902)
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..core.rng import as_generator
from . import jactus_odds as odds
from .jactus_odds import KEPT, KEPT_INDEX, POSITIONS, PolicyLike, Target

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["Estimate", "Rounds", "Convergence", "throw_hits", "estimate_throw_chance",
           "simulate_rounds", "convergence", "convergence_plot", "distribution_plot",
           "sample_dice", "proportion_estimate", "mean_estimate", "sample_mean",
           "share_plot"]

THROWS = 6 ** 5          # 7776 equally likely throws of five dice
_CHUNK = 1 << 22         # throws drawn at once (8 MB of uint16)


# --- estimates with confidence intervals -----------------------------------------------

class Estimate(NamedTuple):
    """A simulated value with its confidence interval (``level``, e.g. 0.95)."""

    value: float
    low: float
    high: float
    n: int
    level: float

    def contains(self, x: float | Fraction) -> bool:
        """Whether ``x`` (e.g. the exact value) lies inside the interval."""
        return self.low <= float(x) <= self.high

    def __str__(self) -> str:
        return (f"{self.value:.6g} ({self.level:.0%} CI {self.low:.6g} – {self.high:.6g}, "
                f"n = {self.n:,})")


def _z(level: float) -> float:
    if not 0 < level < 1:
        raise ValueError(f"level={level!r}: give a confidence level between 0 and 1, "
                         "e.g. 0.95")
    return NormalDist().inv_cdf((1 + level) / 2)


def proportion_estimate(hits: int, n: int, level: float = 0.95) -> Estimate:
    """A proportion with its Wilson score interval (sound even for 0 hits).

    >>> e = proportion_estimate(0, 1000)
    >>> e.value, e.low, round(e.high, 4)
    (0.0, 0.0, 0.0038)
    """
    if n <= 0:
        raise ValueError("no samples: n must be at least 1")
    z = _z(level)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    high = 1.0 if hits == n else min(1.0, centre + half)
    return Estimate(p, low, high, n, level)


def mean_estimate(total: float, total_sq: float, n: int, level: float = 0.95) -> Estimate:
    """A mean from the sum and the sum of squares, with a normal-theory interval."""
    if n <= 1:
        raise ValueError("a mean's interval needs at least two samples")
    mean = total / n
    var = max(0.0, (total_sq - n * mean * mean) / (n - 1))
    half = _z(level) * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n, level)


def sample_mean(values: Iterable[float], level: float = 0.95) -> Estimate:
    """The mean of simulated values (one per game, board, ring …) with its interval.

    >>> e = sample_mean([1, 2, 3, 2])
    >>> e.value, round(e.low, 3), round(e.high, 3)
    (2.0, 1.2, 2.8)
    """
    xs = np.asarray(list(values), dtype=float)
    return mean_estimate(float(xs.sum()), float((xs * xs).sum()), len(xs), level)


# --- the tables ----------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _digits() -> np.ndarray:
    """``(7776, 5)``: the five dice of throw ``r``, die ``i`` = digit ``i`` of ``r`` + 1."""
    r = np.arange(THROWS)
    return ((r[:, None] // 6 ** np.arange(5)) % 6 + 1).astype(np.int8)


@lru_cache(maxsize=None)
def _next_position() -> np.ndarray:
    """``(210, 7776)`` uint8: the position index after throwing with ``KEPT[k]`` kept."""
    code_to_pos = np.zeros(THROWS, dtype=np.uint8)
    weights = 6 ** np.arange(5)
    for i, p in enumerate(POSITIONS):
        code_to_pos[int(((np.array(p) - 1) * weights).sum())] = i
    digits = _digits()
    out = np.empty((len(KEPT), THROWS), dtype=np.uint8)
    for k, kept in enumerate(KEPT):
        dice = np.empty((THROWS, 5), dtype=np.int8)
        dice[:, :len(kept)] = kept
        dice[:, len(kept):] = digits[:, :5 - len(kept)]
        dice.sort(axis=1)
        out[k] = code_to_pos[((dice.astype(np.int64) - 1) * weights).sum(axis=1)]
    out.setflags(write=False)
    return out


def _face_of_position() -> np.ndarray:
    return np.array([p[0] if p[0] == p[-1] else 0 for p in POSITIONS], dtype=np.int8)


@lru_cache(maxsize=64)
def _hit_row(kept: tuple[int, ...], name: str) -> np.ndarray:
    t = odds.TARGETS[name]
    score = np.array([t.scores(p) for p in POSITIONS])
    return score[_next_position()[KEPT_INDEX[kept]]]


@lru_cache(maxsize=64)
def _step_table(deciding: tuple[int, ...], name: str) -> np.ndarray:
    """Flat int32 table over ``k * 7776 + r``: after a throw with ``KEPT[k]`` kept,
    ``7776 * k'`` where the next player's policy keeps ``KEPT[k']``, or ``-face`` when
    the throw scores ``name``."""
    t = odds.TARGETS[name]
    face = _face_of_position().astype(np.int32)
    scored = np.array([t.scores(p) for p in POSITIONS])
    nxt = np.where(scored, -face, np.array(deciding, dtype=np.int32) * THROWS)
    table = nxt[_next_position()].astype(np.int32).ravel()
    table.setflags(write=False)
    return table


def _generator(rng: Any, seed: Any) -> np.random.Generator:
    if rng is not None and seed is not None:
        raise ValueError("give rng or seed, not both")
    return as_generator(rng if rng is not None else seed)


def _check_n(n: Any, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"{what}={n!r}: give a whole number, 1 or more")
    return int(n)


# --- throws --------------------------------------------------------------------------------

def throw_hits(n: int, kept: Iterable[int] = (), target: str | Target = "five-of-a-kind",
               *, rng: np.random.Generator | int | None = None, seed: int | None = None
               ) -> np.ndarray:
    """``n`` throws of the dice not in ``kept``: a bool per throw, True if it scores.

    >>> throw_hits(5, (6, 6, 6, 6), "five-sixes", seed=3).tolist()
    [False, False, False, True, False]
    """
    n = _check_n(n, "n")
    row = _hit_row(odds._check_kept(kept), odds.as_target(target).name)
    gen = _generator(rng, seed)
    out = np.empty(n, dtype=bool)
    for start in range(0, n, _CHUNK):
        size = min(_CHUNK, n - start)
        out[start:start + size] = row[gen.integers(0, THROWS, size, dtype=np.uint16)]
    return out


def estimate_throw_chance(n: int, kept: Iterable[int] = (),
                          target: str | Target = "five-of-a-kind", *, level: float = 0.95,
                          rng: np.random.Generator | int | None = None,
                          seed: int | None = None) -> Estimate:
    """Estimate the chance that one throw (with ``kept`` on the table) scores, from
    ``n`` simulated throws; memory stays small for any ``n``."""
    n = _check_n(n, "n")
    row = _hit_row(odds._check_kept(kept), odds.as_target(target).name)
    gen = _generator(rng, seed)
    hits = 0
    for start in range(0, n, _CHUNK):
        size = min(_CHUNK, n - start)
        hits += int(np.count_nonzero(row[gen.integers(0, THROWS, size, dtype=np.uint16)]))
    return proportion_estimate(hits, n, level)


# --- rounds -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rounds:
    """Simulated rounds, in the order they were played.

    ``throws[i]`` is the number of throws round ``i`` took (0 if it had not scored
    after ``max_throws``), ``faces[i]`` the face thrown five times (0 if unfinished).
    Seat ``A`` opens every round; seat ``(throws - 1) % seats`` scored it.
    """

    throws: np.ndarray
    faces: np.ndarray
    seats: int
    target: Target
    policies: tuple[str, ...]
    max_throws: int

    def __len__(self) -> int:
        return len(self.throws)

    @property
    def total_throws(self) -> int:
        """Throws simulated in all (unfinished rounds count their ``max_throws``)."""
        return int(self.throws.sum()) + self.unfinished * self.max_throws

    @property
    def unfinished(self) -> int:
        """Rounds that had not scored after ``max_throws`` throws."""
        return int(np.count_nonzero(self.throws == 0))

    @property
    def scorers(self) -> np.ndarray:
        """The seat that scored each round (-1 if unfinished)."""
        return np.where(self.throws > 0, (self.throws - 1) % self.seats, -1)

    def within(self, n: int, level: float = 0.95) -> Estimate:
        """The share of rounds that scored within ``n`` throws."""
        hits = int(np.count_nonzero((self.throws > 0) & (self.throws <= n)))
        return proportion_estimate(hits, len(self), level)

    def expected(self, level: float = 0.95) -> Estimate:
        """The mean number of throws per round."""
        if self.unfinished:
            raise ValueError(f"{self.unfinished} of {len(self)} rounds had not scored after "
                             f"{self.max_throws} throws: with these policies the target may "
                             "never come, and the mean number of throws is not finite")
        t = self.throws.astype(np.float64)
        return mean_estimate(float(t.sum()), float((t * t).sum()), len(self), level)

    def seat_shares(self, level: float = 0.95) -> tuple[Estimate, ...]:
        """For each seat, the share of rounds it scored."""
        scorers = self.scorers
        return tuple(proportion_estimate(int(np.count_nonzero(scorers == s)), len(self), level)
                     for s in range(self.seats))

    def distribution(self, n: int) -> np.ndarray:
        """Frequencies of ``T = 1 … n`` throws (a simulated :func:`throws_distribution`)."""
        counts = np.bincount(self.throws, minlength=n + 1)[1:n + 1]
        return counts / len(self)


def simulate_rounds(rounds: int, target: str | Target = "five-of-a-kind",
                    policy: PolicyLike | Sequence[PolicyLike] = "keep-largest",
                    start: Iterable[int] | None = None, *, max_throws: int = 100_000,
                    rng: np.random.Generator | int | None = None, seed: int | None = None
                    ) -> Rounds:
    """Play ``rounds`` independent rounds: throws until ``target``, the dice passing
    from seat to seat, each seat following its policy (one policy, or one per seat;
    seat A opens). ``start``: five dice lying on the table before A's first throw
    (``None``: A throws all five, JA-5).

    All the rounds run side by side in numpy arrays; a round that scores leaves the
    arrays. ``max_throws`` stops rounds whose policies may never score.
    """
    rounds = _check_n(rounds, "rounds")
    max_throws = _check_n(max_throws, "max_throws")
    t = odds.as_target(target)
    pols = odds._policies(policy)
    seats = len(pols)
    deciding = [odds._policy_indices(p, t) for p in pols]
    # seat s throws; seat s+1 decides what stays for its own throw
    steps = [_step_table(deciding[(s + 1) % seats], t.name) for s in range(seats)]
    if start is None:
        first = KEPT_INDEX[()]
    else:
        first = deciding[0][odds.POSITION_INDEX[odds._check_position(start)]]
    gen = _generator(rng, seed)
    throws = np.zeros(rounds, dtype=np.int32)
    faces = np.zeros(rounds, dtype=np.int8)
    state = np.full(rounds, first * THROWS, dtype=np.int32)
    ids = np.arange(rounds, dtype=np.int32)
    j = 0
    while state.size and j < max_throws:
        state = steps[j % seats][state + gen.integers(0, THROWS, state.size, dtype=np.uint16)]
        j += 1
        done = state < 0
        if done.any():
            finished = ids[done]
            throws[finished] = j
            faces[finished] = -state[done]
            live = ~done
            state, ids = state[live], ids[live]
    return Rounds(throws, faces, seats, t, tuple(p.name for p in pols), max_throws)


# --- convergence ------------------------------------------------------------------------------

QUANTITIES = ("next", "within", "expected")


class Convergence(NamedTuple):
    """Running estimates as samples accumulate, and the exact value."""

    quantity: str
    sizes: np.ndarray
    estimates: np.ndarray
    lows: np.ndarray
    highs: np.ndarray
    exact: Fraction
    label: str
    unit: str
    level: float

    def coverage(self) -> float:
        """The share of checkpoints whose interval contains the exact value."""
        inside = (self.lows <= float(self.exact)) & (float(self.exact) <= self.highs)
        return float(np.mean(inside))


def _checkpoints(total: int, points: int, smallest: int) -> np.ndarray:
    smallest = min(smallest, total)
    sizes = np.unique(np.geomspace(smallest, total, points).round().astype(np.int64))
    return sizes


def convergence(quantity: str = "within", n: int = 3, *,
                target: str | Target = "five-of-a-kind",
                policy: PolicyLike | Sequence[PolicyLike] = "keep-largest",
                kept: Iterable[int] = (), samples: int = 200_000, points: int = 40,
                level: float = 0.95, rng: np.random.Generator | int | None = None,
                seed: int | None = None) -> Convergence:
    """Simulate, and estimate at ``points`` growing sample sizes, one exact quantity:

    * ``"next"``: the chance one throw (with ``kept`` on the table) scores;
      samples are throws;
    * ``"within"``: the chance a round scores within ``n`` throws; samples are rounds;
    * ``"expected"``: the expected number of throws in a round; samples are rounds.
    """
    if quantity not in QUANTITIES:
        raise ValueError(f"quantity={quantity!r} is not known: use one of "
                         + ", ".join(repr(q) for q in QUANTITIES))
    samples = _check_n(samples, "samples")
    if samples < 2:
        raise ValueError("samples: simulate at least 2")
    t = odds.as_target(target)
    z_level = level
    if quantity == "next":
        kept_t = odds._check_kept(kept)
        hits = throw_hits(samples, kept_t, t, rng=rng, seed=seed)
        sizes = _checkpoints(samples, points, 100)
        cum = np.cumsum(hits)[sizes - 1]
        ests = [proportion_estimate(int(c), int(s), z_level) for c, s in zip(cum, sizes)]
        exact = odds.throw_chance(kept_t, t)
        label = f"{t.label} with one throw, {' '.join(map(str, kept_t)) or 'nothing'} kept"
        unit = "throws simulated"
    else:
        if quantity == "expected":
            value = odds.expected_throws(t, policy)
            if value == math.inf:
                raise ValueError("with these policies the target may never come: the "
                                 "expected number of throws is infinite")
            limit = 100_000
        else:
            n = odds._check_count(n, "n")
            limit = max(n, 1)          # a round not scored after n throws is a miss
        rounds = simulate_rounds(samples, t, policy, max_throws=limit, rng=rng, seed=seed)
        sizes = _checkpoints(samples, points, 100)
        pols = " / ".join(rounds.policies)
        unit = "rounds simulated"
        if quantity == "within":
            ok = (rounds.throws > 0) & (rounds.throws <= n)
            cum = np.cumsum(ok)[sizes - 1]
            ests = [proportion_estimate(int(c), int(s), z_level) for c, s in zip(cum, sizes)]
            exact = odds.probability_within(n, t, policy)
            label = f"{t.label} within {n} throws ({pols})"
        else:
            if rounds.unfinished:
                raise ValueError(f"{rounds.unfinished} rounds had not scored after "
                                 f"{limit} throws")
            tt = rounds.throws.astype(np.float64)
            sizes = sizes[sizes >= 2]
            s1, s2 = np.cumsum(tt)[sizes - 1], np.cumsum(tt * tt)[sizes - 1]
            ests = [mean_estimate(a, b, int(s), z_level) for a, b, s in zip(s1, s2, sizes)]
            exact = value  # type: ignore[assignment]
            label = f"expected throws until {t.label} ({pols})"
    return Convergence(quantity, np.asarray(sizes), np.array([e.value for e in ests]),
                       np.array([e.low for e in ests]), np.array([e.high for e in ests]),
                       Fraction(exact), label, unit, level)


def convergence_plot(quantity: str = "within", n: int = 3, *, ax: Axes | None = None,
                     data: Convergence | None = None, **kwargs: Any) -> Figure:
    """Plot :func:`convergence`: the running estimate, its confidence band and the
    exact value, against the number of samples (log scale). Returns the Figure
    (drawn into ``ax`` if given). Takes the keyword arguments of :func:`convergence`,
    or ``data`` it returned.
    """
    if data is None:
        data = convergence(quantity, n, **kwargs)
    if ax is None:
        from matplotlib.figure import Figure
        fig = Figure(figsize=(7.5, 4.2), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure  # type: ignore[assignment]
    exact = float(data.exact)
    ax.fill_between(data.sizes, data.lows, data.highs, color="#9ecae1", alpha=0.6,
                    label=f"{data.level:.0%} confidence interval")
    ax.plot(data.sizes, data.estimates, "o-", color="#08519c", ms=3, lw=1.2,
            label="simulated estimate")
    ax.axhline(exact, color="#d62728", ls="--", lw=1.5,
               label=f"exact value {data.exact}" if data.exact.denominator < 10**7
               else f"exact value ≈ {exact:.6g}")
    ax.set_xscale("log")
    ax.set_xlabel(data.unit)
    ax.set_ylabel({"next": "chance", "within": "chance",
                   "expected": "throws"}[data.quantity])
    ax.set_title(data.label, fontsize=10)
    ax.legend(loc="best", fontsize=8)
    ax.grid(alpha=0.3)
    return fig  # type: ignore[return-value]


def share_plot(sizes: Sequence[int] | np.ndarray, hits: Sequence[int] | np.ndarray,
               models: dict[str, Fraction | float], *, title: str, unit: str,
               level: float = 0.95, log: bool = False, ax: Axes | None = None) -> Figure:
    """A running share and its confidence band against the values of some models:
    after ``sizes[i]`` trials (cumulative) there were ``hits[i]`` hits (cumulative).
    Works for a class's tallies (a point per group) and for a simulation alike.

    >>> fig = share_plot([10, 20, 40], [4, 7, 15], {"fair": Fraction(1, 2)},
    ...                  title="narrow sides", unit="throws")
    >>> [line.get_label() for line in fig.axes[0].get_lines()]
    ['share so far', 'fair: 1/2']
    """
    sizes, hits = np.asarray(sizes, dtype=np.int64), np.asarray(hits, dtype=np.int64)
    if sizes.shape != hits.shape or not len(sizes):
        raise ValueError("give as many hit counts as trial counts (at least one)")
    if np.any(np.diff(sizes) < 0) or np.any(hits < 0) or np.any(hits > sizes):
        raise ValueError("sizes must grow and hits lie between 0 and the trials so far "
                         "(both counted cumulatively)")
    ests = [proportion_estimate(int(h), int(n), level) for h, n in zip(hits, sizes)]
    if ax is None:
        from matplotlib.figure import Figure
        fig = Figure(figsize=(7.5, 4.0), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure  # type: ignore[assignment]
    ax.fill_between(sizes, [e.low for e in ests], [e.high for e in ests], color="#9ecae1",
                    alpha=0.6, label=f"{level:.0%} confidence interval")
    ax.plot(sizes, [e.value for e in ests], "o-", color="#08519c", ms=3, lw=1.2,
            label="share so far")
    for (name, value), style in zip(models.items(), ("--", ":", "-.")):
        shown = str(value) if isinstance(value, Fraction) else f"{value:.3g}"
        ax.axhline(float(value), color="#d62728", ls=style, lw=1.5, label=f"{name}: {shown}")
    if log:
        ax.set_xscale("log")
    ax.set_xlabel(unit)
    ax.set_ylabel("share")
    ax.set_ylim(0, 1 if max(float(v) for v in models.values()) > 0.3 else None)
    ax.set_title(title, fontsize=10)
    ax.legend(loc="best", fontsize=8)
    ax.grid(alpha=0.3)
    return fig  # type: ignore[return-value]


def distribution_plot(rounds: Rounds, n: int = 40, *, ax: Axes | None = None) -> Figure:
    """Bars: the simulated share of rounds that took ``1 … n`` throws; dots: the exact
    distribution (:func:`~janus_widgets.analysis.jactus_odds.throws_distribution`)."""
    n = _check_n(n, "n")
    exact = odds.throws_distribution(n, rounds.target, list(rounds.policies))
    if ax is None:
        from matplotlib.figure import Figure
        fig = Figure(figsize=(7.5, 3.8), layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure  # type: ignore[assignment]
    k = np.arange(1, n + 1)
    ax.bar(k, rounds.distribution(n), color="#9ecae1", label=f"{len(rounds):,} simulated rounds")
    ax.plot(k, [float(p) for p in exact], "o", color="#d62728", ms=4, label="exact P(T = k)")
    ax.set_xlabel("throws in the round, k")
    ax.set_ylabel("share of rounds")
    ax.set_title(f"{rounds.target.label}: " + " / ".join(rounds.policies), fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="y")
    return fig  # type: ignore[return-value]


# --- other dice ----------------------------------------------------------------------------

def sample_dice(model: Any, n: int, *, rng: np.random.Generator | int | None = None,
                seed: int | None = None) -> np.ndarray:
    """``n`` throws of a :class:`~janus_widgets.analysis.jactus_odds.DiceModel` (or a
    :class:`~janus_widgets.analysis.roman_dice.RomanGame`'s): an
    ``(n, dice)`` array of faces, each die drawn with the model's probabilities.

    >>> from janus_widgets.analysis.roman_dice import TALI
    >>> sample_dice(TALI, 3, seed=0).shape
    (3, 4)
    """
    model = getattr(model, "model", model)       # a RomanGame gives its DiceModel
    if not isinstance(model, odds.DiceModel):
        raise ValueError(f"model={model!r}: give a DiceModel or a RomanGame")
    n = _check_n(n, "n")
    gen = _generator(rng, seed)
    cum = np.cumsum([float(p) for p in model.probabilities])
    cum[-1] = 1.0
    u = gen.random((n, model.dice))
    return np.asarray(model.faces)[np.searchsorted(cum, u, side="right")]

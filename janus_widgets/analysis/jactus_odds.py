"""Exact Jactus odds: absorbing Markov chains solved in exact fractions.

Everything here is exact (:class:`fractions.Fraction`); nothing is estimated. The odds
of one throw (targets, :func:`claim_odds`, :func:`pickups`, :func:`claim_advice`) live in
the game's package, :mod:`janus_widgets.games.jactus.odds`, because the canvas draws them;
they are re-exported here, so a lesson finds every figure in one module.

The model (rules ``JA-5`` … ``JA-8`` and ``JA-14`` of ``seeds/jactus.md``): five
fair dice lie on the table; the player to move picks up at least one of them and
throws those; the throw *scores* when the five dice then show a **target**; a
throw that does not score passes the dice, as they lie, to the next player. A
round opens with a throw of all five dice.

Targets (:data:`TARGETS`)
    ``"five-of-a-kind"`` any face five times (the dog throw under the rulebook's
    reading, and what ends a round), ``"five-sixes"`` (the Venus throw),
    ``"five-ones"`` (the coin throw) and ``"five-2-to-5"`` (the dog throw under
    the variant ``dog_throws="other"``).

Keeping policies (:data:`POLICIES`), a rule that says which dice stay on the table
    ``"keep-largest"`` keeps the largest group of equal dice, ``"keep-target"``
    keeps the largest group of a target face, ``"reroll-all"`` picks up all five,
    ``"best-next"`` keeps what gives the best chance with this very throw, and
    ``"best-margin"`` what maximises the **margin**. A function ``dice -> kept
    dice`` is a policy too.

The Jactus twist: the dice pass on
    What I leave is the next player's start. For a pick-up (:class:`Pickup`),
    ``chance`` is the chance that my throw scores, ``leaves`` the chance that I
    miss *and* the next player then scores with their one throw, taking the
    pick-up best for that throw (:func:`next_player_chance`), and
    ``margin = chance - leaves``. Looking further, :func:`best_reply` (policy
    names ``"best-reply-2"`` … ``"best-reply-6"``) maximises my chance to score
    the whole round when the others play a known policy, and
    :func:`round_pickups` gives that chance for every pick-up.

The chain
    The state of a round just before a throw is the multiset of dice kept (at
    most four). A throw moves it to "scored" (absorbing) or, through the next
    player's policy, to a new kept multiset. :class:`ThrowChain` holds the
    transition matrices and answers every question by exact rational linear
    algebra: :meth:`~ThrowChain.distribution` of the number of throws,
    :meth:`~ThrowChain.within` ``n`` throws, :meth:`~ThrowChain.expected`
    throws and, with one policy per seat, who scores the round.

>>> probability_within(1)                      # any five of a kind, one throw
Fraction(1, 1296)
>>> round(float(probability_within(3, policy="keep-largest")), 5)
0.04603
>>> round(float(expected_throws()), 2)
11.09
>>> claim_odds((6, 6, 6))["venus"]             # two dice to throw, both must be 6
Fraction(1, 36)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any, NamedTuple, Union

import numpy as np

# The odds of one throw, where the game's drawing needs them; here for the lessons (and
# montecarlo, which reads _check_kept), as they always were.
from ..games.jactus.odds import (  # noqa: F401 - re-exported
    CLAIM_KINDS, DEN, DICE, FACES, KEPT, KEPT_INDEX, OBJECTIVES, POSITION_INDEX, POSITIONS,
    TARGETS, Advice, Dice, Pickup, Target, _check_kept, _check_position, _legal_kept,
    _multinomial, _pickups, _SCALE, _tables, _throw_weights, as_target, best_pickups,
    claim_advice, claim_odds, next_player_chance, pickups, target_for_claim, throw_chance)

__all__ = [
    "FACES", "POSITIONS", "KEPT", "TARGETS", "POLICIES", "CLAIM_KINDS", "Target", "Policy",
    "Pickup", "Advice", "ThrowChain", "DiceModel", "as_target", "as_policy", "target_for_claim",
    "throw_chance", "claim_odds", "next_throw_chance", "next_throw_table", "pickups",
    "best_pickups", "next_player_chance", "claim_advice", "policy_table", "chain",
    "probability_within", "expected_throws", "throws_distribution", "seat_chances",
    "solve_exact", "model_chain", "best_reply", "RoundPickup", "round_pickups",
]

# --- exact linear algebra ---------------------------------------------------------

def solve_exact(a: Sequence[Sequence[Fraction | int]],
                b: Sequence[Sequence[Fraction | int]]) -> list[list[Fraction]]:
    """Solve ``a @ x = b`` exactly; ``b`` has one column per right-hand side.

    Each row is scaled to whole numbers, then fraction-free Gaussian elimination
    (Bareiss) keeps every intermediate value a whole number, and back-substitution
    gives the fractions.

    >>> solve_exact([[2, 1], [1, 3]], [[3], [5]])
    [[Fraction(4, 5)], [Fraction(7, 5)]]
    >>> solve_exact([[0, 1], [1, 0]], [[Fraction(1, 2)], [Fraction(1, 3)]])
    [[Fraction(1, 3)], [Fraction(1, 2)]]
    """
    n = len(a)
    cols = len(b[0]) if n else 0
    rows = []
    for i in range(n):
        values = [Fraction(v) for v in a[i]] + [Fraction(v) for v in b[i]]
        scale = 1
        for v in values:
            scale = math.lcm(scale, v.denominator)
        rows.append([v.numerator * (scale // v.denominator) for v in values])
    prev = 1
    for k in range(n):
        pivot = next((r for r in range(k, n) if rows[r][k]), None)
        if pivot is None:
            raise ZeroDivisionError("the matrix is singular")
        rows[k], rows[pivot] = rows[pivot], rows[k]
        top = rows[k]
        pk = top[k]
        for i in range(k + 1, n):
            row = rows[i]
            f = row[k]
            if f:
                rows[i] = row[:k] + [(x * pk - f * y) // prev
                                     for x, y in zip(row[k:], top[k:])]
            else:
                rows[i] = row[:k] + [x * pk // prev for x in row[k:]]
        prev = pk
    x = [[Fraction(0)] * cols for _ in range(n)]
    for i in reversed(range(n)):
        row = rows[i]
        for c in range(cols):
            total = Fraction(row[n + c])
            for j in range(i + 1, n):
                if row[j] and x[j][c]:
                    total -= row[j] * x[j][c]
            x[i][c] = total / row[i]
    return x


# --- policies -------------------------------------------------------------------------

PolicyFunction = Callable[[Dice, Target], Dice]


@dataclass(frozen=True)
class Policy:
    """A keeping policy: which dice stay on the table, for a position and a target."""

    name: str
    title: str
    choose: PolicyFunction = field(repr=False)

    def kept(self, dice: Iterable[int], target_name: str | Target = "five-of-a-kind") -> Dice:
        """The dice this policy leaves on the table from ``dice`` (checked)."""
        return _checked_choice(self, _check_position(dice), as_target(target_name))

    def __str__(self) -> str:
        return self.name


def _group(dice: Dice, face: int) -> Dice:
    return (face,) * min(dice.count(face), DICE - 1)


def _keep_largest(dice: Dice, t: Target) -> Dice:
    counts = Counter(dice)
    face = max(counts, key=lambda f: (counts[f], f in t.faces, f))
    return _group(dice, face)


def _keep_target(dice: Dice, t: Target) -> Dice:
    counts = Counter(v for v in dice if v in t.faces)
    if not counts:
        return ()
    return _group(dice, max(counts, key=lambda f: (counts[f], f)))


def _reroll_all(dice: Dice, t: Target) -> Dice:
    return ()


def _best_next(dice: Dice, t: Target) -> Dice:
    return best_pickups(dice, t)[0].kept


def _best_margin(dice: Dice, t: Target) -> Dice:
    return best_pickups(dice, t, objective="margin")[0].kept


POLICIES: dict[str, Policy] = {p.name: p for p in (
    Policy("keep-largest", "keep the largest group of equal dice (ties: a target face, "
                           "then the higher face); throw the rest", _keep_largest),
    Policy("keep-target", "keep the largest group showing a target face (ties: the higher "
                          "face); with none, throw all five", _keep_target),
    Policy("reroll-all", "pick up all five dice every time", _reroll_all),
    Policy("best-next", "keep what gives the best chance to score with this throw (ties: "
                        "keep more dice, then higher faces)", _best_next),
    Policy("best-margin", "keep what maximises my chance minus the chance that I miss and "
                          "the next player then scores (ties: my chance, more dice, higher "
                          "faces)", _best_margin),
)}

PolicyLike = Union[str, Policy, Callable[[Dice], Sequence[int]]]


def as_policy(p: PolicyLike) -> Policy:
    """The :class:`Policy` for a name, a Policy, or a function ``dice -> kept dice``.

    A function gets the sorted five dice and returns the dice to leave on the table
    (at most four of them: JA-6).

    >>> as_policy("keep-largest").kept((2, 2, 5, 5, 5))
    (5, 5, 5)
    >>> as_policy(lambda dice: dice[:2]).kept((1, 2, 3, 4, 5))
    (1, 2)
    """
    if isinstance(p, Policy):
        return p
    if isinstance(p, str):
        if p in POLICIES:
            return POLICIES[p]
        if p.startswith("best-reply-") and p[11:] in ("2", "3", "4", "5", "6"):
            return best_reply(int(p[11:]))
        raise ValueError(f"policy={p!r} is not known: use one of "
                         + ", ".join(repr(n) for n in POLICIES)
                         + ", 'best-reply-2' … 'best-reply-6', or a function dice -> kept dice")
    if callable(p):
        return _custom_policy(p)
    raise ValueError(f"policy={p!r} is not a policy: use one of "
                     + ", ".join(repr(n) for n in POLICIES) + ", or a function dice -> kept dice")


@lru_cache(maxsize=64)
def _custom_policy(fn: Callable[[Dice], Sequence[int]]) -> Policy:
    name = getattr(fn, "__name__", "custom")
    return Policy(name if name != "<lambda>" else "custom", f"your policy {name}",
                  lambda dice, t: tuple(fn(dice)))


def _checked_choice(p: Policy, dice: Dice, t: Target) -> Dice:
    kept = p.choose(dice, t)
    try:
        kept = tuple(sorted(int(v) for v in kept))
    except (TypeError, ValueError):
        kept = None  # type: ignore[assignment]
    if kept is None or len(kept) >= DICE or Counter(kept) - Counter(dice):
        raise ValueError(f"policy {p.name!r} kept {kept!r} from the dice {dice}: it must "
                         "keep some of the dice lying there, at most four (JA-6: at least "
                         "one die is picked up)")
    return kept


@lru_cache(maxsize=256)
def _policy_indices(p: Policy, t: Target) -> tuple[int, ...]:
    return tuple(KEPT_INDEX[_checked_choice(p, d, t)] for d in POSITIONS)


def policy_table(policy: PolicyLike = "keep-largest", target: str | Target = "five-of-a-kind"
                 ) -> dict[Dice, Dice]:
    """The dice the policy keeps, for every one of the 252 positions.

    >>> policy_table("keep-target", "five-sixes")[(1, 2, 6, 6, 6)]
    (6, 6, 6)
    """
    t = as_target(target)
    return {d: KEPT[k] for d, k in zip(POSITIONS, _policy_indices(as_policy(policy), t))}


def next_throw_chance(dice: Iterable[int] | None = None,
                      target: str | Target = "five-of-a-kind",
                      policy: PolicyLike = "best-next") -> Fraction:
    """The chance the next throw scores, from ``dice`` lying on the table, for a player
    following the policy (``None``: the opening throw of all five dice, JA-5).

    >>> next_throw_chance(), next_throw_chance((2, 2, 2, 5, 6))
    (Fraction(1, 1296), Fraction(1, 36))
    >>> next_throw_chance((2, 2, 2, 5, 6), "five-sixes", "keep-largest")
    Fraction(0, 1)
    """
    t = as_target(target)
    if dice is None:
        return throw_chance((), t)
    kept = as_policy(policy).kept(dice, t)
    return throw_chance(kept, t)


def next_throw_table(target: str | Target = "five-of-a-kind",
                     policy: PolicyLike = "best-next") -> dict[Dice, Fraction]:
    """:func:`next_throw_chance` for all 252 positions of the dice."""
    t = as_target(target)
    hits = _tables(t.name).hits
    return {d: Fraction(int(hits[k]), DEN)
            for d, k in zip(POSITIONS, _policy_indices(as_policy(policy), t))}


# --- the chain ------------------------------------------------------------------------

def _sym_key(kept: Dice, t: Target) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Kept dice up to a renaming of faces that keeps the target (for lumping)."""
    counts = Counter(kept)
    inside = tuple(sorted((c for f, c in counts.items() if f in t.faces), reverse=True))
    outside = tuple(sorted((c for f, c in counts.items() if f not in t.faces), reverse=True))
    return inside, outside


_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


def _class_label(key: tuple[tuple[int, ...], tuple[int, ...]], t: Target) -> str:
    inside, outside = key
    if not inside and not outside:
        return "nothing kept"
    parts = []
    single = len(t.faces) == 1
    face = next(iter(t.faces)) if single else None
    for c in inside:
        if single:
            parts.append(f"{_COUNT_WORDS[c]} {face}{'s' if c > 1 else ''}")
        elif len(t.faces) == len(FACES):
            parts.append("one die" if c == 1 else f"{_COUNT_WORDS[c]} alike")
        else:
            parts.append(("one die" if c == 1 else f"{_COUNT_WORDS[c]} alike")
                         + f" ({min(t.faces)}–{max(t.faces)})")
    for c in outside:
        other = "another face" if single else "a non-target face"
        parts.append(("one die of " if c == 1 else f"{_COUNT_WORDS[c]} alike of ") + other)
    return " + ".join(parts) + " kept"


@dataclass(frozen=True, eq=False)
class ThrowChain:
    """An absorbing Markov chain over the dice kept before each throw of a round.

    ``states[i]`` is a multiset of kept dice (for a lumped chain, a representative of
    ``members[i]``). Seat ``p`` (``p = 0 … seats-1``, in turn) makes throws
    ``p+1, p+1+seats, …``. ``step[p][i][j]`` / ``den`` is the chance that seat ``p``'s
    throw from state ``i`` misses and the next seat's policy keeps state ``j``;
    ``score[p][i]`` / ``den`` that it scores. Integers over one denominator keep the
    arithmetic exact and fast.
    """

    target: Target
    policies: tuple[Policy, ...]
    start_dice: Dice | None
    states: tuple[Dice, ...]
    labels: tuple[str, ...]
    members: tuple[tuple[Dice, ...], ...]
    start: tuple[int, ...]
    step: tuple[tuple[tuple[int, ...], ...], ...]
    score: tuple[tuple[int, ...], ...]
    den: int
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def seats(self) -> int:
        """How many seats take turns (one policy each)."""
        return len(self.policies)

    # -- the matrices, for people ------------------------------------------------------
    def matrix(self, seat: int = 0) -> list[list[Fraction]]:
        """Seat ``seat``'s transition matrix: one row per state, columns ``states`` and
        then "scored"; every row sums to 1."""
        rows = []
        for i in range(len(self.states)):
            row = [Fraction(v, self.den) for v in self.step[seat][i]]
            row.append(Fraction(self.score[seat][i], self.den))
            rows.append(row)
        return rows

    def start_distribution(self) -> list[Fraction]:
        """The state before the first throw (all on one state)."""
        return [Fraction(v) for v in self.start]

    def to_markdown(self, seat: int = 0, decimals: bool = False) -> str:
        """The transition matrix as a Markdown table (fractions, or decimals)."""
        def cell(v: Fraction) -> str:
            if v == 0:
                return "·"
            if decimals:
                return f"{float(v):.4f}"
            return str(v)
        head = ["from \\ to", *self.labels, "scored"]
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for label, row in zip(self.labels, self.matrix(seat)):
            lines.append("| " + " | ".join([label, *map(cell, row)]) + " |")
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return (f"**{self.target.title}**, " + " / ".join(p.name for p in self.policies)
                + "\n\n" + self.to_markdown())

    # -- answers --------------------------------------------------------------------------
    def distribution(self, n: int) -> list[Fraction]:
        """``[P(T = 1), …, P(T = n)]``: the chance that throw ``k`` is the first to score."""
        n = _check_count(n, "n")
        out, u, den_pow = [], list(self.start), 1
        size = len(self.states)
        for j in range(n):
            p = j % self.seats
            den_pow *= self.den
            out.append(Fraction(sum(a * b for a, b in zip(u, self.score[p])), den_pow))
            q = self.step[p]
            u = [sum(u[i] * q[i][s] for i in range(size) if u[i]) for s in range(size)]
        return out

    def within(self, n: int) -> Fraction:
        """The chance that the target is thrown within ``n`` throws."""
        return sum(self.distribution(n), Fraction(0))

    def _int_products(self) -> list[np.ndarray]:
        """``P_i`` for ``i = 0 … seats`` as whole-number matrices over ``den**i``: the
        first ``i`` throws of a turn of the table, none scoring (``P_seats = M``)."""
        if "products" not in self._cache:
            size = len(self.states)
            prods = [np.identity(size, dtype=object) * 1]
            for p in range(self.seats):
                q = np.array(self.step[p], dtype=object).reshape(size, size)
                prods.append(prods[-1].dot(q))
            self._cache["products"] = prods
        return self._cache["products"]

    def _graph(self) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
        """(reachable, live) nodes ``(seat, state)`` of the throw-by-throw graph."""
        if "graph" not in self._cache:
            size, seats = len(self.states), self.seats
            succ = {(p, i): [((p + 1) % seats, j) for j in range(size) if self.step[p][i][j]]
                    for p in range(seats) for i in range(size)}
            pred: dict[tuple[int, int], list[tuple[int, int]]] = {n: [] for n in succ}
            for a, bs in succ.items():
                for b in bs:
                    pred[b].append(a)
            start = [(0, i) for i in range(size) if self.start[i]]
            reach, todo = set(start), list(start)
            while todo:
                for b in succ[todo.pop()]:
                    if b not in reach:
                        reach.add(b)
                        todo.append(b)
            live = {(p, i) for p in range(seats) for i in range(size) if self.score[p][i]}
            todo = list(live)
            while todo:
                for a in pred[todo.pop()]:
                    if a not in live:
                        live.add(a)
                        todo.append(a)
            self._cache["graph"] = (reach, live)
        return self._cache["graph"]

    def _solve_states(self, rhs: list[list[Fraction]]) -> list[list[Fraction]]:
        """``(I - M)^-1 · rhs`` for every state (zero where the target cannot come)."""
        m = self._int_products()[-1]
        scale = self.den ** self.seats
        _, live = self._graph()
        idx = [i for i in range(len(self.states)) if (0, i) in live]
        out = [[Fraction(0)] * len(rhs[0]) for _ in self.states]
        if idx:
            a = [[scale * (r == c) - m[r][c] for c in idx] for r in idx]
            b = [[v * scale for v in rhs[r]] for r in idx]
            for n, row in zip(idx, solve_exact(a, b)):
                out[n] = row
        return out

    def _absorption(self, rhs: list[list[Fraction]]) -> list[Fraction]:
        """``start · (I - M)^-1 · rhs`` on the states that can still score (columns)."""
        x = self._solve_states(rhs)
        return [sum((self.start[r] * x[r][col] for r in range(len(self.states))
                     if self.start[r]), Fraction(0)) for col in range(len(rhs[0]))]

    def _seat_rhs(self) -> list[list[Fraction]]:
        prods = self._int_products()
        return [[Fraction(int(prods[p][i].dot(np.array(self.score[p], dtype=object))),
                          self.den ** (p + 1)) for p in range(self.seats)]
                for i in range(len(self.states))]

    def _reduced(self) -> ThrowChain:
        """The lumped chain when it is smaller (and lumping is valid), else this one."""
        if "reduced" not in self._cache:
            reduced = self
            try:
                lumped = self.lumped()
                if len(lumped.states) < len(self.states):
                    reduced = lumped
            except ValueError:
                pass
            self._cache["reduced"] = reduced
        return self._cache["reduced"]

    def seat_chances_by_state(self) -> dict[Dice, tuple[Fraction, ...]]:
        """For every state (kept dice before seat A's throw), each seat's chance to
        score the round from there."""
        if "by_state" not in self._cache:
            small = self._reduced()
            if small is not self:
                by_class = small.seat_chances_by_state()
                out = {m: by_class[s] for s, members in zip(small.states, small.members)
                       for m in members}
            else:
                x = self._solve_states(self._seat_rhs())
                out = {s: tuple(row) for s, row in zip(self.states, x)}
            self._cache["by_state"] = {s: out[s] for s in self.states}
        return self._cache["by_state"]

    def seat_chances(self) -> tuple[Fraction, ...]:
        """For each seat, the chance that it throws the target first (scores the round)."""
        if "seats" not in self._cache:
            small = self._reduced()
            self._cache["seats"] = (small.seat_chances() if small is not self
                                    else tuple(self._absorption(self._seat_rhs())))
        return self._cache["seats"]

    def ever(self) -> Fraction:
        """The chance that the target is thrown at all (1 unless a policy gets stuck)."""
        return sum(self.seat_chances(), Fraction(0))

    def expected(self) -> Fraction | float:
        """The expected number of throws until the target (``math.inf`` when the
        policies may never throw it, e.g. keeping four 5s while hoping for five 6s)."""
        if "expected" not in self._cache:
            reach, live = self._graph()
            small = self._reduced()
            if reach - live:
                self._cache["expected"] = math.inf
            elif small is not self:
                self._cache["expected"] = small.expected()
            else:
                # E[T] = sum over throws j of P(T > j) = start (I - M)^-1 sum_i P_i 1
                prods = self._int_products()
                rhs = [[sum((Fraction(int(sum(prods[p][i])), self.den ** p)
                             for p in range(self.seats)), Fraction(0))]
                       for i in range(len(self.states))]
                self._cache["expected"] = self._absorption(rhs)[0]
        return self._cache["expected"]

    # -- lumping ------------------------------------------------------------------------
    def lumped(self, key: Callable[[Dice], Any] | None = None,
               label: Callable[[Any], str] | None = None) -> ThrowChain:
        """The same chain with states merged that differ only by renaming faces (e.g.
        'three alike kept' for 'any five of a kind'), or that share ``key(kept)``.
        Checked exactly: states merged must lead alike (a policy whose choices break
        the symmetry, or dice with unequal faces, raise ``ValueError``)."""
        if key is None:
            def key(kept: Dice) -> Any:
                return _sym_key(kept, self.target)
        if label is None:
            def label(k: Any) -> str:
                return _class_label(k, self.target)
        keys = [key(s) for s in self.states]
        classes: list[tuple[Any, list[int]]] = []
        for i, key in enumerate(keys):
            for ckey, members in classes:
                if ckey == key:
                    members.append(i)
                    break
            else:
                classes.append((key, [i]))
        of = {i: c for c, (_, members) in enumerate(classes) for i in members}
        steps, scores = [], []
        for p in range(self.seats):
            rows, sc = [], []
            for key, members in classes:
                sums = []
                for i in members:
                    v = [0] * len(classes)
                    for j, x in enumerate(self.step[p][i]):
                        v[of[j]] += x
                    sums.append((tuple(v), self.score[p][i]))
                if len(set(sums)) != 1:
                    raise ValueError(f"the chain cannot be lumped: from the states "
                                     f"{[self.states[i] for i in members]} the policy does "
                                     "not act alike up to renaming faces")
                rows.append(sums[0][0])
                sc.append(sums[0][1])
            steps.append(tuple(rows))
            scores.append(tuple(sc))
        start = [0] * len(classes)
        for i, v in enumerate(self.start):
            start[of[i]] += v
        return ThrowChain(
            self.target, self.policies, self.start_dice,
            tuple(self.states[m[0]] for _, m in classes),
            tuple(label(k) for k, _ in classes),
            tuple(tuple(d for i in m for d in self.members[i]) for _, m in classes),
            tuple(start), tuple(steps), tuple(scores), self.den)


def _check_count(n: Any, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise ValueError(f"{what}={n!r}: give a whole number of throws, 0 or more")
    return int(n)


def _policies(policies: PolicyLike | Sequence[PolicyLike]) -> tuple[Policy, ...]:
    if isinstance(policies, (str, Policy)) or callable(policies):
        return (as_policy(policies),)  # type: ignore[arg-type]
    out = tuple(as_policy(p) for p in policies)
    if not 1 <= len(out) <= 6:
        raise ValueError(f"give one policy per seat, 1 to 6 of them (got {len(out)})")
    return out


def chain(target: str | Target = "five-of-a-kind",
          policy: PolicyLike | Sequence[PolicyLike] = "keep-largest",
          start: Iterable[int] | None = None) -> ThrowChain:
    """The chain of a round: ``policy`` is one policy, or one per seat in turn order;
    ``start`` the five dice lying on the table before the first throw (``None``: the
    round opens with all five dice thrown, JA-5).

    >>> c = chain("five-of-a-kind", "keep-largest").lumped()
    >>> c.labels
    ('nothing kept', 'one die kept', 'two alike kept', 'three alike kept', 'four alike kept')
    >>> [str(x) for x in c.matrix()[3]]
    ['0', '0', '0', '25/36', '5/18', '1/36']
    """
    t = as_target(target)
    pols = _policies(policy)
    start_dice = None if start is None else _check_position(start)
    return _chain(t, pols, start_dice)


@lru_cache(maxsize=256)
def _chain(t: Target, pols: tuple[Policy, ...], start_dice: Dice | None,
           also: tuple[int, ...] = ()) -> ThrowChain:
    """The chain from ``start_dice``; ``also``: more kept states (KEPT indices) to
    include, with everything they lead to."""
    w = _throw_weights()
    tab = _tables(t.name)
    seats = len(pols)
    tables = [_policy_indices(p, t) for p in pols]
    start_kept = KEPT_INDEX[()] if start_dice is None else tables[0][POSITION_INDEX[start_dice]]
    miss = [pos for pos in range(len(POSITIONS)) if not tab.score[pos]]

    def row_of(k: int, seat: int) -> dict[int, int]:
        """Seat ``seat`` throws with ``k`` kept and misses; the next seat keeps ``j``."""
        nxt, scale, out = tables[(seat + 1) % seats], int(_SCALE[k]), {}
        for pos in miss:
            c = int(w[k, pos])
            if c:
                out[nxt[pos]] = out.get(nxt[pos], 0) + c * scale
        return out

    # every kept multiset reachable, each with its row for every seat (so the
    # matrices are complete and can be lumped), in the order of KEPT
    rows: dict[int, list[dict[int, int]]] = {}
    todo = [start_kept, *also]
    while todo:
        k = todo.pop()
        if k in rows:
            continue
        rows[k] = [row_of(k, seat) for seat in range(seats)]
        todo.extend(j for row in rows[k] for j in row if j not in rows)
    kepts = sorted(rows)
    step = tuple(tuple(tuple(rows[k][seat].get(j, 0) for j in kepts) for k in kepts)
                 for seat in range(seats))
    score = tuple(tuple(int(tab.hits[k]) for k in kepts) for _ in range(seats))
    states = tuple(KEPT[k] for k in kepts)
    labels = tuple((" ".join(map(str, s)) + " kept") if s else "nothing kept" for s in states)
    start_vec = tuple(int(k == start_kept) for k in kepts)
    return ThrowChain(t, pols, start_dice, states, labels, tuple((s,) for s in states),
                      start_vec, tuple(step), tuple(score), DEN)


def probability_within(n: int, target: str | Target = "five-of-a-kind",
                       policy: PolicyLike | Sequence[PolicyLike] = "keep-largest",
                       start: Iterable[int] | None = None) -> Fraction:
    """The exact chance to throw ``target`` within ``n`` throws (see :func:`chain`).

    >>> probability_within(2, "five-sixes", "keep-target") == Fraction(11, 36) ** 5
    True
    >>> probability_within(1, start=(4, 4, 4, 4, 1))
    Fraction(1, 6)
    """
    return chain(target, policy, start).within(n)


def throws_distribution(n: int, target: str | Target = "five-of-a-kind",
                        policy: PolicyLike | Sequence[PolicyLike] = "keep-largest",
                        start: Iterable[int] | None = None) -> list[Fraction]:
    """``[P(T = 1), …, P(T = n)]`` for the number of throws ``T`` until ``target``."""
    return chain(target, policy, start).distribution(n)


def expected_throws(target: str | Target = "five-of-a-kind",
                    policy: PolicyLike | Sequence[PolicyLike] = "keep-largest",
                    start: Iterable[int] | None = None) -> Fraction | float:
    """The exact expected number of throws until ``target`` (``math.inf`` if it may
    never come).

    >>> expected_throws(policy="reroll-all")
    Fraction(1296, 1)
    >>> expected_throws("five-sixes", "keep-largest")
    inf
    """
    return chain(target, policy, start).expected()


def seat_chances(policies: Sequence[PolicyLike] = ("keep-largest", "keep-largest"),
                 target: str | Target = "five-of-a-kind",
                 start: Iterable[int] | None = None) -> tuple[Fraction, ...]:
    """For a round with one policy per seat (seat A opens), the chance each seat
    throws the target first.

    >>> a, b = seat_chances(("keep-largest", "keep-largest"))
    >>> a, b          # B does a little better: A's opening throw is the weakest
    (Fraction(2216433, 4433968), Fraction(2217535, 4433968))
    """
    return chain(target, policies, start).seat_chances()


# --- the whole round: every player for themselves -----------------------------------------

@lru_cache(maxsize=None)
def _legal_matrix() -> np.ndarray:
    legal = _legal_kept()
    idx = np.full((len(POSITIONS), max(map(len, legal))), -1, dtype=np.int64)
    for p, ks in enumerate(legal):
        idx[p, :len(ks)] = ks
    return idx


@lru_cache(maxsize=None)
def _kept_rank(name: str) -> np.ndarray:
    """Tie-break among equally good pick-ups, as ``best-next``: the higher chance now,
    then more dice kept, then higher faces."""
    hits = _tables(name).hits
    order = sorted(range(len(KEPT)), key=lambda k: (int(hits[k]), len(KEPT[k]), KEPT[k]))
    rank = np.empty(len(KEPT), dtype=np.int64)
    rank[order] = np.arange(len(KEPT))
    return rank


def _argmax_pickups(values: Sequence[Any], name: str, near: float = 0.0) -> list[int]:
    """For each position, the legal kept index with the highest value (within ``near``),
    ties broken by :func:`_kept_rank`."""
    rank = _kept_rank(name)
    out = []
    for cands in _legal_kept():
        top = max(values[k] for k in cands)
        best = [k for k in cands if (values[k] >= top - near if near else values[k] == top)]
        out.append(max(best, key=lambda k: rank[k]))
    return out


def _table_policy(name: str, table: tuple[int, ...]) -> Policy:
    return Policy(name, "a fixed table", lambda dice, t: KEPT[table[POSITION_INDEX[dice]]])


@lru_cache(maxsize=None)
def _reply_solution(players: int, others: Policy, name: str
                    ) -> tuple[tuple[int, ...], tuple[Fraction, ...]]:
    """My best reply in a round of ``players`` when every other player follows
    ``others``: the policy table (KEPT index per position) that maximises my chance to
    be the one who throws ``name``, and, for every kept multiset, my exact chance to
    score the round when I throw with it (and reply best afterwards).

    Policy iteration in floating point finds the policy; exact chains then evaluate it
    and check that no single pick-up anywhere does better (which proves it optimal:
    a better way to play would have to improve on some pick-up); a pick-up that does
    better is taken and the check repeated."""
    tab = _tables(name)
    t = TARGETS[name]
    prob = _throw_weights() * _SCALE[:, None] / DEN          # rows: one throw's outcomes
    their = _policy_indices(others, t)
    # the others' throws, one after another, none scoring: position -> position
    step = prob[list(their)] * ~tab.score
    through = np.linalg.matrix_power(step, players - 1)
    hit = prob @ tab.score                                     # per kept: score now
    miss_then = (prob * ~tab.score) @ through                  # per kept: back to me at D
    legal = _legal_matrix()
    valid = legal >= 0
    rank = _kept_rank(name)[legal.clip(0)]
    rows = np.arange(len(POSITIONS))
    # policy iteration in floating point, from the greedy pick-ups
    policy = np.array(_policy_indices(POLICIES["best-next"], t))
    for _ in range(200):
        a = miss_then[policy]
        try:
            v = np.linalg.solve(np.eye(len(POSITIONS)) - a, hit[policy])
        except np.linalg.LinAlgError:                            # pragma: no cover
            v = np.linalg.lstsq(np.eye(len(POSITIONS)) - a, hit[policy], rcond=None)[0]
        values = hit + miss_then @ v
        vals = np.where(valid, values[legal.clip(0)], -np.inf)
        top = vals.max(axis=1)
        near = valid & (vals >= top[:, None] - 1e-12)
        choice = legal[rows, np.where(near, rank, -1).argmax(axis=1)]
        keep = values[policy] >= top - 1e-12                     # no change without a gain
        new_policy = np.where(keep, policy, choice)
        if (new_policy == policy).all():
            break
        policy = new_policy
    table = tuple(int(k) for k in policy)
    seeds = tuple(sorted(set(their)))
    w = _throw_weights()
    for _ in range(50):
        mine = _table_policy(f"best-reply-{players}", table)
        # the round from the first other player's throw, me last
        c = _chain(t, (others,) * (players - 1) + (mine,), None, seeds)
        try:
            c = c.lumped()
        except ValueError:
            pass
        by_state = c.seat_chances_by_state()
        value_of = {m: by_state[s] for s, members in zip(c.states, c.members) for m in members}
        after = [Fraction(1) if tab.score[d] else value_of[KEPT[their[d]]][players - 1]
                 for d in range(len(POSITIONS))]
        kv = []
        for k in range(len(KEPT)):
            row = w[k]
            total = sum((int(row[d]) * after[d] for d in np.flatnonzero(row)), Fraction(0))
            kv.append(total / (DEN // int(_SCALE[k])))
        better = _argmax_pickups(kv, name)
        improved = tuple(b if kv[b] > kv[a] else a for a, b in zip(table, better))
        if improved == table:
            return table, tuple(kv)
        table = improved
    raise RuntimeError("the best reply did not settle")  # pragma: no cover


def _check_players(players: Any) -> int:
    if isinstance(players, bool) or players not in range(2, 7):
        raise ValueError(f"players={players!r}: a round has 2 to 6 players")
    return int(players)


@lru_cache(maxsize=None)
def best_reply(players: int = 2, others: PolicyLike = "best-next") -> Policy:
    """My best policy in a round of ``players`` when every other player follows
    ``others``: each pick-up maximises my chance to score the round (not just this
    throw), found exactly. Named ``best-reply-N`` for the default others
    (``best-next``: each keeps what is best for their own next throw).

    Against two greedy players' ``1 1 1 2 3``, the greedy pick-up keeps the three 1s;
    the best reply keeps 1 2 3 (no chance now, but little left for the other):

    >>> best_reply(2).kept((1, 1, 1, 2, 3)), best_pickups((1, 1, 1, 2, 3))[0].kept
    ((1, 2, 3), (1, 1, 1))
    """
    _check_players(players)
    other = as_policy(others)
    name = (f"best-reply-{players}" if other.name == "best-next"
            else f"best-reply-{players}-to-{other.name}")

    def choose(dice: Dice, t: Target) -> Dice:
        return KEPT[_reply_solution(players, other, t.name)[0][POSITION_INDEX[dice]]]

    return Policy(name, f"keep what maximises my chance to score the round when the "
                        f"{players - 1} other player{'s' if players > 2 else ''} play "
                        f"{other.name} (exact)", choose)


class RoundPickup(NamedTuple):
    """A pick-up and my exact chance to score the round with it (see
    :func:`round_pickups`)."""

    pickup: Pickup
    round_chance: Fraction


def round_pickups(dice: Iterable[int], target: str | Target = "five-of-a-kind",
                  players: int = 2, others: PolicyLike = "best-next"
                  ) -> tuple[RoundPickup, ...]:
    """Every legal pick-up from ``dice`` with my exact chance to score the round, best
    first, when the other players follow ``others`` and I reply best afterwards.

    Two players, four 4s on the table: throwing the fifth die, I score with 1/6, or
    the other player faces four 4s, and so on: 1/6 / (1 - (5/6)**2) = 6/11.

    >>> best = round_pickups((4, 4, 4, 4, 2))[0]
    >>> best.pickup.notation, best.round_chance
    ('r2', Fraction(6, 11))
    """
    dice = _check_position(dice)
    t = as_target(target)
    _, kv = _reply_solution(_check_players(players), as_policy(others), t.name)
    rank = _kept_rank(t.name)
    out = [RoundPickup(p, kv[KEPT_INDEX[p.kept]]) for p in _pickups(dice, t.name)]
    return tuple(sorted(out, key=lambda r: (r.round_chance, rank[KEPT_INDEX[r.pickup.kept]]),
                        reverse=True))


# --- the same machinery for any dice -------------------------------------------------------

@dataclass(frozen=True)
class DiceModel:
    """``dice`` dice, each showing one of ``faces`` with the exact ``probabilities``.

    >>> coin = DiceModel("coins", (0, 1), (Fraction(1, 2), Fraction(1, 2)), 3)
    >>> dict(coin.outcomes())[(0, 0, 1)]
    Fraction(3, 8)
    """

    name: str
    faces: tuple[int, ...]
    probabilities: tuple[Fraction, ...]
    dice: int

    def __post_init__(self) -> None:
        if len(self.faces) != len(self.probabilities) or len(set(self.faces)) != len(self.faces):
            raise ValueError("give one probability per face, and distinct faces")
        probs = tuple(Fraction(p) for p in self.probabilities)
        if any(p < 0 for p in probs) or sum(probs) != 1:
            raise ValueError(f"face probabilities {tuple(map(str, probs))} must be "
                             "0 or more and add up to exactly 1")
        object.__setattr__(self, "probabilities", probs)
        if not 1 <= self.dice <= 8:
            raise ValueError(f"dice={self.dice}: use 1 to 8 dice")

    def outcomes(self, count: int | None = None) -> tuple[tuple[Dice, Fraction], ...]:
        """Every sorted result of throwing ``count`` dice (default all) and its chance."""
        return _model_outcomes(self, self.dice if count is None else count)

    def chance(self, event: Callable[[Dice], bool]) -> Fraction:
        """The chance that one throw of all the dice shows ``event``."""
        return sum((p for d, p in self.outcomes() if event(d)), Fraction(0))


@lru_cache(maxsize=64)
def _model_outcomes(model: DiceModel, count: int) -> tuple[tuple[Dice, Fraction], ...]:
    prob = dict(zip(model.faces, model.probabilities))
    out = []
    for ms in combinations_with_replacement(sorted(model.faces), count):
        p = Fraction(_multinomial(ms))
        for v in ms:
            p *= prob[v]
        if p:
            out.append((ms, p))
    return tuple(out)


def model_chain(model: DiceModel, event: Callable[[Dice], bool],
                keep: Callable[[Dice], Sequence[int]] = lambda dice: (),
                name: str = "event") -> ThrowChain:
    """The one-player chain for any :class:`DiceModel`: throw until ``event``, keeping
    ``keep(dice)`` between throws (default: throw all the dice every time).

    >>> coins = DiceModel("coins", (0, 1), (Fraction(1, 2), Fraction(1, 2)), 2)
    >>> model_chain(coins, lambda d: d == (1, 1)).expected()
    Fraction(4, 1)
    >>> model_chain(coins, lambda d: d == (1, 1), keep=lambda d: d[1:] if d[1] else ()).expected()
    Fraction(8, 3)
    """
    kept_states: list[Dice] = [()]
    where = {(): 0}
    rows: list[dict[int, Fraction]] = []
    hits: list[Fraction] = []
    i = 0
    while i < len(kept_states):
        kept = kept_states[i]
        row: dict[int, Fraction] = {}
        hit = Fraction(0)
        for thrown, p in model.outcomes(model.dice - len(kept)):
            dice = tuple(sorted(kept + thrown))
            if event(dice):
                hit += p
                continue
            nxt = tuple(sorted(keep(dice)))
            if len(nxt) >= model.dice or Counter(nxt) - Counter(dice):
                raise ValueError(f"keep({dice}) = {nxt}: keep some of the dice thrown, "
                                 "not all of them")
            if nxt not in where:
                where[nxt] = len(kept_states)
                kept_states.append(nxt)
            row[where[nxt]] = row.get(where[nxt], Fraction(0)) + p
        rows.append(row)
        hits.append(hit)
        i += 1
    den = 1
    for row, hit in zip(rows, hits):
        for v in (*row.values(), hit):
            den = math.lcm(den, v.denominator)
    size = len(kept_states)
    step = tuple(tuple(int(row.get(j, 0) * den) for j in range(size)) for row in rows)
    score = tuple(int(h * den) for h in hits)
    t = Target(name, frozenset(model.faces), name, name)
    pol = Policy("keep", "keep", lambda dice, _t: tuple(keep(dice)))
    labels = tuple((" ".join(map(str, s)) + " kept") if s else "nothing kept"
                   for s in kept_states)
    return ThrowChain(t, (pol,), None, tuple(kept_states), labels,
                      tuple((s,) for s in kept_states), (1,) + (0,) * (size - 1),
                      (step,), (score,), den)

"""The exact odds of one Jactus throw: what the canvas's odds panel shows.

For the dice on the table, the chance that the coming throw allows each claim (JA-8,
:func:`claim_odds`), and the best pick-ups for each claim (:func:`claim_advice`), in
exact fractions from integer tables of every throw (252 positions of five dice, 210
multisets that can stay on the table). Here, in the game's package, because the
game's ``draw.py`` needs them and imports run downward (core ← games ←
widgets/analysis); the lesson's Markov chains, policies and round values build on
these in :mod:`janus_widgets.analysis.jactus_odds`, which re-exports every public
name.

Targets (:data:`TARGETS`)
    ``"five-of-a-kind"`` any face five times (the dog throw under the rulebook's
    reading, and what ends a round), ``"five-sixes"`` (the Venus throw),
    ``"five-ones"`` (the coin throw) and ``"five-2-to-5"`` (the dog throw under
    the variant ``dog_throws="other"``).

>>> claim_odds((6, 6, 6))["venus"]             # two dice to throw, both must be 6
Fraction(1, 36)
>>> claim_advice((1, 1, 6, 6, 6))["venus"].pickups[0].notation
'r11'
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any, NamedTuple

import numpy as np

from .rules import PICK_KEEP, JactusVariant

__all__ = [
    "FACES", "DICE", "DEN", "POSITIONS", "POSITION_INDEX", "KEPT", "KEPT_INDEX", "CLAIM_KINDS",
    "OBJECTIVES", "Dice", "Target", "TARGETS", "Pickup", "Advice", "as_target",
    "target_for_claim", "throw_chance", "claim_odds", "pickups", "best_pickups",
    "next_player_chance", "claim_advice",
]

FACES = (1, 2, 3, 4, 5, 6)
DICE = 5
#: 6**5: every chance about one throw is a whole number of 7776ths.
DEN = 6 ** DICE
#: Every position of the five dice (sorted), 252 of them.
POSITIONS: tuple[tuple[int, ...], ...] = tuple(combinations_with_replacement(FACES, DICE))
POSITION_INDEX = {p: i for i, p in enumerate(POSITIONS)}
#: Every multiset of 0–4 dice that can stay on the table (210), ``()`` first.
KEPT: tuple[tuple[int, ...], ...] = tuple(
    m for k in range(DICE) for m in combinations_with_replacement(FACES, k))
KEPT_INDEX = {m: i for i, m in enumerate(KEPT)}
#: The claim kinds of JA-8 and 'any' (the throw scores at all).
CLAIM_KINDS = ("venus", "dog", "coin", "any")

Dice = tuple[int, ...]



# --- targets ----------------------------------------------------------------------

@dataclass(frozen=True)
class Target:
    """What a throw must show to score: five dice all showing one of ``faces``."""

    name: str
    faces: frozenset[int]
    title: str
    label: str = ""

    def scores(self, dice: Sequence[int]) -> bool:
        """Whether five dice showing ``dice`` score this target."""
        return len(dice) == DICE and len(set(dice)) == 1 and dice[0] in self.faces

    def __str__(self) -> str:
        return self.name


TARGETS: dict[str, Target] = {t.name: t for t in (
    Target("five-of-a-kind", frozenset(FACES),
           "any five of a kind (a dog card in the rulebook's reading; ends the round)",
           "any five of a kind"),
    Target("five-sixes", frozenset({6}), "five sixes (the Venus throw)", "five sixes"),
    Target("five-ones", frozenset({1}), "five ones (the coin throw)", "five ones"),
    Target("five-2-to-5", frozenset({2, 3, 4, 5}),
           "five 2s, 3s, 4s or 5s (a dog card when dog_throws='other')", "five 2s–5s"),
)}


def as_target(name: str | Target) -> Target:
    """The :class:`Target` called ``name``; a ``ValueError`` names the allowed ones."""
    if isinstance(name, Target):
        return name
    if isinstance(name, str) and name in TARGETS:
        return TARGETS[name]
    raise ValueError(f"target={name!r} is not known: use one of "
                     + ", ".join(repr(t) for t in TARGETS))


@lru_cache(maxsize=None)
def _default_dog_throws() -> str:
    return JactusVariant().dog_throws


def _dog_throws(variant: JactusVariant | None) -> str:
    if variant is None:
        return _default_dog_throws()
    if not isinstance(variant, JactusVariant):
        raise ValueError(f"variant={variant!r}: give a JactusVariant (or None for the "
                         "default rules)")
    return variant.dog_throws


def target_for_claim(kind: str, variant: JactusVariant | None = None) -> Target:
    """The target a claim kind needs (JA-8), under ``variant``'s dog_throws reading.

    >>> target_for_claim("venus").name, target_for_claim("dog").name
    ('five-sixes', 'five-of-a-kind')
    >>> target_for_claim("dog", JactusVariant(dog_throws="other")).name
    'five-2-to-5'
    """
    reading = _dog_throws(variant)
    names = {"venus": "five-sixes", "coin": "five-ones", "any": "five-of-a-kind",
             "dog": "five-of-a-kind" if reading == "any" else "five-2-to-5"}
    if kind not in names:
        raise ValueError(f"claim kind {kind!r} is not known: use one of "
                         + ", ".join(repr(k) for k in CLAIM_KINDS))
    return TARGETS[names[kind]]


# --- the throw tables (integers; exact) ---------------------------------------------

def _multinomial(ms: Sequence[int]) -> int:
    out = math.factorial(len(ms))
    for c in Counter(ms).values():
        out //= math.factorial(c)
    return out


@lru_cache(maxsize=None)
def _throw_weights() -> np.ndarray:
    """``W[k, p]``: of the 6**(5-len(KEPT[k])) ordered throws, how many give position p."""
    w = np.zeros((len(KEPT), len(POSITIONS)), dtype=np.int64)
    for k, kept in enumerate(KEPT):
        for thrown in combinations_with_replacement(FACES, DICE - len(kept)):
            w[k, POSITION_INDEX[tuple(sorted(kept + thrown))]] += _multinomial(thrown)
    w.setflags(write=False)
    return w


#: 6**len(kept): scales a kept multiset's throw counts to 7776ths.
_SCALE = np.array([6 ** len(k) for k in KEPT], dtype=np.int64)


@lru_cache(maxsize=None)
def _legal_kept() -> tuple[tuple[int, ...], ...]:
    """For each position, the KEPT indices of its legal pick-ups (JA-6), in action order."""
    return tuple(tuple(KEPT_INDEX[kept] for kept in PICK_KEEP[p].values()) for p in POSITIONS)


@dataclass(frozen=True)
class _TargetTables:
    score: np.ndarray       # bool per position
    hits: np.ndarray        # per kept: the throw's chance to score, in 7776ths
    best: np.ndarray        # per position: the best one-throw chance from it, in 7776ths
    leaves: np.ndarray      # per kept: P(miss, then next player scores), in 7776**2ths


@lru_cache(maxsize=None)
def _tables(name: str) -> _TargetTables:
    t = TARGETS[name]
    w = _throw_weights()
    score = np.array([t.scores(p) for p in POSITIONS])
    hits = (w @ score.astype(np.int64)) * _SCALE
    legal = _legal_kept()
    best = np.array([max(int(hits[k]) for k in legal[p]) for p in range(len(POSITIONS))],
                    dtype=np.int64)
    leaves = (w @ np.where(score, 0, best)) * _SCALE
    for arr in (score, hits, best, leaves):
        arr.setflags(write=False)
    return _TargetTables(score, hits, best, leaves)


def _check_dice(dice: Iterable[int], what: str, sizes: Sequence[int]) -> Dice:
    try:
        given = list(dice)
        ok = all(not isinstance(v, (bool, str)) and float(v) == int(v) for v in given)
        values = tuple(sorted(int(v) for v in given))
    except (TypeError, ValueError):
        values, ok = (), False
    if not ok or any(v not in FACES for v in values) or len(values) not in sizes:
        count = (f"{sizes[0]}" if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]}")
        raise ValueError(f"{what}={dice!r}: give {count} dice values, each 1 to 6"
                         + (" (JA-6: at least one die is picked up, so at most four "
                            "stay on the table)" if what == "kept" else ""))
    return values


def _check_position(dice: Iterable[int]) -> Dice:
    return _check_dice(dice, "dice", (DICE,))


def _check_kept(kept: Iterable[int]) -> Dice:
    return _check_dice(kept, "kept", (0, 1, 2, 3, 4))


def throw_chance(kept: Iterable[int] = (), target: str | Target = "five-of-a-kind") -> Fraction:
    """The chance that throwing every die but ``kept`` scores ``target``.

    >>> throw_chance(()), throw_chance((), "five-sixes"), throw_chance((4, 4, 4))
    (Fraction(1, 1296), Fraction(1, 7776), Fraction(1, 36))
    >>> throw_chance((4, 5))
    Fraction(0, 1)
    """
    kept = _check_kept(kept)
    t = as_target(target)
    return Fraction(int(_tables(t.name).hits[KEPT_INDEX[kept]]), DEN)


@lru_cache(maxsize=4096)
def _claim_odds(kept: Dice, reading: str) -> tuple[tuple[str, Fraction], ...]:
    variant = JactusVariant(dog_throws=reading)
    k = KEPT_INDEX[kept]
    return tuple((kind, Fraction(int(_tables(target_for_claim(kind, variant).name).hits[k]),
                                 DEN)) for kind in CLAIM_KINDS)


def claim_odds(kept_dice: Iterable[int] = (), variant: JactusVariant | None = None
               ) -> dict[str, Fraction]:
    """For the dice left on the table after a pick-up, the chance the coming throw
    allows each claim (JA-8), and ``'any'``: that it scores at all.

    ``variant`` (a :class:`JactusVariant`, default rules if ``None``) decides which
    throws allow a dog card. Cached: the canvas calls it on every click.

    >>> odds = claim_odds((1, 1))
    >>> odds["coin"], odds["dog"], odds["venus"], odds["any"]
    (Fraction(1, 216), Fraction(1, 216), Fraction(0, 1), Fraction(1, 216))
    >>> claim_odds((1, 1), JactusVariant(dog_throws="other"))["dog"]
    Fraction(0, 1)
    >>> claim_odds(())["dog"], claim_odds((), JactusVariant(dog_throws="other"))["dog"]
    (Fraction(1, 1296), Fraction(1, 1944))
    """
    return dict(_claim_odds(_check_kept(kept_dice), _dog_throws(variant)))


# --- pick-ups and the Jactus twist ----------------------------------------------------

class Pickup(NamedTuple):
    """One pick-up from a position, with its exact consequences.

    ``chance``: this throw scores the target. ``leaves``: this throw misses *and*
    the next player then scores with their one throw, playing the pick-up that is
    best for them (the highest ``chance``). ``margin = chance - leaves``.
    """

    picked: Dice
    kept: Dice
    chance: Fraction
    leaves: Fraction

    @property
    def margin(self) -> Fraction:
        """My chance minus the chance that I miss and the next player scores."""
        return self.chance - self.leaves

    @property
    def notation(self) -> str:
        """The move in Jactus notation, e.g. ``r35`` (JA-6)."""
        return "r" + "".join(map(str, self.picked))

    def __str__(self) -> str:
        return (f"{self.notation} (keep {' '.join(map(str, self.kept)) or 'nothing'}): "
                f"{self.chance} to score, {self.leaves} for the next player")


def _minus(dice: Dice, kept: Dice) -> Dice:
    rest = list(dice)
    for v in kept:
        rest.remove(v)
    return tuple(rest)


def pickups(dice: Iterable[int], target: str | Target = "five-of-a-kind"
            ) -> tuple[Pickup, ...]:
    """Every legal pick-up from ``dice`` (JA-6), in action order, with exact odds.

    >>> for p in pickups((3, 3, 3, 3, 5))[:2]:
    ...     print(p)
    r3 (keep 3 3 3 5): 0 to score, 11/216 for the next player
    r5 (keep 3 3 3 3): 1/6 to score, 5/36 for the next player
    """
    return _pickups(_check_position(dice), _target_name(target))


def _target_name(t: str | Target) -> str:
    return as_target(t).name


@lru_cache(maxsize=2048)
def _pickups(dice: Dice, name: str) -> tuple[Pickup, ...]:
    tab = _tables(name)
    out = []
    for k in _legal_kept()[POSITION_INDEX[dice]]:
        kept = KEPT[k]
        out.append(Pickup(_minus(dice, kept), kept, Fraction(int(tab.hits[k]), DEN),
                          Fraction(int(tab.leaves[k]), DEN * DEN)))
    return tuple(out)


OBJECTIVES = ("chance", "margin")


def best_pickups(dice: Iterable[int], target: str | Target = "five-of-a-kind",
                 objective: str = "chance") -> tuple[Pickup, ...]:
    """The best pick-ups from ``dice``: every one that ties for the best, preferred first.

    ``objective="chance"`` maximises the chance to score with this throw (what a
    player with one throw per turn wants); ties prefer keeping more dice, then
    higher faces. ``objective="margin"`` maximises ``chance - leaves`` (see
    :class:`Pickup`): score now, and if not, leave little to the next player; ties
    prefer the higher chance, then as above.

    >>> [p.notation for p in best_pickups((1, 1, 1, 4, 4))]
    ['r44']
    >>> [p.notation for p in best_pickups((2, 3, 4, 5, 6), "five-sixes")]
    ['r2345']
    """
    if objective not in OBJECTIVES:
        raise ValueError(f"objective={objective!r} is not known: use 'chance' or 'margin'")
    return _best(_check_position(dice), _target_name(target), objective)


@lru_cache(maxsize=4096)
def _best(dice: Dice, name: str, objective: str) -> tuple[Pickup, ...]:
    options = _pickups(dice, name)
    if objective == "chance":
        def key(p: Pickup) -> tuple:
            return (p.chance, len(p.kept), p.kept)
        value: Callable[[Pickup], Any] = lambda p: p.chance
    else:
        def key(p: Pickup) -> tuple:
            return (p.margin, p.chance, len(p.kept), p.kept)
        value = lambda p: p.margin  # noqa: E731
    ranked = sorted(options, key=key, reverse=True)
    top = value(ranked[0])
    return tuple(p for p in ranked if value(p) == top)


def next_player_chance(left: Iterable[int], target: str | Target = "five-of-a-kind"
                       ) -> Fraction:
    """The chance the next player scores with their next throw, given the five dice
    this player leaves on the table and their best pick-up.

    >>> next_player_chance((3, 3, 3, 3, 5)), next_player_chance((1, 2, 3, 4, 6))
    (Fraction(1, 6), Fraction(1, 1296))
    """
    dice = _check_position(left)
    return Fraction(int(_tables(_target_name(target)).best[POSITION_INDEX[dice]]), DEN)


class Advice(NamedTuple):
    """The best pick-ups for one claim kind at one position (for the odds panel)."""

    kind: str
    target: Target
    chance: Fraction
    pickups: tuple[Pickup, ...]


def claim_advice(dice: Iterable[int], variant: JactusVariant | None = None
                 ) -> dict[str, Advice]:
    """For each claim kind (and ``'any'``), the best pick-ups from ``dice`` and their
    chance, under ``variant``'s dog_throws reading.

    >>> advice = claim_advice((1, 1, 6, 6, 6))
    >>> advice["venus"].pickups[0].notation, advice["venus"].chance
    ('r11', Fraction(1, 36))
    >>> advice["coin"].pickups[0].notation, advice["coin"].chance
    ('r666', Fraction(1, 216))
    """
    dice = _check_position(dice)
    out = {}
    for kind in CLAIM_KINDS:
        t = target_for_claim(kind, variant)
        best = _best(dice, t.name, "chance")
        out[kind] = Advice(kind, t, best[0].chance, best)
    return out

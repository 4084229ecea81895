"""Exercises whose answers the package checks, for the lesson notebooks.

Each exercise knows its exact answer (computed by
:mod:`~janus_widgets.analysis.jactus_odds` or :mod:`~janus_widgets.analysis.roman_dice`,
never typed in) and the common wrong answers with what went wrong.
:meth:`Exercise.check` takes a fraction, a whole number, a float, or text such as
``"1/1296"``, ``"0.000772"``, ``"0.0772%"`` or ``"1 in 1296"``:

* an answer equal to the right one is right, and so is one that agrees to three
  significant figures (the default tolerance of
  :class:`~janus_widgets.analysis.checking.Exercise`), whatever its form: a fraction,
  a decimal or a percentage is judged by its value alone;
* a recognisable mistake is wrong, and the verdict says why;
* anything else is wrong, with a hint.

A student's exercises (``ExerciseSet.for_student``) ask the same questions with numbers
of their own: other numbers of dice, other faces, other positions, so that the answers
differ from student to student.

>>> from fractions import Fraction
>>> print(jactus_odds.q1.check(Fraction(1, 1296)))  # doctest: +ELLIPSIS
Right: 1/1296 ≈ 0.0007716. Of the 6^5 = 7776 equally likely throws, six are ...
>>> verdict = jactus_odds.q1.check("1/7776")
>>> bool(verdict), "particular face" in verdict.message
(False, True)
>>> bool(jactus_odds.q4.check(0.04603))
True
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Any, TypeVar

import numpy as np

from . import jactus_odds as odds
from . import roman_dice as roman
from .checking import (Exercise, ExerciseSet, Mistake, SignificantFigures, Verdict,
                       read_answer, show_value, spread, unique_mistakes)

__all__ = ["Verdict", "Mistake", "Exercise", "ExerciseSet", "jactus_odds",
           "jactus_strategy", "roman_dice", "read_answer"]

_FACE_WORDS = {1: "1s", 2: "2s", 3: "3s", 4: "4s", 5: "5s", 6: "6s"}
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six",
                 7: "seven", 8: "eight"}
_WORDS = {**_NUMBER_WORDS, 9: "nine", 10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen",
          14: "fourteen", 15: "fifteen", 16: "sixteen", 17: "seventeen", 18: "eighteen",
          19: "nineteen", 20: "twenty"}
_ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}


#: Winkelman's knucklebone weights in tenths (the faces 1, 3, 4, 6).
KNUCKLEBONE_TENTHS = tuple(roman.KNUCKLEBONE_STUDY_WEIGHTS[f] for f in roman.TALI_FACES)

_COUNT_WORDS = {1: "One", 2: "Two", 3: "Three", 4: "Four"}


def _pick(rng: np.random.Generator | None, default: Any, choices: tuple[Any, ...]) -> Any:
    """The class's value (``rng`` is None) or, for a student, one of the other
    ``choices`` (so a student's numbers are never the ones shown to the class)."""
    if rng is None:
        return default
    others = [c for c in choices if c != default]
    return others[int(rng.integers(len(others)))]


def _dice_text(dice: tuple[int, ...]) -> str:
    return " ".join(map(str, dice))


def _fair_dice(n: int) -> odds.DiceModel:
    return odds.DiceModel("dice", (1, 2, 3, 4, 5, 6), (Fraction(1, 6),) * 6, n)


# --- numbers of their own: the spaces students' questions are drawn from -----------------

#: The dice of the students' "games like Jactus": fair dice with faces 1 to f (the
#: polyhedral dice of board and role-playing games).
DIE_FACES = (4, 6, 8, 10, 12, 20)
#: How close to the class's key a student's answer may not come: a student whose answer
#: is the class's to 3 significant figures would be marked right with the class's key.
_NEAR = SignificantFigures(3)
#: The longest average wait a student's "throw every die every time" question asks for.
LONGEST_WAIT = 100_000

_Option = TypeVar("_Option")


def _draw(rng: np.random.Generator, table: dict[_Option, Fraction],
          class_value: Fraction, shown: frozenset[Fraction] = frozenset()) -> _Option:
    """One option of ``table`` (option → its answer) for a student: every different
    answer equally likely, drawn as :func:`~janus_widgets.analysis.checking.spread`
    draws (the same option for the same generator), never the class's key nor an answer
    whose 3 significant figures the class's key has, nor one of the figures the lesson's
    page ``shown`` (its worked examples, the answer box's example 3/8). The answers are
    grouped once per table (a class builds 30 sheets).

    >>> table = {n: Fraction(1, n) for n in range(2, 40)}
    >>> picks = {_draw(np.random.default_rng(s), table, Fraction(1, 6)) for s in range(300)}
    >>> 6 in picks, len(picks) > 30
    (False, True)
    >>> allowed = [n for n in table if n != 6]
    >>> _draw(np.random.default_rng(7), table, Fraction(1, 6)) == spread(
    ...     np.random.default_rng(7), allowed, table.__getitem__)
    True
    """
    key = (id(table), class_value, shown)
    if key not in _GROUPED:
        taken = {class_value, *shown}
        groups: dict[Fraction, list[_Option]] = {}
        for option, value in table.items():
            if not any(abs(float(value) - float(t)) <= float(t) / 50
                       and (value == t or _NEAR.allows(t, value)) for t in taken):
                groups.setdefault(value, []).append(option)
        _GROUPED[key] = (table, sorted(groups), groups)
    _, values, groups = _GROUPED[key]
    group = groups[values[int(rng.integers(len(values)))]]
    return group[int(rng.integers(len(group)))]


#: Each table's answers grouped for :func:`_draw` (the table is kept with them, so that
#: its id stays its own).
_GROUPED: dict[tuple[int, Fraction, frozenset[Fraction]],
               tuple[Any, list[Fraction], dict[Fraction, list[Any]]]] = {}

#: The answer box's example on every lesson page ("e.g. 3/8 or 0.375"): no student's
#: answer.
BOX_EXAMPLE = Fraction(3, 8)
#: The figures jactus-odds' text shows (the answer box's example, the warm-up's "1 in
#: 100? 1 in 10? 1 in 2?", section 1's worked examples 6/36 and 120/216, step 2's 1/6
#: and 5/6, the 95% interval and its "1 in 20"): no student's answer is one of them.
JACTUS_ODDS_FIGURES = frozenset({BOX_EXAMPLE, Fraction(1, 100), Fraction(1, 10),
                                 Fraction(1, 2), Fraction(1, 6), Fraction(5, 9),
                                 Fraction(5, 6), Fraction(19, 20), Fraction(1, 20)})


def _say(n: int) -> str:
    """A count as the questions write it: in words up to twenty, else in figures."""
    return _WORDS.get(n, str(n))


def _a(n: int) -> str:
    """The article before a number read aloud: 'an 8', 'an 11', 'a 4'."""
    return "an" if str(n).startswith("8") or n in (11, 18) else "a"


def _dice_words(n: int, faces: int) -> str:
    """``'seven dice'``, or ``'seven 12-sided dice (faces 1 to 12, each equally likely)'``."""
    if faces == 6:
        return f"{_WORDS[n]} dice"
    return f"{_WORDS[n]} {faces}-sided dice (faces 1 to {faces}, each equally likely)"


def _hits(dice: int, faces: int) -> odds.DiceModel:
    """``dice`` fair dice with ``faces`` faces, each die seen only as showing a given face
    (1, chance 1/faces) or not (0): how many show it is all a question about one face
    asks."""
    return odds.DiceModel("hits", (1, 0), (Fraction(1, faces), Fraction(faces - 1, faces)),
                          dice)


def _hit_chance(dice: int, faces: int, test: Callable[[int], bool]) -> Fraction:
    """The chance that the number of ``dice`` fair dice (``faces`` faces) showing a
    given face passes ``test``: of the ``faces**dice`` ordered results, C(dice, k)
    × (faces − 1)^(dice − k) show it exactly k times (the dice model :func:`_hits`
    counts the same, more slowly).

    >>> _hit_chance(2, 6, lambda k: k == 2), _hit_chance(3, 6, lambda k: k >= 1)
    (Fraction(1, 36), Fraction(91, 216))
    >>> _hit_chance(3, 6, lambda k: k >= 1) == _hits(3, 6).chance(lambda d: 1 in d)
    True
    """
    good = sum(math.comb(dice, k) * (faces - 1) ** (dice - k) for k in range(dice + 1)
               if test(k))
    return Fraction(good, faces ** dice)


# --- the Jactus odds lesson ------------------------------------------------------------

#: Exercise 2's events for the dice thrown: all of them show the face kept, at least
#: one does, none does, exactly one, exactly two.
THROWN_EVENTS = ("all", "at least one", "none", "exactly one", "exactly two")
_EVENT_TESTS: dict[str, Callable[[int, int], bool]] = {
    "all": lambda k, m: k == m, "at least one": lambda k, m: k >= 1,
    "none": lambda k, m: k == 0, "exactly one": lambda k, m: k == 1,
    "exactly two": lambda k, m: k == 2}


def _one_throw_chance(dice: int, faces: int, event: str) -> Fraction:
    """The chance that ``dice`` fair dice (faces 1 to ``faces``) thrown at once all show
    the same face (``"same"``, any face), all different faces (``"different"``) or at
    least two the same face (``"pair"``): the ordered results counted.

    >>> _one_throw_chance(5, 6, "same"), _one_throw_chance(3, 6, "different")
    (Fraction(1, 1296), Fraction(5, 9))
    >>> _one_throw_chance(3, 6, "pair")
    Fraction(4, 9)
    """
    if event not in ONE_THROW_EVENTS:
        raise ValueError(f"event={event!r}: give one of {', '.join(ONE_THROW_EVENTS)}")
    good = faces if event == "same" else math.perm(faces, dice)
    if event == "pair":
        good = faces ** dice - good
    return Fraction(good, faces ** dice)


#: Exercise 1's events for dice thrown at once.
ONE_THROW_EVENTS = ("same", "different", "pair")


def _thrown_chance(thrown: int, event: str, faces: int = 6) -> Fraction:
    """The chance that of ``thrown`` fair dice (``faces`` faces) ``event``
    (:data:`THROWN_EVENTS`) show a given face.

    >>> _thrown_chance(2, "all"), _thrown_chance(3, "exactly one", 4)
    (Fraction(1, 36), Fraction(27, 64))
    """
    return _hit_chance(thrown, faces, lambda k: _EVENT_TESTS[event](k, thrown))


@lru_cache(maxsize=1)
def _one_throw_table() -> dict[tuple[int, int, str], Fraction]:
    """Exercise 1 for students: (dice, faces, event) → the chance, for 2 to 10 dice of
    every size in :data:`DIE_FACES`, all alike, all different or at least two alike."""
    return {(n, f, e): _one_throw_chance(n, f, e) for n in range(2, 11) for f in DIE_FACES
            for e in ONE_THROW_EVENTS if e == "same" or n <= f}


@lru_cache(maxsize=1)
def _thrown_table() -> dict[tuple[int, int, str], Fraction]:
    """Exercise 2 for students: (dice thrown, faces, event) → the chance, 1 to 7 dice
    thrown (a game of up to 8 dice keeps at least one)."""
    table = {}
    for m in range(1, 8):
        events = (("all", "none") if m == 1 else
                  ("all", "at least one", "none", "exactly one") if m == 2 else THROWN_EVENTS)
        for f in DIE_FACES:
            for e in events:
                table[m, f, e] = _thrown_chance(m, e, f)
    return table


@lru_cache(maxsize=1)
def _venus_table() -> dict[tuple[int, int], Fraction]:
    """Exercise 3 for students: (dice still to show a six, throws) → the chance of Venus
    keeping the sixes, 2 to 40 throws (the chain panel's range)."""
    return {(m, r): (1 - Fraction(5, 6) ** r) ** m for m in range(1, 6) for r in range(2, 41)}


#: The chains of exercises 4 and 5 (target, policy), with the states a student's start
#: may put the player in: the size of the group kept (0: the round's opening throw).
CHAIN_KINDS: dict[tuple[str, str], tuple[int, ...]] = {
    ("five-of-a-kind", "keep-largest"): (0, 2, 3, 4),
    ("five-2-to-5", "keep-target"): (0, 1, 2, 3, 4),
    ("five-sixes", "keep-target"): (0, 1, 2, 3, 4),
}
_TARGET_WORDS = {"five-of-a-kind": "five of a kind (any face)",
                 "five-sixes": "the Venus (five sixes)",
                 "five-2-to-5": "five 2s, 3s, 4s or 5s"}
_POLICY_WORDS = {"keep-largest": "keeping the largest group of equal dice",
                 "keep-target": "keeping the largest group of the target's faces"}


def _kept_group(dice: tuple[int, ...], target: str) -> int:
    """The size of the group a keep policy keeps from ``dice`` aiming for ``target``:
    the largest group of a target face (one die alone is no group for five of a kind:
    keeping it or throwing all five is alike)."""
    faces = odds.TARGETS[target].faces
    group = max((dice.count(f) for f in faces), default=0)
    return 0 if target == "five-of-a-kind" and group == 1 else group


def _start_for(rng: np.random.Generator | None, target: str, group: int
               ) -> tuple[int, ...] | None:
    """Five dice on the table that put a player aiming for ``target`` in state
    ``group`` (``None``: the round's opening throw), drawn from ``rng`` (without one,
    the first such dice in order)."""
    if group == 0:
        return None
    candidates = [d for d in _all_positions() if len(set(d)) > 1
                  and _kept_group(d, target) == group]
    if rng is None:
        return candidates[0]
    dice = list(candidates[int(rng.integers(len(candidates)))])
    rng.shuffle(dice)
    return tuple(int(d) for d in dice)


@lru_cache(maxsize=1)
def _all_positions() -> tuple[tuple[int, ...], ...]:
    from itertools import combinations_with_replacement
    return tuple(combinations_with_replacement(range(1, 7), 5))


@lru_cache(maxsize=1)
def _within_table() -> dict[tuple[str, str, int, int], Fraction]:
    """Exercise 4 for students: (target, policy, state, throws) → the chance within 2 to
    40 throws, for five of a kind and the dog of the variant (the Venus is exercise 3)."""
    table = {}
    for (target, policy), states in CHAIN_KINDS.items():
        if target == "five-sixes":
            continue
        for group in states:
            chain = odds.chain(target, policy, _start_for(None, target, group))
            within = Fraction(0)
            for n, first in enumerate(chain.distribution(40), 1):
                within += first
                if n > 1:
                    table[target, policy, group, n] = within
    return table


@lru_cache(maxsize=1)
def _wait_table() -> dict[tuple[Any, ...], Fraction]:
    """Exercise 5 for students: ("chain", target, policy, state) → the expected number
    of throws keeping dice (the chain panel's), and ("rethrow", dice, faces, k,
    at_least) → the average wait when every die is thrown every time, until at least (or
    exactly) k of them show a given face (on paper: 1/p), at most :data:`LONGEST_WAIT`."""
    table: dict[tuple[Any, ...], Fraction] = {}
    for (target, policy), states in CHAIN_KINDS.items():
        for group in states:
            expected = odds.expected_throws(target, policy, _start_for(None, target, group))
            if isinstance(expected, Fraction):
                table["chain", target, policy, group] = expected
    for n in range(2, 9):
        for f in DIE_FACES:
            for k in range(1, n + 1):
                for at_least in (False, True):
                    if (at_least and k == n) or (n, f, k) == (5, 6, 5):
                        continue            # "at least all" is "all"; five of one face
                    wait = 1 / _hit_chance(n, f, lambda h, k=k, least=at_least:
                                           h >= k if least else h == k)
                    if wait <= LONGEST_WAIT:
                        table["rethrow", n, f, k, at_least] = wait
    return table


def _wait_working(target: str, policy: str, start: tuple[int, ...] | None) -> str:
    """The key's working for an expected wait: the chain's states and their waits."""
    chain = odds.chain(target, policy, start=start)
    try:
        chain = chain.lumped()
    except ValueError:
        pass
    return (f"The chain has {len(chain.states)} states before a throw; solving "
            "E = 1 + Q E from the fundamental matrix gives, from the start, "
            f"{show_value(chain.expected())} throws.")


def _panel_setting(target: str, policy: str, n: int | None,
                   start: tuple[int, ...] | None) -> str:
    """How to set the chain panel of section 2 for a question."""
    return (f"the chain panel of section 2 (target {_TARGET_WORDS[target]}, policy "
            f"{policy}" + (f", n = {n}" if n is not None else "")
            + (f", start {''.join(map(str, start))}" if start else "") + ")")


def _q1_exercise(n: int, f: int, event: str) -> Exercise:
    """Exercise 1: ``n`` dice of ``f`` faces thrown at once, all alike or all different."""
    words = _WORDS
    right = _one_throw_chance(n, f, event)
    every = "Both are" if n == 2 else f"All {words[n]} are"
    if (n, f, event) == (5, 6, "same"):
        question = ("Five dice are thrown at once. What is the chance that they show five of "
                    "a kind (any face)?")
    elif event == "same":
        question = (f"A game like Jactus is played with {_dice_words(n, f)}. {every} "
                    "thrown at once. What is the chance that they "
                    + (f"show {words[n]} of a kind (any face)?" if f == 6 else
                       "all show the same face (any face)?"))
    else:
        question = (f"A game like Jactus is played with {_dice_words(n, f)}. {every} "
                    "thrown at once. What is the chance that "
                    + ("no two of them show the same face?" if event == "different" else
                       "at least two of them show the same face?"))
    if event == "same":
        explanation = (f"Of the {f}^{n} = {f ** n} equally likely throws, {_say(f)} are {n} "
                       f"of a kind (one per face): {f} out of {f ** n}, {show_value(right)}.")
        hint = (f"Count the equally likely throws (one factor {f} per die) and how many of "
                f"them are {words[n]} of a kind.")
        mistakes = unique_mistakes(right, (
            Mistake(Fraction(1, f ** n), f"1/{f ** n} is the chance of one particular face "
                                         f"{words[n]} times, e.g. {words[n]} "
                                         f"{'sixes' if f == 6 else f'{f}s'}. Any of "
                                         f"the {_say(f)} faces will do, so it is "
                                         f"{f}/{f ** n}."),
            Mistake(Fraction(n, f ** n), f"The {n} is the number of dice; what multiplies "
                                         f"1/{f ** n} is the number of faces that can be "
                                         f"repeated: {_say(f)}.") if n != f else None,
            Mistake(Fraction(1, f), f"1/{f} would be the chance for the last die once the "
                                    "others already match; at the start all must match.")))
    elif event == "pair":
        falling = " × ".join(str(f - i) for i in range(n))
        explanation = (f"'At least two alike' is every throw but those with no face twice: "
                       f"{falling} = {math.perm(f, n)} of the {f}^{n} = {f ** n} equally "
                       f"likely throws, so 1 − {show_value(Fraction(math.perm(f, n), f ** n))}"
                       f" = {show_value(right)}.")
        hint = ("Count the throws with no face twice (how many faces are left for each die "
                "in turn?), and take their chance from 1.")
        mistakes = unique_mistakes(right, (
            Mistake(Fraction(math.perm(f, n), f ** n), "That is the chance that no two are "
                                                       "alike; take it from 1."),
            Mistake(Fraction(f, f ** n), "That is all of them alike; two alike are "
                                         "enough."),
            Mistake(Fraction(math.comb(n, 2), f), f"Adding 1/{f} for each of the "
                                                  f"{math.comb(n, 2)} pairs of dice counts "
                                                  "throws with several alike pairs more "
                                                  "than once.")
            if math.comb(n, 2) < f else None))
    else:
        falling = " × ".join(str(f - i) for i in range(n))
        explanation = (f"Of the {f}^{n} = {f ** n} equally likely throws, the first die may "
                       f"show any of {f} faces, the second any other, …: {falling} = "
                       f"{math.perm(f, n)} throws, so {math.perm(f, n)} out of {f ** n}: "
                       f"{show_value(right)}.")
        hint = ("Count the equally likely throws (one factor per die), then the throws with "
                "no face twice: how many faces are left for each die in turn?")
        mistakes = unique_mistakes(right, (
            Mistake(Fraction(math.factorial(n), f ** n),
                    f"{n}! counts only the orders of one set of {n} faces; the first die may "
                    f"show any of {f} faces, the next any of the other {f - 1}, …"),
            Mistake(1 - Fraction(f, f ** n), "'Not all the same' is not 'all different': "
                                             "two alike and the rest different is neither."),
            Mistake(Fraction(f - 1, f) ** (n - 1),
                    "That asks each die only to differ from the one before it; each must "
                    f"differ from all before it: {f - 1}/{f}, {f - 2}/{f}, …")))
    return Exercise(
        "q1", question, lambda: _one_throw_chance(n, f, event), explanation=explanation,
        hint=hint, params={"dice": n, "faces": f, "event": event}, mistakes=mistakes,
        # the pick-up panel of section 1 shows it: any five dice, all five picked up
        computer="the pick-up panel of section 1 (any five dice, pick up all five: 'you "
                 "score now'), or on paper: count the throws"
        if (n, f, event) == (5, 6, "same") else "")


def _q2_exercise(kept: int, thrown: int, f: int, event: str, face: int) -> Exercise:
    """Exercise 2: ``kept`` dice showing ``face`` stay, ``thrown`` dice of ``f`` faces are
    thrown; the chance of ``event`` (:data:`THROWN_EVENTS`) for that face."""
    words = _WORDS
    n = kept + thrown
    fk = f"{face}s"
    one = _a(face)
    stays = (f"One {face} stays" if kept == 1 else f"{words[kept].capitalize()} {fk} stay")
    everything = f"{words[n]} {fk}"
    asked = {"all": (f"all {words[thrown]} thrown dice show {one} {face} ({everything})"
                     if thrown > 2 else f"both thrown dice show {one} {face} ({everything})"
                     if thrown == 2 else f"the thrown die shows {one} {face} ({everything})"),
             "at least one": f"at least one of the {words[thrown]} thrown dice shows {one} "
                             f"{face}",
             "none": (f"none of the {words[thrown]} thrown dice shows {one} {face}"
                      if thrown > 1 else f"the thrown die does not show {one} {face}"),
             "exactly one": f"exactly one of the {words[thrown]} thrown dice shows {one} "
                            f"{face}",
             "exactly two": f"exactly two of the {words[thrown]} thrown dice show {one} "
                            f"{face}"}[event]
    game = "" if (n, f) == (5, 6) else f"A game like Jactus is played with {_dice_words(n, f)}. "
    rest = ("the fifth die" if (thrown, n) == (1, 5) else "the last die" if thrown == 1
            else f"the other {words[thrown]} dice" if f == 6 and n == 5
            else f"the other {words[thrown]}")
    p, q = Fraction(1, f), Fraction(f - 1, f)
    right = _thrown_chance(thrown, event, f)
    adding = Mistake(thrown * p, f"Adding 1/{f} {thrown} times gives the chance of 'one or "
                                 "the other' (and even that counts some throws twice); "
                                 f"every die must show {face}, so multiply.") \
        if thrown < f else None
    candidates = {
        "all": (adding,
                Mistake(1 - q ** thrown, f"That is the chance that at least one of the "
                                         f"{thrown} dice shows {one} {face}; all of them "
                                         "must."),
                Mistake(p ** (thrown + 1), f"That is for {thrown + 1} dice to throw; here "
                                           f"{thrown} are thrown.")),
        "at least one": (Mistake(thrown * p, f"Adding 1/{f} {thrown} times counts the throws "
                                             f"with two {fk} twice; take 1 minus the chance "
                                             f"that none shows {one} {face}.")
                         if thrown < f else None,
                         Mistake(p ** thrown, f"That is the chance that all {thrown} show "
                                              f"{one} {face}; one is enough."),
                         Mistake(q ** thrown, f"That is the chance that none shows {one} "
                                              f"{face}: take it from 1.")),
        "none": (Mistake(1 - thrown * p, f"Taking 1/{f} away once per die is not how "
                                         "independent chances combine: multiply the "
                                         "chances of missing.") if thrown < f else None,
                 Mistake(1 - q ** thrown, f"That is the chance that at least one shows "
                                          f"{one} {face}."),
                 Mistake(q, "That is one die; every thrown die must miss.")),
        "exactly one": (Mistake(p * q ** (thrown - 1), "That is one order (this die shows "
                                                       f"{one} {face}, the others not); any "
                                                       f"of the {thrown} dice can be the "
                                                       f"one: multiply by {thrown}."),
                        Mistake(1 - q ** thrown, "That is at least one; exactly one leaves "
                                                 "out two or more."),
                        Mistake(thrown * p, f"Adding 1/{f} {thrown} times forgets that the "
                                            "other dice must miss.") if thrown < f else None),
        "exactly two": (Mistake(p * p * q ** (thrown - 2), "That is one order (these two "
                                                           f"show {one} {face}, the others "
                                                           "not); the two can be any two of "
                                                           f"the {thrown}: "
                                                           f"C({thrown}, 2) = "
                                                           f"{math.comb(thrown, 2)} ways."),
                        Mistake(p * p, f"That is only the two dice showing {one} {face}; the "
                                       "others must miss, and any two can be the ones."),
                        Mistake(1 - q ** thrown - thrown * p * q ** (thrown - 1),
                                "That is at least two; exactly two leaves out three or "
                                "more."))}[event]
    explanation = {
        "all": f"Each of the {thrown} thrown dice must show {face}, independently: multiply "
               f"{thrown} chances of 1/{f}.",
        "at least one": f"None shows {one} {face} with ({f - 1}/{f})^{thrown} (multiply the "
                        "independent misses); at least one is everything else: 1 minus that.",
        "none": f"Each of the {thrown} dice misses the {face} with {f - 1}/{f}, "
                f"independently: ({f - 1}/{f})^{thrown}.",
        "exactly one": f"One order (one die shows {face}, the other {thrown - 1} miss) has "
                       f"(1/{f}) × ({f - 1}/{f})^{thrown - 1}; the die showing it can be any "
                       f"of the {thrown}: multiply by {thrown}.",
        "exactly two": f"One order has (1/{f})^2 × ({f - 1}/{f})^{thrown - 2}; the two dice "
                       f"can be any two of the {thrown}, C({thrown}, 2) = "
                       f"{math.comb(thrown, 2)} ways: multiply."}[event]
    hint = {"all": f"Every thrown die must show {one} {face}. Independent events: multiply.",
            "at least one": "'At least one' is everything except 'none': work out the "
                            "chance that every thrown die misses, and take it from 1.",
            "none": f"Every thrown die must miss the {face}. Independent events: multiply.",
            "exactly one": "Work out one order (this die shows it, the others miss), then "
                           "count which die can be the one.",
            "exactly two": "Work out one order (these two show it, the others miss), then "
                           "count which two dice can be the ones."}[event]
    return Exercise(
        "q2", f"{game}{stays} on the table; you throw {rest}. What is the chance that "
              f"{asked}?",
        lambda: _thrown_chance(thrown, event, f), explanation=explanation, hint=hint,
        params={"thrown": thrown, "event": event, "faces": f, "kept": kept, "face": face},
        mistakes=unique_mistakes(right, candidates),
        # the pick-up panel of section 1 shows it: the kept dice and any others typed in,
        # the others picked up ('you score now', target five of a kind)
        computer="the pick-up panel of section 1 (these dice kept, the others picked up: "
                 "'you score now'), or on paper: multiply"
        if (n, f, event) == (5, 6, "all") else "")


def _q3_exercise(missing: int, rounds: int, start: tuple[int, ...] | None) -> Exercise:
    """Exercise 3: Venus keeping the sixes, ``missing`` dice still to show one, within
    ``rounds`` throws (one throw: the class's, counted)."""
    words = _WORDS
    if rounds == 1:
        question = ("Venus (JA-8): five sixes. What is the chance of Venus with one throw of "
                    "all five dice?")
    elif start is None:
        question = (f"Venus (JA-8): five sixes. You may throw up to {_say(rounds)} times; "
                    "after each throw every six stays on the table and you throw the other "
                    f"dice again. What is the chance of Venus within the {_say(rounds)} "
                    "throws? (Give at least 3 significant figures.)")
    else:
        question = (f"Venus (JA-8): five sixes. The dice on the table show {_dice_text(start)} "
                    f"and it is your throw. You may throw up to {_say(rounds)} times; each "
                    "time every six stays on the table and you throw the other dice. What "
                    f"is the chance of Venus within the {_say(rounds)} throws? (Give at "
                    "least 3 significant figures.)")
    right = (1 - Fraction(5, 6) ** rounds) ** missing
    some = "all five dice" if missing == 5 else f"the {words[missing]} dice without a six"
    return Exercise(
        "q3", question,
        # one throw is counted (section 1); several are the chain panel's "chance within n
        # throws" (target the Venus, keep the target's faces), and the question says so
        (lambda: _fair_dice(5).chance(lambda dice: all(v == 6 for v in dice))) if rounds == 1
        else (lambda: odds.probability_within(rounds, "five-sixes", "keep-target",
                                              start=start)),
        computer=("the pick-up panel of section 1 (target the Venus, pick up all five: 'you "
                  "score now'), or on paper: count the throws") if rounds == 1 else
                 (_panel_setting("five-sixes", "keep-target", rounds, start)
                  + ", or on paper: follow one die"),
        explanation=("One throw in 6^5 = 7776 shows five sixes." if rounds == 1 else
                     "Keeping the sixes, each die on its own needs a six within "
                     f"{rounds} throws: 1 − (5/6)^{rounds}; the {words[missing]} dice "
                     f"without one do this independently, so (1 − (5/6)^{rounds})^{missing}."),
        hint=("Each die must show 6: multiply five chances of 1/6." if rounds == 1 else
              f"Follow one die: what is its chance of showing a six at least once in "
              f"{rounds} throws? The dice are independent."),
        params={"rounds": rounds, "missing": missing, "start": start},
        mistakes=unique_mistakes(right, (
            Mistake(Fraction(1, 1296), "1/1296 is any five of a kind; Venus needs the "
                                       "face 6, one of the six faces.") if missing == 5
            else None,
            Mistake(Fraction(5, 6 ** 5), "There is only one way for five dice to show "
                                         "five sixes; do not multiply by 5.") if missing == 5
            else None,
            Mistake(1 - (1 - Fraction(1, 6 ** missing)) ** rounds,
                    f"That rethrows {some} every time; keeping the sixes does far "
                    "better.") if rounds > 1 else None,
            Mistake(1 - Fraction(5, 6) ** rounds, "That is one die's chance of a six; all "
                                                  f"{words[missing]} dice need one.")
            if rounds > 1 and missing > 1 else None,
            Mistake(Fraction(1, 6 ** missing), f"That is one throw; you have {rounds}.")
            if rounds > 1 else None,
        )))


def _q4_exercise(target: str, policy: str, within: int,
                 start: tuple[int, ...] | None, computer: str) -> Exercise:
    """Exercise 4: the chance within ``within`` throws, from ``start``, by the chain."""
    words = {"five-of-a-kind": (("each time keeping the largest group of equal dice and "
                                 "throwing the rest"), "five of a kind"),
             "five-2-to-5": (("each time keeping the largest group of 2s, 3s, 4s or 5s and "
                              "throwing the rest"), ("five 2s, 3s, 4s or 5s (the dog throw "
                                                     "when dog_throws='other')"))}[target]
    if start is None and target == "five-of-a-kind":
        question = (f"A player throws up to {within} times, each time keeping the largest "
                    "group of equal dice and throwing the rest. What is the chance of five "
                    f"of a kind within the {within} throws? (Give at least 3 significant "
                    "figures.)")
    else:
        where = ("From the round's opening throw, a player" if start is None else
                 f"The dice on the table show {_dice_text(start)} and it is your throw. You")
        question = (f"{where} throw{'s' if start is None else ''} up to {within} times, "
                    f"{words[0]}. What is the chance of {words[1]} within the {within} "
                    "throws? (Give at least 3 significant figures.)")
    one_throw = odds.throw_chance((), target)
    rethrow = f"{one_throw.denominator - one_throw.numerator}/{one_throw.denominator}"
    right = odds.probability_within(within, target, policy, start=start)
    return Exercise(
        "q4", question, lambda: odds.probability_within(within, target, policy, start=start),
        explanation=f"Follow the chain for {within} throws from "
                    + ("'nothing kept'" if start is None else "the state these dice leave")
                    + " and read the 'scored' column.",
        hint="Use the chain panel of section 2 (its target, policy keep-largest or "
             "keep-target, n throws and start); by hand: start in the state the dice on "
             "the table give, multiply by the transition matrix once per throw, and read "
             "the 'scored' column.",
        computer=computer,
        working=lambda: "Scored within 1, 2, … throws: " + ", ".join(
            show_value(odds.probability_within(k, target, policy, start=start))
            for k in range(1, within + 1)) + ".",
        params={"within": within, "target": target, "policy": policy, "start": start},
        mistakes=unique_mistakes(right, (
            Mistake(lambda: odds.probability_within(within, target, "reroll-all"),
                    f"That is 1 - ({rethrow})^{within}: rethrowing all five dice every "
                    "time. Keeping the largest group does far better."),
            Mistake(within * one_throw, f"Adding {within} one-throw chances assumes all five "
                                        "dice are rethrown each time (and adding is only "
                                        "an approximation even then).")
            if within * one_throw < 1 else None,
            Mistake(lambda: odds.throws_distribution(within, target, policy,
                                                     start=start)[within - 1],
                    f"That is the chance that throw {within} is the first to score; "
                    f"'within {within} throws' also counts the earlier ones."),
        )))


def _q5_chain_exercise(target: str, policy: str, start: tuple[int, ...] | None) -> Exercise:
    """Exercise 5 by the chain: the expected number of throws from ``start``."""
    if start is None and target == "five-of-a-kind":
        question = ("Keeping the largest group every time, how many throws does it take "
                    "on average to throw five of a kind from the round's opening throw? "
                    "(3 significant figures.)")
    elif start is None:
        question = (f"From the round's opening throw, aiming for {_TARGET_WORDS[target]} and "
                    f"{_POLICY_WORDS[policy]} every time, how many throws does it take on "
                    "average? (3 significant figures.)")
    else:
        question = (f"The dice on the table show {_dice_text(start)} and it is your "
                    f"throw. Aiming for {_TARGET_WORDS[target]} and "
                    f"{_POLICY_WORDS[policy]} every time, how many throws does it take "
                    "on average? (3 significant figures.)")
    right = odds.expected_throws(target, policy, start=start)
    return Exercise(
        "q5", question, lambda: odds.expected_throws(target, policy, start=start),
        explanation="It comes from the chain's fundamental matrix (I - Q)^-1: "
                    "E_s = 1 + Σ_t Q_st E_t for every state s, solved together.",
        hint=("Use the chain panel of section 2: choose the target and the policy of the "
              "question" + (" and type these dice as its start" if start else "")
              + ", and read the expected number of throws. One throw is always made; "
              "every miss adds the wait from where it leaves you."),
        computer=_panel_setting(target, policy, None, start) if (start, target) != (
            None, "five-of-a-kind") else "the chain panel of section 2",
        working=lambda: _wait_working(target, policy, start),
        probability=False,
        params={"kind": "chain", "start": start, "target": target, "policy": policy},
        mistakes=unique_mistakes(Fraction(right), (
            Mistake(lambda: 1 / odds.throw_chance((), target), "That is 1 divided by the "
                    "chance of one throw of all five dice: rethrowing all five every time. "
                    "Keeping dice changes the chance from throw to throw."),
            Mistake(lambda: odds.expected_throws(target, policy, start=start) - 1,
                    "That counts the throws that miss; the throw that scores counts too."),
        )))


def _q5_rethrow_exercise(n: int, f: int, k: int, at_least: bool, face: int) -> Exercise:
    """Exercise 5 on paper: all ``n`` dice (``f`` faces) thrown every time until at least
    (or exactly) ``k`` show ``face``: the average wait 1/p."""
    words = _WORDS
    one = _a(face)
    until = (f"all {words[n]} show {one} {face}" if k == n else
             f"at least {words[k]} of them show {one} {face}" if at_least else
             f"exactly {words[k]} of them show {one} {face}")
    p = _hit_chance(n, f, lambda h: h >= k if at_least else h == k)
    exactly = _hit_chance(n, f, lambda h: h == k)
    or_more = _hit_chance(n, f, lambda h: h >= k)
    return Exercise(
        "q5", f"A game like Jactus is played with {_dice_words(n, f)}, but nobody keeps "
              f"dice: all {words[n]} are thrown every time, until {until}. How many throws "
              "does that take on average? (3 significant figures.)",
        lambda: 1 / _hit_chance(n, f, lambda h: h >= k if at_least else h == k),
        explanation=f"Every throw is alike (all {n} dice thrown), so each succeeds with the "
                    "same chance p: the chain has one state, E = 1 + (1 − p) E, so "
                    f"E = 1/p; here p = {show_value(p)}.",
        hint="Work out the chance p that one throw of all the dice succeeds (count the "
             "dice that may be the ones, and multiply). Every throw is alike, so the "
             "average wait is 1/p throws.",
        probability=False,
        params={"kind": "rethrow", "dice": n, "faces": f, "k": k, "at_least": at_least,
                "face": face},
        mistakes=unique_mistakes(1 / p, (
            Mistake(1 / p - 1, "That counts the throws that miss; the throw that scores "
                               "counts too."),
            Mistake(p, "That is the chance of one throw, not the wait."),
            Mistake(1 / exactly, f"That waits for exactly {k}; more than {k} will do too.")
            if at_least else None,
            Mistake(1 / or_more, f"That waits for at least {k}; here more than {k} does not "
                                 "count.") if not at_least and k < n else None,
            Mistake(Fraction(f ** k), f"That is 1 over the chance that {k} particular dice "
                                      f"show {one} {face}; any {k} of the {n} can be the "
                                      "ones" + ("" if at_least else
                                                ", and the others must miss it") + ".")
            if k < n else None,
        )))


def _jactus_odds(rng: np.random.Generator | None) -> list[Exercise]:
    """One throw and the Markov chain (lesson ``jactus-odds``). A student's numbers are
    drawn from wide spaces (other dice, other faces, other starts, other kinds of wait),
    each different answer as likely as the next and never the class's."""
    # q1: n dice of f faces, all alike or all different (the class: five of a kind)
    if rng is None:
        q1 = (5, 6, "same")
    else:
        q1 = _draw(rng, _one_throw_table(), _one_throw_chance(5, 6, "same"),
                   JACTUS_ODDS_FIGURES)
    # q2: dice thrown after some stay (the class: three 4s stay, both thrown show 4)
    if rng is None:
        thrown, f2, event = 2, 6, "all"
        kept, face2 = 3, 4
    else:
        thrown, f2, event = _draw(rng, _thrown_table(), Fraction(1, 36), JACTUS_ODDS_FIGURES)
        kept = 1 + int(rng.integers(8 - thrown))
        face2 = 1 + int(rng.integers(f2))
    # q3: the Venus keeping sixes (the class: one throw)
    if rng is None:
        missing, rounds, start3 = 5, 1, None
    else:
        missing, rounds = _draw(rng, _venus_table(), Fraction(1, 7776), JACTUS_ODDS_FIGURES)
        start3 = _start_for(rng, "five-sixes", 5 - missing)
    # q4: within n throws by the chain (the class: three throws from the opening)
    class_q4 = odds.probability_within(3, "five-of-a-kind", "keep-largest")
    if rng is None:
        target4, policy4, start4, within = "five-of-a-kind", "keep-largest", None, 3
        computer4 = "the chain panel of section 2 (or the transition matrix and a calculator)"
    else:
        target4, policy4, group4, within = _draw(rng, _within_table(), class_q4,
                                                 JACTUS_ODDS_FIGURES)
        start4 = _start_for(rng, target4, group4)
        computer4 = (_panel_setting(target4, policy4, within, start4)
                     + ", or the transition matrix and a calculator")
    # q5: an average wait, by the chain or (every die thrown every time) on paper
    class_q5 = Fraction(odds.expected_throws("five-of-a-kind", "keep-largest"))
    if rng is None:
        q5 = _q5_chain_exercise("five-of-a-kind", "keep-largest", None)
    else:
        kind = _draw(rng, _wait_table(), class_q5, JACTUS_ODDS_FIGURES)
        if kind[0] == "chain":
            _, target, policy, group = kind
            q5 = _q5_chain_exercise(target, policy, _start_for(rng, target, group))
        else:
            _, n5, f5, k5, at_least = kind
            q5 = _q5_rethrow_exercise(n5, f5, k5, at_least, 1 + int(rng.integers(f5)))
    return [_q1_exercise(*q1), _q2_exercise(kept, thrown, f2, event, face2),
            _q3_exercise(missing, rounds, start3),
            _q4_exercise(target4, policy4, within, start4, computer4), q5]


jactus_odds = ExerciseSet("jactus-odds", build=_jactus_odds)


# --- strategy and the next player (the second Jactus lesson) --------------------

def _leaves_count(faces: int, groups: tuple[int, ...], picked: tuple[int, ...]) -> Fraction:
    """"You miss, then the next player scores" in a game like Jactus with dice of
    ``faces`` faces: the dice lie in ``groups`` (group sizes, one face each), you pick up
    ``picked`` (the index of a group per die picked up) and throw those. Every result of
    the throw is counted, the thrown dice told apart by which kept face they match or which
    new face they show; a miss leaves the next player a best chance of
    (1/faces)^(dice − largest group) (keeping the largest group; throwing all is never
    better).

    >>> _leaves_count(6, (4, 1), (1,))      # 4 4 4 4 2, pick up the 2
    Fraction(5, 36)
    """
    n = sum(groups)
    kept = list(groups)
    for g in picked:
        kept[g] -= 1
    kept = [k for k in kept if k]
    m, fresh_faces = len(picked), faces - len(kept)
    total = 0

    def throw(i: int, counts: list[int], new: list[int], ways: int) -> None:
        nonlocal total
        if i == m:
            every = counts + new
            if len(every) > 1:              # five of a kind would score: you did not miss
                total += ways * faces ** max(every)
            return
        for j in range(len(counts)):        # a kept face again
            counts[j] += 1
            throw(i + 1, counts, new, ways)
            counts[j] -= 1
        for j in range(len(new)):           # a new face thrown before
            new[j] += 1
            throw(i + 1, counts, new, ways)
            new[j] -= 1
        if fresh_faces > len(new):          # a face not seen yet: any of those left
            throw(i + 1, counts, new + [1], ways * (fresh_faces - len(new)))

    throw(0, kept, [], 1)
    return Fraction(total, faces ** (m + n))


def _groups_of(n: int, parts: int, largest: int | None = None) -> list[tuple[int, ...]]:
    """``n`` dice as group sizes (largest first), at most ``parts`` groups, at least two."""
    return [p for p in _partitions(n, parts, largest) if len(p) > 1]


@lru_cache(maxsize=1)
def _leaves_table() -> dict[tuple[int, int, tuple[int, ...], tuple[int, ...]], Fraction]:
    """Exercise 1 for students: (dice, faces, groups, picked) → "you miss, then the next
    player scores", 3 to 8 dice of every size in :data:`DIE_FACES`, one or two dice
    picked up (what a page of working can list)."""
    table = {}
    for n in range(3, 9):
        for f in DIE_FACES:
            for groups in _groups_of(n, f):
                picks = {(g,) for g in range(len(groups))} | {
                    (g, h) for g in range(len(groups)) for h in range(g, len(groups))
                    if g != h or groups[g] > 1}
                for picked in picks:
                    table[n, f, groups, picked] = _leaves_count(f, groups, picked)
    return table


def _leaves_working(dice: tuple[int, ...], picked: tuple[int, ...], faces: int = 6) -> str:
    """The key's working for "you miss, then the next player scores": every way the
    throw can miss, grouped by what it leaves, with the next player's best chance."""
    kept = list(dice)
    for die in picked:
        kept.remove(die)
    groups: dict[Fraction, Fraction] = {}
    model = odds.DiceModel("dice", tuple(range(1, faces + 1)),
                           (Fraction(1, faces),) * faces, len(picked))
    for thrown, p in model.outcomes():
        after = kept + list(thrown)
        if len(set(after)) == 1:
            continue
        best = Fraction(1, faces ** (len(dice) - max(Counter(after).values())))
        groups[best] = groups.get(best, Fraction(0)) + p
    parts = [f"you miss and leave the next player a best chance of {show_value(best)} "
             f"with probability {show_value(p)}" for best, p in
             sorted(groups.items(), reverse=True)]
    total = sum((p * best for best, p in groups.items()), Fraction(0))
    return ("Your throw: " + "; ".join(parts) + ". Multiply each chance of leaving by "
            f"the next player's chance and add: {show_value(total)}.")


def _seat_share(players: int, seat: int, face: int) -> Fraction:
    """The chance that seat ``seat`` (0 = the first to throw) scores the round, four
    ``face``s lying on the table and everybody keeping them, from the chain."""
    other = 2 if face != 2 else 3
    chances = odds.chain("five-of-a-kind", ["keep-largest"] * players,
                         start=(other,) + (face,) * 4).seat_chances()
    return chances[seat]


def _lap_share(faces: int, players: int, seat: int, turns: int = 0) -> Fraction:
    """The chance that seat ``seat`` scores, every throw of the fifth die (``faces``
    faces) scoring with the same chance p: with its first ``turns`` throws (0: the whole
    round), a geometric series of laps.

    >>> _lap_share(6, 2, 0), _lap_share(6, 2, 1, turns=1)
    (Fraction(6, 11), Fraction(5, 36))
    """
    p = Fraction(1, faces)
    miss = 1 - p
    laps = 1 - miss ** (players * turns) if turns else Fraction(1)
    return miss ** seat * p * laps / (1 - miss ** players)


#: Exercise 2's events for the fifth die thrown up to t times: five alike within the t
#: throws, first on throw t, not yet after t throws.
FIFTH_DIE_EVENTS = ("within", "first", "missing")


def _fifth_die_chance(faces: int, tries: int, event: str) -> Fraction:
    """The chance of ``event`` (:data:`FIFTH_DIE_EVENTS`) for the fifth die, thrown up to
    ``tries`` times, showing the kept face with chance 1/``faces`` each time.

    >>> _fifth_die_chance(6, 2, "within"), _fifth_die_chance(6, 2, "first")
    (Fraction(11, 36), Fraction(5, 36))
    """
    p = Fraction(1, faces)
    return {"within": 1 - (1 - p) ** tries, "first": (1 - p) ** (tries - 1) * p,
            "missing": (1 - p) ** tries}[event]


@lru_cache(maxsize=1)
def _fifth_die_table() -> dict[tuple[int, int, str], Fraction]:
    """Exercise 2 for students: (faces, throws, event) → the chance, 2 to 15 throws."""
    return {(f, t, e): _fifth_die_chance(f, t, e) for f in DIE_FACES for t in range(2, 16)
            for e in FIFTH_DIE_EVENTS}


@lru_cache(maxsize=1)
def _seat_table() -> dict[tuple[int, int, int, int], Fraction]:
    """Exercise 3 for students: (faces, players, seat, turns) → the seat's chance, 2 to
    6 players (JA-2), the whole round (turns 0) or the first 2 or 3 throws."""
    return {(f, p, s, k): _lap_share(f, p, s, k) for f in DIE_FACES for p in range(2, 7)
            for s in range(p) for k in (0, 2, 3)}


def _strategy_q1(n: int, f: int, groups: tuple[int, ...], picked_groups: tuple[int, ...],
                 faces_of: tuple[int, ...]) -> Exercise:
    """Exercise 1: what a pick-up leaves the next player."""
    dice = tuple(faces_of[g] for g, size in enumerate(groups) for _ in range(size))
    picked = tuple(faces_of[g] for g in picked_groups)
    kept = list(dice)
    for die in picked:
        kept.remove(die)
    on_panel = (n, f) == (5, 6)
    pickup = next(p for p in odds.pickups(dice) if p.picked == tuple(sorted(picked))) \
        if on_panel else None
    right = pickup.leaves if pickup else _leaves_count(f, groups, picked_groups)
    chance = (Fraction(1, f ** len(picked)) if len(set(kept)) == 1 else Fraction(0))
    game = "" if on_panel else (f"A game like Jactus is played with {_dice_words(n, f)}; "
                                f"{_WORDS[n]} of a kind scores. ")
    mistakes = [Mistake(1 - chance, f"{show_value(1 - chance)} is only the chance that you "
                                    "miss; the next player must then score too.")]
    if chance:
        mistakes.append(Mistake(chance, "That is your own chance to score with this throw, "
                                        "not the next player's."))
    if (dice, picked) == ((4, 4, 4, 4, 2), (2,)):             # the class's
        mistakes = [Mistake(Fraction(1, 6), "1/6 is the next player's chance once you "
                                            "have missed; you miss only 5 times in 6, "
                                            "so multiply by 5/6."),
                    Mistake(Fraction(5, 6), "5/6 is only the chance that you miss."),
                    Mistake(Fraction(1, 36), "1/36 is you scoring and then them "
                                             "scoring, which cannot happen: a scoring "
                                             "throw ends the round.")]
    return Exercise(
        "q1", f"{game}The dice show {_dice_text(dice)}. You pick up "
              + (f"the {picked[0]} and throw it" if len(picked) == 1 else
                 f"{' and '.join(map(str, picked))} and throw them" if on_panel else
                 f"two {picked[0]}s and throw them" if picked[0] == picked[1] else
                 f"the {picked[0]} and the {picked[1]} and throw them")
              + ". What is the chance that you miss AND the next player then scores with "
                "their one throw (playing their best pick-up)?",
        (lambda: pickup.leaves) if pickup else
        (lambda: _leaves_count(f, groups, picked_groups)),
        explanation="For each way your throw can miss, the next player's best chance from "
                    "what you leave; multiply by the chance of leaving it, and add.",
        working=lambda: _leaves_working(dice, picked, f),
        hint="First you must miss; then the next player's best chance from what you "
             "leave. List the ways of missing by what they leave; multiply and add.",
        # the pick-up panel of section 1 shows every pick-up's "leaves" for any five dice
        # typed in, these included: the question says so
        computer="the pick-up panel of section 1, these dice typed in (or on paper: list "
                 "the ways of missing)" if on_panel else "",
        params={"dice": dice, "picked": picked, "faces": f},
        mistakes=unique_mistakes(right, mistakes))


def _strategy_q2(f: int, tries: int, event: str, face: int) -> Exercise:
    """Exercise 2: four alike kept, the fifth die thrown up to ``tries`` times."""
    fk = f"{face}s"
    one = _a(face)
    lie = ("Four" if f == 6 else f"In a game like Jactus played with {f}-sided dice (faces "
           f"1 to {f}, each equally likely), four") + f" {fk} lie on the table"
    asked = {"within": f"What is the chance of five {fk} within the {tries} throws?",
             "first": f"What is the chance that the fifth {face} comes with throw {tries}, "
                      "and not before?",
             "missing": f"What is the chance that there are still not five {fk} after the "
                        f"{tries} throws?"}[event]
    p, q = Fraction(1, f), Fraction(f - 1, f)
    right = _fifth_die_chance(f, tries, event)
    candidates = {
        "within": (Mistake(tries * p, f"Adding 1/{f} {tries} times counts the runs with "
                                      f"several {fk} more than once; use 1 - (chance of "
                                      "missing every time).") if tries < f else None,
                   Mistake(q ** (tries - 1) * p, "That is missing every time and scoring "
                                                 "only at the last throw; scoring earlier "
                                                 "counts too."),
                   Mistake(p ** tries, f"That is {one} {face} every time; one is enough.")),
        "first": (Mistake(q ** tries * p, f"That is {tries} misses and then a hit: the hit "
                                          f"is throw {tries} itself, after {tries - 1} "
                                          "misses."),
                  Mistake(1 - q ** tries, "That is within the throws; here the earlier "
                                          "throws must all miss."),
                  Mistake(q ** (tries - 1), f"That is only the {tries - 1} misses before; "
                                            f"throw {tries} must then hit.")),
        "missing": (Mistake(1 - q ** tries, f"That is the chance of five {fk} within the "
                                            "throws; this asks for the opposite."),
                    Mistake(q ** (tries - 1), f"That is {tries - 1} misses; all {tries} "
                                              "throws must miss."),
                    Mistake(1 - tries * p, f"Taking 1/{f} away once per throw is not how "
                                           "independent chances combine: multiply the "
                                           "chances of missing.") if tries < f else None)}
    explanation = {
        "within": f"You fail only if all {tries} throws miss: 1 - ({f - 1}/{f})^{tries}.",
        "first": f"The first {tries - 1} throws miss and throw {tries} hits: "
                 f"({f - 1}/{f})^{tries - 1} × 1/{f}.",
        "missing": f"Every one of the {tries} throws misses, independently: "
                   f"({f - 1}/{f})^{tries}."}[event]
    hint = {"within": f"Work out the chance of missing {tries} times in a row, and take it "
                      "from 1.",
            "first": "The throws before it must miss, and this one must hit: independent "
                     "throws, multiply.",
            "missing": "Every throw must miss: independent throws, multiply."}[event]
    return Exercise(
        "q2", f"{lie} and you may throw the fifth die {tries} times (keeping the {fk}). "
              f"{asked}",
        (lambda: odds.probability_within(tries, "five-of-a-kind", "keep-largest",
                                         start=(2 if face != 2 else 3,) + (face,) * 4))
        if (f, event) == (6, "within") else (lambda: _fifth_die_chance(f, tries, event)),
        explanation=explanation, hint=hint,
        params={"tries": tries, "faces": f, "event": event, "face": face},
        mistakes=unique_mistakes(right, candidates[event]))


def _strategy_q3(f: int, players: int, seat: int, turns: int, face: int) -> Exercise:
    """Exercise 3: a seat's chance, four alike kept by everybody, a geometric series."""
    fk = f"{face}s"
    other = 2 if face != 2 else 3
    seat_name = "ABCDEF"[seat]
    game = "" if f == 6 else (f"A game like Jactus played with {f}-sided dice (faces 1 to {f}, "
                              "each equally likely): ")
    you = ("What is the chance that YOU score the round?" if not turns else
           f"What is the chance that YOU score with one of your first {_WORDS[turns]} "
           "throws?")
    question = (f"{game}{players} players, four {fk} on the table, your turn. Everybody always "
                f"keeps the four {fk} and throws the fifth die. {you}") if seat == 0 else (
                f"{game}{players} players, four {fk} and {_a(other)} {other} on the table; "
                f"seat A throws first, then B, C, … in turn. Everybody always keeps the four "
                f"{fk} and throws the fifth die. You are seat {seat_name}, the "
                f"{_ORDINALS[seat + 1]} to throw. {you}")
    p, q = Fraction(1, f), Fraction(f - 1, f)
    right = _lap_share(f, players, seat, turns)
    mistakes: list[Mistake | None] = [
        Mistake(Fraction(1, players), "The player who throws first has the edge: the seats "
                                      "are not equal.") if not turns else None]
    if seat == 0:
        mistakes += [Mistake(p, f"1/{f} is only your first throw; if everybody misses, you "
                                "get another go."),
                     Mistake(lambda: _lap_share(f, players, 1, turns),
                             "That is the chance of the player after you.")]
    else:
        mistakes += [Mistake(lambda: _lap_share(f, players, 0, turns),
                             "That is seat A's chance, the first to throw; you throw "
                             f"after {seat} player{'s' if seat > 1 else ''} missed."),
                     Mistake(q ** seat * p,
                             "That is only your first throw; if everybody misses, you "
                             "get another go: add the laps.")]
    if turns:
        mistakes += [Mistake(lambda: _lap_share(f, players, seat),
                             f"That counts every lap of the round; only your first {turns} "
                             "throws count here."),
                     Mistake(q ** (seat + (turns - 1) * players) * p,
                             f"That is only your throw number {turns}; the earlier ones "
                             "count too."),
                     Mistake(turns * q ** seat * p,
                             "Adding your first throw's chance again for each throw forgets "
                             "that everybody must miss a whole lap in between.")]
    series = "(1/6) / (1 - (5/6)^{P})" if f == 6 else f"(1/{f}) / (1 - ({f - 1}/{f})^{{P}})"
    explanation = ((f"You score on throws 1, {players + 1}, {2 * players + 1}, …: "
                    f"1/{f} + ({f - 1}/{f})^{players} (1/{f}) + … = "
                    + series.format(P=players) + ".") if seat == 0 else
                   (f"You first throw after {seat} miss{'es' if seat > 1 else ''}: "
                    f"({f - 1}/{f})^{seat} (1/{f}) on your first throw, and every lap of "
                    f"{players} misses multiplies by ({f - 1}/{f})^{players}: "
                    f"({f - 1}/{f})^{seat} (1/{f}) / (1 - ({f - 1}/{f})^{players})."))
    if turns:
        explanation += (f" Only the first {turns} laps count: multiply by "
                        f"1 - ({f - 1}/{f})^{players * turns}.")
    return Exercise(
        "q3", question,
        (lambda: _seat_share(players, seat, face)) if (f, turns) == (6, 0) else
        (lambda: _lap_share(f, players, seat, turns)),
        explanation=explanation,
        hint="Add up the chances of scoring on your first throw, on your second (every "
             "player missed once), … : a geometric series.",
        params={"players": players, "seat": seat, "faces": f, "turns": turns, "face": face},
        mistakes=unique_mistakes(right, mistakes))


def _jactus_strategy(rng: np.random.Generator | None) -> list[Exercise]:
    """Strategy and the next player (lesson ``jactus-strategy``). A student's numbers are
    drawn from wide spaces (other dice, other faces, other pick-ups, players and seats),
    each different answer as likely as the next and never the class's."""
    if rng is None:
        q1 = _strategy_q1(5, 6, (4, 1), (1,), (4, 2))
        q2 = _strategy_q2(6, 2, "within", 4)
        q3 = _strategy_q3(6, 2, 0, 0, 4)
        return [q1, q2, q3]
    box = frozenset({BOX_EXAMPLE})
    n, f, groups, picked = _draw(rng, _leaves_table(), Fraction(5, 36), box)
    faces_of = tuple(int(x) + 1 for x in rng.permutation(f)[:len(groups)])
    f2, tries, event = _draw(rng, _fifth_die_table(), Fraction(11, 36), box)
    f3, players, seat, turns = _draw(rng, _seat_table(), Fraction(6, 11), box)
    return [_strategy_q1(n, f, groups, picked, faces_of),
            _strategy_q2(f2, tries, event, 1 + int(rng.integers(f2))),
            _strategy_q3(f3, players, seat, turns, 1 + int(rng.integers(f3)))]


jactus_strategy = ExerciseSet("jactus-strategy", build=_jactus_strategy)


# --- the Roman dice lesson --------------------------------------------------------------


def _pattern_words(counts: dict[int, int]) -> str:
    parts = []
    for face, k in sorted(counts.items(), key=lambda fk: (-fk[1], fk[0])):
        parts.append(f"a {face}" if k == 1 else f"{_WORDS[k]} {face}s")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _tali_pattern_chance(counts: dict[int, int]) -> Fraction:
    """The chance that fair tali (as many as ``counts`` adds up to) show exactly the faces
    ``counts`` (face → how many), in any order: the orders of these faces, each with
    chance (1/4)^n.

    >>> _tali_pattern_chance({1: 1, 3: 1, 4: 1, 6: 1})
    Fraction(3, 32)
    """
    return Fraction(_orders(counts), 4 ** sum(counts.values()))


def _orders(counts: dict[int, int]) -> int:
    n = sum(counts.values())
    return math.factorial(n) // math.prod(math.factorial(k) for k in counts.values())


def _partitions(n: int, parts: int, largest: int | None = None) -> list[tuple[int, ...]]:
    """``n`` as a sum of at most ``parts`` whole numbers, largest first.

    >>> _partitions(4, 4)
    [(4,), (3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1)]
    """
    if n == 0:
        return [()]
    largest = n if largest is None else largest
    return [(first,) + rest for first in range(min(n, largest), 0, -1) if parts
            for rest in _partitions(n - first, parts - 1, first)]


#: Exercise 1's throws for students: 3 to 10 tali, and how often each face comes (the
#: faces themselves drawn later).
TALI_THROWS = tuple((n, pattern) for n in range(3, 11) for pattern in _partitions(n, 4))
#: Exercise 2: (tali thrown, how many of them show the dog's face 1).
DOG_COUNTS = tuple((n, k) for n in range(2, 13) for k in range(1, n + 1))
#: Exercise 3: (tesserae thrown, the face each must reach or beat).
TESSERA_FLOORS = tuple((n, m) for n in range(3, 21) for m in range(2, 7))
#: Exercise 5: (2 to 6 tesserae thrown, the total, whether "at least" it or exactly it).
WAIT_TOTALS = tuple((n, t, least) for n in (2, 3, 4, 5, 6) for t in range(n, 6 * n + 1)
                    for least in (False, True) if not (least and t == n))


def _dice_total(dice: int, total: int, at_least: bool = False) -> Fraction:
    """The chance that ``dice`` fair tesserae add up to ``total`` (or more)."""
    return _fair_dice(dice).chance(
        lambda thrown: sum(thrown) >= total if at_least else sum(thrown) == total)


def _total_ways(dice: int, total: int, at_least: bool = False) -> int:
    """How many of the 6^dice results add up to ``total`` (or more), counted by sums."""
    ways = [1]
    for _ in range(dice):
        ways = [sum(ways[s - f] for f in range(1, 7) if 0 <= s - f < len(ways))
                for s in range(len(ways) + 6)]
    return sum(ways[total:]) if at_least else ways[total]


def _venus_in_tenths(tenths: tuple[int, ...]) -> Fraction:
    return 24 * Fraction(math.prod(tenths), 10 ** 4)


def _venus_in_percent(percent: tuple[int, ...]) -> Fraction:
    return 24 * Fraction(math.prod(percent), 100 ** 4)


#: Chances a student's exercise 4 must not have: the class's Venus, and every chance the
#: lesson's tali panel shows as it opens (Winkelman's 1 : 4 : 4 : 1, all 35 kinds of throw).
_SHOWN_TALI = frozenset({_venus_in_tenths((2, 3, 3, 2))} | {
    p for _, p, _ in roman.tali(weights=roman.KNUCKLEBONE_STUDY_WEIGHTS).outcomes()})


_CLASS_VENUS = _venus_in_tenths((2, 3, 3, 2))
_CLASS_RULE = SignificantFigures(3)


@lru_cache(maxsize=1)
def _venus_splits() -> tuple[tuple[int, int, int, int], ...]:
    """Exercise 4's chances of the faces 1, 3, 4, 6 for students, in percent (each 5 to
    45%, adding up to 100): one split for each different Venus, none the class's nor one
    the lesson's panels show."""
    seen: dict[Fraction, tuple[int, int, int, int]] = {}
    for a in range(5, 46):
        for b in range(5, 46):
            for c in range(5, 46):
                d = 100 - a - b - c
                if 5 <= d <= 45:
                    venus = _venus_in_percent((a, b, c, d))
                    if venus not in _SHOWN_TALI and not _CLASS_RULE.allows(venus,
                                                                           _CLASS_VENUS):
                        seen.setdefault(venus, (a, b, c, d))
    return tuple(seen[v] for v in sorted(seen))


#: What exercises 1 and 2 need when they ask about four tali: the tali panel answers
#: them for fair tali.
_TALI_TABLE = ("the tali panel of 'Where 1 : 4 : 4 : 1 comes from', every face's weight "
               "equal (its table of all 35 kinds of throw), or on paper: count the orders")


def _roman_dice(rng: np.random.Generator | None) -> list[Exercise]:
    """The Roman tali and tesserae (lesson ``roman-dice``). A student's numbers are drawn
    from wide spaces, each different answer as likely as the next and never the class's
    (:func:`~janus_widgets.analysis.checking.spread`)."""
    # q1: how many tali, and which faces they show (the class: the Venus of four tali)
    if rng is None:
        counts = {1: 1, 3: 1, 4: 1, 6: 1}
    else:
        _, pattern = spread(rng, TALI_THROWS, lambda t: Fraction(
            math.factorial(t[0]) // math.prod(math.factorial(k) for k in t[1]), 4 ** t[0]),
            avoid={Fraction(3, 32), BOX_EXAMPLE})
        faces = list(rng.permutation(roman.TALI_FACES))
        counts = {int(f): k for f, k in zip(faces, pattern)}
    n_tali = sum(counts.values())
    venus = len(counts) == 4 and n_tali == 4
    orders = _orders(counts)
    results = 4 ** n_tali
    # q2: tali thrown, and how many show the dog's face (the class: all four, the dog)
    tali, dogs = (4, 4) if rng is None else spread(
        rng, DOG_COUNTS, lambda t: math.comb(t[0], t[1]) * Fraction(1, 4) ** t[1]
        * Fraction(3, 4) ** (t[0] - t[1]), avoid={Fraction(1, 256), BOX_EXAMPLE})
    # q3: tesserae thrown and the face each must reach (the class: three sixes)
    tesserae, floor = (3, 6) if rng is None else spread(
        rng, TESSERA_FLOORS, lambda t: Fraction(7 - t[1], 6) ** t[0],
        avoid={Fraction(1, 216), BOX_EXAMPLE})
    # q5: (tesserae thrown, the total, at least or exactly); never two dice's 12, the
    # page's double six
    wait_dice, total, at_least = (2, 7, False) if rng is None else spread(
        rng, [w for w in WAIT_TOTALS if w[:2] != (2, 12)],
        lambda w: Fraction(6 ** w[0], _total_ways(*w)), avoid={Fraction(6)})
    # q4: the chances of the faces 1, 3, 4, 6. The Venus depends only on their product;
    # never the study's 1 : 4 : 4 : 1 (the lesson's panels show its Venus) nor the class's.
    if rng is None:
        tenths: tuple[int, ...] = (2, 3, 3, 2)
        shares, scale = tenths, 10
    else:
        percent = _venus_splits()[int(rng.integers(len(_venus_splits())))]
        shares, scale = percent, 100
        tenths = percent
    weights = dict(zip((1, 3, 4, 6), shares))
    one_order = Fraction(math.prod(shares), scale ** 4)
    shown_shares = ", ".join(f"{x}/{scale}" if scale == 10 else f"{x}%" for x in shares)
    ways = _total_ways(wait_dice, total, at_least)
    throw_results = 6 ** wait_dice
    reach = f"at least {total}" if at_least else f"{total}"
    tw = _WORDS[n_tali]
    q1_mistakes = [Mistake(Fraction(1, results), f"1/{results} is one particular order (a "
                                                 f"{min(counts)} on the first talus, …); "
                                                 "count the orders of these faces" + (
                                                     ": any of the 4! = 24 orders is a "
                                                     "Venus." if venus else "."))] \
        if orders > 1 else [Mistake(Fraction(4, results), f"That is {tw} of a kind of any "
                                                          "face; here the face is named.")]
    if len(counts) == n_tali:
        q1_mistakes.append(Mistake(Fraction(1, orders), f"{orders} counts the orders of the "
                                                        "faces, but it is the number of "
                                                        "good results, not of all results: "
                                                        f"{orders}/{results}."))
    elif orders > 1 and n_tali <= len(roman.TALI_FACES):
        q1_mistakes.append(Mistake(Fraction(math.factorial(n_tali), results),
                                   f"{n_tali}! orders are for {tw} different faces; swapping "
                                   "two equal faces gives the same throw, so there are fewer "
                                   "orders."))
    one = Fraction(1, 4)
    dog_right = math.comb(tali, dogs) * one ** dogs * (3 * one) ** (tali - dogs)
    dog_words = (("With the same four tali, what is the chance of the dog (canis): all four "
                  "show 1?") if (tali, dogs) == (4, 4) else
                 (f"Some games used more or fewer tali. With {_WORDS[tali]} tali, each "
                  "landing on 1, 3, 4 or 6 with equal chances, what is the chance that "
                  + ("both show 1?" if tali == dogs == 2 else
                     f"all {_WORDS[tali]} show 1 (the dog)?" if dogs == tali else
                     f"exactly {_WORDS[dogs]} of them show 1 (and the other"
                     + ("" if tali - dogs == 1 else "s") + " something else)?")))
    at_least_face = "a six" if floor == 6 else f"{floor} or more"
    q3_right = Fraction(7 - floor, 6) ** tesserae
    return [
    Exercise(
        "q1", ("Four tali, each landing on 1, 3, 4 or 6 with equal chances (the model). "
               "What is the chance of the Venus throw, all four faces different?") if venus
        else (f"{tw.capitalize()} tali, each landing on 1, 3, 4 or 6 with equal chances "
              f"(the model). What is the chance that they show {_pattern_words(counts)}, "
              "in any order?"),
        lambda: _tali_pattern_chance(counts),
        explanation=("4 × 4 × 4 × 4 = 256 equally likely results; the faces 1, 3, 4, 6 "
                     "can fall in 4! = 24 orders: 24/256 = 3/32.") if venus else
                    (f"4^{n_tali} = {results} equally likely results; these faces can fall "
                     f"in {n_tali}! / "
                     f"({' × '.join(str(math.factorial(k)) for k in counts.values())}) "
                     f"= {orders} different orders, so {orders} out of {results}: "
                     f"{show_value(Fraction(orders, results))}."),
        hint="Count the ordered results (4 per talus, multiplied) and the different orders "
             "of these faces (swapping two equal faces changes nothing).",
        params={"counts": counts, "tali": n_tali},
        # four tali: the tali panel's table of all 35 kinds of throw holds this one (every
        # weight equal); the question says so
        computer=_TALI_TABLE if n_tali == 4 else "",
        mistakes=unique_mistakes(_tali_pattern_chance(counts), q1_mistakes)),
    Exercise(
        "q2", dog_words,
        lambda: math.comb(tali, dogs) * odds.DiceModel(
            "tali", roman.TALI_FACES, (Fraction(1, 4),) * 4, 1).chance(
                lambda dice: dice[0] == 1) ** dogs * odds.DiceModel(
            "tali", roman.TALI_FACES, (Fraction(1, 4),) * 4, 1).chance(
                lambda dice: dice[0] != 1) ** (tali - dogs),
        explanation=(f"Each talus shows 1 with chance 1/4, independently: (1/4)^{tali}."
                     if dogs == tali else
                     f"One way for exactly {dogs} of {tali} to show 1: (1/4)^{dogs} × "
                     f"(3/4)^{tali - dogs}; the tali showing 1 can be any {dogs} of the "
                     f"{tali}, C({tali}, {dogs}) = {math.comb(tali, dogs)} ways: multiply."),
        hint=("Every talus must show 1: multiply." if dogs == tali else
              "Work out one order (these tali 1, the others not), then count which tali "
              "can be the ones showing 1."),
        params={"tali": tali, "dogs": dogs},
        # four tali: the tali panel shows the dog, and its table the throws with k 1s
        computer=(_TALI_TABLE.replace("(its table", "(the dog, or the rows of its table")
                  if tali == 4 else ""),
        mistakes=unique_mistakes(dog_right, (
            Mistake(one ** (tali - 1), f"That is {tali - 1} tali showing 1 (or all {tali} "
                                       f"showing the same face, any face); all {tali} must "
                                       "show 1.") if dogs == tali else None,
            Mistake(one ** (tali + 1), f"That is {tali + 1} tali; there are {tali}.")
            if dogs == tali else None,
            Mistake(Fraction(3, 32), "3/32 is the Venus, four different faces.")
            if (tali, dogs) == (4, 4) else None,
            Mistake(one ** dogs, f"That is only the {dogs} tali showing 1; the others must "
                                 "miss it, and any of the tali can be the ones.")
            if dogs < tali else None,
            Mistake(one ** dogs * (3 * one) ** (tali - dogs),
                    "That is one order; count which tali can be the ones showing 1.")
            if dogs < tali else None,
        ))),
    Exercise(
        "q3", ("Three cube dice (tesserae): what is the chance of the Venus, three sixes?"
               if (tesserae, floor) == (3, 6) else
               f"{_WORDS[tesserae].capitalize()} cube dice (tesserae): what is the chance "
               f"that every one of the {_WORDS[tesserae]} shows {at_least_face}?"),
        lambda: _fair_dice(tesserae).chance(lambda dice: all(v >= floor for v in dice))
        if tesserae <= 6 else _fair_dice(1).chance(lambda d: d[0] >= floor) ** tesserae,
        explanation=(f"One result in 6^{tesserae} = {6 ** tesserae}." if floor == 6 else
                     f"Each die shows {at_least_face} with {7 - floor}/6, independently: "
                     f"({7 - floor}/6)^{tesserae}."),
        hint=f"All {_WORDS[tesserae]} dice must show {at_least_face}: multiply.",
        params={"tesserae": tesserae, "floor": floor},
        # three sixes: the waiting panel's chance within one throw of three tesserae
        computer="the waiting panel of 'Tesserae, the name \"Venus\", and waiting' (three "
                 "tesserae, waiting for the Venus, n = 1: the chance within one throw), or "
                 "on paper: multiply" if (tesserae, floor) == (3, 6) else "",
        mistakes=unique_mistakes(q3_right, (
            Mistake(tesserae * Fraction(1, 6) ** tesserae, "All sixes can fall in only one "
                                                          f"way; do not multiply by "
                                                          f"{tesserae}.") if floor == 6
            else None,
            Mistake(Fraction(tesserae * (7 - floor), 6), "Adding the dice's chances gives "
                                                         "nonsense; multiply.")
            if tesserae * (7 - floor) < 6 else None,
            Mistake(Fraction(7 - floor, 6) ** (tesserae - 1), f"That is {tesserae - 1} dice; "
                                                              f"all {tesserae} must.")),
        )),
    Exercise(
        "q4", "Real knucklebones are not fair. Suppose the faces 1, 3, 4, 6 come up "
              f"with chances {shown_shares}. What is the chance of the Venus now?",
        lambda: roman.tali(weights=weights).odds()["venus"],
        explanation=f"Each order of 1, 3, 4, 6 has chance {' × '.join(shown_shares.split(', '))}, "
                    "and there are 24 orders.",
        hint="Work out the chance of one order of the four faces, then count the orders "
             "(the tali panel gives the same chance once its weights are these chances).",
        # the tali panel of "Where 1 : 4 : 4 : 1 comes from" shows the Venus for any
        # weights, these included: the question says so rather than pretend it is paper only
        computer="the tali panel of 'Where 1 : 4 : 4 : 1 comes from', its weights set to "
                 "these chances (or on paper: one order's chance times the orders)",
        params={"tenths": tenths, "scale": scale},
        mistakes=unique_mistakes(24 * one_order, (
            Mistake(Fraction(3, 32), "3/32 is for fair tali; with these chances the "
                                     "faces do not come up equally often."),
            Mistake(one_order, "That is one order; there are 24 orders."),
        ))),
    Exercise(
        "q5", f"A Roman throws {_WORDS[wait_dice]} tesserae again and again until "
              f"they add up to {reach}. How many throws does that take on average?",
        lambda: 1 / _dice_total(wait_dice, total, at_least),
        explanation=f"{ways} of the {throw_results} equally likely results of "
                    f"{_WORDS[wait_dice]} dice add up to {reach}, so each throw "
                    f"succeeds with {ways}/{throw_results}, independently: on average "
                    f"{throw_results}/{ways} throws (the chain has one state: E = 1 + "
                    f"(1 − p) E, so E = 1/p).",
        hint=f"Count the results of {_WORDS[wait_dice]} dice that add up to {reach}. "
             "If every throw succeeds with chance p, the average wait is 1/p throws.",
        probability=False,
        params={"dice": wait_dice, "total": total, "at_least": at_least},
        # three sixes (18) or three 1s (3) with three tesserae: the waiting panel's Venus
        # and dog
        computer="the waiting panel of 'Tesserae, the name \"Venus\", and waiting' (three "
                 "tesserae, the Venus or the dog, no dice kept: the average number of "
                 "throws), or on paper: 1/p" if wait_dice == 3 and (
                     total == 18 or (total == 3 and not at_least)) else "",
        mistakes=unique_mistakes(Fraction(throw_results, ways), (
            Mistake(Fraction(throw_results, ways) - 1, "That counts the throws before the "
                                                       "success; the successful throw "
                                                       "itself counts too."),
            Mistake(Fraction(ways, throw_results), "That is the chance of one throw, not "
                                                   "the wait."),
            Mistake(Fraction(throw_results, 2 * ways), "That is half the average wait. Half "
                                                       "the Romans are done sooner than "
                                                       "that, but the long waits pull the "
                                                       "average up to 1/p."),
        ))),
    ]


roman_dice = ExerciseSet("roman-dice", build=_roman_dice)

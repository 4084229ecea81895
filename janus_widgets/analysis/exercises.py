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
from fractions import Fraction
from functools import lru_cache
from typing import Any

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


# --- the Jactus odds lesson ------------------------------------------------------------

#: Exercise 5's starts (dice on the table, target, policy): the class's opening throw
#: first, then the positions students draw (five different expected waits).
WAIT_STARTS: tuple[tuple[tuple[int, ...] | None, str, str], ...] = (
    (None, "five-of-a-kind", "keep-largest"),
    ((3, 3, 1, 5, 6), "five-of-a-kind", "keep-largest"),
    ((2, 2, 2, 5, 6), "five-of-a-kind", "keep-largest"),
    ((4, 4, 6, 6, 1), "five-of-a-kind", "keep-largest"),
    ((6, 1, 2, 3, 4), "five-sixes", "keep-target"),
    ((6, 6, 2, 3, 5), "five-sixes", "keep-target"),
    ((6, 6, 6, 1, 4), "five-sixes", "keep-target"),
    ((3, 3, 1, 6, 6), "five-2-to-5", "keep-target"),
)
_TARGET_WORDS = {"five-of-a-kind": "five of a kind (any face)",
                 "five-sixes": "the Venus (five sixes)",
                 "five-2-to-5": "five 2s, 3s, 4s or 5s"}
_POLICY_WORDS = {"keep-largest": "keeping the largest group of equal dice",
                 "keep-target": "keeping the largest group of the target's faces"}
#: Exercise 2's events for the dice thrown: all of them show the face kept, at least
#: one does, none does.
THROWN_EVENTS = ("all", "at least one", "none")


def _thrown_chance(thrown: int, event: str) -> Fraction:
    """The chance that of ``thrown`` fair dice ``event`` (:data:`THROWN_EVENTS`) show a
    given face, from the package's dice model."""
    face = 4
    model = _fair_dice(thrown)
    test = {"all": lambda d: d.count(face) == thrown,
            "at least one": lambda d: face in d,
            "none": lambda d: face not in d}[event]
    return model.chance(test)


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


def _jactus_odds(rng: np.random.Generator | None) -> list[Exercise]:
    """One throw and the Markov chain (lesson ``jactus-odds``)."""
    n = _pick(rng, 5, (3, 4, 6, 7, 8))                      # dice of the game (q1)
    kept = _pick(rng, 3, (1, 2, 3))                         # dice that stay (q2)
    event = "all" if rng is None else THROWN_EVENTS[int(rng.integers(3))]
    if rng is not None and event == "all" and kept == 3:
        kept = 2                                            # not the class's question
    face = _pick(rng, 4, (1, 2, 3, 4, 5, 6))
    thrown = 5 - kept
    rounds = _pick(rng, 1, (2, 3, 4, 5, 6))                 # throws for a Venus (q3)
    within = _pick(rng, 3, (2, 3, 4, 5, 6, 7, 8))           # throws allowed (q4)
    start, target, policy = WAIT_STARTS[_pick(rng, 0, tuple(range(len(WAIT_STARTS))))]
    fk = _FACE_WORDS[face]
    words = _NUMBER_WORDS
    stays = (f"One {face} stays" if kept == 1 else f"{_COUNT_WORDS[kept]} {fk} stay")
    asked = {"all": (f"all {words[thrown]} thrown dice show a {face} (five {fk})"
                     if thrown > 2 else f"both thrown dice show a {face} (five {fk})")
             if thrown > 1 else f"the thrown die shows a {face} (five {fk})",
             "at least one": f"at least one of the {words[thrown]} thrown dice shows a "
                             f"{face}",
             "none": f"none of the {words[thrown]} thrown dice shows a {face}"}[event]
    if thrown == 1 and event != "all":
        asked = {"at least one": f"the thrown die shows a {face}",
                 "none": f"the thrown die does not show a {face}"}[event]
    one = Fraction(1, 6)
    q2_mistakes = {
        "all": (Mistake(Fraction(thrown, 6), f"Adding 1/6 {thrown} times gives the chance "
                                             "of 'one or the other' (and even that counts "
                                             f"some throws twice); every die must show "
                                             f"{face}, so multiply."),
                Mistake(1 - Fraction(5, 6) ** thrown,
                        f"That is the chance that at least one of the {thrown} dice shows "
                        f"a {face}; all of them must."),
                Mistake(one ** (thrown + 1), f"That is for {thrown + 1} dice to throw; here "
                                             f"{thrown} are thrown.")),
        "at least one": (Mistake(Fraction(thrown, 6), f"Adding 1/6 {thrown} times counts "
                                                      f"the throws with two {fk} twice; "
                                                      "take 1 minus the chance that none "
                                                      f"shows a {face}."),
                         Mistake(one ** thrown, f"That is the chance that all {thrown} show "
                                                f"a {face}; one is enough."),
                         Mistake(Fraction(5, 6) ** thrown, f"That is the chance that none "
                                                           f"shows a {face}: take it from "
                                                           "1.")),
        "none": (Mistake(1 - Fraction(thrown, 6), "Taking 1/6 away once per die is not how "
                                                  "independent chances combine: multiply "
                                                  "the chances of missing."),
                 Mistake(1 - Fraction(5, 6) ** thrown, f"That is the chance that at least "
                                                       f"one shows a {face}."),
                 Mistake(Fraction(5, 6), "That is one die; every thrown die must miss."))}
    mistakes2 = tuple(m for m in q2_mistakes[event] if m.resolve() != _thrown_chance(
        thrown, event))
    chain_words = f"{_TARGET_WORDS[target]}, {_POLICY_WORDS[policy]}"
    if start is None:
        q5_question = ("Keeping the largest group every time, how many throws does it take "
                       "on average to throw five of a kind from the round's opening throw? "
                       "(3 significant figures.)")
    else:
        q5_question = (f"The dice on the table show {_dice_text(start)} and it is your "
                       f"throw. Aiming for {_TARGET_WORDS[target]} and "
                       f"{_POLICY_WORDS[policy]} every time, how many throws does it take "
                       "on average? (3 significant figures.)")
    return [
    Exercise(
        "q1", ("Five dice are thrown at once. What is the chance that they show five of "
               "a kind (any face)?") if n == 5 else
              (f"A game like Jactus is played with {words[n]} dice. All {words[n]} are "
               f"thrown at once. What is the chance that they show {words[n]} of a kind "
               "(any face)?"),
        lambda: _fair_dice(n).chance(lambda d: len(set(d)) == 1),
        explanation=(f"Of the 6^{n} = {6 ** n} equally likely throws, six are {n} of a kind "
                     f"(one per face): 6/{6 ** n}."),
        hint=f"Count the equally likely throws (one factor 6 per die) and how many of them "
             f"are {words[n]} of a kind.",
        params={"dice": n},
        mistakes=tuple(m for m in (
            Mistake(Fraction(1, 6 ** n), f"1/{6 ** n} is the chance of one particular face "
                                         f"{words[n]} times, e.g. {words[n]} sixes. Any of "
                                         f"the six faces will do, so it is 6/{6 ** n}."),
            Mistake(Fraction(n, 6 ** n), f"The {n} is the number of dice; what multiplies "
                                         f"1/{6 ** n} is the number of faces that can be "
                                         "repeated: six.") if n != 6 else None,
            Mistake(Fraction(1, 6), "1/6 would be the chance for the last die once the "
                                    "others already match; at the start all must match."),
        ) if m is not None)),
    Exercise(
        "q2", f"{stays} on the table; you throw "
              + ("the fifth die" if thrown == 1 else f"the other {words[thrown]} dice")
              + f". What is the chance that {asked}?",
        lambda: _thrown_chance(thrown, event),
        explanation={"all": f"Each of the {thrown} thrown dice must show {face}, "
                            f"independently: multiply {thrown} chances of 1/6.",
                     "at least one": f"None shows a {face} with (5/6)^{thrown} (multiply "
                                     "the independent misses); at least one is everything "
                                     "else: 1 minus that.",
                     "none": f"Each of the {thrown} dice misses the {face} with 5/6, "
                             f"independently: (5/6)^{thrown}."}[event],
        hint={"all": f"Every thrown die must show a {face}. Independent events: multiply.",
              "at least one": "'At least one' is everything except 'none': work out the "
                              "chance that every thrown die misses, and take it from 1.",
              "none": f"Every thrown die must miss the {face}. Independent events: "
                      "multiply."}[event],
        params={"thrown": thrown, "event": event},
        mistakes=mistakes2),
    Exercise(
        "q3", ("Venus (JA-8): five sixes. What is the chance of Venus with one throw of "
               "all five dice?") if rounds == 1 else
              (f"Venus (JA-8): five sixes. You may throw up to {words[rounds]} times; after "
               "each throw every six stays on the table and you throw the other dice "
               f"again. What is the chance of Venus within the {words[rounds]} throws? "
               "(Give at least 3 significant figures.)"),
        # one throw is counted (section 1); several are the chain panel's "chance within n
        # throws" (target the Venus, keep the target's faces), and the question says so
        (lambda: _fair_dice(5).chance(lambda dice: all(v == 6 for v in dice))) if rounds == 1
        else (lambda: odds.probability_within(rounds, "five-sixes", "keep-target")),
        computer="" if rounds == 1 else
                 f"the chain panel of section 2 (target five sixes, policy keep-target, "
                 f"n = {rounds}), or on paper: follow one die",
        explanation=("One throw in 6^5 = 7776 shows five sixes." if rounds == 1 else
                     "Keeping the sixes, each die on its own needs a six within "
                     f"{rounds} throws: 1 − (5/6)^{rounds}; the five dice do this "
                     f"independently, so (1 − (5/6)^{rounds})^5."),
        hint=("Each die must show 6: multiply five chances of 1/6." if rounds == 1 else
              f"Follow one die: what is its chance of showing a six at least once in "
              f"{rounds} throws? The five dice are independent."),
        params={"rounds": rounds},
        mistakes=tuple(m for m in (
            Mistake(Fraction(1, 1296), "1/1296 is any five of a kind; Venus needs the "
                                       "face 6, one of the six faces."),
            Mistake(Fraction(5, 6 ** 5), "There is only one way for five dice to show "
                                         "five sixes; do not multiply by 5."),
            Mistake(lambda: 1 - (1 - Fraction(1, 7776)) ** rounds,
                    "That rethrows all five dice every time; keeping the sixes does far "
                    "better.") if rounds > 1 else None,
            Mistake(1 - Fraction(5, 6) ** rounds, "That is one die's chance of a six; all "
                                                  "five dice need one.") if rounds > 1
            else None,
        ) if m is not None)),
    Exercise(
        "q4", f"A player throws up to {within} times, each time keeping the largest group "
              "of equal dice and throwing the rest. What is the chance of five of a kind "
              f"within the {within} throws? (Give at least 3 significant figures.)",
        lambda: odds.probability_within(within, "five-of-a-kind", "keep-largest"),
        explanation=f"Follow the chain for {within} throws from 'nothing kept' and read "
                    "the 'scored' column.",
        hint="Use the chain panel of section 2 (policy keep-largest, n throws); by hand: "
             "start in 'nothing kept', multiply by the transition matrix once per throw, "
             "and read the 'scored' column.",
        computer="the chain panel of section 2 (or the transition matrix and a calculator)",
        working=lambda: "Scored within 1, 2, … throws: " + ", ".join(
            show_value(odds.probability_within(k, "five-of-a-kind", "keep-largest"))
            for k in range(1, within + 1)) + ".",
        params={"within": within},
        mistakes=(
            Mistake(lambda: odds.probability_within(within, "five-of-a-kind", "reroll-all"),
                    f"That is 1 - (1295/1296)^{within}: rethrowing all five dice every "
                    "time. Keeping the largest group does far better."),
            Mistake(Fraction(within, 1296), f"Adding {within} one-throw chances assumes "
                                            "all five dice are rethrown each time (and "
                                            "adding is only an approximation even then)."),
            Mistake(lambda: odds.throws_distribution(within)[within - 1],
                    f"That is the chance that throw {within} is the first to score; "
                    f"'within {within} throws' also counts the earlier ones."),
        )),
    Exercise(
        "q5", q5_question,
        lambda: odds.expected_throws(target, policy, start=start),
        explanation="It comes from the chain's fundamental matrix (I - Q)^-1: "
                    "E_s = 1 + Σ_t Q_st E_t for every state s, solved together.",
        hint=("Use the chain panel of section 2: choose the target and the policy of the "
              "question" + (" and type these dice as its start" if start else "")
              + ", and read the expected number of throws. One throw is always made; "
              "every miss adds the wait from where it leaves you."),
        computer="the chain panel of section 2",
        working=lambda: _wait_working(target, policy, start),
        probability=False,
        params={"start": start, "target": target, "policy": policy},
        mistakes=tuple(m for m in (
            Mistake(lambda: 1 / odds.throw_chance((), target), "That is 1 divided by the "
                    "chance of one throw of all five dice: rethrowing all five every time. "
                    "Keeping dice changes the chance from throw to throw."),
            Mistake(lambda: odds.expected_throws(target, policy, start=start) - 1,
                    "That counts the throws that miss; the throw that scores counts too."),
        ))),
    ]


jactus_odds = ExerciseSet("jactus-odds", build=_jactus_odds)


# --- strategy and the next player (the second Jactus lesson) --------------------

#: Exercise 1's pick-ups for students, as (dice pattern, picked-up pattern) in letters: F
#: the face of the group, x and y two other faces (five different "leaves").
LEAVES_CASES = (("FFFFx", "F"), ("FFFxy", "xy"), ("FFFxx", "F"), ("FFFxy", "F"),
                ("FFFFx", "FF"))


def _leaves_working(dice: tuple[int, ...], picked: tuple[int, ...]) -> str:
    """The key's working for "you miss, then the next player scores": every way the
    throw can miss, grouped by what it leaves, with the next player's best chance."""
    kept = list(dice)
    for die in picked:
        kept.remove(die)
    groups: dict[Fraction, Fraction] = {}
    for thrown, p in _fair_dice(len(picked)).outcomes():
        after = tuple(sorted(kept + list(thrown)))
        if len(set(after)) == 1:
            continue
        best = odds.best_pickups(after)[0].chance
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


def _jactus_strategy(rng: np.random.Generator | None) -> list[Exercise]:
    """Strategy and the next player (lesson ``jactus-strategy``)."""
    face = _pick(rng, 4, (1, 2, 3, 4, 5, 6))
    other = 2 if face != 2 else 3              # the odd die out
    third = 5 if face != 5 else 6
    if rng is None:
        dice, picked = (face,) * 4 + (other,), (other,)
    else:
        pattern, pick = LEAVES_CASES[int(rng.integers(len(LEAVES_CASES)))]
        letters = {"F": face, "x": other, "y": third}
        dice = tuple(letters[c] for c in pattern)
        picked = tuple(letters[c] for c in pick)
    tries = _pick(rng, 2, (2, 3, 4, 5, 6, 7, 8))     # throws of the fifth die (q2)
    players, seat = _pick(rng, (2, 0), tuple((p, s) for p in range(2, 7)
                                             for s in range(p)))
    fk = _FACE_WORDS[face]
    pickup = next(p for p in odds.pickups(dice) if p.picked == tuple(sorted(picked)))
    seat_name = "ABCDEF"[seat]
    q3_question = (f"{players} players, four {fk} on the table, your turn. Everybody always "
                   f"keeps the four {fk} and throws the fifth die. What is the chance that "
                   "YOU score the round?") if seat == 0 else (
                   f"{players} players, four {fk} and a {other} on the table; seat A throws "
                   f"first, then B, C, … in turn. Everybody always keeps the four {fk} and "
                   f"throws the fifth die. You are seat {seat_name}, the "
                   f"{_ORDINALS[seat + 1]} to throw. What is the chance that YOU score the "
                   "round?")
    q1_mistakes = [Mistake(1 - pickup.chance, f"{show_value(1 - pickup.chance)} is only the "
                                              "chance that you miss; the next player must "
                                              "then score too.")]
    if pickup.chance:
        q1_mistakes.append(Mistake(pickup.chance, "That is your own chance to score with "
                                                  "this throw, not the next player's."))
    if rng is None:
        q1_mistakes = [Mistake(Fraction(1, 6), "1/6 is the next player's chance once you "
                                               "have missed; you miss only 5 times in 6, "
                                               "so multiply by 5/6."),
                       Mistake(Fraction(5, 6), "5/6 is only the chance that you miss."),
                       Mistake(Fraction(1, 36), "1/36 is you scoring and then them "
                                                "scoring, which cannot happen: a scoring "
                                                "throw ends the round.")]
    q3_mistakes = [Mistake(Fraction(1, players), "The player who throws first has the "
                                                 "edge: the seats are not equal.")]
    if seat == 0:
        q3_mistakes += [Mistake(Fraction(1, 6), "1/6 is only your first throw; if everybody "
                                                "misses, you get another go."),
                        Mistake(lambda: _seat_share(players, 1, face),
                                "That is the chance of the player after you.")]
    else:
        q3_mistakes += [Mistake(lambda: _seat_share(players, 0, face),
                                "That is seat A's chance, the first to throw; you throw "
                                f"after {seat} player{'s' if seat > 1 else ''} missed."),
                        Mistake(Fraction(5, 6) ** seat / 6,
                                "That is only your first throw; if everybody misses, you "
                                "get another go: add the laps.")]
    return [
    Exercise(
        "q1", f"The dice show {_dice_text(dice)}. You pick up "
              + (f"the {picked[0]} and throw it" if len(picked) == 1 else
                 f"{' and '.join(map(str, picked))} and throw them")
              + ". What is the chance that you miss AND the next player then scores with "
                "their one throw (playing their best pick-up)?",
        lambda: pickup.leaves,
        explanation="For each way your throw can miss, the next player's best chance from "
                    "what you leave; multiply by the chance of leaving it, and add.",
        working=lambda: _leaves_working(dice, picked),
        hint="First you must miss; then the next player's best chance from what you "
             "leave. List the ways of missing by what they leave; multiply and add.",
        # the pick-up panel of section 1 shows every pick-up's "leaves" for any dice typed
        # in, these included: the question says so
        computer="the pick-up panel of section 1, these dice typed in (or on paper: list "
                 "the ways of missing)",
        params={"dice": dice, "picked": picked},
        mistakes=tuple(m for m in q1_mistakes if m.resolve() != pickup.leaves)),
    Exercise(
        "q2", f"Four {fk} lie on the table and you may throw the fifth die {tries} times "
              f"(keeping the {fk}). What is the chance of five {fk} within the {tries} "
              "throws?",
        lambda: odds.probability_within(tries, "five-of-a-kind", "keep-largest",
                                        start=(other,) + (face,) * 4),
        explanation=f"You fail only if all {tries} throws miss: 1 - (5/6)^{tries}.",
        hint=f"Work out the chance of missing {tries} times in a row, and take it from 1.",
        params={"tries": tries},
        mistakes=(
            Mistake(Fraction(tries, 6), f"Adding 1/6 {tries} times counts the runs with "
                                        f"several {fk} more than once; use 1 - (chance of "
                                        "missing every time)."),
            Mistake(Fraction(5, 6) ** (tries - 1) * Fraction(1, 6),
                    "That is missing every time and scoring only at the last throw; "
                    "scoring earlier counts too."),
            Mistake(Fraction(1, 6) ** tries, f"That is a {face} every time; one is enough."),
        )),
    Exercise(
        "q3", q3_question,
        lambda: _seat_share(players, seat, face),
        explanation=(f"You score on throws 1, {players + 1}, {2 * players + 1}, …: "
                     f"1/6 + (5/6)^{players} (1/6) + … = (1/6) / (1 - (5/6)^{players})."
                     if seat == 0 else
                     f"You first throw after {seat} miss{'es' if seat > 1 else ''}: "
                     f"(5/6)^{seat} (1/6) on your first throw, and every lap of {players} "
                     f"misses multiplies by (5/6)^{players}: (5/6)^{seat} (1/6) / "
                     f"(1 - (5/6)^{players})."),
        hint="Add up the chances of scoring on your first throw, on your second (every "
             "player missed once), … : a geometric series.",
        params={"players": players, "seat": seat},
        mistakes=tuple(q3_mistakes)),
    ]


jactus_strategy = ExerciseSet("jactus-strategy", build=_jactus_strategy)


# --- the Roman dice lesson --------------------------------------------------------------

_WORDS = {**_NUMBER_WORDS, 9: "nine", 10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen",
          14: "fourteen", 15: "fifteen", 16: "sixteen", 17: "seventeen", 18: "eighteen",
          19: "nineteen", 20: "twenty"}


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
            avoid={Fraction(3, 32)})
        faces = list(rng.permutation(roman.TALI_FACES))
        counts = {int(f): k for f, k in zip(faces, pattern)}
    n_tali = sum(counts.values())
    venus = len(counts) == 4 and n_tali == 4
    orders = _orders(counts)
    results = 4 ** n_tali
    # q2: tali thrown, and how many show the dog's face (the class: all four, the dog)
    tali, dogs = (4, 4) if rng is None else spread(
        rng, DOG_COUNTS, lambda t: math.comb(t[0], t[1]) * Fraction(1, 4) ** t[1]
        * Fraction(3, 4) ** (t[0] - t[1]), avoid={Fraction(1, 256)})
    # q3: tesserae thrown and the face each must reach (the class: three sixes)
    tesserae, floor = (3, 6) if rng is None else spread(
        rng, TESSERA_FLOORS, lambda t: Fraction(7 - t[1], 6) ** t[0],
        avoid={Fraction(1, 216)})
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
                     f"= {orders} different orders: {orders}/{results}."),
        hint="Count the ordered results (4 per talus, multiplied) and the different orders "
             "of these faces (swapping two equal faces changes nothing).",
        params={"counts": counts, "tali": n_tali},
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

"""Exercises whose answers the package checks, for the lesson notebooks.

Each exercise knows its exact answer (computed by
:mod:`~janus_widgets.analysis.jactus_odds` or :mod:`~janus_widgets.analysis.roman_dice`,
never typed in) and the common wrong answers with what went wrong.
:meth:`Exercise.check` takes a fraction, a whole number, a float, or text such as
``"1/1296"``, ``"0.000772"``, ``"0.0772%"`` or ``"1 in 1296"``:

* an exact answer equal to the right one is right;
* a decimal is right when it agrees to three significant figures (the default
  tolerance of :class:`~janus_widgets.analysis.checking.Exercise`);
* a recognisable mistake is wrong, and the verdict says why;
* anything else is wrong, with a hint.

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

from fractions import Fraction

import numpy as np

from . import jactus_odds as odds
from . import roman_dice as roman
from .checking import Exercise, ExerciseSet, Mistake, Verdict, read_answer

__all__ = ["Verdict", "Mistake", "Exercise", "ExerciseSet", "jactus_odds",
           "jactus_strategy", "roman_dice", "read_answer"]

_FACE_WORDS = {1: "1s", 2: "2s", 3: "3s", 4: "4s", 5: "5s", 6: "6s"}


_COUNT_WORDS = {1: "One", 2: "Two", 3: "Three", 4: "Four"}


def _pick(rng: np.random.Generator | None, default: int, choices: tuple[int, ...]) -> int:
    """The class's number (``rng`` is None) or, for a student, one of the other
    ``choices`` (so a student's numbers are never the ones shown to the class)."""
    if rng is None:
        return default
    return int(rng.choice([c for c in choices if c != default]))

# --- the Jactus odds lesson ------------------------------------------------------------

def _jactus_odds(rng: np.random.Generator | None) -> list[Exercise]:
    """One throw and the Markov chain (lesson ``jactus-odds``)."""
    kept = _pick(rng, 3, (1, 2, 3))            # dice that stay on the table (q2)
    face = _pick(rng, 4, (1, 2, 3, 4, 5, 6))
    thrown = 5 - kept
    within = _pick(rng, 3, (2, 3, 4, 5, 6))    # throws allowed (q4)
    fk = _FACE_WORDS[face]
    return [
    Exercise(
        "q1", "Five dice are thrown at once. What is the chance that they show five of "
              "a kind (any face)?",
        lambda: odds.throw_chance((), "five-of-a-kind"),
        explanation="Of the 6^5 = 7776 equally likely throws, six are five of a kind "
                    "(11111 … 66666): 6/7776.",
        hint="Count the equally likely throws (6 × 6 × 6 × 6 × 6) and how many of them "
             "are five of a kind.",
        mistakes=(
            Mistake(Fraction(1, 7776), "1/7776 is the chance of one particular face five "
                                       "times, e.g. five sixes. Any of the six faces will "
                                       "do, so it is 6/7776."),
            Mistake(Fraction(5, 7776), "The five is the number of dice; what multiplies "
                                       "1/7776 is the number of faces that can be "
                                       "repeated: six."),
            Mistake(Fraction(1, 6), "1/6 would be the chance for the last die once four "
                                    "already match; at the start all five must match."),
        )),
    Exercise(
        "q2", (f"One {face} stays" if kept == 1 else f"{_COUNT_WORDS[kept]} {fk} stay")
              + f" on the table; you throw the other {thrown} dice. What is the chance of "
              f"five {fk}?",
        lambda: odds.throw_chance((face,) * kept, "five-of-a-kind"),
        explanation=f"Each of the {thrown} thrown dice must show {face}, independently: "
                    f"multiply {thrown} chances of 1/6.",
        hint=f"Every thrown die must show a {face}. Independent events: multiply.",
        mistakes=(
            Mistake(Fraction(thrown, 6), f"Adding 1/6 {thrown} times gives the chance of "
                                         "'one or the other' (and even that counts some "
                                         f"throws twice); every die must show {face}, so "
                                         "multiply."),
            Mistake(1 - Fraction(5, 6) ** thrown,
                    f"That is the chance that at least one of the {thrown} dice shows a "
                    f"{face}; all of them must."),
            Mistake(Fraction(1, 6) ** (thrown + 1),
                    f"That is for {thrown + 1} dice to throw; here {thrown} are thrown."),
        )),
    Exercise(
        "q3", "Venus (JA-8): five sixes. What is the chance of Venus with one throw of "
              "all five dice?",
        lambda: odds.throw_chance((), "five-sixes"),
        explanation="One throw in 6^5 = 7776 shows five sixes.",
        hint="Each die must show 6: multiply five chances of 1/6.",
        mistakes=(
            Mistake(Fraction(1, 1296), "1/1296 is any five of a kind; Venus needs the "
                                       "face 6, one of the six faces."),
            Mistake(Fraction(5, 6 ** 5), "There is only one way for five dice to show "
                                         "five sixes; do not multiply by 5."),
        )),
    Exercise(
        "q4", f"A player throws up to {within} times, each time keeping the largest group "
              "of equal dice and throwing the rest. What is the chance of five of a kind "
              f"within the {within} throws? (Give at least 3 significant figures.)",
        lambda: odds.probability_within(within, "five-of-a-kind", "keep-largest"),
        explanation=f"Follow the chain for {within} throws from 'nothing kept' and read "
                    "the 'scored' column.",
        hint=f"Use the chain: start in 'nothing kept', multiply by the transition matrix "
             f"{within} times, and read the 'scored' column.",
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
        "q5", "Keeping the largest group every time, how many throws does it take on "
              "average to throw five of a kind? (3 significant figures.)",
        lambda: odds.expected_throws("five-of-a-kind", "keep-largest"),
        explanation="It comes from the chain's fundamental matrix (I - Q)^-1.",
        hint="Write E_k for the expected throws with k alike kept: E_4 = 6, "
             "E_3 = 1 + (25/36) E_3 + (10/36) E_4, … and solve from four alike down.",
        probability=False,
        mistakes=(
            Mistake(Fraction(1296), "1296 throws is for rethrowing all five dice every "
                                    "time (1 / (1/1296)); keeping dice changes the "
                                    "chance from throw to throw."),
            Mistake(Fraction(1295), "That counts the throws that miss; the throw that "
                                    "scores counts too."),
        )),
    ]


jactus_odds = ExerciseSet("jactus-odds", build=_jactus_odds)


# --- strategy and the next player (the second Jactus lesson) --------------------

def _jactus_strategy(rng: np.random.Generator | None) -> list[Exercise]:
    """Strategy and the next player (lesson ``jactus-strategy``)."""
    face = _pick(rng, 4, (1, 2, 3, 4, 5, 6))
    other = 2 if face != 2 else 3              # the odd die out
    tries = _pick(rng, 2, (2, 3, 4, 5, 6))     # throws of the fifth die (q2)
    players = _pick(rng, 2, (2, 3, 4, 5, 6))   # players in the round (q3)
    fk = _FACE_WORDS[face]
    return [
    Exercise(
        "q1", "The dice show 4 4 4 4 2. You pick up the 2 and throw it. What is the "
              "chance that you miss AND the next player then scores with their one throw "
              "(playing their best pick-up)?",
        lambda: next(p.leaves for p in odds.pickups((2, 4, 4, 4, 4)) if p.picked == (2,)),
        explanation="You miss with 5/6 and leave four 4s and another die; the next "
                    "player keeps the four 4s and scores with 1/6: 5/6 × 1/6.",
        hint="First you must miss; then the next player's best chance from what you "
             "leave. Multiply.",
        mistakes=(
            Mistake(Fraction(1, 6), "1/6 is the next player's chance once you have "
                                    "missed; you miss only 5 times in 6, so multiply by "
                                    "5/6."),
            Mistake(Fraction(5, 6), "5/6 is only the chance that you miss."),
            Mistake(Fraction(1, 36), "1/36 is you scoring and then them scoring, which "
                                     "cannot happen: a scoring throw ends the round."),
        )),
    Exercise(
        "q2", f"Four {fk} lie on the table and you may throw the fifth die {tries} times "
              f"(keeping the {fk}). What is the chance of five {fk} within the {tries} "
              "throws?",
        lambda: odds.probability_within(tries, "five-of-a-kind", "keep-largest",
                                        start=(other,) + (face,) * 4),
        explanation=f"You fail only if all {tries} throws miss: 1 - (5/6)^{tries}.",
        hint=f"Work out the chance of missing {tries} times in a row, and take it from 1.",
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
        "q3", f"{players} players, four {fk} on the table, your turn. Everybody always "
              f"keeps the four {fk} and throws the fifth die. What is the chance that YOU "
              "score the round?",
        lambda: next(r.round_chance for r in odds.round_pickups((other,) + (face,) * 4,
                                                                players=players)
                     if r.pickup.kept == (face,) * 4),
        explanation=f"You score on throws 1, {players + 1}, {2 * players + 1}, …: "
                    f"1/6 + (5/6)^{players} (1/6) + … = (1/6) / (1 - (5/6)^{players}).",
        hint="Add up the chances of scoring on your first throw, on your second (every "
             "player missed once), … : a geometric series.",
        mistakes=(
            Mistake(Fraction(1, 6), "1/6 is only your first throw; if everybody misses, "
                                    "you get another go."),
            Mistake(Fraction(1, players), "The player who throws first has the edge: "
                                          "you throw before the others in every lap."),
            Mistake(lambda: Fraction(5, 6) * Fraction(1, 6) / (1 - Fraction(5, 6) ** players),
                    "That is the chance of the player after you."),
        )),
    ]


jactus_strategy = ExerciseSet("jactus-strategy", build=_jactus_strategy)


# --- the Roman dice lesson --------------------------------------------------------------

# --- the Roman dice lesson --------------------------------------------------------------

def _roman_dice(rng: np.random.Generator | None) -> list[Exercise]:
    """The Roman tali and tesserae (lesson ``roman-dice``)."""
    # q4: the chances of the faces 1, 3, 4, 6 in tenths (the class: the study's 1 : 4 : 4 : 1)
    tenths = (1, 4, 4, 1)
    if rng is not None:
        splits = [(a, b, c, 10 - a - b - c) for a in range(1, 8) for b in range(1, 8)
                  for c in range(1, 8) if 10 - a - b - c >= 1 and (a, b, c) != (1, 4, 4)]
        tenths = splits[int(rng.integers(len(splits)))]
    weights = dict(zip((1, 3, 4, 6), tenths))
    one_order = Fraction(tenths[0] * tenths[1] * tenths[2] * tenths[3], 10 ** 4)
    return [
    Exercise(
        "q1", "Four tali, each landing on 1, 3, 4 or 6 with equal chances (the model). "
              "What is the chance of the Venus throw, all four faces different?",
        lambda: roman.TALI.odds()["venus"],
        explanation="4 × 4 × 4 × 4 = 256 equally likely results; the faces 1, 3, 4, 6 "
                    "can fall in 4! = 24 orders: 24/256 = 3/32.",
        hint="Count the ordered results (4^4) and the orders of four different faces.",
        mistakes=(
            Mistake(Fraction(1, 256), "1/256 is one particular order (1 on the first "
                                      "talus, 3 on the second, …); any of the 4! = 24 "
                                      "orders is a Venus."),
            Mistake(Fraction(1, 24), "24 counts the orders of the faces, but it is the "
                                     "number of good results, not of all results: "
                                     "24/256."),
        )),
    Exercise(
        "q2", "With the same four tali, what is the chance of the dog (canis): all four "
              "show 1?",
        lambda: roman.TALI.odds()["dog"],
        explanation="Each talus shows 1 with chance 1/4, independently: (1/4)^4.",
        hint="Every talus must show 1: multiply.",
        mistakes=(
            Mistake(Fraction(1, 64), "(1/4)^3 is three tali; all four must show 1."),
            Mistake(Fraction(1, 16), "(1/4)^2 is two tali; all four must show 1."),
            Mistake(Fraction(3, 32), "3/32 is the Venus, four different faces."),
        )),
    Exercise(
        "q3", "Three cube dice (tesserae): what is the chance of the Venus, three sixes?",
        lambda: roman.TESSERAE.odds()["venus"],
        explanation="One result in 6^3 = 216.",
        hint="All three dice must show 6.",
        mistakes=(
            Mistake(Fraction(1, 72), "Three sixes can fall in only one way; do not "
                                     "multiply by 3."),
            Mistake(Fraction(1, 2), "Adding 1/6 three times gives nonsense; multiply."),
            Mistake(Fraction(1, 36), "1/36 is two sixes; all three must show 6."),
        )),
    Exercise(
        "q4", "Real knucklebones are not fair. Suppose the faces 1, 3, 4, 6 come up "
              "with chances {}/10, {}/10, {}/10, {}/10. What is the chance of the Venus "
              "now?".format(*tenths),
        lambda: roman.tali(weights=weights).odds()["venus"],
        explanation="Each order of 1, 3, 4, 6 has chance {}/10 × {}/10 × {}/10 × {}/10, "
                    "and there are 24 orders.".format(*tenths),
        hint="Work out the chance of one order of the four faces, then count the orders.",
        mistakes=(
            Mistake(Fraction(3, 32), "3/32 is for fair tali; with these chances the "
                                     "faces do not come up equally often."),
            Mistake(one_order, "That is one order; there are 24 orders."),
        )),
    Exercise(
        "q5", "A Roman throws three tesserae again and again until the Venus. How many "
              "throws does that take on average?",
        lambda: roman.TESSERAE.expected_throws("venus"),
        explanation="Each throw succeeds with 1/216, independently: on average 216 "
                    "throws (the chain has one state; E = 1 + (215/216) E).",
        hint="If every throw succeeds with chance p, the average wait is 1/p throws.",
        probability=False,
        mistakes=(
            Mistake(Fraction(215), "That counts the throws before the Venus; the Venus "
                                   "throw itself counts too."),
            Mistake(Fraction(108), "108 is half of 216. Half the Romans are done "
                                   "sooner than that, but the long waits pull the "
                                   "average up to 1/p = 216."),
        )),
    ]


roman_dice = ExerciseSet("roman-dice", build=_roman_dice)

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

from . import jactus_odds as odds
from . import roman_dice as roman
from .checking import Exercise, ExerciseSet, Mistake, Verdict, read_answer

__all__ = ["Verdict", "Mistake", "Exercise", "ExerciseSet", "jactus_odds", "roman_dice",
           "read_answer"]

# --- the Jactus odds lesson ------------------------------------------------------------

jactus_odds = ExerciseSet("jactus_odds", [
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
        "q2", "Three 4s stay on the table; you throw the other two dice. What is the "
              "chance of five 4s?",
        lambda: odds.throw_chance((4, 4, 4), "five-of-a-kind"),
        explanation="Both dice must show 4, independently: 1/6 × 1/6.",
        hint="Both thrown dice must show a 4. Independent events: multiply.",
        mistakes=(
            Mistake(Fraction(1, 3), "Adding 1/6 + 1/6 gives the chance of 'one or the "
                                    "other' (and even that counts the double 4 twice); "
                                    "both dice must show 4, so multiply."),
            Mistake(Fraction(11, 36), "11/36 is the chance that at least one of the two "
                                      "dice shows a 4; both must."),
            Mistake(Fraction(1, 216), "1/216 is for three dice to throw; here two dice "
                                      "are thrown."),
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
        "q4", "A player throws up to three times, each time keeping the largest group of "
              "equal dice and throwing the rest. What is the chance of five of a kind "
              "within the three throws? (Give at least 3 significant figures.)",
        lambda: odds.probability_within(3, "five-of-a-kind", "keep-largest"),
        explanation="Follow the chain for three throws from 'nothing kept' and read the "
                    "'scored' column.",
        hint="Use the chain: start in 'nothing kept', multiply by the transition matrix "
             "three times, and read the 'scored' column.",
        mistakes=(
            Mistake(lambda: odds.probability_within(3, "five-of-a-kind", "reroll-all"),
                    "That is 1 - (1295/1296)^3: rethrowing all five dice every time. "
                    "Keeping the largest group does about twenty times better."),
            Mistake(Fraction(3, 1296), "Adding three one-throw chances assumes all five "
                                       "dice are rethrown each time (and adding is only "
                                       "an approximation even then)."),
            Mistake(lambda: odds.throws_distribution(3)[2],
                    "That is the chance that the third throw is the first to score; "
                    "'within three throws' also counts the first and the second."),
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
    Exercise(
        "q6", "The dice show 4 4 4 4 2. You pick up the 2 and throw it. What is the "
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
        "q7", "Four 4s lie on the table and you may throw the fifth die twice (keeping "
              "the 4s). What is the chance of five 4s within the two throws?",
        lambda: odds.probability_within(2, "five-of-a-kind", "keep-largest",
                                        start=(2, 4, 4, 4, 4)),
        explanation="You fail only if both throws miss: 1 - (5/6)^2 = 11/36.",
        hint="Work out the chance of missing twice, and take it from 1.",
        mistakes=(
            Mistake(Fraction(1, 3), "Adding 1/6 + 1/6 counts 'a 4 both times' twice; "
                                    "use 1 - (chance of missing twice)."),
            Mistake(Fraction(5, 36), "5/36 is missing first and scoring second; scoring "
                                     "at the first throw counts too."),
            Mistake(Fraction(1, 36), "1/36 is a 4 both times; one 4 is enough."),
        )),
    Exercise(
        "q8", "Two players, four 4s on the table, your turn. You and the other player "
              "always keep the four 4s and throw the fifth die. What is the chance that "
              "YOU score the round?",
        lambda: next(r.round_chance for r in odds.round_pickups((2, 4, 4, 4, 4), players=2)
                     if r.pickup.kept == (4, 4, 4, 4)),
        explanation="You score on your 1st, 3rd, 5th … throw: 1/6 + (5/6)^2 (1/6) + … "
                    "= (1/6) / (1 - 25/36) = 6/11.",
        hint="Add up the chances of scoring on your first throw, on your second (both "
             "missed once), … : a geometric series.",
        mistakes=(
            Mistake(Fraction(1, 6), "1/6 is only your first throw; if both of you miss, "
                                    "you get another go."),
            Mistake(Fraction(1, 2), "The player who throws first has the edge: you score "
                                    "on throws 1, 3, 5 …, the other on 2, 4, 6 …"),
            Mistake(Fraction(5, 11), "5/11 is the other player's chance."),
        )),
])


# --- the Roman dice lesson --------------------------------------------------------------

roman_dice = ExerciseSet("roman_dice", [
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
              "with chances 1/10, 4/10, 4/10, 1/10. What is the chance of the Venus now?",
        lambda: roman.tali(weights=roman.KNUCKLEBONE_STUDY_WEIGHTS).odds()["venus"],
        explanation="Each order of 1, 3, 4, 6 has chance 1/10 × 4/10 × 4/10 × 1/10 = "
                    "16/10000, and there are 24 orders: 384/10000 = 24/625.",
        hint="Work out the chance of one order of the four faces, then count the orders.",
        mistakes=(
            Mistake(Fraction(3, 32), "3/32 is for fair tali; with these chances the "
                                     "narrow faces 1 and 6 are rare."),
            Mistake(Fraction(16, 10000), "16/10000 is one order; there are 24 orders."),
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
])

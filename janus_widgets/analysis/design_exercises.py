"""Checked exercises of the game-design lesson (``notebooks/game-design-lab.ipynb``).

Every answer is computed by the package — by the lab's own metrics on games made up
for the question, by Wilson intervals, or by playing the seeded games the question
names — never typed in; the checking is :mod:`~janus_widgets.analysis.checking`'s.

>>> ADVANTAGE.check("13/150").correct
True
>>> verdict = ADVANTAGE.check("-0.06")
>>> verdict.correct, "draws" in verdict.message
(False, True)
>>> BALANCE.answer, FIVE_OF_A_KIND.answer
(Fraction(7, 10), Fraction(1, 36))
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np

from .checking import Exercise, ExerciseSet, Mistake, Within, WithinShown, unique_mistakes
from .metrics import game_row, number, summarize, wilson

__all__ = ["EXERCISES", "ADVANTAGE", "BALANCE", "MORE_GAMES", "FIVE_OF_A_KIND",
           "HEIGHT_TURNS"]


def _made_up(wins: dict[str, int], draws: int) -> list[dict]:
    seats = len(wins)
    rows = [game_row(seat, scores=(0.0,) * seats) for seat, k in wins.items()
            for _ in range(k)]
    return rows + [game_row(None, scores=(0.0,) * seats) for _ in range(draws)]


def _metric(wins: dict[str, int], draws: int, key: str) -> Fraction:
    value = summarize(_made_up(wins, draws), len(wins))[key]["value"]
    return Fraction(value).limit_denominator(1000)


def _advantage(a: int, b: int, draws: int) -> Exercise:
    games = a + b + draws
    return Exercise(
        "q1", f"A tournament of {games} games of a two-player game: A wins {a}, B wins {b}, "
        f"and {draws} are draws. What is the first-player advantage, advantage_p1?",
        lambda: _metric({"A": a, "B": b}, draws, "advantage_p1"),
        title="1. The first player's advantage", probability=False,
        tolerance=Within(Fraction(1, 200)),
        explanation=f"A won {a} of the {a + b} decisive games: {a}/{a + b} − 1/2.",
        hint="Only the games someone won count; a fair share of them is 1/2.",
        params={"a": a, "b": b, "draws": draws},
        mistakes=(Mistake(Fraction(a, games) - Fraction(1, 2),
                          f"That counts the {draws} draws against A: nobody won the draws. "
                          "Use the decisive games only."),
                  Mistake(Fraction(a, a + b), "That is A's share of the decisive games; "
                                              "subtract the fair share, 1/2.")))


def _balance(a: int, b: int, c: int) -> Exercise:
    rates = sorted((a, b, c))
    games = a + b + c
    return Exercise(
        "q2", f"Three players share the {games} decisive games of a tournament: A wins {a}, "
        f"B {b} and C {c}. What is the balance?",
        lambda: _metric({"A": a, "B": b, "C": c}, 0, "balance"),
        title="2. Balance", probability=False, tolerance=Within(Fraction(1, 2 * games)),
        explanation=f"The largest gap between two seats' win rates is "
                    f"{rates[2] / games:g} − {rates[0] / games:g}, so the balance is 1 minus "
                    "it.",
        hint="Find the two seats whose win rates are furthest apart.",
        params={"wins": (a, b, c)},
        mistakes=tuple(m for m in (
            Mistake(1 - Fraction(rates[2] - rates[1], games),
                    "That takes the gap between neighbours (the two best seats); balance uses the "
                    "largest gap of all.") if rates[2] - rates[1] != rates[2] - rates[0]
            else None,
            Mistake(Fraction(rates[2] - rates[0], games),
                    "That is the largest gap; balance is 1 minus it.")) if m is not None))


def _times_the_games(games: int = 200, narrower: int = 2) -> Fraction:
    """How many times ``games`` games make the 95% interval of a 50% win rate ``narrower``
    times narrower, by the square-root law: the interval's half-width is 1.96·√(p(1−p)/n),
    so the games needed grow with the square of the narrowing (the Wilson interval the
    lab prints agrees to within a few percent at these sizes).

    >>> _times_the_games(200, 2), _times_the_games(100, 7)
    (Fraction(4, 1), Fraction(49, 1))
    """
    def half_width(n: Fraction) -> float:
        return 1.96 * math.sqrt(0.25 / float(n))

    target = half_width(Fraction(games)) / narrower
    # half_width(n) = target  <=>  n = 0.25 · (1.96 / target)²
    needed = 0.25 * (1.96 / target) ** 2
    return Fraction(round(needed / games))


_NARROWER = {2: "half as wide", 3: "a third as wide", 4: "a quarter as wide",
             5: "a fifth as wide", 6: "a sixth as wide", 7: "a seventh as wide"}


def _more_games(narrower: int) -> Exercise:
    return Exercise(
        "q3", "With 200 games, a seat that wins half of them has a 95% interval about 0.14 "
        f"wide. How many times as many games make that interval {_NARROWER[narrower]}?",
        lambda: _times_the_games(200, narrower), title="3. Enough games", count=True,
        explanation=f"An interval's width shrinks like 1/√(games): {_NARROWER[narrower]} "
                    f"takes {narrower}² times the games.",
        hint=f"{narrower} times the games is not enough: the width goes down with the "
             "square root.",
        params={"narrower": narrower},
        mistakes=(Mistake(Fraction(narrower), f"{narrower} times the games narrows the "
                                              f"interval by √{narrower} only."),))


def _five_alike_chance(kept: int, throws: int) -> Fraction:
    """Five alike within ``throws`` throws when ``kept`` dice of a face stay and every
    die that shows the face is kept, from the Jactus chain (keep the target's face)."""
    from .jactus_odds import probability_within
    return probability_within(throws, "five-sixes", "keep-target",
                              start=(6,) * kept + (1,) * (5 - kept))


def _five_of_a_kind(kept: int, face: int, throws: int = 1) -> Exercise:
    thrown = 5 - kept
    words = {1: "one", 2: "two", 3: "three", 4: "four"}
    dice = "die" if thrown == 1 else "dice"
    question = (f"Jactus: a player keeps {words[kept]} {face}s and throws the other "
                f"{words[thrown]} {dice}. What is the chance that the throw scores (five "
                "of a kind)?") if throws == 1 else (
                f"Jactus: a player keeps {words[kept]} {face}s and throws the other "
                f"{words[thrown]} {dice}, up to {words[throws]} times, keeping every {face} "
                f"that comes. What is the chance of five {face}s within the {words[throws]} "
                "throws?")
    right = Fraction(1, 6) ** thrown if throws == 1 else \
        (1 - Fraction(5, 6) ** throws) ** thrown
    return Exercise(
        "q4", question,
        lambda: _five_alike_chance(kept, throws), title="4. Why the greedy bot keeps a group",
        explanation=(f"Every thrown die must show a {face}: multiply {thrown} chances of 1/6."
                     if throws == 1 else
                     f"Each thrown die needs a {face} within {throws} throws, 1 − (5/6)^{throws}, "
                     f"and the {thrown} dice do this independently: "
                     f"(1 − (5/6)^{throws})^{thrown}.")
                    + " Keeping two different values instead makes the chance 0: that is how "
                      "the players of the flaw finder's staller keep a Jactus game going for "
                      "ever.",
        hint=(f"Each thrown die must show a {face}." if throws == 1 else
              f"Follow one thrown die: its chance of a {face} at least once in {throws} "
              "throws. The dice are independent."),
        params={"kept": kept, "throws": throws, "face": face},
        mistakes=unique_mistakes(right, (
            Mistake(Fraction(6, 6 ** thrown),
                    f"Any {words[thrown]} alike is not enough (nor one matching die): they "
                    f"must all show a {face}, the value kept.") if thrown > 1 else None,
            Mistake(Fraction(1, 36), "That is for two dice; all three thrown dice must "
                                     "match.") if thrown == 3 else None,
            Mistake(Fraction(1, 6) ** thrown, "That is one throw; the player may throw "
                                              f"{words[throws]} times.") if throws > 1
            else None,
            Mistake(1 - Fraction(5, 6) ** throws, f"That is one die's chance; all "
                                                  f"{words[thrown]} thrown dice need a "
                                                  f"{face}.") if throws > 1 and thrown > 1
            else None,
        )))


@lru_cache(maxsize=8)
def _height_turns(seed: int = 0) -> Fraction:
    from .tournament import compare_variants
    comparison = compare_variants("jinns", {"rulebook": {}, "height": {"distance": "height"}},
                                  bots=["greedy"], n=200, seed=seed, progress=False)
    return Fraction(comparison.difference("duration")["value"]).limit_denominator(1000)


def _height(seed: int) -> Exercise:
    return Exercise(
        "q5", "In the lab: Jinns of the Lake, change distance to height, bots greedy, 200 "
        f"games, seed {seed}, Run. By how many turns does the height reading lengthen the "
        "average game (the paired difference, to one decimal)?",
        lambda: _height_turns(seed), title="5. Read the paired difference", probability=False,
        # "to one decimal": half a tenth of the value, or of the figure the lab's table
        # shows (the paired difference as ``number`` writes it: 8.845 shows as +8.85, and
        # a student who rounds that to 8.9 is right)
        tolerance=WithinShown(Fraction(1, 20), lambda v: number(v, signed=True),
                              "the lab's table shows"),
        computer="the lab (game-design-lab.ipynb, Your own experiment)",
        params={"seed": seed},
        explanation="Read the row 'duration' in the column 'distance=height − rulebook'. The "
                    "same 200 seeds under both readings: the difference comes from the rule, "
                    "not from luck, and its interval is far from 0.",
        hint="The row 'duration' counts turns (decisions); take the difference column.")


#: Question 4 for students: (dice kept, throws allowed), five different chances.
FIVE_ALIKE_CASES = ((2, 1), (4, 2), (3, 2), (2, 2), (4, 3), (3, 3))
#: Question 5's seeds for students (the class's is 0; worked example 1 shows seed 1's).
HEIGHT_SEEDS = (2, 3, 4, 5, 6, 7)

ADVANTAGE = _advantage(88, 62, 50)
BALANCE = _balance(50, 30, 20)
MORE_GAMES = _more_games(2)
FIVE_OF_A_KIND = _five_of_a_kind(3, 4)
HEIGHT_TURNS = _height(0)


def _repeats(x: Fraction) -> bool:
    """Whether ``x`` has no short exact decimal (its denominator has a factor besides 2
    and 5).

    >>> _repeats(Fraction(1, 16)), _repeats(Fraction(13, 150))
    (False, True)
    """
    d = x.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return d > 1


def _design_lesson(rng: np.random.Generator | None) -> list[Exercise]:
    """The class's questions (``rng`` None) or a student's own numbers."""
    if rng is None:
        return [ADVANTAGE, BALANCE, MORE_GAMES, FIVE_OF_A_KIND, HEIGHT_TURNS]
    # q1: an advantage that is a repeating decimal too (a short exact one, 1/16 = 0.0625,
    # can stand in the lab's tables by chance: an interval's end, a share)
    while True:
        a = int(rng.integers(70, 111))
        b = int(rng.integers(40, 200 - a - 9))
        if _repeats(Fraction(a, a + b) - Fraction(1, 2)):
            break
    # q2: 300 decisive games and a largest gap that 3 does not divide, so that the balance
    # is a repeating decimal (the lab's pages print many short figures: 0.49, 36.5%)
    while True:
        wins = sorted(rng.choice(np.arange(15, 240), 2, replace=False).tolist())
        third = 300 - sum(wins)
        if third > 0 and third not in wins and (max(wins + [third]) - min(wins + [third])) % 3:
            break
    c1, c2 = int(wins[0]), int(wins[1])
    kept, throws = FIVE_ALIKE_CASES[int(rng.integers(len(FIVE_ALIKE_CASES)))]
    return [_advantage(a, b, 200 - a - b),
            _balance(300 - c1 - c2, c2, c1),
            _more_games(int(rng.choice([3, 4, 5, 6, 7]))),
            _five_of_a_kind(kept, int(rng.integers(1, 7)), throws),
            _height(int(HEIGHT_SEEDS[int(rng.integers(len(HEIGHT_SEEDS)))]))]


#: The lesson's exercises, in order (``EXERCISES.for_student(id)``: a student's numbers).
EXERCISES = ExerciseSet("game-design-lab", build=_design_lesson)

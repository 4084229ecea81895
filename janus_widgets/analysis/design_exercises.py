"""Checked exercises of the game-design lesson (``notebooks/game-design-lab.ipynb``).

Every answer is computed by the package — by the lab's own metrics on games made up
for the question, by Wilson intervals, or by playing the seeded games the question
names — never typed in; the checking is :mod:`~janus_widgets.analysis.checking`'s.

>>> ADVANTAGE.check("0.1").correct
True
>>> verdict = ADVANTAGE.check("-0.05")
>>> verdict.correct, "draws" in verdict.message
(False, True)
>>> BALANCE.answer, FIVE_OF_A_KIND.answer
(Fraction(7, 10), Fraction(1, 36))
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from .checking import Exercise, ExerciseSet, Mistake, Within
from .metrics import game_row, summarize, wilson

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


ADVANTAGE = Exercise(
    "q1", "A tournament of 200 games of a two-player game: A wins 90, B wins 60, and 50 "
    "are draws. What is the first-player advantage, advantage_p1?",
    lambda: _metric({"A": 90, "B": 60}, 50, "advantage_p1"),
    title="1. The first player's advantage", probability=False,
    tolerance=Within(Fraction(1, 200)),
    explanation="A won 90 of the 150 decisive games: 90/150 − 1/2 = 0.6 − 0.5 = 0.1.",
    hint="Only the games someone won count; a fair share of them is 1/2.",
    mistakes=(Mistake(Fraction(90, 200) - Fraction(1, 2),
                      "That counts the 50 draws against A: A's share of all 200 games is "
                      "0.45, but nobody won the draws. Use the decisive games only."),
              Mistake(Fraction(90, 150), "That is A's share of the decisive games; "
                                         "subtract the fair share, 1/2.")))

BALANCE = Exercise(
    "q2", "Three players share the 100 decisive games of a tournament: A wins 50, B 30 "
    "and C 20. What is the balance?",
    lambda: _metric({"A": 50, "B": 30, "C": 20}, 0, "balance"),
    title="2. Balance", probability=False, tolerance=Within(Fraction(1, 200)),
    explanation="The largest gap between two seats' win rates is 0.5 − 0.2 = 0.3, so "
                "the balance is 1 − 0.3 = 0.7.",
    hint="Find the two seats whose win rates are furthest apart.",
    mistakes=(Mistake(Fraction(8, 10), "0.8 takes the gap between neighbours (A and B); "
                                       "balance uses the largest gap of all."),
              Mistake(Fraction(3, 10), "0.3 is the largest gap; balance is 1 minus it.")))


def _times_the_games(games: int = 200) -> Fraction:
    """How many times ``games`` games, rounded, make the 95% Wilson interval of a 50% win
    rate half as wide."""
    low, high = wilson(games // 2, games)
    target = (high - low) / 2
    n = games
    while True:
        n += 2
        low, high = wilson(n // 2, n)
        if high - low <= target:
            return Fraction(round(n / games))


MORE_GAMES = Exercise(
    "q3", "With 200 games, a seat that wins half of them has a 95% interval about 0.14 "
    "wide. How many times as many games make that interval half as wide?",
    _times_the_games, title="3. Enough games", count=True,
    explanation="An interval's width shrinks like 1/√(games): half as wide takes four "
                "times the games, about 800.",
    hint="Twice the games is not enough: the width goes down with the square root.",
    mistakes=(Mistake(Fraction(2), "Twice the games narrows the interval by √2 only, "
                                   "to about 0.7 of its width."),))

FIVE_OF_A_KIND = Exercise(
    "q4", "Jactus: a player keeps three 4s and throws the other two dice. What is the "
    "chance that the throw scores (five of a kind)?",
    lambda: Fraction(1, 6) ** 2, title="4. Why the greedy bot keeps a group",
    explanation="Both thrown dice must show a 4: 1/6 × 1/6 = 1/36. Keeping two different "
                "values instead makes the chance 0: that is how the players of the flaw "
                "finder's staller keep a Jactus game going for ever.",
    hint="Each of the two dice must show the kept value.",
    mistakes=(Mistake(Fraction(1, 6), "That is the chance for one die; both must match."),
              Mistake(Fraction(6, 36), "Any double is not enough: both dice must show a 4, "
                                       "the value kept.")))


@lru_cache(maxsize=1)
def _height_turns() -> Fraction:
    from .tournament import compare_variants
    comparison = compare_variants("jinns", {"rulebook": {}, "height": {"distance": "height"}},
                                  bots=["greedy"], n=200, seed=0, progress=False)
    return Fraction(comparison.difference("duration")["value"]).limit_denominator(1000)


HEIGHT_TURNS = Exercise(
    "q5", "In the lab: Jinns of the Lake, change distance to height, bots greedy, 200 "
    "games, seed 0, Run. By how many turns does the height reading lengthen the average "
    "game (the paired difference, to one decimal)?",
    _height_turns, title="5. Read the paired difference", probability=False,
    tolerance=Within(Fraction(6, 100)),
    explanation="Read the row 'duration' in the column 'distance=height − rulebook'. The "
                "same 200 seeds under both readings: the difference comes from the rule, "
                "not from luck, and its interval is far from 0.",
    hint="The row 'duration' counts turns (decisions); take the difference column.")

#: The lesson's exercises, in order.
EXERCISES = ExerciseSet("game-design lab",
                        [ADVANTAGE, BALANCE, MORE_GAMES, FIVE_OF_A_KIND, HEIGHT_TURNS])

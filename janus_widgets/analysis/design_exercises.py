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
from typing import Any

import numpy as np

from .checking import (Exercise, ExerciseSet, Mistake, Within, WithinShown, spread,
                       unique_mistakes)
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
        params={"games": 200, "narrower": narrower, "total": False},
        mistakes=(Mistake(Fraction(narrower), f"{narrower} times the games narrows the "
                                              f"interval by √{narrower} only."),))


def _interval_width(games: int) -> float:
    """The width of the 95% interval the lab prints for a seat that wins half of
    ``games`` games (Wilson's)."""
    low, high = wilson(games // 2, games)
    return high - low


def _games_needed(games: int, narrower: int) -> Exercise:
    """A student's question 3: how many games in all, from ``games`` games."""
    width = _interval_width(games)
    return Exercise(
        "q3", f"With {games} games, a seat that wins half of them has a 95% interval about "
        f"{width:.3f} wide. By the square-root law, how many games in all make that "
        f"interval {_NARROWER[narrower]}?",
        lambda: games * _times_the_games(games, narrower), title="3. Enough games",
        count=True,
        explanation=f"An interval's width shrinks like 1/√(games): {_NARROWER[narrower]} "
                    f"takes {narrower}² = {narrower * narrower} times the games, "
                    f"{narrower * narrower} × {games}.",
        hint=f"{narrower} times the games is not enough: the width goes down with the "
             "square root of the number of games.",
        params={"games": games, "narrower": narrower, "total": True},
        mistakes=unique_mistakes(Fraction(games * narrower ** 2), (
            Mistake(Fraction(games * narrower), f"{narrower} times the games narrows the "
                                                f"interval by √{narrower} only."),
            Mistake(Fraction(narrower ** 2), f"{narrower ** 2} is how many times as many "
                                             "games; the question asks for the number of "
                                             "games."),
            Mistake(Fraction(games * (narrower ** 2 - 1)), "That is how many games more; "
                                                           "the question asks for all of "
                                                           "them."),
        )))


def _five_alike_chance(kept: int, throws: int, faces: int = 6) -> Fraction:
    """Five alike within ``throws`` throws when ``kept`` dice of a face stay and every
    die that shows the face is kept: for six faces from the Jactus chain (keep the
    target's face); for dice of other ``faces``, from a chain of the dice still missing
    the face (each throw, each of them shows it with chance 1/faces)."""
    if faces == 6:
        from .jactus_odds import probability_within
        return probability_within(throws, "five-sixes", "keep-target",
                                  start=(6,) * kept + (1,) * (5 - kept))
    hit = Fraction(1, faces)
    missing = {5 - kept: Fraction(1)}             # dice still missing the face → chance
    for _ in range(throws):
        after: dict[int, Fraction] = {}
        for m, p in missing.items():
            for got in range(m + 1):
                q = p * math.comb(m, got) * hit ** got * (1 - hit) ** (m - got)
                after[m - got] = after.get(m - got, Fraction(0)) + q
        missing = after
    return missing.get(0, Fraction(0))


def _five_of_a_kind(kept: int, face: int, throws: int = 1, faces: int = 6) -> Exercise:
    thrown = 5 - kept
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    dice = "die" if thrown == 1 else "dice"
    each = f"1/{faces}"
    game = ("Jactus" if faces == 6 else
            f"Jactus played with {faces}-sided dice (faces 1 to {faces}, each equally likely)")
    question = (f"{game}: a player keeps {words[kept]} {face}s and throws the other "
                f"{words[thrown]} {dice}. What is the chance that the throw scores (five "
                "of a kind)?") if throws == 1 else (
                f"{game}: a player keeps {words[kept]} {face}s and throws the other "
                f"{words[thrown]} {dice}, up to {words[throws]} times, keeping every {face} "
                f"that comes. What is the chance of five {face}s within the {words[throws]} "
                "throws?")
    miss = 1 - Fraction(1, faces)
    right = Fraction(1, faces) ** thrown if throws == 1 else (1 - miss ** throws) ** thrown
    return Exercise(
        "q4", question,
        lambda: _five_alike_chance(kept, throws, faces),
        title="4. Why the greedy bot keeps a group",
        explanation=(f"Every thrown die must show a {face}: multiply {thrown} chances of "
                     f"{each}." if throws == 1 else
                     f"Each thrown die needs a {face} within {throws} throws, "
                     f"1 − ({faces - 1}/{faces})^{throws}, and the {thrown} dice do this "
                     f"independently: (1 − ({faces - 1}/{faces})^{throws})^{thrown}.")
                    + " Keeping two different values instead makes the chance 0: that is how "
                      "the players of the flaw finder's staller keep a Jactus game going for "
                      "ever.",
        hint=(f"Each thrown die must show a {face}." if throws == 1 else
              f"Follow one thrown die: its chance of a {face} at least once in {throws} "
              "throws. The dice are independent."),
        params={"kept": kept, "throws": throws, "face": face, "faces": faces},
        mistakes=unique_mistakes(right, (
            Mistake(Fraction(faces, faces ** thrown),
                    f"Any {words[thrown]} alike is not enough (nor one matching die): they "
                    f"must all show a {face}, the value kept.") if thrown > 1 else None,
            Mistake(Fraction(1, faces ** 2), "That is for two dice; all three thrown dice "
                                             "must match.") if thrown == 3 else None,
            Mistake(Fraction(1, faces) ** thrown, "That is one throw; the player may throw "
                                                  f"{words[throws]} times.") if throws > 1
            else None,
            Mistake(1 - miss ** throws, f"That is one die's chance; all {words[thrown]} "
                                        f"thrown dice need a {face}.")
            if throws > 1 and thrown > 1 else None,
        )))


#: The lab's comparison of question 5: Jinns, the height reading against the rulebook,
#: greedy bots, seed 0. A student's question reads its first n games (the lab's games of
#: a tournament of n games are the first n of a longer one: the same seeds).
HEIGHT_STUDY: dict[str, Any] = {
    "game": "jinns", "variants": {"rulebook": {}, "height": {"distance": "height"}},
    "bots": ["greedy"], "seed": 0, "games": 400}
#: The rows of the lab's table a student's question 5 may ask about, and their units.
Q5_METRICS = {"duration": "turns", "branching_factor": "moves to choose from",
              "score_difference": "points between the best and the worst score"}


def _height_study() -> Any:
    """The class's shared study behind question 5 (computed once, kept on disk)."""
    from .studies import shared
    from .tournament import compare_variants
    s = HEIGHT_STUDY
    return shared(compare_variants, s["game"], s["variants"], bots=s["bots"],
                  n=s["games"], seed=s["seed"], progress=False)


@lru_cache(maxsize=None)
def _height_difference(games: int, metric: str = "duration") -> Fraction:
    """The paired difference (height − rulebook) of ``metric`` over the first ``games``
    games of :func:`_height_study`: what the lab shows for that many games, seed 0."""
    from .tournament import TournamentResult, VariantComparison
    if not 1 <= games <= HEIGHT_STUDY["games"]:
        raise ValueError(f"games={games}: the shared study has 1 to "
                         f"{HEIGHT_STUDY['games']} games")
    study = _height_study()
    cut = [TournamentResult(game=r.game, variant=r.variant, bots=r.bots, rows=r.rows[:games],
                            max_plies=r.max_plies, seed=r.seed) for r in study.results]
    value = VariantComparison(study.game, list(study.labels), cut).difference_value(metric)
    short = Fraction(value).limit_denominator(1000)        # a mean of whole numbers: exact
    return short if abs(short - Fraction(value)) < Fraction(1, 10**9) else Fraction(value)


def _height_turns(seed: int = 0) -> Fraction:
    """The class's question 5: the paired difference in turns over 200 games, seed 0."""
    if seed != HEIGHT_STUDY["seed"]:
        raise ValueError(f"seed={seed}: question 5 reads the shared study of seed "
                         f"{HEIGHT_STUDY['seed']}")
    return _height_difference(200)


def _height(seed: int, games: int = 200, metric: str = "duration") -> Exercise:
    unit = Q5_METRICS[metric]
    question = (
        "In the lab: Jinns of the Lake, change distance to height, bots greedy, 200 "
        f"games, seed {seed}, Run. By how many turns does the height reading lengthen the "
        "average game (the paired difference, to one decimal)?"
        if (games, metric) == (200, "duration") else
        f"In the lab: Jinns of the Lake, change distance to height, bots greedy, {games} "
        f"games, seed {seed}, Run. By how much does the height reading change {metric} "
        f"({unit}, per game on average)? Give the paired difference, height − rulebook, to "
        "one decimal.")
    return Exercise(
        "q5", question, lambda: _height_difference(games, metric),
        title="5. Read the paired difference", probability=False,
        # "to one decimal": half a tenth of the value, or of the figure the lab's table
        # shows (the paired difference as ``number`` writes it: 8.845 shows as +8.85, and
        # a student who rounds that to 8.9 is right)
        tolerance=WithinShown(Fraction(1, 20), lambda v: number(v, signed=True),
                              "the lab's table shows"),
        computer="the lab (game-design-lab.ipynb, Your own experiment)",
        params={"seed": seed, "games": games, "metric": metric},
        explanation=f"Read the row '{metric}' in the column 'distance=height − rulebook'. "
                    f"The same {games} seeds under both readings: the difference comes from "
                    "the rule, not from luck.",
        hint=f"The row '{metric}' is measured game by game; take the difference column, "
             "not either variant's own value.")


#: Question 3 for students: (games played, how many times narrower).
MORE_GAMES_CASES = tuple((games, k) for games in range(50, 510, 10) for k in (2, 3, 4, 5, 6))
#: Question 4 for students: (dice kept, throws allowed, faces of the dice).
#: (One die thrown once is left out: its chance, 1/faces, is a figure the page writes.)
FIVE_ALIKE_CASES = tuple((kept, throws, faces) for kept in (1, 2, 3, 4)
                         for throws in range(1, 7) for faces in (4, 6, 8, 10, 12, 20)
                         if (kept, throws) != (4, 1))
#: Question 5 for students: (games of the shared study read, the row of the table).
HEIGHT_CASES = tuple((games, metric) for games in range(20, HEIGHT_STUDY["games"] + 1, 10)
                     for metric in Q5_METRICS)

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


def _four_figures_look_like_three(x: Fraction) -> bool:
    """Whether ``x`` to four significant figures ends in a 0, so that it is written with
    three (0.2140 as ``0.214``): a figure that the lab's tables print by chance.

    >>> look = _four_figures_look_like_three
    >>> look(Fraction(21397856, 10**8)), look(Fraction(1, 7))
    (True, False)
    """
    return f"{float(x):.3e}"[4] == "0"


@lru_cache(maxsize=None)
def _five_alike_cases() -> tuple[tuple[int, int, int], ...]:
    """Question 4's cases for students, leaving out those whose answer to four figures
    reads as three (its form on the page could stand in a table of the lab by chance)."""
    return tuple(c for c in FIVE_ALIKE_CASES
                 if not _four_figures_look_like_three(_five_alike_chance(*c)))


def _design_lesson(rng: np.random.Generator | None) -> list[Exercise]:
    """The class's questions (``rng`` None) or a student's own numbers: each drawn so that
    no student's answer is the class's, nor accepted by the student's own check."""
    if rng is None:
        return [ADVANTAGE, BALANCE, MORE_GAMES, FIVE_OF_A_KIND, HEIGHT_TURNS]

    def own(make: Any, draw: Any, key: Exercise) -> Exercise:
        while True:
            exercise = make(*draw())
            if exercise.answer != key.answer and not exercise.accepts(key.answer):
                return exercise

    # q1: an advantage that is a repeating decimal too (a short exact one, 1/16 = 0.0625,
    # can stand in the lab's tables by chance: an interval's end, a share)
    def advantage() -> tuple[int, int, int]:
        while True:
            a = int(rng.integers(70, 111))
            b = int(rng.integers(40, 200 - a - 9))
            if _repeats(Fraction(a, a + b) - Fraction(1, 2)):
                return a, b, 200 - a - b

    # q2: 300 decisive games and a largest gap that 3 does not divide, so that the balance
    # is a repeating decimal (the lab's pages print many short figures: 0.49, 36.5%); the
    # gap drawn first, every gap equally likely, then the three seats' wins around it
    gaps = [g for g in range(6, 221) if g % 3]

    def balance() -> tuple[int, int, int]:
        gap = gaps[int(rng.integers(len(gaps)))]
        lows = [lo for lo in range(15, 150) if 300 - 2 * gap < 3 * lo < 300 - gap]
        lo = lows[int(rng.integers(len(lows)))]
        return 300 - 2 * lo - gap, lo + gap, lo

    def more_games() -> tuple[int, int]:
        return spread(rng, MORE_GAMES_CASES, lambda c: Fraction(c[0] * c[1] ** 2),
                      avoid={MORE_GAMES.answer})

    def five_alike() -> tuple[int, int, int, int]:
        kept, throws, faces = spread(rng, _five_alike_cases(), lambda c: _five_alike_chance(*c),
                                     avoid={FIVE_OF_A_KIND.answer})
        return kept, int(rng.integers(1, faces + 1)), throws, faces

    def height() -> tuple[int, int, str]:
        games, metric = spread(rng, HEIGHT_CASES, lambda c: _height_difference(*c),
                               avoid={HEIGHT_TURNS.answer})
        return HEIGHT_STUDY["seed"], games, metric

    return [own(_advantage, advantage, ADVANTAGE), own(_balance, balance, BALANCE),
            own(_games_needed, more_games, MORE_GAMES),
            own(_five_of_a_kind, five_alike, FIVE_OF_A_KIND),
            own(_height, height, HEIGHT_TURNS)]


#: The lesson's exercises, in order (``EXERCISES.for_student(id)``: a student's numbers).
EXERCISES = ExerciseSet("game-design-lab", build=_design_lesson)

"""The pieces of the lesson ``notebooks/solving-jactus.ipynb``: small games solved by hand,
the checked exercises, a predict-then-measure panel, and the *set up this position*
control that puts the lesson's Jactus widget into an exercise's position.

Every exercise's answer is computed here (by the solver, the engine or exact sweeps of
the Bellman equations), never typed in, and shown only by :meth:`Exercise.check`. A
student's numbers are drawn from wide spaces, every different answer as likely as the
next and never the class's (:func:`~janus_widgets.analysis.checking.spread`).

>>> print(solving_jactus.q1.check("6/11"))      # doctest: +ELLIPSIS
Right: 6/11 ≈ 0.5455. ...
>>> bool(solving_jactus.q3.check("1/6"))       # one face, not any of four
False
>>> reach((6, 6, 6, 6, 2), ((1, 0, 0), NOTHING)).dice   # played from the start
(2, 6, 6, 6, 6)
"""

from __future__ import annotations

import html
import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

from .checking import (
    Exercise,
    ExerciseSet,
    Mistake,
    SignificantFigures,
    spread,
    unique_mistakes,
)
from .solve import (
    CHANCE_NODE,
    TERMINAL_NODE,
    GameGraph,
    cached_solution,
    value_iteration,
)

__all__ = [
    "DICE_FACES",
    "NOTHING",
    "NO_SPOIL_QUESTIONS",
    "PATTERNS",
    "SOLVER_QUESTIONS",
    "SetupError",
    "drawn_now",
    "exercise_position",
    "gamble_chance",
    "parse_dice",
    "parse_holding",
    "position_setup",
    "predict_and_measure",
    "race_graph",
    "race_value",
    "reach",
    "solver_questions",
    "solving_jactus",
    "spoil_chance",
    "spoil_counts",
    "trap_bracket",
    "trap_graph",
]


def drawn_now(figure: Any) -> Any:
    """``figure`` (matplotlib) drawn to a PNG now, as IPython shows a figure inline: an
    image to display later at no cost. A classroom's page is made ready before it knows
    its student and waits where it first needs to know; a picture drawn before that point
    is not drawn again by each of 30 pages opened at once.

    >>> from matplotlib.figure import Figure
    >>> figure = Figure(figsize=(2, 1)); _ = figure.subplots().plot([0, 1])
    >>> picture = drawn_now(figure)
    >>> picture.format, picture.data[:4] == b"\\x89PNG"
    ('png', True)
    """
    from IPython.core.pylabtools import print_figure
    from IPython.display import Image
    return Image(data=print_figure(figure, "png", bbox_inches="tight"), format="png")


#: The dice of the hand-solved games: faces of real dice (d4 … d20).
DICE_FACES = (4, 6, 8, 10, 12, 20)
THREE_FIGURES = SignificantFigures(3)
#: Numbers every lesson page shows anyway (the answer box's example, "e.g. 3/8 or
#: 0.375"): never a student's answer.
PAGE_NUMBERS = (Fraction(3, 8),)


@cache
def _unit(exponent: int) -> Fraction:
    return Fraction(10) ** (exponent - 2) / 2


def _margin(value: Fraction) -> Fraction:
    """Half a unit in the third significant figure of ``value``: how far a decimal
    answer to three figures may be from it (as :class:`SignificantFigures` ``(3)``).

    >>> _margin(Fraction(6, 11)), THREE_FIGURES.allows(Fraction(6, 11) + _margin(Fraction(6, 11)), Fraction(6, 11))
    (Fraction(1, 2000), True)
    """
    return _unit(math.floor(math.log10(abs(float(value)))))


def _clear(value: Fraction, class_key: Fraction, mistakes: Iterable[Fraction]) -> bool:
    """Whether ``value`` can be a student's key: not the class's (nor within three
    figures of it, either way), and more than twice the tolerance from every mistake
    (so a right answer rounded to three figures is never nearer a mistake)."""
    if value <= 0 or value >= 1 or value in PAGE_NUMBERS:
        return False
    margin = _margin(value)
    if abs(class_key - value) <= max(margin, _margin(class_key)):
        return False
    return all(abs(m - value) > 2 * margin for m in mistakes if m != value)


# --- 1. first to hit wins ------------------------------------------------------------
def race_graph(faces: int = 6, need_a: int | None = None,
               need_b: int | None = None) -> GameGraph:
    """*First six wins*, generalised: A and B take turns throwing a die of ``faces``
    faces, A first; A wins on ``need_a`` or more, B on ``need_b`` or more (the top face
    by default). Nodes: 0 A throws, 1 B throws, 2 A has won, 3 B has won."""
    p, q = _hits(faces, need_a, need_b)
    return GameGraph.from_edges([CHANCE_NODE, CHANCE_NODE, TERMINAL_NODE, TERMINAL_NODE],
                                {0: [2, 1], 1: [3, 0]}, {2: 1.0, 3: 0.0},
                                probs={0: [float(p), float(1 - p)],
                                       1: [float(q), float(1 - q)]})


def _hits(faces: int, need_a: int | None, need_b: int | None) -> tuple[Fraction, Fraction]:
    if faces not in DICE_FACES:
        raise ValueError(f"faces={faces!r}: a die here has one of {DICE_FACES} faces")
    need = [faces if n is None else n for n in (need_a, need_b)]
    for n in need:
        if not 1 <= n <= faces:
            raise ValueError(f"a throw of {n} or more is not on a die with {faces} faces "
                             f"(allowed: 1 … {faces})")
    return Fraction(faces - need[0] + 1, faces), Fraction(faces - need[1] + 1, faces)


def race_value(faces: int = 6, need_a: int | None = None,
               need_b: int | None = None) -> Fraction:
    """A's chance in the race of :func:`race_graph`, exactly: the two equations
    ``a = p + (1-p)·b`` and ``b = (1-q)·a`` solved with fractions (p and q the chances of
    A's and B's hit).

    >>> race_value(), race_value(20), race_value(8, 7, 5)
    (Fraction(6, 11), Fraction(20, 39), Fraction(2, 5))
    """
    from .jactus_odds import solve_exact
    p, q = _hits(faces, need_a, need_b)
    (a,), _ = solve_exact([[1, -(1 - p)], [-(1 - q), 1]], [[p], [0]])
    return a


# --- 2. the trap in miniature -------------------------------------------------------
def gamble_chance(dice: int, faces: int, need: int) -> Fraction:
    """The chance that at least one of ``dice`` dice of ``faces`` faces shows ``need``
    or more.

    >>> gamble_chance(1, 6, 6), gamble_chance(2, 8, 7)
    (Fraction(1, 6), Fraction(7, 16))
    """
    if dice not in (1, 2) or faces not in DICE_FACES or not 2 <= need <= faces:
        raise ValueError(f"a gamble here throws 1 or 2 dice of {DICE_FACES} faces and "
                         f"needs 2 … faces; got {dice} dice, {faces} faces, {need}")
    return 1 - Fraction(need - 1, faces) ** dice


def trap_graph(p_a: float, q_b: float) -> GameGraph:
    """The trap in miniature: A may stop with a gamble it wins with chance ``p_a`` or
    hand over to B; B may stop with a gamble it wins with chance ``q_b`` or hand back.
    Nodes: 0 A, 1 B, 2 A's gamble, 3 B's gamble, 4 A has won, 5 B has won."""
    return GameGraph.from_edges(
        [0, 1, CHANCE_NODE, CHANCE_NODE, TERMINAL_NODE, TERMINAL_NODE],
        {0: [2, 1], 1: [3, 0], 2: [4, 5], 3: [5, 4]}, {4: 1.0, 5: 0.0},
        probs={2: [float(p_a), 1 - float(p_a)], 3: [float(q_b), 1 - float(q_b)]})


def trap_bracket(p_a: Fraction, q_b: Fraction) -> tuple[Fraction, Fraction]:
    """Where value iteration settles for A's position in :func:`trap_graph`, from 0 and
    from 1 (:func:`~janus_widgets.analysis.solve.value_iteration`, 40 sweeps, read back
    as fractions: the gambles' chances have small denominators).

    >>> trap_bracket(Fraction(1, 6), Fraction(1, 2))
    (Fraction(1, 6), Fraction(1, 2))
    """
    graph = trap_graph(p_a, q_b)
    ends = [Fraction(float(value_iteration(graph, start, 40)[-1][0])).limit_denominator(10**6)
            for start in (0.0, 1.0)]
    return ends[0], ends[1]


def _gamble_text(who: str, dice: int, faces: int, need: int) -> str:
    die = f"{'a die' if dice == 1 else 'two dice'}" + ("" if faces == 6
                                                      else f" with {faces} faces")
    shows = ("it shows" if dice == 1 else "at least one shows") + (
        f" a {need}" if need == faces else f" {need} or more")
    other = "B" if who == "A" else "A"
    return f"throwing {die}: {who} wins if {shows}, otherwise {other} wins"


#: q2's gambles, (dice, faces, need) for A's and for B's: every one with p + q < 1 (the
#: two ways out leave a bracket).
GAMBLES = tuple((d, f, n) for d in (1, 2) for f in DICE_FACES for n in range(2, f + 1))
CLASS_TRAP = ((1, 6, 6), (1, 6, 4))


# --- 3. after a spoil -----------------------------------------------------------------
#: What five dice can show, from fewest to most alike (the try-or-spoil pictures' rows,
#: five of a kind left out: no spoil can hand it on).
PATTERNS = ("all different", "a pair", "two pairs", "three of a kind", "a full house",
            "four of a kind")
#: :data:`PATTERNS` as a mistake's explanation names them: by a word for the group, so that
#: the dashboard's kinds of mistake (numbers read as ``#``) keep three and four of a kind apart
_PATTERNS_IN_MISTAKES = ("all different", "a pair", "two pairs",
                         "a triple (three of a kind)", "a full house",
                         "a quadruple (four of a kind)")
_SHAPES = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 4,
           (4, 1): 5}


@cache
def spoil_counts(kept: tuple[int, ...], faces: int = 6) -> tuple[int, ...]:
    """A spoils: keeps ``kept`` (two or more different faces, two to four dice) and
    throws the others. Of the ``faces ** thrown`` equally likely results, how many give
    B each of :data:`PATTERNS`, counted one result at a time.

    >>> spoil_counts((1, 2, 3, 4)), spoil_counts((1, 3, 4))
    ((2, 4, 0, 0, 0, 0), (6, 21, 6, 3, 0, 0))
    """
    kept = tuple(sorted(kept))
    if faces not in DICE_FACES or not 2 <= len(kept) <= 4 or len(set(kept)) < 2 \
            or not set(kept) <= set(range(1, faces + 1)):
        raise ValueError(f"kept={kept!r}: a spoil keeps two to four dice showing at least "
                         f"two different faces of 1-{faces}")
    counts = [0] * len(PATTERNS)
    for thrown in product(range(1, faces + 1), repeat=5 - len(kept)):
        shape = tuple(sorted(Counter(kept + thrown).values(), reverse=True))
        counts[_SHAPES[shape]] += 1
    return tuple(counts)


def spoil_chance(kept: Sequence[int] = (1, 2, 3, 4), low: str = "a pair",
                 high: str | None = None, faces: int = 6) -> Fraction:
    """The chance that after A's spoil (:func:`spoil_counts`) B finds one of the
    patterns from ``low`` to ``high`` (just ``low`` when ``high`` is None), on dice of
    ``faces`` faces.

    >>> spoil_chance(), spoil_chance((2, 3, 5, 6), "all different")
    (Fraction(2, 3), Fraction(1, 3))
    >>> spoil_chance((1, 3, 4), "three of a kind", "four of a kind")
    Fraction(1, 12)
    """
    i, j = _event(low, high)
    counts = spoil_counts(tuple(kept), faces)
    chance = Fraction(sum(counts[i:j + 1]), faces ** (5 - len(kept)))
    return chance


def _event(low: str, high: str | None) -> tuple[int, int]:
    for name in (low, high):
        if name is not None and name not in PATTERNS:
            raise ValueError(f"{name!r} is not a pattern here: use one of "
                             f"{', '.join(PATTERNS)}")
    i = PATTERNS.index(low)
    j = i if high is None else PATTERNS.index(high)
    if j < i:
        raise ValueError(f"{low!r} to {high!r}: name the fewer alike first")
    return i, j


def _event_text(i: int, j: int) -> str:
    names = PATTERNS[i:j + 1]
    if len(names) == 1:
        return names[0] + (" (one pair, nothing more)" if names[0] == "a pair" else "")
    listed = ", ".join(names[:-1]) + " or " + names[-1]
    return listed


_SPOIL_SHAPES = ((1, 1), (2, 1), (1, 1, 1), (2, 2), (3, 1), (2, 1, 1), (1, 1, 1, 1))
#: q3's spoils: (faces, the shape of the kept dice, the patterns from i to j).
SPOILS = tuple((f, s, i, j) for f in DICE_FACES for s in _SPOIL_SHAPES if len(s) <= f
               for i in range(len(PATTERNS)) for j in range(i, len(PATTERNS)))
CLASS_SPOIL = (6, (1, 2, 3, 4), 1, 1)


def _shape_dice(shape: tuple[int, ...], faces: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(f for f, c in zip(faces, shape) for _ in range(c)))


def _spoil_value(option: tuple[int, tuple[int, ...], int, int]) -> Fraction:
    faces, shape, i, j = option
    counts = spoil_counts(_shape_dice(shape, range(1, 7)), faces)
    return Fraction(sum(counts[i:j + 1]), faces ** (5 - sum(shape)))


def _spoil_mistakes(kept: tuple[int, ...], i: int, j: int, faces: int) -> list[Mistake]:
    counts = spoil_counts(kept, faces)
    total = faces ** (5 - len(kept))
    right = Fraction(sum(counts[i:j + 1]), total)
    why = [Mistake(Fraction(c, total), f"That is the chance that B finds "
                                       f"{_PATTERNS_IN_MISTAKES[k]}"
                                       + (" alone." if i < j else "."))
           for k, c in enumerate(counts) if c and not i <= k <= j]
    if i < j:
        why += [Mistake(Fraction(counts[k], total), f"That is {_PATTERNS_IN_MISTAKES[k]} "
                                                    "alone; the "
                                                    "question counts more patterns.")
                for k in range(i, j + 1) if counts[k]]
    why.append(Mistake(1 - right, "That is the chance of every other result: the ones "
                                  "the question does not ask for."))
    why.append(Mistake(Fraction(1, 2), f"The thrown dice have {faces} faces of equal "
                                       "chance, not two outcomes: count the results."))
    if total > faces:
        why.append(Mistake(Fraction(1, total), "That is one particular result of the "
                                               "thrown dice; count all the results that "
                                               "do it."))
    return list(unique_mistakes(right, why))


def _spoil_explanation(kept: tuple[int, ...], i: int, j: int, faces: int) -> str:
    counts = spoil_counts(kept, faces)
    thrown = 5 - len(kept)
    total = faces ** thrown
    listed = ", ".join(f"{name} {c}" for name, c in zip(PATTERNS, counts) if c)
    right = sum(counts[i:j + 1])
    return (f"{thrown} {'die' if thrown == 1 else 'dice'} of {faces} faces thrown: "
            f"{faces}^{thrown} = {total} equally likely results. With "
            f"{' '.join(map(str, kept))} kept they give {listed}. {_event_text(i, j).capitalize()}: "
            f"{right} of {total}. Five of a kind never follows a spoil: the kept dice "
            "already show two faces, so a spoil hands B dice no better than a throw could "
            "make of them.")


# --- 4 and 5. the solver's positions ---------------------------------------------------
NOTHING = (0, 0, 0)
Holdings = tuple[tuple[int, int, int], tuple[int, int, int]]
#: A question of exercises 4 and 5: the dice A's throw left, what A and B hold, and the
#: pick-up B makes ("" for B's best, the position's value).
Question = tuple[tuple[int, ...], Holdings, str]


def exercise_position(dice: Sequence[int], holdings: Holdings = (NOTHING, NOTHING), *,
                      spoil: bool = True) -> Any:
    """B to pick up ``dice`` with A and B holding ``holdings`` (Venus cards, dogs, coins;
    the rest in the middle); at the start of the game by default. Built directly (fast,
    for the keys); :func:`reach` plays to the same position through the rules."""
    from ..games.jactus.rules import JactusVariant, position
    return position(JactusVariant(spoil=spoil), dice=tuple(dice), to_move=1,
                    holdings=tuple(holdings))


def _holding_label(held: Sequence[int]) -> str:
    venus, dogs, coins = held
    return "V" * venus + "D" * dogs + "C" * coins or "–"


def _pieces(held: Sequence[int]) -> str:
    names = (["the Venus card"] if held[0] else []) + (
        ["two dog cards" if held[1] == 2 else "a dog card"] if held[1] else []) + (
        ["the coin"] if held[2] else [])
    return " and ".join(names) or "nothing"


def _situation(holdings: Holdings) -> str:
    a, b = holdings
    if a == b == NOTHING:
        return "At the start of the game A's opening throw shows"
    return f"A holds {_pieces(a)}, B holds {_pieces(b)}, and A's throw has left"


def _setup_words(dice: Sequence[int], holdings: Holdings) -> str:
    return (f"dice {' '.join(map(str, dice))}, A holds {_holding_label(holdings[0])}, "
            f"B holds {_holding_label(holdings[1])}")


def _question_key(question: Question, spoil: bool) -> Fraction:
    dice, holdings, pick = question
    solution = cached_solution(None if spoil else {"spoil": False})
    state = exercise_position(dice, holdings, spoil=spoil)
    return Fraction(solution.value_for(state.play(pick) if pick else state, 1))


def _pickup_working(dice: Sequence[int], holdings: Holdings, spoil: bool = True) -> str:
    """The key's working for exercises 4 and 5: every pick-up of B with its value for B."""
    solution = cached_solution(None if spoil else {"spoil": False})
    state = exercise_position(dice, holdings, spoil=spoil)
    values = sorted(((1 - v, str(m)) for m, v in solution.move_values(state)), reverse=True)
    return ("B's pick-ups and their values for B (after the throw, averaged over its "
            "outcomes): " + ", ".join(f"{m} {v:.4f}" for v, m in values)
            + f". The best is {values[0][1]}: {values[0][0]:.4f}.")


def _holdings_all() -> list[Holdings]:
    """Every way A and B can hold the 2-player pieces with nobody having won."""
    out = []
    for a in product(range(2), range(3), range(2)):
        for b in product(range(2), range(3), range(2)):
            if all(x + y <= t for x, y, t in zip(a, b, (1, 2, 1))) \
                    and not (min(a[0], 1) and a[1] >= 2 and a[2]) \
                    and not (min(b[0], 1) and b[1] >= 2 and b[2]):
                out.append((a, b))
    return out


def _solver_mistakes(best: bool, spoil: bool) -> tuple[Fraction, ...]:
    return (Fraction(1, 2), Fraction(1, 6)) if spoil else (Fraction(1, 2),
                                                          Fraction(1, 1296))


def solver_questions(spoil: bool = True, *, dice: Iterable[tuple[int, ...]] | None = None,
                     seed: int = 35) -> list[Question]:
    """The questions exercises 4 (``spoil``) and 5 (no spoiling) draw from, made from
    the solution: every position with B to pick up (``dice``: the five dice to look at,
    all by default), B's payoff at it or after each pick-up, one question for each value
    to three significant figures, the one nearest the rounded value (a position's own
    value before a pick-up's). Values within three figures of the class's, or within
    twice that of a known mistake, are left out. The order of the positions looked at is
    shuffled with ``seed`` (a numpy Generator), so the questions mix holdings and dice.
    :data:`SOLVER_QUESTIONS` and :data:`NO_SPOIL_QUESTIONS` were made with it; the
    tests check them against the solution."""
    import numpy as np

    from ..games.jactus.rules import FIVE_DICE
    class_key = _question_key(CLASS_QUESTIONS[spoil], spoil)
    solution = cached_solution(None if spoil else {"spoil": False})
    pool = [(d, h) for d in (FIVE_DICE if dice is None else dice) if d[0] != d[-1]
            for h in _holdings_all()]
    order = np.random.default_rng(seed).permutation(len(pool))
    best: dict[str, tuple[tuple[int, Fraction], Question]] = {}
    for index in order:
        dice_now, holdings = pool[int(index)]
        state = exercise_position(dice_now, holdings, spoil=spoil)
        value = Fraction(solution.value_for(state, 1))
        moves = solution.move_values(state)
        for move, after in [(None, value), *((m, Fraction(1 - v)) for m, v in moves)]:
            mistakes = [*_solver_mistakes(move is None, spoil), 1 - after]
            if move is not None:
                mistakes.append(value)
            if not _clear(after, class_key, mistakes):
                continue
            label = f"{float(after):.3g}"
            rank = (abs(after - Fraction(label)) > _margin(after) / 5, move is not None)
            kept = best.get(label)
            if kept is None or rank < kept[0]:
                best[label] = (rank, (tuple(dice_now), holdings,
                                      "" if move is None else str(move)))
    return [best[label][1] for label in sorted(best, key=float)]


def _question_text(question: Question) -> str:
    dice, holdings, pick = question
    where = _setup_words(dice, holdings)
    return (f"{_situation(holdings)} {' '.join(map(str, dice))} and B is to pick up "
            f"(set it up: {where}). " + (
                "What is B's payoff under optimal play (a win 1, a game that never ends "
                "1/2)?" if not pick else
                f"B picks up {' '.join(pick[1:])} and throws {'it' if len(pick) == 2 else 'them'} "
                f"({pick}), whether or not "
                "that is B's best. What is B's payoff after it, with optimal play by both "
                "from then on (a win 1, a game that never ends 1/2)?")
            + " Give three significant figures.")


def _encode(questions: Iterable[Question]) -> str:
    """The questions as text, one a line: ``dice A-holds B-holds [pick-up]``."""
    return "\n".join(" ".join(["".join(map(str, d)), _holding_label(h[0]),
                               _holding_label(h[1]), *([p] if p else [])])
                     for d, h, p in questions)


def _decode(text: str) -> list[Question]:
    out = []
    for line in text.strip().splitlines():
        dice, a, b, *pick = line.split()
        out.append((tuple(int(c) for c in dice), (parse_holding(a), parse_holding(b)),
                    pick[0] if pick else ""))
    return out


CLASS_QUESTIONS: dict[bool, Question] = {
    True: ((2, 6, 6, 6, 6), (NOTHING, NOTHING), ""),
    False: ((1, 2, 3, 4, 5), (NOTHING, NOTHING), "")}


# --- set up this position -----------------------------------------------------------
class SetupError(ValueError):
    """A position the page cannot set up; the message says what is wrong and what is
    allowed, and ``rule`` is the rule that forbids it (``"JA-3"``)."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


_NONE_WORDS = ("", "-", "–", "—", "nothing", "none")
_LETTERS = {"V": 0, "D": 1, "C": 2}
_KINDS = ("Venus card", "dog card", "coin")
_TOTALS = (1, 2, 1)                     # 2 players (JA-3)


def parse_dice(text: str) -> tuple[int, ...]:
    """The five dice of a position, as the lesson writes them (``6 6 6 6 2``, also
    ``66662`` or ``6,6,6,6,2``), sorted.

    >>> parse_dice("6 6 6 6 2"), parse_dice("13245")
    ((2, 6, 6, 6, 6), (1, 2, 3, 4, 5))
    >>> parse_dice("6 6 7 1 2")
    Traceback (most recent call last):
    ...
    janus_widgets.analysis.solving_lesson.SetupError: JA-1: a die shows 1 to 6, not 7. Write the five dice that lie on the table, e.g. 6 6 6 6 2.
    """
    example = "Write the five dice that lie on the table, e.g. 6 6 6 6 2."
    parts = str(text).replace(",", " ").split()
    if len(parts) == 1 and parts[0].isdigit():
        parts = list(parts[0])
    faces = []
    for part in parts:
        if not part.isdigit():
            raise SetupError(f"{part!r} is not a die: a die shows 1 to 6. {example}", "JA-1")
        if not 1 <= int(part) <= 6:
            raise SetupError(f"JA-1: a die shows 1 to 6, not {int(part)}. {example}", "JA-1")
        faces.append(int(part))
    if len(faces) != 5:
        raise SetupError(f"JA-1: Jactus has five dice; {len(faces) or 'no'} "
                         f"{'was' if len(faces) == 1 else 'were'} given. {example}", "JA-1")
    return tuple(sorted(faces))


def parse_holding(text: str, who: str = "") -> tuple[int, int, int]:
    """What a seat holds, in the lesson's letters: V the Venus card, D a dog card, C the
    coin, – (or nothing at all) for nothing.

    >>> parse_holding("VD"), parse_holding("–"), parse_holding("d c")
    ((1, 1, 0), (0, 0, 0), (0, 1, 1))
    """
    clean = str(text).strip()
    if clean.lower() in _NONE_WORDS:
        return NOTHING
    counts = [0, 0, 0]
    for letter in clean.replace(",", "").replace("+", "").replace(" ", "").upper():
        if letter not in _LETTERS:
            raise SetupError(f"{(who + ' holds ') if who else ''}{clean!r}: {letter!r} is "
                             "not a piece. Write V for the Venus card, D for a dog card, C "
                             "for the coin (e.g. VD), or – for nothing.", "JA-1")
        counts[_LETTERS[letter]] += 1
    return counts[0], counts[1], counts[2]


def _check_holdings(holdings: Holdings) -> None:
    for kind, total in enumerate(_TOTALS):
        held = holdings[0][kind] + holdings[1][kind]
        if held > total:
            raise SetupError(
                f"JA-3: a 2-player game has one Venus card, two dog cards and one coin; "
                f"A and B would hold {held} {_KINDS[kind]}s. Give each piece to one "
                "player at most.", "JA-3")
    for who, held in zip("AB", holdings):
        if held[0] and held[1] >= 2 and held[2]:
            raise SetupError(
                f"JA-15: {who} holding the Venus card, two dog cards and the coin has "
                "won, and the game is over (JA-18): nobody picks up. Leave out a piece.",
                "JA-15")


def reach(dice: Sequence[int], holdings: Holdings = (NOTHING, NOTHING), *,
          spoil: bool = True) -> Any:
    """B to pick up ``dice``, A and B holding ``holdings``, *played from the start
    through the rules*: A's claims, then B's (each a throw of five of a kind and a claim
    from the supply), then A's throw that leaves ``dice``. Every move is checked by the
    engine; a position the rules cannot reach is refused with the rule that forbids it
    (:class:`SetupError`).

    >>> s = reach((1, 2, 3, 4, 5), ((0, 1, 0), (1, 0, 1)), spoil=False)
    >>> s.phase, s.current_player, s.holdings[1], s.ply
    ('pick', 1, Holding(venus=1, dogs=0, coins=1), 15)
    >>> reach((6, 6, 6, 6, 6))
    Traceback (most recent call last):
    ...
    janus_widgets.analysis.solving_lesson.SetupError: JA-8: five 6s is a scoring throw: A claims a piece (or passes) and opens a new round, so B never picks up 6 6 6 6 6. Change a die.
    >>> reach((1, 2, 3, 4, 5), ((1, 2, 1), NOTHING)).phase
    Traceback (most recent call last):
    ...
    janus_widgets.analysis.solving_lesson.SetupError: JA-15: A holding the Venus card, two dog cards and the coin has won, and the game is over (JA-18): nobody picks up. Leave out a piece.
    """
    from ..games.jactus.rules import GAME, KIND_NAMES, JactusVariant
    dice = tuple(sorted(dice))
    if len(dice) != 5 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        raise SetupError(f"JA-1: five dice of 1 to 6 lie on the table, not {dice!r}", "JA-1")
    if dice[0] == dice[-1]:
        raise SetupError(f"JA-8: five {dice[0]}s is a scoring throw: A claims a piece (or "
                         "passes) and opens a new round, so B never picks up "
                         f"{' '.join(map(str, dice))}. Change a die.", "JA-8")
    holdings = (tuple(holdings[0]), tuple(holdings[1]))          # type: ignore[assignment]
    _check_holdings(holdings)
    state = GAME.new(JactusVariant(spoil=spoil), seed=0)
    face = (6, 2, 1)                     # five 6s a Venus, five 2s a dog, five 1s a coin

    def claim(kind: int, pick: str = "r*") -> None:
        nonlocal state
        for move in (pick, "=" + str(face[kind]) * 5, KIND_NAMES[kind]):
            state = state.play(move)

    for kind, count in enumerate(holdings[0]):
        for _ in range(count):
            claim(kind)
    b_pieces = [kind for kind, count in enumerate(holdings[1]) for _ in range(count)]
    if b_pieces:
        state = state.play("r*").play("=12345")            # A's throw: B's turn
        for n, kind in enumerate(b_pieces):
            claim(kind, "r12345" if n == 0 else "r*")
        state = state.play("r*").play("=12345").play("r12345")   # B's throw, A's pick-up
    else:
        state = state.play("r*")
    state = state.play("=" + "".join(map(str, dice)))
    assert (state.phase, state.current_player, state.dice) == ("pick", 1, dice), state
    assert tuple(map(tuple, state.holdings)) == holdings, state.holdings
    return state


def position_setup(game: Any, *, hint: bool = True) -> Any:
    """The page's *set up this position* control for the Jactus widget ``game``: boxes
    for the dice and what A and B hold, in the lesson's notation; the button plays to
    that position from the start through the rules (:func:`reach`, under the game's own
    rules) and loads it into ``game``, B to pick up, with the best-move hint switched on
    (``hint``). A position the rules cannot reach is refused on the page, with the rule.

    >>> from janus_widgets.widgets.extras import jactus_widget
    >>> game = jactus_widget(seed=1, bot_delay=0)
    >>> setup = position_setup(game, hint=False)
    >>> setup.boxes[0].value, setup.boxes[1].value, setup.boxes[2].value = "6 6 6 2 3", "V", "–"
    >>> setup.button.click()
    >>> game.state.dice, game.state.current_player, "JA-" in setup.error
    ((2, 3, 6, 6, 6), 1, False)
    >>> setup.boxes[1].value = "VV"
    >>> setup.button.click()
    >>> setup.error[:5]
    'JA-3:'
    """
    from ..core.record import Record
    from ..widgets.extras import show_hint
    from .controls import SetUp

    def apply(values: dict[str, str]) -> str:
        variant = game.state.variant
        if game.game.name != "jactus" or variant.players != 2:
            raise SetupError("the set-up takes a 2-player Jactus game (the solver's)", "JA-2")
        if variant != type(variant)(spoil=variant.spoil):
            raise SetupError("the set-up plays the rulebook or its no-spoiling rule "
                             f"(JA-19); this game has other options ({variant.describe()}): "
                             "choose the rulebook in Game & variant first", "")
        dice = parse_dice(values["Dice:"])
        holdings = (parse_holding(values["A holds:"], "A"),
                    parse_holding(values["B holds:"], "B"))
        state = reach(dice, holdings, spoil=variant.spoil)
        game.load(Record.from_state(state))
        if hint:
            show_hint(game, True)
        rules = "the rulebook" if variant.spoil else "no spoiling (JA-19)"
        return (f"Set up under {rules}: {_setup_words(dice, holdings)}, B to pick up; "
                f"played from the start through the rules ({state.ply} moves). "
                "The best-move hint under the board gives B's payoff and the value of "
                "every pick-up.")

    return SetUp([("Dice:", "e.g. 6 6 6 6 2"), ("A holds:", "e.g. V, DC or –"),
                  ("B holds:", "e.g. – or D")], apply, button="Set up this position",
                 prompt="Set up a position (B to pick up): the dice A's throw left, "
                        "and what A and B hold (V the Venus card, D a dog card, C the "
                        "coin, – nothing).")


# --- the exercises ----------------------------------------------------------------------
def _die(faces: int) -> str:
    return "one die" if faces == 6 else f"a die with {faces} faces"


def _throw_text(need: int, faces: int) -> str:
    return f"a {'six' if faces == 6 else faces}" if need == faces else f"{need} or more"


@cache
def _races() -> tuple[tuple[Fraction, tuple[tuple[int, int, int], ...]], ...]:
    """q1's races (faces, A's need, B's need) a student may get, grouped by A's chance."""
    key = race_value(6)
    options = []
    for faces in DICE_FACES:
        for a in range(2, faces + 1):
            for b in range(2, faces + 1):
                p, q = Fraction(faces - a + 1, faces), Fraction(faces - b + 1, faces)
                value = p / (1 - (1 - p) * (1 - q))
                if _clear(value, key, (Fraction(1, 2), p, 1 - value, p / (p + q))):
                    options.append(((faces, a, b), value))
    return _grouped(options)


def _grouped(options: Iterable[tuple[Any, Fraction]]) -> tuple[tuple[Fraction, tuple[Any, ...]], ...]:
    """Options grouped by their answer, in order of the answer: what :func:`_draw` draws
    from (made once; drawing from it is then cheap)."""
    groups: dict[Fraction, list[Any]] = {}
    for option, value in options:
        groups.setdefault(value, []).append(option)
    return tuple((value, tuple(groups[value])) for value in sorted(groups))


def _draw(rng: Any, grouped: Sequence[tuple[Fraction, tuple[Any, ...]]]) -> Any:
    """One option for a student: every different answer equally likely
    (:func:`~janus_widgets.analysis.checking.spread` over the answers), then one of the
    options giving it."""
    _, group = spread(rng, grouped, lambda g: g[0])
    return group[int(rng.integers(len(group)))]


def _race_mistakes(faces: int, a: int, b: int) -> list[tuple[Fraction, str]]:
    p, q = _hits(faces, a, b)
    right = race_value(faces, a, b)
    return [(Fraction(1, 2), ("Both have the same chance a throw, but A throws first: A "
                              "gets the first chance in every pair of throws.") if p == q else
             "1/2 would be an even game; count A's chance over every pair of throws."),
            (p, (f"{p} is A's chance on the first throw only; if both miss, A throws "
                 "again.")),
            (1 - right, f"{1 - right} is B's chance, not A's."),
            (p / (p + q), ("p/(p + q) would be right if A and B threw at once and one of "
                           "them had to hit; they take turns, A first."))]


@cache
def _traps() -> tuple[tuple[Fraction, tuple[Any, ...]], ...]:
    """q2's pairs of gambles (A's, B's) a student may get, grouped by the bracket's
    width."""
    key = 1 - gamble_chance(*CLASS_TRAP[1]) - gamble_chance(*CLASS_TRAP[0])
    by_chance: dict[Fraction, list[tuple[int, int, int]]] = {}
    for gamble in GAMBLES:
        by_chance.setdefault(gamble_chance(*gamble), []).append(gamble)
    options = []
    for p, mine in by_chance.items():
        for q, theirs in by_chance.items():
            width = 1 - q - p
            if p + q < 1 and _clear(width, key, (Fraction(0), p, 1 - q, q - p)):
                options += [((ga, gb), width) for ga in mine for gb in theirs]
    return _grouped(options)


def _trap_width(ga: tuple[int, int, int], gb: tuple[int, int, int]) -> Fraction:
    low, high = trap_bracket(gamble_chance(*ga), gamble_chance(*gb))
    return high - low


def _trap_mistakes(p: Fraction, q: Fraction) -> list[tuple[Fraction, str]]:
    out = [(Fraction(0), ("The two runs do not meet: a cycle both players may keep "
                          "passes on no information, sweep after sweep.")),
           (p, (f"{p} is where value iteration settles from 0 (A's way out); the bracket "
                "runs from there to where it settles from 1.")),
           (1 - q, (f"{1 - q} is where value iteration settles from 1 (B's way out, for "
                    "A); the bracket runs from where it settles from 0 up to there."))]
    if q > p:
        out.append((q - p, ("When B stops, A wins with 1 minus B's chance, not with B's "
                            "chance.")))
    return out


@cache
def _spoils() -> tuple[tuple[Fraction, tuple[Any, ...]], ...]:
    """q3's spoils (faces, shape of the kept dice, patterns i to j), grouped by their
    chance."""
    key = spoil_chance(*CLASS_SPOIL[1:2], PATTERNS[1])
    options = []
    for option in SPOILS:
        faces, shape, i, j = option
        value = _spoil_value(option)
        kept = _shape_dice(shape, range(1, faces + 1))
        if 0 < value < 1 and _clear(value, key, [m.resolve() for m in
                                                 _spoil_mistakes(kept, i, j, faces)]):
            options.append((option, value))
    return _grouped(options)


def _pick_question(rng: Any, questions: Sequence[Question]) -> Question:
    return questions[int(rng.integers(len(questions)))]


def _solving_jactus(rng: Any) -> list[Exercise]:
    """The exercises of ``solving-jactus``; ``rng`` draws a student's own numbers."""
    if rng is None:
        faces, need_a, need_b = 6, 6, 6
        gambles = CLASS_TRAP
        faces3, kept, i, j = CLASS_SPOIL
        q4, q5 = CLASS_QUESTIONS[True], CLASS_QUESTIONS[False]
    else:
        faces, need_a, need_b = _draw(rng, _races())
        gambles = _draw(rng, _traps())
        faces3, shape, i, j = _draw(rng, _spoils())
        chosen = sorted(int(f) + 1 for f in rng.permutation(faces3)[:len(shape)])
        kept = _shape_dice(shape, [chosen[k] for k in rng.permutation(len(shape))])
        q4, q5 = _pick_question(rng, SOLVER_QUESTIONS), _pick_question(rng, NO_SPOIL_QUESTIONS)
    return [_q1(faces, need_a, need_b), _q2(*gambles), _q3(tuple(kept), i, j, faces3),
            _q4(q4, True), _q4(q5, False)]


def _q1(faces: int, need_a: int, need_b: int) -> Exercise:
    p, q = _hits(faces, need_a, need_b)
    a_wins = race_value(faces, need_a, need_b)
    if need_a == need_b == faces:
        top = "six" if faces == 6 else f"{faces}"
        question = (f"First {top} wins: A and B take turns throwing {_die(faces)}, A first, "
                    f"and the first to throw a {top} wins. What is A's chance of winning?")
    else:
        question = (f"First to hit wins: A and B take turns throwing {_die(faces)}, A first. "
                    f"A wins by throwing {_throw_text(need_a, faces)}, B by throwing "
                    f"{_throw_text(need_b, faces)}; the first to do so wins. What is A's "
                    "chance of winning?")
    return Exercise(
        "q1", question, lambda: race_value(faces, need_a, need_b),
        explanation=f"Call A's chance a (A about to throw) and b (B about to throw). A hits "
                    f"with p = {p}, B with q = {q}. A wins at once with p, otherwise it is "
                    f"B's turn: a = {p} + {1 - p}·b; and b = {1 - q}·a, since B must miss "
                    f"before A throws again. Solved together: a = p / (1 − (1 − p)(1 − q)) "
                    f"= {a_wins}. Backward induction on a cycle: the value of each position "
                    "is written in terms of the next, and the equations are solved together.",
        hint="Write A's chance before A's throw in terms of A's chance before B's throw, "
             "and solve the two equations together.",
        params={"faces": faces, "need_a": need_a, "need_b": need_b},
        mistakes=unique_mistakes(a_wins, (Mistake(v, why) for v, why
                                          in _race_mistakes(faces, need_a, need_b))))


def _q2(ga: tuple[int, int, int], gb: tuple[int, int, int]) -> Exercise:
    p, q = gamble_chance(*ga), gamble_chance(*gb)
    low, high = p, 1 - q
    value = p if p > Fraction(1, 2) else min(Fraction(1, 2), high)
    return Exercise(
        "q2", f"The trap in miniature, with dice. A may stop the game by "
              f"{_gamble_text('A', *ga)}; or A hands the turn to B. B may stop it by "
              f"{_gamble_text('B', *gb)}; or B hands the turn back. Value iteration sweeps "
              "the Bellman equations again and again (A takes the better of its two "
              "moves for A, B the worse for A, a gamble is worth its chance); started "
              "once with every value at 0 and once at 1, it settles at two values for "
              "A's position. How far apart are they?",
        lambda: _trap_width(ga, gb),
        explanation=f"A's way out is worth p = {p} to A, B's way out 1 − q = {high} to A. "
                    f"From 0: A takes max({p}, 0) = {p}, B min({high}, {p}) = {p}, and "
                    f"nothing changes any more. From 1: A takes max({p}, 1) = 1, B "
                    f"min({high}, 1) = {high}, then A max({p}, {high}) = {high}. The "
                    f"bracket is {high} − {p} = {high - low} wide and never closes: every "
                    "value in between solves the equations. The game's value, with a game "
                    f"that never ends counted 1/2, is {value}; value iteration cannot tell, "
                    "which is why the solver evaluates strategies exactly instead.",
        hint="Work out what each way out is worth to A, then do two sweeps by hand from "
             "0 and two from 1: A takes the larger of its gamble and B's value, B the "
             "smaller of its gamble (for A) and A's value.",
        params={"gamble_a": ga, "gamble_b": gb},
        mistakes=unique_mistakes(high - low, (Mistake(v, why)
                                              for v, why in _trap_mistakes(p, q))))


def _q3(kept: tuple[int, ...], i: int, j: int, faces: int) -> Exercise:
    thrown = {1: "the fifth die", 2: "the other two dice", 3: "the other three dice"}[
        5 - len(kept)]
    dice = "" if faces == 6 else (f"Played with dice of {faces} faces (1 to {faces}) "
                                  "instead of six, the rules unchanged: ")
    return Exercise(
        "q3", f"{dice}A spoils: A keeps {' '.join(map(str, kept))} on the table and throws "
              f"{thrown}. What is the chance that B then finds {_event_text(i, j)}?",
        lambda: spoil_chance(kept, PATTERNS[i], PATTERNS[j], faces),
        explanation=_spoil_explanation(kept, i, j, faces),
        hint=("Which faces of the thrown die match one of the dice left on the table?"
              if len(kept) == 4 else
              "List the results of the thrown dice by what they make with the dice on "
              "the table (a thrown die matching a kept face, thrown dice alike, …) and "
              "count each kind."),
        params={"kept": kept, "patterns": PATTERNS[i:j + 1], "faces": faces},
        mistakes=tuple(_spoil_mistakes(kept, i, j, faces)))


def _q4(question: Question, spoil: bool) -> Exercise:
    dice, holdings, pick = question
    section = "section 4" if spoil else "section 5"
    rules = "" if spoil else "The rule change: with no spoiling (spoil=False). "
    # A's payoff is a mistake worth naming where it stands apart from B's: in the students'
    # questions (solver_questions keeps them apart), not at the class's even start
    mistakes = [] if question == CLASS_QUESTIONS[spoil] else [
        Mistake(lambda: 1 - _question_key(question, spoil),
                "That is A's payoff; the question asks for B's.")]
    if spoil:       # (with no spoiling the class's position is worth a hair under 1/2)
        mistakes[:0] = [Mistake(Fraction(1, 6), "1/6 is the chance of five of a kind on "
                                                "one throw, not B's payoff in the game."),
                        Mistake(Fraction(1, 2), "1/2 would be an even game; this position "
                                                "is not.")]
    else:
        mistakes.insert(0, Mistake(Fraction(1, 1296), "1/1296 is the chance of five of a "
                                                      "kind when one die is kept, not B's "
                                                      "payoff in the game."))
    if pick:
        mistakes.append(Mistake(lambda: _question_key((dice, holdings, ""), spoil),
                                "That is B's payoff after B's best pick-up; the question "
                                f"names the pick-up {pick}."))
    return Exercise(
        "q4" if spoil else "q5", rules + _question_text(question),
        lambda: _question_key(question, spoil),
        explanation=("The solver's value for B, read off in the best-move hint: B's payoff "
                     "is that of B's best pick-up; B keeps the largest group that can bring "
                     "a piece it needs and throws the rest." if not pick else
                     f"The solver's value after {pick}: the average over the throw's "
                     "outcomes of B's payoff under optimal play, the row of that pick-up "
                     "in the best-move hint.") + ("" if spoil else
                                                  " With no spoiling the game ends for "
                                                  "certain."),
        working=lambda: _pickup_working(dice, holdings, spoil),
        hint=f"Set the position up with the page's set-up control in {section} (the dice, "
             "then what A and B hold) and switch on Best move (solver): it shows B's "
             "payoff and the value of every pick-up.",
        computer=f"the set-up control and the best-move hint of {section}",
        params={"dice": tuple(dice), "holdings": holdings, "pick": pick, "spoil": spoil},
        mistakes=tuple(mistakes))


solving_jactus = ExerciseSet("solving-jactus", build=_solving_jactus)


#: Exercise 4's questions (the rulebook), one a line: the dice A's throw left, what A and
#: B hold, and the pick-up B makes (none: B's best). Each has a value of its own to three
#: significant figures (made by :func:`solver_questions`; the tests check them).
SOLVER_QUESTIONS: list[Question] = _decode("""
15555 VDC – r1
15555 VDC – r15
15555 VDC – r5
22555 VDC D r2
22555 VDC D r22
15555 VDC – r155
15555 VDC – r55
22245 VDC –
12666 VDC D r1666
23336 VDC D
12666 VDC D r2
12566 VDC D
11146 VDC –
12666 VDC D
16666 VDC –
11116 VDC D
13333 VC – r1
22225 VC DD r5
34555 VC – r34
34555 VC – r3
11555 VC D r1
34555 VC – r345
12335 VC – r25
23455 VC –
12233 VC D r1
23445 VC D
12556 VC DD
23366 VC D
11166 VC –
11134 VC D
11115 VC –
11115 VC D
11113 VC DD
16666 DDC – r1
16666 DDC – r16
16666 DDC – r6
11115 VD – r5
11115 VD – r15
56666 DC D r5
25666 DC D r25
11234 VDD – r234
11234 VDD – r23
11155 V – r5
11155 V – r55
14456 DDC – r1445
14456 DDC – r144
46666 DDC –
11155 V – r155
56666 VD – r6
11555 DC –
11116 V D r6
11256 C D r112
23335 C DD
11256 C D
11156 DC –
11156 DC D
11135 C –
13666 V D
11114 DDC –
56666 VD –
11115 DC D
11113 C –
11113 C D
11114 C DD
16666 DDC V r1
26666 DC V r2
56666 DC VD r5
36666 C V r3
11145 VDD C r45
11112 V DC r2
16666 C VDD r1
11145 VDD C r4
11123 VD C r23
11134 VD DC r34
11123 VD C r2
11134 VD DC r3
36666 C V r36
23566 DDC V r235
11155 V DC r55
36666 C V r6
23566 DDC V r23
11123 V DDC r23
11123 VD C r123
23566 DDC V r2356
11123 V DDC r2
23566 DDC V r236
36666 C V r366
34456 VDD C
11556 DDC V
35666 VD C r35666
22226 VD C
11224 DC V
36666 D – r66
14556 – –
11345 V DC r1345
11345 V DC r134
11112 V DC
11123 V DDC r1123
35666 VD C
11123 V DDC
11266 C VDD
36666 D –
15666 VD DC
11126 C VD
11126 C VDD
16666 VDD C
16666 VD C
56666 V C
16666 VD DC
36666 V DC
56666 V DDC
26666 D V r2
46666 – V r4
11115 D DC r5
11116 – DC r6
11113 – DDC r3
11124 DD C r24
46666 – V r46
44666 D VD r44
11124 DD C r2
46666 – V r6
44666 D VD r4
44666 – VD r4
55666 – VDD r5
12266 D V r122
11124 DD C r12
34466 D VD r344
11124 DD C r1124
12224 D C r222
11124 DD C
11334 – V r11334
22225 – C
14444 D DC
11114 – DC
11234 – VD
23345 – DDC
22266 – DDC
11122 D VD
11666 – DC
11156 – VDD
11112 D V
11112 – V
46666 D DC
26666 – DC
46666 – DDC
11115 DD VC r5
56666 – VC r5
11166 DD VC r66
35666 D VC r35
11166 DD VC r6
11136 – VC r36
11136 – VC r3
12566 DD VC r125
13566 D VC r135
12566 DD VC r12
13566 D VC r13
11466 D VC r4
11136 – VC r16
11166 DD VC
12566 DD VC
23455 D VC
12244 – VC r22
23556 – VC
13335 – VC
24444 DD VC
22225 D VC
14444 – VC
46666 D VDC r4
16666 – VDC r1
46666 D VDC r46
25666 – VDC r25
46666 D VDC r6
25666 – VDC r2
46666 D VDC r466
11333 – VDC r333
46666 D VDC r66
11226 – VDC r22
23466 D VDC r2
46666 D VDC r4666
11333 – VDC r3
33466 D VDC r36
23466 D VDC
11333 – VDC r1
11226 – VDC
12333 D VDC
11333 – VDC
25555 D VDC
23333 – VDC
""")
#: Exercise 5's questions (no spoiling, JA-19), as :data:`SOLVER_QUESTIONS`.
NO_SPOIL_QUESTIONS: list[Question] = _decode("""
15555 VDC – r1
15555 VDC – r15
15555 VDC – r155
22555 VDC D r22
22245 VDC –
15555 VDC –
22555 VDC D r225
12566 VDC –
12666 VDC D r1666
23336 VDC D
12566 VDC D
11146 VDC –
12666 VDC D
16666 VDC –
11116 VDC D
13333 VC – r1
13333 VC D r1
22225 VC DD r5
34555 VC – r34
34555 VC – r345
11555 VC D r11
34555 VC –
12335 VC –
13466 VC –
23366 VC D r266
23366 VC D r2366
13455 VC D
23366 VC D
12355 VC DD
55566 VC DD
11134 VC D
11135 VC DD
11115 VC –
11115 VC D
11113 VC DD
16666 DDC – r1
16666 DDC – r16
11115 VD – r5
11234 VDD – r234
56666 DC D r5
25666 DC D r25
14456 DDC – r1445
45566 DC – r455
11234 VDD –
14456 DDC –
44445 DDC –
12256 VD – r2256
56666 VD – r56666
22244 VD –
11555 DC –
55666 VDD –
25666 DC D
22256 VD D
22266 VD D
11156 DC –
14445 V D
11116 V D
11156 DC D
23335 C DD
55556 V DD
11226 C DD
13666 V D
11133 C DD
11114 DDC –
56666 VD –
16666 DDC V r1
11115 DC D
11113 C –
11113 C D
11114 C DD
26666 DC V r2
11145 VDD C r45
36666 C V r3
11123 VD C r23
23566 DDC V r235
11134 VD DC r34
16666 C VDD r1
23566 DDC V r2356
11123 VD C r123
23566 DDC V
34456 VDD C
11556 DDC V
33335 DDC V
23346 DC V r2334
11123 VD C
24445 DC V
11224 DC V
36666 C V r366
11114 DD – r1114
35555 DD –
36666 D – r366
13346 V C r3346
34566 V C
11345 V DC r345
11114 DD –
12225 – DD
36666 D –
22666 V C
11345 V DC
11123 V DDC r123
15666 VD DC
24444 V DDC r2
44456 V DDC r56
11123 V DDC
11266 C VDD
11126 C VDD
16666 VD C
56666 V C
16666 VD DC
36666 V DC
11115 DD C r5
26666 D V r2
46666 – V r4
11115 D DC r5
11116 – DC r6
11113 – DDC r3
11124 DD C r24
11122 D C r22
56666 V DDC
46666 – V r46
44666 D VD r44
11124 DD C r124
44666 – VD r44
12266 D V r122
11124 DD C r1124
12222 DD C r12222
11225 DD V
12222 DD C
14466 D C r14466
12224 D C
14555 – C r4555
11236 – DC r236
11334 – V
14444 D DC
34566 D DC
11225 – DDC r225
11234 – VD r11234
23333 – VD
11234 – VD
11122 D VD
22266 – DDC r22266
12234 – VDD
22266 – DDC
11666 – DC
46666 DD C
11156 – VDD
11112 – V
46666 D DC
26666 – DC
46666 – DDC
11115 DD VC r5
36666 D VC r3
11166 DD VC r66
35666 D VC r35
56666 – VC r5
11136 – VC r36
12566 DD VC r125
13566 D VC r135
12224 DD VC r2224
11166 DD VC
12346 DD VC
11116 D VC
13566 D VC
12224 DD VC
23334 D VC
11666 – VC
11136 – VC
23556 – VC
13335 – VC
24444 DD VC
22225 D VC
14444 – VC
46666 D VDC r4
16666 – VDC r1
46666 D VDC r46
25666 – VDC r25
46666 D VDC r466
11333 – VDC r333
46666 D VDC r4666
11116 D VDC
46666 D VDC
33466 D VDC
11333 – VDC r1333
25666 – VDC
12333 D VDC
11226 – VDC
11333 – VDC
25555 D VDC
23333 – VDC
""")


def predict_and_measure(question: str, choices: Sequence[str],
                        measure: Callable[[], tuple[str, str]]) -> Any:
    """A panel: the class commits to a prediction (a dropdown), then *Measure* computes
    the answer. ``measure()`` returns ``(choice, explanation)``: which choice is right
    and a sentence with the numbers. Nothing is measured before the button is pressed.

    The panel has the CSS class ``janus-predict``; ``panel.choice_box``,
    ``panel.measure_button`` and ``panel.result`` are its parts.
    """
    import ipywidgets as w

    box = w.Dropdown(options=["(your prediction)", *choices], description="Predict:",
                     layout=w.Layout(width="34em"))
    button = w.Button(description="Measure", icon="flask", button_style="primary")
    result = w.HTML()

    def run(_: Any = None) -> None:
        right, explanation = measure()
        guess = box.value
        if guess not in choices:
            verdict = "No prediction was made."
        elif guess == right:
            verdict = "The prediction was right."
        else:
            verdict = f"The prediction was {html.escape(guess)!s}; the measurement says: " \
                      f"{html.escape(right)}."
        result.value = (f"<p><b>{html.escape(right)}</b>. {html.escape(explanation)} "
                        f"<i>{verdict}</i></p>")

    button.on_click(run)
    panel = w.VBox([w.HTML(f"<p><b>Predict, then measure.</b> {html.escape(question)}</p>"),
                    w.HBox([box, button]), result],
                   layout=w.Layout(border="1px solid #c9c2b0", padding="8px", margin="6px 0"))
    panel.add_class("janus-predict")
    panel.choice_box, panel.measure_button, panel.result = (  # type: ignore[attr-defined]
        box, button, result)
    return panel

"""Counting in Jinns of the Lake: the numbers of the Jinns lesson.

Jinns is a game of counting: a jinn of strength *n* moves to the *n*-th occupied cell
(JI-9), a pile may never hold a colour twice (JI-11), runs of four are laid from eight
jinns with repeated strengths (JI-4), and the newer edition lays all 32 at random (JI-6).
Each question here has an exact answer that the package counts with the engine itself —
by listing the legal placements and moves, by reading the table of allowed piles, or by
multiplying the exact chances of a random placement — never typed in.

>>> first_run_ways(), second_run_ways("Y1Y1Y2Y2"), piles_of(4)
(204, 6, 6144)
>>> neighbour_chance("colour"), expected_neighbour_pairs("colour")
(Fraction(7, 31), Fraction(224, 31))
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.rng import RandomStream
from ..games.jinns.rules import CELLS, GAME, HEIGHT, parse_pile, pawn_text
from .checking import Exercise, ExerciseSet, Mistake

__all__ = ["placement_ways", "first_run_ways", "second_run_ways", "piles_of", "neighbour_chance",
           "expected_neighbour_pairs", "neighbour_pair_counts", "simulate_neighbour_pairs",
           "counting_position",
           "JINNS_LESSON"]

_KINDS = {"colour": "the same colour", "kind": "the same colour and the same strength",
          "neither": "neither the same colour nor the same strength",
          "strength": "the same strength but different colours"}


def _setup_ways(state: Any, cells: int) -> int:
    """The number of different ways (as sequences of kinds) to fill the next ``cells``
    cells of the placement, counted on the engine's legal placement moves."""
    if cells == 0:
        return 1
    return sum(_setup_ways(state.play(m), cells - 1) for m in state.legal_moves())


@lru_cache(maxsize=None)
def placement_ways(cells: int) -> int:
    """In how many different ways can A fill the first ``cells`` cells (1 to 4) of the
    first yellow run (JI-4), from the eight yellow jinns, the order mattering?

    >>> placement_ways(2)                          # 4 strengths × 4 strengths
    16
    """
    if cells not in (1, 2, 3, 4):
        raise ValueError(f"cells={cells!r}: a run has 1 to 4 cells")
    return _setup_ways(GAME.new(seed=0), cells)


def first_run_ways() -> int:
    """In how many different ways can A lay the first yellow run (JI-4): four cells
    from the eight yellow jinns, two each of strength 1 to 4, the order mattering?"""
    return placement_ways(4)


@lru_cache(maxsize=None)
def second_run_ways(first_run: str) -> int:
    """In how many ways can A lay the second yellow run (the four yellow jinns left),
    once the first yellow run was ``first_run`` (e.g. ``"Y1Y1Y2Y2"``)? The blue run
    that B lays between them is any legal one: it changes nothing for yellow."""
    state = GAME.new(seed=0)
    for pawn in parse_pile(first_run):
        state = state.play(pawn_text(pawn))
    while state.run_colour != "Y":
        state = state.play(state.legal_moves()[0])
    return _setup_ways(state, 4)


def piles_of(height: int) -> int:
    """How many different piles of ``height`` jinns the rules allow (JI-11, no colour
    twice; written from the bottom up, so order matters), read off the engine's table."""
    if height not in (1, 2, 3, 4):
        raise ValueError(f"height={height}: a pile holds 1 to 4 jinns")
    return sum(1 for h in HEIGHT.values() if h == height)


@lru_cache(maxsize=None)
def _first_two_cells() -> tuple[tuple[str, Fraction, str, Fraction], ...]:
    """The exact joint law of the jinns drawn for cells 0 and 1 in a random placement
    (JI-6), from the engine's chance outcomes: (first, p, second, p given first)."""
    start = GAME.new(seed=0, placement="random")
    out = []
    for first, p in start.chance_outcomes():
        after = start.play(first)
        for second, q in after.chance_outcomes():
            out.append((first.notation[1:], p, second.notation[1:], q))
    return tuple(out)


def _same(a: str, b: str, kind: str) -> bool:
    if kind == "colour":
        return a[0] == b[0]
    if kind == "kind":
        return a == b
    if kind == "neither":
        return a[0] != b[0] and a[1] != b[1]
    if kind == "strength":
        return a[0] != b[0] and a[1] == b[1]
    raise ValueError(f"kind={kind!r}: use one of " + ", ".join(_KINDS))


def neighbour_chance(kind: str = "colour") -> Fraction:
    """In a random placement, the chance that cells 0 and 1 hold jinns of ``kind``:
    ``"colour"`` (the same colour), ``"kind"`` (same colour and strength),
    ``"neither"`` (different colours and different strengths) or ``"strength"`` (the
    same strength, different colours)."""
    return sum((p * q for a, p, b, q in _first_two_cells() if _same(a, b, kind)),
               Fraction(0))


def expected_neighbour_pairs(kind: str = "colour") -> Fraction:
    """The expected number of the ring's 32 neighbouring pairs of cells that hold jinns of
    ``kind``: every pair has the law of cells 0 and 1 (the placement treats all cells
    alike), so by linearity of expectation it is 32 times :func:`neighbour_chance`."""
    return CELLS * neighbour_chance(kind)


def neighbour_pair_counts(placements: int, seed: int, kind: str = "colour") -> np.ndarray:
    """Lay ``placements`` random rings from ``seed`` (JI-6, the engine's chance draws)
    and count, on each, the neighbouring pairs of ``kind``: one count per ring. The same
    seed gives the same rings.

    >>> neighbour_pair_counts(3, seed=1).tolist() == neighbour_pair_counts(3, seed=1).tolist()
    True
    """
    if isinstance(placements, bool) or not isinstance(placements, int) or placements < 1:
        raise ValueError(f"placements={placements!r}: use a whole number, at least 1")
    _same("Y1", "Y1", kind)                                # a bad kind fails here
    engine = GAME.engine(GAME.variant(placement="random"))
    stream = RandomStream(np.random.default_rng(seed))
    counts = np.zeros(placements, dtype=np.int64)
    for i in range(placements):
        raw = engine.initial()
        while engine.current(raw) == -1:
            raw = engine.apply(raw, engine.sample(raw, stream))
        state = GAME.from_raw(raw, engine.variant)
        ring = [str(state.pile(c)[0]) for c in range(CELLS)]
        counts[i] = sum(_same(ring[c], ring[(c + 1) % CELLS], kind) for c in range(CELLS))
    return counts


def simulate_neighbour_pairs(placements: int, seed: int, kind: str = "colour") -> float:
    """The mean of :func:`neighbour_pair_counts`, to set beside
    :func:`expected_neighbour_pairs`. The same seed gives the same rings."""
    return float(neighbour_pair_counts(placements, seed, kind).mean())


#: The class's position for counting moves: A (yellow and red) to move.
CLASS_POSITION = {0: "Y3", 2: "B1", 5: "R1G2", 9: "B4Y1", 14: "G3", 20: "Y2R4", 27: "B2",
                  30: "G1R2"}


@lru_cache(maxsize=64)
def counting_position(student: str | None = None) -> Any:
    """The position of the counting question: the class's (``student`` None), or a
    position of a seeded game of random moves that is the student's own."""
    from ..games.jinns.rules import position
    if student is None:
        return position(piles=CLASS_POSITION)
    from .checking import student_rng
    rng = student_rng("jinns-counting-position", student)
    state = GAME.new(seed=int(rng.integers(2**31)))
    stream = RandomStream(rng)
    plies = 32 + int(rng.integers(10, 30))
    while state.ply < plies or state.current_player != 0:
        if state.is_over:
            return counting_position(student + "+")
        moves = state.legal_moves()
        state = state.play(moves[stream.below(len(moves))])
    return position(piles={c: "".join(str(p) for p in state.pile(c))
                           for c in state.occupied})


def _position_svg(student: str | None) -> str:
    """The picture of :func:`counting_position` (for the printed worksheet)."""
    from ..games.jinns.draw import draw
    return draw(counting_position(student))._repr_svg_()


def _jinns_lesson(rng: np.random.Generator | None, student: str | None = None
                  ) -> list[Exercise]:
    first = "Y1Y2Y3Y4"
    kind = "colour"
    height = 4
    if rng is not None:
        first = str(rng.choice(["Y1Y1Y2Y2", "Y1Y2Y3Y3", "Y4Y4Y3Y3", "Y2Y3Y4Y4",
                                "Y1Y3Y1Y4"]))
        kind = str(rng.choice(["kind", "neither"]))
        height = int(rng.choice([2, 3]))
    left = Counter("11223344") - Counter(first[1::2])      # the strengths left for run 2
    shown = " ".join(first[i:i + 2] for i in range(0, 8, 2))
    q2_mistakes = [Mistake(Fraction(first_run_ways()), "That is the first run, from all "
                                                       "eight jinns.")]
    if max(left.values()) > 1:
        q2_mistakes.append(Mistake(Fraction(24), "24 = 4! treats the two jinns of the same "
                                                 "strength as different; swapping them "
                                                 "changes nothing."))
    else:
        q2_mistakes.append(Mistake(Fraction(1), "The order of the four jinns left is "
                                                "still A's choice."))
    return [
        Exercise(
            "q1", "A lays the first yellow run: four cells, from the eight yellow jinns "
                  "(two each of strength 1, 2, 3 and 4), in an order A chooses. Two jinns "
                  "of the same strength look the same. In how many different ways can the "
                  "run be laid?",
            lambda: Fraction(first_run_ways()), count=True, title="1. Laying a run",
            explanation="4 × 4 × 4 × 4 = 256 sequences of strengths, less those that use "
                        "a strength three or four times (there are only two of each): 4 × "
                        "(4 × 3) with a strength exactly three times and 4 with it four "
                        "times, so 256 − 48 − 4 = 204.",
            hint="Count all sequences of four strengths, then take away the ones that need "
                 "a third copy of a jinn.",
            mistakes=(
                Mistake(Fraction(256), "256 lets a strength appear three or four times; "
                                       "there are only two jinns of each strength."),
                Mistake(Fraction(1680), "8 × 7 × 6 × 5 treats the two jinns of a strength "
                                        "as different; they look the same."),
                Mistake(Fraction(24), "24 orders are for four different strengths only."),
            )),
        Exercise(
            "q2", f"A laid the first yellow run as {shown}. Later A lays the second yellow "
                  "run with the four yellow jinns left. In how many different ways?",
            lambda: Fraction(second_run_ways(first)), count=True,
            title="2. The second run",
            explanation="The four jinns left are placed in every order, but swapping two "
                        "of the same strength changes nothing: 4! divided by 2! for each "
                        "strength left twice.",
            hint="Which four jinns are left? Count their orders, then divide for the "
                 "ones that look alike.",
            mistakes=tuple(q2_mistakes)),
        Exercise(
            "q3", f"How many different piles of {height} jinns can the rules ever allow "
                  "(JI-11: no colour twice in a pile; a pile is read from the bottom up, so "
                  "the order counts; any strengths)?",
            lambda: Fraction(piles_of(height)), count=True,
            title=f"3. Piles of {height}",
            explanation=f"Choose the colours from the bottom up (4 × 3 × … , {height} "
                        f"factors) and a strength for each of the {height} jinns (4 "
                        "each).",
            hint="First the colours in order, then the strengths.",
            mistakes=(
                Mistake(Fraction(4 ** height * 4 ** height),
                        "The colours may not repeat (JI-11): 4 choices for the bottom, "
                        "then 3, …"),
                Mistake(Fraction(4 ** height), "That counts the strengths only; the "
                                               "colours can be ordered too."),
            )),
        Exercise(
            "q4", "The newer edition lays the 32 jinns at random (JI-6). What is the "
                  f"chance that cells 0 and 1 hold jinns of {_KINDS[kind]}?",
            lambda: neighbour_chance(kind), title="4. Neighbours",
            explanation="Whatever lands on cell 0, cell 1 gets one of the 31 jinns left, "
                        "each equally likely: count those that fit.",
            hint="Fix the jinn on cell 0. How many of the 31 others fit?",
            mistakes=(
                Mistake(lambda: Fraction(8 if kind == "colour" else
                                         2 if kind == "kind" else 19, 32),
                        "Cell 0's jinn is no longer among the jinns left: divide by 31, "
                        "and count without it."),
            )),
        Exercise(
            "q5", "Around the whole ring there are 32 pairs of neighbouring cells (31 and "
                  "0 are neighbours too). In a random placement, what is the expected "
                  f"number of neighbouring pairs that hold jinns of {_KINDS[kind]}?",
            lambda: expected_neighbour_pairs(kind), probability=False,
            title="5. All the neighbours",
            explanation="Linearity of expectation: each of the 32 pairs is such a pair "
                        "with the chance of question 4, whatever the others do, so the "
                        "expected number is 32 times that chance, although the pairs are "
                        "not independent.",
            hint="You do not need the chances of 0, 1, 2, … pairs. Add the chance of "
                 "each pair.",
            mistakes=(
                Mistake(lambda: neighbour_chance(kind),
                        "That is one pair; there are 32."),
                Mistake(lambda: 31 * neighbour_chance(kind),
                        "The ring closes: cells 31 and 0 are neighbours too, 32 pairs."),
            )),
        Exercise(
            "q6", "In the position drawn above (A plays yellow and red), how many legal "
                  "moves does A have? Count every depth (JI-8) and both directions (JI-9), "
                  "and leave out moves the colour rule (JI-11) forbids.",
            lambda: Fraction(len(counting_position(student).legal_moves())), count=True,
            title="6. Counting moves", figure=lambda: _position_svg(student),
            explanation="For each pile topped by yellow or red, each depth from 1 to the "
                        "pile's height, each direction: the n-th occupied cell is the "
                        "landing, and the move counts unless the landing pile already has a "
                        "colour of the moving pawns (a move landing the same cell both ways "
                        "counts once, JI-12).",
            hint="Go pile by pile. The strength of the moving pile's top pawn says how many "
                 "occupied cells it travels.",
            mistakes=(
                Mistake(lambda: Fraction(2 * sum(
                    len(counting_position(student).pile(c))
                    for c in counting_position(student).movable_cells())),
                    "That counts every depth both ways; some landings are refused by the "
                    "colour rule (JI-11)."),
            )),
    ]


class _JinnsLessonSet(ExerciseSet):
    """The lesson's set: question 6 reads the student's own position."""

    def __init__(self, student: str | None = None) -> None:
        super().__init__("jinns-counting", build=lambda rng: _jinns_lesson(rng, student),
                         student=student)

    def for_student(self, student: str | None) -> ExerciseSet:
        return _JinnsLessonSet(None if student is None else student.strip())

    @property
    def varies(self) -> bool:
        return True


#: The Jinns lesson's exercises (``exercise_sets()["jinns-counting"]``).
JINNS_LESSON: ExerciseSet = _JinnsLessonSet()

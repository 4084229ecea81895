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

import math
from collections import Counter
from itertools import permutations, product
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.rng import RandomStream
from ..games.jinns.rules import (CELLS, GAME, HEIGHT, PASS, PAWN_COLOUR, PAWN_STRENGTH,
                                  YELLOW, RED, parse_pile, pawn_text, pile_pawns)
from .checking import Exercise, ExerciseSet, Mistake, unique_mistakes

__all__ = ["placement_ways", "first_run_ways", "second_run_ways", "run_ways", "arrangements",
           "piles_of", "piles_where", "neighbour_chance", "expected_neighbour_pairs",
           "neighbour_pair_counts", "simulate_neighbour_pairs", "counting_position",
           "counting_position_svg", "JINNS_LESSON"]

_KINDS = {"colour": "the same colour", "kind": "the same colour and the same strength",
          "neither": "neither the same colour nor the same strength",
          "strength": "the same strength but different colours",
          "gap1": "jinns whose strengths differ by exactly 1",
          "sum5": "jinns whose strengths add up to 5",
          "yellow": "two yellow jinns",
          "colour-or-strength": "the same colour or the same strength (or both)"}


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


def run_ways(strengths: int, copies: int, cells: int = 4) -> int:
    """In how many ways can a run of ``cells`` cells be laid from a set with strengths 1 to
    ``strengths`` and ``copies`` look-alike jinns of each: the sequences of strengths that
    use no strength more than ``copies`` times (listed, not by a formula).

    >>> run_ways(4, 2) == first_run_ways(), run_ways(3, 2)
    (True, 54)
    """
    if strengths < 1 or copies < 1 or cells < 1:
        raise ValueError("strengths, copies and cells are whole numbers, at least 1")
    return sum(1 for seq in product(range(strengths), repeat=cells)
               if max(Counter(seq).values()) <= copies)


def arrangements(jinns: str) -> int:
    """The different orders in which the jinns ``"Y1Y1Y2Y3"`` can be laid (look-alike jinns
    swapped give the same order), listed.

    >>> arrangements("Y1Y1Y2Y3"), arrangements("Y2Y2Y2Y2")
    (12, 1)
    """
    pawns = [jinns[i:i + 2] for i in range(0, len(jinns), 2)]
    return len(set(permutations(pawns)))


#: What exercise 3 may ask of a pile (a predicate on its pawns, bottom first).
PILE_RULES = {
    "any": ("any strengths", lambda pawns: True),
    "different": ("no strength twice", lambda pawns: len({PAWN_STRENGTH[p] for p in pawns})
                  == len(pawns)),
    "yellow-top": ("a yellow jinn on top", lambda pawns: PAWN_COLOUR[pawns[-1]] == YELLOW),
    "no-red": ("no red jinn in it", lambda pawns: all(PAWN_COLOUR[p] != RED
                                                      for p in pawns)),
}


def piles_where(height: int, rule: str = "any") -> int:
    """How many of the piles the rules allow (JI-11) have ``height`` jinns and follow
    ``rule`` (one of :data:`PILE_RULES`), read off the engine's table of piles.

    >>> piles_where(2, "different"), piles_where(3, "no-red")
    (144, 384)
    """
    if rule not in PILE_RULES:
        raise ValueError(f"rule={rule!r}: use one of " + ", ".join(PILE_RULES))
    test = PILE_RULES[rule][1]
    return sum(1 for code, h in HEIGHT.items() if h == height and test(pile_pawns(code)))


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
    if kind == "gap1":
        return abs(int(b[1]) - int(a[1])) == 1
    if kind == "sum5":
        return int(a[1]) + int(b[1]) == 5
    if kind == "yellow":
        return a[0] == b[0] == "Y"
    if kind == "colour-or-strength":
        return a[0] == b[0] or a[1] == b[1]
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
    while True:
        if state.is_over:
            return counting_position(student + "+")
        if state.ply >= plies and state.current_player == 0:
            built = position(piles={c: "".join(str(p) for p in state.pile(c))
                                    for c in state.occupied})
            if len(pile_moves(built)) >= 4:         # something to count, not a pass
                return built
        moves = state.legal_moves()
        state = state.play(moves[stream.below(len(moves))])


def pile_moves(state: Any) -> list[Any]:
    """The moves of piles in ``state`` (a pass, JI-18, is no move of a pile)."""
    return [m for m in state.legal_moves() if m.action != PASS]


def counting_position_svg(student: str | None = None) -> str:
    """The picture of :func:`counting_position` as it is printed: the ring, its piles and
    the seats, without the screen's prompts ("click"), the Pass button or the marks on the
    piles that can move (which would give half the answer away).

    >>> svg = counting_position_svg()
    >>> "<svg" in svg and "click" not in svg and "Pass" not in svg and "•" not in svg
    True
    """
    from ..games.jinns import draw as jinns_draw
    from ..widgets.drawing import Drawing
    state = counting_position(student)
    d = Drawing(jinns_draw.WIDTH, jinns_draw.HEIGHT, background="#ffffff",
                title="Jinns of the Lake: the position of question 6 (A plays yellow and red)")
    jinns_draw._board(d, state)
    jinns_draw._ring(d, state, None)
    jinns_draw._seats(d, state)
    d.text(jinns_draw.CX, jinns_draw.CY, "A (yellow and red) to move", size=15, bold=True,
           fill=jinns_draw.INK)
    return d._repr_svg_()


_position_svg = counting_position_svg


#: Exercise 1's sets of jinns for students: (strengths, look-alike jinns of each).
RUN_SETS = ((4, 2), (3, 2), (5, 2), (4, 3), (6, 2), (5, 3), (3, 3))
#: Exercise 2: (the eight yellow jinns, the first run), the class's first.
SECOND_RUNS = (("rulebook", "Y1Y2Y3Y4"), ("rulebook", "Y1Y1Y2Y2"), ("rulebook", "Y1Y2Y3Y3"),
               ("rulebook", "Y4Y4Y3Y3"), ("rulebook", "Y2Y1Y4Y3"), ("home", "Y1Y1Y1Y2"),
               ("home", "Y1Y1Y2Y2"), ("home", "Y1Y1Y1Y1"), ("home", "Y2Y1Y2Y2"))
_EIGHT = {"rulebook": ("two each of strength 1, 2, 3 and 4", "11223344"),
          "home": ("a home-made set: four of strength 1 and four of strength 2", "11112222")}
#: Exercise 3: (height, rule), the class's first.
PILE_QUESTIONS = ((4, "any"), (2, "any"), (3, "any"), (2, "different"), (3, "different"),
                  (3, "yellow-top"), (2, "no-red"))
#: Exercise 4 and 5: the pair of neighbours asked about, the class's first.
NEIGHBOURS = ("colour", "kind", "neither", "gap1", "sum5", "yellow", "colour-or-strength")


def _run_explanation(s: int, c: int) -> str:
    total = s ** 4
    bad = total - run_ways(s, c)
    return (f"{s}^4 = {total} sequences of strengths, less the {bad} that use a strength "
            f"more than {c} times (there are only {c} of each): {total} − {bad} = "
            f"{total - bad}.")


def _moves_working(student: str | None) -> str:
    state = counting_position(student)
    moves = pile_moves(state)
    return (f"A's {len(moves)} legal moves: " + ", ".join(f"{m} ({m.description})"
                                                         for m in moves) + ".")


def _jinns_lesson(rng: np.random.Generator | None, student: str | None = None
                  ) -> list[Exercise]:
    def pick(choices: tuple[Any, ...]) -> Any:
        return choices[0] if rng is None else choices[1 + int(rng.integers(len(choices) - 1))]

    s, c = pick(RUN_SETS)
    eight, first = pick(SECOND_RUNS)
    height, rule = pick(PILE_QUESTIONS)
    kind = pick(NEIGHBOURS)
    rulebook = (s, c) == (4, 2)
    set_words, all_eight = _EIGHT[eight]
    left = Counter(all_eight) - Counter(first[1::2])        # the strengths left for run 2
    left_text = "".join(f"Y{k}" * n for k, n in sorted(left.items()))
    shown = " ".join(first[i:i + 2] for i in range(0, 8, 2))
    run_answer = first_run_ways() if rulebook else run_ways(s, c)
    second = (second_run_ways(first) if eight == "rulebook" else arrangements(left_text))
    q2_mistakes = [Mistake(Fraction(run_ways(4, 2) if eight == "rulebook" else
                                    run_ways(2, 4)),
                           "That is the first run, from all eight jinns."),
                   Mistake(Fraction(24), "24 = 4! treats the jinns of the same strength as "
                                         "different; swapping them changes nothing."),
                   Mistake(Fraction(1), "The order of the four jinns left is still A's "
                                        "choice.")]
    pile_words, _ = PILE_RULES[rule]
    colours = " × ".join(str(4 - i) for i in range(height))
    q3_explanation = {
        "any": f"Choose the colours from the bottom up ({colours}, no colour twice) and a "
               f"strength for each of the {height} jinns (4 each).",
        "different": f"Colours from the bottom up ({colours}) and strengths from the bottom "
                     f"up, none twice ({colours}).",
        "yellow-top": "The top jinn is yellow (one colour), the others get the other "
                      f"colours from the bottom up ({' × '.join(str(3 - i) for i in range(height - 1))}), "
                      f"and every jinn a strength (4 each).",
        "no-red": f"Colours from yellow, blue and green only, none twice "
                  f"({' × '.join(str(3 - i) for i in range(height))}), and a strength for "
                  "each jinn (4 each)."}[rule]
    colour_free = 4 ** height
    q3_mistakes = [Mistake(Fraction(colour_free * colour_free), "The colours may not repeat "
                                                                "(JI-11): 4 choices for the "
                                                                "bottom, then 3, …"),
                   Mistake(Fraction(piles_where(height, "any")), "That counts every pile of "
                                                                 f"{height}; this one must "
                                                                 f"have {pile_words}.")
                   if rule != "any" else
                   Mistake(Fraction(4 ** height), "That counts the strengths only; the "
                                                  "colours can be ordered too.")]
    chance = neighbour_chance(kind)
    blind = {"colour": Fraction(8, 32), "kind": Fraction(2, 32),
             "neither": Fraction(18, 32), "gap1": Fraction(12, 32),
             "sum5": Fraction(8, 32), "yellow": Fraction(8, 32) * Fraction(8, 32),
             "colour-or-strength": Fraction(14, 32)}[kind]
    return [
        Exercise(
            "q1", ("A lays the first yellow run: four cells, from the eight yellow jinns "
                   "(two each of strength 1, 2, 3 and 4), in an order A chooses. Two jinns "
                   "of the same strength look the same. In how many different ways can the "
                   "run be laid?") if rulebook else
                  (f"A home-made set of jinns has strengths 1 to {s}, with {c} yellow jinns "
                   f"of each strength. A lays a yellow run of four cells from them, in an "
                   "order A chooses; two jinns of the same strength look the same. In how "
                   "many different ways can the run be laid?"),
            (lambda: Fraction(first_run_ways())) if rulebook else
            (lambda: Fraction(run_ways(s, c))), count=True, title="1. Laying a run",
            explanation=("4 × 4 × 4 × 4 = 256 sequences of strengths, less those that use "
                         "a strength three or four times (there are only two of each): 4 × "
                         "(4 × 3) with a strength exactly three times and 4 with it four "
                         "times, so 256 − 48 − 4 = 204.") if rulebook else
                        _run_explanation(s, c),
            hint="Count all sequences of four strengths, then take away the ones that need "
                 "more look-alike jinns than there are.",
            params={"strengths": s, "copies": c},
            mistakes=unique_mistakes(Fraction(run_answer), (
                Mistake(Fraction(s ** 4), f"{s ** 4} lets a strength appear more often than "
                                          f"the {c} jinns of it allow: there are only {c} "
                                          "jinns of each strength."),
                Mistake(Fraction(math.perm(s * c, 4)), f"{s * c} × {s * c - 1} × … treats "
                                                       "the jinns of a strength as "
                                                       "different; they look the same."),
                Mistake(Fraction(24), "24 orders are for four different strengths only."),
            ))),
        Exercise(
            "q2", (f"The eight yellow jinns are {set_words}. A laid the first yellow run "
                   f"as {shown}. Later A lays the second yellow run with the four yellow "
                   "jinns left. In how many different ways?"),
            (lambda: Fraction(second_run_ways(first))) if eight == "rulebook" else
            (lambda: Fraction(arrangements(left_text))), count=True,
            title="2. The second run",
            explanation="The four jinns left are placed in every order, but swapping two "
                        "of the same strength changes nothing: 4! divided by k! for each "
                        "strength left k times.",
            hint="Which four jinns are left? Count their orders, then divide for the "
                 "ones that look alike.",
            params={"eight": all_eight, "first": first},
            mistakes=unique_mistakes(Fraction(second), q2_mistakes)),
        Exercise(
            "q3", f"How many different piles of {height} jinns with {pile_words} can the "
                  "rules ever allow (JI-11: no colour twice in a pile; a pile is read from "
                  "the bottom up, so the order counts)?",
            lambda: Fraction(piles_where(height, rule)), count=True,
            title=f"3. Piles of {height}",
            explanation=q3_explanation,
            hint="First the colours in order, then the strengths.",
            params={"height": height, "rule": rule},
            mistakes=unique_mistakes(Fraction(piles_where(height, rule)), q3_mistakes)),
        Exercise(
            "q4", "The newer edition lays the 32 jinns at random (JI-6). What is the "
                  f"chance that cells 0 and 1 hold {_KINDS[kind]}?",
            lambda: neighbour_chance(kind), title="4. Neighbours",
            explanation="Whatever lands on cell 0, cell 1 gets one of the 31 jinns left, "
                        "each equally likely: count those that fit.",
            hint="Fix the jinn on cell 0. How many of the 31 others fit?",
            params={"kind": kind},
            mistakes=unique_mistakes(chance, (
                Mistake(blind, "Cell 0's jinn is no longer among the jinns left: divide by "
                               "31, and count without it."),
            ))),
        Exercise(
            "q5", "Around the whole ring there are 32 pairs of neighbouring cells (31 and "
                  "0 are neighbours too). In a random placement, what is the expected "
                  f"number of neighbouring pairs that hold {_KINDS[kind]}?",
            lambda: expected_neighbour_pairs(kind), probability=False,
            title="5. All the neighbours",
            explanation="Linearity of expectation: each of the 32 pairs is such a pair "
                        "with the chance of question 4, whatever the others do, so the "
                        "expected number is 32 times that chance, although the pairs are "
                        "not independent.",
            hint="You do not need the chances of 0, 1, 2, … pairs. Add the chance of "
                 "each pair.",
            params={"kind": kind},
            mistakes=unique_mistakes(expected_neighbour_pairs(kind), (
                Mistake(lambda: neighbour_chance(kind),
                        "That is one pair; there are 32."),
                Mistake(lambda: 31 * neighbour_chance(kind),
                        "The ring closes: cells 31 and 0 are neighbours too, 32 pairs."),
            ))),
        Exercise(
            "q6", "In the position drawn above (A plays yellow and red), how many legal "
                  "moves does A have? Count every depth (JI-8) and both directions (JI-9), "
                  "and leave out moves the colour rule (JI-11) forbids.",
            lambda: Fraction(len(pile_moves(counting_position(student)))), count=True,
            title="6. Counting moves", figure=lambda: counting_position_svg(student),
            explanation="For each pile topped by yellow or red, each depth from 1 to the "
                        "pile's height, each direction: the n-th occupied cell is the "
                        "landing, and the move counts unless the landing pile already has a "
                        "colour of the moving pawns (a move landing the same cell both ways "
                        "counts once, JI-12).",
            working=lambda: _moves_working(student),
            hint="Go pile by pile. The strength of the moving pile's top pawn says how many "
                 "occupied cells it travels.",
            params={"student": student},
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

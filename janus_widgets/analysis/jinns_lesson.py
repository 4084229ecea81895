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

#: What a student's question 6 asks of A's legal moves: the share of them that ...
MOVE_KINDS = {
    "deep": "moves two or more jinns at once (a depth of 2 or more)",
    "single": "moves one jinn alone (a depth of 1)",
    "red": "moves a pile topped by a red jinn",
    "yellow": "moves a pile topped by a yellow jinn",
    "onto-blue-green": "lands on a pile topped by a blue or a green jinn",
    "onto-one": "lands on a cell holding a single jinn",
    "tall": "makes a pile of three or more jinns where it lands",
}
#: How many seeded positions a student's question 6 is drawn from.
POSITION_POOL = 24


def _random_position(rng: np.random.Generator) -> Any:
    """A position of a seeded game of random moves, A to move with at least four moves
    (something to count, not a pass), drawn from ``rng``."""
    from ..games.jinns.rules import position
    while True:
        state = GAME.new(seed=int(rng.integers(2**31)))
        stream = RandomStream(rng)
        plies = 32 + int(rng.integers(10, 30))
        while not state.is_over:
            if state.ply >= plies and state.current_player == 0:
                built = position(piles={c: "".join(str(p) for p in state.pile(c))
                                        for c in state.occupied})
                if len(pile_moves(built)) >= 4:
                    return built
            actions = state.legal_actions()          # as legal_moves(), without the words
            state = state.play_action(actions[stream.below(len(actions))])


def both_ways(state: Any, move: Any) -> bool:
    """Whether ``move`` lands on a cell its pile reaches both ways round the ring: with
    exactly 2n occupied cells the n-th is the same cell clockwise and anticlockwise, one
    move (JI-12), which a literal count of "both directions" counts twice.

    >>> state = counting_position()
    >>> [str(m) for m in pile_moves(state) if both_ways(state, m)]
    ['20.1+', '20.2+']
    """
    cell = int(str(move).split(".")[0])
    return 2 * state.pile(cell)[-1].strength == len(state.occupied)


def move_is(state: Any, move: Any, kind: str) -> bool:
    """Whether A's ``move`` in ``state`` is of ``kind`` (one of :data:`MOVE_KINDS`)."""
    cell, rest = str(move).split(".")
    depth = int(rest[:-1])
    if kind in ("deep", "single"):
        return (depth >= 2) == (kind == "deep")
    if kind in ("red", "yellow"):
        return state.pile(int(cell))[-1].colour == kind[0].upper()
    landing = state.pile(state.landing(move))
    if kind == "onto-blue-green":
        return landing[-1].colour in "BG"
    if kind == "onto-one":
        return len(landing) == 1
    if kind == "tall":
        return len(landing) + depth >= 3
    raise ValueError(f"kind={kind!r}: use one of " + ", ".join(MOVE_KINDS))


def move_share(state: Any, kind: str, *, literal: bool = False) -> Fraction:
    """The share of A's legal moves in ``state`` that are of ``kind``; with ``literal``,
    as counted by someone who counts a landing reached both ways twice (JI-12 ignored)."""
    moves = pile_moves(state)
    weight = {str(m): 2 if literal and both_ways(state, m) else 1 for m in moves}
    hits = sum(weight[str(m)] for m in moves if move_is(state, m, kind))
    return Fraction(hits, sum(weight.values()))


def literal_move_count(state: Any) -> int:
    """A's legal moves counted literally, "every depth, both directions", so that a
    landing reached both ways (JI-12, one move) counts twice: the common mistake.

    >>> len(pile_moves(counting_position())), literal_move_count(counting_position())
    (8, 10)
    """
    moves = pile_moves(state)
    return len(moves) + sum(1 for m in moves if both_ways(state, m))


@lru_cache(maxsize=256)
def counting_question(student: str | None = None) -> tuple[Any, str | None]:
    """Question 6's position and what it asks: the class's position and its number of
    moves (``None``), or a student's own position and a kind of move
    (:data:`MOVE_KINDS`) whose share of A's moves is the answer. A student's is drawn from
    :data:`POSITION_POOL` seeded positions of random play and the kinds, every different
    share equally likely (:func:`~janus_widgets.analysis.checking.spread`), never 0 or 1."""
    from ..games.jinns.rules import position
    if student is None:
        return position(piles=CLASS_POSITION), None
    from .checking import spread, student_rng
    rng = student_rng("jinns-counting-position", student)
    pool = [_random_position(rng) for _ in range(POSITION_POOL)]
    options = [(i, kind) for i in range(len(pool)) for kind in MOVE_KINDS
               if 0 < move_share(pool[i], kind) < 1]
    # 3/8 is the example answer the page writes ("a fraction (3/8)"), and short decimals
    # (0.4, 0.25: multiples of 1/20) stand on a page by chance: never a student's
    i, kind = spread(rng, options, lambda o: move_share(pool[o[0]], o[1]),
                     avoid={Fraction(3, 8), *(Fraction(k, 20) for k in range(21))})
    return pool[i], kind


def counting_position(student: str | None = None) -> Any:
    """The position of the counting question: the class's (``student`` None), or the
    student's own (:func:`counting_question`)."""
    return counting_question(student)[0]


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


# --- a student's own numbers: home-made sets of jinns ----------------------------------
_NUMBER = {0: "no", 1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six",
           7: "seven", 8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}
#: The colours of a home-made set, the rulebook's four first.
HOME_COLOURS = ("yellow", "blue", "red", "green", "white", "black", "purple")


def sequence_count(copies: tuple[int, ...], cells: int) -> int:
    """In how many ways can ``cells`` cells be filled in order from jinns of strengths 1,
    2, … with ``copies[i]`` look-alike jinns of strength i + 1: the sequences of strengths
    that use no strength more often than it has jinns. Counted strength by strength (how
    many cells take strength 1, and which; then strength 2 in the cells left; …).

    >>> sequence_count((2, 2, 2, 2), 4) == first_run_ways(), sequence_count((1, 1, 2), 4)
    (True, 12)
    """
    if cells < 0 or any(c < 0 for c in copies):
        raise ValueError("copies and cells are whole numbers, at least 0")

    @lru_cache(maxsize=None)
    def fill(i: int, left: int) -> int:
        if i == len(copies):
            return int(left == 0)
        return sum(math.comb(left, j) * fill(i + 1, left - j)
                   for j in range(min(copies[i], left) + 1))
    return fill(0, cells)


def home_piles(colours: int, strengths: int, height: int, rule: str = "any") -> int:
    """How many piles of ``height`` jinns a home-made set of ``colours`` colours (yellow,
    blue, red, green, then others) and strengths 1 to ``strengths`` allows (JI-11: no colour
    twice; read from the bottom up) that follow ``rule`` (:data:`PILE_RULES`): the orders
    of colours listed, times the strengths (multiplication principle).

    >>> home_piles(4, 4, 3) == piles_of(3), home_piles(4, 4, 2, "different")
    (True, 144)
    """
    if rule not in PILE_RULES:
        raise ValueError(f"rule={rule!r}: use one of " + ", ".join(PILE_RULES))
    orders = [o for o in permutations(range(colours), height)
              if (rule != "yellow-top" or o[-1] == 0) and (rule != "no-red" or 2 not in o)]
    tops = math.perm(strengths, height) if rule == "different" else strengths ** height
    return len(orders) * tops


def _kind_of_pair(a: tuple[int, int], b: tuple[int, int], kind: str, strengths: int) -> bool:
    if kind == "sum":
        return a[1] + b[1] == strengths + 1
    return _same(f"{'YBRGWKP'[a[0]]}{a[1]}", f"{'YBRGWKP'[b[0]]}{b[1]}", kind)


def home_neighbour_chance(colours: int, strengths: int, copies: int, kind: str, *,
                          again: bool = False) -> Fraction:
    """In a home-made set (``colours`` × strengths 1 to ``strengths``, ``copies``
    look-alike jinns of each) laid at random round a ring, the chance that cells 0 and 1
    hold a pair of ``kind``: the ordered pairs of two different jinns that fit, over all
    such pairs. ``again`` counts the mistake of drawing cell 1 from the whole set (cell
    0's jinn put back).

    >>> home_neighbour_chance(4, 4, 2, "colour") == neighbour_chance("colour")
    True
    """
    types = [(c, s) for c in range(colours) for s in range(1, strengths + 1)]
    n = len(types) * copies
    fits = sum(copies * (copies - (0 if again else 1) if a == b else copies)
               for a in types for b in types if _kind_of_pair(a, b, kind, strengths))
    return Fraction(fits, n * n if again else n * (n - 1))


def _strength_words(copies: tuple[int, ...]) -> str:
    parts = [f"{_NUMBER[c]} of strength {i + 1}" for i, c in enumerate(copies) if c]
    return ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]


def _run_options() -> list[tuple[int, int, int, int]]:
    """Exercise 1 for students: (strengths, jinns of each, jinns of the last strength,
    cells of the run)."""
    return [(s, c, d or c, cells) for s in range(2, 9) for c in range(1, 5)
            for d in range(c) for cells in range(3, 7)
            if c < cells <= s * c - c + (d or c)]


def _second_run_options() -> list[tuple[tuple[int, ...], int]]:
    """Exercise 2 for students: (the yellow jinns left by strength, cells of the second
    run)."""
    out = []
    for s in range(2, 5):
        for left in product(range(6), repeat=s):
            if left[0] and left[-1] and sum(left) >= 3:
                out += [(left, cells) for cells in range(3, min(6, sum(left)) + 1)]
    return out


def _pile_options() -> list[tuple[int, int, int, str]]:
    """Exercise 3 for students: (colours, strengths, height, rule)."""
    return [(c, s, h, rule) for c in range(3, 8) for s in range(2, 9)
            for h in range(2, min(c, 5) + 1) for rule in PILE_RULES
            if (rule != "different" or s >= h) and (rule != "no-red" or c - 1 >= h)]


#: The kinds of neighbours exercises 4 and 5 may ask about in a home-made set.
HOME_KINDS = ("colour", "kind", "neither", "strength", "gap1", "sum", "yellow",
              "colour-or-strength")


def _neighbour_options() -> list[tuple[int, int, int, str]]:
    """Exercises 4 and 5 for students: (colours, strengths, copies, kind)."""
    return [(c, s, k, kind) for c in range(2, 7) for s in range(2, 7) for k in (1, 2, 3)
            for kind in HOME_KINDS if 8 <= c * s * k <= 64
            and 0 < home_neighbour_chance(c, s, k, kind) < 1]


@lru_cache(maxsize=None)
def _tables() -> dict[str, list[tuple[Any, Fraction]]]:
    """Every option of a student's exercises 1 to 4 with its answer (computed once)."""
    return {
        "q1": [(o, Fraction(sequence_count((o[1],) * (o[0] - 1) + (o[2],), o[3])))
               for o in _run_options()],
        "q2": [(o, Fraction(sequence_count(*o))) for o in _second_run_options()],
        "q3": [(o, Fraction(home_piles(*o))) for o in _pile_options()],
        "q4": [(o, home_neighbour_chance(*o)) for o in _neighbour_options()],
    }


def _draw(rng: np.random.Generator, key: str, avoid: Fraction) -> Any:
    """One option of exercise ``key`` for a student: every different answer equally
    likely, never the class's (``avoid``) nor the page's example answer, 3/8."""
    from .checking import spread
    values = dict(_tables()[key])
    return spread(rng, list(values), values.__getitem__, avoid={avoid, Fraction(3, 8)})


#: The class's questions 1 to 5 (the rulebook's set).
_CLASS = {"q2": ("rulebook", "Y1Y2Y3Y4"), "q3": (4, "any"), "q4": "colour"}
_EIGHT = {"rulebook": ("two each of strength 1, 2, 3 and 4", "11223344")}


def _run_explanation(copies: tuple[int, ...], cells: int) -> str:
    s = len(copies)
    total = s ** cells
    bad = total - sequence_count(copies, cells)
    return (f"{s}^{cells} = {total} sequences of strengths, less the {bad} that use a "
            f"strength more often than it has jinns: {total} − {bad} = {total - bad}.")


def _moves_working(student: str | None) -> str:
    state, kind = counting_question(student)
    moves = pile_moves(state)
    text = (f"A's {len(moves)} legal moves: " + ", ".join(f"{m} ({m.description})"
                                                         for m in moves) + ".")
    twice = [str(m) for m in moves if both_ways(state, m)]
    if twice:
        text += (" Reached both ways, counted once (JI-12): " + ", ".join(twice) + ".")
    if kind is not None:
        hits = [str(m) for m in moves if move_is(state, m, kind)]
        text += (f" Those that {MOVE_KINDS[kind]}: " + ", ".join(hits)
                 + f" — {len(hits)} of {len(moves)}.")
    return text


_JI12 = ("count a landing reached both ways once: when a pile's n-th occupied cell is the "
         "same cell clockwise and anticlockwise (exactly 2n occupied cells), that is one "
         "move, not two (JI-12)")
_Q6_RULES = ("Count every depth (JI-8) and both directions (JI-9), leave out moves the "
             f"colour rule (JI-11) forbids, and {_JI12}.")


def _literal_why(state: Any) -> str:
    """Why the literal count of A's moves in ``state`` is a mistake (JI-12)."""
    return (f"That counts a landing reached both ways twice: with {len(state.occupied)} "
            "occupied cells a jinn of strength "
            f"{len(state.occupied) // 2} lands on the same cell clockwise and "
            "anticlockwise, and that is one move (JI-12), not two.")


def _counting_exercise(student: str | None) -> Exercise:
    """Question 6: the class counts A's moves; a student finds the share of A's moves of
    a kind, in a position of their own."""
    state, kind = counting_question(student)
    moves = pile_moves(state)
    literal = literal_move_count(state)
    rules, literal_why = _Q6_RULES, _literal_why(state)
    if kind is None:
        heights = 2 * sum(len(state.pile(c)) for c in state.movable_cells())
        return Exercise(
            "q6", "In the position drawn above (A plays yellow and red), how many legal "
                  f"moves does A have? {rules}",
            lambda: Fraction(len(moves)), count=True,
            title="6. Counting moves", figure=lambda: counting_position_svg(student),
            explanation="For each pile topped by yellow or red, each depth from 1 to the "
                        "pile's height, each direction: the n-th occupied cell is the "
                        "landing, and the move counts unless the landing pile already has a "
                        "colour of the moving pawns; a landing reached both ways counts "
                        "once (JI-12).",
            working=lambda: _moves_working(student),
            hint="Go pile by pile. The strength of the moving pile's top pawn says how many "
                 "occupied cells it travels.",
            params={"student": student, "kind": None},
            mistakes=unique_mistakes(Fraction(len(moves)), (
                Mistake(Fraction(literal), literal_why) if literal != len(moves) else None,
                Mistake(Fraction(heights), "That counts every depth both ways; some "
                                           "landings are refused by the colour rule "
                                           "(JI-11)."),
            )))
    return _share_exercise(state, kind, student)


def _share_exercise(state: Any, kind: str, student: str | None) -> Exercise:
    """A student's question 6: the share of A's moves in ``state`` that are of ``kind``."""
    moves = pile_moves(state)
    literal = literal_move_count(state)
    rules, literal_why = _Q6_RULES, _literal_why(state)
    share = move_share(state, kind)
    return Exercise(
        "q6", "In the position drawn above (A plays yellow and red), A picks one of its "
              "legal moves at random, each equally likely. What is the chance that it "
              f"{MOVE_KINDS[kind]}? {rules}",
        lambda: move_share(state, kind), title="6. Counting moves",
        figure=lambda: counting_position_svg(student),
        explanation="Count A's legal moves (pile by pile, depth by depth, both directions, "
                    "less those the colour rule refuses, a landing reached both ways once), "
                    "then the ones of that kind: the chance is the second count over the "
                    "first.",
        working=lambda: _moves_working(student),
        hint="List the moves pile by pile first: the strength of the moving pile's top "
             "pawn says how many occupied cells it travels. Then mark the ones asked for.",
        params={"student": student, "kind": kind},
        mistakes=unique_mistakes(share, (
            Mistake(move_share(state, kind, literal=True), literal_why)
            if literal != len(moves) else None,
            Mistake(1 - share, "That is the share of the other moves, those that do not "
                               f"{MOVE_KINDS[kind].split(' ', 1)[0].rstrip('s')} "
                               f"{MOVE_KINDS[kind].split(' ', 1)[1]}."),
        )))


def _jinns_lesson(rng: np.random.Generator | None, student: str | None = None
                  ) -> list[Exercise]:
    if rng is None:
        return _class_exercises() + [_counting_exercise(None)]
    keys = {e.key: e.answer for e in _class_exercises()}
    s, c, d, cells = _draw(rng, "q1", keys["q1"])
    copies = (c,) * (s - 1) + (d,)
    left, second_cells = _draw(rng, "q2", keys["q2"])
    colours, strengths, height, rule = _draw(rng, "q3", keys["q3"])
    n_col, n_str, n_copies, kind = _draw(rng, "q4", keys["q4"])
    # q2's story: the first run, drawn from the strengths of the set, came before
    first_cells = 3 + int(rng.integers(3))
    first = [int(rng.integers(len(left))) for _ in range(first_cells)]
    full = tuple(k + first.count(i) for i, k in enumerate(left))
    shown = " ".join(f"Y{i + 1}" for i in first)
    return [_run_exercise(copies, cells), _second_run_exercise(full, shown, left, second_cells),
            _pile_exercise(colours, strengths, height, rule),
            *_neighbour_exercises(n_col, n_str, n_copies, kind),
            _counting_exercise(student)]


def _run_exercise(copies: tuple[int, ...], cells: int) -> Exercise:
    s, c, d = len(copies), copies[0], copies[-1]
    answer = sequence_count(copies, cells)
    short = "" if d == c else (f", except strength {s}, of which there "
                               f"{'is' if d == 1 else 'are'} only {_NUMBER[d]}")
    return Exercise(
        "q1", f"A home-made set of jinns has strengths 1 to {s}, with {_NUMBER[c]} yellow "
              f"jinn{'s' if c > 1 else ''} of each strength{short}. A lays a yellow run of "
              f"{cells} cells from them, in an order A chooses; two jinns of the same "
              "strength look the same. In how many different ways can the run be laid?",
        lambda: Fraction(sequence_count(copies, cells)), count=True, title="1. Laying a run",
        explanation=_run_explanation(copies, cells),
        hint="Count all sequences of strengths, then take away the ones that need more "
             "look-alike jinns than there are.",
        params={"copies": copies, "cells": cells},
        mistakes=unique_mistakes(Fraction(answer), (
            Mistake(Fraction(s ** cells), f"{s ** cells} lets a strength appear more often "
                                          "than it has jinns."),
            Mistake(Fraction(math.perm(sum(copies), cells)),
                    f"{sum(copies)} × {sum(copies) - 1} × … treats the jinns of a strength "
                    "as different; they look the same."),
            Mistake(Fraction(math.factorial(cells)), f"{math.factorial(cells)} orders are "
                                                     f"for {cells} different jinns only.")
            if cells <= s else None,
        )))


def _second_run_exercise(full: tuple[int, ...], shown: str, left: tuple[int, ...],
                         cells: int) -> Exercise:
    answer = sequence_count(left, cells)
    return Exercise(
        "q2", f"A home-made set has {sum(full)} yellow jinns: {_strength_words(full)}; two "
              f"jinns of the same strength look the same. A laid the first yellow run as "
              f"{shown}. Later A lays a second yellow run of {cells} cells from the yellow "
              "jinns left, in an order A chooses. In how many different ways?",
        lambda: Fraction(sequence_count(left, cells)), count=True, title="2. The second run",
        explanation=f"The jinns left are {_strength_words(left)}. Count the sequences of "
                    f"{cells} strengths that use no strength more often than it is left: "
                    "orders of look-alike jinns swapped count once.",
        hint="Which jinns are left? Count their orders, then take out the ones that look "
             "alike or need jinns that are gone.",
        params={"full": full, "left": left, "cells": cells},
        mistakes=unique_mistakes(Fraction(answer), (
            Mistake(Fraction(sequence_count(full, cells)), "That counts from the whole set: "
                                                          "the first run's jinns are no "
                                                          "longer there."),
            Mistake(Fraction(math.perm(sum(left), cells)), "That treats the jinns of the same "
                                                           "strength as different; swapping "
                                                           "them changes nothing."),
        )))


def _pile_exercise(colours: int, strengths: int, height: int, rule: str) -> Exercise:
    answer = home_piles(colours, strengths, height, rule)
    names = ", ".join(HOME_COLOURS[:colours - 1]) + " and " + HOME_COLOURS[colours - 1]
    pile_words = PILE_RULES[rule][0]
    return Exercise(
        "q3", f"A home-made set has jinns of {colours} colours ({names}) and strengths 1 to "
              f"{strengths}, plenty of each. How many different piles of {height} jinns with "
              f"{pile_words} can the rules allow (JI-11: no colour twice in a pile; a pile "
              "is read from the bottom up, so the order counts)?",
        lambda: Fraction(home_piles(colours, strengths, height, rule)), count=True,
        title=f"3. Piles of {height}",
        explanation="Choose the colours from the bottom up, none twice (and as the "
                    "condition says), then a strength for each jinn"
                    + (", none twice" if rule == "different" else "")
                    + ": the choices multiply.",
        hint="First the colours in order, then the strengths.",
        params={"colours": colours, "strengths": strengths, "height": height, "rule": rule},
        mistakes=unique_mistakes(Fraction(answer), (
            Mistake(Fraction((colours * strengths) ** height),
                    "The colours may not repeat (JI-11): "
                    f"{colours} choices for the bottom, then {colours - 1}, …"),
            Mistake(Fraction(home_piles(colours, strengths, height)),
                    f"That counts every pile of {height}; this one must have {pile_words}.")
            if rule != "any" else
            Mistake(Fraction(strengths ** height), "That counts the strengths only; the "
                                                   "colours can be ordered too."),
        )))


def _neighbour_words(kind: str, strengths: int) -> str:
    return (f"jinns whose strengths add up to {strengths + 1}" if kind == "sum"
            else _KINDS[kind])


def _neighbour_exercises(colours: int, strengths: int, copies: int, kind: str
                         ) -> list[Exercise]:
    n = colours * strengths * copies
    names = ", ".join(HOME_COLOURS[:colours - 1]) + " and " + HOME_COLOURS[colours - 1]
    chance = home_neighbour_chance(colours, strengths, copies, kind)
    words = _neighbour_words(kind, strengths)
    return [
        Exercise(
            "q4", f"A home-made set has {n} jinns: {colours} colours ({names}), strengths 1 "
                  f"to {strengths}, "
                  + (f"{_NUMBER[copies]} look-alike jinns" if copies > 1 else "one jinn")
                  + f" of each colour and strength. They are laid "
                  f"at random round a ring of {n} cells, one on each (as in JI-6). What is "
                  f"the chance that cells 0 and 1 hold {words}?",
            lambda: home_neighbour_chance(colours, strengths, copies, kind),
            title="4. Neighbours",
            explanation=f"Whatever lands on cell 0, cell 1 gets one of the {n - 1} jinns "
                        "left, each equally likely: count those that fit.",
            hint="Fix the jinn on cell 0. How many of the jinns left fit?",
            params={"colours": colours, "strengths": strengths, "copies": copies,
                    "kind": kind, "cells": n},
            mistakes=unique_mistakes(chance, (
                Mistake(home_neighbour_chance(colours, strengths, copies, kind, again=True),
                        f"Cell 0's jinn is no longer among the jinns left: divide by {n - 1}, "
                        "and count without it."),
            ))),
        Exercise(
            "q5", f"Round that ring of {n} cells there are {n} pairs of neighbouring cells "
                  f"(cells {n - 1} and 0 are neighbours too). What is the expected number of "
                  f"neighbouring pairs that hold {words}?",
            lambda: n * home_neighbour_chance(colours, strengths, copies, kind),
            probability=False, title="5. All the neighbours",
            explanation=f"Linearity of expectation: each of the {n} pairs is such a pair with "
                        f"the chance of question 4, whatever the others do, so the expected "
                        f"number is {n} times that chance, although the pairs are not "
                        "independent.",
            hint="You do not need the chances of 0, 1, 2, … pairs. Add the chance of "
                 "each pair.",
            params={"colours": colours, "strengths": strengths, "copies": copies,
                    "kind": kind, "cells": n},
            mistakes=unique_mistakes(n * chance, (
                Mistake(chance, f"That is one pair; there are {n}."),
                Mistake((n - 1) * chance, f"The ring closes: cells {n - 1} and 0 are "
                                          f"neighbours too, {n} pairs."),
            ))),
    ]


def _class_exercises() -> list[Exercise]:
    """The class's questions 1 to 5: the rulebook's jinns."""
    eight, first = _CLASS["q2"]
    height, rule = _CLASS["q3"]
    kind = _CLASS["q4"]
    set_words, all_eight = _EIGHT[eight]
    shown = " ".join(first[i:i + 2] for i in range(0, 8, 2))
    second = second_run_ways(first)
    pile_words, _ = PILE_RULES[rule]
    colours = " × ".join(str(4 - i) for i in range(height))
    chance = neighbour_chance(kind)
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
                 "more look-alike jinns than there are.",
            params={"copies": (2, 2, 2, 2), "cells": 4},
            mistakes=unique_mistakes(Fraction(first_run_ways()), (
                Mistake(Fraction(256), "256 lets a strength appear more often than the 2 "
                                       "jinns of it allow: there are only 2 jinns of each "
                                       "strength."),
                Mistake(Fraction(math.perm(8, 4)), "8 × 7 × … treats the jinns of a "
                                                   "strength as different; they look the "
                                                   "same."),
                Mistake(Fraction(24), "24 orders are for four different strengths only."),
            ))),
        Exercise(
            "q2", f"The eight yellow jinns are {set_words}. A laid the first yellow run "
                  f"as {shown}. Later A lays the second yellow run with the four yellow "
                  "jinns left. In how many different ways?",
            lambda: Fraction(second_run_ways(first)), count=True, title="2. The second run",
            explanation="The four jinns left are placed in every order, but swapping two "
                        "of the same strength changes nothing: 4! divided by k! for each "
                        "strength left k times.",
            hint="Which four jinns are left? Count their orders, then divide for the "
                 "ones that look alike.",
            params={"full": (2, 2, 2, 2), "left": tuple(
                (Counter(all_eight) - Counter(first[1::2]))[str(k)] for k in range(1, 5)),
                "cells": 4},
            mistakes=unique_mistakes(Fraction(second), (
                Mistake(Fraction(run_ways(4, 2)), "That is the first run, from all eight "
                                                  "jinns."),
                Mistake(Fraction(24), "24 = 4! treats the jinns of the same strength as "
                                      "different; swapping them changes nothing."),
                Mistake(Fraction(1), "The order of the four jinns left is still A's "
                                     "choice."),
            ))),
        Exercise(
            "q3", f"How many different piles of {height} jinns with {pile_words} can the "
                  "rules ever allow (JI-11: no colour twice in a pile; a pile is read from "
                  "the bottom up, so the order counts)?",
            lambda: Fraction(piles_where(height, rule)), count=True,
            title=f"3. Piles of {height}",
            explanation=f"Choose the colours from the bottom up ({colours}, no colour twice) "
                        f"and a strength for each of the {height} jinns (4 each).",
            hint="First the colours in order, then the strengths.",
            params={"colours": 4, "strengths": 4, "height": height, "rule": rule},
            mistakes=unique_mistakes(Fraction(piles_where(height, rule)), (
                Mistake(Fraction(16 ** height), "The colours may not repeat (JI-11): 4 "
                                                "choices for the bottom, then 3, …"),
                Mistake(Fraction(4 ** height), "That counts the strengths only; the "
                                               "colours can be ordered too."),
            ))),
        Exercise(
            "q4", "The newer edition lays the 32 jinns at random (JI-6). What is the "
                  f"chance that cells 0 and 1 hold {_KINDS[kind]}?",
            lambda: neighbour_chance(kind), title="4. Neighbours",
            explanation="Whatever lands on cell 0, cell 1 gets one of the 31 jinns left, "
                        "each equally likely: count those that fit.",
            hint="Fix the jinn on cell 0. How many of the 31 others fit?",
            params={"colours": 4, "strengths": 4, "copies": 2, "kind": kind, "cells": 32},
            mistakes=unique_mistakes(chance, (
                Mistake(Fraction(8, 32), "Cell 0's jinn is no longer among the jinns left: "
                                         "divide by 31, and count without it."),
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
            params={"colours": 4, "strengths": 4, "copies": 2, "kind": kind, "cells": 32},
            mistakes=unique_mistakes(expected_neighbour_pairs(kind), (
                Mistake(chance, "That is one pair; there are 32."),
                Mistake(31 * chance, "The ring closes: cells 31 and 0 are neighbours too, "
                                     "32 pairs."),
            ))),
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

"""Expected values on a random Janus board: the numbers of the Janus lesson.

The tiles are shuffled and laid face up (JB-4), so before the shuffle every tile is
equally likely under any field. What a column can do from a field is then a random
quantity, and its average over the 100 tiles is an *expected value*: how many moves a
column has (JB-7 to JB-9), how often it is stuck (JB-12), how many coins a move costs in
tolls (JB-16, under either reading of "every position the column comes to"), how many
Janus heads lie within reach. Every number here is counted exactly by the engine —
one position per tile, every legal move played — never typed in.

>>> moves_by_tile("a1")[:5]                    # red 1-, red 2|, ... from the corner a1
(1, 1, 1, 2, 3)
>>> expected_moves("a1"), stuck_chance("e5")
(Fraction(79, 50), Fraction(1, 25))
>>> toll_chance("c2", "c3"), expected_tolls("c2", "c3", toll_fields="entered")
(Fraction(683, 6000), Fraction(4729, 6000))
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.protocol import CHANCE
from ..core.rng import RandomStream
from ..games.janus.components import FIELDS, field_name, parse_field, square_fields, square_of
from ..games.janus.rules import GAME, PASS, position
from .checking import Exercise, ExerciseSet, Mistake

__all__ = ["moves_by_tile", "expected_moves", "stuck_chance", "toll_chance",
           "expected_tolls", "tolls_by_tile", "expected_heads_in_reach",
           "simulate_first_moves",
           "JANUS_LESSON"]

#: Where the other column stands in these two-player positions (the start corner of B).
OTHER = "j10"


def _square(where: str) -> tuple[str, ...]:
    return tuple(field_name(f) for f in square_fields(square_of(parse_field(where))))


@lru_cache(maxsize=None)
def _positions(field: str, owned: str | None, toll_fields: str) -> tuple[Any, ...]:
    """One start position per tile of the set: that tile under A's column on
    ``field``, every other field covered, B owning the (empty) square of ``owned``."""
    options: dict[str, Any] = {"toll_fields": toll_fields}
    extra: dict[str, Any] = {}
    if owned is not None:
        extra = {"empty": _square(owned), "owners": {owned: "B"}}
    out = []
    for tile in range(FIELDS):
        if owned is not None and field in _square(owned):
            raise ValueError(f"{field} lies in the owned square of {owned}")
        out.append(position(tiles={field: tile}, columns=(field, OTHER), **extra,
                            **options))
    return tuple(out)


def _moves(state: Any) -> list[Any]:
    return [m for m in state.legal_moves() if m.action != PASS]


def moves_by_tile(field: str) -> tuple[int, ...]:
    """How many fields A's column on ``field`` can move to, for each of the 100 tiles
    (in the tile table's order), on a board where every field holds a tile."""
    return tuple(len(_moves(s)) for s in _positions(field, None, "landing"))


def expected_moves(field: str) -> Fraction:
    """The average number of moves from ``field`` over the 100 equally likely tiles."""
    return Fraction(sum(moves_by_tile(field)), FIELDS)


def stuck_chance(field: str) -> Fraction:
    """The chance that the tile under ``field`` allows no move at all (JB-12)."""
    return Fraction(sum(1 for n in moves_by_tile(field) if n == 0), FIELDS)


def _tolls(field: str, owned: str, toll_fields: str) -> list[list[int]]:
    """Per tile, the coins B receives for each of A's legal moves."""
    out = []
    for state in _positions(field, owned, toll_fields):
        out.append([state.play(m).tolls[1] - state.tolls[1] for m in _moves(state)])
    return out


def tolls_by_tile(field: str, owned: str, toll_fields: str = "landing"
                  ) -> tuple[tuple[int, ...], ...]:
    """Per tile (in the tile table's order), the coins A pays B for each of A's legal
    moves from ``field`` (B owns the square of ``owned``; an empty tuple: stuck).

    >>> tolls_by_tile("c2", "c3")[1]    # red 2|: up to c4, in B's square; down is off the board
    (1,)
    """
    return tuple(tuple(paid) for paid in _tolls(field, owned, toll_fields))


def toll_chance(field: str, owned: str, toll_fields: str = "landing") -> Fraction:
    """The chance that A pays B at least one coin when A's column stands on ``field``
    on a random tile and A picks one of its legal moves at random (a stuck column
    pays nothing); B owns the square of ``owned``."""
    total = Fraction(0)
    for paid in _tolls(field, owned, toll_fields):
        if paid:
            total += Fraction(sum(1 for c in paid if c), len(paid))
    return total / FIELDS


def expected_tolls(field: str, owned: str, toll_fields: str = "landing") -> Fraction:
    """The expected number of coins A pays B in the same situation as
    :func:`toll_chance` (JB-16: under ``"entered"`` every field of the square the
    column comes to pays, not only the one it lands on)."""
    total = Fraction(0)
    for paid in _tolls(field, owned, toll_fields):
        if paid:
            total += Fraction(sum(paid), len(paid))
    return total / FIELDS


def expected_heads_in_reach(field: str = "a1") -> Fraction:
    """On a freshly shuffled board, the expected number of Janus heads among the
    fields A's column on ``field`` can move to (linearity of expectation: each of the
    column's targets holds one of the 99 other tiles, each equally likely)."""
    table = GAME.engine(GAME.variant()).table
    heads = sum(1 for t in table if t.head)
    total = Fraction(0)
    for tile, n in enumerate(moves_by_tile(field)):
        others = heads - (1 if table[tile].head else 0)
        total += Fraction(n * others, FIELDS - 1)
    return total / FIELDS


def simulate_first_moves(boards: int, seed: int) -> dict[str, float]:
    """Shuffle ``boards`` boards from ``seed`` and measure, at A's first move from the
    corner a1 (two players): the mean number of moves, the share of stuck starts and the
    mean number of Janus heads within reach. The same seed gives the same boards."""
    if boards < 1:
        raise ValueError(f"boards={boards}: use at least 1")
    engine = GAME.engine(GAME.variant())
    table = engine.table
    stream = RandomStream(np.random.default_rng(seed))
    moves = stuck = heads = 0
    for _ in range(boards):
        raw = engine.initial()
        while engine.current(raw) == CHANCE:
            raw = engine.apply(raw, engine.sample(raw, stream))
        state = GAME.from_raw(raw)
        legal = _moves(state)
        moves += len(legal)
        stuck += not legal
        heads += sum(1 for m in legal if table[state.tile_ids[m.action]].head)
    return {"moves": moves / boards, "stuck": stuck / boards, "heads": heads / boards}


# --- the lesson's exercises ----------------------------------------------------------
#: Fields for q1 and q5 (the class: the start corner a1); each gives other answers.
_START_FIELDS = ("a1", "b1", "b2", "c2", "c1", "d2")
#: Fields for q2 where a tile can leave the column stuck (the class: the centre e5).
_TRAP_FIELDS = ("e5", "a1", "b2", "j1", "c3", "g4", "d8")
#: (A's field, a field of B's square) for q3 and q4, each pair with answers of its own.
_TOLL_PAIRS = (("c2", "c3"), ("a2", "a3"), ("d2", "c3"), ("e1", "e3"), ("c1", "c3"),
               ("b2", "c3"), ("e4", "c3"))


def _janus_lesson(rng: np.random.Generator | None) -> list[Exercise]:
    def pick(choices: tuple[Any, ...]) -> Any:
        """The class's choice (the first), or one of the others for a student."""
        return choices[0] if rng is None else choices[1 + int(rng.integers(len(choices) - 1))]

    start = pick(_START_FIELDS)
    centre = pick(_TRAP_FIELDS)
    near, owned = pick(_TOLL_PAIRS)
    square = "–".join(_square(owned)[::3])
    return [
        Exercise(
            "q1", f"A's column stands on {start}; every field still holds a tile, "
                  "and the other column is far away. The tile under A is one of the 100, "
                  "each equally likely. On average, how many fields can A move to?",
            lambda: expected_moves(start), probability=False,
            title="1. Moves on average",
            explanation="Count the moves each tile allows from that field (directions "
                        "that leave the board do not count, JB-8) and average over the "
                        "100 tiles: the expected number of moves.",
            hint="Each rose gives at most 2, 4 or 8 directions, and the edge takes some "
                 "away. Work out the moves per kind of tile, then the average.",
            mistakes=(
                Mistake(lambda: Fraction(sum(1 for n in moves_by_tile(start) if n),
                                         FIELDS),
                        "That is the chance of having a move at all, not the number of "
                        "moves."),
                Mistake(Fraction(4), "Four is the directions of an average rose in the "
                                     "middle of the board; near the edge many of them "
                                     "leave the board."),
            )),
        Exercise(
            "q2", f"A's column stands on {centre} of the full board, on an unknown tile. "
                  "What is the chance that the tile allows no move at all (JB-12), so that "
                  "A must forfeit?",
            lambda: stuck_chance(centre),
            title="2. Stuck",
            explanation="A tile is a trap there when every direction of its rose runs off "
                        "the board at its distance: long diagonals or long lines that "
                        "overshoot the edge both ways.",
            hint="Which distances and lines overshoot the board in both directions from "
                 "this field? Count those tiles among the 100.",
            mistakes=(
                Mistake(Fraction(0), "A long move can overshoot the edge in both of a "
                                     "line's directions, even from the middle: count the "
                                     "tiles whose every direction leaves the board."),
            )),
        Exercise(
            "q3", f"B owns the square {square} (its tiles are gone). A's column stands on "
                  f"{near} on an unknown tile, and A plays one of its legal moves at "
                  "random. What is the chance that A lands in B's square and pays a toll "
                  "(JB-16)?",
            lambda: toll_chance(near, owned),
            title="3. The chance of a toll",
            explanation="For each tile, the share of its moves that land in B's square; "
                        "average those shares over the 100 tiles (a stuck tile pays "
                        "nothing). This is the law of total probability: condition on "
                        "the tile.",
            hint="First fix the tile: what share of its moves lands in the square? Then "
                 "average over the tiles.",
            mistakes=(
                Mistake(Fraction(4, 100), "That counts the square's four fields among "
                                          "the 100; a column only reaches fields its "
                                          "tile allows."),
            )),
        Exercise(
            "q4", f"The same position, under the other reading of the toll rule "
                  "(ruleset 'tolls on every field', toll_fields='entered': every field of "
                  "B's square the column comes to pays a coin, passing over too). How "
                  "many coins does A's random move cost on average?",
            lambda: expected_tolls(near, owned, toll_fields="entered"),
            probability=False, title="4. Tolls under the other reading",
            explanation="Average, over the tiles and then over each tile's moves, the "
                        "number of the square's fields the move crosses or lands on. It "
                        "is an expected number of coins, so it can be more than the "
                        "chance of paying anything.",
            hint="A move that crosses two fields of the square pays two coins.",
            mistakes=(
                Mistake(lambda: toll_chance(near, owned, toll_fields="entered"),
                        "That is the chance of paying at least one coin; a move that "
                        "crosses two fields of the square pays two."),
                Mistake(lambda: expected_tolls(near, owned),
                        "That is the rulebook reading (only the landing field pays)."),
            )),
        Exercise(
            "q5", "A fresh board is shuffled and laid. Before looking, what is the "
                  "expected number of Janus heads (8 of the 100 tiles) among the fields "
                  f"A's column on {start} can move to?",
            lambda: expected_heads_in_reach(start), probability=False,
            title="5. Heads within reach",
            explanation="Linearity of expectation: each field A can reach holds one of "
                        "the 99 other tiles, a head with chance 8/99 (7/99 if A stands on "
                        "a head). So the answer is the expected number of moves times "
                        "about 8/99, counted exactly tile by tile.",
            hint="You do not need the chance of 'at least one head'. Add, over A's "
                 "targets, the chance that each holds a head.",
            mistakes=(
                Mistake(lambda: expected_moves(start) * Fraction(8, 100),
                        "Nearly: the tile under A is not under a target, so a target "
                        "holds one of the 99 other tiles."),
                Mistake(Fraction(8, 100), "That is the chance for one field; A can reach "
                                          "more than one."),
            )),
    ]


#: The Janus lesson's exercises (``exercise_sets()["janus-tolls"]``).
JANUS_LESSON = ExerciseSet("janus-tolls", build=_janus_lesson)

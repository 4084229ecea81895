"""Expected values on a random Janus board: the numbers of the Janus lesson.

The tiles are shuffled and laid face up (JB-4), so before the shuffle every tile is
equally likely under any field. What a column can do from a field is then a random
quantity, and its average over the 100 tiles is an *expected value*: how many moves a
column has (JB-7 to JB-9), how often it is stuck (JB-12), how many coins a move costs in
tolls (JB-16, under either reading of "every position the column comes to"), how many
Janus heads lie within reach. Every number here is counted exactly by the engine —
one position per tile, every legal move played — never typed in.

B's column stands where the question says: by default on a field that no tile can take
A's column to (:func:`out_of_reach`: not on any line through A's field), so that it is
never in the way; a question that puts it in the way names its field.

>>> moves_by_tile("a1")[:5]                    # red 1-, red 2|, ... from the corner a1
(1, 1, 1, 2, 3)
>>> expected_moves("a1"), stuck_chance("e5", other="j10"), stuck_chance("e5")
(Fraction(79, 50), Fraction(1, 25), Fraction(0, 1))
>>> expected_moves("f6")                       # nothing in the way
Fraction(86, 25)
>>> toll_chance("c2", "c3"), expected_tolls("c2", "c3", toll_fields="entered")
(Fraction(683, 6000), Fraction(4729, 6000))
"""

from __future__ import annotations

import html
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from ..core.protocol import CHANCE
from ..core.rng import RandomStream
from ..games.janus.components import (FIELDS, SIZE, field_name, parse_field, square_fields,
                                      square_of, standard_tiles)
from ..games.janus.rules import GAME, PASS, position
from .checking import Exercise, ExerciseSet, Mistake, show_value, unique_mistakes

__all__ = ["moves_by_tile", "expected_moves", "stuck_chance", "moves_chance", "toll_chance",
           "expected_tolls", "tolls_by_tile", "expected_heads_in_reach", "out_of_reach",
           "simulate_first_moves", "tile_table_html", "tile_table_markdown", "ROSE_WORDS",
           "JANUS_LESSON"]

#: The roses of the built-in tiles in words (the tile table's rows).
ROSE_WORDS = {"-": "- (left, right)", "|": "| (up, down)", "x": "x (the four diagonals)",
              "+": "+ (up, down, left, right)", "*": "* (all eight directions)"}


def _square(where: str) -> tuple[str, ...]:
    return tuple(field_name(f) for f in square_fields(square_of(parse_field(where))))


def _on_a_line(a: int, b: int) -> bool:
    (ra, ca), (rb, cb) = divmod(a, SIZE), divmod(b, SIZE)
    return ra == rb or ca == cb or abs(ra - rb) == abs(ca - cb)


@lru_cache(maxsize=None)
def out_of_reach(field: str, avoid: tuple[str, ...] = ()) -> str:
    """A field for B's column that no tile can take A's column on ``field`` to: not on
    any line through it (the farthest such field, not one of ``avoid``).

    >>> out_of_reach("a1"), out_of_reach("f6")
    ('j2', 'b1')
    """
    here = parse_field(field)
    banned = {parse_field(f) for f in avoid} | {here}
    (row, col) = divmod(here, SIZE)
    options = [f for f in range(FIELDS) if f not in banned and not _on_a_line(here, f)]
    best = max(options, key=lambda f: (max(abs(f // SIZE - row), abs(f % SIZE - col)),
                                       -f))
    return field_name(best)


@lru_cache(maxsize=None)
def _positions(field: str, owned: str | None, toll_fields: str,
               other: str | None = None) -> tuple[Any, ...]:
    """One start position per tile of the set: that tile under A's column on
    ``field``, every other field covered, B owning the (empty) square of ``owned``, B's
    column on ``other`` (default: :func:`out_of_reach`)."""
    options: dict[str, Any] = {"toll_fields": toll_fields}
    extra: dict[str, Any] = {}
    if owned is not None:
        if field in _square(owned):
            raise ValueError(f"{field} lies in the owned square of {owned}")
        extra = {"empty": _square(owned), "owners": {owned: "B"}}
    if other is None:
        other = out_of_reach(field, _square(owned) if owned is not None else ())
    if other == field:
        raise ValueError(f"B's column cannot stand on A's field {field}")
    return tuple(position(tiles={field: tile}, columns=(field, other), **extra, **options)
                 for tile in range(FIELDS))


def _moves(state: Any) -> list[Any]:
    return [m for m in state.legal_moves() if m.action != PASS]


def moves_by_tile(field: str, other: str | None = None) -> tuple[int, ...]:
    """How many fields A's column on ``field`` can move to, for each of the 100 tiles
    (in the tile table's order), on a board where every field holds a tile and B's
    column stands on ``other`` (default: out of reach)."""
    return tuple(len(_moves(s)) for s in _positions(field, None, "landing", other))


def expected_moves(field: str, other: str | None = None) -> Fraction:
    """The average number of moves from ``field`` over the 100 equally likely tiles."""
    return Fraction(sum(moves_by_tile(field, other)), FIELDS)


def moves_chance(field: str, moves: int, other: str | None = None) -> Fraction:
    """The chance that the tile under ``field`` allows exactly ``moves`` moves."""
    return Fraction(sum(1 for n in moves_by_tile(field, other) if n == moves), FIELDS)


def stuck_chance(field: str, other: str | None = None) -> Fraction:
    """The chance that the tile under ``field`` allows no move at all (JB-12): every
    direction runs off the board (JB-8) or onto B's column on ``other`` (JB-9)."""
    return moves_chance(field, 0, other)


def _tile_ok(index: int, rose: str | None) -> bool:
    tile = GAME.engine(GAME.variant()).table[index]
    return rose is None or (tile.lines == rose and not tile.head)


def _tolls(field: str, owned: str, toll_fields: str, rose: str | None = None
           ) -> list[list[int]]:
    """Per tile (those of rose ``rose``, or all), the coins B receives for each of A's
    legal moves."""
    out = []
    for index, state in enumerate(_positions(field, owned, toll_fields)):
        if _tile_ok(index, rose):
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


def toll_chance(field: str, owned: str, toll_fields: str = "landing",
                rose: str | None = None) -> Fraction:
    """The chance that A pays B at least one coin when A's column stands on ``field``
    on a random tile (of rose ``rose``, or any) and A picks one of its legal moves at
    random (a stuck column pays nothing); B owns the square of ``owned``."""
    paid_lists = _tolls(field, owned, toll_fields, rose)
    total = Fraction(0)
    for paid in paid_lists:
        if paid:
            total += Fraction(sum(1 for c in paid if c), len(paid))
    return total / len(paid_lists)


def expected_tolls(field: str, owned: str, toll_fields: str = "landing",
                   rose: str | None = None) -> Fraction:
    """The expected number of coins A pays B in the same situation as
    :func:`toll_chance` (JB-16: under ``"entered"`` every field of the square the
    column comes to pays, not only the one it lands on)."""
    paid_lists = _tolls(field, owned, toll_fields, rose)
    total = Fraction(0)
    for paid in paid_lists:
        if paid:
            total += Fraction(sum(paid), len(paid))
    return total / len(paid_lists)


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


# --- the tile table: what a student needs to count by hand ----------------------------
def _tile_groups() -> tuple[dict[tuple[str, int], int], list[str]]:
    counts: Counter[tuple[str, int]] = Counter()
    heads = []
    for tile in standard_tiles():
        if tile.head:
            heads.append(tile.code)
        else:
            counts[(tile.lines, tile.distance)] += 1
    return dict(counts), heads


def tile_table_markdown() -> str:
    """The 100 tiles counted by rose and distance (JB-2), and the eight Janus heads:
    all a student needs to count moves by hand. A Markdown table."""
    counts, heads = _tile_groups()
    rows = ["| rose | distance 1 | 2 | 3 | 4 | 5 |", "|---|---|---|---|---|---|"]
    for rose, words in ROSE_WORDS.items():
        rows.append(f"| {words.replace('|', chr(92) + '|')} | " + " | ".join(str(counts.get((rose, d), 0))
                                                 for d in range(1, 6)) + " |")
    return ("\n".join(rows) + "\n\nThe eight Janus heads (one line each, the distance "
            "after the colour letter): " + ", ".join(f"`{h}`" for h in heads) + ".")


def tile_table_html() -> str:
    """:func:`tile_table_markdown` as an HTML table (for a printed worksheet)."""
    counts, heads = _tile_groups()
    cells = "".join(
        f"<tr><th>{html.escape(words)}</th>" + "".join(
            f"<td>{counts.get((rose, d), 0)}</td>" for d in range(1, 6)) + "</tr>"
        for rose, words in ROSE_WORDS.items())
    return ("<table class='tiles'><caption>The 100 tiles by rose and distance</caption>"
            "<tr><th>rose</th>" + "".join(f"<th>distance {d}</th>" for d in range(1, 6))
            + "</tr>" + cells + "</table><p>The eight Janus heads (one line each; the "
            "number is the distance): " + html.escape(", ".join(heads)) + ".</p>")


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
#: q2: (A's field, B's field or None for out of reach, how many moves): the class's
#: first (stuck on e5 with B's column on j10), then those students draw.
_FEW_MOVES = (("e5", "j10", 0), ("b1", None, 1), ("b2", None, 1), ("d2", None, 1),
              ("e1", None, 1), ("b1", None, 2), ("c1", None, 2), ("d2", None, 2),
              ("a1", None, 1))
#: (A's field, a field of B's square, the rose of A's tile) for q3 and q4.
_TOLL_CASES = (("c2", "c3", "+"), ("a2", "a3", "+"), ("a2", "a3", "*"), ("d2", "c3", "+"),
               ("d2", "c3", "*"), ("e1", "e3", "+"), ("e1", "e3", "*"), ("c1", "c3", "+"),
               ("c1", "c3", "*"), ("e4", "c3", "+"), ("f4", "e5", "+"), ("g3", "g5", "*"))
_ROSE_TILES = {"+": "one of the 20 tiles with rose + (it moves up, down, left or right)",
               "*": "one of the 20 tiles with rose * (it moves in all eight directions)"}
_COUNT = {0: "no move at all (JB-12), so that A must forfeit", 1: "exactly one move",
          2: "exactly two moves"}


def _moves_working(field: str, other: str | None = None) -> str:
    """The key's working for an average of moves: how many tiles give each number."""
    counts = Counter(moves_by_tile(field, other))
    terms = " + ".join(f"{k}·{counts[k]}" for k in sorted(counts))
    total = sum(k * c for k, c in counts.items())
    return (f"Tiles giving 0, 1, 2, … moves from {field}: "
            + ", ".join(f"{counts[k]} give {k}" for k in sorted(counts))
            + f". Expected moves = ({terms}) / 100 = {total}/100 = "
              f"{show_value(Fraction(total, 100))}.")


def _few_working(field: str, other: str | None, moves: int) -> str:
    table = GAME.engine(GAME.variant()).table
    codes = [table[i].code for i, n in enumerate(moves_by_tile(field, other)) if n == moves]
    return (f"The tiles that give {moves} move{'s' if moves != 1 else ''} from {field}: "
            + ", ".join(codes) + f" — {len(codes)} of the 100: {len(codes)}/100 = "
            f"{show_value(Fraction(len(codes), 100))}.")


def _toll_working(field: str, owned: str, rose: str, toll_fields: str) -> str:
    table = GAME.engine(GAME.variant()).table
    parts = []
    for index, state in enumerate(_positions(field, owned, toll_fields)):
        if not _tile_ok(index, rose):
            continue
        moves = _moves(state)
        paid = [state.play(m).tolls[1] - state.tolls[1] for m in moves]
        parts.append(f"{table[index].code}: " + (", ".join(
            f"{m}→{c}" for m, c in zip(moves, paid)) if moves else "stuck"))
    return ("Each tile's moves and the coins each pays (move→coins); average over the "
            "moves of a tile, then over the 20 tiles: " + "; ".join(parts) + ".")


def _janus_lesson(rng: np.random.Generator | None) -> list[Exercise]:
    def pick(choices: tuple[Any, ...]) -> Any:
        """The class's choice (the first), or one of the others for a student."""
        return choices[0] if rng is None else choices[1 + int(rng.integers(len(choices) - 1))]

    start = pick(_START_FIELDS)
    centre, blocker, few = pick(_FEW_MOVES)
    near, owned, rose = pick(_TOLL_CASES)
    square = "–".join(_square(owned)[::3])
    away = out_of_reach(start)
    b_field = blocker if blocker is not None else out_of_reach(centre)
    toll_b = out_of_reach(near, _square(owned))
    q2_mistakes = [Mistake(lambda: moves_chance(centre, few, None),
                           "That leaves B's column out: a column never lands on another "
                           f"column (JB-9), so a tile whose only landing is {b_field} "
                           "gives no move.")] if blocker is not None else []
    if few == 0 and blocker is None:
        q2_mistakes.append(Mistake(Fraction(0), "A long move can overshoot the edge, or "
                                                "land on B's column (JB-9): count the "
                                                "tiles whose every direction is barred."))
    elif few > 0:
        q2_mistakes.append(Mistake(lambda: sum((moves_chance(centre, k, blocker)
                                                for k in range(few + 1)), Fraction(0)),
                                   f"That is the chance of at most {few} "
                                   f"move{'s' if few != 1 else ''}; exactly {few} leaves "
                                   "out the stuck tiles" + (" and those with fewer."
                                                            if few > 1 else ".")))
    return [
        Exercise(
            "q1", f"A's column stands on {start}; every field still holds a tile, "
                  f"and B's column stands on {away}, where no tile can take A. The tile "
                  "under A is one of the 100, each equally likely (the tile table gives "
                  "how many there are of each kind). On average, how many fields can A "
                  "move to?",
            lambda: expected_moves(start), probability=False,
            title="1. Moves on average",
            explanation="Count the moves each tile allows from that field (directions "
                        "that leave the board do not count, JB-8) and average over the "
                        "100 tiles: the expected number of moves.",
            working=lambda: _moves_working(start),
            hint="Go through the tile table row by row: how many moves does a tile of "
                 "that rose and distance give from this field? Multiply by the number of "
                 "such tiles, add up, and divide by 100.",
            figure=tile_table_html,
            params={"field": start, "other": away},
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
            "q2", f"A's column stands on {centre} of the full board, on an unknown tile; "
                  f"B's column stands on {b_field}"
                  + ("" if blocker is not None else ", where no tile can take A")
                  + f". What is the chance that the tile allows {_COUNT[few]}?",
            lambda: moves_chance(centre, few, b_field),
            title="2. Stuck" if few == 0 else "2. Few moves",
            explanation=("A tile is a trap there when every direction of its rose runs off "
                         "the board at its distance (JB-8) or lands on B's column (JB-9)."
                         if few == 0 else
                         f"Count the tiles for which exactly {few} of the directions of "
                         "the rose stay on the board at the tile's distance."),
            working=lambda: _few_working(centre, b_field, few),
            hint="For each row of the tile table: which directions, at that distance, stay "
                 "on the board from this field"
                 + (" and miss B's column" if blocker is not None else "")
                 + "? Count the tiles that give the number of moves asked for.",
            params={"field": centre, "other": b_field, "moves": few},
            mistakes=unique_mistakes(moves_chance(centre, few, b_field), q2_mistakes)),
        Exercise(
            "q3", f"B owns the square {square} (its tiles are gone); B's column stands on "
                  f"{toll_b}, out of A's reach. A's column stands on {near} on "
                  f"{_ROSE_TILES[rose]}; its distance is 1 to 5, each equally likely. A "
                  "plays one of its legal moves at random. What is the chance that A lands "
                  "in B's square and pays a toll (JB-16)?",
            lambda: toll_chance(near, owned, rose=rose),
            title="3. The chance of a toll",
            explanation="For each tile, the share of its moves that land in B's square; "
                        "average those shares over the tiles (a stuck tile pays "
                        "nothing). This is the law of total probability: condition on "
                        "the tile.",
            working=lambda: _toll_working(near, owned, rose, "landing"),
            hint="Take the distances one at a time: which moves stay on the board, and "
                 "what share of them lands in the square? Then average the five shares.",
            params={"field": near, "owned": owned, "rose": rose, "other": toll_b},
            mistakes=unique_mistakes(toll_chance(near, owned, rose=rose), (
                Mistake(Fraction(4, 100), "That counts the square's four fields among "
                                          "the 100; a column only reaches fields its "
                                          "tile allows."),
                Mistake(lambda: expected_tolls(near, owned, "entered", rose),
                        "That counts every field of the square the move passes over "
                        "(the other reading of JB-16); under the rulebook only the "
                        "landing field pays."),
            ))),
        Exercise(
            "q4", "The same position, under the other reading of the toll rule "
                  "(ruleset 'tolls on every field', toll_fields='entered': every field of "
                  "B's square the column comes to pays a coin, passing over too). How "
                  "many coins does A's random move cost on average?",
            lambda: expected_tolls(near, owned, toll_fields="entered", rose=rose),
            probability=False, title="4. Tolls under the other reading",
            explanation="Average, over the tiles and then over each tile's moves, the "
                        "number of the square's fields the move crosses or lands on. It "
                        "is an expected number of coins, so it can be more than the "
                        "chance of paying anything.",
            working=lambda: _toll_working(near, owned, rose, "entered"),
            hint="A move that crosses two fields of the square pays two coins.",
            params={"field": near, "owned": owned, "rose": rose, "other": toll_b},
            mistakes=unique_mistakes(expected_tolls(near, owned, "entered", rose), (
                Mistake(lambda: toll_chance(near, owned, toll_fields="entered", rose=rose),
                        "That is the chance of paying at least one coin; a move that "
                        "crosses two fields of the square pays two."),
                Mistake(lambda: expected_tolls(near, owned, rose=rose),
                        "That is the rulebook reading (only the landing field pays)."),
            ))),
        Exercise(
            "q5", "A fresh board is shuffled and laid. Before looking, what is the "
                  "expected number of Janus heads (8 of the 100 tiles) among the fields "
                  f"A's column on {start} can move to (B's column on {away}, out of "
                  "reach)?",
            lambda: expected_heads_in_reach(start), probability=False,
            title="5. Heads within reach",
            explanation="Linearity of expectation: each field A can reach holds one of "
                        "the 99 other tiles, a head with chance 8/99 (7/99 if A stands on "
                        "a head). So the answer is the expected number of moves times "
                        "about 8/99, counted exactly tile by tile.",
            hint="You do not need the chance of 'at least one head'. Add, over A's "
                 "targets, the chance that each holds a head; the tile under A matters "
                 "only through whether it is a head itself.",
            params={"field": start, "other": away},
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

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
import json
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
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


@lru_cache(maxsize=None)
def _tiles() -> tuple[Any, ...]:
    """The 100 tiles of the set, in the tile table's order (made once)."""
    return tuple(standard_tiles())


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
    variant = GAME.variant(**options)           # made once: a variant is costly to check
    return tuple(position(variant, tiles={field: tile}, columns=(field, other), **extra)
                 for tile in range(FIELDS))


def _moves(state: Any) -> list[Any]:
    return [m for m in state.legal_moves() if m.action != PASS]


def moves_by_tile(field: str, other: str | None = None) -> tuple[int, ...]:
    """How many fields A's column on ``field`` can move to, for each of the 100 tiles
    (in the tile table's order), on a board where every field holds a tile and B's
    column stands on ``other`` (default: out of reach)."""
    return tuple(len(_moves(s)) for s in _positions(field, None, "landing", other))


def expected_moves(field: str, other: str | None = None, tiles: str = "all") -> Fraction:
    """The average number of moves from ``field`` over the 100 equally likely tiles (or
    over those of :data:`TILE_SETS` ``tiles``), B's column on ``other``."""
    keep = TILE_SETS[tiles][1]
    counts = [n for t, n in zip(_tiles(), moves_by_tile(field, other)) if keep(t)]
    return Fraction(sum(counts), len(counts))


def moves_chance(field: str, moves: int, other: str | None = None) -> Fraction:
    """The chance that the tile under ``field`` allows exactly ``moves`` moves."""
    return Fraction(sum(1 for n in moves_by_tile(field, other) if n == moves), FIELDS)


def stuck_chance(field: str, other: str | None = None) -> Fraction:
    """The chance that the tile under ``field`` allows no move at all (JB-12): every
    direction runs off the board (JB-8) or onto B's column on ``other`` (JB-9)."""
    return moves_chance(field, 0, other)


def _tile_ok(index: int, rose: str | None) -> bool:
    tile = _tiles()[index]
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


def expected_heads_in_reach(field: str = "a1", other: str | None = None) -> Fraction:
    """On a freshly shuffled board, the expected number of Janus heads among the
    fields A's column on ``field`` can move to, B's column on ``other`` (default: out of
    reach); linearity of expectation: each of the column's targets holds one of the 99
    other tiles, each equally likely."""
    table = GAME.engine(GAME.variant()).table
    heads = sum(1 for t in table if t.head)
    total = Fraction(0)
    for tile, n in enumerate(moves_by_tile(field, other)):
        others = heads - (1 if table[tile].head else 0)
        total += Fraction(n * others, FIELDS - 1)
    return total / FIELDS


# --- the tile table: what a student needs to count by hand ----------------------------
def _tile_groups() -> tuple[dict[tuple[str, int], int], list[str]]:
    counts: Counter[tuple[str, int]] = Counter()
    heads = []
    for tile in _tiles():
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
#: The class's fields: q1 and q5 from the start corner a1 (B out of reach); q2 stuck on e5
#: with B's column on j10; q3 and q4 from c2 on a tile of rose +, B owning c3's square.
_CLASS = {"start": "a1", "few": ("e5", "j10", 0, "all"), "toll": ("c2", "c3", "+")}
_COUNT = {0: "no move at all (JB-12), so that A must forfeit", 1: "exactly one move",
          2: "exactly two moves", 3: "exactly three moves", 4: "exactly four moves"}
#: What a student's q2 may know of the tile under A: (its words, which tiles).
TILE_SETS: dict[str, tuple[str, Any]] = {
    "all": ("one of the 100", lambda t: True),
    "no-head": ("one of the 92 tiles without a Janus head", lambda t: not t.head),
    "near": ("one of the tiles of distance 1 or 2 (Janus heads included)",
             lambda t: t.distance <= 2),
    "middle": ("one of the tiles of distance 2, 3 or 4 (Janus heads included)",
               lambda t: 2 <= t.distance <= 4),
    "far": ("one of the tiles of distance 3, 4 or 5 (Janus heads included)",
            lambda t: t.distance >= 3),
    "plus": ("one of the 20 tiles with rose + (up, down, left, right)",
             lambda t: t.lines == "+"),
    "star": ("one of the 20 tiles with rose * (all eight directions)",
             lambda t: t.lines == "*"),
}
_ROSE_DIRECTIONS = {"-": "left, right", "|": "up, down", "x": "the four diagonals",
                    "+": "up, down, left, right", "*": "all eight directions"}


def _rose_tiles(rose: str) -> str:
    n = sum(1 for t in _tiles() if t.lines == rose and not t.head)
    return f"one of the {n} tiles with rose {rose} ({_ROSE_DIRECTIONS[rose]}), not a Janus head"


@lru_cache(maxsize=None)
def _landings(field: str) -> tuple[tuple[int, ...], ...]:
    """Per tile, the fields A's column on ``field`` can move to with B's column out of
    reach (the engine's legal moves): with B's column on one of them, that move goes
    (JB-9), and nothing else changes."""
    return tuple(tuple(m.action for m in _moves(s))
                 for s in _positions(field, None, "landing"))


def _moves_with(field: str, other: str) -> tuple[int, ...]:
    """:func:`moves_by_tile` read off :func:`_landings` (cheap, for drawing numbers)."""
    b = parse_field(other)
    return tuple(sum(1 for f in fields if f != b) for fields in _landings(field))


def tile_set_chance(field: str, moves: int, other: str | None = None,
                    tiles: str = "all") -> Fraction:
    """The chance that the tile under A's column on ``field`` allows exactly ``moves``
    moves, when it is one of the tiles of :data:`TILE_SETS` ``tiles``, each equally
    likely (B's column on ``other``).

    >>> tile_set_chance("e5", 0, "j10") == stuck_chance("e5", other="j10")
    True
    """
    keep = TILE_SETS[tiles][1]
    counts = [n for t, n in zip(_tiles(), moves_by_tile(field, other)) if keep(t)]
    return Fraction(sum(1 for n in counts if n == moves), len(counts))


def _start_options(start: str) -> tuple[dict[tuple[str, str], Fraction],
                                         dict[str, Fraction]]:
    """For A's column on ``start``: (B's field, tile set) → q1's answer, and B's field →
    q5's answer, read off the engine's landings."""
    tiles = _tiles()
    q1, q5 = {}, {}
    for b in range(FIELDS):
        name = field_name(b)
        if name == start:
            continue
        counts = _moves_with(start, name)
        for which, (_, keep) in TILE_SETS.items():
            chosen = [n for t, n in zip(tiles, counts) if keep(t)]
            q1[(name, which)] = Fraction(sum(chosen), len(chosen))
        q5[name] = sum((Fraction(n * (8 - t.head), FIELDS - 1) for n, t in zip(counts, tiles)),
                       Fraction(0)) / FIELDS
    return q1, q5


def _few_options(centre: str) -> dict[tuple[str, int, str], Fraction]:
    """For A's column on ``centre``: (B's field, moves, tile set) → q2's answer; B's
    column on a field A's tiles reach, or out of reach."""
    tiles = _tiles()
    reach = sorted({f for fields in _landings(centre) for f in fields})
    out = {}
    for b in [field_name(f) for f in reach] + [out_of_reach(centre)]:
        counts = _moves_with(centre, b)
        for name, (_, keep) in TILE_SETS.items():
            chosen = [n for t, n in zip(tiles, counts) if keep(t)]
            for moves in range(5):
                hits = sum(1 for n in chosen if n == moves)
                if 0 < hits < len(chosen):
                    out[(b, moves, name)] = Fraction(hits, len(chosen))
    return out


def _reaching(field: str, owned: str, rose: str | None) -> int:
    """How many tiles of ``rose`` (or of all) could take A's column on ``field`` into the
    square of ``owned`` in one straight line (the board's geometry only: a quick first
    look, before the engine counts)."""
    (r, c), square = divmod(parse_field(field), SIZE), set(_square(owned))
    count = 0
    for tile in _tiles():
        if rose is None or (tile.lines == rose and not tile.head):
            count += any(0 <= r + dr * tile.distance < SIZE and 0 <= c + dc * tile.distance
                         < SIZE and field_name((r + dr * tile.distance) * SIZE + c
                                               + dc * tile.distance) in square
                         for dr, dc in tile.directions)
    return count


def _near(value: Fraction, key: Fraction) -> bool:
    from .checking import SignificantFigures
    return value == key or SignificantFigures(3).allows(key, value) \
        or SignificantFigures(3).allows(value, key)


#: The positions a student's q3 and q4 may ask about, with their answers
#: (:func:`toll_table`); made by :func:`write_toll_table`.
TOLL_TABLE = Path(__file__).with_name("data") / "janus-tolls-q3.json"
#: The roses a student's toll question may restrict the tile to (None: any of the 100).
TOLL_ROSES: tuple[str | None, ...] = (None, "-", "|", "x", "+", "*")


def toll_positions() -> list[tuple[str, str]]:
    """Every (A's field, B's square) of a student's toll question: a square (named by its
    first field) with a field within three rows and columns of A's field, A's field not in
    it."""
    out = []
    for near in range(FIELDS):
        row, col = divmod(near, SIZE)
        squares = {_square(field_name(r * SIZE + c))
                   for r in range(max(0, row - 3), min(SIZE, row + 4))
                   for c in range(max(0, col - 3), min(SIZE, col + 4))}
        out += [(field_name(near), square[0]) for square in sorted(squares)
                if field_name(near) not in square]
    return out


TollRow = tuple[str, str, str | None, Fraction, Fraction, Fraction]


def toll_rows(near: str, owned: str) -> list[TollRow]:
    """The rows of :func:`toll_table` for A on ``near`` and B's square of ``owned``: each
    rose that at least four tiles take into the square (so that the chance is not one
    tile's 1/20) and with a chance of a toll, with q3's chance of a toll (tolls on the
    landing field), q4's expected coins (every field entered, JB-16) and the expected
    coins under the rulebook (the landing field pays)."""
    rows = []
    for rose in TOLL_ROSES:
        if _reaching(near, owned, rose) < 4:
            continue
        chance = toll_chance(near, owned, rose=rose)
        if chance:
            rows.append((near, owned, rose, chance,
                         expected_tolls(near, owned, "entered", rose),
                         expected_tolls(near, owned, "landing", rose)))
    return rows


def write_toll_table(path: str | Path = TOLL_TABLE) -> int:
    """Count every row of the toll table with the engine and write it to ``path`` (a few
    minutes; the package ships it). Returns the number of rows.

    ``python -c "from janus_widgets.analysis.janus_lesson import write_toll_table as w; w()"``
    """
    rows = [row for near, owned in toll_positions() for row in toll_rows(near, owned)]
    about = ("janus-tolls q3/q4 for students: [A's field, B's square, rose or null, "
             "chance of a toll (landing), expected coins (entered), expected coins "
             "(landing)], counted by janus_widgets.analysis.janus_lesson.write_toll_table")
    lines = ",\n".join(json.dumps([n, o, r, *map(str, values)]) for n, o, r, *values in rows)
    Path(path).write_text(f'{{"about": {json.dumps(about)},\n"rows": [\n{lines}\n]}}\n')
    return len(rows)


@lru_cache(maxsize=1)
def toll_table() -> tuple[TollRow, ...]:
    """Every position a student's toll questions may ask about (:func:`toll_rows` over
    :func:`toll_positions`), counted once by the engine and shipped with the package:
    drawing from all of them, not from a handful found at random, is what lets every
    different chance be equally likely for a class.

    >>> [row for row in toll_table() if row[:2] == ("c2", "c3")] == toll_rows("c2", "c3")
    True
    """
    data = json.loads(TOLL_TABLE.read_text())["rows"]
    return tuple((n, o, r, *map(Fraction, values)) for n, o, r, *values in data)


#: A's field and B's square of the page's own toll panel and toll measure
#: (janus-tolls.ipynb, ``TOLL_FIELD`` and ``TOLL_SQUARE``): no student is asked about it.
PAGE_TOLL = ("h3", "g5")


@lru_cache(maxsize=1)
def page_figures() -> frozenset[Fraction]:
    """The figures every janus-tolls page shows that a student's answer must not be: the
    answer box's example (3/8) and the page's toll panel's averages for A on h3 and B's
    square g5 under each reading, and their difference.

    >>> Fraction(3, 8) in page_figures(), toll_chance("h3", "g5") in page_figures()
    (True, True)
    """
    from .exercises import BOX_EXAMPLE
    field, square = PAGE_TOLL
    figures = {BOX_EXAMPLE}
    for reading in ("landing", "entered"):
        figures |= {toll_chance(field, square, reading),
                    expected_tolls(field, square, reading)}
    figures.add(expected_tolls(field, square, "entered")
                - expected_tolls(field, square, "landing"))
    return frozenset(figures)


@lru_cache(maxsize=1)
def _class_keys() -> dict[str, Fraction]:
    """The class's answers, by question."""
    return {e.key: e.answer for e in _exercises(_CLASS)}


@lru_cache(maxsize=None)
def _taken(value: Fraction, key: str) -> bool:
    """Whether a student's answer ``value`` to question ``key`` is near the class's key
    or one of the figures the page shows (each value judged once: a class's sheets ask
    about the same few hundred)."""
    v = float(value)
    return any(abs(v - float(figure)) <= abs(float(figure)) / 50 and _near(value, figure)
               for figure in (_class_keys()[key], *page_figures()))


@lru_cache(maxsize=1)
def _toll_pool() -> dict[tuple[str, str, str | None], Fraction]:
    """The rows of :func:`toll_table` a student may get, each with its q3 chance: not the
    page's own position, no answer near the class's keys or the page's figures, and
    readings that differ (else q4, "under the other reading", has the rulebook's
    answer)."""
    return {(near, owned, rose): q3 for near, owned, rose, q3, q4, landing in toll_table()
            if (near, _square(owned)) != (PAGE_TOLL[0], _square(PAGE_TOLL[1]))
            and q4 != landing and not _taken(q3, "q3") and not _taken(q4, "q4")}


def _draw_numbers(rng: np.random.Generator) -> dict[str, Any]:
    """A student's fields, B's columns, tiles and roses: each question's answer drawn so
    that every different answer is as likely as another (for A's field), never near the
    class's."""
    from .checking import spread
    start = field_name(int(rng.integers(FIELDS)))
    q1, q5 = _start_options(start)
    # never near the class's key, nor a short decimal (two decimals at most, such as 3.6 or
    # 1.96: such figures stand on a page by chance)
    q1 = {o: v for o, v in q1.items()
          if not _taken(v, "q1") and (100 * v).denominator > 1}
    away, start_tiles = spread(rng, sorted(q1), q1.__getitem__)
    q5 = {b: v for b, v in q5.items()
          if not _taken(v, "q5") and (100 * v).denominator > 1}
    heads_b = spread(rng, sorted(q5), q5.__getitem__)
    centre = field_name(int(rng.integers(FIELDS)))
    # (nor a short decimal, two decimals at most such as 0.4: such figures stand on a page
    # by chance)
    few = {o: v for o, v in _few_options(centre).items()
           if not _taken(v, "q2") and (100 * v).denominator != 1}
    b_field, moves, tiles = spread(rng, sorted(few), few.__getitem__)
    # q3 and q4: one of every position where a toll is likely (the class's table), every
    # different chance among them equally likely, none near the class's keys
    pool = _toll_pool()
    toll = spread(rng, list(pool), pool.__getitem__)
    return {"start": start, "away": away, "start_tiles": start_tiles, "heads_b": heads_b,
            "few": (centre, b_field, moves, tiles), "toll": toll}


def _moves_working(field: str, other: str | None = None, tiles: str = "all") -> str:
    """The key's working for an average of moves: how many tiles give each number."""
    keep = TILE_SETS[tiles][1]
    chosen = [n for t, n in zip(_tiles(), moves_by_tile(field, other)) if keep(t)]
    counts = Counter(chosen)
    terms = " + ".join(f"{k}·{counts[k]}" for k in sorted(counts))
    total = sum(k * c for k, c in counts.items())
    return (f"Tiles giving 0, 1, 2, … moves from {field}: "
            + ", ".join(f"{counts[k]} give {k}" for k in sorted(counts))
            + f". Expected moves = ({terms}) / {len(chosen)} = {total}/{len(chosen)} = "
              f"{show_value(Fraction(total, len(chosen)))}.")


def _few_working(field: str, other: str | None, moves: int, tiles: str = "all") -> str:
    table = GAME.engine(GAME.variant()).table
    keep = TILE_SETS[tiles][1]
    chosen = [i for i, t in enumerate(_tiles()) if keep(t)]
    by_tile = moves_by_tile(field, other)
    codes = [table[i].code for i in chosen if by_tile[i] == moves]
    return (f"The tiles that give {moves} move{'s' if moves != 1 else ''} from {field}: "
            + (", ".join(codes) or "none") + f" — {len(codes)} of the {len(chosen)}: "
            f"{len(codes)}/{len(chosen)} = {show_value(Fraction(len(codes), len(chosen)))}.")


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
            "moves of a tile, then over the tiles: " + "; ".join(parts) + ".")


def _janus_lesson(rng: np.random.Generator | None) -> list[Exercise]:
    return _exercises(_CLASS if rng is None else _draw_numbers(rng))


def _exercises(numbers: dict[str, Any]) -> list[Exercise]:
    start = numbers["start"]
    start_tiles = numbers.get("start_tiles", "all")
    centre, b_field, few, tiles = numbers["few"]
    near, owned, rose = numbers["toll"]
    square = "–".join(_square(owned)[::3])
    away = numbers.get("away") or out_of_reach(start)
    free = away == out_of_reach(start)
    heads_b = numbers.get("heads_b") or away
    heads_free = heads_b == out_of_reach(start)
    start_words = TILE_SETS[start_tiles][0]
    rose_words = "one of the 100 tiles" if rose is None else _rose_tiles(rose)
    blocker = None if b_field == out_of_reach(centre) else b_field
    toll_b = out_of_reach(near, _square(owned))
    tile_words, keep = TILE_SETS[tiles]
    q2_mistakes = [Mistake(lambda: tile_set_chance(centre, few, out_of_reach(centre), tiles),
                           "That leaves B's column out: a column never lands on another "
                           f"column (JB-9), so a tile whose only landing is {b_field} "
                           "gives no move.")] if blocker is not None else []
    if few == 0 and blocker is None:
        q2_mistakes.append(Mistake(Fraction(0), "A long move can overshoot the edge, or "
                                                "land on B's column (JB-9): count the "
                                                "tiles whose every direction is barred."))
    elif few > 0:
        q2_mistakes.append(Mistake(lambda: sum((tile_set_chance(centre, k, b_field, tiles)
                                                for k in range(few + 1)), Fraction(0)),
                                   f"That is the chance of at most {few} "
                                   f"move{'s' if few != 1 else ''}; exactly {few} leaves "
                                   "out the stuck tiles" + (" and those with fewer."
                                                            if few > 1 else ".")))
    if tiles != "all":
        q2_mistakes.append(Mistake(lambda: tile_set_chance(centre, few, b_field),
                                   "That is over all 100 tiles; the tile under A is one of "
                                   "those the question names, so count among them only."))
    in_reach = "" if free else ", in the way of some tiles (a column never lands on another, JB-9)"
    q1_mistakes = [
        Mistake(lambda: Fraction(sum(1 for t, n in zip(_tiles(),
                                                       moves_by_tile(start, away))
                                     if n and TILE_SETS[start_tiles][1](t)),
                                 sum(1 for t in _tiles()
                                     if TILE_SETS[start_tiles][1](t))),
                "That is the chance of having a move at all, not the number of moves."),
        Mistake(Fraction(4), "Four is the directions of an average rose in the middle of "
                             "the board; near the edge many of them leave the board."),
    ]
    if not free:
        q1_mistakes.append(Mistake(lambda: expected_moves(start, tiles=start_tiles),
                                   f"That leaves B's column out: a tile whose move lands on "
                                   f"{away} loses that move (JB-9)."))
    if start_tiles != "all":
        q1_mistakes.append(Mistake(lambda: expected_moves(start, away),
                                   "That is over all 100 tiles; the tile under A is one of "
                                   "those the question names, so average over them only."))
    return [
        Exercise(
            "q1", f"A's column stands on {start}; every field still holds a tile, "
                  f"and B's column stands on {away}"
                  + (", where no tile can take A" if free else in_reach)
                  + f". The tile under A is {start_words}, each equally likely (the tile "
                  "table gives how many there are of each kind). On average, how many "
                  "fields can A move to?",
            lambda: expected_moves(start, away, start_tiles), probability=False,
            title="1. Moves on average",
            explanation="Count the moves each tile allows from that field (directions "
                        "that leave the board do not count, JB-8, nor a landing on B's "
                        "column, JB-9) and average over the tiles it can be: the expected "
                        "number of moves.",
            working=lambda: _moves_working(start, away, start_tiles),
            hint="Go through the tile table row by row: how many moves does a tile of "
                 "that rose and distance give from this field? Multiply by the number of "
                 "such tiles, add up, and divide by 100.",
            figure=tile_table_html,
            params={"field": start, "other": away, "tiles": start_tiles},
            mistakes=unique_mistakes(expected_moves(start, away, start_tiles), q1_mistakes)),
        Exercise(
            "q2", f"A's column stands on {centre} of the full board, on an unknown tile: "
                  f"{tile_words}, each equally likely. B's column stands on {b_field}"
                  + ("" if blocker is not None else ", where no tile can take A")
                  + f". What is the chance that the tile allows {_COUNT[few]}?",
            lambda: tile_set_chance(centre, few, b_field, tiles),
            title="2. Stuck" if few == 0 else "2. Few moves",
            explanation=("A tile is a trap there when every direction of its rose runs off "
                         "the board at its distance (JB-8) or lands on B's column (JB-9)."
                         if few == 0 else
                         f"Count the tiles for which exactly {few} of the directions of "
                         "the rose stay on the board at the tile's distance"
                         + (" and miss B's column" if blocker is not None else "")
                         + ", over the number of tiles it can be.")
                        + ("" if tiles == "all" else " Only the tiles the question names "
                                                     "count, above and below the line."),
            working=lambda: _few_working(centre, b_field, few, tiles),
            hint="For each row of the tile table: which directions, at that distance, stay "
                 "on the board from this field"
                 + (" and miss B's column" if blocker is not None else "")
                 + "? Count the tiles that give the number of moves asked for.",
            params={"field": centre, "other": b_field, "moves": few, "tiles": tiles},
            mistakes=unique_mistakes(tile_set_chance(centre, few, b_field, tiles),
                                     q2_mistakes)),
        Exercise(
            "q3", f"B owns the square {square} (its tiles are gone); B's column stands on "
                  f"{toll_b}, out of A's reach. A's column stands on {near} on "
                  f"{rose_words}, each of them equally likely. A "
                  "plays one of its legal moves at random. What is the chance that A lands "
                  "in B's square and pays a toll (JB-16)?",
            lambda: toll_chance(near, owned, rose=rose),
            title="3. The chance of a toll",
            explanation="For each tile, the share of its moves that land in B's square; "
                        "average those shares over the tiles (a stuck tile pays "
                        "nothing). This is the law of total probability: condition on "
                        "the tile.",
            working=lambda: _toll_working(near, owned, rose, "landing"),
            hint="Take the tiles of the rose one distance at a time: which moves stay on "
                 "the board, and what share of them lands in the square? Then average the "
                 "shares over the tiles.",
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
                  f"A's column on {start} can move to (B's column on {heads_b}"
                  + (", out of reach)?" if heads_free else
                     "; a column never lands on another, JB-9)?"),
            lambda: expected_heads_in_reach(start, heads_b), probability=False,
            title="5. Heads within reach",
            explanation="Linearity of expectation: each field A can reach holds one of "
                        "the 99 other tiles, a head with chance 8/99 (7/99 if A stands on "
                        "a head). So the answer is the expected number of moves times "
                        "about 8/99, counted exactly tile by tile.",
            hint="You do not need the chance of 'at least one head'. Add, over A's "
                 "targets, the chance that each holds a head; the tile under A matters "
                 "only through whether it is a head itself.",
            params={"field": start, "other": heads_b},
            mistakes=unique_mistakes(expected_heads_in_reach(start, heads_b), (
                Mistake(lambda: expected_moves(start, heads_b) * Fraction(8, 100),
                        "Nearly: the tile under A is not under a target, so a target "
                        "holds one of the 99 other tiles."),
                Mistake(Fraction(8, 100), "That is the chance for one field; A can reach "
                                          "more than one."),
            ))),
    ]


#: The Janus lesson's exercises (``exercise_sets()["janus-tolls"]``).
JANUS_LESSON = ExerciseSet("janus-tolls", build=_janus_lesson)

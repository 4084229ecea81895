"""The components of Janus as data: board geometry, square values and the tile set.

Everything a variant may change is a plain table here, with a checker that
normalises it and says exactly what is wrong (rules ``JB-1`` … ``JB-3`` in
``seeds/janus.md``):

* the **board** is 10×10 fields, ``a1`` … ``j10``; field number ``10*row + col``
  with row 0 = rank 1 and col 0 = file a. ``a1`` is the corner marked with a spot.
* the **squares** are the 25 blocks of 2×2 fields; their values are a 5×5 table,
  row 0 being the bottom row of squares (ranks 1–2), written left to right.
* the **tile set** is a table of 100 :class:`Tile` values (one per field), each
  written as a short code such as ``R3+`` (red, distance 3, horizontal and
  vertical) or ``Y2|J`` (a yellow Janus head of distance 2 looking up and down).

>>> field_name(0), field_name(99), parse_field("c4")
('a1', 'j10', 32)
>>> Tile.from_code("R3+")
Tile(colour='red', distance=3, lines='+', head=False)
>>> Tile.from_code("Y2|J").code, Tile.from_code("B5-|/\\\\").lines
('Y2|J', '*')
>>> len(standard_tiles()), sum(t.head for t in standard_tiles())
(100, 8)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

__all__ = [
    "SIZE", "FIELDS", "FILES", "SQUARES", "COLOURS", "COLOUR_LETTERS", "LINES",
    "ROSES", "DISTANCE_PRESETS", "DEFAULT_SQUARES", "CORNERS", "Tile",
    "field_name", "parse_field", "square_of", "square_fields", "square_name",
    "line_set", "canonical_lines", "line_directions", "standard_tiles",
    "check_tiles", "check_squares", "tiles_to_json", "tiles_from_json",
    "squares_to_json", "squares_from_json", "direction_name", "lines_phrase",
]

# --- the board (JB-1) ----------------------------------------------------------
SIZE = 10
FIELDS = SIZE * SIZE
FILES = "abcdefghij"
SQUARES = (SIZE // 2) ** 2

#: The four corners in clockwise order seen from above with rank 10 at the top,
#: starting at the marked corner a1: a1, a10, j10, j1.
CORNERS = (0, 90, 99, 9)


def field_name(field: int) -> str:
    """Algebraic name of a field number: 0 → 'a1', 9 → 'j1', 99 → 'j10'."""
    row, col = divmod(field, SIZE)
    return f"{FILES[col]}{row + 1}"


def parse_field(text: str) -> int:
    """Field number of an algebraic name ('a1' … 'j10', any case); ``ValueError`` if none.

    >>> parse_field("A10"), parse_field(" j1 ")
    (90, 9)
    """
    t = text.strip().lower()
    if len(t) < 2 or t[0] not in FILES or not (t[1:].isascii() and t[1:].isdigit()) or \
            t[1:].startswith("0"):
        raise ValueError(f"{text!r} is not a field: files a–j, ranks 1–10, e.g. 'c4'")
    rank = int(t[1:])
    if not 1 <= rank <= SIZE:
        raise ValueError(f"{text!r} is not a field: ranks run from 1 to 10")
    return (rank - 1) * SIZE + FILES.index(t[0])


def square_of(field: int) -> int:
    """Square number (0–24, row by row from the bottom) of the square holding ``field``."""
    row, col = divmod(field, SIZE)
    return (row // 2) * 5 + col // 2


def square_fields(square: int) -> tuple[int, int, int, int]:
    """The four fields of a square, lower-left first."""
    srow, scol = divmod(square, 5)
    base = 2 * srow * SIZE + 2 * scol
    return (base, base + 1, base + SIZE, base + SIZE + 1)


def square_name(square: int) -> str:
    """A square named by its lower-left and upper-right fields, e.g. 'c3–d4'."""
    fields = square_fields(square)
    return f"{field_name(fields[0])}–{field_name(fields[3])}"


#: The default square values (rows from the bottom). A Latin square: each row and
#: each column of squares holds every value 1–5 once (five squares of each value),
#: mirror-symmetric about the diagonal a10–j1, so the two-player corners a1 and
#: j10 are mirror images of each other. The centre square is worth 5.
DEFAULT_SQUARES: tuple[tuple[int, ...], ...] = (
    (1, 5, 4, 2, 3),
    (5, 4, 3, 1, 2),
    (2, 1, 5, 3, 4),
    (3, 2, 1, 4, 5),
    (4, 3, 2, 5, 1),
)


def check_squares(value: Any) -> tuple[tuple[int, ...], ...]:
    """Normalise a square-value table (5 rows of 5 whole numbers 0–9, bottom row first)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence) or len(value) != 5:
        raise ValueError("give 5 rows (bottom row first) of 5 square values each")
    rows = []
    for r, row in enumerate(value):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence) or len(row) != 5:
            raise ValueError(f"row {r} must hold 5 square values")
        for v in row:
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 9:
                raise ValueError(f"row {r}: square value {v!r} is not a whole number 0–9")
        rows.append(tuple(row))
    return tuple(rows)


def squares_to_json(value: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    """The square table as JSON lists."""
    return [list(row) for row in value]


def squares_from_json(value: Any) -> tuple[tuple[int, ...], ...]:
    """The square table from JSON lists (checked by the variant)."""
    if not isinstance(value, list):
        raise ValueError("the square values are a list of 5 rows")
    return tuple(tuple(row) if isinstance(row, list) else row for row in value)


# --- directions and roses (JB-2) --------------------------------------------------
#: Line symbols and the two opposite (row, col) steps each allows.
LINES: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "-": ((0, 1), (0, -1)),      # horizontal: right and left
    "|": ((1, 0), (-1, 0)),      # vertical: up and down
    "/": ((1, 1), (-1, -1)),     # rising diagonal: up-right and down-left
    "\\": ((1, -1), (-1, 1)),    # falling diagonal: up-left and down-right
}
LINE_ORDER = "-|/\\"
#: Shorthand symbols for common roses.
SHORTHAND = {"+": "-|", "x": "/\\", "*": "-|/\\"}
#: The roses of the built-in tile set, in table order.
ROSES = ("-", "|", "x", "+", "*")

_DIRECTION_NAMES = {(1, 0): "up", (-1, 0): "down", (0, 1): "right", (0, -1): "left",
                    (1, 1): "up-right", (-1, -1): "down-left", (1, -1): "up-left",
                    (-1, 1): "down-right"}
_LINE_WORDS = {"-": "horizontal", "|": "vertical", "/": "rising diagonal",
               "\\": "falling diagonal"}


def direction_name(step: tuple[int, int]) -> str:
    """'up', 'down-left', … for a unit step (rank 10 is 'up')."""
    return _DIRECTION_NAMES[step]


def line_set(text: str) -> frozenset[str]:
    """The set of lines a rose string names ('+' is '-|', 'x' is '/\\\\', '*' all four)."""
    out: set[str] = set()
    for ch in text:
        if ch in LINES:
            out.add(ch)
        elif ch in SHORTHAND:
            out.update(SHORTHAND[ch])
        else:
            raise ValueError(f"{ch!r} is not a direction symbol: use - | / \\ or "
                             "the shorthands + (-|), x (/\\), * (all)")
    return frozenset(out)


def canonical_lines(text: str) -> str:
    """The canonical rose string: '*', '+', 'x' or the line symbols in the order - | / \\."""
    lines = line_set(text)
    if not lines:
        raise ValueError("a tile must allow at least one direction")
    ordered = "".join(ch for ch in LINE_ORDER if ch in lines)
    for short, full in (("*", "-|/\\"), ("+", "-|"), ("x", "/\\")):
        if ordered == full:
            return short
    return ordered


def line_directions(lines: str) -> tuple[tuple[int, int], ...]:
    """The unit steps a rose allows, in a fixed order."""
    chosen = line_set(lines)
    return tuple(step for ch in LINE_ORDER if ch in chosen for step in LINES[ch])


def lines_phrase(lines: str) -> str:
    """Words for a rose: 'horizontal and vertical', 'all eight directions', …"""
    chosen = [ch for ch in LINE_ORDER if ch in line_set(lines)]
    if len(chosen) == 4:
        return "all eight directions"
    if set(chosen) == {"/", "\\"}:
        return "both diagonals"
    words = [_LINE_WORDS[ch] for ch in chosen]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# --- tiles (JB-2) -----------------------------------------------------------------
COLOURS = ("red", "yellow", "green", "blue")
COLOUR_LETTERS = "RYGB"


class Tile(NamedTuple):
    """One tile: colour, distance, rose of allowed lines, and whether it is a Janus head.

    A Janus head allows exactly one line: the two opposite directions its
    faces look in.
    """

    colour: str
    distance: int
    lines: str
    head: bool = False

    @property
    def code(self) -> str:
        """Short code: colour letter, distance, rose, and 'J' for a head ('R3+', 'Y2|J')."""
        return (COLOUR_LETTERS[COLOURS.index(self.colour)] + str(self.distance)
                + self.lines + ("J" if self.head else ""))

    @property
    def directions(self) -> tuple[tuple[int, int], ...]:
        """The unit (row, col) steps this tile allows."""
        return line_directions(self.lines)

    def describe(self) -> str:
        """Words: 'a red 3 tile (horizontal and vertical)', 'the red Janus head …'."""
        what = "Janus head" if self.head else "tile"
        return f"{self.colour} {self.distance} {what} ({lines_phrase(self.lines)})"

    @classmethod
    def make(cls, colour: Any, distance: Any, lines: Any, head: Any = False) -> Tile:
        """A checked tile (``ValueError`` naming the problem)."""
        if colour not in COLOURS:
            raise ValueError(f"colour {colour!r} is not one of {', '.join(COLOURS)}")
        if isinstance(distance, bool) or not isinstance(distance, int) \
                or not 1 <= distance <= SIZE - 1:
            raise ValueError(f"distance {distance!r} is not a whole number 1–{SIZE - 1}")
        if not isinstance(lines, str):
            raise ValueError(f"directions {lines!r} must be text such as '+' or '-/'")
        canon = canonical_lines(lines)
        if not isinstance(head, bool):
            raise ValueError(f"head {head!r} must be True or False")
        if head and len(line_set(canon)) != 1:
            raise ValueError(f"a Janus head looks in two opposite directions: one line "
                             f"(- | / \\), not {lines!r}")
        return cls(colour, distance, canon, head)

    @classmethod
    def from_code(cls, code: str) -> Tile:
        """Read a tile code such as 'R3+', 'G1-/' or 'B4\\\\J'."""
        if not isinstance(code, str) or len(code) < 3:
            raise ValueError(f"{code!r} is not a tile code (e.g. 'R3+', 'Y2|J')")
        c = code.strip()
        letter = c[0].upper()
        if letter not in COLOUR_LETTERS:
            raise ValueError(f"{code!r}: the colour letter is one of R, Y, G, B")
        if not c[1].isdigit():
            raise ValueError(f"{code!r}: the distance (1–9) follows the colour letter")
        head = c.endswith(("J", "j"))
        rose = c[2:-1] if head else c[2:]
        return cls.make(COLOURS[COLOUR_LETTERS.index(letter)], int(c[1]), rose, head)


DISTANCE_PRESETS: dict[str, tuple[int, ...]] = {
    "1-5": (1, 2, 3, 4, 5),
    "1-4": (1, 2, 3, 4),
    "1-3": (1, 2, 3),
    "2-4": (2, 3, 4),
}

# Janus heads of the built-in set: (slot, line) per colour. Slot i of a colour has
# rose ROSES[i % 5]; the head takes the place of that tile, keeping its distance.
_HEADS = {
    "red": ((5, "-"), (17, "/")),
    "yellow": ((6, "|"), (17, "\\")),
    "green": ((5, "-"), (17, "\\")),
    "blue": ((6, "|"), (17, "/")),
}


def standard_tiles(distances: str = "1-5") -> tuple[Tile, ...]:
    """The built-in tile set (JB-2) with a distance preset.

    For each colour c (red, yellow, green, blue: c = 0…3) there are 25 tiles,
    slots i = 0…24: the rose is ``ROSES[i % 5]`` (-, |, x, +, *) and the
    distance is ``D[(i // 5 + i % 5 + c) % len(D)]`` for the preset's list D.
    With D = 1…5 each colour holds every (rose, distance) pair once, so every
    distance appears 20 times. Two slots per colour are Janus heads instead
    (see ``_HEADS``): one orthogonal, one diagonal; every line is on two heads.

    >>> from collections import Counter
    >>> Counter(t.distance for t in standard_tiles())[3]
    20
    >>> sorted(Counter(t.distance for t in standard_tiles("1-3")).values())
    [33, 33, 34]
    >>> [t.code for t in standard_tiles() if t.head]
    ['R2-J', 'R1/J', 'Y4|J', 'Y2\\\\J', 'G4-J', 'G3\\\\J', 'B1|J', 'B4/J']
    """
    if distances not in DISTANCE_PRESETS:
        raise ValueError(f"distances={distances!r}: choose one of "
                         + ", ".join(DISTANCE_PRESETS))
    d = DISTANCE_PRESETS[distances]
    out = []
    for c, colour in enumerate(COLOURS):
        heads = dict(_HEADS[colour])
        for i in range(25):
            distance = d[(i // 5 + i % 5 + c) % len(d)]
            if i in heads:
                out.append(Tile(colour, distance, heads[i], True))
            else:
                out.append(Tile(colour, distance, ROSES[i % 5], False))
    return tuple(out)


def check_tiles(value: Any) -> tuple[Tile, ...] | None:
    """Normalise a tile table: ``None`` (the built-in set) or 100 tiles, each a code
    string ('R3+'), a :class:`Tile` or a ``(colour, distance, lines, head)`` sequence."""
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ValueError("give the tile set as a sequence of 100 tiles (codes like 'R3+' "
                         "or (colour, distance, lines, head) tuples), or None for the "
                         "built-in set")
    items = list(value)
    if len(items) != FIELDS:
        raise ValueError(f"the tile set must have {FIELDS} tiles, one per field; "
                         f"this one has {len(items)}")
    tiles = []
    for k, item in enumerate(items):
        try:
            if isinstance(item, str):
                tiles.append(Tile.from_code(item))
            elif isinstance(item, Sequence) and len(item) in (3, 4):
                tiles.append(Tile.make(*item))
            else:
                raise ValueError(f"{item!r} is neither a tile code nor a "
                                 "(colour, distance, lines, head) tuple")
        except ValueError as exc:
            raise ValueError(f"tile {k}: {exc}") from None
    return tuple(tiles)


def tiles_to_json(value: tuple[Tile, ...] | None) -> list[str] | None:
    """The tile table as a JSON list of codes (``None`` stays ``None``)."""
    return None if value is None else [t.code for t in value]


def tiles_from_json(value: Any) -> Any:
    """The tile table from JSON (codes or lists; checked by the variant)."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise ValueError("the tile set is a list of tile codes")
    return tuple(tuple(v) if isinstance(v, list) else v for v in value)

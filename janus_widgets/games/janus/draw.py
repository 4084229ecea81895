"""Janus drawn: the 10×10 board, its tiles, squares, columns and a panel per seat.

Pure functions from a state to a :class:`~janus_widgets.drawing.Drawing`;
the widget shell paints them and sends clicks back as region keys:
``("field", f)`` for the field ``f`` (0 = a1 … 99 = j10), ``("button", "pass")``
(forfeit the turn, or decline / forfeit a second move) and ``("button", "lay")``
(lay the tiles at the start: chance acts).

What is drawn, and how colour is never the only cue:

* each **tile** in its colour with the colour's letter (R, Y, G, B) in the corner
  away from its square's payment circle, its distance in the middle and an arrow
  for every direction it allows; a **Janus head** is a two-faced head whose noses
  point the two ways its faces look, with its distance beside it;
* each **square**'s payment circle with its value; an owned square is tinted for
  its owner and carries the owner's coin (shape and letter);
* each **column** as a thick ring around its field with the seat's marker (colour,
  shape, letter) at a corner, so the tile under it stays readable;
* the legal destinations of the player to move: a dashed frame in the mover's
  colour and a thin line from the column (the shell's own highlights come on top);
* a panel per seat: score, coins in hand, squares owned, tolls received, Janus
  heads held, and the tile the column stands on, drawn large.

Clicking any field plays the move to it; an illegal one is refused by the shell
with the rule that refuses it (``JB-7`` wrong line or distance, ``JB-9`` another
column there, …).

>>> from janus_widgets import games
>>> state = games.get("janus").new(seed=3)
>>> d = draw(state)
>>> (d.width, d.height), prompt(state)
((920, 618), 'Lay the tiles: click the board or the button to shuffle and lay all 100 tiles')
>>> state = state.play_chance()
>>> click(state, None, ("field", 50)).move        # a click on the field a6
'a6'
>>> highlight(state, state.parse("a6"))
(('field', 50), ('field', 0))
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from functools import lru_cache
from typing import Any

from ...core.protocol import seat_name
from ...drawing import (SEAT_STYLES, Circle, Click, Drawing, Panel, Polygon, Rect, Shape,
                        Text, outline_regions, seat_marker)
from .components import (COLOURS, COLOUR_LETTERS, FILES, SIZE, SQUARES, Tile, field_name,
                         lines_phrase, square_fields)
from .rules import BONUS, MOVE, OVER, PASS, SHUFFLE, JanusState

__all__ = ["draw", "click", "highlight", "prompt", "field_origin", "field_centre",
           "WIDTH", "HEIGHT", "FIELD", "BOARD_X", "BOARD_Y", "TILE_FILL",
           "DEFAULT_VIEWPOINT", "TEXT_MIN", "panels", "census"]

DEFAULT_VIEWPOINT = None          # no secrets in Janus: everyone sees everything

# --- geometry ---------------------------------------------------------------------
FIELD = 52                        # one field, in pixels
BOARD_X, BOARD_Y = 34, 62         # top-left corner of a10
BOARD = FIELD * SIZE
INSET = 2                         # gap between a tile and its field's edge
RING = 27                         # outer radius of a column's ring
PANEL_X = BOARD_X + BOARD + 24
PANEL_W = 330
WIDTH = PANEL_X + PANEL_W + 12
HEIGHT = BOARD_Y + BOARD + 36
#: The smallest text drawn (drawing units): 10 px on screen at 1366×768, where the canvas
#: is as tall as leaves the step bar and the status line on screen, and 14 px there in big
#: mode, where it is the output area's 934 px wide (docs/adding-a-game.md).
TEXT_MIN = 14

# --- colours ----------------------------------------------------------------------
TABLE = "#f3ecdc"
BOARD_FILL = "#e9dcc0"
BOARD_EDGE = "#6b5637"
INK = "#222222"
MUTED = "#7a6a50"
#: Tile faces and the ink drawn on them, by tile colour.
TILE_FILL = {"red": "#e0675c", "yellow": "#f2c94c", "green": "#63a85a", "blue": "#5b8fd8"}
TILE_EDGE = {"red": "#9c2f26", "yellow": "#a47c0c", "green": "#2f6b29", "blue": "#27569c"}
TILE_INK = {"red": "#ffffff", "yellow": "#3b2f00", "green": "#ffffff", "blue": "#ffffff"}
SKIN = "#fbeed3"


def field_origin(field: int) -> tuple[float, float]:
    """Top-left corner of a field on the canvas (rank 10 at the top, file a on the left)."""
    row, col = divmod(field, SIZE)
    return BOARD_X + col * FIELD, BOARD_Y + (SIZE - 1 - row) * FIELD


def field_centre(field: int) -> tuple[float, float]:
    """Centre of a field on the canvas."""
    x, y = field_origin(field)
    return x + FIELD / 2, y + FIELD / 2


def square_centre(square: int) -> tuple[float, float]:
    """Centre of a square (where its payment circle is printed)."""
    a = square_fields(square)[0]          # lower-left field
    x, y = field_origin(a)
    return x + FIELD, y                   # its top-right corner


def _outer_corner(field: int) -> tuple[int, int]:
    """The corner of a field away from its square's centre, as (sx, sy) signs on screen."""
    row, col = divmod(field, SIZE)
    sx = -1 if col % 2 == 0 else 1
    sy = 1 if row % 2 == 0 else -1        # lower row of a square: its bottom corners
    return sx, sy


def _rgba(hex_colour: str, alpha: float) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{alpha:g})"


def _screen(step: tuple[int, int]) -> tuple[float, float]:
    """A (row, col) step as a unit vector on screen (rows go up, screen y goes down)."""
    dr, dc = step
    n = math.hypot(dr, dc)
    return dc / n, -dr / n


def _arrow(cx: float, cy: float, ux: float, uy: float, r0: float, r1: float, *,
           shaft: float = 1.6, head: float = 5.5, half: float = 4.2) -> tuple:
    """An arrow from radius r0 to r1 along (ux, uy), as one polygon's points."""
    px, py = -uy, ux
    b = r1 - head
    pts = [(r0, -shaft), (b, -shaft), (b, -half), (r1, 0.0), (b, half), (b, shaft),
           (r0, shaft)]
    return tuple((round(cx + ux * a + px * s, 1), round(cy + uy * a + py * s, 1))
                 for a, s in pts)


# --- tiles ---------------------------------------------------------------------------
def _head_axes(lines: str) -> tuple[float, float, float, float]:
    """The look direction (ux, uy) of a head and the top of its head (px, py), on screen."""
    from .components import LINES
    ux, uy = _screen(LINES[lines][0])
    px, py = uy, -ux                      # perpendicular to the look line
    if py > 0 or (py == 0 and px < 0):
        px, py = -px, -py                 # the crown points up (or right)
    return ux, uy, px, py


#: The right half of a Janus head's outline, in head radii: ``(a, b)`` is ``a`` along
#: the look line and ``b`` towards the crown; the left half is its mirror image.
_PROFILE = ((0.0, 1.05), (0.45, 0.98), (0.76, 0.76), (0.88, 0.46), (0.86, 0.3),
            (1.28, -0.04), (0.9, -0.14), (0.95, -0.3), (0.86, -0.38), (0.92, -0.48),
            (0.8, -0.66), (0.55, -0.76), (0.42, -0.82), (0.46, -1.25))
_HAIR = ((-0.7, 0.7), (-0.4, 0.98), (0.0, 1.08), (0.4, 0.98), (0.7, 0.7), (0.4, 0.82),
         (0.0, 0.88), (-0.4, 0.82))


def head_glyph(cx: float, cy: float, lines: str, r: float, *, ink: str,
               skin: str = SKIN) -> list[Shape]:
    """A two-faced Janus head looking both ways along ``lines`` (one of - | / \\).

    Two profiles back to back: the noses point the two ways the faces look,
    an eye by each nose, hair over the shared crown and the neck below.
    """
    ux, uy, px, py = _head_axes(lines)

    def at(a: float, b: float) -> tuple[float, float]:
        """The point a·r along the look line and b·r towards the crown."""
        return (round(cx + (ux * a + px * b) * r, 1), round(cy + (uy * a + py * b) * r, 1))

    right = _PROFILE
    outline = [at(pa, pb) for pa, pb in right] + [at(-pa, pb) for pa, pb in reversed(right)]
    shapes: list[Shape] = [Polygon(tuple(outline), fill=skin, stroke=ink, width=1.2)]
    for sign in (1, -1):
        ex, ey = at(sign * 0.56, 0.3)
        shapes.append(Circle(ex, ey, max(1.1, r * 0.13), fill=ink))
    shapes.append(Polygon(tuple(at(pa, pb) for pa, pb in _HAIR), fill=ink))
    return shapes


def _head_distance_side(tile: Tile, outer: tuple[int, int]) -> tuple[float, float]:
    """Where a Janus head's distance sits on its tile: across the look line, on the side
    away from the colour letter in the ``outer`` corner (screen signs)."""
    _, _, px, py = _head_axes(tile.lines)
    if px * outer[0] + py * outer[1] > 0:
        px, py = -px, -py
    return px, py


def _tile_parts(tile: Tile, x: float, y: float, size: float,
                outer: tuple[int, int]) -> tuple[list[Shape], ...]:
    """A tile's shapes in four groups: face, head glyph, arrows, texts (painted in
    that order; a board paints each group for all tiles at once, so the canvas
    changes colour and font as seldom as possible)."""
    face, edge, ink = TILE_FILL[tile.colour], TILE_EDGE[tile.colour], TILE_INK[tile.colour]
    k = size / 48.0
    cx, cy = x + size / 2, y + size / 2
    faces: list[Shape] = [Rect(x, y, size, size, fill=face, stroke=edge, width=1.5,
                               radius=6 * k)]
    glyphs: list[Shape] = []
    arrows: list[Shape] = []
    texts: list[Shape] = []
    letter = COLOUR_LETTERS[COLOURS.index(tile.colour)]
    lx = cx + outer[0] * (size / 2 - 8.5 * k)
    ly = cy + outer[1] * (size / 2 - 8.5 * k)
    if tile.head:
        faces.append(Rect(x + 3 * k, y + 3 * k, size - 6 * k, size - 6 * k, stroke=ink,
                          width=1.0, radius=4 * k, dash=(3, 2)))
        # the distance sits across the look line, on the side away from the letter;
        # the head moves a little the other way
        px, py = _head_distance_side(tile, outer)
        glyphs.extend(head_glyph(cx - px * 3 * k, cy - py * 3 * k, tile.lines, 9.5 * k,
                                 ink=INK))
        for ux, uy in (_screen(s) for s in tile.directions):
            diagonal = ux != 0 and uy != 0
            arrows.append(Polygon(_arrow(cx, cy, ux, uy, (13 if diagonal else 15) * k,
                                         (18.5 if diagonal else 22) * k, shaft=1.4 * k,
                                         head=4 * k, half=3.4 * k), fill=ink))
        reach = (size / 2 - (9 if px and py else 7.5) * k) * (math.sqrt(2) if px and py
                                                                else 1.0)
        texts.append(Text(cx + px * reach, cy + py * reach, str(tile.distance),
                          size=TEXT_MIN * k, fill=ink, bold=True))
    else:
        for ux, uy in (_screen(s) for s in tile.directions):
            diagonal = ux != 0 and uy != 0
            arrows.append(Polygon(_arrow(cx, cy, ux, uy, 10 * k, (16 if diagonal else 21) * k,
                                         shaft=1.5 * k, head=5.5 * k, half=4.0 * k), fill=ink))
        texts.append(Text(cx, cy + 0.5, str(tile.distance), size=19 * k, fill=ink,
                          bold=True))
    texts.append(Text(lx, ly, letter, size=TEXT_MIN * k, fill=ink, bold=True))
    return faces, glyphs, arrows, texts


def tile_shapes(tile: Tile, x: float, y: float, size: float,
                outer: tuple[int, int] = (-1, -1)) -> list[Shape]:
    """The shapes of one tile in the box ``(x, y, size, size)``: its face in its
    colour, the colour's letter in the ``outer`` corner (screen signs), the
    distance and an arrow per allowed direction, or for a Janus head the
    two-faced head, its two look directions and its distance."""
    return [shape for part in _tile_parts(tile, x, y, size, outer) for shape in part]


@lru_cache(maxsize=4096)
def _tile_on_field(tile: Tile, field: int) -> tuple[list[Shape], ...]:
    x, y = field_origin(field)
    return _tile_parts(tile, x + INSET, y + INSET, FIELD - 2 * INSET, _outer_corner(field))


@lru_cache(maxsize=256)
def _tiles_layer(board: tuple[int, ...], table: tuple[Tile, ...]) -> tuple[Shape, ...]:
    """Every tile on the board, grouped by kind and style (tiles never overlap, so
    painting all faces, then all glyphs, arrows and texts looks the same as
    painting tile after tile, with far fewer style changes)."""
    faces: list[Shape] = []
    glyphs: list[Shape] = []
    arrows: list[Shape] = []
    texts: list[Shape] = []
    for f, t in enumerate(board):
        if t >= 0:
            a, b, c, e = _tile_on_field(table[t], f)
            faces.extend(a)
            glyphs.extend(b)
            arrows.extend(c)
            texts.extend(e)
    faces.sort(key=lambda s: (s.fill is None, s.fill or "",  # type: ignore[union-attr]
                              s.stroke or ""))  # type: ignore[union-attr]
    arrows.sort(key=lambda s: s.fill or "")  # type: ignore[union-attr]
    texts.sort(key=lambda s: (s.fill, s.size))  # type: ignore[union-attr]
    return tuple(faces + glyphs + arrows + texts)


@lru_cache(maxsize=512)
def _board_layer(board: tuple[int, ...], table: tuple[Tile, ...], owners: tuple[int, ...],
                 values: tuple[int, ...]) -> tuple[Shape, ...]:
    """The board layer: the board, the owned squares' tints, the tiles and the squares'
    payment circles and coins. Made once for each position of the tiles and the
    squares (the same shapes, not equal ones, for every seat and screen that shows
    it: a seat page's server sends a layer it has encoded before without encoding it
    again)."""
    layer: list[Shape] = list(_static_board())
    for s in range(SQUARES):
        o = owners[s]
        if o >= 0:
            x, y = field_origin(square_fields(s)[2])          # upper-left field
            layer.append(Rect(x + 1, y + 1, 2 * FIELD - 2, 2 * FIELD - 2,
                              fill=_rgba(SEAT_STYLES[o].light, 0.85)))
    layer.extend(_tiles_layer(board, table))
    for s in range(SQUARES):
        cx, cy = square_centre(s)
        o = owners[s]
        if o >= 0:
            layer.extend(coin_shapes(o, cx, cy, 14))
            layer.append(Circle(cx + 13, cy + 13, 10.5, fill="#fffaf0", stroke=INK, width=1.2))
            layer.append(Text(cx + 13, cy + 13.5, str(values[s]), size=TEXT_MIN, fill=INK,
                              bold=True))
        else:
            layer.append(Circle(cx, cy, 11, fill="#fffaf0", stroke=INK, width=1.5))
            layer.append(Text(cx, cy + 0.5, str(values[s]), size=TEXT_MIN, fill=INK, bold=True))
    return tuple(layer)


@lru_cache(maxsize=1)
def _static_board() -> tuple[Shape, ...]:
    """The board itself: frame, fields, squares, coordinates and the marked corner."""
    d = Drawing(WIDTH, HEIGHT)
    d.rect(BOARD_X - 8, BOARD_Y - 8, BOARD + 16, BOARD + 16, fill="#8a6d45",
           stroke=BOARD_EDGE, width=2, radius=8, layer="board")
    d.rect(BOARD_X, BOARD_Y, BOARD, BOARD, fill=BOARD_FILL, layer="board")
    for k in range(1, SIZE):
        width = 2.0 if k % 2 == 0 else 0.6
        colour = BOARD_EDGE if k % 2 == 0 else "#c9b48c"
        d.line([(BOARD_X + k * FIELD, BOARD_Y), (BOARD_X + k * FIELD, BOARD_Y + BOARD)],
               stroke=colour, width=width, layer="board")
        d.line([(BOARD_X, BOARD_Y + k * FIELD), (BOARD_X + BOARD, BOARD_Y + k * FIELD)],
               stroke=colour, width=width, layer="board")
    for col in range(SIZE):
        d.text(BOARD_X + col * FIELD + FIELD / 2, BOARD_Y + BOARD + 20, FILES[col], size=TEXT_MIN,
               fill=MUTED, bold=True, layer="board")
    for row in range(SIZE):
        d.text(BOARD_X - 21, BOARD_Y + (SIZE - 1 - row) * FIELD + FIELD / 2, str(row + 1),
               size=TEXT_MIN, fill=MUTED, bold=True, layer="board")
    # the marked corner a1: a spot on the frame and on the field itself
    x, y = field_origin(0)
    d.circle(BOARD_X - 4, BOARD_Y + BOARD + 4, 6, fill=INK, stroke="#ffffff", width=1.5,
             layer="board")
    d.circle(x + FIELD / 2, y + FIELD / 2, 7, fill=INK, layer="board")
    return tuple(d.layers["board"])


# --- what happens next ----------------------------------------------------------------
def _tile_phrase(tile: Tile) -> str:
    return (f"{tile.colour} {'Janus head' if tile.head else 'tile'} {tile.distance}, "
            f"{lines_phrase(tile.lines)}")


def prompt(state: JanusState) -> str:
    """One line saying what happens next."""
    phase, seat = state.raw[0], state.raw[1]
    name = seat_name(seat)
    if phase == SHUFFLE:
        return "Lay the tiles: click the board or the button to shuffle and lay all 100 tiles"
    if phase == OVER:
        return f"Game over: {state.outcome()}"
    col = state.columns[seat]
    tile = state.tile_at(col)
    where = (f"on {field_name(col)}: {_tile_phrase(tile)}" if tile is not None
             else f"on the empty field {field_name(col)}: one step, any direction")
    can = bool(state.targets)
    if phase == BONUS:
        if not can:
            return f"{name}: no second move possible ({where}): click Forfeit"
        extra = " (or Decline)" if state.variant.bonus_optional else ""
        return f"{name}: second move{extra}, {where}"
    if not can:
        return f"{name} cannot move ({where}): click Forfeit"
    return f"{name} to move, {where}"


def _last_trace(state: JanusState) -> tuple[int, int, int] | None:
    """(seat, from, to) of the last column move, or None."""
    last = state.last_move
    if last is None or not 0 <= last.action < SIZE * SIZE:
        return None
    start = state.start
    eng = state.engine
    raw = start.raw
    history = state.history
    for move in history[:-1]:
        raw = eng.apply(raw, move.action)
    seat = raw[1]
    return seat, raw[3][seat], last.action


# --- the drawing ----------------------------------------------------------------------
def draw(state: JanusState, highlights: Iterable[Hashable] = (),
         selection: Any = None) -> Drawing:
    """The picture of a Janus state (``selection`` is not used: a move is one click)."""
    raw = state.raw
    phase, seat, board, cols = raw[0], raw[1], raw[2], raw[3]
    n = state.num_players
    table = state.table
    values = state.square_values
    owners = raw[5]
    text = prompt(state)
    d = Drawing(WIDTH, HEIGHT, background=TABLE, title=f"Janus, {n} players: {text}")

    # --- board layer: the board, the tiles and the squares (they change with moves)
    d.layers["board"].extend(_board_layer(board, table, tuple(owners), tuple(values)))

    # --- pieces: last move, hints, columns
    movers = phase in (MOVE, BONUS)
    trace = _last_trace(state) if phase != SHUFFLE else None
    if trace is not None:
        who, a, b = trace
        ax, ay = field_centre(a)
        bx, by = field_centre(b)
        dist = math.hypot(bx - ax, by - ay) or 1.0
        ex, ey = bx - (bx - ax) / dist * RING, by - (by - ay) / dist * RING
        d.line([(ax, ay), (ex, ey)], stroke=_rgba("#333333", 0.55), width=2.5, dash=(2, 4))
        d.circle(ax, ay, 4.5, fill=_rgba(SEAT_STYLES[who].colour, 0.8), stroke="#ffffff")
    targets = state.targets if movers else ()
    if targets:
        style = SEAT_STYLES[seat]
        sx, sy = field_centre(cols[seat])
        for f in targets:
            tx, ty = field_centre(f)
            dx, dy = tx - sx, ty - sy
            dist = math.hypot(dx, dy)
            ux, uy = dx / dist, dy / dist
            stop = dist - FIELD * 0.36 * dist / max(abs(dx), abs(dy))   # the frame's edge
            if stop > RING + 3:              # from the column's ring to the frame
                d.line([(sx + ux * RING, sy + uy * RING), (sx + ux * stop, sy + uy * stop)],
                       stroke=_rgba(style.colour, 0.7), width=2.5)
            x, y = field_origin(f)
            # A white band under the seat's dashes: they stand out on every tile colour.
            d.rect(x + 3.5, y + 3.5, FIELD - 7, FIELD - 7, stroke="#ffffff", width=6,
                   radius=7)
            d.rect(x + 3.5, y + 3.5, FIELD - 7, FIELD - 7, stroke=style.colour, width=3.5,
                   radius=7, dash=(7, 3))
    for p, f in enumerate(cols):
        _column(d, p, f, state.tile_at(f) if phase != SHUFFLE else None,
                active=movers and p == seat)

    if phase == SHUFFLE:
        _face_down_pile(d)

    # the prompt
    d.text(BOARD_X - 8, 22, text, size=15, align="left", bold=True, fill=INK)
    sub = _subline(state)
    if sub:
        d.text(BOARD_X - 8, 44, sub, size=TEXT_MIN, align="left", fill=MUTED)

    # the seats' panels and the buttons
    _panels(d, state)
    _buttons(d, state)

    # a click region for every field
    for f in range(SIZE * SIZE):
        x, y = field_origin(f)
        d.region(("field", f), x, y, FIELD, FIELD)
    outline_regions(d, highlights)
    return d


def _face_down_pile(d: Drawing) -> None:
    """The 100 tiles face down in a heap, waiting to be shuffled and laid (JB-4)."""
    cx, cy = BOARD_X + BOARD / 2, BOARD_Y + BOARD / 2
    for k, (dx, dy, turn) in enumerate(((-34, 14, -0.25), (30, 22, 0.3), (-8, -6, 0.1),
                                        (20, -24, -0.15), (-26, -30, 0.35))):
        c, s_ = math.cos(turn), math.sin(turn)
        pts = [(cx + dx + c * a - s_ * b, cy + dy + s_ * a + c * b)
               for a, b in ((-24, -24), (24, -24), (24, 24), (-24, 24))]
        d.polygon(pts, fill="#7b5e3b" if k % 2 else "#8c6c45", stroke="#3d2c16", width=1.5)
        d.circle(cx + dx, cy + dy, 9, stroke="#c9a66b", width=1.5)
    d.rect(cx - 120, cy + 62, 240, 40, fill="#2f5d8a", stroke=INK, width=1.5, radius=8)
    d.text(cx, cy + 82, "Lay the tiles", size=16, bold=True, fill="#ffffff")


def _subline(state: JanusState) -> str:
    raw = state.raw
    phase = raw[0]
    if phase == SHUFFLE:
        return ("Chance: 100 tiles face down, shuffled, laid from a1 along each rank up to "
                "j10 (JB-4).")
    left = raw[8]
    idle = raw[9]
    limit = state.engine.idle_limit
    bits = [f"{left} tile{'s' if left != 1 else ''} left"]
    if idle and limit:
        bits.append(f"{idle} of {limit} idle turns (JB-20)")
    last = state.last_move
    if last is not None and not state.engine.is_chance_action(last.action):
        bits.append(f"last move: {last.notation}")
    if phase in (MOVE, BONUS) and state.targets:
        bits.append("click a framed field to move there; any other field says why not")
    return " · ".join(bits)


def _column(d: Drawing, seat: int, field: int, tile: Tile | None, *, active: bool) -> None:
    """A column: a ring around its field (on ``tile``, or on an empty field when None)
    and the seat's marker (shape, letter)."""
    style = SEAT_STYLES[seat]
    cx, cy = field_centre(field)
    if active:
        d.circle(cx, cy, 27, fill=_rgba(style.colour, 0.18), stroke=_rgba(style.colour, 0.5),
                 width=2)
    d.circle(cx, cy, RING - 3.5, stroke=INK, width=8)
    d.circle(cx, cy, RING - 3.5, stroke=style.colour, width=5)
    if tile is not None:
        sx, sy = _outer_corner(field)
        # The colour letter sits in the outer corner (sx, sy) and the payment circle in
        # the inner one (-sx, -sy); the marker takes one of the other two corners: the
        # top one, unless a Janus head's distance sits there.
        top, bottom = ((-sx, sy), (sx, -sy)) if sy < 0 else ((sx, -sy), (-sx, sy))
        bx, by = top
        if tile.head:
            px, py = _head_distance_side(tile, (sx, sy))
            if px * bx > 0 and py * by > 0:
                bx, by = bottom
        seat_marker(d, seat, cx + bx * 17, cy + by * 17, COLUMN_MARKER)
    else:
        seat_marker(d, seat, cx, cy, 14)


#: The radius of a column's seat marker on a tile (its letter is TEXT_MIN).
COLUMN_MARKER = TEXT_MIN / 1.2
PANEL_H, PANEL_GAP = 120, 8


def panel_origin(seat: int) -> tuple[float, float]:
    """Top-left corner of a seat's panel."""
    return PANEL_X, BOARD_Y - 8 + seat * (PANEL_H + PANEL_GAP)


def _panels(d: Drawing, state: JanusState) -> None:
    raw = state.raw
    phase, seat = raw[0], raw[1]
    n = state.num_players
    scores = state.scores()
    winners = state.winners()
    values = state.square_values
    owners = raw[5]
    table = state.table
    for p in range(n):
        style = SEAT_STYLES[p]
        x0, y0 = panel_origin(p)
        to_move = phase in (MOVE, BONUS) and p == seat
        won = phase == OVER and p in winners
        lit = to_move or won
        d.rect(x0, y0, PANEL_W, PANEL_H, fill=style.light if lit else "#fbf8f0",
               stroke=style.colour if lit else "#c8b994", width=4 if lit else 1.5,
               radius=10)
        # who, and the score
        seat_marker(d, p, x0 + 22, y0 + 22, 12)
        d.seat_label(p, x0 + 120, y0)                   # on the panel's top edge
        d.text(x0 + 42, y0 + 16, f"Player {seat_name(p)}", size=15, align="left", bold=True)
        label = ("wins!" if won else "second move" if to_move and phase == BONUS
                 else "to move" if to_move else "")
        if label:
            d.text(x0 + 42, y0 + 35, label, size=TEXT_MIN, align="left", bold=True,
                   fill=style.colour)
        d.text(x0 + 212, y0 + 20, f"{scores[p]:g}", size=22, align="right", bold=True)
        d.text(x0 + 212, y0 + 39, "points", size=TEXT_MIN, align="right", fill=MUTED)
        # coins in hand, squares owned, tolls received
        owned = [values[s] for s in range(SQUARES) if owners[s] == p]
        ry = y0 + 57
        _coin(d, p, x0 + 24, ry, TEXT_MIN / 1.05)
        d.text(x0 + 42, ry, f"{raw[4][p]} in hand", size=TEXT_MIN, align="left")
        d.rect(x0 + 124, ry - 7, 14, 14, fill=style.light, stroke=style.colour, width=2)
        d.text(x0 + 144, ry, f"{len(owned)} square{'s' if len(owned) != 1 else ''}"
               f" = {sum(owned)}", size=TEXT_MIN, align="left")
        ry += 21
        d.text(x0 + 14, ry, "tolls received", size=TEXT_MIN, align="left", fill=MUTED)
        d.text(x0 + 124, ry, f"{raw[7][p]} coin{'s' if raw[7][p] != 1 else ''}"
               f" = {raw[7][p]}", size=TEXT_MIN, align="left")
        # Janus heads held
        ry += 22
        d.text(x0 + 14, ry, "heads", size=TEXT_MIN, align="left", fill=MUTED)
        heads = raw[6][p]
        if heads:
            for i, t in enumerate(heads[:8]):
                _mini_head(d, table[t], x0 + 78 + i * 31, ry)
        else:
            d.text(x0 + 62, ry, "none yet", size=TEXT_MIN, align="left", fill=MUTED)
        # the tile under the column, drawn large
        tx, ty, size = x0 + PANEL_W - 62, y0 + 26, 50
        f = raw[3][p]
        d.text(tx + size, y0 + 13, f"column on {field_name(f)}", size=TEXT_MIN,
               align="right", fill=MUTED)
        t = raw[2][f]
        if t >= 0 and phase != SHUFFLE:
            for shape in tile_shapes(table[t], tx, ty, size):
                d.add(shape)
        else:
            d.rect(tx, ty, size, size, fill=BOARD_FILL, stroke="#c9b48c", radius=6,
                   dash=(4, 3))
            d.text(tx + size / 2, ty + size / 2, "none" if phase != SHUFFLE else "?",
                   size=TEXT_MIN, fill=MUTED)


def coin_shapes(seat: int, cx: float, cy: float, r: float) -> list[Shape]:
    """A seat's coin: a round disc in the seat's colour with a rim and its letter."""
    style = SEAT_STYLES[seat]
    return [Circle(cx, cy, r, fill=style.colour, stroke=INK, width=1.2),
            Circle(cx, cy, r * 0.78, stroke="#ffffff", width=max(1.0, r * 0.09)),
            Text(cx, cy + 0.5, style.letter, size=r * 1.05, fill="#ffffff", bold=True)]


def _coin(d: Drawing, seat: int, cx: float, cy: float, r: float) -> None:
    for shape in coin_shapes(seat, cx, cy, r):
        d.add(shape)


def _mini_head(d: Drawing, tile: Tile, cx: float, cy: float) -> None:
    """A held Janus head: a small disc in its colour with the head and its letter."""
    d.circle(cx, cy, 14.5, fill=TILE_FILL[tile.colour], stroke=TILE_EDGE[tile.colour],
             width=1.5)
    for shape in head_glyph(cx - 5.5, cy, tile.lines, 5.0, ink=INK):
        d.add(shape)
    d.text(cx + 6.5, cy + 0.5, COLOUR_LETTERS[COLOURS.index(tile.colour)], size=TEXT_MIN,
           bold=True, fill=TILE_INK[tile.colour])


BUTTON_W, BUTTON_H = 210, 36


def button_box(players: int) -> tuple[float, float, float, float]:
    """Where the action button sits (under the seats' panels) with this many players."""
    _, y = panel_origin(players)
    return PANEL_X, y, BUTTON_W, BUTTON_H


def _buttons(d: Drawing, state: JanusState) -> None:
    raw = state.raw
    phase = raw[0]
    x, y, w, h = button_box(state.num_players)
    if phase == SHUFFLE:
        _button(d, x, y, w, h, "Lay the tiles", active=True, key=("button", "lay"))
        return
    if phase not in (MOVE, BONUS):
        return
    can = bool(state.targets)
    if phase == BONUS and state.variant.bonus_optional and can:
        _button(d, x, y, w, h, "Decline second move", active=True, key=("button", "pass"))
    elif phase == BONUS:
        _button(d, x, y, w, h, "Forfeit second move", active=not can,
                key=("button", "pass"))
    else:
        _button(d, x, y, w, h, "Forfeit turn (pass)", active=not can,
                key=("button", "pass"))
    if phase == MOVE and can:
        d.text(x + w + 8, y + h / 2 - 8, "only when no", size=TEXT_MIN, align="left",
               fill=MUTED)
        d.text(x + w + 8, y + h / 2 + 8, "move is left", size=TEXT_MIN, align="left",
               fill=MUTED)


def _button(d: Drawing, x: float, y: float, w: float, h: float, label: str, *,
            active: bool, key: Hashable) -> None:
    d.rect(x, y, w, h, fill="#2f5d8a" if active else "#d8d0bd", stroke=INK, width=1.5,
           radius=8, key=key)
    d.text(x + w / 2, y + h / 2, label, size=14, bold=True,
           fill="#ffffff" if active else "#6b6455")


# --- clicks and highlights ----------------------------------------------------------------
def click(state: JanusState, selection: Any, key: Hashable) -> Click:
    """What a click on ``key`` means: a move to a field, pass, or laying the tiles.

    A click on any field means the move there, legal or not, so the shell
    either plays it or shows the rule that refuses it.
    """
    if key is None:
        return Click()
    phase = state.raw[0]
    if phase == SHUFFLE:
        if key == ("button", "lay") or key[0] == "field":
            return Click(step=True, message="The tiles are shuffled and laid (JB-4).")
        return Click()
    if key[0] == "field":
        return Click(move=field_name(key[1]))
    if key == ("button", "pass"):
        return Click(move="pass")
    return Click()


def highlight(state: JanusState, move: Any) -> tuple[Hashable, ...]:
    """The region keys a legal move touches: its destination and the column it moves."""
    action = move.action
    raw = state.raw
    if action == PASS:
        return (("button", "pass"),)
    if 0 <= action < SIZE * SIZE and raw[0] in (MOVE, BONUS):
        return (("field", action), ("field", raw[3][raw[1]]))
    return ()


# --- the census under the board -------------------------------------------------------
def census(state: Any) -> Panel:
    """How many tiles are left of each colour and each distance and how many Janus heads
    still lie on the board: the numbers a player weighs when choosing where to go.

    >>> from janus_widgets import games
    >>> census(games.get("janus").new(seed=3)).lines
    ('Tiles on the board: none yet (lay the tiles).',)
    """
    from collections import Counter
    tiles = [t for t in state.tiles if t is not None]
    if not tiles:
        return Panel("janus-census", "Tiles left",
                     ("Tiles on the board: none"
                      + (" yet (lay the tiles)." if state.phase == "shuffle" else "."),))
    colours = Counter(t.colour for t in tiles)
    distances = Counter(t.distance for t in tiles)
    heads = sum(t.head for t in tiles)
    by_colour = " · ".join(f"{COLOUR_LETTERS[i]} ({c}) {colours[c]}"
                           for i, c in enumerate(COLOURS))
    by_distance = " · ".join(f"{d}: {distances[d]}" for d in sorted(distances))
    return Panel("janus-census", "Tiles left",
                 (f"Tiles left {len(tiles)} — by colour {by_colour} — by distance "
                  f"{by_distance} — Janus heads {heads}",))


def panels(view: Any) -> list[Panel]:
    """The panels under the Janus board: the census of the tiles left."""
    return [census(view)]

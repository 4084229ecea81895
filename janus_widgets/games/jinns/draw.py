"""Jinns of the Lake drawn: the lake, its ring of 32 cells, the piles of domed pawns.

Pure functions from a state to a :class:`~janus_widgets.drawing.Drawing`; the
widget shell paints them and sends clicks back as region keys:

* ``("cell", c)`` — cell ``c`` of the ring (an empty cell or around a pile);
* ``("pawn", c, level)`` — the pawn ``level`` up from the bottom of the pile on cell ``c``
  (clicking a pawn picks up that pawn and everything above it);
* ``("depth", d)`` — in the chooser drawn in the lake: take the top ``d`` pawns;
* ``("tray", kind)`` — during placement, a kind of pawn (``4·colour + strength − 1``);
* ``("button", name)`` — ``"pass"``, ``"top"``, ``"bottom"``, ``"take"``, ``"leave"``.

A move is put together in two clicks: a pile (the pawn clicked sets how deep it is taken;
the chooser in the lake changes it), then one of the two landing cells, which are
outlined with the path and the occupied cells counted on the way. The selection is
``(cell, depth)``. With a pile picked up, a click on a landing cell moves (even onto a
pile of your own), on another pile of yours picks that one up instead, and on the same
pile changes the depth (the same pawn again puts it down). A click that means a move the
rules refuse returns that move, so the shell shows the rule (JI-8, JI-11, JI-18, …).

>>> from janus_widgets.games.jinns.rules import position
>>> state = position(piles={0: "Y3", 2: "B1", 5: "R1G2", 9: "B4Y1"})
>>> d = draw(state, selection=(9, 2))
>>> d.width, d.height
(900, 720)
>>> click(state, None, ("pawn", 9, 0)).selection   # the blue 4 with the yellow 1 on it
(9, 2)
>>> click(state, (9, 2), ("cell", 5)).move      # lands anticlockwise on cell 5
'9.2-'
>>> click(state, None, ("pawn", 2, 0)).move     # a blue pile: the rules say why not
'2.1+'
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from typing import Any

from ...core.protocol import seat_name
from ...drawing import HIGHLIGHT, Action, Click, Drawing, outline_regions
from .rules import HEIGHT as PILE_HEIGHT
from .rules import (CELLS, CHANCE_BASE, COLOUR_NAMES, COLOURS, DEAL, KEEP_BOTTOM, KEEP_TOP,
                    LEAVE, MOVE_COUNT, PASS, PAWN_COLOUR, PAWN_STRENGTH, PLACE_BASE, PLAY,
                    SETUP, SPLIT, TAKE_BASE, THREE, JinnsState, move_action, pawn_text,
                    pile_pawns, pile_text)

__all__ = ["draw", "click", "highlight", "selection_for", "prompt", "cell_point",
           "pawn_box", "slot", "WIDTH", "HEIGHT", "PAWN_FILL", "DEFAULT_VIEWPOINT",
           "TEXT_MIN", "DEAL_ACTION"]

#: The button shown while chance deals at the end of the line: it lets chance act up to
#: the first player's decision in one go (the same seed deals the same).
DEAL_ACTION = Action("deal", "Deal the rest at random",
                     "Random placement (JI-6): let chance place every pawn left",
                     "Chance placed the pawns; A moves first (JI-7).")

DEFAULT_VIEWPOINT = None                 # perfect information: everyone sees everything

WIDTH, HEIGHT = 900, 720
#: The smallest text drawn (drawing units): 10 px on screen at 1366×768, where the canvas
#: is 600 px wide, and 14 px there in big mode, where it is as tall as the screen allows
#: (docs/adding-a-game.md). A pawn's letter and strength are this size too.
TEXT_MIN = 16
LINE = 20                                # from one line of TEXT_MIN text to the next
CX, CY, R = 343, 384, 282                # the ring: centre and radius through the cells
LAKE_R = R - 44
PANEL_X, PANEL_W = 690, 198              # the seats' column

# Pawn geometry at scale 1: a body with 1–4 domes on top (the jinn's strength), its
# label TEXT_MIN high.
PAWN_W, PAWN_H, DOME_R = 40, 15.0, 4.0
STEP = PAWN_H + DOME_R                   # how far up the next pawn of a pile sits
SLOT_W, SLOT_H = 44, 62                  # a cell's click area (a pile of three fits)
BASE_DY = PAWN_H / 2                     # a pile's bottom pawn is centred on its cell

# Colour AND a letter on every pawn; Y/B/R/G in the colour numbering of the rules.
PAWN_FILL = ("#f2c230", "#2f6bcf", "#d23b31", "#2e9a4c")
PAWN_EDGE = ("#8a6a00", "#163f80", "#7d1811", "#145c2a")
PAWN_INK = ("#2b2100", "#ffffff", "#ffffff", "#ffffff")
INK = "#23262b"
MUTED = "#6b6f76"
SAND, SAND_EDGE = "#efe3c6", "#c7b48a"
LAKE, LAKE_EDGE, WAVE = "#cfe7f3", "#7eb3cf", "#a9d0e4"
BAD = "#b3261e"
PANEL = "#fbf8f1"
BUTTON, BUTTON_OFF = "#2f5d8a", "#d9d4c7"


# --- geometry -------------------------------------------------------------------------
def angle(cell: float) -> float:
    """The angle (radians, clockwise on screen from the right) of a cell; cell 0 is at
    the top and the numbers go clockwise (JI-1)."""
    return -math.pi / 2 + 2 * math.pi * cell / CELLS


def cell_point(cell: int) -> tuple[float, float]:
    """The point of the ring where cell ``cell`` is (its star)."""
    a = angle(cell)
    return CX + R * math.cos(a), CY + R * math.sin(a)


def slot(cell: int) -> tuple[float, float, float, float]:
    """The click area of a cell: ``(x, y, w, h)``."""
    x, y = cell_point(cell)
    return x - SLOT_W / 2, y + BASE_DY + 3 - SLOT_H, SLOT_W, SLOT_H


def pawn_box(cell: int, level: int) -> tuple[float, float, float, float]:
    """The body of the pawn ``level`` up from the bottom of the pile on ``cell``: ``(x, y,
    w, h)`` (its domes sit on top of it)."""
    x, y = cell_point(cell)
    bottom = y + BASE_DY - level * STEP
    return x - PAWN_W / 2, bottom - PAWN_H, PAWN_W, PAWN_H


def _polar(a: float, r: float) -> tuple[float, float]:
    return CX + r * math.cos(a), CY + r * math.sin(a)


# --- pieces ---------------------------------------------------------------------------
def _pawn(d: Drawing, pawn: int, cx: float, bottom: float, *, scale: float = 1.0,
          key: Hashable | None = None, layer: Any = "pieces", faded: bool = False,
          lifted: bool = False) -> None:
    """A jinn: its colour, its letter and strength on the body, one dome per point of
    strength on top. ``bottom`` is the y of the body's lower edge."""
    colour, strength = PAWN_COLOUR[pawn], PAWN_STRENGTH[pawn]
    w, h, r = PAWN_W * scale, PAWN_H * scale, DOME_R * scale
    fill = "#ece8df" if faded else PAWN_FILL[colour]
    edge = "#b9b3a5" if faded else PAWN_EDGE[colour]
    ink = "#9a948a" if faded else PAWN_INK[colour]
    top = bottom - h
    gap = 2.15 * r
    for i in range(strength):
        dx = (i - (strength - 1) / 2) * gap
        d.circle(cx + dx, top + 0.5 * scale, r, fill=fill, stroke=edge,
                 width=1.2 * scale if not lifted else 1.6, layer=layer)
    d.rect(cx - w / 2, top, w, h, fill=fill, stroke=HIGHLIGHT if lifted else edge,
           width=2.5 if lifted else 1.2 * scale, radius=3 * scale, layer=layer)
    d.text(cx, top + h / 2 + 0.5, f"{COLOURS[colour]}{strength}", size=TEXT_MIN * scale,
           fill=ink, bold=True, layer=layer)
    if key is not None:
        d.region(key, cx - w / 2, top - r, w, h + r)


def _pile(d: Drawing, pawns: tuple[int, ...], cx: float, bottom: float, *,
          scale: float = 1.0, keys: Iterable[Hashable | None] | None = None,
          lifted_from: int | None = None, layer: Any = "pieces", lift: float = 0.0) -> None:
    """A pile, bottom pawn first; pawns from ``lifted_from`` up are drawn raised.
    ``bottom`` is the y of the lowest pawn's lower edge."""
    keys = list(keys) if keys is not None else [None] * len(pawns)
    for level, (pawn, key) in enumerate(zip(pawns, keys)):
        up = lifted_from is not None and level >= lifted_from
        y = bottom - level * STEP * scale - (lift if up else 0.0)
        _pawn(d, pawn, cx, y, scale=scale, key=key, layer=layer, lifted=up)


def _button(d: Drawing, x: float, y: float, w: float, h: float, label: str, *,
            active: bool, key: Hashable, size: float = TEXT_MIN) -> None:
    d.rect(x, y, w, h, fill=BUTTON if active else BUTTON_OFF, stroke=INK, width=1.5,
           radius=8, key=key)
    d.text(x + w / 2, y + h / 2, label, size=size, bold=True,
           fill="#ffffff" if active else "#6b6455")


def _badge(d: Drawing, seat: int, cx: float, cy: float, r: float = 14) -> None:
    """A seat's badge: its letter on a dark disc (the pawn colours belong to the jinns)."""
    d.circle(cx, cy, r, fill=INK, stroke="#000000")
    d.text(cx, cy + 0.5, seat_name(seat), size=r * 1.15, fill="#ffffff", bold=True)


def _chip(d: Drawing, colour: int, x: float, y: float, size: float = 24) -> None:
    """A small colour square with its letter."""
    d.rect(x, y, size, size, fill=PAWN_FILL[colour], stroke=PAWN_EDGE[colour], radius=3)
    d.text(x + size / 2, y + size / 2 + 0.5, COLOURS[colour], size=max(TEXT_MIN, size * 0.68),
           fill=PAWN_INK[colour], bold=True)


def _lines(d: Drawing, x: float, y: float, lines: Iterable[str], *, size: float = TEXT_MIN,
           align: Any = "center", bold: bool = False, fill: str = INK,
           layer: Any = "pieces") -> float:
    """Lines of text, the first one's middle at ``y``, each :data:`LINE` below the last;
    returns the middle of the line after the last."""
    for line in lines:
        if line:
            d.text(x, y, line, size=size, align=align, bold=bold, fill=fill, layer=layer)
        y += LINE
    return y


def wrap(text: str, width: float, size: float = TEXT_MIN) -> list[str]:
    """``text`` in lines of at most ``width`` units at ``size`` (words kept whole; a
    generous 0.6 em a letter, bold included).

    >>> wrap("a pile of three on cell 12", 150)
    ['a pile of three', 'on cell 12']
    """
    most = max(1, int(width // (0.6 * size)))
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= most:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


# --- words ----------------------------------------------------------------------------
def _colours_of(state: JinnsState, seat: int) -> str:
    return " & ".join(COLOUR_NAMES[c] for c in state.engine.colours[seat])


def prompt(state: JinnsState) -> str:
    """One line saying what happens next."""
    phase, seat = state.raw[0], state.raw[1]
    name = seat_name(seat)
    if phase == SETUP:
        colour = COLOUR_NAMES[state.engine.schedule[len(state.raw[3])][0]]
        return f"{name} places a {colour} pawn on cell {len(state.raw[3])}: click one in the tray"
    if phase == DEAL:
        return f"The pawns are placed at random: cell {len(state.raw[3])} is next"
    if phase == PLAY:
        letters = " or ".join(COLOURS[c] for c in state.engine.colours[seat])
        if state.engine.actions(state.raw) == (PASS,):
            return f"{name} ({_colours_of(state, seat)}) has no move: click Pass"
        return f"{name} ({_colours_of(state, seat)}) to move: click a pile topped by {letters}"
    if phase == SPLIT:
        return f"{name} made a tower of four: keep its top or its bottom half"
    if phase == THREE:
        return f"{name} made a pile of three on cell {state.raw[7]}: take it off or leave it"
    won = state.winners()
    return "Game over: " + " and ".join(seat_name(s) for s in won) + (
        " win (tied)" if len(won) > 1 else " wins")


# --- the picture ----------------------------------------------------------------------
def draw(state: JinnsState, highlights: Iterable[Hashable] = (),
         selection: Any = None) -> Drawing:
    """The picture of a Jinns state; ``selection`` is ``(cell, depth)`` of a pile picked up."""
    n = state.num_players
    d = Drawing(WIDTH, HEIGHT, background="#f7f3ea",
                title=f"Jinns of the Lake, {n} players: {prompt(state)}")
    _board(d, state)
    d.text(16, 20, prompt(state), size=16, align="left", bold=True, fill=INK)
    sel = _valid_selection(state, selection)
    phase = state.raw[0]
    _ring(d, state, sel)
    if phase in (SETUP, DEAL):
        _run_marks(d, state)
    if phase in (SETUP, DEAL):
        _tray(d, state)
    elif phase == PLAY:
        if sel is not None:
            _chooser(d, state, sel)
        else:
            _play_hint(d, state)
        _pass_button(d, state)
    elif phase == SPLIT:
        _split(d, state)
    elif phase == THREE:
        _three(d, state)
    else:
        _over(d, state)
    _seats(d, state)
    outline_regions(d, highlights)
    return d


def _board(d: Drawing, state: JinnsState) -> None:
    """The static picture: the sand ring, the lake, the cell numbers, the seats' frames."""
    b = "board"
    d.circle(CX, CY, R + 34, fill=SAND, stroke=SAND_EDGE, width=2, layer=b)
    d.circle(CX, CY, LAKE_R, fill=LAKE, stroke=LAKE_EDGE, width=2, layer=b)
    for a0 in (0.6, 2.0, 3.6, 5.0):
        d.arc(CX, CY, LAKE_R - 22, a0, a0 + 0.8, stroke=WAVE, width=2, layer=b)
    for c in range(CELLS):
        a = angle(c)
        lx, ly = _polar(a, R + 47 + 22 * max(0.0, -math.sin(a)))
        d.text(lx, ly, str(c), size=TEXT_MIN, fill=MUTED, bold=c % 8 == 0, layer=b)
    # Which way is clockwise (the + of the notation).
    ax, ay = _polar(angle(-2.5), R + 78)
    d.text(ax, ay, "+ is clockwise →", size=TEXT_MIN, fill=MUTED, align="right", layer=b)
    n = state.num_players
    for seat in range(n):
        y0, h = _seat_box(seat, n)
        d.rect(PANEL_X, y0, PANEL_W, h, fill=PANEL, stroke="#cdbf9f", width=1.2, radius=10,
               layer=b)
    key_top = _seat_box(n - 1, n)[0] + _seat_box(n - 1, n)[1] + 10
    if HEIGHT - 10 - key_top >= 100:
        _key(d, key_top)


def _key(d: Drawing, top: float) -> None:
    """How to read a pawn and a score (static, under the seats when there is room)."""
    b = "board"
    d.rect(PANEL_X, top, PANEL_W, HEIGHT - 10 - top, fill="#f1ece0", stroke="#d8ccb0",
           radius=10, layer=b)
    d.text(PANEL_X + 12, top + 17, "Reading the board", size=TEXT_MIN, bold=True,
           align="left", layer=b)
    _pawn(d, pawn_code_of(2, 3), PANEL_X + 34, top + 55, layer=b)
    _lines(d, PANEL_X + 62, top + 40, ["red, 3 domes:", "strength 3"], align="left", layer=b)
    sentences = [["A pile scores its", "height × the top", "pawn's strength."],
                 ["Four make a tower:", "it comes off."]]
    room = int((HEIGHT - 10 - top - 80 + LINE - 8) // LINE)      # lines that fit
    lines: list[str] = []
    for sentence in sentences:
        if len(lines) + len(sentence) <= room:
            lines += sentence
    _lines(d, PANEL_X + 12, top + 80, lines, align="left", fill=MUTED, layer=b)


def pawn_code_of(colour: int, strength: int) -> int:
    """The rules' number of a pawn (``4·colour + strength``)."""
    return 4 * colour + strength


def _star(x: float, y: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rad = r if i % 2 == 0 else r * 0.45
        pts.append((x + rad * math.cos(a), y + rad * math.sin(a)))
    return pts


def _seat_box(seat: int, n: int) -> tuple[float, float]:
    """The top and height of a seat's panel (2 and 3 players leave room for the key)."""
    top, gap = 40, 8
    h = {2: 230, 3: 168}.get(n, (HEIGHT - top - 12 - gap * (n - 1)) / n)
    return top + seat * (h + gap), h


def _valid_selection(state: JinnsState, selection: Any) -> tuple[int, int] | None:
    if state.raw[0] != PLAY or not isinstance(selection, tuple) or len(selection) != 2:
        return None
    cell, depth = selection
    if not (isinstance(cell, int) and 0 <= cell < CELLS):
        return None
    pile = state.raw[2][cell]
    if not pile or not isinstance(depth, int) or not 1 <= depth <= PILE_HEIGHT[pile]:
        return None
    return cell, depth


def _ring(d: Drawing, state: JinnsState, sel: tuple[int, int] | None) -> None:
    """Every cell's click area and pile (a star on an empty cell); the pile picked up
    shows its moving part raised."""
    board = state.raw[2]
    for c in range(CELLS):
        x, y, w, h = slot(c)
        d.region(("cell", c), x, y, w, h)
    for c in range(CELLS):
        pawns = pile_pawns(board[c])
        px, py = cell_point(c)
        if not pawns:
            d.polygon(_star(px, py, 8), fill="#d9c48f", stroke="#b59d5e")
            continue
        d.rect(px - PAWN_W / 2 - 3, py + BASE_DY + 1, PAWN_W + 6, 3.5, fill="#a88f5a",
               radius=1.5)                 # the pile's footing: where one pile ends
        lifted = None
        if sel is not None and sel[0] == c:
            lifted = len(pawns) - sel[1]
        _pile(d, pawns, px, py + BASE_DY, keys=[("pawn", c, i) for i in range(len(pawns))],
              lifted_from=lifted, lift=5.0)


def _run_marks(d: Drawing, state: JinnsState) -> None:
    """During placement in runs: each empty cell shows the colour of its run (JI-4, JI-5);
    the next cell is outlined."""
    filled = len(state.raw[3])
    if state.raw[0] == SETUP:
        for c in range(filled, CELLS):
            colour = state.engine.schedule[c][0]
            x, y = cell_point(c)
            d.circle(x, y, 12, fill=PAWN_FILL[colour], stroke=PAWN_EDGE[colour], width=1)
            d.text(x, y + 0.5, COLOURS[colour], size=TEXT_MIN, fill=PAWN_INK[colour],
                   bold=True)
    x, y = cell_point(filled)
    d.rect(x - PAWN_W / 2 - 5, y - PAWN_H / 2 - DOME_R - 6, PAWN_W + 10,
           PAWN_H + DOME_R + 12, stroke=INK, width=2, radius=6, dash=(4, 3), layer="highlight")
    # (No "next" label: inside the ring it ran into the tray's text; the title names the cell.)


def _tray(d: Drawing, state: JinnsState) -> None:
    """The pawns not yet placed, by colour and strength; in a placement by runs the
    run's colour is the one to click (JI-4); at random, chance draws (JI-6)."""
    counts = state.raw[7]
    setup = state.raw[0] == SETUP
    run = state.engine.schedule[len(state.raw[3])][0] if setup else None
    left = CX - 150
    top = CY - 150
    if setup:
        placer = seat_name(state.raw[1])
        title = f"{placer} chooses the pawn for cell {len(state.raw[3])}"
        sub = f"a {COLOUR_NAMES[run]} run: any {COLOUR_NAMES[run]} pawn, any order"
    else:
        title = f"Chance draws the pawn for cell {len(state.raw[3])}"
        sub = "▶ (step), Autoplay, or Deal the rest"
    d.text(CX, top - 36, title, size=TEXT_MIN, bold=True, fill=INK)
    d.text(CX, top - 14, sub, size=TEXT_MIN, fill=MUTED)
    for colour in range(4):
        y = top + 16 + colour * 62
        active = (not setup) or colour == run
        if setup and active:
            d.rect(left - 10, y - 8, 320, 58, fill="#fff8df", stroke=HIGHLIGHT, width=2.5,
                   radius=10)
        for strength in range(1, 5):
            kind = 4 * colour + strength - 1
            x = left + 20 + (strength - 1) * 78
            count = counts[kind]
            _pawn(d, kind + 1, x + 4, y + 38, scale=1.25, faded=not count or not active)
            d.region(("tray", kind), x - 22, y - 6, 74, 52)
            d.text(x + 44, y + 28, f"×{count}", size=TEXT_MIN, align="center",
                   fill=INK if count and active else "#8f887a", bold=bool(count and active))


def _play_hint(d: Drawing, state: JinnsState) -> None:
    """With nothing picked up: how to move, and the last move."""
    seat = state.raw[1]
    movable = state.movable_cells()
    y = CY - 150
    d.text(CX, y, f"{seat_name(seat)} moves {_colours_of(state, seat)}", size=TEXT_MIN,
           bold=True, fill=INK)
    n = ("the number of pawns moving." if state.engine.height_mode
         else "the strength of its top pawn.")
    lines = ["Click a pawn of a pile topped by", "your colour: it moves with every",
             "pawn above it, onto the n-th", "occupied cell either way, n =", n,
             "Then click a landing cell."]
    y = _lines(d, CX, y + 30, lines)
    d.text(CX, y + 6, f"{len(movable)} of your piles can move (•)" if movable else
           "none of your piles can move", size=TEXT_MIN, fill=MUTED)
    last = state.last_move
    if last is not None:
        d.text(CX, y + 6 + LINE, f"last move: {last.notation}", size=TEXT_MIN, fill=MUTED)
    board = state.raw[2]
    for c in movable:                       # a dot on the lake side of every pile that can move
        x, y2 = _marker_point(c, PILE_HEIGHT[board[c]])
        d.circle(x, y2, 3.5, fill=INK)


def _chord(y: float) -> float:
    """Half the lake's width at the height ``y``, less a margin: how wide a line of text
    centred on the lake may be there."""
    dy = min(abs(y - CY) + TEXT_MIN / 2, LAKE_R)
    return math.sqrt(LAKE_R ** 2 - dy ** 2) - 12


def _marker_point(cell: int, height: int) -> tuple[float, float]:
    """A point on the lake side of a cell, just clear of its pile."""
    x, y = cell_point(cell)
    a = angle(cell)
    top = y + BASE_DY - PAWN_H - (height - 1) * STEP - DOME_R
    t = 8.0
    while True:
        px, py = x - t * math.cos(a), y - t * math.sin(a)
        inside = (x - PAWN_W / 2 - 6 <= px <= x + PAWN_W / 2 + 6
                  and top - 6 <= py <= y + BASE_DY + 6)
        if not inside:
            return px, py
        t += 2.0


def _landing_path(d: Drawing, state: JinnsState, cell: int, steps: int, clockwise: bool,
                  target: int, legal: bool) -> None:
    """The path of a move along the inside of the ring, the occupied cells it counts
    numbered 1 … n, and an arrowhead (legal) or a cross (refused) at its end."""
    occ = state.occupied
    i = occ.index(cell)
    k = len(occ)
    counted = [occ[(i + j) % k] if clockwise else occ[(i - j) % k] for j in range(1, steps + 1)]
    a0 = angle(cell)
    span = (angle(target) - a0) % (2 * math.pi)
    if not clockwise:
        span = span - 2 * math.pi if span else 0.0
    if span == 0:
        span = 2 * math.pi if clockwise else -2 * math.pi
    rad = R - 40 if clockwise else R - 56
    colour = HIGHLIGHT if legal else BAD
    points = [_polar(a0 + span * t / 40, rad) for t in range(41)]
    d.line(points, stroke=colour, width=3.5 if legal else 2.5, dash=() if legal else (7, 5),
           layer="highlight")
    end = a0 + span
    ex, ey = _polar(end, rad)
    if legal:
        tangent = end + (math.pi / 2 if clockwise else -math.pi / 2)
        tip = (ex + 10 * math.cos(tangent), ey + 10 * math.sin(tangent))
        side = tangent + math.pi / 2
        back = (ex - 2 * math.cos(tangent), ey - 2 * math.sin(tangent))
        d.polygon([tip, (back[0] + 7 * math.cos(side), back[1] + 7 * math.sin(side)),
                   (back[0] - 7 * math.cos(side), back[1] - 7 * math.sin(side))],
                  fill=colour, stroke=INK, layer="highlight")
    else:
        d.text(ex, ey, "✗", size=20, fill=BAD, bold=True, layer="highlight")
    for j, c in enumerate(counted, 1):
        bx, by = _polar(angle(c), rad - 14)
        if j == steps:
            continue                      # the landing cell carries the arrow
        d.circle(bx, by, 10, fill="#ffffff", stroke=colour, width=1.5, layer="highlight")
        d.text(bx, by + 0.5, str(j), size=TEXT_MIN, fill=INK, bold=True, layer="highlight")
    # The landing cell: its slot outlined (dashed), labelled with the step count.
    x, y, w, h = slot(target)
    d.rect(x - 4, y - 4, w + 8, h + 8, stroke=colour, width=3.5 if legal else 2.5,
           radius=7, dash=(8, 4) if legal else (3, 3), layer="highlight")


def _outcome(state: JinnsState, action: int) -> tuple[bool, str]:
    """Whether a move is legal and, in a few words, what it makes or which rule refuses it."""
    eng = state.engine
    raw = state.raw
    ex = eng.explain(raw, action)
    if ex.legal:
        depth = ((action >> 1) & 3) + 1
        target = eng.target(raw, action)
        height = PILE_HEIGHT[raw[2][target]] + depth
        onto = pawn_text(raw[2][target] & 31)
        if height == 4:
            return True, f"onto the {onto}: a tower of four, taken off"
        extra = ", may come off" if height == 3 and eng.three_on_completion else ""
        return True, f"onto the {onto}: a pile of {height}{extra}"
    short = {"JI-8": "not your pile", "JI-10": "it would pass a cell twice",
             "JI-12": "the same cell both ways: one move, +",
             "JI-13": "you may not cover your ally"}
    if ex.rule == "JI-11":
        colour = next((c for c in COLOUR_NAMES if f"two {c} pawns" in ex.reason), "")
        return False, f"JI-11: two {colour} pawns in one pile"
    return False, f"{ex.rule}: {short.get(ex.rule, ex.reason)}"


def _chooser(d: Drawing, state: JinnsState, sel: tuple[int, int]) -> None:
    """A pile picked up: drawn large with its levels to click, and where it can land."""
    cell, depth = sel
    raw = state.raw
    eng = state.engine
    pawns = pile_pawns(raw[2][cell])
    h = len(pawns)
    top = pawns[-1]
    mine = bool(eng.ctrl[raw[1]][top])
    d.text(CX, CY - 182, f"Cell {cell}: {pile_text(raw[2][cell])}", size=TEXT_MIN,
           bold=True, fill=INK)
    d.text(CX, CY - 160, "a level moves with all above it" if h > 1 else "a single pawn",
           size=TEXT_MIN, fill=MUTED)
    # The pile, twice the size, its levels clickable ("take 1" is the top pawn alone).
    scale = 2.0
    bx, bottom = CX - 40, CY - 8
    for level, pawn in enumerate(pawns):
        take = h - level
        moving = take <= depth
        y = bottom - level * STEP * scale - (10 if moving and depth < h else 0)
        _pawn(d, pawn, bx, y, scale=scale, lifted=moving)
        d.region(("depth", take), bx - PAWN_W - 4, y - (PAWN_H + DOME_R) * scale,
                 PAWN_W * 2 + 96, (PAWN_H + DOME_R) * scale)
        d.text(bx + PAWN_W + 12, y - PAWN_H, f"take {take}", size=TEXT_MIN, align="left",
               fill=INK if take == depth else MUTED, bold=take == depth)
    steps = depth if eng.height_mode else PAWN_STRENGTH[top]
    why = (f"{depth} pawn{'s' if depth > 1 else ''} moving" if eng.height_mode else
           f"the strength of the {pawn_text(top)} on top")
    y = _lines(d, CX, CY + 14, [f"{steps} occupied cell{'s' if steps > 1 else ''} either "
                                "way", f"({why})"])
    if not mine:
        colour = COLOUR_NAMES[PAWN_COLOUR[top]]
        _lines(d, CX, y + 4, [f"JI-8: {seat_name(raw[1])} may not move", f"a pile topped by "
                              f"{colour}"], fill=BAD, bold=True)
        return
    # Both directions: where they land and whether the rules allow it.
    y += 4
    for clockwise in (True, False):
        action = move_action(cell, depth, clockwise)
        target = eng.target(raw, action)
        sign = "+" if clockwise else "−"
        if target is None:
            y = _lines(d, CX, y, [f"{sign}  no landing: JI-10,", "it would pass a cell twice"],
                       fill=BAD)
            continue
        legal, words = _outcome(state, action)
        if not clockwise and words.startswith("JI-12"):
            y = _lines(d, CX, y, [f"{sign}  cell {target} again:", "the same move (JI-12)"],
                       fill=MUTED)
            continue
        _landing_path(d, state, cell, steps, clockwise, target, legal)
        mark = "✓" if legal else "✗"
        y = _lines(d, CX, y, wrap(f"{sign} {mark} cell {target}, {words}", 2 * _chord(y)),
                   fill=INK if legal else BAD, bold=legal)
    if eng.three_any_turn and h == 3:
        legal = TAKE_BASE + cell in eng.actions(raw)
        _button(d, CX + 50, CY - 74, 150, 34, f"Take off x{cell}", active=legal,
                key=("button", "take"))


def _pass_button(d: Drawing, state: JinnsState) -> None:
    legal = state.engine.actions(state.raw) == (PASS,)
    _button(d, CX - 70, CY + 150, 140, 36, "Pass", active=legal, key=("button", "pass"))
    d.text(CX, CY + 202, "only with no move (JI-18)" if not legal else
           "no pile of yours can move", size=TEXT_MIN, fill=MUTED)


def _split(d: Drawing, state: JinnsState) -> None:
    """Four players, a tower just made: keep its top or bottom half (JI-15)."""
    raw = state.raw
    seat, tower = raw[1], raw[7]
    pawns = pile_pawns(tower)
    ally = seat_name(seat ^ 2)
    d.text(CX, CY - 160, f"{seat_name(seat)} keeps a half of the tower,", size=TEXT_MIN,
           bold=True, fill=INK)
    d.text(CX, CY - 138, f"the ally {ally} gains the other (JI-15)", size=TEXT_MIN,
           fill=MUTED)
    scale = 2.0
    bx, bottom = CX - 110, CY + 60
    for level, pawn in enumerate(pawns):
        y = bottom - level * STEP * scale - (14 if level >= 2 else 0)
        _pawn(d, pawn, bx, y, scale=scale)
    upper, lower = tower & 1023, tower >> 10
    for i, (name, part, action) in enumerate((("top", upper, KEEP_TOP),
                                              ("bottom", lower, KEEP_BOTTOM))):
        pts = 2 * PAWN_STRENGTH[part & 31]
        y = CY - 78 + i * 88
        _button(d, CX - 40, y, 200, 36, f"Keep the {name} half", active=True,
                key=("button", name))
        _lines(d, CX + 60, y + 52, [f"{pile_text(part)}: {pts} points;",
                                    f"{ally} gets {pile_text(lower if name == 'top' else upper)}"],
               fill=MUTED)
    d.region(("button", "top"), bx - PAWN_W, bottom - 4 * STEP * scale - 20, 2 * PAWN_W,
             2 * STEP * scale + 6)
    d.region(("button", "bottom"), bx - PAWN_W, bottom - 2 * STEP * scale - 4, 2 * PAWN_W,
             2 * STEP * scale + 4)


def _three(d: Drawing, state: JinnsState) -> None:
    """Four players, a pile of three just made: take it off or leave it (JI-16)."""
    raw = state.raw
    seat, cell = raw[1], raw[7]
    pile = raw[2][cell]
    ally = seat_name(seat ^ 2)
    d.text(CX, CY - 172, f"{seat_name(seat)} made a pile of three on cell {cell}",
           size=TEXT_MIN, bold=True, fill=INK)
    _lines(d, CX, CY - 150, ["taking it off keeps the upper two;",
                             f"{ally} gains the base (JI-16)"], fill=MUTED)
    pawns = pile_pawns(pile)
    scale = 2.0
    bx, bottom = CX - 110, CY + 50
    for level, pawn in enumerate(pawns):
        y = bottom - level * STEP * scale - (12 if level >= 1 else 0)
        _pawn(d, pawn, bx, y, scale=scale)
    kept = 2 * PAWN_STRENGTH[pile & 31]
    _button(d, CX - 40, CY - 70, 210, 36, f"Take it off (x{cell})", active=True,
            key=("button", "take"))
    _lines(d, CX + 65, CY - 20, [f"you score {kept},", f"{ally} scores "
                                 f"{PAWN_STRENGTH[pile >> 10]}"], fill=MUTED)
    _button(d, CX - 40, CY + 30, 210, 36, "Leave it", active=True, key=("button", "leave"))
    _lines(d, CX + 65, CY + 86, [f"it stays on cell {cell},", "scoring "
                                 f"{3 * PAWN_STRENGTH[pile & 31]}"], fill=MUTED)
    x, y, w, h = slot(cell)
    d.rect(x - 4, y - 4, w + 8, h + 8, stroke=HIGHLIGHT, width=3.5, radius=7, dash=(8, 4),
           layer="highlight")


def _over(d: Drawing, state: JinnsState) -> None:
    won = state.winners()
    scores = state.scores()
    d.text(CX, CY - 70, "Game over", size=26, bold=True, fill=INK)
    why = state.engine.end_why(state.raw)
    _lines(d, CX, CY - 40, wrap(why, 2 * _chord(CY - 40))[:2], fill=MUTED)
    names = " and ".join(seat_name(s) for s in won)
    d.text(CX, CY + 10, f"{names} win{'s' if len(won) == 1 else ' (tied)'}", size=20,
           bold=True, fill=INK)
    d.text(CX, CY + 40, "  ·  ".join(f"{seat_name(s)} {v:g}" for s, v in enumerate(scores)),
           size=TEXT_MIN, fill=INK)


def _seats(d: Drawing, state: JinnsState) -> None:
    """Each seat: its colours, its ally, its score (board + towers) and its towers."""
    raw = state.raw
    eng = state.engine
    n = state.num_players
    cur = state.current_player
    won = state.winners()
    scores = state.scores()
    board_points = [0] * n
    for pile in raw[2]:
        if pile and eng.owner[pile & 31] >= 0:
            board_points[eng.owner[pile & 31]] += PILE_HEIGHT[pile] * PAWN_STRENGTH[pile & 31]
    for seat in range(n):
        y0, h = _seat_box(seat, n)
        if seat == cur or seat in won:
            d.rect(PANEL_X, y0, PANEL_W, h, fill="#fff8df", stroke=HIGHLIGHT, width=3.5,
                   radius=10)
        _badge(d, seat, PANEL_X + 21, y0 + 21)
        d.seat_label(seat, PANEL_X + PANEL_W - 100, y0 - 5)  # on the panel's top edge
        d.text(PANEL_X + 39, y0 + 15, f"Player {seat_name(seat)}", size=TEXT_MIN, bold=True,
               align="left")
        status = "wins!" if seat in won else ("to move" if seat == cur else "")
        if status:
            d.text(PANEL_X + PANEL_W - 5, y0 + 15, status, size=TEXT_MIN, bold=True,
                   align="right", fill="#a65f00")
        x = PANEL_X + 42
        for colour in eng.colours[seat]:
            if n == 3 and colour == 3:
                d.text(x + 1, y0 + 41, "+", size=TEXT_MIN, fill=MUTED, align="left")
                x += 13
            _chip(d, colour, x, y0 + 29)
            x += 28
        if n == 4:
            d.text(x + 2, y0 + 41, "ally", size=TEXT_MIN, fill=MUTED, align="left")
            _badge(d, seat ^ 2, x + 48, y0 + 41)
            _chip(d, eng.colours[seat ^ 2][0], x + 66, y0 + 29)
        elif n == 3:
            d.text(x + 2, y0 + 41, "(shared)", size=TEXT_MIN, fill=MUTED, align="left")
        towers = raw[4][seat]
        tower_points = sum(eng.part_value(p) for p in towers)
        d.text(PANEL_X + 12, y0 + 76, f"{scores[seat]:g}", size=26, bold=True, align="left")
        _lines(d, PANEL_X + 60, y0 + 67, [f"on the board {board_points[seat]}",
                                          f"taken off {tower_points}"], align="left",
               fill=MUTED)
        _towers(d, state, towers, PANEL_X + 10, y0 + 98, y0 + h - 4)


#: A tower (or tower part) taken off, drawn as a row of chips, one per pawn, bottom first.
TOWER_CHIP, TOWER_ROW = 26, 24


def _towers(d: Drawing, state: JinnsState, towers: tuple[int, ...], x0: float, top: float,
            bottom: float) -> None:
    """The towers (or tower parts) a seat has taken off, one a row: its pawns bottom first
    as chips (colour and letter, strength), then its points; the latest rows when more
    were taken off than fit, and how many more."""
    if not towers:
        d.text(x0 + 2, top + 10, "no tower taken off yet", size=TEXT_MIN, fill="#8f887a",
               align="left")
        return
    rows = max(1, int((bottom - top) // TOWER_ROW))
    shown = list(towers) if len(towers) <= rows else list(towers[-(rows - 1):])
    y = top
    if len(shown) < len(towers):
        d.text(x0 + 2, y + 10, f"and {len(towers) - len(shown)} more before",
               size=TEXT_MIN, fill=MUTED, align="left")
        y += TOWER_ROW
    for part in shown:
        x = x0
        for pawn in pile_pawns(part):
            colour = PAWN_COLOUR[pawn]
            d.rect(x, y, TOWER_CHIP, TOWER_ROW - 4, fill=PAWN_FILL[colour],
                   stroke=PAWN_EDGE[colour], radius=3)
            d.text(x + TOWER_CHIP / 2, y + (TOWER_ROW - 4) / 2 + 0.5, pawn_text(pawn),
                   size=TEXT_MIN, fill=PAWN_INK[colour], bold=True)
            x += TOWER_CHIP + 2
        d.text(x + 6, y + (TOWER_ROW - 4) / 2, f"= {state.engine.part_value(part)}",
               size=TEXT_MIN, fill=INK, align="left")
        y += TOWER_ROW


# --- clicks ---------------------------------------------------------------------------
def click(state: JinnsState, selection: Any, key: Hashable) -> Click:
    """What a click on ``key`` means (see the module docstring for the keys)."""
    raw = state.raw
    phase = raw[0]
    sel = _valid_selection(state, selection)
    if key is None:
        return Click()
    kind = key[0] if isinstance(key, tuple) and key else None
    if kind == "tray":
        if phase == DEAL:
            return Click(message="JI-6: the pawns are placed at random: chance draws them "
                                 "(▶ step, Autoplay, or Deal the rest).")
        return Click(move=pawn_text(key[1] + 1))        # refused out of set-up, with why
    if kind == "button":
        name = key[1]
        if name == "pass":
            return Click(selection=sel, move="pass")
        if name in ("top", "bottom", "leave"):
            return Click(move=name)
        if name == "take":
            cell = raw[7] if phase == THREE else (sel[0] if sel else None)
            if cell is None:
                return Click(message="Click a pile of three first.")
            return Click(move=f"x{cell}")
    if kind == "depth":
        if sel is None:
            return Click()
        pile = raw[2][sel[0]]
        return Click(selection=(sel[0], min(key[1], PILE_HEIGHT[pile])))
    if kind not in ("cell", "pawn"):
        return Click(selection=sel)
    cell = key[1]
    pile = raw[2][cell]
    height = PILE_HEIGHT[pile]
    depth = height - key[2] if kind == "pawn" else 1
    if phase == SETUP:
        colour = COLOUR_NAMES[state.engine.schedule[len(raw[3])][0]]
        return Click(message=f"JI-4: choose the {colour} pawn for cell {len(raw[3])} in the "
                             "tray inside the lake.")
    if phase == DEAL:
        return Click(message="JI-6: the pawns are placed at random: chance draws them "
                             "(▶ step, Autoplay, or Deal the rest).")
    if phase != PLAY:                          # split, three, over: the rules say why not
        if not pile:
            return Click(message=prompt(state) + ".")
        return Click(move=f"{cell}.{depth}+")
    eng = state.engine
    seat = raw[1]
    if sel is not None:
        scell, sdepth = sel
        targets = {}
        for clockwise in (False, True):
            t = eng.target(raw, move_action(scell, sdepth, clockwise))
            if t is not None:
                targets[t] = "+" if clockwise else "-"
        if cell in targets:
            return Click(move=f"{scell}.{sdepth}{targets[cell]}")
        if cell == scell:
            if kind == "pawn" and depth != sdepth:
                return Click(selection=(cell, depth))
            return Click()                     # the same pile again: put it down
    if not pile:
        if sel is not None:
            where = " or ".join(f"cell {t}" for t in sorted(targets)) or "nowhere"
            return Click(selection=sel, message=f"JI-9: the pile picked up on cell {sel[0]} "
                                                f"lands on {where}; cell {cell} is empty.")
        return Click(message=f"Cell {cell} is empty: click a pile topped by "
                             + " or ".join(COLOUR_NAMES[c] for c in eng.colours[seat]) + ".")
    if not eng.ctrl[seat][pile & 31]:
        if sel is not None:
            where = " or ".join(f"cell {t}" for t in sorted(targets)) or "nowhere"
            return Click(selection=sel, message=f"JI-9: the pile picked up on cell {sel[0]} "
                                                f"lands on {where}, not on cell {cell}.")
        return Click(move=f"{cell}.{depth}+")   # refused: JI-8 names whose pile it is
    # One of the player's piles: pick it up (the pawn clicked sets the depth).
    legal = state.moves_from(cell, depth)
    if legal:
        return Click(selection=(cell, depth))
    reasons = []
    for clockwise in (True, False):
        ex = eng.explain(raw, move_action(cell, depth, clockwise))
        if ex.rule != "JI-12":
            reasons.append(str(ex))
    return Click(selection=(cell, depth),
                 message=f"The top {depth} of cell {cell} cannot move: " + " / ".join(
                     dict.fromkeys(reasons)))


def highlight(state: JinnsState, move: Any) -> tuple[Hashable, ...]:
    """The region keys a legal move touches (for the legal-moves list)."""
    action = move.action
    raw = state.raw
    if 0 <= action < MOVE_COUNT:
        target = state.engine.target(raw, action)
        keys: tuple[Hashable, ...] = (("cell", action >> 3),)
        return keys + ((("cell", target),) if target is not None else ())
    if PLACE_BASE <= action < PASS or CHANCE_BASE <= action:
        kind = (action - PLACE_BASE) if action < PASS else action - CHANCE_BASE
        return (("tray", kind), ("cell", len(raw[3])))
    if action == PASS:
        return (("button", "pass"),)
    if action in (KEEP_TOP, KEEP_BOTTOM):
        return (("button", "top" if action == KEEP_TOP else "bottom"),)
    if TAKE_BASE <= action < LEAVE:
        return (("cell", action - TAKE_BASE), ("button", "take"))
    if action == LEAVE:
        return (("button", "leave"),)
    return ()


def selection_for(state: JinnsState, move: Any) -> tuple[int, int] | None:
    """The pile a move picks up, so choosing it in the list shows its paths."""
    action = move.action
    if 0 <= action < MOVE_COUNT and state.raw[0] == PLAY:
        return action >> 3, ((action >> 1) & 3) + 1
    if TAKE_BASE <= action < LEAVE and state.raw[0] == PLAY:
        return action - TAKE_BASE, 3
    return None

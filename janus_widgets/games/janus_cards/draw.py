"""The Janus card game drawn from one seat's view: hands, the pile, trios, the odds.

Pure functions from a :class:`~janus_widgets.games.janus_cards.views.CardsView`
to a :class:`~janus_widgets.drawing.Drawing`. The shell passes
``state.view(viewpoint)``; everything drawn comes from that view, so a seat's
picture shows only what that seat has seen (JC-13), and the teacher's view
(``None``) shows both sides of every card.

Every card is drawn split in two: the **top half** is the side that faces its
holder (for the pile and the trios: the side facing up), the **bottom half** the
side everyone else sees (facing down). A side the viewer has not seen is drawn as
a card back with a "?". A known side shows its symbol three ways: a glyph, its
letter (the notation's, ``s`` sun, ``m`` moon …) and its name, on the symbol's
colour, so colour is never the only cue.

Region keys (what a click means, see :func:`click`):

* ``("card", "B2")`` — B's card 2 (``"B4"`` may be an empty slot: clicking it
  composes a draw the rules refuse, and the status line says why);
* ``("pile",)`` — the pile's top card; ``("unseen",)`` — the cards below that
  nobody has seen;
* ``("button", "play")`` — draw or discard the chosen cards; ``("button",
  "agree")``, ``("button", "clear")``, ``("button", "odds")`` (the "what can I
  know?" mode), ``("button", "deal")`` (chance deals or turns up a card);
* ``("cover",)`` — between turns when one screen is passed round: the next
  player clicks it to see their cards.

The move is composed in a :class:`Pick` (the shell's *selection*): click other
players' cards or the pile to draw (one or two), your own cards to discard (one
or two, the second ends on top), then the button. The shell keeps the pick
between clicks and starts each new position with :func:`fresh_selection`.

>>> from janus_widgets.games.janus_cards.rules import position
>>> state = position(hands=[["s/m", "s/k"], ["h/s", "f/b"], ["c/l"]], pile=["t/r"])
>>> view = state.view(0)
>>> pick = click(view, None, ("card", "B1")).selection
>>> pick.take
('B1',)
>>> click(view, click(view, pick, ("pile",)).selection, ("button", "play")).move
'dB1+P'
>>> "heart" in draw(view).texts(), "heart" in draw(state.view(None)).texts()
(False, True)
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ...core.numbers import shared_denominator
from ...core.protocol import CHANCE, TERMINAL, seat_name, viewer_name
from ...core.protocol import TABLE as WHOLE_TABLE   # (TABLE here is the felt's colour)
from ...drawing import SEAT_STYLES, Action, Click, Drawing, outline_regions, seat_marker
from .tables import HAND_LIMIT, SYMBOL_CODES, SYMBOL_NAMES, plural
from .views import BACK, FRONT, CardsView, LaidTrio, SeenCard

__all__ = ["draw", "click", "highlight", "fresh_selection", "covers", "screen_view",
           "read_only", "prompt", "Pick", "public_view", "card_origin", "pile_origin",
           "panel_origin", "odds_texts", "DEFAULT_VIEWPOINT", "WIDTH", "HEIGHT", "CARD_W",
           "HALF_H", "SYMBOL_COLOURS", "BACK_FILL", "TEXT_MIN", "VIEWING_KEYS", "DEAL_ACTION"]

#: The button shown while chance deals at the end of the line: it lets chance act up to
#: the first player's decision in one go (the same seed deals the same).
DEAL_ACTION = Action("deal", "Deal all the cards",
                     "Let chance deal every card still to deal and turn up the pile's "
                     "first card (JC-4 … JC-6)",
                     "The cards are dealt and the pile's top card is turned up (JC-5, JC-6).")

#: One screen passed round the table: draw what the player to move may see.
DEFAULT_VIEWPOINT = "current"
#: Buttons that show something rather than play a move (a record keeps them).
VIEWING_KEYS = (("button", "odds"),)

WIDTH, HEIGHT = 960, 650
#: The smallest text drawn (drawing units): 10 px on screen at 1366×768, where the canvas
#: is as tall as leaves the step bar and the status line on screen, and 14 px there in big
#: mode, where it is the output area's 934 px wide (docs/adding-a-game.md).
TEXT_MIN = 15
LINE = 18                               # from one line of TEXT_MIN text to the next
CARD_W, HALF_H = 54, 46                 # a card: two halves, one above the other
LABEL_GAP = 12                          # from a hand card's bottom to its label's middle
CARD_GAP = 4
PANEL_W, PANEL_H, PANEL_GAP = 304, 162, 12
TOP_Y, BOTTOM_Y = 36, 442
MID_Y, MID_H = 204, 232
LABEL_W = 66                            # the "B sees / others see" column of a panel
TRIO_X, TRIO_W = 212, 436               # the trios (and the odds panel over them)
BUTTON_X, BUTTON_W = 660, 286
ODDS_Y = MID_Y + MID_H - 50            # the "What can I know?" button

INK = "#222222"
MUTED = "#6b6455"
TABLE = "#e9f0e6"
FELT = "#d5e4d0"
FACE = "#fffdf6"
BACK_FILL = "#2b3a67"
BACK_LINE = "#41548a"
PRIMARY = "#2f5d8a"
DISABLED = "#c9c2b0"

#: A colour per symbol; every symbol also has a glyph, a letter and its name.
SYMBOL_COLOURS: dict[str, str] = {
    "sun": "#e69f00", "moon": "#3f66d0", "heart": "#d7263d", "crown": "#8e44ad",
    "key": "#8a6d00", "fish": "#0e8f9b", "leaf": "#2e9e44", "bell": "#c05800",
    "tree": "#1b5e20", "ring": "#d45fae", "wave": "#1f4e79"}
_CODE = dict(zip(SYMBOL_NAMES, SYMBOL_CODES))
_LETTERS = "ABCDEF"


# --- the selection ----------------------------------------------------------------
@dataclass(frozen=True)
class Pick:
    """A move being composed, and how the table is shown (the shell's selection).

    ``take``: the cards chosen to draw, as refs (``"B1"``, ``"P"`` for the pile),
    in the order clicked; ``drop``: the mover's own slots (0-based) chosen to
    discard, the second ending on top. ``covered``: the screen waits for the next
    player (hot seat); ``shown``: the seat the uncovered screen was handed to.
    ``odds``: the "what can I know?" mode, where a click on a card shows the
    exact odds of its unseen side; ``inspect``: that card's ref (``"next"``: the
    next card to turn up from the unseen part of the pile). ``record``: a record that
    is stepped through, never played on (no deal or play button, no move prompt).
    """

    take: tuple[str, ...] = ()
    drop: tuple[int, ...] = ()
    covered: bool = False
    shown: int | None = None
    odds: bool = False
    inspect: str | None = None
    #: A record that cannot be played on (a seat's or the table's): no move is offered.
    record: bool = False

    def cleared(self) -> Pick:
        """The same display with nothing chosen."""
        return replace(self, take=(), drop=(), inspect=None)


def _pick(selection: Any) -> Pick:
    return selection if isinstance(selection, Pick) else Pick()


def fresh_selection(view: CardsView, viewpoint: Any, previous: Any) -> Pick:
    """The pick a newly shown position starts with (the shell calls this after
    every change). With the viewpoint ``"current"`` one screen is passed round
    the table, so the screen is covered until the player to move takes it;
    it stays open while the same seat goes on (after ``agree``). The
    "what can I know?" mode carries over.
    """
    before = _pick(previous)
    odds = before.odds
    if viewpoint != "current" or view.viewer == WHOLE_TABLE:
        # A seat's own screen, or what the whole table has seen (a screen passed round
        # away from the game's present, or at a chance point): nothing to cover.
        return Pick(odds=odds and view.viewer != WHOLE_TABLE, shown=view.viewer)
    seat = view.viewer
    if seat is not None and not before.covered and before.shown == seat:
        return Pick(odds=odds, shown=seat)
    return Pick(odds=odds, covered=True)


# --- what a covered screen may show ---------------------------------------------------
def read_only(selection: Any) -> Pick:
    """The selection of a record that cannot be played on: the shell applies it, and the
    table offers no move (no deal, play or agree button; the odds stay)."""
    return replace(_pick(selection), record=True, covered=False)


def covers(selection: Any) -> bool:
    """Whether the screen is covered (a screen passed round waits for the next player):
    the shell then offers no move, reads no card aloud and plays nothing by key."""
    return _pick(selection).covered


def screen_view(view: CardsView, selection: Any) -> CardsView:
    """What the screen may show of ``view``: under the cover, what every seat has seen
    (:func:`public_view`); otherwise the view itself (the shell reads it aloud)."""
    return public_view(view) if _pick(selection).covered else view


def public_view(view: CardsView) -> CardsView:
    """The view with only the sides every seat has seen: what may be on a screen
    that the whole table can see (between turns of a hot-seat game)."""
    everyone = view.players

    def keep(card: SeenCard) -> SeenCard:
        return replace(card,
                       front=card.front if len(card.front_seen_by) == everyone else None,
                       back=card.back if len(card.back_seen_by) == everyone else None)

    return replace(view,
                   hands=tuple(tuple(keep(c) for c in hand) for hand in view.hands),
                   pile=tuple(keep(c) for c in view.pile),
                   trios=tuple(replace(t, cards=tuple(keep(c) for c in t.cards))
                               for t in view.trios),
                   unturned_cards=None, no_trios=())


# --- geometry -----------------------------------------------------------------------
def _rows(n: int) -> tuple[int, int]:
    top = (n + 1) // 2
    return top, n - top


def panel_origin(n: int, seat: int) -> tuple[float, float]:
    """Top-left corner of a seat's panel. Seats sit clockwise round the table:
    the top row left to right, then the bottom row right to left."""
    top, bottom = _rows(n)
    if seat < top:
        count, i, y = top, seat, TOP_Y
    else:
        count, i, y = bottom, bottom - 1 - (seat - top), BOTTOM_Y
    span = count * PANEL_W + (count - 1) * PANEL_GAP
    x0 = (WIDTH - span) / 2
    return x0 + i * (PANEL_W + PANEL_GAP), y


def card_origin(n: int, seat: int, slot: int) -> tuple[float, float]:
    """Top-left corner of a hand card (slot 0-based); the card is ``CARD_W`` wide
    and two halves of ``HALF_H`` tall."""
    x, y = panel_origin(n, seat)
    return x + LABEL_W + slot * (CARD_W + CARD_GAP), y + 32


def pile_origin() -> tuple[float, float]:
    """Top-left corner of the pile's top card."""
    return 58.0, MID_Y + 40.0


_UNSEEN_X = 138.0


# --- glyphs ------------------------------------------------------------------------------
def _glyph(d: Drawing, symbol: str, cx: float, cy: float, r: float, bg: str) -> None:
    """The symbol's picture, drawn with shapes (no font needed), about 2r wide."""
    col = SYMBOL_COLOURS[symbol]
    if symbol == "sun":
        for k in range(8):
            a = k * math.pi / 4
            d.line([(cx + 0.62 * r * math.cos(a), cy + 0.62 * r * math.sin(a)),
                    (cx + r * math.cos(a), cy + r * math.sin(a))], stroke=col,
                   width=max(1.2, r * 0.18))
        d.circle(cx, cy, r * 0.48, fill=col)
    elif symbol == "moon":
        d.circle(cx, cy, r * 0.9, fill=col)
        d.circle(cx + r * 0.42, cy - r * 0.22, r * 0.72, fill=bg)
    elif symbol == "heart":
        d.circle(cx - r * 0.44, cy - r * 0.3, r * 0.5, fill=col)
        d.circle(cx + r * 0.44, cy - r * 0.3, r * 0.5, fill=col)
        d.polygon([(cx - r * 0.9, cy - r * 0.12), (cx + r * 0.9, cy - r * 0.12),
                   (cx, cy + r * 0.95)], fill=col)
    elif symbol == "crown":
        pts = [(-1, .65), (-1, -.55), (-.5, 0), (0, -.85), (.5, 0), (1, -.55), (1, .65)]
        d.polygon([(cx + r * x, cy + r * y) for x, y in pts], fill=col)
    elif symbol == "key":
        w = max(1.5, r * 0.24)
        d.circle(cx - r * 0.5, cy, r * 0.38, stroke=col, width=w)
        d.line([(cx - r * 0.12, cy), (cx + r, cy)], stroke=col, width=w)
        d.line([(cx + r * 0.55, cy), (cx + r * 0.55, cy + r * 0.45)], stroke=col, width=w)
        d.line([(cx + r * 0.9, cy), (cx + r * 0.9, cy + r * 0.5)], stroke=col, width=w)
    elif symbol == "fish":
        body = [(cx - r * 0.95 + 1.25 * r * (1 - math.cos(t)) / 2,
                 cy + r * 0.5 * math.sin(t) * (1 if k else -1))
                for k in (0, 1) for t in (
                    [i * math.pi / 8 for i in range(9)] if k == 0 else
                    [math.pi - i * math.pi / 8 for i in range(9)])]
        d.polygon(body, fill=col)
        d.polygon([(cx + r * 0.2, cy), (cx + r, cy - r * 0.5), (cx + r, cy + r * 0.5)],
                  fill=col)
        d.circle(cx - r * 0.55, cy - r * 0.1, max(1.0, r * 0.11), fill=bg)
    elif symbol == "leaf":
        pts = []
        for i in range(13):
            t = i / 12
            pts.append((-1 + 2 * t, -0.55 * math.sin(math.pi * t)))
        for i in range(13):
            t = 1 - i / 12
            pts.append((-1 + 2 * t, 0.55 * math.sin(math.pi * t)))
        c, s = math.cos(-math.pi / 4), math.sin(-math.pi / 4)
        d.polygon([(cx + r * 0.95 * (x * c - y * s), cy + r * 0.95 * (x * s + y * c))
                   for x, y in pts], fill=col)
        d.line([(cx - r * 0.6, cy + r * 0.6), (cx + r * 0.55, cy - r * 0.55)], stroke=bg,
               width=max(1.0, r * 0.1))
    elif symbol == "bell":
        pts = [(-.85, .6), (-.6, .35), (-.55, -.3), (-.35, -.7), (0, -.85), (.35, -.7),
               (.55, -.3), (.6, .35), (.85, .6)]
        d.polygon([(cx + r * x, cy + r * y) for x, y in pts], fill=col)
        d.circle(cx, cy + r * 0.75, r * 0.2, fill=col)
    elif symbol == "tree":
        d.rect(cx - r * 0.14, cy + r * 0.45, r * 0.28, r * 0.5, fill=col)
        d.polygon([(cx, cy - r), (cx + r * 0.55, cy - r * 0.15), (cx - r * 0.55, cy - r * 0.15)],
                  fill=col)
        d.polygon([(cx, cy - r * 0.5), (cx + r * 0.8, cy + r * 0.5),
                   (cx - r * 0.8, cy + r * 0.5)], fill=col)
    elif symbol == "ring":
        d.circle(cx, cy + r * 0.15, r * 0.68, stroke=col, width=max(1.5, r * 0.26))
        d.polygon([(cx, cy - r), (cx + r * 0.3, cy - r * 0.7), (cx, cy - r * 0.42),
                   (cx - r * 0.3, cy - r * 0.7)], fill=col)
    elif symbol == "wave":
        for dy in (-0.35, 0.35):
            d.line([(cx - r + 2 * r * i / 16,
                     cy + r * dy + r * 0.28 * math.sin(i / 16 * 2 * math.pi * 1.5))
                    for i in range(17)], stroke=col, width=max(1.5, r * 0.2))
    else:  # pragma: no cover - the eleven symbols are all above
        raise ValueError(f"no glyph for {symbol!r}")


def _face(d: Drawing, x: float, y: float, w: float, h: float, symbol: str | None, *,
          small: bool = False) -> None:
    """One side of a card: the symbol (glyph, letter, name) or a card back with "?"."""
    if symbol is None:
        d.rect(x, y, w, h, fill=BACK_FILL)
        step = 9 if not small else 6
        k = -h
        while k < w:
            a = (x + max(k, 0), y + max(0, -k))
            b = (x + min(k + h, w), y + min(h, w - k))
            if b[0] > a[0]:
                d.line([a, b], stroke=BACK_LINE, width=1.5)
            k += step
        r = max(min(w, h) * (0.3 if not small else 0.34), TEXT_MIN / 1.45)
        d.circle(x + w / 2, y + h / 2, r, fill="#ffffff")
        d.text(x + w / 2, y + h / 2 + 0.5, "?", size=r * 1.45, fill=BACK_FILL, bold=True)
        return
    d.rect(x, y, w, h, fill=FACE)
    colour = SYMBOL_COLOURS[symbol]
    d.rect(x, y, 4 if not small else 3, h, fill=colour)
    if small:                 # a trio's card: its letter (the chip names the symbol)
        d.text(x + w / 2 + 1.5, y + h / 2 + 0.5, _CODE[symbol], size=TEXT_MIN, fill=INK,
               bold=True)
        return
    _glyph(d, symbol, x + w / 2 + 5, y + 14, 9, FACE)
    d.text(x + 11, y + 11, _CODE[symbol], size=TEXT_MIN, fill=colour, bold=True)
    d.text(x + w / 2 + 2, y + h - 9, symbol, size=TEXT_MIN, fill=INK)


def _card(d: Drawing, x: float, y: float, top: str | None, bottom: str | None, *,
          key: Hashable | None, w: float = CARD_W, half: float = HALF_H,
          small: bool = False) -> None:
    d.rect(x - 1, y - 1, w + 2, 2 * half + 2, fill="#ffffff", stroke=INK, width=1.5,
           radius=6, key=key)
    _face(d, x + 1, y + 1, w - 2, half - 1.5, top, small=small)
    _face(d, x + 1, y + half + 0.5, w - 2, half - 1.5, bottom, small=small)
    d.line([(x, y + half), (x + w, y + half)], stroke=INK, width=1)


def _button(d: Drawing, x: float, y: float, w: float, h: float, label: str, *,
            active: bool, key: Hashable, size: float = 14, style: str = "primary") -> None:
    if not active:
        fill, ink = DISABLED, "#6b6455"
    elif style == "primary":
        fill, ink = PRIMARY, "#ffffff"
    elif style == "on":
        fill, ink = "#1b7f5b", "#ffffff"
    else:
        fill, ink = "#f7f3e8", INK
    d.rect(x, y, w, h, fill=fill, stroke=INK, width=1.5, radius=8, key=key)
    d.text(x + w / 2, y + h / 2, label, size=size, bold=True, fill=ink)


def _lines(d: Drawing, x: float, y: float, lines: Iterable[str], *, size: float = TEXT_MIN,
           align: Any = "left", bold: bool = False, fill: str = MUTED,
           layer: Any = "pieces") -> None:
    """Lines of text, the first one's middle at ``y``, each :data:`LINE` below the last."""
    for k, line in enumerate(lines):
        if line:
            d.text(x, y + k * LINE, line, size=size, align=align, bold=bold, fill=fill,
                   layer=layer)


# --- words --------------------------------------------------------------------------
def _who(seat: int | str | None) -> str:
    return viewer_name(seat)


def prompt(view: CardsView, selection: Any = None) -> str:
    """One line saying what happens next."""
    pick = _pick(selection)
    n = view.players
    if pick.record and view.to_move != TERMINAL:
        return "A record: step through it with ◀ ▶ (nothing can be played on it)"
    if view.to_move == TERMINAL:
        counts = view.trio_counts
        best = max(counts)
        won = [seat_name(p) for p in range(n) if counts[p] == best]
        trios = f"{best} trio{'s' * (best != 1)}"
        who = (", ".join(won[:-1]) + f" and {won[-1]} share the win" if len(won) > 1
               else f"{won[0]} wins")
        return f"Game over ({view.end_reason}): {who} with {trios}"
    if view.to_move == CHANCE:
        if view.phase == "deal":
            dealt = sum(view.hand_sizes)
            return f"Dealing: {dealt} of {2 * n} cards dealt (click Deal, or ▶)"
        if view.pending_draw:
            return f"A card turns up for {seat_name(view.turn)}'s second draw (click Turn up)"
        return "The next card turns up on the pile (click Turn up, or ▶)"
    mover = seat_name(view.to_move)
    if pick.covered:
        return f"Pass the screen to {mover}"
    if pick.odds:
        return "What can I know? Click a card to see the odds of its unseen side"
    if view.viewer == WHOLE_TABLE:
        return f"{mover} to move (what the whole table has seen)"
    if view.viewer is not None and view.viewer != view.to_move:
        return f"{mover} to move (you see the table as {seat_name(view.viewer)})"
    return f"{mover} to move: click cards to draw or discard, then the button"


def _caption(view: CardsView, pick: Pick) -> str:
    if pick.covered or view.viewer == WHOLE_TABLE:
        return "What everyone has seen"
    if view.viewer is None:
        return "Teacher's view: both sides of every card"
    return f"The table as {seat_name(view.viewer)} sees it"


def _move_text(view: CardsView, pick: Pick) -> tuple[str, str | None]:
    """The action button's label and the move it plays (``None``: nothing chosen)."""
    if pick.take:
        return "Draw " + " + ".join("pile" if r == "P" else r for r in _ordered(pick.take)), \
            "d" + "+".join(_ordered(pick.take))
    if pick.drop:
        slots = [str(i + 1) for i in pick.drop]
        return "Discard " + " then ".join(slots), "x" + "".join(slots)
    return "Choose cards first", None


def _ordered(take: tuple[str, ...]) -> list[str]:
    """Draw notation order: seats in order, the pile last."""
    return sorted(take, key=lambda r: (r == "P", r))


def odds_texts(odds: Mapping[str, Fraction]) -> dict[str, str]:
    """The panel's probabilities as people compare them: all over one short common
    denominator (``'6/22'``, ``'1/22'``), else all as decimals (never a fraction with
    seven-digit numbers).

    >>> odds_texts({"sun": Fraction(3, 11), "moon": Fraction(1, 22)})
    {'sun': '6/22', 'moon': '1/22'}
    """
    return dict(zip(odds, shared_denominator(odds.values())))


# --- the drawing -----------------------------------------------------------------------
def draw(view: CardsView, highlights: Iterable[Hashable] = (),
         selection: Any = None) -> Drawing:
    """The table as ``view``'s seat sees it (the teacher's view: everything).

    ``selection`` is a :class:`Pick`: the cards chosen so far, a covered screen
    between turns, the "what can I know?" mode and the card inspected in it.
    """
    pick = _pick(selection)
    shown = public_view(view) if pick.covered else view
    n = view.players
    d = Drawing(WIDTH, HEIGHT, background=TABLE,
                title=f"Janus (1993) card game, {n} players: {prompt(view, pick)}")
    # Static: the felt of the middle of the table and the footer.
    d.rect(8, MID_Y, WIDTH - 16, MID_H, fill=FELT, stroke="#b7c9b0", width=1.5, radius=14,
           layer="board")
    _lines(d, 14, HEIGHT - 8 - LINE, ["Each card: top half = the side its holder sees (pile, "
                                       "trios: face up) · bottom half = the side the others",
                                       "see (face down) · ? = a side not seen from here"],
           fill=MUTED, layer="board")
    d.text(14, 18, prompt(view, pick), size=16, align="left", bold=True, fill=INK)
    d.text(WIDTH - 14, 18, _caption(view, pick), size=TEXT_MIN, align="right", fill=MUTED)

    mover = view.to_move if view.to_move >= 0 else None
    for seat in range(n):
        _panel(d, shown, seat, pick, mover, covered=pick.covered)
    _pile(d, shown, pick)
    _trios(d, shown)
    if pick.covered:
        _cover(d, view)
    else:
        _buttons(d, view, pick)
        if pick.odds and pick.inspect is not None and view.viewer != WHOLE_TABLE:
            _odds_panel(d, view, pick.inspect)
    outline_regions(d, highlights)
    return d


def _panel(d: Drawing, view: CardsView, seat: int, pick: Pick, mover: int | None, *,
           covered: bool) -> None:
    n = view.players
    x, y = panel_origin(n, seat)
    style = SEAT_STYLES[seat]
    to_move = seat == mover
    you = view.viewer == seat and not covered
    d.rect(x, y, PANEL_W, PANEL_H, fill=style.light if to_move else "#fbf8f0",
           stroke=style.colour if (to_move or you) else "#b8a98a",
           width=4 if to_move else (2.5 if you else 1.5), radius=12)
    seat_marker(d, seat, x + 19, y + 17, TEXT_MIN / 1.2)
    d.seat_label(seat, x + PANEL_W - 100, y - 3)       # on the panel's top edge
    d.text(x + 36, y + 17, f"Player {seat_name(seat)}", size=TEXT_MIN, align="left",
           bold=True, fill=INK)
    # Between the name and the trio count there is room for about 130 units of tags: two
    # ("you" goes first: "you see" below says it too).
    agreed = seat in view.agreed
    tags = []
    if you and not agreed:
        tags.append("you")
    if to_move and not agreed:          # (the panel's colour says who is to move)
        tags.append("to move")
    if agreed:
        tags.append("agreed to end")
    if tags:
        d.text(x + 114, y + 17, " · ".join(tags), size=TEXT_MIN, align="left", bold=True,
               fill=style.colour if to_move else MUTED)
    count = view.trio_counts[seat]
    d.text(x + PANEL_W - 10, y + 17, f"{count} trio{'s' * (count != 1)}", size=TEXT_MIN,
           align="right", fill=INK, bold=count > 0)
    # The two rows of card halves: whose side is which.
    holder = "you" if you else seat_name(seat)
    others = "you" if (view.viewer not in (None, WHOLE_TABLE) and not you and not covered) \
        else "others"
    cy = y + 32
    # Each row's words on two lines, right beside the row ("A" / "sees", "others" / "see").
    for row, (who, bold) in enumerate(((holder, holder == "you"), (others, others == "you"))):
        verb = "sees" if who not in ("you", "others") else "see"
        _lines(d, x + LABEL_W - 6, cy + HALF_H * (row + 0.5) - LINE / 2, [who, verb],
               align="right", bold=bold)
    hand = view.hands[seat]
    chosen_take = pick.take if mover is not None else ()
    for slot in range(HAND_LIMIT):
        ref = f"{_LETTERS[seat]}{slot + 1}"
        cx, cy = card_origin(n, seat, slot)
        key = ("card", ref)
        if slot >= len(hand):
            d.rect(cx, cy, CARD_W, 2 * HALF_H, stroke="#b8a98a", width=1.5, radius=6,
                   dash=(5, 4), key=key)
            d.text(cx + CARD_W / 2, cy + HALF_H, "empty", size=TEXT_MIN, fill="#a8997a")
            continue
        card = hand[slot]
        _card(d, cx, cy, card.front, card.back, key=key)
        label, role, bold = ref, "", False
        if ref in chosen_take:
            role, bold = "draw", True
        elif seat == mover and slot in pick.drop:
            order = pick.drop.index(slot)
            role = "discard" if len(pick.drop) == 1 else ("1st" if order == 0 else "2nd, top")
            bold = True
        # A frame round a chosen card ends 4.5 px below it; its label starts 3 px lower.
        if bold and mover is not None:
            d.rect(cx - 3, cy - 3, CARD_W + 6, 2 * HALF_H + 6, stroke=SEAT_STYLES[mover].colour,
                   width=3, radius=8, dash=(7, 3))
        if pick.inspect == ref:
            d.rect(cx - 3, cy - 3, CARD_W + 6, 2 * HALF_H + 6, stroke=INK, width=3, radius=8,
                   dash=(3, 3))
        _lines(d, cx + CARD_W / 2, cy + 2 * HALF_H + LABEL_GAP, [label, role] if role
               else [label], align="center", bold=bold, fill=INK if bold else MUTED)


def _pile(d: Drawing, view: CardsView, pick: Pick) -> None:
    x0 = 18
    d.text(x0, MID_Y + 16, "Pile", size=TEXT_MIN, bold=True, align="left", fill=INK)
    up = len(view.pile)
    d.text(x0 + 40, MID_Y + 16, f"{view.pile_size} card{'s' * (view.pile_size != 1)}",
           size=TEXT_MIN, align="left", fill=MUTED)
    px, py = pile_origin()
    top = view.pile_top
    if top is None:
        d.rect(px, py, CARD_W, 2 * HALF_H, stroke="#8aa383", width=1.5, radius=6, dash=(5, 4),
               key=("pile",))
        d.text(px + CARD_W / 2, py + HALF_H, "empty", size=TEXT_MIN, fill=MUTED)
    else:
        for k in range(min(up - 1, 3), 0, -1):
            d.rect(px + 3 * k, py + 3 * k, CARD_W, 2 * HALF_H, fill="#ffffff", stroke=INK,
                   width=1, radius=6)
        _card(d, px, py, top.front, top.back, key=("pile",))
        chosen = pick.take.count("P")
        if chosen:
            d.rect(px - 4, py - 4, CARD_W + 8, 2 * HALF_H + 8,
                   stroke=SEAT_STYLES[view.to_move].colour if view.to_move >= 0 else INK,
                   width=3.5, radius=8, dash=(7, 3))
        if pick.inspect == "P1":
            d.rect(px - 4, py - 4, CARD_W + 8, 2 * HALF_H + 8, stroke=INK, width=3, radius=8,
                   dash=(3, 3))
        label = ["P1", "draw"] if chosen == 1 else (["P1, P2", "draw"] if chosen
                                                     else ["top: P1"])
        _lines(d, px + CARD_W / 2, py + 2 * HALF_H + 21, label, align="center",
               bold=bool(chosen), fill=INK if chosen else MUTED)
    d.text(px - 5, py + HALF_H / 2, "up", size=TEXT_MIN, align="right", fill=MUTED)
    d.text(px - 5, py + HALF_H * 1.5, "down", size=TEXT_MIN, align="right", fill=MUTED)
    # The cards nobody has seen: a face-down stack.
    ux, uy = _UNSEEN_X, py + 8
    if view.unturned:
        for k in range(min(view.unturned - 1, 3), 0, -1):
            d.rect(ux + 3 * k, uy + 3 * k, CARD_W - 8, 2 * HALF_H - 14, fill=BACK_FILL,
                   stroke="#ffffff", width=1, radius=5)
        d.rect(ux - 1, uy - 1, CARD_W - 6, 2 * HALF_H - 12, fill="#ffffff", stroke=INK,
               width=1.5, radius=5, key=("unseen",))
        _face(d, ux, uy, CARD_W - 8, 2 * HALF_H - 14, None, small=True)
        if pick.inspect == "next":
            d.rect(ux - 5, uy - 5, CARD_W, 2 * HALF_H - 4, stroke=INK, width=3, radius=8,
                   dash=(3, 3))
    _lines(d, ux + (CARD_W - 8) / 2, py + 2 * HALF_H + 16, [f"{view.unturned}", "unseen"],
           align="center")


#: A laid trio drawn as its three cards (each ``TRIO_CARD`` wide, halves as tall) over
#: its owner and symbol, ``TRIO_PITCH`` apart; with more trios than fit, each is one row:
#: its letter, its owner and its symbol.
TRIO_CARD, TRIO_PITCH, TRIO_ROW = 24, 104, 34


def _trios(d: Drawing, view: CardsView) -> None:
    heading = ("Trios laid (open: both sides shown)" if view.variant.trio_backs == "shown"
               else "Trios laid (symbol side up)")
    d.text(TRIO_X + 4, MID_Y + 16, heading, size=TEXT_MIN, bold=True, align="left", fill=INK)
    if not view.trios:
        _lines(d, TRIO_X + 4, MID_Y + 46, ["none yet — three cards showing one symbol to",
                                           "their holder are laid at once (JC-12)"])
        return
    per_row = int((TRIO_W - 12) // TRIO_PITCH)
    full_h = 2 * TRIO_CARD + 26
    rows = (MID_H - 34) // (full_h + 6)
    if len(view.trios) <= per_row * rows:
        for t, trio in enumerate(view.trios):
            row, col = divmod(t, per_row)
            _trio_chip(d, trio, TRIO_X + 6 + col * TRIO_PITCH, MID_Y + 32 + row * (full_h + 6))
        return
    per_row = int((TRIO_W - 12) // (TRIO_PITCH + 8))
    rows = (MID_H - 34) // TRIO_ROW
    shown = view.trios[-per_row * rows:]
    for t, trio in enumerate(shown):
        row, col = divmod(t, per_row)
        _trio_row(d, trio, TRIO_X + 6 + col * (TRIO_PITCH + 8), MID_Y + 32 + row * TRIO_ROW)


def _owner(d: Drawing, trio: LaidTrio, cx: float, cy: float) -> None:
    """The trio's owner's marker, or a grey disc with a dash: laid after its maker agreed
    to end, it counts for no one (JC-14)."""
    if trio.owner is not None:
        seat_marker(d, trio.owner, cx, cy, TEXT_MIN / 1.2)
    else:
        d.circle(cx, cy, TEXT_MIN / 1.2, fill="#d9d4c7", stroke="#888888")
        d.text(cx, cy + 0.5, "–", size=TEXT_MIN, bold=True, fill=MUTED)


def _trio_chip(d: Drawing, trio: LaidTrio, x: float, y: float) -> None:
    for j, card in enumerate(trio.cards):
        _card(d, x + j * (TRIO_CARD + 3), y, card.front, card.back, key=None, w=TRIO_CARD,
              half=TRIO_CARD, small=True)
    ly = y + 2 * TRIO_CARD + 15
    _owner(d, trio, x + 11, ly)
    d.text(x + 27, ly, plural(trio.symbol), size=TEXT_MIN, align="left",
           fill=INK if trio.owner is not None else MUTED)


def _trio_row(d: Drawing, trio: LaidTrio, x: float, y: float) -> None:
    d.rect(x - 1, y - 1, TRIO_CARD + 2, TRIO_CARD + 2, fill="#ffffff", stroke=INK, width=1.5,
           radius=5)
    _face(d, x + 1, y + 1, TRIO_CARD - 2, TRIO_CARD - 2, trio.cards[0].front, small=True)
    _owner(d, trio, x + TRIO_CARD + 17, y + TRIO_CARD / 2)
    d.text(x + TRIO_CARD + 33, y + TRIO_CARD / 2, plural(trio.symbol), size=TEXT_MIN,
           align="left", fill=INK if trio.owner is not None else MUTED)


def _buttons(d: Drawing, view: CardsView, pick: Pick) -> None:
    x, w = BUTTON_X, BUTTON_W
    if pick.record:
        d.text(x, MID_Y + 30, "A record, not a game in play:", size=13, align="left",
               fill=INK, bold=True)
        d.text(x, MID_Y + 50, "step through it with ◀ ▶; to go on playing,", size=11,
               align="left", fill=MUTED)
        d.text(x, MID_Y + 66, "load the full record (the teacher's).", size=11,
               align="left", fill=MUTED)
        _odds_button(d, view, pick, MID_Y + 150)
        return
    if view.to_move == CHANCE:
        label = "Deal a card" if view.phase == "deal" else "Turn up the next card"
        _button(d, x, MID_Y + 14, w, 44, label, active=True, key=("button", "deal"),
                size=16)
        _lines(d, x, MID_Y + 76, ["Chance deals and turns up the", "cards (JC-4): each unseen "
                                  "card is", "equally likely, either way up."])
        _odds_button(d, view, pick, ODDS_Y)
        return
    if view.to_move == TERMINAL:
        d.text(x, MID_Y + 30, "The game is over (JC-20).", size=TEXT_MIN, align="left",
               fill=INK, bold=True)
        # Words true on every page (a seat's page has no Game & variant tab).
        _lines(d, x, MID_Y + 56, ["Step back with ◀ to look at any", "earlier moment of "
                                  "the game."])
        _odds_button(d, view, pick, ODDS_Y)
        return
    mine = view.viewer is None or view.viewer == view.to_move
    label, move = _move_text(view, pick)
    _button(d, x, MID_Y + 14, w, 44, label, active=mine and move is not None,
            key=("button", "play"), size=16)
    agreed = view.to_move in view.agreed
    _button(d, x, MID_Y + 66, (w - 8) / 2, 34, "Agreed already" if agreed else "Agree to end",
            active=mine and not agreed, key=("button", "agree"), size=TEXT_MIN, style="plain")
    _button(d, x + (w + 8) / 2, MID_Y + 66, (w - 8) / 2, 34, "Clear choice",
            active=bool(pick.take or pick.drop), key=("button", "clear"), size=TEXT_MIN,
            style="plain")
    if pick.take:
        hint = ["The side you see goes into", "your hand (JC-9)."]
    elif pick.drop:
        hint = ["Your side goes face up on the", "pile (JC-11)."]
    elif mine:
        hint = ["Others' cards or the pile: draw;", "yours: discard."]
    else:
        hint = [f"Only {seat_name(view.to_move)} may act now (JC-19)."]
    _lines(d, x, MID_Y + 120, hint)
    _odds_button(d, view, pick, ODDS_Y)


def _odds_button(d: Drawing, view: CardsView, pick: Pick, y: float) -> None:
    if view.viewer == WHOLE_TABLE:        # odds belong to a seat: the table has none
        return
    label = "What can I know?  ON" if pick.odds else "What can I know?  off"
    _button(d, BUTTON_X, y, BUTTON_W, 36, label, active=True, key=("button", "odds"),
            size=TEXT_MIN, style="on" if pick.odds else "plain")


def _cover(d: Drawing, view: CardsView) -> None:
    """The hot-seat screen between turns: nothing private is drawn under it."""
    x, w = BUTTON_X, BUTTON_W
    d.rect(x - 6, MID_Y + 6, w + 12, MID_H - 12, fill=BACK_FILL, stroke=INK, width=2,
           radius=12)
    if view.to_move >= 0:
        who = seat_name(view.to_move)
        d.text(x + w / 2, MID_Y + 32, f"Pass the screen to {who}", size=20, bold=True,
               fill="#ffffff")
        _lines(d, x + w / 2, MID_Y + 62, ["Everyone sees only what the", "whole table has "
                                          "seen. When", f"only {who} looks:"], align="center",
               fill="#dfe6f7")
        _button(d, x + 24, MID_Y + 158, w - 48, 44, f"{who}: show my cards", active=True,
                key=("cover",), size=15, style="on")
        return
    if view.to_move == CHANCE:
        label = "Deal a card" if view.phase == "deal" else "Turn up the next card"
        d.text(x + w / 2, MID_Y + 32, "Chance is dealing", size=20, bold=True,
               fill="#ffffff")
        _lines(d, x + w / 2, MID_Y + 62, ["Each player looks at their", "cards when the "
                                          "screen is", "passed to them."], align="center",
               fill="#dfe6f7")
        _button(d, x + 24, MID_Y + 158, w - 48, 44, label, active=True,
                key=("button", "deal"), size=15)
        return
    d.text(x + w / 2, MID_Y + 32, "Game over", size=20, bold=True, fill="#ffffff")
    _lines(d, x + w / 2, MID_Y + 62, ["Turn every card over to see", "what everyone held."],
           align="center", fill="#dfe6f7")
    _button(d, x + 24, MID_Y + 158, w - 48, 44, "Show every card", active=True,
            key=("cover",), size=15, style="on")


# --- the "what can I know?" panel -------------------------------------------------------
def _odds_for(view: CardsView, ref: str) -> tuple[str, dict[str, Fraction], str | None]:
    """(title, odds, what is seen) for the inspected card or ``"next"``."""
    who = viewer_name(view.viewer)
    if ref == "next":
        return (f"The next card to turn up: its face-up side, for {who}",
                view.unturned_odds(), None)
    card = view.card(ref)
    facing = view.facing(ref)
    hidden = BACK if facing == FRONT else FRONT
    if card.side(hidden) is not None and card.side(facing) is None:
        hidden, facing = facing, hidden
    seen = card.side(facing)
    letter = ref[0]
    if letter == "P":
        where = "its face-down side"
    elif letter == "T":
        where = "its other side"
    else:
        holder = seat_name(_LETTERS.index(letter))
        if hidden == FRONT:
            where = "the side facing " + ("you" if view.viewer == _LETTERS.index(letter)
                                          else holder)
        else:
            where = "the side the others see"
    return f"{ref}: {where} (for {who})", view.other_side_odds(ref), seen


def _odds_panel(d: Drawing, view: CardsView, ref: str) -> None:
    try:
        title, odds, seen = _odds_for(view, ref)
    except KeyError:
        return
    x, y, w, h = TRIO_X, MID_Y + 4, TRIO_W, MID_H - 8
    d.rect(x, y, w, h, fill="#ffffff", stroke=INK, width=2, radius=10)
    d.text(x + 12, y + 16, title, size=TEXT_MIN, bold=True, align="left", fill=INK)
    if not odds:
        d.text(x + 12, y + 42, "No card is left that nobody has seen.", size=TEXT_MIN,
               align="left", fill=INK)
        return
    if len(odds) == 1 and next(iter(odds.values())) == 1:
        symbol = next(iter(odds))
        d.text(x + 12, y + 42, "Known: " + (f"{seen} / {symbol}" if seen else symbol)
               + " (probability 1)", size=TEXT_MIN, align="left", fill=INK)
        d.text(x + 12, y + 62, "This side has been seen from here.", size=TEXT_MIN,
               align="left", fill=MUTED)
        return
    items = sorted(odds.items(), key=lambda kv: SYMBOL_NAMES.index(kv[0]))
    cols = 1 if len(items) <= 6 else 2
    per_col = (len(items) + cols - 1) // cols
    row_h = min(24.0, (h - 36 - 2 * LINE - 8) / per_col)
    col_w = (w - 24) / cols
    best = max(odds.values())
    texts = odds_texts(odds)
    longest = max(len(t) for t in texts.values())
    size = TEXT_MIN
    text_w = longest * size * 0.62
    for i, (symbol, p) in enumerate(items):
        c, r = divmod(i, per_col)
        rx, ry = x + 12 + c * col_w, y + 34 + r * row_h
        _glyph(d, symbol, rx + 8, ry + row_h / 2, min(8.0, row_h * 0.38), "#ffffff")
        d.text(rx + 20, ry + row_h / 2, f"{_CODE[symbol]} {symbol}", size=TEXT_MIN,
               align="left", fill=INK)
        bar_x = rx + 88
        bar_w = col_w - 88 - text_w - 16
        if bar_w >= 30:
            d.rect(bar_x, ry + 4, bar_w, row_h - 8, fill="#eeeeee")
            d.rect(bar_x, ry + 4, max(1.0, bar_w * float(p / best)), row_h - 8,
                   fill=SYMBOL_COLOURS[symbol])
        else:  # no room for a bar: the fraction's size in per cent
            d.text(bar_x - 6, ry + row_h / 2, f"{float(p):.1%}", size=TEXT_MIN, align="left",
                   fill=MUTED)
        d.text(rx + col_w - 8, ry + row_h / 2, texts[symbol], size=size, bold=True,
               align="right", fill=INK)
    _lines(d, x + 12, y + h - 14 - LINE, ["Exact: every way the unseen cards could lie "
                                          "that fits", "what was seen; a double counts "
                                          "twice."])


# --- clicks ------------------------------------------------------------------------------
def click(view: CardsView, selection: Any, key: Hashable) -> Click:
    """What a click on ``key`` means: choose cards, play, agree, deal, uncover, or
    (in the "what can I know?" mode) inspect a card."""
    pick = _pick(selection)
    if key is None:
        return Click(selection=replace(pick, inspect=None))
    if pick.covered:
        if key == ("cover",):
            return Click(selection=replace(pick, covered=False, shown=view.viewer))
        if key == ("button", "deal"):
            return Click(selection=pick, step=True)
        who = seat_name(view.to_move) if view.to_move >= 0 else None
        return Click(selection=pick, message=(
            f"The screen waits for {who}: {who} clicks \"show my cards\"." if who else
            "Chance acts next: click Deal or press ▶."))
    kind = key[0]
    if key == ("button", "odds") and view.viewer != WHOLE_TABLE:
        return Click(selection=replace(pick, odds=not pick.odds, inspect=None))
    if key == ("button", "deal"):
        return Click(selection=pick, step=True)
    if pick.odds and view.viewer != WHOLE_TABLE and kind in ("card", "pile", "unseen"):
        ref = {"pile": "P1", "unseen": "next"}.get(kind) or key[1]
        if ref not in ("P1", "next") and int(ref[1]) > view.hand_sizes[_LETTERS.index(ref[0])]:
            return Click(selection=replace(pick, inspect=None),
                         message=f"{ref} is an empty place: no card to ask about.")
        return Click(selection=replace(pick, inspect=None if pick.inspect == ref else ref))
    if key == ("button", "clear"):
        return Click(selection=pick.cleared())
    if view.to_move == TERMINAL:
        return Click(selection=pick, message="JC-20: the game is over; no move can be made.")
    if view.to_move == CHANCE:
        return Click(selection=pick, message="JC-19: chance acts now (a card is dealt or "
                                             "turns up): click Deal or press ▶.")
    mover = view.to_move
    if view.viewer == WHOLE_TABLE:
        return Click(selection=pick, message=(
            f"JC-19: it is {seat_name(mover)}'s turn; this is what the whole table has "
            f"seen, not {seat_name(mover)}'s own view."))
    if view.viewer is not None and view.viewer != mover:
        return Click(selection=pick, message=(
            f"JC-19: it is {seat_name(mover)}'s turn, not {seat_name(view.viewer)}'s: "
            f"wait for {seat_name(mover)} to play."))
    if key == ("button", "agree"):
        return Click(selection=pick, move="agree")
    if kind == "card" and int(key[1][1:]) > view.hand_sizes[_LETTERS.index(key[1][0])]:
        return Click(selection=pick, message=f"{key[1]} is an empty place: there is no "
                                             "card there to choose.")
    if key == ("button", "play"):
        _, move = _move_text(view, pick)
        if move is None:
            return Click(selection=pick, message="JC-7: choose one or two cards first: "
                                                 "others' cards or the pile to draw, your "
                                                 "own to discard.")
        return Click(selection=pick, move=move)
    if kind == "pile" or (kind == "card" and _LETTERS.index(key[1][0]) != mover):
        ref = "P" if kind == "pile" else key[1]
        twice = (ref == "P" and tuple(pick.take) == ("P",) and view.variant.two_from_pile
                 and view.pile_size >= 2)
        take = _toggled(pick.take, ref, twice)
        if take is None:
            return Click(selection=pick, message="JC-8: draw one or two cards; click a "
                                                 "chosen card again to put it back.")
        return Click(selection=replace(pick, take=take, drop=(), inspect=None))
    if kind == "card":
        drop = _toggled(pick.drop, int(key[1][1]) - 1)
        if drop is None:
            return Click(selection=pick, message="JC-11: discard one or two cards; click a "
                                                 "chosen card again to put it back.")
        return Click(selection=replace(pick, drop=drop, take=(), inspect=None))
    return Click(selection=pick)


def _toggled(chosen: tuple, item: Any, twice: bool = False) -> tuple | None:
    """``chosen`` with ``item`` put back if it is chosen (unless it may be chosen
    ``twice``), else added; ``None`` if two cards are chosen already (JC-8, JC-11)."""
    if item in chosen and not twice:
        return tuple(c for c in chosen if c != item)
    if len(chosen) >= 2:
        return None
    return (*chosen, item)


def highlight(view: CardsView, move: Any) -> tuple[Hashable, ...]:
    """The region keys a legal move touches (for the options list)."""
    text = str(move)
    if getattr(move, "chance", False) or text.startswith("="):
        return (("button", "deal"),)
    if text == "agree":
        return (("button", "agree"),)
    if text.startswith("d"):
        keys: list[Hashable] = []
        for part in text[1:].split("+"):
            key: Hashable = ("pile",) if part.upper() == "P" else ("card", part.upper())
            if key not in keys:
                keys.append(key)
        return tuple(keys) + (("button", "play"),)
    if text.startswith("x") and view.to_move >= 0:
        letter = _LETTERS[view.to_move]
        return tuple(("card", f"{letter}{c}") for c in text[1:]) + (("button", "play"),)
    return ()

"""Jactus drawn: five dice with pips, the throw button, the supply and every seat.

Pure functions from a state to a :class:`~janus_widgets.drawing.Drawing`;
the widget shell paints them and sends clicks back as region keys:
``("die", i)`` (the i-th die from the left), ``("button", "throw")``,
``("button", "pass")``, ``("supply", kind)`` and ``("held", seat, kind)``.

>>> from janus_widgets import games
>>> state = games.get("jactus").new(seed=1).play("r*").play("=22346")
>>> d = draw(state, selection=frozenset({2, 3, 4}))   # lift the 3, 4 and 6
>>> d.width, d.height
(760, 432)
>>> "36/7776" in d.texts()   # keep the two 2s: five 2s (a dog), 1/216, over the panel's 7776
True
>>> click(state, frozenset({2, 3, 4}), ("button", "throw")).move
'r346'
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from ...core.numbers import shared_denominator
from ...core.protocol import seat_name
from ...drawing import SEAT_STYLES, Click, Drawing, outline_regions, seat_marker
from .odds import claim_advice, claim_odds
from .rules import (CLAIM, COIN, DOG, KIND_NAMES, MULTISETS, OPEN, OVER, PASS, PICK, ROLL_ALL,
                    THROW, VENUS, CLAIM_BASE, N_MS, JactusState)

__all__ = ["draw", "click", "highlight", "WIDTH", "HEIGHT", "TEXT_MIN"]

WIDTH, HEIGHT = 760, 432
#: The smallest text drawn (drawing units): 10 px on screen at 1366×768 and 14 px there in
#: big mode, where the canvas is the output area's 934 px (docs/adding-a-game.md).
TEXT_MIN = 12
DIE = 64
DICE_X, DICE_Y, DICE_GAP = 40, 78, 84
PIPS = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
        4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
        6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
# Each kind of piece: its colour, its letter and its shape (card or coin).
PIECES = {VENUS: ("#e377c2", "V", "card"), DOG: ("#a0522d", "D", "card"),
          COIN: ("#d4a017", "C", "coin")}
INK = "#222222"
TABLE = "#f4efe1"


def die_origin(i: int) -> tuple[float, float]:
    """Top-left corner of the i-th die slot."""
    return DICE_X + i * DICE_GAP, DICE_Y


def _die(d: Drawing, x: float, y: float, value: int | None, *, lifted: bool, seat: int,
         key: Hashable) -> None:
    if value is None:  # a die in the air
        d.rect(x, y, DIE, DIE, fill="#ffffff", stroke="#999999", width=2, radius=10,
               dash=(6, 5), key=key)
        d.text(x + DIE / 2, y + DIE / 2, "?", size=30, fill="#999999", bold=True)
        return
    dy = -12 if lifted else 0
    face = "#fff7d6" if lifted else "#ffffff"
    d.rect(x, y + dy, DIE, DIE, fill=face, stroke=SEAT_STYLES[seat].colour if lifted else INK,
           width=4 if lifted else 2, radius=10, key=key)
    step = DIE * 0.27
    for px, py in PIPS[value]:
        d.circle(x + DIE / 2 + px * step, y + dy + DIE / 2 + py * step, 6.5, fill=INK)
    if lifted:
        d.text(x + DIE / 2, y + DIE + 2, "pick up", size=12, fill=INK, baseline="top")


def _piece(d: Drawing, kind: int, x: float, y: float, *, count: int, key: Hashable,
           scale: float = 1.0) -> None:
    colour, letter, shape = PIECES[kind]
    if shape == "card":
        w, h = 34 * scale, 48 * scale
        d.rect(x, y, w, h, fill=colour, stroke=INK, width=1.5, radius=5, key=key)
        d.rect(x + 4 * scale, y + 4 * scale, w - 8 * scale, h - 8 * scale, stroke="#ffffff",
               width=1, radius=3)
        d.text(x + w / 2, y + h / 2, letter, size=20 * scale, fill="#ffffff", bold=True)
    else:
        r = 20 * scale
        d.circle(x + r, y + 24 * scale, r, fill=colour, stroke=INK, width=1.5, key=key)
        d.circle(x + r, y + 24 * scale, r - 4 * scale, stroke="#ffffff", width=1)
        d.text(x + r, y + 24 * scale, letter, size=18 * scale, fill=INK, bold=True)
        w = 2 * r
    d.text(x + w + 3, y + 24 * scale, f"×{count}", size=max(TEXT_MIN, 14 * scale), align="left",
           fill=INK if count else "#999999")


def prompt(state: JactusState) -> str:
    """One line saying what happens next."""
    phase, seat = state.raw[0], state.raw[1]
    name = seat_name(seat)
    if phase == OPEN:
        return f"{name}: throw all five dice to open the round"
    if phase == THROW:
        return f"{name} is throwing {5 - len(state.dice)} dice…"
    if phase == PICK:
        return f"{name}: click the dice to pick up, then Throw"
    if phase == CLAIM:
        return f"{name} threw five {state.claim_face}s: click a piece to claim it, or Pass"
    return f"Game over: {state.outcome()}"


def draw(state: JactusState, highlights: Iterable[Hashable] = (),
         selection: Any = None) -> Drawing:
    """The picture of a Jactus state; ``selection`` is the set of dice chosen for pick-up."""
    chosen = frozenset(selection or ())
    phase, seat, dice = state.raw[0], state.raw[1], state.dice
    n = state.num_players
    d = Drawing(WIDTH, HEIGHT, background=TABLE,
                title=f"Jactus, {n} players: {prompt(state)}")

    # Static board: the dice tray, the supply tray, the odds panel.
    d.rect(20, 40, 450, 192, fill="#e8dfc8", stroke="#b8a98a", width=2, radius=14,
           layer="board")
    d.text(32, 52, "Dice", size=13, align="left", fill="#6b5b3e", layer="board")
    d.rect(486, 40, 254, 94, fill="#e8dfc8", stroke="#b8a98a", width=2, radius=14,
           layer="board")
    d.text(496, 51, "Supply", size=12, align="left", fill="#6b5b3e", layer="board")
    d.rect(486, 140, 254, 92, fill="#fbf8f0", stroke="#b8a98a", width=1.5, radius=10,
           layer="board")

    d.text(20, 20, prompt(state), size=17, align="left", bold=True, fill=INK)

    # Dice: the ones on the table, and during a throw the ones in the air.
    if phase == THROW:
        values: list[int | None] = list(dice) + [None] * (5 - len(dice))
    elif dice:
        values = list(dice)
    else:
        values = [None] * 5
    for i, value in enumerate(values):
        x, y = die_origin(i)
        lifted = phase == PICK and i in chosen
        _die(d, x, y, value, lifted=lifted, seat=seat, key=("die", i))

    # Buttons.
    if phase in (OPEN, PICK):
        if phase == OPEN:
            label, active = "Throw all five", True
        else:
            label = (f"Throw {len(chosen)} {'die' if len(chosen) == 1 else 'dice'}"
                     if chosen else "Choose dice to throw")
            active = bool(chosen)
        _button(d, 40, 176, 220, 38, label, active=active, key=("button", "throw"))
    if phase == CLAIM:
        _button(d, 40, 176, 140, 38, "Pass", active=True, key=("button", "pass"))

    # Supply.
    sx = 500
    for kind in (VENUS, DOG, COIN):
        _piece(d, kind, sx, 64, count=state.supply[kind], key=("supply", kind), scale=0.8)
        d.text(sx + 14, 122, KIND_NAMES[kind], size=TEXT_MIN, fill="#6b5b3e")
        sx += 80

    _odds_panel(d, state, chosen)

    # Seats.
    width = (WIDTH - 40) / n
    for p in range(n):
        x0 = 20 + p * width
        to_move = state.current_player == p or (phase == THROW and p == seat)
        winner = phase == OVER and p == seat
        style = SEAT_STYLES[p]
        lit = to_move or winner
        d.rect(x0 + 4, 244, width - 8, 176, fill=style.light if lit else "#fbf8f0",
               stroke=style.colour if lit else "#b8a98a", width=4 if lit else 1.5, radius=12)
        seat_marker(d, p, x0 + 26, 268, 14)
        d.seat_label(p, x0 + width - 48, 244)          # on the panel's top edge
        d.text(x0 + 48, 268, f"Player {seat_name(p)}" if n <= 4 else seat_name(p), size=15,
               align="left", bold=True)
        label = "wins!" if winner else ("to move" if to_move else "")
        if label:
            d.text(x0 + 48, 288, label, size=12, align="left", fill=style.colour, bold=True)
        held = state.holdings[p]
        if n <= 4:
            # Three pieces and their counts ("×0", about 52 wide each) inside the panel.
            step = min(56.0, (width - 84) / 2)
            places = [(x0 + 12 + step * k, 304) for k in range(3)]
            scale = 0.8
        else:
            places = [(x0 + 12, 300), (x0 + 12 + 56, 300), (x0 + 12, 350)]
            scale = 0.7
        for kind, (px, py) in zip((VENUS, DOG, COIN), places):
            _piece(d, kind, px, py, count=held[kind], key=("held", p, kind), scale=scale)
        score = state.scores()[p]
        d.text(x0 + width - 14, 406, f"score {score:g}", size=13, align="right", fill=INK)

    outline_regions(d, highlights)
    return d


def _odds_panel(d: Drawing, state: JactusState, chosen: frozenset[int]) -> None:
    """Exact chances beside the dice: of the throw being chosen, and of the best pick-up."""
    phase, dice = state.raw[0], state.dice
    x, y = 496, 152
    # The title has a line of its own, so no font makes it run into the column heads.
    d.text(x, y, "Chance to claim", size=12, align="left", bold=True, fill=INK)
    d.text(x + 104, y + 15, "this throw", size=TEXT_MIN, align="right", fill="#6b5b3e")
    d.text(x + 236, y + 15, "best pick-up", size=TEXT_MIN, align="right", fill="#6b5b3e")
    this: dict[str, Any] | None = None
    best: dict[str, Any] | None = None
    if phase == OPEN:
        this = claim_odds((), state.variant)
    elif phase == PICK:
        if chosen:
            kept = tuple(v for i, v in enumerate(dice) if i not in chosen)
            this = claim_odds(kept, state.variant)
        best = claim_advice(dice, state.variant)
    rows = (("venus", "Venus"), ("dog", "dog"), ("coin", "coin"))
    # Every chance in the panel over one denominator, so they compare at a glance.
    shown = [this[kind] for kind, _ in rows] if this else []
    shown += [best[kind].chance for kind, _ in rows] if best is not None else []
    texts = iter(shared_denominator(shown))
    column = {"this": [next(texts) for _ in rows] if this else None,
              "best": [next(texts) for _ in rows] if best is not None else None}
    for k, (kind, title) in enumerate(rows):
        ry = y + 32 + 16 * k
        d.text(x, ry, title, size=12, align="left", fill=INK)
        d.text(x + 104, ry, column["this"][k] if this else "–", size=12,
               align="right", fill=INK, bold=bool(this and this[kind]))
        text = "–"
        if best is not None:
            advice = best[kind]
            if advice.pickups and advice.chance:
                text = f"{advice.pickups[0].notation} {column['best'][k]}"
        d.text(x + 236, ry, text, size=12, align="right", fill=INK)


def _button(d: Drawing, x: float, y: float, w: float, h: float, label: str, *, active: bool,
            key: Hashable) -> None:
    d.rect(x, y, w, h, fill="#2f5d8a" if active else "#c9c2b0", stroke=INK, width=1.5,
           radius=8, key=key)
    d.text(x + w / 2, y + h / 2, label, size=15, bold=True,
           fill="#ffffff" if active else "#6b6455")


def click(state: JactusState, selection: Any, key: Hashable) -> Click:
    """What a click on ``key`` means: choose dice, throw, claim or pass."""
    chosen = frozenset(selection or ())
    phase, dice = state.raw[0], state.dice
    if key is None:
        return Click(selection=chosen)
    kind = key[0]
    if phase == PICK:
        if kind == "die":
            i = key[1]
            return Click(selection=chosen ^ {i})
        if key == ("button", "throw"):
            if not chosen:
                return Click(selection=chosen, message="JA-6: choose at least one die to "
                                                       "pick up first (click the dice).")
            return Click(selection=frozenset(),
                         move="r" + "".join(str(dice[i]) for i in sorted(chosen)))
    if phase == OPEN and (kind == "die" or key == ("button", "throw")):
        return Click(move="r*")
    if kind == "supply":
        return Click(selection=chosen, move=KIND_NAMES[key[1]])
    if kind == "held":
        return Click(selection=chosen, move=f"{KIND_NAMES[key[2]]}@{seat_name(key[1])}")
    if key == ("button", "pass"):
        return Click(move="pass")
    if kind == "die" and dice and key[1] < len(dice):
        return Click(selection=chosen, move=f"r{dice[key[1]]}")
    if phase == THROW:
        return Click(selection=chosen, message="JA-7: the dice are rolling; chance decides.")
    return Click(selection=chosen, move="r*")


def highlight(state: JactusState, move: Any) -> tuple[Hashable, ...]:
    """The region keys a legal move touches (for the options list)."""
    action = move.action
    dice = state.dice
    if 0 <= action < N_MS:
        keys = []
        used: set[int] = set()
        for value in MULTISETS[action]:
            for i, v in enumerate(dice):
                if v == value and i not in used:
                    used.add(i)
                    keys.append(("die", i))
                    break
        return tuple(keys) + (("button", "throw"),)
    if action == ROLL_ALL:
        return tuple(("die", i) for i in range(5)) + (("button", "throw"),)
    if action == PASS:
        return (("button", "pass"),)
    if CLAIM_BASE <= action < PASS:
        kind, source = divmod(action - CLAIM_BASE, 7)
        return (("supply", kind),) if source == 0 else (("held", source - 1, kind),)
    return ()


def selection_for(state: JactusState, move: Any) -> frozenset[int]:
    """The dice a pick-up move lifts (so choosing it in the list also lifts them)."""
    return frozenset(k[1] for k in highlight(state, move) if k[0] == "die"
                     and state.raw[0] == PICK)

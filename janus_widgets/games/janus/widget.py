"""The Janus widget: the shared shell with the Janus canvas and a census of the tiles.

Under the board the shell shows, for this game, how many tiles are left of each
colour and each distance and how many Janus heads are still lying: the numbers
a player weighs when choosing where to go (they change with every move).

>>> w = janus_widget(seed=3, bot_delay=0)
>>> w.state.phase                      # the empty board: chance lays the tiles first
'shuffle'
>>> w.click_key(("button", "lay"))     # "Lay the tiles" on the canvas
>>> w.state.phase, w.state.tiles_left
('move', 100)
>>> "heads 8" in census_html(w.state)
True
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import ipywidgets as W

from ...widgets.shell import GameWidget
from .components import COLOURS, COLOUR_LETTERS
from .draw import TILE_FILL, TILE_INK

__all__ = ["janus_widget", "census_html", "extras", "refresh"]


def janus_widget(variant: Any = None, **kwargs: Any) -> GameWidget:
    """A Janus :class:`GameWidget` (keyword arguments as for GameWidget)."""
    return GameWidget("janus", variant, **kwargs)


def census_html(state: Any) -> str:
    """Tiles left by colour and by distance, and heads still on the board, as HTML."""
    tiles = [t for t in state.tiles if t is not None]
    if not tiles:
        return ("<span style='color:#7a6a50'>Tiles on the board: none"
                + (" yet (lay the tiles)" if state.phase == "shuffle" else "") + ".</span>")
    colours = Counter(t.colour for t in tiles)
    distances = Counter(t.distance for t in tiles)
    heads = sum(t.head for t in tiles)
    chips = "".join(
        f"<span style='background:{TILE_FILL[c]};color:{TILE_INK[c]};border-radius:4px;"
        f"padding:0 5px;margin-right:3px;font-weight:bold'>{COLOUR_LETTERS[i]} "
        f"{colours[c]}</span>" for i, c in enumerate(COLOURS))
    by_distance = " · ".join(f"{d}: {distances[d]}" for d in sorted(distances))
    return (f"<div style='font-family:sans-serif;font-size:13px'><b>Tiles left "
            f"{len(tiles)}</b> — by colour {chips} — by distance {by_distance} — Janus "
            f"heads {heads}</div>")


def extras(shell: GameWidget) -> list[W.Widget]:
    """The shell hook: the census line under the board."""
    census = W.HTML(value=census_html(shell.view))
    census.add_class("janus-census")
    return [census]


def refresh(shell: GameWidget) -> None:
    """The shell hook, after every change: bring the census up to date."""
    for child in shell.extras.children:
        if "janus-census" in child._dom_classes:
            child.value = census_html(shell.view)   # a seat's record too

"""The Jinns of the Lake widget: the shared shell with the Jinns canvas.

Everything is played on the canvas (the tray during placement, piles and landing cells,
Pass, the halves and the pile of three). The one control of its own is *Deal the rest*,
shown while the pawns are placed at random (option ``placement="random"``): it lets
chance place every remaining pawn at once instead of stepping 32 times.

>>> w = jinns_widget(seed=1, bot_delay=0)
>>> w.play("Y3").piles[0]
(Pawn(colour='Y', strength=3),)
>>> w.set_variant(placement="random").phase
'deal'
>>> deal_rest(w).phase
'play'
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from ...widgets.shell import GameWidget

__all__ = ["jinns_widget", "deal_rest", "extras", "refresh"]

DEAL_CLASS = "jinns-deal"


def jinns_widget(variant: Any = None, **kwargs: Any) -> GameWidget:
    """A Jinns of the Lake :class:`GameWidget` (keyword arguments as for GameWidget)."""
    return GameWidget("jinns", variant, **kwargs)


def deal_rest(shell: GameWidget) -> Any:
    """Let chance place every pawn still to be placed (random placement, JI-6).

    Only at the end of the line (replaying an old game never changes it); the draws come
    from the game's seed, so the same seed deals the same ring.
    """
    if not (shell.replay.at_end and shell.state.is_chance) or shell.seat_mode:
        return shell.state
    shell.resolve_chance()                  # a bot on seat A answers at once
    shell.say("Chance placed the pawns; A moves first (JI-7).")
    return shell.state


def extras(shell: GameWidget) -> list[W.Widget]:
    """The controls the Jinns widget adds under the board."""
    button = W.Button(description="Deal the rest at random", icon="random",
                      tooltip="Random placement (JI-6): let chance place every pawn left",
                      layout=W.Layout(width="auto", display="none"))
    button.add_class(DEAL_CLASS)
    button.on_click(shell.guard(lambda _: deal_rest(shell)))
    return [button]


def refresh(shell: GameWidget) -> None:
    """Show *Deal the rest* only while chance is placing the pawns at the end of the line."""
    for child in shell.extras.children:
        if DEAL_CLASS in child._dom_classes:
            show = shell.replay.at_end and shell.state.is_chance and not shell.seat_mode
            child.layout.display = "" if show else "none"

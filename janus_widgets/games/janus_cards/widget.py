"""The Janus card game widget: the shared shell with the card table canvas.

Everything is played on the canvas: click cards to draw or discard, the button to play,
*Agree to end*, *What can I know?* (then click a card for the exact odds of its unseen
side), *Deal a card*, and between turns of a hot-seat game the cover the next player
lifts. The one control of its own is *Deal all the cards*, shown while chance deals at
the end of the line: it deals every card still to be dealt, and turns up the pile's
first card, in one go.

>>> w = janus_cards_widget(players=3, seed=1, bot_delay=0)
>>> w.state.phase, w.viewpoint
('deal', 'current')
>>> deal_all(w).phase
'play'
>>> w.drawing.find(("cover",)) is not None        # the screen waits for A
True
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from ...widgets.shell import GameWidget

__all__ = ["janus_cards_widget", "deal_all", "extras", "refresh"]

DEAL_CLASS = "janus-cards-deal"


def janus_cards_widget(variant: Any = None, **kwargs: Any) -> GameWidget:
    """A Janus card game :class:`GameWidget` (keyword arguments as for GameWidget)."""
    return GameWidget("janus-cards", variant, **kwargs)


def deal_all(shell: GameWidget) -> Any:
    """Let chance deal every card still to be dealt and turn up the pile's first card
    (JC-4, JC-5, JC-6), at the end of the line only: replaying a recorded game never
    changes it. The cards come from the game's seed, so the same seed deals the same."""
    if not (shell.replay.at_end and shell.state.is_chance) or shell.seat_mode:
        return shell.state
    shell.resolve_chance()                  # then a bot on seat A answers at once
    shell.say("The cards are dealt and the pile's top card is turned up (JC-5, JC-6).")
    return shell.state


def extras(shell: GameWidget) -> list[W.Widget]:
    """The controls the card game adds under the table."""
    button = W.Button(description="Deal all the cards", icon="random",
                      tooltip="Let chance deal every card still to deal and turn up the "
                              "pile's first card (JC-4 … JC-6)",
                      layout=W.Layout(width="auto", display="none"))
    button.add_class(DEAL_CLASS)
    button.on_click(shell.guard(lambda _: deal_all(shell)))
    return [button]


def refresh(shell: GameWidget) -> None:
    """Show *Deal all the cards* only while chance deals at the end of the line."""
    show = shell.replay.at_end and shell.state.is_chance and not shell.seat_mode
    for child in shell.extras.children:
        if DEAL_CLASS in child._dom_classes:
            child.layout.display = "" if show else "none"

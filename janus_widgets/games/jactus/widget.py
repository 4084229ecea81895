"""The Jactus widget: the shared shell with the Jactus canvas.

>>> w = jactus_widget(players=3, seed=1, bot_delay=0)
>>> w.play("r*").dice != ()
True
"""

from __future__ import annotations

from typing import Any

from ...widgets.shell import GameWidget

__all__ = ["jactus_widget"]


def jactus_widget(variant: Any = None, **kwargs: Any) -> GameWidget:
    """A Jactus :class:`GameWidget` (keyword arguments as for GameWidget)."""
    return GameWidget("jactus", variant, **kwargs)

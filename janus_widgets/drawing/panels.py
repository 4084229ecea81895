"""A game's screen beyond its picture, as data: panels of text under the board and the
game's own buttons. A game's ``draw.py`` makes them (``panels(view)``, ``DEAL_ACTION``);
the screen model (:mod:`janus_widgets.table.screen`) carries them to every painter, the
notebook widget and the web seat page alike. Plain text only: painters escape it.

>>> p = Panel("census", "Tiles", lines=("Tiles left 100",))
>>> p.to_json()["lines"]
['Tiles left 100']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Panel", "Action"]


@dataclass(frozen=True)
class Panel:
    """A panel of the game's own under the board: an ``id`` (its CSS class), a title,
    lines of text, and an optional table (``head``, ``rows``)."""

    id: str
    title: str
    lines: tuple[str, ...] = ()
    head: tuple[str, ...] = ()
    rows: tuple[tuple[str, ...], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The panel as JSON data."""
        return {"id": self.id, "title": self.title, "lines": list(self.lines),
                "head": list(self.head), "rows": [list(r) for r in self.rows]}


@dataclass(frozen=True)
class Action:
    """A button of the game's own: ``deal`` lets chance act up to the next player's
    decision (the cards dealt, the pawns placed); ``said`` is what the status line says
    after it."""

    id: str
    label: str
    tooltip: str = ""
    said: str = ""

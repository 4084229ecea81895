"""Seats & view: whose view the canvas shows, and who plays each seat (a person or a bot).

The view menu always shows its choice: the teacher's view of everything is a named
entry (``"everything (teacher)"``), not an empty menu; a menu the browser empties (its
``index`` sent as None) is put back to what it showed.

>>> views, seats = [], []
>>> panel = SeatsPanel(on_viewpoint=views.append,
...                    on_seat=lambda seat, who: seats.append((seat, who)))
>>> panel.show(players=2, viewpoint=None, bots={1: "random"})
>>> panel.viewpoint_box.label, panel.seat_boxes[1].value
('everything (teacher)', 'random')
>>> panel.viewpoint_box.value = 0                       # the user picks seat A
>>> panel.seat_boxes[0].value = "greedy"
>>> views, seats
([0], [(0, 'greedy')])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import ipywidgets as W

from ..core.bots import bot_names
from ..core.protocol import seat_name
from ..table.local import viewpoint_choices
from .controls import Quiet

__all__ = ["SeatsPanel", "viewpoint_choices", "TEACHER"]

#: The menu's value for the teacher's view (``viewpoint=None``): a menu whose value
#: is ``None`` shows nothing at all.
TEACHER = "everything"


class SeatsPanel:
    """The view menu and one menu per seat; :attr:`widget` is the tab's content."""

    def __init__(self, *, on_viewpoint: Callable[[Any], None],
                 on_seat: Callable[[int, str], None], game: Any = None) -> None:
        self._quiet = Quiet()
        self._on_seat = on_seat
        self._game = game                      # the seat menus offer its bots (None: all)
        self.viewpoint_box = W.Dropdown(options=self._view_options(viewpoint_choices(2)),
                                        value=TEACHER,
                                        description="view",
                                        layout=W.Layout(width="320px"))
        self.viewpoint_box.observe(
            self._quiet.unless(lambda c: on_viewpoint(None if c["new"] == TEACHER
                                                      else c["new"])), names="value")
        self.viewpoint_box.observe(self._put_back, names="value")
        self._shown: dict[W.Dropdown, Any] = {self.viewpoint_box: TEACHER}   # by menu
        self.seat_boxes: list[W.Dropdown] = []
        self.widget = W.VBox([self.viewpoint_box])

    @staticmethod
    def _view_options(choices: Sequence[tuple[str, Any]]) -> list[tuple[str, Any]]:
        return [(label, TEACHER if v is None else v) for label, v in choices]

    def show(self, *, players: int, viewpoint: Any, bots: Mapping[int, str],
             choices: Sequence[tuple[str, Any]] | None = None, locked: bool = False) -> None:
        """Show the view and who plays each seat (``bots``: seat → bot label);
        ``choices`` the views allowed (default: :func:`viewpoint_choices`; a seat's
        record allows its own only), ``locked`` keeps a student on the view shown."""
        names = [("human", "human")] + [(f"{b} bot", b) for b in bot_names(self._game)]
        views = self._view_options(viewpoint_choices(players) if choices is None else choices)
        with self._quiet:
            if list(self.viewpoint_box.options) != views:
                self.viewpoint_box.options = views
            self.viewpoint_box.value = TEACHER if viewpoint is None else viewpoint
            self._shown = {self.viewpoint_box: self.viewpoint_box.value}
            self.viewpoint_box.disabled = locked
            if len(self.seat_boxes) != players:
                self.seat_boxes = [self._seat_box(p) for p in range(players)]
                self.widget.children = [self.viewpoint_box, *self.seat_boxes]
            for p, box in enumerate(self.seat_boxes):
                box.disabled = locked
                options = list(names)
                label = bots.get(p, "human")
                if label not in dict(names).values():
                    options.append((label, label))
                if list(box.options) != options:
                    box.options = options
                box.value = label
                self._shown[box] = label

    def _put_back(self, change: dict) -> None:
        """A menu emptied by the browser shows again what it showed (the view and the
        seats are unchanged: an empty menu is no choice)."""
        box = change["owner"]
        if change["new"] is None and not self._quiet.on and box in self._shown:
            with self._quiet:
                box.value = self._shown[box]

    def _seat_box(self, seat: int) -> W.Dropdown:
        box = W.Dropdown(options=[("human", "human")], value="human",
                         description=f"seat {seat_name(seat)}",
                         layout=W.Layout(width="320px"))
        box.observe(self._quiet.unless(lambda c: None if c["new"].startswith("custom:")
                                       else self._on_seat(seat, c["new"])), names="value")
        box.observe(self._put_back, names="value")
        return box

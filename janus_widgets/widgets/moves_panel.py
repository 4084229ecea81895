"""The moves panel: the legal moves (select one to see it, then play it), the moves
played (click one to go there) and the lines of play.

Beside the canvas when the output is wide enough, under the step bar when it is not.
A legal move's whole description is shown: the entries wrap (radio buttons, so the
arrow keys walk through them too) instead of being cut at the list's edge.

>>> chosen, played = [], []
>>> panel = MovesPanel(on_option=chosen.append, on_play=lambda: played.append(1),
...                    on_log=print, on_line=print)
>>> panel.show_options([("r1", "Pick up the 1 and throw it again."), ("r*", "Throw all.")])
>>> panel.options_list.value = 1                         # the user picks the second
>>> chosen
[1]
>>> panel.show_options([("r1", "Pick up the 1.")])      # a new position: nothing chosen
>>> panel.options_list.value is None, chosen
(True, [1])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as W

from .controls import Quiet

__all__ = ["MovesPanel"]

#: Entries of the move log shown around the cursor (long games stay light).
from ..table.screen import LOG_WINDOW  # noqa: F401 - the log window, kept by its old name


class MovesPanel:
    """Legal moves, the move log and the lines; :attr:`widget` is the panel."""

    def __init__(self, *, on_option: Callable[[int], None], on_play: Callable[[], None],
                 on_log: Callable[[int], None], on_line: Callable[[int], None]) -> None:
        self._quiet = Quiet()
        self.options_list = W.RadioButtons(
            options=[], value=None,
            layout=W.Layout(width="100%", max_height="264px", overflow="auto"))
        self.options_list.add_class("janus-moves")
        self.options_list.observe(self._quiet.unless(lambda c: on_option(c["new"])),
                                  names="value")
        self.play_button = W.Button(description="Play selected (Enter)", icon="check",
                                    button_style="primary",
                                    layout=W.Layout(width="100%"))
        self.play_button.on_click(lambda _: on_play())
        self.move_log = W.Select(options=[], rows=8, layout=W.Layout(width="100%"))
        self.move_log.observe(self._quiet.unless(lambda c: on_log(c["new"])), names="value")
        self.lines = W.Dropdown(options=[("main line", 0)], value=0, description="line",
                                style={"description_width": "32px"},
                                layout=W.Layout(width="100%"))
        self.lines.observe(self._quiet.unless(lambda c: on_line(c["new"])), names="value")
        self.widget = W.VBox([W.HTML("<b>Legal moves</b> — select one to see it (↑ ↓), "
                                     "then play it (Enter)"),
                              self.options_list, self.play_button,
                              W.HTML("<b>Moves played</b> (click to go there)"),
                              self.move_log, self.lines],
                             layout=W.Layout(flex="1 1 300px", min_width="300px",
                                             max_width="520px", margin="0 0 0 12px"))
        self.widget.add_class("janus-side")

    # ------------------------------------------------------------------ showing
    def show_options(self, moves: Sequence[tuple[str, str]], *, note: str | None = None,
                     can_play: bool = True) -> None:
        """The legal moves as ``(notation, description)``; or one ``note`` (a chance
        point); nothing is selected."""
        with self._quiet:
            if note is not None:
                self.options_list.options = [(note, -1)]
            else:
                self.options_list.options = [(f"{n} — {d}", i)
                                             for i, (n, d) in enumerate(moves)]
            self.options_list.value = None
            self.play_button.disabled = not can_play

    def mark(self, index: int | None) -> None:
        """Show option ``index`` as selected (``None``: none), without calling back."""
        with self._quiet:
            self.options_list.value = index

    @property
    def selected(self) -> int | None:
        """The index of the selected legal move (``None``: none, or a chance note)."""
        value = self.options_list.value
        return None if value is None or value < 0 else value

    def show_log(self, entries: Sequence[tuple[str, int]], at: int | None) -> None:
        """The move log: ``(text, index)`` entries and the one at the cursor."""
        with self._quiet:
            self.move_log.options = list(entries)
            self.move_log.value = at

    def show_lines(self, lines: Sequence[tuple[str, int]], current: int) -> None:
        """The lines of play and the one shown."""
        with self._quiet:
            self.lines.options = list(lines)
            self.lines.value = current
            self.lines.layout.display = "" if len(lines) > 1 else "none"


"""The step bar: first, back, forward, last, a move slider, autoplay and its delay.

One row under the canvas. It shows where the cursor is and says what the user asked
for through the callbacks it is given; what a step *does* is the shell's business.
Every tooltip names the key that does the same.

>>> asked = []
>>> bar = StepBar(on_goto=lambda i: asked.append(("goto", i)),
...               on_back=lambda: asked.append("back"), on_last=lambda: asked.append("last"),
...               on_step=lambda: asked.append("step"),
...               on_autoplay=lambda on: asked.append(("autoplay", on)),
...               on_delay=lambda s: asked.append(("delay", s)))
>>> bar.show(index=3, length=5, autoplay=False)
>>> bar.back_button.click(); bar.forward_button.click(); bar.last_button.click()
>>> bar.slider.value = 1
>>> asked
['back', 'step', 'last', ('goto', 1)]
>>> bar.show(index=1, length=5, autoplay=True)       # showing never calls back
>>> bar.autoplay_button.value, len(asked)
(True, 4)
"""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as W

from .controls import Quiet

__all__ = ["StepBar"]


def _button(icon: str, tooltip: str) -> W.Button:
    return W.Button(description="", icon=icon, tooltip=tooltip,
                    layout=W.Layout(width="38px", flex="none"))


class StepBar:
    """The replay controls; :attr:`widget` is the row."""

    def __init__(self, *, on_goto: Callable[[int], None], on_back: Callable[[], None],
                 on_last: Callable[[], None], on_step: Callable[[], None],
                 on_autoplay: Callable[[bool], None], on_delay: Callable[[float], None],
                 delay: float = 0.5) -> None:
        """``on_back`` and ``on_last`` are asked, not given an index: the row shows the
        cursor a moment after it moves, and a second quick click of ← must still go one
        further back."""
        self._quiet = Quiet()
        self._index = 0
        self._length = 0
        self.first_button = _button("fast-backward", "Go to the start (Home)")
        self.back_button = _button("step-backward", "One move back (←)")
        self.forward_button = _button("step-forward",
                                      "One move forward, or the dice's or a bot's move (→)")
        self.last_button = _button("fast-forward", "Go to the last move (End)")
        self.first_button.on_click(lambda _: on_goto(0))
        self.back_button.on_click(lambda _: on_back())
        self.forward_button.on_click(lambda _: on_step())
        self.last_button.on_click(lambda _: on_last())
        self.slider = W.IntSlider(min=0, max=0, value=0, continuous_update=False,
                                  description="", readout=True,
                                  layout=W.Layout(flex="1 1 110px", min_width="110px",
                                                  width="auto"))
        self.slider.observe(self._quiet.unless(lambda c: on_goto(c["new"])), names="value")
        self.autoplay_button = W.ToggleButton(
            description="Autoplay", icon="play", value=False,
            tooltip="Step forward on a timer: replay, dice and bots (Space)",
            layout=W.Layout(width="auto", flex="none"))
        self.autoplay_button.observe(self._quiet.unless(lambda c: on_autoplay(c["new"])),
                                     names="value")
        self.speed = W.FloatLogSlider(value=delay or 0.5, base=10, min=-2, max=0.7, step=0.1,
                                      description="delay s", readout_format=".2f",
                                      style={"description_width": "48px"},
                                      tooltip="Seconds between autoplay steps and bot moves",
                                      layout=W.Layout(width="190px", flex="none"))
        self.speed.observe(lambda change: on_delay(change["new"]) if change["new"] > 0
                           else None, names="value")
        self.widget = W.HBox([self.first_button, self.back_button, self.forward_button,
                              self.last_button, self.slider, self.autoplay_button,
                              self.speed],
                             layout=W.Layout(flex_flow="row wrap", align_items="center",
                                             width="100%"))
        self.widget.add_class("janus-stepbar")

    def show(self, *, index: int, length: int, autoplay: bool) -> None:
        """Show the cursor at ``index`` of ``length`` moves, and whether autoplay runs."""
        self._index, self._length = index, length
        with self._quiet:
            self.slider.max = length
            self.slider.value = index
            self.autoplay_button.value = autoplay
            self.autoplay_button.icon = "pause" if autoplay else "play"
            self.first_button.disabled = self.back_button.disabled = index == 0
            self.last_button.disabled = index == length

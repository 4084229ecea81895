"""Game & variant: the rule options (generated from the game's ``Variant``), the seed and
*New game*, and the question asked before a rule change ends a game in progress.

>>> from janus_widgets import games
>>> asked, answers, new = [], [], []
>>> panel = GamePanel(games.get("jactus"), games.get("jactus").variant(), seed=3,
...                   on_option=lambda name, change: asked.append((name, change["new"])),
...                   on_confirm=answers.append, on_new=new.append)
>>> panel.variant_controls["players"].value = 4
>>> panel.ask("Start a new game with <b>players=4</b>?")
>>> panel.confirm_box.layout.display, panel.confirm_yes.layout.width
('flex', 'auto')
>>> panel.confirm_no.click(); panel.confirm_box.layout.display
'none'
>>> panel.seed_box.value = 99; panel.new_button.click()
>>> asked, answers, new
([('players', 4)], [False], [99])
>>> panel.show_seed(None)                  # a seat's view: no seed in the widget at all
>>> panel.seed_box.value, panel.seed_box.layout.display, "secret" in panel.new_button.tooltip
(0, 'none', True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ..core.protocol import Game
from .controls import Quiet, RulesetControl, variant_control

__all__ = ["GamePanel"]


class GamePanel:
    """The variant controls, seed box and New game (:attr:`widget`), and the confirm
    box (:attr:`confirm_box`, placed by the shell where the user will see it)."""

    def __init__(self, game: Game, variant: Any, *, seed: int | None = None,
                 on_option: Callable[[str, dict], None], on_confirm: Callable[[bool], None],
                 on_new: Callable[[int], None],
                 on_ruleset: Callable[[Any], None] | None = None) -> None:
        self._quiet = Quiet()
        # The Ruleset menu above the options; choosing one proposes its whole variant.
        self.ruleset_control = RulesetControl(game, variant)
        if on_ruleset is not None:
            self.ruleset_control.on_choose(on_ruleset)
        self.variant_controls: dict[str, W.Widget] = {}
        for spec in game.Variant.options():
            if not spec.widget:
                continue
            control = variant_control(spec, getattr(variant, spec.name))
            control.observe(self._quiet.unless(
                lambda change, name=spec.name: on_option(name, change)), names="value")
            self.variant_controls[spec.name] = control
        self.confirm_text = W.HTML()
        self.confirm_yes = W.Button(description="Start the new game", button_style="warning",
                                    layout=W.Layout(width="auto"))
        self.confirm_no = W.Button(description="Keep playing this one",
                                   layout=W.Layout(width="auto"))
        self.confirm_yes.on_click(lambda _: (self.hide(), on_confirm(True)))
        self.confirm_no.on_click(lambda _: (self.hide(), on_confirm(False)))
        self.confirm_box = W.VBox([self.confirm_text, W.HBox([self.confirm_yes,
                                                               self.confirm_no])],
                                  layout=W.Layout(display="none", border="2px solid #e0a030",
                                                  padding="6px"))
        self.seed_box = W.IntText(value=0, description="seed",
                                  layout=W.Layout(width="260px"))
        self.new_button = W.Button(description="New game", icon="refresh",
                                   layout=W.Layout(width="auto"))
        self.new_button.on_click(lambda _: on_new(int(self.seed_box.value)))
        self.widget = W.VBox([self.ruleset_control, *self.variant_controls.values(),
                              W.HBox([self.seed_box, self.new_button])])
        self.show_seed(seed)

    def show(self, variant: Any) -> None:
        """Show a variant (its options and its ruleset), calling nobody back."""
        with self._quiet:
            for name, control in self.variant_controls.items():
                control.value = getattr(variant, name)
        self.ruleset_control.show(variant)

    def show_seed(self, seed: int | None) -> None:
        """Show the game's seed (the teacher's view), or ``None``: the seed box is hidden
        and holds no seed, and New game draws a secret one (a seat's view)."""
        secret = seed is None
        with self._quiet:
            value = 0 if secret else seed
            if self.seed_box.value != value:
                self.seed_box.value = value
        self.seed_box.layout.display = "none" if secret else ""
        self.new_button.tooltip = (
            "Start a new game with a fresh secret seed and this variant (the seed is "
            "shown only in the teacher's view)" if secret else
            "Start a new game with this seed and variant")

    def wanted(self) -> dict[str, Any]:
        """The option values the controls hold now."""
        return {name: control.value for name, control in self.variant_controls.items()}

    def undo(self, control: W.Widget, value: Any) -> None:
        """Put a control back to ``value`` (a refused change), without a callback."""
        with self._quiet:
            control.value = value

    def ask(self, question_html: str) -> None:
        """Ask before a change ends the game in progress (*Start the new game* / *Keep
        playing this one*)."""
        self.confirm_text.value = question_html
        self.confirm_box.layout.display = "flex"

    def hide(self) -> None:
        """Close the question."""
        self.confirm_box.layout.display = "none"

    @property
    def asking(self) -> bool:
        """Whether the question is open."""
        return self.confirm_box.layout.display == "flex"

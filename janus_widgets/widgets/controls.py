"""Controls generated from a game's ``Variant`` table and its rulesets (shared by the
widget shell and the design lab), and :class:`Quiet`, how the shell's parts show a value
without taking it for the user's."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ..core.protocol import Game
from ..core.variant import CUSTOM, OptionSpec, Variant

__all__ = ["variant_control", "RulesetControl", "Quiet"]


class Quiet:
    """Set while a part shows something, so that its controls' callbacks, which are
    for the user's changes, stay silent.

    >>> quiet, heard = Quiet(), []
    >>> hear = quiet.unless(lambda change: heard.append(change["new"]))
    >>> hear({"new": 1})
    >>> with quiet:
    ...     hear({"new": 2})                 # shown by the program, not the user
    >>> heard
    [1]
    """

    def __init__(self) -> None:
        self.on = False
        self._depth = 0

    def __enter__(self) -> None:
        self._depth += 1
        self.on = True

    def __exit__(self, *exc: object) -> None:
        self._depth -= 1
        self.on = self._depth > 0

    def unless(self, fn: Callable[[dict], Any]) -> Callable[[dict], None]:
        """``fn(change)`` for the user's changes only (and never for a ``None`` value)."""
        def hear(change: dict) -> None:
            if not self.on and change.get("new") is not None:
                fn(change)
        return hear


def variant_control(spec: OptionSpec, value: Any, *, width: str = "430px") -> W.Widget:
    """The input widget for one variant option: a menu for choices, a checkbox for a
    yes/no option, a bounded number box for numbers; its tooltip is the option's doc."""
    label = spec.label
    style = {"description_width": "170px"}
    layout = W.Layout(width=width)
    common = {"description": label, "tooltip": f"{spec.doc} ({spec.rule})", "style": style,
              "layout": layout}
    if spec.choices is not None:
        return W.Dropdown(options=[(spec.value_label(c), c) for c in spec.choices],
                          value=value, **common)
    if spec.kind is bool:
        return W.Checkbox(value=value, **common)
    if spec.kind is int:
        return W.BoundedIntText(value=value, min=int(spec.minimum or 0),
                                max=int(spec.maximum if spec.maximum is not None else 10**9),
                                **common)
    if spec.kind is float:
        return W.BoundedFloatText(value=value, min=spec.minimum or 0.0,
                                  max=spec.maximum if spec.maximum is not None else 1e9,
                                  **common)
    return W.Text(value=str(value), **common)


class RulesetControl(W.VBox):
    """The Ruleset menu of a game: its named rulesets, and "custom" when the options follow
    none of them; below it, the ruleset's note and source.

    :meth:`show` keeps it in step with the options (an option changed by hand shows
    "custom"); choosing a ruleset calls the :meth:`on_choose` callbacks with its
    variant, the set-up options (the number of players) kept.

    >>> from janus_widgets import games
    >>> jactus = games.get("jactus")
    >>> control = RulesetControl(jactus, jactus.variant(players=3))
    >>> control.value, control.menu.options
    ('rulebook', ('rulebook', 'other edition', 'points', 'no spoiling', 'custom'))
    >>> chosen = []
    >>> control.on_choose(chosen.append)
    >>> control.menu.value = "points"
    >>> chosen[0].scoring, chosen[0].players
    ('points', 3)
    >>> control.show(jactus.variant(supply="full")); control.value
    'custom'
    """

    def __init__(self, game: Game, variant: Variant, *, width: str = "430px") -> None:
        super().__init__()
        self.game = game
        self._variant = variant
        self._callbacks: list[Callable[[Variant], Any]] = []
        self._showing = False
        names = [r.name for r in game.rulesets()]
        self.menu = W.Dropdown(
            options=names + [CUSTOM], value=game.ruleset_of(variant), description="ruleset",
            tooltip="A whole reading of the rules at once: " + ", ".join(names)
                    + f"; '{CUSTOM}' when the options below follow none of them",
            style={"description_width": "170px"}, layout=W.Layout(width=width))
        self.about = W.HTML(layout=W.Layout(margin="0 0 6px 176px", max_width=width))
        self.children = [self.menu, self.about]
        self.add_class("janus-ruleset")
        self.menu.observe(self._on_menu, names="value")
        self.show(variant)

    @property
    def value(self) -> str:
        """The name shown: a ruleset's, or ``"custom"``."""
        return str(self.menu.value)

    def on_choose(self, callback: Callable[[Variant], Any]) -> None:
        """Call ``callback(variant)`` when a ruleset is chosen in the menu."""
        self._callbacks.append(callback)

    def show(self, variant: Variant) -> None:
        """Show the ruleset ``variant`` follows (or "custom"), calling nobody back."""
        self._variant = variant
        name = self.game.ruleset_of(variant)
        self._showing = True
        try:
            self.menu.value = name
        finally:
            self._showing = False
        if name == CUSTOM:
            text = (f"Options changed by hand: {', '.join(variant.labelled_changes())}. "
                    "Choose a ruleset to start from one.")
        else:
            ruleset = self.game.ruleset(name)
            text = f"{ruleset.note} Source: {ruleset.source}."
        self.about.value = f"<small>{html.escape(text)}</small>"

    def _on_menu(self, change: dict) -> None:
        if self._showing:
            return
        name = change["new"]
        if name == CUSTOM:          # nothing to start: custom means "as the options say"
            self.show(self._variant)
            return
        setup = {s.name: getattr(self._variant, s.name) for s in self._variant.options()
                 if s.setup}
        variant = self.game.ruleset(name).variant(type(self._variant), **setup)
        for callback in self._callbacks:
            callback(variant)

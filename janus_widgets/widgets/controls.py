"""Controls generated from a game's ``Variant`` table (shared by the widget shell and
the design lab), and :class:`Quiet`, how the shell's parts show a value without taking
it for the user's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as W

from ..core.variant import OptionSpec

__all__ = ["variant_control", "Quiet"]


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
        return W.Dropdown(options=[(str(c), c) for c in spec.choices], value=value, **common)
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

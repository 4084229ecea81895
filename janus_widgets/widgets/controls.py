"""Controls generated from a game's ``Variant`` table (shared by the widget shell and
the design lab)."""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from ..core.variant import OptionSpec

__all__ = ["variant_control"]


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

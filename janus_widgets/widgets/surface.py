"""Everything a widget puts before its user, as text: what a seat's screen gives away.

:func:`widget_surface` walks a widget and every widget inside it and collects each
value that is sent to the browser and can be read there: descriptions, tooltips,
values, options (a dropdown's labels, a select list's entries: the move log), tab
titles, placeholders, HTML; hidden widgets too (a hidden box still sends its value to
the page), so every part of the shell (the stage, the step bar, the status line and
its ``aria-live`` twin, the moves panel, the tabs, the keyboard's label) is read. A
:class:`~janus_widgets.widgets.shell.GameWidget` adds its canvas: the drawing's title
and every text drawn (:func:`drawing_surface`; the picture itself is
compared as shapes by the tests). Layout and style values (sizes, colours of
buttons) and the widget machinery's own fields are left out.

The secrecy tests render a seat's widget for worlds that seat cannot tell apart and
require equal surfaces, and take every number on a surface as a seed; whatever the
shell is made of, the surface is found the same way.

>>> import ipywidgets as W
>>> box = W.VBox([W.Button(description="Save", tooltip="Writes A's record"),
...               W.Dropdown(options=[("seat A", 0), ("seat B", 1)], value=0)])
>>> [text for _, text in widget_surface(box)]
['Save', "Writes A's record", 'seat A', 'seat B']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import ipywidgets as W

from .drawing import Drawing

__all__ = ["widget_surface", "drawing_surface", "surface_text", "numbers_on"]

#: Synced traits that say nothing to the user (the widget machinery, layout, style).
_SKIP = {"layout", "style", "tabbable", "disabled", "continuous_update", "readout",
         "orientation", "button_style", "box_style", "bar_style", "icon", "indent",
         "accept", "multiple", "rows", "step", "base", "readout_format", "behavior",
         "selected_index", "_dom_classes", "ensure_option", "error", "keys", "index",
         "width", "height", "sync_image_data", "image_data", "_send_client_ready_event",
         "_canvases", "_model_id"}
#: Traits whose name starts with "_" that do reach the page as words.
_PRIVATE_SHOWN = {"_options_labels", "_titles"}


def _walk(widget: Any) -> Iterator[Any]:
    yield widget
    for child in getattr(widget, "children", ()) or ():
        if isinstance(child, W.Widget):
            yield from _walk(child)


def _texts(value: Any) -> Iterator[str]:
    if value is None or isinstance(value, (bytes, bytearray, memoryview)):
        return
    if isinstance(value, bool):
        return
    if isinstance(value, str):
        if value:
            yield value
    elif isinstance(value, (int, float)):
        yield str(value)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            if isinstance(item, W.Widget):
                continue
            yield from _texts(item)


def widget_surface(widget: Any) -> list[tuple[str, str]]:
    """``(where, text)`` for every value of ``widget`` and the widgets inside it that
    the browser shows or holds (``where``: class and trait, e.g. ``"Button.tooltip"``),
    then, for a game widget, its drawing (:func:`drawing_surface`)."""
    out: list[tuple[str, str]] = []
    for w in _walk(widget):
        name = type(w).__name__
        for trait in w.keys:
            if trait in _SKIP or (trait.startswith("_") and trait not in _PRIVATE_SHOWN):
                continue
            if trait in ("options", "index") and "_options_labels" in w.keys:
                continue                          # the labels say it; values are indices
            for text in _texts(getattr(w, trait)):
                out.append((f"{name}.{trait}", text))
    drawing = getattr(widget, "drawing", None)      # a game widget's stage
    if isinstance(drawing, Drawing):
        out.extend(drawing_surface(drawing))
    return out


def drawing_surface(drawing: Any) -> list[tuple[str, str]]:
    """The drawing's title and every text drawn on it, layer by layer."""
    out = [("drawing.title", drawing.title)] if drawing.title else []
    out.extend(("drawing.text", text) for text in drawing.texts())
    return out


def surface_text(widget: Any) -> str:
    """The whole surface as one text, one entry a line (handy to search or to diff)."""
    return "\n".join(f"{where}: {text}" for where, text in widget_surface(widget))


def numbers_on(surface: list[tuple[str, str]]) -> set[int]:
    """Every whole number written anywhere on a surface (digit runs, as a seat could
    copy them into a seed box).

    >>> sorted(numbers_on([("x", "move 12/40, seed 7"), ("y", "3.5")]))
    [3, 5, 7, 12, 40]
    """
    import re
    found: set[int] = set()
    for _, text in surface:
        found.update(int(run) for run in re.findall(r"\d+", text) if len(run) <= 19)
    return found

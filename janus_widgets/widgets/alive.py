"""A Voila page that says by itself when its kernel is gone.

Voila's page has no kernel indicator (JupyterLab has one): when the ``classroom``
command stops or restarts, its pages' kernels go with it, and a page would go on
looking live while nothing on it works. A :class:`Heartbeat` sends the page a sign of
life every :data:`HEARTBEAT` seconds: a warning the page keeps hidden for
:data:`STALE_AFTER` seconds (a CSS animation's delay, run in the browser), replaced by
the next sign before it shows. When the signs stop, the warning shows, with no code of
the page's own (the dashboard and the lesson pages use it).

>>> beat = Heartbeat("<b>Gone</b>", "janus-test-stale", loop=None)
>>> "Gone" in beat.widget.value and "visibility:hidden" in beat.widget.value
True
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

__all__ = ["HEARTBEAT", "STALE_AFTER", "alive_html", "Heartbeat"]

#: Seconds between a page's signs of life.
HEARTBEAT = 2.0
#: Seconds without a sign of life after which the page says its kernel is gone.
STALE_AFTER = 7.0


def alive_html(beat: int, warning: str, css_class: str) -> str:
    """The ``beat``-th sign of life: ``warning`` (HTML) in an alert of class
    ``css_class``, hidden until :data:`STALE_AFTER` seconds have passed without the
    next sign.

    >>> "animation:janus-stale 0s linear 7s forwards" in alive_html(1, "x", "c")
    True
    """
    return (
        "<style>@keyframes janus-stale { to { visibility: visible; } }</style>"
        f"<div class='{css_class}' data-beat='{beat}' role='alert' "
        "style='visibility:hidden;position:fixed;top:0;left:0;right:0;z-index:10000;"
        "background:#fde7e9;color:#8a1020;border-bottom:3px solid #b00020;padding:10px 14px;"
        "font:15px sans-serif;"
        f"animation:janus-stale 0s linear {STALE_AFTER:g}s forwards'>{warning}</div>")


class Heartbeat:
    """Signs of life to a page (``widget``, to display; a new one unless given), every
    :data:`HEARTBEAT` seconds on ``loop`` (the kernel's event loop; None: one sign
    only) for as long as the kernel runs."""

    def __init__(self, warning: str, css_class: str, loop: Any = None,
                 widget: W.HTML | None = None) -> None:
        self.warning, self.css_class, self.loop = warning, css_class, loop
        self.beats = 0
        if widget is None:
            widget = W.HTML()
            widget.add_class(f"{css_class}-alive")
        self.widget = widget
        self.beat()

    def beat(self) -> None:
        self.beats += 1
        self.widget.value = alive_html(self.beats, self.warning, self.css_class)
        if self.loop is not None:
            self.loop.call_later(HEARTBEAT, self.beat)

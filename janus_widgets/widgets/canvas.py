"""Paint :class:`~janus_widgets.widgets.drawing.Drawing` layers on ipycanvas canvases.

The painter remembers the style last set on each canvas, so a frame sends each
fill colour or font once, and the shell calls it inside one ``hold_canvas()``
so a whole frame travels to the browser as one message.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from .drawing import Arc, Circle, Line, Polygon, Rect, Shape, Text

__all__ = ["Painter"]


class Painter:
    """Draws shapes on one ipycanvas ``Canvas``, skipping repeated style settings."""

    def __init__(self, canvas: Any) -> None:
        self.canvas = canvas
        self._style: dict[str, Any] = {}

    def _set(self, name: str, value: Any) -> None:
        if self._style.get(name) != value:
            setattr(self.canvas, name, value)
            self._style[name] = value

    def _dash(self, dash: tuple[float, ...]) -> None:
        if self._style.get("dash", ()) != dash:
            self.canvas.set_line_dash(list(dash))
            self._style["dash"] = dash

    def clear(self, background: str | None = None) -> None:
        """Clear the canvas (and fill it with ``background``)."""
        self.canvas.clear()
        self._style = {}
        if background:
            self._set("fill_style", background)
            self.canvas.fill_rect(0, 0, self.canvas.width, self.canvas.height)

    def paint(self, shapes: Iterable[Shape]) -> None:
        """Draw the shapes in order."""
        for shape in shapes:
            if isinstance(shape, Rect):
                self._rect(shape)
            elif isinstance(shape, Circle):
                self._circle(shape)
            elif isinstance(shape, Text):
                self._text(shape)
            elif isinstance(shape, Polygon):
                self._polygon(shape)
            elif isinstance(shape, Line):
                self._line(shape)
            elif isinstance(shape, Arc):
                self._arc(shape)
            else:
                raise TypeError(f"not a shape: {shape!r}")

    def _stroke_style(self, stroke: str, width: float, dash: tuple[float, ...]) -> None:
        self._set("stroke_style", stroke)
        self._set("line_width", width)
        self._dash(dash)

    def _rect(self, s: Rect) -> None:
        c = self.canvas
        if s.radius:
            self._round_rect_path(s)
            if s.fill:
                self._set("fill_style", s.fill)
                c.fill()
            if s.stroke:
                self._stroke_style(s.stroke, s.width, s.dash)
                c.stroke()
            return
        if s.fill:
            self._set("fill_style", s.fill)
            c.fill_rect(s.x, s.y, s.w, s.h)
        if s.stroke:
            self._stroke_style(s.stroke, s.width, s.dash)
            c.stroke_rect(s.x, s.y, s.w, s.h)

    def _round_rect_path(self, s: Rect) -> None:
        c = self.canvas
        r = min(s.radius, s.w / 2, s.h / 2)
        x, y, w, h = s.x, s.y, s.w, s.h
        c.begin_path()
        c.move_to(x + r, y)
        c.line_to(x + w - r, y)
        c.arc(x + w - r, y + r, r, -math.pi / 2, 0)
        c.line_to(x + w, y + h - r)
        c.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
        c.line_to(x + r, y + h)
        c.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
        c.line_to(x, y + r)
        c.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
        c.close_path()

    def _circle(self, s: Circle) -> None:
        if s.fill:
            self._set("fill_style", s.fill)
            self.canvas.fill_circle(s.cx, s.cy, s.r)
        if s.stroke:
            self._stroke_style(s.stroke, s.width, s.dash)
            self.canvas.stroke_circle(s.cx, s.cy, s.r)

    def _arc(self, s: Arc) -> None:
        if s.fill:
            self._set("fill_style", s.fill)
            self.canvas.fill_arc(s.cx, s.cy, s.r, s.start, s.end)
        self._stroke_style(s.stroke, s.width, ())
        self.canvas.stroke_arc(s.cx, s.cy, s.r, s.start, s.end)

    def _line(self, s: Line) -> None:
        self._stroke_style(s.stroke, s.width, s.dash)
        self.canvas.stroke_lines([list(p) for p in s.points])

    def _polygon(self, s: Polygon) -> None:
        points = [list(p) for p in s.points]
        if s.fill:
            self._set("fill_style", s.fill)
            self.canvas.fill_polygon(points)
        if s.stroke:
            self._stroke_style(s.stroke, s.width, ())
            self.canvas.stroke_polygon(points)

    def _text(self, s: Text) -> None:
        self._set("font", s.css_font)
        self._set("text_align", s.align)
        self._set("text_baseline", s.baseline)
        self._set("fill_style", s.fill)
        self.canvas.fill_text(s.text, s.x, s.y)

"""Drawings as SVG: exact pictures for exported notebooks, static viewers and files.

>>> from janus_widgets.drawing import Drawing
>>> d = Drawing(100, 50, title="a die")
>>> d.rect(10, 10, 30, 30, fill="#eee", stroke="#333")
>>> render_svg(d).startswith('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"')
True
>>> shape_svg(d.layers["pieces"][0])
'<rect x="10.0" y="10.0" width="30.0" height="30.0" fill="#eee" stroke="#333" stroke-width="1"/>'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from html import escape

from .shapes import LAYERS, Arc, Circle, Drawing, Line, Point, Polygon, Rect, Shape, Text

__all__ = ["render_svg", "svg_body", "shape_svg"]


def _style(fill: str | None, stroke: str | None, width: float,
           dash: tuple[float, ...] = ()) -> str:
    parts = [f'fill="{escape(fill)}"' if fill else 'fill="none"']
    if stroke:
        parts.append(f'stroke="{escape(stroke)}" stroke-width="{width:g}"')
        if dash:
            parts.append(f'stroke-dasharray="{" ".join(f"{v:g}" for v in dash)}"')
    return " ".join(parts)


def _pts(points: Iterable[Point]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def shape_svg(shape: Shape) -> str:
    """One shape as an SVG element."""
    if isinstance(shape, Rect):
        r = f' rx="{shape.radius:g}"' if shape.radius else ""
        return (f'<rect x="{shape.x:.1f}" y="{shape.y:.1f}" width="{shape.w:.1f}" '
                f'height="{shape.h:.1f}"{r} '
                f'{_style(shape.fill, shape.stroke, shape.width, shape.dash)}/>')
    if isinstance(shape, Circle):
        return (f'<circle cx="{shape.cx:.1f}" cy="{shape.cy:.1f}" r="{shape.r:.1f}" '
                f'{_style(shape.fill, shape.stroke, shape.width, shape.dash)}/>')
    if isinstance(shape, Arc):
        x0 = shape.cx + shape.r * math.cos(shape.start)
        y0 = shape.cy + shape.r * math.sin(shape.start)
        x1 = shape.cx + shape.r * math.cos(shape.end)
        y1 = shape.cy + shape.r * math.sin(shape.end)
        large = 1 if (shape.end - shape.start) % (2 * math.pi) > math.pi else 0
        return (f'<path d="M {x0:.1f} {y0:.1f} A {shape.r:.1f} {shape.r:.1f} 0 {large} 1 '
                f'{x1:.1f} {y1:.1f}" {_style(shape.fill, shape.stroke, shape.width)}/>')
    if isinstance(shape, Line):
        return (f'<polyline points="{_pts(shape.points)}" '
                f'{_style(None, shape.stroke, shape.width, shape.dash)}/>')
    if isinstance(shape, Polygon):
        return (f'<polygon points="{_pts(shape.points)}" '
                f'{_style(shape.fill, shape.stroke, shape.width)}/>')
    if isinstance(shape, Text):
        anchor = {"left": "start", "center": "middle", "right": "end"}[shape.align]
        base = {"top": "hanging", "middle": "central", "bottom": "text-after-edge",
                "alphabetic": "alphabetic"}[shape.baseline]
        weight = ' font-weight="bold"' if shape.bold else ""
        return (f'<text x="{shape.x:.1f}" y="{shape.y:.1f}" '
                f'font-family="{escape(shape.font)}" font-size="{shape.size:g}"{weight} '
                f'fill="{escape(shape.fill)}" text-anchor="{anchor}" dominant-baseline="{base}">'
                f'{escape(shape.text)}</text>')
    raise TypeError(f"not a shape: {shape!r}")


def svg_body(drawing: Drawing,
             element: Callable[[Shape], str] = shape_svg) -> list[str]:
    """The drawing's SVG elements without the ``<svg>`` around them: the background,
    then each layer as a ``<g>`` (for pictures and for the frames of an animation);
    ``element`` writes each shape (:func:`shape_svg`, or one that keeps what it wrote:
    shapes are frozen values)."""
    out = [f'<rect width="{drawing.width}" height="{drawing.height}" '
           f'fill="{escape(drawing.background)}"/>']
    for name in LAYERS:
        out.append(f'<g class="{name}">')
        out.extend(element(s) for s in drawing.layers[name])
        out.append("</g>")
    return out


def render_svg(drawing: Drawing) -> str:
    """The whole drawing (all layers, bottom first) as an SVG document."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{drawing.width}" '
           f'height="{drawing.height}" viewBox="0 0 {drawing.width} {drawing.height}">']
    if drawing.title:
        out.append(f"<title>{escape(drawing.title)}</title>")
    out.extend(svg_body(drawing))
    out.append("</svg>")
    return "\n".join(out)

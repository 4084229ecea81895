"""Drawings as pixels: a :class:`~janus_widgets.drawing.Drawing` rasterised
into a numpy ``height × width × 3`` array of ``uint8`` (needs matplotlib).

The widget shell paints drawings on a canvas and :func:`render_svg` writes them
as SVG; learning environments (PettingZoo's ``render_mode="rgb_array"``) and
videos want pixels. :func:`rasterise` paints the same shapes with matplotlib's
Agg renderer (no window, no pyplot state, safe in threads): rectangles (rounded
too), circles, arcs, polygons, polylines, dashes and text, layer by layer in
drawing order, one drawing unit to one pixel at ``scale=1``.

>>> from janus_widgets.drawing import Drawing
>>> d = Drawing(40, 20, background="#ffffff")
>>> d.rect(0, 0, 20, 20, fill="#ff0000")
>>> img = rasterise(d)
>>> img.shape, img.dtype.name, img[10, 5].tolist(), img[10, 35].tolist()
((20, 40, 3), 'uint8', [255, 0, 0], [255, 255, 255])
"""

from __future__ import annotations

import math
import re

import numpy as np

from ..drawing import LAYERS, Arc, Circle, Drawing, Line, Polygon, Rect, Shape, Text

__all__ = ["rasterise", "to_rgba"]

#: Pixels per inch used to turn drawing units into matplotlib points.
DPI = 72.0
_CSS_RGB = re.compile(r"rgba?\(([^)]*)\)")


def to_rgba(colour: str | None) -> tuple[float, float, float, float] | None:
    """A CSS colour (``'#ff9f1c'``, ``'#fff'``, ``'white'``, ``'rgb(1, 2, 3)'``,
    ``'rgba(0, 0, 0, 0.5)'``) as matplotlib's RGBA floats; ``None``/``'none'``: None.

    >>> to_rgba("rgba(255, 0, 0, 0.5)"), to_rgba("none")
    ((1.0, 0.0, 0.0, 0.5), None)
    """
    from matplotlib.colors import to_rgba as mpl_rgba
    if colour is None:
        return None
    text = colour.strip().lower()
    if text in ("none", "transparent", ""):
        return None
    found = _CSS_RGB.fullmatch(text)
    if found:
        parts = [p.strip() for p in found.group(1).split(",")]
        rgb = [float(p[:-1]) / 100 if p.endswith("%") else float(p) / 255 for p in parts[:3]]
        alpha = float(parts[3]) if len(parts) > 3 else 1.0
        return (rgb[0], rgb[1], rgb[2], alpha)
    return tuple(mpl_rgba(text))  # type: ignore[return-value]


def rasterise(drawing: Drawing, scale: float = 1.0) -> np.ndarray:
    """The drawing as an RGB image: ``uint8`` array of shape
    ``(round(height·scale), round(width·scale), 3)``."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if scale <= 0:
        raise ValueError(f"scale={scale!r}: use a positive number")
    width = max(1, round(drawing.width * scale))
    height = max(1, round(drawing.height * scale))
    # Dashes are given in drawing units, not in multiples of the line width.
    with matplotlib.rc_context({"lines.scale_dashes": False, "path.simplify": False}):
        fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
        canvas = FigureCanvasAgg(fig)
        fig.patch.set_facecolor(to_rgba(drawing.background) or (1, 1, 1, 1))
        ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
        ax.set_axis_off()
        ax.set_xlim(0, drawing.width)
        ax.set_ylim(drawing.height, 0)       # y grows downwards, as on the canvas
        ax.patch.set_visible(False)
        points = scale * 72.0 / DPI          # points per drawing unit
        z = 0
        for layer in LAYERS:
            for shape in drawing.layers[layer]:
                z += 1
                _add(ax, shape, points, z)
        canvas.draw()
        image = np.asarray(canvas.buffer_rgba())
    if image.shape[:2] != (height, width):   # matplotlib rounds the figure size itself
        image = _fit(image, height, width)
    return np.ascontiguousarray(image[:, :, :3])


def _fit(image: np.ndarray, height: int, width: int) -> np.ndarray:
    out = np.full((height, width, 4), 255, np.uint8)
    h = min(height, image.shape[0])
    w = min(width, image.shape[1])
    out[:h, :w] = image[:h, :w]
    return out


def _dashes(dash: tuple[float, ...], points: float) -> object:
    if not dash:
        return "solid"
    pattern = tuple(max(0.1, v * points) for v in dash)
    if len(pattern) % 2:
        pattern = pattern * 2
    return (0, pattern)


def _add(ax: object, shape: Shape, points: float, z: int) -> None:
    from matplotlib import patches
    from matplotlib.lines import Line2D

    if isinstance(shape, Rect):
        common = dict(facecolor=to_rgba(shape.fill) or "none",
                      edgecolor=to_rgba(shape.stroke) or "none",
                      linewidth=shape.width * points if shape.stroke else 0.0,
                      linestyle=_dashes(shape.dash, points), zorder=z)
        if shape.radius:
            r = min(shape.radius, shape.w / 2, shape.h / 2)
            artist = patches.FancyBboxPatch(
                (shape.x, shape.y), shape.w, shape.h,
                boxstyle=patches.BoxStyle.Round(pad=0.0, rounding_size=r),
                mutation_aspect=1.0, **common)
        else:
            artist = patches.Rectangle((shape.x, shape.y), shape.w, shape.h, **common)
        ax.add_patch(artist)  # type: ignore[attr-defined]
    elif isinstance(shape, Circle):
        ax.add_patch(patches.Circle(  # type: ignore[attr-defined]
            (shape.cx, shape.cy), shape.r, facecolor=to_rgba(shape.fill) or "none",
            edgecolor=to_rgba(shape.stroke) or "none",
            linewidth=shape.width * points if shape.stroke else 0.0,
            linestyle=_dashes(shape.dash, points), zorder=z))
    elif isinstance(shape, Arc):
        sweep = (shape.end - shape.start) % (2 * math.pi) or 2 * math.pi
        if shape.fill:
            steps = max(8, int(48 * sweep / math.pi))
            pts = [(shape.cx + shape.r * math.cos(shape.start + sweep * k / steps),
                    shape.cy + shape.r * math.sin(shape.start + sweep * k / steps))
                   for k in range(steps + 1)]
            ax.add_patch(patches.Polygon(  # type: ignore[attr-defined]
                pts, closed=True, facecolor=to_rgba(shape.fill), edgecolor="none",
                linewidth=0.0, zorder=z))
        start = math.degrees(shape.start)
        ax.add_patch(patches.Arc(  # type: ignore[attr-defined]
            (shape.cx, shape.cy), 2 * shape.r, 2 * shape.r, theta1=start,
            theta2=start + math.degrees(sweep), edgecolor=to_rgba(shape.stroke) or "none",
            linewidth=shape.width * points, zorder=z + 0.5))
    elif isinstance(shape, Line):
        xs = [p[0] for p in shape.points]
        ys = [p[1] for p in shape.points]
        ax.add_line(Line2D(  # type: ignore[attr-defined]
            xs, ys, color=to_rgba(shape.stroke) or "none", linewidth=shape.width * points,
            linestyle=_dashes(shape.dash, points), solid_capstyle="butt",
            dash_capstyle="butt", solid_joinstyle="miter", zorder=z))
    elif isinstance(shape, Polygon):
        ax.add_patch(patches.Polygon(  # type: ignore[attr-defined]
            shape.points, closed=True, facecolor=to_rgba(shape.fill) or "none",
            edgecolor=to_rgba(shape.stroke) or "none",
            linewidth=shape.width * points if shape.stroke else 0.0,
            joinstyle="miter", zorder=z))
    elif isinstance(shape, Text):
        ha = {"left": "left", "center": "center", "right": "right"}[shape.align]
        va = {"top": "top", "middle": "center", "bottom": "bottom",
              "alphabetic": "baseline"}[shape.baseline]
        family = {"sans-serif": "sans-serif", "serif": "serif",
                  "monospace": "monospace"}.get(shape.font, "sans-serif")
        ax.text(shape.x, shape.y, shape.text,  # type: ignore[attr-defined]
                fontsize=shape.size * points, color=to_rgba(shape.fill) or "none",
                ha=ha, va=va, fontweight="bold" if shape.bold else "normal",
                family=family, zorder=z, clip_on=False)
    else:
        raise TypeError(f"not a shape: {shape!r}")

"""Paint :class:`~janus_widgets.drawing.Drawing` layers on ipycanvas canvases.

A frame travels to the browser as one message (the shell paints inside one
``hold_canvas()``), and what makes a click feel immediate is how few commands that
message holds. So the painter

* sends each fill colour, line width or font once, while it stays the same;
* draws runs of shapes of one kind in one *batch* command (ipycanvas' "styled" calls,
  one colour per shape): a run of filled polygons, of outlined rectangles, of circles
  and so on. Shapes that are filled *and* outlined are batched only while they do not
  overlap (a batch paints all fills, then all outlines);
* draws a rounded rectangle as a polygon (four short arcs of points), so tiles and
  cards batch too.

Texts and arcs are drawn one by one, in their place in the order.

>>> from ipycanvas import Canvas
>>> from janus_widgets.drawing import Circle, Rect
>>> p = Painter(Canvas(width=100, height=100))
>>> shapes = [Rect(10 * i, 0, 8, 8, fill="#ff0000") for i in range(10)]
>>> shapes += [Circle(50, 50, 5, fill="#00ff00", stroke="#000000")]
>>> [kind for kind, _ in plan(shapes)]
['rect-fill', 'single']
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from ..drawing import Arc, Circle, Line, Polygon, Rect, Shape, Text

__all__ = ["Painter", "plan", "rounded_points", "shape_box", "dirty_rects"]

#: Points per quarter circle of a rounded corner.
CORNER_STEPS = 4
#: The longest run painted as one batch.
MAX_BATCH = 400
_HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
_RGBA = re.compile(r"rgba?\(\s*([\d.]+)\s*,\s*([\d.]+)\s*,\s*([\d.]+)\s*(?:,\s*([\d.]+)\s*)?\)")


def _colour(text: str | None) -> tuple[int, int, int, float] | None:
    """``'#ff9f1c'``, ``'#fff'``, ``'rgb(…)'``, ``'rgba(…)'`` as (r, g, b, alpha); None
    for anything else (such a shape is painted on its own)."""
    if not text:
        return None
    found = _HEX.fullmatch(text)
    if found:
        digits = found.group(1)
        if len(digits) == 3:
            digits = "".join(c * 2 for c in digits)
        return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16), 1.0)
    found = _RGBA.fullmatch(text.strip())
    if found:
        r, g, b = (int(float(found.group(i))) for i in (1, 2, 3))
        return (r, g, b, float(found.group(4)) if found.group(4) else 1.0)
    return None


@lru_cache(maxsize=4096)
def rounded_points(x: float, y: float, w: float, h: float,
                   r: float) -> tuple[tuple[float, float], ...]:
    """The outline of a rounded rectangle as points (clockwise from the top edge).

    >>> len(rounded_points(0, 0, 10, 10, 2)), rounded_points(0, 0, 10, 10, 0)[0]
    (20, (0, 0))
    """
    r = min(r, w / 2, h / 2)
    if r <= 0:
        return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
    points = []
    for cx, cy, start in ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0),
                          (x + r, y + h - r, 90), (x + r, y + r, 180)):
        for k in range(CORNER_STEPS + 1):
            a = math.radians(start + 90 * k / CORNER_STEPS)
            points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return tuple(points)


# --- what to send: batches of one kind, in drawing order ---------------------------------
def _primitive(shape: Shape) -> tuple[str, Any, tuple[float, float, float, float]] | None:
    """(kind, geometry, bounding box) of a shape that can be batched, else None."""
    if isinstance(shape, Rect):
        if shape.radius:
            return ("poly", rounded_points(shape.x, shape.y, shape.w, shape.h, shape.radius),
                    (shape.x, shape.y, shape.x + shape.w, shape.y + shape.h))
        return ("rect", (shape.x, shape.y, shape.w, shape.h),
                (shape.x, shape.y, shape.x + shape.w, shape.y + shape.h))
    if isinstance(shape, Circle):
        return ("circle", (shape.cx, shape.cy, shape.r),
                (shape.cx - shape.r, shape.cy - shape.r, shape.cx + shape.r,
                 shape.cy + shape.r))
    if isinstance(shape, Polygon):
        xs = [p[0] for p in shape.points]
        ys = [p[1] for p in shape.points]
        return ("poly", list(shape.points), (min(xs), min(ys), max(xs), max(ys)))
    if isinstance(shape, Line):
        xs = [p[0] for p in shape.points]
        ys = [p[1] for p in shape.points]
        return ("line", list(shape.points), (min(xs), min(ys), max(xs), max(ys)))
    return None


def _overlaps(a: tuple[float, ...], b: tuple[float, ...], pad: float) -> bool:
    return a[0] - pad < b[2] and b[0] - pad < a[2] and a[1] - pad < b[3] and b[1] - pad < a[3]


def plan(shapes: Iterable[Shape]) -> Iterator[tuple[str, list]]:
    """The commands a layer becomes, in order: ``(kind, items)`` where kind is
    ``"<rect|circle|poly|line>-<fill|stroke>"`` for a batch or ``"single"`` for one
    shape drawn alone.

    A batch paints the fills of its run, then the outlines. That moves the fill of a
    later shape before the outline of an earlier one, so a shape joins a run only if
    its fill does not touch an outlined shape already in the run.
    """
    run: list[tuple[Any, Any, Any, tuple[float, ...], Shape]] = []  # geometry, fill, stroke,
    # box, shape
    outlined: list[tuple[float, ...]] = []                     # boxes grown by the outline
    state: dict[str, Any] = {"kind": "", "style": None}

    def flush() -> Iterator[tuple[str, list]]:
        if len(run) == 1:
            yield "single", [run[0][4]]           # one shape: its own commands are fewer
        elif run:
            fills = [(geo, fill) for geo, fill, _, _, _ in run if fill is not None]
            strokes = [(geo, stroke, state["style"]) for geo, _, stroke, _, _ in run
                       if stroke is not None]
            if fills:
                yield f"{state['kind']}-fill", fills
            if strokes:
                yield f"{state['kind']}-stroke", strokes
        run.clear()
        outlined.clear()
        state["style"] = None

    for shape in shapes:
        prim = _primitive(shape)
        wants_fill = getattr(shape, "fill", None) if not isinstance(shape, Line) else None
        wants_stroke = getattr(shape, "stroke", None)
        fill, stroke = _colour(wants_fill), _colour(wants_stroke)
        if prim is None or (wants_fill and fill is None) or (wants_stroke and stroke is None) \
                or (fill is None and stroke is None):
            yield from flush()
            state["kind"] = ""
            yield "single", [shape]
            continue
        kind, geometry, box = prim
        width = getattr(shape, "width", 1.0)
        style = (width, tuple(getattr(shape, "dash", ()))) if stroke is not None else None
        fits = (bool(run) and kind == state["kind"] and len(run) < MAX_BATCH
                and (style is None or state["style"] in (None, style))
                and not (fill is not None
                         and any(_overlaps(box, other, 1.0) for other in outlined)))
        if not fits:
            yield from flush()
            state["kind"] = kind
        if style is not None:
            state["style"] = style
            half = width / 2
            outlined.append((box[0] - half, box[1] - half, box[2] + half, box[3] + half))
        run.append((geometry, fill, stroke, box, shape))
    yield from flush()


def shape_box(shape: Shape) -> tuple[float, float, float, float]:
    """A box (left, top, right, bottom) that holds every pixel the shape paints, with its
    outline and anti-aliasing (text is measured generously: a wide glyph per letter)."""
    if isinstance(shape, Text):
        per = 1.0 if len(shape.text) <= 12 else 0.75
        width = len(shape.text) * shape.size * per * (1.08 if shape.bold else 1.0)
        left = {"left": shape.x, "center": shape.x - width / 2,
                "right": shape.x - width}[shape.align]
        top = shape.y - {"top": 0.15, "middle": 0.7, "bottom": 1.3,
                         "alphabetic": 1.05}[shape.baseline] * shape.size
        return (left - 3, top - 3, left + width + 3, top + 1.45 * shape.size + 3)
    pad = getattr(shape, "width", 1.0) / 2 + 2 if getattr(shape, "stroke", None) else 2
    if isinstance(shape, Rect):
        return (shape.x - pad, shape.y - pad, shape.x + shape.w + pad, shape.y + shape.h + pad)
    if isinstance(shape, (Circle, Arc)):
        return (shape.cx - shape.r - pad, shape.cy - shape.r - pad, shape.cx + shape.r + pad,
                shape.cy + shape.r + pad)
    xs = [p[0] for p in shape.points]  # type: ignore[union-attr]
    ys = [p[1] for p in shape.points]  # type: ignore[union-attr]
    pad += getattr(shape, "width", 1.0) * 2          # mitred corners reach further
    return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)


def _take(counts: dict[int, int], key: int) -> bool:
    """Take one of ``key`` from ``counts`` if there is one left (``True``)."""
    n = counts.get(key, 0)
    if n:
        counts[key] = n - 1
        return True
    return False


def dirty_rects(before: Sequence[Shape], after: Sequence[Shape], width: int, height: int,
                *, most: int = 6, share: float = 0.45) -> list[tuple[int, int, int, int]] | None:
    """The whole-pixel rectangles (x, y, w, h) to repaint to turn the layer ``before``
    into ``after``: around every shape that went or came. ``[]`` when nothing changed;
    ``None`` when repainting everything is simpler (shapes only reordered, more than
    ``most`` separate places, or more than ``share`` of the picture)."""
    from collections import Counter
    # Shapes kept from one picture to the next are mostly the very same objects (a game
    # caches what rarely changes): pair those by identity first, and compare the rest by
    # value (hashing a shape reads all its fields: on a board of a thousand shapes that
    # was most of a frame's time).
    ids_before, ids_after = set(map(id, before)), set(map(id, after))
    if len(ids_before) == len(before) and len(ids_after) == len(after):
        rest_before = [s for s in before if id(s) not in ids_after]
        rest_after = [s for s in after if id(s) not in ids_before]
    else:                                   # an object twice in a layer: count them
        same = Counter(map(id, before)) & Counter(map(id, after))
        left = dict(same)
        rest_before = [s for s in before if not _take(left, id(s))]
        left = dict(same)
        rest_after = [s for s in after if not _take(left, id(s))]
    gone = Counter(rest_before)
    gone.subtract(rest_after)
    changed = [s for s, k in gone.items() if k]
    if not changed:
        return [] if list(before) == list(after) else None
    boxes = [shape_box(s) for s in changed]
    merged: list[list[float]] = []
    for box in sorted(boxes):
        box = list(box)
        again = True
        while again:
            again = False
            for other in merged:
                if (box[0] <= other[2] + 8 and other[0] <= box[2] + 8
                        and box[1] <= other[3] + 8 and other[1] <= box[3] + 8):
                    merged.remove(other)
                    box = [min(box[0], other[0]), min(box[1], other[1]),
                           max(box[2], other[2]), max(box[3], other[3])]
                    again = True
                    break
        merged.append(box)
        if len(merged) > most:
            return None
    rects = []
    for x0, y0, x1, y1 in merged:
        left, top = max(0, math.floor(x0)), max(0, math.floor(y0))
        right, bottom = min(width, math.ceil(x1)), min(height, math.ceil(y1))
        if right > left and bottom > top:
            rects.append((left, top, right - left, bottom - top))
    if sum(w * h for _, _, w, h in rects) > share * width * height:
        return None
    return rects


class Painter:
    """Draws shapes on one ipycanvas ``Canvas``: batched, styles sent once."""

    def __init__(self, canvas: Any) -> None:
        self.canvas = canvas
        self._style: dict[str, Any] = {}
        # ipycanvas turns a style attribute into a command; skip its trait machinery.
        manager = getattr(canvas, "_canvas_manager", None)
        attrs = getattr(type(canvas), "ATTRS", None)
        try:
            from ipycanvas.canvas import COMMANDS
            self._direct = (manager, attrs, COMMANDS["set"]) if manager and attrs else None
        except (ImportError, KeyError):  # pragma: no cover - another ipycanvas
            self._direct = None

    def _set(self, name: str, value: Any) -> None:
        if self._style.get(name) == value:
            return
        self._style[name] = value
        if self._direct is not None and name in self._direct[1]:
            manager, attrs, command = self._direct
            manager.send_command(self.canvas, [command, [attrs[name], value]])
        else:
            setattr(self.canvas, name, value)

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

    def repaint(self, shapes: Sequence[Shape], rects: Sequence[tuple[int, int, int, int]],
                background: str | None = None) -> None:
        """Paint again only inside ``rects`` (from :func:`dirty_rects`): each is cleared
        (to ``background``) and the shapes that reach into it are drawn, clipped to it,
        in order."""
        c = self.canvas
        boxes = [shape_box(s) for s in shapes]
        for x, y, w, h in rects:
            area = (x, y, x + w, y + h)
            inside = [s for s, box in zip(shapes, boxes) if _overlaps(box, area, 0)]
            kept = dict(self._style)            # the context's styles come back on restore
            c.save()
            c.begin_path()
            c.rect(x, y, w, h)
            c.clip()
            c.clear_rect(x, y, w, h)
            if background:
                self._set("fill_style", background)
                c.fill_rect(x, y, w, h)
            self.paint(inside)
            c.restore()
            self._style = kept

    def paint(self, shapes: Iterable[Shape]) -> None:
        """Draw the shapes in order (batched where the order is kept)."""
        for kind, items in plan(shapes):
            if kind == "single":
                self._single(items[0])
            else:
                self._batch(kind, items)

    # ------------------------------------------------------------------ batches
    def _batch(self, kind: str, items: Sequence[tuple]) -> None:
        c = self.canvas
        shape, mode = kind.split("-")
        colours = np.array([item[1][:3] for item in items], dtype=np.uint8)
        alpha = np.array([item[1][3] for item in items], dtype=np.float32)
        if mode == "stroke":
            width, dash = items[0][2]
            self._set("line_width", width)
            self._dash(dash)
        geometry = [item[0] for item in items]
        if shape == "rect":
            x, y, w, h = (np.array(v, dtype=np.float32) for v in zip(*geometry))
            (c.fill_styled_rects if mode == "fill" else c.stroke_styled_rects)(
                x, y, w, h, colours, alpha)
        elif shape == "circle":
            x, y, r = (np.array(v, dtype=np.float32) for v in zip(*geometry))
            (c.fill_styled_circles if mode == "fill" else c.stroke_styled_circles)(
                x, y, r, colours, alpha)
        else:
            points = np.array([p for g in geometry for p in g], dtype=np.float32)
            counts = np.array([len(g) for g in geometry], dtype=np.int32)
            if shape == "poly":
                (c.fill_styled_polygons if mode == "fill" else c.stroke_styled_polygons)(
                    points, colours, alpha, counts)
            else:
                c.stroke_styled_line_segments(points, colours, alpha, counts)

    # ------------------------------------------------------------------ one by one
    def _single(self, shape: Shape) -> None:
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
        if s.radius:
            self._polygon_path(rounded_points(s.x, s.y, s.w, s.h, s.radius), s.fill,
                               s.stroke, s.width, s.dash)
            return
        if s.fill:
            self._set("fill_style", s.fill)
            self.canvas.fill_rect(s.x, s.y, s.w, s.h)
        if s.stroke:
            self._stroke_style(s.stroke, s.width, s.dash)
            self.canvas.stroke_rect(s.x, s.y, s.w, s.h)

    def _polygon_path(self, points: Sequence[tuple[float, float]], fill: str | None,
                      stroke: str | None, width: float, dash: tuple[float, ...]) -> None:
        pts = [list(p) for p in points]
        if fill:
            self._set("fill_style", fill)
            self.canvas.fill_polygon(pts)
        if stroke:
            self._stroke_style(stroke, width, dash)
            self.canvas.stroke_polygon(pts)

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
        self._polygon_path(s.points, s.fill, s.stroke, s.width, ())

    def _text(self, s: Text) -> None:
        self._set("font", s.css_font)
        self._set("text_align", s.align)
        self._set("text_baseline", s.baseline)
        self._set("fill_style", s.fill)
        self.canvas.fill_text(s.text, s.x, s.y)

"""The drawing primitives: shapes on three layers, click regions, seat styles.

A :class:`Drawing` is a plain value: a size, three layers of shapes (the
static ``board`` below, the ``pieces`` above it, ``highlight`` on top) and
click regions. It is what every game's ``draw.py`` returns; nothing here knows
a game, a state or a widget (the standard library only).

Click regions make hit-testing part of the drawing: a game draws a die and
declares its region with a key such as ``("die", 2)``; the shell turns a click
into that key with :meth:`Drawing.hit`, so pixels and meaning cannot drift
apart.

>>> d = Drawing(100, 50)
>>> d.rect(10, 10, 30, 30, fill="#eee", stroke="#333", key=("die", 0))
>>> d.text(25, 25, "A", size=12)
>>> d.hit(20, 20), d.hit(90, 40)
(('die', 0), None)
>>> d.texts()
['A']
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Union

__all__ = ["Rect", "Circle", "Line", "Polygon", "Text", "Arc", "Shape", "Region", "Drawing",
           "LAYERS", "Layer", "Point", "SEAT_STYLES", "SeatStyle", "Click", "outline_regions",
           "seat_marker", "shape_points", "HIGHLIGHT"]

LAYERS = ("board", "pieces", "highlight")
Layer = Literal["board", "pieces", "highlight"]
Point = tuple[float, float]


@dataclass(frozen=True)
class Rect:
    """A rectangle, optionally with rounded corners."""

    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    radius: float = 0.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Circle:
    """A circle."""

    cx: float
    cy: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Arc:
    """A circular arc from ``start`` to ``end`` (radians, clockwise on screen)."""

    cx: float
    cy: float
    r: float
    start: float
    end: float
    stroke: str = "#000"
    width: float = 1.0
    fill: str | None = None


@dataclass(frozen=True)
class Line:
    """An open polyline."""

    points: tuple[Point, ...]
    stroke: str = "#000"
    width: float = 1.0
    dash: tuple[float, ...] = ()


@dataclass(frozen=True)
class Polygon:
    """A closed polygon."""

    points: tuple[Point, ...]
    fill: str | None = None
    stroke: str | None = None
    width: float = 1.0


@dataclass(frozen=True)
class Text:
    """Text anchored at ``(x, y)``."""

    x: float
    y: float
    text: str
    size: float = 14.0
    fill: str = "#000"
    align: Literal["left", "center", "right"] = "center"
    baseline: Literal["top", "middle", "bottom", "alphabetic"] = "middle"
    bold: bool = False
    font: str = "sans-serif"

    @property
    def css_font(self) -> str:
        """The CSS font shorthand, e.g. ``'bold 14px sans-serif'``."""
        return f"{'bold ' if self.bold else ''}{self.size:g}px {self.font}"


Shape = Union[Rect, Circle, Arc, Line, Polygon, Text]


@dataclass(frozen=True)
class Region:
    """A clickable area with the key a click on it means."""

    key: Hashable
    kind: Literal["rect", "circle", "polygon"]
    geometry: tuple[float, ...] | tuple[Point, ...]

    def contains(self, x: float, y: float) -> bool:
        """Whether the point lies inside the region."""
        g = self.geometry
        if self.kind == "rect":
            rx, ry, rw, rh = g  # type: ignore[misc]
            return rx <= x <= rx + rw and ry <= y <= ry + rh
        if self.kind == "circle":
            cx, cy, r = g  # type: ignore[misc]
            return (x - cx) ** 2 + (y - cy) ** 2 <= r * r
        return _inside(x, y, g)  # type: ignore[arg-type]

    def center(self) -> Point:
        """A point inside the region (for tests and for simulated clicks)."""
        g = self.geometry
        if self.kind == "rect":
            rx, ry, rw, rh = g  # type: ignore[misc]
            return (rx + rw / 2, ry + rh / 2)
        if self.kind == "circle":
            return (g[0], g[1])  # type: ignore[return-value]
        pts = g  # type: ignore[assignment]
        return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))  # type: ignore[index]


def _inside(x: float, y: float, pts: Sequence[Point]) -> bool:
    inside = False
    j = len(pts) - 1
    for i in range(len(pts)):
        xi, yi = pts[i]
        xj, yj = pts[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


@dataclass
class Drawing:
    """Shapes on three layers plus click regions; built by a game's ``draw``."""

    width: int
    height: int
    background: str = "#ffffff"
    layers: dict[str, list[Shape]] = field(
        default_factory=lambda: {name: [] for name in LAYERS})
    regions: list[Region] = field(default_factory=list)
    title: str = ""
    #: Where a note about a seat may be written (left edge, middle), beside its name:
    #: the shell marks the seats bots play there.
    seat_labels: dict[int, Point] = field(default_factory=dict)

    def __repr__(self) -> str:
        """Short: a notebook shows the picture, and this text only where it cannot
        (every shape's numbers would fill a saved notebook and a screen reader's time).

        >>> d = Drawing(200, 100, title="a board"); d.rect(0, 0, 10, 10, key="a1")
        >>> d
        Drawing(200×100, 'a board', 1 shape, 1 click region)
        """
        shapes = sum(len(layer) for layer in self.layers.values())
        return (f"Drawing({self.width}×{self.height}, {self.title!r}, {shapes} shape"
                f"{'' if shapes == 1 else 's'}, {len(self.regions)} click region"
                f"{'' if len(self.regions) == 1 else 's'})")

    # --- adding shapes -----------------------------------------------------
    def add(self, shape: Shape, layer: Layer = "pieces") -> None:
        """Add a shape to a layer."""
        self.layers[layer].append(shape)

    def rect(self, x: float, y: float, w: float, h: float, *, fill: str | None = None,
             stroke: str | None = None, width: float = 1.0, radius: float = 0.0,
             dash: tuple[float, ...] = (), layer: Layer = "pieces",
             key: Hashable | None = None) -> None:
        """Add a rectangle (and a click region if ``key`` is given)."""
        self.add(Rect(x, y, w, h, fill, stroke, width, radius, dash), layer)
        if key is not None:
            self.regions.append(Region(key, "rect", (x, y, w, h)))

    def circle(self, cx: float, cy: float, r: float, *, fill: str | None = None,
               stroke: str | None = None, width: float = 1.0, dash: tuple[float, ...] = (),
               layer: Layer = "pieces", key: Hashable | None = None) -> None:
        """Add a circle (and a click region if ``key`` is given)."""
        self.add(Circle(cx, cy, r, fill, stroke, width, dash), layer)
        if key is not None:
            self.regions.append(Region(key, "circle", (cx, cy, r)))

    def arc(self, cx: float, cy: float, r: float, start: float, end: float, *,
            stroke: str = "#000", width: float = 1.0, fill: str | None = None,
            layer: Layer = "pieces") -> None:
        """Add an arc (angles in radians)."""
        self.add(Arc(cx, cy, r, start, end, stroke, width, fill), layer)

    def line(self, points: Iterable[Point], *, stroke: str = "#000", width: float = 1.0,
             dash: tuple[float, ...] = (), layer: Layer = "pieces") -> None:
        """Add an open polyline."""
        self.add(Line(tuple((float(x), float(y)) for x, y in points), stroke, width, dash),
                 layer)

    def polygon(self, points: Iterable[Point], *, fill: str | None = None,
                stroke: str | None = None, width: float = 1.0, layer: Layer = "pieces",
                key: Hashable | None = None) -> None:
        """Add a closed polygon (and a click region if ``key`` is given)."""
        pts = tuple((float(x), float(y)) for x, y in points)
        self.add(Polygon(pts, fill, stroke, width), layer)
        if key is not None:
            self.regions.append(Region(key, "polygon", pts))

    def text(self, x: float, y: float, text: str, *, size: float = 14.0, fill: str = "#000",
             align: Literal["left", "center", "right"] = "center",
             baseline: Literal["top", "middle", "bottom", "alphabetic"] = "middle",
             bold: bool = False, layer: Layer = "pieces") -> None:
        """Add text."""
        self.add(Text(x, y, text, size, fill, align, baseline, bold), layer)

    def seat_label(self, seat: int, x: float, y: float) -> None:
        """Say where a note about ``seat`` fits: a label ``3.1 × 1.6`` times the game's
        ``TEXT_MIN`` (the shell's "BOT"), from ``(x, y - 0.8 TEXT_MIN)``."""
        self.seat_labels[seat] = (float(x), float(y))

    def region(self, key: Hashable, x: float, y: float, w: float, h: float) -> None:
        """Add an invisible rectangular click region."""
        self.regions.append(Region(key, "rect", (x, y, w, h)))

    # --- reading -----------------------------------------------------------
    def hit(self, x: float, y: float) -> Hashable | None:
        """The key of the topmost region containing the point, or None."""
        for region in reversed(self.regions):
            if region.contains(x, y):
                return region.key
        return None

    def find(self, key: Hashable) -> Region | None:
        """The region with this key, if any."""
        for region in self.regions:
            if region.key == key:
                return region
        return None

    def texts(self) -> list[str]:
        """Every text drawn, in order (handy in tests)."""
        return [s.text for layer in LAYERS for s in self.layers[layer]
                if isinstance(s, Text)]

    def _repr_svg_(self) -> str:
        from .svg import render_svg
        return render_svg(self)


@dataclass(frozen=True)
class Click:
    """What a click on the canvas means, as a game's ``click()`` returns it.

    Either a new ``selection`` (a step of a move being put together, such as a
    die chosen for pick-up), or a ``move`` to play (notation; the shell checks
    it and, if it is refused, shows the rule that refuses it), or ``step``: let
    chance act, as the step button does (a "lay the tiles" or "deal" button on
    the canvas), or just a ``message`` for the status line.
    """

    selection: Hashable = None
    move: str | None = None
    message: str | None = None
    step: bool = False


#: Colour of highlights (with a dashed outline, so it is not colour alone).
HIGHLIGHT = "#ff9f1c"


def outline_regions(d: Drawing, keys: Iterable[Hashable], *, colour: str = HIGHLIGHT,
                    width: float = 4.0, pad: float = 4.0) -> None:
    """Draw a thick dashed outline around the regions of ``keys`` on the highlight layer."""
    wanted = list(keys)
    for region in d.regions:
        if region.key not in wanted:
            continue
        g = region.geometry
        if region.kind == "rect":
            x, y, w, h = g  # type: ignore[misc]
            d.rect(x - pad, y - pad, w + 2 * pad, h + 2 * pad, stroke=colour, width=width,
                   radius=6, dash=(8, 4), layer="highlight")
        elif region.kind == "circle":
            cx, cy, r = g  # type: ignore[misc]
            d.circle(cx, cy, r + pad, stroke=colour, width=width, dash=(8, 4),
                     layer="highlight")
        else:
            d.polygon(g, stroke=colour, width=width, layer="highlight")  # type: ignore[arg-type]


# --- seat styles: colour AND a shape and a letter -----------------------------
@dataclass(frozen=True)
class SeatStyle:
    """How a seat is drawn: a colour, a shape and its letter, so colour is never
    the only cue."""

    colour: str
    light: str
    shape: Literal["circle", "square", "triangle", "diamond", "hexagon", "star"]
    letter: str


SEAT_STYLES = (
    SeatStyle("#1f77b4", "#c6dbef", "circle", "A"),
    SeatStyle("#d62728", "#f7c6c5", "square", "B"),
    SeatStyle("#2ca02c", "#c7e9c0", "triangle", "C"),
    SeatStyle("#9467bd", "#dadaeb", "diamond", "D"),
    SeatStyle("#ff7f0e", "#fdd0a2", "hexagon", "E"),
    SeatStyle("#8c564b", "#e7cbc0", "star", "F"),
)


def seat_marker(d: Drawing, seat: int, cx: float, cy: float, r: float, *,
                layer: Layer = "pieces", filled: bool = True) -> None:
    """Draw a seat's marker: its shape in its colour with its letter on it, the letter
    ``1.2 r`` high in every shape (a triangle is drawn larger and a little lower, so that
    its letter fits).

    >>> d = Drawing(40, 40); seat_marker(d, 2, 20, 20, 10)
    >>> [(type(s).__name__, round(getattr(s, "size", 0), 1)) for s in d.layers["pieces"]]
    [('Polygon', 0), ('Text', 12.0)]
    """
    style = SEAT_STYLES[seat]
    fill = style.colour if filled else style.light
    ink = "#ffffff" if filled else "#000000"
    dy = 0.0
    if style.shape == "circle":
        d.circle(cx, cy, r, fill=fill, stroke="#222", layer=layer)
    elif style.shape == "square":
        d.rect(cx - r * 0.9, cy - r * 0.9, 1.8 * r, 1.8 * r, fill=fill, stroke="#222",
               layer=layer)
    elif style.shape == "triangle":
        d.polygon(shape_points("triangle", cx, cy + 0.2 * r, 1.26 * r), fill=fill,
                  stroke="#222", layer=layer)
        dy = 0.32 * r
    else:
        d.polygon(shape_points(style.shape, cx, cy, r), fill=fill, stroke="#222", layer=layer)
    d.text(cx, cy + dy, style.letter, size=1.2 * r, fill=ink, bold=True, layer=layer)


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[Point]:
    """Corner points of a regular marker shape."""
    if shape == "triangle":
        angles, radii = [-90, 30, 150], [r * 1.15] * 3
    elif shape == "diamond":
        angles, radii = [-90, 0, 90, 180], [r * 1.1] * 4
    elif shape == "hexagon":
        angles, radii = [0, 60, 120, 180, 240, 300], [r] * 6
    elif shape == "star":
        angles = [-90 + 36 * i for i in range(10)]
        radii = [r * 1.15 if i % 2 == 0 else r * 0.55 for i in range(10)]
    else:
        raise ValueError(f"unknown shape {shape!r}")
    return [(cx + rad * math.cos(math.radians(a)), cy + rad * math.sin(math.radians(a)))
            for a, rad in zip(angles, radii)]

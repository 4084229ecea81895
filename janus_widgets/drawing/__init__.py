"""Drawings: what every game's ``draw.py`` returns, and their SVG form.

This package sits below the games and below :mod:`janus_widgets.core` and imports
neither (the standard library only), as pgx keeps its drawing (``_src/dwg``) apart
from its rules: a game's ``draw.py`` and ``State._repr_svg_`` import it downward, and
the widget shell (:mod:`janus_widgets.widgets`) paints the same values on a canvas.

* :mod:`~janus_widgets.drawing.shapes`: :class:`Drawing` (shapes on three layers and
  click regions), :class:`Click` (what a click means), the seat styles.
* :mod:`~janus_widgets.drawing.svg`: :func:`render_svg`, a drawing as an SVG picture.

>>> d = Drawing(100, 50)
>>> d.rect(10, 10, 30, 30, fill="#eee", stroke="#333", key=("die", 0))
>>> d.text(25, 25, "A", size=12)
>>> d.hit(20, 20), d.hit(90, 40)
(('die', 0), None)
>>> render_svg(d).startswith('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"')
True
"""

from __future__ import annotations

from .shapes import (HIGHLIGHT, LAYERS, SEAT_STYLES, Arc, Circle, Click, Drawing, Layer, Line,
                     Point, Polygon, Rect, Region, SeatStyle, Shape, Text, outline_regions,
                     seat_marker, shape_points)
from .panels import Action, Panel
from .svg import render_svg, shape_svg, svg_body

__all__ = ["Rect", "Circle", "Line", "Polygon", "Text", "Arc", "Shape", "Region", "Drawing",
           "LAYERS", "Layer", "Point", "render_svg", "svg_body", "shape_svg", "SEAT_STYLES",
           "SeatStyle", "Click", "outline_regions", "seat_marker", "shape_points", "HIGHLIGHT",
           "Panel", "Action"]

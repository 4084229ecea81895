"""The stage: the game's canvas, scaled to the space it has, and what sits right under it.

A :class:`Stage` paints :class:`~janus_widgets.drawing.Drawing` values on an
ipycanvas ``MultiCanvas`` (board, pieces and highlight layers), each frame one
``hold_canvas`` batch, that is one message to the browser. It is the column of the
widget that must fit a classroom screen: the canvas, then the step bar and the status
line the shell puts under it (:meth:`Stage.set_below`).

The canvas keeps the drawing's own coordinates and is scaled by the browser: its
column is as wide as the drawing, but never wider than the output area and never so
tall that the step bar and the status line under it leave a screen of ``100vh`` (less
the notebook's own bars, :data:`RESERVE`). ipycanvas reports mouse positions in canvas
pixels (through the element's on-screen rectangle), so a click on a scaled canvas
still means the region drawn there. *Big* mode (projectors) fills the width of the
output area, past the drawing's size, as far as the whole canvas still fits on one
screen (``100vh`` less the notebook's bars, :data:`RESERVE_BIG`; the step bar follows
under it), painted at :data:`BIG` times the resolution so it stays sharp.

>>> from janus_widgets.drawing import Drawing
>>> d = Drawing(200, 100)
>>> d.rect(0, 0, 100, 100, fill="#c00", key="left")
>>> clicks = []
>>> stage = Stage(d, on_click=lambda x, y: clicks.append(d.hit(x, y)))
>>> stage.show(d)
>>> stage.frames, stage.canvas.width
(1, 200)
>>> stage.set_big(True); stage.canvas.width, stage.frames      # sharper, one more frame
(400, 2)
>>> stage.mouse_down(40, 40)           # canvas pixels: (20, 20) in the drawing
>>> clicks
['left']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as W
from ipycanvas import MultiCanvas, hold_canvas

from .canvas import Painter, dirty_rects
from ..drawing import LAYERS, Drawing

__all__ = ["Stage", "RESERVE", "RESERVE_BIG", "BIG", "MIN_WIDTH"]

#: Pixels of the screen's height kept for what is not the canvas: the notebook's bars
#: (JupyterLab's menu, tabs, toolbar and status bar, about 125 px) and the widget's
#: heading, step bar and a status line of up to four lines, about 175 px.
RESERVE = 300
#: In big mode, the pixels of the screen's height kept for the notebook's own bars
#: (JupyterLab's): the whole canvas fits on one screen, the step bar comes after it.
RESERVE_BIG = 125
#: Canvas pixels per drawing unit in big mode (the canvas is shown up to about twice the
#: drawing's size on a 1920-pixel screen and stays sharp).
BIG = 2.0
#: The narrowest the canvas column gets (the step bar stays on one row).
MIN_WIDTH = 600


class Stage:
    """The canvas column: paints drawings, scales to its space, turns clicks into
    drawing coordinates for ``on_click(x, y)``."""

    def __init__(self, drawing: Drawing, *, on_click: Callable[[float, float], None],
                 on_ready: Callable[[], None] | None = None) -> None:
        self.big = False
        self.frames = 0                     # frames painted (one message each)
        self._resolution = 1.0
        self._unscale = False
        self._drawing = drawing
        self._painted: list[list | None] = [None] * len(LAYERS)   # what each layer shows
        self._on_click = on_click
        self.canvas = MultiCanvas(len(LAYERS), width=drawing.width, height=drawing.height,
                                  layout=W.Layout(width="100%", height="auto"))
        self.canvas.add_class("janus-canvas")
        self._painters = [Painter(self.canvas[i]) for i in range(len(LAYERS))]
        self.canvas.on_mouse_down(lambda x, y: self.mouse_down(x, y))
        ready = on_ready or self.repaint
        self.canvas.on_client_ready(ready)
        self.widget = W.VBox([self.canvas], layout=W.Layout(flex="0 1 auto", max_width="100%"))
        self.widget.add_class("janus-stage")
        self._fit()

    # ------------------------------------------------------------------ reading
    @property
    def drawing(self) -> Drawing:
        """The drawing last painted."""
        return self._drawing

    @property
    def resolution(self) -> float:
        """Canvas pixels per drawing unit (1, or :data:`BIG` in big mode)."""
        return self._resolution

    def width_css(self) -> str:
        """The column's CSS width. Normally the drawing's width at most, and at most what
        leaves room for the step bar and the status line on the screen (never under
        :data:`MIN_WIDTH`, where the drawing is as wide). Big: the output area's whole
        width, at most what keeps the canvas on one screen.

        >>> from janus_widgets.drawing import Drawing
        >>> stage = Stage(Drawing(900, 600), on_click=print)
        >>> stage.width_css()
        'max(min(600px, 900px), min(900px, calc((100vh - 300px) * 1.5000)))'
        >>> stage.set_big(True); stage.width_css()
        'max(min(600px, 100%), min(100%, calc((100vh - 125px) * 1.5000)))'
        """
        d = self._drawing
        ratio = d.width / d.height
        if self.big:
            return (f"max(min({MIN_WIDTH}px, 100%), min(100%, "
                    f"calc((100vh - {RESERVE_BIG}px) * {ratio:.4f})))")
        return (f"max(min({MIN_WIDTH}px, {d.width}px), min({d.width}px, "
                f"calc((100vh - {RESERVE}px) * {ratio:.4f})))")

    # ------------------------------------------------------------------ showing
    def set_below(self, widgets: Sequence[W.Widget]) -> None:
        """The widgets under the canvas, in its column (the step bar, the status line)."""
        self.widget.children = [self.canvas, *widgets]

    def set_big(self, on: bool) -> None:
        """Big mode for projectors: a larger, sharper canvas (repainted at once)."""
        if bool(on) == self.big:
            return
        self.big = bool(on)
        self._fit()
        self.show(self._drawing, board=True)

    def show(self, drawing: Drawing, board: bool = False) -> None:
        """Paint ``drawing``: one ``hold_canvas`` batch, one message. Each layer is
        painted again only where it changed (everything when ``board``, or when much
        changed); a layer that did not change sends nothing."""
        resolution = BIG if self.big else 1.0
        size = (round(drawing.width * resolution), round(drawing.height * resolution))
        resized = (drawing.width, drawing.height) != (self._drawing.width,
                                                      self._drawing.height)
        self._drawing = drawing
        if resized:
            self._fit()
        if size != (self.canvas.width, self.canvas.height) or resolution != self._resolution:
            self.canvas.width, self.canvas.height = size
            self._unscale = self._resolution != 1.0 and resolution == 1.0
            self._resolution = resolution
            board = True
        with hold_canvas():
            for index, name in enumerate(LAYERS):
                shapes = drawing.layers[name]
                before = self._painted[index]
                background = drawing.background if index == 0 else None
                rects = None
                # Repainting a part is exact when a drawing unit is a whole number of
                # canvas pixels (1, or BIG = 2): the clipped edges fall between pixels.
                if not board and before is not None and float(self._resolution).is_integer():
                    rects = dirty_rects(before, shapes, drawing.width, drawing.height)
                if rects is None:
                    self._paint_layer(index, drawing, background=background)
                elif rects:
                    self._painters[index].repaint(shapes, rects, background)
                self._painted[index] = list(shapes)
        self.frames += 1

    def repaint(self) -> None:
        """Paint everything again (a browser view connected: a JupyterLab tab, Voila)."""
        self.show(self._drawing, board=True)

    def mouse_down(self, x: float, y: float) -> None:
        """A press at canvas pixel ``(x, y)`` (as ipycanvas reports it)."""
        self._on_click(x / self._resolution, y / self._resolution)

    # ------------------------------------------------------------------ inside
    def _fit(self) -> None:
        self.widget.layout.width = self.width_css()

    def _paint_layer(self, index: int, d: Drawing, background: str | None = None) -> None:
        painter = self._painters[index]
        layer = self.canvas[index]
        if self._resolution != 1.0:
            # The frame's first command, so every view of the layer (a browser tab
            # that connects later too) paints at the same scale.
            layer.set_transform(self._resolution, 0, 0, self._resolution, 0, 0)
        elif self._unscale:
            layer.reset_transform()
        painter.clear(background)
        painter.paint(d.layers[LAYERS[index]])
        if index == len(LAYERS) - 1:
            self._unscale = False

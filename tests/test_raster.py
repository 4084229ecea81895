"""The rasteriser paints every shape of a drawing where the drawing puts it."""

from __future__ import annotations

import math

import numpy as np
import pytest

try:
    import matplotlib  # noqa: F401
except ImportError:  # pragma: no cover - the test extra installs it
    pytest.fail("matplotlib is needed: pip install -e '.[test]'", pytrace=False)

from janus_widgets import games  # noqa: E402
from janus_widgets.drawing import Drawing  # noqa: E402
from janus_widgets.widgets.raster import rasterise, to_rgba  # noqa: E402

WHITE = [255, 255, 255]
RED = [255, 0, 0]
BLUE = [0, 0, 255]


def close(pixel, colour, tol=8) -> bool:
    return all(abs(int(a) - b) <= tol for a, b in zip(pixel, colour))


def test_image_size_follows_the_drawing_and_the_scale():
    d = Drawing(123, 45)
    assert rasterise(d).shape == (45, 123, 3)
    assert rasterise(d, scale=2).shape == (90, 246, 3)
    assert rasterise(d, scale=0.5).shape == (22, 62, 3)
    with pytest.raises(ValueError, match="scale"):
        rasterise(d, scale=0)


def test_rectangles_rounded_corners_and_background():
    d = Drawing(100, 60, background="#00ff00")
    d.rect(10, 10, 40, 40, fill="#ff0000")
    d.rect(60, 10, 30, 40, fill="#0000ff", radius=12)
    img = rasterise(d)
    assert close(img[30, 30], RED) and close(img[5, 5], [0, 255, 0])
    assert close(img[30, 75], BLUE)
    assert close(img[11, 61], [0, 255, 0])               # the rounded corner is cut
    assert close(img[30, 61], BLUE)                      # the straight side is not


def test_circles_polygons_and_y_pointing_down():
    d = Drawing(100, 100)
    d.circle(25, 25, 15, fill="#ff0000")
    d.polygon([(60, 10), (90, 10), (60, 40)], fill="#0000ff")   # a corner at the top left
    img = rasterise(d)
    assert close(img[25, 25], RED) and close(img[25, 38], RED)
    assert close(img[12, 12], WHITE)                     # inside the box, outside the disc
    assert close(img[15, 65], BLUE)                      # near the right angle
    assert close(img[35, 85], WHITE)                     # the other half of the square
    assert close(img[80, 80], WHITE)


def test_strokes_dashes_and_widths():
    d = Drawing(200, 40)
    d.line([(10, 10), (190, 10)], stroke="#ff0000", width=4)
    d.line([(10, 30), (190, 30)], stroke="#0000ff", width=4, dash=(10, 10))
    img = rasterise(d)
    solid = [close(img[10, x], RED) for x in range(12, 188)]
    dashed = [close(img[30, x], BLUE) for x in range(12, 188)]
    assert all(solid)
    assert 0.35 < sum(dashed) / len(dashed) < 0.65      # about half on, half off
    assert close(img[20, 100], WHITE)                    # between the two lines


def test_arcs_go_clockwise_on_screen_from_start_to_end():
    d = Drawing(100, 100)
    # From 0 (right) to pi/2: clockwise on screen, through the lower right.
    d.arc(50, 50, 30, 0.0, math.pi / 2, stroke="#ff0000", width=4)
    img = rasterise(d)
    x, y = 50 + 30 * math.cos(math.pi / 4), 50 + 30 * math.sin(math.pi / 4)
    assert close(img[round(y), round(x)], RED, tol=60)
    assert close(img[round(100 - y), round(x)], WHITE)   # not through the upper right


def test_text_is_painted_at_its_anchor():
    d = Drawing(200, 60)
    d.text(100, 30, "WWWW", size=20, fill="#000000", align="right")
    img = rasterise(d)
    ink = np.argwhere(img.sum(axis=2) < 300)
    assert len(ink) > 50
    assert 95 <= ink[:, 1].max() <= 101                    # right-aligned: ends at x=100
    assert 10 < ink[:, 1].min() < 60                       # four wide letters to its left
    assert 20 <= ink[:, 0].min() and ink[:, 0].max() <= 40  # centred on y=30


def test_layers_paint_board_then_pieces_then_highlight():
    d = Drawing(50, 50)
    d.rect(0, 0, 50, 50, fill="#0000ff", layer="highlight")
    d.rect(0, 0, 50, 50, fill="#ff0000", layer="board")
    assert close(rasterise(d)[25, 25], BLUE)


def test_css_colours():
    assert to_rgba("#fff") == (1.0, 1.0, 1.0, 1.0)
    assert to_rgba("white") == (1.0, 1.0, 1.0, 1.0)
    assert to_rgba("rgb(255, 0, 0)") == (1.0, 0.0, 0.0, 1.0)
    assert to_rgba(None) is None and to_rgba("transparent") is None
    d = Drawing(20, 20)
    d.rect(0, 0, 20, 20, fill="rgba(0, 0, 0, 0.5)")
    assert close(rasterise(d)[10, 10], [128, 128, 128], tol=2)


@pytest.mark.parametrize("name", games.names())
def test_every_game_drawing_rasterises(name):
    try:
        games.get(name).board()
    except ModuleNotFoundError:
        pytest.xfail(f"{name}: its canvas (draw.py) is not built yet")
    game = games.get(name)
    state = game.new(seed=1)
    while state.is_chance:
        state = state.play_chance()
    drawing = game.draw(state.view(state.current_player if name == "janus-cards" else None))
    image = rasterise(drawing)
    assert image.shape == (drawing.height, drawing.width, 3)
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 50

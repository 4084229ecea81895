"""The Janus canvas in JupyterLab, in headless Chromium: drawn, clicked, checked by pixels.

The notebook ``janus.ipynb`` is opened and run; its first widget is then driven like a
person would: the empty board, "Lay the tiles", a click on a legal field, a click on a
refused one. After each step the canvas pixels are compared with the kernel's state
(tile colours field by field, the columns' rings) and the kernel's state with the clicks.
"""

from __future__ import annotations

import json

import pytest

from browser_support import (rgb, screenshot_widget, click_canvas, kernel, open_lab_notebook, picture,
                             run_all_cells, wait_painted, wait_picture_change, widget_status)

pytestmark = pytest.mark.browser

#: Points inside a tile (from its top-left corner) clear of its arrows, letter, distance,
#: head and payment circle: most of them show the plain tile colour.
FACE_POINTS = ((14, 6.5), (34, 6.5), (6.5, 14), (6.5, 34), (41.5, 14), (41.5, 34),
               (14, 41.5), (34, 41.5))

#: Many canvas pixels at once (one round trip): [[x, y], ...] → [[r, g, b], ...].
PIXELS_JS = """
([index, points]) => {
  const c = document.querySelectorAll('.janus-canvas')[index];
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  return points.map(([x, y]) => {
    const i = 4 * (Math.floor(y) * c.width + Math.floor(x));
    return [data[i], data[i + 1], data[i + 2]];
  });
}
"""


def board_in_kernel(page) -> dict:
    """The state the kernel's widget shows: tile colours by field, columns, phase."""
    code = ("import json; s = game.state; print(json.dumps({'tiles': [t.colour if t else None "
            "for t in s.tiles], 'columns': list(s.columns), 'phase': s.phase, 'index': "
            "game.index, 'targets': list(s.targets)}))")
    return json.loads(kernel(page, code))


def check_board_pixels(page, board: dict) -> None:
    """Every tile shows its colour, every empty field none, every column its ring."""
    from janus_widgets.games.janus.draw import (INSET, RING, SEAT_STYLES, TILE_FILL,
                                                field_centre, field_origin)
    points = []
    for f in range(100):
        x, y = field_origin(f)
        points.extend((x + INSET + a, y + INSET + b) for a, b in FACE_POINTS)
    for f in board["columns"]:
        cx, cy = field_centre(f)
        points.append((cx + RING - 3.5, cy))
    pixels = [tuple(p) for p in page.evaluate(PIXELS_JS, [0, points])]
    tile_colours = {rgb(c): name for name, c in TILE_FILL.items()}
    for f, colour in enumerate(board["tiles"]):
        seen = pixels[8 * f: 8 * f + 8]
        if f in board["columns"]:
            continue                                    # its ring covers those points
        if colour is None:
            assert not any(p in tile_colours for p in seen), (f, seen)
        else:
            matches = sum(p == rgb(TILE_FILL[colour]) for p in seen)
            assert matches >= 6, (f, colour, seen)
    for seat, f in enumerate(board["columns"]):
        assert pixels[800 + seat] == rgb(SEAT_STYLES[seat].colour), (seat, f)


def test_janus_canvas_in_jupyterlab(lab, page):
    from janus_widgets.games.janus.draw import button_box, field_centre
    base, _ = lab
    open_lab_notebook(page, base, "janus.ipynb")
    run_all_cells(page)
    wait_painted(page, 0)

    # A new game: the empty board and its "Lay the tiles" button.
    before = picture(page)
    kernel(page, "game.new_game(seed=5)")
    wait_picture_change(page, before)
    board = board_in_kernel(page)
    assert board["phase"] == "shuffle" and board["tiles"] == [None] * 100
    check_board_pixels(page, board)
    assert "Lay the tiles" in kernel(page, "print(game.drawing.title)")

    # Click "Lay the tiles": chance lays the tiles and they appear where the kernel has them.
    empty = picture(page)
    x, y, w, h = button_box(len(board["columns"]))
    click_canvas(page, x + w / 2, y + h / 2)
    wait_picture_change(page, empty)
    page.wait_for_timeout(150)
    board = board_in_kernel(page)
    assert board["phase"] == "move" and board["index"] == 1
    assert None not in board["tiles"]
    check_board_pixels(page, board)

    # A click on a framed (legal) field plays the move: the column moves, its tile goes.
    start = board["columns"][0]
    target = board["targets"][0]
    shown = picture(page)
    click_canvas(page, *field_centre(target))
    wait_picture_change(page, shown)
    page.wait_for_timeout(150)
    board = board_in_kernel(page)
    assert board["index"] == 2 and board["columns"][0] == target
    assert board["tiles"][start] is None                  # the tile A left is gone
    check_board_pixels(page, board)

    # A click on a field the tile does not allow: refused, its rule in the status line.
    wrong = int(kernel(page, "s = game.state; print(next(f for f in range(100) if f not in "
                             "s.targets and f not in s.columns))"))
    rule = kernel(page, "from janus_widgets.games.janus.components import field_name; "
                        f"print(game.state.explain(field_name({wrong})).rule)").strip()
    assert rule.startswith("JB-")
    click_canvas(page, *field_centre(wrong))
    page.wait_for_function(
        "(rule) => document.querySelector('.janus-widget .janus-status').innerText"
        ".includes(rule)", arg=rule)
    status = widget_status(page)
    assert rule in status and "Refused" in status
    assert board_in_kernel(page) == board                  # nothing changed in the kernel
    assert kernel(page, "print(game.errors)").strip() == "[]"
    census = page.locator(".janus-widget .janus-census").first.inner_text()
    assert "Tiles left 99" in census

    screenshot_widget(page, "janus-widget.png")
    assert not [e for e in page.errors if "setAttr" in e], page.errors

"""Big is bigger and nothing is cut (issue 25), in headless Chromium: every game, in
JupyterLab (the file browser open, as on a classroom laptop) and in Voila, at 1366×768
and 1920×1080, with Big off and on.

One page per environment holds a widget of each game; the viewport is resized and Big
toggled in that same page (no new server or page per case). In every case:

* no control of a widget (button, menu, box, slider, list, the canvas, the status line,
  the moves panel) leaves the widget's output area, left or right, top or bottom;
* the game's smallest text (its draw module's ``TEXT_MIN``, which
  ``test_drawings_legible`` checks every label keeps to) is at least 10 px on screen,
  and at least 14 px with Big;
* with Big the canvas fills the output area's width, as far as the whole canvas still
  fits on the screen, and is never smaller than without Big; the step bar's move slider
  is no narrower than without Big.

In JupyterLab the mouse moving over a canvas sends nothing to the kernel (only a press
does), and a click still plays; with Big, repainting only what a move changed gives the
very picture a whole repaint gives.
"""

from __future__ import annotations

import pytest

from janus_widgets import games
from janus_widgets.widgets.stage import BIG, RESERVE_BIG

from browser_support import (ALL_GAMES, click_canvas, kernel, open_lab_notebook, picture,
                             run_all_cells, SIZES, voila_page, wait_painted,
                             wait_picture_change, widgets_notebook)

pytestmark = pytest.mark.browser

#: The widgets of the page, in order: (variable, game, options).
WIDGETS = ALL_GAMES
#: The smallest text on screen, in CSS pixels: without Big, and with Big.
SMALLEST = {False: 10.0, True: 14.0}

#: Where the parts of the index-th widget are, and every visible control that leaves the
#: widget's output area.
MEASURE_JS = """
(index) => {
  const w = document.querySelectorAll('.janus-widget')[index];
  const out = w.closest('.jp-OutputArea-output');
  const o = out.getBoundingClientRect();
  const canvas = w.querySelector('canvas.janus-canvas');
  const c = canvas.getBoundingClientRect();
  const slider = w.querySelector('.janus-stepbar .slider-container')
                 || w.querySelector('.janus-stepbar .widget-slider');
  const outside = [];
  let checked = 0;
  const controls = w.querySelectorAll(
      'button, select, input, textarea, canvas, label, .widget-slider, .widget-select, '
      + '.widget-radio-box, .janus-status, .janus-side, .janus-stepbar, .widget-tab');
  for (const el of controls) {
    if (el.offsetParent === null) continue;                  // not shown (another tab)
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    checked++;
    if (r.left < o.left - 0.5 || r.right > o.right + 0.5 || r.top < o.top - 0.5
        || r.bottom > o.bottom + 0.5) {
      const name = (el.title || el.textContent || el.className || el.tagName).trim();
      outside.push(`${el.tagName} "${name.slice(0, 40)}" ${Math.round(r.left)}–`
                   + `${Math.round(r.right)} (output ${Math.round(o.left)}–`
                   + `${Math.round(o.right)})`);
    }
  }
  return {output: o.width, canvasWidth: c.width, canvasHeight: c.height,
          pixels: canvas.width, slider: slider ? slider.getBoundingClientRect().width : 0,
          big: w.classList.contains('janus-big'), innerHeight, outside, checked};
}
"""


#: Keep the index-th canvas' pixels (for :data:`DIFFERENT_JS`).
SNAPSHOT_JS = """
(index) => {
  const c = document.querySelectorAll('.janus-canvas')[index];
  window.__snapshot = c.getContext('2d').getImageData(0, 0, c.width, c.height).data.slice();
}
"""
#: ``[pixels that differ from the snapshot, pixels]`` of the index-th canvas.
DIFFERENT_JS = """
(index) => {
  const c = document.querySelectorAll('.janus-canvas')[index];
  const now = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const then = window.__snapshot;
  let differ = 0;
  for (let i = 0; i < now.length; i += 4) {
    if (now[i] !== then[i] || now[i + 1] !== then[i + 1] || now[i + 2] !== then[i + 2]) differ++;
  }
  return [differ, now.length / 4];
}
"""


def screen_notebook(folder) -> str:
    return widgets_notebook(folder, "screen.ipynb")


def set_big(page, on: bool) -> None:
    """Press Big where it is not as wanted; wait for the repainted, sharper canvases."""
    for index in range(len(WIDGETS)):
        widget = page.locator(".janus-widget").nth(index)
        if widget.evaluate("w => w.classList.contains('janus-big')") != on:
            widget.get_by_role("button", name="Big").click()
    page.wait_for_function(
        """([on, big]) => [...document.querySelectorAll('.janus-widget')].every(w => {
             const c = w.querySelector('canvas.janus-canvas');
             return w.classList.contains('janus-big') === on
                    && (c.width % (on ? big : 1)) === 0 && c.width > 0;
           })""", arg=[on, BIG])
    page.wait_for_timeout(300)            # the canvas' new resolution, then the layout


def check_screen(page, label: str) -> None:
    """Every case of this environment: both sizes, Big off then on (see the module)."""
    normal: dict[tuple[int, str], dict] = {}
    for big in (False, True):
        set_big(page, big)
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(300)
            for index, (var, game, _) in enumerate(WIDGETS):
                case = f"{label} {width}×{height} {'big' if big else 'normal'} {var}"
                page.locator(".janus-widget").nth(index).scroll_into_view_if_needed()
                box = page.evaluate(MEASURE_JS, index)
                assert box["big"] == big, case
                assert box["checked"] >= 15, (case, box["checked"])     # the parts are there
                assert box["outside"] == [], (case, box["outside"])
                units = box["pixels"] / (BIG if big else 1)        # the drawing's width
                scale = box["canvasWidth"] / units                 # CSS px per unit
                smallest = games.get(game).board().TEXT_MIN * scale
                assert smallest >= SMALLEST[big] - 0.01, (case, round(smallest, 2))
                if not big:
                    normal[(width, var)] = box
                    continue
                ratio = box["canvasWidth"] / box["canvasHeight"]
                room = min(box["output"], (box["innerHeight"] - RESERVE_BIG) * ratio)
                assert box["canvasWidth"] >= room - 2, (case, box["canvasWidth"], room)
                before = normal[(width, var)]
                assert box["canvasWidth"] >= before["canvasWidth"] - 1, (case, before, box)
                assert box["slider"] >= before["slider"] - 1, (case, before, box)


def test_big_is_bigger_and_nothing_is_cut_in_jupyterlab(lab, page):
    base, work = lab
    name = screen_notebook(work)
    page.set_viewport_size({"width": 1366, "height": 768})
    open_lab_notebook(page, base, name, file_browser=True)
    run_all_cells(page)
    for index in range(len(WIDGETS)):
        wait_painted(page, index)
    check_screen(page, "JupyterLab")
    # Big repaints only what changed, as the normal canvas does: after the tiles are laid
    # and two moves, the picture is the one a whole repaint gives (but for anti-aliasing
    # where shapes overlap in another order: at most one pixel in 5000, none stale).
    for _ in range(3):
        before = picture(page, 0)
        kernel(page, "janus.step() if janus.state.is_chance else "
                     "janus.play(janus.state.legal_moves()[0])")
        wait_picture_change(page, before, index=0)
    page.wait_for_timeout(300)
    page.evaluate(SNAPSHOT_JS, 0)
    kernel(page, "janus.stage.repaint()")
    page.wait_for_timeout(500)
    differ, total = page.evaluate(DIFFERENT_JS, 0)
    assert differ <= total / 5000, (differ, total)
    set_big(page, False)
    page.set_viewport_size({"width": 1366, "height": 768})
    # The mouse over a canvas sends nothing to the kernel; a press does, and plays.
    kernel(page, "moves, presses = [], []\n"
                 "jactus.stage.canvas.on_mouse_move(lambda x, y: moves.append(1))\n"
                 "jactus.stage.canvas.on_mouse_down(lambda x, y: presses.append(1))")
    x, y = (float(v) for v in kernel(
        page, "print(*jactus.drawing.find(('button', 'throw')).center())").split())
    before = picture(page, 1)
    box = page.locator(".janus-canvas").nth(1).bounding_box()
    for k in range(8):                                  # a path across the canvas
        page.mouse.move(box["x"] + box["width"] * (k + 1) / 10, box["y"] + box["height"] / 2)
    click_canvas(page, x, y, index=1)                   # Throw all five: a move
    wait_picture_change(page, before, index=1)
    assert kernel(page, "print(len(moves), len(presses), jactus.replay.moves[0])").split() \
        == ["0", "1", "r*"]
    assert kernel(page, "print([w.errors for w in (janus, jactus, cards, jinns)])").strip() \
        == "[[], [], [], []]"
    assert not page.errors, page.errors


def test_big_is_bigger_and_nothing_is_cut_in_voila(page, tmp_path):
    with voila_page(page, screen_notebook, tmp_path, len(WIDGETS)):
        check_screen(page, "Voila")
    assert not [e for e in page.errors if "setAttr" in e], page.errors

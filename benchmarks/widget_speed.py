"""Widget figures: Python ms per whole frame, canvas messages per state change, and for every
game the median time from a click on its canvas in the browser to the new pixels.

Run:  python benchmarks/widget_speed.py [--clicks 30] [--no-browser]

The browser part starts JupyterLab on loopback with a scratch notebook holding one
widget of each game, at a classroom size (1366×768, file browser open, so the canvases
are scaled), and in headless Chromium (Debian's, as in the browser tests) clicks each
canvas the way a player does:

* Janus: a framed target field (a move: the column moves, a tile goes);
* Jactus: a die (it is lifted or put back);
* the card game: one of B's cards (selected or not), from A's seat;
* Jinns: a pawn of the tray (placed on the ring: a move).

The time is taken inside the page, from the ``mousedown`` event to the first animation
frame whose canvas pixels differ: what a student waits for. Figures depend on the load
of the machine; say how loaded it was when you quote them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from ipycanvas.canvas import _CANVAS_MANAGER  # noqa: E402

from janus_widgets import games  # noqa: E402
from janus_widgets.core import RandomStream  # noqa: E402
from janus_widgets.widgets import GameWidget  # noqa: E402


def python_side(name: str, repeats: int = 60) -> tuple[float, float]:
    """(ms per redraw, canvas messages per state change) for one game."""
    w = GameWidget(name, seed=1, bot_delay=0)
    stream = RandomStream(2)
    for _ in range(30):                      # get into the game a little
        state = w.state
        if state.is_over:
            break
        if state.is_chance:
            w.step()
        else:
            w.play(stream.choice(state.legal_moves()))
    start = time.perf_counter()
    for _ in range(repeats):
        w._render(board=True)                # a whole frame (a new browser view)
    per_redraw = (time.perf_counter() - start) / repeats * 1000
    sent = []
    original = _CANVAS_MANAGER._send_custom
    _CANVAS_MANAGER._send_custom = lambda c, b=[]: (sent.append(c), original(c, b))  # noqa: B006
    try:
        changes = 0
        for _ in range(20):
            w.back()
            changes += 1
    finally:
        _CANVAS_MANAGER._send_custom = original
    return per_redraw, len(sent) / changes


#: The widgets of the scratch notebook, in page order, and how each is set up.
SETUP = {
    "janus": "janus = jw.widget('janus', seed=1)\njanus.step()\njanus",
    "jactus": "jactus = jw.widget('jactus', seed=1)\njactus.play('r*')\njactus",
    "janus-cards": ("from janus_widgets.games.janus_cards.widget import deal_all\n"
                    "cards = jw.widget('janus-cards', players=3, seed=1, viewpoint=0)\n"
                    "deal_all(cards)\ncards"),
    "jinns": "jinns = jw.widget('jinns', seed=1)\njinns",
}
#: Python (in the kernel) printing the canvas point to click next, for each game.
NEXT_CLICK = {
    "janus": ("from janus_widgets.games.janus.draw import field_centre\n"
              "print(*field_centre(janus.state.targets[0]))"),
    "jactus": "print(*jactus.drawing.find(('die', 0)).center())",
    "janus-cards": "print(*cards.drawing.find(('card', 'B1')).center())",
    "jinns": ("k = jinns.state.legal_moves()[0].action - 256\n"
              "print(*jinns.drawing.find(('tray', k)).center())"),
}

#: Resolves with the milliseconds from the next mousedown on canvas ``index`` to the
#: first animation frame showing different pixels.
PROBE_JS = """
(index) => new Promise((resolve) => {
  const c = document.querySelectorAll('.janus-canvas')[index];
  const ctx = c.getContext('2d');
  const hash = () => {
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let h = 0;
    for (let i = 0; i < d.length; i += 12) h = (h * 31 + d[i] + 3 * d[i + 1] + 7 * d[i + 2]) >>> 0;
    return h;
  };
  const before = hash();
  let t0 = null;
  c.addEventListener('mousedown', () => { t0 = performance.now(); }, {once: true, capture: true});
  const frame = () => {
    if (t0 !== null && hash() !== before) { resolve(performance.now() - t0); return; }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  setTimeout(() => resolve(-1), 20000);
})
"""


def browser_latency(clicks: int) -> dict[str, list[float]]:
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook
    from playwright.sync_api import sync_playwright

    from browser_support import (CHROMIUM, CHROMIUM_ARGS, jupyterlab, kernel,
                                 open_lab_notebook, run_all_cells, wait_painted)

    tmp = Path(tempfile.mkdtemp())
    work = tmp / "notebooks"
    work.mkdir()
    cells = [new_code_cell("import janus_widgets as jw")]
    cells += [new_code_cell(SETUP[name]) for name in games.names()]
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, work / "latency.ipynb")
    times: dict[str, list[float]] = {}
    with jupyterlab(work, tmp / "lab.log") as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        open_lab_notebook(page, base, "latency.ipynb", file_browser=True)
        run_all_cells(page)
        for index, name in enumerate(games.names()):
            wait_painted(page, index)
            page.locator(".janus-canvas").nth(index).scroll_into_view_if_needed()
            times[name] = []
            for _ in range(clicks):
                x, y = map(float, kernel(page, NEXT_CLICK[name]).split())
                # Start watching (not awaited: the promise resolves after the click).
                page.evaluate(f"(i) => {{ window.__probe = ({PROBE_JS})(i); }}", index)
                box = page.locator(".janus-canvas").nth(index).bounding_box()
                width = page.evaluate("(i) => document.querySelectorAll('.janus-canvas')[i]"
                                      ".width", index)
                height = page.evaluate("(i) => document.querySelectorAll('.janus-canvas')"
                                       "[i].height", index)
                page.mouse.click(box["x"] + x * box["width"] / width,
                                 box["y"] + y * box["height"] / height)
                ms = page.evaluate("() => window.__probe")
                if ms >= 0:
                    times[name].append(ms)
                page.wait_for_timeout(150)      # let the kernel answer the rest
        browser.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    print(f"{'game':<12} {'ms/full frame':>13} {'canvas msgs/change':>19}")
    for name in games.names():
        ms, msgs = python_side(name)
        print(f"{name:<12} {ms:>13.2f} {msgs:>19.2f}")
    if not args.no_browser:
        print(f"\nclick → new pixels in JupyterLab (Chromium, 1366×768, scaled canvases), "
              f"{args.clicks} clicks per game:")
        for name, times in browser_latency(args.clicks).items():
            if not times:
                print(f"{name:<12} no click changed the pixels")
                continue
            print(f"{name:<12} median {statistics.median(times):5.0f} ms   min "
                  f"{min(times):4.0f}   max {max(times):5.0f}   ({len(times)} clicks)")


if __name__ == "__main__":
    main()

"""Widget figures: Python ms per redraw, canvas messages per state change, and the
median time from a click in the browser to the new pixels.

Run:  python benchmarks/widget_speed.py [--clicks 30] [--no-browser]

The browser part starts JupyterLab on loopback with a scratch notebook holding one
Jactus widget, clicks a die in headless Chromium and waits for the canvas pixels to
change (Debian's Chromium, as in the browser tests).
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
    try:
        games.get(name).board()
    except ModuleNotFoundError:
        return float("nan"), float("nan")
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
        w._render()
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


def browser_latency(clicks: int) -> list[float]:
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook
    from playwright.sync_api import sync_playwright

    from browser_support import (CHROMIUM, CHROMIUM_ARGS, click_canvas, jupyterlab,
                                 open_lab_notebook, pixel, run_all_cells, wait_painted)
    from janus_widgets.games.jactus.draw import DIE, die_origin

    tmp = Path(tempfile.mkdtemp())
    work = tmp / "notebooks"
    work.mkdir()
    nb = new_notebook(cells=[new_code_cell(
        "import janus_widgets as jw\nw = jw.widget('jactus', seed=1)\nw.play('r*')\nw")])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, work / "latency.ipynb")
    times = []
    with jupyterlab(work, tmp / "lab.log") as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        open_lab_notebook(page, base, "latency.ipynb")
        run_all_cells(page)
        wait_painted(page)
        x, y = die_origin(0)
        probe = (int(x + DIE / 2), int(y - 6))   # above die 0: tray, or the lifted die
        changed = """([x, y, before]) => {
            const c = document.querySelector('.janus-canvas');
            const d = c.getContext('2d').getImageData(x, y, 1, 1).data;
            return d[0] !== before[0] || d[1] !== before[1] || d[2] !== before[2];
        }"""
        for _ in range(clicks):
            before = list(pixel(page, *probe))
            start = time.perf_counter()
            click_canvas(page, x + DIE / 2, y + DIE / 2)       # lift / drop die 0
            page.wait_for_function(changed, arg=[*probe, before], polling="raf")
            times.append((time.perf_counter() - start) * 1000)
        browser.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    print(f"{'game':<12} {'ms/redraw':>10} {'canvas msgs/change':>19}")
    for name in games.names():
        ms, msgs = python_side(name)
        print(f"{name:<12} {ms:>10.2f} {msgs:>19.2f}")
    if not args.no_browser:
        times = browser_latency(args.clicks)
        print(f"click → new pixels in JupyterLab (Chromium), {len(times)} clicks: "
              f"median {statistics.median(times):.0f} ms, min {min(times):.0f}, "
              f"max {max(times):.0f}")


if __name__ == "__main__":
    main()

"""Widget figures: Python ms per whole frame, canvas messages per state change, and for every
game the median time from a click on its canvas in the browser to the new pixels, and
where that time goes.

Run:  python benchmarks/widget_speed.py [--clicks 30] [--no-browser] [--big]

The browser part starts JupyterLab on loopback with a scratch notebook holding one
widget of each game, at a classroom size (1366×768, file browser open, so the canvases
are scaled), and in headless Chromium (Debian's, as in the browser tests) clicks each
canvas the way a player does:

* Janus: a framed target field (a move: the column moves, a tile goes);
* Jactus: a die (it is lifted or put back);
* the card game: one of B's cards (selected or not), from A's seat;
* Jinns: a pawn of the tray (placed on the ring: a move).

The time is taken inside the page, from the ``mousedown`` event to the first animation
frame whose canvas pixels differ: what a student waits for. Each click is then split
(medians over the clicks, in ms), from timestamps taken in the page (the kernel
connection's messages, as they arrive and once handled) and in the kernel (the click's
handler, the game's ``draw``, the stage's painting, each comm message sent); both clocks
are the machine's:

* ``echo`` (a row of its own): a message from the page to the kernel and its answer
  back, with no work in between: the floor under every click on this machine now;
* ``to kernel``: mousedown → the kernel starts handling the click (the mouse message
  on its way, and the kernel's queue);
* ``draw`` and ``paint``: the game's ``draw`` (state → drawing) and the stage turning the
  drawing into canvas commands and sending them (one message); ``other py``: the rest
  of the handler before the canvas message is sent (the move, the status line …);
* ``to page``: the canvas message sent → it arrives in the page;
* ``before``: the page handling the messages that arrived before the canvas message
  (other widgets the click updated first: ``msgs`` counts them);
* ``canvas``: the page handling the canvas message (ipycanvas runs the commands);
* ``frame``: the canvas message handled → the first frame with the new pixels (waiting
  for the frame, compositing the layers, and whatever else the page does meanwhile);
* ``kB``: the canvas message's size; ``msgs``, ``betw.``, ``later``: the other messages of
  the click (widget updates) that arrive before the canvas message, between it and the
  new pixels, and after the new pixels (the step bar, the lists and the status line are
  sent after the picture on purpose).

Figures depend on the load of the machine: the load (``/proc/loadavg``) is printed
with them; say it when you quote them.
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
from janus_widgets.widgets.stage import BIG  # noqa: E402


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
    "janus-cards": ("from janus_widgets.widgets.extras import deal_all\n"
                    "cards = jw.widget('janus-cards', players=3, seed=1, viewpoint=0)\n"
                    "deal_all(cards)\ncards"),
    "jinns": "jinns = jw.widget('jinns', seed=1)\njinns",
}
#: The notebook variable of each game's widget.
VARIABLE = {"janus": "janus", "jactus": "jactus", "janus-cards": "cards", "jinns": "jinns"}
#: Python (in the kernel) printing the canvas point to click next, for each game.
NEXT_CLICK = {
    "janus": ("from janus_widgets.games.janus.draw import field_centre\n"
              "print(*field_centre(janus.state.targets[0]))"),
    "jactus": "print(*jactus.drawing.find(('die', 0)).center())",
    "janus-cards": "print(*cards.drawing.find(('card', 'B1')).center())",
    "jinns": ("k = jinns.state.legal_moves()[0].action - 256\n"
              "print(*jinns.drawing.find(('tray', k)).center())"),
}

#: Kernel-side timestamps (ms since the epoch) of every click's handler, the game's draw,
#: the stage's painting and every comm message sent, for :func:`browser_latency`.
INSTRUMENT = r"""
import json as _json, time as _time
from ipykernel.comm.comm import BaseComm as _BaseComm
_bench = []
def _timed(name, fn):
    def run(*args, **kwargs):
        _bench.append((name, _time.time() * 1000, 0))
        try:
            return fn(*args, **kwargs)
        finally:
            _bench.append(('/' + name, _time.time() * 1000, 0))
    return run
if not getattr(_BaseComm, '_bench_wrapped', False):
    _publish = _BaseComm.publish_msg
    def _publish_timed(self, msg_type, data=None, metadata=None, buffers=None, **keys):
        method = (data or {}).get('method', '')
        size = sum(len(b) for b in (buffers or []))
        if method == 'update':
            method += ':' + ','.join(sorted((data or {}).get('state', {})))
        _bench.append(('send ' + method, _time.time() * 1000, size))
        return _publish(self, msg_type, data, metadata, buffers, **keys)
    _BaseComm.publish_msg = _publish_timed
    _BaseComm._bench_wrapped = True
for _w in WIDGETS:
    _w.stage._on_click = _timed('click', _w.stage._on_click)
    _w.stage.show = _timed('paint', _w.stage.show)
    _w.game.draw = _timed('draw', _w.game.draw)
"""

#: Records, in the page, every kernel message as it arrives and once it is handled.
PAGE_LOG_JS = """
() => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  window.__log = [];
  const now = () => performance.timeOrigin + performance.now();
  const describe = (msg) => {
    const data = (msg.content && msg.content.data) || {};
    let what = data.method || msg.header.msg_type;
    if (what === 'custom' && (msg.buffers || []).length) what = 'canvas';
    if (what === 'update') what += ':' + Object.keys(data.state || {}).sort().join(',');
    return what;
  };
  kernel.anyMessage.connect((_, {msg, direction}) => {
    if (msg.header.msg_type !== 'comm_msg') return;
    window.__log.push({t: now(), id: msg.header.msg_id, dir: direction, what: describe(msg),
                       phase: 'arrive'});
  });
  kernel.iopubMessage.connect((_, msg) => {
    if (msg.header.msg_type !== 'comm_msg') return;
    window.__log.push({t: now(), id: msg.header.msg_id, dir: 'recv', what: describe(msg),
                       phase: 'done'});
  });
}
"""

#: Resolves with the epoch ms of the next mousedown on canvas ``index`` and of the first
#: animation frame showing different pixels. Each frame compares a quarter-size copy of
#: the canvas (0.2–0.6 ms here; reading the whole canvas took 2–6 ms a frame, time the
#: page then lacks for the click itself: the figures before issue 25 were taken so).
PROBE_JS = """
(index) => new Promise((resolve) => {
  const c = document.querySelectorAll('.janus-canvas')[index];
  const small = document.createElement('canvas');
  small.width = Math.ceil(c.width / 4);
  small.height = Math.ceil(c.height / 4);
  const ctx = small.getContext('2d', {willReadFrequently: true});
  const now = () => performance.timeOrigin + performance.now();
  const hash = () => {
    ctx.drawImage(c, 0, 0, small.width, small.height);
    const d = ctx.getImageData(0, 0, small.width, small.height).data;
    let h = 0;
    for (let i = 0; i < d.length; i += 4) h = (h * 31 + d[i] + 3 * d[i + 1] + 7 * d[i + 2]) >>> 0;
    return h;
  };
  const before = hash();
  let t0 = null;
  c.addEventListener('mousedown', () => { t0 = now(); }, {once: true, capture: true});
  const frame = () => {
    if (t0 !== null && hash() !== before) { resolve([t0, now()]); return; }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  setTimeout(() => resolve(null), 20000);
})
"""

#: A widget that answers every message from the page at once: the round trip page →
#: kernel → page with no work in between, the floor under every click.
ECHO = r"""
import anywidget as _anywidget
class _Echo(_anywidget.AnyWidget):
    _esm = '''
export default { render({ model, el }) {
  window.__echo = () => new Promise((resolve) => {
    const t = performance.now();
    const on = () => { model.off('msg:custom', on); resolve(performance.now() - t); };
    model.on('msg:custom', on);
    model.send({ping: t});
  });
} }'''
_echo = _Echo()
_echo.on_msg(lambda widget, content, buffers: widget.send(content))
_echo
"""

PARTS = ["to kernel", "draw", "paint", "other py", "to page", "before", "canvas", "frame"]


def split_click(t0: float, t1: float, kernel_log: list, page_log: list) -> dict[str, float]:
    """One click's time split into :data:`PARTS` (ms), and ``msgs`` / ``later`` counts."""
    def first(name: str) -> float | None:
        return next((t for n, t, _ in kernel_log if n == name), None)

    def span(name: str) -> float:
        starts = [t for n, t, _ in kernel_log if n == name]
        ends = [t for n, t, _ in kernel_log if n == "/" + name]
        return sum(e - s for s, e in zip(starts, ends))

    start, end = first("click"), first("/click")
    sent = next((t for n, t, size in kernel_log if n == "send custom" and size), None)
    recv = [e for e in page_log if e["dir"] == "recv" and e["t"] >= t0 - 1]
    arrive = {e["id"]: e["t"] for e in recv if e["phase"] == "arrive"}
    done = {e["id"]: e["t"] for e in recv if e["phase"] == "done"}
    canvas = next((e for e in recv if e["phase"] == "arrive" and e["what"] == "canvas"), None)
    out = {part: float("nan") for part in PARTS}
    out["msgs"] = out["later"] = out["between"] = 0
    out["kB"] = float("nan")
    if start is None or end is None or sent is None or canvas is None:
        return out
    draw, painting = span("draw"), first("paint")
    out["to kernel"] = start - t0
    out["draw"] = draw
    out["paint"] = sent - painting if painting is not None else float("nan")
    out["other py"] = (painting - start - draw) if painting is not None else float("nan")
    out["to page"] = canvas["t"] - sent
    earlier = [i for i, t in arrive.items() if t < canvas["t"]]
    out["before"] = sum(done.get(i, t) - t for i, t in arrive.items() if i in earlier)
    out["msgs"] = len(earlier)
    out["canvas"] = done.get(canvas["id"], canvas["t"]) - canvas["t"]
    out["frame"] = t1 - done.get(canvas["id"], canvas["t"])
    out["later"] = sum(1 for t in arrive.values() if t > t1)
    out["between"] = sum(1 for t in arrive.values() if canvas["t"] < t <= t1)
    out["kB"] = next(size for n, t, size in kernel_log if n == "send custom" and size) / 1000
    return out


def browser_latency(clicks: int, big: bool = False) -> dict[str, list[dict[str, float]]]:
    """For every game, each click's total (``"total"``) and its parts (:func:`split_click`)."""
    import json

    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook
    from playwright.sync_api import sync_playwright

    from browser_support import (CHROMIUM, CHROMIUM_ARGS, jupyterlab, kernel,
                                 open_lab_notebook, run_all_cells, wait_painted)

    tmp = Path(tempfile.mkdtemp())
    work = tmp / "notebooks"
    work.mkdir()
    cells = [new_code_cell("import janus_widgets as jw")]
    cells += [new_code_cell(SETUP[name] + (f".set_big(True)\n{VARIABLE[name]}" if big else ""))
              for name in games.names()]
    cells.append(new_code_cell("WIDGETS = [" + ", ".join(VARIABLE[n] for n in games.names())
                               + "]\n" + INSTRUMENT))
    cells.append(new_code_cell(ECHO))
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, work / "latency.ipynb")
    results: dict[str, list[dict[str, float]]] = {}
    with jupyterlab(work, tmp / "lab.log") as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1366, "height": 768})
        open_lab_notebook(page, base, "latency.ipynb", file_browser=True)
        run_all_cells(page)
        page.evaluate(PAGE_LOG_JS)
        page.wait_for_function("() => !!window.__echo")
        echo = []
        for _ in range(clicks):
            echo.append(page.evaluate("async () => await window.__echo()"))
            page.wait_for_timeout(100)
        results["echo"] = [{"total": ms} for ms in echo]
        for index, name in enumerate(games.names()):
            wait_painted(page, index)
            page.locator(".janus-canvas").nth(index).scroll_into_view_if_needed()
            results[name] = []
            for _ in range(clicks):
                x, y = map(float, kernel(page, NEXT_CLICK[name]).split())
                kernel(page, "_bench.clear()")
                page.evaluate("() => { window.__log = []; }")
                # Start watching (not awaited: the promise resolves after the click).
                page.evaluate(f"(i) => {{ window.__probe = ({PROBE_JS})(i); }}", index)
                box = page.locator(".janus-canvas").nth(index).bounding_box()
                width = page.evaluate("(i) => document.querySelectorAll('.janus-canvas')[i]"
                                      ".width", index)
                height = page.evaluate("(i) => document.querySelectorAll('.janus-canvas')"
                                       "[i].height", index)
                units = BIG if big else 1.0       # canvas pixels per drawing unit
                page.mouse.click(box["x"] + x * units * box["width"] / width,
                                 box["y"] + y * units * box["height"] / height)
                times = page.evaluate("() => window.__probe")
                page.wait_for_timeout(250)      # the kernel sends the rest of the click
                if times is None:
                    continue
                kernel_log = json.loads(kernel(page, "print(_json.dumps(_bench))"))
                page_log = page.evaluate("() => window.__log")
                parts = split_click(times[0], times[1], kernel_log, page_log)
                parts["total"] = times[1] - times[0]
                results[name].append(parts)
        browser.close()
    return results


def load() -> str:
    """The machine's load averages (1, 5 and 15 minutes) and its cores."""
    import os
    return f"load {Path('/proc/loadavg').read_text().split()[:3]} on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--big", action="store_true", help="every widget in big mode")
    args = parser.parse_args()
    print(load())
    print(f"{'game':<12} {'ms/full frame':>13} {'canvas msgs/change':>19}")
    for name in games.names():
        ms, msgs = python_side(name)
        print(f"{name:<12} {ms:>13.2f} {msgs:>19.2f}")
    if args.no_browser:
        return
    print(f"\nclick → new pixels in JupyterLab (Chromium, 1366×768, scaled canvases"
          f"{', big mode' if args.big else ''}), {args.clicks} clicks per game:")
    results = browser_latency(args.clicks, big=args.big)
    print(load())
    head = "".join(f"{part:>10}" for part in PARTS)
    print(f"{'game':<12} {'median':>6} {'min':>5} {'max':>5} |{head} {'kB':>5} {'msgs':>5} "
          f"{'betw.':>5} {'later':>5}")
    echo = [c["total"] for c in results.pop("echo")]
    print(f"{'echo':<12} {statistics.median(echo):>6.0f} {min(echo):>5.0f} {max(echo):>5.0f} "
          "| a message from the page and the kernel's answer, no work between")
    for name, clicks in results.items():
        if not clicks:
            print(f"{name:<12} no click changed the pixels")
            continue
        totals = [c["total"] for c in clicks]

        def median(part: str) -> float:
            values = [c[part] for c in clicks if c[part] == c[part]]     # not NaN
            return statistics.median(values) if values else float("nan")
        parts = "".join(f"{median(part):>10.1f}" for part in PARTS)
        print(f"{name:<12} {statistics.median(totals):>6.0f} {min(totals):>5.0f} "
              f"{max(totals):>5.0f} |{parts} {median('kB'):>5.1f} {median('msgs'):>5.0f} "
              f"{median('between'):>5.0f} {median('later'):>5.0f}"
              f"   ({len(clicks)} clicks)")


if __name__ == "__main__":
    main()

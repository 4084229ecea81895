"""Run JupyterLab and Voila on loopback and drive them with Playwright + Chromium.

The recipe is the one in ``../shared/BROWSER.md``: Debian's Chromium (never
Playwright's own download), the network-quiet flags, servers on free ports
that are waited for and stopped by their process, notebooks opened from
scratch copies.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

CHROMIUM = os.environ.get("JANUS_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage",
                 "--host-resolver-rules=MAP class.test 127.0.0.1"]
#: A name for this machine as a class reaches the teacher's laptop: over plain HTTP at
#: an address that is not localhost, so the page is not a "secure context" (a browser
#: then has no ``crypto.randomUUID``, no clipboard, no service workers). Chromium maps
#: it to 127.0.0.1 (:data:`CHROMIUM_ARGS`).
CLASS_HOST = "class.test"
BIN = Path(sys.executable).parent
TOKEN = "janus-test-token"
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, timeout: float = 90.0, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    last: Exception | None = None
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"server exited with code {proc.returncode} before {url} answered")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except Exception as exc:  # noqa: BLE001 - keep polling until the deadline
            last = exc
        time.sleep(0.3)
    raise TimeoutError(f"{url} did not answer within {timeout:.0f} s ({last})")


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)


def quiet_lab_settings(settings_dir: Path) -> None:
    """No news pop-up, no update check (they would cover the page and reach out)."""
    target = settings_dir / "@jupyterlab" / "apputils-extension"
    target.mkdir(parents=True, exist_ok=True)
    (target / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False}))
    # Render every cell (no windowing), so every widget is in the page to be checked.
    notebook = settings_dir / "@jupyterlab" / "notebook-extension"
    notebook.mkdir(parents=True, exist_ok=True)
    (notebook / "tracker.jupyterlab-settings").write_text(
        json.dumps({"windowingMode": "none"}))


@contextmanager
def jupyterlab(notebook_dir: Path, log_path: Path) -> Iterator[str]:
    """A JupyterLab server on a free port; yields its base URL."""
    port = free_port()
    home = notebook_dir.parent / "lab-home"
    settings = home / "settings"
    quiet_lab_settings(settings)
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(settings),
           "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    log = open(log_path, "w")
    proc = subprocess.Popen(
        [str(BIN / "jupyter"), "lab", "--no-browser", "--allow-root", f"--port={port}",
         "--ServerApp.port_retries=0", f"--IdentityProvider.token={TOKEN}",
         "--ServerApp.ip=127.0.0.1", f"--notebook-dir={notebook_dir}",
         "--LabApp.expose_app_in_browser=True", "--ServerApp.open_browser=False"],
        stdout=log, stderr=subprocess.STDOUT, env=env, cwd=notebook_dir)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(f"{base}/api/status?token={TOKEN}", proc=proc)
        yield base
    finally:
        _stop(proc)
        log.close()


@contextmanager
def voila(notebook: Path, log_path: Path) -> Iterator[str]:
    """Voila serving one notebook on a free port; yields its URL."""
    port = free_port()
    log = open(log_path, "w")
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(notebook.parent / "voila-runtime")}
    # Started in the notebooks' folder, as the README says, so that its voila.json applies.
    proc = subprocess.Popen(
        [str(BIN / "voila"), notebook.name, "--no-browser", f"--port={port}",
         "--Voila.ip=127.0.0.1", "--Voila.port_retries=0"],
        stdout=log, stderr=subprocess.STDOUT, cwd=notebook.parent, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(f"{base}/voila/static/voila.js", proc=proc)
        yield base + "/"
    finally:
        _stop(proc)
        log.close()


@contextmanager
def voila_tree(folder: Path, log_path: Path) -> Iterator[str]:
    """One Voila server for every notebook of ``folder``; yields the base URL of its
    pages (``base + "voila/render/NAME.ipynb"``)."""
    port = free_port()
    log = open(log_path, "w")
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(folder / "voila-runtime")}
    proc = subprocess.Popen(
        [str(BIN / "voila"), "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
         "--Voila.port_retries=0"], stdout=log, stderr=subprocess.STDOUT, cwd=folder, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_http(f"{base}/voila/static/voila.js", proc=proc)
        yield base + "/"
    finally:
        _stop(proc)
        log.close()


@contextmanager
def voila_page(page: Any, make_notebook: Any, tmp_path: Path, widgets: int) -> Iterator[str]:
    """A notebook made by ``make_notebook(folder)`` (it returns the notebook's name), shown
    as a Voila app in ``page`` at 1366×768 with the project's ``voila.json``, once its
    ``widgets`` canvases have pixels; yields the page's address."""
    work = tmp_path / "voila"
    work.mkdir()
    shutil.copy(Path(__file__).resolve().parent.parent / "notebooks" / "voila.json",
                work / "voila.json")
    name = make_notebook(work)
    page.set_viewport_size({"width": 1366, "height": 768})
    with voila(work / name, tmp_path / "voila.log") as url:
        page.goto(url, wait_until="domcontentloaded", timeout=180_000)
        page.wait_for_selector(".janus-canvas", timeout=180_000)
        for index in range(widgets):
            wait_painted(page, index, timeout=180_000)
        yield url


def widget_errors(page: Any) -> list[str]:
    """The "Error displaying widget" messages on a page (a widget's model was gone or
    failed when its output came to be shown)."""
    return [line for line in page.inner_text("body").splitlines()
            if "Error displaying widget" in line]


def scratch_notebooks(root: Path, tmp: Path) -> Path:
    work = tmp / "notebooks"
    shutil.copytree(root / "notebooks", work)
    return work


# --- in-page helpers ----------------------------------------------------------------
#: The pixel of a game canvas at canvas coordinates. (ipycanvas shows a MultiCanvas as
#: one <canvas> element that composites its layers.)
PIXEL_JS = """
([index, x, y]) => {
  const widget = document.querySelectorAll('.janus-canvas')[index];
  if (!widget) return null;
  const d = widget.getContext('2d').getImageData(x, y, 1, 1).data;
  return [d[0], d[1], d[2], d[3]];
}
"""

#: A fingerprint of everything painted on a game canvas.
PICTURE_JS = """
(index) => {
  const widget = document.querySelectorAll('.janus-canvas')[index];
  if (!widget) return null;
  const w = widget.width, h = widget.height;
  const data = widget.getContext('2d').getImageData(0, 0, w, h).data;
  let hash = 0, painted = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] > 0) painted++;
    hash = (hash * 31 + data[i] * 7 + data[i + 1] * 13 + data[i + 2]) >>> 0;
  }
  return {hash, painted, w, h};
}
"""

#: Canvas coordinates → page coordinates (CSS may stretch the canvas).
TO_PAGE_JS = """
([index, x, y]) => {
  const widget = document.querySelectorAll('.janus-canvas')[index];
  let r = widget.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight) {
    widget.scrollIntoView({block: 'center'});
    r = widget.getBoundingClientRect();
  }
  return [r.left + x * r.width / widget.width, r.top + y * r.height / widget.height];
}
"""

#: Run code in the notebook's kernel and return its text result (JupyterLab only).
KERNEL_JS = """
async (code) => {
  const panel = window.jupyterapp.shell.currentWidget;
  const kernel = panel.sessionContext.session.kernel;
  const future = kernel.requestExecute({code, silent: false, store_history: false});
  let out = '';
  future.onIOPub = (msg) => {
    const t = msg.header.msg_type;
    if (t === 'execute_result') out += msg.content.data['text/plain'];
    if (t === 'stream') out += msg.content.text;
    if (t === 'error') out += 'ERROR ' + msg.content.ename + ': ' + msg.content.evalue;
  };
  await future.done;
  return out;
}
"""


#: One widget of each game, as the classroom and screen tests show them: (variable, game,
#: the options of ``jw.widget``).
ALL_GAMES = [("janus", "janus", "seed=5"), ("jactus", "jactus", "players=4, seed=3"),
             ("cards", "janus-cards", "players=3, seed=2"), ("jinns", "jinns", "seed=3")]
#: The two classroom screens: a laptop and a projector's full HD.
SIZES = [(1366, 768), (1920, 1080)]


def widgets_notebook(folder: Path, name: str,
                     widgets: list[tuple[str, str, str]] = ALL_GAMES) -> str:
    """Write ``folder/name``: a notebook that shows one widget a cell; returns ``name``."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_notebook
    cells = [new_code_cell("import janus_widgets as jw")]
    for var, game, options in widgets:
        cells.append(new_code_cell(f"{var} = jw.widget({game!r}, {options})\n{var}"))
    nb = new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, folder / name)
    return name


def rgb(colour: str) -> tuple[int, int, int]:
    """A "#rrggbb" colour as (r, g, b) numbers 0-255."""
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def pixel(page: Any, x: float, y: float, index: int = 0) -> tuple[int, int, int, int]:
    return tuple(page.evaluate(PIXEL_JS, [index, int(x), int(y)]))


def picture(page: Any, index: int = 0) -> dict:
    return page.evaluate(PICTURE_JS, index)


def click_canvas(page: Any, x: float, y: float, index: int = 0) -> None:
    px, py = page.evaluate(TO_PAGE_JS, [index, x, y])
    page.mouse.click(px, py)


def kernel(page: Any, code: str) -> str:
    return page.evaluate(KERNEL_JS, code)


def wait_painted(page: Any, index: int = 0, timeout: float = 60_000) -> None:
    """Wait until the canvas has pixels (the element exists before anything is drawn)."""
    page.wait_for_function(
        """(index) => {
             const c = document.querySelectorAll('.janus-canvas')[index];
             if (!c || !c.width) return false;
             const d = c.getContext('2d').getImageData(5, 5, 1, 1).data;
             return d[3] > 0;
           }""", arg=index, timeout=timeout)


def wait_picture_change(page: Any, before: dict, index: int = 0,
                        timeout: float = 20_000) -> None:
    page.wait_for_function(PICTURE_JS.replace("(index) =>", "([index, before]) =>")
                           .replace("return {hash, painted, w, h};",
                                    "return hash !== before;"),
                           arg=[index, before["hash"]], timeout=timeout, polling="raf")


def wait_kernel_idle(page: Any, timeout: float = 120_000) -> None:
    page.wait_for_selector('.jp-Notebook-ExecutionIndicator[data-status="idle"]',
                           timeout=timeout)


def run_all_cells(page: Any, timeout: float = 240_000) -> None:
    """Run every cell; returns when the last one has run (the command's promise)."""
    wait_kernel_idle(page)
    page.set_default_timeout(timeout)
    ok = page.evaluate(
        "async () => await window.jupyterapp.commands.execute('notebook:run-all-cells')")
    assert ok is not False, "a cell failed while running all cells"
    wait_kernel_idle(page, timeout)


#: The notebook's kernel is connected and idle (the status indicator can say idle before
#: the session has its kernel; code sent then is lost).
KERNEL_READY_JS = """
() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const session = panel && panel.sessionContext && panel.sessionContext.session;
  const kernel = session && session.kernel;
  return !!kernel && kernel.connectionStatus === 'connected' && kernel.status === 'idle';
}
"""


#: Opens a notebook in a JupyterLab page already loaded, and waits for its kernel.
OPEN_IN_APP_JS = """
async (path) => {
  const app = window.jupyterapp;
  await app.restored;
  const panel = await app.commands.execute('docmanager:open', {path, factory: 'Notebook'});
  app.shell.activateById(panel.id);
  await panel.context.ready;
  await panel.sessionContext.ready;
  return panel.id;
}
"""

#: Shuts the current notebook's kernel down and closes it without asking (the notebooks
#: are scratch copies).
CLOSE_IN_APP_JS = """
async () => {
  const panel = window.jupyterapp.shell.currentWidget;
  if (!panel || !panel.sessionContext) return;
  await panel.sessionContext.shutdown();
  panel.context.model.dirty = false;
  panel.dispose();
}
"""


def new_page(browser: Any) -> Any:
    """A page of its own context (1600×1500, 60 s timeouts); ``page.errors`` collects
    its uncaught script errors."""
    context = browser.new_context(viewport={"width": 1600, "height": 1500})
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    return page


def notebook_ready(page: Any) -> None:
    """Wait until JupyterLab shows a notebook whose kernel is connected and idle."""
    page.wait_for_selector(".jp-Notebook", timeout=120_000)
    wait_kernel_idle(page)
    page.wait_for_function(KERNEL_READY_JS, timeout=120_000)


def lab_app_page(browser: Any, base: str) -> Any:
    """One JupyterLab page (1600×1500, the file browser closed) for several notebooks in
    turn: loading JupyterLab itself takes about 3.5 s (see :func:`open_in_lab_app`)."""
    page = new_page(browser)
    page.goto(f"{base}/lab?token={TOKEN}&reset", wait_until="domcontentloaded")
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell",
                           timeout=120_000)
    page.evaluate("async () => { await window.jupyterapp.restored; "
                  "window.jupyterapp.shell.collapseLeft(); }")
    return page


def open_in_lab_app(page: Any, name: str) -> None:
    """Open notebook ``name`` in a page of :func:`lab_app_page`, as the only one open, and
    wait for its kernel to be connected and idle; its errors are the page's from now."""
    page.errors.clear()
    page.evaluate(OPEN_IN_APP_JS, name)
    notebook_ready(page)
    assert page.locator(".jp-NotebookPanel").count() == 1, "another notebook is open"


def close_in_lab_app(page: Any) -> None:
    """Shut the open notebook's kernel down and close it (see :func:`open_in_lab_app`)."""
    page.evaluate(CLOSE_IN_APP_JS)
    page.wait_for_function("() => !document.querySelector('.jp-NotebookPanel')")


def open_lab_notebook(page: Any, base: str, name: str, *, file_browser: bool = False) -> None:
    """Open a notebook in JupyterLab; the file browser beside it is closed unless asked
    for (a classroom laptop has it open)."""
    page.goto(f"{base}/lab/tree/{name}?token={TOKEN}&reset", wait_until="domcontentloaded")
    notebook_ready(page)
    if file_browser:
        page.evaluate("() => window.jupyterapp.shell.activateById('filebrowser')")
        page.wait_for_selector(".jp-FileBrowser", state="visible")
    else:
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")


#: Where the parts of the index-th game widget are on screen once its top is scrolled
#: into view, and the part of the page the notebook (or Voila) shows.
LAYOUT_JS = """
(index) => {
  const w = document.querySelectorAll('.janus-widget')[index];
  w.scrollIntoView({block: 'start'});
  const box = (el) => {
    if (!el) return null;
    const b = el.getBoundingClientRect();
    return {left: b.left, top: b.top, right: b.right, bottom: b.bottom,
            width: b.width, height: b.height};
  };
  const scroller = w.closest('.jp-WindowedPanel-outer, .jp-Notebook');
  const shown = scroller ? box(scroller)
                         : {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
  shown.left = Math.max(0, shown.left); shown.top = Math.max(0, shown.top);
  shown.right = Math.min(innerWidth, shown.right);
  shown.bottom = Math.min(innerHeight, shown.bottom);
  const canvas = w.querySelector('canvas.janus-canvas') || w.querySelector('canvas');
  const buttons = {};
  for (const b of w.querySelectorAll('.janus-stepbar button')) {
    buttons[b.title.split(' (')[0]] = box(b);
  }
  return {shown, widget: box(w), output: box(w.parentElement), canvas: box(canvas),
          canvasWidth: canvas.width, canvasHeight: canvas.height, buttons,
          status: box(w.querySelector('.janus-status')),
          side: box(w.querySelector('.janus-side'))};
}
"""


def layout(page: Any, index: int = 0) -> dict:
    """The bounding boxes of the index-th widget's parts (see :data:`LAYOUT_JS`)."""
    page.wait_for_timeout(100)          # let a scroll settle
    return page.evaluate(LAYOUT_JS, index)


def screenshot_widget(page: Any, name: str, index: int = 0) -> Path:
    """A screenshot of the index-th game widget into test-artifacts/ (and into docs/
    when JANUS_UPDATE_SCREENSHOTS is set, for the README)."""
    widget = page.locator(".janus-widget").nth(index)
    widget.scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    widget.screenshot(path=str(path))
    if os.environ.get("JANUS_UPDATE_SCREENSHOTS"):
        docs = ARTIFACTS.parent / "docs"
        docs.mkdir(exist_ok=True)
        shutil.copy(path, docs / name)
    return path


def error_outputs(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"], '
        '.jp-RenderedText[data-mime-type="application/vnd.jupyter.error"]',
        "els => els.map(e => e.textContent.slice(0, 400))")


def widget_status(page: Any, index: int = 0) -> str:
    """The status line of the index-th game widget on the page."""
    return page.locator(".janus-widget .janus-status").nth(index).inner_text()


def widget_button(page: Any, tooltip: str, index: int = 0) -> Any:
    """A button of the index-th game widget, found by its tooltip."""
    return page.locator(f".janus-widget >> nth={index}").locator(f'button[title="{tooltip}"]')


def wait_pixel(page: Any, x: float, y: float, rgb: tuple[int, int, int], index: int = 0,
               timeout: float = 20_000) -> None:
    """Wait until the canvas pixel at (x, y) has this colour."""
    page.wait_for_function(
        """([index, x, y, rgb]) => {
             const c = document.querySelectorAll('.janus-canvas')[index];
             const d = c.getContext('2d').getImageData(x, y, 1, 1).data;
             return d[0] === rgb[0] && d[1] === rgb[1] && d[2] === rgb[2];
           }""", arg=[index, int(x), int(y), list(rgb)], timeout=timeout, polling="raf")


def wait_picture(page: Any, expected: dict, index: int = 0, timeout: float = 20_000) -> None:
    """Wait until the canvas shows exactly the picture fingerprinted by ``expected``."""
    page.wait_for_function(PICTURE_JS.replace("(index) =>", "([index, expected]) =>")
                           .replace("return {hash, painted, w, h};",
                                    "return hash === expected;"),
                           arg=[index, expected["hash"]], timeout=timeout, polling="raf")


def eventually(check: Any, timeout: float = 15.0, interval: float = 0.05,
               pause: Any = None) -> Any:
    """Call ``check()`` until it neither raises AssertionError nor returns ``False``
    (pixels arrive a frame or two after the kernel has answered); returns what it
    returned, and raises the last failure at the timeout. ``pause(seconds)`` waits
    between tries (``time.sleep``): give one that calls the page (``lambda s:
    page.wait_for_timeout(1000 * s)``) when ``check`` reads what Playwright's event
    handlers collect, since its sync API delivers events only while it is called."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            result = check()
            if result is not False:
                return result
            failure = AssertionError(f"still false after {timeout} s: {check!r}")
        except AssertionError as exc:
            failure = exc
        if time.monotonic() > deadline:
            raise failure
        (pause or time.sleep)(interval)


#: Labels the page cuts: buttons and legal moves whose text overflows them, menus narrower
#: than their longest choice (measured in the menu's own font; 28 px for the arrow).
CUT_LABELS_JS = """
(selector) => {
  const cut = [];
  const measure = document.createElement('canvas').getContext('2d');
  for (const root of document.querySelectorAll(selector)) {
    for (const b of root.querySelectorAll('button')) {
      if (b.offsetParent === null || !b.textContent.trim()) continue;
      if (b.scrollWidth > b.clientWidth + 1) cut.push('button: ' + b.textContent.trim());
    }
    for (const l of root.querySelectorAll('.janus-moves label')) {
      if (l.offsetParent !== null && l.scrollWidth > l.clientWidth + 1) {
        cut.push('legal move: ' + l.textContent.trim());
      }
    }
    for (const s of root.querySelectorAll('select')) {
      if (s.offsetParent === null || s.multiple || s.size > 1) continue;
      measure.font = getComputedStyle(s).font;
      for (const o of s.options) {
        if (measure.measureText(o.text).width > s.clientWidth - 28) {
          cut.push('menu: ' + o.text);
        }
      }
    }
  }
  return cut;
}
"""


def cut_labels(page: Any, selector: str = ".jp-OutputArea-output, body") -> list[str]:
    """The buttons and menus inside ``selector`` whose label the page cuts."""
    return page.evaluate(CUT_LABELS_JS, selector)


def get(url: str) -> tuple[int, dict[str, str], str]:
    """Status, headers and text of a GET (an error status too)."""
    try:
        with urllib.request.urlopen(url, timeout=180) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


def in_thread(coroutine: Any) -> Any:
    """Run ``coroutine`` to its end on an event loop of its own thread (the browser's
    driver may hold a loop on this one), and return its result."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = asyncio.run(coroutine)
        except BaseException as exc:  # noqa: BLE001 - raised again below
            out["error"] = exc
    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    if "error" in out:
        raise out["error"]
    return out["value"]

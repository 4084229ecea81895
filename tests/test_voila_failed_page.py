"""A Voila page that did not finish says so and offers to try again (issue 36, item 10).

Under load a page can spin for ever (its kernel never started) or come out blank (the
kernel's output arrived after Voila's IOPub timeout). The guard puts a notice right after
every page's ``<body>`` that CSS reveals when the page has made no progress for a while
(``JANUS_VOILA_STALL_SECONDS``; a new cell restarts the wait) and is not finished (its
spinner gone and a widget shown), and at once when Voila says a cell failed at the
server. One Voila for the module, in real Chromium: a kernel spec that fails, a kernel
that dies at start, output later than the IOPub timeout each show it within the time; a
lesson never does.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest
from browser_support import voila_tree

from janus_widgets.voila_guard import FAILED_TEXT, failure_notice

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
LESSON = "roman-dice"
STALL = 20          # seconds without progress before a page says it did not finish


def notebook(*cells: str, kernel: str = "python3") -> str:
    return json.dumps({
        "cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}",
                   "metadata": {}, "outputs": [], "source": source}
                  for i, source in enumerate(cells)],
        "metadata": {"kernelspec": {"display_name": kernel, "language": "python",
                                    "name": kernel}},
        "nbformat": 4, "nbformat_minor": 5})


BUTTON = "import ipywidgets as w\nw.Button(description='Go')"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("failed-pages")
    shutil.copy(ROOT / "notebooks" / "voila.json", folder / "voila.json")
    shutil.copy(ROOT / "notebooks" / f"{LESSON}.ipynb", folder / f"{LESSON}.ipynb")
    spec = folder / "jupyter" / "kernels" / "broken"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": ["/bin/sh", "-c", "exit 3", "{connection_file}"],
        "display_name": "broken", "language": "python"}))
    (folder / "small.ipynb").write_text(notebook(BUTTON))
    (folder / "broken.ipynb").write_text(notebook(BUTTON, kernel="broken"))
    (folder / "dies.ipynb").write_text(notebook("import os\nos._exit(1)", BUTTON))
    # the widget is shown 8 s after its cell ended: later than Voila's IOPub timeout (4 s)
    (folder / "late.ipynb").write_text(notebook(
        "import threading, ipywidgets as w\nfrom IPython.display import display\n"
        "threading.Timer(8, lambda: display(w.Button(description='Late'))).start()"))
    saved = {k: os.environ.get(k) for k in ("JUPYTER_PATH", "JANUS_VOILA_STALL_SECONDS")}
    os.environ["JUPYTER_PATH"] = str(folder / "jupyter")
    os.environ["JANUS_VOILA_STALL_SECONDS"] = str(STALL)
    try:
        with voila_tree(folder, folder / "voila.log") as base:
            yield base
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def notice_shown(page) -> bool:
    return page.evaluate("() => { const n = document.getElementById('janus-page-failed');"
                         " if (!n) return false; const s = getComputedStyle(n);"
                         " return s.display !== 'none' && s.visibility === 'visible'; }")


def open_page(browser, url: str):
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.goto(url, wait_until="commit", timeout=60_000)
    page.wait_for_selector("#janus-page-failed", state="attached", timeout=60_000)
    return context, page


def seconds_until_shown(page, limit: float) -> float:
    start = time.monotonic()
    while not notice_shown(page):
        assert time.monotonic() - start < limit, "the page never said it failed"
        page.wait_for_timeout(250)
    return time.monotonic() - start


def test_the_notice_is_in_every_page_and_says_what_to_do():
    html = failure_notice(7).decode()
    assert "7s step-end" in html and '<a href="">Reload it</a> (F5) to try again.' in html
    assert "<script" not in html
    assert FAILED_TEXT == "This page did not finish loading. Reload it (F5) to try again."


def test_a_kernel_that_dies_at_start_says_so_at_once(server, browser):
    context, page = open_page(browser, server + "voila/render/dies.ipynb")
    try:
        took = seconds_until_shown(page, 60)
        assert took < STALL, took                 # Voila said the cell failed at the server
        assert page.locator("#janus-page-failed").inner_text() == FAILED_TEXT
    finally:
        context.close()


def test_stalled_pages_say_so_within_the_time_and_working_pages_never_do(server, browser):
    """A kernel spec that fails: Voila's spinner stays for ever. A widget later than the
    IOPub timeout: the page finishes blank. Both say so once STALL seconds pass; a lesson
    and a small page, opened beside them, never do. (All four open at once, so that the
    stall time is waited out once.)"""
    healthy = {LESSON: ".janus-exercise", "small": ".jupyter-widgets"}
    pages = {name: open_page(browser, server + f"voila/render/{name}.ipynb")
             for name in ("broken", "late", *healthy)}
    try:
        start = time.monotonic()
        assert not notice_shown(pages["broken"][1])   # not at once: the page may be slow
        loaded = start
        for name, ready in healthy.items():
            page = pages[name][1]
            while page.locator(ready).count() == 0 or page.locator("#loading").count():
                assert not notice_shown(page), f"{name} said it failed while loading"
                assert time.monotonic() - start < 240, f"{name} did not load"
                page.wait_for_timeout(250)
            loaded = time.monotonic()
        for name in ("broken", "late"):
            page = pages[name][1]
            seconds_until_shown(page, STALL + 30 - (time.monotonic() - start))
            print(f"{name}: the notice showed after {time.monotonic() - start:.1f} s")
            assert page.locator("#janus-page-failed").inner_text() == FAILED_TEXT
            assert page.locator("#janus-page-failed a").get_attribute("href") == ""
            assert page.locator("#janus-page-failed").bounding_box()["y"] == 0   # on screen
            if name == "late":
                assert page.locator("#loading").count() == 0   # finished, but blank
                assert page.locator(".jupyter-widgets").count() == 0
        # past a stalled page's time since the working pages' last progress
        wait = loaded + STALL + 3 - time.monotonic()
        if wait > 0:
            pages[LESSON][1].wait_for_timeout(wait * 1000)
        for name in healthy:
            assert not notice_shown(pages[name][1]), f"{name} said it failed"
            assert pages[name][1].locator("#janus-page-failed").count() == 1
        late = pages["late"][1]
        late.locator("#janus-page-failed a").click()            # the offer: it reloads
        late.wait_for_selector("#janus-page-failed", state="attached", timeout=60_000)
        assert not notice_shown(late)
    finally:
        for context, _page in pages.values():
            context.close()

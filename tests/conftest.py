"""Shared test settings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

# Deterministic property tests: the same examples on every run and in CI.
settings.register_profile("ci", derandomize=True, deadline=None, max_examples=60,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# --- the canvas messages a widget sends (the widget test files) ------------------------
@pytest.fixture
def sent(monkeypatch):
    """The canvas commands sent while the test runs (one per frame drawn)."""
    from ipycanvas.canvas import _CANVAS_MANAGER
    messages = []
    original = _CANVAS_MANAGER._send_custom

    def count(command, buffers=[]):  # noqa: B006 - mirrors ipycanvas' signature
        messages.append(command)
        return original(command, buffers)
    monkeypatch.setattr(_CANVAS_MANAGER, "_send_custom", count)
    return messages


# --- the real browser (shared by every browser test file) ----------------------------
@pytest.fixture(scope="session")
def browser():
    from browser_support import CHROMIUM, CHROMIUM_ARGS
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is needed at {CHROMIUM} (python3 dev.py test installs it)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    from browser_support import ARTIFACTS, jupyterlab, scratch_notebooks
    tmp = tmp_path_factory.mktemp("lab")
    work = scratch_notebooks(ROOT, tmp)
    ARTIFACTS.mkdir(exist_ok=True)
    with jupyterlab(work, ARTIFACTS / "jupyterlab.log") as base:
        yield base, work


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1600, "height": 1500})
    page = context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]
    yield page
    context.close()


@pytest.hookimpl(tryfirst=True)   # before xdist reads the groups off the items
def pytest_collection_modifyitems(config, items):
    """Browser tests share one JupyterLab and one Chromium: with pytest-xdist they all
    go to one worker (``--dist loadgroup``), while the other workers run the rest."""
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.xdist_group("browser"))

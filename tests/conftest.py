"""Shared test settings."""

from __future__ import annotations

import json
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
    from browser_support import new_page
    page = new_page(browser)
    yield page
    page.context.close()


# --- how the tests are shared between pytest-xdist's workers --------------------------
#: Session fixtures that start a server: every test using one runs on the same worker, so
#: a run starts it once (``--dist loadgroup``).
SHARED_SERVERS = ("lab",)
#: Seconds each test took in a whole run (``--store-durations``); the longest start first.
DURATIONS = Path(__file__).with_name("durations.json")
#: Seconds guessed for a test the table does not know yet, by its marks (else 0.2 s).
GUESS = {"installed": 30.0, "browser": 15.0, "notebook": 10.0, "slow": 5.0}


def pytest_addoption(parser):
    parser.addoption("--store-durations", action="store_true", default=False,
                     help=f"write each test's seconds to {DURATIONS.name}, which orders "
                          "the next runs (the longest tests first)")


def pytest_configure(config):
    # the scheduler keeps the order given below instead of putting the biggest groups first
    if getattr(config.option, "dist", "no") == "loadgroup":
        config.option.loadscopereorder = False


def shared_fixtures(item) -> list[tuple[str, ...]]:
    """The costly fixture instances ``item`` shares with other tests: a server of
    :data:`SHARED_SERVERS`, and every module- or class-scoped fixture it uses (set up
    once if the tests of its module run on one worker, else once on each)."""
    info = getattr(item, "_fixtureinfo", None)
    if info is None:                                         # a doctest
        return []
    keys = []
    for name in info.names_closure:
        defs = info.name2fixturedefs.get(name)
        if not defs:
            continue
        scope = defs[-1].scope                               # the one the test gets
        if scope == "session" and name in SHARED_SERVERS:
            keys.append(("session", name))
        elif scope == "module":
            keys.append(("module", item.nodeid.split("::")[0], name))
        elif scope == "class" and getattr(item, "cls", None) is not None:
            keys.append(("class", item.nodeid.rsplit("::", 1)[0], name))
    return keys


def _mark_names(item) -> set[str]:
    return {str(m.args[0] if m.args else m.kwargs.get("name", "default"))
            for m in item.iter_markers("xdist_group")}


def work_units(items) -> dict[str, list[str]]:
    """Each test's group names: tests that share a costly fixture instance (directly or
    through another test) are one group; other tests have none. A group holding tests
    marked ``xdist_group`` takes the names of those marks, else its first fixture's."""
    parent: dict = {}

    def find(key):
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    keys_of = {}
    for item in items:
        keys = [("mark", name) for name in sorted(_mark_names(item))] + shared_fixtures(item)
        keys_of[item.nodeid] = keys
        for key in keys[1:]:
            parent[find(key)] = find(keys[0])
    members: dict = {}
    for keys in keys_of.values():
        for key in keys:
            members.setdefault(find(key), []).append(key)
    names = {}
    for root, keys in members.items():
        marks = sorted({k[1] for k in keys if k[0] == "mark"})
        first = keys[0]
        names[root] = marks or [first[1] if first[0] == "session" else
                                f"{first[1]}:{first[2]}"]
    return {nodeid: names[find(keys[0])] for nodeid, keys in keys_of.items() if keys}


def guessed_seconds(item, known: dict[str, float]) -> float:
    if item.nodeid in known:
        return known[item.nodeid]
    return max([GUESS[m.name] for m in item.iter_markers() if m.name in GUESS] or [0.2])


@pytest.hookimpl(tryfirst=True)   # before xdist reads the groups off the items
def pytest_collection_modifyitems(config, items):
    """Tests that share a server or a module fixture go to one worker as one group
    (``--dist loadgroup``), so it is set up once; groups and single tests are ordered
    longest first (seconds from :data:`DURATIONS`), so that both workers finish together
    instead of one running a long test at the end. The tests of a group stay together
    in file order, so a run without xdist sets each fixture up once too."""
    groups = work_units(items)
    for item in items:
        for name in set(groups.get(item.nodeid, ())) - _mark_names(item):
            item.add_marker(pytest.mark.xdist_group(name))
    try:
        known = json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        known = {}
    units: dict[str, list] = {}
    for item in items:
        units.setdefault("@".join(groups.get(item.nodeid, [item.nodeid])), []).append(item)
    seconds = {name: sum(guessed_seconds(i, known) for i in members)
               for name, members in units.items()}
    first = {name: index for index, name in enumerate(units)}
    order = sorted(units, key=lambda name: (-seconds[name], first[name]))
    items[:] = [item for name in order for item in units[name]]


@pytest.hookimpl(tryfirst=True)   # before xdist's worker sends the ids to the controller
def pytest_collection_finish(session):
    """pytest 9.2 keeps a test's id apart from the ``_nodeid`` that pytest-xdist 3.8
    extends with ``@group`` (pytest-xdist issue 1386): every group was silently lost, so
    each worker started its own servers. Name the groups here where that happened."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    for item in session.items:
        marks = sorted(_mark_names(item))
        if marks and "@" not in item.nodeid:
            from _pytest.nodeid import NodeId
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(marks)}")
            if "@" not in item.nodeid:
                raise pytest.UsageError(f"cannot put {item.nodeid} in its xdist group: "
                                        "this pytest keeps test ids elsewhere")


# --- the durations table (--store-durations) ---------------------------------------------
_took: dict[str, float] = {}


def pytest_runtest_logreport(report):
    name = report.nodeid.split("@")[0]
    _took[name] = _took.get(name, 0.0) + report.duration


def pytest_sessionfinish(session):
    """With ``--store-durations``, the run's seconds per test (from 0.5 s) become the
    table that orders the next runs."""
    if session.config.getoption("store_durations", False) and _took and \
            not os.environ.get("PYTEST_XDIST_WORKER"):
        DURATIONS.write_text(json.dumps({k: round(v, 1) for k, v in sorted(_took.items())
                                         if v >= 0.5}, indent=0) + "\n")

"""Collection settings for the doctests of the package (``--doctest-modules``)."""

from __future__ import annotations

import importlib.util
import os

import pytest

# The interop modules need their optional extras (the test extra installs them all);
# without one, their doctests are left out rather than failing to import.
collect_ignore = [
    path for path, needs in [
        ("janus_widgets/interop/openspiel.py", "pyspiel"),
        ("janus_widgets/interop/pettingzoo.py", "pettingzoo"),
        ("janus_widgets/widgets/raster.py", "matplotlib"),
    ] if importlib.util.find_spec(needs) is None]


@pytest.fixture(scope="session", autouse=True)
def solver_cache(tmp_path_factory):
    """Solutions of the Jactus solver go to a temporary folder, never the user's cache.
    With pytest-xdist the workers share one folder (writes are atomic), so a variant is
    solved about once per run; notebook kernels inherit it through the environment."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "solver-cache"
    folder.mkdir(exist_ok=True)
    before = os.environ.get("JANUS_WIDGETS_CACHE")
    os.environ["JANUS_WIDGETS_CACHE"] = str(folder)
    yield folder
    if before is None:
        os.environ.pop("JANUS_WIDGETS_CACHE", None)
    else:
        os.environ["JANUS_WIDGETS_CACHE"] = before

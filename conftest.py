"""Collection settings for the doctests of the package (``--doctest-modules``)."""

from __future__ import annotations

import importlib.util

# The interop modules need their optional extras (the test extra installs them all);
# without one, their doctests are left out rather than failing to import.
collect_ignore = [
    path for path, needs in [
        ("janus_widgets/interop/openspiel.py", "pyspiel"),
        ("janus_widgets/interop/pettingzoo.py", "pettingzoo"),
        ("janus_widgets/widgets/raster.py", "matplotlib"),
    ] if importlib.util.find_spec(needs) is None]

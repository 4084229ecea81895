"""The drawing primitives' former place, kept so that code written against it still
runs: they live in :mod:`janus_widgets.drawing` now, below the games (imports run
downward: a game's ``draw.py`` must not import ``widgets``). New code imports
``janus_widgets.drawing``.

>>> from janus_widgets.widgets.drawing import Drawing as Old
>>> from janus_widgets.drawing import Drawing
>>> Old is Drawing
True
"""

from __future__ import annotations

from ..drawing import *  # noqa: F401,F403 - the same names, re-exported
from ..drawing import __all__  # noqa: F401

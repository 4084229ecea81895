"""janus_widgets: four tabletop games as interactive canvases for Jupyter.

>>> import janus_widgets as jw
>>> "jactus" in jw.games.names()
True
>>> state = jw.new("jactus", players=3, seed=42)
>>> state.current_player
0
>>> jw.new("jinns", ruleset="newer edition", seed=1).variant.placement
'random'
"""

from __future__ import annotations

from typing import Any

from . import analysis, games  # noqa: F401 - analysis registers its bots ("optimal")
from .core import (CHANCE, TERMINAL, ArgumentError, IllegalMoveError, InvalidMoveError,
                   JanusError, Record, RecordError, Replay, VariantError)

from .resources import __version__  # the installed metadata's: pyproject.toml's version

__all__ = ["games", "new", "load", "widget", "Record", "Replay", "CHANCE", "TERMINAL",
           "IllegalMoveError", "InvalidMoveError", "RecordError", "VariantError",
           "ArgumentError", "JanusError"]


def new(game: str, variant: Any = None, *, seed: int | None = None,
        ruleset: str | None = None, **options: Any) -> Any:
    """Start a game by name: ``new("jinns", players=4, seed=1)``; ``ruleset`` names one of
    the game's rulesets (``games.get(game).rulesets()``), ``options`` change it further:
    ``new("jactus", ruleset="points", players=3)``. Every bad argument raises one of the
    package's errors (:class:`JanusError`, a ``ValueError``): an unknown game or a bad
    seed :class:`ArgumentError`, a bad option, or a variant and a ruleset both given,
    :class:`VariantError`.

    >>> new("chess")
    Traceback (most recent call last):
    ...
    janus_widgets.core.errors.ArgumentError: no game called 'chess'; the games are: janus, janus-cards, jactus, jinns
    """
    return games.get(game).new(variant, seed=seed, ruleset=ruleset, **options)


def load(path: str) -> Any:
    """Load and check a saved record: a full :class:`Record`, or a seat's record
    (:class:`~janus_widgets.core.SeatRecord`) if the file is one."""
    from .core import read_record
    return read_record(path)


def widget(game: str, variant: Any = None, **kwargs: Any) -> Any:
    """The interactive widget for a game (see :class:`janus_widgets.widgets.GameWidget`)."""
    from .widgets import GameWidget
    return GameWidget(game, variant, **kwargs)

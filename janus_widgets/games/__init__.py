"""The registry of games: ``get(name)`` and ``names()``.

Each game lives in a subpackage ``janus_widgets/games/<package>/`` whose
``rules`` module defines ``GAME``. The registry name is the package name with
``_`` written as ``-`` (``janus_cards`` → ``"janus-cards"``); a game is
imported the first time it is asked for.

>>> from janus_widgets import games
>>> "jactus" in games.names()
True
>>> games.get("jactus").title
'Jactus'
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from functools import cache
from typing import Any

__all__ = ["get", "names", "all_games"]

# The order people meet the games in (the rest follow alphabetically).
_ORDER = ["janus", "janus-cards", "jactus", "jinns"]


@cache
def _found() -> tuple[str, ...]:
    """The game packages, scanned once (the table server looks a game up on every join)."""
    found = [m.name.replace("_", "-") for m in pkgutil.iter_modules(__path__)
             if m.ispkg and importlib.util.find_spec(f"{__name__}.{m.name}.rules")]
    return tuple(sorted(found, key=lambda n: (_ORDER.index(n) if n in _ORDER
                                              else len(_ORDER), n)))


def names() -> list[str]:
    """The registered game names, e.g. ``['janus', 'janus-cards', 'jactus', 'jinns']``."""
    return list(_found())


def get(name: str) -> Any:
    """The :class:`~janus_widgets.core.protocol.Game` registered as ``name``; another name
    raises :class:`~janus_widgets.core.errors.ArgumentError` listing the games."""
    if not isinstance(name, str) or name not in names():
        from ..core.errors import ArgumentError
        raise ArgumentError("game", name, ", ".join(names()),
                            message=f"no game called {name!r}; the games are: "
                                    + ", ".join(names()))
    module = importlib.import_module(f"{__name__}.{name.replace('-', '_')}.rules")
    return module.GAME


def all_games() -> list[Any]:
    """Every registered game, in :func:`names` order."""
    return [get(n) for n in names()]


# core finds a record's game through this registry (it may not import the games above it)
from ..core.registry import install_games  # noqa: E402 - after get and names exist

install_games(get, names)

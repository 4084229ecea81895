"""How ``core`` finds a game by its name without importing the games, which sit above it.

Imports run downward (core ← games ← widgets/analysis), yet a record names its game
(``"game": "jactus"``) and must find it to replay. So the games package
(:mod:`janus_widgets.games`) installs its lookup here when it is imported, which is
before anything in ``core`` runs (``import janus_widgets`` imports it first), and
``core`` asks :data:`games`.

>>> games.names()[:2]
['janus', 'janus-cards']
>>> games.get("jactus").title
'Jactus'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["games", "install_games", "GameLookup"]


class GameLookup:
    """The registered games as ``core`` sees them: :meth:`get` and :meth:`names`, read
    from the lookup the games package installed (:func:`install_games`)."""

    def __init__(self) -> None:
        self._get: Callable[[str], Any] | None = None
        self._names: Callable[[], list[str]] | None = None

    def _installed(self) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
        if self._get is None or self._names is None:
            raise RuntimeError("no games are registered: import janus_widgets (its games "
                               "package installs them with install_games)")
        return self._get, self._names

    def get(self, name: str) -> Any:
        """The :class:`~janus_widgets.core.protocol.Game` registered as ``name`` (a
        ``ValueError`` names the games there are)."""
        return self._installed()[0](name)

    def names(self) -> list[str]:
        """The registered game names."""
        return self._installed()[1]()


#: The games, for ``core`` (records, seat records) to find one by name.
games = GameLookup()


def install_games(get: Callable[[str], Any], names: Callable[[], list[str]]) -> None:
    """Install the games package's ``get(name)`` and ``names()`` (called once, by
    :mod:`janus_widgets.games`)."""
    if not callable(get) or not callable(names):
        raise ValueError("install_games takes two functions: get(name) -> Game and "
                         "names() -> list of names")
    games._get, games._names = get, names

"""Bots: policies that choose a move from what their seat may see.

A policy is any callable ``policy(view) -> Move | str | int`` where ``view`` is
``state.view(seat)`` (the state itself in games without secrets). The widget
shell and the simulations accept any such callable; the named bots here are
what the shell's seat menus offer.

>>> from janus_widgets import games
>>> bot = RandomBot(seed=3)
>>> state = games.get("jactus").new(seed=0)
>>> str(bot(state.view(0)))
'r*'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .protocol import Move
from .rng import RandomStream

__all__ = ["RandomBot", "BOT_FACTORIES", "make_bot", "bot_names"]


class RandomBot:
    """Plays a uniformly random legal move (seeded, reproducible)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.stream = RandomStream(seed)

    def __call__(self, view: Any) -> Move:
        moves = view.legal_moves()
        if not moves:
            raise ValueError("the random bot was asked to move where no move is legal")
        return moves[self.stream.below(len(moves))]

    def __repr__(self) -> str:
        return "RandomBot()"


#: Named bots: name → factory(game, seat, seed) → policy.
BOT_FACTORIES: dict[str, Callable[[Any, int, int], Callable[[Any], Any]]] = {
    "random": lambda game, seat, seed: RandomBot(seed),
}


def bot_names() -> list[str]:
    """The names the seat menus offer."""
    return list(BOT_FACTORIES)


def make_bot(name: str, game: Any, seat: int, seed: int) -> Callable[[Any], Any]:
    """A named bot for ``seat`` of ``game``, seeded."""
    if name not in BOT_FACTORIES:
        raise ValueError(f"no bot called {name!r}; the bots are: {', '.join(BOT_FACTORIES)}")
    return BOT_FACTORIES[name](game, seat, seed)

"""The games in other frameworks: OpenSpiel, PettingZoo, and tournaments on clusters.

Nothing here is imported by the rest of the package; each module needs its
optional extra:

* :mod:`janus_widgets.interop.openspiel` (extra ``openspiel``) registers every
  game as an OpenSpiel Python game (``pyspiel.load_game("janus_widgets_jinns")``).
* :mod:`janus_widgets.interop.pettingzoo` (extra ``pettingzoo``) gives an AEC
  environment per game (``env(game="jinns")``) with action masks, seeded resets
  and pictures rendered from the game's own drawing.
* :mod:`janus_widgets.interop.encoding` (numpy only) turns what one seat may see
  (``state.view(seat)``) into a fixed-size vector, the observation both
  frameworks hand to learning code.

Tournaments run on any :class:`concurrent.futures.Executor`, Dask's included:
see :func:`janus_widgets.analysis.tournament.run_tournament` and
``docs/interop.md``.
"""

from __future__ import annotations

__all__ = ["zero_sum_returns"]


def zero_sum_returns(winners: tuple[int, ...], num_players: int) -> list[float]:
    """The rewards both frameworks give at the end of a game: zero-sum.

    A sole winner gets +1 and every other seat ``-1/(n-1)``; seats level on the
    win share it (``n/k - 1`` over ``n - 1`` each for ``k`` winners). A game with
    no winner, or one that everybody wins, or one cut off before its end, gives
    0 to everyone. The rewards always add up to 0; with two players they are the
    familiar +1 / -1 / 0.

    >>> zero_sum_returns((0,), 2), zero_sum_returns((0, 1), 2)
    ([1.0, -1.0], [0.0, 0.0])
    >>> zero_sum_returns((2,), 4)
    [-0.3333333333333333, -0.3333333333333333, 1.0, -0.3333333333333333]
    >>> zero_sum_returns((0, 2), 4)
    [0.3333333333333333, -0.3333333333333333, 0.3333333333333333, -0.3333333333333333]
    """
    k = len(winners)
    if k == 0 or k == num_players:
        return [0.0] * num_players
    win = (num_players / k - 1.0) / (num_players - 1)
    lose = -1.0 / (num_players - 1)
    return [win if p in winners else lose for p in range(num_players)]

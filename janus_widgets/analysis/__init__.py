"""The probability lab: exact odds, simulation beside them, and checked exercises.

* :mod:`~janus_widgets.analysis.jactus_odds`: exact Jactus odds (fractions) by
  absorbing Markov chains: chances within ``n`` throws, the distribution and the
  expectation of the number of throws, the best pick-ups, the next player's
  chance, the best reply for a whole round, and
  :func:`~janus_widgets.analysis.jactus_odds.claim_odds` for the canvas.
* :mod:`~janus_widgets.analysis.montecarlo`: vectorised numpy simulation of
  throws and whole rounds from a seeded generator, with confidence intervals and
  convergence plots against the exact values.
* :mod:`~janus_widgets.analysis.roman_dice`: the Roman tali and tesserae,
  computed the same way.
* :mod:`~janus_widgets.analysis.exercises`: lesson exercises whose answers the
  package checks (``exercises.jactus_odds.q1.check(Fraction(1, 1296))``);
  :mod:`~janus_widgets.analysis.card_exercises` those of the card-game lesson;
  :mod:`~janus_widgets.analysis.checking` the checking and answer box they share.
* :mod:`~janus_widgets.analysis.tournament` and :mod:`~janus_widgets.analysis.metrics`:
  seeded tournaments of bots and the game-design metrics (Ludii's, with 95% intervals,
  and paired differences between variants); :mod:`~janus_widgets.analysis.flaws` the
  flaw finder; :mod:`~janus_widgets.analysis.design_lab` the lab app;
  :mod:`~janus_widgets.analysis.design_exercises` the design lesson's exercises.
* :mod:`~janus_widgets.analysis.repetition`: the measurement behind the Jinns
  repetition limit (JI-20).
* :mod:`~janus_widgets.analysis.solve`: two-player Jactus solved; importing this package
  registers its bot, ``"optimal"``, in :func:`janus_widgets.core.bots.register_bot` (the
  solver itself loads when such a bot is made), so every place that names bots offers it.

>>> from janus_widgets.analysis import jactus_odds
>>> jactus_odds.probability_within(1)
Fraction(1, 1296)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ..core.bots import register_bot

__all__ = ["jactus_odds", "montecarlo", "roman_dice", "exercises", "card_exercises",
           "checking", "metrics", "tournament", "design_lab", "repetition", "flaws",
           "design_exercises"]


def __getattr__(name: str) -> Any:
    # the lab's modules load on first use, so importing the package stays cheap
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _optimal_bot(game: Any, seat: int, seed: int) -> Callable[[Any], Any]:
    """The ``"optimal"`` bot (:func:`janus_widgets.analysis.solve.optimal_bot`); the
    solver's module is imported when the first such bot is made, not before."""
    from .solve import optimal_bot
    return optimal_bot(game, seat, seed)


register_bot("optimal", _optimal_bot, games=("jactus",))

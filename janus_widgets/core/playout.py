"""Random playouts on the lean path: what search bots and the conformance checks run.

Below the bots (MCTS plays them out) and the simulations (which play whole games with
bots), so that neither imports the other's module.

>>> from janus_widgets import games
>>> eng = games.get("jactus").engine()
>>> raw, steps = random_playout(eng, eng.initial(), RandomStream(1), max_steps=50)
>>> steps
50
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .protocol import CHANCE, TERMINAL, Engine, Raw
from .rng import RandomStream

__all__ = ["random_playout", "Policy"]

#: A policy picks a move from its seat's view: ``policy(view) -> Move | str | int``
#: (the view is ``state.view(seat)``: the state itself in games without secrets).
#: Bots are policies.
Policy = Callable[[Any], Any]


def random_playout(engine: Engine, raw: Raw, stream: RandomStream,
                   max_steps: int = 1_000_000) -> tuple[Raw, int]:
    """Play uniformly random actions (and sampled chance) until the end or the cap.

    Returns the final raw state and the number of steps taken (a chance
    outcome counts as a step).
    """
    current = engine.current
    actions = engine.actions
    apply = engine.apply
    sample = engine.sample
    below = stream.below
    steps = 0
    while steps < max_steps:
        player = current(raw)
        if player == TERMINAL:
            break
        if player == CHANCE:
            action = sample(raw, stream)
        else:
            acts = actions(raw)
            action = acts[below(len(acts))]
        raw = apply(raw, action)
        steps += 1
    return raw, steps

"""Helpers shared by the test files (``from helpers import moves, refused, ...``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pytest

from janus_widgets.core import CHANCE, TERMINAL, IllegalMoveError, RandomStream


def moves(state) -> list[str]:
    """The legal moves of ``state`` in notation."""
    return [str(m) for m in state.legal_moves()]


def refused(state, move, rule: str) -> IllegalMoveError:
    """Play ``move`` and check that it is refused citing ``rule``, state unchanged."""
    before = state.raw
    with pytest.raises(IllegalMoveError) as err:
        state.play(move)
    assert err.value.rule == rule, str(err.value)
    assert rule in str(err.value)
    assert state.raw == before
    return err.value


def random_play(state, plies: int, seed: int, *, avoid: Iterable[str] = ()):
    """``state`` after up to ``plies`` seeded random plies on the checked path: chance
    points take their seeded outcome, a player a random legal move (moves named in
    ``avoid`` only when nothing else is legal)."""
    avoid = set(avoid)
    stream = RandomStream(seed)
    for _ in range(plies):
        if state.is_over:
            break
        if state.is_chance:
            state = state.play_chance()
            continue
        legal = state.legal_moves()
        state = state.play(stream.choice([m for m in legal if m.notation not in avoid]
                                         or legal))
    return state


def walk(engine, seed: int, plies: int, *, rare: int | None = None, one_in: int = 6,
         ended: bool = False) -> Iterator[tuple]:
    """``(raw, action)`` pairs of a seeded random game on the lean path. The action
    ``rare`` (where legal) is taken only one time in ``one_in`` (so that agreeing to
    end does not end every game at once). With ``ended``, a game that ends within
    ``plies`` also yields its last position, with the action ``None``."""
    stream = RandomStream(seed)
    raw = engine.initial()
    for _ in range(plies):
        who = engine.current(raw)
        if who == TERMINAL:
            if ended:
                yield raw, None
            return
        if who == CHANCE:
            action = engine.sample(raw, stream)
        else:
            legal = engine.actions(raw)
            acts = [a for a in legal if a != rare] or [rare]
            if rare in legal and stream.below(one_in) == 0:
                action = rare
            else:
                action = acts[stream.below(len(acts))]
        yield raw, action
        raw = engine.apply(raw, action)


# --- running notebooks -------------------------------------------------------------------

def notebook_client(nb, *, path, timeout: int = 300):
    """An nbclient ``NotebookClient`` for ``nb`` run in folder ``path``, whose kernel
    client never sleeps through a reply (see :mod:`janus_widgets.kernel_client`)."""
    from nbclient import NotebookClient

    from janus_widgets.kernel_client import SlicedKernelManager

    return NotebookClient(nb, timeout=timeout, kernel_name="python3",
                          kernel_manager_class=SlicedKernelManager,
                          resources={"metadata": {"path": str(path)}})


# --- worlds a seat cannot tell apart (the card game) ---------------------------------------

def another_world(state, seat: int, seed: int):
    """A Janus card game state with ``state``'s decisions and other chance outcomes, which
    ``seat`` cannot tell from ``state``: its view is the same after every move (checked
    here; ``None`` if the draw gives a world whose history ``seat`` could tell apart,
    which the caller skips).

    The last position is redrawn from ``seat``'s view (``Engine.determinize``). Who drew,
    dealt or discarded which place is public, so the redrawn cards map each card of the
    real game to a card of the other world (unseen cards to unseen cards); the chance
    outcomes of the history are mapped the same way and the decisions replayed."""
    from janus_widgets.core import RandomStream
    from janus_widgets.games.janus_cards.tables import CARDS, CHANCE_BASE

    eng = state.engine
    other = eng.determinize(state.view(seat), RandomStream(seed))
    real = state.raw
    side_map: dict[int, int] = {}

    def pair(a: tuple, b: tuple) -> None:
        for x, y in zip(a, b):
            side_map[x] = y
            side_map[x ^ 1] = y ^ 1
    for h_real, h_other in zip(real[2], other[2]):
        pair(h_real, h_other)
    pair(real[3], other[3])
    for (_, _, t_real), (_, _, t_other) in zip(real[6], other[6]):
        pair(t_real, t_other)
    for c_real, c_other in zip(real[4], other[4]):      # unseen by anyone: any pairing
        side_map[2 * c_real], side_map[2 * c_real + 1] = 2 * c_other, 2 * c_other + 1

    def mapped(action: int) -> int:
        if not eng.is_chance_action(action):
            return action
        side = side_map[action - CHANCE_BASE]
        a, b = CARDS[side >> 1]
        return CHANCE_BASE + (side & ~1 if a == b else side)   # a double: one outcome

    world = state.start
    here = state.start
    for action in state._actions():
        try:
            world = world.play_action(mapped(action))
        except ValueError:
            return None
        here = here.play_action(action)
        if world.view(seat) != here.view(seat):
            return None
    return world

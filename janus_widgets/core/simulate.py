"""Playing whole seeded games on the lean path (random playouts: :mod:`.playout`).

>>> from janus_widgets import games
>>> result = play_game(games.get("jactus").new(seed=3), ["greedy", "greedy"])
>>> result.capped, result.plies > 0
(False, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .bots import make_bot
from .playout import Policy, random_playout
from .protocol import CHANCE, TERMINAL, Move, State
from .rng import RandomStream

#: ``random_playout`` and ``Policy`` live in :mod:`.playout` (below the bots); they are
#: named here too, where simulations have always found them.
__all__ = ["random_playout", "Policy", "play_game", "GameResult"]

@dataclass
class GameResult:
    """How one simulated game went (on the lean path; :meth:`final_state` rebuilds it)."""

    start: State
    actions: list[int]
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    plies: int
    decisions: int
    capped: bool
    branching: float
    lead_changes: int = 0
    decided_at: float | None = None
    #: Ludii's count (``LeadChange``): a change of the set of leaders, ties included,
    #: before each move a player makes; the first move always counts.
    lead_changes_ludii: int = 0

    @property
    def seed(self) -> int:
        """The game's seed."""
        return self.start.seed

    def final_state(self) -> State:
        """The checked final state, with its full history (for records and replays)."""
        state = self.start
        for action in self.actions:
            state = state._child(action)
        return state


def _leaders(scores: tuple[float, ...]) -> frozenset[int]:
    """The seats with the highest score (ties included)."""
    best = max(scores)
    return frozenset(p for p, s in enumerate(scores) if s == best)


def _leader(scores: tuple[float, ...]) -> int:
    """The sole leader, or -1 where several seats tie for the lead."""
    leaders = _leaders(scores)
    return next(iter(leaders)) if len(leaders) == 1 else -1


def play_game(state: State, policies: Sequence[Policy | None], *, max_plies: int = 100_000,
              stream_seed: int | None = None, track_lead: bool = False) -> GameResult:
    """Play ``state`` to the end: each seat's policy chooses, chance is sampled.

    A policy is a callable ``policy(view) -> move`` or a bot's name (``"greedy"``,
    ``"mcts:200"``: see :func:`janus_widgets.core.bots.make_bot`), seeded from the
    game's seed and the seat. A seat whose policy is ``None`` plays uniformly at random. Chance is drawn
    from a stream seeded by the game's seed, so the same seed and the same
    policies give the same game. ``max_plies`` caps endless games.
    ``track_lead`` follows the scores after every ply: how often the sole
    leader changed, and when the winner took the lead for good (as a fraction
    of the game, 0 = from the start); and before every decision, Ludii's count of
    changes of the set of leaders (``lead_changes_ludii``).
    """
    if len(policies) != state.num_players:
        raise ValueError(f"play_game needs one policy per seat: {state.num_players} seats, "
                         f"{len(policies)} policies given")
    policies = [make_bot(p, state.game, seat, (state.seed * 31 + seat) % (1 << 63))
                if isinstance(p, str)
                else p for seat, p in enumerate(policies)]
    # Bots with a lean path (``choose_raw(engine, raw, seat)``, None where they need
    # the seat's view) skip building a view and a Move at every decision.
    lean_choices = [getattr(p, "choose_raw", None) for p in policies]
    stream = RandomStream(state.seed if stream_seed is None else stream_seed)
    engine = state.engine
    raw = state.raw
    decisions = 0
    branching = 0
    plies = 0
    history: list[int] = []
    leaders: list[int] = []
    ludii_leaders: frozenset[int] = frozenset()         # Ludii's set starts empty
    ludii_changes = 0
    while plies < max_plies:
        player = engine.current(raw)
        if player == TERMINAL:
            break
        if player == CHANCE:
            action = engine.sample(raw, stream)
        else:
            acts = engine.actions(raw)
            branching += len(acts)
            decisions += 1
            if track_lead:
                now = _leaders(engine.scores(raw))
                ludii_changes += now != ludii_leaders
                ludii_leaders = now
            policy = policies[player]
            lean = lean_choices[player]
            if policy is None:
                action = acts[stream.below(len(acts))]
            elif lean is not None and (action := lean(engine, raw, player)) is not None:
                pass  # a bot that decides from the raw state, reading only its seat's part
            else:
                view_state = state.game.State(engine, raw, seed=state.seed, ply=plies)
                # A policy sees only its seat's view (the state itself in games
                # without secrets).
                choice = policy(view_state.view(player))
                if isinstance(choice, Move):
                    action = choice.action
                elif isinstance(choice, str):
                    action = view_state.parse(choice).action
                else:
                    action = int(choice)
                if not engine.is_legal(raw, action):
                    view_state.play_action(action)  # raises the explained error
        history.append(action)
        raw = engine.apply(raw, action)
        plies += 1
        if track_lead:
            leaders.append(_leader(engine.scores(raw)))
    winners = engine.winners(raw)
    lead_changes = 0
    decided_at = None
    if track_lead and leaders:
        previous = -1
        for leader in leaders:
            if leader != -1 and leader != previous:
                if previous != -1:
                    lead_changes += 1
                previous = leader
        if len(winners) == 1:
            w = winners[0]
            k = len(leaders)
            while k > 0 and leaders[k - 1] == w:
                k -= 1
            decided_at = k / len(leaders)
    return GameResult(start=state, actions=history, winners=winners,
                      scores=engine.scores(raw), plies=plies, decisions=decisions,
                      capped=engine.current(raw) != TERMINAL,
                      branching=branching / decisions if decisions else 0.0,
                      lead_changes=lead_changes, decided_at=decided_at,
                      lead_changes_ludii=ludii_changes)

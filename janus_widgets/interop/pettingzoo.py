"""Every janus_widgets game as a PettingZoo AEC environment (optional extra ``pettingzoo``).

>>> from janus_widgets.interop.pettingzoo import env
>>> e = env(game="jinns", players=3)
>>> e.reset(seed=7)
>>> e.agent_selection, e.possible_agents
('player_0', ['player_0', 'player_1', 'player_2'])
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum())   # A places a yellow pawn
((733,), 4)

One environment class, :class:`JanusWidgetsEnv`, serves every game:
``env(game, render_mode=None, max_cycles=None, **variant_options)`` (or
``raw_env(...)`` without PettingZoo's order-enforcing wrapper).

* **Agents** are ``player_0`` … ``player_{n-1}``: seat A, B, … of the game.
* **Actions** are the engine's action numbers (``Discrete(engine.num_actions)``,
  the fixed numbering of ``seeds/<game>.md``); the observation's ``action_mask``
  (``int8``) marks the legal ones for the agent to act, and is all zeros for the
  others. An illegal action raises :class:`~janus_widgets.core.errors.IllegalMoveError`
  naming the rule that refuses it.
* **Observations** are ``{"observation": float32 vector in [0, 1],
  "action_mask": int8 vector}``; the vector is the
  :mod:`~janus_widgets.interop.encoding` of ``state.view(seat)``, so in the card game
  it holds only what that seat may know.
* **Chance** is resolved inside the environment (agents only ever see decisions):
  ``reset(seed=s)`` draws the game's seed from ``s``, and every chance point is then
  drawn exactly as :meth:`State.play_chance` draws it, so :meth:`game_state` is a
  janus_widgets state with the whole history and seed (``.record()`` saves it; a
  replay gives the same game). The same ``seed`` and the same actions give the same
  game; ``reset()`` without a seed goes on drawing from the generator.
* **Rewards** come at the end, zero-sum: +1 to a sole winner, −1/(n−1) to every
  other seat, shared by seats tied for the win
  (:func:`janus_widgets.interop.zero_sum_returns`).
* **Truncation**: after ``max_cycles`` decisions (agent steps; chance does not count)
  every agent is truncated with reward 0. Default: Janus and the card game 0 (off:
  their rules end every game, JB-20 and JC-16), Jactus 2000 (random play almost
  never wins it), Jinns 1000.
* **Rendering**: ``render_mode="ansi"`` returns the text of the state (the card
  game: of the view of the seat to move; once the game is over, the teacher's);
  ``"rgb_array"`` the same view painted by the game's own drawing
  (:func:`janus_widgets.widgets.raster.rasterise`), an ``H × W × 3`` ``uint8`` array.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("janus_widgets.interop.pettingzoo needs PettingZoo and Gymnasium: "
                      "pip install 'janus_widgets[pettingzoo]'") from exc

from .. import games as registry
from ..core.protocol import CHANCE, TERMINAL, Game, State
from ..core.rng import RandomStream, chance_rng
from . import zero_sum_returns
from .encoding import encoder

__all__ = ["JanusWidgetsEnv", "env", "raw_env", "DEFAULT_MAX_CYCLES"]

#: Default truncation (decisions) per game; 0: none (the rules end every game).
DEFAULT_MAX_CYCLES = {"janus": 0, "janus-cards": 0, "jactus": 2000, "jinns": 1000}


class JanusWidgetsEnv(AECEnv):
    """A janus_widgets game as a PettingZoo AEC environment (see the module doc)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "janus_widgets_v0",
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, game: str | Game = "jinns", render_mode: str | None = None,
                 max_cycles: int | None = None, variant: Any = None,
                 render_scale: float = 1.0, **options: Any) -> None:
        super().__init__()
        game_obj = registry.get(game) if isinstance(game, str) else game
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r}: use one of "
                             f"{', '.join(self.metadata['render_modes'])} or None")
        self.game = game_obj
        self.variant = game_obj.variant(variant, **options)
        self.engine = game_obj.engine(self.variant)
        self.encoder = encoder(game_obj, self.variant)
        if max_cycles is None:
            max_cycles = DEFAULT_MAX_CYCLES.get(game_obj.name, 0)
        if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 0:
            raise ValueError(f"max_cycles={max_cycles!r}: use a whole number of decisions "
                             "(0: no truncation)")
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.render_scale = render_scale
        self.metadata = {**self.metadata,
                         "name": f"janus_widgets_{game_obj.name.replace('-', '_')}_v0"}
        n = self.engine.num_players
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        num_actions = self.engine.num_actions
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        #: The space of :meth:`state` (the teacher's view as a vector).
        self.state_space = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        self._np_random: np.random.Generator | None = None
        self._raw: Any = None
        self._seed = 0
        self._ply = 0
        self._decisions = 0
        self._actions: list[int] = []
        self.agents: list[str] = []

    # --- spaces ------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- the game ------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self._seed = int(self._np_random.integers(0, 2**63 - 1))
        self._raw = self.engine.initial()
        self._ply = 0
        self._decisions = 0
        self._actions = []
        self._resolve_chance()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.engine.current(self._raw)]

    def _resolve_chance(self) -> None:
        """Play chance points as :meth:`State.play_chance` would (seed and ply)."""
        eng = self.engine
        while eng.current(self._raw) == CHANCE:
            stream = RandomStream(chance_rng(self._seed, self._ply), block=16)
            action = eng.sample(self._raw, stream)
            self._play(action)

    def _play(self, action: int) -> None:
        self._raw = self.engine.apply(self._raw, action)
        self._actions.append(action)
        self._ply += 1

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        eng = self.engine
        if action is None or isinstance(action, bool) or not isinstance(
                action, (int, np.integer)):
            raise ValueError(f"{agent} must act with a whole action number, not {action!r}")
        action = int(action)
        if not eng.is_legal(self._raw, action):
            self._state().play_action(action)   # raises the error naming the rule
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._play(action)
        self._decisions += 1
        self._resolve_chance()
        current = eng.current(self._raw)
        if current == TERMINAL:
            returns = zero_sum_returns(eng.winners(self._raw), eng.num_players)
            for p, a in enumerate(self.possible_agents):
                self.rewards[a] = returns[p]
                self.terminations[a] = True
        elif self.max_cycles and self._decisions >= self.max_cycles:
            for a in self.agents:
                self.truncations[a] = True
        else:
            self.agent_selection = self.possible_agents[current]
        self._accumulate_rewards()
        if current == TERMINAL or any(self.truncations.values()):
            self._deads_step_first()

    # --- what agents see ---------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        view = self._state().view(seat)
        mask = np.zeros(self.engine.num_actions, np.int8)
        if self.engine.current(self._raw) == seat and not self.truncations.get(agent):
            mask[list(self.engine.actions(self._raw))] = 1
        return {"observation": self.encoder.encode(view, seat), "action_mask": mask}

    def state(self) -> np.ndarray:
        """The teacher's view (everything, hidden card sides included) as a vector:
        for centralised training only."""
        return self.encoder.encode(self._state().view(None), None)

    def _state(self) -> State:
        return self.game.State(self.engine, self._raw, seed=self._seed, ply=self._ply)

    def game_state(self) -> State:
        """The janus_widgets state of this game, with its whole history and seed."""
        state = self.game.new(self.variant, seed=self._seed)
        for action in self._actions:
            state = state._child(action)
        return state

    # --- pictures ----------------------------------------------------------------------------
    def _render_view(self) -> Any:
        current = self.engine.current(self._raw)
        state = self._state()
        if self.game.name == "janus-cards" and current >= 0:
            return state.view(current)      # never show a seat's secrets to the others
        return state.view(None)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode: give "
                                  "render_mode='ansi' or 'rgb_array' to env(...)")
            return None
        if self._raw is None:
            raise RuntimeError("reset() the environment before rendering it")
        view = self._render_view()
        if self.render_mode == "ansi":
            return str(view)
        from ..widgets.raster import rasterise
        return rasterise(self.game.draw(view), scale=self.render_scale)

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return self.metadata["name"]


def raw_env(game: str | Game = "jinns", render_mode: str | None = None,
            max_cycles: int | None = None, **options: Any) -> JanusWidgetsEnv:
    """The environment without wrappers (see :class:`JanusWidgetsEnv`)."""
    return JanusWidgetsEnv(game, render_mode=render_mode, max_cycles=max_cycles, **options)


def env(game: str | Game = "jinns", render_mode: str | None = None,
        max_cycles: int | None = None, **options: Any) -> Any:
    """The environment of ``game`` (options: the variant's), wrapped in PettingZoo's
    order-enforcing wrapper (stepping before ``reset()`` is an error)."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, render_mode, max_cycles, **options))

"""Bots: policies that choose a move from what their seat may see.

A policy is any callable ``policy(view) -> Move | str | int`` where ``view`` is
``state.view(seat)`` (the state itself in games without secrets). The widget
shell and the simulations accept any such callable. Three bots come with the
package, all seeded and reproducible:

* :class:`RandomBot` plays a uniformly random legal move.
* :class:`GreedyBot` looks one move ahead: it plays the move whose result the
  game's heuristic (:meth:`Engine.heuristic`, documented per game in
  ``docs/bots.md``) likes best, averaging over the chance outcome that follows
  (exactly where the outcomes can be listed).
* :class:`MCTSBot` is Monte Carlo tree search (UCT). Chance is sampled on the
  way down; in a game with secrets every iteration first draws a full state
  consistent with the bot's view (:meth:`Engine.determinize`), so it reads
  nothing its seat may not see.

Packages above ``core`` name more with :func:`register_bot`: :mod:`janus_widgets.analysis`
registers ``"optimal"``, certified optimal play of 2-player Jactus
(:class:`janus_widgets.analysis.solve.OptimalBot`).

>>> from janus_widgets import games
>>> state = games.get("jactus").new(seed=0).play("r*").play("=12256")
>>> str(GreedyBot(seed=1)(state.view(1)))     # keep the two 2s, throw the rest
'r156'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from .errors import ArgumentError
from .protocol import CHANCE, TERMINAL, Engine, Move, Raw, State
from .rng import RandomStream
from .playout import random_playout

__all__ = ["RandomBot", "GreedyBot", "MCTSBot", "BOT_FACTORIES", "BOT_GAMES", "register_bot",
           "unregister_bot", "make_bot", "bot_names", "check_bot_name", "bots_allowed",
           "MAX_NAMED_ITERATIONS"]

#: Outcomes averaged exactly by the greedy bot when there are at most this many.
EXACT_CHANCE_LIMIT = 512


def _root(view: Any) -> tuple[Engine, Any]:
    engine = getattr(view, "engine", None)
    if engine is None:
        raise TypeError(f"a bot needs a state or a view with an engine, not {view!r}")
    return engine, view


def _as_move(view: Any, action: int) -> Move:
    if isinstance(view, State):
        return view._move(action)
    for move in view.legal_moves():  # a view describes its moves from what it may see
        if move.action == action:
            return move
    raise ValueError(f"the bot chose action {action}, which the view does not list")


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


class GreedyBot:
    """Plays the move with the best one-move heuristic value (ties: seeded random)."""

    name = "greedy"

    def __init__(self, seed: int = 0, samples: int = 16) -> None:
        self.stream = RandomStream(seed)
        self.samples = samples

    def value(self, engine: Engine, raw: Raw, action: int, player: int) -> float:
        """The heuristic value for ``player`` of playing ``action`` in ``raw``."""
        closed = engine.greedy_value(raw, action, player)
        if closed is not None:
            return closed
        return self.expected_value(engine, raw, action, player)

    def expected_value(self, engine: Engine, raw: Raw, action: int, player: int) -> float:
        """The heuristic averaged over the chance outcome after ``action``."""
        after = engine.apply(raw, action)
        if engine.current(after) != CHANCE:
            return engine.heuristic(after, player)
        outcomes = engine.chance_outcomes(after)
        if outcomes is not None and len(outcomes) <= EXACT_CHANCE_LIMIT:
            return sum(float(p) * self._settled(engine, engine.apply(after, a), player)
                       for a, p in outcomes)
        total = 0.0
        for _ in range(self.samples):
            total += self._settled(engine, engine.apply(after, engine.sample(after,
                                                                            self.stream)),
                                   player)
        return total / self.samples

    def _settled(self, engine: Engine, raw: Raw, player: int) -> float:
        # Further chance right after (e.g. a second throw) is sampled once.
        while engine.current(raw) == CHANCE:
            raw = engine.apply(raw, engine.sample(raw, self.stream))
        return engine.heuristic(raw, player)

    def values(self, engine: Engine, raw: Raw, player: int,
               actions: Sequence[int]) -> Sequence[float] | None:
        """The value of each action for ``player``: the engine's closed form for all of
        them at once where it has one, else one by one; None in a game with secrets
        whose engine has no closed form here (the bot then needs the seat's view)."""
        values = engine.greedy_values(raw, player)
        if values is not None:
            return values
        if engine.has_secrets:
            return None
        return [self.value(engine, raw, action, player) for action in actions]

    def _best(self, actions: Sequence[int], values: Sequence[float]) -> int:
        """The action of highest value; a tie is broken by the bot's stream."""
        top = max(values) - 1e-12
        best = [action for action, v in zip(actions, values) if v >= top]
        return best[self.stream.below(len(best))]

    def choose_raw(self, engine: Engine, raw: Raw, player: int) -> int | None:
        """The choice straight from the raw state (the simulations' lean path), or
        None where it needs the seat's view. It reads only what the seat may see (see
        :meth:`Engine.greedy_values`) and chooses exactly as :meth:`choose` would."""
        actions = engine.actions(raw)
        if len(actions) == 1:
            return actions[0]
        values = self.values(engine, raw, player, actions)
        return None if values is None else self._best(actions, values)

    def choose(self, view: Any) -> int:
        """The chosen action number."""
        engine, _ = _root(view)
        if engine.has_secrets:
            # A closed form reads only what the view shows, so every state drawn from
            # the view gives it the same values: draw one without touching the bot's
            # stream, and the bot chooses exactly as on the lean path (choose_raw).
            raw = engine.determinize(view, RandomStream(0))
            player = engine.current(raw)
            actions = engine.actions(raw)
            self._check(actions, player)
            if len(actions) == 1:
                return actions[0]
            closed = engine.greedy_values(raw, player)
            if closed is not None:
                return self._best(actions, closed)
        raw = engine.determinize(view, self.stream)
        player = engine.current(raw)
        actions = engine.actions(raw)
        self._check(actions, player)
        if len(actions) == 1:
            return actions[0]
        values = None if engine.has_secrets else engine.greedy_values(raw, player)
        if values is None:
            values = [self.value(engine, raw, action, player) for action in actions]
        return self._best(actions, values)

    @staticmethod
    def _check(actions: Sequence[int], player: int) -> None:
        if not actions or player < 0:
            raise ValueError("the greedy bot was asked to move where no player is to move")

    def __call__(self, view: Any) -> Move:
        return _as_move(view, self.choose(view))

    def __repr__(self) -> str:
        return "GreedyBot()"


class _Node:
    __slots__ = ("children", "visits", "total", "mover")

    def __init__(self, mover: int) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.mover = mover  # the seat whose choice led here (or CHANCE)


class MCTSBot:
    """Monte Carlo tree search with UCT selection, seeded.

    ``iterations`` playouts per move (or as many as fit in ``time_limit``
    seconds if that is given); each playout descends by UCT (exploration
    constant ``c``), samples chance, expands one node, plays randomly for at
    most ``rollout_steps`` steps and scores the end with
    :meth:`Engine.evaluate`. In a game with secrets each playout starts from a
    state drawn with :meth:`Engine.determinize` from the bot's view.
    """

    name = "mcts"

    def __init__(self, iterations: int = 300, *, c: float = 1.4, rollout_steps: int = 200,
                 seed: int = 0, time_limit: float | None = None) -> None:
        if iterations < 1:
            raise ValueError(f"iterations={iterations} is not allowed: use 1 or more")
        self.iterations = iterations
        self.c = c
        self.rollout_steps = rollout_steps
        self.time_limit = time_limit
        self.stream = RandomStream(seed)
        self.last_playouts = 0

    def search(self, view: Any) -> dict[int, tuple[int, float]]:
        """Run the search; returns action → (visits, mean value for the mover)."""
        import time

        engine, _ = _root(view)
        stream = self.stream
        current, actions, apply = engine.current, engine.actions, engine.apply
        sample, evaluate = engine.sample, engine.evaluate
        first = engine.determinize(view, stream)
        root = _Node(-1)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        c = self.c
        log = math.log
        sqrt = math.sqrt
        below = stream.below
        playouts = 0
        while True:
            if deadline is None:
                if playouts >= self.iterations:
                    break
            elif playouts and time.perf_counter() >= deadline:
                break
            raw = first if playouts == 0 else engine.determinize(view, stream)
            node = root
            path = [root]
            while True:
                player = current(raw)
                if player == TERMINAL:
                    break
                if player == CHANCE:
                    a = sample(raw, stream)
                    raw = apply(raw, a)
                    child = node.children.get(a)
                    if child is None:
                        child = node.children[a] = _Node(CHANCE)
                    node = child
                    path.append(node)
                    continue
                legal = actions(raw)
                children = node.children
                untried = [a for a in legal if a not in children]
                if untried:
                    a = untried[below(len(untried))]
                    child = children[a] = _Node(player)
                    raw = apply(raw, a)
                    path.append(child)
                    break
                log_n = log(node.visits or 1)
                best_a, best_score = legal[0], -1.0
                for a in legal:
                    ch = children[a]
                    score = ch.total / ch.visits + c * sqrt(log_n / ch.visits)
                    if score > best_score:
                        best_a, best_score = a, score
                raw = apply(raw, best_a)
                node = children[best_a]
                path.append(node)
            raw, _ = random_playout(engine, raw, stream, self.rollout_steps)
            values = evaluate(raw)
            for n in path:
                n.visits += 1
                if n.mover >= 0:
                    n.total += values[n.mover]
            playouts += 1
        self.last_playouts = playouts
        legal_now = engine.actions(first)
        return {a: (root.children[a].visits, root.children[a].total / root.children[a].visits)
                for a in legal_now if a in root.children and root.children[a].visits}

    def choose(self, view: Any) -> int:
        """The chosen action number: the most visited at the root."""
        engine, _ = _root(view)
        raw = getattr(view, "raw", None)
        if raw is not None and len(engine.actions(raw)) == 1 and not getattr(
                view, "hidden", False):
            return engine.actions(raw)[0]
        stats = self.search(view)
        return max(stats, key=lambda a: (stats[a][0], stats[a][1]))

    def __call__(self, view: Any) -> Move:
        return _as_move(view, self.choose(view))

    def __repr__(self) -> str:
        return f"MCTSBot(iterations={self.iterations})"


#: Named bots: name → factory(game, seat, seed) → policy. Packages above ``core`` add
#: theirs with :func:`register_bot`.
BOT_FACTORIES: dict[str, Callable[[Any, int, int], Callable[[Any], Any]]] = {
    "random": lambda game, seat, seed: RandomBot(seed),
    "greedy": lambda game, seat, seed: GreedyBot(seed),
    "mcts": lambda game, seat, seed: MCTSBot(seed=seed),
}
#: The bots that come with ``core`` (they cannot be replaced or removed).
BUILT_IN = frozenset(BOT_FACTORIES)
#: The games a named bot plays, by game name (a bot not here plays every game).
BOT_GAMES: dict[str, tuple[str, ...]] = {}


def register_bot(name: str, factory: Callable[[Any, int, int], Callable[[Any], Any]], *,
                 games: Sequence[str] | None = None) -> None:
    """Name a bot for every place that names bots (:func:`make_bot`, the widget's seat
    menus, tournaments, the command line): ``factory(game, seat, seed)`` makes its policy,
    ``games`` lists the names of the games it plays (``None``: every game).

    Imports run downward (core ← games ← widgets/analysis), so a bot that lives above
    ``core`` registers itself from there: :mod:`janus_widgets.analysis` registers
    ``"optimal"`` (the Jactus solver), importing the solver only when such a bot is made.
    Registering a name again replaces that bot; the built-in ``random``, ``greedy`` and
    ``mcts`` stay as they are.

    >>> register_bot("first", lambda game, seat, seed: (lambda view: view.legal_moves()[0]),
    ...              games=["jactus"])
    >>> "first" in bot_names("jactus"), "first" in bot_names("jinns")
    (True, False)
    >>> from janus_widgets import games
    >>> state = games.get("jactus").new(seed=0)
    >>> str(make_bot("first", state.game, 0, 1)(state))
    'r*'
    >>> unregister_bot("first"); "first" in bot_names()
    False
    >>> register_bot("mcts:9", BOT_FACTORIES["mcts"])
    Traceback (most recent call last):
    ValueError: a bot's name is a word of letters, digits, '-' or '_' (':' starts the argument of mcts:N), not 'mcts:9'
    >>> register_bot("greedy", BOT_FACTORIES["random"])
    Traceback (most recent call last):
    ValueError: 'greedy' is a built-in bot; give yours a name of its own
    """
    if not isinstance(name, str) or not name or not all(
            c.isalnum() or c in "-_" for c in name):
        raise ValueError("a bot's name is a word of letters, digits, '-' or '_' (':' starts "
                         f"the argument of mcts:N), not {name!r}")
    if name in BUILT_IN:
        raise ValueError(f"{name!r} is a built-in bot; give yours a name of its own")
    if not callable(factory):
        raise ValueError(f"bot {name!r}: the factory must be callable as "
                         f"factory(game, seat, seed), not {factory!r}")
    if games is not None and (isinstance(games, str)
                              or not all(isinstance(g, str) for g in games)):
        raise ValueError(f"bot {name!r}: games is a list of game names (or None for every "
                         f"game), not {games!r}")
    BOT_FACTORIES[name] = factory
    if games is None:
        BOT_GAMES.pop(name, None)
    else:
        BOT_GAMES[name] = tuple(games)


def unregister_bot(name: str) -> None:
    """Remove a bot :func:`register_bot` named (the three built-in bots stay)."""
    if name in BUILT_IN:
        raise ValueError(f"{name!r} is a built-in bot and stays registered")
    if name not in BOT_FACTORIES:
        raise ValueError(f"no bot called {name!r}; the bots are: {', '.join(BOT_FACTORIES)}")
    del BOT_FACTORIES[name]
    BOT_GAMES.pop(name, None)


def _plays(name: str, game: Any) -> bool:
    plays = BOT_GAMES.get(name)
    return plays is None or getattr(game, "name", game) in plays


def bot_names(game: Any = None) -> list[str]:
    """The names the seat menus and the command line offer: every bot, or those that
    play ``game`` (a game or its name).

    >>> "optimal" in bot_names("jactus"), "optimal" in bot_names("jinns")
    (True, False)
    """
    return [name for name in BOT_FACTORIES if game is None or _plays(name, game)]


#: The most playouts per move a bot named ``"mcts:N"`` may take (a menu or the command
#: line cannot ask for a search that never ends; ``MCTSBot(...)`` itself takes any number).
MAX_NAMED_ITERATIONS = 100_000


def bots_allowed(game: Any = None) -> str:
    """The phrase that lists the bot names (for ``game``, if given).

    >>> bots_allowed("jinns")
    'random, greedy, mcts, mcts:N (N playouts a move, 1 … 100000)'
    """
    names = [n if n != "mcts" else f"mcts, mcts:N (N playouts a move, 1 … "
                                   f"{MAX_NAMED_ITERATIONS})" for n in bot_names(game)]
    return ", ".join(names)


def check_bot_name(name: Any, game: Any = None) -> tuple[str, int | None]:
    """``(bot, iterations)`` for a bot name such as ``"greedy"`` or ``"mcts:800"``
    (``iterations`` None unless given), or :class:`ArgumentError` saying which names
    are allowed (for ``game``, a game or its name, if given). Nothing is built.

    >>> check_bot_name("mcts:800")
    ('mcts', 800)
    >>> check_bot_name("mcts:99999999999999999999")
    Traceback (most recent call last):
    ...
    janus_widgets.core.errors.ArgumentError: 'mcts:99999999999999999999': write mcts:N with N a whole number of playouts a move from 1 to 100000
    """
    if not isinstance(name, str):
        raise ArgumentError("bot", name, bots_allowed(game),
                            message=f"a bot is named by text ({bots_allowed(game)}), "
                                    f"not {type(name).__name__}")
    base, colon, arg = name.strip().partition(":")
    if base not in BOT_FACTORIES:
        raise ArgumentError("bot", name, bots_allowed(game),
                            message=f"no bot called {name!r}; the bots are: "
                                    f"{bots_allowed(game)}")
    if game is not None and not _plays(base, game):
        title = getattr(game, "title", game)
        raise ArgumentError("bot", name, bots_allowed(game),
                            message=f"the {base} bot does not play {title}; the bots for "
                                    f"{title} are: {bots_allowed(game)}")
    if base == "mcts" and colon:
        digits = arg.strip()
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 7 or \
                not 1 <= int(digits) <= MAX_NAMED_ITERATIONS:
            raise ArgumentError("bot", name, f"mcts:N, N from 1 to {MAX_NAMED_ITERATIONS}",
                                message=f"{name!r}: write mcts:N with N a whole number of "
                                        f"playouts a move from 1 to {MAX_NAMED_ITERATIONS}")
        return base, int(digits)
    if colon:
        raise ArgumentError("bot", name, bots_allowed(game),
                            message=f"{name!r}: only mcts takes an argument (mcts:N)")
    return base, None


def make_bot(name: str, game: Any, seat: int, seed: int) -> Callable[[Any], Any]:
    """A named bot for ``seat`` of ``game``, seeded. ``"mcts:800"`` sets the
    iterations (1 … :data:`MAX_NAMED_ITERATIONS`); a name that is not a bot raises
    :class:`ArgumentError` (see :func:`check_bot_name`)."""
    base, iterations = check_bot_name(name, game)
    if iterations is not None:
        return MCTSBot(iterations, seed=seed)
    return BOT_FACTORIES[base](game, seat, seed)

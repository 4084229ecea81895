"""Every janus_widgets game as an OpenSpiel game (optional extra ``openspiel``).

Importing this module registers four Python games with OpenSpiel::

    import pyspiel
    import janus_widgets.interop.openspiel          # registers the games
    game = pyspiel.load_game("janus_widgets_jinns", {"players": 3})

The short names are ``janus_widgets_janus``, ``janus_widgets_janus_cards``,
``janus_widgets_jactus`` and ``janus_widgets_jinns`` (:func:`openspiel_name`).
The rules are our engines' own (``game.engine(variant)``); this module only
translates. What OpenSpiel sees:

**Parameters.** Every variant option, under its own name, with its default:
whole numbers, booleans and text as they are. Table options (Janus's ``tiles``
and ``squares``) are text: ``""`` (the default), JSON (``"[[1, 5, 4, 2, 3], …]"``)
or a compact form without commas that also survives OpenSpiel's game strings
(tiles: the 100 codes separated by spaces, ``"R3+ Y2|J …"``; squares: five rows
of five digits, bottom row first, ``"15423 54312 21534 32145 43251"``). Text
values made only of digits and dashes would read back as numbers from a game
string, so their dashes are written ``to``: Janus's ``distances`` is ``"1to5"``,
``"2to4"``, … (``"1-5"`` is accepted too). One more
parameter, ``max_game_length``, caps the number of decisions (see below).

**Actions.** A player's action is the engine's action number, so
``num_distinct_actions`` is ``engine.num_actions`` and the numbering documented
in ``seeds/<game>.md`` holds as it is. Chance outcomes are small numbers of
their own (OpenSpiel's ``max_chance_outcomes``):

* Jactus: the multiset of dice thrown, 0 … 460 (engine outcome − 462);
* Jinns (random placement): the pawn kind drawn, 0 … 15 (engine outcome − 308);
* the card game: the side dealt or turned up, 0 … 2·deck − 1 (engine outcome − 343);
* Janus: the shuffle (one outcome among 100! in the engine, too many to list) is
  laid **field by field** for OpenSpiel only: 100 chance nodes, a1, b1, … j10,
  each choosing which of the remaining tiles (0 … 99, table order) lies there,
  uniformly. That is exactly the engine's distribution (every order has chance
  1/100!), OpenSpiel sees explicit, enumerable chance everywhere (so every
  algorithm and the serialization work), and after the hundredth draw the engine
  plays its own shuffle outcome for that order.

**Length.** OpenSpiel needs a longest game. ``max_game_length`` counts
decisions (chance outcomes do not count). Janus and the card game have a bound
by their own rules (JB-20, JC-16): with the default ``max_game_length=0`` that
bound is used and no game is ever cut off. Jactus and Jinns have none (random
Jactus play almost never ends; Jinns with ``repetition_limit=0`` may not), so
they default to a cut-off of 2000 and 1000 decisions. A game reaching
``max_game_length`` decisions ends **for OpenSpiel only** as a draw (every
return 0); the engine and its rules are untouched (its state simply goes on
unfinished).

**Applying actions.** As everywhere in OpenSpiel, ``apply_action`` trusts its
caller (it is the engine's lean path); ``apply_action_with_legality_check`` checks.

**Returns.** Zero-sum: a sole winner +1, every other seat −1/(n−1); seats tied
for the win share (:func:`janus_widgets.interop.zero_sum_returns`).

**Observations.** Built only from ``state.view(seat)``: the observation string is
the view's text (the state's own text in the three games without secrets, the
:class:`CardsView` in the card game), the observation tensor the
:mod:`~janus_widgets.interop.encoding` vector of that view. The information-state
string adds the seat's whole history as that seat saw it (``observed()``, the
same text as ``state.history_for(seat)``: in the card game with the sides the
seat did not see written ``?``), one line per ply, so it has perfect recall.
There is no information-state tensor.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError("janus_widgets.interop.openspiel needs OpenSpiel: "
                      "pip install 'janus_widgets[openspiel]'") from exc

from .. import games as registry
from ..core.protocol import CHANCE, TERMINAL, Engine, Game, State, seat_name
from . import zero_sum_returns
from .encoding import encoder

__all__ = ["PREFIX", "openspiel_name", "register", "load", "params_of", "openspiel_state",
           "to_state", "resampler", "GAME_NAMES"]

#: Prefix of the OpenSpiel short names (``janus_widgets_jinns``).
PREFIX = "janus_widgets_"


def openspiel_name(game: str | Game) -> str:
    """The OpenSpiel short name of a game: ``"janus-cards"`` → ``"janus_widgets_janus_cards"``.

    >>> openspiel_name("janus-cards")
    'janus_widgets_janus_cards'
    """
    name = game if isinstance(game, str) else game.name
    return PREFIX + name.replace("-", "_")


# --- what differs per game ----------------------------------------------------------------
def _janus_bound(engine: Engine) -> int | None:
    # JB-20: every decision either makes progress (a tile removed: at most 100; a coin paid
    # from the hand: at most players × coins) or counts towards the idle limit, which ends
    # the game when reached.
    # With idle_rounds=0 there is no such limit, and no longest game.
    from ..games.janus.components import FIELDS
    if not engine.idle_limit:
        return None
    return (FIELDS + engine.num_players * engine.start_coins + 1) * engine.idle_limit


def _cards_bound(engine: Engine) -> int:
    # JC-16: at most stall_limit turns without a trio, at most deck // 3 trios; one
    # draw or discard per turn, plus one agree per seat (JC-14) -- or, with
    # agreement='joint', where a proposal can lapse and be made again, one per turn.
    trios = engine.deck // 3
    turns = trios + (trios + 1) * engine.stall_limit
    return 2 * turns if engine.joint else turns + engine.num_players


def _cards_chance(engine: Engine) -> int:
    return 2 * engine.deck


def _split_tiles(text: str) -> list[str]:
    return text.split()


def _split_squares(text: str) -> list[list[int]]:
    rows = text.split()
    if not all(row.isdigit() for row in rows):
        raise ValueError(f"squares={text!r}: write five rows of five digits, bottom row "
                         "first, separated by spaces (or give JSON)")
    return [[int(ch) for ch in row] for row in rows]


def _join_tiles(value: Any) -> str:
    return "" if value is None else " ".join(t.code for t in value)


def _join_squares(value: Any) -> str:
    return " ".join("".join(str(v) for v in row) for row in value)


@dataclass(frozen=True)
class _Spec:
    """How one game meets OpenSpiel."""

    chance_base: int | None          # engine outcome = base + OpenSpiel outcome; None: Janus
    max_chance: Callable[[Engine], int]
    bound: Callable[[Engine], int | None] | None   # the longest game the rules allow
    default_cap: int                 # default max_game_length (0: the rules' bound)
    #: Table options: option name -> (read the compact text, write it).
    tables: Mapping[str, tuple[Callable[[str], Any], Callable[[Any], str]]]
    #: Perfect information: the game declares no secrets (``Engine.has_secrets``).
    perfect: bool = True


def _specs() -> dict[str, _Spec]:
    from ..games.jactus import rules as jactus
    from ..games.janus_cards import tables as cards
    from ..games.jinns import rules as jinns
    from .. import games
    specs = {
        "janus": _Spec(None, lambda e: 100, _janus_bound, 0,
                       {"tiles": (_split_tiles, _join_tiles),
                        "squares": (_split_squares, _join_squares)}),
        "janus-cards": _Spec(cards.CHANCE_BASE, _cards_chance, _cards_bound, 0, {}),
        "jactus": _Spec(jactus.CHANCE_BASE, lambda e: jactus.N_MS, None, 2000, {}),
        "jinns": _Spec(jinns.CHANCE_BASE, lambda e: 16, None, 1000, {}),
    }
    return {name: replace(spec, perfect=not games.get(name).has_secrets)
            for name, spec in specs.items()}


_SPECS: dict[str, _Spec] = {}


def _spec(name: str) -> _Spec:
    if not _SPECS:
        _SPECS.update(_specs())
    if name not in _SPECS:
        raise ValueError(f"{name!r} has no OpenSpiel adapter; the adapted games are: "
                         + ", ".join(_SPECS))
    return _SPECS[name]


# --- parameters <-> variants -------------------------------------------------------------
_PLAIN = (bool, int, float, str)
_NUMERIC = set("+-0123456789.")


def _os_text(value: Any) -> Any:
    """A text option value as OpenSpiel can read it back from a game string: text made
    of digits and signs only (Janus's ``distances="1-5"``) would be read as a number,
    so its dashes are written ``to`` (``"1to5"``)."""
    if isinstance(value, str) and value and set(value) <= _NUMERIC:
        return value.replace("-", "to")
    return value


def _from_os_text(opt: Any, value: Any) -> Any:
    if isinstance(value, str) and opt.choices:
        for choice in opt.choices:
            if _os_text(choice) == value:
                return choice
    return value


def _defaults(game: Game) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for opt in game.Variant.options():
        out[opt.name] = _os_text(opt.default) if type(opt.default) in _PLAIN else ""
    out["max_game_length"] = _spec(game.name).default_cap
    return out


def params_of(variant: Any, *, max_game_length: int | None = None) -> dict[str, Any]:
    """OpenSpiel parameters for a variant (only the options that differ from the
    defaults; tables in the compact form), e.g. ``{"players": 3}``."""
    game = _game_of_variant(variant)
    spec = _spec(game.name)
    default = type(variant)()
    out: dict[str, Any] = {}
    for opt in variant.options():
        value = getattr(variant, opt.name)
        if value == getattr(default, opt.name):
            continue
        if type(opt.default) in _PLAIN:
            out[opt.name] = _os_text(value)
        else:
            out[opt.name] = spec.tables[opt.name][1](value)
    if max_game_length is not None:
        out["max_game_length"] = max_game_length
    return out


def _game_of_variant(variant: Any) -> Game:
    for game in registry.all_games():
        if isinstance(variant, game.Variant):
            return game
    raise TypeError(f"{variant!r} is not the variant of a registered game")


def _variant_of(game: Game, params: Mapping[str, Any]) -> Any:
    spec = _spec(game.name)
    data: dict[str, Any] = {}
    for opt in game.Variant.options():
        if opt.name not in params:
            continue
        value = params[opt.name]
        if type(opt.default) in _PLAIN:
            data[opt.name] = _from_os_text(opt, value)
            continue
        text = str(value).strip()
        if not text:
            continue
        if text[0] in "[{" or text == "null":
            try:
                data[opt.name] = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{game.title} parameter {opt.name}: not valid JSON "
                                 f"({exc})") from None
        else:
            data[opt.name] = spec.tables[opt.name][0](text)
    return game.Variant.from_dict(data)


# --- one game under one set of parameters ---------------------------------------------
class _Context:
    """Everything a state needs that is the same for the whole game (shared, never copied)."""

    def __init__(self, name: str, params: tuple[tuple[str, Any], ...]) -> None:
        self.key = (name, params)
        game = registry.get(name)
        values = dict(params)
        self.game = game
        self.spec = _spec(name)
        self.variant = _variant_of(game, values)
        self.engine = game.engine(self.variant)
        self.num_players = self.engine.num_players
        self.encoder = encoder(game, self.variant)
        cap = values.get("max_game_length", self.spec.default_cap)
        if isinstance(cap, bool) or not isinstance(cap, int) or cap < 0:
            raise ValueError(f"max_game_length={cap!r}: use a whole number of decisions "
                             "(0: the longest game the rules allow)")
        bound = self.spec.bound(self.engine) if self.spec.bound else None
        if cap == 0 and bound is None:
            raise ValueError(f"{game.title} has no longest game by its rules: give "
                             "max_game_length, the number of decisions after which the "
                             "OpenSpiel game ends as a draw")
        self.cap = cap
        self.max_length = min(cap, bound) if (cap and bound) else (cap or bound)
        self.base = self.spec.chance_base
        self.params = values
        n = self.num_players
        self.info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_actions,
            max_chance_outcomes=self.spec.max_chance(self.engine),
            num_players=n, min_utility=-1.0 / (n - 1), max_utility=1.0, utility_sum=0.0,
            max_game_length=int(self.max_length))
        self._probs: dict[int, tuple[Any, list[tuple[int, float]]]] = {}
        initial = self.engine.initial()
        self.root = _Node(self, initial, () if self.base is None else None, 0, False,
                          None, CHANCE, -1, None)

    def __reduce__(self) -> tuple:
        return (_context, self.key)

    def __deepcopy__(self, memo: dict) -> _Context:
        return self

    def view(self, raw: Any, player: int | None) -> Any:
        return self.game.State(self.engine, raw, seed=0).view(player)

    def probs(self, outcomes: Any) -> list[tuple[int, float]]:
        """OpenSpiel's (outcome, probability) list of the engine's chance outcomes."""
        found = self._probs.get(id(outcomes))
        if found is not None and found[0] is outcomes:
            return found[1]
        base = self.base
        out = sorted((a - base, float(p) if isinstance(p, Fraction) else p)
                     for a, p in outcomes)
        if len(self._probs) >= 64:
            self._probs.clear()
        self._probs[id(outcomes)] = (outcomes, out)   # kept alive, so the id stays its own
        return out


_CONTEXTS: dict[tuple, _Context] = {}


def _context(name: str, params: tuple[tuple[str, Any], ...]) -> _Context:
    key = (name, params)
    ctx = _CONTEXTS.get(key)
    if ctx is None:
        ctx = _CONTEXTS[key] = _Context(name, params)
    return ctx


class _Node:
    """One OpenSpiel state's content (immutable, shared by clones; see the module doc).

    ``laid`` is the tiles laid so far while the Janus shuffle is drawn field by field
    (else ``None``); ``decisions`` counts the decisions played; ``cut`` says that
    ``max_game_length`` ended the game. ``who``/``act``/``eng`` tell how this node was
    reached from ``parent``: the actor, the OpenSpiel action, the engine action (``None``
    for a Janus draw before the last).
    """

    __slots__ = ("ctx", "raw", "laid", "decisions", "cut", "parent", "who", "act", "eng",
                 "_lines", "_texts")

    def __init__(self, ctx: _Context, raw: Any, laid: tuple[int, ...] | None,
                 decisions: int, cut: bool, parent: _Node | None, who: int, act: int,
                 eng: int | None) -> None:
        self.ctx = ctx
        self.raw = raw
        self.laid = laid
        self.decisions = decisions
        self.cut = cut
        self.parent = parent
        self.who = who
        self.act = act
        self.eng = eng
        self._lines: dict[int, str] | None = None
        self._texts: dict[int | None, str] | None = None

    def __deepcopy__(self, memo: dict) -> _Node:
        return self

    def __reduce__(self) -> tuple:
        start: _Node = self
        while start.parent is not None:
            start = start.parent
        if start is self.ctx.root:
            return (_replay, (self.ctx, self.actions()))
        # A node grown from a resampled position (see resampler()).
        return (_replay_from, (self.ctx, start.raw, start.decisions, self.actions()))

    def actions(self) -> tuple[int, ...]:
        """The OpenSpiel actions from the start to here."""
        out = []
        node: _Node | None = self
        while node is not None and node.parent is not None:
            out.append(node.act)
            node = node.parent
        return tuple(reversed(out))

    def current(self) -> int:
        if self.cut:
            return TERMINAL
        if self.laid is not None:
            return CHANCE
        return self.ctx.engine.current(self.raw)

    def legal(self) -> list[int]:
        return sorted(self.ctx.engine.actions(self.raw))

    def chance(self) -> list[tuple[int, float]]:
        laid = self.laid
        if laid is not None:
            from ..games.janus.components import FIELDS
            taken = set(laid)
            p = 1.0 / (FIELDS - len(laid))
            return [(t, p) for t in range(FIELDS) if t not in taken]
        return self.ctx.probs(self.ctx.engine.chance_outcomes(self.raw))

    def child(self, action: int) -> _Node:
        ctx = self.ctx
        eng = ctx.engine
        decisions = self.decisions
        if self.current() == CHANCE:
            who = CHANCE
            if self.laid is not None:
                from ..games.janus.components import FIELDS
                from ..games.janus.rules import shuffle_action
                laid = self.laid + (action,)
                if len(laid) < FIELDS:
                    return _Node(ctx, self.raw, laid, decisions, False, self, CHANCE,
                                 action, None)
                engine_action = shuffle_action(laid)
            else:
                engine_action = ctx.base + action
        else:
            who = self.current()
            engine_action = action
            decisions += 1
        raw = eng.apply(self.raw, engine_action)
        cut = bool(ctx.cap) and decisions >= ctx.cap and eng.current(raw) != TERMINAL
        return _Node(ctx, raw, None, decisions, cut, self, who, action, engine_action)

    def returns(self) -> list[float]:
        ctx = self.ctx
        if self.current() != TERMINAL or self.cut:
            return [0.0] * ctx.num_players
        return zero_sum_returns(ctx.engine.winners(self.raw), ctx.num_players)

    def action_text(self, player: int, action: int) -> str:
        ctx = self.ctx
        if player == CHANCE or (self.laid is not None):
            if self.laid is not None:
                from ..games.janus.components import field_name
                code = ctx.engine.table[action].code
                return f"{field_name(len(self.laid))}: tile {action:02d} ({code})"
            return ctx.engine.notation(self.raw, ctx.base + action)
        return ctx.engine.notation(self.raw, action)

    def line(self, player: int) -> str:
        """What ``player`` saw of the step that led here."""
        lines = self._lines
        if lines is None:
            lines = self._lines = {}
        text = lines.get(player)
        if text is None:
            parent = self.parent
            assert parent is not None
            if parent.laid is not None:
                text = parent.action_text(CHANCE, self.act)
            else:
                text = self.ctx.engine.observed(parent.raw, self.eng, player)
            lines[player] = text
        return text

    def _memo(self, key: int, make: Callable[[], str]) -> str:
        texts = self._texts
        if texts is None:
            texts = self._texts = {}
        text = texts.get(key)
        if text is None:
            text = texts[key] = make()
        return text

    def _engine_text(self) -> str:
        return self._memo(-1, lambda: self.ctx.engine.text(self.raw))

    def _view_text(self, player: int) -> str:
        # Made once per node. In the games without secrets every seat's view is the state
        # itself, whose text is the engine's.
        if self.ctx.spec.perfect:
            return self._engine_text()
        return self._memo(player, lambda: str(self.ctx.view(self.raw, player)))

    def observation(self, player: int) -> str:
        text = self._view_text(player)
        if self.cut:
            text += (f"\nCut off: {self.decisions} decisions reached OpenSpiel's "
                     "max_game_length; the OpenSpiel game ends here as a draw.")
        return text

    def information(self, player: int) -> str:
        steps = []
        node: _Node = self
        while node.parent is not None:
            steps.append(node.line(player))
            node = node.parent
        steps.reverse()
        history = "\n".join(f"{k}. {line}" for k, line in enumerate(steps, 1))
        return (f"{self.observation(player)}\nHistory as {seat_name(player)} saw it "
                f"({len(steps)} plies):\n{history}")

    def text(self) -> str:
        text = self._engine_text()
        if self.laid is not None:
            from ..games.janus.components import field_name
            laid = " ".join(f"{field_name(f)}:{t:02d}" for f, t in enumerate(self.laid))
            text += f"\nShuffle, laid field by field for OpenSpiel: {laid or 'none yet'}"
        if self.cut:
            text += (f"\nCut off after {self.decisions} decisions (max_game_length): "
                     "a draw for OpenSpiel.")
        return text


def _replay(ctx: _Context, actions: tuple[int, ...]) -> _Node:
    node = ctx.root
    for a in actions:
        node = node.child(a)
    return node


def _replay_from(ctx: _Context, raw: Any, decisions: int, actions: tuple[int, ...]) -> _Node:
    node = _Node(ctx, raw, None, decisions, False, None, CHANCE, -1, None)
    for a in actions:
        node = node.child(a)
    return node


# --- the pyspiel classes ------------------------------------------------------------------
class _State(pyspiel.State):
    """An OpenSpiel state of a janus_widgets game (see the module documentation)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._node = game._ctx.root

    def current_player(self) -> int:
        return self._node.current()

    def _legal_actions(self, player: int) -> list[int]:
        return self._node.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._node.chance()

    def _apply_action(self, action: int) -> None:
        self._node = self._node.child(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._node.action_text(player, int(action))

    def is_terminal(self) -> bool:
        return self._node.current() == TERMINAL

    def returns(self) -> list[float]:
        return self._node.returns()

    def __str__(self) -> str:
        return self._node.text()

    # --- janus_widgets extras ------------------------------------------------------------
    @property
    def raw(self) -> Any:
        """The engine's raw state (during the Janus field-by-field shuffle: before it)."""
        return self._node.raw

    @property
    def cut_off(self) -> bool:
        """Whether ``max_game_length`` ended this game (for OpenSpiel only)."""
        return self._node.cut

    def to_state(self) -> State:
        """The janus_widgets state with this game's whole history (see :func:`to_state`)."""
        return to_state(self)


class _Observer:
    """OpenSpiel's observer: strings and tensors from ``state.view(player)`` only.

    The default observation and the information state (perfect recall) are the seat's
    view. In the three games without secrets everything is public: an observation of
    the public information is the same view, one of private information only is empty.
    The card game offers no factored (public-only or private-only) observations: their
    strings are ``None`` and they have no tensor; an observation of every seat's private
    information is refused.
    """

    def __init__(self, ctx: _Context, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params!r}")
        kind = iig_obs_type
        self.ctx = ctx
        self.recall = bool(kind is not None and kind.perfect_recall)
        self.mode = "view"
        if kind is not None:
            single = kind.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
            if not ctx.spec.perfect and kind.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ValueError("the card game observes one seat's view at a time: an "
                                 "observation of every seat's private information would "
                                 "show their secrets")
            if not kind.public_info:
                self.mode = "empty" if ctx.spec.perfect else "none"
            elif not ctx.spec.perfect and not single:
                self.mode = "none"
        if self.recall or self.mode != "view":
            self.tensor = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            self.tensor = np.zeros(ctx.encoder.size, np.float32)
            self.dict = ctx.encoder.unpack(self.tensor)

    def set_from(self, state: _State, player: int) -> None:
        if self.tensor is not None:
            node = state._node
            self.ctx.encoder.encode(self.ctx.view(node.raw, player), player, out=self.tensor)

    def string_from(self, state: _State, player: int) -> str | None:
        if self.mode == "none":
            return None
        if self.mode == "empty":
            return ""
        node = state._node
        return node.information(player) if self.recall else node.observation(player)


def _make_game_class(game: Game) -> tuple[Any, type]:
    spec = _spec(game.name)
    defaults = _defaults(game)
    players = next(o for o in game.Variant.options() if o.name == "players")
    counts = list(players.choices) if players.choices else [int(players.minimum),
                                                            int(players.maximum)]
    info = pyspiel.GameType.Information
    game_type = pyspiel.GameType(
        short_name=openspiel_name(game), long_name=f"{game.title} (janus_widgets)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(info.PERFECT_INFORMATION if spec.perfect
                     else info.IMPERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts), min_num_players=min(counts),
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=defaults)

    def __init__(self: Any, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        unknown = set(given) - set(defaults)
        if unknown:
            raise ValueError(f"{game.title} has no parameter {sorted(unknown)[0]!r}; the "
                             f"parameters are: {', '.join(defaults)}")
        # Text values are kept as game strings can give them back ("1-5" → "1to5").
        full = {k: _os_text(v) for k, v in {**defaults, **given}.items()}
        ctx = _context(game.name, tuple(sorted(full.items())))
        pyspiel.Game.__init__(self, game_type, ctx.info, full)
        self._ctx = ctx

    def new_initial_state(self: Any) -> _State:
        return _State(self)

    def make_py_observer(self: Any, iig_obs_type: Any = None, params: Any = None
                         ) -> _Observer:
        return _Observer(self._ctx, iig_obs_type, params)

    cls = type(f"OpenSpiel{game.name.title().replace('-', '')}Game", (pyspiel.Game,), {
        "__init__": __init__, "new_initial_state": new_initial_state,
        "make_py_observer": make_py_observer,
        "__doc__": f"{game.title} as an OpenSpiel game (see janus_widgets.interop.openspiel).",
        "__module__": __name__})
    return game_type, cls


#: OpenSpiel short name -> janus_widgets game name, for the games registered.
GAME_NAMES: dict[str, str] = {}


def register() -> list[str]:
    """Register every game with OpenSpiel (done on import; safe to call again).

    A game registered with janus_widgets but without an adapter here (see ``_specs``)
    is left out."""
    known = set(pyspiel.registered_names())
    _spec("janus")                                   # fills the adapter table
    for game in registry.all_games():
        if game.name not in _SPECS:
            continue
        short = openspiel_name(game)
        if short not in known:
            game_type, cls = _make_game_class(game)
            pyspiel.register_game(game_type, cls)
        GAME_NAMES[short] = game.name
    return list(GAME_NAMES)


def load(game: str | Game, variant: Any = None, *, max_game_length: int | None = None,
         **options: Any) -> Any:
    """The OpenSpiel game of a janus_widgets game and variant.

    >>> g = load("jinns", players=3)
    >>> g.num_players(), g.num_distinct_actions(), g.max_chance_outcomes()
    (3, 324, 16)
    """
    game_obj = registry.get(game) if isinstance(game, str) else game
    variant_obj = game_obj.variant(variant, **options)
    return pyspiel.load_game(openspiel_name(game_obj),
                             params_of(variant_obj, max_game_length=max_game_length))


def openspiel_state(state: State, os_game: Any = None) -> Any:
    """The OpenSpiel state reached by a janus_widgets state's history.

    ``os_game`` defaults to :func:`load` of the state's game and variant. The
    state must have been played from the start (not built by hand).
    """
    if state.start.raw != state.engine.initial():
        raise ValueError("this state was not played from the start of a game (a position "
                         "built by hand); OpenSpiel states replay a game from its start")
    game = state.game
    os_game = os_game if os_game is not None else load(game, state.variant)
    if os_game._ctx.game is not game or os_game._ctx.variant != state.variant:
        raise ValueError("os_game is not this state's game and variant")
    base = os_game._ctx.base
    out = os_game.new_initial_state()
    for move in state.history:
        if out.is_terminal():
            raise ValueError(f"the OpenSpiel game ended (max_game_length) before "
                             f"{move.notation!r}")
        if move.chance:
            if base is None:
                from ..games.janus.rules import shuffle_order
                for tile in shuffle_order(move.action):
                    out.apply_action(tile)
                continue
            out.apply_action(move.action - base)
        else:
            out.apply_action(move.action)
    return out


def resampler(seed: int = 0) -> Callable[[Any, int], Any]:
    """A resampler for OpenSpiel's ISMCTS in the card game: ``resample(state, player)``
    draws a full position that ``player``'s view cannot tell from ``state``, with the
    engine's :meth:`~janus_widgets.core.protocol.Engine.determinize` (every arrangement of
    the unseen sides weighed by its chance), reading nothing but that view.

    The new state starts at the drawn position (its OpenSpiel history is empty, its
    information-state string shows no past): give ISMCTS ``use_observation_string=True``,
    which keys its tree by the seat's view::

        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=100,
                               use_observation_string=True, random_state=rng)
        bot.set_resampler(jos.resampler(seed=1))

    In the games without secrets the state is simply cloned.
    """
    from ..core.rng import RandomStream
    stream = RandomStream(seed)

    def resample(os_state: Any, player: int) -> Any:
        node = os_state._node
        ctx = node.ctx
        if ctx.spec.perfect or node.laid is not None or node.cut:
            return os_state.clone()
        raw = ctx.engine.determinize(ctx.view(node.raw, player), stream)
        out = os_state.get_game().new_initial_state()
        out._node = _Node(ctx, raw, None, node.decisions, False, None, CHANCE, -1, None)
        return out

    return resample


def to_state(os_state: Any) -> State:
    """The janus_widgets state (with its history, seed 0) of an OpenSpiel state of our games.

    During the Janus field-by-field shuffle the state is the one before the shuffle.
    """
    node = os_state._node
    ctx = node.ctx
    chain = []
    while node.parent is not None:
        if node.eng is not None:
            chain.append(node.eng)
        node = node.parent
    state = ctx.game.new(ctx.variant, seed=0)
    for action in reversed(chain):
        state = state.play_action(action)
    return state


register()

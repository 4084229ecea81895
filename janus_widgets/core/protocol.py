"""The protocol every game implements: engine, state, move, chance, views, errors.

A game is two layers over one set of rules:

* The **engine** (:class:`Engine`) is the lean path. It works on plain tuples
  ("raw" states) and whole-number actions, with no checks and no objects it
  does not need. Playouts, bots, search and simulations use it.
* The **state** (:class:`State`) is what people use. It is immutable; every
  method checks its input; moves are :class:`Move` values with a short text
  notation and a one-sentence description; an illegal move raises
  :class:`IllegalMoveError` naming the rule (for example ``JA-7``) and the legal
  options; chance points list their outcomes with exact probabilities.

An action number means the same thing in every state of a game (a fixed,
documented numbering per game), so a :class:`Move` taken from one state can be
offered to another, and the numbering doubles as the action space for other
frameworks. Chance outcomes are actions too: they are played like moves and go
into the history and the game record.

>>> from janus_widgets import games
>>> state = games.get("jactus").new(seed=1)
>>> state.current_player, state.is_chance
(0, False)
>>> state = state.play("r*")          # A throws all five dice
>>> state.is_chance
True
>>> state = state.play("=12346")      # ... and they show 1, 2, 3, 4, 6
>>> state.current_player              # no five of a kind: B is to move
1
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

import numpy as np

from .errors import (ArgumentError, IllegalMoveError, InvalidMoveError, VariantError,
                     format_options)
from .rng import RandomStream, chance_rng, check_rng, check_seed, fresh_seed
from .variant import CUSTOM, Ruleset, Variant, check_rulesets

if TYPE_CHECKING:
    from .record import Record

__all__ = [
    "CHANCE", "TERMINAL", "seat_name", "seat_index", "winners_text", "Move", "MoveList",
    "Explanation", "Engine", "State", "Game", "Raw", "Prefix", "TABLE", "viewer_name",
    "check_seat", "check_viewer", "non_ascii",
]

#: ``current_player`` while chance is to act (the OpenSpiel convention).
CHANCE = -1
#: ``current_player`` once the game is over.
TERMINAL = -4
#: The viewpoint of the whole table: what every seat has seen (a screen passed round,
#: hot-seat play). ``state.view(TABLE)``; in a game without secrets, the state itself.
TABLE = "table"

Raw = Hashable
VariantT = TypeVar("VariantT", bound=Variant)
StateT = TypeVar("StateT", bound="State")

SEAT_LETTERS = "ABCDEF"

#: How states become records and records are read: put here by the modules above
#: (:mod:`.record` and :mod:`.seat_record`, which ``janus_widgets.core`` imports), so
#: that this module, the lowest of the protocol, imports neither (no import circle):
#: ``"record"`` (state, meta) → Record, ``"seat_record"`` (state, seat, meta) →
#: SeatRecord, ``"read"`` (source) → Record, ``"from_replay"`` (replay, meta) → Record,
#: ``"view"`` (record, seat) → SeatRecord.
RECORD_KEEPING: dict[str, Callable[..., Any]] = {}


def record_keeping(what: str) -> Callable[..., Any]:
    """The record-keeping function ``what`` (see :data:`RECORD_KEEPING`)."""
    try:
        return RECORD_KEEPING[what]
    except KeyError:
        raise RuntimeError(f"records are kept by janus_widgets.core.record and "
                           f".seat_record, which import janus_widgets.core installs; "
                           f"{what!r} is not installed") from None


def seat_name(seat: int) -> str:
    """The letter players read for a seat number: 0 → 'A', 1 → 'B', …

    >>> seat_name(0), seat_name(3), seat_name(CHANCE)
    ('A', 'D', 'chance')
    """
    if seat == CHANCE:
        return "chance"
    if seat == TERMINAL:
        return "nobody (game over)"
    return SEAT_LETTERS[seat]


def winners_text(winners: Sequence[int]) -> str:
    """``"A wins"``, ``"A and C share the win"`` or ``"nobody wins"``.

    >>> winners_text([0]), winners_text([0, 2]), winners_text([])
    ('A wins', 'A and C share the win', 'nobody wins')
    """
    names = [seat_name(p) for p in winners]
    if not names:
        return "nobody wins"
    if len(names) == 1:
        return f"{names[0]} wins"
    return ", ".join(names[:-1]) + f" and {names[-1]} share the win"


def viewer_name(viewer: Any) -> str:
    """Who a viewpoint is, in words: a seat's letter, "the table" or "the teacher".

    >>> viewer_name(1), viewer_name(TABLE), viewer_name(None)
    ('B', 'the table', 'the teacher')
    """
    if viewer is None:
        return "the teacher"
    if viewer == TABLE:
        return "the table"
    return seat_name(viewer)


def seat_index(text: str, num_players: int) -> int:
    """Read a seat letter (``'B'`` or ``'b'``) back into a seat number.

    >>> seat_index("c", 4)
    2
    """
    letter = text.strip().upper()
    if len(letter) != 1 or letter not in SEAT_LETTERS[:num_players]:
        raise ValueError(f"{text!r} is not a seat here: use one of "
                         + ", ".join(SEAT_LETTERS[:num_players]))
    return SEAT_LETTERS.index(letter)


def non_ascii(text: str) -> str:
    """Why ``text`` is not move notation if it holds a character outside ASCII (every
    game's notation is plain ASCII: a digit such as ``'٦'`` is not the 6 it looks like),
    else ``""``.

    >>> non_ascii("a6"), non_ascii("a\u0666")
    ('', "notation is plain ASCII text, and '٦' (U+0666 ARABIC-INDIC DIGIT SIX) is not")
    """
    if text.isascii():
        return ""
    import unicodedata
    char = next(ch for ch in text if not ch.isascii())
    name = unicodedata.name(char, "")
    return (f"notation is plain ASCII text, and {char!r} (U+{ord(char):04X}"
            f"{' ' + name if name else ''}) is not")


@dataclass(frozen=True, slots=True)
class Move:
    """A move (or a chance outcome): a hashable value with a text notation.

    Two moves are equal when they are the same action of the same game; the
    notation and the description are for people.
    """

    game: str
    action: int
    notation: str = field(compare=False)
    description: str = field(compare=False, default="")
    chance: bool = field(compare=False, default=False)

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        return f"Move({self.notation!r})"


class MoveList(tuple):
    """The legal moves of a state: a tuple of :class:`Move` in a stable order.

    ``in`` accepts notation as well as moves, and :meth:`get` finds a move by
    its notation.
    """

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            return self.get(item) is not None
        return tuple.__contains__(self, item)

    def get(self, notation: str) -> Move | None:
        """The move with this notation, or ``None``."""
        for move in self:
            if move.notation == notation:
                return move
        return None

    def notations(self) -> list[str]:
        """The notation of every move, in order."""
        return [m.notation for m in self]

    def __repr__(self) -> str:
        return "MoveList([" + ", ".join(repr(m.notation) for m in self) + "])"


@dataclass(frozen=True)
class Explanation:
    """Why a move is (not) allowed: the rule ID and a sentence.

    ``str()`` gives ``"JA-7: …"``, the form the widgets show in the status line.
    """

    move: str
    legal: bool
    rule: str
    reason: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.reason}"

    def __bool__(self) -> bool:
        return self.legal


class Engine(ABC, Generic[VariantT]):
    """The rules of one game under one variant, on raw tuples and action numbers.

    Subclasses implement the abstract methods. Nothing here checks its input:
    the :class:`State` layer does that, and search code that calls the engine
    directly must only apply actions it got from :meth:`actions` or
    :meth:`sample`.
    """

    #: Rule cited when a seat moves out of turn.
    turn_rule: ClassVar[str] = ""
    #: Rule cited when a player tries to act at a chance point.
    chance_rule: ClassVar[str] = ""
    #: Rule cited when a move is tried after the game has ended.
    over_rule: ClassVar[str] = ""
    #: Help text shown when notation cannot be read.
    notation_help: ClassVar[str] = ""
    #: Number of distinct decision actions (actions are ``0 … num_actions-1``).
    num_actions: ClassVar[int] = 0
    #: Whether the game has secrets: something one seat may know and another may not
    #: (the card game's hidden sides). Every game keeps its seed from the seats (it
    #: predicts the chance to come); a game with secrets also keeps each seat's
    #: secrets from the others: :meth:`view` differs by seat, a bot decides from its
    #: view (except where :meth:`greedy_values` promises to read only what its seat may
    #: see), and a seat's record (:meth:`~janus_widgets.core.record.Record.view`)
    #: stores that seat's views (:meth:`view_to_data`) instead of moves anyone could
    #: replay.
    has_secrets: ClassVar[bool] = False
    #: Whether :meth:`notation` depends on the action alone, never on the position
    #: (true of every game here; the conformance suite checks it). Loading a record
    #: then reads each distinct move text once instead of once per move.
    fixed_notation: ClassVar[bool] = True

    def __init__(self, variant: VariantT, game: Game | None = None) -> None:
        self.variant = variant
        self.game = game
        self.num_players: int = getattr(variant, "players")

    # --- the lean path -------------------------------------------------
    @abstractmethod
    def initial(self) -> Raw:
        """The raw start state (before any chance point is resolved)."""

    @abstractmethod
    def current(self, raw: Raw) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def actions(self, raw: Raw) -> Sequence[int]:
        """Legal actions in a stable order (chance outcomes at a chance point,
        empty where they cannot be enumerated)."""

    @abstractmethod
    def apply(self, raw: Raw, action: int) -> Raw:
        """The raw state after ``action`` (unchecked)."""

    @abstractmethod
    def sample(self, raw: Raw, stream: RandomStream) -> int:
        """Draw a chance outcome at a chance point."""

    def chance_outcomes(self, raw: Raw) -> Sequence[tuple[int, Fraction]] | None:
        """``(outcome, probability)`` pairs, or ``None`` if they cannot be listed."""
        return None

    def is_chance_action(self, action: int) -> bool:
        """Whether this action number is a chance outcome (in any state)."""
        return False

    def is_action(self, action: object) -> bool:
        """Whether ``action`` is an action number of this game at all: a decision
        ``0 … num_actions - 1`` or a chance outcome. The state layer refuses anything
        else with :class:`InvalidMoveError` before the engine sees it."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            return False
        return 0 <= action < self.num_actions or self.is_chance_action(int(action))

    def is_legal(self, raw: Raw, action: int) -> bool:
        """Whether ``action`` may be played in ``raw``."""
        return action in self.actions(raw)

    def winners(self, raw: Raw) -> tuple[int, ...]:
        """The winning seats (empty while the game goes on; several on a tie).

        By default the seats with the highest :meth:`scores` once the game is over;
        a game whose winner is decided otherwise (Jactus) overrides this."""
        if self.current(raw) != TERMINAL:
            return ()
        scores = self.scores(raw)
        best = max(scores)
        return tuple(p for p, s in enumerate(scores) if s == best)

    @abstractmethod
    def scores(self, raw: Raw) -> tuple[float, ...]:
        """Each seat's score as the rules count it (also during the game)."""

    def returns(self, raw: Raw) -> tuple[float, ...]:
        """Search rewards: 1 shared among the winners of a finished game, else 0."""
        n = self.num_players
        if self.current(raw) != TERMINAL:
            return (0.0,) * n
        won = self.winners(raw)
        if not won:
            return (0.0,) * n
        share = 1.0 / len(won)
        return tuple(share if p in won else 0.0 for p in range(n))

    # --- what bots look at ---------------------------------------------------
    def heuristic(self, raw: Raw, player: int) -> float:
        """How good ``raw`` looks for ``player`` (the greedy bot's one-move
        heuristic). Default: the player's score minus the best other score."""
        if self.current(raw) == TERMINAL:
            won = self.winners(raw)
            if player in won:
                return 1e6 / len(won)
            if won:
                return -1e6
        scores = self.scores(raw)
        others = [s for p, s in enumerate(scores) if p != player]
        return scores[player] - (max(others) if others else 0.0)

    def greedy_value(self, raw: Raw, action: int, player: int) -> float | None:
        """A closed form of the greedy bot's value of ``action`` (the heuristic
        expected after it and the chance that follows), or None to let the bot
        average over the outcomes itself. Only a speed-up: it must agree."""
        return None

    def greedy_values(self, raw: Raw, player: int) -> Sequence[float] | None:
        """The greedy bot's values of all of ``actions(raw)`` at once (in that order),
        or None to let the bot value them one by one.

        A game without secrets may return what :meth:`greedy_value` would give one
        by one, only faster. In a game with secrets (:attr:`has_secrets`) it must
        read nothing ``player`` may not see: the bot then plays straight from the
        raw state without building the seat's view (the tests compare it with
        states drawn from that view)."""
        return None

    def evaluate(self, raw: Raw) -> tuple[float, ...]:
        """Estimated rewards in [0, 1] per seat (search cut-offs): the result if
        the game is over, else scores scaled between the lowest and the highest."""
        if self.current(raw) == TERMINAL:
            return self.returns(raw)
        scores = self.scores(raw)
        lo, hi = min(scores), max(scores)
        if hi == lo:
            return (1.0 / len(scores),) * len(scores)
        return tuple(0.5 * (s - lo) / (hi - lo) for s in scores)

    # --- people's path -------------------------------------------------
    @abstractmethod
    def notation(self, raw: Raw, action: int) -> str:
        """The short text of an action (``str(move)``)."""

    @abstractmethod
    def parse(self, raw: Raw, text: str) -> int:
        """Read notation back into an action; raise :class:`InvalidMoveError`."""

    @abstractmethod
    def describe(self, raw: Raw, action: int) -> str:
        """One sentence saying what the action does, for the options list."""

    @abstractmethod
    def explain(self, raw: Raw, action: int) -> Explanation:
        """Why the action is legal or not here, with the rule ID."""

    @abstractmethod
    def text(self, raw: Raw) -> str:
        """A readable text form of the whole state."""

    def check_invariants(self, raw: Raw) -> None:
        """Raise ``AssertionError`` if the raw state breaks a game invariant."""

    def check_transition(self, before: Raw, after: Raw) -> None:
        """Raise ``AssertionError`` if one step from ``before`` to ``after`` breaks a
        rule that compares two positions (what may only ever leave, or only grow).
        The conformance suite calls it after every step of its random games."""

    def view(self, state: State, player: int | str | None) -> Any:
        """What ``player`` may see (``None``: everything; :data:`TABLE`: what every
        seat has seen). Perfect information: the state itself.

        A game with secrets returns a view object of its own; besides what it shows it
        answers ``current_player``, ``is_chance``, ``is_over``, ``scores()`` and
        ``winners()`` as a state does (a seat's record is stepped through by them)."""
        return state

    def view_to_data(self, view: Any) -> Any:
        """A game with secrets: the view as plain JSON data (lists, numbers, text),
        what a seat's record stores for each ply. :meth:`view_from_data` reads it."""
        raise NotImplementedError(f"{type(self).__name__} keeps no seat views: it has "
                                  "no secrets (a seat's record replays its moves)")

    def view_from_data(self, data: Any, viewer: int | str) -> Any:
        """The view :meth:`view_to_data` wrote (raise ``ValueError`` saying what is
        wrong with ``data``, or where the view is not one the rules allow)."""
        raise NotImplementedError(f"{type(self).__name__} keeps no seat views")

    def check_seat_step(self, before: Any, observed: str, after: Any) -> None:
        """A game with secrets: raise ``ValueError`` unless the seat's view ``after`` can
        follow its view ``before`` by a move it was told of as ``observed`` (what
        :meth:`observed` gives); a seat's record read from a file is proven by it."""
        raise NotImplementedError(f"{type(self).__name__} keeps no seat views")

    def position_key(self, raw: Raw) -> Hashable:
        """A hashable key of the position (for repetition and transposition)."""
        return raw

    # --- hidden information (games with secrets override these) -------------
    def observed(self, raw: Raw, action: int, player: int | str | None) -> str:
        """What ``player`` learns when ``action`` is played in ``raw`` (its notation,
        with anything that seat may not see left out). ``None``: everything;
        :data:`TABLE`: what every seat learns."""
        return self.notation(raw, action)

    def log_entry(self, raw: Raw, action: int, player: int | str | None) -> str:
        """The move log's words for ``action`` played in ``raw``, as ``player`` may know
        it (``None``: everything): short and readable, never a long number (a shuffle
        is "tiles shuffled and laid"). Default: :meth:`observed`."""
        return self.observed(raw, action, player)

    def told_words(self, view: Any, observed: str) -> str:
        """The log's words (:meth:`log_entry`) for a move a seat was told of as
        ``observed`` in the position it saw as ``view``: what a seat's record shows,
        which keeps no truth. A game without secrets needs nothing here: its view is
        the state itself and ``observed`` the notation, so this is :meth:`log_entry`
        of the move read back. A game with secrets whose log reads otherwise than
        :meth:`observed` says it the same way here (by default: ``observed`` itself).

        >>> from janus_widgets import games
        >>> state = games.get("jactus").new(seed=1).play("r*")
        >>> state.engine.told_words(state, "=12346")
        'threw 1 2 3 4 6'
        """
        if self.has_secrets:
            return observed
        raw = view.raw
        return self.log_entry(raw, self.parse(raw, observed), TABLE)

    def told_sentence(self, view: Any, observed: str) -> str:
        """The sentence that says what a move did, in the terms of the seat that saw
        the position as ``view`` and was told of the move as ``observed`` (the status
        line's last move says it). It must read nothing but those two, so a seat's record
        (which keeps no truth) says it as the game did. A game without secrets:
        :meth:`describe` of the move read back. A game with secrets words every move
        from what the seat was told; by default it has no sentence (``""``).

        >>> from janus_widgets import games
        >>> state = games.get("jactus").new(seed=1)
        >>> state.engine.told_sentence(state, "r*")
        'Throw all five dice to open the round.'
        """
        if self.has_secrets:
            return ""
        raw = view.raw
        return self.describe(raw, self.parse(raw, observed))

    def outcome(self, raw: Raw) -> str:
        """Who won and why, citing the rule, once the game is over ("A wins: all tiles
        are gone (JB-18)"); ``""`` while it goes on. Games say why; by default only
        who won."""
        if self.current(raw) != TERMINAL:
            return ""
        return winners_text(self.winners(raw))

    def determinize(self, view: Any, stream: RandomStream) -> Raw:
        """A full raw state consistent with a player's view, drawn at random.

        Search for games with secrets samples the unseen cards this way; it
        must read nothing but ``view``. Perfect information: the view's own raw.
        """
        return view.raw


class Prefix:
    """A history kept as action numbers: the first ``n`` of ``actions``, played from
    the start state (``last`` is the move that ends it). A state rebuilt from a
    replay checkpoint carries one instead of a chain of :class:`Move` objects, so a
    game of a million moves costs a few bytes per move; the moves are made only when
    :attr:`State.history` asks for them. ``actions`` is only ever appended to by its
    owner (a replay line), so the first ``n`` never change."""

    __slots__ = ("actions", "n", "last")

    def __init__(self, actions: Sequence[int], n: int, last: Move) -> None:
        self.actions = actions
        self.n = n
        self.last = last


def _make_move(eng: Engine, raw: Raw, action: int) -> Move:
    return Move(eng.game.name if eng.game else "", action, eng.notation(raw, action),
                eng.describe(raw, action), eng.is_chance_action(action))


class State:
    """An immutable game state. ``play`` returns a new state.

    Made by :meth:`Game.new`; every game subclasses it with readable
    properties (``state.dice`` in Jactus, for example).
    """

    __slots__ = ("_engine", "_raw", "_seed", "_ply", "_trail", "_start", "__weakref__")

    def __init__(self, engine: Engine, raw: Raw, *, seed: int, ply: int = 0,
                 trail: tuple | Prefix | None = None, start: State | None = None) -> None:
        self._engine = engine
        self._raw = raw
        self._seed = seed
        self._ply = ply
        self._trail = trail
        self._start = start

    # --- identity ------------------------------------------------------
    @property
    def game(self) -> Game:
        """The :class:`Game` this state belongs to."""
        assert self._engine.game is not None
        return self._engine.game

    @property
    def engine(self) -> Engine:
        """The lean engine for this state's variant."""
        return self._engine

    @property
    def variant(self) -> Variant:
        """The rule options in force."""
        return self._engine.variant

    @property
    def raw(self) -> Raw:
        """The engine's plain-tuple form of this state."""
        return self._raw

    @property
    def seed(self) -> int:
        """The game's seed: it drives every chance point that is sampled."""
        return self._seed

    @property
    def ply(self) -> int:
        """Number of moves and chance outcomes played since the start."""
        return self._ply

    @property
    def num_players(self) -> int:
        """Number of seats."""
        return self._engine.num_players

    @property
    def start(self) -> State:
        """The start state of this game (the first state of the history)."""
        return self._start if self._start is not None else self

    @property
    def history(self) -> tuple[Move, ...]:
        """Every move and chance outcome from the start to here."""
        moves: list[Move] = []
        trail = self._trail
        while isinstance(trail, tuple):
            trail, move = trail
            moves.append(move)
        moves.reverse()
        if trail is not None:                      # a Prefix: its moves are made now
            eng = self._engine
            raw = self.start.raw
            early = []
            for action in trail.actions[:trail.n]:
                early.append(_make_move(eng, raw, action))
                raw = eng.apply(raw, action)
            moves = early + moves
        return tuple(moves)

    def _actions(self) -> list[int]:
        """The action numbers from the start to here (no :class:`Move` is made for a
        :class:`Prefix`)."""
        later: list[int] = []
        trail = self._trail
        while isinstance(trail, tuple):
            trail, move = trail
            later.append(move.action)
        later.reverse()
        early = list(trail.actions[:trail.n]) if trail is not None else []
        return early + later

    def _notations(self) -> list[str]:
        """The notation of every move from the start to here (what a record holds)."""
        eng = self._engine
        raw = self.start.raw
        out = []
        for action in self._actions():
            out.append(eng.notation(raw, action))
            if not eng.fixed_notation:
                raw = eng.apply(raw, action)
        return out

    def history_for(self, player: int | None) -> list[str]:
        """The history as ``player`` saw it (``None``: everything)."""
        out: list[str] = []
        raw = self.start.raw
        eng = self._engine
        for action in self._actions():
            out.append(eng.observed(raw, action, player))
            raw = eng.apply(raw, action)
        return out

    @property
    def last_move(self) -> Move | None:
        """The move that led here (``None`` at the start)."""
        trail = self._trail
        if trail is None:
            return None
        return trail[1] if isinstance(trail, tuple) else trail.last

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (self._engine.variant == other._engine.variant
                and type(self._engine) is type(other._engine)
                and self._raw == other._raw)

    def __hash__(self) -> int:
        return hash((type(self._engine), self._engine.variant, self._raw))

    def __str__(self) -> str:
        return self._engine.text(self._raw)

    def __repr__(self) -> str:
        turn = ("over" if self.is_over else "chance" if self.is_chance
                else f"{seat_name(self.current_player)} to move")
        return (f"<{type(self).__name__} {self.game.name} ply {self._ply}, {turn}, "
                f"seed {self._seed}>")

    def _repr_svg_(self) -> str | None:
        from ..drawing import render_svg
        try:
            board = self.game.board()
        except (NotImplementedError, ModuleNotFoundError):
            return None  # a game without a drawing shows as text
        return render_svg(board.draw(self.view(None)))

    # --- whose turn ----------------------------------------------------
    @property
    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` while chance acts, :data:`TERMINAL` at the end."""
        return self._engine.current(self._raw)

    @property
    def is_chance(self) -> bool:
        """Whether chance acts next (``chance_outcomes`` / ``sample_chance``)."""
        return self._engine.current(self._raw) == CHANCE

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._engine.current(self._raw) == TERMINAL

    def scores(self) -> tuple[float, ...]:
        """Each seat's score as the rules count it."""
        return self._engine.scores(self._raw)

    def winners(self) -> tuple[int, ...]:
        """The winning seats (empty while the game goes on)."""
        return self._engine.winners(self._raw)

    def outcome(self) -> str:
        """Who won and why, with the rule (``""`` while the game goes on)."""
        return self._engine.outcome(self._raw)

    def returns(self) -> tuple[float, ...]:
        """Search rewards per seat (see :meth:`Engine.returns`)."""
        return self._engine.returns(self._raw)

    def view(self, player: int | str | None) -> Any:
        """What ``player`` may see; ``None`` is the teacher's view of everything and
        :data:`TABLE` what every seat has seen."""
        check_viewer(player, self.num_players)
        return self._engine.view(self, player)

    # --- moves ---------------------------------------------------------
    def _move(self, action: int) -> Move:
        return _make_move(self._engine, self._raw, action)

    def legal_moves(self) -> MoveList:
        """The legal moves (at a chance point: the outcomes, if they can be listed)."""
        return MoveList(self._move(a) for a in self._engine.actions(self._raw))

    def legal_actions(self) -> list[int]:
        """The legal moves' action numbers, in :meth:`legal_moves` order, without making
        the moves (their notation and description): for random play, with
        :meth:`play_action`.

        >>> from janus_widgets import games
        >>> state = games.get("jinns").new(seed=1)
        >>> [m.action for m in state.legal_moves()] == state.legal_actions()
        True
        """
        return list(self._engine.actions(self._raw))

    def chance_outcomes(self) -> list[tuple[Move, Fraction]] | None:
        """``(outcome, exact probability)`` pairs at a chance point.

        ``None`` where the outcomes are too many to list (a shuffle); ``[]``
        when chance is not to act.
        """
        if not self.is_chance:
            return []
        pairs = self._engine.chance_outcomes(self._raw)
        if pairs is None:
            return None
        return [(self._move(a), p) for a, p in pairs]

    def sample_chance(self, rng: np.random.Generator | int | None = None) -> Move:
        """Draw the chance outcome with ``rng``: a numpy Generator, a seed, or None (this
        game's seed and ply decide); anything else raises :class:`ArgumentError`."""
        gen = check_rng(rng)
        if not self.is_chance:
            raise IllegalMoveError(
                f"No chance point here: it is {seat_name(self.current_player)}'s "
                f"turn ({self._engine.turn_rule}).", move="", rule=self._engine.turn_rule,
                reason="chance is not to act")
        if gen is None:
            gen = chance_rng(self._seed, self._ply)
        return self._move(self._engine.sample(self._raw, RandomStream(gen, block=16)))

    def play_chance(self, rng: np.random.Generator | int | None = None) -> State:
        """Sample the chance outcome (see :meth:`sample_chance`) and play it."""
        return self.play(self.sample_chance(rng))

    def parse(self, text: str) -> Move:
        """Read a move's notation in this state (raises :class:`InvalidMoveError`)."""
        if not isinstance(text, str):
            raise InvalidMoveError(
                f"A {self.game.title} move must be given as text or a Move, not "
                f"{type(text).__name__} ({text!r}). {self._engine.notation_help}",
                text=text, legal=self._legal_notations())
        try:
            action = self._engine.parse(self._raw, text)
        except InvalidMoveError as exc:
            if not exc.legal:
                raise InvalidMoveError(
                    f"{exc} Legal now: {format_options(self._legal_notations())}.",
                    text=text, rule=exc.rule, legal=self._legal_notations()) from None
            raise
        except (ValueError, OverflowError) as exc:
            # An engine's parser must raise InvalidMoveError; anything else it lets
            # through (a number too long for int(), say) is still the user's bad text.
            shown = text if len(text) <= 40 else text[:40] + "…"
            raise InvalidMoveError(
                f"{shown!r} is not a {self.game.title} move ({exc}). "
                f"{self._engine.notation_help} Legal now: "
                f"{format_options(self._legal_notations())}.",
                text=text, legal=self._legal_notations()) from None
        why = non_ascii(text)
        if why:    # every engine refuses such text itself; this holds for any game
            shown = text if len(text) <= 40 else text[:40] + "…"
            raise InvalidMoveError(
                f"{shown!r} is not a {self.game.title} move: {why}. "
                f"{self._engine.notation_help} Legal now: "
                f"{format_options(self._legal_notations())}.",
                text=text, legal=self._legal_notations())
        return self._move(action)

    def _legal_notations(self) -> list[str]:
        eng = self._engine
        return [eng.notation(self._raw, a) for a in eng.actions(self._raw)]

    def _action_of(self, move: Move | str) -> int:
        if isinstance(move, Move):
            if self._engine.game is not None and move.game != self._engine.game.name:
                raise InvalidMoveError(
                    f"{move.notation!r} is a {move.game} move, not a "
                    f"{self.game.title} move.", text=move.notation,
                    legal=self._legal_notations())
            if not self._engine.is_action(move.action):
                raise self._not_an_action(move.action)
            return int(move.action)
        return self.parse(move).action

    def _not_an_action(self, action: object) -> InvalidMoveError:
        """The error for an action number that no move of this game has (a forged
        :class:`Move`, a bad ``play_action`` argument)."""
        eng = self._engine
        return InvalidMoveError(
            f"{action!r} is not a {self.game.title} action number (0 … "
            f"{eng.num_actions - 1}, or a chance outcome).", text=action,
            legal=self._legal_notations())

    def explain(self, move: Move | str) -> Explanation:
        """Why ``move`` is or is not allowed here (rule ID and a sentence)."""
        return self._explain(self._action_of(move))

    def _explain(self, action: int) -> Explanation:
        eng = self._engine
        raw = self._raw
        cur = eng.current(raw)
        text = eng.notation(raw, action)
        if cur == TERMINAL:
            won = self.winners()
            result = ("won by " + " and ".join(seat_name(p) for p in won)) if won else \
                "ended"
            return Explanation(text, False, eng.over_rule,
                               f"the game is over ({result}); no more moves.")
        is_outcome = eng.is_chance_action(action)
        if cur == CHANCE and not is_outcome:
            return Explanation(text, False, eng.chance_rule,
                               "chance acts now, not a player: sample the outcome "
                               "(or give one of the chance outcomes).")
        if cur != CHANCE and is_outcome:
            return Explanation(text, False, eng.turn_rule,
                               f"it is {seat_name(cur)}'s turn to choose; chance "
                               "outcomes come only at chance points.")
        return eng.explain(raw, action)

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` may be played here (malformed text is simply not legal)."""
        try:
            action = self._action_of(move)
        except InvalidMoveError:
            return False
        return self._engine.is_legal(self._raw, action)

    def play(self: StateT, move: Move | str, *, player: int | None = None) -> StateT:
        """The state after ``move`` (a :class:`Move` or its notation).

        ``player``, when given, is the seat that means to move: a move out of
        turn is refused. An illegal move raises :class:`IllegalMoveError` (a
        ``ValueError``) and this state stays as it was.
        """
        if player is not None:
            player = check_seat(player, self.num_players)
        action = self._action_of(move)
        eng = self._engine
        if player is not None:
            cur = eng.current(self._raw)
            if player != cur:
                self._refuse_turn(action, player, cur)
        if not eng.is_legal(self._raw, action):
            exp = self._explain(action)
            if exp.legal:  # an engine must never disagree with itself
                raise AssertionError(f"{eng.game}: explain() calls {exp.move} legal "
                                     "but is_legal() refuses it")
            legal = self._legal_notations()
            raise IllegalMoveError(
                f"Illegal {self.game.title} move {exp.move!r}: {exp.rule}: {exp.reason} "
                f"Legal now: {format_options(legal)}.",
                move=exp.move, rule=exp.rule, reason=exp.reason, legal=legal)
        return self._child(action)

    def _refuse_turn(self, action: int, player: int, cur: int) -> None:
        eng = self._engine
        text = eng.notation(self._raw, action)
        if cur == TERMINAL:
            exp = self._explain(action)
            rule, reason = exp.rule, exp.reason
        elif cur == CHANCE:
            rule, reason = eng.chance_rule, (
                f"player {seat_name(player)} cannot move now: chance acts next.")
        else:
            rule, reason = eng.turn_rule, (
                f"it is {seat_name(cur)}'s turn, not {seat_name(player)}'s.")
        legal = self._legal_notations()
        raise IllegalMoveError(
            f"Move {text!r} out of turn: {rule}: {reason} Legal now for "
            f"{seat_name(cur)}: {format_options(legal)}.",
            move=text, rule=rule, reason=reason, legal=legal)

    def play_action(self: StateT, action: int) -> StateT:
        """Play by action number (checked like :meth:`play`)."""
        eng = self._engine
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise InvalidMoveError(f"action must be a whole number, not {action!r}",
                                   text=action, legal=self._legal_notations())
        action = int(action)
        if not eng.is_action(action):
            raise self._not_an_action(action)
        if not eng.is_legal(self._raw, action):
            return self.play(self._move(action))
        return self._child(action)

    def _child(self: StateT, action: int) -> StateT:
        move = self._move(action)
        new_raw = self._engine.apply(self._raw, action)
        return type(self)(self._engine, new_raw, seed=self._seed, ply=self._ply + 1,
                          trail=(self._trail, move), start=self.start)

    def play_line(self: StateT, moves: Iterable[Move | str]) -> StateT:
        """Play several moves in turn; the error names the index of a bad one."""
        state = self
        for index, move in enumerate(moves):
            try:
                state = state.play(move)
            except (IllegalMoveError, InvalidMoveError) as exc:
                raise type(exc)(f"move {index} of the line: {exc}",
                                **_error_fields(exc)) from None
        return state

    def record(self, **meta: Any) -> Record:
        """The game record of this state's history (see :mod:`janus_widgets.core.record`):
        the full record, seed included (the teacher's)."""
        return record_keeping("record")(self, meta)

    def seat_record(self, seat: int | str, **meta: Any) -> Any:
        """This history as ``seat`` knew it: a
        :class:`~janus_widgets.core.seat_record.SeatRecord`, with no seed and no
        secret of another seat (``seat``: a seat number, or :data:`TABLE`)."""
        return record_keeping("seat_record")(self, seat, meta)

    def position_key(self) -> Hashable:
        """A hashable key of the position, the same for equal positions."""
        return self._engine.position_key(self._raw)


def check_viewer(player: object, num_players: int) -> None:
    """Raise :class:`ArgumentError` unless ``player`` is a seat number, :data:`TABLE` or
    None (the teacher)."""
    if player is None or (isinstance(player, str) and player == TABLE):
        return
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or \
            not 0 <= player < num_players:
        allowed = (f"a seat number 0 … {num_players - 1}, {TABLE!r} for what every seat "
                   "has seen, or None for the teacher's view")
        raise ArgumentError("player", player, allowed,
                            message=f"player={player!r} is not a seat: use {allowed}.")


def check_seat(player: object, num_players: int, argument: str = "player") -> int:
    """``player`` as a seat number ``0 … num_players - 1``, or :class:`ArgumentError`
    (a seat letter, a number out of range, anything else).

    >>> check_seat(1, 2)
    1
    >>> check_seat("B", 2)
    Traceback (most recent call last):
    ...
    janus_widgets.core.errors.ArgumentError: player='B' is not a seat: use a seat number 0 … 1 (seat_index('B', 2) reads a letter).
    """
    if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or \
            not 0 <= player < num_players:
        hint = (f" (seat_index({player!r}, {num_players}) reads a letter)"
                if isinstance(player, str) else "")
        allowed = f"a seat number 0 … {num_players - 1}{hint}"
        raise ArgumentError(argument, player, allowed,
                            message=f"{argument}={player!r} is not a seat: use {allowed}.")
    return int(player)


def _error_fields(exc: Exception) -> dict[str, Any]:
    if isinstance(exc, IllegalMoveError):
        return {"move": exc.move, "rule": exc.rule, "reason": exc.reason,
                "legal": exc.legal}
    if isinstance(exc, InvalidMoveError):
        return {"text": exc.text, "rule": exc.rule, "legal": exc.legal}
    return {}


class Game(Generic[VariantT]):
    """One registered game: its variant table, its engine and its state class.

    >>> from janus_widgets import games
    >>> jactus = games.get("jactus")
    >>> jactus.new(players=3, seed=5).num_players
    3
    >>> [r.name for r in jactus.rulesets()]
    ['rulebook', 'other edition', 'points', 'no spoiling']
    >>> jactus.new(ruleset="points", players=3, seed=5).variant.scoring
    'points'
    """

    def __init__(self, *, name: str, title: str, rule_prefix: str,
                 variant_cls: type[VariantT], engine_cls: type[Engine],
                 state_cls: type[State] = State, draw_module: str | None = None,
                 summary: str = "",
                 sample_variants: Callable[[], Sequence[VariantT]] | None = None,
                 rulesets: Sequence[Ruleset] = (),
                 playing_time: tuple[int, int] | None = None) -> None:
        self.name = name
        #: The playing time the box states, in minutes (low, high), or None if it does
        #: not say (the design lab's flaw finder compares game lengths with it).
        self.playing_time = playing_time
        self.title = title
        self.rule_prefix = rule_prefix
        self.Variant = variant_cls
        self.Engine = engine_cls
        self.State = state_cls
        self.summary = summary
        self._draw_module = draw_module
        self._sample_variants = sample_variants
        self._engines: dict[VariantT, Engine] = {}
        self._descriptions: dict[VariantT, str] = {}    # describe_variant's, kept
        self._rulesets = check_rulesets(variant_cls, rulesets or (
            Ruleset("rulebook", source="the rulebook", note="The rules as the seeds file "
                                                            "reads them."),))

    def __repr__(self) -> str:
        return f"<Game {self.name!r} ({self.title})>"

    @property
    def has_secrets(self) -> bool:
        """Whether a seat may know what another may not (see :attr:`Engine.has_secrets`)."""
        return self.Engine.has_secrets

    # --- rulesets ------------------------------------------------------------
    def rulesets(self) -> tuple[Ruleset, ...]:
        """The game's named rulesets in order, ``"rulebook"`` (the defaults) first."""
        return self._rulesets

    def ruleset(self, name: str) -> Ruleset:
        """The ruleset called ``name`` (case, hyphens and underscores are forgiven);
        an unknown name raises :class:`VariantError` listing the names."""
        def plain(text: str) -> str:
            return " ".join(text.lower().replace("-", " ").replace("_", " ").split())

        if isinstance(name, str):
            for ruleset in self._rulesets:
                if plain(ruleset.name) == plain(name):
                    return ruleset
        names = ", ".join(repr(r.name) for r in self._rulesets)
        raise VariantError(f"{self.title} has no ruleset {name!r}: choose one of {names}",
                           field="ruleset", value=name, allowed=names)

    def ruleset_of(self, variant: VariantT) -> str:
        """The name of the ruleset ``variant`` plays by, or ``"custom"``."""
        for ruleset in self._rulesets:
            if ruleset.matches(variant):
                return ruleset.name
        return CUSTOM

    def describe_variant(self, variant: VariantT) -> str:
        """A short text naming the ruleset and the set-up (or the changed options), each
        option named by its label and its value's label (what the menus say).

        >>> from janus_widgets import games
        >>> jactus = games.get("jactus")
        >>> jactus.describe_variant(jactus.variant(ruleset="points", players=3))
        'points ruleset, players: 3'
        >>> jactus.describe_variant(jactus.variant(supply="full"))
        'custom (supply: all pieces)'
        """
        described = self._descriptions.get(variant)     # a variant is a frozen value
        if described is None:
            name = self.ruleset_of(variant)
            if name == CUSTOM:
                described = f"{CUSTOM} ({'; '.join(variant.labelled_changes())})"
            else:
                described = ", ".join([f"{name} ruleset"]
                                      + variant.labelled_changes(setup=True))
            if len(self._descriptions) < 256:
                self._descriptions[variant] = described
        return described

    def variant(self, variant: VariantT | dict | None = None, *, ruleset: str | None = None,
                **options: Any) -> VariantT:
        """A validated variant: the defaults, a given one or a named ruleset, with
        ``options`` changed."""
        if ruleset is not None:
            if variant is not None:
                raise VariantError(
                    f"{self.title}: give a variant or a ruleset, not both (ruleset="
                    f"{ruleset!r} names a whole variant; change its options with keyword "
                    "arguments, e.g. ruleset=..., players=3)",
                    field="ruleset", value=ruleset, allowed="a variant or a ruleset")
            return self.ruleset(ruleset).variant(self.Variant, **options)
        if variant is None:
            base = self.Variant()
        elif isinstance(variant, self.Variant):
            base = variant
        elif isinstance(variant, dict):
            base = self.Variant.from_dict(variant)
        else:
            raise TypeError(f"variant must be a {self.Variant.__name__}, a dict or None, "
                            f"not {type(variant).__name__}")
        return base.replace(**options) if options else base

    def engine(self, variant: VariantT | None = None) -> Engine:
        """The lean engine for a variant (made once per variant)."""
        variant = self.variant(variant)
        eng = self._engines.get(variant)
        if eng is None:
            eng = self.Engine(variant, self)
            self._engines[variant] = eng
        return eng

    def new(self, variant: VariantT | dict | None = None, *, seed: int | None = None,
            ruleset: str | None = None, **options: Any) -> State:
        """The start state. ``seed`` drives chance; if None a fresh one is drawn with
        :mod:`secrets` and kept (the state knows it; the widgets show it only in the
        teacher's view, never to a seat). ``ruleset`` starts from a named ruleset (see
        :meth:`rulesets`)."""
        eng = self.engine(self.variant(variant, ruleset=ruleset, **options))
        seed = fresh_seed() if seed is None else check_seed(seed)
        return self.State(eng, eng.initial(), seed=seed)

    def from_raw(self, raw: Raw, variant: VariantT | None = None, *, seed: int = 0) -> State:
        """Wrap an engine state (a built position) as a :class:`State`, checked.

        Raises ``ValueError`` ("not a consistent <title> position: …") if ``raw``
        breaks an invariant of the game (:meth:`Engine.check_invariants`).

        >>> from janus_widgets import games
        >>> jactus = games.get("jactus")
        >>> raw = jactus.new(seed=1).raw
        >>> jactus.from_raw(raw).current_player
        0
        >>> jactus.from_raw((raw[0], 5) + raw[2:])
        Traceback (most recent call last):
        ...
        ValueError: not a consistent Jactus position: bad seat 5
        """
        eng = self.engine(variant)
        try:
            eng.check_invariants(raw)
        except AssertionError as exc:
            raise ValueError(f"not a consistent {self.title} position: {exc}") from None
        return self.State(eng, raw, seed=check_seed(seed))

    def parse_move(self, state: State, text: str) -> Move:
        """Read notation in ``state``; ``str(move)`` gives it back."""
        self._check_state(state)
        return state.parse(text)

    def explain(self, state: State, move: Move | str) -> Explanation:
        """Why ``move`` is (not) allowed in ``state``: rule ID and a sentence."""
        self._check_state(state)
        return state.explain(move)

    def _check_state(self, state: State) -> None:
        if not isinstance(state, State) or state.game is not self:
            raise TypeError(f"expected a {self.title} state, got {state!r}")

    def sample_variants(self) -> list[VariantT]:
        """Variants the conformance suite plays (defaults first)."""
        if self._sample_variants is None:
            return [self.Variant()]
        return list(self._sample_variants())

    def draw(self, view: Any, highlights: Any = (), selection: Any = None) -> Any:
        """The drawing of a view (see :mod:`janus_widgets.drawing`)."""
        return self.board().draw(view, highlights=highlights, selection=selection)

    def board(self) -> Any:
        """The game's drawing module (imported on first use)."""
        if self._draw_module is None:
            raise NotImplementedError(f"{self.title} has no drawing yet")
        import importlib
        return importlib.import_module(self._draw_module)

    def load(self, source: str | Any) -> Record:
        """Load a record of this game from a path, JSON text or bytes (see
        :meth:`Record.read`); a record of another game raises :class:`RecordError`."""
        from .errors import RecordError
        rec = record_keeping("read")(source)
        if rec.game != self.name:
            raise RecordError(f"that record is a {rec.game!r} game, not {self.name!r}")
        return rec

    def iter_actions(self, state: State) -> Iterator[int]:
        """The legal action numbers of a state (lean)."""
        return iter(state.engine.actions(state.raw))

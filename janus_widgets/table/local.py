"""The game session without a screen: a :class:`Table`.

A table is what a game widget showed before it had anything to draw: the record with
its lines and the cursor on it, who plays each seat (a person or a bot), the bots' and
the dice's turns, rule changes proposed and confirmed, earlier games, loading and
saving, and the facts the status line states (who made the last move, a refusal and
its rule, the result). :class:`~janus_widgets.widgets.shell.GameWidget` draws one; the
table server (:mod:`.server`) keeps one per game and sends each seat its view.

Every change is announced to the table's observers (:meth:`Table.observe`) with what
changed: ``"moves"`` (the cursor or the moves), ``"game"`` (a new, loaded or restored
game), ``"seats"``, ``"proposal"`` (a rule change waiting for its confirmation),
``"notice"`` (the answer to the last action), ``"autoplay"``.

Bots and autoplay wait ``bot_delay`` seconds between moves on the event loop the table
runs in (a Jupyter kernel's, the server's); with none, or a delay of 0, they move at
once.

>>> from janus_widgets.table import Table
>>> table = Table("jactus", seed=3, bots={1: "greedy"}, bot_delay=0)
>>> _ = table.play("r*")                 # A throws; the dice fall; B's bot replies
>>> table.state.current_player, table.by[:3]
(0, ['human', 'chance', 'bot:greedy'])
>>> table.facts(None).last.startswith("chance") or "B (bot) played" in table.facts(None).last
True
>>> table.record().by[:2]
('human', 'chance')
"""

from __future__ import annotations

import asyncio
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import games as game_registry
from ..core.bots import bot_names, make_bot
from ..core.errors import IllegalMoveError, InvalidMoveError, RecordError
from ..core.protocol import CHANCE, TABLE, TERMINAL, Game, Move, MoveList, State, seat_name
from ..core.record import Record
from ..core.replay import CHANCE_BY, HUMAN, Replay, bot_by, check_by
from ..core.rng import RandomStream, fresh_seed
from ..core.seat_record import SeatRecord, SeatReplay, read_record
from .narrate import Facts, Told, last_move, log_entries, sentence

__all__ = ["Table", "viewpoint_choices", "moves_text", "kernel_loop", "SYNC_BOT_LIMIT"]

#: Longest run of bot moves made in one go when bots move without delay.
SYNC_BOT_LIMIT = 5000

Viewpoint = Any  # None (everything), a seat number, or "current"


def moves_text(n: int) -> str:
    """``"1 move"``, ``"3 moves"``."""
    return f"{n} move{'s' * (n != 1)}"


def viewpoint_choices(players: int) -> list[tuple[str, Any]]:
    """``(label, viewpoint)`` for every view: everything, the player to move, each seat.

    >>> [v for _, v in viewpoint_choices(2)]
    [None, 'current', 0, 1]
    """
    return ([("everything (teacher)", None), ("the player to move", "current")]
            + [(f"seat {seat_name(p)}", p) for p in range(players)])


def kernel_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the Jupyter kernel we run in, or None outside a kernel (plain
    Python, tests): there, timed steps run at once instead."""
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    shell = get_ipython()
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    try:
        return asyncio.get_event_loop()
    except RuntimeError:
        return None


class Table:
    """One game session: the record and its lines, the seats, the bots, the proposals.

    ``game`` is a game name or object; ``variant``, ``seed`` and ``options`` start the
    game as :meth:`Game.new` does (no seed: one drawn secretly); ``record`` loads a
    saved game instead; ``bots`` maps seats to bot names or policies; ``loop`` is the
    event loop bots wait on (default: the Jupyter kernel's, if any).
    """

    def __init__(self, game: str | Game, variant: Any = None, *, seed: int | None = None,
                 record: Record | SeatRecord | str | Path | None = None,
                 bots: dict[int, Any] | None = None, bot_delay: float = 0.5,
                 loop: Callable[[], asyncio.AbstractEventLoop | None] | None = None,
                 **options: Any) -> None:
        self.game: Game = game_registry.get(game) if isinstance(game, str) else game
        self.bot_delay = float(bot_delay)
        self.autoplay_delay = 0.6
        self.previous_games: list[Record | SeatRecord] = []
        self.errors: list[str] = []          # full tracebacks of anything that went wrong
        self._loop = kernel_loop if loop is None else loop
        self._observers: list[Callable[[str], None]] = []
        self._tick_generation = 0
        self._autoplay = False
        self._bots: dict[int, Callable[[Any], Any]] = {}
        self._bot_labels: dict[int, str] = {}
        self._pending_variant: Any = None     # a Variant waiting for its confirmation
        self._bots_wait = False               # a loaded game's bots wait for the user
        self._held = ""                       # why play is stopped (a paused table)
        self.notice: tuple[str, str] | None = None   # (text, kind) answering an action
        self.serial = 0                       # +1 for every action (notices belong to one)
        self.game_number = 0                  # a new game, a load, a restore: +1
        start = self.game.new(variant, seed=seed, **options)
        self.replay: Replay | SeatReplay = Replay(start)
        if record is not None:
            self.load(record)
        for seat, policy in (bots or {}).items():
            self.set_bot(seat, policy)

    # ------------------------------------------------------------------ observing
    def observe(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(what)`` after every change (see the module's docstring)."""
        self._observers.append(callback)

    def unobserve(self, callback: Callable[[str], None]) -> None:
        """Stop calling ``callback``."""
        self._observers.remove(callback)

    def _notify(self, what: str) -> None:
        for callback in list(self._observers):
            callback(what)

    def _action(self) -> None:
        """A new action begins: the answer to the last one no longer applies."""
        self.serial += 1
        self.notice = None

    def say(self, text: str, kind: str = "info") -> None:
        """Answer the last action (``kind``: info, refused or error); it lasts until the
        next action."""
        if kind not in ("info", "refused", "error"):
            raise ValueError(f"kind={kind!r}: use 'info', 'refused' or 'error'")
        self.notice = (text, kind)
        self._notify("notice")

    def _guarded(self, fn: Callable[[], Any]) -> Callable[[], Any]:
        """A timer's callback: whatever goes wrong is said, never raised into the loop."""
        def run() -> Any:
            try:
                return fn()
            except Exception as exc:  # noqa: BLE001 - a timer has nobody to raise to
                self.errors.append(traceback.format_exc())
                self.say(f"Something went wrong ({type(exc).__name__}: {exc}); the game "
                         "is unchanged. Details: .errors[-1].", "error")
        return run

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> State:
        """The state at the cursor (in a seat's record, the seat's frame)."""
        return self.replay.state  # type: ignore[return-value]

    @property
    def index(self) -> int:
        """How many moves of the current line are played at the cursor."""
        return self.replay.index

    @property
    def length(self) -> int:
        """How many moves the current line has."""
        return self.replay.length

    @property
    def at_end(self) -> bool:
        return self.replay.at_end

    @property
    def line(self) -> int:
        return self.replay.line

    @property
    def lines(self) -> list[Any]:
        """The lines of play (each with ``id``, ``parent``, ``at`` and a length)."""
        return self.replay.lines

    @property
    def seat_mode(self) -> bool:
        """Whether a seat's record is shown (stepped through, never played on)."""
        return isinstance(self.replay, SeatReplay)

    @property
    def remote(self) -> bool:
        """Whether the truth is kept elsewhere (a seat of the table server): no."""
        return False

    @property
    def num_players(self) -> int:
        return self.state.num_players

    @property
    def variant(self) -> Any:
        return self.state.variant

    @property
    def by(self) -> list[str]:
        """Who made each move of the current line."""
        if isinstance(self.replay, SeatReplay):
            rec = self.replay.seat_record
            return list(rec.by) if rec.by is not None else [""] * len(rec.moves)
        return self.replay.current_line.by

    @property
    def bots(self) -> dict[int, Callable[[Any], Any]]:
        """Seat → policy for the seats played by bots."""
        return dict(self._bots)

    @property
    def bot_labels(self) -> dict[int, str]:
        """Seat → bot name (as the seat menus show it) for the seats played by bots."""
        return dict(self._bot_labels)

    @property
    def autoplaying(self) -> bool:
        return self._autoplay

    @property
    def pending_variant(self) -> Any:
        """The variant a proposal waits to start (None: nothing proposed)."""
        return self._pending_variant

    def record(self, **meta: Any) -> Record | SeatRecord:
        """The record of this game, every line (a seat's record: itself)."""
        return self.replay.record(**meta)

    @property
    def moves_played(self) -> int:
        """Moves on every line together (what a rule change would leave behind)."""
        return sum(len(line) for line in self.replay.lines)

    def not_playable(self) -> str:
        """Why nothing can be played here now, ``""`` if something can."""
        if isinstance(self.replay, SeatReplay):
            return self.replay.seat_record.not_playable()
        return ""

    # ------------------------------------------------------------------ views
    def viewpoint_options(self) -> list[tuple[str, Any]]:
        """``(label, viewpoint)`` for every view allowed now (a seat's record: its own)."""
        if isinstance(self.replay, SeatReplay):
            record = self.replay.seat_record
            return [(f"{record.whose}'s record", record.seat)]
        return viewpoint_choices(self.state.num_players)

    def check_viewpoint(self, viewpoint: Viewpoint) -> None:
        """Raise ``ValueError`` unless ``viewpoint`` is a view this table allows now."""
        allowed = [v for _, v in self.viewpoint_options()]
        if isinstance(self.replay, SeatReplay) and viewpoint not in allowed:
            raise ValueError(f"this is {self.replay.seat_record.whose}'s record: it holds "
                             "that view only")
        if isinstance(viewpoint, bool) or viewpoint not in allowed:
            raise ValueError(f"viewpoint {viewpoint!r} is not allowed: use None, 'current' "
                             f"or a seat 0 … {self.state.num_players - 1}")

    def view_seat(self, viewpoint: Viewpoint) -> int | str | None:
        """The seat whose view is drawn. With "current" (one screen passed round): at the
        game's present (the end of the main line) the player to move's, and at the real
        end of the real game everything; anywhere else (a chance point, a move stepped
        back to, a branch) what every seat has seen (the table's): a seat's cards from
        another time, or from a branch played on the same deal, are not for the screen."""
        if viewpoint == "current":
            cur = self.state.current_player
            if not self.live:
                return TABLE
            if cur >= 0:
                return cur
            return TABLE if cur == CHANCE else None
        return viewpoint

    @property
    def live(self) -> bool:
        """Whether the cursor is at the game's present: the end of the main line (a
        seat's record: its end)."""
        return self.replay.at_end and self.replay.line == 0

    def view_of(self, viewpoint: Viewpoint) -> Any:
        """The position at the cursor as ``viewpoint`` sees it."""
        return self.state.view(self.view_seat(viewpoint))

    def shows_secrets(self, viewpoint: Viewpoint) -> bool:
        """Whether ``viewpoint`` may see the seed: only the teacher's view of a game."""
        return viewpoint is None and not self.seat_mode

    def views_of_line(self, viewpoint: Viewpoint, start: int, stop: int) -> list[Any]:
        """The views after ``start`` … ``stop`` moves of the line shown (for an
        animation): a seat's record's views as saved; a screen passed round as the whole
        table saw each position."""
        # A screen passed round: every frame as the whole table saw it (the seat whose
        # screen it is now did not see the others' cards, then or later).
        seat = TABLE if viewpoint == "current" else self.view_seat(viewpoint)
        if isinstance(self.replay, SeatReplay):
            return [self.replay.seat_record.replay_view(i) for i in range(start, stop + 1)]
        return [state.view(seat) for state in self.replay.states[start:stop + 1]]

    # ------------------------------------------------------------------ moves
    @property
    def current_player(self) -> int:
        return self.state.current_player

    @property
    def is_chance(self) -> bool:
        return bool(self.state.is_chance)

    @property
    def is_over(self) -> bool:
        return bool(self.state.is_over)

    def legal_moves(self) -> MoveList:
        """The moves that may be played at the cursor (none in a seat's record; at a
        chance point the outcomes, where they can be listed)."""
        if self.seat_mode:
            return MoveList()
        return self.state.legal_moves()

    def parse(self, text: str) -> Move:
        """A move's notation read at the cursor (:class:`InvalidMoveError` if it is none)."""
        return self.state.parse(text)

    # ------------------------------------------------------------------ navigation
    def goto(self, index: int) -> State:
        """Go to the state after ``index`` moves of the current line."""
        self._action()
        self._stop_ticks()
        self.replay.goto(index)
        self._notify("moves")
        return self.state

    def step(self) -> bool:
        """One step: forward in the line, or at its end the dice's or a bot's move.

        Returns whether anything happened (False when a human is to move or the
        game is over); when nothing happens the notice says why."""
        self._action()
        self._stop_ticks()
        done = self._step_once()
        self._notify("moves")
        self._schedule_bots()
        if not done and self.replay.at_end:
            self.say(self._why_nothing_plays(), "refused" if self.seat_mode else "info")
        return done

    def _step_once(self) -> bool:
        replay = self.replay
        if not replay.at_end:
            replay.forward()
            return True
        if isinstance(replay, SeatReplay):
            return False
        self._release_bots()                     # the user stepped: bots may move
        state = replay.state
        player = state.current_player
        if player == TERMINAL:
            return False
        if player == CHANCE:
            replay.play(state.sample_chance(), by=CHANCE_BY)
            return True
        policy = self._bots.get(player)
        if policy is None:
            return False
        choice = policy(state.view(player))
        before = replay.state
        if isinstance(choice, int) and not isinstance(choice, bool):
            choice = before._move(choice)
        if not before.is_legal(choice):
            raise IllegalMoveError(
                f"The bot of seat {seat_name(player)} chose {choice!s}, which is not legal: "
                f"{before.explain(choice)}", move=str(choice), rule="", reason="bot error")
        replay.play(choice, by=bot_by(self._bot_labels.get(player, "custom")))
        self._resolve_chance()
        return True

    def _can_go_on(self) -> bool:
        """Whether a step at the end of the line would do something (chance or a bot)."""
        if self.seat_mode or self._held:
            return False
        cur = self.state.current_player
        return cur == CHANCE or cur in self._bots

    def _why_nothing_plays(self) -> str:
        """Why a step or autoplay at the end of the line plays nothing."""
        state = self.state
        if self.seat_mode:
            return self.not_playable()
        if self._held:
            return f"Nothing plays: {self._held}."
        if state.is_over:
            return (f"The game is over ({state.outcome()}): nothing more plays. ◀ steps "
                    "back; New game starts another.")
        return (f"{seat_name(state.current_player)} is to move, a person: autoplay and ▶ "
                "wait for a move (click the board, or the list and Play).")

    def switch_line(self, line: int) -> State:
        """Go to another line of play (0 is the main line)."""
        self._action()
        self._stop_ticks()
        self.replay.switch(line)
        self._notify("moves")
        return self.state

    # ------------------------------------------------------------------ playing
    def play(self, move: Move | str, by: str = HUMAN) -> State:
        """Play a move at the cursor (branching if the cursor is not at the end).

        Chance that follows is resolved from the game's seed; bots reply (after
        ``bot_delay`` seconds, or at once). Raises :class:`IllegalMoveError` /
        :class:`InvalidMoveError` for a refused move, after saying why in the notice; a
        refused move changes nothing. A seat's record cannot be played on
        (:class:`RecordError`). ``by`` says who made the move (default: a person)."""
        check_by(by)
        self._action()
        self._stop_ticks()
        if self.seat_mode:
            text = self.not_playable()
            self.say(text, "refused")
            raise RecordError(text)
        if self._held:
            text = f"Not played: {self._held}."
            self.say(text, "refused")
            raise IllegalMoveError(text, move=str(move), rule="", reason=self._held)
        state = self.state
        # At the end of the line where chance is to act, the move waits for chance:
        # its outcomes are worked out aside first, so a refused move changes nothing.
        pending: list[Move] = []
        if self.replay.at_end:
            while state.is_chance:
                pending.append(state.sample_chance())
                state = state.play(pending[-1])
        player = state.current_player
        if player in self._bots and not by.startswith("bot:"):
            text = f"Seat {seat_name(player)} is played by a bot; wait for it, or set the " \
                   "seat to human (Seats & view)."
            self.say(text, "refused")
            raise IllegalMoveError(text, move=str(move), rule="", reason="bot seat")
        try:
            move_obj = state.parse(move) if isinstance(move, str) else move
            if not isinstance(move_obj, Move):
                state.play(move_obj)  # raises InvalidMoveError naming what is allowed
            if not state.is_legal(move_obj):
                state.play(move_obj)  # raises the explained error
        except (IllegalMoveError, InvalidMoveError) as exc:
            self._refuse(exc)
            raise
        lines_before = len(self.replay.lines)
        for outcome in pending:
            self.replay.play(outcome, by=CHANCE_BY)
        self.replay.play(move_obj, by=by)
        self._release_bots()
        self._resolve_chance()
        self._notify("moves")
        if len(self.replay.lines) > lines_before:
            self.say("A new line starts here; the old one is kept (see line, beside).")
        self._schedule_bots()
        return self.state

    def resolve_chance(self) -> State:
        """At the end of the line, let chance act until a player is to move (from the
        game's seed: the same seed gives the same outcomes); bots then reply."""
        self._action()
        self._stop_ticks()
        if self.replay.at_end and self.state.is_chance and not self.seat_mode:
            self._release_bots()
            self._resolve_chance()
            self._notify("moves")
            self._schedule_bots()
        return self.state

    def _resolve_chance(self) -> None:
        replay = self.replay
        while replay.at_end and replay.state.is_chance:
            replay.play(replay.state.sample_chance(), by=CHANCE_BY)

    def _refuse(self, exc: Exception) -> None:
        if isinstance(exc, IllegalMoveError):
            self.say(f"Refused {exc.move!r} — {exc.rule}: {exc.reason}", "refused")
        else:
            self.say(str(exc).split(" Legal now:")[0], "refused")

    # ------------------------------------------------------------------ bots
    def set_bot(self, seat: int, policy: Any) -> None:
        """Let a bot play ``seat``: a bot name (``"random"``), any callable
        ``policy(view) -> move``, or ``None``/``"human"`` for a person."""
        n = self.state.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} is not a seat: use 0 … {n - 1}")
        if policy is None or policy == "human":
            self._bots.pop(seat, None)
            self._bot_labels.pop(seat, None)
        elif isinstance(policy, str):
            seed = (RandomStream(self.state.seed + 7919 * (seat + 1)).spawn_seed()
                    if self.state.seed is not None else fresh_seed())
            self._bots[seat] = make_bot(policy, self.game, seat, seed)
            self._bot_labels[seat] = policy
        elif callable(policy):
            self._bots[seat] = policy
            name = getattr(policy, "name", None) or type(policy).__name__
            self._bot_labels[seat] = f"custom: {name}"
        else:
            names = ", ".join(bot_names(self.game))
            raise ValueError(f"a bot is a name ({names}), a callable "
                             f"policy(view) -> move, or None; not {policy!r}")
        self._notify("seats")
        self._notify("moves")
        self._schedule_bots()

    def seat_label(self, seat: int) -> str:
        """``"human"`` or the bot's name, for a seat."""
        return self._bot_labels.get(seat, "human")

    def _release_bots(self) -> None:
        """The user stepped or played: a loaded game's bots may move again."""
        self._bots_wait = False

    def release_bots(self) -> None:
        """Let the bots of a loaded game move without waiting for the user (a table the
        server brought back after a restart goes on by itself)."""
        self._release_bots()
        self._schedule_bots()

    def hold(self, reason: str) -> None:
        """Stop play: bots and autoplay wait, and moves are refused saying ``reason``
        ("the teacher paused this table")."""
        self._held = reason or "play is stopped"
        self._autoplay = False
        self._stop_ticks()
        self._notify("moves")

    def release_hold(self) -> None:
        """Play on after :meth:`hold`; the bots move again."""
        self._held = ""
        self._notify("moves")
        self._schedule_bots()

    def waiting_bot(self) -> str:
        """Why the bot to move does not move, ``""`` when no bot waits: a loaded or
        restored game waits for the user; so does a cursor stepped back."""
        cur = self.state.current_player
        if cur not in self._bots or self.seat_mode:
            return ""
        if self._held:
            return f"{seat_name(cur)} is played by a bot, waiting: {self._held}."
        if not self.replay.at_end:
            return (f"{seat_name(cur)} is played by a bot, waiting: you stepped back; ▶ "
                    "steps on (at the end of the line it lets the bot play).")
        if self._bots_wait:
            return (f"{seat_name(cur)} is played by a bot: it moves when you step (▶) or "
                    "play (this game was loaded, or restored, as saved).")
        return ""

    def _schedule_bots(self) -> None:
        """After a change at the end of the line, let bots (and dice) move (not in a
        seat's record, and not in a loaded game until the user steps or plays)."""
        if not self.replay.at_end or self.seat_mode or self._bots_wait or self._held:
            return
        cur = self.state.current_player
        if cur not in self._bots and not self._autoplay:
            return
        if self.bot_delay <= 0 or self._loop() is None:
            moved = False
            for _ in range(SYNC_BOT_LIMIT):
                if not self.replay.at_end or self.state.current_player not in self._bots:
                    break
                self._step_once()
                moved = True
            if moved:
                self._notify("moves")
            return
        self._schedule_tick(self.bot_delay)

    # ------------------------------------------------------------------ autoplay
    def autoplay(self, on: bool = True, delay: float | None = None) -> None:
        """Step forward on a timer (replay, dice and bots) every ``delay`` seconds
        until a human is to move or the game ends. Without a running event loop it runs
        to that point now."""
        self._action()
        if delay is not None:
            self.autoplay_delay = float(delay)
        if on and self.replay.at_end and not self._can_go_on():
            self._autoplay = False
            self._notify("autoplay")
            self.say(self._why_nothing_plays(), "info")
            return
        self._autoplay = bool(on)
        if on:
            self._release_bots()
        self._notify("autoplay")
        if not on:
            self._stop_ticks()
            return
        if self._loop() is None:
            for _ in range(SYNC_BOT_LIMIT):
                if not self._step_once():
                    break
            self._autoplay = False
            self._notify("moves")
            self._notify("autoplay")
            return
        self._schedule_tick(self.autoplay_delay)

    def _schedule_tick(self, delay: float) -> None:
        self._tick_generation += 1
        generation = self._tick_generation
        loop = self._loop()
        if loop is None:
            return
        loop.call_later(max(0.0, delay), self._guarded(lambda: self._tick(generation)))

    def _stop_ticks(self) -> None:
        self._tick_generation += 1

    def _tick(self, generation: int) -> None:
        if generation != self._tick_generation or self._held:
            return  # the user did something since, or play stopped: this tick is stale
        if self._autoplay:
            done = self._step_once()
            self._notify("moves")
            if done:
                self._schedule_tick(self.autoplay_delay)
            else:
                self._autoplay = False
                self._notify("autoplay")
            return
        if self.replay.at_end and self.state.current_player in self._bots:
            self._step_once()
            self._notify("moves")
            self._schedule_tick(self.bot_delay)

    def extend(self, moves: list[tuple[str, str]]) -> None:
        """Add moves made elsewhere (notation and who made them) to the end of the main
        line, each checked: the teacher's copy of a server's table follows it this way.
        The cursor follows when it stood at the end of the main line."""
        line = self.replay.lines[0]
        follow = self.live
        state = line.state_at(len(line))
        for text, by in moves:
            check_by(by)
            state = state.play(text)
            line._append(state.last_move.action, state.raw, by)  # type: ignore[union-attr]
        if follow and isinstance(self.replay, Replay):
            self.replay.goto(len(line))
        self._notify("moves")

    # ------------------------------------------------------------------ games
    def set_variant(self, variant: Any = None, *, seed: int | None = None,
                    **options: Any) -> State:
        """Start a new game with other rule options (the current one is kept in
        :attr:`previous_games`), from ``seed`` or a fresh secret one."""
        base = self.state.variant if variant is None else variant
        return self.new_game(seed=seed, variant=self.game.variant(base, **options))

    def set_ruleset(self, name: str, *, seed: int | None = None) -> State:
        """Start a new game under one of the game's named rulesets, keeping the number of
        players."""
        variant = self.state.variant
        setup = {s.name: getattr(variant, s.name) for s in variant.options() if s.setup}
        return self.set_variant(self.game.variant(ruleset=name, **setup), seed=seed)

    def new_game(self, seed: int | None = None, variant: Any = None) -> State:
        """Start a new game (same variant unless given); the current one is kept.
        Without ``seed`` a fresh one is drawn secretly (see ``rng.fresh_seed``)."""
        self._action()
        self._stop_ticks()
        variant = self.state.variant if variant is None else self.game.variant(variant)
        seed = fresh_seed() if seed is None else seed
        start = self.game.new(variant, seed=seed)  # validates before anything changes
        self._archive()
        self.replay = Replay(start)
        self._after_new_game()
        return self.state

    def _after_new_game(self, schedule_bots: bool = True) -> None:
        self._bots_wait = not schedule_bots
        self.game_number += 1
        self._pending_variant = None
        n = self.state.num_players
        for seat in [s for s in self._bots if s >= n]:
            self._bots.pop(seat)
            self._bot_labels.pop(seat, None)
        self._notify("game")
        self._schedule_bots()

    def _show_replay(self, replay: Replay | SeatReplay) -> None:
        """Put a loaded or restored game in place, at its end, as it was saved; its bots
        wait for the user."""
        self._stop_ticks()
        self._archive()
        self.replay = replay
        self.replay.last()
        self._after_new_game(schedule_bots=False)

    def _archive(self) -> None:
        if any(len(line) for line in self.replay.lines):
            self.previous_games.append(self.replay.record())

    def restore(self, index: int = -1) -> State:
        """Bring back an earlier game from :attr:`previous_games` (the current one is
        kept there in its place), shown as it was; its bots wait for the user."""
        self._action()
        count = len(self.previous_games)
        if not count:
            raise ValueError("there is no earlier game to restore")
        if isinstance(index, bool) or not isinstance(index, int) or \
                not -count <= index < count:
            raise ValueError(f"there is no earlier game {index!r}: use 0 … {count - 1} "
                             "(or -1 for the last)")
        replay = self.previous_games[index].replay()        # before anything changes
        self.previous_games.pop(index)
        self._show_replay(replay)
        self.say(f"Restored the earlier game ({moves_text(self.replay.length)}), shown as "
                 "it was.")
        return self.state

    def propose_variant(self, variant: Any) -> bool:
        """Start ``variant`` at once if nothing has been played yet (returns True), else
        keep it waiting for :meth:`confirm_variant` (returns False)."""
        variant = self.game.variant(variant)
        self._action()
        if self.moves_played == 0:
            self.set_variant(variant)
            self.say(f"New game: {self.game.describe_variant(self.state.variant)}.")
            return True
        self._pending_variant = variant
        self._notify("proposal")
        return False

    def proposal_text(self) -> str:
        """What the confirm box asks (plain text): the options as their labels say them,
        and the moves the current game keeps."""
        variant = self._pending_variant
        if variant is None:
            return ""
        main = len(self.replay.lines[0])
        others = self.moves_played - main
        side = f", and {moves_text(others)} on other lines" if others else ""
        return (f"Start a new game with {changed_options(self.state.variant, variant)}? "
                f"Its rules: {self.game.describe_variant(variant)}. This game "
                f"({moves_text(main)}{side}) is kept under Save / load → earlier.")

    def confirm_variant(self, yes: bool) -> None:
        """Answer the waiting proposal: start it, or keep the game as it is."""
        pending = self._pending_variant
        self._pending_variant = None
        self._action()
        self._notify("proposal")
        if pending is None:
            return
        if yes:
            self.set_variant(pending)
            self.say(f"New game: {self.game.describe_variant(self.state.variant)}.")
        else:
            self.say("Variant unchanged; the game goes on.")

    # ------------------------------------------------------------------ records
    def save_target(self, viewpoint: Viewpoint) -> Any:
        """Whose record Save writes for ``viewpoint``: None (the full record), a seat or
        TABLE."""
        if isinstance(self.replay, SeatReplay):
            return self.replay.seat_record.seat
        return TABLE if viewpoint == "current" else viewpoint

    def record_to_save(self, viewpoint: Viewpoint) -> tuple[Record | SeatRecord, str]:
        """The record ``viewpoint`` may keep and what it is called ("the full record",
        "seat A's record")."""
        if isinstance(self.replay, SeatReplay):
            rec = self.replay.seat_record
            return rec, f"{rec.whose}'s record"
        seat = self.save_target(viewpoint)
        if seat is None:
            return self.replay.record(saved_by="janus_widgets"), "the full record"
        line = self.replay.current_line
        rec = SeatRecord.from_state(line.state_at(len(line)), seat,
                                    meta={"saved_by": "janus_widgets"}, by=line.by)
        return rec, f"{rec.whose}'s record"

    def read(self, source: Record | SeatRecord | str | Path | bytes) -> Replay | SeatReplay:
        """The replay of a record handed over (checked; nothing changes here)."""
        try:
            record = read_record(source)
            if record.game != self.game.name:
                raise RecordError(f"that record is a {record.game} game; this table plays "
                                  f"{self.game.name}")
            return record.replay()
        except RecordError:
            raise
        except Exception as exc:  # noqa: BLE001 - whatever it is, the user gets our error
            self.errors.append(traceback.format_exc())
            raise RecordError(f"{type(exc).__name__}: {exc}") from exc

    def load(self, source: Record | SeatRecord | str | Path | bytes) -> State:
        """Load a record: a path, JSON text or bytes, a :class:`Record` or a
        :class:`SeatRecord`. A seat's record shows that seat's view, to step through
        but not to play on. A loaded game is shown as saved: its bots wait until the
        user steps or plays. Anything wrong changes nothing and raises
        :class:`RecordError`, after saying what in the notice."""
        self._action()
        try:
            replay = self.read(source)
        except RecordError as exc:
            self.say(f"Could not load the record: {exc}", "error")
            raise
        self._show_replay(replay)
        if isinstance(replay, SeatReplay):
            self.say(f"Loaded {replay.seat_record.whose}'s record "
                     f"({moves_text(replay.length)}): step through it; it cannot be played "
                     "on (no seed, no hidden card).")
        else:
            lines = len(replay.lines)
            self.say(f"Loaded {moves_text(replay.length)} ({lines} "
                     f"line{'s' * (lines > 1)}), shown as saved.")
        return self.state

    # ------------------------------------------------------------------ what is told
    def _told_window(self, viewpoint: Viewpoint, lo: int, hi: int, *,
                     sentences: bool = False) -> list[Told]:
        """Moves ``lo`` … ``hi - 1`` of the current line as ``viewpoint`` may know them:
        rolled forward from one replay checkpoint (a long game costs no more than a
        short one). A screen passed round tells what every seat knows (the table's
        account); a seat's record what the seat was told, as saved, read by the same
        engine methods whatever the game (``told_words``, ``told_sentence``), so it reads
        as the game did for that seat. ``sentences``: say what each move did as well (the
        last move needs it; the log does not)."""
        if hi <= lo:
            return []
        by = self.by
        replay = self.replay
        if isinstance(replay, SeatReplay):
            told = replay.observations
            rec = replay.seat_record
            engine = rec._frames().engine
            out = []
            for i in range(lo, hi):
                before = rec.replay_view(i)
                out.append(Told(before.current_player, by[i],
                                engine.told_words(before, told[i]),
                                engine.told_sentence(before, told[i]) if sentences else ""))
            return out
        seat = TABLE if viewpoint == "current" else viewpoint
        line = replay.current_line
        engine = line.start.engine
        out = []
        for i, raw in zip(range(lo, hi), line.raws(lo, hi)):
            action = line.actions[i]
            out.append(Told(engine.current(raw), by[i], engine.log_entry(raw, action, seat),
                            sentence(engine, raw, action, seat) if sentences else ""))
        return out

    def log(self, viewpoint: Viewpoint, lo: int, hi: int) -> list[tuple[str, int]]:
        """The move log's entries for moves ``lo`` … ``hi - 1``: ``("3. B (bot) r1", 3)``."""
        return log_entries(self._told_window(viewpoint, lo, hi), lo)

    def last_move(self, viewpoint: Viewpoint) -> str:
        """The move that led to the position shown, as ``viewpoint`` may know it."""
        i = self.replay.index
        lo = max(0, i - 5)                       # a decision and up to four chances
        return last_move(self._told_window(viewpoint, lo, i, sentences=True), i, lo)

    def facts(self, viewpoint: Viewpoint) -> Facts:
        """What the status line states for ``viewpoint``, from the record alone."""
        state = self.state
        cur = state.current_player
        rec = self.replay.seat_record.whose if isinstance(self.replay, SeatReplay) else ""
        return Facts(index=self.replay.index, length=self.replay.length,
                     line=self.replay.line, lines=len(self.replay.lines), turn=cur,
                     turn_by=bot_by(self._bot_labels[cur]) if cur in self._bots else HUMAN,
                     scores=tuple(state.scores()), last=self.last_move(viewpoint),
                     outcome=state.outcome() if cur == TERMINAL else "",
                     note="" if self._held and self.replay.at_end else self.waiting_bot(),
                     record_of=rec, stopped=self._held)

    def __repr__(self) -> str:
        return (f"<Table {self.game.name} move {self.replay.index}/{self.replay.length}, "
                f"{len(self.replay.lines)} line(s)>")


def changed_options(old: Any, new: Any) -> str:
    """The options that differ between two variants, as their labels say them, for a
    confirm box (the values themselves are compared: a table of tuples is not its JSON
    form of lists).

    >>> from janus_widgets import games
    >>> janus = games.get("janus").Variant
    >>> changed_options(janus(), janus(toll_fields="entered"))
    'toll fields: tolls on every field'
    >>> changed_options(janus(), janus())
    'the same options'
    """
    return ", ".join(new.labelled_changes(old)) or "the same options"

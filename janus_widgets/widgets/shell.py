"""The widget shell: one interactive widget for every game.

A :class:`GameWidget` is made of the parts a student sees, each a small class of its
own module:

* the **stage** (:mod:`.stage`): the canvas, scaled to the screen, and under it
* the **step bar** (:mod:`.stepbar`): first / back / forward / last, a slider,
  autoplay and its delay, and
* the **status line** (:mod:`.status`): what is true now, and its ``aria-live`` twin;
* the **moves panel** (:mod:`.moves_panel`): the legal moves (select one to see it,
  play it), the moves played and the lines of play; beside the canvas when there is
  room, under the status line when not;
* the tabs: **Game & variant** (:mod:`.game_panel`), **Seats & view**
  (:mod:`.seats`) and **Save / load** (:mod:`.records_panel`: records, earlier games,
  pictures and animations);
* the **keyboard** (:mod:`.keyboard`): ← → Home End Space Enter ↑ ↓.

The shell owns the game: the replay (every line), the selection, the bots and the
timer, and keeps every part up to date.

The viewpoint is the boundary of what the screen gives away (``docs/secrets.md``): the
teacher's view (``None``) shows everything, the seed included, and Save writes the full
record; a seat's view (or ``"current"``, the player to move on a screen passed round)
never shows the seed in any game, and Save writes that seat's (or the table's) record:
no seed, no hidden card. A seat's record loaded back is stepped through and never played
on. The surface a seat sees is collected by :func:`~.surface.widget_surface`.

Every control is also a method, so notebook cells drive the same widget::

    w = GameWidget("jactus", players=3, seed=7)
    w                     # display it
    w.play("r*")          # in a later cell: the displayed widget follows
    w.back(); w.goto(0); w.step()

A game plugs in through its ``draw`` module: ``draw(view, highlights, selection) ->
Drawing``, ``click(view, selection, key) -> Click`` and ``highlight(view, move) ->
keys`` (optionally ``selection_for(view, move)`` and ``fresh_selection(view,
viewpoint, previous)``), and its ``widget`` module may add ``extras(shell)`` and
``refresh(shell)``.
"""

from __future__ import annotations

import asyncio
import html
import importlib
import re
import traceback
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import ipywidgets as W

from .. import games as game_registry
from ..core.bots import bot_names, make_bot
from ..core.errors import IllegalMoveError, InvalidMoveError, JanusError, RecordError
from ..core.protocol import CHANCE, TABLE, TERMINAL, Engine, Game, Move, State, seat_name
from ..core.record import Record, read_record
from ..core.replay import Replay
from ..core.rng import RandomStream, fresh_seed
from ..core.seat_record import SeatRecord, SeatReplay
from .drawing import Click, Drawing
from .export import write_animation, write_picture
from .game_panel import GamePanel
from .keyboard import Keyboard
from .moves_panel import LOG_WINDOW, MovesPanel
from .records_panel import RecordsPanel
from .seats import SeatsPanel, viewpoint_choices
from .stage import Stage
from .status import StatusFacts, StatusLine
from .stepbar import StepBar

__all__ = ["GameWidget"]

#: Longest run of bot moves made in one go when bots move without delay.
SYNC_BOT_LIMIT = 5000
#: After a click in the browser, the new picture goes out first and the other parts
#: (step bar, moves, status line) this many seconds later, so the browser paints the
#: picture before it rebuilds the lists (a notebook cell's call updates everything at
#: once).
CONTROLS_AFTER = 0.1

Viewpoint = Any  # None (everything), a seat number, or "current"


def _moves(n: int) -> str:
    """``"1 move"``, ``"3 moves"``."""
    return f"{n} move{'s' * (n != 1)}"


def _kernel_loop() -> asyncio.AbstractEventLoop | None:
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


class GameWidget(W.VBox):
    """Play, replay and study one game; every control is also a method."""

    def __init__(self, game: str | Game, variant: Any = None, *, seed: int | None = None,
                 record: Record | str | Path | None = None,
                 bots: dict[int, Any] | None = None, viewpoint: Viewpoint = "default",
                 bot_delay: float = 0.5, big: bool = False, lock_view: bool = False,
                 **options: Any) -> None:
        super().__init__()
        self.game: Game = game_registry.get(game) if isinstance(game, str) else game
        self.board = self.game.board()
        self.bot_delay = float(bot_delay)
        self.previous_games: list[Record | SeatRecord] = []
        self.errors: list[str] = []          # full tracebacks of anything that went wrong
        self._selection: Any = None
        self._highlights: tuple[Hashable, ...] = ()
        self._tick_generation = 0
        self._game_number = 0                 # a new game, a load, a restore: +1
        self._autoplay = False
        self._bots: dict[int, Callable[[Any], Any]] = {}
        self._bot_labels: dict[int, str] = {}
        self._pending_variant: Any = None       # a Variant waiting for the confirm box
        self._from_browser = False            # inside a callback of the browser's
        self._controls_due = False            # the parts wait for CONTROLS_AFTER
        self._lock_view = bool(lock_view)     # the view menu cannot be changed
        self._bots_wait = False               # a loaded game's bots wait for the user

        start = self.game.new(variant, seed=seed, **options)
        self.replay: Replay | SeatReplay = Replay(start)
        if viewpoint == "default":
            viewpoint = getattr(self.board, "DEFAULT_VIEWPOINT", None)
        self._check_viewpoint(viewpoint)
        self._viewpoint: Viewpoint = viewpoint
        self._build()
        if record is not None:
            self.load(record)
        for seat, policy in (bots or {}).items():
            self.set_bot(seat, policy)
        if big:
            self.set_big(True)
        self._selection = self._fresh_selection()
        self._refresh(board=True)

    # ------------------------------------------------------------------ building
    def _build(self) -> None:
        guard = self._guard
        first = self.game.draw(self.state.view(self._view_seat()))
        self.stage = Stage(first, on_click=guard(self._on_canvas_click),
                           on_ready=guard(lambda: self.stage.repaint()))
        self.stepbar = StepBar(on_goto=guard(self.goto), on_step=guard(self.step),
                               on_autoplay=guard(self.autoplay),
                               on_delay=guard(self._on_delay), delay=self.bot_delay)
        self.status = StatusLine()
        self.moves = MovesPanel(on_option=guard(self._on_option_selected),
                                on_play=guard(self._play_selected),
                                on_log=guard(self.goto), on_line=guard(self.switch_line))
        # The seed box is filled in by _show_secret_parts, in the teacher's view only.
        self.game_panel = GamePanel(self.game, self.state.variant,
                                    on_option=guard(self._on_variant_control),
                                    on_confirm=guard(self._confirm_variant),
                                    on_new=guard(self._new_from_box),
                                    on_ruleset=guard(self._propose_variant))
        self.seats = SeatsPanel(on_viewpoint=guard(self.set_viewpoint),
                                on_seat=guard(self._on_seat), game=self.game)
        self.records = RecordsPanel(self.game.name, on_save=guard(self.save),
                                    on_load=guard(self._load_from_box),
                                    on_upload=guard(self._on_upload),
                                    on_restore=guard(self._restore_from_box),
                                    on_picture=guard(self.save_picture),
                                    on_animation=guard(lambda path, fps:
                                                       self.save_animation(path, fps=fps)))
        self.keyboard = Keyboard(label=self.game.title)
        self.keyboard.on_key(guard(self.press))

        self.heading = W.HTML(layout=W.Layout(margin="0", flex="1 1 auto"))
        self.heading.add_class("janus-heading")
        self.big_button = W.ToggleButton(description="Big", icon="expand", value=False,
                                         tooltip="Big mode for a projector: a larger "
                                                 "canvas and larger type",
                                         layout=W.Layout(width="auto", flex="none"))
        self.big_button.observe(guard(lambda change: self.set_big(change["new"])),
                                names="value")
        # A game's own widget.py may add controls of its own (an odds panel, a deal
        # button); the shell stays the same for every game.
        self.extras = W.VBox(list(self._game_hooks("extras", default=[])))
        self.stage.set_below([self.stepbar.widget, self.status.widget, self.extras])
        self.tabs = W.Tab(children=[self.game_panel.widget, self.seats.widget,
                                    self.records.widget],
                          titles=["Game & variant", "Seats & view", "Save / load"])
        self._show_seats()
        self.children = [
            self.keyboard, self.status.live,
            W.HBox([self.heading, self.big_button],
                   layout=W.Layout(align_items="center", width="100%")),
            W.HBox([self.stage.widget, self.moves.widget],
                   layout=W.Layout(flex_flow="row wrap", align_items="flex-start",
                                   width="100%")),
            self.game_panel.confirm_box, self.tabs]
        self.layout.width = "100%"
        self.add_class("janus-widget")
        # The parts' controls, under the names notebooks and tests use.
        for part, names in (
                (self.stage, ["canvas"]),
                (self.stepbar, ["first_button", "back_button", "forward_button",
                                "last_button", "slider", "autoplay_button", "speed"]),
                (self.moves, ["options_list", "play_button", "move_log", "lines"]),
                (self.game_panel, ["variant_controls", "ruleset_control", "confirm_box",
                                   "confirm_text", "confirm_yes", "confirm_no", "seed_box",
                                   "new_button"]),
                (self.seats, ["viewpoint_box"]),
                (self.records, ["path_box", "save_button", "load_button", "upload",
                                "previous_box", "restore_button"])):
            for name in names:
                setattr(self, name, getattr(part, name))
        self.status_line = self.status.widget
        self.seats_tab = self.seats.widget

    @property
    def seat_boxes(self) -> list[W.Dropdown]:
        """One menu per seat: human or a bot (Seats & view)."""
        return self.seats.seat_boxes

    def _game_hooks(self, name: str, default: Any = None) -> Any:
        """Call ``name(self)`` from the game's ``widget`` module, if it defines it."""
        package = self.board.__name__.rsplit(".", 1)[0]
        try:
            module = importlib.import_module(f"{package}.widget")
        except ModuleNotFoundError:
            return default
        hook = getattr(module, name, None)
        return default if hook is None else hook(self)

    # ------------------------------------------------------------------ guard
    def _guard(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Run a UI callback; anything that goes wrong is reported, never raised."""
        def run(*args: Any, **kwargs: Any) -> Any:
            outer = self._from_browser
            self._from_browser = True
            try:
                return fn(*args, **kwargs)
            except (JanusError, ValueError) as exc:
                self._say(str(exc), "error")
            except Exception as exc:  # noqa: BLE001 - the user must never see a traceback
                self.errors.append(traceback.format_exc())
                self._say(f"Something went wrong ({type(exc).__name__}: {exc}); the game "
                          "is unchanged. Details: widget.errors[-1].", "error")
            finally:
                self._from_browser = outer
        return run

    def guard(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Wrap a UI callback so that nothing it raises reaches the user as a
        traceback (for a game's own controls in its widget.py)."""
        return self._guard(fn)

    # ------------------------------------------------------------------ reading
    @property
    def state(self) -> State:
        """The state at the cursor."""
        return self.replay.state

    @property
    def record(self) -> Record:
        """The record of this game (every line)."""
        return self.replay.record()

    @property
    def index(self) -> int:
        """How many moves of the current line are played at the cursor."""
        return self.replay.index

    @property
    def drawing(self) -> Drawing:
        """The drawing last painted."""
        return self.stage.drawing

    @property
    def frames(self) -> int:
        """Canvas frames painted so far (each one message)."""
        return self.stage.frames

    @property
    def message(self) -> str:
        """What the status line says happened last: the answer to the user's last action
        while it applies (a refusal names its rule), else the move that led here."""
        self._controls_now()
        return self.status.message

    @property
    def view(self) -> Any:
        """The position as the screen shows it: the state seen from the viewpoint (in a
        seat's record, that seat's view as saved); what a game's own controls read."""
        return self._view()

    @property
    def viewpoint(self) -> Viewpoint:
        """Whose view is drawn: None (everything), a seat, or 'current'."""
        return self._viewpoint

    @property
    def big(self) -> bool:
        """Whether big mode (projectors) is on."""
        return self.stage.big

    @property
    def seat_mode(self) -> bool:
        """Whether a seat's record is shown (stepped through, never played on)."""
        return isinstance(self.replay, SeatReplay)

    def _shows_secrets(self) -> bool:
        """Whether the screen may show the seed: only the teacher's view of a game."""
        return self._viewpoint is None and not self.seat_mode

    def _not_playable(self) -> str:
        """Why nothing can be played on the seat's record shown."""
        return self.replay.seat_record.not_playable()  # type: ignore[union-attr]

    def _viewpoint_options(self) -> list[tuple[str, Any]]:
        """``(label, viewpoint)`` for every view allowed now (a seat's record: its own)."""
        if isinstance(self.replay, SeatReplay):
            record = self.replay.seat_record
            return [(f"{record.whose}'s record", record.seat)]
        return viewpoint_choices(self.state.num_players)

    def _check_viewpoint(self, viewpoint: Viewpoint) -> None:
        allowed = [v for _, v in self._viewpoint_options()]
        if isinstance(self.replay, SeatReplay) and viewpoint not in allowed:
            raise ValueError(f"this is {self.replay.seat_record.whose}'s record: it holds "
                             "that view only")
        if viewpoint not in allowed or isinstance(viewpoint, bool):
            raise ValueError(f"viewpoint {viewpoint!r} is not allowed: use None, 'current' "
                             f"or a seat 0 … {self.state.num_players - 1}")

    def _view_seat(self) -> int | str | None:
        """The seat whose view is drawn: with "current" the player to move; at a chance
        point the table's (what every seat has seen); at the end everything."""
        if self._viewpoint == "current":
            cur = self.replay.state.current_player
            if cur >= 0:
                return cur
            return TABLE if cur == CHANCE else None
        return self._viewpoint

    def _view(self) -> Any:
        return self.state.view(self._view_seat())

    def _situation(self) -> Hashable:
        """What an answer in the status line answers: this game, line, position,
        viewpoint and selection. When any of them changes, the answer is gone."""
        return (self._game_number, self.replay.line, self.replay.index, self.replay.length,
                repr(self._viewpoint), repr(self._selection), self._highlights)

    # ------------------------------------------------------------------ navigation
    def goto(self, index: int) -> State:
        """Show the state after ``index`` moves of the current line."""
        self._stop_ticks()
        self.replay.goto(index)
        self._changed()
        return self.state

    def first(self) -> State:
        """Go to the start."""
        return self.goto(0)

    def last(self) -> State:
        """Go to the end of the current line."""
        return self.goto(self.replay.length)

    def back(self) -> State:
        """One move back."""
        return self.goto(max(0, self.replay.index - 1))

    def forward(self) -> State:
        """One move forward in the recorded line (nothing new is played)."""
        return self.goto(min(self.replay.length, self.replay.index + 1))

    def step(self) -> bool:
        """One step: forward in the line, or at its end the dice's or a bot's move.

        Returns whether anything happened (False when a human is to move or the
        game is over).
        """
        self._stop_ticks()
        done = self._step_once()
        self._changed()
        self._schedule_bots()
        if not done and self.replay.at_end:
            if self.seat_mode:                   # nothing is played on a seat's record
                self._say(self._not_playable(), "refused")
            elif not self.state.is_over:
                self._say(f"{seat_name(self.state.current_player)} is to move: choose a "
                          "move (click the board, or the list and Play).")
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
            replay.play(state.sample_chance())
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
        replay.play(choice)
        self._resolve_chance()
        return True

    def switch_line(self, line: int) -> State:
        """Go to another line of play (0 is the main line)."""
        self._stop_ticks()
        self.replay.switch(line)
        self._changed()
        return self.state

    # ------------------------------------------------------------------ playing
    def play(self, move: Move | str) -> State:
        """Play a move at the cursor (branching if the cursor is not at the end).

        Chance that follows is resolved from the game's seed; bots reply
        (after ``bot_delay`` seconds, or at once when it is 0). Raises
        :class:`IllegalMoveError` / :class:`InvalidMoveError` for a refused
        move, after showing the reason in the status line; a refused move changes
        nothing. A seat's record cannot be played on (:class:`RecordError`).
        """
        self._stop_ticks()
        if self.seat_mode:
            text = self._not_playable()
            self._say(text, "refused")
            raise RecordError(text)
        state = self.state
        # At the end of the line where chance is to act, the move waits for chance:
        # its outcomes are worked out aside first, so a refused move changes nothing.
        pending: list[Move] = []
        if self.replay.at_end:
            while state.is_chance:
                pending.append(state.sample_chance())
                state = state.play(pending[-1])
        player = state.current_player
        if player in self._bots:
            text = f"Seat {seat_name(player)} is played by a bot; wait for it, or set the " \
                   "seat to human (Seats & view)."
            self._say(text, "refused")
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
        branching = not self.replay.at_end
        for outcome in pending:
            self.replay.play(outcome)
        self.replay.play(move_obj)
        self._release_bots()
        self._resolve_chance()
        self._changed()
        if branching:
            self._say("A new line starts here; the old one is kept (see line, beside).")
        self._schedule_bots()
        return self.state

    def resolve_chance(self) -> State:
        """At the end of the line, let chance act until a player is to move (from the
        game's seed: the same seed gives the same outcomes); bots then reply."""
        self._stop_ticks()
        if self.replay.at_end and self.state.is_chance and not self.seat_mode:
            self._release_bots()
            self._resolve_chance()
            self._changed()
            self._schedule_bots()
        return self.state

    def say(self, text: str, kind: str = "info") -> None:
        """Show a message in the status line (``kind``: info, refused or error); it
        stays until the position, the line or the selection changes."""
        if kind not in ("info", "refused", "error"):
            raise ValueError(f"kind={kind!r}: use 'info', 'refused' or 'error'")
        self._say(text, kind)

    def _resolve_chance(self) -> None:
        replay = self.replay
        while replay.at_end and replay.state.is_chance:
            replay.play(replay.state.sample_chance())

    def _refuse(self, exc: Exception) -> None:
        if isinstance(exc, IllegalMoveError):
            self._say(f"Refused {exc.move!r} — {exc.rule}: {exc.reason}", "refused")
        else:
            self._say(str(exc).split(" Legal now:")[0], "refused")

    def click(self, x: float, y: float) -> None:
        """Click the canvas at ``(x, y)`` (drawing coordinates), as a mouse would."""
        self._on_canvas_click(x, y)

    def click_key(self, key: Hashable) -> None:
        """Click the region with this key (see the game's ``draw`` module)."""
        region = self.drawing.find(key)
        if region is None:
            raise ValueError(f"nothing is drawn with key {key!r}")
        self.click(*region.center())

    def _on_canvas_click(self, x: float, y: float) -> None:
        key = self.drawing.hit(x, y)
        state = self.state
        result: Click = self.board.click(self._view(), self._selection, key)
        if result.step and state.is_chance:
            self.step()                      # chance acts, then any bots reply
            self._schedule_bots()
            if result.message:
                self._say(result.message)
            return
        if result.move is not None:
            if self.seat_mode:
                self._say(self._not_playable(), "refused")
                return
            player = state.current_player
            if player in self._bots:
                self._say(f"Seat {seat_name(player)} is played by a bot: its move comes "
                          "by itself (or set the seat to human).", "refused")
                return
            self._selection = result.selection   # kept if the move is refused
            try:
                self.play(result.move)
            except (IllegalMoveError, InvalidMoveError):
                self._show_selection()
            return
        self._selection = result.selection
        if result.message:
            cites_rule = re.match(r"[A-Z]{2}-\d+", result.message) is not None
            self._say(result.message, "refused" if cites_rule else "info")
        self._show_selection()

    def select(self, move: Move | str | None) -> None:
        """Select a legal move in the options list: it is highlighted on the canvas."""
        if move is None:
            self._highlights = ()
            self.moves.mark(None)
            self._show_selection()
            return
        state = self.state
        move_obj = state.parse(move) if isinstance(move, str) else move
        legal = list(state.legal_moves())
        if move_obj not in legal:
            raise IllegalMoveError(f"{move_obj} is not a legal move here",
                                   move=str(move_obj), rule="", reason="not legal")
        # At a chance point the list holds no outcomes, only the "press ▶" line.
        self.moves.mark(None if state.is_chance else legal.index(move_obj))
        self._show_option(move_obj)

    def _show_option(self, move: Move) -> None:
        view = self._view()
        self._highlights = tuple(self.board.highlight(view, move))
        chooser = getattr(self.board, "selection_for", None)
        if chooser is not None:
            self._selection = chooser(view, move)
        self._say(f"Selected {move.notation}: {move.description}")
        self._show_selection()

    def _play_selected(self) -> None:
        """The Play button (and Enter): the move selected in the list, if there is one
        to play here."""
        state = self.state
        if self.seat_mode:
            self._say(self._not_playable(), "refused")
            return
        if state.is_chance:
            self._say("Chance acts here, not a player: press ▶ (step) to let it act.",
                      "refused")
            return
        if state.is_over:
            self._say("The game is over: there is no move to play.", "refused")
            return
        index = self.moves.selected
        moves = state.legal_moves()
        if index is None or not 0 <= index < len(moves):
            self._say("Select a move in the list first (or with ↑ ↓).", "refused")
            return
        self.play(moves[index])

    def _on_option_selected(self, index: int) -> None:
        moves = self.state.legal_moves()
        if 0 <= index < len(moves) and not self.state.is_chance:
            self._show_option(moves[index])

    # ------------------------------------------------------------------ keyboard
    def press(self, key: str) -> None:
        """Do what a key does with the widget focused (see :data:`.keyboard.KEYS`):
        ``"ArrowLeft"``, ``"ArrowRight"``, ``"Home"``, ``"End"``, ``" "`` (autoplay),
        ``"Enter"`` (play the selected move), ``"ArrowUp"`` / ``"ArrowDown"``."""
        if key == "ArrowLeft":
            self.back()
        elif key == "ArrowRight":
            self.step()
        elif key == "Home":
            self.first()
        elif key == "End":
            self.last()
        elif key == " ":
            self.autoplay(not self._autoplay)
        elif key == "Enter":
            self._play_selected()
        elif key in ("ArrowUp", "ArrowDown"):
            self._walk_options(-1 if key == "ArrowUp" else 1)
        else:
            raise ValueError(f"key {key!r} does nothing here; the keys are ← → Home End "
                             "Space Enter ↑ ↓")

    def _walk_options(self, step: int) -> None:
        state = self.state
        if self.seat_mode:
            self._say(self._not_playable(), "refused")
            return
        if state.is_over or state.is_chance:
            self._say("There is no move to choose here" + (" (▶ lets chance act)."
                                                           if state.is_chance else "."))
            return
        moves = state.legal_moves()
        current = self.moves.selected
        index = (0 if step > 0 else len(moves) - 1) if current is None else \
            (current + step) % len(moves)
        self.select(moves[index])

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
        self._show_seats()
        self._changed()
        self._schedule_bots()

    @property
    def bots(self) -> dict[int, Callable[[Any], Any]]:
        """Seat → policy for the seats played by bots."""
        return dict(self._bots)

    def _on_seat(self, seat: int, value: str) -> None:
        self.set_bot(seat, None if value == "human" else value)

    def _show_seats(self) -> None:
        self.seats.show(players=self.state.num_players, viewpoint=self._viewpoint,
                        bots=self._bot_labels, choices=self._viewpoint_options(),
                        locked=self._lock_view)

    def _release_bots(self) -> None:
        """The user stepped or played: a loaded game's bots may move again, and the
        status line's note that they wait leaves it (it is no longer true)."""
        self._bots_wait = False

    def _waiting_bot(self) -> str:
        """The status line's note while the bot to move waits for the user (after a
        load or a restore); ``""`` when no bot waits."""
        cur = self.state.current_player
        if self._bots_wait and self.replay.at_end and cur in self._bots:
            return f"{seat_name(cur)} is played by a bot: it moves when you step (▶) or play."
        return ""

    def _schedule_bots(self) -> None:
        """After a change at the end of the line, let bots (and dice) move (not in a
        seat's record, and not in a loaded game until the user steps or plays)."""
        if not self.replay.at_end or self.seat_mode or self._bots_wait:
            return
        cur = self.state.current_player
        if cur not in self._bots and not self._autoplay:
            return
        if self.bot_delay <= 0 or _kernel_loop() is None:
            for _ in range(SYNC_BOT_LIMIT):
                if not self.replay.at_end or self.state.current_player not in self._bots:
                    break
                self._step_once()
            self._changed()
            return
        self._schedule_tick(self.bot_delay)

    # ------------------------------------------------------------------ autoplay
    def autoplay(self, on: bool = True) -> None:
        """Step forward on a timer (replay, dice and bots) until a human is to move
        or the game ends. Without a running event loop it runs to that point now."""
        self._autoplay = bool(on)
        if on:
            self._release_bots()
        self._show_steps()
        if not on:
            self._stop_ticks()
            return
        if _kernel_loop() is None:
            for _ in range(SYNC_BOT_LIMIT):
                if not self._step_once():
                    break
            self._autoplay = False
            self._changed()
            return
        self._schedule_tick(self.stepbar.speed.value)

    def _schedule_tick(self, delay: float) -> None:
        self._tick_generation += 1
        generation = self._tick_generation
        loop = _kernel_loop()
        if loop is None:
            return
        loop.call_later(max(0.0, delay), self._guard(lambda: self._tick(generation)))

    def _stop_ticks(self) -> None:
        self._tick_generation += 1

    def _tick(self, generation: int) -> None:
        if generation != self._tick_generation:
            return  # the user did something since; this tick is stale
        if self._autoplay:
            done = self._step_once()
            self._changed()
            if done:
                self._schedule_tick(self.stepbar.speed.value)
            else:
                self.autoplay(False)
            return
        if self.replay.at_end and self.state.current_player in self._bots:
            self._step_once()
            self._changed()
            self._schedule_tick(self.bot_delay)

    def _on_delay(self, seconds: float) -> None:
        self.bot_delay = float(seconds)

    # ------------------------------------------------------------------ variants
    def set_variant(self, variant: Any = None, **options: Any) -> State:
        """Start a new game with other rule options (the current one is kept in
        :attr:`previous_games`). ``set_variant(players=4)``."""
        current = self.state.variant
        base = current if variant is None else variant
        new_variant = self.game.variant(base, **options)
        return self.new_game(seed=self.state.seed, variant=new_variant)

    def set_ruleset(self, name: str) -> State:
        """Start a new game under one of the game's named rulesets, keeping the number of
        players (the Ruleset menu's method). ``set_ruleset("points")``."""
        variant = self.state.variant
        setup = {s.name: getattr(variant, s.name) for s in variant.options() if s.setup}
        return self.set_variant(self.game.variant(ruleset=name, **setup))

    def new_game(self, seed: int | None = None, variant: Any = None) -> State:
        """Start a new game (same variant unless given); the current one is kept.
        Without ``seed`` a fresh one is drawn secretly (see ``rng.fresh_seed``)."""
        self._stop_ticks()
        variant = self.state.variant if variant is None else self.game.variant(variant)
        seed = fresh_seed() if seed is None else seed
        start = self.game.new(variant, seed=seed)  # validates before anything changes
        self._archive()
        self.replay = Replay(start)
        self._after_new_game()
        return self.state

    def _after_new_game(self, schedule_bots: bool = True) -> None:
        """Show a new game or a loaded one. A new game lets its bots start at once; a
        loaded or restored one is shown as saved, and its bots wait until the user
        steps or plays (``schedule_bots=False``)."""
        self._bots_wait = not schedule_bots
        self._game_number += 1
        self._highlights = ()
        self._pending_variant = None
        self.game_panel.hide()
        n = self.state.num_players
        for seat in [s for s in self._bots if s >= n]:
            self._bots.pop(seat)
            self._bot_labels.pop(seat, None)
        self.game_panel.show(self.state.variant)
        options = self._viewpoint_options()
        if self._viewpoint not in [v for _, v in options]:
            # Fewer seats than before, or a seat's record (loaded, or left): the nearest
            # view that shows no more than before, never the teacher's unless it was.
            self._viewpoint = options[0][1] if self.seat_mode else (
                "current" if self._viewpoint is not None else None)
        self._show_seats()
        self._selection = self._fresh_selection()
        self._refresh(board=True)
        self._schedule_bots()

    def _show_replay(self, replay: Replay | SeatReplay) -> None:
        """Put a loaded or restored game on screen, at its end, as it was saved; its
        bots wait for the user."""
        self._stop_ticks()
        self._archive()
        self.replay = replay
        self.replay.last()
        if isinstance(replay, SeatReplay):
            self._viewpoint = replay.seat_record.seat
        self._after_new_game(schedule_bots=False)

    def _archive(self) -> None:
        if any(len(line) for line in self.replay.lines):
            self.previous_games.append(self.replay.record())
            self._show_earlier(select=len(self.previous_games) - 1)
        else:
            self._show_earlier()

    def _show_earlier(self, select: int | None = None) -> None:
        """The "earlier games" list, always as :attr:`previous_games` is now (a seed
        only in the teacher's view); ``select`` one, or keep the choice if it is still
        there."""
        def label(i: int, rec: Record | SeatRecord) -> str:
            if isinstance(rec, SeatRecord):
                return f"{i + 1}: {rec.whose}'s record, {_moves(len(rec.moves))}"
            seed = f", seed {rec.seed}" if self._shows_secrets() else ""
            return f"{i + 1}: {rec.game}{seed}, {_moves(len(rec.moves))}"
        self.records.show_earlier([label(i, rec) for i, rec in enumerate(self.previous_games)],
                                  select=select)

    def restore(self, index: int = -1) -> State:
        """Bring back an earlier game from :attr:`previous_games` (the current one is
        kept there in its place), shown as it was; its bots wait for the user."""
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
        self._say(f"Restored the earlier game ({_moves(self.replay.length)}), shown as it "
                  "was.")
        return self.state

    def _on_variant_control(self, name: str, change: dict) -> None:
        try:
            variant = self.game.variant(self.state.variant, **self.game_panel.wanted())
        except ValueError as exc:
            self._say(str(exc), "error")
            self.game_panel.undo(change["owner"], change["old"])
            return
        self._propose_variant(variant)

    def _propose_variant(self, variant: Any) -> None:
        """Show ``variant`` in the controls and start it: at once if nothing has been
        played yet, else after the confirm box (an option by hand or a ruleset)."""
        self.game_panel.show(variant)
        moves = sum(len(line) for line in self.replay.lines)
        if moves == 0:
            self.set_variant(variant)
            self._say(f"New game: {self.game.describe_variant(self.state.variant)}.")
            return
        self._pending_variant = variant
        now = self.state.variant.to_dict()
        changed = ", ".join(f"{k}={v}" for k, v in variant.to_dict().items() if now[k] != v)
        self.game_panel.ask(
            f"Start a new game with <b>{html.escape(changed)}</b> "
            f"({html.escape(self.game.describe_variant(variant))})? This game ({moves} "
            "moves) is kept under Save / load → earlier.")

    def _confirm_variant(self, yes: bool) -> None:
        pending = self._pending_variant
        self._pending_variant = None
        self.game_panel.hide()
        if pending is None:
            return
        if yes:
            self.set_variant(pending)
            self._say(f"New game: {self.game.describe_variant(self.state.variant)}.")
        else:
            self.game_panel.show(self.state.variant)
            self._say("Variant unchanged; the game goes on.")

    def _new_from_box(self, seed: int) -> None:
        if self._shows_secrets():
            self.new_game(seed=int(seed))
            self._say(f"New game with seed {self.state.seed}.")
        else:                                # a seat never sees the seed: a secret one
            self.new_game()
            self._say("New game (its seed is secret: it is shown only in the teacher's "
                      "view).")

    # ------------------------------------------------------------------ views
    def set_viewpoint(self, viewpoint: Viewpoint) -> None:
        """Draw the game as a seat sees it (a seat number), as the player to move
        sees it (``"current"``), or everything (``None``, the teacher's view)."""
        self._check_viewpoint(viewpoint)
        self._viewpoint = viewpoint
        self._show_seats()
        self._selection = self._fresh_selection()
        self._highlights = ()
        self._refresh(board=True)

    def set_big(self, on: bool = True) -> None:
        """Big mode for a projector: a larger, sharper canvas and larger type (the
        legal moves and the log go under the status line)."""
        on = bool(on)
        self.stage.set_big(on)
        with self.big_button.hold_trait_notifications():
            self.big_button.value = on
        if on:
            self.add_class("janus-big")
        else:
            self.remove_class("janus-big")
        self.moves.widget.layout.flex = "1 1 100%" if on else "1 1 300px"
        self.moves.widget.layout.max_width = "none" if on else "520px"

    # ------------------------------------------------------------------ records
    def save(self, path: str | Path | None = None) -> Path:
        """Save a record (default path: the file box); what it writes follows the view.

        The teacher's view (``None``) writes the full record: seed, every move and
        chance outcome, every line. A seat's view writes that seat's record of the line
        on screen (:meth:`Record.view`: no seed, no hidden card), and a screen passed
        round (``"current"``) the table's record (what every seat has seen). A seat's
        record that was loaded is written again as it is. The Save button says which.
        A failed save changes nothing and says why in the status line."""
        target = Path(path or self.records.path_box.value)
        record, what = self._record_to_save()
        try:
            written = record.save(target)
        except OSError as exc:
            text = f"Could not save to {target}: {exc.strerror or exc}."
            self._say(text, "error")
            raise RecordError(text) from None
        note = "" if isinstance(record, Record) else "; no seed, no hidden card"
        self._say(f"Saved {what} ({_moves(self.replay.length)}{note}) to {written}.")
        return written

    def _save_target(self) -> Any:
        """Whose record the Save button writes: None (the full record), a seat or TABLE."""
        if isinstance(self.replay, SeatReplay):
            return self.replay.seat_record.seat
        return TABLE if self._viewpoint == "current" else self._viewpoint

    def _record_to_save(self) -> tuple[Record | SeatRecord, str]:
        if isinstance(self.replay, SeatReplay):
            rec = self.replay.seat_record
            return rec, f"{rec.whose}'s record"
        seat = self._save_target()
        if seat is None:
            return self.replay.record(saved_by="janus_widgets"), "the full record"
        line = self.replay.current_line
        rec = line.state_at(len(line)).seat_record(seat, saved_by="janus_widgets")
        return rec, f"{rec.whose}'s record"

    def load(self, source: Record | SeatRecord | str | Path | bytes) -> State:
        """Load a record: a path, JSON text or bytes, a :class:`Record` or a
        :class:`SeatRecord`. A seat's record shows that seat's view, to step through
        but not to play on. A loaded game is shown as saved: its bots wait until the
        user steps or plays. Anything wrong changes nothing; the status line says what
        (a :class:`RecordError` is raised)."""
        try:
            record = read_record(source)
            if record.game != self.game.name:
                raise RecordError(f"that record is a {record.game} game; this widget plays "
                                  f"{self.game.name}")
            replay: Replay | SeatReplay = record.replay()
        except RecordError as exc:
            self._say(f"Could not load the record: {exc}", "error")
            raise
        except Exception as exc:  # noqa: BLE001 - whatever it is, the user gets our error
            self.errors.append(traceback.format_exc())
            text = f"Could not load the record: {type(exc).__name__}: {exc}"
            self._say(text, "error")
            raise RecordError(text) from exc
        self._show_replay(replay)
        if isinstance(replay, SeatReplay):
            self._say(f"Loaded {replay.seat_record.whose}'s record ({_moves(replay.length)}): "
                      "step through it; it cannot be played on (no seed, no hidden card).")
        else:
            lines = len(replay.lines)
            self._say(f"Loaded {_moves(replay.length)} ({lines} line{'s' * (lines > 1)}), "
                      "shown as saved.")
        return self.state

    def _load_from_box(self, path: str) -> None:
        try:
            self.load(path)
        except RecordError:
            pass  # already reported in the status line

    def _on_upload(self, content: bytes) -> None:
        self.records.clear_upload()          # the file is not kept in the widget
        try:
            self.load(content)
        except RecordError:
            pass

    def _restore_from_box(self, index: int | None) -> None:
        if index is None or index < 0:
            self._say("There is no earlier game yet.", "refused")
            return
        self.restore(index)

    # ------------------------------------------------------------------ export
    def save_picture(self, path: str | Path, *, scale: float = 1.0) -> Path:
        """Write the position as shown (the view, the selection and the highlights) as
        ``.svg`` or ``.png``; ``scale`` pixels per drawing unit for a PNG."""
        written = write_picture(self.drawing, path, scale=scale)
        self._say(f"Saved the picture {written}.")
        return written

    def save_animation(self, path: str | Path, *, fps: float = 2.0, scale: float = 1.0,
                       start: int = 0, stop: int | None = None) -> Path:
        """Write the line shown, one frame per position from move ``start`` to move
        ``stop`` (default: from its start to its last move), as an animated ``.gif`` or
        ``.svg`` (``fps`` frames a second). Every frame is drawn from the view shown; for
        a screen passed round, from the seat whose screen it is now (the player to
        move). A GIF's frames are drawn with matplotlib: about a second each."""
        length = self.replay.length
        stop = length if stop is None else stop
        if not 0 <= start <= stop <= length:
            raise ValueError(f"moves {start} to {stop}: use 0 ≤ start ≤ stop ≤ {length} "
                             "(the moves of the line shown)")
        seat = self._view_seat()
        if isinstance(self.replay, SeatReplay):          # the seat's views, as saved
            views = [self.replay.seat_record.replay_view(i) for i in range(start, stop + 1)]
        else:
            views = [state.view(seat) for state in self.replay.states[start:stop + 1]]
        frames = [self.game.draw(view) for view in views]
        written = write_animation(frames, path, fps=fps, scale=scale)
        self._say(f"Saved {len(frames)} frames to {written}.")
        return written

    # ------------------------------------------------------------------ display
    def _say(self, text: str, kind: str = "info") -> None:
        self._controls_now()
        self.status.say(text, kind, situation=self._situation())

    def _changed(self) -> None:
        self._selection = self._fresh_selection()
        self._highlights = ()
        self._refresh()

    def _fresh_selection(self) -> Any:
        """The selection a newly shown position starts with: ``None``, or what the
        game's optional ``fresh_selection(view, viewpoint, previous)`` says (a card
        game covers the screen between turns when one screen is passed round)."""
        hook = getattr(self.board, "fresh_selection", None)
        if hook is None:
            return None
        return hook(self._view(), self._viewpoint, self._selection)

    def _refresh(self, board: bool = False) -> None:
        """Bring every part up to date: the canvas first (the picture reaches the
        browser first), then the controls and the status line."""
        self._render(board=board)
        if board:           # a new game, view or record: the seed leaves with no delay
            self._show_secret_parts()
        loop = _kernel_loop() if self._from_browser else None
        if loop is None:
            self._controls_due = False
            self._refresh_controls()
        elif not self._controls_due:
            self._controls_due = True
            loop.call_later(CONTROLS_AFTER, self._guard(self._controls_now))

    def _controls_now(self) -> None:
        """Bring the parts other than the canvas up to date if they wait."""
        if self._controls_due:
            self._controls_due = False
            self._refresh_controls()

    def _refresh_controls(self) -> None:
        self._show_secret_parts()
        self._show_steps()
        self._show_moves()
        self._update_status()
        self._game_hooks("refresh")

    def _show_selection(self) -> None:
        """A new selection or highlight: the canvas and the status line."""
        self._render()
        self._update_status()

    def _show_steps(self) -> None:
        self.stepbar.show(index=self.replay.index, length=self.replay.length,
                          autoplay=self._autoplay)

    def _show_secret_parts(self) -> None:
        """What may name the seed, as the view allows: the heading, the seed box and New
        game, the earlier games; and what Save writes. The seed is in the widget (shown
        or not) only in the teacher's view: it predicts every chance to come."""
        state = self.state
        rules = self.game.describe_variant(state.variant)
        secret = not self._shows_secrets()
        seed = "" if secret else f", seed {state.seed}"
        whose = (f" · {self.replay.seat_record.whose}'s record"
                 if isinstance(self.replay, SeatReplay) else "")
        heading = (f"<h3 style='margin:0'>{html.escape(self.game.title)} <small>— "
                   f"{html.escape(rules + seed + whose, quote=False)}</small></h3>")
        if self.heading.value != heading:
            self.heading.value = heading
        self.game_panel.show_seed(None if secret else state.seed)
        self.records.show_save(self._save_target())
        self._show_earlier()

    def _show_moves(self) -> None:
        replay = self.replay
        state = replay.state
        if self.seat_mode:
            self.moves.show_options([], note="(a seat's record: nothing can be played)",
                                    can_play=False)
        elif state.is_over:
            self.moves.show_options([], note="(the game is over)", can_play=False)
        elif state.is_chance:
            self.moves.show_options([], note="(chance) press ▶ step for the dice/draw",
                                    can_play=False)
        else:
            self.moves.show_options([(m.notation, m.description)
                                     for m in state.legal_moves()])
        lo = max(0, replay.index - LOG_WINDOW)
        hi = min(replay.length, replay.index + LOG_WINDOW)
        entries = [("start", 0)] if lo == 0 else []
        entries += self._log_entries(lo, hi)
        self.moves.show_log(entries, replay.index if lo <= replay.index <= hi else None)
        self.moves.show_lines(
            [("main line" if line.parent is None else
              f"line {line.id} (from line {line.parent} after move {line.at})", line.id)
             for line in replay.lines], replay.line)

    def _entry(self, engine: Engine, raw: Any, action: int) -> str:
        """What the viewpoint shown may know of a move: a seat's own account; a screen
        passed round ("current") shows what every seat knows (the table's account)."""
        seat = TABLE if self._viewpoint == "current" else self._viewpoint
        return engine.log_entry(raw, action, seat)

    def _mover(self, seat: int) -> str:
        if seat == CHANCE:
            return "chance"
        return seat_name(seat) + (" (bot)" if seat in self._bots else "")

    def _log_entries(self, lo: int, hi: int) -> list[tuple[str, int]]:
        """Log entries for moves ``lo`` … ``hi - 1`` of the current line: the raw
        states rolled forward from one replay checkpoint (a long game costs no more
        than a short one); a seat's record shows what the seat was told, as saved."""
        if hi <= lo:
            return []
        replay = self.replay
        if isinstance(replay, SeatReplay):
            told = replay.observations
            return [(f"{i + 1}. {told[i]}", i + 1) for i in range(lo, hi)]
        line = replay.current_line
        engine = line.start.engine
        return [(f"{i + 1}. {self._mover(engine.current(raw))} "
                 f"{self._entry(engine, raw, line.actions[i])}", i + 1)
                for i, raw in zip(range(lo, hi), line.raws(lo, hi))]

    def _last_move_text(self) -> str:
        """The move that led to the position shown, as the viewpoint may know it: the
        last decision, and the chance that followed it (dice thrown, a card dealt)."""
        replay = self.replay
        i = replay.index
        if isinstance(replay, SeatReplay):
            if i == 0:
                return ""
            mover = replay.seat_record.replay_view(i - 1).current_player
            told = replay.observations[i - 1]
            if mover == CHANCE:
                return f"Chance: {told}."
            return f"{self._mover(mover)} played {told}."
        line = replay.current_line
        engine = line.start.engine
        lo = max(0, i - 5)                       # a decision and up to four chances
        raws = list(line.raws(lo, i))            # raws[k]: after lo + k moves

        def before(move: int) -> Any:            # the raw state move ``move`` was made in
            return raws[move - 1 - lo]
        chance: list[str] = []
        while i > 0 and engine.current(before(i)) == CHANCE:
            chance.append(self._entry(engine, before(i), line.actions[i - 1]))
            i -= 1
            if len(chance) == 4:
                break
        chance.reverse()
        if len(chance) == 4:
            chance[0] = "…"
        then = ", ".join(chance)
        if i == 0 or engine.current(before(i)) == CHANCE:
            return f"Chance: {then}." if chance else ""
        raw, action = before(i), line.actions[i - 1]
        said = f"{self._mover(engine.current(raw))} played {self._entry(engine, raw, action)}"
        public = len({engine.log_entry(raw, action, p)
                      for p in range(engine.num_players)}) == 1
        if public:
            said += f": {engine.describe(raw, action).rstrip('.')}"
        return said + (f"; then chance: {then}." if chance else ".")

    def _update_status(self) -> None:
        replay = self.replay
        state = replay.state
        cur = state.current_player
        if cur == TERMINAL:
            turn = "<b>Game over</b>: " + html.escape(state.outcome())
        elif cur == CHANCE:
            turn = "chance to act (▶ step)"
        else:
            who = "bot" if cur in self._bots else "human"
            turn = f"<b>{seat_name(cur)}</b> to move ({who})"
        where = f"move {replay.index}/{replay.length}"
        if len(replay.lines) > 1:
            where += f", line {replay.line}"
        if isinstance(replay, SeatReplay):
            where = (f"{replay.seat_record.whose}'s record (step through it; not "
                     f"playable) · {where}")
        scores = " · ".join(f"{seat_name(p)} {s:g}" for p, s in enumerate(state.scores()))
        facts = StatusFacts(where=where, turn=turn, scores=scores,
                            last=self._last_move_text(), note=self._waiting_bot(),
                            position=str(self._view()))
        self.status.show(facts, situation=self._situation())

    def _render(self, board: bool = False) -> None:
        """Paint the current picture: one ``hold_canvas`` batch, one message."""
        d = self.game.draw(self._view(), highlights=self._highlights,
                           selection=self._selection)
        self._mark_bots(d)
        self.stage.show(d, board=board)

    def _mark_bots(self, d: Drawing) -> None:
        """Write "bot" beside the name of every seat a bot plays (where the game's
        drawing says a seat's name is)."""
        for seat in self._bots:
            anchor = d.seat_labels.get(seat)
            if anchor is None:
                continue
            x, y = anchor
            size = getattr(self.board, "TEXT_MIN", 11)     # the game's smallest text
            d.rect(x, y - 0.8 * size, 3.1 * size, 1.6 * size, fill="#37474f",
                   stroke="#ffffff", radius=4, layer="highlight")
            d.text(x + 1.55 * size, y, "BOT", size=size, bold=True, fill="#ffffff",
                   layer="highlight")

    def _repr_svg_(self) -> str:  # pragma: no cover - notebooks without widgets
        from .drawing import render_svg
        return render_svg(self.drawing)

    def __repr__(self) -> str:
        return (f"<GameWidget {self.game.name} move {self.replay.index}/"
                f"{self.replay.length}, {len(self.replay.lines)} line(s)>")

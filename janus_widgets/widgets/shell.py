"""The widget shell: one interactive widget for every game.

A :class:`GameWidget` shows a game on an ipycanvas ``MultiCanvas`` (board,
pieces and highlight layers) with the controls a class needs: step-through
replay (first / back / forward / last, a slider, autoplay with a speed), the
move log, the legal options (select one to see it on the board, play it with a
button), variant controls generated from the game's ``Variant``, a seed box, a
viewpoint selector, seats played by bots, and saving and loading of records.

Every control is also a method, so notebook cells drive the same widget::

    w = GameWidget("jactus", players=3, seed=7)
    w                     # display it
    w.play("r*")          # in a later cell: the displayed widget follows
    w.back(); w.goto(0); w.step()

The viewpoint is the boundary of what the screen gives away (``docs/secrets.md``): the
teacher's view (``None``) shows everything, the seed included, and Save writes the full
record; a seat's view (or ``"current"``, the player to move on a screen passed round)
never shows the seed in any game, and Save writes that seat's (or the table's) record:
no seed, no hidden card. A seat's record loaded back is stepped through and never played
on. The surface a seat sees is collected by :func:`~.surface.widget_surface`.

A game plugs in through its ``draw`` module: ``draw(view, highlights,
selection) -> Drawing``, ``click(view, selection, key) -> Click`` and
``highlight(view, move) -> keys`` (optionally ``selection_for(view, move)``).
"""

from __future__ import annotations

import asyncio
import html
import re
import traceback
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import ipywidgets as W
from ipycanvas import MultiCanvas, hold_canvas

from .. import games as game_registry
from ..core.bots import bot_names, make_bot
from ..core.errors import IllegalMoveError, InvalidMoveError, JanusError, RecordError
from ..core.protocol import CHANCE, TABLE, TERMINAL, Game, Move, State, seat_name
from ..core.record import Record, read_record
from ..core.replay import Replay
from ..core.seat_record import SeatRecord, SeatReplay
from ..core.rng import RandomStream, fresh_seed
from .canvas import Painter
from .controls import RulesetControl, variant_control
from .drawing import LAYERS, Click, Drawing

__all__ = ["GameWidget"]

#: Longest run of bot moves made in one go when bots move without delay.
SYNC_BOT_LIMIT = 5000
#: Entries of the move log shown around the cursor (long games stay light).
LOG_WINDOW = 150

Viewpoint = Any  # None (everything), a seat number, or "current"

#: What the Save button writes, by viewpoint (its label and its tooltip).
SAVE_FULL = ("Save full record", "Writes the full record: the seed, every move and chance "
             "outcome, every line. It replays and continues exactly (the teacher's).")
SAVE_SEAT = ("Save {whose} record", "Writes {whose} record: the moves as {who} saw them "
             "and what {who} saw of each position; no seed, no hidden card. It can be "
             "stepped through, not played on.")


def _public_observation(engine: Any, raw: Any, action: int) -> str:
    """What every seat learns of ``action``: the seats' accounts when they agree;
    else the notation of a decision (listed in public) or "?" for chance."""
    seen = {engine.observed(raw, action, p) for p in range(engine.num_players)}
    if len(seen) == 1:
        return seen.pop()
    return "?" if engine.is_chance_action(action) else engine.notation(raw, action)


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
                 bot_delay: float = 0.5, lock_view: bool = False, **options: Any) -> None:
        super().__init__()
        self.game: Game = game_registry.get(game) if isinstance(game, str) else game
        self.board = self.game.board()
        self.bot_delay = float(bot_delay)
        self.previous_games: list[Record | SeatRecord] = []
        self.errors: list[str] = []          # full tracebacks of anything that went wrong
        self.frames = 0                       # canvas frames painted (one message each)
        self._selection: Any = None
        self._highlights: tuple[Hashable, ...] = ()
        self._drawing: Drawing | None = None
        self._painted_board: list | None = None
        self._syncing = False
        self._tick_generation = 0
        self._autoplay = False
        self._bots: dict[int, Callable[[Any], Any]] = {}
        self._bot_labels: dict[int, str] = {}
        self._message = ""
        self._message_kind = "info"
        self._pending_variant: Any = None       # a Variant waiting for the confirm box
        self._lock_view = bool(lock_view)
        self._bots_wait = False          # a loaded game's bots wait for the user

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
        self._selection = self._fresh_selection()
        self._refresh(board=True)

    # ------------------------------------------------------------------ building
    def _build(self) -> None:
        first = self.replay.state
        d = self.game.draw(first.view(self._view_seat()))
        self.canvas = MultiCanvas(len(LAYERS), width=d.width, height=d.height,
                                  layout=W.Layout(width=f"{d.width}px", height=f"{d.height}px"))
        self.canvas.add_class("janus-canvas")
        self._painters = [Painter(self.canvas[i]) for i in range(len(LAYERS))]
        self.canvas.on_client_ready(self._guard(lambda: self._paint_all()))
        self.canvas.on_mouse_down(self._guard(self._on_canvas_click))

        self.heading = W.HTML(layout=W.Layout(margin="0 0 4px 0"))
        button = lambda desc, tip, icon="": W.Button(  # noqa: E731
            description=desc, tooltip=tip, icon=icon, layout=W.Layout(width="auto"))
        self.first_button = button("", "Go to the start", "fast-backward")
        self.back_button = button("", "One move back", "step-backward")
        self.forward_button = button("", "One move forward (or the bot's / dice's move)",
                                     "step-forward")
        self.last_button = button("", "Go to the last move", "fast-forward")
        self.first_button.on_click(self._guard(lambda _: self.first()))
        self.back_button.on_click(self._guard(lambda _: self.back()))
        self.forward_button.on_click(self._guard(lambda _: self.step()))
        self.last_button.on_click(self._guard(lambda _: self.last()))
        self.slider = W.IntSlider(min=0, max=0, value=0, description="move",
                                  continuous_update=False, layout=W.Layout(width="320px"))
        self.slider.observe(self._guard(self._on_slider), names="value")
        self.autoplay_button = W.ToggleButton(description="Autoplay", icon="play",
                                              tooltip="Step forward on a timer (replay, "
                                                      "dice and bots)")
        self.autoplay_button.observe(self._guard(self._on_autoplay), names="value")
        self.speed = W.FloatLogSlider(value=self.bot_delay or 0.5, base=10, min=-2, max=0.7,
                                      step=0.1, description="delay s", readout_format=".2f",
                                      layout=W.Layout(width="250px"))
        self.speed.observe(self._guard(self._on_speed), names="value")
        nav = W.HBox([self.first_button, self.back_button, self.forward_button,
                      self.last_button, self.slider, self.autoplay_button, self.speed],
                     layout=W.Layout(flex_flow="row wrap", align_items="center"))

        self.status_line = W.HTML(layout=W.Layout(min_height="48px"))
        self.status_line.add_class("janus-status")

        self.options_list = W.Select(options=[], rows=10, layout=W.Layout(width="360px"))
        self.options_list.observe(self._guard(self._on_option_selected), names="value")
        self.play_button = W.Button(description="Play selected", icon="check",
                                    button_style="primary", layout=W.Layout(width="360px"))
        self.play_button.on_click(self._guard(lambda _: self._play_selected()))
        self.move_log = W.Select(options=[], rows=8, layout=W.Layout(width="360px"))
        self.move_log.observe(self._guard(self._on_log), names="value")
        self.lines = W.Dropdown(options=[("main line", 0)], value=0, description="line",
                                layout=W.Layout(width="360px"))
        self.lines.observe(self._guard(self._on_line), names="value")
        side = W.VBox([W.HTML("<b>Legal moves</b> (select to see it, then play)"),
                       self.options_list, self.play_button,
                       W.HTML("<b>Moves played</b> (click to go there)"), self.move_log,
                       self.lines], layout=W.Layout(margin="0 0 0 12px"))

        # Variant controls, seed, viewpoint, seats, records.
        self.variant_controls: dict[str, W.Widget] = {}
        rows = []
        for spec in self.game.Variant.options():
            if not spec.widget:
                continue
            control = variant_control(spec, getattr(self.state.variant, spec.name))
            control.observe(self._guard(lambda change, name=spec.name:
                                        self._on_variant_control(name, change)),
                            names="value")
            self.variant_controls[spec.name] = control
            rows.append(control)
        self.confirm_text = W.HTML()
        self.confirm_yes = W.Button(description="Start the new game", button_style="warning")
        self.confirm_no = W.Button(description="Keep playing this one")
        self.confirm_yes.on_click(self._guard(lambda _: self._confirm_variant(True)))
        self.confirm_no.on_click(self._guard(lambda _: self._confirm_variant(False)))
        self.confirm_box = W.VBox([self.confirm_text, W.HBox([self.confirm_yes,
                                                               self.confirm_no])],
                                  layout=W.Layout(display="none", border="2px solid #e0a030",
                                                  padding="6px"))
        # The seed is filled in by _update_record_controls, for the teacher's view only.
        self.seed_box = W.IntText(value=0, description="seed",
                                  layout=W.Layout(width="260px"))
        self.new_button = W.Button(description="New game", icon="refresh")
        self.new_button.on_click(self._guard(lambda _: self._new_from_box()))
        # The Ruleset menu above the options; choosing one sets them all (a new game).
        self.ruleset_control = RulesetControl(self.game, self.state.variant)
        self.ruleset_control.on_choose(self._guard(self._propose_variant))
        game_tab = W.VBox([self.ruleset_control] + rows
                          + [W.HBox([self.seed_box, self.new_button])])

        n = self.state.num_players
        self.viewpoint_box = W.Dropdown(options=self._viewpoint_options(n),
                                        value=self._viewpoint, description="view")
        self.viewpoint_box.observe(self._guard(self._on_viewpoint), names="value")
        self.seat_boxes: list[W.Dropdown] = []
        self.seats_tab = W.VBox()
        self._build_seat_boxes()

        self.path_box = W.Text(value=f"{self.game.name}-game.json", description="file",
                               layout=W.Layout(width="320px"))
        self.save_button = W.Button(description=SAVE_FULL[0], icon="save",
                                    layout=W.Layout(width="auto"))
        self.load_button = W.Button(description="Load", icon="folder-open")
        self.save_button.on_click(self._guard(lambda _: self.save(self.path_box.value)))
        self.load_button.on_click(self._guard(lambda _: self._load_from_box()))
        self.upload = W.FileUpload(accept=".json", multiple=False, description="Upload")
        self.upload.observe(self._guard(self._on_upload), names="value")
        self.previous_box = W.Dropdown(options=[("(none yet)", -1)], value=-1,
                                       description="earlier")
        self.restore_button = W.Button(description="Restore", icon="undo")
        self.restore_button.on_click(self._guard(lambda _: self._restore_from_box()))
        record_tab = W.VBox([W.HBox([self.path_box, self.save_button, self.load_button]),
                             self.upload,
                             W.HBox([self.previous_box, self.restore_button])])

        self.tabs = W.Tab(children=[game_tab, self.seats_tab, record_tab],
                          titles=["Game & variant", "Seats & view", "Save / load"])
        # A game's own widget.py may add controls of its own (an odds panel, an
        # overlay switch); the shell stays the same for every game.
        self.extras = W.VBox(list(self._game_hooks("extras", default=[])))
        self.children = [self.heading,
                         W.HBox([self.canvas, side], layout=W.Layout(flex_flow="row wrap")),
                         nav, self.status_line, self.extras, self.confirm_box, self.tabs]
        self.add_class("janus-widget")

    def _game_hooks(self, name: str, default: Any = None) -> Any:
        """Call ``name(self)`` from the game's ``widget`` module, if it defines it."""
        import importlib
        package = self.game.board().__name__.rsplit(".", 1)[0]
        try:
            module = importlib.import_module(f"{package}.widget")
        except ModuleNotFoundError:
            return default
        hook = getattr(module, name, None)
        return default if hook is None else hook(self)

    def _viewpoint_options(self, n: int) -> list[tuple[str, Any]]:
        if isinstance(self.replay, SeatReplay):      # the record holds one view only
            record = self.replay.seat_record
            return [(f"{record.whose}'s record", record.seat)]
        return ([("everything (teacher)", None), ("the player to move", "current")]
                + [(f"seat {seat_name(p)}", p) for p in range(n)])

    def _check_viewpoint(self, viewpoint: Viewpoint) -> None:
        allowed = [v for _, v in self._viewpoint_options(self.state.num_players)]
        if isinstance(self.replay, SeatReplay) and viewpoint not in allowed:
            raise ValueError(f"this is {self.replay.seat_record.whose}'s record: it holds "
                             "that view only")
        if viewpoint not in allowed or isinstance(viewpoint, bool):
            raise ValueError(f"viewpoint {viewpoint!r} is not allowed: use None, 'current' "
                             f"or a seat 0 … {self.state.num_players - 1}")

    def _build_seat_boxes(self) -> None:
        n = self.state.num_players
        names = [("human", "human")] + [(f"{b} bot", b) for b in bot_names(self.game)]
        self.seat_boxes = []
        for p in range(n):
            options = list(names)
            if p in self._bot_labels and self._bot_labels[p] not in dict(names).values():
                options.append((self._bot_labels[p], self._bot_labels[p]))
            box = W.Dropdown(options=options, value=self._bot_labels.get(p, "human"),
                             description=f"seat {seat_name(p)}")
            box.observe(self._guard(lambda change, seat=p: self._on_seat(seat, change)),
                        names="value")
            self.seat_boxes.append(box)
        options = self._viewpoint_options(n)
        if self._viewpoint not in [v for _, v in options]:
            # Fewer seats than before (or a seat's record): the nearest view that shows
            # no more than before — never the teacher's unless it was the teacher's.
            self._viewpoint = options[0][1] if isinstance(self.replay, SeatReplay) else (
                "current" if self._viewpoint is not None else None)
        with self._quiet():
            self.viewpoint_box.options = options
            self.viewpoint_box.value = self._viewpoint
            self.viewpoint_box.disabled = self._lock_view
        self.seats_tab.children = [self.viewpoint_box, *self.seat_boxes]

    # ------------------------------------------------------------------ guard
    def _guard(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Run a UI callback; anything that goes wrong is reported, never raised."""
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except (JanusError, ValueError) as exc:
                self._say(str(exc), "error")
            except Exception as exc:  # noqa: BLE001 - the user must never see a traceback
                self.errors.append(traceback.format_exc())
                self._say(f"Something went wrong ({type(exc).__name__}: {exc}); the game "
                          "is unchanged. Details: widget.errors[-1].", "error")
        return run

    class _Quiet:
        def __init__(self, owner: GameWidget) -> None:
            self.owner = owner

        def __enter__(self) -> None:
            self.before = self.owner._syncing
            self.owner._syncing = True

        def __exit__(self, *exc: object) -> None:
            self.owner._syncing = self.before

    def _quiet(self) -> GameWidget._Quiet:
        return GameWidget._Quiet(self)

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
        assert self._drawing is not None
        return self._drawing

    @property
    def message(self) -> str:
        """The last message of the status line (a refusal names its rule); one naming
        the seed is on screen only in the teacher's view."""
        return self._message

    @property
    def viewpoint(self) -> Viewpoint:
        """Whose view is drawn: None (everything), a seat, or 'current'."""
        return self._viewpoint

    def _view_seat(self) -> int | str | None:
        """The seat whose view is drawn: with "current" the player to move; at a chance
        point the table's (what every seat has seen); at the end everything."""
        if self._viewpoint == "current":
            cur = self.replay.state.current_player
            if cur >= 0:
                return cur
            return TABLE if cur == CHANCE else None
        return self._viewpoint

    @property
    def seat_mode(self) -> bool:
        """Whether a seat's record is shown (stepped through, never played on)."""
        return isinstance(self.replay, SeatReplay)

    def _shows_secrets(self) -> bool:
        """Whether the screen may show the seed: only the teacher's view of a game."""
        return self._viewpoint is None and not self.seat_mode

    def _refuse_seat_record(self) -> None:
        """In a seat's record nothing can be played: say why, and raise."""
        text = self.replay.seat_record.not_playable()  # type: ignore[union-attr]
        self._say(text, "refused")
        raise RecordError(text)

    def _view(self) -> Any:
        return self.state.view(self._view_seat())

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
        return done

    def _step_once(self) -> bool:
        replay = self.replay
        if not replay.at_end:
            replay.forward()
            return True
        if isinstance(replay, SeatReplay):        # nothing is played on a seat's record
            self._say(replay.seat_record.not_playable(), "refused")
            return False
        self._release_bots()  # the user stepped: bots may move
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
        move, after showing the reason in the status line.
        """
        self._stop_ticks()
        if self.seat_mode:
            self._refuse_seat_record()
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
            self._say(text, "error")
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
        for outcome in pending:
            self.replay.play(outcome)
        self.replay.play(move_obj)
        self._release_bots()
        self._resolve_chance()
        self._highlights = ()
        self._say(f"{seat_name(player)} played {move_obj.notation}: {move_obj.description}")
        self._changed()
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
        """Show a message in the status line (``kind``: info, refused or error)."""
        if kind not in ("info", "refused", "error"):
            raise ValueError(f"kind={kind!r}: use 'info', 'refused' or 'error'")
        self._say(text, kind)

    def guard(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Wrap a UI callback so that nothing it raises reaches the user as a
        traceback (for a game's own controls in its widget.py)."""
        return self._guard(fn)

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
        """Click the canvas at ``(x, y)`` (canvas pixels), as a mouse would."""
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
                self._say(self.replay.seat_record.not_playable(), "refused")  # type: ignore[union-attr]
                self._render()
                return
            player = state.current_player
            if player in self._bots:
                self._say(f"Seat {seat_name(player)} is played by a bot: its move comes "
                          "by itself (or set the seat to human).", "refused")
                return
            if not self.replay.at_end and state.is_legal(result.move):
                self._say("Playing here starts a new line; the old one is kept.")
            try:
                self.play(result.move)
            except (IllegalMoveError, InvalidMoveError):
                self._selection = result.selection
                self._render()
            return
        self._selection = result.selection
        if result.message:
            cites_rule = re.match(r"[A-Z]{2}-\d+", result.message) is not None
            self._say(result.message, "refused" if cites_rule else "info")
        self._render()

    def select(self, move: Move | str | None) -> None:
        """Select a legal move in the options list: it is highlighted on the canvas."""
        if move is None:
            self._highlights = ()
            with self._quiet():
                self.options_list.value = None
            self._render()
            return
        state = self.state
        move_obj = state.parse(move) if isinstance(move, str) else move
        legal = list(state.legal_moves())
        if move_obj not in legal:
            raise IllegalMoveError(f"{move_obj} is not a legal move here",
                                   move=str(move_obj), rule="", reason="not legal")
        with self._quiet():
            # At a chance point the list holds no outcomes, only the "press ▶" line.
            self.options_list.value = None if state.is_chance else legal.index(move_obj)
        self._show_option(move_obj)

    def _show_option(self, move: Move) -> None:
        view = self._view()
        self._highlights = tuple(self.board.highlight(view, move))
        chooser = getattr(self.board, "selection_for", None)
        if chooser is not None:
            self._selection = chooser(view, move)
        self._say(f"{move.notation}: {move.description}")
        self._render()

    def _play_selected(self) -> None:
        """The Play button: the move selected in the list, if there is one to play."""
        state = self.state
        if self.seat_mode:
            self._say(self.replay.seat_record.not_playable(), "refused")  # type: ignore[union-attr]
            return
        if state.is_chance:
            self._say("Chance acts here, not a player: press ▶ (step) to let it act.",
                      "refused")
            return
        if state.is_over:
            self._say("The game is over: there is no move to play.", "refused")
            return
        index = self.options_list.value
        moves = state.legal_moves()
        if isinstance(index, bool) or not isinstance(index, int) or \
                not 0 <= index < len(moves):
            self._say("Select a move in the list first.", "refused")
            return
        self.play(moves[index])

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
            self._bot_labels[seat] = f"custom: {getattr(policy, 'name', None) or type(policy).__name__}"
        else:
            names = ", ".join(bot_names(self.game))
            raise ValueError(f"a bot is a name ({names}), a callable "
                             f"policy(view) -> move, or None; not {policy!r}")
        self._build_seat_boxes()
        self._changed()
        if self._bots_wait and self._waiting_bot():
            self._say(self._message + self._waiting_bot())
        self._schedule_bots()

    @property
    def bots(self) -> dict[int, Callable[[Any], Any]]:
        """Seat → policy for the seats played by bots."""
        return dict(self._bots)

    def _on_seat(self, seat: int, change: dict) -> None:
        if self._syncing:
            return
        value = change["new"]
        if isinstance(value, str) and value.startswith("custom:"):
            return
        self.set_bot(seat, None if value == "human" else value)

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
        with self._quiet():
            self.autoplay_button.value = self._autoplay
        if not on:
            self._stop_ticks()
            return
        if _kernel_loop() is None:
            for _ in range(SYNC_BOT_LIMIT):
                if not self._step_once():
                    break
            self._autoplay = False
            with self._quiet():
                self.autoplay_button.value = False
            self._changed()
            return
        self._schedule_tick(self.speed.value)

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
                self._schedule_tick(self.speed.value)
            else:
                self.autoplay(False)
            return
        if self.replay.at_end and self.state.current_player in self._bots:
            self._step_once()
            self._changed()
            self._schedule_tick(self.bot_delay)

    def _on_autoplay(self, change: dict) -> None:
        if self._syncing:
            return
        self.autoplay(change["new"])

    def _on_speed(self, change: dict) -> None:
        if change["new"] > 0:
            self.bot_delay = float(change["new"])

    # ------------------------------------------------------------------ variants
    def set_variant(self, variant: Any = None, **options: Any) -> State:
        """Start a new game with other rule options (the current one is kept in
        :attr:`previous_games`). ``set_variant(players=4)``."""
        current = self.state.variant
        base = current if variant is None else variant
        new_variant = self.game.variant(base, **options)
        return self.new_game(seed=self.state.seed, variant=new_variant)  # None: a fresh one

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
        self._highlights = ()
        self._pending_variant = None
        self.confirm_box.layout.display = "none"
        n = self.state.num_players
        for seat in [s for s in self._bots if s >= n]:
            self._bots.pop(seat)
            self._bot_labels.pop(seat, None)
        with self._quiet():
            for name, control in self.variant_controls.items():
                control.value = getattr(self.state.variant, name)
            self.ruleset_control.show(self.state.variant)
        self._build_seat_boxes()
        self._selection = self._fresh_selection()
        self._update_previous_box()
        self._refresh(board=True)
        self._schedule_bots()

    def _show_replay(self, replay: Replay | SeatReplay) -> None:
        """Put a loaded or restored game on screen, at its end, as it was saved."""
        self._stop_ticks()
        self.replay = replay
        self.replay.last()
        if isinstance(replay, SeatReplay):
            self._viewpoint = replay.seat_record.seat
        elif self._viewpoint not in [v for _, v in self._viewpoint_options(
                self.state.num_players)]:
            self._viewpoint = "current"     # after a seat's record: no more than before
        self._after_new_game(schedule_bots=False)

    def _archive(self) -> None:
        if any(len(line) for line in self.replay.lines):
            self.previous_games.append(self.replay.record())
            self._update_previous_box(select=len(self.previous_games) - 1)

    def _update_previous_box(self, select: int | None = None) -> None:
        """The "earlier games" list, always as :attr:`previous_games` is now (a seed
        only in the teacher's view)."""
        def label(i: int, rec: Record | SeatRecord) -> str:
            if isinstance(rec, SeatRecord):
                return f"{i + 1}: {rec.whose}'s record, {len(rec.moves)} moves"
            seed = f", seed {rec.seed}" if self._shows_secrets() else ""
            return f"{i + 1}: {rec.game}{seed}, {len(rec.moves)} moves"
        options = ([(label(i, rec), i) for i, rec in enumerate(self.previous_games)]
                   or [("(none yet)", -1)])
        value = self.previous_box.value if select is None else select
        if value not in [v for _, v in options]:
            value = options[-1][1]
        if list(self.previous_box.options) != options or self.previous_box.value != value:
            with self._quiet():
                self.previous_box.options = options
                self.previous_box.value = value

    def restore(self, index: int = -1) -> State:
        """Bring back an earlier game from :attr:`previous_games` (the current one is
        kept there in its place), shown as it was; its bots wait for the user."""
        count = len(self.previous_games)
        if not count:
            raise ValueError("there is no earlier game to restore")
        if isinstance(index, bool) or not isinstance(index, int) or not -count <= index < count:
            raise ValueError(f"there is no earlier game {index!r}: use 0 … {count - 1} "
                             "(or -1 for the last)")
        record = self.previous_games[index]
        replay = record.replay()                    # before anything changes
        self.previous_games.pop(index)
        self._archive()
        self._show_replay(replay)
        self._say(f"Restored the earlier game ({self.replay.length} moves), shown as it "
                  "was." + self._waiting_bot())
        return self.state

    def _on_variant_control(self, name: str, change: dict) -> None:
        if self._syncing:
            return
        wanted = {n: c.value for n, c in self.variant_controls.items()}
        try:
            variant = self.game.variant(self.state.variant, **wanted)
        except ValueError as exc:
            self._say(str(exc), "error")
            with self._quiet():
                change["owner"].value = change["old"]
            return
        self._propose_variant(variant)

    def _propose_variant(self, variant: Any) -> None:
        """Show ``variant`` in the controls and start it: at once if nothing has been
        played yet, else after the confirm box (an option by hand or a ruleset)."""
        with self._quiet():
            for name, control in self.variant_controls.items():
                control.value = getattr(variant, name)
            self.ruleset_control.show(variant)
        moves = sum(len(line) for line in self.replay.lines)
        if moves == 0:
            self.set_variant(variant)
            self._say(f"New game: {self.game.describe_variant(self.state.variant)}.")
            return
        self._pending_variant = variant
        now = self.state.variant.to_dict()
        changed = ", ".join(f"{k}={v}" for k, v in variant.to_dict().items() if now[k] != v)
        self.confirm_text.value = (
            f"Start a new game with <b>{html.escape(changed)}</b> "
            f"({html.escape(self.game.describe_variant(variant))})? This game ({moves} "
            "moves) is kept under Save / load → earlier.")
        self.confirm_box.layout.display = "flex"

    def _confirm_variant(self, yes: bool) -> None:
        pending = self._pending_variant
        self._pending_variant = None
        self.confirm_box.layout.display = "none"
        if pending is None:
            return
        if yes:
            self.set_variant(pending)
            self._say(f"New game: {self.game.describe_variant(self.state.variant)}.")
        else:
            with self._quiet():
                for name, control in self.variant_controls.items():
                    control.value = getattr(self.state.variant, name)
                self.ruleset_control.show(self.state.variant)
            self._say("Variant unchanged; the game goes on.")

    def _new_from_box(self) -> None:
        if self._shows_secrets():
            self.new_game(seed=int(self.seed_box.value))
            self._say(f"New game with seed {self.state.seed}.", teacher_only=True)
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
        with self._quiet():
            self.viewpoint_box.value = viewpoint
        self._selection = self._fresh_selection()
        self._highlights = ()
        self._update_previous_box()
        self._refresh(board=True)

    def _on_viewpoint(self, change: dict) -> None:
        if self._syncing:
            return
        self.set_viewpoint(change["new"])

    # ------------------------------------------------------------------ records
    def save(self, path: str | Path | None = None) -> Path:
        """Save a record (default path: the file box); what it writes follows the view.

        The teacher's view (``None``) writes the full record: seed, every move and
        chance outcome, every line. A seat's view writes that seat's record of the line
        on screen (:meth:`Record.view`: no seed, no hidden card), and a screen passed
        round (``"current"``) the table's record (what every seat has seen). A seat's
        record that was loaded is written again as it is. The Save button says which.
        A failed save changes nothing and says why in the status line."""
        target = Path(path or self.path_box.value)
        record, what = self._record_to_save()
        try:
            written = record.save(target)
        except OSError as exc:
            text = f"Could not save to {target}: {exc.strerror or exc}."
            self._say(text, "error")
            raise RecordError(text) from None
        note = "" if isinstance(record, Record) else "; no seed, no hidden card"
        self._say(f"Saved {what} ({self.replay.length} moves{note}) to {written}.")
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
        but not to play on. Anything wrong changes nothing; the status line says what
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
        self._archive()
        self._show_replay(replay)
        if isinstance(replay, SeatReplay):
            self._say(f"Loaded {replay.seat_record.whose}'s record ({replay.length} moves): "
                      "step through it; it cannot be played on (no seed, no hidden card).")
        else:
            lines = len(replay.lines)
            waiting = self._waiting_bot()
            self._say(f"Loaded {replay.length} moves ({lines} line{'s' * (lines > 1)}), "
                      "shown as saved." + waiting)
        return self.state

    def _release_bots(self) -> None:
        """The user stepped or played: a loaded game's bots may move again, and the
        note that they wait leaves the status line (it is no longer true)."""
        if self._bots_wait:
            note = self._waiting_bot()
            self._bots_wait = False
            if note and self._message.endswith(note):
                self._message = self._message[:-len(note)]

    def _waiting_bot(self) -> str:
        """A note that the bot to move waits for the user (after a load or a restore)."""
        cur = self.state.current_player
        if self.replay.at_end and cur in self._bots:
            return (f" {seat_name(cur)} is played by a bot: it moves when you step (▶) "
                    "or play.")
        return ""

    def _load_from_box(self) -> None:
        try:
            self.load(self.path_box.value)
        except RecordError:
            pass  # already reported in the status line

    def _on_upload(self, change: dict) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0]
        content = item["content"] if isinstance(item, dict) else item.content
        with self._quiet():
            self.upload.value = ()           # the file is not kept in the widget
        try:
            self.load(bytes(content))
        except RecordError:
            pass

    def _restore_from_box(self) -> None:
        index = self.previous_box.value
        if index is None or index < 0:
            self._say("There is no earlier game yet.", "refused")
            return
        self.restore(index)

    # ------------------------------------------------------------------ UI events
    def _on_slider(self, change: dict) -> None:
        if not self._syncing:
            self.goto(change["new"])

    def _on_log(self, change: dict) -> None:
        if not self._syncing and change["new"] is not None:
            self.goto(change["new"])

    def _on_line(self, change: dict) -> None:
        if not self._syncing and change["new"] is not None:
            self.switch_line(change["new"])

    def _on_option_selected(self, change: dict) -> None:
        if self._syncing or change["new"] is None:
            return
        moves = self.state.legal_moves()
        if 0 <= change["new"] < len(moves):
            self._show_option(moves[change["new"]])

    # ------------------------------------------------------------------ display
    def _say(self, text: str, kind: str = "info", *, teacher_only: bool = False) -> None:
        """Show ``text`` in the status line; ``teacher_only`` (a message naming the seed)
        is shown only while the teacher's view is on."""
        self._message = text
        self._message_kind = kind
        self._message_teacher_only = teacher_only
        self._update_status()

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
        self._update_controls()
        self._update_status()
        self._render(board=board)
        self._game_hooks("refresh")

    def _update_controls(self) -> None:
        replay = self.replay
        state = replay.state
        with self._quiet():
            self.slider.max = replay.length
            self.slider.value = replay.index
            # The seed only in the teacher's view: it predicts every chance to come.
            rules = self.game.describe_variant(state.variant)
            seed = f", seed {state.seed}" if self._shows_secrets() else ""
            whose = (f" · {html.escape(self.replay.seat_record.whose)}'s record"
                     if isinstance(self.replay, SeatReplay) else "")
            self.heading.value = (f"<h3 style='margin:0'>{html.escape(self.game.title)}"
                                  f" <small>— {html.escape(rules)}{seed}{whose}</small></h3>")
            # The options list: legal moves, or the chance outcomes.
            if self.seat_mode:
                self.options_list.options = [("(a seat's record: nothing can be played)",
                                              -1)]
            elif state.is_over:
                self.options_list.options = []
            elif state.is_chance:
                self.options_list.options = [("(chance) press ▶ step for the dice/draw", -1)]
            else:
                self.options_list.options = [(f"{m.notation} — {m.description}", i)
                                        for i, m in enumerate(state.legal_moves())]
            self.options_list.value = None
            # The move log around the cursor (the raw states rolled forward from one
            # replay checkpoint: a long game costs no more than a short one).
            lo = max(0, replay.index - LOG_WINDOW)
            hi = min(replay.length, replay.index + LOG_WINDOW)
            entries = [("start", 0)] if lo == 0 else []
            if isinstance(replay, SeatReplay):    # what the seat was told, as saved
                told = replay.observations
                entries += [(f"{i + 1}. {told[i]}", i + 1) for i in range(lo, hi)]
            seat = self._view_seat()
            engine = getattr(state, "engine", None)
            line = getattr(replay, "current_line", None)
            for i, before in zip(range(lo, hi) if line is not None else (),
                                 line.raws(lo, hi) if line is not None else ()):
                mover = engine.current(before)
                who = "chance" if mover == CHANCE else seat_name(mover)
                # Only what the chosen viewpoint may know of the move (card games);
                # a screen passed round ("current") shows what every seat knows.
                action = line.actions[i]
                if self._viewpoint == "current":
                    seen = _public_observation(engine, before, action)
                else:
                    seen = engine.observed(before, action, seat)
                entries.append((f"{i + 1}. {who} {seen}", i + 1))
            self.move_log.options = entries
            self.move_log.value = replay.index if lo <= replay.index <= hi else None
            # Lines.
            self.lines.options = [
                ("main line" if line.parent is None else
                 f"line {line.id} (from line {line.parent} after move {line.at})", line.id)
                for line in replay.lines]
            self.lines.value = replay.line
            self.play_button.disabled = state.is_over or state.is_chance or self.seat_mode
        self._update_record_controls()

    def _update_record_controls(self) -> None:
        """The seed box, New game and Save as the view allows: the seed is in the widget
        (shown or not) only in the teacher's view; Save says what it writes."""
        secret = not self._shows_secrets()
        seed = self.state.seed
        with self._quiet():
            value = 0 if secret or seed is None else seed
            if self.seed_box.value != value:
                self.seed_box.value = value
            self.seed_box.layout.display = "none" if secret else ""
        self.new_button.tooltip = (
            "Start a new game with a fresh secret seed and this variant (the seed is "
            "shown only in the teacher's view)" if secret else
            "Start a new game with this seed and variant")
        target = self._save_target()
        if target is None:
            label, tip = SAVE_FULL
        else:
            who = "every seat" if target == TABLE else seat_name(target)
            whose = "the table's" if target == TABLE else f"{who}'s"
            label, tip = (text.format(who=who, whose=whose) for text in SAVE_SEAT)
        self.save_button.description = label
        self.save_button.tooltip = tip

    def _update_status(self) -> None:
        state = self.replay.state
        cur = state.current_player
        if cur == TERMINAL:
            won = state.winners()
            turn = ("<b>Game over</b>: " + (" and ".join(seat_name(p) for p in won) + " won"
                                              if won else "no winner"))
        elif cur == CHANCE:
            turn = "chance to act (▶ step)"
        else:
            who = "bot" if cur in self._bots else "human"
            turn = f"<b>{seat_name(cur)}</b> to move ({who})"
        scores = " · ".join(f"{seat_name(p)} {s:g}" for p, s in enumerate(state.scores()))
        colour = {"info": "#333", "refused": "#b00020", "error": "#b00020"}[self._message_kind]
        shown = self._message if self._shows_secrets() or not getattr(
            self, "_message_teacher_only", False) else ""
        message = (f"<div class='janus-message janus-{self._message_kind}' style='color:"
                   f"{colour}'>{html.escape(shown)}</div>" if shown else "")
        where = f"move {self.replay.index}/{self.replay.length}"
        if len(self.replay.lines) > 1:
            where += f", line {self.replay.line}"
        if isinstance(self.replay, SeatReplay):
            where = (f"<b>{html.escape(self.replay.seat_record.whose)}'s record</b> (step "
                     f"through it; not playable) · {where}")
        self.status_line.value = (f"<div style='font-family:sans-serif'>{where} · {turn} · "
                             f"scores {scores}{message}</div>")

    def _render(self, board: bool = False) -> None:
        """Paint the current picture: one ``hold_canvas`` batch, one message."""
        d = self.game.draw(self._view(), highlights=self._highlights,
                           selection=self._selection)
        self._drawing = d
        if (d.width, d.height) != (self.canvas.width, self.canvas.height):
            self.canvas.width, self.canvas.height = d.width, d.height
            self.canvas.layout.width, self.canvas.layout.height = (f"{d.width}px",
                                                                   f"{d.height}px")
            board = True
        with hold_canvas():
            if board or d.layers["board"] != self._painted_board:
                self._paint_layer(0, d, background=d.background)
                self._painted_board = list(d.layers["board"])
            self._paint_layer(1, d)
            self._paint_layer(2, d)
        self.frames += 1

    def _paint_layer(self, index: int, d: Drawing, background: str | None = None) -> None:
        painter = self._painters[index]
        painter.clear(background)
        painter.paint(d.layers[LAYERS[index]])

    def _paint_all(self) -> None:
        """Repaint everything (a browser view connected: JupyterLab tab, Voila)."""
        self._render(board=True)

    def _repr_svg_(self) -> str:  # pragma: no cover - notebooks without widgets
        from .drawing import render_svg
        return render_svg(self.drawing)

    def __repr__(self) -> str:
        return (f"<GameWidget {self.game.name} move {self.replay.index}/"
                f"{self.replay.length}, {len(self.replay.lines)} line(s)>")

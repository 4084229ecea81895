"""The widget shell: one interactive widget for every game.

A :class:`GameWidget` draws a :class:`~janus_widgets.table.Table` (the game session:
the record and its lines, the seats and bots, proposals, the facts the status line
states) or a seat of the table server (:class:`~janus_widgets.table.client.RemoteTable`,
which holds only what the server sent that seat). It is made of the parts a student
sees, each a small class of its own module:

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

The widget owns what is drawn: the viewpoint, the selection and the highlights; the
table owns the game. Every change of the table reaches the widget through the table's
observers, so a move made by a notebook cell, a bot, a timer or (for a seat of the
server) another seat's device is drawn the same way.

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
viewpoint, previous)``), and may give ``panels(view)`` and ``DEAL_ACTION`` (data the
screen model carries: :mod:`..table.screen`). What every part shows is made by the screen
model, below this layer, so the web seat page shows the same.
"""

from __future__ import annotations

import html
import traceback
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any

import ipywidgets as W

from ..core.errors import IllegalMoveError, InvalidMoveError, JanusError, RecordError
from ..core.protocol import Game, Move, State, seat_name
from ..core.record import Record
from ..core.seat_record import SeatRecord
from ..table.local import Table, kernel_loop, moves_text
from ..table import screen as S
from ..drawing import Click, Drawing
from .extras import Extras
from .export import file_owner, write_animation, write_picture
from .game_panel import GamePanel
from .keyboard import Keyboard
from .moves_panel import MovesPanel
from .records_panel import (RecordsPanel, other_owner_named, owner_tag, owner_text,
                            page_file, seat_tag, view_text)
from .seats import SeatsPanel
from .stage import Stage
from .status import StatusFacts, StatusLine
from .stepbar import StepBar

__all__ = ["GameWidget", "is_table"]

#: After a click in the browser, the new picture goes out first and the other parts
#: (step bar, moves, status line) this many seconds later, so the browser paints the
#: picture before it rebuilds the lists (a notebook cell's call updates everything at
#: once).
CONTROLS_AFTER = 0.1

Viewpoint = Any  # None (everything), a seat number, or "current"


def _page_path(text: str, kinds: tuple[str, ...]) -> Path:
    """A file box's file in the page's own folder (made if need be)."""
    path = page_file(text, kinds)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _record_owner(path: Path) -> str | None:
    """Whose record a saved file holds, as its owner tag (``"full"``, ``"table"``,
    ``"seat-A"``, ``"t1-seat-A"`` for seat A of the server's table t1), or None if it
    holds no record."""
    import json
    try:
        if path.stat().st_size > 64 * 1024 * 1024:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != "janus-widgets-record":
        return None
    seat = data.get("seat")
    if seat is None:
        return "full"
    if seat == "table":
        return "table"
    return seat_tag(str(seat), _table_of(data.get("meta")))


def _table_of(meta: Any) -> str | None:
    """The server's table a record's ``meta`` names (a seat's record from the server),
    or None."""
    table = meta.get("table") if isinstance(meta, dict) else None
    return table if isinstance(table, str) and table else None


def is_table(obj: Any) -> bool:
    """Whether ``obj`` is a game session a widget can draw (a :class:`Table` or a seat
    of the table server), not a game's name."""
    return hasattr(obj, "observe") and hasattr(obj, "facts") and hasattr(obj, "replay")


class GameWidget(W.VBox):
    """Play, replay and study one game; every control is also a method.

    ``game`` is a game's name (a new local :class:`Table` is made from it and the
    other arguments) or a table to draw: ``GameWidget(classroom.join(url, code))``
    draws a seat of the table server.
    """

    def __init__(self, game: str | Game | Any, variant: Any = None, *,
                 seed: int | None = None, record: Record | str | Path | None = None,
                 bots: dict[int, Any] | None = None, viewpoint: Viewpoint = "default",
                 bot_delay: float = 0.5, big: bool = False, lock_view: bool = False,
                 **options: Any) -> None:
        super().__init__()
        if is_table(game):
            if variant is not None or seed is not None or record is not None or bots \
                    or options:
                raise ValueError("a widget drawn for a table takes its game, seed, "
                                 "record and bots from the table; give only viewpoint, "
                                 "big and lock_view")
            self.table = game
        else:
            self.table = Table(game, variant, seed=seed, bots=None, bot_delay=bot_delay,
                               **options)
        self.game: Game = self.table.game
        self.board = self.game.board()
        self._selection: Any = None
        self._highlights: tuple[Hashable, ...] = ()
        self._from_browser = False            # inside a callback of the browser's
        self._was_covered = False            # the moves list was made for a covered screen
        self._controls_due = False            # the parts wait for CONTROLS_AFTER
        self._lock_view = bool(lock_view) or self.table.remote   # the view is fixed
        if self._lock_view:
            # In Voila the browser can send the kernel code as well as widget values: a
            # seat's page runs its own notebook only (janus_widgets.kernel_seal).
            from ..kernel_seal import seal
            seal()

        fixed = [v for _, v in self.table.viewpoint_options()]
        if viewpoint == "default":
            viewpoint = fixed[0] if self.table.remote else getattr(
                self.board, "DEFAULT_VIEWPOINT", None)
        self.table.check_viewpoint(viewpoint)
        self._viewpoint: Viewpoint = viewpoint
        self._page_bots: dict[int, Any] = dict(bots or {})   # kept for new seats
        self._build()
        self.table.observe(self._on_table)
        if record is not None:
            self.table.load(record)             # the page's own set-up, locked or not
        for seat, policy in (bots or {}).items():
            self.table.set_bot(seat, policy)    # the page's own set-up, locked or not
        if big:
            self.set_big(True)
        self._selection = self._fresh_selection()
        self._refresh(board=True)

    # ------------------------------------------------------------------ building
    def _build(self) -> None:
        guard = self._guard
        first = self.game.draw(self._view())
        self.stage = Stage(first, on_click=guard(self._on_canvas_click),
                           on_ready=guard(lambda: self.stage.repaint()))
        self.stepbar = StepBar(on_goto=guard(self.goto), on_back=guard(self.back),
                               on_last=guard(self.last), on_step=guard(self.step),
                               on_autoplay=guard(self.autoplay),
                               on_delay=guard(self._on_delay), delay=self.table.bot_delay)
        self.status = StatusLine()
        self.moves = MovesPanel(on_option=guard(self._on_option_selected),
                                on_play=guard(self._play_selected),
                                on_log=guard(self.goto), on_line=guard(self.switch_line))
        # The seed box is filled in by _show_secret_parts, in the teacher's view only.
        self.game_panel = GamePanel(self.game, self.table.variant,
                                    on_option=guard(self._on_variant_control),
                                    on_confirm=guard(self._confirm_variant),
                                    on_new=guard(self._new_from_box),
                                    on_ruleset=guard(self._propose_variant))
        self.seats = SeatsPanel(on_viewpoint=guard(self.set_viewpoint),
                                on_seat=guard(self._on_seat), game=self.game)
        self.records = RecordsPanel(self.game.name, on_save=guard(self._save_from_box),
                                    on_load=guard(self._load_from_box),
                                    on_upload=guard(self._on_upload),
                                    on_restore=guard(self._restore_from_box),
                                    on_picture=guard(lambda path: self.save_picture(
                                        self._export_target(path, (".png", ".svg"),
                                                            "picture"))),
                                    on_animation=guard(lambda path, fps:
                                                       self.save_animation(
                                                           self._export_target(
                                                               path, (".gif", ".svg"),
                                                               "animation"), fps=fps)))
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
        # The game's own panels and buttons (data from its draw module, through the
        # screen model) and Jactus's solver hint; the shell stays the same for every game.
        self._extras = Extras(self)
        self.extras = self._extras.widget
        self.stage.set_below([self.stepbar.widget, self.status.widget, self.extras])
        tabs = [(self.seats.widget, "Seats & view"), (self.records.widget, "Save / load")]
        if not self.table.remote:            # a seat of the server changes no rule
            tabs.insert(0, (self.game_panel.widget, "Game & variant"))
        self.tabs = W.Tab(children=[w for w, _ in tabs], titles=[t for _, t in tabs])
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
    def replay(self) -> Any:
        """The table's replay: its lines and the cursor."""
        return self.table.replay

    @property
    def state(self) -> State:
        """The state at the cursor."""
        return self.table.state

    @property
    def record(self) -> Record:
        """The record of this game (every line)."""
        return self.table.record()

    @property
    def index(self) -> int:
        """How many moves of the current line are played at the cursor."""
        return self.table.index

    @property
    def previous_games(self) -> list[Record | SeatRecord]:
        """The earlier games of this table (a new game or a load keeps the last one)."""
        return self.table.previous_games

    @property
    def errors(self) -> list[str]:
        """Full tracebacks of anything that went wrong (the status line says it short)."""
        return self.table.errors

    @property
    def bot_delay(self) -> float:
        """Seconds a bot waits before it moves."""
        return self.table.bot_delay

    @bot_delay.setter
    def bot_delay(self, seconds: float) -> None:
        self.table.bot_delay = float(seconds)

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
        return self.table.seat_mode

    @property
    def bots(self) -> dict[int, Callable[[Any], Any]]:
        """Seat → policy for the seats played by bots."""
        return self.table.bots

    def _shows_secrets(self) -> bool:
        """Whether the screen may show the seed: only the teacher's view of a game."""
        return self.table.shows_secrets(self._viewpoint)

    def _view_seat(self) -> int | str | None:
        return self.table.view_seat(self._viewpoint)

    def _view(self) -> Any:
        return self.table.view_of(self._viewpoint)

    def _situation(self) -> Hashable:
        """What an answer in the status line answers: this game, line, position,
        viewpoint and selection. When any of them changes, the answer is gone."""
        t = self.table
        return (t.game_number, t.line, t.index, t.length, repr(self._viewpoint),
                repr(self._selection), self._highlights)

    # ------------------------------------------------------------------ the table's news
    def _on_table(self, what: str) -> None:
        """The table changed (a move by anyone, a new game, the seats, a proposal, an
        answer to an action): bring the screen up to date."""
        if what == "moves":
            self._changed()
        elif what == "game":
            self._after_new_game()
        elif what == "seats":
            self._show_seats()
        elif what == "proposal":
            self._show_proposal()
        elif what == "notice":
            if self.table.notice is not None:
                self._say(*self.table.notice)
        elif what == "autoplay":
            self._show_steps()
        elif what == "connection":
            self._update_status()

    # ------------------------------------------------------------------ navigation
    def goto(self, index: int) -> State:
        """Show the state after ``index`` moves of the current line."""
        return self.table.goto(index)

    def first(self) -> State:
        """Go to the start."""
        return self.goto(0)

    def last(self) -> State:
        """Go to the end of the current line."""
        return self.goto(self.table.length)

    def back(self) -> State:
        """One move back."""
        return self.goto(max(0, self.table.index - 1))

    def forward(self) -> State:
        """One move forward in the recorded line (nothing new is played)."""
        return self.goto(min(self.table.length, self.table.index + 1))

    def step(self) -> bool:
        """One step: forward in the line, or at its end the dice's or a bot's move.

        Returns whether anything happened (False when a human is to move or the
        game is over)."""
        return self.table.step()

    def switch_line(self, line: int) -> State:
        """Go to another line of play (0 is the main line)."""
        return self.table.switch_line(line)

    # ------------------------------------------------------------------ playing
    def play(self, move: Move | str) -> State:
        """Play a move at the cursor (branching if the cursor is not at the end).

        Chance that follows is resolved from the game's seed; bots reply
        (after ``bot_delay`` seconds, or at once when it is 0). Raises
        :class:`IllegalMoveError` / :class:`InvalidMoveError` for a refused
        move, after showing the reason in the status line; a refused move changes
        nothing. A seat's record cannot be played on (:class:`RecordError`). On a
        screen passed round in a game with secrets, play goes on at the game's present
        only: a branch would show a seat its cards of another time.
        """
        why = self._page_refuses_play()
        if why:
            reason, text = why
            self._say(text, "refused")
            raise IllegalMoveError(text, move=str(move), rule="", reason=reason)
        return self.table.play(move)

    def _viewer(self) -> S.Viewer:
        """This page's own part of its screen: its view, selection and highlights."""
        return S.Viewer(self._viewpoint, self._selection, self._highlights,
                        self._lock_view)

    def _page_refuses_play(self) -> tuple[str, str] | None:
        """Why this page may not play a move here, as ``(reason, text)``, or ``None``
        (:func:`..table.screen.page_refusal`)."""
        return S.page_refusal(self.table, self._viewer())

    def _covered(self) -> bool:
        """Whether the screen is covered (a screen passed round waiting for the next
        player)."""
        return S.covered(self.table, self._viewer())

    def _cover_note(self) -> str:
        return S.cover_note(self.table)

    def _shown_view(self) -> Any:
        """What the screen shows of the position (read aloud)."""
        return S.shown_view(self.table, self._viewer())

    def resolve_chance(self) -> State:
        """At the end of the line, let chance act until a player is to move (from the
        game's seed: the same seed gives the same outcomes); bots then reply."""
        return self.table.resolve_chance()

    def say(self, text: str, kind: str = "info") -> None:
        """Show a message in the status line (``kind``: info, refused or error); it
        stays until the position, the line or the selection changes."""
        if kind not in ("info", "refused", "error"):
            raise ValueError(f"kind={kind!r}: use 'info', 'refused' or 'error'")
        self._say(text, kind)

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
        table = self.table
        result: Click = self.board.click(self._view(), self._selection, key)
        if result.step and table.is_chance:
            # Chance acts, then any bots reply; the status line's last move says what
            # chance did (a message said now would outlive every move the bots make).
            self.step()
            return
        if result.move is not None:
            why = table.not_playable()
            if why:
                self._say(why, "refused")
                return
            player = table.current_player
            if player in table.bot_labels:
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
            self._say(result.message, S.said_kind(result.message))
        self._show_selection()

    def select(self, move: Move | str | None) -> None:
        """Select a legal move in the options list: it is highlighted on the canvas
        (not on a covered screen: the moves are the next player's)."""
        if move is not None and self._covered():
            raise ValueError(self._cover_note())
        if move is None:
            self._highlights = ()
            self.moves.mark(None)
            self._show_selection()
            return
        why = self._page_refuses_play()
        if why:
            raise IllegalMoveError(why[1], move=str(move), rule="", reason=why[0])
        table = self.table
        move_obj = table.parse(move) if isinstance(move, str) else move
        legal = list(table.legal_moves())
        if move_obj not in legal:
            raise IllegalMoveError(f"{move_obj} is not a legal move here",
                                   move=str(move_obj), rule="", reason="not legal")
        # At a chance point the list holds no outcomes, only the "press ▶" line.
        self.moves.mark(None if table.is_chance else legal.index(move_obj))
        self._show_option(move_obj)

    def _show_option(self, move: Move) -> None:
        self._highlights, self._selection, said = S.chosen(self.table, self._viewer(), move)
        self._say(said)
        self._show_selection()

    def _play_selected(self) -> None:
        """The Play button (and Enter): the move selected in the list, if there is one
        to play here."""
        table = self.table
        why = table.not_playable()
        if why:
            self._say(why, "refused")
            return
        if self._covered():
            self._say(self._cover_note(), "refused")
            return
        if table.is_chance:
            self._say("Chance acts here, not a player: press ▶ (step) to let it act.",
                      "refused")
            return
        if table.is_over:
            self._say("The game is over: there is no move to play.", "refused")
            return
        index = self.moves.selected
        moves = table.legal_moves()
        if index is None or not 0 <= index < len(moves):
            self._say("Select a move in the list first (or with ↑ ↓).", "refused")
            return
        self.play(moves[index])

    def _on_option_selected(self, index: int) -> None:
        moves = self.table.legal_moves()
        if self._covered():
            self._say(self._cover_note(), "refused")
            return
        why = self._page_refuses_play()
        if why:
            self._say(why[1], "refused")
            return
        if 0 <= index < len(moves) and not self.table.is_chance:
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
            self.autoplay(not self.table.autoplaying)
        elif key == "Enter":
            self._play_selected()
        elif key in ("ArrowUp", "ArrowDown"):
            self._walk_options(-1 if key == "ArrowUp" else 1)
        else:
            raise ValueError(f"key {key!r} does nothing here; the keys are ← → Home End "
                             "Space Enter ↑ ↓")

    def _walk_options(self, step: int) -> None:
        table = self.table
        why = table.not_playable()
        if why:
            self._say(why, "refused")
            return
        if self._covered():
            self._say(self._cover_note(), "refused")
            return
        if table.is_over or table.is_chance:
            self._say("There is no move to choose here" + (" (▶ lets chance act)."
                                                           if table.is_chance else "."))
            return
        why = self._page_refuses_play()
        if why:
            self._say(why[1], "refused")
            return
        moves = table.legal_moves()
        if not moves:
            self._say("There is no move to choose here: it is not this seat's turn.")
            return
        current = self.moves.selected
        index = (0 if step > 0 else len(moves) - 1) if current is None else \
            (current + step) % len(moves)
        self.select(moves[index])

    # ------------------------------------------------------------------ bots
    def set_bot(self, seat: int, policy: Any) -> None:
        """Let a bot play ``seat``: a bot name (``"random"``), any callable
        ``policy(view) -> move``, or ``None``/``"human"`` for a person. A locked page
        keeps who plays each seat (a student would otherwise play for the others)."""
        if self._lock_view:
            self._show_seats()
            raise ValueError(f"this page is {self._locked_name()}'s: who plays each seat "
                             "is fixed here (the teacher's page sets the seats)")
        self.table.set_bot(seat, policy)

    def _locked_name(self) -> str:
        v = self._viewpoint
        return "the teacher's view" if v is None else (
            "the player to move's view" if v == "current" else f"seat {seat_name(v)}")

    def _on_seat(self, seat: int, value: str) -> None:
        self.set_bot(seat, None if value == "human" else value)

    def _show_seats(self) -> None:
        self.seats.show(players=self.table.num_players, viewpoint=self._viewpoint,
                        bots=self.table.bot_labels, choices=self.table.viewpoint_options(),
                        locked=self._lock_view)

    # ------------------------------------------------------------------ autoplay
    def autoplay(self, on: bool = True) -> None:
        """Step forward on a timer (replay, dice and bots) until a human is to move
        or the game ends. Without a running event loop it runs to that point now."""
        self.table.autoplay(on, delay=self.stepbar.speed.value)

    def _on_delay(self, seconds: float) -> None:
        self.table.bot_delay = float(seconds)

    # ------------------------------------------------------------------ variants
    def set_variant(self, variant: Any = None, **options: Any) -> State:
        """Start a new game with other rule options (the current one is kept in
        :attr:`previous_games`), from a fresh secret seed. ``set_variant(players=4)``."""
        base = self.table.variant if variant is None else variant
        self._check_keeps_seat(self.game.variant(base, **options))
        return self.table.set_variant(variant, **options)

    def set_ruleset(self, name: str) -> State:
        """Start a new game under one of the game's named rulesets, keeping the number of
        players (the Ruleset menu's method). ``set_ruleset("points")``."""
        return self.table.set_ruleset(name)

    def new_game(self, seed: int | None = None, variant: Any = None) -> State:
        """Start a new game (same variant unless given); the current one is kept.
        Without ``seed`` a fresh one is drawn secretly (see ``rng.fresh_seed``)."""
        return self.table.new_game(seed=seed, variant=variant)

    def restore(self, index: int = -1) -> State:
        """Bring back an earlier game from :attr:`previous_games` (the current one is
        kept there in its place), shown as it was; its bots wait for the user. A locked
        page restores only games its view can show (its own, never another seat's)."""
        if self._lock_view:
            count = len(self.table.previous_games)
            if isinstance(index, int) and not isinstance(index, bool) and \
                    -count <= index < count:
                earlier = self.table.previous_games[index]
                if isinstance(earlier, SeatRecord) and earlier.seat != self._viewpoint:
                    raise ValueError(f"this page is {self._locked_name()}'s: it does not "
                                     f"show {earlier.whose}'s record")
        return self.table.restore(index)

    def _after_new_game(self) -> None:
        """The table holds another game (new, loaded or restored): show it."""
        self._highlights = ()
        self.game_panel.hide()
        self.game_panel.show(self.table.variant)
        options = self.table.viewpoint_options()
        if self._viewpoint not in [v for _, v in options]:
            # Fewer seats than before, or a seat's record (loaded, or left): the nearest
            # view that shows no more than before, never the teacher's unless it was.
            self._viewpoint = options[0][1] if self.table.seat_mode else (
                "current" if self._viewpoint is not None else None)
        self._show_seats()
        self._selection = self._fresh_selection()
        self._refresh(board=True)
        self._fill_page_seats()

    def _fill_page_seats(self) -> None:
        """A page locked to a seat against bots keeps bots at the other seats when a
        new game has more of them (players 3 → 5): the page's bot for that seat, or its
        first bot. Nobody on this page could play a new seat otherwise."""
        seat = self._viewpoint
        if not (self._lock_view and isinstance(seat, int) and self._page_bots) or \
                self.table.remote or self.table.seat_mode:
            return
        first = next(iter(self._page_bots.values()))
        for other in range(self.table.num_players):
            if other != seat and other not in self.table.bot_labels:
                self.table.set_bot(other, self._page_bots.get(other, first))

    def _show_earlier(self) -> None:
        """The "earlier games" list, as the table's earlier games are now (a seed only
        in the teacher's view); a new entry is selected."""
        def label(i: int, rec: Record | SeatRecord) -> str:
            if isinstance(rec, SeatRecord):
                return f"{i + 1}: {rec.whose}'s record, {moves_text(len(rec.moves))}"
            seed = f", seed {rec.seed}" if self._shows_secrets() else ""
            return f"{i + 1}: {rec.game}{seed}, {moves_text(len(rec.moves))}"
        labels = [label(i, rec) for i, rec in enumerate(self.table.previous_games)]
        grew = len(labels) > len(self.records.previous_box.options)
        self.records.show_earlier(labels, select=len(labels) - 1 if grew else None)

    def _on_variant_control(self, name: str, change: dict) -> None:
        try:
            variant = self.game.variant(self.table.variant, **self.game_panel.wanted())
        except ValueError as exc:
            self._say(str(exc), "error")
            self.game_panel.undo(change["owner"], change["old"])
            return
        self._propose_variant(variant)

    def _propose_variant(self, variant: Any) -> None:
        """Show ``variant`` in the controls and start it: at once if nothing has been
        played yet, else after the confirm box (an option by hand or a ruleset)."""
        self._check_keeps_seat(variant)
        self.game_panel.show(variant)
        self.table.propose_variant(variant)

    def _check_keeps_seat(self, variant: Any) -> None:
        """A locked seat's page cannot start a game without its seat."""
        seat = self._viewpoint
        if self._lock_view and isinstance(seat, int) and \
                seat >= getattr(variant, "players", seat + 1):
            self.game_panel.show(self.table.variant)
            raise ValueError(f"this page is {self._locked_name()}'s: a game of "
                             f"{variant.players} players has no seat {seat_name(seat)}")

    def _show_proposal(self) -> None:
        pending = self.table.pending_variant
        if pending is None:
            self.game_panel.hide()
            self.game_panel.show(self.table.variant)
            return
        self.game_panel.show(pending)
        self.game_panel.ask(html.escape(self.table.proposal_text()))

    def _confirm_variant(self, yes: bool) -> None:
        self.table.confirm_variant(yes)

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
        sees it (``"current"``), or everything (``None``, the teacher's view). A page
        made with ``lock_view=True`` keeps its view: it refuses, and says so."""
        if self._lock_view and (viewpoint != self._viewpoint or
                                isinstance(viewpoint, bool)):
            self._show_seats()                   # the menu shows the view kept
            raise ValueError(f"this page shows {self._locked_name()} only: its view is "
                             "locked (the teacher's page shows the others)")
        self.table.check_viewpoint(viewpoint)
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
        record, what = self.table.record_to_save(self._viewpoint)
        try:
            written = record.save(target)
        except OSError as exc:
            text = f"Could not save to {target}: {exc.strerror or exc}."
            self._say(text, "error")
            raise RecordError(text) from None
        note = "" if isinstance(record, Record) else "; no seed, no hidden card"
        self._say(f"Saved {what} ({moves_text(self.table.length)}{note}) to {written}.")
        return written

    def load(self, source: Record | SeatRecord | str | Path | bytes) -> State:
        """Load a record: a path, JSON text or bytes, a :class:`Record` or a
        :class:`SeatRecord`. A seat's record shows that seat's view, to step through
        but not to play on. A loaded game is shown as saved: its bots wait until the
        user steps or plays. Anything wrong changes nothing; the status line says what
        (a :class:`RecordError` is raised)."""
        if self._lock_view:
            source = self._check_own_record(source)
        return self.table.load(source)

    def _check_own_record(self, source: Any) -> SeatRecord:
        """A locked page loads only its own seat's record: never the full record (the
        seed and every card), another seat's or the table's; a seat of the server's
        table, never the same seat's record of another table. Returns the record read,
        which is what is loaded: a file is read once, so it cannot change between the
        check and the load."""
        from ..core.seat_record import read_record
        try:
            record = read_record(source)
        except RecordError as exc:
            self._say(f"Could not load the record: {exc}", "error")
            raise
        mine = isinstance(record, SeatRecord) and record.seat == self._viewpoint and (
            not self.table.remote or _table_of(record.meta) == self.table.table_id)
        if mine:
            return record
        whose = record.whose if isinstance(record, SeatRecord) else "the full record"
        where = _table_of(record.meta) if isinstance(record, SeatRecord) else None
        text = (f"Not loaded: this page is {self._locked_name()}'s and loads only its "
                f"own record; that file is {whose}'s" + (f" (table {where})." if where else "."))
        self._say(text, "refused")
        raise RecordError(text)

    def _save_from_box(self, text: str) -> None:
        """Save: the file box names a file in the page's own folder, not one named for
        another view (``…-seat-B.json`` on A's page); a file there that holds another
        view's record (another seat's, the full one) is never overwritten."""
        target = page_file(text, (".json",))
        mine = self._owner()
        other = other_owner_named(text, mine, self.game.name)
        if other is not None:                 # another view's default name, kept for it
            raise ValueError(f"{text.strip()!r} is named for {view_text(other)}; this page "
                             f"saves {self.records.save_button.description[5:]}: a name "
                             f"with no other view's tag (full, table, seat-…), e.g. "
                             f"{self.game.name}-{mine}.json")
        if target.exists():
            found = _record_owner(target)
            if found != mine:
                raise ValueError(f"{target} holds {owner_text(found)}; this page saves "
                                 f"{self.records.save_button.description[5:]}: choose "
                                 f"another name (e.g. {self.game.name}-{mine}.json)")
        self.save(_page_path(text, (".json",)))

    def _owner(self) -> str:
        """The owner tag of what this page saves: its view's (``"seat-A"``, ``"full"``;
        of the server's table, ``"t1-seat-A"``)."""
        return owner_tag(self.table.save_target(self._viewpoint), self._save_table())

    def _export_target(self, text: str, kinds: tuple[str, ...], what: str) -> Path:
        """The file a picture or animation box names, if this page may write it there:
        not a name tagged with another view's owner, not a file there that another view
        wrote (each file carries its view: ``export.file_owner``), as Save does for
        records."""
        target = page_file(text, kinds)
        mine = self._owner()
        end = {"picture": "-position.png", "animation": "-game.gif"}[what]
        example = f"{self.game.name}-{mine}{end}"
        other = other_owner_named(text, mine, self.game.name)
        if other is not None:
            raise ValueError(f"{text.strip()!r} is named for {view_text(other)}; this page "
                             f"saves {what}s of {view_text(mine)}: a name with no other "
                             f"view's tag (full, table, seat-…), e.g. {example}")
        if target.exists():
            found = file_owner(target)
            if found != mine:
                held = (f"holds a {what} of {view_text(found)}" if found else
                        "was not written from this page's view (it carries no view's mark)")
                raise ValueError(f"{target} {held}; this page saves {what}s of "
                                 f"{view_text(mine)} and writes over none of another's: "
                                 f"choose another name (e.g. {example})")
        return _page_path(text, kinds)

    def _load_from_box(self, text: str) -> None:
        path = page_file(text, (".json",))
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
        ``.svg`` or ``.png``; ``scale`` pixels per drawing unit for a PNG. The file
        carries the view it shows (``export.file_owner``)."""
        written = write_picture(self.drawing, path, scale=scale, owner=self._owner())
        self._say(f"Saved the picture {written}.")
        return written

    def save_animation(self, path: str | Path, *, fps: float = 2.0, scale: float = 1.0,
                       start: int = 0, stop: int | None = None) -> Path:
        """Write the line shown, one frame per position from move ``start`` to move
        ``stop`` (default: from its start to its last move), as an animated ``.gif`` or
        ``.svg`` (``fps`` frames a second). Every frame is drawn from the view shown; for
        a screen passed round, as the whole table saw it (whatever the screen shows
        now). A GIF's frames are drawn with matplotlib: about a second each. The file
        carries the view it shows (``export.file_owner``)."""
        length = self.table.length
        stop = length if stop is None else stop
        if not 0 <= start <= stop <= length:
            raise ValueError(f"moves {start} to {stop}: use 0 ≤ start ≤ stop ≤ {length} "
                             "(the moves of the line shown)")
        views = self.table.views_of_line(self._viewpoint, start, stop)
        frames = [self.game.draw(view) for view in views]
        written = write_animation(frames, path, fps=fps, scale=scale, owner=self._owner())
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
        """The selection a newly shown position starts with (see
        :func:`..table.screen.fresh_selection`)."""
        return S.fresh_selection(self.table, self._viewer())

    def _refresh(self, board: bool = False) -> None:
        """Bring every part up to date: the canvas first (the picture reaches the
        browser first), then the controls and the status line."""
        self._render(board=board)
        loop = kernel_loop() if self._from_browser else None
        if board and loop is not None:    # a new game, view or record: the seed leaves
            self._show_secret_parts()     # now (the other parts follow in a moment)
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
        self._extras.refresh()

    def _show_selection(self) -> None:
        """A new selection or highlight: the canvas and the status line (and the moves,
        when the selection covered or uncovered the screen)."""
        self._render()
        if self._covered() != self._was_covered:
            self._show_moves()
        self._update_status()

    def _show_steps(self) -> None:
        steps = S.steps(self.table)
        self.stepbar.show(index=steps["index"], length=steps["length"],
                          autoplay=steps["autoplay"])

    def _show_secret_parts(self) -> None:
        """What may name the seed, as the view allows: the heading, the seed box and New
        game, the earlier games; and what Save writes. The seed is in the widget (shown
        or not) only in the teacher's view: it predicts every chance to come."""
        table = self.table
        secret = not self._shows_secrets()
        words = S.heading(table, self._viewer())
        heading = (f"<h3 style='margin:0'>{html.escape(self.game.title)} <small>— "
                   f"{html.escape(words, quote=False)}</small></h3>")
        if self.heading.value != heading:
            self.heading.value = heading
        self.game_panel.show_seed(None if secret else table.state.seed)
        self.records.show_save(table.save_target(self._viewpoint), self._save_table())
        self._show_earlier()

    def _save_table(self) -> str | None:
        """The server's table whose seat's record this page saves (a seat of the server,
        or a seat's record from the server loaded here), else None: its default file
        names and the files it may overwrite name that table."""
        table = self.table
        if table.remote:
            return table.table_id
        if table.seat_mode:
            return _table_of(table.replay.seat_record.meta)
        return None

    def _show_moves(self) -> None:
        viewer = self._viewer()
        self._was_covered = S.covered(self.table, viewer)
        listed = S.moves(self.table, viewer)
        self.moves.show_options(listed.options, note=listed.note, can_play=listed.can_play)
        entries, at = S.log(self.table, viewer)
        self.moves.show_log(entries, at)
        self.moves.show_lines(S.lines(self.table), self.table.line)

    def _update_status(self) -> None:
        facts = S.status(self.table, self._viewer())
        turn = html.escape(facts.turn, quote=False)
        if facts.mark:
            turn = f"<b>{html.escape(facts.mark)}</b>" + turn[len(facts.mark):]
        shown = StatusFacts(where=facts.where, turn=turn, scores=facts.scores,
                            last=facts.last, note=facts.note, position=facts.position)
        self.status.show(shown, situation=self._situation())

    def _render(self, board: bool = False) -> None:
        """Paint the current picture: one ``hold_canvas`` batch, one message."""
        self.stage.show(S.drawing(self.table, self._viewer()), board=board)



    def _repr_svg_(self) -> str:  # pragma: no cover - notebooks without widgets
        from ..drawing import render_svg
        return render_svg(self.drawing)

    def __repr__(self) -> str:
        t = self.table
        return (f"<GameWidget {self.game.name} move {t.index}/{t.length}, "
                f"{len(t.lines)} line(s)>")

"""A seat's record: one seat's account of a game, and nothing that seat may not know.

A full :class:`~janus_widgets.core.record.Record` holds the seed and every chance
outcome, so it rebuilds the whole game, every secret included: it is the teacher's.
``record.view(seat)`` (or ``state.seat_record(seat)``) gives a :class:`SeatRecord`:

* ``seat``: whose record it is, a seat (``"A"`` in the file) or ``"table"`` (what every
  seat has seen: the record of one screen passed round the table);
* ``moves``: what that seat was told of each move (``Engine.observed``: in the card
  game the cards it did not see are ``?``);
* ``views``: in a game with secrets, what the seat saw after each move, as the game's
  JSON form of its view (``Engine.view_to_data``), so the record can be stepped
  through without the secrets. A game without secrets keeps no views: everything
  is public there, and the positions are rebuilt by replaying the moves;
* ``result``: the public result (moves played, whether it is over, winners, scores);
* no seed (it predicts the chance to come in every game) and no hidden chance
  outcome.

A seat's record loads with :class:`RecordError` for anything wrong, and shows that
seat's view in a widget. A record read from a file is proven first, since its seat
could have written anything: a game without secrets replays its moves; a game with
secrets checks that its first view is the start of a game, that every view is a
position the rules allow and that every move leads from one view to the next as the
seat was told of it (``Engine.check_seat_step``; for the card game
:mod:`janus_widgets.games.janus_cards.record_check`). A forged move text, an impossible
card or a card twice in a hand is refused, naming the move or the view.
It cannot be continued as if it were the full game (there is
no seed and, with secrets, no truth to play on): :class:`SeatFrame` refuses to be
played on and says so.

>>> from janus_widgets import games
>>> state = games.get("janus-cards").new(players=3, seed=4)
>>> while state.is_chance:
...     state = state.play_chance()
>>> mine = state.record().view(0)
>>> mine.whose, len(mine.moves), "seed" in mine.to_dict()
('seat A', 7, False)
>>> mine.moves[1]                       # the second card went to B: A sees its back
'=?/r'
>>> SeatRecord.from_json(mine.to_json()).replay().last().view(0) == state.view(0)
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import RecordError
from .protocol import (CHANCE, RECORD_KEEPING, TABLE, MoveList, State, check_viewer,
                       seat_index, seat_name, winners_text)
from .record import (FORMAT, VERSION, Record, _by_list, _check_moves, _result, _string_list,
                     check_game_and_variant, check_header, check_ruleset,
                     check_written_by, parse_json, read_text, shared_texts, source_data,
                     write_atomic, writer)
from .replay import Line, cursor_index

if TYPE_CHECKING:
    from .protocol import Game

__all__ = ["SeatRecord", "SeatReplay", "SeatFrame", "read_record"]

FIELDS = ("format", "version", "written_by", "game", "variant", "ruleset", "seat", "moves", "by", "views",
          "result", "meta")


def _by_for(by: Sequence[str] | None, n: int) -> tuple[str, ...] | None:
    """``by`` for the first ``n`` moves (a state's history may be a prefix of the
    line ``by`` was kept for), or None when not known."""
    if by is None or not any(by[:n]):
        return None
    by = tuple(by[:n])
    return by + ("",) * (n - len(by))


def _seat_text(seat: int | str) -> str:
    return TABLE if seat == TABLE else seat_name(seat)  # type: ignore[arg-type]


@dataclass(frozen=True)
class SeatRecord:
    """What one seat (or the whole table) knew of a game, ply by ply; no seed."""

    game: str
    variant: Mapping[str, Any]
    seat: int | str
    moves: tuple[str, ...]
    views: tuple[Any, ...] | None = None
    result: Mapping[str, Any] | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    #: The ruleset the variant follows (``"custom"``: none), as in a full record.
    ruleset: str | None = None
    #: Who made each move (``"human"``, ``"chance"``, ``"bot:greedy"``, ``""`` not
    #: known), public to every seat; None when the record does not say.
    by: tuple[str, ...] | None = None
    #: The version that wrote the file read (as ``Record.written_by``); None if not said.
    written_by: str | None = field(default=None, compare=False)

    # --- making ------------------------------------------------------------
    @classmethod
    def from_state(cls, state: State, seat: int | str, *,
                   meta: Mapping[str, Any] | None = None,
                   by: Sequence[str] | None = None) -> SeatRecord:
        """The record of ``state``'s history as ``seat`` knew it (a seat number, or
        ``TABLE`` for what every seat has seen); ``by``: who made each move."""
        if seat is None:
            raise RecordError("a seat's record needs a seat (or 'table'); the teacher's "
                              "record is the full one: state.record()")
        check_viewer(seat, state.num_players)
        eng = state.engine
        actions = state._actions()
        moves = []
        views = [] if eng.has_secrets else None
        raw = state.start.raw
        if views is not None:
            views.append(eng.view_to_data(eng.view(type(state)(eng, raw, seed=0), seat)))
        for action in actions:
            moves.append(eng.observed(raw, action, seat))
            raw = eng.apply(raw, action)
            if views is not None:
                views.append(eng.view_to_data(eng.view(type(state)(eng, raw, seed=0),
                                                       seat)))
        rec = cls(game=state.game.name, variant=state.variant.to_dict(),
                  seat=int(seat) if seat != TABLE else TABLE, moves=tuple(moves),
                  views=None if views is None else tuple(views), result=_result(state),
                  meta=dict(meta or {}), ruleset=state.game.ruleset_of(state.variant),
                  by=_by_for(by, len(moves)))
        object.__setattr__(rec, "_made_by_engine", True)   # its views need no proof
        return rec

    # --- reading it ----------------------------------------------------------
    @property
    def whose(self) -> str:
        """``'seat A'`` or ``'the table'``."""
        return "the table" if self.seat == TABLE else f"seat {seat_name(self.seat)}"  # type: ignore[arg-type]

    @property
    def game_obj(self) -> Game:
        """The registered game of this record."""
        from .registry import games
        return games.get(self.game)

    def __len__(self) -> int:
        return len(self.moves)

    def not_playable(self) -> str:
        """The sentence that says why this record cannot be played on."""
        saw = "the whole table" if self.seat == TABLE else seat_name(self.seat)  # type: ignore[arg-type]
        return (f"This is {self.whose}'s record: it shows what {saw} saw (no seed, no "
                "hidden card), so it can be stepped through but not played on. To "
                "continue the game, load its full record (saved from the teacher's view).")

    # --- JSON ------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON object (``"seat"`` says whose it is; there is no ``"seed"``)."""
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION,
                               "written_by": writer(), "game": self.game,
                               "variant": dict(self.variant)}
        if self.ruleset is not None:
            out["ruleset"] = self.ruleset
        out.update(seat=_seat_text(self.seat), moves=list(self.moves))
        if self.by is not None:
            out["by"] = list(self.by)
        if self.views is not None:
            out["views"] = list(self.views)
        if self.result is not None:
            out["result"] = dict(self.result)
        if self.meta:
            out["meta"] = dict(self.meta)
        return out

    def to_json(self, indent: int | None = 1) -> str:
        """The record as JSON text (one view per line: the file stays readable)."""
        if indent is None or self.views is None:
            return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)
        data = self.to_dict()
        views = data.pop("views")
        head = json.dumps(data, indent=indent, ensure_ascii=False)
        body = ",\n  ".join(json.dumps(v, ensure_ascii=False, separators=(",", ":"))
                            for v in views)
        return head[:-2] + ',\n "views": [\n  ' + body + "\n ]\n}"

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the record to ``path`` (whole, or not at all: see ``Record.save``)."""
        return write_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> SeatRecord:
        """Read and check a seat's record file (:class:`RecordError` if anything is
        wrong, or if the file is a full record)."""
        return cls.from_dict(parse_json(read_text(path)))

    @classmethod
    def read(cls, source: Any) -> SeatRecord:
        """A seat's record from a :class:`SeatRecord`, a path, or JSON text or bytes."""
        if isinstance(source, SeatRecord):
            return source
        return cls.from_dict(source_data(source))

    @classmethod
    def from_json(cls, text: str | bytes) -> SeatRecord:
        """Parse and check a seat's record."""
        return cls.from_dict(parse_json(text))

    @classmethod
    def from_dict(cls, data: Any) -> SeatRecord:
        """Check a decoded JSON object and build the record (its views are read, and
        in a game without secrets its moves replayed, to prove them)."""
        check_header(data)
        if "seat" not in data:
            raise RecordError("this is a full record (it has no 'seat'): load it with "
                              "Record.load")
        if "seed" in data:
            raise RecordError("a seat's record holds no seed (the seed would give away "
                              "the chance to come); this file has one")
        extra = sorted(set(data) - set(FIELDS))
        if extra:
            raise RecordError(f"unknown field {extra[0]!r} in a seat's record; the fields "
                              "are " + ", ".join(FIELDS))
        name, variant = check_game_and_variant(data)
        ruleset = check_ruleset(name, variant, data.get("ruleset"))
        from .registry import games
        game = games.get(name)
        players = game.variant(variant).players  # type: ignore[attr-defined]
        seat_text = data["seat"]
        if seat_text == TABLE:
            seat: int | str = TABLE
        else:
            try:
                if not isinstance(seat_text, str):
                    raise ValueError(seat_text)
                seat = seat_index(seat_text, players)
            except ValueError:
                raise RecordError(f"'seat' is {seat_text!r}: a seat's record names a seat "
                                  f"letter A … {seat_name(players - 1)}, or "
                                  f"{TABLE!r}") from None
        moves = shared_texts(_string_list(data.get("moves"), "moves"))
        by = _by_list(data.get("by"), len(moves), "by")
        views = data.get("views")
        if game.has_secrets:
            if not isinstance(views, list) or len(views) != len(moves) + 1:
                raise RecordError(f"a {game.title} seat's record holds 'views': one per "
                                  f"position, {len(moves) + 1} for {len(moves)} moves")
            views = tuple(views)
        elif views is not None:
            raise RecordError(f"{game.title} has no secrets: its seat records keep no "
                              "'views' (the moves rebuild every position)")
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("record 'result' must be an object")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("record 'meta' must be an object")
        rec = cls(game=name, variant=dict(variant), seat=seat, moves=moves, views=views,
                  result=result, meta=meta, ruleset=ruleset, by=by,
                  written_by=check_written_by(data))
        frames = rec._frames()                    # proves every view (or every move)
        if result is not None:
            last = frames.frame(len(moves))
            expected = {"ply": len(moves), "over": last.is_over,
                        "winners": list(last.winners()),
                        "scores": [float(x) for x in last.scores()]}
            if {k: result.get(k) for k in expected} != expected:
                raise RecordError(f"the record states the result {dict(result)} but its "
                                  f"last position gives {expected}")
        return rec

    # --- stepping through ----------------------------------------------------
    def _frames(self) -> _Frames:
        done = self.__dict__.get("_frames_done")
        if done is None:
            done = _Frames(self)
            object.__setattr__(self, "_frames_done", done)
        return done

    def replay(self) -> SeatReplay:
        """A read-only cursor over the record (what a widget steps through)."""
        return SeatReplay(self)

    def replay_view(self, index: int) -> Any:
        """The seat's view after ``index`` moves."""
        return self._frames().frame(index).view(self.seat)


class _Frames:
    """The positions of a seat's record: its views (games with secrets), or states
    rebuilt from the public moves (games without).

    A record that was read (not made from a game here) is proven first: the first view
    must be the start of a game, every view must be one the rules allow and every move
    must lead from one view to the next as the seat was told of it
    (``Engine.check_seat_step``). The views are decoded again when a frame is asked for
    (the last few are kept), so a long record costs its JSON, not a view object a ply."""

    KEEP = 64

    def __init__(self, record: SeatRecord) -> None:
        self.record = record
        game = record.game_obj
        variant = game.variant(record.variant)
        self.engine = game.engine(variant)
        self.variant = variant
        self.game = game
        self.line: Any = None
        self._decoded: dict[int, Any] = {}
        if record.views is not None:
            if not record.__dict__.get("_made_by_engine"):
                self._prove()
        else:
            # No seed is kept; the positions are rebuilt from the moves, which hold
            # every chance outcome (all public in a game without secrets). The states
            # get seed 0: nothing is ever drawn from it (a frame cannot be played on).
            start = game.new(variant, seed=0)
            actions: list[int] = []
            points = [start.raw]
            _check_moves(start, start.raw, record.moves, actions, points, "move")
            self.line = Line(0, None, 0, start, actions, points)

    def _decode(self, index: int) -> Any:
        data = self.record.views[index]  # type: ignore[index]
        try:
            return self.engine.view_from_data(data, self.record.seat)
        except ValueError as exc:
            raise RecordError(f"view {index} of the record cannot be read: {exc}",
                              index=index) from None

    def _prove(self) -> None:
        record, eng = self.record, self.engine
        start = eng.view_to_data(eng.view(self.game.State(eng, eng.initial(), seed=0),
                                          record.seat))
        if record.views[0] != start:  # type: ignore[index]
            raise RecordError(f"view 0 of the record is not the start of a "
                              f"{self.game.title} game (before the deal, as "
                              f"{record.whose} sees it)", index=0)
        before = self._decode(0)
        for i in range(1, len(record.views)):  # type: ignore[arg-type]
            after = self._decode(i)
            text = record.moves[i - 1]
            try:
                eng.check_seat_step(before, text, after)
            except ValueError as exc:
                shown = text if len(text) <= 60 else text[:60] + "…"
                raise RecordError(f"move {i - 1} ({shown!r}) cannot be what "
                                  f"{record.whose} saw: {exc}", index=i - 1) from None
            before = after

    def frame(self, index: int) -> SeatFrame:
        if self.record.views is not None:
            view = self._decoded.get(index)
            if view is None:
                if len(self._decoded) >= self.KEEP:
                    self._decoded.clear()
                view = self._decoded[index] = self._decode(index)
            return SeatFrame(self.record, view, index, self.game, self.variant)
        return SeatFrame(self.record, self.line.state_at(index), index, self.game,
                         self.variant)


class SeatFrame:
    """One position of a seat's record. It stands where a :class:`State` stands in the
    widget shell: it shows the seat's view and says whose turn it is and the scores;
    it lists no legal moves, and playing on it raises :class:`RecordError` saying why.
    ``seed`` is ``None``: a seat's record has none."""

    seed = None

    def __init__(self, record: SeatRecord, view: Any, ply: int, game: Game,
                 variant: Any) -> None:
        self.record = record
        self._view = view
        self.ply = ply
        self.game = game
        self.variant = variant
        self.num_players: int = variant.players

    def view(self, player: Any = None) -> Any:
        """The seat's view (the record holds no other: any viewpoint shows it)."""
        return self._view

    @property
    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` or ``TERMINAL``, as the seat saw it."""
        return self._view.current_player

    @property
    def is_chance(self) -> bool:
        return self._view.current_player == CHANCE

    @property
    def is_over(self) -> bool:
        return bool(self._view.is_over)

    def scores(self) -> tuple[float, ...]:
        return tuple(self._view.scores())

    def winners(self) -> tuple[int, ...]:
        return tuple(self._view.winners())

    def outcome(self) -> str:
        """Who won (and why, when the seat's view says), ``""`` while the game goes on."""
        own = getattr(self._view, "outcome", None)
        if callable(own):
            return own()
        return winners_text(self.winners()) if self.is_over else ""

    def legal_moves(self) -> MoveList:
        """None: a seat's record cannot be played on."""
        return MoveList()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise RecordError(self.record.not_playable())

    play = play_chance = sample_chance = parse = explain = play_action = _refuse

    def is_legal(self, move: Any) -> bool:
        return False

    def __repr__(self) -> str:
        return f"<SeatFrame {self.game.name}, {self.record.whose}, ply {self.ply}>"


class _OneLine(Sequence[Any]):
    """The single line of a seat's record, as the shell reads a replay's lines."""

    id = 0
    parent = None
    at = 0

    def __init__(self, n: int) -> None:
        self._n = n

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index: Any) -> Any:  # pragma: no cover - not a real sequence
        raise IndexError("a seat's record line holds no states")


class SeatReplay:
    """Step through a seat's record as :class:`~janus_widgets.core.replay.Replay`
    steps through a game: ``goto``, ``first``, ``back``, ``forward``, ``last``;
    ``state`` is the :class:`SeatFrame` at the cursor. There is one line and
    nothing can be played."""

    def __init__(self, record: SeatRecord) -> None:
        self.seat_record = record
        self._frames = record._frames()
        self.lines = [_OneLine(len(record.moves))]
        self.line = 0
        self._index = 0

    @property
    def index(self) -> int:
        return self._index

    @property
    def length(self) -> int:
        return len(self.seat_record.moves)

    @property
    def at_end(self) -> bool:
        return self._index == self.length

    @property
    def state(self) -> SeatFrame:
        return self._frames.frame(self._index)

    @property
    def observations(self) -> tuple[str, ...]:
        """What the seat was told of each move."""
        return self.seat_record.moves

    def goto(self, index: int) -> SeatFrame:
        self._index = cursor_index(index, self.length, "this record")
        return self.state

    def first(self) -> SeatFrame:
        return self.goto(0)

    def last(self) -> SeatFrame:
        return self.goto(self.length)

    def forward(self) -> SeatFrame:
        return self.goto(min(self._index + 1, self.length))

    def back(self) -> SeatFrame:
        return self.goto(max(self._index - 1, 0))

    def switch(self, line: int, index: int | None = None) -> SeatFrame:
        if line != 0:
            raise IndexError("a seat's record has one line (0)")
        return self.state if index is None else self.goto(index)

    def play(self, move: Any) -> Any:
        raise RecordError(self.seat_record.not_playable())

    def record(self, **meta: Any) -> SeatRecord:
        """The seat's record itself (saving it again writes the same file)."""
        return self.seat_record

    def __repr__(self) -> str:
        return (f"<SeatReplay {self.seat_record.whose}, move {self._index}/"
                f"{self.length}>")


def read_record(source: Any) -> Record | SeatRecord:
    """A full record or a seat's record, whichever ``source`` holds: a record object, a
    path, or JSON text or bytes."""
    if isinstance(source, (Record, SeatRecord)):
        return source
    data = source_data(source)
    if isinstance(data, dict) and "seat" in data:
        return SeatRecord.from_dict(data)
    return Record.from_dict(data)


# States and records make seat records here (see protocol.RECORD_KEEPING).
RECORD_KEEPING.update(
    seat_record=lambda state, seat, meta: SeatRecord.from_state(state, seat, meta=meta),
    view=lambda record, seat: SeatRecord.from_state(record.final_state(), seat,
                                                   meta=record.meta, by=record.by))

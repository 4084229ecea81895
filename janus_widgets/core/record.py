"""Game records: JSON files that replay exactly, on any machine.

A record holds a format version, the game, the variant (every option) and the
name of the ruleset it follows (``"custom"`` if none), the seed and every move in
its notation, chance outcomes included, so replaying never depends on a random
generator. A saved record also says which version of janus_widgets wrote it
(``"written_by": "janus_widgets 0.1.0"``; records written before that said nothing load
all the same, with ``written_by`` None). A record without a ruleset name (written before rulesets existed) loads
all the same: the name is worked out from its options. Loading checks everything and names the first bad move by
its index; a record is parsed as JSON only, never unpickled or evaluated.

Branches explored in a :class:`~janus_widgets.core.replay.Replay` are kept in
``lines``: each names the line it leaves, the ply where it leaves it, and its
own moves from there.

This full record is the teacher's: its seed and chance outcomes rebuild every
secret. What one seat may keep is :meth:`Record.view` — a
:class:`~janus_widgets.core.seat_record.SeatRecord`, the same format with a
``"seat"`` field, that seat's account of the moves and no seed (see
``docs/secrets.md``). :func:`read_record` reads either; ``Record.load`` refuses a
seat's record, saying what it is. Loading a record checks each move once on the lean
engine path, so a million moves load in seconds; the replay keeps checkpoints, not
a state per move.

>>> from janus_widgets import games
>>> state = games.get("jactus").new(seed=3).play("r*").play("=11235")
>>> rec = state.record()
>>> rec.moves
['r*', '=11235']
>>> Record.from_json(rec.to_json()).final_state() == state
True
>>> rec.ruleset, games.get("jactus").new(ruleset="points", seed=3).record().ruleset
('rulebook', 'points')
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import IllegalMoveError, InvalidMoveError, RecordError, VariantError
from .protocol import RECORD_KEEPING, record_keeping
from .replay import CHECKPOINT_EVERY, Line, Replay, check_by
from .variant import CUSTOM

if TYPE_CHECKING:
    from .protocol import Game, State
    from .seat_record import SeatRecord

__all__ = ["Record", "Branch", "FORMAT", "VERSION", "writer"]

FORMAT = "janus-widgets-record"
VERSION = 1
#: Refuse files larger than this. A 100,000-move Jactus game is about 1 MB, a
#: million-move one 7.6 MB; a card game seat's record about 400 bytes a move. The limit
#: keeps loading within memory: reading, checking and replaying a record this size peaks
#: under 500 MB, whatever it holds (``benchmarks/record_load.py --at-limit`` measures it).
MAX_BYTES = 12 * 1024 * 1024
#: The most digits a whole number in a record may have (Python's own limit for reading
#: one from text; a record's numbers have 19 at most, its seed).
MAX_DIGITS = 4300


def writer() -> str:
    """What a record written now says wrote it: ``'janus_widgets 0.1.0'``."""
    from ..resources import DISTRIBUTION, __version__
    return f"{DISTRIBUTION} {__version__}"


def check_written_by(data: Mapping[str, Any]) -> str | None:
    """A record's ``written_by`` (None if it has none: written before records said)."""
    value = data.get("written_by")
    if value is not None and (not isinstance(value, str) or len(value) > 200):
        raise RecordError(f"record 'written_by' is {value!r:.80}: it names the version "
                          "that wrote the record, as text ('janus_widgets 0.1.0')")
    return value


@dataclass(frozen=True)
class Branch:
    """A side line: leaves line ``parent`` after ``at`` moves and plays ``moves``
    (``by``: who made each of them, when the record keeps it)."""

    parent: int
    at: int
    moves: tuple[str, ...]
    by: tuple[str, ...] | None = None


@dataclass(frozen=True)
class Record:
    """One game: what was played, under which rules, from which seed."""

    game: str
    variant: Mapping[str, Any]
    seed: int
    moves: tuple[str, ...] | list[str]
    branches: tuple[Branch, ...] = ()
    result: Mapping[str, Any] | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    #: The ruleset the variant follows (``"custom"``: none); None only if not stated.
    ruleset: str | None = None
    #: Who made each move of the main line: ``"human"``, ``"chance"``, ``"bot:greedy"``
    #: (see :mod:`.replay`), ``""`` if not known; None when the record does not say.
    by: tuple[str, ...] | None = None
    #: The version that wrote the file this record was read from (``'janus_widgets
    #: 0.1.0'``); None if made here or read from a record that did not say. Saving
    #: always writes this version's name.
    written_by: str | None = field(default=None, compare=False)

    # --- making ------------------------------------------------------------
    @classmethod
    def from_state(cls, state: State, *, meta: Mapping[str, Any] | None = None,
                   branches: tuple[Branch, ...] = ()) -> Record:
        """The record of ``state``'s history."""
        eng = state.engine
        if state.start.raw != eng.initial():
            raise RecordError(
                "this state's history does not start from the game's start position "
                "(it was built with from_raw); records replay from the start only")
        return cls(game=state.game.name, variant=state.variant.to_dict(),
                   seed=state.seed, moves=state._notations(),
                   branches=tuple(branches), result=_result(state), meta=dict(meta or {}),
                   ruleset=state.game.ruleset_of(state.variant))

    @classmethod
    def from_replay(cls, replay: Replay, meta: Mapping[str, Any] | None = None) -> Record:
        """The record of every line of ``replay`` (the main line, then each branch)."""
        main = replay.lines[0]
        start = main.start
        if start.raw != start.engine.initial() or start.ply:
            raise RecordError(
                "this replay does not start from the game's start position (it was "
                "built with from_raw); records replay from the start only")
        known = any(b for line in replay.lines for b in line.by)
        branches = tuple(Branch(line.parent, line.at, tuple(line.notations(line.at)),
                                tuple(line.by[line.at:]) if known else None)
                         for line in replay.lines[1:] if line.parent is not None)
        return cls(game=start.game.name, variant=start.variant.to_dict(),
                   seed=start.seed, moves=main.notations(), branches=branches,
                   by=tuple(main.by) if known else None,
                   result=_result(main.state_at(len(main))), meta=dict(meta or {}),
                   ruleset=start.game.ruleset_of(start.variant))

    # --- JSON ----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the record."""
        out: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "written_by": writer(),
            "game": self.game, "variant": dict(self.variant), "seed": self.seed,
            "moves": list(self.moves),
        }
        if self.ruleset is not None:
            out["ruleset"] = self.ruleset
        if self.by is not None:
            out["by"] = list(self.by)
        if self.branches:
            out["branches"] = [{"parent": b.parent, "at": b.at, "moves": list(b.moves),
                                **({} if b.by is None else {"by": list(b.by)})}
                               for b in self.branches]
        if self.result is not None:
            out["result"] = dict(self.result)
        if self.meta:
            out["meta"] = dict(self.meta)
        return out

    def to_json(self, indent: int | None = 1) -> str:
        """The record as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the record to ``path``: written whole to ``<path>.tmp``, then moved into
        place, so a failed save (a full disk, a folder in the way) keeps the old file
        and leaves no ``.tmp`` file behind; the ``OSError`` is raised."""
        return write_atomic(path, self.to_json())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Record:
        """Read and check a record file (see :meth:`from_json`). Anything that keeps
        it from being read (missing, a folder, unreadable, too big, not UTF-8) raises
        :class:`RecordError` saying so."""
        return cls.from_dict(parse_json(read_text(path)))

    @classmethod
    def read(cls, source: Any) -> Record:
        """A record from whatever a user hands over: a :class:`Record`, JSON text or
        bytes (text that starts with ``{``), or a path. Raises :class:`RecordError`."""
        if isinstance(source, Record):
            return source
        return cls.from_dict(source_data(source))

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Parse and check a record; the moves are replayed to prove them legal."""
        return cls.from_dict(parse_json(text))

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """Check a decoded JSON object and build the record (replaying every move)."""
        rec = cls._shape(data)
        rec._checked()  # proves every move, line and the stated result
        return rec

    @classmethod
    def _shape(cls, data: Any) -> Record:
        check_header(data)
        if "seat" in data:
            raise RecordError(
                f"this file is {whose(data['seat'])}'s record: what "
                f"{'the whole table' if data['seat'] == 'table' else 'that seat'} saw, "
                "with no seed and no hidden card. It shows that view (read_record, or Load "
                "in a widget) but cannot be replayed as the full game; the full record "
                "is the one saved from the teacher's view.")
        allowed = {"format", "version", "written_by", "game", "variant", "seed", "moves",
                   "branches", "result", "meta", "ruleset", "by"}
        extra = sorted(set(data) - allowed)
        if extra:
            raise RecordError(f"unknown record field {extra[0]!r}; the fields are "
                              + ", ".join(sorted(allowed)))
        name, variant = check_game_and_variant(data)
        ruleset = check_ruleset(name, variant, data.get("ruleset"))
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise RecordError(f"record seed {seed!r} is not a whole number from 0 to "
                              "2**63 - 1")
        moves = _string_list(data.get("moves"), "moves")
        by = _by_list(data.get("by"), len(moves), "by")
        branches = []
        raw_branches = data.get("branches", [])
        if not isinstance(raw_branches, list):
            raise RecordError("record 'branches' must be a list")
        for k, b in enumerate(raw_branches, start=1):
            if not isinstance(b, dict) or not {"parent", "at", "moves"} <= set(b) or \
                    not set(b) <= {"parent", "at", "moves", "by"}:
                raise RecordError(f"branch {k} must have exactly 'parent', 'at' and "
                                  "'moves' (and 'by', who made them)")
            parent, at = b["parent"], b["at"]
            if isinstance(parent, bool) or not isinstance(parent, int) or not 0 <= parent < k:
                raise RecordError(f"branch {k}: parent {parent!r} must name an earlier "
                                  f"line (0 … {k - 1})")
            if isinstance(at, bool) or not isinstance(at, int) or at < 0:
                raise RecordError(f"branch {k}: 'at' must be a move count, not {at!r}")
            own = shared_texts(_string_list(b["moves"], f"branch {k} moves"))
            branches.append(Branch(parent, at, own,
                                   _by_list(b.get("by"), len(own), f"branch {k} by")))
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("record 'result' must be an object")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("record 'meta' must be an object")
        return cls(game=name, variant=dict(variant), seed=seed, moves=shared_texts(moves),
                   branches=tuple(branches), result=result, meta=meta, ruleset=ruleset,
                   by=by, written_by=check_written_by(data))

    # --- replaying -----------------------------------------------------------
    @property
    def game_obj(self) -> Game:
        """The registered game of this record."""
        from .registry import games
        return games.get(self.game)

    def start_state(self) -> State:
        """The state before the first move."""
        return self.game_obj.new(self.variant, seed=self.seed)

    def _checked(self) -> tuple[State, list[tuple[int | None, int, list[int], list[Any],
                                                  list[str]]]]:
        """The start state and every line as ``(parent, at, actions, checkpoints, by)``,
        each move proven legal by playing it; worked out once per record. A line's
        actions (and who made them) run from the start (a branch's first ``at`` are its
        parent's)."""
        done = self.__dict__.get("_lines")
        if done is not None:
            return done
        start = self.start_state()
        actions: list[int] = []
        checkpoints: list[Any] = [start.raw]
        final = _check_moves(start, start.raw, self.moves, actions, checkpoints, "move")
        by = list(self.by) if self.by is not None else [""] * len(actions)
        lines = [(None, 0, actions, checkpoints, by)]
        if self.result is not None:
            expected = _result(type(start)(start.engine, final, seed=self.seed,
                                           ply=len(actions)))
            if {k: self.result.get(k) for k in expected} != expected:
                raise RecordError(
                    f"the record states the result {dict(self.result)} but replaying "
                    f"its moves gives {expected}: the moves or the result were changed")
        k_every = CHECKPOINT_EVERY
        for k, b in enumerate(self.branches, start=1):
            _, _, parent_actions, parent_points, parent_by = lines[b.parent]
            if b.at > len(parent_actions):
                raise RecordError(f"branch {k} leaves line {b.parent} after move {b.at}, "
                                  f"but that line has only {len(parent_actions)} moves")
            own = parent_actions[:b.at]
            points = parent_points[:b.at // k_every + 1]
            raw = points[-1]
            for action in own[(len(points) - 1) * k_every:]:
                raw = start.engine.apply(raw, action)
            _check_moves(start, raw, b.moves, own, points, f"branch {k} move")
            own_by = parent_by[:b.at] + (list(b.by) if b.by is not None
                                         else [""] * len(b.moves))
            lines.append((b.parent, b.at, own, points, own_by))
        done = (start, lines)
        object.__setattr__(self, "_lines", done)
        return done

    def states(self) -> list[State]:
        """Every state of the main line, from the start to the end (O(length) states;
        :meth:`replay` keeps only checkpoints)."""
        start, lines = self._checked()
        return list(_line(start, lines[0]).states)

    def final_state(self) -> State:
        """The state after the last move of the main line."""
        start, lines = self._checked()
        line = _line(start, lines[0])
        return line.state_at(len(line))

    def replay(self) -> Replay:
        """A :class:`~janus_widgets.core.replay.Replay` over every line of the record
        (each call gives a fresh cursor; the moves are checked once per record)."""
        start, lines = self._checked()
        return Replay._from_lines(start, lines)

    def view(self, seat: int | str) -> SeatRecord:
        """The main line as ``seat`` knew it: that seat's record (a seat number, or
        ``TABLE`` for what every seat has seen). It holds what the seat was told of
        every move (``.moves``) and, in a game with secrets, its view after each one;
        no seed and no hidden chance outcome. See :mod:`.seat_record` (which installs
        it)."""
        return record_keeping("view")(self, seat)

    def __len__(self) -> int:
        return len(self.moves)


# --- files and JSON (full records and seat records alike) ------------------------------
def write_atomic(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path`` whole: to ``<path>.tmp`` first, then moved into place.
    On failure the old file is kept, no ``.tmp`` file is left, and the error is raised."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return path


def read_text(path: Any) -> str:
    """The text of a record file; :class:`RecordError` says why it cannot be read."""
    try:
        path = Path(path)
    except TypeError:
        raise RecordError(f"a record is loaded from a path, not "
                          f"{type(path).__name__}") from None
    try:
        info = path.stat()
    except OSError as exc:
        raise RecordError(f"cannot read record {str(path)!r}: "
                          f"{exc.strerror or exc}") from None
    if path.is_dir():
        raise RecordError(f"cannot read record {str(path)!r}: it is a folder, not a "
                          "record file")
    if info.st_size > MAX_BYTES:
        raise RecordError(f"record {str(path)!r} is {info.st_size} bytes; the limit is "
                          f"{MAX_BYTES}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read record {str(path)!r}: "
                          f"{exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"record {str(path)!r} is not UTF-8 text") from None


def parse_json(text: Any) -> Any:
    """The JSON value of a record's text (never evaluated); :class:`RecordError` if it
    is not UTF-8, too long, not JSON or nested too deeply."""
    if isinstance(text, (bytes, bytearray, memoryview)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("the record is not UTF-8 text") from None
    if not isinstance(text, str):
        raise RecordError(f"a record is JSON text, not {type(text).__name__}")
    if len(text) > MAX_BYTES:
        raise RecordError(f"the record is {len(text)} characters; the limit is "
                          f"{MAX_BYTES}")
    try:
        return _DECODER.decode(text.lstrip("\ufeff"))
    except json.JSONDecodeError as exc:
        raise RecordError(f"the record is not valid JSON: {exc.msg} at line "
                          f"{exc.lineno}, column {exc.colno}") from None
    except RecursionError:
        raise RecordError("the record is not a game record: its JSON is nested too "
                          "deeply to read") from None


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object that names each key once (JSON leaves a repeated key to the reader:
    one reader keeps the first value, another the last, so a record must not have one)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordError(f"the record's JSON gives the key {key!r} twice in one "
                              "object; a record names each field once")
        out[key] = value
    return out


def _whole_number(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise RecordError(f"the record holds a whole number of {digits} digits; a "
                          f"record's numbers have at most {MAX_DIGITS}")
    return int(text)


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RecordError(f"the record holds the number {text[:20]!r}, too large for a "
                          "number (a record's numbers are finite)")
    return value


def _not_a_number(name: str) -> Any:
    raise RecordError(f"the record holds {name}, which JSON does not allow: a record's "
                      "numbers are finite")


#: The reader of every record: strict JSON (no repeated keys, no NaN or Infinity, no
#: number too long to read) and never evaluated.
_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_int=_whole_number,
                            parse_float=_number, parse_constant=_not_a_number)


def shared_texts(texts: Sequence[str]) -> tuple[str, ...]:
    """``texts`` as a tuple in which equal texts are one object: a long game repeats a
    few move texts, so its record keeps each once (8 bytes a move, not 50).

    >>> a, b = shared_texts(["r" + "5", "=5", "r" + "5"])[::2]
    >>> a is b
    True
    """
    memo: dict[str, str] = {}
    return tuple([memo.setdefault(t, t) for t in texts])


def source_data(source: Any) -> Any:
    """The JSON value of a record handed over as JSON text or bytes (text that starts
    with ``{``) or as a path."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return parse_json(source)
    if isinstance(source, str) and source.lstrip("\ufeff \t\r\n").startswith("{"):
        return parse_json(source)
    if isinstance(source, (str, os.PathLike)):
        return parse_json(read_text(source))
    raise RecordError(f"a record is a path, JSON text or bytes, not "
                      f"{type(source).__name__}")




def _result(state: State) -> dict[str, Any]:
    return {"ply": state.ply, "over": state.is_over,
            "winners": list(state.winners()),
            "scores": [float(s) for s in state.scores()]}


def check_header(data: Any) -> None:
    """Raise :class:`RecordError` unless ``data`` is a JSON object of this format and
    version."""
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise RecordError(f"not a janus_widgets record: 'format' is "
                          f"{data.get('format')!r}, expected {FORMAT!r}")
    version = data.get("version")
    if version != VERSION:
        raise RecordError(f"record version {version!r} is not supported; this "
                          f"janus_widgets reads version {VERSION}")


def check_game_and_variant(data: dict) -> tuple[str, dict]:
    """The record's game name and variant options, checked."""
    from .registry import games
    name = data.get("game")
    if name not in games.names():
        raise RecordError(f"record of unknown game {name!r}; the games are "
                          + ", ".join(games.names()))
    variant = data.get("variant", {})
    if not isinstance(variant, dict):
        raise RecordError(f"record 'variant' must be an object of option names and "
                          f"values, not {type(variant).__name__}")
    try:
        games.get(name).variant(variant)
    except VariantError as exc:
        raise RecordError(f"record variant: {exc}") from None
    return name, variant


def whose(seat: Any) -> str:
    """``'seat A'`` or ``'the table'`` for a record's ``seat`` field as written."""
    return "the table" if seat == "table" else f"seat {seat}"


def check_ruleset(name: str, variant: dict, stated: Any) -> str:
    """The record's ruleset name (see :func:`_ruleset`), for a checked game and variant."""
    from .registry import games
    game = games.get(name)
    return _ruleset(game, game.variant(variant), stated)


def _ruleset(game: Game, variant: Any, stated: Any) -> str:
    """The record's ruleset name: the one stated, checked against the game's rulesets and
    the record's options, or (an older record) the one its options follow."""
    follows = game.ruleset_of(variant)
    if stated is None:
        return follows
    if stated != CUSTOM:
        try:
            stated = game.ruleset(stated).name
        except VariantError as exc:
            raise RecordError(f"record ruleset: {exc} (or {CUSTOM!r})") from None
    if stated != follows:
        raise RecordError(f"the record names the ruleset {stated!r} but its options are "
                          f"those of {follows!r}: the ruleset or the options were changed")
    return stated


def _string_list(value: Any, what: str) -> list[str]:
    if not isinstance(value, list):
        raise RecordError(f"record {what} must be a list of move texts, not "
                          f"{type(value).__name__}")
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise RecordError(f"record {what}: move {i} is {item!r}, not text", index=i)
    return value


def _line(start: State, checked: tuple) -> Any:
    parent, at, actions, checkpoints, by = checked
    return Line(0, parent, at, start, actions, list(checkpoints), list(by))


def _by_list(value: Any, n: int, what: str) -> tuple[str, ...] | None:
    """A record's ``by`` (who made each of ``n`` moves), checked; None if absent."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != n:
        raise RecordError(f"record {what} must be a list of {n} entries (one per move: "
                          "who made it)")
    for i, item in enumerate(value):
        try:
            check_by(item)
        except ValueError as exc:
            raise RecordError(f"record {what}: entry {i}: {exc}", index=i) from None
    return shared_texts(value)


def _check_moves(start: State, raw: Any, texts: Sequence[str], actions: list[int],
                 checkpoints: list[Any], what: str) -> Any:
    """Play ``texts`` from ``raw`` (the position after ``actions``), proving each move
    legal; append their actions and the checkpoints reached. Returns the last raw.

    The lean path: a text already read is taken as the same action again when that
    action is legal here (its notation is fixed, see ``Engine.fixed_notation``), so a
    long game reads each distinct text once. Anything else goes through the state
    layer, whose error names the move, its index and the rule."""
    eng = start.engine
    is_legal, apply, notation = eng.is_legal, eng.apply, eng.notation
    fixed = eng.fixed_notation
    every = CHECKPOINT_EVERY
    known: dict[str, int] = {}
    index = len(actions)
    for text in texts:
        action = known.get(text)
        if action is None or not is_legal(raw, action) or (
                not fixed and notation(raw, action) != text):
            here = type(start)(eng, raw, seed=start.seed, ply=index)
            action = _play(here, text, index, what).last_move.action  # type: ignore
            if notation(raw, action) == text:
                known[text] = action
        raw = apply(raw, action)
        actions.append(action)
        index += 1
        if not index % every:
            checkpoints.append(raw)
    return raw


def _play(state: State, text: str, index: int, what: str) -> State:
    try:
        return state.play(text)
    except (IllegalMoveError, InvalidMoveError) as exc:
        raise RecordError(f"{what} {index} ({text!r}) cannot be played: {exc}",
                          index=index) from None


# The protocol's states and replays make their records here (see protocol.RECORD_KEEPING).
RECORD_KEEPING.update(record=lambda state, meta: Record.from_state(state, meta=meta),
                      read=Record.read, from_replay=Record.from_replay)

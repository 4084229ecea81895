"""Game records: JSON files that replay exactly, on any machine.

A record holds a format version, the game, the variant (every option) and the
name of the ruleset it follows (``"custom"`` if none), the seed and every move in
its notation, chance outcomes included, so replaying never depends on a random
generator. A record without a ruleset name (written before rulesets existed) loads
all the same: the name is worked out from its options. Loading checks everything and names the first bad move by
its index; a record is parsed as JSON only, never unpickled or evaluated.

Branches explored in a :class:`~janus_widgets.core.replay.Replay` are kept in
``lines``: each names the line it leaves, the ply where it leaves it, and its
own moves from there.

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
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import IllegalMoveError, InvalidMoveError, RecordError, VariantError
from .variant import CUSTOM

if TYPE_CHECKING:
    from .protocol import Game, State
    from .replay import Replay

__all__ = ["Record", "Branch", "FORMAT", "VERSION"]

FORMAT = "janus-widgets-record"
VERSION = 1
#: Refuse files larger than this (a 100,000-move Jactus game is about 1 MB).
MAX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Branch:
    """A side line: leaves line ``parent`` after ``at`` moves and plays ``moves``."""

    parent: int
    at: int
    moves: tuple[str, ...]


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
                   seed=state.seed, moves=[m.notation for m in state.history],
                   branches=tuple(branches), result=_result(state), meta=dict(meta or {}),
                   ruleset=state.game.ruleset_of(state.variant))

    # --- JSON ----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON object of the record."""
        out: dict[str, Any] = {
            "format": FORMAT, "version": VERSION, "game": self.game,
            "variant": dict(self.variant), "seed": self.seed, "moves": list(self.moves),
        }
        if self.ruleset is not None:
            out["ruleset"] = self.ruleset
        if self.branches:
            out["branches"] = [{"parent": b.parent, "at": b.at, "moves": list(b.moves)}
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
        """Write the record to ``path`` (written whole, then moved into place)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(self.to_json(), encoding="utf-8")
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Record:
        """Read and check a record file (see :meth:`from_json`)."""
        path = Path(path)
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise RecordError(f"cannot read record {str(path)!r}: {exc.strerror}") from None
        if size > MAX_BYTES:
            raise RecordError(f"record {str(path)!r} is {size} bytes; the limit is "
                              f"{MAX_BYTES}")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise RecordError(f"record {str(path)!r} is not UTF-8 text") from None
        return cls.from_json(text)

    @classmethod
    def from_json(cls, text: str | bytes) -> Record:
        """Parse and check a record; the moves are replayed to prove them legal."""
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError:
                raise RecordError("the record is not UTF-8 text") from None
        if not isinstance(text, str):
            raise RecordError(f"a record is JSON text, not {type(text).__name__}")
        if len(text) > MAX_BYTES:
            raise RecordError(f"the record is {len(text)} characters; the limit is "
                              f"{MAX_BYTES}")
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"the record is not valid JSON: {exc.msg} at line "
                              f"{exc.lineno}, column {exc.colno}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Record:
        """Check a decoded JSON object and build the record (replaying every move)."""
        rec = cls._shape(data)
        rec.replay()  # proves every move, line and the stated result
        return rec

    @classmethod
    def _shape(cls, data: Any) -> Record:
        from .. import games

        if not isinstance(data, dict):
            raise RecordError(f"a record is a JSON object, not {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a janus_widgets record: 'format' is "
                              f"{data.get('format')!r}, expected {FORMAT!r}")
        version = data.get("version")
        if version != VERSION:
            raise RecordError(f"record version {version!r} is not supported; this "
                              f"janus_widgets reads version {VERSION}")
        allowed = {"format", "version", "game", "variant", "seed", "moves", "branches",
                   "result", "meta", "ruleset"}
        extra = sorted(set(data) - allowed)
        if extra:
            raise RecordError(f"unknown record field {extra[0]!r}; the fields are "
                              + ", ".join(sorted(allowed)))
        name = data.get("game")
        if name not in games.names():
            raise RecordError(f"record of unknown game {name!r}; the games are "
                              + ", ".join(games.names()))
        game = games.get(name)
        variant = data.get("variant", {})
        try:
            variant_obj = game.variant(variant)
        except VariantError as exc:
            raise RecordError(f"record variant: {exc}") from None
        ruleset = _ruleset(game, variant_obj, data.get("ruleset"))
        seed = data.get("seed")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise RecordError(f"record seed {seed!r} is not a whole number from 0 to "
                              "2**63 - 1")
        moves = _string_list(data.get("moves"), "moves")
        branches = []
        raw_branches = data.get("branches", [])
        if not isinstance(raw_branches, list):
            raise RecordError("record 'branches' must be a list")
        for k, b in enumerate(raw_branches, start=1):
            if not isinstance(b, dict) or set(b) != {"parent", "at", "moves"}:
                raise RecordError(f"branch {k} must have exactly 'parent', 'at' and "
                                  "'moves'")
            parent, at = b["parent"], b["at"]
            if isinstance(parent, bool) or not isinstance(parent, int) or not 0 <= parent < k:
                raise RecordError(f"branch {k}: parent {parent!r} must name an earlier "
                                  f"line (0 … {k - 1})")
            if isinstance(at, bool) or not isinstance(at, int) or at < 0:
                raise RecordError(f"branch {k}: 'at' must be a move count, not {at!r}")
            branches.append(Branch(parent, at, tuple(_string_list(b["moves"],
                                                                  f"branch {k} moves"))))
        result = data.get("result")
        if result is not None and not isinstance(result, dict):
            raise RecordError("record 'result' must be an object")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("record 'meta' must be an object")
        return cls(game=name, variant=dict(variant), seed=seed, moves=tuple(moves),
                   branches=tuple(branches), result=result, meta=meta, ruleset=ruleset)

    # --- replaying -----------------------------------------------------------
    @property
    def game_obj(self) -> Game:
        """The registered game of this record."""
        from .. import games
        return games.get(self.game)

    def start_state(self) -> State:
        """The state before the first move."""
        return self.game_obj.new(self.variant, seed=self.seed)

    def states(self) -> list[State]:
        """Every state of the main line, from the start to the end."""
        states = [self.start_state()]
        for index, text in enumerate(self.moves):
            states.append(_play(states[-1], text, index, "move"))
        return states

    def final_state(self) -> State:
        """The state after the last move of the main line."""
        state = self.start_state()
        for index, text in enumerate(self.moves):
            state = _play(state, text, index, "move")
        return state

    def replay(self) -> Replay:
        """A :class:`~janus_widgets.core.replay.Replay` over every line of the record."""
        from .replay import Replay
        replay = Replay.from_states(self.states())
        final = replay.lines[0].states[-1]
        if self.result is not None:
            expected = _result(final)
            if {k: self.result.get(k) for k in expected} != expected:
                raise RecordError(
                    f"the record states the result {dict(self.result)} but replaying "
                    f"its moves gives {expected}: the moves or the result were changed")
        for k, b in enumerate(self.branches, start=1):
            parent = replay.lines[b.parent]
            if b.at > len(parent.moves):
                raise RecordError(f"branch {k} leaves line {b.parent} after move {b.at}, "
                                  f"but that line has only {len(parent.moves)} moves")
            state = parent.states[b.at]
            states = list(parent.states[:b.at + 1])
            for j, text in enumerate(b.moves):
                state = _play(state, text, b.at + j, f"branch {k} move")
                states.append(state)
            replay._add_line(parent=b.parent, at=b.at, states=states)
        return replay

    def view(self, player: int | None) -> list[str]:
        """The main line as ``player`` saw it: secrets of other seats left out."""
        return self.final_state().history_for(player)

    def __len__(self) -> int:
        return len(self.moves)


def _result(state: State) -> dict[str, Any]:
    return {"ply": state.ply, "over": state.is_over,
            "winners": list(state.winners()),
            "scores": [float(s) for s in state.scores()]}


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


def _play(state: State, text: str, index: int, what: str) -> State:
    try:
        return state.play(text)
    except (IllegalMoveError, InvalidMoveError) as exc:
        raise RecordError(f"{what} {index} ({text!r}) cannot be played: {exc}",
                          index=index) from None

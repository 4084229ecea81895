"""A replay cursor over a game and its branches.

A line of play is kept as its action numbers from the start plus a *checkpoint* (the
engine's raw state) every :data:`CHECKPOINT_EVERY` moves, not as one state per move:
a record of a million moves loads in seconds and a few tens of megabytes. Going to
any move is a lookup of the checkpoint before it and at most ``CHECKPOINT_EVERY - 1``
engine steps from there (O(1) in the length of the game); a step forward from the
cursor is one engine step. Playing a move anywhere but at the end of the line makes a
new line that branches off; the old line is kept and :meth:`Replay.switch` returns to
it.

>>> from janus_widgets import games
>>> replay = Replay(games.get("jactus").new(seed=2))
>>> _ = replay.play("r*"); _ = replay.play("=12346"); _ = replay.play("r1")
>>> replay.index, replay.length
(3, 3)
>>> _ = replay.goto(2)               # back to B's choice
>>> _ = replay.play("r6")            # a different pick-up: a new line
>>> replay.line, len(replay.lines)
(1, 2)
>>> [str(m) for m in replay.moves]
['r*', '=12346', 'r6']
>>> _ = replay.switch(0)             # the first line is still there
>>> [str(m) for m in replay.moves]
['r*', '=12346', 'r1']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from .protocol import Move, Prefix, Raw, State, _make_move, record_keeping

if TYPE_CHECKING:
    from .record import Record

__all__ = ["Replay", "Line", "CHECKPOINT_EVERY", "HUMAN", "CHANCE_BY", "UNKNOWN", "bot_by",
           "check_by", "cursor_index"]

#: Moves between two checkpoints of a line (the raw state is kept at plies 0, k, 2k …).
CHECKPOINT_EVERY = 64

#: Who made a move, as a line (and a record's ``"by"``) keeps it: a person at the screen
#: or at a notebook cell, chance, a bot (``"bot:greedy"``: :func:`bot_by`), or not known
#: (a record written before records kept it).
HUMAN = "human"
CHANCE_BY = "chance"
UNKNOWN = ""
#: Longest "by" text a record may hold.
MAX_BY = 80


def bot_by(label: str) -> str:
    """The "by" of a move a bot made: ``bot_by("greedy") == "bot:greedy"``."""
    return f"bot:{label}"


def cursor_index(index: object, n: int, where: str = "this line") -> int:
    """A move index for a cursor over ``n`` moves (negative counts from the end), or
    ``TypeError`` / ``IndexError`` saying what is allowed.

    >>> cursor_index(-1, 5), cursor_index(0, 5)
    (5, 0)
    """
    if isinstance(index, bool) or not isinstance(index, int):
        raise TypeError(f"index must be a whole number, not {index!r}")
    if index < 0:
        index += n + 1
    if not 0 <= index <= n:
        raise IndexError(f"move index {index} is outside {where}: use 0 … {n}")
    return index


def check_by(value: object) -> str:
    """``value`` if it is a "by" a record may hold, else ``ValueError`` saying what is.

    >>> check_by("bot:mcts:200"), check_by("")
    ('bot:mcts:200', '')
    """
    if isinstance(value, str) and len(value) <= MAX_BY and (
            value in (HUMAN, CHANCE_BY, UNKNOWN) or value.startswith("bot:")):
        return value
    raise ValueError(f"who made a move is 'human', 'chance', 'bot:<name>' (at most "
                     f"{MAX_BY} characters) or '' (not known), not {value!r}")


class Line:
    """One line of play: its actions from the start, with checkpoints.

    ``parent`` is the line it branches off (``None`` for the main line) after ``at``
    moves; its first ``at`` actions are the parent's. ``actions`` is only ever
    appended to in place (states made from it keep a :class:`Prefix` of it); cutting
    it makes a new list.
    """

    def __init__(self, id: int, parent: int | None, at: int, start: State,
                 actions: list[int] | None = None,
                 checkpoints: list[Raw] | None = None,
                 by: list[str] | None = None) -> None:
        self.id = id
        self.parent = parent
        self.at = at
        self.start = start
        self.actions: list[int] = [] if actions is None else actions
        #: Who made each move (:data:`HUMAN`, :data:`CHANCE_BY`, ``"bot:…"`` or
        #: :data:`UNKNOWN`), one per action.
        self.by: list[str] = [UNKNOWN] * len(self.actions) if by is None else by
        if len(self.by) != len(self.actions):
            raise ValueError(f"a line of {len(self.actions)} moves needs as many 'by', "
                             f"not {len(self.by)}")
        self._checkpoints: list[Raw] = [start.raw] if checkpoints is None else checkpoints
        self._fill_checkpoints()

    def _fill_checkpoints(self) -> None:
        """Add the checkpoints the actions reach that are not kept yet."""
        k = CHECKPOINT_EVERY
        want = len(self.actions) // k + 1
        if len(self._checkpoints) >= want:
            del self._checkpoints[want:]
            return
        eng = self.start.engine
        ply = (len(self._checkpoints) - 1) * k
        raw = self._checkpoints[-1]
        for i in range(ply, (want - 1) * k):
            raw = eng.apply(raw, self.actions[i])
            if (i + 1) % k == 0:
                self._checkpoints.append(raw)

    def __len__(self) -> int:
        return len(self.actions)

    # --- reading -------------------------------------------------------------
    def raw_at(self, index: int) -> Raw:
        """The engine's raw state after ``index`` moves (``0 … len(self)``)."""
        k = CHECKPOINT_EVERY
        base = index // k
        raw = self._checkpoints[base]
        apply = self.start.engine.apply
        for action in self.actions[base * k:index]:
            raw = apply(raw, action)
        return raw

    def raws(self, lo: int, hi: int) -> Iterator[Raw]:
        """The raw states after ``lo``, ``lo + 1`` … ``hi`` moves, rolled forward from
        one checkpoint (what a move log around the cursor needs)."""
        raw = self.raw_at(lo)
        yield raw
        apply = self.start.engine.apply
        for action in self.actions[lo:hi]:
            raw = apply(raw, action)
            yield raw

    def state_at(self, index: int) -> State:
        """The state after ``index`` moves: its history is a :class:`Prefix` of this
        line, made into moves only if asked for."""
        if index == 0:
            return self.start
        start = self.start
        before = self.raw_at(index - 1)
        eng = start.engine
        action = self.actions[index - 1]
        last = _make_move(eng, before, action)
        return type(start)(eng, eng.apply(before, action), seed=start.seed,
                           ply=start.ply + index, trail=Prefix(self.actions, index, last),
                           start=start)

    @property
    def states(self) -> _States:
        """Every state of the line, start first (a sequence made on demand)."""
        return _States(self)

    @property
    def moves(self) -> list[Move]:
        """The moves of this line from the start (made now: O(length))."""
        eng = self.start.engine
        out = []
        for raw, action in zip(self.raws(0, len(self.actions)), self.actions):
            out.append(_make_move(eng, raw, action))
        return out

    def notations(self, lo: int = 0) -> list[str]:
        """The notation of the moves from move ``lo`` on (what a record holds)."""
        eng = self.start.engine
        if eng.fixed_notation:
            raw = self.start.raw
            return [eng.notation(raw, a) for a in self.actions[lo:]]
        return [eng.notation(raw, a)
                for raw, a in zip(self.raws(lo, len(self.actions)), self.actions[lo:])]

    # --- changing (the replay does it) ---------------------------------------
    def _append(self, action: int, raw_after: Raw, by: str = UNKNOWN) -> None:
        self.actions.append(action)
        self.by.append(by)
        if len(self.actions) % CHECKPOINT_EVERY == 0:
            self._checkpoints.append(raw_after)

    def _branch(self, id: int, at: int) -> Line:
        """A new line with this line's first ``at`` moves."""
        return Line(id, self.id, at, self.start, self.actions[:at],
                    self._checkpoints[:at // CHECKPOINT_EVERY + 1], self.by[:at])

    def _cut(self, index: int) -> None:
        self.actions = self.actions[:index]
        self.by = self.by[:index]
        del self._checkpoints[index // CHECKPOINT_EVERY + 1:]

    def __repr__(self) -> str:
        return f"<Line {self.id}: {len(self)} moves, from line {self.parent} at {self.at}>"


class _States(Sequence[State]):
    """The states of a line as a read-only sequence, each made when it is read."""

    def __init__(self, line: Line) -> None:
        self._line = line

    def __len__(self) -> int:
        return len(self._line) + 1

    @overload
    def __getitem__(self, index: int) -> State: ...
    @overload
    def __getitem__(self, index: slice) -> list[State]: ...

    def __getitem__(self, index: Any) -> Any:
        n = len(self)
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(n))]
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"state index {index} is outside 0 … {n - 1}")
        return self._line.state_at(index)

    def __iter__(self) -> Iterator[State]:
        state = self._line.start
        yield state
        for action in list(self._line.actions):
            state = state._child(action)
            yield state


class Replay:
    """Step through a game and its branches; each step is O(1) in the game's length."""

    def __init__(self, start: State) -> None:
        self.lines: list[Line] = [Line(0, None, 0, start)]
        self._line = 0
        self._index = 0
        self._state: State | None = start        # the state at the cursor, once made

    @classmethod
    def from_states(cls, states: Sequence[State]) -> Replay:
        """A replay over a main line given as its states (start first)."""
        replay = cls(states[0])
        line = replay.lines[0]
        line.actions = [s.last_move.action for s in states[1:]]  # type: ignore[union-attr]
        line.by = [UNKNOWN] * len(line.actions)
        line._fill_checkpoints()
        return replay

    @classmethod
    def from_record(cls, record: Record) -> Replay:
        """A replay over a record's main line and branches (checks every move)."""
        return record.replay()

    @classmethod
    def _from_lines(cls, start: State, lines: Sequence[tuple[int | None, int, list[int],
                                                             list[Raw], list[str]]]) -> Replay:
        """A replay over checked lines: ``(parent, at, actions, checkpoints, by)`` each
        (what :class:`~janus_widgets.core.record.Record` keeps after checking)."""
        replay = cls(start)
        replay.lines = [Line(i, parent, at, start, list(actions), list(checkpoints), list(by))
                        for i, (parent, at, actions, checkpoints, by) in enumerate(lines)]
        return replay

    def _add_line(self, line: Line) -> Line:
        self.lines.append(line)
        return line

    # --- where we are ----------------------------------------------------
    @property
    def line(self) -> int:
        """The id of the current line (0 is the main line)."""
        return self._line

    @property
    def index(self) -> int:
        """How many moves of the current line are played at the cursor."""
        return self._index

    @property
    def length(self) -> int:
        """Number of moves in the current line."""
        return len(self.lines[self._line])

    @property
    def current_line(self) -> Line:
        """The :class:`Line` the cursor is on."""
        return self.lines[self._line]

    @property
    def state(self) -> State:
        """The state at the cursor."""
        if self._state is None:
            self._state = self.lines[self._line].state_at(self._index)
        return self._state

    @property
    def states(self) -> _States:
        """Every state of the current line (made on demand)."""
        return self.lines[self._line].states

    @property
    def moves(self) -> list[Move]:
        """The moves of the current line (made now: O(length))."""
        return self.lines[self._line].moves

    @property
    def actions(self) -> list[int]:
        """The action numbers of the current line (do not change the list)."""
        return self.lines[self._line].actions

    @property
    def at_end(self) -> bool:
        """Whether the cursor is after the last move of the line."""
        return self._index == self.length

    # --- moving the cursor -----------------------------------------------
    def goto(self, index: int) -> State:
        """Go to the state after ``index`` moves (negative counts from the end)."""
        index = cursor_index(index, self.length)
        here = self._state
        if here is not None and index == self._index + 1:
            self._state = here._child(self.lines[self._line].actions[self._index])
        elif index != self._index:
            self._state = None
        self._index = index
        return self.state

    def first(self) -> State:
        """Go to the start."""
        return self.goto(0)

    def last(self) -> State:
        """Go to the end of the line."""
        return self.goto(self.length)

    def forward(self) -> State:
        """One move forward (stays at the end)."""
        return self.goto(min(self._index + 1, self.length))

    def back(self) -> State:
        """One move back (stays at the start)."""
        return self.goto(max(self._index - 1, 0))

    def switch(self, line: int, index: int | None = None) -> State:
        """Go to another line, at ``index`` (default: the same move number, or
        its end if it is shorter)."""
        if isinstance(line, bool) or not isinstance(line, int) or not 0 <= line < len(self.lines):
            raise IndexError(f"there is no line {line!r}: lines are 0 … "
                             f"{len(self.lines) - 1}")
        if index is not None:
            n = len(self.lines[line])
            if isinstance(index, bool) or not isinstance(index, int):
                raise TypeError(f"index must be a whole number, not {index!r}")
            if not -n - 1 <= index <= n:
                raise IndexError(f"move index {index} is outside line {line}: use 0 … {n}")
        if line != self._line:
            self._line = line
            self._index = min(self._index, self.length)
            self._state = None
        if index is None:
            return self.state
        return self.goto(index)

    # --- playing ------------------------------------------------------------
    def play(self, move: Move | str, by: str = UNKNOWN) -> State:
        """Play at the cursor: follow the line, extend it, or branch off.

        If the next move of the line is this move, the cursor just moves on (the line
        keeps who made it first). If a line already branches here with this move, the
        cursor goes there. Otherwise a new line is made; nothing is lost. ``by`` says who
        makes the move (:data:`HUMAN`, ``bot_by("greedy")``, :data:`CHANCE_BY`).
        """
        check_by(by)
        here = self.state
        new_state = here.play(move)  # raises for an illegal move; nothing changes
        action = new_state.last_move.action  # type: ignore[union-attr]
        i = self._index
        current = self.lines[self._line]
        if i < len(current) and current.actions[i] == action:
            self._index, self._state = i + 1, new_state
            return new_state
        if i == len(current):
            current._append(action, new_state.raw, by)
            self._index, self._state = i + 1, new_state
            return new_state
        prefix = current.actions[:i]
        for other in self.lines:
            if (len(other) > i and other.actions[i] == action
                    and other.actions[:i] == prefix):
                self._line, self._index, self._state = other.id, i + 1, new_state
                return new_state
        line = self._add_line(current._branch(len(self.lines), i))
        line._append(action, new_state.raw, by)
        self._line, self._index, self._state = line.id, i + 1, new_state
        return new_state

    def truncate(self) -> None:
        """Drop the moves after the cursor in the current line (only if no branch
        leaves from them)."""
        current = self.lines[self._line]
        for other in self.lines:
            if other.parent == current.id and other.at >= self._index:
                raise ValueError(f"line {other.id} branches off after move {other.at}; "
                                 "truncating would orphan it")
        current._cut(self._index)

    # --- saving ---------------------------------------------------------
    def record(self, **meta: object) -> Record:
        """A record of every line (the main line, then each branch):
        :meth:`Record.from_replay <janus_widgets.core.record.Record.from_replay>`."""
        return record_keeping("from_replay")(self, meta)

    def __repr__(self) -> str:
        return (f"<Replay line {self._line} of {len(self.lines)}, move "
                f"{self._index}/{self.length}>")

"""A replay cursor over a game and its branches.

Every state of every line is kept, so going to the first, previous, next or
last move, or to any index, is one list lookup. Playing a move anywhere but at
the end of the line makes a new line that branches off; the old line is kept
and :meth:`Replay.switch` returns to it.

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

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .protocol import Move, State

if TYPE_CHECKING:
    from .record import Record

__all__ = ["Replay", "Line"]


@dataclass
class Line:
    """One line of play: its states from the start (shared with its parent)."""

    id: int
    parent: int | None
    at: int
    states: list[State] = field(default_factory=list)

    @property
    def moves(self) -> list[Move]:
        """The moves of this line from the start."""
        return [s.last_move for s in self.states[1:]]  # type: ignore[misc]

    def __len__(self) -> int:
        return len(self.states) - 1


class Replay:
    """Step through a game and its branches; each step is O(1)."""

    def __init__(self, start: State) -> None:
        self.lines: list[Line] = [Line(0, None, 0, [start])]
        self._line = 0
        self._index = 0

    @classmethod
    def from_states(cls, states: Sequence[State]) -> Replay:
        """A replay over a main line given as its states (start first)."""
        replay = cls(states[0])
        replay.lines[0].states = list(states)
        return replay

    @classmethod
    def from_record(cls, record: Record) -> Replay:
        """A replay over a record's main line and branches (checks every move)."""
        return record.replay()

    def _add_line(self, *, parent: int, at: int, states: list[State]) -> Line:
        line = Line(len(self.lines), parent, at, states)
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
    def state(self) -> State:
        """The state at the cursor."""
        return self.lines[self._line].states[self._index]

    @property
    def states(self) -> list[State]:
        """Every state of the current line."""
        return self.lines[self._line].states

    @property
    def moves(self) -> list[Move]:
        """The moves of the current line."""
        return self.lines[self._line].moves

    @property
    def at_end(self) -> bool:
        """Whether the cursor is after the last move of the line."""
        return self._index == self.length

    # --- moving the cursor -----------------------------------------------
    def goto(self, index: int) -> State:
        """Go to the state after ``index`` moves (negative counts from the end)."""
        n = self.length
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"index must be a whole number, not {index!r}")
        if index < 0:
            index += n + 1
        if not 0 <= index <= n:
            raise IndexError(f"move index {index} is outside this line: use 0 … {n}")
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
        self._line = line
        if index is None:
            self._index = min(self._index, self.length)
            return self.state
        return self.goto(index)

    # --- playing ------------------------------------------------------------
    def play(self, move: Move | str) -> State:
        """Play at the cursor: follow the line, extend it, or branch off.

        If the next move of the line is this move, the cursor just moves on.
        If a line already branches here with this move, the cursor goes there.
        Otherwise a new line is made; nothing is lost.
        """
        here = self.state
        new_state = here.play(move)  # raises for an illegal move; nothing changes
        played = new_state.last_move
        i = self._index
        current = self.lines[self._line]
        if i < len(current) and current.states[i + 1].last_move == played:
            self._index = i + 1
            return self.state
        if i == len(current):
            current.states.append(new_state)
            self._index = i + 1
            return new_state
        for other in self.lines:
            if (len(other) > i and other.states[i] is here
                    and other.states[i + 1].last_move == played):
                self._line, self._index = other.id, i + 1
                return self.state
        line = self._add_line(parent=self._line, at=i,
                              states=current.states[:i + 1] + [new_state])
        self._line, self._index = line.id, i + 1
        return new_state

    def truncate(self) -> None:
        """Drop the moves after the cursor in the current line (only if no branch
        leaves from them)."""
        current = self.lines[self._line]
        for other in self.lines:
            if other.parent == current.id and other.at >= self._index:
                raise ValueError(f"line {other.id} branches off after move {other.at}; "
                                 "truncating would orphan it")
        del current.states[self._index + 1:]

    # --- saving ---------------------------------------------------------
    def record(self, **meta: object) -> Record:
        """A record of every line (the main line, then each branch)."""
        from .record import Branch, Record
        main = self.lines[0].states[-1]
        branches = tuple(Branch(l.parent, l.at, tuple(m.notation for m in l.moves[l.at:]))
                         for l in self.lines[1:] if l.parent is not None)
        return Record.from_state(main, meta=meta, branches=branches)

    def __repr__(self) -> str:
        return (f"<Replay line {self._line} of {len(self.lines)}, move "
                f"{self._index}/{self.length}>")

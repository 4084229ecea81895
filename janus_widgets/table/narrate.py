"""What a viewer is told of the moves: the log's entries, the last move, the status facts.

One set of functions for every kind of table, so that a screen passed round, a seat's
page, a loaded seat's record and a seat of the table server read every move the same
way. They take a :class:`Told` per move (who moved, who made it, and the words the
viewer may know) and never a raw state, so the same text comes from the truth on a
local table and from what the server sent on a seat's page.

>>> moves = [Told(0, "human", "r*"), Told(CHANCE, "chance", "threw 1 2 3 4 6"),
...          Told(1, "bot:greedy", "r1")]
>>> last_move(moves, 3)
'B (bot) played r1.'
>>> last_move(moves, 2)
'A played r*; then chance: threw 1 2 3 4 6.'
>>> log_entries(moves)
[('1. A r*', 1), ('2. chance threw 1 2 3 4 6', 2), ('3. B (bot) r1', 3)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core.protocol import CHANCE, TABLE, TERMINAL, seat_name

__all__ = ["Told", "Facts", "mover", "last_move", "log_entries", "is_bot", "sentence"]


@dataclass(frozen=True)
class Told:
    """One move as a viewer may know it: the seat that moved (or ``CHANCE``), who made
    the move (``"human"``, ``"chance"``, ``"bot:…"`` or ``""``), the viewer's words for
    it and, for a move every seat learns alike, the sentence that says what it did."""

    seat: int
    by: str
    words: str
    sentence: str = ""


def sentence(engine: Any, raw: Any, action: int, viewer: Any = TABLE) -> str:
    """The sentence that says what a move did, as ``viewer`` may know it (the seat, the
    table or ``None``, the teacher): ``Engine.describe`` in a game without secrets; in a
    game with secrets ``Engine.told_sentence`` of the viewer's view before the move and
    what it was told of it, so that a seat's record, which keeps only those, says the
    same. Every move has one, chance included.

    >>> from janus_widgets import games
    >>> state = games.get("jactus").new(seed=1)
    >>> sentence(state.engine, state.raw, state.legal_moves()[-1].action)
    'Throw all five dice to open the round.'
    >>> cards = games.get("janus-cards").new(players=3, seed=4)
    >>> deal = cards.sample_chance().action      # A looks at both sides (JC-5)
    >>> sentence(cards.engine, cards.raw, deal, 0)
    'Chance dealt A a card, bell towards A and wave on its back.'
    >>> sentence(cards.engine, cards.raw, deal, 1)
    'Chance dealt A a card, wave on its back.'
    """
    if not engine.has_secrets:
        return engine.describe(raw, action)
    before = engine.view(engine.game.State(engine, raw, seed=0), viewer)
    return engine.told_sentence(before, engine.observed(raw, action, viewer))


def is_bot(by: str) -> bool:
    """Whether a move's "by" names a bot."""
    return by.startswith("bot:")


def mover(seat: int, by: str) -> str:
    """Who made a move, as the log writes it: ``"B"``, ``"B (bot)"``, ``"chance"``.

    A bot is named from the move's own "by" (what the record keeps), never from who
    plays the seat now.

    >>> mover(1, "bot:greedy"), mover(0, "human"), mover(CHANCE, "chance"), mover(2, "")
    ('B (bot)', 'A', 'chance', 'C')
    """
    if seat == CHANCE:
        return "chance"
    return seat_name(seat) + (" (bot)" if is_bot(by) else "")


def log_entries(moves: Sequence[Told], first: int = 0) -> list[tuple[str, int]]:
    """``("<n>. <mover> <words>", n)`` for each move, ``moves[k]`` being move
    ``first + k`` of the line (so ``n = first + k + 1``)."""
    return [(f"{first + k + 1}. {mover(m.seat, m.by)} {m.words}", first + k + 1)
            for k, m in enumerate(moves)]


def last_move(moves: Sequence[Told], index: int, first: int = 0) -> str:
    """The move that led to the position after ``index`` moves: the last decision and
    the chance that followed it (up to four chance moves, then "…"). ``moves[k]`` is
    move ``first + k`` (a window of the last few moves is enough)."""
    i = index
    chance: list[str] = []
    while i > first and moves[i - 1 - first].seat == CHANCE:
        chance.append(moves[i - 1 - first].words)
        i -= 1
        if len(chance) == 4:
            break
    chance.reverse()
    if len(chance) == 4:
        chance[0] = "…"
    then = ", ".join(chance)
    if i == first or moves[i - 1 - first].seat == CHANCE:
        return f"Chance: {then}." if chance else ""
    told = moves[i - 1 - first]
    said = f"{mover(told.seat, told.by)} played {told.words}"
    if told.sentence:
        said += f": {told.sentence.rstrip('.')}"
    return said + (f"; then chance: {then}." if chance else ".")


@dataclass(frozen=True)
class Facts:
    """What the status line states about the position a viewer is shown, every field
    computed from the record (never from what the screen did before).

    ``turn`` is the seat to move, ``CHANCE`` or ``TERMINAL``; ``turn_by`` who plays it
    now (``"human"`` or ``"bot:…"``); ``outcome`` who won and why (at the end);
    ``record_of`` whose seat's record is shown (``""``: the game itself); ``note`` a
    standing fact (a bot that waits, and why); ``stopped`` why play is stopped (a
    paused or ended table), ``""`` while it goes on.

    >>> Facts(3, 3, 0, 1, 1, "human", (0, 0), "", stopped="the teacher ended this "
    ...       "table").turn_text
    'Play stopped: the teacher ended this table'
    >>> Facts(2, 3, 0, 1, 1, "human", (0, 0), "", stopped="x").turn_text  # the past
    'B to move (human)'
    """

    index: int
    length: int
    line: int
    lines: int
    turn: int
    turn_by: str
    scores: tuple[float, ...]
    last: str
    outcome: str = ""
    note: str = ""
    record_of: str = ""
    stopped: str = ""

    @property
    def stopped_now(self) -> bool:
        """Play is stopped at the position shown: the present, not over (nobody is to
        move there, whatever the rules say: a stale "B to move" beside "this table has
        ended")."""
        return bool(self.stopped) and self.index == self.length and self.turn != TERMINAL

    @property
    def where(self) -> str:
        """``"move 3/7"``, with the line when there are several, and whose record."""
        where = f"move {self.index}/{self.length}"
        if self.lines > 1:
            where += f", line {self.line}"
        if self.record_of:
            where = f"{self.record_of}'s record (step through it; not playable) · {where}"
        return where

    @property
    def turn_text(self) -> str:
        """``"B to move (bot)"``, ``"chance to act (▶ step)"``, ``"Game over: A wins"``."""
        if self.turn == TERMINAL:
            return f"Game over: {self.outcome}"
        if self.stopped_now and not self.record_of:
            return f"Play stopped: {self.stopped}"
        if self.record_of:                  # a record is stepped through, not played
            return ("chance's move comes next in the record" if self.turn == CHANCE
                    else f"{seat_name(self.turn)}'s move comes next in the record")
        if self.turn == CHANCE:
            return "chance to act (▶ step)"
        return f"{seat_name(self.turn)} to move ({'bot' if is_bot(self.turn_by) else 'human'})"

    @property
    def scores_text(self) -> str:
        return " · ".join(f"{seat_name(p)} {s:g}" for p, s in enumerate(self.scores))

"""How the Jinns repetition end (JI-20) changes games: the measurement behind its default.

The rulebook has no repetition end: a game ends only when every player must pass
(JI-19), and some games then never end. JI-20 ends a game, scored as it stands, when
a position comes back ``repetition_limit`` times. For each limit this plays seeded
random games; every game that ends by repetition is played again under the rule
off (the same moves, which the rule off allows just the same) and then on at random
until the rulebook's own end or a cap. It counts how many of those would have
reached the rulebook's end, and how many with another winner. The smallest limit
whose repetition endings give another winner in under 1% of them, while every game
still ends, is the one to choose (seeds/jinns.md shows the table).

>>> study = repetition_study(limits=(3, 20), games=60, seed=1)
>>> [row.limit for row in study.rows]
[3, 20]
>>> all(row.other_winner <= row.reached <= row.repetitions <= row.games
...     for row in study.rows)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.protocol import CHANCE, TERMINAL, Engine
from ..core.rng import RandomStream

__all__ = ["RepetitionRow", "RepetitionStudy", "repetition_study"]


@dataclass(frozen=True)
class RepetitionRow:
    """One limit's figures (counts of games)."""

    limit: int
    games: int
    repetitions: int       # games ended by repetition
    reached: int           # ... of which, continued with the rule off, reach the JI-19 end
    other_winner: int      # ... and end there with another winner
    unfinished: int        # games that did not end within the cap (with the rule on)
    mean_plies: float

    @property
    def other_share(self) -> float:
        """Games with another winner as a share of the repetition endings."""
        return self.other_winner / self.repetitions if self.repetitions else 0.0

    @property
    def acceptable(self) -> bool:
        """Under 1% of repetition endings with another winner, and every game ended."""
        return self.other_share < 0.01 and self.unfinished == 0


@dataclass(frozen=True)
class RepetitionStudy:
    """The table of :func:`repetition_study` and the limit it chooses."""

    rows: tuple[RepetitionRow, ...]
    players: int
    seed: int
    max_plies: int

    @property
    def chosen(self) -> int | None:
        """The smallest acceptable limit (None if no limit measured is)."""
        for row in self.rows:
            if row.acceptable:
                return row.limit
        return None

    def table(self) -> str:
        """The figures as a Markdown table."""
        lines = ["| limit | games | end by repetition | continued, reach the rulebook's "
                 "end | ... with another winner | another winner, share of repetition "
                 "endings | not ended | mean plies |",
                 "|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in self.rows:
            share = 100 * r.repetitions / r.games if r.games else 0.0
            lines.append(f"| {r.limit} | {r.games} | {r.repetitions} ({share:.1f}%) | "
                         f"{r.reached} | {r.other_winner} | {100 * r.other_share:.1f}% | "
                         f"{r.unfinished} | {r.mean_plies:.1f} |")
        return "\n".join(lines)

    def __str__(self) -> str:
        chosen = self.chosen
        verdict = (f"smallest limit with another winner in under 1% of repetition endings "
                   f"and every game ended: {chosen}" if chosen is not None else
                   "no limit measured has under 1% of repetition endings with another winner")
        return (f"Jinns of the Lake, {self.players} players, random play, seed {self.seed}, "
                f"cap {self.max_plies} plies\n{self.table()}\n{verdict}")


def _play(engine: Engine, stream: RandomStream, max_plies: int,
          raw: object = None) -> tuple[object, list[int]]:
    """Random play (seeded chance included) from ``raw`` to the end or the cap."""
    raw = engine.initial() if raw is None else raw
    actions: list[int] = []
    for _ in range(max_plies):
        who = engine.current(raw)
        if who == TERMINAL:
            break
        if who == CHANCE:
            action = engine.sample(raw, stream)
        else:
            legal = engine.actions(raw)
            action = legal[stream.below(len(legal))]
        actions.append(action)
        raw = engine.apply(raw, action)
    return raw, actions


def repetition_study(limits: Sequence[int] = (3, 5, 10, 20), *, games: int = 20_000,
                     seed: int = 0, players: int = 2, max_plies: int = 20_000,
                     **options: object) -> RepetitionStudy:
    """Measure each repetition limit on ``games`` seeded random games (the same games
    for every limit: game ``i`` draws from the seed ``(seed, i)``)."""
    from .. import games as registry

    jinns = registry.get("jinns")
    rule_off = jinns.engine(jinns.variant(players=players, repetition_limit=0, **options))
    rows = []
    for limit in limits:
        engine = jinns.engine(jinns.variant(players=players, repetition_limit=limit,
                                            **options))
        repetitions = reached = other = unfinished = plies = 0
        for i in range(games):
            stream = RandomStream(np.random.default_rng([seed, i]))
            raw, actions = _play(engine, stream, max_plies)
            plies += len(actions)
            if engine.current(raw) != TERMINAL:
                unfinished += 1
                continue
            if jinns.State(engine, raw, seed=0).end_reason != "repetition":
                continue
            repetitions += 1
            off = rule_off.initial()
            for action in actions:              # the same game, the rule off
                off = rule_off.apply(off, action)
            more = RandomStream(np.random.default_rng([seed, i, limit]))
            off, _ = _play(rule_off, more, max_plies, off)
            if rule_off.current(off) == TERMINAL:
                reached += 1
                if rule_off.winners(off) != engine.winners(raw):
                    other += 1
        rows.append(RepetitionRow(limit, games, repetitions, reached, other, unfinished,
                                  plies / games if games else 0.0))
    return RepetitionStudy(tuple(rows), players, seed, max_plies)

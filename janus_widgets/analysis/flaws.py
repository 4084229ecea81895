"""The flaw finder: rules that let a game go on for ever, goals nobody reaches, a
first seat that wins too often, games far longer than the box says.

:func:`find_flaws` plays the game three ways and reads what it sees:

* **endless** — every seat plays the *staller* (:class:`StallerBot`), a probe of the
  rules rather than a player: it reads the whole state and, at every decision,
  takes a move after which the game cannot end at once (checked over the chance
  outcomes that follow), preferring one that returns to a position seen before.
  If the rules let the players go round a cycle of positions for ever, the staller
  finds it: its games reach the cap with positions coming back again and again.
* **unreachable-goal** and **first-player** — a tournament of greedy bots (and of
  random ones): nobody, or some seat, never wins; seat A's advantage over the
  decisive games has a 95% interval that excludes 0.
* **long** — the greedy games' median length in turns, at the lab's
  ``seconds_per_turn``, against the playing time the box states
  (:attr:`janus_widgets.core.protocol.Game.playing_time`).

>>> report = find_flaws("jinns", repetition_limit=0, games=40, stall_games=2)
>>> [flaw.kind for flaw in report]
['endless', 'first-player']
>>> print(report[0].evidence.split(":")[0])
found with adversarial play (every seat the staller)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from .. import games as registry
from ..core.protocol import CHANCE, TERMINAL, Engine, Game, Raw
from ..core.rng import RandomStream
from .tournament import TournamentResult, run_tournament

__all__ = ["Flaw", "FlawReport", "find_flaws", "StallerBot", "stall_game", "StallResult"]

#: The severities, worst first.
SEVERITIES = ("high", "medium", "low")


@dataclass(frozen=True)
class Flaw:
    """A design flaw: what kind, the evidence (saying how it was found), how bad."""

    kind: str        #: "endless", "unreachable-goal", "first-player" or "long"
    evidence: str
    severity: str    #: "high", "medium" or "low"

    def __str__(self) -> str:
        return f"{self.kind} ({self.severity}): {self.evidence}"


class FlawReport(list):
    """The flaws found (a list of :class:`Flaw`, worst first), with every check made."""

    def __init__(self, title: str, flaws: Sequence[Flaw], checks: Sequence[str]) -> None:
        super().__init__(sorted(flaws, key=lambda f: SEVERITIES.index(f.severity)))
        self.title = title
        #: One line per check, flaw or not, saying what was played and seen.
        self.checks = list(checks)

    def kinds(self) -> list[str]:
        """The kinds of flaw found."""
        return [flaw.kind for flaw in self]

    def __str__(self) -> str:
        head = f"{self.title}: " + (f"{len(self)} flaw(s)" if self else "no flaw found")
        return "\n".join([head, *(f"  {flaw}" for flaw in self),
                          "checks:", *(f"  {c}" for c in self.checks)])

    def _repr_html_(self) -> str:
        items = "".join(f"<li><b>{escape(f.kind)}</b> ({escape(f.severity)}): "
                        f"{escape(f.evidence)}</li>" for f in self) or \
            "<li>no flaw found</li>"
        checks = "".join(f"<li>{escape(c)}</li>" for c in self.checks)
        return (f"<div class='janus-flaws'><b>{escape(self.title)}</b><ul>{items}</ul>"
                f"<details><summary>checks made</summary><ul>{checks}</ul></details></div>")


# --- the staller ------------------------------------------------------------------------
class StallerBot:
    """Keeps a game going: a probe of the rules, not a player (it reads the whole state).

    At a decision it values each move by the chance that the game ends right after it
    (exactly over the chance outcomes that follow when there are at most
    ``exact_limit``, else from ``samples`` draws) and takes one with the least;
    among those it prefers a move back to a position seen before in this game (most
    often seen first), then one that changes no score; ties are broken at random.
    """

    def __init__(self, seed: int = 0, *, samples: int = 8, exact_limit: int = 36) -> None:
        self.stream = RandomStream(seed)
        self.samples = samples
        self.exact_limit = exact_limit
        #: Whether the risk of every move chosen so far was computed over all outcomes.
        self.exact = True

    def risk(self, engine: Engine, raw: Raw, action: int, exact: bool = False) -> float:
        """The chance that the game is over right after ``action`` and its chance
        (over every outcome if ``exact`` or if they are few, else sampled)."""
        after = engine.apply(raw, action)
        if engine.current(after) != CHANCE:
            return 1.0 if engine.current(after) == TERMINAL else 0.0
        outcomes = engine.chance_outcomes(after)
        if outcomes and (exact or len(outcomes) <= self.exact_limit):
            return float(sum(p for a, p in outcomes
                             if self._over(engine, engine.apply(after, a))))
        if exact:
            self.exact = False                        # the outcomes cannot be listed
        hits = sum(self._over(engine, engine.apply(after, engine.sample(after, self.stream)))
                   for _ in range(self.samples))
        return hits / self.samples

    def _over(self, engine: Engine, raw: Raw) -> bool:
        while engine.current(raw) == CHANCE:          # a second chance point: sampled
            raw = engine.apply(raw, engine.sample(raw, self.stream))
        return engine.current(raw) == TERMINAL

    def choose(self, engine: Engine, raw: Raw, seen: Counter) -> tuple[int, float]:
        """The chosen action and its risk; ``seen`` counts the positions of this game."""
        actions = engine.actions(raw)
        if len(actions) == 1:
            return actions[0], self.risk(engine, raw, actions[0], exact=True)
        scores = engine.scores(raw)
        ranked = []
        for action in actions:
            risk = self.risk(engine, raw, action)
            after = engine.apply(raw, action)
            back = seen.get(engine.position_key(after), 0)
            quiet = engine.scores(after) == scores
            ranked.append(((risk, -back, not quiet), action))
        best = min(key for key, _ in ranked)
        choices = [action for key, action in ranked if key == best]
        action = choices[self.stream.below(len(choices))]
        # The move chosen on sampled odds: its risk over every outcome.
        return action, self.risk(engine, raw, action, exact=True)


@dataclass
class StallResult:
    """One game of staller against staller."""

    ended: bool
    plies: int
    #: How often the most frequent position came back (1: no position recurred).
    most_repeats: int
    #: The largest chance of ending the staller ever had to give the game.
    worst_risk: float
    exact: bool


def stall_game(engine: Engine, seed: int, max_plies: int) -> StallResult:
    """Play ``engine``'s game with every seat the staller, for at most ``max_plies``."""
    stream = RandomStream(seed)
    staller = StallerBot(seed + 1)
    raw = engine.initial()
    seen: Counter = Counter()
    plies = 0
    worst = 0.0
    while plies < max_plies:
        player = engine.current(raw)
        if player == TERMINAL:
            break
        if player == CHANCE:
            action = engine.sample(raw, stream)
        else:
            action, risk = staller.choose(engine, raw, seen)
            worst = max(worst, risk)
        raw = engine.apply(raw, action)
        plies += 1
        seen[engine.position_key(raw)] += 1
    return StallResult(ended=engine.current(raw) == TERMINAL, plies=plies,
                       most_repeats=max(seen.values(), default=0), worst_risk=worst,
                       exact=staller.exact)


# --- the finder -----------------------------------------------------------------------
@dataclass
class _Checks:
    flaws: list[Flaw] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def _endless(engine: Engine, checks: _Checks, seed: int, stall_games: int,
             cap: int) -> None:
    results = [stall_game(engine, seed + 101 * k, cap) for k in range(stall_games)]
    going = [r for r in results if not r.ended]
    cycling = [r for r in going if r.most_repeats >= 5]
    lengths = sorted(r.plies for r in results if r.ended)
    line = (f"endless: {stall_games} games with every seat the staller (cap {cap:,} "
            f"plies): {len(going)} still going at the cap")
    if lengths:
        line += f", the others ended after {lengths[0]:,}–{lengths[-1]:,} plies"
    checks.lines.append(line)
    if not going:
        return
    exact = all(r.exact for r in going)
    safe = all(r.worst_risk == 0 for r in going)
    repeats = min(r.most_repeats for r in going)
    evidence = (f"found with adversarial play (every seat the staller): {len(going)} of "
                f"{stall_games} games were still going after {cap:,} plies")
    if cycling:
        evidence += (f"; in each a position came back at least {repeats} times (a cycle "
                     "of positions the players can go round for ever)")
    if safe:
        evidence += ("; at every decision the staller had a move after which the game "
                     "could not end" + (" (exact over every chance outcome)" if exact
                                        else " (over sampled chance outcomes)"))
    severity = "high" if cycling and safe else "medium"
    checks.flaws.append(Flaw("endless", evidence, severity))


def _outcomes(results: Sequence[tuple[str, TournamentResult]], checks: _Checks) -> None:
    """unreachable-goal: nobody wins a game (under any of the plays tried), or a seat
    never wins where a fair share would be 30 wins or more."""
    for label, result in results:
        m = result.metrics()
        checks.lines.append(f"unreachable-goal ({label}): {m['advantage_p1']['of']} of "
                            f"{m['games']} games had a single winner; wins per seat " +
                            ", ".join(f"{s} {r['wins']}" for s, r in m["win_rate"].items()))
    if all(r.metrics()["advantage_p1"]["of"] == 0 for _, r in results):
        seen = []
        for label, result in results:
            m = result.metrics()
            how = (f"all hit the cap of {result.max_plies:,} plies"
                   if m["capped"] == m["games"] else
                   f"{m['capped']} hit the cap, {m['draws']} were drawn")
            seen.append(f"{m['games']} games of {label} play ({how})")
        checks.flaws.append(Flaw("unreachable-goal", "found in " + " and ".join(seen) +
                                 ": no game ended with a single winner", "high"))
        return
    label, result = results[0]
    m = result.metrics()
    decisive = m["advantage_p1"]["of"]
    never = [s for s, r in m["win_rate"].items() if r["wins"] == 0]
    if never and decisive / len(m["win_rate"]) >= 30:
        checks.flaws.append(Flaw(
            "unreachable-goal", f"found in {m['games']} games of {label} play: seat "
            f"{', '.join(never)} never won, in {decisive} decisive games", "medium"))


def _first_player(result: TournamentResult, checks: _Checks, label: str) -> None:
    adv = result.metrics()["advantage_p1"]
    if adv["value"] is None:
        checks.lines.append(f"first-player ({label}): no decisive game to measure")
        return
    text = (f"seat A's advantage over the decisive games {adv['value']:+.3f}, 95% "
            f"interval [{adv['low']:+.3f}, {adv['high']:+.3f}]")
    checks.lines.append(f"first-player ({label}): {text}")
    if adv["low"] > 0 or adv["high"] < 0:
        size = abs(adv["value"])
        severity = "high" if size >= 0.15 else "medium" if size >= 0.05 else "low"
        side = "ahead" if adv["value"] > 0 else "behind"
        checks.flaws.append(Flaw(
            "first-player", f"found in {adv['of']} decisive games of {label} play: A is "
            f"{side}: {text}, which excludes 0", severity))


def _long(game: Game, result: TournamentResult, checks: _Checks, label: str,
          minutes: tuple[float, float] | None, seconds_per_turn: float) -> None:
    if minutes is None:
        checks.lines.append(f"long: {game.title} states no playing time (pass minutes=)")
        return
    turns = sorted(r["decisions"] for r in result.rows)
    median = turns[len(turns) // 2]
    estimate = median * seconds_per_turn / 60
    low, high = minutes
    checks.lines.append(f"long ({label}): median {median} turns ≈ {estimate:.0f} minutes at "
                        f"{seconds_per_turn:g} s a turn; the box says {low:g}–{high:g}")
    if estimate > 2 * high:
        severity = "high" if estimate > 4 * high else "medium"
        checks.flaws.append(Flaw(
            "long", f"found in {len(turns)} games of {label} play: the median game takes "
            f"{median} turns, about {estimate:.0f} minutes at {seconds_per_turn:g} s a turn, "
            f"more than twice the {low:g}–{high:g} minutes the box states", severity))


def find_flaws(game: str | Game, variant: Any = None, *, games: int = 200, seed: int = 0,
               stall_games: int = 3, stall_plies: int | None = None,
               minutes: tuple[float, float] | None = None, seconds_per_turn: float = 10.0,
               tournament: TournamentResult | None = None, processes: int = 1,
               **options: Any) -> FlawReport:
    """Look for design flaws in ``game`` under ``variant`` (and ``options``).

    ``games`` greedy games and as many random ones measure the outcomes (pass a greedy
    ``tournament`` of this variant to reuse its games); ``stall_games`` games of the
    staller, each cut off at ``stall_plies`` (default: 10 times the median greedy
    game, at least 2,000 plies and at most 20,000), look for a game without end; ``minutes`` overrides the
    box's playing time; ``seconds_per_turn`` is the lab's guess of a turn at the table.
    """
    game_obj = registry.get(game) if isinstance(game, str) else game
    variant_obj = game_obj.variant(variant, **options)
    engine = game_obj.engine(variant_obj)
    if tournament is None:
        kwargs = dict(bots=["greedy"], seed=seed, progress=False, processes=processes)
        # A few games first: if most never end, more of them would only take long.
        tournament = run_tournament(game_obj, variant_obj, games=min(20, games), **kwargs)
        if tournament.metrics()["capped"] * 2 <= len(tournament.rows) and games > 20:
            tournament = run_tournament(game_obj, variant_obj, games=games, **kwargs)
    elif tournament.game != game_obj.name or tournament.variant != variant_obj.to_dict():
        raise ValueError("find_flaws: the tournament given was not played under this "
                         "game and variant")
    checks = _Checks()
    plies = sorted(r["plies"] for r in tournament.rows)
    cap = stall_plies or min(20_000, max(2000, 10 * plies[len(plies) // 2]))
    _endless(engine, checks, seed, stall_games, cap)
    plays = [("greedy", tournament)]
    if tournament.metrics()["advantage_p1"]["of"] == 0:   # can anyone win at all?
        plays.append(("random", run_tournament(
            game_obj, variant_obj, games=min(20, games), seed=seed, progress=False,
            processes=processes, max_plies=min(tournament.max_plies, 2000))))
    _outcomes(plays, checks)
    _first_player(tournament, checks, "greedy")
    _long(game_obj, tournament, checks, "greedy",
          minutes or getattr(game_obj, "playing_time", None), seconds_per_turn)
    title = f"{game_obj.title}, {game_obj.describe_variant(variant_obj)}"
    return FlawReport(title, checks.flaws, checks.lines)

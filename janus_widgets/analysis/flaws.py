"""The flaw finder: rules that let a game go on for ever, goals nobody reaches, a
first seat that wins too often, games that end in no winner, games far longer or far
shorter than the box says.

:func:`find_flaws` plays the game and reads what it sees:

* **endless** — only when it is *proven*:

  - where a solver exists (two-player Jactus), by the solver: the game is endless when
    optimal players, from the start, end it with probability below 1
    (:meth:`JactusSolution.end_probability`); the finding names what optimal players do
    to keep it going, and shows a cycle of positions their play goes round;
  - elsewhere, by the *staller* (:class:`StallerBot`), a probe of the rules played at
    every seat: it takes moves after which the game cannot end at once, and where its
    game is still going at the cap, :func:`prove_stall` tries to close the positions it
    reached into a set the staller can keep for ever — every chance outcome enumerated,
    no way out. Only a closed set proves a game endless; the finding shows a cycle of
    its positions and moves.

  A staller game still going at the cap without such a proof is at most **long**, with
  the plies seen. Where the solver says optimal players always finish, the staller's
  cycle is reported among the checks, not as a flaw: it needs every player to refuse
  to win.
* **unreachable-goal** and **first-player** — from a tournament (greedy bots by
  default, or the one passed in): nobody, or some seat, never wins; seat A's advantage
  over the decisive games has a 95% interval that excludes 0. Both are judged only when
  every seat was played by the same bots: with unequal bots (greedy against random)
  the result is the bots', and the check says so instead.
* **drawish** — more often than not a finished game has no single winner: the 95%
  interval of the share lies above one half (:data:`DRAWISH`).
* **long** and **short** — the median game in turns, at the lab's
  ``seconds_per_turn``, against the playing time the box states
  (:attr:`janus_widgets.core.protocol.Game.playing_time`): over twice its upper end,
  or under half its lower end.

>>> report = find_flaws("jinns", repetition_limit=0, games=40, stall_games=2)
>>> [flaw.kind for flaw in report]
['endless', 'first-player']
>>> print(report[0].evidence.split(":")[0])
proven with adversarial play (every seat the staller)
>>> len(report[0].cycle) >= 2
True
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

__all__ = ["Flaw", "FlawReport", "find_flaws", "StallerBot", "stall_game", "StallResult",
           "StallProof", "prove_stall", "CycleStep", "DRAWISH"]

#: The severities, worst first.
SEVERITIES = ("high", "medium", "low")
#: A game is drawish when its share of finished games without a single winner is surely
#: above this (the lower end of its 95% interval): more often than not nobody wins alone,
#: so the goal the rules set is not what usually ends the game.
DRAWISH = 0.5
#: How many positions :func:`prove_stall` may collect before it gives up.
PROOF_LIMIT = 40_000


@dataclass(frozen=True)
class CycleStep:
    """One step of a cycle of positions: the position (its text) and the move made
    there (a player's move, or a chance outcome)."""

    position: str
    move: str
    chance: bool = False


@dataclass(frozen=True)
class Flaw:
    """A design flaw: what kind, the evidence (saying how it was found), how bad, and
    for an endless game the cycle of positions and moves that proves it."""

    kind: str        #: "endless", "unreachable-goal", "first-player", "drawish", "long", "short"
    evidence: str
    severity: str    #: "high", "medium" or "low"
    cycle: tuple[CycleStep, ...] = ()

    def __str__(self) -> str:
        text = f"{self.kind} ({self.severity}): {self.evidence}"
        if self.cycle:
            moves = " → ".join(step.move for step in self.cycle)
            text += f"\n    the cycle ({len(self.cycle)} steps): {moves} → back to the start"
        return text


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
        items = []
        for f in self:
            item = (f"<li><b>{escape(f.kind)}</b> ({escape(f.severity)}): "
                    f"{escape(f.evidence)}")
            if f.cycle:
                steps = "".join(
                    f"<li><pre style='margin:2px 0'>{escape(s.position)}</pre>"
                    f"{'chance: ' if s.chance else 'move: '}<b>{escape(s.move)}</b></li>"
                    for s in f.cycle)
                item += (f"<details><summary>the cycle: {len(f.cycle)} positions and "
                         f"moves, then back to the first</summary><ol>{steps}</ol>"
                         "</details>")
            items.append(item + "</li>")
        body = "".join(items) or "<li>no flaw found</li>"
        checks = "".join(f"<li>{escape(c)}</li>" for c in self.checks)
        return (f"<div class='janus-flaws'><b>{escape(self.title)}</b><ul>{body}</ul>"
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
    #: The last position, and the staller's last move at each decision position it
    #: reached (a start for :func:`prove_stall`).
    final: Raw = None
    played: dict = field(default_factory=dict, repr=False)


def stall_game(engine: Engine, seed: int, max_plies: int) -> StallResult:
    """Play ``engine``'s game with every seat the staller, for at most ``max_plies``."""
    stream = RandomStream(seed)
    staller = StallerBot(seed + 1)
    raw = engine.initial()
    seen: Counter = Counter()
    played: dict = {}
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
            played[raw] = action
        raw = engine.apply(raw, action)
        plies += 1
        seen[engine.position_key(raw)] += 1
    return StallResult(ended=engine.current(raw) == TERMINAL, plies=plies,
                       most_repeats=max(seen.values(), default=0), worst_risk=worst,
                       exact=staller.exact, final=raw, played=played)


# --- proving a game endless --------------------------------------------------------------
@dataclass
class StallProof:
    """A closed set of positions: from each, the strategy's move (decisions) or every
    chance outcome (chance) leads to another position of the set, and none is over. Who
    plays the strategy from any of them keeps the game going for ever, whatever the dice
    or cards do."""

    positions: int
    #: The strategy: the move at every decision position of the set.
    strategy: dict
    #: Every position of the set.
    members: frozenset
    #: A cycle of positions and moves inside the set (chance outcomes: the likeliest).
    cycle: list[tuple[Raw, int]]
    chance_positions: int


def _safe(engine: Engine, after: Raw, known: dict) -> bool:
    """Whether the game cannot be over at ``after`` (a move's result) or right after the
    chance outcomes that follow it (every outcome listed); ``known`` remembers."""
    if after in known:
        return known[after]
    known[after] = safe = _safe_now(engine, after)
    return safe


def _safe_now(engine: Engine, after: Raw) -> bool:
    who = engine.current(after)
    if who == TERMINAL:
        return False
    if who != CHANCE:
        return True
    outcomes = engine.chance_outcomes(after)
    if not outcomes:
        return False                                  # outcomes that cannot be listed
    return all(engine.current(engine.apply(after, a)) != TERMINAL for a, _ in outcomes)


def prove_stall(engine: Engine, start: Raw, hints: dict | None = None, *,
                limit: int = PROOF_LIMIT) -> StallProof | None:
    """Try to prove that from ``start`` the players can keep the game going for ever:
    collect the positions the staller's strategy reaches, over every chance outcome,
    until no new one comes (a proof) or a position has no move after which the game
    cannot end, chance outcomes cannot be listed, or more than ``limit`` positions are
    needed (no proof: ``None``). ``hints`` (position → move) are tried first — the
    moves the staller played; otherwise a move back into the set is preferred."""
    hints = hints or {}
    known: dict = {}
    seen = {start}
    order = [start]
    strategy: dict = {}
    chance = 0
    i = 0
    while i < len(order):
        raw = order[i]
        i += 1
        who = engine.current(raw)
        if who == TERMINAL:
            return None
        if who == CHANCE:
            outcomes = engine.chance_outcomes(raw)
            if not outcomes:
                return None
            chance += 1
            nexts = [engine.apply(raw, a) for a, _ in outcomes]
        else:
            # The staller's own move first, then a move back into the set, then any:
            # the first after which the game cannot end at once.
            afters = [(a, engine.apply(raw, a)) for a in engine.actions(raw)]
            hint = hints.get(raw)
            ranked = sorted(afters, key=lambda pair: (pair[0] != hint, pair[1] not in seen))
            action = next((a for a, after in ranked if _safe(engine, after, known)), None)
            if action is None:
                return None
            strategy[raw] = action
            nexts = [engine.apply(raw, action)]
        for nxt in nexts:
            if nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
                if len(seen) > limit:
                    return None
    return StallProof(len(seen), strategy, frozenset(seen), _cycle(engine, start, strategy),
                      chance)


def _cycle(engine: Engine, start: Raw, strategy: dict) -> list[tuple[Raw, int]]:
    """Follow ``strategy`` from ``start``, the likeliest outcome at chance, until a
    position comes back: the positions and moves from its first visit."""
    path: list[tuple[Raw, int]] = []
    where: dict = {}
    raw = start
    while raw not in where:
        where[raw] = len(path)
        if engine.current(raw) == CHANCE:
            outcomes = engine.chance_outcomes(raw)
            action = max(outcomes, key=lambda o: o[1])[0]
        else:
            action = strategy[raw]
        path.append((raw, action))
        raw = engine.apply(raw, action)
    return path[where[raw]:]


def _steps(engine: Engine, cycle: Sequence[tuple[Raw, int]]) -> tuple[CycleStep, ...]:
    return tuple(CycleStep(engine.text(raw), engine.notation(raw, action),
                           engine.current(raw) == CHANCE) for raw, action in cycle)


# --- what keeps a game going --------------------------------------------------------------
def _mechanism(game: Game, engine: Engine, decisions: Sequence[tuple[Raw, int]]) -> str:
    """What the moves made at ``decisions`` (position, move) do, in words: for Jactus
    whether a pick-up leaves two different faces (no throw can score: *spoiling*) and
    whether a five of a kind is declined; elsewhere the moves most often made."""
    if not decisions:
        return "no decision is needed"
    if game.name == "jactus":
        from ..games.jactus import rules as jactus
        picks = [(raw, a) for raw, a in decisions if raw[0] == jactus.PICK]
        spoils = sum(1 for raw, a in picks if len(set(jactus.PICK_KEEP[raw[2]][a])) > 1)
        claims = [(raw, a) for raw, a in decisions if raw[0] == jactus.CLAIM]
        declined = sum(1 for _, a in claims if a == jactus.PASS)
        parts = []
        if picks:
            parts.append(f"{spoils:,} of {len(picks):,} pick-ups leave two different faces "
                         "on the table, so the throw cannot score (spoiling, JA-19)")
        if claims:
            parts.append(f"of {len(claims):,} five-of-a-kinds, {declined:,} are declined (a "
                         f"claim is optional, JA-9) and {len(claims) - declined:,} claim a "
                         "piece that completes no set (pieces change hands, JA-10)")
        return "; ".join(parts) or "only forced throws"
    counts = Counter(engine.notation(raw, a) for raw, a in decisions)
    common = ", ".join(f"{move} ({k})" for move, k in counts.most_common(4))
    return f"{len(decisions):,} decision positions, the moves most often made: {common}"


# --- the finder -----------------------------------------------------------------------
@dataclass
class _Checks:
    flaws: list[Flaw] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def _solution(game: Game, variant: Any, checks: _Checks) -> Any:
    """The certified solution where a solver exists for this variant, else None."""
    if game.name != "jactus":
        return None
    from .solve import SolverError, cached_solution, unsolvable
    if unsolvable(variant) is not None:
        return None
    try:
        return cached_solution(variant)
    except (SolverError, ImportError) as exc:      # the staller decides instead
        checks.lines.append(f"endless: the solver could not decide ({exc}); the staller "
                            "looked instead")
        return None


def _solver_verdict(game: Game, solution: Any, checks: _Checks) -> None:
    start = solution.start
    p_end = solution.end_probability(start)
    low, high = solution.meta["end_bounds"]
    head = (f"solved exactly (certified: gap {solution.gap:.1e}, {solution.meta['positions']:,} "
            f"positions)")
    if p_end >= 1 - 1e-9:
        checks.lines.append(f"endless: {head}: under optimal play every game ends "
                            f"(P(end) = {p_end:.4f}): not endless")
        return
    engine = solution.engine
    ends = solution.ends
    never = [i for i in range(len(solution.raws)) if ends[i] < 1e-9]
    decisions = [(solution.raws[i], int(solution.moves[i])) for i in never
                 if solution.moves[i] >= 0]
    mechanism = _mechanism(game, engine, decisions)
    first = next((solution.raws[i] for i in never if solution.moves[i] >= 0), None)
    strategy = {raw: a for raw, a in decisions}
    cycle = _steps(engine, _cycle(engine, first, strategy)) if first is not None else ()
    bounds = ("" if abs(high - low) < 1e-9 else
              f" (optimal players could make it anything from {low:.3f} to {high:.3f})")
    evidence = (f"proven by the solver, {head}: under optimal play a game from the start "
                f"ends with probability {p_end:.3f}{bounds}; the rest go on for ever. In "
                f"the {len(never):,} positions from which optimal play never ends, "
                f"{mechanism}")
    severity = "high" if p_end <= 0.5 else "medium"
    checks.flaws.append(Flaw("endless", evidence, severity, cycle))
    checks.lines.append(f"endless: {head}: P(end) under optimal play {p_end:.4f}")


def _endless(game: Game, engine: Engine, checks: _Checks, seed: int, stall_games: int,
             cap: int, solution: Any) -> None:
    if solution is not None:
        _solver_verdict(game, solution, checks)
    results = [stall_game(engine, seed + 101 * k, cap) for k in range(stall_games)]
    going = [r for r in results if not r.ended]
    lengths = sorted(r.plies for r in results if r.ended)
    line = (f"endless: {stall_games} game{'s' if stall_games != 1 else ''} with every seat "
            f"the staller (cap {cap:,} plies): {len(going)} still going at the cap")
    if lengths:
        span = (f"{lengths[0]:,}" if lengths[0] == lengths[-1] else
                f"{lengths[0]:,}–{lengths[-1]:,}")
        line += f", the others ended after {span} plies"
    proof = None
    for r in going:
        proof = prove_stall(engine, r.final, r.played)
        if proof is not None:
            break
    if proof is not None:
        what = _mechanism(game, engine, list(proof.strategy.items()))
        line += (f"; a closed set of {proof.positions:,} positions proves it can be kept "
                 f"going for ever ({what})")
    elif going:
        line += "; no closed set of positions found (not proven endless)"
    checks.lines.append(line)
    if not going:
        return
    if solution is not None:
        if proof is not None and not any(f.kind == "endless" for f in checks.flaws):
            checks.lines.append(
                "endless: players who all refuse to win could keep it going (the "
                "staller's closed set above), but the solver shows optimal players never "
                "do: not a flaw of the rules")
        return
    if proof is not None:
        what = _mechanism(game, engine, list(proof.strategy.items()))
        chance = (f", every one of the chance outcomes at its {proof.chance_positions:,} "
                  "throws and deals enumerated" if proof.chance_positions else "")
        evidence = (f"proven with adversarial play (every seat the staller): "
                    f"{_of(len(going), stall_games, 'game')} still going after {cap:,} "
                    f"plies, and "
                    f"from the last position a closed set of {proof.positions:,} "
                    f"positions{chance} has no way out: at each decision the staller has a "
                    f"move that stays inside, so the game can go on for ever. How: {what}")
        checks.flaws.append(Flaw("endless", evidence, "high", _steps(engine, proof.cycle)))
        return
    repeats = max(r.most_repeats for r in going)
    seen = ("no position came back" if repeats <= 1 else
            f"a position came back up to {repeats} times, but the positions reached "
            "could not be closed into a set with no way out")
    checks.flaws.append(Flaw(
        "long", f"found with adversarial play (every seat the staller): "
                f"{_of(len(going), stall_games, 'game')} still going after {cap:,} plies; "
                f"{seen}: not proven endless, only long under play that avoids ending",
        "medium"))


def _of(k: int, n: int, thing: str) -> str:
    """``2 of 3 games were``, ``1 of 1 game was``."""
    return f"{k} of {n} {thing}{'s' if n != 1 else ''} {'was' if k == 1 else 'were'}"


def _who_played(result: TournamentResult) -> str:
    labels = sorted({bot for row in result.rows for bot in row["bots"]})
    if len(labels) == 1:
        return f"{labels[0]} play"
    return "play by " + ", ".join(labels)


def _bots_note(result: TournamentResult) -> str:
    seats = ", ".join(f"{chr(65 + s)} {bot}" for s, bot in enumerate(result.bots))
    return (f"not judged: the seats were played by different bots ({seats}), so what a "
            "seat wins is the bots' doing, not the rules'")


def _outcomes(results: Sequence[tuple[str, TournamentResult]], checks: _Checks,
              equal: bool) -> None:
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
            seen.append(f"{m['games']} games of {label} ({how})")
        text = "found in " + " and ".join(seen) + ": no game ended with a single winner"
        if not equal:
            checks.lines.append(f"unreachable-goal: {text}; {_bots_note(results[0][1])}")
            return
        checks.flaws.append(Flaw("unreachable-goal", text, "high"))
        return
    label, result = results[0]
    m = result.metrics()
    decisive = m["advantage_p1"]["of"]
    never = [s for s, r in m["win_rate"].items() if r["wins"] == 0]
    if never and decisive / len(m["win_rate"]) >= 30:
        text = (f"found in {m['games']} games of {label}: seat {', '.join(never)} never "
                f"won, in {decisive} decisive games")
        if not equal:
            checks.lines.append(f"unreachable-goal: {text}; {_bots_note(result)}")
            return
        checks.flaws.append(Flaw("unreachable-goal", text, "medium"))


def _first_player(result: TournamentResult, checks: _Checks, label: str,
                  equal: bool) -> None:
    adv = result.metrics()["advantage_p1"]
    if adv["value"] is None:
        checks.lines.append(f"first-player ({label}): no decisive game to measure")
        return
    text = (f"seat A's advantage over the decisive games {adv['value']:+.3f}, 95% "
            f"interval [{adv['low']:+.3f}, {adv['high']:+.3f}]")
    if not equal:
        checks.lines.append(f"first-player ({label}): {text}; {_bots_note(result)}")
        return
    checks.lines.append(f"first-player ({label}): {text}")
    if adv["low"] > 0 or adv["high"] < 0:
        size = abs(adv["value"])
        severity = "high" if size >= 0.15 else "medium" if size >= 0.05 else "low"
        side = "ahead" if adv["value"] > 0 else "behind"
        checks.flaws.append(Flaw(
            "first-player", f"found in {adv['of']} decisive games of {label}: A is "
            f"{side}: {text}, which excludes 0", severity))


def _drawish(result: TournamentResult, checks: _Checks, label: str) -> None:
    d = result.metrics()["drawishness"]
    if d["value"] is None:
        checks.lines.append(f"drawish ({label}): no game finished")
        return
    text = (f"{d['count']} of {d['of']} finished games ({d['value']:.0%}) ended without "
            f"a single winner, 95% interval [{d['low']:.2f}, {d['high']:.2f}]")
    checks.lines.append(f"drawish ({label}): {text}; a flaw when the interval lies above "
                        f"{DRAWISH:g}")
    if d["low"] > DRAWISH:
        severity = "high" if d["value"] >= 0.8 else "medium"
        checks.flaws.append(Flaw(
            "drawish", f"found in {result.metrics()['games']} games of {label}: {text}: "
            "more often than not nobody wins alone", severity))


def _length(game: Game, result: TournamentResult, checks: _Checks, label: str,
            minutes: tuple[float, float] | None, seconds_per_turn: float) -> None:
    if minutes is None:
        checks.lines.append(f"long: {game.title} states no playing time (pass minutes=)")
        return
    turns = sorted(r["decisions"] for r in result.rows)
    median = turns[len(turns) // 2]
    estimate = median * seconds_per_turn / 60
    low, high = minutes
    box = f"{low:g}" if low == high else f"{low:g}–{high:g}"
    checks.lines.append(f"long / short ({label}): median {median} turns ≈ {estimate:.1f} "
                        f"minutes at {seconds_per_turn:g} s a turn; the box says {box}")
    said = (f"found in {len(turns)} games of {label}: the median game takes {median} turns, "
            f"about {_minutes(estimate)} at {seconds_per_turn:g} s a turn")
    if estimate > 2 * high:
        severity = "high" if estimate > 4 * high else "medium"
        checks.flaws.append(Flaw(
            "long", f"{said}, more than twice the {box} minutes the box states",
            severity))
    elif estimate < low / 2:
        severity = "high" if estimate < low / 4 else "medium"
        checks.flaws.append(Flaw(
            "short", f"{said}, less than half the {box} minutes the box states",
            severity))


def _minutes(estimate: float) -> str:
    if estimate < 1.5:
        return "a minute" if estimate >= 0.75 else f"{estimate * 60:.0f} seconds"
    return f"{estimate:.0f} minutes"


def find_flaws(game: str | Game, variant: Any = None, *, games: int = 200, seed: int = 0,
               stall_games: int = 3, stall_plies: int | None = None,
               minutes: tuple[float, float] | None = None, seconds_per_turn: float = 10.0,
               tournament: TournamentResult | None = None, processes: int = 1,
               solver: bool = True, **options: Any) -> FlawReport:
    """Look for design flaws in ``game`` under ``variant`` (and ``options``).

    ``games`` greedy games and as many random ones measure the outcomes (pass a
    ``tournament`` of this variant to reuse its games: its seats are judged by who
    played them); ``stall_games`` games of the staller, each cut off at ``stall_plies``
    (default: 10 times the median game of the tournament, at least 2,000 plies and at
    most 20,000), look for a game without end; ``solver`` lets the exact solver decide
    where one exists (two-player Jactus); ``minutes`` overrides the box's playing
    time; ``seconds_per_turn`` is the lab's guess of a turn at the table.
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
    solution = _solution(game_obj, variant_obj, checks) if solver else None
    _endless(game_obj, engine, checks, seed, stall_games, cap, solution)
    label = _who_played(tournament)
    equal = tournament.equal_seats()
    plays = [(label, tournament)]
    if tournament.metrics()["advantage_p1"]["of"] == 0:   # can anyone win at all?
        plays.append(("random play", run_tournament(
            game_obj, variant_obj, games=min(20, games), seed=seed, progress=False,
            processes=processes, max_plies=min(tournament.max_plies, 2000))))
    _outcomes(plays, checks, equal)
    _first_player(tournament, checks, label, equal)
    _drawish(tournament, checks, label)
    _length(game_obj, tournament, checks, label,
            minutes or getattr(game_obj, "playing_time", None), seconds_per_turn)
    title = f"{game_obj.title}, {game_obj.describe_variant(variant_obj)}"
    return FlawReport(title, checks.flaws, checks.lines)

"""Studies with known truths, for measuring how often the lab's intervals cover them.

Used by ``tests/test_interval_coverage.py`` (modest sizes) and
``benchmarks/interval_coverage.py`` (the full check, printing every figure).

* :class:`Scenario` — synthetic games: each game's outcome (a seat wins alone, no single
  winner, or cut off by the cap) and its per-game measures (turns, plies, branching,
  lead changes, decisiveness, score gap) drawn from distributions whose means are known
  exactly, so every metric's truth is known. :func:`paired` draws two scenarios game by
  game from shared seeds (a Gaussian copula), as two rules played on the same deals.
* :func:`optimal_games` — real games of two-player Jactus under optimal play, drawn by
  walking the certified solution's strategies through the engine's own game graph
  (every chance outcome with the engine's probability), many thousands at once; the
  truths come from the solver (A's win chance) and from the exact linear solve of the
  expected turns and plies. :func:`replay_walk` checks a walked game against the engine
  and the optimal bot.
* :func:`reseeded_bank` — real tournaments of one game on the same deals with the bots
  re-seeded: the identical-rules comparisons of the ◆ test.
"""

from __future__ import annotations

import math

import functools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import sparse, special, stats
from scipy.sparse import linalg

from janus_widgets.analysis.metrics import Studies, _metric, paired_estimate, _p_value


# --- synthetic games ---------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def quantile(name: str, *shape: float):
    """The quantile function of scipy's distribution ``name`` (whose quantile at 0 is
    finite) with ``shape``: exact quantiles at about 120,000 points, dense towards 0 and
    1 (evenly spaced in log-odds, out to 1 − 2e-16), read linearly between them. Within
    1e-7 of scipy's own ``ppf`` for the shapes drawn here, and about 50 times faster
    (scipy's beta quantiles took a tenth of this suite's coverage tests)."""
    dist = getattr(stats, name)(*shape)
    grid = np.unique(np.concatenate([[0.0], special.expit(np.linspace(-36.0, 36.0, 131073))]))
    values = dist.ppf(grid)
    assert np.all(np.isfinite(values))

    def read(q: np.ndarray) -> np.ndarray:
        return np.interp(q, grid, values)
    return read


@dataclass(frozen=True)
class Scenario:
    """Synthetic games with known truths.

    ``shares``: each seat's share of the decisive games; ``draw``: the share of finished
    games without a single winner; ``cap``: the share of games cut off. Per game: turns
    ``40 + Gamma(2, turn_scale)``, plies ``turns × (1 + chance_share)``, branching
    ``Normal(6, 0.4)``, lead changes per turn 0 with chance 0.3 else ``Beta(2, 20)``,
    decisiveness ``Beta(3, 1.2)`` (decisive games), score gap ``Gamma(3, 1)`` or, with
    ``binary_gap``, 1 with chance 0.25 else 0 (a metric with two values).
    """

    name: str
    shares: tuple[float, ...] = (0.5, 0.5)
    draw: float = 0.1
    cap: float = 0.0
    turn_scale: float = 10.0
    chance_share: float = 0.8
    binary_gap: bool = False

    @property
    def players(self) -> int:
        return len(self.shares)

    def truths(self) -> dict[str, float]:
        """Every metric's true value (what endless games would give)."""
        shares = np.array(self.shares)
        decisive = (1 - self.cap) * (1 - self.draw)
        turns = 40 + 2 * self.turn_scale
        out = {"advantage_p1": shares[0] - 1 / self.players,
               "balance": 1 - (shares.max() - shares.min()),
               "completion": 1 - self.cap, "timeouts": self.cap,
               "drawishness": self.draw, "duration": turns,
               "duration_plies": turns * (1 + self.chance_share),
               "decisiveness": 3 / 4.2, "lead_change": 0.7 * 2 / 22,
               "branching_factor": 6.0, "score_difference": 0.25 if self.binary_gap else 3.0}
        for seat, share in enumerate(shares):
            out[f"win_{chr(65 + seat)}"] = decisive * share
        return out

    def draw_games(self, uniforms: dict[str, np.ndarray]) -> Studies:
        """Games from uniforms (studies × games), one array per quantity."""
        u = uniforms
        cap = u["outcome"] < self.cap
        finished = ~cap
        # Within the finished games: no single winner, else a seat by its share.
        rest = np.where(finished, (u["outcome"] - self.cap) / (1 - self.cap), 0.0)
        draw = finished & (rest < self.draw)
        pick = np.where(finished & ~draw, (rest - self.draw) / (1 - self.draw), 0.0)
        edges = np.cumsum(self.shares)[:-1]
        seat = np.searchsorted(edges, pick, side="right")
        sole = np.where(finished & ~draw, seat, -1)
        turns = 40 + quantile("gamma", 2)(u["turns"]) * self.turn_scale
        lead = np.where(u["lead"] < 0.3, 0.0,
                        quantile("beta", 2, 20)(np.clip((u["lead"] - 0.3) / 0.7, 0, 1)))
        gap = ((u["gap"] < 0.25).astype(float) if self.binary_gap
               else quantile("gamma", 3)(u["gap"]))
        decided = np.where(sole >= 0, quantile("beta", 3, 1.2)(u["decided"]), np.nan)
        return Studies.simulated(
            self.players, sole, capped=cap, decisions=turns,
            plies=turns * (1 + self.chance_share),
            branching=6 + 0.4 * stats.norm.ppf(u["branching"]), lead_rate=lead,
            lead_rate_ludii=lead, decided=decided, spread=gap)

    def studies(self, rng: np.random.Generator, studies: int, games: int) -> Studies:
        """``studies`` independent studies of ``games`` games each."""
        return self.draw_games({k: rng.random((studies, games)) for k in QUANTITIES})


QUANTITIES = ("outcome", "turns", "lead", "gap", "decided", "branching")

#: The metrics whose Ludii definitions :func:`ludii_truths` knows for two seats.
LUDII_KEYS = ["advantage_p1", "balance", "completion", "drawishness", "duration",
              "duration_plies", "lead_change"]


def ludii_truths(scenario: Scenario) -> dict[str, float]:
    """The true values of two seats' metrics under Ludii's definitions
    (``summarize(..., definition="ludii")``): results over all games, a game without a
    single winner half a win, completion the share with a winner, durations in moves
    without chance."""
    assert scenario.players == 2
    decisive = (1 - scenario.cap) * (1 - scenario.draw)
    a, b = (decisive * share for share in scenario.shares)
    turns = 40 + 2 * scenario.turn_scale
    return {"advantage_p1": a + 0.5 * (1 - decisive), "balance": 1 - abs(a - b),
            "completion": decisive, "drawishness": (1 - scenario.cap) * scenario.draw,
            "duration": turns, "duration_plies": turns, "lead_change": 0.7 * 2 / 22}


def ludii_coverage(studies: Studies, truths: dict[str, float], keys: list[str], z: float
                   ) -> dict[str, tuple[float, int]]:
    """:func:`coverage` of the intervals under Ludii's definitions."""
    from janus_widgets.analysis.metrics import LUDII_METRICS
    return _coverage_of({key: LUDII_METRICS[key] for key in keys}, studies, truths, z)


def paired(rng: np.random.Generator, a: Scenario, b: Scenario, studies: int, games: int,
           link: float = 0.6) -> tuple[Studies, Studies]:
    """Two scenarios played on the same deals: every quantity of game k under ``a`` and
    under ``b`` comes from normals with correlation ``link`` (a Gaussian copula)."""
    ua, ub = {}, {}
    for key in QUANTITIES:
        shared = rng.standard_normal((studies, games))
        own_a, own_b = rng.standard_normal((2, studies, games))
        w = np.sqrt(1 - link * link)
        ua[key] = stats.norm.cdf(link * shared + w * own_a)
        ub[key] = stats.norm.cdf(link * shared + w * own_b)
    return a.draw_games(ua), b.draw_games(ub)


def coverage(studies: Studies, truths: dict[str, float], keys: list[str], z: float
             ) -> dict[str, tuple[float, int]]:
    """Per metric: the share of studies whose interval covers the truth, and the number
    of studies that give one (a study without a decisive game has no advantage; two
    decisive games alike give a decisiveness but no interval)."""
    return _coverage_of({key: _metric(key, studies.players) for key in keys}, studies,
                        truths, z)


def _coverage_of(metrics: dict[str, Any], studies: Studies, truths: dict[str, float],
                 z: float) -> dict[str, tuple[float, int]]:
    out = {}
    for key, metric in metrics.items():
        estimate = metric.measure(studies)
        low, high = estimate.limits(z)
        defined = np.isfinite(estimate.value) & np.isfinite(low) & np.isfinite(high)
        truth = truths[key]
        hit = (low <= truth + 1e-12) & (truth - 1e-12 <= high)
        # (no study with an interval: every study's games alike, say — NaN)
        count = int(defined.sum())
        out[key] = (float(hit[defined].mean()) if count else math.nan, count)
    return out


def paired_coverage(a: Studies, b: Studies, truths: dict[str, float], keys: list[str],
                    z: float) -> dict[str, tuple[float, int]]:
    """Per metric: how often the paired difference's interval covers ``truths[key]``."""
    out = {}
    for key in keys:
        estimate = paired_estimate(a, b, key)
        low, high = estimate.limits(z)
        defined = np.isfinite(estimate.value) & np.isfinite(low) & np.isfinite(high)
        truth = truths[key]
        hit = (low <= truth + 1e-12) & (truth - 1e-12 <= high)
        # (no study with an interval: every study's games alike, say — NaN)
        count = int(defined.sum())
        out[key] = (float(hit[defined].mean()) if count else math.nan, count)
    return out


def any_mark(a: Studies, b: Studies, keys: list[str], rate: float = 0.05) -> np.ndarray:
    """Per comparison: whether Holm's method over ``keys`` marks any metric."""
    from janus_widgets.analysis.metrics import holm
    p = []
    for key in keys:
        estimate = paired_estimate(a, b, key)
        p.append(_p_value(estimate, estimate.value))
    return holm(np.stack(p, -1), rate).any(-1)


# --- real Jactus games under optimal play ---------------------------------------------------
@dataclass
class OptimalWalker:
    """Two-player Jactus under the certified solution, as a Markov chain on the engine's
    own game graph: ``play(count)`` plays that many games from the start at once."""

    variant: dict[str, Any]
    graph: Any = field(init=False)
    solution: Any = field(init=False)

    def __post_init__(self) -> None:
        from janus_widgets.analysis.solve import cached_solution, explore
        self.solution = cached_solution(self.variant)
        self.graph, raws = explore(self.solution.engine)
        if raws != self.solution.raws:
            raise AssertionError("the explored graph is not the solution's")
        g = self.graph
        # The edge each decision takes under the solution (its action is the solution's).
        chosen = g.decision[g.edge_row] & (g.action == self.solution.moves[g.edge_row])
        self.next_move = np.full(g.n, -1)
        self.next_move[g.edge_row[chosen]] = g.succ[chosen]
        if (self.next_move[g.decision] < 0).any():
            raise AssertionError("a decision without the solution's move among its edges")
        # From any node, the chance or terminal node the decisions lead to, and how many.
        self.jump = np.arange(g.n)
        self.skipped = np.zeros(g.n, np.int64)
        moving = g.decision.copy()
        self.jump[moving] = self.next_move[moving]
        self.skipped[moving] = 1
        for _ in range(64):
            inner = g.decision[self.jump]
            if not inner.any():
                break
            self.skipped = self.skipped + np.where(inner, self.skipped[self.jump], 0)
            self.jump = np.where(inner, self.jump[self.jump], self.jump)
        # Sampling a chance node's outcome: its row's cumulative probabilities, shifted by
        # the row number, in one sorted array.
        cum = np.zeros(g.edges)
        rows = g.chance[g.edge_row]
        order = np.nonzero(rows)[0]
        cum[order] = g.prob[order]
        cum = np.cumsum(cum)
        start = np.zeros(g.n)
        start[g.chance] = cum[np.maximum(g.ptr[:-1][g.chance] - 1, 0)] * (g.ptr[:-1][g.chance] > 0)
        within = cum - start[g.edge_row]
        last = g.ptr[1:][g.chance] - 1
        within[last] = 1.0
        self.keys = g.edge_row + np.where(rows, np.minimum(within, 1.0), 0.0)

    def play(self, count: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
        """``count`` games: the winner's seat, turns (decisions) and plies of each."""
        g = self.graph
        node = np.full(count, self.jump[0])
        decisions = np.full(count, self.skipped[0])
        plies = decisions.copy()
        live = np.nonzero(g.kind[node] != 3)[0]
        while live.size:
            at = node[live]
            edge = np.searchsorted(self.keys, at + rng.random(live.size), side="left")
            out = g.succ[edge]
            nxt = self.jump[out]
            hops = self.skipped[out]
            decisions[live] += hops
            plies[live] += 1 + hops
            node[live] = nxt
            live = live[g.kind[nxt] != 3]
        payoff = g.payoff[node]
        sole = np.where(payoff == 1.0, 0, np.where(payoff == 0.0, 1, -1))
        return {"sole": sole, "decisions": decisions.astype(float),
                "plies": plies.astype(float)}

    def path(self, rng: np.random.Generator, limit: int = 100_000) -> list[int]:
        """One game, node by node (for :func:`replay_walk`)."""
        g = self.graph
        node, out = 0, []
        while g.kind[node] != 3 and len(out) < limit:
            if g.kind[node] == 2:
                edge = int(np.searchsorted(self.keys, node + rng.random(), side="left"))
                node = int(g.succ[edge])
            else:
                node = int(self.next_move[node])
            out.append(node)
        return out

    def truths(self) -> dict[str, float]:
        """The exact truths: A's win chance from the solver, the mean turns and plies
        from one linear solve each on the chain."""
        g = self.graph
        v = self.solution.value(self.solution.start)
        decisions = np.nonzero(g.decision)[0]
        chance_edges = np.nonzero(g.chance[g.edge_row])[0]
        rows = np.concatenate([decisions, g.edge_row[chance_edges]])
        cols = np.concatenate([self.next_move[decisions], g.succ[chance_edges]])
        probs = np.concatenate([np.ones(len(decisions)), g.prob[chance_edges]])
        live = ~g.terminal
        index = np.nonzero(live)[0]
        where = np.full(g.n, -1)
        where[index] = np.arange(len(index))
        keep = live[rows] & live[cols]
        step = sparse.csr_matrix((probs[keep], (where[rows[keep]], where[cols[keep]])),
                                 shape=(len(index), len(index)))
        system = (sparse.identity(len(index), format="csc") - step).tocsc()
        plies = linalg.spsolve(system, np.ones(len(index)))
        turns = linalg.spsolve(system, g.decision[index].astype(float))
        return {"win_A": v, "win_B": 1 - v, "advantage_p1": v - 0.5,
                "balance": 1 - abs(2 * v - 1), "completion": 1.0, "timeouts": 0.0,
                "drawishness": 0.0, "duration": float(turns[where[0]]),
                "duration_plies": float(plies[where[0]])}


def optimal_studies(games: dict[str, np.ndarray], index: np.ndarray) -> Studies:
    """Studies (rows of ``index``) of walked games."""
    sole = games["sole"][index]
    return Studies.simulated(2, sole, decisions=games["decisions"][index],
                             plies=games["plies"][index])


def replay_walk(walker: OptimalWalker, path: list[int]) -> Any:
    """Replay a walked game through the engine: at every decision the optimal bot's
    move, at every throw the outcome the walk drew (a legal one); the final state."""
    from janus_widgets.analysis.solve import OptimalBot
    from janus_widgets.games.jactus.rules import GAME
    raws = walker.solution.raws
    state = GAME.new(walker.solution.variant, seed=0)
    bot = OptimalBot()
    for node in path:
        target = raws[node]
        if state.is_chance:
            match = [a for a in state.engine.actions(state.raw)
                     if state.engine.apply(state.raw, a) == target]
            assert match, "the walk drew an outcome the engine does not have"
            state = state._child(match[0])
        else:
            move = bot(state)
            state = state.play(move)
            assert state.raw == target, "the walk left the optimal bot's move"
    return state


# --- real tournaments, bots re-seeded ---------------------------------------------------------
class Reseeded:
    """A bot factory: the named bot of ``game``, seeded from the game's seed and
    ``salt`` — the same deals, other bot choices (greedy bots break ties at random)."""

    def __init__(self, name: str, game: str, salt: int) -> None:
        self.name, self.game, self.salt = name, game, salt
        self.__name__ = name

    def __call__(self, seat: int, seed: int) -> Any:
        from janus_widgets import games as registry
        from janus_widgets.core.bots import make_bot
        return make_bot(self.name, registry.get(self.game), seat,
                        (seed * 1_000_003 + self.salt) % 2**63)


def reseeded_bank(game: str, deals: int, seedings: int, *, seed: int = 0,
                  **options: Any) -> list[Any]:
    """``seedings`` tournaments of ``deals`` games of ``game`` on the same deals, each
    with the greedy bots seeded afresh."""
    from janus_widgets.analysis.tournament import run_tournament
    return [run_tournament(game, bots=[Reseeded("greedy", game, 7 + salt)], games=deals,
                           seed=seed, progress=False, **options)
            for salt in range(seedings)]


def bank_comparisons(bank: list[Any], comparisons: int, games: int,
                     rng: np.random.Generator) -> tuple[Studies, Studies]:
    """``comparisons`` identical-rules comparisons of ``games`` deals each: the deals
    drawn without repeats, each deal's two sides two different seedings of its bots."""
    from janus_widgets.analysis.metrics import Studies as _Studies
    columns = [r.columns() for r in bank]
    deals = columns[0].n
    picks = np.argsort(rng.random((comparisons, deals)), axis=1)[:, :games]
    first = rng.integers(0, len(bank), (comparisons, games))
    second = (first + rng.integers(1, len(bank), (comparisons, games))) % len(bank)

    def side(which: np.ndarray) -> Studies:
        parts = {}
        for name in _Studies.FIELDS:
            stacked = np.stack([getattr(c, name) for c in columns])   # seedings × deals …
            parts[name] = stacked[which, picks]
        return _Studies(columns[0].players, **parts)
    return side(first), side(second)

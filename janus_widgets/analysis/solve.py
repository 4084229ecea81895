"""Two-player Jactus solved: optimal play computed exactly, certified, and cached.

:func:`solve_jactus` computes, for every position of 2-player Jactus that can arise from
the start, seat A's payoff under optimal play by both seats: 1 if A completes its set
first, 0 if B does, ½ if play goes on for ever (a draw). Chance is exact: the outcome
probabilities of JA-7 in float64, every linear solve refined until its residual is below
1e-13, and the values checked against the Bellman equations at every position
(:attr:`JactusSolution.residual`, at most 1e-12).

The trap, and how it is handled. A player can always pick up dice so that the throw
cannot score (leave two different faces: *spoiling*, see JA-19), so rounds need not
end. Then the Bellman equations (a decision point is worth the best of its moves, a
chance point the average of its outcomes) have many solutions: a cycle both players may
keep has any value between its ways out, and value iteration from 0 and from 1 only
brackets them. The value is the solution in which play that goes on for ever is worth
½. It is computed by **strategy iteration**: each pair of stationary strategies is
evaluated exactly by a sparse linear solve in which the positions from which the pair's
play can never end are worth ½ (found by a graph search first, so the system left is
non-singular), and both players switch to strictly better moves until neither can. That
can stop at a false solution (a player who would rather keep a cycle going than lose
sees no single better move) or go round in circles; then Hoffman–Karp iteration finishes
the job: A improves against B's exact best response and, where no single move helps,
takes the moves of its own exact best response that keep a cycle going.

The result is **certified**: :attr:`JactusSolution.gap` is its exploitability, the most
either player could gain, from any position, by a best response to the other's solution
strategy. Each best response is a Markov decision process solved exactly by policy
iteration, with the same care for cycles: the positions from which the responding
player can keep play going for ever are given an explicit "keep it going" option worth
½ (which they can guarantee), play that goes on for ever otherwise counts as the
responder's worst, and policy iteration on this positive model stops at its least
fixed point, which is the optimum. ``gap`` must be at most 1e-9; it is typically 0 to
within rounding.

Solutions are cached on disk in the user's cache folder (``$JANUS_WIDGETS_CACHE`` if
set, else :func:`platformdirs.user_cache_dir`), keyed by the rule options, the package
version and the source of the rules and of this module; a cached solution equals a
fresh one. Nothing read from the cache is trusted: the file must hold exactly the
arrays it should, with the checksum it was written with, and the certificate is worked
out again from the game itself (the game graph is explored anew, the strategies'
values, their exploitability, the Bellman residual and the chances of ending are
recomputed from the cached moves). A file that fails any of it is solved again and
replaced. Checking costs about a fifth of solving.

>>> from janus_widgets.games.jactus.rules import position
>>> sol = solve_jactus()
>>> sol.gap <= 1e-9
True
>>> start = sol.start
>>> round(sol.value(start), 6)           # A's opening: a hair under a half
0.499946
>>> s = position(dice=(6, 6, 6, 6, 2), to_move=1)
>>> [str(m) for m in sol.best_moves(s)]   # B keeps four 6s and throws the 2
['r2']
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from ..core.errors import VariantError
from ..core.protocol import CHANCE, TERMINAL, Engine, Move, State, seat_name

__all__ = ["GameGraph", "GraphSolution", "explore", "evaluate", "best_response",
           "solve_graph", "exploitability", "bellman_residual", "value_iteration",
           "end_chance", "end_chance_bounds", "plies_to_end", "JactusSolution", "PolicyTable",
           "solve_jactus", "cached_solution", "unsolvable", "in_memory", "cache_dir",
           "OptimalBot", "optimal_bot", "SolverError"]

#: Node kinds of a :class:`GameGraph` besides the seats 0 (A, maximises) and 1 (B).
CHANCE_NODE, TERMINAL_NODE = 2, 3
#: Strict improvement threshold of strategy and policy iteration (values are in 0..1).
IMPROVE = 1e-12
#: Rounds of simultaneous switching before Hoffman-Karp takes over (it may cycle).
STRATEGY_ROUNDS = 60
#: Chances of stopping per throw of the stopping games Hoffman-Karp works in, in turn,
#: until one's solution is certified in the game itself.
DISCOUNTS = (1e-6, 1e-8, 1e-10, 1e-12)
#: What the certificate must reach.
GAP_LIMIT = 1e-9
#: Moves within this of a position's value count as attaining it (:meth:`best_moves`).
ATTAIN = 1e-9
#: The largest game the solver takes on: layouts of the pieces (2-player Jactus: 54).
MAX_LAYOUTS = 100
#: Bump when the cache file layout or the method changes (2: no raw states in the file,
#: a checksum in its meta; every read is certified again).
CACHE_FORMAT = 2
#: The arrays of a cache file and their types (anything else in it: not a solution).
CACHE_ARRAYS = {"values": np.float64, "moves": np.int16, "ends": np.float64,
                "meta": np.uint8}
#: The largest meta a cache file may hold (it is a few hundred bytes).
CACHE_META_BYTES = 1 << 16


class SolverError(RuntimeError):
    """The solver could not certify a solution (it says how far it got)."""


_SCIPY: list[Any] = []


def _need_scipy() -> Any:
    if _SCIPY:
        return _SCIPY[0]
    try:
        import scipy.sparse  # noqa: F401
        import scipy.sparse.csgraph  # noqa: F401
        import scipy.sparse.linalg  # noqa: F401
    except ImportError:  # pragma: no cover - a dependency of the package
        raise ImportError("the Jactus solver needs scipy (janus_widgets installs it with "
                          "itself; this environment lacks it): pip install scipy") from None
    import scipy
    _SCIPY.append(scipy)
    return scipy


# --- the game as a graph ----------------------------------------------------------------
@dataclass(eq=False)
class GameGraph:
    """A finite two-player zero-sum game with chance, as arrays.

    Node ``i`` has kind ``kind[i]``: 0 or 1 (that seat chooses; seat 0 maximises seat 0's
    payoff, seat 1 minimises it), :data:`CHANCE_NODE` or :data:`TERMINAL_NODE`. Its edges
    are ``ptr[i]:ptr[i+1]`` of ``succ`` (the node each leads to), ``prob`` (chance edges:
    the outcome's probability) and ``action`` (the engine's action number, or -1).
    ``payoff`` is seat 0's payoff at terminal nodes. Play that never ends is worth ½.

    >>> g = GameGraph.from_edges([0, 3], {0: [1, 0]}, {1: 1.0})   # win now, or loop
    >>> g.n, g.edges
    (2, 2)
    """

    kind: np.ndarray
    ptr: np.ndarray
    succ: np.ndarray
    prob: np.ndarray
    payoff: np.ndarray
    action: np.ndarray

    @classmethod
    def from_edges(cls, kinds: Sequence[int], edges: dict[int, Sequence[int]],
                   payoffs: dict[int, float],
                   probs: dict[int, Sequence[float]] | None = None) -> GameGraph:
        """A small graph by hand (for examples and tests): node kinds, successors per
        node, seat 0's payoff at terminals and outcome probabilities at chance nodes."""
        probs = probs or {}
        n = len(kinds)
        counts = [len(edges.get(i, ())) for i in range(n)]
        ptr = np.zeros(n + 1, np.int64)
        ptr[1:] = np.cumsum(counts)
        succ = np.array([j for i in range(n) for j in edges.get(i, ())], np.int64)
        prob = np.array([p for i in range(n) for p in
                         (probs[i] if kinds[i] == CHANCE_NODE else [0.0] * counts[i])])
        payoff = np.array([float(payoffs.get(i, 0.0)) for i in range(n)])
        graph = cls(np.array(kinds, np.int8), ptr, succ, prob.astype(float), payoff,
                    np.full(len(succ), -1, np.int64))
        graph.check()
        return graph

    def check(self) -> None:
        """Raise ``ValueError`` if the arrays do not describe a game."""
        kind, deg = self.kind, np.diff(self.ptr)
        if np.any((kind != TERMINAL_NODE) & (deg == 0)):
            raise ValueError("every node that is not terminal needs at least one edge")
        if np.any((kind == TERMINAL_NODE) & (deg > 0)):
            raise ValueError("terminal nodes have no edges")
        sums = np.zeros(self.n)
        np.add.at(sums, self.edge_row, self.prob)
        bad = (kind == CHANCE_NODE) & (np.abs(sums - 1) > 1e-12)
        if bad.any():
            raise ValueError(f"the outcome probabilities of chance node {int(np.argmax(bad))}"
                             " do not sum to 1")

    @property
    def n(self) -> int:
        """The number of nodes."""
        return len(self.kind)

    @property
    def edges(self) -> int:
        """The number of edges."""
        return len(self.succ)

    @cached_property
    def edge_row(self) -> np.ndarray:
        """The node each edge leaves."""
        return np.repeat(np.arange(self.n), np.diff(self.ptr))

    @cached_property
    def has_edges(self) -> np.ndarray:
        return np.diff(self.ptr) > 0

    @cached_property
    def starts(self) -> np.ndarray:
        """First edge of every node that has edges (for ``reduceat``)."""
        return self.ptr[:-1][self.has_edges]

    @cached_property
    def decision(self) -> np.ndarray:
        return (self.kind == 0) | (self.kind == 1)

    @cached_property
    def chance(self) -> np.ndarray:
        return self.kind == CHANCE_NODE

    @cached_property
    def terminal(self) -> np.ndarray:
        return self.kind == TERMINAL_NODE

    @cached_property
    def chance_edges(self) -> np.ndarray:
        """The edges that leave chance nodes."""
        return np.nonzero(self.chance[self.edge_row])[0]

    @cached_property
    def chance_matrix(self) -> Any:
        """Outcome probabilities of the chance nodes (CSR, one row per node)."""
        sp = _need_scipy().sparse
        e = self.chance[self.edge_row]
        return sp.csr_matrix((self.prob[e], (self.edge_row[e], self.succ[e])),
                             shape=(self.n, self.n))

    def first_choice(self) -> np.ndarray:
        """A strategy for both seats: the first edge of every decision node."""
        choice = np.full(self.n, -1, np.int64)
        choice[self.decision] = self.ptr[:-1][self.decision]
        return choice

    def row_best(self, scores: np.ndarray, tol: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """Per node: the largest of ``scores`` over its edges, and the first edge that
        comes within ``tol`` of it (-inf and -1 for nodes without edges)."""
        best = np.full(self.n, -np.inf)
        arg = np.full(self.n, -1, np.int64)
        if self.edges:
            best[self.has_edges] = np.maximum.reduceat(scores, self.starts)
            hit = scores >= best[self.edge_row] - tol
            index = np.where(hit, np.arange(self.edges), self.edges)
            arg[self.has_edges] = np.minimum.reduceat(index, self.starts)
        return best, arg


def explore(engine: Engine, *, limit: int = 2_000_000) -> tuple[GameGraph, list[Any]]:
    """Every position reachable from ``engine.initial()`` (breadth first, moves in the
    engine's order), as a :class:`GameGraph` and the list of raw states by node."""
    if engine.num_players != 2:
        raise ValueError("the solver plays two-player games")
    start = engine.initial()
    index = {start: 0}
    raws = [start]
    kinds: list[int] = []
    payoff: list[float] = []
    succ: list[int] = []
    prob: list[float] = []
    action: list[int] = []
    counts: list[int] = []
    current, actions, apply = engine.current, engine.actions, engine.apply
    tables: dict[int, tuple[Any, list[int], list[float]]] = {}
    i = 0
    while i < len(raws):
        raw = raws[i]
        who = current(raw)
        if who == TERMINAL:
            kinds.append(TERMINAL_NODE)
            won = engine.winners(raw)
            payoff.append(1.0 if won == (0,) else 0.0 if won == (1,) else 0.5)
            counts.append(0)
            i += 1
            continue
        if who == CHANCE:
            outcomes = engine.chance_outcomes(raw)
            if outcomes is None:
                raise ValueError("the solver needs chance outcomes it can list")
            # Engines hand out shared tables of outcomes: convert each table once.
            known = tables.get(id(outcomes))
            if known is None or known[0] is not outcomes:
                known = tables[id(outcomes)] = (outcomes, [a for a, _ in outcomes],
                                                [float(p) for _, p in outcomes])
            acts = known[1]
            prob.extend(known[2])
            kinds.append(CHANCE_NODE)
        else:
            acts = list(actions(raw))
            prob.extend([0.0] * len(acts))
            kinds.append(who)
        payoff.append(0.0)
        counts.append(len(acts))
        action.extend(acts)
        for a in acts:
            nxt = apply(raw, a)
            j = index.get(nxt)
            if j is None:
                j = index[nxt] = len(raws)
                raws.append(nxt)
                if len(raws) > limit:
                    raise ValueError(f"more than {limit:,} positions: too many to solve")
            succ.append(j)
        i += 1
    ptr = np.zeros(len(raws) + 1, np.int64)
    ptr[1:] = np.cumsum(counts)
    graph = GameGraph(np.array(kinds, np.int8), ptr, np.array(succ, np.int64),
                      np.array(prob, float), np.array(payoff, float),
                      np.array(action, np.int64))
    return graph, raws


# --- evaluating a pair of strategies ----------------------------------------------------
def evaluate(graph: GameGraph, choice: np.ndarray, *, stop: np.ndarray | None = None,
             never: float = 0.5, stop_value: float = 0.5,
             payoff: np.ndarray | None = None, discount: float = 0.0) -> np.ndarray:
    """Seat 0's payoff at every node when both seats play ``choice`` (the edge each
    decision node takes), solved exactly.

    Nodes in ``stop`` count as terminal, worth ``stop_value``. Nodes from which play
    under ``choice`` can never reach a terminal are worth ``never`` (½ for the game:
    a cycle the strategies keep is a draw); the rest solve a non-singular sparse system.
    ``payoff`` replaces the terminal payoffs (1 everywhere gives the chance of ending).
    With ``discount`` ε, every move and every throw first stops the game with chance ε at
    the value ``never`` (the stopping game the solver falls back on; positions that
    cannot end are worth ``never`` there too).

    >>> g = GameGraph.from_edges([0, 3], {0: [1, 0]}, {1: 1.0})
    >>> evaluate(g, np.array([1, -1])).tolist(), evaluate(g, np.array([0, -1])).tolist()
    ([0.5, 1.0], [1.0, 1.0])
    """
    scipy = _need_scipy()
    sp, csgraph, linalg = scipy.sparse, scipy.sparse.csgraph, scipy.sparse.linalg
    n = graph.n
    terminal = graph.terminal if stop is None else (graph.terminal | stop)
    base = np.where(graph.terminal, graph.payoff if payoff is None else payoff, 0.0)
    if stop is not None:
        base = np.where(stop, stop_value, base)
    moving = graph.decision & ~terminal
    # Follow the decision nodes' choices to the chance or terminal node they lead to.
    rep = np.arange(n)
    rep[moving] = graph.succ[choice[moving]]
    depth = moving.astype(np.int64)          # the moves between a node and its rep
    for _ in range(64):
        nxt = rep[rep]
        if np.array_equal(nxt, rep):
            break
        depth = np.minimum(depth + depth[rep], 1 << 40)
        rep = nxt
    stuck = moving[rep]                      # a cycle of choices with no chance: never ends
    go_on = 1.0 - discount                   # chance of no stop, per move and per throw
    reach = go_on ** depth if discount else np.ones(n)
    live = graph.chance & ~terminal
    edges = graph.chance_edges[live[graph.edge_row[graph.chance_edges]]]
    succ = graph.succ[edges]
    rows, cols = graph.edge_row[edges], rep[succ]
    # An outcome that leads through moves is worth less of its rep (and more of a stop).
    probs = graph.prob[edges] * reach[succ]
    stop_share = np.bincount(rows, graph.prob[edges] * (1.0 - reach[succ]), minlength=n)
    fine = ~stuck[cols]
    to_live, to_end = live[cols] & fine, terminal[cols] & fine
    # Only the chance nodes that play can come back to are unknowns of the system; the
    # others ("leaves": no move chosen leads to them) are averages of the solved values.
    referenced = np.zeros(n, bool)
    referenced[cols[to_live]] = True
    own = referenced[rows]
    # Which of them can reach a terminal: search backwards from a super node.
    arc, stop_arc = to_live & own, to_end & own
    back = sp.csr_matrix((np.ones(int(arc.sum()) + int(stop_arc.sum()), bool),
                          (np.concatenate([cols[arc], np.full(int(stop_arc.sum()), n)]),
                           np.concatenate([rows[arc], rows[stop_arc]]))), shape=(n + 1, n + 1))
    reached = csgraph.breadth_first_order(back, n, directed=True, return_predecessors=False)
    ends = np.zeros(n + 1, bool)
    ends[reached] = True
    ends = ends[:n] & referenced
    unknown = np.nonzero(ends)[0]
    where = np.full(n, -1)
    where[unknown] = np.arange(len(unknown))
    keep = ends[rows]
    r, c, p = rows[keep], cols[keep], probs[keep] * go_on
    inside = where[c] >= 0
    known = np.where(terminal[c] & ~stuck[c], base[c], never)
    rhs = np.bincount(where[r[~inside]], p[~inside] * known[~inside],
                      minlength=len(unknown)).astype(float)
    if discount:
        rhs += never * (discount + go_on * stop_share[unknown])
    a = sp.csr_matrix((p[inside], (where[r[inside]], where[c[inside]])),
                      shape=(len(unknown), len(unknown)))
    system = (sp.identity(len(unknown), format="csr") - a).tocsc()
    x = linalg.spsolve(system, rhs) if len(unknown) else np.zeros(0)
    residual = rhs - system @ x
    if len(unknown) and np.abs(residual).max() > 1e-13:       # one step of refinement
        x = x + linalg.spsolve(system, residual)
    values = np.full(n, never)
    values[terminal] = base[terminal]
    values[unknown] = x
    leaf = ~own
    if leaf.any():
        total = np.bincount(rows[leaf], probs[leaf] * np.where(stuck[cols[leaf]], never,
                                                              values[cols[leaf]]),
                            minlength=n)
        leaves = np.unique(rows[leaf])
        values[leaves] = go_on * total[leaves] + never * (discount + go_on
                                                          * stop_share[leaves])
    chosen = values[rep[moving]] * reach[moving] + never * (1.0 - reach[moving])
    values[moving] = np.where(stuck[moving], never, chosen)
    return values


def value_iteration(graph: GameGraph, start: float, sweeps: int, *,
                    track: Sequence[int] = (0,)) -> np.ndarray:
    """Sweeps of the Bellman equations from ``start`` at every node that is not terminal
    (a decision node takes the best of its moves for its seat, a chance node the average
    of its outcomes): the values of the ``track`` nodes after 0, 1, …, ``sweeps`` sweeps.

    From 0 the values rise towards the least solution of the equations and from 1 they
    fall towards the greatest; the value lies in between. Where play can cycle the two
    need not meet, which is why the solver does not iterate values:

    >>> g = GameGraph.from_edges([0, 1, 3, 3], {0: [2, 1], 1: [3, 0]}, {2: 0.2, 3: 0.8})
    >>> value_iteration(g, 0.0, 20)[-1].tolist(), value_iteration(g, 1.0, 20)[-1].tolist()
    ([0.2], [0.8])
    """
    values = np.where(graph.terminal, graph.payoff, float(start))
    out = [values[list(track)].copy()]
    # Each kind of node sweeps over its own edges (a slice of the edge arrays).
    groups = []
    for kind in (0, 1):
        nodes = np.nonzero(graph.kind == kind)[0]
        edges = np.concatenate([np.arange(graph.ptr[i], graph.ptr[i + 1]) for i in nodes]
                               ) if len(nodes) else np.zeros(0, np.int64)
        starts = np.concatenate([[0], np.cumsum(np.diff(graph.ptr)[nodes])[:-1]])
        groups.append((nodes, graph.succ[edges], starts.astype(np.int64)))
    chance = np.nonzero(graph.chance)[0]
    matrix = graph.chance_matrix[chance]
    for _ in range(sweeps):
        new = values.copy()
        for kind, (nodes, succ, starts) in enumerate(groups):
            if len(nodes):
                reduce = np.maximum if kind == 0 else np.minimum
                new[nodes] = reduce.reduceat(values[succ], starts)
        new[chance] = matrix @ values
        values = new
        out.append(values[list(track)].copy())
    return np.array(out)


# --- best responses -----------------------------------------------------------------------
def _keep_going_set(graph: GameGraph, player: int, choice: np.ndarray) -> np.ndarray:
    """The nodes from which ``player`` can keep play going for ever (the other seat
    playing ``choice``): the greatest set closed under chance and the other seat in which
    ``player`` always has a move that stays inside."""
    inside = ~graph.terminal
    other = graph.decision & (graph.kind != player)
    mine = graph.kind == player
    while True:
        flags = inside[graph.succ]
        some = np.zeros(graph.n, bool)
        every = np.zeros(graph.n, bool)
        if graph.edges:
            some[graph.has_edges] = np.logical_or.reduceat(flags, graph.starts)
            every[graph.has_edges] = np.logical_and.reduceat(flags, graph.starts)
        fixed = np.zeros(graph.n, bool)
        fixed[other] = inside[graph.succ[choice[other]]]
        stays = np.where(mine, some, np.where(graph.chance, every, fixed))
        new = inside & stays
        if np.array_equal(new, inside):
            return inside
        inside = new


@dataclass
class Response:
    """A best response: its values (seat 0's payoff), its choices, and where the
    responder keeps play going for ever (``keep``)."""

    values: np.ndarray
    choice: np.ndarray
    keep: np.ndarray
    iterations: int


def best_response(graph: GameGraph, player: int, choice: np.ndarray, *,
                  payoff: np.ndarray | None = None, loop: float = 0.5,
                  values: np.ndarray | None = None, max_iterations: int = 500) -> Response:
    """``player``'s best response to the other seat's choices in ``choice``, solved
    exactly (policy iteration on the model described in the module docstring).
    ``payoff`` (in 0..1) replaces the terminal payoffs and ``loop`` is what play that
    goes on for ever is worth (½ in the game). ``values`` (of ``choice`` itself) only
    warm-starts the iteration: it keeps play going at first only where ``choice`` does
    the responder no better than ``loop``.

    In the example the loop at node 0 is worth more to seat 0 than losing at once:

    >>> g = GameGraph.from_edges([0, 3], {0: [1, 0]}, {1: 0.0})
    >>> r = best_response(g, 0, g.first_choice())
    >>> r.values.tolist(), bool(r.keep[0])
    ([0.5, 0.0], True)
    """
    sign = 1.0 if player == 0 else -1.0
    worst = 0.0 if player == 0 else 1.0          # never ending, without keeping it so
    safe = _keep_going_set(graph, player, choice)
    mine = graph.kind == player
    other = graph.decision & ~mine
    half = sign * loop
    stop = safe.copy() if values is None else safe & (sign * values < half + IMPROVE)
    ch = choice.copy()
    for iteration in range(1, max_iterations + 1):
        values = evaluate(graph, ch, stop=stop, never=worst, stop_value=loop, payoff=payoff)
        score = sign * values
        edge_score = score[graph.succ]
        best, arg = graph.row_best(edge_score)
        current = np.full(graph.n, -np.inf)
        current[mine] = edge_score[ch[mine]]
        go_on = np.full(graph.n, -np.inf)     # what continuing is worth at each node
        go_on[mine] = best[mine]
        go_on[graph.chance] = (sign * (graph.chance_matrix @ values))[graph.chance]
        go_on[other] = edge_score[ch[other]]
        switch = mine & ~stop & (best > current + IMPROVE)
        resume = stop & (go_on > half + IMPROVE)
        halt = safe & ~stop & (half > score + IMPROVE)
        if not (switch.any() or resume.any() or halt.any()):
            break
        ch[switch] = arg[switch]
        ch[resume & mine] = arg[resume & mine]
        stop = (stop & ~resume) | halt
    else:  # pragma: no cover - policy iteration ends after finitely many steps
        raise SolverError(f"the best response did not settle in {max_iterations} steps")
    # Where the responder keeps play going, a move that stays in the safe set does it.
    stay = np.where(safe[graph.succ], np.arange(graph.edges), graph.edges)
    first_stay = np.full(graph.n, -1, np.int64)
    if graph.edges:
        first_stay[graph.has_edges] = np.minimum.reduceat(stay, graph.starts)
    ch[stop & mine] = first_stay[stop & mine]
    return Response(values, ch, stop, iteration)


# --- the game solved ---------------------------------------------------------------------
@dataclass
class GraphSolution:
    """Values and strategies of a solved :class:`GameGraph`, with their certificate."""

    values: np.ndarray
    choice: np.ndarray
    gap: float
    iterations: int
    method: str
    #: Chance that play from each node ends (someone wins) under ``choice``.
    ends: np.ndarray = field(repr=False)


def _discounted_reply(graph: GameGraph, player: int, choice: np.ndarray, discount: float,
                      max_iterations: int = 500) -> tuple[np.ndarray, np.ndarray]:
    """``player``'s best response in the game that stops at ½ with chance ``discount``
    at every throw: plain policy iteration (in a stopping game it needs no care for
    cycles). Returns the values and the choices."""
    ch = choice.copy()
    for _ in range(max_iterations):
        values = evaluate(graph, ch, discount=discount)
        ch, switched = _improve(graph, values, ch, (player,))
        if not switched:
            return values, ch
    raise SolverError(f"the best response did not settle in {max_iterations} steps"
                      )  # pragma: no cover - policy iteration ends


def _improve(graph: GameGraph, values: np.ndarray, choice: np.ndarray,
             players: Sequence[int]) -> tuple[np.ndarray, int]:
    edge_values = values[graph.succ]
    new = choice.copy()
    switched = 0
    for player in players:
        sign = 1.0 if player == 0 else -1.0
        best, arg = graph.row_best(sign * edge_values)
        rows = graph.kind == player
        current = np.full(graph.n, np.inf)
        current[rows] = sign * edge_values[choice[rows]]
        better = rows & (best > current + IMPROVE)
        new[better] = arg[better]
        switched += int(better.sum())
    return new, switched


def exploitability(graph: GameGraph, choice: np.ndarray,
                   values: np.ndarray | None = None) -> float:
    """The most either seat gains, from any node, by a best response to the other
    seat's part of ``choice`` (each solved exactly)."""
    if values is None:
        values = evaluate(graph, choice)
    gain_a = best_response(graph, 0, choice).values - values
    gain_b = values - best_response(graph, 1, choice).values
    return max(0.0, float(gain_a.max(initial=0.0)), float(gain_b.max(initial=0.0)))


def bellman_residual(graph: GameGraph, values: np.ndarray) -> float:
    """The largest amount by which ``values`` miss the Bellman equations: a decision node
    against the best of its moves for its seat, a chance node against the average of its
    outcomes, a terminal node against its payoff."""
    edge_values = values[graph.succ]
    high, _ = graph.row_best(edge_values)
    low, _ = graph.row_best(-edge_values)
    want = np.where(graph.kind == 0, high, np.where(graph.kind == 1, -low, 0.0))
    want[graph.chance] = (graph.chance_matrix @ values)[graph.chance]
    want[graph.terminal] = graph.payoff[graph.terminal]
    return float(np.abs(want - values).max(initial=0.0))


def end_chance(graph: GameGraph, choice: np.ndarray) -> np.ndarray:
    """The chance that play from each node ends (someone wins) under ``choice``."""
    return evaluate(graph, choice, never=0.0, payoff=np.ones(graph.n))


def plies_to_end(graph: GameGraph, choice: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Under ``choice``: the chance that play from each node ends, and the mean number of
    plies (moves and chance outcomes) it takes when it does (NaN where it never ends).

    The mean comes from one more linear solve: ``w = u + P w`` on the nodes that can end,
    where ``u`` is the chance of ending and ``w`` the expected plies counted only in the
    games that end (``w = 0`` at terminal nodes).
    """
    scipy = _need_scipy()
    sp, linalg = scipy.sparse, scipy.sparse.linalg
    ends = end_chance(graph, choice)
    live = np.nonzero((ends > 0) & ~graph.terminal)[0]
    where = np.full(graph.n, -1)
    where[live] = np.arange(len(live))
    chosen = graph.decision.copy()
    edges = np.nonzero(graph.chance[graph.edge_row])[0]
    rows = np.concatenate([graph.edge_row[edges], np.nonzero(chosen)[0]])
    cols = np.concatenate([graph.succ[edges], graph.succ[choice[chosen]]])
    probs = np.concatenate([graph.prob[edges], np.ones(int(chosen.sum()))])
    keep = (where[rows] >= 0) & (where[cols] >= 0)
    step = sp.csr_matrix((probs[keep], (where[rows[keep]], where[cols[keep]])),
                         shape=(len(live), len(live)))
    system = (sp.identity(len(live), format="csr") - step).tocsc()
    weighted = linalg.spsolve(system, ends[live]) if len(live) else np.zeros(0)
    mean = np.full(graph.n, np.nan)
    mean[graph.terminal] = 0.0
    mean[live] = weighted / ends[live]
    return ends, mean


def end_chance_bounds(graph: GameGraph, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The least and the greatest chance that play from each node ends, over every
    pair of strategies that only play moves attaining ``values`` (within 1e-9): if the
    two agree, optimal players cannot change whether the game ends."""
    edge_values = values[graph.succ]
    keep = np.nonzero(~graph.decision[graph.edge_row]
                      | (np.abs(edge_values - values[graph.edge_row]) <= ATTAIN))[0]
    counts = np.bincount(graph.edge_row[keep], minlength=graph.n)
    ptr = np.zeros(graph.n + 1, np.int64)
    ptr[1:] = np.cumsum(counts)
    ones = np.ones(graph.n)
    out = []
    for seat in (1, 0):            # every choice made by a seat that minimises / maximises
        kind = np.where(graph.decision, seat, graph.kind).astype(np.int8)
        both = GameGraph(kind, ptr, graph.succ[keep], graph.prob[keep], graph.payoff,
                         graph.action[keep])
        out.append(best_response(both, seat, both.first_choice(), payoff=ones,
                                 loop=0.0).values)
    return out[0], out[1]


def _hoffman_karp(graph: GameGraph, choice: np.ndarray, values: np.ndarray | None,
                  rounds: int) -> tuple[np.ndarray, np.ndarray, float, int]:
    """Seat 0 improves against seat 1's exact best response; when no single switch
    helps, it takes its own best response's moves where they keep a cycle going that
    it gains by (the gains no single switch shows). Returns the choice, its values, the
    certified gap and the rounds used."""
    gap = np.inf
    for done in range(1, rounds + 1):
        reply = best_response(graph, 1, choice, values=values)
        choice = np.where(graph.kind == 1, reply.choice, choice)
        values = evaluate(graph, choice)
        improved, switched = _improve(graph, values, choice, (0,))
        if switched:
            choice = improved
            continue
        own = best_response(graph, 0, choice, values=values)
        gains = own.values - values
        gap = max(0.0, float(gains.max(initial=0.0)),
                  float((values - reply.values).max(initial=0.0)))
        if gap <= GAP_LIMIT:               # both best responses are to this very choice
            return choice, values, gap, done
        better = (graph.kind == 0) & (gains > GAP_LIMIT)
        if (better & own.keep).any():
            better &= own.keep
        choice = np.where(better, own.choice, choice)
    return choice, values, gap, rounds


def _stopping_games(graph: GameGraph, rounds: int
                    ) -> tuple[np.ndarray, np.ndarray, float, int]:
    """The last resort: Hoffman-Karp in games that stop at ½ with chance ε at every move
    and throw (where it cannot go round in circles), ε ever smaller, each result
    certified in the game itself."""
    choice, gap, used = graph.first_choice(), np.inf, 0
    values = evaluate(graph, choice)
    for discount in DISCOUNTS:
        for _ in range(rounds):
            used += 1
            _, reply = _discounted_reply(graph, 1, choice, discount)
            choice = np.where(graph.kind == 1, reply, choice)
            stopping = evaluate(graph, choice, discount=discount)
            choice, switched = _improve(graph, stopping, choice, (0,))
            if not switched:
                break
        values = evaluate(graph, choice)
        gap = exploitability(graph, choice, values)
        if gap <= GAP_LIMIT:
            break
    return choice, values, gap, used


def solve_graph(graph: GameGraph, *, method: str = "auto", max_iterations: int = 400,
                choice: np.ndarray | None = None) -> GraphSolution:
    """Solve a :class:`GameGraph`: values with never-ending play worth ½, optimal
    strategies for both seats, and the certificate ``gap``.

    ``method="strategy"``: both seats switch to strictly better moves at once until
    neither can. That ends at a solution of the Bellman equations, which need not be the
    value (a seat may gain by keeping a cycle going, a switch no single move shows), so
    ``"auto"`` (the default) certifies it and, if the gap is above 1e-9 — or if switching
    both seats at once goes round in a cycle, or has not settled after 60 rounds — goes
    on with ``"hoffman-karp"``: seat 0 improves against seat 1's exact best response and,
    when no single switch helps, takes its own best response's moves where they keep a
    cycle going that it gains by. Should that not be certified either, Hoffman-Karp runs
    in stopping games (the game ends at ½ with chance ε at every move and throw, ε from
    1e-6 down to 1e-12), each result certified in the game itself. Raises
    :class:`SolverError` if the gap stays above 1e-9.

    The cycle both seats may keep is worth ½, not anything between its ways out:

    >>> g = GameGraph.from_edges([0, 1, 3, 3], {0: [1, 2], 1: [0, 3]}, {2: 0.2, 3: 0.8})
    >>> s = solve_graph(g)
    >>> s.values.tolist()[:2], s.gap
    ([0.5, 0.5], 0.0)
    """
    if method not in ("auto", "strategy", "hoffman-karp"):
        raise ValueError(f"method={method!r}: use 'auto', 'strategy' or 'hoffman-karp'")
    choice = graph.first_choice() if choice is None else choice.copy()
    iterations = 0
    gap = np.inf
    used = []
    values = None
    if method in ("auto", "strategy"):
        used.append("strategy iteration")
        seen: set[bytes] = set()
        for _ in range(max_iterations if method == "strategy" else STRATEGY_ROUNDS):
            iterations += 1
            values = evaluate(graph, choice)
            choice, switched = _improve(graph, values, choice, (0, 1))
            if not switched:
                values = evaluate(graph, choice)
                gap = exploitability(graph, choice, values)
                break
            digest = hashlib.sha1(choice.tobytes()).digest()
            if digest in seen:          # switching both seats at once went round a cycle
                break
            seen.add(digest)
    if gap > GAP_LIMIT and method in ("auto", "hoffman-karp"):
        used.append("Hoffman-Karp")
        choice, values, gap, rounds = _hoffman_karp(graph, choice, values, max_iterations)
        iterations += rounds
    if gap > GAP_LIMIT and method in ("auto", "hoffman-karp"):
        used.append("stopping games")
        choice, values, gap, rounds = _stopping_games(graph, max_iterations)
        iterations += rounds
    if gap > GAP_LIMIT:
        raise SolverError(f"the solution could not be certified: gap {gap:.3g} after "
                          f"{iterations} iterations ({', '.join(used)})")
    return GraphSolution(values, choice, gap, iterations, " then ".join(used),
                         end_chance(graph, choice))


# --- Jactus --------------------------------------------------------------------------------
def cache_dir() -> Path:
    """Where solutions are kept: ``$JANUS_WIDGETS_CACHE``, else the user's cache folder
    (``platformdirs.user_cache_dir("janus_widgets")``)."""
    env = os.environ.get("JANUS_WIDGETS_CACHE")
    if env:
        return Path(env)
    import platformdirs
    return Path(platformdirs.user_cache_dir("janus_widgets"))


def _source_digest() -> str:
    """The source of the rules and of this solver, as imported (read once, so a file
    edited after the import cannot pass for the code that runs)."""
    from ..games.jactus import rules
    digest = hashlib.sha256()
    for module_file in (rules.__file__, __file__):
        digest.update(Path(module_file).read_bytes())
    return digest.hexdigest()


_SOURCE = _source_digest()


def _fingerprint() -> str:
    """The package version and the source of the rules and of this solver."""
    from .. import __version__
    return hashlib.sha256((__version__ + _SOURCE).encode()).hexdigest()


def _cache_key(variant: Any) -> str:
    text = json.dumps({"game": "jactus", "options": variant.to_dict(),
                       "format": CACHE_FORMAT, "code": _fingerprint()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _layouts(variant: Any) -> int:
    from math import comb
    out = 1
    for total in variant.totals():
        out *= comb(total + 2, 2)      # each piece: the supply, seat A or seat B
    return out


def _check_variant(variant: Any) -> Any:
    from ..games.jactus.rules import JactusVariant
    if variant is None:
        variant = JactusVariant()
    elif isinstance(variant, dict):
        variant = JactusVariant.from_dict(variant)
    elif not isinstance(variant, JactusVariant):
        raise TypeError(f"solve_jactus takes a JactusVariant, a dict of options or None, "
                        f"not {type(variant).__name__}")
    if variant.players != 2:
        raise VariantError(f"the Jactus solver plays 2-player games only, not "
                           f"players={variant.players}: with more players a game has no "
                           "single zero-sum value", field="players", value=variant.players,
                           allowed="2")
    layouts = _layouts(variant)
    if layouts > MAX_LAYOUTS:
        raise VariantError(f"the Jactus solver takes at most {MAX_LAYOUTS} layouts of the "
                           f"pieces; supply={variant.supply!r} makes {layouts:,} (about "
                           f"{layouts * 930:,} positions). Use the rulebook's 2-player "
                           "supply (supply='by-players', 54 layouts)", field="supply",
                           value=variant.supply, allowed="by-players")
    return variant


def _checksum(values: np.ndarray, moves: np.ndarray, ends: np.ndarray,
              meta: dict[str, Any]) -> str:
    """SHA-256 of a solution's arrays (their types, shapes and bytes) and its meta."""
    digest = hashlib.sha256()
    for array in (values, moves, ends):
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    digest.update(json.dumps(meta, sort_keys=True).encode())
    return digest.hexdigest()


def _read_meta(raw: bytes) -> dict[str, Any]:
    """A cache file's meta: a JSON object with each key once (``ValueError`` if not)."""
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) != len(items):
            raise ValueError("a cache file's meta names a key twice")
        return out

    try:
        meta = json.loads(raw.decode("utf-8"), object_pairs_hook=pairs)
    except RecursionError:
        raise ValueError("a cache file's meta is nested too deeply to be one") from None
    if not isinstance(meta, dict):
        raise ValueError(f"a cache file's meta is an object, not {type(meta).__name__}")
    return meta


def _certify(graph: GameGraph, values: np.ndarray, moves: np.ndarray,
             ends: np.ndarray) -> dict[str, Any]:
    """The certificate of cached ``values``, ``moves`` (the action chosen at each decision
    node, -1 elsewhere) and ``ends``, worked out again in ``graph``: the figures the
    meta states, or ``ValueError`` where they fail (a move that is not one, values that
    are not the strategies' own, a gap above :data:`GAP_LIMIT`)."""
    decision_edge = graph.decision[graph.edge_row]
    chosen = decision_edge & (graph.action == moves[graph.edge_row].astype(np.int64))
    choice = np.full(graph.n, -1, np.int64)
    choice[graph.edge_row[chosen]] = np.nonzero(chosen)[0]
    if not np.array_equal(choice >= 0, graph.decision) or \
            np.any(moves[~graph.decision] != -1):
        raise ValueError("the cached moves are not one legal move at every decision")
    own = evaluate(graph, choice)
    if not np.all(np.isfinite(values)) or float(np.abs(own - values).max(initial=0)) > 1e-9:
        raise ValueError("the cached values are not those of the cached strategies")
    gap = exploitability(graph, choice, own)
    if gap > GAP_LIMIT:
        raise ValueError(f"the cached strategies are exploitable by {gap:.3g}")
    residual = bellman_residual(graph, values)
    if residual > 1e-11:
        raise ValueError(f"the cached values miss the Bellman equations by {residual:.3g}")
    if float(np.abs(end_chance(graph, choice) - ends).max(initial=0)) > 1e-9:
        raise ValueError("the cached chances of ending are not the strategies' own")
    low, high = end_chance_bounds(graph, values)
    _, plies = plies_to_end(graph, choice)
    return {"gap": gap, "residual": residual, "end_bounds": [float(low[0]), float(high[0])],
            "plies_if_it_ends": float(plies[0]), "positions": graph.n,
            "edges": graph.edges}


def solve_jactus(variant: Any = None, *, cache: bool = True,
                 folder: str | Path | None = None) -> JactusSolution:
    """Solve 2-player Jactus under ``variant`` (default: the rulebook's rules).

    With ``cache`` the solution is read from, or written to, ``folder`` (default
    :func:`cache_dir`). Raises :class:`VariantError` for other player counts or a variant
    too large to solve.
    """
    variant = _check_variant(variant)
    path = Path(folder) if folder is not None else cache_dir()
    file = path / f"jactus-{_cache_key(variant)}.npz"
    if cache and file.exists():
        try:
            return JactusSolution._load(file, variant)
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, TypeError,
                RecursionError, MemoryError):
            pass                  # unreadable, stale, damaged or forged: solve again
    solution = JactusSolution._solve(variant)
    if cache:
        try:
            solution._save(file)
        except OSError:  # pragma: no cover - a read-only cache folder only costs time
            pass
    return solution


_MEMO: dict[str, JactusSolution] = {}
#: One lock per variant being solved: threads asking for it at once (a class's hint
#: requests on the table server's workers) wait for one solve, not run one each.
_SOLVING: dict[str, threading.Lock] = {}
_SOLVING_LOCK = threading.Lock()


def _memo_key(variant: Any) -> str:
    return _cache_key(variant) + str(cache_dir())


def cached_solution(variant: Any = None) -> JactusSolution:
    """:func:`solve_jactus` remembered in this process (for bots and the widget)."""
    variant = _check_variant(variant)
    key = _memo_key(variant)
    found = _MEMO.get(key)
    if found is not None:
        return found
    with _SOLVING_LOCK:
        lock = _SOLVING.setdefault(key, threading.Lock())
    with lock:
        if key not in _MEMO:
            _MEMO[key] = solve_jactus(variant)
    return _MEMO[key]


def unsolvable(variant: Any = None) -> str | None:
    """Why the solver cannot take ``variant`` (the :class:`VariantError`'s message), or
    ``None`` if it can.

    >>> unsolvable({"players": 3})[:45]
    'the Jactus solver plays 2-player games only, '
    """
    try:
        _check_variant(variant)
    except VariantError as exc:
        return str(exc)
    return None


def in_memory(variant: Any = None) -> bool:
    """Whether :func:`cached_solution` has this variant's solution at hand already."""
    return unsolvable(variant) is None and _memo_key(_check_variant(variant)) in _MEMO


class JactusSolution:
    """Optimal 2-player Jactus: values, best moves, the solution strategies, the
    certificate (``gap``) and the data for the pictures (:meth:`policy_table`).

    Values are seat A's payoff (1 a win for A, 0 for B, ½ a game that never ends) under
    optimal play by both seats, at decision and chance points alike.
    """

    def __init__(self, variant: Any, raws: list[Any], values: np.ndarray,
                 moves: np.ndarray, ends: np.ndarray, meta: dict[str, Any]) -> None:
        from ..games.jactus.rules import GAME
        self.variant = variant
        self.engine = GAME.engine(variant)
        self.raws = raws
        self.index = {raw: i for i, raw in enumerate(raws)}
        self.values = values
        #: The solution strategy's action at each decision node (-1 elsewhere).
        self.moves = moves
        #: Chance that play ends (someone wins) from each node under the solution strategies.
        self.ends = ends
        self.meta = meta

    # -- construction
    @classmethod
    def _solve(cls, variant: Any) -> JactusSolution:
        from ..games.jactus.rules import GAME
        began = time.perf_counter()
        graph, raws = explore(GAME.engine(variant))
        explored = time.perf_counter()
        solved = solve_graph(graph)
        moves = np.where(solved.choice >= 0, graph.action[np.maximum(solved.choice, 0)], -1)
        low, high = end_chance_bounds(graph, solved.values)
        _, plies = plies_to_end(graph, solved.choice)
        meta = {"gap": solved.gap, "residual": bellman_residual(graph, solved.values),
                "iterations": solved.iterations, "method": solved.method,
                "end_bounds": [float(low[0]), float(high[0])],
                "plies_if_it_ends": float(plies[0]),
                "positions": graph.n, "edges": graph.edges,
                "seconds": time.perf_counter() - began,
                "explore_seconds": explored - began, "options": variant.to_dict(),
                "source": "solved"}
        return cls(variant, raws, solved.values, moves.astype(np.int16), solved.ends, meta)

    def _save(self, file: Path) -> None:
        file.parent.mkdir(parents=True, exist_ok=True)
        tmp = file.with_name(f"{file.stem}.{os.getpid()}.tmp.npz")
        meta = {k: v for k, v in self.meta.items() if k not in ("source", "checksum")}
        meta["checksum"] = _checksum(self.values, self.moves, self.ends, meta)
        np.savez_compressed(tmp, values=self.values, moves=self.moves, ends=self.ends,
                            meta=np.frombuffer(json.dumps(meta).encode(), np.uint8))
        os.replace(tmp, file)                      # atomic: readers never see half a file

    @classmethod
    def _load(cls, file: Path, variant: Any) -> JactusSolution:
        """The solution in ``file``, checked: exactly the arrays a solution has, the
        checksum it was saved with, and its certificate recomputed in the game (see the
        module's docstring). ``ValueError`` (or another error of reading) otherwise."""
        from ..games.jactus.rules import GAME
        with np.load(file, allow_pickle=False) as data:
            if sorted(data.files) != sorted(CACHE_ARRAYS):
                raise ValueError(f"{file} holds {sorted(data.files)}, not a solution")
            arrays = {}
            for name, dtype in CACHE_ARRAYS.items():
                array = data[name]
                if array.dtype != dtype or array.ndim != 1:
                    raise ValueError(f"{file}: {name} is {array.dtype}{array.shape}")
                if name == "meta" and array.size > CACHE_META_BYTES:
                    raise ValueError(f"{file}: its meta is {array.size} bytes")
                arrays[name] = array
        meta = _read_meta(arrays.pop("meta").tobytes())
        values, moves, ends = arrays["values"], arrays["moves"], arrays["ends"]
        stated = meta.pop("checksum", None)
        if stated != _checksum(values, moves, ends, meta):
            raise ValueError(f"{file}: the checksum does not match what it holds")
        if meta.get("options") != variant.to_dict():
            raise ValueError(f"{file} does not hold this variant's solution")
        graph, raws = explore(GAME.engine(variant))
        if not len(raws) == len(values) == len(moves) == len(ends) == meta.get("positions"):
            raise ValueError(f"{file} holds {len(values)} positions; the game has "
                             f"{len(raws)}")
        meta.update(_certify(graph, values, moves, ends))
        meta["source"] = "cache"
        return cls(variant, raws, values, moves, ends, meta)

    # -- what it says
    @property
    def gap(self) -> float:
        """Exploitability: the most either seat could gain from any position by a best
        response to the other's solution strategy (each solved exactly)."""
        return float(self.meta["gap"])

    @property
    def residual(self) -> float:
        """How far the values miss the Bellman equations, at the worst position."""
        return float(self.meta["residual"])

    @property
    def start(self) -> State:
        """The start of a game (seed 0), with A to throw all five dice."""
        from ..games.jactus.rules import GAME
        return GAME.new(self.variant, seed=0)

    def _node(self, state: Any) -> int:
        raw = getattr(state, "raw", state)
        variant = getattr(state, "variant", self.variant)
        if variant != self.variant:
            raise ValueError(f"this solution is for the variant {self.variant.describe()}; "
                             f"the position is of {variant.describe()}")
        node = self.index.get(raw)
        if node is None:
            raise ValueError("this position cannot arise in a game from the start under "
                             f"these rules ({self.variant.describe()}), so it is not solved")
        return node

    def value(self, state: Any) -> float:
        """Seat A's payoff under optimal play from ``state`` (a state, a view or a raw)."""
        return float(self.values[self._node(state)])

    def value_for(self, state: Any, seat: int) -> float:
        """The payoff of ``seat`` (0 = A, 1 = B) under optimal play from ``state``."""
        v = self.value(state)
        return v if seat == 0 else 1.0 - v

    def end_probability(self, state: Any) -> float:
        """The chance that play from ``state`` ends with a winner when both seats play
        the solution strategies (the rest of the time it goes on for ever)."""
        return float(self.ends[self._node(state)])

    def move_values(self, state: Any) -> list[tuple[Move, float]]:
        """Every legal move with seat A's payoff after it (decision points only)."""
        state = self._as_state(state)
        if state.current_player < 0:
            return []
        return [(m, float(self.values[self.index[self.engine.apply(state.raw, m.action)]]))
                for m in state.legal_moves()]

    def best_moves(self, state: Any) -> list[Move]:
        """Every move that attains the position's value (within 1e-9), in legal order."""
        state = self._as_state(state)
        pairs = self.move_values(state)
        if not pairs:
            return []
        target = self.value(state)
        return [m for m, v in pairs if abs(v - target) <= ATTAIN]

    def move(self, state: Any) -> Move:
        """The solution strategy's move (one of :meth:`best_moves`; certified optimal)."""
        state = self._as_state(state)
        action = int(self.moves[self._node(state)])
        if action < 0:
            raise ValueError("no player is to move here (chance acts, or the game is over)")
        return state._move(action) if isinstance(state, State) else state.parse(
            self.engine.notation(state.raw, action))

    def _as_state(self, state: Any) -> Any:
        if isinstance(state, State) or hasattr(state, "legal_moves"):
            self._node(state)
            return state
        from ..games.jactus.rules import GAME
        return GAME.from_raw(state, self.variant)

    def policy_table(self) -> PolicyTable:
        """Try or spoil, for every pick-up position: see :class:`PolicyTable`."""
        return PolicyTable.build(self)

    def summary(self) -> dict[str, Any]:
        """The headline figures (the lesson and the closing note quote them)."""
        start = self.start
        return {"variant": self.variant.describe(), "value_A": self.value(start),
                "advantage_A": self.value(start) - 0.5,
                "end_probability": self.end_probability(start),
                "end_probability_bounds": tuple(self.meta["end_bounds"]),
                "plies_if_it_ends": float(self.meta["plies_if_it_ends"]),
                "gap": self.gap, "positions": int(self.meta["positions"]),
                "seconds": float(self.meta["seconds"]), "source": self.meta["source"]}

    def __repr__(self) -> str:
        s = self.summary()
        return (f"<JactusSolution {s['variant']}: A's value {s['value_A']:.6f}, game ends "
                f"with probability {s['end_probability']:.4f}, gap {s['gap']:.1e}, "
                f"{s['positions']:,} positions>")


# --- the pictures' data ------------------------------------------------------------------
PATTERNS = ("11111", "2111", "221", "311", "32", "41", "5")
PATTERN_TITLES = {"11111": "all different", "2111": "a pair", "221": "two pairs",
                  "311": "three of a kind", "32": "full house", "41": "four of a kind",
                  "5": "five of a kind"}


def _pattern(dice: tuple[int, ...]) -> str:
    from collections import Counter
    return "".join(str(c) for c in sorted(Counter(dice).values(), reverse=True))


def _holding_label(held: tuple[int, int, int]) -> str:
    venus, dogs, coins = held
    text = "V" * venus + "D" * dogs + "C" * coins
    return text or "–"


def _figure(size: tuple[float, float]) -> Any:
    """A matplotlib figure outside pyplot (no global state; shown where it is returned)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - a dependency of the package
        raise ImportError("plots need matplotlib (janus_widgets installs it with itself; "
                          "this environment lacks it): pip install matplotlib") from None
    return Figure(figsize=size)


@dataclass
class PolicyTable:
    """Try or spoil at every pick-up of the solution strategies.

    ``rows`` holds one dict per position where a player picks up dice: ``seat``,
    ``mine`` and ``theirs`` (the mover's and the other seat's Venus, dogs, coins),
    ``dice``, ``pattern`` (group sizes, e.g. ``"311"``), ``value`` (the mover's payoff),
    ``move`` (the solution's pick-up), ``kept`` (the dice it leaves), ``tries`` (whether
    the throw can score), ``best_try`` and ``best_spoil`` (the mover's payoff after the
    best pick-up of each kind, ``None`` if there is none) and ``ends`` (the chance that
    play ends from there under the solution strategies).
    """

    rows: list[dict[str, Any]]
    variant: Any

    @classmethod
    def build(cls, solution: JactusSolution) -> PolicyTable:
        from ..games.jactus.rules import MULTISETS, PICK, PICK_KEEP
        eng = solution.engine
        rows = []
        values = solution.values
        index = solution.index
        for node, raw in enumerate(solution.raws):
            if raw[0] != PICK:
                continue
            _, seat, dice, holds, _, _ = raw
            tries, spoils = [], []
            for a in eng.actions(raw):
                after = float(values[index[eng.apply(raw, a)]])
                mover = after if seat == 0 else 1.0 - after
                (tries if len(set(PICK_KEEP[dice][a])) <= 1 else spoils).append(mover)
            move = int(solution.moves[node])
            kept = PICK_KEEP[dice][move]
            rows.append({
                "seat": seat, "mine": holds[seat], "theirs": holds[1 - seat],
                "dice": dice, "pattern": _pattern(dice),
                "value": float(values[node]) if seat == 0 else 1.0 - float(values[node]),
                "move": "r" + "".join(map(str, MULTISETS[move])), "kept": kept,
                "tries": len(set(kept)) <= 1,
                "best_try": max(tries) if tries else None,
                "best_spoil": max(spoils) if spoils else None,
                "ends": float(solution.ends[node])})
        return cls(rows, solution.variant)

    def layouts(self) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
        """The (mine, theirs) holdings that occur, ordered by the mover's payoff when
        the dice are at their most common pattern."""
        seen: dict[Any, list[float]] = {}
        for row in self.rows:
            seen.setdefault((row["mine"], row["theirs"]), []).append(row["value"])
        return sorted(seen, key=lambda k: (float(np.mean(seen[k])), k))

    def try_share(self, seat: int = 0) -> tuple[list[Any], list[str], np.ndarray]:
        """For ``seat`` as the mover: layouts, dice patterns and the share of the dice
        positions of each pattern at which the solution tries to score."""
        layouts = self.layouts()
        patterns = [p for p in PATTERNS if any(r["pattern"] == p for r in self.rows)]
        grid = np.full((len(layouts), len(patterns)), np.nan)
        where = {k: i for i, k in enumerate(layouts)}
        count = np.zeros_like(grid)
        tried = np.zeros_like(grid)
        for row in self.rows:
            if row["seat"] != seat:
                continue
            i, j = where[(row["mine"], row["theirs"])], patterns.index(row["pattern"])
            count[i, j] += 1
            tried[i, j] += row["tries"]
        with np.errstate(invalid="ignore"):
            grid = np.where(count > 0, tried / np.maximum(count, 1), np.nan)
        return layouts, patterns, grid

    def by_face(self, mine: tuple[int, int, int], theirs: tuple[int, int, int]
                ) -> tuple[list[str], np.ndarray]:
        """For one holding (the mover's pieces, the other's): patterns (rows) by face
        (columns 1–6: the face of the largest group, the higher one for two pairs, the
        face missing when all differ), the share of positions where optimal play tries
        (NaN where no position has that pattern and face)."""
        from collections import Counter
        patterns = [p for p in PATTERNS if p != "5"]
        count = np.zeros((len(patterns), 6))
        tried = np.zeros_like(count)
        for row in self.rows:
            if (row["mine"], row["theirs"]) != (mine, theirs):
                continue
            groups = Counter(row["dice"])
            if row["pattern"] == "11111":
                face = (set(range(1, 7)) - set(groups)).pop()
            else:
                face = max(groups, key=lambda f: (groups[f], f))
            i, j = patterns.index(row["pattern"]), face - 1
            count[i, j] += 1
            tried[i, j] += row["tries"]
        if not count.any():
            raise ValueError(f"no pick-up position has the holdings {mine} and {theirs}")
        with np.errstate(invalid="ignore"):
            return patterns, np.where(count > 0, tried / np.maximum(count, 1), np.nan)

    def plot_layouts(self, layouts: Sequence[tuple[tuple[int, int, int], tuple[int, int, int]]],
                     *, columns: int = 2) -> Any:
        """"Try or spoil" for a few holdings, one panel each: dice patterns (rows) by the
        face that matters (columns), every cell labelled ``try``, ``spoil`` or the share
        that tries. Returns the matplotlib figure."""
        rows_n = -(-len(layouts) // columns)
        fig = _figure((4.4 * columns, 2.9 * rows_n))
        axes = fig.subplots(rows_n, columns, squeeze=False)
        titles = {"11111": "all different\n(face missing)", "2111": "a pair",
                  "221": "two pairs (higher)", "311": "three of a kind",
                  "32": "full house (the three)", "41": "four of a kind"}
        for ax, (mine, theirs) in zip(axes.flat, layouts):
            patterns, grid = self.by_face(mine, theirs)
            ax.imshow(grid, cmap="Greys", vmin=0, vmax=1.4, aspect="auto")
            for i in range(grid.shape[0]):
                for j in range(grid.shape[1]):
                    share = grid[i, j]
                    if np.isnan(share):
                        continue
                    text = "try" if share == 1 else "spoil" if share == 0 else f"{share:.0%}"
                    ax.text(j, i, text, ha="center", va="center", fontsize=7,
                            color="white" if share > 0.7 else "black")
            ax.set_xticks(range(6))
            ax.set_xticklabels([str(f) for f in range(1, 7)], fontsize=8)
            ax.set_yticks(range(len(patterns)))
            ax.set_yticklabels([titles[p] for p in patterns], fontsize=7)
            ax.set_title(f"mover holds {_holding_label(mine)}, the other "
                         f"{_holding_label(theirs)}", fontsize=9)
            ax.set_xlabel("face", fontsize=8)
        for ax in list(axes.flat)[len(layouts):]:
            ax.axis("off")
        fig.suptitle("Try or spoil under optimal play (V Venus, D dog, C coin)", fontsize=10)
        fig.tight_layout()
        return fig

    def plot(self, seat: int = 0, ax: Any = None) -> Any:
        """"Try or spoil": one row per holding (the mover's and the other's pieces),
        one column per dice pattern, shaded by the share of positions at which optimal
        play tries to score (the number is written in every cell, for print and for
        colour-blind readers). Returns the matplotlib figure."""
        layouts, patterns, grid = self.try_share(seat)
        if ax is None:
            fig = _figure((7.2, 0.24 * len(layouts) + 1.6))
            ax = fig.subplots()
        else:
            fig = ax.figure
        ax.imshow(grid, cmap="Greys", vmin=0, vmax=1.4, aspect="auto")
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                if not np.isnan(grid[i, j]):
                    share = grid[i, j]
                    text = "try" if share == 1 else "spoil" if share == 0 else f"{share:.0%}"
                    ax.text(j, i, text, ha="center", va="center", fontsize=7,
                            color="white" if share > 0.7 else "black")
        ax.set_xticks(range(len(patterns)))
        ax.set_xticklabels([PATTERN_TITLES[p] for p in patterns], rotation=30, ha="right",
                           fontsize=8)
        ax.set_yticks(range(len(layouts)))
        ax.set_yticklabels([f"{_holding_label(m)} vs {_holding_label(t)}" for m, t in layouts],
                           fontsize=7)
        ax.set_xlabel("the dice the mover finds")
        ax.set_ylabel("mover's pieces vs the other's")
        ax.set_title(f"Try or spoil (mover {seat_name(seat)}; share of dice positions where "
                     "optimal play tries)", fontsize=9)
        fig.tight_layout()
        return fig


# --- the bot ---------------------------------------------------------------------------
class OptimalBot:
    """Plays the certified solution strategy of 2-player Jactus (deterministic; the seed
    is accepted for the bots' common signature). The solution is solved, or read from
    the cache, on the bot's first move under each variant.

    >>> bot = OptimalBot()
    >>> str(bot(solve_jactus().start))
    'r*'
    """

    name = "optimal"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._solutions: dict[Any, JactusSolution] = {}

    def __call__(self, view: Any) -> Move:
        variant = view.variant
        solution = self._solutions.get(variant)
        if solution is None:
            solution = self._solutions[variant] = cached_solution(variant)
        return solution.move(view)

    def __repr__(self) -> str:
        return "OptimalBot()"


def optimal_bot(game: Any, seat: int, seed: int) -> Callable[[Any], Any]:
    """The ``"optimal"`` bot's factory (registered by :mod:`janus_widgets.analysis` in
    :data:`janus_widgets.core.bots.BOT_FACTORIES`)."""
    name = getattr(game, "name", game)
    if name != "jactus":
        raise ValueError(f"the optimal bot plays 2-player Jactus only, not {name!r}")
    return OptimalBot(seed)

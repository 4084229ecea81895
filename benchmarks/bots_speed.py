"""Bot figures, per game: the greedy bot's cost per ply against uniformly random play
in the same run, the wall time of 10,000 greedy games in two processes, and MCTS
playouts per second.

Run:  python benchmarks/bots_speed.py [--games 10000] [--processes 2] [--ply-games 300]

The per-ply costs are the best of three alternating runs of ``--ply-games`` games each
(the least disturbed by other work on the machine). Beside the wall time of the big
run it prints the CPU time its processes used: on a machine shared with other work
the wall time grows while the CPU time hardly does, and CPU time / processes is what
a quiet machine would take.
"""

from __future__ import annotations

import argparse
import resource
import time

from janus_widgets import games
from janus_widgets.analysis.tournament import run_tournament
from janus_widgets.core.bots import MCTSBot


def first_decision(name: str):
    """A state early in the game where a player is to choose."""
    state = games.get(name).new(seed=1)
    while state.is_chance:
        state = state.play_chance()
    return state


def mcts_playouts_per_second(name: str, iterations: int) -> float:
    state = first_decision(name)
    bot = MCTSBot(iterations, seed=1)
    start = time.perf_counter()
    bot.search(state.view(state.current_player))
    return bot.last_playouts / (time.perf_counter() - start)


def cost_per_ply(name: str, bots: list, games_: int) -> float:
    """Seconds per ply of a one-process tournament (ply: a decision or a chance outcome)."""
    start = time.perf_counter()
    result = run_tournament(name, bots=bots, games=games_, seed=1, progress=False)
    return (time.perf_counter() - start) / sum(r["plies"] for r in result.rows)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--ply-games", type=int, default=300)
    parser.add_argument("--iterations", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'game':<12} {'greedy µs/ply':>13} {'random µs/ply':>13} {'ratio':>6} "
          f"{f'{args.games:,} greedy games':>20} {'CPU':>8} {'mean turns':>10} "
          f"{'MCTS playouts/s':>16}")
    for name in games.names():
        greedy = random = float("inf")
        for _ in range(3):
            greedy = min(greedy, cost_per_ply(name, ["greedy"], args.ply_games))
            random = min(random, cost_per_ply(name, [None], args.ply_games))
        cpu = children_cpu()
        start = time.perf_counter()
        result = run_tournament(name, bots=["greedy"], games=args.games, seed=1,
                                processes=args.processes, progress=False)
        wall = time.perf_counter() - start
        cpu = children_cpu() - cpu
        turns = result.metrics()["duration"]["value"]
        rate = mcts_playouts_per_second(name, args.iterations)
        print(f"{name:<12} {greedy * 1e6:>13.1f} {random * 1e6:>13.1f} "
              f"{greedy / random:>5.1f}× {wall:>18.1f} s {cpu:>6.1f} s {turns:>10.1f} "
              f"{rate:>16,.0f}", flush=True)


if __name__ == "__main__":
    main()

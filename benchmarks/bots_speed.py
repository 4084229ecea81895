"""Bot figures: MCTS playouts per second per game, and the wall time of a
1,000-game tournament of greedy bots per game.

Run:  python benchmarks/bots_speed.py [--games 1000] [--processes 1] [--iterations 2000]
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'game':<12} {'MCTS playouts/s':>16} {f'{args.games} greedy games':>20}"
          f" {'mean plies':>11}")
    for name in games.names():
        rate = mcts_playouts_per_second(name, args.iterations)
        start = time.perf_counter()
        result = run_tournament(name, bots=["greedy"], games=args.games, seed=1,
                                processes=args.processes, progress=False)
        wall = time.perf_counter() - start
        print(f"{name:<12} {rate:>16,.0f} {wall:>18.1f} s {result.metrics()['length']['mean']:>11.1f}")


if __name__ == "__main__":
    main()

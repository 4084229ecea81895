"""MCTS side by side: our MCTSBot against OpenSpiel's Python MCTS bot on our games.

Both searches start from the same positions of the same game (decision points
spread over one seeded random game; OpenSpiel's state is reached by
replaying that game's history, see ``janus_widgets.interop.openspiel``) and run
one after the other in this process. Both do plain UCT with one random rollout
per playout, played to the end of the game: ours on the lean engine path
(``MCTSBot(rollout_steps=10**9)``, so its rollouts are not cut at 200 steps),
OpenSpiel's ``open_spiel.python.algorithms.mcts.MCTSBot`` with
``RandomRolloutEvaluator(n_rollouts=1)`` through the pyspiel game API. The
figure is playouts (simulations) per second of search time.

Jactus is left out: its random rollouts hardly ever end, so OpenSpiel's stop at
``max_game_length`` and ours would not, and the two would not measure the same
work. In the card game ours also draws the unseen sides from the seat's view
before every playout, while OpenSpiel's plain MCTS searches the true position.

Run:  python benchmarks/interop_mcts.py [--game jinns --game janus]
                                        [--ours 1000] [--theirs 100] [--positions 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from janus_widgets import games
from janus_widgets.core.bots import MCTSBot
from janus_widgets.core.rng import RandomStream


def positions(name: str, count: int, seed: int = 11) -> list:
    """``count`` decision points spread over one seeded random game (at 10 %, … of its
    decisions), each with at least two legal moves."""
    game = games.get(name)
    state = game.new(seed=seed)
    stream = RandomStream(seed)
    points = []
    while not state.is_over and len(points) < 2000:
        if state.is_chance:
            state = state.play_chance()
            continue
        moves = state.legal_moves()
        if len(moves) > 1:
            points.append(state)
        state = state.play(stream.choice(moves))
    fractions = np.linspace(0.1, 0.8, count) if count > 1 else [0.1]
    return [points[int(f * (len(points) - 1))] for f in fractions]


def ours(state, iterations: int) -> float:
    bot = MCTSBot(iterations, c=1.4, rollout_steps=10**9, seed=3)
    start = time.perf_counter()
    bot.search(state.view(state.current_player))
    return bot.last_playouts / (time.perf_counter() - start)


def theirs(os_game, os_state, simulations: int) -> float:
    from open_spiel.python.algorithms import mcts
    rng = np.random.RandomState(3)
    # Rewards here are zero-sum in [-1, 1], ours in [0, 1]: the same exploration
    # with twice the constant.
    bot = mcts.MCTSBot(os_game, uct_c=2.8, max_simulations=simulations,
                       evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
                       random_state=rng)
    start = time.perf_counter()
    bot.mcts_search(os_state)
    return simulations / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["jinns", "janus", "janus-cards"], action="append",
                        help="game(s) to measure (default: jinns and janus)")
    parser.add_argument("--ours", type=int, default=1000, help="our playouts per search")
    parser.add_argument("--theirs", type=int, default=100,
                        help="OpenSpiel's simulations per search")
    parser.add_argument("--positions", type=int, default=3)
    args = parser.parse_args()
    from janus_widgets.interop.openspiel import load, openspiel_state

    print(f"{'game':<12} {'position':<22} {'ours playouts/s':>16} "
          f"{'OpenSpiel playouts/s':>21} {'ratio':>7}")
    for name in args.game or ["jinns", "janus"]:
        game = games.get(name)
        os_game = load(game)
        rates = []
        for state in positions(name, args.positions):
            os_state = openspiel_state(state, os_game)
            assert os_state.current_player() == state.current_player
            assert sorted(os_state.legal_actions()) == sorted(state.engine.actions(state.raw))
            a = ours(state, args.ours)
            b = theirs(os_game, os_state, args.theirs)
            rates.append((a, b))
            where = f"ply {state.ply}, {len(state.legal_moves())} moves"
            print(f"{name:<12} {where:<22} {a:>16,.0f} {b:>21,.0f} {a / b:>6.0f}×")
        mean_a = float(np.mean([a for a, _ in rates]))
        mean_b = float(np.mean([b for _, b in rates]))
        print(f"{name:<12} {'mean':<22} {mean_a:>16,.0f} {mean_b:>21,.0f} "
              f"{mean_a / mean_b:>6.0f}×")


if __name__ == "__main__":
    main()

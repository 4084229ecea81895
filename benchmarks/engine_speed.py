"""Engine steps per second for every registered game (random playouts).

A step is one ``legal actions + play`` on the lean engine path, a chance outcome
counting as a step (sampled, then played). Also reports the checked path that
people use (``State.legal_moves()`` + ``State.play``), which carries notation,
descriptions and checks.

Run:  python benchmarks/engine_speed.py [--seconds 3] [--game jinns]
"""

from __future__ import annotations

import argparse
import time

from janus_widgets import games
from janus_widgets.core.rng import RandomStream
from janus_widgets.core.simulate import random_playout


def lean_steps_per_second(name: str, seconds: float, variant=None) -> tuple[float, int]:
    game = games.get(name)
    engine = game.engine(variant)
    stream = RandomStream(12345)
    steps = 0
    games_done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, n = random_playout(engine, engine.initial(), stream, max_steps=20_000)
        steps += n
        games_done += 1
    return steps / (time.perf_counter() - start), games_done


def checked_steps_per_second(name: str, seconds: float, variant=None) -> float:
    game = games.get(name)
    stream = RandomStream(54321)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new(variant, seed=stream.spawn_seed())
        for _ in range(2000):
            if state.is_over:
                break
            if state.is_chance:
                state = state.play_chance()
            else:
                state = state.play(stream.choice(state.legal_moves()))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--game", choices=games.names(), action="append")
    args = parser.parse_args()
    print(f"{'game':<12} {'lean steps/s':>14} {'checked steps/s':>16}  (one core, "
          f"{args.seconds:g} s each)")
    for name in args.game or games.names():
        lean, _ = lean_steps_per_second(name, args.seconds)
        checked = checked_steps_per_second(name, args.seconds / 2)
        print(f"{name:<12} {lean:>14,.0f} {checked:>16,.0f}")


if __name__ == "__main__":
    main()

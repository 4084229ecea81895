"""The Jactus solver's run time and memory, per variant, solved afresh (no cache).

Run:  python benchmarks/solve_speed.py [--set spoil=False] [--hoffman-karp]

Prints the positions and moves of the game graph, the time to explore it and to solve
and certify it (``solve_graph``: strategy iteration, then Hoffman-Karp if needed, then
two exact best responses), the method used, the gap and the Bellman residual, the peak
memory of Python objects (tracemalloc) and the process's peak resident size. With
``--hoffman-karp`` it also solves by Hoffman-Karp alone from the first moves and prints
the largest difference between the two solutions' values.
"""

from __future__ import annotations

import argparse
import ast
import resource
import time
import tracemalloc

import numpy as np

from janus_widgets.analysis import solve
from janus_widgets.games.jactus.rules import GAME


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option (repeatable), e.g. --set spoil=False")
    parser.add_argument("--hoffman-karp", action="store_true",
                        help="also solve by Hoffman-Karp alone and compare")
    args = parser.parse_args()
    options = {}
    for pair in args.set:
        name, _, value = pair.partition("=")
        try:
            options[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            options[name] = value
    variant = GAME.variant(**options)
    tracemalloc.start()
    began = time.perf_counter()
    graph, _ = solve.explore(GAME.engine(variant))
    explored = time.perf_counter()
    solution = solve.solve_graph(graph)
    solved = time.perf_counter()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"variant             {variant.describe()}")
    print(f"positions           {graph.n:,} ({graph.edges:,} moves and outcomes)")
    print(f"explore             {explored - began:6.2f} s")
    print(f"solve and certify   {solved - explored:6.2f} s ({solution.method}, "
          f"{solution.iterations} rounds)")
    print(f"total               {solved - began:6.2f} s")
    print(f"gap                 {solution.gap:.2e}")
    print(f"Bellman residual    {solve.bellman_residual(graph, solution.values):.2e}")
    print(f"A's opening value   {solution.values[0]:.9f}")
    print(f"chance of an end    {solution.ends[0]:.6f}")
    print(f"peak memory         {peak / 2**20:6.1f} MiB traced, {rss:6.1f} MiB resident")
    if args.hoffman_karp:
        began = time.perf_counter()
        alone = solve.solve_graph(graph, method="hoffman-karp")
        print(f"Hoffman-Karp alone  {time.perf_counter() - began:6.2f} s, "
              f"{alone.iterations} rounds, gap {alone.gap:.2e}, largest difference "
              f"{np.abs(alone.values - solution.values).max():.2e}")


if __name__ == "__main__":
    main()

"""The Jactus solver's run time and memory, per variant, solved afresh (no cache).

Run:  python benchmarks/solve_speed.py [--set spoil=False] [--hoffman-karp]

Prints the positions and moves of the game graph, the time to explore it, to solve it
by strategy iteration and to certify the result (two exact best responses), the gap,
the peak memory of Python objects (tracemalloc) and the process's peak resident size.
With ``--hoffman-karp`` it also solves by Hoffman–Karp iteration from the same start
and prints the largest difference between the two solutions' values.
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
                        help="also solve by Hoffman-Karp iteration and compare")
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
    graph, raws = solve.explore(GAME.engine(variant))
    explored = time.perf_counter()
    choice = graph.first_choice()
    rounds = 0
    while True:
        rounds += 1
        values = solve.evaluate(graph, choice)
        choice, switched = solve._improve(graph, values, choice, (0, 1))
        if not switched:
            break
    iterated = time.perf_counter()
    values = solve.evaluate(graph, choice)
    gap = solve.exploitability(graph, choice, values)
    certified = time.perf_counter()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"variant             {variant.describe()}")
    print(f"positions           {graph.n:,} ({graph.edges:,} moves and outcomes)")
    print(f"explore             {explored - began:6.2f} s")
    print(f"strategy iteration  {iterated - explored:6.2f} s ({rounds} rounds)")
    print(f"certify             {certified - iterated:6.2f} s (two exact best responses)")
    print(f"total               {certified - began:6.2f} s")
    print(f"gap                 {gap:.2e}")
    print(f"A's opening value   {values[0]:.9f}")
    print(f"peak memory         {peak / 2**20:6.1f} MiB traced, {rss:6.1f} MiB resident")
    if args.hoffman_karp:
        began = time.perf_counter()
        hk = solve.solve_graph(graph, max_iterations=0)   # skips straight to Hoffman-Karp
        print(f"Hoffman-Karp        {time.perf_counter() - began:6.2f} s, "
              f"{hk.iterations} rounds, gap {hk.gap:.2e}, largest difference "
              f"{np.abs(hk.values - values).max():.2e}")


if __name__ == "__main__":
    main()

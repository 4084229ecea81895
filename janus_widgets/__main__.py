"""Command line for teachers without notebooks.

    python -m janus_widgets games
    python -m janus_widgets rules jinns
    python -m janus_widgets simulate jinns --players 4 --games 500 --bots greedy,random
    python -m janus_widgets simulate jactus --set dog_throws=other --json

``--bots`` gives one bot per seat, repeated round the table (random, greedy,
mcts or mcts:N; optimal for 2-player Jactus: ``--bots optimal,greedy --rotate``). ``--set NAME=VALUE`` changes a variant option (repeatable).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Sequence

from . import games


def _value(text: str) -> object:
    """Read an option value: a Python literal (3, True, 'x') or else plain text."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _options(pairs: Sequence[str]) -> dict[str, object]:
    out = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise ValueError(f"--set {pair!r}: write NAME=VALUE, e.g. --set players=3")
        out[name.strip()] = _value(value.strip())
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m janus_widgets",
                                     description="Play and study the four games "
                                                 "without a notebook.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("games", help="list the games: name, title and what each is "
                                 "(their options: rules GAME)")
    rules = sub.add_parser("rules", help="print a game's variant options and rule IDs")
    rules.add_argument("game", choices=games.names())
    sim = sub.add_parser("simulate", help="play many seeded games and print the metrics")
    sim.add_argument("game", choices=games.names())
    sim.add_argument("--players", type=int, help="number of players")
    sim.add_argument("--games", type=int, default=200, help="how many games (default 200)")
    sim.add_argument("--bots", default="random",
                     help="comma-separated bots per seat: random, greedy, mcts, mcts:N, "
                          "optimal (2-player Jactus)")
    sim.add_argument("--seed", type=int, default=0, help="seed of the whole run")
    sim.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                     help="change a variant option (repeatable)")
    sim.add_argument("--processes", type=int, default=1, help="local processes to use")
    sim.add_argument("--max-plies", type=int, default=20_000, help="cap per game")
    sim.add_argument("--rotate", action="store_true",
                     help="move the bots one seat on each game (compare bots, not seats)")
    sim.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)

    if args.command == "games":
        for game in games.all_games():
            print(f"{game.name:12} {game.title:22} {game.summary}")
        return 0
    if args.command == "rules":
        game = games.get(args.game)
        print(f"{game.title}: rules in seeds/{game.name}.md (IDs {game.rule_prefix}-n)")
        for spec in game.Variant.options():
            print(f"  {spec.rule:6} {spec.name}={spec.default!r}: {spec.doc}")
        return 0

    from .analysis.tournament import run_tournament
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        options = _options(args.set)
        if args.players is not None:
            options["players"] = args.players
        result = run_tournament(args.game, bots=bots, games=args.games, seed=args.seed,
                                max_plies=args.max_plies, processes=args.processes,
                                rotate_seats=args.rotate, progress=not args.json,
                                **options)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(result.to_json() if args.json else result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A long fuzz run: many seeded random games per game, every invariant at every step.

For each registered game (its default variant, or every sample variant with
``--variants all``) it plays ``--games`` seeded random games (default 10,000) on the
lean engine path and checks after every step:

* ``Engine.check_invariants`` (what holds in every position) and
  ``Engine.check_transition`` (what may only leave or only grow, step to step);
* that the move played was legal (``is_legal`` agrees with ``actions``), that a player
  to move has a legal move, that listed chance outcomes sum to exactly 1;
* that every game ends within ``--max-plies`` (the figures count the ones that do not).

The players are fuzzers, not strategists: with ``--policy mixed`` (the default) each
decision is a uniformly random legal move or, with chance one half, the greedy bot's
choice from the seat's own view (without it a random Jactus game takes some 50,000
plies: nobody keeps dice for a five of a kind); ``--policy random`` is random only.

One step in ``--deep`` (default 40) also goes through the checked path people use:
a random action number that is not legal there (and one that is no action at all)
must be refused with the game's own error, the state unchanged; in a game with
secrets each seat's view must survive ``determinize`` unchanged. Every
``--record-every`` games (default 100) the game's full record and each seat's record
must round-trip through JSON.

Printed: per game, the games played, steps checked, game length (mean, longest),
games cut at the cap, how they ended, failures (each with its seed, to replay), time.
The exit code is 1 if anything failed.

Run:  python benchmarks/fuzz.py [--games 10000] [--game jactus] [--variants all]
                                [--processes 2]
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from fractions import Fraction

from tqdm import tqdm

from janus_widgets import games
from janus_widgets.core import (CHANCE, TABLE, TERMINAL, IllegalMoveError, InvalidMoveError,
                                Move, RandomStream, Record, SeatRecord)
from janus_widgets.core.bots import GreedyBot


def fuzz_one(game, variant, seed: int, *, max_plies: int, deep: int, records: bool,
             mixed: bool = True) -> tuple[int, str]:
    """Play one seeded random game with every check; (steps, how it ended)."""
    engine = game.engine(variant)
    stream = RandomStream(seed)
    greedy = GreedyBot(seed=seed + 1) if mixed else None
    raw = engine.initial()
    actions: list[int] = []
    for ply in range(max_plies):
        engine.check_invariants(raw)
        who = engine.current(raw)
        if who == TERMINAL:
            break
        if who == CHANCE:
            outcomes = engine.chance_outcomes(raw)
            if outcomes is not None:
                assert sum((p for _, p in outcomes), Fraction(0)) == 1, "chance sums to 1"
            action = engine.sample(raw, stream)
        else:
            legal = engine.actions(raw)
            assert legal, "a player to move has a legal move"
            if greedy is not None and stream.below(2):
                view = game.State(engine, raw, seed=0, ply=ply).view(who)
                action = greedy.choose(view)
            else:
                action = legal[stream.below(len(legal))]
        assert engine.is_legal(raw, action), f"ply {ply}: {action} is not legal"
        if deep and stream.below(deep) == 0:
            _deep_check(game, engine, raw, ply, stream)
        after = engine.apply(raw, action)
        engine.check_transition(raw, after)
        actions.append(action)
        raw = after
    else:
        return len(actions), "cut at the cap"
    if records:
        _record_check(game, variant, seed, actions, raw)
    reason = getattr(game.State(engine, raw, seed=0), "end_reason", None)  # the card game
    return len(actions), f"ended ({reason})" if reason else "ended"


def _deep_check(game, engine, raw, ply: int, stream: RandomStream) -> None:
    state = game.State(engine, raw, seed=0, ply=ply)
    for _ in range(4):                      # an action number not legal here: refused
        action = stream.below(max(engine.num_actions, 1))
        if engine.is_legal(raw, action):
            continue
        try:
            state.play_action(action)
        except (IllegalMoveError, InvalidMoveError) as exc:
            assert exc.rule.startswith(game.rule_prefix) or not exc.rule, exc
        else:
            raise AssertionError(f"illegal action {action} was played")
        assert state.raw == raw
        break
    try:
        state.play(Move(game.name, -7, "forged"))
    except InvalidMoveError:
        pass
    else:
        raise AssertionError("a forged move was played")
    if engine.has_secrets and engine.current(raw) != TERMINAL:
        for seat in range(engine.num_players):
            view = state.view(seat)
            again = game.State(engine, engine.determinize(view, stream), seed=0)
            assert again.view(seat) == view, "determinize keeps what the seat sees"


def _record_check(game, variant, seed: int, actions: list[int], raw) -> None:
    state = game.new(variant, seed=seed)
    for action in actions:
        state = state.play_action(action)
    assert state.raw == raw
    back = Record.from_json(state.record().to_json()).final_state()
    assert back == state and back.history == state.history
    for seat in (0, TABLE):
        mine = state.seat_record(seat)
        again = SeatRecord.from_json(mine.to_json())
        assert again == mine and again.replay().last().view(seat) == state.view(seat)


def fuzz_chunk(job: tuple) -> tuple[list[int], Counter, list[tuple]]:
    """Games ``first … first + count - 1`` of one variant (one worker's share)."""
    name, variant, first, count, options = job
    game = games.get(name)
    lengths: list[int] = []
    endings: Counter = Counter()
    failures: list[tuple] = []
    for seed in range(first, first + count):
        records = bool(options["record_every"]) and seed % options["record_every"] == 0
        try:
            steps, ending = fuzz_one(game, variant, seed, max_plies=options["max_plies"],
                                     deep=options["deep"], records=records,
                                     mixed=options["mixed"])
        except Exception:  # noqa: BLE001 - every failure is reported, with its seed
            failures.append((name, variant.describe(), seed, traceback.format_exc()))
            continue
        lengths.append(steps)
        endings[ending] += 1
    return lengths, endings, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per variant")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--variants", choices=("default", "all"), default="default")
    parser.add_argument("--max-plies", type=int, default=100_000)
    parser.add_argument("--deep", type=int, default=40,
                        help="one step in N also checks the state layer (0: never)")
    parser.add_argument("--record-every", type=int, default=100,
                        help="every N-th game round-trips its records (0: never)")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--policy", choices=("mixed", "random"), default="mixed")
    parser.add_argument("--processes", type=int, default=1,
                        help="worker processes (the games are split between them)")
    args = parser.parse_args()
    if args.games < 1 or args.max_plies < 1 or args.processes < 1:
        parser.error("--games, --max-plies and --processes must be at least 1")
    options = {"max_plies": args.max_plies, "deep": args.deep,
               "record_every": args.record_every, "mixed": args.policy == "mixed"}
    pool = None
    if args.processes > 1:
        import multiprocessing
        pool = multiprocessing.get_context("fork").Pool(args.processes)
    names = args.game or games.names()
    failures = []
    print(f"fuzz: {args.games:,} games per variant, invariants at every step, "
          f"seeds from {args.seed}, players {args.policy}")
    header = (f"{'game':14s} {'variant':34s} {'games':>7s} {'steps':>11s} {'mean':>7s} "
              f"{'longest':>8s} {'cut':>4s} {'fails':>5s} {'secs':>7s}  endings")
    print(header)
    for name in names:
        game = games.get(name)
        variants = [game.Variant()] if args.variants == "default" else game.sample_variants()
        for variant in variants:
            start = time.perf_counter()
            chunk = 50
            jobs = [(name, variant, args.seed + k, min(chunk, args.games - k), options)
                    for k in range(0, args.games, chunk)]
            results = (pool.imap_unordered(fuzz_chunk, jobs) if pool is not None
                       else map(fuzz_chunk, jobs))
            lengths: list[int] = []
            endings: Counter = Counter()
            fails = 0
            for part, ends, failed in tqdm(results, total=len(jobs), desc=name,
                                           leave=False, file=sys.stderr):
                lengths += part
                endings += ends
                fails += len(failed)
                failures.extend(failed)
            secs = time.perf_counter() - start
            mean = sum(lengths) / len(lengths) if lengths else 0.0
            ends = ", ".join(f"{k} {v}" for k, v in endings.most_common())
            print(f"{name:14s} {variant.describe()[:34]:34s} {args.games:7,d} "
                  f"{sum(lengths):11,d} {mean:7.1f} {max(lengths, default=0):8,d} "
                  f"{endings['cut at the cap']:4d} {fails:5d} {secs:7.1f}  {ends}")
    if pool is not None:
        pool.close()
    for name, variant, seed, trace in failures[:10]:
        print(f"\nFAILED {name} ({variant}) seed {seed}:\n{trace}")
    print(f"\n{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

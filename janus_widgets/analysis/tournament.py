"""Tournaments: many seeded games of one game and variant with given bots.

``run_tournament`` plays the games (in several processes when asked, or on any
:class:`concurrent.futures.Executor`), shows a progress bar (tqdm's
notebook-aware bar) and returns a :class:`TournamentResult`: one plain row per
game and the design metrics of :mod:`janus_widgets.analysis.metrics`.

>>> result = run_tournament("jinns", bots=["greedy", "random"], games=6, seed=1,
...                         progress=False)
>>> len(result.rows), result.rows[0]["seed"] == result.rows[0]["seed"]
(6, True)
>>> sorted(result.metrics()["win_rate"])
['A', 'B']
"""

from __future__ import annotations

import inspect
import json
import os
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import games as registry
from ..core.bots import make_bot
from ..core.protocol import Game, seat_name
from ..core.simulate import play_game
from .metrics import summarize, wilson

__all__ = ["run_tournament", "TournamentResult", "BotSpec", "compare_variants",
           "VariantComparison", "game_seeds", "bot_scores"]

#: A bot for a seat: a bot name ("random", "greedy", "mcts", "mcts:800"), None for
#: uniformly random play on the fastest path, a policy(view) -> move (the same one in every
#: game), or a factory(seat, seed) -> policy (a freshly seeded bot for each game). With
#: several processes or a cluster, a callable must be picklable (defined in a module).
BotSpec = Any


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of the games of a tournament (the same for every machine)."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, 0x7A11]))
    return [int(s) for s in rng.integers(0, 2**63 - 1, size=games, dtype=np.int64)]


def bot_scores(result: TournamentResult) -> dict[str, dict[str, float]]:
    """Each bot's score over the games of a tournament: 1 for a win, ½ for a game with
    no single winner (a draw, or play cut off at ``max_plies``), 0 for a loss, averaged
    over every seat it played, with a 95% Wilson interval on the mean score (exact for
    wins and losses, conservative when some games have no winner). Meant for
    bots compared with ``rotate_seats=True``; a bot playing itself scores ½ by symmetry
    and is left out.

    >>> r = run_tournament("jactus", bots=["greedy", "random"], games=4, seed=2,
    ...                    rotate_seats=True, progress=False)
    >>> sorted(bot_scores(r)), 0 <= bot_scores(r)["greedy"]["score"] <= 1
    (['greedy', 'random'], True)
    """
    scores: dict[str, list[float]] = {}
    draws: dict[str, int] = {}
    for row in result.rows:
        labels = row["bots"]
        if len(set(labels)) < 2:
            continue
        won = row["winners"]
        for seat, label in enumerate(labels):
            name = seat_name(seat)
            value = 0.5 if len(won) != 1 else float(won[0] == name)
            scores.setdefault(label, []).append(value)
            draws[label] = draws.get(label, 0) + (len(won) != 1)
    out = {}
    for label, values in scores.items():
        x = np.array(values)
        low, high = wilson(float(x.sum()), len(x))
        out[label] = {"score": float(x.mean()), "low": low, "high": high, "games": len(x),
                      "wins": int((x == 1).sum()), "no_winner": draws[label],
                      "losses": int((x == 0).sum())}
    return out


def _policy(spec: BotSpec, game: Game, seat: int, seed: int) -> Any:
    """The policy of one seat in one game: a named bot seeded for this game, a
    ``policy(view)`` as given, or what a ``factory(seat, seed)`` makes."""
    if spec is None:
        return None
    if isinstance(spec, str):
        return make_bot(spec, game, seat, seed)
    if _takes_one_argument(spec):
        return spec
    return spec(seat, seed)


def _takes_one_argument(spec: Any) -> bool:
    """Is ``spec`` a ``policy(view)`` rather than a ``factory(seat, seed)``?"""
    try:
        parameters = inspect.signature(spec).parameters.values()
    except (TypeError, ValueError):
        return False
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY,
                                                      p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    return len(required) == 1 or (len(positional) == 1 and not required)


def _bot_label(spec: BotSpec) -> str:
    if spec is None:
        return "random"
    if isinstance(spec, str):
        return spec
    return getattr(spec, "__name__", type(spec).__name__)


def _play_chunk(task: tuple) -> list[dict[str, Any]]:
    """Play some games of a tournament (a top-level function, so processes can run it)."""
    name, variant_dict, specs, items, max_plies, rotate = task
    game = registry.get(name)
    variant = game.variant(variant_dict)
    n = game.engine(variant).num_players
    rows = []
    for index, seed in items:
        shift = index % n if rotate else 0
        seat_specs = [specs[(seat - shift) % len(specs)] for seat in range(n)]
        policies = [_policy(spec, game, seat, (seed + 7919 * (seat + 1)) % 2**63)
                    for seat, spec in enumerate(seat_specs)]
        result = play_game(game.new(variant, seed=seed), policies, max_plies=max_plies,
                           track_lead=True)
        rows.append({
            "index": index, "seed": seed,
            "bots": [_bot_label(s) for s in seat_specs],
            "winners": [seat_name(p) for p in result.winners],
            "scores": list(result.scores), "plies": result.plies,
            "decisions": result.decisions, "capped": result.capped,
            "branching": result.branching, "lead_changes": result.lead_changes,
            "decided_at": result.decided_at,
        })
    return rows


@dataclass
class TournamentResult:
    """The games of a tournament (plain rows) and their metrics."""

    game: str
    variant: dict[str, Any]
    bots: list[str]
    rows: list[dict[str, Any]]
    max_plies: int
    seed: int
    _metrics: dict[str, Any] | None = field(default=None, repr=False)

    def metrics(self) -> dict[str, Any]:
        """Balance, length, decisiveness, lead changes, branching and caps."""
        if self._metrics is None:
            self._metrics = summarize(self.rows, registry.get(self.game)
                                      .engine(registry.get(self.game).variant(self.variant))
                                      .num_players)
        return self._metrics

    def table(self) -> list[dict[str, Any]]:
        """One plain row per game (JSON-ready)."""
        return list(self.rows)

    def to_json(self) -> str:
        """Everything, as JSON (the command line's ``--json``)."""
        return json.dumps({"game": self.game, "variant": self.variant, "bots": self.bots,
                           "seed": self.seed, "max_plies": self.max_plies,
                           "metrics": self.metrics(), "games": self.rows}, indent=1)

    def __str__(self) -> str:
        from .metrics import format_metrics
        game = registry.get(self.game)
        title = (f"{game.title}: {len(self.rows)} games, bots {', '.join(self.bots)}, "
                 f"variant {game.describe_variant(game.variant(self.variant))}")
        return title + "\n" + format_metrics(self.metrics())

    def _repr_html_(self) -> str:
        from html import escape
        return f"<pre>{escape(str(self))}</pre>"


def run_tournament(game: str | Game, variant: Any = None, *, bots: Sequence[BotSpec] = (),
                   games: int = 100, seed: int = 0, max_plies: int = 20_000,
                   processes: int | None = 1, executor: Executor | None = None,
                   rotate_seats: bool = False, progress: bool = True,
                   chunk: int | None = None, **options: Any) -> TournamentResult:
    """Play ``games`` seeded games and measure them.

    ``bots`` gives one bot per seat (repeated round the table if shorter;
    default: random play). ``rotate_seats`` moves the bots one seat on each
    game, to compare bots rather than seats. ``processes`` > 1 plays in that
    many local processes; ``executor`` runs on any
    :class:`concurrent.futures.Executor` instead (for example a Dask
    cluster's). The same arguments give the same games wherever they run.
    """
    game_obj = registry.get(game) if isinstance(game, str) else game
    variant_obj = game_obj.variant(variant, **options)
    for name, value, allowed in (("games", games, "a whole number ≥ 1"),
                                 ("max_plies", max_plies, "a whole number ≥ 1"),
                                 ("processes", processes, "a whole number ≥ 1, or None for "
                                                          "one per core")):
        if name == "processes" and value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name}={value!r} is not allowed: use {allowed}")
    specs = list(bots) or [None]
    for spec in specs:
        if isinstance(spec, str):
            make_bot(spec, game_obj, 0, 0)  # a bad name fails here, not in a worker
    seeds = game_seeds(seed, games)
    items = list(enumerate(seeds))
    workers = processes or os.cpu_count() or 1
    size = chunk or max(1, min(50, games // (4 * max(1, workers)) or 1))
    tasks = [(game_obj.name, variant_obj.to_dict(), specs, items[i:i + size], max_plies,
              rotate_seats) for i in range(0, len(items), size)]
    rows: list[dict[str, Any]] = []
    bar = _progress_bar(games, f"{game_obj.title}") if progress else None
    try:
        if executor is None and workers == 1:
            for task in tasks:
                part = _play_chunk(task)
                rows.extend(part)
                if bar is not None:
                    bar.update(len(part))
        else:
            own = executor is None
            pool = executor or ProcessPoolExecutor(max_workers=workers)
            try:
                futures = [pool.submit(_play_chunk, task) for task in tasks]
                for future in _as_completed(futures):
                    part = future.result()
                    rows.extend(part)
                    if bar is not None:
                        bar.update(len(part))
            finally:
                if own:
                    pool.shutdown()
    finally:
        if bar is not None:
            bar.close()
    rows.sort(key=lambda r: r["index"])
    n = game_obj.engine(variant_obj).num_players
    labels = [_bot_label(specs[s % len(specs)]) for s in range(n)]
    return TournamentResult(game_obj.name, variant_obj.to_dict(), labels, rows, max_plies,
                            seed)


def _as_completed(futures: list) -> Iterable:
    from concurrent.futures import as_completed
    try:
        return as_completed(futures)
    except TypeError:  # an executor whose futures are not concurrent.futures ones
        return futures


def _progress_bar(total: int, label: str) -> Any:
    from tqdm.auto import tqdm
    return tqdm(total=total, desc=label, unit="game", leave=False)


# --- comparing variants -----------------------------------------------------------
@dataclass
class VariantComparison:
    """Tournaments of one game under several variants, side by side."""

    game: str
    labels: list[str]
    results: list[TournamentResult]

    def table(self) -> list[dict[str, Any]]:
        """One row per variant with the headline metrics."""
        out = []
        for label, result in zip(self.labels, self.results):
            m = result.metrics()
            row = {"variant": label, "games": m["games"], "length_mean": m["length"]["mean"],
                   "length_sd": m["length"]["sd"], "draws": m["draws"],
                   "capped": m["capped"], "decisiveness": m["decisiveness"],
                   "lead_changes": m["lead_changes"], "branching": m["branching"]}
            for seat, rate in m["win_rate"].items():
                row[f"win_{seat}"] = rate["rate"]
            out.append(row)
        return out

    def __str__(self) -> str:
        rows = self.table()
        keys = list(dict.fromkeys(k for row in rows for k in row))
        width = {k: max(len(k), *(len(_fmt(r.get(k))) for r in rows)) for k in keys}
        lines = ["  ".join(k.ljust(width[k]) for k in keys)]
        lines += ["  ".join(_fmt(r.get(k)).ljust(width[k]) for k in keys) for r in rows]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from html import escape
        return f"<pre>{escape(str(self))}</pre>"

    def plot(self) -> Any:
        """Win rates per seat with 95% intervals, and game lengths, per variant."""
        from .metrics import require_matplotlib
        plt = require_matplotlib()
        fig, (ax_win, ax_len) = plt.subplots(1, 2, figsize=(11, 4))
        width = 0.8 / max(1, len(self.results))
        for i, (label, result) in enumerate(zip(self.labels, self.results)):
            m = result.metrics()
            seats = list(m["win_rate"])
            xs = np.arange(len(seats)) + i * width
            rates = [m["win_rate"][s]["rate"] for s in seats]
            lo = [m["win_rate"][s]["rate"] - m["win_rate"][s]["low"] for s in seats]
            hi = [m["win_rate"][s]["high"] - m["win_rate"][s]["rate"] for s in seats]
            ax_win.bar(xs, rates, width, yerr=[lo, hi], capsize=3, label=label,
                       hatch=["", "//", "..", "xx", "\\\\", "oo"][i % 6], edgecolor="black")
            ax_len.hist([r["plies"] for r in result.rows], bins=30, alpha=0.5, label=label,
                        histtype="stepfilled", edgecolor="black")
        most = max(len(r.metrics()["win_rate"]) for r in self.results)
        ax_win.set_xticks(np.arange(most) + width * (len(self.results) - 1) / 2)
        ax_win.set_xticklabels([seat_name(p) for p in range(most)])
        ax_win.set_xlabel("seat")
        ax_win.set_ylabel("win rate (95% interval)")
        ax_win.set_ylim(0, 1)
        ax_win.legend(fontsize=8)
        ax_len.set_xlabel("game length (plies, chance included)")
        ax_len.set_ylabel("games")
        ax_len.legend(fontsize=8)
        fig.suptitle(f"{registry.get(self.game).title}: variants compared")
        fig.tight_layout()
        return fig


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3g}"
    return "-" if value is None else str(value)


def compare_variants(game: str | Game, variants: Sequence[Any] | dict[str, Any],
                     bots: Sequence[BotSpec] = (), n: int = 200, *, seed: int = 0,
                     **kwargs: Any) -> VariantComparison:
    """Run the same tournament under each variant (a list, or a dict label → variant;
    a variant may be a dict of options or the name of one of the game's rulesets, as in
    ``compare_variants("jactus", ["rulebook", "points"])``). Same seeds for every
    variant."""
    game_obj = registry.get(game) if isinstance(game, str) else game

    def variant_of(v: Any) -> Any:
        return game_obj.variant(ruleset=v) if isinstance(v, str) else game_obj.variant(v)

    if isinstance(variants, dict):
        labels, chosen = list(variants), list(variants.values())
    else:
        chosen = list(variants)
        labels = [v if isinstance(v, str) else game_obj.variant(v).describe() for v in chosen]
    results = [run_tournament(game_obj, variant_of(v), bots=bots, games=n, seed=seed,
                              **kwargs) for v in chosen]
    return VariantComparison(game_obj.name, labels, results)


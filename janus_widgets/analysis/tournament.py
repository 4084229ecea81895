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
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import games as registry
from ..core.bots import make_bot
from ..core.errors import ArgumentError
from ..core.protocol import Game, seat_name
from ..core.simulate import play_game
from .metrics import (FAMILY_ERROR, METRICS, GameColumns, format_metrics, holm,
                      html_table, metric_keys, paired_difference, paired_value, summarize,
                      turn_bins, wilson, with_interval)

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
        start = game.new(variant, seed=seed)
        result = play_game(start, policies, max_plies=max_plies, track_lead=True)
        rows.append({
            "index": index, "seed": seed,
            "bots": [_bot_label(s) for s in seat_specs],
            "winners": [seat_name(p) for p in result.winners],
            "scores": list(result.scores), "plies": result.plies,
            "decisions": result.decisions, "capped": result.capped,
            "branching": result.branching, "lead_changes": result.lead_changes,
            "lead_changes_ludii": result.lead_changes_ludii,
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
    _metrics: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    _columns: GameColumns | None = field(default=None, repr=False)

    @property
    def num_players(self) -> int:
        """Seats at the table."""
        game = registry.get(self.game)
        return game.engine(game.variant(self.variant)).num_players

    def metrics(self, definition: str = "ours") -> dict[str, Any]:
        """Win rates, Ludii's metrics with 95% intervals, lengths and caps (see
        :func:`janus_widgets.analysis.metrics.summarize`); ``definition="ludii"`` gives
        Ludii's own definitions of the same metrics (docs/metrics.md lists every
        difference)."""
        if definition not in self._metrics:
            self._metrics[definition] = summarize(self.rows, self.num_players,
                                                  definition=definition)
        return self._metrics[definition]

    def equal_seats(self) -> bool:
        """Whether every seat was played by the same bots: the same bot everywhere in
        every game, or every bot in every seat equally often (``rotate_seats``). Only then
        do the seats' results say something about the rules rather than the bots."""
        counts: dict[tuple[int, str], int] = {}
        labels: set[str] = set()
        for row in self.rows:
            for seat, bot in enumerate(row["bots"]):
                counts[seat, bot] = counts.get((seat, bot), 0) + 1
                labels.add(bot)
        if len(labels) <= 1:
            return True
        seats = {seat for seat, _ in counts}
        return all(len({counts.get((seat, bot), 0) for seat in seats}) == 1
                   for bot in labels)

    def columns(self) -> GameColumns:
        """The games as numpy columns (for paired comparisons)."""
        if self._columns is None:
            self._columns = GameColumns(self.rows, self.num_players)
        return self._columns

    def warnings(self) -> list[str]:
        """What makes the figures doubtful: more than 1% of the games cut off by the cap."""
        capped = self.metrics()["capped"]
        if capped * 100 <= len(self.rows):
            return []
        return [f"{capped} of {len(self.rows)} games ({capped / len(self.rows):.0%}) hit "
                f"the cap of {self.max_plies:,} plies: they never ended, so every figure "
                "here describes games cut short (try other bots, or look for a rule that "
                "lets the game go on for ever: find_flaws)"]

    def table(self) -> list[dict[str, Any]]:
        """One plain row per game (JSON-ready)."""
        return list(self.rows)

    def to_records(self) -> list[dict[str, Any]]:
        """One record per metric: key, Ludii's name, value, 95% interval, meaning, and
        beside them the value and interval under Ludii's own definition."""
        m, lm = self.metrics(), self.metrics("ludii")

        def pick(table: dict[str, Any], key: str) -> dict[str, Any]:
            return table["duration"]["plies"] if key == "duration_plies" else table[key]
        out = []
        for metric in METRICS:
            entry, theirs = pick(m, metric.key), pick(lm, metric.key)
            out.append({"metric": metric.key, "ludii": metric.ludii, "value": entry["value"],
                        "low": entry["low"], "high": entry["high"],
                        "alike": entry.get("alike"),
                        "meaning": metric.meaning, "ludii_value": theirs["value"],
                        "ludii_low": theirs["low"], "ludii_high": theirs["high"],
                        "ludii_alike": theirs.get("alike")})
        for seat, rate in m["win_rate"].items():
            out.append({"metric": f"win_{seat}", "ludii": "", "value": rate["rate"],
                        "low": rate["low"], "high": rate["high"], "alike": None,
                        "meaning": f"share of all games {seat} wins alone",
                        "ludii_value": rate["rate"], "ludii_low": rate["low"],
                        "ludii_high": rate["high"], "ludii_alike": None})
        return out

    def to_pandas(self) -> Any:
        """:meth:`to_records` as a pandas DataFrame indexed by metric (needs pandas)."""
        return _pandas().DataFrame.from_records(self.to_records(), index="metric")

    def to_json(self) -> str:
        """Everything, as JSON (the command line's ``--json``)."""
        return json.dumps({"game": self.game, "variant": self.variant, "bots": self.bots,
                           "seed": self.seed, "max_plies": self.max_plies,
                           "warnings": self.warnings(), "metrics": self.metrics(),
                           "games": self.rows}, indent=1)

    def title(self) -> str:
        """What was played: game, number of games, bots, variant."""
        game = registry.get(self.game)
        return (f"{game.title}: {len(self.rows)} games, bots {', '.join(self.bots)}, "
                f"variant {game.describe_variant(game.variant(self.variant))}")

    def __str__(self) -> str:
        return self.title() + "\n" + format_metrics(self.metrics())

    def _repr_html_(self) -> str:
        rows = [[r["metric"], with_interval(r, r["metric"] == "advantage_p1"), r["ludii"],
                 with_interval({"value": r["ludii_value"], "low": r["ludii_low"],
                                "high": r["ludii_high"], "alike": r["ludii_alike"]})]
                for r in self.to_records()]
        return html_table(["metric", "value [95% interval]", "Ludii",
                           "by Ludii's definition"], rows, caption=self.title(),
                          notes=[INTERVAL_NOTE, *(f"⚠ {w}" for w in self.warnings())])


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise ImportError("to_pandas() needs pandas: pip install 'janus_widgets[pandas]' "
                          "(to_records() needs nothing)") from None
    return pandas


def run_tournament(game: str | Game, variant: Any = None, *, bots: Sequence[BotSpec] = (),
                   games: int = 100, seed: int = 0, max_plies: int = 20_000,
                   processes: int | None = 1, executor: Executor | None = None,
                   rotate_seats: bool = False,
                   progress: bool | Callable[[int, int], None] = True,
                   chunk: int | None = None, **options: Any) -> TournamentResult:
    """Play ``games`` seeded games and measure them.

    ``bots`` gives one bot per seat (repeated round the table if shorter;
    default: random play). ``rotate_seats`` moves the bots one seat on each
    game, to compare bots rather than seats. ``progress`` shows a bar (in a
    notebook, replaced by a line of text when done; elsewhere on stderr), or calls
    ``progress(done, total)`` after each batch of games. ``processes`` > 1 plays in that
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
    seats = game_obj.engine(variant_obj).num_players
    if len(specs) > seats:
        raise ArgumentError("bots", [_bot_label(s) for s in specs],
                            f"at most {seats} bots, one a seat",
                            message=f"bots: {len(specs)} bots for {seats} seats; give at "
                                    f"most {seats}, one a seat (fewer are repeated round "
                                    "the table)")
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
    bar = _progress_bar(games, game_obj.title, progress) if progress else None
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


class _Callback:
    """Progress told to a function ``report(done, total)`` (a widget of the page)."""

    def __init__(self, report: Callable[[int, int], None], total: int) -> None:
        self.report, self.total, self.done = report, total, 0
        report(0, total)

    def update(self, n: int) -> None:
        self.done += n
        self.report(self.done, self.total)

    def close(self) -> None:
        pass


class _NotebookBar:
    """tqdm's notebook bar, shown under a display id and replaced by one line of text
    when done: no output is left pointing at a widget that is gone (Voila would show
    "Error displaying widget: model not found" for it)."""

    def __init__(self, total: int, label: str) -> None:
        from IPython.display import display
        from tqdm.notebook import tqdm
        self.label, self.start = label, time.perf_counter()
        self.bar = tqdm(total=total, desc=label, unit="game", leave=False, display=False)
        self.handle = display(self.bar.container, display_id=True)

    def update(self, n: int) -> None:
        self.bar.update(n)

    def close(self) -> None:
        done = self.bar.n
        self.handle.update({"text/plain": f"{self.label}: {done:,} games played in "
                                          f"{time.perf_counter() - self.start:.1f} s"},
                           raw=True)
        self.bar.close()


def _in_a_kernel() -> bool:
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - ipykernel comes with jupyterlab
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def _progress_bar(total: int, label: str, progress: Any) -> Any:
    """What shows the progress: the caller's function, a notebook bar in a kernel, or
    tqdm's text bar on stderr (the command line)."""
    if callable(progress):
        return _Callback(progress, total)
    if _in_a_kernel():
        return _NotebookBar(total, label)
    from tqdm import tqdm
    return tqdm(total=total, desc=label, unit="game", leave=False, file=sys.stderr)


# --- comparing variants -----------------------------------------------------------
#: The mark a comparison puts beside a difference that is real at a 5% family-wise
#: error rate over all the metrics shown (Holm's method).
MARK = "◆"
#: What every table of intervals says about them.
INTERVAL_NOTE = ("[95% interval]: made so that it covers the true value (what endless "
                 "games would give) in 95% of studies like this one; a rerun's own "
                 "estimate falls inside it only about 83% of the time.")


@dataclass
class VariantComparison:
    """Tournaments of one game under several variants on the same seeds, side by side.

    Every metric is shown for every variant, and beside each variant after the first
    its paired difference from the first (the same games, seed by seed) with its 95%
    interval, marked :data:`MARK` where Holm's method over all the metrics shown
    finds it real at a 5% family-wise error rate: with identical rules, any mark at all
    appears in at most 5% of comparisons.
    """

    game: str
    labels: list[str]
    results: list[TournamentResult]
    _differences: dict[tuple[str, int, int], dict[str, Any]] = field(
        default_factory=dict, repr=False)
    _marks: dict[int, dict[str, bool]] = field(default_factory=dict, repr=False)

    def _index(self, which: str | int) -> int:
        if isinstance(which, int) and not isinstance(which, bool):
            if -len(self.labels) <= which < len(self.labels):
                return which % len(self.labels)
        elif which in self.labels:
            return self.labels.index(which)
        raise ValueError(f"no variant {which!r} in this comparison; the variants are: "
                         f"{', '.join(map(repr, self.labels))} (or their numbers 0 … "
                         f"{len(self.labels) - 1})")

    def metric_keys(self) -> list[str]:
        """The metrics compared: Ludii's, then each seat's win share."""
        return metric_keys(max(r.num_players for r in self.results))

    def difference(self, metric: str, a: str | int = 0, b: str | int = 1
                   ) -> dict[str, Any]:
        """``value(b) − value(a)`` of ``metric``, paired by seed, with a 95% interval
        and the p-value of "no difference" (see
        :func:`janus_widgets.analysis.metrics.paired_difference`): ``{"value", "low",
        "high", "a", "b", "p_value", "excludes_zero", "metric"}``, and for a variant
        against the first, ``"marked"``: whether the table marks it (:meth:`marks`).
        ``a`` and ``b`` are labels or positions."""
        ia, ib = self._index(a), self._index(b)
        out = self._paired(metric, ia, ib)
        if ia == 0 and ib > 0 and metric in self.metric_keys():
            out["marked"] = self.marks(ib)[metric]
        return out

    def difference_value(self, metric: str, a: str | int = 0, b: str | int = 1
                         ) -> float | None:
        """``difference(metric, a, b)["value"]`` alone: no interval, no p-value, no
        marks (those cost nearly all of :meth:`difference`'s time)."""
        ra, rb = self.results[self._index(a)], self.results[self._index(b)]
        return paired_value(ra.columns(), rb.columns(), metric)

    def marks(self, which: str | int = 1) -> dict[str, bool]:
        """For each metric shown, whether the difference of variant ``which`` from the
        first is marked: Holm's step-down method over every metric with a difference,
        at a family-wise error rate of 5% (``FAMILY_ERROR``)."""
        i = self._index(which)
        if i not in self._marks:
            keys = self.metric_keys()
            p = [self._p_or_nan(key, i) for key in keys]
            marked = holm(np.array(p, float), FAMILY_ERROR) if i else np.zeros(len(keys),
                                                                                bool)
            self._marks[i] = dict(zip(keys, (bool(x) for x in marked)))
        return dict(self._marks[i])

    def _p_or_nan(self, key: str, i: int) -> float:
        p = self._difference_or_none(key, i, marked=False)["p_value"]
        return float("nan") if p is None else p

    def _entry(self, result: TournamentResult, key: str) -> dict[str, Any]:
        m = result.metrics()
        if key.startswith("win_"):
            rate = m["win_rate"].get(key[4:])
            return {"value": None, "low": None, "high": None} if rate is None else \
                {"value": rate["rate"], "low": rate["low"], "high": rate["high"]}
        if key == "duration_plies":
            return m["duration"]["plies"]
        return m[key]

    def to_records(self) -> list[dict[str, Any]]:
        """One record per metric and variant: value and 95% interval, and for every
        variant after the first the paired difference from the first."""
        out = []
        for key in self.metric_keys():
            for i, (label, result) in enumerate(zip(self.labels, self.results)):
                entry = self._entry(result, key)
                record = {"metric": key, "variant": label, "value": entry["value"],
                          "low": entry["low"], "high": entry["high"],
                          "alike": entry.get("alike")}
                if i:
                    diff = self._difference_or_none(key, i)
                    record.update({"difference": diff["value"], "difference_low":
                                   diff["low"], "difference_high": diff["high"],
                                   "difference_alike": diff.get("alike"),
                                   "p_value": diff["p_value"],
                                   "excludes_zero": diff["excludes_zero"],
                                   "differs": diff["marked"]})
                out.append(record)
        return out

    def _paired(self, metric: str, ia: int, ib: int) -> dict[str, Any]:
        """The paired difference of variants ``ia`` and ``ib`` (computed once, a copy)."""
        key = (metric, ia, ib)
        if key not in self._differences:
            ra, rb = self.results[ia], self.results[ib]
            self._differences[key] = paired_difference(ra.columns(), rb.columns(), metric)
        return dict(self._differences[key])

    def _difference_or_none(self, key: str, i: int, marked: bool = True) -> dict[str, Any]:
        if key.startswith("win_") and any(key[4:] not in r.metrics()["win_rate"]
                                          for r in (self.results[0], self.results[i])):
            return {"value": None, "low": None, "high": None, "p_value": None,
                    "excludes_zero": False, "marked": False}
        out = self._paired(key, 0, i)
        if marked:
            out["marked"] = self.marks(i)[key] if i else False
        return out

    def to_pandas(self) -> Any:
        """:meth:`to_records` as a pandas DataFrame (needs pandas)."""
        return _pandas().DataFrame.from_records(self.to_records())

    def table(self) -> list[dict[str, Any]]:
        """One row per variant with the headline metrics (values only)."""
        out = []
        for label, result in zip(self.labels, self.results):
            m = result.metrics()
            row = {"variant": label, "games": m["games"], "length_mean": m["length"]["mean"],
                   "length_sd": m["length"]["sd"], "draws": m["draws"],
                   "capped": m["capped"], "lead_changes": m["lead_changes"],
                   "branching": m["branching"]}
            for key in metric_keys(0):
                row[key] = self._entry(result, key)["value"]
            for seat, rate in m["win_rate"].items():
                row[f"win_{seat}"] = rate["rate"]
            out.append(row)
        return out

    def _grid(self) -> tuple[list[str], list[list[str]]]:
        first = self.labels[0]
        header = ["metric", *self.labels,
                  *(f"{label} − {first}" for label in self.labels[1:])]
        rows = []
        for key in self.metric_keys():
            signed = key == "advantage_p1"
            cells = [key] + [with_interval(self._entry(r, key), signed)
                             for r in self.results]
            for i in range(1, len(self.results)):
                diff = self._difference_or_none(key, i)
                cells.append(with_interval(diff, True)
                             + (f" {MARK}" if diff["marked"] else ""))
            rows.append(cells)
        return header, rows

    def _notes(self) -> list[str]:
        shown = len(self.metric_keys())
        notes = [f"{MARK}: a real difference at a {FAMILY_ERROR:.0%} family-wise error "
                 f"rate over the {shown} metrics shown (Holm's method on the paired "
                 "differences, same seeds game by game): with identical rules, a table "
                 f"shows any {MARK} at all at most {FAMILY_ERROR:.0%} of the time. A 95% "
                 f"interval that excludes 0 without a {MARK} is not enough: among "
                 f"{shown} metrics one such interval in 20 would, by chance alone. "
                 f"{self.results[0].metrics()['games']} games per variant.", INTERVAL_NOTE]
        for label, result in zip(self.labels, self.results):
            notes += [f"⚠ {label}: {w}" for w in result.warnings()]
        return notes

    def __str__(self) -> str:
        header, rows = self._grid()
        width = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
        lines = ["  ".join(h.ljust(w) for h, w in zip(header, width))]
        lines += ["  ".join(c.ljust(w) for c, w in zip(row, width)) for row in rows]
        return "\n".join(lines + self._notes())

    def _repr_html_(self) -> str:
        header, rows = self._grid()
        return html_table(header, rows, caption=f"{registry.get(self.game).title}: "
                          "variants compared", notes=self._notes())

    def plot(self) -> Any:
        """Win rates per seat with 95% intervals, and game lengths in turns, per variant."""
        from .metrics import require_matplotlib
        plt = require_matplotlib()
        fig, (ax_win, ax_len) = plt.subplots(1, 2, figsize=(11, 4))
        width = 0.8 / max(1, len(self.results))
        turns = [r["decisions"] for result in self.results for r in result.rows]
        bins = turn_bins(turns)
        for i, (label, result) in enumerate(zip(self.labels, self.results)):
            m = result.metrics()
            seats = list(m["win_rate"])
            xs = np.arange(len(seats)) + i * width
            rates = [m["win_rate"][s]["rate"] for s in seats]
            lo = [m["win_rate"][s]["rate"] - m["win_rate"][s]["low"] for s in seats]
            hi = [m["win_rate"][s]["high"] - m["win_rate"][s]["rate"] for s in seats]
            hatch = ["", "//", "..", "xx", "\\\\", "oo"][i % 6]
            ax_win.bar(xs, rates, width, yerr=[lo, hi], capsize=3, label=label,
                       hatch=hatch, edgecolor="black")
            ax_len.hist([r["decisions"] for r in result.rows], bins=bins, alpha=0.5,
                        label=label, histtype="stepfilled", edgecolor="black", hatch=hatch)
        most = max(len(r.metrics()["win_rate"]) for r in self.results)
        ax_win.set_xticks(np.arange(most) + width * (len(self.results) - 1) / 2)
        ax_win.set_xticklabels([seat_name(p) for p in range(most)])
        ax_win.set_xlabel("seat")
        ax_win.set_ylabel("share of games won alone (95% interval)")
        ax_win.set_ylim(0, 1)
        ax_win.legend(fontsize=8)
        ax_len.set_xlabel("game length (turns: decisions, chance outcomes not counted)")
        ax_len.set_ylabel("games")
        ax_len.legend(fontsize=8)
        fig.suptitle(f"{registry.get(self.game).title}: variants compared")
        fig.tight_layout()
        return fig


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


"""Game-design metrics of a set of played games, after Ludii's (``docs/metrics.md``).

:func:`summarize` turns a tournament's rows (one per game) into metrics. Ludii's
metrics (``AdvantageP1``, ``Balance``, ``Completion``, ``Drawishness``,
``Timeouts``, ``DurationTurns``, ``DecisivenessMoves``, ``LeadChange``,
``BranchingFactor``, ``ScoreDifference``) come as ``{"value", "low", "high"}``
with a 95% interval: a Wilson score interval for a share of games, a seeded
bootstrap over the games for the rest. :func:`paired_difference` compares two
sets of games played on the same seeds, game by game.

>>> low, high = wilson(55, 100)
>>> round(low, 3), round(high, 3)
(0.452, 0.644)
>>> rows = [game_row("A", decisions=10), game_row("B", decisions=12),
...         game_row("A", decisions=14), game_row(None, decisions=9)]
>>> m = summarize(rows, 2)
>>> round(m["advantage_p1"]["value"], 4)       # A won 2 of the 3 decisive games
0.1667
>>> m["drawishness"]["value"], m["duration"]["value"]
(0.25, 11.25)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

import numpy as np

from ..core.protocol import seat_name

__all__ = ["wilson", "summarize", "format_metrics", "require_matplotlib", "METRICS", "number",
           "with_interval",
           "Metric", "metric_keys", "paired_difference", "GameColumns", "game_row",
           "html_table", "turn_bins", "BOOTSTRAP"]

#: Bootstrap resamples behind every interval that is not a Wilson interval.
BOOTSTRAP = 2000
_CHUNK = 100           # resamples drawn at a time (bounds the memory of big tournaments)


def wilson(k: int | float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rate(k: int, n: int) -> dict[str, float]:
    low, high = wilson(k, n)
    return {"wins": k, "games": n, "rate": k / n if n else 0.0, "low": low, "high": high}


# --- the games as columns ----------------------------------------------------------
class GameColumns:
    """A tournament's rows as numpy columns, one entry per game (in row order).

    ``sole`` is the seat of the single winner (-1: a draw, or a game cut off by the
    cap), ``decided`` when the winner took the lead for good (NaN without one),
    ``lead_rate`` lead changes per decision, ``spread`` the final gap between the
    highest and the lowest score.
    """

    def __init__(self, rows: Sequence[dict[str, Any]], num_players: int) -> None:
        names = {seat_name(p): p for p in range(num_players)}
        self.players = num_players
        self.n = len(rows)
        self.seeds = [r["seed"] for r in rows]
        self.sole = np.array([names[r["winners"][0]] if len(r["winners"]) == 1 else -1
                              for r in rows], dtype=np.int64)
        self.capped = np.array([bool(r["capped"]) for r in rows])
        self.decisions = np.array([r["decisions"] for r in rows], dtype=float)
        self.plies = np.array([r["plies"] for r in rows], dtype=float)
        self.branching = np.array([r["branching"] for r in rows], dtype=float)
        self.lead_rate = np.array([r["lead_changes"] / r["decisions"] if r["decisions"]
                                   else 0.0 for r in rows], dtype=float)
        self.decided = np.array([np.nan if r["decided_at"] is None else r["decided_at"]
                                 for r in rows], dtype=float)
        self.spread = np.array([max(r["scores"]) - min(r["scores"]) if r["scores"] else 0.0
                                for r in rows], dtype=float)

    def take(self, index: np.ndarray) -> _Taken:
        """The columns resampled: ``index`` has one row of game numbers per resample."""
        return _Taken(self, index)


class _Taken:
    """Columns indexed by a (resamples × games) array, each taken once when first used."""

    def __init__(self, columns: GameColumns, index: np.ndarray) -> None:
        self.columns = columns
        self.index = index
        self.players = columns.players
        self._cache: dict[str, np.ndarray] = {}

    def __getattr__(self, name: str) -> np.ndarray:
        if name.startswith("_"):
            raise AttributeError(name)
        cache = self.__dict__["_cache"]
        if name not in cache:
            cache[name] = getattr(self.columns, name)[self.index]
        return cache[name]


def _ratio(top: np.ndarray, bottom: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(bottom > 0, top / np.maximum(bottom, 1), np.nan)


def _wins(t: _Taken, seat: int) -> np.ndarray:
    return (t.sole == seat).sum(axis=1)


def _decisive(t: _Taken) -> np.ndarray:
    return (t.sole >= 0).sum(axis=1)


def _balance(t: _Taken) -> np.ndarray:
    rates = np.stack([_ratio(_wins(t, s), _decisive(t)) for s in range(t.players)])
    return 1.0 - (rates.max(axis=0) - rates.min(axis=0))


def _decisiveness(t: _Taken) -> np.ndarray:
    decided = t.decided
    known = ~np.isnan(decided)
    return _ratio(np.where(known, decided, 0.0).sum(axis=1), known.sum(axis=1))


# --- the metrics --------------------------------------------------------------------
@dataclass(frozen=True)
class Metric:
    """One of Ludii's metrics as the lab measures it."""

    key: str
    ludii: str                 #: Ludii's name (``Evaluation/src/metrics/`` in Ludii)
    label: str                 #: the short name a table shows
    meaning: str
    #: value per resample from resampled columns
    compute: Callable[[_Taken], np.ndarray]
    #: a share of games: (games counted, games considered) for a Wilson interval
    share: Callable[[GameColumns], tuple[int, int]] | None = None
    offset: Callable[[GameColumns], float] = lambda c: 0.0

    def value(self, columns: GameColumns) -> float | None:
        """The metric over all the games (None where no game qualifies)."""
        whole = self.compute(columns.take(np.arange(columns.n)[None, :]))[0]
        return None if np.isnan(whole) else float(whole)


METRICS: tuple[Metric, ...] = (
    Metric("advantage_p1", "AdvantageP1", "advantage A",
           "A's share of the decisive games minus a fair share (1/players)",
           lambda t: _ratio(_wins(t, 0), _decisive(t)) - 1 / t.players,
           share=lambda c: (int((c.sole == 0).sum()), int((c.sole >= 0).sum())),
           offset=lambda c: -1 / c.players),
    Metric("balance", "Balance", "balance",
           "1 minus the largest gap between two seats' win rates over decisive games",
           _balance),
    Metric("completion", "Completion", "completion",
           "share of games that end by the rules (not cut off by the cap)",
           lambda t: (~t.capped).mean(axis=1),
           share=lambda c: (int((~c.capped).sum()), c.n)),
    Metric("drawishness", "Drawishness", "drawishness",
           "share of finished games without a single winner",
           lambda t: _ratio(((t.sole < 0) & ~t.capped).sum(axis=1), (~t.capped).sum(axis=1)),
           share=lambda c: (int(((c.sole < 0) & ~c.capped).sum()), int((~c.capped).sum()))),
    Metric("timeouts", "Timeouts", "timeouts",
           "share of games cut off by the cap on plies",
           lambda t: t.capped.mean(axis=1),
           share=lambda c: (int(c.capped.sum()), c.n)),
    Metric("duration", "DurationTurns", "turns",
           "mean turns per game: decisions, chance outcomes not counted",
           lambda t: t.decisions.mean(axis=1)),
    Metric("duration_plies", "DurationMoves", "plies",
           "mean plies per game: decisions and chance outcomes",
           lambda t: t.plies.mean(axis=1)),
    Metric("decisiveness", "DecisivenessMoves", "decisiveness",
           "when the winner took the lead for good, as a share of the game "
           "(0 = from the start; games with a single winner)",
           _decisiveness),
    Metric("lead_change", "LeadChange", "lead change",
           "changes of the sole leader (by score) per decision, averaged over games",
           lambda t: t.lead_rate.mean(axis=1)),
    Metric("branching_factor", "BranchingFactor (average)", "branching",
           "mean number of legal moves at a decision",
           lambda t: t.branching.mean(axis=1)),
    Metric("score_difference", "ScoreDifference (at the end)", "score gap",
           "final gap between the highest and the lowest score, averaged",
           lambda t: t.spread.mean(axis=1)),
)
_BY_KEY = {m.key: m for m in METRICS}


def _seat_metric(seat: int) -> Metric:
    name = seat_name(seat)
    return Metric(f"win_{name}", "", f"wins {name}", f"share of all games {name} wins alone",
                  lambda t: (t.sole == seat).mean(axis=1),
                  share=lambda c: (int((c.sole == seat).sum()), c.n))


def metric_keys(num_players: int) -> list[str]:
    """Every metric a comparison can show: Ludii's, then each seat's win share."""
    return [m.key for m in METRICS] + [f"win_{seat_name(p)}" for p in range(num_players)]


def _metric(key: str, num_players: int) -> Metric:
    if key in _BY_KEY:
        return _BY_KEY[key]
    for p in range(num_players):
        if key == f"win_{seat_name(p)}":
            return _seat_metric(p)
    raise ValueError(f"no metric {key!r}; the metrics are: "
                     f"{', '.join(metric_keys(num_players))}")


def _resamples(n: int, seed: int, salt: int) -> Any:
    """Chunks of bootstrap resamples of ``n`` games, the same for the same seed."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, salt, n]))
    for start in range(0, BOOTSTRAP, _CHUNK):
        yield rng.integers(0, n, size=(min(_CHUNK, BOOTSTRAP - start), n))


def _interval(samples: np.ndarray) -> tuple[float | None, float | None]:
    samples = samples[~np.isnan(samples)]
    if not samples.size:
        return (None, None)
    low, high = np.percentile(samples, [2.5, 97.5])
    return (float(low), float(high))


def _ludii(columns: GameColumns, seed: int) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    boot = [m for m in METRICS if m.share is None]
    samples: dict[str, list[np.ndarray]] = {m.key: [] for m in boot}
    if columns.n:
        for index in _resamples(columns.n, seed, 0xB007):
            taken = columns.take(index)
            for m in boot:
                samples[m.key].append(m.compute(taken))
    for m in METRICS:
        value = m.value(columns) if columns.n else None
        if m.share is not None:
            k, total = m.share(columns)
            low, high = wilson(k, total) if total else (None, None)
            shift = m.offset(columns)
            entry = {"value": value,
                     "low": None if low is None else low + shift,
                     "high": None if high is None else high + shift,
                     "count": k, "of": total}
        else:
            low, high = _interval(np.concatenate(samples[m.key])) if columns.n \
                else (None, None)
            entry = {"value": value, "low": low, "high": high}
        out[m.key] = entry
    plies = out.pop("duration_plies")
    out["duration"]["plies"] = plies
    return out


def summarize(rows: Sequence[dict[str, Any]], num_players: int, seed: int = 0
              ) -> dict[str, Any]:
    """The metrics of tournament rows (see :func:`run_tournament`); ``seed`` seeds the
    bootstrap, so the same games always give the same intervals."""
    n = len(rows)
    columns = GameColumns(rows, num_players)
    seats = [seat_name(p) for p in range(num_players)]
    win_rate = {s: _rate(int((columns.sole == p).sum()), n) for p, s in enumerate(seats)}
    bots: dict[str, list[int]] = {}
    for row, winner in zip(rows, columns.sole):
        for seat, bot in enumerate(row["bots"]):
            entry = bots.setdefault(bot, [0, 0])
            entry[1] += 1
            entry[0] += int(winner == seat)
    by_bot = {bot: _rate(k, games) for bot, (k, games) in bots.items()}
    lengths = columns.plies
    counts, edges = np.histogram(lengths, bins=min(20, max(1, n)))
    ludii = _ludii(columns, seed)
    return {
        "games": n,
        "win_rate": win_rate,
        "by_bot": by_bot,
        # kept for older code: the same as advantage_p1's value (decisive games only)
        "first_player_advantage": ludii["advantage_p1"]["value"],
        "draws": int(((columns.sole < 0) & ~columns.capped).sum()),
        "capped": int(columns.capped.sum()),
        "length": {"mean": float(lengths.mean()), "sd": float(lengths.std(ddof=1))
                   if n > 1 else 0.0, "min": float(lengths.min()),
                   "median": float(np.median(lengths)), "max": float(lengths.max()),
                   "histogram": {"edges": edges.tolist(), "counts": counts.tolist()}},
        "lead_changes": float(np.mean([r["lead_changes"] for r in rows])),
        "branching": float(columns.branching.mean()),
        **ludii,
    }


def paired_difference(a: GameColumns, b: GameColumns, metric: str, *, seed: int = 0
                      ) -> dict[str, Any]:
    """value(b) − value(a) over games played on the same seeds, with a 95% paired
    bootstrap interval: each resample takes the same games (seeds) from both."""
    if a.seeds != b.seeds:
        raise ValueError("a paired difference needs the same games on both sides: the "
                         "two tournaments were not played on the same seeds (use the "
                         "same seed and number of games)")
    ma, mb = _metric(metric, a.players), _metric(metric, b.players)
    va, vb = ma.value(a), mb.value(b)
    diffs = [mb.compute(b.take(index)) - ma.compute(a.take(index))
             for index in _resamples(a.n, seed, 0xD1FF)] if a.n else []
    low, high = _interval(np.concatenate(diffs)) if diffs else (None, None)
    value = None if va is None or vb is None else vb - va
    excludes = low is not None and high is not None and (low > 0 or high < 0)
    return {"metric": metric, "a": va, "b": vb, "value": value, "low": low, "high": high,
            "excludes_zero": bool(excludes)}


def game_row(winner: str | None, *, decisions: int = 10, plies: int | None = None,
             capped: bool = False, scores: Sequence[float] = (0.0, 0.0),
             branching: float = 2.0, lead_changes: int = 0,
             decided_at: float | None = None, seed: int = 0) -> dict[str, Any]:
    """A tournament row made by hand (for examples and tests)."""
    return {"index": 0, "seed": seed, "bots": ["greedy"] * len(scores),
            "winners": [] if winner is None else [winner], "scores": list(scores),
            "plies": decisions if plies is None else plies, "decisions": decisions,
            "capped": capped, "branching": branching, "lead_changes": lead_changes,
            "decided_at": decided_at}


# --- showing them ---------------------------------------------------------------------
def number(value: float | None, signed: bool = False) -> str:
    """A metric's value in a table: about three significant figures, '–' for none.

    >>> number(0.0123), number(63.61), number(1998.5), number(-0.2, signed=True)
    ('0.0123', '63.6', '1,998', '−0.2')
    """
    if value is None:
        return "–"
    sign = "+" if signed else ""
    size = abs(value)
    if size >= 100:
        text = f"{value:{sign},.0f}"
    elif size >= 10:
        text = f"{value:{sign}.1f}"
    else:
        text = f"{value:{sign}.3g}"
    return text.replace("-", "−")


def with_interval(entry: dict[str, Any], signed: bool = False) -> str:
    """``0.56 [0.49, 0.63]``."""
    if entry.get("low") is None:
        return number(entry.get("value"), signed)
    return (f"{number(entry['value'], signed)} [{number(entry['low'], signed)}, "
            f"{number(entry['high'], signed)}]")


def format_metrics(m: dict[str, Any]) -> str:
    """The metrics as a small text table (the command line prints this)."""
    lines = [f"{'seat':<6}{'wins':>7}{'rate':>8}   95% interval"]
    for seat, r in m["win_rate"].items():
        lines.append(f"{seat:<6}{r['wins']:>7}{r['rate']:>8.3f}   "
                     f"[{r['low']:.3f}, {r['high']:.3f}]")
    if len(m["by_bot"]) > 1:
        lines.append(f"{'bot':<10}{'wins':>5}{'games':>7}{'rate':>8}   95% interval")
        for bot, r in m["by_bot"].items():
            lines.append(f"{bot:<10}{r['wins']:>5}{r['games']:>7}{r['rate']:>8.3f}   "
                         f"[{r['low']:.3f}, {r['high']:.3f}]")
    adv = m["advantage_p1"]
    lines.append("first-player advantage (A's share of the decisive games - 1/players): "
                 + with_interval(adv, True))
    lines.append(f"{'metric':<18}{'Ludii':<29}value [95% interval]")
    for metric in METRICS:
        if metric.key == "duration_plies":
            entry = m["duration"]["plies"]
        else:
            entry = m[metric.key]
        lines.append(f"{metric.key:<18}{metric.ludii:<29}"
                     f"{with_interval(entry, metric.key == 'advantage_p1')}")
    lines.append(f"games {m['games']}, draws {m['draws']}, hit the move cap {m['capped']}; "
                 f"lead changes per game {m['lead_changes']:.2f}")
    return "\n".join(lines).replace("−", "-")


_CELL = "padding:2px 8px;white-space:nowrap;text-align:right"
_HEAD = "padding:2px 8px;white-space:nowrap;text-align:left"


def html_table(header: Sequence[str], rows: Sequence[Sequence[str]], *,
               caption: str = "", notes: Sequence[str] = ()) -> str:
    """A compact HTML table whose cells never wrap (inline styles, so Voila, an
    exported page and a printout all keep them). Texts are escaped here."""
    parts = ['<table class="janus-table" style="border-collapse:collapse;'
             'font-variant-numeric:tabular-nums;font-size:13px">']
    if caption:
        parts.append(f'<caption style="text-align:left;font-weight:bold;'
                     f'white-space:nowrap">{escape(caption)}</caption>')
    parts.append("<tr>" + "".join(f'<th style="{_HEAD};border-bottom:1px solid #888">'
                                  f"{escape(h)}</th>" for h in header) + "</tr>")
    for row in rows:
        cells = [f'<td style="{_HEAD}">{escape(row[0])}</td>']
        cells += [f'<td style="{_CELL}">{escape(c)}</td>' for c in row[1:]]
        parts.append("<tr>" + "".join(cells) + "</tr>")
    parts.append("</table>")
    parts += [f'<div style="font-size:12px">{escape(note)}</div>' for note in notes]
    return "".join(parts)


def turn_bins(values: Sequence[float], most: int = 40) -> np.ndarray:
    """Histogram bin edges on whole turns: each bin holds the same whole numbers (one,
    or a few when the range is wide), edges halfway between them.

    >>> turn_bins([3, 4, 7]).tolist()
    [2.5, 3.5, 4.5, 5.5, 6.5, 7.5]
    """
    low, high = int(min(values)), int(max(values))
    width = max(1, math.ceil((high - low + 1) / most))
    count = math.ceil((high - low + 1) / width)
    return low - 0.5 + width * np.arange(count + 1)


def require_matplotlib() -> Any:
    """matplotlib.pyplot, or a clear error saying how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - the lab extra installs it
        raise ImportError("plots need matplotlib: pip install 'janus_widgets[lab]'") from None
    return plt

"""Game-design metrics of a set of played games, after Ludii's.

Balance (win rate per seat with 95% Wilson intervals, and the first player's
advantage), draws, game length (mean, spread, histogram), decisiveness (how far
into the game the winner took the lead for good: 0 = from the start, 1 = at
the last move), lead changes, mean branching factor, and games that hit the
move cap.

>>> low, high = wilson(55, 100)
>>> round(low, 3), round(high, 3)
(0.452, 0.644)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.protocol import seat_name

__all__ = ["wilson", "summarize", "format_metrics", "require_matplotlib"]


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


def summarize(rows: Sequence[dict[str, Any]], num_players: int) -> dict[str, Any]:
    """The metrics of tournament rows (see :func:`run_tournament`)."""
    n = len(rows)
    seats = [seat_name(p) for p in range(num_players)]
    sole = [r["winners"][0] if len(r["winners"]) == 1 else None for r in rows]
    win_rate = {s: _rate(sum(1 for w in sole if w == s), n) for s in seats}
    bots: dict[str, list[int]] = {}
    for row, winner in zip(rows, sole):
        for seat, bot in enumerate(row["bots"]):
            entry = bots.setdefault(bot, [0, 0])
            entry[1] += 1
            entry[0] += winner == seat_name(seat)
    by_bot = {bot: _rate(k, games) for bot, (k, games) in bots.items()}
    lengths = np.array([r["plies"] for r in rows], dtype=float)
    counts, edges = np.histogram(lengths, bins=min(20, max(1, n)))
    decided = [r["decided_at"] for r in rows if r["decided_at"] is not None]
    finished = [r for r in rows if not r["capped"]]
    return {
        "games": n,
        "win_rate": win_rate,
        "by_bot": by_bot,
        "first_player_advantage": win_rate[seats[0]]["rate"] - 1 / num_players,
        "draws": sum(1 for r in finished if len(r["winners"]) != 1),
        "capped": sum(1 for r in rows if r["capped"]),
        "length": {"mean": float(lengths.mean()), "sd": float(lengths.std(ddof=1))
                   if n > 1 else 0.0, "min": float(lengths.min()),
                   "median": float(np.median(lengths)), "max": float(lengths.max()),
                   "histogram": {"edges": edges.tolist(), "counts": counts.tolist()}},
        "decisiveness": float(np.mean(decided)) if decided else None,
        "lead_changes": float(np.mean([r["lead_changes"] for r in rows])),
        "branching": float(np.mean([r["branching"] for r in rows])),
    }


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
    length = m["length"]
    decisive = ("-" if m["decisiveness"] is None else f"{m['decisiveness']:.3f}")
    lines += [
        f"first-player advantage {m['first_player_advantage']:+.3f}",
        f"games {m['games']}, draws {m['draws']}, hit the move cap {m['capped']}",
        f"length: mean {length['mean']:.1f}, sd {length['sd']:.1f}, median "
        f"{length['median']:.0f}, range {length['min']:.0f}–{length['max']:.0f} plies",
        f"decisiveness (winner leads for good from) {decisive}; lead changes "
        f"{m['lead_changes']:.2f}; mean branching {m['branching']:.1f}",
    ]
    return "\n".join(lines)


def require_matplotlib() -> Any:
    """matplotlib.pyplot, or a clear error saying how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - the lab extra installs it
        raise ImportError("plots need matplotlib: pip install 'janus_widgets[lab]'") from None
    return plt

"""The Jactus widget: the shared shell with the Jactus canvas, and a *best move* hint.

The hint (a toggle under the board) shows what certified optimal 2-player play does in
the position on screen (:mod:`janus_widgets.analysis.solve`): the value of the position
for the player to move (a win 1, a loss 0, a game that never ends ½), the solution's
best moves, and the value of every pick-up or claim. The solution is computed once (or
read from the cache) the first time the hint is shown under a variant.

>>> w = jactus_widget(players=3, seed=1, bot_delay=0)
>>> w.play("r*").dice != ()
True
>>> "2-player games only" in hint_html(w)     # three players: no single value to show
True
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from ...core.protocol import seat_name
from ...widgets.shell import GameWidget

__all__ = ["jactus_widget", "extras", "refresh", "hint_html", "show_hint", "HINT_CLASS"]

HINT_CLASS = "jactus-hint"
#: Rows of pick-ups shown in the hint at once (the others fold away under one line).
HINT_ROWS = 8


def jactus_widget(variant: Any = None, **kwargs: Any) -> GameWidget:
    """A Jactus :class:`GameWidget` (keyword arguments as for GameWidget)."""
    return GameWidget("jactus", variant, **kwargs)


def _percent(x: float) -> str:
    return f"{x:.6f}"


def _short(x: float) -> str:
    """How much a move falls short of the best (tiny differences shown as such)."""
    return "–" if x <= 1e-12 else (f"{x:.6f}" if x >= 1e-4 else f"{x:.1e}")


def hint_html(shell: GameWidget) -> str:
    """The hint for the position on screen, as HTML (solving first if needed)."""
    from ...analysis.solve import cached_solution, unsolvable

    state = shell.state
    reason = unsolvable(state.variant)
    if reason is not None:
        return f"<p>No hint: {html.escape(reason)}.</p>"
    solution = cached_solution(state.variant)
    mover = state.current_player
    ends = solution.end_probability(state)
    lines = []
    if state.is_over:
        return "<p>Game over: nothing left to choose.</p>"
    if mover < 0:
        value = solution.value(state)
        lines.append(f"<p><b>Chance</b> throws now. Under optimal play from here A's payoff "
                     f"is {_percent(value)} and B's {_percent(1 - value)} (the average over "
                     "the throw's outcomes).</p>")
        return "".join(lines)
    name = seat_name(mover)
    value = solution.value_for(state, mover)
    best = solution.best_moves(state)
    lines.append(f"<p><b>Best for {name}</b>: {', '.join(html.escape(str(m)) for m in best)}"
                 f" · {name}'s payoff under optimal play {_percent(value)} (a win 1, a loss 0,"
                 f" a game that never ends ½) · the game ends with probability "
                 f"{_percent(ends)}.</p>")
    pairs = [(m, v if mover == 0 else 1.0 - v) for m, v in solution.move_values(state)]
    pairs.sort(key=lambda mv: (-mv[1], mv[0].action))
    top = pairs[0][1]
    rows = [f"<tr><td>{'★' if move in best else ''}</td><td>{html.escape(str(move))}</td>"
            f"<td>{html.escape(move.description)}</td><td>{_percent(v)}</td>"
            f"<td>{_short(top - v)}</td></tr>" for move, v in pairs]
    head = ("<tr><th></th><th>move</th><th>what it does</th>"
            f"<th>{name}'s payoff after it</th><th>short of the best</th></tr>")
    lines.append(f"<table class='jactus-hint-moves'>{head}{''.join(rows[:HINT_ROWS])}</table>")
    if len(pairs) > HINT_ROWS:              # the others folded away, one click to open
        rest = [v for _, v in pairs[HINT_ROWS:]]
        lines.append(f"<details class='jactus-hint-more'><summary>… {len(rest)} more, worth "
                     f"{_percent(min(rest))} to {_percent(max(rest))}</summary>"
                     f"<table class='jactus-hint-moves'>{''.join(rows[HINT_ROWS:])}</table>"
                     "</details>")
    return "".join(lines)


def _parts(shell: GameWidget) -> tuple[Any, Any] | None:
    for child in shell.extras.children:
        if HINT_CLASS in child._dom_classes:
            return child.children[0], child.children[1]
    return None


def show_hint(shell: GameWidget, on: bool | None = None) -> str:
    """Turn the hint on or off (``None``: leave as it is) and bring it up to date;
    returns what it shows."""
    parts = _parts(shell)
    if parts is None:
        return ""
    toggle, panel = parts
    if on is not None and toggle.value != on:
        toggle.value = on                    # the toggle's observer calls back here
        return panel.value
    if not toggle.value:
        panel.value = ""
        return ""
    from ...analysis.solve import in_memory, unsolvable
    variant = shell.state.variant
    if unsolvable(variant) is None and not in_memory(variant):
        panel.value = ("<p>Solving 2-player Jactus for these rules (a few seconds, once; "
                       "afterwards it is read from the cache)…</p>")
    panel.value = hint_html(shell)
    return panel.value


def extras(shell: GameWidget) -> list[W.Widget]:
    """The *best move* toggle and its panel, under the board."""
    toggle = W.ToggleButton(value=False, description="Best move (solver)", icon="lightbulb-o",
                            tooltip="What certified optimal 2-player play does here, and the "
                                    "value of every move (janus_widgets.analysis.solve)",
                            layout=W.Layout(width="auto"))
    panel = W.HTML()
    panel.add_class("jactus-hint-panel")
    toggle.observe(shell.guard(lambda change: show_hint(shell)), names="value")
    box = W.VBox([toggle, panel])
    box.add_class(HINT_CLASS)
    return [box]


def refresh(shell: GameWidget) -> None:
    """Keep the hint in step with the position on screen."""
    parts = _parts(shell)
    if parts is not None and parts[0].value:
        show_hint(shell)

"""The Jactus solver's *best move* hint as a panel of plain text: what the table server
answers a seat page's ``{"type": "hint"}`` with, at a table whose teacher allowed it.

The table layer does not import the solver (``tests/test_imports.py``):
``python -m janus_widgets serve`` and ``classroom`` pass :func:`solver_panel` to the
:class:`~janus_widgets.table.server.Hall` as its ``hints`` hook. It is given the position
the seat's page shows, made from that seat's own messages, and it reads nothing else:
the panel holds moves, their descriptions and values, never a seed or a hidden card.

>>> import janus_widgets as jw
>>> state = jw.new("jactus", players=2, seed=1).play("r*").play_chance()
>>> panel = solver_panel(state)
>>> panel.id, panel.lines[0].startswith("Best for B:")
('jactus-hint', True)
>>> solver_panel(jw.new("jactus", players=3, seed=1)).lines[0][:9]
'No hint: '
"""

from __future__ import annotations

from typing import Any

from ..core.protocol import seat_name
from ..drawing.panels import Panel
from .solve import cached_solution, unsolvable

__all__ = ["HINT_PANEL", "HINT_ROWS", "solver_panel"]

#: The panel's id (its CSS class on the page).
HINT_PANEL = "jactus-hint"
#: Moves listed in the panel's table (the best first); the rest are summed up in a line.
HINT_ROWS = 12


def _value(x: float) -> str:
    return f"{x:.6f}"


def _short(x: float) -> str:
    """How much a move falls short of the best (tiny differences shown as such)."""
    return "–" if x <= 1e-12 else (f"{x:.6f}" if x >= 1e-4 else f"{x:.1e}")


def solver_panel(state: Any) -> Panel:
    """The solver's hint for ``state`` (a 2-player Jactus state or a seat's view of one):
    the best moves for the player to move, that player's payoff under optimal play (a
    win 1, a loss 0, a game that never ends ½) and every move's value, as a
    :class:`Panel` of plain text. A position the solver does not take says why."""
    title = "Best move (solver)"
    reason = unsolvable(state.variant)
    if reason is not None:
        return Panel(HINT_PANEL, title, lines=(f"No hint: {reason}.",))
    if state.is_over:
        return Panel(HINT_PANEL, title, lines=("Game over: nothing left to choose.",))
    solution = cached_solution(state.variant)
    mover = state.current_player
    if mover < 0:
        value = solution.value(state)
        said = (f"Chance throws now. Under optimal play from here A's payoff is "
                f"{_value(value)} and B's {_value(1 - value)} (the average over the "
                "throw's outcomes).")
        return Panel(HINT_PANEL, title, lines=(said,))
    name = seat_name(mover)
    best = solution.best_moves(state)
    value = solution.value_for(state, mover)
    worth = (f"{name}'s payoff under optimal play {_value(value)} (a win 1, a loss 0, a "
             f"game that never ends ½); the game ends with probability "
             f"{_value(solution.end_probability(state))}.")
    lines = [f"Best for {name}: {', '.join(str(m) for m in best)}", worth]
    pairs = [(m, v if mover == 0 else 1.0 - v) for m, v in solution.move_values(state)]
    pairs.sort(key=lambda mv: (-mv[1], mv[0].action))
    top = pairs[0][1]
    rows = tuple(("★" if move in best else "", str(move), move.description, _value(v),
                  _short(top - v)) for move, v in pairs[:HINT_ROWS])
    if len(pairs) > HINT_ROWS:
        rest = [v for _, v in pairs[HINT_ROWS:]]
        lines.append(f"… {len(rest)} more moves, worth {_value(min(rest))} to "
                     f"{_value(max(rest))}.")
    return Panel(HINT_PANEL, title, lines=tuple(lines),
                 head=("", "move", "what it does", f"{name}'s payoff after it",
                       "short of the best"), rows=rows)

"""What the shell shows under the board beyond the step bar and the status line: the
game's own panels and buttons, painted from the screen model (:mod:`..table.screen`:
the game's ``draw.py`` makes them as data, so the web seat page shows the same), and
the Jactus solver's *best move* hint, which belongs to this layer because it reads the
solver (:mod:`janus_widgets.analysis.solve`).

>>> w = jinns_widget(seed=1, bot_delay=0)
>>> w.play("Y3").piles[0]
(Pawn(colour='Y', strength=3),)
>>> w.set_variant(placement="random").phase
'deal'
>>> deal_rest(w).phase
'play'
>>> w = janus_widget(seed=3, bot_delay=0)
>>> "lay the tiles" in census_html(w.state)
True
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from ..core.protocol import seat_name
from ..drawing import Action, Panel
from ..table import screen as S

__all__ = ["Extras", "deal", "deal_all", "deal_rest", "panel_html", "census_html", "hint_allowed",
           "hint_html", "show_hint", "jactus_widget", "jinns_widget", "janus_widget",
           "janus_cards_widget", "HINT_CLASS", "DEAL_CLASS"]

HINT_CLASS = "jactus-hint"
#: The CSS class of a game's deal button (``janus-cards-deal``, ``jinns-deal``).
DEAL_CLASS = "janus-deal"
#: Rows of pick-ups shown in the hint at once (the others fold away under one line).
HINT_ROWS = 8


def panel_html(panel: Panel) -> str:
    """A panel of the screen model as HTML (every text escaped)."""
    e = html.escape
    parts = [f"<div style='font-family:sans-serif;font-size:13px'><b>{e(panel.title)}</b>"]
    parts += [f"<div>{e(line)}</div>" for line in panel.lines]
    if panel.rows:
        head = "".join(f"<th>{e(h)}</th>" for h in panel.head)
        rows = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in row) + "</tr>"
                       for row in panel.rows)
        parts.append(f"<table><tr>{head}</tr>{rows}</table>")
    return "".join(parts) + "</div>"


def census_html(state: Any) -> str:
    """Janus: the tiles left by colour and by distance and the heads still lying, as
    HTML (the panel the screen model carries)."""
    from ..games.janus.draw import census
    return panel_html(census(state))


def deal(shell: Any) -> Any:
    """The game's deal button: let chance act up to the next decision, at the end of the
    line only (replaying a recorded game never changes it); the draws come from the
    game's seed. Nothing happens where the button is not shown."""
    shown = S.actions(shell.table, shell._viewer())
    if not shown:
        return shell.state
    shell.resolve_chance()                  # a bot on seat A then answers at once
    if shown[0].said:
        shell.say(shown[0].said)
    return shell.state


deal_all = deal_rest = deal


class Extras:
    """The box under the status line: one HTML per panel, one button per action, and for
    two-player Jactus the solver's hint; :meth:`refresh` brings them up to date."""

    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.panels: dict[str, W.HTML] = {}
        self.buttons: dict[str, W.Button] = {}
        children: list[W.Widget] = []
        board = shell.game.board()
        action: Action | None = getattr(board, "DEAL_ACTION", None)
        if action is not None:
            button = W.Button(description=action.label, icon="random",
                              tooltip=action.tooltip,
                              layout=W.Layout(width="auto", display="none"))
            button.add_class(DEAL_CLASS)
            button.add_class(f"{shell.game.name}-deal")
            button.on_click(shell.guard(lambda _: deal(shell)))
            self.buttons[action.id] = button
            children.append(button)
        for panel in S.panels(shell.table, shell._viewer()):
            box = W.HTML(value=panel_html(panel))
            box.add_class(panel.id)
            self.panels[panel.id] = box
            children.append(box)
        # The solver plays perfect Jactus: in a class game (a seat of the table server)
        # it is offered only where the teacher allowed it (the table's ``solver``).
        if hint_allowed(shell):
            children.append(_hint_box(shell))
        self.widget = W.VBox(children)

    def refresh(self) -> None:
        """Show the panels of the position on screen and the buttons that apply now."""
        shell = self.shell
        viewer = shell._viewer()
        for panel in S.panels(shell.table, viewer):
            box = self.panels.get(panel.id)
            if box is not None:
                value = panel_html(panel)
                if box.value != value:
                    box.value = value
        shown = {a.id for a in S.actions(shell.table, viewer)}
        for key, button in self.buttons.items():
            button.layout.display = "" if key in shown else "none"
        if hint_allowed(shell):
            show_hint(shell)


# ---------------------------------------------------------------------- Jactus's hint
def hint_allowed(shell: Any) -> bool:
    """Whether the widget offers Jactus's *best move* hint: a game of its own always; a
    seat of a class table only when the teacher made the table with ``solver=True``
    (the server's welcome says so)."""
    table = shell.table
    return shell.game.name == "jactus" and (not table.remote
                                            or getattr(table, "solver", False) is True)


def _percent(x: float) -> str:
    return f"{x:.6f}"


def _short(x: float) -> str:
    """How much a move falls short of the best (tiny differences shown as such)."""
    return "–" if x <= 1e-12 else (f"{x:.6f}" if x >= 1e-4 else f"{x:.1e}")


def hint_html(shell: Any) -> str:
    """The solver's hint for the position on screen, as HTML (solving first if needed):
    the value of the position for the player to move (a win 1, a loss 0, a game that
    never ends ½), the solution's best moves, and the value of every pick-up or claim.

    >>> w = jactus_widget(players=3, seed=1, bot_delay=0)
    >>> "2-player games only" in hint_html(w)     # three players: no single value
    True
    """
    from ..analysis.solve import cached_solution, unsolvable

    state = shell.state
    if shell.table.remote:         # a class seat: its own view at the cursor, as a state
        state = shell.table.view_of(shell.viewpoint)
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


#: The hint toggle's tooltip where the solver can play the game on screen.
HINT_TOOLTIP = ("What certified optimal 2-player play does here, and the value of every "
                "move (janus_widgets.analysis.solve)")


def _hint_box(shell: Any) -> W.VBox:
    toggle = W.ToggleButton(value=False, description="Best move (solver)", icon="lightbulb-o",
                            tooltip=HINT_TOOLTIP, layout=W.Layout(width="auto"))
    panel = W.HTML()
    panel.add_class("jactus-hint-panel")
    toggle.observe(shell.guard(lambda change: show_hint(shell)), names="value")
    box = W.VBox([toggle, panel])
    box.add_class(HINT_CLASS)
    return box


def _hint_parts(shell: Any) -> tuple[Any, Any] | None:
    for child in shell.extras.children:
        if HINT_CLASS in child._dom_classes:
            return child.children[0], child.children[1]
    return None


def show_hint(shell: Any, on: bool | None = None) -> str:
    """Turn Jactus's *best move* hint on or off (``None``: leave as it is) and bring it
    up to date; returns what it shows. A page locked to a seat of the server has none
    unless its teacher allowed it: in a class game the solver is the teacher's to
    allow (:func:`hint_allowed`)."""
    parts = _hint_parts(shell)
    if parts is None:
        return ""
    toggle, panel = parts
    from ..analysis.solve import in_memory, unsolvable
    # A game the solver cannot play (3 players and more): the toggle says why, off.
    reason = unsolvable(shell.state.variant)
    toggle.disabled = reason is not None and not toggle.value
    toggle.tooltip = HINT_TOOLTIP if reason is None else f"No hint here: {reason}"
    if on is not None and toggle.value != on:
        toggle.value = on                    # the toggle's observer calls back here
        return panel.value
    if not toggle.value:
        panel.value = ""
        return ""
    variant = shell.state.variant
    if unsolvable(variant) is None and not in_memory(variant):
        panel.value = ("<p>Solving 2-player Jactus for these rules (a few seconds, once; "
                       "afterwards it is read from the cache)…</p>")
    panel.value = hint_html(shell)
    return panel.value


# ---------------------------------------------------------------------- factories
def _factory(name: str) -> Any:
    def make(variant: Any = None, **kwargs: Any) -> Any:
        from .shell import GameWidget
        return GameWidget(name, variant, **kwargs)
    make.__doc__ = f"A {name} :class:`GameWidget` (keyword arguments as for GameWidget)."
    make.__name__ = make.__qualname__ = f"{name.replace('-', '_')}_widget"
    return make


jactus_widget = _factory("jactus")
jinns_widget = _factory("jinns")
janus_widget = _factory("janus")
janus_cards_widget = _factory("janus-cards")

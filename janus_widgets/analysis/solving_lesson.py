"""The pieces of the lesson ``notebooks/solving-jactus.ipynb``: two games small enough to
solve by hand, the checked exercises, and a predict-then-measure panel.

Every exercise's answer is computed here (by the solver, the engine or exact linear
algebra), never typed in, and shown only by :meth:`Exercise.check`.

>>> print(solving_jactus.q1.check("6/11"))      # doctest: +ELLIPSIS
Right: 6/11 ≈ 0.5455. ...
>>> bool(solving_jactus.q3.check("1/6"))       # one face, not any of four
False
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from .checking import Exercise, ExerciseSet, Mistake, SignificantFigures
from .jactus_odds import solve_exact
from .solve import CHANCE_NODE, TERMINAL_NODE, GameGraph, cached_solution

__all__ = ["race_graph", "race_value", "cycle_graph", "spoil_pair_chance", "solving_jactus",
           "predict_and_measure", "exercise_position"]


def race_graph() -> GameGraph:
    """*First six wins*: A and B take turns throwing one die, A first; the first six
    wins. Nodes: 0 A throws, 1 B throws, 2 A has won, 3 B has won."""
    return GameGraph.from_edges([CHANCE_NODE, CHANCE_NODE, TERMINAL_NODE, TERMINAL_NODE],
                                {0: [2, 1], 1: [3, 0]}, {2: 1.0, 3: 0.0},
                                probs={0: [1 / 6, 5 / 6], 1: [1 / 6, 5 / 6]})


def race_value() -> Fraction:
    """A's chance in *first six wins*, exactly: the two equations
    ``a = 1/6 + 5/6·b`` and ``b = 5/6·a`` solved with fractions.

    >>> race_value()
    Fraction(6, 11)
    """
    six, other = Fraction(1, 6), Fraction(5, 6)
    (a,), _ = solve_exact([[1, -other], [-other, 1]], [[six], [0]])
    return a


def cycle_graph(out_a: float = 0.2, out_b: float = 0.8) -> GameGraph:
    """The trap in miniature: A may leave (A's payoff ``out_a``) or hand over to B; B may
    leave (``out_b``) or hand back. Nodes: 0 A, 1 B, 2 and 3 the two ways out."""
    return GameGraph.from_edges([0, 1, TERMINAL_NODE, TERMINAL_NODE], {0: [2, 1], 1: [3, 0]},
                                {2: out_a, 3: out_b})


def spoil_pair_chance() -> Fraction:
    """A spoils: keeps 1 2 3 4 and throws the fifth die. The chance that B then finds a
    pair (and not five different faces), from the engine's exact outcomes.

    >>> spoil_pair_chance()
    Fraction(2, 3)
    """
    from ..games.jactus.rules import position
    thrown = position(dice=(1, 2, 3, 4, 6)).play("r6")
    return sum((p for move, p in thrown.chance_outcomes()
                if max(Counter(thrown.play(move).dice).values()) == 2), Fraction(0))


def exercise_position(dice: Sequence[int], *, spoil: bool = True) -> Any:
    """The start of the game with B to pick up ``dice`` (A's opening throw showed them)."""
    from ..games.jactus.rules import JactusVariant, position
    return position(JactusVariant(spoil=spoil), dice=tuple(dice), to_move=1)


def _b_value(dice: Sequence[int], spoil: bool = True) -> Fraction:
    solution = cached_solution(None if spoil else {"spoil": False})
    return Fraction(solution.value_for(exercise_position(dice, spoil=spoil), 1))


def _limit(start: float) -> Fraction:
    from .solve import value_iteration
    return Fraction(float(value_iteration(cycle_graph(), start, 50)[-1][0])
                    ).limit_denominator(1000)


solving_jactus = ExerciseSet("solving_jactus", [
    Exercise(
        "q1", "First six wins: A and B take turns throwing one die, A first, and the first "
              "six wins. What is A's chance of winning?",
        race_value,
        explanation="Call A's chance a and B's chance (when B is about to throw) b. A wins "
                    "at once with 1/6, otherwise it is B's turn: a = 1/6 + 5/6·b; and b = "
                    "5/6·a, since B must miss before A throws again. So a = 1/6 + 25/36·a, "
                    "a = 6/11. Backward induction on a cycle: the value of each position is "
                    "written in terms of the next, and the equations solved together.",
        hint="Write A's chance before A's throw in terms of A's chance before B's throw, "
             "and solve the two equations together.",
        mistakes=(
            Mistake(Fraction(1, 2), "Both have the same die, but A throws first: A gets "
                                    "the first chance in every pair of throws."),
            Mistake(Fraction(1, 6), "1/6 is A's chance on the first throw only; if both miss, "
                                    "A throws again."),
            Mistake(Fraction(5, 11), "5/11 is B's chance, not A's."),
        )),
    Exercise(
        "q2", "The trap in miniature: A may leave with payoff 0.2 or hand over to B; B may "
              "leave with payoff 0.8 (for A) or hand back. Value iteration starts every "
              "position at 0 and sweeps the Bellman equations again and again. Which value "
              "for A does it settle at?",
        lambda: _limit(0.0),
        explanation="From 0: A's best is max(0.2, 0) = 0.2, and B's min(0.8, 0.2) = 0.2, and "
                    "nothing changes any more. From 1 it settles at 0.8 instead. Every value "
                    "between 0.2 and 0.8 solves the equations; the game's value is 1/2, the "
                    "solution in which a cycle both players keep for ever is a draw. Value "
                    "iteration cannot tell them apart, which is why the solver evaluates "
                    "strategies exactly instead.",
        hint="Do two sweeps by hand: A takes the larger of 0.2 and B's value, B the smaller "
             "of 0.8 and A's value.",
        tolerance=SignificantFigures(2),
        mistakes=(
            Mistake(Fraction(1, 2), "1/2 is the game's value (play that never ends is a "
                                    "draw), but value iteration from 0 does not find it."),
            Mistake(Fraction(4, 5), "0.8 is where value iteration settles when it starts "
                                    "from 1."),
        )),
    Exercise(
        "q3", "A spoils: A keeps 1 2 3 4 on the table and throws the fifth die. What is the "
              "chance that B finds a pair (two dice alike) rather than five different faces?",
        spoil_pair_chance,
        explanation="The thrown die makes a pair when it shows 1, 2, 3 or 4: 4 faces of 6, "
                    "2/3. Otherwise (5 or 6) the five faces all differ. Either way B finds at "
                    "most a pair: three alike can never follow a spoil, so a player who "
                    "spoils hands on dice that are no better than before.",
        hint="Which faces of the thrown die match one of the four dice left on the table?",
        mistakes=(
            Mistake(Fraction(1, 6), "1/6 is the chance of one particular face; any of four "
                                    "faces makes a pair."),
            Mistake(Fraction(1, 3), "1/3 is the chance that B finds five different faces "
                                    "(the die shows 5 or 6)."),
        )),
    Exercise(
        "q4", "Use the solver (sol.value_for, or the widget's best-move hint): at the start "
              "of the game A's opening throw shows 6 6 6 6 2 and B is to pick up. What is "
              "B's payoff under optimal play (a win 1, a draw 1/2)? Give three significant "
              "figures.",
        lambda: _b_value((6, 6, 6, 6, 2)),
        explanation="B keeps the four 6s and throws the 2: one chance in six of a Venus "
                    "throw now, and a strong lead if it comes; B's payoff is a little above "
                    "one half, because the rest of the game is long and even.",
        hint="Build the position with exercise_position((6, 6, 6, 6, 2)) and ask "
             "sol.value_for(position, 1).",
        mistakes=(
            Mistake(Fraction(1, 6), "1/6 is the chance of five 6s on this throw, not B's "
                                    "chance of winning the game."),
            Mistake(Fraction(7, 12), "That counts the Venus card as a win; one piece is not "
                                     "the game."),
        )),
    Exercise(
        "q5", "The rule change: with no spoiling (spoil=False), A's opening throw shows "
              "1 2 3 4 5 and B is to pick up. What is B's payoff under optimal play? Give "
              "three significant figures (the second solution is sol_no_spoil).",
        lambda: _b_value((1, 2, 3, 4, 5), spoil=False),
        explanation="B may no longer keep four different faces: it must keep one die (or "
                    "none) and try. The payoff stays close to one half, but now the game "
                    "ends for certain.",
        hint="exercise_position((1, 2, 3, 4, 5), spoil=False) builds the position; ask "
             "sol_no_spoil.value_for(position, 1).",
        mistakes=(
            Mistake(Fraction(1, 1296), "1/1296 is the chance of five of a kind when one die "
                                       "is kept, not B's payoff in the game."),
        )),
])


def predict_and_measure(question: str, choices: Sequence[str],
                        measure: Callable[[], tuple[str, str]]) -> Any:
    """A panel: the class commits to a prediction (a dropdown), then *Measure* computes
    the answer. ``measure()`` returns ``(choice, explanation)``: which choice is right
    and a sentence with the numbers. Nothing is measured before the button is pressed.

    The panel has the CSS class ``janus-predict``; ``panel.choice_box``,
    ``panel.measure_button`` and ``panel.result`` are its parts.
    """
    import ipywidgets as w

    box = w.Dropdown(options=["(your prediction)", *choices], description="Predict:",
                     layout=w.Layout(width="34em"))
    button = w.Button(description="Measure", icon="flask", button_style="primary")
    result = w.HTML()

    def run(_: Any = None) -> None:
        right, explanation = measure()
        guess = box.value
        if guess not in choices:
            verdict = "No prediction was made."
        elif guess == right:
            verdict = "The prediction was right."
        else:
            verdict = f"The prediction was {html.escape(guess)!s}; the measurement says: " \
                      f"{html.escape(right)}."
        result.value = (f"<p><b>{html.escape(right)}</b>. {html.escape(explanation)} "
                        f"<i>{verdict}</i></p>")

    button.on_click(run)
    panel = w.VBox([w.HTML(f"<p><b>Predict, then measure.</b> {html.escape(question)}</p>"),
                    w.HBox([box, button]), result],
                   layout=w.Layout(border="1px solid #c9c2b0", padding="8px", margin="6px 0"))
    panel.add_class("janus-predict")
    panel.choice_box, panel.measure_button, panel.result = (  # type: ignore[attr-defined]
        box, button, result)
    return panel

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
from itertools import combinations
from typing import Any

from .checking import Exercise, ExerciseSet, Mistake, Within, unique_mistakes
from .exercises import _pick
from .jactus_odds import solve_exact
from .solve import CHANCE_NODE, TERMINAL_NODE, GameGraph, cached_solution

__all__ = ["race_graph", "race_value", "cycle_graph", "spoil_chance", "SPOIL_EVENTS",
           "solving_jactus", "predict_and_measure", "exercise_position", "SOLVER_POSITIONS",
           "NO_SPOIL_POSITIONS", "SPOILS"]


def race_graph(faces: int = 6) -> GameGraph:
    """*First six wins* (with a die of ``faces`` faces, the first to throw the top face
    wins): A and B take turns, A first. Nodes: 0 A throws, 1 B throws, 2 A has won,
    3 B has won."""
    hit = 1 / faces
    return GameGraph.from_edges([CHANCE_NODE, CHANCE_NODE, TERMINAL_NODE, TERMINAL_NODE],
                                {0: [2, 1], 1: [3, 0]}, {2: 1.0, 3: 0.0},
                                probs={0: [hit, 1 - hit], 1: [hit, 1 - hit]})


def race_value(faces: int = 6) -> Fraction:
    """A's chance in *first six wins*, exactly: the two equations
    ``a = 1/6 + 5/6·b`` and ``b = 5/6·a`` solved with fractions.

    >>> race_value(), race_value(20)
    (Fraction(6, 11), Fraction(20, 39))
    """
    hit, miss = Fraction(1, faces), Fraction(faces - 1, faces)
    (a,), _ = solve_exact([[1, -miss], [-miss, 1]], [[hit], [0]])
    return a


def cycle_graph(out_a: float = 0.2, out_b: float = 0.8) -> GameGraph:
    """The trap in miniature: A may leave (A's payoff ``out_a``) or hand over to B; B may
    leave (``out_b``) or hand back. Nodes: 0 A, 1 B, 2 and 3 the two ways out."""
    return GameGraph.from_edges([0, 1, TERMINAL_NODE, TERMINAL_NODE], {0: [2, 1], 1: [3, 0]},
                                {2: out_a, 3: out_b})


#: What exercise 3 asks about B's dice after A spoils: exactly one pair (nothing better),
#: five different faces, two pairs, three alike.
SPOIL_EVENTS = ("a pair", "five different faces", "two pairs", "three alike")


def _dice_pattern(dice: Sequence[int]) -> str:
    counts = sorted(Counter(dice).values(), reverse=True)
    if counts[0] >= 3:
        return SPOIL_EVENTS[3]
    if counts[:2] == [2, 2]:
        return SPOIL_EVENTS[2]
    if counts[0] == 2:
        return SPOIL_EVENTS[0]
    return SPOIL_EVENTS[1]


def spoil_chance(kept: Sequence[int] = (1, 2, 3, 4), event: str = "a pair") -> Fraction:
    """A spoils: keeps the three or four different faces ``kept`` and throws the other
    dice. The chance that B then finds ``event`` (one of :data:`SPOIL_EVENTS`; "a pair"
    is exactly one pair and nothing better), from the engine's exact outcomes.

    >>> spoil_chance(), spoil_chance((2, 3, 5, 6), "five different faces")
    (Fraction(2, 3), Fraction(1, 3))
    >>> spoil_chance((1, 3, 4), "three alike"), spoil_chance((1, 3, 4), "a pair")
    (Fraction(1, 12), Fraction(7, 12))
    """
    from ..games.jactus.rules import position
    kept = tuple(kept)
    if len(kept) not in (3, 4) or len(set(kept)) != len(kept) \
            or not set(kept) <= set(range(1, 7)):
        raise ValueError(f"kept={kept!r}: a spoil here keeps three or four different "
                         "faces of 1-6")
    if event not in SPOIL_EVENTS:
        raise ValueError(f"event={event!r}: use one of {', '.join(SPOIL_EVENTS)}")
    picked = sorted(set(range(1, 7)) - set(kept))[:5 - len(kept)]
    thrown = position(dice=(*kept, *picked)).play("r" + "".join(map(str, picked)))
    return sum((p for move, p in thrown.chance_outcomes()
                if _dice_pattern(thrown.play(move).dice) == event), Fraction(0))


NOTHING = (0, 0, 0)


def exercise_position(dice: Sequence[int], holdings: tuple[tuple[int, int, int], ...] = (
        NOTHING, NOTHING), *, spoil: bool = True) -> Any:
    """B to pick up ``dice`` with A and B holding ``holdings`` (Venus cards, dogs, coins;
    the rest in the middle); at the start of the game by default."""
    from ..games.jactus.rules import JactusVariant, position
    return position(JactusVariant(spoil=spoil), dice=tuple(dice), to_move=1,
                    holdings=tuple(holdings))


def _b_value(dice: Sequence[int], holdings: Any, spoil: bool = True) -> Fraction:
    solution = cached_solution(None if spoil else {"spoil": False})
    return Fraction(solution.value_for(exercise_position(dice, holdings, spoil=spoil), 1))


def _pickup_working(dice: Sequence[int], holdings: Any, spoil: bool = True) -> str:
    """The key's working for exercises 4 and 5: every pick-up of B with its value for B."""
    solution = cached_solution(None if spoil else {"spoil": False})
    state = exercise_position(dice, holdings, spoil=spoil)
    values = []
    for move in state.legal_moves():
        after = state.play(move)
        values.append((solution.value_for(after, 1), str(move)))
    values.sort(reverse=True)
    return ("B's pick-ups and their values for B (after the throw, averaged over its "
            "outcomes): " + ", ".join(f"{m} {v:.4f}" for v, m in values)
            + f". The best is {values[0][1]}: {values[0][0]:.4f}.")


def _limit(out_a: float, out_b: float) -> Fraction:
    from .solve import value_iteration
    return Fraction(float(value_iteration(cycle_graph(out_a, out_b), 0.0, 50)[-1][0])
                    ).limit_denominator(1000)


def _pieces(held: tuple[int, int, int]) -> str:
    names = (["the Venus card"] if held[0] else []) + (
        ["two dog cards" if held[1] == 2 else "a dog card"] if held[1] else []) + (
        ["the coin"] if held[2] else [])
    return " and ".join(names) or "nothing"


def _situation(holdings: Any) -> str:
    a, b = holdings
    if a == b == NOTHING:
        return "At the start of the game A's opening throw shows"
    return f"A holds {_pieces(a)}, B holds {_pieces(b)}, and A's throw has left"


#: The positions of exercises 4 and 5 (dice, holdings of A and B): the class's first,
#: then the ones students draw (their values differ to three significant figures).
SOLVER_POSITIONS = [((6, 6, 6, 6, 2), (NOTHING, NOTHING)),
                    ((6, 6, 6, 6, 2), ((1, 0, 0), NOTHING)),
                    ((6, 6, 6, 2, 3), ((1, 0, 0), NOTHING)),
                    ((1, 1, 1, 1, 5), ((0, 0, 1), (1, 0, 0))),
                    ((6, 6, 6, 6, 2), (NOTHING, (0, 0, 1))),
                    ((6, 6, 6, 2, 3), (NOTHING, (0, 0, 1))),
                    ((6, 6, 6, 6, 2), (NOTHING, (0, 1, 0)))]
NO_SPOIL_POSITIONS = [((1, 2, 3, 4, 5), (NOTHING, NOTHING))] + [
    p for p in SOLVER_POSITIONS[1:6]] + [((6, 6, 6, 2, 3), (NOTHING, (0, 1, 0)))]


#: Exercise 3: (the faces A keeps, what B finds), the class's first; each student's has a
#: chance that is not 0.
SPOILS = [((1, 2, 3, 4), SPOIL_EVENTS[0])] + [
    (kept, event) for size in (4, 3) for kept in combinations(range(1, 7), size)
    for event in SPOIL_EVENTS
    if (kept, event) != ((1, 2, 3, 4), SPOIL_EVENTS[0])
    and not (size == 4 and event in SPOIL_EVENTS[2:])]


def _spoil_mistakes(kept: Sequence[int], event: str) -> tuple[Mistake, ...]:
    """The wrong answers worth explaining in exercise 3: the chances of the other events."""
    right = spoil_chance(kept, event)
    why = [(spoil_chance(kept, other), f"That is the chance that B finds {other}.")
           for other in SPOIL_EVENTS if other != event]
    why.append((Fraction(1, 2), "The thrown dice have six faces of equal chance, not two "
                                "outcomes: count the results that do it."))
    if len(kept) == 3:
        why.append((Fraction(1, 6) ** 2, "That is one particular result of the two dice; "
                                         "count all the results that do it."))
    return unique_mistakes(right, (Mistake(value, text) for value, text in why))


def _spoil_explanation(kept: Sequence[int], event: str) -> str:
    others = " or ".join(str(f) for f in range(1, 7) if f not in kept)
    if len(kept) == 4:
        return (f"The thrown die makes a pair when it shows one of the four faces left on "
                f"the table ({', '.join(map(str, kept))}): 4 faces of 6, 2/3. Otherwise "
                f"({others}) the five faces all differ: 2 faces of 6, 1/3. Either way B "
                "finds at most a pair: three alike can never follow such a spoil, so a "
                "player who spoils hands on dice that are no better than before.")
    return ("Two dice thrown, 36 equally likely results, against the three faces kept "
            f"({', '.join(map(str, kept))}): a double of a kept face makes three alike "
            "(3 results); a double of another face a pair (3); two different kept faces "
            "two pairs (6); one kept face and one other a pair (18); two different other "
            "faces five different faces (6). So three alike 3/36, a pair 21/36, two "
            "pairs 6/36, five different 6/36.")


def _solving_jactus(rng: Any) -> list[Exercise]:
    """The exercises of ``solving-jactus``; ``rng`` draws a student's own numbers."""
    faces = _pick(rng, 6, (4, 6, 8, 10, 12, 20))
    out_a = _pick(rng, 20, (10, 15, 20, 25, 30, 35)) / 100      # not 40%: the page's
    out_b = _pick(rng, 80, (60, 70, 75, 80, 90)) / 100
    q4 = SOLVER_POSITIONS[_pick(rng, 0, tuple(range(len(SOLVER_POSITIONS))))]
    q5 = NO_SPOIL_POSITIONS[_pick(rng, 0, tuple(range(len(NO_SPOIL_POSITIONS))))]
    kept, event = SPOILS[_pick(rng, 0, tuple(range(len(SPOILS))))]
    asked = {SPOIL_EVENTS[0]: "a pair (two dice alike, nothing better)",
             SPOIL_EVENTS[1]: "five different faces",
             SPOIL_EVENTS[2]: "two pairs",
             SPOIL_EVENTS[3]: "three alike"}[event]
    thrown = "the fifth die" if len(kept) == 4 else "the other two dice"
    die = "one die" if faces == 6 else f"a die with {faces} faces"
    top = "six" if faces == 6 else f"{faces}"
    a_wins = race_value(faces)
    return [
    Exercise(
        "q1", f"First {top} wins: A and B take turns throwing {die}, A first, and the first "
              f"to throw a {top} wins. What is A's chance of winning?",
        lambda: race_value(faces),
        explanation=f"Call A's chance a and B's chance (when B is about to throw) b. A wins "
                    f"at once with 1/{faces}, otherwise it is B's turn: a = 1/{faces} + "
                    f"{faces - 1}/{faces}·b; and b = {faces - 1}/{faces}·a, since B must miss "
                    f"before A throws again. Solved together: a = {a_wins}. Backward induction "
                    "on a cycle: the value of each position is written in terms of the next, "
                    "and the equations are solved together.",
        hint="Write A's chance before A's throw in terms of A's chance before B's throw, "
             "and solve the two equations together.",
        params={"faces": faces},
        mistakes=(
            Mistake(Fraction(1, 2), "Both have the same die, but A throws first: A gets "
                                    "the first chance in every pair of throws."),
            Mistake(Fraction(1, faces), f"1/{faces} is A's chance on the first throw only; "
                                        "if both miss, A throws again."),
            Mistake(1 - a_wins, f"{1 - a_wins} is B's chance, not A's."),
        )),
    Exercise(
        "q2", f"The trap in miniature: A may leave with payoff {out_a:g} or hand over to B; B "
              f"may leave with payoff {out_b:g} (for A) or hand back. Value iteration starts "
              "every position at 0 and sweeps the Bellman equations again and again. At which "
              "value for A does it settle?",
        lambda: _limit(out_a, out_b),
        explanation=f"From 0: A's best is max({out_a:g}, 0) = {out_a:g}, B's min({out_b:g}, "
                    f"{out_a:g}) = {out_a:g}, and nothing changes any more. From 1 it settles "
                    f"at {out_b:g} instead. Every value between {out_a:g} and {out_b:g} solves "
                    "the equations; the game's value is 1/2, the solution in which a cycle "
                    "both players keep for ever is a draw. Value iteration cannot tell them "
                    "apart, which is why the solver evaluates strategies exactly instead.",
        hint=f"Do two sweeps by hand: A takes the larger of {out_a:g} and B's value, B the "
             f"smaller of {out_b:g} and A's value.",
        tolerance=Within(Fraction(1, 1000)),
        params={"out_a": out_a, "out_b": out_b},
        mistakes=(
            Mistake(Fraction(1, 2), "1/2 is the game's value (play that never ends is a "
                                    "draw), but value iteration from 0 does not find it."),
            Mistake(Fraction(str(out_b)), f"{out_b:g} is where value iteration settles when "
                                          "it starts from 1."),
        )),
    Exercise(
        "q3", f"A spoils: A keeps {' '.join(map(str, kept))} on the table and throws "
              f"{thrown}. What is the chance that B then finds {asked}?",
        lambda: spoil_chance(kept, event),
        explanation=_spoil_explanation(kept, event),
        hint=("Which faces of the thrown die match one of the dice left on the table?"
              if len(kept) == 4 else
              "List the 36 results of the two dice by what they make with the three faces "
              "on the table: a double of a kept face, a double of another face, and so on."),
        params={"kept": kept, "event": event},
        mistakes=_spoil_mistakes(kept, event)),
    Exercise(
        "q4", f"Use the solver. {_situation(q4[1])} "
              f"{' '.join(map(str, q4[0]))} and B is to pick up. What is B's payoff under "
              "optimal play (a win 1, a draw 1/2)? Give three significant figures.",
        lambda: _b_value(*q4),
        explanation="The solver's value for B, read off after B's best pick-up: B keeps the "
                    "largest group that can bring a piece it needs and throws the rest.",
        working=lambda: _pickup_working(q4[0], q4[1]),
        hint="Set the position up (the dice, then what A and B hold) and ask the solution "
             "for B's value; the game's best-move hint lists the value of every pick-up, and "
             "B's payoff is that of the best one.",
        computer="the solver (sol, exercise_position) or the game's best-move hint",
        params={"dice": q4[0], "holdings": q4[1], "spoil": True},
        mistakes=(
            Mistake(Fraction(1, 6), "1/6 is the chance of five of a kind on one throw, not "
                                    "B's chance of winning the game."),
            Mistake(Fraction(1, 2), "1/2 would be an even game; this position is not."),
        )),
    Exercise(
        "q5", f"The rule change: with no spoiling (spoil=False). {_situation(q5[1])} "
              f"{' '.join(map(str, q5[0]))} and B is to pick up. What is B's payoff under "
              "optimal play? Give three significant figures (the second solution is "
              "sol_no_spoil).",
        lambda: _b_value(*q5, spoil=False),
        explanation="B may no longer leave two different faces: it keeps dice of one face "
                    "(or none) and tries. The solver's value for B after its best pick-up; "
                    "and now the game ends for certain.",
        working=lambda: _pickup_working(q5[0], q5[1], spoil=False),
        hint="As in exercise 4, but with the solution of the changed game (no spoiling): "
             "B's payoff is the value of B's best pick-up there.",
        computer="the solver of the changed game (sol_no_spoil, exercise_position)",
        params={"dice": q5[0], "holdings": q5[1], "spoil": False},
        mistakes=(
            Mistake(Fraction(1, 1296), "1/1296 is the chance of five of a kind when one die "
                                       "is kept, not B's payoff in the game."),
        )),
    ]


solving_jactus = ExerciseSet("solving-jactus", build=_solving_jactus)


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

"""The lesson notebooks: committed clean, run top to bottom, and their widgets work.

Each notebook is executed with nbclient from ``notebooks/`` (as Jupyter and Voila run
it). A few cells appended to the copy under test then use the widgets the way a
student would (type an answer, press a button) and check what they show.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

from helpers import notebook_client, page_texts  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS = ["jactus-odds.ipynb", "jactus-strategy.ipynb", "roman-dice.ipynb",
           "game-design-lab.ipynb", "janus-tolls.ipynb", "jinns-counting.ipynb",
           "what-can-i-know.ipynb", "solving-jactus.ipynb"]

pytestmark = pytest.mark.notebook

# Appended to the copy under test: the widgets, used as a student would.
STUDENT = {
    "jactus-odds.ipynb": [
        # the warm-up's guesses first; then section 3 measures them (seed 1, Run)
        """
assert not warm_up_gate.revealed and warm_up_gate.button.disabled
warm_up_gate.boxes[0].value = "10"
warm_up_gate.boxes[1].value = "keep the dice"
warm_up_gate.button.click()
assert warm_up_gate.revealed
""",
        # the pick-up panel is blank until asked; four 4s and a 2, pick up the 2
        """
assert "r2" not in pick_out.value
dice_box.value = "44442"
pick_button.click()
assert "<td>★ r2</td><td>4 4 4 4</td><td>1/6" in pick_out.value, pick_out.value
dice_box.value = "4444"
assert "Press" in pick_out.value          # the table of 4 4 4 4 2 is no longer shown
pick_button.click()
assert "give 5 dice values" in pick_out.value
""",
        # the chain panel: reroll-all, two throws, on request
        """
policy_dd.value = "reroll-all"
n_slider.value = 2
chain_button.click()
""",
        # the simulation button with seed 5 (reroll-all, within 2 throws)
        """
seed_box.value = 5
sim_button.click()
""",
        # a policy whose expectation is infinite
        """
quantity_dd.value = "expected"
policy_dd.value = "best-margin"
chain_button.click()
sim_button.click()
""",
        # an exercise answered with its common mistake, then right
        """
import html
box = exercise_boxes[0]
mistake = EXERCISES.q1.mistakes[0]        # for this student's dice, named and explained
box.answer_box.value = str(mistake.resolve())
box.check_button.click()
assert html.escape(mistake.why) in box.verdict.value, box.verdict.value
box.answer_box.value = str(EXERCISES.q1.answer)
box.check_button.click()
assert "Right" in box.verdict.value
""",
    ],
    "jactus-strategy.ipynb": [
        # the six seats are measured once both guesses are typed
        """
assert seats_gate.button.disabled and not seats_gate.output.outputs
seats_gate.boxes[0].value = "E"
seats_gate.boxes[1].value = "no, too close"
seats_gate.button.click()
assert seats_gate.revealed
""",
        # the margin panel waits to be asked (predict first); 1 1 1 2 3, then four 4s and a 2
        """
assert "Press" in pick_out.value and "<td>" not in pick_out.value
pick_button.click()
assert "<td>★ r11</td><td>1 2 3</td>" in pick_out.value, pick_out.value
dice_box.value = "44442"
assert "Press" in pick_out.value
pick_button.click()
assert "<td>★ r2</td><td>4 4 4 4</td><td>1/6" in pick_out.value, pick_out.value
""",
        # who scores the round: three players, then everybody spoils
        """
players_slider.value = 3
assert seats_out.value.count("<tr>") == 4
assert "still going" not in seats_out.value
seat_a_dd.value = "best-margin"
others_dd.value = "best-margin"
assert "still going after 1,000 throws" in seats_out.value, seats_out.value
others_dd.value = "best-next"
seat_a_dd.value = "best-reply"
assert "<td>A</td><td>best-reply-3</td>" in seats_out.value, seats_out.value
assert "still going" not in seats_out.value
""",
        """
box = exercise_boxes[2]
lap = next(m for m in EXERCISES.q3.mistakes if "another go" in m.why)   # one throw only
box.answer_box.value = str(lap.resolve())
box.check_button.click()
assert "another go" in box.verdict.value, box.verdict.value
box.answer_box.value = str(EXERCISES.q3.answer)
box.check_button.click()
assert "Right" in box.verdict.value
""",
    ],
    "roman-dice.ipynb": [
        # the tali panel starts on Winkelman's weights; all weights 0 is refused
        """
assert "24/625" in tali_out.value and "1/10000" in tali_out.value, tali_out.value
for s in weight_sliders.values():
    s.value = 0
assert "at least one face" in tali_out.value
for s in weight_sliders.values():
    s.value = 3
assert "3/32" in tali_out.value     # equal weights: the model's Venus (the class's q1)
study_button.click()
assert "24/625" in tali_out.value
""",
        # the simulation: another seed and size, the same figure for the same seed
        """
sim_seed.value = 3
sim_throws.value = 500
sim_button.click()
""",
        # the waiting chain, keeping dice, with Winkelman's weights
        """
keep_box.value = True
wait_slider.value = 5
""",
        # the class experiment: guesses first, then throws typed in (a 5 is refused)
        """
assert not experiment_gate.output.outputs
experiment_gate.boxes[0].value = "14"
experiment_gate.boxes[1].value = "narrow sides are small"
experiment_gate.button.click()
class_experiment.enter("1 3 5")
assert "cannot show 5" in class_experiment.message.value
class_experiment.enter("1 3 4 6 3 4 4 3")
class_experiment.enter("6 3")
assert class_experiment.pooled["pooled"] == {"1": 1, "3": 4, "4": 3, "6": 2}
assert "0.300" in class_experiment.view.table.value and class_experiment.view.plot.value
""",
        # an exercise answered wrong (its mistake explained), then right
        """
box = exercise_boxes[0]
box.answer_box.value = str(EXERCISES.q1.mistakes[0].resolve())     # one order only
box.check_button.click()
assert "orders" in box.verdict.value and "Not quite" in box.verdict.value, box.verdict.value
box.answer_box.value = str(EXERCISES.q1.answer)
box.check_button.click()
assert "Right" in box.verdict.value
""",
    ],
    "what-can-i-know.ipynb": [
        # the guesses first, then the deals measured and the two suns' panel
        """
assert deals_gate.button.disabled and two_suns_gate.button.disabled
deals_gate.boxes[0].value = "1/4"
assert deals_gate.button.disabled                  # the reason too
deals_gate.boxes[1].value = "one of the four sun cards"
deals_gate.button.click()
two_suns_gate.boxes[0].value = "less likely"
two_suns_gate.button.click()
""",
        # the engine's panel for another card of the dealt game
        """
card_dd.value = "C1"
""",
        # the other side of a sun, answered by counting cards, then right
        """
box = exercise_boxes[1]
box.answer_box.value = str(EXERCISES.double.mistakes[0].resolve())  # counting cards
box.check_button.click()
assert "counts cards, not sides" in box.verdict.value, box.verdict.value
box.answer_box.value = str(EXERCISES.double.answer)
box.check_button.click()
assert "Right" in box.verdict.value
""",
    ],
    "janus-tolls.ipynb": [
        # the toll panel: the tile R4| jumps over two fields of B's square
        """
tile_menu.value = "R4|"
reading_buttons.value = "entered"
""",
        """
reading_buttons.value = "landing"
tile_menu.value = "G3+"
""",
        # exercise 1 answered with a known mistake (the chance of a move), then right
        """
box = exercise_boxes[0]
box.answer_box.value = str(EXERCISES.q1.mistakes[0].resolve())
box.check_button.click()
assert "chance of having a move" in box.verdict.value, box.verdict.value
box.answer_box.value = str(EXERCISES.q1.answer)
box.check_button.click()
assert "Right" in box.verdict.value, box.verdict.value
""",
        # exercise 4 answered with each named mistake (under the rulebook reading, ...),
        # then right as a decimal
        """
import html
box = exercise_boxes[3]
assert EXERCISES.q4.mistakes          # the rulebook's reading, one coin a move, ...
for mistake in EXERCISES.q4.mistakes:
    box.answer_box.value = str(mistake.resolve())
    box.check_button.click()
    assert html.escape(mistake.why[:50]) in box.verdict.value, box.verdict.value
box.answer_box.value = f"{float(EXERCISES.q4.answer):.4f}"
box.check_button.click()
assert "Right" in box.verdict.value, box.verdict.value
""",
        # the guesses, then the counts; the boards shuffled on Run, then with seed 2
        """
assert moves_gate.button.disabled and boards_run.runs == 0
moves_gate.boxes[0].value = "2"
moves_gate.boxes[1].value = "5"
moves_gate.button.click()
boards_run.button.click()
""",
        """
boards_run.seed.value = 2
boards_run.button.click()
tolls_run.seed.value = 3
tolls_run.button.click()
assert tolls_run.runs == 2 and tolls_run.error == ""
""",
    ],
    "jinns-counting.ipynb": [
        # the random rings are laid once the guess is typed
        """
assert rings_gate.button.disabled
rings_gate.boxes[0].value = "3"
rings_gate.button.click()
""",
        # exercise 1: 4 × 4 × 4 × 4 forgets that there are only two jinns of a strength
        """
box = exercise_boxes[0]
box.answer_box.value = str(EXERCISES.q1.mistakes[0].resolve())   # every sequence of strengths
box.check_button.click()
assert "appear more often" in box.verdict.value, box.verdict.value
box.answer_box.value = str(EXERCISES.q1.answer)
box.check_button.click()
assert "Right" in box.verdict.value, box.verdict.value
""",
        # exercise 6: each named mistake (the literal count of JI-12, the other moves'
        # share) gets its own explanation, then the right share
        """
import html
box = exercise_boxes[5]
assert EXERCISES.q6.mistakes
for mistake in EXERCISES.q6.mistakes:
    box.answer_box.value = str(mistake.resolve())
    box.check_button.click()
    assert html.escape(mistake.why[:60]) in box.verdict.value, (mistake, box.verdict.value)
box.answer_box.value = str(EXERCISES.q6.answer)
box.check_button.click()
assert "Right" in box.verdict.value, box.verdict.value
""",
    ],
    "solving-jactus.ipynb": [
        # predict, then measure: who has the edge, does the game end
        """
edge_panel.choice_box.value = "A has the edge"
edge_panel.measure_button.click()
assert "B has the edge" in edge_panel.result.value and "was A has the edge" in \
    edge_panel.result.value, edge_panel.result.value
end_panel.choice_box.value = CHOICES[3]
end_panel.measure_button.click()
assert "The prediction was right" in end_panel.result.value, end_panel.result.value
assert "whatever optimal moves" in end_panel.result.value
""",
        # exercises: a common mistake, then the right answer; one found with the solver
        """
box = exercises.q1.widget()
box.answer_box.value = "1/2"
box.check_button.click()
assert "throws first" in box.verdict.value, box.verdict.value
box.answer_box.value = "6/11"
box.check_button.click()
assert "Right" in box.verdict.value
""",
        # the game: the solver plays B, the hint follows the position
        """
game.bot_delay = 0
game.play("r*")
game.resolve_chance()
assert game.state.current_player == 0 or game.state.is_over
assert "Best for A" in show_hint(game)
assert len(game.replay.moves) >= 4
""",
        # exercises 4 and 5 on the page: the set-up controls put the games into their
        # positions, through the rules (a position they cannot reach is refused)
        """
# exercise 4 on the page: the set-up control puts the game into its position
setup.boxes[0].value, setup.boxes[1].value, setup.boxes[2].value = "6 6 6 6 6", "-", "-"
setup.button.click()
assert setup.error.startswith("JA-8"), setup.error
setup.boxes[0].value = " ".join(map(str, exercises.q4.params["dice"]))
setup.button.click()
assert setup.error == "" and game.state.current_player == 1, setup.error
assert "Best for B" in show_hint(game)
mine = sol.value_for(game.state, 1)
assert exercises.q4.check(f"{mine:.3f}").correct
assert not exercises.q4.check("1/6").correct
# exercise 5 in the no-spoiling game, set up the same way
setup_no_spoil.boxes[0].value = " ".join(map(str, exercises.q5.params["dice"]))
setup_no_spoil.boxes[1].value = setup_no_spoil.boxes[2].value = "–"
setup_no_spoil.button.click()
assert setup_no_spoil.error == "", setup_no_spoil.error
assert exercises.q5.check(f"{sol_no_spoil.value_for(game_no_spoil.state, 1):.3f}").correct
""",
        # a small MCTS match
        """
mcts_games.value = 2
mcts_playouts.value = "mcts:30"
mcts_button.click()
assert "optimal vs mcts:30" in mcts_out.value, mcts_out.value
""",
    ],
}


def shown(widget_state: dict) -> str:
    """What the notebook's Output widgets show now (markdown, html, [image])."""
    texts = []
    for state in widget_state.values():
        if state.get("_model_name") == "OutputModel":
            for out in state.get("outputs", []):
                data = out.get("data", {})
                texts.append(data.get("text/markdown", "") + data.get("text/html", "")
                             + data.get("image/svg+xml", "")
                             + ("[image]" if "image/png" in data else ""))
    return "\n".join(texts)


def kernel_imports_this_copy() -> None:
    """Put this checkout first on the kernels' PYTHONPATH."""
    env_path = os.environ.get("PYTHONPATH", "")
    if str(ROOT) not in env_path.split(os.pathsep):
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env_path) if p)


def run(name: str, extra: list[str], student: str | None = "s1", which: str = "student"
        ) -> tuple[nbformat.NotebookNode, list[str]]:
    """Execute ``student``'s edition of the lesson, then the student's cells; return it
    and what the Output widgets show after the notebook (index 0) and after each student
    cell. The page, before the student's cells, must show none of that student's
    answers."""
    from janus_widgets.analysis.checking import exercise_sets
    from janus_widgets.analysis.lessons import answers_shown, edition

    nb = edition(nbformat.read(NOTEBOOKS / name, as_version=4), which, student=student)
    base = len(nb.cells)
    nb.cells.extend(nbformat.v4.new_code_cell(src.strip()) for src in extra)
    kernel_imports_this_copy()
    client = notebook_client(nb, path=NOTEBOOKS, timeout=300)
    snapshots = []
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)          # raises on any error in the cell
            if index == base - 1 and which == "student":
                page = nbformat.from_dict({**nb, "cells": nb.cells[:base]})
                found = answers_shown(page_texts(page, client.widget_state),
                                      exercise_sets(student)[Path(name).stem])
                assert found == [], f"{name} shows {student}'s answers: {found}"
            if index >= base - 1:
                snapshots.append(shown(client.widget_state))
    return nb, snapshots


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_is_committed_without_outputs(name):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and all(c.outputs == [] and c.execution_count is None for c in code)
    assert "widgets" not in nb.metadata
    assert nb.metadata["kernelspec"]["name"] == "python3"


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_reads_as_an_app_prose_in_markdown(name):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "Learning goals" in markdown and "Teacher notes" in markdown
    for cell in nb.cells:
        if cell.cell_type == "code":                 # no prose printed from code
            assert "print(" not in cell.source


# --- no answer on a student's page (LESSONS.md item 4) ---------------------------------------
# Lessons held to the strict check below (whole numbers, three figures, unreduced fractions,
# the text of drawings), for the class and for a student.
#: A fraction no one reads: numbers of eight digits or more (the panels show its
#: decimal instead, marked ≈: janus_widgets.core.numbers.readable).
UNREADABLE_FRACTION = re.compile(r"\d{8,}/\d|\d/\d{8,}")


def test_jactus_odds_lesson_runs_and_its_widgets_work():
    nb, shows = run("jactus-odds.ipynb", STUDENT["jactus-odds.ipynb"])
    # as the notebook opens: the chain and the simulation panels wait to be asked, and the
    # warm-up's measurement waits for the guesses
    assert "Seed 2" not in shows[0] and "Transition matrix" not in shows[0]
    assert "Seed 1:" not in shows[0] and "once both guesses" in shows[0]
    # the guesses typed: a seed box and Run, run once with seed 1
    assert "Seed 1: five of a kind within 10 throws" in shows[1]
    assert "inside the interval" in shows[1]
    # reroll-all with n = 2: the geometric chain, 1 - (1295/1296)^2
    assert "2591/1679616" in shows[3] and "**1296**" in shows[3]
    # the simulation button with seed 5 (reroll-all, within 2 throws)
    assert "Seed 5: simulated" in shows[4] and "2591/1679616" in shows[4]
    assert "same seed gives the same result" in shows[4]
    # best-margin for everyone: an infinite expectation, explained
    assert "may never come" in shows[5] and "∞" in shows[5]
    assert not UNREADABLE_FRACTION.search("\n".join(shows))
    assert not [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if o.output_type == "error"]


def test_jactus_strategy_lesson_runs_and_measures_the_six_seats():
    nb, shows = run("jactus-strategy.ipynb", STUDENT["jactus-strategy.ipynb"])
    # nothing of the six seats before the guesses; then the measurement (seed 7)
    assert "scored the most rounds" not in shows[0]
    outputs = shows[1]
    # the late seats beat seat B (exact: E 0.1737, D 0.1726, B 0.1587), by its own interval
    assert "scored the most rounds and seat B the fewest" in outputs, outputs
    assert "a real difference, not luck" in outputs
    assert "[image]" in outputs                    # the plot, kept in the page's widget state
    assert not UNREADABLE_FRACTION.search("\n".join(shows))
    assert not [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if o.output_type == "error"]


def test_roman_dice_lesson_runs_and_its_widgets_work():
    nb, shows = run("roman-dice.ipynb", STUDENT["roman-dice.ipynb"])
    # as it opens: the wait for a Venus with Winkelman's weights, and a simulation (seed 1)
    assert "625/24 ≈ 26.04" in shows[0] and "(seed 1)" in shows[0]
    assert shows[0].count("[image]") == 1
    # no made-up class data any more: the class types its throws (cell 4 above)
    assert "MADE-UP" not in outputs_text(nb) and "Made-up" not in outputs_text(nb)
    assert "500 throws (seed 3)" in shows[2] and "(seed 1)" not in shows[2]
    # keeping tali with unequal faces: the chain cannot merge its states
    assert "cannot be merged" in shows[3] and "chance within **5** throws" in shows[3]
    # within 10 throws, 1 - (1 - 24/625)^10 is a fraction of 28-digit numbers: its decimal
    assert "chance within **10** throws: **≈ 0.324**" in shows[0]
    assert not UNREADABLE_FRACTION.search("\n".join(shows))
    assert not [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if o.output_type == "error"]


def test_what_can_i_know_lesson_runs_and_its_widgets_work():
    nb, shows = run("what-can-i-know.ipynb", STUDENT["what-can-i-know.ipynb"])
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    text = "".join(o.get("data", {}).get("text/markdown", "") for o in outputs)
    # the small deck counted by the package, and a seeded simulation near 2/5 (sides)
    assert "**10 cards**, 4 of them doubles" in text and "sun on 5" in text
    # nothing measured before the guesses: neither the deals nor the two counts
    assert "Seed 1: you saw a sun in" not in shows[0] and "The two red lines" not in shows[0]
    assert "Seed 1: you saw a sun in" in shows[1]            # the seed box's first run
    assert "[image]" in shows[1] and "The two red lines" in shows[1]    # its plot, the counts
    # a plain plot: the engine's odds as suns are seen
    assert sum("image/png" in o.get("data", {}) for o in outputs) == 1
    # the engine's panel as the second measure: one sun seen, then (after a guess) two;
    # (the panel writes the chances over one denominator: 3/9 for a third)
    assert not [o for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert "Measure 2: ask the engine" not in shows[0] and "Measure 2" in shows[1]
    assert "double in 6 of the 6 + 3 × 4 = 18 ways" not in shows[0]
    assert "2/5" in shows[1] and "3/9" in shows[1]
    assert "double in 6 of the 6 + 3 × 4 = 18 ways" in shows[1]
    # the dealt game's panel follows the card chosen
    assert "B1:" in shows[1] and "C1:" in shows[2] and "C1:" not in shows[1]
    assert not [o for o in outputs if o.output_type == "error"]


def test_the_game_notebook_keeps_the_tour_and_points_to_the_lesson():
    nb = nbformat.read(NOTEBOOKS / "janus-cards.ipynb", as_version=4)
    text = "\n".join(c.source for c in nb.cells)
    assert "# Lesson" not in text and "EXERCISES" not in text
    assert "what-can-i-know.ipynb" in nb.cells[-1].source


def outputs_text(nb) -> str:
    """Every text output of the executed notebook (markdown, html, plain, streams)."""
    texts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            texts.append(out.get("text", "") + data.get("text/markdown", "")
                         + data.get("text/html", "") + data.get("text/plain", ""))
    return "\n".join(texts)


def images(nb) -> int:
    """Plots shown as ordinary outputs (kept by an HTML export)."""
    return sum("image/png" in out.get("data", {}) for cell in nb.cells
               for out in cell.get("outputs", []))


def test_janus_tolls_lesson_runs_and_its_widgets_work():
    nb, shows = run("janus-tolls.ipynb", STUDENT["janus-tolls.ipynb"])
    text = outputs_text(nb)
    assert not [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if o.output_type == "error"]
    # the worked example waits for the guesses; the boards wait for Run
    assert "59/25" not in shows[0] and "boards shuffled" not in shows[0]
    # then: the edge and the centre, counted tile by tile
    assert "59/25 ≈ **2.36**" in shows[5] and "86/25 ≈ **3.44**" in shows[5]
    # the simulation says its seed and gives intervals; the difference has its own
    assert "2,000 boards shuffled from seed 1" in shows[5]
    assert re.search(r"the centre, f6 \| \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] \| 3\.440 \| yes",
                     shows[5])
    assert "Centre minus edge, board by board:" in shows[5]
    # a new seed replaces the run's figures
    assert "seed 2" in shows[6] and "boards shuffled from seed 1" not in shows[6]
    assert "distance 1 | 2 | 3 | 4 | 5" in text                 # the tile table, by hand
    assert shows[0].count("[image]") == 1                    # the tolls' plot, seed 1
    # the toll panel opens on R4| under the rulebook: the jump over the square pays nothing
    assert "| h7 | 0 |" in shows[0] and "chance of paying at least one coin **0.1083**" in shows[0]
    # under "tolls on every field" the same move pays two coins
    assert "| h7 | 2 |" in shows[1] and "expected coins **0.4750**" in shows[1]
    assert "| h6 | 1 |" in shows[2] and "| e3 | 0 |" in shows[2]


def test_jinns_counting_lesson_runs_and_its_widgets_work():
    nb, shows = run("jinns-counting.ipynb", STUDENT["jinns-counting.ipynb"])
    text = outputs_text(nb)
    assert not [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if o.output_type == "error"]
    # the worked position: the yellow 4 is refused both ways by the colour rule
    assert "`17.2-`" in text and "`10.1+`" not in text and "`10.1-`" not in text
    assert "4 × 4 × 4 − 4 = 60 | 60 |" in text
    assert "Simulated average over 1,500 rings" not in shows[0]         # the guess first
    assert "Simulated average over 1,500 rings" in shows[1] and "32 × 6/31 ≈ **6.194**" in shows[1]
    # the alliance (a seed box's run): every seat with an interval, C − A and the change
    for seat in "ABCD":
        assert re.search(rf"\| {seat} \| \d+\.\d% \[\d+\.\d%, \d+\.\d%\] \|", shows[0])
    assert "C's share minus A's, game by game" in shows[0]
    assert "random placement minus runs, on the same seeds" in shows[0]
    assert shows[1].count("[image]") == 2                  # the rings' and the alliance's


def test_solving_jactus_lesson_runs_and_its_widgets_work():
    from janus_widgets.analysis.solving_lesson import solving_jactus
    source = nbformat.read(NOTEBOOKS / "solving-jactus.ipynb", as_version=4)
    base = len([c for c in source.cells
                if not {"teacher", "answer"} & set(c.metadata.get("tags", []))])
    nb, shows = run("solving-jactus.ipynb", STUDENT["solving-jactus.ipynb"], student=None)
    assert not [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if o.output_type == "error"]
    own = nb.cells[:base]
    images = [o for c in own if c.cell_type == "code" for o in c.outputs
              if "image/png" in o.get("data", {})]
    assert len(images) >= 3                  # value iteration and the try-or-spoil pictures
    meta = nb.metadata["janus_widgets"]["lesson"]
    assert meta["game"] == "jactus" and meta["minutes"] <= 45 and meta["level"]
    assert meta["parts"] == 2 and "17-18" in meta["level"]        # an extension, two parts
    tags = [set(c.metadata.get("tags", [])) for c in source.cells]
    assert any("teacher" in t for t in tags) and any("answer" in t for t in tags)
    # exercise 4 comes before exercise 5, and part 2 after exercise 3
    order = [c.source for c in source.cells]
    where = {key: next(i for i, s in enumerate(order) if f'slots["{key}"]' in s)
             for key in ("q1", "q2", "q3", "q4", "q5")}
    part2 = next(i for i, s in enumerate(order) if s.startswith("## Part 2"))
    assert where["q1"] < where["q2"] < where["q3"] < part2 < where["q4"] < where["q5"]
    # No exercise's answer is on the page as it opens: only a check shows it.
    page = "".join(c.source for c in own if c.cell_type == "markdown") + shows[0]
    page += "".join(str(o.get("data", {}).get("text/markdown", ""))
                    + str(o.get("data", {}).get("text/html", "")) + str(o.get("text", ""))
                    for c in own if c.cell_type == "code" for o in c.outputs)
    for exercise in solving_jactus:
        answer = exercise.answer
        forms = [f"{float(answer):.6f}"]
        if answer.denominator < 100:
            forms.append(f"{answer.numerator}/{answer.denominator}")
        for form in forms:
            assert form not in page, (exercise.key, form)


def test_solving_jactus_student_edition_shows_that_students_numbers():
    """The lesson with a student id (lessons.edition sets the cell tagged parameters):
    the exercise boxes ask that student's questions, not the class's, and check that
    student's answers. Only the setup and the exercise cells run (the solutions are in
    the test run's cache), so this costs a few seconds."""
    from janus_widgets.analysis import lessons
    from janus_widgets.analysis.solving_lesson import solving_jactus
    nb = lessons.edition(nbformat.read(NOTEBOOKS / "solving-jactus.ipynb", as_version=4),
                         "student", student="ada")
    params = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(params) == 1 and params[0].source.startswith("STUDENT_ID = 'ada'")
    slots = next(c for c in nb.cells if "ExerciseSlots(" in c.source)
    fill = next(c for c in nb.cells if "exercise_sets(student=STUDENT_ID)" in c.source)
    boxes = [c for c in nb.cells if c.cell_type == "code" and 'slots["q' in c.source]
    assert len(boxes) == len(solving_jactus)          # every exercise is on the page
    # the page's own boxes, filled at once (the student is known from the start) and
    # kept as they are by the last cell's fill
    nb.cells = [params[0], slots, *boxes, nbformat.v4.new_code_cell(
        'shown = slots["q3"].children[0]\n'
        'shown.answer_box.value = "typed before the last cell"'), fill,
        nbformat.v4.new_code_cell(
        'assert exercises.student == "ada" == slots.exercises.student\n'
        'box = slots["q3"].children[0]\n'
        'assert box is shown and box.answer_box.value == "typed before the last cell"\n'
        'box.answer_box.value = str(exercises.q3.answer)\n'
        'box.check_button.click()\n'
        'assert "Right" in box.verdict.value, box.verdict.value')]
    kernel_imports_this_copy()
    client = notebook_client(nb, path=NOTEBOOKS, timeout=120)
    client.execute()
    texts = "".join(str(s.get("value", "")) for s in client.widget_state.values())
    ada, everyone = solving_jactus.for_student("ada"), solving_jactus
    for mine, theirs in zip(ada, everyone):
        assert html.escape(mine.question) in texts, mine.key
        assert html.escape(theirs.question) not in texts, theirs.key

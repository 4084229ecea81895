"""The lesson notebooks: committed clean, run top to bottom, and their widgets work.

Each notebook is executed with nbclient from ``notebooks/`` (as Jupyter and Voila run
it). A few cells appended to the copy under test then use the widgets the way a
student would (type an answer, press a button) and check what they show.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

from helpers import notebook_client  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS = ["jactus-odds.ipynb", "roman-dice.ipynb", "game-design-lab.ipynb",
           "solving-jactus.ipynb"]

pytestmark = pytest.mark.notebook

# Appended to the copy under test: the widgets, used as a student would.
STUDENT = {
    "jactus-odds.ipynb": [
        # the pick-up panel: four 4s and a 2, pick up the 2
        """
dice_box.value = "44442"
assert "<td>r2</td><td>4 4 4 4</td><td>1/6" in pick_out.value, pick_out.value
dice_box.value = "4444"
assert "give 5 dice values" in pick_out.value
""",
        # the chain panel follows the dropdowns and the slider
        """
policy_dd.value = "reroll-all"
n_slider.value = 2
""",
        # the simulation button, then a policy whose expectation is infinite
        """
seed_box.value = 5
sim_button.click()
""",
        """
quantity_dd.value = "expected"
policy_dd.value = "best-margin"
sim_button.click()
""",
        # who scores the round
        """
players_slider.value = 3
assert seats_out.value.count("<tr>") == 4
assert "never ends" not in seats_out.value
seat_a_dd.value = "best-margin"
others_dd.value = "best-margin"
assert "never ends with probability" in seats_out.value, seats_out.value
others_dd.value = "best-next"
seat_a_dd.value = "best-reply"
assert "<td>A</td><td>best-reply-3</td>" in seats_out.value, seats_out.value
assert "never ends" not in seats_out.value
""",
        # an exercise answered wrong, then right
        """
box = exercise_boxes[0]
box.answer_box.value = "1/7776"
box.check_button.click()
assert "six faces" in box.verdict.value, box.verdict.value
box.answer_box.value = "1/1296"
box.check_button.click()
assert "Right" in box.verdict.value
""",
    ],
    "roman-dice.ipynb": [
        """
study_button.click()
assert "24/625" in tali_out.value and "1/10000" in tali_out.value, tali_out.value
for s in weight_sliders.values():
    s.value = 0
assert "at least one face" in tali_out.value
fair_button.click()
assert "3/32" in tali_out.value
""",
        """
roman_seed.value = 3
roman_samples.value = 10_000
roman_button.click()
assert "10,000 throws of four tali (seed 3)" in roman_out.value
""",
        """
keep_box.value = True
wait_slider.value = 5
""",
        """
box = roman_exercise_boxes[0]
box.answer_box.value = "1/256"
box.check_button.click()
assert "24" in box.verdict.value and "orders" in box.verdict.value
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
from janus_widgets.analysis.solving_lesson import SOLVER_POSITIONS
mine = sol.value_for(exercise_position(*SOLVER_POSITIONS[0]), 1)
assert exercises.q4.check(f"{mine:.3f}").correct
assert not exercises.q4.check("1/6").correct
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
        # a small MCTS match, and the teacher's solutions only on request
        """
mcts_games.value = 2
mcts_playouts.value = "mcts:30"
mcts_button.click()
assert "optimal vs mcts:30" in mcts_out.value, mcts_out.value
assert all(child.value == "" for child in solutions.children)
solutions.selected_index = 0
assert "6/11" in solutions.children[0].value
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
                             + ("[image]" if "image/png" in data else ""))
    return "\n".join(texts)


def kernel_imports_this_copy() -> None:
    """Put this checkout first on the kernels' PYTHONPATH."""
    env_path = os.environ.get("PYTHONPATH", "")
    if str(ROOT) not in env_path.split(os.pathsep):
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env_path) if p)


def run(name: str, extra: list[str]) -> tuple[nbformat.NotebookNode, list[str]]:
    """Execute the notebook, then the student's cells; return it and what the Output
    widgets show after the notebook (index 0) and after each student cell."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    base = len(nb.cells)
    nb.cells.extend(nbformat.v4.new_code_cell(src.strip()) for src in extra)
    kernel_imports_this_copy()
    client = notebook_client(nb, path=NOTEBOOKS, timeout=120)
    snapshots = []
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)          # raises on any error in the cell
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


def test_jactus_odds_lesson_runs_and_its_widgets_work():
    nb, shows = run("jactus-odds.ipynb", STUDENT["jactus-odds.ipynb"])
    # as the notebook opens: the published figures, and a simulation with its plot
    assert "347897/7558272 ≈ 0.04603" in shows[0] and "191283/17248 ≈ 11.09" in shows[0]
    assert "Seed 1: simulated" in shows[0] and shows[0].count("[image]") == 2
    # reroll-all with n = 2: the geometric chain, 1 - (1295/1296)^2
    assert "2591/1679616" in shows[2] and "**1296**" in shows[2]
    # the simulation button with seed 5 (reroll-all, within 2 throws)
    assert "Seed 5: simulated" in shows[3] and "2591/1679616" in shows[3]
    assert "Seed 5" not in shows[2]
    # best-margin for everyone: an infinite expectation, explained
    assert "may never come" in shows[4] and "∞" in shows[4]
    assert not [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if o.output_type == "error"]


def test_roman_dice_lesson_runs_and_its_widgets_work():
    nb, shows = run("roman-dice.ipynb", STUDENT["roman-dice.ipynb"])
    assert "32/3 ≈ 10.67" in shows[0]                        # Venus, all dice thrown
    # keeping tali for the Venus: the merged chain and its average wait
    assert "3 different faces kept" in shows[3] and "34/7 ≈ 4.857" in shows[3]
    assert "chance within **5** throws" in shows[3]
    assert not [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if o.output_type == "error"]


def test_solving_jactus_lesson_runs_and_its_widgets_work():
    from janus_widgets.analysis.solving_lesson import solving_jactus
    nb = nbformat.read(NOTEBOOKS / "solving-jactus.ipynb", as_version=4)
    base = len(nb.cells)
    nb, shows = run("solving-jactus.ipynb", STUDENT["solving-jactus.ipynb"])
    assert not [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if o.output_type == "error"]
    own = nb.cells[:base]
    images = [o for c in own if c.cell_type == "code" for o in c.outputs
              if "image/png" in o.get("data", {})]
    assert len(images) >= 3                  # value iteration and the try-or-spoil pictures
    meta = nb.metadata["janus_widgets"]["lesson"]
    assert meta["game"] == "jactus" and meta["minutes"] <= 45 and meta["level"]
    tags = [set(c.metadata.get("tags", [])) for c in own]
    assert any("teacher" in t for t in tags) and any("answer" in t for t in tags)
    # No exercise's answer is on the page as it opens: only a check (or the teacher's
    # solutions, on request) shows it.
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
    setup = next(c for c in nb.cells if "exercise_sets(student=STUDENT_ID)" in c.source)
    boxes = [c for c in nb.cells if c.cell_type == "code" and "exercises.q" in c.source]
    assert len(boxes) == len(solving_jactus)          # every exercise is on the page
    nb.cells = [params[0], setup, *boxes, nbformat.v4.new_code_cell(
        'assert exercises.student == "ada"\n'
        'box = exercises.q3.widget()\n'
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

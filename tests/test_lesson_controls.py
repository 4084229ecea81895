"""Every action a lesson asks for is a control on its page (issue 35, item 1): a seed box
and a Run button where a lesson used to say "change SEED and run again", a prediction box
that must be filled before the result shows, and lesson text that asks only for what the
page can do (Voila has no cells to edit or run)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

from janus_widgets.analysis import lessons as lesson_tools  # noqa: E402
from janus_widgets.analysis.controls import SEED_MAX, Predict, SeedRun  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")
                 if lesson_tools.lesson_meta(nbformat.read(p, as_version=4)) is not None)
SEEDED = ["janus-tolls.ipynb", "what-can-i-know.ipynb", "jinns-counting.ipynb",
          "jactus-strategy.ipynb", "jactus-odds.ipynb"]
PREDICTED = ["janus-tolls.ipynb", "jinns-counting.ipynb", "jactus-strategy.ipynb",
             "jactus-odds.ipynb", "what-can-i-know.ipynb"]
# what a page without cells cannot do
CANNOT = re.compile(r"run (the|this|it|that)\b[^.]*\b(cell|again)|the (next|following) cell"
                    r"|the cell (below|above)|\bchange `\w+=?`|\bre-?run the cell"
                    r"|before you run (the|it)\b", re.IGNORECASE)


def student_cells(name: str):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    return [c for c in nb.cells if not set(c.metadata.get("tags", [])) & {"teacher", "answer"}]


@pytest.mark.parametrize("name", LESSONS)
def test_the_lesson_text_asks_only_for_what_the_page_can_do(name):
    asks = [m.group(0) for c in student_cells(name) if c.cell_type == "markdown"
            for m in CANNOT.finditer(c.source)]
    assert asks == [], f"{name} asks for what a page without cells cannot do: {asks}"
    # no seed a student would have to edit in code: seeds are boxes on the page
    constants = [c.source.splitlines()[0] for c in student_cells(name) if c.cell_type == "code"
                 and re.search(r"^SEED\s*=", c.source, re.MULTILINE)]
    assert constants == [], f"{name} keeps its seed in code: {constants}"


@pytest.mark.parametrize("name", SEEDED)
def test_a_lesson_that_runs_seeded_simulations_gives_a_seed_box(name):
    code = "\n".join(c.source for c in student_cells(name) if c.cell_type == "code")
    assert "SeedRun(" in code, name
    text = "\n".join(c.source for c in student_cells(name) if c.cell_type == "markdown")
    assert "**Run**" in text, f"{name} does not tell the student to press Run"


@pytest.mark.parametrize("name", PREDICTED)
def test_a_prediction_is_typed_before_the_result_shows(name):
    code = "\n".join(c.source for c in student_cells(name) if c.cell_type == "code")
    assert "Predict(" in code, name


def test_seed_run_runs_with_the_seed_in_the_box_and_replaces_the_figures():
    seen: list[int] = []
    run = SeedRun(lambda seed: (seen.append(seed), print(f"seed {seed}")), seed=5)
    assert seen == [5] and run.runs == 1
    run.seed.value = 11
    run.button.click()
    assert seen == [5, 11] and run.runs == 2
    # each run replaces the last one's output
    assert len(run.output.outputs) <= 1
    later = SeedRun(seen.append, seed=2, run_now=False)
    assert seen == [5, 11] and later.runs == 0
    later.button.click()
    assert seen == [5, 11, 2]
    # the box holds only seeds a generator takes
    run.seed.value = -3
    assert run.seed.value == 0
    run.seed.value = SEED_MAX + 5
    assert run.seed.value == SEED_MAX


def test_seed_run_refuses_what_is_not_a_seed_or_a_function():
    with pytest.raises(ValueError, match="whole number from 0"):
        SeedRun(print, seed=-1)
    with pytest.raises(ValueError, match="whole number"):
        SeedRun(print, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="function of the seed"):
        SeedRun(3)  # type: ignore[arg-type]


def test_seed_run_shows_an_error_and_stays_usable():
    calls = []

    def fragile(seed: int) -> None:
        calls.append(seed)
        if seed == 0:
            raise ZeroDivisionError("no")
    run = SeedRun(fragile, seed=0)
    assert not run.button.disabled and run.runs == 0
    assert run.error == "The run with seed 0 failed: ZeroDivisionError: no"
    run.seed.value = 1
    run.button.click()
    assert calls == [0, 1] and run.runs == 1


def test_seed_run_says_an_error_under_ipython_too():
    """Under an IPython shell (a kernel's), the Output widget swallows an exception that
    leaves it: the run's own error is still said and not counted as a run."""
    from IPython.core.interactiveshell import InteractiveShell
    had = InteractiveShell.initialized()
    InteractiveShell.instance()
    try:
        run = SeedRun(lambda seed: 1 / 0, seed=0)
        assert run.runs == 0 and "ZeroDivisionError" in run.error
        assert not run.button.disabled
    finally:
        if not had:
            InteractiveShell.clear_instance()


def test_predict_shows_nothing_until_every_guess_is_in():
    shown: list[str] = []
    gate = Predict(["edge", "centre"], lambda: shown.append("result"))
    assert gate.button.disabled and "edge, centre" in gate.status.value
    gate.show()                                   # refused: nothing typed
    assert shown == [] and not gate.revealed
    gate.boxes[0].value = "2"
    assert gate.button.disabled and "centre" in gate.status.value
    gate.boxes[1].value = "   "                   # blanks are no guess
    gate.show()
    assert shown == []
    gate.boxes[1].value = "4.5"
    assert not gate.button.disabled
    gate.button.click()
    assert shown == ["result"] and gate.revealed
    assert gate.guesses() == {"edge": "2", "centre": "4.5"}
    # the guesses are kept: they cannot be changed after the result
    assert all(box.disabled for box in gate.boxes) and gate.button.disabled
    gate.show()
    assert shown == ["result"]


def test_predict_needs_named_guesses():
    with pytest.raises(ValueError, match="at least one named guess"):
        Predict([], print)
    with pytest.raises(ValueError, match="named guess"):
        Predict(["", "b"], print)
    with pytest.raises(TypeError, match="shows the result"):
        Predict(["a"], "print")  # type: ignore[arg-type]


def test_the_students_readme_names_each_lessons_game_and_length(tmp_path):
    """Issue 35, item 11: roman-dice uses none of the four games; solving-jactus is 2 × 45."""
    lesson_tools.build_editions("student", tmp_path)
    rows = {line.split("](")[1].split(")")[0]: [c.strip() for c in line.split("|")[2:4]]
            for line in (tmp_path / "README.md").read_text().splitlines()
            if line.startswith("| [")}
    assert rows["roman-dice.ipynb"] == ["none (Roman tali and tesserae)", "45"]
    assert rows["solving-jactus.ipynb"] == ["jactus", "2 × 45"]
    assert rows["game-design-lab.ipynb"] == ["any of the four", "45"]
    assert rows["janus-tolls.ipynb"] == ["janus", "45"]
    assert not any("all four" == game for game, _ in rows.values())


@pytest.mark.parametrize("hints", [True, False])
def test_a_printed_sheet_defines_every_measure_its_questions_use(hints):
    """Issue 35, item 7: game-design-lab's advantage_p1 and balance were defined on the
    page only; the sheet (and its edition without hints) defines them too."""
    from janus_widgets.analysis.checking import exercise_sets
    sheet = lesson_tools.worksheet_html("game-design-lab", hints=hints)
    page = "\n".join(c.source for c in student_cells("game-design-lab.ipynb"))
    for term in ("advantage_p1", "balance"):
        assert any(term in ex.question for ex in exercise_sets()["game-design-lab"])
        [row] = [line for line in page.splitlines() if line.startswith(f"| `{term}` |")]
        definition = row.split("|")[2].strip()
        assert f"<code>{term}</code>: {definition.replace(chr(39), '&#x27;')}" in sheet


def test_jinns_counting_states_the_rule_its_question_6_needs():
    """Issue 35, item 6: q6 counts a landing reached both ways once (JI-12); the page and
    the printed sheet (with or without hints) say so beside the question."""
    page = "\n".join(c.source for c in student_cells("jinns-counting.ipynb")
                     if c.cell_type == "markdown")
    exercises_part = page.split("## 5. Exercises", 1)[1]
    assert "JI-12" in exercises_part and "one move" in exercises_part
    for hints in (True, False):
        sheet = lesson_tools.worksheet_html("jinns-counting", hints=hints)
        assert "<code>JI-12</code>: the same landing both ways" in sheet


def test_solving_jactus_makes_what_is_the_same_for_all_before_it_waits_for_its_student():
    """Issue 35 item 3: of 30 preheated pages opened at once, each runs (and Voila draws)
    only what follows the point where it waits for its student. solving-jactus's solver
    studies, pictures, games and controls are the same for every student and come before
    that point; its exercises' boxes are placed early (ExerciseSlots) and filled in the
    last cell, which is all that is left after it (30 pages took 117 s each with the
    studies after that point, 19 s with only the exercises' sections after it)."""
    from janus_widgets.analysis.preheat import PreheatPreprocessor
    nb = nbformat.read(NOTEBOOKS / "solving-jactus.ipynb", as_version=4)
    nb, _ = lesson_tools.LessonPagePreprocessor().preprocess(nb, {})
    page, _ = PreheatPreprocessor(enabled=True).preprocess(
        nb, {"metadata": {"name": "solving-jactus"}})
    code = [c for c in page.cells if c.cell_type == "code"]
    point = next(i for i, c in enumerate(code) if "parameters" in c.metadata.get("tags", []))
    before = "\n".join(c.source for c in code[:point])
    after = [c.source for c in code[point + 1:]]
    for made in ("solve.explore(", "policy_table(", 'scores_table("greedy"',
                 'jw.widget("jactus"', "position_setup(", 'slots["q1"]', 'slots["q5"]'):
        assert made in before, made
    assert len(after) == 1 and "slots.fill(" in after[0], after



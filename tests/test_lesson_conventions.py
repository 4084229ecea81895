"""Every lesson notebook follows the lesson conventions (docs/lessons.md), and its
student edition, run top to bottom, shows no exercise's answer anywhere.

A lesson is a notebook whose metadata holds ``janus_widgets.lesson``; the tests find
them all, so a new lesson is held to the same rules without being listed here.
"""

from __future__ import annotations

import html as html_lib
import os
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")

from helpers import notebook_client, page_texts  # noqa: E402

from janus_widgets.analysis import lessons as lesson_tools  # noqa: E402
from janus_widgets.analysis.checking import exercise_sets  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LESSONS = sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")
                 if lesson_tools.lesson_meta(nbformat.read(p, as_version=4)) is not None)
GAMES = {"janus", "janus-cards", "jactus", "jinns"}


def read(name: str):
    return nbformat.read(NOTEBOOKS / name, as_version=4)


def tags(cell) -> set[str]:
    return set(cell.metadata.get("tags", []))


def test_at_least_seven_lessons_and_every_game_has_one():
    assert len(LESSONS) >= 7, LESSONS
    games = {lesson_tools.lesson_meta(read(name))["game"] for name in LESSONS}
    assert GAMES <= games, GAMES - games
    # the exercise sets and the lessons are the same list
    with_exercises = {Path(name).stem for name in LESSONS}
    assert set(exercise_sets()) == with_exercises, set(exercise_sets()) ^ with_exercises


def timing_minutes(text: str) -> int:
    """The minutes of a timing plan: a table's first column (minutes, or clock ranges
    "0–5", "5–12"), or a list's "N min"."""
    plan = text.split("Timing plan", 1)[1] if "Timing plan" in text else text
    ranges = re.findall(r"^\|\s*(\d+)\s*[–-]\s*(\d+)\s*\|", plan, re.MULTILINE)
    if ranges:
        return max(int(b) for _, b in ranges) - min(int(a) for a, _ in ranges)
    table = re.findall(r"^\|\s*(\d+)\s*\|", plan, re.MULTILINE)
    if table:
        return sum(map(int, table))
    return sum(int(m) for m in re.findall(r"^\s*[-*\d.]+\s.*?(\d+)\s*min", plan,
                                          re.MULTILINE))


@pytest.mark.parametrize("name", LESSONS)
def test_lesson_follows_the_conventions(name):
    nb = read(name)
    nbformat.validate(nb)
    meta = lesson_tools.lesson_meta(nb)
    assert meta["game"] in GAMES | {None}
    assert 0 < meta["minutes"] <= 50 and meta["level"].strip()
    first = next(c for c in nb.cells if c.cell_type == "markdown")
    assert first.source.startswith("# ")
    assert "Learning goals" in first.source and "Timing plan" in first.source
    parts = int(meta.get("parts", 1))
    if parts == 1:
        assert timing_minutes(first.source) == meta["minutes"], name
    else:                    # a lesson in parts: one plan per part, each of the minutes
        plans = re.split(r"\*\*Part \d", first.source.split("Timing plan", 1)[1])[1:]
        assert len(plans) == parts, name
        assert all(timing_minutes(plan) == meta["minutes"] for plan in plans), name
    parameters = [c for c in nb.cells if "parameters" in tags(c)]
    assert len(parameters) == 1 and parameters[0].cell_type == "code"
    assert parameters[0].source.splitlines()[0].startswith("STUDENT_ID = None")
    stem = Path(name).stem
    assert any(f'exercise_sets(student=STUDENT_ID)["{stem}"]' in c.source
               for c in nb.cells if c.cell_type == "code")
    student = [c for c in nb.cells if not tags(c) & {"teacher", "answer"}]
    headings = "\n".join(c.source for c in student if c.cell_type == "markdown")
    # predict, then measure: a heading or a paragraph that opens with it
    assert re.search(r"^(#+ .*|\*\*)Predict", headings, re.MULTILINE | re.IGNORECASE), name
    assert re.search(r"^## Exit question", headings, re.MULTILINE), name
    teacher = [c for c in nb.cells if "teacher" in tags(c)]
    assert any("## Teacher notes" in c.source for c in teacher)
    assert any("answer" in tags(c) for c in nb.cells)
    for cell in nb.cells:                        # committed clean
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


@pytest.mark.notebook
@pytest.mark.parametrize("name", LESSONS)
def test_the_class_student_edition_runs_shows_no_answer_and_exports_its_plots(name):
    nb = lesson_tools.edition(read(name), "student")
    assert not [c for c in nb.cells if tags(c) & {"teacher", "answer"}]
    assert "Teacher notes" not in "\n".join(c.source for c in nb.cells)
    env_path = os.environ.get("PYTHONPATH", "")
    if str(ROOT) not in env_path.split(os.pathsep):        # the kernel imports this copy
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env_path) if p)
    client = notebook_client(nb, path=NOTEBOOKS, timeout=300)
    client.execute()
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors, errors[0].get("evalue") if errors else ""
    page = page_texts(nb, client.widget_state or {})
    exercises = exercise_sets()[Path(name).stem]
    shown = lesson_tools.answers_shown(page, exercises)
    assert shown == [], f"{name} shows answers: {shown}"
    assert all(ex.question in page for ex in exercises)      # the questions are there
    # the page is the same for every student but for the questions: it shows none of
    # thirty students' answers either (their questions are left out of the class's page)
    questions = set()
    for ex in exercises:
        questions |= {ex.question, html_lib.escape(ex.question)}
    bare = page
    for q in sorted(questions, key=len, reverse=True):
        bare = bare.replace(q, "")
    for i in range(30):
        theirs = exercise_sets(f"d{i}")[Path(name).stem]
        assert lesson_tools.answers_shown(bare, theirs) == [], (name, f"d{i}")
    # plots are kept by an HTML export: as ordinary outputs (images), or as the outputs of
    # a seed box's run (analysis.controls.SeedRun), which the export keeps in the page's
    # widget state
    from nbconvert import HTMLExporter
    html, _ = HTMLExporter().from_notebook_node(nb)
    assert "data:image/png;base64" in html or plot_in_widget_state(html), \
        f"{name}: no plot in the HTML export"


def plot_in_widget_state(html: str) -> bool:
    """Whether the export's widget state holds an Output widget showing a PNG plot."""
    import json
    found = re.search(r'<script type="application/vnd.jupyter.widget-state\+json">(.*?)</script>',
                      html, re.S)
    if not found:
        return False
    state = json.loads(html_lib.unescape(found.group(1))).get("state", {})
    return any(o.get("data", {}).get("image/png")
               for model in state.values() if model.get("model_name") == "OutputModel"
               for o in model.get("state", {}).get("outputs", []))


def test_both_editions_of_every_lesson_from_the_command_line(tmp_path):
    import subprocess
    import sys
    for which in ("student", "teacher"):
        out = tmp_path / which
        done = subprocess.run([sys.executable, "-m", "janus_widgets", "lessons", "--edition",
                               which, "--out", str(out), "--student-id", "ada"],
                              capture_output=True, text=True, cwd=tmp_path, timeout=300)
        assert done.returncode == 0, done.stderr
        assert sorted(p.name for p in out.glob("*.ipynb")) == LESSONS
        for name in LESSONS:
            nb = nbformat.read(out / name, as_version=4)
            kinds = set().union(*(tags(c) for c in nb.cells))
            assert ("teacher" in kinds) == (which == "teacher"), (which, name)
            assert ("answer" in kinds) == (which == "teacher"), (which, name)
            [parameters] = [c for c in nb.cells if "parameters" in tags(c)]
            assert parameters.source.startswith("STUDENT_ID = 'ada'")
        index = (out / "README.md").read_text()
        assert all(Path(name).stem in index for name in LESSONS)


@pytest.mark.parametrize("name", LESSONS)
def test_every_lesson_prints_a_worksheet_and_its_answer_key(name, tmp_path):
    stem = Path(name).stem
    sheet = lesson_tools.worksheet_html(stem, student="ada")
    key = lesson_tools.worksheet_html(stem, answers=True, student="ada")
    exercises = exercise_sets("ada")[stem]
    assert lesson_tools.answers_shown(sheet, exercises) == []
    shown_in_key = {k for k, _ in lesson_tools.answers_shown(key, exercises)}
    fractions = {ex.key for ex in exercises if ex.answer.denominator != 1}
    assert shown_in_key == fractions
    for ex in exercises:
        assert ex.question in sheet or ex.question.replace("'", "&#x27;") in sheet


def test_the_tour_points_teachers_to_every_lesson_and_the_editions():
    tour = "\n".join(c.source for c in read("tour.ipynb").cells if c.cell_type == "markdown")
    assert all(name in tour for name in LESSONS), [n for n in LESSONS if n not in tour]
    assert "--edition student" in tour and "worksheet" in tour and "teacher" in tour
    docs = (ROOT / "docs" / "lessons.md").read_text()
    assert all(name in docs for name in LESSONS), [n for n in LESSONS if n not in docs]

"""A lesson graded by real nbgrader (issue 26, item 11).

``python -m janus_widgets lessons --format nbgrader`` writes the source notebook; nbgrader
makes the students' version (``generate_assignment``), which holds no answer and no key
(the checks are hidden tests), and grades four submissions (``autograde``): one with every
answer right scores full marks, one with the common mistakes scores nothing for them (what
the key says: a mistake is wrong, and the feedback says why), a mixed one that gets every
other exercise right and copies ``EXERCISES.q2.answer`` in the others (what a notebook
holding the key would allow) scores the points of the ones it got right, and one with
another student's right answers scores only where their numbers agree.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbgrader")

from janus_widgets.analysis.checking import exercise_sets  # noqa: E402

pytestmark = [pytest.mark.notebook, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
LESSON = "roman-dice"
NBGRADER = Path(sys.executable).parent / "nbgrader"


def run(args: list[str], course: Path) -> subprocess.CompletedProcess:
    # nbgrader runs the environment's own tools (alembic for its database): its bin first
    env = {**os.environ, "PATH": os.pathsep.join((str(NBGRADER.parent), os.environ["PATH"])),
           "PYTHONPATH": os.pathsep.join(
               p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    done = subprocess.run([str(NBGRADER), *args], cwd=course, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    return done


def run_release(release: Path, env: dict[str, str]) -> str:
    """Run the students' notebook as a student would (their answers not written yet, so
    those cells fail) and return every output's text."""
    from helpers import notebook_client
    nb = nbformat.read(release, as_version=4)
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        client = notebook_client(nb, path=release.parent, timeout=300)
        client.allow_errors = True
        client.execute()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    texts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            texts += [data.get("text/markdown", ""), data.get("text/plain", ""),
                      out.get("text", "")]
    return "\n".join(texts)


class Code(str):
    """An answer written as code, not as a value (``EXERCISES.q1.answer``)."""


def answer_cell(name: str, value) -> str:
    return f"{name} = {value}" if isinstance(value, Code) else f"{name} = {value!r}"


def submit(release: Path, course: Path, student: str, answers: dict[str, object]) -> None:
    nb = nbformat.read(release, as_version=4)
    for cell in nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution"):
            key = meta["grade_id"].split("-")[-2]
            cell.source = answer_cell(f"answer_{key}", answers[key])
    target = course / "submitted" / student / "lessons" / f"{LESSON}.ipynb"
    target.parent.mkdir(parents=True)
    nbformat.write(nb, target)


def test_nbgrader_grades_a_lesson_with_the_lessons_own_checks(tmp_path):
    course = tmp_path / "course"
    (course / "source").mkdir(parents=True)
    (course / "nbgrader_config.py").write_text(
        "c = get_config()\n"
        "c.CourseDirectory.course_id = 'janus-lessons'\n"
        "c.CourseDirectory.db_assignments = [{'name': 'lessons'}]\n"
        "c.CourseDirectory.db_students = [{'id': 'right'}, {'id': 'wrong'}, {'id': 'mixed'},"
        " {'id': 'copier'}]\n"
        "c.ExecutePreprocessor.timeout = 300\n"
        # the kernel client that never sleeps through a reply (a lost wake-up stalled a
        # submission until its cell's timeout): nbgrader's Execute passes its kernel
        # manager class as an argument, which a config value would not override
        "import nbgrader.preprocessors.execute\n"
        "from janus_widgets.kernel_client import SlicedKernelManager\n"
        "nbgrader.preprocessors.execute.AsyncKernelManager = SlicedKernelManager\n")
    out = tmp_path / "written"
    done = subprocess.run([sys.executable, "-m", "janus_widgets", "lessons", "--format",
                           "nbgrader", "--out", str(out)], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    (course / "source" / "lessons").mkdir()
    shutil.copy(out / f"{LESSON}.ipynb", course / "source" / "lessons" / f"{LESSON}.ipynb")
    # the lesson's own notebooks folder is where its cells expect to run (voila.json aside)
    run(["generate_assignment", "lessons", "--force"], course)
    release = course / "release" / "lessons" / f"{LESSON}.ipynb"
    released = release.read_text()
    assert "### BEGIN SOLUTION" not in released and "raise NotImplementedError" in released
    # the students' notebook holds the questions with their numbers, and no key: the checks
    # are hidden tests, left out; nothing loads the exercises, and no answer stands anywhere
    from janus_widgets.analysis import lessons
    exercises = list(exercise_sets()[LESSON])
    cells = nbformat.read(release, as_version=4).cells
    text = "\n".join(c.source for c in cells)
    for word in ("HIDDEN TESTS", "grade_exercise", "exercise_sets", "EXERCISES", ".answer"):
        assert word not in text, word
    assert lessons.answers_shown(text, exercise_sets()[LESSON]) == []
    for ex in exercises:
        assert f"answer_{ex.key} = {lessons._solution_text(ex)!r}" not in text, ex.key
    tests = [c for c in cells if c.metadata.get("nbgrader", {}).get("grade")]
    assert len(tests) == len(exercises) and all("read_answer(answer_" in c.source for c in tests)
    # issue 35 item 5: the released notebook shows the numbers of the nbgrader student who
    # runs it (on a JupyterHub, JUPYTERHUB_USER: the id the exchange files work under)
    shown = run_release(release, {"JUPYTERHUB_USER": "right"})
    for ex in exercise_sets("right")[LESSON]:
        assert ex.question in shown, ex.key
    assert lessons.answers_shown(shown, exercise_sets("right")[LESSON]) == []
    classes = {ex.key: ex.question for ex in exercises}
    assert any(q not in shown for q in classes.values())

    def right_for(student: str) -> dict[str, object]:
        return {ex.key: (f"{ex.answer.numerator}/{ex.answer.denominator}"
                         if ex.answer.denominator > 1 else int(ex.answer))
                for ex in exercise_sets(student)[LESSON]}

    right = right_for("right")
    wrong = {ex.key: str(ex.mistakes[0].resolve()) for ex in exercise_sets("wrong")[LESSON]}
    # "mixed" answers every other exercise right and copies the key in the others
    # (``EXERCISES.q2.answer``, what a notebook holding the key would allow): it scores
    # the points of the first ones only
    mine = right_for("mixed")
    cheat = {ex.key: Code(f"EXERCISES.{ex.key}.answer") for ex in exercises}
    mixed = {ex.key: (mine if i % 2 == 0 else cheat)[ex.key]
             for i, ex in enumerate(exercises)}
    # the class's key, or another student's right answers, are wrong for "copier"
    copier = right_for("right")
    for student, answers in (("right", right), ("wrong", wrong), ("mixed", mixed),
                             ("copier", copier)):
        submit(release, course, student, answers)
    run(["autograde", "lessons", "--force"], course)

    from nbgrader.api import Gradebook
    points = {ex.key: ex.points for ex in exercises}
    copied = [ex.key for ex in exercise_sets("copier")[LESSON]
              if ex.accepts(ex.answer) and not ex.accepts(
                  getattr(exercise_sets("right")[LESSON], ex.key).answer)]
    assert copied, "copier and right have the same numbers"
    expected = {"right": sum(points.values()), "wrong": 0,
                "mixed": sum(points[ex.key] for i, ex in enumerate(exercises) if i % 2 == 0),
                "copier": sum(points.values()) - sum(points[k] for k in copied)}
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        for student, score in expected.items():
            submission = gradebook.find_submission("lessons", student)
            assert submission.max_score == sum(points.values())
            assert submission.score == score, (student, submission.score, score)
    # the feedback on a mistake is the lesson's own explanation of it
    graded = nbformat.read(course / "autograded" / "wrong" / "lessons" / f"{LESSON}.ipynb",
                           as_version=4)
    errors = " ".join(o.get("evalue", "") for c in graded.cells for o in c.get("outputs", [])
                      if o.get("output_type") == "error")
    for ex in exercise_sets("wrong")[LESSON]:
        assert ex.mistakes[0].why in errors, ex.key
    # the copied key does not exist when the submission is graded: the cells copying it fail
    graded = nbformat.read(course / "autograded" / "mixed" / "lessons" / f"{LESSON}.ipynb",
                           as_version=4)
    failures = [o for c in graded.cells for o in c.get("outputs", [])
                if o.get("output_type") == "error"]
    assert failures and {o["ename"] for o in failures} <= {"NameError", "AttributeError"}

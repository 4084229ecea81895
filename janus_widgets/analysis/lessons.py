"""Lessons: the notebooks in a student and a teacher edition, and printable worksheets.

A lesson is a notebook in ``notebooks/`` whose metadata holds
``janus_widgets.lesson = {"game": NAME or None, "minutes": N, "level": "..."}``.
Teacher material lives in cells tagged ``teacher`` (notes, prompts, misconceptions)
and solutions in cells tagged ``answer``:

* the **student edition** leaves both out, and every output too (a saved output
  could show an answer), so a student's page never prints an exercise's answer;
* the **teacher edition** keeps everything, and carries the answer key already run: the
  cells tagged ``answer`` hold the key as their output (a static key, readable without
  running anything);
* the **nbgrader edition** (:func:`nbgrader_notebook`) is an nbgrader source notebook: a
  solution cell and an autograded test cell per exercise, carrying the same checks as
  hidden tests (the students' notebook that nbgrader makes holds no key).

In JupyterLab a student can ask the kernel anything (``EXERCISES.q1.answer``): the
student edition keeps answers off the page, not out of reach. Assessed work belongs in
Voila, which shows no code and gives no cell to type into; a lesson opened in Voila never
renders the cells tagged ``teacher`` or ``answer`` (:class:`LessonPagePreprocessor`)
unless the notebook is the teacher's edition or the teacher asks for it.

With a student id, the cell tagged ``parameters`` (the papermill convention; it
holds ``STUDENT_ID = None``) is set to that id, and the lesson's exercises
(:func:`~janus_widgets.analysis.checking.exercise_sets`) are drawn for that student:
fresh numbers that the checker accepts for that student only.

A worksheet is built from the same exercise objects: the questions with room to
answer, or (the answer key) every answer with its explanation and the common
mistakes.

>>> nb = _demo_notebook()
>>> [c.source.splitlines()[0] for c in edition(nb, "student").cells]
['# Demo', 'STUDENT_ID = None', 'print(1 + 1)']
>>> [c.source for c in edition(nb, "teacher", student="ada").cells][1]
"STUDENT_ID = 'ada'"
"""

from __future__ import annotations

import copy
import html
import os
import re
from fractions import Fraction
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool, Unicode

from ..resources import NOTEBOOKS, notebooks_folder
from .checking import Exercise, ExerciseSet, _show, exercise_sets

__all__ = ["Lesson", "EDITIONS", "FORMATS", "PAPERS", "lessons", "lesson", "edition",
           "build_editions", "nbgrader_notebook", "LessonPagePreprocessor", "worksheet_html",
           "write_worksheet", "html_to_pdf", "answer_texts", "answers_shown", "AnswerKey",
           "NOTEBOOKS"]

# NOTEBOOKS: where the lesson notebooks are (janus_widgets.resources: the packaged ones
# when installed, the clone's ``notebooks/`` in a clone).
#: The editions and the cell tags each leaves out.
EDITIONS: dict[str, frozenset[str]] = {"student": frozenset({"teacher", "answer"}),
                                       "teacher": frozenset()}
#: What ``build_editions`` writes: Jupyter notebooks, or nbgrader source notebooks.
FORMATS = ("notebook", "nbgrader")
PARAMETERS_TAG = "parameters"
#: The tags whose cells a student never sees.
HIDDEN_TAGS = frozenset({"teacher", "answer"})
_STUDENT_LINE = re.compile(r"^STUDENT_ID\s*=.*$", re.MULTILINE)


@dataclass(frozen=True)
class Lesson:
    """One lesson notebook and what its metadata says about it."""

    path: Path
    title: str
    game: str | None
    minutes: int
    level: str
    parts: int = 1
    game_label: str = ""

    @property
    def game_words(self) -> str:
        """The game as a students' README names it: the metadata's ``game_label``, else
        the game's name, else "none"."""
        return self.game_label or self.game or "none"

    @property
    def length(self) -> str:
        """Its length: ``"45"``, or ``"2 × 45"`` for a lesson in two parts."""
        return f"{self.parts} × {self.minutes}" if self.parts > 1 else str(self.minutes)

    @property
    def stem(self) -> str:
        """The file name without ``.ipynb`` (the key of its exercise set)."""
        return self.path.stem

    def exercises(self, student: str | None = None) -> ExerciseSet | None:
        """The lesson's checked exercises (``student``'s numbers), if it has a set."""
        return exercise_sets(student).get(self.stem)


def _read(path: Path) -> Any:
    import nbformat
    return nbformat.read(path, as_version=4)


def _title(nb: Any, fallback: str) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            m = re.search(r"^#\s+(.+)$", cell.source, re.MULTILINE)
            if m:
                return m.group(1).strip()
    return fallback


def lesson_meta(nb: Any) -> dict[str, Any] | None:
    """A notebook's ``janus_widgets.lesson`` metadata, or ``None`` if it is no lesson."""
    meta = nb.metadata.get("janus_widgets", {}).get("lesson")
    return dict(meta) if isinstance(meta, dict) else None


def lessons(folder: str | os.PathLike[str] | None = None) -> list[Lesson]:
    """Every lesson notebook in ``folder`` (default: the package's notebooks,
    :func:`~janus_widgets.resources.notebooks_folder`), by file name."""
    root = Path(folder) if folder is not None else notebooks_folder()
    if not root.is_dir():
        raise FileNotFoundError(f"no notebooks folder at {root}: give the folder that "
                                "holds the lesson notebooks")
    out = []
    for path in sorted(root.glob("*.ipynb")):
        nb = _read(path)
        meta = lesson_meta(nb)
        if meta is None:
            continue
        out.append(Lesson(path, _title(nb, path.stem), meta.get("game"),
                          int(meta.get("minutes", 0)), str(meta.get("level", "")),
                          int(meta.get("parts", 1)), str(meta.get("game_label", ""))))
    return out


def lesson(name: str, folder: str | os.PathLike[str] | None = None) -> Lesson:
    """The lesson whose file stem is ``name`` (``"roman-dice"``); a clear error otherwise."""
    found = {les.stem: les for les in lessons(folder)}
    key = name[:-6] if name.endswith(".ipynb") else name
    if key not in found:
        raise ValueError(f"there is no lesson {name!r}; the lessons are "
                         + ", ".join(found))
    return found[key]


def edition(nb: Any, which: str, *, student: str | None = None,
            exercises: ExerciseSet | None = None) -> Any:
    """A copy of lesson notebook ``nb`` in edition ``which`` ("student" or "teacher").

    The student edition has no cell tagged ``teacher`` or ``answer`` and no outputs;
    ``student`` sets ``STUDENT_ID`` in the cell tagged ``parameters``. In the teacher
    edition, with the lesson's ``exercises`` (that student's numbers), every code cell
    tagged ``answer`` that shows the key (``AnswerKey(...)``) holds it as its output
    already, so the key reads without running the notebook.
    """
    if which not in EDITIONS:
        raise ValueError(f"edition {which!r} is not one: use " + " or ".join(EDITIONS))
    student = _checked_student(student)
    dropped = EDITIONS[which]
    out = copy.deepcopy(nb)
    out.cells = [c for c in out.cells if not dropped & set(c.metadata.get("tags", []))]
    if which == "student":
        for cell in out.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        out.metadata.pop("widgets", None)          # saved widget state can hold answers
        _join_the_class(out)
    if student is not None:
        _set_student(out, student)
    if which == "teacher" and exercises is not None:
        _run_answer_keys(out, exercises)
    out.metadata.setdefault("janus_widgets", {})
    out.metadata["janus_widgets"] = {**out.metadata["janus_widgets"], "edition": which,
                                     **({"student": student} if student else {})}
    return out


#: What a student edition's parameters cell runs after its ``STUDENT_ID`` line: on a
#: class's page (the join slip's ``?server=…&code=…``) it joins the class, so that each
#: check goes to the teacher's tally and the numbers are that student's own.
CLASS_CELL = (
    "# On a class's page (the join slip's address) every check also goes to the\n"
    "# teacher's tally, and the numbers are this student's own.\n"
    "from janus_widgets.analysis.class_link import from_query_string\n"
    "from janus_widgets.kernel_seal import seal\n"
    "seal()   # in Voila the page runs its own notebook only, no code from the browser\n"
    "_class = from_query_string()\n"
    "if _class is not None:\n"
    "    STUDENT_ID = _class.student")


def _join_the_class(nb: Any) -> None:
    """Put :data:`CLASS_CELL`'s lines into the parameters cell, right after its
    ``STUDENT_ID`` line: a class list's name then gives the student's own numbers for
    everything the cell works out from ``STUDENT_ID``."""
    cells = [c for c in nb.cells if PARAMETERS_TAG in c.metadata.get("tags", [])]
    if not cells or CLASS_CELL in cells[0].source:
        return
    first, _, rest = cells[0].source.partition("\n")
    cells[0].source = f"{first}\n{CLASS_CELL}\n{rest}"


def _checked_student(student: str | None) -> str | None:
    if student is not None and (not isinstance(student, str) or not student.strip()
                                or not re.fullmatch(r"[\w.@+-]+", student.strip())):
        raise ValueError(f"student id {student!r} is not allowed: use letters, digits "
                         "and . @ + - _ (e.g. a class list number or a login name)")
    return None if student is None else student.strip()


def _set_student(nb: Any, student: str) -> None:
    cells = [c for c in nb.cells if PARAMETERS_TAG in c.metadata.get("tags", [])]
    if not cells or not _STUDENT_LINE.search(cells[0].source):
        raise ValueError("this lesson has no cell tagged 'parameters' with a "
                         "'STUDENT_ID = None' line, so it cannot take a student id")
    cells[0].source = _STUDENT_LINE.sub(f"STUDENT_ID = {student!r}", cells[0].source,
                                        count=1)


def _run_answer_keys(nb: Any, exercises: ExerciseSet) -> None:
    """Fill the key's output into every code cell tagged ``answer`` that shows it."""
    import nbformat
    key = AnswerKey(exercises)
    for cell in nb.cells:
        if (cell.cell_type == "code" and "answer" in cell.metadata.get("tags", [])
                and "AnswerKey(" in cell.source):
            cell.outputs = [nbformat.v4.new_output(
                "display_data", data={"text/html": key._repr_html_(),
                                      "text/plain": repr(key)})]
            cell.execution_count = None


def build_editions(which: str, out: str | os.PathLike[str], *, student: str | None = None,
                   folder: str | os.PathLike[str] | None = None,
                   format: str = "notebook") -> list[Path]:
    """Write every lesson in edition ``which`` into the folder ``out`` (made if need
    be), with ``voila.json`` so that the lessons also run as Voila apps, and an index
    ``README.md``. With ``format="nbgrader"`` the notebooks are nbgrader source notebooks
    (:func:`nbgrader_notebook`; ``which`` is then ignored: a source notebook holds the
    solutions, and nbgrader makes the students' version). Returns the notebooks
    written."""
    import nbformat
    if format not in FORMATS:
        raise ValueError(f"format {format!r} is not one: use " + " or ".join(FORMATS))
    if format == "notebook" and which not in EDITIONS:
        raise ValueError(f"edition {which!r} is not one: use " + " or ".join(EDITIONS))
    student = _checked_student(student)
    found = lessons(folder)
    target = Path(out)
    if target.exists() and not target.is_dir():
        raise ValueError(f"--out {str(target)!r} is a file; give a folder")
    made = []
    for les in found:
        exercises = les.exercises(student)
        source = _read(les.path)
        if format == "nbgrader":
            if exercises is None:
                continue
            made.append((les, nbgrader_notebook(source, exercises, student=student)))
        else:
            made.append((les, edition(source, which, student=student,
                                      exercises=exercises)))
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for les, nb in made:
        path = target / les.path.name
        nbformat.write(nb, path)
        written.append(path)
    source = Path(folder) if folder is not None else notebooks_folder()
    if (source / "voila.json").exists() and format == "notebook":
        shutil.copy(source / "voila.json", target / "voila.json")
    who = f" for student {student}" if student else ""
    kind = "nbgrader source notebooks" if format == "nbgrader" else f"{which} edition"
    rows = [f"# Lessons: {kind}{who}", "",
            "| lesson | game | minutes | level |", "|---|---|---|---|"]
    rows += [f"| [{les.title}]({les.path.name}) | {les.game_words} | "
             f"{les.length} | {les.level} |" for les, _ in made]
    if format == "nbgrader":
        rows += ["", "Each notebook is an nbgrader source notebook: copy it to "
                     "`source/<assignment>/` of an nbgrader course, then `nbgrader "
                     "generate_assignment <assignment>` makes the students' version and "
                     "`nbgrader autograde <assignment>` grades the submissions (every "
                     "exercise's test cell runs the lesson's own check, as a hidden test: "
                     "the students' version holds no key). Each student's notebook shows, "
                     "and is graded on, numbers of their own: it reads the nbgrader student "
                     "id when it runs (`JANUS_STUDENT_ID` overrides it). They hold the "
                     "solutions (the class's numbers): never hand them out."]
    elif which == "student":
        rows += ["", "Open a lesson in JupyterLab and run it from the top, or as an app: "
                     "`voila NAME.ipynb` in this folder. In JupyterLab a student can ask "
                     "the kernel anything, answers included: assessed work belongs in "
                     "Voila, which shows no code."]
    else:
        rows += ["", "This edition holds the teacher notes and the answers (cells tagged "
                     "`teacher` and `answer`; the key is already shown as the answer "
                     "cells' output); hand students the student edition."]
    (target / "README.md").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return written


# --- nbgrader --------------------------------------------------------------------------
#: The cells of an nbgrader source notebook carry this schema version.
NBGRADER_SCHEMA = 3


def _answer_name(key: str) -> str:
    return "answer_" + re.sub(r"\W", "_", key)


#: nbgrader's markers of a test cell's hidden part: ``generate_assignment`` leaves it out
#: of the students' notebook, ``autograde`` puts it back before it grades.
HIDDEN_TESTS = ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")
#: A line of a lesson's code that loads its exercises (``EXERCISES = exercise_sets(...)``),
#: and one that imports ``exercise_sets``: an nbgrader notebook shows neither.
_LOADS_EXERCISES = re.compile(r"^\s*(\w+)\s*=\s*exercise_sets\(.*$")
_IMPORTS_EXERCISE_SETS = re.compile(
    r"^\s*from\s+janus_widgets\.analysis\.checking\s+import\s+(ExerciseSlots\s*,\s*)?"
    r"exercise_sets\s*(#.*)?$")
#: The lines that place and fill a lesson's answer boxes before it knows its student
#: (:class:`.checking.ExerciseSlots`): an nbgrader notebook has graded cells instead.
_USES_SLOTS = re.compile(r"^\s*(slots\s*=\s*ExerciseSlots\(.*|slots\.fill\(.*)$")


def _without_the_key(cells: list[Any]) -> None:
    """Take the lines that load the exercises (and so every answer) out of the visible
    code ``cells``; a cell that still uses the loaded set is an error (an nbgrader
    notebook must not need the key outside its hidden tests)."""
    names: set[str] = set()
    for cell in cells:
        if cell.cell_type != "code" or "exercise_sets" not in cell.source:
            continue
        kept = []
        for line in cell.source.splitlines():
            loads = _LOADS_EXERCISES.match(line)
            if loads:
                names.add(loads.group(1))
            elif not (_IMPORTS_EXERCISE_SETS.match(line) or _USES_SLOTS.match(line)):
                kept.append(line)
        # a cell left with comments only (they spoke of the lines taken out) goes too
        code = [line for line in kept if line.strip() and not line.lstrip().startswith("#")]
        cell.source = "\n".join(kept).strip("\n") if code else ""
    for cell in cells:
        if cell.cell_type == "code":
            used = sorted(n for n in names | {"exercise_sets"}
                          if re.search(rf"\b{re.escape(n)}\b", cell.source))
            if used:
                raise ValueError(f"a cell of the lesson uses {', '.join(used)} for more than "
                                 "its answer boxes; an nbgrader notebook keeps the exercises "
                                 "(and their answers) in its hidden tests only:\n"
                                 + cell.source)


def nbgrader_notebook(nb: Any, exercises: ExerciseSet, *, student: str | None = None) -> Any:
    """Lesson notebook ``nb`` as an nbgrader source notebook: the student edition's cells
    (no teacher notes, no answers), with the answer boxes replaced by, for each exercise,
    the question (a locked cell, with its numbers), a solution cell (``answer_q1 = "3/32"``
    between nbgrader's ``### BEGIN SOLUTION`` and ``### END SOLUTION``) and an autograded
    test cell worth the exercise's points. The test's visible part only reads the answer as
    a number; its check, the lesson's own
    (:func:`~janus_widgets.analysis.checking.grade_exercise`: a right answer passes, a
    common mistake fails with what the check says about it), is a hidden test, which
    ``nbgrader generate_assignment`` leaves out of the students' notebook and ``nbgrader
    autograde`` puts back. The lines that load the exercises (``EXERCISES =
    exercise_sets(...)``) are left out of the visible cells: the students' notebook holds
    the questions and the solution cells, and no key.

    Each student gets their own numbers: without ``student`` the parameters cell sets
    ``STUDENT_ID = nbgrader_student()`` (the nbgrader id of whoever runs the notebook,
    or of the submission ``autograde`` grades), each question is shown by a locked cell
    when the notebook runs, with those numbers, and the hidden tests check against the
    same id's. With ``student`` every id is that one.

    >>> from janus_widgets.analysis.exercises import roman_dice
    >>> source = nbgrader_notebook(_demo_notebook(), roman_dice)
    >>> tests = [c for c in source.cells if c.metadata.get("nbgrader", {}).get("grade")]
    >>> [c.metadata["nbgrader"]["points"] for c in tests][:2]
    [1, 1]
    >>> print(tests[0].source.split("### BEGIN HIDDEN TESTS")[1])
    <BLANKLINE>
    from janus_widgets.analysis.checking import grade_exercise, nbgrader_student
    grade_exercise('roman-dice', 'q1', answer_q1, student=nbgrader_student())
    ### END HIDDEN TESTS
    """
    import nbformat
    v4 = nbformat.v4
    student = _checked_student(student)
    out = edition(nb, "student", student=student)
    if student is None:
        _set_nbgrader_student(out)
    # whose numbers the hidden tests check: the id given, else the nbgrader student's
    whose = repr(student) if student is not None else "nbgrader_student()"
    stem = exercises.name
    blocks = []
    for index, ex in enumerate(exercises, 1):
        name = _answer_name(ex.key)
        form = "a whole number, e.g. 12" if ex.count else (
            'a fraction in quotes, e.g. "3/8", or a decimal such as 0.375')
        heading = f"**Exercise {index}** ({ex.points} point{'s' if ex.points != 1 else ''})."
        # the question is shown when the notebook runs, with the numbers of the student
        # running it (STUDENT_ID, set by the parameters cell); the answer is never shown
        question = v4.new_code_cell(
            f"# Exercise {index}: the question, with your own numbers. Write your answer in "
            f"the next cell as\n# {name} = ... ({form}).\n"
            "from janus_widgets.analysis.checking import exercise_question\n"
            f"exercise_question({stem!r}, {ex.key!r}, STUDENT_ID, heading={heading!r})")
        question.metadata["nbgrader"] = {"grade": False, "solution": False, "locked": True,
                                         "grade_id": f"{stem}-{ex.key}-question",
                                         "schema_version": NBGRADER_SCHEMA}
        solution = v4.new_code_cell(f"### BEGIN SOLUTION\n{name} = {_solution_text(ex)!r}"
                                    "\n### END SOLUTION")
        solution.metadata["nbgrader"] = {"grade": False, "solution": True, "locked": False,
                                         "grade_id": f"{stem}-{ex.key}-answer",
                                         "schema_version": NBGRADER_SCHEMA}
        begin, end = HIDDEN_TESTS
        test = v4.new_code_cell(
            f"# Exercise {index}: here only whether your answer reads as a number; the "
            "lesson's own\n# check of it runs when your work is graded.\n"
            "from janus_widgets.analysis.checking import read_answer\n\n"
            f"read_answer({name})\n"
            f"{begin}\n"
            "from janus_widgets.analysis.checking import grade_exercise, nbgrader_student\n"
            f"grade_exercise({stem!r}, {ex.key!r}, {name}, student={whose})\n"
            f"{end}")
        test.metadata["nbgrader"] = {"grade": True, "solution": False, "locked": True,
                                     "points": ex.points,
                                     "grade_id": f"{stem}-{ex.key}-check",
                                     "schema_version": NBGRADER_SCHEMA}
        blocks += [question, solution, test]
    # each exercise's graded cells go where the lesson shows its answer box: a cell that
    # shows one (``exercises.q4.widget()``, or its slot ``slots["q4"]``: ExerciseSlots)
    # gives way to that exercise's cells, a cell that shows them all keeps its other
    # lines (a drawing the questions refer to) and is followed by the cells of every
    # exercise not placed yet
    by_key = {ex.key: blocks[3 * i:3 * i + 3] for i, ex in enumerate(exercises)}
    placed: set[str] = set()
    cells: list[Any] = []
    for cell in out.cells:
        if cell.cell_type != "code" or not _shows_boxes(cell.source):
            cells.append(cell)
            continue
        keys = [a or b for a, b in _SHOWS_A_BOX.findall(cell.source) if (a or b) in by_key]
        kept = "\n".join(line for line in cell.source.splitlines()
                         if not _shows_boxes(line) and "exercise_boxes" not in line).strip()
        if kept:
            cell.source = kept
            cells.append(cell)
        todo = keys or [k for k in by_key if k not in placed]
        for key in todo:
            if key not in placed:
                cells.extend(by_key[key])
                placed.add(key)
    cells.extend(c for key in by_key if key not in placed for c in by_key[key])
    _without_the_key([c for c in cells if "nbgrader" not in c.metadata])
    out.cells = [c for c in cells if c.cell_type != "code" or c.source.strip()
                 or "nbgrader" in c.metadata]
    out.metadata["janus_widgets"] = {**out.metadata.get("janus_widgets", {}),
                                     "edition": "nbgrader"}
    return out


#: A line of a lesson that shows an exercise's answer box: ``….q4.widget()`` or, placed
#: before the page knows its student, ``slots["q4"]`` (:class:`.checking.ExerciseSlots`).
_SHOWS_A_BOX = re.compile(r"\.([\w-]+)\.widget\(\)|\bslots\[[\"']([\w-]+)[\"']\]")


def _shows_boxes(text: str) -> bool:
    """Whether ``text`` shows answer boxes: one (:data:`_SHOWS_A_BOX`) or a list of them
    (``exercise.widget()`` for each exercise)."""
    return ".widget()" in text or _SHOWS_A_BOX.search(text) is not None


#: The parameters cell's ``STUDENT_ID`` line in a class's nbgrader notebook: the numbers
#: are those of the nbgrader student running it (see ``docs/lessons.md``).
NBGRADER_STUDENT_LINE = ("from janus_widgets.analysis.checking import nbgrader_student\n"
                         "STUDENT_ID = nbgrader_student()   # your nbgrader id: your numbers")


def _set_nbgrader_student(nb: Any) -> None:
    """Make the parameters cell take ``STUDENT_ID`` from nbgrader (the student running
    the released notebook, or the submission ``autograde`` grades)."""
    cells = [c for c in nb.cells if PARAMETERS_TAG in c.metadata.get("tags", [])]
    if not cells or not _STUDENT_LINE.search(cells[0].source):
        raise ValueError("this lesson has no cell tagged 'parameters' with a "
                         "'STUDENT_ID = None' line, so its numbers cannot follow the "
                         "nbgrader student")
    cells[0].source = _STUDENT_LINE.sub(lambda _: NBGRADER_STUDENT_LINE, cells[0].source,
                                        count=1)


def _solution_text(ex: Exercise) -> str | int:
    """The answer as a student would write it: a whole number, a short fraction, or a
    decimal with enough figures for the check."""
    value = ex.answer
    if value.denominator == 1:
        return int(value.numerator)
    if max(len(str(abs(value.numerator))), len(str(value.denominator))) <= 6:
        return f"{value.numerator}/{value.denominator}"
    return f"{float(value):.6g}"


# --- Voila: a lesson's page shows the student's edition -----------------------------
class LessonPagePreprocessor(Preprocessor):
    """An nbconvert preprocessor that makes a lesson's page the student's edition: it
    leaves out the cells tagged ``teacher`` or ``answer`` (and saved outputs and widget
    state) before Voila runs and renders the notebook. Notebooks that are no lesson, and
    a lesson written as the teacher's edition (``lessons --edition teacher``), pass
    unchanged; so does every lesson when the teacher starts Voila with
    ``--LessonPagePreprocessor.edition=teacher``.

    ``notebooks/voila.json`` (and ``voila.json`` at the top of the project) register it
    for Voila: ``{"VoilaExporter": {"preprocessors": [...]}}``.

    >>> nb = _demo_notebook()
    >>> page, _ = LessonPagePreprocessor().preprocess(nb, {})
    >>> [c.source.splitlines()[0] for c in page.cells]
    ['# Demo', 'STUDENT_ID = None', 'print(1 + 1)']
    """

    enabled = Bool(True, help="On by default: registering it is what asks for "
                              "it").tag(config=True)
    edition = Unicode("student", help="'student' (the default): a lesson's page leaves "
                                      "out its teacher notes and answers; 'teacher': it "
                                      "shows them").tag(config=True)

    def preprocess(self, nb: Any, resources: Any) -> tuple[Any, Any]:
        if self.edition not in EDITIONS:
            raise ValueError(f"LessonPagePreprocessor.edition={self.edition!r}: use "
                             + " or ".join(EDITIONS))
        meta = nb.metadata.get("janus_widgets", {})
        if lesson_meta(nb) is None or meta.get("edition") == "teacher" \
                or self.edition == "teacher":
            return nb, resources
        nb.cells = [c for c in nb.cells if not HIDDEN_TAGS & set(c.metadata.get("tags", []))]
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        nb.metadata.pop("widgets", None)
        _join_the_class(nb)              # a class's page, and a sealed kernel in Voila
        return nb, resources


# --- worksheets ----------------------------------------------------------------------
#: The paper a worksheet is printed on: name → the CSS ``@page`` size.
PAPERS = {"a4": "A4", "letter": "letter"}
#: The working space under every question on a printed sheet.
WORKING_SPACE = "6.5cm"

_CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; max-width: 46em; margin: 2em auto;
       line-height: 1.45; color: #1c1c1c; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
.meta { color: #555; margin-bottom: 1.2em; }
.who { border-bottom: 1px solid #999; padding: 0.8em 0 0.3em; margin-bottom: 1.5em; }
.exercise { margin: 1.2em 0 1.6em; }
.exercise h2 { font-size: 1.05em; margin: 0 0 0.3em; break-after: avoid; }
.computer { display: inline-block; border: 1px solid #555; border-radius: 3px;
            padding: 0 0.4em; font-size: 0.85em; margin-left: 0.4em; }
.space { border: 1px solid #bbb; height: WORKING; margin-top: 0.5em;
         break-inside: avoid; page-break-inside: avoid; }
.answer { background: #eef6ee; border-left: 4px solid #1a7f37; padding: 0.4em 0.8em; }
.working { margin: 0.3em 0 0; }
.mistakes { margin: 0.4em 0 0 0; }
.figure { break-inside: avoid; page-break-inside: avoid; margin: 0.5em 0; }
.figure svg { max-width: 100%; height: auto; max-height: 12cm; display: block; }
table.tiles { border-collapse: collapse; font-size: 0.9em; }
table.tiles th, table.tiles td { border: 1px solid #999; padding: 0.15em 0.5em;
                                 text-align: center; }
table.tiles caption { text-align: left; font-weight: bold; }
@page { size: PAPER; margin: 16mm 15mm; }
@media print {
  body { margin: 0; max-width: none; font-size: 11pt; }
  .answer { background: none; border-left: 3px solid #000; }
  .figure svg { max-height: 11cm; }
}
"""


def _exercise_html(index: int, ex: Exercise, answers: bool, hints: bool = True) -> str:
    title = ex.title or f"Question {index}"
    if ex.title and not re.match(r"\d", title):
        title = f"{index}. {title}"
    mark = (f"<span class='computer'>needs the computer: {html.escape(ex.computer)}</span>"
            if ex.computer else "")
    parts = [f"<div class='exercise'><h2>{html.escape(title)}{mark}</h2>"]
    if ex.figure is not None:                   # what the question refers to, drawn
        parts.append(f"<div class='figure'>{ex.figure()}</div>")
    parts.append(f"<p>{html.escape(ex.question)}</p>")
    if answers:
        parts.append(f"<div class='answer'><b>Answer:</b> {html.escape(_show(ex.answer))}"
                     + (f"<br>{html.escape(ex.explanation)}" if ex.explanation else ""))
        if ex.working is not None:
            parts.append(f"<p class='working'><b>Working:</b> {html.escape(ex.worked())}</p>")
        if ex.mistakes:
            items = "".join(f"<li><b>{html.escape(_show(m.resolve()))}</b>: "
                            f"{html.escape(m.why)}</li>" for m in ex.mistakes)
            parts.append(f"<div class='mistakes'>Common mistakes:<ul>{items}</ul></div>")
        parts.append("</div>")
    else:
        if ex.hint and hints:
            parts.append(f"<p class='hint'><i>Hint:</i> {html.escape(ex.hint)}</p>")
        parts.append("<div class='space'></div>")
    parts.append("</div>")
    return "".join(parts)


class AnswerKey:
    """Every answer of ``exercises`` with its explanation, its working and the common
    mistakes, for a lesson's cell tagged ``answer`` (the student edition leaves that cell
    out; the teacher's edition holds it already run).

    >>> from janus_widgets.analysis.exercises import roman_dice
    >>> "3/32" in AnswerKey(roman_dice)._repr_html_()
    True
    """

    def __init__(self, exercises: Iterable[Exercise]) -> None:
        self.exercises = list(exercises)

    def __repr__(self) -> str:
        return f"AnswerKey({len(self.exercises)} answers)"

    def _repr_html_(self) -> str:
        # only the answer boxes are styled: a notebook's page keeps its own look
        style = ("<style>.janus-answer-key .answer { background: #eef6ee; border-left: "
                 "4px solid #1a7f37; padding: 0.4em 0.8em; } .janus-answer-key .computer "
                 "{ border: 1px solid #555; border-radius: 3px; padding: 0 0.4em; "
                 "font-size: 0.85em; margin-left: 0.4em; }</style>")
        return (style + "<div class='janus-answer-key'>"
                + "".join(_exercise_html(i, ex, True) for i, ex in enumerate(self.exercises, 1))
                + "</div>")


def _definitions(path: Path) -> list[tuple[str, str]]:
    """The terms a lesson's questions use, as its metadata defines them for the printed
    sheet (``janus_widgets.lesson.definitions``: ``[[term, text], …]``)."""
    meta = lesson_meta(_read(path)) or {}
    return [(str(term), str(text)) for term, text in meta.get("definitions", [])]


def worksheet_html(name: str, *, answers: bool = False, student: str | None = None,
                   folder: str | os.PathLike[str] | None = None, hints: bool = True,
                   paper: str = "a4") -> str:
    """A printable worksheet (HTML) of lesson ``name``'s exercises; ``answers=True``
    gives the answer key (every answer with its explanation, its working and the common
    mistakes). ``hints=False`` leaves the hints out (a test edition); ``paper`` is
    ``"a4"`` (the default) or ``"letter"``. Each question has at least 6 cm of working
    space, and questions that need the computer say so."""
    if paper not in PAPERS:
        raise ValueError(f"paper {paper!r} is not one: use " + " or ".join(PAPERS))
    les = lesson(name, folder)
    exercises = les.exercises(student)
    if exercises is None or not len(exercises):
        raise ValueError(f"lesson {les.stem!r} has no checked exercises to print")
    kind = "Answer key" if answers else "Worksheet" if hints else "Worksheet (no hints)"
    who = (f"Numbers for student <b>{html.escape(exercises.student)}</b>"
           if exercises.student else "Numbers for the whole class")
    body = "".join(_exercise_html(i, ex, answers, hints)
                   for i, ex in enumerate(exercises, 1))
    header = ("" if answers else
              "<div class='who'>Name: ______________________ &nbsp; Date: ____________</div>")
    exact = ("" if answers else "<p>Give a fraction (such as 3/8), or a decimal with at "
             "least three significant figures, unless the question says otherwise. "
             "Questions marked <span class='computer'>needs the computer</span> are done "
             "with the lesson open.</p>")
    terms = _definitions(les.path)
    if terms:                         # what the questions use, defined on the sheet too
        exact += ("<div class='definitions'><b>Definitions</b><ul>"
                  + "".join(f"<li><code>{html.escape(term)}</code>: {html.escape(text)}</li>"
                            for term, text in terms) + "</ul></div>")
    css = _CSS.replace("PAPER", PAPERS[paper]).replace("WORKING", WORKING_SPACE)
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(les.title)}: {kind.lower()}</title>"
            f"<style>{css}</style></head><body>"
            f"<h1>{html.escape(les.title)}</h1>"
            f"<div class='meta'>{kind} · about {les.length} minutes · {html.escape(les.level)}"
            f" · {who}</div>{header}{exact}{body}</body></html>")


def _chromium() -> str | None:
    for candidate in (os.environ.get("JANUS_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium"), shutil.which("chromium-browser"),
                      shutil.which("google-chrome")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def html_to_pdf(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> Path:
    """Print an HTML file to PDF with headless Chromium (``JANUS_CHROMIUM`` or the
    system's ``chromium``), offline; the page size is the sheet's own (CSS ``@page``:
    A4 or Letter). A clear error when there is no Chromium."""
    browser = _chromium()
    if browser is None:
        raise RuntimeError("printing a PDF needs Chromium: install it (Debian/Ubuntu: "
                           "apt-get install chromium) or set JANUS_CHROMIUM to its path; "
                           "the HTML worksheet prints from any browser too")
    target = Path(target).resolve()
    target.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        result = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", "--disable-dev-shm-usage", f"--user-data-dir={profile}",
             "--no-pdf-header-footer", f"--print-to-pdf={target}",
             Path(source).resolve().as_uri()],
            capture_output=True, text=True, timeout=120)
    if not target.exists() or target.stat().st_size == 0:
        raise RuntimeError(f"Chromium did not write {target}: {result.stderr[-500:]}")
    return target


def write_worksheet(name: str, out: str | os.PathLike[str], *, answers: bool = False,
                    student: str | None = None, pdf: bool = False,
                    folder: str | os.PathLike[str] | None = None, hints: bool = True,
                    paper: str = "a4") -> list[Path]:
    """Write lesson ``name``'s worksheet (or answer key) to ``out``: a ``.pdf`` is printed
    with headless Chromium, an ``.html`` written as it is (and a PDF beside it when
    ``pdf``). Returns the files written."""
    target = Path(out)
    suffix = target.suffix.lower()
    if suffix not in (".html", ".pdf"):
        raise ValueError(f"--out {str(target)!r}: give a file name ending in .pdf (printed) "
                         "or .html (the PDF, with --pdf, is written beside it)")
    text = worksheet_html(name, answers=answers, student=student, folder=folder,
                          hints=hints, paper=paper)
    target.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".pdf":
        with tempfile.TemporaryDirectory() as tmp:
            page = Path(tmp) / (target.stem + ".html")
            page.write_text(text, encoding="utf-8")
            return [html_to_pdf(page, target)]
    tmp_file = target.with_name(target.name + ".tmp")
    tmp_file.write_text(text, encoding="utf-8")
    os.replace(tmp_file, target)
    written = [target]
    if pdf:
        written.append(html_to_pdf(target, target.with_suffix(".pdf")))
    return written


def answer_texts(exercises: Iterable[Exercise]) -> dict[str, list[str]]:
    """The ways each exercise's answer could be printed (its fraction, its decimal to 3
    and 4 significant figures, a whole number): what a student's page must not show."""
    out = {}
    for ex in exercises:
        value = ex.answer
        forms = []
        if value.denominator == 1:
            forms.append(str(value.numerator))
        else:
            forms.append(f"{value.numerator}/{value.denominator}")
            for digits in (3, 4):
                forms.append(f"{float(value):.{digits}g}")
                forms.append(f"{100 * float(value):.{digits}g}%")
        out[ex.key] = forms
    return out


def _answer_pattern(form: str) -> re.Pattern[str]:
    # the form as a whole number: not part of a longer number, fraction or decimal, nor
    # of a length or a percentage ("0.2em" in a style sheet, "0.2%"), nor a duration
    # ("200 games played in 0.7 s": how long a run took is no answer to anything)
    return re.compile(r"(?<![\d/.,])" + re.escape(form)
                      + r"(?![\w/%]|[.,]\d|\s?(?:s|ms|seconds?|min|minutes?)\b)")


def answers_shown(text: str, exercises: Iterable[Exercise]) -> list[tuple[str, str]]:
    """The exercise answers that ``text`` shows, as ``(key, form)`` pairs: what a
    student's page must never contain. An answer that is a fraction is found as the
    fraction, or as its decimal or percentage to four significant figures (or fewer when
    that is all it has), standing on its own: ``1/36`` but not inside ``1/360``, ``0.02778``
    but not inside ``0.027781``. A number the question itself gives is not counted, nor a
    one-figure rounding of a long decimal ("0.5" for 0.49999). Whole-number answers (4,
    204) are in any text and are not searched; nor are three-figure roundings, which turn
    up by chance in tables.

    >>> from janus_widgets.analysis.exercises import jactus_odds
    >>> answers_shown("six of the 7776 throws: 1/1296", jactus_odds)
    [('q1', '1/1296')]
    >>> answers_shown("1/12960 and 0.00077160", jactus_odds)
    []
    >>> answers_shown("margin: 0.0007716em", jactus_odds)
    []
    >>> answers_shown("6/7776 of the throws, or 1 in 7776 for five sixes", jactus_odds)
    [('q1', '6/7776'), ('q3', '1 in 7776')]
    >>> answers_shown("the study's 1:4:4:1", jactus_odds)
    []
    >>> answers_shown("tiles by distance 1: 20 · 2: 20", jactus_odds)
    []
    >>> answers_shown("200 games played in 0.02778 s", jactus_odds)
    []
    """
    found = []
    exercises = list(exercises)
    wholes = {ex.key for ex in exercises if ex.answer.denominator == 1}
    # three significant figures of a long decimal turn up by chance in any table of
    # figures; the fraction and four figures do not
    short = {ex.key: {f"{float(ex.answer):.3g}", f"{100 * float(ex.answer):.3g}%"}
             - {f"{float(ex.answer):.4g}", f"{100 * float(ex.answer):.4g}%"}
             for ex in exercises}
    questions = {ex.key: ex.question for ex in exercises}
    values = {ex.key: ex.answer for ex in exercises}
    for key, forms in answer_texts(exercises).items():
        if key in wholes:          # a whole number (4, 204) is in any text: not searched
            continue
        for form in forms:
            if form in short.get(key, ()) or _too_rough(form, values[key]):
                continue
            if _answer_pattern(form).search(questions[key]):
                continue           # the question itself gives that number
            if _answer_pattern(form).search(text):
                found.append((key, form))
    # the same value written otherwise: unreduced (2/12), as odds (1 in 6, 1:6)
    by_value = {ex.answer: ex.key for ex in exercises if ex.key not in wholes}
    for m in _RATIO.finditer(text):
        top, bottom = int(m.group(1)), int(m.group(2))
        if bottom and (key := by_value.get(Fraction(top, bottom))) is not None:
            if (key, m.group(0)) not in found and not any(
                    k == key and f == f"{top}/{bottom}" for k, f in found):
                found.append((key, m.group(0)))
    return found


def _too_rough(form: str, value: Fraction) -> bool:
    # "0.5" for 0.4999956: a rounding to one figure is no answer (it is in any text)
    digits = form.rstrip("%").replace(".", "").lstrip("0")
    exact = Fraction(form.rstrip("%")) / (100 if form.endswith("%") else 1) == value
    return len(digits) < 2 and not exact


# "a/b", "a in b", "a:b" standing on their own (not "1:4:4:1", "JC-1/2", "2024/25")
# ("1:6" written close; "2: 20" is a label and a count, as in "by distance 2: 20")
_RATIO = re.compile(r"(?<![\w.,/:−-])(\d{1,6})(?:\s*/\s*|\s+in\s+|:)(\d{1,7})(?![\w/:%]|[.,]\d)")


def _demo_notebook() -> Any:
    import nbformat
    v4 = nbformat.v4
    nb = v4.new_notebook(metadata={"janus_widgets": {"lesson": {"game": None,
                                                                 "minutes": 5,
                                                                 "level": "demo"}}})
    nb.cells = [v4.new_markdown_cell("# Demo\nGoals."),
                v4.new_code_cell("STUDENT_ID = None", metadata={"tags": ["parameters"]}),
                v4.new_markdown_cell("Say 2.", metadata={"tags": ["teacher"]}),
                v4.new_code_cell("print(1 + 1)", outputs=[v4.new_output(
                    "stream", text="2\n")], execution_count=1),
                v4.new_code_cell("print('answer')", metadata={"tags": ["answer"]})]
    return nb

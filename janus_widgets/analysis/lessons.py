"""Lessons: the notebooks in a student and a teacher edition, and printable worksheets.

A lesson is a notebook in ``notebooks/`` whose metadata holds
``janus_widgets.lesson = {"game": NAME or None, "minutes": N, "level": "..."}``.
Teacher material lives in cells tagged ``teacher`` (notes, prompts, misconceptions)
and solutions in cells tagged ``answer``:

* the **student edition** leaves both out, and every output too (a saved output
  could show an answer), so a student's page never prints an exercise's answer;
* the **teacher edition** keeps everything.

With a student id, the cell tagged ``parameters`` (the papermill convention; it
holds ``STUDENT_ID = None``) is set to that id, and the lesson's exercises
(:func:`~janus_widgets.analysis.checking.exercise_sets`) are drawn for that student:
fresh numbers that the checker accepts for that student only.

A worksheet is built from the same exercise objects: the questions with room to
answer, or (the answer key) every answer with its explanation and the common
mistakes.

>>> nb = _demo_notebook()
>>> [c.source for c in edition(nb, "student").cells]
['# Demo\\nGoals.', 'STUDENT_ID = None', 'print(1 + 1)']
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

from .checking import Exercise, ExerciseSet, _show, exercise_sets

__all__ = ["Lesson", "EDITIONS", "lessons", "lesson", "edition", "build_editions",
           "worksheet_html", "write_worksheet", "html_to_pdf", "answer_texts", "answers_shown",
           "AnswerKey",
           "NOTEBOOKS"]

#: Where the lesson notebooks are (the repository's ``notebooks/``).
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
#: The editions and the cell tags each leaves out.
EDITIONS: dict[str, frozenset[str]] = {"student": frozenset({"teacher", "answer"}),
                                       "teacher": frozenset()}
PARAMETERS_TAG = "parameters"
_STUDENT_LINE = re.compile(r"^STUDENT_ID\s*=.*$", re.MULTILINE)


@dataclass(frozen=True)
class Lesson:
    """One lesson notebook and what its metadata says about it."""

    path: Path
    title: str
    game: str | None
    minutes: int
    level: str

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
    """Every lesson notebook in ``folder`` (default: the package's ``notebooks/``),
    by file name."""
    root = Path(folder) if folder is not None else NOTEBOOKS
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
                          int(meta.get("minutes", 0)), str(meta.get("level", ""))))
    return out


def lesson(name: str, folder: str | os.PathLike[str] | None = None) -> Lesson:
    """The lesson whose file stem is ``name`` (``"roman-dice"``); a clear error otherwise."""
    found = {les.stem: les for les in lessons(folder)}
    key = name[:-6] if name.endswith(".ipynb") else name
    if key not in found:
        raise ValueError(f"there is no lesson {name!r}; the lessons are "
                         + ", ".join(found))
    return found[key]


def edition(nb: Any, which: str, *, student: str | None = None) -> Any:
    """A copy of lesson notebook ``nb`` in edition ``which`` ("student" or "teacher").

    The student edition has no cell tagged ``teacher`` or ``answer`` and no outputs;
    ``student`` sets ``STUDENT_ID`` in the cell tagged ``parameters``.
    """
    if which not in EDITIONS:
        raise ValueError(f"edition {which!r} is not one: use " + " or ".join(EDITIONS))
    if student is not None and (not isinstance(student, str) or not student.strip()
                                or not re.fullmatch(r"[\w.@+-]+", student.strip())):
        raise ValueError(f"student id {student!r} is not allowed: use letters, digits "
                         "and . @ + - _ (e.g. a class list number or a login name)")
    dropped = EDITIONS[which]
    out = copy.deepcopy(nb)
    out.cells = [c for c in out.cells if not dropped & set(c.metadata.get("tags", []))]
    if which == "student":
        for cell in out.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        out.metadata.pop("widgets", None)          # saved widget state can hold answers
    if student is not None:
        cells = [c for c in out.cells if PARAMETERS_TAG in c.metadata.get("tags", [])]
        if not cells or not _STUDENT_LINE.search(cells[0].source):
            raise ValueError("this lesson has no cell tagged 'parameters' with a "
                             "'STUDENT_ID = None' line, so it cannot take a student id")
        cells[0].source = _STUDENT_LINE.sub(f"STUDENT_ID = {student.strip()!r}",
                                            cells[0].source, count=1)
    out.metadata.setdefault("janus_widgets", {})
    out.metadata["janus_widgets"] = {**out.metadata["janus_widgets"], "edition": which,
                                     **({"student": student.strip()} if student else {})}
    return out


def build_editions(which: str, out: str | os.PathLike[str], *, student: str | None = None,
                   folder: str | os.PathLike[str] | None = None) -> list[Path]:
    """Write every lesson in edition ``which`` into the folder ``out`` (made if need
    be), with ``voila.json`` so that the lessons also run as Voila apps, and an index
    ``README.md``. Returns the notebooks written."""
    import nbformat
    found = lessons(folder)
    target = Path(out)
    if target.exists() and not target.is_dir():
        raise ValueError(f"--out {str(target)!r} is a file; give a folder")
    target.mkdir(parents=True, exist_ok=True)
    written = []
    for les in found:
        nb = edition(_read(les.path), which, student=student)
        path = target / les.path.name
        nbformat.write(nb, path)
        written.append(path)
    source = Path(folder) if folder is not None else NOTEBOOKS
    if (source / "voila.json").exists():
        shutil.copy(source / "voila.json", target / "voila.json")
    who = f" for student {student.strip()}" if student else ""
    rows = [f"# Lessons: {which} edition{who}", "",
            "| lesson | game | minutes | level |", "|---|---|---|---|"]
    rows += [f"| [{les.title}]({les.path.name}) | {les.game or 'all four'} | "
             f"{les.minutes} | {les.level} |" for les in found]
    if which == "student":
        rows += ["", "Open a lesson in JupyterLab and run it from the top, or as an app: "
                     "`voila NAME.ipynb` in this folder."]
    else:
        rows += ["", "This edition holds the teacher notes and the answers (cells tagged "
                     "`teacher` and `answer`); hand students the student edition."]
    (target / "README.md").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return written


# --- worksheets ----------------------------------------------------------------------
_CSS = """
body { font-family: "DejaVu Sans", Arial, sans-serif; max-width: 46em; margin: 2em auto;
       line-height: 1.45; color: #1c1c1c; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
.meta { color: #555; margin-bottom: 1.2em; }
.who { border-bottom: 1px solid #999; padding: 0.8em 0 0.3em; margin-bottom: 1.5em; }
.exercise { break-inside: avoid; page-break-inside: avoid; margin: 1.2em 0 1.6em; }
.exercise h2 { font-size: 1.05em; margin: 0 0 0.3em; }
.space { border: 1px solid #bbb; height: 5.5em; margin-top: 0.5em; }
.answer { background: #eef6ee; border-left: 4px solid #1a7f37; padding: 0.4em 0.8em; }
.mistakes { margin: 0.4em 0 0 0; }
.figure svg { max-width: 100%; height: auto; }
@media print { body { margin: 0 1.5cm; } }
"""


def _exercise_html(index: int, ex: Exercise, answers: bool) -> str:
    title = ex.title or f"Question {index}"
    if ex.title and not re.match(r"\d", title):
        title = f"{index}. {title}"
    parts = [f"<div class='exercise'><h2>{html.escape(title)}</h2>"]
    if ex.figure is not None:                   # what the question refers to, drawn
        parts.append(f"<div class='figure'>{ex.figure()}</div>")
    parts.append(f"<p>{html.escape(ex.question)}</p>")
    if answers:
        parts.append(f"<div class='answer'><b>Answer:</b> {html.escape(_show(ex.answer))}"
                     + (f"<br>{html.escape(ex.explanation)}" if ex.explanation else ""))
        if ex.mistakes:
            items = "".join(f"<li><b>{html.escape(_show(m.resolve()))}</b>: "
                            f"{html.escape(m.why)}</li>" for m in ex.mistakes)
            parts.append(f"<div class='mistakes'>Common mistakes:<ul>{items}</ul></div>")
        parts.append("</div>")
    else:
        if ex.hint:
            parts.append(f"<p class='hint'><i>Hint:</i> {html.escape(ex.hint)}</p>")
        parts.append("<div class='space'></div>")
    parts.append("</div>")
    return "".join(parts)


class AnswerKey:
    """Every answer of ``exercises`` with its explanation and common mistakes, for a
    lesson's cell tagged ``answer`` (the student edition leaves that cell out).

    >>> from janus_widgets.analysis.exercises import roman_dice
    >>> "3/32" in AnswerKey(roman_dice)._repr_html_()
    True
    """

    def __init__(self, exercises: Iterable[Exercise]) -> None:
        self.exercises = list(exercises)

    def _repr_html_(self) -> str:
        # only the answer boxes are styled: a notebook's page keeps its own look
        style = ("<style>.janus-answer-key .answer { background: #eef6ee; border-left: "
                 "4px solid #1a7f37; padding: 0.4em 0.8em; }</style>")
        return (style + "<div class='janus-answer-key'>"
                + "".join(_exercise_html(i, ex, True) for i, ex in enumerate(self.exercises, 1))
                + "</div>")


def worksheet_html(name: str, *, answers: bool = False, student: str | None = None,
                   folder: str | os.PathLike[str] | None = None) -> str:
    """A printable worksheet (HTML) of lesson ``name``'s exercises; ``answers=True``
    gives the answer key (every answer with its explanation and the common mistakes)."""
    les = lesson(name, folder)
    exercises = les.exercises(student)
    if exercises is None or not len(exercises):
        raise ValueError(f"lesson {les.stem!r} has no checked exercises to print")
    kind = "Answer key" if answers else "Worksheet"
    who = (f"Numbers for student <b>{html.escape(exercises.student)}</b>"
           if exercises.student else "Numbers for the whole class")
    body = "".join(_exercise_html(i, ex, answers) for i, ex in enumerate(exercises, 1))
    header = ("" if answers else
              "<div class='who'>Name: ______________________ &nbsp; Date: ____________</div>")
    exact = ("" if answers else "<p>Give a fraction (such as 3/8), or a decimal with at "
             "least three significant figures, unless the question says otherwise.</p>")
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{html.escape(les.title)}: {kind.lower()}</title>"
            f"<style>{_CSS}</style></head><body>"
            f"<h1>{html.escape(les.title)}</h1>"
            f"<div class='meta'>{kind} · about {les.minutes} minutes · {html.escape(les.level)}"
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
    system's ``chromium``); a clear error when there is none."""
    browser = _chromium()
    if browser is None:
        raise RuntimeError("printing a PDF needs Chromium: install it (Debian/Ubuntu: "
                           "apt-get install chromium) or set JANUS_CHROMIUM to its path; "
                           "the HTML worksheet prints from any browser too")
    target = Path(target).resolve()
    with tempfile.TemporaryDirectory() as profile:
        result = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={profile}", "--no-pdf-header-footer",
             f"--print-to-pdf={target}", Path(source).resolve().as_uri()],
            capture_output=True, text=True, timeout=120)
    if not target.exists() or target.stat().st_size == 0:
        raise RuntimeError(f"Chromium did not write {target}: {result.stderr[-500:]}")
    return target


def write_worksheet(name: str, out: str | os.PathLike[str], *, answers: bool = False,
                    student: str | None = None, pdf: bool = False,
                    folder: str | os.PathLike[str] | None = None) -> list[Path]:
    """Write lesson ``name``'s worksheet (or answer key) to ``out`` (.html), and a PDF
    beside it when ``pdf``. Returns the files written."""
    target = Path(out)
    if target.suffix.lower() != ".html":
        raise ValueError(f"--out {str(target)!r}: give a file name ending in .html "
                         "(the PDF, with --pdf, is written beside it)")
    text = worksheet_html(name, answers=answers, student=student, folder=folder)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, target)
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
    # of a length or a percentage ("0.2em" in a style sheet, "0.2%")
    return re.compile(r"(?<![\d/.,])" + re.escape(form) + r"(?![\w/%]|[.,]\d)")


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
_RATIO = re.compile(r"(?<![\w.,/:−-])(\d{1,6})\s*(?:/|\bin\b|:)\s*(\d{1,7})(?![\w/:%]|[.,]\d)")


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

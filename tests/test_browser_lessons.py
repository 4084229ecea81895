"""A lesson's Voila page in a real browser never shows the teacher's notes or the answers
(issue 26, item 7), unless the teacher asks for the teacher's edition.

Started the way docs/lessons.md tells teachers: ``voila notebooks/<lesson>.ipynb`` from
the project's folder (a scratch copy of it), so that the project's ``voila.json`` applies.
"""

from __future__ import annotations

import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import pytest

from browser_support import BIN, _stop, free_port, wait_http, widget_errors

from janus_widgets.analysis import lessons
from janus_widgets.analysis.checking import exercise_sets

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
LESSON = "roman-dice"


@contextmanager
def voila_from(folder: Path, notebook: str, log: Path, *extra: str) -> Iterator[str]:
    """``voila NOTEBOOK`` started in ``folder`` on a free port; yields its URL."""
    import os
    port = free_port()
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(folder / "voila-runtime")}
    out = open(log, "w")
    proc = subprocess.Popen([str(BIN / "voila"), notebook, "--no-browser", f"--port={port}",
                             "--Voila.ip=127.0.0.1", "--Voila.port_retries=0", *extra],
                            stdout=out, stderr=subprocess.STDOUT, cwd=folder, env=env)
    try:
        wait_http(f"http://127.0.0.1:{port}/voila/static/voila.js", proc=proc)
        yield f"http://127.0.0.1:{port}/"
    finally:
        _stop(proc)
        out.close()


def project_copy(tmp: Path) -> Path:
    """The project's folder as a teacher has it: voila.json and notebooks/."""
    work = tmp / "project"
    work.mkdir()
    shutil.copy(ROOT / "voila.json", work / "voila.json")
    shutil.copytree(ROOT / "notebooks", work / "notebooks")
    return work


def open_page(page, url: str) -> str:
    page.goto(url, wait_until="domcontentloaded", timeout=240_000)
    page.wait_for_selector(".janus-exercise", timeout=240_000)
    page.wait_for_timeout(500)
    return page.inner_text("body")


def test_a_lessons_voila_page_is_the_students_page(page, tmp_path):
    work = project_copy(tmp_path)
    exercises = exercise_sets()[LESSON]
    with voila_from(work, f"notebooks/{LESSON}.ipynb", tmp_path / "voila.log") as url:
        body = open_page(page, url)
        html = page.content()
    assert "Teacher notes" not in body and "Misconceptions" not in body
    assert "janus-answer-key" not in html
    assert lessons.answers_shown(body, exercises) == [], lessons.answers_shown(body, exercises)
    assert all(ex.question in body for ex in exercises)      # the questions are there
    assert widget_errors(page) == []
    # started in notebooks/ (as the README says), the same holds
    with voila_from(work / "notebooks", f"{LESSON}.ipynb", tmp_path / "voila2.log") as url:
        body = open_page(page, url)
    assert "Teacher notes" not in body and "Exit question" in body


def test_the_teacher_asks_for_the_teachers_edition(page, tmp_path):
    work = project_copy(tmp_path)
    lessons.build_editions("teacher", work / "teacher")
    with voila_from(work, f"teacher/{LESSON}.ipynb", tmp_path / "voila.log") as url:
        body = open_page(page, url)
        html = page.content()
    assert "Teacher notes" in body and "janus-answer-key" in html
    key_answer = lessons._show(exercise_sets()[LESSON].q1.answer)
    assert key_answer in body
    with voila_from(work, f"notebooks/{LESSON}.ipynb", tmp_path / "voila2.log",
                    "--LessonPagePreprocessor.edition=teacher") as url:
        body = open_page(page, url)
    assert "Teacher notes" in body

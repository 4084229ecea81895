"""The class's pages folder that ``python -m janus_widgets classroom`` writes
(:func:`janus_widgets.classroom_cmd.build_pages`): it rewrites its own files and never
touches what the students and the teacher saved there."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from janus_widgets import classroom_cmd
from janus_widgets.classroom_cmd import MANIFEST, NOTEBOOKS, build_pages

LESSONS = ("jactus-odds.ipynb", "roman-dice.ipynb")


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """The project's notebooks, cut down to the pages and two lessons."""
    folder = tmp_path / "notebooks"
    folder.mkdir()
    for name in ("seat.ipynb", "teacher.ipynb", "voila.json", *LESSONS):
        shutil.copy(NOTEBOOKS / name, folder / name)
    return folder


def files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in folder.rglob("*") if p.is_file()}


def test_a_build_writes_the_pages_and_its_manifest(tmp_path, source):
    pages = tmp_path / "classroom-pages"
    written = build_pages(pages, source)
    names = [p.relative_to(pages).as_posix() for p in written]
    assert names[:2] == ["teacher.ipynb", "voila.json"]
    assert "seat.ipynb" not in names      # a student's seat is the table server's /seat
    assert {"lessons/jactus-odds.ipynb", "lessons/roman-dice.ipynb", "lessons/voila.json",
            "lessons/README.md"} <= set(names)
    manifest = json.loads((pages / MANIFEST).read_text())
    assert sorted(manifest["files"]) == sorted(names)
    assert set(files(pages)) == set(names) | {MANIFEST}      # no staging folder left


def test_building_twice_keeps_every_saved_file(tmp_path, source):
    pages = tmp_path / "classroom-pages"
    build_pages(pages, source)
    saves = pages / "janus-saves"
    saves.mkdir()
    (saves / "jactus-t1-seat-A.json").write_text('{"a student": "saved this"}')
    (saves / "janus-cards-full.json").write_text('{"the teacher": "saved this"}')
    (pages / "lessons" / "my-notes.md").write_text("the teacher's own")
    (pages / "teacher.ipynb").write_text("an old dashboard")      # a generated file
    mine = {k: v for k, v in files(pages).items() if k.startswith("janus-saves/")
            or k.endswith("my-notes.md")}
    build_pages(pages, source)
    build_pages(pages, source)
    after = files(pages)
    assert all(after[k] == v for k, v in mine.items())            # nothing of theirs lost
    assert after["teacher.ipynb"] == (source / "teacher.ipynb").read_bytes()  # rewritten


def test_a_lesson_no_longer_shipped_is_removed_unless_changed(tmp_path, source):
    pages = tmp_path / "classroom-pages"
    build_pages(pages, source)
    (source / "roman-dice.ipynb").unlink()
    build_pages(pages, source)
    assert not (pages / "lessons" / "roman-dice.ipynb").exists()
    assert (pages / "lessons" / "jactus-odds.ipynb").exists()
    shutil.copy(NOTEBOOKS / "roman-dice.ipynb", source / "roman-dice.ipynb")
    build_pages(pages, source)
    (pages / "lessons" / "roman-dice.ipynb").write_text("the teacher changed this")
    (source / "roman-dice.ipynb").unlink()
    build_pages(pages, source)                                    # changed: it stays
    assert (pages / "lessons" / "roman-dice.ipynb").read_text() == "the teacher changed this"


def test_no_manifest_or_a_bad_one_removes_nothing(tmp_path, source):
    pages = tmp_path / "classroom-pages"
    (pages / "janus-saves").mkdir(parents=True)
    (pages / "janus-saves" / "x.json").write_text("{}")
    (pages / "old.ipynb").write_text("{}")
    for manifest in ("not json", json.dumps({"files": {
            "janus-saves/x.json": classroom_cmd._digest(pages / "janus-saves" / "x.json"),
            "../outside.txt": "0", "/etc/passwd": "0"}})):
        (pages / MANIFEST).write_text(manifest)
        build_pages(pages, source)
        assert (pages / "janus-saves" / "x.json").read_text() == "{}"
        assert (pages / "old.ipynb").exists()


def test_a_build_that_fails_changes_nothing(tmp_path, source, monkeypatch):
    pages = tmp_path / "classroom-pages"
    build_pages(pages, source)
    (pages / "janus-saves").mkdir()
    (pages / "janus-saves" / "x.json").write_text("{}")
    (pages / "teacher.ipynb").write_text("an old dashboard")
    before = files(pages)
    from janus_widgets.analysis import lessons

    def broken(*args, **kwargs):
        raise ValueError("a lesson notebook cannot be read")
    monkeypatch.setattr(lessons, "build_editions", broken)
    with pytest.raises(ValueError, match="cannot be read"):
        build_pages(pages, source)
    assert files(pages) == before                                 # no staging folder left
    monkeypatch.undo()
    (pages / "lessons" / "README.md").unlink()
    (pages / "lessons" / "README.md").mkdir()                     # a folder in the way
    with pytest.raises(ValueError, match="is a folder"):
        build_pages(pages, source)
    assert (pages / "teacher.ipynb").read_text() == "an old dashboard"

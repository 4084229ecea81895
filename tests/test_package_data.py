"""The package's own data and version: where the notebooks and the rules texts are found,
``notebooks --out`` (what it writes, what it never overwrites, what it refuses), the
version every record names, and nbgrader run with the environment's tools."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import janus_widgets as jw
from conftest import ROOT
from janus_widgets import notebooks_cmd, resources
from janus_widgets.__main__ import main as cli
from janus_widgets.core import Record, RecordError
from janus_widgets.core.seat_record import SeatRecord
from janus_widgets.notebooks_cmd import MANIFEST, NotebooksError, write_notebooks


def _pyproject_version() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    return re.search(r'^version\s*=\s*"([^"]+)"', text, re.MULTILINE).group(1)


# --- where things are, which version -------------------------------------------------
def test_in_a_clone_the_folders_are_the_clones_own():
    assert resources.notebooks_folder() == ROOT / "notebooks"
    assert resources.seeds_folder() == ROOT / "seeds"
    assert resources.seed_path("jinns").read_text(encoding="utf-8").startswith("#")


def test_the_packaged_folders_come_first(tmp_path, monkeypatch):
    (tmp_path / "_data" / "notebooks").mkdir(parents=True)
    monkeypatch.setattr(resources, "PACKAGED", tmp_path / "_data")
    assert resources.notebooks_folder() == tmp_path / "_data" / "notebooks"
    assert resources.seeds_folder() == ROOT / "seeds"      # not packaged there: the clone's


def test_no_folder_anywhere_says_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.setattr(resources, "PACKAGED", tmp_path / "_data")
    monkeypatch.setattr(resources, "CLONE", tmp_path / "site-packages")
    with pytest.raises(FileNotFoundError, match="neither .*_data/notebooks.* nor "
                                                ".*site-packages/notebooks"):
        resources.notebooks_folder()


def test_a_folder_beside_an_installed_package_is_not_taken_for_a_clone(tmp_path, monkeypatch):
    (tmp_path / "notebooks").mkdir()                  # …/site-packages/notebooks
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "other"\n')
    monkeypatch.setattr(resources, "PACKAGED", tmp_path / "janus_widgets" / "_data")
    monkeypatch.setattr(resources, "CLONE", tmp_path)
    with pytest.raises(FileNotFoundError):
        resources.notebooks_folder()


def test_one_version_everywhere(capsys):
    assert jw.__version__ == resources.version() == _pyproject_version(), (
        f"the installed metadata says {jw.__version__}, pyproject.toml "
        f"{_pyproject_version()}: install again (dev.py does when pyproject.toml changes)")
    with pytest.raises(SystemExit):
        cli(["--version"])
    assert capsys.readouterr().out.strip() == f"janus_widgets {_pyproject_version()}"


# --- records say which version wrote them --------------------------------------------
def test_a_saved_record_names_its_writer_and_old_records_still_load(tmp_path):
    state = jw.new("jactus", players=2, seed=5).play("r*").play_chance()
    path = state.record().save(tmp_path / "game.json")
    data = json.loads(path.read_text())
    assert data["written_by"] == f"janus_widgets {jw.__version__}"
    assert jw.load(path).written_by == data["written_by"]
    del data["written_by"]                              # a record from before
    old = Record.from_dict(data)
    assert old.written_by is None and old.final_state() == state
    assert old.to_dict()["written_by"] == f"janus_widgets {jw.__version__}"  # saved again
    with pytest.raises(RecordError, match="'written_by' is 3: it names the version"):
        Record.from_dict({**data, "written_by": 3})


def test_a_seats_record_names_its_writer_too():
    state = jw.new("janus-cards", players=3, seed=2)
    mine = SeatRecord.from_state(state, 0)
    data = mine.to_dict()
    assert data["written_by"] == f"janus_widgets {jw.__version__}"
    assert SeatRecord.from_dict(data).written_by == data["written_by"]
    del data["written_by"]
    assert SeatRecord.from_dict(data).written_by is None


# --- notebooks --out -----------------------------------------------------------------
def _statuses(report) -> dict[str, str]:
    return {w.path.name: w.status for w in report}


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    """One student edition, written once (the other tests copy it)."""
    out = tmp_path_factory.mktemp("books") / "janus"
    write_notebooks(out)
    return out


def _copy(written: Path, tmp_path: Path) -> Path:
    import shutil
    out = tmp_path / "janus"
    shutil.copytree(written, out)
    return out


def test_notebooks_writes_the_tour_the_games_and_the_student_lessons(written):
    names = {p.name for p in written.glob("*.ipynb")}
    source = {p.name for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert names == source - {"seat.ipynb", "teacher.ipynb"}
    assert {"tour.ipynb", "jactus.ipynb", "jactus-odds.ipynb"} <= names
    for path in written.glob("*.ipynb"):
        tags = {t for c in json.loads(path.read_text())["cells"]
                for t in c["metadata"].get("tags", [])}
        assert not tags & {"teacher", "answer"}, f"{path.name} holds the teacher's cells"
    assert sorted(p.name for p in (written / "seeds").glob("*.md")) == sorted(
        p.name for p in (ROOT / "seeds").glob("*.md"))
    manifest = json.loads((written / MANIFEST).read_text())
    assert manifest["janus_widgets"] == jw.__version__ and manifest["edition"] == "student"
    assert set(manifest["files"]) == {p.relative_to(written).as_posix()
                                      for p in written.rglob("*") if p.is_file()
                                      and p.name != MANIFEST}
    assert "tour.ipynb" in (written / "README.md").read_text()
    assert not list(written.glob(".janus-notebooks-*")), "the staging folder stayed"
    assert oct(written.stat().st_mode & 0o777) != oct(0o700)      # not mkdtemp's mode


def test_again_it_changes_nothing_and_updates_only_what_it_wrote(written, tmp_path):
    out = _copy(written, tmp_path)
    assert set(_statuses(write_notebooks(out)).values()) == {"unchanged"}
    # a file of an earlier write that nobody changed since: updated
    manifest = json.loads((out / MANIFEST).read_text())
    (out / "jinns.ipynb").write_text("{}", encoding="utf-8")
    manifest["files"]["jinns.ipynb"] = notebooks_cmd._digest(b"{}")
    (out / MANIFEST).write_text(json.dumps(manifest))
    assert _statuses(write_notebooks(out))["jinns.ipynb"] == "updated"
    assert (out / "jinns.ipynb").read_bytes() == (ROOT / "notebooks" / "jinns.ipynb").read_bytes()


def test_a_file_the_user_changed_is_never_replaced_without_force(written, tmp_path):
    out = _copy(written, tmp_path)
    mine = out / "tour.ipynb"
    mine.write_text(mine.read_text() + " ", encoding="utf-8")
    (out / "jinns.ipynb").unlink()                      # would be written back…
    with pytest.raises(NotebooksError, match=r"1 file\(s\) .* tour.ipynb\. Nothing was "
                                             "written. Add --force"):
        write_notebooks(out)
    assert mine.read_text().endswith(" ")
    assert not (out / "jinns.ipynb").exists()           # …but nothing was written
    report = _statuses(write_notebooks(out, force=True))
    assert report["tour.ipynb"] == "replaced" and report["jinns.ipynb"] == "new"
    assert not mine.read_text().endswith(" ")


def test_a_file_it_did_not_write_is_not_replaced_either(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "tour.ipynb").write_text("my own tour", encoding="utf-8")
    with pytest.raises(NotebooksError, match="tour.ipynb"):
        write_notebooks(out)
    assert (out / "tour.ipynb").read_text() == "my own tour"
    assert sorted(p.name for p in out.iterdir()) == ["tour.ipynb"]


def test_another_version_or_edition_is_left_alone_without_force(written, tmp_path):
    out = _copy(written, tmp_path)
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["janus_widgets"] = "0.0.1"
    manifest["files"]["gone.ipynb"] = notebooks_cmd._digest(b"old")
    (out / "gone.ipynb").write_bytes(b"old")           # shipped by 0.0.1, unchanged
    (out / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(NotebooksError, match=r"student edition of janus_widgets 0\.0\.1's "
                                             rf"notebooks; this is the student edition of "
                                             rf"{re.escape(jw.__version__)}"):
        write_notebooks(out)
    report = _statuses(write_notebooks(out, force=True))
    assert report["gone.ipynb"] == "removed" and not (out / "gone.ipynb").exists()
    with pytest.raises(NotebooksError, match="holds the student edition .* this is the "
                                             "teacher edition"):
        write_notebooks(out, "teacher")


def test_bad_out_says_what_is_wrong_and_writes_nothing(tmp_path, monkeypatch, capsys):
    afile = tmp_path / "notes.txt"
    afile.write_text("x")
    assert cli(["notebooks", "--out", str(afile)]) == 2
    assert "is a file: the notebooks go into a folder" in capsys.readouterr().err
    assert cli(["notebooks", "--out", str(afile / "sub")]) == 2
    assert "is a file, so no folder can be made there" in capsys.readouterr().err
    locked = tmp_path / "locked"
    locked.mkdir()
    if os.geteuid() == 0:                      # root writes anywhere: deny it by os.access
        real = os.access
        monkeypatch.setattr(notebooks_cmd.os, "access",
                            lambda p, mode: False if Path(p) == locked else real(p, mode))
    else:
        locked.chmod(0o500)
    assert cli(["notebooks", "--out", str(locked / "janus")]) == 2
    assert "no write access to" in capsys.readouterr().err
    assert list(locked.iterdir()) == []
    with pytest.raises(SystemExit):
        cli(["notebooks", "--out", str(tmp_path / "x"), "--edition", "pupil"])
    assert "invalid choice: 'pupil'" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["locked", "notes.txt"]


def test_the_command_says_what_it_wrote(tmp_path, capsys):
    assert cli(["notebooks", "--out", str(tmp_path / "t"), "--edition", "teacher"]) == 0
    out = capsys.readouterr().out
    assert "teacher edition" in out and "new       tour.ipynb" in out
    assert f"jupyter lab {tmp_path / 't'}" in out
    key = json.loads((tmp_path / "t" / "jactus-odds.ipynb").read_text())
    assert any("answer" in c["metadata"].get("tags", []) for c in key["cells"])


# --- nbgrader with the environment's tools -------------------------------------------
def test_nbgrader_help_needs_no_nbgrader(capsys, monkeypatch):
    """`janus-widgets nbgrader --help` said "nbgrader is not installed…" (and failed)
    where nbgrader is not installed: the command's own help needs no nbgrader, and says
    how to install it; a real nbgrader command still says it is missing."""
    import importlib.util
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "nbgrader" else find_spec(name, *a))
    for asked in (["--help"], ["-h"], []):
        assert cli(["nbgrader", *asked]) == 0, asked
        out = capsys.readouterr().out
        assert "usage: " in out and "nbgrader [--help] ARGS" in out, out
        assert "generate_assignment lesson" in out and "alembic" in out
        assert ("nbgrader is not installed in this environment: pip install "
                "'janus_widgets[nbgrader]'") in out
    assert cli(["nbgrader", "generate_assignment", "lesson"]) == 2
    assert "nbgrader is not installed" in capsys.readouterr().err


@pytest.mark.slow
def test_nbgrader_runs_with_the_environments_tools_on_path(tmp_path):
    """nbgrader calls ``alembic`` by name; from an environment that is not activated
    ``nbgrader`` alone fails, ``janus-widgets nbgrader`` does not."""
    pytest.importorskip("nbgrader")
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PYTHONPATH": str(ROOT),
           "PATH": os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                                   if p != bin_dir)}
    bare = subprocess.run([str(Path(bin_dir) / "nbgrader"), "db", "student", "list"],
                          cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert bare.returncode != 0 and "alembic" in bare.stderr      # what a teacher meets
    (tmp_path / "gradebook.db").unlink(missing_ok=True)
    ours = subprocess.run([sys.executable, "-m", "janus_widgets", "nbgrader", "db",
                           "student", "list"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert ours.returncode == 0, ours.stderr[-2000:]
    assert "0 students" in ours.stdout

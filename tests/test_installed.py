"""The product as a teacher gets it: the wheel, installed into a fresh environment
outside the clone, with nothing of the clone on its path.

Once per session (a module-scoped fixture, one xdist worker): build the sdist and a
wheel from it (``python -m build``, as a release is built) and a wheel straight from
the tree, install the sdist's wheel, no extra, into a new virtual
environment (no ``--system-site-packages``: the product must install; pip reuses its
download cache and ``PIP_FIND_LINKS``), and there, from a folder that is not the
clone's, run the README's example, ``notebooks --out``, one lesson's student edition top
to bottom with nbclient, ``worksheet --pdf``, and ``classroom`` with one seat joining and
playing a move and a slip's seat page served with its first screen. Each step's seconds
go to ``test-artifacts/installed-timings.json``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.installed, pytest.mark.xdist_group("installed")]

#: The lesson run top to bottom in the installed environment.
LESSON = "jactus-odds"
TIMINGS = ROOT / "test-artifacts" / "installed-timings.json"


def _pyproject_version() -> str:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'^version\s*=\s*"([^"]+)"', text, re.MULTILINE)
    assert found, "pyproject.toml states no version"
    return found.group(1)


@dataclass
class Installed:
    """The fresh environment with the wheel installed, and where to work in it."""

    venv: Path
    work: Path
    sdist: Path
    wheel: Path                 # built from the sdist: the one installed
    tree_wheel: Path            # built from the clone's tree
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def bin(self) -> Path:
        return self.venv / ("Scripts" if os.name == "nt" else "bin")

    @property
    def python(self) -> Path:
        return self.bin / ("python.exe" if os.name == "nt" else "python")

    def env(self) -> dict[str, str]:
        """The environment a teacher's shell would give, with the venv activated and
        nothing of the clone or the project's venv on any path."""
        env = {k: v for k, v in os.environ.items()
               if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")
               and not k.startswith(("PYTEST_", "COV_"))}
        project_bin = str(Path(sys.executable).parent)
        rest = [p for p in env.get("PATH", "").split(os.pathsep) if p and p != project_bin]
        env["PATH"] = os.pathsep.join([str(self.bin), *rest])
        env["VIRTUAL_ENV"] = str(self.venv)
        env["JUPYTER_PLATFORM_DIRS"] = "1"
        return env

    def run(self, step: str, *args: str | Path, timeout: float = 300,
            check: bool = True, cwd: Path | None = None) -> subprocess.CompletedProcess:
        """Run a command of the venv (``args[0]`` a name in its bin, or a path), timed
        under ``step``."""
        exe = self.bin / str(args[0]) if not os.path.isabs(str(args[0])) else Path(args[0])
        start = time.monotonic()
        done = subprocess.run([str(exe), *map(str, args[1:])], cwd=cwd or self.work,
                              env=self.env(), capture_output=True, text=True,
                              timeout=timeout)
        self.timings[step] = round(self.timings.get(step, 0) + time.monotonic() - start, 2)
        if check:
            assert done.returncode == 0, (f"{step}: exit {done.returncode}\n"
                                          f"stdout: {done.stdout[-3000:]}\n"
                                          f"stderr: {done.stderr[-3000:]}")
        return done

    def python_code(self, step: str, code: str, *args: str, timeout: float = 300,
                    check: bool = True) -> subprocess.CompletedProcess:
        return self.run(step, self.python, "-c", code, *args, timeout=timeout, check=check)

    def save_timings(self) -> None:
        TIMINGS.parent.mkdir(exist_ok=True)
        TIMINGS.write_text(json.dumps(self.timings, indent=1) + "\n", encoding="utf-8")


def _timed(timings: dict[str, float], step: str, cmd: list[str], **kwargs) -> None:
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    timings[step] = round(time.monotonic() - start, 2)
    assert done.returncode == 0, f"{step}: {done.stdout[-3000:]}\n{done.stderr[-3000:]}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Iterator[Installed]:
    base = tmp_path_factory.mktemp("installed")
    assert ROOT not in base.parents, "the installed environment must lie outside the clone"
    timings: dict[str, float] = {}
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    _timed(timings, "build sdist, wheel from sdist",
           [sys.executable, "-m", "build", "--outdir", str(base / "dist"), str(ROOT)],
           env=env, timeout=600)
    _timed(timings, "build wheel from tree",
           [sys.executable, "-m", "build", "--wheel", "--outdir", str(base / "tree"),
            str(ROOT)], env=env, timeout=600)
    sdist = next((base / "dist").glob("*.tar.gz"))
    wheel = next((base / "dist").glob("*.whl"))
    tree_wheel = next((base / "tree").glob("*.whl"))
    venv_dir = base / "venv"
    _timed(timings, "make venv", [sys.executable, "-m", "venv", str(venv_dir)],
           env=env, timeout=300)
    work = base / "work"
    work.mkdir()
    box = Installed(venv_dir, work, sdist, wheel, tree_wheel, timings)
    # The plain wheel, no extra: `pip install janus_widgets` is the whole product, and
    # every test below (a lesson top to bottom, the classroom) runs on it.
    box.run("pip install wheel", box.python, "-m", "pip", "install", "--quiet",
            "--no-compile", str(wheel), timeout=900)
    yield box
    box.save_timings()


def test_both_wheels_hold_the_same_files_and_the_notebooks(installed):
    """The wheel built from the sdist and the one built from the tree are the same files,
    byte for byte, and carry every notebook and rules text of the repository."""
    def contents(path: Path) -> dict[str, str]:
        with zipfile.ZipFile(path) as z:
            return {n: hashlib.sha256(z.read(n)).hexdigest() for n in z.namelist()
                    if not n.endswith("/")}
    from_sdist, from_tree = contents(installed.wheel), contents(installed.tree_wheel)
    assert sorted(from_sdist) == sorted(from_tree), (
        "files only in one wheel: "
        f"{sorted(set(from_sdist) ^ set(from_tree))}")
    assert from_sdist == from_tree, "the two wheels hold the same names, other bytes"
    wanted = {f"janus_widgets/_data/notebooks/{p.name}" for p in
              (ROOT / "notebooks").glob("*.ipynb")}
    wanted |= {"janus_widgets/_data/notebooks/voila.json"}
    wanted |= {f"janus_widgets/_data/seeds/{p.name}" for p in (ROOT / "seeds").glob("*.md")}
    wanted |= {f"janus_widgets/_data/docs/{p.name}" for p in (ROOT / "docs").iterdir()
               if p.suffix in (".md", ".png")}
    assert wanted <= set(from_sdist), f"missing from the wheel: {sorted(wanted - set(from_sdist))}"
    packaged = {n for n in from_sdist if n.startswith("janus_widgets/_data/")}
    assert packaged == wanted, f"unexpected packaged files: {sorted(packaged - wanted)}"
    version = _pyproject_version()
    assert installed.wheel.name.startswith(f"janus_widgets-{version}-")
    assert installed.sdist.name == f"janus_widgets-{version}.tar.gz"


def test_the_installed_package_is_the_wheel_and_says_its_version(installed):
    done = installed.python_code("version", (
        "import json, janus_widgets as jw, janus_widgets.resources as r\n"
        "print(json.dumps({'file': jw.__file__, 'version': jw.__version__,\n"
        "                  'notebooks': str(r.notebooks_folder()),\n"
        "                  'seeds': str(r.seeds_folder()),\n"
        "                  'docs': str(r.docs_folder())}))"))
    got = json.loads(done.stdout)
    site = installed.venv / "lib"
    for key in ("file", "notebooks", "seeds", "docs"):
        assert site in Path(got[key]).parents, f"{key} is not the installed one: {got[key]}"
    assert got["version"] == _pyproject_version()
    cli = installed.run("version", "janus-widgets", "--version")
    assert cli.stdout.strip() == f"janus_widgets {_pyproject_version()}"


def test_the_readme_example_runs_in_the_installed_package(installed):
    done = installed.python_code("README example", (
        "import doctest, sys\n"
        "r = doctest.testfile(sys.argv[1], module_relative=False,\n"
        "                     optionflags=doctest.ELLIPSIS, report=True)\n"
        "print(r.attempted, r.failed)\n"
        "import janus_widgets as jw\n"
        "print(jw.load('game.json').written_by)"), str(ROOT / "README.md"))
    lines = done.stdout.strip().splitlines()
    attempted, failed = map(int, lines[-2].split())
    assert attempted >= 8 and failed == 0, done.stdout[-3000:]
    assert lines[-1] == f"janus_widgets {_pyproject_version()}"   # the record says who


def test_notebooks_out_writes_every_notebook_then_keeps_what_the_user_changed(installed):
    out = installed.work / "notebooks"
    done = installed.run("notebooks --out", "janus-widgets", "notebooks", "--out", out)
    expected = {p.name for p in (ROOT / "notebooks").glob("*.ipynb")} - {
        "seat.ipynb", "teacher.ipynb"}
    assert expected <= {p.name for p in out.glob("*.ipynb")}
    assert (out / "voila.json").is_file() and (out / "seeds" / "jactus.md").is_file()
    # every guide a notebook names (docs/…) is there beside it; no notebook names a
    # notebooks/ folder (the notebooks are this folder)
    for notebook in out.glob("*.ipynb"):
        text = notebook.read_text(encoding="utf-8")
        for guide in re.findall(r"docs/([a-z-]+\.md)", text):
            assert (out / "docs" / guide).is_file(), (notebook.name, guide)
        assert "notebooks/" not in text, notebook.name
    assert "tour.ipynb" in done.stdout and "student edition" in done.stdout
    manifest = json.loads((out / ".janus-notebooks.json").read_text())
    assert manifest["janus_widgets"] == _pyproject_version()
    mine = out / "tour.ipynb"
    mine.write_text(mine.read_text() + " ", encoding="utf-8")
    again = installed.run("notebooks again", installed.python, "-m", "janus_widgets",
                          "notebooks", "--out", out, check=False)
    assert again.returncode == 2 and "tour.ipynb" in again.stderr, again.stderr
    assert mine.read_text().endswith(" ")


def test_a_lessons_student_edition_runs_top_to_bottom(installed):
    folder = installed.work / "lesson"
    installed.run("lessons --edition student", "janus-widgets", "lessons", "--edition",
                  "student", "--out", folder)
    done = installed.python_code(f"nbclient {LESSON}", (
        "import sys, nbformat\n"
        "from nbclient import NotebookClient\n"
        "from janus_widgets.kernel_client import SlicedKernelManager\n"
        "nb = nbformat.read(sys.argv[1], as_version=4)\n"
        "NotebookClient(nb, timeout=300, kernel_name='python3',\n"
        "               kernel_manager_class=SlicedKernelManager,\n"
        "               resources={'metadata': {'path': sys.argv[2]}}).execute()\n"
        "tags = {t for c in nb.cells for t in c.metadata.get('tags', [])}\n"
        "errors = [o for c in nb.cells for o in c.get('outputs', [])\n"
        "          if o.get('output_type') == 'error']\n"
        "import json\n"
        "print(json.dumps({'cells': len(nb.cells), 'errors': len(errors),\n"
        "                  'hidden': sorted(tags & {'teacher', 'answer'})}))"),
        str(folder / f"{LESSON}.ipynb"), str(folder), timeout=600)
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got == {"cells": got["cells"], "errors": 0, "hidden": []} and got["cells"] > 5


def test_graded_lessons_are_written_without_nbgrader_installed(installed):
    """`lessons --format nbgrader` is a command of the plain install: it writes the graded
    notebooks (nbgrader's own metadata) with nothing more installed; only grading needs
    nbgrader itself (the `nbgrader` extra)."""
    folder = installed.work / "graded"
    missing = installed.python_code("no nbgrader", (
        "import importlib.util\nprint(importlib.util.find_spec('nbgrader') is None)"))
    assert missing.stdout.strip() == "True", "the plain install brought nbgrader"
    installed.run("lessons --format nbgrader", "janus-widgets", "lessons", "--format",
                  "nbgrader", "--out", folder)
    graded = json.loads((folder / f"{LESSON}.ipynb").read_text(encoding="utf-8"))
    assert any(c["metadata"].get("nbgrader", {}).get("grade") for c in graded["cells"])


def test_worksheet_prints_to_pdf(installed):
    installed.run("worksheet --pdf", "janus-widgets", "worksheet", LESSON, "--out",
                  "sheet.html", "--pdf", timeout=300)
    assert (installed.work / "sheet.pdf").read_bytes()[:5] == b"%PDF-"
    assert "<h1>" in (installed.work / "sheet.html").read_text(encoding="utf-8")


def _answers(url: str) -> bool:
    import urllib.request
    try:
        with urllib.request.urlopen(url, timeout=3) as reply:
            return reply.status == 200
    except OSError:
        return False


def test_classroom_starts_and_a_seat_joins_and_plays(installed):
    from browser_support import free_port

    from janus_widgets import classroom
    port = free_port()
    folder = installed.work / "class"
    folder.mkdir()
    token_file = folder / "token"
    log = folder / "classroom.log"
    start = time.monotonic()
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [str(installed.bin / "janus-widgets"), "classroom", "--port", str(port),
             "--pages-port", str(free_port()), "--db", str(folder / "classroom.sqlite"),
             "--teacher-token-file", str(token_file), "--bot-delay", "0.05"],
            cwd=folder, env=installed.env(), stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}"
        while not _answers(url + "/api/status") or not token_file.exists():
            assert proc.poll() is None, f"classroom stopped:\n{log.read_text()}"
            assert time.monotonic() - start < 180, f"not ready in 180 s:\n{log.read_text()}"
            time.sleep(0.3)
        installed.timings["classroom start"] = round(time.monotonic() - start, 2)
        done = installed.python_code("classroom seat plays", (
            "import sys\n"
            "from janus_widgets import classroom\n"
            "url, token = sys.argv[1], open(sys.argv[2]).read().strip()\n"
            "teacher = classroom.connect(url, token)\n"
            "t = teacher.create_table('jactus', players=2)\n"
            "seat = classroom.join(url, t.codes['A'])\n"
            "move = str(seat.legal_moves()[0])\n"
            "seat.play(move)\n"
            "seat.close()\n"
            "print(move, teacher.record(t.id).moves[0])"), url, str(token_file), timeout=120)
        move, recorded = done.stdout.split()[-2:]
        assert move == recorded
        # The seat page from the installed package: a slip's address brings its first
        # screen in the page, and the page's own files are there.
        teacher = classroom.connect(url, token_file.read_text().strip())
        code = teacher.create_table("janus", players=2, bots={1: "greedy"}).codes["A"]
        with urllib.request.urlopen(f"{url}/seat?code={code}", timeout=30) as reply:
            page = reply.read()
        assert b'id="first-screen"' in page and b'src="/seat/seat.js"' in page
        for own in ("seat.js", "seat.css", "icon.png"):
            with urllib.request.urlopen(f"{url}/seat/{own}", timeout=30) as reply:
                assert reply.status == 200 and reply.read(), own
        pages = folder / "classroom-pages"      # made from the packaged notebooks
        lesson = json.loads((pages / "lessons" / f"{LESSON}.ipynb").read_text())
        tags = {t for c in lesson["cells"] for t in c["metadata"].get("tags", [])}
        assert not tags & {"teacher", "answer"}, "a class page holds the teacher's cells"
    finally:
        proc.send_signal(signal.SIGINT)                # Ctrl-C: it stops Voila too
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)

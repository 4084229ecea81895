"""Heavy lesson studies computed once per class and shared (issue 35, item 3): the first
page computes a seeded study, every other page reads it, and pages asking at once wait for
the one computing instead of computing it again."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from janus_widgets.analysis import studies

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("JANUS_WIDGETS_CACHE", str(tmp_path))
    return tmp_path / "studies"


def counted(calls: list, n: int, seed: int = 0) -> list[int]:
    calls.append((n, seed))
    return [seed] * n


def test_a_study_is_computed_once_and_kept_by_its_arguments(folder):
    calls: list = []
    with pytest.raises(TypeError, match="has no stable key"):
        studies.shared(counted, object(), 2)
    one = lambda n, seed=0: counted(calls, n, seed)  # noqa: E731
    assert studies.shared(one, 3, seed=1) == [1, 1, 1]
    assert studies.shared(one, 3, seed=1) == [1, 1, 1]
    assert calls == [(3, 1)]
    assert studies.shared(one, 3, seed=2) == [2, 2, 2]          # another seed: another study
    assert studies.shared(one, n=3, seed=1) == [1, 1, 1]        # another spelling: another key
    assert calls == [(3, 1), (3, 2), (3, 1)]
    assert len(list(folder.glob("*.pickle"))) == 3 and not list(folder.glob("*.lock"))


def test_a_damaged_file_is_computed_again(folder):
    calls: list = []
    one = lambda n: counted(calls, n)  # noqa: E731
    studies.shared(one, 2)
    [kept] = folder.glob("*.pickle")
    kept.write_bytes(b"not a pickle")
    assert studies.shared(one, 2) == [0, 0] and len(calls) == 2


def test_a_folder_that_cannot_be_written_computes_on_the_page(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder would be")
    monkeypatch.setenv("JANUS_WIDGETS_CACHE", str(blocked))
    calls: list = []
    assert studies.shared(lambda n: counted(calls, n), 2) == [0, 0]
    assert len(calls) == 1


def test_pages_asking_at_once_compute_the_study_once(folder, tmp_path):
    script = tmp_path / "page.py"
    script.write_text(textwrap.dedent(f"""
        import os, sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from janus_widgets.analysis.studies import shared
        def slow_study(n, seed=0):
            with open({str(tmp_path / "computed")!r}, "a") as f:
                f.write(str(os.getpid()) + "\\n")
            time.sleep(1.5)
            return sum(range(n)) + seed
        print(shared(slow_study, 1000, seed=7))
    """))
    pages = [subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                              text=True, env=os.environ.copy()) for _ in range(6)]
    outs = [p.communicate(timeout=120)[0].strip() for p in pages]
    assert outs == [str(sum(range(1000)) + 7)] * 6
    assert len((tmp_path / "computed").read_text().split()) == 1


def test_game_design_lab_uses_the_shared_studies():
    import nbformat
    nb = nbformat.read(ROOT / "notebooks" / "game-design-lab.ipynb", as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert code.count("shared(compare_variants") == 3 and code.count("shared(find_flaws") == 3
    assert "= compare_variants(" not in code and "display(find_flaws(" not in code

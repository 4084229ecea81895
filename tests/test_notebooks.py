"""Every notebook runs top to bottom (nbclient), in a scratch copy of notebooks/."""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest

from conftest import ROOT
from helpers import notebook_client

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

# What a notebook must print, beyond running without an error.
PRINTS = {
    "bigger-studies": ["The cluster played the same 800 games as this notebook: True"],
}


def test_there_are_notebooks():
    names = {p.stem for p in NOTEBOOKS}
    assert {"tour", "jactus"} <= names


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_top_to_bottom(path: Path, tmp_path: Path):
    work = tmp_path / "notebooks"
    shutil.copytree(ROOT / "notebooks", work)
    nb = nbformat.read(work / path.name, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.get("outputs"), f"{path.name}: commit notebooks without outputs"
    client = notebook_client(nb, path=work, timeout=300)
    client.execute()
    for index, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            assert output.output_type != "error", (
                f"{path.name} cell {index}: {output.get('ename')}: {output.get('evalue')}")
    # A message says only what is true now: no cell leaves a refusal on a widget's status
    # line (a move tried in a later cell, perhaps one the page hides, is tried on a state).
    refused = [state["value"] for state in client.widget_state.values()
               if "janus-status" in state.get("_dom_classes", ())
               and "Refused" in state.get("value", "")]
    assert not refused, f"{path.name}: a status line still says {refused}"
    printed = "".join(output.get("text", "") for cell in nb.cells
                      for output in cell.get("outputs", []) if output.output_type == "stream")
    for text in PRINTS.get(path.stem, []):
        assert text in printed, f"{path.name} should print {text!r}"

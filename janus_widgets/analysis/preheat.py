"""A lesson's page ready before its student asks: the order a preheated page runs in.

The ``classroom`` command keeps a pool of each lesson of the day's pages warm (Voila's
``preheat_kernel``): a pool's kernel runs the page's notebook before any student asks,
and stops where the page first needs to know who it is for. There it waits for the
request (:func:`janus_widgets.analysis.class_link.wait_for_page`, called by everything
that reads the page's query string), then runs the rest with that student's id. So
the later that point comes, the less is left to do when 30 students open the page at
once.

A lesson's student page starts with its parameters cell, which reads the query string
(``STUDENT_ID``, the class's link, ``EXERCISES = exercise_sets(student=...)``).
:class:`PreheatPreprocessor` moves that cell down to just before the first cell that
needs it (that names something it defines, or defines something it reads), and puts a
cell first that seals the kernel, imports in advance the modules the cells after that
point import and draws the lesson's exercises for a made-up student, never shown (which
loads the studies and tables every student's numbers need:
:func:`~janus_widgets.analysis.class_link.warm_up`). Nothing that
depends on the student runs before the request: a cell that names none of the
parameters cell's names cannot see the student, and a cell that asks for the page's
class link or query string (the class experiment's panel) waits for the request itself.

>>> import nbformat
>>> nb = nbformat.v4.new_notebook(metadata={"janus_widgets": {"lesson": {"game": None}}})
>>> nb.cells = [nbformat.v4.new_code_cell("STUDENT_ID = None\\nEX = f(STUDENT_ID)",
...                                       metadata={"tags": ["parameters"]}),
...             nbformat.v4.new_code_cell("import numpy as np\\nboard = np.zeros(3)"),
...             nbformat.v4.new_code_cell("from json import dumps\\nshow(EX)")]
>>> out, _ = PreheatPreprocessor(enabled=True).preprocess(nb, {"metadata": {"name": "demo"}})
>>> [c.source.splitlines()[0] for c in out.cells]     # doctest: +NORMALIZE_WHITESPACE
['from janus_widgets.analysis.class_link import warm_up',
 'import numpy as np', 'STUDENT_ID = None', 'from json import dumps']
>>> out.cells[0].source.splitlines()[1]
"warm_up(['json'], lesson='demo')"
"""

from __future__ import annotations

import ast
import re
from typing import Any

from nbconvert.preprocessors import Preprocessor

__all__ = ["PreheatPreprocessor", "student_point", "WARM_UP_TAG"]

#: The tag of the cell :class:`PreheatPreprocessor` puts first.
WARM_UP_TAG = "janus-preheat"
_WORD = re.compile(r"[A-Za-z_]\w*")


def _python(source: str) -> ast.Module | None:
    """A cell's code as a syntax tree (IPython's ``%`` and ``!`` lines left out), or
    None if it is not Python (a cell magic)."""
    lines = [line for line in source.splitlines()
             if not line.lstrip().startswith(("%", "!"))]
    try:
        return ast.parse("\n".join(lines))
    except SyntaxError:
        return None


def _bound(tree: ast.AST) -> set[str]:
    """The names a piece of code binds (assigns, defines, imports, deletes)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
    return names


def _imported(tree: ast.AST) -> list[str]:
    """The absolute modules a piece of code imports, in order."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(node.module)
    return found


def student_point(cells: list[Any], parameters: int) -> int:
    """The index (in ``cells``) of the first code cell after ``parameters`` that needs
    it: one whose text names a name the parameters cell binds (in code, a string or a
    comment: it errs early), that binds a name the parameters cell reads, or that is
    not Python. ``len(cells)`` if none does.

    >>> import nbformat
    >>> cells = [nbformat.v4.new_code_cell(s) for s in
    ...          ("S = None\\nX = g(S)", "y = 1", "# the table\\nz = 2", "show(X)")]
    >>> student_point(cells, 0)
    3
    >>> cells[2].source = "g = print"          # rebinds what the parameters cell reads
    >>> student_point(cells, 0)
    2
    """
    tree = _python(cells[parameters].source)
    if tree is None:
        return parameters + 1
    binds = _bound(tree)
    reads = {n.id for n in ast.walk(tree)
             if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - binds
    for index in range(parameters + 1, len(cells)):
        cell = cells[index]
        if cell.cell_type != "code":
            continue
        other = _python(cell.source)
        if other is None or binds & set(_WORD.findall(cell.source)) or \
                reads & _bound(other):
            return index
    return len(cells)


class PreheatPreprocessor(Preprocessor):
    """An nbconvert preprocessor for a lesson page served from a pool of preheated
    kernels: its parameters cell moves down to :func:`student_point` and a warm-up cell
    (tagged :data:`WARM_UP_TAG`, no output) goes first. Off unless enabled
    (``--PreheatPreprocessor.enabled=True``, which the ``classroom`` command's Voila
    sets); a notebook that is no lesson, or has no cell tagged ``parameters``, passes
    unchanged. Register it after ``LessonPagePreprocessor`` (which puts the class's
    link into the parameters cell)."""

    def preprocess(self, nb: Any, resources: Any) -> tuple[Any, Any]:
        import nbformat
        from .lessons import PARAMETERS_TAG, lesson_meta
        if lesson_meta(nb) is None or any(WARM_UP_TAG in c.metadata.get("tags", [])
                                          for c in nb.cells):
            return nb, resources
        found = [i for i, c in enumerate(nb.cells)
                 if c.cell_type == "code" and PARAMETERS_TAG in c.metadata.get("tags", [])]
        if not found:
            return nb, resources
        first = found[0]
        point = student_point(nb.cells, first)
        modules: list[str] = []
        for cell in [nb.cells[first], *nb.cells[point:]]:
            tree = _python(cell.source) if cell.cell_type == "code" else None
            modules += [m for m in (_imported(tree) if tree else []) if m not in modules]
        cells = list(nb.cells)
        parameters = cells.pop(first)
        cells.insert(point - 1, parameters)
        name = str((resources or {}).get("metadata", {}).get("name") or "")
        lesson = f", lesson={name!r}" if re.fullmatch(r"[\w.-]+", name) else ""
        warm = nbformat.v4.new_code_cell(
            "from janus_widgets.analysis.class_link import warm_up\n"
            f"warm_up({modules!r}{lesson})", metadata={"tags": [WARM_UP_TAG]})
        if nb.get("nbformat_minor", 0) >= 5:
            warm["id"] = WARM_UP_TAG
        else:
            warm.pop("id", None)
        nb.cells = [warm, *cells]
        return nb, resources

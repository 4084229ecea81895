"""Imports run downward: drawing ← core ← games ← table ← widgets/analysis (GUIDE,
README's "How it is built"). Every import statement of the package is read with ``ast`` (those inside
functions and ``TYPE_CHECKING`` blocks too), and so is every string that names a module
by its dotted path (a way round the rule).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "janus_widgets"

#: Layer → the top-level parts of the package it must not import.
#: The Jupyter plumbing and the commands at the top: no layer below imports them.
TOP = ("interop", "kernel_client", "kernel_seal", "nodelay", "classroom", "classroom_cmd",
       "notebooks_cmd")
FORBIDDEN = {
    "drawing": ("core", "games", "table", "widgets", "analysis", *TOP),
    "core": ("games", "table", "widgets", "analysis", *TOP),
    "games": ("table", "widgets", "analysis", *TOP),
    # The game session and the table server: below the widgets that draw them and the
    # lessons that report to them.
    "table": ("widgets", "analysis", *TOP),
}
#: No module of a game imports ``widgets`` or ``analysis``, not even a widget entry: a
#: game's screen beyond its picture (panels, buttons) is data its ``draw.py`` makes, which
#: the screen model (``table/screen.py``) carries to the widget and the web seat page.


def module_name(path: Path) -> str:
    """``janus_widgets/core/bots.py`` → ``'janus_widgets.core.bots'``."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """Every module an import in ``source`` (the text of ``module``) names, absolute, with
    its line; ``from X import y`` gives ``X.y`` too (``y`` may be a module). Strings that
    are whole dotted paths into the package (``"janus_widgets.analysis.solve:bot"``) count.

    >>> imported("from ..drawing import Drawing\\nimport os", "janus_widgets.games.x.draw")
    [(1, 'janus_widgets.games.drawing'), (1, 'janus_widgets.games.drawing.Drawing'), (2, 'os')]
    >>> imported("def f():\\n    from ... import analysis", "janus_widgets.games.x.draw")
    [(2, 'janus_widgets'), (2, 'janus_widgets.analysis')]
    >>> imported("F = 'janus_widgets.analysis.solve:optimal_bot'", "janus_widgets.core.bots")
    [(1, 'janus_widgets.analysis.solve')]
    """
    tree = ast.parse(source)
    package = module.split(".") if is_package else module.split(".")[:-1]
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef,
                                       ast.ClassDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names
                      if alias.name != "*"]
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and id(node) not in docstrings and node.value.startswith("janus_widgets.")
              and " " not in node.value):
            found.append((node.lineno, node.value.partition(":")[0]))
    return sorted(found)


def violations(path: Path) -> list[str]:
    """What ``path`` imports against the direction of the layers."""
    module = module_name(path)
    parts = module.split(".")
    layer = parts[1] if len(parts) > 1 else ""
    if layer not in FORBIDDEN:
        return []
    out: dict[tuple[int, str], str] = {}     # one line per statement and part
    for line, name in imported(path.read_text(encoding="utf-8"), module,
                               path.name == "__init__.py"):
        names = name.split(".")
        if names[0] != "janus_widgets" or len(names) < 2:
            continue
        where = f"{path.relative_to(PACKAGE.parent)}:{line}"
        if names[1] in FORBIDDEN[layer]:
            out.setdefault((line, names[1]),
                           f"{where} imports {name} ({layer} sits below {names[1]})")
    return list(out.values())


def test_the_checker_sees_an_import_going_up(tmp_path):
    # the rule's own check can fail: an upward import inside a function is found
    source = "def draw():\n    from ...widgets.shell import GameWidget\n"
    assert ("janus_widgets.widgets.shell" in
            [name for _, name in imported(source, "janus_widgets.games.jinns.draw")])
    assert [name for _, name in imported("from .. import games\n", "janus_widgets.core.record")
            ] == ["janus_widgets", "janus_widgets.games"]


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_imports_run_downward(layer):
    files = sorted((PACKAGE / layer).rglob("*.py"))
    assert files, f"no modules under janus_widgets/{layer}"
    found = [v for path in files for v in violations(path)]
    assert not found, "imports that run up the layers:\n" + "\n".join(found)


def test_the_drawing_primitives_are_below_the_games():
    # what every draw.py returns comes from below the games (pgx's _src/dwg)
    for draw in sorted((PACKAGE / "games").glob("*/draw.py")):
        names = [name for _, name in imported(draw.read_text(encoding="utf-8"),
                                              module_name(draw))]
        assert "janus_widgets.drawing" in names, f"{draw} does not draw with janus_widgets.drawing"


def runtime_imports(path: Path) -> set[str]:
    """The package's modules ``path`` imports when it runs (at the top or inside a
    function), not the names it imports for type hints only (``if TYPE_CHECKING:``)."""
    module = module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hints = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
             and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
             for child in node.body for n in ast.walk(child)}
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    modules = {module_name(p) for p in PACKAGE.rglob("*.py")}
    found = set()
    for node in ast.walk(tree):
        if id(node) in hints or not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = (package[:len(package) - node.level + 1] if node.level else [])
            target = ".".join(base + ([node.module] if node.module else []))
            names = [target] + [f"{target}.{alias.name}" for alias in node.names]
        found |= {name for name in names if name in modules and name != module}
    return found


def test_no_module_of_core_imports_one_that_imports_it_back():
    """No import circle inside ``core`` (issue 25): protocol ← replay ← record ←
    seat_record, playout ← bots ← simulate. (States and replays make their records
    through ``protocol.RECORD_KEEPING``, which the record modules fill in.)"""
    core = {module_name(p): runtime_imports(p) for p in (PACKAGE / "core").glob("*.py")
            if p.name != "__init__.py"}
    graph = {m: {d for d in deps if d in core} for m, deps in core.items()}

    def circle(start: str) -> list[str] | None:
        path, seen = [start], set()

        def visit(m: str) -> list[str] | None:
            for d in sorted(graph[m]):
                if d == start:
                    return path + [d]
                if d not in seen:
                    seen.add(d)
                    path.append(d)
                    found = visit(d)
                    if found:
                        return found
                    path.pop()
            return None
        return visit(start)
    circles = [c for c in (circle(m) for m in sorted(graph)) if c]
    assert circles == [], " → ".join(circles[0]) if circles else ""


def test_no_game_module_is_a_widget():
    # the seat-pages issue: a game's package holds its rules, drawing and panels as data
    assert not sorted((PACKAGE / "games").glob("*/widget.py"))

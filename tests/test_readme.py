"""The README's example runs and shows what the README says it shows."""

from __future__ import annotations

import doctest

from conftest import ROOT


def test_the_readme_example_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                   # it saves game.json
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS, verbose=False, report=True)
    assert result.attempted >= 8, "the README's example lost its >>> lines"
    assert result.failed == 0, f"{result.failed} README example line(s) differ; see above"


def test_voila_started_in_notebooks_uses_the_sliced_kernel_client():
    """notebooks/voila.json names a client class that exists and is the sliced one."""
    import json

    from traitlets.utils.importstring import import_item

    from janus_widgets.kernel_client import SlicedKernelClient

    config = json.loads((ROOT / "notebooks" / "voila.json").read_text())
    assert import_item(config["KernelManager"]["client_factory"]) is SlicedKernelClient


def test_the_two_readme_commands_share_one_install(tmp_path, monkeypatch):
    """`dev.py lab` after `dev.py test` installs nothing again (the test extra includes
    what the lab command needs); `test` after `lab` does install (it needs more)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("dev", ROOT / "dev.py")
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    venv = tmp_path / ".venv"
    venv.mkdir()
    monkeypatch.setattr(dev, "VENV", venv)
    monkeypatch.setattr(dev, "ensure_venv", lambda: None)
    installs = []
    monkeypatch.setattr(dev, "run", lambda *cmd, **kw: installs.append(cmd))
    dev.ensure_installed("test")
    assert installs and (venv / ".installed-test").exists()
    installs.clear()
    dev.ensure_installed("lab")
    dev.ensure_installed("test")
    assert installs == []
    (venv / ".installed-test").unlink()
    dev.ensure_installed("lab")
    assert installs                                        # lab alone: installs lab
    installs.clear()
    dev.ensure_installed("test")
    assert installs                                        # test needs more than lab


def test_the_guides_commands_are_the_command_lines_own(capsys):
    """Every ``janus-widgets …`` command the guides give a teacher (the class day's
    steps, the README) parses as the command line takes it: a renamed option would
    otherwise leave a teacher with a guide that fails on the day."""
    import re
    import shlex

    from janus_widgets.__main__ import build_parser
    parser = build_parser()
    said = []
    for guide in (ROOT / "docs" / "class-day.md", ROOT / "README.md",
                  ROOT / "docs" / "lessons.md", ROOT / "docs" / "classroom-server.md"):
        text = guide.read_text(encoding="utf-8")
        # in prose (between the code blocks) a line break is a space: an inline
        # `command` broken over two lines is one command
        parts = text.split("```")
        text = "```".join(part if k % 2 else part.replace("\n", " ")
                          for k, part in enumerate(parts))
        for line in re.findall(r"(?:janus-widgets|python -m janus_widgets) ([^`\n#]+)", text):
            words = shlex.split(line.replace("\\", " "))
            if not words or words[0] == "nbgrader" or any(
                    w.isupper() or "…" in w or "<" in w or w.startswith("[")
                    for w in words):
                continue                         # a placeholder (GAME, ARGS…) or nbgrader's
            said.append((guide.name, words))
    assert len([w for g, w in said if g == "class-day.md"]) >= 4
    for guide, words in said:
        try:
            parser.parse_args(words)
        except SystemExit as exc:                  # --version, --help: 0
            if not exc.code:
                continue
            raise AssertionError(f"{guide}: `janus-widgets {' '.join(words)}` is not a "
                                 "command the command line takes") from None

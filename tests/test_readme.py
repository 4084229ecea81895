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

#!/usr/bin/env python3
"""Set up and use janus_widgets with nothing but Python 3.

    python3 dev.py lab     # install, then open the notebooks in JupyterLab
    python3 dev.py test    # install, then run every test (browser tests included)

Both make a virtual environment in ``.venv`` (once) and install the package
into it in editable mode; a later run only reinstalls when ``pyproject.toml``
changed. Extra arguments are passed on to pytest or JupyterLab
(``python3 dev.py test -k jactus``, ``python3 dev.py lab --port 8899 --no-browser``
on a machine without a display).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
CHROMIUM = os.environ.get("JANUS_CHROMIUM", "/usr/bin/chromium")


def say(text: str) -> None:
    print(f"[dev.py] {text}", flush=True)


def run(*cmd: str | Path, **kwargs) -> None:
    subprocess.run([str(c) for c in cmd], check=True, **kwargs)


def ensure_venv() -> None:
    if not PYTHON.exists():
        if sys.version_info < (3, 10):
            sys.exit("janus_widgets needs Python 3.10 or newer; this is "
                     + sys.version.split()[0])
        say(f"creating the virtual environment {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)


#: The extras an install of each extra brings too (pyproject.toml: test includes lab).
COVERS = {"lab": ("lab",), "test": ("test", "lab")}


def ensure_installed(extra: str) -> None:
    ensure_venv()
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    # An install is up to date when this extra, or one that includes it, was installed
    # from this pyproject.toml (so `lab` after `test` installs nothing again).
    for done, covered in COVERS.items():
        stamp = VENV / f".installed-{done}"
        if extra in covered and stamp.exists() and stamp.read_text() == digest:
            return
    stamp = VENV / f".installed-{extra}"
    say(f"installing janus_widgets[{extra}] into .venv (first run takes a few minutes)")
    run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    run(PYTHON, "-m", "pip", "install", "--quiet", "-e", f".[{extra}]", cwd=ROOT)
    stamp.write_text(digest)


def ensure_chromium() -> None:
    """The browser tests drive Debian's Chromium; install it when we may."""
    if Path(CHROMIUM).exists():
        return
    apt = shutil.which("apt-get")
    if apt and hasattr(os, "geteuid") and os.geteuid() == 0:
        say("installing Debian's chromium for the browser tests")
        run(apt, "update", "-qq")
        run(apt, "install", "-y", "-qq", "chromium", env={**os.environ,
                                                           "DEBIAN_FRONTEND": "noninteractive"})
        return
    sys.exit(f"The browser tests need Chromium at {CHROMIUM}. Install it (Debian/Ubuntu: "
             "sudo apt-get install chromium) or set JANUS_CHROMIUM to its path.")


def lab(args: list[str]) -> None:
    ensure_installed("lab")
    say("opening the notebooks in JupyterLab (Ctrl-C stops it)")
    # Jupyter refuses to start as root unless told (containers and CI machines run as root).
    as_root = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    # As if .venv were activated: tools that JupyterLab's extensions and terminals call by
    # name (nbgrader's formgrader calls alembic) are the environment's.
    os.environ["PATH"] = os.pathsep.join(p for p in (str(BIN), os.environ.get("PATH")) if p)
    os.environ["VIRTUAL_ENV"] = str(VENV)
    os.execv(str(BIN / "jupyter"), [str(BIN / "jupyter"), "lab",
                                    f"--notebook-dir={ROOT / 'notebooks'}", *as_root, *args])


def test(args: list[str]) -> None:
    ensure_installed("test")
    ensure_chromium()
    env = {**os.environ, "JANUS_CHROMIUM": CHROMIUM}
    # Two workers (the browser tests stay together on one of them); `-n 0` turns it off.
    parallel = [] if any(a.startswith("-n") for a in args) else ["-n", "2",
                                                                  "--dist", "loadgroup"]
    result = subprocess.run([str(PYTHON), "-m", "pytest", *parallel, *args], cwd=ROOT,
                            env=env)
    sys.exit(result.returncode)


def main() -> None:
    commands = {"lab": lab, "test": test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()

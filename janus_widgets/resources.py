"""Where the package's notebooks and rules texts are, and which version this is.

The repository's ``notebooks/`` (the tour, the game notebooks, the lessons, the class's
pages) and ``seeds/`` (the rules in our own words) are the one source of truth. A wheel
carries them inside the package as ``janus_widgets/_data/notebooks`` and
``janus_widgets/_data/seeds`` (``pyproject.toml`` maps them there when it builds); in a
clone (an editable install, or the package on ``sys.path``) they are the clone's own
folders. Everything that needs them asks :func:`notebooks_folder` or
:func:`seeds_folder`, never a path of its own.

Standard library only and importing nothing of the package, so that any layer may use it.

>>> (notebooks_folder() / "tour.ipynb").is_file()
True
>>> sorted(p.name for p in seeds_folder().glob("*.md"))[:2]
['jactus.md', 'janus-cards.md']
>>> version() == __version__
True
"""

from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

__all__ = ["DISTRIBUTION", "PACKAGED", "CLONE", "notebooks_folder", "seeds_folder",
           "docs_folder", "seed_path", "version", "__version__", "NOTEBOOKS", "SEEDS"]

#: The name the package is installed under (``pip install janus_widgets``).
DISTRIBUTION = "janus_widgets"
_PACKAGE = Path(__file__).resolve().parent
#: Where a wheel puts the notebooks and the seeds: inside the package.
PACKAGED = _PACKAGE / "_data"
#: The clone this package sits in, when it is one (its ``pyproject.toml`` names us).
CLONE = _PACKAGE.parent


def _is_clone(root: Path) -> bool:
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return False
    return re.search(rf'^name\s*=\s*"{DISTRIBUTION}"', text, re.MULTILINE) is not None


def _find(name: str) -> Path | None:
    """The packaged folder ``name`` if this is an installed wheel, else the clone's."""
    packaged = PACKAGED / name
    if packaged.is_dir():
        return packaged
    cloned = CLONE / name
    if cloned.is_dir() and _is_clone(CLONE):
        return cloned
    return None


def _folder(name: str, what: str) -> Path:
    found = _find(name)
    if found is None:
        raise FileNotFoundError(
            f"janus_widgets has no {what}: neither {PACKAGED / name} (where an installed "
            f"package keeps them) nor {CLONE / name} (a clone's) is there. Reinstall the "
            f"package (pip install --force-reinstall {DISTRIBUTION}) or run it from a "
            "clone of the repository")
    return found


def notebooks_folder() -> Path:
    """The folder of the tour, the game notebooks, the lessons and the class's pages
    (with their ``voila.json``). A clear ``FileNotFoundError`` if there is none."""
    return _folder("notebooks", "notebooks folder")


def docs_folder() -> Path:
    """The folder of the guides (``classroom-server.md``, ``lessons.md``, …)."""
    return _folder("docs", "guides (docs)")


def seeds_folder() -> Path:
    """The folder of the rules in our own words (``jactus.md``, …)."""
    return _folder("seeds", "rules texts (seeds)")


def seed_path(game: str) -> Path:
    """The rules text of ``game`` (``seed_path("jinns")`` → ``…/seeds/jinns.md``)."""
    return seeds_folder() / f"{game}.md"


def version() -> str:
    """This package's version: the installed metadata's (the wheel's); in a clone that
    is not installed, the version its ``pyproject.toml`` states."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        pass
    try:
        text = (CLONE / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return "0+unknown"
    found = re.search(r'^version\s*=\s*"([^"]+)"', text, re.MULTILINE)
    return found.group(1) if found else "0+unknown"


__version__ = version()
#: The notebooks folder found at import (where it should be if none is: then
#: :func:`notebooks_folder` raises and says so).
NOTEBOOKS = _find("notebooks") or PACKAGED / "notebooks"
#: The seeds folder found at import (likewise).
SEEDS = _find("seeds") or PACKAGED / "seeds"

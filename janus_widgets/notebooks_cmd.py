"""``janus-widgets notebooks --out DIR``: the package's notebooks in a folder of the user's.

Writes the tour, the game notebooks and every lesson (the student or the teacher
edition), with the lessons' ``voila.json``, the rules in our words (``seeds/``), the
guides (``docs/``) and an index ``README.md``, ready to open in JupyterLab. The folder keeps a manifest
(:data:`MANIFEST`: the version and edition written, and each file's SHA-256), so that

* running it again (say, after ``pip install -U janus_widgets``) updates the files it
  wrote and that nobody changed since;
* a file the user changed, or one it did not write, is never replaced without
  ``force`` (nothing at all is written then, and the error names the files);
* a folder holding another version's or another edition's notebooks is left alone
  without ``force``.

Everything is made in a temporary folder first and moved into place only when all of it
is made and every check has passed: a bad ``--out`` (a file, a folder without write
access) writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from .resources import __version__, docs_folder, notebooks_folder, seeds_folder

__all__ = ["write_notebooks", "Written", "MANIFEST", "EDITIONS", "CLASS_PAGES",
           "NotebooksError"]

#: The manifest a write leaves in the folder.
MANIFEST = ".janus-notebooks.json"
#: The editions of the lessons.
EDITIONS = ("student", "teacher")
#: Notebooks that are the class's pages (made by ``classroom``), not for this folder.
CLASS_PAGES = frozenset({"seat.ipynb", "teacher.ipynb"})


class NotebooksError(ValueError):
    """What is wrong with a ``notebooks --out`` request; nothing was written."""


@dataclass(frozen=True)
class Written:
    """One file of the folder and what the write did to it: ``new``, ``updated`` (ours,
    unchanged by the user, now this version's), ``unchanged`` (already this content),
    ``replaced`` (changed by the user, or not ours: replaced with ``force``) or
    ``removed`` (written by an earlier version, unchanged, no longer shipped)."""

    path: Path
    status: str


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_manifest(folder: Path) -> dict[str, Any] | None:
    """The folder's manifest, or None if it has none. An unreadable one is an error (it
    says the folder was ours, and what it holds cannot be told)."""
    path = folder / MANIFEST
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        files = data["files"]
        if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                  for k, v in files.items()):
            raise ValueError("'files' is not a map of paths to digests")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise NotebooksError(f"{path} cannot be read ({exc}): it lists what an earlier "
                             "write put here. Remove it and give --force, or give "
                             "another --out") from None
    safe = {}
    for rel, digest in files.items():
        pure = PurePosixPath(rel)
        if pure.parts and not pure.is_absolute() and ".." not in pure.parts:
            safe[pure.as_posix()] = digest
    return {"version": str(data.get("janus_widgets", "?")),
            "edition": str(data.get("edition", "?")), "files": safe}


def _stage(staging: Path, edition: str) -> dict[str, bytes]:
    """Make every file of ``edition`` in ``staging``; returns them by relative path."""
    from .analysis import lessons
    source = notebooks_folder()
    lessons.build_editions(edition, staging)
    lesson_names = {les.path.name for les in lessons.lessons()}
    others = sorted(p for p in source.glob("*.ipynb")
                    if p.name not in lesson_names and p.name not in CLASS_PAGES)
    for path in others:
        shutil.copyfile(path, staging / path.name)
    (staging / "seeds").mkdir()
    for path in sorted(seeds_folder().glob("*.md")):
        shutil.copyfile(path, staging / "seeds" / path.name)
    (staging / "docs").mkdir()               # the guides the notebooks name (docs/…)
    for path in sorted(docs_folder().glob("*.md")):
        shutil.copyfile(path, staging / "docs" / path.name)
    index = (staging / "README.md").read_text(encoding="utf-8").splitlines()
    rows = [f"# janus_widgets {__version__}: notebooks and lessons ({edition} edition)", "",
            "Open this folder in JupyterLab (`jupyter lab`) and start with "
            "[tour.ipynb](tour.ipynb). The rules of each game, in our words and numbered, "
            "are in [seeds/](seeds/); the guides (the classroom server, the lessons, "
            "the metrics, …) in [docs/](docs/).", "", "| notebook |", "|---|"]
    rows += [f"| [{p.stem}]({p.name}) |" for p in others]
    rows += ["", "#" + index[0], *index[1:], "",
             f"Written by `janus-widgets notebooks` ({MANIFEST} lists the files; running "
             "it again updates those you have not changed and never replaces one you "
             "changed without --force)."]
    (staging / "README.md").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return {p.relative_to(staging).as_posix(): p.read_bytes()
            for p in sorted(staging.rglob("*")) if p.is_file()}


def _check_target(target: Path) -> Path:
    """The folder ``target`` or its nearest existing parent, checked: a folder we may
    write in. Raises :class:`NotebooksError` saying what is wrong."""
    if target.exists() and not target.is_dir():
        raise NotebooksError(f"--out {str(target)!r} is a file: the notebooks go into a "
                             "folder (a new one, or one this command wrote before)")
    existing = target
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise NotebooksError(f"--out {str(target)!r}: {existing} is a file, so no folder "
                             "can be made there")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise NotebooksError(f"--out {str(target)!r}: no write access to {existing}; give "
                             "a folder of yours (e.g. in your home folder)")
    return existing


def write_notebooks(out: str | os.PathLike[str], edition: str = "student", *,
                    force: bool = False) -> list[Written]:
    """Write the tour, the game notebooks and the lessons' ``edition`` into ``out``
    (see the module's text); returns what happened to each file. Raises
    :class:`NotebooksError` (nothing written) for a bad ``out``, files the user changed
    (unless ``force``), or a folder of another version or edition (unless ``force``)."""
    if edition not in EDITIONS:
        raise NotebooksError(f"edition {edition!r} is not one: use " + " or ".join(EDITIONS))
    target = Path(out).expanduser().absolute()
    existing = _check_target(target)
    old = _read_manifest(target) if target.is_dir() else None
    if old is not None and not force and (old["version"], old["edition"]) != (
            __version__, edition):
        raise NotebooksError(
            f"{target} holds the {old['edition']} edition of janus_widgets "
            f"{old['version']}'s notebooks; this is the {edition} edition of {__version__}. "
            "Give another --out, or add --force to replace them (files you changed there "
            "are replaced too)")
    known = old["files"] if old is not None else {}
    try:
        staging_parent = target if target.is_dir() else existing
        staging = Path(tempfile.mkdtemp(prefix=".janus-notebooks-", dir=staging_parent))
        umask = os.umask(0)
        os.umask(umask)
        staging.chmod(0o777 & ~umask)        # mkdtemp's 0700 would stay on a new folder
    except OSError as exc:
        raise NotebooksError(f"--out {str(target)!r}: cannot write there ({exc})") from None
    try:
        made = _stage(staging, edition)
        report: list[Written] = []
        conflicts = []
        for rel, data in made.items():
            path = target / rel
            if path.is_dir() or any(p.exists() and not p.is_dir()
                                    for p in path.parents if target in p.parents):
                raise NotebooksError(f"{path} is in the way (a folder where a file goes, "
                                     "or a file where a folder goes): move it away and "
                                     "run again")
            if not path.exists():
                report.append(Written(path, "new"))
                continue
            now = _digest(path.read_bytes())
            if now == _digest(data):
                report.append(Written(path, "unchanged"))
            elif known.get(rel) == now:
                report.append(Written(path, "updated"))
            else:
                conflicts.append(rel)
                report.append(Written(path, "replaced"))
        if conflicts and not force:
            shown = ", ".join(conflicts[:8]) + (" …" if len(conflicts) > 8 else "")
            raise NotebooksError(
                f"{len(conflicts)} file(s) in {target} were changed since this command "
                f"wrote them, or it did not write them: {shown}. Nothing was written. "
                "Add --force to replace them, or give another --out")
        stale = [rel for rel, digest in known.items() if rel not in made
                 and (target / rel).is_file()
                 and _digest((target / rel).read_bytes()) == digest]
        manifest = json.dumps({"about": "the files `janus-widgets notebooks` wrote here; "
                                        "it replaces only these, and only while unchanged",
                               "janus_widgets": __version__, "edition": edition,
                               "files": {rel: _digest(d) for rel, d in made.items()}},
                              indent=1) + "\n"
        (staging / MANIFEST).write_text(manifest, encoding="utf-8")
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging, target)          # the whole folder at once
        else:
            for rel in [*made, MANIFEST]:
                (target / rel).parent.mkdir(parents=True, exist_ok=True)
                os.replace(staging / rel, target / rel)
            for rel in stale:
                (target / rel).unlink()
                report.append(Written(target / rel, "removed"))
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return report


def main(args: Any) -> int:
    """The ``notebooks`` command: write, then say what was written."""
    try:
        report = write_notebooks(args.out, args.edition, force=args.force)
    except NotebooksError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    target = Path(args.out).expanduser().absolute()
    counts = {s: sum(w.status == s for w in report) for s in
              ("new", "updated", "replaced", "removed", "unchanged")}
    said = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    print(f"janus_widgets {__version__} notebooks, {args.edition} edition, in {target}: "
          f"{said}")
    for w in report:
        if w.status != "unchanged":
            print(f"  {w.status:9} {w.path.relative_to(target).as_posix()}")
    print(f"Open them: jupyter lab {target}   (start with tour.ipynb)")
    return 0

"""Heavy lesson studies computed once and shared by every page that shows them.

A lesson's studies are seeded, so every page of a class shows the same figures: the
first page to ask computes a study and keeps it on disk; every other page (and the next
lesson) reads it. When 30 pages ask at once, one computes and the others wait for it,
instead of 30 kernels playing the same games on two cores.

The folder is ``$JANUS_WIDGETS_CACHE/studies`` (the ``classroom`` command's pages use one
folder for the whole class), else the user's cache folder
(``platformdirs.user_cache_dir("janus_widgets")``). A study is keyed by the function, its
arguments and the package's code, so a changed rule or an upgrade computes it anew. When
the folder cannot be written, the study is computed on the page as before.

>>> import tempfile, os
>>> os.environ["JANUS_WIDGETS_CACHE"] = tempfile.mkdtemp()
>>> calls = []
>>> def study(n, seed=0):
...     calls.append(n)
...     return [seed] * n
>>> shared(study, 3, seed=1), shared(study, 3, seed=1), calls
([1, 1, 1], [1, 1, 1], [3])
>>> del os.environ["JANUS_WIDGETS_CACHE"]
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import pickle
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["shared", "cache_dir", "study_key", "WAIT"]

log = logging.getLogger("janus_widgets.studies")
T = TypeVar("T")

#: Seconds a page waits for another page computing the same study before it computes it
#: itself (a page that died while computing leaves its lock behind).
WAIT = 600.0
_CODE: str | None = None


def cache_dir() -> Path:
    """Where shared studies are kept: ``$JANUS_WIDGETS_CACHE/studies``, else the user's
    cache folder's ``studies``."""
    env = os.environ.get("JANUS_WIDGETS_CACHE")
    if env:
        return Path(env) / "studies"
    import platformdirs
    return Path(platformdirs.user_cache_dir("janus_widgets")) / "studies"


def _code() -> str:
    """The package's version and source, read once: a study made by other code is
    another study."""
    global _CODE
    if _CODE is None:
        from .. import __version__
        digest = hashlib.sha256(__version__.encode())
        root = Path(__file__).resolve().parent.parent
        for path in sorted(root.rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
        _CODE = digest.hexdigest()
    return _CODE


def _plain(value: Any) -> Any:
    """An argument as JSON-able data; refuses what has no stable written form."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    raise TypeError(f"a shared study's arguments are numbers, strings, lists and dicts; "
                    f"{value!r} ({type(value).__name__}) has no stable key")


def study_key(compute: Callable[..., Any], *args: Any, **kwargs: Any) -> str:
    """The study's key: the function's name, its arguments and the package's code.

    >>> study_key(len, [1, 2]) == study_key(len, (1, 2)) != study_key(len, [2, 1])
    True
    """
    name = f"{getattr(compute, '__module__', '?')}.{getattr(compute, '__qualname__', compute)}"
    text = json.dumps({"study": name, "args": _plain(list(args)), "kwargs": _plain(kwargs),
                       "code": _code()}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _read(path: Path) -> tuple[bool, Any]:
    try:
        with open(path, "rb") as f:
            return True, pickle.load(f)
    except FileNotFoundError:
        return False, None
    except Exception:  # noqa: BLE001 - a damaged file is computed anew
        log.warning("a shared study at %s could not be read; computing it again", path)
        return False, None


def shared(compute: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``compute(*args, **kwargs)``, computed once for every page and kept on disk.

    The arguments make the key (numbers, strings, lists, dicts: a seeded study is the
    same on every page). While another page computes the same study, this one waits for
    its result (up to :data:`WAIT` seconds).
    """
    key = study_key(compute, *args, **kwargs)
    folder = cache_dir()
    path, lock = folder / f"{key}.pickle", folder / f"{key}.lock"
    found, value = _read(path)
    if found:
        return value
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        log.warning("no folder for shared studies (%s); computing on this page", exc)
        return compute(*args, **kwargs)
    deadline = time.monotonic() + WAIT
    while True:
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:                       # another page is computing it
            found, value = _read(path)
            if found:
                return value
            if time.monotonic() > deadline:
                log.warning("a page computing %s left it unfinished; computing here", key)
                try:
                    lock.unlink()
                except FileNotFoundError:
                    pass
                deadline = time.monotonic() + WAIT
                continue
            time.sleep(0.2)
            continue
        except OSError as exc:
            log.warning("shared studies cannot be locked (%s); computing on this page", exc)
            return compute(*args, **kwargs)
        try:
            os.close(fd)
            found, value = _read(path)                # written while this page looked
            if found:
                return value
            value = compute(*args, **kwargs)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            try:
                with open(tmp, "wb") as f:
                    pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(tmp, path)
            except (OSError, pickle.PicklingError, TypeError, AttributeError) as exc:
                log.warning("a shared study could not be kept (%s)", exc)
                try:
                    tmp.unlink()
                except OSError:
                    pass
            return value
        finally:
            try:
                lock.unlink()
            except FileNotFoundError:
                pass

"""``python -m janus_widgets classroom``: the table server and the class's pages at once.

One command for a lesson at many screens. It writes the pages a class opens into a
folder of their own (the seat page, the teacher's dashboard and every lesson's
*student* edition, never a lesson's source, which holds the teacher's notes and
answers), starts the table server, a Voila server for that folder (every page but the
dashboard) and one for the teacher's dashboard alone, on this machine's loopback address
unless the teacher asks for another (``--dashboard-host``), prints the addresses (never
the teacher's token, nor an address that holds it: the dashboard's is written to a page
beside the database that only the teacher may read, and opened in the teacher's browser
unless ``--no-browser``: :mod:`janus_widgets.teacher_link`). Both Voilas are guarded (:mod:`janus_widgets.voila_guard`). Ctrl-C
stops them all; starting it again with the same database brings every table back, and
rewrites only the pages it wrote (what the pages saved in ``janus-saves/`` stays).

**The lessons of the day, ready at once** (``--lesson roman-dice --students 30``): the
class's Voila keeps ``--students`` pages of each lesson named prepared in advance (Voila's
preheated kernels: :func:`pool_settings`): each page's kernel has started and run the
lesson up to the student's own numbers, so a student's page only has those left to do
when it is opened (:mod:`janus_widgets.analysis.preheat`). The command prints what the
pages cost in memory and when they are ready; pages taken are made again in the
background, a few at a time. A page opened when none is ready starts on its own, as
every page does without ``--lesson``.

**One classroom a database**: a classroom (or ``serve``) holds its database for as long
as it runs (:func:`hold_database`: an OS lock on a file beside it, which the OS lets go
of when the process ends, even killed), so a second one started in the same folder says
where the first one is and stops before it touches the database, the pages or the
dashboard's link.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any

from .resources import NOTEBOOKS, notebooks_folder
from . import teacher_link
from .widgets.pages import PINNED_SERVER
from .table.page_pass import key_file
from .table.server import address_for_pages, default_token_file, run_until_stopped

__all__ = ["main", "build_pages", "voila_command", "voila_servers", "pool_settings",
           "lesson_pools", "hold_database", "run_holding", "DatabaseInUse", "lock_file",
           "check_ports", "classroom_ports", "PortError", "NOTEBOOKS", "MANIFEST", "PAGE_MB",
           "STUDENTS", "POOL_STATUS"]

# NOTEBOOKS: the package's notebooks (the pages are made from them; janus_widgets.resources
# finds the packaged ones, or a clone's notebooks/).


def build_pages(folder: Path, source: Path | None = None, *,
                title: str | None = None) -> list[Path]:
    """Write the class's pages into ``folder``: ``teacher.ipynb`` (the dashboard's own
    Voila renders it; with ``title``, the title its page has in the browser's tab:
    :func:`dashboard_title`), ``voila.json`` and ``lessons/<lesson>.ipynb``, the student
    edition of each lesson (with the lessons' ``voila.json`` and ``README.md``); returns
    the files written.

    Only these files are rewritten: whatever else the folder holds stays, above all
    ``janus-saves/`` (what the students and the teacher saved from the pages). A file
    an earlier build wrote (listed in :data:`MANIFEST`) that this one no longer writes,
    such as a lesson no longer shipped, is removed, unless it was changed since. The
    pages are made beside the folder's files first: if that fails, nothing changes."""
    from .analysis import lessons
    source = notebooks_folder() if source is None else source
    if not (source / "teacher.ipynb").exists():
        raise FileNotFoundError(f"the class's pages are made from the package's notebooks, "
                                f"and {source} has no teacher.ipynb: give the folder of "
                                "janus_widgets' notebooks, or reinstall the package")
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"the class's pages go into a folder, and {folder} is a file: "
                         "give another --pages")
    folder.mkdir(parents=True, exist_ok=True)
    before = _manifest(folder)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".building-") as tmp:
        staging = Path(tmp)
        for name in PAGES:
            shutil.copy(source / name, staging / name)
        if title is not None:
            _retitle(staging / "teacher.ipynb", title)
        lessons.build_editions("student", staging / "lessons", folder=source)
        made = list(PAGES) + sorted(
            p.relative_to(staging).as_posix() for p in (staging / "lessons").rglob("*")
            if p.is_file())
        for rel in made:                    # check every target before changing one
            target = folder / rel
            for parent in [p for p in target.parents if folder in p.parents]:
                if parent.exists() and not parent.is_dir():
                    raise ValueError(f"{parent} is a file; the class's pages need a "
                                     f"folder there: move it away and start again")
            if target.is_dir():
                raise ValueError(f"{target} is a folder; the class's pages write a file "
                                 "there: move it away and start again")
        digests = {rel: _digest(staging / rel) for rel in made}
        for rel in made:
            target = folder / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / rel, target)
    for rel, digest in before.items():
        stale = folder / rel
        if rel not in digests and stale.is_file() and _digest(stale) == digest:
            stale.unlink()
    _write_manifest(folder, digests)
    return [folder / rel for rel in made]


def _retitle(notebook: Path, title: str) -> None:
    """Give ``notebook`` the ``title`` its Voila page shows (in the browser's tab): the
    notebook's ``title`` metadata, which Voila's page takes instead of the file's name."""
    page = json.loads(notebook.read_text(encoding="utf-8"))
    page.setdefault("metadata", {})["title"] = title
    notebook.write_text(json.dumps(page, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")


def dashboard_title(args: Any) -> str:
    """The title of a classroom's dashboard in the browser's tab: which classroom, by
    its table server's address as the dashboard knows it (:func:`table_server_address`),
    so that two classes' dashboards are not both "teacher".

    >>> from argparse import Namespace
    >>> dashboard_title(Namespace(host="192.0.2.2", port=19010, certfile=None))
    'Classroom · 192.0.2.2:19010'
    """
    return "Classroom · " + table_server_address(args).split("://", 1)[-1]


#: The pages ``build_pages`` copies from the project's notebooks (the dashboard's given
#: its classroom's title).
#: The students' seats are the table server's own static page (``/seat``): no kernel per
#: student. Voila serves only what runs Python for a student (the lessons) and, in a
#: Voila of its own, the teacher's dashboard.
PAGES = ("teacher.ipynb", "voila.json")
#: The list of the files the last build wrote (a path and its SHA-256 each), in the
#: pages' folder: all a later build may remove.
MANIFEST = ".janus-pages.json"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _manifest(folder: Path) -> dict[str, str]:
    """The files an earlier build wrote, by the manifest it left (none if there is no
    readable one: then nothing is removed). Only plain paths inside the folder, never
    one in the pages' save folder (``janus-saves/``)."""
    from .widgets.records_panel import SAVE_FOLDER
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    out = {}
    for rel, digest in files.items():
        pure = PurePosixPath(rel) if isinstance(rel, str) else None
        if pure is None or not isinstance(digest, str) or pure.is_absolute() or \
                ".." in pure.parts or not pure.parts or pure.parts[0] == SAVE_FOLDER:
            continue
        out[pure.as_posix()] = digest
    return out


def _write_manifest(folder: Path, digests: dict[str, str]) -> None:
    text = json.dumps({"about": "the files python -m janus_widgets classroom wrote here "
                                "(it rewrites only these; the rest is yours)",
                       "files": digests}, indent=1) + "\n"
    partial = folder / (MANIFEST + ".partial")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, folder / MANIFEST)


class DatabaseInUse(RuntimeError):
    """The database cannot be held for this process: another classroom or table
    server runs on it (or no lock file can be made beside it)."""


def lock_file(db: str | Path) -> Path:
    """The lock file a running classroom or table server holds beside its database.

    >>> lock_file("class/classroom.sqlite").as_posix()
    'class/classroom.sqlite.lock'
    """
    return Path(f"{db}.lock")


#: What each command that holds a database is, in the message a second one gets.
HOLDERS = {"classroom": "another classroom", "serve": "a table server (janus-widgets serve)"}


@contextlib.contextmanager
def hold_database(db: str | Path, command: str, address: str) -> Iterator[Path]:
    """Hold ``db`` for this process while the ``with`` block runs: an exclusive
    ``flock`` on :func:`lock_file`, which the OS releases when the process ends however
    it ends (a file left by a process killed with ``kill -9`` holds nothing). The file
    says who holds it (``command``, its ``address``, the process id; never a token),
    for the message :class:`DatabaseInUse` gives a second one. Where the OS has no
    ``flock`` (Windows), nothing is held."""
    try:
        import fcntl
    except ImportError:                      # pragma: no cover - Windows
        yield lock_file(db)
        return
    path = lock_file(db)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise DatabaseInUse(f"cannot make the lock file {path} beside the database "
                            f"({exc.strerror or exc}): start in a folder you may write "
                            "to, or give another --db") from None
    with os.fdopen(fd, "r+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise DatabaseInUse(_held_by(handle.read(), db)) from None
        try:
            handle.seek(0)
            handle.truncate()
            handle.write(json.dumps({"command": command, "address": address,
                                     "pid": os.getpid()}) + "\n")
            handle.flush()
            yield path
        finally:
            handle.seek(0)
            handle.truncate()            # the lock goes when the file is closed
            handle.flush()


def _held_by(text: str, db: str | Path) -> str:
    """The message for a second classroom on ``db``, from its lock file's ``text``.

    >>> import os; here = os.path.join(os.getcwd(), "classroom.sqlite")
    >>> print(_held_by('{"command": "classroom", "address": "http://10.0.0.5:8866", '
    ...                '"pid": 41}', here))  # doctest: +NORMALIZE_WHITESPACE
    another classroom is running in this folder (database classroom.sqlite; its table
    server at http://10.0.0.5:8866, process 41): stop it (Ctrl-C in its terminal), or
    start this one in a folder of its own; two at once would overwrite each other's
    tables, pages and dashboard link
    >>> print(_held_by("", "/srv/3b/c.sqlite"))  # doctest: +NORMALIZE_WHITESPACE
    another classroom is running in /srv/3b (database c.sqlite): stop it (Ctrl-C in its
    terminal), or start this one in a folder of its own; two at once would overwrite
    each other's tables, pages and dashboard link
    """
    try:
        holder = json.loads(text)
    except ValueError:
        holder = {}
    holder = holder if isinstance(holder, dict) else {}
    who = HOLDERS.get(str(holder.get("command")), "another classroom")
    database = Path(db).resolve()
    folder = ("this folder" if database.parent == Path.cwd().resolve()
              else str(database.parent))
    known = [f"database {database.name}"]
    if isinstance(holder.get("address"), str) and holder["address"]:
        known.append(f"its table server at {holder['address']}")
    if isinstance(holder.get("pid"), int):
        known[-1] += f", process {holder['pid']}"
    return (f"{who} is running in {folder} ({'; '.join(known)}): stop it (Ctrl-C in its "
            "terminal), or start this one in a folder of its own; two at once would "
            "overwrite each other's tables, pages and dashboard link")


def run_holding(db: str | Path, command: str, address: str, run: Callable[[], int]) -> int:
    """``run()`` while holding ``db`` (:func:`hold_database`); 1, after saying why on
    stderr, when another classroom or table server holds it."""
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(hold_database(db, command, address))
        except DatabaseInUse as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
        return run()


class PortError(ValueError):
    """A port the classroom needs is taken, out of range, or given twice."""


def classroom_ports(args: Any) -> list[tuple[str, str, int, str]]:
    """The three ports a classroom listens on, each as the option that sets it, the
    address it listens on, the port and what it is for: ``--port`` N (the table
    server), the lesson pages N+1 and the dashboard N+2 unless ``--pages-port`` and
    ``--dashboard-port`` say otherwise (the dashboard's port follows the pages')."""
    pages_port = getattr(args, "pages_port", None) or args.port + 1
    dashboard_host = getattr(args, "dashboard_host", None) or "127.0.0.1"
    dashboard_port = getattr(args, "dashboard_port", None) or pages_port + 1
    return [("--port", args.host, args.port, "the table server"),
            ("--pages-port", args.host, pages_port, "the lesson pages"),
            ("--dashboard-port", dashboard_host, dashboard_port, "your dashboard")]


def listen_error(host: str, port: int) -> OSError | None:
    """Why a server could not listen on ``host:port`` now (None: it could), found the
    way the servers listen (tornado's ``bind_sockets``), the sockets closed at once."""
    from tornado.netutil import bind_sockets
    try:
        sockets = bind_sockets(port, address=host or None)
    except OSError as exc:
        return exc
    for sock in sockets:
        sock.close()
    return None


def check_ports(args: Any, error: Callable[[str, int], OSError | None] = listen_error,
                ) -> None:
    """Raise :class:`PortError` (which port, what it is for, what is wrong with it, and
    a value to give instead) unless every port of the classroom (:func:`classroom_ports`)
    is a port, its own, and free to listen on: checked before anything starts.

    >>> from argparse import Namespace
    >>> taken = lambda host, port: OSError(98, "Address in use") if port == 19011 else None
    >>> check_ports(Namespace(host="0.0.0.0", port=19010), taken)
    Traceback (most recent call last):
    ...
    janus_widgets.classroom_cmd.PortError: port 19011 (the lesson pages) is in use; a classroom needs 19010, 19011 and 19012 free: choose another --port, such as 19020
    """
    import errno
    ports = classroom_ports(args)
    given = {option for option, *_ in ports
             if option == "--port" or getattr(args, option[2:].replace("-", "_"), None)}
    numbers = [port for _, _, port, _ in ports]
    needs = f"a classroom needs {numbers[0]}, {numbers[1]} and {numbers[2]} free"
    for option, host, port, what in ports:
        change = option if option in given else "--port"
        if not 1 <= port <= 65535:
            raise PortError(f"port {port} ({what}) is not a port (they go from 1 to "
                            f"65535); {needs}: choose another {change}"
                            + _instead(args, change, error, start=8860))
    for k, (option, _, port, what) in enumerate(ports):
        for other_option, _, other_port, other_what in ports[k + 1:]:
            if port == other_port:
                raise PortError(f"port {port} is given to {what} ({option}) and to "
                                f"{other_what} ({other_option}): each needs a port of "
                                "its own")
    for option, host, port, what in ports:
        problem = error(host, port)
        if problem is None:
            continue
        start = None
        change = option if option in given else "--port"
        if problem.errno == errno.EADDRINUSE:
            said = f"port {port} ({what}) is in use; {needs}"
        elif problem.errno == errno.EACCES:
            said = (f"port {port} ({what}) is the administrator's only (as every port "
                    f"below 1024 is); {needs}")
            start = 8860
        elif problem.errno == errno.EADDRNOTAVAIL or isinstance(problem, socket.gaierror):
            host_option = "--dashboard-host" if option == "--dashboard-port" else "--host"
            raise PortError(f"{host_option} {host} ({what}) is not an address of this "
                            "machine: give one of its addresses, 0.0.0.0 for all of them, "
                            "or 127.0.0.1 for this machine only")
        else:
            said = (f"cannot listen on {host}:{port} ({what}): "
                    f"{problem.strerror or problem}; {needs}")
        raise PortError(f"{said}: choose another {change}"
                        + _instead(args, change, error, start=start))


def _instead(args: Any, option: str, error: Callable[[str, int], OSError | None], *,
             start: int | None = None, tries: int = 40) -> str:
    """", such as N": a value of ``option`` with which every port of the classroom is
    free (the round ten above ``start``, by default the port now, or the next round
    tens), or "" if none of ``tries`` is."""
    import argparse
    attribute = option[2:].replace("-", "_")
    if start is None:
        start = {o: port for o, _, port, _ in classroom_ports(args)}[option]
    for k in range(1, tries + 1):
        value = (start // 10 + k) * 10
        ports = classroom_ports(argparse.Namespace(**{**vars(args), attribute: value}))
        numbers = [port for _, _, port, _ in ports]
        if len(set(numbers)) == 3 and all(1 <= n <= 65535 for n in numbers) and all(
                error(host, port) is None for _, host, port, _ in ports):
            return f", such as {value}"
    return ""


def _lan_address() -> str:
    """This machine's address on the class's network (for the printed links)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))        # no packet is sent
            return s.getsockname()[0]
    except OSError:
        return socket.gethostbyname(socket.gethostname())


def _wait(url: str, proc: subprocess.Popen, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"Voila stopped at start (exit code {proc.returncode})")
        try:
            with urllib.request.urlopen(url, timeout=3):
                return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"Voila did not answer at {url} within {timeout:.0f} s")


#: What one prepared lesson page holds in memory, in MB, for the figure printed before
#: the pages are ready (measured on this project's lessons, 30 pages each: 147-167 MB a
#: page; the command prints the measured total once they are ready).
PAGE_MB = 170
#: Lessons whose pages hold more than :data:`PAGE_MB` (measured the same way):
#: solving-jactus keeps the solved game in every page, 8.4 GB for 30 pages.
LESSON_PAGE_MB = {"solving-jactus": 290}
#: The class size ``--students`` defaults to, and the largest it takes.
STUDENTS = 30
MAX_STUDENTS = 200
#: The file (in the class Voila's runtime folder) where it writes its pools' state.
POOL_STATUS = "janus-pools.json"
#: The preprocessors of a lesson's page in the class's Voila (the student's edition,
#: then the order a preheated page runs in).
PREPROCESSORS = ("janus_widgets.analysis.lessons.LessonPagePreprocessor",
                 "janus_widgets.analysis.preheat.PreheatPreprocessor")


def lesson_pools(lessons: list[str] | tuple[str, ...], students: int,
                 available: list[str]) -> dict[str, int]:
    """The pools for ``--lesson`` names and ``--students``: the lesson's page in the
    class's folder → how many pages to keep ready; a clear error for a name that is
    no lesson or a class size out of range.

    >>> lesson_pools(["roman-dice"], 30, ["jactus-odds", "roman-dice"])
    {'lessons/roman-dice.ipynb': 30}
    >>> lesson_pools(["roman"], 30, ["jactus-odds", "roman-dice"])
    Traceback (most recent call last):
    ...
    ValueError: --lesson roman is not a lesson; the lessons are jactus-odds, roman-dice
    """
    if isinstance(students, bool) or not isinstance(students, int) or \
            not 1 <= students <= MAX_STUDENTS:
        raise ValueError(f"--students {students!r} is not a class size: give a whole "
                         f"number from 1 to {MAX_STUDENTS}")
    pools: dict[str, int] = {}
    for name in lessons:
        stem = name[:-6] if name.endswith(".ipynb") else name
        if stem not in available:
            raise ValueError(f"--lesson {name} is not a lesson; the lessons are "
                             + ", ".join(sorted(available)))
        pools[f"lessons/{stem}.ipynb"] = students
    return pools


def pool_settings(pools: dict[str, int], students: int,
                  status_file: Path | None = None) -> list[str]:
    """Voila's settings for ``pools`` (a page in the served folder → pages kept ready),
    for a class of ``students``: preheated kernels for those pages only, the order a
    preheated page runs in, and caps that leave room for the pools and one page per
    student beyond them (``max_kernels``, which bounds the memory).

    >>> settings = pool_settings({"lessons/roman-dice.ipynb": 30}, 30)
    >>> "--VoilaConfiguration.preheat_kernel=True" in settings
    True
    >>> [s for s in settings if "max_kernels=" in s]
    ['--GuardedKernelManager.max_kernels=70']
    """
    settings = [f"--VoilaExporter.preprocessors={name}" for name in PREPROCESSORS]
    if not pools:
        return settings
    settings += [
        "--VoilaConfiguration.preheat_kernel=True",
        "--VoilaConfiguration.default_pool_size=0",
        *[f"--GuardedKernelManager.pools={page}={size}" for page, size in pools.items()],
        "--PreheatPreprocessor.enabled=True",
        f"--GuardedKernelManager.max_kernels={max_kernels(pools, students)}",
        f"--GuardedKernelManager.max_kernels_per_page={max(40, students + 10)}"]
    if status_file is not None:
        settings.append(f"--GuardedKernelManager.pool_status_file={status_file}")
    return settings


def max_kernels(pools: dict[str, int], students: int) -> int:
    """The class's Voila's kernels at most: the pools, a page for every student taken
    from them, and 10 more (at least the 60 of a Voila without pools).

    >>> max_kernels({"lessons/a.ipynb": 30}, 30)
    70
    """
    return max(60, sum(pools.values()) + students + 10)


def voila_command(folder: Path, host: str, port: int, *, page: str | None = None,
                  refused: tuple[str, ...] = (), pools: dict[str, int] | None = None,
                  students: int = STUDENTS, status_file: Path | None = None,
                  pages_key_file: str | None = None) -> list[str]:
    """The command that serves ``folder`` (or only its notebook ``page``) with Voila on
    ``host:port``, guarded (:func:`janus_widgets.nodelay.run_voila`: theme and template
    overrides off, the security headers, the kernel caps), never rendering ``refused``;
    with ``pools`` (page → pages kept ready), preheated (:func:`pool_settings`)."""
    command = [sys.executable, "-m", "janus_widgets.nodelay", page or str(folder),
               "--no-browser", f"--port={port}", f"--Voila.ip={host}",
               "--Voila.port_retries=0"]
    command += [f"--GuardedKernelManager.refused_pages={name}" for name in refused]
    if pages_key_file:     # a lesson slip's pass counts a student's pages, not an address's
        command.append(f"--GuardedKernelManager.pages_key_file={pages_key_file}")
    if page is None:
        command += pool_settings(pools or {}, students, status_file)
    return command


def _pages_key_file(db: str | None) -> str | None:
    """The class's pages key beside the database (:mod:`.table.page_pass`), as a path
    the pages' Voila finds from its own folder."""
    kept = key_file(db) if db else None
    return str(Path(kept).resolve()) if kept else None


def _local(host: str) -> str:
    """The address to reach a server listening on ``host`` from this machine."""
    return "127.0.0.1" if host in ("0.0.0.0", "::", "") else host


def table_server_address(args: Any) -> str:
    """The table server's address as the dashboard's link names it (this machine's
    network address when it listens on every address)."""
    shown = _lan_address() if args.host in ("0.0.0.0", "::") else args.host
    return f"{_scheme(args)}://{shown}:{args.port}"


def _scheme(args: Any) -> str:
    return "https" if getattr(args, "certfile", None) else "http"


def voila_servers(args: Any, folder: Path) -> list[tuple[list[str], dict[str, str], str]]:
    """The two Voila servers of a classroom, each as its command, its environment and
    the address that answers once it is up: the class's pages (every page of ``folder``
    but the teacher's dashboard) on ``--host``, and the dashboard alone on
    ``--dashboard-host``, this machine's loopback address unless the teacher asks for
    another (another origin, out of the class's reach). The dashboard's is told the
    lessons of the day (``--lesson``), which its *Lesson codes* menu offers first, and
    the class size (``--students``), its number of students."""
    from .widgets.dashboard import CLASS_SIZE, LESSONS_OF_THE_DAY
    _, (_, _, pages_port, _), (_, dashboard_host, dashboard_port, _) = classroom_ports(args)
    pools = getattr(args, "pools", None) or {}
    students = getattr(args, "students", None) or STUDENTS
    return [
        (voila_command(folder, args.host, pages_port, refused=("teacher.ipynb",),
                       pools=pools, students=students,
                       status_file=folder / ".runtime" / POOL_STATUS,
                       pages_key_file=_pages_key_file(getattr(args, "db", None))),
         # The lessons join this classroom's table server only: a link naming another
         # would have a page's kernel, on this computer, send requests wherever it says.
         {**os.environ, "JUPYTER_RUNTIME_DIR": str(folder / ".runtime"),
          PINNED_SERVER: address_for_pages(args.host, args.port, _scheme(args))},
         f"http://{_local(args.host)}:{pages_port}/voila/static/voila.js"),
        (voila_command(folder, dashboard_host, dashboard_port, page="teacher.ipynb"),
         {**os.environ, "JUPYTER_RUNTIME_DIR": str(folder / ".runtime-dashboard"),
          # The dashboard talks to this classroom's table server only: a link naming
          # another server (where the token typed would go) is refused by the page.
          PINNED_SERVER: table_server_address(args),
          LESSONS_OF_THE_DAY: ",".join(PurePosixPath(page).stem for page in pools),
          CLASS_SIZE: str(students)},
         f"http://{_local(dashboard_host)}:{dashboard_port}/voila/static/voila.js")]


def main(args: Any) -> int:
    """Run the classroom until Ctrl-C, holding its database (:func:`hold_database`):
    1 at once if another classroom or table server runs on it."""
    return run_holding(args.db, "classroom", table_server_address(args),
                       lambda: _run(args))


def quiet_terminal(verbose: bool) -> None:
    """Keep the classroom's terminal (maybe on the projector) to what the teacher needs.
    The table server runs in this process, where nothing set up Python's logging: each
    request it refuses (4xx) reached the terminal as a line of tornado's, through
    logging's last resort ("404 GET /voila/static/voila.js (127.0.0.1) 0.59ms", once
    for each poll of another classroom's start). Without ``--verbose`` only a
    request's line for a server error (5xx) shows; with it, every request's and
    every note of the server's (as ``serve`` shows them), with Voila's own log."""
    import logging
    if verbose:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    else:
        logging.getLogger("tornado.access").setLevel(logging.ERROR)


def _run(args: Any) -> int:
    """Run the classroom until Ctrl-C (its database held)."""
    quiet_terminal(bool(getattr(args, "verbose", False)))
    host = args.host
    _, (_, _, pages_port, _), (_, dashboard_host, dashboard_port, _) = classroom_ports(args)
    folder = Path(args.pages or Path(args.db).resolve().parent / "classroom-pages")
    import importlib.util
    if importlib.util.find_spec("voila") is None:
        print("error: the lessons and the dashboard run in Voila, which janus_widgets "
              "installs with itself but this environment lacks: pip install voila (or "
              "start the table server alone with: python -m janus_widgets serve)",
              file=sys.stderr)
        return 2
    try:
        check_ports(args)
        written = build_pages(folder, title=dashboard_title(args))
        lessons_here = sorted(p.stem for p in (folder / "lessons").glob("*.ipynb"))
        args.students = getattr(args, "students", None) or STUDENTS
        args.pools = lesson_pools(getattr(args, "lesson", None) or [], args.students,
                                  lessons_here)
    except (OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    status_file = folder / ".runtime" / POOL_STATUS
    status_file.parent.mkdir(parents=True, exist_ok=True)
    status_file.unlink(missing_ok=True)
    args.pools = {page: size for page, size in say_memory(args.pools, args.students).items()
                  if size}
    shown = _lan_address() if host in ("0.0.0.0", "::") else host
    pages_url = f"http://{shown}:{pages_port}"
    dashboard_shown = _lan_address() if dashboard_host in ("0.0.0.0", "::") \
        else dashboard_host
    dashboard_url = f"http://{dashboard_shown}:{dashboard_port}/"
    quiet: dict[str, Any] = {"stdout": subprocess.DEVNULL if not args.verbose else None,
                             "stderr": subprocess.STDOUT if not args.verbose else None}
    voilas = [(subprocess.Popen(command, cwd=folder, env=env, **quiet), url)
              for command, env, url in voila_servers(args, folder)]

    def stop_voilas() -> None:
        for voila, _ in voilas:
            voila.terminate()
        for voila, _ in voilas:
            try:
                voila.wait(timeout=15)
            except subprocess.TimeoutExpired:
                voila.kill()

    try:
        for voila, url in voilas:
            _wait(url, voila)
    except RuntimeError as exc:
        stop_voilas()
        print(f"error: {exc}", file=sys.stderr)
        return 1

    def ready(url: str, token: str) -> None:
        # Nothing printed here holds the teacher's token: the terminal may be on the
        # projector. The dashboard's address, token and all, goes to a page beside the
        # database that only the teacher may read, opened in their browser.
        server_url = url.replace("0.0.0.0", shown)
        lessons = sorted(p.stem for p in (folder / "lessons").glob("*.ipynb"))
        print(f"Table server at {server_url} (database {args.db})")
        print(f"Pages for the class at {pages_url}/ (folder {folder}, {len(written)} files)")
        print(f"  students' seats:  {server_url}/seat (the join slips hold each "
              "student's address and QR code)")
        if host in ("127.0.0.1", "localhost", "::1"):
            print(f"  This machine only: the slips' addresses ({host}) open on no "
                  "student's device. To let the class in, start again with --host "
                  "0.0.0.0 (the slips then carry this machine's network address).")
        print(f"  lessons (student editions): {pages_url}/voila/render/lessons/NAME.ipynb "
              f"for {', '.join(lessons)}. A student's answers reach your tally from the "
              "address on their lesson slip (the dashboard's Lesson codes); at this "
              "address they are not sent, and the page says so.")
        kept = args.teacher_token_file or default_token_file(args.db)
        print(f"Teacher's token kept in {kept} (readable by you only; never shown here)")
        page = teacher_link.write_dashboard_file(
            teacher_link.dashboard_file(args.db),
            teacher_link.dashboard_address(dashboard_url, server_url, token))
        where = "this machine only" if dashboard_host in ("127.0.0.1", "localhost", "::1") \
            else dashboard_host
        opened = (not getattr(args, "no_browser", False) and teacher_link.has_display()
                  and teacher_link.open_dashboard(page))
        print(f"Your dashboard ({where}): "
              + ("opened in your browser; to open it again, open " if opened else "open ")
              + f"{page} in your browser (it holds your token: readable by you only)")
        if not args.pools and not getattr(args, "lesson", None):
            print(f"  Lesson pages start when a student opens them; {STUDENTS} at once "
                  "take minutes. Name the lesson of the day to have its pages ready: "
                  "--lesson NAME [--students N].")
        print("Ctrl-C stops them all.", flush=True)
        if args.pools:
            threading.Thread(target=report_pools, args=(status_file, args.pools),
                             daemon=True, name="janus-pools").start()

    try:
        code = run_until_stopped(args, ready, pages=pages_url)
    finally:
        stop_voilas()
    if code:
        return code
    print("Classroom stopped: the table server and the pages; every table is in the "
          "database.", flush=True)
    return 0


#: The share of the free memory the prepared pages may take at the start: the rest is
#: for the pages taken and made again, and for everything else the machine runs.
FIT_SHARE = 0.8


def _gb(mb: float) -> str:
    return f"{mb / 1024:.1f} GB" if mb >= 1024 else f"{mb:.0f} MB"


def page_mb(page: str) -> int:
    """What one prepared page of lesson ``page`` holds in memory, in MB (an estimate).

    >>> page_mb("lessons/solving-jactus.ipynb"), page_mb("lessons/roman-dice.ipynb")
    (290, 170)
    """
    return LESSON_PAGE_MB.get(PurePosixPath(page).stem, PAGE_MB)


def memory_mb(pools: dict[str, int], students: int) -> tuple[int, int]:
    """What the pools hold once ready, and at most (every student's page taken, the
    pools made again, and 10 pages more, as the heaviest lesson's), in MB. (Voila's
    own cap, :func:`max_kernels`, is at least 60 kernels: a bound, not what a class of
    a few students uses.)

    >>> memory_mb({"lessons/roman-dice.ipynb": 30}, 30)
    (5100, 11900)
    >>> memory_mb({"lessons/roman-dice.ipynb": 1}, 1)
    (170, 2040)
    >>> memory_mb({"lessons/solving-jactus.ipynb": 30, "lessons/roman-dice.ipynb": 30}, 30)
    (13800, 25400)
    """
    ready = sum(size * page_mb(page) for page, size in pools.items())
    beyond = students + 10
    return ready, ready + beyond * max((page_mb(page) for page in pools), default=PAGE_MB)


def say_memory(pools: dict[str, int], students: int, free_mb: float | None = None
               ) -> dict[str, int]:
    """Print what the pools will cost in memory (an estimate: :func:`page_mb` a page),
    at most with every student's page taken and the pools made again, and whether this
    machine has that much free (``free_mb``; ``None``: as the system says). Returns the
    pools to prepare: as asked, or, when they would not fit in :data:`FIT_SHARE` of the
    free memory (a machine out of memory stops every page of the class, and more),
    smaller, each by the same share, and says so.

    >>> say_memory({"lessons/roman-dice.ipynb": 30}, 30, free_mb=2000)  # doctest: +ELLIPSIS
    Preparing 30 pages of roman-dice ... That is not enough to prepare them all: preparing 9 ...
    {'lessons/roman-dice.ipynb': 9}
    """
    if not pools:
        return pools
    names = ", ".join(f"{size} page{'s' if size != 1 else ''} of "
                      f"{PurePosixPath(page).stem}" for page, size in pools.items())
    ready, most = memory_mb(pools, students)
    each = sorted({page_mb(page) for page in pools})
    per_page = (f"about {each[0]} MB a page" if len(each) == 1 else
                "about " + ", ".join(f"{page_mb(page)} MB a page of "
                                     f"{PurePosixPath(page).stem}" for page in pools))
    line = (f"Preparing {names} for a class of {students}: about {_gb(ready)} of memory "
            f"({per_page}), at most {_gb(most)} while the pages taken are made again.")
    if free_mb is None:
        try:
            import psutil
            free_mb = psutil.virtual_memory().available / 2**20
        except ImportError:  # pragma: no cover - psutil comes with ipykernel
            print(line, flush=True)
            return pools
    line += f" This machine has {_gb(free_mb)} free."
    fitted = pools
    if ready > FIT_SHARE * free_mb:
        share = FIT_SHARE * free_mb / ready
        fitted = {page: int(size * share) for page, size in pools.items()}
        kept = ", ".join(f"{size} of {PurePosixPath(page).stem}"
                         for page, size in fitted.items())
        line += (" That is not enough to prepare them all: "
                 + (f"preparing {kept}; the other pages start" if any(fitted.values())
                    else "none is prepared; every page starts")
                 + " when a student opens it (minutes for many at once). Close other "
                 "programs, name fewer lessons, or give a smaller --students.")
    elif most > free_mb:
        line += (" That is not enough once the pages taken are made again: name fewer "
                 "lessons, or a smaller --students.")
    print(line, flush=True)
    return fitted


def report_pools(status_file: Path, pools: dict[str, int], *, poll: float = 2.0,
                 timeout: float = 3600.0) -> bool:
    """Print, as the class's Voila writes its pools' state to ``status_file``, how many
    pages of each lesson are ready, and once all are, the memory they hold (measured);
    returns whether they all got ready within ``timeout`` seconds."""
    shown: dict[str, int] = {}
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            status = json.loads(status_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            time.sleep(poll)
            continue
        done = True
        for page, size in pools.items():
            ready = min(size, int(status.get("pools", {}).get(page, {}).get("ready", 0)))
            done = done and ready >= size
            step = max(1, size // 3)
            if ready != shown.get(page) and (ready >= size or ready // step >
                                             shown.get(page, 0) // step):
                print(f"  {PurePosixPath(page).stem}: {ready} of {size} pages ready",
                      flush=True)
                shown[page] = ready
        if done:
            rss = status.get("pool_rss_mb")
            held = f", holding {_gb(rss)} of memory" if rss else ""
            print(f"The lesson pages are ready for the class{held}.", flush=True)
            return True
        time.sleep(poll)
    return False

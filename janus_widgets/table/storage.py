"""Where the table server keeps its tables: a small interface and SQLite under it.

The server asks storage for little: make a table with its seats and join codes, add
moves (every move is committed before the server acknowledges it), change a table's
status, find a join code or a credential, keep the class's answers, and list
everything back at start-up. :class:`Storage` is that interface; :class:`SQLiteStorage`
implements it on the standard library's :mod:`sqlite3` in WAL mode. A move is committed
before it is acknowledged, and a move not yet committed is not there at all (a move and
the chance that follows it are one transaction).

How durable a commit is (``sync_every``, in seconds): by default (0.25) a commit is
written to the operating system and a thread of this storage flushes the log to the
disk (``fsync``) a quarter of a second later at the latest (``synchronous = NORMAL``
with a background flush). A server killed with ``kill -9``, or crashing, loses nothing
acknowledged (the operating system holds what was written); a power cut or a kernel
crash can lose the moves acknowledged in the last quarter-second before it, never
half a move, and the file stays sound. ``sync_every=0`` flushes at every commit
(``synchronous = FULL``): nothing acknowledged is lost even to a power cut, and every
move waits for the disk (4 ms each on the machine measured, on the server's loop:
a class of 60 tables spent a fifth of the server's time there).
``docs/classroom-server.md`` says how a school-wide server would put PostgreSQL under
the same interface.

Codes and credentials are kept only as SHA-256 hashes. A credential is long and
random: its hash in a copied file gives nobody a seat. A join code is short: its hash is
salted with a random salt kept in the same file (the ``settings`` table), which stops a
table of hashes made once from serving every database, but not someone who holds the
file from trying every code against it (minutes, with the right program). Keep the file
as private as the teacher's token; new codes, or ending the table, make its codes join
nothing.

>>> store = SQLiteStorage(":memory:")
>>> store.create_table(TableRow("t1", "jactus", {"players": 2}, "rulebook", 42,
...                             ["human", "greedy"], "playing", 0.0),
...                    {0: store.hash_code("ABCDEF")})
>>> store.find_code(store.hash_code("ABCDEF"))
('t1', 0)
>>> store.append_moves("t1", 0, [MoveRow(0, "r*", "human", "c-1"),
...                              MoveRow(1, "=12346", "chance", None)])
>>> [m.notation for m in store.moves("t1")], store.find_client_move("t1", "c-1")
(['r*', '=12346'], 0)
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

__all__ = ["Storage", "SQLiteStorage", "TableRow", "MoveRow", "AnswerRow", "StorageError"]

SCHEMA_VERSION = 1

log = logging.getLogger("janus_widgets.storage")
#: The log grows to this many bytes before the background thread copies it into the
#: database file (a checkpoint, off the server's loop).
CHECKPOINT_BYTES = 4 << 20


class StorageError(RuntimeError):
    """Storage could not do what was asked (the database is locked, full, or not ours)."""


@dataclass(frozen=True)
class TableRow:
    """A table as stored: its game and rules, the seed, who plays each seat (``"human"``
    or a bot's name), its status (``playing``, ``paused``, ``ended``), when it was made."""

    id: str
    game: str
    variant: dict[str, Any]
    ruleset: str
    seed: int
    seats: list[str]
    status: str
    created: float
    meta: dict[str, Any] | None = None


@dataclass(frozen=True)
class MoveRow:
    """One move of a table: its ply, its notation, who made it and the client's move id
    (``None`` for chance and bots)."""

    ply: int
    notation: str
    by: str
    client_id: str | None = None


@dataclass(frozen=True)
class AnswerRow:
    """One exercise check a student's lesson page sent."""

    lesson: str
    question: str
    student: str
    answer: str
    verdict: str
    mistake: str
    at: float


class Storage(ABC):
    """What the table server needs of storage (see the module's docstring)."""

    @abstractmethod
    def create_table(self, row: TableRow, codes: dict[int, str]) -> None:
        """Store a new table and the hashed join code of each human seat."""

    @abstractmethod
    def tables(self) -> list[TableRow]:
        """Every table, oldest first."""

    @abstractmethod
    def moves(self, table_id: str) -> list[MoveRow]:
        """Every move of a table, in order."""

    @abstractmethod
    def append_moves(self, table_id: str, first_ply: int, moves: list[MoveRow]) -> None:
        """Add moves ``first_ply`` … in one transaction (all of them or none);
        :class:`StorageError` if the table does not have exactly ``first_ply`` moves."""

    @abstractmethod
    def set_status(self, table_id: str, status: str, note: str = "") -> None:
        """Change a table's status and say why (``note``, kept in the row's
        ``meta["note"]``; ``""`` when the teacher did it); ending it (``"ended"``) also
        withdraws every credential of its seats, in the same transaction (its join codes
        are kept, so that a slip of an ended table is told so and joins nothing)."""

    @abstractmethod
    def find_code(self, code_hash: str) -> tuple[str, int] | None:
        """``(table id, seat)`` of a join code's hash."""

    @abstractmethod
    def add_credential(self, credential_hash: str, table_id: str, seat: int) -> None:
        """Remember a credential handed out for a seat."""

    @abstractmethod
    def find_credential(self, credential_hash: str,
                        max_age: float | None = None) -> tuple[str, int] | None:
        """``(table id, seat)`` of a credential's hash, if it was handed out at most
        ``max_age`` seconds ago (``None``: whenever)."""

    @abstractmethod
    def withdraw_credentials(self, table_id: str) -> None:
        """Every credential of a table's seats stops working (a stolen slip's too)."""

    @abstractmethod
    def seat_credentials(self, table_id: str, seat: int) -> list[str]:
        """The hashes of a seat's live credentials, the oldest first."""

    @abstractmethod
    def delete_credential(self, credential_hash: str) -> None:
        """One credential stops working."""

    @abstractmethod
    def find_client_move(self, table_id: str, client_id: str) -> int | None:
        """The ply of the move a client sent with this id, if it was played."""

    @abstractmethod
    def replace_codes(self, table_id: str, codes: dict[int, str]) -> None:
        """New join codes for a table's seats (the old codes stop working; credentials
        handed out stay valid unless :meth:`withdraw_credentials` is called too)."""

    @abstractmethod
    def add_students(self, class_name: str, codes: dict[str, str],
                     lesson: str = "") -> None:
        """A lesson's class list: student name → hashed code (a name already there
        gets the new code, and the credentials its old code gave stop working: a slip
        given again is often one that was lost, or passed round), and the lesson its
        codes open (``""``: none named)."""

    @abstractmethod
    def find_student(self, code_hash: str) -> tuple[str, str] | None:
        """``(class, student)`` of a student's join code (its hash)."""

    def students_of(self, class_name: str) -> list[str]:
        """The names on a class's list. (A storage of its own may leave this as it is:
        a class made again by a number of students then renames its first ones.)"""
        return []

    def lesson_of(self, code_hash: str) -> str | None:
        """The lesson a student's join code (its hash) opens: ``""`` when its class
        named none, ``None`` for no such code. (A storage of its own that keeps no
        lessons may leave this as it is: its lesson slips then open no page.)"""
        return "" if self.find_student(code_hash) is not None else None

    @abstractmethod
    def add_student_credential(self, credential_hash: str, class_name: str,
                               student: str, keep: int = 4) -> None:
        """Remember a credential handed out to a student; the student keeps the ``keep``
        newest (older ones stop working, in the same transaction)."""

    @abstractmethod
    def find_student_credential(self, credential_hash: str,
                                max_age: float | None = None) -> tuple[str, str] | None:
        """``(class, student)`` of a student's credential (its hash), if it was handed
        out at most ``max_age`` seconds ago (``None``: whenever)."""

    @abstractmethod
    def add_answer(self, row: AnswerRow) -> None:
        """Keep one exercise check."""

    @abstractmethod
    def answers(self, lesson: str | None = None) -> list[AnswerRow]:
        """Every exercise check kept (of one lesson), oldest first."""

    def answers_of(self, student: str, lesson: str) -> list[AnswerRow]:
        """One student's checks of one lesson, oldest first (what their reloaded page
        shows again). A storage of its own may leave this as it is: it reads them out
        of :meth:`answers`."""
        return [row for row in self.answers(lesson) if row.student == student]

    @abstractmethod
    def set_throws(self, experiment: str, student: str, tally: str, at: float) -> None:
        """Keep a student's tally of a class experiment (JSON), replacing theirs."""

    @abstractmethod
    def throws(self, experiment: str) -> list[tuple[str, str, float]]:
        """``(student, tally as JSON, when)`` of every tally of the experiment."""

    @abstractmethod
    def clear_throws(self, experiment: str, student: str) -> bool:
        """Remove a student's tally; whether there was one."""

    @abstractmethod
    def setting(self, name: str) -> str | None:
        """A stored setting (the salt of the join codes)."""

    @abstractmethod
    def set_setting(self, name: str, value: str) -> None:
        """Store a setting."""

    def hash_code(self, code: str) -> str:
        """The stored form of a join code: SHA-256 of the database's salt and the code,
        in capitals. The salt is drawn once and stored in the database itself: it makes
        one precomputed table useless against every database, not the file's own codes
        safe from someone who holds it (see the module's docstring)."""
        salt = self.setting("code_salt")
        if salt is None:
            salt = secrets.token_hex(16)
            self.set_setting("code_salt", salt)
        return hashlib.sha256(f"{salt}:{code.upper()}".encode()).hexdigest()

    @staticmethod
    def hash_credential(credential: str) -> str:
        """The stored form of a credential (long and random: SHA-256 is enough)."""
        return hashlib.sha256(credential.encode()).hexdigest()


_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL, ruleset TEXT NOT NULL,
    seed INTEGER NOT NULL, seats TEXT NOT NULL, status TEXT NOT NULL, created REAL NOT NULL,
    meta TEXT, position INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS codes (
    hash TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS credentials (
    hash TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id), ply INTEGER NOT NULL,
    notation TEXT NOT NULL, by TEXT NOT NULL, client_id TEXT,
    PRIMARY KEY (table_id, ply));
CREATE UNIQUE INDEX IF NOT EXISTS moves_client ON moves (table_id, client_id)
    WHERE client_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS students (
    hash TEXT PRIMARY KEY, class TEXT NOT NULL, student TEXT NOT NULL,
    UNIQUE (class, student));
CREATE TABLE IF NOT EXISTS student_lessons (hash TEXT PRIMARY KEY, lesson TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS student_credentials (
    hash TEXT PRIMARY KEY, class TEXT NOT NULL, student TEXT NOT NULL,
    created REAL NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY, lesson TEXT NOT NULL, question TEXT NOT NULL,
    student TEXT NOT NULL, answer TEXT NOT NULL, verdict TEXT NOT NULL,
    mistake TEXT NOT NULL, at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS answers_of_student ON answers (student, lesson);
CREATE TABLE IF NOT EXISTS throws (
    experiment TEXT NOT NULL, student TEXT NOT NULL, tally TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (experiment, student));
"""


#: The files SQLite keeps beside a database in WAL mode.
SIDE_FILES = ("-wal", "-shm", "-journal")


def _make_private(path: str, *, created: bool = True) -> None:
    """Make the database file ``path`` (created empty if missing, when ``created``) and
    the files SQLite keeps beside it readable and writable by their owner only (0600):
    they hold every table's seed and the join codes' hashes. SQLite creates its ``-wal``
    and ``-shm`` files with the database file's mode, so a private database has private
    ones; an older database made readable by all is made private when opened. A file
    this user does not own is left as it is (the operating system would refuse)."""
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    if created:
        os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    for name in (path, *(path + side for side in SIDE_FILES)):
        try:
            if os.stat(name).st_mode & 0o077:
                os.chmod(name, 0o600)
        except (FileNotFoundError, PermissionError):
            continue


class SQLiteStorage(Storage):
    """:class:`Storage` in one SQLite file (WAL); ``":memory:"`` for a throwaway one. One
    connection, used from the server's thread; ``sync_every`` seconds at most between a
    commit and its flush to the disk (0: at every commit; see the module's docstring).

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> store = SQLiteStorage(os.path.join(folder, "c.sqlite"), sync_every=0.05)
    >>> store.set_setting("x", "1"); store.flush(); store.setting("x"), store.durable
    ('1', True)
    >>> store.close()
    """

    def __init__(self, path: str, sync_every: float = 0.25) -> None:
        if isinstance(sync_every, bool) or not isinstance(sync_every, (int, float)) or \
                not 0 <= sync_every <= 10:
            raise ValueError(f"sync_every is 0 (flush at every commit) or the seconds "
                             f"between flushes, up to 10; not {sync_every!r}")
        self.path = path
        self.sync_every = float(sync_every)
        _make_private(path)
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                       timeout=10)
            self._db.execute("PRAGMA journal_mode=WAL")
            _make_private(path, created=False)
            background = self.sync_every > 0 and self._on_disk()
            self._db.execute("PRAGMA synchronous=NORMAL" if background
                             else "PRAGMA synchronous=FULL")
            if background:            # checkpoints too run in the flushing thread
                self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            columns = [row[1] for row in self._db.execute(
                "PRAGMA table_info(student_credentials)")]
            if "created" not in columns:         # a database from before expiry: its
                self._db.execute("ALTER TABLE student_credentials ADD COLUMN created "
                                 "REAL NOT NULL DEFAULT 0")   # credentials count from now
                self._db.execute("UPDATE student_credentials SET created = ?",
                                 (time.time(),))
        except sqlite3.DatabaseError as exc:
            raise StorageError(f"{path} cannot be used as the classroom database: {exc}"
                               " (is it another program's file?)") from None
        self._lock = threading.Lock()
        #: commits since the last flush (0: everything committed is on the disk)
        self._unflushed = 0
        self._flushed = threading.Condition(threading.Lock())
        self._stop = threading.Event()
        self._flusher: threading.Thread | None = None
        if background:
            self._flusher = threading.Thread(target=self._flush_loop, daemon=True,
                                             name=f"janus-storage-flush {path}")
            self._flusher.start()
        version = self.setting("schema")
        if version is None:
            self.set_setting("schema", str(SCHEMA_VERSION))
        elif version != str(SCHEMA_VERSION):
            raise StorageError(f"{path} holds classroom data of schema {version}; this "
                               f"janus_widgets reads schema {SCHEMA_VERSION}")

    def _write(self, statements: list[tuple[str, tuple]],
               check: tuple[str, tuple, Any] | None = None) -> None:
        """Run ``statements`` in one transaction: all of them, or none. ``check`` is a
        query, its arguments and the value its first cell must have inside the same
        transaction (else :class:`StorageError`, nothing written)."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                if check is not None:
                    sql, args, expected = check
                    found = self._db.execute(sql, args).fetchone()[0]
                    if found != expected:
                        self._db.execute("ROLLBACK")
                        raise StorageError(f"expected {expected}, found {found}: {sql}")
                for sql, args in statements:
                    self._db.execute(sql, args)
                self._db.execute("COMMIT")
                if self._flusher is not None:
                    with self._flushed:
                        self._unflushed += 1
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                raise StorageError(f"the classroom database refused a change: {exc}") \
                    from None

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def create_table(self, row: TableRow, codes: dict[int, str]) -> None:
        position = self._read("SELECT COUNT(*) FROM tables")[0][0]
        statements = [("INSERT INTO tables VALUES (?,?,?,?,?,?,?,?,?,?)",
                       (row.id, row.game, json.dumps(row.variant), row.ruleset, row.seed,
                        json.dumps(row.seats), row.status, row.created,
                        json.dumps(row.meta or {}), position))]
        statements += [("INSERT INTO codes VALUES (?,?,?)", (h, row.id, seat))
                       for seat, h in codes.items()]
        self._write(statements)

    def tables(self) -> list[TableRow]:
        return [TableRow(id, game, json.loads(variant), ruleset, seed, json.loads(seats),
                         status, created, json.loads(meta or "{}"))
                for id, game, variant, ruleset, seed, seats, status, created, meta, _ in
                self._read("SELECT * FROM tables ORDER BY position")]

    def moves(self, table_id: str) -> list[MoveRow]:
        return [MoveRow(ply, notation, by, client_id) for ply, notation, by, client_id in
                self._read("SELECT ply, notation, by, client_id FROM moves WHERE "
                           "table_id = ? ORDER BY ply", (table_id,))]

    def append_moves(self, table_id: str, first_ply: int, moves: list[MoveRow]) -> None:
        if not moves:
            return
        self._write([("INSERT INTO moves VALUES (?,?,?,?,?)",
                      (table_id, m.ply, m.notation, m.by, m.client_id)) for m in moves],
                    check=("SELECT COUNT(*) FROM moves WHERE table_id = ?", (table_id,),
                           first_ply))

    def set_status(self, table_id: str, status: str, note: str = "") -> None:
        statements: list[tuple[str, tuple]] = [
            ("UPDATE tables SET status = ?, meta = json_set(COALESCE(meta, '{}'), "
             "'$.note', ?) WHERE id = ?", (status, note, table_id))]
        if status == "ended":
            statements.append(("DELETE FROM credentials WHERE table_id = ?", (table_id,)))
        self._write(statements)

    def find_code(self, code_hash: str) -> tuple[str, int] | None:
        rows = self._read("SELECT table_id, seat FROM codes WHERE hash = ?", (code_hash,))
        return (rows[0][0], rows[0][1]) if rows else None

    def add_credential(self, credential_hash: str, table_id: str, seat: int) -> None:
        self._write([("INSERT INTO credentials VALUES (?,?,?,?)",
                      (credential_hash, table_id, seat, time.time()))])

    def find_credential(self, credential_hash: str,
                        max_age: float | None = None) -> tuple[str, int] | None:
        rows = self._read("SELECT table_id, seat, created FROM credentials WHERE hash = ?",
                          (credential_hash,))
        if not rows or (max_age is not None and rows[0][2] < time.time() - max_age):
            return None
        return (rows[0][0], rows[0][1])

    def withdraw_credentials(self, table_id: str) -> None:
        self._write([("DELETE FROM credentials WHERE table_id = ?", (table_id,))])

    def seat_credentials(self, table_id: str, seat: int) -> list[str]:
        rows = self._read("SELECT hash FROM credentials WHERE table_id = ? AND seat = ? "
                          "ORDER BY created, rowid", (table_id, seat))
        return [row[0] for row in rows]

    def delete_credential(self, credential_hash: str) -> None:
        self._write([("DELETE FROM credentials WHERE hash = ?", (credential_hash,))])

    def find_client_move(self, table_id: str, client_id: str) -> int | None:
        rows = self._read("SELECT ply FROM moves WHERE table_id = ? AND client_id = ?",
                          (table_id, client_id))
        return rows[0][0] if rows else None

    def replace_codes(self, table_id: str, codes: dict[int, str]) -> None:
        self._write([("DELETE FROM codes WHERE table_id = ?", (table_id,))]
                    + [("INSERT INTO codes VALUES (?,?,?)", (h, table_id, seat))
                       for seat, h in codes.items()])

    def add_students(self, class_name: str, codes: dict[str, str],
                     lesson: str = "") -> None:
        # The lesson in a table of its own: a database keeps working with a version of
        # the package from before lesson slips (its students table is as it was)
        self._write([("INSERT INTO students VALUES (?,?,?) ON CONFLICT(class, student) DO "
                      "UPDATE SET hash = excluded.hash", (h, class_name, name))
                     for name, h in codes.items()]
                    + [("DELETE FROM student_credentials WHERE class = ? AND student = ?",
                        (class_name, name)) for name in codes]
                    + [("INSERT OR REPLACE INTO student_lessons VALUES (?,?)", (h, lesson))
                       for h in codes.values() if lesson])

    def find_student(self, code_hash: str) -> tuple[str, str] | None:
        rows = self._read("SELECT class, student FROM students WHERE hash = ?", (code_hash,))
        return (rows[0][0], rows[0][1]) if rows else None

    def students_of(self, class_name: str) -> list[str]:
        return [row[0] for row in self._read(
            "SELECT student FROM students WHERE class = ? ORDER BY rowid", (class_name,))]

    def lesson_of(self, code_hash: str) -> str | None:
        rows = self._read("SELECT l.lesson FROM students s LEFT JOIN student_lessons l "
                          "ON l.hash = s.hash WHERE s.hash = ?", (code_hash,))
        return (rows[0][0] or "") if rows else None

    def add_student_credential(self, credential_hash: str, class_name: str,
                               student: str, keep: int = 4) -> None:
        self._write([("INSERT INTO student_credentials (hash, class, student, created) "
                      "VALUES (?,?,?,?)", (credential_hash, class_name, student, time.time())),
                     ("DELETE FROM student_credentials WHERE class = ? AND student = ? AND "
                      "rowid NOT IN (SELECT rowid FROM student_credentials WHERE class = ? "
                      "AND student = ? ORDER BY created DESC, rowid DESC LIMIT ?)",
                      (class_name, student, class_name, student, keep))])

    def find_student_credential(self, credential_hash: str,
                                max_age: float | None = None) -> tuple[str, str] | None:
        rows = self._read("SELECT class, student, created FROM student_credentials WHERE "
                          "hash = ?", (credential_hash,))
        if not rows or (max_age is not None and rows[0][2] < time.time() - max_age):
            return None
        return (rows[0][0], rows[0][1])

    def add_answer(self, row: AnswerRow) -> None:
        self._write([("INSERT INTO answers (lesson, question, student, answer, verdict, "
                      "mistake, at) VALUES (?,?,?,?,?,?,?)",
                      (row.lesson, row.question, row.student, row.answer, row.verdict,
                       row.mistake, row.at))])

    def answers(self, lesson: str | None = None) -> list[AnswerRow]:
        sql = "SELECT lesson, question, student, answer, verdict, mistake, at FROM answers"
        args: tuple = ()
        if lesson is not None:
            sql += " WHERE lesson = ?"
            args = (lesson,)
        return [AnswerRow(*row) for row in self._read(sql + " ORDER BY id", args)]

    def answers_of(self, student: str, lesson: str) -> list[AnswerRow]:
        return [AnswerRow(*row) for row in self._read(
            "SELECT lesson, question, student, answer, verdict, mistake, at FROM answers "
            "WHERE student = ? AND lesson = ? ORDER BY id", (student, lesson))]

    def set_throws(self, experiment: str, student: str, tally: str, at: float) -> None:
        self._write([("INSERT INTO throws VALUES (?,?,?,?) ON CONFLICT(experiment, student) "
                      "DO UPDATE SET tally = excluded.tally, at = excluded.at",
                      (experiment, student, tally, at))])

    def throws(self, experiment: str) -> list[tuple[str, str, float]]:
        return [(r[0], r[1], r[2]) for r in self._read(
            "SELECT student, tally, at FROM throws WHERE experiment = ? ORDER BY student",
            (experiment,))]

    def clear_throws(self, experiment: str, student: str) -> bool:
        found = bool(self._read("SELECT 1 FROM throws WHERE experiment = ? AND student = ?",
                                (experiment, student)))
        self._write([("DELETE FROM throws WHERE experiment = ? AND student = ?",
                      (experiment, student))])
        return found

    def setting(self, name: str) -> str | None:
        rows = self._read("SELECT value FROM settings WHERE name = ?", (name,))
        return rows[0][0] if rows else None

    def set_setting(self, name: str, value: str) -> None:
        self._write([("INSERT INTO settings VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET "
                      "value = excluded.value", (name, value))])

    # ------------------------------------------------------------------ flushing
    def _on_disk(self) -> bool:
        return bool(self.path) and self.path != ":memory:" and \
            not self.path.startswith("file:")

    @property
    def durable(self) -> bool:
        """Whether every commit so far is on the disk (a power cut would lose none)."""
        with self._flushed:
            return self._unflushed == 0

    def _flush_once(self) -> None:
        """Flush the log to the disk, and copy it into the database file when it has
        grown past :data:`CHECKPOINT_BYTES` (with a connection of this thread, so the
        server's loop never waits for the disk)."""
        with self._flushed:
            pending = self._unflushed
        if not pending:
            return
        wal = self.path + "-wal"
        fd = os.open(wal, os.O_RDONLY)
        try:
            os.fsync(fd)                 # every commit written so far is on the disk now
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
        with self._flushed:
            self._unflushed -= pending
            self._flushed.notify_all()
        if size > CHECKPOINT_BYTES:
            side = sqlite3.connect(self.path, isolation_level=None, timeout=10)
            try:
                side.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                side.close()

    def _flush_loop(self) -> None:
        while not self._stop.wait(self.sync_every):
            try:
                self._flush_once()
            except (OSError, sqlite3.Error) as exc:   # said, and tried again next time
                log.error("the classroom database %s could not be flushed to the disk: "
                          "%s", self.path, exc)

    def flush(self) -> None:
        """Put every commit so far on the disk now (the server's stop, a test)."""
        if self._flusher is not None:
            self._flush_once()

    def close(self) -> None:
        """Flush, then close the database (a stopped server)."""
        self._stop.set()
        if self._flusher is not None:
            self._flusher.join()
            try:
                self._flush_once()
            except (OSError, sqlite3.Error) as exc:
                log.error("the classroom database %s could not be flushed: %s",
                          self.path, exc)
        with self._lock:
            self._db.close()

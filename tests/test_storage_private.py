"""The classroom database and the files SQLite keeps beside it are the teacher's alone
(issue 33, item 7): they hold every table's seed and the join codes' hashes, so they are
created 0600, as the teacher's token is, whatever the umask."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

from janus_widgets.table.storage import SQLiteStorage, TableRow

SIDE = ("-wal", "-shm")


def modes(db: Path) -> dict[str, int]:
    """The permission bits of the database and of its WAL and shared-memory files."""
    return {name: stat.S_IMODE(os.stat(f"{db}{name}").st_mode) for name in ("", *SIDE)}


def use(store: SQLiteStorage) -> None:
    """Write something, so SQLite makes (and keeps) its -wal and -shm files."""
    store.create_table(TableRow("t1", "jactus", {"players": 2}, "rulebook", 42,
                                ["human", "greedy"], "playing", 0.0),
                       {0: store.hash_code("ABCDEFGH")})


def test_a_new_database_and_its_side_files_are_private(tmp_path):
    old = os.umask(0o022)               # the usual umask: files readable by all
    try:
        db = tmp_path / "classroom.sqlite"
        store = SQLiteStorage(str(db))
        use(store)
        assert modes(db) == {"": 0o600, "-wal": 0o600, "-shm": 0o600}
    finally:
        os.umask(old)


def test_an_old_database_readable_by_all_is_made_private_when_opened(tmp_path):
    db = tmp_path / "classroom.sqlite"
    old = os.umask(0o022)
    try:
        made = sqlite3.connect(db)      # as a version before this one made it
        made.execute("PRAGMA journal_mode=WAL")
        made.execute("CREATE TABLE x (y)")
        made.commit()
        assert stat.S_IMODE(os.stat(db).st_mode) == 0o644
        store = SQLiteStorage(str(db))
        use(store)
        assert modes(db) == {"": 0o600, "-wal": 0o600, "-shm": 0o600}
        made.close()
    finally:
        os.umask(old)


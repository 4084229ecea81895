"""How durable the classroom database's commits are (issue 32): by default a commit
reaches the operating system at once (a ``kill -9`` loses nothing acknowledged: see
``test_kill_9_mid_game_keeps_every_acknowledged_move``) and the disk within
``sync_every`` seconds, flushed by the storage's own thread, never on the server's
loop; ``sync_every=0`` flushes at every commit."""

from __future__ import annotations

import os
import shutil
import sqlite3
import threading
import time

import pytest

from janus_widgets.table import storage as storage_module
from janus_widgets.table.storage import MoveRow, SQLiteStorage, TableRow


def make_table(store: SQLiteStorage, table_id: str = "t1") -> None:
    store.create_table(TableRow(table_id, "jactus", {"players": 2}, "rulebook", 42,
                                ["human", "greedy"], "playing", 0.0),
                       {0: store.hash_code("ABCDEFGH" + table_id)})


def pragma(store: SQLiteStorage, name: str) -> int:
    return store._read(f"PRAGMA {name}")[0][0]


def test_commits_reach_the_disk_by_themselves_within_sync_every(tmp_path, monkeypatch):
    synced: list[int] = []
    real = os.fsync

    store = None

    def fsync(fd: int) -> None:
        # this store's flushes only: another test's server may still flush its own
        if store is not None and threading.current_thread() is store._flusher:
            synced.append(fd)
        real(fd)
    monkeypatch.setattr(os, "fsync", fsync)
    store = SQLiteStorage(str(tmp_path / "c.sqlite"), sync_every=0.05)
    try:
        assert pragma(store, "synchronous") == 1          # NORMAL: no fsync per commit
        assert pragma(store, "wal_autocheckpoint") == 0   # checkpoints off the loop too
        make_table(store)
        store.append_moves("t1", 0, [MoveRow(0, "r*", "human", "c-1")])
        deadline = time.monotonic() + 5
        while not store.durable and time.monotonic() < deadline:
            time.sleep(0.01)
        assert store.durable, "the flushing thread did not put the commits on the disk"
        assert synced, "nothing was flushed with fsync"
        count = len(synced)
        time.sleep(0.2)                                   # nothing new: no more flushes
        assert len(synced) == count
    finally:
        store.close()


def test_sync_every_0_flushes_at_every_commit(tmp_path):
    store = SQLiteStorage(str(tmp_path / "c.sqlite"), sync_every=0)
    try:
        assert pragma(store, "synchronous") == 2          # FULL
        assert store._flusher is None
        make_table(store)
        assert store.durable
    finally:
        store.close()


def test_the_log_is_copied_into_the_database_file_off_the_writer(tmp_path, monkeypatch):
    monkeypatch.setattr(storage_module, "CHECKPOINT_BYTES", 1)
    db = tmp_path / "c.sqlite"
    store = SQLiteStorage(str(db), sync_every=0.05)
    try:
        make_table(store)
        store.flush()                       # flushes, and the log is past 1 byte
        alone = tmp_path / "copy.sqlite"    # the database file without its log
        shutil.copy(db, alone)
        found = sqlite3.connect(alone).execute("SELECT id FROM tables").fetchall()
        assert found == [("t1",)]
    finally:
        store.close()


def test_close_flushes_what_is_left(tmp_path):
    store = SQLiteStorage(str(tmp_path / "c.sqlite"), sync_every=10)
    make_table(store)
    assert not store.durable                # ten seconds to go
    store.close()
    assert store.durable
    again = SQLiteStorage(str(tmp_path / "c.sqlite"))
    assert [row.id for row in again.tables()] == ["t1"]
    again.close()


@pytest.mark.parametrize("bad", [-1, 11, "1", True, None])
def test_a_bad_sync_every_says_what_is_allowed(tmp_path, bad):
    with pytest.raises(ValueError, match="sync_every is 0 .* up to 10"):
        SQLiteStorage(str(tmp_path / "c.sqlite"), sync_every=bad)

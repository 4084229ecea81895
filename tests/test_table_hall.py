"""The table server's hall in this process: join codes, answers, restoring tables, bots.

``tests/test_table_server.py`` runs the server as a class does (its own process, real
sockets); these tests call :class:`~janus_widgets.table.server.Hall` directly on a
SQLite file, so a clock, a broken bot or a corrupt stored move can be arranged.
"""

from __future__ import annotations

import sqlite3

import pytest

from janus_widgets.table import server as server_module
from janus_widgets.table.server import (CODE_LENGTH, CODE_LETTERS, LIMITS, LOOK_ALIKES,
                                        Hall, WireError)
from janus_widgets.table.storage import SQLiteStorage

TOKEN = "teacher-token-for-the-tests"


def make_hall(path, **kwargs) -> Hall:
    return Hall(SQLiteStorage(str(path)), TOKEN, bot_delay=0, **kwargs)


@pytest.fixture
def hall(tmp_path):
    made = make_hall(tmp_path / "class.sqlite")
    yield made
    made.storage.close()


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# ------------------------------------------------------------------ join codes
def test_join_codes_have_eight_letters_and_no_two_look_alike(hall):
    for group in LOOK_ALIKES:
        used = [c for c in group if c in CODE_LETTERS]
        assert len(used) <= 1, f"{used} are all join-code letters: a class misreads them"
    _, codes = hall.create_table({"game": "jactus", "players": 3})
    assert CODE_LENGTH == 8 and len(codes) == 3
    assert all(len(code) == 8 and set(code) <= set(CODE_LETTERS) for code in codes.values())
    _, students = hall.create_class({"name": "3b", "students": 3})
    assert all(len(code) == 8 for code in students.values())


def test_wrong_codes_from_one_address_make_it_wait_and_right_ones_count_nothing(hall):
    hall.clock = clock = Clock()
    _, codes = hall.create_table({"game": "jactus", "players": 2})
    for _ in range(LIMITS["join_failures"] - 1):
        with pytest.raises(WireError) as wrong:
            hall.join("KKKKKKKK", "10.0.0.7")
        assert wrong.value.status == 404
    for _ in range(30):                                   # joins that work count nothing
        hall.join(codes["A"], "10.0.0.7")
    with pytest.raises(WireError) as wrong:
        hall.join("KKKKKKKK", "10.0.0.7")                 # the tenth wrong code
    assert wrong.value.code == "unknown_code"
    clock.now += 20
    with pytest.raises(WireError) as limited:             # now even the right code waits
        hall.join(codes["A"], "10.0.0.7")
    assert limited.value.status == 429 and limited.value.code == "rate_limit"
    assert f"wait {int(LIMITS['join_window']) - 20} s" in limited.value.text
    with pytest.raises(WireError) as limited:             # a class code too
        hall.join_class("KKKKKKKK", "10.0.0.7")
    assert limited.value.status == 429
    assert hall.join(codes["B"], "10.0.0.8")[1] == 1      # another address is not held up
    clock.now += LIMITS["join_window"] - 19               # the first wrong codes are old
    assert hall.join(codes["A"], "10.0.0.7")[1] == 0


def test_an_ended_tables_codes_join_nothing_and_its_record_stays(hall, tmp_path):
    served, codes = hall.create_table({"game": "jactus", "players": 2})
    _, seat, credential = hall.join(codes["A"])
    hall.play(served, seat, "r*", "m1")
    hall.set_status(served, "ended")
    for code in codes.values():
        with pytest.raises(WireError, match="no seat has the join code"):
            hall.join(code)
    assert sqlite3.connect(tmp_path / "class.sqlite").execute(
        "SELECT COUNT(*) FROM codes WHERE table_id = ?", (served.id,)).fetchone()[0] == 0
    with pytest.raises(WireError, match="has ended: it gets no new join codes"):
        hall.new_codes(served)
    record = served.table.replay.record(table=served.id)    # what the teacher downloads
    assert record.moves[0] == "r*"
    assert hall.who(credential)[0] == "seat"              # its pages still show the game
    # A table ended before codes were deleted at the end: its code is refused too.
    other, codes = hall.create_table({"game": "jactus", "players": 2})
    hall.storage._write([("UPDATE tables SET status = 'ended' WHERE id = ?", (other.id,))])
    other.status = "ended"
    with pytest.raises(WireError, match="has ended: its join codes join nothing") as gone:
        hall.join(codes["A"])
    assert gone.value.status == 410

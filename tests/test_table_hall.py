"""The table server's hall in this process: join codes, answers, restoring tables, bots.

``tests/test_table_server.py`` runs the server as a class does (its own process, real
sockets); these tests call :class:`~janus_widgets.table.server.Hall` directly on a
SQLite file, so a clock, a broken bot or a corrupt stored move can be arranged.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import threading

import pytest

from janus_widgets.table import server as server_module
from janus_widgets.table.server import (CODE_LENGTH, CODE_LETTERS, LIMITS, LOOK_ALIKES,
                                        Hall, WireError)
from janus_widgets.table.client import RemoteTable, _Link
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


# ------------------------------------------------------------------ answers
def answer(**fields):
    return {"lesson": "jactus-odds", "question": "q1", "answer": "1/36", "verdict": "wrong",
            "mistake": "one order only", **fields}


@pytest.mark.parametrize("fields, says", [
    (dict(lesson="jactus odds"), "'lesson' is the lesson's id"),
    (dict(lesson=""), "'lesson' is the lesson's id"),
    (dict(lesson="x" * 65), "1 to 64 letters"),
    (dict(question="q1<script>"), "'question' is the question's id"),
    (dict(question=7), "'question' is the question's id"),
    (dict(answer="9" * (LIMITS["answer_chars"] + 1)), "at most 200 characters"),
    (dict(mistake=["x"]), "'mistake' is text"),
    (dict(verdict="maybe"), "verdict is 'right', 'wrong' or 'invalid'"),
    (dict(student="3b/ben"), "unknown field 'student'"),
])
def test_an_answer_with_a_bad_field_is_refused_saying_what_is_allowed(hall, fields, says):
    with pytest.raises(WireError, match=re.escape(says)) as refused:
        hall.add_answer("3b/ada", answer(**fields))
    assert refused.value.status == 400
    assert hall.storage.answers() == []                   # nothing kept


def test_answers_are_limited_per_student(hall):
    hall.clock = clock = Clock()
    for k in range(LIMITS["answers_per_minute"]):
        hall.add_answer("3b/ada", answer(answer=str(k)))
    with pytest.raises(WireError, match="too many answers: at most 30 a minute") as limited:
        hall.add_answer("3b/ada", answer())
    assert limited.value.status == 429 and "wait 60 s" in limited.value.text
    hall.add_answer("3b/ben", answer())                   # another student is not held up
    clock.now += 61
    hall.add_answer("3b/ada", answer())


class Teacher:
    """A teacher's connection: what it is sent."""

    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send(self, message: dict) -> None:
        self.sent.append(message)


def test_the_tally_counts_students_not_clicks(hall, tmp_path):
    """One student sending the same wrong answer a hundred times is one student with
    that mistake; the commonest mistake is the one most students made."""
    from janus_widgets.widgets.dashboard import tally
    teacher = Teacher()
    hall.teachers.add(teacher)
    hall.clock = clock = Clock()
    for k in range(100):
        clock.now += 3                                    # within the rate limit
        hall.add_answer("3b/ada", answer(mistake="added instead of multiplying",
                                         answer=f"{k}/36"))
    for student in ("3b/ben", "3b/cy"):
        hall.add_answer(student, answer(mistake="one order only"))
    hall.add_answer("3b/cy", answer(verdict="right", mistake="", answer="1/18"))
    rows = {(r["lesson"], r["question"]): r for r in tally(hall.answers())}
    q1 = rows[("jactus-odds", "q1")]
    assert q1["mistakes"] == [("one order only", 2), ("added instead of multiplying", 1)]
    assert (q1["tried"], q1["right"]) == (3, 1)
    ada = [a for a in hall.answers() if a["student"] == "3b/ada"]
    assert len(ada) == 1 and ada[0]["tries"] == 100 and ada[0]["answer"] == "0/36"
    assert len(hall.answers(every=True)) == 103           # every check is kept
    assert len([m for m in teacher.sent if m["type"] == "answer"]) == 4   # news, once each
    # A restarted server knows what was sent before: a repeat is still not news.
    again = make_hall(tmp_path / "class.sqlite")
    again.teachers.add(teacher)
    again.add_answer("3b/ben", answer(mistake="one order only"))
    assert len([m for m in teacher.sent if m["type"] == "answer"]) == 4
    assert [a["tries"] for a in again.answers() if a["student"] == "3b/ben"] == [2]


# ------------------------------------------------------------------ a seat's client
class OfflineSeat(RemoteTable):
    """A :class:`RemoteTable` that takes its messages from the test, not a socket."""

    def _open(self, url: str, context: object, timeout: float) -> None:
        self.url, self._home, self._closed, self._ws = url, None, True, None
        self._ready, self._fatal, self.errors = threading.Event(), "", []

    def _send(self, message: dict) -> None:
        self.sent = [*getattr(self, "sent", []), message]


def seat_of(hall, served, seat):
    client = OfflineSeat("http://127.0.0.1:1", "credential")
    client._take(json.dumps(hall.seat_welcome(served, seat)))
    return client


@pytest.mark.parametrize("game, spoil", [
    ("janus-cards", lambda move: move.update(view={"not": "a view"})),   # secret views
    ("jactus", lambda move: move.update(told="no such move")),          # open game
    ("jactus", lambda move: move.pop("by")),
])
def test_a_malformed_update_changes_nothing_and_is_reported(hall, game, spoil):
    served, codes = hall.create_table({"game": game, "players": 3,
                                       "bots": {"B": "random", "C": "random"}, "seed": 5})
    for k in range(12):                                   # A plays; the bots answer
        state = served.table.state
        if state.is_over:
            break
        hall.play(served, 0, state.legal_moves()[0].notation, f"m{k}")
    full = hall.seat_update(served, 0, 0)
    n = len(full["moves"])
    assert n >= 6
    client = seat_of(hall, served, 0)
    first = {**full, "moves": full["moves"][:3], "length": 3, "legal": None}
    client._take(json.dumps(first))
    before = (client.length, client.view, client.record().to_dict(), client._legal)
    bad = json.loads(json.dumps({**full, "from": 3, "moves": full["moves"][3:]}))
    spoil(bad["moves"][-1])                               # the last move is spoilt
    client._take(json.dumps(bad))
    assert (client.length, client.view, client.record().to_dict(), client._legal) == before
    assert client.notice[1] == "error" and "could not be read" in client.notice[0]
    assert client.errors                                  # the traceback is kept
    client._take(json.dumps({**full, "from": 3, "moves": full["moves"][3:]}))
    assert client.length == n                             # the good one goes in whole
    assert client.view == served.table.state.view(0)


class FakeSocket:
    """A connection's stand-in: ``write`` and ``read`` say what each call does."""

    def __init__(self, write=None, reads=()) -> None:
        self._write, self._reads, self.written = write, list(reads), []

    def write_message(self, text):
        if self._write is not None:
            raise self._write
        self.written.append(text)
        done = asyncio.get_running_loop().create_future()
        done.set_result(None)
        return done

    async def read_message(self):
        what = self._reads.pop(0) if self._reads else None
        if isinstance(what, BaseException):
            raise what
        return what

    def close(self) -> None:
        pass


class Probe(_Link):
    """The link's reconnection loop on fake sockets."""

    def __init__(self, sockets) -> None:
        self.url, self._ws_url, self._context = "http://x", "ws://x/ws", None
        self._closed, self._ws, self._fatal, self.errors = False, None, "", []
        self._ready = threading.Event()
        self.sockets, self.lost, self.received = list(sockets), 0, []

    def _greeting(self):
        return [{"type": "hello"}]

    def _receive(self, msg):
        self.received.append(msg)

    def _lost(self):
        self.lost += 1
        self._closed = not self.sockets


def test_a_dropped_connection_is_lost_and_tried_again_never_raised(monkeypatch):
    import tornado.iostream
    import tornado.websocket
    sockets = [FakeSocket(write=tornado.websocket.WebSocketClosedError()),
               FakeSocket(reads=[tornado.iostream.StreamClosedError()]),
               FakeSocket(reads=['{"type": "pong"}', ConnectionResetError("reset")]),
               FakeSocket(reads=['{"type": "pong"}', None])]
    probe = Probe(sockets)

    async def connect(request):
        return probe.sockets.pop(0)
    monkeypatch.setattr(tornado.websocket, "websocket_connect", connect)
    asyncio.run(asyncio.wait_for(probe._run(), 10))       # returns: nothing escaped
    assert probe.lost == 4 and probe.received == [{"type": "pong"}] * 2
    assert probe.errors == []


def test_a_message_sent_on_a_closed_connection_is_dropped_quietly():
    import tornado.websocket
    from janus_widgets.table.client import _IO
    probe = Probe([])
    probe._ws = FakeSocket(write=tornado.websocket.WebSocketClosedError())
    loop = _IO.loop()
    seen = []
    loop.set_exception_handler(lambda loop, context: seen.append(context))
    try:
        probe._send({"type": "ping"})
        asyncio.run_coroutine_threadsafe(asyncio.sleep(0.05), loop).result(5)
    finally:
        loop.set_exception_handler(None)
    assert seen == []

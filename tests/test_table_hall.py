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
import time

import pytest

from janus_widgets.table import server as server_module
from janus_widgets.table.server import (CODE_LENGTH, CODE_LETTERS, LIMITS, LOOK_ALIKES,
                                        Connection, Hall, WireError)
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
def test_join_codes_have_ten_letters_and_no_two_look_alike(hall):
    for group in LOOK_ALIKES:
        used = [c for c in group if c in CODE_LETTERS]
        assert len(used) <= 1, f"{used} are all join-code letters: a class misreads them"
    _, codes = hall.create_table({"game": "jactus", "players": 3})
    assert CODE_LENGTH == 10 and len(codes) == 3
    assert all(len(code) == 10 and set(code) <= set(CODE_LETTERS) for code in codes.values())
    _, students = hall.create_class({"name": "3b", "students": 3})
    assert all(len(code) == CODE_LENGTH for code in students.values())


def test_wrong_codes_from_one_address_make_it_wait_and_right_ones_count_nothing(hall):
    hall.clock = clock = Clock()
    _, codes = hall.create_table({"game": "jactus", "players": 2})
    for _ in range(LIMITS["join_failures"] - 1):
        with pytest.raises(WireError) as wrong:
            hall.join("KKKKKKKK", "10.0.0.7")
        assert wrong.value.status == 404
    for _ in range(LIMITS["joins_per_code"] - 1):        # joins that work count nothing
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


def test_an_ended_tables_codes_answer_410_count_nothing_and_its_credentials_stop(hall):
    """Issue 33 (5, 6): an ended table's code says the table ended (410), never counts
    as a wrong code (honest reloads after End cannot lock the class out), and End
    withdraws every credential of the table (a page's seat, its answers)."""
    hall.clock = Clock()
    served, codes = hall.create_table({"game": "jactus", "players": 2})
    _, seat, credential = hall.join(codes["A"])
    hall.play(served, seat, "r*", "m1")
    hall.set_status(served, "ended")
    for _ in range(3 * LIMITS["join_failures"]):          # a class reloading its pages
        with pytest.raises(WireError, match="has ended: its join codes join nothing") as gone:
            hall.join(codes["B"], "address:10.0.0.7")
        assert gone.value.status == 410
    other, more = hall.create_table({"game": "jactus", "players": 2})
    assert hall.join(more["A"], "address:10.0.0.7")[0] is other    # nobody was locked out
    with pytest.raises(WireError, match="has ended: it gets no new join codes"):
        hall.new_codes(served)
    record = served.table.replay.record(table=served.id)    # what the teacher downloads
    assert record.moves[0] == "r*"
    with pytest.raises(WireError) as withdrawn:
        hall.who(credential)
    assert withdrawn.value.code == "bad_credential"


def test_new_codes_can_withdraw_the_credentials_handed_out(hall):
    served, codes = hall.create_table({"game": "jactus", "players": 2})
    kept = hall.join(codes["A"])[2]
    hall.new_codes(served)                                   # lost slips: seats stay
    assert hall.who(kept)[0] == "seat"
    told = []
    conn = Connection(send=told.append, close=lambda: told.append("closed"))
    conn.page = None
    served.connections.setdefault(0, set()).add(conn)
    fresh = hall.new_codes(served, withdraw=True)            # a stolen slip: taken back
    with pytest.raises(WireError):
        hall.who(kept)
    assert told[0]["code"] == "withdrawn" and told[-1] == "closed"
    assert hall.join(fresh["A"])[1] == 0


def test_a_credential_expires(hall, monkeypatch):
    served, codes = hall.create_table({"game": "jactus", "players": 2})
    credential = hall.join(codes["A"])[2]
    assert hall.who(credential)[0] == "seat"
    hall.storage._write([("UPDATE credentials SET created = created - ?",
                          (LIMITS["credential_hours"] * 3600 + 5,))])
    with pytest.raises(WireError) as old:
        hall.who(credential)
    assert old.value.code == "bad_credential"


def test_wrong_codes_count_per_page_and_the_class_is_slowed_never_locked(hall):
    """One page's wrong codes hold up that page only, even behind one shared address;
    many pages guessing together make every wrong code answer late (never a right
    one)."""
    hall.clock = clock = Clock()
    _, codes = hall.create_table({"game": "jactus", "players": 2})
    for _ in range(LIMITS["join_failures"]):
        with pytest.raises(WireError):
            hall.join("KKKKKKKK", "page:guesser")
    with pytest.raises(WireError) as held:
        hall.join(codes["A"], "page:guesser")
    assert held.value.status == 429
    assert hall.join(codes["A"], "page:classmate")[1] == 0   # the same address, another page
    assert hall.wrong_code_delay() == 0
    for k in range(LIMITS["class_wrong_codes"] + 20):     # rotating ids: many "pages"
        with pytest.raises(WireError):
            hall.join("KKKKKKKK", f"page:rotating{k}")
    assert 0.5 < hall.wrong_code_delay() <= 5.0
    assert hall.join(codes["B"], "page:honest")[1] == 1     # a right code is not held
    clock.now += 61
    assert hall.wrong_code_delay() == 0


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


def test_tallies_refused_as_stale_count_in_the_students_limit(hall):
    """A send over a tally that changed is refused (409) and counted: a page that keeps
    sending stale tallies is held up like one that keeps sending, and its cleared throws
    stay out."""
    hall.clock = Clock()
    hall.set_throws("3b/ada", "talus", {"tally": {"1": 2}, "was": None})
    hall.clear_throws("talus", "3b/ada")
    for _ in range(LIMITS["answers_per_minute"] - 1):
        with pytest.raises(WireError, match="changed on the server") as stale:
            hall.set_throws("3b/ada", "talus", {"tally": {"1": 3}, "was": {"1": 2}})
        assert stale.value.status == 409
    with pytest.raises(WireError, match='"was" .*cannot show 2') as bad:
        hall.set_throws("3b/bo", "talus", {"tally": {"1": 1}, "was": {"2": 1}})
    assert bad.value.status == 400
    with pytest.raises(WireError, match="too many tallies") as limited:
        hall.set_throws("3b/ada", "talus", {"tally": {"1": 3}, "was": None})
    assert limited.value.status == 429
    assert hall.experiment("talus")["throws"] == 0


class Teacher(Connection):
    """A teacher's connection: what it is sent (``news``)."""

    def __init__(self) -> None:
        self.news: list[dict] = []
        super().__init__(send=self.news.append, role="teacher")


def test_the_tally_counts_students_not_clicks(hall, tmp_path):
    """One student sending the same wrong answer a hundred times is one student with
    that mistake; the commonest mistake is the one most students made."""
    from janus_widgets.widgets.dashboard import add_check, tally
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
    news = [m["answer"] for m in teacher.news if m["type"] == "answer"]
    assert len(news) == 103                               # each check, with its count
    assert [a["tries"] for a in news if a["student"] == "3b/ada"] == list(range(1, 101))
    # The dashboard's live tally is the server's tally.
    live: list = []
    for row in news:
        add_check(live, row)
    assert tally(live) == tally(hall.answers())
    # A restarted server knows what was sent before: a repeat counts on from there.
    again = make_hall(tmp_path / "class.sqlite")
    again.teachers.add(teacher)
    again.add_answer("3b/ben", answer(mistake="one order only"))
    assert teacher.news[-1]["answer"]["tries"] == 2
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


def test_a_move_whose_answer_comes_after_play_gave_up_is_told_to_the_page(hall):
    """play() waits so long; an answer after that is not kept for nobody: the page's
    status line says whether the move was played after all."""
    from janus_widgets.table.client import ClassroomError
    served, codes = hall.create_table({"game": "jactus", "players": 2, "seed": 5})
    client = seat_of(hall, served, 0)
    # what a cell ending in seat.state (or seat.play(...)) shows
    assert repr(client.state) == f"<seat A of table {served.id}, jactus, move 0>"
    with pytest.raises(ClassroomError, match="No answer from the server"):
        client.play("r*", timeout=0.05)
    sent = client.sent[-1]
    assert sent["type"] == "play" and client._pending      # sent again on reconnect
    ack = {"type": "ack", "id": sent["id"], "played": True, "ply": 0}
    client._take(json.dumps(ack))
    assert client.notice == ("Your move 'r*' was played after all (the server's answer "
                             "came late).", "info")
    assert not client._answers and not client._pending and not client._late
    with pytest.raises(ClassroomError):
        client.play("r1", timeout=0.05)
    client._take(json.dumps({"type": "error", "id": client.sent[-1]["id"],
                             "code": "refused", "error": "JA-6: throw all five first"}))
    assert client.notice[1] == "refused" and "JA-6" in client.notice[0]
    assert "'r1' was not played" in client.notice[0] and not client._answers


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


def on_own_thread(run, *args):
    """``run(*args)`` on a thread of its own, its exception raised here: an event loop
    needs a thread where none runs (Playwright's sync API, which the browser tests of
    this session share, keeps one running on the main thread)."""
    out: dict = {}

    def target():
        try:
            out["value"] = run(*args)
        except BaseException as exc:               # handed to the test's thread
            out["error"] = exc
    thread = threading.Thread(target=target)
    thread.start()
    thread.join(30)
    assert not thread.is_alive(), "the event loop did not finish in 30 s"
    if "error" in out:
        raise out["error"]
    return out.get("value")


def test_a_dropped_connection_is_lost_and_tried_again_never_raised():
    import tornado.iostream
    import tornado.websocket
    sockets = [FakeSocket(write=tornado.websocket.WebSocketClosedError()),
               FakeSocket(reads=[tornado.iostream.StreamClosedError()]),
               FakeSocket(reads=['{"type": "pong"}', ConnectionResetError("reset")]),
               FakeSocket(reads=['{"type": "pong"}', None])]
    probe = Probe(sockets)
    # this link's own connect only: patching tornado's module function would also feed
    # the fake sockets to any link an earlier test left reconnecting in this process

    async def connect(request):
        return probe.sockets.pop(0)
    probe._connect = connect
    on_own_thread(lambda: asyncio.run(asyncio.wait_for(probe._run(), 10)))  # nothing escaped
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


# ------------------------------------------------------------------ the hall's tables
def play_until(hall, served, seat, moves, prefix="p"):
    """Seat ``seat`` plays its first legal move while it is to move, ``moves`` times
    at most; the number it played."""
    played = 0
    while played < moves and served.table.state.current_player == seat \
            and served.status == "playing":
        hall.play(served, seat, served.table.state.legal_moves()[0].notation,
                  f"{prefix}{played}")
        played += 1
        served = hall.tables[served.id]
    return played


def test_one_broken_table_does_not_stop_the_others_from_coming_back(tmp_path):
    path = tmp_path / "class.sqlite"
    hall = make_hall(path)
    made = []
    for _ in range(3):
        served, codes = hall.create_table({"game": "jactus", "players": 2})
        play_until(hall, served, 0, 3)
        made.append((served.id, hall.join(codes["A"])[2], len(served.table.replay.lines[0])))
    hall.storage.close()
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE moves SET notation = 'zz' WHERE table_id = ? AND ply = 1",
                   (made[0][0],))
        db.execute("UPDATE tables SET game = 'chess' WHERE id = ?", (made[2][0],))
    again = make_hall(path)
    broken, fine = again.tables[made[0][0]], again.tables[made[1][0]]
    assert fine.status == "playing" and len(fine.table.replay.lines[0]) == made[1][2]
    assert broken.status == "ended" and len(broken.table.replay.lines[0]) == 1
    summary = again.summary(broken)
    assert summary["status"] == "ended" and "stored move 2 ('zz') does not replay" in \
        summary["note"]
    assert again.seat_update(broken, 0, 0)["note"] == summary["note"]   # its seats see why
    assert again.who(made[0][1])[1] is broken                # its pages still sign in
    with pytest.raises(WireError, match="could not be restored") as gone:
        again.table(made[2][0])                            # not even its game is known
    assert gone.value.status == 503
    with pytest.raises(WireError, match="could not be restored"):
        again.who(made[2][1])
    stored = {row.id: row.status for row in again.storage.tables()}
    assert stored[made[0][0]] == "playing"                # kept as it was, for a fix
    t4, _ = again.create_table({"game": "jactus", "players": 2})
    assert t4.id not in {m[0] for m in made}


def test_a_reloaded_table_keeps_its_status_as_stored_now(tmp_path, monkeypatch):
    from janus_widgets.table.storage import StorageError
    path = tmp_path / "class.sqlite"
    hall = make_hall(path)
    served, _ = hall.create_table({"game": "jactus", "players": 2})
    hall.set_status(served, "paused")
    hall.storage.close()
    hall = make_hall(path)                                 # it comes back paused ...
    served = hall.tables[served.id]
    assert served.status == "paused"
    hall.set_status(served, "playing")                     # ... and the teacher resumes
    real = hall.storage.append_moves
    calls = []

    def fail_once(*args):
        calls.append(args)
        if len(calls) == 1:
            raise StorageError("the disk is full")
        return real(*args)
    monkeypatch.setattr(hall.storage, "append_moves", fail_once)
    with pytest.raises(WireError, match="could not be stored") as failed:
        hall.play(served, 0, "r*", "m1")                   # fails: put back as stored
    assert failed.value.status == 503
    fresh = hall.tables[served.id]
    assert fresh is not served and fresh.status == "playing"
    assert hall.play(fresh, 0, "r*", "m1")["played"]      # and it plays on
    hall.set_status(fresh, "paused")
    hall.reload(fresh)
    assert hall.tables[served.id].status == "paused"
    with pytest.raises(WireError, match="paused"):
        hall.play(hall.tables[served.id], 0, "x", "m2")


def failing_bots(monkeypatch):
    """Bots named "greedy" raise when asked for a move."""
    from janus_widgets.table import local

    def make(name, game, seat, seed):
        if name != "greedy":
            return real(name, game, seat, seed)

        def policy(view):
            raise RuntimeError("the bot's search broke")
        return policy
    real = local.make_bot
    monkeypatch.setattr(local, "make_bot", make)


def test_a_bot_that_raises_pauses_its_table_saying_why_and_the_move_is_acknowledged(
        tmp_path, monkeypatch):
    failing_bots(monkeypatch)
    path = tmp_path / "class.sqlite"
    hall = make_hall(path)
    teacher = Teacher()
    hall.teachers.add(teacher)
    served, _ = hall.create_table({"game": "jactus", "players": 2, "bots": {"B": "greedy"}})
    ack = None
    for k in range(20):                                    # A plays until B's turn
        ack = hall.play(served, 0, served.table.state.legal_moves()[0].notation, f"m{k}")
        if served.status != "playing":
            break
    assert ack["type"] == "ack" and ack["played"]         # the move that led to it stands
    assert hall.storage.find_client_move(served.id, ack["id"]) == ack["ply"]
    assert served.status == "paused"
    note = hall.summary(served)["note"]
    assert "the bot of seat B (greedy) failed (RuntimeError: the bot's search broke)" in note
    assert hall.seat_update(served, 0, 0)["note"] == note
    assert teacher.news[-1]["table"]["note"] == note      # the teacher was told
    hall.set_status(served, "playing")                     # resumed: it fails again,
    assert served.status == "paused"                       # and nothing raised
    hall.storage.close()
    again = make_hall(path)                                # a restart keeps the reason
    assert again.tables[served.id].status == "paused"
    assert again.summary(again.tables[served.id])["note"] == note


def test_a_bot_that_raises_on_the_loop_pauses_its_table(tmp_path, monkeypatch):
    failing_bots(monkeypatch)
    loop = asyncio.new_event_loop()
    try:
        hall = Hall(SQLiteStorage(str(tmp_path / "class.sqlite")), TOKEN, bot_delay=0.01,
                    loop=lambda: loop)
        served, _ = hall.create_table({"game": "jactus", "players": 2,
                                       "bots": {"B": "greedy"}})
        for k in range(20):
            if served.table.state.current_player != 0:
                break
            hall.play(served, 0, served.table.state.legal_moves()[0].notation, f"m{k}")
        assert served.status == "playing"                  # the bot waits its delay ...
        on_own_thread(loop.run_until_complete, asyncio.sleep(0.2))  # ... then fails there
        assert served.status == "paused"
        assert "RuntimeError: the bot's search broke" in hall.summary(served)["note"]
    finally:
        loop.close()


def test_a_join_code_drawn_twice_is_drawn_again(hall, monkeypatch):
    draws = iter(["AAAAAAAA", "AAAAAAAA", "CCCCCCCC",              # table 1: A, B
                  "AAAAAAAA", "CCCCCCCC", "DDDDDDDD", "EEEEEEEE",  # table 2: A, B
                  "DDDDDDDD", "FFFFFFFF"])                          # a class of one
    monkeypatch.setattr(server_module, "_new_code", lambda: next(draws))
    _, first = hall.create_table({"game": "jactus", "players": 2})
    _, second = hall.create_table({"game": "jactus", "players": 2})
    assert first == {"A": "AAAAAAAA", "B": "CCCCCCCC"}
    assert second == {"A": "DDDDDDDD", "B": "EEEEEEEE"}
    assert hall.create_class({"name": "3b", "students": ["ada"]})[1] == {"ada": "DDDDDDDD"}
    assert [hall.join(code)[1] for code in (*first.values(), *second.values())] == \
        [0, 1, 0, 1]


# ------------------------------------------------------------------ storage, as documented
def test_the_docs_list_every_storage_method_with_its_arguments_and_no_other():
    import inspect
    from pathlib import Path

    from janus_widgets.table.storage import Storage
    text = (Path(__file__).resolve().parent.parent / "docs" / "classroom-server.md"
            ).read_text(encoding="utf-8")
    section = text.split("## A school-wide server", 1)[1].split("`hash_code` and", 1)[0]
    listed = {name: [a.strip() for a in args.split(",") if a.strip()]
              for name, args in re.findall(r"`([a-z_]+)\(([^)]*)\)`", section)}
    assert set(listed) == set(Storage.__abstractmethods__)
    for name, args in listed.items():
        params = list(inspect.signature(getattr(Storage, name)).parameters)[1:]
        assert args == params, f"docs/classroom-server.md: {name}({', '.join(args)})"


# ------------------------------------------------------------------ what a seat may cost
def test_a_sync_is_a_copy_of_the_frames_kept(hall):
    """Issue 33 (4): what a seat was told of each move is made once and kept; a sync
    from move 0 copies it, however long the game."""
    served, codes = hall.create_table({"game": "janus-cards", "players": 3,
                                       "bots": {"B": "random", "C": "random"}})
    table = served.table
    for _ in range(60):
        if table.is_over:
            break
        if table.current_player == 0:
            hall.play(served, 0, table.legal_moves()[0].notation, f"m{table.length}")
        else:
            table.step()
    first = hall.seat_update(served, 0, 0)
    again = hall.seat_update(served, 0, 0)
    assert len(first["moves"]) == table.length > 20
    assert all(a is b for a, b in zip(first["moves"], again["moves"]))
    assert first["view0"] is again["view0"]
    later = hall.seat_update(served, 0, table.length - 3)
    assert later["moves"] == first["moves"][-3:]
    hall.frames.clear()                           # made anew from the truth: the same
    assert hall.seat_update(served, 0, 0)["moves"] == first["moves"]


def test_a_seat_cannot_spend_more_than_its_work_budget(hall):
    hall.clock = clock = Clock()
    served, _ = hall.create_table({"game": "jactus", "players": 2})
    greedy = Connection(send=lambda m: None, role="seat", table_id=served.id, seat=0)
    other = Connection(send=lambda m: None, role="seat", table_id=served.id, seat=1)
    spent = 0.0
    with pytest.raises(WireError) as stopped:
        while True:
            hall.charge(greedy, 160)              # a sync of a 160-move game
            spent += 160
    assert stopped.value.code == "rate_limit" and "wait" in stopped.value.text
    assert spent <= LIMITS["seat_work_burst"]
    hall.charge(other, 160)                       # another seat has its own budget
    clock.now += 1.0
    hall.charge(greedy, LIMITS["seat_work_per_second"] * 0.9)   # refilled in time


def test_a_seat_keeps_its_newest_credentials_only(hall):
    served, codes = hall.create_table({"game": "jactus", "players": 2})
    told = []
    made = [hall.join(codes["A"])[2] for _ in range(LIMITS["credentials_per_seat"])]
    oldest = Connection(send=told.append, close=lambda: told.append("closed"))
    hall.sockets.setdefault(server_module.Storage.hash_credential(made[0]), set()).add(oldest)
    newer = [hall.join(codes["A"])[2] for _ in range(2)]
    for credential in made[:2]:
        with pytest.raises(WireError):
            hall.who(credential)
    for credential in made[2:] + newer:
        assert hall.who(credential)[0] == "seat"
    assert told[0]["code"] == "retired" and told[-1] == "closed"
    assert hall.who(hall.join(codes["B"])[2])[2] == 1     # another seat is untouched


def test_answers_are_taken_for_lessons_and_questions_that_exist_only(tmp_path):
    """Issue 33 (10): a student cannot fill the teacher's tally with made-up questions."""
    made = Hall(SQLiteStorage(str(tmp_path / "c.sqlite")), TOKEN, bot_delay=0,
                questions={"jactus-odds": {"q1", "q2"}})
    made.add_answer("3b/ada", answer())
    with pytest.raises(WireError, match="no lesson 'x-lesson' is taught here; the lessons "
                                        "are jactus-odds"):
        made.add_answer("3b/ada", answer(lesson="x-lesson"))
    with pytest.raises(WireError, match="has no question 'q9'; its questions are q1, q2"):
        made.add_answer("3b/ada", answer(question="q9"))
    assert len(made.answers("jactus-odds", every=True)) == 1
    made.storage.close()


def test_bidi_controls_are_dropped_from_what_a_student_sends(hall):
    """Issue 33 (9): a right-to-left override cannot reorder the tally after it."""
    row = hall.add_answer("3b/ada", answer(answer="1/3\u202e6/1\u202c", mistake="x\u2067y"))
    assert row.answer == "1/36/1" and row.mistake == "xy"
    stored = hall.answers("jactus-odds", every=True)[0]
    assert not set(stored["answer"] + stored["mistake"]) & set("\u202a\u202b\u202c\u202d"
                                                              "\u202e\u2066\u2067\u2068\u2069")


def test_a_students_credentials_are_capped_and_expire(hall):
    """The tester's fifth finding: one lesson code minted 200 credentials (800 sockets),
    each valid for ever."""
    _, codes = hall.create_class({"name": "3b", "students": ["ada"]})
    made = [hall.join_class(codes["ada"])[2] for _ in range(LIMITS["credentials_per_seat"]
                                                            + 2)]
    for credential in made[:2]:
        with pytest.raises(WireError):
            hall.who(credential)
    assert hall.who(made[-1])[0] == "student"
    hall.storage._write([("UPDATE student_credentials SET created = created - ?",
                          (LIMITS["credential_hours"] * 3600 + 5,))])
    with pytest.raises(WireError) as old:
        hall.who(made[-1])
    assert old.value.code == "bad_credential"


def test_bots_think_off_the_loop_one_search_per_table(tmp_path, monkeypatch):
    """Issue 32: on a server's loop a bot's search runs in the hall's bot thread: while
    a slow bot thinks, the loop serves another table's move at once; each table has at
    most one search asked for, and the bot's move lands, stored, when it answers."""
    from janus_widgets.table import local
    release = threading.Event()
    asked: list[int] = []
    real = local.make_bot

    def make(name, game, seat, seed):
        policy = real(name, game, seat, seed)

        def slow(view):
            asked.append(seat)
            assert release.wait(10), "the test never let the bot answer"
            return policy(view)
        return slow
    monkeypatch.setattr(local, "make_bot", make)
    loop = asyncio.new_event_loop()
    try:
        hall = Hall(SQLiteStorage(str(tmp_path / "class.sqlite")), TOKEN, bot_delay=0.01,
                    loop=lambda: loop)
        slow, _ = hall.create_table({"game": "jinns", "players": 2, "bots": {"A": "greedy"}})
        other, _ = hall.create_table({"game": "jactus", "players": 2})
        assert slow.bots and slow.table.bots == {}         # the hall asks, not the table

        async def meanwhile() -> float:
            await asyncio.sleep(0.2)                       # the bot is thinking now
            assert slow.thinking and asked == [0]
            started = time.perf_counter()
            hall.play(other, 0, other.table.state.legal_moves()[0].notation, "m0")
            served_in = time.perf_counter() - started
            hall.next_bot(slow)                            # asked again: still one search
            await asyncio.sleep(0.1)
            assert asked == [0] and slow.table.length == 0
            release.set()
            for _ in range(200):
                await asyncio.sleep(0.01)
                if slow.table.length:
                    break
            return served_in

        served_in = on_own_thread(loop.run_until_complete, meanwhile())
        assert served_in < 0.5, f"a move waited {served_in:.2f} s behind a bot's search"
        assert other.table.length >= 1
        assert slow.table.length >= 1 and slow.table.replay.lines[0].by[0] == "bot:greedy"
        assert [m.by for m in hall.storage.moves(slow.id)][:1] == ["bot:greedy"]
        assert slow.thinking == (slow.table.state.current_player in slow.bots)
        hall.close()
    finally:
        loop.close()


# ------------------------------------------------------------------ seat pages' caches
def _fresh_screen(hall, served, seat):
    """Seat ``seat``'s screen made with nothing kept: a new mirror fed from move 0 by the
    seat's own messages, every cache of the screen model and the games' drawings
    emptied first."""
    from janus_widgets.games.janus import draw as janus_draw
    from janus_widgets.table import screen as S
    from janus_widgets.table.client import SeatMirror
    from janus_widgets.table.seat_pages import PageView
    S._encoded.cache_clear()
    S._LAYERS.clear()
    janus_draw._board_layer.cache_clear()
    mirror = SeatMirror()
    mirror.take(hall.seat_welcome(served, seat))
    mirror.take(hall.seat_update(served, seat, 0))
    made = json.loads(json.dumps(PageView(mirror).screen()))
    made.pop("serial")
    return made


@pytest.mark.parametrize("game", ["janus-cards", "janus"])   # secrets; a board kept
def test_screens_made_ahead_and_kept_shapes_never_cross_seats(hall, game):
    """A new table's screens are made ahead (Hall.prepare) and shapes, layers and
    boards are kept between screens and seats: every screen a page is sent, as the page
    reads it, is the screen its seat's own messages make with nothing kept, move after
    move; and the seats' screens differ where their views do (the cards in hand)."""
    from janus_widgets.table.seat_pages import PageView, held_layers, message_text
    from janus_widgets.table.server import Connection
    players = 3 if game == "janus-cards" else 2
    served, codes = hall.create_table({"game": game, "players": players, "seed": 11})
    assert all((served.id, s) in hall.mirrors for s in range(players))   # made ahead
    got: dict[int, list[dict]] = {s: [] for s in range(players)}
    held: dict[int, dict] = {s: {} for s in range(players)}
    for seat in range(players):
        conn = Connection(send=lambda data, seat=seat: got[seat].append(
            json.loads(message_text(data))))
        conn.role, conn.table_id, conn.seat = "seat", served.id, seat
        conn.page = PageView(hall.mirror(served, seat))
        hall.attach(conn, served, seat)
    for k in range(5):
        for seat in range(players):
            shown = None
            for message in got[seat]:             # as the page takes them, in order
                if message["type"] == "screen":
                    shown = held_layers(held[seat], message)
                elif message["type"] == "presence" and shown is not None:
                    shown["seats"] = message["seats"]
            assert shown is not None, f"seat {seat} was sent no screen"
            got[seat].clear()
            shown.pop("serial")
            assert shown == _fresh_screen(hall, served, seat), (k, seat)
        if game == "janus-cards":
            hands = [_fresh_screen(hall, served, s)["drawing"]["layers"]["pieces"]
                     for s in range(players)]
            assert hands[0] != hands[1] != hands[2] != hands[0]
        state = served.table.state
        if state.is_over:
            break
        hall.play(served, state.current_player, state.legal_moves()[0].notation, f"m{k}")


def test_the_servers_sockets_send_small_messages_at_once(tmp_path, monkeypatch):
    """Every WebSocket the server accepts has TCP_NODELAY: with Nagle's algorithm a
    screen sent right after another message waited for the page's delayed
    acknowledgement (40 ms on Linux: a first screen took 45 ms, 5 ms without)."""
    import socket

    import tornado.httpserver
    import tornado.netutil
    import tornado.websocket

    handlers = []
    opened = server_module.SocketHandler.open

    def record(self, *args, **kwargs):
        handlers.append(self)
        return opened(self, *args, **kwargs)

    monkeypatch.setattr(server_module.SocketHandler, "open", record)
    hall = make_hall(tmp_path / "c.sqlite")

    async def main() -> int:
        listening = tornado.netutil.bind_sockets(0, "127.0.0.1")
        http = tornado.httpserver.HTTPServer(server_module.make_app(hall))
        http.add_sockets(listening)
        port = listening[0].getsockname()[1]
        ws = await tornado.websocket.websocket_connect(f"ws://127.0.0.1:{port}/ws")
        await ws.write_message(json.dumps({"type": "ping"}))
        assert json.loads(await ws.read_message()) == {"type": "pong"}
        stream = handlers[0].ws_connection.stream
        option = stream.socket.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        ws.close()
        http.stop()
        return option

    # a loop of its own, in a thread: a test before it in the same worker may leave one
    # running in this thread (asyncio.run refuses to nest)
    options: list[int] = []
    runner = threading.Thread(target=lambda: options.append(asyncio.run(main())))
    try:
        runner.start()
        runner.join(timeout=60)
        assert options and options[0] != 0, options
    finally:
        hall.storage.close()


def test_a_fault_making_the_first_screen_gives_the_plain_page_and_a_log(tmp_path, monkeypatch,
                                                                          caplog):
    """Should making a slip's first screen fail (a fault of ours), the student is sent
    the plain seat page, which joins on its socket as it always did; the fault is in
    the server's log, never on the page."""
    import tornado.httpclient
    import tornado.httpserver
    import tornado.netutil

    from janus_widgets.table.seat_pages import PageView, page_file

    def broken(self):
        raise RuntimeError("a fault in making a screen")

    monkeypatch.setattr(PageView, "screen", broken)
    hall = make_hall(tmp_path / "c.sqlite")
    _, codes = hall.create_table({"game": "jactus", "players": 2})

    async def main() -> tuple[int, bytes]:
        listening = tornado.netutil.bind_sockets(0, "127.0.0.1")
        http = tornado.httpserver.HTTPServer(server_module.make_app(hall))
        http.add_sockets(listening)
        port = listening[0].getsockname()[1]
        reply = await tornado.httpclient.AsyncHTTPClient().fetch(
            f"http://127.0.0.1:{port}/seat?code={codes['A']}", raise_error=False)
        http.stop()
        return reply.code, reply.body

    answers: list = []
    runner = threading.Thread(target=lambda: answers.append(asyncio.run(main())))
    try:
        runner.start()
        runner.join(timeout=60)
        assert answers and answers[0] == (200, page_file("seat.html")[0])
        assert "a fault in making a screen" in caplog.text
    finally:
        hall.storage.close()


def test_a_lesson_slips_code_leads_to_its_lessons_page(tmp_path):
    """A lesson slip's short address (``/lesson?code=…``) goes to the lesson's page with
    the code and the server's address for the pages, as the slip's long address did (too
    long to type); a class from before lesson slips, or a code of no class, says why."""
    from urllib.parse import parse_qs, urlparse
    hall = make_hall(tmp_path / "class.sqlite")
    hall.pages, hall.public = "http://192.0.2.2:8867/", "http://127.0.0.1:8866"
    _, codes = hall.create_class({"name": "3b", "students": ["ada"],
                                  "lesson": "what-can-i-know"})
    _, plain = hall.create_class({"name": "3c", "students": ["bo"]})
    typed = codes["ada"][:5].lower() + " " + codes["ada"][5:]   # as a student types it
    address = urlparse(hall.lesson_address(typed))
    assert (address.netloc, address.path) == (
        "192.0.2.2:8867", "/voila/render/lessons/what-can-i-know.ipynb")
    query = parse_qs(address.query)
    assert query["server"] == ["http://127.0.0.1:8866"]
    assert hall.join_class(query["code"][0])[:2] == ("3b", "ada")    # the code joins
    assert "pass" not in query                      # no key for the pages: no pass
    # the classroom's pages count a student's pages by the code's pass, not by the
    # address (a school's students behind one): only the class's own servers make it
    from janus_widgets.table.page_pass import key_file, page_pass, read_or_make_key
    hall.pages_key = read_or_make_key(key_file(str(tmp_path / "class.sqlite")))
    query = parse_qs(urlparse(hall.lesson_address(typed)).query)
    assert query["pass"] == [page_pass(hall.pages_key, query["code"][0])]
    with pytest.raises(WireError, match="opens no lesson page") as no_lesson:
        hall.lesson_address(plain["bo"])
    assert no_lesson.value.code == "no_lesson"
    with pytest.raises(WireError, match="No lesson slip has this code"):
        hall.lesson_address("ZZZZZZZZZZ")
    # wrong codes count with the class's, as a seat slip's address does: past
    # class_wrong_codes they are answered late
    assert hall.wrong_code_delay() == 0
    for _ in range(LIMITS["class_wrong_codes"]):
        with pytest.raises(WireError):
            hall.lesson_address("ZZZZZZZZZZ")
    assert hall.wrong_code_delay() > 0
    with pytest.raises(WireError, match="lesson's name"):
        hall.create_class({"name": "3d", "students": 2, "lesson": "../etc"})
    served = make_hall(tmp_path / "other.sqlite", questions={"roman-dice": {"q1"}})
    with pytest.raises(WireError, match="no lesson 'jactus-odd' here: one of roman-dice"):
        served.create_class({"name": "3d", "students": 2, "lesson": "jactus-odd"})
    # kept: a restarted server still knows each code's lesson
    again = make_hall(tmp_path / "class.sqlite")
    again.pages, again.public = hall.pages, hall.public
    assert "what-can-i-know.ipynb" in again.lesson_address(codes["ada"])


def test_a_database_from_before_lesson_slips_opens_and_keeps_its_codes(tmp_path):
    """A database made before lesson slips (no table of the codes' lessons) opens, and
    its codes still join (and open no lesson page); its students' table is as it was,
    so an older version of the package still adds students to a database made now."""
    import sqlite3
    path = tmp_path / "old.sqlite"
    storage = SQLiteStorage(str(path))
    storage.add_students("3a", {"cy": storage.hash_code("KM4TPXRA3C")})
    storage.close()
    db = sqlite3.connect(path)                   # as it was made before lesson slips
    db.execute("DROP TABLE student_lessons")
    db.execute("INSERT INTO students VALUES (?,?,?)", ("older-version", "3a", "di"))
    db.commit()
    db.close()
    hall = make_hall(path)
    hall.pages = "http://h:8867"
    assert hall.join_class("KM4TPXRA3C")[:2] == ("3a", "cy")
    with pytest.raises(WireError, match="opens no lesson page"):
        hall.lesson_address("KM4TPXRA3C")


def test_more_codes_for_a_class_add_students_and_never_take_anyones_place(tmp_path):
    """Lesson codes made again for a class by a number (a latecomer, a second group)
    named them student-1… again: the first students' codes stopped working, and each
    newcomer took a first student's place, numbers and checks. They are numbered after
    the last now; a name given again still gets a new code (a lost slip)."""
    hall = make_hall(tmp_path / "class.sqlite")
    try:
        _, first = hall.create_class({"name": "7a", "students": 3})
        _, late = hall.create_class({"name": "7a", "students": 2})
        assert list(late) == ["student-4", "student-5"]
        for name, code in {**first, **late}.items():
            assert hall.join_class(code)[:2] == ("7a", name)
        _, other = hall.create_class({"name": "7b", "students": 1})    # each class its own
        assert list(other) == ["student-1"]
        joined = {name: hall.join_class(code)[2] for name, code in first.items()}
        _, again = hall.create_class({"name": "7a", "students": ["student-2"]})
        assert hall.join_class(again["student-2"])[:2] == ("7a", "student-2")
        with pytest.raises(WireError, match="no student has the code"):
            hall.join_class(first["student-2"])
        # a slip given again is often one lost or passed round: the pages its old code
        # opened stop counting (a hostile student's kept credential posted for a day)
        with pytest.raises(WireError, match="opens no seat"):
            hall.who(joined["student-2"])
        assert hall.student_of(joined["student-1"]) == ("7a", "student-1")
        # kept: a restarted server numbers on
        hall.storage.close()
        hall = make_hall(tmp_path / "class.sqlite")
        assert list(hall.create_class({"name": "7a", "students": 1})[1]) == ["student-6"]
    finally:
        hall.storage.close()

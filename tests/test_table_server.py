"""The table server: a real server process, real sockets, a real SQLite file.

Everything here goes through what a class uses: ``python -m janus_widgets serve``, the
HTTP lobby, WebSockets, ``janus_widgets.classroom``.
"""

from __future__ import annotations

import html
import json
import random
import re
import sqlite3
import subprocess
import sys
import time
import urllib.request

import pytest

import janus_widgets as jw
from janus_widgets import classroom, games
from janus_widgets.analysis.checking import exercise_sets
from janus_widgets.core.errors import IllegalMoveError
from janus_widgets.core.record import Record
from janus_widgets.table import screen as S
from janus_widgets.table.client import ClassroomError
from janus_widgets.table.server import LIMITS
from server_support import DeafSocket, ServerProcess, Socket, table_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with table_server(tmp_path_factory.mktemp("tables")) as s:
        yield s


@pytest.fixture(scope="module")
def teacher(server):
    return classroom.connect(server.url, server.token)


def http(server, method, path, secret="", body=None):
    """(status, JSON) of one request, whatever the status."""
    data = None if body is None else (body if isinstance(body, bytes)
                                      else json.dumps(body).encode())
    request = urllib.request.Request(server.url + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if secret:
        request.add_header("Authorization", f"Bearer {secret}")
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def signed_in(server, secret, **hello):
    sock = Socket(server.url)
    sock.send({"type": "hello", "credential": secret, **hello})
    return sock


def credentials(server, t) -> dict[str, str]:
    """Join every human seat of table ``t`` with its code: {seat letter: credential}."""
    joined = {}
    for letter, code in t.codes.items():
        _, answer = http(server, "POST", "/api/join", body={"code": code})
        joined[letter] = answer["credential"]
    return joined


def two_seats_in(server, teacher):
    """A new two-seat Jactus table, both seats signed in and told the start:
    (table, credentials, A's socket, B's socket)."""
    t = teacher.create_table("jactus", players=2)
    creds = credentials(server, t)
    a, b = signed_in(server, creds["A"]), signed_in(server, creds["B"])
    a.receive("update"), b.receive("update")
    return t, creds, a, b


def truth(teacher, table_id):
    return teacher.record(table_id).final_state()


def wait_until(check, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError("the condition did not come true in time")
        time.sleep(0.02)


# ------------------------------------------------------------------ the lobby
def test_the_lobby_makes_a_table_with_one_code_per_human_seat(teacher):
    t = teacher.create_table("janus-cards", players=3, bots={2: "greedy"})
    assert set(t.codes) == {"A", "B"}
    assert all(re.fullmatch(r"[A-Z0-9]{10}", code) for code in t.codes.values())
    listed = {row["id"]: row for row in teacher.tables()}
    assert listed[t.id]["game"] == "janus-cards" and listed[t.id]["players"] == 3
    assert [s["who"] for s in listed[t.id]["seats"]] == ["human", "human", "greedy"]
    record = teacher.record(t.id)                 # the full record: the teacher's
    assert isinstance(record, Record) and record.seed is not None
    assert "seed" not in json.dumps(listed[t.id])


def test_a_table_is_made_from_a_ruleset_options_and_a_given_seed(teacher):
    t = teacher.create_table("jactus", players=3, ruleset="points", seed=77,
                             bots={"C": "random"})
    record = teacher.record(t.id)
    assert record.seed == 77 and record.ruleset == "points"
    assert record.variant["players"] == 3
    t2 = teacher.create_table("jinns", players=2, placement="random")
    assert teacher.record(t2.id).variant["placement"] == "random"


@pytest.mark.parametrize("spec, says", [
    (dict(game="chess"), "unknown game 'chess'"),
    (dict(game="jactus", players=9), "players"),
    (dict(game="jactus", bots={"C": "greedy"}), "not a seat"),
    (dict(game="jactus", bots={"B": "nobody"}), "no bot called"),
    (dict(game="jactus", bots={"A": "greedy", "B": "greedy"}), "every seat is a bot"),
    (dict(game="jactus", seed=-1), "seed"),
    (dict(game="jactus", ruleset="nope"), "nope"),
])
def test_a_bad_table_is_refused_saying_what_is_allowed(teacher, spec, says):
    game = spec.pop("game")
    with pytest.raises(ClassroomError, match=re.escape(says)):
        teacher.create_table(game, **spec)


def test_the_same_code_joins_the_same_seat_from_another_device(server, teacher):
    t = teacher.create_table("jactus", players=2)
    first = classroom.join(server.url, t.codes["B"])
    second = classroom.join(server.url, t.codes["B"].lower())    # typed in lower case
    assert first.seat == second.seat == 1 and first.table_id == second.table_id == t.id
    first.close(), second.close()


def test_an_unknown_code_is_refused_by_name(server):
    with pytest.raises(ClassroomError, match="no seat has the join code 'ZZZZZZ'"):
        classroom.join(server.url, "ZZZZZZ")


def test_wrong_codes_from_one_address_are_answered_429_saying_how_long_to_wait(tmp_path):
    with table_server(tmp_path) as own:                  # its own: 127.0.0.1 must wait
        t = classroom.connect(own.url, own.token).create_table("jactus", players=2)
        for _ in range(LIMITS["join_failures"]):
            assert http(own, "POST", "/api/join", body={"code": "KKKKKKKK"})[0] == 404
        status, answer = http(own, "POST", "/api/join", body={"code": t.codes["A"]})
        assert status == 429 and answer["code"] == "rate_limit"
        assert re.search(r"wait \d+ s", answer["error"])
        # A notebook's client sends its own id: another kernel behind the same address
        # (a JupyterHub) is not held up by these wrong codes.
        with pytest.raises(ClassroomError, match="no student has the code"):
            classroom.join_class(own.url, "KKKKKKKK")
        assert classroom.join(own.url, t.codes["A"]).seat == 0


def test_an_ended_table_joins_nobody_and_its_record_stays(server, teacher):
    t = teacher.create_table("jactus", players=2)
    a = classroom.join(server.url, t.codes["A"])
    a.play("r*")
    teacher.end(t.id)
    with pytest.raises(ClassroomError, match="has ended: its join codes join nothing"):
        classroom.join(server.url, t.codes["B"])
    assert teacher.record(t.id).moves[0] == "r*"
    a.close()


def test_a_body_that_is_not_json_is_refused_and_joins_nobody(server, teacher):
    """A page of another site can POST text/plain or a form without asking; only JSON
    is accepted (issue 33, 5)."""
    t = teacher.create_table("jactus", players=2)
    for kind in ("text/plain", "application/x-www-form-urlencoded", "text/plain; a=b"):
        request = urllib.request.Request(server.url + "/api/join", method="POST",
                                         data=json.dumps({"code": t.codes["A"]}).encode(),
                                         headers={"Content-Type": kind})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 415
        assert "application/json" in json.loads(refused.value.read())["error"]
    assert teacher.table(t.id)["seats"][0]["connected"] == 0


def test_end_closes_the_seats_connections_saying_why(server, teacher):
    t = teacher.create_table("jactus", players=2)
    creds = credentials(server, t)
    sock = signed_in(server, creds["A"])
    sock.receive("update")
    teacher.end(t.id)
    assert "ask your teacher for a new slip" in sock.receive("error")["error"]
    again = signed_in(server, creds["A"])
    assert again.receive("error")["code"] == "bad_credential"


@pytest.mark.parametrize("how", ["withdrawn", "retired"])
def test_a_page_closed_by_the_server_cannot_play_before_it_answers_the_close(
        server, teacher, how):
    """A withdrawn credential (new codes, withdraw) or a retired one (the seat joined
    on more pages than it keeps): its socket is told and closed, and a script that
    never answers the close frame (tornado waits 5 s for it) plays nothing meanwhile."""
    t = teacher.create_table("jactus", players=2)
    deaf = DeafSocket(server.url)
    deaf.send({"type": "hello", "credential": credentials(server, t)["A"]})
    deaf.until("update")
    if how == "withdrawn":
        teacher.new_codes(t.id, withdraw=True)
    else:
        for _ in range(LIMITS["credentials_per_seat"]):
            http(server, "POST", "/api/join", body={"code": t.codes["A"]})
    assert deaf.until("error")["code"] == how
    assert deaf.frame()[0] == 8                             # the server's close frame
    for k in range(3):
        deaf.send({"type": "play", "move": "r*", "id": f"late-{k}"})
        time.sleep(0.2)
    assert list(teacher.record(t.id).moves) == []
    deaf.close()


def test_a_page_that_reads_nothing_it_is_sent_is_closed(server, teacher):
    """A script asks for pictures of a Janus board (about 100 kB each) as fast as its
    seat's work allows and never reads them: the server does not keep them without
    end (it kept 1 MB a second, for as long as the socket stayed); past
    ``unsent_bytes`` the socket is closed, and the seat's other page plays on."""
    t = teacher.create_table("janus", players=2, bots={1: "greedy"})
    credential = credentials(server, t)["A"]
    deaf = DeafSocket(server.url, receive_buffer=4096)
    deaf.send({"type": "hello", "credential": credential, "screen": True})
    honest = signed_in(server, credential)
    honest.receive("update")
    wait_until(lambda: teacher.table(t.id)["seats"][0]["connected"] == 2)
    deadline = time.monotonic() + 30
    while teacher.table(t.id)["seats"][0]["connected"] == 2:
        assert time.monotonic() < deadline, "the page that reads nothing kept its socket"
        deaf.send({"type": "picture"})
        time.sleep(0.05)
    assert "did not read" in server.log.read_text()
    mark = honest.mark()
    honest.send({"type": "ping"})
    honest.receive("pong", after=mark)
    deaf.close(), honest.close()


def test_a_page_that_reads_what_it_is_sent_is_never_closed_for_it(server, teacher):
    """The count of what a socket was sent and has not read goes down as it reads: a
    page that reads asks for more than ``unsent_bytes`` of pictures in all and keeps
    its socket."""
    t = teacher.create_table("janus", players=2, bots={1: "greedy"})
    sock = signed_in(server, credentials(server, t)["A"], screen=True)
    sock.receive("screen")
    pictures = 0
    while pictures * 100_000 < 1.5 * LIMITS["unsent_bytes"]:
        mark = sock.mark()
        for _ in range(10):
            sock.send({"type": "picture"})
        wait_until(lambda: len([f for f in sock.frames[mark:]
                                if f["type"] in ("picture", "error")]) >= 10)
        got = [f for f in sock.frames[mark:] if f["type"] == "picture"]
        assert all(len(f["svg"]) > 50_000 for f in got)
        pictures += len(got)
        time.sleep(0.3)                                  # within the seat's work budget
    assert not sock.closed
    mark = sock.mark()
    sock.send({"type": "ping"})
    sock.receive("pong", after=mark)
    sock.close()


def test_a_wrong_teacher_token_is_refused(server):
    with pytest.raises(ClassroomError, match="opens no seat and is not the teacher"):
        classroom.connect(server.url, "not-the-token-at-all")


# ------------------------------------------------------------------ what a seat gets
def test_a_seat_receives_only_its_view_never_the_seed(server, teacher):
    """Two seats and a bot play the card game to the end; every frame each seat
    receives is checked against the truth: its views are its own view of the true
    position after each move, nothing else, and the seed never appears."""
    t = teacher.create_table("janus-cards", players=3, bots={2: "greedy"}, stall_rounds=6)
    seed = str(teacher.record(t.id).seed)
    socks = {letter: signed_in(server, secret)
             for letter, secret in credentials(server, t).items()}
    for sock in socks.values():
        sock.receive("update")
    played = 0
    for _ in range(400):
        record = teacher.record(t.id)
        state = record.final_state()
        if state.is_over:
            break
        seat = state.current_player
        if seat == 2 or seat < 0:
            time.sleep(0.05)
            continue
        letter = "AB"[seat]
        sock = socks[letter]
        update = sock.receive("update", where=lambda f: f["length"] == len(record.moves))
        assert update["legal"], "the seat to move is sent its legal moves"
        legal_truth = [m.notation for m in state.view(seat).legal_moves()]
        assert [m[1] for m in update["legal"]] == legal_truth
        mark = sock.mark()
        sock.send({"type": "play", "move": random.Random(played).choice(legal_truth),
                   "id": f"m{played}"})
        assert sock.receive("ack", after=mark)["id"] == f"m{played}"
        played += 1
    final = teacher.record(t.id)
    assert final.final_state().is_over and played > 5
    states = final.states()
    engine = states[0].engine
    for letter, sock in socks.items():
        seat = "AB".index(letter)
        sock.receive("update", where=lambda f: f["length"] == len(final.moves))
        seen = {}
        for frame in sock.frames:
            text = json.dumps(frame)
            assert seed not in text, f"the seed reached seat {letter}"
            if frame["type"] != "update":
                continue
            assert frame["legal"] is None or states[frame["length"]].current_player == seat
            if "view0" in frame:
                seen[0] = frame["view0"]
            for move in frame["moves"]:
                seen[move["ply"] + 1] = move["view"]
                before = states[move["ply"]]
                assert move["told"] == engine.observed(before.raw,
                                                       final_actions(final)[move["ply"]],
                                                       seat)
        assert sorted(seen) == list(range(len(final.moves) + 1))
        for ply, data in seen.items():       # exactly the seat's view of the truth
            assert data == engine.view_to_data(states[ply].view(seat)), (letter, ply)
        sock.close()


def final_actions(record):
    return record.replay().current_line.actions


def test_the_python_api_a_seat_plays_and_its_record_is_its_view_of_the_truth(server,
                                                                             teacher):
    t = teacher.create_table("janus-cards", players=3, bots={2: "greedy"})
    a = classroom.join(server.url, t.codes["A"])
    b = classroom.join(server.url, t.codes["B"])
    assert a.view == truth(teacher, t.id).view(0)
    for _ in range(6):
        for seat in (a, b):
            if seat.legal_moves():
                seat.play(seat.legal_moves()[0])
        a.wait(0.3)
    wait_until(lambda: a.length == b.length == len(teacher.record(t.id).moves))
    full = teacher.record(t.id)
    assert a.view == full.final_state().view(0) and b.view == full.final_state().view(1)
    mine = a.record()
    assert mine.moves == full.view(0).moves and mine.views == full.view(0).views
    assert "seed" not in mine.to_dict()
    assert mine.by and set(mine.by) <= {"human", "chance", "bot:greedy"}
    wait_until(lambda: a.legal_moves() or b.legal_moves() or a.is_over)
    other = b if a.legal_moves() else a          # the seat that is not to move
    with pytest.raises(IllegalMoveError, match="turn|game is over"):
        other.play("dP")
    assert "turn" in other.notice[0] or "over" in other.notice[0]
    a.close(), b.close()


def test_bots_and_chance_run_on_the_server(server, teacher):
    t = teacher.create_table("jactus", players=2, bots={"B": "greedy"})
    a = classroom.join(server.url, t.codes["A"])
    a.play("r*")
    # the bot's move, then A's turn again as A's page knows it (A's legal moves alone
    # may still be those of before its own move's news)
    wait_until(lambda: "bot:greedy" in teacher.record(t.id).by)
    wait_until(lambda: (a.legal_moves() and a.facts(0).last.startswith(
        ("B (bot) played", "Chance"))) or a.is_over)
    by = teacher.record(t.id).by
    assert by[:2] == ("human", "chance") and "bot:greedy" in by
    assert a.facts(0).last.startswith(("B (bot) played", "Chance"))
    a.close()


@pytest.mark.parametrize("name", games.names())
def test_every_game_plays_a_move_from_two_seats(server, teacher, name):
    t = teacher.create_table(name, players=2)
    a = classroom.join(server.url, t.codes["A"])
    b = classroom.join(server.url, t.codes["B"])
    moved = 0
    for _ in range(20):
        for seat in (a, b):
            if seat.legal_moves():
                seat.play(seat.legal_moves()[-1])
                moved += 1
            else:
                seat.wait(0.5)          # the other's move reaches this seat a moment later
        if moved >= 2:
            break
    wait_until(lambda: a.length == b.length == len(teacher.record(t.id).moves))
    state = teacher.record(t.id).final_state()
    assert moved >= 2 and a.view == state.view(0) and b.view == state.view(1)
    assert a.record().moves == teacher.record(t.id).view(0).moves
    a.close(), b.close()


def test_a_resent_move_is_played_once(server, teacher):
    t = teacher.create_table("jactus", players=2)
    _, answer = http(server, "POST", "/api/join", body={"code": t.codes["A"]})
    sock = signed_in(server, answer["credential"])
    sock.receive("update")
    sock.send({"type": "play", "move": "r*", "id": "same-id"})
    first = sock.receive("ack")
    mark = sock.mark()
    sock.send({"type": "play", "move": "r*", "id": "same-id"})   # the client was cut off
    again = sock.receive("ack", after=mark)
    assert first["ply"] == again["ply"] == 0 and again["again"]
    assert list(teacher.record(t.id).moves[:1]) == ["r*"] and \
        teacher.record(t.id).moves.count("r*") == 1
    sock.close()


# ------------------------------------------------------------------ bad input
def test_bad_messages_get_an_error_and_touch_nothing(server, teacher):
    t, creds, a, b = two_seats_in(server, teacher)
    before = teacher.record(t.id).moves
    cases = [
        ("{not json", "bad_json"),
        (json.dumps([1, 2]), "bad_message"),
        (json.dumps({"type": "teleport"}), "unknown_type"),
        (json.dumps({"type": "play", "move": "r*"}), "bad_request"),            # no id
        (json.dumps({"type": "play", "move": 5, "id": "x"}), "bad_request"),
        (json.dumps({"type": "play", "move": "r*", "id": "y", "seat": "B"}), "wrong_seat"),
        (json.dumps({"type": "watch", "table": t.id}), "teacher_only"),
        (json.dumps({"type": "sync", "since": -3}), "bad_request"),
        (json.dumps({"type": "hello", "credential": creds["B"]}), "signed_in"),
        (json.dumps({"type": "hello", "credential": creds["A"]}), "signed_in"),  # once
        (json.dumps({"type": "pad", "x": "x" * (LIMITS["message_bytes"] + 10)}), "too_big"),
        (json.dumps({"type": "play", "move": "r1", "id": "z"}), "refused"),      # JA-rule
    ]
    for text, code in cases:
        mark = a.mark()
        a.send_text(text)
        error = a.receive("error", after=mark)
        assert error["code"] == code, (text[:60], error)
        assert error["error"]
    mark = b.mark()
    b.send({"type": "play", "move": "r*", "id": "b1"})            # out of turn
    error = b.receive("error", after=mark)
    assert error["code"] == "not_your_turn" and "A's turn" in error["error"]
    assert error["id"] == "b1"
    mark = a.mark()
    a.send_text(b"\x00\x01")
    assert a.receive("error", after=mark)["code"] == "bad_message"
    assert teacher.record(t.id).moves == before                    # the game untouched
    mark = a.mark()
    a.send({"type": "play", "move": "r*", "id": "ok"})               # the connection works
    assert a.receive("ack", after=mark)["played"]
    b.receive("update", where=lambda f: f["length"] >= 2)          # and B was told
    a.close(), b.close()


def test_a_frame_over_the_limit_closes_only_its_own_socket(server, teacher):
    """A frame over 1 MiB is not read: tornado closes that socket (1009, as the docs
    say); the seat signs in again on a new one, the table and the other seat go on."""
    t, creds, a, b = two_seats_in(server, teacher)
    b.send_text("x" * (LIMITS["frame_bytes"] + 1))
    wait_until(lambda: b.closed)
    assert b.close_code == 1009
    mark = a.mark()
    a.send({"type": "play", "move": "r*", "id": "after-big"})
    assert a.receive("ack", after=mark)["played"]
    again = signed_in(server, creds["B"])
    assert again.receive("update")["length"] >= 1
    a.close(), again.close()


def test_a_flood_is_limited_per_connection_and_the_others_play_on(server, teacher):
    t, creds, a, b = two_seats_in(server, teacher)
    for _ in range(200):
        b.send({"type": "ping"})
    limited = b.receive("error", where=lambda f: f["code"] == "rate_limit")
    assert "too many messages" in limited["error"]
    pongs = sum(1 for f in b.frames if f["type"] == "pong")
    assert LIMITS["burst"] - 2 <= pongs < 200          # (hello took one of the burst)
    mark = a.mark()
    a.send({"type": "play", "move": "r*", "id": "a1"})                  # A is not slowed
    assert a.receive("ack", after=mark)["played"]
    time.sleep(1.0)                                                       # B's budget refills
    mark = b.mark()
    b.send({"type": "ping"})
    b.receive("pong", after=mark)
    a.close(), b.close()


def test_a_seat_credential_opens_at_most_four_sockets_the_fifth_is_told_why(server,
                                                                           teacher):
    t = teacher.create_table("jactus", players=2)
    _, answer = http(server, "POST", "/api/join", body={"code": t.codes["A"]})
    socks = [signed_in(server, answer["credential"]) for _ in range(4)]
    for sock in socks:
        sock.receive("welcome")
    fifth = signed_in(server, answer["credential"])
    refused = fifth.receive("error")
    assert refused["code"] == "limit" and "at most 4 connections" in refused["error"]
    wait_until(lambda: fifth.closed)
    assert fifth.close_code == 1008 and "at most 4 connections" in fifth.close_reason
    socks[0].close()                                   # one page closes: room for one
    wait_until(lambda: teacher.table(t.id)["seats"][0]["connected"] == 3)
    again = signed_in(server, answer["credential"])
    again.receive("welcome")
    with pytest.raises(ClassroomError, match="at most 4 connections"):
        classroom.RemoteTable(server.url, answer["credential"], timeout=5)
    for sock in [*socks[1:], again]:
        sock.close()


def test_every_endpoint_with_every_kind_of_credential(server, teacher):
    """Each endpoint and each message type, tried with no credential, a made-up one, a
    seat's, another table's seat's and the teacher's: only the right one gets in."""
    t = teacher.create_table("jactus", players=2)
    other = teacher.create_table("jactus", players=2)
    def credential(table, letter):
        return http(server, "POST", "/api/join", body={"code": table.codes[letter]})[1][
            "credential"]
    _, made = http(server, "POST", "/api/classes", server.token,
                   {"name": "3b", "students": ["ada", "ben"]})
    _, student = http(server, "POST", "/api/join_class", "", {"code": made["codes"]["ada"]})
    ended = teacher.create_table("jactus", players=2)
    kinds = {"none": "", "made-up": "x" * 32, "seat": credential(t, "A"),
             "other seat": credential(other, "A"), "student": student["credential"],
             "teacher": server.token}
    teacher_only = [("GET", "/api/tables", None), ("POST", "/api/tables", {"game": "jactus"}),
                    ("GET", f"/api/tables/{t.id}", None),
                    ("GET", f"/api/tables/{t.id}/record", None),
                    ("POST", f"/api/tables/{other.id}/pause", None),
                    ("POST", f"/api/tables/{other.id}/resume", None),
                    ("POST", f"/api/tables/{other.id}/codes", None),
                    ("POST", "/api/classes", {"name": "4c", "students": 2}),
                    ("GET", "/api/answers", None),
                    ("POST", f"/api/tables/{ended.id}/end", None)]      # last: it ends it
    for method, path, body in teacher_only:
        for kind, secret in kinds.items():
            status, answer = http(server, method, path, secret, body)
            if kind == "teacher":
                assert status in (200, 201), (path, answer)
            else:
                assert status in (401, 403) and answer["type"] == "error", (path, kind)
                assert "seed" not in json.dumps(answer)
    for kind, secret in kinds.items():            # open to all: the server's page, status
        assert http(server, "GET", "/api/status", secret)[0] == 200
        status, page = http(server, "GET", "/", secret)
        assert status == 200 and "seed" not in json.dumps(page) and "codes" not in page
        status, answer = http(server, "POST", "/api/answers", secret,
                              {"lesson": "jactus-odds", "question": "q1", "answer": "2",
                               "verdict": "right"})
        assert (status == 201) == (kind in ("seat", "other seat", "student")), (kind, answer)
        # the class experiment: a student's page sends its tally and reads the pool, the
        # teacher reads every tally and clears one (issue 35, item 2)
        status, answer = http(server, "POST", "/api/experiments/talus", secret,
                              {"tally": {"1": 1, "3": 2}})
        assert (status == 201) == (kind in ("seat", "other seat", "student")), (kind, answer)
        status, answer = http(server, "GET", "/api/experiments/talus", secret)
        assert (status == 200) == (kind != "none" and kind != "made-up"), (kind, answer)
        assert ("tallies" in answer) == (kind == "teacher"), (kind, answer)
    status, answer = http(server, "DELETE", "/api/experiments/talus?student=3b%2Fada",
                          kinds["seat"])
    assert status == 403, answer
    status, answer = http(server, "DELETE", "/api/experiments/talus?student=3b%2Fada",
                          server.token)
    assert status == 200 and "3b/ada" not in [t["student"] for t in answer["tallies"]]
    # A credential is no join code (two tries only: wrong codes are limited per address)
    for path, kind in (("/api/join", "seat"), ("/api/join_class", "student")):
        status, answer = http(server, "POST", path, kinds[kind], {"code": kinds[kind]})
        assert status in (400, 404) and "credential" not in answer, (path, answer)
    assert http(server, "POST", "/api/join", "", {"code": "??"})[0] == 404
    assert http(server, "GET", "/api/nothing-here", server.token)[0] == 404
    assert http(server, "POST", "/api/tables", server.token, b"{oops")[1]["code"] == \
        "bad_json"
    # WebSocket: which message types each kind may send.
    expect = {"none": {"sync": "no_credential", "play": "no_credential",
                       "watch": "no_credential", "unwatch": "no_credential"},
              "made-up": {"hello": "bad_credential"},
              "seat": {"watch": "teacher_only", "unwatch": "teacher_only"},
              "other seat": {"watch": "teacher_only", "unwatch": "teacher_only"},
              "student": {"sync": "seat_only", "play": "seat_only", "watch": "seat_only",
                          "unwatch": "seat_only"},
              "teacher": {"sync": "seat_only", "play": "seat_only"}}
    messages = {"sync": {"type": "sync", "since": 0},
                "play": {"type": "play", "move": "r*", "id": "w"},
                "watch": {"type": "watch", "table": t.id},
                "unwatch": {"type": "unwatch", "table": t.id},
                "ping": {"type": "ping"}}
    for kind, secret in kinds.items():
        sock = Socket(server.url)
        if kind != "none":
            mark = sock.mark()
            sock.send({"type": "hello", "credential": secret})
            first = sock.receive(after=mark)
            if "hello" in expect[kind]:
                assert first["code"] == expect[kind]["hello"]
            else:
                assert first["type"] == "welcome"
        for name, message in messages.items():
            mark = sock.mark()
            sock.send(message)
            code = expect[kind].get(name)
            if kind == "made-up" and name != "ping":
                code = "no_credential"              # a failed hello signs nobody in
            if code is not None:
                reply = sock.receive("error", after=mark, timeout=5)
                assert reply["code"] == code, (kind, name, reply)
            else:
                wanted = {"ping": "pong", "sync": "update", "play": "ack",
                          "watch": "moves", "unwatch": None}[name]
                if wanted:
                    reply = sock.receive(after=mark, timeout=5, where=lambda f:
                                         f["type"] in (wanted, "error"))
                    assert reply["type"] == wanted or (
                        name == "play" and reply.get("code") == "not_your_turn"), (
                        kind, name, reply)
        sock.close()
    # Seat A's one throw is the only move on its table, the other table's seat's the only
    # one on that table: no credential reached a table it does not sit at.
    for table in (t, other):
        record = teacher.record(table.id)
        assert list(record.moves[:1]) == ["r*"] and record.by == ("human", "chance")


# ------------------------------------------------------------------ restarts
def test_kill_9_mid_game_keeps_every_acknowledged_move(tmp_path):
    """The server is killed with SIGKILL at random points of two games, many times;
    after each restart every acknowledged move is there, nothing half there (a move
    and the chance after it are one transaction), the resent unacknowledged move is
    played at most once, and the bots play on."""
    rng = random.Random(2024)
    server = ServerProcess(tmp_path, bot_delay=0.01)
    server.start()
    try:
        lobby = classroom.connect(server.url, server.token)
        tables = [lobby.create_table("jactus", players=2, bots={"B": "greedy"}),
                  lobby.create_table("jinns", players=2)]
        creds = {}
        for t in tables:
            for letter in t.codes:
                creds[(t.id, letter)] = http(server, "POST", "/api/join",
                                             body={"code": t.codes[letter]})[1]["credential"]
        acked: dict[str, dict[str, int]] = {t.id: {} for t in tables}
        sent = 0
        for round_ in range(8):
            socks = {key: signed_in(server, cred) for key, cred in creds.items()}
            for sock in socks.values():
                sock.receive("update")
            deadline = time.monotonic() + rng.uniform(0.3, 1.2)
            while time.monotonic() < deadline:
                for (table_id, letter), sock in socks.items():
                    update = [f for f in sock.frames if f["type"] == "update"]
                    if not update or not update[-1]["legal"]:
                        continue
                    legal = update[-1]["legal"]
                    move_id = f"r{round_}-{sent}"
                    sent += 1
                    mark = sock.mark()
                    sock.send({"type": "play", "move": rng.choice(legal)[1], "id": move_id})
                    try:
                        reply = sock.receive(after=mark, timeout=2, where=lambda f:
                                             f.get("id") == move_id)
                    except TimeoutError:
                        continue
                    if reply["type"] == "ack":
                        acked[table_id][move_id] = reply["ply"]
                time.sleep(rng.uniform(0, 0.05))
            server.kill()                                 # mid-game, no warning
            for sock in socks.values():
                sock.close()
            rows = sqlite3.connect(server.db).execute(
                "SELECT table_id, ply, client_id, notation FROM moves ORDER BY ply"
            ).fetchall()
            stored = {(table_id, client): ply for table_id, ply, client, _ in rows if client}
            for table_id, moves in acked.items():
                for move_id, ply in moves.items():
                    assert stored.get((table_id, move_id)) == ply, (table_id, move_id)
            server.start()
            lobby = classroom.connect(server.url, server.token)
            for t in tables:
                record = lobby.record(t.id)                # loads: every move legal
                kept = [r[3] for r in rows if r[0] == t.id]
                # exactly what was stored comes back (the bots may have moved on since)
                assert list(record.moves[:len(kept)]) == kept
                # and what was stored waits on no chance: a move and the chance after it
                # were committed together (read before the restart could roll one)
                stored_at = record.states()[len(kept)]
                assert not stored_at.is_chance, (t.id, len(kept))
        assert sum(len(m) for m in acked.values()) > 8 and server.starts == 9
        # every restart told the teacher the tables are back (the terminal said nothing)
        said = server.log.read_text()
        assert said.count(f"Brought back from the database: {len(tables)} tables (") == 8
        # A move the client never heard about, sent again after a restart: once only.
        t = tables[0]
        sock = signed_in(server, creds[(t.id, "A")])
        update = sock.receive("update")
        wait_until(lambda: [f for f in sock.frames if f["type"] == "update"][-1]["legal"]
                   or lobby.record(t.id).final_state().is_over, timeout=15)
        legal = [f for f in sock.frames if f["type"] == "update"][-1]["legal"]
        if legal:
            sock.send({"type": "play", "move": legal[0][1], "id": "lost-ack"})
            sock.receive("ack", where=lambda f: f["id"] == "lost-ack")
            server.kill()
            server.start()
            sock = signed_in(server, creds[(t.id, "A")])
            sock.send({"type": "play", "move": legal[0][1], "id": "lost-ack"})
            again = sock.receive("ack", where=lambda f: f["id"] == "lost-ack")
            assert again.get("again")
            count = sqlite3.connect(server.db).execute(
                "SELECT COUNT(*) FROM moves WHERE client_id = 'lost-ack'").fetchone()[0]
            assert count == 1
        del update
        sock.close()
    finally:
        server.stop()


def test_a_restarted_server_brings_back_every_table_and_seats_rejoin(tmp_path):
    server = ServerProcess(tmp_path, bot_delay=0.01)
    server.start()
    try:
        lobby = classroom.connect(server.url, server.token)
        t = lobby.create_table("janus-cards", players=3, bots={1: "random", 2: "random"})
        a = classroom.join(server.url, t.codes["A"])
        for _ in range(3):
            wait_until(lambda: a.legal_moves() or a.is_over, timeout=10)
            if a.legal_moves():
                a.play(a.legal_moves()[0])
        before = lobby.record(t.id)
        server.stop()                                       # Ctrl-C, then start again
        wait_until(lambda: not a.connected)
        assert "Reconnecting" in a.facts(0).note
        # who is connected is not known meanwhile: the screen says nothing stale
        assert [s["connected"] for s in S.seats(a)] == [None, None, None]
        server.start()
        lobby = classroom.connect(server.url, server.token)
        after = lobby.record(t.id)
        # the same game (the bots may have played on since the restart)
        assert after.seed == before.seed
        assert list(after.moves[:len(before.moves)]) == list(before.moves)
        wait_until(lambda: a.connected, timeout=20)            # the same credential
        # A's view is the truth's, once the bots' moves since the restart have come
        wait_until(lambda: a.view == lobby.record(t.id).final_state().view(0))
        a.close()
    finally:
        server.stop()


# ------------------------------------------------------------------ the widget
def test_the_widget_draws_a_seat_and_follows_the_table(server, teacher):
    t = teacher.create_table("jactus", players=2)
    a = classroom.join(server.url, t.codes["A"])
    b = classroom.join(server.url, t.codes["B"])
    wa, wb = jw.widget(a), jw.widget(b)
    assert wa.viewpoint == 0 and wb.viewpoint == 1
    assert [label for label, _ in wa.viewpoint_box.options] == ["seat A"]
    assert "Game & variant" not in wa.tabs.titles              # no rule changes from a seat
    from janus_widgets.widgets.extras import HINT_CLASS
    assert not [c for c in wa.extras.children if HINT_CLASS in c._dom_classes], \
        "a class game offers the solver's best move to a student"
    assert "A" in wa.status_line.value and "to move" in wa.status_line.value
    wa.click_key(("button", "throw"))                            # A throws by clicking
    wait_until(lambda: "A played r*" in wb.message)             # B's screen followed
    assert wb.index == b.length >= 2
    with pytest.raises(ValueError, match="teacher's"):
        wa.set_variant(players=3)
    with pytest.raises(ValueError, match="seat A"):
        wa.set_viewpoint(None)
    wa.back()
    assert wa.index == b.length - 1 and "go to the end" in wa.table.not_playable()
    a.close(), b.close()


def test_two_tables_seat_a_pages_in_one_folder_keep_their_own_files(server, teacher,
                                                                    tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)                    # both pages run in this folder
    t1 = teacher.create_table("jactus", players=2)
    t2 = teacher.create_table("jactus", players=2)
    a1 = classroom.join(server.url, t1.codes["A"])
    a2 = classroom.join(server.url, t2.codes["A"])
    w1, w2 = jw.widget(a1), jw.widget(a2)
    assert w1.path_box.value == f"jactus-{t1.id}-seat-A.json"
    assert w2.path_box.value == f"jactus-{t2.id}-seat-A.json"
    assert w1.records.picture_box.value == f"jactus-{t1.id}-seat-A-position.png"
    w1.save_button.click()
    w2.save_button.click()
    saves = tmp_path / "janus-saves"
    mine = saves / f"jactus-{t1.id}-seat-A.json"
    assert json.loads(mine.read_text())["meta"]["table"] == t1.id
    assert json.loads((saves / f"jactus-{t2.id}-seat-A.json").read_text())["meta"][
        "table"] == t2.id
    w1.save_button.click()                         # its own file: written again
    assert "Saved" in w1.message
    before = mine.read_text()
    w2.path_box.value = mine.name                  # t2's seat A aims at t1's seat A file
    w2.save_button.click()
    assert f"named for seat A's view of table {t1.id}" in w2.message
    assert mine.read_text() == before
    w2.load_button.click()                         # and does not load it
    assert "loads only its own record" in w2.message and f"table {t1.id}" in w2.message
    a1.close(), a2.close()


def test_the_serve_command_says_where_it_is_and_binds_loopback(tmp_path):
    from browser_support import free_port
    port = free_port()

    def serve() -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-m", "janus_widgets", "serve", "--port",
                                 str(port), "--db", str(tmp_path / "c.sqlite")],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    proc = serve()
    try:
        first = proc.stdout.readline() + proc.stdout.readline()
        assert f"Table server at http://127.0.0.1:{port}" in first
        token = re.search(r"Teacher's token: (\S+)", first).group(1)
        assert classroom.connect(f"http://127.0.0.1:{port}", token).tables() == []
    finally:
        proc.terminate()
        out = proc.communicate(timeout=15)[0]
    assert "stopped; every table is in the database" in out
    # The token is kept beside the database (owner only): a restart keeps it.
    kept = tmp_path / "c.sqlite.token"
    assert kept.read_text().strip() == token and kept.stat().st_mode & 0o077 == 0
    proc = serve()
    try:
        again = proc.stdout.readline() + proc.stdout.readline()
        assert f"Teacher's token: {token}" in again
    finally:
        proc.terminate()
        proc.communicate(timeout=15)
    bad = subprocess.run([sys.executable, "-m", "janus_widgets", "serve", "--certfile",
                          "x.pem"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--keyfile" in bad.stderr


# ------------------------------------------------------------------ the class's pages
@pytest.fixture
def no_class_link():
    """``classroom.join_class`` makes the link this process's checks go through (a
    lesson page's kernel is one student's): a test puts that back as it was."""
    from janus_widgets.analysis import class_link
    before = class_link.current()
    yield
    class_link.use(before)


def test_a_class_list_codes_students_and_their_answers_reach_only_the_teacher(
        server, teacher, no_class_link):
    codes = teacher.create_class("3k", ["ada", "ben"])
    assert set(codes) == {"ada", "ben"}
    ada = classroom.join_class(server.url, codes["ada"])
    ben = classroom.join_class(server.url, codes["ben"])
    assert (ada.student, ada.class_name) == ("ada", "3k")
    theirs = {who: exercise_sets(student=who)["jactus-odds"].q1 for who in ("ada", "ben")}
    slip = theirs["ben"].mistakes[0]
    ada.send("jactus-odds", "q1", str(theirs["ada"].answer), "right")
    ben.send("jactus-odds", "q1", str(slip.value), "wrong", "what ben's page said")
    mine = [a for a in teacher.answers("jactus-odds") if a["student"].startswith("3k/")]
    assert {(a["student"], a["verdict"]) for a in mine} == {("3k/ada", "right"),
                                                           ("3k/ben", "wrong")}
    # the tally keeps the server's check of each answer with the student's own numbers,
    # not the page's word: ben's mistake as his check names it, ada's page claiming a
    # wrong answer right (a student with their code can send the API anything) wrong
    assert [a["mistake"] for a in mine if a["student"] == "3k/ben"] == \
        [theirs["ben"].check(str(slip.value)).mistake]
    ada.send("jactus-odds", "q1", str(theirs["ben"].answer), "right")
    ada.send("jactus-odds", "q1", "banana", "right")
    claimed = [(a["answer"], a["verdict"]) for a in teacher.answers("jactus-odds", every=True)
               if a["student"] == "3k/ada"]
    assert claimed == [(str(theirs["ada"].answer), "right"),
                       (str(theirs["ben"].answer), "wrong"), ("banana", "invalid")]
    # a number the server would take 46 s to make (every page of the class waiting): no
    # number, said at once (the request fails after 10 s where the server freezes)
    status, _ = http(server, "POST", "/api/answers", ada._credential,
                     {"lesson": "jactus-odds", "question": "q1", "answer": "1e30000000",
                      "verdict": "right", "mistake": ""})
    assert status == 201
    assert ("1e30000000", "invalid") in [(a["answer"], a["verdict"]) for a in
                                         teacher.answers("jactus-odds", every=True)]
    # a student's credential reads nothing of the class: not its answers, not a table
    for path in ("/api/answers", "/api/answers?every=1", "/api/tables"):
        status, answer = http(server, "GET", path, ada._credential)
        assert status in (401, 403) and "answers" not in answer and "tables" not in answer
    # ... and its own last checks of a lesson, which a reloaded page shows again
    assert ada.own_checks("jactus-odds") == {"q1": "1e30000000"}      # her last
    assert ben.own_checks("jactus-odds") == {"q1": str(slip.value)}
    assert ben.own_checks("roman-dice") == {}
    status, answer = http(server, "GET", "/api/answers?lesson=jactus-odds", "x" * 32)
    assert status == 401 and "answers" not in answer
    with pytest.raises(ClassroomError, match="no student has the code"):
        classroom.join_class(server.url, "QQQQQQ")
    with pytest.raises(ClassroomError, match="no question"):
        ada.send("jactus-odds", "q99", "1/6", "right")


def test_new_codes_replace_the_old_and_joined_seats_stay(server, teacher):
    t = teacher.create_table("jactus", players=2)
    a = classroom.join(server.url, t.codes["A"])
    fresh = teacher.new_codes(t.id)
    assert set(fresh) == {"A", "B"} and fresh["A"] != t.codes["A"]
    with pytest.raises(ClassroomError, match="no seat has the join code"):
        classroom.join(server.url, t.codes["A"])
    again = classroom.join(server.url, fresh["A"])
    a.play("r*")                                   # the page joined before still plays
    assert again.seat == 0
    a.close(), again.close()


def test_the_dashboard_makes_tables_for_the_class_follows_them_and_tallies(
        server, teacher, no_class_link):
    from janus_widgets.widgets.dashboard import Dashboard, split_class, tally
    board = Dashboard(server.url, server.token, pages="http://pages:8867")
    made = board.create_tables("janus-cards", 3, 7, bot="random")
    assert [len(board.codes[t]) for t in made] == split_class(7, 3) == [3, 2, 2]
    summaries = {t["id"]: t for t in teacher.tables()}
    assert [s["who"] for s in summaries[made[-1]]["seats"]] == ["human", "human", "random"]
    slips = board.slips_link.value
    assert slips.count("table ") >= 7 and "download=" in slips
    page = __import__("base64").b64decode(slips.split("base64,")[1].split("'")[0]).decode()
    code = board.codes[made[0]]["A"]
    # the short address on the pages' host (the dashboard talks to 127.0.0.1, which no
    # student's device could open), the server's port
    assert f"http://pages:{server.port}/seat?code={code}" in page
    assert "<svg" in page and "@page" in page
    assert f"data-table='{made[0]}'" in board.overview.value
    widget = board.open_table(made[0], secrets=True)
    assert widget.viewpoint is None                      # the teacher's view
    a = classroom.join(server.url, code)
    before = widget.table.length
    wait_until(lambda: a.legal_moves() or a.is_over, timeout=10)
    a.play(a.legal_moves()[0])
    wait_until(lambda: widget.table.length > before, timeout=10)   # it follows live
    board.tabs.selected_index = 0
    board.table_menu.value = made[1]
    board.pause_button.click()
    assert teacher.table(made[1])["status"] == "paused"
    board.resume_button.click()
    data = board.download_records()
    import io
    import zipfile
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert {f"{t}-janus-cards.json" for t in made} <= set(names)
    link = classroom.join_class(server.url, board.create_class("4a", 2, "jactus-odds")[
        "student-1"])
    q2 = exercise_sets(student="student-1")["jactus-odds"].q2
    said = q2.check(str(q2.mistakes[0].value)).mistake          # the server's check's
    link.send("jactus-odds", "q2", str(q2.mistakes[0].value), "wrong", said)
    wait_until(lambda: any(x["question"] == "q2" for x in board.answers), timeout=10)
    rows = {(r["lesson"], r["question"]): r for r in tally(board.answers)}
    assert rows[("jactus-odds", "q2")]["mistakes"][0] == (said, 1)
    wait_until(lambda: html.escape(said[:30]) in board.answers_html.value, timeout=5)
    # the plot comes just after the table (matplotlib's first import can take a second)
    wait_until(lambda: bytes(board.answers_plot.value[:4]) == b"\x89PNG", timeout=10)
    assert board.plot_note.value == ""
    a.close()
    board.watch.close()


def test_a_seat_joining_or_leaving_keeps_the_move_being_put_together(server, teacher):
    t = teacher.create_table("jactus", players=2)
    a = classroom.join(server.url, t.codes["A"])
    b = classroom.join(server.url, t.codes["B"])
    wb = jw.widget(b)
    a.play("r*")
    wait_until(lambda: b.legal_moves() and "A played r*" in wb.message)
    wb.click_key(("die", 0))                       # B lifts a die, then thinks
    chosen = wb._selection
    assert chosen
    a.close()                                      # A's page is closed ...
    wait_until(lambda: 0 not in b.connected_seats)
    again = classroom.join(server.url, t.codes["A"])   # ... and opened again
    wait_until(lambda: 0 in b.connected_seats)
    assert wb._selection == chosen                 # B's half-made move is still there
    again.close(), b.close()


def test_the_serve_command_takes_answers_for_its_lessons_questions_only(server):
    """Issue 33 (10): made-up lessons and questions are refused by name."""
    student = classroom.connect(server.url, server.token).create_class("9z", ["eve"])
    _, joined = http(server, "POST", "/api/join_class", body={"code": student["eve"]})
    for fields, says in (({"lesson": "made-up", "question": "q1"}, "no lesson 'made-up'"),
                         ({"lesson": "jactus-odds", "question": "q77"}, "no question 'q77'")):
        status, answer = http(server, "POST", "/api/answers", joined["credential"],
                              {**fields, "answer": "1", "verdict": "right"})
        assert status == 400 and says in answer["error"], answer

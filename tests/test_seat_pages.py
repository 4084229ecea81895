"""The seat page the table server serves (``/seat``) and the screens it sends a page.

A page signs in with ``"screen": true`` and is sent screens (the screen model of
``table/screen.py``) made from its seat's mirror of the server's one outgoing filter.
These tests talk to a real server over HTTP and raw WebSockets; the page itself in
Chromium is ``test_browser_seat_page.py``.
"""

from __future__ import annotations

import json
import random
import re
import urllib.error
import urllib.request
from html.parser import HTMLParser

import pytest
from server_support import Socket, table_server

from janus_widgets import classroom, games
from janus_widgets.table import Table
from janus_widgets.table import screen as S
from janus_widgets.table.seat_pages import CSP, PAGE_FILES, held_layers


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with table_server(tmp_path_factory.mktemp("seat-pages")) as s:
        yield s


@pytest.fixture(scope="module")
def teacher(server):
    return classroom.connect(server.url, server.token)


def get(server, path, headers=None):
    """(status, headers, body) of a GET, whatever the status."""
    request = urllib.request.Request(server.url + path, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.headers, reply.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.headers, exc.read()


def join(server, code):
    request = urllib.request.Request(server.url + "/api/join", method="POST",
                                     data=json.dumps({"code": code}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read())["credential"]


def page_socket(server, credential):
    sock = Socket(server.url)
    sock.send({"type": "hello", "credential": credential, "screen": True})
    sock.receive("screen")
    return sock


# ------------------------------------------------------------------ the static page
@pytest.mark.parametrize("path", ["/seat", "/seat?code=%3Cx%3E", "/seat/seat.js",
                                  "/seat/seat.css", "/seat/icon.png"])
def test_every_file_of_the_page_carries_the_policy(server, path):
    status, headers, body = get(server, path)
    assert status == 200
    assert headers["Content-Security-Policy"] == CSP
    assert "default-src 'self'" in CSP and "frame-ancestors 'none'" in CSP
    assert "'unsafe-inline'" not in CSP and "'unsafe-eval'" not in CSP
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    # A browser keeps the file and asks whether it changed: a 304 with no body and the
    # same policy while it has not; the file itself for another version's validators.
    # (The tab's icon is kept a day: it is asked for again when the code leaves the
    # address bar.)
    assert headers["Cache-Control"] == ("max-age=86400" if path.endswith("icon.png")
                                        else "no-cache")
    etag, modified = headers["ETag"], headers["Last-Modified"]
    assert etag.startswith('"') and modified.endswith(" GMT")
    for asked in ({"If-None-Match": etag}, {"If-None-Match": f'"old", W/{etag}'},
                  {"If-Modified-Since": modified}):
        again = get(server, path, asked)
        assert again[0] == 304 and again[2] == b"", asked
        assert again[1]["ETag"] == etag and again[1]["Content-Security-Policy"] == CSP
        assert again[1]["X-Content-Type-Options"] == "nosniff"
        assert again[1]["Referrer-Policy"] == "no-referrer"
    for asked in ({"If-None-Match": '"an-older-version"'},
                  {"If-None-Match": '"an-older-version"', "If-Modified-Since": modified},
                  {"If-Modified-Since": "Thu, 01 Jan 1970 00:00:00 GMT"}):
        assert get(server, path, asked)[:3:2] == (200, body), asked


def test_the_api_answers_carry_the_policy_too(server):
    status, headers, _ = get(server, "/api/status")
    assert status == 200 and headers["Content-Security-Policy"] == CSP


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.inline_script = False
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.inline_script = True


def test_the_page_is_static_and_holds_no_inline_script_or_style(server):
    _, _, plain = get(server, "/seat")
    for path in ("/seat?code=%3Cscript%3Ealert(1)%3C/script%3E",
                 "/seat?theme=%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E"):
        assert get(server, path)[2] == plain, "nothing of the address is in the page"
    parser = _Tags()
    parser.feed(plain.decode())
    assert not parser.inline_script
    for tag, attrs in parser.tags:
        assert "style" not in attrs, tag
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        for name in ("src", "href"):
            if attrs.get(name):
                assert attrs[name].startswith("/seat/"), (tag, attrs)


# ------------------------------------------------------------------ a slip's address
FIRST_BLOCK = re.compile(rb'<script type="application/json" id="first-screen">([^<]*)'
                         rb'</script>')


def first_in_page(body: bytes) -> tuple[dict | None, bytes]:
    """What a slip's address brought in the page (its JSON data block), and the page
    without it."""
    found = FIRST_BLOCK.search(body)
    if found is None:
        return None, body
    return json.loads(found.group(1)), body[:found.start()] + body[found.end():]


def test_the_socket_address_asked_without_a_socket_carries_the_policy(server):
    status, headers, _ = get(server, "/ws")
    assert status == 400 and headers["Content-Security-Policy"] == CSP
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_the_opener_policy_is_sent_where_the_browser_heeds_it(server):
    """Cross-Origin-Opener-Policy on this machine's address; not at the class's plain
    HTTP address, where the browser ignores it and says so as an error in every page's
    console."""
    port = server.url.rsplit(":", 1)[1]
    for path in ("/seat", "/api/status", "/lesson"):
        assert get(server, path)[1]["Cross-Origin-Opener-Policy"] == "same-origin"
        _, headers, _ = get(server, path, {"Host": f"192.168.1.20:{port}"})
        assert "Cross-Origin-Opener-Policy" not in headers
        assert headers["Content-Security-Policy"] and headers["X-Frame-Options"] == "DENY"


def test_a_lesson_slips_short_address_is_a_form_with_no_script(server, teacher):
    """``/lesson``: the code typed into a form (no script), and why a code leads
    nowhere, as text; nothing of the address is written into the page."""
    status, headers, body = get(server, "/lesson")
    assert status == 200 and b'<form id="join-form" action="/lesson" method="get"' in body
    assert b"<script" not in body and b"style=" not in body
    for attack in ("%3Cimg%20src%3Dx%3E", "%22%3E%3Cb%3E" * 5):
        status, headers, body = get(server, f"/lesson?code={attack}")
        assert status in (400, 404) and b"<img" not in body and b"<b>" not in body
        assert headers["Content-Security-Policy"] == CSP
        assert headers["X-Content-Type-Options"] == "nosniff"
    status, _, body = get(server, "/lesson?code=" + "%22%3E%3Cb%3E" * 5)
    assert b"10 letters and digits on your lesson slip" in body     # too long for one
    status, _, body = get(server, "/lesson?code=ZZZZZZZZZZ")
    assert status == 404 and b"No lesson slip has this code here: check the code and " \
        b"the address on your slip" in body
    codes = teacher.create_class("3b", ["ada"], lesson="what-can-i-know")
    status, _, body = get(server, f"/lesson?code={codes['ada']}")  # a server with no pages
    assert status == 404 and b"opens no lesson page here" in body


def test_a_paused_tables_first_screen_says_it_is_paused(server, teacher):
    t = teacher.create_table("jactus", players=2, bots={1: "greedy"})
    teacher.pause(t.id)
    body = get(server, f"/seat?code={t.codes['A']}")[2]
    first, _ = first_in_page(body)
    status = first["screen"]["status"]
    assert status["turn"] == "Play stopped: the teacher paused this table", status
    assert "paused" not in status["note"]                     # said once


def test_an_ended_tables_last_screen_names_nobody_to_move(server, teacher):
    """The status line says what is true now: after the teacher ended the table, its
    pages said "A to move (human)" beside "This table has ended"."""
    t = teacher.create_table("jactus", players=2, bots={1: "greedy"})
    sock = page_socket(server, join(server, t.codes["A"]))
    try:
        after = sock.mark()
        teacher.end(t.id)
        status = sock.receive("screen", after=after)["status"]
        assert status["turn"] == "Play stopped: the teacher ended this table", status
        assert status["mark"] == "" and "to move" not in json.dumps(status)
        assert sock.receive("error")["code"] == "ended"
    finally:
        sock.close()


def test_a_slips_address_brings_its_seats_screen_in_the_page_and_joins_nothing(server,
                                                                              teacher):
    """``/seat?code=…`` is the page with its seat's welcome and screen in a JSON data
    block (painted before the page's socket is open): the screen of the seat's view of
    the true position, the same as the socket's first screen, never the seed; the page
    is otherwise the static one, under the same policy, and kept nowhere
    (``no-store``). It joins nothing: no credential is made, the code's joins are left
    whole; a seat's page is shown so ten times a minute, then the plain page."""
    t = teacher.create_table("janus-cards", players=3, bots={2: "greedy"})
    record = teacher.record(t.id)
    _, _, plain = get(server, "/seat")
    status, headers, body = get(server, f"/seat?code={t.codes['A'].lower()}")
    assert status == 200 and headers["Content-Security-Policy"] == CSP
    assert headers["Cache-Control"] == "no-store" and "ETag" not in headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Content-Type"] == PAGE_FILES["seat.html"]
    assert headers["Link"] == ("</seat/seat.css>; rel=preload; as=style, "
                               "</seat/seat.js>; rel=modulepreload")
    first, rest = first_in_page(body)
    assert rest == plain, "the page is the static page and the block"
    assert str(record.seed).encode() not in body
    assert set(first) == {"welcome", "screen", "page"} and b"credential" not in body
    assert first["welcome"]["seat"] == "A" and first["welcome"]["table"] == t.id
    screen = first["screen"]
    assert screen["type"] == "screen" and screen["seat"] == "A" and screen["table"] == t.id
    record = teacher.record(t.id)
    ply = screen["steps"]["length"]
    assert ply <= len(record.moves)
    game = games.get("janus-cards")
    view = record.states()[ply].view(0)
    expected = game.draw(view, selection=game.board().fresh_selection(view, 0, None))
    S.mark_bots(expected, {2: "greedy"}, game.board().TEXT_MIN)
    assert screen["drawing"] == json.loads(json.dumps(S.drawing_data(expected)))
    sock = hello_with_code(server, t.codes["A"], client="page-address-0001")
    assert sock.receive("welcome", where=None) == {
        **first["welcome"], "type": "welcome"}
    live = sock.receive("screen")
    if live["steps"]["length"] == ply:
        for part in ("drawing", "status", "moves", "log", "steps", "panels"):
            assert live[part] == screen[part], part
        assert [s["who"] for s in live["seats"]] == [s["who"] for s in screen["seats"]]
    sock.close()
    for _ in range(10):                   # a seat's page is shown so 10 times a minute
        assert first_in_page(get(server, f"/seat?code={t.codes['B']}")[2])[0]
    assert get(server, f"/seat?code={t.codes['B']}")[2] == plain      # the 11th
    for _ in range(10):                   # and every join of the code is still there
        join(server, t.codes["B"])


def test_the_socket_goes_on_from_the_screen_in_the_page(server, teacher):
    """hello with the code and the page's token (the screen in the page is painted):
    ``live`` (that screen's serial and who is connected now), no second screen; a click
    on a region of the screen in the page plays. A token used again, or another seat's,
    is nothing: that socket is sent its screen. A page whose position moved before its
    socket signed in is sent the new screen, as an edit of the layers it holds."""
    t = teacher.create_table("jactus", players=2, bots={1: "greedy"})
    first, _ = first_in_page(get(server, f"/seat?code={t.codes['A']}")[2])
    token, screen = first["page"], first["screen"]
    assert isinstance(token, str) and len(token) >= 20
    sock = hello_with_code(server, t.codes["A"], client="page-live-000001", page=token)
    live = sock.receive("live")
    assert live == {"type": "live", "serial": screen["serial"], "seats": [
        {"seat": "A", "who": "human", "connected": True, "you": True},
        {"seat": "B", "who": "greedy", "connected": False, "you": False}]}
    assert not [f for f in sock.frames if f["type"] == "screen"]
    throw = [r["key"] for r in screen["drawing"]["regions"]].index("button throw")
    mark = sock.mark()
    sock.send({"type": "click", "serial": screen["serial"], "region": throw})
    assert sock.receive("ack", after=mark)["ply"] == 0
    moved = sock.receive("screen", after=mark, where=lambda f: f["steps"]["length"] >= 1)
    assert moved["log"][1][0] == "1. A r*"
    elsewhere = teacher.create_table("jactus", players=2, bots={1: "greedy"})
    for other in (token, first_in_page(get(server, f"/seat?code={elsewhere.codes['A']}")[2])[
            0]["page"]):
        again = hello_with_code(server, t.codes["A"], client="page-live-000002", page=other)
        assert again.receive("screen")["seat"] == "A"
        assert not [f for f in again.frames if f["type"] == "live"]
        again.close()
    sock.close()
    t = teacher.create_table("jactus", players=2)
    first, _ = first_in_page(get(server, f"/seat?code={t.codes['A']}")[2])
    player = hello_with_code(server, t.codes["A"], client="page-live-000003")
    player.receive("screen")
    player.send({"type": "play", "move": "r*", "id": "m1"})
    player.receive("ack")
    late = hello_with_code(server, t.codes["A"], client="page-live-000004",
                           page=first["page"])
    moved = late.receive("screen")
    assert moved["steps"]["length"] >= 1 and moved["serial"] == first["screen"]["serial"] + 1
    assert "same" in moved["drawing"]["layers"].values() or any(
        isinstance(v, dict) for v in moved["drawing"]["layers"].values())
    layers: dict = {}
    held_layers(layers, first["screen"])
    held_layers(layers, moved)
    assert all(isinstance(v, list) for v in moved["drawing"]["layers"].values())
    player.close(), late.close()


def test_an_address_whose_code_opens_no_seat_says_why_in_the_page(tmp_path):
    """A wrong code in the address is answered in the page (``refused``, the page shows
    it and opens no socket) and counted in the class's count, not against the address:
    a school behind one address keeps its first screens and its joins whatever one
    student types. An ended table's code says so; text that is no code brings the
    plain page (the page says what to do). No code is written in the server's log."""
    from janus_widgets.table.server import LIMITS
    with table_server(tmp_path) as own:
        teacher = classroom.connect(own.url, own.token)
        _, _, plain = get(own, "/seat")
        ended = teacher.create_table("jactus", players=2)
        teacher.end(ended.id)
        first, rest = first_in_page(get(own, f"/seat?code={ended.codes['A']}")[2])
        assert rest == plain and first["refused"]["code"] == "ended"
        assert "has ended" in first["refused"]["error"]
        for bad in ("%ED%A0%80", "%3Cscript%3E", "A" * 30, "AB", "KM4TPXRA3C&code=KM4TPXRA3D",
                    "%00%00%00%00"):
            assert get(own, f"/seat?code={bad}")[2] == plain, bad
        t = teacher.create_table("jactus", players=2)
        for k in range(2 * LIMITS["join_failures"]):
            first, rest = first_in_page(get(own, f"/seat?code=WRONGCODE{k}")[2])
            assert rest == plain and first == {"refused": {
                "type": "error", "code": "unknown_code",
                "error": f"no seat has the join code 'WRONGCODE{k}': check the slip "
                         "(letters and digits, 10 of them)"}}
        first, _ = first_in_page(get(own, f"/seat?code={t.codes['A']}")[2])
        assert first["screen"]["seat"] == "A"              # the address was not held up
        assert join(own, t.codes["B"])                     # nor its joins over HTTP
        own.stop()
        log = own.log.read_text()
        assert "GET /seat?code=…" in log
        for code in (t.codes["A"], t.codes["B"], ended.codes["A"], "WRONGCODE1"):
            assert code not in log, code


@pytest.mark.parametrize("path", ["/seat/../server.py", "/seat/seat.py", "/seat/%2e%2e/x",
                                  "/seat/seat_pages.py", "/seat/"])
def test_nothing_but_the_pages_own_files_is_served(server, path):
    status, _, body = get(server, path)
    assert status == 404
    assert b"import" not in body


def test_the_page_files_are_the_ones_named():
    from janus_widgets.table.seat_pages import PAGE_DIR
    assert sorted(p.name for p in PAGE_DIR.iterdir()) == sorted(PAGE_FILES)


# ------------------------------------------------------------------ the screens
def test_every_screen_a_page_receives_holds_its_seats_view_and_never_the_seed(server,
                                                                                teacher):
    """Two pages and a bot play the card game to the end through the page's own
    messages; every screen each page received is checked against the truth: its
    drawing is the drawing of its seat's view of the true position (nothing else), its
    log is its seat's words, and the seed is in none of them."""
    t = teacher.create_table("janus-cards", players=3, bots={2: "greedy"}, stall_rounds=6)
    seed = str(teacher.record(t.id).seed)
    pages = {letter: page_socket(server, join(server, code))
             for letter, code in t.codes.items()}
    played = 0
    for _ in range(600):
        record = teacher.record(t.id)
        state = record.final_state()
        if state.is_over:
            break
        seat = state.current_player
        if seat not in (0, 1):
            import time
            time.sleep(0.03)
            continue
        sock = pages["AB"[seat]]
        screen = sock.receive("screen", where=lambda f: f["steps"]["length"] ==
                              len(record.moves))
        listed = [o["notation"] for o in screen["moves"]["options"]]
        assert listed == [m.notation for m in state.view(seat).legal_moves()]
        mark = sock.mark()
        sock.send({"type": "play", "move": random.Random(played).choice(listed),
                   "id": f"p{played}"})
        assert sock.receive("ack", after=mark)["id"] == f"p{played}"
        played += 1
    final = teacher.record(t.id)
    assert final.final_state().is_over and played > 5
    game = games.get("janus-cards")
    board = game.board()
    states = final.states()
    truth = Table("janus-cards", final.variant, seed=final.seed)
    truth.load(final)
    checked = 0
    for letter, sock in pages.items():
        seat = "AB".index(letter)
        sock.receive("screen", where=lambda f: f["steps"]["length"] == len(final.moves))
        layers: dict = {}
        edits = 0
        for frame in sock.frames:
            assert seed not in json.dumps(frame), f"the seed reached seat {letter}'s page"
            if frame["type"] != "screen":
                continue
            edits += sum(isinstance(v, dict) for v in frame["drawing"]["layers"].values())
            held_layers(layers, frame)                 # "same" and edits, as the page
            ply = frame["steps"]["length"]
            view = states[ply].view(seat)
            selection = board.fresh_selection(view, seat, None)
            expected = game.draw(view, selection=selection)
            S.mark_bots(expected, {2: "greedy"}, board.TEXT_MIN)
            assert frame["drawing"] == json.loads(json.dumps(S.drawing_data(expected))), \
                (letter, ply)
            truth.goto(ply)
            words = [text for text, _ in truth.log(seat, max(0, ply - S.LOG_WINDOW), ply)]
            assert [text for text, _ in frame["log"] if text != "start"] == words
            checked += 1
        sock.close()
        assert edits, f"seat {letter}'s page was never sent a layer as an edit"
    assert checked > played


def test_a_click_names_a_region_of_the_screen_it_was_made_on(server, teacher):
    t = teacher.create_table("jactus", players=2, bots={1: "greedy"})
    sock = page_socket(server, join(server, t.codes["A"]))
    screen = sock.frames[-1]
    keys = [r["key"] for r in screen["drawing"]["regions"]]
    throw = keys.index("button throw")
    mark = sock.mark()
    sock.send({"type": "click", "serial": screen["serial"] - 1, "region": throw})
    stale = sock.receive("screen", after=mark)
    assert "click again" in stale["status"]["message"]
    assert stale["steps"]["length"] == 0                    # nothing was played
    for bad in (len(keys), -1, "0", None, True, 1.5):
        mark = sock.mark()
        sock.send({"type": "click", "serial": stale["serial"], "region": bad})
        refused = sock.receive("screen", after=mark)
        assert refused["status"]["kind"] == "refused"
        assert f"0 to {len(keys) - 1}" in refused["status"]["message"]
        stale = refused
    for bad in ([], {}, {"a": 1}, "1", None, True, 1.5):    # the serial too
        mark = sock.mark()
        sock.send({"type": "click", "serial": bad, "region": throw})
        refused = sock.receive("screen", after=mark)
        assert refused["status"]["kind"] == "refused"
        assert "serial, a whole number" in refused["status"]["message"]
        stale = refused
    mark = sock.mark()
    sock.send({"type": "click", "serial": stale["serial"], "region": throw})
    assert sock.receive("ack", after=mark)["ply"] == 0
    moved = sock.receive("screen", after=mark, where=lambda f: f["steps"]["length"] >= 2)
    assert moved["log"][1][0] == "1. A r*"


def test_a_click_out_of_turn_says_so_once(server, teacher):
    """A click on the board while another seat is to move: the status line's answer
    says whose move it is, and its standing note does not say it again."""
    t = teacher.create_table("jactus", players=2)
    sock = page_socket(server, join(server, t.codes["B"]))
    screen = sock.frames[-1]
    assert screen["status"]["note"] == "Waiting for A to move."
    throw = [r["key"] for r in screen["drawing"]["regions"]].index("button throw")
    mark = sock.mark()
    sock.send({"type": "click", "serial": screen["serial"], "region": throw})
    refused = sock.receive("screen", after=mark)
    assert refused["status"]["message"] == "Waiting for A to move."
    assert refused["status"]["kind"] == "refused" and refused["status"]["note"] == ""


def test_a_page_selects_steps_and_is_refused_in_words(server, teacher):
    t = teacher.create_table("jinns", players=2, bots={1: "greedy"})
    sock = page_socket(server, join(server, t.codes["A"]))
    mark = sock.mark()
    sock.send({"type": "select", "move": 2})
    chosen = sock.receive("screen", after=mark)
    assert chosen["status"]["message"].startswith("Selected Y3")
    held: dict = {}
    for frame in sock.frames:                  # its layers as the page makes them
        if frame["type"] == "screen":
            held_layers(held, frame)
        if frame is chosen:
            break
    assert any(shape[0] in ("rect", "circle", "polygon") for shape in
               chosen["drawing"]["layers"]["highlight"])
    mark = sock.mark()
    sock.send({"type": "play", "move": "Y3", "id": "y3"})
    sock.receive("ack", after=mark)
    now = sock.receive("screen", after=mark, where=lambda f: f["steps"]["length"] >= 1)
    mark = sock.mark()
    sock.send({"type": "goto", "index": 0})
    back = sock.receive("screen", after=mark)
    assert back["steps"]["index"] == 0 and not back["moves"]["options"]
    assert "go to the end" in back["moves"]["note"]
    mark = sock.mark()
    sock.send({"type": "goto", "index": now["steps"]["length"] + 5})
    assert "a move number is a whole number from 0 to" in \
        sock.receive("screen", after=mark)["status"]["message"]
    mark = sock.mark()
    sock.send({"type": "play", "move": "Q9", "id": "bad"})
    refused = sock.receive("screen", after=mark)
    assert refused["status"]["kind"] == "refused" and "Not played" in \
        refused["status"]["message"]


def test_page_messages_are_for_pages_and_a_record_is_the_seats(server, teacher):
    t = teacher.create_table("janus-cards", players=3, bots={1: "random", 2: "random"})
    credential = join(server, t.codes["A"])
    plain = Socket(server.url)
    plain.send({"type": "hello", "credential": credential})
    plain.receive("update")
    plain.send({"type": "click", "serial": 1, "region": 0})
    assert plain.receive("error")["code"] == "page_only"
    page = page_socket(server, credential)
    mark = page.mark()
    page.send({"type": "record"})
    record = page.receive("record", after=mark)["record"]
    assert record["seat"] == "A" and "seed" not in record
    mark = page.mark()
    page.send({"type": "picture"})
    svg = page.receive("picture", after=mark)["svg"]
    assert svg.startswith("<svg") and "<script" not in svg
    for sock in (plain, page):
        sock.close()


def test_a_seat_page_screen_fits_the_json_form(server, teacher):
    t = teacher.create_table("janus", players=2, bots={1: "greedy"})
    sock = page_socket(server, join(server, t.codes["A"]))
    screen = sock.receive("screen", where=lambda f: f["steps"]["length"] >= 1)
    assert screen["version"] == S.SCREEN_VERSION and screen["seat"] == "A"
    assert [p["id"] for p in screen["panels"]] == ["janus-census"]
    assert re.match(r"Tiles left \d+", screen["panels"][0]["lines"][0])
    assert [s["you"] for s in screen["seats"]] == [True, False]
    assert screen["actions"] == []                  # the server deals, not the page
    sock.close()


# ------------------------------------------------------------------ a student stalling others
def test_a_page_coming_and_going_sends_the_others_presence_never_a_new_screen(server,
                                                                              teacher):
    """The tester's first finding: a student reconnecting in a loop made every page of
    the table a new screen, so every classmate's click named an old one."""
    t = teacher.create_table("janus-cards", players=3, bots={2: "greedy"})
    b = page_socket(server, join(server, t.codes["B"]))
    a_credential = join(server, t.codes["A"])
    first = b.frames[-1]
    mark = b.mark()
    for _ in range(8):                                   # A comes and goes
        a = page_socket(server, a_credential)
        a.close()
    presence = b.receive("presence", after=mark, timeout=5)
    assert {s["seat"] for s in presence["seats"]} == {"A", "B", "C"}
    import time
    time.sleep(1.0)
    assert not [f for f in b.frames[mark:] if f["type"] == "screen"], \
        "a page came and went: the others got new screens"
    # B's click on its screen is still good; and on an older screen with the same board
    mark = b.mark()
    b.send({"type": "select", "move": None})             # a new screen, the same board
    newer = b.receive("screen", after=mark)
    assert newer["serial"] > first["serial"]
    keys = [r["key"] for r in first["drawing"]["regions"]]
    mark = b.mark()
    b.send({"type": "click", "serial": first["serial"], "region": keys.index("card B1")})
    answered = b.receive("screen", after=mark)
    assert "click again" not in answered["status"]["message"]
    b.close()


def test_a_socket_that_does_not_sign_in_is_closed(server):
    """No hello, or a hello that was refused (a wrong credential): closed after
    ``hello_seconds`` either way (a refused hello kept its socket open for good)."""
    import time
    silent, refused = Socket(server.url), Socket(server.url)
    silent.send({"type": "ping"})
    assert silent.receive("pong")["type"] == "pong"
    refused.send({"type": "hello", "credential": "not-a-credential-of-this-server"})
    assert refused.receive("error")["code"] == "bad_credential"
    deadline = time.monotonic() + 20
    while not (silent.closed and refused.closed) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert silent.closed and silent.close_code == 1008
    assert refused.closed and refused.close_code == 1008


def test_text_that_is_no_text_is_refused_without_a_traceback(server, teacher):
    """Half a surrogate pair alone (``\\ud800``: valid JSON, but no text UTF-8 can
    write) in a code, a credential, a move's id or an answer could not be hashed, stored
    or logged: each try was a traceback in the log and a 'server' error, unlimited.
    Now the message is not valid JSON text, wherever it comes."""
    before = server.log.read_text()
    t = teacher.create_table("jactus", players=2)
    credential = join(server, t.codes["A"])
    lone = "\\ud800"
    for hello in (f'{{"type": "hello", "code": "{lone}AAAA", "client": "abcdefgh12"}}',
                  f'{{"type": "hello", "credential": "{lone}"}}'):
        sock = Socket(server.url)
        sock.send_text(hello)
        assert sock.receive("error")["code"] == "bad_json"
        sock.close()
    sock = page_socket(server, credential)
    mark = sock.mark()
    sock.send_text(f'{{"type": "play", "move": "r*", "id": "x{lone}"}}')
    assert sock.receive("error", after=mark)["code"] == "bad_json"
    pair = "\\ud83d\\ude00"                                 # a whole pair is text
    sock.send_text(f'{{"type": "select", "choice": "{pair}"}}')
    assert sock.receive("screen", after=mark)["type"] == "screen"
    sock.close()
    for path, body in (("/api/join", f'{{"code": "{lone}AAAA"}}'),
                       ("/api/join_class", f'{{"code": "{lone}AAAA"}}'),
                       ("/api/answers", f'{{"lesson": "roman-dice", "question": "q1", '
                                        f'"answer": "1/2{lone}", "verdict": "right"}}')):
        request = urllib.request.Request(
            server.url + path, method="POST", data=body.encode(),
            headers={"Content-Type": "application/json",
                     "Authorization": f"Bearer {credential}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        assert refused.value.code == 400, path
        assert json.loads(refused.value.read())["code"] == "bad_json", path
    new = server.log.read_text()[len(before):]
    assert "Traceback" not in new and "message failed" not in new, new[-2000:]


def test_a_page_of_another_site_cannot_open_a_socket(server):
    import tornado.httpclient
    import tornado.websocket

    async def attempt(origin):
        request = tornado.httpclient.HTTPRequest(
            server.url.replace("http", "ws") + "/ws", headers={"Origin": origin})
        try:
            ws = await tornado.websocket.websocket_connect(request)
        except tornado.httpclient.HTTPClientError as exc:
            return exc.code
        ws.close()
        return 101
    from browser_support import in_thread  # the browser's driver may hold a loop
    assert in_thread(attempt("http://evil.example:8000")) == 403
    assert in_thread(attempt(server.url)) == 101          # the seat page's own origin


def test_a_code_joins_at_most_ten_times_a_minute_and_head_answers(server, teacher):
    t = teacher.create_table("jactus", players=2)
    for _ in range(10):
        join(server, t.codes["B"])
    with pytest.raises(urllib.error.HTTPError) as held:
        join(server, t.codes["B"])
    assert held.value.code == 429 and "joined 10 times" in json.loads(held.value.read())[
        "error"]
    request = urllib.request.Request(server.url + "/seat", method="HEAD")
    with urllib.request.urlopen(request, timeout=10) as reply:
        assert reply.status == 200 and reply.headers["Content-Security-Policy"] == CSP


# ------------------------------------------------------------------ joining on the socket
def hello_with_code(server, code, **extra):
    """A page's socket that says hello with a slip's code (as the seat page does)."""
    sock = Socket(server.url)
    sock.send({"type": "hello", "code": code, "screen": True, **extra})
    return sock


def closed(sock, timeout=10.0) -> bool:
    import time
    deadline = time.monotonic() + timeout
    while not sock.closed and time.monotonic() < deadline:
        time.sleep(0.05)
    return sock.closed


def test_a_page_joins_with_its_code_on_its_socket(server, teacher):
    """hello with the code: `joined` (the credential to keep), then the seat's welcome
    and first screen on the same socket, a round trip less than joining over HTTP
    first; the credential signs in again later (a reload, a reconnect)."""
    t = teacher.create_table("jactus", players=2)
    typed = f"{t.codes['B'][:5].lower()}-{t.codes['B'][5:]} "    # as a student types it
    sock = hello_with_code(server, typed, client="page-0123456789")
    said = sock.receive("joined")
    assert said["table"] == t.id and said["seat"] == "B" and said["game"] == "jactus"
    assert isinstance(said["credential"], str) and len(said["credential"]) >= 24
    screen = sock.receive("screen")
    assert screen["seat"] == "B" and screen["table"] == t.id
    types = [f["type"] for f in sock.frames]
    assert types.index("joined") < types.index("welcome") < types.index("screen")
    again = page_socket(server, said["credential"])
    assert again.frames[-1]["seat"] == "B"
    sock.close(), again.close()


@pytest.mark.parametrize("hello, code, words", [
    ({"code": "ZZZZZZZZZZ"}, "unknown_code", "no seat has the join code 'ZZZZZZZZZZ'"),
    ({"code": "ZZZ", "credential": "x"}, "bad_request", "hello with a code is"),
    ({"code": "ZZZ", "token": "x", "screen": True}, "bad_request", "hello with a code is"),
    ({"code": 12345}, "bad_request", "a join code is the short text on the slip"),
])
def test_a_code_the_socket_cannot_join_is_refused_in_words(server, hello, code, words):
    sock = Socket(server.url)
    sock.send({"type": "hello", **hello})
    error = sock.receive("error")
    assert error["code"] == code and words in error["error"]
    assert closed(sock) and sock.close_code == 1008         # one try a socket
    assert not [f for f in sock.frames if f["type"] in ("joined", "welcome", "screen")]


def test_a_refused_code_closes_its_socket_and_an_ended_table_says_so(server, teacher):
    sock = hello_with_code(server, "ZZZZZZZZZZ", client="page-ended-test-1")
    assert sock.receive("error")["code"] == "unknown_code"
    assert closed(sock) and sock.close_code == 1008
    t = teacher.create_table("jactus", players=2)
    teacher.end(t.id)
    sock = hello_with_code(server, t.codes["A"], client="page-ended-test-1")
    error = sock.receive("error")
    assert error["code"] == "ended" and "has ended" in error["error"]
    assert closed(sock)


def test_wrong_codes_on_sockets_count_as_they_do_over_http(tmp_path):
    """Ten wrong codes from one page (its client id) and its joins wait, a right code
    too, over HTTP as on a socket; another page is not held up."""
    from janus_widgets.table.server import LIMITS
    with table_server(tmp_path) as own:
        t = classroom.connect(own.url, own.token).create_table("jactus", players=2)
        for k in range(LIMITS["join_failures"]):
            sock = hello_with_code(own, f"WRONGCODE{k}", client="page-guesser-0001")
            assert sock.receive("error")["code"] == "unknown_code"
        sock = hello_with_code(own, t.codes["A"], client="page-guesser-0001")
        error = sock.receive("error")
        assert error["code"] == "rate_limit" and re.search(r"wait \d+ s", error["error"])
        request = urllib.request.Request(
            own.url + "/api/join", method="POST", headers={"Content-Type": "application/json"},
            data=json.dumps({"code": t.codes["A"], "client": "page-guesser-0001"}).encode())
        with pytest.raises(urllib.error.HTTPError) as held:
            urllib.request.urlopen(request, timeout=10)
        assert held.value.code == 429
        sock = hello_with_code(own, t.codes["A"], client="page-honest-00001")
        assert sock.receive("joined")["seat"] == "A"


def test_a_class_guessing_codes_is_answered_late_on_sockets_too(tmp_path):
    """Past the class's count of wrong codes a minute (from many page ids), a wrong code
    is answered late, on a socket as over HTTP: guessing from many pages is slowed."""
    import time

    from janus_widgets.table.server import LIMITS
    with table_server(tmp_path) as own:
        for k in range(LIMITS["class_wrong_codes"] + 5):
            request = urllib.request.Request(
                own.url + "/api/join", method="POST",
                headers={"Content-Type": "application/json"},
                data=json.dumps({"code": "WRONGCODE", "client": f"page-many-{k:05d}"}).encode())
            with pytest.raises(urllib.error.HTTPError):
                urllib.request.urlopen(request, timeout=30)
        start = time.monotonic()
        sock = hello_with_code(own, "WRONGCODE", client="page-one-more-01")
        assert sock.receive("error", timeout=20)["code"] == "unknown_code"
        assert time.monotonic() - start >= 0.5
        assert closed(sock)

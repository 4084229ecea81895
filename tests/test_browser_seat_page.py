"""The seat page the table server serves, in headless Chromium: no kernel, no Voila.

For every game, at 1366×768: the page joins from a slip's address (and the code leaves
the address bar), the board, the step bar and the status line are on screen at once,
text on the board is at least 10 px (14 px with Big), a move is played by clicking the
board and one with the keyboard, the step bar and ← → go back and forth, and *Save my
record* and *Save picture* download the seat's own files. On a 360×640 phone the board
comes first and a tap plays. A server killed with ``kill -9`` and started again: the
page says so, comes back by itself, and shows every acknowledged move. Script in the
address never runs; an unknown code, an ended and a paused table say what to do.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from browser_support import ARTIFACTS, CLASS_HOST, eventually
from janus_widgets import classroom, games
from janus_widgets.drawing.shapes import Region
from janus_widgets.table.seat_pages import held_layers
from server_support import table_server

pytestmark = pytest.mark.browser

GAMES = ("jactus", "jinns", "janus", "janus-cards")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with table_server(tmp_path_factory.mktemp("seat-page"), bot_delay=0.05) as s:
        yield s


@pytest.fixture(scope="module")
def teacher(server):
    return classroom.connect(server.url, server.token)


class SeatPage:
    """A seat page in a browser tab, with every screen it was sent: the one that came in
    the page (a slip's address), once its socket says it is ``live``, then every screen
    its WebSocket received."""

    def __init__(self, browser: Any, url: str, width: int = 1366, height: int = 768) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height},
                                           accept_downloads=True)
        self.page = self.context.new_page()
        self.page.set_default_timeout(20_000)
        self.screens: list[dict[str, Any]] = []
        self.layers: dict[str, list[Any]] = {}
        self.errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", lambda m: self.errors.append(m.text)
                     if m.type == "error" else None)
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("websocket", self._socket)
        self.in_page: dict | None = None
        self._document_response: Any = None
        self.page.on("response", self._document)
        self.page.goto(url)

    def _document(self, response: Any) -> None:
        if "/seat?code=" in response.url and response.request.resource_type == "document":
            self._document_response = response

    def _screen_in_page(self) -> dict | None:
        """The screen that came in the page (its JSON data block), if one did."""
        found = re.search(rb'id="first-screen">([^<]*)</script>',
                          self._document_response.body())
        return json.loads(found.group(1)).get("screen") if found else None

    def _socket(self, ws: Any) -> None:
        def take(payload: Any) -> None:
            data = json.loads(payload)
            if data.get("type") == "live":              # the screen in the page is live
                if self.in_page is None:
                    self.in_page = self._screen_in_page()
                assert self.in_page and data["serial"] == self.in_page["serial"], data
                data = {**self.in_page, "seats": data["seats"]}
            if data.get("type") == "screen":
                held_layers(self.layers, data)           # "same" and edits, as the page
                self.screens.append(data)
        ws.on("framereceived", take)

    def screen(self, where: Any = None, after: int = 0, timeout: float = 20) -> dict:
        """The newest screen (after ``after`` screens) for which ``where`` holds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for frame in reversed(self.screens[after:]):
                if where is None or where(frame):
                    return frame
            self.page.wait_for_timeout(50)
        raise TimeoutError(f"no such screen; last: {self.screens[-1:]!r:.300}")

    def act(self, action: Any, where: Any = None, timeout: float = 20) -> dict:
        """Do ``action()``; the first screen after it for which ``where`` holds."""
        count = len(self.screens)
        action()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for frame in self.screens[count:]:
                if where is None or where(frame):
                    return frame
            self.page.wait_for_timeout(50)
        raise TimeoutError(f"no such screen after the action; last: {self.screens[-1:]!r:.300}")

    def painted(self, frame: dict | None = None, timeout: float = 20) -> dict:
        """Wait until the page shows the newest screen it was sent (the page marks the
        screen it painted); returns that screen."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            newest = self.screens[-1] if self.screens else None
            shown = self.page.evaluate("() => document.body.dataset.serial || ''")
            if newest is not None and shown == str(newest["serial"]):
                return newest
            self.page.wait_for_timeout(50)
        raise TimeoutError("the page did not paint its newest screen")

    def click_board(self, x: float, y: float, frame: dict) -> None:
        box = self.page.locator("#board").bounding_box()
        scale = box["width"] / frame["drawing"]["width"]
        self.page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)

    def text_px(self, frame: dict) -> float:
        """The smallest text on the board, in CSS pixels."""
        box = self.page.locator("#board").bounding_box()
        scale = box["width"] / frame["drawing"]["width"]
        sizes = [s[4] for layer in frame["drawing"]["layers"].values() for s in layer
                 if s[0] == "text"]
        return min(sizes) * scale

    def outlives_kill_9(self, server: Any) -> dict:
        """Kill the page's server (SIGKILL), see the page say it is reconnecting, start
        the server again: the first screen after, once the page says it is connected."""
        server.kill()
        self.page.wait_for_function("() => document.getElementById('connection')"
                                    ".textContent.includes('Reconnecting')")
        # Who is connected is not known while the server is away: no stale news.
        seats = self.page.inner_text("#seats")
        assert "connected" not in seats and "(you): human, reconnecting…" in seats, seats
        back = self.act(server.start, timeout=30)
        eventually(lambda: self.page.inner_text("#connection") == "")
        assert "(you): human, connected" in self.page.inner_text("#seats")
        return back

    def close(self) -> None:
        self.context.close()


def regions(frame: dict) -> list[Region]:
    return [Region(r["key"], r["kind"], tuple(tuple(p) if isinstance(p, list) else p
                                              for p in r["geometry"]))
            for r in frame["drawing"]["regions"]]


def clickable_point(frame: dict, index: int) -> tuple[float, float] | None:
    """A point of region ``index`` that no region above it covers (the page hit-tests
    the topmost region first)."""
    shown = regions(frame)
    x, y = shown[index].center()
    if any(r.contains(x, y) for r in shown[index + 1:]) or not shown[index].contains(x, y):
        return None
    return x, y


def clicks_for_a_move(game: Any, view: Any, frame: dict) -> list[int]:
    """Region indices whose clicks, one after the other, make a legal move on the
    board of ``frame`` (found with the game's own click rules; at most three)."""
    board = game.board()
    legal = {m.notation for m in view.legal_moves()}
    keyed = {}
    for i, region in enumerate(frame["drawing"]["regions"]):
        if clickable_point(frame, i) is not None:
            keyed[i] = region["key"]
    drawn = game.draw(view)
    by_text = {}
    for r in drawn.regions:
        by_text.setdefault(" ".join(map(str, r.key)) if isinstance(r.key, tuple)
                           else str(r.key), r.key)
    paths = [([], board.fresh_selection(view, view.current_player, None)
              if hasattr(board, "fresh_selection") else None)]
    for _ in range(3):
        grown = []
        for path, selection in paths:
            for i, text in keyed.items():
                key = by_text.get(text)
                if key is None:
                    continue
                result = board.click(view, selection, key)
                if result.move is not None and result.move in legal:
                    return path + [i]
                if result.move is None and not result.step and \
                        result.selection not in (None, selection):
                    grown.append((path + [i], result.selection))
        paths = grown[:200]
    raise AssertionError("no clicks on this board make a legal move")


def make_table(teacher: Any, name: str) -> Any:
    if name == "janus-cards":
        return teacher.create_table(name, players=3, bots={1: "greedy", 2: "greedy"})
    return teacher.create_table(name, players=2, bots={1: "greedy"})


def our_turn(frame: dict) -> bool:
    return frame["steps"]["at_end"] and bool(frame["moves"]["options"])


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_page_plays_steps_saves_and_fits_1366x768(browser, server, teacher, name,
                                                          tmp_path):
    t = make_table(teacher, name)
    seat = SeatPage(browser, f"{server.url}/seat?code={t.codes['A']}")
    page = seat.page
    try:
        frame = seat.screen(our_turn)
        seat.painted(frame)
        assert page.url.endswith("/seat"), "the code leaves the address bar"
        # Board, step bar and status line on screen together; legible text.
        for part in ("#board", "#stepbar", "#status-turn"):
            box = page.locator(part).bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= 768, (part, box)
        assert seat.text_px(frame) >= 10
        # Every piece keeps a letter: the drawing has letters, not colour alone.
        texts = {s[3] for layer in frame["drawing"]["layers"].values() for s in layer
                 if s[0] == "text"}
        assert {"A", "B"} <= texts or any(len(x) == 1 and x.isalpha() for x in texts)
        # A move by clicking the board.
        length = frame["steps"]["length"]
        record = teacher.record(t.id)
        view = record.final_state().view(0)
        now = frame
        for index in clicks_for_a_move(games.get(name), view, frame):
            now = seat.act(lambda: seat.click_board(*clickable_point(now, index), now))
        frame = seat.screen(lambda f: f["steps"]["length"] > length and our_turn(f),
                            timeout=30)
        assert teacher.record(t.id).moves[length].startswith(
            frame["log"][length + 1][0].split(" ")[-1][:1])
        # A move with the keyboard: ↓ chooses the first legal move, Enter plays it.
        seat.painted(frame)
        length = frame["steps"]["length"]
        page.focus("#board")
        seat.act(lambda: page.keyboard.press("ArrowDown"),
                 lambda f: f["status"]["message"].startswith("Selected"))
        frame = seat.act(lambda: page.keyboard.press("Enter"),
                         lambda f: f["steps"]["length"] > length and f["steps"]["at_end"],
                         timeout=30)
        assert len(teacher.record(t.id).moves) >= frame["steps"]["length"]
        # Step back and forth: Home, → and the buttons.
        seat.painted(frame)
        seat.act(lambda: page.keyboard.press("Home"), lambda f: f["steps"]["index"] == 0)
        page.wait_for_function("() => document.getElementById('where').textContent"
                               ".startsWith('move 0/')")
        seat.act(lambda: page.keyboard.press("ArrowRight"),
                 lambda f: f["steps"]["index"] == 1)
        back = seat.act(lambda: page.click("#back"), lambda f: f["steps"]["index"] == 0)
        assert not back["moves"]["options"]            # nothing is played from the past
        frame = seat.act(lambda: page.click("#last"), lambda f: f["steps"]["at_end"])
        seat.painted(seat.screen())
        # Save my record: the seat's own record, no seed.
        with page.expect_download() as download:
            page.click("#save-record")
        saved = json.loads(Path(download.value.path()).read_text())
        assert saved["seat"] == "A" and "seed" not in saved
        assert len(saved["moves"]) >= frame["steps"]["length"]
        for button, ending in (("#save-svg", ".svg"), ("#save-png", ".png")):
            with page.expect_download() as download:
                page.click(button)
            assert download.value.suggested_filename.endswith(ending)
            assert Path(download.value.path()).stat().st_size > 500
        ARTIFACTS.mkdir(exist_ok=True)
        # Big (a projector): the board grows, its text is at least 14 px, and the step
        # bar and the status line stay on the screen with it (beside it)
        small = page.locator("#board").bounding_box()["width"]
        page.click("#big")
        page.wait_for_function("() => document.body.classList.contains('big')")
        page.wait_for_timeout(100)
        assert page.locator("#board").bounding_box()["width"] > small
        assert seat.text_px(frame) >= 14
        for part in ("#board", "#stepbar", "#status-turn"):
            box = page.locator(part).bounding_box()
            assert 0 <= box["y"] and box["y"] + box["height"] <= 768, ("Big", part, box)
            assert box["x"] + box["width"] <= 1366, ("Big", part, box)
        page.screenshot(path=str(ARTIFACTS / f"seat-page-{name}-1366x768-big.png"))
        page.click("#big")
        page.screenshot(path=str(ARTIFACTS / f"seat-page-{name}-1366x768.png"))
        # the screen reader's sentences end once each ("threw 2 4. A to move")
        told = seat.page.text_content("#live-last")
        assert told.endswith(".") and ".." not in told, told
        assert not seat.errors and not seat.dialogs
    finally:
        seat.close()


def test_at_the_class_network_address_over_http_a_slip_joins_and_plays(browser, server,
                                                                       teacher):
    """A class reaches the teacher's laptop at its network address over plain HTTP, where
    a page is not a "secure context" and a browser has no ``crypto.randomUUID``: the
    page called it for its own id and for every move's, so no student could join over
    the class's network (a blank page from a slip, "Joining…" for ever from the form),
    while every test on 127.0.0.1 passed. From a slip's address, from the form, and a
    move played."""
    t = make_table(teacher, "jactus")
    address = server.url.replace("127.0.0.1", CLASS_HOST)
    seat = SeatPage(browser, f"{address}/seat?code={t.codes['A']}", 360, 640)
    page = seat.page
    try:
        assert page.evaluate("() => window.isSecureContext") is False
        frame = seat.painted(seat.screen(our_turn))
        length = frame["steps"]["length"]
        page.focus("#board")
        seat.act(lambda: page.keyboard.press("ArrowDown"),
                 lambda f: f["status"]["message"].startswith("Selected"))
        seat.act(lambda: page.keyboard.press("Enter"),
                 lambda f: f["steps"]["length"] > length)
        assert not seat.errors, seat.errors
    finally:
        seat.close()
    seat = SeatPage(browser, f"{address}/seat")
    page = seat.page
    try:
        page.wait_for_selector("#code")
        page.fill("#code", t.codes["B"] if "B" in t.codes else t.codes["A"])
        page.click("#join-form button")
        seat.painted(seat.screen())
        assert not seat.errors, seat.errors
    finally:
        seat.close()


def test_on_a_phone_the_board_comes_first_and_a_tap_plays(browser, server, teacher):
    t = make_table(teacher, "jactus")
    seat = SeatPage(browser, f"{server.url}/seat?code={t.codes['A']}", 360, 640)
    page = seat.page
    try:
        frame = seat.screen(our_turn)
        seat.painted(frame)
        board = page.locator("#board").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= 360
        assert board["width"] >= 300
        assert board["y"] < page.locator("#options").bounding_box()["y"]
        assert board["y"] + board["height"] <= 640
        index = [r["key"] for r in frame["drawing"]["regions"]].index("button throw")
        box = page.locator("#board").bounding_box()
        scale = box["width"] / frame["drawing"]["width"]
        x, y = clickable_point(frame, index)
        page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)
        seat.screen(lambda f: f["steps"]["length"] >= 1)
        page.screenshot(path=str(ARTIFACTS / "seat-page-jactus-360x640.png"))
        assert not seat.errors
    finally:
        seat.close()


def test_big_on_a_phone_keeps_the_boards_type_large_and_scrolls_it_sideways(
        browser, server, teacher):
    """On a 360×640 phone the Janus board fits the width, its smallest type about 4 px;
    Big made only the page's type larger. Now Big keeps the board's type at 14 px or
    more: the board is wider than the phone and its own box scrolls sideways (the page
    does not), and a tap on it still plays."""
    t = make_table(teacher, "janus")
    seat = SeatPage(browser, f"{server.url}/seat?code={t.codes['A']}", 360, 640)
    page = seat.page
    try:
        frame = seat.painted(seat.screen(our_turn))
        assert seat.text_px(frame) < 10                     # the overview: the whole board
        page.click("#big")
        eventually(lambda: seat.text_px(frame) >= 14)
        wide = page.evaluate("""() => { const b = document.getElementById('board-box');
            return [b.scrollWidth, b.clientWidth, document.documentElement.scrollWidth]; }""")
        assert wide[0] > wide[1] and wide[2] <= 360, wide
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "seat-page-janus-360x640-big.png"))
        page.evaluate("() => { document.getElementById('board-box').scrollLeft = 40; }")
        length = frame["steps"]["length"]
        record = teacher.record(t.id)
        view = record.final_state().view(0)
        now = frame
        for index in clicks_for_a_move(games.get("janus"), view, frame):
            x, y = clickable_point(now, index)
            box = page.locator("#board").bounding_box()
            scale = box["width"] / now["drawing"]["width"]
            page.evaluate(f"() => document.getElementById('board-box').scrollLeft = "
                          f"{max(0, x * scale - 150)}")
            box = page.locator("#board").bounding_box()
            now = seat.act(lambda: page.mouse.click(box["x"] + x * scale,
                                                    box["y"] + y * scale))
        seat.screen(lambda f: f["steps"]["length"] > length)
        assert not seat.errors
    finally:
        seat.close()


def test_on_a_phone_new_moves_never_carry_the_board_off_the_screen(browser, server, teacher):
    """The card game opens seven moves in (the deal), its move log below the fold of a
    phone: the log keeps its newest move in view by scrolling itself, never the page
    (scrollIntoView scrolled the window down to the log); a phone shows the board at
    the top as the page opens and after each move the bots answer."""
    t = make_table(teacher, "janus-cards")
    seat = SeatPage(browser, f"{server.url}/seat?code={t.codes['A']}", 360, 640)
    page = seat.page
    top = "() => [window.scrollY, document.getElementById('board').getBoundingClientRect().top]"
    try:
        frame = seat.painted(seat.screen(our_turn))
        assert frame["steps"]["length"] >= 7
        scrolled, board_top = page.evaluate(top)
        assert scrolled == 0 and board_top >= 0, "the page opened scrolled past its board"
        page.select_option("#options", index=0)
        page.evaluate("() => window.scrollTo(0, 0)")
        length = frame["steps"]["length"]
        seat.act(lambda: page.evaluate("() => document.getElementById('play').click()"),
                 lambda f: f["steps"]["length"] > length + 1)
        seat.painted()
        scrolled, board_top = page.evaluate(top)
        assert scrolled == 0 and board_top >= 0, "a new move scrolled the page"
        # the log scrolls to its newest move when the page is next laid out (a frame)
        page.wait_for_function("""() => { const l = document.getElementById('log');
            const c = l.querySelector('.current'); if (!c) return false;
            const a = l.getBoundingClientRect(), b = c.getBoundingClientRect();
            return b.top >= a.top - 1 && b.bottom <= a.bottom + 1; }""", timeout=5000)
        assert page.evaluate(top)[0] == 0, "scrolling the log scrolled the page"
        assert not seat.errors
    finally:
        seat.close()


def test_script_in_the_address_never_runs_and_bad_codes_say_what_to_do(browser, server,
                                                                        teacher):
    attacks = ["%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E",
               "%22%3E%3Cscript%3Ealert(2)%3C%2Fscript%3E", "javascript:alert(3)"]
    for attack in attacks:
        seat = SeatPage(browser, f"{server.url}/seat?code={attack}&theme={attack}")
        try:
            seat.page.wait_for_selector("#join:not([hidden])")
            seat.page.wait_for_timeout(200)
            assert not seat.dialogs and not seat.errors
        finally:
            seat.close()
    seat = SeatPage(browser, f"{server.url}/seat?code=ZZZZZZZZ")
    try:
        seat.page.wait_for_function(
            "() => document.getElementById('join-message').textContent.includes("
            "'No seat has this code here: check the code and the address on your slip')")
    finally:
        seat.close()
    ended = make_table(teacher, "jactus")
    teacher.end(ended.id)
    seat = SeatPage(browser, f"{server.url}/seat?code={ended.codes['A']}")
    try:
        seat.page.wait_for_function(
            "() => document.getElementById('join-message').textContent"
            ".includes('ask your teacher for a new slip')")
    finally:
        seat.close()
    paused = make_table(teacher, "jactus")
    seat = SeatPage(browser, f"{server.url}/seat?code={paused.codes['A']}")
    try:
        seat.screen(our_turn)
        teacher.pause(paused.id)
        frame = seat.screen(lambda f: not f["moves"]["options"])
        assert "paused" in frame["moves"]["note"]
        seat.page.wait_for_function(                # what is true now: nobody moves
            "() => document.getElementById('status-turn').textContent"
            ".includes('Play stopped: the teacher paused this table')")
    finally:
        seat.close()


def test_a_page_comes_back_by_itself_after_kill_9(browser, tmp_path):
    with table_server(tmp_path, bot_delay=0.05) as server:
        teacher = classroom.connect(server.url, server.token)
        t = teacher.create_table("jactus", players=2, bots={1: "greedy"})
        seat = SeatPage(browser, f"{server.url}/seat?code={t.codes['A']}")
        page = seat.page
        try:
            frame = seat.screen(our_turn)
            seat.painted(frame)
            page.focus("#board")
            seat.act(lambda: page.keyboard.press("ArrowDown"),
                     lambda f: f["status"]["message"].startswith("Selected"))
            seat.act(lambda: page.keyboard.press("Enter"),
                     lambda f: f["steps"]["length"] >= 1 and our_turn(f), timeout=30)
            played = len(teacher.record(t.id).moves)
            back = seat.outlives_kill_9(server)
            assert back["steps"]["length"] >= played
            assert page.url.endswith("/seat")          # the same seat, no code needed
        finally:
            seat.close()


def test_one_legal_move_is_selected_and_a_selection_never_outlives_its_position(
        browser, server, teacher):
    """Jactus opens with one legal move (throw all five): it is selected, and Play plays
    it (it asked for a selection first, a tap more on a phone). A move selected in a
    list of many stays selected while the position does, and is let go with it."""
    t = make_table(teacher, "jactus")
    seat = SeatPage(browser, f"{server.url}/seat?code={t.codes['A']}")
    page = seat.page
    try:
        frame = seat.painted(seat.screen(our_turn))
        assert len(frame["moves"]["options"]) == 1
        assert page.input_value("#options") == "0"
        length = frame["steps"]["length"]
        frame = seat.act(lambda: page.click("#play"),
                         lambda f: f["steps"]["length"] > length and our_turn(f)
                         and len(f["moves"]["options"]) > 2)
        seat.painted(frame)
        page.select_option("#options", index=2)
        seat.painted(seat.act(lambda: None, lambda f: f["serial"] > frame["serial"]))
        assert page.input_value("#options") == "2"               # the same position: kept
        # played: the next position (this seat's again, a list of many) selects nothing
        length = frame["steps"]["length"]
        seat.act(lambda: page.click("#play"),
                 lambda f: f["steps"]["length"] > length and f["steps"]["at_end"])
        seat.painted()
        after = seat.screens[-1]
        if len(after["moves"]["options"]) > 1:
            assert page.input_value("#options") == "", "a selection outlived its position"
        assert not seat.errors
    finally:
        seat.close()


def test_a_code_typed_with_spaces_joins_and_a_refused_one_stays_in_the_box(browser, server,
                                                                         teacher):
    """A student types the slip's code as it reads, with a space or a dash, in lower
    case: it joins. A code that joins nothing is refused in words and stays in the box
    to be corrected (it was gone)."""
    t = make_table(teacher, "jactus")
    seat = SeatPage(browser, f"{server.url}/seat")
    page = seat.page
    try:
        page.wait_for_selector("#code")
        page.fill("#code", "zzzzz-zzzzz")
        page.click("#join-form button")
        page.wait_for_function("() => document.getElementById('join-message')"
                               ".textContent.includes('No seat')")
        assert page.input_value("#code") == "zzzzz-zzzzz"
        code = t.codes["A"]
        page.fill("#code", f"{code[:5].lower()} {code[5:]}")
        page.click("#join-form button")
        seat.painted(seat.screen(our_turn))
        assert page.url.endswith("/seat") and not seat.errors
    finally:
        seat.close()


def test_a_page_that_joined_again_by_its_form_still_comes_back_by_itself(browser, tmp_path):
    """A page whose kept credential no longer opens a seat (the teacher withdrew it while
    the laptop slept) asks for the code again; joined again through its form, it
    reconnects by itself after the server goes away, as a page joined from its slip's
    address does (it stayed given up: a blip later, it never came back)."""
    with table_server(tmp_path, bot_delay=0.05) as server:
        teacher = classroom.connect(server.url, server.token)
        t = teacher.create_table("jactus", players=2, bots={1: "greedy"})
        seat = SeatPage(browser, f"{server.url}/seat")
        page = seat.page
        try:
            page.evaluate("() => sessionStorage.setItem('janus-seat-credential', "
                          "'a-credential-withdrawn-meanwhile')")
            page.goto(f"{server.url}/seat")
            page.wait_for_function("() => document.getElementById('join-message')"
                                   ".textContent.includes('needs its code again')")
            page.fill("#code", t.codes["A"])
            page.click("#join-form button")
            seat.painted(seat.screen(our_turn))
            seat.outlives_kill_9(server)
            # the browser's own words for the tries while the server was away, no others
            assert not [e for e in seat.errors if "ERR_CONNECTION_REFUSED" not in e]
        finally:
            seat.close()


def test_a_frame_the_page_cannot_read_is_dropped_and_the_page_plays_on(browser, server,
                                                                         teacher):
    """Frames the page cannot read (not JSON, an unknown screen version, a layer it
    does not have) are dropped and logged in the console; the next good screen is
    painted and the page still plays."""
    t = make_table(teacher, "jactus")
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda exc: console.append(f"UNCAUGHT {exc}"))
    bad = ["this is not JSON", json.dumps({"type": "screen", "version": 99}),
           json.dumps({"type": "screen", "version": 1, "drawing": {"layers": {
               "board": "same"}}})]

    def relay(ws):
        server_side = ws.connect_to_server()
        first = [True]

        def to_page(message):
            if first[0] and ('"type":"screen"' in message or '"type":"live"' in message):
                first[0] = False
                for frame in bad:                       # garbage before the first screen
                    ws.send(frame)
            ws.send(message)
        server_side.on_message(to_page)
        ws.on_message(lambda message: server_side.send(message))
    page.route_web_socket(f"{server.url.replace('http', 'ws')}/ws", relay)
    try:
        page.goto(f"{server.url}/seat?code={t.codes['A']}")
        page.wait_for_function("() => document.body.dataset.serial !== undefined")
        assert len([c for c in console if "dropped a frame" in c]) == len(bad), "\n\n".join(console)
        assert not [c for c in console if c.startswith("UNCAUGHT")]
        page.focus("#board")
        page.keyboard.press("ArrowDown")
        page.wait_for_function("() => document.getElementById('status-message')"
                               ".textContent.startsWith('Selected')")
        page.keyboard.press("Enter")
        page.wait_for_function("() => !document.getElementById('where').textContent"
                               ".endsWith('/0')")
    finally:
        context.close()


def test_a_slips_address_paints_its_screen_before_the_socket_answers(browser, server,
                                                                    teacher):
    """The screen that came in the page is painted at once, while the socket is still
    joining (here it never answers): the board, the status line and the moves, the
    connection saying it is joining; an action (Save my record) then says to wait,
    nothing is sent. Once
    the socket answers, its screen is painted and the page plays."""
    table = make_table(teacher, "janus")
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    held: list = []
    sent: list = []

    def relay(ws):
        held.append(ws)
        ws.on_message(lambda message: sent.append(message))
    try:
        page = context.new_page()
        page.route_web_socket(f"{server.url.replace('http', 'ws')}/ws", relay)
        page.goto(f"{server.url}/seat?code={table.codes['A']}")
        page.wait_for_function("() => document.body.dataset.preview === 'shown'")
        assert page.evaluate("() => document.body.dataset.serial") is None
        assert page.inner_text("#connection") == "Joining your table…"
        colour = "e => getComputedStyle(e).color"
        assert page.eval_on_selector("#connection", colour) != "rgb(176, 0, 32)", \
            "joining is no problem: not in the red of Reconnecting…"
        assert page.inner_text("#status-turn").strip() and page.is_visible("#board")
        assert page.locator("#options option").count() > 0
        box = page.locator("#board").bounding_box()
        assert box["width"] > 300
        lit = page.evaluate("""() => {
            const c = document.getElementById('board');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) n++;
            return n / (c.width * c.height); }""")
        assert lit > 0.5, "the board is drawn"
        page.click("#save-record")
        page.wait_for_function("() => document.getElementById('status-message')"
                               ".textContent.includes('Joining your table')")
        assert [json.loads(m)["type"] for m in sent] == ["hello"]
    finally:
        context.close()
    seat = SeatPage(browser, f"{server.url}/seat?code={table.codes['A']}")
    try:
        frame = seat.painted()
        assert seat.page.inner_text("#connection") == "" and not seat.errors
        marks = seat.page.evaluate("() => ['janus-painted', 'janus-live'].map("
                                   "n => performance.getEntriesByName(n).length)")
        assert marks == [1, 1] and frame["seat"] == "A"
    finally:
        seat.close()


def test_a_slips_address_in_a_browser_without_script_says_what_it_needs(browser, server,
                                                                         teacher):
    """With the browser's script turned off the page says that it needs it, and what
    to do, at once and in words (not a blank page); nothing breaks the page's policy."""
    table = make_table(teacher, "janus")
    context = browser.new_context(viewport={"width": 1366, "height": 768},
                                  java_script_enabled=False)
    refused: list = []
    try:
        page = context.new_page()
        page.on("console", lambda m: refused.append(m.text)
                if "Content Security Policy" in m.text else None)
        page.goto(f"{server.url}/seat?code={table.codes['A']}")
        text = page.inner_text("body")
        assert "needs JavaScript" in text and "teacher" in text, text
        assert not page.is_visible("#board") and not refused, refused
    finally:
        context.close()


def test_the_page_joins_on_its_socket_and_a_wrong_code_leaves_it_closed(
        browser, server, teacher):
    """The page joins with its code on its WebSocket (hello carries the code; the
    server answers `joined`, then the first screen): no join request over HTTP, one
    socket, a round trip less before the first screen. The credential is kept: a
    reload signs in with it, not with the code. A code that joins nothing is answered
    on that socket, which closes; the page says what to do."""
    table = make_table(teacher, "jactus")
    for code, joins in ((table.codes["A"], True), ("ZZZZZZZZZZ", False)):
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        try:
            page = context.new_page()
            sockets, sent, asked = [], [], []
            page.on("websocket", lambda ws: (sockets.append(ws), ws.on(
                "framesent", lambda payload: sent.append(json.loads(payload)))))
            page.on("request", lambda request: asked.append(request.url))
            page.goto(f"{server.url}/seat?code={code}")
            pump = lambda seconds: page.wait_for_timeout(1000 * seconds)  # noqa: E731
            if joins:
                page.wait_for_function("() => document.body.dataset.serial !== undefined")
                assert len(sockets) == 1 and sent[0]["type"] == "hello"
                assert sent[0]["code"] == code and "credential" not in sent[0]
                assert page.url.endswith("/seat")                  # the code has left
                assert not [url for url in asked if "/api/" in url], asked
                for own in ("/seat/seat.js", "/seat/seat.css"):   # preloaded, asked once
                    assert [url for url in asked if url.endswith(own)] == [
                        server.url + own], asked
                page.reload()
                page.wait_for_function("() => document.body.dataset.serial !== undefined")
                eventually(lambda: len(sent) >= 2, timeout=20, pause=pump)
                again = [m for m in sent if m["type"] == "hello"][-1]
                assert "credential" in again and "code" not in again
            else:                 # refused in the page itself: no socket is opened
                page.wait_for_function("() => document.getElementById('join-message')"
                                       ".textContent.includes('No seat')")
                assert page.input_value("#code") == code
                pump(0.5)
                assert not sockets and not sent
                assert page.evaluate("() => sessionStorage.getItem("
                                     "'janus-seat-credential')") is None
                page.fill("#code", "YYYYYYYYYY")       # the form tries on a socket
                page.click("#join-form button")
                page.wait_for_function("() => document.getElementById('join-message')"
                                       ".textContent.includes('No seat')")
                eventually(lambda: sockets[0].is_closed(), timeout=20, pause=pump)
                assert [m["type"] for m in sent] == ["hello"] and len(sockets) == 1
                assert sent[0]["code"] == "YYYYYYYYYY"
        finally:
            context.close()

"""The roman-dice class experiment for real (issue 35, item 2): each student enters their
throws on the page, checked; on pages joined to a class the pooled counts reach every
student's page and the teacher's panel, each student's throws count once, and the teacher
clears a mistaken entry; a page joined to no class pools its own throws."""

from __future__ import annotations

import json
import urllib.request
from fractions import Fraction

import pytest

from server_support import table_server

from janus_widgets.analysis.experiment import (ROMAN_DICE_MODELS, ClassExperiment,
                                               TeacherExperiment, experiment_page)
from janus_widgets.analysis.throws import MAX_THROWS, check_tally, parse_throws
from janus_widgets.table.client import ClassroomError, TeacherClient, _request, join_class


def test_a_throw_the_die_cannot_make_is_refused_and_says_why():
    assert parse_throws("talus", "1, 3 4;6 6") == {"1": 1, "3": 1, "4": 1, "6": 2}
    with pytest.raises(ValueError, match=r"a talus cannot show 2: its sides are 1, 3, 4 "
                                         r"and 6 \(throw 3 of 3\)"):
        parse_throws("talus", "1 3 2")
    with pytest.raises(ValueError, match="type the faces you threw"):
        parse_throws("talus", "  ")
    assert parse_throws("tessera", "2 5")["5"] == 1
    with pytest.raises(ValueError, match="no experiment 'coin'; the experiments are talus"):
        parse_throws("coin", "1")
    for bad, why in (({"7": 1}, "cannot show 7"), ({"1": -1}, "whole number from 0"),
                     ({"1": 1.5}, "whole number"), ({"1": True}, "whole number"),
                     ({"1": MAX_THROWS + 1}, f"at most {MAX_THROWS}"), ([1, 2], "an object")):
        with pytest.raises(ValueError, match=why):
            check_tally("talus", bad)


def test_a_page_joined_to_no_class_pools_its_own_throws():
    page = ClassExperiment("talus", ROMAN_DICE_MODELS, link=None, poll=0)
    try:
        # no throws, no plot: an empty image is a broken-image icon in a browser
        assert page.view.plot.layout.display == "none"
        page.entry.value = "1 3 4 6 3 3"
        page.add.click()
        page.entry.value = "6 6 5"                  # refused whole: nothing of it counts
        page.add.click()
        assert "cannot show 5" in page.message.value
        assert page.entry.value == "6 6 5"          # kept, to be corrected
        assert page.pooled["pooled"] == {"1": 1, "3": 3, "4": 1, "6": 1}
        assert "joined to no class" in page.children[0].value
        assert "Your throws: 6" in page.view.table.value and page.view.plot.value
        assert page.view.plot.layout.display is None              # shown with a plot
        page.entry.value = "1 1"
        page.add.click()
        page.undo.click()                           # a student takes back their mistake
        assert page.pooled["throws"] == 6 and page.view.history[-1] == (6, 2)
    finally:
        page.close()


def test_the_panel_looks_up_the_pages_class_only_when_shown(monkeypatch):
    """A page prepared before its student asks builds the panel in advance: building it
    must not ask for the page's link (on a preheated page that waits for the request);
    showing it, or an entry, does, once."""
    from janus_widgets.analysis import class_link
    asked = []
    monkeypatch.setattr(class_link, "current", lambda: asked.append(1))
    page = ClassExperiment("talus", ROMAN_DICE_MODELS, poll=0)
    try:
        assert asked == [] and "for now" in page.children[0].value
        page.entry.value = "1 3"
        page._repr_mimebundle_()                    # shown (display() asks for this)
        assert asked == [1] and "joined to no class" in page.children[0].value
        page.add.click()
        assert asked == [1] and page.pooled["pooled"]["3"] == 1
    finally:
        page.close()


def get(url: str, path: str, secret: str) -> dict:
    return _request(url, "GET", path, secret=secret)


def test_three_students_pool_live_each_counts_once_and_the_teacher_clears_one(tmp_path,
                                                                            monkeypatch):
    with table_server(tmp_path) as server:
        teacher = TeacherClient(server.url, server.token)
        codes = teacher.create_class("3b", ["ada", "bo", "cy"])
        links = {name: join_class(server.url, code) for name, code in codes.items()}
        pages = {name: ClassExperiment("talus", ROMAN_DICE_MODELS, link=link, poll=0.3)
                 for name, link in links.items()}
        board = TeacherExperiment(server.url, server.token, "talus", ROMAN_DICE_MODELS,
                                  poll=0.3)
        try:
            pages["ada"].enter("1 3 4 6")
            pages["bo"].enter("3 3 4 4 6")
            pages["bo"].enter("1")                  # bo's second entry: bo's tally grows
            pages["cy"].enter("3 5")                # refused on the page: nothing sent
            assert "cannot show 5" in pages["cy"].message.value
            pages["cy"].enter("2")
            # every page and the teacher see the class's pool (read every 0.3 s)
            import time
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not all(
                    "10 throws from 2" in p.view.table.value for p in pages.values()):
                time.sleep(0.1)
            for name, page in pages.items():
                assert page.pooled["pooled"] == {"1": 2, "3": 3, "4": 3, "6": 2}, name
                assert page.pooled["students"] == 2
                assert "10 throws from 2 students" in page.view.table.value
                assert "tallies" not in page.pooled     # a student sees no one else's
            board.refresh()
            assert board.data["throws"] == 10
            assert [t["student"] for t in board.data["tallies"]] == ["3b/ada", "3b/bo"]
            assert "3b/bo" in board.tallies.value
            # the same tally sent again is still counted once
            ada = {"1": 1, "3": 1, "4": 1, "6": 1}
            for _ in range(2):
                _request(server.url, "POST", "/api/experiments/talus",
                         secret=links["ada"]._credential, data={"tally": ada, "was": ada})
            assert get(server.url, "/api/experiments/talus", server.token)["throws"] == 10
            # a send over a tally the page did not read is refused: read, then send
            with pytest.raises(ClassroomError, match="changed on the server") as refused:
                _request(server.url, "POST", "/api/experiments/talus",
                         secret=links["ada"]._credential,
                         data={"tally": {"6": 9}, "was": {"1": 1}})
            assert (refused.value.status, refused.value.code) == (409, "changed")
            assert get(server.url, "/api/experiments/talus", server.token)["throws"] == 10
            # the server checks too: a face the talus lacks is refused, naming it
            with pytest.raises(ClassroomError, match="cannot show 2"):
                _request(server.url, "POST", "/api/experiments/talus",
                         secret=links["cy"]._credential, data={"tally": {"2": 1}})
            with pytest.raises(ClassroomError, match="no experiment 'coin'"):
                get(server.url, "/api/experiments/coin", server.token)
            # a student may not clear, the teacher may
            with pytest.raises(ClassroomError, match="teacher"):
                _request(server.url, "DELETE", "/api/experiments/talus?student=3b%2Fbo",
                         secret=links["ada"]._credential)
            board.students.value = "3b/bo"
            board.clear.click()
            assert "3b/bo's throws are cleared" in board.message.value
            assert board.data["throws"] == 4 and board.students.options == ("3b/ada",)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and "4 throws" not in pages["cy"].view.table.value:
                time.sleep(0.1)
            assert pages["cy"].pooled["pooled"] == {"1": 1, "3": 1, "4": 1, "6": 1}
            while time.monotonic() < deadline and sum(pages["bo"].mine.values()):
                time.sleep(0.1)
            assert "teacher cleared your throws" in pages["bo"].message.value
            # the dashboard page shows the panel when opened with the server and token
            panel = experiment_page(query={"server": server.url, "token": server.token})
            assert isinstance(panel, TeacherExperiment) and panel.data["throws"] == 4
            panel.close()
            # a classroom whose lessons of the day are others: folded, there to open
            from janus_widgets.widgets.dashboard import LESSONS_OF_THE_DAY
            monkeypatch.setenv(LESSONS_OF_THE_DAY, "what-can-i-know")
            folded = experiment_page(query={"server": server.url, "token": server.token})
            assert folded.selected_index is None and "not a lesson of today" in folded.titles[0]
            assert folded.children[0].data["throws"] == 4
            folded.children[0].close()
            monkeypatch.setenv(LESSONS_OF_THE_DAY, "what-can-i-know,roman-dice")
            shown = experiment_page(query={"server": server.url, "token": server.token})
            assert isinstance(shown, TeacherExperiment)
            shown.close()
        finally:
            for page in pages.values():
                page.close()
            board.close()


def test_the_models_are_the_lessons():
    assert ROMAN_DICE_MODELS["equal chances (our model)"] == Fraction(1, 2)
    assert json.dumps({k: str(v) for k, v in ROMAN_DICE_MODELS.items()})
    assert urllib.request  # the module's imports are the test's own


class _Held:
    """The server's side of one experiment for one student, in memory: what a POST
    keeps (only over the tally it says it replaces, as the server does), what a GET
    answers (``mine`` and the pool), and a switch to fail."""

    def __init__(self) -> None:
        self.mine: dict | None = None
        self.posts: list[dict] = []
        self.failing = False
        self.in_post = None          # an Event the POST waits on, when set

    def __call__(self, link, method, path, data=None, secret=""):
        if self.failing:
            raise ClassroomError("the class's server is away")
        if method == "POST":
            zero = {f: 0 for f in "1346"}
            if "was" in data and (data["was"] or zero) != (self.mine or zero):
                raise ClassroomError("your tally changed on the server", "changed", 409)
            self.posts.append(dict(data["tally"]))
            if self.in_post is not None:
                self.in_post.wait(5)
            self.mine = dict(data["tally"])
        mine = self.mine or {f: 0 for f in "1346"}
        return {"pooled": dict(mine), "throws": sum(mine.values()),
                "students": int(bool(self.mine)), "mine": self.mine}


@pytest.fixture
def held(monkeypatch):
    from janus_widgets.analysis import experiment
    server = _Held()
    monkeypatch.setattr(experiment, "_request", server)
    return server


def _linked_page() -> ClassExperiment:
    return ClassExperiment("talus", ROMAN_DICE_MODELS, link=object(), poll=0)


def test_an_entry_typed_while_the_poll_sends_is_sent_too(held):
    """The poll's thread sends the tally while the student adds more: the new throws
    reach the server (they were once lost when the answer came back after the entry)."""
    import threading
    import time
    page = _linked_page()
    try:
        held.failing = True
        page.enter("1 3")                             # not sent: the server is away
        held.failing = False
        held.in_post = threading.Event()
        poll = threading.Thread(target=page.refresh)
        poll.start()                                  # the poll's send in flight
        while not held.posts:
            time.sleep(0.01)
        typing = threading.Thread(target=page.enter, args=("6 6",))
        typing.start()
        time.sleep(0.2)                               # the entry waits for the send
        held.in_post.set()
        poll.join(5)
        typing.join(5)
        page.refresh()
        assert held.mine == {"1": 1, "3": 1, "4": 0, "6": 2} == page.mine
    finally:
        page.close()


def test_a_reloaded_page_keeps_the_throws_sent_before_and_follows_the_teacher(held):
    held.mine = {"1": 2, "3": 1, "4": 0, "6": 0}      # sent from this student's last page
    page = _linked_page()
    try:
        assert page.mine == held.mine and "3 throws sent before are counted" in \
            page.message.value
        page.enter("4")
        assert held.mine == {"1": 2, "3": 1, "4": 1, "6": 0}, "added to, not replaced"
        held.mine = None                              # the teacher clears the tally
        page.refresh()
        assert page.mine == {"1": 0, "3": 0, "4": 0, "6": 0}
        assert "teacher cleared your throws" in page.message.value
        assert page.undo.disabled and "0 in all" in page.own.value
        page.enter("6")
        assert held.mine == {"1": 0, "3": 0, "4": 0, "6": 1}, "the cleared ones stay out"
    finally:
        page.close()


def test_throws_typed_while_the_teacher_clears_count_and_the_cleared_stay_out(held):
    """The teacher clears a student's tally while the page holds throws it could not
    send yet: the page's send names the tally it replaces, the server refuses it, and
    the page adds only its new throws to what the teacher left (the cleared throws once
    came back with the late send)."""
    page = _linked_page()
    try:
        page.enter("1 3")
        assert held.mine == {"1": 1, "3": 1, "4": 0, "6": 0}
        held.failing = True
        page.enter("6 6")                             # not sent: the server is away
        held.failing = False
        held.mine = None                              # meanwhile the teacher clears it
        page.refresh()
        assert held.mine == {"1": 0, "3": 0, "4": 0, "6": 2} == page.mine
        assert "Your teacher cleared your throws. Your 2 new throws are added." in \
            page.message.value
        page.take_back()                              # the new entry is still its own
        assert held.mine == {"1": 0, "3": 0, "4": 0, "6": 0} == page.mine
        assert page.undo.disabled
    finally:
        page.close()


def test_one_students_two_pages_add_up_and_neither_loses_a_throw(held):
    """A student's pages on two computers: each sends over the tally it last read, so a
    send that crossed the other page's is refused, read again and added to."""
    first = _linked_page()
    try:
        first.enter("1")
        second = _linked_page()                       # opened later: adopts the 1
        try:
            second.enter("3")
            first.enter("6")                          # over {1}: the server holds {1, 3}
            assert held.mine == {"1": 1, "3": 1, "4": 0, "6": 1} == first.mine
            assert "changed on the server" in first.message.value
            assert "Your new throw is added." in first.message.value
            second.refresh()                          # the other page's next poll
            assert second.mine == held.mine
        finally:
            second.close()
    finally:
        first.close()


def test_the_servers_absence_is_said_and_unsaid_and_the_throws_wait(held):
    page = _linked_page()
    try:
        held.failing = True
        page.enter("1 1")
        assert "could not be reached" in page.message.value
        held.failing = False
        page.refresh()                                # the next poll
        assert held.mine == {"1": 2, "3": 0, "4": 0, "6": 0}
        assert "could not be reached" not in page.message.value
        assert "reached again" in page.message.value
    finally:
        page.close()


def test_an_entry_over_the_tallys_limit_is_refused_on_the_page(held):
    page = _linked_page()
    try:
        page.enter(" ".join(["3"] * MAX_THROWS))
        page.enter("1")
        assert f"at most {MAX_THROWS} throws" in page.message.value
        assert sum(page.mine.values()) == MAX_THROWS == sum(held.mine.values())
    finally:
        page.close()

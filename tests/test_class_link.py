"""A lesson page's checks reach the class server in the background: a check shows its
verdict at once whatever the server does (silent, refusing, away)."""

from __future__ import annotations

import json
import socket
import threading
import time
from fractions import Fraction
from urllib.parse import urlencode
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from janus_widgets.analysis import class_link
from janus_widgets.analysis.checking import Exercise, check_answer
from janus_widgets.table.client import ClassLink

HALF = Exercise("q1", "Heads with one coin?", lambda: Fraction(1, 2), lesson="coins")


@pytest.fixture(autouse=True)
def fresh_link(monkeypatch):
    """Each test starts with no link and nothing kept, and leaves it so."""
    monkeypatch.setattr(class_link, "SEND_TIMEOUT", 0.5)
    class_link.use(None)
    class_link._unsent.clear()
    class_link._waiting.clear()
    yield
    class_link.use(None)
    class_link.flush(5)
    class_link._unsent.clear()
    class_link._waiting.clear()


@pytest.fixture
def silent_server():
    """A socket that accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue
    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    thread.join(5)
    for conn in held:
        conn.close()
    listener.close()


class Answers:
    """A small HTTP server standing in for the class server: answers every POST with
    ``status`` and keeps the bodies it was sent."""

    def __init__(self) -> None:
        self.status = 201
        self.bodies: list[dict] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                owner.bodies.append(body)
                reply = (json.dumps({"type": "ok"}) if owner.status < 400 else json.dumps(
                    {"type": "error", "code": "x", "error": "refused"})).encode()
                self.send_response(owner.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *args: object) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def answers():
    server = Answers()
    yield server
    server.close()


def test_a_check_against_a_server_that_never_answers_returns_at_once(silent_server):
    class_link.use(ClassLink(silent_server, "credential", "3b", "ada"))
    start = time.monotonic()
    verdicts = [check_answer(HALF, answer) for answer in ("1/2", "1/3", "2/4")]
    assert time.monotonic() - start < 0.3                 # the verdicts do not wait
    assert [v.correct for v in verdicts] == [True, False, True]
    assert class_link.flush(5) is False                   # not sent: kept for later
    assert len(class_link._unsent) == 3


def test_refused_checks_are_dropped_quietly_and_unsent_ones_kept_in_order(answers, caplog,
                                                                          monkeypatch):
    import ipywidgets as w
    note = w.HTML()
    monkeypatch.setattr(class_link, "_refused_note", note)
    link = ClassLink(answers.url, "credential", "3b", "ada")
    class_link.use(link)
    answers.status = 400                                  # a field refused: dropped
    class_link.report("coins", "q1", "1/3", "wrong")
    assert class_link.flush(5) and note.value == ""
    answers.status = 401                                  # an unknown credential
    with caplog.at_level("DEBUG", logger="janus_widgets.class_link"):
        assert class_link.report("coins", "q1", "1/3", "wrong")
        assert class_link.flush(5)                        # dropped: nothing kept
    assert "refused a check" in caplog.text and not class_link._unsent
    # ... and the page says so: its code was given again, its checks count no more
    assert note.value == class_link.LINK_REFUSED and "new lesson slip" in note.value
    answers.status = 503                                  # busy: kept, in order
    class_link.report("coins", "q1", "1/4", "wrong")
    class_link.report("coins", "q2", "2", "right")
    assert class_link.flush(5) is False and len(class_link._unsent) == 2
    answers.status = 201
    class_link.report("coins", "q3", "3", "right")        # the next check sends them all
    assert class_link.flush(5)
    assert [(b["question"], b["answer"]) for b in answers.bodies[-3:]] == [
        ("q1", "1/4"), ("q2", "2"), ("q3", "3")]
    assert link.sent == 3


def test_a_link_that_fails_in_any_way_leaves_the_verdict_shown():
    class Broken:
        def send(self, *args: object, **kwargs: object) -> None:
            raise RuntimeError("a bug in the link")
    class_link.use(Broken())
    assert check_answer(HALF, "1/2").correct
    assert class_link.flush(5)                            # dropped, logged, nothing raised


# --- an answer confirmed once is one check --------------------------------------------------
def checks_sent(monkeypatch, confirm) -> list[tuple[str, ...]]:
    """The checks an answer box reports when ``confirm(panel)`` fills it in and confirms it
    the way a browser does: a box with ``continuous_update=False`` sends its value when
    Enter is pressed or when it loses the focus (to the Check button, say), then the
    button's click arrives."""
    sent: list[tuple[str, ...]] = []
    monkeypatch.setattr(class_link, "report",
                        lambda *check: sent.append(tuple(map(str, check))) or True)
    panel = HALF.widget()
    confirm(panel)
    return sent


@pytest.mark.parametrize("how, confirm", [
    ("typed, then Check", lambda p: (setattr(p.answer_box, "value", "1/3"),
                                     p.check_button.click())),
    ("Enter", lambda p: setattr(p.answer_box, "value", "1/3")),
    ("Enter, then Check", lambda p: (setattr(p.answer_box, "value", "1/3"),
                                     p.check_button.click())),
    ("Enter, then Check twice", lambda p: (setattr(p.answer_box, "value", "1/3"),
                                           p.check_button.click(), p.check_button.click())),
    ("Check on a box typed and left", lambda p: (setattr(p.answer_box, "value", " 1/3 "),
                                                 p.check_button.click())),
])
def test_an_answer_confirmed_once_is_one_check_however_it_was_confirmed(
        monkeypatch, how, confirm):
    sent = checks_sent(monkeypatch, confirm)
    assert sent == [("coins", "q1", "1/3", "wrong", "")], how


def test_a_changed_answer_is_checked_again_and_an_empty_box_is_no_check(monkeypatch):
    def confirm(panel) -> None:
        panel.check_button.click()                     # nothing typed: no check
        assert "Write your answer" in panel.verdict.value
        panel.answer_box.value = "1/3"
        panel.check_button.click()
        assert "Not right" in panel.verdict.value
        panel.answer_box.value = "1/2"                 # changed, then confirmed: checked
        panel.check_button.click()
        assert "Right" in panel.verdict.value
        panel.answer_box.value = ""                    # emptied: no check
        panel.answer_box.value = "1/3"                 # the first answer again: checked
    sent = checks_sent(monkeypatch, confirm)
    assert [(answer, verdict) for _, _, answer, verdict, _ in sent] == [
        ("1/3", "wrong"), ("1/2", "right"), ("1/3", "wrong")]


# --- a reloaded page shows the student's earlier answers ---------------------------------
class Kept:
    """A class link whose server kept some of this student's checks (``own``: lesson →
    question → answer), and counts the checks sent and the times it was read."""

    def __init__(self, own: dict[str, dict[str, str]], fails: bool = False) -> None:
        self.own, self.fails, self.sent, self.read = own, fails, [], 0

    def own_checks(self, lesson: str, *, timeout: float = 10) -> dict[str, str]:
        self.read += 1
        if self.fails:
            raise ConnectionError("the server is away")
        return dict(self.own.get(lesson, {}))

    def send(self, *check: object, **kwargs: object) -> None:
        self.sent.append(check)


THIRD = Exercise("q2", "One face of three?", lambda: Fraction(1, 3), lesson="coins")


def test_a_reloaded_page_shows_the_earlier_answers_and_sends_nothing_again(monkeypatch):
    monkeypatch.setattr(class_link, "_joined", None)
    link = Kept({"coins": {"q1": "1/3"}})
    early = HALF.widget()                       # drawn before the page knows its student
    assert early.answer_box.value == "" and link.read == 0
    class_link.use(link)                        # the page joins its class
    assert early.answer_box.value == "1/3"
    assert "Not right" in early.verdict.value and "janus-exercise-earlier" in early.verdict.value
    late, other = HALF.widget(), THIRD.widget()   # drawn once it joined: at once
    assert (late.answer_box.value, other.answer_box.value) == ("1/3", "")
    assert link.read == 1                       # the lesson's checks, read once
    class_link.flush(5)
    assert link.sent == []                      # the class has them: not sent again
    late.answer_box.value = "1/2"               # a new answer is a new check, as ever
    assert "Right" in late.verdict.value and "earlier" not in late.verdict.value
    class_link.flush(5)
    assert [c[:4] for c in link.sent] == [("coins", "q1", "1/2", "right")]


def test_an_answer_typed_before_the_page_joined_is_never_replaced(monkeypatch):
    monkeypatch.setattr(class_link, "_joined", None)
    panel = HALF.widget()
    panel.answer_box.value = "1/2"              # checked on the page (no class yet)
    typed = THIRD.widget()
    typed.answer_box.continuous_update = True   # typed, not confirmed
    typed.answer_box.value = "2/3"
    class_link.use(Kept({"coins": {"q1": "1/3", "q2": "1/4"}}))
    assert panel.answer_box.value == "1/2" and "Right" in panel.verdict.value
    assert typed.answer_box.value == "2/3"


def test_a_server_that_cannot_say_leaves_the_boxes_empty_and_the_page_working(monkeypatch):
    monkeypatch.setattr(class_link, "_joined", None)
    link = Kept({"coins": {"q1": "1/3"}}, fails=True)
    class_link.use(link)
    panels = [HALF.widget(), THIRD.widget()]
    assert [p.answer_box.value for p in panels] == ["", ""] and link.read == 1
    panels[0].answer_box.value = "1/2"
    assert "Right" in panels[0].verdict.value
    # a page joined to no class never asks
    class_link.use(None)
    monkeypatch.setattr(class_link, "_joined", (("", ""), None))
    assert HALF.widget().answer_box.value == "" and not class_link._waiting


@pytest.mark.parametrize("query", [None, "", "theme=dark", "server=http%3A%2F%2Fh%3A1"])
@pytest.mark.parametrize("pinned", [True, False])
def test_a_lesson_page_without_a_slips_code_says_its_checks_are_not_sent(monkeypatch,
                                                                         query, pinned):
    """A classroom's lesson page (pinned to its table server) opened at the lesson's own
    address (the one the ``classroom`` command prints) joins no class: it says its checks
    are not sent to the teacher and how to have them counted. Outside a classroom
    (``voila lesson.ipynb``, a notebook in JupyterLab) there are no slips: it says
    nothing."""
    import IPython.display

    from janus_widgets.table import client
    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda *items: shown.extend(items))
    monkeypatch.setattr(class_link, "_joined", None)
    monkeypatch.setattr(class_link, "_heartbeat", None)
    if pinned:
        monkeypatch.setenv(client.PINNED_SERVER, "http://127.0.0.1:8866")
    else:
        monkeypatch.delenv(client.PINNED_SERVER, raising=False)
    if query is None:
        monkeypatch.delenv("QUERY_STRING", raising=False)
    else:
        monkeypatch.setenv("QUERY_STRING", query)
    assert class_link.from_query_string() is None
    assert class_link.from_query_string() is None                 # said once
    if not pinned:
        assert shown == []
    else:
        # the page's signs of life (a classroom's page says so when its kernel is gone),
        # once, then the note
        beats, notes = shown[:1], shown[1:]
        assert class_link.LESSON_STALE_CLASS in beats[0].value
        assert len(notes) == 1 and "not sent to your teacher" in notes[0].data
        assert "lesson slip" in notes[0].data and class_link.NOT_JOINED_CLASS in notes[0].data


def test_a_refused_code_is_said_as_text(monkeypatch):
    """The server's refusal may hold what the address said (the code): the page shows
    it as text, never as markup."""
    import IPython.display

    from janus_widgets.table import client
    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda *items: shown.extend(items))
    monkeypatch.setattr(class_link, "_joined", None)
    monkeypatch.delenv(client.PINNED_SERVER, raising=False)

    def refuse(server, code):
        raise client.ClassroomError(f"no student has the code {code!r}")
    monkeypatch.setattr(client, "join_class", refuse)
    monkeypatch.setenv("QUERY_STRING", urlencode({"server": "http://127.0.0.1:8866",
                                                  "code": "<img src=x onerror=alert(1)>"}))
    assert class_link.from_query_string() is None
    (said,) = shown
    assert "<img" not in said.data and "&lt;img src=x" in said.data
    assert "not sent to your teacher" in said.data and class_link.NOT_JOINED_CLASS in said.data


def test_a_classrooms_lesson_page_joins_its_own_table_server_only(monkeypatch):
    """A link to a lesson page naming another server (a student's edit of the address):
    the page's kernel runs on the teacher's computer, so it makes no request there (it
    would otherwise reach any host of the school's network and show what answered);
    the page says why its checks are not sent."""
    import IPython.display

    from janus_widgets.table import client
    shown, asked = [], []
    monkeypatch.setattr(IPython.display, "display", lambda *items: shown.extend(items))
    monkeypatch.setattr(client, "join_class", lambda *a, **k: asked.append(a))
    monkeypatch.setenv(client.PINNED_SERVER, "http://127.0.0.1:8866")
    for server in ("http://10.0.0.5:22", "http://127.0.0.1:8867", "https://127.0.0.1:8866",
                   "http://127.0.0.1:port", "http://<h1>x<b>@127.0.0.1:8866", "http://[::1"):
        monkeypatch.setattr(class_link, "_joined", None)
        monkeypatch.setenv("QUERY_STRING", urlencode({"server": server, "code": "KM4TPXRA3C"}))
        assert class_link.from_query_string() is None
        assert asked == [] and "another table server" in shown[-1].data
    monkeypatch.setattr(class_link, "_joined", None)
    monkeypatch.setenv("QUERY_STRING", urlencode({"server": "http://localhost:8866",
                                                  "code": "KM4TPXRA3C"}))
    class_link.from_query_string()
    assert asked == [("http://localhost:8866", "KM4TPXRA3C")]     # its own: joined

"""A lesson page's link to the class: each exercise check goes to the teacher's tally.

A lesson's student edition opened with ``?server=…&code=…`` (Voila passes the query
string to the kernel) or after ``classroom.join_class(url, code)`` in a cell sends every
check it makes (the question, the answer as typed, the verdict, the mistake it matched)
to the table server; the teacher's dashboard tallies them live. Checks are sent by a
background thread, each within :data:`SEND_TIMEOUT` seconds: the student's check shows
its verdict at once, whatever the server does, and never an error for the sending. A
check that cannot be sent (the server is away, or busy) is kept and sent with the next
one (the last :data:`KEEP` of them); a check the server refuses (a 4xx answer: an
unknown credential, a bad field) is dropped, logged at debug level only.

>>> use(None)                                         # a page joined to no class
>>> report("jactus-odds", "q1", "1/6", "right")     # nothing to do
False

A lesson's student edition joins the class in its first cells (see
:func:`janus_widgets.analysis.lessons.edition`); every check goes through
:func:`janus_widgets.analysis.checking.check_answer`, which reports it here.

**A preheated page** (the ``classroom`` command's pool, Voila's ``preheat_kernel``): its
kernel runs the notebook before any student asks for the page, so the query string is
not there yet. Everything here that reads who the page is for (:func:`query`,
:func:`from_query_string`, :func:`current`) first waits for the page's request
(:func:`wait_for_page`, Voila's ``wait_for_request``): a cell that needs the student
runs only once the student is known, and every cell before it is done in advance
(:class:`janus_widgets.analysis.preheat.PreheatPreprocessor` puts the student's cell as
late as it can go).
"""

from __future__ import annotations

import logging
import os
import threading
import urllib.parse
from collections.abc import Callable
from typing import Any

__all__ = ["use", "current", "report", "restore", "flush", "from_query_string", "query",
           "wait_for_page", "preheated", "warm_up", "WARM_UP_STUDENT", "SEND_TIMEOUT",
           "KEEP"]

log = logging.getLogger("janus_widgets.class_link")

#: Seconds one check may take to reach the server (the page never waits for it).
SEND_TIMEOUT = 3.0
#: Checks kept while the server cannot be reached (the oldest are dropped first).
KEEP = 200

_link: Any = None
_unsent: list[tuple[str, str, str, str, str]] = []
_lock = threading.Lock()
_idle = threading.Condition(_lock)
_sender: threading.Thread | None = None
_request_seen = False            # a preheated kernel got its page's request
#: What a classroom's lesson page says when its address names no class (the lesson's
#: own address, not a slip's): its checks are not counted, and how to have them counted.
NOT_SENT = ("This page was opened without a lesson slip's code: your checks stay on this "
            "page and are not sent to your teacher. To have them counted, open the address "
            "on your lesson slip.")
#: What :func:`from_query_string` last tried: the (server, code) and the link it made.
_joined: tuple[tuple[str, str], Any] | None = None


def use(link: Any) -> None:
    """Send the checks of this page through ``link`` (a :class:`ClassLink`); the
    exercise boxes already on the page show the student's earlier answers
    (:func:`restore`)."""
    global _link
    _link = link
    _earlier.clear()
    if link is not None:
        waiting = _waiting[:]
        del _waiting[:]
        for lesson, question, show in waiting:
            restore(lesson, question, show)


#: Exercise boxes made before the page joined its class (a preheated page draws them
#: before its student is known): shown their earlier answers once it joins.
_waiting: list[tuple[str, str, Callable[[str], None]]] = []
#: The student's last answers, read once per lesson: lesson → question → answer.
_earlier: dict[str, dict[str, str]] = {}


def restore(lesson: str, question: str, show: Callable[[str], None]) -> None:
    """Have ``show(answer)`` put the student's last checked answer to ``question`` back
    in its box, if the class has one: a page reloaded (after a restart, or by mistake)
    shows what the student already did. At once when the page is joined to a class;
    when it joins, for a box made before; never for a page of no class. The answers
    are read from the server once per lesson, within :data:`SEND_TIMEOUT` seconds (a
    server that does not answer: the boxes stay empty, as before).

    >>> use(None); shown = []
    >>> restore("jactus-odds", "q1", shown.append); shown     # no class: nothing
    []
    """
    if _link is None:
        if _joined is None:                     # not joined yet: once it joins
            _waiting.append((lesson, question, show))
            del _waiting[:-KEEP]                # a notebook that never joins: the last
        return
    if lesson not in _earlier:
        try:
            _earlier[lesson] = _link.own_checks(lesson, timeout=SEND_TIMEOUT)
        except Exception:  # noqa: BLE001 - the lesson goes on without them
            log.debug("the earlier checks of %s could not be read", lesson, exc_info=True)
            _earlier[lesson] = {}
    answer = _earlier[lesson].get(question)
    if answer:
        show(answer)


def current() -> Any:
    """The link in use, or None. With none in use yet, the page's own: it joins the
    class the page's query string names, if it was not tried yet (a cell may ask before
    the lesson's parameters cell has run, which a page served by Voila with
    :class:`~janus_widgets.analysis.preheat.PreheatPreprocessor` moves down; a preheated
    page first waits for its request)."""
    if _link is None and _joined is None:
        from_query_string()
    return _link


def preheated() -> bool:
    """Whether this kernel runs a Voila page prepared before its request (a pool's).

    >>> preheated()
    False
    """
    return os.environ.get("VOILA_PREHEAT") == "True"


def wait_for_page() -> None:
    """On a preheated page, wait until a student asks for it (once: Voila then puts the
    request's ``QUERY_STRING`` and the rest into ``os.environ``); elsewhere nothing.

    >>> wait_for_page()          # not a preheated page: returns at once
    """
    global _request_seen
    if _request_seen or not preheated():
        return
    from voila.utils import wait_for_request
    wait_for_request()
    _request_seen = True


#: The made-up student a preheated page draws its lesson's exercises for before its
#: request: it loads what every student's numbers need (shared studies, tables) and
#: is never shown (the page's own student is drawn after the request).
WARM_UP_STUDENT = "janus-preheat"


def warm_up(modules: list[str] | tuple[str, ...] = (), lesson: str | None = None) -> None:
    """What a preheated page does before its request, none of it about its student:
    seal the kernel (:func:`janus_widgets.kernel_seal.seal`), import ``modules`` (the
    ones the page's later cells import) and draw ``lesson``'s exercises for
    :data:`WARM_UP_STUDENT` and throw them away. What fails here is left to the cell
    that needs it, which says why.

    >>> warm_up(["json"])
    """
    import importlib
    from ..kernel_seal import seal
    seal()
    for name in modules:
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - the cell that imports it shows the error
            log.debug("could not import %s before the page's request", name,
                      exc_info=True)
    if lesson is None:
        return
    try:
        from .checking import LESSON_EXERCISES, exercise_sets
        if lesson in LESSON_EXERCISES:
            exercise_sets(WARM_UP_STUDENT)[lesson]
    except Exception:  # noqa: BLE001 - as above
        log.debug("could not draw %s's exercises in advance", lesson, exc_info=True)


def report(lesson: str, question: str, answer: Any, verdict: str, mistake: str = "") -> bool:
    """Pass one exercise check to the background sender, if the page is joined to a
    class; returns whether it was taken (at once: it never waits on the server, and
    never raises)."""
    global _sender
    if _link is None:
        return False
    try:
        with _lock:
            _unsent.append((str(lesson), str(question), str(answer), str(verdict),
                            str(mistake or "")))
            del _unsent[:-KEEP]
            if _sender is None:
                _sender = threading.Thread(target=_send_unsent, daemon=True,
                                           name="janus-class-link")
                _sender.start()
    except Exception:  # noqa: BLE001 - a check's verdict is shown whatever happens here
        _sender = None
        log.debug("a check could not be passed to the sender", exc_info=True)
    return True


def _send_unsent() -> None:
    """The sender thread: send the kept checks in order until none is left, or the
    server cannot be reached (they wait for the next check)."""
    global _sender
    from ..table.client import ClassroomError
    while True:
        with _lock:
            link = _link
            if not _unsent or link is None:
                _sender = None
                _idle.notify_all()
                return
            check = _unsent[0]
        try:
            link.send(*check, timeout=SEND_TIMEOUT)
        except ClassroomError as exc:
            if 400 <= exc.status < 500 and exc.status != 429:
                log.debug("the server refused a check, dropped: %s", exc)
                if exc.status in (401, 403) and _refused_note is not None:
                    _refused_note.value = LINK_REFUSED    # the page's code no longer counts
            else:
                log.debug("a check could not be sent, kept for the next one: %s", exc)
                with _lock:
                    _sender = None
                    _idle.notify_all()
                return
        except Exception:  # noqa: BLE001 - nothing here may reach the student's page
            log.debug("a check could not be sent, dropped", exc_info=True)
        with _lock:
            if _unsent and _unsent[0] is check:
                _unsent.pop(0)


def flush(timeout: float = SEND_TIMEOUT + 1) -> bool:
    """Wait up to ``timeout`` seconds for the sender to finish; returns whether every
    check was sent (none is kept for later)."""
    with _lock:
        _idle.wait_for(lambda: _sender is None, timeout)
        return _sender is None and not _unsent


#: The class of the line a lesson page shows when it joined no class (its checks are
#: not sent): one mark for every reason, for the tests and the benchmarks to find.
NOT_JOINED_CLASS = "janus-not-joined"


#: What a classroom's lesson page says when its kernel is gone (the classroom stopped
#: or restarted): its checks went nowhere, silently, until the student reloaded it.
LESSON_STALE = (
    "<b>&#9888; This page has lost its link to your class</b>: your checks do not reach "
    "your teacher now. If your teacher restarted the class, reload this page (F5): your "
    "numbers stay the same, and the answers you checked come back. If the page "
    "was only busy, this goes away by itself.")
#: The class of that warning on the page.
LESSON_STALE_CLASS = "janus-lesson-stale"
_heartbeat: Any = None
#: What a lesson page says when the server refuses its checks' credential: the
#: student's slip was made again (lost, or passed round), or the class list remade.
LINK_REFUSED = (
    "<b>&#9888; Your checks no longer reach your teacher</b>: the code this page was "
    "opened with has been replaced. Open the address on your new lesson slip, or ask "
    "your teacher.")
#: The class of that warning on the page (shown empty until then).
LINK_REFUSED_CLASS = "janus-link-refused"
_refused_note: Any = None


def _keep_alive() -> None:
    """Signs of life to a classroom's lesson page (:class:`..widgets.alive.Heartbeat`),
    once: Voila's page shows no kernel's state, so without them a page whose classroom
    had restarted looked live while no check went anywhere."""
    global _heartbeat
    if _heartbeat is not None:
        return
    from IPython.display import display

    from ..table.local import kernel_loop
    from ..widgets.alive import Heartbeat
    _heartbeat = Heartbeat(LESSON_STALE, LESSON_STALE_CLASS, kernel_loop())
    display(_heartbeat.widget)


def _say_not_joined(text: str, colour: str = "#b42318") -> None:
    """Say on the page (as text: a server's words may hold a student's input) why its
    checks are not sent."""
    import html
    from IPython.display import HTML, display
    display(HTML(f"<p class='{NOT_JOINED_CLASS}' style='color:{colour}'>"
                 f"{html.escape(text)}</p>"))


def query() -> dict[str, str]:
    """The page's query string (Voila gives it to the kernel as ``QUERY_STRING``), as
    a dict of its first values.

    >>> os.environ["QUERY_STRING"] = "server=http%3A%2F%2Fh%3A8866&code=KM4TPXRA3C"
    >>> query()["server"], query()["code"]
    ('http://h:8866', 'KM4TPXRA3C')
    >>> del os.environ["QUERY_STRING"]
    """
    wait_for_page()
    parsed = urllib.parse.parse_qs(os.environ.get("QUERY_STRING", ""))
    return {key: values[0] for key, values in parsed.items() if values}


def from_query_string() -> Any:
    """Join the class named by the page's ``?server=…&code=…``, if it has them: the link
    (its ``student`` is this student's name on the class list), or None. A code or a
    server that does not answer is said on the page, and the lesson goes on without
    sending. Asked again for the same class, it gives the link it made (or None)
    without joining again."""
    global _joined
    params = query()
    wanted = (params.get("server", ""), params.get("code", ""))
    if _joined is not None and _joined[0] == wanted:
        return _joined[1]
    _joined = (wanted, None)
    from ..table.client import PINNED_SERVER, ClassroomError, join_class, same_server
    pinned = os.environ.get(PINNED_SERVER, "")
    if pinned:                                          # a classroom's page, in Voila
        _keep_alive()
    if not all(wanted):
        if pinned:             # a classroom's page opened without a lesson slip's code
            _say_not_joined(NOT_SENT, "#555")
        return None
    if pinned and not same_server(wanted[0], pinned):
        # The classroom's pages talk to its own table server only: an address naming
        # another would have this kernel, on the teacher's computer, send requests
        # wherever a student's link says (and show what came back).
        _say_not_joined("This page's address names another table server than this "
                        "classroom's: it joins no class, and your checks are not sent to "
                        "your teacher. Open the address on your lesson slip.")
        return None
    try:
        link = join_class(*wanted)
    except ClassroomError as exc:
        _say_not_joined(f"This page could not join the class ({exc}); your checks are not "
                        "sent to your teacher.")
        return None
    _joined = (wanted, link)
    use(link)
    if pinned:
        _show_refused_note()
    return link


def _show_refused_note() -> None:
    """Put the (empty) line where a classroom's lesson page says its checks stopped
    counting (:data:`LINK_REFUSED`) on the page, once: the checks are sent by a thread
    of their own, after the cell that made the check has finished."""
    global _refused_note
    if _refused_note is not None:
        return
    import ipywidgets as w
    from IPython.display import display
    _refused_note = w.HTML()
    _refused_note.add_class(LINK_REFUSED_CLASS)
    display(_refused_note)

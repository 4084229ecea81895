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
"""

from __future__ import annotations

import logging
import os
import threading
import urllib.parse
from typing import Any

__all__ = ["use", "current", "report", "flush", "from_query_string", "query",
           "SEND_TIMEOUT", "KEEP"]

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


def use(link: Any) -> None:
    """Send the checks of this page through ``link`` (a :class:`ClassLink`)."""
    global _link
    _link = link


def current() -> Any:
    """The link in use, or None."""
    return _link


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


def query() -> dict[str, str]:
    """The page's query string (Voila gives it to the kernel as ``QUERY_STRING``), as
    a dict of its first values.

    >>> os.environ["QUERY_STRING"] = "server=http%3A%2F%2Fh%3A8866&code=KM4TPXRA3C"
    >>> query()["server"], query()["code"]
    ('http://h:8866', 'KM4TPXRA3C')
    >>> del os.environ["QUERY_STRING"]
    """
    parsed = urllib.parse.parse_qs(os.environ.get("QUERY_STRING", ""))
    return {key: values[0] for key, values in parsed.items() if values}


def from_query_string() -> Any:
    """Join the class named by the page's ``?server=…&code=…``, if it has them: the link
    (its ``student`` is this student's name on the class list), or None. A code or a
    server that does not answer is said on the page, and the lesson goes on without
    sending."""
    params = query()
    if "server" not in params or "code" not in params:
        return None
    from ..table.client import ClassroomError, join_class
    try:
        link = join_class(params["server"], params["code"])
    except ClassroomError as exc:
        from IPython.display import HTML, display
        display(HTML(f"<p style='color:#b42318'>This page could not join the class "
                     f"({exc}); your checks are not sent to the teacher.</p>"))
        return None
    use(link)
    return link

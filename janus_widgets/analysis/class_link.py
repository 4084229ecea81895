"""A lesson page's link to the class: each exercise check goes to the teacher's tally.

A lesson's student edition opened with ``?server=…&code=…`` (Voila passes the query
string to the kernel) or after ``classroom.join_class(url, code)`` in a cell sends every
check it makes (the question, the answer as typed, the verdict, the mistake it matched)
to the table server; the teacher's dashboard tallies them live. A check that cannot be
sent (the server is away) is kept and sent with the next one; the student's page never
waits on it and never shows an error for it.

>>> use(None)                                         # a page joined to no class
>>> report("jactus-odds", "q1", "1/6", "right")     # nothing to do
False

A lesson's student edition joins the class in its first cells (see
:func:`janus_widgets.analysis.lessons.edition`); every check goes through
:func:`janus_widgets.analysis.checking.check_answer`, which reports it here.
"""

from __future__ import annotations

import os
import urllib.parse
from typing import Any

__all__ = ["use", "current", "report", "from_query_string", "query"]

_link: Any = None
_unsent: list[tuple[str, str, str, str, str]] = []


def use(link: Any) -> None:
    """Send the checks of this page through ``link`` (a :class:`ClassLink`)."""
    global _link
    _link = link


def current() -> Any:
    """The link in use, or None."""
    return _link


def report(lesson: str, question: str, answer: Any, verdict: str, mistake: str = "") -> bool:
    """Send one exercise check, if the page is joined to a class; returns whether it
    went (or was kept for later)."""
    if _link is None:
        return False
    _unsent.append((lesson, question, str(answer), verdict, mistake or ""))
    from ..table.client import ClassroomError
    while _unsent:
        try:
            _link.send(*_unsent[0])
        except ClassroomError:
            return True                     # kept: sent with the next check
        _unsent.pop(0)
    return True


def query() -> dict[str, str]:
    """The page's query string (Voila gives it to the kernel as ``QUERY_STRING``), as
    a dict of its first values.

    >>> os.environ["QUERY_STRING"] = "server=http%3A%2F%2Fh%3A8866&code=KM4TPXRA"
    >>> query()["server"], query()["code"]
    ('http://h:8866', 'KM4TPXRA')
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

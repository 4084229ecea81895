"""A class at many screens: the table server's clients under the names notebooks use.

Start the server (``python -m janus_widgets serve``: it prints its address and the
teacher's token), then::

    from janus_widgets import classroom
    teacher = classroom.connect("http://127.0.0.1:8866", token)
    t = teacher.create_table("janus-cards", players=3, bots={2: "greedy"})
    t.id, t.codes                       # 't1', {'A': 'KM4TPXRA3C', 'B': 'RW4DCEJN'}
    teacher.tables()                    # every table at a glance
    teacher.record(t.id)                # the full Record (the teacher's)

and on a student's page::

    seat = classroom.join("http://127.0.0.1:8866", "KM4TPXRA3C")
    seat.view, seat.legal_moves()       # only what seat A may know
    seat.play(seat.legal_moves()[0])
    jw.widget(seat)                     # the usual widget, kept up to date

See ``docs/classroom-server.md``.
"""

from __future__ import annotations

from typing import Any

from .table.client import (ClassLink, ClassroomError, CreatedTable, RemoteTable,
                           TeacherClient, TeacherWatch)
from .table.client import join as _join
from .table.client import join_class as _join_class

__all__ = ["connect", "join", "join_class", "dashboard", "TeacherClient", "RemoteTable",
           "CreatedTable", "ClassLink", "TeacherWatch", "ClassroomError"]


def connect(url: str, token: str, **kwargs: Any) -> TeacherClient:
    """The lobby with the teacher's token (checked now: a wrong one raises
    :class:`ClassroomError`)."""
    return TeacherClient(url, token, **kwargs)


def join(url: str, code: str, **kwargs: Any) -> RemoteTable:
    """The seat a join code opens, as a :class:`RemoteTable`."""
    return _join(url, code, **kwargs)


def join_class(url: str, code: str, **kwargs: Any) -> ClassLink:
    """A student's lesson page joined to the class list with the code from the slip:
    each exercise check is then sent to the teacher's tally."""
    link = _join_class(url, code, **kwargs)
    from .analysis import class_link
    class_link.use(link)
    return link


def dashboard(url: str, token: str, **kwargs: Any) -> Any:
    """The teacher's dashboard widget: every table live, open one, make tables for the
    class, pause / resume / end, join slips, every record, the class's answers."""
    from .widgets.dashboard import Dashboard
    return Dashboard(url, token, **kwargs)

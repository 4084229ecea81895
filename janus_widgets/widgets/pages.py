"""The two pages of a class at many screens: a student's seat and the teacher's dashboard.

``notebooks/seat.ipynb`` is one cell, ``seat_page()``: in Voila the page's query string
(``?server=…&code=…``) joins the seat at once; without it, two boxes ask for the server's
address and the join code. The seat's widget is the usual shell (it fits 1366×768),
kept up to date as the other seats move. The page's kernel holds only what the server
sent that seat. ``notebooks/teacher.ipynb`` is ``teacher_page()``: the same with the
server's address and the teacher's token, then the dashboard.

>>> page = seat_page(query={})            # no query string: the boxes
>>> [type(w).__name__ for w in page.children[1].children][:3]
['Text', 'Text', 'Button']
"""

from __future__ import annotations

import html
from collections.abc import Callable

import ipywidgets as W

from ..analysis.class_link import query as page_query
from ..table.client import PINNED_SERVER, ClassroomError, same_server

__all__ = ["seat_page", "teacher_page", "JoinPage", "PINNED_SERVER"]


class JoinPage(W.VBox):
    """Two boxes and a button, then what ``make(first, second)`` builds from them (or
    at once when the query string holds both)."""

    def __init__(self, title: str, first: tuple[str, str], second: tuple[str, str],
                 make: Callable[[str, str], W.Widget], query: dict[str, str],
                 secret: bool = False) -> None:
        super().__init__()
        self.title = W.HTML(f"<h3 style='margin:4px 0'>{html.escape(title)}</h3>")
        self.message = W.HTML()
        self.first = W.Text(value=query.get(first[0], ""), description=first[1],
                            placeholder="http://192.168.1.10:8866",
                            layout=W.Layout(width="420px"))
        box = W.Password if secret else W.Text
        self.second = box(value="", description=second[1], layout=W.Layout(width="420px"))
        self.second.value = query.get(second[0], "")
        self.button = W.Button(description="Join", icon="sign-in", button_style="primary")
        self.form = W.VBox([self.first, self.second, self.button])
        self._make = make
        self.made: W.Widget | None = None
        self.button.on_click(lambda _: self.join())
        self.children = [self.title, self.form, self.message]
        self.layout.width = "100%"
        if self.first.value and self.second.value:
            self.join()

    def join(self) -> W.Widget | None:
        """Build the page's widget from the boxes; a wrong address or code says why."""
        first, second = self.first.value.strip(), self.second.value.strip()
        if not first or not second:
            self.message.value = ("<span style='color:#b00020'>Fill in both boxes.</span>")
            return None
        self.message.value = "<i>Joining…</i>"
        try:
            self.made = self._make(first, second)
        except (ClassroomError, ValueError) as exc:
            self.message.value = (f"<span style='color:#b00020'>{html.escape(str(exc))}"
                                  "</span>")
            return None
        self.message.value = ""
        self.children = [self.made]
        return self.made


def seat_page(query: dict[str, str] | None = None) -> JoinPage:
    """A student's seat: joins with ``?server=…&code=…`` or the two boxes (in Voila the
    page's kernel then runs no code the browser sends: :mod:`janus_widgets.kernel_seal`)."""
    from ..kernel_seal import seal
    seal()
    def make(server: str, code: str) -> W.Widget:
        from ..table.client import join
        from .shell import GameWidget
        return GameWidget(join(server, code))
    return JoinPage("Join your table", ("server", "server"), ("code", "code"), make,
                    page_query() if query is None else query)


def teacher_page(query: dict[str, str] | None = None) -> JoinPage:
    """The teacher's dashboard: ``?server=…&token=…`` or the two boxes (a sealed kernel in
    Voila, as the seat page's). Started by the ``classroom`` command it talks to that
    classroom's table server only (:data:`PINNED_SERVER`): a link that names another
    server is refused before any token is asked for, so a student cannot make the
    teacher type the token into a page that sends it elsewhere.

    >>> import os; os.environ[PINNED_SERVER] = "http://127.0.0.1:8866"
    >>> page = teacher_page(query={"server": "http://10.0.0.66:9999"})
    >>> "another table server" in page.message.value, page.form in page.children
    (True, False)
    >>> page = teacher_page(query={})
    >>> page.first.value, page.first.disabled
    ('http://127.0.0.1:8866', True)
    >>> del os.environ[PINNED_SERVER]
    """
    import os
    from ..kernel_seal import seal
    seal()
    pinned = os.environ.get(PINNED_SERVER, "")
    query = dict(page_query() if query is None else query)
    named = query.get("server", "")
    if pinned and named and not same_server(named, pinned):
        page = JoinPage("Classroom dashboard", ("server", "server"), ("token", "token"),
                        lambda server, token: W.HTML(), {}, secret=True)
        page.message.value = (
            "<span style='color:#b00020'>This link names another table server ("
            f"{html.escape(named)}), not this classroom's ({html.escape(pinned)}): the "
            "dashboard does not open it, and asks for no token. Open the dashboard from "
            "the page the classroom command wrote beside its database.</span>")
        page.children = [page.title, page.message]
        return page
    if pinned:
        query["server"] = pinned

    def make(server: str, token: str) -> W.Widget:
        from .dashboard import Dashboard
        if pinned and not same_server(server, pinned):
            raise ValueError(f"this dashboard talks to {pinned} only")
        return Dashboard(server, token)
    page = JoinPage("Classroom dashboard", ("server", "server"), ("token", "token"), make,
                    query, secret=True)
    if pinned:
        page.first.disabled = True
    return page

"""The class experiment on the page: each student types their throws, the class's pooled
counts show live beside the models' predictions, the interval narrowing as throws arrive.

On a lesson page joined to a class (``?server=…&code=…``, see
:mod:`janus_widgets.analysis.class_link`) a student's tally goes to the table server
(``POST /api/experiments/<name>``; their tally replaces their last one, so each student's
throws count once) and the page shows the whole class's pooled counts, read every few
seconds. A page joined to no class pools the student's own throws. The teacher's dashboard
page shows the same pooled counts with every student's tally and a *Clear* for a mistaken
entry (:class:`TeacherExperiment`).

>>> page = ClassExperiment("talus", {"equal chances": Fraction(1, 2)}, link=None, poll=0)
>>> page.entry.value = "1 3 4 6 3"
>>> page.add.click()
>>> page.mine, page.pooled["throws"]
({'1': 1, '3': 2, '4': 1, '6': 1}, 5)
>>> page.entry.value = "3 5"
>>> page.add.click()
>>> page.message.value
'<span style="color:#b42318">Not added: a talus cannot show 5: its sides are 1, 3, 4 and 6 (throw 2 of 2)</span>'
>>> page.close()
"""

from __future__ import annotations

import html
import io
import logging
import threading
from fractions import Fraction
from typing import Any

import ipywidgets as w

from ..table.client import ClassroomError
from .throws import DICE, FACES, check_tally, parse_throws

__all__ = ["ClassExperiment", "TeacherExperiment", "NARROW", "experiment_page", "ROMAN_DICE_MODELS"]

log = logging.getLogger("janus_widgets.experiment")

#: The faces counted as a hit in each experiment's plot (a talus's narrow sides).
NARROW: dict[str, tuple[str, ...]] = {"talus": ("1", "6"), "tessera": ("6",)}
_HIT_NAMES = {"talus": "a narrow side (1 or 6)", "tessera": "a six"}


def _request(link: Any, method: str, path: str, data: Any = None, secret: str = "") -> Any:
    from ..table.client import _request as request
    # a ClassLink keeps its credential to itself; this page speaks for the same student
    return request(link.url, method, path, secret=secret or link._credential, data=data,
                   timeout=3.0)


def _png(figure: Any) -> bytes:
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=90)
    return out.getvalue()


class _Pooled(w.VBox):
    """The pooled counts, the share of hits with its 95% interval, the models, and the
    running share as throws arrived (a plot)."""

    def __init__(self, experiment: str, models: dict[str, Fraction | float]) -> None:
        self.experiment = experiment
        self.models = dict(models)
        self.table = w.HTML()
        # Hidden until there is a plot: an empty image is a browser's broken-image icon.
        self.plot = w.Image(format="png", layout=w.Layout(max_width="720px",
                                                          display="none"))
        self.history: list[tuple[int, int]] = []      # (throws, hits) as they arrived
        super().__init__([self.table, self.plot])
        self.add_class("janus-experiment-pooled")

    def show(self, pooled: dict[str, int], heading: str) -> None:
        from .montecarlo import proportion_estimate, share_plot
        faces = FACES[self.experiment]
        throws = sum(pooled.values())
        hits = sum(pooled[f] for f in NARROW[self.experiment])
        text = (f"<b>{html.escape(heading)}</b>"
                + _table("janus-experiment-counts", ["face", *faces, "throws"],
                         [["count", *(pooled[f] for f in faces), throws]]))
        if throws:
            est = proportion_estimate(hits, throws)
            verdicts = "; ".join(
                f"{html.escape(name)} ({float(value):.2f}): "
                f"{'inside' if est.low <= float(value) <= est.high else 'outside'}"
                for name, value in self.models.items())
            text += (f"<p>Share landing on {_HIT_NAMES[self.experiment]}: "
                     f"<b>{est.value:.3f}</b>, 95% interval <b>[{est.low:.3f}, "
                     f"{est.high:.3f}]</b> after {throws} throws. Is each model's value "
                     f"inside the interval? {verdicts}.</p>")
            if not self.history or self.history[-1] != (throws, hits):
                if self.history and throws < self.history[-1][0]:
                    self.history = []                 # a tally was cleared: start again
                self.history.append((throws, hits))
                fig = share_plot([n for n, _ in self.history], [h for _, h in self.history],
                                 self.models, title=f"{heading}: share of "
                                                    f"{_HIT_NAMES[self.experiment]}",
                                 unit="throws so far")
                self.plot.value = _png(fig)
                self.plot.layout.display = None
        else:
            text += "<p>No throws yet.</p>"
            self.history = []
            self.plot.layout.display = "none"
        self.table.value = text


class ClassExperiment(w.VBox):
    """A student's entry of their throws and the pooled counts (the class's, or their own
    on a page joined to no class). ``link`` is the page's class link (default: the one
    :mod:`~janus_widgets.analysis.class_link` uses); ``poll`` the seconds between reads
    of the class's counts (0: read only after an entry).

    The page's link is looked up when the panel is first shown or used, not when it is
    made: a page prepared before its student asks (a preheated Voila page) can build the
    panel in advance, and only learns its class once the student's request is there."""

    def __init__(self, experiment: str = "talus",
                 models: dict[str, Fraction | float] | None = None, *,
                 link: Any = "page", poll: float = 3.0) -> None:
        if experiment not in FACES:
            raise ValueError(f"no experiment {experiment!r}; the experiments are "
                             + ", ".join(sorted(FACES)))
        self.experiment, self.link, self._poll_every = experiment, link, poll
        self._pending = link == "page"            # the page's link, not looked up yet
        self.entries: list[dict[str, int]] = []
        self.mine = {face: 0 for face in FACES[experiment]}
        self.pooled: dict[str, Any] = {"pooled": dict(self.mine), "throws": 0, "students": 0}
        faces = " ".join(FACES[experiment])
        self.entry = w.Text(placeholder=f"the faces you threw, e.g. {faces}",
                            description="Your throws:", layout=w.Layout(width="32em"),
                            style={"description_width": "initial"})
        self.add = w.Button(description="Add my throws", button_style="success",
                            icon="plus", layout=w.Layout(width="auto"))
        self.undo = w.Button(description="Undo my last entry", icon="undo", disabled=True,
                             layout=w.Layout(width="auto"))
        self.message = w.HTML()
        self.own = w.HTML()
        self.view = _Pooled(experiment, models or {})
        self.add.on_click(lambda _b: self.enter(self.entry.value))
        self.undo.on_click(lambda _b: self.take_back())
        self.header = w.HTML()
        super().__init__([self.header, w.HBox([self.entry, self.add, self.undo]),
                          self.message, self.own, self.view])
        self.add_class("janus-experiment")
        self._stop = threading.Event()
        self._lock = threading.RLock()
        #: the tally the class's server holds for this student, as last heard (None:
        #: not asked yet); the page sends its own whenever the two differ
        self._held: dict[str, int] | None = None
        self._unreachable = False
        if self._pending:
            self._say_where()
            self._show_own()
        else:
            self._joined()

    def _say_where(self) -> None:
        """The panel's first line: what to do, and whose throws the counts are."""
        where = ("your own throws for now" if self._pending else
                 "the class's throws, pooled (every student's page shows them)" if self.link
                 else "your own throws (this page is joined to no class)")
        self.header.value = (f"<b>Throw {DICE[self.experiment]} and type each face "
                             f"({', '.join(FACES[self.experiment])}).</b> The counts below "
                             f"are {where}.")

    def _link_now(self) -> None:
        """Look up the page's class link, once (a preheated page waits for its request
        here), then show the counts of the class or of this student."""
        with self._lock:
            if not self._pending:
                return
            from . import class_link
            self.link, self._pending = class_link.current(), False
        self._joined()

    def _joined(self) -> None:
        self._say_where()
        self.refresh()
        if self.link and self._poll_every > 0:
            threading.Thread(target=self._poll, args=(self._poll_every,), daemon=True,
                             name="janus-experiment").start()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        self._link_now()                          # shown: the student's page is there
        return super()._repr_mimebundle_(**kwargs)

    def _say(self, text: str, error: bool = False) -> None:
        colour = "#b42318" if error else "#1a7f37"
        self.message.value = f'<span style="color:{colour}">{html.escape(text)}</span>'

    def enter(self, text: str) -> None:
        """Add the throws typed (refused, with the reason on the page, if the die cannot
        show one of them)."""
        self._link_now()
        try:
            tally = parse_throws(self.experiment, text)
        except ValueError as exc:
            self._say(f"Not added: {exc}", error=True)
            return
        with self._lock:                  # not while the poll's thread sends the tally
            try:
                check_tally(self.experiment, {f: self.mine[f] + tally.get(f, 0)
                                              for f in self.mine})
            except ValueError as exc:     # more than one student's tally may hold
                self._say(f"Not added: {exc}", error=True)
                return
            self.entries.append(tally)
            for face, count in tally.items():
                self.mine[face] += count
            self.entry.value = ""
            self.undo.disabled = False
            self._say(f"Added {sum(tally.values())} throws.")
            self._refresh()

    def take_back(self) -> None:
        """Remove the last entry (a student's own mistake)."""
        self._link_now()
        with self._lock:
            if not self.entries:
                return
            for face, count in self.entries.pop().items():
                self.mine[face] -= count
            self.undo.disabled = not self.entries
            self._say("Your last entry is taken back.")
            self._refresh()

    def refresh(self) -> None:
        """Send this student's tally if it changed, read the pooled counts, show them."""
        with self._lock:                  # the poll's thread and the page's clicks
            self._refresh()

    def _show_own(self) -> None:
        throws = sum(self.mine.values())
        self.own.value = (f"Your throws so far: "
                          + ", ".join(f"{f}: {n}" for f, n in self.mine.items())
                          + f" ({throws} in all).")
        if self.link and not self._pending:
            return
        self.pooled = {"pooled": dict(self.mine), "throws": throws, "students": 1}
        self.view.show(self.pooled["pooled"], f"Your throws: {throws}")

    def _refresh(self) -> None:
        if self.link and not self._pending:
            path = f"/api/experiments/{self.experiment}"
            try:
                answer, news = None, ""
                if self._held is None:                 # first: what the server holds
                    answer = _request(self.link, "GET", path)
                    self._heard(answer, first=True)
                for _ in range(2):            # again once, after the teacher's word
                    if self.mine == self._held:
                        break
                    sending = check_tally(self.experiment, self.mine)
                    try:          # replacing what the page last read, and only that
                        answer = _request(self.link, "POST", path,
                                          {"tally": sending, "was": self._held})
                        self._held = dict(sending)
                    except ClassroomError as exc:
                        if exc.status != 409:
                            raise
                        answer = _request(self.link, "GET", path)   # cleared meanwhile
                        news = self._rebased(answer)
                if answer is None:
                    answer = _request(self.link, "GET", path)
                    self._heard(answer)
                self.pooled = answer
                if self._unreachable:
                    self._unreachable = False
                    news = ("The class's counts are reached again; your throws are "
                            "counted. " + news).strip()
                if news:
                    self._say(news)
            except Exception as exc:  # noqa: BLE001 - the page goes on; sent next time
                log.debug("the experiment's counts could not be exchanged", exc_info=True)
                self._unreachable = True
                self._say(f"The class's counts could not be reached ({exc}); your "
                          "throws are sent with the next update.", error=True)
            self.view.show(self.pooled["pooled"], _class_heading(self.pooled))
        self._show_own()

    def _heard(self, answer: dict[str, Any], first: bool = False) -> None:
        """Take the tally the server holds for this student: at the first contact it is
        the throws sent before (the page was reloaded, or opened on another computer),
        added to any typed here meanwhile; later, a tally that changed on the server is
        the teacher's clearing it, and the page shows what counts now."""
        held = self._mine_in(answer)
        if first:
            self._held = held
            self.mine = {face: held[face] + self.mine[face] for face in held}
            if sum(held.values()):
                self._say(f"Your {sum(held.values())} throws sent before are counted.")
        elif held != self.mine:                        # nothing unsent: the server's word
            self._held, self.mine, self.entries = held, dict(held), []
            self.undo.disabled = True
            self._say(_changed_words(held))

    def _rebased(self, answer: dict[str, Any]) -> str:
        """This student's tally changed on the server while the page had throws to send
        (the teacher cleared it; or the student's page on another computer sent more):
        what the server holds now counts, and the throws typed here since the page last
        read it are added to it (and sent). What to tell the student."""
        held = self._mine_in(answer)
        before = self._held or {face: 0 for face in held}
        new = {face: max(0, self.mine[face] - before[face]) for face in held}
        self._held = held
        self.mine = {face: held[face] + new[face] for face in held}
        self.entries = [new] if sum(new.values()) else []
        self.undo.disabled = not self.entries
        added = sum(new.values())
        return _changed_words(held) + ("" if not added else " Your new throw is added."
                                       if added == 1 else
                                       f" Your {added} new throws are added.")

    def _mine_in(self, answer: dict[str, Any]) -> dict[str, int]:
        """This student's tally in the server's answer, every face (none: all 0)."""
        held = answer.get("mine") or {}
        return {face: int(held.get(face, 0)) for face in FACES[self.experiment]}

    def _poll(self, every: float) -> None:
        while not self._stop.wait(every):
            try:
                self.refresh()
            except Exception:  # noqa: BLE001 - a poll never breaks the page
                log.debug("an experiment poll failed", exc_info=True)

    def close(self) -> None:
        self._stop.set()
        super().close()


class TeacherExperiment(w.VBox):
    """The teacher's view of a class experiment: the pooled counts beside the models,
    every student's tally, and *Clear* for a mistaken one (``url`` and ``token`` as the
    dashboard's)."""

    def __init__(self, url: str, token: str, experiment: str = "talus",
                 models: dict[str, Fraction | float] | None = None, *,
                 poll: float = 3.0) -> None:
        from ..table.client import _base
        if experiment not in FACES:
            raise ValueError(f"no experiment {experiment!r}; the experiments are "
                             + ", ".join(sorted(FACES)))
        self.experiment = experiment
        self._link = type("_TeacherLink", (), {"url": _base(url), "_credential": token})()
        self.view = _Pooled(experiment, models or {})
        self.students = w.Dropdown(options=[], description="Student:")
        self.clear = w.Button(description="Clear this student's throws", icon="trash",
                              button_style="danger", layout=w.Layout(width="auto"))
        self.message = w.HTML()
        self.tallies = w.HTML()
        self.clear.on_click(lambda _b: self.clear_student(self.students.value))
        super().__init__([w.HTML(f"<h3>Class experiment: {DICE[experiment]}</h3>"),
                          self.view, self.tallies, w.HBox([self.students, self.clear]),
                          self.message])
        self.add_class("janus-teacher-experiment")
        self._stop = threading.Event()
        self._lock = threading.RLock()
        self._unreachable = False
        self.refresh()
        if poll > 0:
            threading.Thread(target=self._poll, args=(poll,), daemon=True,
                             name="janus-teacher-experiment").start()

    def refresh(self) -> None:
        """Read every tally and show them."""
        with self._lock:
            self._refresh()

    def _refresh(self) -> None:
        try:
            data = _request(self._link, "GET", f"/api/experiments/{self.experiment}")
        except Exception as exc:  # noqa: BLE001 - said on the page
            self._unreachable = True
            self.message.value = (f"<span style='color:#b42318'>The class's counts could "
                                  f"not be read: {html.escape(str(exc))}</span>")
            return
        if self._unreachable:                      # the message said so; now it is not
            self._unreachable = False
            self.message.value = "The class's counts are read again."
        self.data = data
        self.view.show(data["pooled"], _class_heading(data))
        faces = data["faces"]
        self.tallies.value = _table("janus-experiment-tallies", ["student", *faces],
                                    [[t["student"], *(t["tally"][f] for f in faces)]
                                     for t in data["tallies"]])
        names = [t["student"] for t in data["tallies"]]
        if list(self.students.options) != names:
            keep = self.students.value
            self.students.options = names
            if keep in names:
                self.students.value = keep
        self.clear.disabled = not names

    def clear_student(self, student: str | None) -> None:
        """Remove a student's tally (a mistaken entry)."""
        if not student:
            return
        try:
            _request(self._link, "DELETE", f"/api/experiments/{self.experiment}"
                                           f"?student={_quote(student)}")
            self.message.value = f"{html.escape(student)}'s throws are cleared."
        except Exception as exc:  # noqa: BLE001 - said on the page
            self.message.value = f"<span style='color:#b42318'>{html.escape(str(exc))}</span>"
        self.refresh()

    def _poll(self, every: float) -> None:
        while not self._stop.wait(every):
            try:
                self.refresh()
            except Exception:  # noqa: BLE001
                log.debug("an experiment poll failed", exc_info=True)

    def close(self) -> None:
        self._stop.set()
        super().close()


def _changed_words(held: dict[str, int]) -> str:
    """What a page says when its student's tally changed on the server."""
    if not sum(held.values()):
        return "Your teacher cleared your throws."
    return ("Your throws were changed on the server (by your teacher, or from your page "
            "on another computer): the counts show what is counted now.")


_CELL = "style='border:1px solid #b8b0a0;padding:2px 10px;text-align:{}'"


def _table(kind: str, head: list[Any], rows: list[list[Any]]) -> str:
    """A small table with ruled cells (text escaped): names to the left in the first
    column, numbers to the right.

    >>> _table("t", ["face", "1"], [["count", 3]]).count("<td ")
    2
    """
    def row(cells: list[Any], tag: str) -> str:
        return "<tr>" + "".join(
            f"<{tag} {_CELL.format('left' if k == 0 else 'right')}>"
            f"{html.escape(str(c))}</{tag}>" for k, c in enumerate(cells)) + "</tr>"
    return (f"<table class='{kind}' style='border-collapse:collapse;margin:4px 0'>"
            + row(head, "th") + "".join(row(r, "td") for r in rows) + "</table>")


def _class_heading(summary: dict[str, Any]) -> str:
    """``The class: 10 throws from 2 students``.

    >>> _class_heading({"throws": 4, "students": 1})
    'The class: 4 throws from 1 student'
    """
    n = summary["students"]
    return f"The class: {summary['throws']} throws from {n} student{'' if n == 1 else 's'}"


def _quote(text: str) -> str:
    import urllib.parse
    return urllib.parse.quote(text, safe="")


def experiment_page(experiment: str = "talus",
                    models: dict[str, Fraction | float] | None = None,
                    query: dict[str, str] | None = None) -> w.Widget:
    """The class experiment on the teacher's dashboard page (``teacher.ipynb?server=…&
    token=…``): the pooled counts beside the models, each student's tally, *Clear*.
    Opened without the two, it says how to open it.

    >>> experiment_page(query={}).value.startswith("<p>The class experiment")
    True
    """
    from .class_link import query as page_query
    params = page_query() if query is None else query
    if "server" not in params or "token" not in params:
        return w.HTML("<p>The class experiment (roman-dice's throws, pooled) shows here "
                      "when this page is opened as <code>teacher.ipynb?server=…&amp;"
                      "token=…</code>.</p>")
    panel = TeacherExperiment(params["server"], params["token"], experiment,
                              ROMAN_DICE_MODELS if models is None else models)
    from ..widgets.dashboard import lessons_of_the_day
    day = lessons_of_the_day()
    if day and EXPERIMENT_LESSON not in day:
        # another lesson today: the panel is there, folded, not in the teacher's way
        return w.Accordion(children=[panel], selected_index=None, titles=(
            f"Class experiment: {DICE[experiment]} ({EXPERIMENT_LESSON}'s; not a lesson "
            "of today: open to see it)",))
    return panel


#: The lesson whose class experiment the dashboard shows.
EXPERIMENT_LESSON = "roman-dice"


# the models the roman-dice lesson compares (the share landing on a narrow side)
ROMAN_DICE_MODELS = {"equal chances (our model)": Fraction(1, 2),
                     "1 : 4 : 4 : 1 (Winkelman 2001)": Fraction(2, 10)}

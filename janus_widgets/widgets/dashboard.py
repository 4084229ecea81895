"""The teacher's dashboard: every table of the class live, and what a lesson needs.

``classroom.dashboard(url, token)`` (or ``notebooks/teacher.ipynb``, in Voila or
JupyterLab) shows:

* **Tables**: every table at a glance, named by its id as ``create_table`` returned it
  (game, ruleset, status — a game at its end *finished* —, whose turn, moves, scores,
  who plays each seat and which seats are connected), kept up to date as the server
  sends news; open any table as every seat sees it (no hidden card, no seed: the screen
  may be projected) and, once the teacher confirms *Show secrets…*, in the teacher's
  view (the usual widget, replay and all, following the game live); pause or resume
  it, end it (once the teacher confirms: an ended table cannot go on), give it new join
  codes;
* **New tables**: tables for the whole class in one go (a game and one of its rulesets,
  the rulebook unless chosen otherwise, the students split into tables of k seats, bots
  filling the empty seats), with **join slips** to print (one per student: table, seat,
  code, a QR code and the short address of the table server's seat page,
  ``<server>/seat?code=CODE``, and the page to open to type the code instead);
* **Lesson codes**: a class list for a lesson chosen from those the class's pages serve
  (the lessons of the day first, the first of them chosen: :func:`lessons_of_the_day`;
  one code per student, as many as the classroom's ``--students``:
  :func:`class_size_of_the_day`) and its slips;
* **Answers**: the class's exercise checks tallied per question, each as its lesson
  shows it (number and title, in the lesson's order; its id in the tooltip), live
  (tried, right, checks, the commonest kinds of mistake with how many students made
  each and an example, whatever each student's own numbers) and a plot in whole
  students; every check per student to download as a CSV file (:func:`answers_csv`);
* **every full record** in one zip file: its button makes the file, the link beside
  it saves it.

When its table server goes away the dashboard says so at once, and again when it is
back; in Voila, a page whose kernel has gone says so by itself (:mod:`.alive`).

Downloads are links holding their file (``data:`` addresses): nothing is written where a
web server could serve it. Each looks like a button and says so, "⬇ Download …"
(:func:`_download`). What students send (a question's name, a mistake) is shown as
text, never as markup or math: escaped, kept from MathJax, and cut to a sane length
(:func:`shown`); the plot draws it literally, and a plot that cannot be drawn leaves a
short note, never a dashboard that stops refreshing.
"""

from __future__ import annotations

import base64
import csv
import functools
import html
import io
import json
import math
import os
import re
import socket
import time
import unicodedata
import zipfile
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import ipywidgets as W

from .. import games as game_registry
from ..analysis.checking import mistake_kind
from ..core.bots import bot_names
from ..table.client import ClassroomError, TeacherClient, TeacherWatch
from ..table.local import Table, kernel_loop
from . import alive
from .alive import STALE_AFTER

__all__ = ["Dashboard", "TablesNotAllMade", "join_slips", "tally", "split_class", "shown"]

#: The most characters of a student-sent text the dashboard shows (the rest: "…").
SHOWN_CHARS = 80
#: The most characters of a cut text's tooltip.
TOOLTIP_CHARS = 500
#: Seconds between two refreshes of the Answers tab while checks arrive.
ANSWERS_EVERY = 1.0
#: The most characters of a question's label on the plot.
PLOT_LABEL_CHARS = 40
#: The width of the labels of the forms (New tables, Lesson codes): "empty seats" whole.
FORM_LABEL_WIDTH = "7.5em"
#: The width of a form's box, its label included.
FORM_WIDTH = "22em"


def _cut(text: object, limit: int) -> str:
    """``text`` as a string of at most ``limit`` characters (cut ones end in "…")."""
    s = str(text)
    return s if len(s) <= limit else s[:max(limit - 1, 0)] + "\u2026"


def shown(text: object, limit: int = SHOWN_CHARS) -> str:
    """Text a student sent, as HTML that shows it literally: escaped, kept from math
    typesetting (``$x$`` stays ``$x$``), its direction isolated (``dir='auto'``: a
    right-to-left mark cannot turn the text around it), cut to ``limit`` characters with
    an ellipsis (the tooltip then holds more of it, up to :data:`TOOLTIP_CHARS`).

    >>> shown("<b>$x$</b>")
    "<span class='tex2jax_ignore mathjax_ignore' dir='auto'>&lt;b&gt;$x$&lt;/b&gt;</span>"
    >>> shown("abcdef", limit=4)
    "<span class='tex2jax_ignore mathjax_ignore' dir='auto' title='abcdef'>abc…</span>"
    """
    full = str(text)
    cut = _cut(full, limit)
    title = "" if cut == full else \
        f" title='{html.escape(_cut(full, TOOLTIP_CHARS), quote=True)}'"
    return (f"<span class='tex2jax_ignore mathjax_ignore' dir='auto'{title}>"
            f"{html.escape(cut)}</span>")


class TablesNotAllMade(ClassroomError):
    """Some of the class's tables were made, then the server refused one: ``made`` lists
    the ids of those made (their codes and slips are kept); the cause is the server's
    error."""

    def __init__(self, text: str, made: list[str]) -> None:
        super().__init__(text, "tables_not_all_made")
        self.made = made


def split_class(students: int, seats: int) -> list[int]:
    """How many people sit at each table when ``students`` are split into tables of
    ``seats``: as even as can be, every table with at least one person (bots fill the
    rest).

    >>> split_class(10, 3), split_class(9, 3), split_class(2, 4)
    ([3, 3, 2, 2], [3, 3, 3], [2])
    """
    if students < 1 or seats < 1:
        raise ValueError("a class has at least one student and a table at least one seat")
    tables = math.ceil(students / seats)
    base, extra = divmod(students, tables)
    return [base + (k < extra) for k in range(tables)]


def seat_address(server: str, code: str = "") -> str:
    """The short address a student types to reach their seat: the table server's own
    seat page, ``<server>/seat?code=CODE`` (a join code is letters and digits: nothing to
    encode); without a code, the page that asks for one.

    >>> seat_address("http://192.168.1.10:8866/", "KM4TPXRA3C")
    'http://192.168.1.10:8866/seat?code=KM4TPXRA3C'
    >>> seat_address("http://192.168.1.10:8866")
    'http://192.168.1.10:8866/seat'
    """
    base = f"{server.rstrip('/')}/seat"
    return f"{base}?code={quote(code, safe='')}" if code else base


_LOOPBACK = ("127.0.0.1", "localhost", "::1", "0.0.0.0", "::", "")


def _lan_host() -> str:
    """This machine's address on the class's network (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
    except OSError:
        return ""


def _answers(host: str, port: int, timeout: float = 0.5) -> bool:
    """Whether something listens at ``host:port``."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def students_address(server: str, pages: str = "") -> str:
    """The table server's address as the students' devices reach it (a slip's short
    address): the address the dashboard uses, unless that is this machine's own
    (``127.0.0.1``), which no student's device can open; then the pages' host (the
    ``classroom`` command serves both from one machine) with the server's port, or this
    machine's address on the network if the server answers there; else (a server that
    listens on this machine only) the address as it is, for only this machine can join.

    >>> students_address("http://192.168.1.10:8866")
    'http://192.168.1.10:8866'
    >>> students_address("http://127.0.0.1:8866", "http://192.168.1.10:8867")
    'http://192.168.1.10:8866'
    """
    parts = urlsplit(server)
    if (parts.hostname or "") not in _LOOPBACK:
        return server.rstrip("/")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    pages_host = (urlsplit(pages).hostname or "") if pages else ""
    if pages_host not in _LOOPBACK:
        host = pages_host
    else:
        host = _lan_host()
        if host in _LOOPBACK or not _answers(host, port):
            return server.rstrip("/")
    shown = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{shown}:{port}"


def qr_svg(text: str, scale: int = 3) -> str:
    """``text`` as a QR code, an inline SVG (segno; error correction M or better, so a
    creased slip still scans)."""
    import segno
    return segno.make(text, error="m", micro=False).svg_inline(scale=scale)


def join_slips(rows: list[dict[str, str]], *, title: str = "Join slips",
               paper: str = "A4") -> str:
    """An HTML page to print: one slip per row, cut along the dashed lines. A row holds
    ``where`` (table and seat, or lesson and student), ``code``, ``address`` (what the
    QR code holds and a student may type) and ``fallback`` (what to do without the
    address: which page to open, and what to type there), or ``address`` empty and
    ``fallback`` alone.

    >>> page = join_slips([{"where": "table t1 · seat A", "code": "K7MTPX",
    ...                     "address": "http://h:8866/seat?code=K7MTPX",
    ...                     "fallback": "Or open http://h:8866/seat and type K7MTPX."}])
    >>> "K7MTPX" in page and "@page" in page and "<svg" in page
    True
    """
    size = "A4" if paper.upper() == "A4" else "letter"
    slips = []
    for r in rows:
        address = r.get("address", "")
        how = ("<div class='how'>Scan the square with a phone or tablet, or type this "
               f"address:</div><div class='address'>{html.escape(address)}</div>"
               if address else "")
        fallback = r.get("fallback", "")
        slips.append(
            "<div class='slip'>"
            + (f"<div class='qr'>{qr_svg(address)}</div>" if address else "")
            + f"<div class='text'><div class='where' dir='auto'>{html.escape(r['where'])}"
            f"</div><div class='code'>{html.escape(r['code'])}</div>{how}"
            + (f"<div class='how'>{html.escape(fallback)}</div>" if fallback else "")
            + "</div></div>")
    return f"""<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{html.escape(title)}</title>
<style>@page {{ size: {size}; margin: 12mm; }}
body {{ font-family: sans-serif; margin: 0; }}
h1 {{ font-size: 14pt; }}
.slip {{ border: 1px dashed #555; padding: 4mm; margin: 0 0 3mm 0; break-inside: avoid;
         display: flex; gap: 5mm; align-items: center; }}
.qr svg {{ display: block; }}
.where {{ font-size: 13pt; }} .code {{ font: bold 26pt monospace; letter-spacing: 3pt; }}
.how {{ font-size: 10pt; color: #222; margin-top: 1mm; }}
.address {{ font: bold 12pt monospace; word-break: break-all; }}
</style></head><body><h1>{html.escape(title)}</h1>{"".join(slips)}</body></html>"""


def shown_status(summary: dict[str, Any]) -> str:
    """A table's status as the Tables tab says it: a game at its end is ``finished``
    (the server keeps such a table ``playing``: nothing stops it, there is just no move
    left), an ended one ``ended``, else ``playing`` or ``paused``.

    >>> shown_status({"status": "playing", "turn": "over"}), shown_status(
    ...     {"status": "paused", "turn": "A"}), shown_status({"status": "ended", "turn": "over"})
    ('finished', 'paused', 'ended')
    """
    status = str(summary.get("status", ""))
    if summary.get("turn") == "over" and status != "ended":
        return "finished"
    return status


def shown_turn(summary: dict[str, Any]) -> str:
    """Who is to move, as the Tables tab says it: nobody at a table the teacher ended
    (it said "B" there), and whoever is to move when a paused one resumes.

    >>> shown_turn({"status": "ended", "turn": "B"}), shown_turn(
    ...     {"status": "paused", "turn": "B"}), shown_turn({"status": "playing",
    ...     "turn": "over", "outcome": "A wins"})
    ('nobody: ended', 'B, once resumed', 'over: A wins')
    """
    turn = str(summary.get("turn", ""))
    if turn == "over":
        return "over: " + str(summary.get("outcome", ""))
    status = summary.get("status")
    if status == "ended":
        return "nobody: ended"
    if status == "paused":
        return f"{turn}, once resumed"
    return turn


def in_voila() -> bool:
    """Whether this kernel runs a Voila page (Voila tells its kernels so, as a web
    server tells a CGI script: ``SERVER_SOFTWARE=voila/…``)."""
    import os
    return os.environ.get("SERVER_SOFTWARE", "").startswith("voila/")


#: What the dashboard's page says when its kernel is gone (see :mod:`.alive`).
STALE_WARNING = (
    f"<b>&#9888; This page has lost its kernel</b> (no sign of life for "
    f"{STALE_AFTER:g} s): nothing on it is live now. If the classroom was stopped or "
    "restarted, reload the page (F5), or open the dashboard again from the "
    "<code>.dashboard.html</code> file beside the database. If the page was only busy, "
    "this goes away by itself.")


def _answer_kind(row: dict[str, Any]) -> tuple[str, ...]:
    """What makes two of a class's checks one row of the tally (as the server counts)."""
    return tuple(str(row.get(k, "")) for k in ("lesson", "question", "student", "verdict",
                                               "mistake"))


def add_check(answers: list[dict[str, Any]], row: dict[str, Any]) -> None:
    """Add a check the server sent to ``answers``: a new row, or the new count of a row's
    ``tries`` (the same student, question, verdict and mistake sent again).

    >>> rows = []
    >>> for tries in (1, 2):
    ...     add_check(rows, {"lesson": "l", "question": "q1", "student": "a",
    ...                      "verdict": "wrong", "mistake": "m", "tries": tries})
    >>> len(rows), rows[0]["tries"]
    (1, 2)
    """
    kind = _answer_kind(row)
    for kept in answers:
        if _answer_kind(kept) == kind:
            kept["tries"] = max(int(kept.get("tries", 1)), int(row.get("tries", 1)))
            return
    answers.append(dict(row))


def tally(answers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The class's checks per question, in each lesson's order, each with its
    ``heading`` as the lesson shows it (:func:`question_heading`): how many students
    tried, how many got it right (at any try), how many checks were made, and the
    commonest mistakes with how many students made each. A row is one student's
    verdict and mistake; its ``tries`` (1 if absent) says how many such checks that
    student sent.

    Students have numbers of their own, so one mistake reads differently on each page
    ("7/36: … Of the 7 cards …", "1/10: … Of the 10 cards …"): mistakes are counted by
    their kind (:func:`~janus_widgets.analysis.checking.mistake_kind`), each as
    ``(an example, how many students made it)``, a student once however often; wrong
    answers that match no known mistake count as one kind, their example an answer
    given.

    >>> rows = tally([{"lesson": "l", "question": "q1", "student": "a", "verdict": "wrong",
    ...                "mistake": "forgot order"},
    ...               {"lesson": "l", "question": "q1", "student": "a", "verdict": "right",
    ...                "mistake": ""},
    ...               {"lesson": "l", "question": "q1", "student": "b", "verdict": "wrong",
    ...                "mistake": "forgot order", "tries": 3}])
    >>> rows[0]["tried"], rows[0]["right"], rows[0]["checks"], rows[0]["mistakes"]
    (2, 1, 5, [('forgot order', 2)])
    """
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for a in answers:
        groups[(a["lesson"], a["question"])].append(a)
    out = []
    for (lesson, question), rows in sorted(groups.items(), key=lambda item: (
            item[0][0], question_heading(*item[0])[0], item[0][1])):
        out.append({"lesson": lesson, "question": question,
                    "heading": question_heading(lesson, question)[1],
                    "tried": len({r["student"] for r in rows}),
                    "right": len({r["student"] for r in rows if r["verdict"] == "right"}),
                    "checks": sum(int(r.get("tries", 1)) for r in rows),
                    "mistakes": _commonest_mistakes(rows)})
    return out


#: Where a question its lesson does not have comes in the tally: after the lesson's own.
NOT_IN_THE_LESSON = 10**6


def question_heading(lesson: str, question: str) -> tuple[int, str]:
    """A question as its lesson's page shows it: its place in the lesson (0 for the
    first) and its heading, the exercise's title (its number and name), or its id
    where the page heads it so (``q1``); a question the lesson does not have (or a
    lesson the package does not have) comes after the lesson's own, by its id.

    >>> question_heading("what-can-i-know", "moon")
    (2, '3. The other side is a moon')
    >>> question_heading("jactus-odds", "q2")
    (1, 'q2')
    >>> question_heading("jactus-odds", "q99")[1], question_heading("no-lesson", "q1")[1]
    ('q99', 'q1')
    """
    from ..analysis.checking import LESSON_EXERCISES
    if lesson in LESSON_EXERCISES:               # never a cache of what students send
        found = _lesson_headings(lesson).get(question)
        if found is not None:
            return found
    return NOT_IN_THE_LESSON, question


@functools.lru_cache(maxsize=None)
def _lesson_headings(lesson: str) -> dict[str, tuple[int, str]]:
    """Every question of ``lesson`` (one of the package's): id → (place, heading)."""
    from ..analysis.checking import exercise_sets
    return {e.key: (place, e.title or e.key)
            for place, e in enumerate(exercise_sets()[lesson])}


#: How a wrong answer that matches no known mistake is shown in the tally (with the
#: answer after it).
UNKNOWN_MISTAKE = "no known mistake, e.g. "
#: How many kinds of mistake the tally lists per question.
MISTAKES_LISTED = 3


def _commonest_mistakes(rows: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """The kinds of mistake in one question's rows, commonest first (by students, then
    first made): ``(an example, how many students)`` each."""
    students: dict[str, set[str]] = {}
    examples: dict[str, Counter[str]] = {}
    for r in rows:
        if r["verdict"] != "wrong":
            continue
        mistake = str(r.get("mistake") or "")
        kind = mistake_kind(mistake) if mistake else ""
        students.setdefault(kind, set()).add(str(r["student"]))
        example = mistake or f"{UNKNOWN_MISTAKE}{r.get('answer', '')}"
        examples.setdefault(kind, Counter())[example] += 1
    order = sorted(students, key=lambda kind: -len(students[kind]))   # stable: first made
    return [(examples[kind].most_common(1)[0][0], len(students[kind]))
            for kind in order[:MISTAKES_LISTED]]


#: What makes a spreadsheet read a cell as a formula when the cell starts with it
#: (CSV or formula injection): a cell of the answers' CSV that does gets a ``'`` first.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: The columns of the answers' CSV (:func:`answers_csv`).
CSV_COLUMNS = ("student", "lesson", "question", "question id", "answer", "verdict",
               "mistake", "tries", "first sent")


def spreadsheet_safe(text: object) -> str:
    """``text`` for a cell of a CSV file a spreadsheet opens: text that a spreadsheet
    would run as a formula (it starts with one of :data:`FORMULA_STARTS`) gets a single
    quote in front, so it is shown as the text it is.

    >>> spreadsheet_safe("=HYPERLINK(A1)"), spreadsheet_safe("-1/2")
    ("'=HYPERLINK(A1)", "'-1/2")
    >>> spreadsheet_safe("1/2"), spreadsheet_safe("")
    ('1/2', '')

    Behind spaces or line breaks, and in their full-width forms, the same signs start a
    formula too (a spreadsheet may trim the cell, or read ＝ as =):

    >>> spreadsheet_safe(" =1+1"), spreadsheet_safe("\\n=1+1"), spreadsheet_safe("＝1+1")
    ("' =1+1", "'\\n=1+1", "'＝1+1")
    >>> [spreadsheet_safe(c + "=1") for c in ("\\u2002", "\\x0b", "\\u200b", "\\ufeff")]
    ["'\\u2002=1", "'\\x0b=1", "'\\u200b=1", "'\\ufeff=1"]
    """
    s = str(text)
    first = unicodedata.normalize("NFKC", s).lstrip().lstrip("\u200b\u200c\u200d\ufeff")[:1]
    return "'" + s if s.startswith(FORMULA_STARTS) or (first and first in "=+-@") else s


def answers_csv(answers: list[dict[str, Any]]) -> bytes:
    """Every check of the class as the server keeps them, a CSV file: one row per
    student, question, verdict and mistake (:data:`CSV_COLUMNS`; ``tries``: how many
    such checks the student sent; ``first sent``: when the first was, this machine's
    time), by student, then lesson, then question in the lesson's order; each question
    as its lesson shows it (:func:`question_heading`), its id beside. Every text is
    :func:`spreadsheet_safe`; UTF-8 with a byte order mark, so that a spreadsheet reads
    accents as they are.

    >>> text = answers_csv([{"lesson": "roman-dice", "question": "q2", "student":
    ...     "3b/ada", "answer": "=1+1", "verdict": "wrong", "mistake": "", "tries": 2,
    ...     "at": 0.0}]).decode("utf-8-sig")
    >>> text.splitlines()[1].split(",")[:6]
    ['3b/ada', 'roman-dice', 'q2', 'q2', "'=1+1", 'wrong']
    """
    def order(row: dict[str, Any]) -> tuple[Any, ...]:
        place, _ = question_heading(str(row["lesson"]), str(row["question"]))
        return (str(row["student"]), str(row["lesson"]), place, str(row["question"]),
                float(row.get("at") or 0))
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for row in sorted(answers, key=order):
        at = row.get("at")
        writer.writerow([spreadsheet_safe(v) for v in (
            row["student"], row["lesson"],
            question_heading(str(row["lesson"]), str(row["question"]))[1],
            row["question"], row.get("answer", ""), row["verdict"],
            row.get("mistake") or "")] + [
            int(row.get("tries", 1)),
            time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(at))) if at else ""])
    return out.getvalue().encode("utf-8-sig")


def served_lessons(pages_folder: str | Path | None = None) -> dict[str, str]:
    """The lessons the class's pages serve whose checks reach the Answers tab (file stem
    → title): those in the ``lessons/`` folder of the class's pages
    (``pages_folder``, by default the folder the dashboard runs in, which is the class's
    pages' own when Voila serves ``teacher.ipynb`` from there), else those the
    ``classroom`` command writes there (every lesson of the package's notebooks).
    Read as JSON (a lesson is a notebook with ``janus_widgets.lesson`` metadata), so
    the dashboard opens without loading the lesson tools.

    >>> "jactus-odds" in served_lessons()
    True
    """
    from ..analysis.checking import LESSON_EXERCISES
    from ..resources import notebooks_folder
    folder = Path(pages_folder if pages_folder is not None else Path.cwd()) / "lessons"
    found = _lesson_titles(folder) or _lesson_titles(notebooks_folder())
    return {stem: title for stem, title in found.items() if stem in LESSON_EXERCISES}


#: The environment variable the ``classroom`` command sets for its dashboard's Voila
#: (whose kernels inherit it): the lessons of the day it was given with ``--lesson``,
#: file stems separated by commas.
LESSONS_OF_THE_DAY = "JANUS_CLASSROOM_LESSONS"


def lessons_of_the_day(environ: dict[str, str] | None = None) -> list[str]:
    """The lessons the ``classroom`` command was started with (``--lesson``, in the
    order named), as it tells its dashboard (:data:`LESSONS_OF_THE_DAY`); none
    elsewhere.

    >>> lessons_of_the_day({LESSONS_OF_THE_DAY: "what-can-i-know, roman-dice"})
    ['what-can-i-know', 'roman-dice']
    >>> lessons_of_the_day({})
    []
    """
    raw = (os.environ if environ is None else environ).get(LESSONS_OF_THE_DAY, "")
    return [name.strip() for name in raw.split(",") if name.strip()]


#: The environment variable the ``classroom`` command sets for its dashboard's Voila: the
#: class size it was given (``--students``), the *Lesson codes* tab's number of students.
CLASS_SIZE = "JANUS_CLASSROOM_STUDENTS"
#: The *Lesson codes* tab's number of students where no ``classroom`` command said one,
#: and the most it takes.
DEFAULT_CLASS_SIZE = 24
MAX_CLASS_SIZE = 500


def class_size_of_the_day(environ: dict[str, str] | None = None) -> int:
    """The class size the ``classroom`` command was started with (``--students``), as
    it tells its dashboard (:data:`CLASS_SIZE`); :data:`DEFAULT_CLASS_SIZE` elsewhere,
    or for a value that is no class size.

    >>> class_size_of_the_day({CLASS_SIZE: "30"}), class_size_of_the_day({})
    (30, 24)
    >>> class_size_of_the_day({CLASS_SIZE: "0"}), class_size_of_the_day({CLASS_SIZE: "x"})
    (24, 24)
    """
    raw = (os.environ if environ is None else environ).get(CLASS_SIZE, "").strip()
    size = int(raw) if raw.isascii() and raw.isdigit() else 0
    return size if 1 <= size <= MAX_CLASS_SIZE else DEFAULT_CLASS_SIZE


def _lesson_titles(folder: Path) -> dict[str, str]:
    """Every lesson notebook in ``folder``: its file stem → its title (the first
    heading), in the order of the file names; notebooks that are no lesson (or cannot
    be read) are left out."""
    out = {}
    for path in sorted(folder.glob("*.ipynb")):
        try:
            nb = json.loads(path.read_text(encoding="utf-8"))
            meta = nb.get("metadata", {}).get("janus_widgets", {}).get("lesson")
        except (OSError, ValueError, AttributeError):
            continue
        if not isinstance(meta, dict):
            continue
        title = path.stem
        for cell in nb.get("cells", []):
            if cell.get("cell_type") == "markdown":
                source = cell.get("source", "")
                text = "".join(source) if isinstance(source, list) else str(source)
                heading = re.search(r"^#\s+(.+)$", text, re.MULTILINE)
                if heading:
                    title = heading.group(1).strip()
                    break
        out[path.stem] = title
    return out


#: How a download looks: a button (a link styled as one), never a bold heading.
DOWNLOAD_STYLE = ("display:inline-block;padding:3px 12px;margin:4px 0;border:1px solid "
                  "#1565c0;border-radius:4px;background:#e3f2fd;color:#0d47a1;"
                  "text-decoration:none;font-weight:bold")


#: Beside the records' button before it was clicked.
RECORDS_NOT_MADE = ("<small>&nbsp;makes the zip, then a &#11015; Download link here saves "
                    "it</small>")


def _download(label: str, name: str, data: bytes, mime: str) -> str:
    """A link that saves ``data`` as the file ``name``, looking like a button and
    saying so: "⬇ ``label``" (a label that says *Download*), the file's name in its
    tooltip.

    >>> link = _download("Download x.csv", "x.csv", b"a,b", "text/csv")
    >>> link.startswith("<a class='janus-download' download='x.csv'")
    True
    >>> link.endswith("&#11015; Download x.csv</a>")
    True
    """
    encoded = base64.b64encode(data).decode()
    return (f"<a class='janus-download' download='{html.escape(name)}' "
            f"href='data:{mime};base64,{encoded}' title='Save {html.escape(name)}' "
            f"style='{DOWNLOAD_STYLE}'>&#11015; {html.escape(label)}</a>")


class Dashboard(W.VBox):
    """Every table live, and the class's answers: see the module's docstring."""

    def __init__(self, url: str, token: str, *, pages: str | None = None,
                 seats_server: str | None = None,
                 lessons: dict[str, str] | None = None, today: list[str] | None = None,
                 students: int | None = None, heartbeat: bool | None = None,
                 **kwargs: Any) -> None:
        """``seats_server``: the table server's address as the students' devices reach
        it, for the slips' short addresses (default :func:`students_address`).
        ``lessons``: the lessons the class's pages serve, file stem → title (default
        :func:`served_lessons`). ``today``: the lessons of the day, first in the
        *Lesson codes* menu, the first of them chosen (default
        :func:`lessons_of_the_day`). ``students``: the class size, the *Lesson codes*
        tab's number of students (default :func:`class_size_of_the_day`). ``heartbeat``: send the page signs of life, so that it
        says so when its kernel is gone (:class:`.alive.Heartbeat`; default: in Voila, whose page
        has no kernel indicator of its own, unlike JupyterLab's)."""
        super().__init__()
        served = dict(served_lessons() if lessons is None else lessons)
        #: The lessons of the day the class's pages serve, in the order named.
        self.today = [stem for stem in dict.fromkeys(
            lessons_of_the_day() if today is None else today) if stem in served]
        self.lessons = {**{stem: served[stem] for stem in self.today}, **served}
        #: How many students the *Lesson codes* tab makes codes for, unless changed there.
        self.students = class_size_of_the_day() if students is None else students
        self.client = TeacherClient(url, token, **kwargs)
        info = self.client.info()
        self.pages = pages if pages is not None else info.get("pages", "")
        # The address a seat page's kernel uses for the server (the same machine runs
        # both when the classroom command started them).
        #: Where the table server sends a lesson slip's short address ("": nowhere)
        self.server_pages = info.get("pages", "")
        # The address the students' own devices open (the slips' short addresses).
        self.seats_server = seats_server or students_address(self.client.url, self.pages)
        self.watch = TeacherWatch(url, token, **kwargs)
        self.codes: dict[str, dict[str, str]] = {}       # table → its codes (this session)
        self.answers: list[dict[str, Any]] = self.client.answers()
        self.opened: tuple[str, Table] | None = None
        self.public_view: W.HTML | None = None          # the opened table, secrets hidden
        self.lost_at: float | None = None               # when the server was lost
        self.back_at: float | None = None               # when it came back
        self.away = 0.0                                 # how long it was away, seconds
        self.refused = ""                               # why a server refused the token
        self._pending: set[Callable[[], None]] = set()   # refreshes waiting on the loop
        self.updates = 0                                  # overview refreshes so far
        self._build()
        self.watch.on(self._on_news)
        self._refresh_overview()
        self._refresh_answers()
        self.heartbeat: alive.Heartbeat | None = None
        if in_voila() if heartbeat is None else heartbeat:
            self.heartbeat = alive.Heartbeat(STALE_WARNING, "janus-dashboard-stale",
                                             kernel_loop(), widget=self.alive)

    # ------------------------------------------------------------------ building
    def _build(self) -> None:
        self.heading = W.HTML(f"<h3 style='margin:0'>Classroom — {html.escape(self.client.url)}"
                              "</h3>")
        self.message = W.HTML()
        self.overview = W.HTML()
        self.overview.add_class("janus-dashboard-tables")
        self.table_menu = W.Dropdown(description="table", options=[],
                                     layout=W.Layout(width="260px"))
        self.open_button = W.Button(description="Open", icon="eye",
                                    tooltip="Show the table as every seat sees it, "
                                            "following the game live; its secrets (every "
                                            "card, the seed) only when you ask")
        self.pause_button = W.Button(description="Pause", icon="pause")
        self.resume_button = W.Button(description="Resume", icon="play")
        self.end_button = W.Button(description="End", icon="stop", button_style="danger")
        self.codes_button = W.Button(description="New codes", icon="key",
                                     tooltip="New join codes for this table's seats (the "
                                             "old ones stop working; joined pages stay)")
        self.end_question = W.HBox()          # End asks first: "Yes, end t1" or not
        for button, act in ((self.open_button, self.open_table),
                            (self.pause_button, lambda t: self._status(t, "pause")),
                            (self.resume_button, lambda t: self._status(t, "resume")),
                            (self.end_button, self.ask_end),
                            (self.codes_button, self.new_codes)):
            button.layout.width = "auto"
            button.on_click(self._guard(lambda _, act=act: act(self._chosen())))
        # A question about another table than the one chosen now would be a stale one.
        self.table_menu.observe(lambda _: self._forget_end_question(), names="value")
        self.opened_box = W.VBox()
        self.records_link = W.HTML(RECORDS_NOT_MADE)
        self.records_button = W.Button(description="Every full record (zip)",
                                       icon="archive",
                                       tooltip="Put every table's full record in one zip "
                                               "file, then save it with the link beside",
                                       layout=W.Layout(width="auto"))
        self.records_button.on_click(self._guard(lambda _: self.download_records()))
        tables_tab = W.VBox([self.overview,
                             W.HBox([self.table_menu, self.open_button, self.pause_button,
                                     self.resume_button, self.end_button,
                                     self.codes_button],
                                    layout=W.Layout(flex_flow="row wrap")),
                             self.end_question,
                             W.HBox([self.records_button, self.records_link]),
                             self.opened_box])

        names = game_registry.names()
        form = {"style": {"description_width": FORM_LABEL_WIDTH},
                "layout": W.Layout(width=FORM_WIDTH)}
        self.game_box = W.Dropdown(options=names, value="janus-cards", description="game",
                                   **form)
        self.ruleset_box = W.Dropdown(description="ruleset", **form)
        self.seats_box = W.BoundedIntText(value=3, min=2, max=6, description="seats",
                                          **form)
        self.students_box = W.BoundedIntText(value=12, min=1, max=500,
                                             description="students", **form)
        self.bot_box = W.Dropdown(description="empty seats", **form)
        self.solver_box = W.Checkbox(value=False, indent=False,
                                     description="allow the solver's hint (2-player Jactus)",
                                     layout=W.Layout(width="auto"))
        self.create_button = W.Button(description="Make the tables", icon="plus",
                                      button_style="primary", layout=W.Layout(width="auto"))
        self.slips_link = W.HTML()
        self.game_box.observe(lambda _: self._game_chosen(), names="value")
        self.seats_box.observe(lambda _: self._solver_applies(), names="value")
        self.create_button.on_click(self._guard(lambda _: self.create_tables(
            self.game_box.value, self.seats_box.value, self.students_box.value,
            bot=self.bot_box.value, ruleset=self.ruleset_box.value,
            solver=self.solver_box.value and not self.solver_box.disabled)))
        self._game_chosen()
        new_tab = W.VBox([self.game_box, self.ruleset_box, self.seats_box,
                          self.students_box, self.bot_box, self.solver_box,
                          self.create_button,
                          self.slips_link])

        self.lesson_box = W.Dropdown(options=[
            (f"{'today: ' if stem in self.today else ''}{title} ({stem})", stem)
            for stem, title in self.lessons.items()], description="lesson",
            style=form["style"], layout=W.Layout(width="34em"))
        self.class_box = W.Text(value="", description="class", placeholder="e.g. 3b",
                                **form)
        self.class_size = W.BoundedIntText(value=self.students, min=1, max=MAX_CLASS_SIZE,
                                           description="students", **form)
        self.class_button = W.Button(description="Make the codes", icon="key",
                                     layout=W.Layout(width="auto"))
        self.class_link = W.HTML()
        self.class_button.on_click(self._guard(lambda _: self.create_class(
            self.class_box.value, self.class_size.value, self.lesson_box.value)))
        lesson_tab = W.VBox([self.lesson_box, self.class_box, self.class_size,
                             self.class_button, self.class_link])

        self.answers_html = W.HTML()
        self.answers_html.add_class("janus-dashboard-answers")
        self.answers_plot = W.Image(format="png", layout=W.Layout(max_width="720px"))
        self.plot_note = W.HTML()
        self.answers_csv_link = W.HTML()     # every check, per student: a CSV to save
        answers_tab = W.VBox([self.answers_csv_link, self.answers_html, self.plot_note,
                              self.answers_plot])

        self.tabs = W.Tab(children=[tables_tab, new_tab, lesson_tab, answers_tab],
                          titles=["Tables", "New tables", "Lesson codes", "Answers"])
        self.link = W.HTML()                               # the link to the server
        self.link.add_class("janus-dashboard-link")
        self.alive = W.HTML()                              # the page's link to its kernel
        self.alive.add_class("janus-dashboard-alive")
        self.children = [self.heading, self.link, self.alive, self.message, self.tabs]
        self.add_class("janus-dashboard")

    def _guard(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any) -> Any:
            try:
                return fn(*args)
            except (ClassroomError, ValueError) as exc:
                self.say(str(exc), error=True)
        return run

    def say(self, text: str, error: bool = False) -> None:
        """The dashboard's own message line (what the last action did)."""
        colour = "#b00020" if error else "#333333"
        self.message.value = (f"<div style='color:{colour}'>{html.escape(text)}</div>")

    def _chosen(self) -> str:
        if not self.table_menu.value:
            raise ValueError("choose a table first (make some under New tables)")
        return self.table_menu.value

    def _game_chosen(self) -> None:
        game = game_registry.get(self.game_box.value)
        self.ruleset_box.options = [(f"{r.name} (the rulebook)" if r.name == "rulebook"
                                     else r.name, r.name) for r in game.rulesets()]
        self.ruleset_box.value = game.ruleset("rulebook").name
        spec = {s.name: s for s in game.Variant.options()}["players"]
        self.seats_box.min, self.seats_box.max = int(spec.minimum or 2), int(spec.maximum or 6)
        self.seats_box.value = min(max(self.seats_box.value, self.seats_box.min),
                                   self.seats_box.max)
        self.bot_box.options = bot_names(game)
        self.bot_box.value = "greedy"
        self._solver_applies()

    def _solver_applies(self) -> None:
        """The solver's checkbox applies to 2-player Jactus only (off, greyed, elsewhere):
        off by default, a class game's solver is the teacher's to allow."""
        applies = self.game_box.value == "jactus" and self.seats_box.value == 2
        self.solver_box.disabled = not applies
        if not applies:
            self.solver_box.value = False

    # ------------------------------------------------------------------ news
    def _on_news(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "connection" and not msg.get("connected", False):
            if self.lost_at is None:
                self.lost_at, self.back_at = time.time(), None
            self._link_line()                      # at once, not with the next refresh
        elif kind == "error" and msg.get("code") in ("bad_credential", "no_credential"):
            self.refused = str(msg.get("error", "refused"))    # a server with a new token
            self._link_line()
        elif kind == "welcome" and self.lost_at is not None:
            self.away = time.time() - self.lost_at
            self.lost_at, self.back_at, self.refused = None, time.time(), ""
            self._link_line()
            self._soon(self._reload_answers)       # what came while it was away
        if kind in ("table", "welcome", "connection"):
            self._soon(self._refresh_overview)
        elif kind == "moves" and self.opened is not None and msg["table"] == self.opened[0]:
            self._follow(msg)
        elif kind == "answer":
            add_check(self.answers, msg["answer"])
            # The tally and its plot (a picture: about 0.2 s) at most once a second,
            # however many checks arrive: a class, or one student flooding, costs the
            # teacher's kernel a bounded share.
            self._soon(self._refresh_answers, ANSWERS_EVERY)



    def _soon(self, fn: Callable[[], None], delay: float = 0.1) -> None:
        """Run the refresh ``fn`` in ``delay`` seconds, once however often it is asked
        for meanwhile (eight tables of bots send many summaries; a class checks its
        answers at once); each refresh waits on its own, so one never swallows
        another."""
        loop = kernel_loop()
        if loop is None:
            fn()
            return
        if fn in self._pending:
            return
        self._pending.add(fn)

        def run() -> None:
            self._pending.discard(fn)
            fn()
        loop.call_later(delay, run)

    def _link_line(self) -> None:
        """Say whether the dashboard has its table server: nothing while it has had it
        all along; when it lost it, since when, that it tries again and that the tables
        shown are from before; when it came back, when and after how long."""
        url = html.escape(self.client.url)
        if self.lost_at is not None or not self.watch.connected:
            since = time.strftime("%H:%M:%S", time.localtime(self.lost_at or time.time()))
            self.link.value = (
                "<div role='alert' style='background:#fde7e9;color:#8a1020;border:2px solid"
                " #b00020;padding:6px 10px;margin:4px 0'><b>&#9888; Lost the table server"
                f"</b> ({url}) at {since}: reconnecting&#8230; Nothing below is live: the "
                "tables, seats and moves are as they were then. "
                + (f"The server is back but refuses your token ({html.escape(self.refused)}"
                   "): it was started with another one. Open the dashboard again with the "
                   "new token (the classroom command's .dashboard.html page)."
                   if self.refused else "(If the server was stopped, start it again; this "
                   "page comes back by itself.)") + "</div>")
        elif self.back_at is not None:
            back = time.strftime("%H:%M:%S", time.localtime(self.back_at))
            self.link.value = (
                "<div role='status' style='background:#e6f4ea;color:#14532d;border:1px "
                f"solid #2e7d32;padding:4px 10px;margin:4px 0'>&#10004; Reconnected to the "
                f"table server ({url}) at {back}, after {self.away:.0f} s away: the tables "
                "are live again.</div>")
        else:
            self.link.value = ""

    def _reload_answers(self) -> None:
        """The class's answers as the server has them (after the link was away)."""
        try:
            self.answers = self.client.answers()
        except ClassroomError:
            return                                 # the next answer's news adds on
        self._refresh_answers()

    def _refresh_overview(self) -> None:
        live = self.watch.connected
        self._link_line()
        tables = list(self.watch.tables.values()) or (self.client.tables() if live else [])
        self.updates += 1
        rows = []
        for t in tables:
            seats = " ".join(
                f"<span title='{html.escape(s['who'])}'>{html.escape(s['seat'])}"
                + (f" bot: {html.escape(s['who'])}" if s["who"] != "human" else
                   ("&#9679;" if s["connected"] else "&#9675;") if live else "?")
                + "</span>" for s in t["seats"])
            scores = " · ".join(f"{html.escape(s['seat'])} {v:g}"
                                for s, v in zip(t["seats"], t["scores"]))
            turn = html.escape(shown_turn(t))
            cells = [f"<b>{html.escape(t['id'])}</b>", html.escape(t["title"]),
                     html.escape(t["ruleset"]),
                     html.escape(shown_status(t)) + (
                         f"<br><small>{html.escape(t['note'])}</small>"
                         if t.get("note") else ""), turn,
                     html.escape(str(t["moves"])), scores, seats]
            rows.append(f"<tr data-table='{html.escape(t['id'])}' "
                        f"data-moves='{html.escape(str(t['moves']))}'>"
                        + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
        when = (f"live, {time.strftime('%H:%M:%S')}" if live else
                "NOT LIVE: the table server is away (? = not known now); as they were at "
                + time.strftime("%H:%M:%S", time.localtime(self.lost_at or time.time())))
        self.overview.value = (
            f"<table style='border-collapse:collapse;font-family:sans-serif"
            f"{'' if live else ';opacity:0.55'}' border=1 "
            "cellpadding=4><tr><th>table</th><th>game</th><th>ruleset</th><th>status</th>"
            "<th>to move</th><th>moves</th><th>scores</th><th>seats (&#9679; connected, "
            "&#9675; not)</th></tr>" + "".join(rows) + f"</table><small>{len(tables)} "
            f"table(s), {when}</small>")
        ids = [t["id"] for t in tables]
        if list(self.table_menu.options) != ids:
            keep = self.table_menu.value
            self.table_menu.options = ids
            # the table chosen before, else the first (a menu left blank chose nothing)
            self.table_menu.value = keep if keep in ids else (ids[0] if ids else None)

    # ------------------------------------------------------------------ a table
    def open_table(self, table_id: str, *, secrets: bool = False) -> Any:
        """Show a table, following it live; its moves are played from the seats' pages.

        At first it shows only what every seat sees (the public view: no hidden card, no
        seed), for the screen may be projected; *Show secrets* asks first, then shows
        the teacher's view (``secrets=True`` at once): step back through the game and
        see every seat's cards and the seed. Returns the teacher's view's widget, or
        None while the secrets are hidden."""
        record = self.client.record(table_id)
        table = Table(record.game, record=record, bot_delay=0)
        table.hold("this is the class's table: it is played from the seats' pages")
        self.opened = (table_id, table)
        self.watch.watch(table_id)
        if secrets:
            return self._show_secrets()
        self._hide_secrets()
        self.say(f"Table {table_id} is open as every seat sees it (no hidden card, no "
                 "seed): Show secrets for the teacher's view.")
        return None

    def _opened_heading(self, what: str) -> W.HTML:
        table_id, table = self.opened  # type: ignore[misc]
        return W.HTML(f"<b>Table {html.escape(table_id)}</b>, "
                      f"{html.escape(table.game.title)}: {what}")

    def _hide_secrets(self) -> None:
        """The opened table as every seat sees it, with the button that asks for more."""
        _, table = self.opened  # type: ignore[misc]
        self.public_view = W.HTML(_public_picture(table))
        self.public_view.add_class("janus-dashboard-public")
        ask = W.Button(description="Show secrets…", icon="unlock",
                       tooltip="The teacher's view: every card and the seed",
                       layout=W.Layout(width="auto"))
        ask.on_click(self._guard(lambda _: self._ask_secrets()))
        self.secrets_question = W.HBox()
        self.opened_box.children = [
            self._opened_heading("as every seat sees it (no hidden card, no seed)"),
            self.public_view, W.HBox([ask]), self.secrets_question]

    def _ask_secrets(self) -> None:
        """The confirmation before any secret is shown."""
        yes = W.Button(description="Yes, show them", icon="eye", button_style="warning",
                       layout=W.Layout(width="auto"))
        no = W.Button(description="Cancel", layout=W.Layout(width="auto"))
        yes.on_click(self._guard(lambda _: self._show_secrets()))
        no.on_click(lambda _: setattr(self.secrets_question, "children", ()))
        self.secrets_question.children = [
            W.HTML("<b>Show every card and the seed?</b> The screen may be projected or "
                   "shared: anyone who sees it sees them too.&nbsp;"), yes, no]

    def _show_secrets(self) -> Any:
        """The opened table in the teacher's view (every card, the seed)."""
        from .shell import GameWidget
        table_id, table = self.opened  # type: ignore[misc]
        widget = GameWidget(table, viewpoint=None)
        hide = W.Button(description="Hide secrets", icon="lock",
                        layout=W.Layout(width="auto"))
        hide.on_click(self._guard(lambda _: self._hide_secrets()))
        self.public_view = None
        self.opened_box.children = [
            self._opened_heading("the teacher's view (every card, the seed)"), W.HBox([hide]),
            widget]
        self.say(f"Table {table_id} is open in the teacher's view: every card and the "
                 "seed are on the screen.")
        return widget

    def _follow(self, msg: dict[str, Any]) -> None:
        table_id, table = self.opened  # type: ignore[misc]
        have = len(table.replay.lines[0])
        new = [(m["move"], m["by"]) for m in msg["moves"] if m["ply"] >= have]
        if msg["from"] > have:                   # missed some: read the record again
            self.open_table(table_id, secrets=self.public_view is None)
        elif new:
            table.extend(new)
            if self.public_view is not None:
                self.public_view.value = _public_picture(table)

    def _status(self, table_id: str, action: str) -> None:
        getattr(self.client, action)(table_id)
        self.say({"pause": f"Table {table_id} is paused: its seats cannot move.",
                  "resume": f"Table {table_id} plays on.",
                  "end": f"Table {table_id} has ended: its join codes no longer work "
                         "and it cannot go on; its record stays."}[action])

    def ask_end(self, table_id: str) -> None:
        """What *End* does: ask first, for an ended table cannot go on. Only *Yes, end
        …* ends it (:meth:`end_table`); *Keep playing*, or choosing another table in
        the menu, takes the question away and ends nothing."""
        name = html.escape(table_id)
        yes = W.Button(description=f"Yes, end {table_id}", icon="stop",
                       button_style="danger", layout=W.Layout(width="auto"))
        keep = W.Button(description="Keep playing", icon="play",
                        layout=W.Layout(width="auto"))
        yes.on_click(self._guard(lambda _: self.end_table(table_id)))
        keep.on_click(lambda _: self._keep_playing(table_id))
        self.end_question.children = [
            W.HTML(f"<b>End {name}?</b> Its join codes stop working and it cannot go on;"
                   " its record stays.&nbsp;"), yes, keep]

    def end_table(self, table_id: str) -> None:
        """End a table at once (the *Yes* of :meth:`ask_end`): its join codes stop
        working, its record stays."""
        self._forget_end_question()
        self._status(table_id, "end")

    def _keep_playing(self, table_id: str) -> None:
        self._forget_end_question()
        self.say(f"Table {table_id} was not ended.")

    def _forget_end_question(self) -> None:
        self.end_question.children = ()

    def new_codes(self, table_id: str) -> dict[str, str]:
        """New join codes for a table (and its slips)."""
        codes = self.client.new_codes(table_id)
        self.codes[table_id] = codes
        self._show_slips({table_id: codes}, self.slips_link, "join-slips-" + table_id)
        self.tabs.selected_index = 1
        self.say(f"New codes for table {table_id}: the slips are under New tables.")
        return codes

    # ------------------------------------------------------------------ many tables
    def create_tables(self, game: str, seats: int, students: int, *, bot: str = "greedy",
                      ruleset: str | None = None, solver: bool = False,
                      **options: Any) -> list[str]:
        """Tables for the whole class: the students split into tables of ``seats``
        (:func:`split_class`), ``bot`` in every empty seat; returns the tables' ids and
        shows the join slips.

        If the server refuses a table part way (it is full, it went away), the tables
        made so far keep their codes and get their slips all the same, and
        :class:`TablesNotAllMade` says how many were made and why the next one was not
        (nothing made: the server's own error)."""
        sizes = split_class(students, seats)
        made: dict[str, dict[str, str]] = {}
        failure: Exception | None = None
        try:
            for people in sizes:
                bots = {seat: bot for seat in range(people, seats)}
                try:
                    t = self.client.create_table(game, seats, bots=bots, ruleset=ruleset,
                                                 solver=solver, **options)
                except Exception as exc:  # noqa: BLE001 - reported below, with the slips
                    failure = exc
                    break
                made[t.id] = t.codes
        finally:                      # whatever happened, every table made gets its slips
            self.codes.update(made)
            if made:
                self._show_slips(made, self.slips_link, "join-slips")
            self._refresh_overview_or_say()
        if failure is not None:
            if not made:
                raise failure
            text = (f"Made {len(made)} of the {len(sizes)} tables ({', '.join(made)}): "
                    f"their join slips are under New tables. Table {len(made) + 1} was "
                    f"not made: {failure}")
            self.say(text, error=True)
            raise TablesNotAllMade(text, list(made)) from failure
        self.say(f"Made {len(made)} table(s) of {seats} for {students} students: "
                 + ", ".join(made) + ". Print the join slips now (New tables: \u2b07 "
                 "Download the join slips): the server keeps no code it could show again "
                 "(New codes makes new slips).")
        return list(made)

    def _refresh_overview_or_say(self) -> None:
        """Refresh the Tables tab; if the server cannot be asked, say so (and go on)."""
        try:
            self._refresh_overview()
        except ClassroomError as exc:
            self.say(f"The tables' overview is not up to date: {exc}", error=True)

    def _show_slips(self, made: dict[str, dict[str, str]], target: W.HTML, name: str) -> None:
        """The join slips of ``made`` (table → seat → code): each with the short address
        the table server serves the student's seat at, as a QR code and as text, and the
        page to open to type the code instead."""
        page = seat_address(self.seats_server)
        rows = [{"where": f"table {table_id} · seat {letter}", "code": code,
                 "address": seat_address(self.seats_server, code),
                 "fallback": f"Or open {page} and type the code {code}."}
                for table_id, codes in made.items() for letter, code in codes.items()]
        page = join_slips(rows, title="Join slips: one game at many screens")
        target.value = (_download(f"Download the join slips ({len(rows)}, to print)",
                                  f"{name}.html",
                                  page.encode(), "text/html") + "<br>" + "<br>".join(
            f"{html.escape(r['where'])}: <code>{html.escape(r['code'])}</code>" for r in rows))

    def create_class(self, name: str, students: int, lesson: str = "") -> dict[str, str]:
        """Codes for a lesson's class list (one per student) and their slips: a lesson
        page joined with one sends its checks to the Answers tab. ``lesson`` is one the
        class's pages serve (:attr:`lessons`, the *Lesson codes* menu), or ``""``: slips
        with no page's address."""
        if lesson and lesson not in self.lessons:
            raise ValueError(f"the class's pages serve no lesson {lesson!r}: choose one of "
                             + ", ".join(self.lessons))
        codes = self.client.create_class(name, students, lesson=lesson)
        # The slip's short address is the table server's: it sends the student on to
        # the lesson's page with the code (the page's own address, with the server's
        # and the code, was too long to type)
        short = (f"{self.seats_server.rstrip('/')}/lesson" if self.server_pages and lesson
                 else "")
        rows = [{"where": f"{self.lessons.get(lesson, lesson) or 'lesson'} · {student}",
                 "code": code,
                 "address": f"{short}?code={code}" if short else "",
                 "fallback": (f"Or open {short} and type the code {code}: the lesson's "
                              "page opens, and your checks reach your teacher." if short
                              else "Your teacher tells you which page to open; the code "
                              "joins it to the class.")}
                for student, code in codes.items()]
        self.class_link.value = _download(
            f"Download the lesson slips ({len(rows)}, to print)",
            f"lesson-slips-{name}.html",
            join_slips(rows, title=f"{lesson or 'Lesson'}: {name}").encode(), "text/html")
        self.say(f"{len(codes)} codes for class {name}: save their slips with \u2b07 "
                 "Download the lesson slips (under the button), and print them.")
        return codes

    def download_records(self) -> bytes:
        """Every table's full record, one JSON file each in a zip, and the link beside
        the button that saves it (the button itself saves nothing: the file is made
        from the server's records when asked for)."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            tables = self.client.tables()
            for t in tables:
                record = self.client.record(t["id"])
                archive.writestr(f"{t['id']}-{t['game']}.json", record.to_json())
        data = buffer.getvalue()
        made = time.strftime("%H:%M:%S")
        self.records_link.value = _download(
            f"Download records.zip ({len(tables)} table{'s' * (len(tables) != 1)}, "
            f"as at {made})", "records.zip", data, "application/zip")
        self.say(f"records.zip holds every full record as at {made}: click \u2b07 "
                 "Download records.zip beside the button to save it.")
        return data

    # ------------------------------------------------------------------ answers
    def _refresh_answers(self) -> None:
        """The Answers tab: the tally as a table (every student-sent text shown as text)
        and its plot (or a note saying why there is none)."""
        rows = tally(self.answers)
        if not rows:
            self.answers_csv_link.value = ""
            self.answers_html.value = "<i>No answers yet.</i>"
            self.answers_plot.value = b""
            self.plot_note.value = ""
            return
        self.answers_csv_link.value = (
            _download("Download every check, per student (CSV)", "answers-per-student.csv",
                      answers_csv(self.answers), "text/csv")
            + f"<small>&nbsp;{len(self.answers)} row{'s' * (len(self.answers) != 1)}: "
            "one per student, question, verdict and mistake, with its tries</small>")
        body = "".join(
            f"<tr><td>{shown(r['lesson'])}</td><td title='question id: "
            f"{html.escape(_cut(r['question'], TOOLTIP_CHARS), quote=True)}'>"
            f"{shown(r['heading'])}</td>"
            f"<td>{r['right']} of {r['tried']}</td><td>{r['checks']}</td><td>"
            + "<br>".join(f"<b>{n} student{'s' * (n != 1)}</b>"
                          + (": " if m.startswith(UNKNOWN_MISTAKE) else ", e.g. ") + shown(m)
                          for m, n in r["mistakes"])
            + "</td></tr>" for r in rows)
        self.answers_html.value = (
            "<table border=1 cellpadding=4 style='border-collapse:collapse'><tr><th>lesson"
            "</th><th>question</th><th>right (of students who tried)</th><th>checks</th>"
            "<th>commonest mistakes (students who made each kind, with their own numbers;"
            " an example)</th></tr>" + body + "</table>")
        try:
            picture = _tally_plot(rows)
        except Exception as exc:  # noqa: BLE001 - a plot never stops the tally
            self.answers_plot.value = b""
            self.plot_note.value = ("<i>No plot this time (the table above is up to "
                                    f"date): {html.escape(_cut(exc, 160))}</i>")
        else:
            self.answers_plot.value = picture
            self.plot_note.value = ""


def _public_picture(table: Table) -> str:
    """The table's present position as every seat sees it (``state.view(TABLE)``: no
    hidden card; the seed is never drawn), as an HTML picture."""
    from ..core.protocol import TABLE
    from ..drawing import render_svg
    state = table.replay.lines[0].state_at(len(table.replay.lines[0]))
    try:
        drawing = table.game.board().draw(state.view(TABLE))
    except (NotImplementedError, ModuleNotFoundError):      # a game without a drawing
        return f"<pre>{html.escape(str(state.view(TABLE)))}</pre>"
    data = base64.b64encode(render_svg(drawing).encode()).decode()
    moves = len(table.replay.lines[0])
    return (f"<div>{moves} move{'s' * (moves != 1)} played</div>"
            f"<img alt='the table as every seat sees it' src='data:image/svg+xml;base64,"
            f"{data}' style='max-width:560px;width:100%;height:auto'>")


def _tally_figure(rows: list[dict[str, Any]]) -> Any:
    """The tally's plot as a matplotlib ``Figure``: a bar per question, the students who
    tried (grey, hatched) and those right (green, solid), each bar's count written at
    its end; the axis counts whole students, and the legend sits above the bars, never
    on them. The labels are drawn as plain text (no mathtext, no TeX), cut to
    :data:`PLOT_LABEL_CHARS`."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator
    fig = Figure(figsize=(7, 1.1 + 0.45 * len(rows)), dpi=90, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    labels = [_cut(f"{r['lesson']} {r.get('heading', r['question'])}", PLOT_LABEL_CHARS)
              for r in rows]
    ys = list(range(len(rows)))
    tried = ax.barh(ys, [r["tried"] for r in rows], color="#d0d7de", hatch="//",
                    label="tried", edgecolor="#555")
    ax.barh(ys, [r["right"] for r in rows], color="#2e7d32", label="right",
            edgecolor="#1b4d1e")
    ax.bar_label(tried, labels=[f"{r['right']} of {r['tried']} right" for r in rows],
                 padding=3, parse_math=False, usetex=False)
    ax.set_yticks(ys, labels, parse_math=False, usetex=False)
    ax.invert_yaxis()
    ax.set_xlabel("students")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    most = max([int(r["tried"]) for r in rows] + [1])
    ax.set_xlim(0, most * 1.3 + 0.5)        # room for the counts at the bars' ends
    fig.legend(loc="outside upper left", ncols=2, frameon=False)
    return fig


def _tally_plot(rows: list[dict[str, Any]]) -> bytes:
    """:func:`_tally_figure` as a PNG."""
    import matplotlib
    with matplotlib.rc_context({"text.usetex": False}):
        fig = _tally_figure(rows)
        out = io.BytesIO()
        fig.savefig(out, format="png")
    return out.getvalue()

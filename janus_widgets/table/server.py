"""The table server: one authority for every game of a class, each seat told only its own.

``python -m janus_widgets serve`` starts it (see ``docs/classroom-server.md``). It keeps
a :class:`~janus_widgets.table.Table` per game, runs the bots and the chance moves,
stores every move before it acknowledges it (:mod:`.storage`), and talks HTTP (the
lobby: make tables, join a seat) and WebSocket (a seat's moves and news, the teacher's
dashboard) on tornado.

Everything a seat learns of its game is made by one method, :meth:`Hall.seat_update`
(the ``update`` messages): the seat's view (``state.view(seat)``, as the game's JSON
form), what the seat was told of each move (``Engine.observed``, ``log_entry`` and the
sentence of :func:`.narrate.sentence` for that seat), its legal moves when it is to move, the public result. Never the seed, the
full record, another seat's view, or anything of the teacher's. The other messages a
seat is sent hold nothing of the game's state: :meth:`Hall.seat_welcome` (the table's
public settings: game, rules, who plays each seat), ``ack`` (the ply its move got),
``error`` and ``pong``. The teacher's token opens the lobby, every table's summary and
its full record.

The wire protocol, message by message, is in ``docs/classroom-server.md``; the
messages themselves are made and checked in this module only.
"""

from __future__ import annotations

import asyncio
import errno
import html
import ipaddress
import itertools
import json
import logging
import math
import os
import re
import secrets
import signal
import ssl
import sys
import time
import traceback
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import tornado.httpserver
import tornado.httputil
import tornado.ioloop
import tornado.iostream
import tornado.log
import tornado.web
import tornado.websocket
import urllib.parse

from .. import games as game_registry
from ..core.errors import IllegalMoveError, InvalidMoveError
from ..core.protocol import CHANCE, TERMINAL, Game, seat_index, seat_name
from ..core.record import Record
from ..core.replay import HUMAN, bot_by
from ..core.rng import check_seed, fresh_seed
from ..drawing.panels import Panel
from . import screen as S
from .local import Table
from .client import SeatMirror
from .collector import OldObjectsFrozen
from .narrate import sentence
from .page_pass import key_file, page_pass, read_or_make_key
from .seat_pages import (CSP, PAGE_FILES, SECURITY_HEADERS, PageError, PageView,
                         first_screen_html, message_text, page_file_served)
from .storage import AnswerRow, MoveRow, SQLiteStorage, Storage, StorageError, TableRow

__all__ = ["Hall", "make_app", "serve", "main", "LIMITS", "WireError", "PAGE_MESSAGES"]

#: The names a class list given as a number of students has: student-1, student-2, …
NUMBERED_STUDENT = re.compile(r"student-(\d+)")

log = logging.getLogger("janus_widgets.server")

#: What one connection may send: the largest message we read (bytes; tornado closes a
#: connection whose frame exceeds ``frame_bytes``), messages a second and the burst;
#: the tables of a server; a request's body; wrong join codes one client may try
#: (``join_failures`` within ``join_window`` seconds, then it waits); how long a
#: credential works (``credential_hours``); wrong codes of all clients together a
#: minute before each further wrong code is answered late (``class_wrong_codes``; the
#: delay grows with their number) and how many such late answers may wait at once
#: (``slow_wrong_codes``, then a wrong code is answered 429 at once). A right code is
#: never delayed: guessing cannot lock the class out. The messages a second are counted
#: per credential over all its sockets; the work a seat causes over all its
#: credentials (``seat_work_per_second``, ``seat_work_burst``: a sync costs the moves it
#: sends, a screen ``work_per_screen``, any other message ``work_per_message``); a seat
#: has at most ``credentials_per_seat`` live credentials (a join beyond retires the
#: oldest, whose pages are told so).
LIMITS = {"message_bytes": 16 * 1024, "frame_bytes": 20 * 1024, "per_second": 20.0,
          "burst": 40, "tables": 500, "body_bytes": 64 * 1024, "join_failures": 10,
          "join_window": 60.0, "answers_per_minute": 30, "answer_chars": 200,
          "sockets_per_credential": 4, "credential_hours": 24.0,
          "credentials_per_seat": 4, "seat_work_per_second": 400.0, "seat_work_burst": 2000.0,
          "work_per_screen": 40, "work_per_message": 2, "hello_seconds": 10.0,
          "joins_per_code": 10, "idle_seconds": 30.0, "presence_every": 0.5,
          "class_wrong_codes": 120, "slow_wrong_codes": 40, "pages_shown": 2000,
          "page_seconds": 60.0, "waiting_connections": 4096,
          "unsent_bytes": 4 * 1024 * 1024, "body_seconds": 10.0,
          "bodies_bytes": 8 * 1024 * 1024, "write_seconds": 20.0,
          "header_bytes": 16 * 1024}
#: A lesson's or a question's id, as the lessons name them ("jactus-odds", "q1").
ANSWER_ID = re.compile(r"[A-Za-z0-9_.-]{1,64}")
ANSWER_FIELDS = ("lesson", "question", "answer", "verdict", "mistake")
#: Characters that reorder the text after them (LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI,
#: PDI, LRM, RLM, ALM): dropped from a student's text before it is kept, so that no
#: answer can turn round what the teacher's tally shows after it.
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
#: Letters of join codes: of each group a class might misread (0 O Q D, 1 I L 7 T, 2 Z,
#: 5 S, 6 G, 8 B: :data:`LOOK_ALIKES`) at most one is used.
LOOK_ALIKES = ("0OQD", "1IL7T", "2Z", "5S", "6G", "8B")
CODE_LETTERS = "ACDEFHJKMNPRTUVWXY3469"
#: 22 letters to the power 10: about 2.7·10¹³ codes. Against a guesser with many page
#: ids (each with ``join_failures`` wrong tries a minute) the class-wide limit slows
#: only the first ``slow_wrong_codes`` waiting at once; past them each wrong code is a
#: 429 at once, which tells the guesser as much. So only the server's speed limits it:
#: at the 850 guesses a second measured from one machine (60 concurrent tries, a new id
#: each), finding any one of 30 seats' codes takes about 33 years on average.
CODE_LENGTH = 10
STATUSES = ("playing", "paused", "ended")
#: What a web seat page sends besides hello, ping, sync and play (see .seat_pages).
PAGE_MESSAGES = frozenset({"click", "select", "goto", "record", "picture", "hint"})
#: What a table's hint hook takes and gives: the position a seat's page shows (made
#: from that seat's messages only) → a panel of text (see ``Hall.hints``).
HintHook = Callable[[Any], Panel]
#: What the table server's answer check takes and gives: (lesson, question, the
#: student whose numbers the page drew, or None for the class's, the answer as typed)
#: → (verdict, mistake), as the lesson page's own check finds them (see
#: ``Hall.answer_check``).
AnswerCheck = Callable[[str, str, "str | None", str], tuple[str, str]]


class WireError(Exception):
    """A request or message the server refuses: ``code`` (a short name a program can
    test), ``text`` (what was wrong and what is allowed), ``status`` (HTTP)."""

    def __init__(self, code: str, text: str, status: int = 400) -> None:
        super().__init__(text)
        self.code = code
        self.text = text
        self.status = status

    def message(self, **extra: Any) -> dict[str, Any]:
        """The error as a wire message."""
        return {"type": "error", "code": self.code, "error": self.text, **extra}


#: A JSON escape of half a surrogate pair (``\ud800``-``\udfff``): where one stands
#: alone, the parsed text cannot be written as UTF-8 (to the log, the database, a page).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def wire_json(text: str | bytes) -> Any:
    r"""JSON from the wire, all of its text writable: ValueError for JSON that is not,
    as for JSON that does not parse (a lone ``\ud800`` escape is valid JSON, and made a
    traceback wherever its text was hashed, stored or logged).

    >>> wire_json('{"a": "\\ud83d\\ude00"}')["a"] == "\U0001f600"    # a pair: text
    True
    >>> wire_json('{"a": "\\ud800"}')
    Traceback (most recent call last):
    ValueError: JSON text holds half a surrogate pair alone
    """
    data = json.loads(text)
    raw = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    if _SURROGATE_ESCAPE.search(raw):
        try:
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("JSON text holds half a surrogate pair alone") from None
    return data


def _slip_code(code: Any) -> str:
    """A join code as a student may type it, as it is kept: 1 to 20 characters of plain
    text (ASCII: the slip's letters and digits, any case), spaces and dashes anywhere
    dropped. Else :class:`WireError` ``bad_request``: text that is no code (a lone
    surrogate could not even be hashed) is refused before anything is looked up.

    >>> _slip_code(" km4t-pxra 3c ")
    'km4tpxra3c'
    """
    if not isinstance(code, str) or not 1 <= len(code) <= 20 or not code.isascii():
        raise WireError("bad_request", "a join code is the short text on the slip: its "
                                       "letters and digits")
    return re.sub(r"[\s-]+", "", code)


def _new_code() -> str:
    return "".join(secrets.choice(CODE_LETTERS) for _ in range(CODE_LENGTH))


class RateWindow:
    """At most ``limit`` events per key within the last ``window`` seconds of
    ``clock``: :meth:`wait` says how long a key must wait for one more, :meth:`add`
    counts one.

    >>> now = [0.0]
    >>> w = RateWindow(2, 60.0, lambda: now[0])
    >>> w.add("a"); w.add("a"); w.wait("a"), w.wait("b")
    (60, 0)
    >>> now[0] = 59.5; w.wait("a")
    1
    >>> now[0] = 60.0; w.wait("a")
    0
    """

    def __init__(self, limit: int, window: float, clock: Callable[[], float],
                 max_keys: int = 10_000) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.max_keys = max_keys
        self._times: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float] | None:
        times = self._times.get(key)
        if times is None:
            return None
        now = self.clock()
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._times[key]
            return None
        return times

    def wait(self, key: str) -> int:
        """Whole seconds until ``key`` may have one more event (0: now)."""
        times = self._recent(key)
        if times is None or len(times) < self.limit:
            return 0
        return max(1, math.ceil(times[0] + self.window - self.clock()))

    def add(self, key: str) -> None:
        """Count one event of ``key`` now. Keys long quiet are forgotten; past
        ``max_keys`` keys (a guesser making up a page id per try) the quiet ones go,
        then the oldest, down to three quarters: memory stays bounded and each event
        costs O(1) on average (the class-wide count still holds every try).

        >>> w = RateWindow(2, 60.0, lambda: 0.0, max_keys=8)
        >>> for k in range(100): w.add(f"page{k}")
        >>> len(w._times) <= 8, "page99" in w._times
        (True, True)
        """
        if key not in self._times and len(self._times) >= self.max_keys:
            for old in list(self._times):
                self._recent(old)
            keep = (3 * self.max_keys) // 4
            for old in list(self._times)[:max(0, len(self._times) - keep)]:
                del self._times[old]
        self._times.setdefault(key, deque()).append(self.clock())


class Budget:
    """A token bucket: ``rate`` units a second, at most ``burst`` saved; :meth:`take`
    spends ``cost`` units if there are that many.

    >>> now = [0.0]
    >>> b = Budget(10, 20, lambda: now[0])
    >>> b.take(15), b.take(10), b.wait(10)
    (True, False, 0.5)
    >>> now[0] = 0.5; b.take(10)
    True
    """

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.at = clock()

    def _fill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self, cost: float) -> bool:
        self._fill()
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False

    def wait(self, cost: float) -> float:
        """Seconds until ``cost`` units are there."""
        self._fill()
        return max(0.0, (min(cost, self.burst) - self.tokens) / self.rate)


@dataclass(eq=False)
class Connection:
    """One WebSocket's sign-in and its share of the message budget."""

    send: Callable[[dict[str, Any]], None]
    role: str = ""                 # "", "seat", "student" or "teacher"
    greeted: bool = False          # hello was sent (once per connection)
    credential: str = ""           # the hash of the seat's or student's credential
    table_id: str = ""
    seat: int = -1
    sent: int = 0                  # moves of its table this connection has been sent
    watching: set[str] = field(default_factory=set)   # tables a teacher watches
    watch_sent: dict[str, int] = field(default_factory=dict)
    tokens: float = LIMITS["burst"]
    refill: float = field(default_factory=time.monotonic)
    warned: float = 0.0
    page: PageView | None = None   # a web seat page: it is sent screens, not updates
    close: Callable[[], None] | None = None    # closes the WebSocket

    def allow(self) -> bool:
        """Take one message from the budget (``per_second``, up to ``burst`` saved)."""
        now = time.monotonic()
        self.tokens = min(LIMITS["burst"], self.tokens + (now - self.refill)
                          * LIMITS["per_second"])
        self.refill = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class ServedTable:
    """One table of the hall: its stored row, the :class:`Table` holding the truth, the
    moves committed so far and the connections of each seat."""

    def __init__(self, hall: Hall, row: TableRow, table: Table, stored: int) -> None:
        self.hall = hall
        self.row = row
        self.table = table
        self.stored = stored
        self.status = row.status
        self.note = str((row.meta or {}).get("note", ""))   # why, if not the teacher
        self.connections: dict[int, set[Connection]] = {}
        self._client_ids: dict[int, str] = {}       # ply → the client's move id
        #: seat → (policy, name) of the bots the hall runs off its loop
        #: (:meth:`Hall.next_bot`); empty when the table runs its own (no loop, or no delay)
        self.bots: dict[int, tuple[Callable[[Any], Any], str]] = {}
        self.thinking = False                      # a bot's move is asked for or waited on
        if hall.bots_off_loop():
            for seat, policy in table.bots.items():
                self.bots[seat] = (policy, table.seat_label(seat))
            for seat in self.bots:
                table.set_bot(seat, None)          # the hall asks it, in its bot thread
        table.observe(self._on_change)
        if self.status != "playing":
            table.hold(self.status_text())

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def game(self) -> Game:
        return self.table.game

    @property
    def solver(self) -> bool:
        """Whether the teacher lets this table's seats ask the solver for the best move
        (kept in the table's stored ``meta``: a restart keeps it)."""
        return bool((self.row.meta or {}).get("solver", False))

    def status_text(self) -> str:
        """Why the table does not play (``""`` while it does), for seats and teacher."""
        if self.status == "playing":
            return ""
        return self.note or {"paused": "the teacher paused this table",
                             "ended": "the teacher ended this table"}[self.status]

    def _on_change(self, what: str) -> None:
        if what == "moves":
            self.persist()
            self.hall.broadcast(self)
            self.hall.next_bot(self)
        elif what == "notice" and self.table.notice and self.table.notice[1] == "error":
            # A bot's turn that failed on the loop (the table's timer said so; its
            # traceback is the table's last error).
            errors = self.table.errors
            last = errors[-1].strip().splitlines()[-1] if errors else self.table.notice[0]
            if self.hall.tables.get(self.id) is self:
                self.hall.bot_failed(self, last)
            else:
                log.error("table %s (replaced): %s", self.id, last)

    def persist(self) -> None:
        """Commit every move of the table not stored yet (one transaction); on failure
        put the table back as stored, so memory never runs ahead of the disk."""
        line = self.table.replay.lines[0]
        if len(line) <= self.stored:
            return
        notations = line.notations(self.stored)
        rows = [MoveRow(self.stored + k, text, line.by[self.stored + k],
                        self._client_ids.pop(self.stored + k, None))
                for k, text in enumerate(notations)]
        try:
            self.hall.storage.append_moves(self.id, self.stored, rows)
        except StorageError:
            self._client_ids.clear()
            self.hall.reload(self)
            raise
        self.stored = len(line)


class Waiting:
    """Connections waiting (for a request's headers, or to sign in), the oldest first,
    at most ``waiting_connections`` (:data:`LIMITS`): adding one past that takes the
    oldest off, for the caller to close (one student opening thousands must not use up
    the server's files; a browser asks and signs in at once, so it is never the oldest).

    >>> w = Waiting(limit=2)
    >>> w.add("a"), w.add("b"), w.add("c"), w.add("b")
    ([], [], ['a'], [])
    >>> w.discard("b"); len(w), w.oldest(5)
    (1, ['c'])
    """

    def __init__(self, limit: int | None = None) -> None:
        self._items: dict[Any, None] = {}
        self._limit = limit

    def add(self, item: Any) -> list[Any]:
        """List ``item`` (kept in its place if listed); what is now over the limit."""
        self._items[item] = None
        limit = LIMITS["waiting_connections"] if self._limit is None else self._limit
        return self.oldest(len(self._items) - limit)

    def discard(self, item: Any) -> None:
        self._items.pop(item, None)

    def oldest(self, count: int) -> list[Any]:
        """Take the ``count`` oldest off the list."""
        taken = list(itertools.islice(self._items, max(0, count)))
        for item in taken:
            del self._items[item]
        return taken

    def __len__(self) -> int:
        return len(self._items)


class Hall:
    """Every table of the class, the lobby, and the one outgoing filter per seat.

    ``storage`` keeps everything; ``teacher_token`` is the token that opens the lobby
    (only its hash is kept); ``bot_delay`` seconds pass before a bot moves; ``loop``
    gives the event loop bots wait on."""

    def __init__(self, storage: Storage, teacher_token: str, *, bot_delay: float = 0.4,
                 loop: Callable[[], asyncio.AbstractEventLoop | None] | None = None,
                 questions: dict[str, set[str]] | None = None,
                 hints: HintHook | None = None,
                 answer_check: AnswerCheck | None = None) -> None:
        self.storage = storage
        #: Checks a student's answer again on the server: the tally keeps its verdict
        #: and mistake, not the page's (a student with their code can send any verdict
        #: to the API). ``__main__`` passes ``janus_widgets.analysis.checking``'s;
        #: ``None``: the page's verdict is kept (a server without the lessons).
        self.answer_check = answer_check
        #: lesson → its question ids: answers are taken for these only (None: any id)
        self.questions = questions
        #: The solver's hint for a seat page's position (``{"type": "hint"}``), at the
        #: tables whose teacher allowed it (``solver``); ``None``: this server has none.
        #: The table layer reads no solver itself: ``__main__`` passes one from
        #: ``janus_widgets.analysis.hints``.
        self.hints = hints
        self._teacher = Storage.hash_credential(teacher_token)
        self.bot_delay = bot_delay
        self._loop = loop or (lambda: None)
        self.tables: dict[str, ServedTable] = {}
        self.teachers: set[Connection] = set()
        self.pages = ""                       # where the seat pages are (for join slips)
        #: the class's pages' key: a lesson slip's code is sent on with its pass
        #: (:mod:`.page_pass`), so the pages count a student's pages, not an address's
        self.pages_key: bytes | None = None
        #: Sockets open and not signed in yet (see SocketHandler.open).
        self.unsigned = Waiting()
        self.public = ""                      # the address those pages use for us
        self.clock: Callable[[], float] = time.monotonic
        self._failed_joins = RateWindow(int(LIMITS["join_failures"]), LIMITS["join_window"],
                                        lambda: self.clock())     # address → wrong codes
        self._class_failures = RateWindow(10**9, 60.0, lambda: self.clock())
        self.slow_answers = 0                  # wrong codes waiting for their late answer
        self._answers_sent = RateWindow(int(LIMITS["answers_per_minute"]), 60.0,
                                        lambda: self.clock())     # student → answers
        self._answer_kinds: dict[tuple[str, ...], int] = {}        # see answers()
        self._throws_sent = RateWindow(int(LIMITS["answers_per_minute"]), 60.0,
                                       lambda: self.clock())     # student → tallies
        for answer in storage.answers():
            key = _answer_kind(answer)
            self._answer_kinds[key] = self._answer_kinds.get(key, 0) + 1
        self.unrestored: dict[str, str] = {}    # table id → why it could not come back
        self._presence_due: set[str] = set()    # tables whose presence news waits
        self._joins = RateWindow(int(LIMITS["joins_per_code"]), 60.0,
                                 lambda: self.clock())     # a code's joins that worked
        self._peeks = RateWindow(int(LIMITS["joins_per_code"]), 60.0,
                                 lambda: self.clock())     # a code's pages shown at once
        self.sockets: dict[str, set[Connection]] = {}  # credential hash → its sockets
        #: (table, seat) → what that seat knows, fed by :meth:`seat_update` like any other
        #: connection of the seat: the web seat pages' screens are made from it alone.
        self.mirrors: dict[tuple[str, int], SeatMirror] = {}
        #: the pages a slip's address was sent with their first screen, until their
        #: socket signs in: page token → (its view, table, seat, when it lapses)
        self.pages_shown: dict[str, tuple[PageView, str, int, float]] = {}
        #: (table, seat) → what the seat was told of each move, and its first view.
        self.frames: dict[tuple[str, int], list[dict[str, Any]]] = {}
        self.views0: dict[tuple[str, int], Any] = {}
        #: The work each seat may cause (syncs by the moves they send, screens), and the
        #: messages each credential may send, over all its sockets.
        self.seat_work: dict[tuple[str, int], Budget] = {}
        self.credential_messages: dict[str, Budget] = {}
        self._bot_pool: ThreadPoolExecutor | None = None
        for row in storage.tables():
            try:
                self.tables[row.id] = self._restore(row)
            except Exception as exc:  # noqa: BLE001 - one broken table must not stop the rest
                self._restore_broken(row, exc)
        for served in self.tables.values():       # bots go on where they stopped
            self.next_bot(served)
        self.answers_kept = sum(self._answer_kinds.values())

    def restored_text(self) -> str:
        """What a restart brought back from the database, for the terminal (``""`` for
        a new one): a teacher restarting mid-class is told the tables are there.

        >>> hall = Hall(SQLiteStorage(":memory:"), "token", bot_delay=0)
        >>> hall.restored_text()
        ''
        >>> t = hall.create_table({"game": "jactus", "players": 2})
        >>> Hall(hall.storage, "token", bot_delay=0).restored_text()
        'Brought back from the database: 1 table (1 playing), as they were.'

        A game played to its end is finished, not playing:

        >>> served, _ = hall.create_table({"game": "janus", "players": 2, "seed": 1})
        >>> for k in range(200):                      # each seat's last legal move
        ...     state = served.table.state
        ...     if state.is_over:
        ...         break
        ...     _ = hall.play(served, state.current_player, state.legal_moves()[-1].notation,
        ...                   f"m{k}")
        >>> Hall(hall.storage, "token", bot_delay=0).restored_text()
        'Brought back from the database: 2 tables (1 playing, 1 finished), as they were.'
        """
        if not self.tables and not self.unrestored and not self.answers_kept:
            return ""
        counts = {}
        for served in self.tables.values():
            kind = ("finished" if served.status == "playing" and served.table.state.is_over
                    else served.status)
            counts[kind] = counts.get(kind, 0) + 1
        tables = len(self.tables)
        said = f"{tables} table{'s' if tables != 1 else ''}"
        if counts:
            said += " (" + ", ".join(f"{n} {status}" for status, n in counts.items()) + ")"
        if self.answers_kept:
            said += (f" and {self.answers_kept} lesson check"
                     f"{'s' if self.answers_kept != 1 else ''}")
        if self.unrestored:
            said += (f"; {len(self.unrestored)} could not come back (the dashboard says "
                     "why): " + ", ".join(sorted(self.unrestored)))
        return f"Brought back from the database: {said}, as they were."

    # ------------------------------------------------------------------ tables
    def _table(self, row: TableRow, moves: list[MoveRow] | None = None) -> Table:
        bots = {seat: who for seat, who in enumerate(row.seats) if who != "human"}
        table = Table(row.game, row.variant, seed=row.seed, bot_delay=self.bot_delay,
                      loop=self._loop)
        if moves:
            record = Record(game=row.game, variant=row.variant, seed=row.seed,
                            moves=tuple(m.notation for m in moves),
                            by=tuple(m.by for m in moves), ruleset=row.ruleset)
            table.load(record)
        for seat, who in bots.items():
            table.set_bot(seat, who)
        if row.status == "playing":
            table.resolve_chance()    # chance never waits on the server (a deal, a throw)
        return table

    def _restore(self, row: TableRow) -> ServedTable:
        """A stored table brought back exactly: the same seed and moves, its bots going
        on where they stopped."""
        moves = self.storage.moves(row.id)
        served = ServedTable(self, row, self._table(row, moves), len(moves))
        if served.status == "playing":
            self._let_bots_move(served, served.table.release_bots)
        return served

    def _restore_broken(self, row: TableRow, exc: Exception) -> None:
        """A stored table that cannot be brought back (a stored move the rules refuse,
        a bot or game this version does not have): logged, and shown to the teacher
        as ended, with the reason and as many of its moves as replay. Storage keeps
        it as it was, for a version that can read it."""
        reason = f"this table could not be restored ({_error_text(exc)})"
        log.error("table %s: %s\n%s", row.id, reason, traceback.format_exc())
        try:
            game = game_registry.get(row.game)
            moves = self.storage.moves(row.id)
            state = game.new(game.variant(row.variant), seed=row.seed)
            good = 0
            for move in moves:
                try:
                    state = state.play(move.notation)
                except Exception as bad:  # noqa: BLE001 - whatever stops the replay
                    reason = (f"this table could not be restored: its stored move "
                              f"{good + 1} ({move.notation!r}) does not replay "
                              f"({_error_text(bad)})")
                    break
                good += 1
            ended = replace(row, status="ended", seats=["human"] * len(row.seats))
            table = self._table(ended, moves[:good])
        except Exception:  # noqa: BLE001 - not even its start can be made
            log.error("table %s is left out: %s", row.id, traceback.format_exc())
            self.unrestored[row.id] = reason
            return
        served = ServedTable(self, replace(ended, seats=row.seats), table, good)
        served.note = f"{reason}; it has ended, with the {good} moves that replay"
        served.table.hold(served.note)
        self.tables[row.id] = served

    def reload(self, served: ServedTable) -> None:
        """Put a table back as storage has it (after a failed commit), with its status
        now (a paused table stays paused); the old copy stops (its bots included)."""
        served.table.unobserve(served._on_change)
        served.table.hold("this copy of the table was replaced")
        fresh = self._restore(replace(served.row, status=served.status,
                                      meta={**(served.row.meta or {}), "note": served.note}))
        fresh.connections = served.connections
        self.tables[served.id] = fresh
        self.next_bot(fresh)
        for seat in range(len(served.row.seats)):       # rebuilt from the stored moves
            self.mirrors.pop((served.id, seat), None)
            self.frames.pop((served.id, seat), None)
        for seat, conns in fresh.connections.items():
            for conn in conns:
                if conn.page is not None:
                    conn.page = PageView(self.mirror(fresh, seat))

    def _let_bots_move(self, served: ServedTable, start: Callable[[], Any]) -> None:
        """``start()`` lets the table's bots move (at once when they have no delay):
        a bot that raises pauses the table, saying why, instead of raising here."""
        try:
            start()
        except StorageError:
            raise
        except Exception as exc:  # noqa: BLE001 - a bot's failure is the table's news
            self.bot_failed(served, _error_text(exc))

    # ------------------------------------------------------------------ bots
    def bots_off_loop(self) -> bool:
        """Whether bots think in the hall's bot thread rather than on the event loop:
        on a server's loop with a bot delay. Serving clicks, joins and pages then never
        waits for a bot's search (Jinns's and Janus's ``mcts`` take 0.2-0.3 s a move,
        Jactus's ``optimal`` 2 s the first time); the loop waits at most Python's
        switch interval (5 ms) for the thread to give way. Without a loop (a notebook,
        a test) or with no delay the table's own bots move at once, as before."""
        return self._loop() is not None and self.bot_delay > 0

    def next_bot(self, served: ServedTable) -> None:
        """If a bot of ``served`` is to move, ask it after ``bot_delay`` seconds, in the
        bot thread. A table has at most one move asked for at a time, so a class
        queues at most one bot's search per table (at most ``LIMITS["tables"]``), and
        the bots of every table take turns in one thread."""
        loop = self._loop()
        if not served.bots or served.thinking or loop is None or \
                not self._bot_may_move(served):
            return
        seat = served.table.state.current_player
        served.thinking = True
        loop.call_later(self.bot_delay, self._ask_bot, served, seat, served.table.length)

    def _bot_may_move(self, served: ServedTable, seat: int | None = None,
                      length: int | None = None) -> bool:
        """Whether a bot of ``served`` is to move (``seat`` at ``length`` moves, if
        given): the table is the hall's, playing, and a bot's seat is to move."""
        table = served.table
        cur = table.state.current_player
        return (self.tables.get(served.id) is served and served.status == "playing"
                and cur in served.bots and (seat is None or cur == seat)
                and (length is None or table.length == length))

    def _ask_bot(self, served: ServedTable, seat: int, length: int) -> None:
        if not self._bot_may_move(served, seat, length):
            served.thinking = False
            self.next_bot(served)
            return
        loop = self._loop()
        assert loop is not None
        if self._bot_pool is None:
            self._bot_pool = ThreadPoolExecutor(max_workers=1,
                                                thread_name_prefix="janus-bots")
        policy, name = served.bots[seat]
        view = served.table.state.view(seat)            # made on the loop: a value
        future = loop.run_in_executor(self._bot_pool, policy, view)
        future.add_done_callback(lambda done: self._bot_chose(served, seat, length, name,
                                                              done))

    def _bot_chose(self, served: ServedTable, seat: int, length: int, name: str,
                   done: Future | asyncio.Future) -> None:
        """On the loop: play the bot's choice if its table is where it was asked."""
        served.thinking = False
        if done.cancelled():                            # the server stops
            return
        if not self._bot_may_move(served, seat, length):
            self.next_bot(served)                       # paused, replaced, or moved on
            return
        state = served.table.state
        try:
            choice = done.result()
            if isinstance(choice, int) and not isinstance(choice, bool):
                choice = state._move(choice)
            if not state.is_legal(choice):
                raise IllegalMoveError(
                    f"The bot of seat {seat_name(seat)} chose {choice!s}, which is not "
                    f"legal: {state.explain(choice)}", move=str(choice), rule="",
                    reason="bot error")
            served.table.play(choice, by=bot_by(name))  # stored, sent, the next asked
        except StorageError as exc:                     # put back as stored (persist)
            log.error("table %s: a bot's move could not be stored: %s", served.id, exc)
        except Exception as exc:  # noqa: BLE001 - a bot's failure is the table's news
            self.bot_failed(served, _error_text(exc))

    def close(self) -> None:
        """Stop the bot thread (the server stops; a search under way is not waited
        for)."""
        if self._bot_pool is not None:
            self._bot_pool.shutdown(wait=False, cancel_futures=True)

    def bot_failed(self, served: ServedTable, error: str) -> None:
        """A bot raised (or chose an illegal move): keep what was played, pause the
        table and tell its seats and the teacher why (resuming lets the bot try again)."""
        seat = served.table.state.current_player
        who = served.row.seats[seat] if 0 <= seat < len(served.row.seats) else "bot"
        note = (f"the bot of seat {seat_name(seat) if seat >= 0 else '?'} ({who}) failed "
                f"({error}); the table is paused: the teacher can resume it to let the bot "
                "try again")
        log.error("table %s: %s", served.id, note)
        try:
            served.persist()
            self.set_status(served, "paused", note)
        except StorageError as exc:
            log.error("table %s could not be paused: %s", served.id, exc)
            served.status, served.note = "paused", note
            served.table.hold(note)

    def create_table(self, spec: Any) -> tuple[ServedTable, dict[str, str]]:
        """A new table from the lobby's request: ``{"game", "players", "bots": {"C":
        "greedy"}, "ruleset", "seed", "options": {...}}``. Returns it and the join code
        of each human seat (``{"A": "KM4TPXRA3C", …}``)."""
        if not isinstance(spec, dict):
            raise WireError("bad_request", "a new table is a JSON object: game, players, "
                                           "bots, ruleset, seed, options")
        allowed = {"game", "players", "bots", "ruleset", "seed", "options", "name", "solver"}
        extra = sorted(set(spec) - allowed)
        if extra:
            raise WireError("bad_request", f"unknown field {extra[0]!r} of a new table; "
                                           f"the fields are {', '.join(sorted(allowed))}")
        if len(self.tables) >= LIMITS["tables"]:
            raise WireError("limit", f"this server holds at most {LIMITS['tables']} tables")
        name = spec.get("game")
        if name not in game_registry.names():
            raise WireError("bad_request", f"unknown game {name!r}; the games are "
                                           + ", ".join(game_registry.names()))
        game = game_registry.get(name)
        options = spec.get("options") or {}
        if not isinstance(options, dict):
            raise WireError("bad_request", "'options' is an object of option names and "
                                           "values")
        if spec.get("players") is not None:
            options = {**options, "players": spec["players"]}
        try:
            variant = game.variant(ruleset=spec.get("ruleset"), **options)
            seed = fresh_seed() if spec.get("seed") is None else check_seed(spec["seed"])
        except (ValueError, TypeError) as exc:
            raise WireError("bad_request", str(exc)) from None
        n = variant.players  # type: ignore[attr-defined]
        solver = spec.get("solver", False)
        if not isinstance(solver, bool):
            raise WireError("bad_request", "'solver' is true (the seats may ask the solver "
                                           "for the best move) or false (the default)")
        if solver and (game.name != "jactus" or n != 2):
            raise WireError("bad_request", "the solver's hint is for 2-player Jactus only; "
                                           f"this table is {game.name} for {n} players")
        seats = ["human"] * n
        bots = spec.get("bots") or {}
        if not isinstance(bots, dict):
            raise WireError("bad_request", "'bots' maps seats (\"C\" or 2) to bot names")
        for key, who in bots.items():
            try:
                seat = seat_index(key, n) if isinstance(key, str) and not key.isdigit() \
                    else int(key)
                if not 0 <= seat < n:
                    raise ValueError(key)
            except (ValueError, TypeError):
                raise WireError("bad_request", f"bots: {key!r} is not a seat of this "
                                               f"{n}-player game (A … {seat_name(n - 1)})"
                                ) from None
            if not isinstance(who, str) or who == "human":
                raise WireError("bad_request", f"bots: seat {seat_name(seat)} needs a bot "
                                               "name (random, greedy, mcts, mcts:N …)")
            seats[seat] = who
        if "human" not in seats:
            raise WireError("bad_request", "every seat is a bot: a table needs at least "
                                           "one human seat to join")
        table_id = self._new_id()
        row = TableRow(table_id, game.name, variant.to_dict(), game.ruleset_of(variant),
                       seed, seats, "playing", time.time(),
                       {"name": str(spec.get("name", ""))[:80],
                        **({"solver": True} if solver else {})})
        try:
            table = self._table(row)              # checks the bots before storing
        except ValueError as exc:
            raise WireError("bad_request", str(exc)) from None
        codes = self._fresh_codes([seat_name(seat) for seat, who in enumerate(seats)
                                   if who == "human"], self.storage.find_code)
        self.storage.create_table(row, {seat_index(letter, n): self.storage.hash_code(code)
                                        for letter, code in codes.items()})
        served = ServedTable(self, row, table, 0)
        self.tables[table_id] = served
        served.persist()                          # a bot's first moves, if any
        self.broadcast(served)
        self.next_bot(served)
        loop = self._loop()
        if loop is None:
            self.prepare(served)
        else:                                     # after the teacher has the answer
            loop.call_soon(self.prepare, served)
        return served, codes

    def prepare(self, served: ServedTable) -> None:
        """Make a new table's first screens before its students arrive: each human
        seat's mirror, and a screen of it made and dropped, so the game's drawing of
        the table (Janus: its 100 tiles, ~18 ms) and each shape's JSON text are made
        now, while the teacher hands out the slips, and not when the class opens its
        pages at once. Each seat's screen is made from its own mirror as always: the
        drawings are kept by the game's and the screen model's caches, which are
        keyed by what is drawn, never by a seat.

        A table gone or not playing is left alone; a failure is logged (the seat's
        page makes its screen when it opens, as it would have)."""
        if self.tables.get(served.id) is not served or served.status != "playing":
            return
        for seat, who in enumerate(served.row.seats):
            if who != "human":
                continue
            try:
                PageView(self.mirror(served, seat)).screen()
            except Exception:  # noqa: BLE001 - only a head start: the join makes it anyway
                log.error("table %s: seat %s's first screen could not be made ahead:\n%s",
                          served.id, seat_name(seat), traceback.format_exc())

    def _fresh_codes(self, keys: list[str], taken: Callable[[str], Any]) -> dict[str, str]:
        """A new join code for each key, no two alike and none whose hash ``taken``
        finds in use: a code drawn again is drawn afresh."""
        codes: dict[str, str] = {}
        hashes: set[str] = set()
        for key in keys:
            for _ in range(100):
                code = _new_code()
                digest = self.storage.hash_code(code)
                if digest not in hashes and taken(digest) is None:
                    break
            else:
                raise WireError("server", "no unused join code was found in 100 draws",
                                503)
            codes[key] = code
            hashes.add(digest)
        return codes

    def _new_id(self) -> str:
        n = len(self.tables) + len(self.unrestored) + 1
        while f"t{n}" in self.tables or f"t{n}" in self.unrestored:
            n += 1
        return f"t{n}"

    def table(self, table_id: Any) -> ServedTable:
        served = self.tables.get(table_id) if isinstance(table_id, str) else None
        if served is None:
            if table_id in self.unrestored:
                raise WireError("broken", f"table {table_id}: "
                                          f"{self.unrestored[table_id]} (see the server's "
                                          "log)", 503)
            raise WireError("not_found", f"there is no table {table_id!r}", 404)
        return served

    def set_status(self, served: ServedTable, status: str, note: str = "") -> None:
        """Pause, resume (``"playing"``) or end a table; ``note`` says why when the
        teacher did not (a bot failed)."""
        if status not in STATUSES:
            raise WireError("bad_request", f"status {status!r}: use one of "
                                           + ", ".join(STATUSES))
        if served.status == "ended" and status != "ended":
            raise WireError("ended", f"table {served.id} has ended; it cannot go on")
        if served.status == status == "ended":
            note = note or served.note            # why it ended stays said
        self.storage.set_status(served.id, status, note)
        served.status, served.note = status, note
        served.row = replace(served.row, status=status,
                             meta={**(served.row.meta or {}), "note": note})
        if status == "playing":
            self._let_bots_move(served, served.table.release_hold)
            self.next_bot(served)
        else:
            served.table.hold(served.status_text())
        self.broadcast(served)
        if status == "ended":                 # its credentials were withdrawn with it
            self.close_seats(served, "ended", "This table has ended: ask your teacher for "
                                              "a new slip.")

    # ------------------------------------------------------------------ lobby
    def _join_allowed(self, address: str) -> None:
        """Refuse any join from ``address`` (the page's own client id, else the network
        address) while it has ``join_failures`` wrong codes within the last
        ``join_window`` seconds (codes cannot be guessed one by one)."""
        wait = self._failed_joins.wait(address)
        if wait:
            raise WireError("rate_limit", f"too many wrong join codes from this page "
                                          f"({LIMITS['join_failures']} within "
                                          f"{LIMITS['join_window']:g} s): wait {wait} s, "
                                          "then try the code again (check it on the slip)",
                            429)

    def _join_failed(self, address: str | None) -> None:
        """Count a wrong code from ``address`` (a join that worked counts nothing), and
        in the class's count of wrong codes (only there for ``None``)."""
        if address is not None:
            self._failed_joins.add(address)
        self._class_failures.add("class")

    def wrong_code_delay(self) -> float:
        """Seconds to wait before answering a wrong code: 0 while the whole class has
        made fewer than ``class_wrong_codes`` wrong codes in the last minute, then
        growing with their number, up to 5 s (guessing from many addresses is slowed;
        a right code is never waited on)."""
        times = self._class_failures._recent("class")
        over = (len(times) if times else 0) - LIMITS["class_wrong_codes"]
        return 0.0 if over < 0 else min(5.0, 0.5 + 0.05 * over)

    def join(self, code: Any, address: str = "") -> tuple[ServedTable, int, str]:
        """The seat a join code opens and a new credential for it (the same code again
        gives the same seat: a reload, another device). ``address`` is the client's:
        after ``join_failures`` wrong codes within ``join_window`` seconds it must wait
        (HTTP 429)."""
        served, seat = self._seat_of_code(code, address)
        self._once_more(self._joins, served, seat, "this seat was joined",
                        " (a page keeps its seat when it is reloaded)")
        credential = secrets.token_urlsafe(24)
        self.storage.add_credential(Storage.hash_credential(credential), served.id, seat)
        self._retire_beyond_cap(served.id, seat)
        return served, seat, credential

    def peek(self, code: Any) -> tuple[ServedTable, int]:
        """The seat a join code opens, without joining it (no credential is made):
        what a slip's address (``GET /seat?code=…``) shows at once, the seat's screen
        in the page, while the page joins on its socket. The checks of :meth:`join`
        but the per-page count: a wrong code counts in the class's count (answered late
        while the class makes many), not against an address (a school behind one
        address would lose its first screens to one student's wrong codes; a guesser
        gains nothing, making up page ids on sockets); an ended table is refused. A
        seat's page is shown so at most ``joins_per_code`` times a minute (then
        ``rate_limit``: the page is served without it and joins as before)."""
        served, seat = self._seat_of_code(code, None)
        self._once_more(self._peeks, served, seat, "this seat's page was shown")
        return served, seat

    @staticmethod
    def _once_more(window: RateWindow, served: ServedTable, seat: int, done: str,
                   more: str = "") -> None:
        """Count one more of a seat's joins (or pages shown) in ``window``, or refuse it
        (``rate_limit``) when it had ``joins_per_code`` within a minute."""
        key = f"{served.id}/{seat}"
        wait = window.wait(key)
        if wait:
            raise WireError("rate_limit", f"{done} {LIMITS['joins_per_code']} times within "
                                          f"a minute: wait {wait} s{more}", 429)
        window.add(key)

    def show_page(self, served: ServedTable, seat: int) -> tuple[PageView, str]:
        """A new page of seat ``seat`` whose first screen goes in the page itself (see
        :meth:`peek`), kept for ``page_seconds`` under a new token: the page's socket
        signs in with it (:meth:`adopt_page`) and is told its screen is live, not sent
        it again. At most ``pages_shown`` are kept (the oldest go first)."""
        now = self.clock()
        for token, (_, _, _, lapses) in list(self.pages_shown.items()):
            if lapses > now and len(self.pages_shown) < LIMITS["pages_shown"]:
                break                                   # kept in the order they came
            del self.pages_shown[token]
        page = PageView(self.mirror(served, seat))
        token = secrets.token_urlsafe(18)
        self.pages_shown[token] = (page, served.id, seat, now + LIMITS["page_seconds"])
        return page, token

    def adopt_page(self, token: Any, served: ServedTable, seat: int) -> PageView | None:
        """The page shown with ``token`` if it is this seat's and still kept (once)."""
        if not isinstance(token, str):
            return None
        kept = self.pages_shown.pop(token, None)
        if kept is None or kept[1:3] != (served.id, seat) or kept[3] <= self.clock():
            return None
        return kept[0]

    def _seat_of_code(self, code: Any, address: str | None) -> tuple[ServedTable, int]:
        """The table and seat of a join code, for a join from ``address`` (or a peek:
        ``None``)."""
        if address is not None:
            self._join_allowed(address)
        code = _slip_code(code)
        found = self.storage.find_code(self.storage.hash_code(code))
        if found is None:
            self._join_failed(address)
            raise WireError("unknown_code", f"no seat has the join code {code!r}: "
                                            "check the slip (letters and digits, "
                                            f"{CODE_LENGTH} of them)", 404)
        table_id, seat = found
        served = self.table(table_id)
        if served.status == "ended":                    # a code kept from before ending
            raise WireError("ended", f"table {table_id} has ended: its join codes join "
                                     "nothing now", 410)
        return served, seat

    def _retire_beyond_cap(self, table_id: str, seat: int) -> None:
        """A seat keeps at most ``credentials_per_seat`` live credentials: the oldest
        beyond it stop working, and their pages are told why (one code cannot mint
        credentials without end to multiply a seat's allowance)."""
        live = self.storage.seat_credentials(table_id, seat)
        for digest in live[:max(0, len(live) - int(LIMITS["credentials_per_seat"]))]:
            self.storage.delete_credential(digest)
            self.credential_messages.pop(digest, None)
            for conn in list(self.sockets.get(digest, ())):
                conn.send({"type": "error", "code": "retired",
                           "error": "This seat was joined again on other pages (a seat "
                                    f"keeps its {LIMITS['credentials_per_seat']} newest): "
                                    "this page has left it. Join again with the code on "
                                    "your slip if this is your seat."})
                if conn.close is not None:
                    conn.close()

    def charge(self, conn: Connection, cost: float) -> None:
        """Count ``cost`` units of work against the connection's seat (all its
        credentials share one budget); :class:`WireError` ``rate_limit`` if the seat
        has spent its allowance."""
        if conn.role != "seat":
            return
        key = (conn.table_id, conn.seat)
        budget = self.seat_work.get(key)
        if budget is None:
            budget = self.seat_work[key] = Budget(LIMITS["seat_work_per_second"],
                                                  LIMITS["seat_work_burst"], self.clock)
        if not budget.take(cost):
            wait = budget.wait(cost)
            raise WireError("rate_limit", f"this seat asked for more than the server gives "
                                          f"one seat ({LIMITS['seat_work_per_second']:g} "
                                          f"units a second; this costs {cost:g}): wait "
                                          f"{wait:.1f} s")

    def new_codes(self, served: ServedTable, withdraw: bool = False) -> dict[str, str]:
        """New join codes for a table's human seats (lost slips); the old codes stop
        working. Credentials already handed out stay valid, unless ``withdraw``: then
        every page of the table must join again with the new codes (a stolen slip's
        seat is taken back). An ended table gets none."""
        if served.status == "ended":
            raise WireError("ended", f"table {served.id} has ended: it gets no new join "
                                     "codes")
        n = len(served.row.seats)
        codes = self._fresh_codes([seat_name(seat) for seat, who in
                                   enumerate(served.row.seats) if who == "human"],
                                  self.storage.find_code)
        self.storage.replace_codes(served.id, {seat_index(letter, n):
                                               self.storage.hash_code(code)
                                               for letter, code in codes.items()})
        if withdraw:
            self.storage.withdraw_credentials(served.id)
            self.close_seats(served, "withdrawn", "Your teacher gave this table new join "
                                                  "codes: join again with your new slip.")
        return codes

    def close_seats(self, served: ServedTable, code: str, text: str) -> None:
        """Tell every connection of the table's seats why, then close it (its
        credential no longer works)."""
        for conns in served.connections.values():
            for conn in list(conns):
                conn.send({"type": "error", "code": code, "error": text})
                if conn.close is not None:
                    conn.close()

    def create_class(self, spec: Any) -> tuple[str, dict[str, str]]:
        """A class list for a lesson: ``{"name": "3b", "students": ["ada", …] or 25,
        "lesson": "what-can-i-know"}`` (the lesson is optional: a lesson slip's short
        address, ``/lesson?code=…``, opens it); one join code per student (a name again
        gets a new code). A number of students for a class that has a list already adds
        that many after the last (``student-31`` on): the students already there keep
        their codes, and each newcomer gets numbers of their own.

        >>> from janus_widgets.table.storage import SQLiteStorage
        >>> hall = Hall(SQLiteStorage(":memory:"), "token-of-the-doctest")
        >>> list(hall.create_class({"name": "7a", "students": 2})[1])
        ['student-1', 'student-2']
        >>> list(hall.create_class({"name": "7a", "students": 1})[1])
        ['student-3']
        """
        if not isinstance(spec, dict) or set(spec) - {"name", "students", "lesson"}:
            raise WireError("bad_request", "a class is {\"name\": …, \"students\": [names] "
                                           "or a number, \"lesson\": its lesson (if any)}")
        lesson = spec.get("lesson", "")
        if not isinstance(lesson, str) or (lesson and not ANSWER_ID.fullmatch(lesson)):
            raise WireError("bad_request", "a class's lesson is a lesson's name (letters, "
                                           "digits and . _ -), as its page's file is named")
        if lesson and self.questions is not None and lesson not in self.questions:
            raise WireError("bad_request", f"no lesson {lesson!r} here: one of "
                                           + ", ".join(sorted(self.questions)))
        name = spec.get("name")
        if not isinstance(name, str) or not 1 <= len(name.strip()) <= 80:
            raise WireError("bad_request", "a class's name is text of 1 to 80 characters")
        students = spec.get("students")
        if isinstance(students, int) and not isinstance(students, bool):
            if not 1 <= students <= 500:
                raise WireError("bad_request", "a class has 1 to 500 students")
            numbered = [int(m.group(1)) for m in map(
                NUMBERED_STUDENT.fullmatch, self.storage.students_of(name.strip())) if m]
            after = max(numbered, default=0)
            names = [f"student-{k}" for k in range(after + 1, after + students + 1)]
        elif isinstance(students, list) and 1 <= len(students) <= 500 and all(
                isinstance(x, str) and re.fullmatch(r"[\w.@+-]{1,80}", x.strip())
                for x in students):
            names = [x.strip() for x in students]
            if len(set(names)) != len(names):
                raise WireError("bad_request", "two students of a class have the same name")
        else:
            raise WireError("bad_request", "students: a list of 1 to 500 names (letters, "
                                           "digits and . @ + - _, up to 80 of them: the "
                                           "ids of the lessons' numbers) or a number")
        codes = self._fresh_codes(names, self.storage.find_student)
        self.storage.add_students(name.strip(), {student: self.storage.hash_code(code)
                                                 for student, code in codes.items()},
                                  lesson)
        return name.strip(), codes

    def lesson_address(self, code: str) -> str:
        """Where a lesson slip's code leads (``/lesson?code=…``): its lesson's page on
        the class's pages, with the code (as the slip's QR code had it before). A
        :class:`WireError` saying why not: no such code (``unknown_code``), or no
        lesson page for it."""
        code = _slip_code(code)
        lesson = self.storage.lesson_of(self.storage.hash_code(code))
        if lesson is None:
            self._join_failed(None)           # in the class's count, as a seat slip's
            raise WireError("unknown_code", "No lesson slip has this code here: check the "
                                            "code and the address on your slip (letters "
                                            "and digits; another class has another "
                                            "address).", 404)
        if not lesson or not self.pages:
            raise WireError("no_lesson", "This code opens no lesson page here: ask your "
                                         "teacher which page to open.", 404)
        fields = {"server": self.public, "code": code}
        if self.pages_key:            # the pages count this student's pages, not an address's
            fields["pass"] = page_pass(self.pages_key, code)
        query = urllib.parse.urlencode(fields)
        return f"{self.pages.rstrip('/')}/voila/render/lessons/{lesson}.ipynb?{query}"

    def join_class(self, code: Any, address: str = "") -> tuple[str, str, str]:
        """``(class, student, credential)`` for a student's lesson code; wrong codes
        count against ``address`` as in :meth:`join`."""
        self._join_allowed(address)
        code = _slip_code(code)
        found = self.storage.find_student(self.storage.hash_code(code))
        if found is None:
            self._join_failed(address)
            raise WireError("unknown_code", f"no student has the code {code!r}: "
                                            "check the slip", 404)
        credential = secrets.token_urlsafe(24)
        self.storage.add_student_credential(Storage.hash_credential(credential), *found,
                                            keep=int(LIMITS["credentials_per_seat"]))
        return found[0], found[1], credential

    def who(self, secret: Any) -> tuple[str, ServedTable | None, int]:
        """``("teacher", None, -1)``, ``("seat", table, seat)``, or WireError."""
        if not isinstance(secret, str) or not secret:
            raise WireError("no_credential", "sign in first: a seat's credential (from "
                                             "joining with a code) or the teacher's token",
                            401)
        digest = Storage.hash_credential(secret)
        if secrets.compare_digest(digest, self._teacher):
            return "teacher", None, -1
        found = self.storage.find_credential(digest, LIMITS["credential_hours"] * 3600)
        if found is None:
            student = self.storage.find_student_credential(
                digest, LIMITS["credential_hours"] * 3600)
            if student is not None:
                return "student", None, -1
            raise WireError("bad_credential", "this credential opens no seat and is not "
                                              "the teacher's token", 401)
        return "seat", self.table(found[0]), found[1]

    def student_of(self, secret: str) -> tuple[str, str]:
        """``(class, student)`` of a student's credential (after :meth:`who` said
        "student")."""
        return self.storage.find_student_credential(Storage.hash_credential(secret)) or \
            ("", "")

    # ------------------------------------------------------------------ playing
    def play(self, served: ServedTable, seat: int, move: Any, client_id: Any) -> dict:
        """A seat's move: checked, played, committed, then acknowledged. A client's move
        id already played is acknowledged again and not played twice."""
        if not isinstance(client_id, str) or not 1 <= len(client_id) <= 64:
            raise WireError("bad_request", "a move needs 'id': the client's move id, text "
                                           "of 1 to 64 characters (a resent move keeps it)")
        if not isinstance(move, str) or not 1 <= len(move) <= 200:
            raise WireError("bad_request", "'move' is the move's notation, as the legal "
                                           "moves list it")
        done = self.storage.find_client_move(served.id, client_id)
        if done is not None:
            return {"type": "ack", "id": client_id, "played": True, "ply": done,
                    "again": True}
        if served.status != "playing":
            raise WireError(served.status, f"not played: {served.status_text()}")
        table = served.table
        state = table.state
        if state.is_over:
            raise WireError("refused", f"not played: the game is over "
                                       f"({state.outcome()}; {table.game.rule_prefix}).")
        turn = state.current_player
        if turn != seat:
            who = "chance" if turn == CHANCE else f"{seat_name(turn)}"
            rule = table.game.Engine.turn_rule
            raise WireError("not_your_turn", f"not played: it is {who}'s turn, not "
                                             f"{seat_name(seat)}'s ({rule}).")
        try:
            parsed = state.parse(move)
        except (IllegalMoveError, InvalidMoveError) as exc:
            raise WireError("refused", f"not played: {self._refusal(exc)}") from None
        if parsed.chance:
            raise WireError("refused", "not played: chance moves are made by the "
                                       "server, from the game's secret seed.")
        ply = table.length
        served._client_ids[ply] = client_id
        try:
            table.play(parsed, by=HUMAN)
        except Exception as exc:  # noqa: BLE001 - sorted below: the move's, or after it
            if served.stored > ply:
                # The move is stored; what failed came after it: a bot (the table is
                # paused, saying why) or storing a bot's move (the table was put back
                # as stored). The move stands: it is acknowledged.
                if not isinstance(exc, StorageError):
                    self.bot_failed(self.tables.get(served.id, served), _error_text(exc))
            elif isinstance(exc, (IllegalMoveError, InvalidMoveError)):
                served._client_ids.clear()
                raise WireError("refused", f"not played: {self._refusal(exc)}") from None
            elif isinstance(exc, StorageError):
                raise WireError("storage", f"not played: the move could not be stored "
                                           f"({exc}); try again", 503) from None
            else:
                raise
        return {"type": "ack", "id": client_id, "played": True, "ply": ply}

    @staticmethod
    def _refusal(exc: Exception) -> str:
        if isinstance(exc, IllegalMoveError):
            return f"{exc.move!r}: {exc.rule}: {exc.reason}"
        return str(exc)

    # ------------------------------------------------------------------ the filter
    def seat_welcome(self, served: ServedTable, seat: int) -> dict[str, Any]:
        """What a seat is told when it signs in: its table's public settings (the
        game, its variant and ruleset, who plays each seat), nothing of the game."""
        row = served.row
        return {"type": "welcome", "role": "seat", "table": served.id,
                "seat": seat_name(seat), "game": row.game, "variant": row.variant,
                "ruleset": row.ruleset, "players": len(row.seats), "seats": list(row.seats),
                "solver": served.solver}

    def _seat_frames(self, served: ServedTable, seat: int) -> list[dict[str, Any]]:
        """What seat ``seat`` was told of each move of its table, made once per move and
        kept (by the table's length): a sync from any move is then a copy, whatever the
        game's length (``Hall.frames`` is emptied when a table is put back)."""
        line = served.table.replay.lines[0]
        kept = self.frames.setdefault((served.id, seat), [])
        if len(kept) > len(line):                 # the table was put back shorter
            del kept[len(line):]
        if len(kept) == len(line):
            return kept
        engine = line.start.engine
        state_type = type(line.start)
        secret = engine.has_secrets
        first = len(kept)
        before = None                  # the seat's view before the move (with secrets)
        for i, raw in zip(range(first, len(line)), line.raws(first, len(line))):
            action = line.actions[i]
            told = engine.observed(raw, action, seat)
            entry = {"ply": i, "seat": engine.current(raw), "by": line.by[i],
                     "told": told, "log": engine.log_entry(raw, action, seat)}
            if secret:
                if before is None:
                    before = engine.view(state_type(engine, raw, seed=0), seat)
                entry["sentence"] = engine.told_sentence(before, told)   # as sentence()
                before = engine.view(state_type(engine, engine.apply(raw, action), seed=0),
                                     seat)
                entry["view"] = engine.view_to_data(before)
            else:
                entry["sentence"] = sentence(engine, raw, action, seat)
            kept.append(entry)
        return kept

    def seat_update(self, served: ServedTable, seat: int, since: int) -> dict[str, Any]:
        """Everything seat ``seat`` is sent about its table from move ``since`` on: the
        one place a seat's messages are made (see the module's docstring)."""
        table = served.table
        line = table.replay.lines[0]
        engine = line.start.engine
        # The server's cursor stays at the end of the one line: its state is at hand.
        state = table.state if table.live else line.state_at(len(line))
        since = max(0, min(since, len(line)))
        secret = engine.has_secrets
        moves = self._seat_frames(served, seat)[since:]
        out: dict[str, Any] = {
            "type": "update", "table": served.id, "status": served.status,
            "note": served.status_text(), "from": since, "length": len(line),
            "moves": moves, "turn": state.current_player,
            "seats": list(served.row.seats),
            "connected": [s for s, conns in sorted(served.connections.items()) if conns],
            "result": {"over": state.is_over, "winners": list(state.winners()),
                       "scores": [float(x) for x in state.scores()],
                       "outcome": state.outcome() if state.is_over else ""},
            "legal": None}
        if since == 0 and secret:
            key = (served.id, seat)
            if key not in self.views0:
                self.views0[key] = engine.view_to_data(engine.view(line.start, seat))
            out["view0"] = self.views0[key]
        if state.current_player == seat and served.status == "playing":
            listed = state.view(seat).legal_moves() if secret else state.legal_moves()
            out["legal"] = [[m.action, m.notation, m.description] for m in listed]
        return out

    def summary(self, served: ServedTable) -> dict[str, Any]:
        """A table at a glance, for the teacher: game, ruleset, whose turn, moves,
        scores, who plays each seat and which seats are connected."""
        state = served.table.state
        cur = state.current_player
        turn = ("over" if cur == TERMINAL else "chance" if cur == CHANCE
                else seat_name(cur))
        return {"id": served.id, "game": served.row.game, "title": served.game.title,
                "ruleset": served.row.ruleset, "variant": served.row.variant,
                "name": (served.row.meta or {}).get("name", ""),
                "solver": served.solver,
                "players": state.num_players, "status": served.status,
                "note": served.status_text(), "turn": turn,
                "moves": served.stored, "scores": [float(x) for x in state.scores()],
                "outcome": state.outcome() if state.is_over else "",
                "seats": [{"seat": seat_name(s), "who": who,
                           "connected": len(served.connections.get(s, ()))}
                          for s, who in enumerate(served.row.seats)],
                "created": served.row.created}

    def teacher_moves(self, served: ServedTable, since: int) -> dict[str, Any]:
        """The moves of a table from ``since`` for a teacher watching it (the full
        record's moves and the teacher's log)."""
        line = served.table.replay.lines[0]
        engine = line.start.engine
        since = max(0, min(since, len(line)))
        moves = [{"ply": i, "move": engine.notation(raw, line.actions[i]),
                  "seat": engine.current(raw), "by": line.by[i],
                  "log": engine.log_entry(raw, line.actions[i], None)}
                 for i, raw in zip(range(since, len(line)), line.raws(since, len(line)))]
        return {"type": "moves", "table": served.id, "from": since, "moves": moves}

    # ------------------------------------------------------------------ seat pages
    def mirror(self, served: ServedTable, seat: int) -> SeatMirror:
        """What seat ``seat`` of ``served`` knows, up to date: built from the seat's
        own welcome and updates (the filter every seat's connection gets)."""
        key = (served.id, seat)
        mirror = self.mirrors.get(key)
        if mirror is None:
            mirror = self.mirrors[key] = SeatMirror()
            mirror.take(self.seat_welcome(served, seat))
        self.feed(served, seat, mirror)
        return mirror

    def feed(self, served: ServedTable, seat: int, mirror: SeatMirror) -> bool:
        """Bring a seat's mirror up to date; returns whether its game moved."""
        return mirror.take(self.seat_update(served, seat, mirror.length))

    def page_screen(self, conn: Connection) -> dict[str, Any]:
        """The screen of a web seat page now."""
        assert conn.page is not None
        return conn.page.screen()

    # ------------------------------------------------------------------ pushing
    def broadcast(self, served: ServedTable) -> None:
        """Send every connection of the table what it has not seen (a web seat page:
        its screen, made from its seat's mirror fed once), and every teacher the
        table's summary."""
        for seat, conns in served.connections.items():
            pages = [c for c in conns if c.page is not None]
            if pages:
                mirror = self.mirrors.get((served.id, seat)) or self.mirror(served, seat)
                moved = self.feed(served, seat, mirror)
                for conn in pages:
                    conn.page.news(moved)
                    conn.send(conn.page.screen())
            for conn in list(conns):
                if conn.page is None:
                    self.send_seat(conn, served, seat)
        summary = {"type": "table", "table": self.summary(served)}
        for conn in list(self.teachers):
            conn.send(summary)
            if served.id in conn.watching:
                self.send_watch(conn, served)

    def send_seat(self, conn: Connection, served: ServedTable, seat: int) -> None:
        if conn.page is not None:
            self.feed(served, seat, conn.page.mirror)
            conn.send(conn.page.screen())
            return
        update = self.seat_update(served, seat, conn.sent)
        conn.sent = update["length"]
        conn.send(update)

    def send_watch(self, conn: Connection, served: ServedTable) -> None:
        sent = conn.watch_sent.get(served.id, 0)
        msg = self.teacher_moves(served, sent)
        conn.watch_sent[served.id] = sent + len(msg["moves"])
        if msg["moves"] or not sent:
            conn.send(msg)

    def attach(self, conn: Connection, served: ServedTable, seat: int) -> None:
        """A seat's connection signed in: it is sent its update (or screen) now; the
        others of the table only learn who is connected (:meth:`presence`)."""
        served.connections.setdefault(seat, set()).add(conn)
        if conn.page is not None:
            self.feed(served, seat, conn.page.mirror)
            conn.send(conn.page.signed_in())
        else:
            self.send_seat(conn, served, seat)
        self.presence(served)

    def presence(self, served: ServedTable) -> None:
        """Tell the table's connections and the teachers who is connected, at most every
        ``presence_every`` seconds however often pages come and go (a student
        reconnecting in a loop costs the others one small message now and then, never a
        new screen: a click on the board stays good)."""
        loop = self._loop()
        if loop is None:
            self._send_presence(served)
            return
        if served.id in self._presence_due:
            return
        self._presence_due.add(served.id)

        def flush() -> None:
            self._presence_due.discard(served.id)
            if self.tables.get(served.id) is served:
                self._send_presence(served)
        loop.call_later(LIMITS["presence_every"], flush)

    def _send_presence(self, served: ServedTable) -> None:
        for seat, conns in served.connections.items():
            for conn in list(conns):
                if conn.page is None:
                    self.send_seat(conn, served, seat)      # an update with no moves
                else:
                    self.feed(served, seat, conn.page.mirror)
                    conn.send({"type": "presence", "seats": S.seats(conn.page.mirror)})
        summary = {"type": "table", "table": self.summary(served)}
        for conn in list(self.teachers):
            conn.send(summary)

    def detach(self, conn: Connection) -> None:
        self.teachers.discard(conn)
        mine = self.sockets.get(conn.credential)
        if mine is not None:
            mine.discard(conn)
            if not mine:
                del self.sockets[conn.credential]
        if conn.role == "seat" and conn.table_id in self.tables:
            served = self.tables[conn.table_id]
            served.connections.get(conn.seat, set()).discard(conn)
            self.presence(served)

    # ------------------------------------------------------------------ answers
    def answer_allowed(self, student: str) -> None:
        """:class:`WireError` ``rate_limit`` (429) if ``student`` has sent
        ``answers_per_minute`` answers in the last minute."""
        wait = self._answers_sent.wait(student)
        if wait:
            raise WireError("rate_limit", f"too many answers: at most "
                                          f"{LIMITS['answers_per_minute']} a minute from "
                                          f"one student; wait {wait} s", 429)

    def count_answer(self, student: str) -> None:
        """Count one answer of ``student`` against ``answers_per_minute`` (429 past it),
        before the work it costs is done."""
        self.answer_allowed(student)
        self._answers_sent.add(student)

    def answer_fields(self, data: Any) -> tuple[str, str, str]:
        """``(lesson, question, answer)`` of an answer as a page sent it (the answer as
        text), or :class:`WireError` ``bad_request`` naming the field that is wrong."""
        if not isinstance(data, dict):
            raise WireError("bad_request", "an answer is an object: "
                                           + ", ".join(ANSWER_FIELDS))
        extra = sorted(set(data) - set(ANSWER_FIELDS))
        if extra:
            raise WireError("bad_request", f"unknown field {extra[0]!r} of an answer; the "
                                           f"fields are {', '.join(ANSWER_FIELDS)}")
        lesson, question = _answer_id(data, "lesson"), _answer_id(data, "question")
        if self.questions is not None:
            if lesson not in self.questions:
                raise WireError("bad_request", f"no lesson {lesson!r} is taught here; the "
                                               "lessons are "
                                               + ", ".join(sorted(self.questions)))
            if question not in self.questions[lesson]:
                raise WireError("bad_request", f"lesson {lesson!r} has no question "
                                               f"{question!r}; its questions are "
                                               + ", ".join(sorted(self.questions[lesson])))
        return lesson, question, _answer_text(data, "answer")

    def add_answer(self, student: str, data: Any) -> AnswerRow:
        """Keep one exercise check a student's lesson page sent, with the page's own
        verdict; ``student`` is who sent it, as the server knows them (a class list's
        name, or a seat: "t1/A"). A student sends at most ``answers_per_minute`` (then
        429). (The server's ``POST /api/answers`` checks the answer again when it has
        an :attr:`answer_check`.)"""
        self.answer_allowed(student)
        row = self.keep_answer(student, *self.answer_fields(data), *_page_verdict(data))
        self._answers_sent.add(student)
        return row

    def keep_answer(self, student: str, lesson: str, question: str, answer: str,
                    verdict: str, mistake: str) -> AnswerRow:
        """Store one check; the teachers are sent each, with ``tries``: how many checks
        of its kind (student, question, verdict, mistake) there are now (see
        :meth:`answers`)."""
        row = AnswerRow(lesson=lesson, question=question, student=student, answer=answer,
                        verdict=verdict, mistake=mistake, at=time.time())
        self.storage.add_answer(row)
        kind = _answer_kind(row)
        self._answer_kinds[kind] = self._answer_kinds.get(kind, 0) + 1
        tries = self._answer_kinds[kind]           # a repeat is news of its count only
        for conn in list(self.teachers):
            conn.send({"type": "answer", "answer": {**row.__dict__, "tries": tries}})
        return row

    def own_answers(self, student: str, lesson: str) -> list[dict[str, str]]:
        """``student``'s last check of each question of ``lesson`` (the answer as sent;
        the page checks it again for its verdict), in the order they were last
        checked: what their reloaded page shows again. Nothing of another student's.

        >>> from janus_widgets.table.storage import SQLiteStorage
        >>> hall = Hall(SQLiteStorage(":memory:"), "token-of-the-doctest")
        >>> for who, question, answer in [("3b/ada", "q1", "1/36"), ("3b/bo", "q1", "1/6"),
        ...                               ("3b/ada", "q2", "5"), ("3b/ada", "q1", "1/18")]:
        ...     _ = hall.add_answer(who, {"lesson": "l", "question": question,
        ...                               "answer": answer, "verdict": "wrong"})
        >>> [(a["question"], a["answer"]) for a in hall.own_answers("3b/ada", "l")]
        [('q2', '5'), ('q1', '1/18')]
        """
        last: dict[str, dict[str, str]] = {}
        for row in self.storage.answers_of(student, lesson):
            last.pop(row.question, None)
            last[row.question] = {"question": row.question, "answer": row.answer}
        return list(last.values())

    def answers(self, lesson: str | None = None, every: bool = False
                ) -> list[dict[str, Any]]:
        """The class's checks (of one lesson) for the teacher's tally: one row per
        student, question, verdict and mistake, the first sent, with ``tries``: how
        many such checks the student sent. A mistake counted over these rows counts
        students, not clicks. ``every``: every check as sent (``tries`` 1 each).

        >>> from janus_widgets.table.storage import SQLiteStorage
        >>> hall = Hall(SQLiteStorage(":memory:"), "token-of-the-doctest")
        >>> for _ in range(3):
        ...     _ = hall.add_answer("3b/ada", {"lesson": "l", "question": "q1", "answer":
        ...                         "1/36", "verdict": "wrong", "mistake": "one order"})
        >>> [(a["student"], a["mistake"], a["tries"]) for a in hall.answers()]
        [('3b/ada', 'one order', 3)]
        >>> len(hall.answers(every=True))
        3
        """
        rows = self.storage.answers(lesson)
        if every:
            return [{**row.__dict__, "tries": 1} for row in rows]
        first: dict[tuple[str, ...], dict[str, Any]] = {}
        for row in rows:
            kind = _answer_kind(row)
            if kind in first:
                first[kind]["tries"] += 1
            else:
                first[kind] = {**row.__dict__, "tries": 1}
        return list(first.values())


    # ------------------------------------------------------------------ experiments
    def set_throws(self, student: str, experiment: str, data: Any) -> dict[str, Any]:
        """Keep ``student``'s tally of a class experiment (``{"tally": {face: count}}``:
        the student's throws so far, replacing their last tally, so each student's
        throws count once); the teachers are sent the experiment's new summary. A face
        the die cannot show, or a count that is no whole number, is refused (400).
        With ``"was"`` (the tally the page last knew the server held; ``null``: none) it
        replaces only that: a tally the teacher cleared meanwhile is refused (409,
        ``changed``), so a page's late send cannot bring cleared throws back.

        >>> from janus_widgets.table.storage import SQLiteStorage
        >>> hall = Hall(SQLiteStorage(":memory:"), "token-of-the-doctest")
        >>> _ = hall.set_throws("3b/ada", "talus", {"tally": {"1": 2}, "was": None})
        >>> _ = hall.clear_throws("talus", "3b/ada")
        >>> hall.set_throws("3b/ada", "talus", {"tally": {"1": 3}, "was": {"1": 2}})
        Traceback (most recent call last):
        ...
        janus_widgets.table.server.WireError: your tally changed on the server (your teacher cleared it, or your page on another computer sent more) since your page last read it: read it again, then send
        """
        from .throws import FACES, check_tally
        wait = self._throws_sent.wait(student)
        if wait:
            raise WireError("rate_limit", f"too many tallies: at most "
                                          f"{LIMITS['answers_per_minute']} a minute from "
                                          f"one student; wait {wait} s", 429)
        if not isinstance(data, dict) or "tally" not in data or set(data) - {"tally", "was"}:
            raise WireError("bad_request", "a tally is sent as {\"tally\": {face: count}}"
                                           ", with \"was\": the tally last read (or null)")
        try:
            tally = check_tally(experiment, data["tally"])
        except ValueError as exc:
            raise WireError("bad_request", str(exc)) from None
        try:
            was = None if data.get("was") is None else check_tally(experiment, data["was"])
        except ValueError as exc:
            raise WireError("bad_request", f'"was" (the tally last read, or null): {exc}') \
                from None
        self._throws_sent.add(student)       # a refused send counts too: read, then send
        if "was" in data:
            held = next((json.loads(t) for who, t, _ in self.storage.throws(experiment)
                         if who == student), None)
            zero = dict.fromkeys(FACES[experiment], 0)      # both are whole tallies
            if (held or zero) != (was or zero):
                raise WireError("changed", "your tally changed on the server (your teacher "
                                           "cleared it, or your page on another computer "
                                           "sent more) since your page last read it: read "
                                           "it again, then send", 409)
        self.storage.set_throws(experiment, student, json.dumps(tally), time.time())
        summary = self.experiment(experiment)
        for conn in list(self.teachers):
            conn.send({"type": "experiment", "experiment": summary})
        return summary

    def experiment(self, experiment: str, student: str | None = None,
                   teacher: bool = True) -> dict[str, Any]:
        """A class experiment's pooled tally (``pooled``, ``throws``, ``students``: how
        many sent one), the tally of ``student`` (``mine``), and for the teacher every
        student's (``tallies``).

        >>> from janus_widgets.table.storage import SQLiteStorage
        >>> hall = Hall(SQLiteStorage(":memory:"), "token-of-the-doctest")
        >>> _ = hall.set_throws("3b/ada", "talus", {"tally": {"1": 2, "3": 5}})
        >>> _ = hall.set_throws("3b/ada", "talus", {"tally": {"1": 3, "3": 5}})  # replaces
        >>> _ = hall.set_throws("3b/bo", "talus", {"tally": {"6": 4}})
        >>> e = hall.experiment("talus")
        >>> e["pooled"], e["throws"], e["students"]
        ({'1': 3, '3': 5, '4': 0, '6': 4}, 12, 2)
        """
        from .throws import FACES, pooled
        if experiment not in FACES:
            raise WireError("not_found", f"no experiment {experiment!r}; the experiments "
                                         f"are {', '.join(sorted(FACES))}", 404)
        rows = [(who, json.loads(tally), at) for who, tally, at
                in self.storage.throws(experiment)]
        total = pooled(experiment, [t for _, t, _ in rows])
        out: dict[str, Any] = {"experiment": experiment, "faces": list(FACES[experiment]),
                               "pooled": total, "throws": sum(total.values()),
                               "students": len(rows)}
        if student is not None:
            out["mine"] = next((t for who, t, _ in rows if who == student), None)
        if teacher:
            out["tallies"] = [{"student": who, "tally": t, "at": at} for who, t, at in rows]
        return out

    def clear_throws(self, experiment: str, student: str) -> dict[str, Any]:
        """The teacher removes a student's tally (a mistaken entry); 404 if there is
        none."""
        summary = self.experiment(experiment)
        if not self.storage.clear_throws(experiment, student):
            raise WireError("not_found", f"no tally of {student!r} in the experiment "
                                         f"{experiment!r}", 404)
        summary = self.experiment(experiment)
        for conn in list(self.teachers):
            conn.send({"type": "experiment", "experiment": summary})
        return summary


def _error_text(exc: BaseException) -> str:
    """An exception in a few words: ``"ValueError: no such move"``."""
    return f"{type(exc).__name__}: {exc}"[:300]


def _answer_text(data: dict[str, Any], name: str) -> str:
    """Field ``name`` of an answer as text, bidi controls dropped, at most
    ``answer_chars`` characters (:class:`WireError` otherwise)."""
    value = data.get(name, "")
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        raise WireError("bad_request", f"answer field {name!r} is text")
    value = BIDI_CONTROLS.sub("", str(value))
    if len(value) > LIMITS["answer_chars"]:
        raise WireError("bad_request", f"answer field {name!r} is at most "
                                       f"{LIMITS['answer_chars']} characters")
    return value


def _answer_id(data: dict[str, Any], name: str) -> str:
    """Field ``name`` of an answer, a lesson's or a question's id (:data:`ANSWER_ID`)."""
    value = data.get(name)
    if not isinstance(value, str) or not ANSWER_ID.fullmatch(value):
        raise WireError("bad_request", f"answer field {name!r} is the {name}'s id: 1 to 64 "
                                       f"letters, digits and . _ - (got {str(value)[:70]!r})")
    return value


def _page_verdict(data: dict[str, Any]) -> tuple[str, str]:
    """The verdict and mistake a page sent with its answer."""
    verdict = _answer_text(data, "verdict")
    if verdict not in ("right", "wrong", "invalid"):
        raise WireError("bad_request", "verdict is 'right', 'wrong' or 'invalid'")
    return verdict, _answer_text(data, "mistake")


def _answer_kind(row: AnswerRow) -> tuple[str, ...]:
    """What makes two checks the same for the tally: the student, the question, the
    verdict and the mistake matched."""
    return (row.lesson, row.question, row.student, row.verdict, row.mistake)


# ---------------------------------------------------------------------- HTTP
async def answer_late(hall: Hall) -> None:
    """Wait before answering a wrong join code while the class as a whole makes many
    (see :meth:`Hall.wrong_code_delay`); too many late answers waiting already:
    :class:`WireError` ``rate_limit`` at once."""
    delay = hall.wrong_code_delay()
    if not delay:
        return
    if hall.slow_answers >= LIMITS["slow_wrong_codes"]:
        raise WireError("rate_limit", "too many wrong join codes on this server just "
                                      "now: check the code on your slip and try again "
                                      "in a few seconds", 429)
    hall.slow_answers += 1
    try:
        await asyncio.sleep(delay)
    finally:
        hall.slow_answers -= 1


def page_client(given: Any, address: str) -> str:
    """Whose wrong codes a join's are: the page's own id (8 to 64 letters, digits, -
    and _), else its network address (one school's pages may share an address: a
    page's id keeps one page's mistakes its own).

    >>> page_client("a1b2c3d4e5", "10.0.0.7"), page_client("<x>", "10.0.0.7")
    ('page:a1b2c3d4e5', 'address:10.0.0.7')
    """
    if isinstance(given, str) and re.fullmatch(r"[A-Za-z0-9_-]{8,64}", given):
        return "page:" + given
    return "address:" + (address or "")


class _UnderPolicy:
    """A handler whose every answer, errors too, carries :data:`SECURITY_HEADERS`."""

    def set_default_headers(self) -> None:
        request = self.request  # type: ignore[attr-defined]
        for name, value in answer_headers(request.protocol, request.host_name).items():
            self.set_header(name, value)  # type: ignore[attr-defined]
        self.clear_header("Server")  # type: ignore[attr-defined]  # no version to read


def answer_headers(scheme: str, host: str) -> dict[str, str]:
    """:data:`SECURITY_HEADERS` as an answer at ``scheme://host`` carries them:
    ``Cross-Origin-Opener-Policy`` only where the browser heeds it (elsewhere it says so
    as an error in every page's console: a class at the laptop's plain HTTP address).

    >>> "Cross-Origin-Opener-Policy" in answer_headers("http", "192.168.1.20")
    False
    """
    heeded = trustworthy(scheme, host)
    return {name: value for name, value in SECURITY_HEADERS.items()
            if heeded or name != "Cross-Origin-Opener-Policy"}


def trustworthy(scheme: str, host: str) -> bool:
    """Whether a browser holds a page at ``scheme://host`` a secure context (HTTPS, or
    this machine itself), where it heeds ``Cross-Origin-Opener-Policy``.

    >>> trustworthy("http", "127.0.0.1"), trustworthy("http", "192.168.1.20")
    (True, False)
    >>> trustworthy("https", "192.168.1.20"), trustworthy("http", "class.localhost")
    (True, True)
    >>> trustworthy("http", "127.example.com"), trustworthy("http", "::1")
    (False, True)
    """
    host = host.lower().strip("[]")
    if scheme == "https" or host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:                           # a name: 127.example.com is not us
        return False


class _Handler(_UnderPolicy, tornado.web.RequestHandler):
    hall: Hall

    def initialize(self, hall: Hall) -> None:
        self.hall = hall

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.set_header("Cache-Control", "no-store")

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        exc = kwargs.get("exc_info", (None, None))[1]
        if isinstance(exc, WireError):
            self.finish(json.dumps(exc.message()))
        elif isinstance(exc, tornado.web.HTTPError):
            self.finish(json.dumps({"type": "error", "code": "http",
                                    "error": exc.log_message or self._reason}))
        else:
            self.finish(json.dumps({"type": "error", "code": "server",
                                    "error": "the server failed on this request; see its "
                                             "log"}))

    def _handle_request_exception(self, e: BaseException) -> None:
        if isinstance(e, WireError):
            self.set_status(e.status)
            self.set_header("Content-Type", "application/json; charset=utf-8")
            self.finish(json.dumps(e.message()))
            return
        super()._handle_request_exception(e)

    def credential(self) -> str:
        header = self.request.headers.get("Authorization", "")
        if header.startswith("Bearer "):
            return header[len("Bearer "):].strip()
        return ""

    def teacher(self) -> None:
        role, _, _ = self.hall.who(self.credential())
        if role != "teacher":
            raise WireError("teacher_only", "only the teacher's token may do this", 403)

    def students_page(self) -> tuple[str, str | None] | None:
        """The student whose page sent this, if a student's page did: ``(who, whose
        numbers the page drew)``, a class list's ``class/name`` and the name, or a
        seat's ``table/seat`` and ``None`` (the class's numbers); ``None`` for the
        teacher."""
        secret = self.credential()
        role, served, seat = self.hall.who(secret)
        if role == "student":
            class_name, name = self.hall.student_of(secret)
            return f"{class_name}/{name}", name
        if role == "seat" and served is not None:
            return f"{served.id}/{seat_name(seat)}", None
        return None

    def body(self) -> Any:
        kind = self.request.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if self.request.body and kind != "application/json":
            # A form or text/plain body is what a page of another site can send without
            # asking: only our own clients send JSON.
            raise WireError("bad_request", "a request body is JSON, sent as "
                                           "Content-Type: application/json", 415)
        if len(self.request.body) > LIMITS["body_bytes"]:    # a backstop: _Spoke refuses
            raise WireError("too_big", f"a request body is at most {LIMITS['body_bytes']} "
                                       "bytes", 413)
        if not self.request.body:
            return {}
        try:
            return wire_json(self.request.body)
        except (ValueError, RecursionError):
            raise WireError("bad_json", "the request body is not valid JSON text (nor "
                                        "any half of a \\u surrogate pair alone)") from None

    def code(self) -> Any:
        """The join code of a body ``{"code": "…"}`` (what a slip gives; a page may add
        ``"client"``, its own random id, by which its wrong codes are counted)."""
        data = self.body()
        if not isinstance(data, dict) or set(data) - {"code", "client"}:
            raise WireError("bad_request", "join with {\"code\": \"…\"}: the code on "
                                           "the slip")
        self._client = data.get("client")
        return data.get("code")

    def client(self) -> str:
        """Whose wrong codes these are: the page's own id (``client`` in the body, 8 to
        64 letters, digits, - and _), else its network address (one school's pages may
        share an address: a page's id keeps one page's mistakes its own)."""
        return page_client(getattr(self, "_client", None), self.request.remote_ip or "")

    async def late(self, exc: WireError) -> None:
        """Answer a wrong code late while the class as a whole makes many (see
        :func:`answer_late`)."""
        await answer_late(self.hall)

    def reply(self, data: Any, status: int = 200) -> None:
        self.set_status(status)
        self.finish(json.dumps(data))


class RootHandler(_Handler):
    def get(self) -> None:
        self.reply({"name": "janus_widgets table server", "games": game_registry.names(),
                    "pages": self.hall.pages, "server": self.hall.public,
                    "docs": "docs/classroom-server.md"})


class StatusHandler(_Handler):
    def get(self) -> None:
        self.reply({"ok": True, "tables": len(self.hall.tables)})


class TablesHandler(_Handler):
    def get(self) -> None:
        self.teacher()
        self.reply({"tables": [self.hall.summary(t) for t in self.hall.tables.values()]})

    def post(self) -> None:
        self.teacher()
        served, codes = self.hall.create_table(self.body())
        self.reply({"id": served.id, "codes": codes, "table": self.hall.summary(served)},
                   201)


class TableHandler(_Handler):
    def get(self, table_id: str) -> None:
        self.teacher()
        self.reply(self.hall.summary(self.hall.table(table_id)))


class RecordHandler(_Handler):
    def get(self, table_id: str) -> None:
        self.teacher()
        served = self.hall.table(table_id)
        record = served.table.replay.record(table=served.id)
        self.reply(record.to_dict())


class StatusChangeHandler(_Handler):
    def post(self, table_id: str, action: str) -> None:
        self.teacher()
        served = self.hall.table(table_id)
        self.hall.set_status(served, {"pause": "paused", "resume": "playing",
                                      "end": "ended"}[action])
        self.reply(self.hall.summary(served))


class JoinHandler(_Handler):
    async def post(self) -> None:
        try:
            served, seat, credential = self.hall.join(self.code(), self.client())
        except WireError as exc:
            if exc.code == "unknown_code":
                await self.late(exc)
            raise
        self.reply({"table": served.id, "seat": seat_name(seat), "credential": credential,
                    "game": served.row.game})


class AnswersHandler(_Handler):
    def get(self) -> None:
        """The teacher: the class's checks (``?lesson=``, ``?every=1``). A student's
        page (its credential): its own last check of each question of ``?lesson=``,
        which a reloaded page shows again; counted with the student's answers."""
        lesson = self.get_query_argument("lesson", None)
        if lesson is not None and not ANSWER_ID.fullmatch(lesson):
            raise WireError("bad_request", "?lesson= is a lesson's id: 1 to 64 letters, "
                                           "digits and . _ -")
        page = self.students_page()
        if page is not None:
            if lesson is None:
                raise WireError("teacher_only", "only the teacher's token reads the "
                                                "class's answers; a student's page reads "
                                                "its own, of one lesson: ?lesson=", 403)
            self.hall.count_answer(page[0])
            self.reply({"answers": self.hall.own_answers(page[0], lesson)})
            return
        self.teacher()
        every = self.get_query_argument("every", "") in ("1", "true", "yes")
        self.reply({"answers": self.hall.answers(lesson, every)})

    def student(self) -> tuple[str, str | None]:
        """Who sends a check (:meth:`_Handler.students_page`);
        :class:`WireError` ``student_only`` for any other credential."""
        page = self.students_page()
        if page is None:
            raise WireError("student_only", "answers are sent by a student's page (a "
                                            "student's or a seat's credential)", 403)
        return page

    async def post(self) -> None:
        student, numbers_of = self.student()
        hall = self.hall
        data = self.body()
        # counted now, before the check's work: answers sent at once wait for no check
        # to be counted, so a flood is refused before it costs the server anything
        hall.count_answer(student)
        lesson, question, answer = hall.answer_fields(data)
        if hall.answer_check is None:
            verdict, mistake = _page_verdict(data)
        else:
            # The tally keeps the server's verdict, not the page's: a student with their
            # code can send the API any verdict. Drawing a student's exercises takes up
            # to a tenth of a second: on a worker thread, not the server's loop.
            loop = asyncio.get_running_loop()
            try:
                verdict, mistake = await loop.run_in_executor(
                    None, hall.answer_check, lesson, question, numbers_of, answer)
            except Exception:  # noqa: BLE001 - a check that fails keeps no verdict
                log.error("checking an answer failed:\n%s", traceback.format_exc())
                raise WireError("server", "the server could not check this answer; see "
                                          "its log", 500) from None
        row = hall.keep_answer(student, lesson, question, answer, verdict, mistake)
        self.reply({"type": "ok", "student": row.student}, 201)


class ExperimentHandler(_Handler):
    """A class experiment: a student's page sends its tally (POST) and reads the pooled
    counts (GET, with its own tally); the teacher reads every tally (GET) and clears a
    mistaken one (DELETE ``?student=class/name``)."""

    def student(self) -> str | None:
        page = self.students_page()
        if page is not None:
            return page[0]
        if self.hall.who(self.credential())[0] == "teacher":
            return None
        raise WireError("student_only", "an experiment's tallies are sent and read by a "
                                        "student's page or the teacher", 403)

    def get(self, experiment: str) -> None:
        student = self.student()
        self.reply(self.hall.experiment(experiment, student, teacher=student is None))

    def post(self, experiment: str) -> None:
        student = self.student()
        if student is None:
            raise WireError("student_only", "a tally is sent by a student's page", 403)
        self.hall.set_throws(student, experiment, self.body())
        self.reply(self.hall.experiment(experiment, student, teacher=False), 201)

    def delete(self, experiment: str) -> None:
        self.teacher()
        student = self.get_query_argument("student", "")
        if not student:
            raise WireError("bad_request", "say whose tally to clear: ?student=class/name")
        self.reply(self.hall.clear_throws(experiment, student))


class ClassesHandler(_Handler):
    def post(self) -> None:
        self.teacher()
        name, codes = self.hall.create_class(self.body())
        self.reply({"class": name, "codes": codes}, 201)


class JoinClassHandler(_Handler):
    async def post(self) -> None:
        try:
            class_name, student, credential = self.hall.join_class(self.code(),
                                                                   self.client())
        except WireError as exc:
            if exc.code == "unknown_code":
                await self.late(exc)
            raise
        self.reply({"class": class_name, "student": student, "credential": credential})


class CodesHandler(_Handler):
    def post(self, table_id: str) -> None:
        self.teacher()
        served = self.hall.table(table_id)
        data = self.body()
        withdraw = data.get("withdraw", False) if isinstance(data, dict) else None
        if not isinstance(withdraw, bool):
            raise WireError("bad_request", "new codes take {\"withdraw\": true or false}: "
                                           "whether the credentials handed out stop working")
        self.reply({"id": served.id, "codes": self.hall.new_codes(served, withdraw)})


class SocketHandler(_UnderPolicy, tornado.websocket.WebSocketHandler):
    """One WebSocket: sign in with ``hello``, then a seat's or the teacher's messages."""

    def initialize(self, hall: Hall) -> None:
        self.hall = hall
        self.conn = Connection(send=self._send, close=lambda: self.close(4001, "ended"))
        self.unsent = 0          # bytes written to this socket and not yet sent on

    def check_origin(self, origin: str) -> bool:
        """Python clients send no ``Origin``; a browser's page must be ours: the seat
        page this server serves (the same host and port) or the class's pages (Voila),
        never another site's (a page elsewhere could otherwise open sockets here from
        every visitor's browser)."""
        if not origin:
            return True
        parsed = urllib.parse.urlparse(origin)
        host = self.request.headers.get("Host", "")
        if parsed.netloc and parsed.netloc.lower() == host.lower():
            return True
        pages = urllib.parse.urlparse(self.hall.pages) if self.hall.pages else None
        return bool(pages and pages.netloc and parsed.netloc.lower() == pages.netloc.lower())

    def open(self, *args: Any, **kwargs: Any) -> None:
        """A socket that has not signed in within ``hello_seconds`` is closed (sockets
        that never sign in would otherwise hold the server's connections). Its small
        messages go out at once (``TCP_NODELAY``, as tornado advises for them): with
        Nagle's algorithm a screen sent right after the welcome waited for the page's
        delayed acknowledgement, 40 ms on Linux."""
        self.set_nodelay(True)
        loop = tornado.ioloop.IOLoop.current()
        loop.call_later(LIMITS["hello_seconds"], self._hello_deadline)
        # Over ``waiting_connections`` sockets not signed in, the oldest are closed:
        # one student opening sockets by the thousand must not use up the server's
        # files (a page signs in within milliseconds of opening its socket).
        for socket in self.hall.unsigned.add(self):
            if socket.ws_connection is not None:
                socket.close(1008, "sign in with hello first")

    def _hello_deadline(self) -> None:
        # Not signed in by now: no hello, or one that was refused (a wrong credential
        # or code): either would hold one of the server's connections for ever.
        self.hall.unsigned.discard(self)
        if not self.conn.role and self.ws_connection is not None:
            self.close(1008, "sign in with hello first")

    def _send(self, data: dict[str, Any]) -> None:
        if self.ws_connection is None or self.ws_connection.is_closing():
            self.hall.detach(self.conn)
            return
        text = message_text(data)
        try:
            sent = self.write_message(text)
        except tornado.websocket.WebSocketClosedError:
            self.hall.detach(self.conn)
            return
        size = len(text)
        self.unsent += size

        def done(future: asyncio.Future) -> None:
            self.unsent -= size
            future.exception()   # a socket closed meanwhile fails quietly (never logged)
        sent.add_done_callback(done)
        # A page that reads nothing of what it is sent (a script asking for pictures
        # and never reading them) would have tornado keep every byte: past the limit it
        # is closed, and what it was sent goes when tornado gives up waiting for its
        # answer (5 s). The teacher's own connection is trusted with its bursts.
        if self.unsent > LIMITS["unsent_bytes"] and self.conn.role != "teacher":
            log.warning("closed a socket of %s that had %d bytes it did not read",
                        self.conn.role or "a page not signed in", self.unsent)
            self.close(1008, "this socket read nothing of what it was sent")

    def _allowed(self) -> bool:
        """Take one message from the budget: the credential's, shared by its sockets
        (a seat's or a student's), else this connection's (the teacher, or before
        hello)."""
        conn = self.conn
        if conn.credential and conn.role in ("seat", "student"):
            budget = self.hall.credential_messages.get(conn.credential)
            if budget is None:
                budget = self.hall.credential_messages[conn.credential] = Budget(
                    LIMITS["per_second"], LIMITS["burst"], time.monotonic)
            return budget.take(1)
        return conn.allow()

    def on_message(self, message: str | bytes) -> None:
        conn = self.conn
        if self.ws_connection is None or self.ws_connection.is_closing():
            # Closed by the server (a withdrawn or retired credential, an ended table):
            # tornado still reads until the other side's close frame or 5 s have
            # passed, and a page that never answers the close must not act meanwhile.
            return
        if not self._allowed():
            now = time.monotonic()
            if now - conn.warned > 1.0:
                conn.warned = now
                self._send(WireError("rate_limit", f"too many messages: at most "
                                                   f"{LIMITS['per_second']:g} a second "
                                                   f"({LIMITS['burst']} at once); this one "
                                                   "was dropped").message())
            return
        try:
            self._handle(message)
        except WireError as exc:
            data = self._parsed if isinstance(getattr(self, "_parsed", None), dict) else {}
            extra = {"id": data["id"]} if isinstance(data.get("id"), str) else {}
            self._send(exc.message(**extra))
        except Exception:  # noqa: BLE001 - one bad message must not end the connection
            log.error("message failed:\n%s", traceback.format_exc())
            self._send({"type": "error", "code": "server",
                        "error": "the server failed on this message; see its log"})

    def _handle(self, message: str | bytes) -> None:
        self._parsed = None
        if isinstance(message, bytes):
            raise WireError("bad_message", "messages are JSON text, not binary frames")
        if len(message.encode()) > LIMITS["message_bytes"]:
            raise WireError("too_big", f"a message is at most {LIMITS['message_bytes']} "
                                       "bytes")
        try:
            data = wire_json(message)
        except (ValueError, RecursionError):
            raise WireError("bad_json", "the message is not valid JSON text (nor any half "
                                        "of a \\u surrogate pair alone)") from None
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise WireError("bad_message", "a message is a JSON object with a 'type'")
        self._parsed = data
        kind = data["type"]
        hall, conn = self.hall, self.conn
        if kind == "ping":
            self._send({"type": "pong"})
            return
        if kind == "hello":
            self._hello(data)
            return
        known = {"sync", "play", "watch", "unwatch", *PAGE_MESSAGES}
        if kind not in known:
            raise WireError("unknown_type", f"unknown message type {kind!r}; the types are "
                                            "hello, ping, sync, play (a seat), watch and "
                                            "unwatch (the teacher), and a seat page's "
                                            + ", ".join(sorted(PAGE_MESSAGES)))
        if not conn.role:
            raise WireError("no_credential", "sign in first: send hello with a "
                                             "credential or the teacher's token")
        if conn.role == "student":
            raise WireError("seat_only", f"{kind} is a seat's or the teacher's message; a "
                                         "student's lesson page only sends answers "
                                         "(POST /api/answers)")
        if conn.page is not None:
            hall.charge(conn, LIMITS["work_per_screen"])
            self._page_message(kind, data)
            return
        if kind in PAGE_MESSAGES:
            raise WireError("page_only", f"{kind} is a seat page's message: sign in with "
                                         "hello and \"screen\": true")
        if kind in ("sync", "play"):
            if conn.role != "seat":
                raise WireError("seat_only", f"{kind} is a seat's message; the teacher "
                                             "watches tables (watch)")
            served = hall.tables[conn.table_id]
            if "seat" in data and data["seat"] != seat_name(conn.seat):
                raise WireError("wrong_seat", f"this connection is seat "
                                              f"{seat_name(conn.seat)}'s; it cannot act for "
                                              f"{data['seat']!r}")
            if kind == "sync":
                since = data.get("since", 0)
                if isinstance(since, bool) or not isinstance(since, int) or since < 0:
                    raise WireError("bad_request", "sync 'since' is a move count (0 or "
                                                   "more)")
                length = len(served.table.replay.lines[0])
                hall.charge(conn, LIMITS["work_per_message"] + max(0, length - since))
                conn.sent = since
                hall.send_seat(conn, served, conn.seat)
                return
            hall.charge(conn, LIMITS["work_per_message"])
            ack = hall.play(served, conn.seat, data.get("move"), data.get("id"))
            self._send(ack)
            return
        if conn.role != "teacher":
            raise WireError("teacher_only", f"{kind} is the teacher's message")
        served = hall.table(data.get("table"))
        if kind == "watch":
            conn.watching.add(served.id)
            conn.watch_sent[served.id] = 0
            hall.send_watch(conn, served)
        else:
            conn.watching.discard(served.id)

    def _page_message(self, kind: str, data: dict) -> None:
        """A web seat page's message: what the student did; the answer is a new screen
        (a refusal is said in its status line)."""
        hall, conn = self.hall, self.conn
        page = conn.page
        assert page is not None
        served = hall.tables[conn.table_id]
        hall.feed(served, conn.seat, page.mirror)
        if kind in ("watch", "unwatch"):
            raise WireError("teacher_only", f"{kind} is the teacher's message")
        if kind == "record":
            self._send({"type": "record", "record": page.mirror.record().to_dict()})
            return
        if kind == "hint":
            answer = self._hint(served, page)
            if answer is not None:
                self._send(answer)
            return
        if kind == "picture":
            from ..drawing import render_svg
            page._at()
            shown = S.drawing(page.mirror, page._viewer())
            self._send({"type": "picture", "svg": render_svg(shown)})
            return
        try:
            move = None
            if kind == "goto":
                page.goto(data.get("index"))
            elif kind == "select":
                page.select(data.get("move"))
            elif kind == "click":
                move = page.click(data.get("serial"), data.get("region"))
            elif kind == "play":
                move = data.get("move")
                if not isinstance(move, str):
                    raise PageError("bad_request", "'move' is a move's notation, as the "
                                                   "list shows it")
            if move is not None:
                client_id = data.get("id") if isinstance(data.get("id"), str) else \
                    secrets.token_hex(8)
                try:
                    ack = hall.play(served, conn.seat, move, client_id)
                except WireError as exc:
                    page.say(exc.text[0].upper() + exc.text[1:], "refused")
                else:
                    self._send(ack)
                    return                   # the move's screen comes with the news
        except PageError as exc:
            page.say(exc.text, "refused")
        self._send(page.screen())

    def _hint(self, served: ServedTable, page: PageView) -> dict[str, Any] | None:
        """The answer to a page's ``hint``: its screen with the solver's panel for the
        position it shows (made from the seat's mirror alone), or the refusal in its
        status line when the teacher has not allowed the solver at this table. On the
        server's loop the solver runs in a worker thread (loading a solution takes
        seconds the first time): the screen is sent when it answers (``None`` now)."""
        hints = self.hall.hints
        if not served.solver:
            page.say("The solver's hint is not allowed at this table: in a class game the "
                     "teacher decides (a table made with the solver allowed).", "refused")
            return page.screen()
        if hints is None:
            page.say("This table server has no solver to ask (it was started without "
                     "one).", "refused")
            return page.screen()
        shown, asked = page.shown(), page._position()

        def answer(panel: Panel | None, error: BaseException | None) -> dict[str, Any]:
            if error is not None:
                log.error("table %s: the solver's hint failed: %s", served.id,
                          "".join(traceback.format_exception(error)))
                page.say(f"The solver could not answer: {_error_text(error)}", "error")
            elif page._position() != asked:
                page.say("The position changed before the solver answered: ask again.")
            else:
                assert panel is not None
                page.show_hint(panel)
            return page.screen()

        loop = self.hall._loop()
        if loop is None:
            try:
                return answer(hints(shown), None)
            except Exception as exc:  # noqa: BLE001 - the solver's failure is the page's news
                return answer(None, exc)
        future = loop.run_in_executor(None, hints, shown)

        def done(f: asyncio.Future) -> None:
            error = f.exception()
            self._send(answer(None if error else f.result(), error))

        future.add_done_callback(done)
        return None

    def _hello(self, data: dict) -> None:
        hall, conn = self.hall, self.conn
        if conn.greeted:
            raise WireError("signed_in", "this connection has sent hello already: hello "
                                         "is sent once, first (for another seat, open "
                                         "another connection)")
        conn.greeted = True
        shown = None
        if "code" in data:                         # a seat page joins on its socket
            joined = self._join_here(data)
            if joined is None:
                return
            secret, shown = joined
        else:
            secret = data.get("credential", data.get("token"))
        role, served, seat = hall.who(secret)
        if role != "teacher":
            digest = Storage.hash_credential(secret)
            mine = hall.sockets.setdefault(digest, set())
            if len(mine) >= LIMITS["sockets_per_credential"]:
                text = (f"at most {LIMITS['sockets_per_credential']} connections per "
                        "credential: close another page of this seat, then reload")
                self._send(WireError("limit", text).message())
                self.close(1008, text)
                return
            mine.add(conn)
            conn.credential = digest
        conn.role = role
        hall.unsigned.discard(self)                   # signed in: waits no more
        if role == "student":
            self._send({"type": "welcome", "role": "student"})
            return
        if role == "teacher":
            hall.teachers.add(conn)
            self._send({"type": "welcome", "role": "teacher",
                        "tables": [hall.summary(t) for t in hall.tables.values()]})
            return
        assert served is not None
        conn.table_id, conn.seat = served.id, seat
        try:
            hall.charge(conn, LIMITS["work_per_screen"])    # signing in makes a screen
        except WireError as exc:
            self._send(exc.message())
            self.close(1008, "this seat signed in too often: wait, then reload")
            return
        since = data.get("since", 0)
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            since = 0
        conn.sent = since
        if data.get("screen") is True:             # a web seat page: it is sent screens
            conn.page = shown or PageView(hall.mirror(served, seat))
        self._send(hall.seat_welcome(served, seat))
        hall.attach(conn, served, seat)

    def _join_here(self, data: dict) -> tuple[str, PageView | None] | None:
        """``hello`` with a slip's code instead of a credential: the join of
        ``POST /api/join`` (the same checks and limits, a wrong code counted against the
        page's ``client`` id, else its address) made on this socket, a round trip less
        before a page's first screen. The page is sent ``joined`` (its new credential,
        to keep) and then signs in with it; a refused code is answered with its error
        (a wrong one late while the class makes many, as over HTTP) and the socket is
        closed. A page that came with its first screen (``page``: the token it came
        with) is that page's view again (:meth:`Hall.adopt_page`), returned too."""
        if set(data) - {"type", "code", "client", "screen", "since", "page"}:
            self._refuse(WireError("bad_request", "hello with a code is {\"type\": "
                                                  "\"hello\", \"code\": \"…\"} (and "
                                                  "\"client\", \"screen\"): the code on "
                                                  "the slip, no credential or token"))
            return None
        client = page_client(data.get("client"), self.request.remote_ip or "")
        try:
            served, seat, credential = self.hall.join(data.get("code"), client)
        except WireError as exc:
            if exc.code == "unknown_code":
                tornado.ioloop.IOLoop.current().spawn_callback(self._refuse_late, exc)
            else:
                self._refuse(exc)
            return None
        self._send({"type": "joined", "table": served.id, "seat": seat_name(seat),
                    "credential": credential, "game": served.row.game})
        return credential, self.hall.adopt_page(data.get("page"), served, seat)

    def _refuse(self, exc: WireError) -> None:
        self._send(exc.message())
        self.close(1008, exc.code)

    async def _refuse_late(self, exc: WireError) -> None:
        try:
            await answer_late(self.hall)
        except WireError as busy:
            exc = busy
        self._refuse(exc)

    def on_close(self) -> None:
        self.hall.unsigned.discard(self)
        self.hall.detach(self.conn)


def address_for_pages(host: str, port: int, scheme: str = "http") -> str:
    """The address the class's pages on this machine (the lessons' and the seat pages'
    kernels, in Voila) reach a table server listening on ``host`` at: loopback when it
    listens on every address. The lessons' slips name it, and the ``classroom`` command
    pins its pages to it.

    >>> address_for_pages("0.0.0.0", 8866), address_for_pages("10.0.0.5", 8866, "https")
    ('http://127.0.0.1:8866', 'https://10.0.0.5:8866')
    """
    shown = f"[{host}]" if ":" in host else host
    local = "127.0.0.1" if host in ("0.0.0.0", "::", "") else shown
    return f"{scheme}://{local}:{port}"


def address_for_log(uri: str) -> str:
    """An address as the server's log writes it: a join code's value left out (the
    server keeps only the codes' hashes; its log should not hold what its database
    does not).

    >>> address_for_log("/seat?code=KM4TPXRA3C&theme=dark"), address_for_log("/seat")
    ('/seat?code=…&theme=dark', '/seat')
    """
    return re.sub(r"(?<=[?&]code=)[^&#]*", "…", uri)


def log_request(handler: tornado.web.RequestHandler) -> None:
    """tornado's line for each request (``tornado.access``), with the address as
    :func:`address_for_log` writes it."""
    status = handler.get_status()
    log_access = tornado.log.access_log
    write = (log_access.info if status < 400 else
             log_access.warning if status < 500 else log_access.error)
    request = handler.request
    write("%d %s %s (%s) %.2fms", status, request.method,
          address_for_log(request.uri or ""), request.remote_ip,
          1000.0 * request.request_time())


def make_app(hall: Hall) -> tornado.web.Application:
    """The tornado application of a hall (HTTP lobby and WebSocket)."""
    args = {"hall": hall}
    return tornado.web.Application([
        (r"/", RootHandler, args),
        (r"/api/status", StatusHandler, args),
        (r"/api/tables", TablesHandler, args),
        (r"/api/tables/([A-Za-z0-9_-]{1,40})", TableHandler, args),
        (r"/api/tables/([A-Za-z0-9_-]{1,40})/record", RecordHandler, args),
        (r"/api/tables/([A-Za-z0-9_-]{1,40})/(pause|resume|end)", StatusChangeHandler, args),
        (r"/api/tables/([A-Za-z0-9_-]{1,40})/codes", CodesHandler, args),
        (r"/api/join", JoinHandler, args),
        (r"/api/classes", ClassesHandler, args),
        (r"/api/join_class", JoinClassHandler, args),
        (r"/api/answers", AnswersHandler, args),
        (r"/api/experiments/([A-Za-z0-9_.-]{1,64})", ExperimentHandler, args),
        (r"/ws", SocketHandler, args),
        (r"/seat", SeatPageHandler, args),
        (r"/lesson", LessonSlipHandler, args),
        (r"/seat/(seat\.js|seat\.css|icon\.png)", SeatPageHandler, args),
    ], websocket_max_message_size=LIMITS["frame_bytes"], websocket_ping_interval=20,
        default_handler_class=_NotFound, default_handler_args=args, log_function=log_request)


#: The page a lesson slip's short address shows when its code leads nowhere, or has
#: not been typed yet (``/lesson``): a form (no script: the browser sends it as
#: ``/lesson?code=…``, which goes to the lesson's page), and why, as text.
LESSON_FORM = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Your lesson · janus_widgets</title>
<link rel="icon" href="/seat/icon.png" type="image/png" sizes="32x32">
<link rel="stylesheet" href="/seat/seat.css"></head>
<body><main id="app"><section id="join"><h1>Open your lesson</h1>
<form id="join-form" action="/lesson" method="get" autocomplete="off">
<label for="code">The code on your lesson slip</label>
<input id="code" name="code" maxlength="20" spellcheck="false" autocapitalize="characters"
       inputmode="text" required>
<button type="submit">Open</button></form>
<p id="join-message" role="alert">{said}</p></section></main></body></html>
"""


class LessonSlipHandler(_UnderPolicy, tornado.web.RequestHandler):
    """A lesson slip's short address: ``/lesson?code=…`` goes (303) to the lesson's
    page with the code, as the slip's long address did, so that a student without a
    camera types ``http://HOST:8866/lesson`` and the ten letters of the code; a wrong
    code is counted with the class's, as a seat slip's address is, and said on the
    form. Nothing of the address is written into the page."""

    def initialize(self, hall: Hall) -> None:
        self.hall = hall

    async def get(self) -> None:
        given = self.request.query_arguments.get("code", [])
        if not given:
            self._form("", 200)
            return
        try:
            if len(given) != 1:
                raise WireError("bad_request", "one code, please")
            try:
                code = given[0].decode("ascii")
            except UnicodeDecodeError:
                raise WireError("bad_request", "a code is letters and digits") from None
            self.redirect(self.hall.lesson_address(code), status=303)
        except WireError as exc:
            if exc.code == "unknown_code":
                try:
                    await answer_late(self.hall)
                except WireError as late:
                    exc = late
            self._form(exc.text if exc.code in ("unknown_code", "no_lesson", "rate_limit")
                       else "A code is the 10 letters and digits on your lesson slip.",
                       exc.status)

    def _form(self, said: str, status: int) -> None:
        # The form is sent here and answered with a redirect to the lesson's page on
        # the class's pages (another port: another origin), which the browser holds
        # to the form-action too.
        pages = urllib.parse.urlsplit(self.hall.pages) if self.hall.pages else None
        if pages and pages.scheme in ("http", "https") and re.fullmatch(
                r"[A-Za-z0-9.\[\]:-]+", pages.netloc):
            self.set_header("Content-Security-Policy", CSP.replace(
                "form-action 'self'", f"form-action 'self' {pages.scheme}://{pages.netloc}"))
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(LESSON_FORM.format(said=html.escape(said)))


#: The seat page's own files, named in its answer's ``Link`` header to be fetched at once.
PAGE_PRELOAD = ("</seat/seat.css>; rel=preload; as=style, "
                "</seat/seat.js>; rel=modulepreload")


class SeatPageHandler(_UnderPolicy, tornado.web.RequestHandler):
    """The static seat page (``/seat``) and its own files, under
    :data:`.seat_pages.SECURITY_HEADERS`; nothing of the address is written into them."""

    def initialize(self, hall: Hall) -> None:
        self.hall = hall

    async def get(self, name: str = "seat.html") -> None:
        first = None
        if name == "seat.html":
            # The page's style and script are asked for as its first bytes arrive, not
            # after the browser has read the page (with a Janus screen, 100 kB).
            self.set_header("Link", PAGE_PRELOAD)
            first = await self._first_screen()
        if first is None:
            self._answer(name, send_body=True)
            return
        # The page with its seat's screen in it: made for this request, kept nowhere.
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", PAGE_FILES["seat.html"])
        self.finish(first_screen_html(page_file_served(name).body, first))

    async def _first_screen(self) -> dict[str, Any] | None:
        """What a slip's address (``/seat?code=…``) shows before the page's socket is
        open: the seat's welcome and screen, made from its seat's view as every screen
        is (:meth:`Hall.peek`: nothing is joined; the page joins on its socket), or why
        the code opens no seat (a wrong code is counted in the class's count, and
        answered late while the class makes many). ``None`` (the static page, which
        joins as it always did) for no code, text that is no code, and a seat whose
        page was shown too often or a wrong code past the class's late answers."""
        given = self.request.query_arguments.get("code", [])
        if len(given) != 1:
            return None
        try:
            code = _slip_code(given[0].decode("ascii"))
        except (UnicodeDecodeError, WireError):
            return None
        if not re.fullmatch(r"[A-Za-z0-9]{4,20}", code):
            return None
        hall = self.hall
        try:
            served, seat = hall.peek(code)
        except WireError as exc:
            if exc.code == "unknown_code":
                try:
                    await answer_late(hall)
                except WireError:
                    return None
            if exc.code in ("unknown_code", "ended"):
                return {"refused": exc.message()}
            return None
        try:
            page, token = hall.show_page(served, seat)
            return {"welcome": hall.seat_welcome(served, seat), "screen": page.screen(),
                    "page": token}
        except Exception:       # a fault of ours: the plain page, which joins on its socket
            log.exception("the first screen of table %s, seat %s, for a slip's address",
                          served.id, seat_name(seat))
            return None

    def head(self, name: str = "seat.html") -> None:
        self._answer(name, send_body=False)

    def _answer(self, name: str, send_body: bool) -> None:
        """The file with its validators: an ETag (of its content) and Last-Modified,
        and ``Cache-Control: no-cache`` (of the security headers): a browser keeps it
        and asks each time whether it changed (it changes only with the package's
        version, and its address has no version in it); one that holds it is answered
        304, no body, with the same security headers."""
        served = page_file_served(name)
        if name == "icon.png":
            # The tab's icon is asked for again when the code leaves the address bar;
            # kept a day, it is not (an old icon for a day is no harm).
            self.set_header("Cache-Control", "max-age=86400")
        self.set_header("ETag", served.etag)
        self.set_header("Last-Modified", served.modified)
        if served.fresh_for(self.request.headers.get("If-None-Match"),
                            self.request.headers.get("If-Modified-Since")):
            self.set_status(304)
            self.finish()
            return
        self.set_header("Content-Type", served.kind)
        if send_body:
            self.finish(served.body)
        else:
            self.set_header("Content-Length", str(len(served.body)))
            self.finish()

    def compute_etag(self) -> str | None:
        return None                      # tornado's own (a hash of each answer) is not used


class _NotFound(_Handler):
    def prepare(self) -> None:
        raise WireError("not_found", f"no such endpoint {self.request.path!r}; see "
                                     "docs/classroom-server.md", 404)


# ---------------------------------------------------------------------- running
def teacher_token(path: str | None) -> str:
    """The teacher's token: read from ``path`` if it holds one, else a new one (written
    to ``path``, readable by its owner only)."""
    if path:
        p = Path(path)
        if p.exists():
            token = p.read_text(encoding="utf-8").strip()
            if len(token) < 16:
                raise SystemExit(f"error: {path} holds a token of {len(token)} characters; "
                                 "a teacher's token has at least 16 (delete the file to "
                                 "get a new one)")
            return token
        token = secrets.token_urlsafe(24)
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(token + "\n")
        return token
    return secrets.token_urlsafe(24)


def default_token_file(db: str) -> str | None:
    """Where the teacher's token is kept when no file is named: beside the database
    (``classroom.sqlite.token``), so a restart keeps the token an open dashboard holds.
    None for a database in memory.

    >>> default_token_file("class/3b.sqlite"), default_token_file(":memory:")
    ('class/3b.sqlite.token', None)
    """
    return None if db == ":memory:" else db + ".token"


async def serve(host: str = "127.0.0.1", port: int = 8866, db: str = "classroom.sqlite",
                token_file: str | None = None, certfile: str | None = None,
                keyfile: str | None = None, bot_delay: float = 0.4,
                pages: str = "", ready: Callable[[str, str], None] | None = None,
                stop: asyncio.Event | None = None,
                questions: dict[str, set[str]] | None = None,
                hints: HintHook | None = None, pace_collector: bool = False,
                answer_check: AnswerCheck | None = None) -> None:
    """Run the table server until ``stop`` is set (or forever). ``ready(url, token)`` is
    called once it listens. With no ``token_file`` the token is kept beside the
    database (:func:`default_token_file`). ``questions``, ``hints`` and ``answer_check`` as for
    :class:`Hall`. ``pace_collector``: the process is the server's own (the command
    line's), and its garbage collector's full collections are kept short
    (:class:`.collector.OldObjectsFrozen`: it acts on the whole process)."""
    token = teacher_token(token_file or default_token_file(db))
    storage = SQLiteStorage(db)
    loop = asyncio.get_running_loop()
    hall = Hall(storage, token, bot_delay=bot_delay, loop=lambda: loop, questions=questions,
                hints=hints, answer_check=answer_check)
    hall.pages = pages
    kept = key_file(db)
    if pages and kept:
        hall.pages_key = read_or_make_key(kept)
    ssl_ctx = None
    if certfile:
        ssl_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        ssl_ctx.load_cert_chain(certfile, keyfile)
    server = guarded_http_server(make_app(hall), ssl_options=ssl_ctx)
    # A class arrives at once: the default backlog (128) drops the rest of their first
    # connections, whose browsers then wait a second or more to try again.
    server.listen(port, address=host, backlog=2048)
    scheme = "https" if ssl_ctx else "http"
    shown = f"[{host}]" if ":" in host else host
    url = f"{scheme}://{shown}:{port}"
    hall.public = address_for_pages(host, port, scheme)
    pacing = thawing = None
    if pace_collector:
        pacing = OldObjectsFrozen()
        pacing.install()
        thawing = tornado.ioloop.PeriodicCallback(pacing.thaw_if_due, 60_000)
        thawing.start()
    if ready is not None:
        restored = hall.restored_text()
        if restored:
            print(restored, flush=True)
        ready(url, token)
    stop = stop or asyncio.Event()
    try:
        await stop.wait()
    finally:
        if pacing is not None:
            thawing.stop()
            pacing.remove()
        server.stop()
        await server.close_all_connections()
        hall.close()
        storage.close()


def guarded_http_server(app: tornado.web.Application,
                        **kwargs: Any) -> tornado.httpserver.HTTPServer:
    """An HTTP server for ``app`` that one student's script cannot lock the class out
    of (:class:`_GuardedHTTPServer`): the table server's, and the class's Voila pages'
    (:func:`janus_widgets.voila_guard.install`). It raises this process's limit of open
    files as far as the system takes, and says so in the log when that is low.
    ``kwargs``: tornado's (``ssl_options``)."""
    files = _more_files()
    if files is not None and files < 2 * LIMITS["waiting_connections"]:
        log.warning("this system lets the server hold %d connections at once (ulimit -n): "
                    "a class needs a few hundred; when they are all in use, the ones whose "
                    "request has not all come are closed to make room", files)
    tornado_notes = logging.getLogger("tornado.general")
    if FEW_NOTES not in tornado_notes.filters:
        tornado_notes.addFilter(FEW_NOTES)
    # A request whose headers or body never finish is dropped (idle sockets would hold
    # the server's connections, and every student's page with them).
    return _GuardedHTTPServer(app, max_body_size=LIMITS["body_bytes"],
                              max_header_size=LIMITS["header_bytes"],
                              idle_connection_timeout=LIMITS["idle_seconds"],
                              body_timeout=LIMITS["body_seconds"], **kwargs)


class _GuardedHTTPServer(tornado.httpserver.HTTPServer):
    """Tornado's HTTP server, kept open to a class while one student opens connections
    that say nothing, or send a request's body a byte at a time (each holds one of the
    server's files until it times out; 20,000 of them used to lock every new page out
    and fill the log with a traceback per try to accept).

    * Over ``waiting_connections`` (:data:`LIMITS`) connections waiting for a
      request (new ones, kept-alive ones between requests, and ones whose request's
      headers or body have not all come), the oldest of them are closed as new ones
      come: a browser sends its request at once, so a student's page never waits that
      long; a socket (a WebSocket, once upgraded) is never one of them.
    * A body longer than ``body_bytes`` is answered 413 as its headers arrive, unread;
      the bodies being read hold at most ``bodies_bytes`` of memory together (past that
      the oldest unfinished ones are closed), and each has ``body_seconds`` to arrive.
    * An answer that has not gone out within ``write_seconds`` (a client that asked
      and reads nothing, its receive window shut) is dropped: the request had come, so
      the connection was on no list, and tornado has no time limit on writing.
    * When the system has no file left for a new connection, the waiting ones and
      the ones whose answer is stuck are closed and accepting pauses a quarter second
      (not a busy loop), with one line in the log a minute.
    """

    _pause = 0.25
    _check_every = 1.0                    # seconds between looks at stuck answers

    def initialize(self, *args: Any, **kwargs: Any) -> None:
        super().initialize(*args, **kwargs)
        self._quiet = Waiting()               # streams whose request has not all come
        self._bodies: dict[Any, int] = {}     # streams reading a body: its bytes so far
        self._bodies_total = 0
        self._writing: dict[Any, float] = {}  # streams with an answer unsent: since when
        self._write_check: tornado.ioloop.PeriodicCallback | None = None
        self._said_full = -math.inf

    def _stuck_answers(self) -> None:
        """Close the connections whose answer has been going out for more than
        ``write_seconds``; note when the others' began."""
        now = time.monotonic()
        writing = {}
        for conn in list(self._connections):
            stream = getattr(conn, "stream", None)
            if stream is None or stream.closed() or not stream.writing():
                continue
            since = writing[stream] = self._writing.get(stream, now)
            if now - since > LIMITS["write_seconds"]:
                del writing[stream]
                stream.close()
        self._writing = writing

    def stop(self) -> None:
        """Stop listening, and looking at stuck answers."""
        if self._write_check is not None:
            self._write_check.stop()
        super().stop()

    def _waits(self, stream: Any) -> None:
        for old in self._quiet.add(stream):
            self._read(old)
            old.close()

    def _reading(self, stream: Any, size: int) -> None:
        """``size`` more bytes of ``stream``'s body were read: past ``bodies_bytes`` of
        every body together, the oldest unfinished ones are closed."""
        self._bodies[stream] = self._bodies.get(stream, 0) + size
        self._bodies_total += size
        while self._bodies_total > LIMITS["bodies_bytes"]:
            oldest = next(iter(self._bodies))
            self._read(oldest)
            self._quiet.discard(oldest)
            oldest.close()

    def _read(self, stream: Any) -> None:
        """``stream``'s request has all come, or it is closed: it waits no more."""
        self._bodies_total -= self._bodies.pop(stream, 0)

    def handle_stream(self, stream: Any, address: Any) -> None:
        super().handle_stream(stream, address)
        self._waits(stream)       # at once (its request starts a moment later): counted
        if self._write_check is None:
            self._write_check = tornado.ioloop.PeriodicCallback(
                self._stuck_answers, self._check_every * 1000)
            self._write_check.start()

    def start_request(self, server_conn: Any, request_conn: Any) -> Any:
        # The connection waits for a request from now (its first, or the next once the
        # last was answered): it is on the list until the whole request has come.
        self._waits(server_conn.stream)
        delegate = super().start_request(server_conn, request_conn)
        return _Spoke(delegate, request_conn, server_conn.stream, self)

    def on_close(self, server_conn: Any) -> None:
        stream = getattr(server_conn, "stream", None)
        self._quiet.discard(stream)
        self._read(stream)
        super().on_close(server_conn)

    def add_sockets(self, sockets: Any) -> None:
        for sock in sockets:
            self._sockets[sock.fileno()] = sock
            self._handlers[sock.fileno()] = self._accepting(sock)

    def _accepting(self, sock: Any) -> Callable[[], None]:
        """:func:`tornado.netutil.add_accept_handler`, which also survives a system
        with no file left (it raised, the loop logged it and called it again at once)."""
        loop = tornado.ioloop.IOLoop.current()
        removed = [False]

        def accept(fd: Any, events: int) -> None:
            for _ in range(128):
                if removed[0]:
                    return
                try:
                    connection, address = sock.accept()
                except BlockingIOError:
                    return
                except ConnectionAbortedError:
                    continue
                except OSError as exc:
                    if exc.errno not in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS,
                                         errno.ENOMEM):
                        raise
                    self._full(sock, accept, exc)
                    return
                self._handle_connection(connection, address)

        def remove() -> None:
            loop.remove_handler(sock)
            removed[0] = True

        loop.add_handler(sock, accept, tornado.ioloop.IOLoop.READ)
        return remove

    def _full(self, sock: Any, accept: Callable[[Any, int], None], exc: OSError) -> None:
        closing = self._quiet.oldest(max(1, len(self._quiet) // 4))
        now = time.monotonic()
        if now - self._said_full >= 60:
            self._said_full = now
            log.warning("no file left for a new connection (%s): closing %d connections "
                        "whose request has not come, and pausing new ones", exc.strerror,
                        len(closing))
        # and every answer stuck for a while (a page still loading is not)
        closing += [stream for stream, since in self._writing.items()
                    if now - since >= 2 * self._check_every and not stream.closed()
                    and stream.writing()]
        for stream in closing:
            self._read(stream)
            stream.close()
        loop = tornado.ioloop.IOLoop.current()
        loop.remove_handler(sock)

        def resume() -> None:
            if sock.fileno() in self._handlers:          # the server was not stopped
                loop.add_handler(sock, accept, tornado.ioloop.IOLoop.READ)
        loop.call_later(self._pause, resume)


class _Spoke(tornado.httputil.HTTPMessageDelegate):
    """A request's delegate that keeps its connection on the waiting list until the
    whole request has come (:meth:`_GuardedHTTPServer.start_request` puts it back when
    the connection waits for its next request; a WebSocket's never does), counts the
    bytes of its body, and answers a body announced too long at once, unread."""

    def __init__(self, delegate: Any, request_conn: Any, stream: Any,
                 server: _GuardedHTTPServer) -> None:
        self.delegate, self.request_conn = delegate, request_conn
        self.stream, self.server = stream, server

    def headers_received(self, start_line: Any, headers: Any) -> Any:
        host = headers.get("Host", "")
        if not re.fullmatch(r"[^:\[\]]*(:[0-9]{0,5})?|\[[0-9A-Fa-f:.]*\](:[0-9]{0,5})?",
                            host):
            # tornado reads the port with int(): 5,000 digits made a traceback a request
            self._refuse(400, "bad_request", "the request's Host is no host and port",
                         host="")
            return None
        length = headers.get("Content-Length", "").strip()
        # digits as tornado reads them (not str.isdigit: '²' is one, and int() refuses
        # it; nor 5,000 digits, which int() refuses too): tornado judges the rest
        if re.fullmatch(r"[0-9]+", length) and (
                len(length) > 12 or int(length) > LIMITS["body_bytes"]):
            self._refuse(413, "too_big", f"a request body is at most "
                                         f"{LIMITS['body_bytes']} bytes", host)
            return None
        return self.delegate.headers_received(start_line, headers)

    def _refuse(self, status: int, code: str, text: str, host: str) -> None:
        """Answer ``status`` with the error ``code`` (and the headers every answer
        carries), then close the connection: the request's body is never read. A
        client that does not read the answer within ``body_seconds`` is closed all the
        same."""
        self.server._quiet.discard(self.stream)
        scheme = "https" if isinstance(self.stream, tornado.iostream.SSLIOStream) else "http"
        headers = answer_headers(scheme, re.sub(r":[0-9]*$", "", host.lower()))
        body = json.dumps(WireError(code, text, status).message())
        reason = {400: "Bad Request", 413: "Payload Too Large"}[status]
        head = [f"HTTP/1.1 {status} {reason}",
                "Content-Type: application/json; charset=utf-8",
                f"Content-Length: {len(body.encode())}", "Connection: close",
                "Cache-Control: no-store",
                *(f"{name}: {value}" for name, value in headers.items()
                  if name != "Cache-Control")]
        stream = self.request_conn.detach()     # tornado reads and answers no more
        try:
            sent = stream.write(("\r\n".join(head) + "\r\n\r\n" + body).encode())
        except tornado.iostream.StreamClosedError:       # the client went at once
            return

        def close(done: Any) -> None:
            done.exception()          # a client gone meanwhile: nothing to report
            stream.close()
        sent.add_done_callback(close)
        tornado.ioloop.IOLoop.current().call_later(LIMITS["body_seconds"], stream.close)

    def data_received(self, chunk: bytes) -> Any:
        self.server._reading(self.stream, len(chunk))
        return self.delegate.data_received(chunk)

    def finish(self) -> None:
        self.server._quiet.discard(self.stream)
        self.server._read(self.stream)
        self.delegate.finish()

    def on_connection_close(self) -> None:
        self.server._read(self.stream)
        self.delegate.on_connection_close()


class _FewNotes(logging.Filter):
    """Tornado's one line per broken request ("Timeout reading body", "Malformed HTTP
    message", "Unsatisfiable read": headers too long), at most one a minute, saying how many like it were left out (one
    student's script wrote 41,830 of them in 70 s).

    >>> few, clock = _FewNotes(), [100.0]
    >>> few.now = lambda: clock[0]
    >>> note = lambda: logging.LogRecord("tornado.general", logging.INFO, "", 0,
    ...                                  "Timeout reading body from %s", ("x",), None)
    >>> [few.filter(note()) for _ in range(3)]
    [True, False, False]
    >>> clock[0] += 60; shown = note(); few.filter(shown), shown.getMessage()
    (True, 'Timeout reading body from x (and 2 more like it since the last said)')
    """

    NOTES = ("Timeout reading body", "Malformed HTTP message", "Unsatisfiable read")

    def __init__(self, every: float = 60.0) -> None:
        super().__init__()
        self.every, self.last, self.left_out = every, -math.inf, 0
        self.now = time.monotonic

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith(self.NOTES):
            return True
        now = self.now()
        if now - self.last < self.every:
            self.left_out += 1
            return False
        if self.left_out:
            record.msg = f"{record.msg} (and %d more like it since the last said)"
            record.args = (*(record.args or ()), self.left_out)
        self.last, self.left_out = now, 0
        return True


FEW_NOTES = _FewNotes()


def _more_files() -> int | None:
    """Let the server hold as many sockets as the system allows (a class is many): the
    limit of open files now (None where the system has none to read). The largest of
    65,536 (or the hard limit), 24,576, 10,240 and 4,096 the system takes: macOS says
    its hard limit is unlimited and yet refuses more than 10,240."""
    try:
        import resource
    except ImportError:                          # pragma: no cover - not on every system
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    top = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
    for want in (top, 24576, 10240, 4096):
        if want <= soft or (hard != resource.RLIM_INFINITY and want > hard):
            continue
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            return want
        except (ValueError, OSError):
            continue
    return soft


def run_until_stopped(args: Any, ready: Callable[[str, str], None],
                      pages: str = "") -> int:
    """Serve as the command line asked (``args``: host, port, db, teacher_token_file,
    certfile, keyfile, bot_delay) until Ctrl-C or SIGTERM; 0, or 1 after saying why it
    could not start."""
    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (NotImplementedError, RuntimeError):  # pragma: no cover - Windows
                pass
        await serve(args.host, args.port, args.db, args.teacher_token_file, args.certfile,
                    args.keyfile, args.bot_delay, pages=pages, ready=ready, stop=stop,
                    questions=getattr(args, "questions", None),
                    hints=getattr(args, "hints", None), pace_collector=True,
                    answer_check=getattr(args, "answer_check", None))

    try:
        asyncio.run(run())
    except OSError as exc:
        print(f"error: cannot serve on {args.host}:{args.port}: {exc.strerror or exc}",
              file=sys.stderr)
        return 1
    except StorageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def main(args: Any) -> int:
    """``python -m janus_widgets serve``: run until Ctrl-C."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    if args.certfile and not args.keyfile:
        print("error: --certfile needs --keyfile", file=sys.stderr)
        return 2

    def ready(url: str, token: str) -> None:
        print(f"Table server at {url} (database {args.db})", flush=True)
        if args.teacher_token_file:
            print(f"Teacher's token in {args.teacher_token_file}", flush=True)
        else:
            print(f"Teacher's token: {token}", flush=True)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            print("Listening beyond this machine: anyone who can reach it sees the lobby; "
                  "use --certfile/--keyfile on a network you do not trust.", flush=True)

    code = run_until_stopped(args, ready)
    if code:
        return code
    print("Table server stopped; every table is in the database.", flush=True)
    return 0

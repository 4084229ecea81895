"""Clients of the table server: the teacher's lobby and a seat's :class:`RemoteTable`.

:class:`TeacherClient` speaks the server's HTTP lobby with the teacher's token: make
tables, list them, read a table's full record, pause, resume and end. :func:`join`
turns a join code into a seat's credential and returns a :class:`RemoteTable`: that
seat of that table, holding only what the server sent it (its view after every move,
what it was told of each move, its legal moves), kept up to date over a WebSocket that
reconnects by itself. A :class:`~janus_widgets.widgets.shell.GameWidget` draws a
``RemoteTable`` as it draws a local :class:`~janus_widgets.table.Table`.

``janus_widgets.classroom`` gives these under the names notebooks use.
"""

from __future__ import annotations

import asyncio
import json
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from typing import Any

from .. import games as game_registry
from ..core.errors import IllegalMoveError, InvalidMoveError, JanusError
from ..core.protocol import TERMINAL, Game, Move, MoveList, seat_index, seat_name
from ..core.record import Record
from ..core.replay import HUMAN, Line, cursor_index
from ..core.seat_record import SeatFrame, SeatRecord
from .local import kernel_loop
from .narrate import Facts, Told, last_move, log_entries

__all__ = ["TeacherClient", "RemoteTable", "SeatMirror", "ClassroomError", "join", "CreatedTable",
           "ClassLink", "join_class", "TeacherWatch"]


class ClassroomError(JanusError, ConnectionError):
    """The table server refused a request, or could not be reached: the message says
    which and why (the server's own words when it answered). ``code`` is the server's
    error code, ``status`` its HTTP status (0: no answer)."""

    def __init__(self, text: str, code: str = "", status: int = 0) -> None:
        super().__init__(text)
        self.code = code
        self.status = status


#: The environment variable by which the ``classroom`` command pins its pages (the
#: lessons and the dashboard, in Voila) to its own table server: an address naming
#: another one is refused before any request is made.
PINNED_SERVER = "JANUS_CLASSROOM_SERVER"


def same_server(a: str, b: str) -> bool:
    """Whether two addresses name one table server (this machine's names for itself
    count as one).

    >>> same_server("http://localhost:8866/", "http://127.0.0.1:8866")
    True
    >>> same_server("http://10.0.0.5:8866", "http://127.0.0.1:8866")
    False
    >>> same_server("http://<h1>x@127.0.0.1:8866", "http://127.0.0.1:8866")  # user info
    False
    >>> same_server("http://[::1", "http://127.0.0.1:8866")
    False
    """
    local = {"127.0.0.1", "localhost", "::1"}
    try:              # ValueError: "http://[::1", a port that is no number: no server
        pa, pb = urllib.parse.urlparse(a.strip()), urllib.parse.urlparse(b.strip())
        if "@" in pa.netloc or "@" in pb.netloc:    # a table server's address has none
            return False
        host_a = "127.0.0.1" if pa.hostname in local else pa.hostname
        host_b = "127.0.0.1" if pb.hostname in local else pb.hostname
        return (pa.scheme, host_a, pa.port) == (pb.scheme, host_b, pb.port)
    except ValueError:
        return False


def _base(url: str) -> str:
    parsed = urllib.parse.urlparse(url.strip())
    if parsed.scheme not in ("http", "https") or not parsed.netloc or "@" in parsed.netloc:
        raise ClassroomError(f"{url!r} is not a table server's address: write it as the "
                             "server printed it, e.g. http://127.0.0.1:8866")
    return f"{parsed.scheme}://{parsed.netloc}"


def _request(base: str, method: str, path: str, *, secret: str = "", data: Any = None,
             timeout: float = 10, context: ssl.SSLContext | None = None) -> Any:
    """One HTTP request to the lobby: JSON in, JSON out; the server's error as
    :class:`ClassroomError`."""
    body = None if data is None else json.dumps(data).encode()
    request = urllib.request.Request(base + path, data=body, method=method)
    request.add_header("Content-Type", "application/json")
    if secret:
        request.add_header("Authorization", f"Bearer {secret}")
    try:
        with urllib.request.urlopen(request, timeout=timeout, context=context) as reply:
            return json.loads(reply.read().decode())
    except urllib.error.HTTPError as exc:
        try:
            answer = json.loads(exc.read().decode())
        except ValueError:
            answer = None
        if not isinstance(answer, dict) or "error" not in answer:
            raise ClassroomError(f"the server answered {exc.code} {exc.reason}",
                                 status=exc.code) from None
        raise ClassroomError(str(answer["error"]), str(answer.get("code", "")),
                             exc.code) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise ClassroomError(f"cannot reach the table server at {base}: {reason}") from None


class CreatedTable:
    """A table the teacher made: its ``id`` and the join ``codes`` of its human seats
    (``{"A": "KM4TPXRA3C", "B": …}``)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.id: str = data["id"]
        self.codes: dict[str, str] = dict(data["codes"])

    def __repr__(self) -> str:
        return f"<CreatedTable {self.id} codes {self.codes}>"


class TeacherClient:
    """The lobby, with the teacher's token: ``classroom.connect(url, token)``."""

    def __init__(self, url: str, token: str, *, context: ssl.SSLContext | None = None) -> None:
        self.url = _base(url)
        self._token = token
        self._context = context
        self.tables()                       # checks the address and the token now

    def _call(self, method: str, path: str, data: Any = None) -> Any:
        return _request(self.url, method, path, secret=self._token, data=data,
                        context=self._context)

    def create_table(self, game: str, players: int | None = None, *,
                     bots: dict[Any, str] | None = None, ruleset: str | None = None,
                     seed: int | None = None, name: str = "", solver: bool = False,
                     **options: Any) -> CreatedTable:
        """Make a table: ``create_table("janus-cards", players=3, bots={2: "greedy"})``.
        No seed: the server draws one secretly. ``solver=True`` (2-player Jactus only)
        lets its seats ask the solver for the best move. Returns its id and the join
        codes."""
        spec = {"game": game, "players": players,
                "bots": {str(k): v for k, v in (bots or {}).items()},
                "ruleset": ruleset, "seed": seed, "options": options, "name": name,
                "solver": solver}
        return CreatedTable(self._call("POST", "/api/tables", spec))

    def tables(self) -> list[dict[str, Any]]:
        """Every table at a glance (id, game, ruleset, whose turn, moves, scores, seats
        and which are connected)."""
        return self._call("GET", "/api/tables")["tables"]

    def table(self, table_id: str) -> dict[str, Any]:
        """One table's summary."""
        return self._call("GET", f"/api/tables/{urllib.parse.quote(table_id)}")

    def record(self, table_id: str) -> Record:
        """A table's full record (seed and every move: the teacher's)."""
        data = self._call("GET", f"/api/tables/{urllib.parse.quote(table_id)}/record")
        return Record.from_dict(data)

    def pause(self, table_id: str) -> dict[str, Any]:
        """Stop a table: its seats cannot move and its bots wait."""
        return self._call("POST", f"/api/tables/{urllib.parse.quote(table_id)}/pause")

    def resume(self, table_id: str) -> dict[str, Any]:
        """Let a paused table go on."""
        return self._call("POST", f"/api/tables/{urllib.parse.quote(table_id)}/resume")

    def end(self, table_id: str) -> dict[str, Any]:
        """End a table for good (its record stays)."""
        return self._call("POST", f"/api/tables/{urllib.parse.quote(table_id)}/end")

    def new_codes(self, table_id: str, *, withdraw: bool = False) -> dict[str, str]:
        """New join codes for a table's human seats (lost slips): the old codes stop
        working; pages already joined stay joined, unless ``withdraw``: then every
        credential of the table stops working and its pages must join again (a stolen
        slip's seat is taken back)."""
        return self._call("POST", f"/api/tables/{urllib.parse.quote(table_id)}/codes",
                          {"withdraw": withdraw})["codes"]

    def create_class(self, name: str, students: int | list[str],
                     lesson: str = "") -> dict[str, str]:
        """A class list for the lessons: one code per student (``students``: names, or
        how many). A lesson's page joined with a code sends its exercise checks; with
        ``lesson`` named, a code's short address (``/lesson?code=…`` on the table
        server) opens that lesson's page."""
        spec: dict[str, Any] = {"name": name, "students": students}
        if lesson:
            spec["lesson"] = lesson
        return self._call("POST", "/api/classes", spec)["codes"]

    def info(self) -> dict[str, Any]:
        """What the server says of itself: its games, where the classroom's seat and
        lesson pages are (``pages``, "" if none) and the address those pages use for it
        (``server``)."""
        return _request(self.url, "GET", "/", context=self._context)

    def answers(self, lesson: str | None = None, *, every: bool = False
                ) -> list[dict[str, Any]]:
        """The exercise checks the class's lesson pages sent (of one lesson), for a
        tally: one row per student, question, verdict and mistake, with ``tries`` (how
        many such checks that student sent). ``every=True``: every check as sent."""
        params = {**({} if lesson is None else {"lesson": lesson}),
                  **({"every": "1"} if every else {})}
        query = "?" + urllib.parse.urlencode(params) if params else ""
        return self._call("GET", "/api/answers" + query)["answers"]

    def __repr__(self) -> str:
        return f"<TeacherClient {self.url}>"


# ---------------------------------------------------------------------- the IO thread
class _IO:
    """One background thread with an event loop for every connection of this process
    (a notebook cell that waits does not stop the news from arriving)."""

    _lock = threading.Lock()
    _loop: asyncio.AbstractEventLoop | None = None

    @classmethod
    def loop(cls) -> asyncio.AbstractEventLoop:
        with cls._lock:
            if cls._loop is None or cls._loop.is_closed():
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, daemon=True,
                                          name="janus-classroom-io")
                thread.start()
                cls._loop = loop
            return cls._loop


class _Link:
    """One WebSocket to the server that signs in and comes back by itself: the part a
    seat's table and the teacher's watch share. A subclass says what to send on each
    (re)connection (:meth:`_greeting`), reads every message (:meth:`_receive`) and hears
    when the link is lost (:meth:`_lost`)."""

    def _open(self, url: str, context: ssl.SSLContext | None, timeout: float) -> None:
        self.url = _base(url)
        parsed = urllib.parse.urlparse(self.url)
        self._ws_url = ("wss" if parsed.scheme == "https" else "ws") + f"://{parsed.netloc}/ws"
        self._context = context
        self._home = kernel_loop()
        self._closed = False
        self._ws: Any = None
        self._ready = threading.Event()
        self._fatal = ""
        self.errors: list[str] = []
        asyncio.run_coroutine_threadsafe(self._run(), _IO.loop())
        if not self._ready.wait(timeout):
            self.close()
            raise ClassroomError(f"no answer from the table server at {self.url} within "
                                 f"{timeout:g} s")
        if self._fatal:
            self.close()
            raise ClassroomError(self._fatal)

    def _greeting(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def _receive(self, msg: dict[str, Any]) -> None:
        raise NotImplementedError

    def _lost(self) -> None:
        """The connection dropped (it is tried again)."""

    def _bad_news(self, exc: Exception) -> None:
        """A message could not be read (the link goes on)."""
        import traceback
        self.errors.append(traceback.format_exc())

    async def _run(self) -> None:
        """Connect, sign in, read every message; when the connection drops (closed,
        reset, a write to a closed socket), say so (:meth:`_lost`) and connect again,
        until :meth:`close` or a refusal (``_fatal``). Nothing escapes into the IO
        thread's loop."""
        import tornado.httpclient
        import tornado.iostream
        import tornado.websocket
        dropped = (tornado.websocket.WebSocketClosedError,
                   tornado.iostream.StreamClosedError, OSError)
        delay = 0.2
        while not self._closed:
            try:
                request = tornado.httpclient.HTTPRequest(self._ws_url, connect_timeout=5,
                                                         ssl_options=self._context)
                ws = await self._connect(request)
            except (OSError, tornado.httpclient.HTTPClientError,
                    tornado.websocket.WebSocketError):
                if not self._ready.is_set() and delay > 1.5:
                    self._fatal = f"cannot reach the table server at {self.url}"
                    self._ready.set()
                    return
                await asyncio.sleep(delay)
                delay = min(delay * 2, 3.0)
                continue
            self._ws = ws
            began = time.monotonic()
            try:
                if await self._session(ws):
                    return                        # refused for good (``_fatal``)
            except dropped:
                pass                              # as a closed connection: tried again
            except Exception as exc:  # noqa: BLE001 - the IO thread must go on
                self._bad_news(exc)
            self._ws = None
            self._lost()
            # A connection that lasted waits little; one closed at once (refused: too
            # many pages of the seat) waits longer each time, up to 3 s.
            delay = 0.2 if time.monotonic() - began > 2 else min(delay * 2, 3.0)
            if not self._closed:
                await asyncio.sleep(delay)

    async def _connect(self, request: Any) -> Any:
        """Open the WebSocket of ``request`` (a tornado ``HTTPRequest``)."""
        import tornado.websocket
        return await tornado.websocket.websocket_connect(request)

    async def _session(self, ws: Any) -> bool:
        """One connection: sign in, then read until it closes (False) or the server
        refuses the link for good (True)."""
        for message in self._greeting():          # sign in, and what was not answered
            await ws.write_message(json.dumps(message))
        while True:
            text = await ws.read_message()
            if text is None:
                return False
            self._take(text)
            if self._fatal:
                ws.close()
                return True

    def _take(self, text: str | bytes) -> None:
        """Read one message from the server; one that cannot be read is reported
        (:meth:`_bad_news`) and the link goes on."""
        try:
            self._receive(json.loads(text))
        except Exception as exc:  # noqa: BLE001 - a bad message must not kill the link
            self._bad_news(exc)

    def _send(self, message: dict[str, Any]) -> None:
        ws = self._ws
        if ws is None:
            return                                # sent again when it reconnects
        text = json.dumps(message)

        def write() -> None:
            import tornado.websocket
            try:
                sent = ws.write_message(text)
            except tornado.websocket.WebSocketClosedError:
                return                            # dropped: the reconnection resends it
            sent.add_done_callback(lambda done: done.exception())   # read, never raised
        _IO.loop().call_soon_threadsafe(write)

    def _deliver(self, callback: Callable[[Any], None], news: Any) -> None:
        """Call ``callback(news)`` on the notebook's own loop (a widget is only ever
        changed there), or here outside a notebook."""
        if self._home is not None and self._home.is_running():
            self._home.call_soon_threadsafe(callback, news)
        else:
            callback(news)

    def close(self) -> None:
        """Close the connection (the seat or the token stays valid: its code joins the
        seat again)."""
        self._closed = True
        ws = self._ws
        if ws is not None:
            _IO.loop().call_soon_threadsafe(ws.close)


class _RemoteFrame(SeatFrame):
    """The seat's position after some moves: it answers as a state does (whose turn, the
    scores, the outcome); it is played on through the table (``seat.play``)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise IllegalMoveError("a seat plays through its table: seat.play(move)", move="",
                               rule="", reason="remote seat")

    play = play_chance = sample_chance = parse = explain = play_action = _refuse

    def __repr__(self) -> str:
        table = self.record
        return (f"<seat {seat_name(table.seat)} of table {table.table_id}, "
                f"{self.game.name}, move {self.ply}>")


class SeatMirror:
    """What one seat of a server's table knows, built from the server's ``welcome`` and
    ``update`` messages alone (:meth:`Hall.seat_update`), read as a table is read.

    It holds the seat's view after every move, what it was told of each move, its legal
    moves and a cursor that steps back through that history. A
    :class:`RemoteTable` is one fed over a WebSocket (a notebook's seat); the table
    server keeps one per seat fed in the same process, from which it makes the screens
    of the seat's web pages (:mod:`.screen`): either way a seat's screen is made from
    nothing but that seat's messages."""

    remote = True

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._news = threading.Condition(self._lock)
        self._observers: list[Callable[[str], None]] = []
        self.version = 0
        self.previous_games: list[Any] = []
        self.notice: tuple[str, str] | None = None
        self.serial = 0
        self.game_number = 1
        self.bot_delay = 0.0
        self.autoplaying = False
        self.pending_variant = None
        self.connected = True
        self.status = "playing"
        self.note = ""
        self._welcome: dict[str, Any] | None = None
        self._index = 0

    def take(self, msg: dict[str, Any]) -> bool:
        """Take in a ``welcome`` or ``update`` message; returns whether the seat's game
        moved (a move, its legal moves or the table's status changed)."""
        kind = msg.get("type")
        with self._lock:
            if kind == "welcome":
                if self._welcome is None:
                    self._setup(msg)
                return False
            if kind != "update" or self._welcome is None:
                raise ValueError(f"a seat takes welcome and update messages, not {kind!r}")
            at_end = self._index == len(self._told)
            before = (len(self._told), self._legal, self.status)
            self._apply(msg)
            if at_end:
                self._index = len(self._told)
            self.version += 1
            self._news.notify_all()
            return (len(self._told), self._legal, self.status) != before

    def _gap(self, since: int) -> None:
        """An update began after moves this seat has not had (``since`` it has)."""
        raise ValueError(f"an update from move {since + 1} on is missing moves")

    def _setup(self, msg: dict[str, Any]) -> None:
        self._welcome = msg
        self.table_id: str = msg["table"]
        self.game: Game = game_registry.get(msg["game"])
        self.variant = self.game.variant(msg["variant"])
        self.ruleset: str = msg["ruleset"]
        self.seat: int = seat_index(msg["seat"], msg["players"])
        self.seats: list[str] = list(msg["seats"])
        self.num_players: int = msg["players"]
        #: Whether the teacher lets this seat ask the solver for the best move.
        self.solver: bool = msg.get("solver") is True
        self._engine = self.game.engine(self.variant)
        self._secret = self._engine.has_secrets
        self._told: list[Told] = []
        self._observed: list[str] = []
        self._view_data: list[Any] = []
        self._views: list[Any] = []
        self._legal: list[list[Any]] | None = None
        self._result: dict[str, Any] = {}
        self.connected_seats: list[int] = []
        if not self._secret:
            start = self.game.new(self.variant, seed=0)
            self._line = Line(0, None, 0, start)
            self._end_raw = start.raw

    def _apply(self, msg: dict[str, Any]) -> None:
        """Take in an update: the moves from ``from`` on, the turn, the legal moves.
        The whole message is read first and only then taken in: a message that cannot
        be read (``ValueError``, ``KeyError``, ``TypeError``…) changes nothing."""
        first = msg["from"]
        if isinstance(first, bool) or not isinstance(first, int) or first < 0:
            raise ValueError(f"'from' is a move count, not {first!r}")
        if first > len(self._told):
            self._gap(len(self._told))
            return
        moves = msg["moves"]
        if not isinstance(moves, list):
            raise ValueError("'moves' is a list")
        engine = self._engine
        view0 = None
        if "view0" in msg and not self._views:
            view0 = (msg["view0"], engine.view_from_data(msg["view0"], self.seat))
        told: list[Told] = []
        observed: list[str] = []
        views: list[tuple[Any, Any]] = []           # (data, view) in games with secrets
        played: list[tuple[Any, Any, str]] = []     # (action, raw, by) in open games
        end_raw = None if self._secret else self._end_raw
        for entry in moves[len(self._told) - first:]:
            if not isinstance(entry["told"], str) or not isinstance(entry["by"], str):
                raise ValueError(f"move {entry.get('ply')!r}: 'told' and 'by' are text")
            told.append(Told(int(entry["seat"]), entry["by"], entry["log"],
                             entry.get("sentence", "")))
            observed.append(entry["told"])
            if self._secret:
                views.append((entry["view"], engine.view_from_data(entry["view"],
                                                                   self.seat)))
            else:
                action = engine.parse(end_raw, entry["told"])
                end_raw = engine.apply(end_raw, action)
                played.append((action, end_raw, entry["by"]))
        legal = msg.get("legal")
        if legal is not None and not isinstance(legal, list):
            raise ValueError("'legal' is a list of moves or null")
        seats = list(msg.get("seats", self.seats))
        connected = list(msg.get("connected", []))
        # Read: now taken in, all of it.
        if view0 is not None:
            self._view_data.append(view0[0])
            self._views.append(view0[1])
        self._told += told
        self._observed += observed
        for data, view in views:
            self._view_data.append(data)
            self._views.append(view)
        for action, raw, by in played:
            self._line._append(action, raw, by)
        if played:
            self._end_raw = end_raw
        self._legal = legal
        self._result = msg.get("result", {})
        self.status = msg.get("status", "playing")
        self.note = msg.get("note", "")
        self.seats = seats
        self.connected_seats = connected

    def _notify(self, what: str) -> None:
        for callback in list(self._observers):
            callback(what)

    def observe(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(what)`` after every change (news from the server, the cursor):
        in a notebook on the kernel's own loop."""
        self._observers.append(callback)

    def unobserve(self, callback: Callable[[str], None]) -> None:
        self._observers.remove(callback)

    def say(self, text: str, kind: str = "info") -> None:
        """Answer the last action (as :meth:`Table.say`)."""
        self._say(text, kind)

    def _say(self, text: str, kind: str) -> None:
        self.notice = (text, kind)
        self._notify("notice")

    # ------------------------------------------------------------------ reading
    def _frame(self, index: int) -> SeatFrame:
        view = self._views[index] if self._secret else self._line.state_at(index)
        return _RemoteFrame(self, view, index, self.game, self.variant)

    @property
    def state(self) -> SeatFrame:
        """The seat's position at the cursor."""
        with self._lock:
            return self._frame(self._index)

    @property
    def view(self) -> Any:
        """The seat's view now (at the present, whatever the cursor)."""
        with self._lock:
            return self._frame(len(self._told)).view()

    @property
    def replay(self) -> SeatMirror:
        """The table is its own replay (one line: the seat's history)."""
        return self

    @property
    def index(self) -> int:
        return self._index

    @property
    def length(self) -> int:
        return len(self._told)

    @property
    def at_end(self) -> bool:
        return self._index == len(self._told)

    line = 0

    @property
    def lines(self) -> list[Any]:
        class _One:
            id, parent, at = 0, None, 0
        return [_One()]

    @property
    def seat_mode(self) -> bool:
        return False

    @property
    def by(self) -> list[str]:
        return [t.by for t in self._told]

    @property
    def bots(self) -> dict[int, Any]:
        return {}

    @property
    def bot_labels(self) -> dict[int, str]:
        return {s: who for s, who in enumerate(self.seats) if who != "human"}

    def seat_label(self, seat: int) -> str:
        return self.seats[seat]

    @property
    def current_player(self) -> int:
        return self.state.current_player

    @property
    def is_chance(self) -> bool:
        return self.state.is_chance

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def record(self, **meta: Any) -> SeatRecord:
        """This seat's record: what it was told of every move and its views, no seed."""
        with self._lock:
            n = len(self._told)
            last = self._frame(n)
            result = {"ply": n, "over": last.is_over, "winners": list(last.winners()),
                      "scores": [float(x) for x in last.scores()]}
            by = tuple(t.by for t in self._told)
            return SeatRecord(game=self.game.name, variant=self.variant.to_dict(),
                              seat=self.seat, moves=tuple(self._observed),
                              views=tuple(self._view_data) if self._secret else None,
                              result=result, meta={"table": self.table_id, **meta},
                              ruleset=self.ruleset, by=by if any(by) else None)

    def not_playable(self) -> str:
        """Why this seat cannot move now, ``""`` when it can."""
        if not self.connected:
            return "Reconnecting to the table server…"
        if self.status != "playing":
            return f"Not now: {self.note}."
        if not self.at_end:
            return (f"You are looking at move {self._index} of {self.length}: go to the "
                    "end (⏭) to play.")
        return ""

    def whose_turn_note(self) -> str:
        state = self.state
        cur = state.current_player
        if not self.at_end or cur < 0 or cur == self.seat:
            return ""
        return f"Waiting for {seat_name(cur)}" + (" (a bot)" if self.seats[cur] != "human"
                                                 else "") + " to move."

    # ------------------------------------------------------------------ views
    def viewpoint_options(self) -> list[tuple[str, Any]]:
        return [(f"seat {seat_name(self.seat)}", self.seat)]

    def check_viewpoint(self, viewpoint: Any) -> None:
        if viewpoint != self.seat or isinstance(viewpoint, bool):
            raise ValueError(f"this page is seat {seat_name(self.seat)} at table "
                             f"{self.table_id}: it shows that seat's view only")

    def view_seat(self, viewpoint: Any) -> int:
        return self.seat

    def view_of(self, viewpoint: Any) -> Any:
        return self.state.view()

    def shows_secrets(self, viewpoint: Any) -> bool:
        return False

    def views_of_line(self, viewpoint: Any, start: int, stop: int) -> list[Any]:
        with self._lock:
            return [self._frame(i).view() for i in range(start, stop + 1)]

    def save_target(self, viewpoint: Any) -> int:
        return self.seat

    def record_to_save(self, viewpoint: Any) -> tuple[SeatRecord, str]:
        return self.record(), f"seat {seat_name(self.seat)}'s record"

    # ------------------------------------------------------------------ moves
    def legal_moves(self) -> MoveList:
        """This seat's legal moves now (none when it is not its turn)."""
        with self._lock:
            if not self.at_end or not self._legal:
                return MoveList()
            name = self.game.name
            return MoveList(Move(name, action, notation, description)
                            for action, notation, description in self._legal)

    def parse(self, text: str) -> Move:
        """One of this seat's legal moves by its notation."""
        moves = self.legal_moves()
        found = moves.get(text) if isinstance(text, str) else None
        if found is None:
            raise InvalidMoveError(f"{text!r} is not one of your moves now"
                                   + (f"; they are {', '.join(moves.notations())}"
                                      if moves else ": it is not your turn"),
                                   text=str(text), legal=moves.notations())
        return found

    # ------------------------------------------------------------------ the cursor
    def goto(self, index: int) -> SeatFrame:
        """Step through this seat's history (nothing is played)."""
        index = cursor_index(index, self.length, "this game")
        self.serial += 1
        self.notice = None
        self._index = index
        self._notify("moves")
        return self.state

    def step(self) -> bool:
        """One move forward in the seat's history; at the present, nothing (the server
        plays the dice and the bots)."""
        if not self.at_end:
            self.goto(self._index + 1)
            return True
        self.serial += 1
        why = self.whose_turn_note() or self.not_playable() or (
            "The game is over." if self.is_over else "It is your turn: choose a move.")
        self._say(why, "info")
        return False

    def switch_line(self, line: int) -> SeatFrame:
        if line != 0:
            raise IndexError("a seat of the server sees one line (0)")
        return self.state

    def resolve_chance(self) -> SeatFrame:
        """Chance is resolved by the server: nothing to do here."""
        return self.state

    def autoplay(self, on: bool = True, delay: float | None = None) -> None:
        """Step forward through the seat's history on a timer (to the present)."""
        self.autoplaying = bool(on)
        self._notify("autoplay")
        loop = kernel_loop()
        if not on:
            return
        if loop is None:
            self.goto(self.length)
            self.autoplaying = False
            self._notify("autoplay")
            return

        def tick() -> None:
            if not self.autoplaying:
                return
            if self.at_end:
                self.autoplaying = False
                self._notify("autoplay")
                return
            self.goto(self._index + 1)
            loop.call_later(delay or 0.6, tick)
        loop.call_later(0, tick)

    def _teachers(self, what: str) -> Any:
        raise ValueError(f"{what} is the teacher's: this page plays seat "
                         f"{seat_name(self.seat)} at table {self.table_id} of the server")

    def set_bot(self, seat: int, policy: Any) -> None:
        self._teachers("who plays a seat")

    def set_variant(self, *args: Any, **kwargs: Any) -> Any:
        return self._teachers("changing the rules")

    set_ruleset = new_game = propose_variant = set_variant

    def confirm_variant(self, yes: bool) -> None:
        return None

    def proposal_text(self) -> str:
        return ""

    def restore(self, index: int = -1) -> Any:
        return self._teachers("an earlier game")

    def load(self, source: Any) -> Any:
        return self._teachers("loading a record")

    @property
    def moves_played(self) -> int:
        return self.length

    # ------------------------------------------------------------------ what is told
    def log(self, viewpoint: Any, lo: int, hi: int) -> list[tuple[str, int]]:
        with self._lock:
            return log_entries(self._told[lo:hi], lo)

    def last_move(self, viewpoint: Any) -> str:
        with self._lock:
            i = self._index
            lo = max(0, i - 5)
            return last_move(self._told[lo:i], i, lo)

    def facts(self, viewpoint: Any) -> Facts:
        """What the status line states: from the seat's own history."""
        with self._lock:
            frame = self._frame(self._index)
            cur = frame.current_player
            who = self.seats[cur] if 0 <= cur < len(self.seats) else "human"
            note = stopped = ""
            if not self.connected:
                note = "Reconnecting to the table server…"
            elif self.status != "playing":
                stopped = self.note or f"the table is {self.status}"
                if self._index != len(self._told):      # stepped back: still said
                    note = f"{stopped[0].upper()}{stopped[1:]}."
            else:
                note = self.whose_turn_note()
            return Facts(index=self._index, length=len(self._told), line=0, lines=1,
                         turn=cur, turn_by=HUMAN if who == "human" else f"bot:{who}",
                         scores=tuple(frame.scores()), last=self.last_move(viewpoint),
                         outcome=frame.outcome() if cur == TERMINAL else "", note=note,
                         stopped=stopped)

    def __repr__(self) -> str:
        return (f"<SeatMirror table {getattr(self, 'table_id', '?')} seat "
                f"{seat_name(self.seat) if hasattr(self, 'seat') else '?'}, move "
                f"{self._index}/{self.length}>")


class RemoteTable(SeatMirror, _Link):
    """A seat of a table on the server: ``classroom.join(url, code)``.

    It holds what the server sent this seat and nothing else: ``view`` (the seat's view
    now, equal to ``state.view(seat)`` of the truth), ``legal_moves()``, ``play(move)``,
    ``record()`` (this seat's :class:`SeatRecord`), ``wait(timeout)`` (until news
    arrives). A cursor steps back through the seat's own history (a widget's step bar);
    moves are played at the present only."""

    remote = True

    def __init__(self, url: str, credential: str, *, timeout: float = 10,
                 context: ssl.SSLContext | None = None) -> None:
        super().__init__()
        self._credential = credential
        self.connected = False
        self._answers: dict[str, dict[str, Any]] = {}     # client move id → answer
        self._pending: dict[str, dict[str, Any]] = {}     # sent, not answered yet
        self._late: dict[str, str] = {}       # move id → move text whose play() gave up
        self._open(url, context, timeout)

    # ------------------------------------------------------------------ connection
    def _greeting(self) -> list[dict[str, Any]]:
        with self._lock:
            since = len(self._told) if self._welcome else 0
            pending = list(self._pending.values())   # resent with the same id: played once
        return [{"type": "hello", "credential": self._credential, "since": since},
                *pending]

    def _lost(self) -> None:
        with self._lock:
            self.connected = False
        self._notify("connection")

    def _bad_news(self, exc: Exception) -> None:
        super()._bad_news(exc)
        self._say(f"An update from the server could not be read ({exc}).", "error")

    # ------------------------------------------------------------------ news
    def _receive(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "welcome":
            with self._lock:
                if self._welcome is None:
                    self._setup(msg)
                self.connected = True
            self._notify("connection")
        elif kind == "update":
            moved = self.take(msg)
            self._ready.set()
            # News with no move in it (a seat connected or left) only changes the status
            # line: a move being put together on this page stays as it is.
            self._notify("moves" if moved else "connection")
        elif kind in ("ack", "error") and isinstance(msg.get("id"), str):
            with self._lock:
                self._pending.pop(msg["id"], None)
                late = self._late.pop(msg["id"], None)
                if late is None:
                    self._answers[msg["id"]] = msg
                self._news.notify_all()
            if late is not None:              # nobody waits for it: the page is told
                if kind == "ack":
                    self._say(f"Your move {late!r} was played after all (the server's "
                              "answer came late).", "info")
                else:
                    self._say(f"Your move {late!r} was not played: "
                              f"{msg.get('error', 'refused')}", "refused")
        elif kind == "error":
            text = msg.get("error", "the server refused a message")
            if msg.get("code") in ("bad_credential", "no_credential", "limit") and \
                    not self._ready.is_set():
                self._fatal = f"the server does not know this seat: {text}"
                self._ready.set()
                return
            self._say(text, "error")

    def _gap(self, since: int) -> None:
        self._send({"type": "sync", "since": since})

    def _notify(self, what: str) -> None:
        for callback in list(self._observers):
            self._deliver(callback, what)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until news arrives from the server (a move by anyone, a pause); returns
        whether it did within ``timeout`` seconds."""
        with self._lock:
            version = self.version
            return self._news.wait_for(lambda: self.version != version, timeout)

    def play(self, move: Move | str, by: str = HUMAN, *, timeout: float = 10) -> SeatFrame:
        """Send a move to the server and wait for its answer: the new position, or
        :class:`IllegalMoveError` with the server's reason (the rule). A move sent while
        the connection is down is sent again when it comes back, with the same id:
        the server plays it once."""
        self.serial += 1
        self.notice = None
        why = self.not_playable()
        if why and self.connected:
            self._say(why, "refused")
            raise IllegalMoveError(why, move=str(move), rule="", reason="not now")
        text = move.notation if isinstance(move, Move) else move
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is its notation (text) or a Move, not "
                                   f"{type(move).__name__}", text=str(move), legal=[])
        move_id = uuid.uuid4().hex
        message = {"type": "play", "move": text, "id": move_id}
        with self._lock:
            self._pending[move_id] = message
        self._send(message)
        with self._lock:
            answered = self._news.wait_for(lambda: move_id in self._answers, timeout)
            answer = self._answers.pop(move_id, None)
            if answer is None:
                self._late[move_id] = text    # its answer, if it comes, goes to the page
        if not answered or answer is None:
            text_ = (f"No answer from the server within {timeout:g} s; the move {text!r} "
                     "is sent again when the connection is back, and played at most once.")
            self._say(text_, "error")
            raise ClassroomError(text_)
        if answer["type"] == "error":
            self._say(answer["error"], "refused")
            raise IllegalMoveError(answer["error"], move=text, rule="",
                                   reason=answer.get("code", ""))
        with self._lock:
            self._news.wait_for(lambda: len(self._told) > answer["ply"], timeout)
            self._index = len(self._told)
        self._notify("moves")
        return self.state

    def __repr__(self) -> str:
        return (f"<RemoteTable {self.url} table {getattr(self, 'table_id', '?')} seat "
                f"{seat_name(self.seat) if hasattr(self, 'seat') else '?'}, move "
                f"{self._index}/{self.length}>")


class ClassLink:
    """A student's lesson page joined to the class: ``classroom.join_class(url, code)``.
    :meth:`send` passes one exercise check to the server (for the teacher's tally);
    :meth:`own_checks` reads this student's own last checks of a lesson back (a
    reloaded page shows them again), and nothing of another student's."""

    def __init__(self, url: str, credential: str, class_name: str, student: str, *,
                 context: ssl.SSLContext | None = None) -> None:
        self.url = _base(url)
        self._credential = credential
        self.class_name = class_name
        self.student = student
        self._context = context
        self.sent = 0

    def send(self, lesson: str, question: str, answer: str, verdict: str,
             mistake: str = "", *, timeout: float = 10) -> None:
        """Send one check: the lesson, the question's name, the answer as typed, the
        verdict (``right``, ``wrong`` or ``invalid``) and the mistake it matched;
        :class:`ClassroomError` if it did not arrive within ``timeout`` seconds or the
        server refused it. (A lesson page sends through
        :func:`janus_widgets.analysis.class_link.report`, which never waits.)"""
        _request(self.url, "POST", "/api/answers", secret=self._credential,
                 data={"lesson": lesson, "question": question, "answer": str(answer)[:200],
                       "verdict": verdict, "mistake": mistake[:200]},
                 timeout=timeout, context=self._context)
        self.sent += 1

    def own_checks(self, lesson: str, *, timeout: float = 10) -> dict[str, str]:
        """This student's last answer to each question of ``lesson`` they checked, as
        they typed it: question → answer (:class:`ClassroomError` as :meth:`send`)."""
        answer = _request(self.url, "GET", "/api/answers?"
                          + urllib.parse.urlencode({"lesson": lesson}),
                          secret=self._credential, timeout=timeout, context=self._context)
        return {row["question"]: row["answer"] for row in answer["answers"]}

    def __repr__(self) -> str:
        return f"<ClassLink {self.class_name}/{self.student} at {self.url}>"


def join_class(url: str, code: str, *, context: ssl.SSLContext | None = None) -> ClassLink:
    """A student's link to the class with the code from the class list."""
    base = _base(url)
    answer = _request(base, "POST", "/api/join_class",
                      data={"code": code, "client": CLIENT_ID}, context=context)
    return ClassLink(base, answer["credential"], answer["class"], answer["student"],
                     context=context)


class TeacherWatch(_Link):
    """The teacher's live connection: every table's summary as it changes, the moves of
    the tables watched, every answer as it arrives. ``on(callback)`` calls
    ``callback(message)`` for each (in a notebook on the kernel's loop)."""

    def __init__(self, url: str, token: str, *, timeout: float = 10,
                 context: ssl.SSLContext | None = None) -> None:
        self._token = token
        self._callbacks: list[Callable[[dict[str, Any]], None]] = []
        self._lock = threading.Lock()
        self.tables: dict[str, dict[str, Any]] = {}
        self.watching: set[str] = set()
        self.connected = False
        self._open(url, context, timeout)

    def _greeting(self) -> list[dict[str, Any]]:
        return [{"type": "hello", "token": self._token},
                *({"type": "watch", "table": t} for t in sorted(self.watching))]

    def _receive(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "error" and not self._ready.is_set():
            self._fatal = msg.get("error", "refused")
            self._ready.set()
            return
        if kind == "welcome":
            with self._lock:
                self.tables = {t["id"]: t for t in msg["tables"]}
                self.connected = True
            self._ready.set()
        elif kind == "table":
            with self._lock:
                self.tables[msg["table"]["id"]] = msg["table"]
        self._dispatch(msg)

    def _lost(self) -> None:
        self.connected = False
        self._dispatch({"type": "connection", "connected": False})

    def _dispatch(self, msg: dict[str, Any]) -> None:
        for callback in list(self._callbacks):
            self._deliver(callback, msg)

    def on(self, callback: Callable[[dict[str, Any]], None]) -> None:
        """Call ``callback(message)`` for every message from now on."""
        self._callbacks.append(callback)

    def watch(self, table_id: str) -> None:
        """Receive the moves of a table as they come (``moves`` messages)."""
        self.watching.add(table_id)
        self._send({"type": "watch", "table": table_id})


#: This process's own id, sent with every join: its wrong codes count against it, not
#: against every kernel behind the same address (a JupyterHub, a school's network).
CLIENT_ID = uuid.uuid4().hex


def join(url: str, code: str, *, timeout: float = 10,
         context: ssl.SSLContext | None = None) -> RemoteTable:
    """Join a seat with its code: the seat's :class:`RemoteTable`."""
    base = _base(url)
    answer = _request(base, "POST", "/api/join", data={"code": code, "client": CLIENT_ID},
                      context=context)
    return RemoteTable(base, answer["credential"], timeout=timeout, context=context)

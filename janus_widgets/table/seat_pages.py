"""The seat pages the table server serves: one static page, and one :class:`PageView`
per open page that makes its screens.

A student's page (``GET /seat``, ``/seat?code=KM4TPXRA3C`` from a join slip) is static
HTML, CSS and a small JavaScript module of our own (``seat_page/``): it joins with the
code, signs in on the WebSocket with ``{"type": "hello", "credential": …, "screen":
true}`` and from then on paints each ``screen`` message it is sent
(:meth:`~.screen.Screen.to_json`; a layer of the drawing the page already has is sent
as ``"same"``, and a layer that changed as an edit of the one the page has,
``{"runs": […]}`` (:func:`layer_edit`): Janus's board is 90 kB, and a move changes a
dozen of its 800 shapes) and sends what the student does: a click on the board
(``{"type": "click", "serial": n, "region": i}``: the index of a region of screen ``n``,
never a key or a move), a move chosen in the list (``select``), the step bar (``goto``),
a move to play (``play``, as every seat sends it), and asks for its record or a
picture (``record``, ``picture``).

Nothing of a page's screen comes from anywhere but its seat's messages: the server
keeps one :class:`~.client.SeatMirror` per seat, fed by the same outgoing filter as
every other seat's connection (:meth:`Hall.seat_update`); a :class:`PageView` adds what
the page holds of its own (its cursor, its selection, the answer to its last action)
and makes the screen with the same screen model as the notebook widget
(:mod:`.screen`).

>>> import json
>>> from janus_widgets.table.client import SeatMirror
>>> m = SeatMirror()
>>> _ = m.take({"type": "welcome", "table": "t1", "seat": "A", "game": "jactus",
...             "variant": {"players": 2}, "ruleset": "rulebook", "players": 2,
...             "seats": ["human", "greedy"]})
>>> _ = m.take({"type": "update", "from": 0, "length": 0, "moves": [], "turn": 0,
...             "legal": [[0, "r*", "throw all five dice"]], "status": "playing"})
>>> page = PageView(m)
>>> screen = page.screen()
>>> screen["status"]["turn"], [o["notation"] for o in screen["moves"]["options"]]
('A to move (human)', ['r*'])
>>> page.select(0); page.screen()["status"]["message"]
'Selected r*: throw all five dice'
"""

from __future__ import annotations

import email.utils
import hashlib
import json
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core.protocol import seat_name
from . import screen as S
from .client import SeatMirror

__all__ = ["PageView", "PageError", "PAGE_FILES", "CSP", "SECURITY_HEADERS", "page_file",
           "PageFile", "page_file_served", "first_screen_html", "FIRST_SCREEN_ID",
           "layer_edit", "held_layers", "message_text"]

#: Screens of a page whose click regions are remembered (a click names its screen).
KEPT_SCREENS = 8

#: The files of the seat page, served from this folder only (names checked exactly).
PAGE_DIR = Path(__file__).resolve().parent / "seat_page"
PAGE_FILES = {"seat.html": "text/html; charset=utf-8",
              "seat.js": "text/javascript; charset=utf-8",
              "seat.css": "text/css; charset=utf-8",
              "icon.png": "image/png"}
#: Every page the table server sends carries this policy: nothing but our own files,
#: no inline script or style, no framing, no plugin, no form sent elsewhere.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: "
       "blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                    "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
                    "Cross-Origin-Opener-Policy": "same-origin",
                    "Cache-Control": "no-cache"}


class PageError(ValueError):
    """A page's message that cannot be done: ``code`` for programs, the text for people."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code
        self.text = text


def page_file(name: str) -> tuple[bytes, str]:
    """One of the seat page's files and its content type (:class:`KeyError` for any
    other name: nothing else of the disk is served)."""
    served = page_file_served(name)
    return served.body, served.kind


@dataclass(frozen=True)
class PageFile:
    """A file of the seat page as it is served: its bytes, content type, validators
    (a strong ``etag`` of its content, ``modified``: its file's time as an HTTP date)
    and when it was modified (seconds)."""

    body: bytes
    kind: str
    etag: str
    modified: str
    mtime: float

    def fresh_for(self, if_none_match: str | None, if_modified_since: str | None) -> bool:
        """Whether a browser that sent these request headers holds this very file (it
        is answered 304, no body): ``If-None-Match`` names its ETag (or ``*``), else,
        when it sends none, ``If-Modified-Since`` is not before the file's time.

        >>> f = page_file_served("icon.png")
        >>> f.fresh_for(f.etag, None), f.fresh_for('"other", ' + f.etag, None)
        (True, True)
        >>> f.fresh_for('"other"', f.modified), f.fresh_for(None, f.modified)
        (False, True)
        >>> f.fresh_for(None, "Thu, 01 Jan 1970 00:00:00 GMT"), f.fresh_for(None, "soon")
        (False, False)
        """
        if if_none_match is not None:
            tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
            return "*" in tags or self.etag in tags
        if if_modified_since is None:
            return False
        try:
            since = email.utils.parsedate_to_datetime(if_modified_since).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
            return False                 # a date it cannot read: the file is sent
        return int(self.mtime) <= since


def page_file_served(name: str) -> PageFile:
    """One of the seat page's files with its validators (:class:`KeyError` for any
    other name), read once for each version of the file (its size and time).

    >>> f = page_file_served("seat.js")
    >>> f.kind, f.etag.startswith('"') and len(f.etag) == 34, f.modified.endswith(" GMT")
    ('text/javascript; charset=utf-8', True, True)
    """
    kind = PAGE_FILES[name]
    info = (PAGE_DIR / name).stat()
    return _read_page_file(name, kind, info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=16)
def _read_page_file(name: str, kind: str, mtime_ns: int, size: int) -> PageFile:
    body = (PAGE_DIR / name).read_bytes()
    mtime = mtime_ns / 1e9
    return PageFile(body, kind, '"' + hashlib.sha256(body).hexdigest()[:32] + '"',
                    email.utils.formatdate(mtime, usegmt=True), mtime)


_JSON = json.JSONEncoder(separators=(",", ":")).encode


def message_text(data: dict[str, Any]) -> str:
    """A message as the JSON text a socket sends: ``json.dumps(data, separators=(",",
    ":"))``, but a screen's layers (:class:`~.screen.ShapeList`) are joined from the
    text each shape was given once, not encoded again (Janus's board is 800 shapes).

    >>> from janus_widgets.drawing import Rect
    >>> screen = {"type": "screen", "drawing": {"width": 9, "layers": {
    ...     "board": S.ShapeList.of([Rect(0, 0, 1, 1)]), "pieces": "same",
    ...     "highlight": {"runs": S.ShapeList.of([[0, 2]])}}}, "serial": 3}
    >>> message_text(screen) == json.dumps(screen, separators=(",", ":"))
    True
    """
    drawing = data.get("drawing") if data.get("type") == "screen" else None
    layers = drawing.get("layers") if isinstance(drawing, dict) else None
    if not isinstance(layers, dict):
        return _JSON(data)
    parts = []
    for key, value in data.items():
        if key != "drawing":
            parts.append(f"{_JSON(key)}:{_JSON(value)}")
            continue
        inner = []
        for dkey, dvalue in drawing.items():
            if dkey != "layers":
                inner.append(f"{_JSON(dkey)}:{_JSON(dvalue)}")
                continue
            made = []
            for name, layer in layers.items():
                if isinstance(layer, S.ShapeList):
                    text = layer.text
                elif isinstance(layer, dict) and isinstance(layer.get("runs"), S.ShapeList) \
                        and len(layer) == 1:
                    text = '{"runs":' + layer["runs"].text + "}"
                else:
                    text = _JSON(layer)
                made.append(f"{_JSON(name)}:{text}")
            inner.append('"layers":{' + ",".join(made) + "}")
        parts.append('"drawing":{' + ",".join(inner) + "}")
    return "{" + ",".join(parts) + "}"


#: Where the seat page's first screen goes in the page (see :func:`first_screen_html`).
FIRST_SCREEN_ID = "first-screen"


def first_screen_html(page: bytes, first: dict[str, Any]) -> bytes:
    """The seat page with ``first`` in it, in a JSON data block (``<script
    type="application/json">``: data the page reads, never run, so the page's
    Content-Security-Policy stays as it is): what a slip's address shows before the
    page's socket is open (its seat's ``welcome`` and ``screen``, or why the code was
    ``refused``). Every ``<``, ``>`` and ``&`` of the JSON is written as its escape, so
    no text in it (a seat's name, a move's words) can end the block or open a tag.

    >>> html = first_screen_html(b"<body><p>x</body>", {"refused": {"error": "</script><b>"}})
    >>> print(html.decode())
    <body><p>x<script type="application/json" id="first-screen">{"refused":{"error":"\\u003c/script\\u003e\\u003cb\\u003e"}}</script></body>
    >>> json.loads(html.decode().split('">')[1].split("</script>")[0])
    {'refused': {'error': '</script><b>'}}
    """
    text = "{" + ",".join(_JSON(key) + ":" + (message_text(value) if key == "screen"
                                              else _JSON(value))
                          for key, value in first.items()) + "}"
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    block = f'<script type="application/json" id="{FIRST_SCREEN_ID}">{text}</script>'
    head, end, tail = page.rpartition(b"</body>")
    if not end:
        raise ValueError("the seat page has no </body>")
    return head + block.encode("ascii") + end + tail


def layer_edit(old: Sequence[Hashable], index: dict[Hashable, int],
               new: Sequence[Hashable]) -> list[Any]:
    """How to make layer ``new`` from ``old`` (what the page holds; ``index``: each of
    its shapes → its first place): runs ``[start, count]`` of ``old``'s shapes, and the
    shapes ``old`` lacks as they are, in the order of ``new``.

    >>> old = ["a", "b", "c", "d", "e"]
    >>> layer_edit(old, {x: i for i, x in enumerate(old)}, ["a", "b", "d", "e", "z"])
    [[0, 2], [3, 2], 'z']
    """
    out: list[Any] = []
    run: list[int] | None = None          # the run being extended: [start, count]
    size = len(old)
    for shape in new:
        if run is not None:
            at = run[0] + run[1]
            if at < size and (old[at] is shape or old[at] == shape):
                run[1] += 1
                continue
        start = index.get(shape)
        if start is None:
            run = None
            out.append(shape)
        else:
            run = [start, 1]
            out.append(run)
    return out


def held_layers(held: dict[str, list[Any]], screen: dict[str, Any]) -> dict[str, Any]:
    """Read a screen's layers as a page does: ``"same"`` is the layer ``held``,
    ``{"runs": …}`` is made from it (:func:`layer_edit`); ``held`` (what the page holds,
    layer name → shapes) is updated, and the screen's layers are replaced by the shapes.
    A Python reader of seat-page frames (the tests, the benchmarks) uses it; the page's
    ``seat.js`` does the same. :class:`ValueError` for a layer it cannot make.

    >>> held = {}
    >>> held_layers(held, {"drawing": {"layers": {"b": [["rect", 1], ["text", 2]]}}})
    {'drawing': {'layers': {'b': [['rect', 1], ['text', 2]]}}}
    >>> held_layers(held, {"drawing": {"layers": {"b": {"runs": [[1, 1], ["line", 3]]}}}})
    {'drawing': {'layers': {'b': [['text', 2], ['line', 3]]}}}
    """
    layers = screen["drawing"]["layers"]
    for name, shapes in layers.items():
        if shapes == "same" or isinstance(shapes, dict):
            if name not in held:
                raise ValueError(f"layer {name!r} refers to a layer the page does not hold")
            if isinstance(shapes, dict):
                base, made = held[name], []
                for item in shapes["runs"]:
                    if isinstance(item[0], int):
                        start, count = item
                        if not (0 <= start and count > 0 and start + count <= len(base)):
                            raise ValueError(f"layer {name!r}: run {item!r} is outside "
                                             f"the {len(base)} shapes held")
                        made.extend(base[start:start + count])
                    else:
                        made.append(item)
                layers[name] = made
            else:
                layers[name] = held[name]
        held[name] = layers[name]
    return screen


def _index(value: Any, count: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
        raise PageError("bad_request", f"{what} is a whole number from 0 to {count - 1}, "
                                       f"not {value!r}" if count else f"there is no {what} "
                                       "here")
    return value


class PageView:
    """One open seat page: its cursor (``None`` follows the present), its selection and
    highlights, and the answer to its last action while it applies. Its screens are
    made from ``mirror`` (the seat's :class:`SeatMirror`) and nothing else."""

    def __init__(self, mirror: SeatMirror) -> None:
        self.mirror = mirror
        self.index: int | None = None
        self.selection: Any = None
        self.highlights: tuple[Hashable, ...] = ()
        self.serial = 0
        self._keys: list[Hashable] = []
        self._keys_of: dict[int, list[Hashable]] = {}   # the last screens' region keys
        self._message: tuple[str, str] = ("", "info")
        self._for: Hashable = None
        self._hint: tuple[S.Panel, Hashable] | None = None   # the solver's, and for what
        #: what this page holds of each layer: its shapes, and each shape's first place
        self._sent_layers: dict[str, tuple[list[Any], dict[Any, int] | None]] = {}
        self._made_from: Hashable = None     # what the last screen was made from
        self._fresh()

    # ------------------------------------------------------------------ reading
    @property
    def board(self) -> Any:
        return self.mirror.game.board()

    @property
    def seat(self) -> int:
        return self.mirror.seat

    def _at(self) -> None:
        """Put the seat's cursor where this page looks (pages share the mirror)."""
        length = self.mirror.length
        if self.index is not None and self.index >= length:
            self.index = None
        self.mirror._index = length if self.index is None else self.index

    def _viewer(self) -> S.Viewer:
        return S.Viewer(self.seat, self.selection, self.highlights, locked=True)

    def _situation(self) -> Hashable:
        m = self.mirror
        return (m.length if self.index is None else ("at", self.index), m.status,
                repr(self.selection), self.highlights)

    def _position(self) -> Hashable:
        m = self.mirror
        return (m.length if self.index is None else ("at", self.index), m.status)

    def say(self, text: str, kind: str = "info") -> None:
        """Answer this page's last action (it stays while the situation does)."""
        self._at()
        self._message = (text, kind)
        self._for = self._situation()

    def shown(self) -> Any:
        """The position this page shows (the seat's view at its cursor), made from the
        seat's mirror alone: what the solver's hint is asked about."""
        self._at()
        return S.shown_view(self.mirror, self._viewer())

    def show_hint(self, panel: S.Panel) -> None:
        """Show the solver's ``panel`` under the board while the page shows the position
        it was made for (a move, a step or a selection takes it away)."""
        self._at()
        self._hint = (panel, self._position())

    def _made_of(self, message: tuple[str, str]) -> Hashable:
        """Everything a screen of this page is made from but who is connected: the
        seat's mirror (what it was told), where the page looks, what it selected, its
        message and its hint."""
        m = self.mirror
        return (m.length, repr(m._legal), repr(m._result), m.status, m.note,
                tuple(m.seats), self._situation(), message, self._hint)

    def signed_in(self) -> dict[str, Any]:
        """What this page is sent when its socket signs in: a page whose last screen
        went in the page itself (a slip's address) and still holds is told it is
        ``live`` (the screen's serial, which its clicks name, and who is connected now:
        the one part that changed); any other is sent its screen."""
        self._at()
        message = self._message if self._for == self._situation() else ("", "info")
        if self._made_from is not None and self._made_from == self._made_of(message):
            return {"type": "live", "serial": self.serial, "seats": S.seats(self.mirror)}
        return self.screen()

    def screen(self) -> dict[str, Any]:
        """The page's screen now, as JSON data (with a ``serial`` its clicks name)."""
        self._at()
        message = self._message if self._for == self._situation() else ("", "info")
        made = S.make(self.mirror, self._viewer(), message=message)
        self.serial += 1
        self._keys = [r.key for r in made.drawing.regions]
        self._keys_of[self.serial] = self._keys
        self._keys_of.pop(self.serial - KEPT_SCREENS, None)
        data = made.to_json(layers=False)
        data["drawing"]["layers"] = {name: self._layer(name, shapes)
                                     for name, shapes in made.drawing.layers.items()}
        if self._hint is not None:
            if self._hint[1] == self._position():
                data["panels"].append(self._hint[0].to_json())
            else:
                self._hint = None
        data["serial"] = self.serial
        self._made_from = self._made_of(message)
        data["seat"] = seat_name(self.seat)
        data["table"] = self.mirror.table_id
        data["connected"] = True
        return data

    def _layer(self, name: str, shapes: list[Any]) -> Any:
        """A layer as this page is sent it: ``"same"`` when it holds it already, an
        edit of what it holds (``{"runs": …}``) when that is shorter, else the shapes.
        The comparisons are of the shapes (frozen values), before any is made JSON."""
        held = self._sent_layers.get(name)
        if held is not None and held[0] == shapes:
            return "same"                          # the page keeps the layer it has
        # Each shape's first place is found when an edit needs it (not for a first
        # screen, nor for a layer the page is sent "same").
        self._sent_layers[name] = (list(shapes), None)
        if held is not None and held[0]:
            old, index = held
            if index is None:
                index = {}
                for i, shape in enumerate(old):
                    index.setdefault(shape, i)
            edit = layer_edit(old, index, shapes)
            if len(edit) < len(shapes):
                return {"runs": S.ShapeList.of(edit)}
        return S.ShapeList.of(shapes)

    # ------------------------------------------------------------------ news
    def news(self, moved: bool) -> None:
        """The seat's game moved: a page at the present starts afresh (a half-made
        move of an old position means nothing now)."""
        if moved and self.index is None:
            self._fresh()

    def _fresh(self) -> None:
        self._at()
        self.selection = S.fresh_selection(self.mirror, self._viewer())
        self.highlights = ()

    # ------------------------------------------------------------------ actions
    def goto(self, index: Any) -> None:
        """Show the position after ``index`` moves of the seat's history."""
        length = self.mirror.length
        index = _index(index, length + 1, "a move number")
        self.index = None if index == length else index
        self._fresh()

    def select(self, choice: Any) -> None:
        """Select legal move number ``choice`` of the list (``None``: none): it is
        highlighted on the board."""
        self._at()
        if choice is None:
            self.highlights = ()
            self._fresh()
            return
        listed = S.moves(self.mirror, self._viewer())
        if not listed.options:
            raise PageError("no_move", f"There is no move to choose here "
                                       f"{listed.note or ''}".strip())
        choice = _index(choice, len(listed.options), "a move of the list")
        move = self.mirror.legal_moves()[choice]
        self.highlights, self.selection, said = S.chosen(self.mirror, self._viewer(), move)
        self.say(said)

    def click(self, serial: Any, region: Any) -> str | None:
        """A click on region ``region`` of screen ``serial``: the move it makes (its
        notation, for the server to play), or ``None`` (a selection changed; the page's
        message says what happened)."""
        if isinstance(serial, bool) or not isinstance(serial, int):
            raise PageError("bad_request", "a click names the screen it was made on by "
                                           f"its serial, a whole number, not {serial!r:.40}")
        # A click made on an earlier screen whose board had the same regions (only the
        # seats' news or the status changed since) means the same: it is taken.
        if serial != self.serial and self._keys_of.get(serial) != self._keys:
            raise PageError("stale", "The board changed before your click arrived: "
                                     "click again.")
        key = self._keys[_index(region, len(self._keys), "a region of the board")]
        self._at()
        result = self.board.click(self.mirror.view_of(self.seat), self.selection, key)
        if result.step:
            self.say("Chance acts by itself on a class table: the server deals and "
                     "throws.")
            return None
        if result.move is not None:
            why = self.mirror.not_playable() or self.mirror.whose_turn_note()
            if why:
                self.say(why, "refused")
                return None
            self.selection = result.selection
            return result.move
        self.selection = result.selection
        self.highlights = ()
        if result.message:
            self.say(result.message, S.said_kind(result.message))
        return None

"""The screen model: what a page shows for one viewpoint of a table, as plain data.

One place makes everything a screen shows of a game (the drawing with its click
regions, the status line's facts and sentence, the legal moves and what each one
highlights, the move log in the viewer's words, the step position and the lines, the
seats, the result, the game's own panels) from a table and a :class:`Viewer` (whose
view, what is selected, what is highlighted). Two painters read it:

* the notebook widget (:class:`~janus_widgets.widgets.shell.GameWidget`) paints the
  parts on its canvas and controls;
* the table server sends :meth:`Screen.to_json` to the static seat page it serves
  (``/seat``), made from the server's :class:`~.client.SeatMirror` of that seat: the
  seat's own messages and nothing else.

>>> from janus_widgets.table import Table
>>> table = Table("jactus", players=2, seed=3)
>>> s = make(table, Viewer(viewpoint=0))
>>> s.status.turn, s.moves.options[-1][0], s.steps
('A to move (human)', 'r*', {'index': 0, 'length': 0, 'at_end': True, 'autoplay': False})
>>> data = s.to_json(); sorted(data)[:5]
['actions', 'drawing', 'game', 'heading', 'lines']
>>> data["drawing"]["regions"][0]["kind"] in ("rect", "circle", "polygon")
True
"""

from __future__ import annotations

import dataclasses
import json
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..core.protocol import TERMINAL, seat_name
from ..drawing import Drawing
from ..drawing.panels import Action, Panel
from ..drawing.shapes import Arc, Circle, Line, Polygon, Rect, Region, Text

__all__ = ["Viewer", "Screen", "Moves", "Status", "Panel", "Action", "make", "drawing",
           "fresh_selection", "chosen", "said_kind",
           "moves", "log", "lines", "status", "panels", "actions", "heading",
           "page_refusal", "covered", "drawing_data", "shape_data", "shape_text",
           "ShapeList", "LOG_WINDOW",
           "SCREEN_VERSION"]

#: Moves of the log on either side of the cursor that a screen lists.
LOG_WINDOW = 60
#: The form of :meth:`Screen.to_json` (a page refuses a form it does not know).
SCREEN_VERSION = 1


@dataclass
class Viewer:
    """What one page holds of its own: whose view it shows (``None`` everything, a seat,
    or ``"current"``), what the player has selected on the board, the regions
    highlighted, and whether the page is locked to its view (a seat's page)."""

    viewpoint: Any = None
    selection: Any = None
    highlights: tuple[Hashable, ...] = ()
    locked: bool = False


@dataclass(frozen=True)
class Moves:
    """The moves list: ``options`` as ``(notation, description)``, or a ``note`` saying
    why there is none to play here; ``can_play`` whether Play may be pressed."""

    options: list[tuple[str, str]]
    note: str | None = None
    can_play: bool = True


@dataclass(frozen=True)
class Status:
    """The status line's facts (plain text): where the cursor is, whose turn (``mark``,
    its first words, is what a painter shows in bold), the scores, the move that led
    here, a standing note, and the position's text form for screen readers."""

    where: str
    turn: str
    mark: str = ""
    scores: str = ""
    last: str = ""
    note: str = ""
    position: str = ""
    over: bool = False


@dataclass
class Screen:
    """Everything one page shows for one viewpoint (see the module's docstring)."""

    game: str
    title: str
    heading: str
    drawing: Drawing
    status: Status
    moves: Moves
    log: list[tuple[str, int]]
    log_at: int | None
    steps: dict[str, Any]
    lines: list[tuple[str, int]]
    seats: list[dict[str, Any]]
    result: dict[str, Any]
    panels: list[Panel] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    highlights: list[list[int]] = field(default_factory=list)
    message: tuple[str, str] = ("", "info")

    def to_json(self, layers: bool = True) -> dict[str, Any]:
        """The screen as JSON data (what the seat page paints); ``layers=False`` leaves
        the drawing's layers out (a seat page's view sends them as edits)."""
        text, kind = self.message
        return {
            "type": "screen", "version": SCREEN_VERSION, "game": self.game,
            "title": self.title, "heading": self.heading,
            "drawing": drawing_data(self.drawing, layers),
            "status": {**self.status.__dict__, "message": text, "kind": kind},
            "moves": {"options": [{"notation": n, "description": d,
                                   "highlights": self.highlights[i]
                                   if i < len(self.highlights) else []}
                                  for i, (n, d) in enumerate(self.moves.options)],
                      "note": self.moves.note, "can_play": self.moves.can_play},
            "log": [[t, i] for t, i in self.log], "log_at": self.log_at,
            "steps": dict(self.steps), "lines": [[t, i] for t, i in self.lines],
            "seats": self.seats, "result": self.result,
            "panels": [p.to_json() for p in self.panels],
            "actions": [{"id": a.id, "label": a.label, "tooltip": a.tooltip}
                        for a in self.actions]}


# ---------------------------------------------------------------------- the drawing
def _r(x: float) -> float:
    """A coordinate to a tenth of a unit (a fifth of a pixel at twice the size): the
    screens stay small (Janus's board: about 40 kB)."""
    return round(x, 1)


def _pts(points: Any) -> list[list[float]]:
    return [[round(x, 1), round(y, 1)] for x, y in points]


def _shape_data(shape: Any) -> tuple[Any, ...]:
    """A shape as ``(kind, …fields)`` (made once per shape by :func:`_encoded`)."""
    if isinstance(shape, Rect):
        return ("rect", _r(shape.x), _r(shape.y), _r(shape.w), _r(shape.h), shape.fill,
                shape.stroke, shape.width, shape.radius, list(shape.dash))
    if isinstance(shape, Circle):
        return ("circle", _r(shape.cx), _r(shape.cy), _r(shape.r), shape.fill, shape.stroke,
                shape.width, list(shape.dash))
    if isinstance(shape, Arc):
        return ("arc", _r(shape.cx), _r(shape.cy), _r(shape.r), round(shape.start, 4),
                round(shape.end, 4), shape.stroke, shape.width, shape.fill)
    if isinstance(shape, Line):
        return ("line", _pts(shape.points), shape.stroke, shape.width, list(shape.dash))
    if isinstance(shape, Polygon):
        return ("polygon", _pts(shape.points), shape.fill, shape.stroke, shape.width)
    if isinstance(shape, Text):
        return ("text", _r(shape.x), _r(shape.y), shape.text, shape.size, shape.fill,
                shape.align, shape.baseline, shape.bold, shape.font)
    raise TypeError(f"not a shape: {shape!r}")


@lru_cache(maxsize=1 << 17)
def _encoded(shape: Any) -> tuple[tuple[Any, ...], str]:
    """A shape's JSON data and its JSON text, made once: shapes are frozen values, and
    the same shapes make every screen of a board and the boards of many tables (the
    tuple and the text are shared: never change them). The text is what
    ``json.dumps(data, separators=(",", ":"))`` makes of the data."""
    data = _shape_data(shape)
    return data, _JSON(data)


_JSON = json.JSONEncoder(separators=(",", ":")).encode


def shape_data(shape: Any) -> tuple[Any, ...]:
    """One shape as JSON data: ``(kind, …fields in the order of the shape's class)``,
    made once per shape (the tuple is shared: never change it).

    >>> shape_data(Rect(0, 0, 10, 10, fill="#fff"))[:6]
    ('rect', 0, 0, 10, 10, '#fff')
    """
    return _encoded(shape)[0]


def shape_text(shape: Any) -> str:
    """One shape's JSON text (of :func:`shape_data`), made once per shape.

    >>> shape_text(Rect(0, 0, 10, 10, fill="#fff"))
    '["rect",0,0,10,10,"#fff",null,1.0,0.0,[]]'
    """
    return _encoded(shape)[1]


#: Layers of at least this many items are kept once made (:meth:`ShapeList.of`), the
#: last ``_LAYERS_KEPT`` of them (a Janus board's is 83 kB of text).
_LAYER_MIN = 64
_LAYERS_KEPT = 256
_LAYERS: OrderedDict[tuple[int, ...], tuple[list[Any], ShapeList]] = OrderedDict()


class ShapeList(list):  # type: ignore[type-arg]
    """A layer's shapes as JSON data (a list, read like any other), with ``text``: the
    JSON text of the list, joined from each shape's text made once
    (:func:`shape_text`), so a screen's layers are not encoded again for every page
    (:func:`~.seat_pages.message_text` uses it).

    >>> layer = ShapeList.of([Rect(0, 0, 1, 1), [3, 2]])
    >>> layer.text, layer[1]
    ('[["rect",0,0,1,1,null,null,1.0,0.0,[]],[3,2]]', [3, 2])
    """

    text: str

    @classmethod
    def of(cls, items: Any) -> ShapeList:
        """The layer of ``items``: shapes, or ``[start, count]`` runs of an edit. A long
        layer of the very shapes (the same objects) of one made lately is that one
        again (Janus's board for both seats of a table and from one screen to the
        next: its draw module keeps the layer's shapes)."""
        if len(items) < _LAYER_MIN:
            return cls._make(items)
        key = tuple(map(id, items))
        kept = _LAYERS.get(key)
        # The kept layer holds its items, so no id of the key was reused meanwhile;
        # the comparison is by identity first (fast) and by value at worst.
        if kept is not None and kept[0] == items:
            _LAYERS.move_to_end(key)
            return kept[1]
        made = cls._make(items)
        _LAYERS[key] = (list(items), made)
        while len(_LAYERS) > _LAYERS_KEPT:
            _LAYERS.popitem(last=False)
        return made

    @classmethod
    def _make(cls, items: Any) -> ShapeList:
        made = cls()
        texts = []
        for item in items:
            if isinstance(item, list):
                made.append(item)
                texts.append(_JSON(item))
            else:
                data, text = _encoded(item)
                made.append(data)
                texts.append(text)
        made.text = "[" + ",".join(texts) + "]"
        return made


def drawing_data(d: Drawing, layers: bool = True) -> dict[str, Any]:
    """A drawing as JSON data: its size, background and title, each layer's shapes as
    ``[kind, …fields in the order of the shape's class]`` (left out when not
    ``layers``), and the click regions as ``{"kind", "geometry", "key"}`` (a page
    sends back a region's index, never a key).

    >>> d = Drawing(40, 20, title="t"); d.rect(0, 0, 10, 10, fill="#fff", key=("die", 1))
    >>> data = drawing_data(d)
    >>> data["layers"]["pieces"][0][:5], data["regions"][0]["key"]
    (('rect', 0, 0, 10, 10), 'die 1')
    """
    data = {"width": d.width, "height": d.height, "background": d.background,
            "title": d.title,
            "regions": [{"kind": r.kind, "geometry": _geometry(r), "key": key_text(r.key)}
                        for r in d.regions]}
    if layers:
        data["layers"] = {name: ShapeList.of(shapes) for name, shapes in d.layers.items()}
    return data


def _geometry(region: Region) -> list[Any]:
    if region.kind == "polygon":
        return _pts(region.geometry)
    return [_r(x) for x in region.geometry]              # type: ignore[arg-type]


def key_text(key: Hashable) -> str:
    """A region's key as words for tests and screen readers: ``("die", 1)`` → ``die 1``."""
    if isinstance(key, tuple):
        return " ".join(key_text(k) for k in key)
    return str(key)


def _region_box(region: Region) -> tuple[tuple[float, float], tuple[float, float]]:
    g = region.geometry
    if region.kind == "rect":
        x, y, w, h = g                                  # type: ignore[misc]
        return (x, x + w), (y, y + h)
    if region.kind == "circle":
        cx, cy, r = g                                   # type: ignore[misc]
        return (cx - r, cx + r), (cy - r, cy + r)
    return ((min(p[0] for p in g), max(p[0] for p in g)),   # type: ignore[index]
            (min(p[1] for p in g), max(p[1] for p in g)))   # type: ignore[index]


def no_move_buttons(d: Drawing, keep: Any, size: float = 12) -> None:
    """A record that cannot be played on offers no move: every button of the drawing
    that would play one (a region keyed ``("button", …)``, but for the game's
    ``VIEWING_KEYS``) is covered by a grey "record" box and no longer clicks."""
    kept = []
    for region in d.regions:
        key = region.key
        if isinstance(key, tuple) and key[:1] == ("button",) and key not in keep:
            xs, ys = _region_box(region)
            d.rect(xs[0], ys[0], xs[1] - xs[0], ys[1] - ys[0], fill="#eceff1",
                   stroke="#90a4ae", dash=(4, 3), radius=6, layer="highlight")
            d.text((xs[0] + xs[1]) / 2, (ys[0] + ys[1]) / 2, "(a record)", size=size,
                   fill="#455a64", layer="highlight")
        else:
            kept.append(region)
    d.regions[:] = kept


def mark_bots(d: Drawing, bot_seats: Any, size: float) -> None:
    """Write "BOT" beside the name of every seat a bot plays (where the game's drawing
    says a seat's name is)."""
    for seat in bot_seats:
        anchor = d.seat_labels.get(seat)
        if anchor is None:
            continue
        x, y = anchor
        d.rect(x, y - 0.8 * size, 3.1 * size, 1.6 * size, fill="#37474f",
               stroke="#ffffff", radius=4, layer="highlight")
        d.text(x + 1.55 * size, y, "BOT", size=size, bold=True, fill="#ffffff",
               layer="highlight")


def drawing(table: Any, viewer: Viewer, view: Any = None) -> Drawing:
    """The picture of the position as ``viewer`` is shown it (``view``: the viewer's
    view, if already at hand)."""
    board = table.game.board()
    view = table.view_of(viewer.viewpoint) if view is None else view
    d = table.game.draw(view, highlights=viewer.highlights,
                        selection=viewer.selection)
    mark_bots(d, table.bot_labels, getattr(board, "TEXT_MIN", 11))
    if table.seat_mode:
        no_move_buttons(d, getattr(board, "VIEWING_KEYS", ()), getattr(board, "TEXT_MIN", 12))
    return d


# ---------------------------------------------------------------------- moves
def covered(table: Any, viewer: Viewer) -> bool:
    """Whether the screen is covered (a screen passed round waiting for the next
    player: the game's draw module says, through ``covers(selection)``)."""
    hook = getattr(table.game.board(), "covers", None)
    return bool(hook is not None and hook(viewer.selection))


def cover_note(table: Any) -> str:
    cur = table.current_player
    who = seat_name(cur) if cur >= 0 else "the next player"
    return (f"The screen is covered: it waits for {who} (click the cover when {who} "
            "has the screen).")


def locked_name(viewpoint: Any) -> str:
    """How a page locked to ``viewpoint`` is named in its messages."""
    return "the teacher's view" if viewpoint is None else (
        "the player to move's view" if viewpoint == "current"
        else f"seat {seat_name(viewpoint)}")


def page_refusal(table: Any, viewer: Viewer) -> tuple[str, str] | None:
    """Why this page may not play a move here, as ``(reason, text)``, or ``None``.

    In a game with secrets only the teacher's view plays away from the present: a
    branch re-deals from the seed, so a seat (or a screen passed round) would see cards
    another seat drew in the main line. A page locked to a seat plays that seat's moves
    only, whoever the other seats are. (A seat of the server: the server decides.)"""
    if table.remote or table.seat_mode:
        return None
    view = viewer.viewpoint
    if table.game.has_secrets and view is not None and not table.live:
        where = ("On a screen passed round" if view == "current" else
                 f"In {locked_name(view)}'s view")
        return ("not the present",
                f"{where} the game goes on at its present only: go to the end of the "
                "main line (End) to play; a branch would show cards from another time.")
    if viewer.locked and isinstance(view, int) and not table.is_over:
        state = table.state
        while state.is_chance and table.replay.at_end:      # the move waits for chance
            state = state.play(state.sample_chance())
        mover = state.current_player
        if mover >= 0 and mover != view:
            return ("not this seat",
                    f"It is {seat_name(mover)}'s move, and this page plays seat "
                    f"{seat_name(view)} only.")
    return None


def moves(table: Any, viewer: Viewer) -> Moves:
    """The legal moves to list, or why none is listed."""
    why = table.not_playable()
    if table.seat_mode:
        return Moves([], "(a seat's record: nothing can be played)", False)
    if why:
        return Moves([], f"({why.rstrip('.')})", False)
    if covered(table, viewer):
        return Moves([], "(the screen is covered: no move is shown until the next "
                         "player takes it)", False)
    if table.is_over:
        return Moves([], "(the game is over)", False)
    if table.is_chance:
        return Moves([], "(chance) press ▶ step for the dice/draw" if not table.remote
                     else "(chance acts now: the server deals)", False)
    refused = page_refusal(table, viewer)
    if refused:
        return Moves([], f"({refused[1].rstrip('.')})", False)
    listed = table.legal_moves()
    if listed or not table.remote:
        return Moves([(m.notation, m.description) for m in listed])
    return Moves([], "(not this seat's turn)", False)


def move_highlights(table: Any, viewer: Viewer, d: Drawing,
                    view: Any = None) -> list[list[int]]:
    """For each legal move listed, the indices of the regions of ``d`` it highlights."""
    board = table.game.board()
    view = table.view_of(viewer.viewpoint) if view is None else view
    index = {}
    for i, region in enumerate(d.regions):
        index.setdefault(region.key, i)
    out = []
    for move in table.legal_moves():
        keys = board.highlight(view, move)
        out.append([index[k] for k in keys if k in index])
    return out


# ---------------------------------------------------------------------- what a viewer does
def fresh_selection(table: Any, viewer: Viewer) -> Any:
    """The selection a newly shown position starts with: ``None``, or what the game's
    optional ``fresh_selection(view, viewpoint, previous)`` says (a card game covers the
    screen between turns when one screen is passed round); for a record that cannot be
    played on, what its optional ``read_only(selection)`` makes of it."""
    board = table.game.board()
    hook = getattr(board, "fresh_selection", None)
    selection = None if hook is None else hook(table.view_of(viewer.viewpoint),
                                               viewer.viewpoint, viewer.selection)
    if table.seat_mode:
        read_only = getattr(board, "read_only", None)
        if read_only is not None:
            selection = read_only(selection)
    return selection


def chosen(table: Any, viewer: Viewer, move: Any) -> tuple[tuple[Hashable, ...], Any, str]:
    """A legal move chosen in the list: the regions it highlights, the selection it
    makes on the board (the game's optional ``selection_for``), and what the status
    line says."""
    board = table.game.board()
    view = table.view_of(viewer.viewpoint)
    chooser = getattr(board, "selection_for", None)
    selection = viewer.selection if chooser is None else chooser(view, move)
    return (tuple(board.highlight(view, move)), selection,
            f"Selected {move.notation}: {move.description}")


def said_kind(message: str) -> str:
    """A click's message is a refusal when it cites a rule (``JA-6: …``)."""
    import re
    return "refused" if re.match(r"[A-Z]{2}-\d+", message) else "info"


# ---------------------------------------------------------------------- log and lines
def log(table: Any, viewer: Viewer) -> tuple[list[tuple[str, int]], int | None]:
    """The move log around the cursor, in the viewer's words, and the entry at the
    cursor."""
    lo = max(0, table.index - LOG_WINDOW)
    hi = min(table.length, table.index + LOG_WINDOW)
    entries = [("start", 0)] if lo == 0 else []
    entries += table.log(viewer.viewpoint, lo, hi)
    return entries, (table.index if lo <= table.index <= hi else None)


def lines(table: Any) -> list[tuple[str, int]]:
    """The lines of play: ``("main line", 0)``, ``("line 1 (from line 0 after move 4)",
    1)``."""
    return [("main line" if line.parent is None else
             f"line {line.id} (from line {line.parent} after move {line.at})", line.id)
            for line in table.lines]


def steps(table: Any) -> dict[str, Any]:
    """The step bar: the cursor, the line's length, whether autoplay runs."""
    return {"index": table.index, "length": table.length,
            "at_end": table.index == table.length, "autoplay": bool(table.autoplaying)}


# ---------------------------------------------------------------------- status
def shown_view(table: Any, viewer: Viewer, view: Any = None) -> Any:
    """What the screen shows of the position (a covered screen: what every seat has
    seen; the game's draw module says, through ``screen_view``)."""
    hook = getattr(table.game.board(), "screen_view", None)
    view = table.view_of(viewer.viewpoint) if view is None else view
    return view if hook is None else hook(view, viewer.selection)


def status(table: Any, viewer: Viewer, shown: Any = None) -> Status:
    """The status line's facts for ``viewer``."""
    facts = table.facts(viewer.viewpoint)
    turn = facts.turn_text
    mark = ""
    if turn.startswith("Game over"):
        mark = "Game over"
    elif facts.turn >= 0 and not facts.record_of and not facts.stopped_now:
        mark = seat_name(facts.turn)
    return Status(where=facts.where, turn=turn, mark=mark, scores=facts.scores_text,
                  last=facts.last, note=facts.note,
                  position=str(shown_view(table, viewer) if shown is None else shown),
                  over=facts.turn == TERMINAL)


def heading(table: Any, viewer: Viewer) -> str:
    """The heading's words after the game's title: the rules, the seed (the teacher's
    view only), whose record or which seat of which table."""
    rules = table.game.describe_variant(table.variant)
    seed = f", seed {table.state.seed}" if table.shows_secrets(viewer.viewpoint) else ""
    whose = ""
    if table.seat_mode:
        whose = f" · {table.replay.seat_record.whose}'s record"
    elif table.remote:
        whose = f" · seat {seat_name(table.seat)} at table {table.table_id}"
    return rules + seed + whose


def seats(table: Any) -> list[dict[str, Any]]:
    """Who plays each seat (``human`` or a bot's name), and for a seat of the server
    which seats are connected and which is this page's (not known while this mirror
    has lost its server: the last news would be stale)."""
    labels = table.bot_labels
    connected = getattr(table, "connected_seats", None)
    if getattr(table, "connected", True) is False:
        connected = None
    mine = getattr(table, "seat", None) if table.remote else None
    return [{"seat": seat_name(s), "who": labels.get(s, "human"),
             "connected": None if connected is None else s in connected,
             "you": s == mine} for s in range(table.num_players)]


def result(table: Any) -> dict[str, Any]:
    """The result at the cursor: over or not, the winners, the scores, who won and why."""
    state = table.state
    over = state.current_player == TERMINAL
    return {"over": over, "winners": [seat_name(w) for w in state.winners()] if over else [],
            "scores": [float(x) for x in state.scores()],
            "outcome": state.outcome() if over else ""}


# ---------------------------------------------------------------------- the game's own
def panels(table: Any, viewer: Viewer, shown: Any = None) -> list[Panel]:
    """The game's own panels for the position shown (its draw module's
    ``panels(view)``), e.g. Janus's census of the tiles left."""
    hook = getattr(table.game.board(), "panels", None)
    if hook is None:
        return []
    return list(hook(shown_view(table, viewer) if shown is None else shown))


def actions(table: Any, viewer: Viewer) -> list[Action]:
    """The game's own buttons that apply now: its draw module's ``DEAL_ACTION`` while
    chance deals at the end of the line of a table this page runs (a seat of the server
    has the server deal)."""
    action = getattr(table.game.board(), "DEAL_ACTION", None)
    if action is None or table.remote or table.seat_mode:
        return []
    if table.replay.at_end and table.is_chance:
        return [action]
    return []


# ---------------------------------------------------------------------- the whole
def make(table: Any, viewer: Viewer, *, message: tuple[str, str] = ("", "info"),
         with_highlights: bool = True) -> Screen:
    """The whole screen of ``table`` for ``viewer`` (``message``: the answer to the
    page's last action, with its kind). The viewer's view is made once for every
    part."""
    view = table.view_of(viewer.viewpoint)
    shown = shown_view(table, viewer, view)
    d = drawing(table, viewer, view)
    m = moves(table, viewer)
    entries, at = log(table, viewer)
    facts = status(table, viewer, shown)
    if message[0] and message[0].strip() == facts.note.strip():
        # The answer to the page's action says the standing note already ("Waiting for
        # B to move." for a click out of turn): said once, not twice.
        facts = dataclasses.replace(facts, note="")
    return Screen(game=table.game.name, title=table.game.title,
                  heading=heading(table, viewer), drawing=d,
                  status=facts,
                  moves=m, log=entries, log_at=at, steps=steps(table), lines=lines(table),
                  seats=seats(table), result=result(table),
                  panels=panels(table, viewer, shown), actions=actions(table, viewer),
                  highlights=move_highlights(table, viewer, d, view)
                  if with_highlights and m.options else [],
                  message=message)

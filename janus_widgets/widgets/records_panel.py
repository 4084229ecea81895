"""Save / load / export: the game record (save, load, upload), the earlier games of this
widget (restore one), and pictures and animations of the line shown.

The Save button says which record it writes: the full one (the teacher's view), or a
seat's or the table's (no seed, no hidden card); see :meth:`RecordsPanel.show_save`.

The file boxes name files in the page's own folder, :data:`SAVE_FOLDER` beside the
notebook (:func:`page_file`): no absolute path, no ``..``, one of the kinds the box
writes; each view has a default name of its own (``janus-cards-seat-A.json``; a seat of
the table server's table t1: ``janus-cards-t1-seat-A.json``), so two seats of one folder,
or two tables' seat A, never share a file. (``notebooks/voila.json`` keeps Voila from
serving any file of the folder.)

>>> done = []
>>> panel = RecordsPanel("jactus", on_save=done.append, on_load=done.append,
...                      on_upload=done.append, on_restore=done.append,
...                      on_picture=done.append,
...                      on_animation=lambda path, fps: done.append((path, fps)))
>>> panel.save_button.click(); panel.picture_button.click(); panel.animation_button.click()
>>> done
['jactus-full.json', 'jactus-full-position.png', ('jactus-full-game.gif', 2.0)]
>>> panel.show_earlier(["1: jactus, 4 moves"])
>>> panel.previous_box.options, panel.previous_box.value
((('1: jactus, 4 moves', 0),), 0)
>>> panel.show_save(1); panel.save_button.description, panel.path_box.value
("Save B's record", 'jactus-seat-B.json')
>>> panel.show_save("table"); panel.save_button.description
"Save the table's record"
>>> panel.show_save(0, table="t2"); panel.path_box.value
'jactus-t2-seat-A.json'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath

import ipywidgets as W

from ..core.protocol import TABLE, seat_name
from .controls import Quiet

__all__ = ["RecordsPanel", "SAVE_FULL", "SAVE_SEAT", "SAVE_FOLDER", "page_file",
           "owner_tag", "seat_tag", "owner_text", "view_text", "other_owner_named"]

#: The page's own folder for what its boxes save (beside the notebook).
SAVE_FOLDER = "janus-saves"


def owner_tag(whose: object, table: str | None = None) -> str:
    """The part of a default file name that says whose it is: ``"full"``, ``"table"``,
    ``"seat-A"``; a seat of the table server's ``table`` names the table too,
    ``"t1-seat-A"``, so two tables' seat A never share a file.

    >>> owner_tag(None), owner_tag(TABLE), owner_tag(1), owner_tag(0, table="t1")
    ('full', 'table', 'seat-B', 't1-seat-A')
    """
    if whose is None:
        return "full"
    if whose == TABLE:
        return "table"
    return seat_tag(seat_name(whose), table)  # type: ignore[arg-type]


def seat_tag(seat: str, table: str | None = None) -> str:
    """The owner tag of seat ``seat`` (its letter), of the server's ``table`` if given (an
    id as a file name's part: letters, digits and ``_``, at most 40).

    >>> seat_tag("A"), seat_tag("B", "t12"), seat_tag("A", "x/../y")
    ('seat-A', 't12-seat-B', 'x____y-seat-A')
    """
    if not table:
        return f"seat-{seat}"
    return f"{re.sub(r'[^A-Za-z0-9_]', '_', table)[:40]}-seat-{seat}"


def owner_text(tag: str | None) -> str:
    """What a file holding ``tag``'s record holds, in words (None: no game record).

    >>> owner_text("full"), owner_text("seat-B"), owner_text("t1-seat-A")
    ('the full record', "B's record", "seat A's record of table t1")
    """
    if tag is None:
        return "something that is not a game record"
    if tag in ("full", "table"):
        return {"full": "the full record", "table": "the table's record"}[tag]
    table, seat = _seat_of(tag)
    return f"seat {seat}'s record of table {table}" if table else f"{seat}'s record"


def view_text(tag: str) -> str:
    """The view a picture of owner ``tag`` shows, in words.

    >>> view_text("full"), view_text("seat-B"), view_text("t1-seat-A")
    ("the teacher's view", "seat B's view", "seat A's view of table t1")
    """
    if tag in ("full", "table"):
        return {"full": "the teacher's view",
                "table": "the table's view (one screen passed round)"}[tag]
    table, seat = _seat_of(tag)
    return f"seat {seat}'s view" + (f" of table {table}" if table else "")


def _seat_of(tag: str) -> tuple[str, str]:
    """A seat's owner tag as (its table, "" if none; its seat letter)."""
    if tag.startswith("seat-"):
        return "", tag[5:]
    table, _, seat = tag.rpartition("-seat-")
    return table, seat


#: An owner tag inside a file name: a seat's (of a server's table, if a table id stands
#: before it) or the words ``full`` and ``table``, each a whole word of the name.
_NAMED_TAG = re.compile(r"(?<![A-Za-z0-9_])(?:(?:(?P<table>[A-Za-z0-9_]{1,40})-)?seat-"
                        r"(?P<seat>[A-Z])|(?P<word>full|table))(?![A-Za-z0-9_])")


def other_owner_named(text: str, mine: str, game_name: str) -> str | None:
    """The owner tag of a view other than ``mine`` that the file name ``text`` is named
    for, or None: a page of seat A does not write ``janus-cards-seat-B-position.png``.
    A table id counts only on a page of the server's table (it is a word of the name
    otherwise).

    >>> other_owner_named("janus-cards-seat-B-position.png", "seat-A", "janus-cards")
    'seat-B'
    >>> other_owner_named("janus-cards-full-game.gif", "seat-A", "janus-cards")
    'full'
    >>> other_owner_named("my-seat-A.svg", "seat-A", "janus-cards") is None
    True
    >>> other_owner_named("jactus-t2-seat-A-game.gif", "t1-seat-A", "jactus")
    't2-seat-A'
    """
    name = text.strip()
    if name.startswith(game_name + "-"):
        name = name[len(game_name) + 1:]
    table, seat = ("", "") if mine in ("full", "table") else _seat_of(mine)
    for found in _NAMED_TAG.finditer(name):
        if found["word"]:
            if found["word"] != mine:
                return found["word"]
            continue
        found_table = (found["table"] or "") if table else ""
        if found["seat"] != seat or found_table != table:
            return seat_tag(found["seat"], found_table or None)
    return None


#: The owner tags a default file name holds (:func:`owner_tag`).
_DEFAULT_TAG = re.compile(r"full|table|(?:[A-Za-z0-9_]{1,40}-)?seat-[A-Z]")


def page_file(text: str, kinds: tuple[str, ...], folder: str | Path = SAVE_FOLDER) -> Path:
    """The file a box names, inside the page's folder: a plain relative name (folders
    below it allowed), no absolute path, no ``..``, ending in one of ``kinds``.

    >>> page_file("game.json", (".json",)).as_posix()
    'janus-saves/game.json'
    >>> page_file("../x.json", (".json",))
    Traceback (most recent call last):
    ValueError: '../x.json': a file here is a plain name inside janus-saves/ (no '..', no folder outside it), e.g. game.json
    """
    name = (text or "").strip()
    pure = PurePosixPath(name.replace("\\", "/"))
    example = f"game{kinds[0]}"
    if not name or pure.is_absolute() or ".." in pure.parts or ":" in name or \
            name.startswith("~"):
        raise ValueError(f"{text!r}: a file here is a plain name inside {folder}/ (no "
                         f"'..', no folder outside it), e.g. {example}")
    if pure.suffix.lower() not in kinds:
        raise ValueError(f"{text!r}: this box writes {' or '.join(kinds)} files, e.g. "
                         f"{example}")
    return Path(folder) / Path(*pure.parts)

#: What the Save button writes, by viewpoint (its label and its tooltip).
SAVE_FULL = ("Save full record", "Writes the full record: the seed, every move and chance "
             "outcome, every line. It replays and continues exactly (the teacher's).")
SAVE_SEAT = ("Save {whose} record", "Writes {whose} record: the moves as {who} saw them "
             "and what {who} saw of each position; no seed, no hidden card. It can be "
             "stepped through, not played on.")


class RecordsPanel:
    """The Save / load tab (:attr:`widget`)."""

    def __init__(self, game_name: str, *, on_save: Callable[[str], None],
                 on_load: Callable[[str], None], on_upload: Callable[[bytes], None],
                 on_restore: Callable[[int], None], on_picture: Callable[[str], None],
                 on_animation: Callable[[str, float], None]) -> None:
        self._quiet = Quiet()
        self._game_name = game_name
        wide = W.Layout(width="340px")
        self.path_box = W.Text(value=f"{game_name}-full.json", description="file",
                               tooltip=f"A file in {SAVE_FOLDER}/ beside the notebook",
                               layout=wide)
        self.save_button = W.Button(description=SAVE_FULL[0], tooltip=SAVE_FULL[1],
                                    icon="save", layout=W.Layout(width="auto"))
        self.load_button = W.Button(description="Load", icon="folder-open",
                                    layout=W.Layout(width="auto"))
        self.save_button.on_click(lambda _: on_save(self.path_box.value))
        self.load_button.on_click(lambda _: on_load(self.path_box.value))
        self.upload = W.FileUpload(accept=".json", multiple=False, description="Upload")
        self.upload.observe(self._quiet.unless(lambda c: on_upload(_content(c["new"]))
                                               if c["new"] else None), names="value")
        self.previous_box = W.Dropdown(options=[("(none yet)", -1)], value=-1,
                                       description="earlier", layout=wide)
        self.restore_button = W.Button(description="Restore", icon="undo",
                                       layout=W.Layout(width="auto"))
        self.restore_button.on_click(lambda _: on_restore(self.previous_box.value))
        self.picture_box = W.Text(value=f"{game_name}-full-position.png", description="picture",
                                  tooltip="The position as shown: .png or .svg",
                                  layout=wide)
        self.picture_button = W.Button(description="Save picture", icon="image",
                                       tooltip="Write the position as shown (.png or .svg)",
                                       layout=W.Layout(width="auto"))
        self.picture_button.on_click(lambda _: on_picture(self.picture_box.value))
        self.animation_box = W.Text(value=f"{game_name}-full-game.gif", description="animation",
                                    tooltip="The line shown, move by move: .gif or .svg",
                                    layout=wide)
        self.fps_box = W.BoundedFloatText(value=2.0, min=0.1, max=30, step=0.5,
                                          description="frames/s",
                                          layout=W.Layout(width="150px"))
        self.animation_button = W.Button(
            description="Save animation", icon="film",
            tooltip="Write the line shown, one frame per move (.gif or .svg)",
            layout=W.Layout(width="auto"))
        self.animation_button.on_click(
            lambda _: on_animation(self.animation_box.value, float(self.fps_box.value)))
        self.widget = W.VBox([
            W.HBox([self.path_box, self.save_button, self.load_button]),
            self.upload,
            W.HBox([self.previous_box, self.restore_button]),
            W.HTML("<b>Pictures for slides</b> (from the view shown)"),
            W.HBox([self.picture_box, self.picture_button]),
            W.HBox([self.animation_box, self.fps_box, self.animation_button])])

    def show_save(self, whose: object, table: str | None = None) -> None:
        """Say what Save writes: ``None`` the full record, a seat's number that seat's
        record (of the server's ``table``, if given), ``TABLE`` the table's (what every
        seat has seen); a box still holding a default name gets this view's."""
        tag = owner_tag(whose, table)
        with self._quiet:
            for box, end in ((self.path_box, ".json"), (self.picture_box, "-position.png"),
                             (self.animation_box, "-game.gif")):
                if self._is_default(box.value, end):
                    box.value = f"{self._game_name}-{tag}{end}"
        if whose is None:
            label, tip = SAVE_FULL
        else:
            who = "every seat" if whose == TABLE else seat_name(whose)  # type: ignore[arg-type]
            owner = "the table's" if whose == TABLE else f"{who}'s"
            label, tip = (text.format(who=who, whose=owner) for text in SAVE_SEAT)
        self.save_button.description = label
        self.save_button.tooltip = tip

    def _is_default(self, value: str, end: str) -> bool:
        stem = value[len(self._game_name) + 1:-len(end)] if value.startswith(
            self._game_name + "-") and value.endswith(end) else None
        return stem is not None and _DEFAULT_TAG.fullmatch(stem) is not None

    def show_earlier(self, labels: Sequence[str], select: int | None = None) -> None:
        """The earlier games' labels; ``select`` one (``None``: the one chosen, if it is
        still there, else the last)."""
        options = [(label, i) for i, label in enumerate(labels)] or [("(none yet)", -1)]
        value = self.previous_box.value if select is None else select
        if value not in [v for _, v in options]:
            value = options[-1][1]
        if list(self.previous_box.options) != options or self.previous_box.value != value:
            with self._quiet:
                self.previous_box.options = options
                self.previous_box.value = value

    def clear_upload(self) -> None:
        """Forget the uploaded file (so the same file can be uploaded again)."""
        with self._quiet:
            self.upload.value = ()


def _content(files: object) -> bytes:
    item = files[0]  # type: ignore[index]
    content = item["content"] if isinstance(item, dict) else item.content
    return bytes(content)

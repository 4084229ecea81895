"""A class experiment's throws: which faces a die can show, and a tally checked against them.

The roman-dice lesson's class experiment throws one talus (faces 1, 3, 4, 6); each student
keeps a tally of their own throws, and the class pools the tallies (on a page joined to a
class through the table server, ``/api/experiments/<name>``; see
:mod:`janus_widgets.analysis.experiment`). This module holds what the page and the server
check alike (it sits with the server, below the lessons, which read it as
:mod:`janus_widgets.analysis.throws`), and imports nothing heavy.

>>> parse_throws("talus", "1 3 4 6 6")
{'1': 1, '3': 1, '4': 1, '6': 2}
>>> parse_throws("talus", "3 5")
Traceback (most recent call last):
...
ValueError: a talus cannot show 5: its sides are 1, 3, 4 and 6 (throw 2 of 2)
>>> check_tally("talus", {"1": 2, "6": 1})
{'1': 2, '3': 0, '4': 0, '6': 1}
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["FACES", "DICE", "MAX_THROWS", "parse_throws", "check_tally", "pooled"]

#: The experiments a class can run: the die thrown and the faces it can show.
FACES: dict[str, tuple[str, ...]] = {"talus": ("1", "3", "4", "6"),
                                     "tessera": ("1", "2", "3", "4", "5", "6")}
#: How each die is named in a message.
DICE = {"talus": "a talus", "tessera": "a tessera (a cube die)"}
#: The most throws one student's tally may hold.
MAX_THROWS = 2000


def _sides(experiment: str) -> str:
    faces = FACES[experiment]
    return ", ".join(faces[:-1]) + " and " + faces[-1]


def _known(experiment: Any) -> str:
    if experiment not in FACES:
        raise ValueError(f"no experiment {experiment!r}; the experiments are "
                         + ", ".join(sorted(FACES)))
    return experiment


def parse_throws(experiment: str, text: str) -> dict[str, int]:
    """The throws typed as faces (``"1 3 4 6"``, commas or spaces between them) as a tally
    of this experiment's faces; a face the die cannot show is refused, naming it."""
    _known(experiment)
    items = [t for t in re.split(r"[\s,;]+", str(text).strip()) if t]
    if not items:
        raise ValueError(f"type the faces you threw, such as {' '.join(FACES[experiment])}")
    tally = {face: 0 for face in FACES[experiment]}
    for i, item in enumerate(items, 1):
        if item not in tally:
            raise ValueError(f"{DICE[experiment]} cannot show {item}: its sides are "
                             f"{_sides(experiment)} (throw {i} of {len(items)})")
        tally[item] += 1
    return tally


def check_tally(experiment: str, tally: Any) -> dict[str, int]:
    """A tally ``{face: count}`` checked: faces of the die only, whole counts from 0, at
    most :data:`MAX_THROWS` throws in all; the missing faces count 0."""
    _known(experiment)
    if not isinstance(tally, dict):
        raise ValueError(f"a tally is an object of counts by face ({_sides(experiment)})")
    out = {face: 0 for face in FACES[experiment]}
    for face, count in tally.items():
        if face not in out:
            raise ValueError(f"{DICE[experiment]} cannot show {face}: its sides are "
                             f"{_sides(experiment)}")
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ValueError(f"the count of face {face} is a whole number from 0, "
                             f"not {count!r}")
        out[face] = count
    if sum(out.values()) > MAX_THROWS:
        raise ValueError(f"one student's tally holds at most {MAX_THROWS} throws, not "
                         f"{sum(out.values())}")
    return out


def pooled(experiment: str, tallies: list[dict[str, int]]) -> dict[str, int]:
    """The tallies added face by face.

    >>> pooled("talus", [{"1": 1, "3": 2}, {"3": 1, "6": 4}])
    {'1': 1, '3': 3, '4': 0, '6': 4}
    """
    out = {face: 0 for face in FACES[_known(experiment)]}
    for tally in tallies:
        for face, count in tally.items():
            out[face] += count
    return out

"""What a move did, in words, as one seat was told of it (the status line's last move).

A seat is told of a move as ``Engine.observed`` writes it: the notation, with the sides
it did not see as ``?``, then where the moved cards went and the symbol each now shows
that seat (``dA1 (C4: wave)``), any trio laid and the end of the game. The sentence
here reads nothing else but the seat's view before the move, so a seat's record, which
keeps only those two, says every move as the game did, and no sentence names a side the
seat has not seen (rules JC-3, JC-13).

>>> from janus_widgets.games.janus_cards.rules import position
>>> state = position(hands=[["sun/moon", "sun/key"], ["heart/sun", "fish/bell"],
...                         ["crown/leaf"]], pile=["tree/ring"], to_move=0)
>>> before = state.view(1)
>>> told_sentence(before, state.engine.observed(state.raw, state.parse("dP").action, 1))
"A drew the top card of the pile (tree), now A's card 3 (ring on its back)."
>>> told_sentence(before, "x2 (P1: key)")
'A discarded card 2 onto the pile, key face up.'
>>> told_sentence(before, "dB1 (T1c: sun); A lays a trio of suns for A")
"A drew B's card 1, now in trio 1 (sun face up); A laid a trio of suns."
"""

from __future__ import annotations

import re
from typing import Any

from ...core.protocol import seat_name
from .tables import SYMBOL_CODES, SYMBOL_NAMES, end_text, mended_plurals

__all__ = ["told_sentence", "chance_words"]

_NAMES = dict(zip(SYMBOL_CODES, SYMBOL_NAMES))
#: ``Engine.observed`` of a decision: the notation, the cards' places, a trio, the end.
_DECISION = re.compile(r"(?P<move>[^ ;]+)(?: \((?P<facts>[^)]*)\))?"
                       r"(?:; (?P<layer>[A-F]) lays a trio of (?P<symbols>[a-z]+) for "
                       r"(?P<owner>[A-F]|nobody))?(?:; game over \((?P<end>[a-z]+)\))?")


def told_sentence(view: Any, observed: str) -> str:
    """The sentence for a move the seat of ``view`` (its view before the move) was told
    of as ``observed``: who did what, where the cards went and what the seat sees on
    them there; ``""`` if ``observed`` is not a text the engine writes."""
    if observed.startswith("="):
        return _chance(view, observed)
    found = _DECISION.fullmatch(mended_plurals(observed))
    if found is None:
        return ""
    mover = seat_name(view.turn)
    move = found["move"]
    facts = [fact.split(": ", 1) for fact in found["facts"].split(", ")] \
        if found["facts"] else []
    if move == "agree":
        said = f"{mover} agreed that no more trios can be formed"
    elif move.startswith("x"):
        said = _discard(view, mover, move[1:], facts)
    elif move.startswith("d"):
        said = _draw(view, mover, move[1:].split("+"), facts)
    else:
        return ""
    if found["layer"]:
        said += f"; {mover} laid a trio of {found['symbols']}"
        if found["owner"] == "nobody":
            said += f" that belongs to nobody ({mover} had agreed to end, JC-14)"
    if found["end"]:
        said += f"; the game is over: {end_text(found['end'], view.variant.stall_rounds)}"
    return said + "."


def chance_words(dealing: bool, holder: str, observed: str) -> str:
    """The move log's words for a card dealt to ``holder`` (or turned up on the pile),
    told as ``observed`` (``=b/?``: the sides seen, ``?`` where not).

    >>> chance_words(True, "B", "=?/r"), chance_words(False, "", "=t/r")
    ('dealt B a card (? / ring)', 'turned up a card (tree / ring)')
    """
    front, _, back = observed[1:].partition("/")
    sides = f"({_NAMES.get(front, '?')} / {_NAMES.get(back, '?')})"
    return f"dealt {holder} a card {sides}" if dealing else f"turned up a card {sides}"


def _chance(view: Any, observed: str) -> str:
    """A card dealt or turned up, with the sides the seat saw."""
    front, _, back = observed[1:].partition("/")
    up, down = _NAMES.get(front), _NAMES.get(back)
    if view.phase == "deal":
        holder = seat_name(view.turn)
        sides = [f"{up} towards {holder}"] * (up is not None) + \
            [f"{down} on its back"] * (down is not None)
        said = f"Chance dealt {holder} a card"
    else:
        sides = [f"{up} face up"] * (up is not None) + \
            [f"{down} face down"] * (down is not None)
        said = "Chance turned up a card on the pile"
    return said + (", " + " and ".join(sides) if sides else "") + "."


def _sides(ref: str, shown: str, viewer: Any) -> str:
    """What the seat sees on the card now at ``ref`` (``"wave"``; the teacher's
    ``"wave|moon"``: both sides), in words."""
    front, _, back = shown.partition("|")
    if ref[0] in "PT":
        return f"{front} face up" + (f" and {back} face down" if back else "")
    holder = ref[0]
    if back:                                        # the teacher: both sides
        return f"{front} towards {holder} and {back} on its back"
    if viewer is not None and not isinstance(viewer, str) and seat_name(viewer) == holder:
        return f"{front} towards {holder}"
    return f"{front} on its back"


def _place(ref: str) -> str:
    """``"C's card 4"``, ``"in trio 2"``, ``"on the pile"``."""
    if ref[0] == "T":
        return f"in trio {ref[1:-1]}"
    if ref[0] == "P":
        return "on the pile"
    return f"{ref[0]}'s card {ref[1:]}"


def _draw(view: Any, mover: str, sources: list[str], facts: list[list[str]]) -> str:
    top = view.pile_top.front if view.pile_top is not None else None
    shows = f" ({top})" if top else ""
    if sources == ["P", "P"]:
        taken = f"the two top cards of the pile{' (' + top + ' on top)' if top else ''}"
    else:
        taken = " and ".join(f"the top card of the pile{shows}" if src == "P"
                             else f"{src[0]}'s card {src[1:]}" for src in sources)
    said = f"{mover} drew {taken}"
    if facts:
        said += ", now " + " and ".join(f"{_place(ref)} ({_sides(ref, shown, view.viewer)})"
                                        for ref, shown in facts)
    return said


def _discard(view: Any, mover: str, slots: str, facts: list[list[str]]) -> str:
    cards = f"card {slots}" if len(slots) == 1 else f"cards {slots[0]} and {slots[1]}"
    said = f"{mover} discarded {cards} onto the pile"
    ups = [_sides(ref, shown, view.viewer) for ref, shown in facts]
    if len(slots) == 2 and len(ups) == 2:
        return said + f", {ups[0]}, then {ups[1]} on top"
    return said + (f", {ups[0]}" if ups else "")

"""A seat's record of the card game, checked against the rules (``JC-*``).

A seat's record (:mod:`janus_widgets.core.seat_record`) holds no seed and no hidden
side, so it cannot be replayed; it holds, for every ply, what the seat saw
(:class:`~.views.CardsView`, as data) and what it was told of the move
(``Engine.observed``). A record is believed only if it could have come from a real
game:

* :func:`check_view`: one view on its own. Cards are where the rules let them be
  (JC-10: four to a hand), every side is seen by whom JC-13 says (a holder sees the
  side facing them, the others the far side; the pile's face-up sides and the trios'
  symbol sides by all) and the seat knows exactly the sides it has seen; the cards it
  knows are cards of the deck, each at most once (JC-1: one card for every pair of
  symbols); no hand shows three alike fronts to a seat that sees them (JC-12 would
  have laid them); the phase, the turn and the end agree with each other.
* :func:`check_step`: two views and the move between them. The move text is parsed
  (a decision must be legal from the public facts, a card dealt or turned up only at a
  chance point); the next view is worked out from the first as the rules move the
  cards (draws, discards, the deal, a card turning up, a trio laid, the end), with the
  sides the seat sees for the first time taken from the next view; everything else must
  be the same, and the move's text must be exactly what the seat was told. (One
  leniency: the table's view is what every seat has seen, and whether a draw added a
  no-trio fact hangs on what single seats saw; so the table's facts need only be,
  in order, among those the move may have added and those it kept.)

Any failure raises ``ValueError`` saying what breaks which rule; the seat's record
turns it into a :class:`~janus_widgets.core.errors.RecordError` naming the move.

>>> from janus_widgets import games
>>> state = games.get("janus-cards").new(players=3, seed=4)
>>> while state.is_chance:
...     state = state.play_chance()
>>> eng = state.engine
>>> before, after = state.view(0), state.play("dB1").view(0)
>>> check_step(before, eng.observed(state.raw, state.parse("dB1").action, 0), after)
>>> check_step(before, "@@@", after)
Traceback (most recent call last):
...
ValueError: the move text '@@@' is not a move of the card game (JC-7)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any

from ...core.protocol import CHANCE, TABLE, TERMINAL, seat_name
from .tables import (AGREE, DISCARD1_BASE, DRAW_PP, HAND_LIMIT, PILE, SYMBOL_CODES,
                     SYMBOL_NAMES, action_notation, action_slots, action_sources,
                     deck_size, mended_plurals, plural, public_actions)

__all__ = ["check_view", "check_step"]

#: A side the seat sees for the first time in this move: its symbol comes from the next
#: view (any symbol of the deck; the deck check decides whether the card can exist).
WILD = "*"
_SYMBOL_INDEX = {name: i for i, name in enumerate(SYMBOL_NAMES)}


def _sees(viewer: int | str, seen_by: frozenset[int] | tuple[int, ...], n: int) -> bool:
    """Whether ``viewer`` has seen a side seen by ``seen_by`` (the table: every seat)."""
    if viewer == TABLE:
        return len(set(seen_by)) == n
    return viewer in seen_by


# --- one view -------------------------------------------------------------------
def check_view(view: Any) -> None:
    """Raise ``ValueError`` unless ``view`` (a seat's or the table's) could be a real
    position of the game: see the module's docstring."""
    n = view.players
    everyone = frozenset(range(n))
    viewer = view.viewer
    variant = view.variant

    def sides(card: Any, where: str) -> None:
        if viewer is None:                     # the teacher knows every side
            if card.front is None or card.back is None:
                raise ValueError(f"card {card.ref}: the teacher's view shows both sides")
            return
        for face, symbol, seen in (("front", card.front, card.front_seen_by),
                                   ("back", card.back, card.back_seen_by)):
            if _sees(viewer, seen, n) != (symbol is not None):
                knows = "knows" if symbol is not None else "does not know"
                saw = "never saw" if symbol is not None else "saw"
                raise ValueError(f"card {card.ref} ({where}): the view {knows} its {face} "
                                 f"but {saw} it (JC-13: a seat knows the sides it has "
                                 "seen)")

    for p, hand in enumerate(view.hands):
        if len(hand) > HAND_LIMIT:
            raise ValueError(f"{seat_name(p)} holds {len(hand)} cards; nobody holds more "
                             f"than {HAND_LIMIT} (JC-10)")
        for card in hand:
            others = everyone - {p}
            if p not in card.front_seen_by or not others <= set(card.back_seen_by):
                raise ValueError(f"card {card.ref}: its holder sees its front and everyone "
                                 "else its back (JC-3, JC-13); the view says otherwise")
            sides(card, f"in {seat_name(p)}'s hand")
    for card in view.pile:
        if set(card.front_seen_by) != everyone:
            raise ValueError(f"card {card.ref}: everyone sees the pile's face-up sides "
                             "(JC-6)")
        sides(card, "on the pile")
    open_trios = variant.trio_backs == "shown"
    for t, trio in enumerate(view.trios):
        if trio.owner is not None and not 0 <= trio.owner < n:
            raise ValueError(f"trio {t + 1} has no owner in this game")
        if trio.owner is None and variant.agreement == "joint":
            raise ValueError(f"trio {t + 1} belongs to nobody, but with agreement='joint' "
                             "every trio is its maker's (JC-14)")
        for card in trio.cards:
            if set(card.front_seen_by) != everyone or (
                    open_trios and set(card.back_seen_by) != everyone):
                raise ValueError(f"card {card.ref}: everyone sees a laid trio's symbol "
                                 "side" + (" and, with open trios, the other side too"
                                           if open_trios else "") + " (JC-12)")
            sides(card, "in a trio")
            if card.front != trio.symbol:
                raise ValueError(f"card {card.ref} lies in a trio of "
                                 f"{plural(trio.symbol)} with {card.front} up (JC-12)")
    _check_deck(view)
    _check_phase(view)
    drawing = view.turn if view.pending_draw else None
    for p, hand in enumerate(view.hands):
        fronts = [c.front for c in hand if c.front is not None]
        alike = [s for s in set(fronts) if fronts.count(s) >= 3]
        if alike and p != drawing:
            raise ValueError(f"{seat_name(p)}'s hand shows three {alike[0]}s to its "
                             "holder: they would have been laid as a trio (JC-12)")
    refs = {c.ref: c for c in view.cards()}
    for fact in view.no_trios:
        symbols = []
        for ref, face in fact.sides:
            symbol = refs[ref].side(face)
            if symbol is not None:
                symbols.append(symbol)
        if len(fact.sides) != 3 or len(symbols) == 3 or len(set(symbols)) > 1:
            raise ValueError(f"the no-trio fact {fact} tells this seat nothing it does "
                             "not know (JC-13: a view shows only facts it learns from)")


def _check_phase(view: Any) -> None:
    n, phase = view.players, view.phase
    want = {"play": view.turn, "deal": CHANCE, "reveal": CHANCE, "over": TERMINAL}[phase]
    if view.to_move != want:
        who = {CHANCE: "chance", TERMINAL: "nobody"}.get(want) or seat_name(want)
        raise ValueError(f"in phase {phase!r} the one to act is {who}, not "
                         f"{view.to_move} (JC-19)")
    if (phase == "over") != (view.end_reason is not None):
        raise ValueError("a finished game says why it ended, and only a finished one")
    if view.pending_draw and phase != "reveal":
        raise ValueError("only a card about to turn up can finish a two-card draw (JC-8)")
    sizes = view.hand_sizes
    if phase == "deal":
        dealt = sum(sizes)
        if view.pile or view.trios or dealt >= 2 * n or view.turn != dealt % n or any(
                size != dealt // n + (p < dealt % n) for p, size in enumerate(sizes)):
            raise ValueError("the deal gives two cards to each seat, one at a time from A, "
                             "before anything else (JC-5)")
    elif phase == "reveal":
        if view.pile or not view.unturned:
            raise ValueError("a card turns up only when the pile shows none and unturned "
                             "cards are left (JC-6)")
    elif phase == "play":
        if not view.pile and view.unturned:
            raise ValueError("the pile's top card is always turned up (JC-6)")
        if len(view.agreed) == n:
            raise ValueError("when every seat has agreed the game is over (JC-14)")
    if phase != "over" and view.stall >= view.stall_limit:
        raise ValueError(f"{view.stall} turns without a trio reach the limit of "
                         f"{view.stall_limit}: the game would be over (JC-16)")


_DECK_CHECKED: dict[tuple, bool] = {}


def _check_deck(view: Any) -> None:
    """Every card the view shows is a card of the deck, each one once (JC-1): the cards
    it knows both sides of are distinct, and the ones it knows one side of can be
    matched to distinct cards with that symbol that are left."""
    n_sym = view.variant.symbols
    known = tuple(sorted((c.front or "", c.back or "") for c in view.cards()))
    key = (n_sym, known)
    ok = _DECK_CHECKED.get(key)
    if ok is None:
        ok = _deck_fits(known, n_sym)
        if len(_DECK_CHECKED) > 4096:
            _DECK_CHECKED.clear()
        _DECK_CHECKED[key] = ok
    if not ok:
        whole = [f"{a}/{b}" for a, b in known if a and b]
        twice = sorted({c for c in whole if whole.count(c) > 1
                        or whole.count("/".join(reversed(c.split("/")))) > (
                            1 if c.split("/")[0] == c.split("/")[1] else 0)})
        what = (f"the {twice[0]} card twice" if twice else
                "more cards with some symbol than the deck has")
        raise ValueError(f"the view shows {what}: the deck has one card for every pair of "
                         f"symbols (JC-1), {deck_size(n_sym)} in all")


def _deck_fits(known: tuple[tuple[str, str], ...], n_sym: int) -> bool:
    used: set[tuple[int, int]] = set()
    half: list[int] = []
    for a, b in known:
        if a and b:
            pair = tuple(sorted((_SYMBOL_INDEX[a], _SYMBOL_INDEX[b])))
            if pair in used:
                return False
            used.add(pair)  # type: ignore[arg-type]
        elif a or b:
            half.append(_SYMBOL_INDEX[a or b])
    free = [(a, b) for b in range(n_sym) for a in range(b + 1) if (a, b) not in used]
    owner: dict[tuple[int, int], int] = {}

    def place(k: int, seen: set[tuple[int, int]]) -> bool:   # Kuhn's augmenting path
        for card in free:
            if half[k] in card and card not in seen:
                seen.add(card)
                if card not in owner or place(owner[card], seen):
                    owner[card] = k
                    return True
        return False

    return all(place(k, set()) for k in range(len(half)))


# --- one move ------------------------------------------------------------------------
@dataclass(frozen=True)
class _Card:
    """A card as the next view should show it: ``key`` is where it lay before the move
    (``"new"``: dealt or turned up by it), ``flipped`` whether its front and back swapped
    (a card drawn from a hand), ``front``/``back`` the symbols the seat knows (``None``:
    not seen; :data:`WILD`: seen for the first time now)."""

    key: str
    flipped: bool
    front: str | None
    back: str | None
    fs: frozenset[int]
    bs: frozenset[int]


def _card(c: Any) -> _Card:
    return _Card(c.ref, False, c.front, c.back, frozenset(c.front_seen_by),
                 frozenset(c.back_seen_by))


@dataclass
class _Position:
    hands: list[list[_Card]]
    pile: list[_Card]                                   # top first
    trios: list[tuple[int | None, str, list[_Card]]]
    agreed: set[int]
    phase: str
    turn: int
    stall: int
    pending: bool
    unturned: int
    end: str | None = None
    laid: bool = False
    new_facts: list[tuple[tuple[str, str], ...]] | None = None


def _learn(card: _Card, viewer: int | str, n: int) -> _Card:
    """``card`` with the sides the viewer sees now but had not seen marked :data:`WILD`."""
    front = card.front if card.front is not None or not _sees(viewer, card.fs, n) else WILD
    back = card.back if card.back is not None or not _sees(viewer, card.bs, n) else WILD
    return replace(card, front=front, back=back)


def check_step(before: Any, text: str, after: Any, engine: Any = None) -> None:
    """Raise ``ValueError`` unless ``after`` follows ``before`` (two views of one seat)
    by the move the seat was told of as ``text``: see the module's docstring."""
    if before.viewer != after.viewer or before.variant != after.variant:
        raise ValueError("two views of a record are one seat's, under one set of rules")
    if not isinstance(text, str):
        raise ValueError(f"a move text is text, not {type(text).__name__}")
    if before.phase == "over":
        raise ValueError(f"the game is over: no move {text!r} follows (JC-20)")
    if before.phase in ("deal", "reveal"):
        candidates = _chance(before, after)
        action = None
    else:
        action = _decision(before, text)
        candidates = _decide(before, action, after)
    failure = ""
    for predicted in candidates:
        try:
            _compare(before, predicted, after, action, text)
            return
        except ValueError as exc:
            failure = failure or str(exc)
    raise ValueError(failure)


def _decision(view: Any, text: str) -> int:
    head = text.split(" (", 1)[0].split(";", 1)[0]
    from .rules import GAME
    try:
        action = GAME.engine(view.variant).parse(None, head)
    except ValueError:
        raise ValueError(f"the move text {text!r} is not a move of the card game "
                         "(JC-7)") from None
    if action > AGREE:
        raise ValueError(f"{head}: a card is dealt or turns up only at a chance point, "
                         f"and {seat_name(view.turn)} is to move (JC-19)")
    if action_notation(action) != head:
        raise ValueError(f"the move text {text!r} is not a move of the card game as a "
                         f"record writes it ({action_notation(action)!r}, JC-7)")
    legal = public_actions(view.turn, view.hand_sizes, view.pile_size,
                           view.turn in view.agreed, view.variant.two_from_pile,
                           view.variant.two_from_one_player)
    if action not in legal:
        raise ValueError(f"{head} is not a legal move for {seat_name(view.turn)} here "
                         "(JC-8 … JC-11, JC-14)")
    return action


def _start(view: Any) -> _Position:
    return _Position([[_card(c) for c in hand] for hand in view.hands],
                     [_card(c) for c in view.pile],
                     [(t.owner, t.symbol, [_card(c) for c in t.cards]) for t in view.trios],
                     set(view.agreed), view.phase, view.turn, view.stall, view.pending_draw,
                     view.unturned)


def _chance(view: Any, after: Any) -> list[_Position]:
    """The position after a card is dealt or turns up (JC-4 … JC-6, JC-8)."""
    n, viewer, look = view.players, view.viewer, view.variant.deal_peek == "look"
    pos = _start(view)
    everyone = frozenset(range(n))
    if view.unturned < 1:
        raise ValueError("no unturned card is left to deal or turn up (JC-6)")
    pos.unturned -= 1
    t = view.turn
    if view.phase == "deal":
        others = everyone - {t}
        card = _Card("new", False, None, None, frozenset({t}),
                     others | ({t} if look else frozenset()))
        pos.hands[t].append(_learn(card, viewer, n))
        dealt = sum(map(len, pos.hands))
        if dealt < 2 * n:
            pos.turn = (t + 1) % n
        else:
            pos.phase, pos.turn = "reveal", 0
        return [pos]
    if not view.pending_draw:
        pos.pile.insert(0, _learn(_Card("new", False, None, None, everyone, frozenset()),
                                  viewer, n))
        pos.phase = "play"
        return [pos]
    card = _Card("new", False, None, None, everyone, everyone - {t})
    mine = pos.hands[t] + [_learn(card, viewer, n)]
    pos.pending = False
    return _finish_draw(view, after, pos, t, mine)


def _decide(view: Any, action: int, after: Any) -> list[_Position]:
    """Every position the decision ``action`` can lead to as this seat sees it (a draw
    that lays a trio may lay any three cards whose fronts the seat does not know)."""
    n, viewer, t = view.players, view.viewer, view.turn
    everyone = frozenset(range(n))
    others = everyone - {t}
    pos = _start(view)
    if action == AGREE:
        pos.agreed.add(t)
        if len(pos.agreed) == n:
            pos.phase, pos.end = "over", "agreed"
        return [pos]
    slots = action_slots(action)
    if slots:
        hand = pos.hands[t]
        gone = [replace(hand[i], fs=everyone) for i in slots]
        for card in gone:
            pos.pile.insert(0, _learn(card, viewer, n))
        mine = [c for i, c in enumerate(hand) if i not in slots]
        return [_end_turn(view, after, pos, t, mine, drew=False, trio_at=None)]
    mine = list(pos.hands[t])
    if action == DRAW_PP:
        for first in (True, False):
            top = pos.pile.pop(0)
            mine.append(_learn(replace(top, bs=top.bs | others), viewer, n))
            if first and not pos.pile and pos.unturned:
                pos.hands[t] = mine
                pos.phase, pos.pending = "reveal", True
                return [pos]
    else:
        sources = action_sources(action)
        taken: dict[int, list[int]] = {}
        for src in sources:
            if src == PILE:
                top = pos.pile.pop(0)
                mine.append(_learn(replace(top, bs=top.bs | others), viewer, n))
            else:
                seat, slot = divmod(src, HAND_LIMIT)
                c = pos.hands[seat][slot]
                drawn = _Card(c.key, not c.flipped, c.back, c.front, c.bs, c.fs | others)
                mine.append(_learn(drawn, viewer, n))
                taken.setdefault(seat, []).append(slot)
        for seat, gone in taken.items():
            pos.hands[seat] = [c for i, c in enumerate(pos.hands[seat]) if i not in gone]
    return _finish_draw(view, after, pos, t, mine)


def _finish_draw(view: Any, after: Any, pos: _Position, t: int,
                 mine: list[_Card]) -> list[_Position]:
    """The ends of ``t``'s draw: no trio, or (when the next view has a new one) each way
    of laying it from ``mine`` that agrees with the fronts the seat knows (JC-12)."""
    laid = len(after.trios) > len(view.trios)
    if not laid or len(mine) < 3:
        return [_end_turn(view, after, pos, t, mine, drew=True, trio_at=None)]
    symbol = after.trios[len(view.trios)].symbol
    out = []
    for triple in combinations(range(len(mine)), 3):
        below = [j for j in range(triple[2]) if j not in triple]
        if any(mine[j].front not in (None, WILD, symbol) for j in triple) or any(
                mine[j].front == symbol for j in below):
            continue                           # the seat knows these fronts otherwise
        copy = _Position([list(h) for h in pos.hands], list(pos.pile),
                         list(pos.trios), set(pos.agreed), pos.phase, pos.turn, pos.stall,
                         pos.pending, pos.unturned)
        out.append(_end_turn(view, after, copy, t, list(mine), drew=True,
                             trio_at=(triple, symbol)))
    return out or [_end_turn(view, after, pos, t, mine, drew=True, trio_at=None)]


def _end_turn(view: Any, after: Any, pos: _Position, t: int, mine: list[_Card], *,
              drew: bool, trio_at: tuple[tuple[int, int, int], str] | None) -> _Position:
    """The end of ``t``'s turn as ``CardsEngine._end_turn`` plays it (JC-12 … JC-17);
    ``trio_at``: the three slots of ``mine`` laid and their symbol, or None."""
    variant, n = view.variant, view.players
    everyone = frozenset(range(n))
    joint = variant.agreement == "joint"
    facts: list[tuple[tuple[str, str], ...]] = []
    pos.laid = trio_at is not None
    if trio_at is not None:
        triple, symbol = trio_at
        for j in range(triple[2]):
            if j not in triple:
                facts.append(((j, "front"), (triple[0], "front"), (triple[1], "front")))
        owner = None if t in pos.agreed and not joint else t
        open_trios = variant.trio_backs == "shown"
        cards = []
        for j in triple:
            c = replace(mine[j], fs=everyone, bs=everyone if open_trios else mine[j].bs)
            cards.append(_learn(c, view.viewer, n))
        pos.trios.append((owner, symbol, cards))
        kept = [c for j, c in enumerate(mine) if j not in triple]
    else:
        if drew and len(mine) >= 3:           # no three alike fronts: each triple a fact
            for triple in combinations(range(len(mine)), 3):
                facts.append(tuple((j, "front") for j in triple))  # type: ignore[misc]
        kept = mine
    # Facts name the drawer's cards by their slot in ``mine``; they are placed below.
    pos.new_facts = [tuple((_fact_ref(mine, j, trio_at, len(view.trios)), face)
                           for j, face in fact) for fact in facts]  # type: ignore[misc]
    pos.hands[t] = kept
    if joint and t not in pos.agreed:
        pos.agreed = set()                        # JC-14: the proposal lapses
    pos.stall = 0 if trio_at is not None else pos.stall + 1
    reason = None
    if trio_at is not None:
        if 3 * len(pos.trios) == deck_size(variant.symbols):
            reason = "exhausted"
        elif variant.auto_end and variant.trio_backs == "shown" and _proven(
                after.trios[:len(pos.trios)], variant):
            reason = "proven"
    if reason is None and pos.stall >= variant.stall_rounds * n:
        reason = "stalled"
    if reason is not None:
        pos.phase, pos.end = "over", reason
        return pos
    pos.turn = (t + 1) % n
    pos.phase = "reveal" if not pos.pile and pos.unturned else "play"
    return pos


def _fact_ref(mine: list[_Card], j: int, trio_at: Any, trios_before: int) -> str:
    """Where card ``j`` of the drawer's hand lies once the turn ends, as a key the
    comparison resolves: ``("mine", slot)`` in the hand or the trio card's ref."""
    if trio_at is not None:
        triple, _ = trio_at
        if j in triple:
            return f"T{trios_before + 1}{'abc'[triple.index(j)]}"
        kept = [k for k in range(len(mine)) if k not in triple]
        return f"hand:{kept.index(j)}"
    return f"hand:{j}"


def _proven(trios: Any, variant: Any) -> bool:
    """JC-15 on open trios (the next view's, where every side is seen): no symbol is left
    on three cards outside the trios."""
    n = variant.symbols
    left = [n] * n
    for trio in trios:
        for c in trio.cards:
            if c.front is None or c.back is None:
                return False                    # not open: the comparison refuses it
            a, b = _SYMBOL_INDEX[c.front], _SYMBOL_INDEX[c.back]
            left[a] -= 1
            if b != a:
                left[b] -= 1
    return max(left) < 3


def _compare(before: Any, pos: _Position, after: Any, action: int | None,
             text: str) -> None:
    """Raise ``ValueError`` unless ``after`` is ``pos`` with its first-seen sides filled
    in, and ``text`` is what the seat was told of the move."""
    n = after.players
    for name, want, got in (("phase", pos.phase, after.phase),
                            ("turn", pos.turn, after.turn),
                            ("unturned cards", pos.unturned, after.unturned),
                            ("seats that agreed", tuple(sorted(pos.agreed)), after.agreed),
                            ("turns without a trio", pos.stall, after.stall),
                            ("two-card draw waiting", pos.pending, after.pending_draw),
                            ("end", pos.end, after.end_reason),
                            ("trios", len(pos.trios), len(after.trios))):
        if want != got:
            raise ValueError(f"after this move the {name} should be {want!r}, not {got!r} "
                             "(JC-4 … JC-17)")
    placed: dict[str, tuple[_Card, Any]] = {}

    def same(card: _Card, seen: Any, where: str) -> None:
        ok = card.fs == frozenset(seen.front_seen_by) and card.bs == frozenset(
            seen.back_seen_by)
        for want, got in ((card.front, seen.front), (card.back, seen.back)):
            ok = ok and (got is not None if want == WILD else want == got)
        if not ok:
            raise ValueError(f"card {seen.ref} ({where}) is not the card the move leaves "
                             "there, or shows sides the seat has not seen (JC-9, JC-13)")
        placed[seen.ref] = (card, seen)

    for p in range(n):
        if len(pos.hands[p]) != len(after.hands[p]):
            raise ValueError(f"after this move {seat_name(p)} holds "
                             f"{len(pos.hands[p])} cards, not {len(after.hands[p])} "
                             "(JC-8 … JC-12)")
        for card, seen in zip(pos.hands[p], after.hands[p]):
            same(card, seen, f"{seat_name(p)}'s hand")
    if len(pos.pile) != len(after.pile):
        raise ValueError(f"after this move the pile shows {len(pos.pile)} cards, not "
                         f"{len(after.pile)} (JC-6, JC-11)")
    for card, seen in zip(pos.pile, after.pile):
        same(card, seen, "the pile")
    for (owner, symbol, cards), trio in zip(pos.trios, after.trios):
        if owner != trio.owner or symbol != trio.symbol:
            raise ValueError(f"the trio of {plural(symbol)} belongs to "
                             f"{'nobody' if owner is None else seat_name(owner)} (JC-14)")
        for card, seen in zip(cards, trio.cards):
            same(card, seen, "a trio")
    _compare_facts(before, pos, after, placed)
    _compare_text(before, pos, after, action, text, placed)


def _informative(sides: list[str | None]) -> bool:
    seen = [s for s in sides if s is not None]
    return len(seen) < 3 and len(set(seen)) <= 1


def _compare_facts(before: Any, pos: _Position, after: Any,
                   placed: dict[str, tuple[_Card, Any]]) -> None:
    """The no-trio facts (JC-13) of ``after``: those of ``before`` the seat still learns
    from, where their cards went, then the ones this move adds."""
    viewer, drawer = after.viewer, before.turn
    by_key = {card.key: (ref, card.flipped) for ref, (card, _) in placed.items()}

    def symbol(ref: str, face: str) -> str | None:
        return placed[ref][1].side(face)

    want: list[tuple[tuple[str, str], ...]] = []
    for fact in before.no_trios:
        moved = []
        for ref, face in fact.sides:
            new_ref, flipped = by_key[ref]
            moved.append((new_ref, ("back" if face == "front" else "front") if flipped
                          else face))
        want.append(tuple(moved))
    hand = [c.ref for c in after.hands[drawer]]
    for fact in pos.new_facts or []:
        sides = tuple((hand[int(ref[5:])] if ref.startswith("hand:") else ref, face)
                      for ref, face in fact)
        if viewer == TABLE or viewer != drawer:   # the drawer sees every front it holds
            want.append(sides)
    for fact in want:
        symbols = [symbol(r, face) for r, face in fact]
        if None not in symbols and len(set(symbols)) == 1:
            raise ValueError(f"the seat learnt that {', '.join(r + ' ' + f for r, f in fact)} "
                             f"do not all show one symbol, and now sees {symbols[0]} on "
                             "all three (JC-13)")
    want = [f for f in want if _informative([symbol(r, face) for r, face in f])]
    got = [tuple(f.sides) for f in after.no_trios]
    if viewer == TABLE:        # the table's facts also hang on what each seat saw
        rest = iter(want)
        if all(any(f == w for w in rest) for f in got):
            return
    elif got == want:
        return
    raise ValueError("the no-trio facts after this move are not those the seat learns "
                     "(JC-13)")


def _compare_text(before: Any, pos: _Position, after: Any, action: int | None, text: str,
                  placed: dict[str, tuple[_Card, Any]]) -> None:
    """``text`` must be what ``Engine.observed`` tells the seat of this move."""
    viewer = after.viewer

    def code(symbol: str | None) -> str:
        return "?" if symbol is None else SYMBOL_CODES[_SYMBOL_INDEX[symbol]]

    if action is None:
        new = next(seen for card, seen in placed.values() if card.key == "new")
        expected = f"={code(new.front)}/{code(new.back)}"
    else:
        expected = action_notation(action)
        moved: list[str] = []
        t = before.turn
        if action == DRAW_PP:
            moved = [before.pile[0].ref, before.pile[1].ref] if len(before.pile) > 1 \
                else [before.pile[0].ref]
        elif action < DISCARD1_BASE:
            for src in action_sources(action):
                if src == PILE:
                    moved.append(before.pile[0].ref)
                else:
                    seat, slot = divmod(src, HAND_LIMIT)
                    moved.append(before.hands[seat][slot].ref)
        elif action < AGREE:
            moved = [before.hands[t][i].ref for i in action_slots(action)]
        facts = []
        for key in moved:
            ref, seen = next((r, s) for r, (card, s) in placed.items() if card.key == key)
            letter = ref[0]
            faces_front = letter in "PT" or (viewer != TABLE and
                                             seat_name(viewer) == letter)
            shown = seen.front if faces_front else seen.back
            if shown is not None:
                facts.append(f"{ref}: {shown}")
        if facts:
            expected += " (" + ", ".join(facts) + ")"
        if pos.laid:
            owner, symbol, _ = pos.trios[-1]
            who = "nobody" if owner is None else seat_name(owner)
            expected += f"; {seat_name(t)} lays a trio of {plural(symbol)} for {who}"
        if pos.phase == "over":
            expected += f"; game over ({pos.end})"
    if mended_plurals(text) != expected:
        raise ValueError(f"the move text {text!r} is not what the seat was told of this "
                         f"move ({expected!r}, JC-13)")

"""What one seat may know in the Janus card game: views, exact odds, determinization.

Every card has two sides and nobody sees both at once (JC-3). What reaches a
player, a bot or a widget is a :class:`CardsView`, built by
``state.view(seat)``: each card where it lies, with the sides that seat has
seen (now or before, JC-13) and ``None`` for the sides it has not. The
teacher's view, ``state.view(None)``, shows both sides of every card.

The view also carries the public *no-trio facts* (JC-13): after every draw a
hand holds no three cards showing the same symbol to their holder, or the trio
would have been laid (JC-12). A seat that cannot see some of those sides learns
something all the same, and the odds use it.

:meth:`CardsView.other_side_odds` gives the exact probability of each symbol on
a side the seat has not seen, counting every way the unseen cards could lie
that agrees with everything the seat has seen (players' choices are taken to
carry no information). :func:`determinize` draws a full game position from the
same distribution, reading nothing but the view; search bots use it.

>>> from janus_widgets import games
>>> state = games.get("janus-cards").new(players=3, seed=4)
>>> while state.is_chance:
...     state = state.play_chance()
>>> view = state.view(0)
>>> view.hands[1][0].front is None       # A never sees the side facing B ...
True
>>> view.hands[1][0].back is not None    # ... only the side facing A
True
>>> sum(view.other_side_odds("B1").values())
Fraction(1, 1)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ...core.protocol import CHANCE, TABLE, TERMINAL, Move, MoveList, seat_name, viewer_name
from ...core.rng import RandomStream
from .tables import (CARD_INDEX, CARDS, END_REASONS, OVER, PHASE_NAMES, PLAY,
                     REVEAL, SIDE_SYMBOL, SYMBOL_CODES, SYMBOL_NAMES, action_notation,
                     deck_size, describe_decision, plural, public_actions)

__all__ = ["SeenCard", "LaidTrio", "NoTrio", "CardsView", "build_view", "determinize",
           "informative", "view_to_data", "view_from_data", "FRONT", "BACK"]

#: The side facing the holder (in a hand) or facing up (on the pile, in a trio).
FRONT = "front"
#: The other side: facing everyone but the holder, or facing down.
BACK = "back"

_NAME_INDEX = {name: i for i, name in enumerate(SYMBOL_NAMES)}


@dataclass(frozen=True, slots=True)
class SeenCard:
    """One card as a seat knows it.

    ``ref`` says where it lies: ``"B2"`` is B's card 2, ``"P1"`` the top of the
    pile (``"P2"`` the card under it), ``"T1b"`` the second card of the first
    trio laid. ``front`` is the symbol on the side facing the holder (a hand) or
    facing up (the pile, a trio); ``back`` the other side; ``None`` where this
    seat has not seen that side. ``front_seen_by`` / ``back_seen_by`` list the
    seats that have seen each side (public: everyone sees who looks where).
    """

    ref: str
    front: str | None
    back: str | None
    front_seen_by: tuple[int, ...]
    back_seen_by: tuple[int, ...]

    @property
    def known(self) -> bool:
        """Whether both sides are known to the viewer."""
        return self.front is not None and self.back is not None

    def side(self, face: str) -> str | None:
        """The symbol on ``face`` (``"front"`` or ``"back"``), or ``None`` if unseen."""
        return self.front if face == FRONT else self.back

    def seen_by(self, face: str) -> tuple[int, ...]:
        """The seats that have seen ``face``."""
        return self.front_seen_by if face == FRONT else self.back_seen_by

    def __str__(self) -> str:
        return f"{self.front or '?'}|{self.back or '?'}"


@dataclass(frozen=True, slots=True)
class LaidTrio:
    """A laid trio (JC-12): its owner (``None``: formed after its maker agreed to
    end, JC-14), its symbol and its three cards, open to everyone."""

    owner: int | None
    symbol: str
    cards: tuple[SeenCard, ...]

    def __str__(self) -> str:
        who = "nobody" if self.owner is None else seat_name(self.owner)
        return f"trio of {plural(self.symbol)} ({who})"


@dataclass(frozen=True, slots=True)
class NoTrio:
    """A public fact (JC-13): these three sides, once the sides facing one
    player after a draw, do not all show the same symbol. Each side is
    ``(ref, face)`` as the cards lie now."""

    sides: tuple[tuple[str, str], ...]

    def __str__(self) -> str:
        return ("not all the same: "
                + ", ".join(f"{ref} {face}" for ref, face in self.sides))


@dataclass(frozen=True, repr=False)
class CardsView:
    """Everything one seat may know of a Janus card game position (immutable).

    ``viewer`` is the seat (``None``: the teacher, who sees everything;
    :data:`~janus_widgets.core.protocol.TABLE`: the whole table, who knows a side
    only when every seat has seen it).
    ``hands`` holds every seat's cards in slot order, ``pile`` the turned-up
    part of the pile top first, ``unturned`` how many cards below have never
    been seen (their identities appear only in the teacher's
    ``unturned_cards``). ``to_move`` is the seat to act, ``CHANCE`` or
    ``TERMINAL``; ``turn`` the seat whose turn it is (during the deal, the seat
    dealt to next).
    """

    variant: Any
    viewer: int | str | None
    phase: str
    to_move: int
    turn: int
    hands: tuple[tuple[SeenCard, ...], ...]
    pile: tuple[SeenCard, ...]
    unturned: int
    unturned_cards: tuple[tuple[str, str], ...] | None
    trios: tuple[LaidTrio, ...]
    agreed: tuple[int, ...]
    stall: int
    pending_draw: bool
    end_reason: str | None
    no_trios: tuple[NoTrio, ...]
    #: The engine (what bots search with); not part of what the seat sees.
    engine: Any = field(default=None, compare=False, repr=False)

    # --- plain facts ------------------------------------------------------------
    @property
    def players(self) -> int:
        """Number of seats."""
        return len(self.hands)

    @property
    def symbols(self) -> tuple[str, ...]:
        """The symbols of this deck."""
        return SYMBOL_NAMES[:self.variant.symbols]

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        return tuple(len(h) for h in self.hands)

    @property
    def pile_size(self) -> int:
        """Cards in the pile, turned up or not."""
        return len(self.pile) + self.unturned

    @property
    def pile_top(self) -> SeenCard | None:
        """The card on top of the pile (its front is the side everyone sees)."""
        return self.pile[0] if self.pile else None

    @property
    def trio_counts(self) -> tuple[int, ...]:
        """Trios each seat owns (the score, JC-18)."""
        counts = [0] * self.players
        for trio in self.trios:
            if trio.owner is not None:
                counts[trio.owner] += 1
        return tuple(counts)

    def scores(self) -> tuple[float, ...]:
        """Each seat's score as the rules count it: its trios (JC-18), as on the state."""
        return tuple(float(c) for c in self.trio_counts)

    def winners(self) -> tuple[int, ...]:
        """The seats with the most trios once the game is over (empty before)."""
        if not self.is_over:
            return ()
        counts = self.trio_counts
        return tuple(p for p, c in enumerate(counts) if c == max(counts))

    @property
    def stall_limit(self) -> int:
        """Turns in a row without a new trio that end the game (JC-16)."""
        return self.variant.stall_rounds * self.players

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.to_move == TERMINAL

    @property
    def is_chance(self) -> bool:
        """Whether chance acts next (a card is dealt or turns up)."""
        return self.to_move == CHANCE

    def cards(self) -> Iterator[SeenCard]:
        """Every card that has been seen: hands, the turned-up pile, trios."""
        for hand in self.hands:
            yield from hand
        yield from self.pile
        for trio in self.trios:
            yield from trio.cards

    def card(self, ref: str) -> SeenCard:
        """The card at ``ref`` (``"B2"``, ``"P1"``, ``"T1a"``; any case)."""
        key = ref.strip()
        key = key[:1].upper() + key[1:].lower()
        refs = self._refs()
        if key not in refs:
            raise KeyError(f"no card at {ref!r}; cards lie at "
                           + (", ".join(refs) or "no place yet"))
        return refs[key]

    def _refs(self) -> dict[str, SeenCard]:
        return {c.ref: c for c in self.cards()}

    def facing(self, ref: str) -> str:
        """Which face of the card at ``ref`` faces the viewer now (``"front"`` for
        the viewer's own hand, the pile and trios; ``"back"`` for other hands)."""
        card = self.card(ref)
        letter = card.ref[0]
        if letter in "PT" or self.viewer is None:
            return FRONT
        if self.viewer == TABLE:       # a hand's back faces everyone but its holder
            return BACK
        return FRONT if "ABCDEF".index(letter) == self.viewer else BACK

    def shown(self, ref: str) -> str | None:
        """The symbol the viewer sees on the card at ``ref`` right now (for a
        buried pile card: the symbol it showed when it was on top)."""
        return self.card(ref).side(self.facing(ref))

    # --- moves ----------------------------------------------------------------
    @property
    def legal_actions(self) -> tuple[int, ...]:
        """The legal decisions, computed from public facts alone (empty at a chance
        point or at the end)."""
        if self.phase != PHASE_NAMES[PLAY]:
            return ()
        return public_actions(self.turn, self.hand_sizes, self.pile_size,
                              self.turn in self.agreed, self.variant.two_from_pile,
                              self.variant.two_from_one_player)

    @property
    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` or ``TERMINAL`` (as on the state)."""
        return self.to_move

    def legal_moves(self) -> MoveList:
        """The legal decisions as moves, described from public facts only."""
        top = self.pile_top.front if self.pile_top is not None else None
        return MoveList(Move("janus-cards", a, action_notation(a), describe_decision(a, top))
                        for a in self.legal_actions)

    # --- odds -----------------------------------------------------------------
    def other_side_odds(self, ref: str) -> dict[str, Fraction]:
        """Exact probability of each symbol on the side of the card at ``ref`` that
        the viewer has not seen (the side that does not face them). A card whose
        both sides are known gives its other side with probability 1.

        Only symbols with a chance above zero are listed. Odds belong to a seat (or
        the teacher): the table's view (``TABLE``) has none and raises ``ValueError``.
        """
        self._check_odds()
        card = self.card(ref)
        face = _unknown_face(card) or (BACK if self.facing(ref) == FRONT else FRONT)
        if card.side(face) is not None:
            return {card.side(face): Fraction(1)}  # type: ignore[dict-item]
        return _posterior(self).odds(card.ref)

    def unturned_odds(self) -> dict[str, Fraction]:
        """Exact probability of each symbol on the face-up side of the next card
        to turn up from the unseen part of the pile (empty if there is none)."""
        self._check_odds()
        if not self.unturned:
            return {}
        return _posterior(self).unturned_odds()

    def _check_odds(self) -> None:
        if self.viewer == TABLE:
            raise ValueError("the table's view has no odds: each seat has seen other "
                             "sides and works out its own; ask a seat's view")

    # --- text -----------------------------------------------------------------
    def __str__(self) -> str:
        who = viewer_name(self.viewer)
        if self.to_move == CHANCE:
            status = ("chance: a card is dealt to " + seat_name(self.turn)
                      if self.phase == "deal" else "chance: a card turns up")
        elif self.to_move == TERMINAL:
            status = f"game over ({self.end_reason})"
        else:
            status = f"{seat_name(self.to_move)} to move"
        lines = [f"Janus card game seen by {who}: {status}",
                 "(each card: holder's side|other side; pile and trios: up|down; "
                 "? = not seen)"]
        counts = self.trio_counts
        for seat, hand in enumerate(self.hands):
            mark = ">" if seat == self.to_move else " "
            cards = "  ".join(f"{c.ref[1:]}:{c}" for c in hand) or "(no cards)"
            flag = "  agreed" if seat in self.agreed else ""
            lines.append(f"{mark} {seat_name(seat)}  {cards}   trios {counts[seat]}{flag}")
        pile = "  ".join(f"{c.ref}:{c}" for c in self.pile) or "(nothing turned up)"
        lines.append(f"Pile {self.pile_size}: {pile}; {self.unturned} unturned")
        if self.unturned_cards is not None and self.unturned_cards:
            lines.append("Unturned (in no order yet): "
                         + " ".join(f"{a}|{b}" for a, b in self.unturned_cards))
        if self.trios:
            lines.append("Trios: " + "; ".join(str(t) for t in self.trios))
        lines.append(f"Turns without a new trio: {self.stall} of {self.stall_limit}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        who = "teacher" if self.viewer is None else viewer_name(self.viewer)
        turn = ("over" if self.is_over else "chance" if self.is_chance
                else f"{seat_name(self.to_move)} to move")
        return (f"<CardsView for {who}: {self.phase}, {turn}, hands "
                f"{' '.join(map(str, self.hand_sizes))}, pile {self.pile_size}, trios "
                f"{' '.join(map(str, self.trio_counts))}>")


# --- a view as plain data (what a seat's record stores per ply) ----------------------
_FACE_CODE = {FRONT: "f", BACK: "b"}
_CODE_FACE = {"f": FRONT, "b": BACK}
_CODE_SYMBOL = {c: n for c, n in zip(SYMBOL_CODES, SYMBOL_NAMES)}
_SYMBOL_CODE = {n: c for c, n in _CODE_SYMBOL.items()}


def _seats_mask(seats: tuple[int, ...]) -> int:
    mask = 0
    for p in seats:
        mask |= 1 << p
    return mask


def view_to_data(view: CardsView) -> dict[str, Any]:
    """The view as JSON data: every card as six characters — the symbol letter of its
    front and of its back (``?`` unseen) and, in two hex digits each, the seats that
    have seen each side (bit ``p`` for seat ``p``); places follow from the order.

    >>> from janus_widgets.games.janus_cards.rules import position
    >>> view = position(hands=[["s/m"], ["h/c"]], pile=["k/f"]).view(0)
    >>> view_to_data(view)["hands"]
    [['s?0102'], ['?c0201']]
    >>> view_from_data(view_to_data(view), view.variant, 0) == view
    True
    """
    def card(c: SeenCard) -> str:
        return (f"{_SYMBOL_CODE[c.front] if c.front else '?'}"
                f"{_SYMBOL_CODE[c.back] if c.back else '?'}"
                f"{_seats_mask(c.front_seen_by):02x}{_seats_mask(c.back_seen_by):02x}")

    return {"phase": view.phase, "to_move": view.to_move, "turn": view.turn,
            "hands": [[card(c) for c in hand] for hand in view.hands],
            "pile": [card(c) for c in view.pile], "unturned": view.unturned,
            "trios": [[-1 if t.owner is None else t.owner, _SYMBOL_CODE[t.symbol],
                       [card(c) for c in t.cards]] for t in view.trios],
            "agreed": list(view.agreed), "stall": view.stall,
            "pending_draw": view.pending_draw, "end_reason": view.end_reason,
            "no_trios": [[ref + _FACE_CODE[face] for ref, face in f.sides]
                         for f in view.no_trios]}


def view_from_data(data: Any, variant: Any, viewer: int | str, *,
                   engine: Any = None) -> CardsView:
    """The view :func:`view_to_data` wrote, checked: ``ValueError`` names what is
    wrong (a field, a card, a count that does not add up to the deck) or which rule the
    position breaks (see :func:`.record_check.check_view`)."""
    if not isinstance(data, dict):
        raise ValueError(f"a view is an object, not {type(data).__name__}")
    keys = {"phase", "to_move", "turn", "hands", "pile", "unturned", "trios", "agreed",
            "stall", "pending_draw", "end_reason", "no_trios"}
    if set(data) != keys:
        raise ValueError("a view has exactly the fields " + ", ".join(sorted(keys)))
    n = variant.players
    letters = "ABCDEF"

    def whole(value: Any, what: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"{what} must be a whole number from {lo} to {hi}, "
                             f"not {value!r}")
        return value

    def card(text: Any, ref: str) -> SeenCard:
        if not isinstance(text, str) or len(text) != 6:
            raise ValueError(f"card {ref} must be six characters, not {text!r}")
        sides = []
        for code in text[:2]:
            if code == "?":
                sides.append(None)
            elif code in _CODE_SYMBOL and SYMBOL_CODES.index(code) < variant.symbols:
                sides.append(_CODE_SYMBOL[code])
            else:
                raise ValueError(f"card {ref}: {code!r} is not a symbol of this deck")
        try:
            masks = int(text[2:4], 16), int(text[4:6], 16)
        except ValueError:
            raise ValueError(f"card {ref}: {text[2:]!r} is not two hex seat masks") from None
        if max(masks) >= 1 << n:
            raise ValueError(f"card {ref}: a seat mask names a seat beyond {letters[n - 1]}")
        seen = tuple(tuple(p for p in range(n) if m >> p & 1) for m in masks)
        return SeenCard(ref, sides[0], sides[1], seen[0], seen[1])

    def rows(value: Any, what: str) -> list:
        if not isinstance(value, list):
            raise ValueError(f"{what} must be a list")
        return value

    phase = data["phase"]
    if phase not in PHASE_NAMES:
        raise ValueError(f"phase {phase!r} is not one of " + ", ".join(PHASE_NAMES))
    hands_data = rows(data["hands"], "hands")
    if len(hands_data) != n:
        raise ValueError(f"hands: one list per seat ({n} seats)")
    hands = tuple(tuple(card(c, f"{letters[p]}{i + 1}")
                        for i, c in enumerate(rows(h, f"{letters[p]}'s hand")))
                  for p, h in enumerate(hands_data))
    pile = tuple(card(c, f"P{i + 1}") for i, c in enumerate(rows(data["pile"], "pile")))
    trios = []
    for t, item in enumerate(rows(data["trios"], "trios")):
        if not isinstance(item, list) or len(item) != 3:
            raise ValueError(f"trio {t + 1} must be [owner, symbol, three cards]")
        owner = whole(item[0], f"trio {t + 1}'s owner", -1, n - 1)
        if item[1] not in _CODE_SYMBOL:
            raise ValueError(f"trio {t + 1}: {item[1]!r} is not a symbol letter")
        laid = rows(item[2], f"trio {t + 1}'s cards")
        if len(laid) != 3:
            raise ValueError(f"trio {t + 1} must hold three cards")
        trios.append(LaidTrio(None if owner < 0 else owner, _CODE_SYMBOL[item[1]],
                              tuple(card(c, f"T{t + 1}{'abc'[j]}")
                                    for j, c in enumerate(laid))))
    unturned = whole(data["unturned"], "unturned", 0, deck_size(variant.symbols))
    placed = sum(map(len, hands)) + len(pile) + 3 * len(trios)
    if placed + unturned != deck_size(variant.symbols):
        raise ValueError(f"the view holds {placed + unturned} cards; the deck has "
                         f"{deck_size(variant.symbols)}")
    refs = {c.ref for h in hands for c in h} | {c.ref for c in pile} | \
        {c.ref for t in trios for c in t.cards}
    facts = []
    for fact in rows(data["no_trios"], "no_trios"):
        sides = []
        for side in rows(fact, "a no-trio fact"):
            if not isinstance(side, str) or side[:-1] not in refs or side[-1:] not in "fb":
                raise ValueError(f"no-trio fact side {side!r} names no card side here")
            sides.append((side[:-1], _CODE_FACE[side[-1]]))
        facts.append(NoTrio(tuple(sides)))
    agreed = tuple(whole(p, "an agreed seat", 0, n - 1) for p in rows(data["agreed"],
                                                                        "agreed"))
    end = data["end_reason"]
    if end is not None and end not in END_REASONS.values():
        raise ValueError(f"end_reason {end!r} is not one of "
                         + ", ".join(END_REASONS.values()))
    if not isinstance(data["pending_draw"], bool):
        raise ValueError("pending_draw must be true or false")
    to_move = data["to_move"]
    if isinstance(to_move, bool) or to_move not in (TERMINAL, CHANCE, *range(n)):
        raise ValueError(f"to_move must be a seat 0 … {n - 1}, {CHANCE} (chance) or "
                         f"{TERMINAL} (over), not {to_move!r}")
    if len(set(agreed)) != len(agreed):
        raise ValueError("agreed: each seat agrees once (JC-14)")
    view = CardsView(
        variant=variant, viewer=viewer, phase=phase, to_move=to_move,
        turn=whole(data["turn"], "turn", 0, n - 1), hands=hands, pile=pile,
        unturned=unturned, unturned_cards=None, trios=tuple(trios), agreed=agreed,
        stall=whole(data["stall"], "stall", 0, 10**9), pending_draw=data["pending_draw"],
        end_reason=end, no_trios=tuple(facts), engine=engine)
    from .record_check import check_view
    check_view(view)              # a position the rules allow, as this seat sees it
    return view


def _unknown_face(card: SeenCard) -> str | None:
    if card.front is None and card.back is not None:
        return FRONT
    if card.back is None and card.front is not None:
        return BACK
    return None


# --- building a view from the engine's raw state ---------------------------------
def knowledge(known: tuple[int, ...], viewer: int | str | None) -> int:
    """The bit mask of the sides ``viewer`` has seen: every side for the teacher
    (``None``), the sides every seat has seen for the table (``TABLE``)."""
    if viewer is None:
        return -1
    if viewer == TABLE:
        common = -1
        for mask in known:
            common &= mask
        return common
    return known[viewer]  # type: ignore[index]


def build_view(variant: Any, raw: tuple, viewer: int | str | None, *,
               engine: Any = None) -> CardsView:
    """The :class:`CardsView` of ``raw`` for seat ``viewer`` (``None``: the teacher;
    ``TABLE``: what every seat has seen).

    The raw layout is the engine's (see ``CardsEngine`` in :mod:`.rules`).
    """
    phase, turn, hands, stack, fresh, known, trios, agreed, stall, extra, facts = raw
    n = len(hands)
    mine = knowledge(known, viewer)
    where: dict[int, tuple[str, str]] = {}

    def seen(side: int, ref: str) -> SeenCard:
        where[side] = (ref, FRONT)
        where[side ^ 1] = (ref, BACK)
        front = SYMBOL_NAMES[SIDE_SYMBOL[side]] if mine >> side & 1 else None
        back = SYMBOL_NAMES[SIDE_SYMBOL[side ^ 1]] if mine >> (side ^ 1) & 1 else None
        return SeenCard(ref, front, back,
                        tuple(w for w in range(n) if known[w] >> side & 1),
                        tuple(w for w in range(n) if known[w] >> (side ^ 1) & 1))

    letters = "ABCDEF"
    view_hands = tuple(tuple(seen(side, f"{letters[p]}{i + 1}") for i, side in enumerate(h))
                       for p, h in enumerate(hands))
    pile = tuple(seen(side, f"P{i + 1}") for i, side in enumerate(reversed(stack)))
    laid = tuple(LaidTrio(None if owner < 0 else owner, SYMBOL_NAMES[sym],
                          tuple(seen(side, f"T{t + 1}{'abc'[j]}")
                                for j, side in enumerate(cards)))
                 for t, (owner, sym, cards) in enumerate(trios))
    shown = tuple(NoTrio(tuple(where[side] for side in triple)) for triple in facts
                  if viewer is None or informative(triple, mine))
    if phase == OVER:
        to_move = TERMINAL
    elif phase == PLAY:
        to_move = turn
    else:
        to_move = CHANCE
    unturned_cards = None
    if viewer is None:
        unturned_cards = tuple((SYMBOL_NAMES[CARDS[c][0]], SYMBOL_NAMES[CARDS[c][1]])
                               for c in fresh)
    return CardsView(
        variant=variant, viewer=viewer, phase=PHASE_NAMES[phase], to_move=to_move,
        turn=turn, hands=view_hands, pile=pile, unturned=len(fresh),
        unturned_cards=unturned_cards, trios=laid,
        agreed=tuple(p for p in range(n) if agreed >> p & 1), stall=stall,
        pending_draw=phase == REVEAL and extra == 1,
        end_reason=END_REASONS.get(extra) if phase == OVER else None,
        no_trios=shown, engine=engine)


def informative(triple: tuple[int, int, int], known: int) -> bool:
    """Whether a no-trio fact tells a seat that has seen the sides in the bit mask
    ``known`` anything: it has not seen all three sides, and the ones it has seen
    show one symbol."""
    seen = [SIDE_SYMBOL[s] for s in triple if known >> s & 1]
    return len(seen) < 3 and len(set(seen)) <= 1


# --- exact inference -----------------------------------------------------------
_UNSET = 14      # a multi-side fact none of whose unseen sides is placed yet
_BROKEN = 15     # a multi-side fact already known to hold
_BITS = 4        # each demand and each fact status packs into 4 bits of the state


class _Posterior:
    """The distribution of the unseen sides given one view, computed exactly.

    Unknowns: each *half-known* card (one side seen) is some card of the deck
    carrying the seen symbol; the unturned cards are the rest. Every way of
    dealing out the unidentified cards counts once per orientation that agrees
    with the seen sides (so a double, which agrees both ways round, counts
    twice — chance turned it either way). No-trio facts with one unseen side
    exclude a symbol there; facts with several unseen sides are tracked while
    counting (or, with ``relaxed=True``, left to the caller, who rejects the
    samples that break them).

    The count runs over the unidentified cards in order. Its state packs, in 4
    bits each, how many cards each group of alike unknown places still needs
    and how far each multi-side fact has got (the symbol its placed sides share,
    or "unset" / "holds"). A group closes after its last possible card. Cards
    are taken symbol by symbol, the symbols of facts first, so facts settle
    early and the states stay few.
    """

    def __init__(self, view: CardsView, relaxed: bool = False) -> None:
        n_sym = view.variant.symbols
        self.view = view
        self.teacher = view.unturned_cards is not None
        loc_ref: list[str] = []
        loc_face: list[str] = []
        loc_k: list[int] = []
        index: dict[str, int] = {}
        taken: set[int] = set()
        cards = list(view.cards())
        for card in cards:
            face = _unknown_face(card)
            if face is None:
                if card.front is None or card.back is None:
                    raise ValueError(f"card {card.ref} has no seen side: not a view "
                                     "of this game")
                a, b = _NAME_INDEX[card.front], _NAME_INDEX[card.back]
                c = CARD_INDEX[(min(a, b), max(a, b))]
                if c in taken:
                    raise ValueError(f"card {card} appears twice in the view")
                taken.add(c)
                continue
            index[card.ref] = len(loc_ref)
            loc_ref.append(card.ref)
            loc_face.append(face)
            seen_side = card.side(BACK if face == FRONT else FRONT)
            assert seen_side is not None
            loc_k.append(_NAME_INDEX[seen_side])
        self.loc_ref, self.loc_face, self.loc_k, self.index = loc_ref, loc_face, loc_k, index
        self.multi: list[tuple[tuple[int, ...], int]] = []
        if self.teacher:
            assert view.unturned_cards is not None
            self.leftover_fixed = sorted(
                CARD_INDEX[(min(_NAME_INDEX[a], _NAME_INDEX[b]),
                            max(_NAME_INDEX[a], _NAME_INDEX[b]))]
                for a, b in view.unturned_cards)
            return
        free = [c for c in range(deck_size(n_sym)) if c not in taken]
        if len(free) != len(loc_ref) + view.unturned:
            raise ValueError("the view does not account for every card of the deck")
        # No-trio facts, reduced to what this viewer has not seen.
        excluded: list[set[int]] = [set() for _ in loc_ref]
        refs = {c.ref: c for c in cards}
        for fact in view.no_trios:
            seen_syms = []
            unseen = []
            for ref, face in fact.sides:
                sym = refs[ref].side(face)
                if sym is None:
                    unseen.append(index[ref])
                else:
                    seen_syms.append(_NAME_INDEX[sym])
            if len(set(seen_syms)) > 1 or not unseen:
                continue
            target = seen_syms[0] if seen_syms else _UNSET
            if len(unseen) == 1:
                excluded[unseen[0]].add(target)
            else:
                self.multi.append((tuple(unseen), target))
        multi = [] if relaxed else self.multi
        entangled = {loc for locs, _ in multi for loc in locs}
        # Groups of alike unknown places (same seen symbol, same exclusions).
        group_of: dict[Any, int] = {}
        self.group_locs: list[list[int]] = []
        group_k: list[int] = []
        group_ex: list[frozenset[int]] = []
        loc_group: list[int] = []
        for loc, k in enumerate(loc_k):
            key: Any = (k, frozenset(excluded[loc])) if loc not in entangled else ("e", loc)
            g = group_of.get(key)
            if g is None:
                g = group_of[key] = len(self.group_locs)
                self.group_locs.append([])
                group_k.append(k)
                group_ex.append(frozenset(excluded[loc]))
            self.group_locs[g].append(loc)
            loc_group.append(g)
        self.loc_group = loc_group
        groups = len(self.group_locs)
        members = [tuple(loc_group[loc] for loc in locs) for locs, _ in multi]
        # Packed state: group g's demand at bits 4g, fact j's status at 4(groups + j).
        self.fact_shift = [_BITS * (groups + j) for j in range(len(multi))]
        self.fact_mask = [sum(15 << (_BITS * g) for g in m) for m in members]
        self.member_of: list[tuple[int, ...]] = [
            tuple(j for j, m in enumerate(members) if g in m) for g in range(groups)]
        # The order of the cards: symbols of the facts first, then the others.
        order: list[int] = []
        for m in members:
            order.extend(group_k[g] for g in m if group_k[g] not in order)
        order.extend(k for k in sorted(set(group_k), key=lambda k: -group_k.count(k))
                     if k not in order)
        order.extend(k for k in range(n_sym) if k not in order)
        rank = {k: i for i, k in enumerate(order)}
        free.sort(key=lambda c: sorted((rank[CARDS[c][0]], rank[CARDS[c][1]])))
        self.steps: list[int] = []
        self.options: list[list[tuple[int, int, int]]] = []
        self.spare: list[int] = []   # cards no unknown place can take: always unturned
        last: dict[int, int] = {}
        for c in free:
            a, b = CARDS[c]
            opts = []
            for g in range(groups):
                k, ex = group_k[g], group_ex[g]
                if a == b:
                    if k == a and a not in ex:
                        opts.append((g, a, 2))
                else:
                    if k == a and b not in ex:
                        opts.append((g, b, 1))
                    if k == b and a not in ex:
                        opts.append((g, a, 1))
            if not opts:
                self.spare.append(c)
                continue
            for g, _, _ in opts:
                last[g] = len(self.steps)
            self.steps.append(c)
            self.options.append(opts)
        self.close_mask = [0] * len(self.steps)
        impossible = len(last) < groups
        for g, i in last.items():
            self.close_mask[i] |= 15 << (_BITS * g)
        start = 0
        for g, locs in enumerate(self.group_locs):
            start |= len(locs) << (_BITS * g)
        for j, (_, target) in enumerate(multi):
            start |= target << self.fact_shift[j]
        self.start = start
        self._count(impossible)

    def _moves(self, i: int, state: int) -> list[tuple[int, int, int, int]]:
        """``(next state, weight, group or -1, partner)`` for card ``i`` in ``state``."""
        close = self.close_mask[i]
        out = []
        if not state & close:
            out.append((state, 1, -1, -1))
        for g, partner, weight in self.options[i]:
            shift = _BITS * g
            if not (state >> shift) & 15:
                continue
            s2 = state - (1 << shift)
            if s2 & close:
                continue
            for j in self.member_of[g]:
                sh = self.fact_shift[j]
                st = (s2 >> sh) & 15
                if st == _BROKEN:
                    continue
                new = partner if st == _UNSET else (st if st == partner else _BROKEN)
                if new != _BROKEN and not s2 & self.fact_mask[j]:
                    break  # every unseen side of the fact shows one symbol: impossible
                s2 += (new - st) << sh
            else:
                out.append((s2, weight, g, partner))
        return out

    def _count(self, impossible: bool) -> None:
        steps = len(self.steps)
        forward: list[dict[int, int]] = [{self.start: 1}]
        moves: list[dict[int, list]] = []
        for i in range(steps):
            nxt: dict[int, int] = defaultdict(int)
            table = {}
            for state, count in forward[-1].items():
                options = self._moves(i, state)
                table[state] = options
                for s2, weight, _, _ in options:
                    nxt[s2] += count * weight
            moves.append(table)
            forward.append(nxt)
        backward: list[dict[int, int]] = [{} for _ in range(steps + 1)]
        backward[steps] = dict.fromkeys(forward[steps], 1)
        for i in range(steps - 1, -1, -1):
            after = backward[i + 1]
            here = backward[i]
            for state, options in moves[i].items():
                here[state] = sum(weight * after.get(s2, 0) for s2, weight, _, _ in options)
        self.forward, self.backward, self.moves = forward, backward, moves
        self.total = 0 if impossible else backward[0].get(self.start, 0)
        if self.total == 0:
            raise ValueError("no arrangement of the unseen cards agrees with this view")
        self._marginals: tuple[list[dict[int, int]], dict[int, int]] | None = None

    def marginals(self) -> tuple[list[dict[int, int]], dict[int, int]]:
        """Weighted counts of each group taking each partner, and of each card placed."""
        if self._marginals is None:
            group_partner: list[dict[int, int]] = [defaultdict(int) for _ in self.group_locs]
            used: dict[int, int] = defaultdict(int)
            for i, card in enumerate(self.steps):
                after = self.backward[i + 1]
                before = self.forward[i]
                for state, options in self.moves[i].items():
                    count = before[state]
                    for s2, weight, g, partner in options:
                        if g >= 0:
                            amount = count * weight * after.get(s2, 0)
                            if amount:
                                group_partner[g][partner] += amount
                                used[card] += amount
            self._marginals = (group_partner, used)
        return self._marginals

    # --- answers ------------------------------------------------------------------
    def odds(self, ref: str) -> dict[str, Fraction]:
        group_partner, _ = self.marginals()
        g = self.loc_group[self.index[ref]]
        size = len(self.group_locs[g]) * self.total
        return {SYMBOL_NAMES[p]: Fraction(amount, size)
                for p, amount in sorted(group_partner[g].items()) if amount}

    def unturned_odds(self) -> dict[str, Fraction]:
        weights: dict[int, Fraction] = defaultdict(Fraction)
        f = self.view.unturned
        if self.teacher:
            chances = {c: Fraction(1, f) for c in self.leftover_fixed}
        else:
            _, used = self.marginals()
            chances = {c: Fraction(self.total - used.get(c, 0), self.total * f)
                       for c in self.steps + self.spare}
        for c, p in chances.items():
            for sym in CARDS[c]:
                weights[sym] += p / 2
        return {SYMBOL_NAMES[s]: p for s, p in sorted(weights.items()) if p}

    def sample(self, stream: RandomStream) -> tuple[dict[int, int], list[int]]:
        """One arrangement, drawn with its exact probability: half-known place →
        card, and the unturned cards."""
        if self.teacher:
            return {}, list(self.leftover_fixed)
        state = self.start
        chosen: dict[int, list[int]] = defaultdict(list)
        leftover = list(self.spare)
        for i, card in enumerate(self.steps):
            after = self.backward[i + 1]
            options = self.moves[i][state]
            weights = [weight * after.get(s2, 0) for s2, weight, _, _ in options]
            pick = stream.uniform() * sum(weights)
            acc = 0
            g = -1
            for (s2, _, g, _), w in zip(options, weights):
                acc += w
                if w and pick < acc:
                    break
            else:  # rounding at the very top: the last possible option
                s2, _, g, _ = next(o for o, w in zip(reversed(options), reversed(weights))
                                   if w)
            state = s2
            if g < 0:
                leftover.append(card)
            else:
                chosen[g].append(card)
        placed: dict[int, int] = {}
        for g, cards in chosen.items():
            order = list(cards)
            for k in range(len(order) - 1, 0, -1):  # Fisher–Yates
                j = stream.below(k + 1)
                order[k], order[j] = order[j], order[k]
            for loc, c in zip(self.group_locs[g], order):
                placed[loc] = c
        return placed, sorted(leftover)

    def breaks_a_fact(self, placed: dict[int, int]) -> bool:
        """Whether an arrangement shows one symbol on every unseen side of a fact."""
        for locs, target in self.multi:
            partners = set()
            for loc in locs:
                a, b = CARDS[placed[loc]]
                partners.add(b if a == self.loc_k[loc] else a)
            if len(partners) == 1 and (target == _UNSET or target in partners):
                return True
        return False


@lru_cache(maxsize=8)
def _posterior(view: CardsView, relaxed: bool = False) -> _Posterior:
    return _Posterior(view, relaxed)


# --- determinization -------------------------------------------------------------
def determinize(view: CardsView, stream: RandomStream) -> tuple:
    """A raw position agreeing with ``view``, drawn uniformly from those the viewer
    cannot tell apart (weighted by chance, as the odds are). Reads only the view.
    """
    # Sample without the multi-side no-trio facts (a small count), and throw away
    # the arrangements that break one: what is kept is exactly the distribution
    # with them. Breaking one is rare; after many misses use the full count.
    post = _posterior(view, True)
    for _ in range(1000):
        placed, leftover = post.sample(stream)
        if not post.breaks_a_fact(placed):
            break
    else:  # pragma: no cover - only for views with improbable facts
        post = _posterior(view)
        placed, leftover = post.sample(stream)
    n = view.players
    known = [0] * n

    def place(card: SeenCard) -> int:
        loc = post.index.get(card.ref)
        if loc is None:
            pair = (_NAME_INDEX[card.front], _NAME_INDEX[card.back])  # type: ignore[index]
            c = CARD_INDEX[tuple(sorted(pair))]  # type: ignore[index]
            front_symbol = pair[0]
        else:
            c = placed[loc]
            seen_face = BACK if post.loc_face[loc] == FRONT else FRONT
            k = post.loc_k[loc]
            a, b = CARDS[c]
            front_symbol = k if seen_face == FRONT else (b if a == k else a)
        a, b = CARDS[c]
        if a == b:
            front_idx = stream.below(2)
        else:
            front_idx = 0 if a == front_symbol else 1
        side = 2 * c + front_idx
        for w in card.front_seen_by:
            known[w] |= 1 << side
        for w in card.back_seen_by:
            known[w] |= 1 << (side ^ 1)
        sides[card.ref] = side
        return side

    sides: dict[str, int] = {}
    hands = tuple(tuple(place(card) for card in hand) for hand in view.hands)
    stack = tuple(reversed([place(card) for card in view.pile]))
    trios = tuple((-1 if t.owner is None else t.owner, _NAME_INDEX[t.symbol],
                   tuple(place(card) for card in t.cards)) for t in view.trios)
    facts = tuple(tuple(sides[ref] if face == FRONT else sides[ref] ^ 1
                        for ref, face in fact.sides) for fact in view.no_trios)
    phase = PHASE_NAMES.index(view.phase)
    agreed = 0
    for p in view.agreed:
        agreed |= 1 << p
    if phase == OVER:
        extra = next(code for code, name in END_REASONS.items() if name == view.end_reason)
    elif phase == REVEAL and view.pending_draw:
        extra = 1
    else:
        extra = 0
    return (phase, view.turn, hands, stack, tuple(leftover), tuple(known), trios, agreed,
            view.stall, extra, facts)


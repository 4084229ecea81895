"""Fixed tables of the Janus card game: symbols, cards, sides and action numbers.

Everything here is the same in every state and every variant, so the rules
(:mod:`.rules`) and the views (:mod:`.views`) share it. Rule IDs (``JC-n``)
are defined in ``seeds/janus-cards.md``.

A card is a number ``c``; its two sides are ``2c`` (side 0, the smaller
symbol) and ``2c + 1`` (side 1). A card lying somewhere is stored as the number
of the side that faces its holder (in a hand) or faces up (on the pile, in a
trio), so ``side ^ 1`` is the other side.

>>> [SYMBOL_NAMES[s] for s in CARDS[CARD_INDEX[(0, 1)]]]
['sun', 'moon']
>>> deck_size(11), deck_size(4)
(66, 10)
>>> action_notation(draw_action((1, 0), None)), action_notation(DISCARD2_BASE)
('dB1+P', 'x12')
"""

from __future__ import annotations

from itertools import combinations

__all__ = [
    "SYMBOL_NAMES", "SYMBOL_CODES", "MAX_SYMBOLS", "CARDS", "CARD_INDEX", "MAX_CARDS",
    "SIDE_SYMBOL", "deck_size", "HAND_LIMIT", "MAX_SEATS", "PILE", "NUM_SOURCES",
    "PAIRS", "DRAW2_BASE", "DRAW_PP", "DISCARD1_BASE", "DISCARD2", "DISCARD2_BASE",
    "AGREE", "CHANCE_BASE", "NUM_ACTIONS", "DEAL", "REVEAL", "PLAY", "OVER",
    "PHASE_NAMES", "END_REASONS", "end_text", "draw_action", "discard_action", "chance_action",
    "action_sources", "action_slots", "action_notation", "public_actions",
    "symbol_index", "card_text", "plural", "mended_plurals",
]

#: The eleven symbols, in the order the smaller decks use them (option ``symbols``).
SYMBOL_NAMES: tuple[str, ...] = ("sun", "moon", "heart", "crown", "key", "fish", "leaf",
                                 "bell", "tree", "ring", "wave")
#: One letter per symbol, used in chance notation (``=s/m``).
SYMBOL_CODES: tuple[str, ...] = ("s", "m", "h", "c", "k", "f", "l", "b", "t", "r", "w")
MAX_SYMBOLS = len(SYMBOL_NAMES)

#: Every unordered pair ``(a, b)``, ``a <= b``, ordered by ``b`` then ``a`` so that
#: the first ``n(n+1)/2`` cards are exactly the deck of the first ``n`` symbols.
CARDS: tuple[tuple[int, int], ...] = tuple(
    (a, b) for b in range(MAX_SYMBOLS) for a in range(b + 1))
CARD_INDEX: dict[tuple[int, int], int] = {pair: i for i, pair in enumerate(CARDS)}
MAX_CARDS = len(CARDS)                       # 66
#: The symbol printed on each side number ``2c + s``.
SIDE_SYMBOL: tuple[int, ...] = tuple(CARDS[side >> 1][side & 1]
                                     for side in range(2 * MAX_CARDS))

_SYMBOL_LOOKUP = {**{c: i for i, c in enumerate(SYMBOL_CODES)},
                  **{n: i for i, n in enumerate(SYMBOL_NAMES)}}


def deck_size(symbols: int) -> int:
    """Cards in a deck of ``symbols`` symbols: every pair, doubles included."""
    return symbols * (symbols + 1) // 2


def symbol_index(text: str) -> int:
    """A symbol's number from its name or letter (``'moon'`` or ``'m'`` → 1).

    >>> symbol_index("Moon"), symbol_index("w")
    (1, 10)
    """
    key = text.strip().lower()
    if key not in _SYMBOL_LOOKUP:
        raise ValueError(f"{text!r} is not a symbol: use one of "
                         + ", ".join(f"{n} ({c})" for n, c in zip(SYMBOL_NAMES, SYMBOL_CODES)))
    return _SYMBOL_LOOKUP[key]


def card_text(side: int) -> str:
    """``'sun/moon'``: the side ``side`` first, then the other side."""
    return f"{SYMBOL_NAMES[SIDE_SYMBOL[side]]}/{SYMBOL_NAMES[SIDE_SYMBOL[side ^ 1]]}"


def plural(symbol: str) -> str:
    """A symbol's name for more than one: ``'suns'``, ``'fish'``, ``'leaves'``.

    >>> plural("sun"), plural("fish"), plural("leaf")
    ('suns', 'fish', 'leaves')
    """
    return {"fish": "fish", "leaf": "leaves"}.get(symbol, symbol + "s")


def mended_plurals(text: str) -> str:
    """A move's text with the plurals records saved before :func:`plural` wrote them
    ("a trio of fishs", "leafs") mended.

    >>> mended_plurals("dB1 (T1c: fish); A lays a trio of fishs for A")
    'dB1 (T1c: fish); A lays a trio of fish for A'
    """
    return text.replace(" of fishs ", " of fish ").replace(" of leafs ", " of leaves ")


# --- seats, hands and the pile ------------------------------------------------
HAND_LIMIT = 4
MAX_SEATS = 6
#: A draw source: ``seat * 4 + slot`` for a card in a hand, ``PILE`` for the pile's top.
PILE = MAX_SEATS * HAND_LIMIT                # 24
NUM_SOURCES = PILE + 1

# --- the action numbering (documented in seeds/janus-cards.md) ----------------
#: 0 … 24: draw one card from a source.
#: 25 … 324: draw two cards from two different sources (pairs in increasing order).
PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(NUM_SOURCES), 2))
DRAW2_BASE = NUM_SOURCES                     # 25
DRAW_PP = DRAW2_BASE + len(PAIRS)            # 325: the pile's two top cards
DISCARD1_BASE = DRAW_PP + 1                  # 326 … 329: discard the card in slot 1 … 4
DISCARD2: tuple[tuple[int, int], ...] = tuple(
    (i, j) for i in range(HAND_LIMIT) for j in range(HAND_LIMIT) if i != j)
DISCARD2_BASE = DISCARD1_BASE + HAND_LIMIT   # 330 … 341: discard two, the second on top
AGREE = DISCARD2_BASE + len(DISCARD2)        # 342
CHANCE_BASE = AGREE + 1                      # 343 + side: a card turns up / is dealt
NUM_ACTIONS = CHANCE_BASE + 2 * MAX_CARDS    # 475

_PAIR_INDEX = {pair: i for i, pair in enumerate(PAIRS)}
_DISCARD2_INDEX = {pair: i for i, pair in enumerate(DISCARD2)}

# --- phases -----------------------------------------------------------------
DEAL, REVEAL, PLAY, OVER = range(4)
PHASE_NAMES = ("deal", "reveal", "play", "over")
#: Why a finished game ended (``raw[9]`` once the phase is OVER).
END_REASONS = {1: "agreed", 2: "proven", 3: "stalled", 4: "exhausted"}


def end_text(reason: str, stall_rounds: int) -> str:
    """Why a game ended, in words, with its rule.

    >>> end_text("stalled", 10)
    '10 rounds passed without a new trio (JC-16)'
    """
    return {"agreed": "every player agreed that no trio can be made (JC-14)",
            "proven": "no symbol is left on three cards (JC-15)",
            "stalled": f"{stall_rounds} rounds passed without a new trio (JC-16)",
            "exhausted": "every card lies in a trio (JC-17)"}[reason]


def _source(seat_slot: tuple[int, int] | None) -> int:
    if seat_slot is None:
        return PILE
    seat, slot = seat_slot
    return seat * HAND_LIMIT + slot


def draw_action(first: tuple[int, int] | None,
                second: tuple[int, int] | None | bool = False) -> int:
    """The action drawing ``first`` (``(seat, slot)`` or ``None`` for the pile) and,
    if given, ``second`` too. Slots count from 0 here; notation counts from 1.

    >>> draw_action((1, 0)), draw_action(None), draw_action(None, None)
    (4, 24, 325)
    """
    a = _source(first)
    if second is False:
        return a
    b = _source(second)  # type: ignore[arg-type]
    if a == b == PILE:
        return DRAW_PP
    if a == b:
        raise ValueError("the same card cannot be drawn twice")
    return DRAW2_BASE + _PAIR_INDEX[(min(a, b), max(a, b))]


def discard_action(first: int, second: int | None = None) -> int:
    """The action discarding the card in slot ``first`` (0-based), then ``second``.

    >>> discard_action(1), discard_action(0, 2)
    (327, 331)
    """
    if second is None:
        return DISCARD1_BASE + first
    return DISCARD2_BASE + _DISCARD2_INDEX[(first, second)]


def chance_action(side: int) -> int:
    """The chance outcome that deals or turns up a card with ``side`` towards its
    holder (or face up)."""
    return CHANCE_BASE + side


def action_sources(action: int) -> tuple[int, ...]:
    """The draw sources of a draw action (``()`` for any other action)."""
    if 0 <= action < DRAW2_BASE:
        return (action,)
    if DRAW2_BASE <= action < DRAW_PP:
        return PAIRS[action - DRAW2_BASE]
    if action == DRAW_PP:
        return (PILE, PILE)
    return ()


def action_slots(action: int) -> tuple[int, ...]:
    """The hand slots (0-based, in order) of a discard action (``()`` otherwise)."""
    if DISCARD1_BASE <= action < DISCARD2_BASE:
        return (action - DISCARD1_BASE,)
    if DISCARD2_BASE <= action < AGREE:
        return DISCARD2[action - DISCARD2_BASE]
    return ()


_LETTERS = "ABCDEF"


def _source_text(src: int) -> str:
    if src == PILE:
        return "P"
    seat, slot = divmod(src, HAND_LIMIT)
    return f"{_LETTERS[seat]}{slot + 1}"


def action_notation(action: int) -> str:
    """The notation of an action; the same in every state (see seeds/janus-cards.md).

    >>> [action_notation(a) for a in (0, 24, DRAW_PP, 326, 342, CHANCE_BASE + 3)]
    ['dA1', 'dP', 'dP+P', 'x1', 'agree', '=m/s']
    """
    if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"{action!r} is not a Janus card game action number "
                         f"(0 … {NUM_ACTIONS - 1})")
    sources = action_sources(action)
    if sources:
        return "d" + "+".join(_source_text(s) for s in sources)
    slots = action_slots(action)
    if slots:
        return "x" + "".join(str(s + 1) for s in slots)
    if action == AGREE:
        return "agree"
    side = action - CHANCE_BASE
    return f"={SYMBOL_CODES[SIDE_SYMBOL[side]]}/{SYMBOL_CODES[SIDE_SYMBOL[side ^ 1]]}"


def public_actions(turn: int, sizes: tuple[int, ...], pile: int, agreed: bool,
                   two_from_pile: bool, two_from_one_player: bool) -> tuple[int, ...]:
    """The legal decisions of the player ``turn`` from public facts alone (JC-7 …
    JC-11, JC-14): hand sizes, the number of cards in the pile, whether that
    player has already agreed to end, and the two drawing options.

    >>> public_actions(0, (2, 1, 0), 5, False, False, False)
    (4, 24, 134, 326, 327, 330, 333, 342)
    """
    n = len(sizes)
    mine = sizes[turn]
    out: list[int] = []
    if mine < HAND_LIMIT:
        sources = [seat * HAND_LIMIT + slot for seat in range(n) if seat != turn
                   for slot in range(sizes[seat])]
        if pile:
            sources.append(PILE)
        out.extend(sources)
        if mine <= HAND_LIMIT - 2:
            for i, a in enumerate(sources):
                for b in sources[i + 1:]:
                    if b != PILE and a // HAND_LIMIT == b // HAND_LIMIT \
                            and not two_from_one_player:
                        continue
                    out.append(DRAW2_BASE + _PAIR_INDEX[(a, b)])
            if two_from_pile and pile >= 2:
                out.append(DRAW_PP)
    out.extend(DISCARD1_BASE + i for i in range(mine))
    out.extend(DISCARD2_BASE + k for k, (i, j) in enumerate(DISCARD2)
               if i < mine and j < mine)
    if not agreed:
        out.append(AGREE)
    out.sort()
    return tuple(out)


def describe_decision(action: int, top_symbol: str | None) -> str:
    """One sentence for a player's move, from public facts only (the symbol the pile's
    top shows everyone, if there is a pile)."""
    from ...core.protocol import seat_name

    if action == AGREE:
        return ("Agree that no more trios can be formed; the game ends once every "
                "player agrees.")
    slots = action_slots(action)
    if slots:
        if len(slots) == 1:
            return f"Discard your card {slots[0] + 1} onto the pile, your side up."
        return (f"Discard your cards {slots[0] + 1} and {slots[1] + 1} onto the pile, "
                f"your sides up, card {slots[1] + 1} on top.")
    top = f" (it shows {top_symbol})" if top_symbol else ""
    if action == DRAW_PP:
        return f"Draw the two top cards of the pile{top}."
    parts = []
    for src in action_sources(action):
        if src == PILE:
            parts.append(f"the top card of the pile{top}")
        else:
            seat, slot = divmod(src, HAND_LIMIT)
            parts.append(f"{seat_name(seat)}'s card {slot + 1}")
    return "Draw " + " and ".join(parts) + "."

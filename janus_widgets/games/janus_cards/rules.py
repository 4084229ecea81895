"""Janus (1993), the card game: double-sided cards, trios, hidden sides (rules ``JC-*``).

The rules are in ``seeds/janus-cards.md``; every rule ID cited here is defined there.
A card held in a hand shows one symbol to its holder and the other to everyone
else; the game is about drawing the cards whose hidden sides you can see.

>>> from janus_widgets import games
>>> cards = games.get("janus-cards")
>>> state = position(hands=[["sun/moon", "sun/key"], ["heart/sun", "fish/bell"],
...                         ["crown/leaf"]], pile=["tree/ring"], to_move=0)
>>> state.view(0).shown("B1")          # A sees the side of B's card that faces A
'sun'
>>> state.play("dB1").trio_counts      # ... draws it, holds three suns, lays them
(1, 0, 0)
>>> state.play("dC2")
Traceback (most recent call last):
...
janus_widgets.core.errors.IllegalMoveError: Illegal Janus (1993) card game move 'dC2': JC-8: player C holds only 1 card. Legal now: dB1, dB2, dC1, dP, dB1+C1, dB1+P, dB2+C1, dB2+P, dC1+P, x1, x2, x12, x21, agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...core.errors import InvalidMoveError, VariantError
from ...core.protocol import (CHANCE, TABLE, TERMINAL, Engine, Explanation, Game, State,
                              seat_index, seat_name, winners_text, non_ascii)
from ...core.rng import RandomStream
from ...core.variant import Ruleset, Variant, option
from .tables import (describe_decision, AGREE, CARD_INDEX, CARDS, CHANCE_BASE, DEAL, DISCARD1_BASE, DRAW_PP,
                     END_REASONS, HAND_LIMIT, MAX_SYMBOLS, NUM_ACTIONS, OVER,
                     PHASE_NAMES, PILE, PLAY, REVEAL, SIDE_SYMBOL, SYMBOL_CODES,
                     SYMBOL_NAMES, action_notation, action_slots, action_sources,
                     card_text, deck_size, end_text, discard_action, draw_action, plural,
                     public_actions,
                     symbol_index)
from .told import chance_words, told_sentence
from .views import (CardsView, build_view, determinize, informative, knowledge, view_from_data,
                    view_to_data)

__all__ = ["GAME", "RULESETS", "JanusCardsVariant", "CardsEngine", "CardsState", "CardsView",
           "position"]

AGREED, PROVEN, STALLED, EXHAUSTED = 1, 2, 3, 4
_SOURCES = tuple(action_sources(a) for a in range(DISCARD1_BASE))
_SLOTS = tuple(action_slots(a) for a in range(AGREE))
_TRIPLES = {3: ((0, 1, 2),), 4: ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3))}


def _max_players(symbols: int) -> int:
    """The most players a deck of ``symbols`` symbols can deal to (JC-2)."""
    return min(6, (deck_size(symbols) - 1) // 2)


def _without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``cards`` less ``card`` (index and slice run at C speed: this is in every bot's
    inner loop)."""
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


@dataclass(frozen=True)
class JanusCardsVariant(Variant):
    """Janus card game rule options (see ``seeds/janus-cards.md``)."""

    game_title = "Janus (1993) card game"

    players: int = option(4, choices=(2, 3, 4, 5, 6), rule="JC-2", setup=True,
                          doc="Number of players, seats A, B, … in turn order (the box says "
                              "3–6; 2 suits the smallest decks).")
    symbols: int = option(11, minimum=3, maximum=MAX_SYMBOLS, rule="JC-1",
                          doc="Number of symbols: the deck has every pair of them, doubles "
                              "included (11 symbols give the 66 cards of the box).")
    deal_peek: str = option("look", choices=("look", "none"), rule="JC-5",
                            labels={"look": "both sides of dealt cards",
                                    "none": "only the side facing you"},
                            doc="'look': at the deal each player sees both sides of their "
                                "two cards (the rulebook's one exception); 'none': only the "
                                "side facing them.")
    two_from_pile: bool = option(False, rule="JC-8",
                                 doc="Whether a player may draw the pile's two top cards.")
    two_from_one_player: bool = option(False, rule="JC-8",
                                       doc="Whether a player may draw two cards from the "
                                           "same other player.")
    trio_backs: str = option("hidden", choices=("hidden", "shown"), rule="JC-12",
                             labels={"hidden": "symbol side only",
                                     "shown": "open, both sides"},
                             doc="'hidden': a laid trio shows its symbol side only; its "
                                 "player never sees the other sides, the others keep what "
                                 "they saw while the cards were held. 'shown': trios lie "
                                 "open, both sides seen by all.")
    auto_end: bool = option(True, rule="JC-15",
                            doc="End the game at once when no symbol is left on three "
                                "cards outside the trios, so no trio can be formed (only "
                                "with trio_backs='shown': the count needs open trios).")
    stall_rounds: int = option(10, minimum=1, maximum=1000, rule="JC-16",
                               doc="Rounds in a row without a new trio after which the game "
                                   "ends (every player taking one turn is a round).")
    # --- open readings of the rulebook (issue 15) ---
    agreement: str = option(
        "binding", choices=("binding", "joint"), rule="JC-14",
        labels={"binding": "agreeing is binding", "joint": "joint: all agree in turn"},
        doc="'binding': a player who has agreed to end owns no trio laid later; 'joint': "
            "agreeing is a proposal that costs nothing, and the game ends when every player "
            "agrees in turn, one after the other.")

    def check(self) -> None:
        most = _max_players(self.symbols)
        if self.players > most:
            raise VariantError(
                f"Janus (1993) card game option players={self.players} is not allowed with "
                f"symbols={self.symbols}: {deck_size(self.symbols)} cards deal two to at "
                f"most {most} players and leave a pile; allowed: 2 … {most}.",
                field="players", value=self.players, allowed=f"2 … {most}")


class CardsEngine(Engine[JanusCardsVariant]):
    """The Janus card game on plain tuples.

    A raw state is ``(phase, turn, hands, stack, unturned, known, trios,
    agreed, stall, extra, facts)``:

    * ``hands``: per seat, the cards in slot order, each stored as the side
      facing its holder (side ``2c + s`` of card ``c``; ``side ^ 1`` faces the
      others);
    * ``stack``: the turned-up pile, bottom to top, each card as its face-up side;
      ``unturned``: the sorted card numbers below it that nobody has seen (which
      one turns up next is decided by chance when it does, JC-6);
    * ``known``: per seat, a bit mask of the sides that seat has seen (JC-13);
    * ``trios``: ``(owner or -1, symbol, (side, side, side))`` in the order laid;
    * ``agreed``: bit mask of the seats that have agreed to end (JC-14);
    * ``stall``: turns since the last trio (JC-16);
    * ``extra``: in REVEAL, 1 while a two-card pile draw waits for its second
      card; in OVER, why the game ended;
    * ``facts``: the no-trio facts (JC-13), in the order learnt: triples of sides
      that do not all show the same symbol.
    """

    turn_rule = "JC-19"
    chance_rule = "JC-4"
    over_rule = "JC-20"
    num_actions = NUM_ACTIONS
    has_secrets = True
    notation_help = ("Janus card game moves: dB1 (draw B's card 1), dP (draw the pile's "
                     "top card), dB1+C2 or dB1+P (draw two), x2 (discard your card 2), x13 "
                     "(discard cards 1 then 3, 3 on top), agree (agree to end); chance: "
                     "=s/m (a sun/moon card, sun towards its holder or face up).")

    def __init__(self, variant: JanusCardsVariant, game: Game | None = None) -> None:
        super().__init__(variant, game)
        n = self.num_players
        self.deck = deck_size(variant.symbols)
        self.look = variant.deal_peek == "look"
        self.two_pile = variant.two_from_pile
        self.two_one = variant.two_from_one_player
        self.open_trios = variant.trio_backs == "shown"
        # JC-15 is a count of the trios' both sides: only open trios let the table make it.
        self.auto_end = variant.auto_end and self.open_trios
        self.stall_limit = variant.stall_rounds * n
        self.joint = variant.agreement == "joint"
        self.others = tuple(tuple(w for w in range(n) if w != p) for p in range(n))
        self.everyone = (1 << n) - 1
        self._cache: dict[tuple, tuple[int, ...]] = {}
        self._initial = (DEAL, 0, ((),) * n, (), tuple(range(self.deck)), (0,) * n, (), 0,
                         0, 0, ())

    # --- lean path -------------------------------------------------------
    def initial(self) -> tuple:
        return self._initial

    def current(self, raw: tuple) -> int:
        phase = raw[0]
        if phase == PLAY:
            return raw[1]
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def actions(self, raw: tuple) -> tuple[int, ...]:
        phase = raw[0]
        if phase == PLAY:
            turn = raw[1]
            pile = len(raw[3]) + len(raw[4])
            key = (turn, tuple(map(len, raw[2])), pile if pile < 2 else 2,
                   raw[7] >> turn & 1)
            acts = self._cache.get(key)
            if acts is None:
                acts = self._cache[key] = public_actions(
                    turn, key[1], key[2], bool(key[3]), self.two_pile, self.two_one)
            return acts
        if phase == OVER:
            return ()
        out = []
        for c in raw[4]:
            a, b = CARDS[c]
            out.append(CHANCE_BASE + 2 * c)
            if a != b:
                out.append(CHANCE_BASE + 2 * c + 1)
        return tuple(out)

    def sample(self, raw: tuple, stream: RandomStream) -> int:
        fresh = raw[4]
        u = int(stream.uniform() * 2 * len(fresh))
        c = fresh[u >> 1]
        a, b = CARDS[c]
        return CHANCE_BASE + 2 * c + (0 if a == b else u & 1)

    def chance_outcomes(self, raw: tuple) -> tuple[tuple[int, Fraction], ...] | None:
        if raw[0] not in (DEAL, REVEAL):
            return ()
        m = len(raw[4])
        half, whole = Fraction(1, 2 * m), Fraction(1, m)
        out = []
        for c in raw[4]:
            a, b = CARDS[c]
            if a == b:
                out.append((CHANCE_BASE + 2 * c, whole))
            else:
                out.append((CHANCE_BASE + 2 * c, half))
                out.append((CHANCE_BASE + 2 * c + 1, half))
        return tuple(out)

    def is_chance_action(self, action: int) -> bool:
        return CHANCE_BASE <= action < NUM_ACTIONS

    def apply(self, raw: tuple, action: int) -> tuple:
        phase = raw[0]
        if phase == PLAY:
            if action < DISCARD1_BASE:
                return self._draw(raw, action)
            if action < AGREE:
                return self._discard(raw, action)
            return self._agree(raw)
        side = action - CHANCE_BASE
        if phase == DEAL:
            return self._deal(raw, side)
        return self._reveal(raw, side)

    def _deal(self, raw: tuple, side: int) -> tuple:
        _, turn, hands, stack, fresh, known, trios, agreed, stall, extra, facts = raw
        c = side >> 1
        fresh = _without(fresh, c)
        hands_l = list(hands)
        hands_l[turn] = hands[turn] + (side,)
        known_l = list(known)
        back = 1 << (side ^ 1)
        known_l[turn] |= (1 << side) | (back if self.look else 0)
        for w in self.others[turn]:
            known_l[w] |= back
        n = self.num_players
        if sum(map(len, hands_l)) < 2 * n:
            return (DEAL, (turn + 1) % n, tuple(hands_l), stack, fresh, tuple(known_l),
                    trios, agreed, stall, extra, facts)
        return (REVEAL, 0, tuple(hands_l), stack, fresh, tuple(known_l), trios, agreed,
                stall, 0, facts)

    def _reveal(self, raw: tuple, side: int) -> tuple:
        _, turn, hands, stack, fresh, known, trios, agreed, stall, extra, facts = raw
        c = side >> 1
        fresh = _without(fresh, c)
        bit = 1 << side
        known_l = [k | bit for k in known]
        if extra != 1:
            return (PLAY, turn, hands, stack + (side,), fresh, tuple(known_l), trios,
                    agreed, stall, 0, facts)
        # The second card of a two-card pile draw (JC-8): it goes to the drawer.
        back = 1 << (side ^ 1)
        for w in self.others[turn]:
            known_l[w] |= back
        hands_l = list(hands)
        return self._end_turn(turn, hands_l, list(hands[turn]) + [side], stack, fresh,
                              known_l, trios, agreed, stall, facts, True)

    def _draw(self, raw: tuple, action: int) -> tuple:
        _, turn, hands, stack, fresh, known, trios, agreed, stall, _, facts = raw
        hands_l = list(hands)
        known_l = list(known)
        mine = list(hands[turn])
        others = self.others[turn]
        if action == DRAW_PP:  # the pile's top card, then the one below it
            for first in (True, False):
                top = stack[-1]
                stack = stack[:-1]
                mine.append(top)
                bit = 1 << (top ^ 1)
                for w in others:
                    known_l[w] |= bit
                if first and not stack:  # the next card turns up (chance), then is drawn
                    hands_l[turn] = tuple(mine)
                    return (REVEAL, turn, tuple(hands_l), stack, fresh, tuple(known_l),
                            trios, agreed, stall, 1, facts)
            return self._end_turn(turn, hands_l, mine, stack, fresh, known_l, trios, agreed,
                                  stall, facts, True)
        sources = _SOURCES[action]
        bit = 0
        for src in sources:
            if src == PILE:
                top = stack[-1]
                stack = stack[:-1]
                mine.append(top)
                bit |= 1 << (top ^ 1)
            else:
                seat, slot = divmod(src, HAND_LIMIT)
                side = hands[seat][slot]
                mine.append(side ^ 1)
                bit |= 1 << side
        for w in others:
            known_l[w] |= bit
        if len(sources) == 2 and sources[1] != PILE and \
                sources[0] // HAND_LIMIT == sources[1] // HAND_LIMIT:
            seat = sources[0] // HAND_LIMIT
            gone = (sources[0] % HAND_LIMIT, sources[1] % HAND_LIMIT)
            hands_l[seat] = tuple(s for i, s in enumerate(hands[seat]) if i not in gone)
        else:
            for src in sources:
                if src != PILE:
                    seat, slot = divmod(src, HAND_LIMIT)
                    h = hands[seat]
                    hands_l[seat] = h[:slot] + h[slot + 1:]
        return self._end_turn(turn, hands_l, mine, stack, fresh, known_l, trios, agreed,
                              stall, facts, True)

    def _discard(self, raw: tuple, action: int) -> tuple:
        _, turn, hands, stack, fresh, known, trios, agreed, stall, _, facts = raw
        slots = _SLOTS[action]
        hand = hands[turn]
        sides = tuple(hand[i] for i in slots)
        bit = 0
        for s in sides:
            bit |= 1 << s
        known_l = list(known)
        for w in self.others[turn]:
            known_l[w] |= bit
        mine = [s for i, s in enumerate(hand) if i not in slots]
        return self._end_turn(turn, list(hands), mine, stack + sides, fresh, known_l, trios,
                              agreed, stall, facts, False)

    def _agree(self, raw: tuple) -> tuple:
        phase, turn, hands, stack, fresh, known, trios, agreed, stall, extra, facts = raw
        agreed |= 1 << turn
        if agreed == self.everyone:
            return (OVER, turn, hands, stack, fresh, known, trios, agreed, stall, AGREED,
                    facts)
        return (PLAY, turn, hands, stack, fresh, known, trios, agreed, stall, extra, facts)

    def _end_turn(self, turn: int, hands: list, mine: list, stack: tuple, fresh: tuple,
                  known: list, trios: tuple, agreed: int, stall: int, facts: Any,
                  drew: bool) -> tuple:
        formed = False
        if drew and len(mine) >= 3:
            syms = [SIDE_SYMBOL[s] for s in mine]
            trio = -1
            for sym in syms:
                if syms.count(sym) >= 3:
                    trio = sym
                    break
            if trio >= 0:
                laid = [i for i, sym in enumerate(syms) if sym == trio][:3]
                for j in range(laid[2]):  # a lower slot passed over shows another symbol
                    if j not in laid:
                        triple = (mine[j], mine[laid[0]], mine[laid[1]])
                        if self._news(triple, known, turn):
                            facts = self._add_fact(facts, triple, known)
                cards = (mine[laid[0]], mine[laid[1]], mine[laid[2]])
                owner = -1 if agreed >> turn & 1 and not self.joint else turn   # JC-14
                trios = trios + ((owner, trio, cards),)
                # JC-12: laid symbol side up for all to see; with open trios (option
                # trio_backs="shown") the other sides are shown too.
                mask = 0
                for s in cards:
                    mask |= (3 << (s & ~1)) if self.open_trios else (1 << s)
                for w in range(len(known)):
                    known[w] |= mask
                mine = [s for i, s in enumerate(mine) if i not in laid]
                formed = True
            else:
                for idx in _TRIPLES[len(mine)]:
                    triple = (mine[idx[0]], mine[idx[1]], mine[idx[2]])
                    if self._news(triple, known, turn):
                        facts = self._add_fact(facts, triple, known)
        hands[turn] = tuple(mine)
        if self.joint and not agreed >> turn & 1:
            agreed = 0            # JC-14: a turn without agreeing ends the proposal
        stall = 0 if formed else stall + 1
        reason = 0
        if formed:
            if 3 * len(trios) == self.deck:
                reason = EXHAUSTED
            elif self.auto_end and self._no_trio_possible(trios):
                reason = PROVEN
        if not reason and stall >= self.stall_limit:
            reason = STALLED
        if reason:
            return (OVER, turn, tuple(hands), stack, fresh, tuple(known), trios, agreed,
                    stall, reason, facts)
        nxt = turn + 1 if turn + 1 < self.num_players else 0
        phase = REVEAL if not stack and fresh else PLAY
        return (phase, nxt, tuple(hands), stack, fresh, tuple(known), trios, agreed, stall,
                0, facts)

    def _add_fact(self, facts: tuple, triple: tuple[int, int, int],
                  known: Sequence[int]) -> tuple:
        """``facts`` with ``triple`` added; now and then the facts that no seat can
        learn from any more are dropped (no view ever shows them)."""
        facts = facts + (triple,)
        if len(facts) >= 64 and not len(facts) % 32:
            facts = tuple(t for t in facts
                          if any(informative(t, k) for k in known))
        return facts

    def _news(self, triple: tuple[int, int, int], known: Sequence[int], holder: int) -> bool:
        """Whether a no-trio fact tells some seat other than the holder anything."""
        mask = (1 << triple[0]) | (1 << triple[1]) | (1 << triple[2])
        for w in self.others[holder]:
            if mask & ~known[w] and informative(triple, known[w]):
                return True
        return False

    def _no_trio_possible(self, trios: tuple) -> bool:
        """JC-15: no symbol is on three cards outside the trios."""
        n = self.variant.symbols
        left = [n] * n
        for _, _, cards in trios:
            for s in cards:
                a, b = CARDS[s >> 1]
                left[a] -= 1
                if b != a:
                    left[b] -= 1
        return max(left) < 3

    def scores(self, raw: tuple) -> tuple[float, ...]:
        """Trios each seat owns (JC-18; the most trios wins)."""
        counts = [0.0] * self.num_players
        for owner, _, _ in raw[6]:
            if owner >= 0:
                counts[owner] += 1
        return tuple(counts)

    # --- the greedy bot's closed form ---------------------------------------
    def greedy_values(self, raw: tuple, player: int) -> list[float] | None:
        """The greedy bot's one-move lookahead for every action at once, from what
        ``player`` may see only (so the bot needs no view and no drawn state).

        A draw's trio is decided by the sides that will face the drawer (all seen);
        a card turning up next changes no score, so the chance after a move does not
        count. The game ends after a move when the deck is used up, the stall limit is
        reached, everyone has agreed, or (JC-15) no symbol is left on three cards:
        with a laid card's far side unseen, that last test may depend on it; then, and
        for a two-card pile draw whose second card has not turned up, this returns
        None and the bot works from the seat's view.
        """
        if raw[0] != PLAY or raw[1] != player:
            return None
        _, _, hands, stack, _, known, trios, agreed, stall, _, _ = raw
        scores = self.scores(raw)
        now = scores[player] - max(s for p, s in enumerate(scores) if p != player)
        stalls = stall + 1 >= self.stall_limit
        quiet = self._terminal_value(scores, player) if stalls else now  # no trio made
        mine = hands[player]
        count = [0] * MAX_SYMBOLS                # the symbols facing the drawer now
        for side in mine:
            count[SIDE_SYMBOL[side]] += 1
        actions = self.actions(raw)
        agree = self._terminal_value(scores, player) if agreed | 1 << player == \
            self.everyone else now
        if not self._may_lay(raw, player, count) and DRAW_PP not in actions:
            return [quiet if action < AGREE else agree for action in actions]
        out: list[float] = []
        for action in actions:
            if action >= DISCARD1_BASE:
                out.append(quiet if action < AGREE else agree)
                continue
            sources = _SOURCES[action]
            if action == DRAW_PP:
                if len(stack) < 2:
                    return None                  # the second card is yet to turn up
                drawn = (stack[-1], stack[-2])
            else:                                # the sides the drawer saw face it now
                drawn = tuple(stack[-1] if src == PILE else
                              hands[src // HAND_LIMIT][src % HAND_LIMIT] ^ 1
                              for src in sources)
            if len(drawn) == 1:
                trio = count[SIDE_SYMBOL[drawn[0]]] >= 2
            else:
                a, b = SIDE_SYMBOL[drawn[0]], SIDE_SYMBOL[drawn[1]]
                trio = count[a] + (a == b) >= 2 or count[b] + (a == b) >= 2
            if not trio:
                out.append(quiet)
                continue
            value = self._trio_value(raw, player, mine + drawn, scores)
            if value is None:
                return None                      # it hangs on a side this seat has not seen
            out.append(value)
        return out

    def _may_lay(self, raw: tuple, player: int, count: list[int]) -> bool:
        """Whether some draw could make ``player`` a trio: a card in sight whose symbol
        they hold twice, or two of a symbol they hold once (``count``: their symbols)."""
        seen = [0] * MAX_SYMBOLS
        stack = raw[3]
        if stack:
            seen[SIDE_SYMBOL[stack[-1]]] += 1
        for seat in self.others[player]:
            for side in raw[2][seat]:
                seen[SIDE_SYMBOL[side ^ 1]] += 1
        return any(c and (c >= 2 or n >= 2) and n for c, n in zip(count, seen))

    def _trio_value(self, raw: tuple, player: int, hand: tuple[int, ...],
                    scores: tuple[float, ...]) -> float | None:
        """The greedy value of a draw that lays a trio from ``hand`` (JC-12, JC-15, JC-17),
        or None when whether it ends the game hangs on a side ``player`` has not seen."""
        trios, agreed = raw[6], raw[7]
        syms = [SIDE_SYMBOL[side] for side in hand]
        trio = next(sym for sym in syms if syms.count(sym) >= 3)
        laid = [side for side in hand if SIDE_SYMBOL[side] == trio][:3]
        after = list(scores)
        # JC-14: a trio laid after agreeing is no one's, unless agreeing is a proposal
        # (agreement="joint"), which costs its maker nothing: the trio is theirs.
        if self.joint or not agreed >> player & 1:
            after[player] += 1
        if 3 * (len(trios) + 1) == self.deck:
            ends: bool | None = True
        elif self.auto_end:
            ends = self._proven_after(trios, laid, trio, raw[5][player])
            if ends is None:
                return None
        else:
            ends = False
        if ends:
            return self._terminal_value(after, player)
        return after[player] - max(v for p, v in enumerate(after) if p != player)

    @staticmethod
    def _terminal_value(scores: Sequence[float], player: int) -> float:
        """Engine.heuristic at the end of a game with these scores (the most trios win)."""
        best = max(scores)
        won = [p for p, v in enumerate(scores) if v == best]
        return 1e6 / len(won) if player in won else -1e6

    def _proven_after(self, trios: tuple, laid: Sequence[int], trio: int,
                      seen: int) -> bool | None:
        """JC-15 after laying ``laid`` (showing ``trio``) as far as a seat that has seen
        the sides ``seen`` can tell: True or False, or None if an unseen side decides."""
        n = self.variant.symbols
        left = [n] * n
        for _, _, cards in trios:
            for side in cards:
                a, b = CARDS[side >> 1]
                left[a] -= 1
                if b != a:
                    left[b] -= 1
        unseen = 0
        for side in laid:
            left[trio] -= 1
            if seen >> (side ^ 1) & 1:
                back = SIDE_SYMBOL[side ^ 1]
                if back != trio:
                    left[back] -= 1
            else:
                unseen += 1
        if max(left) < 3:
            return True                          # even if no unseen side is of a symbol
        if max(v - (unseen if sym != trio else 0) for sym, v in enumerate(left)) >= 3:
            return False                         # a symbol stays on three cards anyway
        return None

    # --- hidden information ----------------------------------------------
    def view(self, state: State, player: int | str | None) -> CardsView:
        return build_view(self.variant, state.raw, player, engine=self)

    def view_raw(self, raw: tuple, player: int | str | None) -> CardsView:
        """The view of a raw state (what :meth:`State.view` returns)."""
        return build_view(self.variant, raw, player, engine=self)

    def view_to_data(self, view: CardsView) -> dict[str, Any]:
        return view_to_data(view)

    def view_from_data(self, data: Any, viewer: int | str) -> CardsView:
        return view_from_data(data, self.variant, viewer, engine=self)

    def check_seat_step(self, before: Any, observed: str, after: Any) -> None:
        """See :mod:`.record_check` (JC-4 … JC-17 as one seat sees them)."""
        from .record_check import check_step
        check_step(before, observed, after)

    def determinize(self, view: Any, stream: RandomStream) -> tuple:
        if not isinstance(view, CardsView) or view.variant != self.variant:
            raise ValueError("determinize needs a CardsView of this engine's variant")
        if view.viewer == TABLE:
            raise ValueError("determinize needs a seat's view (or the teacher's), not the "
                             "table's: each seat knows sides the table does not")
        return determinize(view, stream)

    def observed(self, raw: tuple, action: int, player: int | str | None) -> str:
        """The notation, with chance outcomes masked to what ``player`` sees, then
        where the cards moved went and the symbol each shows ``player`` there
        (``TABLE``: only the sides every seat has seen)."""
        after = self.apply(raw, action)
        mine = knowledge(after[5], player)

        def sym(side: int) -> str:
            return SYMBOL_CODES[SIDE_SYMBOL[side]] if mine >> side & 1 else "?"

        if self.is_chance_action(action):
            side = action - CHANCE_BASE
            return f"={sym(side)}/{sym(side ^ 1)}"
        text = action_notation(action)
        turn, hands, stack = raw[1], raw[2], raw[3]
        moved: list[int] = []
        if action == DRAW_PP:
            moved = [s >> 1 for s in stack[-2:]][::-1]
        elif action < DISCARD1_BASE:
            for src in _SOURCES[action]:
                if src == PILE:
                    moved.append(stack[-1] >> 1)
                else:
                    seat, slot = divmod(src, HAND_LIMIT)
                    moved.append(hands[seat][slot] >> 1)
        elif action < AGREE:
            moved = [hands[turn][i] >> 1 for i in _SLOTS[action]]
        facts = []
        for c in moved:
            ref, side, faces_front = _locate(after, c, player)
            if ref is None:
                continue
            shown = side if faces_front else side ^ 1
            if player is None:
                facts.append(f"{ref}: {SYMBOL_NAMES[SIDE_SYMBOL[side]]}|"
                             f"{SYMBOL_NAMES[SIDE_SYMBOL[side ^ 1]]}")
            elif mine >> shown & 1:
                facts.append(f"{ref}: {SYMBOL_NAMES[SIDE_SYMBOL[shown]]}")
        if facts:
            text += " (" + ", ".join(facts) + ")"
        if len(after[6]) > len(raw[6]):
            owner, trio_sym, _ = after[6][-1]
            who = "nobody" if owner < 0 else seat_name(owner)
            symbols = plural(SYMBOL_NAMES[trio_sym])
            text += f"; {seat_name(turn)} lays a trio of {symbols} for {who}"
        if after[0] == OVER:
            text += f"; game over ({END_REASONS[after[9]]})"
        return text

    # --- people's path ---------------------------------------------------
    def notation(self, raw: Any, action: int) -> str:
        return action_notation(action)

    def parse(self, raw: tuple, text: str) -> int:
        t = text.strip().lower().replace(" ", "")

        def bad(why: str) -> InvalidMoveError:
            return InvalidMoveError(f"{text!r} is not a Janus card game move: {why}. "
                                    f"{self.notation_help}", text=text, rule="JC-7")

        if non_ascii(text):
            raise bad(non_ascii(text))
        if t in ("agree", "end"):
            return AGREE
        if t.startswith("="):
            left, slash, right = t[1:].partition("/")
            if not slash:
                raise bad("a chance outcome names both sides, e.g. =s/m")
            try:
                a, b = symbol_index(left), symbol_index(right)
            except ValueError as exc:
                raise bad(str(exc)) from None
            c = CARD_INDEX[(min(a, b), max(a, b))]
            return CHANCE_BASE + 2 * c + (0 if a <= b else 1)
        if t.startswith("d"):
            parts = t[1:].split("+")
            if not 1 <= len(parts) <= 2 or not all(parts):
                raise bad("draw one or two cards: dB1, dP, dB1+C2, dB1+P")
            sources: list[tuple[int, int] | None] = []
            for part in parts:
                if part == "p":
                    sources.append(None)
                    continue
                if len(part) != 2 or part[1] not in "0123456789":
                    raise bad(f"{part!r} is not a card: write a seat letter and a card "
                              "number (B1) or P for the pile")
                try:
                    seat = seat_index(part[0], self.num_players)
                except ValueError as exc:
                    raise bad(str(exc)) from None
                slot = int(part[1])
                if not 1 <= slot <= HAND_LIMIT:
                    raise bad(f"card numbers run from 1 to {HAND_LIMIT}, not {slot}")
                sources.append((seat, slot - 1))
            if len(sources) == 1:
                return draw_action(sources[0])
            if sources[0] == sources[1] and sources[0] is not None:
                raise bad("the same card cannot be drawn twice")
            return draw_action(sources[0], sources[1])
        if t.startswith("x"):
            digits = t[1:].replace("+", "").replace("x", "").replace(",", "")
            if not digits or not (digits.isascii() and digits.isdigit()) or len(digits) > 2:
                raise bad("discard one or two cards: x2, x13")
            slots = [int(d) for d in digits]
            if any(not 1 <= s <= HAND_LIMIT for s in slots):
                raise bad(f"card numbers run from 1 to {HAND_LIMIT}")
            if len(slots) == 2 and slots[0] == slots[1]:
                raise bad("the same card cannot be discarded twice")
            return discard_action(slots[0] - 1, slots[1] - 1 if len(slots) == 2 else None)
        raise bad("unknown notation")

    def describe(self, raw: tuple, action: int) -> str:
        if self.is_chance_action(action):
            side = action - CHANCE_BASE
            front = SYMBOL_NAMES[SIDE_SYMBOL[side]]
            if raw[0] == DEAL:
                who = seat_name(raw[1])
                return f"Deal a {card_text(side)} card to {who}, {front} towards {who}."
            return f"Turn up a {card_text(side)} card from the pile, {front} face up."
        stack = raw[3]
        return describe_decision(action, SYMBOL_NAMES[SIDE_SYMBOL[stack[-1]]] if stack
                                 else None)

    def explain(self, raw: tuple, action: int) -> Explanation:
        phase, turn, hands, stack, fresh, known, trios, agreed, stall, extra, _ = raw
        text = action_notation(action)
        legal = action in self.actions(raw)

        def yes(rule: str, reason: str) -> Explanation:
            return Explanation(text, True, rule, reason)

        def no(rule: str, reason: str) -> Explanation:
            return Explanation(text, False, rule, reason)

        if phase == OVER:
            return no("JC-20", "the game is over.")
        if self.is_chance_action(action):
            if phase == PLAY:
                return no("JC-19", f"it is {seat_name(turn)}'s turn; cards are dealt or "
                                   "turned up only at chance points.")
            side = action - CHANCE_BASE
            c = side >> 1
            where = "dealt" if phase == DEAL else "turned up"
            if legal:
                return yes("JC-4", f"a {card_text(side)} card can be {where}: it is among "
                                   "the unturned cards.")
            if c >= self.deck:
                return no("JC-1", f"this deck of {self.variant.symbols} symbols has no "
                                  f"{card_text(side)} card.")
            if c in fresh:
                return no("JC-4", f"a double shows the same symbol both ways round: name "
                                  f"it {action_notation(CHANCE_BASE + 2 * c)}.")
            return no("JC-4", f"the {card_text(side)} card is not among the unturned cards "
                              "that can be " + where + ".")
        if phase != PLAY:
            return no("JC-4", "chance acts now: a card is "
                              + ("dealt." if phase == DEAL else "turned up on the pile."))
        n = self.num_players
        mine = len(hands[turn])
        if action == AGREE:
            if legal:
                if self.joint:
                    return yes("JC-14", "you may agree that no more trios can be formed; the "
                                        "game ends when every player agrees in turn, and a "
                                        "turn without agreeing ends the proposal "
                                        "(agreement='joint').")
                return yes("JC-14", "you may agree that no more trios can be formed; the "
                                    "game ends when every player has agreed.")
            return no("JC-14", "you have already agreed to end the game.")
        slots = action_slots(action)
        if slots:
            if legal:
                return yes("JC-11", "you may discard one or two of your cards onto the "
                                    "pile.")
            if mine == 0:
                return no("JC-10", "you hold no cards, so you must draw.")
            word = "card" if mine == 1 else "cards"
            return no("JC-11", f"you hold only {mine} {word}; there is no card "
                               f"{max(slots) + 1}.")
        sources = action_sources(action)
        if mine >= HAND_LIMIT:
            return no("JC-10", "you hold four cards: you may not draw; discard one or two.")
        if len(sources) == 2 and mine > HAND_LIMIT - 2:
            return no("JC-10", f"you hold {mine} cards and may hold at most four: draw "
                               "only one.")
        pile = len(stack) + len(fresh)
        if action == DRAW_PP:
            if not self.two_pile:
                return no("JC-8", "two cards may not both be drawn from the pile (variant "
                                  "two_from_pile=False): draw one from the pile and one "
                                  "from a player.")
            if pile < 2:
                return no("JC-8", f"the pile holds only {pile} card{'s' * (pile != 1)}.")
            return yes("JC-8", "you may draw the pile's two top cards (variant "
                               "two_from_pile=True).")
        for src in sources:
            if src == PILE:
                if not pile:
                    return no("JC-8", "the pile is empty.")
                continue
            seat, slot = divmod(src, HAND_LIMIT)
            if seat >= n:
                return no("JC-2", f"there is no seat {seat_name(seat)} in a {n}-player game.")
            if seat == turn:
                return no("JC-8", "you draw from other players or the pile, not from your "
                                  "own hand.")
            held = len(hands[seat])
            if slot >= held:
                if held == 0:
                    return no("JC-8", f"player {seat_name(seat)} holds no cards.")
                return no("JC-8", f"player {seat_name(seat)} holds only {held} "
                                  f"card{'s' * (held != 1)}.")
        if len(sources) == 2 and sources[1] != PILE and \
                sources[0] // HAND_LIMIT == sources[1] // HAND_LIMIT and not self.two_one:
            return no("JC-8", "two cards must come from two different players, or one from "
                              "a player and one from the pile (variant "
                              "two_from_one_player=False).")
        if legal:
            return yes("JC-8", "you may draw that: the side you see goes into your hand "
                               "facing you.")
        return no("JC-8", "that draw is not allowed here.")  # pragma: no cover

    def outcome(self, raw: tuple) -> str:
        """The winners with their trios, and why the game ended (JC-14 … JC-18)."""
        if raw[0] != OVER:
            return ""
        won = self.winners(raw)
        best = int(self.scores(raw)[won[0]]) if won else 0
        why = end_text(END_REASONS[raw[9]], self.variant.stall_rounds)
        if best == 0:
            return f"nobody laid a trio, so all share the win: {why}"
        return f"{winners_text(won)} with {best} trio{'s' if best != 1 else ''}: {why}"

    def log_entry(self, raw: tuple, action: int, player: int | str | None) -> str:
        """A card dealt or turned up says so (its sides masked to what ``player`` saw);
        a decision is what ``player`` saw of it (:meth:`observed`)."""
        seen = self.observed(raw, action, player)
        if not self.is_chance_action(action):
            return seen
        dealing = raw[0] == DEAL
        return chance_words(dealing, seat_name(raw[1]) if dealing else "", seen)

    def told_words(self, view: Any, observed: str) -> str:
        """:meth:`log_entry`'s words from the seat's view before the move (a seat's
        record): a card dealt or turned up says so."""
        if not observed.startswith("="):
            return observed
        dealing = view.phase == "deal"
        return chance_words(dealing, seat_name(view.turn) if dealing else "", observed)

    def told_sentence(self, view: Any, observed: str) -> str:
        """Who did what, where the cards went and what the seat sees on them there,
        from the seat's view before the move and what it was told (see :mod:`.told`):
        "C drew A's card 1, now C's card 4 (wave on its back)."."""
        return told_sentence(view, observed)

    def text(self, raw: tuple) -> str:
        head = (f"Janus (1993) card game, {self.num_players} players, "
                f"{self.variant.symbols} symbols ({self.variant.describe()})")
        return head + "\n" + str(build_view(self.variant, raw, None))

    def position_key(self, raw: tuple) -> tuple:
        return raw[:10]

    def check_invariants(self, raw: tuple) -> None:
        phase, turn, hands, stack, fresh, known, trios, agreed, stall, extra, facts = raw
        n = self.num_players
        assert phase in (DEAL, REVEAL, PLAY, OVER), f"bad phase {phase!r}"
        assert 0 <= turn < n, f"bad turn {turn!r}"
        assert len(hands) == n and len(known) == n, "one hand and one memory per seat"
        cards = [s >> 1 for h in hands for s in h] + [s >> 1 for s in stack] + list(fresh)
        for owner, sym, laid in trios:
            assert -1 <= owner < n, f"bad trio owner {owner}"
            assert len(laid) == 3 and all(SIDE_SYMBOL[s] == sym for s in laid), (
                f"JC-12: a trio shows its symbol on all three cards: {trios}")
            cards += [s >> 1 for s in laid]
        assert sorted(cards) == list(range(self.deck)), (
            f"JC-1: every one of the {self.deck} cards must be somewhere exactly once")
        assert list(fresh) == sorted(fresh), "unturned cards are kept sorted"
        # Halfway through a two-card pile draw (JC-8: the second card turns up first) the
        # drawer may hold three alike fronts: the trio is laid when the draw is complete.
        drawing = turn if phase == REVEAL and extra == 1 else -1
        for p, hand in enumerate(hands):
            assert len(hand) <= HAND_LIMIT, f"JC-10: {seat_name(p)} holds {len(hand)} cards"
            syms = [SIDE_SYMBOL[s] for s in hand]
            assert p == drawing or all(syms.count(x) < 3 for x in syms), (
                f"JC-12: {seat_name(p)} holds an unlaid trio")
            for s in hand:
                assert known[p] >> s & 1, "JC-13: a holder sees the side facing them"
                for w in self.others[p]:
                    assert known[w] >> (s ^ 1) & 1, "JC-13: others see the far side"
        for s in stack:
            assert all(k >> s & 1 for k in known), "JC-13: everyone saw the pile's up sides"
        for owner, _, laid in trios:
            for s in laid:
                assert all(k >> s & 1 for k in known), (
                    "JC-12: everyone sees a laid trio's symbol side")
                if self.open_trios:
                    assert all(k >> (s ^ 1) & 1 for k in known), (
                        "JC-12: open trios (trio_backs='shown') show both sides to all")
        for c in fresh:
            assert all(not (k >> (2 * c)) & 3 for k in known), (
                "JC-6: nobody has seen an unturned card")
        assert all(0 <= k < 1 << (2 * self.deck) for k in known)
        assert 0 <= agreed <= self.everyone
        for triple in facts:
            syms = {SIDE_SYMBOL[s] for s in triple}
            assert len(syms) > 1, "JC-13: a no-trio fact must be true"
        if phase == DEAL:
            dealt = sum(map(len, hands))
            assert dealt < 2 * n and not stack and turn == dealt % n
            assert all(len(h) == dealt // n + (p < dealt % n) for p, h in enumerate(hands))
        elif phase == REVEAL:
            assert not stack and fresh, "JC-6: a card turns up only on an empty stack"
            assert extra in (0, 1)
        elif phase == PLAY:
            assert stack or not fresh, "JC-6: the pile's top is always turned up"
            assert agreed != self.everyone
            assert stall < self.stall_limit, "JC-16: the stall limit ends the game"
        else:
            assert extra in END_REASONS, f"bad end reason {extra!r}"


def _locate(raw: tuple, card: int, viewer: int | str | None) -> tuple[str | None, int, bool]:
    """Where ``card`` lies in ``raw``: its ref, stored side, and whether its front
    faces ``viewer``."""
    letters = "ABCDEF"
    for p, hand in enumerate(raw[2]):
        for i, s in enumerate(hand):
            if s >> 1 == card:
                return f"{letters[p]}{i + 1}", s, viewer is None or viewer == p
    stack = raw[3]
    for i, s in enumerate(reversed(stack)):
        if s >> 1 == card:
            return f"P{i + 1}", s, True
    for t, (_, _, laid) in enumerate(raw[6]):
        for j, s in enumerate(laid):
            if s >> 1 == card:
                return f"T{t + 1}{'abc'[j]}", s, True
    return None, 0, True


class CardsState(State):
    """A Janus card game position, with readable properties.

    These properties show everything (the teacher's knowledge). What a player
    may see comes only from :meth:`view`.
    """

    __slots__ = ()

    @property
    def phase(self) -> str:
        """'deal', 'reveal' (a card turns up), 'play' or 'over'."""
        return PHASE_NAMES[self.raw[0]]

    @property
    def turn(self) -> int:
        """The seat whose turn it is (during the deal: the seat dealt to next)."""
        return self.raw[1]

    @property
    def hands(self) -> tuple[tuple[tuple[str, str], ...], ...]:
        """Every hand, in slot order, as (side facing the holder, other side)."""
        return tuple(tuple((SYMBOL_NAMES[SIDE_SYMBOL[s]], SYMBOL_NAMES[SIDE_SYMBOL[s ^ 1]])
                           for s in hand) for hand in self.raw[2])

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Cards each seat holds."""
        return tuple(len(h) for h in self.raw[2])

    @property
    def pile(self) -> tuple[tuple[str, str], ...]:
        """The turned-up pile, top first, as (face-up side, face-down side)."""
        return tuple((SYMBOL_NAMES[SIDE_SYMBOL[s]], SYMBOL_NAMES[SIDE_SYMBOL[s ^ 1]])
                     for s in reversed(self.raw[3]))

    @property
    def unturned(self) -> tuple[tuple[str, str], ...]:
        """The cards below the turned-up pile that nobody has seen (in no order:
        chance picks the next one when it turns up, JC-6)."""
        return tuple((SYMBOL_NAMES[CARDS[c][0]], SYMBOL_NAMES[CARDS[c][1]])
                     for c in self.raw[4])

    @property
    def pile_size(self) -> int:
        """Cards in the pile, turned up or not."""
        return len(self.raw[3]) + len(self.raw[4])

    @property
    def trios(self) -> tuple[tuple[int | None, str], ...]:
        """The laid trios in order, as (owner or None, symbol)."""
        return tuple((None if owner < 0 else owner, SYMBOL_NAMES[sym])
                     for owner, sym, _ in self.raw[6])

    @property
    def trio_counts(self) -> tuple[int, ...]:
        """Trios each seat owns (the score, JC-18)."""
        return tuple(int(s) for s in self.scores())

    @property
    def agreed(self) -> tuple[int, ...]:
        """Seats that have agreed to end the game (JC-14)."""
        return tuple(p for p in range(self.num_players) if self.raw[7] >> p & 1)

    @property
    def stall(self) -> int:
        """Turns played since the last trio (JC-16)."""
        return self.raw[8]

    @property
    def end_reason(self) -> str | None:
        """Why the game ended: 'agreed', 'proven', 'stalled' or 'exhausted'."""
        return END_REASONS[self.raw[9]] if self.raw[0] == OVER else None

    def view(self, player: int | None) -> CardsView:
        """What ``player`` may see (``None``: the teacher's view of everything)."""
        return super().view(player)  # type: ignore[no-any-return]


def _card(text: str) -> tuple[int, int]:
    front, slash, back = text.partition("/")
    if not slash:
        raise ValueError(f"{text!r}: write a card as front/back, e.g. 'sun/moon' or 's/m'")
    return symbol_index(front), symbol_index(back)


def position(variant: JanusCardsVariant | None = None, *,
             hands: Sequence[Sequence[str]], pile: Sequence[str] = (),
             trios: Sequence[tuple[str | None, Sequence[str]]] = (), to_move: int = 0,
             agreed: Sequence[int] = (), stall: int = 0,
             remembered: dict[int, Sequence[str]] | None = None,
             seed: int = 0) -> CardsState:
    """Build a Janus card game position (for lessons and tests); checked for consistency.

    ``hands``: one list per seat of cards written ``"front/back"`` (the side
    facing the holder first; names or letters: ``"sun/moon"``, ``"s/m"``).
    ``pile``: the turned-up pile, top first, face-up side first. ``trios``:
    ``(owner letter or None, [three cards, trio symbol first])``: every seat sees
    the symbol sides and, but for the owner, the far sides too (they faced the others
    while held; with ``trio_backs="shown"`` everyone sees both). The rest of the
    deck is the unturned pile. Every seat knows what it sees now (JC-13);
    ``remembered`` adds cards whose both sides a seat knows, by ref:
    ``{0: ["B1"]}``. ``variant`` defaults to the rulebook's with as many players
    as ``hands``.

    >>> s = position(hands=[["s/m"], ["h/s", "k/k"]], pile=["c/t"])
    >>> s.view(0).shown("B1"), s.view(1).shown("B1"), s.view(0).card("A1").back
    ('sun', 'heart', None)
    """
    if variant is None:
        variant = JanusCardsVariant(players=len(hands))
    eng = GAME.engine(variant)
    n = variant.players
    if len(hands) != n:
        raise ValueError(f"hands: give one list per seat ({n} seats)")
    used: set[int] = set()

    def side_of(text: str) -> int:
        a, b = _card(text)
        if max(a, b) >= variant.symbols:
            raise ValueError(f"{text!r}: this deck has only the symbols "
                             + ", ".join(SYMBOL_NAMES[:variant.symbols]))
        c = CARD_INDEX[(min(a, b), max(a, b))]
        if c in used:
            raise ValueError(f"{text!r}: the deck has only one {card_text(2 * c)} card")
        used.add(c)
        return 2 * c + (0 if a <= b else 1)

    raw_hands = tuple(tuple(side_of(t) for t in hand) for hand in hands)
    stack = tuple(reversed([side_of(t) for t in pile]))
    raw_trios = []
    for owner, cards in trios:
        sides = tuple(side_of(t) for t in cards)
        who = -1 if owner is None else seat_index(owner, n)
        raw_trios.append((who, SIDE_SYMBOL[sides[0]], sides))
    fresh = tuple(c for c in range(deck_size(variant.symbols)) if c not in used)
    known = [0] * n
    for p, hand in enumerate(raw_hands):
        for s in hand:
            known[p] |= 1 << s
            for w in range(n):
                if w != p:
                    known[w] |= 1 << (s ^ 1)
    for w in range(n):
        for s in stack:
            known[w] |= 1 << s
        for owner, _, sides in raw_trios:
            for s in sides:
                # The symbol side faces up; its far side was seen by the others while
                # the card was held (all of it when trios lie open).
                seen_far = variant.trio_backs == "shown" or w != owner
                known[w] |= (3 << (s & ~1)) if seen_far else (1 << s)
    agreed_mask = 0
    for p in agreed:
        agreed_mask |= 1 << p
    phase = PLAY if stack or not fresh else REVEAL
    raw = (phase, to_move, raw_hands, stack, fresh, tuple(known), tuple(raw_trios),
           agreed_mask, stall, 0, ())
    for p, refs in (remembered or {}).items():
        view = eng.view_raw(raw, None)
        for ref in refs:
            card = view.card(ref)
            for w_side in _sides_at(raw, card.ref):
                known[p] |= 1 << w_side
        raw = raw[:5] + (tuple(known),) + raw[6:]
    return GAME.from_raw(raw, variant, seed=seed)  # type: ignore[return-value]


def _sides_at(raw: tuple, ref: str) -> tuple[int, int]:
    letter, rest = ref[0], ref[1:]
    if letter == "P":
        s = raw[3][-int(rest)]
    elif letter == "T":
        s = raw[6][int(rest[:-1]) - 1][2]["abc".index(rest[-1])]
    else:
        s = raw[2]["ABCDEF".index(letter)][int(rest) - 1]
    return s, s ^ 1


def _sample_variants() -> list[JanusCardsVariant]:
    return [JanusCardsVariant(), JanusCardsVariant(players=3), JanusCardsVariant(players=6),
            JanusCardsVariant(players=5, deal_peek="none"),
            JanusCardsVariant(players=2, symbols=3),
            JanusCardsVariant(players=4, symbols=4, stall_rounds=3),
            JanusCardsVariant(players=3, symbols=5, two_from_pile=True,
                              two_from_one_player=True),
            JanusCardsVariant(players=4, symbols=6, auto_end=False, stall_rounds=2),
            JanusCardsVariant(players=4, symbols=5, trio_backs="shown"),
            JanusCardsVariant(players=3, symbols=5, agreement="joint")]


#: The named rulesets (JC-14; see "Rulesets" in seeds/janus-cards.md).
RULESETS = (
    Ruleset("rulebook", {},
            source="the Janus (1993) rulebook (Lothar Hannappel, Amigo), as "
                   "seeds/janus-cards.md reads it",
            note="Agreeing to end binds: a player who has agreed owns no trio laid later."),
    Ruleset("joint agreement", {"agreement": "joint"},
            source="the same rulebook's end, read as one decision of the whole table",
            note="Agreeing is a proposal that costs nothing; the game ends when every player "
                 "agrees in turn."),
)


GAME: Game[JanusCardsVariant] = Game(
    name="janus-cards", title="Janus (1993) card game", rule_prefix="JC",
    variant_cls=JanusCardsVariant, engine_cls=CardsEngine, state_cls=CardsState,
    draw_module="janus_widgets.games.janus_cards.draw",
    summary="Double-sided cards: you see the side of other players' cards that they "
            "cannot; draw them to collect trios of one symbol. Most trios wins.",
    sample_variants=_sample_variants, rulesets=RULESETS,
    playing_time=(20, 20))                      # the box: about 20 minutes (shared/FACTS.md)

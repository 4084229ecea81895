"""Jactus: five shared dice, Venus cards, dog cards and Roman coins (rules ``JA-*``).

The rules are in ``seeds/jactus.md``; every rule ID cited here is defined there.

>>> from janus_widgets import games
>>> jactus = games.get("jactus")
>>> state = jactus.new(seed=11)
>>> [str(m) for m in state.legal_moves()]
['r*']
>>> state = state.play("r*").play("=33335")
>>> state.dice
(3, 3, 3, 3, 5)
>>> "r5" in state.legal_moves()            # B may pick up just the 5 ...
True
>>> state.play("r5").chance_outcomes()[2]   # ... and has 1 chance in 6 of five 3s
(Move('=3'), Fraction(1, 6))
>>> state.play("r4")
Traceback (most recent call last):
...
janus_widgets.core.errors.IllegalMoveError: Illegal Jactus move 'r4': JA-6: you can only pick up dice that lie on the table (3 3 3 3 5); there is no 4 there. Legal now: r3, r5, r33, r35, r333, r335, r3333, r3335, r33335.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement, product
from math import factorial
from typing import Any, NamedTuple

from ...core.errors import InvalidMoveError, VariantError
from ...core.protocol import (CHANCE, TERMINAL, Engine, Explanation, Game, State, seat_index,
                              seat_name, winners_text, non_ascii)
from ...core.rng import RandomStream
from ...core.variant import Ruleset, Variant, option

__all__ = ["GAME", "RULESETS", "JactusVariant", "JactusEngine", "JactusState", "Holding",
           "MULTISETS", "ROLL_ALL", "PASS", "VENUS", "DOG", "COIN"]

# --- the action numbering (documented in seeds/jactus.md) -------------------
#: Every multiset of 1–5 dice values, by size and then in increasing order.
MULTISETS: tuple[tuple[int, ...], ...] = tuple(
    m for k in range(1, 6) for m in combinations_with_replacement(range(1, 7), k))
MS_INDEX: dict[tuple[int, ...], int] = {m: i for i, m in enumerate(MULTISETS)}
N_MS = len(MULTISETS)                  # 461
ROLL_ALL = N_MS                        # 461: r*
CHANCE_BASE = N_MS + 1                 # 462 … 922: =values
CLAIM_BASE = CHANCE_BASE + N_MS        # 923 + 7*kind + source
PASS = CLAIM_BASE + 3 * 7              # 944
NUM_ACTIONS = PASS + 1

VENUS, DOG, COIN = 0, 1, 2
KIND_NAMES = ("venus", "dog", "coin")
KIND_TITLES = ("Venus card", "dog card", "coin")
KIND_PLURALS = ("Venus cards", "dog cards", "coins")
POINTS = (6, 2, 5)
GOAL = (1, 2, 1)

OPEN, THROW, PICK, CLAIM, OVER = range(5)
PHASE_NAMES = ("open", "throw", "pick", "claim", "over")

SUPPLY_TABLE = {2: (1, 2, 1), 3: (2, 4, 2), 4: (3, 6, 3), 5: (3, 6, 4), 6: (3, 6, 4)}
FULL_SUPPLY = (3, 6, 4)


def _sub_multisets(dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    counts = Counter(dice)
    faces = sorted(counts)
    out = []
    for pick in product(*(range(counts[f] + 1) for f in faces)):
        ms = tuple(f for f, c in zip(faces, pick) for _ in range(c))
        if ms:
            out.append(ms)
    return out


def _minus(dice: tuple[int, ...], ms: tuple[int, ...]) -> tuple[int, ...]:
    rest = list(dice)
    for v in ms:
        rest.remove(v)
    return tuple(rest)


FIVE_DICE = tuple(m for m in MULTISETS if len(m) == 5)
#: Legal pick-ups (action numbers, in order) for each sorted five-dice position.
PICKS: dict[tuple[int, ...], tuple[int, ...]] = {
    d: tuple(sorted(MS_INDEX[m] for m in _sub_multisets(d))) for d in FIVE_DICE}
#: The dice left on the table after a pick-up.
PICK_KEEP: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {
    d: {a: _minus(d, MULTISETS[a]) for a in PICKS[d]} for d in FIVE_DICE}
#: The pick-ups that leave dice all of one face (or none), so the throw can score: the
#: only ones allowed with ``spoil=False`` (JA-19).
SCORING_PICKS: dict[tuple[int, ...], tuple[int, ...]] = {
    d: tuple(a for a in PICKS[d] if len(set(PICK_KEEP[d][a])) <= 1) for d in FIVE_DICE}
#: Chance outcome numbers for a throw of k dice, in order.
OUTCOMES: dict[int, tuple[int, ...]] = {
    k: tuple(CHANCE_BASE + i for i, m in enumerate(MULTISETS) if len(m) == k)
    for k in range(1, 6)}


def _multinomial(ms: tuple[int, ...]) -> int:
    out = factorial(len(ms))
    for c in Counter(ms).values():
        out //= factorial(c)
    return out


#: Exact probabilities of the outcomes of a throw of k dice.
OUTCOME_ODDS: dict[int, tuple[tuple[int, Fraction], ...]] = {
    k: tuple((a, Fraction(_multinomial(MULTISETS[a - CHANCE_BASE]), 6 ** k))
             for a in OUTCOMES[k]) for k in range(1, 6)}
#: For k dice, outcome number for each of the 6**k equally likely ordered throws.
THROW_TABLE: dict[int, tuple[int, ...]] = {
    k: tuple(CHANCE_BASE + MS_INDEX[tuple(sorted(v + 1 for v in digits))]
             for digits in product(range(6), repeat=k)) for k in range(1, 6)}
THROW_SIZE = {k: 6 ** k for k in range(1, 6)}
#: Sorted dice after kept dice and a thrown multiset come together.
MERGE: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
for _kept in [()] + [m for m in MULTISETS if len(m) <= 4]:
    for _a in OUTCOMES[5 - len(_kept)]:
        MERGE[(_kept, _a)] = tuple(sorted(_kept + MULTISETS[_a - CHANCE_BASE]))


@lru_cache(maxsize=4096)
def _scores(holds: tuple[tuple[int, int, int], ...], points: bool) -> tuple[float, ...]:
    """Each seat's score (JA-15, JA-16): points held, or pieces towards the collection."""
    if points:
        return tuple(float(6 * v + 2 * d + 5 * c) for v, d, c in holds)
    return tuple(float(min(v, 1) + min(d, 2) + min(c, 1)) for v, d, c in holds)


def _five_chance(kept: tuple[int, ...]) -> float:
    """The chance that throwing the other dice makes five of a kind with ``kept``.

    >>> _five_chance(()), _five_chance((4, 4, 4)), _five_chance((2, 4))
    (0.0007716049382716049, 0.027777777777777776, 0.0)
    """
    if not kept:
        return 6.0 / 6 ** 5
    if kept[0] == kept[-1]:
        return 1.0 / 6 ** (5 - len(kept))
    return 0.0


@lru_cache(maxsize=None)
def _five_chances(dice: tuple[int, ...], spoil: bool = True) -> tuple[float, ...]:
    """:func:`_five_chance` of each legal pick-up, in order: ``PICKS[dice]``, or with
    ``spoil=False`` only ``SCORING_PICKS[dice]`` (JA-19).

    >>> len(_five_chances((1, 2, 3, 4, 5))), len(_five_chances((1, 2, 3, 4, 5), False))
    (31, 6)
    """
    picks = PICKS if spoil else SCORING_PICKS
    return tuple(_five_chance(PICK_KEEP[dice][action]) for action in picks[dice])


def claim_action(kind: int, source: int | None = None) -> int:
    """The action number of a claim: from the supply, or from seat ``source``.

    >>> claim_action(DOG), claim_action(VENUS, 1)
    (930, 925)
    """
    return CLAIM_BASE + 7 * kind + (0 if source is None else source + 1)


def _dice_phrase(ms: tuple[int, ...]) -> str:
    if len(ms) == 5 and len(set(ms)) > 1:
        return "all five dice"
    words = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five"}
    parts = []
    for face, count in sorted(Counter(ms).items()):
        parts.append(f"{words[count]} {face}" + ("s" if count > 1 else ""))
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _dice_text(dice: tuple[int, ...]) -> str:
    return " ".join(map(str, dice)) if dice else "no dice"


@dataclass(frozen=True)
class JactusVariant(Variant):
    """Jactus rule options (see ``seeds/jactus.md``)."""

    game_title = "Jactus"

    players: int = option(2, doc="Number of players, seats A, B, … in turn order.",
                          choices=(2, 3, 4, 5, 6), rule="JA-2", setup=True)
    supply: str = option("by-players", choices=("by-players", "full"), rule="JA-3",
                         labels={"by-players": "by players (rulebook)",
                                 "full": "all pieces"},
                         doc="Pieces in play: the rulebook's table by player count, or "
                             "all 3 Venus cards, 6 dog cards and 4 coins.")
    dog_throws: str = option("any", choices=("any", "other"), rule="JA-8",
                             labels={"any": "any five of a kind",
                                     "other": "five 2s to 5s only"},
                             doc="'any': every five of a kind allows a dog (the rulebook "
                                 "lists five 1s and five 6s among dog throws); 'other': "
                                 "only five 2s-5s do.")
    opening_throw_scores: bool = option(True, rule="JA-13",
                                        doc="Whether the all-dice throw that opens a round "
                                            "after a scoring throw can itself score.")
    scoring: str = option("collection", choices=("collection", "points"), rule="JA-15",
                          labels={"collection": "collect a set",
                                  "points": "points (6, 2, 5)"},
                          doc="'collection': first to hold a Venus, two dogs and a coin "
                              "wins; 'points': Venus 6, dog 2, coin 5, first to the target.")
    points_target: int = option(12, minimum=2, maximum=60, rule="JA-16",
                                doc="Points needed to win when scoring='points'.")
    # --- open readings of the rulebook (issue 15) ---
    steal: str = option(
        "kind-empty", choices=("kind-empty", "centre-empty"), rule="JA-10",
        labels={"kind-empty": "once that kind is gone",
                "centre-empty": "once the centre is empty"},
        doc="When a claim takes the piece from another player: 'kind-empty', once the "
            "centre has none of that kind; 'centre-empty', only once the centre is empty.")
    after_decline: str = option(
        "same", choices=("same", "next"), rule="JA-12",
        labels={"same": "the same player opens", "next": "the next player opens"},
        doc="Who opens the next round after a scoring throw that claims nothing (declined "
            "or impossible): the 'same' player, or the 'next' one.")
    spoil: bool = option(True, rule="JA-19",
                         doc="Whether a pick-up may leave dice of two different faces, so "
                             "that the throw cannot score ('spoiling'); False refuses it.")

    def totals(self) -> tuple[int, int, int]:
        """Venus cards, dog cards and coins in play."""
        return FULL_SUPPLY if self.supply == "full" else SUPPLY_TABLE[self.players]

    def points_in_play(self) -> int:
        """The points of every piece in play (JA-16): 15, 30, 45, 50 for 2, 3, 4, 5–6
        players, 50 with the full supply.

        >>> JactusVariant(players=3).points_in_play()
        30
        """
        return sum(n * p for n, p in zip(self.totals(), POINTS))

    def check(self) -> None:
        most = self.points_in_play()
        if self.scoring == "points" and self.points_target > most:
            supply = ("the full supply" if self.supply == "full"
                      else f"the supply for {self.players} players")
            raise VariantError(
                f"Jactus option points_target={self.points_target} is not allowed with "
                f"{supply}: its pieces are worth {most} points in all, so nobody could "
                f"reach the target (JA-16); allowed: 2 … {most}.",
                field="points_target", value=self.points_target, allowed=f"2 … {most}")


class Holding(NamedTuple):
    """Pieces held by a seat or lying in the supply."""

    venus: int
    dogs: int
    coins: int


class JactusEngine(Engine[JactusVariant]):
    """Jactus on plain tuples.

    A raw state is ``(phase, seat, dice, holds, supply, aux)``: ``dice`` is the
    sorted tuple of dice lying on the table, ``holds`` one ``(venus, dogs,
    coins)`` per seat, ``supply`` the same for the middle. ``aux`` is, by
    phase: OPEN whether a scoring throw just ended a round; THROW whether the
    throw may score; CLAIM the face thrown five times; OVER the winner.
    """

    turn_rule = "JA-17"
    chance_rule = "JA-7"
    over_rule = "JA-18"
    num_actions = NUM_ACTIONS
    notation_help = ("Jactus moves: r* (throw all five), r35 (pick up a 3 and a 5 and "
                     "throw them), =35 (chance: the dice thrown show 3 and 5), venus / "
                     "dog / coin (claim from the supply), dog@B (take a dog card from "
                     "player B), pass (claim nothing).")

    def __init__(self, variant: JactusVariant, game: Game | None = None) -> None:
        super().__init__(variant, game)
        self.totals = variant.totals()
        self.points = variant.scoring == "points"
        self.target = variant.points_target
        self.opening_scores = variant.opening_throw_scores
        self.any_dogs = variant.dog_throws == "any"
        self.steal_when_centre_empty = variant.steal == "centre-empty"
        self.decline_passes_on = variant.after_decline == "next"
        self.picks = PICKS if variant.spoil else SCORING_PICKS

    # --- lean path -------------------------------------------------------
    def initial(self) -> tuple:
        empty = (0, 0, 0)
        return (OPEN, 0, (), (empty,) * self.num_players, self.totals, False)

    def current(self, raw: tuple) -> int:
        phase = raw[0]
        if phase == THROW:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return raw[1]

    def actions(self, raw: tuple) -> tuple[int, ...]:
        phase = raw[0]
        if phase == PICK:
            return self.picks[raw[2]]
        if phase == THROW:
            return OUTCOMES[5 - len(raw[2])]
        if phase == OPEN:
            return (ROLL_ALL,)
        if phase == CLAIM:
            return self._claims(raw)
        return ()

    def _kinds(self, face: int) -> tuple[int, ...]:
        kinds = []
        if face == 6:
            kinds.append(VENUS)
        if 2 <= face <= 5 or self.any_dogs:
            kinds.append(DOG)
        if face == 1:
            kinds.append(COIN)
        return tuple(kinds)

    def _claims(self, raw: tuple) -> tuple[int, ...]:
        _, seat, _, holds, supply, face = raw
        out = []
        n = self.num_players
        may_take = not self.steal_when_centre_empty or not any(supply)   # JA-10
        for kind in self._kinds(face):
            if supply[kind] > 0:
                out.append(CLAIM_BASE + 7 * kind)
            elif may_take:
                for step in range(1, n):
                    other = (seat + step) % n
                    if holds[other][kind] > 0:
                        out.append(CLAIM_BASE + 7 * kind + other + 1)
        out.append(PASS)
        return tuple(out)

    def sample(self, raw: tuple, stream: RandomStream) -> int:
        k = 5 - len(raw[2])
        return THROW_TABLE[k][int(stream.uniform() * THROW_SIZE[k])]

    def chance_outcomes(self, raw: tuple) -> tuple[tuple[int, Fraction], ...] | None:
        if raw[0] != THROW:
            return ()
        return OUTCOME_ODDS[5 - len(raw[2])]

    def is_chance_action(self, action: int) -> bool:
        return CHANCE_BASE <= action < CLAIM_BASE

    def apply(self, raw: tuple, action: int) -> tuple:
        phase, seat, dice, holds, supply, aux = raw
        if phase == PICK:
            return (THROW, seat, PICK_KEEP[dice][action], holds, supply, True)
        if phase == THROW:
            new = MERGE[(dice, action)]
            if aux and new[0] == new[4]:
                return (CLAIM, seat, new, holds, supply, new[0])
            return (PICK, (seat + 1) % self.num_players, new, holds, supply, None)
        if phase == OPEN:
            return (THROW, seat, (), holds, supply, self.opening_scores or not aux)
        # CLAIM
        if action == PASS:                                        # JA-12
            if self.decline_passes_on:
                seat = (seat + 1) % self.num_players
            return (OPEN, seat, dice, holds, supply, True)
        rel = action - CLAIM_BASE
        kind, source = divmod(rel, 7)
        holds_l = list(holds)
        if source == 0:
            sup = list(supply)
            sup[kind] -= 1
            supply = tuple(sup)
        else:
            victim = list(holds_l[source - 1])
            victim[kind] -= 1
            holds_l[source - 1] = tuple(victim)
        mine = list(holds_l[seat])
        mine[kind] += 1
        holds_l[seat] = mine = tuple(mine)
        holds = tuple(holds_l)
        if self._has_won(mine):
            return (OVER, seat, dice, holds, supply, seat)
        return (OPEN, seat, dice, holds, supply, True)

    def _has_won(self, held: tuple[int, int, int]) -> bool:
        if self.points:
            return 6 * held[0] + 2 * held[1] + 5 * held[2] >= self.target
        return held[0] >= 1 and held[1] >= 2 and held[2] >= 1

    def winners(self, raw: tuple) -> tuple[int, ...]:
        return (raw[5],) if raw[0] == OVER else ()

    def outcome(self, raw: tuple) -> str:
        """The winner and what won it (JA-15: the collection; JA-16: the points)."""
        if raw[0] != OVER:
            return ""
        who = winners_text(self.winners(raw))
        if self.points:
            score = self.scores(raw)[raw[5]]
            return f"{who} with {score:g} points, {self.target} needed (JA-16)"
        return f"{who}: a Venus card, two dog cards and a coin collected (JA-15)"

    def log_entry(self, raw: tuple, action: int, player: int | str | None) -> str:
        """A throw reads "threw 1 2 2 4 5"; a decision is its notation."""
        if CHANCE_BASE <= action < CLAIM_BASE:
            return "threw " + _dice_text(MULTISETS[action - CHANCE_BASE])
        return self.notation(raw, action)

    def scores(self, raw: tuple) -> tuple[float, ...]:
        return _scores(raw[3], self.points)

    def heuristic(self, raw: tuple, player: int) -> float:
        """Greedy bot: score lead (see Engine.heuristic), plus about one piece's worth
        when ``player`` is about to claim (so a pick-up is worth its chance to score)."""
        value = super().heuristic(raw, player)
        if raw[0] == CLAIM and raw[1] == player:
            value += 2.0 if self.points else 0.9
        return value

    def greedy_value(self, raw: tuple, action: int, player: int) -> float | None:
        """Closed form for a throw: the heuristic now, plus the claim bonus times the
        exact chance that the throw makes five of a kind (kept dice all alike)."""
        phase = raw[0]
        if phase == PICK:
            kept = PICK_KEEP[raw[2]][action]
        elif phase == OPEN:
            if not (self.opening_scores or not raw[5]):
                return self.heuristic(raw, player)
            kept = ()
        else:
            return None
        chance = _five_chance(kept)
        bonus = 2.0 if self.points else 0.9
        return super().heuristic(raw, player) + chance * bonus

    def greedy_values(self, raw: tuple, player: int) -> list[float] | None:
        """All pick-ups at once: the heuristic now (the same for every pick-up) plus the
        claim bonus times each pick-up's chance of five of a kind (see greedy_value)."""
        if raw[0] != PICK:
            return None
        bonus = 2.0 if self.points else 0.9
        base = super().heuristic(raw, player)
        return [base + chance * bonus
                for chance in _five_chances(raw[2], self.variant.spoil)]

    # --- people's path ---------------------------------------------------
    def notation(self, raw: Any, action: int) -> str:
        if 0 <= action < N_MS:
            return "r" + "".join(map(str, MULTISETS[action]))
        if action == ROLL_ALL:
            return "r*"
        if CHANCE_BASE <= action < CLAIM_BASE:
            return "=" + "".join(map(str, MULTISETS[action - CHANCE_BASE]))
        if action == PASS:
            return "pass"
        if CLAIM_BASE <= action < PASS:
            kind, source = divmod(action - CLAIM_BASE, 7)
            return KIND_NAMES[kind] + ("" if source == 0 else "@" + seat_name(source - 1))
        raise ValueError(f"{action} is not a Jactus action number (0 … {NUM_ACTIONS - 1})")

    def parse(self, raw: tuple, text: str) -> int:
        t = text.strip().lower()

        def bad(why: str) -> InvalidMoveError:
            return InvalidMoveError(f"{text!r} is not a Jactus move: {why}. "
                                    f"{self.notation_help}", text=text, rule="JA-6")

        if non_ascii(text):
            raise bad(non_ascii(text))
        if t == "r*":
            if raw[0] == PICK:
                return MS_INDEX[raw[2]]
            return ROLL_ALL
        if t[:1] in ("r", "="):
            digits = t[1:].replace(" ", "").replace(",", "")
            if not digits:
                raise bad("no dice values are given")
            if not digits.isdigit() or any(ch not in "123456" for ch in digits):
                raise bad("dice show only the values 1 to 6")
            if len(digits) > 5:
                raise bad(f"there are only five dice, and {len(digits)} values are given")
            index = MS_INDEX[tuple(sorted(int(ch) for ch in digits))]
            return index if t[0] == "r" else CHANCE_BASE + index
        if t == "pass":
            return PASS
        name, at, who = t.partition("@")
        if name in KIND_NAMES:
            kind = KIND_NAMES.index(name)
            if not at:
                return claim_action(kind)
            try:
                return claim_action(kind, seat_index(who, self.num_players))
            except ValueError as exc:
                raise bad(str(exc)) from None
        raise bad("unknown notation")

    def describe(self, raw: Any, action: int) -> str:
        if 0 <= action < N_MS:
            ms = MULTISETS[action]
            it = "it" if len(ms) == 1 else "them"
            return f"Pick up {_dice_phrase(ms)} and throw {it}."
        if action == ROLL_ALL:
            return "Throw all five dice to open the round."
        if CHANCE_BASE <= action < CLAIM_BASE:
            ms = MULTISETS[action - CHANCE_BASE]
            if len(ms) == 1:
                return f"The thrown die shows {ms[0]}."
            return "The thrown dice show " + ", ".join(map(str, ms[:-1])) + \
                f" and {ms[-1]}."
        if action == PASS:
            return "Claim nothing; the round ends all the same."
        kind, source = divmod(action - CLAIM_BASE, 7)
        if source == 0:
            return f"Claim a {KIND_TITLES[kind]} from the supply."
        return (f"Take a {KIND_TITLES[kind]} from player {seat_name(source - 1)} "
                "(the supply has none left).")

    def explain(self, raw: tuple, action: int) -> Explanation:
        phase, seat, dice, holds, supply, aux = raw
        text = self.notation(raw, action)
        legal = action in self.actions(raw)

        def yes(rule: str, reason: str) -> Explanation:
            return Explanation(text, True, rule, reason)

        def no(rule: str, reason: str) -> Explanation:
            return Explanation(text, False, rule, reason)

        is_pick = 0 <= action < N_MS or action == ROLL_ALL
        is_claim = CLAIM_BASE <= action < PASS
        if phase == OPEN:
            if action == ROLL_ALL:
                return yes("JA-5", "a round opens with a throw of all five dice.")
            if is_pick:
                return no("JA-5", "the round opens with a throw of all five dice: play r*.")
            return no("JA-8", "there is no scoring throw to claim for; the round opens "
                              "with a throw of all five dice (r*).")
        if phase == THROW:
            k = 5 - len(dice)
            got = len(MULTISETS[action - CHANCE_BASE])
            if legal:
                return yes("JA-7", f"a possible outcome of throwing {k} "
                                   f"{'die' if k == 1 else 'dice'}.")
            return no("JA-7", f"{k} {'die is' if k == 1 else 'dice are'} thrown, but "
                              f"{text!r} names {got} {'value' if got == 1 else 'values'}.")
        if phase == PICK:
            if legal:
                kept = PICK_KEEP[dice][action]
                if not self.variant.spoil and len(set(kept)) == 1:
                    return yes("JA-19", f"{_dice_text(kept)} stay, all of one face, so "
                                        "the throw can still score.")
                return yes("JA-6", "you may pick up any dice lying on the table; "
                                   f"{_dice_text(kept) if kept else 'none'} stay.")
            if action == ROLL_ALL:
                return no("JA-6", "the round is under way: name the dice to pick up "
                                  f"(all five: r{''.join(map(str, dice))}).")
            if action in PICKS[dice]:      # the dice are there, but JA-19 refuses it
                kept = PICK_KEEP[dice][action]
                face, count = Counter(dice).most_common(1)[0]
                keep = "r" + "".join(str(v) for v in dice if v != face)
                return no("JA-19", f"no spoiling (spoil=False): the dice left, "
                                   f"{_dice_text(kept)}, show two different faces, so the "
                                   "throw could not score. Leave dice of one face only, "
                                   f"or none (e.g. {keep} keeps the {face}s).")
            if is_pick:
                missing = Counter(MULTISETS[action]) - Counter(dice)
                face = sorted(missing)[0]
                have = Counter(dice)[face]
                there = ("there is no " + str(face) + " there" if have == 0 else
                         f"there {'is' if have == 1 else 'are'} only {have} of value {face}")
                return no("JA-6", "you can only pick up dice that lie on the table "
                                  f"({_dice_text(dice)}); {there}.")
            if is_claim or action == PASS:
                return no("JA-8", "only a throw of five of a kind can claim a piece; "
                                  f"the dice show {_dice_text(dice)}.")
        if phase == CLAIM:
            if is_pick:
                return no("JA-12", "the scoring throw ended the round: claim a piece "
                                   "or pass first; then the next round opens.")
            if action == PASS:
                opener = seat_name((seat + 1) % self.num_players if self.decline_passes_on
                                   else seat)
                return yes("JA-9", f"claiming is optional; {opener} then opens the next "
                                   "round (JA-12).")
            kind, source = divmod(action - CLAIM_BASE, 7)
            allowed = self._kinds(aux)
            if kind not in allowed:
                names = " or a ".join(KIND_TITLES[k] for k in allowed)
                reading = ""
                if kind == DOG and not self.any_dogs:
                    reading = " (variant dog_throws='other': five 1s or 6s allow no dog)"
                return no("JA-8", f"five {aux}s allow a {names}, not a "
                                  f"{KIND_TITLES[kind]}{reading}.")
            if source == 0:
                if supply[kind] > 0:
                    return yes("JA-9", f"five {aux}s allow a {KIND_TITLES[kind]} and the "
                                       "supply has one.")
                holders = [seat_name(p) for p in range(self.num_players)
                           if p != seat and holds[p][kind] > 0]
                if holders and self.steal_when_centre_empty and any(supply):
                    return no("JA-10", f"the supply has no {KIND_TITLES[kind]} left; with "
                                       "steal='centre-empty' one is taken from a player "
                                       "only once the centre is empty, and it still holds "
                                       f"{_holding_text(supply)}.")
                if holders:
                    return no("JA-10", f"the supply has no {KIND_TITLES[kind]} left: take "
                                       f"one from {' or '.join(holders)} "
                                       f"({KIND_NAMES[kind]}@{holders[0]}).")
                return no("JA-10", f"no {KIND_TITLES[kind]} is left in the supply and no "
                                   "other player holds one.")
            victim = source - 1
            if victim >= self.num_players:
                return no("JA-2", f"there is no seat {seat_name(victim)} in a "
                                  f"{self.num_players}-player game.")
            if supply[kind] > 0:
                return no("JA-11", f"the supply still has a {KIND_TITLES[kind]}: take it "
                                   f"from there ({KIND_NAMES[kind]}).")
            if victim == seat:
                return no("JA-10", "you cannot take a piece from yourself.")
            if self.steal_when_centre_empty and any(supply):
                return no("JA-10", f"the supply has no {KIND_TITLES[kind]} left but still "
                                   f"holds {_holding_text(supply)}; a piece is taken from a "
                                   "player only once the centre is empty "
                                   "(steal='centre-empty').")
            if holds[victim][kind] == 0:
                return no("JA-10", f"player {seat_name(victim)} holds no "
                                   f"{KIND_TITLES[kind]}.")
            return yes("JA-10", f"the supply is empty, so you may take a "
                                f"{KIND_TITLES[kind]} from {seat_name(victim)}.")
        return no("JA-18", "the game is over.")

    def text(self, raw: tuple) -> str:
        phase, seat, dice, holds, supply, aux = raw
        v = self.variant
        lines = [f"Jactus, {self.num_players} players ({v.describe()})",
                 f"Dice:   {_dice_text(dice)}"
                 + (f"  (+{5 - len(dice)} in the air)" if phase == THROW else ""),
                 "Supply: " + _holding_text(supply)]
        scores = self.scores(raw)
        for p, held in enumerate(holds):
            mark = ">" if self.current(raw) == p or (phase == THROW and p == seat) else " "
            lines.append(f"{mark} {seat_name(p)}  {_holding_text(held)}  "
                         f"score {scores[p]:g}")
        name = seat_name(seat)
        lines.append({
            OPEN: f"{name} to throw all five dice (r*).",
            THROW: f"Chance: {name}'s throw of {5 - len(dice)} dice.",
            PICK: f"{name} to pick up dice and throw.",
            CLAIM: f"{name} threw five {aux}s: claim or pass.",
            OVER: f"Game over: {name} wins.",
        }[phase])
        return "\n".join(lines)

    def check_invariants(self, raw: tuple) -> None:
        phase, seat, dice, holds, supply, aux = raw
        assert phase in (OPEN, THROW, PICK, CLAIM, OVER), f"bad phase {phase!r}"
        assert 0 <= seat < self.num_players, f"bad seat {seat!r}"
        assert len(holds) == self.num_players, "one holding per seat"
        assert list(dice) == sorted(dice) and all(1 <= d <= 6 for d in dice), dice
        for kind in range(3):
            total = supply[kind] + sum(h[kind] for h in holds)
            assert total == self.totals[kind], (
                f"JA-3: {KIND_PLURALS[kind]} not conserved: {total} != {self.totals[kind]}")
            assert supply[kind] >= 0 and all(h[kind] >= 0 for h in holds)
        if phase in (PICK, CLAIM):
            assert len(dice) == 5, dice
        if phase == THROW:
            assert len(dice) <= 4, dice
        if phase == CLAIM:
            assert dice[0] == dice[4] == aux, (dice, aux)
        if phase == OVER:
            assert aux == seat and self._has_won(holds[seat]), "JA-15: winner must hold the goal"
        else:
            assert not any(self._has_won(h) for h in holds), "a winning holding must end the game"


def _holding_text(held: tuple[int, int, int]) -> str:
    v, d, c = held
    return f"Venus {v} · dogs {d} · coins {c}"


class JactusState(State):
    """A Jactus position, with readable properties."""

    __slots__ = ()

    @property
    def phase(self) -> str:
        """'open', 'throw', 'pick', 'claim' or 'over'."""
        return PHASE_NAMES[self.raw[0]]

    @property
    def dice(self) -> tuple[int, ...]:
        """The dice lying on the table, sorted (fewer than five during a throw)."""
        return self.raw[2]

    @property
    def thrower(self) -> int:
        """The seat whose throw it is (also while chance decides it)."""
        return self.raw[1]

    @property
    def supply(self) -> Holding:
        """Pieces left in the middle."""
        return Holding(*self.raw[4])

    @property
    def holdings(self) -> tuple[Holding, ...]:
        """Pieces each seat holds."""
        return tuple(Holding(*h) for h in self.raw[3])

    @property
    def claim_face(self) -> int | None:
        """The face thrown five times, while the thrower chooses a claim."""
        return self.raw[5] if self.raw[0] == CLAIM else None

    @property
    def throw_can_score(self) -> bool:
        """During a throw: whether five of a kind would score (JA-13)."""
        return bool(self.raw[5]) if self.raw[0] == THROW else False


def position(variant: JactusVariant | None = None, *, dice: tuple[int, ...] = (),
             to_move: int = 0, phase: str = "pick",
             holdings: tuple[tuple[int, int, int], ...] | None = None,
             supply: tuple[int, int, int] | None = None, seed: int = 0) -> JactusState:
    """Build a Jactus position (for lessons and tests); checked for consistency.

    ``phase`` is 'open', 'pick' or 'claim' (in 'claim', the dice must be five of a
    kind). Pieces not given to a seat are in the supply unless ``supply`` is given.

    >>> s = position(dice=(6, 6, 6, 6, 6), phase="claim", holdings=((0, 0, 0), (1, 0, 0)))
    >>> [str(m) for m in s.legal_moves()]
    ['venus@B', 'dog', 'pass']
    """
    variant = variant or JactusVariant()
    eng = GAME.engine(variant)
    n = variant.players
    holds = tuple(tuple(h) for h in (holdings or ((0, 0, 0),) * n))
    if len(holds) != n:
        raise ValueError(f"holdings: give one (venus, dogs, coins) per seat ({n} seats)")
    if supply is None:
        supply = tuple(t - sum(h[k] for h in holds) for k, t in enumerate(eng.totals))
    phases = {"open": OPEN, "pick": PICK, "claim": CLAIM}
    if phase not in phases:
        raise ValueError(f"phase={phase!r}: use one of {', '.join(phases)}")
    dice = tuple(sorted(dice))
    aux: Any = {"open": True, "pick": None, "claim": dice[0] if dice else None}[phase]
    raw = (phases[phase], to_move, dice, holds, tuple(supply), aux)
    return GAME.from_raw(raw, variant, seed=seed)  # type: ignore[return-value]


def _sample_variants() -> list[JactusVariant]:
    return [JactusVariant(), JactusVariant(players=3), JactusVariant(players=4),
            JactusVariant(players=5), JactusVariant(players=6),
            JactusVariant(dog_throws="other"), JactusVariant(opening_throw_scores=False),
            JactusVariant(supply="full", players=2),
            JactusVariant(scoring="points", players=3),
            JactusVariant(players=3, steal="centre-empty"),
            JactusVariant(players=4, after_decline="next", opening_throw_scores=False),
            JactusVariant(spoil=False), JactusVariant(spoil=False, players=4)]


#: The named rulesets (see "Rulesets" in seeds/jactus.md and ../shared/FACTS.md).
RULESETS = (
    Ruleset("rulebook", {},
            source="the Jactus rulebook, as seeds/jactus.md reads it",
            note="Five 1s allow a coin or a dog, five 6s a Venus or a dog; first to hold a "
                 "Venus, two dogs and a coin wins."),
    Ruleset("other edition", {"dog_throws": "other"},
            source="another edition's rules text: a dog is five of 'any other number' "
                   "(seeds/jactus.md, Rulesets)",
            note="Only five 2s, 3s, 4s or 5s allow a dog; five 1s are a coin, five 6s a "
                 "Venus."),
    Ruleset("points", {"scoring": "points"},
            source="the published points variant (seeds/jactus.md, Rulesets)",
            note="Venus 6, dog 2, coin 5 points; the first to 12 points wins."),
    Ruleset("no spoiling", {"spoil": False},
            source="a house rule (JA-19), the design experiment of the lesson "
                   "notebooks/solving-jactus.ipynb",
            note="A pick-up must leave dice all of one face, or none, so every throw can "
                 "score; optimal 2-player play then always ends."),
)


GAME: Game[JactusVariant] = Game(
    name="jactus", title="Jactus", rule_prefix="JA", variant_cls=JactusVariant,
    engine_cls=JactusEngine, state_cls=JactusState,
    draw_module="janus_widgets.games.jactus.draw",
    summary="Five shared dice: throw five of a kind to claim Venus cards, dog cards and "
            "Roman coins; the first to hold a Venus, two dogs and a coin wins.",
    sample_variants=_sample_variants, rulesets=RULESETS)

"""Checked exercises on conditional probability with the Janus card deck.

The deck holds every pair of the 11 symbols once, doubles included (JC-1): 66
cards, 132 sides, every symbol on 12 of them. Seeing one side of a card and
asking about the other is Bertrand's box problem: a double shows its symbol
whichever way it lies, so among the sides showing a sun, the double owns two of
twelve. What a player has seen elsewhere changes the count (JC-13).

Every answer is computed by the package — from the deck's tables, or from a
seat's view of a built position (``view.other_side_odds``) — never typed in. An
exercise's :meth:`Exercise.check` reads an answer (a ``Fraction``, an integer,
a string such as ``"1/6"``, ``"0.167"``, ``"16.7%"`` or ``"1 in 6"``, or a float),
says whether it is right, and why; the common wrong answers get their own
explanation. A decimal counts when it agrees with the exact answer to three
significant figures (:data:`TOLERANCE`): a student's home-made deck makes chances near
0.01, where a fixed ±0.005 would take 0.014 for 1/105 and call 0.005 a common mistake.
The checking is :mod:`~janus_widgets.analysis.checking`'s, shared with the dice lessons.

>>> DOUBLE.check("1/6").correct
True
>>> verdict = DOUBLE.check("1/11")
>>> verdict.correct, "counts cards, not sides" in verdict.message
(False, True)
>>> DOUBLE.check(0.1667).correct, DOUBLE.check(Fraction(1, 12)).correct
(True, False)
>>> SIDES.answer, TWO_SUNS.answer
(Fraction(12, 1), Fraction(2, 13))
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from ..games.janus_cards.tables import SIDE_SYMBOL, SYMBOL_NAMES, deck_size
import numpy as np

from .checking import Exercise, ExerciseSet, Mistake, SignificantFigures, Verdict, read_answer

__all__ = ["Exercise", "Verdict", "read_answer", "EXERCISES", "CARD_LESSON", "SIDES", "DOUBLE", "MOON",
           "FACE_UP", "TRIO_SEEN", "TWO_SUNS", "trio_seen_position", "two_suns_position",
           "REAL_DEAL", "real_deal_view"]

_SUN, _MOON = SYMBOL_NAMES.index("sun"), SYMBOL_NAMES.index("moon")
#: How close a decimal answer must be to the exact one to count: relative, since the
#: chances run from 1/6 (the box's deck) down to about 1/115 (a home-made one).
TOLERANCE = SignificantFigures(3)


#: Symbols of a home-made deck larger than the box: the box's 11, then these.
EXTRA_SYMBOLS = ("star", "ship", "bird", "drum", "lamp")
_KEY, _FISH, _HEART, _CROWN = (SYMBOL_NAMES.index(n) for n in ("key", "fish", "heart", "crown"))


# --- the deck's structure, counted from the tables -------------------------------------
def _side_pairs(symbols: int) -> list[tuple[int, int]]:
    """Every side of the deck as (symbol up, symbol on the other side): from the game's
    tables for a deck the game plays (up to 11 symbols), else from every pair of the
    symbols, doubles included (a home-made deck larger than the box)."""
    if symbols <= len(SYMBOL_NAMES):
        return [(SIDE_SYMBOL[s], SIDE_SYMBOL[s ^ 1]) for s in range(2 * deck_size(symbols))]
    return [side for a in range(symbols) for b in range(a, symbols)
            for side in ((a, b), (b, a))]


def _count_sides(symbol: int, symbols: int = 11) -> Fraction:
    return Fraction(sum(1 for up, _ in _side_pairs(symbols) if up == symbol))


def _other_side(shown: int, other: int, symbols: int = 11) -> Fraction:
    """P(other side = ``other`` | a random card, random side up, shows ``shown``)."""
    behind = [down for up, down in _side_pairs(symbols) if up == shown]
    return Fraction(sum(1 for down in behind if down == other), len(behind))


def _face_up(symbol: int, symbols: int = 11) -> Fraction:
    sides = _side_pairs(symbols)
    return Fraction(sum(1 for up, _ in sides if up == symbol), len(sides))


def _cards(symbols: int) -> list[tuple[int, int]]:
    return [(a, b) for a in range(symbols) for b in range(a, symbols)]


def _lying(cards: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [side for a, b in cards for side in ((a, b), (b, a))]


def _trio_by_counting(symbols: int) -> Fraction:
    """Exercise 5 on a deck the game does not play, by listing the cards left: the trio
    sun/sun, sun/moon, sun/heart and the pile's key/fish are out of play."""
    gone = {(_SUN, _SUN), (_SUN, _MOON), (_SUN, _HEART), (_KEY, _FISH)}
    behind = [down for up, down in _lying([c for c in _cards(symbols) if c not in gone])
              if up == _SUN]
    return Fraction(behind.count(_CROWN), len(behind))


def _two_suns_by_counting(symbols: int) -> Fraction:
    """Exercise 6 on a deck the game does not play: every way for B's and C's cards (two
    different cards, each lying either way) to show a sun, key/fish being on the pile."""
    left = [c for c in _cards(symbols) if c != (_KEY, _FISH)]
    suns = [(i, down) for i, card in enumerate(left) for up, down in _lying([card])
            if up == _SUN]
    both = [(b, c) for b in suns for c in suns if b[0] != c[0]]
    return Fraction(sum(1 for b, _ in both if b[1] == _SUN), len(both))


def _symbol_words(symbols: int) -> str:
    if symbols <= len(SYMBOL_NAMES):
        return "sun, moon, heart, …"
    if symbols - len(SYMBOL_NAMES) > len(EXTRA_SYMBOLS):
        return (f"the box's 11, {', '.join(EXTRA_SYMBOLS)} and "
                f"{symbols - len(SYMBOL_NAMES) - len(EXTRA_SYMBOLS)} more of your own")
    extra = EXTRA_SYMBOLS[:symbols - len(SYMBOL_NAMES)]
    return "the box's 11 and " + ", ".join(extra[:-1]) + (" and " if len(extra) > 1
                                                          else "") + extra[-1]


# --- positions whose odds the views compute -------------------------------------------
def _variant(symbols: int) -> Any:
    from ..games.janus_cards.rules import JanusCardsVariant
    return JanusCardsVariant(players=2, symbols=symbols)


def trio_seen_position(symbols: int = 11) -> Any:
    """B has laid a trio of suns (sun/sun, sun/moon, sun/heart): symbol side up, and A
    saw their other sides while B held them (JC-12); B's card shows A a sun; A knows
    the pile's key/fish card on both sides and holds nothing. On the deck of
    ``symbols`` symbols (the box: 11)."""
    from ..games.janus_cards.rules import position
    return position(_variant(symbols), hands=[[], ["c/s"]], pile=["k/f"],
                    trios=[("B", ["s/s", "s/m", "s/h"])], remembered={0: ["P1"]})


def two_suns_position(symbols: int = 11) -> Any:
    """B's card and C's card both show A a sun; A knows the pile's key/fish card on
    both sides and holds nothing. On the deck of ``symbols`` symbols (the box: 11)."""
    from ..games.janus_cards.rules import JanusCardsVariant, position
    return position(JanusCardsVariant(players=3, symbols=symbols),
                    hands=[[], ["c/s"], ["h/s"]], pile=["k/f"], remembered={0: ["P1"]})


#: Seat A's record (no seed, no hidden card) of a three-player game on the box's deck just
#: after the deal: the lesson's real game. It was dealt from a fresh secret seed
#: (``rng.fresh_seed``), dealt again until B's first card showed A a heart and both of C's
#: cards a bell, and only A's record was kept: nobody can rebuild the other sides.
REAL_DEAL = Path(__file__).with_name("data") / "real-deal-seat-A.json"


def real_deal_view() -> Any:
    """Seat A's view of the lesson's real game (:data:`REAL_DEAL`), read and proven as
    any seat's record is: everything A may know of it, and nothing more."""
    from ..core.seat_record import SeatRecord
    record = SeatRecord.load(REAL_DEAL)
    return record.replay_view(len(record))


def _deck_exercises(n: int) -> list[Exercise]:
    """The six questions on a deck of ``n`` symbols (the box has 11); every question
    names the deck it is about."""
    cards, sides, per = deck_size(n), 2 * deck_size(n), n + 1     # per: sides per symbol
    box = n == 11
    deck = (f"The box holds {cards} cards: every pair of the {n} symbols once, the {n} "
            "doubles included (sun/sun, moon/moon, …)." if box else
            f"Your home-made Janus deck uses {n} symbols ({_symbol_words(n)}): every pair "
            f"of them once, the {n} doubles included, {cards} cards.")
    which = (f"the box's deck ({cards} cards, {n} symbols)" if box else
             f"your home-made deck of {n} symbols ({cards} cards)")
    left = per - 4                                # sun sides a trio with the double leaves
    return [
        Exercise(
            key="sides", title="1. How many sides show the sun?",
            question=f"{deck} How many of the {sides} card sides show a sun?",
            compute=lambda: _count_sides(_SUN, n), count=True,
            explanation=f"The sun is paired once with each of the {n - 1} other symbols "
                        f"({n - 1} sides) and once with itself, on the sun/sun double, which "
                        f"shows it on both sides: {n - 1} + 2 = {per}. Every symbol is "
                        f"counted the same way, so the {n} symbols share the {sides} sides "
                        f"equally: {n} × {per} = {sides}.",
            params={"symbols": n},
            mistakes=(
                Mistake(Fraction(n), f"That counts the cards that carry a sun ({n - 1} "
                                     "mixed cards and the double). The double shows the "
                                     "sun on both sides, so its card counts twice when you "
                                     "count sides."),
                Mistake(Fraction(n - 1), "That counts only the mixed cards; the sun/sun "
                                         "double adds two more sun sides."),
                Mistake(Fraction(2 * n), "That counts both sides of every card with a "
                                         "sun; the mixed cards show another symbol on "
                                         "their other side."),
                Mistake(Fraction(cards, n), f"That would be {cards} cards ÷ {n} symbols; "
                                            f"but there are {sides} sides.")),
            tolerance=TOLERANCE,
            hint="Count the cards that pair the sun with another symbol, then the double."),
        Exercise(
            key="double", title="2. The other side of a sun",
            question=(f"In {which}, a card is taken at random and laid down either way up "
                      "with even chance. It shows a sun. What is the probability that its "
                      "other side is a sun too?"),
            compute=lambda: _other_side(_SUN, _SUN, n),
            explanation=f"Every one of the {per} sun sides is equally likely to be the one "
                        "you see. Two of them are on the sun/sun double, and behind each is "
                        f"a sun: 2/{per}. As in Bertrand's box, the double is twice as "
                        "likely as a mixed card to be showing a sun, because it shows one "
                        "whichever way it lies.",
            params={"symbols": n},
            mistakes=(
                Mistake(Fraction(1, n), f"That counts cards, not sides. Of the {n} cards "
                                        "with a sun only one is the double, but the double "
                                        "shows a sun whichever way up it lies, so it is "
                                        "twice as likely to be the card in front of you: "
                                        "count the sun sides instead."),
                Mistake(Fraction(1, per), "That counts the double's sun sides once; it has "
                                          "two, and behind each of them is a sun."),
                Mistake(Fraction(1, cards), "That is the chance that a card drawn blind is "
                                            "the sun/sun double; but you have already seen "
                                            "a sun, which rules out the cards without one."),
                Mistake(Fraction(1, 2), "That would be right if 'sun' and 'not sun' were "
                                        "equally likely; they are not: only the double's "
                                        "sun sides hide a sun."),
                Mistake(Fraction(0), "That would mean that no card has a sun on both "
                                     "sides; the sun/sun double does.")),
            tolerance=TOLERANCE,
            hint="List the sides that show a sun (count them as in exercise 1) and what "
                 "is behind each; every one of them is equally likely to be the one you "
                 "see."),
        Exercise(
            key="moon", title="3. The other side is a moon",
            question=f"In {which}, the card laid down at random shows a sun. What is the "
                     "probability that its other side is a moon?",
            compute=lambda: _other_side(_SUN, _MOON, n),
            explanation=f"Of the {per} sun sides, exactly one has a moon behind it (the "
                        f"sun/moon card): 1/{per}. The {n - 1} other symbols share the "
                        f"rest: moon, heart, … each 1/{per}, and sun 2/{per} because of the "
                        f"double; together {per}/{per}.",
            params={"symbols": n},
            mistakes=(
                Mistake(Fraction(1, n), f"That counts cards: {n} cards carry a sun and one "
                                        "of them is sun/moon. But the double shows a sun "
                                        "twice as often as a mixed card, so count sides."),
                Mistake(Fraction(1, n - 1), "That leaves the double out; it is one of the "
                                            "cards that can be showing you a sun (with two "
                                            "of the sun sides)."),
                Mistake(Fraction(2, per), "That is the chance of a sun behind the sun (the "
                                          "double's two sides); a moon is behind only one "
                                          "sun side.")),
            tolerance=TOLERANCE,
            hint="Of the sides showing a sun, how many have a moon behind them?"),
        Exercise(
            key="face", title="4. The next card turns up",
            question=f"In {which}, nobody has seen the cards of a freshly shuffled pile. "
                     "The top card is turned up. What is the probability that its face-up "
                     "side is a sun?",
            compute=lambda: _face_up(_SUN, n),
            explanation=f"Every one of the {sides} sides is equally likely to face up, and "
                        f"{per} of them are suns: {per}/{sides}. Here counting cards or "
                        f"sides gives the same, because every symbol is on {per} sides: the "
                        f"{n} symbols are equally likely.",
            params={"symbols": n},
            mistakes=(
                Mistake(Fraction(2, per), "That is the chance of a sun behind a sun you "
                                          "have already seen. Here nothing is seen yet: "
                                          "count the sun sides among all the sides."),
                Mistake(Fraction(per, cards), f"That divides the sun sides by the {cards} "
                                              "cards; a card has two sides, and only one "
                                              "faces up."),
                Mistake(Fraction(1, per), "That divides by the sides of one symbol; divide "
                                          "the sun sides by all the sides.")),
            tolerance=TOLERANCE,
            hint="How many sides does the deck have, and how many of them show a sun?"),
        Exercise(
            key="trio", title="5. After seeing a trio",
            question=f"A game with {which}. B has laid a trio of suns: sun/sun, sun/moon "
                     "and sun/heart. It lies sun side up (JC-12), and you saw the cards' "
                     "other sides while B held them. B's card shows you a sun (you have not "
                     "seen its other side). You hold no cards, and you know both sides of "
                     "the pile's top card: key/fish. What is the probability that the other "
                     "side of B's card is a crown?",
            compute=(lambda: trio_seen_position(n).view(0).other_side_odds("B1")["crown"])
            if n <= len(SYMBOL_NAMES) else (lambda: _trio_by_counting(n)),
            explanation=f"The trio holds four of the {per} sun sides (the double has two), "
                        f"so B's sun is one of the {left} left, one on each of the mixed "
                        "cards sun/crown, sun/key, …, none of them seen: each "
                        f"1/{left}. Seeing cards changes the odds: before the trio was laid "
                        f"the answer was 1/{per}.",
            params={"symbols": n},
            mistakes=(
                Mistake(Fraction(1, per), "That is the answer before anything is seen. The "
                                          "trio takes four sun sides out of play: count the "
                                          "sun sides that are left."),
                Mistake(Fraction(1, n), "That counts cards with a sun, and leaves the trio "
                                        "in."),
                Mistake(Fraction(1, per - 2), "That removes only the double's two sides; "
                                              "sun/moon and sun/heart are in the trio too."),
                Mistake(Fraction(1, per - 3), "That takes three sun sides out for the three "
                                              "trio cards; the double in the trio carries "
                                              "two, so four are gone.")),
            tolerance=TOLERANCE,
            hint="Which sun sides can B's card still be? Count them."),
        Exercise(
            key="two-suns", title="6. Two suns in view",
            question=f"A game of three players with {which}. B's card and C's card each "
                     "show you a sun; you have seen nothing else of them. You hold no "
                     "cards, and you know both sides of the pile's top card: key/fish. "
                     "What is the probability that B's card is the sun/sun double?",
            compute=(lambda: two_suns_position(n).view(0).other_side_odds("B1")["sun"])
            if n <= len(SYMBOL_NAMES) else (lambda: _two_suns_by_counting(n)),
            explanation=f"Count the ways the two suns you see can lie: B's sun is one of "
                        f"{per} sun sides and C's one of the sun sides on another card. If "
                        f"B holds the double (2 of its sides), C's sun is one of the "
                        f"{n - 1} on the mixed cards: 2 × {n - 1} = {2 * (n - 1)} ways. If "
                        f"B holds a mixed card ({n - 1} sides), C's is any of the {n} "
                        f"others: {n - 1} × {n} = {(n - 1) * n}. So {2 * (n - 1)} / "
                        f"{2 * (n - 1) + n * (n - 1)} = {Fraction(2, n + 2)}, a little less "
                        f"than 2/{per}: C's sun might have been the double's, and it is not "
                        "on B's card.",
            params={"symbols": n},
            mistakes=(
                Mistake(Fraction(2, per), "That ignores C's card. Seeing a second sun "
                                          "elsewhere matters: if C's card were the double, "
                                          "B's could not be, and counting both together "
                                          "gives a little less."),
                Mistake(Fraction(1, n), "That counts cards, not sides, and ignores C's "
                                        "card."),
                Mistake(Fraction(1, n + 2), "That counts the double once; it offers B two "
                                            "sun sides."),
                Mistake(Fraction(2, n), "That leaves out the ways in which B's card is a "
                                        "mixed one while C's is too.")),
            tolerance=TOLERANCE,
            hint="Count pairs: which sun side is B's, and which (on a different card) is "
                 "C's."),
    ]


SIDES, DOUBLE, MOON, FACE_UP, TRIO_SEEN, TWO_SUNS = _deck_exercises(11)

#: The exercises by key, in the order of the lesson.
EXERCISES: dict[str, Exercise] = {e.key: e for e in (SIDES, DOUBLE, MOON, FACE_UP,
                                                      TRIO_SEEN, TWO_SUNS)}

#: The deck sizes students' exercises use: home-made decks larger than the box (11
#: symbols), whose answers are none of the small fractions the lesson's four-symbol deck
#: puts on the page (2/5, 1/4, 1/3, …). Each of a student's six questions has a deck of its
#: own, so that 30 students' sheets, and their answers to each question, differ.
STUDENT_DECKS = tuple(range(12, 121))


def _card_lesson(rng: np.random.Generator | None) -> list[Exercise]:
    """The lesson's exercises: the class's on the box's deck; each of a student's six on
    a home-made deck of its own size (every question names its deck).

    >>> mine = _card_lesson(np.random.default_rng(3))
    >>> len({e.params["symbols"] for e in mine}) > 1, all(
    ...     f"{e.params['symbols']} symbols" in e.question for e in mine)
    (True, True)
    """
    if rng is None:
        return list(EXERCISES.values())
    sizes = [int(rng.choice(STUDENT_DECKS)) for _ in EXERCISES]
    return [_deck_exercises(n)[i] for i, n in enumerate(sizes)]


#: The card-game lesson's exercises as one set (``exercise_sets()["what-can-i-know"]``,
#: the lesson ``notebooks/what-can-i-know.ipynb``).
CARD_LESSON = ExerciseSet("what-can-i-know", build=_card_lesson)

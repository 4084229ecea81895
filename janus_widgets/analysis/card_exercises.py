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
explanation. A decimal counts when it is within ±0.005 of the exact answer
(:data:`TOLERANCE`). The checking is :mod:`~janus_widgets.analysis.checking`'s,
shared with the dice lessons.

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
from typing import Any

from ..games.janus_cards.tables import SIDE_SYMBOL, SYMBOL_NAMES, deck_size
import numpy as np

from .checking import Exercise, ExerciseSet, Mistake, Verdict, Within, read_answer

__all__ = ["Exercise", "Verdict", "read_answer", "EXERCISES", "CARD_LESSON", "SIDES", "DOUBLE", "MOON",
           "FACE_UP", "TRIO_SEEN", "TWO_SUNS", "trio_seen_position", "two_suns_position"]

_SUN, _MOON = SYMBOL_NAMES.index("sun"), SYMBOL_NAMES.index("moon")
#: How far a decimal answer may be from the exact one and still count (absolute).
TOLERANCE = Within(Fraction("0.005"))


# --- the deck's structure, counted from the tables -------------------------------------
def _sides(symbols: int = 11) -> range:
    return range(2 * deck_size(symbols))


def _count_sides(symbol: int, symbols: int = 11) -> Fraction:
    return Fraction(sum(1 for s in _sides(symbols) if SIDE_SYMBOL[s] == symbol))


def _other_side(shown: int, other: int, symbols: int = 11) -> Fraction:
    """P(other side = ``other`` | a random card, random side up, shows ``shown``)."""
    showing = [s for s in _sides(symbols) if SIDE_SYMBOL[s] == shown]
    return Fraction(sum(1 for s in showing if SIDE_SYMBOL[s ^ 1] == other), len(showing))


def _face_up(symbol: int, symbols: int = 11) -> Fraction:
    return Fraction(sum(1 for s in _sides(symbols) if SIDE_SYMBOL[s] == symbol),
                    len(_sides(symbols)))


# --- positions whose odds the views compute -------------------------------------------
def trio_seen_position() -> Any:
    """B has laid a trio of suns (sun/sun, sun/moon, sun/heart): symbol side up, and A
    saw their other sides while B held them (JC-12); B's card shows A a sun; A knows
    the pile's key/fish card on both sides and holds nothing."""
    from ..games.janus_cards.rules import position
    return position(hands=[[], ["c/s"]], pile=["k/f"],
                    trios=[("B", ["s/s", "s/m", "s/h"])], remembered={0: ["P1"]})


def two_suns_position() -> Any:
    """B's card and C's card both show A a sun; A knows the pile's key/fish card on
    both sides and holds nothing."""
    from ..games.janus_cards.rules import position
    return position(hands=[[], ["c/s"], ["h/s"]], pile=["k/f"], remembered={0: ["P1"]})


def _deck_exercises(n: int) -> list[Exercise]:
    """The four questions on a deck of ``n`` symbols (the box has 11)."""
    cards, sides, per = deck_size(n), 2 * deck_size(n), n + 1     # per: sides per symbol
    box = n == 11
    deck = (f"The box holds {cards} cards: every pair of the {n} symbols once, the {n} "
            "doubles included (sun/sun, moon/moon, …)." if box else
            f"A home-made Janus deck uses {n} symbols (sun, moon, heart, …): every pair of "
            f"them once, the {n} doubles included, {cards} cards.")
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
            question=(("" if box else f"{deck} ") + "A card is taken at random and laid "
                      "down either way up with even chance. It shows a sun. What is the "
                      "probability that its other side is a sun too?"),
            compute=lambda: _other_side(_SUN, _SUN, n),
            explanation=f"Every one of the {per} sun sides is equally likely to be the one "
                        "you see. Two of them are on the sun/sun double, and behind each is "
                        f"a sun: 2/{per}. As in Bertrand's box, the double is twice as "
                        "likely as a mixed card to be showing a sun, because it shows one "
                        "whichever way it lies.",
            mistakes=(
                Mistake(Fraction(1, n), f"That counts cards, not sides. Of the {n} cards "
                                        "with a sun only one is the double, but the double "
                                        "shows a sun whichever way up it lies, so it is "
                                        "twice as likely to be the card in front of you: "
                                        f"count the {per} sun sides instead."),
                Mistake(Fraction(1, per), "That counts the double's sun sides once; it has "
                                          "two, and behind each of them is a sun."),
                Mistake(Fraction(1, cards), "That is the chance that a card drawn blind is "
                                            "the sun/sun double; but you have already seen "
                                            "a sun, which rules out the cards without one."),
                Mistake(Fraction(1, 2), "That would be right if 'sun' and 'not sun' were "
                                        f"equally likely; they are not: 2 of the {per} sun "
                                        f"sides hide a sun, {n - 1} hide another symbol."),
                Mistake(Fraction(0), "That would mean that no card has a sun on both "
                                     "sides; the sun/sun double does.")),
            tolerance=TOLERANCE,
            hint=f"List the {per} sides that show a sun, and what is behind each."),
        Exercise(
            key="moon", title="3. The other side is a moon",
            question="The same card shows a sun. What is the probability that its other "
                     "side is a moon?",
            compute=lambda: _other_side(_SUN, _MOON, n),
            explanation=f"Of the {per} sun sides, exactly one has a moon behind it (the "
                        f"sun/moon card): 1/{per}. The {n - 1} other symbols share the "
                        f"rest: moon, heart, … each 1/{per}, and sun 2/{per} because of the "
                        f"double; together {per}/{per}.",
            mistakes=(
                Mistake(Fraction(1, n), f"That counts cards: {n} cards carry a sun and one "
                                        "of them is sun/moon. But the double shows a sun "
                                        "twice as often as a mixed card, so count sides: "
                                        f"1 of {per}."),
                Mistake(Fraction(1, n - 1), "That leaves the double out; it is one of the "
                                            "cards that can be showing you a sun (with two "
                                            f"of the {per} sun sides)."),
                Mistake(Fraction(2, per), "That is the chance of a sun behind the sun (the "
                                          "double's two sides); a moon is behind only one "
                                          "sun side.")),
            tolerance=TOLERANCE,
            hint=f"Of the {per} sides showing a sun, how many have a moon behind them?"),
        Exercise(
            key="face", title="4. The next card turns up",
            question="Nobody has seen the cards of a freshly shuffled pile. The top card is "
                     "turned up. What is the probability that its face-up side is a sun?",
            compute=lambda: _face_up(_SUN, n),
            explanation=f"Every one of the {sides} sides is equally likely to face up, and "
                        f"{per} of them are suns: {per}/{sides}. Here counting cards or "
                        f"sides gives the same, because every symbol is on {per} sides: the "
                        f"{n} symbols are equally likely.",
            mistakes=(
                Mistake(Fraction(2, per), "That is the chance of a sun behind a sun you "
                                          "have already seen. Here nothing is seen yet: "
                                          f"count the sun sides among all {sides} sides."),
                Mistake(Fraction(per, cards), f"That divides the {per} sun sides by the "
                                              f"{cards} cards; a card has two sides, and "
                                              f"only one faces up: {per} of {sides}."),
                Mistake(Fraction(1, per), f"That divides by the {per} sides of one symbol; "
                                          f"divide the {per} sun sides by all {sides} "
                                          "sides.")),
            tolerance=TOLERANCE,
            hint=f"How many of the {sides} sides show a sun?"),
    ]


SIDES, DOUBLE, MOON, FACE_UP = _deck_exercises(11)

TRIO_SEEN = Exercise(
    key="trio", title="5. After seeing a trio",
    question="B has laid a trio of suns, and you saw both sides of its cards while B "
             "held them: sun/sun, sun/moon and sun/heart. "
             "B's card shows you a sun (you have not seen its other side). You hold no "
             "cards, and you know both sides of the pile's top card: key/fish. What is "
             "the probability that the other side of B's card is a crown?",
    compute=lambda: trio_seen_position().view(0).other_side_odds("B1")["crown"],
    explanation="The trio holds four of the twelve sun sides (the double has two), so "
                "B's sun is one of the 8 left, one on each of the cards sun/crown, "
                "sun/key, sun/fish, sun/leaf, sun/bell, sun/tree, sun/ring and sun/wave: "
                "each 1/8. Seeing cards changes the odds: before the trio was laid the "
                "answer was 1/12.",
    mistakes=(
        Mistake(Fraction(1, 12), "That is the answer before anything is seen. The trio "
                                 "takes four sun sides out of play: count the sun sides "
                                 "that are left."),
        Mistake(Fraction(1, 11), "That counts cards with a sun, and leaves the trio in."),
        Mistake(Fraction(1, 10), "That removes only the double's two sides; sun/moon and "
                                 "sun/heart are in the trio too."),
        Mistake(Fraction(1, 9), "That takes three sun sides out for the three trio "
                                "cards; the double in the trio carries two, so four are "
                                "gone and 8 remain.")),
    tolerance=TOLERANCE,
    hint="Which sun sides can B's card still be? Count them.")

TWO_SUNS = Exercise(
    key="two-suns", title="6. Two suns in view",
    question="B's card and C's card each show you a sun; you have seen nothing else of "
             "them. You hold no cards, and you know both sides of the pile's top card: "
             "key/fish. What is the probability that B's card is the sun/sun double?",
    compute=lambda: two_suns_position().view(0).other_side_odds("B1")["sun"],
    explanation="Count the ways the two suns you see can lie: B's sun is one of 12 sun "
                "sides and C's one of the sun sides on another card. If B holds the "
                "double (2 of its sides), C's sun is one of the 10 on the mixed cards: "
                "2 × 10 = 20 ways. If B holds a mixed card (10 sides), C's is any of the "
                "11 others: 10 × 11 = 110. So 20 / 130 = 2/13, a little less than 1/6: "
                "C's sun might have been the double's, and it is not on B's card.",
    mistakes=(
        Mistake(Fraction(1, 6), "That ignores C's card. Seeing a second sun elsewhere "
                                "matters: if C's card were the double, B's could not be, "
                                "and counting both together gives a little less."),
        Mistake(Fraction(1, 11), "That counts cards, not sides, and ignores C's card."),
        Mistake(Fraction(1, 13), "That counts the double once; it offers B two sun "
                                 "sides."),
        Mistake(Fraction(2, 11), "That leaves out the ways in which B's card is a mixed "
                                 "one while C's is too.")),
    tolerance=TOLERANCE,
    hint="Count pairs: which sun side is B's, and which (on a different card) is C's.")

#: The exercises by key, in the order of the lesson.
EXERCISES: dict[str, Exercise] = {e.key: e for e in (SIDES, DOUBLE, MOON, FACE_UP,
                                                      TRIO_SEEN, TWO_SUNS)}


def _card_lesson(rng: np.random.Generator | None) -> list[Exercise]:
    """The lesson's exercises; a student's first four are on a deck of their own size
    (the last two read positions of the box's deck)."""
    if rng is None:
        return list(EXERCISES.values())
    return _deck_exercises(int(rng.integers(6, 11))) + [TRIO_SEEN, TWO_SUNS]


#: The card-game lesson's exercises as one set (``exercise_sets()["janus-cards"]``).
CARD_LESSON = ExerciseSet("janus-cards", build=_card_lesson)

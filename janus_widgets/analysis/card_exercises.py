"""Checked exercises on conditional probability with the Janus card deck.

The deck holds every pair of the 11 symbols once, doubles included (JC-1): 66
cards, 132 sides, every symbol on 12 of them. Seeing one side of a card and
asking about the other is Bertrand's box problem: a double shows its symbol
whichever way it lies, so among the sides showing a sun, the double owns two of
twelve. What a player has seen elsewhere changes the count (JC-13).

Every answer is computed by the package — from the deck's tables, or from a
seat's view of a built position (``view.other_side_odds``) — never typed in. An
exercise's :meth:`Exercise.check` reads an answer (a ``Fraction``, an integer,
a string such as ``"1/6"``, ``"0.167"`` or ``"16.7%"``, or a float), says whether
it is right, and why; the common wrong answers get their own explanation.

>>> DOUBLE.check("1/6").correct
True
>>> print(DOUBLE.check("1/11").message.split(".")[0])
Not quite: 1/11 counts cards, not sides
>>> DOUBLE.check(0.1667).correct, DOUBLE.check(Fraction(1, 12)).correct
(True, False)
>>> SIDES.answer, TWO_SUNS.answer
(Fraction(12, 1), Fraction(2, 13))
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from ..games.janus_cards.tables import SIDE_SYMBOL, SYMBOL_NAMES, deck_size

__all__ = ["Exercise", "Verdict", "read_answer", "EXERCISES", "SIDES", "DOUBLE", "MOON",
           "FACE_UP", "TRIO_SEEN", "TWO_SUNS", "trio_seen_position", "two_suns_position"]

_SUN, _MOON = SYMBOL_NAMES.index("sun"), SYMBOL_NAMES.index("moon")
#: How far a decimal answer may be from the exact one and still count (absolute).
TOLERANCE = 0.005


@dataclass(frozen=True)
class Verdict:
    """The result of checking an answer: right or wrong, and why."""

    correct: bool
    message: str
    #: The answer as read (``None`` if it could not be read as a number).
    read: Fraction | float | None = None

    def __bool__(self) -> bool:
        return self.correct

    def __str__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        colour = "#1b7f5b" if self.correct else "#b00020"
        return (f"<div style='color:{colour};font-family:sans-serif'>"
                f"{html.escape(self.message)}</div>")


def read_answer(answer: Any) -> Fraction | float:
    """An answer as a number: exact (``Fraction``, ``int``, ``"a/b"``) or decimal
    (``float``, ``"0.167"``, ``"16.7%"``). Raises ``ValueError`` if it is not one.

    >>> read_answer(" 2 / 13 "), read_answer("12.5%"), read_answer(3)
    (Fraction(2, 13), 0.125, Fraction(3, 1))
    """
    if isinstance(answer, bool):
        raise ValueError(f"{answer!r} is not a number")
    if isinstance(answer, (Fraction, int)):
        return Fraction(answer)
    if isinstance(answer, float):
        return answer
    if not isinstance(answer, str):
        raise ValueError(f"{answer!r} is not a number")
    text = answer.strip().replace(" ", "").replace(",", ".")
    if re.fullmatch(r"[+-]?\d+/\d+", text):
        num, den = text.split("/")
        if int(den) == 0:
            raise ValueError(f"{answer!r}: a fraction cannot have 0 below the line")
        return Fraction(int(num), int(den))
    if re.fullmatch(r"[+-]?\d+", text):
        return Fraction(int(text))
    percent = text.endswith("%")
    number = text[:-1] if percent else text
    if re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)", number):
        value = float(number)
        return value / 100 if percent else value
    raise ValueError(f"{answer!r} is not a number")


def _show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else \
        f"{value.numerator}/{value.denominator}"


@dataclass(frozen=True)
class Exercise:
    """One question with a computed answer, its explanation and the common wrong
    answers (each with why it is wrong)."""

    key: str
    title: str
    question: str
    compute: Callable[[], Fraction] = field(repr=False)
    explanation: str = field(repr=False)
    wrong: Mapping[Fraction, str] = field(repr=False, default_factory=dict)
    hint: str = field(repr=False, default="")
    #: Whether the answer is a count (then decimals must be whole numbers).
    count: bool = False

    @cached_property
    def answer(self) -> Fraction:
        """The exact answer, computed by the package."""
        return Fraction(self.compute())

    def check(self, answer: Any) -> Verdict:
        """Say whether ``answer`` is right, and why (see :func:`read_answer`)."""
        try:
            value = read_answer(answer)
        except ValueError:
            return Verdict(False, f"I could not read {answer!r} as a number: write it as "
                                  + ("a whole number, e.g. 7." if self.count else
                                     "a fraction such as 1/6, a decimal such as 0.167, "
                                     "or a percentage such as 16.7%."))
        if self._matches(value, self.answer):
            return Verdict(True, f"Right: {_show(self.answer)}. {self.explanation}", value)
        for wrong, why in self.wrong.items():
            if self._matches(value, Fraction(wrong)):
                return Verdict(False, f"Not quite: {_show(Fraction(wrong))} {why}", value)
        if not self.count and not 0 <= value <= 1:
            return Verdict(False, f"{answer} cannot be a probability: probabilities lie "
                                  f"between 0 and 1. {self.hint}".strip(), value)
        return Verdict(False, f"Not right: {answer} is not the answer. {self.hint}".strip(),
                       value)

    @staticmethod
    def _matches(value: Fraction | float, target: Fraction) -> bool:
        if isinstance(value, Fraction):
            return value == target
        return abs(value - float(target)) <= TOLERANCE

    def solution(self) -> str:
        """The answer and the reasoning behind it."""
        return f"{_show(self.answer)}. {self.explanation}"

    def widget(self) -> Any:
        """The question with an answer box and a Check button (for Voila too)."""
        import ipywidgets as W

        box = W.Text(placeholder="a whole number" if self.count else "e.g. 1/6 or 0.167",
                     continuous_update=False, layout=W.Layout(width="180px"))
        button = W.Button(description="Check", button_style="primary", icon="check")
        out = W.HTML()
        out.add_class("janus-exercise-verdict")

        def check(_: Any = None) -> None:
            out.value = self.check(box.value)._repr_html_()

        button.on_click(check)
        box.observe(check, names="value")          # Enter (or leaving the box) checks too
        head = W.HTML(f"<b>{html.escape(self.title)}</b><br>{html.escape(self.question)}")
        panel = W.VBox([head, W.HBox([box, button]), out],
                       layout=W.Layout(border="1px solid #c9c2b0", padding="8px",
                                       margin="6px 0"))
        panel.add_class("janus-exercise")
        # The parts a script or a test drives.
        panel.answer_box, panel.check_button, panel.verdict = (  # type: ignore[attr-defined]
            box, button, out)
        return panel

    def _repr_html_(self) -> str:
        return f"<b>{html.escape(self.title)}</b><br>{html.escape(self.question)}"


# --- the deck's structure, counted from the tables -------------------------------------
def _sides(symbols: int = 11) -> range:
    return range(2 * deck_size(symbols))


def _count_sides(symbol: int) -> Fraction:
    return Fraction(sum(1 for s in _sides() if SIDE_SYMBOL[s] == symbol))


def _other_side(shown: int, other: int) -> Fraction:
    """P(other side = ``other`` | a random card, random side up, shows ``shown``)."""
    showing = [s for s in _sides() if SIDE_SYMBOL[s] == shown]
    return Fraction(sum(1 for s in showing if SIDE_SYMBOL[s ^ 1] == other), len(showing))


def _face_up(symbol: int) -> Fraction:
    return Fraction(sum(1 for s in _sides() if SIDE_SYMBOL[s] == symbol), len(_sides()))


# --- positions whose odds the views compute -------------------------------------------
def trio_seen_position() -> Any:
    """An open trio of suns (sun/sun, sun/moon, sun/heart) lies on the table; B's card
    shows A a sun; A knows the pile's key/fish card on both sides and holds nothing."""
    from ..games.janus_cards.rules import position
    return position(hands=[[], ["c/s"]], pile=["k/f"],
                    trios=[("B", ["s/s", "s/m", "s/h"])], remembered={0: ["P1"]})


def two_suns_position() -> Any:
    """B's card and C's card both show A a sun; A knows the pile's key/fish card on
    both sides and holds nothing."""
    from ..games.janus_cards.rules import position
    return position(hands=[[], ["c/s"], ["h/s"]], pile=["k/f"], remembered={0: ["P1"]})


SIDES = Exercise(
    key="sides", title="1. How many sides show the sun?",
    question="The box holds 66 cards: every pair of the 11 symbols once, the 11 doubles "
             "included (sun/sun, moon/moon, …). How many of the 132 card sides show "
             "a sun?",
    compute=lambda: _count_sides(_SUN), count=True,
    explanation="The sun is paired once with each of the 10 other symbols (10 sides) "
                "and once with itself, on the sun/sun double, which shows it on both "
                "sides: 10 + 2 = 12. Every symbol is counted the same way, so the 11 "
                "symbols share the 132 sides equally: 11 × 12 = 132.",
    wrong={Fraction(11): "counts the cards that carry a sun (10 mixed cards and the "
                         "double). The double shows the sun on both sides, so its card "
                         "counts twice when you count sides.",
           Fraction(10): "counts only the mixed cards; the sun/sun double adds two more "
                         "sun sides.",
           Fraction(22): "counts both sides of every card with a sun; the mixed cards "
                         "show another symbol on their other side.",
           Fraction(6): "would be 66 cards ÷ 11 symbols; but there are 132 sides."},
    hint="Count the cards that pair the sun with another symbol, then the double.")

DOUBLE = Exercise(
    key="double", title="2. The other side of a sun",
    question="A card is taken at random and laid down either way up with even chance. "
             "It shows a sun. What is the probability that its other side is a sun too?",
    compute=lambda: _other_side(_SUN, _SUN),
    explanation="Every one of the 12 sun sides is equally likely to be the one you see. "
                "Two of them are on the sun/sun double, and behind each is a sun: 2/12 "
                "= 1/6. As in Bertrand's box, the double is twice as likely as a mixed "
                "card to be showing a sun, because it shows one whichever way it lies.",
    wrong={Fraction(1, 11): "counts cards, not sides. Of the 11 cards with a sun only "
                            "one is the double, but the double shows a sun whichever way "
                            "up it lies, so it is twice as likely to be the card in front "
                            "of you: count the 12 sun sides instead.",
           Fraction(1, 12): "counts the double's sun sides once; it has two, and behind "
                            "each of them is a sun.",
           Fraction(1, 66): "is the chance that a card drawn blind is the sun/sun "
                            "double; but you have already seen a sun, which rules out "
                            "the 55 cards without one.",
           Fraction(1, 2): "would be right if 'sun' and 'not sun' were equally likely; "
                           "they are not: 2 of the 12 sun sides hide a sun, 10 hide "
                           "another symbol.",
           Fraction(0): "would mean that no card has a sun on both sides; the sun/sun "
                        "double does."},
    hint="List the 12 sides that show a sun, and what is behind each.")

MOON = Exercise(
    key="moon", title="3. The other side is a moon",
    question="The same card shows a sun. What is the probability that its other side "
             "is a moon?",
    compute=lambda: _other_side(_SUN, _MOON),
    explanation="Of the 12 sun sides, exactly one has a moon behind it (the sun/moon "
                "card): 1/12. The 11 other symbols share the rest: moon, heart, … each "
                "1/12, and sun 2/12 because of the double; together 12/12.",
    wrong={Fraction(1, 11): "counts cards: 11 cards carry a sun and one of them is "
                            "sun/moon. But the double shows a sun twice as often as a "
                            "mixed card, so count sides: 1 of 12.",
           Fraction(1, 10): "leaves the double out; it is one of the cards that can be "
                            "showing you a sun (with two of the 12 sun sides).",
           Fraction(1, 6): "is the chance of a sun behind the sun (the double's two "
                           "sides); a moon is behind only one sun side."},
    hint="Of the 12 sides showing a sun, how many have a moon behind them?")

FACE_UP = Exercise(
    key="face", title="4. The next card turns up",
    question="Nobody has seen the cards of a freshly shuffled pile. The top card is "
             "turned up. What is the probability that its face-up side is a sun?",
    compute=lambda: _face_up(_SUN),
    explanation="Every one of the 132 sides is equally likely to face up, and 12 of them "
                "are suns: 12/132 = 1/11. Here counting cards or sides gives the same, "
                "because every symbol is on 12 sides: the 11 symbols are equally likely.",
    wrong={Fraction(1, 6): "is the chance of a sun behind a sun you have already seen. "
                           "Here nothing is seen yet: count the sun sides among all "
                           "132 sides.",
           Fraction(2, 11): "divides the 12 sun sides by the 66 cards; a card has two "
                            "sides, and only one faces up: 12 of 132.",
           Fraction(1, 12): "divides by the 12 sides of one symbol; divide the 12 sun "
                            "sides by all 132 sides."},
    hint="How many of the 132 sides show a sun?")

TRIO_SEEN = Exercise(
    key="trio", title="5. After seeing a trio",
    question="An open trio of suns lies on the table: sun/sun, sun/moon and sun/heart. "
             "B's card shows you a sun (you have not seen its other side). You hold no "
             "cards, and you know both sides of the pile's top card: key/fish. What is "
             "the probability that the other side of B's card is a crown?",
    compute=lambda: trio_seen_position().view(0).other_side_odds("B1")["crown"],
    explanation="The trio holds four of the twelve sun sides (the double has two), so "
                "B's sun is one of the 8 left, one on each of the cards sun/crown, "
                "sun/key, sun/fish, sun/leaf, sun/bell, sun/tree, sun/ring and sun/wave: "
                "each 1/8. Seeing cards changes the odds: before the trio was laid the "
                "answer was 1/12.",
    wrong={Fraction(1, 12): "is the answer before anything is seen. The trio takes four "
                            "sun sides out of play: count the sun sides that are left.",
           Fraction(1, 11): "counts cards with a sun, and leaves the trio in.",
           Fraction(1, 10): "removes only the double's two sides; sun/moon and "
                            "sun/heart are in the trio too.",
           Fraction(1, 9): "takes three sun sides out for the three trio cards; the "
                           "double in the trio carries two, so four are gone and 8 "
                           "remain."},
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
    wrong={Fraction(1, 6): "ignores C's card. Seeing a second sun elsewhere matters: "
                           "if C's card were the double, B's could not be, and "
                           "counting both together gives a little less.",
           Fraction(1, 11): "counts cards, not sides, and ignores C's card.",
           Fraction(1, 13): "counts the double once; it offers B two sun sides.",
           Fraction(2, 11): "leaves out the ways in which B's card is a mixed one while "
                            "C's is too."},
    hint="Count pairs: which sun side is B's, and which (on a different card) is C's.")

#: The exercises by key, in the order of the lesson.
EXERCISES: dict[str, Exercise] = {e.key: e for e in (SIDES, DOUBLE, MOON, FACE_UP,
                                                      TRIO_SEEN, TWO_SUNS)}

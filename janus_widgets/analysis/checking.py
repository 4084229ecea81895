"""Checked exercises: read an answer, say whether it is right and why, in a box.

One mechanism serves every lesson (:mod:`~janus_widgets.analysis.exercises` for the
Jactus and Roman dice lessons, :mod:`~janus_widgets.analysis.card_exercises` for
the card-game lesson). An :class:`Exercise` knows its exact answer (computed by
the package, never typed in), the wrong answers people often give with what went
wrong (:class:`Mistake`), a hint and an explanation. :meth:`Exercise.check` reads
a ``Fraction``, a whole number, a float or text such as ``"1/6"``, ``"0.167"``,
``"16.7%"`` or ``"1 in 6"`` (:func:`read_answer`) and answers with a
:class:`Verdict`:

* an answer is judged by its value, never by how it is written: one equal to the
  right one is right, and so is one within the exercise's tolerance
  (:class:`SignificantFigures` or :class:`Within`), as a fraction, a decimal or a
  percentage alike (a count, a whole number, must be exact);
* a recognised mistake is wrong, and the verdict says why;
* anything else is wrong, with a hint (and a word on odds that are not
  probabilities, or answers that are close but not right).

>>> half = Exercise("coin", "What is the chance of heads?", lambda: Fraction(1, 2),
...                 explanation="One face of two.",
...                 mistakes=(Mistake(Fraction(1), "That is heads or tails."),))
>>> print(half.check("1 in 2"))
Right: 1/2 ≈ 0.5. One face of two.
>>> print(half.check(1))
Not quite: 1 is a common mistake. That is heads or tails.
>>> half.check("0.5001").correct, Exercise("c", "?", lambda: Fraction(1, 2),
...     tolerance=Within(Fraction(1, 100))).check(0.509).correct
(True, True)
"""

from __future__ import annotations

import hashlib
import html
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Any, Protocol, TypeVar

import numpy as np

__all__ = ["Verdict", "Mistake", "Tolerance", "SignificantFigures", "Within", "WithinShown",
           "Exercise", "ExerciseSet", "read_answer", "significant_figures", "check_answer",
           "grade", "grade_exercise", "show_value", "unique_mistakes", "mistake_kind",
           "nbgrader_student", "exercise_question", "QuestionText", "spread"]


@dataclass(frozen=True)
class Verdict:
    """The outcome of a check: ``bool(verdict)`` is whether it is right."""

    correct: bool
    message: str
    #: The answer as read (``None`` if it could not be read as a number).
    given: Fraction | None = None
    #: The common mistake the answer matched (its value and why), ``""`` if none.
    mistake: str = ""

    @property
    def kind(self) -> str:
        """``"right"``, ``"wrong"`` or ``"invalid"`` (an answer that could not be read):
        what a class's tally counts."""
        if self.correct:
            return "right"
        return "wrong" if self.given is not None else "invalid"

    def __bool__(self) -> bool:
        return self.correct

    def __str__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        colour = "#1a7f37" if self.correct else "#b42318"
        mark = "✔" if self.correct else "✘"
        return (f'<div style="color:{colour}"><b>{mark}</b> '
                f"{html.escape(self.message)}</div>")


@dataclass(frozen=True)
class Mistake:
    """A wrong answer people often give, and why it is wrong (a sentence or more).

    ``value`` is a number, or a function computing it (for mistakes that are
    themselves computed, such as another strategy's chance)."""

    value: Callable[[], Fraction] | Fraction
    why: str

    def resolve(self) -> Fraction:
        return Fraction(self.value() if callable(self.value) else self.value)


def unique_mistakes(right: Fraction, mistakes: Iterable[Mistake | None]) -> tuple[Mistake, ...]:
    """The mistakes worth listing for an exercise whose answer is ``right``: each value
    once (the first explanation wins), none equal to the answer, ``None`` left out (a
    mistake that does not apply to these numbers).

    >>> [m.why for m in unique_mistakes(Fraction(1, 2), [Mistake(Fraction(1), "a"), None,
    ...      Mistake(Fraction(1), "b"), Mistake(Fraction(1, 2), "c")])]
    ['a']
    """
    out, seen = [], {right}
    for mistake in mistakes:
        if mistake is None:
            continue
        value = mistake.resolve()
        if value not in seen:
            seen.add(value)
            out.append(mistake)
    return tuple(out)


# --- how close a decimal must be -------------------------------------------------------
class Tolerance(Protocol):
    """How close a decimal answer must be to a value to count as that value;
    ``str()`` says it after "right", e.g. "to 3 significant figures"."""

    def allows(self, given: Fraction, target: Fraction) -> bool: ...


@dataclass(frozen=True)
class SignificantFigures:
    """A decimal counts when it agrees with the value to ``figures`` significant
    figures (within half a unit in the last of them).

    >>> SignificantFigures(3).allows(Fraction("0.000772"), Fraction(1, 1296))
    True
    >>> str(SignificantFigures(3))
    'to 3 significant figures'
    """

    figures: int = 3

    def allows(self, given: Fraction, target: Fraction) -> bool:
        if target == 0:
            margin = Fraction(1, 10 ** 9)
        else:
            exponent = math.floor(math.log10(abs(float(target))))
            margin = Fraction(10) ** (exponent - self.figures + 1) / 2
        return abs(given - target) <= margin

    def __str__(self) -> str:
        return f"to {self.figures} significant figures"


@dataclass(frozen=True)
class Within:
    """A decimal counts when it is at most ``margin`` away from the value.

    >>> rule = Within(Fraction("0.005"))
    >>> rule.allows(Fraction("0.167"), Fraction(1, 6)), str(rule)
    (True, 'to within ±0.005')
    """

    margin: Fraction

    def allows(self, given: Fraction, target: Fraction) -> bool:
        return abs(given - target) <= self.margin

    def __str__(self) -> str:
        return f"to within ±{float(self.margin):g}"


@dataclass(frozen=True)
class WithinShown:
    """A decimal counts when it is at most ``margin`` away from the value, or from the
    value as the page shows it (``show`` writes it the way the page does): a student who
    rounds the figure on the screen is right, even when that figure was itself rounded
    from the value (a table shows 8.845 as ``+8.85``; 8.9 and 8.8 are both honest
    roundings of it to one decimal).

    >>> rule = WithinShown(Fraction(1, 20), lambda v: f"{v:+.3g}", "the lab shows")
    >>> rule.allows(Fraction("8.9"), Fraction("8.845")), rule.allows(Fraction("8.8"), Fraction("8.845"))
    (True, True)
    >>> rule.allows(Fraction("8.95"), Fraction("8.845")), str(rule)
    (False, 'to within ±0.05 of the value or of the figure the lab shows')
    """

    margin: Fraction
    show: Callable[[float], str] = field(compare=False)
    where: str = "the page shows"

    def shown(self, target: Fraction) -> Fraction:
        """The value as the page shows it, read back as a number."""
        text = self.show(float(target)).replace("−", "-").replace(",", "").strip()
        return Fraction(text.lstrip("+"))

    def allows(self, given: Fraction, target: Fraction) -> bool:
        return abs(given - target) <= self.margin or \
            abs(given - self.shown(target)) <= self.margin

    def __str__(self) -> str:
        return f"to within ±{float(self.margin):g} of the value or of the figure {self.where}"


# --- reading answers --------------------------------------------------------------------
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
# a comma between groups of three digits separates thousands: 1,296 or 7,776,000
_THOUSANDS = re.compile(r"(?<![\d.,])[1-9]\d{0,2}(?:,\d{3})+(?![\d,])")


def significant_figures(answer: Any) -> int | None:
    """How many significant figures a decimal answer is written with, or ``None``
    for an exact answer (a fraction, odds, a whole number) and for what is not a number.

    Leading zeros do not count, trailing zeros after the point do; a float counts
    as Python writes it (its shortest form).

    >>> significant_figures("0.046"), significant_figures("0.04603"), significant_figures("4.60%")
    (2, 4, 3)
    >>> significant_figures(0.5), significant_figures("1/6"), significant_figures("1.2e-3")
    (1, None, 2)
    """
    if isinstance(answer, (bool, np.bool_)):
        return None
    if isinstance(answer, (float, np.floating)):
        text = repr(float(answer))
    elif isinstance(answer, Decimal):
        text = str(answer)
    elif isinstance(answer, str):
        text = re.sub(r"\s", "", answer).replace("−", "-").rstrip("%")
        text = _THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), text).replace(",", ".")
    else:
        return None
    m = re.fullmatch(r"[-+]?(\d*)\.(\d*)(?:[eE][-+]?\d+)?|[-+]?(\d+)[eE][-+]?\d+", text)
    if m is None:
        return None
    digits = (m.group(1) or "") + (m.group(2) or "") if m.group(3) is None else m.group(3)
    digits = digits.lstrip("0")
    return len(digits) if digits else 1


#: The largest power of ten an answer may be written with (``1.2e-3``): ``1e30000000``
#: is a whole number of 30 million digits, which took the table server 46 s to make
#: (and ``1e999999999`` for ever), every page of the class waiting.
MAX_EXPONENT = 100


def _fraction(text: str) -> Fraction:
    """``Fraction(text)`` of a number as :data:`_NUMBER` matches it, its power of ten
    at most :data:`MAX_EXPONENT` either way (else ``ValueError``, before any work)."""
    mantissa, e, power = text.lower().partition("e")
    if e and abs(int(power)) > MAX_EXPONENT:
        raise ValueError(f"{text!r}: a power of ten is at most {MAX_EXPONENT} either way "
                         "here (a chance is between 0 and 1)")
    return Fraction(text)


def read_answer(answer: Any) -> tuple[Fraction, bool]:
    """Read an answer as ``(value, exact)``; ``exact`` is False for decimals.

    Exact: a ``Fraction``, an integer, ``"a/b"``, ``"a in b"``, ``"a:b"`` (read as
    ``a in b``, the way a chance is often written: ``"1:1296"``) or a whole number
    as text. Decimal: a float, a ``Decimal``, ``"0.167"``, ``"16.7%"``. A comma
    between groups of three digits separates thousands (``"1,296"``); any other
    comma is a decimal comma (``"0,167"``). Raises ``ValueError`` if the answer is
    not a number.

    >>> read_answer("1/1296"), read_answer("1 in 6")
    ((Fraction(1, 1296), True), (Fraction(1, 6), True))
    >>> read_answer("7.72%")[0] == Fraction(772, 10000), read_answer(0.5)
    (True, (Fraction(1, 2), False))
    >>> read_answer(" 2 / 13 "), read_answer("12,5%"), read_answer("1 in 1,296")
    ((Fraction(2, 13), True), (Fraction(1, 8), False), (Fraction(1, 1296), True))
    >>> read_answer("1:1296"), read_answer("1 : 6")
    ((Fraction(1, 1296), True), (Fraction(1, 6), True))
    >>> read_answer("1e30000000")
    Traceback (most recent call last):
    ...
    ValueError: '1e30000000': a power of ten is at most 100 either way here (a chance is between 0 and 1)
    """
    if isinstance(answer, (bool, np.bool_)):
        raise ValueError("give a number, not True/False")
    if isinstance(answer, Fraction):
        return answer, True
    if isinstance(answer, (int, np.integer)):
        return Fraction(int(answer)), True
    if isinstance(answer, (float, np.floating)):
        if not math.isfinite(answer):
            raise ValueError(f"{answer!r} is not a finite number")
        return Fraction(str(float(answer))), False
    if isinstance(answer, Decimal):
        if not answer.is_finite():
            raise ValueError(f"{answer!r} is not a finite number")
        if abs(answer.adjusted()) > MAX_EXPONENT:
            raise ValueError(f"{answer!r}: a power of ten is at most {MAX_EXPONENT} either "
                             "way here")
        return Fraction(answer), False
    if not isinstance(answer, str):
        raise ValueError(f"{answer!r} is not a number")
    text = re.sub(r"\s", "", answer).replace("−", "-")
    if not text:
        raise ValueError("the answer is empty")
    text = _THOUSANDS.sub(lambda m: m.group(0).replace(",", ""), text).replace(",", ".")
    exact = "." not in text and "e" not in text.lower()
    for between, what in (("in", "'1 in 0' is not a chance"), (":", "'1:0' is not a chance"),
                          ("/", "it divides by zero")):
        m = re.fullmatch(rf"({_NUMBER}){between}({_NUMBER})", text, re.IGNORECASE)
        if m:
            a, b = _fraction(m.group(1)), _fraction(m.group(2))
            if b == 0:
                raise ValueError(f"{answer!r}: {what}")
            return a / b, exact
    m = re.fullmatch(rf"({_NUMBER})%", text)
    if m:
        return _fraction(m.group(1)) / 100, False
    if re.fullmatch(_NUMBER, text):
        return _fraction(text), re.fullmatch(r"[-+]?\d+", text) is not None
    raise ValueError(f"{answer!r} is not a number")


#: The longest numerator or denominator a fraction is printed with; a longer one is
#: printed as a decimal only (a page holds no fraction of dozens of digits).
FRACTION_DIGITS = 6


def show_value(x: Fraction) -> str:
    """A value for people: ``'1/6 ≈ 0.1667'``, ``'12'``; a fraction whose numerator or
    denominator is longer than :data:`FRACTION_DIGITS` digits as its decimal only.

    >>> show_value(Fraction(1, 6)), show_value(Fraction(12)), show_value(Fraction(1, 3 ** 40))
    ('1/6 ≈ 0.1667', '12', '≈ 8.225e-20')
    """
    if x.denominator == 1:
        return str(x.numerator)
    short = max(len(str(abs(x.numerator))), len(str(x.denominator))) <= FRACTION_DIGITS
    approx = f"{float(x):.4g}"
    return f"{x.numerator}/{x.denominator} ≈ {approx}" if short else f"≈ {approx}"


_show = show_value

#: A number as a check's text shows it (``7``, ``1,296``, ``0.1944``, ``8.2e-20``, a
#: value as :func:`show_value` writes it: ``7/36 ≈ 0.1944``), or a small one in words.
_NUMBER_SHOWN = re.compile(r"(?:≈\s*)?[−-]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?"
                     r"(?:\s*/\s*\d[\d,]*)?(?:\s*≈\s*[−-]?\d[\d.]*(?:e[-+]?\d+)?)?"
                     r"|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
                     r"twelve)\b", re.IGNORECASE)


def mistake_kind(mistake: str) -> str:
    """What kind of common mistake a check's ``mistake`` text (``"7/36 ≈ 0.1944: That
    counts cards, not sides. Of the 7 cards …"``) names, whatever the student's own
    numbers: the explanation without its value, every number (in figures or a small one
    in words) as ``#`` and a word after one without its plural ``s``. Two students who
    made the same mistake with numbers of their own get the same kind (its first
    :data:`KIND_CHARS` characters); ``""`` is no known mistake.

    >>> mistake_kind("1/36 ≈ 0.02778: That is for 3 dice to throw; here two are thrown.")
    'That is for # die to throw; here # are thrown.'
    >>> mistake_kind("1/216 ≈ 0.00463: That is for four dice to throw; here 3 are thrown.")
    'That is for # die to throw; here # are thrown.'
    """
    text = str(mistake).strip()
    value, sep, why = text.partition(": ")
    if sep and _NUMBER_SHOWN.sub("", value).strip() == "":
        text = why                                 # the value the student gave
    text = _NUMBER_SHOWN.sub("#", text)
    text = re.sub(r"#(\s+\w+?)(?:s|ce)\b", lambda m: "#" + m.group(1) +
                  ("e" if m.group(0).endswith("ce") else ""), text)
    # A check's text is cut at 200 characters, which ends one student's explanation
    # sooner than another's (their numbers differ in length): the kind is the same
    # first KIND_CHARS characters.
    return re.sub(r"\s+", " ", text).strip()[:KIND_CHARS]


#: How much of a mistake's explanation tells its kind (see :func:`mistake_kind`).
KIND_CHARS = 120


# --- exercises --------------------------------------------------------------------------
@dataclass(eq=False)
class Exercise:
    """A question with an exactly known answer and the mistakes worth explaining.

    ``compute`` gives the exact answer (called once, on first use of
    :attr:`answer`). ``probability`` says the answer is a probability (answers
    outside 0..1 are then refused as such); ``count`` says it is a whole number
    (not a probability). ``tolerance`` decides how close a decimal must be.
    ``title`` heads the question in the answer box (the key does if it is empty).
    ``figure`` draws what the question refers to (an SVG picture, e.g. a position, or an
    HTML table), for a printed worksheet, which has no notebook around it.

    ``computer`` says what on the computer the question needs (``"the chain panel of
    section 2"``), empty when it is done on paper: a printed worksheet marks it.
    ``working`` gives the worked solution for the key (the counts, the cases, the moves:
    what a teacher checks a student's working against). ``shared`` marks an exercise that
    has the same numbers for every student on purpose (for a class discussion);
    ``params`` holds the numbers the question was made from (the deck, the dice, the
    field), so that a test can work the answer out another way. ``points`` is what the
    exercise is worth in a graded notebook (nbgrader).
    """

    key: str
    question: str
    compute: Callable[[], Fraction] = field(repr=False)
    explanation: str = field(repr=False, default="")
    hint: str = field(repr=False, default="")
    mistakes: tuple[Mistake, ...] = field(repr=False, default=())
    title: str = ""
    probability: bool = True
    count: bool = False
    tolerance: Tolerance = SignificantFigures(3)
    figure: Callable[[], str] | None = field(repr=False, default=None)
    computer: str = ""
    working: Callable[[], str] | None = field(repr=False, default=None)
    shared: bool = False
    params: dict[str, Any] = field(repr=False, default_factory=dict)
    points: int = 1
    #: The lesson it belongs to (its :class:`ExerciseSet` says): what a class's tally
    #: files a check under.
    lesson: str = field(repr=False, default="")

    def __post_init__(self) -> None:
        if self.count:
            self.probability = False
        if isinstance(self.points, bool) or not isinstance(self.points, int) \
                or self.points < 1:
            raise ValueError(f"points={self.points!r}: an exercise is worth a whole "
                             "number of points, at least 1")

    @cached_property
    def answer(self) -> Fraction:
        """The exact answer."""
        return Fraction(self.compute())

    def accepts(self, given: Fraction) -> bool:
        """Whether the value ``given`` is right: equal to the answer or, unless the answer
        is a count (a whole number, exact only), within :attr:`tolerance` of it and
        nearer to it than to any known mistake's value. Only the
        value counts, never how it was written: ``"1/2"``, ``"0.50"``, ``0.5`` and
        ``"50%"`` get the same verdict, so a float that lost its last zero (``0.0460``
        is ``0.046``) is judged as typed.

        >>> q = Exercise("q", "?", lambda: Fraction(4603, 100000))
        >>> [q.accepts(read_answer(a)[0]) for a in ("0.0460", 0.0460, "4.6%", "0.047")]
        [True, True, True, False]
        """
        right = self.answer
        if given == right:
            return True
        if self.count or not self.tolerance.allows(given, right):
            return False
        # a value at least as near a known mistake as the key is that mistake (a loose
        # tolerance such as ±0.005 can reach 1/14 from 1/15): judged by value alone
        return all(abs(given - right) < abs(given - m.resolve()) for m in self.mistakes)

    def check(self, answer: Any) -> Verdict:
        """Say whether ``answer`` is right and, if it is wrong, why."""
        try:
            given, exact = read_answer(answer)
        except ValueError as exc:
            form = ("a whole number, e.g. 7" if self.count else
                    "a fraction such as 3/8, a decimal such as 0.375, a percentage such "
                    "as 37.5% or odds such as 3 in 8")
            return Verdict(False, f"Could not read that: {exc}. Write {form}.")
        right, rule = self.answer, self.tolerance
        if exact:
            shown = _show(given)
        else:   # a decimal as it was written ("0.0460" keeps its zero)
            shown = answer.strip() if isinstance(answer, str) else f"{float(given):.6g}"
        if given == right:
            return Verdict(True, f"Right: {_show(right)}. {self.explanation}".strip(), given)
        if self.accepts(given):
            return Verdict(True, f"Right: {_show(right)}; {shown} is right {rule}. "
                                 f"{self.explanation}".strip(), given)
        # a mistake's exact value first, then one within the tolerance (the same rule
        # as for the right answer: two mistakes may lie within it of each other)
        values = [(mistake, mistake.resolve()) for mistake in self.mistakes]
        matched = next((pair for pair in values if given == pair[1]), None) or next(
            (pair for pair in values if not self.count and rule.allows(given, pair[1])),
            None)
        if matched is not None:
            mistake, value = matched
            return Verdict(False, f"Not quite: {shown} is a common mistake. "
                                  f"{mistake.why}", given,
                           mistake=f"{_show(value)}: {mistake.why}"[:200])
        if self.probability and (given < 0 or given > 1):
            if given > 1 and rule.allows(1 / given, right):
                return Verdict(False, f"{shown} looks like the odds '1 in {shown}', not a "
                                      "probability: a probability lies between 0 and 1, "
                                      f"so write 1/{shown}.", given)
            return Verdict(False, f"{shown} cannot be a probability: a probability "
                                  f"lies between 0 and 1. {self.hint}".strip(), given)
        if abs(given - right) <= abs(right) / 20:
            if exact:
                return Verdict(False, f"Close, but {shown} is not the exact value. "
                                      f"{self.hint}".strip(), given)
            return Verdict(False, f"Close, but not right {rule}: {shown}. "
                                  f"{self.hint}".strip(), given)
        return Verdict(False, f"Not right: {shown}. {self.hint}".strip(), given)

    def solution(self) -> str:
        """The answer and the reasoning behind it."""
        return f"{_show(self.answer)}. {self.explanation}".strip()

    def worked(self) -> str:
        """The working for the key: :attr:`working` if the exercise has one, else its
        explanation."""
        return self.working() if self.working is not None else self.explanation

    def _heading_html(self) -> str:
        if self.title:
            return f"<b>{html.escape(self.title)}</b><br>{html.escape(self.question)}"
        return f"<b>{html.escape(self.key)}.</b> {html.escape(self.question)}"

    def _repr_html_(self) -> str:
        return self._heading_html()

    def widget(self) -> Any:
        """The question with an answer box and a Check button (ipywidgets, for
        notebooks and Voila). Pressing Check, or Enter in the box, shows the verdict.

        An answer confirmed once is one check, however it was confirmed: typed then
        Check (the box confirms it as it loses the focus to the button, then the button
        would again), Enter, or Enter then Check. Only a changed answer is checked (and
        sent to a class's tally) again; an empty box is no answer and checks nothing.

        The panel has the CSS class ``janus-exercise`` and the verdict
        ``janus-exercise-verdict``; ``panel.answer_box``, ``panel.check_button`` and
        ``panel.verdict`` are the parts, for scripts and tests that fill in and press.
        """
        import ipywidgets as w

        box = w.Text(placeholder="a whole number" if self.count else "e.g. 3/8 or 0.375",
                     description="Answer:", continuous_update=False,
                     layout=w.Layout(width="16em"))
        button = w.Button(description="Check", button_style="primary", icon="check",
                          layout=w.Layout(width="7em"))
        verdict = w.HTML()
        verdict.add_class("janus-exercise-verdict")

        last: list[str] = []                       # the answer checked last, if any

        def check(value: str) -> None:
            text = value.strip()
            if not text:
                verdict.value = ("<div style='color:#6b4f00'><b>?</b> Write your answer "
                                 "in the box first.</div>")
                return
            if last and last[0] == text:
                return                             # already checked: its verdict shows
            last[:] = [text]
            verdict.value = check_answer(self, text)._repr_html_()

        def show_earlier(text: str) -> None:
            # The student's answer from before the page was reloaded, and its verdict
            # (the class has it already: not sent again); never over one typed since.
            if last or box.value.strip():
                return
            last[:] = [text]
            box.value = text
            verdict.value = (self.check(text)._repr_html_()
                             + f"<div class='{EARLIER_CLASS}' style='color:#555'>"
                               "Your answer from before: your teacher has it.</div>")

        button.on_click(lambda _: check(box.value))
        # Enter, or leaving the box for the button, confirms the answer too.
        box.observe(lambda change: check(change["new"]), names="value")
        from .class_link import restore
        restore(self.lesson, self.key, show_earlier)
        # a question a panel of the page answers says so, as the printed sheet does
        needs = (f"<br><i class='janus-exercise-computer'>Needs the computer: "
                 f"{html.escape(self.computer)}.</i>" if self.computer else "")
        panel = w.VBox([w.HTML(f"<p>{self._heading_html()}{needs}</p>"), w.HBox([box, button]),
                        verdict],
                       layout=w.Layout(border="1px solid #c9c2b0", padding="8px",
                                       margin="6px 0"))
        panel.add_class("janus-exercise")
        panel.answer_box, panel.check_button, panel.verdict = (  # type: ignore[attr-defined]
            box, button, verdict)
        return panel


def check_answer(exercise: Exercise, answer: Any) -> Verdict:
    """Check a student's ``answer`` to ``exercise``: the one path every check takes (the
    answer box's Check button and Enter, a graded notebook's test cell, a script), so
    that what happens on a check (recording it, reporting it to a class server) is added
    in one place, here.

    >>> check_answer(Exercise("c", "Heads?", lambda: Fraction(1, 2)), "1/2").correct
    True
    """
    verdict = exercise.check(answer)
    from .class_link import report
    report(exercise.lesson, exercise.key, answer, verdict.kind, verdict.mistake)
    return verdict


@lru_cache(maxsize=256)
def _students_set(lesson: str, student: str | None) -> ExerciseSet:
    return exercise_sets(student=student)[lesson]


def verdict_of(lesson: str, question: str, student: str | None, answer: str
               ) -> tuple[str, str]:
    """The verdict (``"right"``, ``"wrong"``, ``"invalid"``) and the mistake matched of
    ``answer`` to ``question`` of ``lesson`` with ``student``'s numbers (``None``: the
    class's), as the lesson page's own check finds them: what the table server keeps
    for the teacher's tally, whatever verdict the page sent.

    >>> verdict_of("jactus-odds", "q1", None, "1/1296")
    ('right', '')
    >>> verdict, mistake = verdict_of("jactus-odds", "q1", None, "1/7776")
    >>> verdict, "particular face" in mistake
    ('wrong', True)
    """
    verdict = getattr(_students_set(lesson, student), question).check(answer)
    return verdict.kind, verdict.mistake


def grade(exercise: Exercise, answer: Any) -> Verdict:
    """A graded notebook's test (nbgrader): passes when ``answer`` is right, and
    otherwise fails with what the check says (a common mistake named, or a hint), which
    the grader shows the student.

    >>> grade(Exercise("c", "Heads?", lambda: Fraction(1, 2)), "1 in 2").correct
    True
    >>> grade(Exercise("c", "Heads?", lambda: Fraction(1, 2)), None)
    Traceback (most recent call last):
    ...
    AssertionError: No answer yet: write your answer in the cell above, e.g. 3/8.
    """
    if answer is None or (isinstance(answer, str) and not answer.strip()):
        raise AssertionError("No answer yet: write your answer in the cell above, e.g. "
                             + ("7." if exercise.count else "3/8."))
    verdict = check_answer(exercise, answer)
    if not verdict.correct:
        raise AssertionError(verdict.message)
    return verdict


def grade_exercise(lesson: str, key: str, answer: Any, student: str | None = None) -> Verdict:
    """:func:`grade` for exercise ``key`` of ``lesson`` (its notebook's file stem), with
    ``student``'s numbers: what an nbgrader notebook's hidden test runs. The exercises are
    drawn here and kept nowhere, so the notebook holds no key a student could read.

    >>> grade_exercise("roman-dice", "q3", "1/216").correct
    True
    >>> grade_exercise("roman-dice", "nope", 1)
    Traceback (most recent call last):
    ...
    AttributeError: no exercise 'nope' in roman-dice: there are q1, q2, q3, q4, q5
    """
    return grade(getattr(exercise_sets(student)[lesson], key), answer)


def nbgrader_student() -> str | None:
    """The nbgrader student id of the notebook running now: what a graded lesson's
    numbers are drawn for (:func:`~janus_widgets.analysis.lessons.nbgrader_notebook`).

    * ``nbgrader autograde`` (it sets ``NBGRADER_EXECUTION=autograde``) runs each
      submission in ``autograded/<student id>/<assignment>/``: the id is that folder's
      name, the one nbgrader files the grade under;
    * anywhere else (the student's own server, ``nbgrader validate``) it is the id
      nbgrader's exchange files a submission under: ``JUPYTERHUB_USER`` on a
      JupyterHub, else the login name.
    * ``JANUS_STUDENT_ID``, when set, wins over both (a course that collects work
      another way, e.g. ``zip_collect``, names its students itself).

    >>> import os
    >>> os.environ["JANUS_STUDENT_ID"] = "s07"
    >>> nbgrader_student()
    's07'
    >>> del os.environ["JANUS_STUDENT_ID"]
    """
    import getpass
    import os
    from pathlib import Path
    named = os.environ.get("JANUS_STUDENT_ID", "").strip()
    if named:
        return named
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        here = Path.cwd()
        if here.parent.parent.name != "autograded":
            raise RuntimeError(f"nbgrader autograde runs this notebook in {here}, not in "
                               "autograded/<student id>/<assignment>/ (nbgrader's default "
                               "layout): set JANUS_STUDENT_ID to the student's id")
        return here.parent.name
    hub = os.environ.get("JUPYTERHUB_USER", "").strip()
    return hub or getpass.getuser()


@dataclass(frozen=True)
class QuestionText:
    """One exercise's question as a notebook shows it (Markdown), with no answer: what a
    graded lesson's question cell displays for the student running it.

    >>> text = exercise_question("roman-dice", "q3", None, heading="**Exercise 3.**")
    >>> text.markdown.startswith("**Exercise 3.** Three cube dice")
    True
    """

    markdown: str

    def _repr_markdown_(self) -> str:
        return self.markdown

    def __str__(self) -> str:
        return self.markdown


def exercise_question(lesson: str, key: str, student: str | None, *,
                      heading: str = "") -> QuestionText:
    """Exercise ``key`` of ``lesson``'s question with ``student``'s numbers (and what it
    needs of the computer, if anything), after ``heading``; never its answer."""
    exercise = getattr(exercise_sets(student)[lesson], key)
    computer = f"\n\n*Needs the computer: {exercise.computer}.*" if exercise.computer else ""
    who = f"\n\n*(The numbers of student {student}.)*" if student else ""
    return QuestionText(f"{heading} {exercise.question}".strip() + computer + who)


T = TypeVar("T")


def spread(rng: np.random.Generator, options: Sequence[T],
           value: Callable[[T], Fraction], *, avoid: Iterable[Fraction] = ()) -> T:
    """One of ``options`` for a student, drawn so that every different answer
    (``value(option)``) is equally likely and none is in ``avoid`` (the class's key):
    how a lesson gives 30 students answers of their own, never the class's. Options that
    give the same answer share its chance.

    >>> rng = np.random.default_rng(1)
    >>> picks = [spread(rng, range(1, 41), lambda n: Fraction(1, n), avoid={Fraction(1, 6)})
    ...          for _ in range(400)]
    >>> 6 in picks, len(set(picks)) == 39
    (False, True)
    """
    banned = set(avoid)
    by_value: dict[Fraction, list[T]] = {}
    for option in options:
        v = Fraction(value(option))
        if v not in banned:
            by_value.setdefault(v, []).append(option)
    if not by_value:
        raise ValueError("every option gives an answer to avoid: nothing to draw")
    values = sorted(by_value)
    group = by_value[values[int(rng.integers(len(values)))]]
    return group[int(rng.integers(len(group)))]


#: Builds a lesson's exercises: ``build(None)`` gives the numbers printed for the whole
#: class, ``build(rng)`` a student's own numbers drawn from ``rng``.
Builder = Callable[[np.random.Generator | None], list[Exercise]]


def student_rng(lesson: str, student: str) -> np.random.Generator:
    """The generator that draws ``student``'s numbers for ``lesson``: the same id gives
    the same numbers on every machine, another id (almost surely) others.

    >>> a, b = student_rng("roman-dice", "ada"), student_rng("roman-dice", "ada")
    >>> int(a.integers(10**9)) == int(b.integers(10**9))
    True
    """
    if not isinstance(student, str) or not student.strip():
        raise ValueError(f"a student id is non-empty text, not {student!r}")
    digest = hashlib.sha256(f"janus_widgets:{lesson}:{student.strip()}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "big"))


class ExerciseSet:
    """The exercises of one lesson, as attributes ``q1``, ``q2``, … in order.

    Made from a list, or from a :data:`Builder` so that every student can get numbers
    of their own (:meth:`for_student`); the checker of a student's set accepts that
    student's answers.

    >>> def build(rng):
    ...     n = 6 if rng is None else int(rng.integers(4, 13))
    ...     return [Exercise("q1", f"A fair die with {n} faces: the chance of a 1?",
    ...                      lambda: Fraction(1, n))]
    >>> lesson = ExerciseSet("demo", build=build)
    >>> lesson.q1.question, lesson.q1.answer, lesson.student
    ('A fair die with 6 faces: the chance of a 1?', Fraction(1, 6), None)
    >>> mine = lesson.for_student("ada")
    >>> mine.student, mine.q1.answer == lesson.for_student("ada").q1.answer
    ('ada', True)
    """

    def __init__(self, name: str, exercises: list[Exercise] | None = None, *,
                 build: Builder | None = None, student: str | None = None) -> None:
        if (exercises is None) == (build is None):
            raise TypeError("give an ExerciseSet either its exercises or a build function")
        if build is not None:
            exercises = build(None if student is None else student_rng(name, student))
        elif student is not None:
            raise TypeError("only a set made with build= has numbers per student")
        self.name = name
        self.student = None if student is None else student.strip()
        self._build = build
        self._exercises = {e.key: e for e in exercises}
        for exercise in exercises:
            exercise.lesson = exercise.lesson or name

    def for_student(self, student: str | None) -> ExerciseSet:
        """This lesson's exercises with ``student``'s own numbers (``None``: the
        class's). A set without a build function has the same numbers for everyone."""
        if student is None:
            return self if self.student is None else ExerciseSet(self.name,
                                                                 build=self._build)
        if self._build is None:
            return self
        return ExerciseSet(self.name, build=self._build, student=student)

    @property
    def varies(self) -> bool:
        """Whether students get numbers of their own."""
        return self._build is not None
    def __getattr__(self, key: str) -> Exercise:
        try:
            return self.__dict__["_exercises"][key]
        except KeyError:
            raise AttributeError(f"no exercise {key!r} in {self.name}: there are "
                                 + ", ".join(self._exercises)) from None

    def __iter__(self) -> Iterator[Exercise]:
        return iter(self._exercises.values())

    def __len__(self) -> int:
        return len(self._exercises)

    def __dir__(self) -> list[str]:
        return [*super().__dir__(), *self._exercises]

    def __repr__(self) -> str:
        who = f", student={self.student!r}" if self.student else ""
        return f"ExerciseSet({self.name!r}, {list(self._exercises)}{who})"


#: Each lesson's exercises: the notebook's file stem → where its ExerciseSet lives.
LESSON_EXERCISES: dict[str, str] = {
    "jactus-odds": "janus_widgets.analysis.exercises:jactus_odds",
    "jactus-strategy": "janus_widgets.analysis.exercises:jactus_strategy",
    "roman-dice": "janus_widgets.analysis.exercises:roman_dice",
    "what-can-i-know": "janus_widgets.analysis.card_exercises:CARD_LESSON",
    "janus-tolls": "janus_widgets.analysis.janus_lesson:JANUS_LESSON",
    "jinns-counting": "janus_widgets.analysis.jinns_lesson:JINNS_LESSON",
    "game-design-lab": "janus_widgets.analysis.design_exercises:EXERCISES",
    "solving-jactus": "janus_widgets.analysis.solving_lesson:solving_jactus",
}


class _LessonSets(Mapping[str, ExerciseSet]):
    """Every lesson's exercises for one student, each drawn when first asked for (a
    lesson's page, or one answer's check, draws its own lesson only)."""

    def __init__(self, student: str | None) -> None:
        self.student = student
        self._drawn: dict[str, ExerciseSet] = {}

    def __getitem__(self, stem: str) -> ExerciseSet:
        if stem not in self._drawn:
            import importlib
            module, _, attribute = LESSON_EXERCISES[stem].partition(":")
            lesson = getattr(importlib.import_module(module), attribute)
            self._drawn[stem] = lesson.for_student(self.student)
        return self._drawn[stem]

    def __contains__(self, stem: object) -> bool:
        return stem in LESSON_EXERCISES

    def __iter__(self) -> Iterator[str]:
        return iter(LESSON_EXERCISES)

    def __len__(self) -> int:
        return len(LESSON_EXERCISES)


def exercise_sets(student: str | None = None) -> Mapping[str, ExerciseSet]:
    """Every lesson's :class:`ExerciseSet` by the lesson notebook's file stem, with
    ``student``'s own numbers where the lesson has them (each lesson's drawn when it is
    first looked up: a page asks for its own lesson only).

    >>> sets = exercise_sets()
    >>> "roman-dice" in sets and sets["roman-dice"].q1.key
    'q1'
    """
    return _LessonSets(student)


_NOT_YET = object()
#: The class of the line under an answer a reloaded page showed again.
EARLIER_CLASS = "janus-exercise-earlier"


def _students_id_on_this_page() -> Any:
    """The page's ``STUDENT_ID`` if its parameters cell has run in this kernel, else
    :data:`_NOT_YET` (no kernel, or a preheated page that has not had its request)."""
    try:
        from IPython import get_ipython
    except ImportError:                     # pragma: no cover - IPython comes with ipywidgets
        return _NOT_YET
    shell = get_ipython()
    if shell is None:
        return _NOT_YET
    return shell.user_ns.get("STUDENT_ID", _NOT_YET)


class ExerciseSlots:
    """A lesson's exercise boxes, put on the page before the page knows its student.

    A classroom's lesson page is run before a student asks for it and stops at the first
    cell that needs its student (:mod:`janus_widgets.analysis.preheat`): everything
    after that point runs, and is drawn, again for each of the 30 pages opened at once.
    A lesson whose exercises sit between its sections places their boxes early with
    ``slots = ExerciseSlots("solving-jactus")`` and ``slots["q1"]``, and fills them
    all in its last cell with ``slots.fill(exercise_sets(student=STUDENT_ID)[...])``.
    Where the student is known from the start (JupyterLab, a page made on request:
    the parameters cell ran first and set ``STUDENT_ID``), the boxes are filled at once;
    :meth:`fill` with the same exercises again keeps what a student typed.

    >>> slots = ExerciseSlots("roman-dice")
    >>> box = slots["q1"]; len(box.children)              # no kernel: waits for fill
    0
    >>> slots.fill(exercise_sets()["roman-dice"]); len(box.children)
    1
    >>> slots["q9"]
    Traceback (most recent call last):
    ...
    KeyError: "roman-dice has no exercise 'q9': it has q1, q2, q3, q4, q5"
    """

    def __init__(self, lesson: str) -> None:
        import ipywidgets as w
        if lesson not in LESSON_EXERCISES:
            raise ValueError(f"no lesson {lesson!r}; the lessons are: "
                             + ", ".join(LESSON_EXERCISES))
        self.lesson = lesson
        self.exercises: ExerciseSet | None = None
        keys = [e.key for e in exercise_sets()[lesson]]
        self._boxes = {key: w.VBox() for key in keys}
        student = _students_id_on_this_page()
        if student is not _NOT_YET:
            self.fill(exercise_sets(student=student)[lesson])

    def __getitem__(self, key: str) -> Any:
        if key not in self._boxes:
            raise KeyError(f"{self.lesson} has no exercise {key!r}: it has "
                           + ", ".join(self._boxes))
        return self._boxes[key]

    def fill(self, exercises: ExerciseSet) -> None:
        """Put ``exercises``' answer boxes into the slots (the same set again: nothing
        changes, so nothing typed is lost)."""
        if exercises.name != self.lesson:
            raise ValueError(f"these slots are {self.lesson}'s, not {exercises.name}'s")
        same = self.exercises is not None and self.exercises.student == exercises.student
        if same:
            return
        self.exercises = exercises
        for exercise in exercises:
            self._boxes[exercise.key].children = [exercise.widget()]

"""Numbers as people read them: a short fraction when there is one, else a decimal.

Exact arithmetic (:class:`fractions.Fraction`) is what the engines and the odds use;
people read ``1/1296``, not ``705192673542423/1125899906842624`` (a float's exact
value) or a fraction with forty digits. Every number a student reads in a panel,
a lesson or the status line goes through these helpers.

>>> from fractions import Fraction
>>> short_number(Fraction(1, 1296)), short_number(0.6263369143710156), short_number(3)
('1/1296', '0.6263', '3')
>>> readable(Fraction(1, 1296)), readable(705192673542423 / 1125899906842624)
('1/1296 ≈ 0.0007716', '0.6263')
>>> shared_denominator([Fraction(1, 216), Fraction(1, 1296), 0])
['6/1296', '1/1296', '0']
>>> shared_denominator([Fraction(1, 3), Fraction(1, 7919)])     # no short common one
['0.33333', '0.00013']
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction
from numbers import Real

__all__ = ["LONGEST_DENOMINATOR", "LESSON_DENOMINATOR", "as_fraction", "short_number", "readable",
           "shared_denominator", "decimal"]

#: The largest denominator shown as a fraction (6⁵ = 7776 dice throws fit).
LONGEST_DENOMINATOR = 10_000


def as_fraction(value: Real | Fraction | str) -> Fraction:
    """The exact value of an int, a Fraction, a float or a text like ``'3/8'``."""
    if isinstance(value, bool):
        raise TypeError(f"{value!r} is a truth value, not a number")
    return Fraction(value)  # type: ignore[arg-type]


def decimal(value: Real | Fraction, digits: int = 4) -> str:
    """``digits`` significant digits, without an exponent for everyday sizes.

    >>> decimal(Fraction(1, 3)), decimal(Fraction(1, 1296)), decimal(1234.5)
    ('0.3333', '0.0007716', '1234')
    """
    x = float(value)
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else ("∞" if x > 0 else "-∞")
    text = f"{x:.{digits}g}"
    if "e" in text and 1e-6 <= abs(x) < 1e15:
        places = max(0, digits - 1 - math.floor(math.log10(abs(x))))
        text = f"{x:.{places}f}"
    return text


def short_number(value: Real | Fraction, limit: int = LONGEST_DENOMINATOR) -> str:
    """A whole number, a fraction whose denominator is at most ``limit``, or else a
    4-digit decimal (a float's long exact fraction is never shown).

    >>> short_number(Fraction(2, 4)), short_number(Fraction(10**40 + 1, 10**41))
    ('1/2', '0.1')
    """
    if isinstance(value, float):
        if not math.isfinite(value):
            return decimal(value)
        # A float is a fraction only when a short one is that close (0.25, 1/3).
        close = Fraction(value).limit_denominator(min(limit, LONGEST_DENOMINATOR))
        if abs(float(close) - value) <= 1e-12 * max(1.0, abs(value)):
            value = close
        else:
            return decimal(value)
    x = as_fraction(value)
    if x.denominator == 1:
        return str(x.numerator)
    if x.denominator <= limit:
        return f"{x.numerator}/{x.denominator}"
    return decimal(x)


#: In a lesson, an exact fraction is worth showing up to this denominator (seven digits).
LESSON_DENOMINATOR = 10_000_000


def readable(value: Real | Fraction, limit: int = LESSON_DENOMINATOR,
             mark_approximate: bool = False) -> str:
    """For a lesson: the exact fraction and its decimal (``'1/36 ≈ 0.02778'``), while the
    fraction has at most seven-digit numbers; else the decimal alone (a float's exact
    value, ``705192673542423/1125899906842624``, is never shown). With
    ``mark_approximate``, a decimal alone that is not the exact value says so (``≈``):
    a panel of exact chances then never passes a rounded one off as exact.

    >>> readable(2), readable(float("inf")), readable(Fraction(123456789, 10**12))
    ('2', '∞', '0.0001235')
    >>> readable(Fraction(123456789, 10**12), mark_approximate=True)
    '≈ 0.0001235'
    >>> readable(Fraction(1, 4), mark_approximate=True), readable(3, mark_approximate=True)
    ('1/4 ≈ 0.25', '3')
    """
    text = short_number(value, limit)
    if "/" in text:
        return f"{text} ≈ {decimal(value)}"
    if mark_approximate and math.isfinite(value) and Fraction(text) != as_fraction(value):
        return f"≈ {text}"
    return text


def shared_denominator(values: Iterable[Real | Fraction],
                       limit: int = LONGEST_DENOMINATOR) -> list[str]:
    """Probabilities for one panel, comparable at a glance: all over one common
    denominator when it is at most ``limit``, else all as decimals with the same
    number of places (zero stays ``'0'``, certainty ``'1'``)."""
    exact = [as_fraction(v) for v in values]
    common = 1
    for x in exact:
        common = math.lcm(common, x.denominator)
        if common > limit:
            break
    if common <= limit:
        return [str(x.numerator) if x.denominator == 1 and x in (0, 1) else
                f"{x.numerator * (common // x.denominator)}/{common}" for x in exact]
    smallest = min((abs(x) for x in exact if x), default=Fraction(1))
    # Enough places for two significant digits of the smallest one (3 to 8 places).
    places = max(3, min(8, 1 - math.floor(math.log10(float(smallest)))))
    return ["0" if x == 0 else "1" if x == 1 else f"{float(x):.{places}f}" for x in exact]

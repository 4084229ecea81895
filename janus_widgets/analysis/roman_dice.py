"""Roman dice, exactly: the tali (four knucklebones) and the tesserae (three cube dice).

Jactus is sold as an "ancient Roman dice game", and its names come from Roman
throws (see ``FACTS.md``):

* **tali**: four knucklebones, each landing on a face counted 1, 3, 4 or 6. The
  *Venus* throw shows four different faces; the *dog* (canis) four 1s.
* **tesserae**: three ordinary cube dice. Three 6s are the *Venus*, three 1s the
  *dog*. Ancient writers name the Venus throw of the *tali*; that three sixes, the
  best throw of the tesserae, were called Venus too is a modern handbook's word,
  and here our convention (the lesson ``roman-dice`` gives the sources).

The odds are computed the way :mod:`~janus_widgets.analysis.jactus_odds` computes
Jactus odds: every sorted outcome of a throw with its exact chance
(:class:`~janus_widgets.analysis.jactus_odds.DiceModel`), and an absorbing Markov
chain for "how many throws until …" (:func:`~janus_widgets.analysis.jactus_odds.model_chain`).

Real knucklebones do **not** land on each face equally often. Equal chances are
the *model* here; pass your own face probabilities as exact fractions (or whole
number weights) to see what changes.

>>> TALI.odds()
{'venus': Fraction(3, 32), 'dog': Fraction(1, 256)}
>>> TESSERAE.odds()
{'venus': Fraction(1, 216), 'dog': Fraction(1, 216)}
>>> tali(weights=KNUCKLEBONE_STUDY_WEIGHTS).odds()
{'venus': Fraction(24, 625), 'dog': Fraction(1, 10000)}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Union

from .jactus_odds import DiceModel, ThrowChain, model_chain

__all__ = ["RomanGame", "tali", "tesserae", "TALI", "TESSERAE", "TALI_FACES",
           "KNUCKLEBONE_STUDY_WEIGHTS", "ROMAN_THROWS"]

TALI_FACES = (1, 3, 4, 6)
DIE_FACES = (1, 2, 3, 4, 5, 6)

#: Rounded from a small modern throwing study of sheep knucklebones (P. Winkelman
#: for MacGregor Historic Games, 2001: five bones of a modern game set, each thrown
#: 100 times on each of two surfaces; usually quoted as about 10 % / 40 % / 40 % /
#: 10 % for the faces 1 / 3 / 4 / 6). An illustration of unequal faces, not a
#: measurement of Roman tali: real bones differ from one another.
KNUCKLEBONE_STUDY_WEIGHTS = {1: 1, 3: 4, 4: 4, 6: 1}

Dice = tuple[int, ...]
ProbabilitiesLike = Union[Mapping[int, Any], Sequence[Any], None]


def _venus_tali(dice: Dice) -> bool:
    return len(set(dice)) == 4


def _dog(dice: Dice) -> bool:
    return all(v == 1 for v in dice)


def _venus_tesserae(dice: Dice) -> bool:
    return all(v == 6 for v in dice)


def _keep_distinct(dice: Dice) -> Dice:
    """Tali, hoping for Venus: keep one knucklebone of each face showing (at most 3)."""
    return tuple(sorted(set(dice)))[:len(dice) - 1]


def _keep_ones(dice: Dice) -> Dice:
    ones = tuple(v for v in dice if v == 1)
    return ones[:len(dice) - 1]


def _keep_sixes(dice: Dice) -> Dice:
    sixes = tuple(v for v in dice if v == 6)
    return sixes[:len(dice) - 1]


#: For each game: throw name -> (description, test, the keeping rule of a player who
#: could keep dice between throws as in Jactus).
ROMAN_THROWS: dict[str, dict[str, tuple[str, Callable[[Dice], bool], Callable[[Dice], Dice]]]] = {
    "tali": {
        "venus": ("Venus: the four tali show four different faces", _venus_tali,
                  _keep_distinct),
        "dog": ("the dog (canis): all four tali show 1", _dog, _keep_ones),
    },
    "tesserae": {
        "venus": ("Venus: three sixes", _venus_tesserae, _keep_sixes),
        "dog": ("the dog (canis): three ones", _dog, _keep_ones),
    },
}


def _exact(value: Any, where: str) -> Fraction:
    if isinstance(value, bool) or isinstance(value, float):
        raise ValueError(f"{where}: {value!r} is not exact: give a fraction such as "
                         "Fraction(1, 10) or '1/10', or whole-number weights")
    try:
        return Fraction(value)
    except (TypeError, ValueError):
        raise ValueError(f"{where}: {value!r} is not a number: give a fraction such as "
                         "Fraction(1, 10) or '1/10'") from None


def _face_values(faces: Sequence[int], given: ProbabilitiesLike, what: str
                 ) -> tuple[Fraction, ...] | None:
    if given is None:
        return None
    if isinstance(given, Mapping):
        unknown = set(given) - set(faces)
        missing = set(faces) - set(given)
        if unknown or missing:
            raise ValueError(f"{what}: give a value for each face {faces} "
                             f"(missing {sorted(missing)}, unknown {sorted(unknown)})")
        values = [given[f] for f in faces]
    else:
        values = list(given)
        if len(values) != len(faces):
            raise ValueError(f"{what}: give {len(faces)} values, for the faces {faces} in "
                             f"order (got {len(values)})")
    return tuple(_exact(v, f"{what} of face {f}") for f, v in zip(faces, values))


def _model(name: str, faces: Sequence[int], dice: int, probabilities: ProbabilitiesLike,
           weights: ProbabilitiesLike) -> DiceModel:
    if probabilities is not None and weights is not None:
        raise ValueError("give probabilities or weights, not both")
    probs = _face_values(faces, probabilities, "probabilities")
    wts = _face_values(faces, weights, "weights")
    if wts is not None:
        if any(w < 0 for w in wts) or sum(wts) <= 0:
            raise ValueError(f"weights {tuple(map(str, wts))}: each 0 or more, not all 0")
        probs = tuple(w / sum(wts) for w in wts)
    if probs is None:
        probs = tuple(Fraction(1, len(faces)) for _ in faces)
    return DiceModel(name, tuple(faces), probs, dice)


@dataclass(frozen=True)
class RomanGame:
    """One of the Roman throws: the dice model and its named throws."""

    name: str
    model: DiceModel

    @property
    def throws(self) -> dict[str, str]:
        """Named throws and what they show."""
        return {k: v[0] for k, v in ROMAN_THROWS[self.name].items()}

    def _throw(self, throw: str) -> tuple[str, Callable[[Dice], bool], Callable[[Dice], Dice]]:
        table = ROMAN_THROWS[self.name]
        if throw not in table:
            raise ValueError(f"throw={throw!r} is not a throw of the {self.name}: use one of "
                             + ", ".join(repr(k) for k in table))
        return table[throw]

    def odds(self) -> dict[str, Fraction]:
        """The exact chance of each named throw with one throw of all the dice."""
        return {k: self.model.chance(v[1]) for k, v in ROMAN_THROWS[self.name].items()}

    def outcomes(self) -> list[tuple[Dice, Fraction, str]]:
        """Every sorted outcome, its exact chance and its name ('' if unnamed)."""
        out = []
        for dice, p in self.model.outcomes():
            names = [k for k, v in ROMAN_THROWS[self.name].items() if v[1](dice)]
            out.append((dice, p, ", ".join(names)))
        return out

    def chain(self, throw: str = "venus", keep: bool = False) -> ThrowChain:
        """The chain of throwing until ``throw``. ``keep=False``: all the dice every
        time, as the Romans threw; ``keep=True``: keeping useful dice as in Jactus.

        Keeping tali for the Venus, the states are merged by how many different faces
        are kept when the faces are equally likely (with unequal faces, which faces
        are kept matters, and the states stay apart).

        >>> TALI.chain(keep=True).labels
        ('nothing kept', '1 face kept', '2 different faces kept', '3 different faces kept')
        """
        title, event, keeper = self._throw(throw)
        chain = model_chain(self.model, event, keeper if keep else (lambda dice: ()), title)
        if keep and self.name == "tali" and throw == "venus":
            try:
                return chain.lumped(len, lambda k: ("nothing kept" if k == 0 else
                                                    "1 face kept" if k == 1 else
                                                    f"{k} different faces kept"))
            except ValueError:
                pass
        return chain

    def expected_throws(self, throw: str = "venus", keep: bool = False) -> Fraction:
        """The exact expected number of throws until ``throw``.

        >>> TALI.expected_throws(), TALI.expected_throws(keep=True)
        (Fraction(32, 3), Fraction(34, 7))
        """
        return self.chain(throw, keep).expected()  # type: ignore[return-value]

    def within(self, n: int, throw: str = "venus", keep: bool = False) -> Fraction:
        """The exact chance of ``throw`` within ``n`` throws.

        >>> TESSERAE.within(2) == 1 - Fraction(215, 216) ** 2
        True
        """
        return self.chain(throw, keep).within(n)


def tali(probabilities: ProbabilitiesLike = None, *, weights: ProbabilitiesLike = None
         ) -> RomanGame:
    """Four tali with faces 1, 3, 4, 6: equal chances (the model), or exact
    ``probabilities`` (a mapping face -> fraction, or four values in face order,
    adding up to 1), or whole-number ``weights``.

    >>> tali({1: "1/10", 3: "2/5", 4: "2/5", 6: "1/10"}) == tali(weights=(1, 4, 4, 1))
    True
    >>> tali((0.1, 0.4, 0.4, 0.1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: probabilities of face 1: 0.1 is not exact: give a fraction such as ...
    """
    return RomanGame("tali", _model("tali", TALI_FACES, 4, probabilities, weights))


def tesserae(probabilities: ProbabilitiesLike = None, *, weights: ProbabilitiesLike = None
             ) -> RomanGame:
    """Three cube dice, faces 1–6: equal chances, or your exact probabilities/weights."""
    return RomanGame("tesserae", _model("tesserae", DIE_FACES, 3, probabilities, weights))


TALI = tali()
TESSERAE = tesserae()

"""Seeded randomness: every random choice in the package comes from here.

Two tools, both built on :class:`numpy.random.Generator`:

* :func:`chance_rng` gives the generator for the chance point at one ply of a
  seeded game. Going back in a replay and throwing again at the same ply gives
  the same dice, on any machine; the outcome is recorded anyway, so a record
  never depends on the generator's stream.
* :class:`RandomStream` serves uniform numbers from blocks drawn from one
  generator. Playouts, bots and benchmarks call it millions of times, where a
  call into numpy per number would cost more than the game step itself.

>>> a, b = RandomStream(7), RandomStream(7)
>>> [a.below(6) for _ in range(5)] == b.take_below(6, 5)
True
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

from .errors import ArgumentError

__all__ = ["chance_rng", "fresh_seed", "RandomStream", "as_generator"]

T = TypeVar("T")

SEED_BITS = 63


def fresh_seed() -> int:
    """A new seed drawn with :mod:`secrets` (the operating system's cryptographic
    source), kept so the game replays. Nothing a seat sees predicts it: the chance
    outcomes it drives follow from it, so it is shown only in the teacher's view and
    written only to the full record.

    >>> 0 <= fresh_seed() < 2**63
    True
    """
    return secrets.randbits(SEED_BITS)


def check_seed(seed: object, argument: str = "seed") -> int:
    """Return ``seed`` as an int, or raise :class:`ArgumentError` saying what is allowed.

    >>> check_seed(7)
    7
    >>> check_seed(-1)
    Traceback (most recent call last):
    ...
    janus_widgets.core.errors.ArgumentError: seed=-1 is not allowed: use a whole number from 0 to 2**63 - 1.
    """
    allowed = "a whole number from 0 to 2**63 - 1"
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        raise ArgumentError(argument, seed, allowed)
    seed = int(seed)
    if not 0 <= seed < (1 << SEED_BITS):
        raise ArgumentError(argument, seed, allowed)
    return seed


def check_rng(rng: object) -> np.random.Generator | None:
    """``rng`` as a chance point takes it: a numpy ``Generator``, a seed (a whole number
    from 0 to 2**63 - 1, made into a Generator) or ``None`` (the game's own seed and
    ply decide); anything else raises :class:`ArgumentError` naming ``rng``.

    >>> check_rng(None) is None, type(check_rng(3)).__name__
    (True, 'Generator')
    >>> check_rng("x")
    Traceback (most recent call last):
    ...
    janus_widgets.core.errors.ArgumentError: rng='x' is not allowed: use a numpy Generator (np.random.default_rng(seed)), a whole-number seed from 0 to 2**63 - 1, or None (the game's own seed and ply decide).
    """
    if rng is None or isinstance(rng, np.random.Generator):
        return rng
    allowed = ("a numpy Generator (np.random.default_rng(seed)), a whole-number seed from "
               "0 to 2**63 - 1, or None (the game's own seed and ply decide)")
    try:
        return np.random.default_rng(check_seed(rng, "rng"))
    except ArgumentError:
        raise ArgumentError("rng", rng, allowed) from None


def chance_rng(seed: int, ply: int) -> np.random.Generator:
    """The generator that decides the chance point at ``ply`` of game ``seed``.

    >>> int(chance_rng(1, 3).integers(6)) == int(chance_rng(1, 3).integers(6))
    True
    """
    return np.random.default_rng(np.random.SeedSequence([seed, ply]))


def as_generator(rng: np.random.Generator | int | None) -> np.random.Generator:
    """Accept a Generator or a seed; ``None`` is refused (randomness must be seeded)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        raise ArgumentError("rng", None, "a seeded numpy Generator or a whole-number seed "
                            "(randomness must be seeded)")
    return np.random.default_rng(check_seed(rng))


class RandomStream:
    """Uniform numbers drawn in blocks from one seeded numpy Generator.

    ``below(n)`` is a fair choice of ``0 … n-1`` (to within 2**-53), ``uniform()``
    a float in [0, 1). The stream is reproducible for a given seed and block
    size.
    """

    __slots__ = ("_rng", "_block", "_buf", "_pos", "_n")

    def __init__(self, rng: np.random.Generator | int, block: int = 4096) -> None:
        self._rng = as_generator(rng)
        self._block = block
        self._buf: list[float] = []
        self._pos = 0
        self._n = 0

    @property
    def generator(self) -> np.random.Generator:
        """The underlying numpy Generator."""
        return self._rng

    def _refill(self) -> None:
        self._buf = self._rng.random(self._block).tolist()
        self._pos = 0
        self._n = self._block

    def uniform(self) -> float:
        """A float in [0, 1)."""
        if self._pos == self._n:
            self._refill()
        u = self._buf[self._pos]
        self._pos += 1
        return u

    def below(self, n: int) -> int:
        """A whole number in ``0 … n-1``."""
        if self._pos == self._n:
            self._refill()
        u = self._buf[self._pos]
        self._pos += 1
        return int(u * n)

    def take_below(self, n: int, count: int) -> list[int]:
        """``count`` draws of :meth:`below`."""
        return [self.below(n) for _ in range(count)]

    def choice(self, items: Sequence[T]) -> T:
        """One item of a non-empty sequence, uniformly."""
        return items[self.below(len(items))]

    def weighted(self, weights: Sequence[float]) -> int:
        """An index drawn with probability proportional to ``weights``."""
        total = float(sum(weights))
        u = self.uniform() * total
        acc = 0.0
        for i, w in enumerate(weights):
            acc += w
            if u < acc:
                return i
        return len(weights) - 1

    def spawn_seed(self) -> int:
        """A seed for an independent generator (for a bot, a sub-simulation)."""
        return int(self._rng.integers(0, 1 << SEED_BITS))

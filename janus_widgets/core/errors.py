"""Errors raised by every game.

All of them are :class:`ValueError` subclasses, so ``except ValueError`` catches
them, and every message says what was wrong, which rule refuses it and what
would have been allowed (the python-chess convention).
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "JanusError",
    "InvalidMoveError",
    "IllegalMoveError",
    "RecordError",
    "VariantError",
    "ArgumentError",
    "format_options",
]


class JanusError(ValueError):
    """Base class of every error this package raises on bad input."""


class InvalidMoveError(JanusError):
    """A move that cannot be read at all (malformed notation, wrong type).

    ``rule`` names the rule or notation section that defines the allowed form,
    ``text`` is what was given and ``legal`` lists the notation of the legal
    moves in the position (empty where there is no position).
    """

    def __init__(self, message: str, *, text: object = None, rule: str = "",
                 legal: Sequence[str] = ()) -> None:
        if rule and rule not in message:      # the message names the rule, as for illegal moves
            message = f"{rule}: {message}"
        super().__init__(message)
        self.text = text
        self.rule = rule
        self.legal = tuple(legal)


class IllegalMoveError(JanusError):
    """A well-formed move that the rules refuse in this position.

    ``move`` is the notation of the refused move, ``rule`` the rule ID that
    refuses it (for example ``"JA-7"``), ``reason`` the sentence explaining why
    and ``legal`` the notation of the legal moves.
    """

    def __init__(self, message: str, *, move: str, rule: str, reason: str,
                 legal: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.move = move
        self.rule = rule
        self.reason = reason
        self.legal = tuple(legal)


class RecordError(JanusError):
    """A game record that cannot be loaded; ``index`` is the first bad move (or None)."""

    def __init__(self, message: str, *, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


class VariantError(JanusError):
    """A variant option with a value that is not allowed; ``field`` names it."""

    def __init__(self, message: str, *, field: str, value: object,
                 allowed: str) -> None:
        super().__init__(message)
        self.field = field
        self.value = value
        self.allowed = allowed


class ArgumentError(JanusError):
    """An argument that is not one the function takes (a seat that does not exist, a
    seed out of range, a game that is not registered, ``rng`` that is no generator):
    ``argument`` names the parameter, ``value`` is what was given and ``allowed`` says
    what would have been.

    >>> err = ArgumentError("player", 9, "a seat number 0 … 1")
    >>> str(err), err.argument
    ('player=9 is not allowed: use a seat number 0 … 1.', 'player')
    """

    def __init__(self, argument: str, value: object, allowed: str, *,
                 message: str = "") -> None:
        shown = repr(value)
        if len(shown) > 60:
            shown = shown[:57] + "…"
        super().__init__(message or f"{argument}={shown} is not allowed: use {allowed}.")
        self.argument = argument
        self.value = value
        self.allowed = allowed


def format_options(options: Sequence[str], limit: int = 24) -> str:
    """List move notations for an error message, shortened when there are many.

    >>> format_options(["r1", "r2", "r12"])
    'r1, r2, r12'
    >>> format_options([str(i) for i in range(30)], limit=3)
    '0, 1, 2, … (30 in all)'
    >>> format_options([])
    'none'
    """
    if not options:
        return "none"
    shown = ", ".join(options[:limit])
    if len(options) > limit:
        shown += f", … ({len(options)} in all)"
    return shown

"""Variants: frozen dataclasses of documented rule options.

Every game declares one ``Variant`` subclass. Each field is made with
:func:`option`, which records its documentation, the rule it governs and what
values are allowed. The widget shell builds its variant controls from this
table, records store it, and a bad value raises :class:`VariantError` naming
the field, the value and what is allowed.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Demo(Variant):
...     players: int = option(2, doc="Number of players.", choices=(2, 3, 4), setup=True)
...     fast: bool = option(False, doc="Skip the slow part.")
>>> Demo(players=3)
Demo(players=3, fast=False)
>>> Demo(players=7)
Traceback (most recent call last):
...
janus_widgets.core.errors.VariantError: Demo option players=7 is not allowed: choose one of 2, 3, 4.
>>> Demo.from_dict({"players": 4}).to_dict()
{'players': 4, 'fast': False}

A :class:`Ruleset` names a whole reading of the rules: a rulebook, another edition,
a house rule. Its options are the ones it changes from the defaults; options marked
``setup`` (the number of players) are chosen at the table and left open.

>>> quick = Ruleset("quick", {"fast": True}, source="a house rule", note="Skip it.")
>>> quick.variant(Demo, players=3)
Demo(players=3, fast=True)
>>> quick.matches(Demo(players=3, fast=True)), quick.matches(Demo())
(True, False)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from .errors import VariantError

__all__ = ["Variant", "option", "OptionSpec", "Ruleset", "CUSTOM", "check_rulesets"]

V = TypeVar("V", bound="Variant")

_MISSING = object()


def option(default: Any, *, doc: str, choices: Sequence[Any] | None = None,
           minimum: float | None = None, maximum: float | None = None,
           rule: str = "", label: str = "", labels: Mapping[Any, str] | None = None,
           check: Callable[[Any], Any] | None = None,
           from_json: Callable[[Any], Any] | None = None,
           to_json: Callable[[Any], Any] | None = None,
           widget: bool = True, setup: bool = False) -> Any:
    """Declare a variant field.

    ``choices`` lists the allowed values; otherwise ``minimum``/``maximum``
    bound a number. ``check`` may normalise or reject a value (raise
    ``ValueError`` with the reason). ``from_json``/``to_json`` convert values
    that JSON cannot hold as they are (tuples of tuples, for example).
    ``label`` names the option for people, ``labels`` some of its values (a menu and a
    confirm box say "tolls on every field", not ``toll_fields=entered``).
    ``widget=False`` keeps a field out of the generated controls (a table that
    only code changes, such as a tile set). ``setup=True`` marks a choice made at the
    table rather than a reading of the rules (the number of players): every
    :class:`Ruleset` leaves it open.
    """
    meta = {
        "doc": doc, "choices": tuple(choices) if choices is not None else None,
        "minimum": minimum, "maximum": maximum, "rule": rule, "label": label,
        "labels": dict(labels or {}),
        "check": check, "from_json": from_json, "to_json": to_json,
        "widget": widget, "setup": setup,
    }
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class OptionSpec:
    """One variant option as the widget shell and the documentation see it."""

    name: str
    default: Any
    doc: str
    kind: type
    choices: tuple[Any, ...] | None
    minimum: float | None
    maximum: float | None
    rule: str
    label: str
    widget: bool
    setup: bool = False
    labels: Mapping[Any, str] = field(default_factory=dict, compare=False, hash=False)

    def value_label(self, value: Any) -> str:
        """A value as people read it: its label, or the value itself.

        >>> from janus_widgets import games
        >>> spec = {s.name: s for s in games.get("janus").Variant.options()}["toll_fields"]
        >>> spec.value_label("entered"), spec.value_label("landing")
        ('tolls on every field', 'a toll on the landing field')
        """
        if isinstance(value, bool):
            return "yes" if value else "no"
        if value is None or isinstance(value, (tuple, list, dict)):
            # a table only code sets (Janus's squares and tiles): too long to read out
            return "the default" if value == self.default else "set by hand"
        return self.labels.get(value, str(value))

    def allowed(self) -> str:
        """A phrase saying what values are allowed."""
        if self.choices is not None:
            return "choose one of " + ", ".join(str(c) for c in self.choices)
        if self.kind is bool:
            return "use True or False"
        parts = []
        if self.minimum is not None:
            parts.append(f"at least {self.minimum:g}")
        if self.maximum is not None:
            parts.append(f"at most {self.maximum:g}")
        name = {int: "a whole number", float: "a number", str: "text"}.get(
            self.kind, self.kind.__name__)
        return f"use {name}" + (" " + " and ".join(parts) if parts else "")


@dataclass(frozen=True)
class Variant:
    """Base class of every game's rule options (a frozen dataclass)."""

    game_title: ClassVar[str] = "Game"

    def __post_init__(self) -> None:
        for spec in self.options():
            value = getattr(self, spec.name)
            checked = _check_value(self, spec, value)
            if checked is not value:
                object.__setattr__(self, spec.name, checked)
        self.check()

    def check(self) -> None:
        """Cross-field checks; subclasses raise :class:`VariantError`."""

    @classmethod
    def options(cls) -> list[OptionSpec]:
        """The documented options of this variant, in declaration order."""
        specs = []
        for f in fields(cls):
            meta = f.metadata
            if "doc" not in meta:
                continue
            specs.append(OptionSpec(
                name=f.name, default=f.default, doc=meta["doc"],
                kind=type(f.default), choices=meta["choices"],
                minimum=meta["minimum"], maximum=meta["maximum"],
                rule=meta["rule"], label=meta["label"] or f.name.replace("_", " "),
                widget=meta["widget"], setup=meta.get("setup", False),
                labels=meta.get("labels", {})))
        return specs

    def replace(self: V, **changes: Any) -> V:
        """A copy with some options changed (validated like a new variant)."""
        unknown = set(changes) - {s.name for s in self.options()}
        if unknown:
            raise _unknown_error(type(self), sorted(unknown)[0])
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON-ready values (used by game records)."""
        out = {}
        for f in fields(self):
            if "doc" not in f.metadata:
                continue
            value = getattr(self, f.name)
            conv = f.metadata["to_json"]
            out[f.name] = conv(value) if conv else value
        return out

    @classmethod
    def from_dict(cls: type[V], data: Mapping[str, Any]) -> V:
        """Build a variant from :meth:`to_dict` output; unknown keys are errors."""
        if not isinstance(data, Mapping):
            raise VariantError(
                f"{cls.game_title} variant must be a mapping of option names to "
                f"values, not {type(data).__name__}",
                field="", value=data, allowed="a JSON object")
        by_name = {f.name: f for f in fields(cls) if "doc" in f.metadata}
        kwargs = {}
        for key, value in data.items():
            if key not in by_name:
                raise _unknown_error(cls, key)
            conv = by_name[key].metadata["from_json"]
            if conv is not None:
                try:
                    value = conv(value)
                except (TypeError, ValueError) as exc:
                    raise VariantError(
                        f"{cls.game_title} option {key} cannot be read: {exc}",
                        field=key, value=value, allowed="see the option's documentation"
                    ) from None
            kwargs[key] = value
        return cls(**kwargs)

    def changes(self) -> dict[str, Any]:
        """Only the options that differ from their defaults."""
        default = type(self)()
        return {k: v for k, v in self.to_dict().items() if default.to_dict()[k] != v}

    def describe(self) -> str:
        """A short text: the default variant or the options changed from it, as code
        names them (``supply=full``); :meth:`labelled_changes` says it for people."""
        changed = self.changes()
        if not changed:
            return "rulebook defaults"
        return ", ".join(f"{k}={v}" for k, v in changed.items())

    def labelled_changes(self, base: Variant | None = None, *,
                         setup: bool | None = None) -> list[str]:
        """The options that differ from ``base`` (default: the defaults) as their labels
        say them, for people (a confirm box, a heading): ``"toll fields: tolls on every
        field"``, never ``toll_fields=entered``. ``setup``: only the set-up options (True)
        or only the others (False); both when None.

        >>> from janus_widgets import games
        >>> janus = games.get("janus").Variant
        >>> janus(toll_fields="entered", players=3).labelled_changes()
        ['players: 3', 'toll fields: tolls on every field']
        >>> janus(players=3).labelled_changes(janus(players=4), setup=False)
        []
        """
        base = type(self)() if base is None else base
        return [f"{spec.label}: {spec.value_label(getattr(self, spec.name))}"
                for spec in self.options()
                if (setup is None or spec.setup == setup)
                and getattr(self, spec.name) != getattr(base, spec.name)]


def _unknown_error(cls: type[Variant], key: str) -> VariantError:
    names = ", ".join(s.name for s in cls.options())
    return VariantError(
        f"{cls.game_title} has no variant option {key!r}; the options are: {names}",
        field=key, value=None, allowed=names)


def _check_value(variant: Variant, spec: OptionSpec, value: Any) -> Any:
    title = type(variant).game_title
    if type(variant).__name__ != "Variant" and title == "Game":
        title = type(variant).__name__

    def fail(reason: str | None = None) -> VariantError:
        allowed = spec.allowed()
        text = reason or allowed
        return VariantError(
            f"{title} option {spec.name}={value!r} is not allowed: {text}.",
            field=spec.name, value=value, allowed=allowed)

    meta_check = None
    for f in fields(variant):
        if f.name == spec.name:
            meta_check = f.metadata["check"]
    if meta_check is not None:
        try:
            value = meta_check(value)
        except (TypeError, ValueError) as exc:
            raise fail(str(exc)) from None
        return value
    if spec.choices is not None:
        # 2 == 2.0 == True would slip through a plain "in"; compare types too.
        for choice in spec.choices:
            if value == choice and type(value) is type(choice):
                return value
        raise fail()
    if spec.kind is bool:
        if type(value) is not bool:
            raise fail()
        return value
    if spec.kind is int:
        if type(value) is not int:
            raise fail()
    elif spec.kind is float:
        if type(value) not in (int, float):
            raise fail()
        value = float(value)
    elif not isinstance(value, spec.kind):
        raise fail()
    if spec.minimum is not None and value < spec.minimum:
        raise fail()
    if spec.maximum is not None and value > spec.maximum:
        raise fail()
    return value


#: The name shown for a variant that follows none of its game's rulesets.
CUSTOM = "custom"


@dataclass(frozen=True)
class Ruleset:
    """A named reading of a game's rules: a rulebook, another edition, a house rule.

    ``options`` are the variant options it sets (the ones it changes from the
    defaults; the game's ``"rulebook"`` ruleset sets none), ``source`` says which
    rulebook, edition or summary it follows and ``note`` sums it up in a line.
    """

    name: str
    options: Mapping[str, Any] = field(default_factory=dict, hash=False)
    source: str = ""
    note: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    def __repr__(self) -> str:
        return f"Ruleset({self.name!r}, {dict(self.options)!r})"

    def variant(self, cls: type[V], **overrides: Any) -> V:
        """The variant of ``cls`` this ruleset gives, with ``overrides`` on top."""
        unknown = (set(self.options) | set(overrides)) - {s.name for s in cls.options()}
        if unknown:
            raise _unknown_error(cls, sorted(unknown)[0])
        return cls(**{**self.options, **overrides})

    def matches(self, variant: Variant) -> bool:
        """Whether ``variant`` plays by this ruleset (set-up options may be anything)."""
        setup = {s.name: getattr(variant, s.name) for s in variant.options() if s.setup}
        return variant == self.variant(type(variant), **setup)


def check_rulesets(cls: type[Variant], rulesets: Sequence[Ruleset]) -> tuple[Ruleset, ...]:
    """Check a game's rulesets: ``"rulebook"`` first with the defaults, names distinct,
    options valid and not set-up options, no two alike. Returns them as a tuple."""
    rulesets = tuple(rulesets)
    title = cls.game_title
    if not rulesets or rulesets[0].name != "rulebook" or rulesets[0].options:
        raise ValueError(f"{title}: the first ruleset must be 'rulebook' with the default "
                         "options")
    names = [r.name for r in rulesets]
    if len(set(names)) != len(names) or CUSTOM in names:
        raise ValueError(f"{title}: ruleset names must be distinct and not {CUSTOM!r}: "
                         f"{names}")
    setup = {s.name for s in cls.options() if s.setup}
    seen: dict[Variant, str] = {}
    for ruleset in rulesets:
        if not ruleset.source or not ruleset.note:
            raise ValueError(f"{title} ruleset {ruleset.name!r} needs a source and a note")
        fixed = setup & set(ruleset.options)
        if fixed:
            raise ValueError(f"{title} ruleset {ruleset.name!r} sets {sorted(fixed)[0]}, "
                             "a set-up option that every ruleset leaves open")
        variant = ruleset.variant(cls)
        if variant in seen:
            raise ValueError(f"{title} rulesets {seen[variant]!r} and {ruleset.name!r} are "
                             "the same rules")
        seen[variant] = ruleset.name
    return rulesets

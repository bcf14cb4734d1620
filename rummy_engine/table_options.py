"""The table options of RULES.md §8 described once, as data: each option's values offered, its
default (which may depend on the variant) and the variants it applies to. A user interface builds
its settings menus and command choices from this, so an option is added or changed in one place:
its field in :class:`Options` (its type, and for a number its limits, :func:`rules.number`) and
its :class:`OptionSpec` here.

The choices are derived from the type: an enum's members, ``on``/``off`` for a flag (the default
first), and for a number the declared values (``None`` in them reads as the field's ``unlimited``
word). Coercion (:func:`rummy_engine.rules.coerce_options`) goes by the field's type and limits:
no option's name appears in it.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

from rummy_engine.rules import (
    AceMode,
    AceOpeningValue,
    DiscardTake,
    DiscardTakeFailure,
    JokerLimit,
    Options,
    R71JokerInOpening,
    Variant,
    coerce_options,
)

_FIELDS = {f.name: f for f in fields(Options)}
_ATLAS = frozenset({Variant.SIMPLE, Variant.R51, Variant.R71})
_OPENINGS = frozenset({Variant.R51, Variant.R71})
_TRUE = ("on", "true", "1", "yes")
_FALSE = ("off", "false", "0", "no")


@dataclass(frozen=True)
class OptionSpec:
    """One table option: its key in :class:`Options`, its type, where it applies.

    ``kind``: an :class:`enum.Enum` class, ``bool`` or ``int``. For ``int``: ``values`` are the
    numbers offered (in menu order; ``None`` for no limit; the least accepted and the word naming
    no limit are the field's, :func:`rummy_engine.rules.number`). ``variant_defaults``
    overrides the :class:`Options` default for some variants. ``label_key`` names its label in
    a translation catalogue; ``common`` marks the options worth offering when a table is opened
    (the rest live in the lobby's settings). ``variants`` empty: offered nowhere (coerced only).
    """

    key: str
    kind: type
    variants: frozenset[Variant]
    common: bool = False
    values: tuple[int | None, ...] = ()
    variant_defaults: Mapping[Variant, Any] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def label_key(self) -> str:
        return f"option.{self.key}"

    @property
    def unlimited(self) -> str | None:
        """The word naming no limit (``None``: a limit is required)."""
        word: str | None = _FIELDS[self.key].metadata.get("unlimited")
        return word

    @property
    def default(self) -> Any:
        """The :class:`Options` default (whatever the variant)."""
        return getattr(Options(), self.key)

    def default_for(self, variant: Variant) -> Any:
        """The default of a new table of ``variant``."""
        return self.variant_defaults.get(variant, self.default)

    @property
    def choices(self) -> tuple[str, ...]:
        """The values offered, as they read (and as :meth:`coerce` accepts them)."""
        if issubclass(self.kind, enum.Enum):
            return tuple(str(m.value) for m in self.kind)
        if self.kind is bool:
            return ("on", "off") if self.default else ("off", "on")
        return tuple(self.shown(v) for v in self.values)

    def shown(self, value: Any) -> str:
        """A typed value as its choice reads (``on``/``off``, the unlimited word, ``3``)."""
        if isinstance(value, enum.Enum):
            return str(value.value)
        if isinstance(value, bool):
            return "on" if value else "off"
        if value is None:
            return self.unlimited or "none"
        return str(value)

    def coerce(self, value: Any) -> Any:
        """The typed value of ``value`` (a choice, or its JSON form); refused by name."""
        return coerce_options({self.key: value})[self.key]


def _number(
    key: str, values: tuple[int | None, ...], variants: frozenset[Variant], **kw: Any
) -> OptionSpec:
    return OptionSpec(key, int, variants, values=values, **kw)


OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("ace_mode", AceMode, _ATLAS, common=True),
    OptionSpec("ace_opening_value", AceOpeningValue, _OPENINGS),
    OptionSpec("max_jokers_per_meld", JokerLimit, _ATLAS, common=True),
    OptionSpec("r71_joker_in_opening", R71JokerInOpening, frozenset({Variant.R71})),
    OptionSpec("r51_require_natural_run", bool, frozenset({Variant.R51})),
    OptionSpec("discard_take", DiscardTake, _OPENINGS, common=True),
    OptionSpec("discard_take_failure", DiscardTakeFailure, _OPENINGS),
    OptionSpec("forbid_take_with_one_card", bool, _ATLAS),
    OptionSpec("bar_in_1v1", bool, _OPENINGS, common=True),
    OptionSpec("joker_discard_allowed", bool, _ATLAS),
    OptionSpec("joker_final_discard_allowed", bool, _ATLAS),
    _number(
        "basic_rounds",
        (1, 2, 3, 4, 5, 6, 8, 10),
        frozenset({Variant.BASIC}),
        common=True,
    ),
    _number("basic_max_restocks", (None, 1, 2, 3), frozenset({Variant.BASIC})),
    _number("atlas_max_reshuffles", (1, 0, 2, 3, None), _ATLAS),
)

#: Options never offered, only coerced (see :class:`Options` for why).
_HIDDEN: tuple[OptionSpec, ...] = (_number("max_turns_per_round", (), frozenset()),)
_BY_KEY = {spec.key: spec for spec in (*OPTION_SPECS, *_HIDDEN)}
assert set(_BY_KEY) == {f.name for f in fields(Options)}, "every option has one spec"


def option_spec(key: str) -> OptionSpec:
    """The spec of option ``key`` (``KeyError`` for an unknown key)."""
    return _BY_KEY[key]


def options_for(variant: Variant) -> tuple[OptionSpec, ...]:
    """The options that matter for ``variant``, in menu order."""
    return tuple(spec for spec in OPTION_SPECS if variant in spec.variants)


def shown_value(options: Options, key: str) -> str:
    """An option's current value as its choice reads (``on``/``off``, ``none``/``unlimited``)."""
    return _BY_KEY[key].shown(getattr(options, key))


def defaults_for(variant: Variant) -> Options:
    """The options of a new table of ``variant`` before anyone chooses (its specs' defaults)."""
    return Options(**{spec.key: spec.default_for(variant) for spec in _BY_KEY.values()})

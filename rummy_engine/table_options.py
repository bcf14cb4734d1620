"""The table options of RULES.md §8 described once, as data: their choices and the variants they
apply to. A user interface builds its settings menus and command choices from this, so an option
is added or changed in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rummy_engine.rules import Options, Variant

_ATLAS = frozenset({Variant.SIMPLE, Variant.R51, Variant.R71})
_OPENINGS = frozenset({Variant.R51, Variant.R71})


@dataclass(frozen=True)
class OptionSpec:
    """One table option: its key in :class:`Options`, the values offered, where it applies.

    ``label_key`` names its label in a translation catalogue; ``common`` marks the options worth
    offering when a table is opened (the rest live in the lobby's settings).
    """

    key: str
    choices: tuple[str, ...]
    variants: frozenset[Variant]
    common: bool = False

    @property
    def label_key(self) -> str:
        return f"option.{self.key}"


OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("ace_mode", ("low_high", "low_only", "wrap"), _ATLAS, common=True),
    OptionSpec("ace_opening_value", ("positional", "always_11", "always_1"), _OPENINGS),
    OptionSpec(
        "max_jokers_per_meld", ("1", "2", "unlimited_if_naturals_gt_jokers"), _ATLAS, common=True
    ),
    OptionSpec("r71_joker_in_opening", ("zero_value", "forbidden"), frozenset({Variant.R71})),
    OptionSpec("r51_require_natural_run", ("off", "on"), frozenset({Variant.R51})),
    OptionSpec("discard_take", ("must_use", "free"), _OPENINGS, common=True),
    OptionSpec("discard_take_failure", ("undo", "penalty"), _OPENINGS),
    OptionSpec("forbid_take_with_one_card", ("off", "on"), _ATLAS),
    OptionSpec("bar_in_1v1", ("on", "off"), _OPENINGS, common=True),
    OptionSpec("joker_discard_allowed", ("on", "off"), _ATLAS),
    OptionSpec("joker_final_discard_allowed", ("on", "off"), _ATLAS),
    OptionSpec(
        "basic_rounds",
        ("1", "2", "3", "4", "5", "6", "8", "10"),
        frozenset({Variant.BASIC}),
        common=True,
    ),
    OptionSpec("basic_max_restocks", ("none", "1", "2", "3"), frozenset({Variant.BASIC})),
    OptionSpec("atlas_max_reshuffles", ("1", "0", "2", "3", "unlimited"), _ATLAS),
)

_BY_KEY = {spec.key: spec for spec in OPTION_SPECS}


def option_spec(key: str) -> OptionSpec:
    """The spec of option ``key`` (``KeyError`` for an unknown key)."""
    return _BY_KEY[key]


def options_for(variant: Variant) -> tuple[OptionSpec, ...]:
    """The options that matter for ``variant``, in menu order."""
    return tuple(spec for spec in OPTION_SPECS if variant in spec.variants)


def shown_value(options: Options, key: str) -> str:
    """An option's current value as its choice reads (``on``/``off``, ``none``/``unlimited``)."""
    value: Any = options.to_json()[key]
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "unlimited" if "unlimited" in _BY_KEY[key].choices else "none"
    return str(value)

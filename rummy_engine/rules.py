"""Variants as data: a frozen :class:`Rules` (variant, seat count, table options of RULES.md §8).

Everything that differs between Simple, Rummy 51, Rummy 71 and Basic rummy is read from here, so
the state machine has no variant if-chains beyond asking these properties.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import Field, dataclass, field, fields, replace
from typing import Any

from rummy_engine.errors import RuleViolation


class Variant(enum.Enum):
    SIMPLE = "simple"
    R51 = "r51"
    R71 = "r71"
    BASIC = "basic"

    @property
    def is_atlas(self) -> bool:
        return self is not Variant.BASIC


class AceMode(enum.Enum):
    LOW_HIGH = "low_high"
    LOW_ONLY = "low_only"
    WRAP = "wrap"


class AceOpeningValue(enum.Enum):
    POSITIONAL = "positional"
    ALWAYS_11 = "always_11"
    ALWAYS_1 = "always_1"


class JokerLimit(enum.Enum):
    ONE = "1"
    TWO = "2"
    UNLIMITED_IF_NATURALS_GT_JOKERS = "unlimited_if_naturals_gt_jokers"


class R71JokerInOpening(enum.Enum):
    ZERO_VALUE = "zero_value"
    FORBIDDEN = "forbidden"


class DiscardTake(enum.Enum):
    MUST_USE = "must_use"
    FREE = "free"


class DiscardTakeFailure(enum.Enum):
    UNDO = "undo"
    PENALTY = "penalty"


def number(*, minimum: int = 0, unlimited: str | None = None) -> dict[str, Any]:
    """The metadata of a numeric option's field: the least value accepted, and the word naming
    no limit (``None`` for the value; ``unlimited=None``: a limit is required)."""
    return {"minimum": minimum, "unlimited": unlimited}


@dataclass(frozen=True)
class Options:
    """The table options of RULES.md §8; every default is the spec's default.

    ``None`` for ``basic_max_restocks`` / ``atlas_max_reshuffles`` means unlimited.
    ``max_turns_per_round`` has no unlimited value on purpose: free takes from the discard pile
    never move the stock, so without it two players could pass the same cards back and forth
    forever; a round that reaches it ends void like an exhausted stock (no spec default exists,
    and normal rounds end far below it).
    """

    ace_mode: AceMode = AceMode.LOW_HIGH
    ace_opening_value: AceOpeningValue = AceOpeningValue.POSITIONAL
    max_jokers_per_meld: JokerLimit = JokerLimit.ONE
    r71_joker_in_opening: R71JokerInOpening = R71JokerInOpening.ZERO_VALUE
    r51_require_natural_run: bool = False
    discard_take: DiscardTake = DiscardTake.MUST_USE
    discard_take_failure: DiscardTakeFailure = DiscardTakeFailure.UNDO
    forbid_take_with_one_card: bool = False
    bar_in_1v1: bool = True
    joker_discard_allowed: bool = True
    joker_final_discard_allowed: bool = True
    basic_rounds: int = field(default=3, metadata=number(minimum=1))
    basic_max_restocks: int | None = field(default=None, metadata=number(unlimited="none"))
    atlas_max_reshuffles: int | None = field(default=1, metadata=number(unlimited="unlimited"))
    max_turns_per_round: int = field(default=400, metadata=number(minimum=1))

    def to_json(self) -> dict[str, Any]:
        # Every value is a scalar or an enum: no need for asdict's deep copy, which was most of
        # the cost of storing a game after each move.
        return {
            f.name: (v.value if isinstance(v := getattr(self, f.name), enum.Enum) else v)
            for f in fields(self)
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Options:
        """Build options from their JSON form; unknown keys or values are refused by name."""
        return cls(**coerce_options(data))

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from the defaults (what a table summary shows)."""
        default = Options().to_json()
        return {k: v for k, v in self.to_json().items() if default[k] != v}


_FIELDS = {f.name: f for f in fields(Options)}
_TRUE = ("on", "true", "1", "yes")
_FALSE = ("off", "false", "0", "no")


def coerce_options(data: Mapping[str, Any]) -> dict[str, Any]:
    """Typed option values from their JSON or choice form, each by its field's type (an enum,
    a flag, or a number with the limits of :func:`number`); unknown keys or values are refused
    by name."""
    typed: dict[str, Any] = {}
    for key, value in data.items():
        found = _FIELDS.get(key)
        if found is None:
            raise RuleViolation("options.unknown", key=key, known=", ".join(_FIELDS))
        typed[key] = _coerce(found, value)
    return typed


def _coerce(option: Field[Any], value: Any) -> Any:
    kind: type[Any] = type(option.default) if option.default is not None else int

    def bad(allowed: str) -> RuleViolation:
        return RuleViolation("options.bad_value", key=option.name, value=value, allowed=allowed)

    if issubclass(kind, enum.Enum):
        if isinstance(value, kind):
            return value
        try:
            return kind(str(value))
        except ValueError:
            raise bad(", ".join(str(m.value) for m in kind)) from None
    if kind is bool:
        if isinstance(value, bool):
            return value
        if str(value).lower() in _TRUE:
            return True
        if str(value).lower() in _FALSE:
            return False
        raise bad("on, off")
    unlimited = value is None or str(value).lower() in ("none", "unlimited")
    if unlimited and option.metadata.get("unlimited") is not None:
        return None
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise bad("a whole number") from None
    if number < option.metadata.get("minimum", 0):
        raise bad("a positive number")
    return number


@dataclass(frozen=True)
class VariantSpec:
    """Fixed facts of a variant (RULES.md §1.2, §2.1, §2.8)."""

    packs: int
    jokers: int
    hand_size: int
    threshold: int
    limit_1v1: int
    limit_2v2: int


_SPECS = {
    Variant.SIMPLE: VariantSpec(2, 2, 13, 0, 300, 600),
    Variant.R51: VariantSpec(2, 4, 14, 51, 251, 351),
    Variant.R71: VariantSpec(2, 2, 14, 71, 251, 451),
    Variant.BASIC: VariantSpec(1, 0, 0, 0, 0, 0),
}


@dataclass(frozen=True)
class Rules:
    """A variant played by ``players`` seats with a set of options."""

    variant: Variant
    players: int
    options: Options = field(default_factory=Options)

    def __post_init__(self) -> None:
        allowed = range(2, 7) if self.variant is Variant.BASIC else (2, 4)
        if self.players not in allowed:
            raise RuleViolation(
                "rules.bad_player_count",
                variant=self.variant.value,
                players=self.players,
                allowed="2 to 6" if self.variant is Variant.BASIC else "2 (1v1) or 4 (2v2)",
            )

    @property
    def spec(self) -> VariantSpec:
        return _SPECS[self.variant]

    @property
    def is_atlas(self) -> bool:
        return self.variant.is_atlas

    @property
    def teams(self) -> bool:
        """2v2: partners sit opposite, so sides are seats {0, 2} and {1, 3}."""
        return self.is_atlas and self.players == 4

    @property
    def sides(self) -> int:
        return 2 if self.is_atlas else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    def partner_of(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.teams else None

    def seats_of(self, side: int) -> list[int]:
        return [s for s in range(self.players) if self.side_of(s) == side]

    @property
    def ace_mode(self) -> AceMode:
        return AceMode.LOW_ONLY if self.variant is Variant.BASIC else self.options.ace_mode

    @property
    def hand_size(self) -> int:
        if self.variant is Variant.BASIC:
            return {2: 10, 3: 7, 4: 7, 5: 6, 6: 6}[self.players]
        return self.spec.hand_size

    @property
    def limit(self) -> int:
        """Penalty total that loses an Atlas game (0 for Basic, which plays a number of rounds)."""
        return self.spec.limit_2v2 if self.teams else self.spec.limit_1v1

    @property
    def opening_threshold(self) -> int:
        return self.spec.threshold

    @property
    def has_opening(self) -> bool:
        return self.variant in (Variant.R51, Variant.R71)

    @property
    def bar_applies(self) -> bool:
        return self.has_opening and (self.teams or self.options.bar_in_1v1)

    @property
    def must_use_discard(self) -> bool:
        return self.has_opening and self.options.discard_take is DiscardTake.MUST_USE

    def with_options(self, **changes: Any) -> Rules:
        return replace(self, options=replace(self.options, **changes))

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant.value,
            "players": self.players,
            "options": self.options.to_json(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Rules:
        return cls(
            Variant(data["variant"]), int(data["players"]), Options.from_json(data["options"])
        )

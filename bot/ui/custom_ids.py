"""A family of custom_ids, from one declaration: the pattern discord.py matches and the builder.

Why: a persistent component (a ``DynamicItem``) is found again after a restart by a regular
expression over its custom_id, and drawn by a format string; written apart, the two drift (a
field added to one, an order changed in the other) and a press on an old message stops routing
without an error. Here a family is a frozen dataclass of its fields and a prefix: the pattern,
the builder and the decoder all walk the same fields, in the same order, so they cannot disagree.

Field types: ``int`` (digits), an ``Enum`` (its values, or the ``choices`` given), anything else
a word of letters, digits and ``_``; ``patterns`` overrides a field's expression and ``parse``
its decoder. A field with a default may be left out, only at the end (``rummy:3:0:draw`` and
``rummy:3:0:review:2``).
"""

from __future__ import annotations

import dataclasses
import enum
import re
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

R = TypeVar("R")

WORD = r"[A-Za-z0-9_]*"
DIGITS = r"\d+"


@dataclasses.dataclass(frozen=True)
class _Field:
    name: str
    pattern: str
    parse: Callable[[str], Any]
    optional: bool
    default: Any


class CustomIdCodec(Generic[R]):
    """The custom_ids ``<prefix>:<field>:<field>…`` of record type ``R``."""

    def __init__(
        self,
        prefix: str,
        record: type[R],
        *,
        choices: Mapping[str, Iterable[str]] | None = None,
        patterns: Mapping[str, str] | None = None,
        parse: Mapping[str, Callable[[str], Any]] | None = None,
    ) -> None:
        self.prefix, self.record = prefix, record
        hints = typing.get_type_hints(record)
        self._fields = tuple(
            _field(item, hints[item.name], choices or {}, patterns or {}, parse or {})
            for item in dataclasses.fields(record)  # type: ignore[arg-type]
        )
        optional = [f.optional for f in self._fields]
        if optional != sorted(optional):
            raise ValueError(f"{record.__name__}: only the last fields may be left out")
        self.template = re.escape(prefix) + "".join(
            rf"(?::(?P<{f.name}>{f.pattern}))?" if f.optional else rf":(?P<{f.name}>{f.pattern})"
            for f in self._fields
        )

    def build(self, value: R) -> str:
        """The custom_id of ``value``; trailing fields at their defaults are left out."""
        kept = len(self._fields)
        while kept and self._left_out(self._fields[kept - 1], value):
            kept -= 1
        parts = (_text(getattr(value, f.name)) for f in self._fields[:kept])
        return ":".join([self.prefix, *parts])

    @staticmethod
    def _left_out(field: _Field, value: R) -> bool:
        return field.optional and getattr(value, field.name) == field.default

    def decode(self, match: re.Match[str]) -> R:
        """The record of a custom_id the template matched."""
        found = match.groupdict()
        return self.record(
            *[f.default if found[f.name] is None else f.parse(found[f.name]) for f in self._fields]
        )


def _field(
    item: dataclasses.Field[Any],
    kind: Any,
    choices: Mapping[str, Iterable[str]],
    patterns: Mapping[str, str],
    parse: Mapping[str, Callable[[str], Any]],
) -> _Field:
    name = item.name
    if name in choices:
        pattern = "|".join(sorted(re.escape(choice) for choice in choices[name]))
    elif isinstance(kind, type) and issubclass(kind, enum.Enum):
        pattern = "|".join(sorted(re.escape(str(member.value)) for member in kind))
    else:
        pattern = DIGITS if kind is int else WORD
    decoder: Callable[[str], Any] = parse.get(name) or (
        kind if kind is int or (isinstance(kind, type) and issubclass(kind, enum.Enum)) else str
    )
    has_default = item.default is not dataclasses.MISSING
    return _Field(
        name,
        f"(?:{patterns.get(name, pattern)})",
        decoder,
        has_default,
        item.default if has_default else None,
    )


def _text(value: object) -> str:
    return str(value.value) if isinstance(value, enum.Enum) else str(value)

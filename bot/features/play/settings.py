"""A table's settings, declared once: the engine's options, the turn timer, the thread, the language.

Why one registry: ``/rummy new``'s options, the lobby's Settings, the server and channel
defaults (their panel, their check of a stored value, their resolution for a new table) and the
table's storage all walk :data:`SETTINGS`, so a table setting is declared in one place (here, or
for an engine option its :class:`rummy_engine.OptionSpec`), consumed where it matters, and named
by its words (``option.<key>`` for its label, ``option.<key>.<value>`` or a shared ``option.<value>``
for its values, ``command.new.<key>`` if ``/rummy new`` offers it; all in
``bot/features/play/words.py``).

A table's settings are one typed value, :class:`TableSettings`, stored by one codec
(:func:`encode` / :func:`decode`) in the ``tables`` row as it always was: the ``options`` JSON
column holds the engine's options that differ from their defaults, ``turn_timer`` (minutes, 0 =
off) and, once chosen, ``thread`` (``yes``/``no``); the ``locale`` column the language.

Resolution for a new table: the host's choice, else the channel's default, else the server's
(:func:`bot.features.defaults.service.choose`), else the declared default (:meth:`Setting.default`,
which may depend on the variant; ``None`` leaves what the bot decides when opening: its configured
turn timer, the server's language).
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bot.features.play.threads import THREAD_CHOICES, THREAD_KEY, parse_thread, shown_thread
from bot.features.play.turn_timer import TIMER_CHOICES, TIMER_KEY, parse_timer, shown_timer
from bot.storage.base import TableSetting
from bot.text import SUPPORTED_LOCALES, normalise, option_value_key, t
from rummy_engine import OPTION_SPECS, Options, OptionSpec, Variant, shown_value
from rummy_engine.table_options import coerce_options

LANGUAGE = "language"


class Where(enum.Flag):
    """Where a setting is offered."""

    NEW = enum.auto()  # an option of ``/rummy new``
    LOBBY = enum.auto()  # the lobby's Settings
    DEFAULTS = enum.auto()  # the server's and channels' defaults


EVERYWHERE = Where.NEW | Where.LOBBY | Where.DEFAULTS


@dataclass(frozen=True)
class TableSettings:
    """Everything a host may set about one table.

    ``thread``: ``None`` until chosen (stored as absent: no thread). ``locale``: ``None`` for a
    table opened before tables kept their language (it follows the server's).
    """

    options: Options = field(default_factory=Options)
    turn_timer: int = 0
    thread: bool | None = None
    locale: str | None = None

    @property
    def wants_thread(self) -> bool:
        return bool(self.thread)

    def with_choices(self, choices: Mapping[str, object]) -> TableSettings:
        """These settings with ``choices`` (key -> value as offered or stored) applied; an
        unknown key or a value not accepted is refused by name."""
        settings = self
        for key, value in choices.items():
            found = _BY_KEY.get(key)
            if found is None:
                coerce_options({key: value})  # refuses it, naming the options there are
                continue
            settings = found.write(settings, value)
        return settings


@dataclass(frozen=True)
class Stored:
    """A table's settings as its ``tables`` row holds them."""

    options_json: str
    locale: str | None

    def columns(self) -> dict[TableSetting, str | None]:
        """Column -> value, as :meth:`bot.storage.Store.set_table_setting` writes them."""
        return {"options": self.options_json, "locale": self.locale}


def encode(settings: TableSettings) -> Stored:
    """The stored form of ``settings`` (byte for byte what tables have always stored)."""
    stored: dict[str, Any] = {**settings.options.changed(), TIMER_KEY: settings.turn_timer}
    if settings.thread is not None:
        stored[THREAD_KEY] = shown_thread(settings.thread)
    return Stored(json.dumps(stored, sort_keys=True), settings.locale)


def decode(stored: Stored) -> TableSettings:
    """The settings stored in a ``tables`` row (the inverse of :func:`encode`)."""
    data = json.loads(stored.options_json)
    timer = data.pop(TIMER_KEY, None)
    thread = data.pop(THREAD_KEY, None)
    return TableSettings(
        options=Options.from_json(data),
        turn_timer=0 if timer is None else parse_timer(timer),
        thread=None if thread is None else parse_thread(thread),
        locale=stored.locale or None,
    )


@dataclass(frozen=True)
class Setting:
    """One table setting: its key, the values offered (as they read), how it is read from and
    written to :class:`TableSettings`, its default for a variant, where it is offered, and the
    variants it applies to (every one when empty).

    ``value_words``: the prefix of its values' word keys (``None``: the option catalogue's
    ``option.<key>.<value>`` or shared ``option.<value>``; numbers have none).
    """

    key: str
    choices: tuple[str, ...]
    read: Callable[[TableSettings], str]
    write: Callable[[TableSettings, object], TableSettings]
    default: Callable[[Variant], object | None]
    offered: Where = EVERYWHERE
    variants: frozenset[Variant] = frozenset()
    value_words: str | None = None

    @property
    def label_key(self) -> str:
        return f"option.{self.key}"

    def applies_to(self, variant: Variant) -> bool:
        return not self.variants or variant in self.variants

    def value_key(self, value: str) -> str | None:
        """The word key naming ``value`` (``None``: it reads the same in every language)."""
        if self.value_words is not None:
            return f"{self.value_words}.{value}"
        return option_value_key(self.key, value)

    def label(self, locale: str) -> str:
        return t(self.label_key, locale)

    def value_label(self, value: str, locale: str) -> str:
        key = self.value_key(value)
        return value if key is None else t(key, locale)


def _engine(spec: OptionSpec) -> Setting:
    """An engine option as a table setting (its choices, default and variants from its spec)."""

    def write(settings: TableSettings, value: object) -> TableSettings:
        return replace(
            settings, options=replace(settings.options, **coerce_options({spec.key: value}))
        )

    return Setting(
        spec.key,
        spec.choices,
        read=lambda settings: shown_value(settings.options, spec.key),
        write=write,
        default=spec.default_for,
        offered=EVERYWHERE if spec.common else Where.LOBBY | Where.DEFAULTS,
        variants=spec.variants,
    )


#: Every table setting, in menu order: the table's housekeeping, then the engine's options.
SETTINGS: tuple[Setting, ...] = (
    Setting(
        TIMER_KEY,
        TIMER_CHOICES,
        read=lambda settings: shown_timer(settings.turn_timer),
        write=lambda settings, value: replace(settings, turn_timer=parse_timer(value)),
        default=lambda variant: None,  # the bot's configured timer
    ),
    Setting(
        THREAD_KEY,
        THREAD_CHOICES,
        read=lambda settings: shown_thread(settings.wants_thread),
        write=lambda settings, value: replace(settings, thread=parse_thread(value)),
        default=lambda variant: None,  # no thread
    ),
    Setting(
        LANGUAGE,
        tuple(SUPPORTED_LOCALES),
        read=lambda settings: normalise(settings.locale),
        write=lambda settings, value: replace(settings, locale=normalise(value)),
        default=lambda variant: None,  # the server's language
        value_words="choice.language",
    ),
    *(_engine(spec) for spec in OPTION_SPECS),
)
_BY_KEY = {setting.key: setting for setting in SETTINGS}


def setting(key: str) -> Setting:
    """The setting called ``key`` (``KeyError`` for an unknown one)."""
    return _BY_KEY[key]


def offered(where: Where, variant: Variant | None = None) -> tuple[Setting, ...]:
    """The settings offered ``where`` (applying to ``variant`` if given), in menu order."""
    return tuple(
        s for s in SETTINGS if where in s.offered and (variant is None or s.applies_to(variant))
    )


def opening(
    variant: Variant, choices: Mapping[str, object], *, turn_timer: int, locale: str
) -> TableSettings:
    """A new table's settings: ``choices`` over the declared defaults for ``variant``
    (``turn_timer`` and ``locale`` are the bot's and the server's when nobody chose)."""
    settings = TableSettings(turn_timer=turn_timer, locale=locale)
    for declared in SETTINGS:
        default = declared.default(variant)
        if default is not None:
            settings = declared.write(settings, default)
    return settings.with_choices(choices)

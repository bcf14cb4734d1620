"""A table's settings, declared once: the engine's options, the turn timer, the thread, the language.

Why one registry: ``/rummy new``'s options, the lobby's Settings, the server and channel
defaults (their panel, their check of a stored value, their resolution for a new table) and the
table's storage all walk :data:`SETTINGS`, so a table setting is declared in one place (a field
of :class:`TableSettings` made with :func:`declared`, whose name is the key; for an engine option
its :class:`rummy_engine.OptionSpec`), consumed where it matters, and named by its words (``option.<key>`` for its label, ``option.<key>.<value>`` or a shared ``option.<value>``
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
from dataclasses import dataclass, field, fields, replace
from typing import Any

from bot.features.play.coaching_choice import (
    COACHING_CHOICES,
    parse_coaching,
    shown_coaching,
)
from bot.features.play.threads import THREAD_CHOICES, parse_thread, shown_thread
from bot.features.play.turn_timer import TIMER_CHOICES, parse_timer, shown_timer
from bot.services.refusal import Refusal
from bot.storage.base import TableSetting
from bot.text import SUPPORTED_LOCALES, normalise, option_value_key, t
from rummy_engine import OPTION_SPECS, Options, OptionSpec, Variant, shown_value
from rummy_engine.rules import coerce_options

LANGUAGE = "language"


class Where(enum.Flag):
    """Where a setting is offered."""

    NEW = enum.auto()  # an option of ``/rummy new``
    LOBBY = enum.auto()  # the lobby's Settings
    DEFAULTS = enum.auto()  # the server's and channels' defaults


EVERYWHERE = Where.NEW | Where.LOBBY | Where.DEFAULTS


@dataclass(frozen=True)
class Declared:
    """How a setting of the bot's own (a field of :class:`TableSettings`) is offered and stored.

    ``parse``: a choice, or the stored form, to the typed value, refusing a bad one by name
    (``None``: the value is one of the choices, kept as it reads); ``show``: the typed value as
    its choice reads; ``stored``: its JSON form in the ``options`` column, ``None`` to leave it
    out (``stored=None``: the value itself, left out while it is the default, so a setting added
    later changes no stored table); ``column``: stored in that column of ``tables`` instead.
    """

    choices: tuple[str, ...]
    parse: Callable[[Any], Any] | None = None
    show: Callable[[Any], str] = str
    offered: Where = EVERYWHERE
    value_words: str | None = None
    stored: Callable[[Any], object] | None = None
    column: TableSetting | None = None


def declared(default: object, choices: tuple[str, ...], **how: Any) -> Any:
    """A field of :class:`TableSettings` that is a table setting (its name is the key; ``how``:
    the other fields of :class:`Declared`)."""
    return field(default=default, metadata={"setting": Declared(choices, **how)})


@dataclass(frozen=True)
class TableSettings:
    """Everything a host may set about one table: the engine's options, then the bot's own
    settings, each declared by its field (:func:`declared`), in menu order.

    ``thread``: ``None`` until chosen (stored as absent: no thread). ``language``: ``None`` for
    a table opened before tables kept their language (it follows the server's).
    """

    options: Options = field(default_factory=Options)
    turn_timer: int = declared(
        0, TIMER_CHOICES, parse=parse_timer, show=shown_timer, stored=lambda minutes: minutes
    )
    thread: bool | None = declared(
        None,
        THREAD_CHOICES,
        parse=parse_thread,
        show=lambda wanted: shown_thread(bool(wanted)),
        stored=lambda wanted: None if wanted is None else shown_thread(wanted),
    )
    language: str | None = declared(
        None,
        tuple(SUPPORTED_LOCALES),
        parse=normalise,
        show=normalise,
        value_words="choice.language",
        column="locale",
    )
    #: Coached practice (bot/features/play/coaching.py): offered in the lobby only, where the
    #: table's seats say whether it is unrated (a computer seat); stored only while on.
    coaching: bool = declared(
        False,
        COACHING_CHOICES,
        parse=parse_coaching,
        show=shown_coaching,
        offered=Where.LOBBY,
    )

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


#: The bot's own settings: (field name, default, declaration), in field order.
_DECLARED: tuple[tuple[str, object, Declared], ...] = tuple(
    (f.name, f.default, f.metadata["setting"])
    for f in fields(TableSettings)
    if "setting" in f.metadata
)


def _parse(name: str, how: Declared, value: object) -> Any:
    """The value of setting *name*; a parser's ValueError is refused here, naming the setting
    and its choices, so a parser never spells the setting's name again."""
    try:
        if how.parse is not None:
            return how.parse(value)
        if str(value) in how.choices:
            return str(value)
    except ValueError:
        pass
    raise Refusal("options.bad_value", key=name, value=value, allowed=", ".join(how.choices))


@dataclass(frozen=True)
class Stored:
    """A table's settings as its ``tables`` row holds them."""

    options_json: str
    locale: str | None

    def columns(self) -> dict[TableSetting, str | None]:
        """Column -> value, as :meth:`bot.storage.Store.set_table_setting` writes them."""
        return {"options": self.options_json, "locale": self.locale}


def encode(settings: TableSettings) -> Stored:
    """The stored form of ``settings`` (byte for byte what tables have always stored): the
    engine's options that differ from their defaults and the bot's settings in the ``options``
    JSON, the language in ``locale``."""
    data: dict[str, Any] = settings.options.changed()
    columns: dict[str, Any] = {}
    for name, default, how in _DECLARED:
        value = getattr(settings, name)
        if how.column is not None:
            columns[how.column] = value
            continue
        # without its own stored form, a value is left out while it is the default
        form = how.stored(value) if how.stored else (None if value == default else value)
        if form is not None:
            data[name] = form
    return Stored(json.dumps(data, sort_keys=True), columns.get("locale"))


def decode(stored: Stored) -> TableSettings:
    """The settings stored in a ``tables`` row (the inverse of :func:`encode`); a setting not
    stored keeps its declared default."""
    data = json.loads(stored.options_json)
    columns = stored.columns()
    values: dict[str, Any] = {}
    for name, _, how in _DECLARED:
        raw = columns[how.column] if how.column is not None else data.pop(name, None)
        if raw is not None and raw != "":
            values[name] = _parse(name, how, raw)
    return TableSettings(options=Options.from_json(data), **values)


@dataclass(frozen=True)
class Setting:
    """One table setting as the menus see it: its key, the values offered (as they read), how
    it is read from and written to :class:`TableSettings`, its default for a variant (``None``:
    the field's, or what the bot decides when opening), where it is offered, and the variants it
    applies to (every one when empty).

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


def _own(name: str, how: Declared) -> Setting:
    """A setting of the bot's own, from its field."""
    return Setting(
        name,
        how.choices,
        read=lambda settings: how.show(getattr(settings, name)),
        write=lambda settings, value: replace(settings, **{name: _parse(name, how, value)}),
        default=lambda variant: None,
        offered=how.offered,
        value_words=how.value_words,
    )


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


#: Every table setting, in menu order: the bot's own, then the engine's options.
SETTINGS: tuple[Setting, ...] = (
    *(_own(name, how) for name, _, how in _DECLARED),
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
    variant: Variant, choices: Mapping[str, object], *, turn_timer: int, language: str
) -> TableSettings:
    """A new table's settings: ``choices`` over the declared defaults for ``variant``
    (``turn_timer`` and ``language`` are the bot's and the server's when nobody chose)."""
    settings = TableSettings(turn_timer=turn_timer, language=language)
    for declared in SETTINGS:
        default = declared.default(variant)
        if default is not None:
            settings = declared.write(settings, default)
    return settings.with_choices(choices)

"""Server and channel defaults of new tables: what ``/rummy-settings server`` sets and ``/rummy new`` uses.

Why described as data (:data:`DEFAULT_SPECS`): the panel that sets them, the check of a stored
value and the resolution for a new table all walk the same list, built from the table settings'
registry (:data:`bot.features.play.settings.SETTINGS`), so a table setting declared there with
``Where.DEFAULTS`` becomes a default without another line here.

A default is stored per server (channel ``0``) and, where set, per channel; a channel's value
overrides the server's. ``/rummy new``'s own options override both, and the lobby's Settings
change that one table only (nothing here is read again once the table is open). The lobby shows
what it inherited: the table keeps it in the ``meta`` table under ``defaults.inherited:<table>``
(read with a lobby only, like Play again's invited players), so the line survives a restart.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.features.defaults.store import TableDefaultsStore
from bot.features.play.settings import LANGUAGE, Setting, Where, offered
from bot.services.refusal import Refusal
from bot.text import t
from rummy_engine import Variant

#: The scope of a server's own defaults (a channel's scope is its id).
SERVER = 0
#: Where a default came from, as the lobby line and the panel name it.
ORIGINS = ("server", "channel")

VARIANT, MODE = "variant", "mode"


@dataclass(frozen=True)
class DefaultSpec:
    """One default of new tables: its key, the values it may take, how they are named.

    ``value_words``: the prefix of its values' word keys, or the table setting that names them;
    ``variants``: the variants it applies to (every one when empty).
    """

    key: str
    choices: tuple[str, ...]
    label_key: str
    value_words: str | Setting
    variants: frozenset[Variant] = field(default_factory=frozenset)

    def applies_to(self, variant: Variant) -> bool:
        return not self.variants or variant in self.variants

    @classmethod
    def of(cls, setting: Setting) -> DefaultSpec:
        return cls(setting.key, setting.choices, setting.label_key, setting, setting.variants)


#: Every default, in the panel's order: the table's shape, then every table setting offered as a
#: default (bot/features/play/settings.py), so a setting declared there is a default without
#: another line here.
DEFAULT_SPECS: tuple[DefaultSpec, ...] = (
    DefaultSpec(VARIANT, tuple(v.value for v in Variant), "defaults.key.variant", "variant"),
    DefaultSpec(
        MODE,
        ("1v1", "2v2"),
        "defaults.key.mode",
        "choice.mode",
        frozenset(v for v in Variant if v is not Variant.BASIC),
    ),
    *(DefaultSpec.of(setting) for setting in offered(Where.DEFAULTS)),
)
_BY_KEY = {spec.key: spec for spec in DEFAULT_SPECS}
#: The defaults that are table settings, resolved for each new table.
SETTING_KEYS = tuple(s.key for s in offered(Where.DEFAULTS))


def default_spec(key: str) -> DefaultSpec:
    """The spec of default ``key``; an unknown one is refused by name."""
    spec = _BY_KEY.get(key)
    if spec is None:
        raise Refusal("defaults.bad_key", key=key)
    return spec


@dataclass(frozen=True)
class Defaults:
    """The defaults that apply in one channel: the server's and the channel's own."""

    server: Mapping[str, str]
    channel: Mapping[str, str]

    def value(self, key: str) -> tuple[str, str] | None:
        """(value, origin) of ``key``: the channel's if set, else the server's, else None."""
        if key in self.channel:
            return self.channel[key], "channel"
        if key in self.server:
            return self.server[key], "server"
        return None

    def of(self, scope: int) -> Mapping[str, str]:
        return self.server if scope == SERVER else self.channel


@dataclass(frozen=True)
class NewTableChoice:
    """What a new table is opened with: the host's choices completed by the defaults.

    ``inherited``: origin -> {key: value} of what came from the defaults (the lobby's line).
    """

    variant: Variant
    mode: str
    options: dict[str, object]
    locale: str | None
    inherited: dict[str, dict[str, str]]


class DefaultsService:
    """Reads and writes the defaults (one read per ``/rummy new``, nothing per move)."""

    def __init__(self, store: TableDefaultsStore) -> None:
        self.store = store

    async def load(self, guild_id: int, channel_id: int) -> Defaults:
        found = await self.store.get_table_defaults(guild_id, channel_id)
        return Defaults(found.get(SERVER, {}), found.get(channel_id, {}))

    async def set(self, guild_id: int, scope: int, key: str, value: str | None) -> None:
        """Set (or with ``None`` remove) one default of the server (``scope`` 0) or a channel;
        a value the spec does not offer is refused."""
        spec = default_spec(key)
        if value is not None and value not in spec.choices:
            raise Refusal(
                "options.bad_value", key=key, value=value, allowed=", ".join(spec.choices)
            )
        await self.store.set_table_default(guild_id, scope, key, value)

    async def clear(self, guild_id: int, scope: int) -> None:
        await self.store.clear_table_defaults(guild_id, scope)

    async def for_new_table(
        self,
        guild_id: int,
        channel_id: int,
        *,
        variant: str | None,
        mode: str | None,
        options: Mapping[str, object],
        locale: str | None,
    ) -> NewTableChoice:
        return choose(
            await self.load(guild_id, channel_id),
            variant=variant,
            mode=mode,
            options=options,
            locale=locale,
        )


def choose(
    defaults: Defaults,
    *,
    variant: str | None,
    mode: str | None,
    options: Mapping[str, object],
    locale: str | None,
) -> NewTableChoice:
    """The host's choices, each missing one taken from the defaults where one applies to the
    table's variant; a stored value no longer offered is ignored (never a refusal at opening)."""
    inherited: dict[str, dict[str, str]] = {origin: {} for origin in ORIGINS}

    def take(key: str, chosen_variant: Variant | None) -> str | None:
        found = defaults.value(key)
        if found is None:
            return None
        value, origin = found
        spec = _BY_KEY.get(key)
        if spec is None or value not in spec.choices:
            return None
        if chosen_variant is not None and not spec.applies_to(chosen_variant):
            return None
        inherited[origin][key] = value
        return value

    picked = variant or take(VARIANT, None)
    if picked is None:
        raise Refusal("defaults.no_variant")
    table_variant = Variant(picked)
    chosen_options: dict[str, object] = dict(options)
    if locale:
        chosen_options[LANGUAGE] = locale
    for key in SETTING_KEYS:
        value = None if key in chosen_options else take(key, table_variant)
        if value is not None:
            chosen_options[key] = value
    chosen_locale = chosen_options.pop(LANGUAGE, None)
    return NewTableChoice(
        variant=table_variant,
        mode=mode or take(MODE, table_variant) or "1v1",
        options=chosen_options,
        locale=None if chosen_locale is None else str(chosen_locale),
        inherited={origin: keys for origin, keys in inherited.items() if keys},
    )


def _order(key: str) -> int:
    return list(_BY_KEY).index(key)


def inherited_key(table_id: int) -> str:
    """The meta key of what a lobby inherited from the defaults (JSON: origin -> {key: value})."""
    return f"defaults.inherited:{table_id}"


def encode_inherited(inherited: Mapping[str, Mapping[str, str]]) -> str:
    return json.dumps(inherited, sort_keys=True)


def decode_inherited(stored: str | None) -> dict[str, dict[str, str]]:
    if not stored:
        return {}
    data: Any = json.loads(stored)
    return {str(o): {str(k): str(v) for k, v in keys.items()} for o, keys in data.items()}


def key_label(key: str, locale: str) -> str:
    """A default's name in ``locale`` (the option's own name for a table option)."""
    return t(default_spec(key).label_key, locale)


def value_label(key: str, value: str, locale: str) -> str:
    """How ``value`` of default ``key`` reads in ``locale``."""
    words = default_spec(key).value_words
    if isinstance(words, Setting):
        return words.value_label(value, locale)
    return t(f"{words}.{value}", locale)


def items_text(values: Mapping[str, str], locale: str) -> str:
    """``Ace: wraps round, Turn timer (minutes): 5`` in the panel's order."""
    return ", ".join(
        t("lobby.option_item", locale, option=key_label(k, locale), value=value_label(k, v, locale))
        for k, v in sorted(values.items(), key=lambda item: _order(item[0]))
    )

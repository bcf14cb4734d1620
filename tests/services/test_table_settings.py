"""The table settings' registry (bot/features/play/settings.py): one codec that round-trips every
setting in today's stored format, and every setting offered wherever it is declared, with its
words in every language."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.features.defaults.service import Defaults
from bot.features.defaults.ui.panel import SERVER_CODE, panel_view
from bot.features.play.settings import (
    SETTINGS,
    Stored,
    TableSettings,
    Where,
    decode,
    encode,
    opening,
    setting,
)
from bot.features.play.tables import Table
from bot.features.play.ui.panels import settings_view, value_view
from bot.services.refusal import Refusal
from bot.storage import TableRecord
from bot.text import ENGLISH, TRANSLATIONS
from rummy_engine import Options, RuleViolation, Variant
from tests.discord.command_surface import registered_payload

#: A choice for any subset of the settings (each at one of its offered values).
CHOICES = st.fixed_dictionaries(
    {}, optional={s.key: st.sampled_from(s.choices) for s in SETTINGS}
)


@given(CHOICES, st.sampled_from([None, "en", "fr"]), st.integers(1, 1000))
def test_the_codec_round_trips_every_setting(
    choices: dict[str, str], locale: str | None, max_turns: int
) -> None:
    base = TableSettings(options=Options(max_turns_per_round=max_turns), language=locale)
    settings = base.with_choices(choices)
    for key, value in choices.items():
        assert setting(key).read(settings) == value, key
    stored = encode(settings)
    assert decode(stored) == settings
    # the stored form is canonical: what a table holds is what it would write again
    assert encode(decode(stored)) == stored
    assert json.loads(stored.options_json)["turn_timer"] == settings.turn_timer


def test_the_stored_format_is_the_one_tables_always_had() -> None:
    # as opened by /rummy new before the registry: changed engine options, the timer, the thread
    legacy = '{"ace_mode": "wrap", "atlas_max_reshuffles": null, "thread": "yes", "turn_timer": 5}'
    settings = decode(Stored(legacy, "fr"))
    assert settings.options.ace_mode.value == "wrap"
    assert settings.options.atlas_max_reshuffles is None
    assert (settings.turn_timer, settings.thread, settings.language) == (5, True, "fr")
    assert encode(settings) == Stored(legacy, "fr")
    # a table from before thread or language: no thread stated, the server's language
    old = decode(Stored('{"turn_timer": 0}', None))
    assert (old.thread, old.language, old.wants_thread) == (None, None, False)
    assert encode(old) == Stored('{"turn_timer": 0}', None)


def test_opening_takes_the_choices_over_the_declared_defaults() -> None:
    opened = opening(
        Variant.R51, {"ace_mode": "wrap", "thread": "no"}, turn_timer=2, language="en"
    )
    assert encode(opened) == Stored('{"ace_mode": "wrap", "thread": "no", "turn_timer": 2}', "en")
    assert opening(Variant.BASIC, {"language": "fr"}, turn_timer=0, language="en").language == "fr"


def test_bad_keys_and_values_are_refused_by_name() -> None:
    with pytest.raises(RuleViolation) as unknown:
        TableSettings().with_choices({"sideways": "1"})
    assert unknown.value.code == "options.unknown"
    with pytest.raises(RuleViolation):
        TableSettings().with_choices({"ace_mode": "sideways"})
    with pytest.raises(Refusal):
        TableSettings().with_choices({"turn_timer": "7"})
    with pytest.raises(Refusal):
        TableSettings().with_choices({"thread": "maybe"})


def _table(variant: Variant) -> Table:
    now = datetime(2026, 12, 5, tzinfo=UTC)
    record = TableRecord(
        id=7,
        guild_id=1,
        channel_id=2,
        host_id=10,
        status="lobby",
        variant=variant.value,
        mode="1v1" if variant is not Variant.BASIC else "basic",
        options_json='{"turn_timer": 0}',
        seed=1,
        snapshot_json=None,
        version=0,
        created_at=now,
        updated_at=now,
        finished_at=None,
        locale="en",
    )
    return Table(record, (), None)


def _select_values(view: discord.ui.View) -> list[str]:
    items = [getattr(c, "item", c) for c in view.children]
    (select,) = [c for c in items if isinstance(c, discord.ui.Select)]
    return [o.value for o in select.options]


def _has_words(key: str) -> None:
    assert key in ENGLISH, key
    for language, translation in TRANSLATIONS.items():
        assert key in translation.singular, (language, key)


async def test_every_setting_is_offered_where_declared_with_its_words(tmp_path: Path) -> None:
    (rummy,) = [c for c in await registered_payload(tmp_path) if c["name"] == "rummy"]
    new = next(child for child in rummy["options"] if child["name"] == "new")
    new_options: dict[str, Any] = {o["name"]: o for o in new["options"]}
    on_defaults_panel = _select_values(panel_view(Defaults({}, {}), SERVER_CODE, "en"))
    for declared in SETTINGS:
        key = declared.key
        in_new = key in new_options
        assert in_new == (Where.NEW in declared.offered), key
        if in_new:
            assert tuple(c["value"] for c in new_options[key]["choices"]) == declared.choices
            _has_words(f"command.new.{key}")
        assert (key in on_defaults_panel) == (Where.DEFAULTS in declared.offered), key
        for variant in Variant:
            in_lobby = key in _select_values(settings_view(_table(variant), "en", "en"))
            expected = Where.LOBBY in declared.offered and declared.applies_to(variant)
            assert in_lobby == expected, (key, variant)
            if in_lobby:
                offered = _select_values(value_view(_table(variant), key, "en", "en"))
                assert tuple(offered) == declared.choices, key
        _has_words(declared.label_key)
        for value in declared.choices:
            word = declared.value_key(value)
            if word is None:
                assert value.isdigit(), (key, value)  # numbers read the same everywhere
            else:
                _has_words(word)

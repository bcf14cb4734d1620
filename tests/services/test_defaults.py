"""Server defaults below Discord: the store keeps each scope's defaults apart (both stores, big
snowflake ids), and :func:`choose` completes a host's choices by the rules the panel promises —
the channel over the server, the host over both, only what applies to the table's variant."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.features.defaults.service import (
    DEFAULT_SPECS,
    Defaults,
    DefaultsService,
    NewTableChoice,
    choose,
)
from bot.services.refusal import Refusal
from bot.storage import Store, make_store
from rummy_engine import OPTION_SPECS, Variant

GUILD, CHANNEL, OTHER = 1 << 60, (1 << 60) + 5, (1 << 60) + 6


@pytest.fixture
async def store(store_url: str | Path) -> AsyncIterator[Store]:
    async with make_store(store_url) as opened:
        yield opened


async def test_each_scope_is_kept_apart_and_survives_a_reopen(
    store: Store, store_url: str | Path
) -> None:
    service = DefaultsService(store)
    await service.set(GUILD, 0, "variant", "r51")
    await service.set(GUILD, CHANNEL, "variant", "r71")
    await service.set(GUILD, CHANNEL, "turn_timer", "5")
    await service.set(GUILD, OTHER, "language", "fr")
    await service.set(GUILD, CHANNEL, "turn_timer", "10")
    loaded = await service.load(GUILD, CHANNEL)
    assert loaded == Defaults({"variant": "r51"}, {"variant": "r71", "turn_timer": "10"})
    with pytest.raises(Refusal):
        await service.set(GUILD, 0, "variant", "poker")
    with pytest.raises(Refusal):
        await service.set(GUILD, 0, "colour", "red")
    await service.set(GUILD, CHANNEL, "variant", None)
    async with make_store(store_url) as again:
        reread = await DefaultsService(again).load(GUILD, CHANNEL)
        assert reread == Defaults({"variant": "r51"}, {"turn_timer": "10"})
        await DefaultsService(again).clear(GUILD, 0)
        assert await again.get_table_defaults(GUILD, OTHER) == {0: {}, OTHER: {"language": "fr"}}


def test_every_engine_option_is_a_default() -> None:
    keys = [spec.key for spec in DEFAULT_SPECS]
    assert len(keys) == len(set(keys)) <= 25  # one select holds them all
    assert [spec.key for spec in OPTION_SPECS] == keys[-len(OPTION_SPECS) :]


def test_the_host_then_the_channel_then_the_server() -> None:
    defaults = Defaults(
        server={"variant": "r51", "mode": "2v2", "ace_mode": "wrap", "turn_timer": "5"},
        channel={"turn_timer": "off", "language": "fr", "thread": "yes"},
    )
    got = choose(defaults, variant=None, mode=None, options={"ace_mode": "low_only"}, locale=None)
    assert got == NewTableChoice(
        variant=Variant.R51,
        mode="2v2",
        options={"ace_mode": "low_only", "turn_timer": "off", "thread": "yes"},
        locale="fr",
        inherited={
            "server": {"variant": "r51", "mode": "2v2"},
            "channel": {"turn_timer": "off", "language": "fr", "thread": "yes"},
        },
    )


def test_only_what_applies_to_the_variant_is_inherited() -> None:
    defaults = Defaults(
        server={"mode": "2v2", "r51_require_natural_run": "on", "basic_rounds": "3"},
        channel={},
    )
    basic = choose(defaults, variant="basic", mode=None, options={}, locale=None)
    assert (basic.mode, basic.options) == ("1v1", {"basic_rounds": "3"})
    assert basic.inherited == {"server": {"basic_rounds": "3"}}
    r51 = choose(defaults, variant="r51", mode=None, options={}, locale=None)
    assert (r51.mode, r51.options) == ("2v2", {"r51_require_natural_run": "on"})


def test_no_variant_anywhere_is_refused_and_stale_values_are_ignored() -> None:
    with pytest.raises(Refusal) as refused:
        choose(Defaults({}, {}), variant=None, mode=None, options={}, locale=None)
    assert refused.value.code == "defaults.no_variant"
    stale = Defaults({"variant": "simple", "ace_mode": "sideways"}, {})
    got = choose(stale, variant=None, mode=None, options={}, locale=None)
    assert got.options == {} and got.inherited == {"server": {"variant": "simple"}}

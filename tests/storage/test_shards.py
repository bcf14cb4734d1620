"""Sharding: the settings that choose a process's shards, and the store listing only the tables
of the servers on them (start-up, healing and deadlines), with claims keeping a deadline from
firing twice when two processes' ranges overlap."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.config import ConfigError, parse_shard_ids, settings_from_mapping
from bot.services.dispatcher import Dispatcher
from bot.storage import Deadline, NewTable, Shards, Store, make_store

T0 = datetime(2026, 1, 1, tzinfo=UTC)
#: A real server id's timestamp part; shifted like Discord's ids so the shard formula applies.
EPOCH_MS = 41_943_040_000


def guild_on(shard: int, count: int, n: int = 0) -> int:
    """A server id that Discord's formula puts on ``shard`` of ``count``."""
    stamp = EPOCH_MS - EPOCH_MS % count + n * count + shard
    return (stamp << 22) | 12345


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        ("4", "0-1,3", Shards(4, (0, 1, 3))),
        ("4", None, Shards(4, (0, 1, 2, 3))),
        ("2", " 1 ", Shards(2, (1,))),
        (None, None, None),
    ],
)
def test_shard_settings_read_ranges(count: str | None, ids: str | None, expected: object) -> None:
    raw = {k: v for k, v in {"RUMMY_SHARD_COUNT": count, "RUMMY_SHARDS": ids}.items() if v}
    assert settings_from_mapping(raw, cwd=Path(".")).shards == expected


@pytest.mark.parametrize(
    ("raw", "says"),
    [
        ({"RUMMY_SHARDS": "0"}, "RUMMY_SHARDS is set, but RUMMY_SHARD_COUNT is not"),
        ({"RUMMY_SHARD_COUNT": "0"}, "(1 or more), but it is set to '0'"),
        ({"RUMMY_SHARD_COUNT": "two"}, "but it is set to 'two'"),
        ({"RUMMY_SHARD_COUNT": "2", "RUMMY_SHARDS": "2"}, "names shard 2, but"),
        ({"RUMMY_SHARD_COUNT": "4", "RUMMY_SHARDS": "3-1"}, "such as 0-3 or 0,2,5-7"),
        ({"RUMMY_SHARD_COUNT": "4", "RUMMY_SHARDS": "0;1"}, "but it is set to '0;1'"),
    ],
)
def test_bad_shard_settings_say_what_would_be_right(raw: dict[str, str], says: str) -> None:
    with pytest.raises(ConfigError) as caught:
        settings_from_mapping(raw, cwd=Path("."))
    [problem] = caught.value.problems
    assert says in problem


def test_shard_ids_parse_as_a_sorted_set() -> None:
    assert parse_shard_ids("5-7,0,6") == (0, 5, 6, 7)
    assert parse_shard_ids("") is None


def test_the_shard_formula_is_discords() -> None:
    # The example of Discord's documentation: (guild_id >> 22) % num_shards.
    guild = 197038439483310086
    assert Shards(2, ((guild >> 22) % 2,)).owns(guild)
    assert not Shards(2, (1 - (guild >> 22) % 2,)).owns(guild)
    assert all(Shards(3, (s,)).owns(guild_on(s, 3, n=7)) for s in range(3))


@pytest.fixture
async def store(store_url: Path | str) -> AsyncIterator[Store]:
    async with make_store(store_url) as opened:
        yield opened


async def tables_on_each_shard(store: Store, count: int) -> dict[int, int]:
    """One active table per shard, each with a pending deadline and an unpublished change."""
    by_shard: dict[int, int] = {}
    for shard in range(count):
        record = await store.create_table(
            NewTable(
                guild_id=guild_on(shard, count),
                channel_id=shard + 10,
                host_id=1,
                variant="r51",
                mode="1v1",
            )
        )
        await store.update_table_status(record.id, "active")
        due = T0 + timedelta(seconds=shard)
        await store.arm_deadlines(record.id, [Deadline(record.id, "turn", due, "g")])
        by_shard[shard] = record.id
    return by_shard


async def test_a_process_lists_only_the_tables_of_its_shards(store: Store) -> None:
    by_shard = await tables_on_each_shard(store, 4)
    mine = Shards(4, (1, 3))
    expected = {by_shard[1], by_shard[3]}
    assert {r.id for r in await store.list_active_tables(shards=mine)} == expected
    assert {r.id for r in await store.list_unpublished_tables(mine)} == expected
    assert {d.table_id for d in await store.next_deadlines(shards=mine)} == expected
    [nearest] = await store.next_deadlines(1, shards=mine)
    assert nearest.table_id == by_shard[1], "the nearest of its own, not shard 0's"
    everything = Shards(4, (0, 1, 2, 3))
    assert len(await store.list_active_tables(shards=everything)) == 4
    assert len(await store.next_deadlines(shards=None)) == 4


async def test_two_processes_fire_each_deadline_once(store_url: Path | str) -> None:
    """Two stores on one database stand for two processes; their ranges overlap on shard 1 (as
    while shards move from one process to another): every deadline fires exactly once."""
    fired: list[tuple[str, int]] = []
    async with make_store(store_url) as first, make_store(store_url) as second:
        by_shard = await tables_on_each_shard(first, 3)

        def fire_as(name: str, store: Store) -> Callable[[Deadline], Awaitable[None]]:
            async def fire(deadline: Deadline) -> None:
                if await store.claim_deadline(deadline):
                    fired.append((name, deadline.table_id))
                await asyncio.sleep(0)

            return fire

        now = lambda: T0 + timedelta(hours=1)  # noqa: E731 - everything is due
        a = Dispatcher(first, fire_as("a", first), now, Shards(3, (0, 1)))
        b = Dispatcher(second, fire_as("b", second), now, Shards(3, (1, 2)))
        await asyncio.gather(a.run_due(), b.run_due())
    assert sorted(t for _, t in fired) == sorted(by_shard.values())
    owners = dict((t, who) for who, t in fired)
    assert owners[by_shard[0]] == "a" and owners[by_shard[2]] == "b"

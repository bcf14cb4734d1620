"""Durable deadlines on both stores: arming keeps a generation's due time, a claim happens once
and only together with the move it causes, and the dispatcher fires what is due, nearest first,
once even when several processes (several stores on one database) run dispatchers at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.services.dispatcher import Dispatcher
from bot.storage import Deadline, DeadlineGone, NewTable, StaleVersion, Store, make_store

T0 = datetime(2026, 1, 1, tzinfo=UTC)


async def until(condition: Callable[[], bool]) -> None:
    """Yield to the event loop until ``condition`` holds (the database thread needs a few
    turns); no timed sleep."""
    for _ in range(200_000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never held")


@pytest.fixture
async def store(store_url: str | Path) -> AsyncIterator[Store]:
    async with make_store(store_url) as opened:
        yield opened


async def a_table(store: Store, status: str = "active") -> int:
    record = await store.create_table(
        NewTable(guild_id=1, channel_id=2, host_id=3, variant="r51", mode="1v1")
    )
    if status != "lobby":
        await store.update_table_status(record.id, status)  # type: ignore[arg-type]
    return record.id


async def test_arming_the_same_generation_keeps_its_due_time_and_fired_flag(
    store: Store,
) -> None:
    tid = await a_table(store)
    first = Deadline(tid, "turn", T0, "1:3", seat=0)
    assert await store.arm_deadlines(tid, [first]) == [first]
    stored = await store.arm_deadlines(
        tid, [Deadline(tid, "turn", T0 + timedelta(hours=1), "1:3", 0)]
    )
    [kept] = await store.get_deadlines(tid)
    assert kept == first, "re-arming after every commit never postpones a deadline"
    assert stored == [kept], "arming answers with the deadlines as stored, not as asked"
    assert await store.claim_deadline(first)
    await store.arm_deadlines(tid, [first])
    [fired] = await store.get_deadlines(tid)
    assert fired.fired, "a fired deadline stays fired for its generation"
    later = Deadline(tid, "turn", T0 + timedelta(minutes=2), "1:4", seat=1)
    await store.arm_deadlines(tid, [later])
    assert await store.get_deadlines(tid) == [later], "a new turn replaces it"
    await store.arm_deadlines(tid, [])
    assert await store.get_deadlines(tid) == []


async def test_an_empty_generation_keeps_whatever_is_stored(store: Store) -> None:
    tid = await a_table(store)
    human = Deadline(tid, "game_idle", T0, "v3")
    await store.arm_deadlines(tid, [human])
    await store.arm_deadlines(tid, [Deadline(tid, "game_idle", T0 + timedelta(days=1), "")])
    assert await store.get_deadlines(tid) == [human]


async def test_a_claim_happens_once(store: Store) -> None:
    tid = await a_table(store)
    deadline = Deadline(tid, "remind", T0, "1:1", 0)
    await store.arm_deadlines(tid, [deadline])
    assert await store.claim_deadline(deadline)
    assert not await store.claim_deadline(deadline)


async def test_a_move_that_claims_a_gone_deadline_writes_nothing(store: Store) -> None:
    tid = await a_table(store, "lobby")
    version = await store.commit_move(tid, 0, 3, "{}", "[]", "{}", status="active")
    deadline = Deadline(tid, "turn", T0, "1:1", 0)
    await store.arm_deadlines(tid, [deadline])
    version = await store.commit_move(
        tid, version, None, '{"a": 1}', "[]", "{}", claim=deadline, timeouts=(0, 1)
    )
    with pytest.raises(DeadlineGone):
        await store.commit_move(tid, version, None, '{"a": 2}', "[]", "{}", claim=deadline)
    assert len(await store.list_moves(tid)) == 2, "the second claim wrote no move"
    record = await store.get_table(tid)
    assert record is not None and record.version == version


async def test_a_status_change_can_claim_and_say_why(store: Store) -> None:
    tid = await a_table(store, "lobby")
    deadline = Deadline(tid, "lobby_idle", T0, "v1")
    await store.arm_deadlines(tid, [deadline])
    closed = await store.update_table_status(tid, "cancelled", reason="lobby_idle", claim=deadline)
    assert closed.closed_reason == "lobby_idle"
    with pytest.raises(DeadlineGone):
        await store.update_table_status(tid, "cancelled", reason="again", claim=deadline)
    again = await store.get_table(tid)
    assert again is not None and again.closed_reason == "lobby_idle"


async def test_pending_deadlines_come_nearest_first_and_only_for_open_tables(
    store: Store,
) -> None:
    open_id, closed_id = await a_table(store), await a_table(store)
    late = Deadline(open_id, "turn", T0 + timedelta(minutes=5), "1:1", 0)
    soon = Deadline(open_id, "remind", T0 + timedelta(minutes=1), "1:1", 0)
    await store.arm_deadlines(open_id, [late, soon])
    await store.arm_deadlines(closed_id, [Deadline(closed_id, "turn", T0, "1:1", 0)])
    await store.update_table_status(closed_id, "cancelled")
    assert await store.next_deadlines() == [soon, late]


async def test_the_dispatcher_fires_each_due_deadline_once_and_wakes_for_new_ones(
    store: Store,
) -> None:
    tid = await a_table(store)
    now = {"t": T0}
    fired: list[str] = []

    async def fire(deadline: Deadline) -> None:
        fired.append(deadline.kind)
        if deadline.kind == "boom":
            raise RuntimeError("a failing deadline must not spin")

    dispatcher = Dispatcher(store, fire, lambda: now["t"])
    await store.arm_deadlines(
        tid,
        [
            Deadline(tid, "boom", T0 - timedelta(seconds=1), "g"),
            Deadline(tid, "turn", T0 + timedelta(seconds=30), "g"),
        ],
    )
    dispatcher.start()
    await until(lambda: fired == ["boom"])
    await until(lambda: dispatcher._timer is not None)
    assert fired == ["boom"], "past due fires at start; the failure is logged and marked fired"
    now["t"] = T0 + timedelta(seconds=31)
    await store.arm_deadlines(
        tid,
        [
            Deadline(tid, "boom", T0 - timedelta(seconds=1), "g"),
            Deadline(tid, "turn", T0 + timedelta(seconds=30), "g"),
            Deadline(tid, "remind", T0, "g"),
        ],
    )
    dispatcher.wake()
    await until(lambda: len(fired) == 3)
    assert sorted(fired) == ["boom", "remind", "turn"]
    await dispatcher.close()


async def test_arming_a_later_deadline_costs_no_look_and_a_sooner_one_moves_the_timer(
    store: Store,
) -> None:
    """Every turn arms a deadline; only one sooner than the timer's makes the dispatcher read."""
    tid, other = await a_table(store), await a_table(store)
    looks = 0
    read = store.next_deadlines

    async def counted(*args: object, **kwargs: object) -> list[Deadline]:
        nonlocal looks
        looks += 1
        return await read(*args, **kwargs)  # type: ignore[arg-type]

    store.next_deadlines = counted  # type: ignore[method-assign]

    async def nothing(_: Deadline) -> None:
        raise AssertionError("nothing is due")

    dispatcher = Dispatcher(store, nothing, lambda: T0)
    await store.arm_deadlines(tid, [Deadline(tid, "turn", T0 + timedelta(seconds=60), "a")])
    dispatcher.start()
    await until(lambda: dispatcher._timer is not None)
    assert dispatcher._target == T0 + timedelta(seconds=60)
    settled = looks

    later = T0 + timedelta(seconds=90)
    await store.arm_deadlines(other, [Deadline(other, "turn", later, "a")])
    dispatcher.wake(later)
    for _ in range(100):
        await asyncio.sleep(0)
    assert looks == settled, "a deadline after the timer's needs no look"
    assert dispatcher._target == T0 + timedelta(seconds=60)

    sooner = T0 + timedelta(seconds=30)
    await store.arm_deadlines(other, [Deadline(other, "turn", sooner, "b")])
    dispatcher.wake(sooner)
    await until(lambda: dispatcher._target == sooner and dispatcher._timer is not None)
    assert looks > settled
    await dispatcher.close()


async def test_two_processes_claiming_one_deadline_claim_it_once(store_url: str | Path) -> None:
    async with make_store(store_url) as first, make_store(store_url) as second:
        tid = await a_table(first)
        deadline = Deadline(tid, "remind", T0, "1:1", 0)
        await first.arm_deadlines(tid, [deadline])
        claims = await asyncio.gather(
            *(s.claim_deadline(deadline) for s in (first, second) for _ in range(5))
        )
        assert sorted(claims) == [False] * 9 + [True]


async def test_two_dispatchers_on_one_database_make_a_deadline_move_once(
    store_url: str | Path,
) -> None:
    """Each process's dispatcher may see the same due deadline; the move it causes claims the
    deadline in its own transaction, so exactly one process commits it."""
    async with make_store(store_url) as first, make_store(store_url) as second:
        tid = await a_table(first)
        deadline = Deadline(tid, "turn", T0, "1:1", 0)
        await first.arm_deadlines(tid, [deadline])
        moved: list[str] = []
        refused: list[str] = []

        def mover(store: Store, name: str) -> Callable[[Deadline], Awaitable[None]]:
            async def fire(due: Deadline) -> None:
                record = await store.get_table(due.table_id)
                assert record is not None
                try:
                    await store.commit_move(
                        due.table_id, record.version, None, "{}", "[]", "{}", claim=due
                    )
                except (DeadlineGone, StaleVersion):
                    refused.append(name)
                else:
                    moved.append(name)

            return fire

        dispatchers = [
            Dispatcher(first, mover(first, "first"), lambda: T0),
            Dispatcher(second, mover(second, "second"), lambda: T0),
        ]
        fired = await asyncio.gather(*(d.run_due() for d in dispatchers))
        assert len(moved) == 1, (moved, refused)
        assert len(await first.list_moves(tid)) == 1
        assert sum(fired) >= 1
        assert await second.next_deadlines() == []

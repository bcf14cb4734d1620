"""A thread per game over real HTTP and WebSocket through the loopback emulator: a whole game in
its own thread (the parent channel gets at most two bot messages), a thread Discord archived
mid-game (the next move is still shown), a thread deleted mid-game (the table closes, nothing
more is sent into it), a channel where the bot may not open threads, and a failed publication
whose retry comes at the earliest due time."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import bot.features.play.ui.reconciler as reconciler
from bot.features.play.tables import Table
from rummy_engine import Phase, StartRound
from rummy_engine.strategy import choose_action
from tests.discord.conftest import command_for, make_bot
from tests.discord_emulator import EmuChannel, EmuUser, StoredMessage, emulated_discord
from tests.discord_emulator.server import DiscordEmulator
from tests.e2e.test_load_budget import bot_calls, interaction_calls, quiet

NOTICE = "🔔"


def bot_messages(emu: DiscordEmulator, channel: EmuChannel) -> list[StoredMessage]:
    """What everyone sees from the bot in ``channel`` (ephemeral answers are not in it)."""
    return [
        m
        for m in emu.channel_messages(channel)
        if not m.ephemeral and m.author_id == emu.bot_user.id
    ]


async def eventually(check: Callable[[], Any], what: str, timeout: float = 10.0) -> Any:
    """Poll an async check of the bot's stored state until it returns something truthy."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = await check()
        if found:
            return found
        if loop.time() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.02)


async def open_against_computer(
    emu: DiscordEmulator, bot: Any, alice: EmuUser, channel: EmuChannel, **options: str
) -> Table:
    """alice opens a Basic rummy table of one round with a thread, adds a computer, starts."""
    new = emu.slash(
        alice, channel, "rummy new", variant="basic", mode="basic", basic_rounds="1", **options
    )
    await (await new).answer()
    await (await emu.slash(alice, channel, "rummy computer", action="addbot")).answer()
    await (await emu.slash(alice, channel, "rummy start")).answer()
    (record,) = [r for r in await bot.store.list_active_tables(channel.guild_id)]
    return await bot.tables.load(record.id)  # type: ignore[no-any-return]


async def the_thread(emu: DiscordEmulator, bot: Any, table_id: int) -> EmuChannel:
    async def opened() -> EmuChannel | None:
        record = await bot.store.get_table(table_id)
        if record is None or not record.thread_id or record.thread_id not in emu.channels:
            return None
        return emu.channels[record.thread_id]

    thread: EmuChannel = await eventually(opened, "the game's thread")
    return thread


async def alice_to_play(bot: Any, table_id: int, seat: int) -> Table | None:
    table: Table = await bot.tables.load(table_id)
    game = table.require_game()
    if table.record.status != "active":
        return table
    if game.current == seat and game.phase in (Phase.DRAW, Phase.PLAY):
        return table
    return None


async def play_one(emu: DiscordEmulator, alice: EmuUser, thread: EmuChannel, table: Table) -> None:
    """alice types the move the engine's simple player picks, in the game's thread."""
    game = table.require_game()
    action = choose_action(game, random.Random(table.record.version))
    assert not isinstance(action, StartRound)
    name, options = command_for(action)
    answer = await (await emu.slash(alice, thread, name, **options)).answer()
    assert answer.ephemeral, answer.content


async def test_a_whole_game_in_its_own_thread_leaves_two_bot_messages_in_the_channel(
    tmp_path: Path,
) -> None:
    async with emulated_discord() as emu:
        alice, _bob, channel = emu.two_players()
        async with emu.running(make_bot(tmp_path / "rummy.db")) as bot:
            table = await open_against_computer(emu, bot, alice, channel, thread="yes")
            thread = await the_thread(emu, bot, table.id)
            assert thread.parent_id == channel.id and thread.is_thread
            here = await bot.tables.in_channel(channel.guild_id, channel.id)
            assert here is None, "the game moved to its thread: the parent is free again"
            assert "alice" in (thread.name or "") and f"#{table.id}" in (thread.name or "")
            seat = table.seat_of(alice.id)
            assert seat is not None
            for _ in range(400):
                now = await eventually(
                    lambda: alice_to_play(bot, table.id, seat), "alice's turn or the end"
                )
                if now.record.status != "active":
                    break
                await play_one(emu, alice, thread, now)
            final = await bot.tables.load(table.id)
            assert final.record.status == "finished"
            await emu.wait_until(
                lambda: len(bot_messages(emu, channel)) == 2, what="the result line"
            )
        lobby, result = bot_messages(emu, channel)
        assert f"<#{thread.id}>" in lobby.content and not lobby.custom_ids()
        assert f"/{channel.guild_id}/{thread.id}" in result.content and "won" in result.content
        in_thread = bot_messages(emu, thread)
        assert any(m.attachments and m.custom_ids() for m in in_thread), "the table"
        summaries = [a for m in in_thread for a in m.attachments if a.filename.startswith("round-")]
        assert summaries, "the round summary"
        # the turn notices (each deleted once its turn is over) were posted in the thread only
        everything = emu.channel_messages(thread, include_deleted=True)
        assert any(m.content.startswith(NOTICE) for m in everything)
        parent = emu.channel_messages(channel, include_deleted=True)
        assert not any(m.content.startswith(NOTICE) for m in parent)
        assert len([m for m in parent if not m.ephemeral]) == 2, "nothing posted and deleted"


async def test_a_thread_archived_before_a_computer_moves_is_unarchived_and_the_move_shown(
    tmp_path: Path,
) -> None:
    async with emulated_discord() as emu:
        alice, _bob, channel = emu.two_players()
        async with emu.running(make_bot(tmp_path / "rummy.db", computer_delay=1)) as bot:
            table = await open_against_computer(emu, bot, alice, channel, thread="yes")
            thread = await the_thread(emu, bot, table.id)
            seat = table.seat_of(alice.id)
            assert seat is not None
            now = await eventually(lambda: alice_to_play(bot, table.id, seat), "alice's turn")
            turn = now.require_game().turn
            while (await bot.tables.load(table.id)).require_game().current == seat:
                await play_one(emu, alice, thread, await bot.tables.load(table.id))
            # alice's turn is over and shown; the computer waits a second: archive the thread
            await emu.wait_until(
                lambda: "Computer" in table_message(emu, thread).content.split("▶")[1][:40],
                what="the computer's turn shown",
            )
            emu.archive_thread(thread)
            after = await eventually(
                lambda: alice_to_play(bot, table.id, seat), "alice's next turn", timeout=15
            )
            assert after.require_game().turn > turn
            await emu.wait_until(
                lambda: f"<@{alice.id}>" in table_message(emu, thread).content.split("▶")[1][:40],
                what="the computer's move shown on the table",
            )
        refused = [r for r in emu.requests_into(thread) if r.status == 400]
        assert refused, "Discord refused an edit in the archived thread"
        unarchive = [r for r in emu.requests_into(thread) if r.method == "PATCH" and r.path == f"/channels/{thread.id}"]
        assert len(unarchive) == 1 and not thread.archived


def table_message(emu: DiscordEmulator, thread: EmuChannel) -> StoredMessage:
    """The newest table message (at a new turn, the old one is deleted once the new one is
    posted)."""
    return [m for m in bot_messages(emu, thread) if m.attachments and m.custom_ids()][-1]


async def test_a_deleted_thread_closes_the_table_with_no_further_request_into_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "rummy.db"
    async with emulated_discord() as emu:
        alice, _bob, channel = emu.two_players()
        async with emu.running(make_bot(db, computer_delay=1)) as bot:
            table = await open_against_computer(emu, bot, alice, channel, thread="yes")
            thread = await the_thread(emu, bot, table.id)
            seat = table.seat_of(alice.id)
            assert seat is not None
            await eventually(lambda: alice_to_play(bot, table.id, seat), "alice's turn")
            while (await bot.tables.load(table.id)).require_game().current == seat:
                await play_one(emu, alice, thread, await bot.tables.load(table.id))
            await emu.wait_until(
                lambda: "Computer" in table_message(emu, thread).content.split("▶")[1][:40],
                what="the computer's turn shown",
            )
            emu.delete_channel(thread)  # before the computer's move

            async def closed() -> Table | None:
                found: Table = await bot.tables.load(table.id)
                return found if found.record.status == "cancelled" else None

            gone = await eventually(closed, "the table closed", timeout=15)
            assert gone.record.closed_reason == "channel_gone"
            await emu.wait_until(
                lambda: len(bot_messages(emu, channel)) == 2, what="the result line"
            )
            calls = len(emu.requests_into(thread))
            await asyncio.sleep(1.5)  # what a retry at 5 s would need is not waited for; none is armed
            assert len(emu.requests_into(thread)) == calls
            assert not (bot.reconciler._pending.get(table.id) or reconciler._Pending()).retry
        async with emu.running(make_bot(db)):
            await asyncio.sleep(0.2)  # start-up heals what is unpublished: not this table
        assert len(emu.requests_into(thread)) == calls
        _lobby, result = bot_messages(emu, channel)
        assert "thread was deleted" in result.content
        assert not any(m.custom_ids() for m in bot_messages(emu, channel))


async def test_a_channel_where_threads_are_refused_says_so_once_and_plays_there(
    tmp_path: Path,
) -> None:
    async with emulated_discord() as emu:
        alice, _bob, channel = emu.two_players()
        emu.forbid_threads(channel)
        async with emu.running(make_bot(tmp_path / "rummy.db")) as bot:
            table = await open_against_computer(emu, bot, alice, channel, thread="yes")

            async def refused() -> bool:
                record = await bot.store.get_table(table.id)
                return record is not None and record.thread_id == 0

            await eventually(refused, "the refusal recorded")
            await emu.wait_until(
                lambda: any("Create Public Threads" in m.content for m in bot_messages(emu, channel)),
                what="the sentence",
            )
            seat = table.seat_of(alice.id)
            assert seat is not None
            now = await eventually(lambda: alice_to_play(bot, table.id, seat), "alice's turn")
            await play_one(emu, alice, channel, now)
        said = [m for m in bot_messages(emu, channel) if "Create Public Threads" in m.content]
        assert len(said) == 1 and not emu.threads()


async def test_a_later_failure_is_retried_at_its_own_earlier_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pass fails twice (the second retry is armed a minute away), then a move is shown; the
    next move's pass fails once: its retry (a fraction of a second) is not swallowed by the
    minute-long one armed before."""
    monkeypatch.setattr(reconciler, "RETRY_DELAYS", (0.1, 60.0, 0.2, 600.0))
    async with emulated_discord() as emu:
        alice, _bob, channel = emu.two_players()
        async with emu.running(make_bot(tmp_path / "rummy.db")) as bot:
            table = await open_against_computer(emu, bot, alice, channel, thread="yes")
            thread = await the_thread(emu, bot, table.id)
            seat = table.seat_of(alice.id)
            assert seat is not None
            now = await eventually(lambda: alice_to_play(bot, table.id, seat), "alice's turn")
            emu.step_check = None  # the table is behind on purpose below
            emu.fail_requests("PATCH", f"/channels/{thread.id}/messages/*", times=2)
            await play_one(emu, alice, thread, now)  # fails, retried at 0.1 s: fails again
            pending = bot.reconciler._pending[table.id]
            await emu.wait_until(lambda: pending.failures == 2, what="two failures")
            assert pending.retry is not None  # a minute away
            now = await eventually(lambda: alice_to_play(bot, table.id, seat), "alice again")
            await play_one(emu, alice, thread, now)  # shown: failures back to 0
            await emu.wait_until(lambda: pending.failures == 0, what="a shown move")
            while (now := await eventually(lambda: alice_to_play(bot, table.id, seat), "alice")):
                if now.require_game().phase is Phase.DRAW:
                    break
                await play_one(emu, alice, thread, now)  # to the end of her turn
            await emu.wait_until(lambda: pending.failures == 0, what="all shown")
            emu.fail_requests("PATCH", f"/channels/{thread.id}/messages/*", times=1)
            version = now.record.version
            await play_one(emu, alice, thread, now)  # fails once; retry due at 0.1 s, not 60

            async def shown() -> bool:
                record = await bot.store.get_table(table.id)
                return record is not None and record.version > version and (
                    record.published == record.revision
                )

            await eventually(shown, "the failed move shown by its own retry", timeout=5)


async def test_a_turn_in_a_thread_costs_the_bot_token_what_it_costs_in_a_channel(
    tmp_path: Path,
) -> None:
    """The counts of tests/e2e/test_load_budget.py, in a game played in its thread: a draw
    costs the bot token nothing, a discard the mover's DM; the table and the notice ride on
    the thread's interactions. Opening the thread is paid once, at the start."""
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        async with emu.running(make_bot(tmp_path / "rummy.db")) as bot:
            new = emu.slash(alice, channel, "rummy new", variant="r51", thread="yes")
            await (await new).answer()
            await (await emu.slash(bob, channel, "rummy join")).answer()
            since = len(emu.requests)
            await (await emu.slash(alice, channel, "rummy start")).answer()
            await quiet(emu)
            (record,) = await bot.store.list_active_tables(channel.guild_id)
            thread = await the_thread(emu, bot, record.id)
            opened = [r for r in emu.requests[since:] if r.path.endswith("/threads")]
            assert len(opened) == 1, emu.requests[since:]
            users = {s.seat: u for s in (await bot.tables.load(record.id)).seats for u in (alice, bob) if s.user_id == u.id}
            # the first notice, posted with the bot token (the start was pressed in the parent
            # channel, whose interaction may not post into the thread), goes with the bot token
            # at the first turn's end: two calls a game, not a move
            first = (await bot.tables.load(record.id)).require_game()
            card = next(c.text for c in first.hands[first.current] if c.text != "JK")
            assert first.phase is Phase.PLAY  # Rummy 51: the first player holds 14 cards
            await (await emu.slash(users[first.current], thread, "rummy discard", card=card)).answer()
            await quiet(emu)
            for _ in range(4):
                game = (await bot.tables.load(record.id)).require_game()
                mover = users[game.current]
                since = len(emu.requests)
                if game.phase is Phase.DRAW:
                    handle = await emu.slash(mover, thread, "rummy draw", source="stock")
                    await handle.answer()
                    await quiet(emu)
                    assert bot_calls(emu, since) == [], emu.requests[since:]
                    assert interaction_calls(emu, since) == ["POST callback", "PATCH message"]
                    continue
                card = next(c.text for c in game.hands[game.current] if c.text != "JK")
                await (await emu.slash(mover, thread, "rummy discard", card=card)).answer()
                await quiet(emu)
                calls = Counter(bot_calls(emu, since))
                assert calls == {"PATCH channels/messages": 1}, emu.requests[since:]
                tokens = interaction_calls(emu, since)
                assert tokens[0] == "POST callback" and tokens[-1] == "POST followup", tokens
        assert len(bot_messages(emu, channel)) == 1, "the lobby line only, while the game runs"


async def test_a_table_in_a_thread_a_person_opened_is_unarchived_then_closed_when_deleted(
    tmp_path: Path,
) -> None:
    """The same handling for a table that was opened inside a thread (not one of the bot's)."""
    async with emulated_discord() as emu:
        alice, _bob, channel = emu.two_players()
        thread = emu.add_thread(channel, "our rummy night")
        async with emu.running(make_bot(tmp_path / "rummy.db", computer_delay=1)) as bot:
            table = await open_against_computer(emu, bot, alice, thread, thread="yes")
            seat = table.seat_of(alice.id)
            assert seat is not None
            for step in ("archive", "delete"):
                now = await eventually(lambda: alice_to_play(bot, table.id, seat), "alice's turn")
                while now.require_game().current == seat:
                    await play_one(emu, alice, thread, now)
                    now = await bot.tables.load(table.id)
                await emu.wait_until(
                    lambda: "Computer" in table_message(emu, thread).content.split("▶")[1][:40],
                    what="the computer's turn shown",
                )
                if step == "archive":
                    emu.archive_thread(thread)
                    continue
                emu.delete_channel(thread)

            async def closed() -> Table | None:
                found: Table = await bot.tables.load(table.id)
                return found if found.record.status == "cancelled" else None

            gone = await eventually(closed, "the table closed", timeout=15)
            assert gone.record.closed_reason == "channel_gone"
            calls = len(emu.requests_into(thread))
            await asyncio.sleep(1.5)
            assert len(emu.requests_into(thread)) == calls
        # thread:yes asked inside a thread: Discord refuses a thread there (50024), so the
        # game is played in the thread it was opened in
        assert gone.record.thread_id == 0 and gone.record.channel_id == thread.id
        assert not emu.threads(thread) and bot_messages(emu, channel) == []
        unarchived = [r for r in emu.requests_into(thread) if r.method == "PATCH" and r.path == f"/channels/{thread.id}"]
        assert len(unarchived) == 1

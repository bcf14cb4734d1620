"""A moderator deletes a table's message while the bot runs: through the real discord.py
gateway (MESSAGE_DELETE from the loopback emulator), the bot posts it again at once, without a
move; the created and edited messages' events it also receives build nothing."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_discord_faults import a_dealt_table, live_tables, notices, settled


async def test_a_moderator_deletes_the_table_message_and_it_is_posted_again(
    tmp_path: Path,
) -> None:
    async with a_dealt_table(tmp_path) as table:
        emu = table.emu
        await table.discard()
        version = (await table.bot.tables.load(table.table_id)).record.version
        (shown,) = live_tables(emu, table.table_id)
        await emu.delete_message(shown)
        await emu.wait_until(
            lambda: len(live_tables(emu, table.table_id)) == 1, what="the table posted again"
        )
        (again,) = live_tables(emu, table.table_id)
        assert again.id != shown.id and again.content == shown.content
        refs = {r.kind: r for r in await table.bot.store.get_message_refs(table.table_id)}
        assert refs["table"].message_id == again.id
        assert (await table.bot.tables.load(table.table_id)).record.version == version
        assert len(notices(emu)) == 1
        await settled(emu)
        # the bot heard the channel's messages being made (the servers' message events)
        assert any(event == "MESSAGE_CREATE" for event, _ in emu.gateway_events)
        assert not emu.bot_errors

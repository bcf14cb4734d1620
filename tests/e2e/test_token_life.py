"""A turn longer than an interaction token's life: the table's messages travel with the
tokens of the moves, which Discord refuses after 15 minutes; then the bot token takes over,
and nothing is stuck or shown twice. The emulator refuses tokens after a second here (as
Discord does after 15 minutes: 401 / 50027), and checks after every step that the channel
shows the stored table."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

from tests.e2e.test_load_budget import bot_calls, interaction_calls, quiet, two_player_table


async def test_a_turn_past_the_tokens_life_is_shown_with_the_bot_token(tmp_path: Path) -> None:
    async with two_player_table(tmp_path) as table:
        emu = table.emu
        shown = table.table_message()
        emu.token_life = 1.0
        await asyncio.sleep(1.2)  # the tokens that posted the table and the notice are refused
        since = len(emu.requests)
        kind, _ = await table.move()
        await quiet(emu)
        assert kind == "draw"
        refused = [r for r in emu.requests[since:] if r.status == 401]
        assert [r.method for r in refused] == ["PATCH"], "the old token was tried, once"
        assert bot_calls(emu, since) == ["PATCH channels/messages"], emu.requests[since:]
        assert table.table_message().id == shown.id
        since = len(emu.requests)
        kind, mover = await table.move()
        await quiet(emu)
        assert kind == "discard"
        # The old table message and notice go with the bot token (their tokens are refused);
        # the new ones are the discard's follow-ups, at the bottom of the channel.
        calls = Counter(bot_calls(emu, since))
        assert calls == {"DELETE channels/messages": 2, "PATCH channels/messages": 1}, calls
        assert interaction_calls(emu, since).count("POST followup") == 2
        public = emu.public_messages()
        assert public[-2].id == table.table_message().id != shown.id
        assert emu.get_message(shown.channel_id, shown.id).deleted
        other = next(u for u in table.users if u != mover)
        assert public[-1].content.startswith("🔔") and f"<@{other.id}>" in public[-1].content

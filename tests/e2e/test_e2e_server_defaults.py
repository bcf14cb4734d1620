"""Server defaults over real HTTP and WebSocket through the loopback emulator: the owner sets the
server's defaults and a channel's override in the private panel (each press an update of that
panel, no new message), the bot restarts, and ``/rummy new`` without a variant in each channel
opens the table the defaults describe and says what it inherited."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.discord.conftest import make_bot
from tests.discord_emulator import emulated_discord

DEFERRED_UPDATE = 6


async def press(emu: Any, user: Any, panel: Any, custom_id: str, value: str | None) -> Any:
    """Press a button (``value`` None) or pick ``value`` in the panel; wait for the panel's
    edit (the press is acknowledged as an update first) and return the panel as it is then."""
    shown = seen(emu, panel)
    if value is None:
        handle = await emu.click(user, panel, f"rummy:0:0:{custom_id}")
    else:
        handle = await emu.select(user, panel, f"rummy:0:0:{custom_id}", [value])
    await handle.response()
    assert handle.response_type == DEFERRED_UPDATE
    await emu.wait_until(lambda: seen(emu, panel) != shown, what="the panel edited")
    return emu.get_message(panel.channel_id, panel.id)


def seen(emu: Any, panel: Any) -> str:
    message = emu.get_message(panel.channel_id, panel.id)
    return json.dumps([message.content, message.components], sort_keys=True)


async def test_defaults_set_in_the_panel_open_the_tables_after_a_restart(tmp_path: Path) -> None:
    async with emulated_discord() as emu:
        owner, bob = emu.add_user("owner"), emu.add_user("bob")
        guild = emu.add_guild("Rummy Club", members=[owner, bob])
        lounge = emu.add_text_channel(guild, "rummy")
        french = emu.add_text_channel(guild, "rami")
        db = tmp_path / "rummy.db"
        async with emu.running(make_bot(db)):
            panel = await (await emu.slash(owner, lounge, "rummy-settings server")).answer()
            assert panel.ephemeral and "on this server" in panel.content
            for key, value in (("variant", "basic"), ("basic_rounds", "2")):
                panel = await press(emu, owner, panel, "defkey:s", key)
                panel = await press(emu, owner, panel, f"defval:s_{key}", value)
            assert "Set here: Variant: Basic rummy, Rounds: 2" in panel.content

            other = await (await emu.slash(owner, french, "rummy-settings server")).answer()
            other = await press(emu, owner, other, "defscope:c", None)
            other = await press(emu, owner, other, "defkey:c", "language")
            other = await press(emu, owner, other, "defval:c_language", "fr")
            assert f"in <#{french.id}>" in other.content and "Language: Français" in other.content
            assert emu.public_messages() == [], "the panel posts nothing public"

        async with emu.running(make_bot(db)) as bot:
            for user, channel in ((owner, lounge), (bob, french)):
                opened = await (await emu.slash(user, channel, "rummy new")).answer()
                assert opened.ephemeral
            await emu.wait_until(lambda: len(emu.public_messages()) == 2, what="two lobbies")
            tables = bot.tables  # type: ignore[attr-defined]
            here = await tables.in_channel(guild.id, lounge.id)
            there = await tables.in_channel(guild.id, french.id)
            assert (here.record.variant, here.record.locale) == ("basic", "en")
            assert (there.record.variant, there.record.locale) == ("basic", "fr")
            for table in (here, there):
                assert json.loads(table.record.options_json) == {"basic_rounds": 2, "turn_timer": 0}
            lobbies = {m.channel_id: m.content for m in emu.public_messages()}
            assert "Server defaults: Variant: Basic rummy, Rounds: 2" in lobbies[lounge.id]
            assert "Réglages par défaut de ce salon : Langue : Français" in lobbies[french.id]

"""End-to-end smoke test: a real discord.py bot over real HTTP + WebSocket against the emulator.

Why this exists next to the SimCord tests: SimCord swaps discord.py's HTTP and
gateway seams in-process, so it cannot catch transport-level mistakes
(multipart uploads, webhook follow-ups, callback ``with_response`` bodies, error
JSON mapping). Here the only fake is the server on 127.0.0.1.
"""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.discord_emulator import DiscordEmulator, EmuChannel, EmuGuild, EmuUser, emulated_discord


def _png_bytes() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


class BumpButton(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:bump:(?P<n>\d+)"):
    """Persistent counter button: all state lives in the custom_id, so it survives restarts."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Bump ({n})", custom_id=f"demo:bump:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> BumpButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(BumpButton(self.n + 1))
        await interaction.response.edit_message(content=f"count={self.n + 1}", view=view)


class ColourSelect(discord.ui.Select):
    def __init__(self) -> None:
        super().__init__(
            custom_id="demo:colour",
            options=[discord.SelectOption(label=c, value=c) for c in ("red", "blue")],
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"picked {self.values[0]}", ephemeral=True)


@dataclass
class Recorder:
    """What the bot observed, so tests can assert on bot-side exceptions too."""

    dm_errors: list[discord.HTTPException] = field(default_factory=list)


def make_bot(guild_id: int) -> tuple[commands.Bot, Recorder]:
    recorder = Recorder()
    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
    demo = app_commands.Group(name="demo", description="Demo commands")

    @demo.command(name="ping", description="Pong")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    @demo.command(name="slow", description="Deferred then follow-up")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("done after defer")
        await interaction.followup.send("second follow-up", ephemeral=True)

    @demo.command(name="card", description="DM me a card image")
    async def card(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await interaction.user.send(
                "Your card", file=discord.File(io.BytesIO(_png_bytes()), "card.png")
            )
        except discord.Forbidden as exc:
            recorder.dm_errors.append(exc)
            await interaction.followup.send(f"I can't DM you (code {exc.code})", ephemeral=True)
        else:
            await interaction.followup.send("Check your DMs", ephemeral=True)

    @demo.command(name="panel", description="Post a panel")
    async def panel(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(BumpButton(0))
        view.add_item(ColourSelect())
        await interaction.response.send_message("count=0", view=view)

    @demo.command(name="announce", description="Post then edit via bot token")
    async def announce(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message("ok", ephemeral=True)
        assert interaction.channel is not None and isinstance(
            interaction.channel, discord.TextChannel
        )
        message = await interaction.channel.send(text)
        await message.edit(content=f"{text} (edited)")

    @demo.command(name="boom", description="Raises, to prove bot errors fail the test")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("kaboom")

    bot.tree.add_command(demo)

    async def setup_hook() -> None:
        bot.add_dynamic_items(BumpButton)
        bot.add_view(discord.ui.View(timeout=None).add_item(ColourSelect()))
        bot.tree.copy_global_to(guild=discord.Object(guild_id))
        await bot.tree.sync(guild=discord.Object(guild_id))

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot, recorder


@dataclass
class World:
    emu: DiscordEmulator
    bot: commands.Bot
    recorder: Recorder
    alice: EmuUser
    bob: EmuUser
    guild: EmuGuild
    general: EmuChannel


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with emulated_discord() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        guild = emu.add_guild("Rummy Club", members=[alice, bob])
        general = emu.add_text_channel(guild, "general")
        bot, recorder = make_bot(guild.id)
        async with emu.running(bot):
            yield World(emu, bot, recorder, alice, bob, guild, general)


async def test_login_ready_and_guild_create(world: World) -> None:
    bot, emu = world.bot, world.emu
    assert bot.user is not None and bot.user.id == emu.bot_user.id
    guild = bot.get_guild(world.guild.id)
    assert guild is not None and guild.name == "Rummy Club"
    assert [c.name for c in guild.text_channels] == ["general"]
    assert guild.member_count == 3
    assert emu.identify_payloads[0]["token"] == emu.token
    # discord.py asks for transport compression; the emulator honours it.
    assert emu.gateway_queries[0]["compress"] in ("zlib-stream", "zstd-stream")
    assert bot.ws is not None and bot.ws.session_id is not None


async def test_command_sync_reaches_emulator(world: World) -> None:
    emu = world.emu
    assert [gid for gid, _ in emu.sync_calls] == [world.guild.id]
    (demo,) = emu.synced_commands(world.guild)
    assert demo["name"] == "demo"
    assert {o["name"] for o in demo["options"]} == {
        "ping",
        "slow",
        "card",
        "panel",
        "announce",
        "boom",
    }
    await world.bot.tree.sync()  # global sync is a separate PUT
    assert len(emu.sync_calls) == 2 and emu.synced_commands()[0]["name"] == "demo"


async def test_slash_command_answered(world: World) -> None:
    handle = await world.emu.slash(world.alice, world.general, "demo ping")
    message = await handle.response()
    assert handle.response_type == 4
    assert message is not None and message.content == "pong" and not message.ephemeral
    assert message.interaction_user_id == world.alice.id


async def test_deferred_response_then_followups(world: World) -> None:
    handle = await world.emu.slash(world.bob, world.general, "demo slow")
    await handle.response()
    assert handle.response_type == 5
    first, second = await handle.followups(count=2)
    # The first follow-up replaces the "thinking" message, as on Discord.
    assert first.id == handle.record.response_message_id and first.content == "done after defer"
    assert not first.loading and not first.ephemeral
    assert second.content == "second follow-up" and second.ephemeral
    assert "second follow-up" not in [m.content for m in world.emu.public_messages()]


async def test_dm_with_png_attachment(world: World) -> None:
    handle = await world.emu.slash(world.alice, world.general, "demo card")
    (reply,) = await handle.followups()
    assert reply.ephemeral and reply.content == "Check your DMs"
    (dm,) = world.emu.dm_messages(world.alice)
    assert dm.content == "Your card"
    (attachment,) = dm.attachments
    assert attachment.filename == "card.png"
    assert attachment.data.startswith(b"\x89PNG\r\n\x1a\n")
    assert world.emu.dm_messages(world.bob) == []
    assert all(not m.attachments for m in world.emu.public_messages())


async def test_closed_dms_surface_as_forbidden_50007(world: World) -> None:
    world.emu.forbid_dms(world.bob)
    handle = await world.emu.slash(world.bob, world.general, "demo card")
    (reply,) = await handle.followups()
    assert reply.content == "I can't DM you (code 50007)" and reply.ephemeral
    (error,) = world.recorder.dm_errors
    assert isinstance(error, discord.Forbidden) and error.code == 50007 and error.status == 403
    assert world.emu.dm_messages(world.bob) == []


async def test_button_click_and_select(world: World) -> None:
    emu = world.emu
    panel = await (await emu.slash(world.alice, world.general, "demo panel")).response()
    assert panel is not None and panel.custom_ids() == ["demo:bump:0", "demo:colour"]

    click = await emu.click(world.bob, panel, "demo:bump:0")
    await click.response()
    assert click.response_type == 7
    edited = emu.get_message(panel.channel_id, panel.id)
    assert edited.content == "count=1" and edited.custom_ids() == ["demo:bump:1"]

    second = await emu.click(world.alice, edited, "demo:bump:1")
    await second.response()
    assert emu.get_message(panel.channel_id, panel.id).content == "count=2"

    fresh = await (await emu.slash(world.alice, world.general, "demo panel")).response()
    assert fresh is not None
    picked = await (await emu.select(world.bob, fresh, "demo:colour", ["blue"])).response()
    assert picked is not None and picked.content == "picked blue" and picked.ephemeral


async def test_message_edit_via_bot_token(world: World) -> None:
    emu = world.emu
    handle = await emu.slash(world.alice, world.general, "demo announce", text="Game starts")
    await handle.response()
    await emu.wait_until(
        lambda: any(
            m.content == "Game starts (edited)" for m in emu.channel_messages(world.general)
        ),
        what="announcement edit",
    )
    (announcement,) = [m for m in emu.channel_messages(world.general) if m.interaction_id is None]
    assert announcement.edit_count == 1 and announcement.webhook_id is None
    methods = [(r.method, r.path) for r in emu.requests]
    assert ("PATCH", f"/channels/{world.general.id}/messages/{announcement.id}") in methods


async def test_unknown_route_is_reported() -> None:
    async with emulated_discord(strict=False) as emu:
        guild = emu.add_guild("g", members=[emu.add_user("carol")])
        bot, _ = make_bot(guild.id)
        async with emu.running(bot):
            with pytest.raises(discord.NotFound):
                await bot.fetch_guild_preview(guild.id)
        assert emu.unknown_routes == [f"GET /api/v10/guilds/{guild.id}/preview"]


async def test_bot_side_exception_fails_teardown() -> None:
    async with emulated_discord() as emu:
        alice = emu.add_user("alice")
        guild = emu.add_guild("g", members=[alice])
        general = emu.add_text_channel(guild, "general")
        bot, _ = make_bot(guild.id)
        with pytest.raises(AssertionError, match="kaboom"):
            async with emu.running(bot):
                await emu.slash(alice, general, "demo boom")
                await emu.wait_until(lambda: bool(emu.bot_errors), what="the logged command error")


async def test_wrong_token_is_rejected() -> None:
    async with emulated_discord() as emu:
        bot, _ = make_bot(emu.add_guild("g").id)
        with pytest.raises(discord.LoginFailure):
            async with emu.running(bot, token="not-the-token"):
                pass
        assert emu.requests[0].status == 401

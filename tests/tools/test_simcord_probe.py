"""SimCord 3.2 probe: living documentation of how we drive a real discord.py bot with SimCord.

Each test exercises one capability the rummy bot needs (see ``tests/SIMCORD_NOTES.md``):
slash commands as different users, autocomplete, ephemeral replies, defer + follow-up
with a file, DMs with PNGs, closed DMs (403/50007), a persistent ``DynamicItem``
button that checks ``interaction.user``, a select, view timeouts via ``advance_time``
and a bot restart on the same SQLite file.

The bot below is deliberately tiny but shaped like ours: a cog with an
``app_commands.Group``, aiosqlite state, ``tree.sync()`` in ``setup_hook``.
"""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiosqlite
import discord
import pytest
import simcord
from discord import app_commands
from discord.ext import commands
from PIL import Image

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
NAMES = ["alice", "bob", "carol"]


def png_file(name: str = "card.png") -> discord.File:
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), (0, 128, 0)).save(buffer, format="PNG")
    buffer.seek(0)
    return discord.File(buffer, name)


class CounterButton(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:(?P<n>\d+)"):
    """Persistent button; ``demo:<n>`` names counter row n in SQLite (owner + count)."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="+1", custom_id=f"demo:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str], /
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        assert isinstance(interaction.client, DemoBot)
        db = interaction.client.db
        async with db.execute(
            "SELECT owner_id, count FROM counters WHERE id = ?", (self.n,)
        ) as cur:
            row = await cur.fetchone()
        if row is None or row[0] != interaction.user.id:
            await interaction.response.send_message("Not your counter.", ephemeral=True)
            return
        await db.execute("UPDATE counters SET count = count + 1 WHERE id = ?", (self.n,))
        await db.commit()
        await interaction.response.edit_message(content=f"count={row[1] + 1}")


class PickView(discord.ui.View):
    """A select with a 30 s timeout; on timeout it edits the message (tests advance_time)."""

    def __init__(self) -> None:
        super().__init__(timeout=30)
        self.message: discord.InteractionMessage | None = None

    @discord.ui.select(
        custom_id="demo:pick",
        options=[discord.SelectOption(label=c, value=c) for c in ("red", "green", "blue")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(
            f"{interaction.user.name} picked {select.values[0]}"
        )

    async def on_timeout(self) -> None:
        if self.message is not None:
            await self.message.edit(content="Selection closed", view=None)


class DemoCog(commands.Cog):
    demo = app_commands.Group(name="demo", description="Demo commands")

    def __init__(self, bot: DemoBot) -> None:
        self.bot = bot

    @demo.command(name="greet", description="Public reply with an autocompleted option")
    async def greet(self, interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"Hello {name}, from {interaction.user.name}")

    @greet.autocomplete("name")
    async def greet_name(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=n, value=n) for n in NAMES if n.startswith(current)]

    @demo.command(name="secret", description="Ephemeral reply")
    async def secret(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Only you can see this", ephemeral=True)

    @demo.command(name="report", description="Deferred reply + follow-up with a file")
    async def report(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("Scores", file=png_file("scores.png"))

    @demo.command(name="card", description="DM the user a PNG")
    async def card(self, interaction: discord.Interaction) -> None:
        try:
            await interaction.user.send("Your hand", file=png_file())
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"Open your DMs ({exc.code})", ephemeral=True)
        else:
            await interaction.response.send_message("Sent you a DM", ephemeral=True)

    @demo.command(name="counter", description="Post a persistent counter button")
    async def counter(self, interaction: discord.Interaction) -> None:
        cur = await self.bot.db.execute(
            "INSERT INTO counters (owner_id, count) VALUES (?, 0)", (interaction.user.id,)
        )
        await self.bot.db.commit()
        assert cur.lastrowid is not None
        view = discord.ui.View(timeout=None).add_item(CounterButton(cur.lastrowid))
        await interaction.response.send_message("count=0", view=view)

    @demo.command(name="pick", description="Post a select that closes after 30 s")
    async def pick(self, interaction: discord.Interaction) -> None:
        view = PickView()
        await interaction.response.send_message("Pick a colour", view=view)
        view.message = await interaction.original_response()


class DemoBot(commands.Bot):
    """Bot factory target: a fresh instance per (re)start, sharing only the SQLite file."""

    def __init__(self, db_path: Path) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.db_path = db_path
        self.db: aiosqlite.Connection

    async def setup_hook(self) -> None:
        self.db = await aiosqlite.connect(self.db_path)
        await self.db.execute(
            "CREATE TABLE IF NOT EXISTS counters "
            "(id INTEGER PRIMARY KEY, owner_id INTEGER NOT NULL, count INTEGER NOT NULL)"
        )
        await self.db.commit()
        await self.add_cog(DemoCog(self))
        self.add_dynamic_items(CounterButton)
        await self.tree.sync()  # SimCord's strict_sync: only synced commands can be invoked

    async def close(self) -> None:
        if hasattr(self, "db"):
            await self.db.close()
        await super().close()


# ---------------------------------------------------------------- fixtures


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "demo.sqlite3"


@pytest.fixture
def simcord_bot(db_path: Path) -> DemoBot:
    """Consumed by SimCord's own ``simcord_env`` fixture (pytest11 plugin, auto-loaded)."""
    return DemoBot(db_path)


@dataclass
class World:
    env: simcord.Env
    guild: simcord.GuildHandle
    table: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor


@pytest.fixture
async def world(simcord_env: simcord.Env) -> AsyncIterator[World]:
    guild = simcord_env.create_guild("Rummy Club")
    table = guild.create_text_channel("table")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    yield World(simcord_env, guild, table, alice, bob)
    await simcord_env.bot.close()  # SimCord never calls bot.close(); ours closes the DB


# ---------------------------------------------------------------- tests


async def test_slash_as_different_users(world: World) -> None:
    table, alice, bob = world.table, world.alice, world.bob
    first = await alice.slash(table, "demo greet", name="bob")
    second = await bob.slash(table, "demo greet", name="alice")
    assert first.response is not None and first.response.content == "Hello bob, from alice"
    assert not first.ephemeral
    assert second.response is not None and second.response.content == "Hello alice, from bob"
    assert table.last_message is not None and table.last_message.interaction_metadata is not None
    assert table.last_message.interaction_metadata.user.id == bob.id


async def test_autocomplete(world: World) -> None:
    choices = await world.alice.autocomplete(world.table, "demo greet", "name", "b")
    assert choices == [{"name": "bob", "value": "bob"}]


async def test_ephemeral_reply_is_hidden_from_others(world: World) -> None:
    table, alice, bob = world.table, world.alice, world.bob
    result = await alice.slash(table, "demo secret")
    assert result.ephemeral and result.response is not None and result.response.ephemeral
    assert result.response.flags.ephemeral
    assert "Only you can see this" in [m.content for m in table.history(viewer=alice)]
    assert "Only you can see this" not in [m.content for m in table.history(viewer=bob)]


async def test_deferred_reply_with_file_followup(world: World) -> None:
    env = world.env
    result = await world.alice.slash(world.table, "demo report")
    # Gotcha: ``result.deferred`` means "still thinking"; the first follow-up completes the
    # defer (it *replaces* the loading message), so afterwards deferred is False and
    # ``followups`` is empty. Assert the defer itself on the recorded callback instead.
    assert not result.deferred and result.followups == []
    callbacks = [r.json for r in env.http_requests if r.path.endswith("/callback")]
    assert callbacks == [{"type": 5}]
    message = result.response
    assert message is not None and message.content == "Scores"
    (attachment,) = message.attachments
    assert attachment.filename == "scores.png"
    assert (await attachment.read()).startswith(PNG_SIGNATURE)


async def test_dm_with_png(world: World) -> None:
    alice, bob = world.alice, world.bob
    result = await alice.slash(world.table, "demo card")
    assert result.ephemeral and result.response is not None
    assert result.response.content == "Sent you a DM"
    (dm,) = alice.user.dm_channel.history()
    assert dm.content == "Your hand" and dm.author.bot
    assert (await dm.attachments[0].read()).startswith(PNG_SIGNATURE)
    assert bob.user.dm_channel.history() == []


async def test_closed_dms_via_inject_error(world: World) -> None:
    env, bob = world.env, world.bob
    dm = bob.user.dm_channel  # created on demand, so its id is known before the bot opens it
    env.inject_error(
        "POST",
        f"/channels/{dm.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
    )
    result = await bob.slash(world.table, "demo card")
    assert result.response is not None and result.response.content == "Open your DMs (50007)"
    assert dm.history() == []
    # times=1 (default): the next DM goes through.
    await bob.slash(world.table, "demo card")
    assert len(dm.history()) == 1


async def test_dynamic_button_checks_user(world: World) -> None:
    table, alice, bob = world.table, world.alice, world.bob
    posted = await alice.slash(table, "demo counter")
    assert posted.response is not None
    custom_id = posted.response.components[0]["components"][0]["custom_id"]
    assert re.fullmatch(r"demo:\d+", custom_id)

    denied = await bob.click(posted.response, custom_id=custom_id)
    assert denied.ephemeral and denied.response is not None
    assert denied.response.content == "Not your counter."
    assert posted.response.content == "count=0"  # handles are live: re-read from the backend

    await alice.click(posted.response, label="+1")
    assert posted.response.content == "count=1"


async def test_select_and_view_timeout(world: World) -> None:
    env, table, bob = world.env, world.table, world.bob
    posted = await world.alice.slash(table, "demo pick")
    assert posted.response is not None
    picked = await bob.select(posted.response, ["blue"], custom_id="demo:pick")
    assert picked.response is not None and picked.response.content == "bob picked blue"

    await env.advance_time(31)  # instant: fires PickView.on_timeout
    assert posted.response.content == "Selection closed"
    assert posted.response.components == []


async def test_restart_keeps_sqlite_state_and_dynamic_button(world: World, db_path: Path) -> None:
    env, table, alice = world.env, world.table, world.alice
    posted = await alice.slash(table, "demo counter")
    assert posted.response is not None
    await alice.click(posted.response, label="+1")

    old_bot = env.bot
    await env.restart_bot(DemoBot(db_path))  # fresh process-equivalent, same file
    await old_bot.close()  # SimCord detaches but does not close the old bot
    assert env.bot is not old_bot

    await alice.click(posted.response, label="+1")  # message posted by the previous bot
    assert posted.response.content == "count=2"
    # Commands synced by the old bot stay registered in the virtual Discord.
    again = await alice.slash(table, "demo greet", name="carol")
    assert again.response is not None and again.response.content == "Hello carol, from alice"


async def test_run_context_manager_without_fixture(db_path: Path) -> None:
    """``simcord.run`` is the non-fixture form (e.g. to pass options or build bots inline)."""
    bot = DemoBot(db_path)
    async with simcord.run(bot, settle_timeout=5.0) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("general")
        carol = guild.add_member(env.create_user("carol"))
        result = await carol.slash(channel, "demo secret")
        assert result.ephemeral
        # REST calls the bot made are recorded (files are not captured).
        assert any(r.method == "POST" and "callback" in r.path for r in env.http_requests)
    await bot.close()

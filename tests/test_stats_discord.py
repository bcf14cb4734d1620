"""SimCord tests of /rummy leaderboard, /rummy stats and the persistent page buttons.

The bot here is test-only but wired the way the real one must be: a ``rummy`` GroupCog whose
two thin commands call :mod:`bot.ui.leaderboard`, ``bot.stats`` exposing the service, and
``add_dynamic_items(bound_page_button(service))`` so old page buttons work after a restart.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import count
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands
from discord.ext import commands

from bot.services.stats import FinishedGame, StatsService
from bot.storage import SeatRecord, SqliteStore
from bot.text import MESSAGES
from bot.text.catalog_stats import STATS_EN
from bot.ui import errors
from bot.ui.leaderboard import (
    SCOPE_CHOICES,
    SORT_CHOICES,
    VARIANT_CHOICES,
    bound_page_button,
    leaderboard_command,
    stats_command,
)
from rummy_engine import Game, Phase, Rules, Variant
from tests.discord.conftest import assert_only_refusals


def test_the_statistics_sentences_are_in_the_catalogue() -> None:
    """t() serves STATS_EN (the catalogue is immutable once loaded, so nothing is patched in)."""
    english = MESSAGES["en"]
    assert all(english.get(key) == text for key, text in STATS_EN.items())


class RummyCog(commands.GroupCog, group_name="rummy", group_description="Rummy"):
    """Stand-in for the lead's /rummy GroupCog: only the two thin statistics commands."""

    def __init__(self, bot: StatsBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="Ranked players")
    @app_commands.choices(variant=VARIANT_CHOICES, scope=SCOPE_CHOICES, sort=SORT_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        variant: str | None = None,
        scope: str = "server",
        sort: str = "rating",
    ) -> None:
        await leaderboard_command(
            interaction, self.bot.stats, variant=variant, scope=scope, sort=sort
        )

    @app_commands.command(name="stats", description="A player's statistics")
    async def stats(
        self, interaction: discord.Interaction, player: discord.Member | None = None
    ) -> None:
        await stats_command(interaction, self.bot.stats, player=player)


class StatsBot(commands.Bot):
    """A fresh instance per (re)start; only the SQLite file is shared."""

    def __init__(self, db_path: Path) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.store = SqliteStore(db_path)
        self.stats = StatsService(self.store)  # the documented attribute the buttons use

    async def setup_hook(self) -> None:
        await self.store.open()
        await self.add_cog(RummyCog(self))
        self.add_dynamic_items(bound_page_button(self.stats))
        self.tree.on_error = errors.answer  # type: ignore[method-assign]
        await self.tree.sync()

    async def close(self) -> None:
        await self.store.close()
        await super().close()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "rummy.sqlite3"


@pytest.fixture
def simcord_bot(db_path: Path) -> StatsBot:
    return StatsBot(db_path)


@dataclass
class World:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor


@pytest.fixture
async def world(simcord_env: simcord.Env) -> AsyncIterator[World]:
    guild = simcord_env.create_guild("Rummy Club")
    channel = guild.create_text_channel("rummy")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    yield World(simcord_env, guild, channel, alice, bob)
    await simcord_env.bot.close()
    assert_only_refusals(simcord_env)


_tables = count(1)


def one_v_one(guild_id: int, winner: tuple[int, str], loser: tuple[int, str]) -> FinishedGame:
    """A finished Rummy 51 1v1 game won by seat 0."""
    game = Game.new(Rules(Variant.R51, 2), seed=1)
    game.phase, game.winners, game.scores = Phase.GAME_OVER, [0], [40, 260]
    moment = datetime(2025, 5, 1, tzinfo=UTC)
    return FinishedGame(
        table_id=next(_tables),
        guild_id=guild_id,
        channel_id=1,
        mode="1v1",
        options_json="{}",
        seats=(SeatRecord(0, winner[0], name=winner[1]), SeatRecord(1, loser[0], name=loser[1])),
        game=game,
        started_at=moment,
        ended_at=moment,
    )


async def seed(world: World) -> None:
    """24 players: 22 strangers win/lose in pairs; alice and bob share the last game, which
    alice loses, so she ranks last (24th) by wins, off the first page."""
    bot = world.env.bot
    assert isinstance(bot, StatsBot)
    service = bot.stats
    for n in range(11):
        winner, loser = 10_000 + 2 * n, 10_001 + 2 * n
        await service.record(
            one_v_one(world.guild.id, (winner, f"P{winner}"), (loser, f"P{loser}"))
        )
    await service.record(
        one_v_one(world.guild.id, (world.bob.id, "bob"), (world.alice.id, "alice"))
    )


def embed_of(message: Any) -> dict[str, Any]:
    (embed,) = message.embeds
    return embed if isinstance(embed, dict) else embed.to_dict()


def buttons_of(message: Any) -> dict[str, dict[str, Any]]:
    return {c["label"]: c for row in message.components for c in row["components"]}


async def test_leaderboard_pages_and_callers_position(world: World) -> None:
    await seed(world)
    result = await world.alice.slash(world.channel, "rummy leaderboard", sort="wins")
    assert result.response is not None and not result.ephemeral
    embed = embed_of(result.response)
    assert embed["title"] == "Leaderboard · All variants · This server"
    lines = embed["description"].splitlines()
    assert lines[1] == "**Rank · Player · Rating · Games · Wins · Win rate**"
    assert len(lines) == 12 and lines[2].startswith("`#1` ")
    assert embed["footer"]["text"].startswith("Page 1/3 · 24 players")
    (position,) = embed["fields"]
    assert position["value"].startswith("`#24` alice · ")
    buttons = buttons_of(result.response)
    assert buttons["Previous"].get("disabled") is True
    assert buttons["Next"]["custom_id"] == f"rummy:lb:{world.guild.id}:all:wins:1:{world.alice.id}"

    clicked = await world.bob.click(result.response, label="Next")  # anyone may turn pages
    assert clicked.acknowledged
    page2 = embed_of(result.response)
    assert page2["footer"]["text"].startswith("Page 2/3")
    assert page2["description"].splitlines()[2].startswith("`#11` ")
    assert page2["fields"][0]["value"].startswith("`#24` alice")  # still the caller's line

    await world.alice.click(result.response, label="Next")
    last = embed_of(result.response)
    assert last["footer"]["text"].startswith("Page 3/3")
    assert "__alice__" in last["description"]  # her own line, highlighted, on the page
    assert "fields" not in last or last["fields"] == []
    assert buttons_of(result.response)["Next"].get("disabled") is True

    await world.alice.click(result.response, label="Previous")
    assert embed_of(result.response)["footer"]["text"].startswith("Page 2/3")


async def test_empty_global_leaderboard(world: World) -> None:
    result = await world.alice.slash(world.channel, "rummy leaderboard", scope="global")
    assert result.response is not None
    embed = embed_of(result.response)
    assert embed["title"] == "Leaderboard · All variants · All servers"
    assert embed["description"] == "No finished games are recorded here yet."
    assert embed["fields"][0]["value"] == (
        f"<@{world.alice.id}> has no recorded games on this leaderboard yet."
    )
    buttons = buttons_of(result.response)
    assert buttons["Previous"].get("disabled") and buttons["Next"].get("disabled")


async def test_stats_command_for_self_and_another_player(world: World) -> None:
    await seed(world)
    mine = await world.alice.slash(world.channel, "rummy stats")
    assert mine.response is not None
    embed = embed_of(mine.response)
    assert embed["title"] == "Statistics · alice"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert list(fields) == ["Rummy 51", "All variants"]
    assert fields["Rummy 51"].startswith("Games **1** · Wins **0** · Win rate **0%**")
    assert "Rating **" in fields["Rummy 51"] and "?** · trend **−" in fields["Rummy 51"]

    theirs = await world.alice.slash(world.channel, "rummy stats", player=world.bob)
    assert theirs.response is not None
    bob_fields = {f["name"]: f["value"] for f in embed_of(theirs.response)["fields"]}
    assert "Wins **1** · Win rate **100%**" in bob_fields["Rummy 51"]
    assert "trend **+" in bob_fields["Rummy 51"]

    nobody = await world.bob.slash(
        world.channel, "rummy stats", player=world.guild.add_member(world.env.create_user("carl"))
    )
    assert nobody.response is not None
    assert embed_of(nobody.response)["description"] == "carl has no recorded games here yet."


async def test_page_button_works_after_a_restart(world: World, db_path: Path) -> None:
    await seed(world)
    posted = await world.alice.slash(world.channel, "rummy leaderboard", sort="wins")
    assert posted.response is not None

    old = world.env.bot
    await world.env.restart_bot(StatsBot(db_path))
    await old.close()

    clicked = await world.alice.click(posted.response, label="Next")
    assert clicked.acknowledged
    embed = embed_of(posted.response)
    assert embed["footer"]["text"].startswith("Page 2/3 · 24 players")
    assert embed["fields"][0]["value"].startswith("`#24` alice")

"""SimCord tests of seasons on the real bot and its real ``/rummy`` cog, on both stores:
``/rummy-stats leaderboard season:…`` shows a season's board (all-time stays the default),
``/rummy-stats season`` changes the schedule for Manage Server only, and a season's end posts its
final standings as a picture exactly once, also when the bot was down at that moment."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from itertools import count
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.app import RummyBot
from bot.features.stats.service import FinishedGame
from bot.storage import SeatRecord
from rummy_engine import Game, Phase, Rules, Variant
from tests.discord.conftest import assert_only_refusals, make_bot

#: SimCord's clock starts at 2026-01-01T00:00Z: the games are played in January 2026.
DAY = 86_400.0


@pytest.fixture
def simcord_bot(store_url: str | Path) -> RummyBot:
    return make_bot(store_url)


@dataclass
class World:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    admin: simcord.MemberActor
    alice: simcord.MemberActor
    bob: simcord.MemberActor

    @property
    def bot(self) -> RummyBot:
        bot = self.env.bot
        assert isinstance(bot, RummyBot)
        return bot


@pytest.fixture
async def world(simcord_env: simcord.Env) -> AsyncIterator[World]:
    guild = simcord_env.create_guild("Rummy Club")
    channel = guild.create_text_channel("rummy")
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(simcord_env.create_user("admin"), roles=[managers])
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    yield World(simcord_env, guild, channel, admin, alice, bob)
    await simcord_env.bot.close()
    assert_only_refusals(simcord_env)


_tables = count(1)


async def play(world: World, winner: simcord.MemberActor, loser: simcord.MemberActor) -> None:
    """A rated Rummy 51 game between two people, ended now, recorded as the bot records one."""
    game = Game.new(Rules(Variant.R51, 2), seed=1)
    game.phase, game.winners, game.scores = Phase.GAME_OVER, [0], [40, 260]
    now = world.env.now()
    seats = (
        SeatRecord(0, winner.user.id, name=winner.user.name),
        SeatRecord(1, loser.user.id, name=loser.user.name),
    )
    finished = FinishedGame(
        table_id=next(_tables), guild_id=world.guild.id, channel_id=world.channel.id,
        mode="1v1", options_json="{}", seats=seats, game=game, started_at=now, ended_at=now,
    )  # fmt: skip
    assert await world.bot.stats.record(finished) is not None


def embed_of(message: Any) -> dict[str, Any]:
    (embed,) = message.embeds
    return embed if isinstance(embed, dict) else embed.to_dict()


def standings_posts(world: World) -> list[discord.Message]:
    """The bot's public messages carrying a season's final standings."""
    return [
        m
        for m in world.channel.history()
        if not m.flags.ephemeral and any(a.filename == "season.png" for a in m.attachments)
    ]


async def seed(world: World) -> None:
    """January: alice beats bob twice, bob beats alice once."""
    await play(world, world.alice, world.bob)
    await play(world, world.bob, world.alice)
    await play(world, world.alice, world.bob)


async def test_season_boards_beside_the_all_time_board(world: World) -> None:
    calls = len(world.env.http_requests)
    await seed(world)
    assert len(world.env.http_requests) == calls, "recording a game's season calls no Discord"
    default = await world.alice.slash(world.channel, "rummy-stats leaderboard")
    assert embed_of(default.response)["title"] == "Leaderboard · All variants · This server"
    current = await world.alice.slash(world.channel, "rummy-stats leaderboard", season="current")
    assert not current.ephemeral
    embed = embed_of(current.response)
    assert embed["title"] == "Leaderboard · All variants · This season (2026-01-01 – 2026-01-31)"
    lines = embed["description"].splitlines()
    assert lines[2].startswith("`#1` __alice__ · ") and lines[2].endswith(" · 3 · 2 · 67%")
    assert lines[3].startswith("`#2` bob · ") and lines[3].endswith(" · 3 · 1 · 33%")
    previous = await world.alice.slash(world.channel, "rummy-stats leaderboard", season="previous")
    embed = embed_of(previous.response)
    assert embed["title"].endswith("Season 2025-12-01 – 2025-12-31")
    assert embed["description"] == "Nobody played a rated game in this season yet."
    refused = await world.alice.slash(
        world.channel, "rummy-stats leaderboard", season="current", scope="global"
    )
    assert refused.ephemeral
    assert refused.response.content == (
        "Season boards belong to this server: leave scope on server to see one."
    )


async def test_only_manage_server_changes_the_seasons(world: World) -> None:
    await seed(world)
    for options in ({"restart": True}, {"length": "7d"}):
        refused = await world.alice.slash(world.channel, "rummy-stats season", **options)
        assert refused.ephemeral
        assert refused.response.content == (
            "Only a member with Manage Server can change the seasons."
        )
    seen = await world.alice.slash(world.channel, "rummy-stats season")
    assert seen.ephemeral and seen.response.content.startswith(
        "This season runs from 2026-01-01 to 2026-01-31 (it ends <t:1769904000:R>). "
        "The seasons after it last a calendar month (UTC)."
    )
    changed = await world.admin.slash(world.channel, "rummy-stats season", length="7d")
    assert changed.response.content == (
        "From the next season on, seasons last 7 days; this one still ends <t:1769904000:R>."
    )
    assert standings_posts(world) == []
    await world.env.advance_time(DAY / 2)  # noon: a restart's dates carry their time
    restarted = await world.admin.slash(world.channel, "rummy-stats season", restart=True)
    assert restarted.ephemeral and restarted.response.content.startswith(
        "A new season starts now and runs until 2026-01-08 12:00 UTC;"
    )
    (post,) = standings_posts(world)
    assert post.content.startswith(
        "The season from 2026-01-01 to 2026-01-01 12:00 UTC is over: here are its final standings."
    )
    (picture,) = post.attachments
    assert (await picture.read()).startswith(b"\x89PNG\r\n\x1a\n")
    assert picture.description is not None and picture.description.startswith(
        "Final standings of the season from 2026-01-01 to 2026-01-01 12:00 UTC, best first: "
        "1. alice: rating "
    )
    current = await world.alice.slash(world.channel, "rummy-stats leaderboard", season="current")
    assert embed_of(current.response)["description"] == (
        "Nobody played a rated game in this season yet."
    ), "the new season starts fresh"


async def test_a_season_end_is_posted_while_the_bot_runs(
    world: World, store_url: str | Path
) -> None:
    await seed(world)
    # The games were recorded from the test, whose timers SimCord leaves on the real clock; a
    # bot started now sets its season timer itself, as a game finished in the bot would.
    seeded = world.bot
    await world.env.restart_bot(make_bot(store_url))
    await seeded.close()
    for _ in range(30):  # a day at a time: each advance settles the dispatcher's hourly looks
        await world.env.advance_time(DAY)
    assert standings_posts(world) == []
    await world.env.advance_time(DAY + 60)
    (post,) = standings_posts(world)
    assert post.content.startswith("The season from 2026-01-01 to 2026-01-31 is over")
    await world.env.advance_time(DAY)
    assert len(standings_posts(world)) == 1


async def test_a_season_end_is_posted_once_across_restarts(
    world: World, store_url: str | Path
) -> None:
    """Down at the end of January; the first start after posts the standings, the next
    start posts nothing more."""
    await seed(world)
    down = world.bot
    await down.close()
    await world.env.advance_time(32 * DAY)
    await world.env.restart_bot(make_bot(store_url))
    (post,) = standings_posts(world)
    assert post.content.startswith("The season from 2026-01-01 to 2026-01-31 is over")
    again = world.bot
    await world.env.restart_bot(make_bot(store_url))
    await again.close()
    await world.env.advance_time(DAY)
    assert len(standings_posts(world)) == 1


async def test_a_french_server_gets_its_standings_in_french(
    world: World, store_url: str | Path
) -> None:
    await seed(world)
    await world.bot.store.set_guild_setting(world.guild.id, "locale", "fr")
    down = world.bot
    await down.close()
    await world.env.advance_time(32 * DAY)
    await world.env.restart_bot(make_bot(store_url))
    (post,) = standings_posts(world)
    assert post.content.startswith(
        "La saison du 2026-01-01 au 2026-01-31 est terminée : voici son classement final."
    )
    (picture,) = post.attachments
    assert picture.description is not None and picture.description.startswith(
        "Classement final de la saison du 2026-01-01 au 2026-01-31, du meilleur au dernier : "
        "1. alice : cote "
    )


async def test_season_pages_turn_after_a_restart(world: World, store_url: str | Path) -> None:
    """Twelve players: the season board has two pages; its Next button, posted before a
    restart, still shows the same season's second page."""
    members = [world.guild.add_member(world.env.create_user(f"p{n}")) for n in range(12)]
    for winner, loser in zip(members[::2], members[1::2], strict=True):
        await play(world, winner, loser)
    board = await world.alice.slash(world.channel, "rummy-stats leaderboard", season="current")
    first = embed_of(board.response)
    assert first["footer"]["text"].startswith("Page 1/2 · 12 players")
    old = world.bot
    await world.env.restart_bot(make_bot(store_url))
    await old.close()
    await world.bob.click(board.response, label="Next")
    second = embed_of(board.response)
    assert second["title"] == first["title"]
    assert second["footer"]["text"].startswith("Page 2/2 · 12 players")
    assert second["description"].splitlines()[2].startswith("`#11` ")

"""SimCord tests of /rummy-stats leaderboard, /rummy-stats player and the persistent page buttons,
on the real bot and its real commands (``cogs/surface.py``): the commands as registered, the
statistics service start-up builds (``bot.stats``), the page buttons it registers so old pages
still turn after a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import count
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.app import RummyBot
from bot.features.stats.service import FinishedGame
from bot.features.stats.words import WORDS as STATS_EN
from bot.storage import SeatRecord
from bot.text import MESSAGES
from rummy_engine import Game, Phase, Rules, Variant
from tests.discord.conftest import assert_only_refusals, make_bot


def test_the_statistics_sentences_are_in_the_catalogue() -> None:
    """t() serves STATS_EN (the catalogue is immutable once loaded, so nothing is patched in)."""
    english = MESSAGES["en"]
    assert all(english.get(key) == text for key, text in STATS_EN.items())


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "rummy.sqlite3"


@pytest.fixture
def simcord_bot(db_path: Path) -> RummyBot:
    """The real bot with its real ``/rummy`` cog; only the SQLite file survives a restart."""
    return make_bot(db_path)


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
    assert isinstance(bot, RummyBot)
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
    result = await world.alice.slash(world.channel, "rummy-stats leaderboard", sort="wins")
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
    result = await world.alice.slash(world.channel, "rummy-stats leaderboard", scope="global")
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
    mine = await world.alice.slash(world.channel, "rummy-stats player")
    assert mine.response is not None
    embed = embed_of(mine.response)
    assert embed["title"] == "Statistics · alice"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert list(fields) == ["Rummy 51", "All variants"]
    assert fields["Rummy 51"].startswith("Games **1** · Wins **0** · Win rate **0%**")
    assert "Rating **" in fields["Rummy 51"] and "?** · trend **−" in fields["Rummy 51"]

    theirs = await world.alice.slash(world.channel, "rummy-stats player", player=world.bob)
    assert theirs.response is not None
    bob_fields = {f["name"]: f["value"] for f in embed_of(theirs.response)["fields"]}
    assert "Wins **1** · Win rate **100%**" in bob_fields["Rummy 51"]
    assert "trend **+" in bob_fields["Rummy 51"]

    nobody = await world.bob.slash(
        world.channel, "rummy-stats player", player=world.guild.add_member(world.env.create_user("carl"))
    )
    assert nobody.response is not None
    assert embed_of(nobody.response)["description"] == "carl has no recorded games here yet."


async def test_page_button_works_after_a_restart(world: World, db_path: Path) -> None:
    await seed(world)
    posted = await world.alice.slash(world.channel, "rummy-stats leaderboard", sort="wins")
    assert posted.response is not None

    old = world.env.bot
    await world.env.restart_bot(make_bot(db_path))
    await old.close()

    clicked = await world.alice.click(posted.response, label="Next")
    assert clicked.acknowledged
    embed = embed_of(posted.response)
    assert embed["footer"]["text"].startswith("Page 2/3 · 24 players")
    assert embed["fields"][0]["value"].startswith("`#24` alice")

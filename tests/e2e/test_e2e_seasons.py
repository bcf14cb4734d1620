"""Seasons over real HTTP and WebSocket through the loopback emulator: last month ended while
the bot was down, so its first start posts last month's final standings (a PNG with its alt
text, uploaded as multipart), the season boards answer, and the next start posts nothing more."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.features.seasons.service import SeasonService, month_start
from bot.features.stats.ratings import rate_game
from bot.storage import SqliteStore
from bot.storage.base import GamePlayerRecord, GameRecord
from tests.discord.conftest import make_bot
from tests.discord_emulator import emulated_discord


def last_month_game(guild_id: int, channel_id: int, winner: int, loser: int) -> GameRecord:
    """A rated duel that ended ten days before this month began."""
    ended = month_start(datetime.now(UTC)) - timedelta(days=10)
    players = tuple(
        GamePlayerRecord(
            seat=seat, user_id=user, is_computer=False, name=name, side=seat, partner_id=None,
            place=seat + 1, won=seat == 0, forfeited=False, score=0, rounds=1,
            rounds_won=int(seat == 0), penalty_total=0, rami_sec=0, best_opening=0,
        )
        for seat, (user, name) in enumerate(((winner, "alice"), (loser, "bob")))
    )  # fmt: skip
    return GameRecord(
        table_id=1, guild_id=guild_id, channel_id=channel_id, variant="r51", mode="1v1",
        options_json="{}", winner_sides_json="[0]", scores_json="[40, 260]", rated=True,
        started_at=ended - timedelta(minutes=30), ended_at=ended, players=players,
    )  # fmt: skip


async def test_last_months_standings_are_posted_once_across_restarts(tmp_path: Path) -> None:
    async with emulated_discord() as emu:
        alice, bob = emu.add_user("alice"), emu.add_user("bob")
        guild = emu.add_guild("Rummy Club", members=[alice, bob])
        channel = emu.add_text_channel(guild, "rummy")
        db = tmp_path / "rummy.db"
        async with SqliteStore(db) as store:  # recorded before the bot went down
            game = last_month_game(guild.id, channel.id, alice.id, bob.id)
            await store.record_game(game, lambda current: rate_game(game, current))
            await SeasonService(store).note_game(game)

        def posts() -> list[object]:
            return [
                m for m in emu.public_messages() if any(a.filename == "season.png" for a in m.attachments)
            ]

        async with emu.running(make_bot(db)) as bot:
            await emu.wait_until(lambda: bool(posts()), what="last month's standings")
            (post,) = emu.public_messages()
            assert post.content.startswith("The season from ") and "is over" in post.content
            (picture,) = post.attachments
            assert picture.is_png and picture.description is not None
            assert "1. alice: rating " in picture.description
            assert "2. bob: rating " in picture.description
            previous = await (
                await emu.slash(bob, channel, "rummy-stats leaderboard", season="previous")
            ).answer()
            assert "alice" in previous.text() and "bob" in previous.text()
            current = await (
                await emu.slash(bob, channel, "rummy-stats leaderboard", season="current")
            ).answer()
            assert "Nobody played a rated game in this season yet." in current.text()
        async with emu.running(make_bot(db)) as bot:
            assert await bot.seasons.dispatcher.run_due() == 0  # type: ignore[attr-defined]
            shown = await (await emu.slash(alice, channel, "rummy-stats season")).answer()
            assert shown.ephemeral and shown.content.startswith("This season runs from ")
        assert len(posts()) == 1

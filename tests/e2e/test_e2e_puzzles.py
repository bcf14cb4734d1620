"""The puzzle of the day through the loopback emulator and a real ``rummy-bot`` process, over four
days of the bot's clock (``EMULATOR_CLOCK``, see tests/discord_emulator/launch.py: a day's hour
cannot be waited for; the process's clock is set a few seconds before it, or past it, and real
seconds pass from there):

1. a manager sets the channel and the hour with ``/rummy-settings puzzle`` two seconds before
   9 o'clock: the puzzle is posted at 9, by the process's own timer, with its two pictures and
   their alt text; alice answers right, bob wrong (the engine's reason, "the solution comes
   with tomorrow's puzzle"), and bob's second try is refused;
2. the process is stopped (SIGTERM) and started again just before the next 9 o'clock: the day's
   post shows yesterday's solution and "1 of 2 players solved it"; both answer right (streaks 2
   and 1); an answer to yesterday's post is refused;
3. the process is killed (SIGKILL) and started again at 10:30 the next day, after the hour it
   missed: that day's puzzle is posted at start, once; killed and started again at 11:00, it
   posts nothing more; alice right (streak 3), bob wrong;
4. started again before the next hour: alice's streak is 4, bob's starts again at 1.

Every message is read: the posts are public and show no card the mover could not see (only
the puzzle's own view, and yesterday's), the answers are private to the one who pressed, no one
is pinged, nothing failed or stayed thinking. A month of days, a server in French, a manager's
right and a bot down for several days are tested through SimCord (tests/discord/test_puzzles.py);
twin positions that differ only in hidden cards give the same pictures, byte for byte, through the
real renderer (tests/render/test_puzzle_pictures.py), which the posts here are drawn by.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.features.puzzles.service import DayPuzzle, load
from bot.features.puzzles.ui.answers import solution
from rummy_engine.ai.puzzles import PuzzleKind
from tests.discord.conftest import CARD_TOKEN
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.launch import write_clock
from tests.discord_emulator.models import EmuUser, StoredMessage
from tests.discord_emulator.server import DiscordEmulator
from tests.e2e.reading import ANSWER_SECONDS, BotProcess, check, click, components, select

#: The first day, far from the machine's own date (the bot's clock is moved to it).
FIRST = datetime(2031, 5, 1, tzinfo=UTC)
HOUR = 9


def at(day: int, hour: int, minute: int = 0, second: int = 0) -> datetime:
    return FIRST + timedelta(days=day - 1, hours=hour, minutes=minute, seconds=second)


def day_text(day: int) -> str:
    return at(day, 0).date().isoformat()


class Clock:
    """The process's clock, set by writing the file it reads."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.shift = 0.0

    def set(self, moment: datetime) -> None:
        self.shift = (moment - datetime.now(UTC)).total_seconds()
        write_clock(self.path, self.shift)

    def of(self, message: StoredMessage) -> datetime:
        """When the bot's clock says ``message`` was posted."""
        return datetime.fromisoformat(message.timestamp) + timedelta(seconds=self.shift)


def posts(emu: DiscordEmulator) -> list[StoredMessage]:
    return [m for m in emu.public_messages() if m.content.startswith("**Rummy puzzle of the day")]


async def post_of(emu: DiscordEmulator, day: int) -> StoredMessage:
    title = f"**Rummy puzzle of the day · {day_text(day)}**"
    await emu.wait_until(
        lambda: any(p.content.startswith(title) for p in posts(emu)),
        what=f"the puzzle of {day_text(day)}",
        timeout=20,
    )
    (post,) = [p for p in posts(emu) if p.content.startswith(title)]
    return post


async def stored(bot: BotProcess, guild_id: int, day: int) -> DayPuzzle:
    """The day's puzzle as the bot stored it (read from its database)."""
    assert bot.watch is not None
    record = await bot.watch.store.get_puzzle(guild_id, day_text(day))
    assert record is not None, day
    return load(record)


def values(puzzle: DayPuzzle, right: bool) -> list[str]:
    """The menu's values of a right (or a wrong) answer."""
    found = puzzle.puzzle
    if found.kind is PuzzleKind.OPENING:
        best = found.best
        faces = [c.face.text for m in best.melds for c in m.cards]  # type: ignore[union-attr]
        if not right:
            faces = faces[: len(best.melds[0].cards)] if len(best.melds) > 1 else faces[:2]  # type: ignore[union-attr]
        return [f"{face}:{faces[:i].count(face) + 1}" for i, face in enumerate(faces)]
    hand = sorted({c.face.text for c in found.view.hand})
    good = sorted(f.text for f in found.answers)
    return [f"{good[0]}:1"] if right else [f"{next(f for f in hand if f not in good)}:1"]


async def answer(
    emu: DiscordEmulator, bot: BotProcess, who: EmuUser, post: StoredMessage, day: int, right: bool
) -> str:
    """Press Answer on ``post``, then pick a right (or wrong) answer in the private menu."""
    menu = await click(emu, who, post, "Answer")
    assert menu.ephemeral and menu.interaction_user_id == who.id, menu.content
    picks = [c for c in components(menu) if c["type"] == 3]
    if not picks:
        return menu.content  # refused in a sentence
    puzzle = await stored(bot, post.guild_id or 0, day)
    verdict = await select(emu, who, menu, picks[0]["custom_id"], values(puzzle, right))
    assert verdict.id == menu.id and verdict.ephemeral
    return verdict.content


def visible_faces(puzzle: DayPuzzle) -> set[str]:
    view = puzzle.puzzle.view
    cards = [*view.hand, *view.pile, *(c for m in view.table for c in m.meld.cards)]
    if view.discard_top is not None:
        cards.append(view.discard_top)
    standing = {face.pretty for m in view.table for face in m.meld.stands_for}  # JK=10♠
    return {c.face.pretty for c in cards} | standing


async def check_post(
    emu: DiscordEmulator, bot: BotProcess, clock: Clock, guild_id: int, day: int
) -> StoredMessage:
    """The day's post: once, at or after the hour, its pictures described, and no card the
    mover could not see (yesterday's solution names yesterday's cards)."""
    post = await post_of(emu, day)
    assert clock.of(post) >= at(day, HOUR), (clock.of(post), "posted before the hour")
    assert [a.filename for a in post.attachments] == ["puzzle-table.png", "puzzle-hand.png"]
    assert all(a.is_png and a.description for a in post.attachments)
    today = await stored(bot, guild_id, day)
    allowed = visible_faces(today)
    if day > 1:
        yesterday = await stored(bot, guild_id, day - 1)
        assert f"Yesterday's solution: {solution(yesterday.puzzle, 'en')}" in post.content, post.content
        allowed |= visible_faces(yesterday)
    else:
        assert "Yesterday's solution" not in post.content
    texts = [post.content, *(a.description or "" for a in post.attachments)]
    shown = {face for text in texts for face in CARD_TOKEN.findall(text)} - {"JK"}
    assert shown <= allowed, f"{sorted(shown - allowed)} are not the mover's to see: {texts}"
    return post


async def test_four_days_of_puzzles_with_restarts_answers_and_streaks(tmp_path: Path) -> None:
    db = tmp_path / "rummy.db"
    clock = Clock(tmp_path / "clock")
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        manager = emu.add_user("manager")
        guild = emu.guilds[channel.guild_id or 0]
        guild.member_ids.append(manager.id)
        names = {alice.id: "alice", bob.id: "bob", manager.id: "manager"}
        bot = BotProcess(emu, db, env={"EMULATOR_CLOCK": str(clock.path)})
        try:
            clock.set(at(1, 8))
            await bot.start()
            # 1. Set two seconds before the hour: posted at the hour by the process's timer.
            clock.set(at(1, HOUR - 1, 59, 58))
            told = await (
                await emu.slash(manager, channel, "rummy-settings puzzle", hour=HOUR)
            ).answer(ANSWER_SECONDS)
            assert told.ephemeral and told.content == (
                f"A rummy puzzle will be posted in <#{channel.id}> every day; the next one "
                f"<t:{int(at(1, HOUR).timestamp())}:F>."
            ), told.content
            first = await check_post(emu, bot, clock, guild.id, 1)
            assert await answered_right(emu, bot, alice, first, 1) == 1
            await answered_wrong(emu, bot, bob, first, 1)
            again = await answer(emu, bot, bob, first, 1, right=True)
            assert again == "You have answered today's puzzle already; the solution comes tomorrow."

            # 2. Stopped, started again just before the next hour.
            await next_day_before_the_hour(bot, clock, 2)
            second = await check_post(emu, bot, clock, guild.id, 2)
            assert "1 of 2 players solved it." in second.content, second.content
            assert await answered_right(emu, bot, alice, second, 2) == 2
            assert await answered_right(emu, bot, bob, second, 2) == 1
            old = await answer(emu, bot, alice, first, 1, right=True)
            assert old == "This puzzle is over; answer the latest one."

            # 3. Killed; started again after the next hour: that day's puzzle at start, once.
            await bot.kill()
            clock.set(at(3, HOUR + 1, 30))
            await bot.start()
            third = await check_post(emu, bot, clock, guild.id, 3)
            assert "2 of 2 players solved it." in third.content, third.content
            await bot.kill()
            clock.set(at(3, HOUR + 2))
            await bot.start()
            assert len(posts(emu)) == 3, [p.content[:50] for p in posts(emu)]
            assert await answered_right(emu, bot, alice, third, 3) == 3
            await answered_wrong(emu, bot, bob, third, 3)

            # 4. The next day: alice's streak goes on, bob's starts again.
            await next_day_before_the_hour(bot, clock, 4)
            fourth = await check_post(emu, bot, clock, guild.id, 4)
            assert "1 of 2 players solved it." in fourth.content, fourth.content
            assert await answered_right(emu, bot, alice, fourth, 4) == 4
            assert await answered_right(emu, bot, bob, fourth, 4) == 1
            await bot.finish()
        finally:
            await bot.close()
        assert bot.starts == 5
        assert [p.content.split("\n")[0] for p in posts(emu)] == [
            f"**Rummy puzzle of the day · {day_text(day)}**" for day in (1, 2, 3, 4)
        ], "one post a day, in order"
        check(emu, names)
        assert not [m.content for ms in emu.messages.values() for m in ms if m.pinged]
        assert not emu.dm_channels, "nothing by DM"
        for message in emu.channel_messages(channel):
            if message.ephemeral:
                assert message.interaction_user_id in names, message.content
            else:
                assert message in posts(emu), f"a public message that is not a post: {message.content!r}"


async def next_day_before_the_hour(bot: BotProcess, clock: Clock, day: int) -> None:
    """SIGTERM, then started again three seconds before the day's hour (the process posts at
    the hour if it is up by then, at start otherwise: once, either way)."""
    await bot.stop()
    clock.set(at(day, HOUR - 1, 59, 57))
    await bot.start()


async def answered_right(
    emu: DiscordEmulator, bot: BotProcess, who: EmuUser, post: StoredMessage, day: int
) -> int:
    """Answer right; the streak the answer tells."""
    said = await answer(emu, bot, who, post, day, right=True)
    assert said.startswith("Right: "), said
    streak = said.split("You have solved ")[1].split(" ")[0]
    return int(streak)


async def answered_wrong(
    emu: DiscordEmulator, bot: BotProcess, who: EmuUser, post: StoredMessage, day: int
) -> None:
    said = await answer(emu, bot, who, post, day, right=False)
    assert said.startswith("Not "), said
    assert said.endswith("The solution comes with tomorrow's puzzle."), said
    assert "You have solved" not in said
    reason = said.removeprefix("Not ").split(". ", 1)[1].removesuffix("The solution comes with tomorrow's puzzle.")
    assert reason.strip(), f"the engine's reason is told: {said!r}"

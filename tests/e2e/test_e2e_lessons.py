"""The whole lesson course (``/rummy-learn lessons``) through the loopback emulator and a real
``rummy-bot`` process: every exercise answered with the game's own controls (cards picked in a
menu then Check, Yes/No, a value chosen), right at once, wrong then right, or wrong twice (the
engine's refusal sentence, then the right answer shown); the process killed (SIGKILL) in the
middle of an exercise and started again on the same database. The course goes on where it was
(the miss before the crash counts), the message drawn by the killed process still answers, the
newer one is then refused as out of date, and every message the player received is read.

The same course through SimCord, with its French and foreign presses: tests/discord/test_lessons.py
(whose answers, written by hand, this test shares).
"""

from __future__ import annotations

from pathlib import Path

from bot.storage import make_store
from bot.storage.base import LessonProgress
from tests.discord.test_lessons import CHAPTER_SIZES, COURSE, KEYS, NO_PICTURE, Answer
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.models import EmuUser, StoredMessage
from tests.discord_emulator.server import DiscordEmulator
from tests.e2e.reading import (
    ANSWER_SECONDS,
    BotProcess,
    check,
    click,
    components,
    labels,
    read_by,
    select,
)

#: Where the process is killed: after a first miss at this exercise.
CRASH_AT = ("The opening", 2)
OUT_OF_DATE = (
    "This lesson message is out of date and changed nothing: use the newest one, or "
    "/rummy-learn lessons to see where you are."
)


def menu(message: StoredMessage, press: str) -> dict[str, object]:
    (found,) = [c for c in components(message) if c["type"] == 3 and f":{press}" in c["custom_id"]]
    return found


async def give(
    emu: DiscordEmulator, alice: EmuUser, message: StoredMessage, kind: str, given: object
) -> StoredMessage:
    """Answer with the lesson's controls; the message as the answer left it."""
    if kind == "pick":
        options = menu(message, "pick")["options"]
        assert isinstance(options, list) and isinstance(given, list)
        values: list[str] = []
        for face in given:
            values.append(
                next(
                    o["value"]
                    for o in options
                    if o["label"].split(". ", 1)[1] == face and o["value"] not in values
                )
            )
        picked = await select(emu, alice, message, str(menu(message, "pick")["custom_id"]), values)
        assert picked.id == message.id, "a pick redraws the same message"
        return await click(emu, alice, message, "Check")
    if kind == "choose":
        return await select(
            emu, alice, message, str(menu(message, "choose")["custom_id"]), [str(given)]
        )
    return await click(emu, alice, message, str(given))


async def test_the_whole_course_with_right_and_wrong_answers_and_a_crash(tmp_path: Path) -> None:
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        names = {alice.id: "alice", bob.id: "bob"}
        bot = BotProcess(emu, tmp_path / "rummy.db")
        try:
            await bot.start()
            opened = await emu.slash(alice, channel, "rummy-learn lessons")
            message = await opened.answer(ANSWER_SECONDS)
            assert message.ephemeral and message.interaction_user_id == alice.id
            assert message.content.startswith("**Chapter 1 of 6: Melds**"), message.content
            (picture,) = message.attachments
            assert picture.is_png and picture.description and "5♦ JK 7♦" in picture.description
            before_crash: StoredMessage | None = None
            chapter = ""
            for index, (title, number, expected) in enumerate(COURSE):
                if title != chapter:  # the chapter's page first
                    chapter = title
                    assert f": {title}**" in message.content, message.content
                    message = await click(emu, alice, message, "Next")
                assert message.content.startswith(
                    f"**{title}, exercise {number} of {CHAPTER_SIZES[title]}**"
                ), message.content
                if (title, number) in NO_PICTURE:
                    assert message.attachments == []
                else:
                    (picture,) = message.attachments
                    assert picture.filename == f"lesson-{KEYS[title]}-{number}.png"
                    assert picture.is_png and picture.description
                message = await exercise(emu, alice, message, index % 3, expected, (title, number))
                if (title, number) == CRASH_AT:
                    before_crash, message = (
                        message,
                        await crash_and_resume(emu, bot, alice, channel, message, expected),
                    )
                assert labels(message) == ["Next"], labels(message)  # answered: only Next
                message = await click(emu, alice, message, "Next")
            assert before_crash is not None
            assert message.content.startswith("**Course complete.**"), message.content
            assert "You are ready for Rummy 51, Rummy 71, Simple, Basic rummy." in message.content
            assert "Start again" in labels(message)
            message = await click(emu, alice, message, "Start again")
            assert message.content.startswith("**Chapter 1 of 6: Melds**")
            await bot.finish()
        finally:
            await bot.close()
        check(emu, names)
        assert bot.starts == 2
        # Everything was alice's alone: no public message, no DM, nothing for bob.
        assert emu.public_messages() == [] and not emu.dm_channels
        seen = read_by(emu, names, "alice")
        assert seen and all(what.startswith("private answer") for what, _ in seen), seen
        assert read_by(emu, names, "bob") == []
        # One message per command and per refusal; every press edited its message in place.
        private = [m for m in emu.channel_messages(channel) if m.ephemeral]
        commands = [r for r in emu.interactions.values() if r.type == 2]
        assert len(private) == len(commands) + 1, [m.content[:40] for m in private]


async def exercise(
    emu: DiscordEmulator,
    alice: EmuUser,
    message: StoredMessage,
    pattern: int,
    expected: Answer,
    where: tuple[str, int],
) -> StoredMessage:
    """0: right at once; 1: wrong, then right; 2: wrong twice (the answer is then shown). At
    the exercise where the process is killed, only the first miss (the rest after the crash)."""
    if pattern == 0:
        message = await give(emu, alice, message, expected.kind, expected.right)
        assert "✅ Right!" in message.content and "❌" not in message.content, message.content
        assert expected.shown in message.content
        return message
    message = await give(emu, alice, message, expected.kind, expected.wrong)
    assert "❌ Not quite:" in message.content and expected.why in message.content, message.content
    assert "Try again." in message.content and "The answer:" not in message.content
    if where == CRASH_AT:
        return message
    if pattern == 1:
        message = await give(emu, alice, message, expected.kind, expected.right)
        assert "✅ Right!" in message.content and expected.shown in message.content
        return message
    message = await give(emu, alice, message, expected.kind, expected.wrong)
    assert expected.why in message.content and "Try again." not in message.content
    assert "The answer:" in message.content and expected.shown in message.content, message.content
    return message


async def crash_and_resume(
    emu: DiscordEmulator,
    bot: BotProcess,
    alice: EmuUser,
    channel: object,
    old: StoredMessage,
    expected: Answer,
) -> StoredMessage:
    """Kill the process after a miss, start it again: the course opens at the same exercise
    with the miss kept; the message drawn before the crash still answers (right, this time),
    and the one opened since is then out of date. Returns the answered message."""
    await bot.kill()
    await bot.start()
    again = await emu.slash(alice, channel, "rummy-learn lessons")  # type: ignore[arg-type]
    reopened = await again.answer(ANSWER_SECONDS)
    assert reopened.id != old.id
    assert reopened.content.startswith(
        f"**The opening, exercise 2 of {CHAPTER_SIZES['The opening']}**"
    ), reopened.content
    assert "Try again." in reopened.content, "the miss before the crash counts"
    answered = await give(emu, alice, old, expected.kind, expected.right)
    assert answered.id == old.id and "✅ Right!" in old.content, old.content
    refused = await give(emu, alice, reopened, expected.kind, expected.right)
    assert refused.id != reopened.id and refused.ephemeral, "refused in an answer of its own"
    assert refused.content == OUT_OF_DATE, refused.content
    assert "✅" not in reopened.content, "the out-of-date message is left as it was"
    return old


async def test_the_course_end_deals_a_coached_practice_table_in_the_channel(
    tmp_path: Path,
) -> None:
    """A player whose course is finished chooses a 2v2 practice table: the real process deals
    it in the channel, three computers seated and coaching on; the player gets their hand
    privately, and the lesson message stays as it was."""
    db = tmp_path / "rummy.db"
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        names = {alice.id: "alice", bob.id: "bob"}
        async with make_store(db) as store:
            done = LessonProgress(alice.id, "end", finished=tuple(KEYS.values()), step=1)
            assert await store.save_lesson_progress(done, 0)
        bot = BotProcess(emu, db)
        try:
            await bot.start()
            end = await (await emu.slash(alice, channel, "rummy-learn lessons")).answer(
                ANSWER_SECONDS
            )
            assert end.content.startswith("**Course complete.**"), end.content
            practice = str(menu(end, "practice")["custom_id"])
            told = await select(emu, alice, end, practice, ["r51.2v2"])
            assert told.id != end.id and told.ephemeral, "answered apart; the lesson stays"
            assert told.content.startswith("Your practice table is dealt below, coaching on")
            await emu.wait_until(
                lambda: any("table #" in m.content for m in emu.public_messages()),
                what="the practice table",
                timeout=ANSWER_SECONDS,
            )
            await bot.finish()
        finally:
            await bot.close()
        check(emu, names)
        async with make_store(db) as store:
            (table,) = await store.list_active_tables()
            seats = await store.get_seats(table.id)
        assert (
            table.variant == "r51"
            and table.mode == "2v2"
            and '"coaching": true' in table.options_json
        )
        assert [s.is_computer for s in seats].count(True) == 3
        assert end.content.startswith("**Course complete.**")

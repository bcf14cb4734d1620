"""The puzzle of the day through the real bot (SimCord), on both stores: a manager sets the
channel and hour; a month of days is posted with time advanced, each once, with yesterday's
solution; answers right and wrong with the engine's reasons, streaks; an old post refused; a bot
down at the hour posts that day's puzzle once on start, never the days it missed before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import RummyBot
from bot.text import one_of, t
from tests.discord import test_seasons
from tests.discord.conftest import make_bot
from tests.discord.test_seasons import World

#: A day's puzzle is made in a thread: up to a second or two of CPU on a loaded machine.
pytestmark = pytest.mark.simcord(settle_timeout=30.0)

#: SimCord's clock starts at 2026-01-01T00:00Z.
DAY = 86_400.0
HOUR = 3_600.0


@pytest.fixture
def simcord_bot(store_url: str | Path) -> RummyBot:
    return make_bot(store_url)


#: The seasons' server: an admin with Manage Server, alice and bob, a channel.
world = test_seasons.world


def posts(world: World) -> list[discord.Message]:
    return [
        m
        for m in world.channel.history()
        if not m.flags.ephemeral and m.content.startswith("**Rummy puzzle of the day")
    ]


def answer_of(result: Any) -> str:
    private = [m for m in (result.response, *result.followups) if m and m.flags.ephemeral]
    return "\n".join(str(m.content) for m in private)


async def stored(world: World, day: str) -> Any:
    """The day's puzzle as the bot judges it (read from the store, as the bot reads it)."""
    puzzles = world.bot.puzzles
    found = await puzzles._loaded_puzzle(world.guild.id, day)
    assert found is not None, day
    return found


async def answer(world: World, who: Any, post: discord.Message, right: bool) -> str:
    """Press Answer on ``post`` and pick a right (or a wrong) answer from the menu."""
    pressed = await who.click(post, label="Answer")
    menus = [m for m in (pressed.response, *pressed.followups) if m and m.components]
    if not menus:
        return answer_of(pressed)
    day = post.content.split("· ")[1].split("*")[0]
    puzzle = (await stored(world, day)).puzzle
    if puzzle.kind.value == "opening":
        best = puzzle.best
        faces = [c.face.text for m in best.melds for c in m.cards]
        if not right:
            faces = faces[: len(best.melds[0].cards)] if len(best.melds) > 1 else faces[:2]
        values = [f"{face}:{faces[:i].count(face) + 1}" for i, face in enumerate(faces)]
    else:
        hand = sorted({c.face.text for c in puzzle.view.hand})
        good = sorted(f.text for f in puzzle.answers)
        values = [f"{good[0]}:1"] if right else [f"{next(f for f in hand if f not in good)}:1"]
    picked = await who.select(menus[-1], values=values)
    return answer_of(picked)


async def configure(world: World, hour: int) -> str:
    result = await world.admin.slash(world.channel, "rummy-settings puzzle", hour=hour)
    return answer_of(result)


async def test_only_a_manager_sets_the_daily_puzzle(world: World) -> None:
    refused = await world.alice.slash(world.channel, "rummy-settings puzzle", hour=9)
    assert answer_of(refused) == t("puzzle.admin_only")
    assert posts(world) == []


@pytest.mark.parametrize("store_kind", ["sqlite"])  # a month takes half a minute; the others
async def test_a_month_of_daily_puzzles_with_answers_streaks_and_solutions(  # run on both
    world: World,
) -> None:
    told = await configure(world, 9)
    assert told.startswith("A rummy puzzle will be posted in"), told
    assert posts(world) == [], "9 o'clock has not come yet on the first day"
    await world.env.advance_time(9 * HOUR + 60)
    (first,) = posts(world)
    assert first.content.startswith("**Rummy puzzle of the day · 2026-01-01**")
    assert len(first.attachments) == 2 and all(a.description for a in first.attachments)
    streaks = []
    for day in range(1, 31):
        today = posts(world)[-1]
        if day != 10:  # alice skips one day: her streak starts again
            said = await answer(world, world.alice, today, right=True)
            assert said.startswith("Right:"), (day, said)
            streaks.append(int(said.split("solved ")[1].split(" ")[0]))
        said = await answer(world, world.bob, today, right=False)
        assert said.startswith("Not ") and "The solution comes with tomorrow's puzzle." in said, said
        again = await answer(world, world.bob, today, right=True)
        assert again == t("puzzle.answered")
        puzzle = (await stored(world, today.content.split("· ")[1][:10])).puzzle
        await world.env.advance_time(DAY)
        shown = posts(world)
        assert len(shown) == day + 1, f"one post a day (day {day})"
        assert "Yesterday's solution:" in shown[-1].content
        if puzzle.kind.value != "opening":  # every equally good card named, "a, b, or c"
            named = one_of(sorted(f.pretty for f in puzzle.answers))
            assert f"Yesterday's solution: {named}" in shown[-1].content or (
                f"Yesterday's solution: discard {named}" in shown[-1].content
            ), (named, shown[-1].content)
        solvers = 0 if day == 10 else 1
        assert f"{solvers} of {2 if day != 10 else 1} player" in shown[-1].content, shown[-1].content
    assert streaks[:9] == list(range(1, 10))
    assert streaks[9:] == list(range(1, 21))
    old = posts(world)[-2]
    assert await answer(world, world.alice, old, right=True) == t("puzzle.not_current")
    keys = {(await stored(world, p.content.split("· ")[1][:10])).record.puzzle_key for p in posts(world)}
    assert len(keys) == len(posts(world)), "no position twice"


async def test_a_bot_down_at_the_hour_posts_that_day_once_when_it_starts(
    world: World, store_url: str | Path
) -> None:
    await configure(world, 9)
    await world.env.advance_time(9 * HOUR + 60)
    assert len(posts(world)) == 1
    down = world.bot
    await down.close()
    await world.env.advance_time(3 * DAY)  # down for three 9 o'clocks
    await world.env.restart_bot(make_bot(store_url))
    shown = posts(world)
    assert len(shown) == 2, [p.content[:50] for p in shown]
    assert shown[-1].content.startswith("**Rummy puzzle of the day · 2026-01-04**")
    again = world.bot
    await world.env.restart_bot(make_bot(store_url))
    await again.close()
    await world.env.advance_time(HOUR)
    assert len(posts(world)) == 2, "a second start posts nothing more"
    await world.env.advance_time(DAY)
    assert len(posts(world)) == 3


async def test_a_french_server_gets_its_puzzle_in_french(world: World) -> None:
    await world.bot.store.set_guild_setting(world.guild.id, "locale", "fr")
    await configure(world, 0)
    (post,) = [m for m in world.channel.history() if m.content.startswith("**Puzzle de rami du jour")]
    assert post.attachments[0].description
    assert t("puzzle.answer_button", "fr") in str(post.components)

"""The charts through SimCord: a whole game's end posts the score chart with the final result
(the last round's summary, a message the bot posts anyway), a game ended by a player leaving
shows it on the final table message, and /rummy-stats player answers with the rating chart after rated
games; every chart carries its alt text in the reader's language."""

from __future__ import annotations

import io
import random
import re

import discord
import pytest
from PIL import Image

from bot.features.stats.ui import charts as ui_charts
from rummy_engine import Phase
from tests.discord.conftest import World, play_step
from tests.discord.test_french import speak
from tests.discord.test_play_again import table_message
from tests.discord.test_stats_discord import one_v_one
from tests.discord.test_truth import crash_at

MAX_BYTES = 30 * 1024


async def play_to_the_end(
    world: World, rounds: int, locale: str = "en", calls: list[str] | None = None
) -> list[str]:
    """alice (host) and bob play a game of Basic rummy of ``rounds`` rounds to its end: two
    people and no computer, so the game is rated. Returns what the last move added to
    ``calls`` (the bot-token calls seen, see ``crash_at``)."""
    seen = calls if calls is not None else []
    alice, bob = world.players[:2]
    await alice.slash(
        world.channel, "rummy new", variant="basic", basic_rounds=str(rounds), language=locale
    )
    opened = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert opened is not None
    world.table_id = opened.id
    await bob.slash(world.channel, "rummy join")
    await alice.slash(world.channel, "rummy start")
    rng = random.Random(5)
    before = len(seen)
    for _ in range(3000):
        game = (await world.table()).require_game()
        if game.phase is Phase.GAME_OVER:
            return seen[before:]
        before = len(seen)
        await play_step(world, rng)
    pytest.fail("the game did not end")


def charts_in(world: World, prefix: str) -> list[tuple[discord.Message, discord.Attachment]]:
    return [
        (m, a)
        for m in world.public_messages()
        for a in m.attachments
        if a.filename.startswith(prefix)
    ]


async def check_png(attachment: discord.Attachment) -> Image.Image:
    data = await attachment.read()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) <= MAX_BYTES
    return Image.open(io.BytesIO(data))


async def test_the_final_result_carries_the_score_chart_and_stats_the_rating_chart(
    world: World,
) -> None:
    alice, bob = world.players[:2]
    await play_to_the_end(world, rounds=2)
    table = await world.table()
    game = table.require_game()
    assert table.record.status == "finished" and len(game.results) == 2

    ((message, chart),) = charts_in(world, "scores-")
    assert chart.filename == f"scores-{table.id}.png"
    # on the last round's summary, beside its own picture, with the final result
    assert "🏆" in message.content
    assert [a.filename for a in message.attachments] == [
        f"round-{table.id}-2.png",
        chart.filename,
    ]
    image = await check_png(chart)
    assert image.width == 640
    description = chart.description or ""
    assert description.startswith("Chart of each player's total after every round.")
    for side, name in enumerate(("alice", "bob")):
        values = ", ".join(str(v) for v in (0, *(r.totals[side] for r in game.results)))
        assert f"{name}: {values}." in description
    winners = "".join(description.partition("Winner")[1:])
    assert winners.startswith(("Winner: ", "Winners: "))
    assert all(("alice", "bob")[s] in winners for s in game.winners)
    assert len(description) <= 1024
    # the final table message itself has no second copy of the chart
    final = table_message(world, table.id)
    assert [a.filename for a in final.attachments] == [f"table-{table.id}.png"]

    stats = await alice.slash(world.channel, "rummy-stats player")
    assert stats.response is not None
    (rating,) = stats.response.attachments
    assert rating.filename == f"rating-{alice.user.id}.png"
    await check_png(rating)
    assert (rating.description or "").startswith(
        "Chart of the rating of alice after each rated game."
    )
    assert "Basic rummy: " in (rating.description or "")
    (embed,) = stats.response.embeds
    embed_dict = embed if isinstance(embed, dict) else embed.to_dict()
    assert embed_dict["image"]["url"] == f"attachment://{rating.filename}"

    theirs = await bob.slash(world.channel, "rummy-stats player", player=world.players[2])
    assert theirs.response is not None and not theirs.response.attachments  # no rated game


async def test_in_french_and_after_a_player_leaves_the_chart_is_on_the_final_table(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A French server: the table speaks French, and so does /rummy-stats player."""
    alice, bob = world.players[:2]
    speak(monkeypatch, world.env, {}, {world.guild.id: "fr"})
    await play_to_the_end_of_round_one(world)
    left = await bob.slash(world.channel, "rummy leave")
    assert left.acknowledged
    table = await world.table()
    assert table.require_game().phase is Phase.GAME_OVER and len(table.require_game().results) == 1

    ((message, chart),) = charts_in(world, "scores-")
    assert message.id == table_message(world, table.id).id
    await check_png(chart)
    description = chart.description or ""
    assert description.startswith("Graphique du total de chaque joueur après chaque manche.")
    assert "alice : 0, " in description and "Vainqueur : alice." in description

    stats = await alice.slash(world.channel, "rummy-stats player")
    assert stats.response is not None
    (rating,) = stats.response.attachments
    rows = await world.bot.store.get_player_stats(world.guild.id, alice.user.id)
    row = next(r for r in rows if r.family == "basic")
    assert row.rating is not None
    rating_now = row.rating
    assert (rating.description or "") == (
        "Graphique de la cote de alice après chaque partie classée. Rami classique : "
        f"{round(rating_now)}."
    )


async def play_to_the_end_of_round_one(world: World) -> None:
    """A French game of three rounds of Basic rummy, played until its first round is over."""
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy new", variant="basic", basic_rounds="3", language="fr")
    opened = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert opened is not None
    world.table_id = opened.id
    await bob.slash(world.channel, "rummy join")
    await alice.slash(world.channel, "rummy start")
    rng = random.Random(5)
    for _ in range(3000):
        game = (await world.table()).require_game()
        if game.phase is Phase.ROUND_OVER:
            return
        await play_step(world, rng)
    pytest.fail("the round did not end")


async def test_stats_draws_every_rated_game_in_order(world: World) -> None:
    """Three rated games of Rummy 51: the chart's alt text gives the rating after each, oldest
    first, as stored; one variant only, so no line for all variants (it would be the same)."""
    alice, bob = world.players[:2]
    names = {alice: "alice", bob: "bob"}
    for winner in (alice, bob, alice):
        loser = bob if winner is alice else alice
        await world.bot.stats.record(
            one_v_one(
                world.guild.id, (winner.user.id, names[winner]), (loser.user.id, names[loser])
            )
        )
    history = await world.bot.store.rating_history(world.guild.id, "r51", alice.user.id, 10)
    assert len(history) == 3
    stats = await alice.slash(world.channel, "rummy-stats player")
    assert stats.response is not None
    (rating,) = stats.response.attachments
    values = ", ".join(str(round(c.after)) for c in reversed(history))
    assert rating.description == (
        f"Chart of the rating of alice after each rated game. Rummy 51: {values}."
    )
    await check_png(rating)


def shapes(calls: list[str]) -> list[str]:
    """Bot-token calls with their ids left out (two games have different messages)."""
    return [re.sub(r"\d+", "#", call) for call in calls]


async def test_the_score_chart_costs_no_bot_token_call(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same game twice (same deal, same moves), with the chart and without: the move that
    ends the game makes the very same bot-token calls (the chart rides on the summary)."""
    calls = crash_at(world.bot, None)
    with_chart = shapes(await play_to_the_end(world, rounds=2, calls=calls))
    assert len(charts_in(world, "scores-")) == 1
    assert "POST /channels/{channel_id}/messages" in with_chart  # the last round's summary
    monkeypatch.setattr(ui_charts, "on_round", lambda table, result, draft, locale: draft)
    without = shapes(await play_to_the_end(world, rounds=2, calls=calls))
    assert len(charts_in(world, "scores-")) == 1, "the second game shows no chart"
    assert without == with_chart

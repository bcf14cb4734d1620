"""Sentences the bot says, read as a player reads them, through SimCord and the real bot:
counts agree with their nouns in English and French, an answer points where the thing it
names really is, a summary says something, and a refusal gives the reason that applies.
"""

from __future__ import annotations

import pytest

from bot.text import t
from tests.discord.conftest import World
from tests.discord.test_french import speak


@pytest.mark.parametrize(
    ("locale", "one_seated", "three_seated"),
    [
        ("en-US", "The game needs 4 players; 1 is seated.", "The game needs 4 players; 3 are seated."),
        ("fr", "La partie demande 4 joueurs ; 1 est assis.", "La partie demande 4 joueurs ; 3 sont assis."),
    ],
)
async def test_a_start_without_enough_players_counts_the_seated_in_good_grammar(
    world: World,
    monkeypatch: pytest.MonkeyPatch,
    locale: str,
    one_seated: str,
    three_seated: str,
) -> None:
    alice, bob, carol = world.players[:3]
    speak(monkeypatch, world.env, {p.user.id: locale for p in (alice, bob, carol)}, {})
    await alice.slash(world.channel, "rummy new", variant="r51", mode="2v2")
    alone = await alice.slash(world.channel, "rummy start")
    assert alone.response.content.startswith(one_seated), alone.response.content
    await bob.slash(world.channel, "rummy join", team=1)
    await carol.slash(world.channel, "rummy join", team=0)
    three = await alice.slash(world.channel, "rummy start")
    assert three.response.content.startswith(three_seated), three.response.content


async def test_the_start_answer_points_to_where_the_table_is(world: World) -> None:
    """The host's private answer is the newest message they see, so it says where the table
    is without "below": at the bottom of the channel (the lobby message for now, posted anew
    at each turn)."""
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy new", variant="r51", mode="1v1")
    [lobby] = [m for m in world.public_messages() if m.components]
    await bob.slash(world.channel, "rummy join")
    started = await alice.slash(world.channel, "rummy start")
    answer = started.response.content
    assert started.ephemeral and answer == t("lobby.started")
    for word in ("below", "above", "under"):
        assert word not in answer, answer
    assert "bottom of the channel" in answer and "at each turn" in answer
    table_message = next(m for m in world.public_messages() if m.id == lobby.id)
    assert "round 1" in table_message.content, "the lobby message became the table"
    labels = {c.label for row in table_message.components for c in row.children}
    assert "Draw" in labels and "Join" not in labels


async def test_rules_at_a_table_say_which_options_it_plays(world: World) -> None:
    """No circular pointer to /rummy-learn rules from /rummy-learn rules: a table on the standard options
    says so; one with changed options lists them."""
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy new", variant="r51", mode="1v1")
    standard = (await alice.slash(world.channel, "rummy-learn rules")).response.content
    last = standard.splitlines()[-1]
    assert last == "This table plays with the standard options.", last
    assert "/rummy-learn rules" not in standard
    await alice.slash(world.channel, "rummy cancel")
    await alice.slash(world.channel, "rummy new", variant="r51", mode="1v1", bar_in_1v1="off")
    changed = (await bob.slash(world.channel, "rummy-learn rules")).response.content
    assert changed.splitlines()[-1] == "Table options: +1 bar in 1v1: off", changed


async def test_kick_by_someone_not_the_host_says_only_the_host_may(world: World) -> None:
    """The host rule comes first: during a game, a guest's /rummy kick is told that only the
    host may do it (not that the game has started); the host is told the game has started."""
    alice, bob = world.players[:2]
    await world.open_table("r51", "1v1", 2)
    refused = await bob.slash(world.channel, "rummy kick", player=alice)
    assert refused.ephemeral and refused.response.content == "Only the host can do that."
    host = await alice.slash(world.channel, "rummy kick", player=bob)
    assert host.response.content == "The game has already started."
    table = await world.table()
    assert {s.user_id for s in table.seats} == {alice.user.id, bob.user.id}, "nobody removed"

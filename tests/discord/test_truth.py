"""What players see is what is stored: a crash at any step between a commit and the last
Discord call heals at restart, and the situations that used to leave a table wrong."""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.webhook.async_ import async_context

from bot.config import Settings
from bot.logs import configure_logging
from rummy_engine import Phase
from tests.discord.conftest import CARD_TOKEN, Crash, World, has_table_buttons, make_bot, play_step
from tests.discord.test_play_flow import R51_HANDS, scripted


def crash_at(bot: Any, step: int | None, *, tokens: bool = False) -> list[str]:
    """Make the bot's ``step``-th bot-token REST call (from now on) fail before it is sent;
    returns the list of calls seen, for counting. ``tokens``: the calls made with interaction
    tokens count too (follow-ups and their edits and deletes, not the callbacks that answer
    the mover)."""
    seen: list[str] = []

    def counted(original: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def request(route: Any, *args: Any, **kwargs: Any) -> Any:
            seen.append(f"{route.method} {route.path}")
            if step is not None and len(seen) >= step:
                bot.crashed = True
                raise Crash(f"killed before {route.method} {route.path}")
            return await original(route, *args, **kwargs)

        return request

    bot.http.request = counted(bot.http.request)
    if tokens:
        adapter = async_context.get()
        original = adapter.request

        async def webhook(route: Any, *args: Any, **kwargs: Any) -> Any:
            if route.path.startswith("/webhooks/"):
                return await counted(original)(route, *args, **kwargs)
            return await original(route, *args, **kwargs)

        adapter.request = webhook
    return seen


def live_buttons(world: World) -> list[discord.Message]:
    """Public messages with at least one enabled component, round summaries aside (their
    Review my round button stays for good)."""
    return [
        m
        for m in world.public_messages()
        if has_table_buttons(m)
        and any(not getattr(c, "disabled", True) for row in m.components for c in row.children)
    ]


def notices(world: World) -> list[discord.Message]:
    return [m for m in world.public_messages() if m.content.startswith("🔔")]


async def test_a_discard_publishes_in_a_few_bot_token_calls(world: World) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS)
    alice = world.players[0]
    seen = crash_at(world.bot, None)
    await alice.slash(world.channel, "rummy discard", card="3c")
    # the mover's hand DM (it lost a card); the table and the notice move to the bottom of
    # the channel as the discard's public follow-ups, the old ones deleted through the tokens
    # that posted them (the opening command's, the start's), and the next player's DM does
    # not change: their hand did not
    assert [call.split()[0] for call in seen] == ["PATCH"]
    bob = world.players[1]
    await bob.slash(world.channel, "rummy draw")
    assert [call.split()[0] for call in seen] == ["PATCH"], "the draw edits through a token"
    seen.clear()
    await bob.slash(world.channel, "rummy discard", card="2s")
    assert [call.split()[0] for call in seen] == ["PATCH"]
    (notice,) = notices(world)
    assert f"<@{alice.user.id}>" in notice.content


#: Each Discord call a discard makes after its reply: the new table message posted, the old
#: one deleted, the old notice deleted, the new one posted (interaction tokens), the mover's
#: DM edited (the bot token).
CRASH_STEPS = (1, 2, 3, 4, 5)


@pytest.mark.parametrize("step", CRASH_STEPS)
async def test_a_crash_at_any_step_after_a_discard_heals_at_restart(
    world: World, db_path: Path, step: int
) -> None:
    await crash_after_a_discard_heals(world, db_path, step)


async def crash_after_a_discard_heals(world: World, db: Path | str, step: int) -> None:
    """A crash at Discord call ``step`` after a committed discard; a fresh bot on the same
    database ``db`` heals everything (test_postgres_restart.py runs it on PostgreSQL)."""
    await scripted(world, "r51", "1v1", R51_HANDS)
    alice, bob = world.players[:2]
    seen = crash_at(world.bot, step, tokens=True)
    await alice.slash(world.channel, "rummy discard", card="3c")
    assert len(seen) == step, "the crash happened at the step under test"
    old = world.env.bot
    await world.env.restart_bot(make_bot(db))
    await old.close()

    (table_message,) = live_buttons(world)
    assert f"<@{bob.user.id}> to play: draw a card." in table_message.content
    labels = {c.label: c.disabled for row in table_message.components for c in row.children}
    assert labels["Draw"] is False and labels["Take 3♣"] is False
    (notice,) = notices(world)
    assert f"<@{bob.user.id}>" in notice.content
    dm = alice.user.dm_channel.history()[-1].content
    assert "3♣" not in dm and "10 cards" in dm
    assert world.env.bot is not old


# -- game ends and cancellations ----------------------------------------------------------------


async def test_leaving_in_round_one_ends_the_game_and_the_table_shows_it(world: World) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS)
    bob = world.players[1]
    left = await bob.slash(world.channel, "rummy leave")
    assert left.response.content == "You left the table."
    table = await world.table()
    assert table.record.status == "finished"
    (final,) = live_buttons(world)
    labels = [c.label for row in final.components for c in row.children]
    assert labels == ["Play again"], "a finished table keeps only Play again"
    table_message = next(m for m in reversed(world.public_messages()) if "table #" in m.content)
    assert "Game over. Winner: alice." in table_message.content
    assert "bob left the game." in table_message.content
    assert not notices(world), "no turn notice stays up"


async def test_cancelling_a_running_game_closes_the_table(world: World) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS, dealer=1)
    alice, bob = world.players[:2]
    await bob.slash(world.channel, "rummy discard", card="2s")
    (table_message,) = live_buttons(world)
    panel = await alice.click(table_message, label="Show my hand")
    cancelled = await alice.slash(world.channel, "rummy cancel")
    assert cancelled.response.content == "This table was cancelled."
    assert not live_buttons(world)
    (now,) = [m for m in world.public_messages() if m.id == table_message.id]
    assert "This table was cancelled; the game ended without a result." in now.content
    assert "to play" not in now.content
    assert not notices(world)
    late = await alice.click(panel.response, label="Draw")
    assert late.followups[-1].content == "This table is already closed."


async def test_a_closed_table_leaves_no_state_in_memory(world: World) -> None:
    """The per-table maps hold the tables in play, not every table the process served."""
    await scripted(world, "r51", "1v1", R51_HANDS, dealer=1)
    alice, bob = world.players[:2]
    await bob.slash(world.channel, "rummy discard", card="2s")
    assert world.table_id in world.bot.reconciler._pending, "an open table keeps its state"
    await alice.slash(world.channel, "rummy cancel")
    assert world.table_id not in world.bot.reconciler._pending
    assert not world.bot.tables._locks


# -- input that does not fit ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("rummy discard", {"card": "x" * 6000}),
        ("rummy lay", {"melds": "7h 8h " + "Z" * 5000}),
        ("rummy add", {"meld": 1, "cards": "Q" * 5990}),
        ("rummy swap", {"meld": 1, "card": "\u202e" + "k" * 3000}),
    ],
)
async def test_long_or_hostile_input_gets_a_short_clean_refusal(
    world: World, command: str, options: dict[str, object]
) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS)
    alice = world.players[0]
    version = (await world.table()).record.version
    result = await alice.slash(world.channel, command, **options)
    text = result.response.content
    assert result.ephemeral and not result.deferred
    assert 0 < len(text) <= 400 and "…" in text, text
    assert not any(ch in text for ch in "\u202e\u202d\u2066\u2067\u2068\u2069\u200f")
    assert (await world.table()).record.version == version, "nothing changed"


async def test_a_member_that_cannot_be_resolved_gets_a_sentence(world: World) -> None:
    alice = world.players[0]
    stranger = world.env.create_user("stranger")  # not a member of this server
    result = await alice.slash(world.channel, "rummy-stats player", player=stranger)
    assert result.ephemeral
    assert "cannot find the member" in result.response.content


# -- wording and pings -------------------------------------------------------------------------------


async def test_own_draw_neither_reposts_nor_pings(world: World) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS, dealer=1)
    alice, bob = world.players[:2]
    await bob.slash(world.channel, "rummy discard", card="2s")
    (notice,) = notices(world)
    assert f"<@{alice.user.id}>" in notice.content
    before = len(world.env.http_requests)
    await alice.slash(world.channel, "rummy draw")
    (after,) = notices(world)
    assert after.id == notice.id, "the notice of a turn is posted once"
    posted = [
        r for r in world.env.http_requests[before:] if r.method == "POST" and "/messages" in r.path
    ]
    pings = [r.json.get("allowed_mentions", {}).get("users") for r in posted if r.json]
    assert not any(pings), "nobody is pinged about their own draw"


async def test_the_lobby_does_not_ping_its_host(world: World) -> None:
    alice = world.players[0]
    before = len(world.env.http_requests)
    await alice.slash(world.channel, "rummy new", variant="r51", mode="1v1")
    (lobby,) = [
        r
        for r in world.env.http_requests[before:]
        if r.method == "POST"
        and r.path.startswith(("/channels/", "/webhooks/"))
        and r.json
        and r.json.get("components")  # not the host's private answer
    ]
    mentions = lobby.json["allowed_mentions"]
    assert mentions.get("users", []) == [] and "users" not in mentions.get("parse", [])


async def test_plurals_and_an_empty_table_are_worded(world: World) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS)
    alice = world.players[0]
    added = await alice.slash(world.channel, "rummy add", meld=1, cards="Kd")
    assert "nobody has laid a meld yet" in added.response.content
    await alice.slash(world.channel, "rummy discard", card="3c")
    (table_message,) = live_buttons(world)
    assert "(1 card)" in table_message.content and "(1 cards)" not in table_message.content


async def test_kicking_someone_not_seated_names_them(world: World) -> None:
    alice, carol = world.players[0], world.players[2]
    await alice.slash(world.channel, "rummy new", variant="r51", mode="1v1")
    kicked = await alice.slash(world.channel, "rummy kick", player=carol)
    assert (
        kicked.response.content
        == "carol is not seated at this table, so there is nobody to remove."
    )


async def play_until_round_two(world: World) -> None:
    """Type the simple player's moves until the second round is being played."""
    rng = random.Random(11)
    for _ in range(800):
        game = (await world.table()).require_game()
        if game.round_no == 2 and game.phase in (Phase.DRAW, Phase.PLAY):
            return
        await play_step(world, rng)
    raise AssertionError("round 2 never started")


async def test_round_end_and_a_forfeit_in_round_two(world: World) -> None:
    await world.open_table("r51", "1v1", 2)
    rng = random.Random(5)
    for _ in range(800):
        game = (await world.table()).require_game()
        if game.phase is Phase.ROUND_OVER:
            break
        await play_step(world, rng)
    (table_message,) = live_buttons(world)
    assert "the next round starts <t:" in table_message.content and ":R>" in table_message.content
    assert "+1 bar" not in table_message.content, "the bar line is gone once the round is over"
    await play_until_round_two(world)
    bob = world.players[1]
    await bob.slash(world.channel, "rummy leave")
    summaries = [
        m
        for m in world.public_messages()
        if m.content.startswith("**")
        and "round 1" in m.content.split("\n")[0]
        and "table #" not in m.content
    ]
    assert len(summaries) == 1, [m.content.split("\n")[0] for m in summaries]
    (final,) = live_buttons(world)
    labels = [c.label for row in final.components for c in row.children]
    assert labels == ["Play again", "Replay"], "round 1 was played out: the game has a replay"
    assert not notices(world)


async def test_no_card_reaches_the_logs_at_debug(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    configure_logging(Settings(log_level="DEBUG"))
    caplog.set_level(logging.DEBUG)
    await world.open_table("r51", "1v1", 2)
    rng = random.Random(2)
    for _ in range(40):
        await play_step(world, rng)
    texts = [record.getMessage() for record in caplog.records]
    assert any(r.levelno == logging.DEBUG for r in caplog.records), "DEBUG was really on"
    leaks = [x for x in texts if CARD_TOKEN.search(x) or '"hands"' in x or "Your hand" in x]
    assert not leaks, leaks[:3]


async def test_a_typed_discard_reads_once_and_commits_once(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS)
    store, alice = world.bot.store, world.players[0]
    calls: list[str] = []
    for name in dir(type(store)):
        method = getattr(store, name)
        if name.startswith("_") or not callable(method) or name in ("is_open", "pragma"):
            continue

        def counted(*args: Any, _name: str = name, _method: Any = method, **kwargs: Any) -> Any:
            calls.append(_name)
            return _method(*args, **kwargs)

        monkeypatch.setattr(store, name, counted)
    await alice.slash(world.channel, "rummy discard", card="3c")
    # One read for the table, its seats and the players' preferences; the channel's table and
    # what each message shows are known from before. Then the move's commit and what the
    # messages show now, the new turn notice included (a follow-up of the discard's
    # interaction: no fsync, a lost reference is found again in the channel). No deadline is
    # written: the table has no turn timer, and the idle game's deadline moves only when due.
    move_path = [c for c in calls if c != "next_deadlines"]
    assert move_path == [
        "load_table",
        "commit_move",
        "mark_published",
    ], calls


async def test_a_table_message_that_is_gone_is_posted_again(world: World) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS)
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy discard", card="3c")
    (old,) = live_buttons(world)
    assert world.watch is not None
    world.watch.enabled = False  # the simulated Discord still holds the message said to be gone
    # the edit through the token that posted it says it is gone
    world.env.inject_error("PATCH", f"*/messages/{old.id}", status=404, code=10008)
    await bob.slash(world.channel, "rummy draw")
    newest = [m for m in world.public_messages() if "table #" in m.content][-1]
    assert newest.id != old.id
    assert f"<@{bob.user.id}> to play: lay down or discard." in newest.content


async def test_discord_errors_only_delay_what_players_see(world: World) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS)
    alice, bob = world.players[:2]
    (table_message,) = live_buttons(world)
    # the new table message, a follow-up of the discard, is refused for now
    world.env.inject_error("POST", "/webhooks/*", status=500, times=2)
    await alice.slash(world.channel, "rummy discard", card="3c")
    (stale,) = live_buttons(world)
    assert stale.id == table_message.id, "the channel still shows the table"
    assert f"<@{alice.user.id}> to play" in stale.content, "Discord refused the post for now"
    await world.env.advance_time(60)
    (healed,) = live_buttons(world)
    assert f"<@{bob.user.id}> to play: draw a card." in healed.content


async def test_a_meld_out_of_order_is_refused_with_the_legal_order(world: World) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS)
    alice = world.players[0]
    refused = await alice.slash(world.channel, "rummy lay", melds="Kh Jh Qh")
    assert "Did you mean J♥ Q♥ K♥?" in refused.response.content, refused.response.content

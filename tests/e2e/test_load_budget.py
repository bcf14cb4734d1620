"""What a move costs, counted through the loopback emulator with the real bot (no timing): the
bot-token REST calls of each move, by route; that a 429 storm delays the table but merges what
piled up instead of replaying every move; that each picture is drawn once per version.

Why counts and not times: Discord allows a bot token 50 requests per second across every
server, so the calls per move bound how many tables a bot can serve; interaction-token calls
(the answer to the mover) are not bound by that limit.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.app import RummyBot
from bot.features.play.ui.messages import Pictures
from bot.render import HandScene, Renderer, TableScene
from bot.render.drawing import ThreadDrawer
from bot.ui import interaction
from rummy_engine import Phase
from tests.discord.conftest import make_bot
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.models import EmuChannel, EmuUser, StoredMessage
from tests.discord_emulator.server import DiscordEmulator

INTERACTION_ROUTES = ("/interactions/", "/webhooks/")


@dataclass
class Table:
    emu: DiscordEmulator
    bot: RummyBot
    channel: EmuChannel
    users: tuple[EmuUser, EmuUser]
    table_id: int

    async def move(self) -> tuple[str, EmuUser]:
        """The player to act draws from the stock, or discards the first card they were dealt
        (not the one just drawn, whose hand would be a picture already drawn)."""
        game = (await self.bot.tables.load(self.table_id)).require_game()
        mover = self.users[game.current]
        if game.phase is Phase.DRAW:
            handle = await self.emu.slash(mover, self.channel, "rummy draw", source="stock")
            kind = "draw"
        else:
            card = next(c.text for c in game.hands[game.current] if c.text != "JK")
            handle = await self.emu.slash(mover, self.channel, "rummy discard", card=card)
            kind = "discard"
        reply = await handle.answer()
        assert reply.flags & 64, "the mover's answer is private"
        return kind, mover

    def table_message(self) -> StoredMessage:
        (message,) = [m for m in self.emu.public_messages() if m.components]
        return message


async def quiet(emu: DiscordEmulator, for_s: float = 0.3, timeout: float = 15.0) -> None:
    """Wait until the bot has made no REST call for ``for_s`` seconds."""
    deadline = time.monotonic() + timeout
    seen = -1
    while len(emu.requests) != seen:
        assert time.monotonic() < deadline, "the bot never went quiet"
        seen = len(emu.requests)
        await asyncio.sleep(for_s)


def bot_calls(emu: DiscordEmulator, since: int) -> list[str]:
    """Bot-token REST calls after the ``since``-th request, as "METHOD what" with ids named."""
    return [
        f"{r.method} {r.path.split('/')[1]}/{r.path.split('/')[3] if '/messages' in r.path else ''}"
        for r in emu.requests[since:]
        if not r.path.startswith(INTERACTION_ROUTES) and not r.path.startswith("/gateway")
    ]


def interaction_calls(emu: DiscordEmulator, since: int) -> list[str]:
    """Interaction-token calls after the ``since``-th request: callback, follow-up, message."""
    named = []
    for r in emu.requests[since:]:
        if r.path.startswith(INTERACTION_ROUTES):
            what = "callback" if r.path.endswith("/callback") else "followup"
            named.append(f"{r.method} {'message' if '/messages/' in r.path else what}")
    return named


@asynccontextmanager
async def two_player_table(tmp_path: Path) -> AsyncIterator[Table]:
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        bot = make_bot(tmp_path / "rummy.db")
        async with emu.running(bot):
            await (await emu.slash(alice, channel, "rummy new", variant="r51")).followups(1)
            await (await emu.slash(bob, channel, "rummy join")).followups(1)
            await (await emu.slash(alice, channel, "rummy start")).followups(1)
            await quiet(emu)
            found = await bot.tables.in_channel(channel.guild_id, channel.id)
            assert found is not None
            table = Table(emu, bot, channel, (alice, bob), found.id)
            if found.require_game().phase is Phase.PLAY:
                await table.move()  # Rummy 51: the first player holds 14 cards and discards
                await quiet(emu)
            yield table


async def test_a_turn_costs_the_bot_token_only_the_movers_dm_at_its_end(
    tmp_path: Path,
) -> None:
    async with two_player_table(tmp_path) as table:
        emu = table.emu
        for _ in range(2):  # two full turns: draw then discard, each player once
            since = len(emu.requests)
            shown = table.table_message()
            kind, mover = await table.move()
            await quiet(emu)
            assert kind == "draw"
            # The table shows the draw through the token of the move that posted it (the last
            # discard), in its text only: the picture shows no count, so it is not uploaded
            # again. The mover's DM waits for the end of the turn.
            assert bot_calls(emu, since) == [], emu.requests[since:]
            assert interaction_calls(emu, since) == ["POST callback", "PATCH message"]
            assert table.table_message().id == shown.id
            assert table.table_message().attachments[0].id == shown.attachments[0].id
            dm = emu.dm_messages(mover)[-1]
            picture = dm.attachments[0].id
            since = len(emu.requests)
            kind, mover = await table.move()
            await quiet(emu)
            assert kind == "discard"
            # The mover's hand DM is the turn's only bot-token call; the next player's DM is
            # untouched: their hand did not change.
            calls = Counter(bot_calls(emu, since))
            assert calls == {"PATCH channels/messages": 1}, emu.requests[since:]
            assert emu.get_message(dm.channel_id, dm.id).attachments[0].id != picture
            # The mover's answer is the interaction's response itself (no deferral); then the
            # table moves to the bottom of the channel (the new one first, so that a failure
            # never leaves the channel without one) and the notice below it, each posted as a
            # follow-up of the discard, the old ones deleted through their own tokens.
            tokens = interaction_calls(emu, since)
            assert tokens == [
                "POST callback",
                "POST followup",
                "DELETE message",
                "DELETE message",
                "POST followup",
            ], tokens
            public = emu.public_messages()
            assert public[-2].id == table.table_message().id != shown.id
            assert table.table_message().attachments[0].id != shown.attachments[0].id
            other = next(u for u in table.users if u != mover)
            notices = [m for m in public if m.content.startswith("🔔")]
            assert notices == [public[-1]] and f"<@{other.id}>" in notices[0].content


async def test_opening_a_table_costs_the_bot_token_only_the_hand_dms(tmp_path: Path) -> None:
    """The lobby is the opening command's follow-up, joined and started through that token;
    each player's first hand DM opens their DM channel once, and the next game's DMs reuse
    it."""
    async with emulated_discord() as emu:
        alice, bob, channel = emu.two_players()
        bot = make_bot(tmp_path / "rummy.db")
        async with emu.running(bot):
            for game in range(2):
                since = len(emu.requests)
                await (await emu.slash(alice, channel, "rummy new", variant="r51")).followups(1)
                await (await emu.slash(bob, channel, "rummy join")).followups(1)
                await (await emu.slash(alice, channel, "rummy start")).followups(1)
                await quiet(emu)
                opened = Counter(bot_calls(emu, since))
                dms = {"POST channels/messages": 2}
                wanted = dms if game else dms | {"POST users/": 2}
                assert opened == wanted, emu.requests[since:]
                table = await bot.tables.in_channel(channel.guild_id, channel.id)
                assert table is not None
                await (await emu.slash(alice, channel, "rummy cancel")).followups(1)
                await quiet(emu)


async def test_a_press_on_the_tables_draw_button_edits_it_through_the_interaction(
    tmp_path: Path,
) -> None:
    async with two_player_table(tmp_path) as table:
        emu = table.emu
        game = (await table.bot.tables.load(table.table_id)).require_game()
        assert game.phase is Phase.DRAW
        mover = table.users[game.current]
        message = table.table_message()
        draw = next(
            c["custom_id"]
            for row in message.components
            for c in row["components"]
            if c.get("label") == "Draw"
        )
        since = len(emu.requests)
        handle = await emu.click(mover, message, draw)
        (reply,) = await handle.followups(1)
        assert reply.flags & 64, "the mover's hand is private"
        await quiet(emu)
        # No bot-token call at all: the table message is the press's original response.
        assert bot_calls(emu, since) == [], emu.requests[since:]
        shown = emu.get_message(message.channel_id, message.id).content
        assert f"<@{mover.id}> to play: lay down or discard." in shown
        assert handle.response_type == 6, "acknowledged as an update of the table message"


async def test_a_picture_is_drawn_once_per_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with two_player_table(tmp_path) as table:
        drawn: list[str] = []
        render = Renderer.render

        def counted(self: Renderer, scene: HandScene | TableScene) -> bytes:
            drawn.append(type(scene).__name__)
            return render(self, scene)

        monkeypatch.setattr(Renderer, "render", counted)
        for _ in range(4):
            kind, _ = await table.move()
            await quiet(table.emu)
            # The mover's hand once (their reply, and their DM at the end of the turn, share
            # it); the table only when its cards change (a discard), since the stock's and the
            # hands' sizes are in its text; the other player's DM keeps its picture.
            expected = ["HandScene"] if kind == "draw" else ["HandScene", "TableScene"]
            assert sorted(drawn) == expected, (kind, drawn)
            drawn.clear()


async def test_a_429_storm_merges_the_pending_table_edits(tmp_path: Path) -> None:
    """The table's messages travel with interaction tokens, whose webhook routes Discord
    limits too: while they answer 429, the moves pile up and go out as the newest state."""
    async with two_player_table(tmp_path) as table:
        emu = table.emu
        storm_until = time.monotonic() + 1.5
        limited: list[float] = []

        def carried(method: str, route: str) -> bool:
            return method in ("PATCH", "POST") and route.startswith("/api/v10/webhooks/")

        def rate_limit(method: str, route: str) -> float | None:
            if carried(method, route) and time.monotonic() < storm_until:
                limited.append(time.monotonic())
                return 0.4
            return None

        emu.rate_limit = rate_limit
        # The step check waits for the table to catch up before each move; here the moves
        # must pile up behind the storm, so the table is checked once, at the end.
        watch, emu.step_check = emu.step_check, None
        since = len(emu.requests)
        for _ in range(4):
            await table.move()
        game = (await table.bot.tables.load(table.table_id)).require_game()
        newest = f"Stock: {len(game.stock)} · discard: {game.discard[-1].pretty}"
        await emu.wait_until(
            lambda: any(newest in m.content for m in emu.public_messages() if m.components),
            what="the table showing the newest state",
            timeout=20,
        )
        await quiet(emu)
        if watch is not None:
            await watch.check()
        applied = [
            r
            for r in emu.requests[since:]
            if carried(r.method, "/api/v10" + r.path) and r.status == 200
        ]
        assert limited, "the storm was felt"
        # Four moves would be six posts and edits one by one (a draw's edit, a discard's table
        # and notice); what piled up during the storm went out merged.
        assert len(applied) < 6, [(r.method, r.path, r.started) for r in applied]
        gaps = [b - a for a, b in itertools.pairwise(limited)]
        assert all(gap >= 0.35 for gap in gaps), f"retried before Retry-After: {gaps}"


async def test_pictures_share_one_drawing_and_forget_failures() -> None:
    pictures = Pictures(ThreadDrawer(Renderer()), kept=2)
    calls: list[str] = []

    async def paint() -> bytes:
        calls.append("paint")
        await asyncio.sleep(0.01)
        return b"png"

    assert await asyncio.gather(pictures.png("a", paint), pictures.png("a", paint)) == [
        b"png",
        b"png",
    ]
    assert calls == ["paint"]

    async def broken() -> bytes:
        raise OSError("disk")

    with pytest.raises(OSError):
        await pictures.png("b", broken)
    assert await pictures.png("b", paint) == b"png"
    assert calls == ["paint", "paint"]
    await pictures.png("c", paint)
    await pictures.png("a", paint)  # pushed out by b and c: drawn again
    assert len(calls) == 4


async def test_a_move_answered_late_is_deferred_first_and_answered_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot too busy to answer a typed move within ANSWER_WITHIN defers it ("thinking…"),
    then answers with a follow-up: no second acknowledgement, no failed interaction."""
    monkeypatch.setattr(interaction, "ANSWER_WITHIN", 0.0)
    async with two_player_table(tmp_path) as table:
        emu = table.emu
        since = len(emu.requests)
        kind, _ = await table.move()
        await quiet(emu)
        assert kind == "draw"
        # The callback is the deferral: the answer (the hand) is the follow-up after it; then
        # the table is edited through the token that posted it.
        assert interaction_calls(emu, since) == ["POST callback", "POST followup", "PATCH message"]
        assert all(r.status < 400 for r in emu.requests[since:]), emu.requests[since:]


async def test_a_pinned_picture_outlives_the_cache_bound() -> None:
    """The mover's hand, pinned between their reply and their DM, is not drawn twice however
    many pictures other tables draw meanwhile; once released, the bound applies again."""
    pictures = Pictures(ThreadDrawer(Renderer()), kept=1)
    calls: list[str] = []

    def painter(name: str) -> Callable[[], Awaitable[bytes]]:
        async def paint() -> bytes:
            calls.append(name)
            return name.encode()

        return paint

    await pictures.png("hand", painter("hand"))
    with pictures.pinned("hand"):
        for other in ("t1", "t2", "t3"):
            await pictures.png(other, painter(other))
        assert await pictures.png("hand", painter("hand")) == b"hand"
        assert calls.count("hand") == 1
    await pictures.png("t4", painter("t4"))
    await pictures.png("hand", painter("hand"))
    assert calls.count("hand") == 2, "released, it was pushed out like any other"

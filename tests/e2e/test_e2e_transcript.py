"""Whole games as players live them, over real HTTP and WebSocket: a 1v1 and a 2v2 game are
played to the end through the loopback emulator (seats taken with the lobby's buttons, the game
started and each next round pressed on the table message, moves typed), and every message each
player received is read in order. The transcript's shape is the test: one table message per
turn at the bottom of the channel (the lobby's first, each gone once the next is posted, the
last showing the final result), one turn notice per human turn (each gone once played), one
summary per round, one hand DM per player and round (edited at the end of their turns), and one
private answer per interaction. A stray message or a missing edit fails.

``RUMMY_TRANSCRIPT=<file>`` also writes the 2v2 game's first round as text, for people to read.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rummy_engine import Phase, StartRound
from rummy_engine.strategy import choose_action
from tests.discord.conftest import command_for, make_bot
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.models import StoredMessage
from tests.discord_emulator.server import DiscordEmulator


def kind_of(message: StoredMessage, dm_owner: dict[int, str]) -> str:
    """What a message is, as a player would name it."""
    if message.channel_id in dm_owner:
        return "hand DM" if "Your hand" in message.content else "DM"
    if message.ephemeral:
        return "private answer"
    first = message.shown[0][1] if message.shown else message.content
    if first.startswith("🔔"):
        return "turn notice"
    if any(a.filename.startswith("round-") for a in message.attachments):
        return "round summary"
    return "table" if "table #" in first.split("\n", 1)[0] else "public"


def transcript(emu: DiscordEmulator, names: dict[int, str]) -> list[tuple[float, str, str, int, str]]:
    """Every post and edit, in the order players saw them: (when, reader, kind, message, text)."""
    dm_owner = {cid: names[uid] for uid, cid in emu.dm_channels.items() if uid in names}
    lines = []
    for channel_id, messages in emu.messages.items():
        for message in messages:
            kind = kind_of(message, dm_owner)
            if channel_id in dm_owner:
                reader = dm_owner[channel_id]
            elif message.ephemeral:
                reader = names.get(message.interaction_user_id or 0, "?")
            else:
                reader = "everyone"
            for index, (when, text) in enumerate(message.shown):
                action = "posts" if index == 0 else "edits"
                if message.deleted and index == len(message.shown) - 1:
                    action += ", deleted later"  # the emulator does not say when
                lines.append((when, reader, f"{kind} {action}", message.id, text))
    return sorted(lines)


def readable(lines: list[tuple[float, str, str, int, str]], names: dict[int, str]) -> str:
    out = []
    for _, reader, what, message_id, text in lines:
        for user_id, name in names.items():
            text = text.replace(f"<@{user_id}>", f"@{name}")
        body = text.replace("\n", "\n        ") if text else "(thinking…)"
        out.append(f"[{reader}] {what} (message …{str(message_id)[-4:]})\n        {body}".rstrip())
    return "\n".join(out) + "\n"


async def play(emu: DiscordEmulator, bot: Any, mode: str, players: list[Any], channel: Any) -> int:
    """Seat everyone with the lobby's buttons, press Start, type every move, press Next round;
    returns how many human turns were played."""
    host = players[0]
    opened = await emu.slash(host, channel, "rummy new", variant="r51", mode=mode)
    await opened.answer()
    table = await bot.tables.in_channel(channel.guild_id, channel.id)
    await emu.wait_until(lambda: any(m.components for m in emu.public_messages()), what="lobby")
    lobby = next(m for m in emu.public_messages() if m.components)
    for index, player in enumerate(players[1:], start=1):
        action = {"2v2": {1: "join_b", 2: "join_a", 3: "join_b"}}.get(mode, {}).get(index, "join")
        await (await emu.click(player, lobby, f"rummy:{table.id}:0:{action}")).answer()
    await (await emu.click(host, lobby, f"rummy:{table.id}:0:start")).answer()
    rng, turns, last_turn = random.Random(4), 0, None
    for _ in range(3000):
        table = await bot.tables.load(table.id)
        game = table.require_game()
        if game.phase is Phase.GAME_OVER:
            return turns
        action = choose_action(game, rng)
        if isinstance(action, StartRound):
            button = f"rummy:{table.id}:{game.turn}:next"
            await emu.wait_until(
                lambda b=button: any(b in m.custom_ids() for m in emu.public_messages()),  # type: ignore[misc]
                what="Next round",
            )
            shown = next(m for m in emu.public_messages() if button in m.custom_ids())
            await (await emu.click(host, shown, button)).answer()
            continue
        if (game.round_no, game.turn) != last_turn:
            turns, last_turn = turns + 1, (game.round_no, game.turn)
        name, options = command_for(action)
        user = next(p for p in players if p.id == table.user_at(action.seat))
        answer = await (await emu.slash(user, channel, name, **options)).answer()
        assert answer.ephemeral, "answers to a move are private"
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("mode", ["1v1", "2v2"])
async def test_a_whole_game_reads_right_to_every_player(tmp_path: Path, mode: str) -> None:
    async with emulated_discord() as emu:
        count = 2 if mode == "1v1" else 4
        players = [emu.add_user(n) for n in ("alice", "bob", "carol", "dave")[:count]]
        guild = emu.add_guild("Rummy Club", members=players)
        channel = emu.add_text_channel(guild, "rummy")
        bot = make_bot(tmp_path / "rummy.db", seed=11)
        async with emu.running(bot):
            turns = await play(emu, bot, mode, players, channel)
            table = (await bot.tables.load(1))
        names = {p.id: p.name for p in players}
        lines = transcript(emu, names)
    game = table.require_game()
    rounds = len(game.results)
    kinds = Counter(what for _, _, what, _, _ in lines)
    # One table message per human turn, at the bottom of the channel (the first is the lobby,
    # edited when the game starts), each deleted once the next one is posted: the last one
    # shows the end.
    tables = {m for _, _, what, m, _ in lines if what.startswith("table")}
    gone = {m for _, _, what, m, _ in lines if what.startswith("table") and "deleted" in what}
    (table_message,) = tables - gone
    assert len(tables) == turns, (len(tables), turns)
    final = [text for _, _, what, m, text in lines if m == table_message][-1]
    assert "Game over" in final
    # Every human turn had one notice, posted once and deleted once its turn was played.
    assert kinds["turn notice posts, deleted later"] == turns, kinds
    assert not [w for w in kinds if w.startswith("turn notice") and "deleted" not in w], kinds
    # One summary per round, never edited.
    assert kinds["round summary posts"] == rounds and kinds["round summary edits"] == 0
    # One hand DM per player and round, edited as their hand changes; nothing else by DM.
    for player in names.values():
        dms = [(what, m) for _, who, what, m, _ in lines if who == player and "DM" in what]
        posted = [m for what, m in dms if what == "hand DM posts"]
        assert len(posted) == rounds, (player, len(posted), rounds)
        assert any(what == "hand DM edits" for what, _ in dms), player
        assert all(what.startswith("hand DM") for what, _ in dms), dms
    # Every interaction got exactly one private answer, to the one who acted, but Next round
    # pressed on the table: the table shows the new round, and the presser gets no word of
    # their own (it was a bare "Done.").
    answers = [m for m in emu.channel_messages(channel) if m.ephemeral]
    presses = [r for r in emu.interactions.values() if r.data.get("custom_id", "").endswith(":next")]
    assert len(presses) == rounds - 1
    assert len(answers) == len(emu.interactions) - len(presses)
    assert not {m.interaction_id for m in answers} & {r.id for r in presses}
    assert all(names.get(m.interaction_user_id or 0) for m in answers)
    assert not [what for _, _, what, _, _ in lines if what.startswith("public")], kinds
    out = os.environ.get("RUMMY_TRANSCRIPT")
    if out and mode == "2v2":
        first_round = [line for line in lines if line[0] <= _round_end(lines, 1)]
        Path(out).write_text(readable(first_round, names), encoding="utf-8")


def _round_end(lines: list[tuple[float, str, str, int, str]], round_no: int) -> float:
    """When round ``round_no``'s summary was posted (and the table edited with it)."""
    posted = [when for when, _, what, _, _ in lines if what == "round summary posts"]
    return posted[round_no - 1] + 0.05

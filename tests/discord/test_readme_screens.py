"""The README's pictures of Discord messages (the lobby, the hand and its panel) are what the
real bot posts: the same steps through SimCord, the message shown as the README writes it.

How the README writes a message: its text with Discord's markup for bold removed and mentions
as @name / #channel, then one line per row of components, ``[Label]`` for a button or menu and
``(Label)`` for a greyed one.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.app import RummyBot
from tests.discord.conftest import World, make_bot

README = Path(__file__).resolve().parents[2] / "README.md"


def screen(name: str) -> str:
    """The README's ``text`` block marked ``<!-- screen: name -->``."""
    text = README.read_text(encoding="utf-8")
    found = re.search(rf"<!-- screen: {name} -->\n```text\n(.*?)```", text, flags=re.S)
    assert found, f"the README shows the {name}"
    return found.group(1).rstrip("\n")


def as_readme_writes(world: World, content: str, rows: list[list[tuple[str, bool]]]) -> str:
    names = {str(p.user.id): p.user.name for p in world.players}
    text = re.sub(r"<@(\d+)>", lambda m: "@" + names[m.group(1)], content)
    text = text.replace(f"<#{world.channel.id}>", "#" + world.channel.name).replace("**", "")
    buttons = [
        " ".join(f"({label})" if disabled else f"[{label}]" for label, disabled in row)
        for row in rows
    ]
    return "\n".join([text, *buttons])


def message_rows(message: Any) -> list[list[tuple[str, bool]]]:
    return [
        [(c.label or c.placeholder, bool(c.disabled)) for c in row.children]
        for row in message.components
    ]


def payload_rows(components: list[dict[str, Any]]) -> list[list[tuple[str, bool]]]:
    return [
        [(c.get("label") or c["placeholder"], bool(c.get("disabled"))) for c in row["components"]]
        for row in components
    ]


@pytest.fixture
def simcord_bot(db_path: Path) -> RummyBot:
    """The bot with its default turn timer (5 minutes), as the README's lobby shows."""
    return make_bot(db_path, turn_timer=5)


async def test_readme_lobby_and_hand_are_what_the_bot_posts(world: World) -> None:
    alice, bob, carol, dave = world.players[:4]
    await alice.slash(world.channel, "rummy new", variant="r51", mode="2v2")
    await bob.slash(world.channel, "rummy join", team=1)
    lobby = next(m for m in world.public_messages() if m.components)
    assert as_readme_writes(world, lobby.content, message_rows(lobby)) == screen("lobby")

    await carol.slash(world.channel, "rummy join", team=0)
    await dave.slash(world.channel, "rummy join", team=1)
    await alice.slash(world.channel, "rummy start")
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None
    dealer = world.member(table.user_at(table.require_game().current))
    hand = await dealer.slash(world.channel, "rummy hand")
    assert hand.ephemeral
    shown = as_readme_writes(
        world, hand.response.content, payload_rows(hand.response.components)  # type: ignore[attr-defined]
    )
    assert shown == screen("hand")

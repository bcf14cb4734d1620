"""Buttons posted before an upgrade: the lobby message's custom_ids keep their released text,
and a press on one, found by that text alone, still does what it did."""

from __future__ import annotations

from tests.discord.conftest import World


async def test_a_released_join_button_still_seats(world: World) -> None:
    alice, bob = world.players[:2]
    opened = await alice.slash(world.channel, "rummy new", variant="r51", mode="1v1")
    assert opened.acknowledged
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None
    lobby = next(m for m in reversed(world.public_messages()) if m.components)
    ids = {c.custom_id for row in lobby.components for c in row.children}  # type: ignore[union-attr]
    released = {f"rummy:{table.id}:0:{name}" for name in ("join", "leave", "start", "settings")}
    assert released <= ids, ids
    pressed = await bob.click(lobby, custom_id=f"rummy:{table.id}:0:join")
    assert pressed.acknowledged and "seated" in pressed.response.content
    seated = await world.bot.tables.load(table.id)
    assert seated.seat_of(bob.user.id) is not None

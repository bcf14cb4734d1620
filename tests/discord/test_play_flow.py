"""Playing through Discord with scripted hands: every refusal named in the product brief, the
hand panel's buttons and selects, closed DMs, stale and double clicks, and a restart mid-turn."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord

from bot.features.play import moves
from bot.features.play.tables import Table
from rummy_engine import Deal, Phase, Rules, Variant
from tests.discord.conftest import CARD_TOKEN, World, has_table_buttons, make_bot
from tests.engine.helpers import CardPool


async def scripted(
    world: World,
    variant: str,
    mode: str,
    hands: list[str],
    *,
    discard: str = "",
    stock_top: str = "",
    dealer: int = 0,
    **options: object,
) -> Table:
    """Open a table through the commands, then deal the hands given (seat order = join order)."""
    host, *others = world.players[: len(hands)]
    await host.slash(world.channel, "rummy new", variant=variant, mode=mode, **options)
    for index, player in enumerate(others, start=1):
        kwargs = {"team": {1: 1, 2: 0, 3: 1}[index]} if mode == "2v2" else {}
        await player.slash(world.channel, "rummy join", **kwargs)
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None
    world.table_id = table.id
    pool = CardPool(Rules(Variant(variant), len(hands), table.options))
    dealt = [tuple(pool.pull(h)) for h in hands]
    pile = tuple(pool.pull(discard)) if discard else ()
    top = pool.pull(stock_top) if stock_top else []
    deal = Deal(tuple(dealt), tuple(pool.cards + top[::-1]), pile)
    played = await world.bot.tables.start(table.id, host.user.id, dealer=dealer, deal=deal)
    await world.bot.ui.committed(played, host.user.id)
    return await world.table()


def texts(world: World) -> list[str]:
    return [m.content for m in world.public_messages()]


R51_HANDS = ["Jh Qh Kh 4s 5s 6s 2c 9d 9h Kd 3c", "2d 3d 4d 9s 9c Qs Qd Qc 5h 8c 8h 7d 2s"]


async def test_refusals_explain_what_is_wrong(world: World) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS, stock_top="Ac")
    alice, bob = world.players[:2]
    not_yours = await bob.slash(world.channel, "rummy discard", card="2d")
    assert not_yours.ephemeral and not_yours.response.content == "It is alice's turn."
    already = await alice.slash(world.channel, "rummy draw")
    assert "As the dealer you start without drawing" in already.response.content
    low = await alice.slash(world.channel, "rummy lay", melds="Jh Qh Kh | 4s 5s 6s")
    assert low.response.content == "An opening in Rummy 51 needs 51 points; these melds make 45."
    bad = await alice.slash(world.channel, "rummy discard", card="Zz")
    assert "'Zz' is not a card" in bad.response.content and "7h, 10s" in bad.response.content
    missing = await alice.slash(world.channel, "rummy discard", card="As")
    assert missing.response.content == "You do not hold A♠."
    not_run = await alice.slash(world.channel, "rummy lay", melds="2c 9d Kd")
    assert not_run.response.content == "A run stays in one suit: 9♦ is not ♣."
    carol = world.players[2]
    stranger = await carol.slash(world.channel, "rummy discard", card="2c")
    assert stranger.response.content == "You are not seated at this table."
    table = await world.table()
    assert table.record.version == 1, "no refusal may change the game"
    await alice.slash(world.channel, "rummy discard", card="3c")
    early = await bob.slash(world.channel, "rummy discard", card="2d")
    assert (
        early.response.content
        == "You must draw first: take the top of the stock or the top discard."
    )


async def test_rummy_71_opening_without_a_set_is_refused(world: World) -> None:
    hands = ["Jd Qd Kd Ad 10c Jc Qc Kc 2s 5h 7h", "2d 3d 4d 9s 9c 5c 6c 7c 8h 8d 2h 3s 4h"]
    await scripted(world, "r71", "1v1", hands)
    alice = world.players[0]
    reply = await alice.slash(world.channel, "rummy lay", melds="Jd Qd Kd Ad | 10c Jc Qc Kc")
    assert (
        reply.response.content == "Rummy 71 openings need a natural set (no joker); yours has none."
    )


async def test_failed_take_is_undone_and_stock_drawn(world: World) -> None:
    hands = ["7c 8c 5d 5s 5h 2d Qh 4s", "Ks Kh 3d 6d 9s Jc 10h"]
    await scripted(world, "r51", "1v1", hands, dealer=1)
    alice, bob = world.players[:2]
    await bob.slash(world.channel, "rummy discard", card="Jc")
    took = await alice.slash(world.channel, "rummy draw", source="discard")
    assert took.ephemeral and "J♣" in took.response.content
    refused = await alice.slash(world.channel, "rummy discard", card="2d")
    assert "put it back and draw from the stock" in refused.response.content
    opening = await alice.slash(world.channel, "rummy lay", melds="5d 5s 5h")
    assert opening.response.content.startswith(
        "You took J♣ from the discard pile: your opening must use it."
    )
    assert "/rummy undo" in opening.response.content
    undone = await alice.slash(world.channel, "rummy undo")
    assert undone.ephemeral
    table = await world.table()
    game = table.require_game()
    assert game.discard[-1].text == "Jc" and len(game.hands[0]) == 9 and game.taken is None
    assert any("put J♣ back" in text for text in texts(world))


async def test_hand_panel_lay_and_discard_with_buttons(world: World) -> None:
    hands = ["Jh Qh Kh Js Jd Jc 9s 9d 3c 4d 6h", "2d 3d 4d 9h 9c 5c 6c 7c 8h 8d 2h 3s 4h"]
    await scripted(world, "r51", "1v1", hands)
    alice = world.players[0]
    table_message = next(m for m in reversed(world.public_messages()) if has_table_buttons(m))
    panel = await alice.click(table_message, label="Show my hand")
    assert panel.ephemeral and panel.response.attachments[0].filename.startswith("hand-")
    wanted = ["Js", "Jh", "Qh", "Kh", "Jd", "Jc"]
    picked = await alice.select(panel.response, _values(panel, wanted), custom_id=_pick_id(panel))
    assert picked.acknowledged and "Selected: J♠ J♥ Q♥ K♥ J♣ J♦" in panel.response.content
    lay = await alice.click(panel.response, label="Lay as meld(s)")
    assert lay.acknowledged
    game = (await world.table()).require_game()
    assert game.opened[0] and sorted(len(t.meld.cards) for t in game.table) == [3, 3]
    assert any("alice opened with 60 points" in text for text in texts(world))
    await alice.select(panel.response, _values(panel, ["9s"]), custom_id=_pick_id(panel))
    await alice.click(panel.response, label="Discard")
    game = (await world.table()).require_game()
    assert game.current == 1 and game.discard[-1].text == "9s"


def _values(panel: object, faces: list[str]) -> list[str]:
    """The pick-select values of the named cards, as the panel lists them."""
    rows = panel.response.components  # type: ignore[attr-defined]
    select = next(c for row in rows for c in row["components"] if c["custom_id"].endswith(":pick"))
    return [o["value"] for o in select["options"] if o["value"].split(":")[1] in faces]


def _pick_id(panel: object) -> str:
    rows = panel.response.components  # type: ignore[attr-defined]
    return next(
        c["custom_id"]
        for row in rows
        for c in row["components"]
        if c["custom_id"].endswith(":pick")
    )


async def test_stale_and_double_clicks(world: World) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS, dealer=1, stock_top="Ac 5c 8d")
    alice, bob = world.players[:2]
    await bob.slash(world.channel, "rummy discard", card="2s")
    table_message = next(m for m in reversed(world.public_messages()) if has_table_buttons(m))
    old_panel = await alice.click(table_message, label="Show my hand")
    first = await alice.click(table_message, label="Draw")
    second = await alice.click(old_panel.response, label="Draw")
    # A press on the table's own button updates the table; the hand goes privately to the mover.
    assert not first.ephemeral and all(f.ephemeral for f in first.followups)
    assert "already drawn" in second.followups[-1].content
    game = (await world.table()).require_game()
    assert len(game.hands[0]) == 12, "a double click draws once"
    await alice.slash(world.channel, "rummy discard", card="3c")
    await bob.slash(world.channel, "rummy draw")
    await bob.slash(world.channel, "rummy discard", card="7d")
    stale = await alice.click(old_panel.response, label="Draw")
    assert "earlier turn" in stale.followups[-1].content
    game = (await world.table()).require_game()
    assert game.phase is Phase.DRAW and len(game.hands[0]) == 11


async def test_concurrent_moves_apply_once(world: World) -> None:
    """Two clicks handled at the same moment: the table lock lets exactly one draw through."""
    await scripted(world, "r51", "1v1", R51_HANDS, dealer=1)
    bob, alice = world.players[1], world.players[0]
    await bob.slash(world.channel, "rummy discard", card="2s")
    table = await world.table()
    draw = moves.draw()
    results = await asyncio.gather(
        *(
            world.bot.tables.act(table.id, alice.user.id, draw, turn=table.require_game().turn)
            for _ in range(2)
        ),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, Exception) for r in results) == 1
    refused = [r for r in results if isinstance(r, Exception)]
    assert [getattr(r, "code", r) for r in refused] == ["turn.already_drawn"]
    after = await world.table()
    assert after.record.version == table.record.version + 1


async def test_closed_dms_fall_back_to_private_replies(world: World) -> None:
    bob = world.players[1]
    world.env.inject_error(
        "POST",
        f"/channels/{bob.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    table = await scripted(
        world, "basic", "basic", ["2c 3c 4c 9d 9h 9s Kd", "5h 6h 7h Qs Qd Qc 2s"]
    )
    notices = [t for t in texts(world) if "cannot send you direct messages" in t]
    assert len(notices) == 1 and "<@" in notices[0]
    assert not CARD_TOKEN.findall(notices[0])
    prefs = await world.bot.store.get_player_prefs(bob.user.id)
    assert prefs.dm_closed
    hand = await bob.slash(world.channel, "rummy hand")
    assert hand.ephemeral and "Your hand" in hand.response.content and "5♥" in hand.response.content
    alice = world.players[0]
    assert (await alice.user.dm_channel.history()[0].attachments[0].read()).startswith(b"\x89PNG")
    game = table.require_game()
    assert game.phase is Phase.DRAW


async def test_restart_mid_turn_keeps_buttons_working(world: World, db_path: Path) -> None:
    await restart_mid_turn_keeps_buttons_working(world, db_path)


async def restart_mid_turn_keeps_buttons_working(world: World, db: Path | str) -> None:
    """A bot restarted on ``db`` mid-turn answers the old table message's buttons
    (test_postgres_restart.py runs it on PostgreSQL)."""
    hands = ["Jh Qh Kh 4s 5s 6s 2c 9d 9h Kd 3c", "2d 3d 4d 9s 9c Qs Qd Qc 5h 8c 8h 7d 2s"]
    await scripted(world, "r51", "1v1", hands, dealer=1)
    alice, bob = world.players[:2]
    await bob.slash(world.channel, "rummy discard", card="2s")
    table_message = next(m for m in reversed(world.public_messages()) if has_table_buttons(m))
    old = world.env.bot
    await world.env.restart_bot(make_bot(db))
    await old.close()
    drew = await alice.click(table_message, label="Draw")
    # The table's own button: the table is updated, the new hand is a private follow-up.
    assert drew.acknowledged and drew.followups and all(f.ephemeral for f in drew.followups)
    game = (await world.table()).require_game()
    assert game.phase is Phase.PLAY and len(game.hands[0]) == 12


async def test_lobby_rules(world: World) -> None:
    alice, bob, carol, dave, erin = world.players[:5]
    await alice.slash(world.channel, "rummy new", variant="r71", mode="2v2")
    again = await bob.slash(world.channel, "rummy new", variant="simple", mode="1v1")
    assert "already has a table" in again.response.content
    assert (
        await bob.slash(world.channel, "rummy join", team=0)
    ).response.content == "You are seated."
    full = await carol.slash(world.channel, "rummy join", team=0)
    assert full.response.content == "Team A is full; join the other team."
    await carol.slash(world.channel, "rummy join", team=1)
    early = await alice.slash(world.channel, "rummy start")
    assert early.response.content == (
        "The game needs 4 players; 3 are seated. Fill the free seats with Join or Add computer."
    )
    not_host = await bob.slash(world.channel, "rummy start")
    assert "Only the host" in not_host.response.content
    await dave.slash(world.channel, "rummy join")
    kicked = await alice.slash(world.channel, "rummy kick", player=dave)
    assert kicked.acknowledged
    await erin.slash(world.channel, "rummy join")
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None and {s.name for s in table.seats} == {"alice", "bob", "carol", "erin"}
    assert [s.seat for s in sorted(table.seats, key=lambda s: s.user_id or 0)] == [0, 2, 1, 3]
    lobby = next(m for m in world.public_messages() if m.components)
    assert "Team A: <@" in lobby.content and "erin" not in lobby.content  # mentions, not names
    settings = await alice.click(lobby, label="Settings")
    await alice.select(settings.response, ["bar_in_1v1"])
    await alice.select(settings.response, ["off"])
    table = await world.bot.tables.load(table.id)
    assert table.options.bar_in_1v1 is False
    cancel = await bob.slash(world.channel, "rummy cancel")
    assert "Only the host" in cancel.response.content
    await alice.slash(world.channel, "rummy cancel")
    assert await world.bot.tables.in_channel(world.guild.id, world.channel.id) is None


async def test_autocomplete_offers_only_my_cards(world: World) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS)
    alice, bob = world.players[:2]
    choices = await alice.autocomplete(world.channel, "rummy discard", "card", "J")
    assert [c["value"] for c in choices] == ["Jh"]
    offered = await alice.autocomplete(world.channel, "rummy lay", "melds", "Jh Qh K")
    assert [c["value"] for c in offered] == ["Jh Qh Kh", "Jh Qh Kd"]
    assert await bob.autocomplete(world.channel, "rummy discard", "card", "J") == []


async def test_rules_and_score(world: World) -> None:
    await scripted(world, "r71", "1v1", R51_HANDS)
    alice = world.players[0]
    rules = await alice.slash(world.channel, "rummy-learn rules")
    assert rules.ephemeral and "71 points counted without jokers" in rules.response.content
    score = await alice.slash(world.channel, "rummy score")
    assert "alice: 0/251" in score.response.content


async def test_table_repost_moves_buttons(world: World) -> None:
    await scripted(world, "r51", "1v1", R51_HANDS)
    alice = world.players[0]
    before = [m for m in world.public_messages() if m.components]
    await alice.slash(world.channel, "rummy table")
    with_buttons = [
        m for m in world.public_messages() if m.components and any(r.children for r in m.components)
    ]
    assert with_buttons and with_buttons[-1].id not in {m.id for m in before}
    assert isinstance(with_buttons[-1], discord.Message)


async def test_late_publication_never_rewinds_the_table(world: World) -> None:
    """Two moves published in the wrong order: the table shows the newer one, and the hand
    the older move changed is still delivered, as it stands now."""
    await scripted(world, "r51", "1v1", R51_HANDS, dealer=1)
    alice, bob = world.players[:2]
    await bob.slash(world.channel, "rummy discard", card="2s")
    await alice.slash(world.channel, "rummy draw")
    tables = world.bot.tables
    table = await world.table()
    older = await tables.act(table.id, alice.user.id, moves.discard("3c"))
    newer = await tables.act(table.id, bob.user.id, moves.draw())
    await world.bot.reconciler.publish(newer.table, events=newer.events)
    await world.bot.reconciler.publish(older.table, events=older.events)
    table_message = next(m for m in reversed(world.public_messages()) if has_table_buttons(m))
    assert f"<@{bob.user.id}> to play: lay down or discard." in table_message.content
    dm = alice.user.dm_channel.history()[-1].content
    assert "3♣" not in dm, "alice's private hand follows her discard even when published late"

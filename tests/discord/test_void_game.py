"""A game in which nobody won a round (Basic rummy, one round, no restock allowed: the stock
runs out, the round is void and nobody pays) is played by everyone and won by nobody:
the channel says so, and no statistic counts it as a win (it once recorded 1 game, 1 win, 100%
for each player)."""

from __future__ import annotations

from bot.text import t
from rummy_engine import Deal, Outcome, Phase, Rules, Variant
from tests.discord.conftest import World
from tests.engine.helpers import CardPool

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: 25 cards each, two left in the stock (Kc, Kd): a draw each, then nothing to draw.
HANDS = [
    " ".join(f"{r}{s}" for s in "sh" for r in RANKS[:-1]) + " Ks",
    " ".join(f"{r}{s}" for s in "cd" for r in RANKS[:-1]) + " Kh",
]


async def void_game(world: World) -> None:
    """Open a one-round Basic table through the commands, allow no restock, deal, and play
    until the stock runs out: each player draws its last cards and discards."""
    alice, bob = world.players[:2]
    await alice.slash(world.channel, "rummy new", variant="basic", mode="basic", basic_rounds="1")
    await bob.slash(world.channel, "rummy join")
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None
    world.table_id = table.id
    await world.bot.tables.set_option(table.id, alice.user.id, "basic_max_restocks", "0")
    pool = CardPool(Rules(Variant.BASIC, 2, (await world.table()).options))
    deal = Deal(tuple(tuple(pool.pull(h)) for h in HANDS), tuple(pool.cards), ())
    played = await world.bot.tables.start(table.id, alice.user.id, dealer=1, deal=deal)
    await world.bot.ui.committed(played, alice.user.id)
    for player, card in ((alice, "2s"), (bob, "2c")):
        await player.slash(world.channel, "rummy draw", source="stock")
        await player.slash(world.channel, "rummy discard", card=card)


async def test_a_game_whose_only_round_was_void_is_played_and_won_by_nobody(
    world: World,
) -> None:
    await void_game(world)
    table = await world.table()
    game = table.require_game()
    assert game.results[-1].outcome is Outcome.VOID and game.phase is Phase.GAME_OVER
    assert table.record.status == "finished" and game.winners == []
    shown = "\n".join(m.content for m in world.public_messages())
    assert t("table.game_over_nobody") in shown
    assert "Winner:" not in shown
    for player in world.players[:2]:
        for scope in (0, world.guild.id):
            rows = await world.bot.store.get_player_stats(scope, player.user.id)
            assert rows and all((r.games, r.wins) == (1, 0) for r in rows), (scope, rows)
    mine = await world.players[0].slash(world.channel, "rummy-stats player")
    assert mine.response is not None
    (embed,) = mine.response.embeds
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Basic rummy"].startswith("Games **1** · Wins **0** · Win rate **0%**"), fields

"""Issue 12 on Discord: computer strengths chosen per seat reach the game, a human partners
computers in 2v2 through a whole game, ``/rummy hint`` suggests only legal moves with the
player's own cards (privately), and ``/rummy-learn count`` answers RULES.md's scoring vectors."""

from __future__ import annotations

import json
import random

from bot.features.play.advice import hint_for
from rummy_engine import (
    Discard,
    Game,
    Lay,
    Phase,
    StartRound,
    action_from_json,
    action_to_json,
)
from rummy_engine.ai import Strength
from rummy_engine.replay import replay
from rummy_engine.strategy import choose_action
from tests.discord.conftest import CARD_TOKEN, World, computer_turn, play_step

STRENGTHS = {1: "strong", 2: "easy", 3: "normal"}  # seat -> strength chosen by the host


async def open_with_three_computers(world: World) -> None:
    """alice hosts a 2v2 table and seats three computers with /rummy computer: her partner
    (seat 2, team A) plays easy, the opponents strong and normal."""
    alice = world.players[0]
    await alice.slash(world.channel, "rummy new", variant="r51", mode="2v2")
    for seat in (1, 2, 3):
        team = 0 if seat == 2 else 1
        added = await alice.slash(
            world.channel, "rummy computer", action="addbot", team=team, strength=STRENGTHS[seat]
        )
        assert added.ephemeral and f"({STRENGTHS[seat]})" in added.response.content
    table = await world.bot.tables.in_channel(world.guild.id, world.channel.id)
    assert table is not None
    world.table_id = table.id
    assert {s.seat: s.strength for s in table.seats if s.is_computer} == STRENGTHS
    assert [s.team for s in sorted(table.seats, key=lambda s: s.seat)] == [0, 1, 0, 1]
    started = await alice.slash(world.channel, "rummy start")
    assert "started" in started.response.content


async def ask_for_a_hint(world: World, game: Game) -> None:
    """alice's hint is private, names only cards she can see, and what it suggests is legal."""
    alice = world.players[0]
    answer = await alice.slash(world.channel, "rummy hint")
    assert answer.ephemeral and answer.response.content.startswith("**Hint**")
    visible = {c.pretty for c in game.hands[0]}
    visible |= {c.pretty for t in game.table for c in t.meld.cards}
    visible |= {c.pretty for c in game.discard}
    named = set(CARD_TOKEN.findall(answer.response.content))
    assert named <= visible, named - visible
    advice = hint_for(game, 0)
    if advice.discard is not None:
        assert advice.discard in game.hands[0] and advice.discard.pretty in named
        if game.phase is Phase.PLAY:
            assert game.can(Discard(0, advice.discard.face))
    if advice.opening is not None and advice.opening.enough and game.phase is Phase.PLAY:
        melds = tuple(tuple(c.face for c in m.cards) for m in advice.opening.melds)
        assert game.can(Lay(0, melds)), melds


async def test_a_human_and_three_computers_play_a_whole_2v2_game(world: World) -> None:
    await open_with_three_computers(world)
    rng = random.Random(5)
    hints = 0
    for _ in range(3000):
        table = await world.table()
        world.check_privacy(table)
        game = table.require_game()
        if game.phase is Phase.GAME_OVER:
            break
        if game.phase in (Phase.DRAW, Phase.PLAY) and table.is_computer(game.current):
            await computer_turn(world, game)
            continue
        if game.phase in (Phase.DRAW, Phase.PLAY) and hints < 12:
            await ask_for_a_hint(world, game)
            hints += 1
        await play_step(world, rng)
    else:
        raise AssertionError("the game did not end")
    assert table.record.status == "finished" and hints > 0
    await strengths_reached_the_game(world)


async def strengths_reached_the_game(world: World) -> None:
    """Replaying the log, every computer move is the one its seat's strength chooses from that
    position, and at least once another strength would have played differently (so this check
    would catch a strength lost on the way)."""
    table = await world.table()
    moves = await world.bot.store.list_moves(table.id)
    game = replay(json.loads(moves[0].action_json)["genesis"], [])
    computer_moves = told_apart = 0
    for move in moves[1:]:
        data = json.loads(move.action_json)
        action = action_from_json(data)
        seat = getattr(action, "seat", None)
        if move.actor_id is None and not isinstance(action, StartRound) and seat in STRENGTHS:
            seed = f"{table.record.seed}:{move.seq - 1}"
            chosen = {
                s: action_to_json(choose_action(game, random.Random(seed), s)) for s in Strength
            }
            assert chosen[Strength(STRENGTHS[seat])] == data, (move.seq, seat)
            computer_moves += 1
            told_apart += len({json.dumps(c, sort_keys=True) for c in chosen.values()}) > 1
        game.apply(action)
    assert computer_moves > 20 and told_apart > 0


async def test_a_hint_is_only_for_the_player_whose_turn_it_is(world: World) -> None:
    await world.open_table("r51", "1v1", 2)
    game = (await world.table()).require_game()
    waiting = world.players[1 - game.current]
    refused = await waiting.slash(world.channel, "rummy hint")
    assert refused.ephemeral
    assert (
        refused.response.content == "A hint is for the player whose turn it is, during their turn."
    )


async def test_count_answers_the_rules_scoring_vectors(world: World) -> None:
    """Numbers copied from RULES.md's vectors: O01, O04 (opening values against 51), G03/G04
    (a hand of As JK after laying / never laid) and G15 (Basic rummy penalties); a meld in an
    order that is not legal gets the refusal of /rummy lay with its suggestion."""
    alice = world.players[0]

    async def count(**options: str) -> str:
        answer = await alice.slash(world.channel, "rummy-learn count", **options)
        assert answer.ephemeral
        return str(answer.response.content)

    o01 = await count(cards="10s Js Qs Ks | 5h 5d 5c")
    assert "Opening value: 55 points — enough to open (the threshold is 51)." in o01
    o04 = await count(cards="8d JK 10d | Qs Qh Qc", variant="r51")
    assert "Opening value: 57 points — enough" in o04
    g03 = await count(cards="As JK")
    assert "cost 31 points; a player who never laid down pays 100." in g03
    g15 = await count(cards="Ac 7d | Ks", variant="basic")
    assert "Left in hand these cards cost 18 points." in g15 and "Opening" not in g15
    short = await count(cards="7s 8s 9s")
    assert "24 points — not enough to open (the threshold is 51)" in short
    wrapped = await count(cards="Qh Kh Ah JK")
    assert "Did you mean JK Q♥ K♥ A♥?" in wrapped, wrapped

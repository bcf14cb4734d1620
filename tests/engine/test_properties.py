"""Property tests: whole random games for every variant and mode, with the invariants checked
after every action — every card accounted for, only the losing side pays, no tie in the Atlas
variants, an illegal action leaves the JSON of the state byte-identical, and replaying the log
rebuilds the snapshot."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy_engine import (
    Action,
    Discard,
    Draw,
    Face,
    Game,
    Lay,
    Phase,
    Rules,
    RuleViolation,
    Source,
    Suit,
    Swap,
    UndoTake,
    Variant,
    action_from_json,
    action_to_json,
)
from rummy_engine.cards import Card, make_deck
from rummy_engine.replay import replay
from rummy_engine.solver import find_melds
from rummy_engine.strategy import choose_action
from tests.engine.helpers import conserved

TABLES = [
    (Variant.SIMPLE, 2),
    (Variant.SIMPLE, 4),
    (Variant.R51, 2),
    (Variant.R51, 4),
    (Variant.R71, 2),
    (Variant.R71, 4),
    (Variant.BASIC, 2),
    (Variant.BASIC, 3),
    (Variant.BASIC, 6),
]
MAX_ACTIONS = 6000

faces = st.builds(
    Face,
    st.integers(0, 13),
    st.sampled_from([*Suit, None]),
).filter(lambda f: (f.rank == 0) == (f.suit is None))


def wild_action(game: Game, data: st.DataObject) -> Action:
    """Any action at all, often illegal: wrong seat, wrong phase, cards not held, bad melds."""
    seat = data.draw(st.integers(-1, game.rules.players))
    kind = data.draw(st.sampled_from(["draw", "take", "lay", "add", "swap", "discard", "undo"]))
    if kind == "draw":
        return Draw(seat, Source.STOCK)
    if kind == "take":
        return Draw(seat, Source.DISCARD)
    if kind == "lay":
        return Lay(seat, (tuple(data.draw(st.lists(faces, min_size=1, max_size=5))),))
    if kind == "add":
        return Lay(
            seat,
            (),
            (
                (
                    data.draw(st.integers(-1, 5)),
                    tuple(data.draw(st.lists(faces, min_size=1, max_size=3))),
                ),
            ),
        )
    if kind == "swap":
        return Swap(seat, data.draw(st.integers(-1, 5)), data.draw(faces))
    if kind == "discard":
        return Discard(seat, data.draw(faces))
    return UndoTake(seat)


def explore(game: Game, rng: random.Random) -> Action:
    """Mostly the greedy player, sometimes another legal move, to reach odd corners."""
    action = choose_action(game, rng)
    if game.phase is not Phase.PLAY or rng.random() > 0.3:
        return action
    seat = game.current
    options: list[Action] = [UndoTake(seat)]
    options += [
        Lay(seat, (tuple(c.face for c in m.cards),))
        for m in find_melds(game.hands[seat], game.rules)[:6]
    ]
    options += [Discard(seat, c.face) for c in game.hands[seat]]
    rng.shuffle(options)
    return next((o for o in options if game.can(o)), action)


def check_round_scores(game: Game) -> None:
    """Only the losing side pays (Atlas); only the winner scores (Basic)."""
    for result in game.results:
        if result.winner is None:
            assert not any(result.points)
            continue
        winning_side = game.rules.side_of(result.winner)
        for side, points in enumerate(result.points):
            if game.rules.is_atlas:
                assert side != winning_side or points == 0
            else:
                assert side == winning_side or points == 0


def play_out(game: Game, rng: random.Random, data: st.DataObject) -> list[Action]:
    log: list[Action] = []
    while game.phase is not Phase.GAME_OVER and len(log) < MAX_ACTIONS:
        if rng.random() < 0.05:
            attempt = wild_action(game, data)
            before = json.dumps(game.to_json())
            try:
                game.apply(attempt)
            except RuleViolation:
                assert json.dumps(game.to_json()) == before
            else:
                log.append(attempt)
        else:
            action = explore(game, rng)
            game.apply(action)
            log.append(action)
        assert conserved(game)
        assert all(len(h) > 0 for h in game.hands) or game.phase in (
            Phase.ROUND_OVER,
            Phase.GAME_OVER,
        )
    return log


@pytest.mark.parametrize(("variant", "players"), TABLES, ids=[f"{v.value}-{p}" for v, p in TABLES])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), data=st.data())
def test_random_games_keep_every_invariant(
    variant: Variant, players: int, seed: int, data: st.DataObject
) -> None:
    game = Game.new(Rules(variant, players), seed)
    log = play_out(game, random.Random(seed), data)
    assert game.phase is Phase.GAME_OVER, "the game must end"
    check_round_scores(game)
    if game.rules.is_atlas:
        assert len(game.winners) == 1
        loser = 1 - game.winners[0]
        assert game.scores[loser] >= game.rules.limit > game.scores[game.winners[0]]
    else:
        assert game.winners and {game.scores[w] for w in game.winners} == {max(game.scores)}
    snapshot = json.dumps(game.to_json(), sort_keys=True)
    replayed = replay(game.genesis(), [json.loads(json.dumps(action_to_json(a))) for a in log])
    assert json.dumps(replayed.to_json(), sort_keys=True) == snapshot
    assert json.dumps(Game.from_json(json.loads(snapshot)).to_json(), sort_keys=True) == snapshot


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), table=st.sampled_from(TABLES), data=st.data())
def test_illegal_actions_change_nothing(
    seed: int, table: tuple[Variant, int], data: st.DataObject
) -> None:
    game = Game.new(Rules(*table), seed)
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 40))):
        if game.phase is Phase.GAME_OVER:
            break
        game.apply(choose_action(game, rng))
    before = json.dumps(game.to_json())
    action = wild_action(game, data)
    if game.can(action):
        game.apply(action)
        assert conserved(game)
    else:
        with pytest.raises(RuleViolation):
            game.apply(action)
        assert json.dumps(game.to_json()) == before


@given(
    action=st.one_of(
        st.builds(Draw, st.integers(0, 5), st.sampled_from(Source)),
        st.builds(Discard, st.integers(0, 5), faces),
    )
)
def test_actions_round_trip_through_json(action: Action) -> None:
    assert action_from_json(json.loads(json.dumps(action_to_json(action)))) == action


def test_cards_and_faces_survive_pickling_as_the_shared_values() -> None:
    """Scenes go to the drawing process pickled; a card comes back equal, and as the very
    object the engine shares for its key (faces likewise), jokers and unknown suits included."""
    for card in make_deck(2, 4):
        back = pickle.loads(pickle.dumps(card, protocol=pickle.HIGHEST_PROTOCOL))
        assert back == card and back is Card.from_key(card.key)
        assert pickle.loads(pickle.dumps(card.face)) is card.face
    assert pickle.loads(pickle.dumps(Face(7, None))) == Face(7, None)

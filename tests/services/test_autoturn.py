"""The turn played for a player whose time ran out: stock draw, no lay-down, the drawn card or
the costliest one discarded, a taken discard that must be used put back first."""

from __future__ import annotations

from bot.features.play.autoturn import discard_order, timeout_action
from rummy_engine import Discard, Draw, Game, Options, Phase, Rules, UndoTake, Variant
from rummy_engine.actions import Source
from rummy_engine.values import penalty_value


def new_game(seed: int = 11) -> Game:
    return Game.new(Rules(Variant.R51, 2, Options()), seed)


def test_the_dealer_without_a_draw_discards_the_costliest_card() -> None:
    game = new_game()
    seat = game.current
    assert game.phase is Phase.PLAY and game.drawn is None
    action = timeout_action(game, seat)
    assert isinstance(action, Discard)
    accepted = [c for c in game.hands[seat] if game.can(Discard(seat, c.face))]
    chosen = next(c for c in game.hands[seat] if c.face == action.card)
    assert penalty_value(chosen) == max(penalty_value(c) for c in accepted)
    assert discard_order(game, seat)[0].face == action.card or not game.can(
        Discard(seat, discard_order(game, seat)[0].face)
    )


def test_a_timed_out_turn_draws_from_the_stock_then_discards_the_drawn_card() -> None:
    game = new_game()
    game.apply(timeout_action(game, game.current))  # the dealer's turn
    seat = game.current
    assert game.phase is Phase.DRAW
    assert timeout_action(game, seat) == Draw(seat, Source.STOCK)
    game.apply(Draw(seat))
    drawn = game.drawn
    assert drawn is not None
    assert timeout_action(game, seat) == Discard(seat, drawn.face)


def test_a_taken_discard_that_must_be_used_is_put_back_first() -> None:
    game = new_game()
    game.apply(timeout_action(game, game.current))
    seat = game.current
    game.apply(Draw(seat, Source.DISCARD))
    assert game.taken is not None and game.rules.must_use_discard
    assert timeout_action(game, seat) == UndoTake(seat)
    game.apply(UndoTake(seat))
    action = timeout_action(game, seat)
    assert isinstance(action, Discard) and game.drawn is not None
    assert action.card == game.drawn.face
    game.apply(action)
    assert game.current != seat, "the turn is over"

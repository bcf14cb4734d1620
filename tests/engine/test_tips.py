"""The seeds' table tips on one turn (``rummy_engine.ai.tips``): each is told when its fact
holds and stays quiet when one part of it does not (a partner or opponent with more cards, a
lay-off that leaves a run as open as before)."""

from __future__ import annotations

from rummy_engine import (
    Action,
    Discard,
    Lay,
    Phase,
    Position,
    Rules,
    Variant,
    parse_face,
    player_view,
)
from rummy_engine.ai.review import Step
from rummy_engine.ai.tips import (
    ClosedForPartner,
    JokerKept,
    closed_for_partner,
    joker_kept,
    turn_tip,
)
from rummy_engine.view import PlayerView

R51_2V2 = Rules(Variant.R51, 4)


def played(position: Position, actions: list[Action]) -> tuple[list[Step], PlayerView]:
    """Seat 0 plays ``actions``: its steps (its view before each) and its view after."""
    game = position.to_game()
    steps = []
    for action in actions:
        steps.append(Step(player_view(game, 0), action))
        game.apply(action)
    return steps, player_view(game, 0)


def layoff(meld: int, cards: str) -> Lay:
    return Lay(0, layoffs=((meld, tuple(parse_face(c) for c in cards.split())),))


def two_v_two(partner: str, *, set_of: str = "9s 9d 9c", run: str = "3c 4c 5c") -> Position:
    """Seat 0 (opened) holds 9♥ 6♣ 8♦ K♠ and plays; the table has a set and a run of hers."""
    return Position(
        R51_2V2,
        hands=("9h 6c 8d Ks", "2c 3d 4d 6s 8s", partner, "Jc Qd 3h 5h"),
        table=((set_of, 0), (run, 0), ("10h Jh Qh Kh", 1)),
        opened=(0, 1, 2, 3),
        discard="2d",
        phase=Phase.PLAY,
        drawn="8d",
        dealer=3,
    )


def test_making_a_set_four_while_the_partner_has_two_cards_is_told() -> None:
    steps, after = played(two_v_two("Ad 7s"), [layoff(0, "9h"), Discard(0, parse_face("Ks"))])
    assert closed_for_partner(steps[0].view, after, 0) == ClosedForPartner(2, 2, 0)
    assert turn_tip(steps, after, 0) == ClosedForPartner(2, 2, 0)


def test_the_same_lay_off_is_quiet_when_the_partner_holds_more_cards() -> None:
    steps, after = played(
        two_v_two("Ad 7s 2h 4h 7c"), [layoff(0, "9h"), Discard(0, parse_face("Ks"))]
    )
    assert closed_for_partner(steps[0].view, after, 0) is None


def test_extending_a_run_that_stays_open_at_both_ends_is_quiet() -> None:
    steps, after = played(two_v_two("Ad 7s"), [layoff(1, "6c"), Discard(0, parse_face("Ks"))])
    assert closed_for_partner(steps[0].view, after, 0) is None


def test_taking_a_runs_last_end_is_told() -> None:
    position = two_v_two("Ad 7s", run="Jc Qc Kc")
    position = Position(
        R51_2V2,
        hands=("9h Ac 8d Ks", *position.hands[1:]),
        table=position.table,
        opened=position.opened,
        discard="2d",
        phase=Phase.PLAY,
        drawn="8d",
        dealer=3,
    )
    steps, after = played(position, [layoff(1, "Ac"), Discard(0, parse_face("Ks"))])
    assert closed_for_partner(steps[0].view, after, 0) == ClosedForPartner(2, 2, 1)


def joker_position(opponent: str, variant: Variant = Variant.R51) -> Position:
    """Seat 0 (opened) holds a joker and plays; seat 1 holds ``opponent``."""
    return Position(
        Rules(variant, 2),
        hands=("JK 6c 8d Ks 2h", opponent),
        table=(("3c 4c 5c", 0),),
        opened=(0, 1),
        discard="2d",
        phase=Phase.PLAY,
        drawn="8d",
        dealer=1,
    )


def test_a_joker_kept_while_the_opponent_holds_two_cards_is_told() -> None:
    steps, after = played(joker_position("7s 9d"), [Discard(0, parse_face("Ks"))])
    found = joker_kept(after, 0)
    assert isinstance(found, JokerKept)
    assert (found.card.is_joker, found.opponent, found.cards, found.meld) == (True, 1, 2, 0)
    assert turn_tip(steps, after, 0) == found


def test_a_joker_kept_is_quiet_when_the_opponent_is_not_close_to_going_out() -> None:
    _, after = played(joker_position("7s 9d Jc Qd"), [Discard(0, parse_face("Ks"))])
    assert joker_kept(after, 0) is None  # four cards
    _, after = played(joker_position("7s 9d", Variant.R71), [Discard(0, parse_face("Ks"))])
    assert isinstance(joker_kept(after, 0), JokerKept)  # Rummy 71 counts it 20 as well

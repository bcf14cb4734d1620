"""The review of a round (issue 26 item 2): what a player could have done, from their own view.

Constructed positions check each finding; whole computer games check that correct play (a
computer always goes out and opens when it can) raises no missed go-out or late opening; twin
games that differ only in cards the reviewed seat never saw check that the review cannot read
them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummy_engine import (
    Action,
    Deal,
    Discard,
    Draw,
    Game,
    Lay,
    Phase,
    Position,
    Rules,
    Source,
    Variant,
    format_cards,
    parse_face,
    parse_faces,
)
from rummy_engine.ai import Strength
from rummy_engine.ai.review import (
    EarlyOpening,
    FedDiscard,
    FreeJoker,
    MissedGoOut,
    Review,
    ShortOpening,
    review_round,
    round_steps,
)
from rummy_engine.strategy import choose_action

R51 = Rules(Variant.R51, 2)
#: Seat 1's hand in the constructed positions: nothing in it matters to seat 0's review.
OTHER = "3d 4d 5d 9c 9d Jh Qh 3h 4h 7c 8c Qd 2s 10h"


def faces(text: str) -> str:
    return format_cards(parse_faces(text))


def reviewed(position: Position, actions: Sequence[Action], seat: int = 0) -> Review:
    return review_round(position.to_game().genesis(), actions, seat, 1)


def kinds(review: Review) -> list[type]:
    return [type(f) for f in review.findings]


# -- constructed positions ----------------------------------------------------------------------

GO_OUT = Position(
    R51,
    hands=("5h 6h 7h 8h 9h Kc Kd Ks 2c", OTHER),
    table=(("10s Js Qs Ks", 0), ("Ac Ad Ah", 0)),
    discard="8d",
    current=0,
    phase=Phase.PLAY,
    opened=(0,),
)


def test_a_hand_that_could_go_out_and_discarded_instead_is_told_how() -> None:
    review = reviewed(GO_OUT, [Discard(0, parse_face("2c")), Draw(1, Source.STOCK)])
    assert review.turns == 1
    (finding,) = review.findings
    assert isinstance(finding, MissedGoOut) and finding.turn == 1
    assert sorted(format_cards(m.cards) for m in finding.melds) == sorted(
        [faces("Ks Kc Kd"), faces("5h 6h 7h 8h 9h")]
    )
    assert finding.layoffs == () and finding.discard is not None
    assert finding.discard.face == parse_face("2c")


def test_going_out_raises_no_finding() -> None:
    out = [Lay(0, (parse_faces("5h 6h 7h 8h 9h"), parse_faces("Kc Kd Ks"))), Discard(0, parse_face("2c"))]
    review = reviewed(GO_OUT, out)
    assert review.findings == () and review.turns == 1


def test_an_opening_in_hand_not_laid_is_a_could_have_with_its_value() -> None:
    position = Position(
        R51,
        hands=("10s Js Qs Ks Kc Kd Kh 2c 4d 6d 8c 9h 3s 5h 7s", OTHER),
        current=0,
        phase=Phase.PLAY,
    )
    review = reviewed(position, [Discard(0, parse_face("2c")), Draw(1, Source.STOCK)])
    (finding,) = review.findings
    assert isinstance(finding, EarlyOpening)
    assert finding.turn == 1 and finding.value == 70 and finding.threshold == 51
    assert finding.opened_turn is None


def test_melds_below_the_threshold_are_a_fact_not_a_missed_chance() -> None:
    position = Position(
        R51,
        hands=("5s 6s 7s Kc Kd Kh 2c 4d 6d 8c 9h 3s 5h Jd Qc", OTHER),
        current=0,
        phase=Phase.PLAY,
    )
    review = reviewed(position, [Discard(0, parse_face("2c")), Draw(1, Source.STOCK)])
    (finding,) = review.findings
    assert isinstance(finding, ShortOpening)
    assert finding.value == 48 and finding.threshold == 51


def test_a_joker_the_hand_could_free_is_told_once() -> None:
    position = Position(
        R51,
        hands=("6c 2h 4h 8d Jc", "3d 4d 5d 9c 9d Jh Qh 3h 4h"),
        table=(("10s Js Qs Ks", 0), ("Ac Ad Ah", 0), ("5c JK 7c", 1)),
        discard="8h",
        current=0,
        phase=Phase.PLAY,
        opened=(0, 1),
    )
    actions = [
        Discard(0, parse_face("2h")),
        Draw(1, Source.STOCK),
        Discard(1, parse_face("3d")),
        Draw(0, Source.STOCK),
        Discard(0, parse_face("4h")),
    ]
    review = reviewed(position, actions)
    assert kinds(review) == [FreeJoker]
    (finding,) = review.findings
    assert finding.turn == 1 and finding.meld == 2 and finding.card.face == parse_face("6c")


def test_a_discard_the_next_player_laid_off_at_once_is_told() -> None:
    position = Position(
        R51,
        hands=("10h 2c 4d 8c Jd", "3d 4d 5d 9c 9d Jc Qc 3h 4s"),
        table=(("10s Js Qs Ks", 0), ("Ac Ad Ah", 0), ("7h 8h 9h", 1)),
        discard="8d",
        current=0,
        phase=Phase.PLAY,
        opened=(0, 1),
    )
    actions = [
        Discard(0, parse_face("10h")),
        Draw(1, Source.DISCARD),
        Lay(1, layoffs=((2, parse_faces("10h")),)),
        Discard(1, parse_face("3d")),
    ]
    review = reviewed(position, actions)
    (finding,) = review.findings
    assert isinstance(finding, FedDiscard)
    assert (finding.turn, finding.taker, finding.meld) == (1, 1, 2)
    assert finding.card.face == parse_face("10h")


def test_a_round_the_log_never_reaches_is_refused() -> None:
    with pytest.raises(ValueError, match="round 2"):
        review_round(GO_OUT.to_game().genesis(), [Discard(0, parse_face("2c"))], 0, 2)


# -- computer games ------------------------------------------------------------------------------

COMPUTER_TABLES = [Rules(Variant.R51, 2), Rules(Variant.R71, 2), Rules(Variant.BASIC, 3), Rules(Variant.R51, 4)]


def computer_game(rules: Rules, seed: int, strengths: Sequence[Strength]) -> tuple[Game, list[Action]]:
    game = Game.new(rules, seed=seed)
    start = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    actions: list[Action] = []
    while game.phase is not Phase.GAME_OVER and len(actions) < 3000:
        action = choose_action(game, rng, strengths[game.current % len(strengths)])
        game.apply(action)
        actions.append(action)
    return start, actions


@pytest.mark.parametrize("rules", COMPUTER_TABLES, ids=lambda r: f"{r.variant.value}-{r.players}")
def test_computer_games_show_no_missed_go_out_nor_late_opening(rules: Rules) -> None:
    start, actions = computer_game(rules, 5, list(Strength))
    rounds = sum(1 for a in actions if type(a).__name__ == "StartRound") + 1
    told = 0
    for round_no in range(1, rounds + 1):
        for seat in range(rules.players):
            review = review_round(start.genesis(), actions, seat, round_no)
            assert review.turns > 0 or round_no == rounds
            missed = [f for f in review.findings if isinstance(f, MissedGoOut | EarlyOpening)]
            assert not missed, (round_no, seat, missed)
            told += len(review.findings)
    assert rounds > 1


# -- twins: the review cannot read what the seat never saw ----------------------------------------


def _deal_of(game: Game) -> Deal:
    return Deal(tuple(tuple(h) for h in game.hands), tuple(game.stock), tuple(game.discard))


def _first_round(rules: Rules, deal: Deal, seed: int, strengths: Sequence[Strength]) -> tuple[Game, list[Action]]:
    game = Game.new(rules, "twin", dealer=0, deal=deal)
    rng = random.Random(seed)
    actions: list[Action] = []
    while game.phase in (Phase.DRAW, Phase.PLAY):
        action = choose_action(game, rng, strengths[game.current % len(strengths)])
        game.apply(action)
        actions.append(action)
    return game, actions


def _named_faces(actions: Sequence[Action]) -> set[Any]:
    named: set[Any] = set()
    for action in actions:
        match action:
            case Discard(_, card):
                named.add(card)
            case Lay(_, melds, layoffs):
                named.update(f for m in melds for f in m)
                named.update(f for _, fs in layoffs for f in fs)
            case _:
                named.add(getattr(action, "card", None))
    return named


def twin_of(deal: Deal, end: Game, actions: Sequence[Action], reviewer: int, pick: int) -> Deal | None:
    """The deal with one card of the stock that was never drawn swapped with another card
    that nobody but its holder saw: a card of an opponent's hand that never left it, of a face
    no action names (so the same log picks the same copies), or another card never drawn.
    The same log plays, and the reviewer sees the same things. Hand swaps come first."""
    named = _named_faces(actions)
    stays = len(end.stock) if not end.reshuffles else 0
    never_drawn = list(deal.stock[:stays])
    kept = [
        (seat, c)
        for seat, hand in enumerate(deal.hands)
        if seat != reviewer
        for c in hand
        if c in end.hands[seat] and c.face not in named
    ]
    hidden = [(s, c) for s, c in kept] + [(None, c) for c in never_drawn]
    pairs = [
        (seat, ours, theirs)
        for seat, ours in hidden
        for theirs in never_drawn
        if theirs.face != ours.face and (seat is None or theirs.face not in named)
    ]
    if not pairs:
        return None
    seat, ours, theirs = pairs[pick % len(pairs)]
    hands = [list(h) for h in deal.hands]
    stock = list(deal.stock)
    i = stock.index(theirs)
    if seat is None:
        stock[stock.index(ours)] = theirs
    else:
        hands[seat][hands[seat].index(ours)] = theirs
    stock[i] = ours
    return Deal(tuple(tuple(h) for h in hands), tuple(stock), deal.discard)


TWIN_TABLES = [Rules(Variant.R51, 2), Rules(Variant.BASIC, 3), Rules(Variant.R71, 2)]


def _twin_reviews(
    rules: Rules, seed: int, reviewer: int, pick: int
) -> tuple[Review, Review, bool] | None:
    """The reviews of twin first rounds, and whether the twins' hands differ (not only the stock)."""
    strengths = [Strength.EASY, Strength.NORMAL, Strength.STRONG]
    deal = _deal_of(Game.new(rules, seed=seed, dealer=0))
    end, actions = _first_round(rules, deal, seed, strengths)
    twin = twin_of(deal, end, actions, reviewer, pick)
    if twin is None:
        return None
    twin_game = Game.new(rules, "twin", dealer=0, deal=twin)
    for action in actions:
        twin_game.apply(action)  # the same log is legal in the twin
    assert (twin_game.hands, twin_game.stock) != (end.hands, end.stock)
    genesis = Game.new(rules, "twin", dealer=0, deal=deal).genesis()
    # What the review decides from: the reviewer's views and the public actions, alike.
    assert round_steps(genesis, actions, reviewer, 1)[0] == (
        round_steps(twin_game.genesis(), actions, reviewer, 1)[0]
    )
    first = review_round(genesis, actions, reviewer, 1)
    second = review_round(twin_game.genesis(), actions, reviewer, 1)
    return first, second, twin_game.hands != end.hands


def test_twin_games_with_findings_give_the_same_review() -> None:
    found = _twin_reviews(Rules(Variant.R51, 2), 9, 0, 0)
    assert found is not None
    first, second, hands_differ = found
    assert hands_differ and first.findings
    assert first == second


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(TWIN_TABLES),
    seed=st.integers(0, 10**6),
    reviewer=st.integers(0, 2),
    pick=st.integers(0, 10**4),
)
def test_twin_games_that_differ_in_hidden_cards_give_the_same_review(
    rules: Rules, seed: int, reviewer: int, pick: int
) -> None:
    found = _twin_reviews(rules, seed, reviewer % rules.players, pick)
    if found is not None:
        first, second, _ = found
        assert first == second

"""RULES.md §9.3–§9.7 as game positions: the +1 bar, joker swaps, the discard pile, going out,
round scoring, the deal, the stock and the game end. One test per vector, named after it."""

from __future__ import annotations

import pytest

from rummy_engine import (
    Discard,
    DiscardRefused,
    Draw,
    Game,
    InvalidMeld,
    Lay,
    LayDownRefused,
    OpeningRefused,
    Outcome,
    Phase,
    RoundResult,
    Rules,
    Source,
    StartRound,
    Swap,
    UndoTake,
    Variant,
    parse_face,
    parse_faces,
)
from rummy_engine.values import hand_penalty
from tests.engine.helpers import cards, conserved, position

R51_2V2 = Rules(Variant.R51, 4)
R71_2V2 = Rules(Variant.R71, 4)


def lay(seat: int, *melds: str, layoffs: tuple[tuple[int, str], ...] = ()) -> Lay:
    return Lay(
        seat,
        tuple(tuple(parse_faces(m)) for m in melds),
        tuple((i, tuple(parse_faces(t))) for i, t in layoffs),
    )


def discard(seat: int, text: str) -> Discard:
    return Discard(seat, parse_face(text))


def table_texts(game: Game) -> list[str]:
    return [" ".join(c.text for c in t.meld.cards) for t in game.table]


def refused_unchanged(game: Game, action: object, error: type[Exception], match: str) -> None:
    before = game.to_json()
    with pytest.raises(error, match=match):
        game.apply(action)  # type: ignore[arg-type]
    assert game.to_json() == before


# --- §9.3 partner freeing and the +1 bar ---------------------------------------------------------


def bar_position() -> Game:
    return position(
        R51_2V2,
        [
            "Jh Qh Kh 6s 6h 6d 5c 6c 7c 2s 9d",
            "Js Qs Ks 7h 7d 7c 7s 2d 3d 4d 5d 6d 9c 2c",
            "3d 4d 5d 9c 10h",
            "Ah 3h 5s",
        ],
        stock_top="8h 9h 10s",
    )


def test_B01_bar_needs_one_more() -> None:
    game = bar_position()
    events = game.apply(lay(0, "Jh Qh Kh", "6s 6h 6d", "5c 6c 7c"))
    assert events[0].data["opening_value"] == 66
    game.apply(discard(0, "2s"))
    game.apply(Draw(1, Source.STOCK))
    refused_unchanged(
        game, lay(1, "Js Qs Ks", "7h 7d 7c", "4d 5d 6d"), OpeningRefused, "needs 67 points here"
    )


def test_B02_bar_met_frees_partner() -> None:
    game = bar_position()
    game.apply(lay(0, "Jh Qh Kh", "6s 6h 6d", "5c 6c 7c"))
    game.apply(discard(0, "2s"))
    game.apply(Draw(1, Source.STOCK))
    game.apply(lay(1, "Js Qs Ks", "7h 7d 7c 7s", "2d 3d 4d"))
    assert game.opened[1] and game.is_freed(3) and game.is_freed(2)


def test_B03_freed_partner_lays_without_threshold() -> None:
    game = position(
        R51_2V2, ["Jh Qh Kh 2s", "2c 4c", "3d 4d 5d 9c 10h", "Ah 3h"], current=2, opened=[0]
    )
    game.apply(lay(2, "3d 4d 5d"))
    assert game.opened[2] and "3d 4d 5d" in table_texts(game)


def test_B04_freed_partner_extends_opponent_run_first() -> None:
    game = position(
        R51_2V2,
        ["Jh 2s", "2c 4c", "9c 10h Kd", "Ah 3h"],
        table=[("6c 7c 8c", 1)],
        current=2,
        opened=[0, 1],
    )
    game.apply(lay(2, layoffs=((0, "9c"),)))
    assert table_texts(game) == ["6c 7c 8c 9c"] and game.opened[2]


def test_B05_r71_bar_counts_natural_points() -> None:
    game = position(
        R71_2V2,
        [
            "10s Js Qs Ks Kh Kd Kc Ah 2h 3h 4h 2s 8s",
            "Jd Qd Kd Qs Qh Qc 4c 5c 6c 9h",
            "3s 4s",
            "5h 6h",
        ],
        stock_top="8d",
    )
    assert (
        game.apply(lay(0, "10s Js Qs Ks", "Kh Kd Kc", "Ah 2h 3h 4h"))[0].data["opening_value"] == 80
    )
    game.apply(discard(0, "2s"))
    game.apply(Draw(1, Source.STOCK))
    refused_unchanged(
        game, lay(1, "Jd Qd Kd", "Qs Qh Qc", "4c 5c 6c"), OpeningRefused, "needs 81 points"
    )


def freed_r71(hand: str, table: tuple[tuple[str, int], ...] = ()) -> Game:
    return position(R71_2V2, ["2s 3s", "2c 4c", hand, "Ah 3h"], table=table, current=2, opened=[0])


def test_B06_r71_freed_partner_needs_only_natural_run() -> None:
    game = freed_r71("5h 6h 7h Ks Kh JK 9d")
    game.apply(lay(2, "5h 6h 7h", "Ks Kh JK"))
    assert game.opened[2]


def test_B07_r71_freed_partner_without_natural_run() -> None:
    game = freed_r71("5h JK 7h Qs Qh Qd 9d")
    refused_unchanged(
        game, lay(2, "5h JK 7h", "Qs Qh Qd"), OpeningRefused, "only needs a natural run"
    )


def test_B08_r71_freed_partner_cannot_extend_first() -> None:
    game = freed_r71("9c 10h Kd", table=(("6c 7c 8c", 0),))
    refused_unchanged(game, lay(2, layoffs=((0, "9c"),)), OpeningRefused, "natural run of your own")


def test_B09_bar_in_1v1() -> None:
    def play(rules: Rules) -> Game:
        game = position(rules, ["Jh Qh Kh 7s 7d 7c 2s 3h", "Jd Qd Kd 7h 7d 7c 9s"], stock_top="4h")
        game.apply(lay(0, "Jh Qh Kh", "7s 7d 7c"))
        game.apply(discard(0, "2s"))
        game.apply(Draw(1, Source.STOCK))
        return game

    game = play(Rules(Variant.R51, 2))
    refused_unchanged(game, lay(1, "Jd Qd Kd", "7h 7d 7c"), OpeningRefused, "needs 52 points")
    game = play(Rules(Variant.R51, 2).with_options(bar_in_1v1=False))
    game.apply(lay(1, "Jd Qd Kd", "7h 7d 7c"))
    assert game.opened[1]


def test_B10_going_out_at_once_waives_bar() -> None:
    game = position(
        R51_2V2, ["2s 3s", "Ac 2c 3c 4c Ks Kh Kd 9h", "4s 5s", "5h 6h"], current=1, opened=[0]
    )
    game.bar, game.bar_from, game.bar_side = 67, 66, 0
    game.apply(lay(1, "Ac 2c 3c 4c", "Ks Kh Kd"))
    game.apply(discard(1, "9h"))
    assert game.results[-1].winner == 1 and game.results[-1].outcome is Outcome.RAMI_SEC


# --- §9.4 joker swap ---------------------------------------------------------------------------------


def swap_game(table: str, hand: str, opened: bool = True, owner: int = 0) -> Game:
    return position(
        Rules(Variant.R51, 4),
        [hand, "2c 4c", "3s 4s", "5h 6h"],
        table=((table, owner),),
        opened=[0] if opened else [],
    )


def test_J01_run_joker_freed() -> None:
    game = swap_game("6d JK 8d", "7d 2s 9h")
    game.apply(Swap(0, 0, parse_face("7d")))
    assert table_texts(game) == ["6d 7d 8d"] and any(c.is_joker for c in game.hands[0])
    assert conserved(game)


def test_J02_fourth_card_set_joker_freed() -> None:
    game = swap_game("6s 6h 6d JK", "6c 2s")
    game.apply(Swap(0, 0, parse_face("6c")))
    assert sorted(table_texts(game)[0].split()) == ["6c", "6d", "6h", "6s"]
    assert any(c.is_joker for c in game.hands[0])


def test_J03_three_card_set_joker_stays_then_swaps() -> None:
    game = swap_game("6s JK 6d", "6h 6c 2s")
    refused_unchanged(game, Swap(0, 0, parse_face("6h")), LayDownRefused, "four-card set")
    game.apply(lay(0, layoffs=((0, "6h"),)))
    assert table_texts(game) == ["6s JK 6d 6h"]
    game.apply(Swap(0, 0, parse_face("6c")))
    assert "JK" not in table_texts(game)[0] and any(c.is_joker for c in game.hands[0])


def test_J04_swap_needs_opening() -> None:
    game = swap_game("6d JK 8d", "7d 2s 9h", opened=False)
    refused_unchanged(game, Swap(0, 0, parse_face("7d")), LayDownRefused, "has opened")


def test_J05_wrong_card_frees_nothing() -> None:
    game = swap_game("6d JK 8d", "7h 2s 9h")
    refused_unchanged(
        game, Swap(0, 0, parse_face("7h")), InvalidMeld, "exactly the card the joker stands for"
    )


def test_J06_swap_on_opponent_meld() -> None:
    game = swap_game("5c 6c JK", "7c 2s", owner=1)
    game.apply(Swap(0, 0, parse_face("7c")))
    assert table_texts(game) == ["5c 6c 7c"] and game.table[0].owner == 1


def test_J07_freed_joker_discarded_same_turn() -> None:
    game = swap_game("6d JK 8d", "7d 2s 9h")
    game.apply(Swap(0, 0, parse_face("7d")))
    game.apply(discard(0, "JK"))
    assert game.discard[-1].is_joker and game.current == 1


# --- §9.5 discard pile -------------------------------------------------------------------------------


def take_position(
    variant: Variant, hand: str, top: str, opened: bool = False, players: int = 2
) -> Game:
    rules = Rules(variant, players)
    others = ["2c 4c 6c" for _ in range(players - 1)]
    game = position(
        rules, [hand, *others], discard=top, phase=Phase.DRAW, opened=[0] if opened else []
    )
    return game


def test_D01_take_and_open_with_it() -> None:
    game = take_position(Variant.R51, "7c 8c Ks Kh Kd 2d 5h", "9c")
    game.apply(Draw(0, Source.DISCARD))
    game.apply(lay(0, "7c 8c 9c", "Ks Kh Kd"))
    assert game.opened[0] and game.taken not in game.hands[0]


def test_D02_take_without_opening_is_undone() -> None:
    game = take_position(Variant.R51, "7c 8c 5d 5s 5h 2d Qh", "9c")
    game.apply(Draw(0, Source.DISCARD))
    refused_unchanged(
        game, lay(0, "7c 8c 9c", "5d 5s 5h"), OpeningRefused, "needs 51 points; these melds make 39"
    )
    refused_unchanged(game, discard(0, "2d"), DiscardRefused, "put it back")
    stock_before = len(game.stock)
    game.apply(UndoTake(0))
    assert (
        game.discard[-1].text == "9c"
        and len(game.hands[0]) == 8
        and len(game.stock) == stock_before - 1
    )
    game.apply(discard(0, "2d"))
    assert game.current == 1


def test_D03_opened_player_must_lay_taken_card() -> None:
    game = take_position(Variant.R51, "3s 9h 10h", "Qd", opened=True)
    game.apply(Draw(0, Source.DISCARD))
    refused_unchanged(game, discard(0, "3s"), DiscardRefused, "lay it on the table this turn")


def test_D04_r71_run_must_not_use_taken_card() -> None:
    game = take_position(Variant.R71, "7d 8d Ks Kh Kd Qs Qh Qd 2c", "9d")
    game.apply(Draw(0, Source.DISCARD))
    refused_unchanged(
        game, lay(0, "7d 8d 9d", "Ks Kh Kd", "Qs Qh Qd"), OpeningRefused, "built without it"
    )


def test_D05_r71_other_natural_run_satisfies() -> None:
    game = take_position(Variant.R71, "7d 8d Ks Kh Kd Qs Qh Qd 2s 3s 4s 2c", "9d")
    game.apply(Draw(0, Source.DISCARD))
    game.apply(lay(0, "2s 3s 4s", "7d 8d 9d", "Ks Kh Kd", "Qs Qh Qd"))
    assert game.opened[0]


@pytest.mark.parametrize(
    ("vector", "variant"), [("D06", Variant.SIMPLE), ("D07", Variant.BASIC)], ids=["D06", "D07"]
)
def test_D06_D07_taken_card_not_discarded(vector: str, variant: Variant) -> None:
    game = take_position(variant, "Kc 2d 9s", "4h")
    game.apply(Draw(0, Source.DISCARD))
    refused_unchanged(game, discard(0, "4h"), DiscardRefused, "you took it from the discard pile")


def test_D08_simple_free_take() -> None:
    game = take_position(Variant.SIMPLE, "Kc 2d 9s", "4h")
    game.apply(Draw(0, Source.DISCARD))
    game.apply(discard(0, "Kc"))
    assert any(c.text == "4h" for c in game.hands[0]) and game.discard[-1].text == "Kc"


# --- §9.6 going out and round scoring -------------------------------------------------------------


def test_G01_only_losing_team_pays() -> None:
    game = position(
        R51_2V2,
        ["9h", "Ks 4d", "2s 3s 4h 5h 6c 7c 8d 9d", "2c 3c 5c 6d 7h 9s 10s Jc Qd Kh 3d 4s 5s 6s"],
        opened=[0, 1],
    )
    game.apply(discard(0, "9h"))
    result = game.results[-1]
    assert (
        result.penalties == (0, 14, 0, 100)
        and result.points == (0, 114)
        and game.scores == [0, 114]
    )


def test_G02_simple_team_pays_200() -> None:
    game = position(
        Rules(Variant.SIMPLE, 4),
        ["5h 6h 7h 4s 4h 4d 9c 9d 9s Jd Qd Kd Ad 8c", "Ks 4d", "2s 3s 4c 5c 6c 7c 8d 9h", "2c 3c"],
    )
    game.apply(lay(0, "5h 6h 7h", "4s 4h 4d", "9c 9d 9s", "Jd Qd Kd Ad"))
    game.apply(discard(0, "8c"))
    assert game.results[-1].points == (0, 200)


def test_G03_G04_penalty_values() -> None:
    rules = Rules(Variant.R51, 2)
    assert hand_penalty(cards("As JK"), True, rules) == 31
    assert hand_penalty(cards("As JK"), False, rules) == 100


def g05_game(hand: str) -> Game:
    return position(Rules(Variant.R71, 2), [hand, "Qc Jc 10c 9d"])


def test_G05_r71_at_once_below_threshold_is_rami_sec() -> None:
    game = g05_game("3c 4c 5c 6s 6h 6c 2d 2s 2c Ah 2h 3h 4h 5h Ks")
    game.apply(lay(0, "3c 4c 5c", "6s 6h 6c", "2d 2s 2c", "Ah 2h 3h 4h 5h"))
    game.apply(discard(0, "Ks"))
    result = game.results[-1]
    assert result.winner == 0 and result.outcome is Outcome.RAMI_SEC and result.points == (0, 100)


def test_G06_r71_at_once_needs_natural_set() -> None:
    game = g05_game("3c 4c 5c 6s 7s 8s 2d 2s JK Ah 2h 3h 4h 5h Ks")
    refused_unchanged(
        game,
        lay(0, "3c 4c 5c", "6s 7s 8s", "2d 2s JK", "Ah 2h 3h 4h 5h"),
        OpeningRefused,
        "natural set",
    )


def test_G07_simple_going_out() -> None:
    game = position(
        Rules(Variant.SIMPLE, 2), ["5h 6h 7h 4s 4h 4d 9c 9d 9s Jd Qd Kd Ad 8c", "2c 3c"]
    )
    game.apply(lay(0, "5h 6h 7h", "4s 4h 4d", "9c 9d 9s", "Jd Qd Kd Ad"))
    game.apply(discard(0, "8c"))
    assert game.results[-1].outcome is Outcome.SIMPLE and game.scores == [0, 100]


def test_G08_simple_needs_a_run() -> None:
    game = position(
        Rules(Variant.SIMPLE, 2), ["4s 4h 4d 9c 9d 9s Ks Kh Kd Kc 7s 7h 7d 8c", "2c 3c"]
    )
    refused_unchanged(
        game,
        lay(0, "4s 4h 4d", "9c 9d 9s", "Ks Kh Kd Kc", "7s 7h 7d"),
        OpeningRefused,
        "at least one run",
    )


def test_G09_simple_no_lay_mid_round() -> None:
    game = position(Rules(Variant.SIMPLE, 2), ["5h 6h 7h 4s 9d 2c Kd", "2c 3c"])
    refused_unchanged(game, lay(0, "5h 6h 7h"), LayDownRefused, "everything at once")


def test_G10_keep_one_card_to_discard() -> None:
    game = position(
        Rules(Variant.R51, 2), ["9c 10c", "2h 3h"], table=(("6c 7c 8c", 0),), opened=[0]
    )
    refused_unchanged(game, lay(0, layoffs=((0, "9c 10c"),)), LayDownRefused, "Keep one card")
    game.apply(lay(0, layoffs=((0, "9c"),)))
    game.apply(discard(0, "10c"))
    assert game.results[-1].winner == 0 and game.results[-1].outcome is Outcome.OUT


def test_G11_joker_as_final_discard() -> None:
    game = position(Rules(Variant.R51, 2), ["JK 3d", "2h 3h"], table=(("4d 5d 6d", 1),), opened=[0])
    game.apply(lay(0, layoffs=((0, "3d"),)))
    game.apply(discard(0, "JK"))
    assert game.results[-1].winner == 0
    strict = position(
        Rules(Variant.R51, 2).with_options(joker_final_discard_allowed=False),
        ["JK 3d", "2h 3h"],
        table=(("4d 5d 6d", 1),),
        opened=[0],
    )
    strict.apply(lay(0, layoffs=((0, "3d"),)))
    refused_unchanged(strict, discard(0, "JK"), DiscardRefused, "discarding a joker")


def test_G12_basic_rummy() -> None:
    game = position(
        Rules(Variant.BASIC, 3),
        ["4h 5h 7h Qs Qh Qd 9s", "Ac 7d Ks", "2c 3c"],
        stock_top="6h",
        phase=Phase.DRAW,
    )
    game.apply(Draw(0, Source.STOCK))
    game.apply(lay(0, "4h 5h 6h 7h", "Qs Qh Qd"))
    game.apply(discard(0, "9s"))
    result = game.results[-1]
    assert result.outcome is Outcome.BASIC_RUMMY and result.points == (2 * (18 + 5), 0, 0)


def test_G13_basic_doubling() -> None:
    def finish(laid_before: bool) -> RoundResult:
        game = position(
            Rules(Variant.BASIC, 3),
            ["9s", "Ac 7d Ks", "10c 10d 5h"],
            laid_any=[0] if laid_before else [],
        )
        game.apply(discard(0, "9s"))
        return game.results[-1]

    assert finish(True).points == (43, 0, 0) and finish(True).outcome is Outcome.BASIC
    assert finish(False).points == (86, 0, 0)


def test_G14_basic_goes_out_without_discard() -> None:
    game = position(
        Rules(Variant.BASIC, 2), ["8d 9d", "Ac 8s Ks"], table=(("5d 6d 7d", 1),), laid_any=[0]
    )
    game.apply(lay(0, layoffs=((0, "8d 9d"),)))
    assert game.results[-1].winner == 0 and game.results[-1].points == (19, 0)


def test_G15_basic_hand_value() -> None:
    from rummy_engine import basic_value

    assert sum(basic_value(c) for c in cards("Ac 7d Ks")) == 18


# --- §9.7 setup, stock, game end -----------------------------------------------------------------


def test_S01_r51_2v2_deal() -> None:
    game = Game.new(R51_2V2, seed=3, dealer=1)
    assert [len(h) for h in game.hands] == [14, 15, 14, 14]
    assert len(game.stock) == 51 and game.discard == []
    assert game.current == 1 and game.phase is Phase.PLAY
    refused_unchanged(game, Draw(1, Source.STOCK), Exception, "without drawing")
    game.apply(Discard(1, game.hands[1][0].face))
    assert len(game.discard) == 1 and game.current == 2 and game.phase is Phase.DRAW


@pytest.mark.parametrize(
    ("vector", "variant", "players", "stock"),
    [
        ("S02", Variant.SIMPLE, 4, 53),
        ("S02", Variant.R71, 2, 77),
        ("S02", Variant.SIMPLE, 2, 79),
        ("S02", Variant.R51, 2, 79),
        ("S02", Variant.R71, 4, 49),
    ],
)
def test_S02_stock_after_deal(vector: str, variant: Variant, players: int, stock: int) -> None:
    game = Game.new(Rules(variant, players), seed=5)
    assert len(game.stock) == stock and conserved(game)


@pytest.mark.parametrize(
    ("players", "size", "stock"), [(2, 10, 31), (3, 7, 30), (4, 7, 23), (5, 6, 21), (6, 6, 15)]
)
def test_S03_basic_deal(players: int, size: int, stock: int) -> None:
    game = Game.new(Rules(Variant.BASIC, players), seed=9, dealer=0)
    assert {len(h) for h in game.hands} == {size} and len(game.stock) == stock
    assert len(game.discard) == 1 and game.current == 1 and game.phase is Phase.DRAW


def test_S04_2v2_order_and_rotation() -> None:
    game = Game.new(R51_2V2, seed=11, dealer=2)
    order = []
    for _ in range(4):
        order.append(game.current)
        if game.phase is Phase.DRAW:
            game.apply(Draw(game.current, Source.STOCK))
        game.apply(Discard(game.current, game.hands[game.current][0].face))
    assert order == [2, 3, 0, 1]
    assert [R51_2V2.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    game.phase = Phase.ROUND_OVER
    game.results.append(RoundResult(1, None, Outcome.VOID, ((),) * 4, (0,) * 4, (0, 0), (0, 0)))
    game.apply(StartRound())
    assert game.dealer == 3 and game.current == 3


def stock_empty_position(discard: str, reshuffles: int = 0) -> Game:
    game = position(Rules(Variant.R51, 2), ["2c 3c", "4h 5h"], discard=discard, phase=Phase.PLAY)
    for card in list(game.stock):
        game.hands[0].append(card)
    game.stock.clear()
    game.hands[0] = [c for c in game.hands[0] if c.text in ("2c", "3c")][:2] + [
        c for c in game.hands[0] if c.text not in ("2c", "3c")
    ]
    game.reshuffles = reshuffles
    return game


def test_S05_reshuffle_under_top_discard() -> None:
    game = stock_empty_position("9s 10s Js")
    game.apply(discard(0, "2c"))
    assert game.discard[-1].text == "2c" and len(game.discard) == 1
    assert (
        sorted(c.text for c in game.stock) == sorted(["9s", "10s", "Js"])
        and game.phase is Phase.DRAW
    )


def test_S06_nothing_to_reshuffle_voids_round() -> None:
    game = stock_empty_position("")
    game.apply(discard(0, "2c"))
    result = game.results[-1]
    assert (
        result.outcome is Outcome.VOID
        and result.points == (0, 0)
        and game.phase is Phase.ROUND_OVER
    )
    dealer = game.dealer
    game.apply(StartRound())
    assert game.dealer == (dealer + 1) % 2


def test_S08_second_exhaustion_voids_round() -> None:
    game = stock_empty_position("9s 10s", reshuffles=1)
    game.apply(discard(0, "2c"))
    assert game.results[-1].outcome is Outcome.VOID


def test_S07_basic_flip_pile_unshuffled() -> None:
    game = position(
        Rules(Variant.BASIC, 2), ["2c 3c", "4h 5h"], discard="9s 10s Js", phase=Phase.PLAY
    )
    for card in list(game.stock):
        game.hands[1].append(card)
    game.stock.clear()
    game.apply(discard(0, "2c"))
    taker = game.copy()
    taker.apply(Draw(1, Source.DISCARD))
    assert taker.drawn is not None and taker.drawn.text == "2c"
    game.apply(Draw(1, Source.STOCK))
    assert (
        game.drawn is not None
        and game.drawn.text == "9s"
        and [c.text for c in game.stock] == ["2c", "Js", "10s"]
    )


def end_position(rules: Rules, hands: list[str], scores: list[int], laid: list[int]) -> Game:
    game = position(rules, hands, laid_any=laid, opened=[0])
    game.scores = scores
    return game


def test_E01_r51_2v2_limit() -> None:
    game = end_position(R51_2V2, ["9h", "Ks Kh Kd", "2c 3c", "Qs Qh Qd"], [0, 300], [1, 3])
    game.apply(discard(0, "9h"))
    assert game.scores == [0, 360] and game.phase is Phase.GAME_OVER and game.winners == [0]


def test_E02_r71_1v1_limit() -> None:
    game = end_position(Rules(Variant.R71, 2), ["9h", "Ks 4d"], [0, 240], [1])
    game.apply(discard(0, "9h"))
    assert game.scores == [0, 254] and game.winners == [0]


def test_E03_simple_1v1_limit() -> None:
    game = position(
        Rules(Variant.SIMPLE, 2), ["5h 6h 7h 4s 4h 4d 9c 9d 9s Jd Qd Kd Ad 8c", "2c 3c"]
    )
    game.scores = [0, 200]
    game.apply(lay(0, "5h 6h 7h", "4s 4h 4d", "9c 9d 9s", "Jd Qd Kd Ad"))
    game.apply(discard(0, "8c"))
    assert game.scores == [0, 300] and game.winners == [0]


def test_E04_r71_2v2_limit_reached_exactly() -> None:
    game = end_position(R71_2V2, ["9h", "9s", "2c 3c", "2d"], [0, 440], [1, 3])
    game.apply(discard(0, "9h"))
    assert game.scores == [0, 451] and game.winners == [0]
    below = end_position(R71_2V2, ["9h", "8s", "2c 3c", "2d"], [0, 440], [1, 3])
    below.apply(discard(0, "9h"))
    assert below.scores == [0, 450] and below.phase is Phase.ROUND_OVER


def test_E05_basic_shared_win() -> None:
    game = position(Rules(Variant.BASIC, 3), ["2c 3c", "9s", "10h 10d"], current=1, laid_any=[1])
    game.round_no = 3  # the third and last round (basic_rounds=3)
    game.scores = [60, 35, 20]
    game.apply(discard(1, "9s"))
    assert game.scores == [60, 60, 20]
    assert game.phase is Phase.GAME_OVER and game.winners == [0, 1]

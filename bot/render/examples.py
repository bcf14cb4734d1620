"""Fixed example scenes: the golden-image tests, the benchmark and the README images use them.

Why in the package: one definition of "a typical 15-card hand" and "a 24-meld table" keeps the
tests, the speed figures and the documentation pictures about the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rummy_engine.cards import Card, parse_faces, sort_key
from rummy_engine.melds import make_meld
from rummy_engine.rules import Rules, Variant

from .scene import (
    HandScene,
    PlayerResult,
    RoundEndScene,
    SeatInfo,
    SideScore,
    TableMeld,
    TableScene,
)

RULES = Rules(Variant.R51, 4)


def cards(text: str, copy: int = 0) -> tuple[Card, ...]:
    """Physical cards from notation (``"7h 8h JK"``); jokers get consecutive copy numbers."""
    out: list[Card] = []
    jokers = 0
    for face in parse_faces(text):
        if face.is_joker:
            out.append(Card(face.rank, face.suit, jokers))
            jokers += 1
        else:
            out.append(Card(face.rank, face.suit, copy))
    return tuple(out)


def _sorted(hand: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(hand, key=lambda c: (*sort_key(c), c.copy)))


HAND_15 = _sorted(cards("As 4s 5s 10s Kh Qh 7h 2c 9c 10c Jd 10d 3d JK") + cards("9s", 1))
HAND_DRAWN = Card(10, HAND_15[3].suit, 0)  # the 10♠


def hand_15(four_colour: bool = False) -> HandScene:
    """A Rummy 51 hand after drawing: 15 cards, a joker, the 10♠ just drawn."""
    return HandScene(
        cards=HAND_15, drawn=HAND_DRAWN, four_colour=four_colour, title="Alice · 15 cards"
    )


def hand_by_melds() -> HandScene:
    """A hand sorted by the melds a solver found (trays behind them), leftovers last."""
    hand = _sorted(cards("3h 4h 5h 6h 9s 9h 9d Qc Kc 2d 7s JK 8c"))

    def pick(text: str) -> tuple[Card, ...]:
        return tuple(next(c for c in hand if c.text == t) for t in text.split())

    groups = (pick("3h 4h 5h 6h"), pick("9s 9h 9d"), pick("Qc Kc JK"))
    return HandScene(cards=hand, groups=groups, title="Bob · sorted by melds")


def hand_small() -> HandScene:
    """A short hand late in a round (one row)."""
    return HandScene(
        cards=_sorted(cards("Ah 2h 3c Qs JK")),
        drawn=_sorted(cards("3c"))[0],
        title="Chloé · 5 cards",
    )


_MELD_TEXTS = (
    "7h 8h 9h",
    "Qs Qd Qc",
    "Ac 2c 3c 4c",
    "JK 5d 6d",
    "10s Js Qs Ks As",
    "8s 8h 8c",
    "2h 3h JK 5h",
    "Kd Kc Ks Kh",
    "4s 5s 6s",
    "9d 10d Jd",
    "6c 6h JK",
    "Jh Qh Kh",
    "3s 3d 3h",
    "5c 6c 7c 8c 9c",
    "Ad Ah As",
    "10h 10c 10d",
    "7d 8d JK",
    "2s 2d 2c",
    "4h 4d 4c",
    "Jc Js Jd",
    "9h 10h Jh",
    "5h 5s 5d",
    "6d 7d 8d 9d",
    "JK Qd Kd",
)


def table(meld_count: int = 5, four_colour: bool = False) -> TableScene:
    """A 2v2 Rummy 51 table with ``meld_count`` melds (up to 24) on it."""
    sides = (
        SideScore("Alice & Chloé", 182, RULES.limit, 0),
        SideScore("Bob & Dan", 317, RULES.limit, 1),
    )
    melds = tuple(
        TableMeld(
            i + 1,
            make_meld(cards(text, copy=i % 2), RULES),
            i % 2,
            ("Alice", "Bob", "Chloé", "Dan")[i % 4],
        )
        for i, text in enumerate(_MELD_TEXTS[:meld_count])
    )
    seats = (
        SeatInfo("Alice", 0, opened=True),
        SeatInfo("Bob", 1, opened=True, is_turn=True),
        SeatInfo("Chloé", 0, opened=False),
        SeatInfo("Dan", 1, opened=True),
    )
    return TableScene(
        title="Rummy 51 2v2 · table #12",
        round_no=3,
        sides=sides,
        turn_name="Bob",
        melds=melds,
        discard_top=cards("Qh")[0],
        discard_count=17,
        seats=seats,
        four_colour=four_colour,
    )


def round_end() -> RoundEndScene:
    """End of a 2v2 Rummy 51 round: Dan went out, so his side pays nothing and the other side
    pays for the cards its two players hold."""
    totals = (
        SideScore("Alice & Chloé", 212, RULES.limit, 0),
        SideScore("Bob & Dan", 317, RULES.limit, 1),
    )
    players = (
        PlayerResult("Alice", 0, cards("7s 8c"), 15),
        PlayerResult("Bob", 1, cards("Kd Qd JK 10s 9h As 2c 3c 4d 5h 6s 7h"), 0),
        PlayerResult("Chloé", 0, cards("Ah 4c"), 15),
        PlayerResult("Dan", 1, (), 0, went_out=True),
    )
    return RoundEndScene(
        title="Round 3 · Rummy 51 2v2 · table #12",
        players=players,
        totals=totals,
        round_points=(30, 0),
        note="Dan went out in one go (rami sec) and wins round 3.",
    )


def basic_round_end() -> RoundEndScene:
    """End of a 3-player Basic round: Ana went out and collects what the others hold."""
    names = ("Ana", "Ben", "Cleo")
    return RoundEndScene(
        title="Round 2 · Basic rummy 3 players · table #7",
        players=(
            PlayerResult(names[0], 0, (), 43, went_out=True),
            PlayerResult(names[1], 1, cards("Ac 7d Ks"), 18),
            PlayerResult(names[2], 2, cards("9h 8s 8c"), 25),
        ),
        totals=tuple(
            SideScore(n, total, None, i)
            for i, (n, total) in enumerate(zip(names, (43, 20, 60), strict=True))
        ),
        round_points=(43, 0, 0),
        scoring="gain",
    )


#: Twelve melds of one pack (Basic rummy: no jokers, no card twice, the Ace low).
_BASIC_MELD_TEXTS = (
    "7h 8h 9h",
    "Qs Qd Qc",
    "Ac 2c 3c 4c",
    "5d 6d 7d",
    "8s 9s 10s Js",
    "Kd Kc Kh",
    "2h 3h 4h",
    "4s 5s 6s",
    "9d 10d Jd",
    "6c 7c 8c",
    "Ad Ah As",
    "10h Jh Qh",
)


def many_sides_table() -> TableScene:
    """A 6-player Basic table: every team colour appears (chips, badges, bars)."""
    basic = Rules(Variant.BASIC, 6)
    names = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")
    sides = tuple(SideScore(n, 20 * i, None, i) for i, n in enumerate(names))
    melds = tuple(
        TableMeld(i + 1, make_meld(cards(text), basic), i % 6, names[i % 6])
        for i, text in enumerate(_BASIC_MELD_TEXTS)
    )
    seats = tuple(SeatInfo(n, i, is_turn=i == 4) for i, n in enumerate(names))
    return TableScene(
        title="Basic rummy 6 players · table #4",
        round_no=2,
        sides=sides,
        turn_name="Eli",
        melds=melds,
        discard_top=None,
        discard_count=0,
        stock_empty=True,
        seats=seats,
    )


def round_over_table() -> TableScene:
    """The table once a round is over: nobody is to move, so no turn badge and no seat marked."""
    scene = table(5)
    seats = tuple(replace(seat, is_turn=False) for seat in scene.seats)
    return replace(scene, turn_name=None, seats=seats)


def calibration_scenes() -> tuple[HandScene | TableScene | RoundEndScene, ...]:
    """Scenes that together show every colour the renderer draws (all card sizes, both colour
    schemes, every team colour); the PNG palette is computed from them once per Renderer."""
    return (
        hand_15(),
        hand_15(four_colour=True),
        hand_by_melds(),
        table(5),
        table(5, four_colour=True),
        table(13),
        table(13, four_colour=True),
        table(24),
        table(24, four_colour=True),
        many_sides_table(),
        round_end(),
        basic_round_end(),
    )

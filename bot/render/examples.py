"""Fixed example scenes: the golden-image tests, the benchmark and the README images use them.

Why in the package: one definition of "a typical 15-card hand" and "a 24-meld table" keeps the
tests, the speed figures and the documentation pictures about the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence

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
        SideScore("Alice & Chloé", 182, 501, 0),
        SideScore("Bob & Dan", 347, 501, 1),
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
        title="Rummy 51",
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
    """End of a 4-player round: one player went out, the others pay for their cards."""
    totals = (
        SideScore("Alice", 12, 101, 0),
        SideScore("Bob", 87, 101, 1),
        SideScore("Chloé", 45, 101, 2),
        SideScore("Dan", 0, 101, 3),
    )
    players = (
        PlayerResult("Alice", 0, cards("7s 8c"), 15),
        PlayerResult("Bob", 1, cards("Kd Qd JK 10s 9h As 2c 3c 4d 5h 6s 7h"), 107),
        PlayerResult("Chloé", 2, cards("Ah 4c"), 15),
        PlayerResult("Dan", 3, (), 0, went_out=True),
    )
    return RoundEndScene(
        title="Rummy 51 · round 3 over",
        players=players,
        totals=totals,
        note="Dan went out in one go: the others pay double.",
    )


def many_sides_table() -> TableScene:
    """Six single-player sides: every team colour appears (chips, badges, bars)."""
    names = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")
    sides = tuple(SideScore(n, 40 * i, 201, i) for i, n in enumerate(names))
    melds = tuple(
        TableMeld(i + 1, make_meld(cards(text), RULES), i % 6, names[i % 6])
        for i, text in enumerate(_MELD_TEXTS[:12])
    )
    seats = tuple(SeatInfo(n, i, opened=i % 2 == 0, is_turn=i == 4) for i, n in enumerate(names))
    return TableScene(
        title="Rummy 71",
        round_no=1,
        sides=sides,
        turn_name="Eli",
        melds=melds,
        discard_top=None,
        discard_count=0,
        stock_empty=True,
        seats=seats,
    )


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
    )

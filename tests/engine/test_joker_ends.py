"""RULES.md §1.5–§1.6: a joker laid off on a run goes to the end the player names, and that
choice decides which natural card can swap it out later. Old logs (no end named) replay with
the joker high, as before ends could be named."""

from __future__ import annotations

import pytest

from rummy_engine import (
    JOKER,
    End,
    Game,
    InvalidMeld,
    Lay,
    LayDownRefused,
    NotationError,
    Phase,
    Position,
    Rules,
    Swap,
    Variant,
    action_from_json,
    action_to_json,
    format_cards,
    format_lay,
    layoff_ends,
    make_meld,
    parse_face,
    parse_lay,
)
from tests.engine.helpers import cards

R51 = Rules(Variant.R51, 2)


def table_game(run: str = "5c 6c 7c") -> Game:
    """Seat 0 (opened) to play with a joker, 4♣ and 8♣; seat 1 owns the run ``run``."""
    return Position(
        R51,
        hands=("JK 4c 8c 2d 9s", "2s 3s 4h 9d Kd"),
        table=((run, 1),),
        phase=Phase.PLAY,
        opened=(0, 1),
    ).to_game()


def add_joker(end: End | None) -> Lay:
    return Lay(0, (), ((0, (JOKER,)),), () if end is None else (end,))


@pytest.mark.parametrize(
    ("end", "table", "swaps_with", "does_not_swap"),
    [
        (End.LOW, "JK 5♣ 6♣ 7♣", "4c", "8c"),
        (End.HIGH, "5♣ 6♣ 7♣ JK", "8c", "4c"),
        (None, "5♣ 6♣ 7♣ JK", "8c", "4c"),  # not named: high, as every older lay-off was
    ],
)
def test_joker_end_decides_the_swap(
    end: End | None, table: str, swaps_with: str, does_not_swap: str
) -> None:
    game = table_game()
    events = game.apply(add_joker(end))
    assert format_cards(game.table[0].meld.cards) == table
    assert events[0].data.get("ends") == ([end.value] if end else None)
    assert not game.can(Swap(0, 0, parse_face(does_not_swap)))
    game.apply(Swap(0, 0, parse_face(swaps_with)))
    assert format_cards(game.table[0].meld.cards) == table.replace(
        "JK", parse_face(swaps_with).pretty
    )
    assert JOKER in [c.face for c in game.hands[0]]


def test_only_end_left_is_taken_and_the_other_refused() -> None:
    game = table_game("Qc Kc Ac")
    with pytest.raises(InvalidMeld) as refused:
        game.apply(add_joker(End.HIGH))
    assert refused.value.code == "meld.run_cannot_extend_at"
    game.apply(add_joker(None))
    assert format_cards(game.table[0].meld.stands_for) == "J♣ Q♣ K♣ A♣"


def test_layoff_ends_tell_when_to_ask() -> None:
    run = make_meld(cards("5c 6c 7c"), R51)
    assert layoff_ends(run, cards("JK"), R51) == [End.LOW, End.HIGH]
    assert layoff_ends(make_meld(cards("Qc Kc Ac"), R51), cards("JK"), R51) == [End.LOW]
    assert layoff_ends(make_meld(cards("Ac 2c 3c"), R51), cards("JK"), R51) == [End.HIGH]
    assert layoff_ends(run, cards("JK 9c"), R51) == []  # the joker fills 8♣: nothing to ask
    assert layoff_ends(make_meld(cards("5c 5s 5d"), R51), cards("JK"), R51) == []


def test_more_ends_than_layoffs_is_refused() -> None:
    game = table_game()
    with pytest.raises(LayDownRefused):
        game.apply(Lay(0, (), ((0, (JOKER,)),), (End.LOW, End.HIGH)))


def test_action_json_keeps_old_logs_readable() -> None:
    old = {"type": "lay", "seat": 0, "melds": [], "layoffs": [[0, ["JK"]]]}
    assert action_from_json(old) == add_joker(None)
    assert action_to_json(add_joker(None)) == old  # no "ends" key unless one is named
    named = action_to_json(add_joker(End.LOW))
    assert named["ends"] == ["low"]
    assert action_from_json(named) == add_joker(End.LOW)


def test_old_log_replays_with_the_joker_high() -> None:
    game = table_game()
    replayed = Game.replay(
        game.genesis(), [{"type": "lay", "seat": 0, "melds": [], "layoffs": [[0, ["JK"]]]}]
    )
    assert format_cards(replayed.table[0].meld.stands_for) == "5♣ 6♣ 7♣ 8♣"


def test_lay_text_names_the_end() -> None:
    lay = parse_lay(0, "7h 8h 9h | +1 JK low | +2 10s")
    assert lay.layoffs == ((0, (JOKER,)), (1, (parse_face("10s"),)))
    assert lay.ends == (End.LOW, None)
    assert format_lay(lay) == "7h 8h 9h | +1 JK low | +2 10s"
    assert parse_lay(0, format_lay(lay)) == lay
    assert parse_lay(0, "+1 JK").ends == ()


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("7h JK low", "notation.end_outside_layoff"),
        ("+1 JK low high", "notation.two_ends"),
        ("  |  ", "notation.no_cards"),
    ],
)
def test_lay_text_refusals(text: str, code: str) -> None:
    with pytest.raises(NotationError) as refused:
        parse_lay(0, text)
    assert refused.value.code == code

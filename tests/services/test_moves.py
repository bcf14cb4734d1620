"""Typed notation and panel clicks become the right engine actions."""

from __future__ import annotations

import pytest

from bot.features.play import moves, selection
from bot.features.play.actions import Action
from bot.services.refusal import Refusal
from rummy_engine import (
    End,
    Lay,
    NotationError,
    Rules,
    Variant,
    parse_face,
    parse_faces,
    parse_lay,
    parse_meld_groups,
)
from tests.engine.helpers import position


def test_typed_lay_is_read_by_the_engine() -> None:
    """The bot has no lay parser of its own: ``/rummy lay`` builds what the engine reads."""
    game = position(Rules(Variant.R51, 2), ["7h 8h 9h Qs Qd Qc 2c", "3c 4c"])
    text = "7h 8h 9h | Qs Qd Qc | +3 10h Jh"
    assert moves.lay(text)(game, 1) == parse_lay(1, text)
    assert moves.lay(text)(game, 1) == Lay(
        1,
        (tuple(parse_faces("7h 8h 9h")), tuple(parse_faces("Qs Qd Qc"))),
        ((2, tuple(parse_faces("10h Jh"))),),
    )
    with pytest.raises(NotationError, match="No cards were given"):
        moves.lay(" | ")(game, 1)
    with pytest.raises(NotationError, match="'9x' is not a card"):
        moves.lay("7h 8h 9x")(game, 1)


def test_panel_lay_splits_the_chosen_cards_into_melds() -> None:
    game = position(Rules(Variant.R51, 2), ["Js Jh Jd Jc Qh Kh 2c", "3c 4c"])
    chosen = parse_faces("Jh Js Qh Kh Jd Jc")  # in any order: a run and a set
    lay = moves.lay_selection(game, 0, chosen)
    assert sorted(len(m) for m in lay.melds) == [3, 3]
    assert sorted(f.text for m in lay.melds for f in m) == sorted(f.text for f in chosen)
    with pytest.raises(Refusal, match=r"hand\.no_partition"):
        moves.lay_selection(game, 0, parse_faces("Jh Kh 2c"))


def test_choices_ride_in_custom_ids() -> None:
    faces = parse_faces("10h JK As 2c")
    assert selection.encode(faces) == "ThJKAs2c"
    assert selection.decode("ThJKAs2c") == faces
    click = moves.clicked(Action.DISCARD, selection.encode([parse_face("Kc")]), [])
    assert click(position(Rules(Variant.R51, 2), ["Kc 2d", "3c"]), 0).card == parse_face("Kc")


def test_panel_lay_arranges_a_selection_with_one_legal_order() -> None:
    """A menu selection has no order: the only legal one is used (the joker fills the gap)."""
    game = position(Rules(Variant.R51, 2), ["JK 5h 7h 2c", "3c 4c"])
    lay = moves.lay_selection(game, 0, parse_faces("JK 5h 7h"))
    assert lay.melds == (tuple(parse_faces("5h JK 7h")),)


def test_panel_lay_asks_when_a_joker_could_sit_low_or_high() -> None:
    game = position(Rules(Variant.R51, 2), ["Qh Kh JK 2c", "3c 4c"])
    with pytest.raises(moves.Ask) as asked:
        moves.lay_selection(game, 0, parse_faces("Qh Kh JK"))
    orders = {" ".join(f.text for f in lay[0]) for lay in asked.value.options}  # type: ignore[index]
    assert asked.value.kind == "arrange" and orders == {"JK Qh Kh", "Qh Kh JK"}
    value = selection.encode_melds(parse_meld_groups("JK Qh Kh"))
    assert moves.clicked(Action.ARRANGE, "", [value])(game, 0) == Lay(
        0, (tuple(parse_faces("JK Qh Kh")),)
    )


def test_a_joker_added_to_a_run_names_its_end() -> None:
    """Typed without an end the bot refuses, naming both cards; the panel asks instead."""
    game = position(
        Rules(Variant.R51, 2), ["JK 2c 9d", "3c 4c"], table=[("5c 6c 7c", 0)], opened=[0]
    )
    with pytest.raises(Refusal, match=r"add\.which_end") as refused:
        moves.add(1, "JK")(game, 0)
    assert refused.value.params == {"meld": 1, "low": "4♣", "high": "8♣"}
    low = moves.add(1, "JK", End.LOW)(game, 0)
    assert low == Lay(0, (), ((0, (parse_face("JK"),)),), (End.LOW,))
    with pytest.raises(moves.Ask) as asked:
        moves.clicked(Action.ADD_TO, "JK", ["1"])(game, 0)
    assert asked.value.kind == "end" and asked.value.options == (End.LOW, End.HIGH)
    assert moves.end_labels(game, 0, 1, parse_faces("JK")) == {End.LOW: "4♣", End.HIGH: "8♣"}
    high = moves.clicked(Action.ADD_END, "1_JK", ["high"])(game, 0)
    assert high == Lay(0, (), ((0, (parse_face("JK"),)),), (End.HIGH,))
    assert moves.add(1, "JK low")(game, 0) == low, "the notation's end word"
    with pytest.raises(Refusal) as both:
        moves.add(1, "JK low", End.HIGH)(game, 0)
    assert both.value.code == "notation.two_ends"
    with pytest.raises(Refusal) as melds:
        moves.add(1, "8c | 2c 2c 2c")(game, 0)
    assert melds.value.code == "add.one_meld"
    # a joker that only fits one end, or a natural card, needs no answer
    assert moves.add(1, "8c")(game, 0).ends == ()

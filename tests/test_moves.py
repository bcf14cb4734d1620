"""Typed notation and panel clicks become the right engine actions."""

from __future__ import annotations

import pytest

from bot.services import moves, selection
from bot.services.refusal import Refusal
from rummy_engine import Lay, NotationError, Rules, Variant, parse_face, parse_faces
from tests.engine.helpers import position


def test_lay_with_melds_and_additions() -> None:
    lay = moves.parse_lay(1, "7h 8h 9h | Qs Qd Qc | +3 10h Jh")
    assert lay == Lay(
        1,
        (tuple(parse_faces("7h 8h 9h")), tuple(parse_faces("Qs Qd Qc"))),
        ((2, tuple(parse_faces("10h Jh"))),),
    )
    with pytest.raises(Refusal):
        moves.parse_lay(1, " | ")
    with pytest.raises(NotationError, match="'9x' is not a card"):
        moves.parse_lay(1, "7h 8h 9x")


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
    click = moves.clicked("discard", selection.encode([parse_face("Kc")]), [])
    assert click(position(Rules(Variant.R51, 2), ["Kc 2d", "3c"]), 0).card == parse_face("Kc")

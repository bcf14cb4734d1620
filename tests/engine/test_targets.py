"""meld_targets: the table melds chosen cards can be added to or swapped into are exactly the
ones the engine then accepts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rummy_engine import Lay, Phase, Rules, Swap, Targets, Variant, meld_targets, parse_faces
from tests.engine.helpers import position

R51 = Rules(Variant.R51, 2)
TABLE = [("6d JK 8d", 1), ("Qs Qh Qc", 1), ("2c 3c 4c", 1), ("9s 9h 9c JK", 1)]
MELDS = ["6d JK 8d", "Qs Qh Qc", "2c 3c 4c", "9s 9h 9c JK", "4h 5h 6h 7h", "As 2s 3s", "Jd Qd Kd"]
#: At most two of each face with the melds above, so any choice of them is a legal deal.
FACES = parse_faces("5d 7d 9d 10d Qd 10d Kd 9d Ad 5c Ac Kc 3h 8h 7h 3h 4s 10c JK Ks 2s 4s 9h")


def test_cards_together_and_one_card_swaps() -> None:
    game = position(R51, ["9d 10d 7d Qd 5c Kc", "3h 4h"], table=TABLE, opened=(0, 1))
    assert meld_targets(game, 0, parse_faces("9d 10d")) == Targets(extend=(0,))
    assert meld_targets(game, 0, parse_faces("Qd")) == Targets(extend=(1,))
    assert meld_targets(game, 0, parse_faces("7d")) == Targets(extend=(), swap=(0,))
    assert meld_targets(game, 0, parse_faces("5c")) == Targets(extend=(2,))
    assert meld_targets(game, 0, parse_faces("Kc")) == Targets()
    assert meld_targets(game, 0, parse_faces("9d Qd")) == Targets(), "no meld takes both"


def test_nothing_off_turn_or_for_cards_not_held() -> None:
    game = position(R51, ["9d 10d 7d", "9d 3h 4h"], table=TABLE, opened=(0, 1))
    assert meld_targets(game, 1, parse_faces("9d")) == Targets(), "not seat 1's turn"
    assert meld_targets(game, 0, parse_faces("Kd")) == Targets(), "not in the hand"
    assert meld_targets(game, 0, ()) == Targets()
    drawing = position(R51, ["9d 10d 7d", "3h"], table=TABLE, phase=Phase.DRAW)
    assert meld_targets(drawing, 0, parse_faces("9d")) == Targets(), "draw first"


@settings(max_examples=120, deadline=None)
@given(
    table=st.lists(st.sampled_from(MELDS), min_size=1, max_size=4, unique=True),
    hand=st.lists(st.integers(0, len(FACES) - 1), min_size=2, max_size=8, unique=True),
    data=st.data(),
)
def test_targets_are_what_the_engine_accepts(
    table: list[str], hand: list[int], data: st.DataObject
) -> None:
    """For an opened player with a card to spare, a meld is offered exactly when the engine
    accepts laying the chosen cards off on it, or swapping the one chosen card into it."""
    text = " ".join(FACES[i].text for i in hand)
    game = position(R51, [text, "Kh"], table=[(m, 1) for m in table], opened=(0, 1))
    held = game.hands[0]
    picked = data.draw(
        st.lists(st.integers(0, len(held) - 1), min_size=1, max_size=len(held) - 1, unique=True)
    )
    chosen = [held[i].face for i in picked]
    found = meld_targets(game, 0, chosen)
    for index in range(len(game.table)):
        lay = Lay(0, (), ((index, tuple(chosen)),))
        assert (index in found.extend) == game.can(lay), (index, chosen)
        swaps = len(chosen) == 1 and game.can(Swap(0, index, chosen[0]))
        assert (index in found.swap) == swaps, (index, chosen)

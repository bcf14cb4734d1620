"""The words of /rummy hint and /rummy-learn count, built from the engine's findings (no Discord)."""

from __future__ import annotations

import pytest

from bot.features.play import advice
from bot.services.refusal import Refusal
from rummy_engine import Phase, Rules, Variant
from tests.engine.helpers import position

R51 = Rules(Variant.R51, 2)


def test_hint_names_the_players_own_cards_and_the_melds_they_extend() -> None:
    game = position(
        R51,
        ["10s Js Qs Ks 5h 5d 5c JK 9s As 2c 7d", "3c 4c 8h"],
        table=[("6h 7h 8h", 1)],
        opened=[1],
    )
    text = advice.hint_text(advice.hint_for(game, 0), None, "en")
    lines = text.splitlines()
    assert lines[0] == "**Hint** (only you see this):"
    assert any(line.startswith("• Open with ") and "you need 51" in line for line in lines)
    assert "• Meld 1 can take 5♥, JK (/rummy add)." in lines
    discard = next(line for line in lines if line.startswith("• Discard "))
    assert discard.split()[2].rstrip(":") in {c.pretty for c in game.hands[0]}


def test_no_hint_out_of_turn() -> None:
    game = position(R51, ["10s Js Qs", "3c 4c 8h"], phase=Phase.PLAY)
    with pytest.raises(Refusal, match=r"hint\.not_your_turn"):
        advice.hint_for(game, 1)


def test_count_in_words() -> None:
    text = advice.count_text("10s Js Qs Ks | 5h 5d 5c | As", R51, "en")
    assert text.splitlines() == [
        "**Score calculator** · Rummy 51",
        "Melds: 10♠ J♠ Q♠ K♠ | 5♥ 5♦ 5♣",
        "Loose cards: A♠",
        "Opening value: 55 points — enough to open (the threshold is 51).",
        "Left in hand these cards cost 66 points; a player who never laid down pays 100.",
    ]

"""The review's sentences (bot/features/replays/review.py): each finding as a "you could have", melds
and cards named as the hint names them, the note only when there is a chance to tell."""

from __future__ import annotations

from bot.features.play.presenter import Names
from bot.features.replays.review import review_text
from bot.text import t
from rummy_engine import Rules, Variant
from rummy_engine.ai.review import EarlyOpening, FreeJoker, MissedGoOut, Review, ShortOpening
from tests.engine.helpers import cards, meld

R51 = Rules(Variant.R51, 2)
NAMES = Names({0: "alice", 1: "bob"}, {0: 1, 1: 2})


def test_a_freed_partner_is_told_any_melds_would_do() -> None:
    found = EarlyOpening(2, (meld("5h 6h 7h", R51),), 18, 0, None)
    text = review_text(Review(0, 1, 3, (found,)), NAMES, "en")
    assert "• Your turn 2: you could have laid 5♥ 6♥ 7♥: your partner had opened" in text
    assert "you needed" not in text and text.endswith(t("review.note"))


def test_lay_offs_and_a_lone_discard_read_as_moves() -> None:
    lay_off = MissedGoOut(4, (meld("5h 6h 7h", R51),), ((2, tuple(cards("9s"))),), cards("Kd")[0])
    lone = MissedGoOut(5, (), (), cards("Kd")[0])
    text = review_text(Review(0, 1, 5, (lay_off, lone)), NAMES, "en")
    assert "lay 5♥ 6♥ 7♥ | +9♠ on meld 3, then discard K♦." in text
    assert "• Your turn 5: you could have gone out by discarding K♦." in text


def test_only_short_melds_is_a_clean_round() -> None:
    short = ShortOpening(3, (meld("5h 6h 7h", R51),), 18, 51)
    text = review_text(Review(0, 1, 6, (short,)), NAMES, "fr")
    assert "il en fallait 51 pour ouvrir" in text
    assert text.endswith(t("review.clean", "fr")) and t("review.note", "fr") not in text


def test_no_turn_is_one_sentence() -> None:
    joker = FreeJoker(1, cards("6c")[0], 0)
    assert review_text(Review(0, 2, 0, (joker,)), NAMES, "en") == t("review.no_turns", round=2)

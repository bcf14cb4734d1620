"""Scoring and analysis through the public API, against RULES.md's vectors (a copy kept in
``data/scoring_vectors.json``): opening values (and whether they open, played through a
Position), hand penalties, round points, game limits, set-joker candidates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rummy_engine import (
    Discard,
    Lay,
    Phase,
    Position,
    Rules,
    Variant,
    hand_penalty,
    joker_candidates,
    make_deck,
    make_meld,
    opening_value,
    parse_face,
    parse_faces,
    round_points,
)
from rummy_engine.rules import Options
from tests.engine.helpers import cards

VECTORS = json.loads((Path(__file__).parent / "data" / "scoring_vectors.json").read_text("utf-8"))


def rules_of(vector: dict[str, Any], players: int = 2) -> Rules:
    return Rules(
        Variant(vector["variant"]),
        vector.get("players", players),
        Options.from_json(vector.get("options", {})),
    )


def ids(section: str) -> list[str]:
    return [v["id"] for v in VECTORS[section]]


@pytest.mark.parametrize("vector", VECTORS["opening_values"], ids=ids("opening_values"))
def test_opening_value(vector: dict[str, Any]) -> None:
    rules = rules_of(vector)
    melds = [make_meld(cards(text), rules) for text in vector["melds"]]
    assert opening_value(melds, rules) == vector["value"]


def opening_position(rules: Rules, melds: list[str]) -> Position:
    """Seat 0 to play holding the melds plus filler up to a full hand; seat 1 a full hand."""
    named = [f for text in melds for f in parse_faces(text)]
    spare = [c.face for c in make_deck(2, 0)]
    for face in named:
        if not face.is_joker:
            spare.remove(face)
    filler = spare[::3]  # spread over suits and ranks; what it holds does not matter
    first = named + filler[: rules.hand_size + 1 - len(named)]
    second = filler[rules.hand_size + 1 - len(named) :][: rules.hand_size]
    return Position(
        rules,
        hands=(" ".join(f.text for f in first), " ".join(f.text for f in second)),
        phase=Phase.PLAY,
    )


@pytest.mark.parametrize("vector", VECTORS["opening_values"], ids=ids("opening_values"))
def test_opening_through_a_game(vector: dict[str, Any]) -> None:
    rules = rules_of(vector)
    game = opening_position(rules, vector["melds"]).to_game()
    lay = Lay(0, tuple(tuple(parse_faces(text)) for text in vector["melds"]))
    assert game.threshold_for(0) == vector["opens_at"]
    assert game.can(lay) is vector["opens"]
    if vector["opens"]:
        (laid, *_) = game.apply(lay)
        assert laid.data["opening_value"] == vector["value"] and laid.data["opened"] is True


@pytest.mark.parametrize("vector", VECTORS["hand_penalties"], ids=ids("hand_penalties"))
def test_hand_penalty(vector: dict[str, Any]) -> None:
    rules = rules_of(vector)
    assert hand_penalty(cards(vector["hand"]), vector["laid_any"], rules) == vector["penalty"]


@pytest.mark.parametrize("vector", VECTORS["rounds"], ids=ids("rounds"))
def test_round_points(vector: dict[str, Any]) -> None:
    rules = rules_of(vector)
    hands = [cards(text) if text else [] for text in vector["hands"]]
    scored = round_points(
        hands, vector["laid_any"], vector["winner"], rules, rummy=vector.get("rummy", False)
    )
    assert list(scored.penalties) == vector["penalties"]
    assert list(scored.points) == vector["points"]


@pytest.mark.parametrize("vector", VECTORS["limits"], ids=ids("limits"))
def test_limits(vector: dict[str, Any]) -> None:
    assert (vector["total"] >= rules_of(vector).limit) is vector["loses"]


def test_g01_played_out_from_a_position() -> None:
    """RULES.md G01 end to end: seat 0 discards its last card; the losing team pays 14 + 100."""
    game = Position(
        Rules(Variant.R51, 4),
        hands=(
            "9h",
            "Ks 4h",
            "2s 3s 5d 6d 8c 9c Jh Qh",
            "7s 8d 9d 2c 3c 4c 5c 6c 7c 10d Jd Qd Kd Ad",
        ),
        table=(("10s Js Qs", 0), ("5h 6h 7h", 1), ("Kc Kh Kd", 2)),
        opened=(0, 1, 2),
        phase=Phase.PLAY,
    ).to_game()
    game.apply(Discard(0, parse_face("9h")))
    assert game.results[-1].penalties == (0, 14, 0, 100)
    assert game.scores == [0, 114]


def test_e02_limit_reached_from_a_position() -> None:
    game = Position(
        Rules(Variant.R71, 2),
        hands=("9h", "Ks 4h"),
        table=(("10s Js Qs", 0), ("5h 6h 7h", 1), ("Kc Kh Kd", 0)),
        opened=(0, 1),
        phase=Phase.PLAY,
        scores=(0, 240),
    ).to_game()
    game.apply(Discard(0, parse_face("9h")))
    assert game.scores == [0, 254] and game.phase is Phase.GAME_OVER and game.winners == [0]


@pytest.mark.parametrize(
    ("meld", "index", "candidates"),
    [
        ("6s JK 6d", 1, ["6♥", "6♣"]),  # three-card set: one of the missing suits
        ("6s 6h 6d JK", 3, ["6♣"]),  # the fourth card decides
        ("6d JK 8d", 1, ["7♦"]),
        ("JK Qh Kh", 0, ["J♥"]),
    ],
)
def test_joker_candidates(meld: str, index: int, candidates: list[str]) -> None:
    rules = Rules(Variant.R51, 2)
    found = joker_candidates(make_meld(cards(meld), rules), index)
    assert [f.pretty for f in found] == candidates


def test_joker_candidates_of_a_natural_card_is_an_error() -> None:
    with pytest.raises(ValueError, match="not a joker"):
        joker_candidates(make_meld(cards("6s 6h 6d"), Rules(Variant.R51, 2)), 0)

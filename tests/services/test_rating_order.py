"""Ratings keep the order of the game (issue 23, item 2), through the live rule ``rate_game``.

Every result of a game of 2-6 sides (every weak ordering: 5,315 of them) is rated for
newcomers and for fields of equal established ratings; a property test mixes different prior
ratings. The invariant and why it is the right one for unequal priors: tests/helpers/rating_order.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bot.features.stats.service import NEWCOMER_RATING, display_rating, rate_game
from bot.storage.base import RatingKey, SkillRating
from tests.helpers.rating_order import (
    order_breaks,
    place_patterns,
    ranked_game,
    two_sided_game,
)

FAMILY = "basic"


def rate(
    places: tuple[int, ...], before: list[SkillRating | None], **model: object
) -> list[SkillRating]:
    """Each player's rating after a Basic game finishing in *places* (one scope and family)."""
    game = ranked_game(places)
    keys: list[RatingKey] = [(1, FAMILY, p.user_id or 0) for p in game.players]
    after = rate_game(game, dict(zip(keys, before, strict=True)), **model)  # type: ignore[arg-type]
    return [after[key] for key in keys]


def skill(mu: float, sigma: float) -> SkillRating:
    return SkillRating(mu, sigma, display_rating(mu, sigma))


def breaks_over_every_result(sides: int, prior: SkillRating | None) -> list[str]:
    broken = []
    for places in place_patterns(sides):
        before = [prior] * sides
        after = rate(places, before)
        for i, j in order_breaks(places, before, after, NEWCOMER_RATING):
            broken.append(f"{places}: {after[i].rating:.1f} (seat {i}) vs {after[j].rating:.1f}")
    return broken


def test_four_newcomers_finishing_1_1_3_4_stay_in_that_order() -> None:
    """The issue's example: the third ended at 1057.0 above both winners at 1045.6."""
    first, second, third, fourth = (r.rating for r in rate((1, 1, 3, 4), [None] * 4))
    assert first == pytest.approx(second)
    assert first > third > fourth


@pytest.mark.parametrize("sides", range(2, 7))
def test_newcomers_end_in_the_order_of_every_result(sides: int) -> None:
    broken = breaks_over_every_result(sides, None)
    assert broken == [], f"{len(broken)} orders broken, e.g. {broken[:5]}"


@pytest.mark.parametrize(
    "prior",
    [skill(30.0, 4.0), skill(18.0, 2.5), skill(25.0, 1.0)],
    ids=["strong-settled", "weak-settled", "average-certain"],
)
@pytest.mark.parametrize("sides", range(2, 7))
def test_equal_established_players_end_in_the_order_of_every_result(
    sides: int, prior: SkillRating
) -> None:
    broken = breaks_over_every_result(sides, prior)
    assert broken == [], f"{len(broken)} orders broken, e.g. {broken[:5]}"


priors = st.one_of(
    st.none(),
    st.builds(
        skill,
        st.floats(min_value=0.0, max_value=50.0),
        st.floats(min_value=0.5, max_value=25.0 / 3.0),
    ),
)


@st.composite
def fields(draw: st.DrawFn) -> tuple[tuple[int, ...], list[SkillRating | None]]:
    """A result of 2-6 sides whose players come from a pool of 1-3 prior ratings, so some
    come in equal and the others differ."""
    sides = draw(st.integers(min_value=2, max_value=6))
    keys = draw(st.lists(st.integers(0, sides - 1), min_size=sides, max_size=sides))
    places = tuple(1 + sum(other < mine for other in keys) for mine in keys)
    pool = draw(st.lists(priors, min_size=1, max_size=3))
    before = [draw(st.sampled_from(pool)) for _ in range(sides)]
    return places, before


@settings(max_examples=300, deadline=None)
@given(fields())
def test_players_who_came_in_equal_keep_the_order_among_others(
    field: tuple[tuple[int, ...], list[SkillRating | None]],
) -> None:
    places, before = field
    after = rate(places, before)
    assert order_breaks(places, before, after, NEWCOMER_RATING) == []


@settings(max_examples=200, deadline=None)
@given(
    st.lists(priors, min_size=4, max_size=4),
    st.sampled_from([(1, 2), (2, 1), (1, 1)]),
    st.booleans(),
)
def test_two_sided_games_rate_exactly_as_before(
    before: list[SkillRating | None], places: tuple[int, int], teams: bool
) -> None:
    """1v1 and 2v2 are unchanged: for two sides the chosen model is Plackett-Luce's formula.

    A guard rather than a bug's test (it passes on the old rule by construction): it fails if
    the rule is ever swapped for one that moves two-sided results (Thurstone-Mosteller would).
    """
    game = two_sided_game(places, teams=teams)
    before = before[: len(game.players)]
    keys: list[RatingKey] = [(1, "r51", p.user_id or 0) for p in game.players]
    current = dict(zip(keys, before, strict=True))
    now = rate_game(game, current)
    old = rate_game(game, current, model=PlackettLuce())  # type: ignore[arg-type]
    for key in keys:
        assert now[key].mu == pytest.approx(old[key].mu, abs=1e-9)
        assert now[key].sigma == pytest.approx(old[key].sigma, abs=1e-9)

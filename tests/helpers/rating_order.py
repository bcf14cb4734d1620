"""Whether a rating rule keeps the order of a game: the patterns of places and the check.

Shared by ``tests/services/test_rating_order.py`` and ``benchmarks/bench_rating_models.py``, so the
benchmark counts exactly what the tests forbid.

The invariant, for any ratings players come in with: **among players who came in with the same
rating, the game's order is kept** — one who finished ahead of another gains at least as much
(so ends at or above them), and players sharing a place change alike (so stay equal). For
newcomers (everyone equal) this is the whole promise "nobody ends above a player who beat them
in that game". For players who came in with different ratings nothing stronger holds for any
sound rule: a newcomer who finishes second behind an established player has shown more than
their uncertain rating said and may rightly pass the winner, and a favourite who shares first
place with an outsider may gain less than a third who beat strong players.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from bot.storage.base import GamePlayerRecord, GameRecord, SkillRating

#: Rating changes closer than this are equal (they are sums of a handful of floats).
TOLERANCE = 1e-9


@functools.cache
def place_patterns(sides: int) -> tuple[tuple[int, ...], ...]:
    """Every result of a game of *sides* sides: each side's place, shared on ties
    (competition style: 1, 1, 3). These are the weak orderings of the sides: 3, 13, 75, 541
    and 4683 of them for 2-6 sides."""
    found = set()
    for keys in itertools.product(range(sides), repeat=sides):
        found.add(tuple(1 + sum(other < mine for other in keys) for mine in keys))
    return tuple(sorted(found))


def sorted_patterns(sides: int) -> list[tuple[int, ...]]:
    """The patterns up to who holds which place (1, 1, 3, 4 but not 3, 1, 1, 4): 2^(sides-1)."""
    return sorted({tuple(sorted(p)) for p in place_patterns(sides)})


MOMENT = datetime(2025, 1, 1, tzinfo=UTC)


def ranked_game(places: Sequence[int], *, guild_id: int = 1, first_user: int = 1) -> GameRecord:
    """A rated Basic game of one player per side, finishing in *places* (users from
    *first_user* on, seat by seat)."""
    players = tuple(
        GamePlayerRecord(
            seat=seat,
            user_id=first_user + seat,
            is_computer=False,
            name=f"P{first_user + seat}",
            side=seat,
            partner_id=None,
            place=place,
            won=place == 1,
            forfeited=False,
            score=0,
            rounds=1,
            rounds_won=int(place == 1),
            penalty_total=0,
            rami_sec=0,
            best_opening=0,
        )
        for seat, place in enumerate(places)
    )
    return GameRecord(
        table_id=first_user,
        guild_id=guild_id,
        channel_id=1,
        variant="basic",
        mode="basic",
        options_json="{}",
        winner_sides_json="[]",
        scores_json="[]",
        rated=True,
        started_at=MOMENT,
        ended_at=MOMENT,
        players=players,
    )


def two_sided_game(places: tuple[int, int], *, teams: bool) -> GameRecord:
    """A rated game of two sides finishing in *places*: a duel of users 1 and 2, or with
    *teams* a 2v2 seated as the engine seats one (users 1+3 on side 0 against 2+4)."""
    game = ranked_game(places)
    if not teams:
        return game
    partners = tuple(
        replace(p, seat=p.seat + 2, side=p.seat, place=places[p.seat])
        for p in ranked_game(places, first_user=3).players
    )
    return replace(game, players=game.players + partners)


def order_breaks(
    places: Sequence[int],
    before: Sequence[SkillRating | None],
    after: Sequence[SkillRating],
    newcomer: float,
) -> list[tuple[int, int]]:
    """Pairs ``(i, j)`` of players who came in with the same rating where the game's order
    was not kept: ``i`` finished ahead of ``j`` but gained less, or they shared a place and
    changed differently. *newcomer* is the display rating of a ``None`` (never rated)."""

    def same(a: SkillRating | None, b: SkillRating | None) -> bool:
        return a == b or (a is not None and b is not None and (a.mu, a.sigma) == (b.mu, b.sigma))

    gains = [
        new.rating - (newcomer if old is None else old.rating)
        for old, new in zip(before, after, strict=True)
    ]
    breaks = []
    for i, j in itertools.permutations(range(len(places)), 2):
        if not same(before[i], before[j]):
            continue
        behind = places[i] < places[j] and gains[i] < gains[j] - TOLERANCE
        split = places[i] == places[j] and i < j and abs(gains[i] - gains[j]) > TOLERANCE
        if behind or split:
            breaks.append((i, j))
    return breaks

"""Statistics and ratings: record every finished game, rate it, answer leaderboard and stats.

Why these choices:

* **Model: openskill's Bradley-Terry "full pairing".** A rummy result is a *ranking* of
  sides: two teams in 2v2 Atlas, up to six single players in Basic, with shared places on equal
  scores. Bradley-Terry-Full reads a ranking as every pair of sides compared (a win, a loss, or
  half of each for a shared place), so a side that finished ahead of another always gains at
  least as much from the game: among players who came in with the same rating, the ratings
  after the game follow the game's order, and a shared place leaves its holders equal. Of
  openskill's five models it is the only one that keeps this and leaves two-side games alone
  (``benchmarks/bench_rating_models.py`` counts the orders each model inverts over every
  pattern of places for 2-6 sides):

  - Plackett-Luce, used before, inverts 17 of the 62 place patterns once places are shared
    (four newcomers finishing 1, 1, 3, 4 left the third at 1057 above both winners at 1046);
  - the "part" models (Bradley-Terry, Thurstone-Mosteller) compare only neighbours in seat
    order, so two players sharing a place end with different ratings;
  - Thurstone-Mosteller-Full keeps the order but changes every 1v1 and 2v2 result.

  For two sides Bradley-Terry-Full and Plackett-Luce are the same formula, so 1v1 and 2v2
  ratings are exactly what they were. With more sides it moves ratings further per game (a
  Basic game of six is five duels for each player, where Plackett-Luce gave the winner of six
  less than the winner of one duel); the cost is O(sides²), 15 pairs at most. Ratings stored
  under the old rule are replayed through :func:`rate_game` by schema migration 9
  (:func:`replay_ratings`).
* **Display: ``1000 + 40 × (mu − 3·sigma)``.** ``mu − 3σ`` (openskill's ordinal) is a
  conservative estimate: a newcomer starts at ``25 − 3·8.33 = 0`` → 1000 and climbs only as the
  system becomes sure, so lucky first games do not top the board. ×40 turns the model's small
  numbers into a familiar Elo-like scale. Under :data:`PROVISIONAL_GAMES` rated games the
  number carries a "?" mark.
* **Scopes and families.** One rating per (player, family, scope): the family is the variant
  (1v1 and 2v2 of a variant share it: the card skill is the same, and splitting would keep
  everyone provisional) plus ``all``, an overall rating fed by every game; the scope is the
  guild id, or 0 for global, updated from every game in any server.
* **Who is rated.** A game with a computer seat is recorded (statistics, win counts) but
  changes no rating. A forfeit (a ``resigned`` event: leaving or being removed mid-game)
  places the forfeiting side last, so it is rated as a loss.
* The rating update runs inside the store's write transaction (:class:`~bot.storage.base.Rater`)
  so two games finishing at once cannot overwrite each other's update, and recording is
  idempotent per table id (a retried callback records nothing twice).
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Protocol

from bot.features.stats.ratings import (
    NEWCOMER_RATING,
    RATING_BASE,
    RATING_MODEL,
    RATING_SCALE,
    RatingModel,
    RatingReplay,
    display_rating,
    rate_game,
    replay_ratings,
)
from bot.features.stats.store import StatsStore
from bot.storage import MoveRecord, SeatRecord, TableRecord, utc_now
from bot.storage.base import (
    ALL_VARIANTS,
    GLOBAL_SCOPE,
    LEADERBOARD_SORTS,
    GamePlayerRecord,
    GameRecord,
    GameRoundRecord,
    LeaderboardSort,
    PlayerStats,
    RatingKey,
    SkillRating,
)
from rummy_engine import Card, Game, Outcome, Variant, basic_value

#: Rated games before a rating loses its provisional mark.
PROVISIONAL_GAMES = 10
#: The trend shown by /rummy-stats player is the rating change over this many latest rated games.
TREND_GAMES = 10
PAGE_SIZE = 10
#: Outcomes that count as a "rami sec" (everything laid in one turn): Atlas and Basic.
ONE_TURN_OUTCOMES = frozenset({Outcome.RAMI_SEC, Outcome.BASIC_RUMMY})


def is_provisional(rated_games: int) -> bool:
    return rated_games < PROVISIONAL_GAMES


# -- input: what a finished game looks like ------------------------------------------------------


class TableLike(Protocol):
    """What the recorder needs from the table service's ``Table`` (structural, no import)."""

    @property
    def record(self) -> TableRecord: ...

    @property
    def seats(self) -> tuple[SeatRecord, ...]: ...

    @property
    def game(self) -> Game | None: ...


@dataclass(frozen=True)
class FinishedGame:
    """Everything recorded about one finished game, independent of the table service.

    ``forfeits`` are seats that resigned (left or were removed); ``best_openings`` the highest
    opening value each seat laid. Both come from the move log (:func:`finished_from_table`).
    """

    table_id: int
    guild_id: int
    channel_id: int
    mode: str
    options_json: str
    seats: tuple[SeatRecord, ...]
    game: Game
    started_at: datetime
    ended_at: datetime
    forfeits: frozenset[int] = frozenset()
    best_openings: Mapping[int, int] = field(default_factory=dict)


def finished_from_table(
    table: TableLike, moves: Sequence[MoveRecord], *, now: datetime | None = None
) -> FinishedGame:
    """Adapt the lead's ``Table`` plus its move log into a :class:`FinishedGame`."""
    if table.game is None:
        raise ValueError(f"table {table.record.id} has no game to record")
    forfeits: set[int] = set()
    openings: dict[int, int] = {}
    for move in moves:
        for event in json.loads(move.events_json):
            seat = event.get("seat")
            if seat is None:
                continue
            if event.get("kind") == "resigned":
                forfeits.add(int(seat))
            elif event.get("kind") == "laid" and event.get("data", {}).get("opened"):
                value = int(event["data"].get("opening_value") or 0)
                openings[int(seat)] = max(openings.get(int(seat), 0), value)
    record = table.record
    started = moves[0].created_at if moves else record.created_at
    ended = record.finished_at or (moves[-1].created_at if moves else None) or now or utc_now()
    return FinishedGame(
        table_id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        mode=record.mode,
        options_json=record.options_json,
        seats=tuple(table.seats),
        game=table.game,
        started_at=started,
        ended_at=ended,
        forfeits=frozenset(forfeits),
        best_openings=openings,
    )


# -- building the record ---------------------------------------------------------------------------


def side_places(game: Game, forfeits: frozenset[int]) -> list[int]:
    """Place of each side (1 = best, equal keys share a place, competition style 1, 1, 3).

    Order: sides that did not forfeit first, then winners, then by score (Atlas: fewer
    penalty points is better; Basic: more points is better).
    """
    rules = game.rules
    forfeited_sides = {rules.side_of(seat) for seat in forfeits}
    sign = 1 if rules.is_atlas else -1

    def key(side: int) -> tuple[int, int, int]:
        return (side in forfeited_sides, side not in game.winners, sign * game.scores[side])

    keys = [key(side) for side in range(rules.sides)]
    return [1 + sum(other < mine for other in keys) for mine in keys]


def _basic_penalty(hand: Sequence[Card]) -> int:
    """Basic gives no penalties, it pays the winner: what this seat's hand was worth to them."""
    return sum(basic_value(card) for card in hand)


def _round_totals(game: Game, seat: int) -> tuple[int, int, int, int]:
    """(rounds, rounds won, penalty taken, rami sec) of one seat; void rounds do not count."""
    rounds = won = penalty = one_turn = 0
    for result in game.results:
        if result.winner is None:
            continue
        rounds += 1
        if result.winner == seat:
            won += 1
            one_turn += result.outcome in ONE_TURN_OUTCOMES
        elif game.rules.is_atlas:
            penalty += result.penalties[seat]
        else:
            penalty += _basic_penalty(result.hands[seat])
    return rounds, won, penalty, one_turn


def _player_record(finished: FinishedGame, seat: SeatRecord, places: list[int]) -> GamePlayerRecord:
    game, rules = finished.game, finished.game.rules
    side = rules.side_of(seat.seat)
    partner_seat = rules.partner_of(seat.seat)
    partner = next((s for s in finished.seats if s.seat == partner_seat), None)
    rounds, rounds_won, penalty, one_turn = _round_totals(game, seat.seat)
    return GamePlayerRecord(
        seat=seat.seat,
        user_id=seat.user_id,
        is_computer=seat.is_computer,
        name=seat.name,
        side=side,
        partner_id=None if partner is None or partner.is_computer else partner.user_id,
        place=places[side],
        won=side in game.winners,
        forfeited=seat.seat in finished.forfeits,
        score=game.scores[side],
        rounds=rounds,
        rounds_won=rounds_won,
        penalty_total=penalty,
        rami_sec=one_turn,
        best_opening=finished.best_openings.get(seat.seat, 0),
    )


def is_rated(finished: FinishedGame) -> bool:
    """Rated only between humans, with at least two sides holding a human."""
    if any(seat.is_computer or seat.user_id is None for seat in finished.seats):
        return False
    rules = finished.game.rules
    return len({rules.side_of(seat.seat) for seat in finished.seats}) >= 2


def build_record(finished: FinishedGame) -> GameRecord:
    """The normalised record of a finished game (players with places, rounds)."""
    game = finished.game
    places = side_places(game, finished.forfeits)
    seats = sorted(finished.seats, key=lambda s: s.seat)
    return GameRecord(
        table_id=finished.table_id,
        guild_id=finished.guild_id,
        channel_id=finished.channel_id,
        variant=game.rules.variant.value,
        mode=finished.mode,
        options_json=finished.options_json,
        winner_sides_json=json.dumps(sorted(game.winners)),
        scores_json=json.dumps(list(game.scores)),
        rated=is_rated(finished),
        started_at=finished.started_at,
        ended_at=finished.ended_at,
        players=tuple(_player_record(finished, seat, places) for seat in seats),
        rounds=tuple(
            GameRoundRecord(
                round_no=r.round_no,
                winner=r.winner,
                outcome=r.outcome.value,
                penalties_json=json.dumps(list(r.penalties)),
                points_json=json.dumps(list(r.points)),
                totals_json=json.dumps(list(r.totals)),
            )
            for r in game.results
        ),
    )


# -- query results -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaderboardEntry:
    """One line of the leaderboard; ``rank`` is the position in the chosen order."""

    rank: int
    user_id: int
    name: str | None
    rating: float | None
    rated_games: int
    games: int
    wins: int
    win_rate: float

    @property
    def provisional(self) -> bool:
        return is_provisional(self.rated_games)


@dataclass(frozen=True)
class LeaderboardPage:
    """One page of a leaderboard, plus where the caller stands."""

    scope: int
    family: str
    sort: LeaderboardSort
    page: int
    page_count: int
    total: int
    entries: tuple[LeaderboardEntry, ...]
    caller: LeaderboardEntry | None

    @property
    def has_previous(self) -> bool:
        return self.page > 0

    @property
    def has_next(self) -> bool:
        return self.page + 1 < self.page_count

    @property
    def caller_on_page(self) -> bool:
        return self.caller is not None and any(
            e.user_id == self.caller.user_id for e in self.entries
        )


@dataclass(frozen=True, slots=True)
class VariantStats(PlayerStats):
    """What /rummy-stats player shows for one family (a variant, or ``all``): the stored row
    (every counter) and what is computed beside it."""

    trend: float | None = None
    favourite_partner: tuple[int, int] | None = None

    @classmethod
    def of(
        cls, row: PlayerStats, trend: float | None, favourite_partner: tuple[int, int] | None
    ) -> VariantStats:
        stored = {f.name: getattr(row, f.name) for f in fields(PlayerStats)}
        return cls(**stored, trend=trend, favourite_partner=favourite_partner)

    @property
    def average_penalty(self) -> float | None:
        return self.penalty_total / self.rounds if self.rounds else None

    @property
    def provisional(self) -> bool:
        return is_provisional(self.rated_games)


def _entry(rank: int, row: PlayerStats, names: Mapping[int, str]) -> LeaderboardEntry:
    return LeaderboardEntry(
        rank=rank,
        user_id=row.user_id,
        name=names.get(row.user_id),
        rating=row.rating,
        rated_games=row.rated_games,
        games=row.games,
        wins=row.wins,
        win_rate=row.win_rate,
    )


def check_sort(sort: str) -> LeaderboardSort:
    """The sort name, or ``ValueError`` naming the known ones."""
    for known in LEADERBOARD_SORTS:
        if sort == known:
            return known
    raise ValueError(f"unknown sort {sort!r}; expected one of {LEADERBOARD_SORTS}")


def check_family(family: str) -> str:
    """A variant value or ``all``; ``ValueError`` otherwise."""
    if family == ALL_VARIANTS or family in {v.value for v in Variant}:
        return family
    raise ValueError(f"unknown variant family {family!r}")


# -- the service ----------------------------------------------------------------------------------------


class StatsService:
    """Records finished games and answers leaderboard and statistics queries.

    Wire :meth:`on_game_finished` as ``TableService(on_game_finished=...)``; expose the
    instance as ``bot.stats`` so the persistent page buttons find it after a restart.
    """

    def __init__(self, store: StatsStore, *, page_size: int = PAGE_SIZE) -> None:
        self.store = store
        self.page_size = page_size
        #: Called with each rated game once it is recorded (the seasons note its season there).
        self.after_rated: Callable[[GameRecord], Awaitable[None]] | None = None

    # -- recording --------------------------------------------------------------------------

    async def on_game_finished(self, table: TableLike) -> int | None:
        """The table service's callback: read the move log and record the game once."""
        moves = await self.store.list_moves(table.record.id)
        return await self.record(finished_from_table(table, moves))

    async def record(self, finished: FinishedGame) -> int | None:
        """Record a finished game (rated when :func:`is_rated`); ``None`` if already recorded."""
        record = build_record(finished)

        def rater(current: Mapping[RatingKey, SkillRating | None]) -> dict[RatingKey, SkillRating]:
            return rate_game(record, current)

        game_id = await self.store.record_game(record, rater if record.rated else None)
        if game_id is not None and record.rated and self.after_rated is not None:
            await self.after_rated(record)
        return game_id

    # -- leaderboard ---------------------------------------------------------------------------

    async def leaderboard(
        self,
        *,
        scope: int,
        family: str,
        sort: LeaderboardSort,
        page: int,
        caller_id: int | None = None,
    ) -> LeaderboardPage:
        """A page (clamped into range, so old buttons never show an empty page after the end)."""
        family, sort = check_family(family), check_sort(sort)
        total = await self.store.leaderboard_size(scope, family)
        page_count = max(1, math.ceil(total / self.page_size))
        page = min(max(0, page), page_count - 1)
        offset = page * self.page_size
        rows = await self.store.leaderboard_page(scope, family, sort, offset, self.page_size)
        position = None
        if caller_id is not None:
            position = await self.store.leaderboard_position(scope, family, sort, caller_id)
        users = [r.user_id for r in rows] + ([caller_id] if position and caller_id else [])
        names = await self.store.player_names(users)
        entries = tuple(_entry(offset + i + 1, row, names) for i, row in enumerate(rows))
        caller = None if position is None else _entry(position[0], position[1], names)
        return LeaderboardPage(scope, family, sort, page, page_count, total, entries, caller)

    # -- player statistics -----------------------------------------------------------------------

    async def player_stats(self, *, scope: int, user_id: int) -> list[VariantStats]:
        """One entry per family the player has games in: variants first, ``all`` last."""
        rows = await self.store.get_player_stats(scope, user_id)
        rows.sort(key=lambda r: (r.family == ALL_VARIANTS, r.family))
        return [await self._variant_stats(row) for row in rows]

    async def _variant_stats(self, row: PlayerStats) -> VariantStats:
        history = await self.store.rating_history(row.scope, row.family, row.user_id, TREND_GAMES)
        trend = None
        if history:
            start = history[-1].before
            trend = history[0].after - (NEWCOMER_RATING if start is None else start)
        partner = await self.store.favourite_partner(row.scope, row.family, row.user_id)
        return VariantStats.of(row, trend, partner)


__all__ = [
    "ALL_VARIANTS",
    "GLOBAL_SCOPE",
    "PAGE_SIZE",
    "PROVISIONAL_GAMES",
    "RATING_BASE",
    "RATING_MODEL",
    "RATING_SCALE",
    "TREND_GAMES",
    "FinishedGame",
    "LeaderboardEntry",
    "LeaderboardPage",
    "RatingModel",
    "RatingReplay",
    "StatsService",
    "TableLike",
    "VariantStats",
    "build_record",
    "check_family",
    "check_sort",
    "display_rating",
    "finished_from_table",
    "is_provisional",
    "is_rated",
    "rate_game",
    "replay_ratings",
    "side_places",
]

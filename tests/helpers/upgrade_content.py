"""One database's worth of content, declared once, for the upgrade test of every schema version.

Why written through today's store and read back as rows: the rows are then exactly what the bot
writes today (its column values, its counters, its ratings), in every table, without a second
hand-kept copy of the store's rules. The upgrade test writes each past version's projection of
these rows (the columns that existed then) and expects the migrations to arrive at the rows
below. Two things a bot of an older version stored differently are kept apart:

* ratings before migration 9 were Plackett-Luce's (:mod:`tests.helpers.old_ratings`): the same
  content is recorded a second time with that rule, and ``before_replay`` keeps its
  ``player_stats`` and ``rating_history``;
* seasons (migration 13) are declared here as what that migration derives from the rated games
  (a row per server and calendar month UTC, the channel of its latest rated game, months over
  already announced), written out by hand (the current month's dates from the clock) so the
  backfill has an answer to meet.

Values are as SQLite stores them (times ISO-8601 text, flags 0/1); ``bot.storage.rows`` converts
them for PostgreSQL, as ``copy-db`` does.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.features.stats.ratings import rate_game
from bot.storage import Deadline, MessageRef, NewTable, PlayerPrefs, SeatRecord, SqliteStore
from bot.storage.base import (
    GamePlayerRecord,
    GameRecord,
    GameRoundRecord,
    Rater,
    RatingKey,
    SeasonRecord,
    SkillRating,
)
from tests.helpers.old_ratings import old_rule

#: table -> its rows, each a dict of column -> value (as SQLite stores it).
Rows = dict[str, list[dict[str, Any]]]
#: A rating rule: a game and the current ratings of its keys -> the new ones.
Rule = Callable[
    [GameRecord, Mapping[RatingKey, SkillRating | None]], Mapping[RatingKey, SkillRating]
]

#: Discord snowflakes (they need PostgreSQL's BIGINT).
GUILD_A = 1_100_000_000_000_000_001
GUILD_B = 1_100_000_000_000_000_002
CHANNEL_A = 1_200_000_000_000_000_001
CHANNEL_A2 = 1_200_000_000_000_000_002
CHANNEL_B = 1_200_000_000_000_000_003
THREAD = 1_200_000_000_000_000_009
ANN, BEN, CLEO, DAN, EVE = (1_300_000_000_000_000_000 + n for n in range(1, 6))
USERS = (ANN, BEN, CLEO, DAN, EVE)
GUILDS = (GUILD_A, GUILD_B)

START = datetime(2025, 1, 10, 18, 0, tzinfo=UTC)


def _this_month(now: datetime) -> tuple[datetime, datetime]:
    start = datetime(now.year, now.month, 1, tzinfo=UTC)
    return start, datetime(now.year + now.month // 12, now.month % 12 + 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Content:
    """Every row of the declared database at the latest schema, and what differs before 9."""

    rows: Rows
    #: ``player_stats`` and ``rating_history`` as a bot before migration 9 stored them.
    before_replay: Rows


def ticking(start: datetime = START) -> Callable[[], datetime]:
    """A clock one minute later at every call: every stored time is distinct and repeatable."""
    now = [start]

    def clock() -> datetime:
        now[0] += timedelta(minutes=1)
        return now[0]

    return clock


def _player(
    seat: int,
    user: int | None,
    side: int,
    place: int,
    score: int,
    *,
    name: str | None = None,
    partner: int | None = None,
    forfeited: bool = False,
    rounds: int = 2,
) -> GamePlayerRecord:
    return GamePlayerRecord(
        seat=seat,
        user_id=user,
        is_computer=user is None,
        name=name or ("Computer" if user is None else f"P{seat}"),
        side=side,
        partner_id=partner,
        place=place,
        won=place == 1,
        forfeited=forfeited,
        score=score,
        rounds=rounds,
        rounds_won=1 if place == 1 else 0,
        penalty_total=0 if place == 1 else 40 + seat,
        rami_sec=1 if seat == 0 else 0,
        best_opening=51 + seat,
    )


def _rounds(count: int) -> tuple[GameRoundRecord, ...]:
    return tuple(
        GameRoundRecord(
            round_no=n,
            winner=None if n == count and count > 1 else 0,
            outcome="void" if n == count and count > 1 else "normal",
            penalties_json=f"[0, {10 * n}]",
            points_json=f"[{10 * n}, 0]",
            totals_json=f"[{10 * n}, {5 * n}]",
        )
        for n in range(1, count + 1)
    )


def games(table_ids: list[int], now: datetime) -> list[GameRecord]:
    """The finished games: shared places, a 2v2, a forfeit, an unrated game against the
    computer, two servers, and a rated game in the current month (its season still open)."""
    month, _ = _this_month(now)
    specs: list[tuple[int, int, str, str, bool, datetime, tuple[GamePlayerRecord, ...]]] = [
        (GUILD_A, CHANNEL_A, "basic", "solo", True, datetime(2025, 1, 12, 20, tzinfo=UTC), (
            _player(0, ANN, 0, 1, 50), _player(1, BEN, 1, 1, 50),
            _player(2, CLEO, 2, 3, 20), _player(3, DAN, 3, 4, 10),
        )),
        (GUILD_A, CHANNEL_A2, "r51", "2v2", True, datetime(2025, 1, 20, 21, tzinfo=UTC), (
            _player(0, ANN, 0, 1, 300, partner=CLEO), _player(1, BEN, 1, 2, 120, partner=DAN),
            _player(2, CLEO, 0, 1, 300, partner=ANN), _player(3, DAN, 1, 2, 120, partner=BEN),
        )),
        (GUILD_B, CHANNEL_B, "basic", "solo", True, datetime(2025, 2, 3, 9, tzinfo=UTC), (
            _player(0, BEN, 0, 1, 40), _player(1, CLEO, 1, 2, 10),
            _player(2, EVE, 2, 3, 0, forfeited=True, rounds=1),
        )),
        (GUILD_A, CHANNEL_A, "r51", "solo", False, datetime(2025, 2, 10, 22, tzinfo=UTC), (
            _player(0, ANN, 0, 2, 80), _player(1, None, 1, 1, 200),
        )),
        (GUILD_A, CHANNEL_A, "r71", "solo", True, month, (
            _player(0, EVE, 0, 1, 410), _player(1, ANN, 1, 2, 150),
        )),
    ]
    return [
        GameRecord(
            table_id=table_id,
            guild_id=guild,
            channel_id=channel,
            variant=variant,
            mode=mode,
            options_json='{"rounds": 3}',
            winner_sides_json="[0]",
            scores_json="[" + ", ".join(str(p.score) for p in players) + "]",
            rated=rated,
            started_at=ended - timedelta(minutes=45),
            ended_at=ended,
            players=players,
            rounds=_rounds(len(players) - 1),
        )
        for table_id, (guild, channel, variant, mode, rated, ended, players) in zip(
            table_ids, specs, strict=True
        )
    ]


def seasons(now: datetime) -> list[SeasonRecord]:
    """What migration 13 derives from :func:`games`: January on server A (its latest rated game
    was in ``CHANNEL_A2``; February's game there is unrated), February on server B, and the
    current month on server A, not over yet."""
    month, next_month = _this_month(now)
    january, february, march = (datetime(2025, m, 1, tzinfo=UTC) for m in (1, 2, 3))
    return [
        SeasonRecord(GUILD_A, january, february, "month", CHANNEL_A2, posted=True),
        SeasonRecord(GUILD_B, february, march, "month", CHANNEL_B, posted=True),
        SeasonRecord(GUILD_A, month, next_month, "month", CHANNEL_A, posted=False),
    ]


def _rater(rule: Rule, record: GameRecord) -> Rater:
    def rater(current: Mapping[RatingKey, SkillRating | None]) -> Mapping[RatingKey, SkillRating]:
        return rule(record, current)

    return rater


async def _fill(store: SqliteStore, rule: Rule, now: datetime) -> None:
    """Every kind of row the bot keeps, through the store's own methods."""
    lobby = await store.create_table(
        NewTable(GUILD_A, CHANNEL_A, ANN, "r51", "solo", '{"rounds": 3}', locale="fr")
    )
    await store.set_seats(lobby.id, [
        SeatRecord(0, ANN, name="Ann"),
        SeatRecord(1, None, is_computer=True, name="Computer", strength="strong"),
    ])  # fmt: skip
    await store.set_message_ref(MessageRef(lobby.id, "lobby", CHANNEL_A, 9001, "lobby:2", 2))
    await store.mark_published(lobby.id, 2)
    await store.arm_deadlines(
        lobby.id, [Deadline(lobby.id, "lobby_idle", START + timedelta(hours=2), "v2")]
    )

    game = await store.create_table(
        NewTable(GUILD_A, CHANNEL_A, BEN, "r51", "2v2", '{"rounds": 5}', seed=42)
    )
    await store.set_seats(game.id, [
        SeatRecord(seat, user, team=seat % 2, name=f"P{seat}")
        for seat, user in enumerate((BEN, ANN, CLEO, DAN))
    ])  # fmt: skip
    await store.set_table_thread(game.id, THREAD)
    version = 0
    for n, actor in enumerate((BEN, ANN, None), start=1):
        version = await store.commit_move(
            game.id, version, actor, f'{{"draw": {n}}}', f'[{{"drawn": {n}}}]',
            f'{{"round": 1, "turn": {n}}}', status="active" if n == 1 else None,
            timeouts=(2, 1) if actor is None else None,
        )  # fmt: skip
    await store.set_message_ref(MessageRef(game.id, "table", THREAD, 9002, "t:3", 4))
    await store.set_message_ref(MessageRef(game.id, "round", THREAD, 9003, "r:1", 3))
    await store.mark_published(game.id, 3)
    armed = await store.arm_deadlines(game.id, [
        Deadline(game.id, "turn", START + timedelta(minutes=90), "r1t3", seat=2),
        Deadline(game.id, "game_idle", START + timedelta(days=1), "r1"),
    ])  # fmt: skip
    await store.claim_deadline(next(d for d in armed if d.kind == "turn"))

    idle = await store.create_table(NewTable(GUILD_B, CHANNEL_B, EVE, "basic", "solo"))
    await store.update_table_status(idle.id, "cancelled", reason="lobby_idle")

    finished_ids = []
    for _ in range(5):
        table = await store.create_table(NewTable(GUILD_A, CHANNEL_A, ANN, "basic", "solo"))
        await store.set_seats(table.id, [SeatRecord(0, ANN, name="Ann")])
        await store.commit_move(table.id, 0, ANN, "{}", "[]", '{"over": true}', status="finished")
        finished_ids.append(table.id)
    for record in games(finished_ids, now):
        await store.record_game(record, _rater(rule, record) if record.rated else None)
    for season in seasons(now):
        await store.add_season(season)

    await store.set_guild_setting(GUILD_A, "locale", "fr")
    await store.set_guild_setting(GUILD_B, "season_length", "14d")
    await store.set_table_default(GUILD_A, 0, "variant", "51")
    await store.set_table_default(GUILD_A, CHANNEL_A2, "mode", "2v2")
    await store.set_player_prefs(PlayerPrefs(ANN, four_colour=True, hand_sort="rank", locale="fr"))
    await store.set_player_prefs(PlayerPrefs(BEN, dm_closed=True))
    await store.set_dm_channel(ANN, 1_400_000_000_000_000_001)
    await store.set_dm_channel(EVE, 1_400_000_000_000_000_005)
    await store.set_meta("command_tree", "3f2a")
    await store.set_meta("last_start", "2025-01-10T18:00:00+00:00")


def dump(path: Path) -> Rows:
    """Every row of every table of a SQLite file, tables in creation order."""
    with sqlite3.connect(path) as conn:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' "
                "AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
            )
        ]
        found: Rows = {}
        for table in tables:
            cursor = conn.execute(f'SELECT * FROM "{table}"')
            names = [column[0] for column in cursor.description]
            found[table] = [dict(zip(names, row, strict=True)) for row in cursor]
    return found


async def _recorded(path: Path, rule: Rule, now: datetime) -> Rows:
    async with SqliteStore(path, clock=ticking(), synchronous="NORMAL") as store:
        await _fill(store, rule, now)
    return dump(path)


async def build_content(folder: Path, now: datetime | None = None) -> Content:
    """The content, recorded once with today's rating rule and once with Plackett-Luce's."""
    moment = now or datetime.now(UTC)
    today = await _recorded(folder / "today.db", rate_game, moment)
    old = await _recorded(folder / "plackett_luce.db", old_rule, moment)
    return Content(today, {table: old[table] for table in ("player_stats", "rating_history")})


_cache: dict[tuple[int, int], Content] = {}


async def content(folder: Path) -> Content:
    """:func:`build_content`, once per test process and calendar month: the current month's
    season is still open, so a process that runs past the month's end builds it again."""
    now = datetime.now(UTC)
    month = (now.year, now.month)
    if month not in _cache:
        _cache.clear()
        _cache[month] = await build_content(folder, now)
    return _cache[month]

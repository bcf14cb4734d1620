"""The storage interface the rest of the bot talks to.

Why a Protocol plus plain dataclasses: cogs and the game service depend only on
this module, so the SQLite and PostgreSQL implementations are interchangeable
without touching them. Rows are frozen dataclasses (not sqlite rows or dicts) so the calling code
is type-checked and cannot depend on a driver's row type. Game snapshots,
actions and events are opaque JSON text here: storage never imports the engine
or discord.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal, Protocol, runtime_checkable
from urllib.parse import urlsplit, urlunsplit

from bot.storage.records import Kind, counter

TableStatus = Literal["lobby", "active", "finished", "cancelled"]
TABLE_STATUSES: tuple[TableStatus, ...] = ("lobby", "active", "finished", "cancelled")
#: Statuses of tables that must be brought back after a restart.
OPEN_STATUSES: tuple[TableStatus, ...] = ("lobby", "active")
#: Statuses after which a table never changes again.
CLOSED_STATUSES: tuple[TableStatus, ...] = ("finished", "cancelled")
#: What a lobby may change besides its seats: each is a column of ``tables``.
TableSetting = Literal["options", "locale"]
TABLE_SETTINGS: tuple[TableSetting, ...] = ("options", "locale")

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    """Default clock: timezone-aware UTC now. Inject another one in tests."""
    return datetime.now(UTC)


#: URL schemes that select the PostgreSQL store (``RUMMY_DATABASE=postgresql://…``).
POSTGRES_SCHEMES = ("postgresql", "postgres")


def is_postgres_url(target: str) -> bool:
    """Whether a ``RUMMY_DATABASE`` value names a PostgreSQL server (else it is a file path)."""
    return urlsplit(target).scheme in POSTGRES_SCHEMES


def masked_url(url: str) -> str:
    """*url* with any password replaced, safe for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


#: Bits of a snowflake below the timestamp; Discord's shard formula shifts them away.
SHARD_SHIFT = 22


@dataclass(frozen=True, slots=True)
class Shards:
    """The Discord shards one bot process serves, out of ``count``.

    Why the store knows about it: with several processes over one database, each owns the
    tables of the servers on its shards (Discord sends a server's interactions to that
    shard only), so start-up, healing and deadlines must list only those tables, in SQL,
    or one process would sleep on another's nearest deadline. Discord's formula:
    ``(guild_id >> 22) % count``.
    """

    count: int
    ids: tuple[int, ...]

    def owns(self, guild_id: int) -> bool:
        return (guild_id >> SHARD_SHIFT) % self.count in self.ids

    @property
    def everything(self) -> bool:
        return set(self.ids) == set(range(self.count))


class StorageError(Exception):
    """Base class for storage failures callers may want to handle."""


def driver_errors(*also: type[Exception]) -> tuple[type[Exception], ...]:
    """*also*, ``OSError`` and what the database drivers raise: SQLite's, and asyncpg's once
    it is loaded (it is imported only where PostgreSQL is used, so before that none of its
    errors can be raised)."""
    asyncpg = sys.modules.get("asyncpg")
    drivers = (sqlite3.Error,) if asyncpg is None else (sqlite3.Error, asyncpg.PostgresError)
    return (*also, OSError, *drivers)


class StaleVersion(StorageError):
    """A write was based on an outdated snapshot; reload the table and retry.

    This is the optimistic-concurrency refusal: two moves computed from the same
    snapshot cannot both be accepted.
    """

    def __init__(self, table_id: int, expected: int, actual: int) -> None:
        super().__init__(
            f"table {table_id}: write expected version {expected} but the stored version is "
            f"{actual}"
        )
        self.table_id = table_id
        self.expected = expected
        self.actual = actual


class TableNotFound(StorageError):
    """No table has this id."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} does not exist")
        self.table_id = table_id


class TableClosed(StorageError):
    """The table is finished or cancelled and accepts no more moves."""

    def __init__(self, table_id: int, status: str) -> None:
        super().__init__(f"table {table_id} is {status} and accepts no more moves")
        self.table_id = table_id
        self.status = status


class NotADatabase(StorageError):
    """The configured database path holds something that is not a database; it is left alone."""

    def __init__(self, path: object, why: str) -> None:
        super().__init__(
            f"{path} is not a SQLite database ({why}); it was left untouched. Point "
            "RUMMY_DATABASE at the right file, or move this one away to start a new database"
        )
        self.path = path
        self.why = why


class SchemaTooNew(StorageError):
    """The database was written by a newer version of the bot."""

    def __init__(self, found: int, newest: int) -> None:
        super().__init__(
            f"the database has schema version {found} but this program only knows up to "
            f"{newest}; upgrade rummy-bot"
        )
        self.found = found
        self.newest = newest


@dataclass(frozen=True, slots=True)
class NewTable:
    """What a caller supplies to open a table; the store fills in id, version and times."""

    guild_id: int
    channel_id: int
    host_id: int
    variant: str
    mode: str
    options_json: str = "{}"
    seed: int | None = None
    status: TableStatus = "lobby"
    #: The language of the table's public messages; ``None`` follows the server's.
    locale: str | None = None


@dataclass(frozen=True, slots=True)
class TableRecord:
    """One table (a lobby or a game). ``version`` equals the number of accepted moves."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: TableStatus
    variant: str
    mode: str
    options_json: str
    seed: int | None
    snapshot_json: str | None
    version: int
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    #: Bumped by every change (move, seats, options, status); see :meth:`Store.mark_published`.
    revision: int = 0
    #: The revision every message of the table was last brought to.
    published: int = 0
    #: The language chosen for this table's public messages; ``None`` follows the server's.
    locale: str | None = None
    #: Why a table closed without a result (``None``: a move or the host closed it), e.g.
    #: ``lobby_idle`` or ``game_idle``; the table message words it.
    closed_reason: str | None = None
    #: The thread the game is played in (a thread per game): ``None`` none, ``0`` the bot
    #: may not open one here (the game stays in the channel), else the thread's id.
    thread_id: int | None = None


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat at a table. ``user_id`` is ``None`` for a computer player, whose ``strength``
    (``easy``, ``normal``, ``strong``) the host chose; None means normal (older tables)."""

    seat: int
    user_id: int | None
    is_computer: bool = False
    team: int | None = None
    name: str | None = None
    strength: str | None = None
    #: Turns in a row this seat let the turn timer run out (0 once its player acts again).
    timeouts: int = 0


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One accepted move: the action asked for and the events the engine produced.

    ``seq`` starts at 1 and equals the table version right after the move.
    """

    table_id: int
    seq: int
    actor_id: int | None
    action_json: str
    events_json: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class MessageRef:
    """A Discord message the bot owns for a table, and what it shows.

    ``stamp`` identifies the content shown (the reconciler compares it with what the stored
    table calls for); ``revision`` is the table revision it was built from.
    """

    table_id: int
    kind: str
    channel_id: int
    message_id: int
    stamp: str = ""
    revision: int = 0


@dataclass(frozen=True, slots=True)
class PlayerPrefs:
    """Per-user display preferences; the defaults apply to users never seen before."""

    user_id: int
    dm_closed: bool = False
    four_colour: bool = False
    hand_sort: str = "suit"
    locale: str | None = None
    #: The bot's DM channel with this user, once opened: a hand DM then costs one request
    #: (no ``GET /users/{id}``, no ``POST /users/@me/channels``), also after a restart.
    dm_channel_id: int | None = None


@dataclass(frozen=True, slots=True)
class LoadedTable:
    """What a move starts from, in one read: the table, its seats, and each seated player's
    preferences (the move's reply and the hand DMs draw with them)."""

    record: TableRecord
    seats: tuple[SeatRecord, ...]
    prefs: Mapping[int, PlayerPrefs]


@dataclass(frozen=True, slots=True)
class Deadline:
    """Delayed work of a table, stored so a restart re-arms it (the durable-timer pattern).

    One row per (table, kind). ``generation`` names what the deadline belongs to (a turn, a
    round, a lobby revision): arming the same generation again keeps the row, its due time
    and whether it already fired, so re-arming after every commit never postpones a deadline
    nor fires it twice. ``fired`` is set by the transaction that acts on it (the claim).
    """

    table_id: int
    kind: str
    due_at: datetime
    generation: str
    seat: int | None = None
    fired: bool = False


class DeadlineGone(StorageError):
    """A claimed deadline already fired or was replaced: the work it stood for is done."""

    def __init__(self, table_id: int, kind: str, generation: str) -> None:
        super().__init__(f"table {table_id}: deadline {kind} {generation} is no longer pending")
        self.table_id = table_id
        self.kind = kind
        self.generation = generation


@runtime_checkable
class Store(Protocol):
    """Everything the bot persists. All methods are coroutines; one write = one transaction."""

    # --- lifecycle ---------------------------------------------------------
    async def open(self) -> None:
        """Connect and bring the schema to the newest version."""
        ...

    async def close(self) -> None:
        """Finish pending work and release the connection. Safe to call twice."""
        ...

    async def schema_version(self) -> int:
        """The schema version of the open database."""
        ...

    # --- tables ------------------------------------------------------------
    async def create_table(self, new: NewTable) -> TableRecord:
        """Insert a table at version 0 with no snapshot and return it."""
        ...

    async def get_table(self, table_id: int) -> TableRecord | None:
        """The table, or ``None`` if there is none with this id."""
        ...

    async def list_active_tables(
        self, guild_id: int | None = None, shards: Shards | None = None
    ) -> list[TableRecord]:
        """Tables in lobby or active status (what a restart must restore), oldest first; only
        those of ``guild_id`` or of servers on ``shards`` when given."""
        ...

    async def update_table_status(
        self,
        table_id: int,
        status: TableStatus,
        *,
        reason: str | None = None,
        claim: Deadline | None = None,
    ) -> TableRecord:
        """Change the status without a move (e.g. cancelling a lobby).

        ``reason`` is kept as ``closed_reason``; ``claim`` marks that deadline fired in the same
        transaction and raises :class:`DeadlineGone` (nothing written) if it is not pending.
        """
        ...

    async def set_table_setting(
        self, table_id: int, setting: TableSetting, value: str | None
    ) -> TableRecord:
        """Change one lobby setting, as a new revision so Discord shows it: ``"options"`` (the
        table options as JSON) or ``"locale"`` (the language of its public messages; ``None``:
        the server's)."""
        ...

    async def set_table_thread(self, table_id: int, thread_id: int) -> None:
        """Record the thread a table's game is played in (``0``: none may be opened), durably
        and without a new revision: it is where the messages go, not what they show."""
        ...

    async def set_seats(self, table_id: int, seats: Sequence[SeatRecord]) -> None:
        """Replace all seats of a table at once."""
        ...

    async def get_seats(self, table_id: int) -> list[SeatRecord]:
        """Seats ordered by seat number."""
        ...

    async def load_table(self, table_id: int) -> LoadedTable | None:
        """The table, its seats and the seated players' preferences in one read (a move needs
        all three), or ``None``."""
        ...

    # --- moves -------------------------------------------------------------
    async def commit_move(
        self,
        table_id: int,
        expected_version: int,
        actor_id: int | None,
        action_json: str,
        events_json: str,
        snapshot_json: str,
        *,
        status: TableStatus | None = None,
        claim: Deadline | None = None,
        timeouts: tuple[int, int] | None = None,
    ) -> int:
        """Append a move, store the new snapshot and bump the version, atomically.

        ``claim`` marks a pending deadline fired in the same transaction (raising
        :class:`DeadlineGone`, nothing written, if it already fired or was replaced), so a
        deadline's move happens exactly once even across a crash. ``timeouts`` =
        (seat, count) sets that seat's timed-out-turns counter in the same transaction.

        Returns the new version (= the move's ``seq``). Raises :class:`StaleVersion`
        if the stored version is not *expected_version*, :class:`TableNotFound`
        or :class:`TableClosed`; in all those cases nothing is written. *status*
        optionally changes the table status in the same transaction (the first
        move makes a lobby ``active``, the last one ``finished``).
        """
        ...

    async def list_moves(self, table_id: int, after_seq: int = 0) -> list[MoveRecord]:
        """Moves with ``seq > after_seq`` in order: enough to replay or audit a game."""
        ...

    async def last_human_move_at(self, table_id: int) -> datetime | None:
        """When a person last made a move at the table (None: never)."""
        ...

    # --- deadlines (migration 6) ---------------------------------------------
    async def arm_deadlines(self, table_id: int, wanted: Sequence[Deadline]) -> list[Deadline]:
        """Make ``wanted`` the table's deadlines in one transaction: kinds not wanted are
        removed; a wanted kind whose stored generation is the same is kept as it is (its due
        time and ``fired``); otherwise it is (re)placed. An empty generation means "keep
        whatever row of this kind exists". Returns the table's deadlines as stored afterwards
        (as :meth:`get_deadlines` would), so the caller need not read them back. Need not wait
        for the disk: start-up arms every open table's deadlines again (issue 11: one fsync'd
        commit per move, the move's own)."""
        ...

    async def get_deadlines(self, table_id: int) -> list[Deadline]:
        """The table's deadlines (fired ones included), by kind."""
        ...

    async def next_deadlines(self, limit: int = 16, shards: Shards | None = None) -> list[Deadline]:
        """The pending (not fired) deadlines of open tables (of servers on ``shards``, when
        given), nearest first."""
        ...

    async def claim_deadline(self, deadline: Deadline) -> bool:
        """Mark a pending deadline fired; False if it already fired or was replaced."""
        ...

    # --- messages ------------------------------------------------------------
    async def set_message_ref(self, ref: MessageRef) -> None:
        """Remember (or replace) the message of this kind for a table."""
        ...

    async def get_message_refs(self, table_id: int) -> list[MessageRef]:
        """All remembered messages of a table."""
        ...

    async def delete_message_ref(self, table_id: int, kind: str) -> None:
        """Forget a message (it was deleted or is no longer needed)."""
        ...

    async def mark_published(
        self, table_id: int, revision: int, refs: Sequence[MessageRef] = ()
    ) -> None:
        """In one transaction: store ``refs`` and record that every message of the table shows
        ``revision`` (never moving backwards). It may skip the fsync: ``refs`` are edits of
        messages already recorded, so losing this write to a power cut only makes the next
        start-up edit them again."""
        ...

    async def list_unpublished_tables(self, shards: Shards | None = None) -> list[TableRecord]:
        """Tables with a change not yet shown on Discord (open or closed), of servers on
        ``shards`` when given: start-up heals them."""
        ...

    # --- settings and preferences ----------------------------------------------
    async def get_guild_setting(self, guild_id: int, key: str) -> str | None:
        """A per-server setting, or ``None`` if unset."""
        ...

    async def set_guild_setting(self, guild_id: int, key: str, value: str | None) -> None:
        """Set a per-server setting; ``None`` removes it."""
        ...

    async def get_table_defaults(self, guild_id: int, channel_id: int) -> dict[int, dict[str, str]]:
        """The defaults of new tables set for the server (under channel ``0``) and for
        ``channel_id`` (migration 11), in one read: ``{0: {...}, channel_id: {...}}``, an empty
        mapping for a scope with none."""
        ...

    async def set_table_default(
        self, guild_id: int, channel_id: int, key: str, value: str | None
    ) -> None:
        """Set one default of new tables for the server (``channel_id`` 0) or one channel;
        ``None`` removes it (the channel then follows the server, the server the bot)."""
        ...

    async def clear_table_defaults(self, guild_id: int, channel_id: int) -> None:
        """Remove every default of one scope (the server's with ``channel_id`` 0)."""
        ...

    async def get_player_prefs(self, user_id: int) -> PlayerPrefs:
        """The user's preferences, or the defaults."""
        ...

    async def get_players_prefs(self, user_ids: Sequence[int]) -> dict[int, PlayerPrefs]:
        """Preferences of several users in one read (defaults for unknown users)."""
        ...

    async def set_player_prefs(self, prefs: PlayerPrefs) -> None:
        """Store the user's preferences (all but the DM channel, which the bot alone sets)."""
        ...

    async def set_dm_channel(self, user_id: int, channel_id: int | None) -> None:
        """Remember (or, with ``None``, forget) the bot's DM channel with the user, without
        touching the preferences a concurrent command may be changing."""
        ...

    # --- meta --------------------------------------------------------------------
    async def get_meta(self, key: str) -> str | None:
        """Bot-wide bookkeeping value (e.g. the slash-command tree hash)."""
        ...

    async def set_meta(self, key: str, value: str) -> None:
        """Set a bookkeeping value."""
        ...

    # --- recorded games, ratings and the leaderboard (migration 5) ------------------------
    async def record_game(self, game: GameRecord, rater: Rater | None = None) -> int | None:
        """Store a finished game, its players and rounds, and update ``player_stats``.

        Idempotent per ``game.table_id``: a second call for the same table writes nothing
        and returns ``None``; otherwise returns the new game id. Counters are updated for
        every human player under the game's guild and under :data:`GLOBAL_SCOPE`, for the
        game's variant and for :data:`ALL_VARIANTS`. *rater* (``None`` = unrated game) is
        called inside the same write transaction with the current ratings of every
        affected key, so no concurrent game can overwrite a rating update.
        """
        ...

    async def get_game_record(self, table_id: int) -> GameRecord | None:
        """The recorded game of a table, with players and rounds, or ``None``."""
        ...

    async def leaderboard_page(
        self, scope: int, family: str, sort: LeaderboardSort, offset: int, limit: int
    ) -> list[PlayerStats]:
        """Rows of one leaderboard in display order (sort key, then ``user_id``)."""
        ...

    async def leaderboard_size(self, scope: int, family: str) -> int:
        """How many players one leaderboard has."""
        ...

    async def leaderboard_position(
        self, scope: int, family: str, sort: LeaderboardSort, user_id: int
    ) -> tuple[int, PlayerStats] | None:
        """The 1-based rank of *user_id* in that order with their row, or ``None``."""
        ...

    async def get_player_stats(self, scope: int, user_id: int) -> list[PlayerStats]:
        """All of a player's rows in one scope (one per family), ordered by family."""
        ...

    async def rating_history(
        self, scope: int, family: str, user_id: int, limit: int
    ) -> list[RatingChange]:
        """The player's latest rating changes in that scope and family, newest first."""
        ...

    async def favourite_partner(
        self, scope: int, family: str, user_id: int
    ) -> tuple[int, int] | None:
        """(partner user id, games together) of the most frequent human partner, or ``None``.

        Ties go to the smaller user id so the answer does not flicker.
        """
        ...

    async def player_names(self, user_ids: Sequence[int]) -> dict[int, str]:
        """The seat name each user had in their latest recorded game (users without one are
        left out), so a global leaderboard can name players of other servers."""
        ...

    # --- seasons (migration 13) ---------------------------------------------------------
    async def season_rows(self, guild_id: int) -> list[SeasonRecord]:
        """Every stored season of a server, oldest first."""
        ...

    async def add_season(self, season: SeasonRecord) -> None:
        """Store a season a rated game was played in; if it is stored already, only its
        ``channel_id`` changes (the channel of its latest rated game), never its dates."""
        ...

    async def set_season_schedule(
        self, guild_id: int, starts_at: datetime, ends_at: datetime, length: str
    ) -> None:
        """Change a stored season's end and the length of the seasons after it (an admin's
        choice); whether its end was announced is kept."""
        ...

    async def rated_games_between(
        self, guild_id: int, start: datetime, end: datetime
    ) -> list[GameRecord]:
        """The server's rated games that ended in ``[start, end)``, with their players (no
        rounds), in the order they were recorded: what a season board is rated from."""
        ...

    async def pending_season_ends(
        self, limit: int = 16, shards: Shards | None = None
    ) -> list[SeasonRecord]:
        """Seasons whose end is not yet announced (of servers on ``shards``), nearest end
        first."""
        ...

    async def claim_season_end(self, guild_id: int, starts_at: datetime) -> bool:
        """Mark a season's end announced; False if it already was (or there is no such
        season): the one who gets True posts the final standings."""
        ...


#: ``player_stats.scope`` of the global rows (a guild id otherwise).
GLOBAL_SCOPE = 0
#: ``player_stats.family`` of the rows that aggregate every variant.
ALL_VARIANTS = "all"
LeaderboardSort = Literal["rating", "wins", "win_rate"]
LEADERBOARD_SORTS: tuple[LeaderboardSort, ...] = ("rating", "wins", "win_rate")


@dataclass(frozen=True, slots=True)
class GamePlayerRecord:
    """One seat of a recorded game and what that player did in it.

    ``place`` is 1 for the best side (shared on ties); ``score`` is the side's final score;
    ``rounds`` counts the rounds someone went out (void rounds are left out);
    ``penalty_total`` is what this player conceded over those rounds.
    """

    seat: int
    user_id: int | None
    is_computer: bool
    name: str | None
    side: int
    partner_id: int | None
    place: int
    won: bool
    forfeited: bool
    score: int
    rounds: int
    rounds_won: int
    penalty_total: int
    rami_sec: int
    best_opening: int


@dataclass(frozen=True, slots=True)
class GameRoundRecord:
    """One finished round: who went out (a seat or ``None`` for a void round) and how."""

    round_no: int
    winner: int | None
    outcome: str
    penalties_json: str
    points_json: str
    totals_json: str


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game as the statistics keep it (normalised into games/players/rounds)."""

    table_id: int
    guild_id: int
    channel_id: int
    variant: str
    mode: str
    options_json: str
    winner_sides_json: str
    scores_json: str
    rated: bool
    started_at: datetime
    ended_at: datetime
    players: tuple[GamePlayerRecord, ...]
    rounds: tuple[GameRoundRecord, ...] = ()
    id: int | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class SkillRating:
    """A rating as stored: the model's ``mu``/``sigma`` and the display number sorted on."""

    mu: float
    sigma: float
    rating: float


#: (scope, family, user_id)
RatingKey = tuple[int, str, int]
#: Given the current rating of every affected key (``None`` = never rated), the new ones.
Rater = Callable[[Mapping[RatingKey, SkillRating | None]], Mapping[RatingKey, SkillRating]]


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One ``player_stats`` row: counters and the rating of a player in a scope and family.

    A field made with :func:`~bot.storage.records.counter` is a counter, and its declaration
    is all the store needs: how a recorded game changes it (the statistics upsert and the
    game's row are built from these declarations). ``source`` names the
    :class:`GamePlayerRecord` field a game adds.
    """

    scope: int
    family: str
    user_id: int
    games: int = counter(Kind.SUM)
    wins: int = counter(Kind.SUM, "won")
    win_rate: float = counter(Kind.RATIO, of=("wins", "games"))
    #: The rating, set by the rater of a rated game (not a counter).
    rated_games: int = 0
    mu: float | None = None
    sigma: float | None = None
    rating: float | None = None
    rounds: int = counter(Kind.SUM, "rounds")
    rounds_won: int = counter(Kind.SUM, "rounds_won")
    penalty_total: int = counter(Kind.SUM, "penalty_total")
    rami_sec: int = counter(Kind.SUM, "rami_sec")
    best_opening: int = counter(Kind.MAX, "best_opening")
    streak: int = counter(Kind.STREAK, "won")
    best_streak: int = counter(Kind.BEST, of=("streak",))


@dataclass(frozen=True, slots=True)
class RatingChange:
    """The display rating before (``None`` = unrated) and after one rated game."""

    game_id: int
    before: float | None
    after: float


@dataclass(frozen=True, slots=True)
class SeasonRecord:
    """One season of a server: ``[starts_at, ends_at)``.

    ``length`` is what the seasons after this one last (``month``: calendar months in UTC,
    ``<n>d``: n days), so an admin's new length never moves a season already under way.
    ``channel_id`` is where its latest rated game was played (its final standings go there);
    ``posted``: its end was announced.
    """

    guild_id: int
    starts_at: datetime
    ends_at: datetime
    length: str
    channel_id: int | None = None
    posted: bool = False

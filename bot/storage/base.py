"""The records the store keeps, its errors, and the store interfaces several features share.

Why narrow Protocols plus plain dataclasses: a feature's service depends only on the interface
it uses (its own in ``bot/features/<feature>/store.py``, and the shared ones here), so the
SQLite and PostgreSQL implementations are interchangeable without touching it, and a service's
type says which data it touches. Rows are frozen dataclasses (not sqlite rows or dicts) so the calling code
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
from typing import Literal, Protocol
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
    #: Bumped by every change (move, seats, options, status); see ``mark_published`` (:class:`~bot.features.play.store.MessagesStore`).
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
class LessonProgress:
    """A player's place in the course of ``/rummy-learn lessons`` (migration 14).

    ``chapter`` is a chapter's key (or ``end`` once the course is over), ``item`` 0 its page and
    1… its exercises; ``misses`` the wrong answers to the current exercise; ``answered`` 0 while
    it is open, 1 answered right, 2 its answer shown after the second miss; ``finished`` the
    chapters done; ``step`` grows at every change (a press carries the step it was drawn at)."""

    user_id: int
    chapter: str
    item: int = 0
    misses: int = 0
    answered: int = 0
    finished: tuple[str, ...] = ()
    step: int = 0


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


# --- the store interfaces shared by several features -----------------------------------------
#
# There is no one interface of everything: each feature declares what it uses in its own
# ``store.py`` (``bot/features/play/store.py``, ``stats/store.py``, ``seasons/store.py``,
# ``defaults/store.py``), and these are the ones several features read. One class implements them
# all, for both databases (:class:`bot.storage.store.SqlStore`); a service is typed with the
# narrow ones it uses. All methods are coroutines; one write = one transaction.


class MoveLog(Protocol):
    """A table's accepted moves: play writes them, replays and statistics read them."""

    async def list_moves(self, table_id: int, after_seq: int = 0) -> list[MoveRecord]:
        """Moves with ``seq > after_seq`` in order: enough to replay or audit a game."""
        ...


class PrefsStore(Protocol):
    """Per-user display preferences (a move's hand DMs, the display settings, the reconciler)."""

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


class GuildSettingsStore(Protocol):
    """Per-server settings (the server's language, which play and the season posts read)."""

    async def get_guild_setting(self, guild_id: int, key: str) -> str | None:
        """A per-server setting, or ``None`` if unset."""
        ...

    async def set_guild_setting(self, guild_id: int, key: str, value: str | None) -> None:
        """Set a per-server setting; ``None`` removes it."""
        ...


class MetaStore(Protocol):
    """Bot-wide bookkeeping values (the slash-command tree hash, a table's play-again links)."""

    async def get_meta(self, key: str) -> str | None:
        """Bot-wide bookkeeping value (e.g. the slash-command tree hash)."""
        ...

    async def set_meta(self, key: str, value: str) -> None:
        """Set a bookkeeping value."""
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


@dataclass(frozen=True, slots=True)
class PuzzleRecord:
    """A server's puzzle of one day (``day``: YYYY-MM-DD, UTC). ``snapshot`` is a stand-in
    game holding only what the mover (``seat``) saw, as JSON; ``credit`` names the game it came
    from ("Alice vs Bob, round 3"), None for a simulated one; ``message_id`` is its post."""

    guild_id: int
    day: str
    kind: str
    puzzle_key: str
    seat: int
    snapshot: str
    credit: str | None = None
    channel_id: int | None = None
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class PuzzleSchedule:
    """Where and when a server's daily puzzle is posted: ``hour`` o'clock UTC, from ``since``
    (when a manager set it: an hour before that is no missed post)."""

    guild_id: int
    channel_id: int
    hour: int
    since: datetime


@dataclass(frozen=True, slots=True)
class PuzzleAnswer:
    """A player's answer to a server's puzzle of a day (the first one counts)."""

    guild_id: int
    day: str
    user_id: int
    answer: str
    solved: bool
    answered_at: datetime


"""What the play feature stores: its tables (seats, moves), their deadlines and the messages
that show them; what the table service and the reconciler are typed with.

Implemented once, for both databases, by :class:`bot.storage.store.SqlStore`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from bot.storage.base import (
    Deadline,
    GuildSettingsStore,
    LoadedTable,
    MessageRef,
    MetaStore,
    MoveLog,
    NewTable,
    PrefsStore,
    SeatRecord,
    Shards,
    TableRecord,
    TableSetting,
    TableStatus,
)


class TablesStore(MoveLog, Protocol):
    """Tables (lobbies and games), their seats and their move log."""

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

    async def last_human_move_at(self, table_id: int) -> datetime | None:
        """When a person last made a move at the table (None: never)."""
        ...


class DeadlinesStore(Protocol):
    """A table's delayed work (turn timers, idle lobbies), stored so a restart re-arms it."""

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


class MessagesStore(Protocol):
    """The Discord messages the bot owns for a table, and the revision they show."""

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


class PlayStore(
    TablesStore, DeadlinesStore, MessagesStore, PrefsStore, GuildSettingsStore, MetaStore, Protocol
):
    """What the table service (and its autoplay) uses: the tables, their deadlines, their
    messages' references (to move them to a new table), the seated players' preferences, the
    server's language and the play-again links kept as meta values."""


class ReconcilerStore(MessagesStore, PrefsStore, MoveLog, Protocol):
    """What the reconciler reads and writes besides the table service: the messages' references,
    the players' preferences (their hand DMs), a table's moves and deadlines."""

    async def get_deadlines(self, table_id: int) -> list[Deadline]:
        """The table's deadlines (fired ones included), by kind."""
        ...

"""What the Discord handlers need, handed to them at set-up (never the whole bot)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from typing import Protocol

import discord

from bot.features.defaults.store import TableDefaultsStore
from bot.features.learn.service import LessonService
from bot.features.play.autoplay import Autoplay
from bot.features.play.tables import Played, Table, TableService
from bot.features.play.ui.reconciler import Reconciler
from bot.features.puzzles.service import PuzzleService
from bot.features.seasons.service import SeasonService
from bot.features.stats.service import StatsService
from bot.render.drawing import Drawer
from bot.storage.base import MoveLog, PrefsStore
from bot.storage.outage import DatabaseUnavailable
from bot.text import normalise
from bot.ui.interaction import mark_saved
from bot.ui.loop_lag import LoopLag

#: How many moves (typed or pressed) one bot process carries at once; the others wait their
#: turn in order, already acknowledged (the acknowledgement comes before: bot/ui/interaction.py).
#:
#: Why: a move in progress holds about a hundred kilobytes of small Python objects (the table
#: loaded with its game, the panel's view, the requests of its answer and follow-ups, a dozen
#: coroutines). Unbounded, a burst of 300 saturating tables had ~300 in progress at once, spread
#: over some 30 new 1 MiB arenas of the interpreter's allocator; after the burst a few objects
#: that live on (a token, a URL in a cache, a task's weak reference) stayed in nearly every one,
#: and an arena is given back only when wholly empty, so the bot kept ~30 MB for good (dropping
#: every per-table state the bot keeps freed none of them: measured). With 64 at once the same
#: burst adds about 9 arenas, and the bot comes back within 10% of its figure before it. It
#: costs no throughput beyond the machine's noise (two back-to-back pairs at 300 saturating
#: tables: 285 and 310 moves/s against 312 and 304), and moves wait less, each going through
#: without hundreds of others interleaving (the slowest acknowledgement 1.2-1.3 s against
#: 2.2-3.1 s; the table shows a move at the 99th percentile after 1.4 s against 6-9 s).
#: That cap was 64, chosen at loopback. Against a Discord answering in 80 ± 40 ms
#: (``bench_load.py --latency 0.08 --jitter 0.04``, 300 saturating tables) a move is in progress
#: about 0.4 s, and 64 at once carried 152 and 163 moves/s; 128 at once carried 244 and 218,
#: as many as at loopback, the table showing a move sooner (p99 2.0-2.4 s against 2.9-3.3 s),
#: for 5 MB more at the peak (docs/performance.md; the burst figures above are 64's, at
#: loopback).
MOVES_AT_ONCE = 128


class UiStore(PrefsStore, MoveLog, TableDefaultsStore, Protocol):
    """What the handlers read and write themselves: a player's preferences, a table's moves (a
    replay), the defaults of new tables (the lobby's and the settings panel's)."""


@dataclass(frozen=True)
class UiContext:
    """The services behind the commands and buttons, and the reconciler that shows results."""

    tables: TableService
    store: UiStore
    stats: StatsService
    reconciler: Reconciler
    autoplay: Autoplay
    seasons: SeasonService
    #: Where replays are drawn (apart from the table pictures); None: with the pictures.
    replay_drawer: Drawer | None = None
    #: How far behind the event loop is (None: not watched, answers as when it is not).
    lag: LoopLag | None = None
    #: The puzzle of the day (None: a context built without it, in some tests).
    puzzles: PuzzleService | None = None
    #: The moves carried at once (see MOVES_AT_ONCE).
    moves: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(MOVES_AT_ONCE))
    #: The course of /rummy-learn lessons.
    lessons: LessonService | None = None

    async def table_id(self, interaction: discord.Interaction, table_id: int | None) -> int:
        """The table a command or click is about: the one its component names, else the open
        table of the channel it was typed in (found without loading it)."""
        if table_id is not None:
            return table_id
        return await self.tables.id_here(interaction.guild_id, interaction.channel_id)

    async def remember_player(self, interaction: discord.Interaction) -> None:
        """Keep the player's language for the messages the bot sends them unasked (their hand
        DMs). Discord only tells it when they interact; the lobby actions, start, the hand and
        the display preferences record it (a player always joins before any DM), while moves do
        not, so a move costs no extra database call."""
        language = normalise(interaction.locale.value)
        prefs = await self.store.get_player_prefs(interaction.user.id)
        if prefs.locale != language:
            await self.store.set_player_prefs(replace(prefs, locale=language))

    @contextlib.asynccontextmanager
    async def saved(
        self, interaction: discord.Interaction, change: Played | Table
    ) -> AsyncIterator[None]:
        """The block answers the player about ``change``, already committed; the change is
        published whatever becomes of that answer (Discord may fail it), and a failure then
        reaches the error path marked saved: the player is never told that nothing changed
        while the channel shows it did."""
        mark_saved(interaction)
        try:
            yield
        finally:
            await self.committed(change, interaction.user.id, interaction=interaction)

    async def committed(
        self,
        change: Played | Table,
        actor_id: int | None,
        *,
        interaction: discord.Interaction | None = None,
    ) -> None:
        """After a commit: arm what comes next (so the message shows its deadlines), then bring
        the table's messages up to date. ``interaction``: the move's or the lobby action's,
        once its private answer is sent (the table's public messages are then its follow-ups,
        outside the bot token's budget)."""
        table = change.table if isinstance(change, Played) else change
        events = change.events if isinstance(change, Played) else ()
        try:
            due = await self.autoplay.after(table)
        except DatabaseUnavailable:
            due = None  # armed when the database is back (RummyBot.database_back)
        await self.reconciler.publish(
            table, events=events, actor_id=actor_id, interaction=interaction, deadlines=due
        )

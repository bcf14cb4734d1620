"""What the defaults feature stores: the defaults of new tables, per server and per channel;
what the defaults service is typed with.

Implemented once, for both databases, by :class:`bot.storage.store.SqlStore`.
"""

from __future__ import annotations

from typing import Protocol


class TableDefaultsStore(Protocol):
    """The defaults of new tables (migration 11)."""

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

"""Files the bot sends from bytes in memory (its pictures).

Kept apart from :mod:`bot.memory`, which the drawing processes import without discord.py.
"""

from __future__ import annotations

import io

import discord


class BytesFile(discord.File):
    """A ``discord.File`` of bytes in memory that leaves no reference cycle behind when sent.

    Why: while it sends, ``discord.File`` stubs its buffer's ``close``; closing the file puts
    the buffer's own bound ``close`` back as an attribute of the buffer, so the buffer holds a
    method that holds the buffer. That cycle, with the whole PNG, then waited for the garbage
    collector's oldest generation: at the end of a burst of 300 busy tables 646 pictures
    (12 MB) were waiting. Dropping the attribute leaves the class's own ``close``, the same
    method, and the buffer is freed as soon as the file is.
    """

    def __init__(self, data: bytes, filename: str, *, description: str | None = None) -> None:
        super().__init__(io.BytesIO(data), filename=filename, description=description)

    def close(self) -> None:
        super().close()
        vars(self.fp).pop("close", None)

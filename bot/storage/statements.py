"""What the shared store hands a driver: statements, and transactions made of them.

Why generators: a transaction is written once (:mod:`bot.storage.store`) as a generator that
yields statements and receives their rows, so it can decide on what it read (a version check,
a deadline claim) without knowing how the statements travel. The SQLite driver runs the whole
generator in one hop to its database thread; the PostgreSQL driver sends one statement per
round trip. SQL uses ``?`` placeholders; the PostgreSQL driver numbers them.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

Row = tuple[Any, ...]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Stmt:
    """One SQL statement; with ``many`` it runs once per parameter row and returns no rows."""

    sql: str
    params: Sequence[Any] = ()
    many: Sequence[Sequence[Any]] | None = None


#: What a transaction yields: a statement, or a tuple of statements independent of each other
#: (none reads what another writes, none returns rows but the last), which a driver may send as
#: one. It receives the rows of the (last) statement.
Step = Stmt | tuple[Stmt, ...]
Tx = Generator[Step, list[Row], T]


def one(step: Step) -> Tx[list[Row]]:
    """A transaction of one step, returning its rows."""
    return (yield step)


def marks(count: int) -> str:
    """``?, ?, …`` for *count* parameters."""
    return ", ".join("?" for _ in range(count))


def values(rows: int, width: int) -> str:
    """``(?, ?), (?, ?)…``: a multi-row VALUES list (one statement, unlike ``executemany``)."""
    row = f"({marks(width)})"
    return ", ".join(row for _ in range(rows))


@lru_cache(maxsize=1024)
def dollar_params(sql: str) -> str:
    """Turn the shared SQL's ``?`` placeholders into ``$1, $2…``."""
    pieces = sql.split("?")
    return "".join(f"{p}${i}" for i, p in enumerate(pieces[:-1], start=1)) + pieces[-1]

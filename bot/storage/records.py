"""A stored record declared once: which table holds a frozen dataclass, and how its fields
become columns and back.

Why: a column used to be spelled in several places that had to agree by position (a column list
string, a row unpacked by index, a tuple of parameters, ``?, ?, …`` counted by hand, the
upsert's list). A :class:`Table` derives all of them from the dataclass's fields, by name: its
column list (for a SELECT, with an optional alias), the record of a row it selected
(:meth:`Table.from_row`, in the order it itself produced), an INSERT and an upsert with their
parameters (:meth:`Table.insert`, :meth:`Table.upsert`). A field whose column has another name
(``options_json`` in column ``options``) says so once; flags (0/1 in SQLite, BOOLEAN in
PostgreSQL) and times (ISO text in SQLite, TIMESTAMPTZ in PostgreSQL) are converted with the
store's own conversions, handed in as ``moment`` (a stored time to a moment) and ``time`` (back).

:func:`counter` declares a statistics counter as the field of :class:`PlayerStats
<bot.storage.base.PlayerStats>` it is: how one game adds to it (:class:`Counter`). The store
builds the statistics upsert from those declarations.

This module is today's schema: migrations never import it (they are history).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, Generic, TypeVar

from bot.storage.statements import Row, Stmt, marks, values

R = TypeVar("R")
#: A stored time to a timezone-aware moment (the store's ``_moment``).
ToMoment = Callable[[Any], datetime]
#: A timezone-aware moment to what the database stores (the store's ``_time``).
ToTime = Callable[[datetime], Any]


def _moment_marker(value: Any) -> Any:
    """Marks a time column in a table's readers: it is read with the store's ``moment``."""
    raise AssertionError("a marker, never called")


class Table(Generic[R]):
    """The table ``name`` stores records of the frozen dataclass ``record``, a field a column.

    ``columns``: a field's column where its name differs. ``flags``: fields stored as 0/1 in
    SQLite (read back as ``bool``). ``times``: datetime fields. ``checks``: a function that
    reads (and checks) a column's value, e.g. a table's status. ``skip``: fields that are no
    column of this table (a game's players are rows of their own).
    """

    def __init__(
        self,
        name: str,
        record: type[R],
        *,
        columns: Mapping[str, str] | None = None,
        flags: Iterable[str] = (),
        times: Iterable[str] = (),
        checks: Mapping[str, Callable[[Any], Any]] | None = None,
        skip: Iterable[str] = (),
    ) -> None:
        self.name = name
        self.record = record
        skipped = set(skip)
        self.fields: tuple[str, ...] = tuple(
            f.name
            for f in dataclasses.fields(record)  # type: ignore[arg-type]
            if f.name not in skipped
        )
        renamed = dict(columns or {})
        self.names: tuple[str, ...] = tuple(renamed.get(f, f) for f in self.fields)
        self.flags = frozenset(flags)
        self.times = frozenset(times)
        self._checks = dict(checks or {})
        unknown = (set(renamed) | self.flags | self.times | set(self._checks)) - set(self.fields)
        if unknown:
            raise TypeError(f"{name}: no such field of {record.__name__}: {sorted(unknown)}")
        self.width = len(self.fields)
        #: How each column is read: as it is (None), a moment, a flag, or a check.
        self._readers: tuple[Callable[[Any], Any] | None, ...] = tuple(
            self._checks.get(f)
            or (_moment_marker if f in self.times else bool if f in self.flags else None)
            for f in self.fields
        )
        self._read = self._compile_reader()
        self._writers: dict[tuple[str, ...], Callable[[R, ToTime], tuple[Any, ...]]] = {}
        self._column = dict(zip(self.fields, self.names, strict=True))

    def column(self, field: str) -> str:
        """The column of one field."""
        return self._column[field]

    def columns(self, alias: str = "", *, omit: Iterable[str] = ()) -> str:
        """``c1, c2, …`` (each ``alias.c`` with an alias) in field order, for a SELECT."""
        left_out = set(omit)
        prefix = f"{alias}." if alias else ""
        return ", ".join(f"{prefix}{c}" for f, c in self._column.items() if f not in left_out)

    # --- reading ---------------------------------------------------------------------------

    def from_row(self, row: Row, moment: ToMoment, start: int = 0, **given: Any) -> R:
        """The record of ``row[start:start + width]``, a row of :meth:`columns`; ``given``
        supplies the fields that are no columns here (``skip``)."""
        return self._read(row, moment, start, given)

    def _compile_reader(self) -> Callable[[Row, ToMoment, int, dict[str, Any]], R]:
        """A function that builds the record from a row, each field by its name
        (``record(id=c0, status=check(c4), …)``), written out once like a dataclass's own
        ``__init__``: a move reads a table and its seats, and a loop over the columns cost
        more than the read itself."""
        scope: dict[str, Any] = {"record": self.record}
        cells = [f"c{i}" for i in range(self.width)]
        arguments = []
        for i, (field, reader) in enumerate(zip(self.fields, self._readers, strict=True)):
            if reader is None:
                arguments.append(f"{field}=c{i}")
                continue
            call = "moment" if reader is _moment_marker else f"read{i}"
            scope[f"read{i}"] = reader
            arguments.append(f"{field}=None if c{i} is None else {call}(c{i})")
        unpack = f"({', '.join(cells)},) = row[start:start + {self.width}]"
        source = (
            "def read(row, moment, start, given):\n"
            f"    {unpack}\n"
            f"    return record({', '.join(arguments)}, **given)\n"
        )
        exec(source, scope)  # our own text, made of the dataclass's field names
        read: Callable[[Row, ToMoment, int, dict[str, Any]], R] = scope["read"]
        return read

    # --- writing -----------------------------------------------------------------------------

    def params(self, record: R, time: ToTime, *, omit: Iterable[str] = ()) -> tuple[Any, ...]:
        """The record's values in :meth:`columns` order, as the database stores them."""
        left_out = tuple(omit)
        write = self._writers.get(left_out)
        if write is None:
            write = self._writers[left_out] = self._compile_writer(left_out)
        return write(record, time)

    def _compile_writer(self, omit: tuple[str, ...]) -> Callable[[R, ToTime], tuple[Any, ...]]:
        """``(r.id, time(r.created_at), …)`` written out once, like :meth:`_compile_reader`."""
        values = []
        for field in self.fields:
            if field in omit:
                continue
            if field in self.times:
                values.append(f"None if r.{field} is None else time(r.{field})")
            else:
                values.append(f"r.{field}")
        scope: dict[str, Any] = {}
        exec(f"def write(r, time):\n    return ({', '.join(values)},)\n", scope)
        write: Callable[[R, ToTime], tuple[Any, ...]] = scope["write"]
        return write

    def insert_sql(self) -> str:
        """The INSERT of one whole record, for a statement built once (a move's)."""
        return f"INSERT INTO {self.name} ({', '.join(self.names)}) VALUES ({marks(self.width)})"

    def insert(
        self,
        records: Sequence[R],
        time: ToTime,
        *,
        extra: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
        omit: Iterable[str] = (),
        alias: str = "",
        one_statement: bool = False,
        then: str = "",
    ) -> Stmt:
        """``INSERT INTO name (extra…, columns…) VALUES …`` of ``records``: one execution per
        record (``many``), or with ``one_statement`` a single multi-row VALUES. ``extra``:
        columns that are no field (a seat's ``table_id``), shared by every row or one mapping
        per record; ``omit``: fields
        left to the column's default (a new id); ``then``: what follows (``ON CONFLICT …``,
        ``RETURNING …``)."""
        left_out = tuple(omit)
        each = (
            [dict(e) for e in extra]
            if isinstance(extra, Sequence)
            else [dict(extra or {})] * len(records)
        )
        if len(each) != len(records):
            raise ValueError(f"{self.name}: {len(records)} records but {len(each)} extras")
        shared = list(each[0]) if each else list(extra or ()) if isinstance(extra, Mapping) else []
        names = [*shared, *(c for f, c in self._column.items() if f not in left_out)]
        head = f"INSERT INTO {self.name}{f' AS {alias}' if alias else ''} ({', '.join(names)})"
        rows = [
            (*(e[n] for n in shared), *self.params(r, time, omit=left_out))
            for e, r in zip(each, records, strict=True)
        ]
        tail = f" {then}" if then else ""
        if one_statement:
            return Stmt(
                f"{head} VALUES {values(len(rows), len(names))}{tail}",
                [v for row in rows for v in row],
            )
        if len(rows) == 1:
            return Stmt(f"{head} VALUES ({marks(len(names))}){tail}", rows[0])
        return Stmt(f"{head} VALUES ({marks(len(names))}){tail}", many=rows)

    def upsert(
        self,
        records: Sequence[R],
        time: ToTime,
        *,
        key: Sequence[str],
        update: Mapping[str, str | None],
        extra: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
        alias: str = "",
        where: str = "",
        one_statement: bool = False,
    ) -> Stmt:
        """:meth:`insert` that, on a row with the same ``key`` (fields), sets each field of
        ``update`` to its expression (``None``: the inserted value, ``excluded.<column>``)."""
        sets = ", ".join(
            f"{self._column.get(f, f)} = "
            f"{f'excluded.{self._column.get(f, f)}' if expr is None else expr}"
            for f, expr in update.items()
        )
        conflict = ", ".join(self._column.get(f, f) for f in key)
        then = f"ON CONFLICT ({conflict}) DO UPDATE SET {sets}{f' WHERE {where}' if where else ''}"
        return self.insert(
            records, time, extra=extra, alias=alias, one_statement=one_statement, then=then
        )


# --- statistics counters ---------------------------------------------------------------------


class Kind(Enum):
    """How one game changes a counter (``s`` is the stored row, ``excluded`` this game's)."""

    #: Added up: ``s.c + excluded.c``.
    SUM = "sum"
    #: The largest seen: ``GREATEST(s.c, excluded.c)``.
    MAX = "max"
    #: Games in a row with the fact: ``s.c + 1`` when this game has it, else 0.
    STREAK = "streak"
    #: The longest streak ``of`` another counter ever reached.
    BEST = "best"
    #: ``of[0] / of[1]`` of two counters, as a real number.
    RATIO = "ratio"


@dataclass(frozen=True, slots=True)
class Counter:
    """One ``player_stats`` counter: what a game adds (``source``: a field of
    :class:`~bot.storage.base.GamePlayerRecord`; ``None`` counts the game itself, 1) and how
    (``kind``); ``of`` names the counters a BEST or RATIO is computed from."""

    kind: Kind
    source: str | None = None
    of: tuple[str, ...] = ()

    def first(self, player: Any, counters: Mapping[str, Any]) -> Any:
        """This counter in a game's row (its value after one game), from the player's
        record and the values of the counters declared before it."""
        if self.kind is Kind.RATIO:
            return float(counters[self.of[0]]) / counters[self.of[1]]
        if self.kind is Kind.BEST:
            return counters[self.of[0]]
        if self.source is None:
            return 1
        value = getattr(player, self.source)
        return int(value) if isinstance(value, bool) else value

    def update(self, column: str, greatest: str) -> str:
        """The ``DO UPDATE`` expression, in the row as it was before this game."""
        if self.kind is Kind.SUM:
            return f"s.{column} + excluded.{column}"
        if self.kind is Kind.MAX:
            return f"{greatest}(s.{column}, excluded.{column})"
        if self.kind is Kind.STREAK:
            return f"CASE WHEN excluded.{column} = 1 THEN s.{column} + 1 ELSE 0 END"
        if self.kind is Kind.BEST:
            streak = Counter(Kind.STREAK).update(self.of[0], greatest)
            return f"{greatest}(s.{column}, {streak})"
        top, bottom = self.of
        return (
            f"CAST(s.{top} + excluded.{top} AS DOUBLE PRECISION) / (s.{bottom} + excluded.{bottom})"
        )


def counter(kind: Kind, source: str | None = None, *, of: tuple[str, ...] = ()) -> Any:
    """A ``PlayerStats`` field that is a counter (0 until a game adds to it)."""
    zero: int | float = 0.0 if kind is Kind.RATIO else 0
    return dataclasses.field(default=zero, metadata={"counter": Counter(kind, source, of)})


def counters(record: type[Any]) -> tuple[tuple[str, Counter], ...]:
    """The counters a dataclass declares with :func:`counter`, in declaration order."""
    return tuple(
        (f.name, f.metadata["counter"])
        for f in dataclasses.fields(record)
        if "counter" in f.metadata
    )


class StatsTable(Table[R]):
    """The ``player_stats`` table: its key, its counters and the upsert a game makes."""

    def __init__(self, name: str, record: type[R], key: tuple[str, ...]) -> None:
        super().__init__(name, record)
        self.key = key
        self.counters = counters(record)
        self._upserts: dict[str, str] = {}

    def game_row(self, key: Sequence[Any], player: Any) -> tuple[Any, ...]:
        """The parameters of :meth:`game_upsert` for one (scope, family, user) and player."""
        found: dict[str, Any] = {}
        for name, declared in self.counters:
            found[name] = declared.first(player, found)
        return (*key, *found.values())

    def game_upsert(self, greatest: str) -> str:
        """Insert a game's row, or add it to the stored one. Every DO UPDATE expression reads
        the row as it was before this game (so ``s.streak + 1`` includes this game)."""
        cached = self._upserts.get(greatest)
        if cached is not None:
            return cached
        names = [*self.key, *(self.column(n) for n, _ in self.counters)]
        sets = ", ".join(
            f"{self.column(n)} = {c.update(self.column(n), greatest)}" for n, c in self.counters
        )
        sql = (
            f"INSERT INTO {self.name} AS s ({', '.join(names)}) VALUES ({marks(len(names))}) "
            f"ON CONFLICT ({', '.join(self.key)}) DO UPDATE SET {sets}"
        )
        self._upserts[greatest] = sql
        return sql

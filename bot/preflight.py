"""The checks made before the bot opens a database or contacts Discord, in one place.

Why one module: ``run``, ``sync``, ``migrate``, ``copy-db`` and ``doctor`` must agree on what an
unusable database is. Found here, an operator's mistake (a folder the bot cannot write, a
read-only file, a text file named as the database, a font missing from the install) is one
sentence before anything happens; found later, it is a traceback after logging in to Discord,
with ``-wal``/``-shm`` files left beside a database the bot could never write.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from bot.render.png import png_size
from bot.storage import NotADatabase
from bot.storage.sqlite import check_database_file
from bot.text import t

if TYPE_CHECKING:
    from bot.render.drawing import Drawer

Level = Literal["ok", "problem", "note"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One line of what was checked: ``doctor`` prints them all, the other verbs the problems."""

    level: Level
    text: str


def sqlite_findings(path: Path) -> list[Finding]:
    """Whether the bot can create, open and write the SQLite database at *path* (tried, not
    guessed: permission bits say nothing for root or on a read-only mount)."""
    folder = path.parent
    if not folder.is_dir():
        return [Finding("problem", t("doctor.db.dir_missing", path=folder))]
    found: list[Finding] = []
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".rummy-doctor-"):
            pass
    except OSError:
        found.append(Finding("problem", t("doctor.db.not_writable", path=folder)))
    else:
        found.append(Finding("ok", t("doctor.db.writable", path=folder)))
    if not path.exists():
        found.append(Finding("note", t("doctor.db.absent")))
        return found
    try:
        check_database_file(path)
    except NotADatabase as error:
        found.append(Finding("problem", t("doctor.db.not_a_database", path=path, why=error.why)))
        return found
    except OSError as error:
        found.append(Finding("problem", t("doctor.db.unreadable", error=error.strerror)))
        return found
    try:
        with path.open("r+b"):
            pass
    except OSError as error:
        found.append(
            Finding("problem", t("doctor.db.file_read_only", path=path, error=error.strerror))
        )
    else:
        found.append(Finding("ok", t("doctor.db.file_writable", path=path)))
    return found


def database_findings(target: str | Path) -> list[Finding]:
    """The checks for a ``RUMMY_DATABASE`` value; a PostgreSQL URL is checked by connecting,
    which :mod:`bot.cli`'s doctor does and the store's ``open`` reports."""
    return [] if isinstance(target, str) else sqlite_findings(target)


async def drawing_finding(drawer: Drawer) -> Finding:
    """Draw a real hand of cards where the bot draws (its drawing process) and read the PNG's
    size back: the font and the palette are package data, and an install that lost them would
    fail on the first hand of the first game. The size comes from the PNG's header, not from
    Pillow, which the bot's own process never loads."""
    from bot.render import examples

    try:
        width, height = png_size(await drawer.png(examples.hand_15()))
    except Exception as error:  # whatever stops the drawing is what the operator must read
        return Finding("problem", t("doctor.drawing.failed", error=last_line(error)))
    return Finding("ok", t("doctor.drawing.ok", width=width, height=height))


def last_line(error: Exception) -> str:
    """An error as one line: a drawing process reports its whole traceback, whose last line
    says what went wrong."""
    lines = [line for line in str(error).splitlines() if line.strip()]
    return lines[-1].strip() if lines else type(error).__name__


def problems(findings: list[Finding]) -> list[str]:
    """The sentences of the findings that stop the bot."""
    return [finding.text for finding in findings if finding.level == "problem"]

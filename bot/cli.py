"""The ``rummy-bot`` command: run, sync, migrate, doctor, copy-db, simulate, demo.

Why the care about messages: the first thing most people do is run the command
before configuring anything. They should get a sentence saying what to do next,
never a traceback, and the token must never be echoed back.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import sqlite3
import sys
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from bot.config import (
    ConfigError,
    Settings,
    application_id_from_token,
    load_settings,
    mask_token,
    token_is_well_formed,
)
from bot.preflight import (
    Finding,
    Level,
    database_findings,
    drawing_finding,
    problems,
    sqlite_findings,
)
from bot.storage import (
    LATEST_VERSION,
    StorageError,
    Store,
    describe_target,
    driver_errors,
    is_postgres_url,
    make_store,
)
from bot.storage.migrations.postgres import get_schema_version
from bot.text import DEFAULT_LOCALE, t

if TYPE_CHECKING:
    import asyncpg

    from bot.app import RummyBot
    from bot.render.drawing import Drawer

T = TypeVar("T")

EXIT_OK = 0
EXIT_PROBLEM = 1
EXIT_USAGE = 2  # missing or invalid configuration, like argparse's own usage errors

COMMANDS = ("run", "sync", "migrate", "doctor")


DEFAULT_ENV_FILE = Path(".env")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser; ``--help`` lists every sub-command, and ``--env-file`` is taken
    before or after any of them."""
    # SUPPRESS: a sub-command that is not given --env-file keeps the one given before it.
    env = argparse.ArgumentParser(add_help=False)
    env.add_argument(
        "--env-file", type=Path, default=argparse.SUPPRESS, metavar="PATH",
        help=t("cli.help.env_file"),
    )
    parser = argparse.ArgumentParser(
        prog="rummy-bot", description=t("cli.description"), parents=[env]
    )
    sub = parser.add_subparsers(dest="command")
    for name in COMMANDS:
        sub.add_parser(
            name, help=t(f"cli.help.{name}"), description=t(f"cli.help.{name}"), parents=[env]
        )
    copy = sub.add_parser(
        "copy-db", help=t("cli.help.copy_db"), description=t("cli.help.copy_db"), parents=[env]
    )
    copy.add_argument("source", metavar="FROM", type=database_argument)
    copy.add_argument("target", metavar="TO", type=database_argument)
    from bot.offline import add_offline_commands

    add_offline_commands(sub, parents=[env])
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``rummy-bot`` console script; returns the exit code.

    A reader that stops early (``rummy-bot doctor | head``) ends the output quietly: the rest
    of it goes to the null device instead of a ``BrokenPipeError`` traceback at exit.
    """
    code = EXIT_PROBLEM
    try:
        try:
            code = _dispatch(argv)
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return code


def _dispatch(argv: Sequence[str] | None) -> int:
    args = build_parser().parse_args(argv)
    command: str = args.command or "run"
    named: Path | None = getattr(args, "env_file", None)
    if named is not None and not (Path.cwd() / named).is_file():
        print(t("config.env_file_missing", path=Path.cwd() / named), file=sys.stderr)
        return EXIT_USAGE
    env_file = named or DEFAULT_ENV_FILE

    if command == "doctor":
        return doctor(env_file, out=sys.stdout)
    if command == "copy-db":
        return copy_db(args.source, args.target, out=sys.stdout)
    if command in ("simulate", "demo"):
        from bot.offline import run_offline

        return run_offline(args)

    try:
        settings = load_settings(env_file=env_file)
    except ConfigError as error:
        problems = "\n".join(f"  - {p}" for p in error.problems)
        print(t("cli.config_error", problems=problems), file=sys.stderr)
        return EXIT_USAGE

    if command == "migrate":
        return migrate(settings, out=sys.stdout)

    if not settings.discord_token:
        print(t("cli.no_token"), file=sys.stderr)
        return EXIT_USAGE
    if preflight_refuses(settings.database_target):
        return EXIT_PROBLEM
    return run_bot(settings, settings.discord_token, sync_only=command == "sync")


def preflight_refuses(*targets: str | Path) -> bool:
    """Whether a database cannot be used, said in one sentence on stderr: the checks
    ``doctor`` reports, made by every verb before it opens anything (``run`` checks the
    drawing then, with the bot's own drawing process: :func:`_check_drawing`)."""
    for target in targets:
        sentences = problems(database_findings(target))
        if sentences:
            print(
                t("cli.database_unusable", path=describe_target(target), problems=" ".join(sentences)),
                file=sys.stderr,
            )
            return True
    return False


def run_event_loop(main: Coroutine[Any, Any, T]) -> T:
    """Run the bot's event loop: uvloop where it is installed (a dependency except on Windows),
    else asyncio's own. Measured with ``benchmarks/bench_load.py`` at 100 busy tables, three
    pairs back to back: 6 % less CPU per move and 8 % more moves per second with uvloop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def run_bot(settings: Settings, token: str, *, sync_only: bool) -> int:
    """Run the bot until a signal (``run``) or just push the commands (``sync``)."""
    # Imported here so that --help, migrate and the no-token message stay fast.
    import aiohttp
    import discord

    from bot.app import BOT_CLOCK, make_bot
    from bot.logs import configure_logging

    configure_logging(settings)
    store = make_store(settings.database_target, clock=BOT_CLOCK)
    bot = make_bot(settings, store, force_sync=sync_only, restore_tables=not sync_only)
    try:
        if sync_only:
            asyncio.run(_sync_and_exit(bot, store, token))
            scope = (
                t("cli.sync.scope_global")
                if settings.dev_guild_id is None
                else t("cli.sync.scope_guild", guild_id=settings.dev_guild_id)
            )
            print(t("cli.sync.done", scope=scope))
        else:
            run_event_loop(_serve(bot, store, token))
    except CannotStart as problem:
        print(t("cli.cannot_start", problem=problem), file=sys.stderr)
        return EXIT_PROBLEM
    except discord.LoginFailure:
        print(t("cli.login_failed"), file=sys.stderr)
        return EXIT_PROBLEM
    except StorageError as error:
        print(t("cli.database_error", path=_named(settings), error=error), file=sys.stderr)
        return EXIT_PROBLEM
    except (OSError, aiohttp.ClientError, discord.GatewayNotFound, discord.DiscordServerError) as error:
        # The database is opened (and its errors reported) before Discord is contacted, so
        # what fails from here on is the network.
        print(t("cli.network_error", error=error), file=sys.stderr)
        return EXIT_PROBLEM
    return EXIT_OK


def database_argument(value: str) -> str | Path:
    """A ``postgresql://`` URL as it is; anything else is a file path (relative to here)."""
    return value if is_postgres_url(value) else Path(value).expanduser().absolute()


def _named(settings: Settings) -> str:
    """The database as messages name it (a URL without its password)."""
    return describe_target(settings.database_target)


async def _open_store(store: Store) -> None:
    """Open (and migrate) before logging in, so a database problem is reported as one without
    contacting Discord; setup_hook's open() is then a no-op."""
    try:
        await store.open()
    except driver_errors() as error:
        raise StorageError(str(error)) from error


class CannotStart(Exception):
    """What stops ``run`` before it opens the database, as the sentence to print."""


async def _check_drawing(drawer: Drawer) -> None:
    """Draw a hand through the bot's own drawer before anything else (its first drawing
    process is started by it, and kept), so a broken install is one sentence."""
    finding = await drawing_finding(drawer)
    if finding.level == "problem":
        await drawer.close()
        raise CannotStart(finding.text)


async def _serve(bot: RummyBot, store: Store, token: str) -> None:
    await _check_drawing(bot.drawer)
    await _open_store(store)
    # What is alive now (modules, catalogues, the engine's tables) lives as long as the process:
    # frozen, the collector's full passes no longer walk it. Measured at 10 busy tables: a full
    # pass took ~45 ms, ~14 ms frozen.
    gc.collect()
    gc.freeze()
    try:
        await bot.serve(token)
    finally:
        await store.close()


async def _sync_and_exit(bot: RummyBot, store: Store, token: str) -> None:
    await _open_store(store)
    try:
        await bot.login(token)  # runs setup_hook, which syncs (forced)
    finally:
        await bot.close()
        await store.close()


def migrate(settings: Settings, *, out: TextIO) -> int:
    """Create or upgrade the database and print the versions before and after."""
    target = settings.database_target
    if preflight_refuses(target):
        return EXIT_PROBLEM
    try:
        before = asyncio.run(read_schema_version(target))
        after = asyncio.run(_open_and_report(target))
    except driver_errors(StorageError) as error:
        print(t("cli.database_error", path=_named(settings), error=error), file=sys.stderr)
        return EXIT_PROBLEM
    if before == after:
        print(t("cli.migrate.up_to_date", path=_named(settings), target=LATEST_VERSION), file=out)
    else:
        print(
            t(
                "cli.migrate.done",
                path=_named(settings),
                before=before,
                after=after,
                target=LATEST_VERSION,
            ),
            file=out,
        )
    return EXIT_OK


async def _open_and_report(target: str | Path) -> int:
    async with make_store(target) as store:
        return await store.schema_version()


async def read_schema_version(target: str | Path) -> int:
    """The schema version of *target* without changing it (0 for a new database)."""
    if isinstance(target, str):
        import asyncpg

        try:
            conn = await asyncpg.connect(target)
        except (OSError, asyncpg.PostgresError) as error:
            raise StorageError(str(error)) from error
        try:
            return await get_schema_version(conn)
        finally:
            await conn.close()
    if not target.exists():
        return 0
    with contextlib.closing(sqlite3.connect(target)) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


# --- copy-db ----------------------------------------------------------------------------


def copy_db(source: str | Path, target: str | Path, *, out: TextIO) -> int:
    """Copy one database into another, empty one and report the checks in sentences."""
    from bot.services.copydb import CopyRefused, copy_database

    names = {"source": describe_target(source), "target": describe_target(target)}
    if preflight_refuses(source, target):
        return EXIT_PROBLEM
    try:
        result = asyncio.run(copy_database(source, target))
    except CopyRefused as refused:
        print(t(refused.key, DEFAULT_LOCALE, **refused.params), file=sys.stderr)
        return EXIT_PROBLEM
    except driver_errors(StorageError) as error:
        print(t("cli.copy.error", error=error, **names), file=sys.stderr)
        return EXIT_PROBLEM
    for count in result.counts:
        if count.source == count.target:
            print(t("cli.copy.table_ok", table=count.table, count=count.target), file=out)
        else:
            print(t("cli.copy.table_differs", table=count.table, source_rows=count.source,
                    target_rows=count.target), file=out)
    print(t("cli.copy.replayed", count=result.replayed), file=out)
    for table_id, why in result.bad_replays:
        why = why or t("cli.copy.positions_differ")
        print(t("cli.copy.replay_differs", table_id=table_id, why=why), file=out)
    if not result.ok:
        print(t("cli.copy.failed", **names), file=out)
        return EXIT_PROBLEM
    print(t("cli.copy.done", **names), file=out)
    return EXIT_OK


# --- doctor ---------------------------------------------------------------------------

@dataclass
class Report:
    """Lines of the doctor report; problems make the command exit non-zero."""

    lines: list[tuple[Level, str]] = field(default_factory=list)

    def add(self, level: Level, text: str) -> None:
        self.lines.append((level, text))

    def extend(self, findings: list[Finding]) -> None:
        self.lines.extend((finding.level, finding.text) for finding in findings)

    @property
    def problems(self) -> int:
        return sum(1 for level, _ in self.lines if level == "problem")

    def render(self) -> str:
        labels = {
            "ok": t("doctor.ok"),
            "problem": t("doctor.problem"),
            "note": t("doctor.note"),
        }
        width = max(len(label) for label in labels.values()) + 2
        body = [f"{('[' + labels[level] + ']').ljust(width)} {text}" for level, text in self.lines]
        summary = (
            t("doctor.summary.problems", count=self.problems)
            if self.problems
            else t("doctor.summary.ok")
        )
        return "\n".join([t("doctor.title"), "", *body, "", summary])


def doctor(env_file: Path, *, out: TextIO) -> int:
    """Check the configuration, print what was found, exit 1 if anything is wrong."""
    report = Report()
    env_path = env_file if env_file.is_absolute() else Path.cwd() / env_file
    state = "doctor.settings_file.found" if env_path.is_file() else "doctor.settings_file.absent"
    report.add("note", t("doctor.settings_file", path=env_path, state=t(state)))
    try:
        settings = load_settings(env_file=env_file)
    except ConfigError as error:
        for problem in error.problems:
            report.add("problem", problem)
    else:
        _check_token(settings, report)
        if settings.database_url is None:
            _check_database(settings.database, report)
        else:
            _check_postgres(settings.database_url, report)
        report.extend([asyncio.run(_drawing_in_a_drawing_process(settings))])
        _describe_settings(settings, report)
    print(report.render(), file=out)
    return EXIT_PROBLEM if report.problems else EXIT_OK


async def _drawing_in_a_drawing_process(settings: Settings) -> Finding:
    """What ``run`` checks, where it draws: a drawing process (or this process's threads
    when the settings ask for none)."""
    from bot.render.drawing import make_drawer

    drawer = make_drawer(min(1, settings.drawing_processes))
    try:
        return await drawing_finding(drawer)
    finally:
        await drawer.close()


def _check_token(settings: Settings, report: Report) -> None:
    token = settings.discord_token
    if not token:
        report.add("problem", t("doctor.token.missing"))
        return
    masked = mask_token(token)
    if not token_is_well_formed(token):
        report.add("problem", t("doctor.token.bad_format", masked=masked))
        return
    report.add("ok", t("doctor.token.ok", masked=masked))
    app_id = application_id_from_token(token)
    if app_id is not None:
        from bot.app import invite_url, required_permissions

        report.add("note", t("doctor.token.app_id", app_id=app_id))
        report.add("note", t("doctor.invite", url=invite_url(app_id)))
        names = [t(f"threads.perm.{name}") for name, on in required_permissions() if on]
        report.add("note", t("threads.doctor.permissions", permissions=", ".join(names)))


def _check_database(path: Path, report: Report) -> None:
    report.add("note", t("doctor.db.path", path=path))
    findings = sqlite_findings(path)
    report.extend(findings)
    if problems(findings) or not path.exists():
        return
    try:
        with contextlib.closing(sqlite3.connect(path)) as conn:
            integrity = str(conn.execute("PRAGMA quick_check").fetchone()[0])
            current = int(conn.execute("PRAGMA user_version").fetchone()[0])
            journal = str(conn.execute("PRAGMA journal_mode").fetchone()[0])
            counts: tuple[int, int] | None = None
            if 1 <= current <= LATEST_VERSION:
                row = conn.execute(
                    "SELECT COUNT(*) FILTER (WHERE status IN ('lobby', 'active')), COUNT(*) "
                    "FROM tables"
                ).fetchone()
                counts = (int(row[0]), int(row[1]))
    except sqlite3.Error as error:
        report.add("problem", t("doctor.db.unreadable", error=error))
        return
    if integrity == "ok":
        report.add("ok", t("doctor.db.integrity_ok"))
    else:
        report.add("problem", t("doctor.db.integrity", result=integrity))
    _report_version(current, report)
    report.add("note", t("doctor.db.journal", mode=journal))
    if counts is not None:
        report.add("note", t("doctor.db.tables", active=counts[0], total=counts[1]))


@dataclass
class PostgresProbe:
    """What ``doctor`` learnt from a PostgreSQL server without changing anything."""

    server: str
    schema_version: int
    counts: tuple[int, int] | None
    write_error: str | None


async def _probe_postgres(url: str) -> PostgresProbe:
    import asyncpg

    conn = await asyncpg.connect(url, timeout=10)
    try:
        server = server_version(conn)
        current = await get_schema_version(conn)
        counts: tuple[int, int] | None = None
        if 1 <= current <= LATEST_VERSION:
            row = await conn.fetchrow(
                "SELECT COUNT(*) FILTER (WHERE status IN ('lobby', 'active')), COUNT(*) "
                "FROM tables"
            )
            counts = (int(row[0]), int(row[1]))
        write_error: str | None = None
        probe = conn.transaction()
        await probe.start()
        try:
            # What migrate and every move need: create a table and write to it.
            await conn.execute("CREATE TABLE rummy_doctor_probe (x INTEGER)")
            await conn.execute("INSERT INTO rummy_doctor_probe VALUES (1)")
        except asyncpg.PostgresError as error:
            write_error = str(error)
        finally:
            await probe.rollback()
        return PostgresProbe(server, current, counts, write_error)
    finally:
        await conn.close()


def server_version(conn: asyncpg.Connection) -> str:
    """The server's version as it reports it ("15.18"); asyncpg's tuple puts a 10-or-later
    release's minor number in ``micro`` (15.18 is (15, 0, 18)), which read "15.0"."""
    reported = conn.get_settings().server_version
    return str(reported).split(" ", 1)[0]


def _check_postgres(url: str, report: Report) -> None:
    import asyncpg

    report.add("note", t("doctor.db.url", url=describe_target(url)))
    try:
        found = asyncio.run(_probe_postgres(url))
    except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        report.add("problem", t("doctor.db.pg_unreachable", error=error))
        return
    report.add("ok", t("doctor.db.pg_connected", version=found.server))
    if found.write_error is None:
        report.add("ok", t("doctor.db.pg_writable"))
    else:
        report.add("problem", t("doctor.db.pg_read_only", error=found.write_error))
    _report_version(found.schema_version, report)
    if found.counts is not None:
        report.add("note", t("doctor.db.tables", active=found.counts[0], total=found.counts[1]))


def _report_version(current: int, report: Report) -> None:
    if current == LATEST_VERSION:
        report.add("ok", t("doctor.db.version_current", current=current, target=LATEST_VERSION))
    elif current < LATEST_VERSION:
        report.add("note", t("doctor.db.version_behind", current=current, target=LATEST_VERSION))
    else:
        report.add("problem", t("doctor.db.version_ahead", current=current, target=LATEST_VERSION))


def _describe_settings(settings: Settings, report: Report) -> None:
    guild = (
        str(settings.dev_guild_id)
        if settings.dev_guild_id is not None
        else t("doctor.settings.guild_none")
    )
    report.add("note", t("doctor.settings.guild", guild=guild))
    report.add("note", t("doctor.settings.log_level", level=settings.log_level))
    report.add("note", t("doctor.settings.next_round", value=settings.next_round_delay_seconds))
    _describe_shards(settings, report)


def _describe_shards(settings: Settings, report: Report) -> None:
    shards = settings.shards
    if shards is None:
        report.add("note", t("doctor.settings.unsharded"))
        return
    ids = ", ".join(str(i) for i in shards.ids)
    report.add("note", t("doctor.settings.shards", ids=ids, count=shards.count))
    if not shards.everything and settings.database_url is None:
        report.add("note", t("doctor.settings.shards_on_sqlite"))


if __name__ == "__main__":
    sys.exit(main())

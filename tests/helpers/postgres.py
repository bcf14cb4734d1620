"""A throw-away PostgreSQL server for tests, CI and benchmarks: start, give a DSN, stop.

Why a helper of our own: the test suite runs on both stores, and a developer who types the
README's test command has no PostgreSQL running. The machine's PostgreSQL server binaries
(Debian's ``/usr/lib/postgresql/<n>/bin``) are enough: ``initdb`` a cluster in a temporary
folder, start it on a free loopback port (and a unix socket in that folder), and remove the
whole folder when done. The server refuses to run as root, so as root it runs as the
``postgres`` user (or ``nobody``) through ``runuser``.

Command line (``.ci/run`` uses it)::

    python -m tests.helpers.postgres start DIR   # prints the DSN; DIR must not exist
    python -m tests.helpers.postgres stop DIR    # stops the server and removes DIR
"""

from __future__ import annotations

import argparse
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: The environment variable naming an already running server; the tests start one otherwise.
ENV_TEST_POSTGRES = "RUMMY_TEST_POSTGRES"
#: The database created in every throw-away cluster.
DATABASE = "rummy"
SUPERUSER = "rummy"
#: Durability off: a test server is thrown away, and fsyncs would only slow the suite down.
FAST_SETTINGS = ("fsync=off", "synchronous_commit=off", "full_page_writes=off")


def find_bindir() -> Path:
    """The folder of ``initdb`` and ``pg_ctl``, newest PostgreSQL first."""
    candidates = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    for folder in candidates:
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    raise RuntimeError(
        "no PostgreSQL server binaries found (initdb, pg_ctl); install them with "
        "`apt-get install -y postgresql-15` (or `postgresql`)"
    )


def _server_user() -> str | None:
    """Who runs the server: nobody to switch to unless we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise RuntimeError("running as root and neither a postgres nor a nobody user exists")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Server:
    """A running throw-away cluster. ``dsn`` reaches its ``rummy`` database through the unix
    socket in its folder (about twice as fast as loopback TCP, which it also listens on)."""

    folder: Path
    port: int
    user: str | None

    @property
    def dsn(self) -> str:
        return f"postgresql://{SUPERUSER}@/{DATABASE}?host={self.folder}&port={self.port}"

    @property
    def tcp_dsn(self) -> str:
        """The same database over loopback TCP (what a bot on another host would use)."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{DATABASE}"

    def restart(self) -> None:
        """Restart the server (fast shutdown: every connection is cut), as an operator's
        restart or a crash-and-recover does; the same data and address afterwards."""
        _run(self.user, [str(find_bindir() / "pg_ctl"), "restart", "-D",
                         str(self.folder / "data"), "-m", "fast", "-w", "-t", "60",
                         "-l", str(self.folder / "server.log")])  # (not our pipe: it stays open)

    def halt(self) -> None:
        """Stop the server (fast: every connection is cut), keeping its data."""
        _run(self.user, [str(find_bindir() / "pg_ctl"), "stop", "-D",
                         str(self.folder / "data"), "-m", "fast", "-w"])

    def resume(self) -> None:
        """Start the halted server again, at the same address."""
        _run(self.user, [str(find_bindir() / "pg_ctl"), "start", "-D", str(self.folder / "data"),
                         "-w", "-t", "60", "-l", str(self.folder / "server.log")])

    def fail_over(self) -> None:
        """What a failover looks like from the bot: the server goes away, and a fresh server
        process on a copy of its data (a promoted standby) answers at the same address."""
        self.halt()
        data, old = self.folder / "data", self.folder / "data-old"
        data.rename(old)
        _run(self.user, ["cp", "-a", str(old), str(data)])
        (data / "postmaster.pid").unlink(missing_ok=True)
        self.resume()
        shutil.rmtree(old, ignore_errors=True)

    def stop(self) -> None:
        """Stop the server at once and remove its folder (nothing in it is worth keeping)."""
        if (self.folder / "data" / "postmaster.pid").exists():
            _run(self.user, [str(find_bindir() / "pg_ctl"), "stop", "-D",
                             str(self.folder / "data"), "-m", "immediate", "-w"], check=False)
        shutil.rmtree(self.folder, ignore_errors=True)


def _run(user: str | None, command: list[str], *, check: bool = True) -> None:
    if user is not None:
        command = ["runuser", "-u", user, "--", *command]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")


def start(folder: Path | None = None, *, durable: bool = False) -> Server:
    """Create and start a cluster in *folder* (a new temporary one by default).

    ``durable=True`` keeps PostgreSQL's default fsync settings (for benchmarks).
    """
    folder = Path(tempfile.mkdtemp(prefix="rummy-pg-")) if folder is None else folder
    folder.mkdir(parents=True, exist_ok=True)
    user = _server_user()
    if user is not None:
        info = pwd.getpwnam(user)
        os.chown(folder, info.pw_uid, info.pw_gid)
    folder.chmod(0o700)
    bindir = find_bindir()
    data = folder / "data"
    port = _free_port()
    server = Server(folder, port, user)
    try:
        _run(user, [str(bindir / "initdb"), "-D", str(data), "-U", SUPERUSER, "-A", "trust",
                    "-E", "UTF8", "--locale=C", "--no-sync"])
        # In the configuration file rather than on the command line, so that a plain
        # ``pg_ctl start`` (resume, fail_over) starts the same server.
        settings = [f"port = {port}", "listen_addresses = '127.0.0.1'",
                    f"unix_socket_directories = '{folder}'", "max_connections = 200"]
        if not durable:
            settings += FAST_SETTINGS
        with (data / "postgresql.conf").open("a") as conf:
            conf.write("\n".join(settings) + "\n")
        _run(user, [str(bindir / "pg_ctl"), "start", "-D", str(data), "-w", "-t", "60",
                    "-l", str(folder / "server.log")])
        _run(user, [str(bindir / "createdb"), "-h", str(folder), "-p", str(port),
                    "-U", SUPERUSER, DATABASE])
    except BaseException:
        server.stop()
        raise
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A throw-away PostgreSQL server.")
    parser.add_argument("action", choices=("start", "stop"))
    parser.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    if args.action == "start":
        if args.folder.exists():
            parser.error(f"{args.folder} exists; give a new folder")
        print(start(args.folder).dsn)
        return 0
    port_file = args.folder / "data" / "postmaster.pid"
    port = int(port_file.read_text().splitlines()[3]) if port_file.exists() else 0
    Server(args.folder, port, _server_user()).stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""English sentences of the command line, the doctor report and start-up."""

from __future__ import annotations

CLI_EN: dict[str, str] = {
    # --- configuration -------------------------------------------------
    "config.invalid_int": "{name} must be a whole number, but it is set to {value!r}.",
    "config.negative": (
        "{name} cannot be negative (it is set to {value}); use 0 to turn it off."
    ),
    "config.invalid_snowflake": (
        "{name} must be a Discord server id (a long number such as 123456789012345678), "
        "but it is set to {value!r}. In Discord, turn on Developer Mode, right-click the "
        "server icon and choose 'Copy Server ID'."
    ),
    "config.invalid_log_level": (
        "{name} must be one of {choices}, but it is set to {value!r}."
    ),
    "config.invalid_turn_timer": (
        "{name} must be one of {choices} (minutes; 0 turns the timer off), but it is set to "
        "{value}."
    ),
    "config.invalid_shard_count": (
        "{name} must be the total number of shards of the bot across all its processes "
        "(1 or more), but it is set to {value!r}."
    ),
    "config.invalid_shards": (
        "{name} must list the shards this process runs, such as 0-3 or 0,2,5-7, but it is "
        "set to {value!r}."
    ),
    "config.shards_without_count": (
        "{name} is set, but {count_name} is not: set {count_name} to the total number of "
        "shards across all processes."
    ),
    "config.shard_out_of_range": (
        "{name} names shard {shard}, but {count_name} is {count}: shards are numbered 0 to "
        "{last}."
    ),
    "config.env_file_missing": (
        "rummy-bot: the settings file {path} given with --env-file does not exist; give the "
        "path of an existing file, or leave --env-file out to read .env in the current folder."
    ),
    # --- command line ------------------------------------------------
    "cli.description": (
        "Discord rummy bot. Without a sub-command it runs the bot (same as 'run')."
    ),
    "cli.help.run": "log in and run the bot (the default)",
    "cli.help.sync": "push the slash commands to Discord now, then exit",
    "cli.help.migrate": "create or upgrade the database schema, then exit",
    "cli.help.doctor": "check the token, the database and write access; print a report",
    "cli.help.env_file": "settings file to read (default: .env in the current folder)",
    "cli.help.copy_db": (
        "copy every table of the database FROM into the empty database TO (a SQLite file or "
        "a postgresql:// URL, either way), then check the copy"
    ),
    "cli.no_token": (
        "rummy-bot: no Discord bot token is configured, so the bot cannot log in.\n"
        "\n"
        "To fix this:\n"
        "  1. Copy the example settings:   cp .env.example .env\n"
        "  2. Open .env and set DISCORD_TOKEN to your bot's token (Discord Developer\n"
        "     Portal -> your application -> Bot -> Reset Token).\n"
        "  3. Run rummy-bot again.\n"
        "\n"
        "You can also export DISCORD_TOKEN in the environment instead of using .env.\n"
        "Step-by-step instructions: README.md, section 'Create the Discord application'.\n"
        "Check your setup at any time with:   rummy-bot doctor"
    ),
    "cli.config_error": (
        "rummy-bot: the settings are not valid:\n{problems}\n"
        "Fix them in .env or in the environment (see .env.example), then try again."
    ),
    "cli.login_failed": (
        "rummy-bot: Discord refused the token (it may have been reset or mistyped).\n"
        "Copy a fresh token from the Developer Portal (Bot -> Reset Token) into "
        "DISCORD_TOKEN and try again. 'rummy-bot doctor' checks its format."
    ),
    "cli.database_error": "rummy-bot: the database {path} cannot be used: {error}",
    "cli.database_unusable": "rummy-bot: the database {path} cannot be used. {problems}",
    "cli.cannot_start": "rummy-bot: the bot cannot start. {problem}",
    "cli.network_error": (
        "rummy-bot: cannot reach Discord ({error}). Check this machine's network connection "
        "(and any proxy or firewall), then start the bot again; nothing was changed."
    ),
    "cli.migrate.done": (
        "Database {path}: schema version {before} -> {after} (newest is {target})."
    ),
    "cli.migrate.up_to_date": (
        "Database {path} is already at the newest schema version {target}."
    ),
    "cli.copy.same": "FROM and TO are the same database; nothing was copied.",
    "cli.copy.source_missing": "The database {path} does not exist; nothing was copied.",
    "cli.copy.schema_differs": (
        "The two databases do not have the same tables even after upgrading both; nothing was "
        "copied. Check that FROM and TO are rummy-bot databases."
    ),
    "cli.copy.not_empty[one]": (
        "The database {target} is not empty (the table {table} has {count} row), so nothing "
        "was copied: copy-db only fills an empty database, to never mix two histories. Give a "
        "new database as TO, or empty this one first."
    ),
    "cli.copy.not_empty[other]": (
        "The database {target} is not empty (the table {table} has {count} rows), so nothing "
        "was copied: copy-db only fills an empty database, to never mix two histories. Give a "
        "new database as TO, or empty this one first."
    ),
    "cli.copy.error": "The copy from {source} to {target} stopped: {error}",
    "cli.copy.table_ok[one]": "Table {table}: {count} row, the same in both databases.",
    "cli.copy.table_ok[other]": "Table {table}: {count} rows, the same in both databases.",
    "cli.copy.table_differs": (
        "Table {table}: the row counts differ (the original has {source_rows}, the copy "
        "{target_rows})."
    ),
    "cli.copy.replayed": (
        "Open games replayed move by move through the rules on the copy: {count}; each one "
        "ends exactly on its stored position."
    ),
    "cli.copy.replay_differs": (
        "Table #{table_id}: its moves replayed on the copy do not end on its stored position "
        "({why})."
    ),
    "cli.copy.positions_differ": "it ends on another position",
    "cli.copy.done": (
        "Copied {source} into {target}: every count and every replay agrees. Point "
        "RUMMY_DATABASE at the copy and start the bot."
    ),
    "cli.copy.failed": (
        "The copy in {target} does not match {source} (see above); do not switch to it."
    ),
    "cli.sync.done": "Slash commands pushed to Discord ({scope}).",
    "cli.sync.scope_global": "globally; they can take up to an hour to appear",
    "cli.sync.scope_guild": "to the dev server {guild_id}; they appear at once",
    # --- doctor --------------------------------------------------------
    "doctor.title": "rummy-bot doctor",
    "doctor.ok": "ok",
    "doctor.problem": "PROBLEM",
    "doctor.note": "note",
    "doctor.settings_file": "Settings file: {path} ({state})",
    "doctor.settings_file.found": "found",
    "doctor.settings_file.absent": "not found; using the environment only",
    "doctor.token.missing": (
        "DISCORD_TOKEN is not set. Copy .env.example to .env and fill it in."
    ),
    "doctor.token.bad_format": (
        "DISCORD_TOKEN ({masked}) does not look like a bot token: a token is three parts "
        "separated by dots, made of letters, digits, '-' and '_'. Did you paste the "
        "client secret or the public key instead?"
    ),
    "doctor.token.ok": "DISCORD_TOKEN is well formed ({masked}).",
    "doctor.token.app_id": "Application id read from the token: {app_id}",
    "doctor.invite": "Invite link: {url}",
    "doctor.db.path": "Database file: {path}",
    "doctor.db.url": "Database: PostgreSQL at {url}",
    "doctor.db.pg_unreachable": (
        "Cannot connect to PostgreSQL: {error}. Check that the server runs and the host, port, "
        "user, password and database name in RUMMY_DATABASE."
    ),
    "doctor.db.pg_connected": "Connected to PostgreSQL {version}.",
    "doctor.db.pg_writable": (
        "The bot can create tables and write in this database (tried in a transaction that was "
        "rolled back)."
    ),
    "doctor.db.pg_read_only": (
        "The bot cannot write in this database: {error}. Grant its user CREATE on the schema "
        "and the right to write in its tables."
    ),
    "doctor.db.dir_missing": (
        "The folder {path} does not exist; create it or change RUMMY_DATABASE."
    ),
    "doctor.db.not_writable": (
        "Cannot write in {path}; the bot needs to create and update files there."
    ),
    "doctor.db.writable": "The bot can write in {path}.",
    "doctor.db.absent": (
        "The database does not exist yet; it is created on first start "
        "('rummy-bot migrate' creates it now)."
    ),
    "doctor.db.unreadable": "The database cannot be opened: {error}",
    "doctor.db.not_a_database": (
        "{path} is not a SQLite database ({why}); it was left untouched: point "
        "RUMMY_DATABASE at the right file, or move this one away to start a new database."
    ),
    "doctor.db.file_read_only": (
        "The bot cannot write to the database file {path} ({error}); it would fail at the first "
        "move. Give the bot's user write access to it."
    ),
    "doctor.db.file_writable": "The bot can write to the database file {path}.",
    "doctor.db.integrity": "Integrity check failed: {result}",
    "doctor.db.integrity_ok": "Integrity check passed.",
    "doctor.db.version_current": "Schema version {current} (newest: {target}); up to date.",
    "doctor.db.version_behind": (
        "Schema version {current} (newest: {target}); it is upgraded on the next start "
        "or with 'rummy-bot migrate'."
    ),
    "doctor.db.version_ahead": (
        "Schema version {current} is newer than this program knows ({target}); "
        "upgrade rummy-bot before using this database."
    ),
    "doctor.db.journal": "Journal mode: {mode}.",
    "doctor.db.tables": "Tables in progress: {active}; games recorded: {total}.",
    "doctor.settings.guild": "Dev server for instant command updates: {guild}",
    "doctor.settings.guild_none": "none (commands are pushed globally)",
    "doctor.settings.log_level": "Log level: {level}",
    "doctor.settings.next_round": "Delay before the next round: {value} s",
    "doctor.settings.unsharded": "Shards: none (one process serves every server).",
    "doctor.settings.shards": "Shards: this process runs {ids} of {count}.",
    "doctor.settings.shards_on_sqlite": (
        "This process runs only some shards and the database is a SQLite file: the other "
        "processes must run on this machine and share the file. With PostgreSQL "
        "(RUMMY_DATABASE=postgresql://…) they can run anywhere."
    ),
    "doctor.summary.ok": "Everything looks fine.",
    "doctor.drawing.ok": "Drew a hand of cards ({width}×{height} pixels).",
    "doctor.drawing.failed": (
        "Cannot draw a hand of cards ({error}): this install lacks files of the package. "
        "Reinstall it (pip install --force-reinstall rummy-discord, or pip install . in the "
        "source folder)."
    ),
    "doctor.summary.problems[one]": "{count} problem found; see the line marked PROBLEM.",
    "doctor.summary.problems[other]": "{count} problems found; see the lines marked PROBLEM.",
    # --- simulate and demo ----------------------------------------------
    "offline.bad_variant": (
        "rummy-bot {command}: there is no variant {value!r}; choose one of {choices}."
    ),
    "offline.bad_mode": (
        "rummy-bot {command}: there is no mode {value!r}; choose 1v1 or 2v2 (Basic rummy "
        "also takes a number of players, such as 3)."
    ),
    "offline.refused": "rummy-bot {command}: {problem}",
    "offline.bad_strength": (
        "rummy-bot {command}: there is no computer strength {value!r}; choose from {choices}."
    ),
    "offline.too_many_strengths": (
        "rummy-bot {command}: --players names {given} strengths, but this game has {sides} "
        "sides (one strength per side, in seat order): name at most {sides}."
    ),
    "offline.bad_games": "rummy-bot {command}: --games must be at least 1, not {value}.",
    "offline.out_is_file": (
        "rummy-bot demo: {path} is a file, not a folder; give --out a new or empty folder."
    ),
    "offline.out_unusable": (
        "rummy-bot demo: cannot write pictures in {path} ({error}); give --out a folder this "
        "user can write."
    ),
    # --- bot -----------------------------------------------------------
    "bot.shutting_down": "The bot is restarting; please try again in a moment.",
}

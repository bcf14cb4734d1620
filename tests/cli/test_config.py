"""Settings: defaults, .env loading, precedence, friendly validation, token helpers."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from dotenv import dotenv_values

from bot.config import (
    SETTING_NAMES,
    ConfigError,
    Settings,
    application_id_from_token,
    default_drawing_processes,
    load_settings,
    mask_token,
    token_is_well_formed,
)
from bot.storage import PostgresStore, SqliteStore, make_store
from bot.ui.pacer import make_pacer

REPO_ROOT = Path(__file__).resolve().parents[2]
APP_ID = 123456789012345678


def fake_token(app_id: int = APP_ID) -> str:
    """A token with the right shape; it has never been valid for anything."""
    first = base64.urlsafe_b64encode(str(app_id).encode()).decode().rstrip("=")
    return f"{first}.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789_-AB"


def test_defaults_without_environment_or_file(tmp_path: Path) -> None:
    settings = load_settings({}, env_file=None, cwd=tmp_path)
    assert settings == Settings(database=tmp_path / "rummy.db")
    assert settings.discord_token is None
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"
    assert settings.next_round_delay_seconds == 30


def test_env_file_is_read_and_environment_wins(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(
        "DISCORD_TOKEN=from-file\n"
        "RUMMY_DATABASE=data/bot.db\n"
        "RUMMY_DEV_GUILD_ID=987654321098765432\n"
        "RUMMY_LOG_LEVEL=debug\n"
        "RUMMY_NEXT_ROUND_DELAY_SECONDS=90\n"
    )
    settings = load_settings({"DISCORD_TOKEN": "from-env"}, cwd=tmp_path)
    assert settings.discord_token == "from-env"
    assert settings.database == tmp_path / "data" / "bot.db"
    assert settings.dev_guild_id == 987654321098765432
    assert settings.log_level == "DEBUG"
    assert settings.next_round_delay_seconds == 90


def test_absolute_database_path_is_kept(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere" / "x.db"
    settings = load_settings({"RUMMY_DATABASE": str(target)}, env_file=None, cwd=Path("/"))
    assert settings.database == target


def test_a_postgresql_url_selects_postgres_and_its_password_is_never_shown(
    tmp_path: Path,
) -> None:
    url = "postgresql://rummy:s3cret@127.0.0.1:5432/rummy?search_path=bot"
    settings = load_settings({"RUMMY_DATABASE": url}, env_file=None, cwd=tmp_path)
    assert settings.database_url == url and settings.database_target == url
    assert "s3cret" not in repr(settings)
    assert "rummy:***@127.0.0.1:5432" in repr(settings)
    assert isinstance(make_store(settings.database_target), PostgresStore)
    by_path = load_settings({"RUMMY_DATABASE": "postgres.db"}, env_file=None, cwd=tmp_path)
    assert by_path.database_url is None and by_path.database_target == tmp_path / "postgres.db"
    assert isinstance(make_store(by_path.database_target), SqliteStore)


def test_empty_values_mean_default(tmp_path: Path) -> None:
    empty = {name: "  " for name in SETTING_NAMES}
    assert load_settings(empty, env_file=None, cwd=tmp_path) == Settings(
        database=tmp_path / "rummy.db"
    )


def test_drawing_processes_can_be_chosen_and_are_checked(tmp_path: Path) -> None:
    chosen = load_settings({"RUMMY_DRAWING_PROCESSES": "0"}, env_file=None, cwd=tmp_path)
    assert chosen.drawing_processes == 0
    assert load_settings({}, env_file=None, cwd=tmp_path).drawing_processes == (
        default_drawing_processes()
    )
    with pytest.raises(ConfigError) as caught:
        load_settings({"RUMMY_DRAWING_PROCESSES": "many"}, env_file=None, cwd=tmp_path)
    assert "RUMMY_DRAWING_PROCESSES" in caught.value.problems[0]


def test_the_pace_of_bot_token_calls_is_the_whole_bots_shared_by_its_shards(
    tmp_path: Path,
) -> None:
    """Discord's limit is the bot token's: a process running 2 of 4 shards paces itself at
    half of RUMMY_REQUESTS_PER_SECOND, so that the processes together stay under it."""
    default = load_settings({}, env_file=None, cwd=tmp_path)
    assert default.requests_per_second == 45 and default.process_requests_per_second == 45
    assert make_pacer(default) is not None
    half = load_settings(
        {"RUMMY_REQUESTS_PER_SECOND": "40", "RUMMY_SHARD_COUNT": "4", "RUMMY_SHARDS": "0-1"},
        env_file=None,
        cwd=tmp_path,
    )
    assert half.process_requests_per_second == 20
    pacer = make_pacer(half)
    assert pacer is not None and pacer.per_second == 20
    off = load_settings({"RUMMY_REQUESTS_PER_SECOND": "0"}, env_file=None, cwd=tmp_path)
    assert make_pacer(off) is None, "0 leaves the calls to discord.py alone"
    with pytest.raises(ConfigError) as caught:
        load_settings({"RUMMY_REQUESTS_PER_SECOND": "fast"}, env_file=None, cwd=tmp_path)
    assert "RUMMY_REQUESTS_PER_SECOND" in caught.value.problems[0]


def test_every_problem_is_reported_in_a_sentence(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(
            {
                "RUMMY_DEV_GUILD_ID": "my server",
                "RUMMY_LOG_LEVEL": "loud",
                "RUMMY_NEXT_ROUND_DELAY_SECONDS": "soon",
            },
            env_file=None,
            cwd=tmp_path,
        )
    problems = caught.value.problems
    assert len(problems) == 3
    for name, problem in zip(
        (
            "RUMMY_DEV_GUILD_ID",
            "RUMMY_LOG_LEVEL",
            "RUMMY_NEXT_ROUND_DELAY_SECONDS",
        ),
        problems,
        strict=True,
    ):
        assert name in problem
        assert problem.endswith(".")
    assert "Copy Server ID" in problems[0]


def test_env_example_documents_every_setting_and_loads() -> None:
    example = REPO_ROOT / ".env.example"
    values = dotenv_values(example)
    assert set(values) == set(SETTING_NAMES)
    text = example.read_text()
    for name in SETTING_NAMES:
        # Each setting is preceded by a comment explaining it.
        before = text.split(f"\n{name}=", 1)[0]
        assert before.rstrip().splitlines()[-1].startswith("#"), name
    settings = load_settings({}, env_file=example, cwd=REPO_ROOT)
    assert settings.discord_token is None
    assert settings.database == REPO_ROOT / "rummy.db"


@pytest.mark.parametrize(
    "token",
    [
        "",
        "not a token",
        "abc.def.ghi",
        fake_token() + ".extra",
        '"' + fake_token() + '"',
        fake_token().replace(".", " ", 1),
        "c2VjcmV0c2VjcmV0c2VjcmV0.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789",  # not an id
    ],
)
def test_malformed_tokens(token: str) -> None:
    assert not token_is_well_formed(token)


def test_well_formed_token_and_its_application_id() -> None:
    token = fake_token()
    assert token_is_well_formed(token)
    assert application_id_from_token(token) == APP_ID


def test_token_is_never_shown() -> None:
    token = fake_token()
    masked = mask_token(token)
    assert token not in masked
    assert token.split(".")[2] not in masked
    assert str(len(token)) in masked
    settings = Settings(discord_token=token)
    assert token not in repr(settings)
    assert token not in str(settings)

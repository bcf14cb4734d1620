"""A server's own finished games feed its puzzle of the day: the day's position comes from one of
them when it holds one, credited with who played it and the round; a server without finished
games gets one from computers' games (no credit). Real store, real engine; the post is the
Discord layer's, recorded here."""

from __future__ import annotations

import json
import random
from datetime import UTC, date, datetime
from pathlib import Path

from bot.features.puzzles.daily import kind_of
from bot.features.puzzles.service import Posting, PuzzleService
from bot.storage import SeatRecord, SqliteStore
from bot.storage.base import NewTable
from rummy_engine import Game, Phase, Rules, Variant, action_to_json
from rummy_engine.ai.player import Strength, decide
from rummy_engine.ai.puzzles import PuzzleKind
from rummy_engine.view import player_view

GUILD, CHANNEL = 10, 20


def a_day_of(kind: PuzzleKind) -> date:
    day = date(2027, 1, 1)
    while kind_of(day) is not kind:
        day = date.fromordinal(day.toordinal() + 1)
    return day


async def finished_game(store: SqliteStore, names: tuple[str, str]) -> int:
    """A Rummy 51 game computers played to its end, stored as the bot stores a game."""
    rules = Rules(Variant.R51, 2)
    game = Game.new(rules, "server-game")
    table = await store.create_table(
        NewTable(GUILD, CHANNEL, 1, "r51", "1v1", "{}", 1)
    )
    await store.set_seats(table.id, [SeatRecord(s, 100 + s, name=n) for s, n in enumerate(names)])
    version = await store.commit_move(
        table.id, table.version, 1, json.dumps({"type": "start_game", "genesis": game.genesis()}),
        "[]", "{}", status="active",
    )  # fmt: skip
    rng = random.Random(5)
    while game.phase is not Phase.GAME_OVER:
        action = decide(player_view(game, game.current), rules, rng, Strength.EASY)
        game.apply(action)
        version = await store.commit_move(
            table.id, version, None, json.dumps(action_to_json(action)), "[]", "{}"
        )
    await store.update_table_status(table.id, "finished")
    return table.id


async def test_a_server_game_holds_the_day_s_puzzle_and_is_credited(tmp_path: Path) -> None:
    posted: list[Posting] = []

    async def post(posting: Posting) -> int:
        posted.append(posting)
        return 1

    async with SqliteStore(tmp_path / "rummy.db") as store:
        service = PuzzleService(store, post=post, clock=lambda: datetime(2027, 1, 1, tzinfo=UTC))
        day = a_day_of(PuzzleKind.SAFE_DISCARD).isoformat()
        simulated = await service.post_day(GUILD, CHANNEL, day)
        assert simulated is not None and simulated.record.credit is None
        await finished_game(store, ("Alice", "Bob"))
        later = a_day_of(PuzzleKind.SAFE_DISCARD)
        later = date.fromordinal(later.toordinal() + 4)  # the next day of the same kind
        made = await service.post_day(GUILD, CHANNEL, later.isoformat())
    assert made is not None and made.record.credit is not None
    players, _, round_no = made.record.credit.rpartition("|")
    assert players == "Alice · Bob" and int(round_no) >= 1
    assert made.record.puzzle_key != simulated.record.puzzle_key
    assert [p.today.record.day for p in posted] == [day, later.isoformat()]

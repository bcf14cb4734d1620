"""SimCord set-up for the Discord surface: a real RummyBot on a real SQLite file (or a real
PostgreSQL database, for tests that ask for ``store_url``), a server, a channel, players, and a
driver that plays whole games by typing the real slash commands."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import discord
import pytest
import simcord

from bot.app import BOT_CLOCK, RummyBot
from bot.config import DEFAULT_REQUESTS_PER_SECOND, Settings
from bot.features.play.tables import Table
from bot.storage import make_store
from bot.storage.outage import DatabaseUnavailable
from rummy_engine import (
    Action,
    Discard,
    Draw,
    Game,
    Lay,
    Phase,
    RuleViolation,
    StartRound,
    Swap,
    UndoTake,
    action_to_json,
    player_view,
)
from rummy_engine.strategy import choose_action
from tests.helpers.invariants import SimcordWatch

NAMES = ["alice", "bob", "carol", "dave", "erin", "frank"]
CARD_TOKEN = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]|JK")


def make_bot(
    db: str | Path,
    seed: int = 7,
    computer_delay: int = 0,
    turn_timer: int = 0,
    requests_per_second: int = DEFAULT_REQUESTS_PER_SECOND,
) -> RummyBot:
    """The real bot on ``db`` (a SQLite path or a PostgreSQL URL); computers play at once unless
    a test asks for the delay, and tables have no turn timer unless a test asks for one
    (minutes). Its bot-token calls are paced as by default, unless a test asks for another
    pace (0: none)."""
    settings = Settings(
        database=db if isinstance(db, Path) else Path("unused.db"),
        database_url=db if isinstance(db, str) else None,
        next_round_delay_seconds=30,
        computer_delay_seconds=computer_delay,
        turn_timer_minutes=turn_timer,
        # Threads, as on a one-core machine: a bot per test would start a drawing process
        # each; the end-to-end tests run the real command, which draws in processes.
        drawing_processes=0,
        requests_per_second=requests_per_second,
    )
    bot = RummyBot(settings, make_store(settings.database_target, clock=BOT_CLOCK))
    bot.tables._seed_source = lambda: seed
    return bot


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "rummy.db"


@pytest.fixture
def simcord_bot(db_path: Path) -> RummyBot:
    return make_bot(db_path)


@dataclass
class World:
    """A server with one table channel and six members, around the bot under test."""

    env: simcord.Env
    guild: simcord.GuildHandle  # type: ignore[name-defined]
    channel: simcord.ChannelHandle  # type: ignore[name-defined]
    players: list[simcord.MemberActor]  # type: ignore[name-defined]
    seen_public: set[str] = field(default_factory=set)
    checked_messages: int = 0
    table_id: int | None = None
    watch: SimcordWatch | None = None

    @property
    def bot(self) -> RummyBot:
        bot = self.env.bot
        assert isinstance(bot, RummyBot)
        return bot

    async def table(self) -> Table:
        """The table this world's test opened (open or finished)."""
        assert self.table_id is not None, "open a table first"
        return await self.bot.tables.load(self.table_id)

    def member(self, user_id: int | None) -> simcord.MemberActor:  # type: ignore[name-defined]
        return next(p for p in self.players if p.user.id == user_id)

    def public_messages(self) -> list[discord.Message]:
        return [m for m in self.channel.history() if not m.flags.ephemeral]

    async def open_table(self, variant: str, mode: str, players: int, **options: object) -> Table:
        host, *others = self.players[:players]
        result = await host.slash(self.channel, "rummy new", variant=variant, mode=mode, **options)
        assert result.acknowledged, result
        for index, player in enumerate(others, start=1):
            team = {"2v2": {1: 1, 2: 0, 3: 1}}.get(mode, {}).get(index)
            kwargs = {"team": team} if team is not None else {}
            joined = await player.slash(self.channel, "rummy join", **kwargs)
            assert "seated" in joined.response.content, joined.response.content
        opened = await self.bot.tables.in_channel(self.guild.id, self.channel.id)
        assert opened is not None
        self.table_id = opened.id
        started = await host.slash(self.channel, "rummy start")
        assert "started" in started.response.content, started.response.content
        return await self.table()

    # -- privacy -----------------------------------------------------------------------------

    def note_public_cards(self, game: Game) -> None:
        """Cards anyone at the table has seen face up: melds, the discard pile, revealed hands."""
        self.seen_public.update(c.pretty for t in game.table for c in t.meld.cards)
        # what a joker stands for is on the picture and in the Melds line ("JK=7♥")
        self.seen_public.update(f.pretty for t in game.table for f in t.meld.stands_for)
        self.seen_public.update(c.pretty for c in game.discard)
        for result in game.results:
            self.seen_public.update(c.pretty for hand in result.hands for c in hand)

    def check_privacy(self, table: Table) -> None:
        """No public message shows a card that was never face up; each DM holds only its
        reader's own hand, exactly (a mover's, once their turn is over)."""
        game = table.require_game()
        self.note_public_cards(game)
        public = self.public_messages()
        for message in public[self.checked_messages :]:
            leaked = set(CARD_TOKEN.findall(message.content)) - self.seen_public
            assert not leaked, f"public message shows hidden cards {leaked}: {message.content!r}"
            assert "Your hand" not in message.content
            assert all(not a.filename.startswith("hand-") for a in message.attachments)
        self.checked_messages = len(public)
        if game.phase not in (Phase.DRAW, Phase.PLAY):
            return
        for seat_record in table.seats:
            if seat_record.is_computer:
                continue
            if seat_record.seat == game.current and game.phase is Phase.PLAY:
                continue  # the mover's DM catches up at the end of the turn (the reply shows it)
            member = self.member(seat_record.user_id)
            dms = [
                m
                for m in member.user.dm_channel.history()
                if (f"table #{table.id}" in m.content or f"#{table.id}" in m.content)
                and "Your hand" in m.content  # a turn reminder shows no card
            ]
            if not dms:
                continue
            shown = Counter(
                CARD_TOKEN.findall(dms[-1].content.split("\n", 1)[1].split("Just drawn")[0])
            )
            held = Counter(c.pretty for c in player_view(game, seat_record.seat).hand)
            assert shown == held, f"DM of seat {seat_record.seat} shows {shown}, hand is {held}"


def command_for(action: Action) -> tuple[str, dict[str, object]]:
    """The slash command a player types for an engine action."""
    match action:
        case Draw(_, source):
            return "rummy draw", {"source": source.value}
        case Lay(_, melds, layoffs):
            groups = [" ".join(f.text for f in meld) for meld in melds]
            groups += [
                f"+{index + 1} " + " ".join(f.text for f in faces) for index, faces in layoffs
            ]
            return "rummy lay", {"melds": " | ".join(groups)}
        case Swap(_, meld, card):
            return "rummy swap", {"meld": meld + 1, "card": card.text}
        case Discard(_, card):
            return "rummy discard", {"card": card.text}
        case UndoTake(_):
            return "rummy undo", {}
    raise AssertionError(f"no command for {action!r}")


#: The custom_id part of a round summary's own buttons.
SUMMARY_ID = re.compile(r":(replay|review):")


def has_button(message: discord.Message, label: str) -> bool:
    """Whether ``message`` shows a button labelled ``label`` (round summaries carry buttons of
    their own, so "the newest message with components" is no longer the table message)."""
    return any(c.label == label for row in message.components for c in row.children)


def has_table_buttons(message: discord.Message) -> bool:
    """Whether a message has a component other than a round summary's own (Replay, Review my
    round): the lobby, the table or the final table, not a round summary."""
    return any(
        not SUMMARY_ID.search(getattr(c, "custom_id", None) or "")
        for row in message.components
        for c in getattr(row, "children", [])
    )


async def play_step(world: World, rng: random.Random, *, by_timer: bool = False) -> Action:
    """Let the engine's simple player choose, then type it as the player whose turn it is."""
    table = await world.table()
    game = table.require_game()
    version = table.record.version
    action = choose_action(game, rng)
    if isinstance(action, StartRound):
        if by_timer:
            await world.env.advance_time(31)
        else:
            host = world.member(table.record.host_id)
            message = next(
                m for m in reversed(world.public_messages()) if has_button(m, "Next round")
            )
            result = await host.click(message, label="Next round")
            assert result.acknowledged
    else:
        name, options = command_for(action)
        member = world.member(table.user_at(action.seat))
        result = await member.slash(world.channel, name, **options)
        assert result.acknowledged and result.ephemeral, (name, options)
    moves = await world.bot.store.list_moves(table.id, after_seq=version)
    accepted = bool(moves) and json.loads(moves[0].action_json) == action_to_json(action)
    assert accepted, f"{action} was not accepted (next move: {moves[:1]})"
    return action


async def computer_turn(world: World, game: Game) -> None:
    """Let the clock run past a computer's pause; it must have played its turn by then."""
    turn = game.turn
    await world.env.advance_time(2)
    after = (await world.table()).require_game()
    assert after.turn != turn or after.phase not in (Phase.DRAW, Phase.PLAY), (
        "the computer plays its turn"
    )


async def play_to_end(world: World, rng: random.Random, steps: int = 2000) -> None:
    """Play the table's game to its end: the people's moves chosen by ``rng``, the computers'
    played by letting their pause run out."""
    for _ in range(steps):
        table = await world.table()
        game = table.require_game()
        if game.phase is Phase.GAME_OVER:
            return
        if table.is_computer(game.current):
            await computer_turn(world, game)
        else:
            await play_step(world, rng)
    pytest.fail("the game did not end")


@pytest.fixture
async def world(simcord_env: simcord.Env) -> AsyncIterator[World]:
    guild = simcord_env.create_guild("Rummy Club")
    channel = guild.create_text_channel("rummy")
    players = [guild.add_member(simcord_env.create_user(name)) for name in NAMES]
    watch = SimcordWatch(simcord_env, staged=lambda bot: getattr(bot, "crashed", False))
    watch.install()  # after every step: what players see is the stored table
    yield World(simcord_env, guild, channel, players, watch=watch)
    watch.enabled = False
    checks = sum(w.checks for w in watch.watches.values())
    cpu = sum(w.cpu_seconds for w in watch.watches.values())
    print(f"[invariants: {checks} checks, {cpu * 1000:.0f} ms CPU]")
    await simcord_env.bot.close()
    assert_only_refusals(simcord_env)


class Crash(BaseException):
    """Raised by a test where the bot process would die: nothing after it runs in that bot,
    and no ``except Exception`` in the bot can swallow it. The test marks the bot
    ``crashed``: what it shows is left behind until a restart heals it."""


def assert_only_refusals(env: simcord.Env) -> None:
    """Refusals travel the tree's one error path, so SimCord records them; they are answered
    to the player and expected, like arguments Discord could not resolve and the crashes a test
    stages, and a database that went away (its tests). Anything else is a bug."""
    unexpected = [
        error
        for error in env.errors
        if not isinstance(
            getattr(error, "original", error),
            RuleViolation | Crash | DatabaseUnavailable | discord.app_commands.TransformerError,
        )
    ]
    assert not unexpected, unexpected

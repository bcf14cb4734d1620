"""The loopback emulator refuses the command trees Discord refuses, and the bot's tree passes.

Why over the emulator: Discord answers an over-limit tree with 400 / 50035 and the field's path,
and keeps the commands it had; discord.py turns that answer into ``CommandSyncFailure``. Here the
real discord.py client (and the real bot) sends its trees over HTTP and gets that answer.
"""

from __future__ import annotations

import logging
from pathlib import Path

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.app import RummyBot
from bot.config import Settings
from bot.storage import SqliteStore
from bot.text import t
from tests.discord.conftest import make_bot
from tests.discord_emulator import emulated_discord
from tests.discord_emulator.command_limits import DESCRIPTION_MAX, flatten

LONG_FRENCH = "Cartes de chaque combinaison séparées par | ; " + "x" * DESCRIPTION_MAX


class FrenchOf(app_commands.Translator):
    """Gives each description the French of ``french`` (keyed by its English)."""

    def __init__(self, french: dict[str, str]) -> None:
        self.french = french

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return self.french.get(string.message) if locale is discord.Locale.french else None


def lay_group(melds: str = "Cards of each meld") -> app_commands.Group:
    """``/rummy lay melds``: the shape of the bot's command, its option described by ``melds``."""
    rummy = app_commands.Group(name="rummy", description="Play rummy")

    @rummy.command(name="lay", description="Lay melds")
    @app_commands.describe(melds=app_commands.locale_str(melds))
    async def lay(interaction: discord.Interaction, melds: str) -> None:
        """Unused."""

    return rummy


async def test_an_over_long_localised_description_is_refused_with_its_path() -> None:
    async with emulated_discord() as emu:
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
        async with emu.running(bot):
            bot.tree.add_command(lay_group())
            await bot.tree.set_translator(FrenchOf({"Cards of each meld": "Cartes"}))
            await bot.tree.sync()
            accepted = emu.synced_commands()
            assert accepted[0]["options"][0]["options"][0]["description_localizations"] == {
                "fr": "Cartes"
            }

            await bot.tree.set_translator(FrenchOf({"Cards of each meld": LONG_FRENCH}))
            with pytest.raises(app_commands.CommandSyncFailure) as refused:
                await bot.tree.sync()
            assert (refused.value.status, refused.value.code) == (400, 50035)
            path = "0.options.0.options.0.description_localizations.fr"
            assert f"In {path}: Must be between 1 and 100 in length." in refused.value.text
            assert "In command 'rummy lay'" in str(refused.value)  # discord.py read the path
            ((scope, errors),) = emu.refused_commands
            assert scope is None and flatten(errors) == {path: ["BASE_TYPE_BAD_LENGTH"]}
            assert emu.synced_commands() == accepted, "Discord keeps the commands it had"


async def test_one_command_is_held_to_the_same_limits() -> None:
    """``POST .../commands`` (one command) refuses the same way, with paths from the command."""
    async with emulated_discord() as emu:
        guild = emu.add_guild("Rummy Club", members=[emu.add_user("alice")])
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
        async with emu.running(bot):
            app = emu.application_id
            too_long = {"name": "rummy", "description": "d" * (DESCRIPTION_MAX + 1)}
            with pytest.raises(discord.HTTPException) as refused:
                await bot.http.upsert_guild_command(app, guild.id, too_long)
            assert refused.value.code == 50035
            assert "In description: Must be between 1 and 100 in length." in refused.value.text
            first = await bot.http.upsert_guild_command(
                app, guild.id, {**too_long, "description": "Play"}
            )
            again = await bot.http.upsert_guild_command(
                app, guild.id, {**too_long, "description": "Play!"}
            )
            assert emu.synced_commands(guild) == [again] and again["id"] != first["id"]


async def test_the_bots_real_tree_registers_through_the_emulator(tmp_path: Path) -> None:
    async with emulated_discord() as emu:
        emu.two_players()
        bot = make_bot(tmp_path / "rummy.db")
        async with emu.running(bot):
            assert emu.refused_commands == []
            ((scope, sent),) = emu.sync_calls
            synced = emu.synced_commands()
            names = [command["name"] for command in synced]
            assert names == ["rummy", "rummy-stats", "rummy-learn", "rummy-settings"]
            assert scope is None and len(sent) == len(synced)
            rummy = synced[0]
            lay = next(option for option in rummy["options"] if option["name"] == "lay")
            (melds,) = (option for option in lay["options"] if option["name"] == "melds")
            assert melds["description"] == t("command.lay.melds")
            assert melds["description_localizations"]["fr"] == t("command.lay.melds", "fr")


async def test_a_refused_tree_is_one_sentence_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The bot still starts (its tables keep working), and says once which field Discord refused."""
    store = SqliteStore(tmp_path / "rummy.db")
    bot = RummyBot(Settings(database=store.path, drawing_processes=0), store, extensions=())
    bot.tree.add_command(lay_group(melds="x" * (DESCRIPTION_MAX + 1)))
    caplog.set_level(logging.INFO, logger="bot.app")
    async with emulated_discord() as emu, emu.running(bot):
        assert emu.synced_commands() == [] and len(emu.refused_commands) == 1
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and errors[0].exc_info is None
        message = errors[0].getMessage()
        assert "\n" not in message
        assert "Discord refused the slash commands" in message
        assert "0.options.0.options.0.description: Must be between 1 and 100 in length." in message
        assert await bot.store.get_meta(bot._command_hash_key(None)) is None, (
            "the next start retries"
        )

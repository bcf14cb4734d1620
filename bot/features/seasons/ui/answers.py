"""Discord side of seasons: ``/rummy-stats season``, ``/rummy-stats leaderboard season:…``, the season
board's page buttons, and the post of a season's final standings.

The page buttons are a :class:`discord.ui.DynamicItem` whose custom id carries the server, the
season's start, the variant, the order, the page and the caller, so a season board posted
before a restart still turns its pages, and a board of a season that has since ended keeps
showing that season. The standings are drawn by :mod:`bot.render.standings` in a thread and
sent to the channel of the season's latest rated game.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any, ClassVar

import discord
from discord import app_commands

from bot.features.play.tables import GUILD_LOCALE
from bot.features.seasons.service import DAY_LENGTHS, MONTH, SeasonService
from bot.features.stats.service import LeaderboardEntry, LeaderboardPage, StatsService, check_sort
from bot.features.stats.ui import answers as boards
from bot.render.drawing import Drawer, DrawingFailed
from bot.render.scene import StandingLine, StandingsScene
from bot.services.refusal import Refusal
from bot.storage.base import GuildSettingsStore, LeaderboardSort, SeasonRecord
from bot.text import normalise, t
from bot.text.safe import fit
from bot.ui.channels import messageable
from bot.ui.commands import choice, plain
from bot.ui.custom_ids import CustomIdCodec
from bot.ui.files import BytesFile
from bot.ui.interaction import (
    can_manage_server,
    defer_private,
    locale_of,
    public_locale_of,
    reply,
)

log = logging.getLogger(__name__)

CURRENT, PREVIOUS, ALL_TIME = "current", "previous", "all-time"
BOARD_CHOICES: list[app_commands.Choice[str]] = [
    choice("seasons.choice.current", CURRENT),
    choice("seasons.choice.previous", PREVIOUS),
    choice("seasons.choice.all_time", ALL_TIME),
]
#: Month by its catalogue name; days read the same in every language.
LENGTH_CHOICES: list[app_commands.Choice[str]] = [
    choice("seasons.choice.month", MONTH),
    *(plain(str(days), f"{days}d") for days in DAY_LENGTHS),
]
#: Discord's limit on an attachment's description (alt text).
ALT_MAX = 1024
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


# -- words --------------------------------------------------------------------------------------


def day(moment: datetime) -> str:
    """``2026-01-31``, with the time (UTC) when it is not midnight: a restart's end."""
    utc = moment.astimezone(UTC)
    return utc.strftime("%Y-%m-%d" if utc.time() == time(0) else "%Y-%m-%d %H:%M UTC")


def dates(season: SeasonRecord) -> tuple[str, str]:
    """First and last day of a season: one ending at midnight shows the day before as its last."""
    end = season.ends_at
    last = end - timedelta(days=1) if end.astimezone(UTC).time() == time(0) else end
    return day(season.starts_at), day(last)


def length_words(length: str, locale: str) -> str:
    if length == MONTH:
        return t("seasons.length.month", locale)
    return t("seasons.length.days", locale, count=int(length[:-1]))


def relative(moment: datetime) -> str:
    """Discord's timestamp markup: each reader sees it in their own time, counting down."""
    return f"<t:{int(moment.timestamp())}:R>"


def season_name(season: SeasonRecord, now: datetime, locale: str) -> str:
    start, end = dates(season)
    key = "seasons.current" if season.starts_at <= now < season.ends_at else "seasons.named"
    return t(key, locale, start=start, end=end)


def micros(moment: datetime) -> int:
    """A season's start as whole microseconds since 1970, exact for a custom id."""
    return (moment - _EPOCH) // timedelta(microseconds=1)


# -- the season board ----------------------------------------------------------------------------


def season_embed(
    page: LeaderboardPage,
    season: SeasonRecord,
    caller_id: int | None,
    now: datetime,
    locale: str,
) -> discord.Embed:
    """The all-time board's embed with the season's title (and its own empty sentence)."""
    embed = boards.leaderboard_embed(page, caller_id, locale)
    embed.title = t(
        "seasons.board_title",
        locale,
        variant=boards.family_name(page.family, locale),
        season=season_name(season, now, locale),
    )
    if not page.entries:
        embed.description = t("seasons.board_empty", locale)
    return embed


@dataclass(frozen=True)
class SeasonPageId:
    """What a page button of a season's board carries: the server, the season's start (µs
    since 1970), the board's variant and order, the page and who asked (0: nobody)."""

    guild_id: int
    start: int
    family: str
    sort: LeaderboardSort
    page: int
    caller_id: int


PAGE_IDS = CustomIdCodec(
    "rummy:lbs", SeasonPageId, patterns={"page": r"-?\d+"}, parse={"sort": check_sort}
)


class SeasonPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_IDS.template):
    """Shows one page of a season's board; everything it needs is in its custom id."""

    service: ClassVar[SeasonService | None] = None

    def __init__(self, target: SeasonPageId, *, label: str = "", disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or str(target.page + 1),
                custom_id=PAGE_IDS.build(target),
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.target = target

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SeasonPageButton:
        return cls(PAGE_IDS.decode(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        assert self.service is not None, "registered through bound_season_button()"
        target = self.target
        starts_at = _EPOCH + timedelta(microseconds=target.start)
        season = await self.service.season_from(target.guild_id, starts_at)
        caller = target.caller_id or None
        page = await self.service.page(
            season, family=target.family, sort=target.sort, page=target.page, caller_id=caller
        )
        locale = public_locale_of(interaction)
        now = self.service.clock()
        await interaction.response.edit_message(
            embed=season_embed(page, season, caller, now, locale),
            view=season_view(page, season, target.caller_id, locale),
        )


def season_view(
    page: LeaderboardPage, season: SeasonRecord, caller_id: int | None, locale: str
) -> discord.ui.View:
    """Previous/Next, disabled at the ends, like the all-time board's."""
    common = (season.guild_id, micros(season.starts_at), page.family, page.sort)

    def button(page_no: int, **shown: Any) -> SeasonPageButton:
        return SeasonPageButton(SeasonPageId(*common, page_no, caller_id or 0), **shown)

    return boards.paging_view(page, locale, button)


def bound_season_button(service: SeasonService) -> type[SeasonPageButton]:
    """The page-button class to register for one bot, reading that bot's seasons."""

    class BoundSeasonButton(SeasonPageButton, template=PAGE_IDS.template):
        pass

    BoundSeasonButton.service = service
    return BoundSeasonButton


# -- the commands -----------------------------------------------------------------------------------


async def leaderboard_command(
    interaction: discord.Interaction,
    stats: StatsService,
    seasons: SeasonService,
    *,
    variant: str | None,
    scope: str,
    sort: str,
    season: str,
) -> None:
    """``/rummy-stats leaderboard``: the all-time board as before (the default: it is the board
    players know, and a season board of a new month is nearly empty), or a season's board.
    Bad values are refused before deferring, as the all-time board does."""
    if season == ALL_TIME:
        await boards.leaderboard_command(
            interaction, stats, variant=variant, scope=scope, sort=sort
        )
        return
    if season not in (CURRENT, PREVIOUS):
        raise Refusal("seasons.bad_board", value=season)
    family, sort_key = boards.parse_family(variant), boards.parse_sort(sort)
    guild_id = interaction.guild_id
    if guild_id is None:
        raise Refusal("seasons.server_only")
    if boards.resolve_scope(scope, guild_id) != guild_id:
        raise Refusal("seasons.global_board")
    await interaction.response.defer()
    record = await (seasons.current if season == CURRENT else seasons.previous)(guild_id)
    caller = interaction.user.id
    page = await seasons.page(record, family=family, sort=sort_key, page=0, caller_id=caller)
    locale = public_locale_of(interaction)
    await interaction.followup.send(
        embed=season_embed(page, record, caller, seasons.clock(), locale),
        view=season_view(page, record, caller, locale),
    )


async def season_command(
    interaction: discord.Interaction,
    seasons: SeasonService,
    *,
    length: str | None,
    restart: bool,
) -> None:
    """``/rummy-stats season``: anyone sees the current season; Manage Server changes the length of
    the next seasons or restarts now (one sentence refuses anyone else)."""
    guild_id = interaction.guild_id
    if guild_id is None:
        raise Refusal("seasons.server_only")
    changing = length is not None or restart
    if changing and not can_manage_server(interaction):
        raise Refusal("seasons.admin_only")
    await defer_private(interaction)
    if changing:
        season = await seasons.configure(guild_id, length=length, restart=restart)
    else:
        season = await seasons.current(guild_id)
    locale = locale_of(interaction)
    start, end = dates(season)
    words = length_words(season.length, locale)
    if restart:
        sentence = t("seasons.restarted", locale, end=end)
    elif length is not None:
        sentence = t("seasons.changed", locale, length=words, when=relative(season.ends_at))
    else:
        sentence = t(
            "seasons.info",
            locale,
            start=start,
            end=end,
            when=relative(season.ends_at),
            length=words,
        )
    await reply(interaction, sentence)


# -- the season's end ----------------------------------------------------------------------------


class StandingsPoster:
    """Posts a season's final standings (the :class:`SeasonService`'s ``post``): a picture
    with its alt text in the server's language and one sentence, in the channel of the
    season's latest rated game. A channel gone or closed to the bot is logged and skipped:
    the end was claimed, so nothing retries it forever."""

    def __init__(self, client: discord.Client, store: GuildSettingsStore, drawer: Drawer) -> None:
        self.client = client
        self.store = store
        self.drawer = drawer

    async def __call__(
        self, season: SeasonRecord, entries: Sequence[LeaderboardEntry], players: int
    ) -> None:
        assert season.channel_id is not None
        channel = await self._channel(season.channel_id)
        if channel is None:
            return
        locale = normalise(await self.store.get_guild_setting(season.guild_id, GUILD_LOCALE))
        start, end = dates(season)
        scene = StandingsScene(
            t("seasons.standings_title", locale),
            t("seasons.standings_dates", locale, start=start, end=end, count=players),
            ("#", *(t(f"seasons.column.{c}", locale) for c in ("player", "rating", "games",
                                                                 "wins"))),
            tuple(_line(entry, locale) for entry in entries),
        )  # fmt: skip
        try:
            png = await self.drawer.png(scene)
        except DrawingFailed:
            log.exception("the standings of server %s could not be drawn", season.guild_id)
            return
        alt = standings_alt(season, entries, locale)
        try:
            await channel.send(
                t("seasons.ended", locale, start=start, end=end),
                file=BytesFile(png, "season.png", description=alt),
            )
        except discord.HTTPException:
            log.warning("the standings of server %s were not posted", season.guild_id)

    async def _channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = await messageable(self.client, channel_id)
        if channel is None:
            log.warning("channel %s for a season's standings is gone", channel_id)
        return channel


def _name(entry: LeaderboardEntry) -> str:
    return entry.name or str(entry.user_id)


def _line(entry: LeaderboardEntry, locale: str) -> StandingLine:
    rating = boards.format_rating(entry.rating, entry.rated_games, locale)
    return StandingLine(entry.rank, _name(entry), rating, entry.games, entry.wins)


def standings_alt(season: SeasonRecord, entries: Sequence[LeaderboardEntry], locale: str) -> str:
    """What the picture shows, in words, within Discord's 1,024 characters."""
    start, end = dates(season)
    lines = "; ".join(
        t(
            "seasons.alt_line",
            locale,
            rank=entry.rank,
            player=_name(entry),
            rating=boards.format_rating(entry.rating, entry.rated_games, locale),
            games=entry.games,
            wins=entry.wins,
        )
        for entry in entries
    )
    return fit(t("seasons.alt", locale, start=start, end=end, lines=lines), ALT_MAX)

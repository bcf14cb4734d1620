"""Discord side of /rummy-stats leaderboard and /rummy-stats player: embeds, page buttons, the answers.

The page buttons are a :class:`discord.ui.DynamicItem` whose custom id carries the whole page
request, so a button posted before a restart still works; the cog registers the class
:func:`bound_page_button` makes, which knows the statistics service.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import discord
from discord import app_commands

from bot.features.play.ui.widgets import component_view
from bot.features.stats.service import (
    ALL_VARIANTS,
    GLOBAL_SCOPE,
    PROVISIONAL_GAMES,
    TREND_GAMES,
    LeaderboardEntry,
    LeaderboardPage,
    StatsService,
    VariantStats,
    check_sort,
)
from bot.features.stats.ui import charts
from bot.render.drawing import Drawer
from bot.services.refusal import Refusal
from bot.storage.base import LEADERBOARD_SORTS, LeaderboardSort
from bot.text import t
from bot.ui.commands import choice
from bot.ui.custom_ids import CustomIdCodec
from bot.ui.interaction import public_locale_of
from rummy_engine import Variant

#: Values accepted for ``variant`` besides the engine's own (``r51``…), as players type them.
VARIANT_ALIASES: dict[str, str] = {"51": "r51", "71": "r71", "all": ALL_VARIANTS}
SCOPES = ("server", "global")
SORT_ALIASES: dict[str, LeaderboardSort] = {"win rate": "win_rate", "winrate": "win_rate"}

VARIANT_CHOICES: list[app_commands.Choice[str]] = [
    choice(f"variant.{v.value}", v.value) for v in Variant
]
SCOPE_CHOICES: list[app_commands.Choice[str]] = [
    choice(f"choice.scope.{scope}", scope) for scope in SCOPES
]
SORT_CHOICES: list[app_commands.Choice[str]] = [
    choice(f"choice.ranking.{sort}", sort) for sort in ("rating", "wins", "win_rate")
]


# -- option parsing ---------------------------------------------------------------------------


def parse_family(variant: str | None) -> str:
    """``None`` → every variant; otherwise a variant value or alias (``ValueError`` if unknown)."""
    if variant is None:
        return ALL_VARIANTS
    value = variant.strip().lower()
    value = VARIANT_ALIASES.get(value, value)
    if value == ALL_VARIANTS or value in {v.value for v in Variant}:
        return value
    raise Refusal(
        "leaderboard.bad_variant",
        value=variant,
        choices=", ".join([v.value for v in Variant] + [ALL_VARIANTS]),
    )


def parse_sort(sort: str) -> LeaderboardSort:
    value = sort.strip().lower()
    try:
        return check_sort(SORT_ALIASES.get(value, value))
    except ValueError:
        raise Refusal(
            "leaderboard.bad_sort", value=sort, choices=", ".join(LEADERBOARD_SORTS)
        ) from None


def resolve_scope(scope: str, guild_id: int | None) -> int:
    """``server`` → the guild id (global in DMs, which have no server); ``global`` → 0."""
    value = scope.strip().lower()
    if value not in SCOPES:
        raise Refusal("leaderboard.bad_scope", value=scope)
    return guild_id if value == "server" and guild_id else GLOBAL_SCOPE


# -- formatting ---------------------------------------------------------------------------------


def family_name(family: str, locale: str) -> str:
    key = "stats.all_variants" if family == ALL_VARIANTS else f"variant.{family}"
    return t(key, locale)


def scope_name(scope: int, locale: str) -> str:
    return t("stats.scope.global" if scope == GLOBAL_SCOPE else "stats.scope.server", locale)


def format_rating(rating: float | None, rated_games: int, locale: str) -> str:
    """Whole number with ``?`` while provisional; a dash before the first rated game."""
    if rating is None:
        return t("stats.no_value", locale)
    return f"{round(rating)}{'?' if rated_games < PROVISIONAL_GAMES else ''}"


def format_rate(rate: float) -> str:
    return f"{round(rate * 100)}%"


def format_trend(trend: float) -> str:
    rounded = round(trend)
    return f"+{rounded}" if rounded > 0 else ("±0" if rounded == 0 else f"−{-rounded}")


def player_label(user_id: int, name: str | None) -> str:
    """The stored seat name (works in any server) or, failing that, a mention."""
    return discord.utils.escape_markdown(name) if name else f"<@{user_id}>"


def leaderboard_line(entry: LeaderboardEntry, locale: str, *, bold_player: bool = False) -> str:
    player = player_label(entry.user_id, entry.name)
    return t(
        "leaderboard.line",
        locale,
        rank=entry.rank,
        player=f"__{player}__" if bold_player else player,
        rating=format_rating(entry.rating, entry.rated_games, locale),
        games=entry.games,
        wins=entry.wins,
        win_rate=format_rate(entry.win_rate),
    )


def leaderboard_embed(page: LeaderboardPage, caller_id: int | None, locale: str) -> discord.Embed:
    """Title, one line per player, the caller's own line when off the page, page footer."""
    embed = discord.Embed(
        title=t(
            "leaderboard.title",
            locale,
            variant=family_name(page.family, locale),
            scope=scope_name(page.scope, locale),
        ),
        colour=discord.Colour.gold(),
    )
    if page.entries:
        header = t("leaderboard.header", locale)
        lines = [t(f"leaderboard.sort.{page.sort}", locale), f"**{header}**"]
        lines += [
            leaderboard_line(e, locale, bold_player=e.user_id == caller_id) for e in page.entries
        ]
        embed.description = "\n".join(lines)
    else:
        embed.description = t("leaderboard.empty", locale)
    if caller_id and not page.caller_on_page:
        value = (
            leaderboard_line(page.caller, locale)
            if page.caller is not None
            else t("leaderboard.not_ranked", locale, player=f"<@{caller_id}>")
        )
        embed.add_field(name=t("leaderboard.position", locale), value=value, inline=False)
    footer = t(
        "leaderboard.footer",
        locale,
        page=page.page + 1,
        pages=page.page_count,
        count=page.total,
    )
    note = t("stats.provisional_note", locale, games=PROVISIONAL_GAMES)
    embed.set_footer(text=f"{footer} · {note}")
    return embed


# -- persistent page buttons ------------------------------------------------------------------------


@dataclass(frozen=True)
class PageId:
    """What a page button of a leaderboard carries: the whole page request (scope 0 = global,
    caller 0 = none), so a button posted before a restart still turns its page."""

    scope: int
    family: str
    sort: LeaderboardSort
    page: int
    caller_id: int


PAGE_IDS = CustomIdCodec(
    "rummy:lb", PageId, patterns={"page": r"-?\d+"}, parse={"sort": check_sort}
)


class LeaderboardPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=PAGE_IDS.template
):
    """Shows one page of a leaderboard, ``rummy:lb:<scope>:<family>:<sort>:<page>:<caller>``.
    Anyone may turn the pages of a public leaderboard; the position line keeps naming the player
    who asked."""

    service: ClassVar[StatsService | None] = None

    def __init__(self, target: PageId, *, label: str = "", disabled: bool = False) -> None:
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
    ) -> LeaderboardPageButton:
        return cls(PAGE_IDS.decode(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        assert self.service is not None, "registered through bound_page_button()"
        target = self.target
        page = await self.service.leaderboard(
            scope=target.scope,
            family=target.family,
            sort=target.sort,
            page=target.page,
            caller_id=target.caller_id or None,
        )
        locale = public_locale_of(interaction)
        await interaction.response.edit_message(
            embed=leaderboard_embed(page, target.caller_id or None, locale),
            view=leaderboard_view(page, target.caller_id, locale),
        )


def paging_view(
    page: LeaderboardPage, locale: str, button: Callable[..., discord.ui.Item[Any]]
) -> discord.ui.View:
    """Previous/Next of any board, disabled at the ends. Their targets always differ (page−1,
    page+1); ``button(page_no, label=..., disabled=...)`` makes the board's own button."""
    return component_view(
        button(
            page.page - 1, label=t("leaderboard.previous", locale), disabled=not page.has_previous
        ),
        button(page.page + 1, label=t("leaderboard.next", locale), disabled=not page.has_next),
    )


def leaderboard_view(page: LeaderboardPage, caller_id: int | None, locale: str) -> discord.ui.View:
    """The all-time board's Previous/Next."""

    def button(page_no: int, **shown: Any) -> LeaderboardPageButton:
        target = PageId(page.scope, page.family, page.sort, page_no, caller_id or 0)
        return LeaderboardPageButton(target, **shown)

    return paging_view(page, locale, button)


def bound_page_button(service: StatsService) -> type[LeaderboardPageButton]:
    """The page-button class to register for one bot, reading that bot's statistics."""

    class BoundPageButton(LeaderboardPageButton, template=PAGE_IDS.template):
        pass

    BoundPageButton.service = service
    return BoundPageButton


# -- /rummy-stats player -----------------------------------------------------------------------------------


def variant_field(stats: VariantStats, locale: str) -> str:
    """The lines of one variant in /rummy-stats player."""
    none = t("stats.no_value", locale)
    lines = [
        t(
            "stats.games",
            locale,
            games=stats.games,
            wins=stats.wins,
            win_rate=format_rate(stats.win_rate),
        )
    ]
    if stats.rating is None:
        lines.append(t("stats.rating_unrated", locale))
    else:
        lines.append(
            t(
                "stats.rating",
                locale,
                rating=format_rating(stats.rating, stats.rated_games, locale),
                trend=format_trend(stats.trend or 0.0),
                count=min(stats.rated_games, TREND_GAMES),
            )
        )
    penalty = none if stats.average_penalty is None else f"{stats.average_penalty:.1f}"
    lines.append(
        t(
            "stats.rounds",
            locale,
            penalty=penalty,
            opening=stats.best_opening or none,
            rami_sec=stats.rami_sec,
        )
    )
    lines.append(t("stats.streak", locale, streak=stats.best_streak))
    if stats.favourite_partner is not None:
        partner, together = stats.favourite_partner
        lines.append(t("stats.partner", locale, partner=f"<@{partner}>", count=together))
    return "\n".join(lines)


def stats_embed(
    player_name: str, scope: int, rows: list[VariantStats], locale: str
) -> discord.Embed:
    embed = discord.Embed(
        title=t("stats.title", locale, player=player_name), colour=discord.Colour.blurple()
    )
    if not rows:
        embed.description = t("stats.empty", locale, player=player_name)
    for stats in rows:
        embed.add_field(
            name=family_name(stats.family, locale),
            value=variant_field(stats, locale),
            inline=False,
        )
    note = t("stats.provisional_note", locale, games=PROVISIONAL_GAMES)
    embed.set_footer(text=f"{scope_name(scope, locale)} · {note}")
    return embed


# -- the two command bodies ------------------------------------------------------------------------


async def leaderboard_command(
    interaction: discord.Interaction,
    service: StatsService,
    *,
    variant: str | None,
    scope: str,
    sort: str,
) -> None:
    """The whole /rummy-stats leaderboard answer: a public embed with page buttons.

    Bad option values are refused (privately, by the error path) *before* deferring: a
    deferred public reply cannot become ephemeral.
    """
    family = parse_family(variant)
    sort_key = parse_sort(sort)
    scope_id = resolve_scope(scope, interaction.guild_id)
    await interaction.response.defer()
    caller_id = interaction.user.id
    page = await service.leaderboard(
        scope=scope_id, family=family, sort=sort_key, page=0, caller_id=caller_id
    )
    locale = public_locale_of(interaction)
    await interaction.followup.send(
        embed=leaderboard_embed(page, caller_id, locale),
        view=leaderboard_view(page, caller_id, locale),
    )


async def stats_command(
    interaction: discord.Interaction,
    service: StatsService,
    *,
    player: discord.User | discord.Member | None,
    scope: str = "server",
    drawer: Drawer | None = None,
) -> None:
    """The whole /rummy-stats player answer: per variant numbers of *player* (default: the caller),
    with their rating history as a chart (drawn by ``drawer``) once they have rated games."""
    scope_id = resolve_scope(scope, interaction.guild_id)
    await interaction.response.defer()
    target = player or interaction.user
    rows = await service.player_stats(scope=scope_id, user_id=target.id)
    locale = public_locale_of(interaction)
    embed = stats_embed(target.display_name, scope_id, rows, locale)
    chart = None
    if drawer is not None:
        families = {row.family: row.rated_games for row in rows if row.rated_games}
        chart = await charts.rating_file(
            drawer, service.store, scope_id, target, families,
            lambda family: family_name(family, locale), locale,
        )  # fmt: skip
    if chart is None:
        await interaction.followup.send(embed=embed)
        return
    embed.set_image(url=f"attachment://{chart.filename}")
    await interaction.followup.send(embed=embed, file=chart)

"""Where the charts go: the score chart on the final result, the rating chart on /rummy-stats player.

Why on messages the bot sends anyway: the final round's summary (posted at the game's end, and
holding the 🏆 line) carries the score chart as its second picture, so a game costs no extra
bot-token call for it; a game ended by a forfeit has no summary at its end, so its final table
message (edited then anyway) carries it. /rummy-stats player answers its own interaction (exempt from
the bot token's budget) with the rating chart as the embed's picture.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

import discord

from bot.features.play.tables import Table
from bot.features.play.ui.messages import Draft
from bot.features.stats import charts
from bot.features.stats.charts import Chart
from bot.features.stats.service import ALL_VARIANTS
from bot.features.stats.store import StatsStore
from bot.render.drawing import Drawer, DrawingFailed
from bot.ui.files import BytesFile
from rummy_engine import Phase, RoundResult

log = logging.getLogger(__name__)


def on_round(table: Table, result: RoundResult, draft: Draft, locale: str) -> Draft:
    """The summary of the round that ended the game, with the score chart."""
    game = table.game
    if game is None or not charts.ended_by_round(game) or result != game.results[-1]:
        return draft
    return _with(draft, charts.score_chart(table, locale))


def on_table(table: Table, draft: Draft, locale: str) -> Draft:
    """The final table message of a game ended otherwise than by a round (a forfeit), with the
    score chart of the rounds played."""
    game = table.game
    if game is None or game.phase is not Phase.GAME_OVER or charts.ended_by_round(game):
        return draft
    return _with(draft, charts.score_chart(table, locale))


def _with(draft: Draft, chart: Chart | None) -> Draft:
    if chart is None:
        return draft
    return draft.with_extra(chart.scene, chart.filename, chart.description)


async def chart_file(drawer: Drawer, chart: Chart) -> discord.File:
    """The chart drawn off the event loop, as an attachment with its alt text."""
    png = await drawer.png(chart.scene)
    return BytesFile(png, filename=chart.filename, description=chart.description)


async def rating_file(
    drawer: Drawer,
    store: StatsStore,
    scope: int,
    player: discord.abc.User,
    families: Mapping[str, int],
    name_of: Callable[[str], str],
    locale: str,
) -> discord.File | None:
    """The rating chart of ``player`` in ``scope``, one line per family of ``families`` (each
    with its count of rated games, none 0) (a line for all variants only beside two variants or more, where it differs);
    None without any rated game."""
    variants = [f for f in families if f != ALL_VARIANTS]
    shown = (
        [*variants, ALL_VARIANTS] if len(variants) > 1 and ALL_VARIANTS in families else variants
    )
    if not shown:
        shown = [f for f in families if f == ALL_VARIANTS]
    named = [(family, name_of(family), families[family]) for family in shown]
    histories = await charts.rating_histories(store, scope, player.id, named)
    chart = charts.rating_chart(player.display_name, histories, player.id, locale)
    if chart is None:
        return None
    try:
        return await chart_file(drawer, chart)
    except DrawingFailed:  # the numbers still answer: the reply goes without its picture
        log.exception("the rating chart of %s could not be drawn", player.id)
        return None

"""English sentences of /rummy leaderboard and /rummy stats.

Kept in their own module (like :mod:`bot.text.catalog_game`) so the statistics feature can be
reviewed and translated on its own; :func:`bot.text.t` serves them once merged into the
catalogue. Keys start with ``leaderboard.`` or ``stats.`` so they cannot collide.
"""

from __future__ import annotations

STATS_EN: dict[str, str] = {
    # shared names
    "stats.all_variants": "All variants",
    "stats.scope.server": "This server",
    "stats.scope.global": "All servers",
    "stats.provisional_note": "? = provisional rating (fewer than {games} rated games)",
    "stats.no_value": "—",
    # leaderboard
    "leaderboard.title": "Leaderboard · {variant} · {scope}",
    "leaderboard.sort.rating": "Sorted by rating",
    "leaderboard.sort.wins": "Sorted by wins",
    "leaderboard.sort.win_rate": "Sorted by win rate",
    "leaderboard.header": "Rank · Player · Rating · Games · Wins · Win rate",
    "leaderboard.line": "`#{rank}` {player} · **{rating}** · {games} · {wins} · {win_rate}",
    "leaderboard.empty": "No finished games are recorded here yet.",
    "leaderboard.position": "Position of the player who asked",
    "leaderboard.not_ranked": "{player} has no recorded games on this leaderboard yet.",
    "leaderboard.footer[one]": "Page {page}/{pages} · {count} player",
    "leaderboard.footer[other]": "Page {page}/{pages} · {count} players",
    "leaderboard.previous": "Previous",
    "leaderboard.next": "Next",
    "leaderboard.bad_variant": "There is no variant called {value!r}. Choose one of: {choices}.",
    "leaderboard.bad_scope": "The scope must be 'server' or 'global', not {value!r}.",
    "leaderboard.bad_sort": "The sort must be one of: {choices} (not {value!r}).",
    # player statistics
    "stats.title": "Statistics · {player}",
    "stats.empty": "{player} has no recorded games here yet.",
    "stats.games": "Games **{games}** · Wins **{wins}** · Win rate **{win_rate}**",
    "stats.rating[one]": "Rating **{rating}** · trend **{trend}** (last rated game)",
    "stats.rating[other]": "Rating **{rating}** · trend **{trend}** (last {count} rated games)",
    "stats.rating_unrated": "Not rated yet (games with a computer player are not rated)",
    "stats.rounds": (
        "Average penalty per round **{penalty}** · Best opening **{opening}** · "
        "Rami sec **{rami_sec}**"
    ),
    "stats.streak": "Longest win streak **{streak}**",
    "stats.partner[one]": "Favourite partner {partner} ({count} game together)",
    "stats.partner[other]": "Favourite partner {partner} ({count} games together)",
}

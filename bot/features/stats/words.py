"""English sentences of leaderboards, a player's statistics and the charts.

Keys are prefixed by what they belong to, so they cannot collide with another feature's.
:func:`bot.text.t` serves them (every feature's ``words.WORDS`` joins the catalogue).
"""

from __future__ import annotations

WORDS: dict[str, str] = {
    # -- Leaderboards and a player's statistics
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
    # -- The charts (a game's scores by round, a player's rating)
    "charts.score_title": "Scores by round · {title}",
    "charts.round": "Round",
    "charts.points": "Points",
    "charts.limit": "Limit {limit}",
    "charts.rating_title": "Rating of {player}",
    "charts.rated_game": "Rated game",
    "charts.rating": "Rating",
    "charts.score_alt": "Chart of each side's total after every round, against the limit of {limit} points.",
    "charts.score_alt_basic": "Chart of each player's total after every round.",
    "charts.alt_series": "{name}: {values}",
    "charts.alt_no_winner": "No winner: nobody won a round.",
    "charts.alt_winners[one]": "Winner: {winners}.",
    "charts.alt_winners[other]": "Winners: {winners}.",
    "charts.rating_alt": "Chart of the rating of {player} after each rated game.",
    # -- Slash commands: ``command.<name>`` describes one, ``command.<name>.<option>`` an option
    "command.leaderboard": "The best players, by rating, wins or win rate",
    "command.leaderboard.variant": "Which rummy (default: all)",
    "command.leaderboard.scope": "This server or all servers",
    "command.leaderboard.sort": "How to rank the players",
    "command.player": "A player's games, wins, rating and records",
    "command.player.player": "Whose statistics (default: yours)",
    "command.player.scope": "This server or all servers",
}

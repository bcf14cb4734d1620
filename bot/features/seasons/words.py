"""English sentences of seasons (a server's date ranges and their boards, never resets).

Keys are prefixed by what they belong to, so they cannot collide with another feature's.
:func:`bot.text.t` serves them (every feature's ``words.WORDS`` joins the catalogue).
"""

from __future__ import annotations

WORDS: dict[str, str] = {
    # the slash commands (short: each top-level command keeps under 3,400 characters)
    "command.season": "See or set seasons",
    "command.season.length": "Length: days or month",
    "command.season.restart": "End this season now",
    "command.leaderboard.season": "Season",
    "seasons.choice.current": "Current",
    "seasons.choice.previous": "Previous",
    "seasons.choice.all_time": "All-time",
    "seasons.choice.month": "Month",
    # refusals
    "seasons.admin_only": "Only a member with Manage Server can change the seasons.",
    "seasons.server_only": "Seasons belong to a server: use this command in one.",
    "seasons.global_board": "Season boards belong to this server: leave scope on server to see one.",
    "seasons.bad_board": "The season must be current, previous or all-time (not {value!r}).",
    # /rummy-stats season
    "seasons.info": "This season runs from {start} to {end} (it ends {when}). The seasons after it last {length}. At its end, its final standings are posted in the channel of its latest rated game.",
    "seasons.changed": "From the next season on, seasons last {length}; this one still ends {when}.",
    "seasons.restarted": "A new season starts now and runs until {end}; the final standings of the one that just ended are posted in the channel of its latest rated game.",
    "seasons.length.month": "a calendar month (UTC)",
    "seasons.length.days[one]": "{count} day",
    "seasons.length.days[other]": "{count} days",
    # boards
    "seasons.current": "This season ({start} – {end})",
    "seasons.named": "Season {start} – {end}",
    "seasons.board_title": "Leaderboard · {variant} · {season}",
    "seasons.board_empty": "Nobody played a rated game in this season yet.",
    # the season's end
    "seasons.standings_title": "Final standings of the season",
    "seasons.standings_dates[one]": "{start} – {end} · {count} player",
    "seasons.standings_dates[other]": "{start} – {end} · {count} players",
    "seasons.column.player": "Player",
    "seasons.column.rating": "Rating",
    "seasons.column.games": "Games",
    "seasons.column.wins": "Wins",
    "seasons.ended": "The season from {start} to {end} is over: here are its final standings. A new season has begun: /rummy-stats leaderboard season:current shows it.",
    "seasons.alt": "Final standings of the season from {start} to {end}, best first: {lines}.",
    "seasons.alt_line": "{rank}. {player}: rating {rating}, games {games}, wins {wins}",
    # -- Slash commands: ``command.<name>`` describes one, ``command.<name>.<option>`` an option

}

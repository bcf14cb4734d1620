"""English sentences of the charts (the game's scores at its end, a player's rating history).

Kept in their own module (like :mod:`bot.text.catalog_again`) so the feature is reviewed and
translated on its own; keys start with ``charts.`` so they cannot collide.
"""

from __future__ import annotations

CHARTS_EN: dict[str, str] = {
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
    "charts.alt_winners[one]": "Winner: {winners}.",
    "charts.alt_winners[other]": "Winners: {winners}.",
    "charts.rating_alt": "Chart of the rating of {player} after each rated game.",
}

"""The Discord side of statistics: the leaderboard's embeds and page buttons, a player's
statistics, and where the charts are attached."""

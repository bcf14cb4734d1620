"""Statistics: every finished game recorded and rated, the leaderboards, a player's numbers and
the charts of a game's scores and a player's rating."""

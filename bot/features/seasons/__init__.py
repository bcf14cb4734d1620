"""Seasons: a server's date ranges, each with a board rated again from its own games (views,
never resets), and the final standings posted at a season's end."""

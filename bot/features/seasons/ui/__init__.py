"""The Discord side of seasons: the season command, season boards and their pages, and the post
of a season's final standings."""

"""English sentences of Play again (the final table's button that opens the next lobby).

Kept in their own module (like :mod:`bot.text.catalog_stats`) so the feature is reviewed and
translated on its own; keys start with ``again.`` so they cannot collide.
"""

from __future__ import annotations

AGAIN_EN: dict[str, str] = {
    "again.button": "Play again",
    "again.opened": "A new lobby with the same settings is open in this channel; you are seated. The other players are offered their seats.",
    "again.not_played": "Only the players of this game can open the next one; to play, open your own table with /rummy new.",
    "again.not_finished": "Play again opens the next game once this one is over.",
    "again.exists": "The next game's lobby is already open: https://discord.com/channels/{guild}/{channel}/{message} (press Join there).",
    "again.exists_unposted": "The next game's lobby is already open and being posted in <#{channel}>; press Join there.",
    "again.seats_kept[one]": "{players}: your seat is kept until {when}; press Join to play again.",
    "again.seats_kept[other]": "{players}: your seats are kept until {when}; press Join to play again.",
    "again.used": "Play again was already used for this game (table #{table}); to play once more, press Play again on that table's final message or open a table with /rummy new.",
    "again.seat_kept": "The free seats are kept for the players of the last game ({players}) until the lobby closes; try again if one of them does not join.",
}

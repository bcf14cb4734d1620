"""English sentences of replays (the Replay button, /rummy replay and the step-through).

Kept in their own module (like :mod:`bot.text.catalog_again`) so the feature is reviewed and
translated on its own; keys start with ``replay.`` so they cannot collide.
"""

from __future__ import annotations

REPLAY_EN: dict[str, str] = {
    "replay.button": "Replay",
    "replay.step_button": "Step through",
    "replay.prev": "◀",
    "replay.next": "▶",
    "replay.deal": "Round {round}: the deal. {player} plays first.",
    "replay.turn": "Turn {turn} · {move}",
    "replay.played": "{player} played.",
    "replay.ready.round": "Replay of round {round} of table {table} ({count} frames). Step through it move by move with the button below.",
    "replay.ready.game": "Replay of the whole game at table {table}: {rounds} rounds, {count} frames.",
    "replay.step": "**{title}** · round {round} · frame {frame} of {count}",
    "replay.step.hand": "Your hand then: {cards}",
    "replay.step.spectator": "You did not play this game: you see what the table showed, without any hand.",
    "replay.no_game": "Table {table} has no game to replay yet.",
    "replay.none_finished": "No round of table {table} is over yet: a replay is drawn once a round is over.",
    "replay.not_finished": "Round {round} of table {table} is still being played: its replay is drawn once the round is over.",
    "replay.no_round": "Table {table} has no finished round {round}; its finished rounds are 1 to {last}.",
    "replay.which_table": "This channel has no open table: name the one to replay with the table option (its number is in the table's title).",
    "replay.too_big": "This replay is too large to send; replay one round at a time with /rummy replay.",
    "replay.alt.round": "Animated replay of {title}, round {round}, in {count} frames: the deal, the table after each turn, then every hand at the round's end; until then no hand is shown.",
    "replay.alt.game": "Animated replay of the whole game of {title}: {rounds} rounds in {count} frames, each round's deal, the table after each turn and every hand at the round's end; until then no hand is shown.",
    "replay.alt.step": "Replay of {title}, round {round}, frame {frame} of {count}: {caption}",
    "replay.alt.melds": "Melds on the table: {melds}.",
    "replay.alt.no_melds": "No meld on the table.",
    "replay.alt.hands": "Hands left: {hands}.",
    "replay.alt.end": "{headline} Totals: {totals}.",
    "command.replay": "Replay a finished round (GIF)",
    "command.replay.table": "Table number (default: this channel's)",
    "command.replay.round": "Round (default: the last one over)",
}

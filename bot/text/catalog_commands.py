"""English words of the slash commands that no single feature owns: the top-level commands'
descriptions (``cogs/surface.py`` lists them), and the choices and table options' values that
several commands and menus show.

A feature's own commands are described in its ``words.py`` (``command.<name>`` and
``command.<name>.<option>``, the keys :func:`bot.ui.commands.leaf` derives from the names).
Discord shows these in its command picker; :class:`bot.ui.commands.CatalogueTranslator` hands
it the other languages. Names are not here: they stay English identifiers, typed as written in
every language. Keys: ``choice.<group>.<value>`` for a choice, ``option.<key>.<value>`` for a
table option's value.
"""

from __future__ import annotations

COMMANDS_EN: dict[str, str] = {
    "command.rummy": "Play rummy at this table",
    "command.rummy-stats": "Leaderboards, statistics, seasons and replays",
    "command.rummy-learn": "The rules, and the score calculator",
    "command.rummy-settings": "Your display, and a server's defaults of new tables",
    # choices
    "choice.mode.1v1": "1v1",
    "choice.mode.2v2": "2v2 (partners opposite)",
    "choice.mode.basic": "2–6 players (Basic rummy)",
    "choice.sort.suit": "by suit and rank",
    "choice.sort.melds": "by the melds it holds",
    "choice.computer.add": "add",
    "choice.computer.remove": "remove",
    "choice.team.0": "Team A",
    "choice.team.1": "Team B",
    "choice.source.stock": "stock",
    "choice.strength.easy": "easy",
    "choice.strength.normal": "normal",
    "choice.strength.strong": "strong",
    "choice.end.low": "low end",
    "choice.end.high": "high end",
    "choice.source.discard": "discard pile",
    "choice.scope.server": "server",
    "choice.scope.global": "global",
    "choice.ranking.rating": "rating",
    "choice.ranking.wins": "wins",
    "choice.ranking.win_rate": "win rate",
    "choice.language.en": "English",
    "choice.language.fr": "Français",
    # values shared by several table settings (their own words: bot/features/play/words.py)
    "option.on": "on",
    "option.off": "off",
    "option.none": "none",
    "option.unlimited": "unlimited",
    "lobby.option_item": "{option}: {value}",
    "lobby.team_line": "{team}: {players}",
}

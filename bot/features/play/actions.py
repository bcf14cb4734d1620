"""The bot's one vocabulary of what a player asks for: the buttons and selects that draw it,
the routes that dispatch it and the move builders that turn it into engine actions all name
these members, never their text.

Why here and not in ``bot/ui``: the services read it too, and nothing below the Discord layer
imports ``bot/ui``. The values are the action field of every component's custom_id
(``rummy:<table>:<turn>:<action>[:<arg>]``): buttons already posted in Discord carry them, so a
value is never changed once released (``tests/services/test_actions.py`` holds the released ones).
"""

from __future__ import annotations

from enum import StrEnum


class Action(StrEnum):
    """A request of a lobby or table control (not an engine action: :mod:`bot.features.play.moves`
    turns the moves among these into those)."""

    JOIN = "join"
    JOIN_A = "join_a"
    JOIN_B = "join_b"
    LEAVE = "leave"
    SIT_OUT = "sitout"
    START = "start"
    CANCEL = "cancel"
    SETTINGS = "settings"
    ADD_COMPUTER = "addbot"
    REMOVE_COMPUTER = "rmbot"
    DRAW = "draw"
    TAKE = "take"
    HAND = "hand"
    NEXT_ROUND = "next"
    LAY = "lay"
    DISCARD = "discard"
    UNDO = "undo"
    PICK = "pick"
    ADD_TO = "addto"
    SWAP_IN = "swapin"
    SET_OPTION = "setopt"
    SET_VALUE = "setval"
    ARRANGE = "arrange"
    # the go-out question of coached practice: back to the hand panel, nothing played
    BACK = "back"
    ADD_END = "addend"
    ADD_COMPUTER_AS = "addbotas"
    ABSENT_REPLACE = "absrep"
    ABSENT_WAIT = "abswait"
    ABSENT_END = "absend"
    PLAY_AGAIN = "again"
    # /rummy-settings server's private panel (the table field of the custom_id is 0; the arg names the
    # scope, ``s`` the server or ``c`` the channel the panel was opened in, then the key)
    DEFAULTS_SCOPE = "defscope"
    DEFAULTS_CLEAR = "defclear"
    DEFAULTS_KEY = "defkey"
    DEFAULTS_VALUE = "defval"
    # the round summary's "Review my round" (answered only to the presser)
    REVIEW = "review"
    REPLAY = "replay"
    REPLAY_STEP = "rstep"
    REPLAY_MOVE = "rmove"


#: The host's answers about an absent player (the component's arg is the seat).
ABSENT_CHOICES = {
    Action.ABSENT_REPLACE: "replace",
    Action.ABSENT_WAIT: "wait",
    Action.ABSENT_END: "end",
}

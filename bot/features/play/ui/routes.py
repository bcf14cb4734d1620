"""Where a click goes: one table from component action to handler."""

from __future__ import annotations

import discord

from bot.features.defaults.ui.panel import DEFAULTS_ACTIONS, DefaultsHandlers
from bot.features.play import moves
from bot.features.play.actions import ABSENT_CHOICES, Action
from bot.features.play.ui.lobby import LobbyHandlers
from bot.features.play.ui.play import PlayHandlers
from bot.features.play.ui.widgets import Click, Router
from bot.features.replays.ui.replay import ReplayHandlers
from bot.features.replays.ui.review import ReviewHandlers
from bot.services.refusal import Refusal
from rummy_engine.ai import Strength

SEATING = frozenset(
    {
        Action.JOIN,
        Action.JOIN_A,
        Action.JOIN_B,
        Action.LEAVE,
        Action.SIT_OUT,
        Action.CANCEL,
        Action.REMOVE_COMPUTER,
    }
)

#: The lobby's buttons (and the strength select they open): pressed once the game has
#: started (a lobby not yet edited into the table), they are refused as such.
LOBBY_PRESSES = SEATING | {
    Action.ADD_COMPUTER,
    Action.ADD_COMPUTER_AS,
    Action.START,
    Action.SETTINGS,
}


def make_router(lobby: LobbyHandlers, play: PlayHandlers) -> Router:
    """The router the table components are bound to."""
    defaults = DefaultsHandlers(lobby.ui)
    review = ReviewHandlers(play.ui.tables, play.ui.store)
    replays = ReplayHandlers(lobby.ui)

    async def route(interaction: discord.Interaction, click: Click) -> None:
        try:
            await dispatch(interaction, click)
        except Refusal as refusal:
            if click.action in LOBBY_PRESSES and refusal.code == "lobby.already_started":
                raise Refusal("button.lobby_started") from refusal
            raise

    async def dispatch(interaction: discord.Interaction, click: Click) -> None:
        tid, action = click.table_id, click.action
        if action in DEFAULTS_ACTIONS:
            await defaults.click(interaction, click)
        elif action in SEATING:
            await lobby.seat(interaction, tid, action, lobby_only=True)
        elif action is Action.ADD_COMPUTER:
            await lobby.ask_strength(interaction, tid)
        elif action is Action.ADD_COMPUTER_AS:
            strength = Strength(click.values[0])
            await lobby.seat(interaction, tid, Action.ADD_COMPUTER, strength=strength)
        elif action is Action.START:
            await lobby.start(interaction, tid)
        elif action is Action.SETTINGS:
            await lobby.settings(interaction, tid)
        elif action is Action.SET_OPTION:
            await lobby.pick_option(interaction, tid, click.values[0])
        elif action is Action.SET_VALUE:
            await lobby.set_option(interaction, tid, click.arg, click.values[0])
        elif action is Action.HAND:
            await play.show_hand(interaction, tid)
        elif action is Action.NEXT_ROUND:
            await play.next_round(interaction, tid)
        elif action in ABSENT_CHOICES:
            await lobby.decide_absent(interaction, tid, int(click.arg), ABSENT_CHOICES[action])
        elif action is Action.PLAY_AGAIN:
            await lobby.play_again(interaction, tid)
        elif action is Action.REVIEW:
            await review.review(interaction, tid, int(click.arg or 0))
        elif action is Action.REPLAY:
            await replays.pressed(interaction, tid, click.arg)
        elif action in (Action.REPLAY_STEP, Action.REPLAY_MOVE):
            edit = action is Action.REPLAY_MOVE
            await replays.step(interaction, tid, click.turn, click.arg, edit=edit)
        elif action is Action.PICK:
            await play.pick_cards(interaction, tid, click.values)
        elif action is Action.BACK:
            await play.pick_cards(interaction, tid, ())
        else:
            in_panel = bool(interaction.message and interaction.message.flags.ephemeral)
            build = moves.clicked(action, click.arg, click.values)
            await play.play(interaction, tid, build, turn=click.turn, in_panel=in_panel)

    return route

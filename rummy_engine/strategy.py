"""The computer player as the bot and the tests call it: the seat to play, seen through its own
view only (see :mod:`rummy_engine.ai` for how each strength decides).

Why this wrapper stays: callers hold a whole :class:`Game`, and the one place that turns it into
the current seat's view should be here, not copied into each caller. Given the same game, random
generator and strength it always picks the same action.
"""

from __future__ import annotations

import random

from rummy_engine.actions import Action, StartRound
from rummy_engine.ai import Strength, decide
from rummy_engine.game import Game, Phase
from rummy_engine.view import player_view


def choose_action(game: Game, rng: random.Random, strength: Strength = Strength.NORMAL) -> Action:
    """A legal action for ``game.current`` (or the next round once a round is over)."""
    if game.phase is Phase.ROUND_OVER:
        return StartRound()
    return decide(player_view(game, game.current), game.rules, rng, strength)

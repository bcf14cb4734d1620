"""Computer players, hints and the score calculator, all computed from what one seat may know.

>>> import random
>>> from rummy_engine import Game, Rules, Variant, player_view
>>> from rummy_engine.ai import Strength, decide
>>> game = Game.new(Rules(Variant.R51, 2), seed=3)
>>> action = decide(player_view(game, game.current), game.rules, random.Random(1), Strength.STRONG)
>>> game.can(action)
True
"""

from rummy_engine.ai.count import Count, count
from rummy_engine.ai.hint import Hint, OpeningHint, hint
from rummy_engine.ai.player import Strength, decide

__all__ = ["Count", "Hint", "OpeningHint", "Strength", "count", "decide", "hint"]

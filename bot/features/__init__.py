"""The bot's features, a folder each: what a player or a server manager does with the bot.

Each folder holds the feature's services (no discord), its Discord side (``ui/``, and the slash
commands it adds), and its English sentences (``words.py``, its ``WORDS``, which join the
catalogue of :mod:`bot.text` by themselves). Below the features lie the shared parts they all
use: :mod:`bot.storage`, :mod:`bot.text`, :mod:`bot.render`, :mod:`bot.services` (deadlines,
shutdown, refusals) and :mod:`bot.ui` (answering Discord within its limits). Nothing there
imports a feature; a feature imports another's services where it builds on them (play is the
one the others build on).
"""

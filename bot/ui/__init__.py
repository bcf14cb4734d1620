"""Answering Discord, for every feature: interactions answered in time, the bot token's pace and
global limit, interaction tokens kept to carry public messages, the one error path, and the
translator of the slash commands. Nothing here imports a feature.
"""

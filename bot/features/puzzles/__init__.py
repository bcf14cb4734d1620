"""The puzzle of the day: a rummy position from a real game, posted in a server's channel at a
chosen hour, answered privately, with streaks and the solution the next day."""

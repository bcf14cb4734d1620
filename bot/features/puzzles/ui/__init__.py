"""The puzzle of the day's Discord answers."""

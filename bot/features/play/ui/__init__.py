"""The Discord side of play: handlers of typed moves and clicks, the table's components and
messages, and the reconciler that brings every message to the stored table."""

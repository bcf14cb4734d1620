"""Game services: the layer between Discord surfaces (cogs, views) and the engine and store.

Cogs parse and acknowledge; services lock a table, load it, ask the engine, commit the move and
hand back what changed; delivery turns that into Discord messages.
"""

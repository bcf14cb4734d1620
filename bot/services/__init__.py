"""Game services: everything between the Discord layer (``bot/ui``) and the engine and store.

Handlers acknowledge and answer; services lock a table, load it once, ask the engine, commit the
move and hand back what changed; the reconciler turns the stored state into Discord messages.
Nothing here imports discord, so all of it runs and is tested without Discord.
"""

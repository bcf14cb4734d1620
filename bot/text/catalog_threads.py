"""English sentences of a thread per game (``/rummy new thread:yes``).

Kept in their own module (like :mod:`bot.text.catalog_again`) so the feature is reviewed and
translated on its own; keys start with ``threads.``, except those the shared mechanisms name:
``command.new.thread`` (the option's description), ``option.thread`` and its values (the
lobby's Settings and ``/rummy new`` read ``option.<key>``) and ``closed.channel_gone`` (the
reason a table closed by itself).
"""

from __future__ import annotations

THREADS_EN: dict[str, str] = {
    "command.new.thread": "Play it in a thread of its own",
    "option.thread": "Thread per game",
    "option.thread.yes": "Yes",
    "option.thread.no": "No",
    "threads.lobby_note": "The game is played in a thread of its own, opened at the start.",
    "threads.name": "{title} · {players}",
    "threads.lobby_line": "**{title}** is played in its own thread: <#{thread}>",
    "threads.result_over": "**{title}** is over: {winners} won. The game: {link}",
    "threads.result_cancelled": "**{title}** was cancelled. The game: {link}",
    "threads.result_gone": "**{title}** was cancelled: its thread was deleted.",
    "threads.refused": "I may not create threads in this channel (Create Public Threads permission), so this game is played here.",
    "threads.doctor.permissions": "Permissions the invite link asks for: {permissions}",
    "threads.perm.read_messages": "View Channels",
    "threads.perm.send_messages": "Send Messages",
    "threads.perm.send_messages_in_threads": "Send Messages in Threads",
    "threads.perm.create_public_threads": "Create Public Threads",
    "threads.perm.embed_links": "Embed Links",
    "threads.perm.attach_files": "Attach Files",
    "threads.perm.read_message_history": "Read Message History",
    "threads.perm.use_application_commands": "Use Application Commands",
    "closed.channel_gone": "The table was closed: its channel or thread was deleted.",
}

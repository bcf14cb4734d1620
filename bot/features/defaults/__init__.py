"""Server defaults: what a server or a channel gives its new tables (variant, mode, options,
timer, language, thread), set in a private panel by a member with Manage Server."""

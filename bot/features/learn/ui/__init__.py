"""The course in Discord: the command's answer and the lesson controls."""

"""Play: opening a table, its lobby and seats, the game turn by turn, and what every message of
the table shows (the reconciler), with computers, turn timers and a thread per game."""

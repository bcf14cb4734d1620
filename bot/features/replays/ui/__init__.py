"""The Discord side of replays and reviews: the Replay and Review buttons, the replay command and
the step-through."""

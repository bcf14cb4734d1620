"""Replays and reviews: a finished round rebuilt from the move log, as a GIF and step by step,
and a player's own turns of a round reviewed from what they knew then."""

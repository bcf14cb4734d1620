"""Lessons you play: a private course of short chapters whose exercises the engine checks."""

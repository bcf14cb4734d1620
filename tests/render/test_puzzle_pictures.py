"""The puzzle of the day's pictures: the real renderer draws only what the mover saw, so twin
positions (differing only in hidden cards) give the same bytes and the same alt text."""

from __future__ import annotations

import pytest

from bot.features.puzzles.service import DayPuzzle
from bot.features.puzzles.ui.answers import pictures
from bot.render.drawing import ThreadDrawer
from bot.storage.base import PuzzleRecord
from rummy_engine.ai.puzzles import PuzzleKind, puzzle_at
from rummy_engine.view import player_view
from tests.engine.test_puzzles import first, hidden_swapped


@pytest.mark.parametrize("kind", [PuzzleKind.SAFE_DISCARD, PuzzleKind.FREE_JOKER])
async def test_twin_positions_give_the_same_pictures_byte_for_byte(kind: PuzzleKind) -> None:
    """What the post shows (the table and the hand, drawn by the real renderer, with their alt
    text) depends only on what the mover saw."""
    game, puzzle = first(kind)
    twin = puzzle_at(player_view(hidden_swapped(game, puzzle.seat), puzzle.seat), kind)
    assert twin is not None
    drawer = ThreadDrawer()
    shown = []
    for one in (puzzle, twin):
        record = PuzzleRecord(1, "2027-01-01", kind.value, one.key, one.seat, "{}")
        files = await pictures(drawer, DayPuzzle(record, one), "en")
        shown.append([(f.fp.read(), f.description) for f in files])
    assert shown[0] == shown[1]
    assert all(png.startswith(b"\x89PNG") for png, _ in shown[0])

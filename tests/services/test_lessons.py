"""The course without Discord: every exercise has an answer its own check accepts, a place in the
course a later release took out starts the course again, and only the page drawn at the stored
step moves it on (real SQLite stores)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.features.learn.chapters import CHAPTERS
from bot.features.learn.exercises import Control, Exercise, mask_of
from bot.features.learn.service import LessonService, Press
from bot.services.refusal import Refusal
from bot.storage import make_store
from bot.storage.base import LessonProgress
from rummy_engine import parse_faces

EXERCISES = [
    pytest.param(exercise, id=f"{chapter.key}-{number}")
    for chapter in CHAPTERS
    for number, exercise in enumerate(chapter.exercises, start=1)
]


def right_answer(exercise: Exercise) -> str:
    """The answer the exercise shows, given back through its own control."""
    shown = exercise.solution()
    if exercise.control is Control.CHOOSE:
        return str(shown.params["value"])
    if exercise.control is Control.YES_NO:
        return "yes" if shown.code.startswith("learn.answer.") else "no"
    named = shown.params.get("cards") or shown.params.get("melds") or shown.params["card"]
    wanted = [f.text for f in parse_faces(named.replace("|", " "))]
    indexes: list[int] = []
    for face in wanted:
        indexes.append(
            next(i for i, c in enumerate(exercise.cards) if c.text == face and i not in indexes)
        )
    return mask_of(indexes)


@pytest.mark.parametrize("exercise", EXERCISES)
def test_every_exercise_accepts_the_answer_it_shows_and_refuses_another(
    exercise: Exercise,
) -> None:
    answer = right_answer(exercise)
    assert exercise.check(answer).right, answer
    wrong = {"yes": "no", "no": "yes"}.get(answer, "0" if exercise.control is Control.PICK else "1")
    verdict = exercise.check(wrong)
    assert not verdict.right and verdict.why is not None


async def test_a_place_a_later_release_took_out_starts_the_course_again(tmp_path: Path) -> None:
    async with make_store(tmp_path / "rummy.db") as store:
        gone = LessonProgress(5, "jokers101", 3, 1, 0, ("melds",), 4)
        assert await store.save_lesson_progress(gone, 0)
        page = await LessonService(store).open(5, "en")
        assert page.progress == LessonProgress(5, "melds", finished=("melds",), step=5)
        assert page.lines[0] == f"**Chapter 1 of {len(CHAPTERS)}: Melds**"
        too_far = LessonProgress(6, "melds", 99, step=2)
        assert await store.save_lesson_progress(too_far, 0)
        assert (await LessonService(store).open(6, "en")).progress.item == 0


async def test_only_the_page_drawn_at_the_stored_step_moves_on(tmp_path: Path) -> None:
    async with make_store(tmp_path / "rummy.db") as store:
        lessons = LessonService(store)
        first = (await lessons.open(9, "en")).progress
        assert (first.chapter, first.item, first.step) == ("melds", 0, 1)
        moved = (await lessons.press(9, "melds", 0, 1, Press.NEXT, "", "en")).progress
        assert (moved.item, moved.step) == (1, 2)
        with pytest.raises(Refusal) as refused:
            await lessons.press(9, "melds", 0, 1, Press.NEXT, "", "en")  # the same press again
        assert refused.value.code == "learn.old_message"
        with pytest.raises(Refusal):
            await lessons.press(9, "melds", 1, 2, Press.NEXT, "", "en")  # Next before answering
        assert await store.get_lesson_progress(9) == moved

"""The course's rules: where a player is, what a page shows, what a press changes.

No discord here: a page is plain values (its lines, its picture's scene, its controls), which
``ui/lessons.py`` turns into a private message. Progress is stored at every change with the
step it was read at (:meth:`LessonStore.save_lesson_progress`), so a press on an older lesson
message, or a second quick press, is refused in one sentence and changes nothing, across
restarts too.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.features.learn.chapters import CHAPTERS, END, Chapter, chapter, ready_for
from bot.features.learn.exercises import Control, Exercise
from bot.features.learn.store import LessonStore
from bot.features.play.seating import Mode
from bot.render.scene import HandScene
from bot.services.refusal import Refusal
from bot.storage.base import LessonProgress
from bot.text import t
from rummy_engine import RuleViolation, Variant

#: Wrong answers before the right one is shown.
MISSES_SHOWN = 2
#: ``answered``: open, answered right, shown after the misses.
OPEN, RIGHT, SHOWN = 0, 1, 2


class Press:
    """What a lesson control asks (the ``action`` field of its custom_id)."""

    PICK = "pick"  # cards chosen in the menu (nothing stored: the Check button carries them)
    CHECK = "check"  # the picked cards, to check
    YES = "yes"
    NO = "no"
    CHOOSE = "choose"  # a value chosen in the menu
    NEXT = "next"
    AGAIN = "again"  # the course from the start
    PRACTICE = "practice"  # a coached practice table, its variant and mode chosen in the menu


#: A line of a page: a sentence already written, or a refusal the Discord layer words (the
#: engine's own sentence, with its suggestion and follow-up, as at a table).
Line = str | RuleViolation


@dataclass(frozen=True)
class Page:
    """One lesson message: what it says, its picture, and how it is answered."""

    progress: LessonProgress
    lines: tuple[Line, ...]
    scene: HandScene | None
    #: The controls: PICK, YES_NO or CHOOSE while an exercise is open; None: Next (or, at the
    #: end, Start again).
    control: Control | None
    #: The menu's entries: card labels (PICK) or values (CHOOSE).
    options: tuple[str, ...] = ()
    #: At the end: the practice tables offered, as (variant, mode).
    practice: tuple[tuple[Variant, Mode], ...] = ()


def first_progress(user_id: int) -> LessonProgress:
    return LessonProgress(user_id, CHAPTERS[0].key)


class LessonService:
    """The course of ``/rummy-learn lessons`` for every player."""

    def __init__(self, store: LessonStore) -> None:
        self.store = store

    async def open(self, user_id: int, locale: str) -> Page:
        """Where the player left off (the first page for a newcomer, stored at once)."""
        progress = await self.store.get_lesson_progress(user_id)
        if progress is None:
            progress = await self._save(first_progress(user_id), 0)
        elif not _in_course(progress):  # a chapter or exercise a later release took out
            again = replace(first_progress(user_id), finished=progress.finished)
            progress = await self._save(again, progress.step)
        return page(progress, locale)

    async def current(
        self, user_id: int, chapter_key: str, item: int, step: int, locale: str
    ) -> Page:
        """The page a press was drawn for, if it is still the player's current one (cards
        picked in a menu change nothing stored: the Check button carries them)."""
        return page(await self._drawn_at(user_id, chapter_key, item, step), locale)

    async def _drawn_at(
        self, user_id: int, chapter_key: str, item: int, step: int
    ) -> LessonProgress:
        progress = await self.store.get_lesson_progress(user_id)
        if (
            progress is None
            or progress.step != step
            or progress.chapter != chapter_key
            or progress.item != item
        ):
            raise Refusal("learn.old_message")
        return progress

    async def press(
        self,
        user_id: int,
        chapter_key: str,
        item: int,
        step: int,
        press: str,
        arg: str,
        locale: str,
    ) -> Page:
        """A press on a lesson message drawn at ``step`` for (``chapter_key``, ``item``)."""
        progress = await self._drawn_at(user_id, chapter_key, item, step)
        if press == Press.AGAIN and progress.chapter == END:
            fresh = replace(first_progress(user_id), finished=progress.finished)
            return page(await self._save(fresh, step), locale)
        if press == Press.NEXT:
            return page(await self._save(advance(progress), step), locale)
        exercise = current_exercise(progress)
        if exercise is None or progress.answered != OPEN:
            raise Refusal("learn.old_message")
        verdict = exercise.check(press if press in (Press.YES, Press.NO) else arg)
        if verdict.right:
            done = await self._save(replace(progress, answered=RIGHT), step)
            return page(done, locale)
        misses = progress.misses + 1
        answered = SHOWN if misses >= MISSES_SHOWN else OPEN
        changed = await self._save(replace(progress, misses=misses, answered=answered), step)
        assert verdict.why is not None
        return page(changed, locale, why=verdict.why)

    async def _save(self, progress: LessonProgress, seen: int) -> LessonProgress:
        saved = replace(progress, step=seen + 1)
        if not await self.store.save_lesson_progress(saved, seen):
            raise Refusal("learn.old_message")
        return saved


def _in_course(progress: LessonProgress) -> bool:
    """Whether ``progress`` names a page of today's course."""
    if progress.chapter == END:
        return True
    found = current_chapter(progress)
    return found is not None and 0 <= progress.item <= len(found.exercises)


def current_chapter(progress: LessonProgress) -> Chapter | None:
    return chapter(progress.chapter)


def current_exercise(progress: LessonProgress) -> Exercise | None:
    found = current_chapter(progress)
    if found is None or not 1 <= progress.item <= len(found.exercises):
        return None
    return found.exercises[progress.item - 1]


def advance(progress: LessonProgress) -> LessonProgress:
    """The next page: the chapter's next exercise once this one is answered, else the next
    chapter (this one finished), else the end."""
    found = current_chapter(progress)
    if found is None:
        raise Refusal("learn.old_message")
    if progress.item and progress.answered == OPEN:
        raise Refusal("learn.answer_first")
    if progress.item < len(found.exercises):
        return replace(progress, item=progress.item + 1, misses=0, answered=OPEN)
    finished = (
        (*progress.finished, found.key) if found.key not in progress.finished else progress.finished
    )
    index = CHAPTERS.index(found)
    following = CHAPTERS[index + 1].key if index + 1 < len(CHAPTERS) else END
    return replace(progress, chapter=following, item=0, misses=0, answered=OPEN, finished=finished)


def page(progress: LessonProgress, locale: str, *, why: RuleViolation | None = None) -> Page:
    """The message of ``progress``; ``why``: the engine's refusal of the answer just given."""
    if progress.chapter == END:
        return _end_page(progress, locale)
    found = current_chapter(progress)
    assert found is not None
    number = CHAPTERS.index(found) + 1
    title = t(f"learn.{found.key}.title", locale)
    if progress.item == 0:
        heading = t("learn.chapter", locale, number=number, count=len(CHAPTERS), title=title)
        picture = HandScene(
            cards=tuple(c for g in found.picture_groups() for c in g),
            groups=found.picture_groups(),
            title=title,
        )
        lines: tuple[Line, ...] = (
            heading,
            t(f"learn.{found.key}.page", locale),
            t("learn.start", locale),
        )
        return Page(progress, lines, picture, None)
    exercise = current_exercise(progress)
    assert exercise is not None
    heading = t(
        "learn.exercise", locale, title=title, number=progress.item, count=len(found.exercises)
    )
    ask = t(f"learn.{found.key}.{progress.item}", locale)
    scene = (
        HandScene(
            cards=exercise.cards,
            drawn=exercise.drawn,
            groups=exercise.groups,
            title=t("learn.picture", locale, number=progress.item),
        )
        if exercise.cards
        else None  # a question without cards (a game's limit) has no picture
    )
    said: list[Line] = [heading, ask]
    if progress.answered == RIGHT:
        said += [t("learn.right", locale), exercise.solution()]
    elif why is not None:
        said += [t("learn.wrong", locale), why]
        said.append(exercise.solution() if progress.answered == SHOWN else t("learn.again", locale))
        if progress.answered == SHOWN:
            said.insert(-1, t("learn.shown", locale))
    elif progress.answered == SHOWN:  # the page again, after the answer was shown
        said += [t("learn.shown", locale), exercise.solution()]
    elif progress.misses:
        said.append(t("learn.again", locale))
    if progress.answered != OPEN:
        return Page(progress, tuple(said), scene, None)
    options: tuple[str, ...] = ()
    if exercise.control is Control.PICK:
        options = tuple(f"{i + 1}. {card.pretty}" for i, card in enumerate(exercise.cards))
    elif exercise.control is Control.CHOOSE:
        options = tuple(str(value) for value in exercise.choices())
    return Page(progress, tuple(said), scene, exercise.control, options)


def _end_page(progress: LessonProgress, locale: str) -> Page:
    ready = ready_for(progress.finished)
    names = ", ".join(t(f"variant.{v.value}", locale) for v in ready)
    lines: list[Line] = [t("learn.end.title", locale)]
    lines.append(
        t("learn.end.ready", locale, variants=names) if ready else t("learn.end.none", locale)
    )
    lines.append(t("learn.end.practice", locale))
    return Page(progress, tuple(lines), None, None, practice=practice_tables(ready))


def practice_tables(ready: list[Variant]) -> tuple[tuple[Variant, Mode], ...]:
    """The practice tables the end offers: each variant the player is ready for (every one
    when none is), in each of its modes."""
    return tuple(
        (variant, mode)
        for variant in ready or list(Variant)
        for mode in (
            (Mode.FREE_FOR_ALL,) if variant is Variant.BASIC else (Mode.ONE_V_ONE, Mode.TWO_V_TWO)
        )
    )

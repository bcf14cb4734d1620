"""The course in Discord: ``/rummy-learn lessons`` and the controls of a lesson message.

Every lesson message is private (ephemeral) and its controls are ``DynamicItem``s whose custom_id
carries the owner, the chapter, the exercise and the step the page was drawn at
(``rummy:learn:<owner>:<chapter>:<item>:<step>:<press>[:<arg>]``), so they work after a restart,
and a press on an older message (the course moved on) or by someone else is refused in one
sentence and changes nothing stored. A press is acknowledged as an update of its message before
the course is read (someone else's is refused before that), and the same message becomes the
next page, its picture drawn by the bot's renderer with its alt text
(``bot/services/alt_text.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from bot.features.learn.exercises import Control, mask_of
from bot.features.learn.service import LessonService, Page, Press
from bot.features.play.seating import Mode
from bot.features.play.ui.context import UiContext
from bot.features.play.ui.lobby import LobbyHandlers
from bot.render.drawing import Drawer
from bot.services import alt_text
from bot.services.refusal import Refusal
from bot.text import t
from bot.ui import errors
from bot.ui.custom_ids import CustomIdCodec
from bot.ui.files import BytesFile
from bot.ui.interaction import defer_private, defer_update, edit_panel, locale_of, reply
from rummy_engine import Variant

#: The presses of the buttons and of the menus (two families: discord.py finds a component's
#: class by its custom_id's pattern, so a button's and a menu's must differ).
BUTTON_PRESSES = (Press.CHECK, Press.YES, Press.NO, Press.NEXT, Press.AGAIN)
SELECT_PRESSES = (Press.PICK, Press.CHOOSE, Press.PRACTICE)


@dataclass(frozen=True)
class LessonId:
    """What a lesson control carries: whose course, which page (chapter, item, the step it was
    drawn at), what it asks, and its argument (the picked cards as a bitmask)."""

    owner: int
    chapter: str
    item: int
    step: int
    press: str
    arg: str = ""


BUTTON_IDS = CustomIdCodec("rummy:learn", LessonId, choices={"press": BUTTON_PRESSES})
SELECT_IDS = CustomIdCodec("rummy:learn", LessonId, choices={"press": SELECT_PRESSES})


def text_of(page: Page, locale: str) -> str:
    """The page's lines in the player's words (a refusal as the table would word it)."""
    return "\n".join(
        line if isinstance(line, str) else errors.refusal_sentence(line, locale)
        for line in page.lines
    )


def lesson_view(page: Page, owner: int, locale: str, picked: str = "") -> discord.ui.View:
    """The controls of a page; ``picked``: the cards chosen so far in its menu (a bitmask)."""
    progress = page.progress

    def ident(press: str, arg: str = "") -> LessonId:
        return LessonId(owner, progress.chapter, progress.item, progress.step, press, arg)

    view = discord.ui.View(timeout=None)
    if page.control is Control.PICK:
        bits = int(picked) if picked.isdigit() else 0
        options = [
            discord.SelectOption(label=label, value=str(i), default=bool(bits >> i & 1))
            for i, label in enumerate(page.options)
        ]
        view.add_item(LessonSelect(ident(Press.PICK), options, t("learn.pick", locale), many=True))
        view.add_item(
            LessonButton(
                ident(Press.CHECK, picked or "0"),
                t("learn.check", locale),
                primary=True,
                disabled=not bits,
            )
        )
    elif page.control is Control.YES_NO:
        view.add_item(LessonButton(ident(Press.YES), t("learn.yes", locale)))
        view.add_item(LessonButton(ident(Press.NO), t("learn.no", locale)))
    elif page.control is Control.CHOOSE:
        options = [discord.SelectOption(label=value, value=value) for value in page.options]
        view.add_item(LessonSelect(ident(Press.CHOOSE), options, t("learn.choose", locale)))
    elif progress.chapter == "end":
        if page.practice:
            options = [
                discord.SelectOption(
                    label=practice_label(variant, mode, locale), value=f"{variant.value}.{mode.value}"
                )
                for variant, mode in page.practice
            ]
            view.add_item(LessonSelect(ident(Press.PRACTICE), options, t("practice.pick", locale)))
        view.add_item(LessonButton(ident(Press.AGAIN), t("learn.again_button", locale)))
    else:
        view.add_item(LessonButton(ident(Press.NEXT), t("learn.next", locale), primary=True))
    view.stop()  # presses reach the registered dynamic items; discord.py keeps no copy
    return view


def practice_label(variant: Variant, mode: Mode, locale: str) -> str:
    return t(f"practice.{mode.value}", locale, variant=t(f"variant.{variant.value}", locale))


def practice_choice(value: str) -> tuple[Variant, Mode]:
    """A practice menu's value (``r51.1v1``) as the table it asks for."""
    variant, _, mode = value.partition(".")
    try:
        return Variant(variant), Mode(mode)
    except ValueError:
        raise Refusal("learn.old_message") from None


class LessonHandlers:
    """The command and every press of a lesson message (a practice table is the lobby's)."""

    def __init__(self, service: LessonService, drawer: Drawer, lobby: LobbyHandlers) -> None:
        self.service = service
        self.drawer = drawer
        self.lobby = lobby

    async def _files(self, page: Page, locale: str) -> list[discord.File]:
        if page.scene is None:
            return []
        png = await self.drawer.png(page.scene)
        name = f"lesson-{page.progress.chapter}-{page.progress.item}.png"
        return [BytesFile(png, name, description=alt_text.describe_lesson(page.scene, locale))]

    async def command(self, interaction: discord.Interaction) -> None:
        """``/rummy-learn lessons``: the course where the player left off, privately."""
        await defer_private(interaction)
        locale = locale_of(interaction)
        page = await self.service.open(interaction.user.id, locale)
        files = await self._files(page, locale)
        view = lesson_view(page, interaction.user.id, locale)
        await reply(interaction, text_of(page, locale), files=files, view=view)

    async def pressed(
        self, interaction: discord.Interaction, found: LessonId, values: list[str]
    ) -> None:
        """A press: someone else's is refused at once; the owner's is acknowledged as an update
        of the lesson message before the course is read (a slow database never makes Discord
        fail it), then the message becomes the next state of the course, or an old message's
        press is refused in one private sentence."""
        if interaction.user.id != found.owner:
            raise Refusal("learn.not_yours")
        locale = locale_of(interaction)
        if found.press == Press.PRACTICE:
            await self.lobby.practice(interaction, *practice_choice(values[0] if values else ""))
            return
        await defer_update(interaction)
        if found.press == Press.PICK:
            page = await self.service.current(
                found.owner, found.chapter, found.item, found.step, locale
            )
            picked = mask_of([int(v) for v in values if v.isdigit() and int(v) < len(page.options)])
            view = lesson_view(page, found.owner, locale, picked)
            await edit_panel(interaction, text_of(page, locale), view=view)
            return
        arg = values[0] if found.press == Press.CHOOSE and values else found.arg
        page = await self.service.press(
            found.owner, found.chapter, found.item, found.step, found.press, arg, locale
        )
        files = await self._files(page, locale)
        view = lesson_view(page, found.owner, locale)
        await edit_panel(interaction, text_of(page, locale), attachments=files, view=view)


class _LessonItem:
    handlers: ClassVar[LessonHandlers | None] = None
    found: LessonId

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Any:
        return cls(BUTTON_IDS.decode(match))  # type: ignore[call-arg]  # both decode alike

    async def _pressed(self, interaction: discord.Interaction, values: list[str]) -> None:
        try:
            handlers = type(self).handlers
            assert handlers is not None, "registered through bound_lesson_items()"
            await handlers.pressed(interaction, self.found, values)
        except Exception as error:
            await errors.answer(interaction, error)


class LessonButton(
    _LessonItem, discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_IDS.template
):
    def __init__(
        self, found: LessonId, label: str = "", *, primary: bool = False, disabled: bool = False
    ) -> None:
        style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.secondary
        super().__init__(
            discord.ui.Button(
                label=label[:80] or found.press,
                custom_id=BUTTON_IDS.build(found),
                style=style,
                disabled=disabled,
            )
        )
        self.found = found

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._pressed(interaction, [])


class LessonSelect(
    _LessonItem, discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_IDS.template
):
    def __init__(
        self,
        found: LessonId,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "",
        *,
        many: bool = False,
    ) -> None:
        options = options or [discord.SelectOption(label="-", value="0")]
        super().__init__(
            discord.ui.Select(
                custom_id=SELECT_IDS.build(found),
                options=options,
                placeholder=placeholder[:150] or None,
                min_values=1,
                max_values=len(options) if many else 1,
            )
        )
        self.found = found

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        await self._pressed(interaction, [str(v) for v in data.get("values", [])])


def bound_lesson_items(handlers: LessonHandlers) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    """The component classes to register for one bot (fresh subclasses per bot, so two bots in
    one process, a restart in tests, never share one)."""

    class BoundButton(LessonButton, template=BUTTON_IDS.template):
        pass

    class BoundSelect(LessonSelect, template=SELECT_IDS.template):
        pass

    BoundButton.handlers = handlers
    BoundSelect.handlers = handlers
    return BoundButton, BoundSelect


def lesson_handlers(ui: UiContext) -> LessonHandlers:
    """The lessons' handlers of one bot: its course, drawn by its table pictures' renderer."""
    assert ui.lessons is not None, "start-up gives the UI the lesson service"
    return LessonHandlers(ui.lessons, ui.reconciler.pictures.drawer, LobbyHandlers(ui))

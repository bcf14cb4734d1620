"""The puzzle of the day in Discord: the daily post, the private answer, the manager's command.

The post is public: the table and the mover's hand as the real renderer draws them (only what
the mover saw, see bot/features/puzzles/service.py), the question, yesterday's solution and how
many solved it, and an **Answer** button. The button answers privately with the hand's cards
in a menu (several for an opening); the pick is judged by the engine and the player told right
or wrong with the reason, and their streak. Both components carry the server and the day, so a
press on an old post is refused in one sentence after any restart.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from bot.features.play.advice import melds_text
from bot.features.play.scenes import hand_scene, table_scene
from bot.features.play.tables import GUILD_LOCALE
from bot.features.puzzles.service import DayPuzzle, Posting, PuzzleService
from bot.render.drawing import Drawer, DrawingFailed
from bot.services.alt_text import describe
from bot.services.refusal import Refusal
from bot.storage.base import GuildSettingsStore
from bot.text import normalise, one_of, t
from bot.ui import errors
from bot.ui.channels import messageable
from bot.ui.custom_ids import CustomIdCodec
from bot.ui.errors import refusal_sentence
from bot.ui.files import BytesFile
from bot.ui.interaction import (
    can_manage_server,
    defer_private,
    defer_update,
    edit_panel,
    locale_of,
    reply,
)
from rummy_engine import Face, parse_face
from rummy_engine.ai.puzzles import Puzzle, PuzzleKind, Verdict
from rummy_engine.solver import GoOutPlan, Opening

log = logging.getLogger(__name__)

#: Discord's cap on a select menu's options (a hand of 15 fits).
MAX_OPTIONS = 25


@dataclass(frozen=True)
class PuzzleId:
    """What a puzzle's components carry: the server and the day (YYYYMMDD)."""

    guild_id: int
    day: int


ANSWER_IDS = CustomIdCodec("rummy:pz", PuzzleId)
PICK_IDS = CustomIdCodec("rummy:pzp", PuzzleId)


def day_number(day: str) -> int:
    return int(day.replace("-", ""))


def day_text(number: int) -> str:
    text = str(number)
    return f"{text[:4]}-{text[4:6]}-{text[6:]}"


# -- the post ------------------------------------------------------------------------------------


def seat_names(puzzle: Puzzle, locale: str) -> list[str]:
    """The mover is "You"; the others are named by where they sit from the mover."""
    rules, seat = puzzle.view.rules, puzzle.seat
    names = []
    for other in range(rules.players):
        offset = (other - seat) % rules.players
        key = "you" if offset == 0 else "partner" if rules.partner_of(seat) == other else (
            "next" if offset == 1 else "previous" if offset == rules.players - 1 else "across"
        )
        names.append(t(f"puzzle.seat.{key}", locale))
    return names


def question(puzzle: Puzzle, locale: str) -> str:
    return t(f"puzzle.ask.{puzzle.kind.value}", locale, bar=puzzle.view.threshold)


def solution(puzzle: Puzzle, locale: str) -> str:
    """The answer, as the next day's post tells it."""
    faces = sorted(f.pretty for f in puzzle.answers)
    cards, count = one_of(faces, locale), len(faces)
    best = puzzle.best
    if puzzle.kind is PuzzleKind.OPENING and isinstance(best, Opening):
        return t("puzzle.solution.opening", locale, value=best.value, melds=melds_text(best.melds))
    key = f"puzzle.solution.{puzzle.kind.value}"
    if isinstance(best, GoOutPlan):
        lays = melds_text(best.melds) or "—"
        return t(key, locale, cards=cards, melds=lays, count=count)
    return t(key, locale, cards=cards, melds="", count=count)


def post_content(posting: Posting, locale: str) -> str:
    today = posting.today
    lines = [t("puzzle.title", locale, day=today.day), question(today.puzzle, locale)]
    credit = today.record.credit
    if credit:
        players, _, round_no = credit.rpartition("|")
        lines.append(t("puzzle.credit", locale, players=players, round=int(round_no)))
    if posting.yesterday is not None:
        lines.append(
            t("puzzle.yesterday", locale, solution=solution(posting.yesterday.puzzle, locale))
            + " "
            + t("puzzle.solved_by", locale, count=posting.answered, solved=posting.solved)
        )
    return "\n".join(lines)


class PuzzlePoster:
    """Posts a server's puzzle of the day with the bot token (the service's ``post``)."""

    def __init__(self, client: discord.Client, store: GuildSettingsStore, drawer: Drawer) -> None:
        self.client, self.store, self.drawer = client, store, drawer
        #: The Answer button bound to the bot's service (a bare one would answer nothing).
        self.answer: type[AnswerButton] = AnswerButton

    async def __call__(self, posting: Posting) -> int | None:
        channel = await messageable(self.client, posting.channel_id)
        if channel is None:
            log.warning("the puzzle channel %s of server %s is gone", posting.channel_id, posting.guild_id)
            return None
        locale = normalise(await self.store.get_guild_setting(posting.guild_id, GUILD_LOCALE))
        try:
            files = await pictures(self.drawer, posting.today, locale)
        except DrawingFailed:
            log.exception("the puzzle of server %s could not be drawn", posting.guild_id)
            return None
        target = PuzzleId(posting.guild_id, day_number(posting.today.day))
        view = discord.ui.View(timeout=None)
        view.add_item(self.answer(target, label=t("puzzle.answer_button", locale)))
        try:
            message = await channel.send(post_content(posting, locale), files=files, view=view)
        except discord.HTTPException as error:
            log.warning("the puzzle of server %s was not posted (%s)", posting.guild_id, error)
            return None
        return message.id


async def pictures(drawer: Drawer, today: DayPuzzle, locale: str) -> list[discord.File]:
    """The table and the mover's hand, drawn by the renderer from the mover's view."""
    puzzle = today.puzzle
    names = seat_names(puzzle, locale)
    table = table_scene(puzzle.view, t("puzzle.table_title", locale), names, _sides(puzzle, names), locale)
    hand = hand_scene(puzzle.view, t("puzzle.hand_title", locale), locale)
    files: list[discord.File] = []
    for scene, name in ((table, "puzzle-table.png"), (hand, "puzzle-hand.png")):
        files.append(BytesFile(await drawer.png(scene), name, description=describe(scene, locale)))
    return files


def _sides(puzzle: Puzzle, names: Sequence[str]) -> list[str]:
    rules = puzzle.view.rules
    if not rules.teams:
        return list(names)
    return [
        " & ".join(names[s] for s in range(rules.players) if rules.side_of(s) == side)
        for side in range(rules.sides)
    ]


# -- answering ---------------------------------------------------------------------------------------


class AnswerButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ANSWER_IDS.template):
    """The post's button: the hand's cards in a private menu, for the current puzzle only."""

    service: ClassVar[PuzzleService | None] = None
    #: The menu's class bound to the same service (see bound_puzzle_items).
    pick: ClassVar[type[PickSelect] | None] = None

    def __init__(self, target: PuzzleId, *, label: str = "Answer") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, custom_id=ANSWER_IDS.build(target), style=discord.ButtonStyle.primary
            )
        )
        self.target = target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AnswerButton:
        return cls(ANSWER_IDS.decode(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self._answer(interaction)
        except Exception as error:
            await errors.answer(interaction, error)

    async def _answer(self, interaction: discord.Interaction) -> None:
        assert self.service is not None and self.pick is not None, "bound_puzzle_items()"
        await defer_private(interaction)
        day = day_text(self.target.day)
        today = await self.service.current(self.target.guild_id, day)
        if await self.service.already_answered(self.target.guild_id, day, interaction.user.id):
            raise Refusal("puzzle.answered")
        locale = locale_of(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(self.pick(self.target, today.puzzle, locale))
        await reply(interaction, question(today.puzzle, locale), view=view)


class PickSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=PICK_IDS.template):
    """The hand's cards: one to pick, or an opening's cards."""

    service: ClassVar[PuzzleService | None] = None

    def __init__(self, target: PuzzleId, puzzle: Puzzle | None = None, locale: str = "en") -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(custom_id=PICK_IDS.build(target))
        if puzzle is not None:
            many = puzzle.kind is PuzzleKind.OPENING
            for value, face in card_options(puzzle, every_copy=many):
                select.add_option(label=face.pretty, value=value)
            select.max_values = len(select.options) if many else 1
            select.placeholder = t("puzzle.pick_many" if many else "puzzle.pick_one", locale)
        super().__init__(select)
        self.target = target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickSelect:
        return cls(PICK_IDS.decode(match))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self._judge(interaction)
        except Exception as error:
            await errors.answer(interaction, error)

    async def _judge(self, interaction: discord.Interaction) -> None:
        assert self.service is not None, "registered through bound_puzzle_items()"
        await defer_update(interaction)  # the menu's message becomes the verdict
        data: Any = interaction.data or {}
        faces = [parse_face(v.split(":")[0]) for v in data.get("values", [])]
        day = day_text(self.target.day)
        answered = await self.service.answer(self.target.guild_id, day, interaction.user.id, faces)
        locale = locale_of(interaction)
        text = verdict_text(answered.verdict, answered.streak, faces, locale)
        await edit_panel(interaction, text, view=None)


def card_options(puzzle: Puzzle, *, every_copy: bool) -> list[tuple[str, Face]]:
    """The menu's options: each card of the hand once, or each copy (``7h:2``, an opening may
    lay both copies of a face), in the hand's order."""
    options: list[tuple[str, Face]] = []
    copies: dict[str, int] = {}
    for card in puzzle.view.hand:
        text = card.face.text
        copies[text] = copies.get(text, 0) + 1
        if copies[text] == 1 or every_copy:
            options.append((f"{text}:{copies[text]}", card.face))
    return options[:MAX_OPTIONS]


def verdict_text(verdict: Verdict, streak: int, faces: Sequence[Any], locale: str) -> str:
    picked = format_cards_of(faces)
    if verdict.right:
        return t("puzzle.right", locale, cards=picked) + " " + t("puzzle.streak", locale, count=streak)
    if verdict.refusal is not None:
        why = refusal_sentence(verdict.refusal, locale)
    else:
        why = t(verdict.reason, locale, cards=picked, value=verdict.value)
    return t("puzzle.wrong", locale, cards=picked) + " " + why + " " + t("puzzle.tomorrow", locale)


def format_cards_of(faces: Sequence[Any]) -> str:
    return " ".join(f.pretty for f in faces)


def bound_puzzle_items(service: PuzzleService) -> tuple[type[AnswerButton], type[PickSelect]]:
    """The component classes to register for one bot, answering with that bot's service."""

    class BoundAnswer(AnswerButton, template=ANSWER_IDS.template):
        pass

    class BoundPick(PickSelect, template=PICK_IDS.template):
        pass

    BoundAnswer.service = service
    BoundAnswer.pick = BoundPick
    BoundPick.service = service
    return BoundAnswer, BoundPick


# -- the manager's command ----------------------------------------------------------------------------


async def puzzle_command(
    interaction: discord.Interaction,
    service: PuzzleService,
    *,
    channel: discord.TextChannel | None,
    hour: int | None,
    off: bool,
) -> None:
    """``/rummy-settings puzzle``: Manage Server chooses the channel and the hour (UTC)."""
    guild_id = interaction.guild_id
    if guild_id is None:
        raise Refusal("puzzle.server_only")
    if not can_manage_server(interaction):
        raise Refusal("puzzle.admin_only")
    await defer_private(interaction)
    locale = locale_of(interaction)
    if off:
        await service.configure(guild_id, None, hour or 0)
        await reply(interaction, t("puzzle.stopped", locale))
        return
    where = channel.id if channel is not None else interaction.channel_id
    assert where is not None
    due = await service.configure(guild_id, where, 9 if hour is None else hour)
    assert due is not None
    stamp = f"<t:{int(due.timestamp())}:F>"
    await reply(interaction, t("puzzle.configured", locale, channel=f"<#{where}>", when=stamp))


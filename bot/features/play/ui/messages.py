"""What each message the bot owns should show, computed from a stored table: pure, no sending.

Each builder returns a :class:`Draft`: the text, the components, the picture's scene (rendered
only if the message must change) and a ``stamp`` that identifies the whole content. The
reconciler compares stamps with what a message last showed, so an unchanged message costs no
Discord call and no rendering. The stamp ends with the picture's own key, so a message whose
text changed but whose picture did not is edited without drawing or uploading it again; and
:class:`Pictures` draws each picture once, however many messages show it (the mover's private
reply and their DM show the same hand).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import itertools
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import discord
import orjson

from bot.features.play import presenter
from bot.features.play.autoplay import LOBBY_IDLE_KIND
from bot.features.play.tables import Table
from bot.features.play.ui.panels import lobby_view, round_view, table_view
from bot.features.play.ui.widgets import view_signature
from bot.features.replays.ui.review import review_button
from bot.render.drawing import Drawer
from bot.render.scene import Scene
from bot.services import alt_text
from bot.storage import PlayerPrefs
from bot.text import t
from bot.text.safe import fit
from bot.ui.files import BytesFile
from rummy_engine import Event, Phase, RoundResult

Painter = Callable[[], Awaitable[bytes]]
#: Pictures kept drawn beyond the pinned ones, about 3 MB.
PICTURES_KEPT = 128


class Pictures:
    """PNG bytes of the pictures drawn lately, by picture key.

    Why: the same picture is often shown by two messages of one version (the mover's reply
    panel and their hand DM), and drawing is most of a move's CPU. Concurrent requests for one
    key share one drawing; a failed drawing is forgotten so the next request tries again. A
    picture another message is sure to need soon is pinned until then (:meth:`pinned`): under
    load the DM came seconds after the reply, and a picture pushed out of a count-bound cache
    by then was drawn twice (1.2 hands per move instead of 1.0).
    """

    def __init__(self, drawer: Drawer, kept: int = PICTURES_KEPT) -> None:
        self.drawer = drawer
        self._kept = kept
        self._drawn: OrderedDict[str, asyncio.Future[bytes]] = OrderedDict()
        self._pins: Counter[str] = Counter()

    @contextlib.contextmanager
    def pinned(self, key: str) -> Iterator[None]:
        """Keep the picture ``key`` while inside (it is drawn already, or about to be)."""
        self._pins[key] += 1
        try:
            yield
        finally:
            self._pins[key] -= 1
            if not self._pins[key]:
                del self._pins[key]
                self._trim()

    def _trim(self) -> None:
        """Forget the oldest unpinned pictures beyond the number kept."""
        excess = len(self._drawn) - self._kept - len(self._pins)
        if excess <= 0:
            return
        # oldest first, stopping at the excess (one or two): the whole map was walked before
        oldest = (key for key in self._drawn if key not in self._pins)
        for key in list(itertools.islice(oldest, excess)):
            del self._drawn[key]

    def forget(self) -> None:
        """Forget the pictures drawn, but those pinned or still being drawn: once the bot has
        been quiet for a while they are the past (see bot/memory.py)."""
        for key, drawing in list(self._drawn.items()):
            if drawing.done() and key not in self._pins:
                del self._drawn[key]

    async def png(self, key: str, painter: Painter) -> bytes:
        drawing = self._drawn.get(key)
        if drawing is None:
            drawing = asyncio.ensure_future(painter())
            self._drawn[key] = drawing
            self._trim()
        else:
            self._drawn.move_to_end(key)
        try:
            return await asyncio.shield(drawing)
        except Exception:
            if self._drawn.get(key) is drawing:
                del self._drawn[key]
            raise


@dataclass(frozen=True)
class Extra:
    """A further picture of a message (the score chart on the final result), with its alt
    text; ``key`` is its scene's digest (the drawing's cache key)."""

    scene: Scene
    filename: str
    description: str
    key: str


@dataclass(frozen=True)
class Draft:
    """A message as it should be: content, components, and the picture to draw if needed."""

    content: str
    view: discord.ui.View | None
    scene: Scene | None
    filename: str
    stamp: str
    picture: str = ""
    #: The picture's description (alt text) in the reader's language.
    alt: str = ""
    extras: tuple[Extra, ...] = ()

    async def file(self, pictures: Pictures) -> discord.File | None:
        scene = self.scene
        if scene is None:
            return None
        png = await pictures.png(self.picture, lambda: pictures.drawer.png(scene))
        return BytesFile(png, filename=self.filename, description=self.alt or None)

    async def files(self, pictures: Pictures) -> list[discord.File]:
        """The picture and the extra pictures, in that order."""
        main = await self.file(pictures)
        files = [main] if main is not None else []
        for extra in self.extras:
            png = await pictures.png(extra.key, functools.partial(pictures.drawer.png, extra.scene))
            files.append(BytesFile(png, filename=extra.filename, description=extra.description))
        return files

    def with_extra(self, scene: Scene, filename: str, description: str) -> Draft:
        """This draft with one more picture; its stamp and picture key cover it too, so a
        message shows it exactly when it shows the rest."""
        key = "c" + stamp_of(type(scene).__name__, scene, description, size=20)
        picture = self.picture + key
        stamp = self.stamp[: len(self.stamp) - len(self.picture)] + picture
        extras = (*self.extras, Extra(scene, filename, description, key))
        return replace(self, stamp=stamp, picture=picture, extras=extras)

    def same_picture(self, stamp: str) -> bool:
        """Whether a message stamped ``stamp`` already shows this draft's picture."""
        return bool(self.picture) and stamp.endswith(self.picture)


def stamp_of(*parts: object, size: int = 24) -> str:
    """A short, stable digest of what a message shows. Why orjson: it writes the scenes'
    frozen dataclasses (cards, melds, enums) itself, in C, the same bytes in every process;
    their ``repr`` took a tenth of a millisecond per table picture."""
    text = orjson.dumps(parts, default=_plain)
    return hashlib.sha256(text).hexdigest()[:size]


def _plain(value: object) -> object:
    """What orjson cannot write itself: a scene's labels (a read-only mapping)."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"no stamp for {type(value).__name__}")


def _draft(
    content: str,
    view: discord.ui.View | None,
    scene: Scene | None,
    filename: str,
    prefix: str = "",
    locale: str = "",
) -> Draft:
    """The stamp is the text's digest followed by the picture's key (the digest of its scene
    and its description in ``locale``: a picture told in another language is uploaded again)."""
    content = fit(content)
    alt = "" if scene is None else alt_text.describe(scene, locale)
    picture = "" if scene is None else "p" + stamp_of(type(scene).__name__, scene, alt, size=20)
    stamp = prefix + stamp_of(content, view_signature(view), size=16) + picture
    return Draft(content, view, scene, filename, stamp, picture, alt)


def table_draft(
    table: Table,
    locale: str,
    *,
    last_events: Sequence[Event] = (),
    deadlines: Mapping[str, datetime] | None = None,
) -> Draft:
    """The table message: the lobby while seating, then the game with its picture.
    ``deadlines`` (kind -> due time) are the stored deadlines the message announces."""
    names = presenter.names_for(table)
    due = deadlines or {}
    if table.game is None:
        text = presenter.lobby_text(table, locale, kept_until=due.get(LOBBY_IDLE_KIND))
        if table.record.status == "cancelled":
            text += "\n" + (presenter.closed_line(table, locale) or t("lobby.cancelled", locale))
        return _draft(text, lobby_view(table, locale), None, "")
    text = presenter.table_text(
        table,
        names,
        locale,
        next_round_at=due.get("next_round"),
        turn_ends_at=due.get("turn"),
        replace_at=due.get("absent"),
    )
    last_move = presenter.describe(last_events, names, locale)
    if last_move:
        text = f"{text}\n_{last_move}_"
    return _draft(
        text,
        table_view(table, locale),
        presenter.table_scene(table, names, locale),
        f"table-{table.id}.png",
        locale=locale,
    )


def hand_draft(
    table: Table, seat: int, prefs: PlayerPrefs, locale: str, *, turn: bool = True
) -> Draft:
    """A player's private hand: the same cards as text and as a picture. The stamp starts with
    the round, so a new deal is told apart from a change within the round. ``turn=False`` (the
    DM) leaves out whose turn it is, so the DM is edited only when the hand changes."""
    channel = f"<#{table.home}>"
    content = presenter.hand_text(table, seat, channel, locale, turn=turn)
    groups = presenter.meld_groups(table, seat) if prefs.hand_sort == "melds" else None
    scene = presenter.hand_scene(table, seat, locale, four_colour=prefs.four_colour, groups=groups)
    return _draft(
        content, None, scene, f"hand-{table.id}.png", prefix=hand_round(table), locale=locale
    )


def hand_inputs(table: Table, seat: int, prefs: PlayerPrefs, locale: str) -> tuple[object, ...]:
    """Everything a hand DM's draft (``hand_draft(..., turn=False)``) is made of. Why: equal
    inputs make an equal stamp, so a DM known to show a draft of these inputs shows them still,
    and is not drafted again (at each move, every player's DM but the mover's)."""
    game, record = table.require_game(), table.record
    return (
        game.round_no,
        tuple(game.hands[seat]),
        game.drawn if game.current == seat else None,
        record.id,
        table.home,
        record.variant,
        record.mode,
        record.options_json,
        prefs.four_colour,
        prefs.hand_sort,
        locale,
    )


def hand_round(table: Table) -> str:
    """The prefix of every hand stamp of the current round."""
    return f"r{table.require_game().round_no}:"


def round_draft(table: Table, result: RoundResult, locale: str) -> Draft:
    """The summary of one finished round, with everyone's remaining cards."""
    names = presenter.names_for(table)
    buttons = [b for b in (review_button(table, result.round_no, locale),) if b is not None]
    return _draft(
        presenter.round_end_text(table, result, names, locale),
        round_view(table, result.round_no, locale, *buttons),
        presenter.round_end_scene(table, result, names, locale),
        f"round-{table.id}-{result.round_no}.png",
        locale=locale,
    )


def turn_key(table: Table) -> str | None:
    """Which turn calls for a notice: a human to act in a running game; else None."""
    game = table.game
    if game is None or table.record.status != "active":
        return None
    if game.phase not in (Phase.DRAW, Phase.PLAY) or table.is_computer(game.current):
        return None
    return f"{game.round_no}:{game.turn}"


def turn_text(table: Table, locale: str) -> str:
    return presenter.turn_notice(table, presenter.names_for(table), locale)

"""What the renderer draws: small frozen value objects the service layer fills in.

Why separate scene classes instead of reading the game state: the renderer must stay a pure
function of plain values (engine cards and melds, names, numbers, already-translated labels), so
it can be tested with hand-made scenes, cached, and run in a worker thread without touching live
game objects that the event loop may be mutating.

Every word that appears in an image comes in through a ``labels`` mapping, never from the
renderer. The defaults below are the English catalogue so tests and examples need no i18n set-up;
the bot builds translated labels with :func:`labels_from` and its ``t()`` function. Label values
are ``str.format`` templates; the placeholders each key receives are listed next to it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Self, cast

from rummy_engine.cards import Card
from rummy_engine.melds import Meld

if TYPE_CHECKING:
    from _typeshed import DataclassInstance
    from PIL import Image

    from .fonts import Fonts
    from .sprites import CardSprites

#: Table labels: key -> English template (placeholders in braces).
TABLE_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "round": "Round {n}",  # {n}: round number
        "turn": "Turn: {name}",  # {name}: whose turn it is
        "stock": "Stock",  # under the stock pile
        "discard": "Discard {n}",  # {n}: cards in the discard pile
        "opened": "opened",  # a seat that has laid its opening
        "no_melds": "No melds on the table yet",
        "score": "{score} / {limit}",  # {score}, {limit}
    }
)

#: Round-end labels.
ROUND_END_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "went_out": "went out",  # badge next to the player who finished
        "penalty": "+{n}",  # {n}: points added to a total (a penalty, or what a winner collects)
        "penalty_caption": "penalty",  # under a penalty (Rummy 51, 71, Simple)
        "collected_caption": "collected",  # under what a Basic winner collects
        "counted": "{n}",  # {n}: what a Basic loser's cards are worth to the winner
        "counted_caption": "to the winner",  # under it
        "no_cards": "no cards left",
        "totals": "Totals",
        "this_round": "this round",  # over the column of what each total gained this round
        "score": "{score} / {limit}",  # {score}, {limit}
    }
)

#: Hand labels (the title is passed in ready-made; these are for the hand's own captions).
HAND_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "empty": "No cards in hand",
    }
)


#: Chart labels (``bot.render.chart``); the bot passes the ``charts.*`` sentences instead.
CHART_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "x_axis": "Round",  # under the x axis
        "y_axis": "Points",  # over the y axis
        "limit": "Limit {limit}",  # {limit}: the score that ends the game
    }
)


def labels_from(
    defaults: Mapping[str, str], translate: Callable[[str], str], prefix: str = "render."
) -> Mapping[str, str]:
    """Translated labels for one scene kind: ``translate(prefix + key)`` for each default key.

    ``translate`` is expected to return the *template* (e.g. ``lambda k: t(k, locale)``); the
    renderer fills the placeholders. The English defaults are the catalogue entries to add.
    """
    return MappingProxyType({key: translate(prefix + key) for key in defaults})


def label(
    labels: Mapping[str, str], defaults: Mapping[str, str], key: str, **params: object
) -> str:
    """One label, formatted; a key missing from ``labels`` falls back to the English default."""
    template = labels.get(key, defaults[key])
    return template.format(**params) if params else template


@dataclass(frozen=True)
class HandScene:
    """One player's hand, as the private hand message shows it.

    ``cards`` is already in display order (``rummy_engine.cards.sort_key``), the same order as
    the text list the bot prints: the small number under each card is its 1-based position in
    ``cards``. ``groups``, when the player sorts by melds, are the melds the solver found; any
    card of ``cards`` that is in no group is drawn after them, in ``cards`` order.
    """

    cards: tuple[Card, ...]
    drawn: Card | None = None
    groups: tuple[tuple[Card, ...], ...] | None = None
    four_colour: bool = False
    title: str = ""
    labels: Mapping[str, str] = field(default_factory=lambda: HAND_LABELS)


@dataclass(frozen=True)
class SideScore:
    """A side (a player, or a team in 2v2) and its running score against the game's limit."""

    name: str
    score: int
    limit: int | None
    colour_index: int


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table with the number ``/rummy add`` and the meld select use."""

    number: int
    meld: Meld
    side_index: int
    owner_name: str = ""


@dataclass(frozen=True)
class SeatInfo:
    """One seat around the table, in turn order."""

    name: str
    side_index: int
    opened: bool = False
    is_turn: bool = False


@dataclass(frozen=True)
class TableScene:
    """The shared table: header, seats, piles and every meld.

    ``side_index`` (in melds and seats) indexes ``sides``; a side's colour is its
    ``colour_index`` into the renderer's team palette. ``turn_name`` is ``None`` once the round
    is over: nobody is to move, so no turn badge is drawn (and no seat has ``is_turn``).
    """

    title: str
    round_no: int
    sides: tuple[SideScore, ...]
    turn_name: str | None
    melds: tuple[TableMeld, ...] = ()
    discard_top: Card | None = None
    discard_count: int = 0
    stock_empty: bool = False
    seats: tuple[SeatInfo, ...] = ()
    four_colour: bool = False
    labels: Mapping[str, str] = field(default_factory=lambda: TABLE_LABELS)


@dataclass(frozen=True)
class PlayerResult:
    """One player's end of round: the cards left in hand and the points they make.

    ``points`` is read by the scene's ``scoring``: with ``"penalty"`` (the Atlas variants) what
    the cards cost the player's side; with ``"gain"`` (Basic rummy) what the winner collects on
    the winner's row and, on the others, what their cards are worth to the winner; with
    ``"void"`` (nobody won the round) nothing, and no points are shown.
    """

    name: str
    side_index: int
    cards: tuple[Card, ...]
    points: int
    went_out: bool = False


@dataclass(frozen=True)
class RoundEndScene:
    """End of a round: every player's remaining cards and points, then the sides' totals.

    ``round_points`` holds what each side's total gained this round (same order as
    ``totals``): a penalty when ``scoring`` is ``"penalty"``, a gain when it is ``"gain"``.
    """

    title: str
    players: tuple[PlayerResult, ...]
    totals: tuple[SideScore, ...]
    round_points: tuple[int, ...] = ()
    scoring: str = "penalty"
    note: str = ""
    four_colour: bool = False
    labels: Mapping[str, str] = field(default_factory=lambda: ROUND_END_LABELS)


@dataclass(frozen=True)
class ChartSeries:
    """One line: a side (or a variant, for a rating), its values, and its team colour."""

    name: str
    values: tuple[int, ...]
    colour_index: int
    #: The x of its first value, when not the scene's ``x_start`` (the latest 50 of a
    #: player's 80 rated games start at game 31).
    start: int | None = None

    def first_x(self, default: int) -> int:
        return default if self.start is None else self.start

    def last_x(self, default: int) -> int:
        return self.first_x(default) + max(1, len(self.values)) - 1


class Picture(ABC):
    """A kind of picture that says how it is drawn, so a new kind is one class: its values,
    and a :meth:`draw` the renderer calls in the drawing process.

    Why a method instead of a branch in the renderer per kind: the scene is the one place its
    name is written. :meth:`draw` imports its drawing module when called, so the bot's own
    process, which builds scenes but never draws, does not load Pillow. The hand, the table,
    the round end and the replay are not pictures of this kind: the renderer draws them
    through kept pieces and palette indexes (see :mod:`bot.render.renderer`).
    """

    @abstractmethod
    def draw(self, fonts: Fonts, sprites: CardSprites) -> Image.Image:
        """The picture as an RGB image, drawn with the shipped ``fonts`` (and the renderer's
        card ``sprites``, for a picture that shows cards)."""

    def portable(self) -> Self:
        """The picture as it can be pickled for a drawing process (a subclass is a dataclass;
        its read-only mapping proxies, such as default labels, become dicts)."""
        proxies = {
            f.name: dict(value)
            for f in fields(cast("DataclassInstance", self))
            if isinstance(value := getattr(self, f.name), MappingProxyType)
        }
        return cast(Self, replace(cast("DataclassInstance", self), **proxies))


@dataclass(frozen=True)
class ChartScene(Picture):
    """A line chart. ``values[i]`` of every series is drawn at x = ``x_start + i`` (a score
    chart starts at round 0 with 0 points, a rating chart at the first rated game).
    ``limit`` draws the game's limit as a dashed gold line."""

    title: str
    series: tuple[ChartSeries, ...]
    x_start: int = 0
    limit: int | None = None
    labels: Mapping[str, str] = field(default_factory=lambda: CHART_LABELS)

    def draw(self, fonts: Fonts, sprites: CardSprites) -> Image.Image:
        from .chart import render_chart_image

        return render_chart_image(self, fonts)


@dataclass(frozen=True)
class ReplayFrame:
    """One moment: a caption (at most two lines are drawn) over a table or a round's end."""

    caption: str
    scene: TableScene | RoundEndScene
    duration_ms: int


@dataclass(frozen=True)
class ReplayScene:
    """The frames of a replay, in order. ``still`` asks for the first frame alone as a PNG
    (the step-through shows one moment at a time)."""

    frames: tuple[ReplayFrame, ...]
    still: bool = False
    labels: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def portable(self) -> ReplayScene:
        """The scene as it can be pickled for a drawing process (labels are mapping proxies)."""
        frames = tuple(
            replace(f, scene=replace(f.scene, labels=dict(f.scene.labels))) for f in self.frames
        )
        return replace(self, frames=frames, labels=dict(self.labels))


@dataclass(frozen=True)
class StandingLine:
    """One drawn line, already worded: rank, name, rating (with its ``?``), games, wins."""

    rank: int
    name: str
    rating: str
    games: int
    wins: int


@dataclass(frozen=True)
class StandingsScene(Picture):
    """A season's final standings: a title, the dates, the columns' header (rank, player,
    rating, games, wins) and one line per player, every word already translated."""

    title: str
    subtitle: str
    header: tuple[str, ...]
    lines: tuple[StandingLine, ...]

    def draw(self, fonts: Fonts, sprites: CardSprites) -> Image.Image:
        from .standings import standings_image

        return standings_image(self, fonts)


#: Whatever a drawer draws.
Scene = HandScene | TableScene | RoundEndScene | ReplayScene | Picture

"""Alt text: what each picture the bot sends shows, in sentences a screen reader reads.

Why it describes the *scene* and nothing else: a scene (:mod:`bot.render.scene`) is exactly what
its picture draws, so a description built from it cannot name a card the picture does not show
(the public table's scene comes from a spectator's view, which holds no hand). Why one module:
the table, the hand, the round end (and the replays and charts of other parts) say the same
things the same way, and the table message's own Melds line (for a reader without the picture)
is written by :func:`melds_line` from the same pieces.

Cards are named once, by the engine (``Card.pretty``: ``7♥``, ``10♠``, ``JK``); a joker in a
meld is followed by what it stands for, as the picture's label under it (``JK=7♥``). Every word
goes through :func:`bot.text.t` (``alt.*`` keys, :mod:`bot.text.catalog_alt`).

Discord takes at most 1,024 characters of description per attachment. A description too long
degrades in steps, never cutting a word (:func:`choose`): a meld (or a round-end row) is told
shorter, a long run by its ends ("5♥ to J♥, 7 cards"), then by its card count ("7 cards"), the
one that saves the most first; if even that does not fit, the last ones are only counted ("and
3 more melds"); a description still too long is shortened after a word.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence

from bot import render
from bot.render.layout import order_hand
from bot.render.scene import Scene
from bot.text import t
from bot.text.safe import ELLIPSIS
from rummy_engine import Card, format_cards
from rummy_engine.melds import Meld

#: Discord's limit for an attachment's description (characters).
ALT_LIMIT = 1024
#: The table message's Melds line at most (characters): the message has 2,000 in all.
MELDS_LINE_LIMIT = 900
#: A shorter form of a meld is worth telling only if it saves this many characters.
MIN_SAVING = 4
#: A run is named by its ends from this many cards on (shorter, it is no shorter that way).
RUN_RANGE_FROM = 4


def separator(locale: str) -> str:
    """Between the melds or rows of a list ("; ", French " ; ")."""
    return t("alt.separator", locale)


#: One item (a meld, a player's row) told from the most detailed form to the shortest.
Forms = Sequence[str]


# -- the pieces -------------------------------------------------------------------------------


def meld_cards(meld: Meld) -> str:
    """A meld's cards in table order, each joker with what it stands for: ``7♥ JK=8♥ 9♥``."""
    return " ".join(
        f"{card.pretty}={face.pretty}" if card.is_joker else card.pretty
        for card, face in zip(meld.cards, meld.stands_for, strict=True)
    )


def _run_range(meld: Meld, locale: str) -> str | None:
    """A long run by its ends ("5♥ to J♥"), its jokers after it; None for a set or a short run."""
    if not meld.is_run or len(meld.cards) < RUN_RANGE_FROM:
        return None
    first, last = meld.stands_for[0].pretty, meld.stands_for[-1].pretty
    text = t("alt.run", locale, first=first, last=last, count=len(meld.cards))
    jokers = [
        f"{card.pretty}={face.pretty}"
        for card, face in zip(meld.cards, meld.stands_for, strict=True)
        if card.is_joker
    ]
    return f"{text} ({' '.join(jokers)})" if jokers else text


@functools.lru_cache(maxsize=4096)
def meld_forms(meld: render.TableMeld, locale: str, *, owner: bool = True) -> tuple[str, ...]:
    """How one numbered meld can be told, longest first: every card, a long run by its ends,
    its card count; with who laid it unless ``owner`` is False (the melds told by owner).
    Cached: a table's melds are told again at every move (picture and Melds line), and most
    of them have not changed."""

    def told(cards: str) -> str:
        if owner and meld.owner_name:
            return t("alt.meld", locale, number=meld.number, cards=cards, owner=meld.owner_name)
        return t("alt.meld_anonymous", locale, number=meld.number, cards=cards)

    short = _run_range(meld.meld, locale)
    count = t("alt.cards", locale, count=len(meld.meld.cards))
    return tuple(
        shorter_forms(told(c) for c in (meld_cards(meld.meld), short, count) if c is not None)
    )


def shorter_forms(forms: Iterable[str]) -> list[str]:
    """The forms of one item, each kept only if it saves a few characters on the one before
    (a 3-card meld told "3 cards" would lose its cards for nothing)."""
    kept: list[str] = []
    for form in forms:
        if not kept or len(form) <= len(kept[-1]) - MIN_SAVING:
            kept.append(form)
    return kept


def choose(
    items: Sequence[Forms],
    budget: int,
    more: Callable[[int], str],
    sep: str = "; ",
    join: Callable[[Sequence[str]], str] | None = None,
) -> str:
    """The items joined by ``sep`` within ``budget`` characters, as detailed as fits.

    Step by step, one item is told one form shorter: every item's second form comes before
    any item's third, and within a step the item that saves the most first (the later one of
    equal savings: the first are read first), until the whole fits; if even the shortest forms
    do not fit, the last items are left out and ``more(count)`` says how many. ``join`` makes
    one text of the items' chosen forms (by default, joined by ``sep``).
    """
    join = join or sep.join
    chosen = [0] * len(items)

    def text(kept: int) -> str:
        told = join([items[i][chosen[i]] for i in range(kept)])
        if kept == len(items):
            return told
        return sep.join(part for part in (told, more(len(items) - kept)) if part)

    for level in range(1, max((len(forms) for forms in items), default=1)):
        steps = [i for i in range(len(items)) if level < len(items[i])]
        steps.sort(key=lambda i: (len(items[i][level - 1]) - len(items[i][level]), i), reverse=True)
        for i in steps:
            if len(text(len(items))) <= budget:
                return text(len(items))
            chosen[i] = level
    kept = len(items)
    while kept > 0 and len(text(kept)) > budget:
        kept -= 1
    return text(kept)


def shorten(text: str, limit: int = ALT_LIMIT) -> str:
    """``text`` within ``limit`` characters, cut after a whole word (with an ellipsis)."""
    if len(text) <= limit:
        return text
    head = text[: limit - len(ELLIPSIS)]
    space = head.rfind(" ")
    return (head[:space] if space > 0 else head).rstrip(" ,;:") + ELLIPSIS


def fit(sentences: Sequence[str], limit: int = ALT_LIMIT) -> str:
    """Sentences as one description within Discord's limit (empty ones left out). For a
    picture of your own: build its sentences with ``t()``, then ``fit`` them."""
    return shorten(" ".join(s for s in sentences if s), limit)


def melds_text(melds: Sequence[render.TableMeld], locale: str, budget: int) -> str:
    """The numbered melds with their cards and who laid them, within ``budget`` characters:
    each with its player's name while that fits, else grouped by player (a name said once,
    not once per meld: six long names over many melds took most of the room)."""
    def more(count: int) -> str:
        return t("alt.melds_more", locale, count=count)

    sep = separator(locale)
    each = [meld_forms(m, locale) for m in melds]
    if len(sep.join(f[0] for f in each)) <= budget or not all(m.owner_name for m in melds):
        return choose(each, budget, more, sep)
    first: dict[str, int] = {}
    for meld in melds:
        first.setdefault(meld.owner_name, meld.number)
    ordered = sorted(melds, key=lambda m: (first[m.owner_name], m.number))
    owners = [m.owner_name for m in ordered]

    def by_owner(parts: Sequence[str]) -> str:
        groups: dict[str, list[str]] = {}
        for owner, part in zip(owners, parts, strict=False):
            groups.setdefault(owner, []).append(part)
        return sep.join(
            t("alt.owner_melds", locale, owner=owner, melds=", ".join(told))
            for owner, told in groups.items()
        )

    told = [meld_forms(m, locale, owner=False) for m in ordered]
    return choose(told, budget, more, sep, by_owner)


def melds_line(melds: Sequence[render.TableMeld], locale: str, budget: int) -> str:
    """The table message's Melds line, for a reader without the picture ("" with no meld)."""
    if not melds:
        return ""
    head = t("alt.melds_line", locale, count=len(melds), melds="")
    return t(
        "alt.melds_line",
        locale,
        count=len(melds),
        melds=melds_text(melds, locale, min(budget, MELDS_LINE_LIMIT) - len(head)),
    )


def _score(side: render.SideScore, locale: str) -> str:
    if side.limit is None:
        return t("alt.score", locale, side=side.name, score=side.score)
    return t("alt.score_limit", locale, side=side.name, score=side.score, limit=side.limit)


# -- the table --------------------------------------------------------------------------------


def describe_table(scene: render.TableScene, locale: str, limit: int = ALT_LIMIT) -> str:
    """The public table picture: round, scores, whose turn, who opened, the piles, then every
    numbered meld with its cards and who laid it."""
    head = [
        t("alt.table", locale, title=scene.title, round=scene.round_no),
        t("alt.scores", locale, scores=", ".join(_score(s, locale) for s in scene.sides)),
    ]
    if scene.turn_name is not None:
        head.append(t("alt.turn", locale, name=scene.turn_name))
    opened = [seat.name for seat in scene.seats if seat.opened]
    if opened:
        head.append(t("alt.opened", locale, names=", ".join(opened)))
    if scene.discard_top is None:
        head.append(t("alt.discard_empty", locale))
    else:
        head.append(
            t("alt.discard", locale, top=scene.discard_top.pretty, count=scene.discard_count)
        )
    if scene.stock_empty:
        head.append(t("alt.stock_empty", locale))
    start = fit(head, limit)
    if not scene.melds:
        return fit([start, t("alt.no_melds", locale)], limit)
    frame = t("alt.melds", locale, count=len(scene.melds), melds="")
    budget = limit - len(start) - 1 - len(frame)
    melds = t(
        "alt.melds", locale, count=len(scene.melds), melds=melds_text(scene.melds, locale, budget)
    )
    return fit([start, melds], limit)


# -- a hand -----------------------------------------------------------------------------------


def _suit_runs(cards: Sequence[Card]) -> str:
    """Cards in the picture's order, a comma where the picture leaves a gap between suits."""
    groups: list[list[Card]] = []
    last = -1
    for card, _, group in order_hand(cards, None):
        if group != last:
            groups.append([])
            last = group
        groups[-1].append(card)
    return ", ".join(format_cards(group) for group in groups)


def _cards_forms(cards: Sequence[Card], text: str, locale: str) -> list[str]:
    return [text, t("alt.cards", locale, count=len(cards))]


def describe_hand(scene: render.HandScene, locale: str, limit: int = ALT_LIMIT) -> str:
    """A player's own hand (private): its cards in the picture's order (by melds when the
    player sorts so), and the card just drawn."""
    parts = [t("alt.hand", locale, title=scene.title)]
    if not scene.cards:
        parts.append(t("alt.hand_empty", locale))
    elif scene.groups is None:
        parts.append(t("alt.hand_cards", locale, cards=_suit_runs(scene.cards)))
    else:
        parts += _grouped(scene, locale)
    if scene.drawn is not None and scene.drawn in scene.cards:  # a card laid since is not drawn
        parts.append(t("alt.drawn", locale, card=scene.drawn.pretty))
    return fit(parts, limit)


def describe_lesson(scene: render.HandScene, locale: str, limit: int = ALT_LIMIT) -> str:
    """A lesson's picture: its cards as the question names them (melds, or several hands, each
    group apart; else in the picture's order), and the card it marks. Not "your hand": a
    lesson shows melds, other players' hands and made-up positions."""
    groups = scene.groups or (scene.cards,)
    shown = separator(locale).join(format_cards(group) for group in groups)
    parts = [t("alt.lesson", locale, title=scene.title, cards=shown)]
    if scene.drawn is not None and scene.drawn in scene.cards:
        parts.append(t("alt.drawn", locale, card=scene.drawn.pretty))
    return fit(parts, limit)


def _grouped(scene: render.HandScene, locale: str) -> list[str]:
    """A hand sorted by melds, as the picture draws it: the melds found, then the other cards."""
    order = order_hand(scene.cards, scene.groups)
    groups: dict[int, list[Card]] = {}
    for card, _, group in order:
        groups.setdefault(group, []).append(card)
    placed = {c for members in scene.groups or () for c in members if c in scene.cards}
    melds = [format_cards(cards) for cards in groups.values() if cards[0] in placed]
    rest = [c for c, _, _ in order if c not in placed]
    parts = []
    if melds:
        parts.append(t("alt.hand_melds", locale, melds=separator(locale).join(melds)))
    if rest:
        parts.append(t("alt.hand_rest", locale, cards=format_cards(rest)))
    return parts


# -- the end of a round -------------------------------------------------------------------------


def _row_forms(scene: render.RoundEndScene, row: render.PlayerResult, locale: str) -> list[str]:
    """One player's row: their cards (all, then a count) and what the cards make."""
    player = t("alt.went_out", locale, name=row.name) if row.went_out else row.name
    if row.cards:
        held = [format_cards(row.cards), t("alt.cards", locale, count=len(row.cards))]
    else:
        held = [t("alt.no_cards", locale)]
    key = {"penalty": "alt.row_pays", "void": "alt.row_void"}.get(scene.scoring)
    if key is None:
        key = "alt.row_collects" if row.went_out else "alt.row_worth"
    return shorter_forms(t(key, locale, player=player, cards=c, points=row.points) for c in held)


def describe_round_end(scene: render.RoundEndScene, locale: str, limit: int = ALT_LIMIT) -> str:
    """The end of a round (every hand is public then): each player's cards and points, then
    the totals with what each side gained this round."""
    totals = []
    for index, side in enumerate(scene.totals):
        total = _score(side, locale)
        if index < len(scene.round_points):
            total += " " + t("alt.this_round", locale, points=scene.round_points[index])
        totals.append(total)
    tail = [t("alt.totals", locale, totals=", ".join(totals)), scene.note]
    start = t("alt.round_end", locale, title=scene.title)
    budget = limit - len(start) - len(fit(tail, limit)) - 3
    rows = choose(
        [_row_forms(scene, row, locale) for row in scene.players],
        budget,
        lambda count: t("alt.players_more", locale, count=count),
        separator(locale),
    )
    return fit([start, rows + ".", *tail], limit)


# -- any picture --------------------------------------------------------------------------------


def describe(scene: Scene, locale: str) -> str:
    """The description of any of the bot's scenes, in ``locale``, within Discord's limit. A new
    kind of picture adds its own ``describe_<kind>`` here (an unknown scene is an error, never
    a picture sent without its description). A replay is described where it is drawn
    (:mod:`bot.features.replays.replay`, which knows the log it retells), never through a draft."""
    if isinstance(scene, render.TableScene):
        return describe_table(scene, locale)
    if isinstance(scene, render.HandScene):
        return describe_hand(scene, locale)
    if isinstance(scene, render.RoundEndScene):
        return describe_round_end(scene, locale)
    raise TypeError(f"no alt text for a {type(scene).__name__}")

"""Cards, their text notation and the decks of each variant.

Two decks mean two equal-looking cards: a :class:`Card` is one physical card (``copy`` tells the two
``7h`` apart, so conservation can be checked), while a :class:`Face` is what a player names and
sees (rank and suit only). Jokers have rank 0 and no suit.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rummy_engine.errors import CardNotAvailable, NotationError

JOKER_RANK = 0
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K", **{n: str(n) for n in range(2, 11)}}
_RANK_PARSE = {
    "A": 1,
    "J": 11,
    "Q": 12,
    "K": 13,
    "T": 10,
    "1": 1,
    **{str(n): n for n in range(2, 11)},
}


class Suit(enum.Enum):
    """The four suits, in the order cards are grouped for display (black/red alternate)."""

    SPADES = "s"
    HEARTS = "h"
    CLUBS = "c"
    DIAMONDS = "d"

    @property
    def symbol(self) -> str:
        return _SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def index(self) -> int:
        return _SUIT_INDEX[self._value_]

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Suit):
            return NotImplemented
        return self.index < other.index

    # Members are singletons compared by identity, so the identity hash is consistent with
    # equality; it is computed in C, where Enum's own hashes the member's name in Python, and
    # every Face and Card hash goes through it (the solver hashes faces by the thousand).
    __hash__ = object.__hash__


_SUIT_ORDER = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
_SUIT_INDEX = {suit.value: i for i, suit in enumerate(_SUIT_ORDER)}
_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_PARSE = {
    **{s.value: s for s in Suit},
    **{sym: s for s, sym in _SYMBOLS.items()},
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}


@dataclass(frozen=True, order=True, slots=True)
class Face:
    """What a card shows: a rank (1–13, 0 for a joker) and a suit (None for a joker).

    A joker standing in a set whose missing suit is not yet known is described by a Face with
    the set's rank and ``suit=None``.
    """

    rank: int
    suit: Suit | None

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def text(self) -> str:
        """The notation players type: ``7h``, ``10s``, ``Qd``, ``As``, ``JK``."""
        return _face_name(self.rank, self.suit, False)

    @property
    def pretty(self) -> str:
        """The printed form with a suit symbol: ``7♥``, ``10♠``, ``JK``."""
        return _face_name(self.rank, self.suit, True)

    def __str__(self) -> str:
        return self.pretty

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as a call of the shared constructor (a dataclass with slots pickles through
        Python-level state functions: most of a picture's scene cost to send to a drawing
        process)."""
        return (_face, (self.rank, self.suit))


JOKER = Face(JOKER_RANK, None)

@functools.cache
def _face(rank: int, suit: Suit | None) -> Face:
    """The shared Face: faces are immutable values, so each is made once (Card.face is asked
    for constantly: the solver and the state machine match cards by face). A named function,
    so that pickle can refer to it."""
    return Face(rank, suit)


# Names are asked for by the hundred per move (a stored game names every card by key): each is
# built once per face (an enum's ``value`` is a Python-level property).
@functools.cache
def _face_name(rank: int, suit: Suit | None, symbol: bool) -> str:
    """``7h`` as players type it, or ``7♥`` with ``symbol``."""
    if rank == JOKER_RANK:
        return "JK"
    if suit is None:
        return RANK_TEXT[rank] + "?"
    return RANK_TEXT[rank] + (suit.symbol if symbol else suit.value)


@functools.cache
def _card_key(rank: int, suit: Suit | None, copy: int) -> str:
    return f"{_face_name(rank, suit, False)}.{copy}"


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One physical card. ``copy`` is 0 or 1 for the two packs, or the joker's number."""

    rank: int
    suit: Suit | None
    copy: int = 0
    #: A stable identity for JSON: the face text and the copy, e.g. ``7h.1``. Kept on the card
    #: (not a property): every snapshot names all the cards of the game.
    key: str = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", _card_key(self.rank, self.suit, self.copy))

    @property
    def face(self) -> Face:
        return _face(self.rank, self.suit)

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def text(self) -> str:
        return _face_name(self.rank, self.suit, False)

    @property
    def pretty(self) -> str:
        return _face_name(self.rank, self.suit, True)

    @classmethod
    def from_key(cls, key: str) -> Card:
        return _card_from_key(key)

    def __str__(self) -> str:
        return self.pretty

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as its key (see ``Face.__reduce__``); unpickling shares the cached cards."""
        return (_card_from_key, (self.key,))


@functools.lru_cache(maxsize=512)
def _card_from_key(key: str) -> Card:
    """Cached: a stored game names its ~100 cards by key at every load, and cards are frozen."""
    text, _, copy = key.rpartition(".")
    face = parse_face(text)
    return Card(face.rank, face.suit, int(copy))


def sort_key(card: Card | Face) -> tuple[int, int]:
    """Display order: grouped by suit (♠ ♥ ♣ ♦ alternate colours), by rank; jokers last."""
    if card.suit is None:
        return (len(_SUIT_ORDER), card.rank)
    return (card.suit.index, card.rank)


def parse_face(token: str) -> Face:
    """Read one card as players type it: ``7h``, ``10s``, ``Td``, ``qc``, ``A♠``, ``JK``."""
    raw = token.strip().replace("\ufe0f", "")
    word = raw.upper()
    if word in ("JK", "JOKER", "JO", "★", "🃏"):
        return JOKER
    if len(word) < 2:
        raise NotationError("notation.bad_card", token=token)
    rank_part, suit_part = word[:-1], raw[-1].lower()
    rank = _RANK_PARSE.get(rank_part)
    suit = _SUIT_PARSE.get(suit_part)
    if rank is None or suit is None:
        raise NotationError("notation.bad_card", token=token)
    return Face(rank, suit)


def parse_faces(text: str) -> list[Face]:
    """Read a list of cards separated by spaces or commas."""
    tokens = [tok for tok in text.replace(",", " ").split() if tok]
    if not tokens:
        raise NotationError("notation.no_cards")
    return [parse_face(tok) for tok in tokens]


def parse_meld_groups(text: str) -> list[list[Face]]:
    """Read several melds separated by ``|`` or ``/``: ``7h 8h 9h | Qs Qd Qc``."""
    groups = [g for g in text.replace("/", "|").split("|") if g.strip()]
    if not groups:
        raise NotationError("notation.no_cards")
    return [parse_faces(g) for g in groups]


def format_cards(cards: Iterable[Card | Face], pretty: bool = True) -> str:
    """Cards in the order given, as text (pretty symbols by default)."""
    return " ".join(c.pretty if pretty else c.text for c in cards)


def make_deck(packs: int, jokers: int) -> list[Card]:
    """All physical cards of a variant, in a fixed order (shuffling is the caller's job)."""
    deck = [
        Card(rank, suit, copy)
        for copy in range(packs)
        for suit in _SUIT_ORDER
        for rank in range(1, 14)
    ]
    deck.extend(Card(JOKER_RANK, None, n) for n in range(jokers))
    return deck


def take_matching(
    hand: Sequence[Card],
    faces: Sequence[Face],
    *,
    prefer: Card | None = None,
    avoid: Card | None = None,
) -> list[Card]:
    """Pick physical cards from ``hand`` for each named face: ``prefer`` first, ``avoid`` last,
    otherwise the lowest copy (so the same names always pick the same cards).

    Raises a :class:`~rummy_engine.errors.CardNotAvailable` naming the first face the hand
    cannot supply (counting repeats: naming ``7h 7h`` needs both copies).
    """

    def order(card: Card) -> tuple[int, int]:
        return (0 if card == prefer else 2 if card == avoid else 1, card.copy)

    pool = sorted(hand, key=order)
    picked: list[Card] = []
    for face in faces:
        match = next((c for c in pool if c.face == face), None)
        if match is None:
            raise CardNotAvailable("hand.missing_card", card=face.pretty)
        pool.remove(match)
        picked.append(match)
    return picked

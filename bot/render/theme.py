"""Colours and sizes, in one place so every image speaks the same visual language.

Why so few colours: PNG size grows with the number of distinct colours, and a player reads a
card table by colour first (felt, white cards, red/black suits, team colours). Keeping the set
small also lets the encoder turn the image into an 8-bit palette image without visible loss.
"""

from __future__ import annotations

from dataclasses import dataclass

from rummy_engine.cards import Suit

RGB = tuple[int, int, int]

FELT: RGB = (28, 102, 60)
FELT_DARK: RGB = (19, 74, 43)
FELT_LINE: RGB = (45, 128, 80)
TEXT: RGB = (245, 247, 240)
TEXT_DIM: RGB = (190, 222, 200)
GOLD: RGB = (247, 196, 40)
CARD_FACE: RGB = (255, 255, 255)
CARD_EDGE: RGB = (120, 120, 120)
JOKER_FACE: RGB = (255, 246, 214)
JOKER_INK: RGB = (118, 40, 170)
BACK: RGB = (160, 32, 48)
BACK_LINE: RGB = (222, 120, 120)
SLOT: RGB = (60, 140, 92)

BLACK: RGB = (20, 20, 24)
RED: RGB = (206, 18, 30)
BLUE: RGB = (22, 84, 206)
GREEN: RGB = (14, 128, 44)

#: Team colours, chosen to stand out on green felt and from each other (no green, no red-on-red).
TEAM: tuple[RGB, ...] = (
    (58, 130, 246),  # blue
    (249, 115, 22),  # orange
    (217, 70, 239),  # magenta
    (255, 138, 160),  # pink (not yellow: gold marks the turn and the card just drawn)
    (34, 211, 238),  # cyan
    (244, 244, 244),  # white
)


def team_colour(index: int) -> RGB:
    """The colour of a side; indexes wrap so any number of sides gets a colour."""
    return TEAM[index % len(TEAM)]


def suit_colour(suit: Suit | None, four_colour: bool) -> RGB:
    """Ink of a suit: classic red/black, or ♦ blue and ♣ green for the four-colour deck."""
    if suit is None:
        return JOKER_INK
    if four_colour and suit is Suit.DIAMONDS:
        return BLUE
    if four_colour and suit is Suit.CLUBS:
        return GREEN
    return RED if suit.is_red else BLACK


@dataclass(frozen=True)
class CardSize:
    """One card size: the sprite and how much of it shows when cards overlap in a fan.

    ``step`` is the visible strip of an overlapped card; the corner index (rank above suit) is
    centred in it, so it is the only part that has to be readable.
    """

    name: str
    width: int
    height: int
    radius: int
    rank_px: int
    suit_px: int
    step: int


HAND = CardSize("hand", 120, 168, 11, 46, 44, 58)
TABLE_L = CardSize("table_l", 80, 112, 8, 32, 31, 40)
TABLE_M = CardSize("table_m", 68, 95, 7, 28, 27, 34)
TABLE_S = CardSize("table_s", 58, 81, 6, 24, 23, 29)

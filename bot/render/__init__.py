"""Card-table images (Pillow): engine values in, PNG bytes out. No discord import here.

Why a separate package: the images are a pure function of plain scene values (see
:mod:`bot.render.scene`), so they can be golden-tested, benchmarked, and drawn in a worker
thread or process (:mod:`bot.render.drawing`): the bot's event loop never blocks on drawing.

The sprite cache lives in a :class:`Renderer`. These functions use a process-wide one, built on
first use by :func:`default_renderer` (an ``lru_cache`` on a factory with no arguments); pass
``renderer=`` to use your own (tests do).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from .scene import (
    HAND_LABELS,
    ROUND_END_LABELS,
    TABLE_LABELS,
    HandScene,
    PlayerResult,
    RoundEndScene,
    SeatInfo,
    SideScore,
    TableMeld,
    TableScene,
    labels_from,
)

if TYPE_CHECKING:
    from .renderer import Renderer

__all__ = [
    "HAND_LABELS",
    "ROUND_END_LABELS",
    "TABLE_LABELS",
    "HandScene",
    "PlayerResult",
    "Renderer",
    "RoundEndScene",
    "SeatInfo",
    "SideScore",
    "TableMeld",
    "TableScene",
    "default_renderer",
    "labels_from",
    "render_hand",
    "render_round_end",
    "render_table",
]


def __getattr__(name: str) -> object:
    """``bot.render.Renderer``, imported on first use: a process that only builds scenes (the
    bot's, whose pictures are drawn in its drawing processes) never loads Pillow."""
    if name == "Renderer":
        from .renderer import Renderer

        return Renderer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.lru_cache(maxsize=1)
def default_renderer() -> Renderer:
    """The shared renderer (fonts and card sprites are built once per process)."""
    from .renderer import Renderer

    return Renderer()


def render_hand(scene: HandScene, renderer: Renderer | None = None) -> bytes:
    """PNG of a player's hand."""
    return (renderer or default_renderer()).hand(scene)


def render_table(scene: TableScene, renderer: Renderer | None = None) -> bytes:
    """PNG of the table."""
    return (renderer or default_renderer()).table(scene)


def render_round_end(scene: RoundEndScene, renderer: Renderer | None = None) -> bytes:
    """PNG of the end of a round."""
    return (renderer or default_renderer()).round_end(scene)

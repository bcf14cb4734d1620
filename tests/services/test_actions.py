"""The action vocabulary keeps the custom_ids of buttons already posted in Discord working.

A table message posted before an upgrade keeps its components' custom_ids; the ids below are
written out as they were released, so renaming a member's value (or a component's kind) after a
release fails here instead of leaving players with buttons that no longer answer.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.features.play import moves
from bot.features.play.actions import Action
from bot.features.play.ui.widgets import Click, bound_items
from rummy_engine import Discard, Draw, Lay, Rules, Source, Swap, UndoTake, Variant, parse_face
from tests.engine.helpers import position

#: custom_ids as posted by released versions, with what each must decode to.
RELEASED_BUTTONS = {
    "rummy:7:0:join": Action.JOIN,
    "rummy:7:0:join_a": Action.JOIN_A,
    "rummy:7:0:join_b": Action.JOIN_B,
    "rummy:7:0:leave": Action.LEAVE,
    "rummy:7:0:sitout": Action.SIT_OUT,
    "rummy:7:0:start": Action.START,
    "rummy:7:0:cancel": Action.CANCEL,
    "rummy:7:0:settings": Action.SETTINGS,
    "rummy:7:0:addbot": Action.ADD_COMPUTER,
    "rummy:7:0:rmbot": Action.REMOVE_COMPUTER,
    "rummy:7:12:draw": Action.DRAW,
    "rummy:7:12:take": Action.TAKE,
    "rummy:7:12:hand": Action.HAND,
    "rummy:7:12:next": Action.NEXT_ROUND,
    "rummy:7:12:lay:7h8h9h": Action.LAY,
    "rummy:7:12:discard:Kc": Action.DISCARD,
    "rummy:7:12:undo": Action.UNDO,
    "rummy:7:0:absrep:1": Action.ABSENT_REPLACE,
    "rummy:7:0:abswait:1": Action.ABSENT_WAIT,
    "rummy:7:0:absend:1": Action.ABSENT_END,
    "rummy:7:0:again": Action.PLAY_AGAIN,
    "rummy:0:0:defscope:c": Action.DEFAULTS_SCOPE,
    "rummy:0:0:defclear:s": Action.DEFAULTS_CLEAR,
    "rummy:7:0:review:2": Action.REVIEW,
    "rummy:7:0:replay:3": Action.REPLAY,
    "rummy:7:0:rstep:3": Action.REPLAY_STEP,
    "rummy:7:4:rmove:3_b": Action.REPLAY_MOVE,
    "rummy:7:12:back": Action.BACK,
}
RELEASED_SELECTS = {
    "rummy:7:12:pick": Action.PICK,
    "rummy:7:12:addto:JK": Action.ADD_TO,
    "rummy:7:12:swapin:7d": Action.SWAP_IN,
    "rummy:7:0:setopt": Action.SET_OPTION,
    "rummy:7:0:setval:turn_timer": Action.SET_VALUE,
    "rummy:7:12:arrange": Action.ARRANGE,
    "rummy:7:12:addend:1_JK": Action.ADD_END,
    "rummy:7:0:addbotas": Action.ADD_COMPUTER_AS,
    "rummy:0:0:defkey:s": Action.DEFAULTS_KEY,
    "rummy:0:0:defval:c_ace_mode": Action.DEFAULTS_VALUE,
}


def test_every_action_has_a_released_custom_id() -> None:
    """A new member gets a line above once released; an old value never changes."""
    assert set(RELEASED_BUTTONS.values()) | set(RELEASED_SELECTS.values()) == set(Action)


async def _decoded(factory: Any, item: discord.ui.Item[Any]) -> Any:
    custom_id = item.custom_id  # type: ignore[attr-defined]
    match = factory.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, f"{custom_id} no longer matches its component"
    return await factory.from_custom_id(None, item, match)


@pytest.mark.parametrize("custom_id", list(RELEASED_BUTTONS) + list(RELEASED_SELECTS))
async def test_released_custom_ids_still_route(custom_id: str) -> None:
    """Each old id is matched by the component class the bot registers and reaches the router
    as the same action, table, turn and arg."""
    routed: list[Click] = []

    async def router(interaction: discord.Interaction, click: Click) -> None:
        routed.append(click)

    button_cls, select_cls = bound_items(router)
    if custom_id in RELEASED_BUTTONS:
        factory, item = button_cls, discord.ui.Button(label="old", custom_id=custom_id)
    else:
        factory, item = select_cls, discord.ui.Select(custom_id=custom_id, options=[])
    decoded = await _decoded(factory, item)
    assert isinstance(decoded, factory) and decoded.item.custom_id == custom_id
    await decoded._route(None, ("1",))
    (click,) = routed
    _, table, turn, _, *arg = custom_id.split(":")
    expected = {**RELEASED_BUTTONS, **RELEASED_SELECTS}[custom_id]
    assert (click.table_id, click.turn, click.action) == (int(table), int(turn), expected)
    assert click.arg == (arg[0] if arg else "") and click.values == ("1",)


def test_clicks_build_the_moves_they_name() -> None:
    """The move builders dispatch on the members themselves (no text of their own)."""
    game = position(Rules(Variant.R51, 2), ["7h 8h 9h Kc 2c", "3c 4c"])
    assert moves.clicked(Action.DRAW, "", ())(game, 0) == Draw(0, Source.STOCK)
    assert moves.clicked(Action.TAKE, "", ())(game, 0) == Draw(0, Source.DISCARD)
    assert moves.clicked(Action.UNDO, "", ())(game, 0) == UndoTake(0)
    assert moves.clicked(Action.DISCARD, "Kc", ())(game, 0) == Discard(0, parse_face("Kc"))
    assert moves.clicked(Action.SWAP_IN, "7d", ("2",))(game, 0) == Swap(0, 1, parse_face("7d"))
    lay = moves.clicked(Action.LAY, "7h8h9h", ())(game, 0)
    assert isinstance(lay, Lay) and lay.melds == (tuple(parse_face(f) for f in ("7h", "8h", "9h")),)

"""Buttons and selects: the custom_id codec and the persistent components that route clicks.

Every component is a ``DynamicItem`` whose custom_id carries the table, the turn and the action
(``rummy:<table>:<turn>:<action>[:<arg>]``, :data:`BUTTON_IDS` and :data:`SELECT_IDS`), so it
works after a restart and a click from an old turn is recognised and refused politely. The classes here only describe and decode; a click is
handed to the :class:`Router` the cog bound with :func:`bound_items` at set-up.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import discord

from bot.features.play.actions import Action
from bot.ui import errors
from bot.ui.custom_ids import CustomIdCodec

SELECT_ACTIONS = frozenset(
    {
        Action.PICK,
        Action.ADD_TO,
        Action.SWAP_IN,
        Action.SET_OPTION,
        Action.SET_VALUE,
        Action.ARRANGE,
        Action.ADD_END,
        Action.ADD_COMPUTER_AS,
        Action.DEFAULTS_KEY,
        Action.DEFAULTS_VALUE,
    }
)
BUTTON_ACTIONS = frozenset(Action) - SELECT_ACTIONS


@dataclass(frozen=True)
class TableId:
    """What a table component's custom_id carries: the table, the turn it was drawn for, the
    action it asks and an argument of the action (a meld, a round, chosen cards…)."""

    table_id: int
    turn: int
    action: Action
    arg: str = ""


BUTTON_IDS = CustomIdCodec("rummy", TableId, choices={"action": (a.value for a in BUTTON_ACTIONS)})
SELECT_IDS = CustomIdCodec("rummy", TableId, choices={"action": (a.value for a in SELECT_ACTIONS)})


def custom_id(table_id: int, turn: int, action: Action, arg: str = "") -> str:
    return BUTTON_IDS.build(TableId(table_id, turn, action, arg))


@dataclass(frozen=True)
class Click:
    """A decoded click: which table, which turn it was drawn for, what it asks, the values."""

    table_id: int
    turn: int
    action: Action
    arg: str
    values: tuple[str, ...]


Router = Callable[[discord.Interaction, Click], Awaitable[None]]


class _Routed:
    """What both kinds of component share: decoding the custom_id and handing the click over.

    ``router`` is set on the subclasses :func:`bound_items` makes; the plain classes only
    describe components inside views.
    """

    router: ClassVar[Router | None] = None
    table_id: int
    turn: int
    action: Action
    arg: str

    def __init__(self, table_id: int, turn: int, action: Action, *, arg: str = "") -> None:
        self.table_id, self.turn, self.action, self.arg = table_id, turn, action, arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """The pressed component again, from its custom_id: its label or options are not needed
        to route, and discord.py sets a select's chosen values afterwards."""
        found = BUTTON_IDS.decode(match)  # both families decode alike
        return cls(found.table_id, found.turn, found.action, arg=found.arg)

    async def _route(self, interaction: discord.Interaction, values: Sequence[str]) -> None:
        click = Click(self.table_id, self.turn, self.action, self.arg, tuple(values))
        try:
            router = type(self).router  # read on the class: a function here is not a method
            assert router is not None, "components are routed through bound_items()"
            await router(interaction, click)
        except Exception as error:
            await errors.answer(interaction, error)


class TableButton(
    _Routed,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=BUTTON_IDS.template,
):
    def __init__(
        self,
        table_id: int,
        turn: int,
        action: Action,
        label: str = "",
        *,
        arg: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        discord.ui.DynamicItem.__init__(
            self,
            discord.ui.Button(
                label=label[:80],
                style=style,
                custom_id=custom_id(table_id, turn, action, arg),
                disabled=disabled,
                row=row,
            ),
        )
        _Routed.__init__(self, table_id, turn, action, arg=arg)

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._route(interaction, ())


class TableSelect(
    _Routed,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=SELECT_IDS.template,
):
    def __init__(
        self,
        table_id: int,
        turn: int,
        action: Action,
        options: Sequence[discord.SelectOption] = (),
        placeholder: str = "",
        *,
        arg: str = "",
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id(table_id, turn, action, arg),
            options=list(options),
            placeholder=placeholder[:150],
            min_values=0 if max_values > 1 else 1,
            max_values=max_values,
            row=row,
        )
        discord.ui.DynamicItem.__init__(self, select)
        _Routed.__init__(self, table_id, turn, action, arg=arg)

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Mapping[str, Any] = interaction.data or {}
        await self._route(interaction, [str(value) for value in data.get("values", [])])


def bound_items(router: Router) -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    """The component classes to register with ``bot.add_dynamic_items``, routing to ``router``.

    Fresh subclasses per bot, so two bots in one process (a restart in tests) never share one.
    """

    class BoundButton(TableButton, template=BUTTON_IDS.template):
        pass

    class BoundSelect(TableSelect, template=SELECT_IDS.template):
        pass

    BoundButton.router = router
    BoundSelect.router = router
    return BoundButton, BoundSelect


def component_view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view used only to describe components: clicks reach the registered dynamic items,
    so the view is stopped at once and discord.py keeps no per-message copy of it."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def view_signature(view: discord.ui.View | None) -> list[dict[str, Any]]:
    """What a view looks like to Discord (for comparing what a message shows)."""
    return [] if view is None else view.to_components()

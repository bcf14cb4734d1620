"""Buttons and selects. Every component is a ``DynamicItem`` whose custom_id carries the table,
the turn and the action (``rummy:<table>:<turn>:<action>[:<arg>]``), so it works after a restart
and a click from an old turn can be recognised and refused politely.

Views here only describe components; what a click does lives in :mod:`bot.controller`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.services.seating import Mode
from bot.services.selection import encode
from rummy_engine import Card, Face, Phase, Variant, format_cards
from rummy_engine.melds import Meld

if TYPE_CHECKING:
    from bot.services.tables import Table

BUTTON_ACTIONS = (
    "join",
    "join_a",
    "join_b",
    "leave",
    "start",
    "cancel",
    "settings",
    "addbot",
    "rmbot",
    "draw",
    "take",
    "hand",
    "next",
    "lay",
    "discard",
    "undo",
)
SELECT_ACTIONS = ("pick", "addto", "swapin", "setopt", "setval")
_ARG = r"(?::(?P<arg>[A-Za-z0-9_]*))?"


def custom_id(table_id: int, turn: int, action: str, arg: str = "") -> str:
    base = f"rummy:{table_id}:{turn}:{action}"
    return f"{base}:{arg}" if arg else base


class _Routed:
    """What both kinds of component share: the parsed custom_id and the hand-off to the
    controller (``interaction.client.controller``)."""

    table_id: int
    turn: int
    action: str
    arg: str

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Any:
        """Rebuild the component from a click (after a restart too): the id says it all."""
        routed = cls.__new__(cls)
        discord.ui.DynamicItem.__init__(routed, item)  # type: ignore[arg-type]
        routed._route(match)
        return routed

    def _route(self, match: re.Match[str]) -> None:
        self.table_id = int(match["table"])
        self.turn = int(match["turn"])
        self.action = match["action"]
        self.arg = match["arg"] or ""

    async def _dispatch(self, interaction: discord.Interaction, values: Sequence[str] = ()) -> None:
        controller: Any = getattr(interaction.client, "controller")  # noqa: B009 - set by RummyBot
        await controller.component(
            interaction, self.table_id, self.turn, self.action, self.arg, list(values)
        )


class TableButton(
    _Routed,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rummy:(?P<table>\d+):(?P<turn>\d+):(?P<action>"
    + "|".join(BUTTON_ACTIONS)
    + ")"
    + _ARG,
):
    def __init__(
        self,
        table_id: int,
        turn: int,
        action: str,
        label: str,
        *,
        arg: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=custom_id(table_id, turn, action, arg),
                disabled=disabled,
                row=row,
            )
        )
        self.table_id, self.turn, self.action, self.arg = table_id, turn, action, arg

    async def callback(self, interaction: discord.Interaction) -> None:
        await self._dispatch(interaction)


class TableSelect(
    _Routed,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"rummy:(?P<table>\d+):(?P<turn>\d+):(?P<action>"
    + "|".join(SELECT_ACTIONS)
    + ")"
    + _ARG,
):
    def __init__(
        self,
        table_id: int,
        turn: int,
        action: str,
        options: list[discord.SelectOption],
        placeholder: str,
        *,
        arg: str = "",
        max_values: int = 1,
        row: int | None = None,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=custom_id(table_id, turn, action, arg),
            options=options,
            placeholder=placeholder,
            min_values=0 if max_values > 1 else 1,
            max_values=max_values,
            row=row,
        )
        super().__init__(select)
        self.table_id, self.turn, self.action, self.arg = table_id, turn, action, arg

    async def callback(self, interaction: discord.Interaction) -> None:
        data = interaction.data or {}
        await self._dispatch(interaction, data.get("values", []))  # type: ignore[arg-type]


DYNAMIC_ITEMS = (TableButton, TableSelect)


def component_view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A view used only to describe components: clicks reach the registered dynamic items,
    so the view is stopped at once and discord.py keeps no per-message copy of it (which would
    otherwise pile up, one per edited table message, for the life of the bot)."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


# -- lobby and table ------------------------------------------------------------------------------


def lobby_view(table: Table, locale: str) -> discord.ui.View:
    tid = table.id
    if table.mode is Mode.TWO_V_TWO:
        joins = [
            TableButton(
                tid, 0, "join_a", t("button.join_a", locale), style=discord.ButtonStyle.primary
            ),
            TableButton(
                tid, 0, "join_b", t("button.join_b", locale), style=discord.ButtonStyle.primary
            ),
        ]
    else:
        joins = [
            TableButton(tid, 0, "join", t("button.join", locale), style=discord.ButtonStyle.primary)
        ]
    return component_view(
        *joins,
        TableButton(tid, 0, "leave", t("button.leave", locale)),
        TableButton(tid, 0, "start", t("button.start", locale), style=discord.ButtonStyle.success),
        TableButton(tid, 0, "settings", t("button.settings", locale), row=1),
        TableButton(tid, 0, "addbot", t("button.add_computer", locale), row=1),
        TableButton(
            tid,
            0,
            "rmbot",
            t("button.remove_computer", locale),
            row=1,
            disabled=not any(s.is_computer for s in table.seats),
        ),
        TableButton(
            tid, 0, "cancel", t("button.cancel", locale), style=discord.ButtonStyle.danger, row=1
        ),
    )


def table_view(table: Table, locale: str) -> discord.ui.View | None:
    """The public table's buttons: draw, take the discard, see my hand; next round."""
    game = table.require_game()
    tid, turn = table.id, game.turn
    if game.phase is Phase.GAME_OVER or table.record.status != "active":
        return None
    if game.phase is Phase.ROUND_OVER:
        return component_view(
            TableButton(
                tid, turn, "next", t("button.next_round", locale), style=discord.ButtonStyle.success
            )
        )
    top = game.discard[-1] if game.discard else None
    drawing = game.phase is Phase.DRAW
    take = t("button.take", locale, card=top.pretty) if top else t("button.take_empty", locale)
    return component_view(
        TableButton(
            tid,
            turn,
            "draw",
            t("button.draw", locale),
            style=discord.ButtonStyle.primary,
            disabled=not drawing,
        ),
        TableButton(tid, turn, "take", take, disabled=not drawing or top is None),
        TableButton(tid, turn, "hand", t("button.hand", locale), style=discord.ButtonStyle.success),
    )


# -- the private hand panel ------------------------------------------------------------------------


def panel_view(
    table: Table,
    seat: int,
    hand: Sequence[Card],
    chosen: Sequence[Face],
    locale: str,
    *,
    add_targets: Sequence[tuple[int, Meld]] = (),
    swap_targets: Sequence[tuple[int, Meld]] = (),
) -> discord.ui.View:
    """The hand panel shown only to its player: pick cards, then lay, add, swap or discard."""
    game = table.require_game()
    tid, turn = table.id, game.turn
    my_turn = game.current == seat and game.phase in (Phase.DRAW, Phase.PLAY)
    playing = my_turn and game.phase is Phase.PLAY
    remaining = list(chosen)
    options = []
    for index, card in enumerate(hand[:25]):
        selected = card.face in remaining
        if selected:
            remaining.remove(card.face)
        options.append(
            discord.SelectOption(
                label=f"{index + 1}. {card.pretty}", value=f"{index}:{card.text}", default=selected
            )
        )
    items: list[discord.ui.Item[Any]] = []
    if options:
        items.append(
            TableSelect(
                tid,
                turn,
                "pick",
                options,
                t("select.cards", locale),
                max_values=len(options),
                row=0,
            )
        )
    sel = encode(chosen)
    if my_turn and game.phase is Phase.DRAW:
        items.append(
            TableButton(
                tid,
                turn,
                "draw",
                t("button.draw", locale),
                style=discord.ButtonStyle.primary,
                row=1,
            )
        )
        if game.discard:
            items.append(
                TableButton(
                    tid, turn, "take", t("button.take", locale, card=game.discard[-1].pretty), row=1
                )
            )
    if playing:
        items.append(
            TableButton(
                tid,
                turn,
                "lay",
                t("button.lay", locale),
                arg=sel,
                style=discord.ButtonStyle.success,
                disabled=not chosen,
                row=1,
            )
        )
        items.append(
            TableButton(
                tid,
                turn,
                "discard",
                t("button.discard", locale),
                arg=sel,
                style=discord.ButtonStyle.danger,
                disabled=len(chosen) != 1,
                row=1,
            )
        )
        if (
            game.taken is not None
            and game.taken in game.hands[seat]
            and game.rules.must_use_discard
        ):
            items.append(TableButton(tid, turn, "undo", t("button.undo_take", locale), row=1))
        if add_targets:
            items.append(
                TableSelect(
                    tid,
                    turn,
                    "addto",
                    _meld_options(add_targets),
                    t("button.add", locale),
                    arg=sel,
                    row=2,
                )
            )
        if swap_targets:
            items.append(
                TableSelect(
                    tid,
                    turn,
                    "swapin",
                    _meld_options(swap_targets),
                    t("button.swap", locale),
                    arg=sel,
                    row=3,
                )
            )
    return component_view(*items)


def _meld_options(targets: Sequence[tuple[int, Meld]]) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(label=f"{n} · {format_cards(m.cards)}"[:100], value=str(n))
        for n, m in targets[:25]
    ]


# -- lobby settings ---------------------------------------------------------------------------------

OPTION_VALUES: dict[str, tuple[str, ...]] = {
    "ace_mode": ("low_high", "low_only", "wrap"),
    "ace_opening_value": ("positional", "always_11", "always_1"),
    "max_jokers_per_meld": ("1", "2", "unlimited_if_naturals_gt_jokers"),
    "r71_joker_in_opening": ("zero_value", "forbidden"),
    "r51_require_natural_run": ("off", "on"),
    "discard_take": ("must_use", "free"),
    "discard_take_failure": ("undo", "penalty"),
    "forbid_take_with_one_card": ("off", "on"),
    "bar_in_1v1": ("on", "off"),
    "joker_discard_allowed": ("on", "off"),
    "joker_final_discard_allowed": ("on", "off"),
    "basic_rounds": ("1", "2", "3", "4", "5", "6", "8", "10"),
    "basic_max_restocks": ("none", "1", "2", "3"),
    "atlas_max_reshuffles": ("1", "0", "2", "3", "unlimited"),
}

_APPLIES = {
    "basic": ("basic_rounds", "basic_max_restocks"),
    "r51": (
        "r51_require_natural_run",
        "discard_take",
        "discard_take_failure",
        "bar_in_1v1",
        "ace_opening_value",
    ),
    "r71": (
        "r71_joker_in_opening",
        "discard_take",
        "discard_take_failure",
        "bar_in_1v1",
        "ace_opening_value",
    ),
}
_ATLAS = (
    "ace_mode",
    "max_jokers_per_meld",
    "forbid_take_with_one_card",
    "joker_discard_allowed",
    "joker_final_discard_allowed",
    "atlas_max_reshuffles",
)


def options_for(variant: Variant) -> tuple[str, ...]:
    """The table options that matter for a variant (RULES.md §8 'applies')."""
    own = _APPLIES.get(variant.value, ())
    return own if variant is Variant.BASIC else (*_ATLAS, *own)


def settings_view(table: Table, locale: str) -> discord.ui.View:
    current = table.options.to_json()
    options = [
        discord.SelectOption(
            label=t(f"option.{key}", locale)[:100], value=key, description=_shown(key, current[key])
        )
        for key in options_for(table.variant)
    ]
    return component_view(TableSelect(table.id, 0, "setopt", options, t("select.option", locale)))


def value_view(table: Table, key: str, locale: str) -> discord.ui.View:
    current = _shown(key, table.options.to_json()[key])
    options = [
        discord.SelectOption(label=v, value=v, default=v == current) for v in OPTION_VALUES[key]
    ]
    return component_view(
        TableSelect(table.id, 0, "setval", options, t("select.option", locale), arg=key)
    )


def _shown(key: str, value: object) -> str:
    """An option's value as its choice reads (``on``/``off``; ``None`` as ``none``/``unlimited``)."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "unlimited" if key == "atlas_max_reshuffles" else "none"
    return str(value)

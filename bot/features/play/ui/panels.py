"""The component layouts the bot draws: the lobby, the public table, the private hand panel and
the lobby's settings menus. Pure functions of a table; clicks are routed by :mod:`bot.features.play.ui.widgets`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import discord

from bot.features.play.actions import Action
from bot.features.play.seating import Mode
from bot.features.play.selection import encode, encode_melds
from bot.features.play.settings import TableSettings, Where, offered, setting
from bot.features.play.tables import Table
from bot.features.play.ui.widgets import TableButton, TableSelect, component_view
from bot.text import t
from bot.text.safe import LABEL_LIMIT, cut
from rummy_engine import Card, End, Face, Meld, Phase, format_cards
from rummy_engine.ai import Strength

PRIMARY = discord.ButtonStyle.primary


def lobby_view(table: Table, locale: str) -> discord.ui.View | None:
    """Join/leave/start and the host's tools (settings, computers, sitting out, cancel);
    nothing once the lobby is closed. Sit out is greyed while the host has no seat: they sit
    down again with the Join buttons."""
    if not table.is_lobby:
        return None
    tid = table.id
    if table.mode is Mode.TWO_V_TWO:
        joins = [
            TableButton(tid, 0, Action.JOIN_A, t("button.join_a", locale), style=PRIMARY),
            TableButton(tid, 0, Action.JOIN_B, t("button.join_b", locale), style=PRIMARY),
        ]
    else:
        joins = [TableButton(tid, 0, Action.JOIN, t("button.join", locale), style=PRIMARY)]
    return component_view(
        *joins,
        TableButton(tid, 0, Action.LEAVE, t("button.leave", locale)),
        TableButton(
            tid, 0, Action.START, t("button.start", locale), style=discord.ButtonStyle.success
        ),
        TableButton(tid, 0, Action.SETTINGS, t("button.settings", locale), row=1),
        TableButton(tid, 0, Action.ADD_COMPUTER, t("button.add_computer", locale), row=1),
        TableButton(
            tid,
            0,
            Action.REMOVE_COMPUTER,
            t("button.remove_computer", locale),
            row=1,
            disabled=not any(s.is_computer for s in table.seats),
        ),
        TableButton(
            tid,
            0,
            Action.SIT_OUT,
            t("button.sit_out", locale),
            row=1,
            disabled=table.seat_of(table.record.host_id) is None,
        ),
        TableButton(
            tid,
            0,
            Action.CANCEL,
            t("button.cancel", locale),
            style=discord.ButtonStyle.danger,
            row=1,
        ),
    )


def table_view(table: Table, locale: str) -> discord.ui.View | None:
    """The public table's buttons: draw, take the discard, see my hand; next round; once the
    game is over, Play again and (once a round was played out) the whole game's Replay, for its
    players (a cancelled table,
    or one computers played alone, shows no live button)."""
    game = table.game
    finished = game is not None and table.record.status == "finished"
    if finished and any(not s.is_computer for s in table.seats):
        success = discord.ButtonStyle.success
        again = TableButton(
            table.id, 0, Action.PLAY_AGAIN, t("again.button", locale), style=success
        )
        if game is None or not game.results:  # no round was played out: nothing to replay
            return component_view(again)
        replay = TableButton(table.id, 0, Action.REPLAY, t("replay.button", locale), arg="0")
        return component_view(again, replay)
    if game is None or game.phase is Phase.GAME_OVER or table.record.status != "active":
        return None
    tid, turn = table.id, game.turn
    if game.phase is Phase.ROUND_OVER:
        return component_view(
            TableButton(
                tid,
                turn,
                Action.NEXT_ROUND,
                t("button.next_round", locale),
                style=discord.ButtonStyle.success,
            )
        )
    top = game.discard[-1] if game.discard else None
    drawing = game.phase is Phase.DRAW
    take = t("button.take", locale, card=top.pretty) if top else t("button.take_empty", locale)
    return component_view(
        TableButton(
            tid, turn, Action.DRAW, t("button.draw", locale), style=PRIMARY, disabled=not drawing
        ),
        TableButton(tid, turn, Action.TAKE, take, disabled=not drawing or top is None),
        TableButton(
            tid, turn, Action.HAND, t("button.hand", locale), style=discord.ButtonStyle.success
        ),
        *absent_buttons(table, locale),
    )


def round_view(table: Table, round_no: int, locale: str, *more: TableButton) -> discord.ui.View:
    """A round summary's buttons: its round's replay (anyone may press it: it shows only what
    the table showed), then ``more`` (the review, answered only to its presser)."""
    return component_view(
        TableButton(table.id, 0, Action.REPLAY, t("replay.button", locale), arg=str(round_no)),
        *more,
    )


def absent_buttons(table: Table, locale: str) -> list[TableButton]:
    """The host's choice about a player who let the timer run out too often (second row)."""
    seat = table.absent_seat()
    if seat is None:
        return []
    tid, arg = table.id, str(seat)
    return [
        TableButton(
            tid, 0, Action.ABSENT_REPLACE, t("button.absent_replace", locale), arg=arg, row=1
        ),
        TableButton(tid, 0, Action.ABSENT_WAIT, t("button.absent_wait", locale), arg=arg, row=1),
        TableButton(
            tid,
            0,
            Action.ABSENT_END,
            t("button.absent_end", locale),
            arg=arg,
            style=discord.ButtonStyle.danger,
            row=1,
        ),
    ]


def panel_view(
    table: Table,
    seat: int,
    hand: Sequence[Card],
    chosen: Sequence[Face],
    locale: str,
    *,
    add_targets: Sequence[tuple[int, Meld]] = (),
    swap_targets: Sequence[tuple[int, Meld]] = (),
    question: TableSelect | Sequence[TableButton] | None = None,
) -> discord.ui.View:
    """The hand panel shown only to its player: pick cards, then lay, add, swap or discard;
    ``question`` is the follow-up select of a click that needs one more answer."""
    game = table.require_game()
    tid, turn = table.id, game.turn
    my_turn = game.current == seat and game.phase in (Phase.DRAW, Phase.PLAY)
    items: list[discord.ui.Item[Any]] = []
    picker = _card_picker(tid, turn, hand, chosen, locale)
    if picker is not None:
        items.append(picker)
    sel = encode(chosen)
    if my_turn and game.phase is Phase.DRAW:
        items.append(
            TableButton(tid, turn, Action.DRAW, t("button.draw", locale), style=PRIMARY, row=1)
        )
        if game.discard:
            take = t("button.take", locale, card=game.discard[-1].pretty)
            items.append(TableButton(tid, turn, Action.TAKE, take, row=1))
    if my_turn and game.phase is Phase.PLAY:
        items += _play_items(table, seat, chosen, sel, locale, add_targets, swap_targets)
    if isinstance(question, TableSelect):
        items.append(question)
    elif question is not None:
        items += question
    return component_view(*items)


def go_out_buttons(table: Table, card: Face, locale: str) -> list[TableButton]:
    """Coached practice's question before a discard that throws away a go-out: discard it
    anyway (the same discard, played this time) or back to the hand panel."""
    game = table.require_game()
    return [
        TableButton(
            table.id,
            game.turn,
            Action.DISCARD,
            t("button.discard_anyway", locale, card=card.pretty),
            arg=encode([card]),
            style=discord.ButtonStyle.danger,
            row=4,
        ),
        TableButton(table.id, game.turn, Action.BACK, t("button.back_to_hand", locale), row=4),
    ]


def arrangement_select(
    table: Table, lays: Sequence[Sequence[Sequence[Face]]], locale: str
) -> TableSelect:
    """The legal arrangements of a selection, written in card notation; the value carries the
    whole lay-down, so the custom_id stays short whatever the selection."""
    game = table.require_game()
    options = [
        discord.SelectOption(
            label=cut(" | ".join(format_faces(m) for m in lay), LABEL_LIMIT),
            value=encode_melds(lay),
        )
        for lay in lays[:25]
    ]
    return TableSelect(
        table.id, game.turn, Action.ARRANGE, options, t("select.arrangement", locale), row=4
    )


def end_select(
    table: Table, meld: int, cards: Sequence[Face], labels: dict[End, str], locale: str
) -> TableSelect:
    """Low or high for a joker added to table meld ``meld``; the custom_id carries the meld
    and the cards (``3_JK``), well within Discord's 100 characters for one lay-off."""
    game = table.require_game()
    options = [
        discord.SelectOption(label=t(f"select.end.{end.value}", locale, card=card), value=end.value)
        for end, card in labels.items()
    ]
    arg = f"{meld}_{encode(cards)}"
    return TableSelect(
        table.id, game.turn, Action.ADD_END, options, t("select.end", locale), arg=arg, row=4
    )


def format_faces(faces: Sequence[Face]) -> str:
    return " ".join(f.pretty for f in faces)


def _card_picker(
    tid: int, turn: int, hand: Sequence[Card], chosen: Sequence[Face], locale: str
) -> TableSelect | None:
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
    if not options:
        return None
    placeholder = t("select.cards", locale)
    return TableSelect(tid, turn, Action.PICK, options, placeholder, max_values=len(options), row=0)


def _play_items(
    table: Table,
    seat: int,
    chosen: Sequence[Face],
    sel: str,
    locale: str,
    add_targets: Sequence[tuple[int, Meld]],
    swap_targets: Sequence[tuple[int, Meld]],
) -> list[discord.ui.Item[Any]]:
    game = table.require_game()
    tid, turn = table.id, game.turn
    items: list[discord.ui.Item[Any]] = [
        TableButton(
            tid,
            turn,
            Action.LAY,
            t("button.lay", locale),
            arg=sel,
            style=discord.ButtonStyle.success,
            disabled=not chosen,
            row=1,
        ),
        TableButton(
            tid,
            turn,
            Action.DISCARD,
            t("button.discard", locale),
            arg=sel,
            style=discord.ButtonStyle.danger,
            disabled=len(chosen) != 1,
            row=1,
        ),
    ]
    if game.taken is not None and game.taken in game.hands[seat] and game.rules.must_use_discard:
        items.append(TableButton(tid, turn, Action.UNDO, t("button.undo_take", locale), row=1))
    if add_targets:
        options = _meld_options(add_targets)
        items.append(
            TableSelect(tid, turn, Action.ADD_TO, options, t("button.add", locale), arg=sel, row=2)
        )
    if swap_targets:
        options = _meld_options(swap_targets)
        items.append(
            TableSelect(
                tid, turn, Action.SWAP_IN, options, t("button.swap", locale), arg=sel, row=3
            )
        )
    return items


def meld_label(number: int, meld: Meld) -> str:
    """How a table meld is named in selects and autocomplete: ``3 · 7♥ 8♥ 9♥``."""
    return cut(f"{number} · {format_cards(meld.cards)}", LABEL_LIMIT)


def _meld_options(targets: Sequence[tuple[int, Meld]]) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=meld_label(n, m), value=str(n)) for n, m in targets[:25]]


# -- lobby settings -----------------------------------------------------------------------------


def _current(table: Table, table_locale: str) -> TableSettings:
    """The table's settings as the lobby shows them (its language as the table speaks)."""
    return replace(table.settings, language=table_locale)


def settings_view(table: Table, locale: str, table_locale: str) -> discord.ui.View:
    """The host's menu of the settings offered in the lobby that matter for this table's
    variant (bot/features/play/settings.py), each with its current value."""
    current = _current(table, table_locale)
    options = [
        discord.SelectOption(
            label=cut(found.label(locale), LABEL_LIMIT),
            value=found.key,
            description=cut(found.value_label(found.read(current), locale), LABEL_LIMIT),
        )
        for found in offered(Where.LOBBY, table.variant)
    ]
    return component_view(
        TableSelect(table.id, 0, Action.SET_OPTION, options, t("select.option", locale))
    )


def strength_view(table: Table, locale: str) -> discord.ui.View:
    """Easy, normal or strong for the computer the host is adding (normal preselected)."""
    options = [
        discord.SelectOption(
            label=t(f"strength.{s.value}", locale),
            value=s.value,
            description=cut(t(f"strength.{s.value}.about", locale), LABEL_LIMIT),
            default=s is Strength.NORMAL,
        )
        for s in Strength
    ]
    return component_view(
        TableSelect(table.id, 0, Action.ADD_COMPUTER_AS, options, t("select.strength", locale))
    )


def value_view(table: Table, key: str, locale: str, table_locale: str) -> discord.ui.View:
    """The values of one setting, the current one selected."""
    found = setting(key)
    current = found.read(_current(table, table_locale))
    options = [
        discord.SelectOption(
            label=cut(found.value_label(v, locale), LABEL_LIMIT), value=v, default=v == current
        )
        for v in found.choices
    ]
    return component_view(
        TableSelect(table.id, 0, Action.SET_VALUE, options, t("select.option", locale), arg=key)
    )

"""Every sentence and picture a player sees of a table, built from plain values.

The presenter reads a :class:`~rummy_engine.PlayerView` (never the raw game) so nothing private
can slip into a public text: the public table text is built from a spectator's view, which has
no hand at all. All words go through :func:`bot.text.t`; card names come from the engine's
notation.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot import render
from bot.features.play import scenes
from bot.features.play.defaults_view import inherited_lines
from bot.features.play.seating import Mode
from bot.features.play.tables import Table
from bot.services import alt_text
from bot.storage import SeatRecord
from bot.text import option_value, t
from bot.text.safe import MESSAGE_LIMIT
from rummy_engine import (
    Card,
    Event,
    Phase,
    PlayerView,
    RoundResult,
    Suit,
    format_cards,
    parse_face,
    player_view,
    shown_value,
    sort_key,
)
from rummy_engine.solver import find_melds

#: What the table message keeps free for the line about the last move (a lay of many melds).
LAST_MOVE_ROOM = 400


@dataclass(frozen=True)
class Names:
    """Display names by seat, and how to mention a seat's player in a message."""

    by_seat: Mapping[int, str]
    users: Mapping[int, int | None]

    def name(self, seat: int) -> str:
        return self.by_seat.get(seat, f"#{seat + 1}")

    def mention(self, seat: int) -> str:
        user = self.users.get(seat)
        return f"<@{user}>" if user else self.name(seat)


def side_name(table: Table, names: Names, side: int, locale: str) -> str:
    """A team ("Team A") in 2v2, else the player's name."""
    if table.mode is Mode.TWO_V_TWO:
        return t("side.partners", locale, first=names.name(side), second=names.name(side + 2))
    return names.name(side)


def variant_title(table: Table, locale: str) -> str:
    players = table.game.rules.players if table.game is not None else None
    return _variant_title(table.record.variant, table.record.mode, players, table.id, locale)


@functools.lru_cache(maxsize=1024)
def _variant_title(variant: str, mode: str, players: int | None, table_id: int, locale: str) -> str:
    """Cached: every message of every move starts with it (three translations each time)."""
    return scenes.title(variant, mode, players, table_id, locale)


# -- lobby ------------------------------------------------------------------------------------


def options_shown(table: Table, locale: str) -> str:
    """The options that differ from the standard rules, each named and valued in ``locale``."""
    return ", ".join(
        t(
            "lobby.option_item",
            locale,
            option=t(f"option.{key}", locale),
            value=option_value(key, shown_value(table.options, key), locale),
        )
        for key in sorted(table.options.changed())
    )


def lobby_text(table: Table, locale: str, *, kept_until: datetime | None = None) -> str:
    """The lobby message: variant, options that differ from the defaults, and the seats; a
    Play again lobby names the last game's players whose seats it keeps (until
    ``kept_until``, the lobby's idle deadline)."""
    lines = [
        f"**{variant_title(table, locale)}**",
        host_line(table, locale),
    ]
    changed = table.options.changed()
    if changed:
        lines.append(t("lobby.options", locale, options=options_shown(table, locale)))
    else:
        lines.append(t("lobby.options_default", locale))
    lines.append(timer_line(table, locale))
    lines += inherited_lines(table, locale)
    if table.wants_thread:
        lines.append(t("threads.lobby_note", locale))
    by_seat = {s.seat: s for s in table.seats}
    if table.mode is Mode.TWO_V_TWO:
        for team, seats in ((0, (0, 2)), (1, (1, 3))):
            people = [
                _seated(by_seat[s], locale) if s in by_seat else t("lobby.empty_seat", locale)
                for s in seats
            ]
            side = t("side.team", locale, team="AB"[team])
            lines.append(t("lobby.team_line", locale, team=side, players=", ".join(people)))
    else:
        people = [_seated(s, locale) for s in sorted(table.seats, key=lambda s: s.seat)]
        lines.append(
            t(
                "lobby.players",
                locale,
                seated=len(people),
                capacity=table.mode.capacity,
                players=", ".join(people) or "—",
            )
        )
    if table.kept_for:
        when = relative_time(kept_until) if kept_until else t("table.soon", locale)
        players = ", ".join(f"<@{user}>" for user in table.kept_for)
        count = len(table.kept_for)
        lines.append(t("again.seats_kept", locale, players=players, when=when, count=count))
    lines.append(t("lobby.how_to_start", locale, minimum=table.mode.minimum))
    return "\n".join(lines)


def host_line(table: Table, locale: str) -> str:
    """Who hosts the table, and whether they play in it (a host may sit out)."""
    host = table.record.host_id
    key = "lobby.host" if table.seat_of(host) is not None else "lobby.host_not_playing"
    return t(key, locale, host=f"<@{host}>")


def _seated(seat: SeatRecord, locale: str) -> str:
    """A seated player as the lobby shows them: a mention, or a computer's name and strength."""
    if seat.user_id is not None:
        return f"<@{seat.user_id}>"
    if seat.strength:
        return f"🤖 {seat.name} ({t(f'strength.{seat.strength}', locale)})"
    return f"🤖 {seat.name}"


# -- the public table -------------------------------------------------------------------------


def public_view(table: Table) -> PlayerView:
    """The spectator's view: what a public message may show (no hand)."""
    return table.view(None)


def _scores_line(table: Table, view: PlayerView, names: Names, locale: str) -> str:
    parts = []
    for side, score in enumerate(view.scores):
        if view.rules.is_atlas:
            parts.append(
                t(
                    "table.score_limit",
                    locale,
                    side=side_name(table, names, side, locale),
                    score=score,
                    limit=view.rules.limit,
                )
            )
        else:
            parts.append(
                t("table.score", locale, side=side_name(table, names, side, locale), score=score)
            )
    return " · ".join(parts)


def timer_line(table: Table, locale: str) -> str:
    """The table's turn timer, as the lobby shows it."""
    if not table.turn_timer:
        return t("timer.off", locale)
    return t("timer.minutes", locale, count=table.turn_timer)


def closed_line(table: Table, locale: str) -> str | None:
    """Why a table closed by itself, if it did."""
    reason = table.record.closed_reason
    return t(f"closed.{reason}", locale) if reason else None


def absent_line(table: Table, names: Names, locale: str, replace_at: datetime | None) -> str:
    """The host's question about a player who timed out too often ("" when none is open)."""
    seat = table.absent_seat()
    if seat is None or table.record.status != "active":
        return ""
    when = relative_time(replace_at) if replace_at else t("table.soon", locale)
    return t(
        "absent.question",
        locale,
        player=names.name(seat),
        host=f"<@{table.record.host_id}>",
        count=table.timeouts(seat),
        when=when,
    )


def table_text(
    table: Table,
    names: Names,
    locale: str,
    *,
    next_round_at: datetime | None = None,
    turn_ends_at: datetime | None = None,
    replace_at: datetime | None = None,
) -> str:
    """The text beside the table image: seats in turn order, piles, the melds in words (for a
    screen reader), scores, whose turn."""
    view = public_view(table)
    rules = view.rules
    header = t("table.header", locale, title=variant_title(table, locale), round=view.round_no)
    if not rules.is_atlas:
        header += " " + t("table.round_of", locale, rounds=rules.options.basic_rounds)
    lines = [f"**{header}**", _scores_line(table, view, names, locale)]
    for seat in range(rules.players):
        marker = "▶" if seat == view.current and view.phase in (Phase.DRAW, Phase.PLAY) else "·"
        team = (
            f" ({t('side.team_short', locale, team='AB'[rules.side_of(seat)])})"
            if rules.teams
            else ""
        )
        status = t("table.opened", locale) if view.opened[seat] and rules.has_opening else ""
        lines.append(
            f"{marker} {names.mention(seat)}{team}: "
            + t("table.cards", locale, count=view.hand_sizes[seat])
            + (f" · {status}" if status else "")
        )
    if view.discard_top is None:
        lines.append(t("table.piles_no_discard", locale, stock=view.stock_size))
    else:
        top = view.discard_top.pretty
        lines.append(
            t("table.piles", locale, stock=view.stock_size, top=top, count=view.discard_size)
        )
    piles = len(lines)
    bar = _bar_line(table, view, names, locale)
    if bar:
        lines.append(bar)
    lines.append(status_line(table, view, names, locale, next_round_at))
    if turn_ends_at is not None and view.phase in (Phase.DRAW, Phase.PLAY):
        lines.append(t("timer.turn_ends", locale, when=relative_time(turn_ends_at)))
    absent = absent_line(table, names, locale, replace_at)
    if absent:
        lines.append(absent)
    closed = closed_line(table, locale)
    if closed:
        lines.append(closed)
    melds = _melds_line(view, names, locale, MESSAGE_LIMIT - LAST_MOVE_ROOM - len("\n".join(lines)))
    if melds:
        lines.insert(piles, melds)
    return "\n".join(lines)


def _melds_line(view: PlayerView, names: Names, locale: str, budget: int) -> str:
    """The numbered melds with their cards and who laid them, in words: a screen reader reads
    the message, not the picture. Within what the message has left (the line about the last
    move comes after it)."""
    seat_names = [names.name(s) for s in range(view.rules.players)]
    return alt_text.melds_line(scenes.table_melds(view, seat_names), locale, budget)


def _bar_line(table: Table, view: PlayerView, names: Names, locale: str) -> str:
    """The +1 bar, while a round is played and nobody on the barred side has opened yet: once
    one has (meeting the bar), their partner is freed and owes it nothing (RULES.md §6.2)."""
    rules = view.rules
    if view.phase not in (Phase.DRAW, Phase.PLAY) or not rules.bar_applies or view.bar is None:
        return ""
    barred = [s for s in range(rules.players) if rules.side_of(s) != table.require_game().bar_side]
    if any(view.opened[s] for s in barred):
        return ""
    side = side_name(table, names, rules.side_of(barred[0]), locale)
    return t("table.bar", locale, side=side, bar=view.bar)


def relative_time(moment: datetime) -> str:
    """Discord's timestamp markup: each reader sees the time in their own zone, counting."""
    return f"<t:{int(moment.timestamp())}:R>"


def status_line(
    table: Table,
    view: PlayerView,
    names: Names,
    locale: str,
    next_round_at: datetime | None = None,
) -> str:
    if table.record.status == "cancelled":
        return t("table.cancelled", locale)
    if view.phase is Phase.GAME_OVER:
        return game_over_text(table, names, locale)
    if view.phase is Phase.ROUND_OVER:
        when = relative_time(next_round_at) if next_round_at else t("table.soon", locale)
        return t("table.round_over", locale, when=when)
    step = (
        t("table.step_draw", locale) if view.phase is Phase.DRAW else t("table.step_play", locale)
    )
    return t("table.turn", locale, player=names.mention(view.current), step=step)


def winners_text(table: Table, names: Names, locale: str) -> str:
    game = table.require_game()
    return ", ".join(side_name(table, names, side, locale) for side in game.winners)


def game_over_text(table: Table, names: Names, locale: str) -> str:
    """Who won the game; a game whose every round was void has no winner, said as such."""
    if not table.require_game().winners:
        return t("table.game_over_nobody", locale)
    return t("table.game_over", locale, winners=winners_text(table, names, locale))


def turn_notice(table: Table, names: Names, locale: str) -> str:
    view = public_view(table)
    return t(
        "turn.notice",
        locale,
        player=names.mention(view.current),
        round=view.round_no,
        turn=view.turn,
    )


def past_notices(table: Table, names: Names, locale: str) -> frozenset[str]:
    """Every turn notice the table can have shown so far (each seat, each round): what a first
    pass after a crash may find in the channel, posted by the crashed process and not recorded."""
    game = table.require_game()
    return frozenset(
        t("turn.notice", locale, player=names.mention(seat), round=number, turn=0)
        for seat in range(game.rules.players)
        for number in range(1, game.round_no + 1)
    )


def table_scene(
    table: Table, names: Names, locale: str, four_colour: bool = False
) -> render.TableScene:
    view = public_view(table)
    seat_names = [names.name(s) for s in range(view.rules.players)]
    sides = [side_name(table, names, s, locale) for s in range(view.rules.sides)]
    title = variant_title(table, locale)
    return scenes.table_scene(view, title, seat_names, sides, locale, four_colour)


# -- private hands ----------------------------------------------------------------------------


def hand_lines(hand: Sequence[Card], locale: str) -> str:
    """The hand as text, grouped by suit with counts, numbered like the image."""
    groups: list[str] = []
    numbered = list(enumerate(sorted(hand, key=sort_key), start=1))
    for suit in (*Suit.__members__.values(), None):
        cards = [(i, c) for i, c in numbered if c.suit == suit]
        if not cards:
            continue
        label = suit.symbol if isinstance(suit, Suit) else t("hand.jokers", locale)
        groups.append(f"{label} ({len(cards)}): " + " ".join(f"`{i}` {c.pretty}" for i, c in cards))
    return "\n".join(groups)


def hand_text(
    table: Table, seat: int, channel_mention: str, locale: str, *, turn: bool = True
) -> str:
    """A hand as text; ``turn`` adds what the player has to do now (the private reply says it,
    the hand DM does not: a DM changes only when its hand does, never for whose turn it is)."""
    view = table.view(seat)
    lines = [
        t(
            "hand.title",
            locale,
            table=table.id,
            channel=channel_mention,
            count=len(view.hand),
            title=variant_title(table, locale),
        )
    ]
    lines.append(hand_lines(view.hand, locale) or t("hand.empty", locale))
    if view.drawn is not None:
        lines.append(t("hand.drawn", locale, card=view.drawn.pretty))
    if turn and view.my_turn:
        lines.append(
            t("hand.your_turn_draw", locale)
            if view.phase is Phase.DRAW
            else t("hand.your_turn_play", locale)
        )
        if view.rules.has_opening and not view.opened[seat]:
            lines.append(_opening_line(view, seat, locale))
    return "\n".join(lines)


def _opening_line(view: PlayerView, seat: int, locale: str) -> str:
    """What the player's first lay-down needs: the threshold, or nothing (Rummy 71: a natural
    run) once their partner has opened (RULES.md: the 2v2 partner effect)."""
    partner = view.rules.partner_of(seat)
    if partner is not None and view.opened[partner]:
        return t(f"hand.freed.{view.rules.variant.value}", locale)
    return t("hand.threshold", locale, points=view.threshold)


def hand_scene(
    table: Table,
    seat: int,
    locale: str,
    *,
    four_colour: bool = False,
    groups: tuple[tuple[Card, ...], ...] | None = None,
) -> render.HandScene:
    title = t("hand.image_title", locale, table=table.id, count=len(table.view(seat).hand))
    return scenes.hand_scene(
        table.view(seat), title, locale, four_colour=four_colour, groups=groups
    )


# -- round end ----------------------------------------------------------------------------------


def round_end_text(table: Table, result: RoundResult, names: Names, locale: str) -> str:
    rules = table.require_game().rules
    winner = None if result.winner is None else names.mention(result.winner)
    head = scenes.round_headline(result, winner, locale)
    lines = [f"**{head}**"]
    for seat, hand in enumerate(result.hands):
        cards = format_cards(hand) if hand else t("round.no_cards", locale)
        lines.append(
            t(
                "round.player_line",
                locale,
                player=names.name(seat),
                cards=cards,
                penalty=result.penalties[seat],
            )
            if rules.is_atlas
            else t("round.basic_line", locale, player=names.name(seat), cards=cards)
        )
    gains = " · ".join(
        f"{side_name(table, names, s, locale)} +{p}" for s, p in enumerate(result.points)
    )
    lines.append(t("round.points", locale, points=gains))
    game = table.require_game()
    lines.append(_scores_line(table, player_view(game, None), names, locale))
    if game.phase is Phase.GAME_OVER:
        lines.append("🏆 " + game_over_text(table, names, locale))
    return "\n".join(lines)


def round_end_scene(
    table: Table, result: RoundResult, names: Names, locale: str
) -> render.RoundEndScene:
    rules = table.require_game().rules
    seat_names = [names.name(s) for s in range(rules.players)]
    sides = [side_name(table, names, s, locale) for s in range(rules.sides)]
    title = variant_title(table, locale)
    return scenes.round_end_scene(rules, result, title, seat_names, sides, locale)


# -- hands by melds ----------------------------------------------------------------------------


def meld_groups(table: Table, seat: int) -> tuple[tuple[Card, ...], ...]:
    """The hand arranged by the melds it holds (the "sort by melds" setting): the solver's
    melds taken greedily, longest first, without sharing a card."""
    game = table.require_game()
    hand = list(game.hands[seat])
    groups: list[tuple[Card, ...]] = []
    for meld in sorted(
        find_melds(hand, game.rules), key=lambda m: (-len(m.cards), [sort_key(c) for c in m.cards])
    ):
        if all(c in hand for c in meld.cards):
            groups.append(meld.cards)
            for card in meld.cards:
                hand.remove(card)
    return tuple(groups)


def describe(events: Sequence[Event], names: Names, locale: str) -> str:
    """What just happened, for everyone: never a card from a hand that stays hidden. Each move
    is told with the name its player had then (a seat a computer took over keeps its past)."""
    lines = []
    timed_out = next((e for e in events if e.kind == "turn_timed_out"), None)
    if timed_out is not None and timed_out.seat is not None:
        player = actor(timed_out, names)
        lines.append(t("move.timed_out", locale, player=player))
        if timed_out.data.get("drew") and not any(e.kind == "take_undone" for e in events):
            lines.append(t("move.drew_stock", locale, player=player))
    for event in events:
        if event.private or event.seat is None:
            continue
        player, data = actor(event, names), event.data
        if event.kind == "discard_taken":
            lines.append(t("move.took_discard", locale, player=player, card=_pretty(data["card"])))
        elif event.kind == "laid":
            lines.extend(_describe_lay(player, data, locale))
        elif event.kind == "joker_swapped":
            lines.append(t("move.swapped", locale, player=player, meld=data["meld"] + 1))
        elif event.kind == "discarded":
            lines.append(t("move.discarded", locale, player=player, card=_pretty(data["card"])))
        elif event.kind == "take_undone":
            lines.append(t("move.undo", locale, player=player, card=_pretty(data["card"])))
        elif event.kind == "resigned":
            lines.append(t("move.resigned", locale, player=player))
    drew = next((e for e in events if e.kind == "drew_stock" and e.seat is not None), None)
    if drew is not None and not lines:
        lines.append(t("move.drew_stock", locale, player=actor(drew, names)))
    return " ".join(lines)


def actor(event: Event, names: Names) -> str:
    """Who made a move: the name stored with it, else (older moves) the seat's name now."""
    stored = event.data.get("name")
    return stored if isinstance(stored, str) and stored else names.name(event.seat or 0)


def _pretty(text: str) -> str:
    return parse_face(text).pretty


def _describe_lay(player: str, data: Mapping[str, Any], locale: str) -> list[str]:
    lines = []
    if data["melds"]:
        melds = " | ".join(" ".join(_pretty(c) for c in meld) for meld in data["melds"])
        lines.append(t("move.laid", locale, player=player, melds=melds))
    if data.get("opened") and data.get("opening_value"):
        lines.append(t("move.opened", locale, player=player, value=data["opening_value"]))
    for index, cards in data["layoffs"]:
        lines.append(
            t(
                "move.laid_off",
                locale,
                player=player,
                cards=" ".join(_pretty(c) for c in cards),
                meld=index + 1,
            )
        )
    return lines


def score_text(table: Table, locale: str) -> str:
    """Scores against the limit and one line per finished round."""
    names = names_for(table)
    view = public_view(table)
    lines = [f"**{variant_title(table, locale)}**", _scores_line(table, view, names, locale)]
    for result in view.results:
        gains = " · ".join(
            f"{side_name(table, names, s, locale)} +{p}" for s, p in enumerate(result.points) if p
        )
        who = names.name(result.winner) if result.winner is not None else "—"
        lines.append(
            t(
                "score.round",
                locale,
                round=result.round_no,
                player=who,
                how=t(f"outcome.{result.outcome.value}", locale),
                points=gains or "0",
            )
        )
    return "\n".join(lines)


def names_for(table: Table) -> Names:
    """Seat names as stored at join time (images and texts need no member look-up)."""
    return Names(
        {s.seat: s.name or f"#{s.seat + 1}" for s in table.seats},
        {s.seat: s.user_id for s in table.seats},
    )


def rules_text(variant: str | None, table: Table | None, locale: str) -> str:
    """A readable summary of a variant, and of this table's options when it plays it."""
    chosen = variant or (table.variant.value if table else "r51")
    lines = [t("rules.title", locale, variant=chosen), t(f"rules.{chosen}", locale)]
    if table is not None and table.variant.value == chosen:
        changed = table.options.changed()
        lines.append(
            t("lobby.options", locale, options=options_shown(table, locale))
            if changed
            else t("rules.options_default", locale)
        )
    return "\n".join(lines)

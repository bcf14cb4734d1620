"""A review of one seat's round: what that player could have done, judged from what they knew.

Why two stages. :func:`round_steps` replays the logged game and keeps, before each action of the
round, only the reviewed seat's :class:`~rummy_engine.view.PlayerView` and the action itself
(actions are public: a stock draw does not name its card). :func:`review_steps` then decides
from those alone, so the review cannot read another hand or the stock order: two games that
differ only in cards the seat never saw give the same review.

The checks are the computer player's own (:class:`~rummy_engine.ai.player.Turn`): a computer
goes out whenever this check finds a way, and opens as soon as it finds an opening, so a
computer's round never shows a missed go-out or a late opening. Every finding is a "you could
have": opening late or keeping a joker on the table can be the right play.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rummy_engine.actions import (
    Action,
    Discard,
    Draw,
    Lay,
    Source,
    StartRound,
    Swap,
    action_from_json,
)
from rummy_engine.ai.player import Strength, Turn, lay_action
from rummy_engine.cards import Card, Face
from rummy_engine.game import Phase
from rummy_engine.melds import Meld
from rummy_engine.replay import replay
from rummy_engine.solver import best_opening, extension_targets, swap_targets
from rummy_engine.view import PlayerView, player_view


@dataclass(frozen=True)
class MissedGoOut:
    """On own turn ``turn`` the hand could go out: lay ``melds`` and ``layoffs`` (table meld
    index, cards), then discard ``discard`` (None: Basic rummy, everything laid)."""

    turn: int
    melds: tuple[Meld, ...]
    layoffs: tuple[tuple[int, tuple[Card, ...]], ...]
    discard: Card | None


@dataclass(frozen=True)
class EarlyOpening:
    """The first own turn an opening of ``value`` (≥ ``threshold``) was in hand and not laid;
    ``opened_turn`` is the turn the seat did open (None: not this round)."""

    turn: int
    melds: tuple[Meld, ...]
    value: int
    threshold: int
    opened_turn: int | None


@dataclass(frozen=True)
class ShortOpening:
    """The seat never could open: its best first lay-down, ``value`` on own turn ``turn``,
    stayed below ``threshold``. A fact about the cards, not about the play."""

    turn: int
    melds: tuple[Meld, ...]
    value: int
    threshold: int


@dataclass(frozen=True)
class FedDiscard:
    """The card discarded on own turn ``turn`` could already go on table meld ``meld``
    (0-based), and seat ``taker`` took it and laid it off there right after."""

    turn: int
    card: Card
    taker: int
    meld: int


@dataclass(frozen=True)
class FreeJoker:
    """On own turn ``turn``, ``card`` from the hand could have freed the joker of table meld
    ``meld`` (0-based)."""

    turn: int
    card: Card
    meld: int


Finding = MissedGoOut | EarlyOpening | ShortOpening | FedDiscard | FreeJoker


@dataclass(frozen=True)
class Review:
    """What :func:`review_round` found for ``seat`` in round ``round_no``, in turn order.
    ``turns`` counts the seat's own turns of the round (0: the round ended before one)."""

    seat: int
    round_no: int
    turns: int
    findings: tuple[Finding, ...]


@dataclass(frozen=True)
class Step:
    """One logged action of the round and the reviewed seat's view just before it."""

    view: PlayerView
    action: Action


def review_round(
    genesis: dict[str, Any],
    actions: Iterable[Action | dict[str, Any]],
    seat: int,
    round_no: int,
) -> Review:
    """The review of ``seat``'s turns in round ``round_no`` of the logged game."""
    steps, end = round_steps(genesis, actions, seat, round_no)
    return review_steps(steps, end, seat, round_no)


def round_steps(
    genesis: dict[str, Any],
    actions: Iterable[Action | dict[str, Any]],
    seat: int,
    round_no: int,
) -> tuple[list[Step], PlayerView]:
    """Replay the log; keep the round's actions with ``seat``'s view before each, and its view
    once the round's last action is played. Raises ValueError for a round the log never
    reaches (or a seat the game does not have)."""
    game = replay(genesis, ())
    if not 0 <= seat < game.rules.players:
        raise ValueError(f"no seat {seat} at this table")
    steps: list[Step] = []
    for item in actions:
        action = _action(item)
        if game.round_no > round_no or (
            game.round_no == round_no and game.phase not in (Phase.DRAW, Phase.PLAY)
        ):
            break
        if game.round_no == round_no and not isinstance(action, StartRound):
            steps.append(Step(player_view(game, seat), action))
        game.apply(action)
    if game.round_no < round_no:
        raise ValueError(f"the log never reaches round {round_no}")
    return steps, player_view(game, seat)


def _action(item: Action | dict[str, Any]) -> Action:
    return action_from_json(item) if isinstance(item, dict) else item


# ---------------------------------------------------------------------------------------------
# Deciding from the views


@dataclass
class _Round:
    """What the walk over the seat's turns carries from one turn to the next."""

    seat: int
    findings: list[Finding]
    opening: EarlyOpening | None = None
    opened_turn: int | None = None
    short: ShortOpening | None = None
    could_open: bool = False
    swaps_told: set[tuple[Face, int]] = field(default_factory=set)


def review_steps(steps: Sequence[Step], end: PlayerView, seat: int, round_no: int) -> Review:
    """The review, from the seat's views and the public actions only."""
    turns = _own_turns(steps, seat)
    state = _Round(seat, [])
    for number, indexes in enumerate(turns, start=1):
        last = indexes[-1]
        after = steps[last + 1].view if last + 1 < len(steps) else end
        _review_turn(state, number, [steps[i] for i in indexes], after)
        _feeding(state, number, steps, indexes)
    findings = state.findings
    if state.opening is not None:
        findings.append(_with_opened(state.opening, state.opened_turn))
    elif state.short is not None and state.opened_turn is None and not state.could_open:
        findings.append(state.short)
    findings.sort(key=_order)
    return Review(seat, round_no, len(turns), tuple(findings))


def review_turn(steps: Sequence[Step], after: PlayerView, seat: int) -> tuple[Finding, ...]:
    """The review's checks on one own turn alone (its steps, ``after``: the seat's view once it
    ended), as coached practice tells them right after the turn: a missed go-out, an opening
    in hand and not laid, a table joker a card could have freed. Findings carry turn 1."""
    state = _Round(seat, [])
    _review_turn(state, 1, steps, after)
    if state.opening is not None:
        state.findings.append(state.opening)
    state.findings.sort(key=_order)
    return tuple(state.findings)


def go_out_now(view: PlayerView) -> MissedGoOut | None:
    """A way for the seat to go out from ``view`` (its play phase), by the review's own check:
    the computer's plan, then the rules' consent on the stand-in."""
    if view.phase is not Phase.PLAY or view.seat is None or view.current != view.seat:
        return None
    return _go_out(1, Turn(view, view.rules, Strength.STRONG, random.Random(0)))


def _order(finding: Finding) -> tuple[int, int]:
    kinds = (MissedGoOut, EarlyOpening, FreeJoker, FedDiscard, ShortOpening)
    return finding.turn, next(i for i, kind in enumerate(kinds) if isinstance(finding, kind))


def _with_opened(opening: EarlyOpening, opened_turn: int | None) -> EarlyOpening:
    return EarlyOpening(
        opening.turn, opening.melds, opening.value, opening.threshold, opened_turn
    )


def _own_turns(steps: Sequence[Step], seat: int) -> list[list[int]]:
    """Indexes of the steps of each of the seat's turns (the seat acting on its own turn)."""
    turns: list[list[int]] = []
    current: int | None = None
    for i, step in enumerate(steps):
        view, action = step.view, step.action
        if view.current != seat or getattr(action, "seat", None) != seat:
            continue
        if view.phase not in (Phase.DRAW, Phase.PLAY):
            continue
        if view.turn != current:
            turns.append([])
            current = view.turn
        turns[-1].append(i)
    return turns


def _went_out(after: PlayerView, seat: int) -> bool:
    ended = after.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
    return ended and bool(after.results) and after.results[-1].winner == seat


def _review_turn(state: _Round, number: int, steps: Sequence[Step], after: PlayerView) -> None:
    seat = state.seat
    if after.opened[seat] and state.opened_turn is None:
        state.opened_turn = number
    if _went_out(after, seat):
        return
    plays = [s.view for s in steps if s.view.phase is Phase.PLAY]
    turns = [Turn(v, v.rules, Strength.STRONG, random.Random(0)) for v in plays]
    missed = next((m for m in (_go_out(number, turn) for turn in turns) if m), None)
    if missed is not None:
        state.findings.append(missed)
    if not after.opened[seat]:
        _openings(state, number, turns)
    if not any(isinstance(s.action, Swap) for s in steps):
        _free_jokers(state, number, turns)


def _go_out(number: int, turn: Turn) -> MissedGoOut | None:
    """The computer's own going-out check (plan, then the rules' consent on the stand-in)."""
    plan = turn.go_out_plan()
    if plan is None:
        return None
    action: Action | None
    if plan.melds or plan.layoffs:
        action = lay_action(turn.seat, plan.melds, plan.layoffs)
    else:
        action = Discard(turn.seat, plan.discard.face) if plan.discard else None
    if not turn.legal(action):
        return None
    return MissedGoOut(number, plan.melds, plan.layoffs, plan.discard)


def _openings(state: _Round, number: int, turns: Sequence[Turn]) -> None:
    """The first turn an opening was in hand (as the computer opens: as soon, as big as it
    can), and else the best first lay-down the hand reached."""
    for turn in turns:
        rules, view = turn.rules, turn.view
        if not rules.has_opening or turn.opened:
            continue
        threshold = 0 if turn.freed else view.threshold
        found = best_opening(turn.hand, rules, view.threshold, taken=turn.taken, freed=turn.freed)
        if found is not None and turn.legal(lay_action(turn.seat, found.melds, ())):
            state.could_open = True
            if state.opening is None:
                state.opening = EarlyOpening(number, found.melds, found.value, threshold, None)
            return
        best = best_opening(turn.hand, rules, 0, taken=turn.taken, freed=turn.freed)
        if best is None or best.value >= threshold:
            continue  # an opening the rules refused here for another reason: no fact to tell
        if state.short is None or best.value > state.short.value:
            state.short = ShortOpening(number, best.melds, best.value, threshold)


def _free_jokers(state: _Round, number: int, turns: Sequence[Turn]) -> None:
    """Each table joker the hand could have freed, told once a round per card and meld."""
    told = state.swaps_told
    for turn in turns:
        if not turn.rules.has_opening or not turn.opened:
            continue
        for card in turn.hand:
            if card.is_joker:
                continue
            for target in swap_targets(card, turn.table):
                key = (card.face, target)
                if key in told or not turn.legal(Swap(turn.seat, target, card.face)):
                    continue
                told.add(key)
                state.findings.append(FreeJoker(number, card, target))


def _feeding(state: _Round, number: int, steps: Sequence[Step], indexes: Sequence[int]) -> None:
    """A discard of this turn that the next player took and laid off on a meld that could
    already take it when it was thrown (both public: the table, and their lay-off)."""
    last = indexes[-1]
    step = steps[last]
    if not isinstance(step.action, Discard):
        return
    view, face = step.view, step.action.card
    card = next((c for c in view.hand if c.face == face), None)
    if card is None:
        return
    open_to = set(extension_targets(card, [t.meld for t in view.table], view.rules))
    if not open_to:
        return
    taker = (state.seat + 1) % view.rules.players
    following = _next_turn(steps, last + 1, taker)
    if not following or following[0].action != Draw(taker, Source.DISCARD):
        return
    for later in following:
        if isinstance(later.action, Lay):
            for meld, faces in later.action.layoffs:
                if face in faces and meld in open_to:
                    state.findings.append(FedDiscard(number, card, taker, meld))
                    return


def _next_turn(steps: Sequence[Step], start: int, taker: int) -> list[Step]:
    """The steps of the turn that begins at ``start``, if it is ``taker``'s."""
    if start >= len(steps) or steps[start].view.current != taker:
        return []
    turn = steps[start].view.turn
    out = []
    for step in steps[start:]:
        if step.view.turn != turn or step.view.current != taker:
            break
        out.append(step)
    return out

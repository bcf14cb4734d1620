"""Coached practice (issue 40, item 2): at an unrated table whose host turned ``coaching`` on,
a person's discard that throws away a go-out is questioned once, and after each of their turns
the answer they get anyway (their hand panel) carries one short note.

Why no analysis of its own: the note is the round review's checks
(:func:`rummy_engine.ai.review.review_turn`) run on just the turn that ended, from the steps the
mover saw (their view before each of their actions, kept here in memory as the moves are
played), then the seeds' table tips on the same turn (:func:`rummy_engine.ai.tips.turn_tip`:
a discard the next player can use, a joker kept while an opponent is close to going out, the
table closed to a partner close to going out). So a note is built from what the player knew
then, and costs no Discord call: it rides on the move's own answer.

What is kept in memory: per table and seat, the steps of the turn in progress and the jokers
already told this round (a joker note is told once a round, as in the review). A restart
forgets them: a turn in progress then gets its note from the steps played since. The turn whose
discard was already questioned is stored too (:func:`asked_key`, written by the table service
before the question is answered), so a restart between the question and "discard anyway" does
not ask it again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.features.play.moves import Ask
from bot.services.refusal import Refusal
from bot.storage.base import SeatRecord
from bot.text import t
from rummy_engine import (
    Action,
    Card,
    Discard,
    Face,
    Game,
    Meld,
    Phase,
    format_cards,
    player_view,
)
from rummy_engine.ai.review import (
    EarlyOpening,
    Finding,
    FreeJoker,
    MissedGoOut,
    Step,
    go_out_now,
    review_turn,
)
from rummy_engine.ai.tips import ClosedForPartner, JokerKept, OpenDiscard, Tip, turn_tip
from rummy_engine.view import PlayerView

#: What a note is made of: one finding of the review, or one of the seeds' table tips.
Note = Finding | Tip
#: ``Ask.kind`` of the go-out question (its option: the card to discard).
GO_OUT = "go_out"


def asked_key(table_id: int) -> str:
    """The stored key of the turn whose discard was questioned at a table."""
    return f"coach_asked:{table_id}"


def unrated(seats: Sequence[SeatRecord]) -> bool:
    """Whether a table with these seats is unrated (as the statistics decide: a computer seat,
    or a seat without a person)."""
    return any(seat.is_computer or seat.user_id is None for seat in seats)


def allowed(on: bool, seats: Sequence[SeatRecord]) -> None:
    """Refuse turning coaching on at a table that would be rated."""
    if on and not unrated(seats):
        raise Refusal("coaching.rated")


def coached(on: bool, seats: Sequence[SeatRecord]) -> bool:
    """Whether the table coaches now: turned on, and still unrated."""
    return on and unrated(seats)


@dataclass
class _Turn:
    round_no: int
    turn: int
    steps: list[Step]


class Coach:
    """The steps of the turns in progress at coached tables, and the go-out question."""

    def __init__(self) -> None:
        self._turns: dict[tuple[int, int], _Turn] = {}
        self._asked: dict[int, tuple[int, int, int]] = {}
        #: Per table and seat, the round and the (card, meld) joker notes told in it: once each.
        self._told: dict[tuple[int, int], tuple[int, set[tuple[Face, int]]]] = {}

    def knows_asked(self, table_id: int) -> bool:
        """Whether this process has the table's questioned turn (else :meth:`recall_asked`)."""
        return table_id in self._asked

    def recall_asked(self, table_id: int, stored: str | None) -> None:
        """The questioned turn as stored (``round:turn:seat``), after a restart."""
        parts = (stored or "").split(":")
        numbers = tuple(int(p) for p in parts if p.isdigit())
        self._asked[table_id] = numbers if len(numbers) == 3 else (0, 0, -1)

    def question(self, table_id: int, view: PlayerView, action: Action) -> Ask | None:
        """The go-out question, once a turn, before a discard that throws away a go-out, from
        the mover's ``view`` (the caller stores :meth:`asked` and raises it: nothing is played
        then)."""
        if not isinstance(action, Discard) or len(view.hand) <= 1 or view.seat is None:
            return None
        asked = (view.round_no, view.turn, view.seat)
        if self._asked.get(table_id) == asked or go_out_now(view) is None:
            return None
        self._asked[table_id] = asked
        return Ask(GO_OUT, (action.card,))

    def asked(self, table_id: int) -> str:
        """The table's questioned turn, as it is stored."""
        return ":".join(str(n) for n in self._asked[table_id])

    def after(
        self, table_id: int, seat: int, before: PlayerView, action: Action, game: Game
    ) -> Note | None:
        """Keep the step just played; when it ended the turn, the turn's note (None: nothing
        worth telling)."""
        key = (table_id, seat)
        current = self._turns.get(key)
        if current is None or (current.round_no, current.turn) != (before.round_no, before.turn):
            current = self._turns[key] = _Turn(before.round_no, before.turn, [])
        current.steps.append(Step(before, action))
        ended = (game.round_no, game.turn) != (before.round_no, before.turn) or game.phase not in (
            Phase.DRAW,
            Phase.PLAY,
        )
        if not ended:
            return None
        del self._turns[key]
        told = self._told.get(key)
        if told is None or told[0] != before.round_no:
            told = self._told[key] = (before.round_no, set())
        return turn_note(current.steps, player_view(game, seat), seat, told[1])


def turn_note(
    steps: Sequence[Step],
    after: PlayerView,
    seat: int,
    told: set[tuple[Face, int]] | None = None,
) -> Note | None:
    """The one note of a turn, by priority: a missed go-out, a missed opening, a joker that
    could have been freed (the review's order; ``told``: the jokers already told this round,
    not told again), then the table tips (:func:`~rummy_engine.ai.tips.turn_tip`)."""
    if not steps:
        return None
    told = set() if told is None else told
    for finding in review_turn(steps, after, seat):
        if isinstance(finding, FreeJoker):
            if (finding.card.face, finding.meld) in told:
                continue
            told.add((finding.card.face, finding.meld))
        if isinstance(finding, MissedGoOut | EarlyOpening | FreeJoker):
            return finding
    return turn_tip(steps, after, seat)


def note_text(note: Note, names: Mapping[int, str], locale: str) -> str:
    """The note as its player reads it; table melds numbered from 1, as the table shows them."""
    match note:
        case MissedGoOut():
            lay = _lay_text(note.melds, note.layoffs, locale)
            if note.discard is None:
                return t("coach.go_out_lay", locale, lay=lay)
            if not lay:
                return t("coach.go_out_discard", locale, card=note.discard.pretty)
            return t("coach.go_out", locale, lay=lay, card=note.discard.pretty)
        case EarlyOpening():
            melds = " | ".join(format_cards(m.cards) for m in note.melds)
            if note.threshold == 0:
                return t("coach.open_free", locale, melds=melds)
            return t(
                "coach.open", locale, melds=melds, value=note.value, threshold=note.threshold
            )
        case FreeJoker():
            return t("coach.joker", locale, card=note.card.pretty, meld=note.meld + 1)
        case OpenDiscard():
            return t(
                "coach.open_discard",
                locale,
                player=_name(names, note.taker),
                card=note.card.pretty,
                meld=note.meld + 1,
            )
        case JokerKept():
            return t(
                "coach.joker_kept",
                locale,
                player=_name(names, note.opponent),
                count=note.cards,
                card=note.card.pretty,
                meld=note.meld + 1,
            )
        case ClosedForPartner():
            player = _name(names, note.partner)
            return t("coach.closed", locale, player=player, count=note.cards, meld=note.meld + 1)
    raise TypeError(f"not a note: {note!r}")


def _name(names: Mapping[int, str], seat: int) -> str:
    return names.get(seat, f"#{seat + 1}")


def _lay_text(
    melds: Sequence[Meld], layoffs: Sequence[tuple[int, tuple[Card, ...]]], locale: str
) -> str:
    parts = [" | ".join(format_cards(m.cards) for m in melds)] if melds else []
    parts += [
        t("coach.add_to", locale, cards=format_cards(cards), meld=meld + 1)
        for meld, cards in layoffs
    ]
    return " | ".join(parts)

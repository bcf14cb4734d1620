"""A :class:`Position`: any moment of a round in play, written as players write cards, checked,
and turned into a :class:`~rummy_engine.game.Game` that plays on.

Why: a hint tool, a score calculator, a puzzle, a bug report or a test needs "this hand, that
table, seat 2 to play" without dealing from a seed and replaying moves. Everything is given in
the card notation (``7h 8h 9h``); what the engine derives (meld kinds, what each joker stands
for, the Ace's place) is derived again, so a position cannot carry a contradiction in them. The
cards named, plus the stock, must be the variant's whole deck, each card exactly once.

Cards are named by face, so the two copies of ``7♥`` are not told apart: they are assigned in
reading order (hands by seat, table melds, discard pile, stock). That changes nothing the rules
can see. The JSON form (:meth:`Position.to_json`) is documented in ``docs/engine-snapshot.md``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rummy_engine.cards import Card, Face, format_cards, make_deck, parse_face, parse_faces
from rummy_engine.conservation import check_conservation
from rummy_engine.errors import InvalidMeld, InvalidPosition
from rummy_engine.game import Game, Phase, TableMeld
from rummy_engine.melds import Meld, make_meld
from rummy_engine.rules import Rules, Variant

POSITION_SCHEMA = 1
"""Version of :meth:`Position.to_json`'s format; bumped when a reader of the old one would misread."""


@dataclass(frozen=True)
class Position:
    """A moment of a round in play (phase ``draw`` or ``play``), in notation.

    ``hands[s]`` is seat ``s``'s hand; ``table`` lists the melds in table order, each as its
    cards in the order they lie (which fixes each joker) and its owner's seat; ``discard`` is
    the discard pile, bottom first (the last card is the top); ``stock`` is the stock as cards
    from the top down, or its size, or None for "every card not named elsewhere" (a count or
    None shuffles the unnamed cards with ``seed``). ``opened`` and ``laid_any`` are the seats
    with RULES.md §6.1's flags (``laid_any`` is implied for opened seats and meld owners;
    ``freed`` follows from the partner's ``opened``); ``bar``/``bar_side`` the §6.2 bar and
    the side that set it; ``taken``/``drawn`` the card taken from the discard pile / drawn this
    turn, in the current hand or laid this turn (``taken_laid``/``drawn_laid`` say it was laid,
    which matters when its twin from the other deck is in the hand); ``laid_at_turn_start`` defaults to the current
    seat's ``laid_any`` (set it to False when the seat laid for the first time this turn);
    ``scores`` are per side. ``dealer`` defaults to the current seat.
    """

    rules: Rules
    hands: tuple[str, ...]
    table: tuple[tuple[str, int], ...] = ()
    discard: str = ""
    stock: str | int | None = None
    current: int = 0
    phase: Phase = Phase.DRAW
    dealer: int | None = None
    opened: tuple[int, ...] = ()
    laid_any: tuple[int, ...] = ()
    laid_at_turn_start: bool | None = None
    taken: str | None = None
    drawn: str | None = None
    taken_laid: bool = False
    drawn_laid: bool = False
    bar: int | None = None
    bar_side: int | None = None
    scores: tuple[int, ...] = ()
    round_no: int = 1
    turn: int = 1
    reshuffles: int = 0
    seed: str = "position"
    #: This round's public pile history, (seat, took it, card) in order; computer players read it.
    pile_moves: tuple[tuple[int, bool, str], ...] = ()
    #: Turns played this round (bounds the round: RULES option ``max_turns_per_round``).
    round_turns: int = 0

    # -- building a game ---------------------------------------------------------------------

    def to_game(self) -> Game:
        """Check the position and build the game it describes, ready for the next action.

        Raises :class:`~rummy_engine.errors.InvalidPosition` naming what is wrong: a card
        missing, in two places or not of this deck; a hand whose size no game can reach; a
        table meld that is no meld as written (the reason included); a flag, bar, score or
        turn card that contradicts the rest.
        """
        rules = self.rules
        self._check_seats()
        hands, table, discard, stock = self._cards()
        laid = set(self.laid_any) | set(self.opened) | {owner for _, owner in self.table}
        melds = self._melds(table)
        self._check_flags(laid)
        self._check_hand_sizes(hands, laid)
        if self.phase is Phase.DRAW and not stock and (rules.is_atlas or not discard):
            raise InvalidPosition("position.empty_stock", seat=self.current)
        game = Game.__new__(Game)
        game.rules = rules
        game.seed = self.seed
        game.first_dealer = self._dealer
        game.first_deal = None
        game.origin = self.to_json()
        game.phase = self.phase
        game.round_no = self.round_no
        game.dealer = self._dealer
        game.current = self.current
        game.turn = self.turn
        game.hands = hands
        game.stock = stock[::-1]  # the game pops its stock from the end
        game.discard = discard
        game.table = [TableMeld(m, owner) for m, (_, owner) in zip(melds, self.table, strict=True)]
        game.opened = [s in self.opened for s in range(rules.players)]
        game.laid_any = [s in laid for s in range(rules.players)]
        game.laid_at_turn_start = (
            game.laid_any[self.current]
            if self.laid_at_turn_start is None
            else self.laid_at_turn_start
        )
        game.taken = self._turn_card("taken", self.taken, self.taken_laid, hands, melds)
        game.drawn = (
            self._turn_card("drawn", self.drawn, self.drawn_laid, hands, melds) or game.taken
        )
        game.bar, game.bar_side = self.bar, self.bar_side
        game.bar_from = None if self.bar is None else self.bar - 1
        game.reshuffles = self.reshuffles
        game.scores = list(self.scores) if self.scores else [0] * rules.sides
        game.results = []
        game.winners = []
        game.pile_moves = [(seat, took, _card(text)) for seat, took, text in self.pile_moves]
        game.round_turns = self.round_turns
        return game

    @property
    def _dealer(self) -> int:
        return self.current if self.dealer is None else self.dealer

    def _check_seats(self) -> None:
        rules = self.rules
        if len(self.hands) != rules.players:
            raise InvalidPosition(
                "position.hand_count",
                variant=rules.variant.value,
                players=rules.players,
                count=len(self.hands),
            )
        named = [("The current seat", self.current), ("The dealer", self._dealer)]
        named += [(f"The owner of table meld {i + 1}", o) for i, (_, o) in enumerate(self.table)]
        named += [("An opened seat", s) for s in self.opened]
        named += [("A seat that laid cards", s) for s in self.laid_any]
        for what, seat in named:
            if not 0 <= seat < rules.players:
                raise InvalidPosition(
                    "position.no_such_seat", what=what, seat=seat, last=rules.players - 1
                )
        if self.phase not in (Phase.DRAW, Phase.PLAY):
            raise InvalidPosition("position.phase", phase=self.phase.value)

    def _cards(self) -> tuple[list[list[Card]], list[list[Card]], list[Card], list[Card]]:
        """Physical cards for every zone (copies in reading order) after the deck check."""
        rules = self.rules
        deck = make_deck(rules.spec.packs, rules.spec.jokers)
        pool: dict[Face, list[Card]] = {}
        for card in deck:
            pool.setdefault(card.face, []).append(card)
        zones: list[tuple[str, list[Face]]] = [
            (f"seat {s}'s hand", _faces(text)) for s, text in enumerate(self.hands)
        ]
        zones += [(f"table meld {i + 1}", _faces(text)) for i, (text, _) in enumerate(self.table)]
        zones.append(("the discard pile", _faces(self.discard)))
        if isinstance(self.stock, str):
            zones.append(("the stock", _faces(self.stock)))
        _check_copies(zones, pool, rules)
        cards = [[pool[f].pop(0) for f in faces] for _, faces in zones]
        rest = [c for copies in pool.values() for c in copies]
        if self.stock is None or isinstance(self.stock, int):
            if isinstance(self.stock, int) and self.stock != len(rest):
                raise InvalidPosition("position.stock_count", given=self.stock, rest=len(rest))
            random.Random(f"{self.seed}:position:stock").shuffle(rest)
            zones.append(("the stock", []))
            cards.append(rest)
        check_conservation([(z[0], c) for z, c in zip(zones, cards, strict=True)], rules)
        players, melds = rules.players, len(self.table)
        return cards[:players], cards[players : players + melds], cards[-2], cards[-1]

    def _melds(self, table: list[list[Card]]) -> list[Meld]:
        going_out = self.phase is Phase.PLAY and all(o == self.current for _, o in self.table)
        if self.table and self.rules.variant is Variant.SIMPLE and not going_out:
            raise InvalidPosition("position.table_in_simple")
        melds = []
        for i, cards in enumerate(table):
            try:
                melds.append(make_meld(cards, self.rules))
            except InvalidMeld as refusal:
                raise InvalidPosition(
                    "position.table_melds",
                    meld=i + 1,
                    cards=format_cards(cards),
                    reason=str(refusal),
                ) from refusal
        return melds

    def _check_flags(self, laid: set[int]) -> None:
        rules = self.rules
        variant = rules.variant.value
        if self.opened and not rules.has_opening:
            raise InvalidPosition("position.no_opening", variant=variant)
        if rules.has_opening:
            for i, (_, owner) in enumerate(self.table):
                if owner not in self.opened:
                    raise InvalidPosition(
                        "position.owner_not_opened", meld=i + 1, seat=owner, variant=variant
                    )
        if self.laid_at_turn_start and self.current not in laid:
            raise InvalidPosition("position.laid_at_start_unlaid", seat=self.current)
        if self.phase is Phase.DRAW:
            for what, card in (("taken", self.taken), ("drawn", self.drawn)):
                if card is not None:
                    raise InvalidPosition("position.turn_card_in_draw", what=what)
            start = self.laid_at_turn_start
            if start is not None and start != (self.current in laid):
                raise InvalidPosition(
                    "position.laid_before_draw", seat=self.current, laid=self.current in laid
                )
        self._check_bar()
        self._check_scores()

    def _check_bar(self) -> None:
        rules = self.rules
        if self.bar is None and self.bar_side is None:
            return
        if not rules.bar_applies:
            raise InvalidPosition("position.bar_not_here", variant=rules.variant.value)
        if self.bar is None or self.bar_side not in (0, 1):
            raise InvalidPosition("position.bar_half")
        if self.bar <= rules.opening_threshold:
            raise InvalidPosition(
                "position.bar_low", bar=self.bar, threshold=rules.opening_threshold
            )
        if not any(rules.side_of(s) == self.bar_side for s in self.opened):
            raise InvalidPosition("position.bar_unopened", side=self.bar_side)

    def _check_scores(self) -> None:
        rules = self.rules
        if self.scores and len(self.scores) != rules.sides:
            raise InvalidPosition("position.score_count", sides=rules.sides, count=len(self.scores))
        if any(s < 0 for s in self.scores):
            raise InvalidPosition("position.score_negative")
        if rules.is_atlas and any(s >= rules.limit for s in self.scores):
            raise InvalidPosition("position.score_over_limit", limit=rules.limit)
        last = rules.options.basic_rounds if not rules.is_atlas else None
        if self.round_no < 1 or (last is not None and self.round_no > last) or self.turn < 1:
            raise InvalidPosition(
                "position.round_or_turn", round_no=self.round_no, turn=self.turn, last=last
            )

    def _check_hand_sizes(self, hands: list[list[Card]], laid: set[int]) -> None:
        for seat, hand in enumerate(hands):
            full = self.rules.hand_size + (
                1 if seat == self.current and self.phase is Phase.PLAY else 0
            )
            if seat not in laid and len(hand) != full:
                raise InvalidPosition(
                    "position.hand_size_unlaid", seat=seat, expected=full, count=len(hand)
                )
            if seat in laid and not 1 <= len(hand) < full:
                raise InvalidPosition(
                    "position.hand_size_laid", seat=seat, count=len(hand), most=full - 1
                )

    def _turn_card(
        self,
        what: str,
        text: str | None,
        laid: bool,
        hands: list[list[Card]],
        melds: Sequence[Meld],
    ) -> Card | None:
        """The physical card named ``taken`` / ``drawn``: in the current hand, else laid (laid
        first when ``laid``: a twin in the hand is then another card)."""
        if text is None:
            return None
        face = parse_face(text)
        in_hand, on_table = hands[self.current], [c for m in melds for c in m.cards]
        places = [*on_table, *in_hand] if laid else [*in_hand, *on_table]
        card = next((c for c in places if c.face == face), None)
        if card is None:
            raise InvalidPosition(
                "position.card_not_there", what=what, card=face.pretty, seat=self.current
            )
        return card

    # -- reading a game --------------------------------------------------------------------

    @classmethod
    def of(cls, game: Game) -> Position:
        """The position ``game`` is in (a round in play), stock listed card by card.

        ``Position.of(game).to_game()`` plays on exactly like ``game`` (copies of a face
        aside); raises :class:`ValueError` when the round is over (no position to describe).
        """
        if game.phase not in (Phase.DRAW, Phase.PLAY):
            raise ValueError(f"the game is in phase {game.phase.value!r}, not a round in play")
        rules = game.rules
        return cls(
            rules=rules,
            hands=tuple(_text(h) for h in game.hands),
            table=tuple((_text(t.meld.cards), t.owner) for t in game.table),
            discard=_text(game.discard),
            stock=_text(game.stock[::-1]),
            current=game.current,
            phase=game.phase,
            dealer=game.dealer,
            opened=tuple(s for s in range(rules.players) if game.opened[s]),
            laid_any=tuple(s for s in range(rules.players) if game.laid_any[s]),
            laid_at_turn_start=game.laid_at_turn_start,
            taken=game.taken.text if game.taken else None,
            drawn=game.drawn.text if game.drawn and game.drawn != game.taken else None,
            taken_laid=game.taken is not None and game.taken not in game.hands[game.current],
            drawn_laid=game.drawn is not None
            and game.drawn != game.taken
            and game.drawn not in game.hands[game.current],
            bar=game.bar,
            bar_side=game.bar_side,
            scores=tuple(game.scores),
            round_no=game.round_no,
            turn=game.turn,
            reshuffles=game.reshuffles,
            seed=game.seed,
            pile_moves=tuple((seat, took, card.text) for seat, took, card in game.pile_moves),
            round_turns=game.round_turns,
        )

    # -- JSON --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The position as JSON-ready data (``docs/engine-snapshot.md``, schema 1)."""
        return {
            "schema": POSITION_SCHEMA,
            "rules": self.rules.to_json(),
            "hands": list(self.hands),
            "table": [{"cards": text, "owner": owner} for text, owner in self.table],
            "discard": self.discard,
            "stock": self.stock,
            "current": self.current,
            "phase": self.phase.value,
            "dealer": self.dealer,
            "opened": list(self.opened),
            "laid_any": list(self.laid_any),
            "laid_at_turn_start": self.laid_at_turn_start,
            "taken": self.taken,
            "drawn": self.drawn,
            "taken_laid": self.taken_laid,
            "drawn_laid": self.drawn_laid,
            "bar": self.bar,
            "bar_side": self.bar_side,
            "scores": list(self.scores),
            "round_no": self.round_no,
            "turn": self.turn,
            "reshuffles": self.reshuffles,
            "seed": self.seed,
            "pile_moves": [[seat, took, text] for seat, took, text in self.pile_moves],
            "round_turns": self.round_turns,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Position:
        """Read :meth:`to_json`'s form; only ``rules`` and ``hands`` are required.

        Raises :class:`InvalidPosition` for another schema; the position itself is checked by
        :meth:`to_game`.
        """
        schema = data.get("schema", POSITION_SCHEMA)
        if schema != POSITION_SCHEMA:
            raise InvalidPosition("position.schema", found=schema, known=POSITION_SCHEMA)
        return cls(
            rules=Rules.from_json(data["rules"]),
            hands=tuple(data["hands"]),
            table=tuple((t["cards"], int(t["owner"])) for t in data.get("table", ())),
            discard=data.get("discard", ""),
            stock=data.get("stock"),
            current=data.get("current", 0),
            phase=Phase(data.get("phase", Phase.DRAW.value)),
            dealer=data.get("dealer"),
            opened=tuple(data.get("opened", ())),
            laid_any=tuple(data.get("laid_any", ())),
            laid_at_turn_start=data.get("laid_at_turn_start"),
            taken=data.get("taken"),
            drawn=data.get("drawn"),
            taken_laid=bool(data.get("taken_laid", False)),
            drawn_laid=bool(data.get("drawn_laid", False)),
            bar=data.get("bar"),
            bar_side=data.get("bar_side"),
            scores=tuple(data.get("scores", ())),
            round_no=data.get("round_no", 1),
            turn=data.get("turn", 1),
            reshuffles=data.get("reshuffles", 0),
            seed=data.get("seed", "position"),
            pile_moves=tuple((int(s), bool(t), str(c)) for s, t, c in data.get("pile_moves", ())),
            round_turns=data.get("round_turns", 0),
        )


def _card(text: str) -> Card:
    """A card named in the pile history (which copy it was does not matter there)."""
    face = parse_face(text)
    return Card(face.rank, face.suit, 0)


def _faces(text: str) -> list[Face]:
    return parse_faces(text) if text.strip() else []


def _text(cards: Sequence[Card]) -> str:
    return " ".join(c.text for c in cards)


def _check_copies(
    zones: Sequence[tuple[str, Sequence[Face]]], pool: dict[Face, list[Card]], rules: Rules
) -> None:
    """A face named more often than the deck holds it (or not in this deck at all)."""
    counts = Counter(f for _, faces in zones for f in faces)
    for face, count in counts.items():
        copies = len(pool.get(face, []))
        if count > copies:
            places = [name for name, faces in zones for f in faces if f == face]
            if not copies:
                raise InvalidPosition(
                    "position.foreign_card",
                    card=face.pretty,
                    place=places[0],
                    variant=rules.variant.value,
                    packs=rules.spec.packs,
                    jokers=rules.spec.jokers,
                )
            raise InvalidPosition(
                "position.too_many_copies",
                card=face.pretty,
                count=count,
                places=", ".join(places),
                copies=copies,
            )

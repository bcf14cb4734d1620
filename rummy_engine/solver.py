"""Search a hand for melds, the best opening and a way to go out (hints, bot players, tests).

Everything here only *proposes*: each answer is made of real :class:`Card` objects from the hand and
is built with :func:`make_meld`, so the caller can replay it through the same checks the state
machine uses (``make_meld`` / ``extend_meld`` / ``check_first_laydown`` / ``check_go_out_at_once``).

How the search works, and why it is fast enough in pure Python:

* The hand is reduced to *items*: one per distinct face (the two copies of ``7♥`` are one item held
  twice), plus one separate item for the discard taken this turn, because the rules care about
  that physical card (it must be laid; R71's required run must not contain it).
* Candidate melds are enumerated once by face (every run window and set, every joker placement),
  then turned into bitmasks over items. A multiset of remaining items is two ints: ``ones`` (items
  held at least once) and ``twos`` (items held twice), so removing a meld is three bit operations
  and a search state is a small hashable tuple.
* Both searches always decide the *lowest* remaining item first (cover it with a meld whose lowest
  item it is, or leave it in hand), which enumerates every disjoint choice exactly once, and they
  memoise on the remaining multiset. The opening search is a branch-and-bound on top of that:
  the value of what is still in hand bounds what can still be gained (jokers counted at the best
  place they can still take, :func:`_joker_bound`), and a state that could not beat a target is
  remembered with that upper bound. Its options are tried least-loss-against-the-bound first, so
  a best opening is found early and, when it reaches the bound, at once; the first option whose
  loss cannot reach ends the row. Items that no option still to come can take are dropped from
  the state (they stay in hand), so states that differ only by them are one. The bound only
  prunes: the answer, ties included, is the first best option in that order either way.
* Options that can never be part of the answer are not generated: a run whose joker stands in
  for a held card that no other meld (or lay-off) could take (:func:`_stand_ins`), and a lay-off
  of natural cards that make runs of their own. Going out gives up before searching when two
  cards fit no option, or when the cards that only an option with jokers can place outnumber
  what the jokers can carry (four per joker at most, :func:`_hopeless`); most hands are refused
  so by bit tests per card before any option is built, the rest by the same counts made exactly
  on the options. It fails a cover as soon as a card that few options place has none left.
* The inner loops use ints (face codes, item bits, position bits of a suit) and tuples; faces,
  cards and melds are only built for the answer. ``benchmarks/bench_solver.py`` times all this.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Collection, Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from rummy_engine.cards import ACE, Card, Face, Suit
from rummy_engine.melds import (
    MAX_RUN,
    Meld,
    MeldKind,
    can_extend,
    make_meld,
    swap_target,
)
from rummy_engine.rules import (
    AceMode,
    AceOpeningValue,
    JokerLimit,
    R71JokerInOpening,
    Rules,
    Variant,
)
from rummy_engine.values import basic_value, penalty_value

__all__ = [
    "GoOutPlan",
    "Opening",
    "best_opening",
    "extension_targets",
    "find_melds",
    "going_out",
    "layoff_targets",
    "swap_targets",
]

HIGH_ACE = 14
_NEG = -(10**9)
# Up to this many options the opening search is small and the plain joker bound is cheaper than
# the finer one (random 16-card hands have 15 options typically; dense bands 30 to 300).
_FEW_OPTIONS = 24

# Flags a set of melds may earn; the searches carry them as a bitmask.
_NAT_RUN = 1  # a natural run that does not hold the taken card
_NAT_SET = 2  # a natural set
_TAKEN = 4  # the taken card is laid
_LEFT = 8  # at least one card stays in hand
_RUN = 16  # any run (Simple)
_SET = 32  # any set (Simple)
_MELD = 64  # at least one new meld


@dataclass(frozen=True)
class Opening:
    """A first lay-down: the melds to lay together and their opening value (RULES.md §1.4b)."""

    melds: tuple[Meld, ...]
    value: int


@dataclass(frozen=True)
class GoOutPlan:
    """One way to go out this turn.

    ``melds`` are new melds from the hand, ``layoffs`` pairs a table meld index with the cards to
    add to it in one :func:`~rummy_engine.melds.extend_meld` call, and ``discard`` is the last card
    (None only in Basic rummy, where the hand may be emptied by laying).
    """

    melds: tuple[Meld, ...]
    layoffs: tuple[tuple[int, tuple[Card, ...]], ...]
    discard: Card | None


# ---------------------------------------------------------------------------------------------
# Meld shapes by face


class _Shape(NamedTuple):
    """A meld described by faces: ``slots`` in submission order, None where a joker stands."""

    kind: MeldKind
    slots: tuple[Face | None, ...]
    value: int
    naturals: tuple[Face, ...]
    codes: tuple[int, ...]  # the naturals as small ints (cheap to hash, unlike Face)
    jokers: int


def _shape(kind: MeldKind, slots: tuple[Face | None, ...], value: int) -> _Shape:
    naturals = tuple(f for f in slots if f is not None)
    codes = tuple(_code(f) for f in naturals)
    return _Shape(kind, slots, value, naturals, codes, len(slots) - len(naturals))


def _code(face: Face) -> int:
    return _SUIT_INDEX[face.suit] * 16 + face.rank


def _max_jokers(rules: Rules) -> int:
    """Most jokers one meld may hold; the naturals rules are checked by :func:`_jokers_ok`."""
    if not rules.is_atlas:
        return 0
    limit = rules.options.max_jokers_per_meld
    if limit is JokerLimit.ONE:
        return 1
    if limit is JokerLimit.TWO:
        return 2
    return MAX_RUN


def _jokers_ok(naturals: int, jokers: int, rules: Rules) -> bool:
    """The same test as ``melds._check_joker_limit``, as a predicate."""
    if naturals < 2 or jokers > _max_jokers(rules):
        return False
    return not (
        rules.options.max_jokers_per_meld is JokerLimit.UNLIMITED_IF_NATURALS_GT_JOKERS
        and jokers
        and jokers >= naturals
    )


@functools.cache
def _jokers_table(limit: JokerLimit, max_j: int) -> tuple[bool, ...]:
    """:func:`_jokers_ok` for every count of naturals (0 .. MAX_RUN) and of jokers (0 .. max_j,
    within the rules' maximum), entry ``naturals * (max_j + 1) + jokers`` (cached)."""
    return tuple(
        n >= 2 and not (limit is JokerLimit.UNLIMITED_IF_NATURALS_GT_JOKERS and j and j >= n)
        for n in range(MAX_RUN + 1)
        for j in range(max_j + 1)
    )


def _card_value(rank: int, high: bool, mode: AceOpeningValue) -> int:
    """Opening value of one card (values.py's table), so shapes can be scored without a Meld."""
    if rank != ACE:
        return min(rank, 10)
    if mode is AceOpeningValue.ALWAYS_11:
        return 11
    if mode is AceOpeningValue.ALWAYS_1:
        return 1
    return 11 if high else 1


def _rank_of(position: int) -> int:
    return (position - 1) % 13 + 1


@functools.cache
def _windows(mode: AceMode) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """Every position span a run may occupy: each low end with its high ends, shortest first;
    position 14 is a high Ace."""
    if mode is AceMode.WRAP:
        return tuple((low, tuple(range(low + 2, low + MAX_RUN))) for low in range(1, 14))
    top = HIGH_ACE if mode is AceMode.LOW_HIGH else 13
    return tuple(
        (low, tuple(range(low + 2, min(low + MAX_RUN - 1, top) + 1))) for low in range(1, top - 1)
    )


_Window = tuple[tuple[Face, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def _windows_from(
    suit: Suit, low: int, highs: Sequence[int], zero_jokers: bool, ace: AceOpeningValue
) -> tuple[tuple[int, _Window], ...]:
    """Each run from ``low`` to one of ``highs`` (ascending) with its size and window: faces,
    codes, card values, joker values and positions. The shorter ones are slices of the longest,
    since a card's value depends only on its place and the low end."""
    faces, values = [], []
    positions = tuple(range(low, highs[-1] + 1)) if highs else ()
    for i, pos in enumerate(positions):
        rank = _rank_of(pos)
        faces.append(Face(rank, suit))
        values.append(_card_value(rank, pos == HIGH_ACE or (rank == ACE and i > 0), ace))
    jokers = [0] * len(values) if zero_jokers else values
    line = (tuple(faces), tuple(_code(f) for f in faces), tuple(values), tuple(jokers))
    return tuple(
        (n, (line[0][:n], line[1][:n], line[2][:n], line[3][:n], positions[:n]))
        for n in (high - low + 1 for high in highs)
    )


def _run_shape(window: _Window, joker_at: Sequence[int]) -> _Shape:
    """The run of ``window`` with jokers at the given indexes."""
    faces, codes, values, joker_values, _ = window
    if not joker_at:
        return _Shape(MeldKind.RUN, faces, sum(values), faces, codes, 0)
    slots = list[Face | None](faces)
    value = sum(values)
    for k in joker_at:
        slots[k] = None
        value += joker_values[k] - values[k]
    naturals = tuple(f for f in slots if f is not None)
    kept = tuple(c for k, c in enumerate(codes) if k not in joker_at)
    return _Shape(MeldKind.RUN, tuple(slots), value, naturals, kept, len(joker_at))


def _run_placements(
    counts: dict[Face, int],
    jokers: int,
    rules: Rules,
    stand_ins: Iterable[Face] | None = None,
) -> Iterator[tuple[_Window, tuple[int, ...]]]:
    """Every run the held faces plus ``jokers`` can form: a window and the indexes of its jokers.

    A joker may also stand where a held card fits, since that card may be worth more elsewhere;
    with ``stand_ins`` given, only where that card lies within one place of an end of the run or
    within two places of one of them (:func:`_stand_ins` says why the others are pointless in
    an opening). Held ranks are bits over positions, so a window's gaps are a mask and shift.
    """
    max_j = min(_max_jokers(rules), jokers)
    ok = _jokers_table(rules.options.max_jokers_per_meld, max_j)
    reach = (1 << (max_j + 1)) - 1  # a low end whose first max_j + 1 places are all missing...
    held = _position_bits(counts)
    near = _position_bits(stand_ins if stand_ins is not None else counts)
    mode, zero_jokers, ace = rules.ace_mode, rules.variant is Variant.R71, rules.options.ace_opening_value
    for suit in Suit:
        if held[suit].bit_count() < 6:  # two ranks (each stands at three positions)
            continue
        line = held[suit]
        suit_lines = _suit_windows(suit, mode, zero_jokers, ace)
        # Places a joker may stand in for a held card: near a stand-in (or anywhere).
        free = -1 if stand_ins is None else _spread(near[suit])
        for low, ends in suit_lines:
            inside = line >> (low + 12)
            if not inside & reach:
                continue  # ...starts no run at all
            around = free >> (low + 12)
            for size, window in ends:
                mask = (1 << size) - 1
                gaps = ~inside & mask
                missing = gaps.bit_count()
                if missing > max_j:
                    break  # longer windows from the same low end only miss more
                if missing == 0 and ok[size * (max_j + 1)]:
                    yield window, ()
                if max_j == 0:
                    continue
                holes = _indexes(gaps)
                present = _indexes(inside & mask & (around | 3 | 3 << (size - 2)))
                for extra in range(max(1 - missing, 0), max_j - missing + 1):
                    if not ok[(size - missing - extra) * (max_j + 1) + missing + extra]:
                        continue
                    for swapped in itertools.combinations(present, extra):
                        yield window, holes + swapped


def _position_bits(faces: Iterable[Face]) -> dict[Suit, int]:
    """Per suit, the positions (bit p + 12 for position p, -12 .. 26) whose rank is in
    ``faces``: a rank stands at p, p - 13 and p + 13, which covers every Ace mode."""
    bits = dict.fromkeys(Suit, 0)
    for face in faces:
        assert face.suit is not None
        rank = face.rank
        bits[face.suit] |= (1 << (rank - 1)) | (1 << (rank + 12)) | (1 << (rank + 25))
    return bits


def _spread(bits: int) -> int:
    """Positions within two places of one in ``bits``."""
    return bits | bits << 1 | bits << 2 | bits >> 1 | bits >> 2


@functools.cache
def _indexes(mask: int) -> tuple[int, ...]:
    """The set bits of ``mask``, lowest first (cached: masks here span one run window)."""
    return tuple(k for k in range(mask.bit_length()) if mask >> k & 1)


@functools.cache
def _suit_windows(
    suit: Suit, mode: AceMode, zero_jokers: bool, ace: AceOpeningValue
) -> tuple[tuple[int, tuple[tuple[int, _Window], ...]], ...]:
    """:func:`_windows` of one suit with each span's size and window (cached, built the first
    time a hand holds two cards of the suit)."""
    return tuple((low, _windows_from(suit, low, highs, zero_jokers, ace)) for low, highs in _windows(mode))


def _stand_ins(counts: dict[Face, int], rules: Rules) -> set[Face] | None:
    """The held faces a run's joker may usefully stand in for anywhere in the run when looking
    for an opening (or, with a discardable joker, a way to go out); None when every place must
    be tried.

    A run whose joker stands where a held card fits only helps if that card goes into another
    meld; left in hand, the same run holding the card is worth as much (more in R71), is more
    natural, and keeps the joker, so it is the better opening. With one joker per meld and no
    wrap, another meld can use the card only if its rank is held in another suit (a set), or
    through a run that holds it and another natural card: at most two places away (one joker
    between), so beyond the first run's end if the card is within one place of it, or a second
    copy of itself or of a card at most two places away. These faces (held twice, or whose rank
    is held in another suit) are returned; :func:`_run_placements` applies the rule. Leaving the
    other placements out spares the search from proving, state by state, that they never win.
    """
    if _max_jokers(rules) != 1 or rules.ace_mode is AceMode.WRAP:
        return None
    suits: dict[int, int] = {}
    for face in counts:
        suits[face.rank] = suits.get(face.rank, 0) + 1
    return {f for f, n in counts.items() if n > 1 or suits[f.rank] > 1}


def _set_groups(
    counts: dict[Face, int], jokers: int, rules: Rules
) -> Iterator[tuple[tuple[Face, ...], int, int]]:
    """Every set of 3 or 4 different suits the held faces plus ``jokers`` can form: its held
    faces (by rank, then suit), how many jokers complete it, and its opening value."""
    max_j = min(_max_jokers(rules), jokers)
    ok = _jokers_table(rules.options.max_jokers_per_meld, max_j)
    zero_jokers = rules.variant is Variant.R71
    by_rank: dict[int, list[Face]] = {}
    for face in counts:
        by_rank.setdefault(face.rank, []).append(face)
    for rank in sorted(by_rank):
        faces = by_rank[rank]
        if len(faces) < 2:
            continue
        faces.sort(key=lambda f: _SUIT_INDEX[f.suit])
        card = _card_value(rank, True, rules.options.ace_opening_value)
        for size in range(2, min(4, len(faces)) + 1):
            fills = [j for j in range(max_j + 1) if 3 <= size + j <= 4 and ok[size * (max_j + 1) + j]]
            for chosen in itertools.combinations(faces, size) if fills else ():
                for j in fills:
                    yield chosen, j, card * (size if zero_jokers else size + j)


def _set_shapes(counts: dict[Face, int], jokers: int, rules: Rules) -> Iterator[_Shape]:
    """Every set of 3 or 4 different suits the held faces plus ``jokers`` can form."""
    for chosen, j, value in _set_groups(counts, jokers, rules):
        yield _shape(MeldKind.SET, (*chosen, *([None] * j)), value)


def _shapes(counts: dict[Face, int], jokers: int, rules: Rules) -> list[_Shape]:
    """Every run and set the faces in ``counts`` plus ``jokers`` can form, one per joker placement."""
    runs = [_run_shape(window, at) for window, at in _run_placements(counts, jokers, rules)]
    return runs + list(_set_shapes(counts, jokers, rules))


def _face_counts(cards: Sequence[Card]) -> tuple[dict[Face, int], int]:
    counts: dict[Face, int] = {}
    jokers = 0
    for card in cards:
        if card.rank:
            face = card.face
            counts[face] = counts.get(face, 0) + 1
        else:
            jokers += 1
    return counts, jokers


def _sorted_hand(hand: Sequence[Card]) -> list[Card]:
    if len(set(hand)) != len(hand):
        raise ValueError("the hand holds the same physical card twice")
    return sorted(hand, key=_card_order)


def _card_order(card: Card) -> tuple[int, int, int]:
    return (_SUIT_INDEX.get(card.suit, 4), card.rank, card.copy)


_SUIT_INDEX: dict[Suit | None, int] = {suit: suit.index for suit in Suit}


def _build(shape: _Shape, naturals: Sequence[Card], jokers: Sequence[Card], rules: Rules) -> Meld:
    """The Meld for ``shape`` made of the given physical cards (jokers placed as in the shape)."""
    by_face = {(c.rank, c.suit): c for c in naturals}  # tuples hash faster than faces
    spare = iter(jokers)
    cards = [by_face[f.rank, f.suit] if f is not None else next(spare) for f in shape.slots]
    return make_meld(cards, rules)


def find_melds(hand: Sequence[Card], rules: Rules) -> list[Meld]:
    """Every meld the hand can form, once per face combination and joker placement.

    The two copies of a face are interchangeable, so each meld is returned once, built from the
    lowest copies held (real cards of ``hand``). Runs come first (by suit, then span), then sets.
    """
    cards = _sorted_hand(hand)
    counts, jokers = _face_counts(cards)
    naturals = list({c.face: c for c in reversed(cards) if not c.is_joker}.values())
    joker_cards = [c for c in cards if c.is_joker]
    return [_build(s, naturals, joker_cards, rules) for s in _shapes(counts, jokers, rules)]


# ---------------------------------------------------------------------------------------------
# Items: the hand as bitmasks


class _Option(NamedTuple):
    """A way to place cards: a new meld (``table`` is None) or a lay-off on table meld ``table``."""

    mask: int
    jokers: int
    value: int
    bound: int  # upper value of its natural items, as counted by the search's bound
    flags: int
    kind: MeldKind
    # Submission order, None for a joker (unless ``run`` is set); for a lay-off, the held faces
    # of its group in order, a superset of those it lays.
    faces: tuple[Face | None, ...]
    run: tuple[_Window, tuple[int, ...]] | None = None  # a run's window and joker indexes
    table: int | None = None

    @property
    def slots(self) -> tuple[Face | None, ...]:
        return self.faces if self.run is None else _run_shape(*self.run).slots


class _Items:
    """The hand split into items (a face held once or twice, or the taken card alone)."""

    def __init__(self, cards: Sequence[Card], taken: Card | None, rules: Rules) -> None:
        self.rules = rules
        self.taken = taken
        # A taken joker goes first, so it is the one laid (jokers are otherwise alike).
        self.jokers = sorted((c for c in cards if c.is_joker), key=lambda c: c != taken)
        self.taken_joker = taken is not None and taken.is_joker
        self.faces: list[Face] = []
        self.cards: list[list[Card]] = []
        # Faces as codes (_code): the bit of the item of the copies other than the taken card.
        self.bit: dict[int, int] = {}
        self.face_of: dict[int, Face] = {}  # the held faces by code
        self.taken_item = -1
        self.taken_code = -1
        ace = rules.options.ace_opening_value
        self.upper: list[int] = []  # each item's opening value at most (an Ace counted high)
        for card in cards:
            if not card.rank:  # a joker
                continue
            code = _SUIT_INDEX[card.suit] * 16 + card.rank
            if taken is not None and card == taken:
                self.taken_item, self.taken_code = len(self.faces), code
            elif code in self.bit:
                self.cards[self.bit[code].bit_length() - 1].append(card)
                continue
            else:
                self.bit[code] = 1 << len(self.faces)
            face = card.face
            self.face_of[code] = face
            self.faces.append(face)
            self.cards.append([card])
            self.upper.append(_card_value(card.rank, True, ace))
        self.ones = (1 << len(self.cards)) - 1
        self.twos = 0
        for i, held in enumerate(self.cards):
            if len(held) == 2:
                self.twos |= 1 << i

    def masks(self, codes: Sequence[int]) -> list[int]:
        """Item masks that can supply the faces ``codes`` (two if the taken card has a twin)."""
        bit = self.bit
        if self.taken_code not in codes:
            mask = 0
            for code in codes:
                b = bit.get(code)
                if b is None:
                    return []
                mask |= b
            return [mask]
        options = [0]
        for code in codes:
            choices = [bit[code]] if code in bit else []
            if code == self.taken_code:
                choices.append(1 << self.taken_item)
            if not choices:
                return []
            options = [m | c for m in options for c in choices]
        return options

    def meld_options(
        self,
        counts: dict[Face, int],
        jokers: int,
        needs: int,
        stand_ins: Iterable[Face] | None = None,
    ) -> list[_Option]:
        """Item-level options for new melds; per (items, jokers) only the best placement stays.

        Runs are scored straight from their window (masks and values as ints, no Face objects)
        unless they hold the taken card's face, which may give two masks. Only the flags in
        ``needs`` are kept: the others would just split search states. ``stand_ins`` limits
        where a run's joker may stand in for a held card (:func:`_stand_ins`).
        """
        best: dict[tuple[int, int], _Option] = {}
        taken_bit = 1 << self.taken_item if self.taken_item >= 0 else 0
        bit, upper = self.bit, self.upper

        def add(
            mask: int, used: int, value: int, kind: MeldKind, faces: tuple[Face | None, ...],
            run: tuple[_Window, tuple[int, ...]] | None = None, bound: int = -1,
        ) -> None:
            key = (mask, used)
            old = best.get(key)
            if old is not None and value <= old.value:
                return
            flags = _MELD | (_RUN if kind is MeldKind.RUN else _SET)
            if mask & taken_bit or (used and self.taken_joker):
                flags |= _TAKEN
            if used == 0:
                if kind is MeldKind.SET:
                    flags |= _NAT_SET
                elif not mask & taken_bit:
                    flags |= _NAT_RUN
            if old is not None:
                bound = old.bound
            elif bound < 0:
                bound = sum(upper[i] for i in _bits(mask))
            best[key] = _Option(mask, used, value, bound, flags & needs, kind, faces, run)

        # A run without the taken card's face: one mask, scored from its window with ints; its
        # flags depend only on whether it holds a joker.
        run_flags = (
            (_MELD | _RUN | _NAT_RUN) & needs,
            (_MELD | _RUN | (_TAKEN if self.taken_joker else 0)) & needs,
        )
        last: _Window | None = None
        plain = False
        bits: list[int] = []
        ups: list[int] = []
        full = total = top = 0
        for window, at in _run_placements(counts, jokers, self.rules, stand_ins):
            if window is not last:
                _, codes, values, joker_values, places = window
                plain = self.taken_code not in codes
                if last is not None and last[4][0] == places[0] and len(places) == len(bits) + 1:
                    # The previous window one place longer: only its new last card to add.
                    b = bit.get(codes[-1], 0)
                    bits.append(b)
                    ups.append(upper[b.bit_length() - 1] if b else 0)
                    full, total, top = full + b, total + values[-1], top + ups[-1]
                else:
                    bits = [bit.get(c, 0) for c in codes]
                    ups = [upper[b.bit_length() - 1] if b else 0 for b in bits]
                    full, total, top = sum(bits), sum(values), sum(ups)
                last = window
            if not plain:
                shape = _run_shape(window, at)
                for mask in self.masks(shape.codes):
                    add(mask, len(at), shape.value, MeldKind.RUN, (), (window, at))
                continue
            mask, value, bound = full, total, top
            for k in at:
                mask &= ~bits[k]
                value += joker_values[k] - values[k]
                bound -= ups[k]
            key = (mask, len(at))
            old = best.get(key)
            if old is None:
                best[key] = _Option(mask, key[1], value, bound, run_flags[bool(at)], MeldKind.RUN, (), (window, at))
            elif value > old.value:
                best[key] = _Option(mask, key[1], value, old.bound, old.flags, MeldKind.RUN, (), (window, at))
        for chosen, j, value in _set_groups(counts, jokers, self.rules):
            slots = (*chosen, *([None] * j))
            for mask in self.masks([_code(f) for f in chosen]):
                add(mask, j, value, MeldKind.SET, slots)
        return list(best.values())

    def by_low(self, options: Sequence[_Option], ordered: bool = True) -> list[list[_Option]]:
        """Options indexed by their lowest item, biggest first (good solutions early) unless the
        caller orders them itself."""
        table: list[list[_Option]] = [[] for _ in self.faces]
        for opt in options:
            if opt.mask:
                table[(opt.mask & -opt.mask).bit_length() - 1].append(opt)
        if ordered:  # by value, then cards placed, then jokers, all descending
            for row in table:
                if len(row) > 1:  # stable sorts, last key first (C-level keys but one)
                    row.sort(key=_JOKERS, reverse=True)
                    row.sort(key=_placed, reverse=True)
                    row.sort(key=_VALUE, reverse=True)
        return table

    def realise(self, chosen: Sequence[_Option]) -> tuple[list[Meld], list[tuple[int, tuple[Card, ...]]]]:
        """Physical cards for the chosen options (lowest copies first, the taken card where chosen)."""
        pools = [list(c) for c in self.cards]
        jokers = list(self.jokers)
        melds: list[Meld] = []
        layoffs: list[tuple[int, tuple[Card, ...]]] = []
        for opt in chosen:
            naturals = [pools[i].pop(0) for i in _bits(opt.mask)]
            used_jokers = [jokers.pop(0) for _ in range(opt.jokers)]
            if opt.run is not None and self.rules.ace_mode is not AceMode.WRAP:
                melds.append(_run_meld(opt.run, naturals, used_jokers))
            elif opt.table is None:
                shape = _shape(opt.kind, opt.slots, opt.value)
                melds.append(_build(shape, naturals, used_jokers, self.rules))
            else:
                order = {f: k for k, f in enumerate(opt.slots)}
                naturals.sort(key=lambda c: order[c.face])
                layoffs.append((opt.table, (*naturals, *used_jokers)))
        layoffs.sort(key=lambda lo: lo[0])
        return melds, layoffs


_VALUE = operator.attrgetter("value")
_JOKERS = operator.attrgetter("jokers")


def _placed(opt: _Option) -> int:
    """How many items an option places (a sort key)."""
    return opt.mask.bit_count()


def _run_meld(
    run: tuple[_Window, tuple[int, ...]], naturals: Sequence[Card], jokers: Sequence[Card]
) -> Meld:
    """The run of a window straight from its faces and positions: what ``make_meld`` would
    build from these cards in this order (outside ``wrap`` mode, where a position is unique),
    without checking again what the window already guarantees."""
    (faces, _, _, _, positions), at = run
    by_rank = {c.rank: c for c in naturals}  # one suit, each rank once
    spare = iter(jokers)
    cards = tuple(next(spare) if k in at else by_rank[f.rank] for k, f in enumerate(faces))
    return Meld(MeldKind.RUN, cards, faces, positions)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _remove(ones: int, twos: int, mask: int) -> tuple[int, int]:
    """Take one copy of each item in ``mask`` (all present) out of the multiset (ones, twos)."""
    return (ones & ~mask) | (twos & mask), twos & ~mask


def _items_value(items: _Items, ones: int, twos: int) -> int:
    return sum(items.upper[i] for i in _bits(ones)) + sum(items.upper[i] for i in _bits(twos))


# ---------------------------------------------------------------------------------------------
# Best opening


def _joker_bound(options: Sequence[_Option], rules: Rules) -> tuple[int, int, int, int]:
    """What jokers can add to an opening at most, finer than "each as much as an Ace".

    Returns ``(low, extra, anchors, per_option)``: every joker is worth at most ``low``, except
    those in the options where a joker reaches the most valuable place of all (``low + extra``:
    a high Ace, in a run or a set of Aces). Every such option holds one of the ``anchors``
    items, so no more of them can be laid together than copies of the anchors are held, each
    with ``per_option`` such jokers at most. In a whole suit with jokers, where only ``Q K JK``
    puts a joker on the high Ace, this caps the jokers at 11 + 10 + 10, not 3 × 11, which is
    what lets the search prove a best opening without trying every arrangement.
    """
    if rules.variant is Variant.R71:
        return 0, 0, 0, 0  # jokers count nothing in an R71 opening
    # Per option with jokers: its mask, its most valuable joker place, how many of its jokers
    # stand there, and the best of its other places (0 if none).
    slots: list[tuple[int, int, int, int]] = []
    for opt in options:
        if not opt.jokers:
            continue
        if opt.run is None:  # a set: each of its cards is worth the same
            slots.append((opt.mask, opt.value // len(opt.faces), opt.jokers, 0))
            continue
        window, at = opt.run
        if len(at) == 1:  # most of them
            slots.append((opt.mask, window[3][at[0]], 1, 0))
            continue
        values = [window[3][k] for k in at]
        high = max(values)
        slots.append((opt.mask, high, values.count(high), max((v for v in values if v < high), default=0)))
    top = max([high for _, high, _, _ in slots], default=0)
    low = max([high if high < top else other for _, high, _, other in slots], default=0) or top
    tops = [(mask, n) for mask, high, n, _ in slots if high == top] if low < top else []
    per_option = max((n for _, n in tops), default=0)
    anchors = 0
    masks = [mask for mask, _ in tops]
    while masks:  # greedily, the item most of the remaining options hold
        held: dict[int, int] = {}
        for mask in masks:
            for i in _bits(mask):
                held[i] = held.get(i, 0) + 1
        pick = 1 << max(held, key=lambda i: (held[i], -i))
        anchors |= pick
        masks = [mask for mask in masks if not mask & pick]
    return low, top - low, anchors, per_option


def _opening_needs(rules: Rules, freed: bool, taken: Card | None, threshold: int) -> int:
    # Any value above 0 takes a meld, so only a freed partner (no threshold) needs _MELD; not
    # tracking it otherwise keeps search states from splitting on it.
    needs = _LEFT | (_MELD if freed or threshold <= 0 else 0)
    if taken is not None and rules.must_use_discard:
        needs |= _TAKEN
    if rules.variant is Variant.R71:
        needs |= _NAT_RUN if freed else _NAT_RUN | _NAT_SET
    elif rules.options.r51_require_natural_run and not freed:
        needs |= _NAT_RUN
    return needs


def best_opening(
    hand: Sequence[Card],
    rules: Rules,
    threshold: int,
    *,
    taken: Card | None = None,
    freed: bool = False,
) -> Opening | None:
    """The most valuable first lay-down of new melds that the opening rules accept, or None.

    The answer passes ``check_first_laydown`` with ``LayContext(rules, opened=False, freed=freed,
    threshold=threshold, taken=taken)``, keeps at least one card in hand for the discard, and lays
    ``taken`` (the discard taken this turn) when the table plays ``discard_take=must_use``. A freed
    partner has no threshold (as in ``check_first_laydown``), so for them ``threshold`` is ignored
    and any non-empty lay-down that meets R71's natural run counts. Ties between equally valuable
    openings are broken by a fixed search order, so the answer is deterministic.
    """
    if not rules.has_opening:
        raise ValueError(f"{rules.variant.value} has no opening")
    cards = _sorted_hand(hand)
    if taken is not None and taken not in cards:
        raise ValueError("the taken card is not in the hand")
    items = _Items(cards, taken, rules)
    counts, jokers = _face_counts(cards)
    no_jokers = rules.options.r71_joker_in_opening is R71JokerInOpening.FORBIDDEN
    if rules.variant is Variant.R71 and not freed and no_jokers:
        jokers = 0  # melds with a joker may not be part of this opening
    needs = _opening_needs(rules, freed, taken, threshold)
    options = items.meld_options(counts, jokers, needs, _stand_ins(counts, rules))

    # Items that no meld uses always stay in hand: drop them before searching.
    usable = 0
    for opt in options:
        usable |= opt.mask
    ones, twos = items.ones & usable, items.twos & usable
    flags = _LEFT if (items.ones & ~usable) else 0
    by_low = items.by_low(options, ordered=False)
    ace = _card_value(ACE, True, rules.options.ace_opening_value)
    joker_value = 0 if rules.variant is Variant.R71 else max(10, ace)
    # Walking the rows from the last one, per row i: least[i], the cheapest item from i on (until
    # a card stays in hand, the bound loses the cheapest card a state at i still holds);
    # reachable[i], the flags the options from row i on can earn (a state needing more cannot
    # succeed); dead[i], the items no option from row i on holds: once the search has passed i
    # they can only stay in hand (with i itself when its row is empty), so they are dropped at
    # once, which shrinks the bound and makes states that differ only by them one.
    upper = items.upper
    least, reachable, dead = [0] * len(by_low), [0] * (len(by_low) + 1), [0] * len(by_low)
    cheapest = later = 0
    for i in range(len(by_low) - 1, -1, -1):
        if ones >> i & 1 and (not cheapest or upper[i] < cheapest):
            cheapest = upper[i]
        least[i] = cheapest
        earned = reachable[i + 1]
        for opt in by_low[i]:
            earned |= opt.flags
            later |= opt.mask
        reachable[i] = earned
        dead[i] = items.ones & ~later
    memo: dict[tuple[int, int, int, int], tuple[int, bool, _Option | None]] = {}

    # Options that lose least against the bound come first (then the most valuable): a best
    # opening found early makes the bound prune the rest, and when the bound is reached
    # exactly, a lossless path reaches it at once.
    # (Sorted as plain tuples: the row index k keeps equal keys in their order, as a stable sort.)
    rows = []
    for row in by_low:
        keyed = sorted((o.bound + o.jokers * joker_value - o.value, -o.value, k, o) for k, o in enumerate(row))
        rows.append([(o.mask, o.jokers, o.value, o.bound, o.flags, loss, o) for loss, _, _, o in keyed])

    # The bound counts each joker at ``worth``, and ``extra`` more for as many jokers as the
    # anchors still held allow (``cap`` in a search state, see _joker_bound). The options'
    # order above uses the plain joker_value, so the answer does not depend on this bound.
    # With few options the search is small and the plain bound is cheaper than working it out.
    worth, extra, anchors, per_option = (
        _joker_bound(options, rules) if len(options) > _FEW_OPTIONS else (joker_value, 0, 0, 0)
    )
    # Until a card stays in hand, the bound loses the cheapest card (or a joker, if cheaper).
    unkept = min(cheapest, worth)

    def ceiling(rest: int, jokers: int, flags: int, cap: int) -> int:
        """What can still be gained at most: every card held, less one if none is left yet.
        (Written out again in search, where a call per option costs too much.)"""
        top = rest + jokers * worth + min(jokers, cap) * extra
        if not flags & _LEFT:
            top -= unkept if jokers else cheapest
        return top

    def cap_of(ones: int, twos: int) -> int:
        """How many jokers may still take the most valuable place (copies of anchors held)."""
        return ((ones & anchors).bit_count() + (twos & anchors).bit_count()) * per_option

    def settle(ones: int, twos: int) -> tuple[int, int, int]:
        """Take out the dead items (from the lowest on, until the lowest is alive): the items
        left and the upper value of those taken out."""
        lost = 0
        while ones:
            gone = ones & dead[(ones & -ones).bit_length() - 1]
            if not gone:
                break
            ones &= ~gone
            while gone:
                bit = gone & -gone
                lost += upper[bit.bit_length() - 1] * (2 if twos & bit else 1)
                twos &= ~bit
                gone ^= bit
        return ones, twos, lost

    def finish(jokers: int, flags: int) -> int:
        """Every card is placed or kept: 0 if the flags earned (a kept joker keeps a card)
        are the ones needed, else a failure."""
        return 0 if (flags | (_LEFT if jokers else 0)) & needs == needs else _NEG

    def search(ones: int, twos: int, jokers: int, flags: int, rest: int, need: int) -> int:
        """Best value still to gain from here if it is >= need, else an upper bound below need.

        ``rest`` is the upper value of the items still held (the bound's natural part). Children
        whose ceiling cannot reach their target are not entered.
        """
        if not ones:
            return finish(jokers, flags)
        low = ones & -ones
        item = low.bit_length() - 1
        if ones & dead[item]:
            ones, twos, lost = settle(ones, twos)
            rest, flags = rest - lost, flags | _LEFT
            if not ones:
                return finish(jokers, flags)
            low = ones & -ones
            item = low.bit_length() - 1
        if needs & ~(flags | reachable[item] | _LEFT):
            return _NEG
        key = (ones, twos, jokers, flags)
        seen = memo.get(key)
        if seen is not None and (seen[1] or seen[0] < need):
            return seen[0]
        best, bound, choice = _NEG, _NEG, None
        top_all = rest + jokers * joker_value  # the plain ceiling before an option's loss
        cap = cap_of(ones, twos) if anchors else 0
        keep = least[item]  # the cheapest card that can still stay in hand (or a joker)
        keep_joker = keep if keep < worth else worth
        for mask, used, value, drop, earned, loss, opt in rows[item]:
            if mask & ones != mask or used > jokers:
                continue
            wanted = need if need > best else best + 1
            if top_all - loss < wanted:
                # Rows are sorted by loss: no option from here on can reach.
                bound = max(bound, top_all - loss)
                break
            target = wanted - value
            left = jokers - used
            top = rest - drop + left * worth + (left if left < cap else cap) * extra
            if not (flags | earned) & _LEFT:
                top -= keep_joker if left else keep
            if top < target:
                got = top
            else:
                got = search(
                    (ones & ~mask) | (twos & mask),  # one copy of each item in mask taken
                    twos & ~mask,
                    left,
                    flags | earned,
                    rest - drop,
                    target,
                )
            if got >= target:
                best, choice = got + value, opt
            elif got + value > bound:
                bound = got + value
        target = need if need > best else best + 1
        drop = upper[item] * (2 if twos & low else 1)
        top = rest - drop + jokers * worth + (jokers if jokers < cap else cap) * extra  # ceiling()
        got = top if top < target else search(ones & ~low, twos & ~low, jokers, flags | _LEFT, rest - drop, target)
        if got >= target:
            best, choice = got, None
        elif got > bound:
            bound = got
        if best >= need:
            memo[key] = (best, True, choice)
            return best
        memo[key] = (max(best, bound), False, None)
        return max(best, bound)

    rest = _items_value(items, ones, twos)
    need = 0 if freed else threshold
    jokers = len(items.jokers)
    top = ceiling(rest, jokers, flags, cap_of(ones, twos))
    value = top if top < need else search(ones, twos, jokers, flags, rest, need)
    if value < need:
        return None
    chosen: list[_Option] = []
    while ones:
        if ones & dead[(ones & -ones).bit_length() - 1]:
            ones, twos, _ = settle(ones, twos)
            flags |= _LEFT
            continue
        entry = memo.get((ones, twos, jokers, flags))
        assert entry is not None and entry[1]
        step = entry[2]
        if step is None:
            low = ones & -ones
            ones, twos, flags = ones & ~low, twos & ~low, flags | _LEFT
        else:
            chosen.append(step)
            ones, twos = _remove(ones, twos, step.mask)
            jokers, flags = jokers - step.jokers, flags | step.flags
    melds, _ = items.realise(chosen)
    # Each option's value is its meld's opening value (values.py's table, scored per window).
    return Opening(tuple(melds), sum(opt.value for opt in chosen))


# ---------------------------------------------------------------------------------------------
# Going out


def _layoff_options(items: _Items, table: Sequence[Meld], rules: Rules) -> tuple[list[_Option], list[int]]:
    """Every way to add hand cards to each table meld, and how many jokers alone each can take.

    Only additions whose natural cards are held are generated; jokers fill the other places, or
    stand in for held cards (which may be needed elsewhere), within the table's joker limit.
    Faces are handled as codes (:func:`_code`) and items as bits until an option is kept.
    """
    options: list[_Option] = []
    joker_room: list[int] = []
    held, bit_of, taken_code = items.face_of, items.bit, items.taken_code
    limit = min(_max_jokers(rules), MAX_RUN)
    table_ok = _jokers_table(rules.options.max_jokers_per_meld, limit)

    def ok(naturals: int, jokers: int) -> bool:  # _jokers_ok, from the table
        return jokers <= limit and table_ok[min(naturals, MAX_RUN) * (limit + 1) + jokers]

    most = min(limit, len(items.jokers))
    for t, meld in enumerate(table):
        on_meld = sum(c.rank == 0 for c in meld.cards)
        naturals = len(meld.cards) - on_meld
        max_j = most
        while max_j and not ok(naturals + 1, on_meld + max_j):
            max_j -= 1
        room = max_j
        while room and not (ok(naturals, on_meld + room) and _takes_jokers(meld, room, rules)):
            room -= 1
        joker_room.append(room)
        is_run = meld.kind is MeldKind.RUN
        seen: set[tuple[int, int]] = set()
        for codes, below in _additions(meld, held, max_j, rules):
            bits = [bit_of.get(c, 0) for c in codes]
            missing = [k for k, c in enumerate(codes) if c not in held]
            present = [k for k, c in enumerate(codes) if c in held]
            full = sum(bits)
            # The held faces of the group, in order: its options' faces (each lays some of them;
            # realise only orders the laid cards by them).
            faces = tuple(held[codes[k]] for k in present)
            takes_taken = taken_code in codes
            # Natural cards that make runs of their own on each side they extend (none, or 3+)
            # are better laid as those runs: the same cards placed, the table meld still free.
            above = len(codes) - below
            own_runs = is_run and (below == 0 or below >= 3) and (above == 0 or above >= 3)
            for extra in range(max_j - len(missing) + 1):
                used = len(missing) + extra
                if (own_runs and not used) or used == len(codes) or not ok(naturals + len(codes) - used, on_meld + used):
                    continue
                for swapped in itertools.combinations(present, extra):
                    if takes_taken:  # the taken card or its twin: one or two masks
                        at = (*missing, *swapped)
                        masks = items.masks([c for k, c in enumerate(codes) if k not in at])
                    else:
                        masks = [full - sum(bits[k] for k in swapped)]
                    for mask in masks:
                        if (mask, used) in seen:
                            continue
                        seen.add((mask, used))
                        # No flags: going out checks the taken card by covering it.
                        options.append(_Option(mask, used, 0, 0, 0, meld.kind, faces, None, t))
    return options, joker_room


def _takes_jokers(meld: Meld, jokers: int, rules: Rules) -> bool:
    """Whether ``jokers`` jokers alone extend ``meld`` (what ``can_extend`` answers once the
    joker limit holds, without building the meld): a set up to four cards, a run up to
    MAX_RUN cards within the ends of the line."""
    if meld.is_set:
        return len(meld.cards) + jokers <= 4
    if len(meld.cards) + jokers > MAX_RUN:
        return False
    if rules.ace_mode is AceMode.WRAP:
        return True
    top = HIGH_ACE if rules.ace_mode is AceMode.LOW_HIGH else 13
    return meld.positions[0] - 1 + top - meld.positions[-1] >= jokers


def _additions(
    meld: Meld, held: Container[int], max_j: int, rules: Rules
) -> Iterator[tuple[tuple[int, ...], int]]:
    """Groups of faces (as codes) that extend ``meld`` together, with at least one of them and
    at most ``max_j`` of them not ``held``, each with how many of its faces go below a run (0
    for a set)."""
    if meld.is_set:
        suits = {f.suit for f in meld.stands_for if f.suit is not None}
        rank = meld.rank
        missing = [_SUIT_INDEX[s] * 16 + rank for s in Suit if s not in suits]
        room = 4 - len(meld.cards)
        for size in range(1, room + 1):
            for group in itertools.combinations(missing, size):
                if sum(c not in held for c in group) <= min(max_j, size - 1):
                    yield group, 0
        return
    base = _SUIT_INDEX[meld.suit] * 16  # as in _code
    low, high = meld.positions[0], meld.positions[-1]
    mode = rules.ace_mode
    floor = -(10**6) if mode is AceMode.WRAP else 1
    top = 10**6 if mode is AceMode.WRAP else (HIGH_ACE if mode is AceMode.LOW_HIGH else 13)
    room = MAX_RUN - len(meld.cards)
    below_codes: list[int] = []
    short = 0  # faces below the run that are not held
    for below in range(room + 1):
        if below:
            if low - below < floor:
                break
            below_codes.insert(0, base + _rank_of(low - below))
            short += below_codes[0] not in held
        lacking = short
        if lacking > max_j:
            break
        above_codes: list[int] = []
        for above in range(room - below + 1):
            if above:
                if high + above > top:
                    break
                above_codes.append(base + _rank_of(high + above))
                if above_codes[-1] not in held:
                    lacking += 1
                if lacking > max_j:
                    break
            if below + above > lacking:  # a held face among them
                yield (*below_codes, *above_codes), below


# Going out needs every card but the discard placed. A card no meld without jokers can take (no
# natural run or set of the hand, no lay-off of natural cards) needs a joker's help, and one
# option places at most four such cards per joker it holds: between and beside its jokers, three
# natural cards in a row would make a natural run of their own (a run with j jokers has j + 1
# such stretches of at most 2, and 2 (j + 1) <= 4 j), a set with a joker holds at most two
# naturals (three would be a natural set), and a lay-off's natural cards next to the table meld
# are a natural lay-off, the others stretches beyond a joker. So when the cards that need
# jokers, but one, outnumber four per joker, no plan exists.
_PER_JOKER = 4


def _hopeless(items: _Items, table: Sequence[Meld], rules: Rules) -> bool:
    """Whether cheap tests prove that no way to go out exists, before any option is built.

    Per card, bit tests say whether some meld without jokers may take it (three held in a row
    in its suit, three suits of its rank, a natural lay-off on ``table``) or some option at all
    (another held rank of its suit within reach of the jokers, two suits of its rank, a lay-off
    across at most that many missing cards). Both answers err towards "yes", so this returns
    True only where the exact tests of :func:`going_out` (two cards that no option places, or
    :func:`_too_few_jokers`) would fail too: the answer is the same, only found sooner.
    """
    jokers = len(items.jokers)
    reach = min(_max_jokers(rules), jokers)  # missing cards one meld can bridge with jokers
    top = HIGH_ACE if rules.ace_mode is AceMode.LOW_HIGH else 13
    valid = -1 if rules.ace_mode is AceMode.WRAP else ((1 << top) - 1) << 13  # positions 1 .. top
    lines = [0, 0, 0, 0]  # per suit, the held positions as in _position_bits
    suits = [0] * 14  # per rank, how many suits are held
    for code in items.face_of:
        lines[code >> 4] |= _AT[code & 15]
        suits[code & 15] += 1
    runs, near = [], []  # per suit: positions in three held in a row; within reach of another
    for line in lines:
        line &= valid
        row = line & line >> 1 & line >> 2
        runs.append(row | row << 1 | row << 2)
        spread = 0
        for k in range(1, min(reach + 1, 12) + 1) if reach else ():
            spread |= line << k | line >> k
        near.append(spread)
    natural: set[int] = set()
    placed: set[int] = set()
    if table:
        _layoff_reach(table, items.face_of, reach, rules.ace_mode, natural, placed)
    held = [(code, 2 if bit & items.twos else 1) for code, bit in items.bit.items()]
    if items.taken_item >= 0:
        held.append((items.taken_code, 1))
    need = stuck = 0
    for code, copies in held:
        at, suit, rank = _AT[code & 15], code >> 4, code & 15
        if runs[suit] & at or suits[rank] >= 3 or code in natural:
            continue
        need += copies
        if not (near[suit] & at or (reach and suits[rank] == 2) or code in placed):
            stuck += copies
    return stuck > 1 or need - 1 > _PER_JOKER * jokers


# Per rank, its positions as bits (as in _position_bits): p, p - 13 and p + 13, shifted by 12.
_AT = tuple((1 << (rank - 1)) | (1 << (rank + 12)) | (1 << (rank + 25)) if rank else 0 for rank in range(14))


def _layoff_reach(
    table: Sequence[Meld], held: Container[int], reach: int, mode: AceMode, natural: set[int], placed: set[int]
) -> None:
    """Add the held faces (codes) a lay-off of natural cards may take to ``natural``, and those a
    lay-off with up to ``reach`` jokers may take to ``placed``."""
    floor = -(10**6) if mode is AceMode.WRAP else 1
    top = 10**6 if mode is AceMode.WRAP else (HIGH_ACE if mode is AceMode.LOW_HIGH else 13)
    for meld in table:
        room = (4 if meld.is_set else MAX_RUN) - len(meld.cards)
        if not room:
            continue
        if meld.is_set:
            present = {f.suit for f in meld.stands_for}
            rank = meld.rank
            natural.update(_SUIT_INDEX[s] * 16 + rank for s in Suit if s not in present)
            continue
        base = _SUIT_INDEX[meld.suit] * 16
        for start, step in ((meld.positions[0], -1), (meld.positions[-1], 1)):
            gaps = 0
            for k in range(1, room + 1):
                pos = start + step * k
                if not floor <= pos <= top:
                    break
                code = base + _rank_of(pos)
                if code not in held:
                    gaps += 1
                    if gaps > reach:
                        break
                elif gaps:
                    placed.add(code)
                else:
                    natural.add(code)


def _too_few_jokers(items: _Items, options: Sequence[_Option], natural: int) -> bool:
    """The exact form of :func:`_hopeless`'s count: whether the cards that no option without
    jokers places (``natural`` are those it does), but one, are more than the options with
    jokers can place with the hand's jokers (each option at most its own share per joker)."""
    lacking = items.ones & ~natural
    need = lacking.bit_count() + (lacking & items.twos).bit_count() - 1
    if need <= 0:
        return False
    share, per = 0, 1  # the best ratio of such cards placed to jokers used, as share / per
    for opt in options:
        if opt.jokers:
            c = (opt.mask & lacking).bit_count()
            if c * per > share * opt.jokers:
                share, per = c, opt.jokers
    return need * per > share * len(items.jokers)


def _go_out_options(
    items: _Items, counts: dict[Face, int], jokers: int, table: Sequence[Meld], rules: Rules, needs: int
) -> tuple[list[_Option], list[int]]:
    """The options going out searches (new melds, lay-offs on ``table``), and how many jokers
    alone each table meld can take."""
    # A run whose joker stands in for a held card that nothing else can take (no other meld of
    # the hand, no lay-off) only helps by leaving that card to discard; discarding the joker
    # instead (tried first: it costs more) does as well, so where a joker may be the last
    # discard such runs need not be tried.
    stand_ins: Iterable[Face] | None = None
    if (
        rules.options.joker_discard_allowed
        and rules.options.joker_final_discard_allowed
        and not items.taken_joker
    ):
        stand_ins = _stand_ins(counts, rules)
    joker_room = [0] * len(table)
    layoffs: list[_Option] = []
    if table:
        layoffs, joker_room = _layoff_options(items, table, rules)
        if stand_ins is not None:  # a card a lay-off can take may be left out of a run
            laid_off = 0
            for opt in layoffs:
                laid_off |= opt.mask
            stand_ins = [*stand_ins, *(items.faces[i] for i in _bits(laid_off))]
    return items.meld_options(counts, jokers, needs, stand_ins) + layoffs, joker_room


def _placements(options: Iterable[_Option]) -> tuple[int, int, int]:
    """Items in at least one option, in at least four, and in an option without jokers."""
    once = twice = thrice = more = natural = 0
    for opt in options:
        mask = opt.mask
        more |= thrice & mask
        thrice |= twice & mask
        twice |= once & mask
        once |= mask
        if not opt.jokers:
            natural |= mask
    return once, more, natural


def _cannot_place(items: _Items, options: Sequence[_Option], once: int, natural: int) -> bool:
    """Whether, whatever the discard, some card is left that no option can place: two cards (or
    both copies of one) that no option places, or too few jokers (:func:`_too_few_jokers`)."""
    stuck = items.ones & ~once
    return bool(stuck & (stuck - 1) or stuck & items.twos) or _too_few_jokers(items, options, natural)


def _go_out_needs(rules: Rules, opened: bool, freed: bool) -> int:
    if rules.variant is Variant.SIMPLE:
        return _RUN | _SET
    if rules.variant is Variant.R71 and not opened:
        return _NAT_RUN if freed else _NAT_RUN | _NAT_SET
    return 0


def going_out(
    hand: Sequence[Card],
    rules: Rules,
    table: Sequence[Meld],
    *,
    opened: bool,
    freed: bool = False,
    taken: Card | None = None,
    threshold: int = 0,
    discards: Collection[Face] | None = None,
) -> GoOutPlan | None:
    """A way to go out this turn with ``hand`` (after the draw), or None when there is none.
    ``discards``: only plans ending with a discard of one of these faces (a puzzle's answers
    are the discards that go out).

    Atlas variants lay everything but one card (new melds, plus lay-offs on ``table`` except in
    Simple) and discard the last card; Basic may also lay the whole hand (``discard=None``, tried
    first). An unopened player goes out "at once": no threshold (``threshold`` is only carried
    into the LayContext the plan is checked with), but R71 still needs a natural run and a natural
    set among the new melds (a freed partner: a natural run), and Simple needs a run and a set and
    no lay-offs. The taken discard is never the discard, so it is always laid, and R71's required
    run does not hold it. Among possible plans the discard with the highest penalty is preferred
    (then the first card in display order), so a loss-minded caller and the tests get one
    deterministic answer. Joker swaps are not considered.
    """
    del threshold  # waived when going out at once; kept so callers pass one LayContext's worth
    cards = _sorted_hand(hand)
    if taken is not None and taken not in cards:
        raise ValueError("the taken card is not in the hand")
    items = _Items(cards, taken, rules)
    counts, jokers = _face_counts(cards)
    lay_on = table if rules.variant is not Variant.SIMPLE else ()  # the melds lay-offs may go to
    if _hopeless(items, lay_on, rules):
        return None  # most hands end here, before any option is built
    needs = _go_out_needs(rules, opened, freed)
    options, joker_room = _go_out_options(items, counts, jokers, lay_on, rules, needs)
    once, more, natural = _placements(options)
    # Every card but the discard must be placed: with two that no option places (or both
    # copies of one), or too few jokers for the cards only jokers help place, no discard can help.
    if _cannot_place(items, options, once, natural):
        return None
    coverable = once
    by_low = items.by_low(options)
    reachable = [0] * (len(by_low) + 1)
    for i in range(len(by_low) - 1, -1, -1):
        reachable[i] = reachable[i + 1]
        for opt in by_low[i]:
            reachable[i] |= opt.flags
    if needs & ~reachable[0]:
        return None
    # Cards that few options can place are checked at every step: once a cover has used up
    # every way to place one of them, it fails there, not after placing all the other cards.
    few = once & ~more  # placed by one to three options
    # Options as the search reads them: mask, jokers, the bit of its table meld (0 for a new
    # meld), flags, and the option itself.
    rows = [[(o.mask, o.jokers, 0 if o.table is None else 1 << o.table, o.flags, o) for o in row] for row in by_low]
    holders: dict[int, list[tuple[int, int, int, int, _Option]]] = {i: [] for i in _bits(few)}
    for row in rows:
        for place in row:
            if place[0] & few:
                for i in _bits(place[0] & few):
                    holders[i].append(place)
    scarce = [(1 << i, places) for i, places in holders.items()]
    failed: set[tuple[int, int, int, int, int]] = set()
    path: list[_Option] = []

    def cover(ones: int, twos: int, jokers: int, used: int, flags: int) -> bool:
        """Place every remaining card; on success ``path`` holds the options, last first."""
        if not ones:
            if flags & needs != needs:
                return False
            spare: list[_Option] = []
            for t, room in enumerate(joker_room):
                if jokers and room and not used >> t & 1:
                    take = min(room, jokers)
                    jokers -= take
                    spare.append(_Option(0, take, 0, 0, 0, table[t].kind, (), None, t))
            if jokers:
                return False
            path.extend(spare)
            return True
        low = ones & -ones
        if needs & ~(flags | reachable[low.bit_length() - 1]):
            return False
        key = (ones, twos, jokers, used, flags)
        if key in failed:
            return False
        for bit, holding in scarce:
            if ones & bit:
                for mask, wanted, meld_bit, _, _ in holding:
                    if mask & ones == mask and wanted <= jokers and not used & meld_bit:
                        break
                else:  # every option that could place this card is gone
                    failed.add(key)
                    return False
        for mask, wanted, meld_bit, earned, opt in rows[low.bit_length() - 1]:
            if mask & ones != mask or wanted > jokers or used & meld_bit:
                continue
            if cover((ones & ~mask) | (twos & mask), twos & ~mask, jokers - wanted, used | meld_bit, flags | earned):
                path.append(opt)
                return True
        failed.add(key)
        return False

    def attempt(discard: Card | None) -> GoOutPlan | None:
        ones, twos, n_jokers = items.ones, items.twos, len(items.jokers)
        if discard is not None and discard.is_joker:
            n_jokers -= 1
        elif discard is not None:
            ones, twos = _remove(ones, twos, 1 << _item_of(items, discard))
        if ones & ~coverable:
            return None
        path.clear()
        if not cover(ones, twos, n_jokers, 0, 0):
            return None
        melds, lays = items.realise(path[::-1])
        if discard is not None:
            laid = _laid(melds, lays)
            rest = [c for c in cards if c not in laid]
            discard = rest[0]  # the exact copy left over (the twin of a face may have been laid)
        return GoOutPlan(tuple(melds), tuple(lays), discard)

    if not rules.is_atlas and discards is None:
        plan = attempt(None)
        if plan is not None:
            return plan
    for discard in _discard_order(cards, taken, rules):
        if discards is not None and discard.face not in discards:
            continue
        plan = attempt(discard)
        if plan is not None:
            return plan
    return None


def _item_of(items: _Items, card: Card) -> int:
    if card == items.taken:
        return items.taken_item
    return items.bit[_code(card.face)].bit_length() - 1


def _laid(melds: Sequence[Meld], layoffs: Sequence[tuple[int, tuple[Card, ...]]]) -> set[Card]:
    laid = {c for m in melds for c in m.cards}
    laid.update(c for _, group in layoffs for c in group)
    return laid


def _discard_order(cards: Sequence[Card], taken: Card | None, rules: Rules) -> list[Card]:
    """Candidate last discards, most expensive to keep first; one per face (copies are alike)."""
    jokers_ok = rules.options.joker_discard_allowed and rules.options.joker_final_discard_allowed
    seen: set[Face] = set()
    order: list[Card] = []
    for card in cards:
        if card == taken or (card.is_joker and not jokers_ok) or card.face in seen:
            continue
        seen.add(card.face)
        order.append(card)
    price = penalty_value if rules.is_atlas else basic_value
    return sorted(order, key=lambda c: -price(c))


# ---------------------------------------------------------------------------------------------
# Single-card hints


def extension_targets(card: Card, table: Sequence[Meld], rules: Rules) -> list[int]:
    """Indexes of the table melds that ``card`` alone can be laid off on."""
    return layoff_targets([card], table, rules)


def layoff_targets(cards: Sequence[Card], table: Sequence[Meld], rules: Rules) -> list[int]:
    """Indexes of the table melds that ``cards``, all together, can be laid off on."""
    return [i for i, meld in enumerate(table) if can_extend(meld, cards, rules)]


def swap_targets(card: Card, table: Sequence[Meld]) -> list[int]:
    """Indexes of the table melds where ``card`` would free a joker (RULES.md §1.6)."""
    return [i for i, meld in enumerate(table) if swap_target(meld, card) is not None]

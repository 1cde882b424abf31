"""The table as the camera sees it: melds per seat in table order, the open discard pile, the stock.

:class:`TableState` has exactly the shape of the judge's turn-check JSON::

    {"melds": {"0": ["5S 6S 7S", "3D 3D 3D"], "2": ["9S 10S JS"]},
     "discard": "6C 7H QS 6H 4S", "stock": 40}

``melds`` maps a seat (0-based, clockwise) to its groups, each in table order (a group may be
text or a list of card tokens); ``discard`` runs bottom to top; ``stock`` (optional) counts the
face-down cards. Each meld also carries what the camera cannot see but the history knows:
whether it was laid whole in one turn with nothing added since (suited-group bonus), and the
most jokers it — with any sequence joined into it — ever held (joins). A state read from JSON
assumes the kind reading: laid whole, and no more jokers than it holds now.

:class:`TableHistory` keeps the states of a deal turn by turn, so these facts carry over.
:class:`TurnVerdict` is the answer of a family's turn check about one change of the table
(Open Rummy's is :mod:`engine.families.open_rummy.turn_checks`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engine.cards import Card, parse_card
from engine.errors import DeckError, NotationError, TableStateError
from engine.notation import split_groups


@dataclass(frozen=True, slots=True)
class TableMeld:
    """One group in front of a seat, cards in table order."""

    cards: tuple[Card, ...]
    laid_whole: bool = True
    peak_jokers: int | None = None  # None: never more than it holds now

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)


@lru_cache(maxsize=512)
def _card(token: str) -> Card:
    """Cards are immutable values, so a token read once need not be read again."""
    return parse_card(token)


@lru_cache(maxsize=4096)
def _group_text(text: str) -> tuple[Card, ...]:
    """One group written as text; the same text on the table turn after turn is read once."""
    return tuple(_card(t) for g in split_groups(text) for t in g)


@lru_cache(maxsize=128)
def _card_of(rank: int, suit: str) -> Card:
    return Card(rank, suit)


def _cards_of(value: Any, where: str) -> tuple[Card, ...]:
    if isinstance(value, str) and "|" not in value:
        try:
            return _group_text(value)
        except NotationError as exc:
            raise NotationError(f"{where}: {exc}") from None
    if isinstance(value, str):
        if "|" in value:
            raise TableStateError(f"{where}: one group per entry, no '|' inside a group: {value!r}")
        groups = split_groups(value)
        tokens = [t for g in groups for t in g]
    elif isinstance(value, list | tuple) and all(isinstance(t, str) for t in value):
        tokens = [t.strip() for t in value]
    else:
        raise TableStateError(f"{where}: expected cards as text or a list of card tokens, got {value!r}")
    try:
        return tuple(_card(t) for t in tokens)
    except NotationError as exc:
        raise NotationError(f"{where}: {exc}") from None


def _seat(key: Any, players: int, where: str) -> int:
    text = str(key).strip() if isinstance(key, str | int) and not isinstance(key, bool) else None
    if text is None or not (text.isascii() and text.isdigit()) or len(text) > 3:
        raise TableStateError(f"{where}: seat {str(key)[:12]!r} is not a seat number")
    seat = int(text)
    if seat >= players:
        raise TableStateError(f"{where}: seat {seat} does not exist: a {players}-player game has seats 0-{players - 1}")
    return seat


@dataclass(frozen=True)
class TableState:
    """Everything on the table between two turns."""

    melds: Mapping[int, tuple[TableMeld, ...]] = field(default_factory=dict)
    discard: tuple[Card, ...] = ()
    stock: int | None = None

    # --- reading and writing the judge JSON -------------------------------------------

    @classmethod
    def from_json(cls, data: Mapping[str, Any], players: int, name: str = "table state") -> TableState:
        """Read a state; raise :class:`TableStateError` or :class:`NotationError` naming the fault."""
        if not isinstance(data, Mapping):
            raise TableStateError(f"{name} must be a JSON object")
        raw = data.get("melds") or {}
        if not isinstance(raw, Mapping):
            raise TableStateError(f"{name}: melds must map seats to lists of groups")
        melds: dict[int, tuple[TableMeld, ...]] = {}
        for key, groups in raw.items():
            seat = _seat(key, players, f"{name} melds")
            if seat in melds:
                raise TableStateError(f"{name} melds: seat {seat} is given twice")
            if isinstance(groups, str):  # one text in the hand notation: groups split by '|'
                groups = [g for g in groups.split("|") if g.strip()]
            if not isinstance(groups, list | tuple):
                raise TableStateError(f"{name} melds: seat {seat} must hold a list of groups")
            metas = []
            for g in groups:
                cards = _cards_of(g, f"{name} melds of seat {seat}")
                if not cards:
                    raise TableStateError(f"{name} melds of seat {seat}: an empty group")
                metas.append(TableMeld(cards))
            if metas:
                melds[seat] = tuple(metas)
        pile = data.get("discard")
        discard = () if pile in (None, "") else _cards_of(pile, f"{name} discard")
        stock = data.get("stock")
        if stock is not None and (isinstance(stock, bool) or not isinstance(stock, int) or stock < 0):
            raise TableStateError(f"{name}: stock must be a count of cards, got {stock!r}")
        return cls(melds, discard, stock)

    @classmethod
    def of(cls, melds: Mapping[int, Iterable[str]], discard: str = "", stock: int | None = None,
           players: int = 4) -> TableState:
        """Build a state from notation, for tests and tools."""
        return cls.from_json({"melds": {str(s): list(g) for s, g in melds.items()},
                              "discard": discard, "stock": stock}, players)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "melds": {str(s): [str(m) for m in ms] for s, ms in sorted(self.melds.items()) if ms},
            "discard": " ".join(str(c) for c in self.discard),
        }
        if self.stock is not None:
            out["stock"] = self.stock
        return out

    def with_history(self, known: TableState | None) -> TableState:
        """This reading, with what ``known`` (an earlier table, turns unchecked between them)
        knew of its melds: a meld that holds one of the same seat's known melds keeps that
        meld's history (laid whole only if it still is the same cards, its jokers' peak),
        and one that grew since was not laid whole. Melds new since are taken as laid whole."""
        if known is None:
            return self
        melds: dict[int, tuple[TableMeld, ...]] = {}
        for seat, ms in self.melds.items():
            left = list(known.seat_melds(seat))
            out = []
            for m in ms:
                have = Counter(m.cards)
                old = next((k for k in left if not Counter(k.cards) - have), None)
                if old is None:
                    out.append(m)
                    continue
                left.remove(old)
                same = Counter(old.cards) == have
                jokers = sum(1 for c in m.cards if c.is_joker)
                peak = max(old.peak_jokers if old.peak_jokers is not None else 0, jokers)
                out.append(TableMeld(m.cards, old.laid_whole and same, peak if peak > jokers else None))
            melds[seat] = tuple(out)
        return TableState(melds, self.discard, self.stock)

    # --- questions ---------------------------------------------------------------------

    def seat_melds(self, seat: int) -> tuple[TableMeld, ...]:
        return self.melds.get(seat, ())

    def laid_cards(self) -> Iterator[Card]:
        for ms in self.melds.values():
            for m in ms:
                yield from m.cards

    def visible_cards(self) -> Counter[Card]:
        seen = Counter(self.laid_cards())
        seen.update(self.discard)
        return seen

    def card_count(self) -> int:
        """How many cards lie face up: in melds and on the discard pile."""
        return sum(len(m.cards) for ms in self.melds.values() for m in ms) + len(self.discard)

    def check_copies(self, allowed: Callable[[Card], int], name: str = "table state") -> None:
        """Raise :class:`DeckError` for a card seen more often than the decks hold."""
        # Count by (rank, suit), which hashes in C, and build one card per kind seen: a
        # late-game table of some 200 cards then costs little to check.
        seen: Counter[tuple[int, str]] = Counter((c.rank, c.suit) for c in self.laid_cards())
        seen.update((c.rank, c.suit) for c in self.discard)
        for (rank, suit), n in seen.items():
            card = _card_of(rank, suit)
            limit = allowed(card)
            if n > limit:
                raise DeckError(f"{name}: too many copies of {card}: {n} on the table, the decks hold {limit}")

    def same_table(self, other: TableState) -> bool:
        """The same cards in the same places (flags aside)."""
        mine = {s: Counter(m.cards for m in ms) for s, ms in self.melds.items() if ms}
        theirs = {s: Counter(m.cards for m in ms) for s, ms in other.melds.items() if ms}
        return mine == theirs and self.discard == other.discard and self.stock == other.stock


@dataclass(frozen=True)
class TableHistory:
    """The states of one deal in order, each with the seat whose turn produced it (None: the deal)."""

    states: tuple[TableState, ...]
    seats: tuple[int | None, ...]

    @classmethod
    def start(cls, state: TableState) -> TableHistory:
        return cls((state,), (None,))

    @property
    def current(self) -> TableState:
        return self.states[-1]

    def record(self, seat: int, state: TableState) -> TableHistory:
        return TableHistory(self.states + (state,), self.seats + (seat,))

    def __len__(self) -> int:
        return len(self.states)


def require_seat(seat: int, players: int) -> None:
    if not 0 <= seat < players:
        raise TableStateError(f"seat {seat} does not exist: a {players}-player game has seats 0-{players - 1}")


@dataclass(frozen=True)
class TurnVerdict:
    """The answer about one turn, with the reading it rests on."""

    valid: bool
    reason: str
    violations: tuple[str, ...]
    draw: str  # "stock", "discard pile", "none" or "ground show"
    taken: tuple[Card, ...] = ()
    discard: Card | None = None
    killed: bool = False
    played: tuple[Card, ...] = ()
    returned: tuple[Card, ...] = ()
    actions: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    after: TableState | None = field(default=None, compare=False)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"draw": self.draw, "taken": [str(c) for c in self.taken],
                               "played": [str(c) for c in self.played],
                               "discard": None if self.discard is None else str(self.discard)}
        if self.killed:
            out["killed_pile"] = True
        if self.returned:
            out["to_hand"] = [str(c) for c in self.returned]
        if self.notes:
            out["assumed"] = list(self.notes)
        return out

"""What every variant is: fixed game data plus the judge questions it answers.

A variant is a frozen description (players, decks, deal sizes, meld rules, card values,
options) with a few hook methods. Families subclass :class:`Variant` once (in their package
under ``engine/families/``); each game of the family is then one instance declared as data, and
the subclass names the family's live-game policy (:attr:`Variant.policy`).
``engine.variants.find(id)`` looks one up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from engine.cards import Card
from engine.errors import DeckError, UnsupportedModeError
from engine.notation import check_copies, parse_hand, parse_tiles
from engine.options import OptionKind
from engine.ruling import Ruling
from engine.tiles import Tile

if TYPE_CHECKING:
    from engine.game.claims import ClaimRules
    from engine.game.policy import FamilyPolicy

Item = Card | Tile
#: A hand or table parsed into the variant's cards or tiles, group by group (the notation's
#: texts are :data:`engine.cards.Groups`).
ItemGroups = list[list[Item]]
MODES = ("declare", "count", "best", "contract", "meld", "turn")


@dataclass(frozen=True)
class JudgeRequest:
    """One question to the judge, already parsed. ``options`` holds house-rule switches."""

    mode: str
    groups: ItemGroups = field(default_factory=list)
    wild: Card | None = None
    deal: int | None = None
    decks: int | None = None
    players: int | None = None
    seat: int | None = None
    before: Mapping[str, Any] | None = None
    after: Mapping[str, Any] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def items(self) -> list[Item]:
        return [c for g in self.groups for c in g]


@dataclass(frozen=True)
class Variant:
    """Base of every variant. Subclasses add their data fields and override the modes they answer."""

    id: str
    name: str
    summary: str
    min_players: int
    max_players: int
    decks: int
    jokers: int
    cards_dealt: int | str
    deals: int | str
    family: ClassVar[str] = ""
    uses_tiles: ClassVar[bool] = False
    modes: ClassVar[tuple[str, ...]] = ()
    #: The house rules the family reads (its judge's switches and the table's own), by key.
    house_options: ClassVar[Mapping[str, OptionKind]] = {}

    @property
    def pieces(self) -> str:
        """What the game is played with: ``tiles`` or ``cards`` (what a camera looks for)."""
        return "tiles" if self.uses_tiles else "cards"

    def table_options(self) -> Mapping[str, OptionKind]:
        """The house rules a table may set for this game (a family may add per-game ones)."""
        return self.house_options

    def setup_problem(self, players: int, options: Mapping[str, Any]) -> str | None:
        """Why this game cannot start with ``players`` and these house rules together, in the
        players' words (None: it can): a house rule the text allows only with some numbers of
        players is refused at setup rather than ignored."""
        return None

    # --- input -------------------------------------------------------------------------

    def parse(self, text: str) -> ItemGroups:
        groups: ItemGroups = [list(g) for g in (parse_tiles(text) if self.uses_tiles else parse_hand(text))]
        return groups

    def decks_for(self, request: JudgeRequest) -> int:
        return request.decks or self.decks

    def jokers_for(self, request: JudgeRequest) -> int:
        return self.jokers

    def copies_allowed(self, request: JudgeRequest) -> Counter[Item]:
        """How many of each card the variant's decks hold (for 'too many copies' errors)."""
        decks = self.decks_for(request)
        allowed: Counter[Item] = Counter()
        for item in self.full_set(decks, self.jokers_for(request)):
            allowed[item] += 1
        return allowed

    def full_set(self, decks: int, jokers: int) -> list[Item]:
        from engine.cards import full_deck

        return list(full_deck(decks, jokers))

    def validate(self, request: JudgeRequest) -> None:
        """Raise a specific error for input the variant cannot judge."""
        if request.mode not in self.modes:
            raise UnsupportedModeError(f"mode {request.mode!r} is not supported for {self.id}")
        items = request.items
        if items:
            allowed = self.copies_allowed(request)
            check_copies(items, lambda i: allowed[i])

    # --- at the table ------------------------------------------------------------------

    @property
    def policy(self) -> FamilyPolicy:
        """How the game is played out at the table (scoring a deal, drops, the game's end):
        each family's variants name their family's policy."""
        raise NotImplementedError(f"{self.id} names no live-game policy")

    @property
    def partnerships(self) -> bool:
        """Is the game played by two teams of partners sitting alternately?"""
        return False

    @property
    def claim_rules(self) -> ClaimRules | None:
        """The claims of the upcard out of turn the game allows at the table ("May I",
        buying, calling...); None: a press out of turn is no claim."""
        return None

    def table_claim_rules(self, options: Mapping[str, Any]) -> ClaimRules | None:
        """The claims a table with house rules ``options`` plays by: by default
        :attr:`claim_rules` whatever the options."""
        return self.claim_rules

    # --- answers -----------------------------------------------------------------------

    def judge(self, request: JudgeRequest) -> Ruling:
        self.validate(request)
        handler = getattr(self, f"judge_{request.mode}", None)
        if handler is None:
            raise UnsupportedModeError(f"mode {request.mode!r} is not supported for {self.id}")
        ruling: Ruling = handler(request)
        return ruling

    def describe(self) -> dict[str, Any]:
        """Facts for ``tablekit variants``."""
        players = (f"{self.min_players}" if self.min_players == self.max_players
                   else f"{self.min_players}-{self.max_players}")
        return {"id": self.id, "family": self.family, "name": self.name, "players": players,
                "decks": self.decks, "jokers": self.jokers, "cards_dealt": self.cards_dealt,
                "deals": self.deals, "summary": self.summary}


def require_count(items: Sequence[Item], count: int, what: str) -> None:
    if len(items) != count:
        raise DeckError(f"{what} needs exactly {count} cards, got {len(items)}")

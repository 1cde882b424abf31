"""The contract-rummy family: one engine class, each game one declarative definition.

A :class:`ContractVariant` is data: who plays with how many decks and jokers
(:class:`Packs`), which cards are wild, what melds look like (:class:`MeldStyle`), each deal's
cards and contract (:class:`Deal`), what cards cost (:class:`CardValues`), the table actions
the game allows (:class:`TableRules`) and how a game is scored (:class:`Scoring`). The games
themselves are declared in :mod:`engine.families.contract.games`.

Judge modes: ``count`` (penalty of the cards given; option ``bent_table`` doubles it where the
game says so), ``meld`` (each group a valid meld; contract games do not score melds, so 0),
``contract`` (do the groups meet deal N's first meld; points are their melding value, a wild
card counting as the card it stands for).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from engine.cards import Card
from engine.errors import DeckError, GameSetupError, UnsupportedModeError
from engine.families.contract.contracts import (
    Contract,
    GoingOut,
    MeldStyle,
    Need,
    Reading,
    meet,
    melding_value,
    on_the_table,
    pieces_of,
    read_meld,
    repeats,
)
from engine.families.contract.policy import (
    STOCK_OUTS,
    PartnershipPenaltyPolicy,
    PenaltyPolicy,
    StockOut,
)
from engine.game.seats import CLOCKWISE, Direction, step_of
from engine.options import SWITCH, OptionKind
from engine.ruling import GroupRuling, Ruling
from engine.variants.base import Item, JudgeRequest, Variant

if TYPE_CHECKING:
    from engine.game.claims import ClaimRules

#: How contract games are played out at the table, alone or by two teams, one policy for
#: each way an empty stock is handled (what the table's menu offers differs).
PENALTY_POLICIES: dict[StockOut, PenaltyPolicy] = {way: PenaltyPolicy(way) for way in STOCK_OUTS}
PARTNERSHIP_PENALTY_POLICIES: dict[StockOut, PenaltyPolicy] = {
    way: PartnershipPenaltyPolicy(way) for way in STOCK_OUTS}
PENALTY_POLICY = PENALTY_POLICIES["reshuffle"]
PARTNERSHIP_PENALTY_POLICY = PARTNERSHIP_PENALTY_POLICIES["ends-deal"]


@dataclass(frozen=True, slots=True)
class Packs:
    """Decks and jokers for some player counts; ``jokers=None`` means one fewer than players."""

    players: tuple[int, ...]
    decks: int
    jokers: int | None = None

    def jokers_for(self, players: int) -> int:
        return players - 1 if self.jokers is None else self.jokers


@dataclass(frozen=True, slots=True)
class CardValues:
    """What a card left in hand costs (and, for melding, what a natural card is worth).

    ``court`` is J Q K (one value, or three); ``ten`` and ``pips`` (2–9) default to face value;
    ``two`` overrides the two; ``wild`` is the cost of any wild card that is not a printed joker
    (wild twos, red aces); ``red_ace`` a red ace's cost; ``overrides`` (rank, value) pairs.
    """

    joker: int
    ace: int
    court: int | tuple[int, int, int] = 10
    ten: int | None = None
    pips: int | None = None
    two: int | None = None
    red_ace: int | None = None
    wild: int | None = None
    overrides: tuple[tuple[int, int], ...] = ()

    def rank_value(self, rank: int) -> int:
        """A natural card of ``rank``'s value (aces at the black-ace value)."""
        for r, v in self.overrides:
            if r == rank:
                return v
        if rank == 1:
            return self.ace
        if rank >= 11:
            return self.court if isinstance(self.court, int) else self.court[rank - 11]
        if rank == 10:
            return 10 if self.ten is None else self.ten
        if rank == 2 and self.two is not None:
            return self.two
        return rank if self.pips is None else self.pips

    def stand_value(self, rank: int, suit: str) -> int:
        """What a card of ``rank`` and ``suit`` is worth in a meld (a red ace at its own value,
        where the chart gives it one; a wild counts as the card it stands for)."""
        if rank == 1 and suit in ("H", "D") and self.red_ace is not None:
            return self.red_ace
        return self.rank_value(rank)

    def penalty(self, card: Card, wild: bool) -> int:
        if card.is_joker:
            return self.joker
        if wild and self.wild is not None:
            return self.wild
        if card.rank == 1 and card.is_red and self.red_ace is not None:
            return self.red_ace
        return self.rank_value(card.rank)


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal of the game: cards dealt to each player and the first-meld contract."""

    cards: int
    contract: Contract


@dataclass(frozen=True, slots=True)
class Claim:
    """Taking the discard out of turn ("May I", buying, calling, claiming, cutting in).

    ``limit`` is per deal (a tuple gives it deal by deal); ``tokens``: chips each player holds,
    one spent per claim; ``refusable``: the player whose turn it is may refuse until he has
    melded; ``ties``: who wins when several claim at once.
    """

    name: str
    penalty_cards: int = 1
    limit: int | tuple[int, ...] | None = None
    ties: Literal["nearest", "first"] = "nearest"
    tokens: int | None = None
    before_melding_only: bool = False
    refusable: bool = False
    #: The text gives the claim as an optional rule: a table plays it only when its house
    #: rule ``cut_ins`` is on (Dummy Rummy's cut-ins).
    optional: bool = False

    def limit_for(self, deal: int) -> int | None:
        if isinstance(self.limit, tuple):
            return self.limit[min(deal, len(self.limit)) - 1]
        return self.limit


@dataclass(frozen=True, slots=True)
class JokerSwap:
    """Taking a wild card off the table by putting the card it stands for in its place.

    ``when``: ``after-contract`` (on one's turn, once one's contract is down), ``on-turn`` (any
    turn), ``at-once`` (any player, the moment a joker is melded), ``never``.
    ``jokers_only``: wild twos or red aces cannot be taken. ``set_cards``: natural cards needed
    to free a wild from a group. ``replay``: the freed wild must be played in the same turn.
    ``run_wild``: a wild in a sequence is ``fixed``, may move to either ``ends``, move once
    (``ends-once``), or move ``anywhere`` it still makes a sequence.
    """

    when: Literal["after-contract", "on-turn", "at-once", "never"] = "after-contract"
    jokers_only: bool = False
    set_cards: int = 1
    replay: bool = False
    run_wild: Literal["fixed", "ends", "ends-once", "anywhere"] = "fixed"


@dataclass(frozen=True, slots=True)
class TableRules:
    """Table actions a game flow enforces. ``going_out`` is the default for every deal.

    ``direction``: the way turns go round the table; ``first_turn``: who plays first, the next
    seat from the dealer that way (``next``) or the dealer's ``left`` or ``right`` neighbour
    whatever the direction (Loba's text: the dealer's left starts, then play goes
    counter-clockwise); ``deal_passes``: the way the deal moves after each deal (None: as turns).
    ``stock_out``: what an empty stock does to the deal: the discards are shuffled into a new
    stock (``reshuffle``: nothing for the table to do), the deal ends and every hand counts
    (``ends-deal``), or the second time in a deal the deal is void and dealt again by the same
    dealer (``void-second``).
    """

    claim: Claim | None = None
    swap: JokerSwap = field(default_factory=JokerSwap)
    lay_off: Literal["after-contract", "next-turn", "never"] = "after-contract"
    new_melds: Literal["any", "none", "one-per-turn", "contract-only"] = "any"
    going_out: GoingOut = "discard-or-meld"
    draw_after_contract: Literal["either", "stock-only"] = "either"
    discard_wild: bool = True
    pushing: bool = False
    #: The text offers the floating discard as a house rule (option ``floating``): a discard
    #: that would extend a meld on the table can be called out, and a player may play their
    #: last card to a meld and float with no card in hand (Dummy Rummy).
    floating: bool = False
    #: The text offers a face-up dummy hand, dealt when fewer than ``dummy_below`` play, as a
    #: house rule (option ``dummy_hand``); it takes no part in play (Dummy Rummy).
    dummy_hand: bool = False
    dummy_below: int = 4
    direction: Direction = CLOCKWISE
    first_turn: Literal["next", "left", "right"] = "next"
    deal_passes: Direction | None = None
    stock_out: StockOut = "reshuffle"
    #: An upcard is turned at the deal (Jo: none, so nothing can be claimed on the first turn).
    upcard_at_deal: bool = True
    #: The deal's upcard is offered round the table; who takes it plays first (American Jokers).
    upcard_offer: bool = False
    #: The player who cut may earn one more chip at the cut (Telefunken's eighth).
    cut_chip: bool = False
    #: Deals that open with a redraw: cards swapped for fresh ones before the first turn.
    redraw_deals: tuple[int, ...] = ()
    #: Each player works through the contracts at their own pace (Dummy Rummy's goals).
    personal_goals: bool = False
    notes: tuple[str, ...] = ()

    @property
    def live(self) -> bool:
        """Does the game keep a record of its own live rules during a deal?"""
        return (self.upcard_offer or self.personal_goals or self.pushing or self.cut_chip
                or self.floating or self.swap.when == "at-once")


@dataclass(frozen=True, slots=True)
class Scoring:
    """How a deal's penalties add up to a game.

    ``winner``: ``lowest`` (the losers pay what they hold, the lowest total wins) or
    ``highest`` (Jo: the deal's winner collects what the others hold, the highest total wins).
    ``one_turn_bonus``: added to the deal winner's total when the whole hand went down in one
    turn (Kalooki 40's Hunt: -40). ``eliminate_at``: a total that puts a player out of the
    game (reached or passed); the last player left wins.
    """

    winner: Literal["lowest", "highest"] = "lowest"
    bent_table_doubles: bool = False
    one_turn_bonus: int = 0
    eliminate_at: int | None = None
    partnerships: bool = False

    @property
    def lower_wins(self) -> bool:
        return self.winner == "lowest"

    def deal_points(self, winner: int | None, counts: Mapping[int, int | Fraction],
                    one_turn: bool) -> dict[int, int | Fraction]:
        """Each seat's points for a deal from what the others hold (``counts``: seat -> cards
        left, every seat that played). The winner pays nothing (or takes the one-turn bonus
        when ``one_turn``; a one-turn win doubles the others' cards where a bent table
        does); where the highest total wins, the winner collects the others' cards
        and they score nothing."""
        if self.lower_wins:
            points = {s: (0 if s == winner else c) for s, c in counts.items()}
        else:
            collected = sum(c for s, c in counts.items() if s != winner)
            points = {s: (collected if s == winner else 0) for s in counts}
        if winner is not None and one_turn and self.bent_table_doubles:  # the table was bent
            points = {s: (p if s == winner else 2 * p) for s, p in points.items()}
        if winner is not None and one_turn and self.one_turn_bonus:
            points[winner] = points[winner] + self.one_turn_bonus
        return points

    def eliminated(self, running: Sequence[int | Fraction]) -> bool:
        """Is a player whose total went through ``running`` (after each deal) out of the game?"""
        limit = self.eliminate_at
        return limit is not None and any(t >= limit for t in running)


@dataclass(frozen=True)
class ContractVariant(Variant):
    """One contract-rummy game, declared as data."""

    packs: tuple[Packs, ...] = ()
    wild_cards: frozenset[str] = frozenset({"joker"})
    style: MeldStyle = field(default_factory=lambda: MeldStyle(None, None))
    values: CardValues = field(default_factory=lambda: CardValues(joker=15, ace=15))
    meld_values: CardValues | None = None
    deal_list: tuple[Deal, ...] = ()
    opening: Contract | None = None
    table: TableRules = field(default_factory=TableRules)
    scoring: Scoring = field(default_factory=Scoring)
    short_hands: tuple[tuple[int, int], ...] = ()
    rulings: tuple[str, ...] = ()
    family: ClassVar[str] = "contract"
    house_options: ClassVar[Mapping[str, OptionKind]] = {
        # every card left in hand counts in these games: a hand is counted as laid out, and
        # "best" (the Indian games' best arrangement) has no meaning here; the key stays so
        # that a game journaled with it still opens
        "same_suit_runs": SWITCH, "bent_table": SWITCH, "count": OptionKind("choice", choices=("arranged",))}
    modes: ClassVar[tuple[str, ...]] = ("count", "meld", "contract")

    # --- at the table ------------------------------------------------------------------

    @property
    def policy(self) -> PenaltyPolicy:
        """Losers pay what they hold; in a partnership game (Push) partners pay as one team.
        The policy also carries what an empty stock does (``table.stock_out``)."""
        policies = PARTNERSHIP_PENALTY_POLICIES if self.partnerships else PENALTY_POLICIES
        return policies[self.table.stock_out]

    @property
    def claim_rules(self) -> ClaimRules | None:
        """The claims of the game's data (``table.claim``), as the table enforces them."""
        from engine.families.contract.claims import from_claim

        claim = self.table.claim
        if claim is None:
            return None
        return replace(from_claim(claim), first_upcard=self.table.upcard_at_deal)

    def table_claim_rules(self, options: Mapping[str, Any]) -> ClaimRules | None:
        """An optional claim (Dummy Rummy's cut-ins) is played only with ``cut_ins`` on."""
        claim = self.table.claim
        if claim is not None and claim.optional and not options.get("cut_ins"):
            return None
        return self.claim_rules

    def table_options(self) -> Mapping[str, OptionKind]:
        """A game whose claim is optional also takes the house rule ``cut_ins``; one whose
        text offers them, ``floating`` and ``dummy_hand``. ``bent_table`` is the judge's, for
        one hand: at the table a deal won in one turn doubles the others' cards by itself."""
        claim = self.table.claim
        extra = {key: SWITCH for key, on in (("cut_ins", claim is not None and claim.optional),
                                              ("floating", self.table.floating),
                                              ("dummy_hand", self.table.dummy_hand)) if on}
        return {**{k: v for k, v in self.house_options.items() if k != "bent_table"}, **extra}

    def setup_problem(self, players: int, options: Mapping[str, Any]) -> str | None:
        """Dummy Rummy's dummy hand is dealt only when fewer than ``dummy_below`` play: asked
        for at a fuller table it would silently not be dealt, so it is refused."""
        table = self.table
        if table.dummy_hand and options.get("dummy_hand") and players >= table.dummy_below:
            fewest = table.dummy_below - 1
            return (f"{self.name}'s dummy hand is dealt only when {fewest} or fewer play, not {players}: "
                    "leave out dummy_hand or seat fewer players")
        return None

    def turn_step(self) -> int:
        return step_of(self.table.direction)

    def deal_step(self) -> int:
        return step_of(self.table.deal_passes or self.table.direction)

    @property
    def partnerships(self) -> bool:
        return self.scoring.partnerships

    # --- setup -------------------------------------------------------------------------

    def is_wild(self, card: Card) -> bool:
        if card.is_joker:
            return True
        if "two" in self.wild_cards and card.rank == 2:
            return True
        return "red-ace" in self.wild_cards and card.rank == 1 and card.is_red

    def packs_for(self, players: int) -> Packs:
        if not self.min_players <= players <= self.max_players:
            seats = (f"{self.min_players}" if self.min_players == self.max_players
                     else f"{self.min_players} to {self.max_players}")
            raise GameSetupError(f"{self.name} is for {seats} players, not {players}")
        for p in self.packs:
            if players in p.players:
                return p
        raise GameSetupError(f"{self.name} gives no deck size for {players} players")

    def decks_for(self, request: JudgeRequest) -> int:
        if request.decks:
            return request.decks
        if request.players:
            return self.packs_for(request.players).decks
        return self.decks

    def jokers_for(self, request: JudgeRequest) -> int:
        """Jokers in play: two a deck where the text says so, else by players, else the most
        any table with these decks uses (so a hand is never refused for a joker it may hold)."""
        decks = self.decks_for(request)
        if self.packs and all(p.jokers is not None and p.jokers == 2 * p.decks for p in self.packs):
            return 2 * decks
        if request.players:
            return self.packs_for(request.players).jokers_for(request.players)
        same = [p.jokers_for(n) for p in self.packs if p.decks == decks for n in p.players]
        return max(same) if same else self.jokers

    def cards_for(self, deal: int, players: int | None = None) -> int:
        """Cards dealt to each player in ``deal`` (some games deal fewer to a full table)."""
        cards = self.deal_list[deal - 1].cards if self.deal_list else int(str(self.cards_dealt).split()[0])
        for seats, fewer in self.short_hands:
            if players is not None and players >= seats:
                cards = fewer
        return cards

    def deal(self, number: int | None) -> Deal | None:
        """Deal ``number``'s data; None for games whose every deal has the same first meld."""
        if not self.deal_list:
            return None
        if number is None:
            raise UnsupportedModeError(
                f"contract mode needs --deal N for {self.id} (deals 1 to {len(self.deal_list)})")
        if not 1 <= number <= len(self.deal_list):
            raise GameSetupError(
                f"{self.id} has deals 1 to {len(self.deal_list)}; there is no deal {number}")
        return self.deal_list[number - 1]

    def contract_for(self, number: int | None) -> Contract:
        deal = self.deal(number)
        if deal is not None:
            return deal.contract
        assert self.opening is not None, f"{self.id} declares neither deals nor an opening"
        return self.opening

    def going_out(self, number: int) -> GoingOut:
        terms = self.contract_for(number)
        return terms.going_out if terms.going_out != "discard-or-meld" else self.table.going_out

    def validate(self, request: JudgeRequest) -> None:
        if request.players:
            self.packs_for(request.players)
        if request.deal is not None and self.deal_list:
            self.deal(request.deal)
        super().validate(request)

    # --- modes -------------------------------------------------------------------------

    def style_for(self, request: JudgeRequest) -> MeldStyle:
        """The meld style, with house options applied (``same_suit_runs``)."""
        style = self.style
        if request.options.get("same_suit_runs") and style.sequence is not None:
            style = replace(style, sequence=replace(style.sequence, same_suit=True))
        return style

    def _read(self, group: Sequence[Item], style: MeldStyle) -> Reading:
        return read_meld(pieces_of(_cards(group), self.is_wild), style)

    def judge_count(self, request: JudgeRequest) -> Ruling:
        double = bool(request.options.get("bent_table")) and self.scoring.bent_table_doubles
        factor = 2 if double else 1
        groups = []
        total = 0
        for group in request.groups:
            cards = _cards(group)
            pts = factor * sum(self.values.penalty(c, self.is_wild(c)) for c in cards)
            total += pts
            groups.append(GroupRuling(tuple(cards), self._read(cards, self.style_for(request)).kind, pts, 0))
        reason = "every card left in hand counts"
        if double:
            reason += ", doubled: the winner bent the table"
        return Ruling(True, total, tuple(groups), reason)

    def judge_meld(self, request: JudgeRequest) -> Ruling:
        rulings = []
        going_down = self.style_for(request)
        style = on_the_table(going_down)
        for group in request.groups:
            r = self._read(group, style)
            short = self._short_of_naturals(group, r, going_down)
            rulings.append(GroupRuling(tuple(group), "invalid" if short else r.kind, 0, 0, short or r.reason))
        bad = [g for g in rulings if not g.valid]
        reason = ("every group is a valid meld" if not bad else
                  f"{len(bad)} group(s) are not melds: " + "; ".join(g.reason for g in bad))
        return Ruling(not bad, 0, tuple(rulings), reason)

    def _short_of_naturals(self, group: Sequence[Item], reading: Reading, going_down: MeldStyle) -> str:
        """Why a meld cannot lie on the table in a game where every meld goes down with the
        contract ("" when it can): it keeps the naturals its going-down size and wild cap
        left it (a Loba trio went down as 3 with one joker at most: 2 naturals)."""
        if not reading.valid or self.table.new_melds != "contract-only":
            return ""
        run = reading.kind == "sequence"
        rule = going_down.sequence if run else going_down.group
        if rule is None:
            return ""
        size = (getattr(rule, "exact_len", None) if run else getattr(rule, "exact_size", None)) or (
            rule.min_len if run else rule.min_size)  # type: ignore[union-attr]
        cap = going_down.initial_cap(Need("sequence" if run else "group", size))
        naturals = sum(1 for c in _cards(group) if not self.is_wild(c))
        if cap is None or naturals >= size - cap:
            return ""
        noun = going_down.noun("sequence" if run else "group")
        article = "an" if noun[0] in "aeiou" else "a"
        return (f"{article} {noun} goes down as {size} cards with at most {cap} wild, so it holds at least "
                f"{size - cap} natural cards, not {naturals}")

    def zone_clash(self, request: JudgeRequest) -> str | None:
        """Why one player's melds may not all lie together (None: they may): in the games
        where a player lays at most one group of a rank and one sequence of a suit in a deal
        (Caribbean Kalooki), checked across everything in the declarer's zone."""
        style = self.style_for(request)
        if not style.one_per_rank_and_suit:
            return None
        table = on_the_table(style)
        return repeats([self._read(group, table) for group in request.groups])

    def met_as_grown(self, request: JudgeRequest) -> bool:
        """Whether ``request``'s groups are the deal's contract as it may lie at the end of
        the deal. What the texts fix only for going down grows with lay-offs: exact sizes
        (Loba's trios of exactly 3, South African Kaluki's and Telefunken's exact contracts), a
        pure group, the wild cards allowed in the first meld (Shanghai's chart, one joker in
        all): so the melds are read as on the table, where each contract meld still holds the
        naturals its going-down size and wild cap left it, and a pure group its suits. A deal
        that takes the whole hand at once ends as it goes down: nothing of it grows."""
        going_down = self.style_for(request)
        terms = self.contract_for(request.deal)
        if not _fixed_for_going_down(going_down, terms):
            return False  # nothing is fixed only for going down: nothing grows out of its rule
        if terms.one_turn or terms.exact_cards is not None:
            return False  # the whole hand goes down at once: the deal ends before anything grows
        value_table = self.meld_values or self.values
        groups = [_cards(g) for g in request.groups]
        grown = replace(terms, needs=tuple(replace(n, exact=False, pure=False) for n in terms.needs),
                        max_wilds=None, no_wilds=False)
        verdict = meet(groups, grown, replace(on_the_table(going_down), initial_wilds=None),
                       self.is_wild, value_table.stand_value)
        if not verdict.valid:
            return False
        # lay-offs add cards, wild ones too, but take none away
        for cards, reading in zip(verdict.groups, verdict.readings, strict=True):
            floors = [_naturals_floor(need, going_down, terms) for need in terms.needs
                      if need.kind in ("either", "sequence" if reading.kind == "sequence" else "group")]
            # a two standing as itself is natural: the reading says how many are
            naturals = reading.check.naturals if reading.check is not None else \
                sum(1 for c in cards if not self.is_wild(c))
            if floors and naturals < min(floors):
                return False
        # a pure group went down as its size in as many suits: those suits are still there
        pure = [n for n in terms.needs if n.pure]
        if pure and not _pure_groups_fit(verdict, pure, self.is_wild):
            return False
        return True

    def judge_contract(self, request: JudgeRequest) -> Ruling:
        terms = self.contract_for(request.deal)
        value_table = self.meld_values or self.values
        groups = [_cards(g) for g in request.groups]
        verdict = meet(groups, terms, self.style_for(request), self.is_wild, value_table.stand_value)
        rulings = tuple(GroupRuling(tuple(g), r.kind, _value(r, value_table), 0, r.reason)
                        for g, r in zip(verdict.groups, verdict.readings, strict=True))
        where = f"deal {request.deal}" if self.deal_list else "the first meld"
        if verdict.valid:
            reason = f"meets {where}: {verdict.met}"
        else:
            reason = f"does not meet {where} ({verdict.met}): " + "; ".join(verdict.problems)
        return Ruling(verdict.valid, verdict.points, rulings, reason, verdict.problems)

    def describe(self) -> dict[str, Any]:
        row = super().describe()
        decks = sorted({p.decks for p in self.packs})
        jokers = sorted({p.jokers_for(n) for p in self.packs for n in p.players})
        row["decks"] = _span(decks)
        row["jokers"] = _span(jokers)
        row["wild"] = sorted(self.wild_cards)
        return row


def _fixed_for_going_down(style: MeldStyle, terms: Contract) -> bool:
    """Whether anything about the first meld holds only as it goes down (and so may have
    grown out of it by the end of the deal)."""
    seq, group = style.sequence, style.group
    return bool((seq is not None and seq.exact_len) or (group is not None and group.exact_size)
                or style.initial_wilds is not None or terms.max_wilds is not None or terms.no_wilds
                or any(n.exact or n.pure for n in terms.needs))


def _pure_groups_fit(verdict: Any, pure: Sequence[Need], is_wild: Any) -> bool:
    """Whether as many sets as the contract's pure groups each hold natural cards of at least
    the pure group's size in distinct suits (a limpio of 3 went down in three suits)."""
    suits = sorted((len({c.suit for c in cards if not is_wild(c)})
                    for cards, reading in zip(verdict.groups, verdict.readings, strict=True)
                    if reading.kind == "set"), reverse=True)
    sizes = sorted((n.size for n in pure), reverse=True)
    return len(suits) >= len(sizes) and all(have >= want for have, want in zip(suits, sizes, strict=False))


def _naturals_floor(need: Need, style: MeldStyle, terms: Contract) -> int:
    """The natural cards a contract meld went down with at least: its going-down size less
    the wild cards it could hold then."""
    rule = style.sequence if need.kind == "sequence" else style.group
    fixed = (getattr(rule, "exact_len", None) or getattr(rule, "exact_size", None)) if rule else None
    size = max(need.size, fixed or 0)
    if terms.no_wilds or need.pure:
        return size
    caps = [c for c in (style.initial_cap(need), terms.max_wilds) if c is not None]
    return size - min(caps) if caps else 0


def _span(values: Sequence[int]) -> int | str:
    if not values:
        return 0
    return values[0] if values[0] == values[-1] else f"{values[0]}-{values[-1]}"


def _cards(group: Sequence[Item]) -> list[Card]:
    out = []
    for item in group:
        if not isinstance(item, Card):
            raise DeckError(f"contract rummy is played with cards, not tiles ({item})")
        out.append(item)
    return out


def _value(reading: Reading, table: CardValues) -> int:
    return melding_value(reading, table.stand_value)


"""Every contract-rummy game the kit referees, one definition each, in the order of the rule text.

Read a definition beside its rule text: players and packs, wild cards, meld style, one row per
deal (cards dealt, contract in the short notation of :mod:`engine.families.contract.contracts`), card values,
table actions, scoring. A comment marked *Ruling* says where the text was silent or unclear
and what the kit does. To add a house variant, write one more ``game(...)`` (or
``dataclasses.replace`` an existing one) and add it to ``GAMES``.

Contract notation: ``G3`` group of 3+, ``S4`` sequence of 4+, ``=S4`` exactly 4, ``2G3`` two
groups of 3, ``M3`` either kind, ``P3`` a pure group of exactly 3, ``*`` any melds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.families.contract.contracts import Contract, MeldStyle, contract
from engine.families.contract.variants import (
    CardValues,
    Claim,
    ContractVariant,
    Deal,
    JokerSwap,
    Packs,
    Scoring,
    TableRules,
)
from engine.melds import GroupRule, SequenceRule, WildRule

Row = tuple[int, str | Contract]


def deals(*rows: Row) -> tuple[Deal, ...]:
    """Deals from (cards dealt, contract text or Contract) rows, in order."""
    return tuple(Deal(cards, terms if isinstance(terms, Contract) else contract(terms)) for cards, terms in rows)


def game(*, id: str, name: str, summary: str, players: tuple[int, int], packs: Sequence[Packs],
         default_players: int, style: MeldStyle, values: CardValues, deal_rows: Sequence[Deal] = (),
         opening: Contract | None = None, wild: Sequence[str] = ("joker",), table: TableRules | None = None,
         scoring: Scoring | None = None, meld_values: CardValues | None = None,
         cards_dealt: int | str | None = None, deal_count: int | str | None = None,
         short_hands: tuple[tuple[int, int], ...] = (), rulings: Sequence[str] = ()) -> ContractVariant:
    """One game from its facts; decks, jokers, cards dealt and deal count are derived."""
    home = next(p for p in packs if default_players in p.players)
    sizes = sorted({d.cards for d in deal_rows})
    if cards_dealt is None:
        cards_dealt = sizes[0] if len(sizes) == 1 else f"{sizes[0]}-{sizes[-1]}"
    kw: dict[str, Any] = {}
    if table is not None:
        kw["table"] = table
    if scoring is not None:
        kw["scoring"] = scoring
    return ContractVariant(
        id=id, name=name, summary=summary, min_players=players[0], max_players=players[1],
        decks=home.decks, jokers=home.jokers_for(default_players), cards_dealt=cards_dealt,
        deals=deal_count if deal_count is not None else len(deal_rows), packs=tuple(packs),
        wild_cards=frozenset(wild), style=style, values=values, meld_values=meld_values,
        deal_list=tuple(deal_rows), opening=opening, short_hands=short_hands, rulings=tuple(rulings), **kw)


def runs(min_len: int = 4, ace: Any = "either", *, same_suit: bool = True, exact: int | None = None) -> SequenceRule:
    return SequenceRule(min_len=min_len, ace=ace, same_suit=same_suit, exact_len=exact)


def sets(min_size: int = 3, max_size: int | None = None, *, distinct: bool = False, exact: int | None = None) -> GroupRule:
    return GroupRule(min_size=min_size, max_size=max_size, distinct_suits=distinct, exact_size=exact)


def one_turn(text: str, cards: int, going_out: Any = "discard-or-meld", **kw: Any) -> Contract:
    """A deal whose contract goes down with the whole hand in one turn."""
    return contract(text, one_turn=True, min_cards=cards, going_out=going_out, **kw)


# --- standard Contract Rummy and the games that only change it a little -------------------

STANDARD_PACKS = (Packs((3, 4, 5), 2), Packs((6, 7, 8), 3))  # one joker fewer than players
STANDARD_STYLE = MeldStyle(sequence=runs(4), group=sets(3))
STANDARD_VALUES = CardValues(joker=15, ace=15)
MAY_I = Claim("May I", penalty_cards=1, ties="nearest")
STANDARD_DEALS = deals(
    (10, "2G3"),
    (10, "G3 S4"),
    (10, "2S4"),
    (12, "3G3"),
    (12, "2G3 S4"),
    (12, "G3 2S4"),
    # Ruling: "going out with no discard" means the whole hand goes down in that one turn;
    # the judge cannot see the hand, so it asks for at least the cards dealt (12).
    (12, one_turn("3S4", 12, going_out="no-discard")),
)

CONTRACT_RUMMY = game(
    id="contract-rummy", name="Contract Rummy",
    summary="seven deals of 10 then 12 cards; two groups up to three sequences; May I",
    players=(3, 8), packs=STANDARD_PACKS, default_players=4, style=STANDARD_STYLE,
    values=STANDARD_VALUES, deal_rows=STANDARD_DEALS,
    table=TableRules(claim=MAY_I, swap=JokerSwap(when="after-contract")),
    rulings=(
        "the first meld is exactly the contract's melds (each may hold more cards than the minimum)",
        "deal 7 must take the whole hand (at least the 12 cards dealt) in one turn, no discard",
    ))

# Twos Wild: twos join the jokers as wild and cost 15 like a joker; only printed jokers may
# be exchanged for the card they stand for.
CONTRACT_TWOS_WILD = replace(
    CONTRACT_RUMMY, id="contract-twos-wild", name="Contract Rummy, twos wild",
    summary="standard Contract Rummy with every two wild too (15 points in hand)",
    wild_cards=frozenset({"joker", "two"}), values=replace(STANDARD_VALUES, wild=15),
    table=TableRules(claim=MAY_I, swap=JokerSwap(when="after-contract", jokers_only=True)))

# Jo (Australia): decks follow the player count; first player draws from the stock only;
# the winner collects the others' cards and the highest total wins.
JO = game(
    id="jo", name="Jo (Joker Rummy)",
    summary="Australian Contract Rummy: 2-4 decks by players, winners collect points, highest total wins",
    players=(3, 8), packs=(Packs((3, 4), 2), Packs((5, 6), 3), Packs((7, 8), 4)), default_players=4,
    style=STANDARD_STYLE, values=STANDARD_VALUES, deal_rows=STANDARD_DEALS,
    table=TableRules(claim=MAY_I, upcard_at_deal=False,
                     notes=("no upcard at the deal: the first player must draw from the stock",)),
    scoring=Scoring(winner="highest"),
    rulings=("the winner of a deal scores the penalty of every other hand; the highest total wins",))

# Progressive: 6 cards in deal 1, one more each deal up to 12; standard contracts; joker 25.
PROGRESSIVE_RUMMY = game(
    id="progressive-rummy", name="Progressive Rummy",
    summary="Contract Rummy dealing 6, 7, ... 12 cards over seven deals; jokers 25",
    players=(3, 8), packs=STANDARD_PACKS, default_players=4, style=STANDARD_STYLE,
    values=replace(STANDARD_VALUES, joker=25),
    # The text lets the last card go by discard ("at which time they also win the deal"),
    # so deal 7 takes the whole hand in one turn less, at most, that discard.
    deal_rows=tuple(Deal(6 + i, d.contract) for i, d in enumerate(STANDARD_DEALS[:-1]))
    + (Deal(12, one_turn("3S4", 12)),),
    table=TableRules(claim=MAY_I),
    rulings=("deal 7 takes the whole hand in one turn (at least the 12 cards dealt); the last card "
             "may go by discard",))

# King Rummy: four players, four deals of 10 cards; deal 4 is the whole hand (exactly ten);
# a melded joker may be taken at once by any player holding its card (nearest in turn first).
KING_RUMMY = game(
    id="king-rummy", name="King Rummy",
    summary="four players, four deals of 10 cards; the last contract takes all ten cards",
    players=(4, 4), packs=(Packs((4,), 2, 4),), default_players=4, style=STANDARD_STYLE,
    values=CardValues(joker=25, ace=15),
    deal_rows=deals(
        (10, "G3 S4"),
        (10, "3G3"),
        (10, "2S4"),
        (10, contract("2G3 S4", exact_cards=10)),
    ),
    table=TableRules(claim=MAY_I, swap=JokerSwap(when="at-once")),
    rulings=("the contract melds may hold more cards than the minimum (the text allows adding cards)",))

# Shanghai: ten deals of 11 cards; twos wild; aces high only; wild cards 20 in hand; the
# wild cards allowed in each required meld follow the chart by meld type and length.
SHANGHAI = game(
    id="shanghai", name="Shanghai Rummy",
    summary="ten deals of 11 cards, twos wild, aces high, wild limits per meld, 3 buys a deal (4 in the last)",
    players=(3, 8), packs=STANDARD_PACKS, default_players=4,
    style=MeldStyle(
        sequence=runs(4, "high"), group=sets(3), split_runs=True,
        initial_wilds=(("group", 3, 1), ("group", 4, 1), ("sequence", 4, 1), ("sequence", 5, 2),
                       ("sequence", 7, 3), ("sequence", 10, 4))),
    values=CardValues(joker=20, ace=15, wild=20), wild=("joker", "two"),
    deal_rows=deals(
        (11, "2G3"),
        (11, "G3 S4"),
        (11, "2G4"),
        (11, "G3 S5"),
        (11, "3G3"),
        (11, "G3 S7"),
        (11, "3S4"),
        (11, "G3 S10"),
        (11, "3G3 S5"),
        (11, "3S5"),
    ),
    table=TableRules(claim=Claim("buy", penalty_cards=1, limit=(3,) * 9 + (4,), ties="first"),
                     notes=("a long sequence may be split into two sequences of four or more",)),
    rulings=(
        "the wild-card chart limits the melds of the contract only; later melds take any number",
        "a meld longer than its requirement keeps the requirement's limit (a group of 4 in deal 1: one wild)",
        "players, decks and jokers follow standard Contract Rummy (the text does not change them)",
    ))

# --- the Loba / Carioca pair: exact trios and escaleras -----------------------------------

LOBA_STYLE = MeldStyle(sequence=runs(4, exact=4), group=sets(3, exact=3), initial_wilds=1,
                       names=("trio", "escalera"))
LOBA_DEALS = (
    (11, "2G3"),
    (11, "G3 S4"),
    (11, "2S4"),
    (11, "3G3"),
    (11, "2G3 S4"),
    (11, "G3 2S4"),
)
# Loba's text: dealt counter-clockwise from the dealer's right, "the player to the dealer's
# immediate left has the first turn and the turns proceed in a counter-clockwise direction"
# (so the dealer plays second). Ruling: the text does not say which way the deal passes; it
# goes the way turns do. An exhausted draw pile is reshuffled (the discards, less the top card).
LOBA_TABLE = TableRules(
    swap=JokerSwap(when="never", run_wild="ends"), lay_off="next-turn", new_melds="contract-only",
    going_out="discard-required", direction="counter-clockwise", first_turn="left",
    notes=("on the last deal the contract itself lets a player go out after a discard",))

LOBA = game(
    id="loba", name="Loba (Central American)",
    summary="six deals of 11 cards; trios of exactly 3 and escaleras of exactly 4; one joker per meld",
    players=(2, 5), packs=(Packs((2, 3, 4, 5), 2, 4),), default_players=4, style=LOBA_STYLE,
    values=CardValues(joker=25, ace=14, court=(11, 12, 13)), deal_rows=deals(*LOBA_DEALS),
    table=LOBA_TABLE,
    rulings=(
        "trios and escaleras go down at their exact size; only later lay-offs make them longer",
        "a player goes out by discarding the last card (the text's only way out)",
        "turns go counter-clockwise from the dealer's left neighbour, as the text says; "
        "the deal passes counter-clockwise too",
    ))

CARIOCA = game(
    id="carioca", name="Carioca",
    summary="Loba with a seventh deal (three escaleras, 12 cards); aces 20, jokers 50",
    players=(2, 5), packs=(Packs((2, 3, 4, 5), 2, 4),), default_players=4, style=LOBA_STYLE,
    values=CardValues(joker=50, ace=20), deal_rows=deals(*LOBA_DEALS, (12, "3S4")),
    table=replace(LOBA_TABLE, swap=JokerSwap(when="never", run_wild="anywhere")),
    rulings=("players and decks follow Loba, which the text says Carioca copies",
             "turns go counter-clockwise from the dealer's left neighbour, as in Loba"))

# --- South African Kaluki -----------------------------------------------------------------

SA_KALUKI = game(
    id="sa-kaluki", name="South African Kaluki",
    summary="seven deals of 13 cards: a Blitz, then exact small contracts with one joker at most",
    players=(3, 5), packs=(Packs((3, 4, 5), 2, 4),), default_players=4,
    style=MeldStyle(sequence=runs(3, "both"), group=sets(3, 4, distinct=True)),
    values=CardValues(joker=25, ace=11),
    deal_rows=deals(
        # Ruling: the Blitz text speaks of 11 cards (or 10 and a discard) though 13 are dealt;
        # the judge asks for at least 10 cards, all in valid melds, in one turn; the table,
        # which knows the hand, for all of it ("All cards must be melded at the same time").
        (13, one_turn("*", 10)),
        (13, contract("=G3", max_wilds=1)),
        (13, contract("=S3", max_wilds=1)),
        (13, contract("=S3 =G3", max_wilds=1)),
        (13, contract("=S4", max_wilds=1)),
        (13, contract("=G4", max_wilds=1)),
        (13, contract("=S5", max_wilds=1)),
    ),
    table=TableRules(
        claim=Claim("buy", penalty_cards=1, limit=4, ties="nearest"),
        swap=JokerSwap(when="after-contract"),
        notes=("a joker must be named when played; on deals 2-5 and 7 it may only stand for a card "
               "with one copy left unplayed (half-safe)",
               "a group of four or a 14-card run is closed: nothing is added or taken",
               "after the Blitz nobody lays off on others' melds")),
    rulings=(
        "deals 2-7: the first meld is exactly the contract, no card more",
        "an ace may sit at both ends of one run (the 14-card full run), never in the middle",
    ))

# --- Caribbean Kalooki and its longer and shorter games -------------------------------------

# Ruling: a joker stands for the card its place in the four says (the text has a joker "set
# to represent" a card, moved "to the top of the four", never two "sequential" jokers).
KALOOKI_STYLE = MeldStyle(
    sequence=runs(4), group=sets(3),
    sequence_wild=WildRule(no_adjacent=True), group_wild=WildRule(min_natural=2),
    one_per_rank_and_suit=True, ordered_runs=True, names=("three", "four"))
KALOOKI_VALUES = CardValues(joker=50, ace=15, red_ace=1)
KALOOKI_DEALS = (
    (9, "3G3"),
    (10, "2G3 S4"),
    (11, "G3 2S4"),
    (12, "3S4"),
    (12, "4G3"),
    (13, "3G3 S4"),
    (14, "2G3 2S4"),
    (15, "G3 3S4"),
    (16, "4S4"),
)
KALOOKI_TABLE = TableRules(
    claim=Claim("call", penalty_cards=1, limit=3, ties="first", before_melding_only=True, refusable=True),
    swap=JokerSwap(when="never", run_wild="ends"), draw_after_contract="stock-only",
    discard_wild=False,
    # "If the stock pile runs out twice during the same hand, the hand is dead ... no scores
    # are accumulated. The same dealer deals for the same hand again"
    stock_out="void-second",
    notes=("a four grows upward only, and downward once its top card is an ace",
           "the card under an accepted call cannot be called"))
KALOOKI_RULINGS = (
    "the first meld may bring more melds than the contract on the same turn",
    "a player's threes in one deal are of different ranks and fours of different suits, "
    "so a contract of two threes of one rank fails",
)


def kalooki(id: str, name: str, summary: str, rows: Sequence[tuple[int, str]], **kw: Any) -> ContractVariant:
    return game(
        id=id, name=name, summary=summary, players=(3, 6), packs=(Packs((3, 4, 5, 6), 2, 4),),
        default_players=4, style=KALOOKI_STYLE, values=KALOOKI_VALUES,
        deal_rows=tuple(Deal(c, contract(t, extra_melds=True)) for c, t in rows),
        table=KALOOKI_TABLE, scoring=Scoring(bent_table_doubles=True), **kw)


# Ruling: the text calls its nine-contract game "Super Kalooki" when the base game is the
# first four contracts; the kit takes caribbean-kalooki as those four and super-kalooki as all nine.
CARIBBEAN_KALOOKI = kalooki(
    "caribbean-kalooki", "Caribbean Kalooki",
    "Jamaican contract game: four deals (9-12 cards) of threes and fours; calls; bent table doubles",
    KALOOKI_DEALS[:4],
    rulings=KALOOKI_RULINGS + ("the base game is the chart's first four contracts",))
SUPER_KALOOKI = kalooki(
    "super-kalooki", "Super Kalooki",
    "Caribbean Kalooki through all nine contracts (9 to 16 cards)", KALOOKI_DEALS,
    rulings=KALOOKI_RULINGS)
BABY_KALOOKI = kalooki(
    "baby-kalooki", "Baby Kalooki",
    "Caribbean Kalooki for learners: three short deals of 6, 7 and 8 cards",
    ((6, "2G3"), (7, "G3 S4"), (8, "2S4")), rulings=KALOOKI_RULINGS)

# --- Kalooki 40 and North American Kalooki ------------------------------------------------

K40_VALUES = CardValues(joker=15, ace=11)
KALOOKI_40 = game(
    id="kalooki-40", name="Kalooki 40 (European Kalooki)",
    summary="13 cards; a first meld worth 40; discard to go out; out at 150, last player left wins",
    players=(2, 5), packs=(Packs((2, 3, 4, 5), 2, 2),), default_players=4,
    style=MeldStyle(sequence=runs(3, "high"), group=sets(3, 4, distinct=True), ordered_runs=True),
    values=K40_VALUES, meld_values=K40_VALUES, cards_dealt=13, deal_count="until one player is left",
    opening=contract("*", min_points=40),
    table=TableRules(
        swap=JokerSwap(when="after-contract", set_cards=2, replay=True), going_out="discard-required",
        # "if the stock pile runs out a second time, the game immediately ends with no scores
        # calculated, and the same dealer deals again"
        stock_out="void-second",
        notes=("a card taken from the discard pile must go straight into a meld with two or more from hand",
               "the first meld is new melds only, no building on others",
               "a player left with 3, 2 or 1 cards must say so or may not win next turn",
               "a second exhausted stock voids the deal")),
    # "If any player finds his accumulated score has reached or exceeded 150 points, he must
    # immediately drop from the game"; a Hunt lets the player "subtract 40 points from his
    # current ongoing score".
    scoring=Scoring(one_turn_bonus=-40, eliminate_at=150),
    rulings=(
        "a joker in a run stands for the card its place on the table shows; in a set, for the set's rank",
        "a joker in a full set of four needs the very card; in a set of three, two cards of the rank",
        "a total of 150 or more puts a player out; the last player left wins",
        "a Hunt takes 40 off the winner's total, which may go below zero (the text sets no floor)",
    ))

NA_VALUES = CardValues(joker=25, ace=15)
NA_KALOOKI = game(
    id="na-kalooki", name="North American Kalooki",
    summary="Kalooki 40 with 4 jokers, low or high aces, a 51-point first meld; meld out or discard",
    players=(2, 6), packs=(Packs((2, 3, 4, 5, 6), 2, 4),), default_players=4,
    style=MeldStyle(sequence=runs(3, "either"), group=sets(3, 4, distinct=True), ordered_runs=True),
    values=NA_VALUES, meld_values=NA_VALUES, cards_dealt="13 (11 with six players)", short_hands=((6, 11),),
    deal_count="until one player is left", opening=contract("*", min_points=51),
    table=TableRules(
        swap=JokerSwap(when="after-contract", replay=True), new_melds="one-per-turn",
        stock_out="void-second",
        notes=("only the first player's first turn may take the upcard freely; otherwise the discard "
               "is taken only after one's first meld or to use it in that meld",
               "the first meld may build on others' melds but must hold one new meld")),
    scoring=Scoring(one_turn_bonus=-40, eliminate_at=150),
    rulings=("the judge sees only new melds, so the 51 points are counted on them alone",))

# --- Russian Rummy --------------------------------------------------------------------------

RUSSIAN_RUMMY = game(
    id="russian-rummy", name="Russian Rummy",
    summary="five deals of 13 cards; 1-4 decks by players; aces low; 2-10 cost 5",
    players=(2, 8), packs=(Packs((2,), 1, 2), Packs((3, 4), 2, 4), Packs((5, 6), 3, 6), Packs((7, 8), 4, 8)),
    default_players=4, style=MeldStyle(sequence=runs(4, "low"), group=sets(3)),
    values=CardValues(joker=25, ace=15, ten=5, pips=5),
    deal_rows=deals(
        (13, contract("2G3", extra_melds=True)),
        (13, contract("S4", extra_melds=True)),
        (13, contract("2G3 S4", extra_melds=True)),
        (13, contract("3G3", extra_melds=True)),
        (13, contract("G3 2S4", extra_melds=True)),
    ),
    table=TableRules(claim=Claim("claim", penalty_cards=1, ties="first"), swap=JokerSwap(when="on-turn")),
    rulings=(
        "the ranking A, 2, ... K makes the ace low only: A-2-3-4 but never Q-K-A",
        "more melds may go down with the contract (the text lets the player go on melding)",
    ))

# --- Telefunken and Farmer's Rummy ----------------------------------------------------------

TELEFUNKEN = game(
    id="telefunken", name="Telefunken",
    summary="four players, seven deals of 11 cards: sets of growing size, a limpio, a 7-card sequidilla",
    players=(4, 4), packs=(Packs((4,), 2, 4),), default_players=4,
    style=MeldStyle(sequence=runs(3), group=sets(3), sequence_wild=WildRule(max_per_meld=1),
                    group_wild=WildRule(max_per_meld=1), names=("set", "sequidilla")),
    values=CardValues(joker=15, ace=11),
    # "Once he has made such a meld, on that turn or subsequent turns, he may make additional
    # new sets and sequidillas": the contract's melds are exact, more melds may go with them.
    deal_rows=deals(
        *((11, contract(c, extra_melds=True)) for c in ("P3", "2=G3", "=G4", "2=G4", "=G5", "2=G5")),
        # Ruling: the seventh contract is a trio and a sequidilla of 7+ (10 cards at least);
        # winning that deal also needs the rest of the hand melded in the same turn, which the
        # game flow checks, since the judge sees only the groups it is given.
        (11, one_turn("=G3 S7", 10, extra_melds=True)),
    ),
    table=TableRules(
        claim=Claim("buy", penalty_cards=1, tokens=7, before_melding_only=True, ties="nearest"),
        swap=JokerSwap(when="after-contract", set_cards=2, run_wild="ends-once"), lay_off="next-turn",
        # "The player to the immediate right of he dealer has the first turn and play rotates
        # ... in a counter-clockwise direction"; "the role of dealer rotates around the table
        # in a counter-clockwise direction"
        direction="counter-clockwise", cut_chip=True, redraw_deals=(6,),
        notes=("the cutter keeps jokers among the three cards under his cut",
               "deal 6: each player may swap any cards for fresh ones once before play",
               "the first player may take the upcard without buying")),
    rulings=("the contract's melds hold exactly its cards: a trio is 3, a cuarteto 4, a quinteto 5; "
             "more melds may go down in the same turn",))

FARMERS_RUMMY = game(
    id="farmers-rummy", name="Farmer's Rummy",
    summary="Telefunken with sets only, twos wild, 2 jokers a deck, eight deals, discard to go out",
    # Ruling: the text gives three decks both for five players and for six to eight; kept.
    players=(4, 8), packs=(Packs((4,), 2, 4), Packs((5,), 3, 6), Packs((6, 7, 8), 3, 6)), default_players=4,
    style=MeldStyle(sequence=None, group=sets(3), more_naturals=True),
    values=CardValues(joker=50, ace=20, two=20, pips=5, overrides=((8, 10), (9, 10))),
    wild=("joker", "two"),
    # as in Telefunken, more sets may go down with the contract's exact ones
    deal_rows=deals(
        (11, contract("=G3", no_wilds=True, extra_melds=True)),
        *((11, contract(c, extra_melds=True)) for c in ("2=G3", "=G4", "2=G4", "=G5", "2=G5", "=G6", "2=G6")),
    ),
    table=TableRules(
        claim=Claim("buy", penalty_cards=2, tokens=10, before_melding_only=True, ties="nearest"),
        swap=JokerSwap(when="after-contract", set_cards=2), lay_off="next-turn", going_out="discard-required",
        # "In all other aspects Farmer's Rummy is played identically to Telefunken": its
        # counter-clockwise turns and deal included
        direction="counter-clockwise",
        notes=("a wild card may never be added to a meld already on the table",)),
    rulings=(
        "cards dealt follow Telefunken (11), which the text says Farmer's copies",
        "turns and the deal go counter-clockwise, as in Telefunken",
        "twos standing as themselves in a set of twos count as natural cards",
    ))

# --- Push -----------------------------------------------------------------------------------

PUSH = game(
    id="push", name="Push",
    summary="two partnerships, five deals of 6 to 10 cards; twos and jokers wild; a refused upcard is pushed left",
    players=(4, 4), packs=(Packs((4,), 2, 4),), default_players=4,
    style=MeldStyle(sequence=runs(3), group=sets(3, 4, distinct=True)),
    values=CardValues(joker=20, ace=15, ten=10, pips=5, wild=20), wild=("joker", "two"),
    deal_rows=deals(
        (6, contract("2G3", extra_melds=True)),
        (7, contract("G3 S4", extra_melds=True)),
        (8, contract("2S4", extra_melds=True)),
        (9, contract("3G3", extra_melds=True)),
        (10, contract("2S5", extra_melds=True)),
    ),
    table=TableRules(pushing=True, swap=JokerSwap(when="after-contract"), stock_out="ends-deal",
                     notes=("a two standing as itself cannot be rescued",
                            "a wild upcard at the deal is buried and the next card turned",
                            "an empty stock ends the deal")),
    scoring=Scoring(partnerships=True),
    rulings=("a wild card's cost (20) applies to twos too, whatever they stood for",))

# --- Onze -----------------------------------------------------------------------------------

ONZE = game(
    id="onze", name="Onze",
    summary="seven deals (11 cards, 13 in the last); jokers and red aces wild; never more wild than natural",
    players=(3, 7), packs=(Packs((3, 4, 5, 6, 7), 2, 4),), default_players=4,
    style=MeldStyle(sequence=runs(4, "low"), group=sets(3), sequence_wild=WildRule(max_ratio=1.0),
                    group_wild=WildRule(max_ratio=1.0)),
    values=CardValues(joker=30, ace=20, wild=30), wild=("joker", "red-ace"),
    deal_rows=deals(
        (11, "2G3"),
        (11, "G3 S4"),
        (11, "2S4"),
        (11, "3G3"),
        (11, "2G3 S4"),
        (11, "2S4 G3"),
        (13, "3S4"),
    ),
    table=TableRules(
        claim=Claim("take", penalty_cards=1, ties="nearest"),
        swap=JokerSwap(when="after-contract", replay=True), lay_off="next-turn", new_melds="contract-only",
        notes=("a refused discard may be taken by another player until the current player discards",)),
    rulings=(
        "'exactly the requirement' is read as no melds beyond the contract; melds may be longer than the minimum",
        "the ranking K ... 2, A makes the ace low only",
        "a red ace standing as itself counts as a natural card",
    ))

# --- American Jokers and its two forms ------------------------------------------------------

AMERICAN_PACKS = (Packs((2, 3), 2, 4), Packs((4, 5), 3, 6), Packs((6, 7, 8), 3, 9))
AMERICAN_STYLE = MeldStyle(sequence=runs(3, "high"), group=sets(3, 4, distinct=True), names=("set", "row"))
AMERICAN_VALUES = CardValues(joker=25, ace=11)
AMERICAN_TABLE = TableRules(
    swap=JokerSwap(when="after-contract"), going_out="discard-required", upcard_offer=True,
    notes=("each player in turn may take the first upcard and so play first",))
AMERICAN_RULINGS = (
    "any number of jokers may fill a meld, but one natural card must show what it is",
    "a set holds distinct suits, so at most four cards",
)


def _american_deals(cards: int) -> tuple[Deal, ...]:
    """American Jokers' six deals of ``cards`` each: a set of 3, rows of 3 to 6, then the
    whole hand at once."""
    return deals(*((cards, c) for c in ("G3", "S3", "S4", "S5", "S6")),
                 (cards, contract("*", exact_cards=cards, one_turn=True)))


AMERICAN_JOKERS = game(
    id="american-jokers", name="American Jokers",
    summary="six deals of 13 cards: a set, rows of 3 to 6, then the whole hand at once",
    players=(2, 8), packs=AMERICAN_PACKS, default_players=3, style=AMERICAN_STYLE, values=AMERICAN_VALUES,
    deal_rows=_american_deals(13),
    table=AMERICAN_TABLE, rulings=AMERICAN_RULINGS)

AMERICAN_JOKERS_SINGLE = game(
    id="american-jokers-single", name="American Jokers, single deck",
    summary="American Jokers for 2-4 with one deck, two jokers and 7 cards",
    players=(2, 4), packs=(Packs((2, 3, 4), 1, 2),), default_players=3, style=AMERICAN_STYLE,
    values=AMERICAN_VALUES,
    # Ruling: 13 cards cannot be held with 7 dealt; the last deal takes the whole hand (7).
    deal_rows=_american_deals(7),
    table=AMERICAN_TABLE, rulings=AMERICAN_RULINGS)

AMERICAN_JOKERS_ALT = game(
    id="american-jokers-alt", name="American Jokers, alternate contracts",
    summary="American Jokers over five deals: exactly three, 40 points, rows of 4 and 5, the whole hand",
    players=(2, 8), packs=AMERICAN_PACKS, default_players=3, style=AMERICAN_STYLE, values=AMERICAN_VALUES,
    deal_rows=deals(
        (13, "=M3"),
        # Ruling: a joker counts as the card it stands for toward the 40 points.
        (13, contract("*", min_points=40)),
        (13, "S4"),
        (13, "S5"),
        (13, contract("*", exact_cards=13, one_turn=True)),
    ),
    table=AMERICAN_TABLE, rulings=AMERICAN_RULINGS)

# --- Dummy Rummy ----------------------------------------------------------------------------

DUMMY_RUMMY = game(
    id="dummy-rummy", name="Dummy Rummy",
    summary="twelve goals over 13-card deals; runs of mixed suits; twos and jokers wild (50 each)",
    players=(2, 4), packs=(Packs((2, 3, 4), 2, 4),), default_players=4,
    style=MeldStyle(sequence=runs(4, same_suit=False), group=sets(3)),
    values=CardValues(joker=50, ace=15, ten=10, pips=5, wild=50), wild=("joker", "two"),
    deal_rows=deals(
        (13, "2G3"),
        (13, "G3 S4"),
        (13, "2G4"),
        (13, "2S4"),
        (13, "G4 S4"),
        (13, "2G3 S4"),
        (13, "G3 S7"),
        (13, "3G3"),
        (13, "2G5"),
        (13, "2S5"),
        (13, "G8"),
        (13, "S10"),
    ),
    table=TableRules(
        claim=Claim("cut-in", penalty_cards=3, limit=2, refusable=True, optional=True),
        new_melds="contract-only", personal_goals=True,
        going_out="discard-required", draw_after_contract="stock-only",
        # the text's optional rules: the floating discard and, below four players, a dummy hand
        floating=True, dummy_hand=True,
        # "If the stock is exhausted ... each player must add to his ongoing score a number of
        # points based on the cards remaining in their hand."
        stock_out="ends-deal",
        notes=("house options: cut-ins (three penalty cards, two a deal), floating discards "
               "(floating=true), a dummy hand (dummy_hand=true), same-suit runs (judge option same_suit_runs=true)",
               "an exhausted stock ends the deal and everyone counts")),
    rulings=(
        "--deal N is the goal number: a player who misses a goal tries it again next deal",
        "a run's ace is at one end only; no wrap",
    ))

GAMES: tuple[ContractVariant, ...] = (
    CONTRACT_RUMMY, CONTRACT_TWOS_WILD, JO, PROGRESSIVE_RUMMY, KING_RUMMY, SHANGHAI, LOBA, CARIOCA,
    SA_KALUKI, CARIBBEAN_KALOOKI, SUPER_KALOOKI, BABY_KALOOKI, KALOOKI_40, NA_KALOOKI, RUSSIAN_RUMMY,
    TELEFUNKEN, FARMERS_RUMMY, PUSH, ONZE, AMERICAN_JOKERS, AMERICAN_JOKERS_SINGLE, AMERICAN_JOKERS_ALT,
    DUMMY_RUMMY,
)

#: What the registry (:mod:`engine.variants`) looks up: every game of the family.
VARIANTS = GAMES

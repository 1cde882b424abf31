"""Contract rummy's own table actions, refereed live, each read from the game's data.

The camera reads hands only at a show, so what a text has a player do or say during play is a
*call* (:class:`engine.game.events.Called`) or a press the table turns into one. Each is
enabled by a field of the game's :class:`~engine.families.contract.variants.TableRules` (or
its claim or deal data), never by the game's name:

- ``upcard_offer`` (American Jokers): the upcard turned at the deal is offered round the
  table from the dealer's left; a seat that takes it (``upcard``: its press out of turn, or
  the call) plays first with it, before anyone's turn has ended. *Ruling*: the table takes the
  first seat to ask; the players ask in the text's order.
- ``cut_chip`` (Telefunken): the player who cut (the dealer's left) earns one more chip when
  the cut held exactly the cards dealt and the upcard (``chip``), said before the deal's first
  turn ends; the text gives "a total of 8", so a player earns it once a game.
- ``redraw_deals`` (Telefunken's sixth deal): before the first turn, each player may put cards
  face down and be dealt as many fresh ones: an opening window in which the turn clock waits
  (OK closes it when the dealer is done).
- ``personal_goals`` (Dummy Rummy): each player works through the contracts at their own pace;
  ``goal`` records the seat laying its goal during its turn (the melds named, judged against
  that seat's goal), and a show is judged against the declarer's goal. A player who laid their
  goal (or went out) tries the next one the next deal; the others try theirs again.
- ``swap.when == "at-once"`` (King Rummy): when a joker is melded, any other player holding
  the card it stands for may take it at once, putting the card in its place (``joker``, the
  card named); the player in turn plays on. When several want it, the one nearest to playing
  next has the first chance: the first call opens a short claim window
  (:data:`JOKER_WINDOW_MS`, in the same turn) in which a seat nearer in turn after the melder
  takes the joker over (the first caller takes back the card put in), and a seat farther
  away is refused with the reason, as claims with priority are settled in
  :mod:`engine.game.claims`. *Ruling*: a call after the window (or in another turn) is for
  another joker melded.
- ``floating`` (Dummy Rummy's house rule ``floating``): after a discard, any other player may
  call out (``extend``) that it would extend a meld on the table; the discarder must play it
  there instead. A player who laid their goal may play their last card to a meld and
  ``float``, holding no card: in their turn, or at once when their discard was called out.
  A floating player has not won: they go out only by discarding, and count nothing if the
  deal ends first. *Ruling*: the table takes the players' word that the card fits a meld (the
  camera reads hands only at a show); the call is open until the next turn ends.
- ``pushing`` (Push): a player in turn who does not want the upcard pushes it, with the
  stock's top card, to the next player (``push``: the play menu's item or the call), once a
  turn; the next player adds both cards to their hand.

Each answer is the deal after it and the words for the table, or None and why it is refused
in the players' words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from engine.cards import Card, Groups, parse_card
from engine.errors import NotationError, TablekitError
from engine.game.seats import next_seat, turn_distance
from engine.game.state import PLAYING, DealState, FamilyDeal

if TYPE_CHECKING:
    from engine.families.contract.variants import ContractVariant

CALL_UPCARD: Final = "upcard"
CALL_CHIP: Final = "chip"
CALL_GOAL: Final = "goal"
CALL_JOKER: Final = "joker"
CALL_PUSH: Final = "push"
CALL_FLOAT: Final = "float"
CALL_EXTEND: Final = "extend"
#: How long the redraw window waits before the first turn's clock starts (OK ends it sooner).
REDRAW_WINDOW_MS: Final = 120_000
REDRAW_LABEL: Final = "redraw"
#: How long after the first call for a melded joker a seat nearer in turn may still claim it.
JOKER_WINDOW_MS: Final = 5_000

Answer = tuple[DealState | None, str]


@dataclass(frozen=True, slots=True)
class ContractDeal(FamilyDeal):
    """What a contract game's live rules keep about a deal.

    ``goals``: each seat's goal (the contract number it must meet) this deal, where players
    have goals of their own; ``made``: seats that laid their goal this deal. ``upcard_to``:
    who took the upcard offered at the deal. ``pushed_turn``: the turn (``turn_count``) of the
    last push; ``pushes``: cards pushed to each seat this deal. ``jokers``: jokers taken at
    once off the table this deal. ``floating``: seats holding no card after playing their last
    to a meld; ``discarded``: the seat whose turn ended last with its discard, and the turn
    (``turn_count``) during which that discard may be called out; ``called_out``: the seat
    whose discard was called out and must go on a meld.
    """

    number: int = 0
    goals: tuple[int, ...] = ()
    made: tuple[int, ...] = ()
    upcard_to: int | None = None
    pushed_turn: int = 0
    pushes: tuple[int, ...] = ()
    jokers: int = 0
    joker_to: int | None = None
    joker_until_ms: int = 0
    joker_turn: int = 0
    floating: tuple[int, ...] = ()
    discarded: tuple[int, int] | None = None
    called_out: int | None = None


def of(deal: DealState) -> ContractDeal:
    family = deal.family
    return family if isinstance(family, ContractDeal) else ContractDeal(number=deal.number)


def new_deal(variant: ContractVariant, players: int, number: int, carried: ContractDeal | None,
             void: bool, winner: int | None) -> ContractDeal:
    """The record a new deal starts with: each seat's goal moves on when it laid it (or went
    out) in the last deal played; after a void deal the goals stay as they were."""
    last = len(variant.deal_list) or 1
    goals: tuple[int, ...] = ()
    if variant.table.personal_goals:
        if carried is None or not carried.goals:
            goals = (1,) * players
        elif void:
            goals = carried.goals
        else:
            done = set(carried.made) | ({winner} if winner is not None else set())
            goals = tuple(min(g + 1, last) if s in done else g for s, g in enumerate(carried.goals))
    return ContractDeal(number=number, goals=goals, pushes=(0,) * players)


def upcard_open(variant: ContractVariant, deal: DealState) -> bool:
    """Is the upcard turned at the deal still offered (no turn ended, nobody took it)?"""
    return variant.table.upcard_offer and deal.turn_count == 1 and of(deal).upcard_to is None


def take_upcard(variant: ContractVariant, deal: DealState, seat: int, names: tuple[str, ...],
                turn_ms: int, t_ms: int) -> Answer:
    name = names[seat]
    record = of(deal)
    if not variant.table.upcard_offer:
        return None, f"{variant.name} offers no upcard at the deal"
    if record.upcard_to is not None:
        return None, f"{names[record.upcard_to]} took the upcard: it is offered only once"
    if deal.turn_count > 1:
        return None, "the upcard is offered only before the first turn ends"
    text = f"{name} takes the upcard and plays first"
    record = replace(record, upcard_to=seat)
    if seat == deal.turn:
        return replace(deal, family=record), text
    begun = list(deal.turns_begun)
    begun[deal.turn] -= 1
    begun[seat] += 1
    return replace(deal, turn=seat, turns_begun=tuple(begun), family=record,
                   deadline_ms=None if deal.deadline_ms is None else t_ms + turn_ms), text


def lay_goal(variant: ContractVariant, deal: DealState, seat: int, name: str, cards: Groups,
             met: bool | str) -> Answer:
    """``met``: whether ``cards`` meet the seat's goal (or the reason they cannot be read)."""
    record = of(deal)
    if not variant.table.personal_goals or not record.goals:
        return None, f"{variant.name} has no goals of each player's own"
    if seat != deal.turn:
        return None, f"{name} lays a goal only in their own turn"
    if seat in record.made:
        return None, f"{name} has laid goal {record.goals[seat]} already this deal"
    if not cards:  # from the box: the players saw it laid (the show is judged by the camera)
        record = replace(record, made=(*record.made, seat))
        return replace(deal, family=record), f"{name} lays goal {record.goals[seat]}, as the table saw it"
    if met is not True:
        return None, f"{name}'s goal {record.goals[seat]} is not met: {met or 'the melds do not meet it'}"
    record = replace(record, made=(*record.made, seat))
    nxt = record.goals[seat] + 1
    last = len(variant.deal_list)
    then = f"goal {nxt} next deal" if nxt <= last else "every goal done"
    return replace(deal, family=record), f"{name} lays goal {record.goals[seat]}: {then}"


def exchange_joker(variant: ContractVariant, deal: DealState, seat: int, names: tuple[str, ...],
                   cards: Groups, t_ms: int = 0, step: int = 1) -> Answer:
    name = names[seat]
    if variant.table.swap.when != "at-once":
        return None, f"{variant.name} lets no joker be taken out of turn"
    if seat == deal.turn:
        return None, f"{name} melded it: only the other players may take a joker at once"
    if deal.status[seat] != PLAYING:
        return None, f"{name} is out of this deal: no joker"
    flat = [c for g in cards for c in g]
    put = "the card it stands for"
    if flat:
        if len(flat) != 1:
            return None, f"{name}'s joker: name the one card put in its place"
        try:
            card: Card = parse_card(flat[0])
        except (NotationError, TablekitError, ValueError) as exc:
            return None, f"{name}'s joker: {exc}"
        if variant.is_wild(card):
            return None, f"{card} is wild itself: a joker is taken with the natural card it stands for"
        put = str(card)
    record = of(deal)
    n = len(deal.status)
    in_turn = names[deal.turn]

    def distance(s: int) -> int:
        return turn_distance(s, deal.turn, n, step)

    holder = record.joker_to
    if holder is not None and record.joker_turn == deal.turn_count and t_ms <= record.joker_until_ms:
        if holder == seat:
            return None, f"{name} has taken that joker already"
        if distance(seat) > distance(holder):
            return None, (f"{names[holder]} plays sooner after {in_turn} and asked for that joker: "
                          f"the player nearest in turn has the first chance, so it stays with {names[holder]}")
        record = replace(record, joker_to=seat)
        return (replace(deal, family=record),
                f"{name} plays sooner after {in_turn} than {names[holder]}: {name} takes the joker, "
                f"putting {put} in its place, and {names[holder]} takes back the card put in; "
                f"{in_turn} plays on")
    record = replace(record, jokers=record.jokers + 1, joker_to=seat, joker_until_ms=t_ms + JOKER_WINDOW_MS,
                     joker_turn=deal.turn_count)
    text = f"{name} takes the joker, putting {put} in its place; {in_turn} plays on"
    nearer = [s for s in range(n) if deal.status[s] == PLAYING and 0 < distance(s) < distance(seat)]
    if nearer:
        text += (f" (a player nearer in turn may still claim it within {JOKER_WINDOW_MS // 1000} "
                 "seconds)")
    return replace(deal, family=record), text


def push(variant: ContractVariant, deal: DealState, seat: int, names: tuple[str, ...], step: int) -> Answer:
    name = names[seat]
    record = of(deal)
    if not variant.table.pushing:
        return None, f"{variant.name} has no pushing"
    if seat != deal.turn:
        return None, f"{name} pushes only in their own turn, instead of drawing"
    if record.pushed_turn == deal.turn_count:
        return None, f"{name} has pushed already this turn"
    to = next_seat(seat, lambda s: deal.status[s] == PLAYING, len(deal.status), step)
    if to is None:
        return None, "nobody to push to"
    pushes = list(record.pushes or (0,) * len(deal.status))
    pushes[to] += 2
    record = replace(record, pushed_turn=deal.turn_count, pushes=tuple(pushes))
    return (replace(deal, family=record),
            f"{name} pushes the upcard and the stock's top card to {names[to]}, and draws from the stock")


def can_push(variant: ContractVariant, deal: DealState) -> bool:
    return variant.table.pushing and of(deal).pushed_turn != deal.turn_count


def floating_on(variant: ContractVariant, options: Mapping[str, object]) -> bool:
    return variant.table.floating and bool(options.get("floating"))


def discard_made(variant: ContractVariant, deal: DealState, seat: int) -> DealState:
    """``seat`` ended its turn with a discard: it may be called out until the next turn ends."""
    if not variant.table.floating:
        return deal
    record = replace(of(deal), discarded=(seat, deal.turn_count + 1), called_out=None)
    return replace(deal, family=record)


def call_out(variant: ContractVariant, deal: DealState, seat: int, names: tuple[str, ...],
             on: bool) -> Answer:
    """``seat`` says the last discard would extend a meld on the table."""
    name = names[seat]
    if not variant.table.floating:
        return None, f"{variant.name} has no floating discard"
    if not on:
        return None, "the floating discard is a house rule this table did not choose"
    record = of(deal)
    if record.discarded is None or record.discarded[1] != deal.turn_count:
        return None, "no discard to call out: only the last one, until the next turn ends"
    by = record.discarded[0]
    if by == seat:
        return None, f"{name} discarded it: another player calls it out"
    if record.called_out == by:
        return None, f"{names[by]}'s discard was called out already"
    record = replace(record, called_out=by)
    return (replace(deal, family=record),
            f"{name} calls out {names[by]}'s discard: it extends a meld on the table, "
            f"so {names[by]} plays it there")


def float_(variant: ContractVariant, deal: DealState, seat: int, names: tuple[str, ...],
           on: bool) -> Answer:
    """``seat`` plays their last card to a meld and floats, holding no card."""
    name = names[seat]
    record = of(deal)
    if not variant.table.floating:
        return None, f"{variant.name} has no floating: a player keeps a card to discard"
    if not on:
        return None, f"{name} must keep a card to discard: floating is a house rule this table did not choose"
    if seat in record.floating:
        return None, f"{name} is floating already"
    if seat != deal.turn and seat != record.called_out:
        return None, f"{name} floats only in their own turn, or when their discard is called out"
    if record.goals and seat not in record.made:
        return None, f"{name} has not laid their goal: no card goes onto the table's melds before it"
    record = replace(record, floating=(*record.floating, seat),
                     called_out=None if seat == record.called_out else record.called_out)
    return (replace(deal, family=record),
            f"{name} plays their last card to a meld and floats: no card in hand, "
            "and out only by discarding a drawn card that fits no meld")

"""Contract rummy's claims at the table, read from each game's own data (``TableRules.claim``).

Every contract game that lets a player take the discard out of turn declares it beside its
other data in :mod:`engine.families.contract.games` as a :class:`~engine.families.contract.variants.Claim`:
its name, penalty cards, limit per deal, priority, chips, whether it is only for a player who
has not melded. :func:`from_claim` turns that into the table's
:class:`~engine.game.claims.ClaimRules`; nothing here looks at a game's id.

What each kind of claim means at the table (the words said, and when it comes) follows the
texts, kind by kind (:data:`KINDS`):

- **May I** (standard Contract Rummy and the games played like it: twos wild, Jo, Progressive,
  King): the player in turn may take the refused discard first; otherwise the claimant
  nearest in turn order gets it, with one penalty card from the stock.
- **buy** (Shanghai: three buys a deal, four in the last, the first to say "Buy it" wins;
  South African Kaluki: at most four a deal, nearest in turn; Telefunken and Farmer's Rummy:
  one chip a buy, seven chips (ten in Farmer's) for the whole game, two penalty cards in
  Farmer's, only before one has melded).
- **call** (the Kalooki games): the first to call wins; the player in turn may refuse it
  (keeping the card) while he has not melded; three accepted calls a deal.
- **claim** (Russian Rummy, "I want it") and **take** (Onze): the card is free for others only
  once the player in turn drew from the stock; the first to say so (Russian) or the nearest
  in turn (Onze) takes it, with one card from the stock.
- **cut-in** (Dummy Rummy): the player in turn may take the card or must allow the cut-in;
  the one cutting in takes three more cards from the stock; two cut-ins a deal.

*Ruling*: in the chip games (Telefunken, Farmer's Rummy) a turn's draw is from the stock only,
so the player in turn who wants the discard buys it too (a chip and the penalty cards), except
on the first turn of a deal, where the text lets the first player take the upcard free.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.game.claims import ClaimRules

if TYPE_CHECKING:
    from engine.families.contract.variants import Claim


@dataclass(frozen=True, slots=True)
class Kind:
    """What players say for one kind of claim, and whether it comes after the draw from the stock."""

    say: str
    after_stock: bool = False


#: The kinds of claims the games' data names (``Claim.name``), as the texts describe them.
KINDS: dict[str, Kind] = {
    # "another player may ... request he be allowed to take his card ... by stating 'May I?'" (Jo)
    "May I": Kind("May I?"),
    # "another player would state 'Buy It'" (Shanghai); "ask to 'buy' that discard" (Telefunken)
    "buy": Kind("Buy it"),
    # "the player, would state 'Call'" (Caribbean Kalooki)
    "call": Kind("Call"),
    # "if a player on his turn opts to take the top card from the stock, he must pause ... The
    # first player to state 'I want it' has the right to the card" (Russian Rummy)
    "claim": Kind("I want it", after_stock=True),
    # "If a player, on his turn, elects to take the top card of the draw pile ... this card is
    # then open for any other player to so take" (Onze)
    "take": Kind("I'll take it", after_stock=True),
    # "The player so wanting the card must state that they want the card" (Dummy Rummy)
    "cut-in": Kind("Cut in"),
}


def from_claim(claim: Claim) -> ClaimRules:
    """The table's rules for one game's claim data."""
    kind = KINDS.get(claim.name, Kind(claim.name))
    return ClaimRules(
        name=claim.name, say=kind.say, penalty_cards=claim.penalty_cards, limits=claim.limit,
        ties=claim.ties, tokens=claim.tokens, in_turn_pays=claim.tokens is not None,
        after_stock=kind.after_stock, before_melding=claim.before_melding_only)

"""Claims: a player taking the upcard out of turn ("May I", buying, calling, "I want it").

At the table a claim is a seat's short press out of turn (:class:`~engine.game.events.ClaimMade`).
It waits on screen, its claimant's light blinking, for the table's answer:

- **OK** lets the claim through: the claimant the game's priority names (the nearest in turn
  order after the player in turn, or the first to claim) takes the upcard and the game's
  penalty card(s) from the stock; it counts against the claimant's limit for the deal and
  spends a chip in the games played with chips.
- **MENU** keeps it with the player in turn (who takes the upcard as the draw; in the games
  whose discard is only ever bought, that player buys it), or in the games whose claims come
  only after the player in turn drew from the stock, simply turns the claim down.

Only one claim per upcard goes through: once the upcard is taken, claims wait for the next
discard (the turn passing). Claims not answered when the turn passes lapse. A claim the game
does not allow now is refused with the reason in players' words and changes nothing else
(the event is journaled like any refused press, so a replay refuses it again).

What each game allows is its :class:`ClaimRules`, which the family declares beside the game's
data (:mod:`engine.families.contract.claims`) and its variants answer (``Variant.claim_rules``).
The book of claims (:class:`ClaimBook`) lives in the game state: chips last the whole game,
claim counts one deal, the waiting claims one turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from engine.game.effects import Buzz, Effect, Notice, SetLed
from engine.game.policy import policy_for
from engine.game.seats import turn_distance
from engine.game.state import PLAYING, DealState, GameState

Ties = Literal["nearest", "first"]
Result = tuple[GameState, list[Effect]]
#: The buzzer for a refused claim (as for any refused press).
REFUSE_BUZZ_MS = 60
#: The play menu's item for the player in turn buying the upcard (games whose discard is sold).
MENU_CLAIM = "claim"


@dataclass(frozen=True, slots=True)
class ClaimRules:
    """How one game lets a player take the upcard out of turn.

    ``name``: what the claim is called ("May I", "buy", "call", "cut-in"); ``say``: what the
    claimant says at the table ("May I?", "Buy it", "Call", "I want it"). ``penalty_cards``:
    cards the claimant also takes from the stock. ``limits``: claims that go through per
    player per deal (one number, or one per deal, the last repeating; None: no limit).
    ``ties``: who wins when several claim the same upcard (``nearest`` in turn order after the
    player in turn, or the ``first`` to claim). ``tokens``: chips each player has for the whole
    game, one spent per claim that goes through (None: no chips). ``in_turn_pays``: the player
    in turn who takes the upcard buys it like a claimant (chip and penalty cards), then draws
    as usual (Telefunken), except on the first turn of a deal, where the upcard is the draw.
    ``after_stock``: claims come only once the player in turn took from the stock, so MENU
    turns a claim down instead of giving the upcard to that player.
    ``before_melding``: only a player who has not melded yet may claim (the table cannot see
    melds; the screen reminds the players). ``first_upcard``: the upcard turned at the deal may
    be claimed.
    """

    name: str
    say: str
    penalty_cards: int = 1
    limits: int | tuple[int, ...] | None = None
    ties: Ties = "nearest"
    tokens: int | None = None
    in_turn_pays: bool = False
    after_stock: bool = False
    before_melding: bool = False
    first_upcard: bool = True

    def limit_for(self, deal: int) -> int | None:
        if isinstance(self.limits, tuple):
            return self.limits[min(deal, len(self.limits)) - 1] if self.limits else None
        return self.limits

    def penalty_words(self) -> str:
        n = self.penalty_cards
        return "" if n <= 0 else "1 card from the stock" if n == 1 else f"{n} cards from the stock"

    def refusal(self, state: GameState, book: ClaimBook, seat: int) -> str | None:
        """A reason of the game's own to refuse ``seat``'s claim now (None: none). Families
        override this for what their texts add; the common checks are done already."""
        return None


@dataclass(frozen=True, slots=True)
class ClaimBook:
    """The claims of a game: chips left (whole game), claims through per seat (``deal``), and
    for the upcard of turn ``turn`` of that deal the claimants waiting (in the order they
    claimed) and whether the upcard is already taken. ``cards``: cards each seat took this
    deal beyond its turns' draws (an upcard taken by a claim or bought in turn, and its
    penalty cards), for the games whose last contract goes down with the whole hand."""

    deal: int
    turn: int
    used: tuple[int, ...]
    tokens: tuple[int, ...] | None = None
    waiting: tuple[int, ...] = ()
    taken: bool = False
    granted: int = 0  # claims that went through in the game (for the record)
    refused: int = 0  # claims refused in the game
    extra: tuple[int, ...] = ()  # chips earned beyond the game's (Telefunken's cut), per seat
    cards: tuple[int, ...] = ()


def book_of(state: GameState, rules: ClaimRules) -> ClaimBook:
    """The claim book as it stands for the deal and turn now on (counts start afresh each
    deal; waiting claims lapse when the turn passes)."""
    deal = state.deal
    n = state.game.players
    book = state.claims
    if book is None:
        tokens = (rules.tokens,) * n if rules.tokens is not None else None
        book = ClaimBook(deal=0, turn=0, used=(0,) * n, tokens=tokens)
    if deal is None:
        return book
    if book.deal != deal.number:
        book = replace(book, deal=deal.number, turn=deal.turn_count, used=(0,) * n, waiting=(), taken=False,
                       cards=())
    elif book.turn != deal.turn_count:
        book = replace(book, turn=deal.turn_count, waiting=(), taken=False)
    return book


def _more_cards(book: ClaimBook, seat: int, n: int, players: int) -> tuple[int, ...]:
    cards = list(book.cards or (0,) * players)
    cards[seat] += n
    return tuple(cards)


def cards_claimed(state: GameState, seat: int) -> int:
    """Cards ``seat`` took this deal beyond its turns' draws, by claims that went through."""
    book, deal = state.claims, state.deal
    if book is None or deal is None or book.deal != deal.number or not book.cards:
        return 0
    return book.cards[seat]


def waiting(state: GameState, rules: ClaimRules | None) -> tuple[int, ...]:
    """The claimants waiting for the table's answer now (none outside play)."""
    if rules is None or state.phase != "play" or state.deal is None:
        return ()
    return book_of(state, rules).waiting


def _name(state: GameState, seat: int) -> str:
    return state.game.seats[seat].name


def _refuse(state: GameState, rules: ClaimRules, book: ClaimBook, text: str) -> Result:
    book = replace(book, refused=book.refused + 1)
    return replace(state, claims=book, notice=text), [Notice(text), Buzz(REFUSE_BUZZ_MS)]


def turn_step(state: GameState) -> int:
    """+1 when turns go clockwise (seat numbers up), -1 when they go the other way."""
    step = getattr(policy_for(state.game), "turn_step", None)
    return int(step(state.game)) if callable(step) else 1


def _stock_only(state: GameState, seat: int) -> bool:
    """Whether ``seat`` may no longer take the discard this deal (the family says: in Dummy
    Rummy, once its goal is down)."""
    return policy_for(state.game).stock_only(state, seat)


def _discarder(state: GameState, deal: DealState) -> int | None:
    """The seat whose discard is the upcard: the last seat still playing before the player in
    turn (None on the deal's first turn, when the upcard was turned from the stock)."""
    if deal.turn_count <= 1:
        return None
    n = len(deal.status)
    step = turn_step(state)
    for k in range(1, n):
        seat = (deal.turn - k * step) % n
        if deal.status[seat] == PLAYING:
            return seat
    return None


def claim(state: GameState, rules: ClaimRules | None, seat: int, t_ms: int) -> Result:
    """``seat`` claims the upcard out of turn: it waits for the table's answer, or is refused."""
    deal = state.deal
    if deal is None or state.phase != "play":
        return state, []
    if rules is None:  # the game has no claims: an out-of-turn press is only a wrong press
        text = f"it is {_name(state, deal.turn)}'s turn, not {_name(state, seat)}'s"
        return state.with_notice(text), [Notice(text), Buzz(REFUSE_BUZZ_MS)]
    book = book_of(state, rules)
    who = _name(state, seat)
    what = rules.name
    limit = rules.limit_for(deal.number)
    if state.eliminated[seat] or deal.status[seat] == "out":
        return _refuse(state, rules, book, f"{who} is out of the game: no {what}")
    if deal.status[seat] != PLAYING:
        return _refuse(state, rules, book, f"{who} is out of this deal: no {what}")
    if state.paused:
        return _refuse(state, rules, book, f"no {what} now: play is paused ({state.pause_reason()})")
    if state.menu:
        return _refuse(state, rules, book, f"no {what} while the menu is open: close it first")
    if seat == deal.turn:
        return state, []  # the player in turn's own press ends the turn: never a claim
    if book.taken:
        return _refuse(state, rules, book, f"the upcard is taken: no {what} until the next discard")
    if deal.turn_count <= 1 and not rules.first_upcard:
        return _refuse(state, rules, book, f"no {what} on the first turn: there is no upcard yet")
    if seat == _discarder(state, deal):
        return _refuse(state, rules, book, f"{who} discarded that card: no {what} of one's own discard")
    if seat in book.waiting:
        return _refuse(state, rules, book, f"{who} has claimed it already: OK lets it through, MENU turns it down")
    if limit is not None and book.used[seat] >= limit:
        return _refuse(state, rules, book, f"{who} has had {book.used[seat]} {_plural(what, book.used[seat])} "
                                           f"this deal, the most deal {deal.number} allows")
    if book.tokens is not None and book.tokens[seat] <= 0:
        return _refuse(state, rules, book, f"{who} has no chips left: no {what}")
    if _stock_only(state, seat):
        return _refuse(state, rules, book, f"{who} has laid their goal and draws only from the stock now: no {what}")
    own = rules.refusal(state, book, seat)
    if own is not None:
        return _refuse(state, rules, book, own)
    book = replace(book, waiting=(*book.waiting, seat))
    text = f'{who}: "{rules.say}"'
    new = replace(state, claims=book, notice=text)
    return new, [SetLed(seat, "slow"), Buzz(30), Notice(text)]


def _plural(word: str, n: int) -> str:
    return word if n == 1 or word.endswith("s") or word == "May I" else word + "s"


def winner(state: GameState, rules: ClaimRules, book: ClaimBook) -> int | None:
    """Who gets the upcard among the waiting claimants, by the game's priority."""
    deal = state.deal
    if deal is None or not book.waiting:
        return None
    if rules.ties == "first":
        return book.waiting[0]
    n = state.game.players
    step = turn_step(state)
    return min(book.waiting, key=lambda s: turn_distance(s, deal.turn, n, step))


def prompt(state: GameState, rules: ClaimRules | None) -> str:
    """What OK and MENU do while a claim waits ("" when none does)."""
    if rules is None or not waiting(state, rules):
        return ""
    book = book_of(state, rules)
    first = winner(state, rules, book)
    deal = state.deal
    assert first is not None and deal is not None
    extra = rules.penalty_words()
    take = f"OK: {_name(state, first)} takes it" + (f" and {extra}" if extra else "")
    if not rules.after_stock and _stock_only(state, deal.turn):
        return f"{take} · {_name(state, deal.turn)} draws only from the stock: must allow it"
    return f"{take} · MENU: {_keep_words(state, rules)}"


def _keep_words(state: GameState, rules: ClaimRules) -> str:
    deal = state.deal
    assert deal is not None
    if rules.after_stock:
        return "no"
    turn = _name(state, deal.turn)
    if rules.in_turn_pays and deal.turn_count > 1:
        return f"{turn} buys it"
    return f"{turn} takes it"


def grant(state: GameState, rules: ClaimRules, t_ms: int) -> Result:
    """OK on a waiting claim: the claimant with priority takes the upcard and the penalty."""
    deal = state.deal
    assert deal is not None
    book = book_of(state, rules)
    seat = winner(state, rules, book)
    assert seat is not None
    used = book.used[:seat] + (book.used[seat] + 1,) + book.used[seat + 1:]
    tokens = book.tokens
    if tokens is not None:
        tokens = tokens[:seat] + (tokens[seat] - 1,) + tokens[seat + 1:]
    others = [s for s in book.waiting if s != seat]
    book = replace(book, used=used, tokens=tokens, waiting=(), taken=True, granted=book.granted + 1,
                   cards=_more_cards(book, seat, 1 + rules.penalty_cards, state.game.players))
    text = _took(state, rules, book, seat, paid=True)
    if others:
        text += f" ({' and '.join(_name(state, s) for s in others)} asked too)"
    effects: list[Effect] = [SetLed(s, "off") for s in (seat, *others) if s != deal.turn]
    effects.append(Notice(text))
    return replace(state, claims=book, notice=text), effects


def _took(state: GameState, rules: ClaimRules, book: ClaimBook, seat: int, paid: bool) -> str:
    deal = state.deal
    assert deal is not None
    extra = rules.penalty_words()
    text = f"{_name(state, seat)} takes the upcard" + (f" and {extra}" if paid and extra else "")
    limit = rules.limit_for(deal.number)
    counts = []
    if paid and limit is not None:
        counts.append(f"{rules.name} {book.used[seat]} of {limit} this deal")
    if paid and book.tokens is not None:
        left = book.tokens[seat]
        counts.append(f"{left} {'chip' if left == 1 else 'chips'} left")
    return text + (f" ({'; '.join(counts)})" if counts else "")


def keep(state: GameState, rules: ClaimRules, t_ms: int) -> Result:
    """MENU on a waiting claim: the player in turn takes the upcard (buys it where the game
    sells its discard), or, where claims come after the draw from the stock, it is turned
    down. A player in turn who draws only from the stock now (``FamilyPolicy.stock_only``)
    cannot take it and so must allow the claim (Dummy Rummy's cut-in: "may either take the
    card for themself ... or must allow the player to take the card"): it goes through."""
    deal = state.deal
    assert deal is not None
    book = book_of(state, rules)
    lit = [s for s in book.waiting if s != deal.turn]
    if not rules.after_stock and book.waiting and _stock_only(state, deal.turn):
        new, effects = grant(state, rules, t_ms)
        text = f"{_name(state, deal.turn)} draws only from the stock, so the {rules.name} goes through: {new.notice}"
        return replace(new, notice=text), [e for e in effects if not isinstance(e, Notice)] + [Notice(text)]
    if rules.after_stock or _stock_only(state, deal.turn):
        book = replace(book, waiting=())
        text = f"no {rules.name}: the upcard stays"
    else:
        return _in_turn_takes(state, rules, [SetLed(s, "off") for s in lit], refused=bool(book.waiting))
    return replace(state, claims=book, notice=text), [*[SetLed(s, "off") for s in lit], Notice(text)]


def _in_turn_takes(state: GameState, rules: ClaimRules, effects: list[Effect], refused: bool = False) -> Result:
    deal = state.deal
    assert deal is not None
    book = book_of(state, rules)
    seat = deal.turn
    pays = rules.in_turn_pays and deal.turn_count > 1
    if pays:
        limit = rules.limit_for(deal.number)
        if limit is not None and book.used[seat] >= limit:
            return _refuse(state, rules, book, f"{_name(state, seat)} has had {limit} "
                                               f"{_plural(rules.name, limit)} this deal, the most allowed")
        if book.tokens is not None and book.tokens[seat] <= 0:
            return _refuse(state, rules, book, f"{_name(state, seat)} has no chips left to buy the upcard")
        used = book.used[:seat] + (book.used[seat] + 1,) + book.used[seat + 1:]
        tokens = book.tokens
        if tokens is not None:
            tokens = tokens[:seat] + (tokens[seat] - 1,) + tokens[seat + 1:]
        book = replace(book, used=used, tokens=tokens, granted=book.granted + 1,
                       cards=_more_cards(book, seat, 1 + rules.penalty_cards, state.game.players))
    book = replace(book, waiting=(), taken=True)
    text = _took(state, rules, book, seat, paid=pays)
    if pays:  # a buy is no draw: the buyer in turn still starts the turn from the stock
        text += ", then draws as usual"
    if refused and not pays:
        text += f": no {rules.name}"
    return replace(state, claims=book, notice=text, menu=()), [*effects, Notice(text)]


def menu_item(state: GameState, rules: ClaimRules | None) -> str | None:
    """The play menu's claim item, where the player in turn buys the upcard (None: none now)."""
    deal = state.deal
    if rules is None or deal is None or not rules.in_turn_pays or deal.turn_count <= 1:
        return None
    book = book_of(state, rules)
    if book.taken or book.waiting:
        return None
    limit = rules.limit_for(deal.number)
    if limit is not None and book.used[deal.turn] >= limit:
        return None  # the player in turn has had the deal's buys: nothing to offer
    if book.tokens is not None and book.tokens[deal.turn] <= 0:
        return None  # no chips left to buy with
    return MENU_CLAIM


def menu_words(state: GameState, rules: ClaimRules | None) -> str:
    """What the claim item of the play menu does, in words."""
    deal = state.deal
    if rules is None or deal is None:
        return ""
    return f"{_name(state, deal.turn)} buys the upcard"


def buy_in_turn(state: GameState, rules: ClaimRules, t_ms: int) -> Result:
    """The play menu's claim item taken: the player in turn buys the upcard."""
    return _in_turn_takes(state, rules, [])


def in_turn_blocked(state: GameState, rules: ClaimRules | None, seat: int) -> str | None:
    """Why the player in turn cannot end the turn (or show) yet: a claim waits for an answer.

    Where claims come after the draw from the stock (``after_stock``) nothing waits: the chance
    to claim ends when the player in turn discards (Onze), so ending the turn lets it lapse."""
    deal = state.deal
    claimants = waiting(state, rules)
    if rules is None or deal is None or seat != deal.turn or not claimants or rules.after_stock:
        return None
    names = " and ".join(_name(state, s) for s in claimants)
    return f"answer {names}'s {rules.name} first · {prompt(state, rules)}"


def lapsed_leds(before: GameState, after: GameState, rules: ClaimRules | None) -> list[Effect]:
    """Lights to put out for claims that lapsed with this event (the turn passed, the deal ended)."""
    if rules is None or before.claims is None or not before.claims.waiting:
        return []
    was = waiting(before, rules)
    now = set(waiting(after, rules))
    deal = after.deal
    turn = deal.turn if deal is not None and after.phase == "play" else None
    return [SetLed(s, "off") for s in was if s not in now and s != turn]


def seat_notes(state: GameState, rules: ClaimRules | None) -> tuple[str, ...]:
    """Each seat's claims on the play screen: waiting, claims used of the deal's limit, chips."""
    deal = state.deal
    n = state.game.players
    if rules is None or deal is None:
        return ("",) * n
    book = book_of(state, rules)
    limit = rules.limit_for(deal.number)
    notes = []
    for s in range(n):
        parts = []
        if s in book.waiting:
            parts.append(f'"{rules.say}"')
        if limit is not None and book.used[s]:
            parts.append(f"{rules.name} {book.used[s]}/{limit}")
        elif book.used[s]:
            parts.append(f"{rules.name} ×{book.used[s]}")
        if book.tokens is not None:
            parts.append(f"{book.tokens[s]} {'chip' if book.tokens[s] == 1 else 'chips'}")
        notes.append(" · ".join(parts))
    return tuple(notes)

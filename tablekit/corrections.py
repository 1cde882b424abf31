"""Correcting a misread card on a verdict: the screen's selection, by keyboard or box buttons.

A verdict (the declarer's show, or a hand being counted) shows a :class:`HandReading`. Two ways
correct one of its cards, and both end in the same journaled ``Correction`` event:

- the keyboard (or touch): C starts a cursor on the first card, the arrows move it, typing
  names the card, Return corrects it, Escape gives up;
- the box buttons: MENU moves a selection — first "read the zone again", then each card (the
  first group the engine found wrong first), then off. With a card selected, the button of the
  seat whose cards they are changes it: a short press to the next rank (A, 2 … K, the joker,
  then "remove the card"), a held one to the next suit. OK corrects the card, or reads the
  zone again.

Only the events are the game's; the selection is the screen's. :class:`Corrections` holds it
and answers with the event to post (or None); the table posts it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine.cards import SUITS, Card, Groups, parse_card, rank_text
from engine.errors import TablekitError
from engine.game import LONG_PRESS_MS, Correction, Event, HandReading, MenuPressed
from engine.tiles import COLOURS, Tile, parse_tile

Cell = tuple[int, int]  # (group, position in the group)


@dataclass(frozen=True)
class Picking:
    """The box buttons' selection on a verdict: ``cell`` None is "read the zone again";
    ``card`` is what the selected card would become ("" removes it)."""

    seat: int
    groups: Groups
    cell: Cell | None = None
    card: str = ""
    changed: bool = False


def pick_order(reading: HandReading) -> list[Cell]:
    """Every card of a reading in table order, starting with the first group found wrong."""
    cells = [(g, i) for g, group in enumerate(reading.groups) for i in range(len(group))]
    ruling = reading.ruling
    wrong = [g for g, gr in enumerate(ruling.groups) if not gr.valid] if ruling is not None else []
    if ruling is not None and len(ruling.groups) != len(reading.groups):
        wrong = []  # the ruling rearranged the groups (best arrangement): keep table order
    start = next((k for k, (g, _) in enumerate(cells) if wrong and g == wrong[0]), 0)
    return cells[start:] + cells[:start]


def cycle_card(card: str, tiles: bool, suit_step: bool) -> str:
    """The card a seat press turns ``card`` into.

    A short press (``suit_step`` False) runs the ranks A, 2 … K, then the joker, then ""
    (remove the card), then A again, keeping the suit; a long one runs the suits S H D C (tile
    colours R Y B K), keeping the rank. A card that is not a card starts at the ace of spades.
    """
    suits: tuple[str, ...] = COLOURS if tiles else SUITS
    first = f"{suits[0]}1" if tiles else f"A{suits[0]}"
    if not card:
        return first
    try:
        item: Tile | Card = parse_tile(card) if tiles else parse_card(card)
    except TablekitError:
        return first
    if item.is_joker:
        return first if suit_step else ""
    rank, suit = (item.number, item.colour) if isinstance(item, Tile) else (item.rank, item.suit)
    if suit_step:
        suit = suits[(suits.index(suit) + 1) % len(suits)]
    elif rank < 13:
        rank += 1
    else:
        return "JY" if tiles else "PJ"
    return f"{suit}{rank}" if tiles else f"{rank_text(rank)}{suit}"


@dataclass
class Corrections:
    """The selection on a verdict: the keyboard's cursor (``cursor``, ``proposed``) or the box
    buttons' ``picking``. Every method is given the reading on screen now (None: no verdict)."""

    cursor: Cell | None = None
    proposed: str = ""
    picking: Picking | None = None
    _seat_down: dict[int, int] = field(default_factory=dict)  # seat buttons held: since when

    # --- the keyboard's cursor -----------------------------------------------------------

    def start(self, reading: HandReading | None) -> bool:
        """C on a verdict: the cursor on the first card (False: nothing to correct)."""
        if reading is None or not reading.groups:
            return False
        self.cursor = (0, 0)
        self.proposed = ""
        self.picking = None
        return True

    def move(self, reading: HandReading | None, step: int) -> None:
        if reading is None or self.cursor is None:
            self.cursor = None
            return
        cells = [(g, i) for g, group in enumerate(reading.groups) for i in range(len(group))]
        at = cells.index(self.cursor) if self.cursor in cells else 0
        self.cursor = cells[(at + step) % len(cells)]
        self.proposed = ""

    def type(self, text: str) -> None:
        self.proposed = (self.proposed + text.upper())[:3]

    def erase(self) -> None:
        self.proposed = self.proposed[:-1]

    def finish(self, reading: HandReading | None, apply: bool, t_ms: int) -> Correction | None:
        """Return (``apply``) or Escape: the correction to post, if any; the cursor goes."""
        event = None
        if apply and reading is not None and self.cursor is not None and self.proposed:
            group, index = self.cursor
            event = Correction(reading.seat, group, index, self.proposed, t_ms)
        self.cursor = None
        self.proposed = ""
        return event

    # --- the box buttons' selection --------------------------------------------------------

    def picked(self, reading: HandReading | None) -> Picking | None:
        """The selection, while it still belongs to the reading on screen."""
        picking = self.picking
        if picking is None:
            return None
        if reading is None or reading.groups != picking.groups or reading.seat != picking.seat:
            self.picking = None  # the verdict changed under the selection: start again
            return None
        return picking

    def selecting_card(self, reading: HandReading | None) -> bool:
        """True while a card is selected (the owner's seat button changes it)."""
        picking = self.picked(reading)
        return picking is not None and picking.cell is not None

    def next_pick(self, reading: HandReading) -> None:
        """MENU on a verdict: off → read again → each card → off."""
        self.cursor = None
        self.proposed = ""
        picking = self.picked(reading)
        if picking is None:
            self.picking = Picking(reading.seat, reading.groups)
            return
        cells = pick_order(reading)
        at = cells.index(picking.cell) + 1 if picking.cell in cells else 0
        if at >= len(cells):
            self.picking = None
            return
        g, i = cells[at]
        self.picking = Picking(reading.seat, reading.groups, cells[at], reading.groups[g][i])

    def seat(self, seat: int, pressed: bool, t_ms: int, tiles: bool) -> None:
        """A seat button while a card is selected: only the owner's changes it."""
        picking = self.picking
        if picking is None or seat != picking.seat:
            return
        if pressed:
            self._seat_down[seat] = t_ms
            return
        since = self._seat_down.pop(seat, None)
        if since is None:
            return
        suit = t_ms - since >= LONG_PRESS_MS
        self.picking = replace(picking, card=cycle_card(picking.card, tiles, suit), changed=True)

    def ok(self, reading: HandReading | None, t_ms: int) -> Event | None:
        """OK with the selection: read the zone again (MENU to the engine), or correct the
        selected card; the selection goes either way."""
        picking = self.picked(reading)
        self.picking = None
        self._seat_down.clear()
        if picking is None or reading is None:
            return None
        if picking.cell is None:
            return MenuPressed(t_ms)  # the engine reads the zone again
        g, i = picking.cell
        if picking.changed and picking.card != reading.groups[g][i]:
            return Correction(reading.seat, g, i, picking.card, t_ms)
        return None

"""Helpers for the game-flow tests: a table driven event by event with a scripted clock."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from engine.game import (
    LONG_PRESS_MS,
    ButtonPressed,
    ButtonReleased,
    Confirm,
    Correction,
    DealStarted,
    Drop,
    Effect,
    Event,
    Game,
    GameState,
    MenuPressed,
    Seat,
    TableRead,
    Tick,
    apply,
    event_from_json,
    new_game,
    replay,
)
from engine.notation import split_groups

REPO = Path(__file__).resolve().parents[1]
DEMO_SCRIPT = REPO / "tablekit" / "demos" / "indian-pool-101.json"

# Hands in the judge notation (wild 5D for the first three).
VALID_SHOW = "4H 5H 6H 7H | KC QC PJ | QD QS QC | 7S 7D 7C"
LOSER_58 = "4H 5H 6H | 7C 8C 5D | 9D 9S 4C | KD QD 7S 9S"
FULL_COUNT = "9S 9H 9C | 8D 9D 6D | 8S 10S JS | QH KH | KS KD"
NO_PURE = "4H 5H PJ | KC QC PJ | QD QS QC | 7S 7D 7C 7H"
SECOND_VALID = "3S 4S 5S | 6D 7D 8D 9D | JC JD JH | 2H 2C 2S"


def groups(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(g) for g in split_groups(text))


def game(variant: str = "indian-pool-101", names: Iterable[str] = ("Asha", "Ravi", "Meera"),
         **kw: object) -> Game:
    return Game(variant, tuple(Seat(n) for n in names), **kw)  # type: ignore[arg-type]


class Driver:
    """Applies events to a state, keeps the log and the effects, and a table clock."""

    def __init__(self, g: Game) -> None:
        self.state: GameState = new_game(g)
        self.log: list[Event] = []
        self.effects: list[Effect] = []
        self.t = 0

    def __call__(self, event: Event) -> list[Effect]:
        self.state, effects = apply(self.state, event)
        self.log.append(event)
        self.effects += effects
        return effects

    def at(self, ms: int) -> int:
        self.t += ms
        return self.t

    # --- table actions ----------------------------------------------------------------

    def deal(self, wild: str = "5D") -> list[Effect]:
        return self(DealStarted(wild, self.at(1000)))

    def press(self, seat: int, hold: int = 200) -> list[Effect]:
        self(ButtonPressed(seat, self.at(1000)))
        return self(ButtonReleased(seat, self.at(hold)))

    def end_turn(self) -> list[Effect]:
        assert self.state.deal is not None
        return self.press(self.state.deal.turn)

    def declare(self, seat: int) -> list[Effect]:
        return self.press(seat, LONG_PRESS_MS)

    def read(self, seat: int, text: str) -> list[Effect]:
        return self(TableRead(seat, groups(text), self.at(500)))

    def ok(self) -> list[Effect]:
        return self(Confirm(self.at(500)))

    def menu(self) -> list[Effect]:
        return self(MenuPressed(self.at(500)))

    def drop(self, seat: int) -> list[Effect]:
        return self(Drop(seat, self.at(500)))

    def correct(self, zone: int, group: int, position: int, card: str) -> list[Effect]:
        return self(Correction(zone, group, position, card, self.at(500)))

    def time_out(self) -> list[Effect]:
        deal = self.state.deal
        assert deal is not None and deal.deadline_ms is not None
        self.t = deal.deadline_ms
        return self(Tick(self.t))

    def show(self, declarer: int, declaration: str, hands: dict[int, str]) -> None:
        """A whole show: declare, read, confirm, then every other hand read and confirmed."""
        self.declare(declarer)
        self.read(declarer, declaration)
        self.ok()
        for _ in range(4 * len(self.state.game.seats) + 4):
            if self.state.phase != "show":
                break
            show = self.state.show
            assert show is not None
            if show.stage == "hand-reading":
                seat = show.pending[0]
                self.read(seat, hands[seat])
            else:
                self.ok()
        assert self.state.phase != "show", "the show did not end"

    def replayed(self) -> GameState:
        """The state rebuilt from the log after a JSON round trip of every event."""
        return replay(self.state.game, [event_from_json(e.to_json()) for e in self.log])

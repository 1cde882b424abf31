"""Simulated tables for the club's demo, tests and benchmark: whole games of Indian rummy
(pool 101) played legally, event by event, with a seeded choice of who shows and how much
the losers hold. Only the table's inputs are made up; the engine rules on them as at a
real table, and the events go into a real journal."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from engine.game import (
    LONG_PRESS_MS,
    ButtonPressed,
    ButtonReleased,
    Confirm,
    DealStarted,
    Event,
    Game,
    GameState,
    Seat,
    TableRead,
    apply,
    new_game,
)
from engine.notation import split_groups

#: A valid show when the wild card is 5D, and losing hands of several counts.
SHOW = "4H 5H 6H 7H | KC QC PJ | QD QS QC | 7S 7D 7C"
LOSERS = ("4H 5H 6H | 7C 8C 5D | 9D 9S 4C | KD QD 7S 9S",
          "9S 9H 9C | 8D 9D 6D | 8S 10S JS | QH KH | KS KD",
          "3S 4S 5S | 6D 7D 8D 9D | JC JD JH | 2H 2C KS",
          "4H 5H PJ | KC QC PJ | QD QS QC | 7S 7D 7C 7H")
NAMES = ("Asha", "Ravi", "Meera", "Vikram", "Priya", "Arjun", "Kavya", "Rohan", "Isha", "Dev",
         "Nila", "Tara", "Omar", "Lena", "Sofia", "Yusuf")


def _groups(text: str) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(g) for g in split_groups(text))

def sim_game(seed: int, players: int = 3, names: Sequence[str] | None = None) -> Game:
    """A game of pool 101 at a table of ``players``, its names drawn from the seed."""
    rng = random.Random(seed)
    chosen = list(names) if names is not None else rng.sample(NAMES, players)
    return Game("indian-pool-101", tuple(Seat(n) for n in chosen[:players]))

def sim_events(game: Game, seed: int, turns: tuple[int, int] = (2, 6)) -> Iterator[Event]:
    """The events of one whole game, each legal where it comes (the game ends: pool 101
    eliminates players until one is left). ``t_ms`` advances as at a brisk table."""
    rng = random.Random(seed)
    state: GameState = new_game(game)
    t = 0

    def step(event: Event) -> Event:
        nonlocal state
        state, _ = apply(state, event)
        return event

    for _ in range(200):  # deals (a game never needs nearly so many)
        if state.phase == "game-over":
            return
        t += 1000
        yield step(DealStarted("5D", t))
        for _ in range(rng.randint(*turns)):
            if state.phase != "play" or state.deal is None:
                break
            seat = state.deal.turn
            t += rng.randint(2000, 9000)
            yield step(ButtonPressed(seat, t))
            t += 200
            yield step(ButtonReleased(seat, t))
        if state.deal is None:
            continue
        declarer = state.deal.turn
        t += 1000
        yield step(ButtonPressed(declarer, t))
        t += LONG_PRESS_MS
        yield step(ButtonReleased(declarer, t))
        t += 500
        yield step(TableRead(declarer, _groups(SHOW), t))
        for _ in range(4 * game.players + 4):
            if state.phase != "show" or state.show is None:
                break
            t += 500
            if state.show.stage == "hand-reading" and state.show.pending:
                yield step(TableRead(state.show.pending[0], _groups(rng.choice(LOSERS)), t))
            else:
                yield step(Confirm(t))
        while state.phase == "show":  # never left half way
            t += 500
            yield step(Confirm(t))
    raise RuntimeError("a simulated game did not end")  # pragma: no cover

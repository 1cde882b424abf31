"""Random playouts: any sequence of table inputs keeps the game sound, and replaying the
JSON-serialised log at every step rebuilds exactly the same state (save/reload round trip)."""

from __future__ import annotations

from _game_fixtures import FULL_COUNT, LOSER_58, NO_PURE, VALID_SHOW, Driver, game, groups
from hypothesis import HealthCheck, given, settings
from hypothesis import event as note_outcome
from hypothesis import strategies as st

from engine.game import (
    LONG_PRESS_MS,
    ButtonPressed,
    ButtonReleased,
    CameraLost,
    CameraRestored,
    Confirm,
    Correction,
    DealStarted,
    Drop,
    Effect,
    Event,
    LinkLost,
    LinkRestored,
    MenuPressed,
    TableRead,
    TableSeen,
    Tick,
    effect_from_json,
)
from tablekit.journal import Journal

# weighted towards moving the game on, so playouts reach deal ends and game ends
ACTIONS = ("deal", "short", "short", "long", "long", "other", "expire", "drop", "drop", "menu",
           "ok", "ok", "ok", "read", "read", "read", "correct", "link", "camera", "tick", "see", "see")
HANDS = (VALID_SHOW, LOSER_58, FULL_COUNT, NO_PURE, "4H 5H 6H", "QQ", "9C 9D 9S | KD KH KS | 3H 4H 5H 6H",
         "R1 R2 R3 | B5 Y5 K5 | R10 R11 R12 R13 | K7 K8 K9 | Y2", "B7 B8 B9 | Y11 K4 R7")
CUTS = ("5D", "9C", "PJ", "KS", "AH")
# Whole-table readings for the turn checks (Open Rummy): legal and illegal changes among them.
TABLES = (
    ((), ("6C",), 25),
    (((), (("5S", "6S", "7S"),)), ("6C", "9H"), 24),
    (((), (("5S", "6S", "7S"),), ()), ("6C", "9H", "KD"), 23),
    (((), (("5S", "6S"),)), ("6C", "9H", "KD", "4D"), 22),
    (((), (("5S", "6S", "7S", "8S"),)), ("6C", "9H", "KD", "4D"), 22),
    ((), ("6C", "??"), None),
)


def event_for(d: Driver, action: str, pick: int) -> Event:
    s = d.state
    n = s.game.players
    deal = s.deal
    t = d.at(300 + pick % 7 * 100)
    turn = deal.turn if deal is not None else 0
    if action == "deal":
        return DealStarted(CUTS[pick % len(CUTS)], t)
    if action in ("short", "long", "other"):
        seat = turn if action != "other" else (turn + 1 + pick) % n
        d(ButtonPressed(seat, t))
        return ButtonReleased(seat, d.at(LONG_PRESS_MS if action == "long" else 100))
    if action == "expire":
        if deal is not None and deal.deadline_ms is not None:
            d.t = max(d.t, deal.deadline_ms)
        return Tick(d.t)
    if action == "drop":
        return Drop(turn if pick % 3 else (turn + 1) % n, t)
    if action == "menu":
        return MenuPressed(t)
    if action == "ok":
        return Confirm(t)
    if action == "read":
        zone = turn
        if s.show is not None:
            zone = s.show.pending[0] if s.show.stage.startswith("hand") and s.show.pending else s.show.declarer
        text = HANDS[pick % len(HANDS)]
        if s.show is not None and s.show.stage.startswith("hand") and pick % 4:
            text = (LOSER_58, FULL_COUNT)[pick % 2]
        return TableRead(zone, groups(text) if text != "QQ" else (("QQ",),), t)
    if action == "correct":
        zone = s.show.declarer if s.show is not None else 0
        return Correction(zone, pick % 3, pick % 4, ("QS", "", "PJ", "2C")[pick % 4], t)
    if action == "see":
        melds, discard, stock = TABLES[pick % len(TABLES)]
        # a camera reads the zones of the table's own seats (more could not be journaled)
        return TableSeen(melds[:s.game.players], discard, stock, t)
    if action == "link":
        return LinkLost(t) if s.link_ok else LinkRestored(t)
    if action == "camera":
        return CameraLost(t) if s.camera_ok else CameraRestored(t)
    return Tick(t)


def _cut_for(variant: str, event: Event) -> Event:
    if isinstance(event, DealStarted) and variant == "shanghai":
        return DealStarted("", event.t_ms)
    if isinstance(event, DealStarted) and variant == "tile-rummy":
        return DealStarted("R7", event.t_ms)
    return event


def check_sound(d: Driver, effects: list[Effect]) -> None:
    s = d.state
    assert s.phase in ("setup", "play", "turn-check", "show", "deal-over", "game-over")
    if s.phase == "turn-check":
        assert s.deal is not None and s.deal.watch is not None and s.deal.watch.check is not None
        assert s.deal.deadline_ms is None  # the turn clock waits for the table
    for e in effects:
        assert effect_from_json(e.to_json()) == e
    if s.phase == "play":
        assert s.deal is not None
        assert s.deal.status[s.deal.turn] == "playing"
        assert len(s.deal.playing()) >= 2 or s.deal.status.count("playing") >= 1
    if s.history:
        assert s.totals == s.history[-1].totals
        for record in s.history:
            assert sum(o == "winner" for o in record.outcomes) <= 1
    if s.phase == "game-over":
        assert s.winners


@settings(max_examples=int(__import__("os").environ.get("PLAYOUTS", 40)), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(["indian-pool-101", "indian-points", "indian-deals", "shanghai",
                                 "tile-rummy", "open-rummy-2deck"]),
       players=st.integers(2, 4),
       steps=st.lists(st.tuples(st.sampled_from(ACTIONS), st.integers(0, 50)), min_size=1, max_size=100))
def test_random_playouts_stay_sound_and_replay_exactly(variant, players, steps):
    if variant == "shanghai":
        players = max(players, 3)
    if variant == "open-rummy-2deck":
        players = 4
    d = Driver(game(variant, [f"P{i}" for i in range(players)]))
    journal = Journal(":memory:")
    gid = journal.new_game(d.state.game, 0)
    saved = 0
    for action, pick in steps:
        if d.state.phase in ("setup", "deal-over") and action not in ("deal", "ok", "link", "camera"):
            action = "deal"
        event = event_for(d, action, pick)
        event = _cut_for(variant, event)
        effects = d(event)
        check_sound(d, effects)
        for logged in d.log[saved:]:
            journal.append(gid, logged)
        saved = len(d.log)
        assert journal.restore(gid) == d.state  # saved to SQLite and replayed: the same game
    note_outcome(f"{variant}: {d.state.phase} after {len(d.state.history)} deal(s)")


def playout(variant: str, players: int, seed: int, steps: int) -> Driver:
    import random

    rng = random.Random(seed)
    d = Driver(game(variant, [f"P{i}" for i in range(players)]))
    for _ in range(steps):
        if d.state.phase == "game-over":
            break
        action = rng.choice(ACTIONS)
        if d.state.phase in ("setup", "deal-over"):
            action = "deal"
        event = event_for(d, action, rng.randrange(50))
        event = _cut_for(variant, event)
        check_sound(d, d(event))
        if len(d.log) % 5 == 0:  # the short hypothesis playouts check every step
            assert d.replayed() == d.state
    assert d.replayed() == d.state
    return d


def test_long_seeded_playouts_reach_game_ends_and_replay_exactly():
    ends = deals = 0
    for seed in range(3):
        for variant, players, steps in (("indian-pool-101", 3, 200), ("indian-deals", 2, 150),
                                        ("shanghai", 3, 120), ("tile-rummy", 3, 60),
                                        ("open-rummy-2deck", 4, 120)):
            d = playout(variant, players, seed, steps)
            ends += d.state.phase == "game-over"
            deals += len(d.state.history)
    assert ends >= 4 and deals >= 12

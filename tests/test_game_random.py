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


# --- legal play only: whole games of deals rummy and Open Rummy, replayed at every step -------

# Losing hands for deals rummy (cut 5D): 58 with credit, the full count capped at 80, a hand in
# two groups that counts 0 when counted as arranged (yet is no valid show), a second valid show.
DEALS_LOSERS = (LOSER_58, FULL_COUNT, "4H 5H 6H 7H 8H 9H 10H | 3C 4C 5C 6C 7C 8C",
                "3S 4S 5S | 6D 7D 8D 9D | JC JD JH | 2H 2C 2S")


class Shadow:
    """Every event the driver applies, sent through its JSON form and folded into a second
    state from a new game: the journal's replay, kept step by step."""

    def __init__(self, d: Driver) -> None:
        from engine.game import apply, event_from_json, new_game

        self.d, self.apply, self.load = d, apply, event_from_json
        self.state = new_game(d.state.game)
        self.seen = 0

    def check(self) -> None:
        for event in self.d.log[self.seen:]:
            self.state, _ = self.apply(self.state, self.load(event.to_json()))
        self.seen = len(self.d.log)
        assert self.state == self.d.state


def legal_deals_rummy(seed: int) -> Driver:
    import random

    rng = random.Random(seed)
    options = {"count": "arranged"} if seed % 2 == 0 else {}
    d = Driver(game("indian-deals", [f"P{i}" for i in range(rng.randint(2, 4))], options=options))
    shadow = Shadow(d)
    sleeper = None  # a seat that lets its clock run out every turn of a deal: dropped after 3
    for _ in range(2000):
        s = d.state
        if s.phase == "game-over":
            break
        if s.phase in ("setup", "deal-over"):
            effects = d.deal("5D")
            sleeper = rng.randrange(d.state.game.players) if rng.random() < 0.5 else None
        elif s.phase == "play":
            assert s.deal is not None
            roll = rng.random()
            if roll < 0.08 or s.deal.turn == sleeper:
                effects = d.time_out()
            elif roll < 0.16 and s.deal.turn_count > len(s.deal.status):
                d.declare(s.deal.turn)
                effects = d.read(s.deal.turn, VALID_SHOW)
            else:
                effects = d.end_turn()
        else:
            assert s.phase == "show" and s.show is not None
            if s.show.stage == "hand-reading":
                effects = d.read(s.show.pending[0], rng.choice(DEALS_LOSERS))
            else:
                effects = d.ok()
        check_sound(d, effects)
        shadow.check()
    assert d.state.phase == "game-over"
    assert d.replayed() == d.state
    return d


def _zone(cards: list[list[str]]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(g) for g in cards if g)


def legal_open_rummy(seed: int, max_deals: int, variant: str = "open-rummy-2deck") -> Driver:
    import random

    from engine.families.open_rummy.play import new_deal, play_turn
    from engine.game import MenuPressed
    from engine.variants import find

    rng = random.Random(seed)
    v = find(variant)
    n = v.min_players
    d = Driver(game(variant, ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"][:n]))
    shadow = Shadow(d)

    def seen(table) -> TableSeen:  # type: ignore[no-untyped-def]
        state = table.state()
        melds = tuple(tuple(tuple(str(c) for c in m.cards) for m in state.seat_melds(s)) for s in range(n))
        return TableSeen(melds, tuple(str(c) for c in state.discard), state.stock, d.at(200))

    def step(event: Event) -> None:
        check_sound(d, d(event))
        shadow.check()

    while d.state.phase != "game-over" and len(d.state.history) < max_deals:
        step(DealStarted("", d.at(1000)))
        table = new_deal(rng, players=n, decks=v.decks, dealt=int(str(v.cards_dealt)))
        table.seat = d.state.deal.turn
        step(seen(table))  # the table as dealt
        zones: dict[int, tuple[tuple[str, ...], ...]] = {}
        while d.state.phase == "play":
            seat = table.seat
            assert d.state.deal.turn == seat
            if not table.stock:  # the stock ran out: a ground show from the menu
                step(MenuPressed(d.at(500)))
                step(Confirm(d.at(500)))
                break
            if rng.random() < 0.05:  # the seat's clock runs out: nothing moves on the table
                step(Tick(d.state.deal.deadline_ms))
                d.t = max(d.t, d.state.deal.deadline_ms)
                table.seat = (seat + 1) % n
                table.turns += 1  # the deal's first turn is gone: a turned-up joker is no longer free
                step(seen(table))  # read afresh after a missed turn
                continue
            play_turn(table, rng)
            if not table.hands[seat]:  # out of cards: a show with the team's melds gathered
                team = [s for s in range(n) if s % 2 == seat % 2]
                zones[seat] = _zone([[str(c) for c in m] for s in team for m in table.melds[s]])
                for s in team:
                    table.melds[s] = []
                step(ButtonPressed(seat, d.at(500)))
                step(ButtonReleased(seat, d.at(LONG_PRESS_MS)))
                step(TableRead(seat, zones[seat], d.at(500)))
                break
            step(ButtonPressed(seat, d.at(500)))
            step(ButtonReleased(seat, d.at(100)))
            step(seen(table))
            assert d.state.phase == "play", d.state.notice  # every generated turn is legal
        for s in range(n):
            melds = [[str(c) for c in m] for m in table.melds[s]]
            zones.setdefault(s, _zone(melds + [[str(c) for c in table.hands[s]]]))
        for _ in range(40):
            s = d.state
            if s.phase != "show":
                break
            assert s.show is not None
            if s.show.stage == "hand-reading":
                step(TableRead(s.show.pending[0], zones[s.show.pending[0]], d.at(500)))
            else:
                step(Confirm(d.at(500)))
        assert d.state.phase in ("deal-over", "game-over"), d.state.notice
    assert d.replayed() == d.state
    return d


def test_seeded_legal_games_of_deals_rummy_and_open_rummy_replay_exactly_at_every_step():
    """Whole games played with legal events only, through the live flow: deals rummy (missed
    turns, shows, losing hands counting 0 among them) and Open Rummy (generated legal turns,
    each checked against the camera's reading, shows and ground shows); the journal's events
    replayed give the same state after every one."""
    zero_losers = drops = 0
    for seed in range(4):
        d = legal_deals_rummy(seed)
        zero_losers += sum(1 for r in d.state.history for s, o in enumerate(r.outcomes)
                           if o == "lost" and r.scores[s] == 0)
        drops += sum(r.outcomes.count("missed-turns") for r in d.state.history)
        assert len(d.state.history) == 2 and d.state.winners
    assert zero_losers >= 1 and drops >= 1
    ends = 0
    for seed in range(2):
        d = legal_open_rummy(seed, max_deals=12)
        ends += d.state.phase == "game-over"
        assert len(d.state.history) >= 1
    assert ends >= 1


# --- tile rummy with the players' calls: doubles, the ace, melds ------------------------------

TILE_CALLS = (("double", "B7 B7"), ("double", "Y3"), ("double", "K12 K12"), ("double", "R7 R7"),
              ("double", "JY JY"), ("ace", ""), ("ace", "R8"), ("meld", "R10 R11 R12 | K9 B9 Y9"),
              ("meld", "K9 B9 Y9"), ("meld", "Y4 K4 B4"), ("meld", "B1 B2 B3 B4 B5 B6 B7 B8 B9"),
              ("meld", "R1 R2"), ("pass", ""))
TILE_HANDS = ("R1 R2 R3 | B5 Y5 K5 | R10 R11 R12 R13 | K7 K8 K9 | Y2", "B7 B8 B9 | Y11 K4 R7",
              "Y1 Y2 Y3 Y4 | K13", "JY K4", "R7")
# mostly turns and calls; a show, the pool running out, a lost box or camera now and then
TILE_ACTIONS = ("short",) * 5 + ("call",) * 8 + ("expire", "menu", "ok", "ok", "read", "tick", "other",
                                                  "link", "camera")


def tile_playout(seed: int, steps: int) -> tuple[Driver, int, int]:
    """A seeded game of tile rummy through the live flow, the random table inputs mixed with
    the players' calls; returns the driver and how many calls were answered and refused."""
    import random

    from engine.game import Called

    rng = random.Random(seed)
    d = Driver(game("tile-rummy", ["P0", "P1", "P2"]))
    answered = refused = 0
    for step in range(steps):
        if d.state.phase == "game-over":
            break
        action = rng.choice(TILE_ACTIONS + (("long",) if step > steps // 2 else ()))
        if d.state.phase in ("setup", "deal-over"):
            action = "deal"
        elif d.state.phase == "show":  # the show read through, as a table would
            action = rng.choice(("read", "read", "ok", "ok", "correct", "menu"))
        if d.state.paused and rng.random() < 0.5:  # the box or camera comes back
            action = "link" if not d.state.link_ok else "camera"
        window = d.state.deal is not None and d.state.deal.window_until_ms is not None
        if window and d.state.phase == "play" and rng.random() < 0.7:
            action = "call"  # the opening window: doubles and the ace, mostly
        if action == "call":
            what, tiles = rng.choice(TILE_CALLS[:7] if window else TILE_CALLS)
            deal = d.state.deal
            seat = deal.turn if deal is not None and rng.random() < 0.7 else rng.randrange(3)
            event: Event = Called(seat, what, groups(tiles) if tiles else (), d.at(300))
        elif action == "read" and d.state.show is not None:  # tiles, a valid close among them
            show = d.state.show
            zone = show.pending[0] if show.stage.startswith("hand") and show.pending else show.declarer
            event = TableRead(zone, groups(rng.choice(TILE_HANDS)), d.at(300))
        else:
            event = _cut_for("tile-rummy", event_for(d, action, rng.randrange(50)))
        effects = d(event)
        check_sound(d, effects)
        if action == "call":
            said = [e for e in effects if e.TYPE == "notice"]
            if any(e.TYPE == "buzz" for e in effects):
                refused += 1
            elif said:
                answered += 1
        if len(d.log) % 7 == 0:
            assert d.replayed() == d.state
    assert d.replayed() == d.state
    return d, answered, refused


def test_seeded_tile_playouts_with_calls_stay_sound_and_replay_exactly():
    answered = refused = ends = 0
    for seed in range(4):
        d, yes, no = tile_playout(seed, 160)
        answered += yes
        refused += no
        ends += d.state.phase == "game-over"
        for record in d.state.history:
            assert sum(o == "winner" for o in record.outcomes) <= 1
    # the calls reached the tile rules: some were answered, some refused, and games ended
    assert answered >= 5 and refused >= 5 and ends >= 3

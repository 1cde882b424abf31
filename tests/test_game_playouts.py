"""Seeded playouts of every game the kit referees, end to end through the live flow.

Each of the 34 game ids is played from its first deal to the game's end with legal table
actions only: turns ended with a press, turns timed out, the box and the camera lost and
found again, shows (valid ones, wrong ones, a misread card corrected) with every other hand
read, and where the game has them claims out of turn answered both ways, the upcard bought
in turn, drops, the stock running out, the family's calls (tile rummy's doubles, the ace,
melds, the last thrown tile taken, tiles added and runs broken, built from the melds the
table keeps; the contract games' upcard, chip, goal, joker, push, and Dummy Rummy's floating
discard) and Open Rummy's turns checked against the camera's reading of the whole table.

A table action is legal when the referee takes it: each one is first tried on the state
aside and only played when it is not refused, so the playout never relies on a refusal.
After every step the journal's events, sent through their JSON form, are folded into a new
game and must give the very same state; and every action kind the game supports must have
been played. A few seeds per game and bounded steps keep the whole file short.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
from _game_fixtures import FULL_COUNT, LOSER_58, VALID_SHOW, Driver, game, groups
from test_game_random import Shadow, check_sound, legal_open_rummy

from engine.families.contract import live
from engine.families.contract.variants import ContractVariant
from engine.families.tile import live as tile_live
from engine.game import (
    LONG_PRESS_MS,
    ButtonPressed,
    ButtonReleased,
    Buzz,
    Called,
    CameraLost,
    CameraRestored,
    ClaimMade,
    Confirm,
    Correction,
    DealStarted,
    Drop,
    Effect,
    Event,
    GameState,
    LinkLost,
    LinkRestored,
    MenuPressed,
    TableRead,
    Tick,
    apply,
    policy_for,
)
from engine.game.claims import MENU_CLAIM
from engine.game.deal_flow import REFUSE_BUZZ_MS
from engine.game.flow import MENU_DROP, MENU_STOCK_OUT
from engine.game.state import DealState
from engine.variants import KNOWN_IDS, all_variants, find

SUITS = "HSDC"
#: The contract games' own actions (engine.families.contract.live) a playout may take.
CONTRACT_CALLS = ("upcard", "chip", "goal", "joker", "push", "extend", "float")
#: What a contract game's losers hold when their hands are read: small and large counts.
CONTRACT_LOSERS = ("3C 4D", "KC QC JD KD", "9S | 5H 6H", "AH AS KH KS QH QS JH JS")
TILE_CLOSE = "K9 B9 Y9 | R10 R11 R12 | Y1"
TILE_LOSERS = ("R7 K4", "B2 B3", "K13 Y13 R12")
TILE_CALLS = (("double", "B7 B7"), ("double", "Y3"), ("double", "K12 K12"), ("ace", ""))
TILE_MELDS = ("R10 R11 R12 | K9 B9 Y9", "Y4 K4 B4", "B1 B2 B3", "Y3 Y4 Y5 Y6 Y7 Y8 | K10 B10 R10")
#: The last thrown tile taken: alone (a seat that melded), or into a first meld.
TILE_TAKES = ("R5", "R12 | R10 R11 R12 | K9 B9 Y9", "K4 | B2 B3 B4 B5 | K4 Y4 R4 | K11 K12 K13")
TILE_COLOURS = "RYBK"


@dataclass
class Played:
    """One playout: the driver and the action kinds played (and how often)."""

    d: Driver
    kinds: Counter[str] = field(default_factory=Counter)


def refused(effects: list[Effect]) -> bool:
    return any(isinstance(e, Buzz) and e.ms == REFUSE_BUZZ_MS for e in effects)


class Table:
    """A seeded table playing one game with legal actions only."""

    def __init__(self, variant: str, seed: int, wanted: set[str] | None = None) -> None:
        self.rng = random.Random(f"{variant}/{seed}")
        v = find(variant)
        self.variant = v
        # claims need a seat besides the player in turn and the discarder: three at least
        fewest = max(v.min_players, 3) if v.claim_rules is not None else v.min_players
        players = self.rng.randint(fewest, min(v.max_players, 5))
        options: dict[str, object] = {"cut_ins": True} if "cut_ins" in v.table_options() and seed % 2 else {}
        # Dummy Rummy's optional rules: the floating discard (its calls) and the dummy hand
        # (the dummy hand only where fewer than four play: with four it is refused at setup)
        options |= {key: True for key in ("floating", "dummy_hand") if key in v.table_options()}
        if isinstance(v, ContractVariant) and players >= v.table.dummy_below:
            options.pop("dummy_hand", None)
        self.d = Driver(game(variant, [f"P{i}" for i in range(players)],
                             first_dealer=self.rng.randrange(players), options=options))
        self.shadow = Shadow(self.d)
        self.played = Played(self.d)
        self.rules = self.d.state.game.claim_rules
        self.policy = policy_for(self.d.state.game)
        self.turns_left = 0
        self.paused_by: str | None = None
        #: action kinds not played yet by this game's playouts: chosen now and then
        self.wanted = wanted if wanted is not None else set()

    # --- stepping ------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        return self.d.state

    def would_refuse(self, *events: Event) -> bool:
        s = self.state
        for e in events:
            s, effects = apply(s, e)
            if refused(effects):
                return True
        return False

    def play(self, kind: str, *events: Event, may_refuse: bool = False) -> list[Effect]:
        said: list[Effect] = []
        for e in events:
            effects = self.d(e)
            check_sound(self.d, effects)
            self.shadow.check()  # the journal replayed gives the same state, step by step
            if not may_refuse:
                assert not refused(effects), (kind, e, self.state.notice)
            said += effects
        self.played.kinds[kind] += 1
        self.wanted.discard(kind)
        return said

    def at(self, ms: int) -> int:
        return self.d.at(ms)

    # --- the table's actions ---------------------------------------------------------------

    def cut(self) -> str:
        family = self.variant.family
        if family == "indian":
            return "5D"
        if family == "tile":
            return "R7"
        return ""

    def deal(self) -> None:
        self.play("deal", DealStarted(self.cut(), self.at(1000)))
        deal = self.state.deal
        assert deal is not None
        n = len(deal.playing())
        self.turns_left = self.rng.randint(n + 1, 3 * n + 2)

    def press(self, seat: int, hold: int = 200) -> tuple[Event, Event]:
        return ButtonPressed(seat, self.at(300)), ButtonReleased(seat, self.at(hold))

    def pick_play_action(self) -> str:
        deal = self.state.deal
        assert deal is not None
        options = ["turn"] * 8 + ["timeout", "pause"]
        if self.rules is not None and deal.turn_count > 1:
            options += ["claim"] * 3
            if self.rules.in_turn_pays:
                options += ["buy"]
        if self.policy.drop_outcome(self.state.game, deal, deal.turn) is not None:
            options += ["drop"]
        if self.policy.stock_out_label and self.rng.random() < 0.15:
            options += ["stock-out"]
        if deal.turn_count > 1:
            options += ["wrong-show"]
        options += self.contract_calls(deal)
        if self.variant.family == "tile":
            options += ["call"] * 3
            if deal.window_until_ms is not None:  # the opening window: doubles and the ace
                options = ["call"] * 12 + ["window-ok", "turn"]
        if self.turns_left <= 0:
            options = ["show"] * 6 + ["wrong-show"]
        wanted = sorted(self.wanted & {*options, *(("claim-grant", "claim-keep") if "claim" in options else ())})
        if wanted and self.rng.random() < 0.25:
            kind = self.rng.choice(wanted)
            return {"claim-grant": "claim", "claim-keep": "claim"}.get(kind, kind)
        return self.rng.choice(options)

    def play_step(self) -> None:
        deal = self.state.deal
        assert deal is not None
        if self.paused_by is not None:  # the box or the camera comes back
            back = LinkRestored if self.paused_by == "link" else CameraRestored
            self.paused_by = None
            self.play("resume", back(self.at(2000)))
            return
        action = self.pick_play_action()
        turn = deal.turn
        if action == "turn":
            self.turns_left -= 1
            self.play("turn", *self.press(turn))
        elif action == "timeout":
            self.turns_left -= 1
            assert deal.deadline_ms is not None
            self.d.t = max(self.d.t, deal.deadline_ms)
            self.play("timeout", Tick(self.d.t))
        elif action == "pause":
            self.paused_by = self.rng.choice(("link", "camera"))
            self.play("pause", (LinkLost if self.paused_by == "link" else CameraLost)(self.at(500)))
        elif action == "claim":
            self.claim()
        elif action == "buy":
            self.menu_item("buy", MENU_CLAIM)
        elif action == "drop":
            if self.rng.random() < 0.5:
                self.play("drop", Drop(turn, self.at(500)))
            else:
                self.menu_item("drop", MENU_DROP)
        elif action == "stock-out":
            self.menu_item("stock-out", MENU_STOCK_OUT)
        elif action == "call":
            self.call()
        elif action == "window-ok":
            self.play("window-ok", Confirm(self.at(500)))
        elif action in CONTRACT_CALLS:
            self.contract_call(action)
        else:
            self.show(valid=action == "show")

    def contract_calls(self, deal: DealState) -> list[str]:
        """The contract game's own actions open now (engine.families.contract.live)."""
        if not isinstance(self.variant, ContractVariant):
            return []
        table = self.variant.table
        calls = []
        if live.upcard_open(self.variant, deal):
            calls += ["upcard"] * 2
        if table.cut_chip and deal.turn_count == 1:
            calls += ["chip"] * 2
        if table.personal_goals and deal.turn not in live.of(deal).made:
            calls += ["goal"]
        if table.swap.when == "at-once":
            calls += ["joker"]
        if live.can_push(self.variant, deal):
            calls += ["push"] * 2
        record = live.of(deal)
        if live.floating_on(self.variant, self.state.game.options):
            if record.discarded is not None and record.discarded[1] == deal.turn_count \
                    and record.called_out is None:
                calls += ["extend"] * 2
            if deal.turn in record.made and deal.turn not in record.floating:
                calls += ["float"]
        if deal.window_until_ms is not None:
            calls += ["window-ok"] * 12
        return calls

    def contract_call(self, action: str) -> None:
        deal = self.state.deal
        assert deal is not None and isinstance(self.variant, ContractVariant)
        others = [s for s in deal.playing() if s != deal.turn]
        events: tuple[Event, ...]
        if action == "upcard":  # a press out of turn takes the upcard offered at the deal
            events = self.press(self.rng.choice(others))
        elif action == "chip":
            events = (Called((deal.dealer + 1) % self.state.game.players, "chip", (), self.at(300)),)
        elif action == "goal":  # the melds named (the call panel), or none (the box's chord)
            goal = live.of(deal).goals[deal.turn]
            named = groups(contract_show(self.variant, goal)) if self.rng.random() < 0.7 else ()
            events = (Called(deal.turn, "goal", named, self.at(300)),)
        elif action == "extend":  # another player calls out the last discard
            by = live.of(deal).discarded
            callers = [s for s in deal.playing() if by is None or s != by[0]]
            events = (Called(self.rng.choice(callers), "extend", (), self.at(300)),)
        elif action == "float":
            events = (Called(deal.turn, "float", (), self.at(300)),)
        elif action == "joker":
            events = (Called(self.rng.choice(others), "joker", (("7H",),), self.at(300)),)
        else:
            self.menu_item("call-push", "push")
            return
        if not self.would_refuse(*events):
            self.play(f"call-{action}", *events)

    def menu_item(self, kind: str, item: str) -> None:
        events: list[Event] = [MenuPressed(self.at(300))]
        s, _ = apply(self.state, events[0])
        if item not in s.menu:
            self.play("menu-closed", *events, Confirm(self.at(300)) if not s.menu else MenuPressed(self.at(1)))
            if self.state.menu:  # walk to "close" and take it
                while self.state.menu and self.state.menu[0] != "close":
                    self.play("menu-closed", MenuPressed(self.at(100)))
                self.play("menu-closed", Confirm(self.at(100)))
            return
        for _ in range(s.menu.index(item)):
            events.append(MenuPressed(self.at(100)))
        events.append(Confirm(self.at(300)))
        self.play(kind, *events)

    def claim(self) -> None:
        deal = self.state.deal
        assert deal is not None and self.rules is not None
        others = [s for s in deal.playing() if s != deal.turn]
        self.rng.shuffle(others)
        claimed = 0
        for seat in others[:self.rng.randint(1, 2)]:
            event = ClaimMade(seat, self.at(200))
            if not self.would_refuse(event):
                self.play("claim", event)
                claimed += 1
        if claimed:
            answer = self.rng.choice(("grant", "grant", "keep"))
            if f"claim-{answer}" not in self.wanted and self.wanted & {"claim-grant", "claim-keep"}:
                answer = "keep" if "claim-keep" in self.wanted else "grant"
            event = Confirm(self.at(500)) if answer == "grant" else MenuPressed(self.at(500))
            if not self.would_refuse(event):
                self.play(f"claim-{answer}", event)

    def call(self) -> None:
        deal = self.state.deal
        assert deal is not None
        seat = deal.turn if self.rng.random() < 0.7 else self.rng.randrange(self.state.game.players)
        if deal.window_until_ms is not None:
            calls = [c for c in TILE_CALLS if f"call-{c[0]}" in self.wanted] or TILE_CALLS
            what, tiles = self.rng.choice(calls)
            hold = self.rng.random() < 0.3 and what == "ace"
            events: tuple[Event, ...] = (self.press(seat, LONG_PRESS_MS + 100) if hold else
                                         (Called(seat, what, groups(tiles) if tiles else (), self.at(300)),))
        else:  # in the seat's turn: a meld, the last thrown tile taken, tiles added, a run broken
            table = [g for _, g in tile_live.of(deal).table_now(deal.turn)]
            options = [("meld", t) for t in TILE_MELDS] + [("take", t) for t in TILE_TAKES]
            options += [("add", t) for t in tile_adds(table)] + [("break", t) for t in tile_breaks(table)]
            self.rng.shuffle(options)
            legal = [(w, t) for w, t in options
                     if not self.would_refuse(Called(deal.turn, w, groups(t), self.d.t + 300))]
            if not legal:
                return
            what, tiles = next(((w, t) for w, t in legal if f"call-{w}" in self.wanted), legal[0])
            events = (Called(deal.turn, what, groups(tiles), self.at(300)),)
        if not self.would_refuse(*events):
            self.play(f"call-{what}", *events)

    def losing_hand(self) -> str:
        family = self.variant.family
        if family == "indian":
            return self.rng.choice((LOSER_58, FULL_COUNT))
        if family == "tile":
            return self.rng.choice(TILE_LOSERS)
        return self.rng.choice(CONTRACT_LOSERS)

    def valid_show(self) -> str:
        family = self.variant.family
        if family == "indian":
            return VALID_SHOW
        if family == "tile":
            return TILE_CLOSE
        deal = self.state.deal
        assert deal is not None and isinstance(self.variant, ContractVariant)
        goals = live.of(deal).goals  # Dummy Rummy: the declarer's own goal
        floor = self.variant.policy.show_floor(self.state, deal.turn)  # a whole-hand deal's hand
        return contract_show(self.variant, goals[deal.turn] if goals else deal.number,
                             floor[0] if floor else 0)

    def show(self, valid: bool) -> None:
        deal = self.state.deal
        assert deal is not None
        seat = deal.turn
        self.play("declare", *self.press(seat, LONG_PRESS_MS + 100))
        assert self.state.phase == "show", self.state.notice
        if not valid:
            bad = "R3 B8 K13" if self.variant.uses_tiles else "3C 8D KH"  # read, and no meld
            self.play("wrong-show", TableRead(seat, groups(bad), self.at(500)), Confirm(self.at(500)))
            self.turns_left = 2
            return
        text = self.valid_show()
        if self.rng.random() < 0.3 or "correct" in self.wanted:  # a card misread, then put right
            misread = groups(text)
            first = ("??",) + misread[0][1:]
            self.play("show-read", TableRead(seat, (first, *misread[1:]), self.at(500)))
            self.play("correct", Correction(seat, 0, 0, misread[0][0], self.at(500)))
        else:
            self.play("show-read", TableRead(seat, groups(text), self.at(500)))
        self.play("show-confirm", Confirm(self.at(500)))
        self.read_hands()

    def read_hands(self) -> None:
        """Every other hand read and confirmed (after a show, or when the stock ran out)."""
        for _ in range(4 * self.state.game.players + 4):
            show = self.state.show
            if self.state.phase != "show" or show is None:
                break
            if show.stage == "hand-reading":
                self.play("hand-read", TableRead(show.pending[0], groups(self.losing_hand()), self.at(500)))
            else:
                self.play("hand-confirm", Confirm(self.at(500)))
        assert self.state.phase in ("deal-over", "game-over"), self.state.notice

    def run(self, max_steps: int) -> Played:
        for _ in range(max_steps):
            phase = self.state.phase
            if phase == "game-over":
                break
            if phase in ("setup", "deal-over"):
                self.deal()
            elif phase == "play":
                self.play_step()
            elif phase == "show":  # the stock ran out: every hand is read
                self.read_hands()
            else:
                raise AssertionError(f"a legal playout left the game in {phase}: {self.state.notice}")
        assert self.state.phase == "game-over", (self.variant.id, self.state.phase, len(self.state.history))
        assert self.state.winners
        assert self.d.replayed() == self.state
        return self.played


def _tile(text: str) -> tuple[str, int] | None:
    """(colour, number) of a tile in notation, None for a Joly or anything else."""
    if len(text) >= 2 and text[0] in TILE_COLOURS and text[1:].isdigit():
        return text[0], int(text[1:])
    return None


def _run_of(meld: tuple[str, ...]) -> list[tuple[str, int]] | None:
    """The tiles of ``meld`` in order when it is a plain run (one colour, no Joly)."""
    tiles = [_tile(t) for t in meld]
    if any(t is None for t in tiles) or len({t[0] for t in tiles if t}) != 1:
        return None
    return sorted(t for t in tiles if t is not None)


def tile_adds(table: list[tuple[str, ...]]) -> list[str]:
    """Tiles added to the melds on the table (as ``add`` names them): a run's next or previous
    tile, a formation's missing colour (the referee says which are legal now)."""
    adds = []
    for meld in table:
        lies = " ".join(meld)
        run = _run_of(meld)
        if run is not None:
            colour, low, high = run[0][0], run[0][1], run[-1][1]
            adds += [f"{lies} | {colour}{n}" for n in (high + 1, low - 1) if 1 <= n <= 13]
            continue
        tiles = [_tile(t) for t in meld]
        if all(tiles) and len(meld) == 3:
            number = tiles[0][1] if tiles[0] else 0
            missing = [c for c in TILE_COLOURS if c not in {t[0] for t in tiles if t}]
            adds += [f"{lies} | {c}{number}" for c in missing]
    return adds


def tile_breaks(table: list[tuple[str, ...]]) -> list[str]:
    """Runs on the table broken with tiles from the board (as ``break`` names them): split
    where a copy of one of its tiles joins the second part, or its end tile made into a
    formation with two tiles of other colours."""
    breaks = []
    for meld in table:
        run = _run_of(meld)
        if run is None or len(run) < 4:
            continue
        lies = " ".join(meld)
        names = [f"{c}{n}" for c, n in run]
        for i in range(2, len(run) - 2):
            breaks.append(f"{lies} | {' '.join(names[:i + 1])} | {' '.join(names[i:])}")
        colour, number = run[-1]
        others = [c for c in TILE_COLOURS if c != colour][:2]
        breaks.append(f"{lies} | {' '.join(names[:-1])} | {names[-1]} {' '.join(f'{c}{number}' for c in others)}")
    return breaks


def _group(rank: str, size: int) -> tuple[str, ...]:
    return tuple(f"{rank}{SUITS[i % 4]}" for i in range(size))


def _run(suit: str, size: int) -> tuple[str, ...]:
    names = {11: "J", 12: "Q", 13: "K"}
    return tuple(f"{names.get(r, r)}{suit}" for r in range(2, 2 + size))


def contract_show(variant: ContractVariant, number: int, at_least: int = 0) -> str:
    """A going-out zone meeting deal ``number``'s contract: each group the contract asks for
    (sets of court cards, high enough for a points threshold; runs from the two up, a suit
    each), or for a whole-hand deal sets holding the cards it asks for; its runs grown (or
    sets added) until it holds ``at_least`` cards, the whole hand of a whole-hand deal."""
    terms = variant.contract_for(number)
    ranks = iter(("K", "Q", "J", "10", "9", "8"))
    suits = iter(SUITS)
    melds = []
    for need in terms.needs:
        melds.append(_group(next(ranks), need.size) if need.kind == "group" else _run(next(suits), need.size))
    if not melds:
        cards = terms.exact_cards or terms.min_cards or 9
        sizes = [3] * (cards // 3)
        for k in range(cards % 3):
            sizes[k] += 1
        melds = [_group(next(ranks), size) for size in sizes]
    runs = [i for i, need in enumerate(terms.needs) if need.kind != "group"]
    while sum(map(len, melds)) < at_least:
        if runs:
            i = min(runs, key=lambda k: len(melds[k]))
            melds[i] = _run(melds[i][0][-1], len(melds[i]) + 1)
        else:
            melds.append(_group(next(ranks), 3))
    return " | ".join(" ".join(m) for m in melds)


# --- the games -----------------------------------------------------------------------------

CARD_GAMES = sorted(v.id for v in all_variants() if v.family != "open-rummy")
OPEN_GAMES = sorted(v.id for v in all_variants() if v.family == "open-rummy")


def test_every_game_id_is_played_out_here():
    assert sorted(CARD_GAMES + OPEN_GAMES) == sorted(KNOWN_IDS) and len(KNOWN_IDS) == 34


def expected_kinds(variant: str) -> set[str]:
    """The action kinds a legal playout of ``variant`` must have played."""
    v = find(variant)
    kinds = {"deal", "turn", "timeout", "pause", "resume", "declare", "show-read", "show-confirm",
             "hand-read", "hand-confirm", "correct", "wrong-show"}
    rules = v.claim_rules
    if v.family == "contract" and isinstance(v, ContractVariant):
        table = v.table
        kinds |= {f"call-{c}" for c, on in (("upcard", table.upcard_offer), ("chip", table.cut_chip),
                                           ("goal", table.personal_goals),
                                           ("joker", table.swap.when == "at-once"),
                                           ("push", table.pushing), ("extend", table.floating),
                                           ("float", table.floating)) if on}
        kinds |= {"window-ok"} if table.redraw_deals else set()
    if rules is not None:
        kinds |= {"claim", "claim-grant", "claim-keep"}
        if rules.in_turn_pays:
            kinds.add("buy")
    policy = v.policy
    if v.family == "indian" and getattr(v, "drops_allowed", False):
        kinds.add("drop")
    if policy.stock_out_label:
        kinds.add("stock-out")
    if v.family == "tile":
        kinds |= {"call-double", "call-ace", "call-meld", "call-take", "call-add", "call-break", "window-ok"}
    return kinds


@pytest.mark.parametrize("variant", CARD_GAMES)
def test_a_seeded_legal_playout_reaches_the_game_s_end_replaying_exactly(variant):
    """Three seeds per game, each played to the game's end; between them every action kind
    the game supports is played."""
    kinds: Counter[str] = Counter()
    wanted = expected_kinds(variant)
    for seed in range(3):
        kinds += Table(variant, seed, wanted).run(max_steps=1500).kinds
    missing = expected_kinds(variant) - set(kinds)
    assert not missing, f"{variant} never played: {sorted(missing)}"


@pytest.mark.parametrize("variant", OPEN_GAMES)
def test_a_seeded_legal_open_rummy_game_reaches_its_end_replaying_exactly(variant):
    """Open Rummy's turns are generated legal on a simulated table and each is checked against
    the camera's reading of the whole table; shows, ground shows and timed-out turns among them."""
    d = legal_open_rummy(0, max_deals=60, variant=variant)
    assert d.state.phase == "game-over" and d.state.winners

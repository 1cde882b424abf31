"""``present(state, now)``: the game state as the view-model of the screen the table should see.

Pure and cheap (it runs every frame): no drawing, no I/O. The app passes what only it knows —
the health of the box and camera links, a screen the players asked for with MENU — as
keyword arguments.
"""

from __future__ import annotations

import re
from dataclasses import replace

from display.viewmodel import (
    HEALTH_LOST,
    HEALTH_OK,
    LEVEL_INFO,
    LEVEL_WARNING,
    SEAT_DROPPED,
    SEAT_ELIMINATED,
    SEAT_PLAYING,
    SHOW_CONFIRM,
    SHOW_CORRECTING,
    SHOW_READING,
    CardRef,
    Countdown,
    DealLine,
    DealResultView,
    DeviceHealth,
    GameOverView,
    GroupView,
    PlayView,
    ScoreboardView,
    ScorepadView,
    ScoreSeries,
    SeatView,
    SetupCursor,
    SetupOption,
    SetupPlayer,
    SetupView,
    ShowView,
    Standing,
    Toast,
    TurnCheckView,
    ViewModel,
)
from engine.cards import SUITS, UNREADABLE, parse_card
from engine.errors import TablekitError
from engine.game import (
    LONG_PRESS_MS,
    Game,
    GameState,
    HandReading,
    MenuPressed,
    apply,
    claims,
    has_partnerships,
    policy_for,
)
from engine.game.deal_flow import next_deal_dealer
from engine.game.flow import MENU_CLOSE, MENU_DROP, MENU_STOCK_OUT
from engine.game.policy import FamilyPolicy
from engine.game.scorepad import BLOCKED, CONFIRMING, VERDICT, Entry
from engine.game.seats import team_of
from engine.game.state import DealRecord
from engine.ruling import Ruling, plain_number
from engine.tiles import parse_tile
from engine.variants import Variant

SCOREBOARD = "scoreboard"
VERDICT_PROMPT = "OK: confirm · MENU: read again or correct a card"
TYPING_PROMPT = "type the card · arrows: another card · Enter: correct · Esc: cancel"
PLAY_HINT = f"short press: end turn · hold {LONG_PRESS_MS / 1000:g} s: show"
OUTCOME_WORDS = {
    "winner": "winner", "lost": "", "second-valid": "valid hand, second", "wrong-show": "wrong show",
    "first-drop": "first drop", "middle-drop": "middle drop", "missed-turns": "3 missed turns",
    "deal-show": "deal show (half)", "out": "out",
}


HEALTHY = DeviceHealth()


def present(state: GameState, now_ms: int, *, link: DeviceHealth = HEALTHY,
            camera: DeviceHealth = HEALTHY, screen: str = "",
            toast: Toast | None = None, correcting: tuple[int, int] | None = None,
            proposed: str = "", proposed_note: str = "", prompt: str = "",
            read_again: bool = False, table_unread: str = "", entry: Entry | None = None,
            entry_why: str = "") -> ViewModel:
    """The view-model for ``state`` at table time ``now_ms``.

    On a verdict, ``correcting`` is the card selected for correction, ``proposed`` what it
    would become (with ``proposed_note`` under it) and ``prompt`` what the buttons do then
    (the keyboard's keys by default); ``read_again`` says the selection stands on "read the
    zone again". ``table_unread`` says why the camera cannot read the whole table ("" when
    it can): in a game that checks turns, the play screen then notes that turns go unchecked.
    ``entry`` is a hand the players are entering on the scorepad (the camera read none: the
    words ``entry_why`` say why), shown instead of the show screen."""
    if state.phase == "setup":
        return _setup(state, toast)
    if screen == SCOREBOARD and state.history:
        return scoreboard(state, toast)
    if state.phase == "play":
        return _play(state, now_ms, link, camera, toast, table_unread)
    if state.phase == "turn-check":
        return turn_check(state, toast)
    if state.phase == "show" and entry is not None:
        return scorepad(state, entry, entry_why, toast)
    if state.phase == "show":
        view = _show(state, toast)
        if correcting is not None and view.stage == SHOW_CONFIRM:
            return replace(view, stage=SHOW_CORRECTING, selected=CardRef(*correcting), proposed=proposed,
                           proposed_note=proposed_note, prompt=prompt or TYPING_PROMPT)
        if read_again and view.stage == SHOW_CONFIRM:
            return replace(view, prompt=f"OK: read {view.declarer}'s cards again · MENU: pick a card")
        return view
    if state.phase == "deal-over":
        return deal_result(state, state.history[-1], toast)
    return _game_over(state, toast)


def _n(x: object) -> int | float:
    """A score as the screen prints it (half points as .5)."""
    return plain_number(x)  # type: ignore[arg-type]


# The notation's error for the reader's "??" (and "?") as the engine words it, e.g. in a
# wrong show's notice: "unknown card '??': bad suit".
_UNREAD_ERROR = re.compile(r"unknown (card|tile|card or tile) '\?\??'(: bad (suit|rank))?")


def players_words(text: str) -> str:
    """An engine text with the notation's error for an unread card said as players say it."""
    return _UNREAD_ERROR.sub(lambda m: f"a {'tile' if m.group(1) == 'tile' else 'card'} could not be read", text)


def _toast(state: GameState, toast: Toast | None) -> Toast | None:
    """The app's toast, else the last notice (only on the play and setup screens: elsewhere
    the headline already says it and the prompt must stay visible)."""
    if toast is not None:
        return toast
    return Toast(players_words(state.notice), LEVEL_INFO) if state.notice else None


def _setup(state: GameState, toast: Toast | None) -> SetupView:
    game = state.game
    seconds = policy_for(game).turn_seconds(game)
    options = [SetupOption("turn_seconds", "Turn timer", f"{seconds} s")]
    options += [SetupOption(k, k.replace("_", " ").capitalize(), str(v)) for k, v in sorted(game.options.items())]
    return SetupView(game.variant_id, game.variant.name,
                     tuple(SetupPlayer(s.name, team_label(game.variant, i, s.team))
                           for i, s in enumerate(game.seats)), tuple(options),
                     cursor=SetupCursor("start"),
                     hint=f"{_who_deals(state)} · OK: start the deal",
                     toast=_toast(state, toast))


def _who_deals(state: GameState) -> str:
    """Who deals the coming deal, in words: the first dealer, or after a void deal the same
    dealer dealing that deal again."""
    name = state.game.seats[next_deal_dealer(state)].name
    if state.redeal is not None:
        return f"{name} deals deal {state.redeal} again"
    return f"{name} deals first"


def team_label(variant: Variant, seat: int, team: str = "") -> str:
    """A seat's team as the screen names it: the team the players gave, else (partnership
    games) team A for seats 1, 3, … and team B for seats 2, 4, …."""
    if team:
        return team
    return f"team {'AB'[seat % 2]}" if has_partnerships(variant) else ""


def _seat_state(state: GameState, seat: int) -> str:
    if state.eliminated[seat]:
        return SEAT_ELIMINATED
    if state.deal is not None and state.deal.status[seat] != "playing":
        return SEAT_DROPPED
    return SEAT_PLAYING


def _play(state: GameState, now_ms: int, link: DeviceHealth, camera: DeviceHealth,
          toast: Toast | None, table_unread: str = "") -> PlayView:
    game = state.game
    policy = policy_for(game)
    deal = state.deal
    assert deal is not None
    seats = []
    rules = game.claim_rules
    claim_notes = claims.seat_notes(state, rules)
    family_notes = policy.seat_notes(state)
    for s, seat in enumerate(game.seats):
        note = OUTCOME_WORDS.get(deal.outcomes[s], "") if deal.outcomes[s] else ""
        note = " · ".join(n for n in (note, claim_notes[s], family_notes[s]) if n)
        team = team_label(game.variant, s, seat.team)
        seats.append(SeatView(seat.name, team, _n(state.totals[s]), deal.missed_in_row[s],
                              _seat_state(state, s), note))
    total = policy.turn_seconds(game)
    window = deal.window_until_ms
    window_ms, window_label = policy.opening_window(game, deal.number)
    if window is not None and now_ms < window and window_ms:
        countdown = Countdown((window - now_ms) / 1000, window_ms / 1000, True, window_label)
    elif deal.deadline_ms is not None:
        countdown = Countdown(max(0.0, (deal.deadline_ms - now_ms) / 1000), float(total), True)
    else:
        left = deal.paused_left_ms if deal.paused_left_ms is not None else total * 1000
        countdown = Countdown(left / 1000, float(total), False)
    if not state.link_ok:
        link = DeviceHealth(HEALTH_LOST, "button box lost: play is paused")
    if not state.camera_ok:
        camera = DeviceHealth(HEALTH_LOST, "camera lost: play is paused")
    target, label = policy.target(game)
    held = state.pressed_at[deal.turn]
    if held is not None and now_ms - held >= LONG_PRESS_MS and toast is None:
        toast = Toast(f"{game.seats[deal.turn].name}: release to declare a show", LEVEL_WARNING)
    asking = claims.prompt(state, rules)
    claim = ""
    if asking:  # a claim waits: who asks (or why a claim was refused), then what OK and MENU do
        said = claims.waiting(state, rules)
        assert rules is not None
        claim = f'{" and ".join(game.seats[s].name for s in said)}: "{rules.say}" · {asking}'
        if toast is None:
            refused = state.notice and not state.notice.endswith(f'"{rules.say}"')
            toast = Toast(f"{players_words(state.notice)} · {asking}" if refused else claim, LEVEL_WARNING)
    if state.menu:
        choice = state.menu[0]
        words = {MENU_DROP: f"drop {game.seats[deal.turn].name}",
                 MENU_STOCK_OUT: policy.stock_out_label,
                 claims.MENU_CLAIM: claims.menu_words(state, rules)}.get(choice)
        if words is None:
            words = ("close the menu" if choice == MENU_CLOSE else
                     f"{game.seats[deal.turn].name}: {policy.call_words(game, choice)}")
        toast = Toast(f"MENU: next choice · OK: {words}", LEVEL_WARNING)
    note = f"turns not checked: {table_unread}" if table_unread and policy.watches_turns(game) else ""
    return PlayView(
        variant_name=game.variant.name, seats=tuple(seats), active_seat=deal.turn,
        dealer_seat=deal.dealer, countdown=countdown,
        missed_turn_limit=policy.missed_turn_limit or 0, deal_number=deal.number,
        deals_total=policy.deals_total(game),
        target=policy.deal_label(game, deal.number) or (label if target is None else _target_words(game, target)),
        link=link, camera=camera, paused_reason=state.pause_reason(), hint=play_hint(state),
        note=note, toast=_toast(state, toast), claim=claim)


def menu_choices(state: GameState) -> tuple[str, ...]:
    """What MENU would offer now in play (drop, the stock ran out, …), asked of the engine
    itself so the screen never promises a choice the game does not have."""
    if state.phase != "play" or state.menu:
        return tuple(c for c in state.menu if c != MENU_CLOSE)
    opened, _ = apply(state, MenuPressed(0))
    return tuple(c for c in opened.menu if c != MENU_CLOSE)


def _choice_words(choice: str, policy: FamilyPolicy, game: Game) -> str:
    if choice == MENU_STOCK_OUT:  # "ground show: the stock ran out" -> "the stock ran out"
        return policy.stock_out_label.rsplit(": ", 1)[-1]
    if choice == claims.MENU_CLAIM:
        return "buy the upcard"
    if choice in (MENU_DROP, MENU_CLOSE):
        return choice
    return policy.call_words(game, choice)


def play_hint(state: GameState) -> str:
    """What the buttons do in play: a seat's short and long press, and MENU only when it
    offers something in this family at this moment (a drop, the stock running out). In a game
    with claims a short press out of turn claims the upcard; while a claim waits, the hint is
    what OK and MENU answer it with."""
    policy = policy_for(state.game)
    rules = state.game.claim_rules
    waiting = claims.prompt(state, rules)
    if waiting:
        return waiting
    hint = PLAY_HINT
    deal = state.deal
    offers = [policy.press_call(state, s) for s in range(state.game.players)
              if state.phase == "play" and deal is not None and s != deal.turn]
    if any(offers):  # a short press out of turn makes the family's call (the upcard offered)
        hint += f" · out of turn: {policy.call_words(state.game, next(c for c in offers if c))}"
    elif rules is not None:  # a short press out of turn claims the upcard
        hint += f' · out of turn: "{rules.say}"' + (" (before melding)" if rules.before_melding else "")
    words = [_choice_words(c, policy, state.game) for c in menu_choices(state)]
    return f"{hint} · MENU: {' or '.join(words)}" if words else hint


TURN_CHECK_PROMPT = "OK: accept the turn as it lies · MENU: put it right, then read the table again"
_SEAT = re.compile(r"\bseat (\d+)\b")


def seat_names(state: GameState, text: str) -> str:
    """The turn checker's "seat 2" (counted from 0) as the player's name."""
    names = [s.name for s in state.game.seats]

    def name(m: re.Match[str]) -> str:
        seat = int(m.group(1))
        return names[seat] if seat < len(names) else m.group(0)

    return _SEAT.sub(name, text)


def turn_check(state: GameState, toast: Toast | None = None) -> TurnCheckView:
    """A turn the camera's reading says broke the rules, waiting for the table."""
    deal = state.deal
    assert deal is not None and deal.watch is not None and deal.watch.check is not None
    check = deal.watch.check
    names = [s.name for s in state.game.seats]
    who = names[check.seat]
    headline = f"{who}'s turn is {'still ' if check.reads > 1 else ''}not legal"
    rules = tuple(seat_names(state, v) for v in check.violations) or (seat_names(state, check.reason),)
    return TurnCheckView(who, headline, rules, check.reads, names[deal.turn], TURN_CHECK_PROMPT, toast)


def _target_words(game: Game, target: int) -> str:
    return f"pool {target}" if game.variant.family == "indian" else f"first to {target}"


def wild_cards(wild: str) -> tuple[str, ...]:
    """The cards acting as jokers in a deal whose cut card is ``wild``."""
    if not wild:
        return ()
    card = parse_card(wild)
    text = "A" if card.is_joker else str(card)[:-1]
    return tuple(f"{text}{s}" for s in SUITS) + ("PJ",)


def unread_cards(variant: Variant, cards: tuple[str, ...] | list[str]) -> int:
    """How many of ``cards`` could not be read: the reader's ``??``, or text that is no card
    (no tile) of the variant."""
    parse = parse_tile if variant.uses_tiles else parse_card
    missing = 0
    for card in cards:
        if card == UNREADABLE:
            missing += 1
            continue
        try:
            parse(card)
        except (TablekitError, ValueError):
            missing += 1
    return missing


def unread_words(variant: Variant, missing: int) -> str:
    """"a card could not be read", "2 tiles could not be read"."""
    item = "tile" if variant.uses_tiles else "card"
    return f"a {item} could not be read" if missing == 1 else f"{missing} {item}s could not be read"


def _groups(ruling: Ruling | None, reading: HandReading, variant: Variant) -> tuple[GroupView, ...]:
    if ruling is None:
        # No ruling: the hand could not be judged (a card not read, a miscount). Its reason
        # is the headline's; a group says only what is wrong with the group itself — an
        # unread card where it lies — and is otherwise shown as not judged, never as wrong.
        out = []
        for g in reading.groups:
            missing = unread_cards(variant, g)
            reason = unread_words(variant, missing) if missing else ""
            out.append(GroupView(tuple(g), False, "unread" if missing else "not judged", reason,
                                 judged=False))
        return tuple(out)
    return tuple(GroupView(tuple(str(c) for c in g.cards), g.valid, g.kind.replace("-", " "),
                           g.reason, plain_number(g.points)) for g in ruling.groups)


def _cannot(head: str, reading: HandReading, variant: Variant) -> str:
    """Why a hand has no ruling, in the players' words: an unread card is said as such (the
    reader's "??" is no card the players should see named)."""
    missing = sum(unread_cards(variant, g) for g in reading.groups)
    return f"{head}: {unread_words(variant, missing) if missing else players_words(reading.problem)}"


def _show(state: GameState, toast: Toast | None) -> ShowView:
    show = state.show
    deal = state.deal
    assert show is not None and deal is not None
    names = [s.name for s in state.game.seats]
    # the cut is a joker's rank in card games; a tile game's cut names the ace, no joker
    wild = () if state.game.variant.uses_tiles else wild_cards(deal.wild)
    if show.stage in ("reading", "verdict"):
        reading = show.declaration
        who = names[show.declarer]
        if show.stage == "reading" or reading is None:
            return ShowView(who, stage=SHOW_READING, verdict=f"{who} declares: reading the show…",
                            prompt="lay the melds in your zone", wild_cards=wild, toast=toast)
        ruling = reading.ruling
        valid: bool | None = None if ruling is None else ruling.valid  # None: not judged
        if ruling is None:
            verdict = _cannot("Cannot judge", reading, state.game.variant)
        else:
            verdict = _headline("Valid show" if valid else "Invalid show", ruling.reason)
        return ShowView(who, _groups(ruling, reading, state.game.variant), valid, verdict, SHOW_CONFIRM,
                        VERDICT_PROMPT, wild_cards=wild,
                        points=None if ruling is None else plain_number(ruling.points),
                        toast=toast)
    seat = show.pending[0] if show.pending else show.declarer
    who = names[seat]
    reading = show.current
    if show.stage == "hand-reading" or reading is None:
        why = f"{names[show.declarer]} made a valid show" if show.valid else players_words(state.notice)
        return ShowView(who, stage=SHOW_READING, verdict=f"{who}: lay out your hand…",
                        prompt=why, wild_cards=wild, title=f"{who}'s hand",
                        toast=toast)
    ruling = reading.ruling
    if ruling is None:
        verdict = _cannot("Cannot count", reading, state.game.variant)
    else:
        verdict = f"{who}'s hand: {_n(reading.points or 0)} points"
        note = OUTCOME_WORDS.get(reading.outcome, "")
        if note:
            verdict += f" ({note})"
    return ShowView(who, _groups(ruling, reading, state.game.variant), None if ruling is None else ruling.valid, verdict,
                    SHOW_CONFIRM, VERDICT_PROMPT, wild_cards=wild,
                    points=None if reading.points is None else _n(reading.points), toast=toast,
                    title=f"{who}'s hand")


SCOREPAD_COUNT_PROMPT = "a seat's button: +1 · hold it: +10 · MENU: -1 · OK: done (or type the number)"
SCOREPAD_VERDICT_PROMPT = "a seat's button (or V / W): valid or wrong show · OK: done"
SCOREPAD_CONFIRM_PROMPT = "another seat's button: confirm · MENU: change it"


def scorepad(state: GameState, entry: Entry, why: str = "", toast: Toast | None = None) -> ScorepadView:
    """The scorepad: the hand (or the show's verdict) the players are entering, who entered it
    and who must confirm it, and why the last step was refused."""
    names = [s.name for s in state.game.seats]
    who = names[entry.seat]
    by = names[entry.by_seat] if entry.by_seat is not None else ""
    confirming = entry.stage == CONFIRMING
    if entry.kind == VERDICT:
        word = "valid show" if entry.valid else "wrong show"
        title, question, value, limit = f"{who}'s show", f"Is {who}'s show valid?", word, "valid show or wrong show"
        verdict: bool | None = entry.valid
        prompt = SCOREPAD_VERDICT_PROMPT
    else:
        title, question = f"{who}'s hand", f"How many points does {who}'s hand count?"
        value = entry.typed if entry.typed is not None else str(entry.points)
        word = f"{entry.points} points"
        limit = f"0 to {entry.limit} points" if entry.stage != BLOCKED else ""
        verdict = None
        prompt = SCOREPAD_COUNT_PROMPT
    if confirming:
        others = [n for s, n in enumerate(names) if s != entry.by_seat]
        asked = _listed_or(others) if len(others) <= 3 else (f"anyone but {by}" if by else "anyone")
        confirm_by = f"{asked}: press your button to confirm {word}"
        prompt = SCOREPAD_CONFIRM_PROMPT
    elif entry.stage == BLOCKED:
        confirm_by, prompt = "", "MENU: read the hand again"
    else:
        confirm_by = "then a different seat's button confirms"
    confirmers = tuple((s, n) for s, n in enumerate(names) if s != entry.by_seat) if confirming else ()
    return ScorepadView(who, title, question, value if entry.stage != BLOCKED else "", verdict, limit,
                        f"entered by {by}" if by else "", confirm_by, confirming,
                        entry.typed is not None, players_words(entry.problem), why, prompt, toast,
                        confirmers)


def _listed_or(names: list[str]) -> str:
    """"Ann", "Ann or Bo", "Ann, Bo or Cy"."""
    return f"{', '.join(names[:-1])} or {names[-1]}" if len(names) > 1 else "".join(names)


def _headline(head: str, reason: str) -> str:
    """"Valid show: …" without saying it twice when the reason already starts so."""
    first = reason.split(":", 1)[0].split("(", 1)[0].strip().lower()
    if first in ("valid show", "wrong show", "invalid show"):
        return reason[:1].upper() + reason[1:]
    return f"{head}: {reason}" if reason else head


def deal_result(state: GameState, record: DealRecord, toast: Toast | None = None) -> DealResultView:
    names = [s.name for s in state.game.seats]
    lines = []
    for s, name in enumerate(names):
        if record.outcomes[s] == "out":
            continue
        note = OUTCOME_WORDS.get(record.outcomes[s], "")
        out = state.eliminated[s] and record.number == len(state.history)
        lines.append(DealLine(name, _n(record.scores[s]), _n(record.totals[s]),
                              "eliminated" if out and not note else (note + (", eliminated" if out else "")),
                              record.winner == s, out))
    head = f"{names[record.winner]} wins deal {record.number}" if record.winner is not None else f"Deal {record.number}"
    prompt = "OK: next deal · MENU: scoreboard" if state.phase == "deal-over" else ""
    return DealResultView(record.number, tuple(lines), head, prompt, toast)


def scoreboard(state: GameState, toast: Toast | None = None) -> ScoreboardView:
    game = state.game
    policy = policy_for(game)
    series = tuple(ScoreSeries(seat.name, tuple(_n(r.totals[s]) for r in state.history), state.eliminated[s])
                   for s, seat in enumerate(game.seats))
    target, label = policy.target(game)
    prompt = {"deal-over": "MENU: back · OK: next deal", "game-over": "MENU: back"}.get(state.phase, "")
    return ScoreboardView(f"{game.variant.name}: after deal {len(state.history)}", series, target, label,
                          policy.lower_wins(game), prompt, toast)


def _game_over(state: GameState, toast: Toast | None) -> GameOverView:
    game = state.game
    lower = policy_for(game).lower_wins(game)
    order = sorted(range(game.players), key=lambda s: (state.eliminated[s],
                                                        state.totals[s] if lower else -state.totals[s]))
    standings = []
    for place, s in enumerate(order, 1):
        note = "winner" if s in state.winners else ("eliminated" if state.eliminated[s] else "")
        standings.append(Standing(place, game.seats[s].name, _n(state.totals[s]), note))
    sides = winning_sides(state)
    winner = _listed([" & ".join(side) for side in sides]) or "nobody"
    return GameOverView(winner, tuple(standings), game_over_headline(sides, game.variant.name),
                        len(state.history), "the game is over", toast)


def winning_sides(state: GameState) -> list[tuple[str, ...]]:
    """The winners' names by side: each player alone, or partners together (one team, or
    both when the teams finish level)."""
    game = state.game
    if not has_partnerships(game.variant):
        return [(game.seats[s].name,) for s in state.winners]
    sides: dict[int, list[str]] = {}
    for s in state.winners:
        sides.setdefault(team_of(s), []).append(game.seats[s].name)
    return [tuple(names) for names in sides.values()]


def game_over_headline(sides: list[tuple[str, ...]], game_name: str) -> str:
    """"Ann wins Pool 101", "Ann & Cy win Open Rummy"; a tie: "Ann and Bo share the win",
    "Ann & Cy and Bo & Di share the win"."""
    names = [" & ".join(side) for side in sides]
    if not names:
        return f"Nobody wins {game_name}"
    if len(names) > 1:
        return f"{_listed(names)} share the win"
    return f"{names[0]} {'win' if len(sides[0]) > 1 else 'wins'} {game_name}"


def _listed(names: list[str]) -> str:
    """"Ann", "Ann and Bo", "Ann, Bo and Cy"."""
    return f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else "".join(names)


def health(ok: bool, fallback: bool, message: str) -> DeviceHealth:
    """A device's health as the screen shows it."""
    from display.viewmodel import HEALTH_FALLBACK

    if fallback:
        return DeviceHealth(HEALTH_FALLBACK, message)
    return DeviceHealth(HEALTH_OK if ok else HEALTH_LOST, message)

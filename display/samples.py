"""Sample view-models of every screen: for the preview command, the benchmark and tests."""

from __future__ import annotations

import dataclasses
from typing import TypedDict, Unpack

from display.viewmodel import (
    HEALTH_FALLBACK,
    LEVEL_WARNING,
    SEAT_DROPPED,
    SHOW_CONFIRM,
    SHOW_CORRECTING,
    CallOption,
    CallsView,
    CardRef,
    Countdown,
    DealLine,
    DealResultView,
    DeviceHealth,
    GameOverView,
    GroupView,
    HandPadView,
    HistoryLine,
    HistoryView,
    MessageView,
    NameEntry,
    PlayView,
    RosterName,
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


class PlayChanges(TypedDict, total=False):
    """`PlayView` fields ``play_view`` may be given to override (all but ``seats``, which is a
    seat count there)."""

    variant_name: str
    active_seat: int | None
    dealer_seat: int | None
    countdown: Countdown | None
    missed_turn_limit: int
    deal_number: int
    deals_total: int | None
    target: str
    link: DeviceHealth
    camera: DeviceHealth
    paused_reason: str
    hint: str
    toast: Toast | None
    note: str


NAMES = ("Anita", "Ravi", "Meera", "Joseph", "Farhan", "Lakshmi", "Oskar", "Bea")


def setup_view(players: int = 4) -> SetupView:
    return SetupView(
        variant_id="indian-pool-101",
        variant_name="Indian rummy · pool 101",
        players=tuple(SetupPlayer(n) for n in NAMES[:players]),
        options=(
            SetupOption("turn_seconds", "Turn timer", "45 s"),
            SetupOption("decks", "Decks", "2 + 2 jokers"),
            SetupOption("first_drop", "First drop", "20 points"),
            SetupOption("middle_drop", "Middle drop", "40 points"),
            SetupOption("scoring", "Hands counted", "as arranged"),
        ),
        cursor=SetupCursor("player", 1),
        hint="MENU: next row · OK: change · long OK: start",
    )


def play_view(seats: int = 4, seconds_left: float = 31.5, active: int = 1, **changes: Unpack[PlayChanges]) -> PlayView:
    names = NAMES[:seats]
    view = PlayView(
        variant_name="Indian rummy",
        seats=tuple(
            SeatView(
                name=n,
                score=[12, 40, 0, 77, 58, 23, 91, 5][i],
                missed_turns=1 if i == 2 else 0,
                state=SEAT_DROPPED if i == 3 and seats > 4 else "playing",
                note="dropped 20" if i == 3 and seats > 4 else "",
            )
            for i, n in enumerate(names)
        ),
        active_seat=active,
        dealer_seat=0,
        countdown=Countdown(seconds_left, 45.0),
        missed_turn_limit=3,
        deal_number=3,
        target="pool 101",
        hint="short press: end turn · long press: show",
    )
    return dataclasses.replace(view, **changes) if changes else view


def show_view(valid: bool = False, correcting: bool = False) -> ShowView:
    groups = (
        GroupView(("3H", "4H", "5H"), True, "pure sequence"),
        GroupView(("9S", "10S", "PJ", "QS"), True, "sequence with a joker"),
        GroupView(("KC", "KD", "KS"), True, "set"),
        GroupView(
            ("2D", "7C", "AS") if not valid else ("6C", "6D", "6H"),
            valid,
            "invalid" if not valid else "set",
            "" if valid else "2♦ 7♣ A♠ is neither a sequence nor a set",
            0 if valid else 10,
        ),
    )
    return ShowView(
        declarer="Ravi",
        groups=groups,
        valid=valid,
        verdict="Valid show" if valid else "Wrong show: one group is not a meld",
        stage=SHOW_CORRECTING if correcting else SHOW_CONFIRM,
        prompt="OK: confirm · MENU: correct a card",
        selected=CardRef(3, 1) if correcting else None,
        proposed="8C" if correcting else "",
        wild_cards=("7S",),
        points=None if valid else 80,
    )


def tile_show_view() -> ShowView:
    return ShowView(
        declarer="Meera",
        groups=(
            GroupView(("R7", "R8", "R9", "R10"), True, "run"),
            GroupView(("B11", "Y11", "K11"), True, "group"),
            GroupView(("K1", "JY", "K3"), True, "run with the Joly"),
            GroupView(("Y5", "B6", "?"), False, "invalid", "one tile was not read"),
        ),
        valid=False,
        verdict="Check the last group",
        prompt="OK: confirm · MENU: correct",
    )


def turn_check_view(reads: int = 1) -> TurnCheckView:
    return TurnCheckView(
        player="Joseph",
        headline="Joseph's turn is not legal" if reads == 1 else "Joseph's turn is still not legal",
        violations=(
            "laid 5♠ 6♠ in front of seat 2: new melds go only in front of the player who lays them",
            "5♠ 6♠ 7♠ was taken off the table: cards laid down stay on the table",
            "no discard: a turn always ends with exactly one card on the discard pile, so a hand "
            "is never emptied without one",
        ),
        reads=reads,
        next_player="Anita",
        prompt="OK: accept the turn as it lies · MENU: put it right, then read the table again",
    )


def deal_view() -> DealResultView:
    return DealResultView(
        deal_number=3,
        headline="Ravi wins deal 3",
        lines=(
            DealLine("Ravi", 0, 40, "winner", winner=True),
            DealLine("Anita", 20, 32, "first drop"),
            DealLine("Meera", 56, 56, ""),
            DealLine("Joseph", 80, 157, "wrong show", eliminated=True),
        ),
        prompt="OK: next deal",
    )


def scoreboard_view(deals: int = 6) -> ScoreboardView:
    steps = {
        "Anita": (12, 20, 0, 33, 2, 25, 0, 10, 40, 5),
        "Ravi": (40, 0, 17, 20, 0, 9, 30, 0, 2, 12),
        "Meera": (0, 45, 26, 0, 18, 0, 5, 60, 0, 80),
        "Joseph": (77, 3, 0, 24, 80, 0, 0, 0, 0, 0),
    }
    series = []
    for name, pts in steps.items():
        total, totals = 0, []
        for p in pts[:deals]:
            total += p
            totals.append(total)
        series.append(ScoreSeries(name, tuple(totals), eliminated=total >= 101))
    return ScoreboardView(
        title=f"Scores after deal {deals}",
        series=tuple(series),
        target=101,
        target_label="101: out",
        prompt="OK: back to the table",
    )


def gameover_view() -> GameOverView:
    return GameOverView(
        winner="Ravi",
        headline="Ravi wins pool 101",
        standings=(
            Standing(1, "Ravi", 78, "winner"),
            Standing(2, "Anita", 97),
            Standing(3, "Meera", 149, "out in deal 8"),
            Standing(4, "Joseph", 184, "out in deal 5"),
        ),
        deals_played=10,
        prompt="OK: new game",
    )


def message_view() -> MessageView:
    return MessageView(
        title="Waiting for the button box",
        body="Plug the box into a USB port. The keyboard works meanwhile: space ends a turn, S declares a show.",
        level=LEVEL_WARNING,
        prompt="OK: use the keyboard",
    )


def every_screen() -> dict[str, ViewModel]:
    """One sample of each screen, by a short name usable as a file name."""
    return {
        "setup": setup_view(),
        "play": play_view(),
        "play-6-seats-paused": play_view(
            6,
            12.0,
            4,
            paused_reason="The camera is not answering: check its cable",
            camera=DeviceHealth("lost", "camera lost"),
            link=DeviceHealth(HEALTH_FALLBACK, "keyboard instead of the box"),
        ),
        "play-8-seats": play_view(8, 6.0, 6, toast=Toast("Joseph dropped (20)", LEVEL_WARNING)),
        "show-valid": show_view(True),
        "show-invalid": show_view(False),
        "show-correcting": show_view(False, correcting=True),
        "show-tiles": tile_show_view(),
        "show-correcting-by-button": dataclasses.replace(
            show_view(False, correcting=True), proposed="", proposed_note="remove this card",
            prompt="Ravi's button: next rank · hold it: next suit · OK: correct · MENU: next card"),
        "turn-check": turn_check_view(),
        "turn-check-read-again": turn_check_view(reads=2),
        "deal": deal_view(),
        "scoreboard": scoreboard_view(),
        "gameover": gameover_view(),
        "gameover-choices": dataclasses.replace(gameover_view(), choices=("Rematch", "New players", "History", "Scores"),
                                                choice=1, prompt="MENU: next choice · OK: take it"),
        "setup-roster": dataclasses.replace(
            setup_view(3), cursor=SetupCursor("roster", 2),
            roster=tuple(RosterName(n, i + 1 if i < 3 else None) for i, n in enumerate(NAMES))),
        "setup-adding-a-name": dataclasses.replace(
            setup_view(3), cursor=SetupCursor("add"), editing=True, roster=(),
            entry=NameEntry("Mee", tuple("nopqrstuv"), 4, 24, "Seat button: next letter · OK: take it",
                            "Meera is on the list already")),
        "history": HistoryView(tuple(HistoryLine("Sat 14 Jun 19:05", "Indian rummy · pool 101", ", ".join(NAMES[:4]),
                                                 "Ravi", 8) for _ in range(5))
                               + (HistoryLine("Sat 14 Jun 21:40", "Shanghai", "Anita, Joseph", "", 3, "unfinished"),),
                               1, 2, prompt="MENU: next page · OK: back"),
        "scorepad-count": ScorepadView(
            "Ravi", "Ravi's hand", "How many points does Ravi's hand count?", "45", limit="0 to 80 points",
            entered_by="entered by Asha", confirm_by="Ravi or Meera: your button confirms 45", confirming=True,
            why="no camera", prompt="MENU: change it", confirmers=((1, "Ravi"), (2, "Meera"))),
        "scorepad-verdict": ScorepadView(
            "Meera", "Meera's show", "Is Meera's show valid?", "wrong show", verdict=False,
            problem="the seat that entered it cannot confirm it", why="the camera read nothing",
            prompt="a seat's button: valid or wrong · OK: done"),
        "scorepad-cards": ScorepadView(
            "Meera", "Meera's show", "Which tiles does Meera show?", "7 tiles", verdict=True,
            entered_by="entered by Asha", why="no camera", prompt="OK: done",
            hand=HandPadView((("R10", "R11", "R12"), ("K9", "B9", "Y9", "JY")), (1, 4), True, None,
                             "a valid show", True)),
        "calls": CallsView(
            tuple(NAMES[:3]), 1,
            (CallOption("double", "declare a double", True), CallOption("ace", "show the ace", False,
                                                                        "Cy has shown the ace's twin already", False),
             CallOption("meld", "lay a meld", False, "the doubles window is still open")),
            0, HandPadView((("B7", "B7"),), (0, 2), True), "Ravi declares a low double: B7 B7",
            prompt="←/→: seat · ↑/↓: call · Return: call · Esc: close"),
        "message": message_view(),
    }


"""The referee's game flow: a pure state machine folded over table events.

``Game`` holds what is fixed, ``GameState`` what changes; ``apply(state, event)`` answers with
the next state and the effects the app should perform; ``replay`` rebuilds a state from a
journal. No clock, no I/O: time and chance (the cut card) arrive as events.
"""

from engine.game.effects import (
    EFFECT_TYPES,
    Buzz,
    Effect,
    GameOver,
    Notice,
    ReadCut,
    ReadTable,
    ReadZone,
    SetLed,
    ShowVerdict,
    StartTimer,
    StopTimer,
    WriteScores,
    effect_from_json,
)
from engine.game.events import (
    EVENT_TYPES,
    ButtonPressed,
    ButtonReleased,
    Called,
    CameraLost,
    CameraRestored,
    ClaimMade,
    Confirm,
    Correction,
    DealStarted,
    Declare,
    Drop,
    Event,
    HandEntered,
    LinkLost,
    LinkRestored,
    MenuPressed,
    TableRead,
    TableSeen,
    Tick,
    TimerExpired,
    event_from_json,
)
from engine.game.flow import LONG_PRESS_MS, apply, new_game, replay
from engine.game.policy import FamilyPolicy, Standings, policy_for
from engine.game.seats import TURN_SECONDS, team_of
from engine.game.setup import (
    Game,
    Seat,
    SeatingError,
    SetupError,
    check_seating,
    has_partnerships,
)
from engine.game.state import (
    DealRecord,
    DealState,
    FamilyDeal,
    GameState,
    HandReading,
    ShowState,
    TableWatch,
    TurnCheck,
)

__all__ = [
    "EFFECT_TYPES", "EVENT_TYPES", "LONG_PRESS_MS", "TURN_SECONDS",
    "Buzz", "ButtonPressed", "ButtonReleased", "Called", "CameraLost", "CameraRestored", "ClaimMade", "Confirm",
    "Correction", "DealRecord", "DealStarted", "DealState", "Declare", "Drop", "Effect", "Event",
    "FamilyDeal", "FamilyPolicy", "Game", "GameOver", "GameState", "HandEntered", "HandReading", "LinkLost", "LinkRestored",
    "MenuPressed", "Notice", "ReadCut", "ReadTable", "ReadZone", "Seat", "SeatingError", "SetLed",
    "SetupError", "ShowState", "ShowVerdict", "Standings", "StartTimer", "StopTimer", "TableRead",
    "TableSeen", "TableWatch", "Tick", "TimerExpired", "TurnCheck", "WriteScores", "apply",
    "check_seating", "effect_from_json", "event_from_json", "has_partnerships", "new_game",
    "policy_for", "replay", "team_of",
]

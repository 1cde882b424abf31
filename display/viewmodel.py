"""View-models: what each table screen shows, as plain frozen data (no pygame, no engine).

`tablekit.present` builds one of these from the game state and the clock; `display` draws it
and decides nothing. Every field is plain data (str, int, float, bool, tuples of them), so a
view-model is hashable, prints readably in a test failure, and can be written to a fixture.

Conventions:

* Cards and tiles are strings in the judge notation: ``"QH"``, ``"10C"``, ``"PJ"`` (printed
  joker), ``"R7"``, ``"K13"``, ``"JY"`` (Joly). A string that is not a card (``"?"``, ``""``)
  is drawn as an unread card, so a misread can still be shown and corrected.
* Seats are listed in table order (clockwise, as the players sit); ``active_seat`` and
  ``dealer_seat`` are indexes into that tuple, ``None`` when there is none.
* Scores are numbers as the variant counts them; the screen only prints and plots them.
* Texts (reasons, prompts, messages) are already in players' words; the screen never
  composes game wording itself, except the short fixed labels of its own layout.

Stability: the app codes against these names. Change them only by adding fields with
defaults or adding new classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

Score: TypeAlias = int | float

# Health of the button-box link and of the camera.
HEALTH_OK: Final = "ok"  # working
HEALTH_FALLBACK: Final = "fallback"  # absent, a stand-in is used (keyboard, photo folder)
HEALTH_LOST: Final = "lost"  # was working and is gone; play is paused
HEALTH_STATES: Final = (HEALTH_OK, HEALTH_FALLBACK, HEALTH_LOST)

# How a seat stands in the game.
SEAT_PLAYING: Final = "playing"
SEAT_DROPPED: Final = "dropped"  # out of this deal (a drop, a missed-turn drop)
SEAT_ELIMINATED: Final = "eliminated"  # out of the game (pool limit reached)
SEAT_STATES: Final = (SEAT_PLAYING, SEAT_DROPPED, SEAT_ELIMINATED)

# Toast and message levels.
LEVEL_INFO: Final = "info"
LEVEL_WARNING: Final = "warning"
LEVEL_ERROR: Final = "error"
LEVELS: Final = (LEVEL_INFO, LEVEL_WARNING, LEVEL_ERROR)

# Stages of the show screen.
SHOW_READING: Final = "reading"  # the camera is reading the declarer's zone
SHOW_CONFIRM: Final = "confirm"  # verdict shown, waiting for OK (or MENU to correct)
SHOW_CORRECTING: Final = "correcting"  # a card is selected and being corrected
SHOW_STAGES: Final = (SHOW_READING, SHOW_CONFIRM, SHOW_CORRECTING)


@dataclass(frozen=True, slots=True)
class Toast:
    """A one-line message over the bottom of any screen ("Camera back", "Seat 3 dropped")."""

    text: str
    level: str = LEVEL_INFO


@dataclass(frozen=True, slots=True)
class DeviceHealth:
    """The state of one device (link to the button box, or camera) and what to tell players."""

    state: str = HEALTH_OK
    message: str = ""  # e.g. "keyboard instead of the button box", "camera unplugged"


# --- setup ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SetupPlayer:
    """One player as seated on the setup screen."""

    name: str
    team: str = ""  # team label for partnership games, "" when playing alone


@dataclass(frozen=True, slots=True)
class SetupOption:
    """One house-rule or game option: its label and its current value, both as shown."""

    key: str  # stable id, e.g. "turn_seconds"
    label: str  # e.g. "Turn timer"
    value: str  # e.g. "45 s"


@dataclass(frozen=True, slots=True)
class SetupCursor:
    """Where the setup cursor stands: ``section`` is "variant", "player", "option" or "start";
    ``index`` is the player or option index within its section (0 otherwise)."""

    section: str = "variant"
    index: int = 0


@dataclass(frozen=True, slots=True)
class RosterName:
    """A name on the roster beside the setup screen; ``seat`` (1-based) once it is picked."""

    name: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class NameEntry:
    """A name being added on the setup screen: the letters so far and the letter wheel (the
    letters around the one under the wheel, ``wheel[wheel_index]`` being that one)."""

    text: str = ""
    wheel: tuple[str, ...] = ()
    wheel_index: int = 0
    limit: int = 24  # the longest name taken (a longer one is refused when it is finished)
    hint: str = ""  # what the buttons and keys do while adding a name
    problem: str = ""  # why the name was refused, e.g. "Ravi is on the list already"


@dataclass(frozen=True, slots=True)
class SetupView:
    """The setup screen: pick the game, seat the players, set the options, then start."""

    variant_id: str
    variant_name: str
    players: tuple[SetupPlayer, ...] = ()
    options: tuple[SetupOption, ...] = ()
    cursor: SetupCursor = SetupCursor()
    editing: bool = False  # the row under the cursor is being changed
    hint: str = ""  # e.g. "MENU next · OK change"
    problem: str = ""  # why the game cannot start yet, e.g. "Indian rummy needs 2 to 6 players"
    toast: Toast | None = None
    # the roster to pick players from (None: no roster column); the cursor's section "roster"
    # indexes it, "add" is its "add a name" row
    roster: tuple[RosterName, ...] | None = None
    entry: NameEntry | None = None  # a name being added (drawn over the roster and options)
    resume: str = ""  # the game left unfinished, offered on a "Resume" row (cursor "resume")


# --- play ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat in the ring around the table."""

    name: str
    team: str = ""
    score: Score = 0  # running total in the variant's own count
    missed_turns: int = 0  # missed turns in a row
    state: str = SEAT_PLAYING
    note: str = ""  # short extra line, e.g. "drop 20", "2 cards"


@dataclass(frozen=True, slots=True)
class Countdown:
    """The turn timer of the active seat."""

    seconds_left: float
    total_seconds: float
    running: bool = True  # False while paused: the ring is drawn frozen and dimmed
    label: str = ""  # e.g. "doubles window"


@dataclass(frozen=True, slots=True)
class PlayView:
    """The play screen: the seat ring, whose turn it is, the countdown and device health."""

    variant_name: str
    seats: tuple[SeatView, ...]
    active_seat: int | None = None
    dealer_seat: int | None = None
    countdown: Countdown | None = None
    missed_turn_limit: int = 0  # marks drawn out of this many; 0 = just the count
    deal_number: int = 1
    deals_total: int | None = None  # fixed-length games (Shanghai: 10); None otherwise
    target: str = ""  # e.g. "pool 101", "first to 500"
    link: DeviceHealth = DeviceHealth()
    camera: DeviceHealth = DeviceHealth()
    paused_reason: str = ""  # non-empty: play is paused and this says why
    hint: str = ""  # e.g. "short press: end turn · long press: show"
    toast: Toast | None = None
    note: str = ""  # a standing note in small print under the header, e.g. "turns not checked: …"
    calls: str = ""  # the label of the button that opens the call panel ("" none: no calls in this game)
    claim: str = ""  # a claim out of turn waiting for OK or MENU, in words ("" when none): a scene of its own
    club_url: str = ""  # the club's page for this table ("" not in a club): drawn as a QR code


# --- show verdict --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GroupView:
    """One group of the shown hand as recognized, with the engine's verdict on it."""

    cards: tuple[str, ...]
    valid: bool
    kind: str = ""  # e.g. "pure sequence", "set", "invalid"
    reason: str = ""  # in players' words; shown under the group, mostly for invalid ones
    points: Score = 0
    judged: bool = True  # False: no verdict on it (the hand could not be judged): drawn neutral


@dataclass(frozen=True, slots=True)
class CardRef:
    """A card on the show screen: group index and position within the group."""

    group: int
    index: int


@dataclass(frozen=True, slots=True)
class ShowView:
    """The show verdict: the declarer's groups drawn as cards, each marked valid or not."""

    declarer: str
    groups: tuple[GroupView, ...] = ()
    valid: bool | None = None  # the whole show; None while still reading
    verdict: str = ""  # headline, e.g. "Valid show" / "Invalid show: no pure sequence"
    stage: str = SHOW_CONFIRM
    prompt: str = ""  # e.g. "OK: confirm · MENU: correct a card"
    selected: CardRef | None = None  # the card under correction
    proposed: str = ""  # the card the selected one would become, e.g. "8H"
    wild_cards: tuple[str, ...] = ()  # cards acting as jokers this deal, e.g. ("7S", "7H", ...)
    loose: tuple[str, ...] = ()  # cards outside any group (deadwood)
    points: Score | None = None  # points charged for this hand, when known
    toast: Toast | None = None
    title: str = ""  # the header; "" gives "<declarer> shows" (e.g. "Ravi's hand" when counting)
    proposed_note: str = ""  # under the proposed card, e.g. "remove this card", "Ravi's button"
    # the photo the reading was made from (a JPEG; ``tablekit history --replay``), drawn in a
    # side panel; None: no photo (the panel is not drawn), b"" or damaged: "photo unreadable"
    photo: bytes | None = None


# --- scorepad ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandPadView:
    """Cards (or tiles) entered by hand: the scorepad's cards of a hand, a call's tiles.

    ``groups`` in the notation; ``cursor`` the slot the keys change (group, position: a
    position past a group's last card is "add a card to it", a group past the last "a new
    group"; None: nothing is being changed); ``typed`` the text typed at the keyboard (None:
    nothing typed); ``ruling`` the engine's word on the cards as they stand ("valid show",
    "wrong show: …", "Bo's hand: 23 points"), ``valid`` its colour (None: neither);
    ``editable`` whether the keys are drawn (the screen's rank, suit, remove and new-group
    keys, marked ``pad:rank:N``, ``pad:suit:S``, ``pad:remove``, ``pad:group``, each card
    and "add" slot ``pad:slot:G:I``)."""

    groups: tuple[tuple[str, ...], ...] = ()
    cursor: tuple[int, int] | None = None
    tiles: bool = False
    typed: str | None = None
    ruling: str = ""
    valid: bool | None = None
    editable: bool = True


@dataclass(frozen=True, slots=True)
class ScorepadView:
    """The scorepad: the players enter a hand (or a show's verdict) the camera did not read,
    and a different seat confirms it."""

    player: str  # whose hand or show
    title: str = ""  # e.g. "Ravi's hand"
    question: str = ""  # e.g. "How many points does Ravi's hand count?"
    value: str = ""  # the number as entered so far, or "valid show" / "wrong show"
    verdict: bool | None = None  # a show's verdict as entered; None for a count
    limit: str = ""  # what the game takes, e.g. "0 to 80 points"
    entered_by: str = ""  # e.g. "entered by Asha", "typed at the keyboard"
    confirm_by: str = ""  # who confirms, e.g. "Ravi or Meera: your button confirms 45"
    confirming: bool = False  # entered: waiting for a second seat
    typing: bool = False  # digits are being typed at the keyboard
    problem: str = ""  # why an entry was refused, e.g. "a hand counts at most 80 points"
    why: str = ""  # why the table asks, e.g. "no camera"
    prompt: str = ""
    toast: Toast | None = None
    #: while confirming, the seats that may confirm (seat number, name): drawn as buttons to tap
    confirmers: tuple[tuple[int, str], ...] = ()
    #: the cards entered, for a game that scores from the cards (None: a count or a verdict)
    hand: HandPadView | None = None


# --- calls (tile rummy: a double, the ace, a meld) -------------------------------------------


@dataclass(frozen=True, slots=True)
class CallOption:
    """One call a seat may make: its name in the game's rules (``double``), in words
    (``declare a double``), and whether the rules take it now with the tiles entered
    (``ready``) or why not (``why``)."""

    call: str
    label: str
    ready: bool = False
    why: str = ""
    tiles: bool = True  # the call names tiles (the pad is shown for it)


@dataclass(frozen=True, slots=True)
class CallsView:
    """The call panel: a seat makes a call its game's rules answer, at the table (keyboard,
    touch). Marked for touch: ``call:seat:N``, ``call:what:NAME``, ``call:make``, ``call:close``,
    and the tile keys of ``hand`` (:class:`HandPadView`)."""

    seats: tuple[str, ...]
    seat: int
    options: tuple[CallOption, ...]
    chosen: int = 0
    hand: HandPadView | None = None
    said: str = ""  # the rules' answer to the last call
    refused: bool = False
    prompt: str = ""
    toast: Toast | None = None


# --- turn check ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnCheckView:
    """A turn the camera's reading of the table says broke the rules; play waits for the table."""

    player: str  # whose turn it was
    headline: str = ""  # e.g. "Di's turn is not legal"
    violations: tuple[str, ...] = ()  # every rule broken, in players' words
    reads: int = 1  # how many readings found it so (the table was read again after a fix)
    next_player: str = ""  # who plays once it is settled
    prompt: str = ""  # e.g. "OK: accept the turn as it lies · MENU: put it right, read again"
    toast: Toast | None = None


# --- deal result, scoreboard, game over ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealLine:
    """One player's line in a deal's result."""

    name: str
    points: Score  # this deal
    total: Score  # running total after this deal
    note: str = ""  # e.g. "winner", "first drop", "invalid show", "eliminated"
    winner: bool = False
    eliminated: bool = False


@dataclass(frozen=True, slots=True)
class DealResultView:
    """The result of one deal: who won and what everybody scored."""

    deal_number: int
    lines: tuple[DealLine, ...]
    headline: str = ""  # e.g. "Ravi wins deal 3"
    prompt: str = ""
    toast: Toast | None = None


@dataclass(frozen=True, slots=True)
class ScoreSeries:
    """One player's (or team's) running total after each deal, deal 1 first."""

    name: str
    totals: tuple[Score, ...]
    eliminated: bool = False


@dataclass(frozen=True, slots=True)
class ScoreboardView:
    """Running totals per deal, as a table and a line chart."""

    title: str
    series: tuple[ScoreSeries, ...]
    target: Score | None = None  # a line across the chart (pool limit, target score)
    target_label: str = ""  # e.g. "101 — out"
    lower_is_better: bool = True  # Indian pool: low is good; Open rummy to a target: high
    prompt: str = ""
    toast: Toast | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """One place in the final standings."""

    place: int
    name: str
    total: Score
    note: str = ""


@dataclass(frozen=True, slots=True)
class GameOverView:
    """The end of the game: the winner and the final standings."""

    winner: str
    standings: tuple[Standing, ...]
    headline: str = ""  # e.g. "Meera wins pool 101"
    deals_played: int = 0
    prompt: str = ""  # e.g. "OK: new game"
    toast: Toast | None = None
    choices: tuple[str, ...] = ()  # what the table can do next, e.g. ("Rematch", "New players")
    choice: int = 0  # the choice under the cursor


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One past game in the history list."""

    when: str  # e.g. "Sat 14 Jun 19:05"
    game: str  # the variant's name
    players: str  # e.g. "Asha, Ravi, Meera"
    winners: str = ""  # e.g. "Ravi"; "" while unfinished
    deals: int = 0
    status: str = ""  # "" for a finished game, else e.g. "unfinished"


@dataclass(frozen=True, slots=True)
class HistoryView:
    """The last games in the journal, a page at a time, the latest first."""

    lines: tuple[HistoryLine, ...] = ()
    page: int = 1
    pages: int = 1
    title: str = "History"
    note: str = ""  # e.g. "No games yet", or why the journal could not be read
    prompt: str = ""
    toast: Toast | None = None


@dataclass(frozen=True, slots=True)
class MessageView:
    """A whole-screen message: starting up, waiting for the box, a fault players must see."""

    title: str
    body: str = ""
    level: str = LEVEL_INFO
    prompt: str = ""
    toast: Toast | None = None


ViewModel: TypeAlias = (
    SetupView
    | PlayView
    | ShowView
    | TurnCheckView
    | DealResultView
    | ScoreboardView
    | GameOverView
    | MessageView
    | HistoryView
    | ScorepadView
    | CallsView
)

VIEW_TYPES: Final = (
    SetupView,
    PlayView,
    ShowView,
    TurnCheckView,
    DealResultView,
    ScoreboardView,
    GameOverView,
    MessageView,
    HistoryView,
    ScorepadView,
    CallsView,
)

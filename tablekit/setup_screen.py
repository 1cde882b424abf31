"""The setup screen before a game: the game, the players, the turn timer and the counting,
chosen with MENU (next row) and OK (change it, or start on Start).

With a roster (:class:`tablekit.roster.Roster`) the screen lists the table's players: OK on a
name seats that player (the order names are picked is the seat order) or stands them up again,
and OK on "Add a name" opens the name editor. A name is typed on a keyboard, or spelled with
the box on a letter wheel: a seat button steps the wheel (a tap: the next letter; held: back,
one letter and then one every quarter second), OK takes the letter under the wheel, a hold of
OK finishes the name, MENU erases the last letter (and, with nothing left, closes the editor).
A tap on a letter of the wheel takes that letter.

A name comes off the roster after a question ("Take Ravi off the list?", OK: take it off,
MENU: keep it): OK held on the name (:data:`REMOVE_HOLD_S`; OK on a name acts when it is let
go), Delete or Backspace on it, or a tap on the "remove" beside the name under the cursor.
The games that name played stay in the journal as they were.

A game left unfinished in the journal (:func:`left_game`) is offered on a "Resume" row: OK
on it (or a second tap) ends the setup screen with a :class:`Resume` of that game, which the
table picks up exactly where its journal left it.
"""

from __future__ import annotations

from dataclasses import dataclass

from display.viewmodel import (
    LEVEL_WARNING,
    MessageView,
    NameEntry,
    RosterName,
    SetupCursor,
    SetupOption,
    SetupPlayer,
    SetupView,
    ViewModel,
)
from engine.errors import TablekitError
from engine.game import Game, Seat
from engine.game.setup import MAX_NAME, NAME_JOINERS, check_names
from engine.variants import Variant, find
from tablekit.journal import Journal
from tablekit.present import team_label
from tablekit.roster import Roster, RosterError

TURN_CHOICES = (0, 30, 45, 60, 90)  # 0: the variant's own timer
#: The letter wheel: letters, then a space and the marks names use, then digits.
WHEEL = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + (" ", "-", "'", ".") + tuple("0123456789")
WHEEL_SHOWN = 4  # letters shown either side of the one under the wheel
HOLD_S = 0.5  # a seat button held this long steps the wheel back…
REPEAT_S = 0.25  # …and again every this long while it is held
FINISH_S = 1.0  # OK held this long finishes the name
REMOVE_HOLD_S = 1.0  # OK held this long on a roster name asks to take it off the list
TYPED_LIMIT = MAX_NAME + 8  # typing stops here (a name over MAX_NAME is refused, with why)
ENTRY_HINT = ("Seat button: next letter (hold it: back) · OK: take the letter · hold OK: done · "
              "MENU: erase · a keyboard types, Return: done, Esc: cancel")
ROW_HINTS = {
    "pick": "OK: sit down or stand up (seats in the order picked) · hold OK or Delete: "
            "take off the list · MENU: next row",
    "add": "OK: add a name to the list · MENU: next row",
    "resume": "OK: go on with the game left unfinished · MENU: next row",
}
REMOVE_PROMPT = "OK: take it off · MENU: keep it"


@dataclass(frozen=True, slots=True)
class Resume:
    """What the setup screen ends with when the players resume the game left unfinished."""

    game_id: int


@dataclass(frozen=True, slots=True)
class LeftGame:
    """A game left unfinished in the journal, as its "Resume" row describes it."""

    game_id: int
    text: str  # e.g. "Asha, Ravi · deal 2 · Indian rummy, points"


def left_game(journal: Journal) -> LeftGame | None:
    """The most recent game left unfinished in ``journal`` (None: none, or the journal
    cannot say), described for the setup screen."""
    try:
        game_id = journal.resumable()
        if game_id is None:
            return None
        state = journal.restore(game_id)
    except TablekitError:
        return None
    game = state.game
    try:
        name = find(game.variant_id).name
    except TablekitError:
        name = game.variant_id
    deal = state.deal.number if state.deal is not None else len(state.history) + 1
    names = ", ".join(s.name for s in game.seats)
    return LeftGame(game_id, f"{names} · deal {deal} · {name}")  # who first: the row is short
HINT = "MENU or a tap: another row · OK: change · OK on Start: play"


class NameEditor:
    """A name being spelled: typed on a keyboard, or on the letter wheel with the box.

    Times are seconds on any steady clock (the frame loop's). ``tick`` runs the holds; the
    edges return "finish" when the name is done, "cancel" when the editor should close.
    """

    def __init__(self) -> None:
        self.text = ""
        self.wheel = 0
        self.problem = ""
        self._seat_down: float | None = None
        self._stepped_back = 0
        self._ok_down: float | None = None

    def letter(self) -> str:
        """The letter under the wheel as it would be taken: a capital to begin a word."""
        ch = WHEEL[self.wheel]
        return ch if not self.text or self.text[-1] in " -" else ch.lower()

    def shown(self) -> tuple[str, ...]:
        """The letters around the wheel's, as taken (``WHEEL_SHOWN`` either side)."""
        out = []
        for k in range(-WHEEL_SHOWN, WHEEL_SHOWN + 1):
            ch = WHEEL[(self.wheel + k) % len(WHEEL)]
            out.append(ch if not self.text or self.text[-1] in " -" else ch.lower())
        return tuple(out)

    def step(self, by: int) -> None:
        self.wheel = (self.wheel + by) % len(WHEEL)

    def take(self, letter: str | None = None) -> None:
        self.type(self.letter() if letter is None else letter)

    def type(self, text: str) -> None:
        """Letters from a keyboard (any script); control characters are dropped."""
        text = "".join(ch for ch in text if ch.isprintable() or ch in NAME_JOINERS)
        if text:
            self.text = (self.text + text)[:TYPED_LIMIT]
            self.problem = ""

    def erase(self) -> str | None:
        """The last letter off; "cancel" when there was none."""
        if not self.text:
            return "cancel"
        self.text = self.text[:-1]
        self.problem = ""
        return None

    def tap_wheel(self, offset: int) -> None:
        """A tap on the wheel's letter ``offset`` places from its middle: that letter is taken."""
        self.step(offset)
        self.take()

    # --- the box's buttons (and the screen's soft keys) ------------------------------------

    def seat(self, down: bool, now: float) -> None:
        if down:
            self._seat_down, self._stepped_back = now, 0
            return
        if self._seat_down is not None:
            self.tick(now)
            if self._stepped_back == 0:
                self.step(1)
        self._seat_down = None

    def ok(self, down: bool, now: float) -> str | None:
        if down:
            self._ok_down = now
            return None
        if self._ok_down is None:
            return None  # its hold finished the name already
        held, self._ok_down = now - self._ok_down, None
        if held >= FINISH_S:
            return "finish"
        self.take()
        return None

    def tick(self, now: float) -> str | None:
        if self._seat_down is not None and now - self._seat_down >= HOLD_S:
            due = 1 + int((now - self._seat_down - HOLD_S) / REPEAT_S)
            while self._stepped_back < due:
                self.step(-1)
                self._stepped_back += 1
        if self._ok_down is not None and now - self._ok_down >= FINISH_S:
            self._ok_down = None
            return "finish"
        return None

    def view(self) -> NameEntry:
        return NameEntry(self.text, self.shown(), WHEEL_SHOWN, MAX_NAME, ENTRY_HINT, self.problem)


class TableSetup:
    """The setup screen before a game: MENU moves to the next row, OK changes it or starts.

    Rows: the game, the roster's names and "Add a name" (with a roster), the number of players,
    the turn timer, how losing hands are counted, and Start. ``names`` are seated first (in
    order); the seats past them are ``Player N``.
    """

    def __init__(self, variant_ids: list[str], names: list[str] | None = None,
                 variant: str = "indian-pool-101", players: int = 3,
                 roster: Roster | None = None, left: LeftGame | None = None) -> None:
        self.variant_ids = variant_ids
        self.variant = variant_ids.index(variant) if variant in variant_ids else 0
        self.names = list(names or [])  # the players picked, in seat order
        self.players = max(players, len(self.names))
        self.turn = TURN_CHOICES.index(0)
        self.count = "best"
        self.at = "variant"  # the row under the cursor, by name
        self.problem = ""
        self.roster = roster
        self.listed: list[str] = []  # the roster's names, as last read
        self.editor: NameEditor | None = None
        self.left = left  # the game left unfinished, offered on the "Resume" row
        self.removing: str | None = None  # the roster name the question asks to take off
        self._ok_down: float | None = None  # when OK went down on a roster name
        self._reread()

    def _reread(self) -> None:
        if self.roster is None:
            return
        try:
            self.listed = self.roster.names()
        except TablekitError as exc:  # a journal that cannot be read: no list, a reason
            self.problem = str(exc)

    @property
    def ROWS(self) -> tuple[str, ...]:  # noqa: N802  (read like the constant it once was)
        picks = (*(f"pick:{i}" for i in range(len(self.listed))), "add") if self.roster is not None else ()
        resume = ("resume",) if self.left is not None else ()
        return ("variant", *picks, "players", "turn_seconds", "count", *resume, "start")

    @property
    def row(self) -> int:
        return self.ROWS.index(self.at) if self.at in self.ROWS else 0

    @property
    def editing(self) -> bool:
        return self.editor is not None

    def _variant(self) -> Variant:
        return find(self.variant_ids[self.variant])

    def _names(self) -> list[str]:
        return self.names + [f"Player {i + 1}" for i in range(len(self.names), self.players)]

    def picked(self) -> list[str]:
        """The players picked by name, in seat order (not the ``Player N`` seats)."""
        return list(self.names[:self.players])

    def menu(self) -> None:
        rows = self.ROWS
        self.at = rows[(self.row + 1) % len(rows)]
        self.problem = ""

    def tap(self, region: str) -> Game | Resume | None:
        """A tap on one of the setup screen's rows (its region: "row:variant",
        "row:option:1", "row:roster:2", "row:start"…) moves the cursor there (a seat's row is
        the number of players); a second tap on a roster name picks it as OK would, on
        "Resume" resumes (what OK would return). A tap on "row:remove:K" asks to take roster
        name K off the list; on the letter wheel ("row:wheel:K") takes that letter. Anything
        else is ignored."""
        parts = region.split(":")
        if parts[0] != "row" or len(parts) < 2 or self.removing is not None:
            return None
        if self.editor is not None:
            if parts[1] == "wheel" and len(parts) == 3 and parts[2].lstrip("-").isascii() and parts[2].lstrip("-").isdigit():
                self.editor.tap_wheel(int(parts[2]) - WHEEL_SHOWN)
            return None
        if parts[1] == "remove" and len(parts) == 3 and parts[2].isascii() and parts[2].isdigit():
            if int(parts[2]) < len(self.listed):
                self.at = f"pick:{parts[2]}"
                self.ask_remove()
            return None
        row = {"variant": "variant", "start": "start", "player": "players", "add": "add",
               "resume": "resume"}.get(parts[1])
        if parts[1] == "option" and len(parts) == 3 and parts[2].isascii() and parts[2].isdigit():
            options = self._options()
            index = int(parts[2])
            row = options[index].key if index < len(options) else None
        if parts[1] == "roster" and len(parts) == 3 and parts[2].isascii() and parts[2].isdigit():
            row = f"pick:{parts[2]}"
        if row in self.ROWS:
            if row == self.at and row.startswith(("pick:", "add", "resume")):
                chosen = self.ok()
                return chosen if isinstance(chosen, Resume) else None
            self.at = row
            self.problem = ""
        return None

    def ok(self) -> Game | Resume | None:
        """Change the row under the cursor; on Start, the game (or None and a problem); on
        "Resume", the game left unfinished."""
        row = self.at if self.at in self.ROWS else "variant"
        self.problem = ""
        v = self._variant()
        if row == "variant":
            self.variant = (self.variant + 1) % len(self.variant_ids)
            v = self._variant()
            self.players = min(max(self.players, v.min_players, len(self.names)), v.max_players)
        elif row == "players":
            low = max(v.min_players, len(self.names))
            self.players = self.players + 1 if self.players < v.max_players else low
            self.players = max(self.players, low)
        elif row == "turn_seconds":
            self.turn = (self.turn + 1) % len(TURN_CHOICES)
        elif row == "count":
            self.count = "arranged" if self.count == "best" else "best"
        elif row.startswith("pick:"):
            self._pick(self.listed[int(row.split(":")[1])])
        elif row == "add":
            self.editor = NameEditor()
        elif row == "resume" and self.left is not None:
            return Resume(self.left.game_id)
        else:
            return self.game()
        return None

    # --- taking a name off the roster -----------------------------------------------------

    def ask_remove(self) -> None:
        """Ask whether to take the roster name under the cursor off the list."""
        if self.at.startswith("pick:") and self.roster is not None:
            index = int(self.at.split(":")[1])
            if index < len(self.listed):
                self.removing = self.listed[index]
                self.problem = ""

    def answer_remove(self, yes: bool) -> None:
        """The answer to "Take NAME off the list?": with ``yes`` the name is taken off (and
        stood up, if it was picked); its games stay in the journal as they were."""
        name, self.removing = self.removing, None
        if not yes or name is None or self.roster is None:
            return
        try:
            self.roster.remove(name)
        except TablekitError as exc:  # gone already, or the journal could not take it
            self.problem = str(exc)
            self._reread()
            return
        if name in self.names:
            self._pick(name)  # stands them up
        self._reread()
        if self.at.startswith("pick:") and int(self.at.split(":")[1]) >= len(self.listed):
            self.at = f"pick:{len(self.listed) - 1}" if self.listed else "add"

    def _pick(self, name: str) -> None:
        """Seat ``name`` after the players picked so far, or stand them up (the seats after
        theirs move up one)."""
        v = self._variant()
        if name in self.names:
            self.names.remove(name)
            self.players = max(v.min_players, len(self.names), self.players - 1)
        elif len(self.names) >= v.max_players:
            self.problem = f"{v.name} takes at most {v.max_players} players: stand somebody up first"
        else:
            self.names.append(name)
            self.players = min(max(self.players, len(self.names)), v.max_players)

    # --- the name editor ------------------------------------------------------------------

    def button(self, control: str, down: bool, now: float) -> Game | Resume | None:
        """A button's edge ("menu", "ok", or "seat": any seat button) at ``now`` seconds: in
        the name editor the wheel's controls, else MENU and OK on their press."""
        editor = self.editor
        if editor is None:
            if self.removing is not None:
                if down and control in ("ok", "menu"):
                    self.answer_remove(control == "ok")
                return None
            if control == "ok" and self.at.startswith("pick:"):
                # on a roster name OK acts when let go: held, it asks to take the name off
                if down:
                    self._ok_down = now
                    return None
                if self._ok_down is None:
                    return None  # its hold asked already
                self._ok_down = None
                return self.ok()
            if not down:
                return None
            self._ok_down = None
            if control == "menu":
                self.menu()
            elif control == "ok":
                return self.ok()
            return None
        if control == "seat":
            editor.seat(down, now)
        elif control == "ok":
            self._editor_said(editor.ok(down, now))
        elif control == "menu" and down:
            self._editor_said(editor.erase())
        return None

    def tick(self, now: float) -> None:
        """Let the time of held buttons pass (the wheel stepping back, OK finishing)."""
        if self.editor is not None:
            self._editor_said(self.editor.tick(now))
        elif self._ok_down is not None and now - self._ok_down >= REMOVE_HOLD_S:
            self._ok_down = None
            self.ask_remove()

    def key(self, name: str) -> bool:
        """A key in the name editor (pygame's name: "return", "backspace", "escape"); True
        when the editor took it."""
        editor = self.editor
        if editor is None:
            if self.removing is not None:  # the question: Return takes the name off, Escape keeps it
                if name in ("return", "enter", "keypad enter", "escape"):
                    self.answer_remove(name != "escape")
                    return True
                return False  # M is MENU: keep it
            if name in ("delete", "backspace") and self.at.startswith("pick:"):
                self.ask_remove()
                return True
            return False
        if name in ("return", "enter", "keypad enter"):
            self._editor_said("finish")
        elif name == "backspace":
            editor.erase()
        elif name == "escape":
            self._editor_said("cancel")
        return True

    def typed(self, text: str) -> None:
        """Text typed on a keyboard (a pygame TEXTINPUT): letters of the name being added."""
        if self.editor is not None:
            self.editor.type(text)

    def _editor_said(self, what: str | None) -> None:
        if what == "cancel":
            self.editor = None
        elif what == "finish" and self.editor is not None:
            self.add_name(self.editor.text)

    def add_name(self, text: str) -> bool:
        """Put ``text`` on the roster and seat that player; False (the editor stays open,
        saying why) when the name is refused."""
        if self.roster is None:
            return False
        try:
            name = self.roster.add(text)
        except RosterError as exc:
            if self.editor is not None:
                self.editor.problem = str(exc)
            else:
                self.problem = str(exc)
            return False
        except TablekitError as exc:  # the journal could not take it
            self.problem = str(exc)
            self.editor = None
            return False
        self.editor = None
        self._reread()
        if name in self.listed:
            self._pick(name)
        return True

    # --- the game and the screen ----------------------------------------------------------

    def game(self) -> Game | None:
        v = self._variant()
        if len(self.names) > v.max_players:
            self.problem = f"{v.name} takes at most {v.max_players} players, {len(self.names)} are picked"
            return None
        try:
            seats = tuple(Seat(n) for n in self._names()[:self.players])
            check_names(seats)
            return Game(self.variant_ids[self.variant], seats, TURN_CHOICES[self.turn], 0,
                        {"count": self.count})
        except TablekitError as exc:
            self.problem = str(exc)
            return None

    def _options(self) -> tuple[SetupOption, ...]:
        turn = TURN_CHOICES[self.turn]
        return (SetupOption("players", "Players", str(self.players)),
                SetupOption("turn_seconds", "Turn timer", f"{turn} s" if turn else "the game's own"),
                SetupOption("count", "Losing hands", "best arrangement" if self.count == "best"
                            else "as laid out"))

    def screen(self) -> ViewModel:
        """What the screen shows: the question while one is asked, else :meth:`view`."""
        if self.removing is not None:
            return MessageView(f"Take {self.removing} off the list?",
                               "The games they played stay in the journal as they were.",
                               LEVEL_WARNING, REMOVE_PROMPT)
        return self.view()

    def view(self) -> SetupView:
        v = self._variant()
        options = self._options()
        row = self.at if self.at in self.ROWS else "variant"
        if row in ("variant", "start", "add", "resume"):
            cursor = SetupCursor(row)
        elif row.startswith("pick:"):
            cursor = SetupCursor("roster", int(row.split(":")[1]))
        else:
            cursor = SetupCursor("option", [o.key for o in options].index(row))
        players = tuple(SetupPlayer(n, team_label(v, i)) for i, n in enumerate(self._names()[:self.players]))
        roster = None
        if self.roster is not None:
            roster = tuple(RosterName(n, self.names.index(n) + 1 if n in self.names else None)
                           for n in self.listed)
        if self.editor is not None:
            hint = "OK held: done · MENU on an empty name: back"
        else:
            hint = ROW_HINTS.get(row.split(":")[0], HINT)
        return SetupView(v.id, v.name, players, options, cursor, editing=self.editor is not None,
                         hint=hint, problem=self.problem, roster=roster,
                         entry=None if self.editor is None else self.editor.view(),
                         resume="" if self.left is None else self.left.text)

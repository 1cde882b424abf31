"""The table on a screen: which screen to open, and the frame loops that feed a table its inputs.

``tablekit run`` and ``tablekit demo`` open their screen here (``display.window.Screen``: a
window, the kiosk's full screen, or headless), and ``run`` plays the setup screen and the table
in ``display.frameloop.FrameLoop``: each frame takes the box's events, lets the table's time
pass and draws; the keys pressed since go to the keyboard mapper, or to the on-screen
correction of a misread card.

A table never dead-ends: once a game is over MENU steps through what comes next (a rematch,
new players, the history of the last games, the scores) and OK takes it (:func:`play_game`
says which). Leaving a game in play asks first ("Leave this game? OK: leave · MENU: stay"):
Escape in a window, MENU held for :data:`LEAVE_HOLD_S` anywhere (the kiosk's way); the turn
clock stands still while it asks (``Table.hold_time``); a game left stays in the journal,
unfinished, to be resumed.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from display.viewmodel import (
    LEVEL_WARNING,
    GameOverView,
    HistoryLine,
    HistoryView,
    MessageView,
    PlayView,
    Toast,
)
from display.window import HEADLESS, KIOSK, WINDOW, DisplayPlan, choose_display, is_raspberry_pi
from engine.errors import TablekitError
from engine.game import Game
from firmware_bridge import ButtonEvent, KeyboardButtons, default_keymap
from firmware_bridge.layout import ButtonLayout
from tablekit.box_input import BoxLink, hand_to_table, key_to_table
from tablekit.journal import Journal, JournalError
from tablekit.setup_screen import Resume, TableSetup
from tablekit.table import Table

if TYPE_CHECKING:
    import pygame

    from display.touch import Tap
    from display.viewmodel import ViewModel
    from display.window import Screen

log = logging.getLogger(__name__)
#: The keyboard on the setup screen: before a game there are no seats yet, so the mapper
#: numbers MENU and OK after as many seats as any game has.
SETUP_SEATS = 8
#: The table's frame rate, still screens included: the inputs are taken once a frame, and a
#: button's hold (a show, a card's next suit) is timed by the frames it spans.
TABLE_FPS = 30.0
#: MENU held this long in a game asks whether to leave it (the kiosk has no Escape)…
LEAVE_HOLD_S = 2.0
#: …and once it has been held this long the screen says so.
LEAVE_HINT_S = 0.7
#: While the journal cannot take the game's events (a full disk), how often (s) the table
#: tries to go on.
JOURNAL_RETRY_S = 5.0
LEAVE_VIEW = MessageView("Leave this game?", "It stays in the journal, unfinished: it can be resumed later.",
                         LEVEL_WARNING, "OK: leave · MENU: stay")
# What play_game ends with.
REMATCH = "rematch"  # the same players and game again, the next dealer first
NEW_PLAYERS = "new-players"  # back to the setup screen
LEFT = "left"  # the players left the game (it stays resumable)
CLOSED = "closed"  # the window was closed, Escape after the game, or the time ran out
#: What the game-over screen offers, MENU stepping through them and OK taking one.
CHOICES = ("Rematch", "New players", "History", "Scores")
CHOICE_PROMPT = "MENU: next choice · OK: take it"


def display_plan(*, headless: bool = False, fullscreen: bool = False) -> DisplayPlan:
    """The screen the command line asks for: ``--headless``, ``--fullscreen`` (the kiosk),
    else what the environment says (``TABLEKIT_DISPLAY``…) — a window on a Pi too, unless the
    kiosk is asked for there."""
    if headless:
        return DisplayPlan(HEADLESS, "dummy", False, True)
    env = dict(os.environ)
    if fullscreen:
        env["TABLEKIT_DISPLAY"] = KIOSK
    plan = choose_display(env, is_raspberry_pi())
    if plan.mode == KIOSK and not plan.explicit:
        return DisplayPlan(WINDOW, env.get("SDL_VIDEODRIVER") or None, False, False)
    return plan


def open_screen(size: tuple[int, int] | None, *, headless: bool = False, fullscreen: bool = False,
                screenshots: Path | None = None) -> Screen:
    """The table's screen (``size`` None: the display's own, or the mode's default); with
    ``screenshots``, one PNG per new scene (``scene_key``)."""
    from display.window import Screen, scene_key

    plan = display_plan(headless=headless, fullscreen=fullscreen)
    shown = f"{size[0]}x{size[1]}" if size else "its own size"
    log.info("screen: %s %s (%s)", plan.mode, shown, plan.driver or "SDL's choice")
    return Screen(size, plan=plan, screenshots=screenshots, key=scene_key)


#: Besides letters and digits, what a hand's cards are typed with: a space between cards, a
#: bar or a slash between groups.
TYPED_MARKS = " ,|/"


def correction_key(table: Table, name: str, text: str) -> bool:
    """Keys of the on-screen correction of a misread card (C starts it on a show screen);
    True when the key was the correction's."""
    if table.correcting is None:
        return name == "c" and table.start_correction()
    if name in ("left", "up"):
        table.move_selection(-1)
    elif name in ("right", "down", "tab"):
        table.move_selection(1)
    elif name == "backspace":
        table.erase_card()
    elif name in ("return", "enter"):
        table.finish_correction(True)
    elif name == "escape":
        table.finish_correction(False)
    elif text and (text.isalnum() or text in TYPED_MARKS):
        table.type_card(text)
    return True


def call_key(table: Table, name: str, text: str) -> bool:
    """Keys of the call panel (K opens it in play, in a game with calls; while it is open
    every key is its own): True when the key was the panel's."""
    if table.calling() is not None:
        return table.calls_key(name, text)
    return name == "k" and table.correcting is None and table.open_calls()


def screen_of(table: Table) -> Screen | None:
    """The screen the table draws on (its ``on_view`` is a screen's ``show``), if any."""
    from display.window import Screen

    owner = getattr(table.on_view, "__self__", None)
    return owner if isinstance(owner, Screen) else None


def tap_to_table(table: Table, tap: Tap) -> None:
    """A tap on the play screen as the box's button it stands for: a seat's panel is that
    seat's button (a short tap ends the turn, a hold declares a show, timed by the table like
    a key's), the soft keys are MENU and OK. On the scorepad the steps change the number and
    each seat's confirm button is that seat's button."""
    control = ButtonLayout.keyboard(table.state.game.players)
    steps = {"pad:minus": -1, "pad:plus": 1, "pad:plus10": 10, "pad:value": 0}
    if tap.target in steps:  # the scorepad's steps: nobody's button, as typing is
        if tap.down:
            table.pad_tap(steps[tap.target])
        return
    if tap.target.startswith("pad:"):  # the keys of a hand's cards (ranks, suits, slots)
        if tap.down:
            table.pad_key(tap.target)
        return
    if tap.target == "key:menu":
        button = control.menu
    elif tap.target == "key:ok":
        button = control.ok
    elif tap.target.startswith("seat:"):
        button = int(tap.target.split(":", 1)[1])
    else:
        return
    table.button(button, tap.down, table.now(), keyboard=True)


def rematch(game: Game) -> Game:
    """The same players, game and rules again, the deal passing to the next seat the way the
    game passes it (counter-clockwise in Loba, Telefunken and the games played like them)."""
    from engine.game.policy import policy_for

    dealer = policy_for(game).next_dealer(game, game.first_dealer, lambda seat: True)
    return dataclasses.replace(game, first_dealer=dealer if dealer is not None else game.first_dealer)


def when(ms: int) -> str:
    """A game's start as the history lists it, in local time: "Sat 14 Jun 19:05"."""
    return datetime.fromtimestamp(ms / 1000).strftime("%a %d %b %H:%M")


def history_lines(journal: Journal) -> tuple[list[HistoryLine], str]:
    """Every game in the journal, the latest first, and a note ("" or why it is short)."""
    from engine.variants import find

    try:
        games = journal.games()
    except TablekitError as exc:
        return [], f"the journal cannot be read: {exc}"
    lines = []
    for g in reversed(games):
        try:
            name = find(g.variant).name
        except TablekitError:
            name = g.variant
        status = {"over": "", "playing": "unfinished"}.get(g.status, g.status)
        lines.append(HistoryLine(when(g.created_ms), name, ", ".join(g.players),
                                 " & ".join(g.winners), g.deals, status))
    return lines, "" if lines else "No games yet"


class AfterGame:
    """The game-over screen's choices (:data:`CHOICES`) and the screens they open: MENU
    steps, OK takes; on the history MENU turns the page and OK goes back, on the scores
    either goes back."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.choice = 0
        self.history: list[HistoryLine] | None = None
        self.note = ""
        self.page = 0
        self.scores = False

    def press(self, control: str) -> str | None:
        """MENU or OK pressed: what the table does next (REMATCH, NEW_PLAYERS), or None."""
        if self.history is not None:
            if control == "menu":
                self.page = (self.page + 1) % self.pages
            else:
                self.history = None
            return None
        if self.scores:
            self.scores = False
            return None
        if control == "menu":
            self.choice = (self.choice + 1) % len(CHOICES)
            return None
        return self.take(self.choice)

    def take(self, index: int) -> str | None:
        self.choice = index % len(CHOICES)
        chosen = CHOICES[self.choice]
        if chosen == "Rematch":
            return REMATCH
        if chosen == "New players":
            return NEW_PLAYERS
        if chosen == "History":
            self.history, self.note = history_lines(self.journal)
            self.page = 0
        else:
            self.scores = True
        return None

    @property
    def pages(self) -> int:
        from display.screens.history import ROWS

        return max(1, -(-len(self.history or ()) // ROWS))

    def view(self, table: Table, shown: ViewModel) -> ViewModel:
        """What the screen shows after the game: ``shown`` (the table's game-over screen)
        with the choices, or the screen a choice opened."""
        if self.history is not None:
            from display.screens.history import ROWS

            lines = tuple(self.history[self.page * ROWS:(self.page + 1) * ROWS])
            prompt = "MENU: next page · OK: back" if self.pages > 1 else "OK: back"
            return HistoryView(lines, self.page + 1, self.pages, note=self.note, prompt=prompt)
        if self.scores:
            from tablekit.present import scoreboard

            return dataclasses.replace(scoreboard(table.state), prompt="MENU or OK: back")
        if isinstance(shown, GameOverView):
            return dataclasses.replace(shown, choices=CHOICES, choice=self.choice, prompt=CHOICE_PROMPT)
        return shown


def close_menu(table: Table) -> None:
    """Close the game's menu (MENU's press opened it, its hold asked to leave): MENU to its
    "close" item, then OK."""
    from engine.game import Confirm, MenuPressed
    from engine.game.flow import MENU_CLOSE

    for _ in range(len(table.state.menu)):
        if table.state.menu[0] == MENU_CLOSE:
            table.post(Confirm(table.now()))
            return
        table.post(MenuPressed(table.now()))


def play(table: Table, box: BoxLink | None, keys: KeyboardButtons, *, seconds: float = 0,
         fullscreen: bool = False, screen: Screen | None = None) -> int:
    """:func:`play_game`, for callers that want an exit status (always 0)."""
    play_game(table, box, keys, seconds=seconds, fullscreen=fullscreen, screen=screen)
    return 0


def play_game(table: Table, box: BoxLink | None, keys: KeyboardButtons, *, seconds: float = 0,
              fullscreen: bool = False, screen: Screen | None = None,
              clock: Callable[[], float] = time.monotonic) -> str:
    """Run the table until the players choose what comes after the game (REMATCH or
    NEW_PLAYERS), leave it (LEFT, after saying OK to "Leave this game?"), or the window
    closes, Escape after the game or ``seconds`` (0: for ever) end it (CLOSED). Taps on
    ``screen`` (by default the one the table draws on) act as the box's buttons; a tap on a
    choice of the game-over screen takes it."""
    import pygame

    from display.frameloop import FrameLoop
    from display.touch import POINTER_EVENTS

    screen = screen or screen_of(table)
    after = AfterGame(table.journal)
    if box is not None:
        box.clock.reset()  # a new game's table clock starts again: the box's stamps are matched anew
    keyboard = ButtonLayout.keyboard(table.state.game.players)
    outcome: list[str] = []
    asking: list[bool] = [False]  # "Leave this game?" is on the screen
    menu_down: list[float | None] = [None]  # when MENU went down in play (its hold leaves)
    menu_opened = [False]  # that press opened the game's menu (closed again if it leaves)
    journal_failed: list[float | None] = [None]  # since when the journal has taken no event
    retried = [0.0]  # when the table last tried to go on after that

    def guarded(act: Callable[[], None]) -> None:
        """``act`` on the table. What the journal cannot take (a full disk) has not happened:
        the players are told, and every ``JOURNAL_RETRY_S`` the table performs anew what the
        game as journaled still owes (``Table.recover``); once an event is journaled again
        the table goes on as before, the box's link state told again if it was lost."""
        before = table.journaled
        try:
            if journal_failed[0] is not None and clock() - retried[0] >= JOURNAL_RETRY_S:
                retried[0] = clock()
                table.recover()
            act()
        except JournalError as exc:
            if journal_failed[0] is None:
                log.error("the game cannot be saved: %s", exc)
                journal_failed[0] = retried[0] = clock()
            table.warn(f"the game cannot be saved ({exc}): nothing counts until it can; "
                       "make room, the table tries again", ms=int(2 * JOURNAL_RETRY_S * 1000), urgent=True)
            return
        if journal_failed[0] is not None and table.journaled > before:
            journal_failed[0] = None
            log.info("the game is saved again")
            table.warn("the game is saved again", ms=5000)
            if box is not None and box.box is not None and box.link_up != table.state.link_ok:
                up = box.link_up
                guarded(lambda: table.link(up))  # a link change lost with the disk

    def finish(what: str) -> None:
        if not outcome:
            outcome.append(what)
        loop.stop()

    def ask(on: bool) -> None:
        """Put "Leave this game?" up (the table's time, the turn clock, stands still while
        it is) or take it down (the time runs on from where it stood)."""
        asking[0] = on
        table.hold_time(on)

    def control(what: str | None, down: bool) -> bool:
        """MENU or OK where the shell, not the table, takes them (the question, after the
        game); True when taken. In play a MENU's hold is timed here."""
        if asking[0]:
            if down and what == "ok":
                finish(LEFT)
            elif down and what == "menu":
                ask(False)
            return True
        if table.over:
            if down and what is not None and (chosen := after.press(what)) is not None:
                finish(chosen)
            return True
        if what == "menu":
            menu_down[0] = clock() if down else None
            if down:
                menu_opened[0] = table.state.phase == "play" and not table.state.menu
        return False

    def take_input() -> None:
        """The box's events, then the clock's tick: each tried on its own, so that one the
        journal cannot take does not lose the others (a MENU press and its release)."""
        failed: JournalError | None = None
        if box is not None:
            for event, at in box.pending_at(table.now()):
                try:
                    layout = box.layout
                    if isinstance(event, ButtonEvent) and layout is not None:
                        what = layout.control(event.button)
                        if (what is not None or asking[0] or table.over) \
                                and control(what, event.event == "press"):
                            continue
                    hand_to_table(table, event, box.buttons, at)
                except JournalError as exc:
                    failed = exc
        try:
            table.tick()
        except JournalError as exc:
            failed = exc
        if failed is not None:
            raise failed

    def frame(now: float) -> ViewModel:
        guarded(take_input)
        held = None if menu_down[0] is None or table.over else clock() - menu_down[0]
        if held is not None and held >= LEAVE_HOLD_S:
            menu_down[0] = None
            if menu_opened[0]:
                guarded(lambda: close_menu(table))
            ask(True)
        if asking[0]:
            return LEAVE_VIEW
        view = table.view()
        if table.over:
            return after.view(table, view)
        if held is not None and held >= LEAVE_HINT_S and isinstance(view, PlayView):
            view = dataclasses.replace(view, toast=Toast("keep holding MENU to leave the game"))
        return view

    def key(ev: pygame.event.Event) -> None:
        if not loop.running:
            return
        if ev.type in POINTER_EVENTS and screen is not None:
            tap = screen.tap(ev)
            if tap is None:
                return
            if tap.target.startswith("row:choice:") and table.over and not asking[0]:
                if tap.down and after.history is None and not after.scores:
                    chosen = after.take(int(tap.target.rsplit(":", 1)[1]))
                    if chosen is not None:
                        finish(chosen)
                return
            if not asking[0] and not table.over and (
                    tap.target.startswith("call:") or (table.calling() is not None and tap.target.startswith("pad:"))):
                if tap.down:
                    table.calls_tap(tap.target)  # the call panel, or "Calls" on the play screen
                return
            soft = {"key:menu": "menu", "key:ok": "ok"}.get(tap.target)
            if (soft is not None or asking[0] or table.over) and control(soft, tap.down):
                return
            tap_to_table(table, tap)
            return
        if ev.type not in (pygame.KEYDOWN, pygame.KEYUP):
            return
        down = ev.type == pygame.KEYDOWN
        name = pygame.key.name(ev.key)
        if not asking[0] and not table.over and down and call_key(table, name, getattr(ev, "unicode", "")):
            return
        if not asking[0] and not table.over and down and correction_key(table, name, getattr(ev, "unicode", "")):
            return
        if table.correcting is not None and not down:
            return
        if name == "escape":
            if down and not fullscreen:
                if table.over:
                    finish(CLOSED)
                else:
                    ask(not asking[0])  # Escape again: stay
            return
        t = table.now()
        got = keys.key_down(name, t) if down else keys.key_up(name, t)
        if got is None:
            return
        what = keyboard.control(got.button)
        if (what is not None or asking[0] or table.over) and control(what, down):
            return
        key_to_table(table, got, t)

    loop = FrameLoop(table.show, frame, events=pygame.event.get,
                     on_event=lambda ev: guarded(lambda: key(ev)), clock=clock,
                     active_fps=TABLE_FPS, idle_fps=TABLE_FPS, closable=not fullscreen)
    loop.run(seconds=seconds or None)
    return outcome[0] if outcome else CLOSED


def choose_game(setup: TableSetup, screen: Screen, box: BoxLink | None, *, seconds: float = 0,
                fullscreen: bool = False,
                clock: Callable[[], float] = time.monotonic) -> Game | Resume | None:
    """The setup screen until OK on Start, or on "Resume" (a :class:`Resume`: the game left
    unfinished) (None: the window was closed, Escape in a window, or ``seconds`` ran out). MENU and OK come from the box, the keyboard (M and Return) or the
    screen's soft keys, and a tap on a row moves to it. While a name is being added the box's
    seat buttons turn the letter wheel and OK's hold finishes the name (both edges count,
    timed on ``clock``), and the keyboard types it (Return: done, Escape: cancel)."""
    import pygame

    from display.frameloop import FrameLoop
    from display.touch import POINTER_EVENTS

    keys = KeyboardButtons(default_keymap(SETUP_SEATS))  # digits, then M and Return
    on_keys = ButtonLayout.keyboard(SETUP_SEATS)
    chosen: list[Game | Resume] = []
    if pygame.display.get_init():
        pygame.key.start_text_input()  # names in any script come as TEXTINPUT

    def take(game: Game | Resume | None) -> None:
        if game is not None and not chosen:
            chosen.append(game)
            loop.stop()

    def button(what: str, down: bool) -> None:
        if not chosen:
            take(setup.button(what, down, clock()))

    def frame(now: float) -> ViewModel:
        if box is not None:
            for event in box.pending():
                layout = box.layout
                if isinstance(event, ButtonEvent) and layout is not None:
                    what = layout.control(event.button)
                    if what is not None or event.button < layout.menu:
                        button(what or "seat", event.event == "press")
        setup.tick(clock())
        return setup.screen()

    def key(ev: pygame.event.Event) -> None:
        if ev.type in POINTER_EVENTS:
            tap = screen.tap(ev)
            if tap is None:
                return
            if tap.target in ("key:menu", "key:ok"):
                button(tap.target.split(":", 1)[1], tap.down)
            elif tap.down and not chosen:
                take(setup.tap(tap.target))
        elif ev.type == pygame.TEXTINPUT:
            setup.typed(getattr(ev, "text", ""))
        elif ev.type == pygame.KEYDOWN:
            name = pygame.key.name(ev.key)
            if setup.key(name):
                return
            if name == "escape" and not fullscreen:
                loop.stop()
                return
            got = keys.key_down(name, 0)
            if got is not None:
                button(on_keys.control(got.button) or "seat", True)
        elif ev.type == pygame.KEYUP:
            got = keys.key_up(pygame.key.name(ev.key), 0)
            if got is not None and not setup.editing:
                button(on_keys.control(got.button) or "seat", False)

    loop = FrameLoop(screen.show, frame, events=pygame.event.get, on_event=key, clock=clock,
                     closable=not fullscreen)
    loop.run(seconds=seconds or None)
    return chosen[0] if chosen else None

"""The spoken table: a few short phrases said aloud as the game goes, never holding it up.

"Ravi, ten seconds" when a turn's clock reaches ten seconds, "Ravi: valid show" or "Ravi: wrong
show" when a show is ruled, "paused: button box lost" when play stops for a device, a turn
found illegal ("Di's turn is not legal"), "Ravi wins the deal", "Meera wins" at the end. The
words come from the screens the table draws (:meth:`Speaker.hear` sees each view), so what is
said always agrees with what is shown, and each thing is said once.

A name in another script is said in its own language's voice (espeak-ng's SSML: each run of
Devanagari, Arabic, Chinese… letters wrapped in ``<voice xml:lang=…>``), not spelt out letter by
letter as an English voice does.

The voice is espeak-ng (a Debian package that runs on a Pi), started as a child process that
the table never waits for: a phrase that comes while the last one is still being said waits in
a short queue, and the oldest is dropped when the queue is full, so a burst never backs up.
Speech is on by default only where a sound device exists (:func:`sound_device`), and the
command line's ``--mute`` turns it off.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from display.fonts import script_of
from display.viewmodel import (
    DealResultView,
    GameOverView,
    PlayView,
    ShowView,
    TurnCheckView,
    ViewModel,
)

log = logging.getLogger(__name__)

#: Said when a turn's clock reaches this many seconds.
WARN_AT_S = 10
#: Phrases waiting while one is said; older ones are dropped past this.
QUEUE = 3
#: The espeak-ng language for each script a name may be written in (Latin needs none).
LANGUAGES = {"Deva": "hi", "Beng": "bn", "Taml": "ta", "Telu": "te", "Gujr": "gu", "Guru": "pa",
             "Knda": "kn", "Mlym": "ml", "Arab": "ar", "Hebr": "he", "Hani": "cmn", "Hang": "ko",
             "Thai": "th", "Grek": "el"}


def ssml(phrase: str) -> str:
    """``phrase`` as espeak-ng's SSML: each run of letters of a script other than Latin in
    that script's language's voice; the rest (and any markup characters) as plain text."""
    parts: list[str] = []
    lang: str | None = None
    run = ""

    def close() -> None:
        text = run.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        parts.append(f'<voice xml:lang="{lang}">{text}</voice>' if lang else text)

    for ch in phrase:
        mine = LANGUAGES.get(script_of(ch)) if ch.isalpha() or not ch.isascii() else None
        if mine is None and lang is not None and not ch.isalpha() and ch not in ",.:;!?":
            mine = lang  # a space or mark inside a name in that script stays with it
        if mine != lang and run:
            close()
            run = ""
        lang = mine
        run += ch
    if run:
        close()
    return "<speak>" + "".join(parts) + "</speak>"


class Process(Protocol):
    def poll(self) -> int | None: ...


Launcher = Callable[[Sequence[str]], Process]


def sound_device(cards: Path = Path("/proc/asound/cards")) -> bool:
    """Whether ALSA lists a sound card here (an HDMI screen with speakers counts)."""
    try:
        text = cards.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return bool(text.strip()) and "no soundcards" not in text


def _launch(command: Sequence[str]) -> Process:
    return subprocess.Popen(list(command), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


class Speaker:
    """Says what the table's screens announce, one phrase at a time, without blocking."""

    def __init__(self, program: str | None = None, *, voice: str = "en", words_per_minute: int = 165,
                 launch: Launcher = _launch, extra: Sequence[str] = ()) -> None:
        found = program or shutil.which("espeak-ng")
        if found is None:
            raise FileNotFoundError("espeak-ng is not installed (apt install espeak-ng)")
        self.command = [found, "-m", "-v", voice, "-s", str(words_per_minute), *extra]
        self.launch = launch
        self.queue: deque[str] = deque(maxlen=QUEUE)
        self.said: list[str] = []  # every phrase started, for tests and logs
        self._current: Process | None = None
        self._last: ViewModel | None = None
        self._once: set[tuple[object, ...]] = set()  # deals and games already announced

    # --- what to say ---------------------------------------------------------------------

    def hear(self, view: ViewModel) -> None:
        """Look at the screen about to be drawn; say what it announces, once."""
        for phrase in self._news(self._last, view):
            self.say(phrase)
        self._last = view
        self.pump()

    def _news(self, before: ViewModel | None, view: ViewModel) -> list[str]:
        """What changed from ``before`` to ``view`` that the table says aloud."""
        if isinstance(view, PlayView) and view.paused_reason:
            was = isinstance(before, PlayView) and before.paused_reason == view.paused_reason
            return [] if was else [f"paused: {view.paused_reason}"]
        if isinstance(view, TurnCheckView):
            was = isinstance(before, TurnCheckView) and before.headline == view.headline
            return [] if was or not view.headline else [view.headline]
        if isinstance(view, PlayView):
            clock, seat = view.countdown, view.active_seat
            if (clock is None or seat is None or not clock.running or not 0 <= seat < len(view.seats)
                    or not isinstance(before, PlayView) or before.active_seat != seat
                    or before.countdown is None):
                return []
            if before.countdown.seconds_left > WARN_AT_S >= clock.seconds_left > 0:
                return [f"{view.seats[seat].name}, ten seconds"]
            return []
        if isinstance(view, ShowView):
            ruled = view.valid is not None and not view.title  # a show, not a hand being counted
            was = isinstance(before, ShowView) and before.valid is not None and before.declarer == view.declarer
            words = "valid show" if view.valid else "wrong show"
            return [f"{view.declarer}: {words}" if view.declarer else words] if ruled and not was else []
        once: tuple[object, ...] | None = None
        phrase = ""
        if isinstance(view, DealResultView) and view.headline:
            once, phrase = ("deal", view.deal_number), view.headline
        elif isinstance(view, GameOverView) and view.winner:
            once, phrase = ("over", view.winner, view.deals_played), view.headline or f"{view.winner} wins"
        if once is None or once in self._once:
            return []
        self._once.add(once)
        return [phrase]

    # --- saying it ---------------------------------------------------------------------------

    def say(self, phrase: str) -> None:
        """Queue ``phrase``; it starts at once when nothing is being said."""
        self.queue.append(phrase)
        self.pump()

    @property
    def speaking(self) -> bool:
        return self._current is not None and self._current.poll() is None

    def pump(self) -> None:
        """Start the next phrase if the last one is done (call it every frame)."""
        if self.speaking or not self.queue:
            return
        phrase = self.queue.popleft()
        try:
            self._current = self.launch([*self.command, ssml(phrase)])
            self.said.append(phrase)
        except OSError as exc:  # the voice went away: the table plays on silently
            log.warning("cannot speak (%s): the table goes on silently", exc)
            self.queue.clear()
            self._current = None

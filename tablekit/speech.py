"""The spoken table: a few short phrases said aloud as the game goes, never holding it up.

"Ravi, ten seconds" when a turn's clock reaches ten seconds, "Ravi: valid show" or "Ravi: wrong
show" when a show is ruled, "paused: button box lost" when play stops for a device, a turn
found illegal ("Di's turn is not legal"), "Ravi wins the deal", "Meera wins" at the end. The
words come from the screens the table draws (:meth:`Speaker.hear` sees each view), so what is
said always agrees with what is shown, and each thing is said once.

A name in another script is said in its own language's voice (a phrase is said in segments,
each run of Devanagari, Arabic, Greek, Chinese… letters with that language's voice), not
spelt out letter by letter as an English voice does.

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
import unicodedata
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
             "Knda": "kn", "Mlym": "ml", "Arab": "ar", "Hebr": "he", "Hani": "cmn", "Hang": "ko"}
#: Scripts the screen draws with its Latin face but a voice must still be told of.
_NAMED = (("GREEK", "el"), ("CYRILLIC", "ru"), ("HIRAGANA", "ja"), ("KATAKANA", "ja"), ("THAI", "th"))


def _language(ch: str) -> str | None:
    """The language whose voice says letter ``ch`` (None: the table's own)."""
    if ch.isascii():
        return None
    lang = LANGUAGES.get(script_of(ch))
    if lang is None:
        name = unicodedata.name(ch, "")
        lang = next((code for prefix, code in _NAMED if name.startswith(prefix)), None)
    return lang


def segments(phrase: str) -> list[tuple[str | None, str]]:
    """``phrase`` cut where the voice must change: each run of a name in another script (the
    spaces and marks inside it kept with it) in that script's language, the rest (numbers,
    the table's words) in the table's own (None). Said one after the other: espeak-ng's own
    switching (SSML) goes on reading the words after a name in the name's language."""
    out: list[tuple[str | None, str]] = []
    for ch in phrase:
        lang = _language(ch)
        if lang is None and out and out[-1][0] is not None and not ch.isascii():
            lang = out[-1][0]  # a combining mark or joiner of that script
        if lang is None and out and out[-1][0] is not None and ch == " ":
            out[-1] = (out[-1][0], out[-1][1] + ch)  # a space inside a name: decided below
            continue
        if out and out[-1][0] == lang:
            out[-1] = (lang, out[-1][1] + ch)
        else:
            out.append((lang, ch))
    # a name's trailing space belongs to the table's words after it
    tidy: list[tuple[str | None, str]] = []
    for lang, text in out:
        if lang is not None and text.endswith(" ") and text.strip():
            tidy += [(lang, text.rstrip(" ")), (None, " " * (len(text) - len(text.rstrip(" "))))]
        else:
            tidy.append((lang, text))
    merged: list[tuple[str | None, str]] = []
    for lang, text in tidy:
        if merged and merged[-1][0] == lang:
            merged[-1] = (lang, merged[-1][1] + text)
        elif (len(merged) >= 2 and lang is not None and merged[-2][0] == lang and merged[-1][0] is None
              and merged[-1][1] in ("'", "-", "\u2019")):
            # an apostrophe or hyphen inside a name (ג'ון, Иван-Петров) stays in the name
            sep = merged.pop()[1]
            merged[-1] = (lang, merged[-1][1] + sep + text)
        else:
            merged.append((lang, text))
    out = []
    for lang, text in merged:
        if lang is None and out and out[-1][0] is not None:
            # after a name, a possessive or a mark would be read aloud at the start ("colon
            # valid show"): the mark goes with the name, the possessive is left unsaid
            lead = len(text) - len(text.lstrip(",:;.!?"))
            if lead:
                out[-1] = (out[-1][0], out[-1][1] + text[:lead])
                text = text[lead:]
            if text.startswith(("'s ", "\u2019s ")):
                text = text[2:]
        if text.strip():
            out.append((lang, text))
    return out


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
        self.program, self.voice = found, voice
        self.options = ["-s", str(words_per_minute), *extra]
        self.command = [found, "-v", voice, *self.options]
        self.launch = launch
        self.queue: deque[str] = deque(maxlen=QUEUE)
        self.said: list[str] = []  # every phrase started, for tests and logs
        self._current: Process | None = None
        self._segments: deque[tuple[str | None, str]] = deque()  # the phrase being said, still to say
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

    @property
    def unsaid(self) -> bool:
        """Whether anything is still to be said: a segment of the phrase under way, a phrase."""
        return bool(self._segments or self.queue)

    def pump(self) -> None:
        """Start the next piece of speech if the last one is done (call it every frame): the
        next segment of the phrase being said, else the next phrase."""
        if self.speaking:
            return
        phrase = None
        if not self._segments:
            if not self.queue:
                return
            phrase = self.queue.popleft()
            self._segments.extend(segments(phrase))
            if not self._segments:
                return
        lang, text = self._segments.popleft()
        try:
            self._current = self.launch([self.program, "-v", lang or self.voice, *self.options, text])
            if phrase is not None:
                self.said.append(phrase)
        except OSError as exc:  # the voice went away: the table plays on silently
            log.warning("cannot speak (%s): the table goes on silently", exc)
            self.queue.clear()
            self._segments.clear()
            self._current = None

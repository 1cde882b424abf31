"""The spoken table: the phrases a real game's screens announce, said once each, never waited
for; and the real espeak-ng voice (written to a WAV file, as there is no sound card here)."""

from __future__ import annotations

# ruff: noqa: I001 - the fixtures module comes first: it sets SDL's dummy drivers before pygame loads
from tests._display_fixtures import render  # noqa: F401

import argparse
import dataclasses
import shutil
import subprocess
import time
import wave
from collections.abc import Sequence
from pathlib import Path

import pytest

from display.samples import deal_view, gameover_view, play_view, show_view
from display.viewmodel import Countdown, ViewModel
from tablekit.cli import main
from tablekit.commands.run import spoken
from tablekit.speech import QUEUE, Speaker, sound_device


class Voice:
    """Stands in for espeak-ng's process: records what it was asked to say."""

    def __init__(self, busy: bool = False) -> None:
        self.busy = busy
        self.commands: list[list[str]] = []

    def __call__(self, command: Sequence[str]) -> Voice:
        self.commands.append(list(command))
        return self

    def poll(self) -> int | None:
        return None if self.busy else 0


def _speaker(voice: Voice) -> Speaker:
    return Speaker("espeak-ng", launch=voice)


def test_ten_seconds_is_said_once_as_the_clock_passes_it() -> None:
    voice = Voice()
    speaker = _speaker(voice)
    for left in (31.5, 12.0, 10.4, 9.9, 9.0, 3.0, 0.5):
        speaker.hear(play_view(4, left, active=1))
    name = play_view(4).seats[1].name
    assert speaker.said == [f"{name}, ten seconds"]
    # the next seat's turn: said again for them; a paused clock says nothing
    speaker.hear(play_view(4, 40.0, active=2))
    speaker.hear(play_view(4, 8.0, active=2))
    paused = play_view(4, 8.0, active=3, countdown=Countdown(8.0, 45.0, running=False))
    speaker.hear(play_view(4, 40.0, active=3))
    speaker.hear(paused)
    assert speaker.said == [f"{name}, ten seconds", f"{play_view(4).seats[2].name}, ten seconds"]


def test_verdicts_deals_and_the_winner_are_said_once_each() -> None:
    voice = Voice()
    speaker = _speaker(voice)
    views: list[ViewModel] = [show_view(valid=True), show_view(valid=True), deal_view(),
                              gameover_view(), deal_view(), gameover_view()]
    wrong = dataclasses.replace(show_view(valid=False), declarer="Meera")
    views.insert(2, wrong)
    for view in views:
        speaker.hear(view)
    headline = deal_view().headline
    over = gameover_view()
    valid = show_view(valid=True).declarer
    assert speaker.said == [f"{valid}: valid show", "Meera: wrong show", headline,
                            over.headline or f"{over.winner} wins"]


def test_the_table_never_waits_for_the_voice() -> None:
    voice = Voice(busy=True)  # still saying its first phrase, for ever
    speaker = _speaker(voice)
    start = time.perf_counter()
    for n in range(10):
        speaker.say(f"phrase {n}")
    assert time.perf_counter() - start < 0.5
    assert speaker.said == ["phrase 0"] and len(speaker.queue) == QUEUE
    assert list(speaker.queue) == [f"phrase {n}" for n in range(10 - QUEUE, 10)]  # the newest kept
    voice.busy = False
    speaker.pump()
    assert speaker.said == ["phrase 0", f"phrase {10 - QUEUE}"]


def test_a_voice_that_cannot_start_leaves_the_table_silent() -> None:
    def broken(command: Sequence[str]) -> Voice:
        raise OSError("no such program")

    speaker = Speaker("espeak-ng", launch=broken)
    speaker.say("valid show")
    assert speaker.said == [] and not speaker.queue


def test_a_sound_device_is_told_from_alsa_s_card_list(tmp_path: Path) -> None:
    cards = tmp_path / "cards"
    assert not sound_device(cards)
    cards.write_text("--- no soundcards ---\n", encoding="utf-8")
    assert not sound_device(cards)
    cards.write_text(" 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n", encoding="utf-8")
    assert sound_device(cards)


def test_mute_and_no_sound_device_leave_the_screen_alone() -> None:
    def show(view: ViewModel) -> None:
        pass

    assert spoken(show, argparse.Namespace(mute=True)) is show


def test_a_real_game_is_announced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo game's own screens, as the table draws them, through a speaker."""
    import display.window

    voice = Voice()
    speaker = _speaker(voice)
    real_show = display.window.Screen.show

    def show(self: display.window.Screen, view: ViewModel) -> None:
        real_show(self, view)
        speaker.hear(view)

    monkeypatch.setattr(display.window.Screen, "show", show)
    assert main(["demo", "--headless", "--box", "keys", "--pace-ms", "0",
                 "--journal", str(tmp_path / "j.sqlite")]) == 0
    said = speaker.said
    assert any(p.endswith(": valid show") for p in said) and any(p.endswith(": wrong show") for p in said)
    assert said[-1].startswith("Asha wins")  # the demo's winner, last


def _said(phrase: str, out: Path) -> list[float]:
    """``phrase`` said by the real voice, each segment into a file of its own; their seconds."""
    assert shutil.which("espeak-ng"), "espeak-ng is one of the Debian packages make test installs"
    files: list[Path] = []

    def launch(command: Sequence[str]) -> subprocess.Popen[bytes]:
        files.append(out.with_name(f"{out.stem}-{len(files)}.wav"))
        return subprocess.Popen([*command[:-1], "-w", str(files[-1]), command[-1]])

    speaker = Speaker(launch=launch)
    speaker.say(phrase)
    deadline = time.monotonic() + 20
    while (speaker.speaking or speaker.unsaid) and time.monotonic() < deadline:
        speaker.pump()
        time.sleep(0.05)
    assert not speaker.speaking
    seconds = []
    for f in files:
        with wave.open(str(f)) as wav:
            seconds.append(wav.getnframes() / wav.getframerate())
    return seconds


def test_the_real_voice_says_a_phrase(tmp_path: Path) -> None:
    [seconds] = _said("Ravi, ten seconds", tmp_path / "phrase.wav")
    assert 0.5 < seconds < 5


def test_a_live_table_s_clock_is_announced_each_turn(tmp_path: Path) -> None:
    """A real table on a manual clock, looked at every half second as the screen would be."""
    from tablekit.cameras import ScriptedCamera
    from tablekit.clock import ManualClock
    from tablekit.journal import Journal
    from tablekit.table import Table
    from tests._game_fixtures import game

    voice = Voice()
    speaker = _speaker(voice)
    clock = ManualClock(0)
    with Journal(tmp_path / "j.sqlite") as journal:
        table = Table.start(journal, game(), clock, camera=ScriptedCamera(cuts={1: "5D"}))
        table.button(4, True)  # OK: the deal starts, seat 2's turn (the dealer is seat 1)
        first = table.state.deal.turn
        for _ in range(2 * 45 + 4):  # one turn runs out, and the next seat's clock starts
            clock.advance(500)
            table.tick()
            speaker.hear(table.view())
        second = table.state.deal.turn
        for _ in range(2 * 36):
            clock.advance(500)
            table.tick()
            speaker.hear(table.view())
    names = [s.name for s in game().seats]
    assert second != first
    assert speaker.said == [f"{names[first]}, ten seconds", f"{names[second]}, ten seconds"]


def test_run_speaks_through_the_screen_it_draws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`tablekit run` hands every view it shows to the speaker too (where there is sound)."""
    import tablekit.speech

    heard: list[ViewModel] = []

    class Ear(Speaker):
        def __init__(self) -> None:
            super().__init__("espeak-ng", launch=Voice())

        def hear(self, view: ViewModel) -> None:
            heard.append(view)

    monkeypatch.setattr(tablekit.speech, "sound_device", lambda: True)
    monkeypatch.setattr(tablekit.speech, "Speaker", Ear)
    assert main(["run", "--variant", "indian-pool-101", "--headless", "--no-box", "--camera", "none",
                 "--seconds", "0.5", "--journal", str(tmp_path / "j.sqlite")]) == 0
    assert heard  # the play screen reached the speaker
    heard.clear()
    assert main(["run", "--variant", "indian-pool-101", "--headless", "--no-box", "--camera", "none",
                 "--seconds", "0.5", "--mute", "--journal", str(tmp_path / "j2.sqlite")]) == 0
    assert not heard


def test_a_name_in_another_script_is_said_in_its_own_language() -> None:
    """An English voice spells "सारा" out letter by letter: the phrase is said in segments, the
    name with the Hindi voice and the rest (its numbers too) with the table's own; Greek and
    kana, which the screen draws with its Latin face, are told apart all the same."""
    from tablekit.speech import segments

    assert segments("Ravi, ten seconds") == [(None, "Ravi, ten seconds")]
    assert segments("सारा wins deal 3") == [("hi", "सारा"), (None, " wins deal 3")]
    assert segments("سارة أحمد, ten seconds") == [("ar", "سارة أحمد,"), (None, " ten seconds")]
    assert segments("Ελένη wins") == [("el", "Ελένη"), (None, " wins")]
    # a mark after a name stays with it ("colon wrong show" otherwise); a possessive is left
    # unsaid; an apostrophe or hyphen inside a name keeps it whole
    assert segments("さくら: wrong show") == [("ja", "さくら:"), (None, " wrong show")]
    assert segments("रवि's turn is not legal") == [("hi", "रवि"), (None, " turn is not legal")]
    assert segments("ג'ון wins") == [("he", "ג'ון"), (None, " wins")]
    assert segments("Иван-Петров wins") == [("ru", "Иван-Петров"), (None, " wins")]
    voice = Voice()
    speaker = _speaker(voice)
    speaker.say("सारा wins deal 3")
    speaker.pump()
    assert [(c[2], c[-1]) for c in voice.commands] == [("hi", "सारा"), ("en", " wins deal 3")]
    assert speaker.said == ["सारा wins deal 3"]


def test_a_pause_and_an_illegal_turn_are_said_once() -> None:
    from display.samples import turn_check_view

    voice = Voice()
    speaker = _speaker(voice)
    paused = play_view(4, 20.0, active=1, paused_reason="button box lost")
    for view in (play_view(4, 20.0, active=1), paused, paused, turn_check_view(), turn_check_view()):
        speaker.hear(view)
    assert speaker.said == ["paused: button box lost", turn_check_view().headline]


def test_the_real_voice_says_a_name_in_another_script(tmp_path: Path) -> None:
    name, rest = _said("سارة, ten seconds", tmp_path / "name.wav")
    assert 0.2 < name < 4 and 0.5 < rest < 4

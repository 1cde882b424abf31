"""Evidence for disputes: a camera ruling keeps the photo it was read from (tablekit.evidence),
the photos stay within their budget, and `tablekit history` lists, exports and replays them."""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from _game_fixtures import game

from engine.game import DealStarted, Declare, TableRead, TableSeen
from tablekit.cameras import FrameCamera, ScriptedCamera, TableRequest, ZoneRequest
from tablekit.cli import main
from tablekit.clock import ManualClock
from tablekit.evidence import decode, keep_photo, photo_budget, replay_views, rulings, zone_photo
from tablekit.journal import Journal
from tablekit.table import Table
from vision.sources import FolderSource

PHOTOS = Path(__file__).parent / "data" / "photos" / "cards-ranks" / "images"


def _played(folder: Path, journal_path: Path) -> tuple[int, FrameCamera]:
    """A game at a table whose camera reads a folder of real card photos: the cut, then a
    show declared by the second seat (read from the next photo)."""
    frames = folder / "frames"
    frames.mkdir()
    for i, path in enumerate(sorted(PHOTOS.iterdir())[:3]):
        shutil.copy(path, frames / f"{i}{path.suffix.lower()}")
    camera = FrameCamera(FolderSource(frames))
    with Journal(journal_path) as j:
        t = Table.start(j, game(), ManualClock(), camera=camera)
        t.button(4, True)
        t.post(Declare(1, t.now()))
        assert t.state.phase == "show"
        return t.game_id, camera


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, FrameCamera]:
    folder = tmp_path_factory.mktemp("evidence")
    path = folder / "journal.sqlite"
    game_id, camera = _played(folder, path)
    return path, game_id, camera


def _read_seq(path: Path, game_id: int) -> int:
    with Journal(path, read_only=True) as j:
        return next(seq for seq, e in enumerate(j.events(game_id), 1) if isinstance(e, TableRead))


def test_a_camera_ruling_keeps_the_photo_it_was_read_from_with_its_boxes_drawn(played):
    path, game_id, camera = played
    seq = _read_seq(path, game_id)
    with Journal(path, read_only=True) as j:  # readable read-only, like history reads it
        assert j.photo_seqs(game_id) == {seq}
        jpeg = j.photo(game_id, seq)
    assert jpeg is not None and jpeg[:2] == b"\xff\xd8"
    photo = decode(jpeg)
    assert photo is not None
    frame, reading = camera.seen["seat2"]
    assert reading.cards  # the recognizer found a card on the real photo
    assert photo.shape == frame.shape  # under 1280 px wide: the whole frame, not downscaled
    ok, raw = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 80])
    plain = cv2.imdecode(raw, cv2.IMREAD_COLOR)
    x0, y0, x1, y1 = (round(v) for v in reading.cards[0].box)
    edge = np.abs(photo[y0:y0 + 2, x0:x1].astype(int) - plain[y0:y0 + 2, x0:x1].astype(int))
    assert edge.max() > 60  # the box is drawn where the card was read


def test_a_wide_frame_is_downscaled_and_a_calibrated_zone_is_cropped():
    from vision.reading import TableReading

    frame = np.full((1500, 2000, 3), 120, np.uint8)
    t0 = time.perf_counter()
    jpeg = zone_photo(frame, TableReading((), ()))
    assert time.perf_counter() - t0 < 1.0
    photo = decode(jpeg)
    assert photo is not None and photo.shape[1] == 1280 and photo.shape[0] == 960

    class Cal:  # a calibration's zone geometry: image pixels are mat millimetres here
        zones = (type("Z", (), {"name": "seat1", "rect": (100.0, 200.0, 600.0, 500.0)})(),)
        homography = np.eye(3)

        def for_size(self, w: int, h: int) -> Cal:
            return self

    cropped = decode(zone_photo(frame, TableReading((), ()), Cal(), "seat1"))  # type: ignore[arg-type]
    assert cropped is not None and 500 < cropped.shape[1] < 600 and 300 < cropped.shape[0] < 400


def test_photos_are_pruned_to_the_budget_oldest_finished_first_never_the_game_played(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        ids = [j.new_game(game(), 1000 + i) for i in range(3)]
        for gid in ids:
            for seq in (1, 2):
                j.add_photo(gid, seq, bytes(1000))
        j.finish(ids[1], (0,), 2000)  # game 2 over, game 1 left unfinished, game 3 played now
        assert j.photo_bytes() == 6000
        assert j.prune_photos(4000, keep_game=ids[2]) == 2
        assert j.photo_seqs(ids[1]) == set()  # the finished game's went first
        assert j.photo_seqs(ids[0]) == {1, 2}
        j.prune_photos(0, keep_game=ids[2])
        assert j.photo_seqs(ids[0]) == set() and j.photo_seqs(ids[2]) == {1, 2}
        assert j.photo_bytes() == 2000  # over the budget, but the game being played keeps its own
        assert keep_photo(j, ids[2], 3, bytes(500), budget=0)
        assert j.photo_seqs(ids[2]) == {1, 2, 3}
    assert photo_budget({}) == 200 * 1024 * 1024
    assert photo_budget({"TABLEKIT_PHOTO_BUDGET_MB": "1.5"}) == int(1.5 * 1024 * 1024)
    assert photo_budget({"TABLEKIT_PHOTO_BUDGET_MB": "lots"}) == 200 * 1024 * 1024


def test_a_photo_that_cannot_be_kept_is_said_and_nothing_else_happens(tmp_path, monkeypatch, caplog):
    with Journal(tmp_path / "j.sqlite") as j:
        gid = j.new_game(game(), 1000)

        def broken(budget, keep_game):
            raise ValueError("invalid literal for int() with base 10: 'x'")  # a bad photos row

        monkeypatch.setattr(j, "prune_photos", broken)
        with caplog.at_level("WARNING", logger="tablekit.evidence"):
            assert not keep_photo(j, gid, 3, bytes(500), budget=0)
        assert "ValueError" in caplog.text and "event 3 was not kept" in caplog.text


def test_history_lists_a_games_rulings_and_writes_their_photos(played, tmp_path, capsys):
    path, game_id, _ = played
    lines = rulings(Journal(path, read_only=True), game_id)
    assert [(r.kind, r.verdict, r.player, r.photo) for r in lines] == [("show", "wrong", "Ravi", True)]
    assert main(["history", "--journal", str(path), "--game", str(game_id), "--rulings"]) == 0
    out = capsys.readouterr().out
    assert "deal 1" in out and "Ravi" in out and "wrong" in out and "photo kept" in out
    assert "80 points" in out and "no pure sequence" in out
    dest = tmp_path / "photos"
    assert main(["history", "--journal", str(path), "--game", "latest", "--photos", str(dest)]) == 0
    files = sorted(dest.iterdir())
    assert [f.name for f in files] == [f"game{game_id}-deal1-seat2-Ravi-{lines[0].seq}.jpg"]
    assert cv2.imread(str(files[0])) is not None


def test_an_unknown_game_is_one_error_line(played, capsys):
    path, _, _ = played
    assert main(["history", "--journal", str(path), "--game", "99", "--rulings"]) == 2
    assert main(["history", "--journal", str(path), "--replay", "99", "--headless"]) == 2
    err = capsys.readouterr().err
    assert err.count("error: no game 99") == 2


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_the_replay_draws_each_step_with_the_photo_beside_the_verdict(played, size):
    from tablekit.commands.history import play_replay
    from tablekit.shell import open_screen

    path, game_id, _ = played
    with Journal(path, read_only=True) as j:
        steps = list(replay_views(j, game_id))
    texts: list[list[str]] = []
    regions: list[set[str]] = []
    with open_screen(size, headless=True) as screen:
        assert screen.size == size

        def seen(index: int) -> None:
            canvas = screen.renderer.last
            texts.append([t.text for t in canvas.texts])
            regions.append(set(canvas.regions))

        assert play_replay(steps, screen, on_step=seen) == len(steps)
    assert len(texts) == len(steps) == 4  # Confirm, DealStarted, Declare, TableRead
    last = texts[-1]
    assert any("Wrong show" in t for t in last) and "Photo of the reading" in last
    assert "photo:image" in regions[-1] and "photo" not in regions[0]


def test_the_replay_steps_back_and_forth_by_keys_and_ends_by_time(played):
    import pygame

    from tablekit.commands.history import play_replay
    from tablekit.shell import open_screen

    path, game_id, _ = played
    with Journal(path, read_only=True) as j:
        steps = list(replay_views(j, game_id))
    order: list[int] = []
    with open_screen((800, 480), headless=True) as screen:
        for key in (pygame.K_RIGHT, pygame.K_RIGHT, pygame.K_m, pygame.K_RETURN, pygame.K_RETURN):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key))
        t0 = time.monotonic()
        play_replay(steps, screen, step_ms=-1, seconds=0.3, on_step=order.append)
        assert time.monotonic() - t0 < 2
    assert order[0] == 0 and order[-1] == 3 and 1 in order


def test_a_damaged_photo_is_survived_by_history_and_the_replay(played, tmp_path, capsys):
    path, game_id, _ = played
    copy = tmp_path / "damaged.sqlite"
    with Journal(path, read_only=True):
        pass
    src = sqlite3.connect(path)
    dst = sqlite3.connect(copy)
    src.backup(dst)
    src.close()
    dst.execute("UPDATE photos SET jpeg=?", (b"\xff\xd8 not a photo at all",))
    dst.commit()
    dst.close()
    copy.chmod(0o444)  # history reads read-only
    dest = tmp_path / "out"
    assert main(["history", "--journal", str(copy), "--game", str(game_id), "--photos", str(dest)]) == 0
    assert "photo kept" in capsys.readouterr().out
    assert len(list(dest.iterdir())) == 1
    from tablekit.commands.history import play_replay
    from tablekit.shell import open_screen

    with Journal(copy, read_only=True) as j:
        steps = list(replay_views(j, game_id))
    with open_screen((800, 480), headless=True) as screen:
        play_replay(steps, screen)
        assert "photo unreadable" in [t.text for t in screen.renderer.last.texts]
    assert main(["history", "--journal", str(copy), "--replay", str(game_id), "--headless",
                 "--size", "800x480"]) == 0


def test_a_camera_with_nothing_read_for_a_zone_gives_no_photo(tmp_path):
    camera = FrameCamera(FolderSource(tmp_path))
    assert camera.zone_photo(ZoneRequest(0, 1)) is None


# --- the cut card and the whole table keep their photos too --------------------------------


def test_a_cut_card_read_keeps_its_photo_and_history_lists_it(tmp_path, capsys):
    from tablekit.commands.run import EvidenceCamera

    frames = tmp_path / "frames"
    frames.mkdir()
    for i, path in enumerate(sorted(PHOTOS.iterdir())[:3]):
        shutil.copy(path, frames / f"{i}{path.suffix.lower()}")
    camera = EvidenceCamera(FolderSource(frames))
    path = tmp_path / "journal.sqlite"
    with Journal(path) as j:
        t = Table.start(j, game(), ManualClock(), camera=camera)
        t.button(4, True)  # OK deals: the cut card is read from the first photo
        t.post(Declare(1, t.now()))
        game_id = t.game_id
        events = j.events(game_id)
        cut_seq = next(seq for seq, e in enumerate(events, 1) if isinstance(e, DealStarted))
        read_seq = next(seq for seq, e in enumerate(events, 1) if isinstance(e, TableRead))
        assert j.photo_seqs(game_id) == {cut_seq, read_seq}
        photo = decode(j.photo(game_id, cut_seq))
    wild = events[cut_seq - 1].wild
    assert wild and photo is not None
    frame, reading = camera.seen["centre"]
    assert photo.shape == frame.shape and reading.cards
    assert wild == reading.group_cards()[0][0]  # the photo is the one the cut was read from
    with Journal(path, read_only=True) as j:
        lines = rulings(j, game_id)
    assert [(r.kind, r.verdict, r.seq) for r in lines][:1] == [("cut", "read", cut_seq)]
    assert lines[0].reason == f"cut card {wild}" and lines[0].photo
    dest = tmp_path / "photos"
    assert main(["history", "--journal", str(path), "--game", str(game_id), "--photos", str(dest)]) == 0
    assert f"game{game_id}-deal1-table-cut-{cut_seq}.jpg" in {f.name for f in dest.iterdir()}
    assert "cut card" in capsys.readouterr().out


def test_a_cut_drawn_by_the_table_keeps_no_photo(tmp_path):
    from tablekit.commands.run import EvidenceCamera

    camera = EvidenceCamera(FolderSource(tmp_path))  # no frames: the cut is not read
    with Journal(tmp_path / "j.sqlite") as j:
        t = Table.start(j, game(), ManualClock(), camera=camera)
        t.button(4, True)
        assert t.state.deal is not None and t.state.deal.wild  # the table drew one
        assert j.photo_seqs(t.game_id) == set()
    assert camera.cut_photo(1) is None and camera.table_photo(TableRequest(3, 1)) is None


def test_each_whole_table_reading_keeps_its_photo_and_the_turn_ruling_is_listed(tmp_path):
    from test_app_turn_checks import NAMES, OK, TABLES, press

    class Photographed(ScriptedCamera):
        """Scripted tables, each with a photo naming the turn it was read after."""

        def table_photo(self, request: TableRequest) -> bytes:
            image = np.full((40, 60, 3), 30 * request.turns, np.uint8)
            return bytes(cv2.imencode(".jpg", image)[1].tobytes())

    with Journal(tmp_path / "j.sqlite") as j:
        t = Table.start(j, game("open-rummy-2deck", NAMES), ManualClock(1000),
                        camera=Photographed(tables=dict(TABLES)))
        press(t, OK)
        for seat in (1, 2, 3):
            press(t, seat)
        events = j.events(t.game_id)
        seen = [seq for seq, e in enumerate(events, 1) if isinstance(e, TableSeen)]
        assert len(seen) == 4 and j.photo_seqs(t.game_id) == set(seen)
        shades = [int(decode(j.photo(t.game_id, seq)).mean()) for seq in seen]
        assert shades == sorted(shades) and shades[0] < shades[-1]  # each its own turn's photo
        lines = [r for r in rulings(j, t.game_id) if r.kind == "turn"]
    assert [(r.seq, r.player, r.verdict) for r in lines] == [
        (seen[0], "", "seen"), (seen[1], "Bo", "legal"), (seen[2], "Cy", "legal"),
        (seen[3], "Di", "illegal")]
    assert "taken off the table" in lines[3].reason and all(r.photo for r in lines)


@pytest.mark.parametrize("bad", [["--step-ms", "-1"], ["--seconds", "nan"], ["--seconds", "inf"],
                                 ["--seconds", "-2"], ["--seconds", "0"]])
def test_a_replay_that_could_never_end_is_refused_in_one_line(played, bad, capsys):
    path, game_id, _ = played
    start = time.monotonic()
    assert main(["history", "--journal", str(path), "--replay", str(game_id), "--headless",
                 "--size", "800x480", *bad]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
    assert time.monotonic() - start < 10


def test_history_says_what_it_cannot_find_in_one_line(played, tmp_path, capsys):
    path, _, _ = played
    for number in ("99999999999999999999999", "-3", "0"):
        assert main(["history", "--journal", str(path), "--game", number]) == 2
        assert capsys.readouterr().err.startswith(f"error: no game {number} in the journal")
    empty = tmp_path / "empty.sqlite"
    empty.write_bytes(b"")
    assert main(["history", "--journal", str(empty)]) == 0
    assert "no games in the journal" in capsys.readouterr().err

"""Benchmark of telling cards from tiles (``vision.pieces``): what ``tablekit see`` decides
lies on the table when no game is named.

Usage: ``.venv/bin/python bench/bench_pieces.py [--data ../shared/data] [--photos 1]
[--tables 12] [--seed 5] [--tile-weights FILE] [--one-look] [--min-tiles 3,4,5]
[--over-marks 1,2,3,off]``

Sources: the shared labelled card photos (real photographs, every ``--photos``-th of each
folder, the capture groups training leaves out apart; the tile reader never saw any of
them), rendered card
tables of ``bench/bench_tables.py`` (several decks, held-out typefaces among them), and
rendered tile tables of ``bench/bench_tiles_learnt.py`` (held-out typefaces and plastics,
and since the busy surfaces were added to it, tables on its two held-out surfaces too: the
``all`` line counts them, so it is not comparable with runs before them, nor with runs before
the turned-over photos and close-ups below joined it); the shared photos
also turned to the other lightness (``vision.lightness``: a light-on-dark deck's photo,
which must stay cards), and rendered close-ups of 1–37 tiles 150–400 pixels high
(held-out fonts and plastics, racks and scattered tiles), and nearer close-ups of one to six
tiles 280–420 pixels high (a single tile often).
Per source: how many photos were told right, and how many when the source is read as one
run (``tablekit see`` over a folder: an unsettled photo is read as most of the run's settled
photos are, ``vision.runs.run_choice``), with the count of unsettled photos; the card marks and sure tiles counted (median,
and the tiles' range), how many took the tile reader's second look, and the median and p95
ms of the choice (the card detector's first look included). ``--one-look`` also scores the
choice without the second look, ``--min-tiles`` with other counts of sure tiles
making a tile table (``vision.pieces.MIN_TILES``), and ``--over-marks`` with other margins
of sure tiles over card marks making a close-up of fewer a tile table
(``vision.pieces.OVER_MARKS``; ``off`` without that rule): what each is worth. Last, two
runs that mix cards and tiles: every photo in one run (cards the most), and every tile photo
with every tenth card photo (tiles the most): what the run's choice costs the photos of the
other kind.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_tables import SOURCES as CARD_SOURCES  # noqa: E402
from bench_tables import table  # noqa: E402
from bench_tiles_learnt import SIZE, TILE_PX, source_scene  # noqa: E402
from bench_tiles_learnt import SOURCES as TILE_SOURCES  # noqa: E402
from scoring import p95  # noqa: E402

from vision.detector import detect  # noqa: E402
from vision.lightness import lightness_negative  # noqa: E402
from vision.pieces import PiecesSeen, tell, tell_pieces  # noqa: E402
from vision.runs import Told, run_choice  # noqa: E402
from vision.scale import SURE as CARD_SURE  # noqa: E402
from vision.tile_reader import DEFAULT_TILE_WEIGHTS  # noqa: E402
from vision.train.split import is_held_out  # noqa: E402

PHOTO_FOLDERS = ("cards-corners", "cards-ranks")
#: Tile heights (pixels of a 1280×960 photo) of the rendered close-ups.
CLOSE_PX = (150.0, 400.0)
CLOSE_SOURCES = ("held-out fonts", "held-out plastics", "racks", "scattered")
#: ... and of the nearer close-ups: one to six tiles, a single tile often.
NEAR_PX = (280.0, 420.0)


def photos(data: Path, folder: str, every: int, held_out: bool | None,
           turned: bool = False) -> Iterator[np.ndarray]:
    """Every ``every``-th photo of the folder in (``held_out``) or out of the capture groups
    that training leaves out (None: all of them), ``turned`` to the other lightness."""
    images = sorted(p for p in (data / folder / "images").iterdir()
                    if p.suffix.lower() in (".jpg", ".jpeg", ".png")
                    and held_out in (None, is_held_out(p.name)))
    for path in images[::max(1, every)]:
        image = cv2.imread(str(path))
        if image is not None:
            yield lightness_negative(image) if turned else image


def card_tables(source: str, n: int, seed: int) -> Iterator[np.ndarray]:
    rng = np.random.default_rng([seed, CARD_SOURCES.index(source)])
    for _ in range(n):
        yield table(rng, source, (1280, 960))[0]


def tile_tables(source: str, n: int, seed: int, tile_px: tuple[float, float] = TILE_PX) -> Iterator[np.ndarray]:
    key = [seed, 100 + list(TILE_SOURCES).index(source)]
    rng = np.random.default_rng(key if tile_px == TILE_PX else [*key, int(tile_px[0])])
    looks = np.random.default_rng([*key, 1])  # the light a source puts on its tables
    for _ in range(n):
        yield source_scene(source, rng, looks, SIZE, tile_px)[0]


def run(name: str, images: Iterator[np.ndarray], want: str, weights: Path,
        one_look: bool, min_tiles: tuple[int, ...] = (),
        over_marks: tuple[int | None, ...] = ()) -> list[PiecesSeen]:
    right = total = second = right_one = 0
    choices: list[PiecesSeen] = []
    right_at = dict.fromkeys(min_tiles, 0)
    right_over = dict.fromkeys(over_marks, 0)
    times: list[float] = []
    marks, tiles = [], []
    for image in images:
        start = time.perf_counter()
        first = detect(image, CARD_SURE)  # the card detector's first look, timed as `see` makes it
        seen = tell(image, first, weights)
        times.append((time.perf_counter() - start) * 1000)
        right += seen.pieces == want
        total += 1
        choices.append(seen)
        second += len(seen.looks.sizes) > 1
        marks.append(seen.card_marks)
        tiles.append(seen.tiles)
        # the other choices from the same first look of the card detector
        if one_look:
            right_one += tell(image, first, weights, second_look=False).pieces == want
        for count in min_tiles:
            right_at[count] += tell(image, first, weights, min_tiles=count).pieces == want
        for more in over_marks:
            right_over[more] += tell(image, first, weights, over_marks=more).pieces == want
    if total:
        alone = f" one look {right_one:4d}/{total:<4d}" if one_look else ""
        alone += "".join(f" at {count} {n:4d}/{total:<4d}" for count, n in right_at.items())
        alone += "".join(f" over marks {'off' if more is None else more} {n:4d}/{total:<4d}"
                         for more, n in right_over.items())
        in_run = told_in_run(choices, want)
        alone += f" in a run {in_run:4d}/{total:<4d} (unsettled {sum(c.unsettled for c in choices)})"
        print(f"{name:30s} {want:5s} {right:4d}/{total:<4d}{alone} marks {statistics.median(marks):5.1f} "
              f"tiles {statistics.median(tiles):5.1f} ({min(tiles)}-{max(tiles)}) second looks {second:3d} "
              f"median_ms {statistics.median(times):6.1f} p95_ms {p95(times):6.1f}", flush=True)
    return choices


def told_in_run(choices: list[PiecesSeen], want: str, kind: str | None = None) -> int:
    """How many photos of a run (``tablekit see`` over a folder) are told ``want``, the
    unsettled ones read as ``kind`` (by default as most of these photos that settled are,
    ``run_pieces``)."""
    kind = kind or run_pieces(choices)
    return sum((kind if c.unsettled else c.pieces) == want for c in choices)


def run_pieces(choices: list[PiecesSeen]) -> str:
    """What a run of these photos reads its unsettled ones as (``vision.runs.run_choice``)."""
    return run_choice([Told(None if c.unsettled else c.pieces) for c in choices]).pieces


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data",
                    help="the labelled photo folders (skipped when missing)")
    ap.add_argument("--photos", type=int, default=1, help="read every Nth photo of each folder")
    ap.add_argument("--tables", type=int, default=12, help="rendered tables per source")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--tile-weights", type=Path, default=DEFAULT_TILE_WEIGHTS)
    ap.add_argument("--one-look", action="store_true", help="also choose without the second look")
    ap.add_argument("--min-tiles", default="", metavar="N,...",
                    help="also choose with these counts of sure tiles making a tile table")
    ap.add_argument("--over-marks", default="", metavar="N,...",
                    help="also choose with these margins of sure tiles over card marks making a "
                         "tile table of fewer than the count ('off': no such rule)")
    args = ap.parse_args()
    if not args.tile_weights.is_file():
        print(f"error: no tile reader weights at {args.tile_weights}", file=sys.stderr)
        return 2
    tell_pieces(np.zeros((64, 64, 3), np.uint8), args.tile_weights)  # load both networks
    print("cards or tiles, told from both networks' first looks: photos are real, tables rendered")
    right = total = 0
    seen: dict[str, tuple[str, list[PiecesSeen]]] = {}  # each source's choices, by name
    runs: list[tuple[str, Iterator[np.ndarray], str]] = []
    for folder in PHOTO_FOLDERS:
        if (args.data / folder).is_dir():
            for held in (False, True):
                name = f"photos {folder}{' held-out' if held else ''}"
                runs.append((name, photos(args.data, folder, args.photos, held), "cards"))
            runs.append((f"photos {folder} turned over", photos(args.data, folder, args.photos, None, True),
                         "cards"))
        else:
            print(f"(no {folder} under {args.data}: skipped)")
    runs += [(f"card tables {s}", card_tables(s, args.tables, args.seed), "cards") for s in CARD_SOURCES]
    runs += [(f"tile tables {s}", tile_tables(s, args.tables, args.seed), "tiles") for s in TILE_SOURCES]
    runs += [(f"tile close-ups {s}", tile_tables(s, args.tables, args.seed, CLOSE_PX), "tiles")
             for s in CLOSE_SOURCES]
    runs += [(f"tile near close-ups {s}", tile_tables(s, args.tables, args.seed, NEAR_PX), "tiles")
             for s in CLOSE_SOURCES]
    for name, images, want in runs:
        choices = run(name, images, want, args.tile_weights, args.one_look,
                      tuple(int(n) for n in args.min_tiles.split(",") if n.strip()),
                      tuple(None if n.strip() == "off" else int(n) for n in args.over_marks.split(",") if n.strip()))
        seen[name] = (want, choices)
        right, total = right + sum(c.pieces == want for c in choices), total + len(choices)
    print(f"{'all':30s}       {right:4d}/{total:<4d}")
    # runs that mix cards and tiles: every photo above in one run (cards the most), and every
    # tile photo with every tenth card photo (tiles the most): what the run's choice costs
    # the unsettled photos of the other kind
    tenth = {name: (want, c if want == "tiles" else c[::10]) for name, (want, c) in seen.items()}
    for mix, sources in (("every photo", seen), ("tile photos, a tenth of the card photos", tenth)):
        choices = [c for _, cs in sources.values() for c in cs]
        kind = run_pieces(choices)
        for want in ("cards", "tiles"):
            mine = [c for w, cs in sources.values() if w == want for c in cs]
            alone = sum(c.pieces == want for c in mine)
            in_run = told_in_run(mine, want, kind)
            print(f"mixed run: {mix} (read as {kind} where unsettled): {want} told right alone "
                  f"{alone}/{len(mine)}, in the run {in_run}/{len(mine)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

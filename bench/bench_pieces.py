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
(held-out fonts and plastics, racks and scattered tiles).
Per source: how many photos were told right, the card marks and sure tiles counted (median,
and the tiles' range), how many took the tile reader's second look, and the median and p95
ms of the choice (the card detector's first look included). ``--one-look`` also scores the
choice without the second look, ``--min-tiles`` with other counts of sure tiles
making a tile table (``vision.pieces.MIN_TILES``), and ``--over-marks`` with other margins
of sure tiles over card marks making a close-up of fewer a tile table
(``vision.pieces.OVER_MARKS``; ``off`` without that rule): what each is worth.
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
from bench_tiles_learnt import SIZE, TILE_PX  # noqa: E402
from bench_tiles_learnt import SOURCES as TILE_SOURCES  # noqa: E402
from scoring import p95  # noqa: E402

from vision.detector import detect  # noqa: E402
from vision.lightness import lightness_negative  # noqa: E402
from vision.pieces import tell, tell_pieces  # noqa: E402
from vision.scale import SURE as CARD_SURE  # noqa: E402
from vision.tile_reader import DEFAULT_TILE_WEIGHTS  # noqa: E402
from vision.tile_synth import tile_scene  # noqa: E402
from vision.train.split import is_held_out  # noqa: E402

PHOTO_FOLDERS = ("cards-corners", "cards-ranks")
#: Tile heights (pixels of a 1280×960 photo) of the rendered close-ups.
CLOSE_PX = (150.0, 400.0)
CLOSE_SOURCES = ("held-out fonts", "held-out plastics", "racks", "scattered")


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
    layout, fonts, plastics, slant, surface = TILE_SOURCES[source]
    key = [seed, 100 + list(TILE_SOURCES).index(source)]
    rng = np.random.default_rng(key if tile_px == TILE_PX else [*key, int(tile_px[0])])
    for _ in range(n):
        yield tile_scene(rng, SIZE, tile_px, layout, fonts, plastics, slant, surface=surface)[0]


def run(name: str, images: Iterator[np.ndarray], want: str, weights: Path,
        one_look: bool, min_tiles: tuple[int, ...] = (),
        over_marks: tuple[int | None, ...] = ()) -> tuple[int, int]:
    right = total = second = right_one = 0
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
        print(f"{name:30s} {want:5s} {right:4d}/{total:<4d}{alone} marks {statistics.median(marks):5.1f} "
              f"tiles {statistics.median(tiles):5.1f} ({min(tiles)}-{max(tiles)}) second looks {second:3d} "
              f"median_ms {statistics.median(times):6.1f} p95_ms {p95(times):6.1f}", flush=True)
    return right, total


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
    for name, images, want in runs:
        r, t = run(name, images, want, args.tile_weights, args.one_look,
                   tuple(int(n) for n in args.min_tiles.split(",") if n.strip()),
                   tuple(None if n.strip() == "off" else int(n) for n in args.over_marks.split(",") if n.strip()))
        right, total = right + r, total + t
    print(f"{'all':30s}       {right:4d}/{total:<4d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark of the tile reader on drawn tables of tile sets seen at a slant: tiles read right,
tables whose sets are all read and grouped exactly, and median ms.

Usage: ``.venv/bin/python bench/bench_tiles.py [--tables 20] [--seed 1]``

No public photos of rummy tiles exist, so this stands in for them: three sets of tiles
(``vision.tiles.draw_tile``) laid on a plain table with a random gap of 0-5 pixels between
the tiles of a set, then seen by a camera off square (a random perspective), blurred, lit
unevenly from one side and given sensor noise.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from vision.recognize import read_table  # noqa: E402
from vision.tiles import draw_sets  # noqa: E402

SETS = [["R3", "R4", "R5", "R6"], ["K9", "B9", "Y9", "R9"], ["B11", "B12", "B13"]]


def table(rng: np.random.Generator) -> np.ndarray:
    """One drawn table of ``SETS`` as a camera would see it."""
    b, g, r = (int(v) for v in rng.integers(20, 120, 3))
    gap = int(rng.integers(0, 6))
    img = draw_sets(SETS, (1400, 700), gap, gap + 90, 1.4, (b, g, r), top=250, left=60)
    corners = np.array([[0, 0], [1400, 0], [1400, 700], [0, 700]], np.float32)
    slant = rng.uniform(-60, 60, (4, 2)).astype(np.float32)
    m = cv2.getPerspectiveTransform(corners, corners + slant)
    seen = cv2.warpPerspective(img, m, (1400, 700), borderMode=cv2.BORDER_REPLICATE)
    seen = cv2.GaussianBlur(seen, (3, 3), 1.0)
    light = np.linspace(0.75, 1.1, 1400)[None, :, None]
    noisy = seen * light + rng.normal(0, 4, seen.shape)
    out: np.ndarray = np.clip(noisy, 0, 255).astype(np.uint8)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    want = sorted(sum(SETS, []))
    right = exact = 0
    times = []
    for _ in range(args.tables):
        image = table(rng)
        start = time.perf_counter()
        reading = read_table(image, pieces="tiles")
        times.append((time.perf_counter() - start) * 1000)
        got = [c.card for c in reading.cards]
        right += sum(min(got.count(t), want.count(t)) for t in set(want))
        exact += sorted(reading.group_cards()) == sorted(SETS)
    print(f"tiles tables={args.tables} tiles_right={right}/{len(want) * args.tables} "
          f"exact_tables={exact}/{args.tables} median_ms={statistics.median(times):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

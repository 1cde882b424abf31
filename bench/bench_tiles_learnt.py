"""Benchmark of the learnt tile reader against the classical one, on drawn tables whose tile
sets use typefaces and plastics held out of training.

Usage: ``.venv/bin/python bench/bench_tiles_learnt.py [--tables 12] [--seed 7] [--weights FILE]
[--sources NAME,...] [--no-classical] [--ablate-looks] [--ablate-upright] [--ablate-echoes]
[--ablate-grouping] [--ablate-inks] [--ablate-level] [--calibrated] [--top-down]``

These are renders (``vision.tile_synth``), not photographs: the project has no labelled
photos of real tile sets, so photograph-like renders with held-out designs stand in for
them. Sources (1280×960 each): held-out fonts (training plastics), held-out plastics
(training fonts), and racks, scattered turned tiles and rows seen at a strong slant, each
with both held-out fonts and plastics; and tables of both on two surfaces never drawn in
training (``vision.tile_synth.HELD_OUT_SURFACES``: coarse grain, terrazzo); and tables of both
under a warm light the camera did not balance (``warm light``: the finished photo's blue
channel dimmed and its red raised by a quarter to nearly a half, as under a bulb; the
benchmark's own transform, not the training scenes' ``casts``); and rows of both seen by a
camera tilted 25–50° from straight down toward any side (``camera slant``:
``vision.synth.camera_view``, where ``slant`` moves each corner of the image on its own
and can lay a table nearly edge-on); and tables of both whose sets print Jolys of designs
never drawn in training (``held-out jolys``: a four-leaf clover, a crescent moon's face;
``vision.tile_synth.JOLYS``), a further 15% of the tiles laid at random made Jolys. Per source and
reader: precision, recall, F1 (a tile counts as right when the image holds one more of its
label; ``??`` counts as a reading, never right), the share of tables read exactly, the
melds laid in rows grouped exactly (one group of the reading holds the meld's tiles, each
named right, and nothing else; racks and scattered tiles lay none, ``-``), median / p95
ms, and the Jolys read as the Joly where they lie, of the Jolys laid. Under it, the tiles
whose numeral the photo's edge cuts, by how they were read (``cut_reads``: named right, left
``??`` as a tile that cannot be read should be, misnamed, not found), and the melds missed,
each by its first cause (``meld_misses``). ``--calibrated`` also reads each table as on a
calibrated mat: given the scale a mat calibration would give (``px_per_mm``: the drawn
tiles' median height over ``vision.tile_reader.TILE_MM``, off by a factor of up to 1.1 either
way, as real sets differ), which sizes the first look. ``--top-down`` also reads each table
as the kit reads a calibrated mat's frame, from above (``vision.calibration.read_calibrated``;
the calibration that of a mat the size of the drawn table, its tiles ``TILE_MM`` high as
drawn, whose corners a calibration found each a pixel or so off: ``mats.drawn_mat``), as the
reader ``above``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from mats import drawn_mat, drawn_sides  # noqa: E402
from scoring import p95  # noqa: E402

from vision.calibration import Calibration, read_calibrated  # noqa: E402
from vision.reading import TableReading  # noqa: E402
from vision.tile_grouping import group_tiles  # noqa: E402
from vision.tile_reader import DEFAULT_TILE_WEIGHTS, TILE_MM, read_tile_table  # noqa: E402
from vision.tile_synth import SceneTile, tile_scene  # noqa: E402

SIZE = (1280, 960)
TILE_PX = (45.0, 160.0)
#: name: (layout, held-out fonts, held-out plastics, slant, surface)
SOURCES: dict[str, tuple[str | None, bool, bool, float | None, str | None]] = {
    "held-out fonts": (None, True, False, None, None),
    "held-out plastics": (None, False, True, None, None),
    "racks": ("rack", True, True, None, None),
    "scattered": ("scattered", True, True, None, None),
    "slant": ("rows", True, True, 0.25, None),
    # table surfaces never drawn in training (vision.tile_synth.HELD_OUT_SURFACES)
    "grain surface": (None, True, True, None, "grain"),
    "terrazzo surface": (None, True, True, None, "terrazzo"),
    # listed last, so that the other sources' tables are those they were before them
    "warm light": (None, True, True, None, None),
    "camera slant": ("rows", True, True, 0.55, None),
    "held-out jolys": (None, True, True, None, None),
}
#: The sources seen under a warm cast, and its strength's range (``warm_cast``).
WARM: dict[str, tuple[float, float]] = {"warm light": (0.25, 0.45)}
#: The sources whose slant is a camera's (``vision.tile_synth.PERSPECTIVES``), not corners moved.
CAMERA: frozenset[str] = frozenset({"camera slant"})
#: The sources whose sets print a Joly of designs never drawn in training, and the share of
#: the tiles laid at random made Jolys besides (``tile_scene``'s ``jolys`` and ``joly_share``).
JOLY_SOURCES: dict[str, tuple[str, float]] = {"held-out jolys": ("held-out", 0.15)}


def source_scene(source: str, rng: np.random.Generator, looks: np.random.Generator,
                 size: tuple[int, int] = SIZE, tile_px: tuple[float, float] = TILE_PX,
                 seen_through: list[np.ndarray] | None = None) -> tuple[np.ndarray, list[SceneTile]]:
    """A table of ``source``, drawn from ``rng``, and its tiles; the light the benchmark puts on
    it afterwards (``WARM``) is drawn from ``looks``, so the tables themselves are as drawn.
    ``seen_through`` is given the homography from the table as drawn to the image
    (``tile_scene``)."""
    layout, fonts, plastics, slant, surface = SOURCES[source]
    jolys, joly_share = JOLY_SOURCES.get(source, ("v1", 0.0))
    image, tiles = tile_scene(rng, size, tile_px, layout, fonts, plastics, slant, surface=surface,
                              perspective="camera" if source in CAMERA else "corners", jolys=jolys,
                              joly_share=joly_share, seen_through=seen_through)
    if source in WARM:
        image = warm_cast(image, float(looks.uniform(*WARM[source])))
    return image, tiles


def warm_cast(image: np.ndarray, warm: float) -> np.ndarray:
    """``image`` under a light ``warm`` warmer than the camera balanced for: its blue channel
    times ``1 - warm`` and its red ``1 + warm``, over their mean (brightness kept)."""
    gains = np.array([1 - warm, 1.0, 1 + warm], np.float32)
    out: np.ndarray = np.clip(image.astype(np.float32) * (gains / gains.mean()), 0, 255).astype(np.uint8)
    return out


def score(got: list[str], want: list[str]) -> int:
    g, w = Counter(got), Counter(want)
    return sum(min(g[k], w[k]) for k in w)


def melds_grouped(tiles: list[SceneTile], reading: TableReading) -> tuple[int, int, Counter[str]]:
    """The melds laid in rows whose tiles one group of the reading holds, named right and
    with nothing else in it; the melds laid (racks and scattered tiles lay none); and the
    others, each put down to its first cause (``meld_misses``)."""
    laid: dict[int, list[str]] = {}
    for t in tiles:
        if t.meld is not None:
            laid.setdefault(t.meld, []).append(t.tile)
    groups = Counter(tuple(sorted(g)) for g in reading.group_cards())
    missed = []
    for meld, names in laid.items():  # a group matches one meld only (two sets lay alike melds)
        key = tuple(sorted(names))
        if groups[key] > 0:
            groups[key] -= 1
        else:
            missed.append(meld)
    return len(laid) - len(missed), len(laid), meld_misses(tiles, reading, missed)


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    """The middle of a read's box: where the read lies."""
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _lies_on(quad: np.ndarray, point: tuple[float, float]) -> bool:
    """Whether ``point`` lies on the tile face ``quad`` (float32, 4×2)."""
    return bool(cv2.pointPolygonTest(quad, point, False) >= 0)


def meld_misses(tiles: list[SceneTile], reading: TableReading, melds: list[int]) -> Counter[str]:
    """Each meld of ``melds`` put down to its first cause, on the drawn truth: ``not found`` (a
    tile of it has no read whose centre lies on it), ``twice`` (one has two), ``misread`` (one
    is named wrong or ``??``), ``split`` (its reads lie in two groups or more), ``merged``
    (their group holds a read lying on another meld's tile), else ``extra read`` (their group
    holds a read on no tile, or on a tile of no meld)."""
    quads = [t.quad.astype(np.float32) for t in tiles]

    def lying_on(box: tuple[float, float, float, float]) -> int | None:
        return next((k for k, q in enumerate(quads) if _lies_on(q, _centre(box))), None)

    on = [lying_on(c.box) for c in reading.cards]
    reads: dict[int, list[int]] = {}
    for i, k in enumerate(on):
        if k is not None:
            reads.setdefault(k, []).append(i)
    group_of = {i: g for g, members in enumerate(reading.groups) for i in members}
    out: Counter[str] = Counter()
    for meld in melds:
        members = [k for k, t in enumerate(tiles) if t.meld == meld]
        if any(k not in reads for k in members):
            out["not found"] += 1
        elif any(len(reads[k]) > 1 for k in members):
            out["twice"] += 1
        elif any(reading.cards[reads[k][0]].card != tiles[k].tile for k in members):
            out["misread"] += 1
        elif len({group_of.get(reads[k][0]) for k in members}) > 1:
            out["split"] += 1
        else:
            group = reading.groups[group_of[reads[members[0]][0]]] if reads[members[0]][0] in group_of else ()
            others = [on[i] for i in group if on[i] not in members]
            if any(k is not None and tiles[k].meld not in (None, meld) for k in others):
                out["merged"] += 1
            else:
                out["extra read"] += 1
    return out


def jolys_read(tiles: list[SceneTile], reading: TableReading) -> tuple[int, int]:
    """The Jolys of ``tiles`` with a read ``JY`` whose centre lies on them, and the Jolys."""
    quads = [t.quad.astype(np.float32) for t in tiles if t.tile == "JY"]
    centres = [_centre(c.box) for c in reading.cards if c.card == "JY"]
    read = sum(any(_lies_on(q, p) for p in centres) for q in quads)
    return read, len(quads)


#: How a tile whose numeral the photo's edge cuts was read (``cut_reads``).
CUT_OUTCOMES = ("right", "??", "misnamed", "not found")


def cut_reads(tiles: list[SceneTile], reading: TableReading, size: tuple[int, int]) -> Counter[str]:
    """The tiles of ``tiles`` whose numeral the edge of a ``size`` (width, height) photo cuts,
    by how they were read: ``right`` (a read whose centre lies on the tile names it),
    ``??`` (its only reads are ``??``: unread, as the contract wants of a tile it cannot
    read), ``misnamed`` (a read names another tile: a cut numeral guessed), ``not found``."""
    w, h = size
    centres = [_centre(c.box) for c in reading.cards]
    out: Counter[str] = Counter()
    for t in tiles:
        n = t.numeral
        if (n[:, 0] >= 0).all() and (n[:, 0] <= w).all() and (n[:, 1] >= 0).all() and (n[:, 1] <= h).all():
            continue
        q = t.quad.astype(np.float32)
        names = {c.card for c, p in zip(reading.cards, centres, strict=True) if _lies_on(q, p)}
        out[("right" if t.tile in names else "??" if names == {"??"} else "misnamed") if names else "not found"] += 1
    return out


def scale_of(tiles: list[SceneTile], rng: np.random.Generator) -> float:
    """The scale (pixels a millimetre) a mat calibration would give for a table of ``tiles``,
    if they were ``TILE_MM`` high: their median height over it, off by a factor of up to 1.1
    either way."""
    heights = [t.height for t in tiles]
    return float(np.median(heights)) / TILE_MM * float(np.exp(rng.uniform(-0.1, 0.1)))


@dataclass(frozen=True)
class Mat:
    """What a mat calibration would say of a table: its scale in the photo (``scale_of``) and
    the calibration itself (``mats.drawn_mat``)."""

    px_per_mm: float
    calibration: Calibration


#: A reader: a table photo, and what a calibration would say of it, to its reading.
Reader = Callable[[np.ndarray, Mat], TableReading]


def run(source: str, reader: Reader, tables: int, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng([seed, list(SOURCES).index(source)])
    # the calibrations' errors from a generator of their own: every reader sees the same tables
    errors = np.random.default_rng([seed, list(SOURCES).index(source), 1])
    markers = np.random.default_rng([seed, list(SOURCES).index(source), 2])  # the mats' corners found
    right = n_got = n_want = exact = melds_hit = melds = jolys = jolys_hit = 0
    missed: Counter[str] = Counter()
    cut: Counter[str] = Counter()
    times = []
    for _ in range(tables):
        through: list[np.ndarray] = []
        image, tiles = source_scene(source, rng, errors, seen_through=through)
        px_per_mm = scale_of(tiles, errors) if tiles else 1.0
        mm_per_px = TILE_MM / float(np.median(drawn_sides([t.quad for t in tiles], through[0]))) \
            if tiles else 1.0
        mat = Mat(px_per_mm, drawn_mat(through[0], (image.shape[1], image.shape[0]), mm_per_px, markers))
        start = time.perf_counter()
        reading = reader(image, mat)
        times.append((time.perf_counter() - start) * 1000)
        got = [c.card for c in reading.cards]
        want = [t.tile for t in tiles]
        r = score(got, want)
        right, n_got, n_want = right + r, n_got + len(got), n_want + len(want)
        exact += sorted(got) == sorted(want)
        hit, laid, why = melds_grouped(tiles, reading)
        melds_hit, melds = melds_hit + hit, melds + laid
        missed += why
        j_hit, j = jolys_read(tiles, reading)
        jolys_hit, jolys = jolys_hit + j_hit, jolys + j
        cut += cut_reads(tiles, reading, (image.shape[1], image.shape[0]))
    p = right / max(1, n_got)
    rc = right / max(1, n_want)
    return {"precision": p, "recall": rc, "f1": 2 * p * rc / max(1e-9, p + rc), "exact": exact / tables,
            "median": statistics.median(times), "p95": p95(times), "tiles": n_want,
            "melds_hit": melds_hit, "melds": melds, "missed": missed, "jolys_hit": jolys_hit,
            "jolys": jolys, "cut": cut}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=12, help="tables per source")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--weights", type=Path, default=DEFAULT_TILE_WEIGHTS)
    ap.add_argument("--no-classical", action="store_true", help="skip the classical reader")
    ap.add_argument("--sources", default=",".join(SOURCES), help="comma-separated sources (default: all)")
    ap.add_argument("--top-down", action="store_true",
                    help="also read each table from above, as the kit reads a calibrated mat's frame")
    ap.add_argument("--calibrated", action="store_true",
                    help="also read each table given the scale a mat calibration would give ('mat'): "
                         "its first look sized from it")
    ap.add_argument("--ablate-looks", action="store_true",
                    help="also read with fewer looks: one (the first look's size only) and two (the "
                         "size measured once, not again): what each later look is worth")
    ap.add_argument("--ablate-upright", action="store_true",
                    help="also read without reading the unsure tiles again turned upright, with "
                         "the upright patches 96 pixels wide (shipped: 64), and with one upright read "
                         "(shipped: up to three, each turned by the up read in the one before)")
    ap.add_argument("--ablate-echoes", action="store_true",
                    help="also read keeping the echoes (weaker peaks inside a tile read surely that "
                         "read nothing else), and dropping them within the whole face (shipped: 0.9 "
                         "of it)")
    ap.add_argument("--ablate-grouping", action="store_true",
                    help="also group the tiles by their grown boxes (the classical reader's way) "
                         "instead of by the rows they stand in; by the whole table's pitch instead "
                         "of the pitch around each tile; and each tile by its own up instead of "
                         "as the tiles around it stand")
    ap.add_argument("--ablate-inks", action="store_true",
                    help="also read without settling the colours read unsurely against the table's "
                         "inks (vision.tile_inks), settling every tile's colour (shipped: those read "
                         "under 0.9), and with the table's word weighed fully (shipped: 0.25)")
    ap.add_argument("--ablate-level", action="store_true",
                    help="also read without reading a slanted table as seen from above "
                         "(vision.tile_plane; shipped: when the tiles' sizes from near to far differ "
                         "by 1.8 or more), with that ratio at 1.2 and 1.4, and with the photo's "
                         "looks all made before the view (shipped: none after the slant shows)")
    args = ap.parse_args()
    unknown = [s for s in args.sources.split(",") if s not in SOURCES]
    if unknown:
        print(f"error: unknown source {unknown[0]!r} (one of {', '.join(SOURCES)})", file=sys.stderr)
        return 2
    print("RENDERED tables (vision.tile_synth, held-out typefaces and plastics), not photographs")
    readers: dict[str, Reader] = {}
    if args.weights.is_file():
        readers["learnt"] = lambda im, _: read_tile_table(im, args.weights)
    else:
        print(f"no learnt weights at {args.weights}")
    if args.calibrated and args.weights.is_file():
        readers["mat"] = lambda im, mat: read_tile_table(im, args.weights, px_per_mm=mat.px_per_mm)
    if args.top_down and args.weights.is_file():
        readers["above"] = lambda im, mat: read_calibrated(mat.calibration, im,
                                                           partial(read_tile_table, weights=args.weights))
    if args.ablate_upright and args.weights.is_file():
        readers["as found"] = lambda im, _: read_tile_table(im, args.weights, upright=False)
        readers["patch 96"] = lambda im, _: read_tile_table(im, args.weights, patch=96)
        readers["1 round"] = lambda im, _: read_tile_table(im, args.weights, rounds=1)
    if args.ablate_echoes and args.weights.is_file():
        readers["echoes"] = lambda im, _: read_tile_table(im, args.weights, echoes=0.0)
        readers["echo 1.0"] = lambda im, _: read_tile_table(im, args.weights, echoes=1.0)
    if args.ablate_grouping and args.weights.is_file():
        readers["box groups"] = lambda im, _: read_tile_table(im, args.weights, by_rows=False)
        readers["tbl pitch"] = lambda im, _: read_tile_table(
            im, args.weights, rows=partial(group_tiles, pitch_reach=math.inf))
        readers["own ups"] = lambda im, _: read_tile_table(im, args.weights, rows=partial(group_tiles, up_reach=0.0))
    if args.ablate_inks and args.weights.is_file():
        readers["no inks"] = lambda im, _: read_tile_table(im, args.weights, ink_unsure=0.0)
        readers["inks all"] = lambda im, _: read_tile_table(im, args.weights, ink_unsure=1.01)
        readers["trust 1"] = lambda im, _: read_tile_table(im, args.weights, ink_trust=1.0)
    if args.ablate_level and args.weights.is_file():
        readers["no level"] = lambda im, _: read_tile_table(im, args.weights, level=0.0)
        readers["level 1.2"] = lambda im, _: read_tile_table(im, args.weights, level=1.2)
        readers["level 1.4"] = lambda im, _: read_tile_table(im, args.weights, level=1.4)
        readers["all looks"] = lambda im, _: read_tile_table(im, args.weights, view_early=False)
    if args.ablate_looks and args.weights.is_file():
        readers["1 look"] = lambda im, _: read_tile_table(im, args.weights, looks=1)
        readers["2 looks"] = lambda im, _: read_tile_table(im, args.weights, looks=2)
    if not args.no_classical:
        readers["classical"] = lambda im, _: read_tile_table(im, None)
    if "learnt" in readers:  # load the network before timing
        blank = np.full((64, 64, 3), 128, np.uint8)
        readers["learnt"](blank, Mat(1.0, drawn_mat(np.eye(3), (64, 64), 1.0, np.random.default_rng(0))))
    print(f"{'source':18} {'reader':9} {'tiles':>5} {'prec':>6} {'recall':>6} {'F1':>6} "
          f"{'exact':>6} {'melds':>7} {'med ms':>7} {'p95 ms':>7} {'jolys':>7}")
    for source in args.sources.split(","):
        for name, reader in readers.items():
            r = run(source, reader, args.tables, args.seed)
            melds = f"{r['melds_hit']:.0f}/{r['melds']:.0f}" if r["melds"] else "-"
            print(f"{source:18} {name:9} {r['tiles']:5.0f} {r['precision']:6.3f} {r['recall']:6.3f} "
                  f"{r['f1']:6.3f} {r['exact']:6.3f} {melds:>7} {r['median']:7.1f} {r['p95']:7.1f} "
                  f"{r['jolys_hit']:3.0f}/{r['jolys']:<3.0f}", flush=True)
            if r["cut"]:
                print(f"    tiles whose numeral the edge cuts: {r['cut'].total()}: "
                      + ", ".join(f"{why} {r['cut'][why]}" for why in CUT_OUTCOMES), flush=True)
            if r["missed"]:
                print("    melds missed, by first cause: "
                      + ", ".join(f"{n} {why}" for why, n in r["missed"].most_common()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

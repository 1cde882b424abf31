"""Benchmark of the recognizer on rendered tables of several decks, by source of design.

Usage: ``.venv/bin/python bench/bench_tables.py [--tables 12] [--size 1280x960] [--seed 5]
[--sources trained,held-out,...] [--weights DIR] [--calibrated] [--top-down]``

``--weights DIR`` reads with candidate networks: each of ``cardnet.onnx``, ``indexnet.onnx``,
``cardrank.onnx``, ``indexturn.onnx`` and ``indexbox.onnx`` found in ``DIR`` (with its
``.int8.onnx`` copy beside it, as shipped) replaces the shipped one; the rest stay the
shipped ones.

Each table is a 1280×960 top-down photo stand-in: 3–6 melds of 3–7 cards in fans and rows,
drawn from two or three decks at once (two identical cards from two decks count twice), at a
slight slant, blurred, with sensor noise and JPEG. The sources differ in the decks:

- ``trained``: designs of the kinds the training scenes use, in the typefaces every shipped
  card network was drawn with (``vision/train/typefaces/cards-v1``, where installed);
- ``held-out``: typefaces of ``vision.deck_styles.HELD_OUT_FAMILIES``, never in training;
- ``light-on-dark``, ``four-corner``, ``jumbo``: held-out typefaces in that kind of design;
- ``dim``: held-out typefaces under a dim, noisy, warm light;
- ``camera slant``: held-out typefaces seen by a pinhole camera tilted 25–50° from straight
  down toward any side (``vision.synth.camera_pose``, as the tile benchmark's source of
  that name): the far cards smaller and foreshortened, the near ones larger, some pushed out
  of the photo (an index the edge cuts is not asked for);
- ``hand``: not a table but a webcam's frame (640×640, 640×480 or 1280×720, whatever
  ``--size``) of one hand of 10–26 cards dealt from one or two held-out decks (two alike
  cards only from two), held in a fan (``synth.hand_layout``), each card under the top one
  showing a strip of a seventh to a third of its width, the fingers over the fan's foot, in
  dim, warm light with a webcam's noise: the issue's "dark webcam photos of overlapping
  fanned cards", drawn.

The designs drawn depend on the font files installed (Debian's ``fonts-urw-base35``,
``fonts-liberation2`` and ``fonts-freefont-ttf`` beside ``fonts-dejavu-core`` for the figures in
``vision/README.md``; with fewer fonts the held-out sources fall back to Hershey lettering).
These are renders, not photographs: they measure what the renderer can vary (designs,
layout, scale, light), with exact truth. Scored like ``../shared/tools/see-eval`` but with
cards counted as a multiset (``table_score.py``): precision, recall, F1, the share of tables
read exactly, the melds grouped exactly, the printed jokers read where they lie (of those
with an index showing), and median and p95 ms per table. A card with only part of an index
showing may be read or not (its read is optional); the ``strict`` figures
count its read as wrong, as this benchmark did before.

``--calibrated`` also reads each table given the scale a calibration would give
(``px_per_mm``: the cards' median long side over ``CARD_MM``, off by a factor of up to 1.2
either way, as a camera at a slant sees the mat's near side larger than its far side), from
which the detector's input size is chosen instead of a first look. ``--top-down`` also reads
each table (not the hands, which lie on no table) as the kit reads a calibrated mat's frame:
from above (``vision.calibration.read_calibrated``), the calibration that of a mat the size
of the drawn table whose corners a calibration found each a pixel or so off (``mat_of``);
printed as ``SOURCE above``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from functools import lru_cache, partial
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

sys.path.insert(0, str(REPO / "bench"))

from mats import drawn_mat, drawn_sides, long_side  # noqa: E402
from scoring import p95, prf  # noqa: E402
from table_score import TableScore, score_table  # noqa: E402

from vision.calibration import Calibration, read_calibrated  # noqa: E402
from vision.classifier import DEFAULT_CARD_CLASSIFIER, DEFAULT_CLASSIFIER, DEFAULT_TURN  # noqa: E402
from vision.deck_styles import deck_drawer, random_style, styled_face  # noqa: E402
from vision.detector import DEFAULT_WEIGHTS  # noqa: E402
from vision.index_boxes import DEFAULT_BOXES  # noqa: E402
from vision.recognize import read_table, warm_up  # noqa: E402
from vision.synth import (  # noqa: E402
    WEBCAM_SIZES,
    Face,
    SceneCard,
    camera_pose,
    dealt,
    held_hand,
    random_card,
    scene,
    slant_matrix,
    tilted,
    warped,
)
from vision.train import typefaces  # noqa: E402

SOURCES = ("trained", "held-out", "light-on-dark", "four-corner", "jumbo", "dim", "camera slant", "hand")
#: How far ``camera slant``'s camera is tilted, as a share of a right angle (half of it to all).
CAMERA_SLANT = 0.55


@lru_cache(maxsize=1)
def trained_typefaces() -> tuple[Path, ...] | None:
    """The typefaces every shipped card network was drawn with (the pinned list ``cards-v1``),
    or None, the installed training families, on a machine that lacks some of them."""
    try:
        return typefaces.load("cards-v1")
    except typefaces.MissingTypefaces:
        return None


def _four_corner_face(card: str, rng: np.random.Generator) -> Face:
    """A card in a fresh held-out design printed with an index in all four corners."""
    return styled_face(card, replace(random_style(rng, True), corners=4), rng)


def _held_fan(rng: np.random.Generator):  # type: ignore[no-untyped-def]
    """A webcam's frame of a hand of cards of one or two held-out decks held in a fan."""
    size = WEBCAM_SIZES[int(rng.integers(len(WEBCAM_SIZES)))]
    decks = int(rng.integers(1, 3))
    draw = deck_drawer(rng, decks=decks, held_out=True)
    hand = dealt(rng, int(rng.integers(10, 27)), decks)
    image, cards = held_hand(rng, size, hand, draw)
    return tilted(image, cards, rng, 0.06)


def table(rng: np.random.Generator, source: str, size: tuple[int, int]):  # type: ignore[no-untyped-def]
    """One rendered table of ``source`` (a webcam's frame of a hand for ``hand``): the image,
    its cards and their melds."""
    image, cards, _ = seen_table(rng, source, size)
    return image, cards


def seen_table(rng: np.random.Generator, source: str, size: tuple[int, int]):  # type: ignore[no-untyped-def]
    """``table``'s image and cards, and the homography from the table as drawn (seen from
    straight above) to the image; None for a hand, which lies on no table."""
    if source == "hand":
        image, cards = _held_fan(rng)
        return _photographed(image, rng, dim=True), cards, None
    kind = {"light-on-dark": "light-on-dark", "jumbo": "jumbo"}.get(source)
    draw = deck_drawer(rng, decks=int(rng.integers(2, 4)), held_out=source != "trained", kind=kind,
                       fonts=trained_typefaces() if source == "trained" else None)
    if source == "four-corner":
        draw = _four_corner_face
    groups = [[random_card(rng, jokers=0.03) for _ in range(int(rng.integers(3, 8)))]
              for _ in range(int(rng.integers(3, 7)))]
    scale = float(rng.uniform(0.34, 0.55)) * size[0] / 1280
    image, cards = scene(rng, size, groups, draw=draw, scale=scale)
    if source == "camera slant":
        m = camera_pose(*size, rng, CAMERA_SLANT)
        image, cards = warped(image, cards, m, cut=True)
    else:
        m = slant_matrix(size[0], size[1], rng, 0.06)
        image, cards = warped(image, cards, m)
    return _photographed(image, rng, dim=source == "dim"), cards, m


def _photographed(image: np.ndarray, rng: np.random.Generator, dim: bool) -> np.ndarray:
    """A render as a camera gives it: blurred, in dim, warm light when ``dim``, with sensor
    noise and JPEG."""
    f = cv2.GaussianBlur(image, (3, 3), 0.7).astype(np.float32)
    if dim:
        f = 255.0 * (f / 255.0) ** rng.uniform(1.3, 1.8) * rng.uniform(0.35, 0.6)
        f = f * np.array([0.8, 0.95, 1.15])[None, None, :]
    f += rng.normal(0, 3 if not dim else 6, f.shape)
    image = np.clip(f, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 92))])
    return np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), np.uint8)


#: The networks a candidate folder may replace, by ``read_table``'s argument.
NETWORKS = {"weights": DEFAULT_WEIGHTS, "index_weights": DEFAULT_CLASSIFIER,
            "card_weights": DEFAULT_CARD_CLASSIFIER, "turn_weights": DEFAULT_TURN,
            "box_weights": DEFAULT_BOXES}


def networks(folder: Path | None) -> dict[str, Path]:
    """``read_table``'s weights: the shipped ones, each replaced by the file of the same name
    in ``folder`` where there is one."""
    return {arg: folder / path.name if folder is not None and (folder / path.name).is_file() else path
            for arg, path in NETWORKS.items()}


def chosen_networks(folder: Path | None) -> dict[str, Path] | None:
    """:func:`networks` for a ``--weights`` option, or None (with the reason printed) when
    ``folder`` is given and is no folder."""
    if folder is not None and not folder.is_dir():
        print(f"error: --weights {folder}: no such folder", file=sys.stderr)
        return None
    return networks(folder)


#: A playing card's long side, in millimetres (poker and bridge cards alike).
CARD_MM = 88.9


def scale_of(cards: list[SceneCard], rng: np.random.Generator) -> float:
    """The scale (pixels a millimetre) a mat calibration would give for a table of ``cards``:
    their median long side over ``CARD_MM``, off by a factor of up to 1.2 either way."""
    return float(np.median([long_side(c.quad) for c in cards])) / CARD_MM * float(np.exp(rng.uniform(-0.18, 0.18)))


def mat_of(cards: list[SceneCard], matrix: np.ndarray, size: tuple[int, int],
           rng: np.random.Generator) -> Calibration:
    """The calibration a mat the size of the drawn table would give (``mats.drawn_mat``), the
    table's millimetres from its cards' median long side as drawn (``CARD_MM``)."""
    return drawn_mat(matrix, size, CARD_MM / float(np.median(drawn_sides([c.quad for c in cards], matrix))), rng)


#: How ``score_source`` may read a table as a calibrated mat's (``--calibrated``, ``--top-down``).
CALIBRATED = ("", "scale", "top-down")


def score_source(source: str, tables: int, size: tuple[int, int], seed: int,
                 weights: dict[str, Path] | None = None,
                 calibrated: str = "") -> tuple[TableScore, list[float]]:
    """``tables`` tables of ``source`` drawn from ``seed``, read with ``weights`` (the shipped
    networks by default): their summed score and each table's ms. ``calibrated`` ``scale``
    reads each given the scale a calibration would give (``scale_of``); ``top-down`` reads
    it as the kit reads a calibrated mat's frame (``vision.calibration.read_calibrated``,
    the calibration ``mat_of``; a hand, on no table, is read as it lies)."""
    if calibrated not in CALIBRATED:
        raise ValueError(f"calibrated must be one of {CALIBRATED}, not {calibrated!r}")
    weights = weights or networks(None)
    rng = np.random.default_rng(seed)
    # the calibrations' errors from a generator of their own: the tables are the same either way
    errors = np.random.default_rng([seed, 1])
    total = TableScore()
    times = []
    for _ in range(tables):
        image, cards, matrix = seen_table(rng, source, size)
        px_per_mm = scale_of(cards, errors) if calibrated == "scale" else None
        mat = mat_of(cards, matrix, size, errors) if calibrated == "top-down" and matrix is not None else None
        reader = partial(read_table, pieces="cards", px_per_mm=px_per_mm, weights=weights["weights"],
                         index_weights=weights["index_weights"], card_weights=weights["card_weights"],
                         turn_weights=weights["turn_weights"], box_weights=weights["box_weights"])
        start = time.perf_counter()
        reading = read_calibrated(mat, image, reader)
        times.append((time.perf_counter() - start) * 1000)
        total.add(score_table(cards, reading))
    return total, times


def run(source: str, tables: int, size: tuple[int, int], seed: int,
        weights: dict[str, Path] | None = None, calibrated: str = "") -> dict[str, float]:
    total, times = score_source(source, tables, size, seed, weights, calibrated)
    p, r, f1 = prf(total.right, total.wrong, total.missed)
    strict_f1 = prf(total.right, total.strict_wrong, total.missed)[2]
    name = {"": source, "scale": f"{source} mat", "top-down": f"{source} above"}[calibrated]
    print(f"tables {name:14s} n={tables} cards={total.right + total.missed} precision={p:.4f} "
          f"recall={r:.4f} f1={f1:.4f} (strict {strict_f1:.4f}) exact={total.exact / tables:.3f} "
          f"melds={total.melds_hit}/{total.melds} (strict {total.melds_strict}) "
          f"jokers={total.jokers_read}/{total.jokers} "
          f"median_ms={statistics.median(times):.0f} p95_ms={p95(times):.0f}", flush=True)
    if total.why:
        print("  melds missed, by first cause: "
              + ", ".join(f"{n} {why}" for why, n in total.why.most_common()), flush=True)
    return {"f1": f1, "melds": total.melds_hit / max(total.melds, 1)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=12)
    ap.add_argument("--size", default="1280x960", help="table image size, WIDTHxHEIGHT")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--sources", default=",".join(SOURCES))
    ap.add_argument("--weights", type=Path, default=None,
                    help="a folder of candidate networks replacing the shipped ones of the same name")
    ap.add_argument("--calibrated", action="store_true",
                    help="also read each table given the scale a mat calibration would give")
    ap.add_argument("--top-down", action="store_true",
                    help="also read each table from above, as the kit reads a calibrated mat's frame")
    args = ap.parse_args()
    chosen = chosen_networks(args.weights)
    if chosen is None:
        return 2
    w, h = (int(v) for v in args.size.lower().split("x"))
    warm_up(chosen["weights"], chosen["index_weights"], chosen["card_weights"])
    print("rendered tables (not photographs); held-out typefaces never seen in training; trained "
          + ("typefaces: the pinned list cards-v1" if trained_typefaces() else
             "typefaces: the installed training families (cards-v1 not all installed)"), flush=True)
    if args.weights is not None:
        print("networks: " + ", ".join(str(p) for p in chosen.values()), flush=True)
    for source in args.sources.split(","):
        if source not in SOURCES:
            print(f"error: unknown source {source!r} (one of {', '.join(SOURCES)})", file=sys.stderr)
            return 2
        run(source, args.tables, (w, h), args.seed, chosen)
        if args.calibrated:
            run(source, args.tables, (w, h), args.seed, chosen, calibrated="scale")
        if args.top_down and source != "hand":  # a hand lies on no table
            run(source, args.tables, (w, h), args.seed, chosen, calibrated="top-down")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark of the detector alone: how many printed indices it finds, source by source, and
how well its boxes fit them before and after the box network sizes them again.

An index counts as found when the detector puts an index peak scoring at least the assembly's
``index_score`` inside its box (grown by a quarter each side), at the input size
``read_table`` would choose for the photo (a first look at the default size, then
``vision.scale.choose_size``). Weaker peaks (down to ``--floor``) are counted apart: those
indices are seen but too faintly to stand. Sources: the held-out capture sessions of
``cards-corners`` (phone, webcam), each also turned over to light ink on dark cards
(``lightness_negative``, hues kept), and the indices showing nearly whole on rendered tables
of ``bench_tables.py``'s sources.

Usage: ``.venv/bin/python bench/bench_index_boxes.py [--weights vision/weights/cardnet.onnx]
[--tables 4] [--seed 5] [--floor 0.1] [--data ../shared/data]``

For each index found, the box of its strongest peak is compared with the labelled box: the
error of its size (``|log w'/w| + |log h'/h|``, median and 90th percentile) and of its centre
(as a share of the index's longer side), as the detector gives it and after
``vision.index_boxes.fit_boxes`` (``--boxes``, the shipped ``indexbox.onnx`` by default),
which places and sizes it again.

This separates the detector from the classifiers (``bench_index_crops.py``) and from
assembly: an index not found here is lost whatever reads it, so a candidate detector can be
compared with the shipped one before any classifier is trained on its boxes.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_ablation import held_out_names  # noqa: E402
from bench_tables import SOURCES, table  # noqa: E402
from scoring import label_box  # noqa: E402

from vision.assemble import DEFAULT_PARAMS  # noqa: E402
from vision.detector import DEFAULT_WEIGHTS, INPUT_SIZE, Detection, detect  # noqa: E402
from vision.index_boxes import DEFAULT_BOXES, fit_boxes  # noqa: E402
from vision.lightness import lightness_negative  # noqa: E402
from vision.reading import Box, inside  # noqa: E402
from vision.rescan import Look  # noqa: E402
from vision.scale import choose_size  # noqa: E402

#: A peak this far outside an index box (a share of its width and height) still lands on it.
MARGIN = 0.25


#: Errors of one index's box: its size's and its centre's (see the module's note).
Errors = tuple[float, float]


def box_errors(box: Box, truth: Box) -> Errors:
    """How far ``box`` is from the labelled ``truth``: in size (summed log ratios of width and
    height) and in place (centre distance over the truth's longer side)."""
    size = (abs(np.log((box[2] - box[0]) / (truth[2] - truth[0])))
            + abs(np.log((box[3] - box[1]) / (truth[3] - truth[1]))))
    place = np.hypot((box[0] + box[2] - truth[0] - truth[2]) / 2, (box[1] + box[3] - truth[1] - truth[3]) / 2)
    return float(size), float(place / max(truth[2] - truth[0], truth[3] - truth[1]))


def found(image: np.ndarray, boxes: list[Box], weights: Path, floor: float,
          box_weights: Path | None = None) -> tuple[int, int, list[Errors], list[Errors]]:
    """Of ``boxes``, how many hold an index peak of at least ``index_score``, and how many
    more hold only a weaker one (at least ``floor``), at the size ``read_table`` reads at; and
    for those found, the errors of the strongest peak's box as the detector gives it and as
    ``box_weights`` fits it (none when None)."""
    threshold = Look().threshold
    first = detect(image, min(floor, threshold), weights, INPUT_SIZE)  # read_table's first look
    size = choose_size(max(image.shape[:2]), [d for d in first if d.score >= threshold])
    seen = first if size == INPUT_SIZE else detect(image, floor, weights, size)
    peaks = [d for d in seen if d.kind == "index" and d.score >= floor]
    firm = weak = 0
    strongest: list[tuple[Box, Detection]] = []
    for box in boxes:
        best = max((d for d in peaks if inside(d.x, d.y, box, MARGIN)), key=lambda d: d.score, default=None)
        score = best.score if best is not None else 0.0
        firm += score >= DEFAULT_PARAMS.index_score
        weak += floor <= score < DEFAULT_PARAMS.index_score
        if best is not None and score >= DEFAULT_PARAMS.index_score:
            strongest.append((box, best))
    given = [box_errors(d.box, box) for box, d in strongest]
    fitted = fit_boxes(image, [d for _, d in strongest], box_weights) if box_weights is not None else []
    return firm, weak, given, [box_errors(f.box, box) for (box, _), f in zip(strongest, fitted, strict=True)]


def _spread(errors: list[Errors]) -> str:
    """Median and 90th percentile of the size errors, median of the centre errors."""
    if not errors:
        return "-"
    size, place = np.array(errors).T
    return f"{np.median(size):.3f}/{np.percentile(size, 90):.3f} centre {np.median(place):.3f}"


def photo_items(data: Path, phone: bool) -> list[tuple[np.ndarray, list[Box]]]:
    """The held-out photos of one capture session of ``cards-corners`` with their index boxes."""
    root = data / "cards-corners"
    labels = json.loads((root / "labels.json").read_text())
    out = []
    for name in held_out_names(labels, "IMG_" if phone else "!IMG_"):
        image = cv2.imread(str(root / "images" / name))
        if image is None:
            continue
        h, w = image.shape[:2]
        boxes = [label_box(b, w, h) for b in labels[name] if str(b["label"]).upper() != "BACK"]
        if boxes:
            out.append((image, boxes))
    return out


def report(name: str, items: Iterable[tuple[np.ndarray, list[Box]]], weights: Path, floor: float,
           box_weights: Path | None = None) -> float:
    """Print one source's line; the share of its indices found."""
    total = firm = weak = 0
    given: list[Errors] = []
    fitted: list[Errors] = []
    for image, boxes in items:
        f, w, g, b = found(image, boxes, weights, floor, box_weights)
        total, firm, weak = total + len(boxes), firm + f, weak + w
        given, fitted = given + g, fitted + b
    share = firm / max(total, 1)
    print(f"index boxes {name:20s} indices={total:5d} found={share:.4f} "
          f"weak_only={weak / max(total, 1):.4f} missed={(total - firm - weak) / max(total, 1):.4f} "
          f"size error {_spread(given)}" + (f" fitted {_spread(fitted)}" if box_weights is not None else ""),
          flush=True)
    return share


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weights", type=Path, default=DEFAULT_WEIGHTS, help="the detector's weights")
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--tables", type=int, default=4, help="rendered tables per source (0: none)")
    ap.add_argument("--seed", type=int, default=5, help="the rendered tables' seed")
    ap.add_argument("--floor", type=float, default=0.1, help="the weakest peak counted as seen")
    ap.add_argument("--boxes", type=Path, default=DEFAULT_BOXES,
                    help="the box network fitting the found indices' boxes (absent: not measured)")
    args = ap.parse_args()
    if not args.weights.is_file():
        print(f"error: --weights {args.weights}: no such file", file=sys.stderr)
        return 2
    fitter: Path | None = args.boxes if args.boxes.is_file() else None
    print(f"detector {args.weights} index_score={DEFAULT_PARAMS.index_score} floor={args.floor}")
    if (args.data / "cards-corners" / "labels.json").is_file():
        for session, phone in (("phone", True), ("webcam", False)):
            items = photo_items(args.data, phone)
            report(f"{session}-held", items, args.weights, args.floor, fitter)
            report(f"{session}-negative", ((lightness_negative(i), b) for i, b in items),
                   args.weights, args.floor, fitter)
    else:
        print(f"cards-corners: not found under {args.data}; the photo sources are left out")
    for source in SOURCES if args.tables else ():
        rng = np.random.default_rng(args.seed)
        tables = [table(rng, source, (1280, 960)) for _ in range(args.tables)]
        report(f"tables-{source}", ((image, [b for c in cards for b in c.visible_indices])
                                    for image, cards in tables), args.weights, args.floor, fitter)
    return 0


if __name__ == "__main__":
    sys.exit(main())

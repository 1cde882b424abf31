"""How well ``indexturn.onnx`` tells which way an index stands in its crop, on sources it
never saw: it is trained on drawn scenes of the training designs only.

Usage: ``.venv/bin/python bench/bench_index_turn.py [--data ../shared/data] [--tables 8]
[--sure 0.9] [--weights vision/weights/indexturn.onnx]``

- Shared photos (``cards-corners``, every photo; none is used in training): where a photo
  labels each card's two opposite corners, the two must read opposite ways. Printed: pairs
  read opposite, read the same way, and how many a sure read (``--sure`` or more either way,
  both corners) would keep apart wrongly, each in boxes of the labels and in the same boxes
  a fifth larger (the detector's boxes are often that far off).
- Rendered 1280×960 tables (``bench_tables.py`` sources, seed 5): every visible index whose
  way is clear in its crop, read in its own box; accuracy and the share read surely wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_tables import SOURCES, table  # noqa: E402

from vision.classifier import DEFAULT_TURN, read_turns  # noqa: E402
from vision.reading import Box  # noqa: E402
from vision.train.turns import UPRIGHT, index_ups, turn_label  # noqa: E402


def _grow(box: Box, f: float) -> Box:
    cx, cy, hw, hh = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, (box[2] - box[0]) * f / 2, (box[3] - box[1]) * f / 2
    return (cx - hw, cy - hh, cx + hw, cy + hh)


def photo_pairs(root: Path) -> list[tuple[str, Box, Box]]:
    """Each card's two labelled opposite corners, in photos that label every card so (each
    name twice, at least 2.5 index sizes apart) and with both boxes the same way round."""
    labels = json.loads((root / "labels.json").read_text())
    out = []
    for name, boxes in sorted(labels.items()):
        img_size = cv2.imread(str(root / "images" / name), cv2.IMREAD_REDUCED_GRAYSCALE_8)
        if img_size is None:
            continue
        h, w = img_size.shape[0] * 8, img_size.shape[1] * 8
        by: dict[str, list[Box]] = {}
        for b in boxes:
            if b["label"].upper() != "BACK":
                x0, y0 = (b["cx"] - b["w"] / 2) * w, (b["cy"] - b["h"] / 2) * h
                by.setdefault(b["label"], []).append((x0, y0, x0 + b["w"] * w, y0 + b["h"] * h))
        for pair in by.values():
            if len(pair) != 2:
                continue
            a, c = pair
            size = (max(a[2] - a[0], a[3] - a[1]) + max(c[2] - c[0], c[3] - c[1])) / 2
            apart = np.hypot((a[0] + a[2] - c[0] - c[2]) / 2, (a[1] + a[3] - c[1] - c[3]) / 2)
            same_way = ((a[2] - a[0]) > (a[3] - a[1])) == ((c[2] - c[0]) > (c[3] - c[1]))
            if apart >= 2.5 * size and same_way:
                out.append((name, a, c))
    return out


def bench_photos(root: Path, weights: Path, sure: float) -> None:
    pairs = photo_pairs(root)
    for grow in (1.0, 1.2):
        opposite = same = blocked = 0
        for name in dict.fromkeys(n for n, _, _ in pairs):
            image = cv2.imread(str(root / "images" / name))
            mine = [(a, c) for n, a, c in pairs if n == name]
            p = read_turns(image, [_grow(b, grow) for ab in mine for b in ab], weights).reshape(-1, 2)
            for pa, pc in p:
                if (pa >= 0.5) != (pc >= 0.5):
                    opposite += 1
                else:
                    same += 1
                    if min(max(pa, 1 - pa), max(pc, 1 - pc)) >= sure:
                        blocked += 1
        print(f"photos {root.name}, boxes x{grow}: {len(pairs)} cards' corner pairs: "
              f"{opposite} read opposite, {same} the same way, {blocked} surely the same way "
              f"(a true pair kept apart)", flush=True)


def bench_tables(tables: int, weights: Path, sure: float) -> None:
    for source in SOURCES:
        rng = np.random.default_rng(5)
        right = total = surely_wrong = 0
        for _ in range(tables):
            image, cards = table(rng, source, (1280, 960))
            labelled = [(b, turn_label(b, up)) for b, up in index_ups(cards)]
            labelled = [(b, k) for b, k in labelled if k is not None]
            if not labelled:
                continue
            p = read_turns(image, [b for b, _ in labelled], weights)
            for (_, k), pu in zip(labelled, p, strict=True):
                said = UPRIGHT if pu >= 0.5 else 1 - UPRIGHT
                total += 1
                right += said == k
                surely_wrong += said != k and max(pu, 1 - pu) >= sure
        print(f"tables {source}: {total} indices, accuracy {right / max(total, 1):.4f}, "
              f"surely wrong {surely_wrong}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--sure", type=float, default=0.9)
    ap.add_argument("--weights", type=Path, default=DEFAULT_TURN)
    args = ap.parse_args()
    if not args.weights.is_file():
        print(f"error: no turn weights at {args.weights}", file=sys.stderr)
        return 1
    root = args.data / "cards-corners"
    if (root / "labels.json").is_file():
        bench_photos(root, args.weights, args.sure)
    else:
        print(f"no labelled photos at {root}; photos skipped", flush=True)
    bench_tables(args.tables, args.weights, args.sure)
    return 0


if __name__ == "__main__":
    sys.exit(main())

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
from typing import Any

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_tables import SOURCES, table  # noqa: E402
from scoring import label_box  # noqa: E402

from vision.assemble import Turn, ways_of  # noqa: E402
from vision.classifier import DEFAULT_TURN, read_turns, turn_probs, upright_of, ups_of, zoom_box  # noqa: E402
from vision.reading import Box  # noqa: E402
from vision.train.turns import UPRIGHT, index_ups, turn_label  # noqa: E402


def corner_pairs(boxes: list[dict[str, Any]], width: int, height: int) -> list[tuple[Box, Box]]:
    """One photo's cards whose two opposite corners its labels (``labels.json`` entries,
    centres and sizes as shares of the ``width``×``height`` image) both give: each name
    labelled twice, at least 2.5 index sizes apart, both boxes the same way round."""
    by: dict[str, list[Box]] = {}
    for b in boxes:
        if b["label"].upper() != "BACK":
            by.setdefault(b["label"], []).append(label_box(b, width, height))
    out = []
    for pair in by.values():
        if len(pair) != 2:
            continue
        a, c = pair
        size = (max(a[2] - a[0], a[3] - a[1]) + max(c[2] - c[0], c[3] - c[1])) / 2
        apart = np.hypot((a[0] + a[2] - c[0] - c[2]) / 2, (a[1] + a[3] - c[1] - c[3]) / 2)
        same_way = ((a[2] - a[0]) > (a[3] - a[1])) == ((c[2] - c[0]) > (c[3] - c[1]))
        if apart >= 2.5 * size and same_way:
            out.append((a, c))
    return out


def bench_photos(root: Path, weights: Path, sure: float) -> None:
    labels = json.loads((root / "labels.json").read_text())
    counts = {grow: [0, 0, 0] for grow in (1.0, 1.2)}  # opposite, same, surely the same
    pairs = 0
    for name, boxes in sorted(labels.items()):
        image = cv2.imread(str(root / "images" / name))
        if image is None:
            continue
        mine = corner_pairs(boxes, image.shape[1], image.shape[0])
        pairs += len(mine)
        for grow, tally in counts.items():
            if not mine:
                continue
            boxes = [zoom_box(b, grow) for ab in mine for b in ab]
            probs = turn_probs(image, boxes, weights)  # read once: p(upright) and the ways from it
            p = upright_of(probs).reshape(-1, 2)
            for pa, pc in p:
                if (pa >= 0.5) != (pc >= 0.5):
                    tally[0] += 1
                else:
                    tally[1] += 1
            # what pairing is told (vision.assemble.ways_of): the same way, or for a network
            # of more directions a quarter turn apart, surely: a true pair kept apart
            turns: list[Turn] = ([(float(x), float(y)) for x, y in ups_of(probs, boxes)]
                                 if probs.shape[1] > 2 else [float(v) for v in p.reshape(-1)])
            tally[2] += sum(ways_of(boxes[i], turns[i], boxes[i + 1], turns[i + 1], sure) in ("same", "across")
                            for i in range(0, len(boxes), 2))
    for grow, (opposite, same, blocked) in counts.items():
        print(f"photos {root.name}, boxes x{grow}: {pairs} cards' corner pairs: "
              f"{opposite} read opposite, {same} the same way, {blocked} surely the same way "
              f"or a quarter turn apart (a true pair kept apart)", flush=True)


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

"""Benchmark of the corner-index classifier alone: accuracy on the labelled index boxes of
``cards-corners`` (train and held-out capture groups), read both ways round as at run time,
and with ``--tables N`` on the printed indices of rendered tables (``bench_tables.py``'s
sources, N tables each; a box is every index that shows nearly whole).

Usage: ``.venv/bin/python bench/bench_index_crops.py [--weights vision/weights/indexnet.onnx]
[--data ../shared/data] [--wrong] [--tables 0] [--seed 5]``

This separates the classifier from the detector: a held-out index read wrongly here is a
classifier fault however well the detector boxes it. ``--wrong`` lists those reads (and the
commonest confusions on the tables).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_tables import SOURCES, table  # noqa: E402
from scoring import label_box  # noqa: E402

from vision.assemble import DEFAULT_PARAMS  # noqa: E402
from vision.classifier import DEFAULT_CLASSIFIER, N_OUT, crop_index, crop_size, read_crops  # noqa: E402
from vision.labels import INDEX_CLASSES, index_class  # noqa: E402
from vision.train.split import is_held_out  # noqa: E402

#: Below this confidence the kit reports ``??``.
SURE = DEFAULT_PARAMS.min_confidence


def tables(weights: Path, n: int, seed: int, wrong: bool) -> None:
    """Accuracy on the whole printed indices of ``n`` rendered tables of each source."""
    size = crop_size(weights)
    names = INDEX_CLASSES + ("not an index",)
    for source in SOURCES:
        rng = np.random.default_rng(seed)
        crops, want = [], []
        for _ in range(n):
            image, cards = table(rng, source, (1280, 960))
            for c in cards:
                for box in c.visible_indices:
                    crops.append(crop_index(image, box, size))
                    want.append(index_class(c.card))
        probs = read_crops(crops, weights, N_OUT, both_ways=True)
        got = probs.argmax(axis=1)
        right = got == np.array(want)
        sure = right & (probs.max(axis=1) >= SURE)
        print(f"index crops tables {source:13s} crops={len(want):4d} accuracy={right.mean():.4f} "
              f"sure_and_right={sure.mean():.4f}")
        if wrong:
            confused = Counter(f"{INDEX_CLASSES[w]}->{names[g]}" for w, g in zip(want, got, strict=True) if w != g)
            print("  " + ", ".join(f"{k} {v}" for k, v in confused.most_common(8)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weights", type=Path, default=DEFAULT_CLASSIFIER)
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--wrong", action="store_true", help="list the held-out indices read wrongly")
    ap.add_argument("--tables", type=int, default=0, help="rendered tables per source (0: none)")
    ap.add_argument("--seed", type=int, default=5, help="the rendered tables' seed")
    args = ap.parse_args()
    if args.tables:
        tables(args.weights, args.tables, args.seed, args.wrong)
    root = args.data / "cards-corners"
    if not root.is_dir():
        print(f"cards-corners: not found under {args.data}")
        return 1
    labels = json.loads((root / "labels.json").read_text())
    size = crop_size(args.weights)
    names = INDEX_CLASSES + ("not an index",)
    counts = {False: [0, 0, 0], True: [0, 0, 0]}  # crops, right, right and sure
    spent = 0.0
    for name, boxes in sorted(labels.items()):
        image = cv2.imread(str(root / "images" / name))
        if image is None:
            continue
        h, w = image.shape[:2]
        wanted = [b for b in boxes if b["label"].upper() != "BACK"]
        if not wanted:
            continue
        crops = [crop_index(image, label_box(b, w, h), size) for b in wanted]
        start = time.perf_counter()
        probs = read_crops(crops, args.weights, N_OUT, both_ways=True)
        spent += time.perf_counter() - start
        held = is_held_out(name)
        for b, p in zip(wanted, probs, strict=True):
            k, got = index_class(b["label"]), int(p.argmax())
            c = counts[held]
            c[0] += 1
            c[1] += got == k
            c[2] += got == k and p[got] >= SURE
            if args.wrong and held and got != k:
                print(f"  {name}: {INDEX_CLASSES[k]} read as {names[got]} ({p[got]:.2f})")
    total = sum(c[0] for c in counts.values())
    for part, held in (("train", False), ("held-out", True)):
        n, right, sure = counts[held]
        print(f"index crops {part:8s} crops={n:4d} accuracy={right / max(n, 1):.4f} "
              f"sure_and_right={sure / max(n, 1):.4f}")
    print(f"weights={args.weights.name} crop={size[0]}x{size[1]} "
          f"ms_per_crop={spent / max(total, 1) * 1000:.3f} (both ways round)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark of the crop classifiers' 8-bit copies against their float networks
(``vision.train.quantize``): time per crop, and how often the two name the same class, on
crops the calibration never saw.

Usage: ``.venv/bin/python bench/bench_int8.py [--data ../shared/data] [--tables 6]``

- ``index photos``: every labelled index of the held-out capture groups of ``cards-corners``,
  in its box and in boxes a fifth smaller and a quarter larger (unsure reads are zoomed so);
- ``card photos``: every labelled card of the held-out capture groups of ``cards-ranks``;
- ``tables``: every crop the kit reads on rendered tables of held-out typefaces
  (``bench_tables.table``, seed 7), as recorded while the float networks read them.

Accuracy counts the labelled class (photos only). The recognizer's own figures with each
precision come from ``TABLEKIT_PRECISION=float|int8`` before ``bench_see.py`` or
``bench_tables.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from vision.classifier import (  # noqa: E402
    DEFAULT_CARD_CLASSIFIER,
    DEFAULT_CLASSIFIER,
    crop_batch,
    crop_card,
    crop_index,
    zoom_box,
)
from vision.inference import int8_copy, load_network, recording  # noqa: E402
from vision.train.dataset import Photo, load_photos  # noqa: E402


def _box(cx: float, cy: float, w: float, h: float) -> tuple[float, float, float, float]:
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def labelled_crops(photos: list[Photo]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Batches of the labelled crops of ``photos`` with their classes: every index, in its box
    and in boxes a fifth smaller and a quarter larger (unsure reads are zoomed so), and every
    card."""
    index, index_cls, card, card_cls = [], [], [], []
    for photo in photos:
        for cx, cy, w, h, cls in photo.indices:
            for zoom in (1.0, 0.8, 1.25):
                index.append(crop_index(photo.image, zoom_box(_box(cx, cy, w, h), zoom)))
                index_cls.append(cls)
        for cx, cy, w, h, cls in photo.cards:
            card.append(crop_card(photo.image, _box(cx, cy, w, h)))
            card_cls.append(cls)
    out = {"index": (crop_batch(index), np.array(index_cls))} if index else {}
    if card:
        out["card"] = (crop_batch(card), np.array(card_cls))
    return out


def table_batches(tables: int) -> dict[str, np.ndarray]:
    """Every crop the float classifiers read on ``tables`` rendered tables of held-out typefaces."""
    from bench_tables import table

    from vision.recognize import read_table

    rng = np.random.default_rng(7)
    with recording(DEFAULT_CLASSIFIER, DEFAULT_CARD_CLASSIFIER) as seen:
        for _ in range(tables):
            read_table(table(rng, "held-out", (1280, 960))[0], pieces="cards")
    return {"index": np.concatenate(seen[str(DEFAULT_CLASSIFIER)]),
            "card": np.concatenate(seen[str(DEFAULT_CARD_CLASSIFIER)])}


def ms_per_crop(weights: Path, precision: str, batch: np.ndarray, repeats: int = 20) -> float:
    net = load_network(weights, "onnxruntime", precision)
    net(batch)
    start = time.perf_counter()
    for _ in range(repeats):
        net(batch)
    return (time.perf_counter() - start) / repeats / len(batch) * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--tables", type=int, default=6)
    args = ap.parse_args()
    nets = {"index": DEFAULT_CLASSIFIER, "card": DEFAULT_CARD_CLASSIFIER}
    stale = [str(int8_copy(p)) for p in nets.values()
             if load_network(p, "onnxruntime", "int8").ran != int8_copy(p)]
    if stale:
        print(f"error: no current 8-bit copy: {', '.join(stale)} (python -m vision.train.quantize)",
              file=sys.stderr)
        return 2
    os.environ["TABLEKIT_PRECISION"] = "float"  # the tables are read, and recorded, in float
    sets: dict[str, tuple[np.ndarray, np.ndarray | None]] = {}
    if all((args.data / f).is_dir() for f in ("cards-corners", "cards-ranks")):
        held_out = load_photos(args.data, held_out=True)
        sets.update({f"{k} photos": v for k, v in labelled_crops(held_out).items()})
    else:
        print(f"the shared photos are not under {args.data}: rendered tables only", flush=True)
    sets.update({f"{k} tables": (v, None) for k, v in table_batches(args.tables).items()})
    for name, (blob, truth) in sets.items():
        weights = nets[name.split()[0]]
        exact = load_network(weights, "onnxruntime", "float")(blob).argmax(axis=1)
        fast = load_network(weights, "onnxruntime", "int8")(blob).argmax(axis=1)
        line = f"{name:13s} crops={len(blob):5d} same_class={np.mean(exact == fast):.4f}"
        if truth is not None:
            line += f" accuracy float={np.mean(exact == truth):.4f} int8={np.mean(fast == truth):.4f}"
        print(line, flush=True)
    for kind, weights in nets.items():
        batch = sets[f"{kind} tables"][0][:40]
        print(f"{weights.name:13s} ms per crop (batches of {len(batch)}): "
              f"float={ms_per_crop(weights, 'float', batch):.3f} int8={ms_per_crop(weights, 'int8', batch):.3f}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

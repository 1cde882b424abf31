"""Benchmark of the recognizer on drawn tables of fanned and overlapping melds, whose truth is
exact: F1 on the cards with an index in view, the share of tables read exactly, the share of
melds grouped exactly, and median and p95 ms.

Usage: ``.venv/bin/python bench/bench_fans.py [--tables 30] [--size 1280x960] [--artwork]
[--seed 7]``

No public photos of rummy melds exist, so this stands in for them: ``vision.synth.scene`` lays
out 1-3 melds of 1-5 cards as fans or rows on a drawn table, slightly blurred as by a lens.
The cards are the project's own drawn faces, and with ``--artwork`` (needs the ``train``
extra and npm) also the openly licensed designs the training scenes use. Scored like
``../shared/tools/see-eval``: per table the set of card names read (``??`` lowers recall only),
and a meld counts when a group read holds exactly its cards. The drawn layout sometimes lays
two melds so that their cards touch, and cards that touch are one group by the contract, so
melds lying apart from every other meld are also counted on their own (``apart``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

sys.path.insert(0, str(REPO / "bench"))

from scoring import p95, prf  # noqa: E402

from vision.recognize import read_table, warm_up  # noqa: E402
from vision.synth import Face, draw_face, scene, touching_melds  # noqa: E402


def run(name: str, draw: Callable[[str, np.random.Generator], Face], tables: int,
        size: tuple[int, int], seed: int) -> None:
    rng = np.random.default_rng(seed)
    tp = fp = fn = exact = melds = melds_hit = apart = apart_hit = 0
    times = []
    for _ in range(tables):
        image, cards = scene(rng, size, draw=draw)
        image = cv2.GaussianBlur(image, (3, 3), 0.8)
        start = time.perf_counter()
        reading = read_table(image)
        times.append((time.perf_counter() - start) * 1000)
        want = {c.card for c in cards if c.visible_indices}
        got = {c.card for c in reading.cards if c.readable}
        tp += len(want & got)
        fp += len(got - want)
        fn += len(want - got)
        exact += want == got
        truth: dict[int, list[str]] = {}
        for c in cards:
            truth.setdefault(c.group, []).append(c.card)
        read = [sorted(reading.cards[i].card for i in g) for g in reading.groups]
        touching = {g for pair in touching_melds(cards) for g in pair}
        for group, meld in truth.items():
            melds += 1
            hit = sorted(meld) in read
            if hit:
                read.remove(sorted(meld))
            melds_hit += hit
            if group not in touching:
                apart += 1
                apart_hit += hit
    p, r, f1 = prf(tp, fp, fn)
    print(f"fans {name:8s} tables={tables} precision={p:.4f} recall={r:.4f} f1={f1:.4f} "
          f"exact={exact / tables:.4f} melds={melds_hit}/{melds} apart={apart_hit}/{apart} "
          f"median_ms={statistics.median(times):.1f} p95_ms={p95(times):.1f}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=30)
    ap.add_argument("--size", default="1280x960", help="table image size, WIDTHxHEIGHT")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--artwork", action="store_true",
                    help="also score tables of artwork faces (train extra and npm needed)")
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.lower().split("x"))
    warm_up()
    run("drawn", draw_face, args.tables, (w, h), args.seed)
    if args.artwork:
        from vision.train.artwork import face_maker, load_faces

        run("artwork", face_maker(load_faces(), drawn_share=0.0), args.tables, (w, h), args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())

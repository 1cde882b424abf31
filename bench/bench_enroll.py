"""Benchmark of deck enrolment (``tablekit enroll``) on a deck design held out of training.

Usage: ``.venv/bin/python bench/bench_enroll.py [--designs 3] [--tables 6] [--seed 3]
[--kinds standard,light-on-dark,metallic] [--minutes 0]``

For random designs of held-out typefaces (``vision.deck_styles``; ``--designs`` of each kind),
one enrolment photo per card of the deck (52, under the 60 a club would take) is rendered,
each a single card on a table, and ``vision.enroll.enroll`` learns the deck (its fitted head
and its templates). Then tables of that deck alone (as ``bench_tables.py`` draws them, dimmed
for some) are read without the enrolled deck, with the head alone, with the templates alone
and with both. Printed per design: F1 of each, and the time enrolment took.

With ``--minutes`` each deck is enrolled again with its networks fine-tuned for at most so
long together (the training extra), and the same tables are read with the fine-tuned detector
alone, with the fine-tuned index classifier as well (and that classifier run in float, not
its 8-bit copy), with the head fitted to their reads as well, and with everything;
``--others N`` also reads N tables of other held-out designs
(``bench_tables.py``'s ``held-out`` source, from a generator of their own) without the deck
and with its fine-tuned networks: what the deck's networks cost the decks they were not
taught (a club's table where a guest brings a deck).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

sys.path.insert(0, str(REPO / "bench"))

from scoring import compare, prf  # noqa: E402

from vision.deck_styles import random_style, styled_face  # noqa: E402
from vision.enroll import enroll  # noqa: E402
from vision.labels import RANKS, SUITS  # noqa: E402
from vision.recognize import read_table, warm_up  # noqa: E402
from vision.synth import random_card, scene, tilted  # noqa: E402


def f1(tables: list[tuple[np.ndarray, Counter[str]]], **kwargs: object) -> float:
    tp = fp = fn = 0
    for image, want in tables:
        got = Counter(c.card for c in read_table(image, pieces="cards", **kwargs).cards if c.readable)  # type: ignore[arg-type]
        right, wrong, missed = compare(want, got)
        tp, fp, fn = tp + right, fp + wrong, fn + missed
    return prf(tp, fp, fn)[2]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--designs", type=int, default=3)
    ap.add_argument("--tables", type=int, default=6)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--kinds", default="standard,light-on-dark,metallic")
    ap.add_argument("--minutes", type=float, default=0.0,
                    help="also fine-tune the networks to each deck for at most so long together")
    ap.add_argument("--others", type=int, default=0,
                    help="with --minutes: also read so many tables of other held-out designs")
    args = ap.parse_args()
    warm_up()
    rng = np.random.default_rng(args.seed)
    others = []
    if args.minutes > 0 and args.others > 0:
        from bench_tables import table

        drawer = np.random.default_rng([args.seed, 7])
        for _ in range(args.others):
            image, cards = table(drawer, "held-out", (1280, 960))
            others.append((image, Counter(c.card for c in cards if c.visible_indices)))
    for kind in [k for k in args.kinds.split(",") for _ in range(args.designs)]:
        style = random_style(rng, held_out=True, kind=kind)

        def draw(card: str, r: np.random.Generator, style=style):  # type: ignore[no-untyped-def]
            return styled_face(card, style, r)

        photos = []
        for card in (r + s for r in RANKS for s in SUITS):
            image, _ = scene(rng, (640, 480), [[card]], draw=draw)
            photos.append((card, image))
        start = time.perf_counter()
        deck = enroll(photos)
        took = time.perf_counter() - start
        tables = []
        for _ in range(args.tables):
            groups = [[random_card(rng, jokers=0.0) for _ in range(int(rng.integers(3, 7)))]
                      for _ in range(int(rng.integers(3, 6)))]
            image, cards = scene(rng, (1280, 960), groups, draw=draw, scale=float(rng.uniform(0.4, 0.55)))
            image, cards = tilted(image, cards, rng, 0.05)
            image = cv2.GaussianBlur(image, (3, 3), 0.7).astype(np.float32)
            if rng.random() < 0.5:  # a dimmer room than the enrolment photos'
                image = image * rng.uniform(0.45, 0.7)
            image = np.clip(image + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)
            tables.append((image, Counter(c.card for c in cards if c.visible_indices)))
        head_only = replace(deck, cards=(), patches=deck.patches[:0])
        templates_only = replace(deck, head=None)
        print(f"enroll design={style.family}/{style.kind} photos={len(photos)} "
              f"templates={len(deck.cards)} enroll_s={took:.1f} "
              f"f1_without={f1(tables):.4f} f1_head={f1(tables, deck=head_only):.4f} "
              f"f1_templates={f1(tables, deck=templates_only):.4f} "
              f"f1_both={f1(tables, deck=deck):.4f}", flush=True)
        if args.minutes > 0:
            start = time.perf_counter()
            tuned = enroll(photos, tune_minutes=args.minutes, log=lambda line: None)
            took = time.perf_counter() - start
            networks = replace(tuned, cards=(), patches=tuned.patches[:0], head=None)
            detector = replace(networks, index_onnx=None)
            print(f"enroll design={style.family}/{style.kind} fine-tuned={tuned.detector is not None} "
                  f"enroll_s={took:.1f} f1_detector={f1(tables, deck=detector):.4f} "
                  f"f1_detector_index={f1(tables, deck=networks):.4f} "
                  f"(float {f1(tables, deck=replace(networks, index_int8_onnx=None)):.4f}) "
                  f"f1_detector_index_head={f1(tables, deck=replace(networks, head=tuned.head)):.4f} "
                  f"f1_all={f1(tables, deck=tuned):.4f}", flush=True)
            if others:
                print(f"enroll design={style.family}/{style.kind} other designs: tables={len(others)} "
                      f"f1_without={f1(others):.4f} f1_detector={f1(others, deck=detector):.4f} "
                      f"f1_detector_index={f1(others, deck=networks):.4f} "
                      f"f1_all={f1(others, deck=tuned):.4f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

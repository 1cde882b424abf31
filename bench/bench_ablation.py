"""Ablation of the rules after the networks: each switched off in turn, scored on independent
sources, so every rule that stays shows what it pays and where.

Usage: ``.venv/bin/python bench/bench_ablation.py [--data ../shared/data] [--tables 8]
[--only NAME,...] [--sources NAME,...] [--weights DIR] [--seed 11]`` (``--weights``: candidate networks, as for
``bench_tables.py``)

Sources (each scored apart; none is enough alone):

- ``phone-held``, ``webcam-held``: the held-out capture groups of ``cards-corners``, by
  capture session (phone photos on a table; dark webcam photos of a card in the hand);
- ``ranks-held``: the held-out capture groups of ``cards-ranks`` (ranks only);
- ``tables-held``: rendered 1280×960 tables of held-out typefaces (``bench_tables.py``, scored
  by ``table_score.py``: a read of a card with only part of an index showing is optional);
- ``tables-4c``: the same with every card printed with four corner indices;
- ``tables-dark``: the same in light-on-dark designs;
- ``tables-dim``: the same in dim, warm, noisy light;
- ``tables-jumbo``: the same in jumbo-index designs (an index a third or more of the card);
- ``tables-cam``: the held-out tables seen by a camera tilted 25–50° from straight down
  (``bench_tables.py``'s ``camera slant``): far cards small and foreshortened;
- ``tables-hand``: webcam frames of a hand of 10–26 cards of held-out decks held in a fan,
  in dim light (``bench_tables.py``'s ``hand``);
- ``phone-negative``, ``webcam-negative``: those held-out photos with their lightness turned
  over and their hues kept, real photos of light ink (red staying red) on dark cards;
- ``phone-close``: the held-out phone photos, their middles blown up 1.6 times as by a
  camera held close (indices larger than any the detector learnt). A card is wanted when
  one of its labelled corner boxes lies wholly in the picture; a read naming another card
  labelled in the photo (one whose index is cut by the picture's edge, or shows only at an
  unlabelled corner) is optional, neither right nor wrong, as on the rendered tables.

Printed per variant and source: F1, the change from the recognizer as shipped, on the drawn
tables the change in melds grouped exactly (``m``; the first row gives their number), and the median
ms per image (times move with the machine's load; compare within one run). A rule
pays where switching it off lowers F1 (``no …``); a rule shipped off is measured switched on
(``with …``), and would pay where that raises F1. A rule that only changes how the cards are
counted, not what they are read as (``absorb_unread``: a ``??`` is an abstention, in no F1),
pays in the melds grouped exactly.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_see import norm, truth  # noqa: E402
from bench_tables import chosen_networks, table  # noqa: E402
from scoring import prf  # noqa: E402
from table_score import TableScore, score_table  # noqa: E402

from vision.assemble import DEFAULT_PARAMS  # noqa: E402
from vision.detector import INPUT_SIZE, NEGATIVE_SCORE  # noqa: E402
from vision.images import read_image  # noqa: E402
from vision.lightness import lightness_negative  # noqa: E402
from vision.reading import TableReading  # noqa: E402
from vision.recognize import read_table, warm_up  # noqa: E402
from vision.rescan import RESCAN_LOOKS, Look  # noqa: E402
from vision.runs import RunChoice, Told, Unsettled, read_run  # noqa: E402
from vision.synth import SceneCard  # noqa: E402
from vision.train.split import is_held_out  # noqa: E402

Reader = Callable[[np.ndarray], Any]


def variants() -> dict[str, dict[str, Any]]:
    """Each variant's keyword arguments to ``read_table``."""
    p = DEFAULT_PARAMS
    out: dict[str, dict[str, Any]] = {"full": {}}
    # each rule: its value switched off, and switched on (for the rules shipped off)
    rules: dict[str, tuple[Any, Any]] = {
        "merge": (0.0, 0.7), "corner_reach": (0.0, 0.55), "interior": (0.0, 0.3),
        "ghost": (0.0, 1.5), "weak_rank": (False, True), "duplicate": (1.01, 0.6),
        "corner_side": (0.0, 1.5), "pair_sure": (1.01, 0.6), "hint_score": (1.0, 0.2),
        "turn_sure": (1.01, 0.9), "turned_side": (1.5, 1.0), "four_side": (1.5, 1.0),
        "twin": (0.0, 0.5), "across": (False, True), "absorb_unread": (False, True)}
    for name, (off, on) in rules.items():
        if getattr(p, name) == off:
            out[f"with {name}"] = {"params": replace(p, **{name: on})}
        else:
            out[f"no {name}"] = {"params": replace(p, **{name: off})}
    out["no rescan"] = {"rescan": ()}
    out["no close-up or turned looks"] = {"rescan": tuple(k for k in RESCAN_LOOKS
                                                          if k.size == INPUT_SIZE and not k.turn)}
    for i, look in enumerate(RESCAN_LOOKS):
        label = (f"size {look.size}" if look.size != INPUT_SIZE else f"turn {look.turn}" if look.turn
                 else "denoise" if look.denoise else "sharpest" if look.sharpest else str(i))
        out[f"no look {label}"] = {"rescan": RESCAN_LOOKS[:i] + RESCAN_LOOKS[i + 1:]}
    # the quarter and the half turn together (alone, each pays on one real source)
    out["no looks turned 1 and 2"] = {"rescan": tuple(k for k in RESCAN_LOOKS if k.turn not in (1, 2))}
    # how far apart (in index sizes) one card's corners may lie at the least
    for side in (1.1, 0.8):
        out[f"corner_side {side}"] = {"params": replace(p, corner_side=side)}
    # two indices read surely facing opposite ways count as one card's corners from nearer
    # than corner_side (the ends of a long side; vision.assemble.AssemblyParams.turned_side)
    for side in (1.2, 0.8):
        out[f"turned side {side}"] = {"params": replace(p, turned_side=side)}
    # four indices lying as a true rectangle count as one card's corners from nearer sides
    for side, square in ((1.0, 0.05), (1.2, 0.1), (1.0, 0.2)):
        out[f"four sides {side} at {square}"] = {"params": replace(p, four_side=side, four_square=square)}
    # no two indices ever one card's corners (each index its own card): what pairing costs
    # where only one corner of most cards shows (a hand held in a fan of two decks)
    out["no corner pairs"] = {"params": replace(p, pair_max=0.0)}
    # a sure peak read alike near a stronger one is the same index found twice, dropped
    for twin in (0.7, 1.0):
        out[f"twins {twin}"] = {"params": replace(p, twin=twin)}
    # two indices read surely facing opposite ways pair from nearer than pair_min (jumbo)
    out["turned pairs from 1.2"] = {"params": replace(p, turned_pair_min=1.2)}
    # a finer look for the far indices of a table seen from its edge (vision.scale.far_size)
    for spread in (1.6, 2.0):
        out[f"with far look {spread}"] = {"far_spread": spread}
    out["with look denoise"] = {"rescan": RESCAN_LOOKS + (Look(denoise=True),)}
    # each index's box placed and sized again by the box network before it is read
    # (vision.index_boxes): not at all, or only sized about the detector's centre
    out["no box fit"] = {"box_weights": None}
    out["box fit keeps centres"] = {"move_boxes": False}
    # each box fitted twice, the second pass shown the first one's box (shipped once)
    out["box fit twice"] = {"box_passes": 2}
    out["fixed size 384"] = {"size": INPUT_SIZE}
    # the negative's index peaks in every look, as shipped before (vision.detector.NEGATIVE_PEAKS)
    out["with negative peaks"] = {"negative_score": NEGATIVE_SCORE}
    out["with negative peaks from 0.5"] = {"negative_score": 0.5}
    # close-ups read at a smaller input size than the default (vision.scale.LARGE_INDEX)
    for smallest in (256, 192):
        out[f"down to {smallest}"] = {"smallest": smallest}
    # the index size the input size is chosen for (vision.scale.TARGET_INDEX): smaller is
    # faster, each pixel less a tenth or so of the detector's time
    for px in (24.0, 20.0):
        out[f"index {px:.0f} px"] = {"index_px": px}
    # how each index is read: zoomed boxes for every index (as before ZOOM_UNSURE), for
    # none, or with the zoomed boxes read one way round only
    out["zoom every index"] = {"zoom_unsure": 1.01}
    out["no zooms"] = {"zoom_unsure": 0.0}
    out["zooms one way"] = {"zoom_both_ways": False}
    # which index crops are also read turned half round: every one, or only unsure reads
    out["turned reads of every crop"] = {"turn_unsure": 1.01}
    for unsure in (0.9, 0.8):
        out[f"turned reads below {unsure}"] = {"turn_unsure": unsure}
    # which whole-card crops are also read turned half round: every one (as shipped), or
    # only those whose first read is unsure
    out["turned card reads below 0.95"] = {"card_turn_unsure": 0.95}
    # unsure index crops also read in the other lightness (light ink on dark cards), the
    # surer read kept (vision.classifier.NEGATIVE_UNSURE, shipped off)
    out["with negative reads"] = {"negative_unsure": 0.7}
    # the photo read turned over where its surest indices read surer so and show dark cards
    # (vision.polarity): never, or on a smaller margin of sureness
    out["no lightness choice"] = {"polarity_margin": None}
    out["lightness choice at 0"] = {"polarity_margin": 0.0}
    # by the dark boxes alone (any margin of sureness): what a run of photos of a dark deck
    # does with its photos whose sureness left the choice open (tablekit see, vision.polarity)
    out["lightness by dark boxes"] = {"polarity_margin": -1.0}
    # each source read as one run (tablekit see over a folder): the photos whose lightness
    # choice is open read as most of the source's settled photos (vision.runs)
    out["as one run"] = {"as_run": True}
    return out


def held_out_names(labels: dict[str, Any], session: str = "") -> list[str]:
    """The held-out photos among ``labels`` (those whose name holds ``session``, or, for
    ``!NAME``, those whose name does not), by name."""
    def keep(name: str) -> bool:
        return session[1:] not in name if session.startswith("!") else session in name
    return sorted(n for n in labels if is_held_out(n) and keep(n))


#: A photo to score: the image, its kind of label (``card`` or ``rank``), the cards wanted,
#: and the cards whose reads are optional (neither right nor wrong).
Item = tuple[np.ndarray, str, set[str], set[str]]


def photo_source(data: Path, folder: str, labels: dict[str, Any], names: list[str]) -> list[Item]:
    """The photos ``names`` of ``folder``, each with its kind of label and its cards (every
    labelled card wanted, none optional)."""
    want = truth(labels)
    return [(read_image(data / folder / "images" / name), *want[name], set()) for name in names]


def _inside(label: dict[str, Any], size: tuple[int, int], window: tuple[int, int, int, int]) -> bool:
    """Whether a labelled box (normalised centre and size) of a ``size`` photo lies wholly
    inside ``window`` (x0, y0, x1, y1 in pixels)."""
    w, h = size
    cx, cy, bw, bh = (float(label[k]) for k in ("cx", "cy", "w", "h"))
    return (window[0] <= (cx - bw / 2) * w and (cx + bw / 2) * w <= window[2]
            and window[1] <= (cy - bh / 2) * h and (cy + bh / 2) * h <= window[3])


def close_ups(items: list[Item], labels: dict[str, Any], zoom: float = 1.6) -> list[Item]:
    """Each photo's middle blown up ``zoom`` times, wanting the cards with a labelled corner
    box wholly inside that middle; the photo's other labelled cards are optional there (an
    index cut by the edge may be read or not, and a card may show an unlabelled corner)."""
    out: list[Item] = []
    for (image, kind, present, _), name in zip(items, labels, strict=True):
        h, w = image.shape[:2]
        ch, cw = int(h / zoom), int(w / zoom)
        y0, x0 = (h - ch) // 2, (w - cw) // 2
        want = {norm(str(b["label"])) for b in labels[name]
                if b["label"] != "BACK" and _inside(b, (w, h), (x0, y0, x0 + cw, y0 + ch))}
        if want:
            middle = image[y0:y0 + ch, x0:x0 + cw]
            out.append((cv2.resize(middle, (w, h), interpolation=cv2.INTER_CUBIC), kind, want, present - want))
    return out


def negatives(items: list[Item]) -> list[Item]:
    """Each photo in the other lightness (``lightness_negative``: hues kept): real photos of
    light ink on dark cards (on a table turned over too), with the camera's own blur, noise
    and compression."""
    return [(lightness_negative(image), kind, want, optional) for image, kind, want, optional in items]


#: The capture sessions held out of training: (folder, the names' mark, source name).
PHOTO_SESSIONS = (("cards-corners", "IMG_", "phone-held"), ("cards-corners", "!IMG_", "webcam-held"),
                  ("cards-ranks", "", "ranks-held"))


def held_out_photos(data: Path) -> dict[str, list[Item]]:
    """The real photo sources by name: each held-out capture session of the shared folders
    under ``data`` (``PHOTO_SESSIONS``), the phone photos' close-ups (``phone-close``) and the
    phone and webcam photos in the other lightness (``phone-negative``, ``webcam-negative``).
    A folder missing under ``data`` is said and its sources left out."""
    out: dict[str, list[Item]] = {}
    for folder, session, name in PHOTO_SESSIONS:
        if not (data / folder).is_dir():
            print(f"{name}: {folder} not found under {data}; that source is left out")
            continue
        labels = json.loads((data / folder / "labels.json").read_text())
        names = held_out_names(labels, session)
        items = photo_source(data, folder, labels, names)
        out[name] = items
        if name == "phone-held":
            out["phone-close"] = close_ups(items, {n: labels[n] for n in names})
        if name in ("phone-held", "webcam-held"):
            out[name.replace("held", "negative")] = negatives(items)
    return out


def _timed(image: np.ndarray, kwargs: dict[str, Any], times: list[float]) -> Any:
    start = time.perf_counter()
    reading = read_table(image, pieces="cards", **kwargs)
    times.append((time.perf_counter() - start) * 1000)
    return reading


def readings(images: list[np.ndarray], kwargs: dict[str, Any], times: list[float]) -> list[TableReading]:
    """Each image read as ``read_table`` reads it with ``kwargs``; with ``as_run`` among them,
    the images read as one run (``tablekit see`` over a folder, ``vision.runs``): a photo that
    leaves a choice open waits, and is read as most of those that settled it are."""
    kwargs = dict(kwargs)
    if not kwargs.pop("as_run", False):
        return [_timed(image, kwargs, times) for image in images]
    told: list[Told] = []

    def read(image: np.ndarray, run: RunChoice, resume: Unsettled | None) -> TableReading:
        start = time.perf_counter()
        try:
            reading = read_table(image, pieces="cards", run=run, defer=resume is None,
                                 told=told.append if resume is None else None, resume=resume, **kwargs)
        except Unsettled as unsure:
            unsure.ms = (time.perf_counter() - start) * 1000
            raise
        times.append((resume.ms if resume is not None else 0.0) + (time.perf_counter() - start) * 1000)
        return reading

    return list(read_run(images, read, told))


def photo_f1(items: list[Item], kwargs: dict[str, Any]) -> tuple[float, float]:
    tp = fp = fn = 0
    times: list[float] = []
    read = readings([image for image, *_ in items], kwargs, times)
    for (_, kind, want, optional), reading in zip(items, read, strict=True):
        seen = set()
        for c in reading.cards:
            if c.readable:
                card = norm(c.card)
                seen.add(("PJ" if card == "PJ" else card[:-1]) if kind == "rank" else card)
        seen -= optional - want
        tp, fp, fn = tp + len(seen & want), fp + len(seen - want), fn + len(want - seen)
    return prf(tp, fp, fn)[2], statistics.median(times)


def table_f1(items: list[tuple[np.ndarray, list[SceneCard]]], kwargs: dict[str, Any]) -> tuple[float, float, int]:
    """The tables' F1, median ms and melds grouped exactly (``table_score``)."""
    total = TableScore()
    times: list[float] = []
    for (_, cards), reading in zip(items, readings([image for image, _ in items], kwargs, times), strict=True):
        total.add(score_table(cards, reading))
    return prf(total.right, total.wrong, total.missed)[2], statistics.median(times), total.melds_hit


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--seed", type=int, default=11, help="the drawn tables' seed (another draw of them)")
    ap.add_argument("--only", default="", help="comma-separated variant names (default: all)")
    ap.add_argument("--sources", default="", help="comma-separated sources (default: all)")
    ap.add_argument("--weights", type=Path, default=None,
                    help="a folder of candidate networks replacing the shipped ones of the same name")
    args = ap.parse_args()
    nets = chosen_networks(args.weights)
    if nets is None:
        return 2
    warm_up(nets["weights"], nets["index_weights"], nets["card_weights"])
    # each source's F1, median ms and, for drawn tables, the melds grouped exactly
    sources: dict[str, Callable[[dict[str, Any]], tuple[float, float, int | None]]] = {
        name: (lambda kw, items=items: (*photo_f1(items, kw), None))  # type: ignore[misc]
        for name, items in held_out_photos(args.data).items()}
    for source, name in (("held-out", "tables-held"), ("four-corner", "tables-4c"),
                         ("light-on-dark", "tables-dark"), ("dim", "tables-dim"),
                         ("jumbo", "tables-jumbo"), ("camera slant", "tables-cam"), ("hand", "tables-hand")):
        rng = np.random.default_rng(args.seed)
        tabs = []
        for _ in range(args.tables):
            image, cards = table(rng, source, (1280, 960))
            tabs.append((image, cards))
        sources[name] = lambda kw, tabs=tabs: table_f1(tabs, kw)  # type: ignore[misc]
    if args.sources:
        unknown = set(args.sources.split(",")) - set(sources)
        if unknown:
            print(f"error: unknown source {', '.join(sorted(unknown))} (known: {', '.join(sources)})", file=sys.stderr)
            return 2
        sources = {k: v for k, v in sources.items() if k in args.sources.split(",")}
    chosen = variants()
    if args.only:
        chosen = {k: v for k, v in chosen.items() if k == "full" or k in args.only.split(",")}
    print(f"{'variant':22s} " + " ".join(f"{s:>31s}" for s in sources), flush=True)
    print(f"{'':22s} F1 (change), m: melds grouped exactly (change), median ms", flush=True)
    base: dict[str, tuple[float, int | None]] = {}
    for variant, kwargs in chosen.items():
        cells = []
        for source, f1_of in sources.items():
            f1, ms, melds = f1_of({**nets, **kwargs})
            if variant == "full":
                base[source] = (f1, melds)
                grouped = f" m{melds}" if melds is not None else ""
                cells.append(f"{f1:.4f}{grouped} {ms:5.0f}ms".rjust(31))
            else:
                was_f1, was_melds = base[source]
                grouped = f" m{melds - was_melds:+d}" if melds is not None and was_melds is not None else ""
                cells.append(f"{f1:.4f} ({f1 - was_f1:+.4f}){grouped} {ms:4.0f}ms".rjust(31))
        print(f"{variant:22s} " + " ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark of ``tablekit see`` on the shared labelled photos: F1, exact share, ms (full and held-out).

Usage: ``.venv/bin/python bench/bench_see.py [--data ../shared/data] [--misses] [--turn 1] [--negative]
[--resize 2.0]``

Runs ``tablekit see --json`` once per folder (as ``../shared/tools/see-eval`` does) and scores
it with see-eval's rules: per image, the set of distinct card labels (ranks only on rank-labelled
folders), ``??`` counting against recall only. The held-out part is the capture groups that
``vision/train/split.py`` keeps out of training. With ``--turn N`` every photo is first turned
N quarter turns clockwise (written losslessly to a temporary folder): the same cards seen by
a camera held the other way, a check on how much the reading leans on the photos' usual
orientation. With ``--negative`` every photo is first turned to the other lightness (hues
kept, ``vision.lightness``): real photos of light ink on dark cards, which ``see`` reads as one
dark deck's run (``vision.runs``). With ``--resize F`` every photo is first scaled by F (area
averaging down, cubic up): the same scene taken by a camera of more or fewer pixels, a check that
the reader sizes its looks from the photo rather than from the shared photos' usual size.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scoring import p95  # noqa: E402

from vision.images import read_image  # noqa: E402
from vision.lightness import lightness_negative  # noqa: E402
from vision.rescan import turned  # noqa: E402
from vision.train.split import is_held_out  # noqa: E402

FOLDERS = ("cards-corners", "cards-ranks")


def norm(label: str) -> str:
    t = label.strip().upper()
    if "JOKER" in t or t in ("JK", "PJ"):
        return "PJ"
    return "10" + t[1:] if t.startswith("T") else t


def truth(labels: dict[str, list[dict[str, object]]]) -> dict[str, tuple[str, set[str]]]:
    out = {}
    for name, boxes in labels.items():
        if boxes and "rank" in boxes[0]:
            out[name] = ("rank", {str(b["rank"]).upper() for b in boxes})
        else:
            out[name] = ("card", {norm(str(b["label"])) for b in boxes if b["label"] != "BACK"})
    return out


def score(names: list[str], want: dict[str, tuple[str, set[str]]],
          got: dict[str, dict[str, object]], misses: bool) -> dict[str, float]:
    tp = fp = fn = exact = 0
    times = []
    for n in names:
        kind, w = want[n]
        r = got.get(n)
        if r is None or "error" in r:
            fn += len(w)
            continue
        seen = set()
        cards = r.get("cards", [])
        for c in cards if isinstance(cards, list) else []:
            card = norm(str(c.get("card", "??")))
            if card == "??":
                continue
            seen.add(("PJ" if card == "PJ" else card[:-1]) if kind == "rank" else card)
        times.append(float(r["ms"]))  # type: ignore[arg-type]
        tp += len(seen & w)
        fp += len(seen - w)
        fn += len(w - seen)
        exact += seen == w
        if misses and seen != w:
            print(f"  miss {n}: missing {sorted(w - seen)} extra {sorted(seen - w)}")
    p = tp / (tp + fp) if tp + fp else 0.0
    rc = tp / (tp + fn) if tp + fn else 0.0
    return {
        "images": len(names), "precision": p, "recall": rc,
        "f1": 2 * p * rc / (p + rc) if p + rc else 0.0,
        "exact": exact / len(names) if names else 0.0,
        "median_ms": statistics.median(times) if times else float("nan"),
        "p95_ms": p95(times) if times else float("nan"),
    }


def _turned(path: Path, turn: int, folder: Path, negative: bool = False, resize: float = 1.0) -> Path:
    """``path`` itself, or a lossless copy in ``folder`` turned ``turn`` quarter turns
    clockwise, to the other lightness when ``negative``, and scaled by ``resize``."""
    if not turn and not negative and resize == 1.0:
        return path
    out = folder / (path.name + ".turned.png")
    image = turned(read_image(path), turn)
    if resize != 1.0:
        h, w = image.shape[:2]
        size = (max(1, round(w * resize)), max(1, round(h * resize)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA if resize < 1 else cv2.INTER_CUBIC)
    cv2.imwrite(str(out), lightness_negative(image) if negative else image)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--misses", action="store_true", help="list the images read wrongly")
    ap.add_argument("--turn", type=int, choices=(0, 1, 2, 3), default=0,
                    help="turn every photo this many quarter turns clockwise first")
    ap.add_argument("--negative", action="store_true",
                    help="turn every photo to the other lightness first (hues kept): real photos of "
                         "light ink on dark cards, read as one run as see reads a folder")
    ap.add_argument("--resize", type=float, default=1.0,
                    help="scale every photo by this factor first (a camera of more or fewer pixels)")
    args = ap.parse_args()
    tablekit = [sys.executable, "-m", "tablekit"]
    for folder in FOLDERS:
        root = args.data / folder
        if not root.is_dir():
            print(f"{folder}: not found under {args.data}")
            continue
        want = truth(json.loads((root / "labels.json").read_text()))
        names = sorted(want)
        with tempfile.TemporaryDirectory() as tmp:
            paths = [_turned(root / "images" / n, args.turn, Path(tmp), args.negative, args.resize) for n in names]
            proc = subprocess.run(tablekit + ["see", "--json"] + [str(p) for p in paths],
                                  capture_output=True, text=True, cwd=REPO)
        got = {}
        for line in proc.stdout.splitlines():
            r = json.loads(line)
            got[Path(str(r["image"])).name.removesuffix(".turned.png")] = r
        for part, subset in (("full", names), ("held-out", [n for n in names if is_held_out(n)])):
            print(f"{folder} [{part}]" + (" misses:" if args.misses else ""))
            s = score(subset, want, got, args.misses)
            print(f"{folder:14s} {part:9s} images={s['images']:4d} precision={s['precision']:.4f} "
                  f"recall={s['recall']:.4f} f1={s['f1']:.4f} exact={s['exact']:.4f} "
                  f"median_ms={s['median_ms']:.1f} p95_ms={s['p95_ms']:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

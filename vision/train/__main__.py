"""Rebuild every shipped recognizer weight file with one command.

Usage (repo root, the ``train`` extra installed)::

    .venv/bin/python -m vision.train [--seed 0] [--out vision/weights] [--scale 1.0]
                                     [--minutes M] [--init vision/weights] [--all] [--threads 2]
                                     [--precision auto|bf16|fp32]

Eight stages run one after another, each a module of this package that can also be run on
its own: the detector (``vision.train.train``, heat maps for corner indices and whole
cards), then the index classifier (``vision.train.train_classifier --kind index``, trained
on label boxes, drawn scenes and the new detector's own boxes), then the whole-card rank
classifier (``--kind card``), then the index-turn classifier (``vision.train.train_turn``,
drawn scenes only), then the index-box network (``vision.train.train_boxes``: how big each
index is in a detector box grown about it), then the tile detector (``vision.train.train_tiles``), then that
detector trained on in place under strongly coloured light too (``tiles-light``), then the 8-bit
copies of the two crop classifiers (``vision.train.quantize``: no training, their
activations' ranges measured on what the new networks are fed). Each training stage's
budget is a number of optimizer steps (``STEPS``, times ``--scale``), so a seed gives the
same weights however busy the machine is. With no
``--init`` every network starts from random weights (seeded by ``--seed``); with ``--init
DIR`` each trains on from the weight files of that folder (a shorter run that refines them).

The run can stop and go on: ``--minutes`` ends this sitting after so long (Ctrl-C too), each
stage keeps a checkpoint beside its weights, and running the same command again skips the
stages already done and resumes the one under way.

Drawn scenes mix the project's own faces, openly licensed artwork fetched from the npm
registry and random deck designs (``vision.deck_styles``, typefaces from Debian's font
packages; the held-out families never); a share are whole crowded tables. The held-out
capture groups of the shared photos are left out unless ``--all``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from vision.classifier import DEFAULT_CARD_CLASSIFIER, DEFAULT_CLASSIFIER, DEFAULT_TURN
from vision.detector import DEFAULT_WEIGHTS
from vision.index_boxes import DEFAULT_BOXES
from vision.train import precisions

#: Each training stage's optimizer steps at ``--scale 1``.
STEPS = {"detector": 40000, "index": 30000, "card": 5000, "turn": 3000, "boxes": 6000, "tiles": 11200,
         "tiles-light": 1500}
#: Every stage, in order: the training ones, then the 8-bit copies (no steps).
STAGES = (*STEPS, "int8")


def stages(args: argparse.Namespace) -> list[tuple[str, list[str]]]:
    """The command line of each stage, in order."""
    out: Path = args.out
    detector, index, card = (out / p.name for p in (DEFAULT_WEIGHTS, DEFAULT_CLASSIFIER, DEFAULT_CARD_CLASSIFIER))
    common = ["--seed", str(args.seed), "--threads", str(args.threads)] + (["--all"] if args.all else [])
    if args.no_artwork:
        common.append("--no-artwork")

    def init(name: str, lr: str) -> list[str]:
        return ["--init-onnx", str(args.init / name), "--lr", lr] if args.init else []

    def steps(name: str) -> list[str]:
        return ["--steps", str(max(1, round(STEPS[name] * args.scale)))]

    # the torch stages' forward arithmetic (``auto``: by the processor, vision.train.precisions),
    # left unsaid where it is bf16 and a stage's own default gives that too (the recipe's lines
    # as they were); the tile stage is float32 whatever is asked
    chosen_precision = precisions.chosen(args.precision)
    precision = ([] if chosen_precision == "bf16" == precisions.chosen(precisions.AUTO)
                 else ["--precision", chosen_precision])

    return [
        ("detector", ["vision.train.train", "--out", str(detector), "--crop", "256", "--synth", "1500",
                      "--synth-share", "0.45", "--crowded-share", "0.3", *steps("detector"),
                      *init(DEFAULT_WEIGHTS.name, "3e-4"), *precision, *common]),
        # indices partly under the next card taught by the ink that shows, and a share of the
        # drawn scenes seen by a tilted camera (vision/HISTORY.md, "The index stage with partly
        # hidden indices and camera slants")
        ("index", ["vision.train.train_classifier", "--kind", "index", "--out", str(index),
                   "--synth", "1500", "--crowded-share", "0.3", "--partial-indices", "--camera-slants", "0.3",
                   "--detector", str(detector), *steps("index"),
                   *init(DEFAULT_CLASSIFIER.name, "5e-4"), *precision, *common]),
        ("card", ["vision.train.train_classifier", "--kind", "card", "--out", str(card),
                  "--synth", "700", "--detector", str(detector), *steps("card"),
                  *init(DEFAULT_CARD_CLASSIFIER.name, "1e-3"), *precision, *common]),
        # which way each index points, of eight directions: drawn scenes only, from nothing
        # (no earlier weights)
        ("turn", ["vision.train.train_turn", "--out", str(out / DEFAULT_TURN.name), *steps("turn"),
                  "--directions", "8", *precision, *common]),
        # where each index lies in a detector box grown about it, from nothing: labelled indices
        # seen through boxes that stray as the detector's do (no detector needed)
        ("boxes", ["vision.train.train_boxes", "--out", str(out / DEFAULT_BOXES.name), *steps("boxes"),
                   *precision, *common]),
        # drawn tile scenes only, from nothing (no photos, artwork or earlier weights), on the
        # surfaces with busy ones (v2), in float32 as the shipped reader was trained
        ("tiles", ["vision.train.train_tiles", "--out", str(out / "tilenet.onnx"), *steps("tiles"),
                   "--scene-seeds", "--surfaces", "v2", "--precision", "float32",
                   "--seed", str(args.seed), "--threads", str(args.threads)]),
        # the tile reader trained on from the stage above, in place, under strong casts too
        # (vision.tile_synth.CASTS v2), its scenes from the next seed (not the first ones again)
        ("tiles-light", ["vision.train.train_tiles", "--out", str(out / "tilenet.onnx"),
                         "--init-onnx", str(out / "tilenet.onnx"), *steps("tiles-light"), "--lr", "3e-4",
                         "--casts", "v2", "--scene-seeds", "--surfaces", "v2", "--precision", "float32",
                         "--seed", str(args.seed + 1), "--threads", str(args.threads)]),
        # the crop classifiers' 8-bit copies, measured on what the networks above are fed
        ("int8", ["vision.train.quantize", "--weights", str(out), *common]),
    ]


def _done_marker(out: Path, name: str) -> Path:
    return out / f".{name}.done.json"


def _result_args(argv: list[str]) -> list[str]:
    """A stage's arguments less ``--threads`` and an asked ``--precision`` (which change how
    fast, not what is learnt: the same data and schedule, the arithmetic's last bits)."""
    # the tile stage's float32 is its recipe's, not a speed asked for
    dropped = ("--threads",) if argv[0] == "vision.train.train_tiles" else ("--threads", "--precision")
    out = list(argv)
    for flag in dropped:
        if flag in out:
            at = out.index(flag)
            del out[at:at + 2]
    return out


def parser() -> argparse.ArgumentParser:
    """The command's options (``stages`` reads the parsed ones)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=DEFAULT_WEIGHTS.parent)
    ap.add_argument("--scale", type=float, default=1.0,
                    help="every stage's steps times this (e.g. 0.02 for a quick trial)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="end this sitting after so many minutes; the same command resumes")
    ap.add_argument("--init", type=Path, default=None, help="train on from the weights in this folder")
    ap.add_argument("--all", action="store_true", help="train on the held-out photos too")
    ap.add_argument("--threads", type=int, default=2,
                    help="torch's CPU threads (1 on a machine busy with other work: spinning "
                         "threads that outnumber the free cores run several times slower)")
    ap.add_argument("--no-artwork", action="store_true", help="no npm artwork in drawn scenes")
    ap.add_argument("--precision", choices=(precisions.AUTO, "bf16", "fp32"), default=precisions.AUTO,
                    help="the torch stages' forward passes: bf16 as shipped, fp32, or auto (default): "
                         "bf16 where the CPU has bfloat16 instructions, fp32 where bf16 would be "
                         "emulated and many times slower")
    ap.add_argument("--only", choices=STAGES, action="append", help="run only these stages")
    return ap


def main() -> int:
    args = parser().parse_args()
    if precisions.native_bf16() is False:
        if args.precision == "bf16":
            print("note: this CPU has no bfloat16 instructions, so bf16 is emulated: the torch "
                  "stages run ten to twenty times slower than with --precision fp32", flush=True)
        elif args.precision == precisions.AUTO:
            print("note: this CPU has no bfloat16 instructions: the torch stages train in fp32 "
                  "(the same data and schedule as bf16, the arithmetic's last bits differ)", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    began = time.time()
    for name, argv in stages(args):
        if args.only and name not in args.only:
            continue
        marker = _done_marker(args.out, name)
        if marker.is_file() and json.loads(marker.read_text()) == _result_args(argv):
            print(f"== {name}: done already ({marker.name})", flush=True)
            continue
        cmd = [sys.executable, "-m", *argv]
        if args.minutes is not None:
            left = args.minutes - (time.time() - began) / 60
            if left <= 0:
                print("this sitting's minutes are spent; run the same command to go on", flush=True)
                return 3
            cmd += ["--minutes", f"{left:.1f}"]
        print(f"== {name}: {' '.join(cmd[2:])}", flush=True)
        start = time.time()
        child = subprocess.Popen(cmd)
        try:
            code = child.wait()
        except KeyboardInterrupt:  # Ctrl-C reaches the stage too: it saves its checkpoint
            code = child.wait()
        if code == 3:
            print(f"== {name} stopped after {(time.time() - start) / 60:.1f} min; "
                  "run the same command to go on", flush=True)
            return 3
        if code != 0:
            print(f"error: the {name} stage failed", file=sys.stderr)
            return 1
        marker.write_text(json.dumps(_result_args(argv)) + "\n")
        print(f"== {name} done in {(time.time() - start) / 60:.1f} min", flush=True)
    print(f"all stages done in {(time.time() - began) / 60:.1f} min; weights in {args.out}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

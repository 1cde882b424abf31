"""Rebuild ``indexturn.onnx``: which way each corner index stands in its crop (upright, or
turned half round; or with ``--directions 8``, as the recipe trains it, which of eight
directions it points in), so that two indices pair as one card's corners only when they face
opposite ways (``vision.assemble``). CPU, torch.

Usage (repo root, torch in the venv)::

    .venv/bin/python -m vision.train.train_turn [--steps 3000] [--synth 900] [--seed 0] [--directions 8]

Trained on drawn scenes alone (``vision.train.turns``: their cards' outlines say which way
every index faces), in the index classifier's crops and recolouring; the faces mix the
project's drawn ones, fetched artwork and random deck designs, never a held-out typeface.
The budget is ``--steps``; a checkpoint beside ``--out`` at every epoch's end lets the same
command carry on (``vision.train.state``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch

from vision.classifier import CROP_H, CROP_W, DEFAULT_TURN
from vision.train import precisions, state
from vision.train.artwork import add_artwork_arguments, scene_faces
from vision.train.train_classifier import IndexNet, export, fit_epoch
from vision.train.turns import drawn_scenes, turn_crops

#: The turn network's blocks and dense layer: a tenth of the index classifier's work.
WIDTHS = (8, 16, 32)
HIDDEN = 32


def turn_net(directions: int = 2) -> IndexNet:
    """The index-turn network over an index crop: upright or turned, or which of
    ``directions`` it points in (``vision.train.turns.turn_label``)."""
    return IndexNet(CROP_W, CROP_H, directions, WIDTHS, HIDDEN)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_TURN)
    ap.add_argument("--steps", type=int, default=3000, help="optimizer steps (the budget)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="stop this sitting after so many minutes; the same command resumes")
    ap.add_argument("--fresh", action="store_true", help="ignore a checkpoint and start over")
    precisions.add_argument(ap)
    ap.add_argument("--synth", type=int, default=900, help="drawn scenes")
    ap.add_argument("--crowded-share", type=float, default=0.4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--threads", type=int, default=2, help="torch's CPU threads")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--directions", type=int, default=2, choices=(2, 8),
                    help="upright or turned half round (2), or which of 8 directions an index "
                         "points in, so that neighbours in a fan a quarter turn apart are told too")
    ap.add_argument("--all", action="store_true", help="accepted for the one command; no photos are used")
    add_artwork_arguments(ap)
    args = ap.parse_args()
    precisions.resolve(args)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    began = time.time()
    scenes = drawn_scenes(args.synth, np.random.default_rng(args.seed + 5), scene_faces(args),
                          args.crowded_share)
    print(f"{len(scenes)} drawn scenes, {sum(len(u) for _, u in scenes)} indices, "
          f"{(time.time() - began) / 60:.1f} min", flush=True)
    model = turn_net(args.directions)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sig = {k: getattr(args, k) for k in ("steps", "synth", "crowded_share", "seed", "batch", "lr",
                                         "precision", "no_artwork", "drawn_share", "styled_share",
                                         "typefaces")}
    if args.directions != 2:  # only when asked, so the shipped run's checkpoint still resumes
        sig["directions"] = args.directions
    step = state.start(args.out, sig, model, opt, rng, args.fresh, args.steps)

    def epoch(step: int) -> tuple[int, str]:
        x, y = turn_crops(scenes, rng, directions=args.directions)
        step, accuracy = fit_epoch(model, opt, x, y, rng, step, args, smoothing=0.02)
        return step, f"{len(x)} crops, train acc {accuracy:.3f}"

    step = state.run_epochs(args.out, sig, step, args.steps, args.minutes, began, model, opt, rng, epoch)
    export(model, args.out, (CROP_W, CROP_H))
    print(f"wrote {args.out} after {step} steps", flush=True)


if __name__ == "__main__":
    main()

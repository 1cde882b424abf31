"""Rebuild the crop classifiers: ``indexnet.onnx`` (corner indices) and ``cardrank.onnx``
(whole-card ranks) in ``vision/weights`` (CPU, torch).

Usage (repo root, torch in the venv)::

    .venv/bin/python -m vision.train.train_classifier --kind index [--steps 8000] [--all]
    .venv/bin/python -m vision.train.train_classifier --kind card [--steps 4000] [--all]

Index crops come from the labelled corner indices of ``cards-corners``, card crops from the
whole-card boxes of ``cards-ranks`` (train split unless ``--all``); both add drawn scenes and
background crops, with fresh augmented crops every epoch. The budget is ``--steps``; the run
keeps a checkpoint beside ``--out`` at every epoch's end and the same command carries on from
it (``vision.train.state``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import cast

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from vision.classifier import (
    CARD_H,
    CARD_W,
    CROP_H,
    CROP_W,
    DEFAULT_CARD_CLASSIFIER,
    DEFAULT_CLASSIFIER,
    N_CARD_OUT,
    N_OUT,
    crop_size,
)
from vision.detector import DEFAULT_WEIGHTS
from vision.synth import JOKERS
from vision.train import precisions, state
from vision.train.artwork import add_artwork_arguments, scene_faces
from vision.train.crops import (
    add_proposals,
    card_crops,
    index_crops,
    partial_crops,
    proposal_crops,
    synthetic_single_cards,
)
from vision.train.dataset import Photo, load_photos, synthetic_photos, table_textures
from vision.train.net import freeze_norms, load_folded

REPO = Path(__file__).resolve().parents[2]


class IndexNet(nn.Module):
    """A small CNN over a ``CROP_W``×``CROP_H`` BGR crop: three blocks of ``widths``
    channels, then a dense layer of ``hidden``."""

    def __init__(self, width: int = CROP_W, height: int = CROP_H, n_out: int = N_OUT,
                 widths: tuple[int, int, int] = (24, 48, 64), hidden: int = 128) -> None:
        super().__init__()

        def block(cin: int, cout: int) -> nn.Sequential:
            return nn.Sequential(nn.Conv2d(cin, cout, 3, 1, 1, bias=False), nn.BatchNorm2d(cout),
                                 nn.ReLU(inplace=True), nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
                                 nn.BatchNorm2d(cout), nn.ReLU(inplace=True), nn.MaxPool2d(2))

        a, b, self.channels = widths
        self.features = nn.Sequential(block(3, a), block(a, b), block(b, self.channels))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.3),
                                  nn.Linear(self.channels * (height // 8) * (width // 8), hidden),
                                  nn.ReLU(inplace=True), nn.Linear(hidden, n_out))

    def layers(self) -> tuple[list[tuple[nn.Conv2d, nn.BatchNorm2d | None]], list[nn.Linear]]:
        """Convolutions with their batch norms, and the dense layers, in forward order."""
        convs: list[tuple[nn.Conv2d, nn.BatchNorm2d | None]] = []
        for module in self.features:
            block = cast(nn.Sequential, module)
            convs += [(cast(nn.Conv2d, block[0]), cast(nn.BatchNorm2d, block[1])),
                      (cast(nn.Conv2d, block[3]), cast(nn.BatchNorm2d, block[4]))]
        return convs, [cast(nn.Linear, self.head[2]), cast(nn.Linear, self.head[4])]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits: torch.Tensor = self.head(self.features(x * (1.0 / 255.0) - 0.5))
        return logits


def export(model: IndexNet, path: Path, size: tuple[int, int]) -> None:
    model.eval()
    torch.onnx.export(model, (torch.zeros(1, 3, size[1], size[0]),), str(path), opset_version=13,
                      dynamo=False, input_names=["crop"], output_names=["logits"],
                      dynamic_axes={"crop": {0: "n"}, "logits": {0: "n"}})
    model.train()


def fit_epoch(model: nn.Module, opt: torch.optim.Optimizer, x: np.ndarray, y: np.ndarray,
              rng: np.random.Generator, step: int, args: argparse.Namespace,
              smoothing: float, average: state.Average | None = None) -> tuple[int, float]:
    """One pass over the crops ``x`` (N, H, W, 3) and labels ``y`` in an order drawn from
    ``rng``, in batches of ``args.batch``, until ``args.steps``: the learning rate follows the
    step (``state.cosine_lr`` from ``args.lr``), the forward pass runs in ``args.precision``;
    ``average`` (``--average``) folds in each step's weights. The step reached and the share
    of crops classed right on the way."""
    total = correct = 0
    for xb, yb in state.epoch_batches(x, y, rng, step, args, opt):
        with state.precision(args.precision):
            logits = model(xb)
        # class numbers, or (``--partial-indices``) the probabilities each crop is taught
        loss = F.cross_entropy(logits.float(), yb, label_smoothing=smoothing)
        opt.zero_grad()
        loss.backward()  # type: ignore[no-untyped-call]  # torch leaves Tensor.backward unannotated
        opt.step()
        step += 1
        if average is not None:
            average.update(step)
        total += len(xb)
        correct += int((logits.argmax(1) == (yb.argmax(1) if yb.ndim == 2 else yb)).sum())
    return step, correct / max(total, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--kind", choices=("index", "card"), default="index")
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--steps", type=int, default=8000, help="optimizer steps (the budget)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="stop this sitting after so many minutes; the same command resumes")
    ap.add_argument("--fresh", action="store_true", help="ignore a checkpoint and start over")
    precisions.add_argument(ap)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--synth", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--crowded-share", type=float, default=0.0,
                    help="share of drawn scenes that are whole crowded tables (index crops)")
    ap.add_argument("--threads", type=int, default=2, help="torch's CPU threads")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--detector", type=Path, default=DEFAULT_WEIGHTS,
                    help="detector whose boxes on the photos are added as training crops")
    ap.add_argument("--init-onnx", type=Path, default=None,
                    help="start from these exported weights (e.g. the shipped ones; batch norms kept fixed)")
    ap.add_argument("--crop", default=None, metavar="WxH",
                    help="index crop size (written beside the weights as JSON); default 32x48")
    ap.add_argument("--lightness-negatives", type=float, default=0.0, metavar="SHARE",
                    help="index crops: the share turned to the other lightness with hues kept "
                         "(light ink on dark card, red staying red); default 0")
    ap.add_argument("--jokers", type=float, default=JOKERS, metavar="SHARE",
                    help="index crops: the share of the drawn scenes' cards that are printed "
                         f"jokers (default {JOKERS}, as the detector's scenes)")
    ap.add_argument("--hands", type=float, default=0.0, metavar="SHARE",
                    help="index crops: the share of drawn scenes that are a hand of 10-26 cards "
                         "held in a fan (default 0: none, and no draw is made for it)")
    ap.add_argument("--camera-slants", type=float, default=0.0, metavar="SHARE",
                    help="index crops: the share of drawn scenes not at a slant that a camera tilted "
                         "27-54 degrees from straight down sees (default 0: none, and no draw is made for it)")
    ap.add_argument("--partial-indices", action="store_true",
                    help="index crops: also the drawn scenes' indices partly under other cards, "
                         "taught by how much of their rank and suit shows (crops.partial_target)")
    ap.add_argument("--average", type=float, default=0.0, metavar="DECAY",
                    help="write the moving average of the weights over the steps (this decay a "
                         "step, e.g. 0.999) instead of the last ones, which go beside it as "
                         ".NAME.last.onnx; default 0: the last weights, no average kept")
    add_artwork_arguments(ap)
    args = ap.parse_args()
    precisions.resolve(args)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    photos: list[Photo] = load_photos(args.data, None if args.all else False)
    if args.detector and args.detector.is_file():
        print(f"{add_proposals(photos, args.detector)} detector proposals", flush=True)
    if args.kind == "index":
        synth = synthetic_photos(args.synth, args.seed + 2, scene_faces(args), table_textures(photos),
                                 crowded=args.crowded_share, jokers=args.jokers,
                                 hands=args.hands, camera=args.camera_slants)
        size, n_out, out = (CROP_W, CROP_H), N_OUT, args.out or DEFAULT_CLASSIFIER
        if args.crop:
            w, _, h = args.crop.partition("x")
            size = (int(w), int(h))
        meta = out.with_suffix(".json")
        if size != (CROP_W, CROP_H):
            meta.write_text(json.dumps({"crop": list(size)}) + "\n")
        elif meta.is_file():
            meta.unlink()

        def crops(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
            share = args.lightness_negatives
            real_x, real_y = index_crops(photos, rng, per_index=3, size=size, lightness_negatives=share)
            syn_x, syn_y = index_crops(synth, rng, per_index=1, background_per_photo=1, size=size,
                                       lightness_negatives=share)
            prop_x, prop_y = proposal_crops(photos, "index", rng, size=size, lightness_negatives=share)
            x = np.concatenate([real_x, syn_x, np.array(prop_x).reshape(-1, *real_x.shape[1:])])
            y = np.concatenate([real_y, syn_y, np.array(prop_y, np.int64)])
            if not args.partial_indices:
                return x, y
            part_x, part_y = partial_crops(synth, rng, size=size, lightness_negatives=share)
            return np.concatenate([x, part_x]), np.concatenate([np.eye(N_OUT, dtype=np.float32)[y], part_y])
    else:
        synth = synthetic_single_cards(args.synth, args.seed + 3, scene_faces(args))
        size, n_out, out = (CARD_W, CARD_H), N_CARD_OUT, args.out or DEFAULT_CARD_CLASSIFIER

        def crops(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
            real_x, real_y = card_crops(photos, rng, per_card=3)
            syn_x, syn_y = card_crops(synth, rng, per_card=1)
            prop_x, prop_y = proposal_crops(photos, "card", rng)
            return (np.concatenate([real_x, syn_x, np.array(prop_x).reshape(-1, *real_x.shape[1:])]),
                    np.concatenate([real_y, syn_y, np.array(prop_y, np.int64)]))
    model = IndexNet(size[0], size[1], n_out)
    if args.init_onnx is not None:
        was = crop_size(args.init_onnx, (CROP_W, CROP_H)) if args.kind == "index" else size
        grid = None if was == size else (model.channels, (was[1] // 8, was[0] // 8), (size[1] // 8, size[0] // 8))
        load_folded(str(args.init_onnx), *model.layers(), first_grid=grid)
        print(f"started from {args.init_onnx} (batch norms kept fixed"
              + (f"; first dense layer resampled from a {was[0]}x{was[1]} crop)" if grid else ")"), flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sig = {k: getattr(args, k) for k in ("kind", "steps", "all", "synth", "seed", "batch", "lr",
                                         "precision", "crop", "crowded_share", "no_artwork", "drawn_share",
                                         "styled_share", "typefaces")}
    if args.lightness_negatives:  # only when used, so the shipped runs' checkpoints still resume
        sig["lightness_negatives"] = args.lightness_negatives
    if args.kind == "index" and args.jokers != JOKERS:  # likewise (the card stage draws no such scenes)
        sig["jokers"] = args.jokers
    if args.kind == "index" and args.hands:  # likewise
        sig["hands"] = args.hands
    if args.kind == "index" and args.partial_indices:  # likewise
        sig["partial_indices"] = True
    if args.kind == "index" and args.camera_slants:  # likewise
        sig["camera_slants"] = args.camera_slants
    sig.update(init=str(args.init_onnx) if args.init_onnx else None,
               detector=args.detector.name if args.detector else None)
    if args.average:  # likewise
        sig["average"] = args.average
    average = state.Average(model, args.average) if args.average else None
    ckpt = state.checkpoint_of(out, args.init_onnx)  # an in-place stage's checkpoint apart
    if args.fresh:
        state.forget(ckpt)
    step = state.load(ckpt, sig, model, opt, rng, average)
    if step:
        print(f"resumed at step {step} of {args.steps}", flush=True)
    began, epoch = time.time(), 0
    sitting = args.minutes * 60 if args.minutes else float("inf")
    try:
        while step < args.steps and time.time() - began < sitting:
            # A checkpoint is made only here, between epochs, where the generator's state
            # fixes the next epoch's crops: a resumed run draws the same ones.
            if args.init_onnx is not None:
                freeze_norms(model)
            x, y = crops(rng)
            step, accuracy = fit_epoch(model, opt, x, y, rng, step, args, smoothing=0.05, average=average)
            epoch += 1
            print(f"epoch {epoch} step {step}/{args.steps} {(time.time() - began) / 60:.1f} min: "
                  f"{len(x)} crops, train acc {accuracy:.3f}", flush=True)
            state.save(ckpt, sig, step, model, opt, rng, average)
    except KeyboardInterrupt:
        pass  # the last checkpoint (an epoch's end) stands
    if step < args.steps:
        print(f"stopped at step {step} of {args.steps}; the same command resumes", flush=True)
        raise SystemExit(3)
    if average is None:
        export(model, out, size)
    else:
        last = out.with_name(f".{out.stem}.last.onnx")
        export(model, last, size)
        export(cast(IndexNet, average.model), out, size)
        print(f"wrote the last weights to {last}", flush=True)
    print(f"wrote {out} after {step} steps" + (f" (their moving average, decay {args.average})" if average else ""),
          flush=True)


if __name__ == "__main__":
    main()

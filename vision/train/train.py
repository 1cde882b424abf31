"""Rebuild ``vision/weights/cardnet.onnx`` from the shared photos (torch, on the CPU or a GPU).

Usage (from the repo root, with torch installed in the venv)::

    .venv/bin/python -m vision.train.train --steps 40000 [--minutes 90] [--fresh]
                                           [--step-seeds [--workers N]] [--device cuda]

The budget is ``--steps`` optimizer steps; the run keeps a checkpoint beside ``--out`` and the
same command carries on from it (``vision.train.state``). With ``--step-seeds`` each crop of
a batch is cut from a generator of its own (the run's seed, the step, its place in the
batch; ``vision.train.seeded``), so ``--workers`` processes can cut the batches between them
and any number of them cut the same ones; without it the crops come one after another from
the run's generator, as for the shipped detector. ``--device cuda`` runs the network on a GPU
(the same steps and data; the weights then differ from a CPU run's in the last bits).

With ``--bootstrap-steps`` a bootstrap model (photos only) first finds the corner indices on
the whole-card photos (``cards-ranks``), where they are not labelled; indices it reads with the
labelled rank become extra labels for the main run, which also mixes in drawn scenes
(``vision.synth``).

By default the held-out capture groups (``vision.train.split``) are left out of training, so
``bench/bench_see.py`` can report honest held-out figures; ``--all`` trains on every photo.
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from vision.detector import DEFAULT_WEIGHTS, INPUT_SIZE
from vision.synth import JOKERS
from vision.train import precisions, seeded, state
from vision.train.artwork import add_artwork_arguments, scene_faces
from vision.train.dataset import (
    Photo,
    add_pseudo_indices,
    load_photos,
    sample,
    synthetic_photos,
    table_textures,
)
from vision.train.net import N_CARD, N_INDEX, CardNet, freeze_norms, load_exported
from vision.train.seeded import Seed, SeededBatches

REPO = Path(__file__).resolve().parents[2]


def focal(logits: torch.Tensor, gt: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, per image weighted by ``weight`` (B,H,W)."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = (gt >= 1.0).float()
    neg = 1.0 - pos
    pos_l = -torch.log(p) * (1 - p) ** 2 * pos
    neg_l = -torch.log(1 - p) * p**2 * (1 - gt) ** 4 * neg
    n = (pos * weight).sum().clamp(min=1.0)
    return ((pos_l + neg_l) * weight).sum() / n


def loss_fn(out: torch.Tensor, t: dict[str, torch.Tensor]) -> torch.Tensor:
    ih, isz, icls = out[:, 0], out[:, 1:3], out[:, 3:3 + N_INDEX]
    o = 3 + N_INDEX
    ch, csz, ccls = out[:, o], out[:, o + 1:o + 3], out[:, o + 3:o + 3 + N_CARD]
    iv = t["ivalid"][:, None, None] * t["iignore"]
    cv = t["cvalid"][:, None, None].expand_as(t["ch"])
    loss = focal(ih, t["ih"], iv) + focal(ch, t["ch"], cv)
    for cls, target, valid in ((icls, t["icls"], t["ivalid"]), (ccls, t["ccls"], t["cvalid"])):
        tgt = torch.where(valid[:, None, None] > 0, target, torch.full_like(target, -1))
        if (tgt >= 0).any():
            loss = loss + F.cross_entropy(cls, tgt, ignore_index=-1)
    for sz, target, heat in ((isz, t["isz"], t["ih"]), (csz, t["csz"], t["ch"])):
        m = (heat >= 1.0).float()[:, None]
        if m.sum() > 0:
            loss = loss + 0.1 * (torch.abs(sz - target) * m).sum() / m.sum()
    return loss


def export(model: CardNet, path: Path) -> None:
    device = next(model.parameters()).device
    model.to("cpu")
    model.eval()
    x = torch.zeros(1, 3, INPUT_SIZE, INPUT_SIZE)
    torch.onnx.export(model, (x,), str(path), opset_version=13, dynamo=False,
                      input_names=["image"], output_names=["maps"],
                      dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}, "maps": {0: "n", 2: "map_h", 3: "map_w"}})
    model.train()
    model.to(device)


Crop = tuple[np.ndarray, dict[str, np.ndarray | np.float32]]
#: What the crop-cutting processes of ``--step-seeds`` read (left here before they fork):
#: the photos, the drawn scenes, the batch's size and drawn share, and the share of crops
#: turned to the other lightness.
_SOURCES: tuple[list[Photo], list[Photo], int, float, float] | None = None


def seeded_crop(seed: Seed, crop: int) -> Crop:
    """The crop at place ``i`` of step ``k``'s batch, ``seed`` being (run seed, k, i): which
    photos and drawn scenes make the batch comes from a generator of (run seed, k), the same
    in every process, and the crop itself from one of ``seed``."""
    if _SOURCES is None:
        raise RuntimeError("no photos to cut crops from")
    photos, synth, size, share, negatives = _SOURCES
    pick = np.random.default_rng(list(seed[:2]))
    n_synth = int(pick.binomial(size, share)) if synth else 0
    chosen = [photos[i] for i in pick.integers(len(photos), size=size - n_synth)]
    chosen += [synth[i] for i in pick.integers(len(synth), size=n_synth)] if n_synth else []
    return sample(chosen[seed[2]], np.random.default_rng(list(seed)), crop, negatives)


def signature(args: argparse.Namespace, total: int) -> dict[str, object]:
    """The arguments a run's result depends on (a checkpoint resumes only under the same)."""
    keys = ("seed", "batch", "crop", "synth", "synth_share", "lr", "all", "precision",
            "no_artwork", "drawn_share", "styled_share", "crowded_share", "typefaces")
    sig: dict[str, object] = {k: getattr(args, k, None) for k in keys}
    if getattr(args, "step_seeds", False):  # a checkpoint of the other way of cutting is another run
        sig["step_seeds"] = True
    if getattr(args, "jokers", JOKERS) != JOKERS:
        sig["jokers"] = args.jokers
    if getattr(args, "lightness_negatives", 0.0):  # only when used, so earlier checkpoints resume
        sig["lightness_negatives"] = args.lightness_negatives
    if getattr(args, "hands", 0.0):  # likewise
        sig["hands"] = args.hands
    if getattr(args, "camera_slants", 0.0):  # likewise
        sig["camera_slants"] = args.camera_slants
    sig.update(steps=total, init=str(args.init_onnx) if args.init_onnx else None,
               pseudo=str(args.pseudo) if args.pseudo else None)
    return sig


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--out", type=Path, default=DEFAULT_WEIGHTS)
    ap.add_argument("--steps", type=int, default=40000, help="optimizer steps (the budget)")
    ap.add_argument("--minutes", type=float, default=None,
                    help="stop this sitting after so many minutes; the same command resumes")
    ap.add_argument("--fresh", action="store_true", help="ignore a checkpoint and start over")
    ap.add_argument("--all", action="store_true", help="train on held-out photos too")
    ap.add_argument("--crop", type=int, default=224)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2, help="torch's CPU threads")
    precisions.add_argument(ap)
    seeded.add_arguments(ap, "--step-seeds", "crops")
    ap.add_argument("--pseudo", type=Path, default=None,
                    help="earlier weights that label indices on the whole-card photos")
    ap.add_argument("--bootstrap-steps", type=int, default=0,
                    help="first train a bootstrap model this many steps and use it as --pseudo")
    ap.add_argument("--synth", type=int, default=800, help="drawn scenes added to the photos")
    ap.add_argument("--synth-share", type=float, default=0.3,
                    help="share of each batch drawn from the synthetic scenes")
    ap.add_argument("--crowded-share", type=float, default=0.0,
                    help="share of drawn scenes that are whole crowded tables (see synthetic_photos)")
    ap.add_argument("--jokers", type=float, default=JOKERS,
                    help=f"share of the drawn scenes' cards that are printed jokers (default {JOKERS})")
    ap.add_argument("--lightness-negatives", type=float, default=0.0, metavar="SHARE",
                    help="share of crops turned to the other lightness with hues kept, as a "
                         "light-on-dark deck prints (default 0: none, and no draw is made for it)")
    ap.add_argument("--hands", type=float, default=0.0, metavar="SHARE",
                    help="share of drawn scenes that are a hand of 10-26 cards held in a fan "
                         "(default 0: none, and no draw is made for it)")
    ap.add_argument("--camera-slants", type=float, default=0.0, metavar="SHARE",
                    help="share of the drawn scenes not at a slant that a camera tilted 27-54 degrees "
                         "from straight down sees (default 0: none, and no draw is made for it)")
    ap.add_argument("--init-onnx", type=Path, default=None,
                    help="start from an exported detector (e.g. the shipped weights) and train on")
    ap.add_argument("--lr", type=float, default=2e-3, help="peak learning rate")
    add_artwork_arguments(ap)
    args = ap.parse_args()
    precisions.resolve(args)
    if args.workers and not args.step_seeds:
        raise SystemExit("error: --workers cuts crops in parallel only with --step-seeds")
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    photos = load_photos(args.data, None if args.all else False)
    if args.bootstrap_steps:
        boot = args.out.with_name(f".{args.out.stem}.bootstrap.onnx")
        print(f"bootstrap run: {args.bootstrap_steps} steps", flush=True)
        if not fit(photos, [], args, args.bootstrap_steps, boot, rng):
            raise SystemExit(3)
        args.pseudo = boot
    if args.pseudo:
        print(f"pseudo-labelled {add_pseudo_indices(photos, args.pseudo)} indices", flush=True)
    synth = (synthetic_photos(args.synth, args.seed + 1, scene_faces(args), table_textures(photos),
                              crowded=args.crowded_share, jokers=args.jokers,
                              hands=args.hands, camera=args.camera_slants)
             if args.synth else [])
    print(f"training on {len(photos)} photos + {len(synth)} drawn scenes for {args.steps} steps",
          flush=True)
    if not fit(photos, synth, args, args.steps, args.out, rng):
        raise SystemExit(3)


def fit(photos: list[Photo], synth: list[Photo], args: argparse.Namespace, total: int,
        out: Path, rng: np.random.Generator, finish: bool = False) -> bool:
    """Train a network for ``total`` steps (resuming its checkpoint) and export it to
    ``out``; False when the sitting's ``--minutes`` ran out first (the checkpoint is kept),
    unless ``finish``: then what was learnt by then is exported (a fine-tune's time budget)."""
    global _SOURCES
    step_seeded = getattr(args, "step_seeds", False)
    device = getattr(args, "device", "cpu")
    # the cutting processes are forked before the device starts threads of its own
    negatives = float(getattr(args, "lightness_negatives", 0.0))
    _SOURCES = (photos, synth, args.batch, args.synth_share, negatives)
    crops_for = SeededBatches(partial(seeded_crop, crop=args.crop), args.seed, args.batch, total,
                              getattr(args, "workers", 0) if step_seeded else 0)
    model = CardNet()
    init = getattr(args, "init_onnx", None)
    if init is not None:
        load_exported(model, str(init))
        print(f"started from {init} (batch norms kept fixed)", flush=True)
    model.to(device)
    peak = float(getattr(args, "lr", 2e-3))
    opt = torch.optim.AdamW(model.parameters(), lr=peak, weight_decay=1e-4)
    sig = signature(args, total)
    ckpt = state.checkpoint_of(out, init)  # an in-place stage's checkpoint apart
    if getattr(args, "fresh", False):
        state.forget(ckpt)
    step = state.load(ckpt, sig, model, opt, rng)
    if step:
        print(f"resumed at step {step} of {total}", flush=True)
    began = time.time()
    sitting = args.minutes * 60 if getattr(args, "minutes", None) else float("inf")
    running = 0.0
    stopped = False
    try:
        while step < total:
            if time.time() - began >= sitting:
                stopped = True
                break
            lr = state.cosine_lr(step, total, peak)
            for group in opt.param_groups:
                group["lr"] = lr
            if init is not None:
                freeze_norms(model)
            if step_seeded:
                batch = crops_for(step)
            else:
                n_synth = int(rng.binomial(args.batch, args.synth_share)) if synth else 0
                chosen = [photos[i] for i in rng.integers(len(photos), size=args.batch - n_synth)]
                chosen += [synth[i] for i in rng.integers(len(synth), size=n_synth)] if n_synth else []
                batch = [sample(p, rng, args.crop, negatives) for p in chosen]
            x = torch.from_numpy(np.stack([b[0] for b in batch]).transpose(0, 3, 1, 2).astype(np.float32))
            t = {k: torch.from_numpy(np.stack([b[1][k] for b in batch])) for k in batch[0][1]}
            x, t = x.to(device), {k: v.to(device) for k, v in t.items()}
            with state.precision(args.precision, device):
                maps = model(x)
            loss = loss_fn(maps.float(), t)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]  # torch leaves Tensor.backward unannotated
            opt.step()
            running = 0.98 * running + 0.02 * loss.item() if running else loss.item()
            step += 1
            if step % 100 == 0:
                rate = (time.time() - began) / 60
                print(f"step {step}/{total} {rate:.1f} min loss {running:.3f} lr {lr:.5f}", flush=True)
            if step % 500 == 0:
                state.save(ckpt, sig, step, model, opt, rng)
            if step % 5000 == 0:
                export(model, out.with_name(f".{out.stem}.partial.onnx"))
    except KeyboardInterrupt:
        stopped = True
    crops_for.close()
    state.save(ckpt, sig, step, model, opt, rng)
    if stopped and not finish:
        print(f"stopped at step {step} of {total}; the same command resumes", flush=True)
        return False
    export(model, out)
    print(f"wrote {out} after {step} steps", flush=True)
    return True


if __name__ == "__main__":
    main()

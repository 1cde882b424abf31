"""Train the learnt tile reader's detector (``vision/weights/tilenet.onnx``) on drawn tile
scenes (``vision.tile_synth``), from nothing, on the CPU.

Usage (from the repo root, with the ``train`` extra installed)::

    .venv/bin/python -m vision.train.train_tiles --steps 11200 --seed 0 --scene-seeds --threads 2

The budget is a number of optimizer steps, so a run is repeatable. With ``--scene-seeds``
each scene is drawn from a seed of its own (the run's seed, the step, its place in the
batch), so ``--workers`` processes can draw a batch between them and any number of them
draw the same batches; ``--device cuda`` runs the network on a GPU (the same steps and
data; the weights then differ from a CPU run's in the last bits). Every ``--every`` steps,
and when stopped (``--minutes``, Ctrl-C), the model, optimizer, step and both random
generators' states are saved to a checkpoint beside ``--out`` (``vision.train.state``); rerun
with the same arguments, the run goes on from there. It is also the ``tiles`` stage of
``python -m vision.train``. The forward pass runs in bfloat16 (autocast),
the loss in float32. Fonts and plastics held out for the benchmark are never drawn.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import time
from dataclasses import dataclass, fields
from functools import partial
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from vision.inference import file_sha256
from vision.tile_reader import N_NUMBERS, TILE_OUT, description
from vision.tile_synth import CASTS, JOLYS, SLANTS, SURFACES, tile_scene
from vision.train import precisions, seeded, state, typefaces
from vision.train.net import freeze_norms, load_exported
from vision.train.seeded import Seed, SeededBatches
from vision.train.tile_net import TileNet
from vision.train.tile_targets import FLAT, targets

REPO = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO / "vision" / "weights" / "tilenet.onnx"
#: The range of tile heights (pixels) drawn in training crops; the reader scales photos so
#: tiles reach the network near the middle of it (``vision.tile_reader.TARGET_TILE``).
TILE_PX = (22.0, 110.0)
#: The share of training scenes with playing cards lying among (or instead of) the tiles.
CARDS = 0.3


def focal(logits: torch.Tensor, gt: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = (gt >= 1.0).float()
    pos_l = -torch.log(p) * (1 - p) ** 2 * pos
    neg_l = -torch.log(1 - p) * p**2 * (1 - gt) ** 4 * (1 - pos)
    return (pos_l + neg_l).sum() / pos.sum().clamp(min=1.0)


def classes_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Cross-entropy of ``logits`` (N, C, H, W) against ``target`` (N, H, W) over the cells
    that name a class, ``-1`` cells ignored; a ``FLAT`` cell's target is every class alike
    (its loss the mean of the negative log-probabilities). The mean over the cells counted."""
    flat = target == FLAT
    if not flat.any():  # no cut numerals: the plain cross-entropy (the shipped recipe's numbers)
        return F.cross_entropy(logits, target, ignore_index=-1)
    logp = F.log_softmax(logits, dim=1)
    named = target >= 0
    picked = -logp.gather(1, target.clamp(min=0)[:, None])[:, 0]
    spread = -logp.mean(dim=1)
    total = (picked * named).sum() + (spread * flat).sum()
    return total / (named.sum() + flat.sum())


def loss_fn(out: torch.Tensor, t: dict[str, torch.Tensor]) -> tuple[torch.Tensor, dict[str, float]]:
    heat, size, up = out[:, 0], out[:, 1:3], out[:, 3:5]
    num, col = out[:, 5:5 + N_NUMBERS], out[:, 5 + N_NUMBERS:TILE_OUT]
    parts = {"heat": focal(heat, t["heat"])}
    m = (t["num"] != -1).float()[:, None]
    n = m.sum().clamp(min=1.0)
    zero = heat.sum() * 0
    parts["num"] = classes_loss(num, t["num"]) if (t["num"] != -1).any() else zero
    parts["col"] = 0.5 * classes_loss(col, t["col"]) if (t["col"] != -1).any() else zero
    parts["size"] = 0.1 * (torch.abs(size - t["size"]) * m).sum() / n
    parts["up"] = 0.2 * (torch.abs(up - t["up"]) * m).sum() / n
    total = sum(parts.values(), torch.zeros(()))
    return total, {k: float(v.detach()) for k, v in parts.items()}


Drawn = tuple[np.ndarray, dict[str, np.ndarray]]


@dataclass(frozen=True)
class SceneOptions:
    """What the training scenes are drawn with, as ``tile_scene``'s arguments of the same
    names: the version of the table surfaces, the range of the tiles' heights in pixels, the
    share of the cards' decks forced light on dark, the versions of the light's colour, of how
    slanted scenes are seen and of the Joly designs, and the share of the tiles laid at random
    made Jolys besides; and, for the targets, the share of a numeral that must show inside the
    crop for its tile to be named (``targets``' ``cut_below``; 0: every tile found is named).
    The defaults are the shipped reader's first tile stage's."""

    surfaces: str = "v1"
    tile_px: tuple[float, float] = TILE_PX
    dark_decks: float = 0.0
    casts: str = "v1"
    slants: str = "v1"
    jolys: str = "v1"
    joly_share: float = 0.0
    cut_numerals: float = 0.0

    def signature(self) -> dict[str, object]:
        """The options not at their defaults, for a checkpoint's signature (each left out at
        its default, so that the checkpoints of runs from before it existed still resume)."""
        return {f.name: list(v) if isinstance(v, tuple) else v
                for f in fields(self) if (v := getattr(self, f.name)) != f.default}


def draw(rng: np.random.Generator, crop: int, cards: float = 0.0,
         fonts: tuple[Path, ...] | None = None, card_fonts: tuple[Path, ...] | None = None,
         options: SceneOptions = SceneOptions()) -> Drawn:
    """One training scene drawn with ``options``, and its targets."""
    image, tiles = tile_scene(rng, (crop, crop), options.tile_px, cards=cards, fonts=fonts, card_fonts=card_fonts,
                              surfaces=options.surfaces, dark_decks=options.dark_decks, casts=options.casts,
                              slants=options.slants, jolys=options.jolys, joly_share=options.joly_share)
    return image, targets(tiles, crop, options.cut_numerals)


def draw_seeded(seed: Seed, crop: int, cards: float, fonts: tuple[Path, ...] | None,
                card_fonts: tuple[Path, ...] | None, options: SceneOptions = SceneOptions()) -> Drawn:
    """``draw`` from a seed of its own (run seed, step, place in the batch): a worker's task."""
    return draw(np.random.default_rng(list(seed)), crop, cards, fonts, card_fonts, options)


def stack(drawn: list[Drawn]) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """A batch of drawn scenes as tensors."""
    x = torch.from_numpy(np.stack([d[0] for d in drawn]).transpose(0, 3, 1, 2).astype(np.float32))
    return x, {k: torch.from_numpy(np.stack([d[1][k] for d in drawn])) for k in drawn[0][1]}


def batch(rng: np.random.Generator, n: int, crop: int, cards: float = 0.0,
          fonts: tuple[Path, ...] | None = None, card_fonts: tuple[Path, ...] | None = None,
          options: SceneOptions = SceneOptions()) -> tuple[torch.Tensor, dict[str, torch.Tensor]]:
    """``n`` scenes drawn one after another from ``rng``."""
    return stack([draw(rng, crop, cards, fonts, card_fonts, options) for _ in range(n)])


def tile_range(text: str) -> tuple[float, float]:
    """``MIN,MAX`` tile heights in pixels (0 < MIN < MAX); a clear exit otherwise."""
    try:
        low, high = (float(v) for v in text.split(","))
    except ValueError:
        raise SystemExit(f"error: --tile-px {text!r}: expected MIN,MAX in pixels, e.g. 16,80") from None
    if not 0 < low < high:
        raise SystemExit(f"error: --tile-px {text!r}: expected 0 < MIN < MAX")
    return low, high


def export(model: TileNet, path: Path, tile_px: tuple[float, float] = TILE_PX) -> None:
    """The model as ONNX with a dynamic batch and input size, and beside it its description
    (``vision.tile_reader.description``): the tile heights it learnt, from which the reader
    takes the size it looks at tiles, and the SHA-256 of the file it describes."""
    model.to("cpu")
    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.onnx")
    torch.onnx.export(model, (torch.zeros(1, 3, 256, 256),), str(tmp), opset_version=13, dynamo=False,
                      input_names=["image"], output_names=["maps"],
                      dynamic_axes={"image": {0: "n", 2: "h", 3: "w"}, "maps": {0: "n", 2: "map_h", 3: "map_w"}})
    os.replace(tmp, path)
    said = {"tile_px": list(tile_px), "weights_sha256": file_sha256(path)}
    sidecar = description(path)
    sidecar.with_suffix(".tmp").write_text(json.dumps(said, indent=1) + "\n", encoding="utf-8")
    os.replace(sidecar.with_suffix(".tmp"), sidecar)
    model.train()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=11200, help="optimizer steps (the budget)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--threads", type=int, default=2, help="torch's CPU threads")
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--crop", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    ap.add_argument("--width", type=int, default=16, help="the network's base width")
    ap.add_argument("--cards", type=float, default=CARDS,
                    help="share of scenes with playing cards on the table (not tiles: so that "
                         "the reader, and `see` choosing cards or tiles, is not fooled by a card)")
    ap.add_argument("--dark-decks", type=float, default=0.0, metavar="SHARE",
                    help="share of the scenes' card decks drawn light ink on dark card (their pips "
                         "are not tiles either); default 0, as the shipped reader")
    ap.add_argument("--every", type=int, default=200, help="steps between checkpoints")
    ap.add_argument("--minutes", type=float, default=None,
                    help="stop this sitting after so many minutes; the same command resumes")
    ap.add_argument("--fresh", action="store_true", help="ignore a checkpoint and start over")
    seeded.add_arguments(ap, "--scene-seeds", "scenes")
    ap.add_argument("--tile-px", default=",".join(f"{v:g}" for v in TILE_PX),
                    help="the range of tile heights drawn, in pixels: MIN,MAX (log-uniform; default "
                         "%(default)s), recorded beside the weights: the reader looks at tiles at its geometric "
                         "middle (vision.tile_reader.target_tile)")
    precisions.add_argument(ap, "float32")
    typefaces.add_argument(ap, "tiles-v1")
    ap.add_argument("--card-typefaces", default="cards-v1",
                    help="the pinned typeface list of the decks on tile tables (default cards-v1)")
    ap.add_argument("--surfaces", choices=tuple(SURFACES), default="v1",
                    help="the version of the table surfaces drawn (vision.tile_synth.SURFACES; "
                         "v2 adds speckled, granite and carpet tables; default v1)")
    ap.add_argument("--casts", choices=CASTS, default="v1",
                    help="the version of the light's colour drawn (vision.tile_synth.CASTS; v2 adds "
                         "strong casts to half the scenes; default v1, as the shipped reader's tile stage)")
    ap.add_argument("--slants", choices=SLANTS, default="v1",
                    help="the version of how slanted scenes are seen (vision.tile_synth.SLANTS; v2 sees "
                         "half of them by a tilted camera; default v1, as the shipped reader's tile stage)")
    ap.add_argument("--jolys", choices=tuple(v for v in JOLYS if v != "held-out"), default="v1",
                    help="the version of the Joly designs the sets print (vision.tile_synth.JOLYS; v2 adds "
                         "a jester, a clown, a crown, a star and a letter J to the three smiling faces, v3 "
                         "gives half the sets an emblem of random shapes instead; the scenes are otherwise "
                         "the same; default v1, as the shipped reader's tile stage)")
    ap.add_argument("--joly-share", type=float, default=0.0,
                    help="the share of the tiles laid at random (racks, scattered, random rows) made Jolys "
                         "besides those drawn as any tile (vision.tile_synth.tile_scene's joly_share; default 0, "
                         "no draw for it, as the shipped reader's tile stage)")
    ap.add_argument("--cut-numerals", type=float, default=0.0, metavar="SHARE",
                    help="a tile whose numeral shows less than SHARE of itself inside the crop is found but "
                         "taught no number (a flat target: read ??), nor a colour when under half shows "
                         "(default 0: named however little shows, as the shipped reader's stages)")
    ap.add_argument("--init-onnx", type=Path, default=None,
                    help="train on from these exported weights (their batch norms folded in and "
                         "kept fixed) instead of from random ones")
    args = ap.parse_args()
    precisions.resolve(args, "float32")
    tile_px = tile_range(args.tile_px)
    fonts, card_fonts = typefaces.required(args.typefaces), typefaces.required(args.card_typefaces)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    if args.workers and not args.scene_seeds:
        raise SystemExit("error: --workers draws scenes in parallel only with --scene-seeds")
    # the drawing processes are forked before the device starts threads of its own
    options = SceneOptions(args.surfaces, tile_px, args.dark_decks, args.casts, args.slants, args.jolys,
                           args.joly_share, args.cut_numerals)
    drawn_for = SeededBatches(partial(draw_seeded, crop=args.crop, cards=args.cards, fonts=fonts,
                                      card_fonts=card_fonts, options=options),
                              args.seed, args.batch, args.steps, args.workers)
    model = TileNet(args.width)
    if args.init_onnx is not None:
        load_exported(model, str(args.init_onnx))
        print(f"started from {args.init_onnx} (batch norms kept fixed)", flush=True)
    model.to(args.device)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sig = {k: getattr(args, k) for k in ("steps", "seed", "batch", "crop", "lr", "width", "cards",
                                         "typefaces", "card_typefaces")}
    if args.scene_seeds:  # a checkpoint of the other way of drawing is another run
        sig["scene_seeds"] = True
    # the scenes' options at their defaults (the shipped first tile stage's) stay out of it
    sig.update(options.signature())
    if args.init_onnx is not None:
        sig["init"] = str(args.init_onnx)
    ckpt = state.checkpoint_of(args.out, args.init_onnx)  # an in-place stage's checkpoint apart
    if args.fresh:
        state.forget(ckpt)
    step = state.load(ckpt, sig, model, opt, rng)
    if step:
        print(f"resumed at step {step} of {args.steps}", flush=True)
    warm = min(200, args.steps // 10)
    start = time.time()
    sitting = args.minutes * 60 if args.minutes else float("inf")
    running: dict[str, float] = {}
    try:
        while step < args.steps and time.time() - start < sitting:
            lr = args.lr * (step + 1) / warm if step < warm else \
                args.lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * (step - warm) / max(1, args.steps - warm))))
            for group in opt.param_groups:
                group["lr"] = lr
            if args.init_onnx is not None:
                freeze_norms(model)
            if args.scene_seeds:
                x, t = stack(drawn_for(step))
            else:
                x, t = batch(rng, args.batch, args.crop, args.cards, fonts, card_fonts, options)
            x, t = x.to(args.device), {k: v.to(args.device) for k, v in t.items()}
            with state.precision(args.precision, args.device):
                out = model(x)
            loss, parts = loss_fn(out.float(), t)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            step += 1
            for k, v in parts.items():
                running[k] = 0.95 * running.get(k, v) + 0.05 * v
            if step % 25 == 0:
                shown = " ".join(f"{k} {v:.3f}" for k, v in running.items())
                print(f"step {step}/{args.steps} {(time.time() - start) / 60:.1f} min lr {lr:.5f} "
                      f"loss {sum(running.values()):.3f} ({shown})", flush=True)
            if step % args.every == 0:
                state.save(ckpt, sig, step, model, opt, rng)
    except KeyboardInterrupt:
        pass
    drawn_for.close()
    state.save(ckpt, sig, step, model, opt, rng)
    if step < args.steps:
        print(f"stopped at step {step} of {args.steps}; the same command resumes", flush=True)
        raise SystemExit(3)
    export(model, args.out, tile_px)
    print(f"wrote {args.out} after {step} steps ({(time.time() - start) / 60:.1f} min this run)", flush=True)


if __name__ == "__main__":
    main()

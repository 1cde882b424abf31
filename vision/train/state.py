"""Training runs that stop and resume: a step budget, a cosine schedule on the step, and a
checkpoint holding everything the next step depends on.

A run's result is fixed by its arguments and seed, not by how busy the machine was: the
budget is counted in optimizer steps, the learning rate follows the step, and the checkpoint
(written every few hundred steps, and when a run is stopped) keeps the network, the
optimizer, the step and both random generators. Running the same command again carries on
from the checkpoint, so a run of several hours may be spread over several sittings.
"""

from __future__ import annotations

import copy
import math
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from vision.train import precisions
from vision.train.checkpoints import checkpoint_of as checkpoint_of  # the trainers name it here
from vision.train.checkpoints import state_path


def cosine_lr(step: int, total: int, peak: float, warmup: int = 300, floor: float = 2e-5) -> float:
    """The learning rate at ``step`` of ``total``: a linear warm-up, then half a cosine."""
    if step < warmup:
        return peak * (step + 1) / warmup
    frac = min(1.0, (step - warmup) / max(1, total - warmup))
    return peak * 0.5 * (1 + math.cos(math.pi * frac)) + floor


class Average:
    """An exponential moving average of a network's weights and batch-norm statistics over
    the optimizer's steps (``decay`` per step, ramped in from the first steps so that early
    random weights weigh little). It only reads the network: a run with it trains bit for bit
    as one without, and the average is a second network to export beside the last weights."""

    def __init__(self, model: nn.Module, decay: float) -> None:
        self.decay = decay
        self.model = copy.deepcopy(model).eval()
        for p in self.model.parameters():
            p.requires_grad_(False)
        # a state dict's entries are the live tensors, which the optimizer and load_state_dict
        # change in place: paired once, not looked up again every step
        self._pairs = list(zip(self.model.state_dict().values(), model.state_dict().values(), strict=True))

    def update(self, step: int) -> None:
        """Fold the network as it is after optimizer step ``step`` (counted from 1) in."""
        d = min(self.decay, (1 + step) / (10 + step))
        with torch.no_grad():
            for mine, theirs in self._pairs:
                if mine.dtype.is_floating_point:
                    mine.mul_(d).add_(theirs, alpha=1 - d)
                else:
                    mine.copy_(theirs)


def save(out: Path, signature: dict[str, Any], step: int, model: nn.Module,
         opt: torch.optim.Optimizer, rng: np.random.Generator, average: Average | None = None) -> None:
    """Write the checkpoint atomically (a power cut leaves the previous one whole)."""
    path = state_path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    kept = {"signature": signature, "step": step, "model": model.state_dict(),
            "opt": opt.state_dict(), "rng": rng.bit_generator.state,
            "torch_rng": torch.get_rng_state()}
    if average is not None:
        kept["average"] = average.model.state_dict()
    torch.save(kept, tmp)
    os.replace(tmp, path)


def load(out: Path, signature: dict[str, Any], model: nn.Module, opt: torch.optim.Optimizer,
         rng: np.random.Generator, average: Average | None = None) -> int:
    """Restore a checkpoint made with the same ``signature``; the step to go on from (0 with
    none). A checkpoint of other arguments is refused with the difference named."""
    path = state_path(out)
    if not path.is_file():
        return 0
    state = torch.load(path, weights_only=False, map_location="cpu")
    if state["signature"] != signature:
        diff = sorted(k for k in set(signature) | set(state["signature"])
                      if signature.get(k) != state["signature"].get(k))
        raise SystemExit(f"error: {path} belongs to a run with other arguments ({', '.join(diff)}); "
                         "pass --fresh to start over")
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["opt"])
    rng.bit_generator.state = state["rng"]
    torch.set_rng_state(state["torch_rng"])
    if average is not None:
        average.model.load_state_dict(state["average"])
    return int(state["step"])


def finished(out: Path, signature: dict[str, Any], total: int) -> bool:
    """Whether ``out`` is the finished result of a run with these arguments."""
    path = state_path(out)
    if not (out.is_file() and path.is_file()):
        return False
    state = torch.load(path, weights_only=False, map_location="cpu")
    return bool(state["signature"] == signature and int(state["step"]) >= total)


def epoch_batches(x: np.ndarray, y: np.ndarray, rng: np.random.Generator, step: int,
                  args: Any, opt: torch.optim.Optimizer) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """The batches of one pass over the crops ``x`` (N, H, W, 3) and targets ``y``, in an
    order drawn from ``rng``, ``args.batch`` at a time, until ``args.steps`` counting on from
    ``step``, one optimizer step each: before each, the learning rate is set for its step
    (``cosine_lr`` from ``args.lr``). Crops come channels first, as float32."""
    order = rng.permutation(len(x))
    for i in range(0, len(order), args.batch):
        if step >= args.steps:
            return
        for group in opt.param_groups:
            group["lr"] = cosine_lr(step, args.steps, args.lr, warmup=100, floor=1e-5)
        idx = order[i:i + args.batch]
        yield torch.from_numpy(x[idx].transpose(0, 3, 1, 2).astype(np.float32)), torch.from_numpy(y[idx])
        step += 1


def start(out: Path, signature: dict[str, Any], model: nn.Module, opt: torch.optim.Optimizer,
          rng: np.random.Generator, fresh: bool, total: int) -> int:
    """The step a run begins at: its checkpoint dropped first when ``fresh``, else restored
    (``load``, said when there was one)."""
    if fresh:
        forget(out)
    step = load(out, signature, model, opt, rng)
    if step:
        print(f"resumed at step {step} of {total}", flush=True)
    return step


def run_epochs(out: Path, signature: dict[str, Any], step: int, total: int, minutes: float | None,
               began: float, model: nn.Module, opt: torch.optim.Optimizer, rng: np.random.Generator,
               epoch: Callable[[int], tuple[int, str]]) -> int:
    """Epochs from ``step`` until ``total`` steps, or until this sitting's ``minutes`` (counted
    from ``began``) are spent, each saved as the checkpoint at its end (stopped with Ctrl-C,
    the last one stands). ``epoch`` runs one from the step reached and gives the step it
    reached and what to print of it. Short of ``total``, says so and exits with status 3
    (the same command resumes); the step reached otherwise."""
    sitting = minutes * 60 if minutes else float("inf")
    count = 0
    try:
        while step < total and time.time() - began < sitting:
            step, said = epoch(step)
            count += 1
            print(f"epoch {count} step {step}/{total} {(time.time() - began) / 60:.1f} min: {said}", flush=True)
            save(out, signature, step, model, opt, rng)
    except KeyboardInterrupt:
        pass  # the last checkpoint (an epoch's end) stands
    if step < total:
        print(f"stopped at step {step} of {total}; the same command resumes", flush=True)
        raise SystemExit(3)
    return step


def forget(out: Path) -> None:
    """Drop the checkpoint (``--fresh``)."""
    state_path(out).unlink(missing_ok=True)


@contextmanager
def precision(name: str, device: str = "cpu") -> Iterator[None]:
    """The forward pass in bfloat16 (about 1.7 times faster on CPUs with bf16 instructions;
    the weights and the loss stay float32) or plain float32, on ``device``'s kind; ``auto``
    as ``vision.train.precisions.chosen`` means it there."""
    with torch.autocast(torch.device(device).type, dtype=torch.bfloat16,
                        enabled=precisions.chosen(name, str(device)) == "bf16"):
        yield

"""Which arithmetic a training run's forward passes use: bfloat16 where the processor has it,
float32 where it would be emulated.

The shipped weights were trained with bfloat16 forward passes (the weights and losses stay
float32): on a CPU with bfloat16 instructions (AVX512_BF16, AMX) that is about 1.7 times
faster than float32. A CPU without them (an AMD EPYC without AVX-512, say) emulates it, and
there a detector step took 14.9 s against 0.73 in float32 and an index-classifier step 2.2 s
against 0.16 (two threads, the enrolment fine-tunes' batches). So every trainer, and
enrolment's fine-tunes, take ``auto`` by default: bfloat16 on a GPU or where the CPU has the
instructions (or where that cannot be told), float32 otherwise. The choice changes the
arithmetic's last bits, not the data or the schedule. Torch-free, so the command line can
plan its stages without the training extra.
"""

from __future__ import annotations

import argparse
from functools import cache
from pathlib import Path
from typing import Final

#: The default of every trainer's ``--precision``: chosen by the processor (``chosen``).
AUTO: Final = "auto"


@cache
def native_bf16() -> bool | None:
    """Whether this CPU has bfloat16 instructions (None where it cannot be told: not Linux);
    read once a process."""
    try:
        flags = Path("/proc/cpuinfo").read_text()
    except OSError:
        return None
    return "avx512_bf16" in flags or "amx_bf16" in flags


def chosen(name: str, device: str = "cpu", fp32: str = "fp32") -> str:
    """The arithmetic ``name`` means on ``device``: itself, or for ``auto`` ``bf16`` on a GPU
    or a CPU with bfloat16 instructions (or one that cannot be told) and float32 on a CPU that
    would emulate it, by the trainer's name for float32 (``fp32``)."""
    if name != AUTO:
        return name
    if not device.startswith("cpu"):
        return "bf16"
    return fp32 if native_bf16() is False else "bf16"


def add_argument(ap: argparse.ArgumentParser, fp32: str = "fp32") -> None:
    """A trainer's ``--precision`` option (``auto`` by default; ``chosen`` resolves it)."""
    ap.add_argument("--precision", choices=(AUTO, "bf16", fp32), default=AUTO,
                    help=f"the forward pass's arithmetic (bf16: weights and loss stay float32); "
                         f"auto (default): bf16 on a GPU or a CPU with bfloat16 instructions, "
                         f"{fp32} on one that would emulate it many times slower")


def resolve(args: argparse.Namespace, fp32: str = "fp32") -> None:
    """Set a trainer's parsed ``args.precision`` to what it means here (``chosen``, on
    ``args.device`` where the trainer has one), saying so when ``auto`` chose float32."""
    asked = args.precision
    args.precision = chosen(asked, getattr(args, "device", "cpu"), fp32)
    if asked == AUTO and args.precision == fp32:
        print(f"precision: {fp32} (this CPU has no bfloat16 instructions; bf16 would be emulated)", flush=True)

"""Where a training run keeps its checkpoint (no torch needed to name it)."""

from __future__ import annotations

import os
from pathlib import Path


def state_path(out: Path) -> Path:
    """Where the checkpoint of a run writing ``out`` lives (beside it, hidden)."""
    return out.with_name(f".{out.stem}.state.pt")


def checkpoint_of(out: Path, init: Path | None) -> Path:
    """The name a run writing ``out`` from ``init`` keeps its checkpoint under (the ``out``
    that ``vision.train.state``'s ``save``, ``load`` and ``forget`` take): ``out`` itself,
    but for a run that trains ``out`` on in place (a recipe stage refining the stage before
    it) a name of its own, so the finished checkpoint of the run that made ``out`` is neither
    taken for its own nor written over."""
    if init is not None and Path(os.path.abspath(init)) == Path(os.path.abspath(out)):
        return out.with_name(f"{out.stem}.trained-on{out.suffix}")
    return out

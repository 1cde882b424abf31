"""Running the shipped ONNX networks on the CPU.

onnxruntime runs them about twice as fast as OpenCV's ``dnn`` module, so it is used wherever
it is installed (a dependency of the kit on every platform it has wheels for, the Pi's 64-bit
OS included); elsewhere OpenCV runs them. Both give the same outputs to within float rounding.
``TABLEKIT_DNN=opencv`` (or ``onnxruntime``) in the environment picks one by hand.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.errors import VisionError

BACKENDS: Final = ("onnxruntime", "opencv")


def default_backend() -> str:
    """The backend named by ``TABLEKIT_DNN``, else onnxruntime when it imports, else OpenCV."""
    chosen = os.environ.get("TABLEKIT_DNN", "").strip().lower()
    if chosen:
        if chosen not in BACKENDS:
            raise VisionError(f"TABLEKIT_DNN={chosen!r}: expected one of {', '.join(BACKENDS)}")
        return chosen
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return "opencv"
    return "onnxruntime"


class Network:
    """One loaded network: call it with a float32 NCHW batch, get its first output."""

    def __init__(self, path: Path, backend: str) -> None:
        self.path, self.backend = path, backend
        if not path.is_file():
            raise VisionError(f"network weights not found: {path}")
        self._run = _onnxruntime(path) if backend == "onnxruntime" else _opencv(path)

    def __call__(self, batch: np.ndarray) -> np.ndarray:
        return self._run(np.ascontiguousarray(batch, np.float32))


def _onnxruntime(path: Path) -> Callable[[np.ndarray], np.ndarray]:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 3
    options.inter_op_num_threads = 1
    # idle threads would otherwise spin after each run, taking the CPU from OpenCV's own work
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types for bad files
        raise VisionError(f"cannot load network weights {path}: {exc}") from None
    name = session.get_inputs()[0].name

    def run(batch: np.ndarray) -> np.ndarray:
        out: np.ndarray = session.run(None, {name: batch})[0]
        return out

    return run


def _opencv(path: Path) -> Callable[[np.ndarray], np.ndarray]:
    try:
        net = cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as exc:
        raise VisionError(f"cannot load network weights {path}: {exc}") from None

    def run(batch: np.ndarray) -> np.ndarray:
        net.setInput(batch)
        out: np.ndarray = net.forward()
        return out

    return run


def load_network(path: Path, backend: str | None = None) -> Network:
    """The network in ``path``, loaded once per backend and kept."""
    return _load(str(path), backend or default_backend())


@lru_cache(maxsize=8)
def _load(path: str, backend: str) -> Network:
    return Network(Path(path), backend)

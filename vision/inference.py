"""Running the shipped ONNX networks on the CPU.

onnxruntime runs them about twice as fast as OpenCV's ``dnn`` module, so it is used wherever
it is installed (a dependency of the kit on every platform it has wheels for, the Pi's 64-bit
OS included); elsewhere OpenCV runs them. Both give the same outputs to within float rounding.
``TABLEKIT_DNN=opencv`` (or ``onnxruntime``) in the environment picks one by hand.

Beside a network's weights may lie an 8-bit copy (``NAME.int8.onnx``, built by
``vision.train.quantize`` from the float file and the inputs the kit really feeds it), which
onnxruntime runs two to three times faster. It is used only when it records the SHA-256 of
the float file beside it, so a retrained network never runs with a stale copy, and only on
onnxruntime (OpenCV runs the float file). ``TABLEKIT_PRECISION=float`` runs the float files.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.errors import VisionError

BACKENDS: Final = ("onnxruntime", "opencv")
#: ``int8``: a network's current 8-bit copy where there is one (onnxruntime only); ``float``:
#: the float weights always.
PRECISIONS: Final = ("int8", "float")
#: The metadata key under which an 8-bit copy records the SHA-256 of its float source.
SOURCE_KEY: Final = "tablekit_source_sha256"


def _env_choice(name: str, allowed: tuple[str, ...]) -> str | None:
    """The value of environment variable ``name`` (trimmed, lower case), None when unset or
    empty; a value not in ``allowed`` is an error naming them."""
    chosen = os.environ.get(name, "").strip().lower()
    if chosen and chosen not in allowed:
        raise VisionError(f"{name}={chosen!r}: expected one of {', '.join(allowed)}")
    return chosen or None


def default_backend() -> str:
    """The backend named by ``TABLEKIT_DNN``, else onnxruntime when it imports, else OpenCV."""
    chosen = _env_choice("TABLEKIT_DNN", BACKENDS)
    if chosen:
        return chosen
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return "opencv"
    return "onnxruntime"


def default_precision() -> str:
    """The precision named by ``TABLEKIT_PRECISION``, else ``int8``."""
    return _env_choice("TABLEKIT_PRECISION", PRECISIONS) or "int8"


def int8_copy(path: Path) -> Path:
    """Where the 8-bit copy of the network in ``path`` lies (``NAME.int8.onnx``)."""
    return path.with_name(f"{path.stem}.int8.onnx")


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


#: Each recorder (``recording``): the weights it watches and the batches fed to them.
_recorders: list[tuple[frozenset[str], dict[str, list[np.ndarray]]]] = []


@contextmanager
def recording(*paths: Path) -> Iterator[dict[str, list[np.ndarray]]]:
    """While open, every batch fed to the networks of ``paths`` is kept, by path (as a
    string), in the dictionary it gives: the inputs an 8-bit copy is calibrated on are the
    ones the kit really gives the network."""
    seen: dict[str, list[np.ndarray]] = {str(p): [] for p in paths}
    entry = (frozenset(seen), seen)
    _recorders.append(entry)
    try:
        yield seen
    finally:
        _recorders.remove(entry)


class Network:
    """One loaded network: call it with a float32 NCHW batch, get its first output.
    ``ran`` is the file it runs: ``path`` or its current 8-bit copy."""

    def __init__(self, path: Path, backend: str, precision: str = "float") -> None:
        self.path, self.backend = path, backend
        if not path.is_file():
            raise VisionError(f"network weights not found: {path}")
        if backend == "onnxruntime":
            self._run, self.ran = _onnxruntime(path, int8_copy(path) if precision == "int8" else None)
        else:
            self._run, self.ran = _opencv(path), path

    def __call__(self, batch: np.ndarray) -> np.ndarray:
        batch = np.ascontiguousarray(batch, np.float32)
        for watched, seen in _recorders:
            if str(self.path) in watched:
                seen[str(self.path)].append(batch.copy())
        return self._run(batch)


def _onnxruntime(path: Path, int8: Path | None = None) -> tuple[Callable[[np.ndarray], np.ndarray], Path]:
    """A run function over the network in ``path``, or over ``int8`` (its 8-bit copy) when
    that file is there and records ``path``'s SHA-256; and the file it runs."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.log_severity_level = 3
    options.inter_op_num_threads = 1
    # idle threads would otherwise spin after each run, taking the CPU from OpenCV's own work
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    session, ran = None, path
    if int8 is not None and int8.is_file():
        try:
            session = ort.InferenceSession(str(int8), options, providers=["CPUExecutionProvider"])
        except Exception:  # a broken copy: the float file runs instead
            session = None
        if session is not None and session.get_modelmeta().custom_metadata_map.get(SOURCE_KEY) != file_sha256(path):
            session = None  # made from other float weights: stale
        ran = path if session is None else int8
    if session is None:
        try:
            session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types for bad files
            raise VisionError(f"cannot load network weights {path}: {exc}") from None
    name = session.get_inputs()[0].name

    def run(batch: np.ndarray) -> np.ndarray:
        out: np.ndarray = session.run(None, {name: batch})[0]
        return out

    return run, ran


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


def load_network(path: Path, backend: str | None = None, precision: str | None = None) -> Network:
    """The network in ``path``, loaded once per backend and precision and kept (loaded again
    when the file, or the 8-bit copy that precision would run, has been written since)."""
    precision = precision or default_precision()
    copy = _stamp(int8_copy(path)) if precision == "int8" else None
    return _load(str(path), backend or default_backend(), precision, _stamp(path), copy)


def _stamp(path: Path) -> tuple[int, int] | None:
    """A file's modification time and size, or None where there is no file."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


@lru_cache(maxsize=16)
def _load(path: str, backend: str, precision: str, _file: tuple[int, int] | None,
          _copy: tuple[int, int] | None) -> Network:
    return Network(Path(path), backend, precision)

"""onnxruntime's static quantization of a crop classifier (``quantize``): the one step both
the recipe's ``int8`` stage (``vision.train.quantize``) and enrolment's tuned classifier
(``vision.train.fine_tune.quantize_index``) take. It reads no photo itself: it is given the
inputs the kit fed the float network."""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.inference import SOURCE_KEY, file_sha256


def quantize(src: Path, batches: Sequence[np.ndarray], out: Path) -> None:
    """Write ``out``, the 8-bit copy of the ONNX network ``src`` with its activations' ranges
    measured on ``batches`` (float32 NCHW inputs as the kit feeds them), recording ``src``'s
    SHA-256."""
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    if not batches:
        raise ValueError(f"no inputs to measure {src.name}'s activations on")
    name = onnx.load(str(src)).graph.input[0].name

    class Reader(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.left = iter(batches)

        def get_next(self) -> dict[str, np.ndarray] | None:
            batch = next(self.left, None)
            return None if batch is None else {name: batch}

    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(src), str(prepared), skip_symbolic_shape=True)
        first = next(n.name for n in onnx.load(str(prepared)).graph.node if n.op_type == "Conv")
        quantize_static(str(prepared), str(out), Reader(), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8, nodes_to_exclude=[first])
    model = onnx.load(str(out))
    del model.metadata_props[:]
    model.metadata_props.add(key=SOURCE_KEY, value=file_sha256(src))
    onnx.save(model, str(out))

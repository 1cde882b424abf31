"""Index classifiers joined into one network that reads as their consensus (``vision.train.ensemble``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from vision.classifier import DEFAULT_CARD_CLASSIFIER, DEFAULT_CLASSIFIER, classify_crops
from vision.train.ensemble import join, main, member, members, write


def _other(seed: int) -> onnx.ModelProto:
    """The shipped index classifier with its last layer's weights shaken: another network of
    the same shape that reads differently."""
    model = onnx.load(str(DEFAULT_CLASSIFIER))
    last = [n for n in model.graph.node if n.op_type == "Gemm"][-1]
    for tensor in model.graph.initializer:
        if tensor.name in last.input[1:]:
            values = numpy_helper.to_array(tensor).copy()
            values += np.random.default_rng(seed).normal(0, 0.5, values.shape).astype(values.dtype)
            tensor.CopyFrom(numpy_helper.from_array(values, tensor.name))
    return model


def _crops(n: int = 7) -> list[np.ndarray]:
    rng = np.random.default_rng(2)
    return [rng.integers(0, 256, (48, 32, 3), dtype=np.uint8) for _ in range(n)]


def test_a_join_reads_as_the_normalized_geometric_mean_of_its_members(tmp_path: Path) -> None:
    paths = []
    for k, model in enumerate((onnx.load(str(DEFAULT_CLASSIFIER)), _other(1), _other(2))):
        write(model, tmp_path / f"m{k}.onnx")
        paths.append(tmp_path / f"m{k}.onnx")
    joined = tmp_path / "joined.onnx"
    assert main(["--out", str(joined), *map(str, paths)]) == 0
    crops = _crops()
    each = [classify_crops(crops, p) for p in paths]
    assert not np.allclose(each[0], each[1], atol=1e-3)  # the members do read differently
    geometric = np.exp(np.mean(np.log(np.clip(each, 1e-30, None)), axis=0))
    np.testing.assert_allclose(classify_crops(crops, joined), geometric / geometric.sum(axis=1, keepdims=True),
                               atol=1e-5)
    assert members(onnx.load(str(joined))) == 3


def test_each_member_comes_back_out_whole(tmp_path: Path) -> None:
    models = [onnx.load(str(DEFAULT_CLASSIFIER)), _other(3)]
    joined = join(models)
    crops = _crops()
    for k, model in enumerate(models):
        write(model, tmp_path / "alone.onnx")
        write(member(joined, k), tmp_path / "back.onnx")
        np.testing.assert_array_equal(classify_crops(crops, tmp_path / "back.onnx"),
                                      classify_crops(crops, tmp_path / "alone.onnx"))
    # a network of its own is its own first member, and has no other
    assert member(models[0]) is models[0]
    with pytest.raises(ValueError, match="no member 2: the network joins 2"):
        member(joined, 2)


def test_what_cannot_be_joined_is_refused_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index = onnx.load(str(DEFAULT_CLASSIFIER))
    with pytest.raises(ValueError, match="two networks or more"):
        join([index])
    with pytest.raises(ValueError, match="differ in their input or output"):
        join([index, onnx.load(str(DEFAULT_CARD_CLASSIFIER))])
    with pytest.raises(ValueError, match="itself a join"):
        join([join([index, index]), index])
    assert main(["--out", str(tmp_path / "j.onnx"), str(DEFAULT_CLASSIFIER), str(tmp_path / "none.onnx")]) == 1
    assert "no such network" in capsys.readouterr().err and not (tmp_path / "j.onnx").exists()

"""Running the shipped networks (``vision/inference.py``): onnxruntime and OpenCV agree on the
float files, any batch and detector input size runs, and bad weights or a bad backend name are named."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from vision.classifier import (
    CARD_H,
    CARD_W,
    CROP_H,
    CROP_W,
    DEFAULT_CARD_CLASSIFIER,
    DEFAULT_CLASSIFIER,
    N_CARD_OUT,
    N_OUT,
)
from vision.detector import DEFAULT_WEIGHTS
from vision.errors import VisionError
from vision.inference import default_backend, default_precision, load_network
from vision.synth import scene


@pytest.mark.parametrize(("weights", "shape", "n_out"), [
    (DEFAULT_CLASSIFIER, (7, 3, CROP_H, CROP_W), N_OUT),
    (DEFAULT_CARD_CLASSIFIER, (3, 3, CARD_H, CARD_W), N_CARD_OUT),
])
def test_both_backends_read_a_batch_of_crops_alike(weights: Path, shape: tuple[int, ...], n_out: int) -> None:
    batch = np.random.default_rng(1).integers(0, 256, shape).astype(np.float32)
    fast = load_network(weights, "onnxruntime", "float")(batch)
    plain = load_network(weights, "opencv")(batch)
    assert fast.shape == plain.shape == (shape[0], n_out)
    np.testing.assert_allclose(fast, plain, atol=1e-3)
    assert not np.allclose(fast[0], fast[1])  # the crops really were read one by one


@pytest.mark.parametrize("size", [384, 256, 192])
def test_both_backends_run_the_detector_on_a_drawn_table_at_each_input_size(size: int) -> None:
    image, _ = scene(np.random.default_rng(5), (size, size), [["4S", "5S", "6S"]])
    blob = image.transpose(2, 0, 1)[None].astype(np.float32)
    fast = load_network(DEFAULT_WEIGHTS, "onnxruntime", "float")(blob)
    plain = load_network(DEFAULT_WEIGHTS, "opencv")(blob)
    assert fast.shape[2:] == (size // 4, size // 4)
    np.testing.assert_allclose(fast, plain, atol=1e-2)


@pytest.mark.parametrize(("variable", "choose", "default", "given", "chosen", "bad"), [
    ("TABLEKIT_DNN", default_backend, "onnxruntime", "OpenCV", "opencv", "tensorflow"),
    ("TABLEKIT_PRECISION", default_precision, "int8", " Float ", "float", "int4"),
])
def test_the_environment_chooses_the_backend_and_the_precision(
        monkeypatch: pytest.MonkeyPatch, variable: str, choose: Callable[[], str], default: str,
        given: str, chosen: str, bad: str) -> None:
    monkeypatch.delenv(variable, raising=False)
    assert choose() == default
    monkeypatch.setenv(variable, given)
    assert choose() == chosen
    monkeypatch.setenv(variable, bad)
    with pytest.raises(VisionError, match=f"{variable}='{bad}'"):
        choose()


@pytest.mark.parametrize("backend", ["onnxruntime", "opencv"])
def test_missing_or_broken_weights_are_named(tmp_path: Path, backend: str) -> None:
    with pytest.raises(VisionError, match="not found: .*nothing.onnx"):
        load_network(tmp_path / "nothing.onnx", backend)
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not a network")
    with pytest.raises(VisionError, match="cannot load network weights .*broken.onnx"):
        load_network(broken, backend)


def test_looks_at_one_size_share_one_read_only_letterbox_while_sharing() -> None:
    from vision.detector import letterbox, sharing_letterboxes

    image = np.random.default_rng(2).integers(0, 256, (300, 400, 3), np.uint8)
    other = image.copy()
    alone, scale = letterbox(image, 128)
    assert letterbox(image, 128)[0] is not alone and alone.flags.writeable
    with sharing_letterboxes():
        first, first_scale = letterbox(image, 128)
        assert letterbox(image, 128)[0] is first and not first.flags.writeable
        assert np.array_equal(first, alone) and first_scale == scale
        assert letterbox(image, 96)[0] is not first  # another size is made anew
        assert letterbox(other, 128)[0] is not first  # so is another image, however alike
    assert letterbox(image, 128)[0] is not first  # closed: nothing kept


def test_an_8_bit_copy_written_after_its_network_was_loaded_is_run_from_then_on(tmp_path: Path) -> None:
    from vision.inference import int8_copy

    net = tmp_path / "indexnet.onnx"
    net.write_bytes(DEFAULT_CLASSIFIER.read_bytes())
    assert load_network(net, "onnxruntime", "int8").ran == net  # no copy yet: the float file
    int8_copy(net).write_bytes(int8_copy(DEFAULT_CLASSIFIER).read_bytes())
    assert load_network(net, "onnxruntime", "int8").ran == int8_copy(net)
    assert load_network(net, "onnxruntime", "float").ran == net

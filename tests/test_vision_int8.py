"""The crop classifiers' 8-bit copies (``vision.train.quantize``, run by ``vision.inference``):
the shipped ones are current and read real cards as the float networks do; a stale, broken or
unwanted copy is never run; calibration records what the kit feeds a network."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from bench_int8 import labelled_crops  # noqa: E402

from vision.classifier import (  # noqa: E402
    DEFAULT_CARD_CLASSIFIER,
    DEFAULT_CLASSIFIER,
    DEFAULT_TURN,
    N_OUT,
    classify_crops,
    turn_directions,
)
from vision.inference import (  # noqa: E402
    SOURCE_KEY,
    file_sha256,
    int8_copy,
    load_network,
    recording,
)
from vision.train.dataset import load_corners  # noqa: E402
from vision.train.int8 import quantize  # noqa: E402
from vision.train.quantize import NETS  # noqa: E402

PHOTOS = Path(__file__).parent / "data" / "photos" / "cards-corners"


def _labelled_index_crops() -> tuple[np.ndarray, np.ndarray]:
    """Crops of every labelled index in the real photos kept in the repository, in its box
    and in boxes a fifth smaller and a quarter larger (as the kit reads unsure ones)."""
    return labelled_crops(load_corners(PHOTOS))["index"]


@pytest.mark.parametrize("stem", NETS)
def test_each_shipped_copy_was_made_from_the_shipped_float_network(stem: str) -> None:
    float_file = DEFAULT_CLASSIFIER.with_name(f"{stem}.onnx")
    copy = int8_copy(float_file)
    meta = {p.key: p.value for p in onnx.load(str(copy)).metadata_props}
    assert meta[SOURCE_KEY] == file_sha256(float_file)
    assert load_network(float_file, "onnxruntime", "int8").ran == copy
    assert load_network(float_file, "onnxruntime", "float").ran == float_file
    assert load_network(float_file, "opencv", "int8").ran == float_file  # OpenCV runs the float file


def test_the_8_bit_index_classifier_reads_real_cards_as_the_float_one_does() -> None:
    blob, truth = _labelled_index_crops()
    assert len(blob) >= 60
    fast = load_network(DEFAULT_CLASSIFIER, "onnxruntime", "int8")(blob).argmax(axis=1)
    exact = load_network(DEFAULT_CLASSIFIER, "onnxruntime", "float")(blob).argmax(axis=1)
    assert np.mean(fast == exact) >= 0.95, np.mean(fast == exact)
    assert np.mean(fast == truth) >= np.mean(exact == truth) - 0.03


def test_a_stale_or_broken_copy_is_not_run(tmp_path: Path) -> None:
    float_file = tmp_path / "indexnet.onnx"
    shutil.copy(DEFAULT_CLASSIFIER, float_file)
    shutil.copy(int8_copy(DEFAULT_CLASSIFIER), int8_copy(float_file))
    assert load_network(float_file, "onnxruntime", "int8").ran == int8_copy(float_file)
    # the float network retrained (here: only its description changed): the copy is stale
    retrained = tmp_path / "retrained.onnx"
    model = onnx.load(str(DEFAULT_CLASSIFIER))
    model.doc_string = "retrained"
    onnx.save(model, str(retrained))
    shutil.copy(int8_copy(DEFAULT_CLASSIFIER), int8_copy(retrained))
    assert load_network(retrained, "onnxruntime", "int8").ran == retrained
    broken = tmp_path / "broken.onnx"
    shutil.copy(DEFAULT_CLASSIFIER, broken)
    int8_copy(broken).write_bytes(b"not a network")
    net = load_network(broken, "onnxruntime", "int8")
    assert net.ran == broken
    assert net(np.zeros((2, 3, 48, 32), np.float32)).shape == (2, N_OUT)


def test_recording_keeps_each_batch_fed_to_the_watched_networks_only_while_open() -> None:
    crops = [np.full((48, 32, 3), v, np.uint8) for v in (0, 128, 255)]
    with recording(DEFAULT_CLASSIFIER) as seen:
        classify_crops(crops, DEFAULT_CLASSIFIER)
        turn = DEFAULT_CARD_CLASSIFIER.with_name("indexturn.onnx")
        classify_crops(crops[:1], turn, turn_directions(turn))
    classify_crops(crops, DEFAULT_CLASSIFIER)
    assert list(seen) == [str(DEFAULT_CLASSIFIER)]
    assert [b.shape for b in seen[str(DEFAULT_CLASSIFIER)]] == [(3, 3, 48, 32)]
    np.testing.assert_array_equal(seen[str(DEFAULT_CLASSIFIER)][0][1], 128.0)


def test_quantize_makes_a_current_copy_that_reads_as_the_float_network(tmp_path: Path) -> None:
    # the small turn network, calibrated on real index crops turned both ways
    float_file = tmp_path / "indexturn.onnx"
    shutil.copy(DEFAULT_TURN, float_file)
    crops, _ = _labelled_index_crops()
    blob = np.concatenate([crops, crops[:, :, ::-1, ::-1]])  # each turned half round too
    quantize(float_file, [blob[i:i + 32] for i in range(0, len(blob), 32)], int8_copy(float_file))
    fast_net = load_network(float_file, "onnxruntime", "int8")
    assert fast_net.ran == int8_copy(float_file)
    fast = fast_net(blob).argmax(axis=1)
    exact = load_network(float_file, "onnxruntime", "float")(blob).argmax(axis=1)
    assert np.mean(fast == exact) >= 0.95
    with pytest.raises(ValueError, match="no inputs"):
        quantize(float_file, [], tmp_path / "none.onnx")


def test_the_one_command_ends_with_the_8_bit_copies_of_the_weights_it_trained(tmp_path: Path) -> None:
    from vision.train.__main__ import STAGES, parser, stages

    planned = stages(parser().parse_args(["--out", str(tmp_path), "--seed", "3", "--threads", "1",
                                          "--no-artwork"]))
    assert [name for name, _ in planned] == list(STAGES)
    name, argv = planned[-1]
    assert name == "int8"
    assert argv[:3] == ["vision.train.quantize", "--weights", str(tmp_path)]
    assert argv[argv.index("--seed") + 1] == "3" and "--no-artwork" in argv


def test_the_one_command_trains_in_float32_when_asked_and_counts_it_the_same_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--precision fp32`` for a CPU without bfloat16 instructions (emulated there, the crop
    classifiers' steps many times slower): the torch stages take it, the tile stage stays in
    float32 as shipped, and a stage done either way is done (the data and schedule are the same)."""
    from vision.train import precisions
    from vision.train.__main__ import _result_args, parser, stages

    monkeypatch.setattr(precisions, "native_bf16", lambda: True)  # a CPU with the instructions
    shipped = dict(stages(parser().parse_args([])))
    fast = dict(stages(parser().parse_args(["--precision", "fp32"])))
    for name in ("detector", "index", "card", "turn"):
        assert "--precision" not in shipped[name]  # the recipe's lines as they were
        assert fast[name][fast[name].index("--precision") + 1] == "fp32"
        assert _result_args(fast[name]) == _result_args(shipped[name])
    assert fast["tiles"] == shipped["tiles"] and "float32" in fast["tiles"]
    assert "--precision" in _result_args(shipped["tiles"])  # the tile stage's own, kept

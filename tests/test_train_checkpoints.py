"""Where the trainers keep their checkpoints: a recipe stage that trains a network on in place
keeps its checkpoint apart from the finished one of the stage that made that network.

Before this, the one training command stopped at ``tiles-light``: it found the ``tiles``
stage's checkpoint beside ``tilenet.onnx`` and refused it as another run's.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vision.train.checkpoints import checkpoint_of, state_path


def test_a_run_from_another_file_or_from_nothing_keeps_its_checkpoint_beside_its_output(
        tmp_path: Path) -> None:
    out = tmp_path / "cardnet.onnx"
    assert checkpoint_of(out, None) == out
    assert checkpoint_of(out, tmp_path / "shipped" / "cardnet.onnx") == out
    assert state_path(checkpoint_of(out, None)) == tmp_path / ".cardnet.state.pt"


def test_a_run_training_its_own_output_on_keeps_a_checkpoint_of_its_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "w" / "tilenet.onnx"
    own = state_path(checkpoint_of(out, out))
    assert own != state_path(checkpoint_of(out, None))
    assert own.parent == out.parent and own.name.startswith(".tilenet")
    # the same file named relatively is the same file
    monkeypatch.chdir(tmp_path)
    assert checkpoint_of(Path("w/tilenet.onnx"), out) == checkpoint_of(Path("w/tilenet.onnx"),
                                                                       Path("w") / "tilenet.onnx")
    assert checkpoint_of(Path("w/tilenet.onnx"), out) != Path("w/tilenet.onnx")
    assert os.path.abspath(out) == os.path.abspath("w/tilenet.onnx")


def test_no_two_stages_of_the_recipe_share_a_checkpoint() -> None:
    from vision.train.__main__ import parser, stages  # imports without the training extra

    seen: dict[Path, str] = {}
    in_place = []
    for name, argv in stages(parser().parse_args(["--seed", "0", "--out", "w"])):
        if "--out" not in argv:
            continue  # the 8-bit copies keep no checkpoint
        out = Path(argv[argv.index("--out") + 1])
        init = Path(argv[argv.index("--init-onnx") + 1]) if "--init-onnx" in argv else None
        if init == out:
            in_place.append(name)
        path = state_path(checkpoint_of(out, init))
        assert path not in seen, f"{name} and {seen.get(path)} share {path}"
        seen[path] = name
    assert "tiles-light" in in_place  # the case this guards is in the recipe

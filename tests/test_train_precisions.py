"""The training arithmetic chosen by the processor (``vision.train.precisions``): bfloat16 where
the CPU has it, float32 where it would be emulated ten to twenty times slower. Torch-free."""

from __future__ import annotations

import argparse

import pytest

from vision.train import precisions


@pytest.mark.parametrize(("native", "want"), [(True, "bf16"), (None, "bf16"), (False, "fp32")])
def test_auto_is_bf16_only_where_the_cpu_has_it_or_cannot_tell(
        monkeypatch: pytest.MonkeyPatch, native: bool | None, want: str) -> None:
    monkeypatch.setattr(precisions, "native_bf16", lambda: native)
    assert precisions.chosen(precisions.AUTO) == want
    assert precisions.chosen(precisions.AUTO, "cuda") == "bf16"  # a GPU has it
    assert precisions.chosen(precisions.AUTO, fp32="float32") == ("float32" if want == "fp32" else "bf16")
    for asked in ("bf16", "fp32"):  # asked for, never changed
        assert precisions.chosen(asked) == asked


def test_a_trainer_resolves_its_option_and_says_when_auto_chose_float32(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(precisions, "native_bf16", lambda: False)
    ap = argparse.ArgumentParser()
    precisions.add_argument(ap, "float32")
    args = ap.parse_args([])
    assert args.precision == precisions.AUTO
    precisions.resolve(args, "float32")
    assert args.precision == "float32" and "no bfloat16 instructions" in capsys.readouterr().out
    args = ap.parse_args(["--precision", "bf16"])
    precisions.resolve(args, "float32")
    assert args.precision == "bf16" and capsys.readouterr().out == ""
    with pytest.raises(SystemExit):
        ap.parse_args(["--precision", "fp16"])


@pytest.mark.parametrize("native", [True, False])
def test_the_one_command_passes_each_torch_stage_the_arithmetic_it_means(
        monkeypatch: pytest.MonkeyPatch, native: bool) -> None:
    from vision.train.__main__ import _result_args, parser, stages

    monkeypatch.setattr(precisions, "native_bf16", lambda: native)

    def planned(*argv: str) -> dict[str, list[str]]:
        return dict(stages(parser().parse_args(list(argv))))

    def precision_of(argv: list[str]) -> str | None:
        return argv[argv.index("--precision") + 1] if "--precision" in argv else None

    auto, bf16, fp32 = planned(), planned("--precision", "bf16"), planned("--precision", "fp32")
    for name in ("detector", "index", "card", "turn"):
        # by default: the recipe's lines as they were where bf16 is native, fp32 where not
        assert precision_of(auto[name]) == (None if native else "fp32")
        # asked for: kept, even bf16 on a CPU that emulates it (a stage's default would not give it)
        assert precision_of(bf16[name]) == (None if native else "bf16")
        assert precision_of(fp32[name]) == "fp32"
        assert _result_args(auto[name]) == _result_args(bf16[name]) == _result_args(fp32[name])
    assert auto["tiles"] == bf16["tiles"] == fp32["tiles"]  # float32, the tile stage's recipe


def test_auto_is_resolved_once_a_process() -> None:
    """The CPU does not change while a process runs: /proc/cpuinfo is read once."""
    precisions.native_bf16.cache_clear()
    first = precisions.native_bf16()
    assert precisions.native_bf16.cache_info().hits == 0
    assert precisions.native_bf16() == first and precisions.native_bf16.cache_info().hits == 1

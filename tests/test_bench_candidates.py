"""The comparison of candidate networks over sources and seeds (``bench/bench_candidates.py``):
means over each side's folders, the better/worse counts, and figures measured once a set of
network files, kept under their hash."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_candidates as bc  # noqa: E402

from vision.classifier import DEFAULT_CLASSIFIER  # noqa: E402


def _figures(value: float, **moved: float) -> bc.Figures:
    return {f.name: (moved.get(f.name, value), 3 if f.kind != "real" else None) for f in bc.figures()}


def test_there_are_twenty_five_figures_of_four_kinds_each_named_once() -> None:
    figs = bc.figures()
    assert len(figs) == 25 and len({f.name for f in figs}) == 25
    kinds = [f.kind for f in figs]
    assert (kinds.count("camera"), kinds.count("tables"), kinds.count("hands"), kinds.count("real")) == (2, 12, 3, 8)


def test_a_candidate_is_judged_by_its_folders_mean_against_the_controls_mean() -> None:
    control = [_figures(0.90), _figures(0.92)]
    # one seed better and one worse on the camera figure: the means decide, not either seed
    candidate = [_figures(0.90, **{"camera slant s5": 0.95}), _figures(0.92, **{"camera slant s5": 0.89})]
    diff = bc.changes(control, candidate)
    assert diff["camera slant s5"] == pytest.approx(0.01)
    assert all(d == pytest.approx(0.0) for name, d in diff.items() if name != "camera slant s5")
    line = bc.summary(diff)
    assert line.startswith("better on 1, worse on 0, the same on 24")
    assert "camera +0.0050" in line and "hands +0.0000" in line


def test_the_report_gives_each_pair_of_seeds_and_the_melds() -> None:
    control = {"a0": _figures(0.9), "a1": _figures(0.9)}
    candidate = {"b0": _figures(0.9, **{"hand s5": 0.8}), "b1": _figures(0.9)}
    text = bc.report(control, candidate)
    assert "hand s5                         0.9000     0.8500  -0.0500" in text
    assert "b0 against a0: better on 0, worse on 1" in text
    assert "b1 against a1: better on 0, worse on 0, the same on 25" in text
    assert "(a folder's, mean): 51.0 → 51.0" in text  # 17 drawn figures of 3 melds


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Puts a measurer that measures nothing in place of the real one: each figure asked for
    is listed (in the list returned) and given F1 0.5."""
    calls: list[str] = []

    def fake_measurer(nets: dict[str, Path], data: Path, quick: bool) -> bc.Measure:
        def measure(fig: bc.Figure) -> tuple[float, int | None]:
            calls.append(fig.name)
            return 0.5, None
        return measure

    monkeypatch.setattr(bc, "measurer", fake_measurer)
    monkeypatch.setattr(bc, "warm_up", lambda *a: None)
    return calls


def test_a_folders_figures_are_measured_once_and_again_when_its_networks_change(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    folder = tmp_path / "run"
    folder.mkdir()
    shutil.copy(DEFAULT_CLASSIFIER, folder / DEFAULT_CLASSIFIER.name)
    cache = tmp_path / "cache"
    said: list[str] = []
    first = bc.measured(str(folder), tmp_path, cache, say=said.append)
    assert first is not None and len(calls) == 25 and len(said) == 25
    assert bc.measured(str(folder), tmp_path, cache, say=said.append) == first
    assert len(calls) == 25  # all from the cache
    # a cache file cut short: said, and measured again
    (kept,) = cache.glob("*.json")
    kept.write_text("{not json")
    assert bc.measured(str(folder), tmp_path, cache, say=said.append) == first
    assert len(calls) == 50 and any("unreadable" in s for s in said)
    assert set(json.loads(kept.read_text())) == {f.name for f in bc.figures()}
    # another network in the folder: another hash, measured afresh
    (folder / DEFAULT_CLASSIFIER.name).write_bytes(b"other weights")
    bc.measured(str(folder), tmp_path, cache, say=said.append)
    assert len(calls) == 75 and len(list(cache.glob("*.json"))) == 2


def test_a_folder_that_is_not_there_is_said_and_nothing_measured(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert bc.measured(str(tmp_path / "missing"), tmp_path, tmp_path / "cache") is None
    assert "no such folder" in capsys.readouterr().err
    assert not (tmp_path / "cache").exists()


def test_a_change_to_the_reading_code_measures_a_folder_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "stray.json").write_text("[]")  # a stray file is no harm
    bc.measured("shipped", tmp_path, cache, say=lambda s: None)
    monkeypatch.setattr(bc, "code_hash", lambda: "changed")
    bc.measured("shipped", tmp_path, cache, say=lambda s: None)
    assert len(calls) == 50 and len(list(cache.glob("*.json"))) == 3


def test_reworded_comments_and_docstrings_keep_the_code_hash_and_code_changes_do_not() -> None:
    source = ('"""A module."""\n\n\ndef f(x):\n    """Doubles."""\n    return 2 * x  # twice\n\n\n'
              'class C:\n    """A class."""\n\n    y = 1\n')
    reworded = (source.replace("A module.", "Another word.").replace("# twice", "# two times")
                .replace("Doubles.", "Twice x.").replace("A class.", "Still a class."))
    assert bc.code_meaning(reworded) == bc.code_meaning(source)
    assert bc.code_meaning(source.replace("2 * x", "3 * x")) != bc.code_meaning(source)
    assert bc.code_meaning(source.replace("y = 1", "y = 2")) != bc.code_meaning(source)
    # a function whose docstring is its whole body still parses to something of its own
    assert bc.code_meaning('def g():\n    """Nothing."""\n') != bc.code_meaning("def g():\n    return 1\n")


def test_a_drawn_figure_is_read_by_the_real_reader_as_bench_tables_reads_it(tmp_path: Path) -> None:
    """The measurer with the shipped networks, one table (``--quick``): the F1 and melds
    ``bench_tables.score_source`` gives for that table; a real source whose photos are not
    under the data folder is an error naming it, not a figure."""
    from bench_tables import networks, score_source
    from scoring import prf

    nets = networks(None)
    measure = bc.measurer(nets, tmp_path, quick=True)
    fig = next(f for f in bc.figures() if f.name == "held-out s5")
    f1, melds = measure(fig)
    total, _ = score_source("held-out", 1, (1280, 960), 5, nets)
    assert (f1, melds) == (prf(total.right, total.wrong, total.missed)[2], total.melds_hit)
    assert 0.5 < f1 <= 1.0 and melds is not None
    with pytest.raises(FileNotFoundError, match="webcam-held"):
        measure(next(f for f in bc.figures() if f.name == "webcam-held"))

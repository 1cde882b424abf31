"""The pinned typeface lists of training (``vision/train/typefaces.py``): the lists shipped in
the repository, and loading, checking and writing them against font folders on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.deck_styles import HELD_OUT_FAMILIES, font_family
from vision.tile_synth import HELD_OUT_TILE_FAMILIES
from vision.train import typefaces


def _entries(name: str) -> list[str]:
    lines = (typefaces.LISTS / f"{name}.txt").read_text().splitlines()
    return [line for line in lines if line and not line.startswith("#")]


def test_no_list_but_the_first_holds_a_held_out_typeface() -> None:
    v1 = [font_family(Path(p)) for p in _entries("cards-v1")]
    # the one cut that leaked into the shipped detector's designs, kept so it rebuilds
    assert [p for p in _entries("cards-v1") if font_family(Path(p)) in HELD_OUT_FAMILIES] \
        == ["truetype/freefont/FreeSerifBoldItalic.ttf"]
    assert len(v1) == 98
    v2 = {font_family(Path(p)) for p in _entries("cards-v2")}
    assert len(v2) > 2 * len(set(v1)) and not v2 & HELD_OUT_FAMILIES
    assert not v2 & typefaces.NOT_CARD_LETTERING
    assert not {font_family(Path(p)) for p in _entries("tiles-v1")} & HELD_OUT_TILE_FAMILIES


def test_a_list_is_loaded_in_its_order_from_the_font_folders(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    lists = tmp_path / "lists"
    lists.mkdir()
    fonts = tmp_path / "fonts"
    for rel in ("b/Zeta-Bold.ttf", "a/Alpha-Regular.otf"):
        (fonts / rel).parent.mkdir(parents=True, exist_ok=True)
        (fonts / rel).write_bytes(b"font")
    monkeypatch.setenv("TABLEKIT_FONT_DIR", str(fonts))
    (lists / "mine.txt").write_text("# a comment\nb/Zeta-Bold.ttf\n\na/Alpha-Regular.otf\n")
    assert typefaces.load("mine", lists) == (fonts / "b/Zeta-Bold.ttf", fonts / "a/Alpha-Regular.otf")
    written = typefaces.write("again", typefaces.load("mine", lists), "two faces", lists)
    assert written.read_text().splitlines() == ["# two faces", "b/Zeta-Bold.ttf", "a/Alpha-Regular.otf"]
    assert typefaces.load("again", lists) == typefaces.load("mine", lists)


def test_a_missing_font_or_list_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLEKIT_FONT_DIR", str(tmp_path))
    (tmp_path / "mine.txt").write_text("nowhere/Gone-Bold.ttf\n")
    with pytest.raises(typefaces.MissingTypefaces, match="Gone-Bold.ttf"):
        typefaces.load("mine", tmp_path)
    with pytest.raises(typefaces.MissingTypefaces, match="no typeface list 'other'.*mine"):
        typefaces.load("other", tmp_path)
    with pytest.raises(SystemExit, match="error: no typeface list 'nonesuch'"):
        typefaces.required("nonesuch")  # a training stage ends with the reason, no traceback


def test_a_wide_list_keeps_each_family_apart_from_the_held_out_ones_and_at_most_four_cuts() -> None:
    root = Path("/fonts")
    files = tuple(root / n for n in (
        "a/Lato-Black.ttf", "a/Lato-Bold.ttf", "a/Lato-Hairline.ttf", "a/Lato-Light.ttf",
        "a/Lato-Medium.ttf", "a/Lato-Regular.ttf", "a/Lato-Thin.ttf",
        "b/URWBookman-Light.otf", "b/FreeSerifBoldItalic.ttf", "b/NotoSansMath-Regular.ttf",
        "c/Carlito-Bold.ttf", "d/Carlito-Bold.ttf"))
    out = typefaces.wide(files)
    assert [p.name for p in out] == ["Carlito-Bold.ttf", "Lato-Black.ttf", "Lato-Hairline.ttf",
                                     "Lato-Medium.ttf", "Lato-Thin.ttf"]
    assert out[0].parent.name == "c"  # one file a name, the first path of it

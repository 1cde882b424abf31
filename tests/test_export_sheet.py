"""``tablekit export``: the printable score sheet (PDF), the CSV for a spreadsheet and the PNG
chart, made from real games in a journal and looked at: the PDF rendered back with PDFium,
its text layer read, its pixels counted."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from _game_fixtures import FULL_COUNT, LOSER_58, NO_PURE, VALID_SHOW, Driver, game

from tablekit.cli import main
from tablekit.journal import Journal
from tablekit.score_sheet import PaperSheet, SheetDeal, SheetStanding

A4 = (595.28, 841.89)  # points
LETTER = (612.0, 792.0)
ROOT = Path(__file__).resolve().parents[1]


def _pages(pdf: Path, scale: float = 0.5) -> list[tuple[np.ndarray, str, tuple[float, float]]]:
    """Each page as an RGB image at ``scale`` (1 = 72 dpi), its text and its size in points."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        out = []
        for page in doc:
            image = page.render(scale=scale).to_numpy()[:, :, :3].copy()
            out.append((image, page.get_textpage().get_text_range(), tuple(page.get_size())))
        return out
    finally:
        doc.close()


def _white(image: np.ndarray) -> float:
    return float((image.min(axis=2) > 235).mean())


def _coloured(image: np.ndarray) -> np.ndarray:
    """Where the pixels are clearly coloured (not white, grey or black)."""
    channels = image.astype(int)
    return (channels.max(axis=2) - channels.min(axis=2)) > 90


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """The demo's pool-101 game played to its end, and exported."""
    out = tmp_path_factory.mktemp("export")
    journal = out / "j.sqlite"
    assert main(["demo", "--no-screen", "--box", "keys", "--journal", str(journal),
                 "--report", str(out / "report.json")]) == 0
    report = json.loads((out / "report.json").read_text())
    assert main(["export", str(report["game_id"]), "--journal", str(journal),
                 "--out", str(out / "files")]) == 0
    return report, journal, out / "files"


def test_the_sheet_is_one_a4_page_of_paper_with_the_whole_game(demo):
    report, _, files = demo
    [(image, text, size)] = _pages(files / f"game-{report['game_id']}-sheet.pdf")
    assert size == pytest.approx(A4, abs=0.5)
    for standing in report["standings"]:
        assert standing["name"] in text
    lines = text.splitlines()
    for number in range(1, len(report["deals"]) + 1):  # every deal has its row
        assert any(line.startswith(f"{number} ") for line in lines), number
    final = next(line for line in lines if line.startswith("Final "))
    totals = {s["name"]: s["total"] for s in report["standings"]}
    assert final.split()[1:] == [str(totals[n]) for n in ("Asha", "Ravi", "Meera")]
    assert "Asha wins" in text and "Final standings" in text and "Running totals" in text
    for verdict in ("first drop", "middle drop", "wrong show", "eliminated"):
        assert verdict in text
    assert "5D" in text  # the first deal's cut card
    assert "MENU" not in text
    # white paper, black ink; colour only in the chart, below the tables
    assert _white(image) > 0.85
    coloured = _coloured(image)
    assert coloured.sum() > 200
    rows = np.nonzero(coloured.any(axis=1))[0]
    assert rows.min() > image.shape[0] * 0.35


def test_the_chart_png_is_on_white_without_screen_prompts(demo):
    from PIL import Image

    report, _, files = demo
    image = np.asarray(Image.open(files / f"game-{report['game_id']}-chart.png").convert("RGB"))
    assert image.shape[:2] == (720, 1280)
    assert _white(image) > 0.8
    assert _coloured(image).sum() > 500  # the players' lines
    assert (image[:8, :8] == 255).all() and (image[-8:, -8:] == 255).all()  # white to the edges


def test_the_csv_has_a_byte_order_mark_and_a_row_per_deal(demo):
    report, _, files = demo
    raw = (files / f"game-{report['game_id']}-scores.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(raw.decode("utf-8-sig").splitlines()))
    assert rows[0][:4] == ["deal", "dealer", "cut", "winner"]
    assert len(rows) == len(report["deals"]) + 1
    header = rows[0]
    totals = {s["name"]: s["total"] for s in report["standings"]}
    for name, total in totals.items():
        assert int(rows[-1][header.index(f"{name} total")]) == total


def test_letter_paper_and_named_files(demo, tmp_path, capsys):
    report, journal, _ = demo
    pdf, sheet, chart = tmp_path / "a" / "s.pdf", tmp_path / "b" / "s.csv", tmp_path / "c.png"
    assert main(["export", "latest", "--journal", str(journal), "--paper", "Letter",
                 "--pdf", str(pdf), "--csv", str(sheet), "--chart", str(chart),
                 "--size", "640x400", "--out", str(tmp_path / "unused")]) == 0
    assert capsys.readouterr().out.split() == [str(pdf), str(sheet), str(chart)]
    [(_, _, size)] = _pages(pdf, 0.2)
    assert size == pytest.approx(LETTER, abs=0.5)
    assert not (tmp_path / "unused").exists()
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".part")]


def _unicode_game(journal: Journal, names: tuple[str, ...]) -> int:
    d = Driver(game("indian-pool-101", names))
    gid = journal.new_game(d.state.game, 1_700_000_000_000)
    d.deal("5D")
    for seat in (1, 2, 3, 0):
        d.press(seat)
    d.show(1, VALID_SHOW, {2: FULL_COUNT, 3: FULL_COUNT, 0: LOSER_58})
    d.deal("9C")
    d.drop(2)
    d.press(3)
    d.press(0)
    d.declare(1)
    d.read(1, NO_PURE)
    d.ok()
    d.drop(3)  # one player left: the deal is over
    for event in d.log:
        journal.append(gid, event)
    return gid


def test_names_in_any_script_reach_the_csv_and_the_sheet(tmp_path, capsys):
    names = ("José", "रवि", "山田 花子", "=Ölçer")
    db = tmp_path / "j.sqlite"
    with Journal(db) as j:
        gid = _unicode_game(j, names)
    assert main(["export", str(gid), "--journal", str(db), "--out", str(tmp_path)]) == 0
    assert "Traceback" not in capsys.readouterr().err
    with (tmp_path / f"game-{gid}-scores.csv").open(encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    for name in names[:3]:
        assert f"{name} points" in header and f"{name} total" in header
    assert "'=Ölçer points" in header  # a spreadsheet would run "=…" as a formula
    assert rows[1][header.index("dealer")] == "José" and rows[2][header.index("dealer")] == "रवि"
    assert rows[2][header.index("रवि note")] == "wrong-show"
    [(image, text, _)] = _pages(tmp_path / f"game-{gid}-sheet.pdf")
    assert "José" in text and "=Ölçer" in text and "山田" in text
    assert "र" in text  # PDFium's text of shaped Devanagari is not always the string typed
    assert _white(image) > 0.85


def test_a_fallback_font_is_found_for_scripts_dejavu_lacks():
    from matplotlib.font_manager import fontManager

    from tablekit.paper import font_families

    installed = {f.name for f in fontManager.ttflist}
    assert font_families(["Asha", "José", "Ölçer"]) == ["DejaVu Sans"]
    families = font_families(["रवि", "山田"])
    assert families[0] == "DejaVu Sans"
    if "Noto Sans Devanagari" in installed:
        assert "Noto Sans Devanagari" in families
    if {"Noto Sans CJK JP", "Noto Sans CJK KR"} & installed:
        assert {"Noto Sans CJK JP", "Noto Sans CJK KR"} & set(families)


def _long_sheet(deals: int) -> PaperSheet:
    names = ("Asha", "Ravi", "Meera", "Kabir")
    totals = [0, 0, 0, 0]
    rows = []
    for k in range(1, deals + 1):
        winner = k % 4
        scores = tuple(0 if s == winner else (k * 7 + s * 13) % 80 + 2 for s in range(4))
        totals = [t + x for t, x in zip(totals, scores, strict=True)]
        notes = tuple("first drop" if s == (k + 1) % 4 and k % 3 == 0 else "" for s in range(4))
        rows.append(SheetDeal(k, names[(k - 1) % 4], "", names[winner], scores, tuple(totals),
                              notes, (False,) * 4))
    order = sorted(range(4), key=lambda s: totals[s])
    standings = tuple(SheetStanding(i + 1, names[s], "", totals[s], "winner" if i == 0 else "")
                      for i, s in enumerate(order))
    return PaperSheet(9, "Indian rummy, points", 1_700_000_000_000, names, ("",) * 4, False,
                      False, tuple(rows), standings, True, f"{names[order[0]]} wins", True,
                      None, "")


def test_a_long_game_goes_on_over_pages_each_with_the_table_header(tmp_path):
    from tablekit.paper import write_pdf

    sheet = _long_sheet(70)
    pdf = tmp_path / "long.pdf"
    count = write_pdf(sheet, pdf, "A4")
    pages = _pages(pdf)
    assert count == len(pages) >= 2
    seen: set[int] = set()
    for k, (image, text, size) in enumerate(pages, 1):
        assert size == pytest.approx(A4, abs=0.5)
        assert f"page {k} of {count}" in text
        assert _white(image) > 0.75
        if "Deal Dealer" in text:
            seen |= {int(line.split()[0]) for line in text.splitlines()
                     if line.split() and line.split()[0].isdigit() and len(line.split()) >= 9}
    assert seen == set(range(1, 71))
    assert "Final standings" in pages[-1][1] and _coloured(pages[-1][0]).sum() > 50
    assert "Final standings" not in pages[0][1]


@pytest.mark.parametrize(("argv", "message"), [
    (["export", "99"], "no game 99"),
    (["export", "lots"], "not a game id"),
    (["export", "1", "--pdf", "{tmp}"], "is a folder"),
    (["export", "1", "--out", "{tmp}/file.txt"], "is a file"),
    (["export", "1", "--paper", "A3"], "no paper 'A3'"),
    (["export", "1", "--size", "12"], "bad --size"),
])
def test_bad_input_is_one_error_line(argv, message, demo, tmp_path, capsys):
    _, journal, _ = demo
    (tmp_path / "file.txt").write_text("x")
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    try:
        code = main([*argv, "--journal", str(journal)])
    except SystemExit as exc:  # a usage mistake, refused by the parser
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert [line for line in err.splitlines() if line.startswith("error:")] == err.splitlines()
    assert len(err.splitlines()) == 1 and message in err and "Traceback" not in err


def test_a_file_that_is_no_journal_and_a_game_with_no_deal_are_one_error_line(tmp_path, capsys):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    assert main(["export", "1", "--journal", str(junk), "--out", str(tmp_path / "o")]) == 2
    assert "not a tablekit journal" in capsys.readouterr().err
    db = tmp_path / "j.sqlite"
    with Journal(db) as j:
        j.new_game(game(), 0)
    assert main(["export", "latest", "--journal", str(db), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "no finished deal" in err
    assert not list((tmp_path / "o").glob("*")) if (tmp_path / "o").exists() else True


def test_matplotlib_is_loaded_by_export_only():
    code = ("import sys; from tablekit.cli import build_parser; build_parser(); "
            "print('matplotlib' in sys.modules)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=60, check=True)
    assert result.stdout.strip() == "False"

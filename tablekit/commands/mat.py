"""``tablekit mat``: write the printable table mat (PNG and PDF) with its ArUco markers."""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "mat"
HELP = "write the printable table mat (PNG + PDF) with corner markers and seat zones"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--size", choices=("A2", "A3", "letter"), default="A3")
    parser.add_argument("--seats", type=int, default=4, choices=range(2, 9), metavar="2-8")
    parser.add_argument("--tile", choices=("letter",), default=None,
                        help="cut the PDF into letter pages to tape together")
    parser.add_argument("--dpi", type=float, default=150.0)
    parser.add_argument("--out", default="tablekit-mat", help="output path without suffix")


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.mat import LETTER, layout, pages, render, write_pdf

    mat = layout(args.size, args.seats)
    px_per_mm = args.dpi / 25.4
    out = Path(args.out)
    png = out.with_suffix(".png")
    pdf = out.with_suffix(".pdf")
    cv2.imwrite(str(png), render(mat, px_per_mm))
    page = LETTER if args.tile == "letter" else None
    sheets = pages(mat, px_per_mm, page)
    write_pdf(pdf, sheets, page or (mat.width, mat.height))
    print(f"wrote {png} and {pdf} ({mat.name} {mat.width:.0f}x{mat.height:.0f} mm, "
          f"{len(sheets)} page(s), {mat.seats} seats)")
    return 0

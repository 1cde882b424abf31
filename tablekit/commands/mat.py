"""``tablekit mat``: write the printable table mat — a vector PDF and a PNG preview.

The PDF is drawn in millimetres (markers, seat zones, seat labels facing each player, a 100 mm
scale bar to check the print), on one page of the mat's size or tiled onto A4 or letter pages
to trim and tape together. Print it at 100 % ("actual size"), never "fit to page".
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from tablekit.values import text_arg

NAME = "mat"
HELP = "write the printable table mat (vector PDF + PNG) with corner markers and seat zones"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from vision.mat import SIZES
    from vision.mat_pdf import PAPERS

    parser.add_argument("--size", choices=tuple(SIZES), default="A3", help="the mat's size (default A3)")
    parser.add_argument("--seats", type=int, default=4, choices=range(2, 9), metavar="2-8")
    parser.add_argument("--tile", choices=tuple(PAPERS), default=None,
                        help="tile the PDF onto this paper, to trim and tape together")
    parser.add_argument("--dpi", type=float, default=150.0, help="resolution of the PNG preview")
    parser.add_argument("--out", type=text_arg, default="tablekit-mat",
                        help="output path without suffix, or a folder to write tablekit-mat.pdf "
                             "and .png into")


def run(args: argparse.Namespace) -> int:
    import cv2

    from tablekit.values import ValueRefused, output_file
    from vision.mat import layout, render
    from vision.mat_pdf import write_pdf

    if not 10 <= args.dpi <= 600:
        raise ValueRefused(f"bad --dpi {args.dpi:g}: the PNG preview is drawn at 10 to 600 dpi")
    mat = layout(args.size, args.seats)
    out = Path(args.out)
    if out.is_dir() or args.out.endswith(("/", os.sep)):  # a folder: the files go inside it
        out = out / "tablekit-mat"
    png = output_file(out.with_suffix(".png"), "--out")
    pdf = output_file(out.with_suffix(".pdf"), "--out")
    count = write_pdf(pdf, mat, args.tile)
    if not cv2.imwrite(str(png), render(mat, args.dpi / 25.4)):
        raise ValueRefused(f"cannot write {png}")
    tiled = f" on {args.tile} paper" if args.tile else ""
    print(f"wrote {pdf} ({mat.name} {mat.width:.0f}x{mat.height:.0f} mm, {count} page(s){tiled}, "
          f"{mat.seats} seats; print at 100%: the bar at the top is 100 mm) and {png}")
    return 0

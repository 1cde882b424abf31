"""The typefaces a training run draws its deck and tile designs from, pinned as lists.

Drawn designs take their lettering from the font files Debian's font packages install, so
weights trained on one machine would differ from another's with other fonts installed. Each
stage therefore draws from a named list in ``vision/train/typefaces/`` (``NAME.txt``: one
file a line, under ``/usr/share/fonts``, in the order drawn), and a run stops with the
missing files named when the machine lacks one:

- ``cards-v1``: the typefaces of the shipped detector, whole-card and turn classifiers;
- ``cards-v2``: the index classifier's wider list (``python -m vision.train.typefaces
  --write cards-v2`` wrote it from the packages of ``vision/README.md``);
- ``tiles-v1``: the tile reader's numerals.

None holds a held-out family but ``cards-v1``, which keeps the one cut that leaked in
(``FreeSerifBoldItalic.ttf``, see ``vision/README.md``) so that its networks rebuild.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from typing import Final

from vision.deck_styles import HELD_OUT_FAMILIES, font_dirs, font_family, font_files

LISTS: Final = Path(__file__).with_name("typefaces")
#: Families with the rank glyphs that are still no card lettering (symbols, mathematics,
#: a script's font carrying digits).
NOT_CARD_LETTERING: Final = frozenset({"NotoSansSymbols", "NotoTraditionalNushu", "NotoSansMath",
                                       "BerenisADFProMath"})
#: Cuts kept of one family in a written list, so a family of twenty weights is not drawn
#: five times as often as one of four.
PER_FAMILY: Final = 4


class MissingTypefaces(RuntimeError):
    """A pinned list names font files this machine does not have."""


def load(name: str, folder: Path = LISTS) -> tuple[Path, ...]:
    """The font files of list ``name`` (in ``folder``), in order, each found under the font
    folders."""
    path = folder / f"{name}.txt"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in folder.glob("*.txt")))
        raise MissingTypefaces(f"no typeface list {name!r} (known: {known})")
    found, missing = [], []
    for line in path.read_text().splitlines():
        rel = line.strip()
        if not rel or rel.startswith("#"):
            continue
        hit = next((root / rel for root in font_dirs() if (root / rel).is_file()), None)
        if hit is None:
            missing.append(rel)
        else:
            found.append(hit)
    if missing:
        raise MissingTypefaces(
            f"typeface list {name!r}: {len(missing)} of {len(missing) + len(found)} font files are "
            f"not installed ({', '.join(missing[:4])}{', …' if len(missing) > 4 else ''}); install the "
            "font packages that vision/README.md lists for retraining")
    return tuple(found)


def required(name: str) -> tuple[Path, ...]:
    """:func:`load` for a training stage: a list it cannot load ends the run with the reason."""
    try:
        return load(name)
    except MissingTypefaces as e:
        raise SystemExit(f"error: {e}") from None


def wide(files: tuple[Path, ...]) -> tuple[Path, ...]:
    """A list for drawing decks from ``files``: lettering families outside the held-out ones,
    each file name once (the first path of it), at most :data:`PER_FAMILY` cuts of a family
    spread over its sorted names."""
    seen: set[str] = set()
    families: dict[str, list[Path]] = defaultdict(list)
    for p in sorted(files):
        family = font_family(p)
        if p.name in seen or family in HELD_OUT_FAMILIES or family in NOT_CARD_LETTERING:
            continue
        seen.add(p.name)
        families[family].append(p)
    out: list[Path] = []
    for family in sorted(families):
        cuts = sorted(families[family], key=lambda p: p.name)
        if len(cuts) > PER_FAMILY:
            step = (len(cuts) - 1) / (PER_FAMILY - 1)
            cuts = [cuts[round(i * step)] for i in range(PER_FAMILY)]
        out += cuts
    return tuple(out)


def write(name: str, files: tuple[Path, ...], header: str, folder: Path = LISTS) -> Path:
    """Write ``files`` (each under a font folder) as list ``name`` in ``folder``."""
    lines = [f"# {line}" for line in header.splitlines()]
    for p in files:
        root = next((r for r in font_dirs() if p.is_relative_to(r)), None)
        if root is None:
            raise ValueError(f"{p} is under none of the font folders")
        lines.append(str(p.relative_to(root)))
    path = folder / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n")
    return path


def add_argument(parser: argparse.ArgumentParser, default: str = "cards-v1") -> None:
    parser.add_argument("--typefaces", default=default,
                        help=f"the pinned typeface list drawn decks take their lettering from (default {default})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", metavar="NAME", help="write a wide list of the installed fonts as NAME")
    ap.add_argument("--check", metavar="NAME", action="append", default=[], help="check that a list is installed")
    args = ap.parse_args()
    if args.write:
        files = wide(font_files())
        header = (f"Lettering typefaces for drawn decks: {len(files)} files in "
                  f"{len({font_family(p) for p in files})} families, at most {PER_FAMILY} cuts each,\n"
                  "no held-out family. One file a line, under /usr/share/fonts.")
        print(f"wrote {write(args.write, files, header)}: {len(files)} files")
    for name in args.check:
        try:
            files = load(name)
        except MissingTypefaces as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        print(f"{name}: {len(files)} files in {len({font_family(p) for p in files})} families, all installed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

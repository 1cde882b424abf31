"""Candidate networks against a control, over every card source and over several training seeds.

Usage: ``.venv/bin/python bench/bench_candidates.py --control DIR[,DIR...] --candidate DIR[,DIR...]
[--data ../shared/data] [--cache .runs/figures] [--quick]``

Each ``DIR`` is a folder of networks as ``bench_tables.py --weights`` takes one (``shipped``
names the networks as shipped); several folders on one side are runs of one recipe at
several seeds. One training run is not a measurement: two from-scratch runs of the index
stage that differ only in their seed differ by about 0.014 F1 a figure (``vision/HISTORY.md``,
"The index stage from scratch with camera slants, beside a control"), so a change of recipe
is judged by the mean of two or more seeds on each side, never by one run against the
shipped file.

The figures (25, F1 each, with the melds grouped exactly where there are melds):

- the drawn tables of ``bench_tables.py``: ``camera slant`` at seeds 5 and 23 (12 tables), the
  six flat sources (trained, held-out, light-on-dark, four-corner, jumbo, dim) at seed 5 (8
  tables) and seed 23 (12), and ``hand`` at seeds 5, 11 and 23 (16 frames);
- the real photos held out by capture session (``bench_ablation.py``'s sources): phone,
  close-ups, phone turned over, webcam, webcam turned over, ``cards-ranks``; and the two
  turned-over sources read as one run, as ``tablekit see`` reads a folder.

Each folder's figures are kept in ``--cache`` under the hash of its network files and of the
reading and scoring code (``code_hash``), so a folder is measured once (about 7 minutes on one
core) and a second comparison is instant; a change to that code measures every folder again
(a change to its comments or docstrings alone does not).
Printed: each figure's mean over each side's folders, then how many figures the candidate
is better and worse on, its mean change overall and by kind (camera, flat tables, hands,
real photos), and the same for each pair of folders in the order given. ``--quick`` measures
one table or frame a drawn figure and the first three photos a real one (a smoke test of the
tooling, not a measurement).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_ablation import Item, held_out_photos, photo_f1  # noqa: E402
from bench_tables import chosen_networks, networks, score_source  # noqa: E402
from scoring import prf  # noqa: E402

from vision.inference import file_sha256, int8_copy  # noqa: E402
from vision.recognize import warm_up  # noqa: E402

FLAT = ("trained", "held-out", "light-on-dark", "four-corner", "jumbo", "dim")
#: The real photo sources, as ``bench_ablation.held_out_photos`` names them.
PHOTOS = ("phone-held", "phone-close", "phone-negative", "webcam-held", "webcam-negative", "ranks-held")
#: Bump when the figures change meaning: every cached figure is measured again.
FIGURES_VERSION = 1


@dataclass(frozen=True)
class Figure:
    """One figure: its name, its kind (``camera``, ``tables``, ``hands`` or ``real``) and how
    it is drawn or read."""

    name: str
    kind: str
    source: str
    seed: int = 0
    tables: int = 0
    as_run: bool = False


def figures() -> list[Figure]:
    """The 25 figures, in the order printed."""
    out = [Figure(f"camera slant s{s}", "camera", "camera slant", s, 12) for s in (5, 23)]
    out += [Figure(f"{src} s{s}", "tables", src, s, n) for s, n in ((5, 8), (23, 12)) for src in FLAT]
    out += [Figure(f"hand s{s}", "hands", "hand", s, 16) for s in (5, 11, 23)]
    out += [Figure(src, "real", src) for src in PHOTOS]
    out += [Figure(f"{src} as one run", "real", src, as_run=True) for src in PHOTOS if "negative" in src]
    return out


#: The code a figure depends on besides the networks: the reader and the scene drawing
#: (``vision/*.py``) and the benchmarks that draw and score (``CODE_FILES`` under ``bench``).
CODE_FILES = ("bench_tables.py", "table_score.py", "bench_ablation.py", "bench_see.py", "scoring.py")


def _digest(files: Iterable[tuple[str, Path]], length: int) -> str:
    """A short hash of labelled files' contents (a file not there counts as absent)."""
    h = hashlib.sha256()
    for label, path in files:
        h.update(f"{label}:{file_sha256(path) if path.is_file() else '-'};".encode())
    return h.hexdigest()[:length]


def networks_hash(nets: dict[str, Path]) -> str:
    """A hash of the network files ``nets`` read with (and their 8-bit copies)."""
    return _digest(((arg, path) for arg in sorted(nets) for path in (nets[arg], int8_copy(nets[arg]))), 20)


def code_meaning(source: str) -> str:
    """What a module's source does, without its comments and docstrings (``ast.dump`` of its
    tree, each docstring taken out): a change to the words about the code leaves it the same."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def code_hash() -> str:
    """A hash of the code the figures depend on: changed, every folder is measured again. Its
    comments and docstrings do not count (``code_meaning``), so rewording them keeps the
    figures measured."""
    code = [*sorted((REPO / "vision").glob("*.py")), *(REPO / "bench" / f for f in CODE_FILES)]
    h = hashlib.sha256()
    for path in code:
        meaning = code_meaning(path.read_text(encoding="utf-8")) if path.is_file() else "-"
        h.update(f"{path.name}:{meaning};".encode())
    return h.hexdigest()[:12]


Measure = Callable[[Figure], tuple[float, int | None]]
#: A folder's figures by name: F1, and the melds grouped exactly (None for photos).
Figures = dict[str, tuple[float, int | None]]


def measurer(nets: dict[str, Path], data: Path, quick: bool) -> Measure:
    """A function measuring one figure with the networks ``nets``: its F1 and, for drawn
    tables, the melds grouped exactly (None for photos)."""
    photos: dict[str, list[Item]] = {}

    def measure(fig: Figure) -> tuple[float, int | None]:
        if fig.kind != "real":
            total, _ = score_source(fig.source, 1 if quick else fig.tables, (1280, 960), fig.seed, nets)
            return prf(total.right, total.wrong, total.missed)[2], total.melds_hit
        if not photos:
            photos.update(held_out_photos(data))
        if fig.source not in photos:
            raise FileNotFoundError(f"the real photos of {fig.source} were not found under {data}")
        items = photos[fig.source][:3] if quick else photos[fig.source]
        return photo_f1(items, {**nets, **({"as_run": True} if fig.as_run else {})})[0], None

    return measure


def measured(folder: str, data: Path, cache: Path, quick: bool = False,
             say: Callable[[str], None] = print) -> Figures | None:
    """Every figure of the networks of ``folder`` (``shipped``: the shipped ones), from the
    cache where measured before; None (with the reason said) where ``folder`` is no folder."""
    chosen = networks(None) if folder == "shipped" else chosen_networks(Path(folder))
    if chosen is None:
        return None
    key = f"{networks_hash(chosen)}-{code_hash()}-v{FIGURES_VERSION}" + ("-quick" if quick else "")
    path = cache / f"{key}.json"
    try:
        known: dict[str, list[Any]] = json.loads(path.read_text()) if path.is_file() else {}
        if not isinstance(known, dict):
            raise ValueError("not an object")
    except (OSError, ValueError):
        say(f"{path}: unreadable, measured again")
        known = {}
    wanted = figures()
    if any(f.name not in known for f in wanted):
        warm_up(chosen["weights"], chosen["index_weights"], chosen["card_weights"])
        measure = measurer(chosen, data, quick)
        for fig in wanted:
            if fig.name not in known:
                f1, melds = measure(fig)
                known[fig.name] = [f1, melds]
                say(f"{folder}: {fig.name} {f1:.4f}" + (f" ({melds} melds)" if melds is not None else ""))
                cache.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(".tmp")
                tmp.write_text(json.dumps(known, indent=1))
                tmp.replace(path)
    return {f.name: (float(known[f.name][0]), known[f.name][1]) for f in wanted}


def mean_of(side: Sequence[Figures], name: str) -> float:
    return sum(f[name][0] for f in side) / len(side)


def changes(control: Sequence[Figures], candidate: Sequence[Figures]) -> dict[str, float]:
    """Each figure's change, the candidate's mean over its folders less the control's."""
    return {f.name: mean_of(candidate, f.name) - mean_of(control, f.name) for f in figures()}


def summary(diff: dict[str, float]) -> str:
    """Better / worse counts and the mean change, overall and by kind of figure."""
    kinds = {f.name: f.kind for f in figures()}
    better = sum(d > 1e-9 for d in diff.values())
    worse = sum(d < -1e-9 for d in diff.values())
    by_kind = []
    for kind in ("camera", "tables", "hands", "real"):
        ds = [d for n, d in diff.items() if kinds[n] == kind]
        by_kind.append(f"{kind} {sum(ds) / len(ds):+.4f}")
    return (f"better on {better}, worse on {worse}, the same on {len(diff) - better - worse}; "
            f"mean {sum(diff.values()) / len(diff):+.4f} ({', '.join(by_kind)})")


def report(control: dict[str, Figures], candidate: dict[str, Figures]) -> str:
    """The comparison printed: the figures' means on each side, then the summaries."""
    ctl, cand = list(control.values()), list(candidate.values())
    lines = [f"{'figure':28s} {'control':>9s} {'candidate':>10s} {'change':>8s}"]
    for f in figures():
        a, b = mean_of(ctl, f.name), mean_of(cand, f.name)
        lines.append(f"{f.name:28s} {a:9.4f} {b:10.4f} {b - a:+8.4f}")
    meld_means = [sum(sum(v[1] for v in f.values() if v[1] is not None) for f in side) / len(side)
                  for side in (ctl, cand)]
    lines.append(f"melds grouped exactly, drawn figures (a folder's, mean): {meld_means[0]:.1f} → {meld_means[1]:.1f}")
    lines.append(f"candidate ({len(cand)} folders) against control ({len(ctl)}): {summary(changes(ctl, cand))}")
    if len(ctl) == len(cand) and len(ctl) > 1:
        for (was, fa), (now, fb) in zip(control.items(), candidate.items(), strict=True):
            lines.append(f"  {now} against {was}: {summary(changes([fa], [fb]))}")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--control", required=True, help="folders of networks, comma-separated (or shipped)")
    ap.add_argument("--candidate", required=True, help="folders of networks, comma-separated")
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--cache", type=Path, default=REPO / ".runs" / "figures")
    ap.add_argument("--quick", action="store_true", help="a smoke test: one table a figure, three photos")
    args = ap.parse_args()
    sides: list[dict[str, Figures]] = []
    for names in (args.control, args.candidate):
        side: dict[str, Figures] = {}
        for folder in names.split(","):
            try:
                got = measured(folder, args.data, args.cache, args.quick)
            except FileNotFoundError as missing:
                print(f"error: {missing}", file=sys.stderr)
                return 2
            if got is None:
                return 2
            side[folder] = got
        sides.append(side)
    print("rendered tables and real held-out photos; F1 means over each side's folders", flush=True)
    print(report(*sides))
    return 0


if __name__ == "__main__":
    sys.exit(main())

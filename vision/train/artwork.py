"""Openly licensed card artwork for drawn training scenes, fetched from the npm registry at
training time into a local cache (never committed, never needed at run time).

Two designs are used: ``svg-cards`` (LGPL-2.1, ready PNG faces including two printed jokers)
and ``@younestouati/playing-cards-standard-deck`` (LGPL-3.0, SVG faces rasterised with
``resvg-py``). Each face is scaled to the drawn cards' size (``vision.synth.CARD_W`` ×
``CARD_H``) and its top-left corner index is found from the ink; the bottom-right index is the
same box turned half a turn, as printed cards are point-symmetric in their corners.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.card_faces import both_indices, index_from_ink
from vision.synth import CARD_H, CARD_W, Face
from vision.train import typefaces

#: (package, version) pairs fetched with ``npm pack``.
PACKAGES = (("svg-cards", "4.0.2"), ("@younestouati/playing-cards-standard-deck", "3.0.0"))
_RANK_WORDS = {"1": "A", "jack": "J", "queen": "Q", "king": "K", "11": "J", "12": "Q", "13": "K"}
_SUIT_WORDS = {"club": "C", "diamond": "D", "heart": "H", "spade": "S"}


@dataclass(frozen=True)
class ArtFace:
    """One face of one design: its card name, BGR image (``CARD_W``×``CARD_H``) and index box."""

    design: str
    card: str
    image: np.ndarray
    index: tuple[float, float, float, float]


def default_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tablekit" / "artwork"


def fetch(cache: Path | None = None) -> Path:
    """Unpack every package of ``PACKAGES`` under ``cache`` (downloading what is missing)."""
    cache = cache or default_cache()
    cache.mkdir(parents=True, exist_ok=True)
    npm = shutil.which("npm")
    for name, version in PACKAGES:
        folder = cache / _folder(name)
        if folder.is_dir():
            continue
        if npm is None:
            raise RuntimeError("npm is needed to fetch card artwork for training (apt-get install npm)")
        # each process unpacks in a folder of its own: two training runs started together
        # fetch at once, and the first to finish moves its copy into place
        tmp = Path(tempfile.mkdtemp(prefix=folder.name + ".", suffix=".part", dir=cache))
        try:
            done = subprocess.run([npm, "pack", f"{name}@{version}", "--pack-destination", str(tmp)],
                                  capture_output=True, text=True, timeout=300, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"npm pack {name}@{version} failed: {done.stderr.strip()[-300:]}")
            archive = tmp / done.stdout.strip().splitlines()[-1]
            with tarfile.open(archive) as tar:
                tar.extractall(tmp / "unpacked", filter="data")
            try:
                (tmp / "unpacked" / "package").rename(folder)
            except OSError:
                if not folder.is_dir():  # not another process's copy already in place
                    raise
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return cache


def _folder(package: str) -> str:
    return package.strip("@").replace("/", "-")


def load_faces(cache: Path | None = None) -> list[ArtFace]:
    """Every usable face of every design (fetched first if needed)."""
    root = fetch(cache)
    faces: list[ArtFace] = []
    pngs = root / _folder(PACKAGES[0][0]) / "png" / "2x"
    for path in sorted(pngs.glob("*.png")):
        card = _svg_cards_name(path.stem)
        if card:
            rgba = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if rgba is not None:
                _add(faces, "svg-cards", card, _flatten(rgba))
    svgs = root / _folder(PACKAGES[1][0]) / "cards"
    for path in sorted(svgs.glob("*.svg")):
        m = re.fullmatch(r"(\d+)([cdhs])", path.stem)
        if m:
            card = _RANK_WORDS.get(m.group(1), m.group(1)) + m.group(2).upper()
            image = _rasterise(path)
            if image is not None:
                _add(faces, "standard-deck", card, image)
    return faces


def _svg_cards_name(stem: str) -> str | None:
    if stem.startswith("joker_"):
        return "PJ"
    suit, _, rank = stem.partition("_")
    if suit not in _SUIT_WORDS or not rank:
        return None
    return _RANK_WORDS.get(rank, rank) + _SUIT_WORDS[suit]


def _flatten(rgba: np.ndarray) -> np.ndarray:
    """A face with transparent corners laid on white (the card's rounded corners stay white)."""
    if rgba.shape[2] == 3:
        return rgba
    alpha = rgba[..., 3:4].astype(np.float32) / 255.0
    flat: np.ndarray = (rgba[..., :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
    return flat


def _rasterise(path: Path) -> np.ndarray | None:
    try:
        import resvg_py
    except ImportError as exc:
        raise RuntimeError("resvg-py is needed to rasterise SVG card faces (the train extra)") from exc
    data = resvg_py.svg_to_bytes(svg_path=str(path), width=CARD_W * 2, background="#ffffff")
    return cv2.imdecode(np.frombuffer(bytes(data), np.uint8), cv2.IMREAD_COLOR)


def _add(faces: list[ArtFace], design: str, card: str, image: np.ndarray) -> None:
    image = cv2.resize(image, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    box = find_index(image)
    if box is not None:
        faces.append(ArtFace(design, card, image, box))


def find_index(face: np.ndarray) -> tuple[float, float, float, float] | None:
    """The top-left corner index of an artwork face (dark or coloured ink on light paper)."""
    hsv = cv2.cvtColor(face, cv2.COLOR_BGR2HSV)
    ink = ((hsv[..., 2] < 150) | ((hsv[..., 1] > 90) & (hsv[..., 2] > 60))).astype(np.uint8)
    return index_from_ink(ink)


def face_maker(faces: list[ArtFace], drawn_share: float = 0.3,
               fallback: Callable[[str, np.random.Generator], Face] | None = None,
               ) -> Callable[[str, np.random.Generator], Face]:
    """A ``vision.synth.scene`` face function: an artwork face of the card (slightly recoloured
    paper and ink), or with ``drawn_share`` probability (or when no design has the card) the
    project's own drawn face."""
    from vision.synth import draw_face

    by_card: dict[str, list[ArtFace]] = {}
    for f in faces:
        by_card.setdefault(f.card, []).append(f)
    drawn = fallback or draw_face

    def make(card: str, rng: np.random.Generator) -> Face:
        options = by_card.get(card)
        if not options or rng.random() < drawn_share:
            return drawn(card, rng)
        art = options[int(rng.integers(len(options)))]
        img = art.image.astype(np.float32)
        paper = rng.uniform(0.88, 1.0, 3)
        ink = rng.uniform(0.0, 40.0)
        img = img * paper[None, None, :] + ink * (1 - img / 255.0)
        image = np.clip(img, 0, 255).astype(np.uint8)
        return Face(card, image, both_indices(art.index))

    return make


def add_artwork_arguments(parser: argparse.ArgumentParser) -> None:
    """The trainers' options for artwork faces in drawn scenes."""
    parser.add_argument("--no-artwork", action="store_true",
                        help="draw every synthetic card with the project's own faces")
    parser.add_argument("--drawn-share", type=float, default=0.3,
                        help="share of synthetic cards drawn by the project rather than artwork")
    parser.add_argument("--styled-share", type=float, default=0.4,
                        help="share of synthetic cards drawn in a random deck design "
                             "(vision.deck_styles; held-out typefaces never)")
    parser.add_argument("--artwork-cache", type=Path, default=None,
                        help="where fetched artwork is kept (default: the user cache folder)")
    typefaces.add_argument(parser)


def scene_faces(args: argparse.Namespace) -> Callable[[str, np.random.Generator], Face] | None:
    """The face function the trainer's options ask for (None: the drawn faces only)."""
    from vision.deck_styles import any_deck
    from vision.synth import draw_face

    base: Callable[[str, np.random.Generator], Face] = draw_face
    if not args.no_artwork:
        faces = load_faces(args.artwork_cache)
        print(f"artwork: {len(faces)} faces from {len(PACKAGES)} designs", flush=True)
        base = face_maker(faces, args.drawn_share)
    if args.styled_share <= 0:
        return None if args.no_artwork else base
    return any_deck(held_out=False, base=base, share=args.styled_share, fonts=typefaces.required(args.typefaces))

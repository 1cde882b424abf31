"""Deck enrolment: templates of a club's own corner indices, used as an extra classifier stage.

Each enrolled photo shows one known card; its clearest corner indices are cut out, scaled to
a fixed patch and stored with the card's name. When reading, every detected index patch is
compared (normalised correlation, four quarter turns) with the templates and a close match
sharpens the detector's class distribution towards that card.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.lib.npyio import NpzFile

from vision.detector import Detection
from vision.errors import VisionError
from vision.labels import INDEX_CLASSES
from vision.reading import Box

PATCH = 32
#: More templates than any deck needs (54 cards, several photos each) is not a deck file.
MAX_TEMPLATES = 4096


def index_patch(image: np.ndarray, box: Box) -> np.ndarray | None:
    """The index under ``box`` as a zero-mean, unit-norm square grey patch (None if empty)."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0) * 1.1
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    a0, b0 = int(max(0, cx - side / 2)), int(max(0, cy - side / 2))
    a1, b1 = int(min(w, cx + side / 2)), int(min(h, cy + side / 2))
    if a1 - a0 < 4 or b1 - b0 < 4:
        return None
    grey = cv2.cvtColor(image[b0:b1, a0:a1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    patch = cv2.resize(grey, (PATCH, PATCH), interpolation=cv2.INTER_AREA)
    patch -= patch.mean()
    norm = float(np.linalg.norm(patch))
    return patch / norm if norm > 1e-6 else None


@dataclass(frozen=True)
class DeckTemplates:
    """Enrolled index patches (N, PATCH, PATCH) and the card each shows."""

    cards: tuple[str, ...]
    patches: np.ndarray

    def save(self, path: Path) -> None:
        np.savez_compressed(path, cards=np.array(self.cards), patches=self.patches)

    @classmethod
    def load(cls, path: Path) -> DeckTemplates:
        """The templates ``tablekit enroll`` saved; :class:`VisionError` names what is wrong
        with a file that is not such templates (an unknown card, a patch of another shape,
        as many cards as patches, values that are not numbers)."""
        try:
            loaded = np.load(path, allow_pickle=False)
            if not isinstance(loaded, NpzFile):
                raise ValueError("not an .npz archive of cards and patches")
            with loaded as data:
                cards, patches = data["cards"], data["patches"]
                if cards.ndim != 1 or cards.dtype.kind not in "US" or len(cards) > MAX_TEMPLATES:
                    raise ValueError(f"'cards' must list at most {MAX_TEMPLATES} card names")
                if patches.shape != (len(cards), PATCH, PATCH) or patches.dtype.kind not in "fiu":
                    raise ValueError(f"'patches' must be {len(cards)}x{PATCH}x{PATCH} numbers "
                                     f"(one per card), not {'x'.join(map(str, patches.shape))} {patches.dtype}")
                names = tuple(str(c) for c in cards)
                patches = patches.astype(np.float32)
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise VisionError(f"cannot load deck templates {path}: {exc}") from None
        unknown = sorted({c for c in names if c not in INDEX_CLASSES})
        if unknown:
            raise VisionError(f"cannot load deck templates {path}: unknown card(s) {', '.join(unknown[:5])}")
        if not np.isfinite(patches).all():
            raise VisionError(f"cannot load deck templates {path}: patches hold values that are not numbers")
        return cls(names, patches)

    def similarity(self, patch: np.ndarray) -> np.ndarray:
        """Best correlation with each template over four quarter turns."""
        turns = np.stack([np.rot90(patch, k) for k in range(4)]).reshape(4, -1)
        flat = self.patches.reshape(len(self.cards), -1)
        best: np.ndarray = (flat @ turns.T).max(axis=1)
        return best

    def refine(self, image: np.ndarray, detections: list[Detection],
               sharpness: float = 12.0, floor: float = 0.6) -> list[Detection]:
        """Detections with index class distributions sharpened by template matches."""
        if not self.cards:
            return detections
        out = []
        class_of = np.array([INDEX_CLASSES.index(c) for c in self.cards])
        for d in detections:
            patch = index_patch(image, d.box) if d.kind == "index" else None
            if patch is None:
                out.append(d)
                continue
            sim = self.similarity(patch)
            best = np.full(len(INDEX_CLASSES), -1.0)
            np.maximum.at(best, class_of, sim)
            boost = np.where(best >= floor, np.exp(sharpness * (best - floor)), 1.0)
            probs = d.probs * boost
            out.append(Detection(d.kind, d.x, d.y, d.box, d.score, probs / probs.sum()))
        return out


def enroll(photos: list[tuple[str, np.ndarray]], detect_fn: object = None) -> DeckTemplates:
    """Templates from photos of known single cards: ``[(card, image), …]``."""
    from engine.cards import parse_card
    from vision.detector import detect

    detector = detect if detect_fn is None else detect_fn
    cards: list[str] = []
    patches: list[np.ndarray] = []
    for card, image in photos:
        name = str(parse_card(card))
        found = [d for d in detector(image) if d.kind == "index"]  # type: ignore[operator]
        found.sort(key=lambda d: -d.score)
        for d in found[:2]:
            patch = index_patch(image, d.box)
            if patch is not None:
                cards.append(name)
                patches.append(patch)
    if not cards:
        raise VisionError("no corner index was found on any enrolment photo")
    return DeckTemplates(tuple(cards), np.stack(patches).astype(np.float32))

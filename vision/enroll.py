"""Deck enrolment: what a club's own deck looks like to the recognizer, learnt from photos.

Each enrolled photo shows one known card. Two things are learnt from them:

- a **head**, fitted to this deck: the index classifier's reads of the photos' indices (as
  found and read at the table, and again darkened, blurred and noisy) are the inputs of a
  softmax layer over the classifier's log-probabilities, started from the identity (the
  classifier's own read) and fitted by gradient descent with a pull back towards it. A deck
  whose clubs the classifier reads as half spades gets that corrected; a class no photo
  showed keeps the classifier's read. Seconds on the CPU, no training libraries;
- **templates**: the clearest corner indices cut out and scaled to a fixed patch; when
  reading, every index patch is compared (normalised correlation, four quarter turns) with
  them and a close match sharpens the class distribution towards that card;
- with the training extra installed, a **detector** and an **index classifier** trained on
  from the shipped ones for a few minutes on the photos and on tables drawn with the deck's
  own faces, cut from the photos (``vision.card_faces``, ``vision.train.fine_tune``). They are
  kept in the deck file and read in place of the shipped ones wherever the deck is used, and
  the head is fitted to the fine-tuned classifier's reads.
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from pathlib import Path

import cv2
import numpy as np
from numpy.lib.npyio import NpzFile

from vision.detector import Detection
from vision.errors import VisionError
from vision.files import write_atomically
from vision.labels import INDEX_CLASSES
from vision.reading import Box

PATCH = 32
#: More templates than any deck needs (54 cards, several photos each) is not a deck file.
MAX_TEMPLATES = 4096
#: A network larger than this is not one the kit trained (the shipped detector is about 2 MB).
MAX_NETWORK_BYTES = 64 << 20
#: Of enrolment's minutes for fine-tuning, the detector's share at most; the index classifier
#: has what the detector leaves (the detector usually ends at its steps, well before).
DETECTOR_SHARE = 0.7
#: Fewer cut faces than this cannot teach the detector a deck; enrolment then fits the head only.
MIN_FACES = 8


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


#: Index classes the head maps between (every card and the printed joker).
N_CLASSES = len(INDEX_CLASSES)
#: Reads of a class are floored at this before their logarithm is taken.
_FLOOR = 1e-4


def _log_reads(probs: np.ndarray) -> np.ndarray:
    """The reads as logits: their logarithms less each read's mean (a read naming no class
    at all is all zeros, which no head can turn into a card)."""
    logs = np.log(np.clip(probs, _FLOOR, 1.0))
    out: np.ndarray = (logs - logs.mean(axis=-1, keepdims=True)).astype(np.float32)
    return out


def apply_head(head: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """Reads (N, classes) through the fitted head (weights, classes × classes)."""
    logits = _log_reads(probs) @ head.T
    e = np.exp(logits - logits.max(axis=-1, keepdims=True))
    out: np.ndarray = e / e.sum(axis=-1, keepdims=True)
    return out


def fit_head(reads: np.ndarray, labels: np.ndarray, pull: float = 0.05, steps: int = 300,
             rate: float = 0.5) -> np.ndarray:
    """A softmax layer over the log ``reads`` (N, classes) fitted to ``labels`` (N class
    numbers), started at the identity and pulled back towards it by ``pull`` (an L2 penalty
    on its distance from the identity): where the photos agree with the classifier, nothing
    changes. It has no bias: which cards were photographed, and how often, says nothing of
    which lie on the table. Plain full-batch gradient descent: deterministic, seconds."""
    n, k = reads.shape
    x = _log_reads(reads)
    target = np.zeros((n, k), np.float32)
    target[np.arange(n), labels] = 1.0
    eye = np.eye(k, dtype=np.float32)
    w = eye.copy()
    spread = max(1.0, float(np.abs(x).max()))  # keeps the step steady whatever the floor
    for _ in range(steps):
        logits = x @ w.T
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        p = e / e.sum(axis=1, keepdims=True)
        g = (p - target) / n
        w -= rate * (g.T @ x / spread + pull * (w - eye))
    return w.astype(np.float32)


@lru_cache(maxsize=8)
def _network_file(onnx: bytes, int8: bytes | None = None) -> Path:
    """A deck's network as a file the inference backends can open (kept, by content, in the
    temporary folder: written once, atomically), with its 8-bit copy ``int8`` beside it
    (``vision.inference.int8_copy``) when there is one. The name is taken from both, so the
    same network stored without its copy runs in float, not with a copy another deck left."""
    from vision.inference import int8_copy

    folder = Path(tempfile.gettempdir()) / "tablekit-decks"
    folder.mkdir(exist_ok=True)
    digest = hashlib.sha256(onnx)
    if int8 is not None:
        digest.update(b"int8")
        digest.update(int8)
    path = folder / f"{digest.hexdigest()[:24]}.onnx"
    for where, data in ((path, onnx), (int8_copy(path), int8)):
        if data is not None and (not where.is_file() or where.read_bytes() != data):
            part = where.with_suffix(f".{os.getpid()}.part")
            part.write_bytes(data)
            part.replace(where)
    if int8 is None:  # a copy left under this name by an earlier version is not this network's
        int8_copy(path).unlink(missing_ok=True)
    return path


@dataclass(frozen=True)
class DeckTemplates:
    """Enrolled index patches (N, PATCH, PATCH) and the card each shows, the head fitted to
    the deck (``head``: weights, classes × classes; None when the file was written before
    heads, or no index could be read), and the detector and index classifier trained on to
    it (``detector_onnx``, ``index_onnx``: ONNX files' bytes; None when enrolment did not
    fine-tune one, or the file was written before it could), with the classifier's 8-bit copy
    (``index_int8_onnx``, run in its place as the shipped one's is; None: it runs in float)."""

    cards: tuple[str, ...]
    patches: np.ndarray
    head: np.ndarray | None = None
    detector_onnx: bytes | None = field(default=None, repr=False)
    index_onnx: bytes | None = field(default=None, repr=False)
    index_int8_onnx: bytes | None = field(default=None, repr=False)

    @property
    def detector(self) -> Path | None:
        """The deck's own detector as a file, to read tables with (None: the shipped one)."""
        return None if self.detector_onnx is None else _network_file(self.detector_onnx)

    @property
    def index_classifier(self) -> Path | None:
        """The deck's own index classifier as a file, its 8-bit copy beside it (None: the
        shipped one)."""
        return None if self.index_onnx is None else _network_file(self.index_onnx, self.index_int8_onnx)

    def save(self, path: Path) -> None:
        parts: dict[str, np.ndarray] = {"cards": np.array(self.cards), "patches": self.patches}
        if self.head is not None:
            parts["head"] = self.head
        if self.detector_onnx is not None:
            parts["detector"] = np.frombuffer(self.detector_onnx, np.uint8)
        if self.index_onnx is not None:
            parts["indexnet"] = np.frombuffer(self.index_onnx, np.uint8)
        if self.index_onnx is not None and self.index_int8_onnx is not None:
            parts["indexnet_int8"] = np.frombuffer(self.index_int8_onnx, np.uint8)
        buffer = io.BytesIO()  # written whole under the exact name given (numpy would add .npz)
        np.savez_compressed(buffer, **parts)  # type: ignore[arg-type]  # numpy types **kwds loosely
        write_atomically(path, buffer.getvalue())

    @classmethod
    def load(cls, path: Path) -> DeckTemplates:
        """The templates ``tablekit enroll`` saved; :class:`VisionError` names what is wrong
        with a file that is not such templates (an unknown card, a patch of another shape,
        as many cards as patches, values that are not numbers)."""
        try:
            with open(path, "rb") as f:
                magic = f.read(4)
            if magic != b"PK\x03\x04":  # an .npz is a zip archive; numpy's own guesses mislead
                raise ValueError("not an .npz archive of cards and patches (not what `tablekit enroll` writes)")
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
                head = _load_head(data)
                detector = _load_network(data, "detector", "detector")
                index = _load_network(data, "indexnet", "index classifier")
                index_int8 = _load_network(data, "indexnet_int8", "index classifier's 8-bit copy")
        except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile) as exc:
            raise VisionError(f"cannot load deck templates {path}: {exc}") from None
        unknown = sorted({c for c in names if c not in INDEX_CLASSES})
        if unknown:
            raise VisionError(f"cannot load deck templates {path}: unknown card(s) {', '.join(unknown[:5])}")
        if not np.isfinite(patches).all():
            raise VisionError(f"cannot load deck templates {path}: patches hold values that are not numbers")
        # an 8-bit copy is run only beside the float file it was made from (else the float runs)
        deck = cls(names, patches, head, detector, index, index_int8 if index is not None else None)
        if deck.detector is not None:
            from vision.inference import load_network

            try:
                load_network(deck.detector)
            except VisionError:
                raise VisionError(f"cannot load deck templates {path}: its detector is not a "
                                  f"network the kit can run") from None
        if deck.index_classifier is not None and not _reads_index_crops(deck.index_classifier):
            raise VisionError(f"cannot load deck templates {path}: its index classifier is not a "
                              f"network the kit can run on index crops")
        return deck

    def similarity(self, patch: np.ndarray) -> np.ndarray:
        """Best correlation with each template over four quarter turns."""
        turns = np.stack([np.rot90(patch, k) for k in range(4)]).reshape(4, -1)
        flat = self.patches.reshape(len(self.cards), -1)
        best: np.ndarray = (flat @ turns.T).max(axis=1)
        return best

    def refine(self, image: np.ndarray, detections: list[Detection],
               sharpness: float = 12.0, floor: float = 0.6, templates: bool = True) -> list[Detection]:
        """Detections with index class distributions read through the deck's head, then
        sharpened by template matches (``templates``)."""
        if self.head is not None:
            detections = self._through_head(detections)
        if not self.cards or not templates:
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
            out.append(replace(d, probs=probs / probs.sum()))
        return out


    def _through_head(self, detections: list[Detection]) -> list[Detection]:
        assert self.head is not None
        mine = [i for i, d in enumerate(detections) if d.kind == "index"]
        if not mine:
            return detections
        probs = apply_head(self.head, np.stack([detections[i].probs for i in mine]))
        out = list(detections)
        for row, i in enumerate(mine):
            out[i] = replace(detections[i], probs=probs[row])
        return out


def _load_head(data: NpzFile) -> np.ndarray | None:
    """The head stored beside the templates, checked (None in a file without one)."""
    if "head" not in data.files:
        return None
    w = data["head"]
    if w.shape != (N_CLASSES, N_CLASSES) or w.dtype.kind != "f":
        raise ValueError(f"the head must be {N_CLASSES}x{N_CLASSES} numbers, "
                         f"not {'x'.join(map(str, w.shape))} {w.dtype}")
    if not np.isfinite(w).all():
        raise ValueError("the head holds values that are not numbers")
    out: np.ndarray = w.astype(np.float32)
    return out


def _load_network(data: NpzFile, key: str, what: str) -> bytes | None:
    """A fine-tuned network (``what``) stored in the deck file under ``key``, as bytes (None in
    a file without one)."""
    if key not in data.files:
        return None
    raw = data[key]
    if raw.ndim != 1 or raw.dtype != np.uint8 or not 0 < raw.size <= MAX_NETWORK_BYTES:
        raise ValueError(f"the {what} must be an ONNX file's bytes (at most {MAX_NETWORK_BYTES >> 20} MB)")
    return raw.tobytes()


def _reads_index_crops(path: Path) -> bool:
    """Whether the network in ``path`` runs on a batch of index crops and gives one read of
    every index class (and background) for each."""
    from vision.classifier import N_OUT, classify_crops, crop_size

    try:
        crop = np.zeros((*crop_size(path)[::-1], 3), np.uint8)
        probs = classify_crops([crop, crop], path)
    except Exception:  # noqa: BLE001  # each backend fails in its own way (onnxruntime's, cv2.error)
        return False
    return probs.shape == (2, N_OUT) and bool(np.isfinite(probs).all())


def _views(image: np.ndarray, rng: np.random.Generator) -> list[np.ndarray]:
    """The photo as taken and as a table might show it: dimmer and noisy, blurred, smaller."""
    h, w = image.shape[:2]
    dim = np.clip(image.astype(np.float32) * rng.uniform(0.35, 0.6) + rng.normal(0, 6, image.shape), 0, 255)
    small = cv2.resize(image, (max(8, w * 3 // 5), max(8, h * 3 // 5)), interpolation=cv2.INTER_AREA)
    return [image, dim.astype(np.uint8), cv2.GaussianBlur(image, (5, 5), 1.2), small]


#: What enrolment's fine-tunes give, as ONNX files' bytes: the detector, the index classifier
#: and the classifier's 8-bit copy.
Tuned = tuple[bytes | None, bytes | None, bytes | None]


def fine_tuned_networks(photos: list[tuple[str, np.ndarray]], minutes: float, seed: int = 0,
                        log: Callable[[str], None] = print) -> Tuned:
    """The shipped detector and index classifier trained on to the deck of ``photos``
    (``vision.train.fine_tune``), in at most ``minutes`` of training for both (the detector
    at most ``DETECTOR_SHARE`` of them, the classifier what it leaves), with the classifier's
    8-bit copy; all None, saying why through ``log``, when the training extra is not installed
    or too few cards could be cut out of the photos."""
    from vision.card_faces import enrolled_faces

    faces = enrolled_faces(photos)
    log(f"cut {len(faces)} of {len(photos)} cards out of their photos")
    if len(faces) < MIN_FACES:
        log(f"the networks are not fine-tuned: they need at least {MIN_FACES} cards cut out "
            f"(photograph each card alone, wholly in the frame, on a plain table)")
        return None, None, None
    try:
        from vision.train.fine_tune import (
            FineTuneSettings,
            deck_scenes,
            fine_tune,
            fine_tune_index,
            quantize_index,
        )
    except ImportError:
        log("the networks are not fine-tuned: that needs the training extra "
            "(pip install -e '.[train]')")
        return None, None, None
    began = time.monotonic()
    settings = FineTuneSettings(minutes=minutes * DETECTOR_SHARE, seed=seed)
    scenes = deck_scenes(faces, settings)
    with tempfile.TemporaryDirectory() as scratch:
        detector = fine_tune(faces, Path(scratch) / "detector.onnx", settings, log=log, scenes=scenes)
        left = minutes - (time.monotonic() - began) / 60
        settings = replace(settings, index_minutes=min(settings.index_minutes, max(left, 0.5)))
        index = fine_tune_index(faces, detector, Path(scratch) / "indexnet.onnx", settings, log=log,
                                scenes=scenes)
        int8 = quantize_index(index, _fed(index, detector, [image for _, image in photos]))
        if int8 is None:
            log("the index classifier has no 8-bit copy: no index crop was cut from the photos")
        return detector.read_bytes(), index.read_bytes(), None if int8 is None else int8.read_bytes()


def _fed(classifier: Path, detector: Path, images: list[np.ndarray]) -> list[np.ndarray]:
    """The inputs ``classifier`` is fed while the index crops of ``images`` are found by
    ``detector`` (and in each photo's negative) and read, as the table reads them."""
    from vision.classifier import refine_indices
    from vision.detector import detect_both
    from vision.inference import recording

    with recording(classifier) as seen:
        for image in images:
            refine_indices(image, detect_both(image, weights=detector), classifier)
    return seen[str(classifier)]


def enroll(photos: list[tuple[str, np.ndarray]], detect_fn: object = None,
           head: bool = True, seed: int = 0, tune_minutes: float = 0.0,
           log: Callable[[str], None] = print) -> DeckTemplates:
    """Templates and a fitted head from photos of known single cards: ``[(card, image), …]``.
    ``detect_fn`` (an image to detections) replaces the detector for the templates; the head
    reads the photos as the table does (the detector, the photo's negative, the index
    classifier) and is left out with ``head=False``. With ``tune_minutes`` the detector and
    the index classifier are first fine-tuned to the deck for at most that long together
    (``fine_tuned_networks``), and the templates and head are learnt from their reads."""
    from engine.cards import parse_card
    from vision.classifier import DEFAULT_CLASSIFIER, refine_indices
    from vision.detector import DEFAULT_WEIGHTS, detect, detect_both

    onnx, index_onnx, index_int8 = (fine_tuned_networks(photos, tune_minutes, seed, log) if tune_minutes > 0
                                    else (None, None, None))
    weights = _network_file(onnx) if onnx is not None else DEFAULT_WEIGHTS
    classifier = _network_file(index_onnx, index_int8) if index_onnx is not None else DEFAULT_CLASSIFIER
    detector = partial(detect, weights=weights) if detect_fn is None else detect_fn
    rng = np.random.default_rng(seed)
    cards: list[str] = []
    patches: list[np.ndarray] = []
    reads: list[np.ndarray] = []
    labels: list[int] = []
    for card, image in photos:
        name = str(parse_card(card))
        found = [d for d in detector(image) if d.kind == "index"]  # type: ignore[operator]
        found.sort(key=lambda d: -d.score)
        for d in found[:2]:
            patch = index_patch(image, d.box)
            if patch is not None:
                cards.append(name)
                patches.append(patch)
        if not head or name not in INDEX_CLASSES:
            continue
        for view in _views(image, rng):
            indices = [d for d in refine_indices(view, detect_both(view, weights=weights), classifier)
                       if d.kind == "index"]
            indices.sort(key=lambda d: -d.score)
            for d in indices[:2]:
                reads.append(d.probs)
                labels.append(INDEX_CLASSES.index(name))
    if not cards:
        raise VisionError("no corner index was found on any enrolment photo")
    fitted = fit_head(np.stack(reads), np.array(labels)) if reads else None
    return DeckTemplates(tuple(cards), np.stack(patches).astype(np.float32), fitted, onnx, index_onnx,
                         index_int8)

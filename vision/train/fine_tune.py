"""Fine-tuning the detector and the index classifier to one club's deck (``tablekit enroll``;
torch, the train extra).

The enrolment photos give the deck's faces (``vision.card_faces``). Both networks are trained
on from the shipped weights, for a few minutes each, on three kinds of example
(``deck_scenes``, drawn once for both):

- the enrolment photos themselves, each index labelled where the cut face puts it;
- drawn tables of that deck alone (``vision.synth.scene`` with its faces, single cards and
  whole crowded tables, on the photos' own table with the card taken out and on drawn ones);
- drawn tables of the designs the networks were trained on (``vision.deck_styles`` and the
  project's drawn faces), so that they keep reading the decks they knew.

The detector (``fine_tune``) learns where the deck's indices lie; the index classifier
(``fine_tune_index``) learns to read them, on crops of those examples and of the boxes the
fine-tuned detector itself finds on the photos, and is given an 8-bit copy
(``quantize_index``) as the shipped one is. Batch norms stay as shipped and the learning
rates are a tenth (detector) and a quarter (classifier) of a from-scratch run's, so a few
minutes move the networks towards the deck without unlearning the rest.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.card_faces import EnrolledFace, both_indices
from vision.classifier import CROP_H, CROP_W, DEFAULT_CLASSIFIER, N_OUT, crop_size
from vision.deck_styles import any_deck
from vision.detector import DEFAULT_WEIGHTS
from vision.labels import index_class
from vision.synth import Face, draw_face
from vision.train import precisions
from vision.train.dataset import Photo, synthetic_photos
from vision.train.train import fit


@dataclass(frozen=True)
class FineTuneSettings:
    """How long and how hard the networks are trained on (the defaults fit enrolment's budget)."""

    steps: int = 1500
    minutes: float = 20.0
    lr: float = 2e-4
    crop: int = 256
    batch: int = 16
    deck_scenes: int = 240
    other_scenes: int = 120
    photo_share: float = 0.2  # of each batch: the enrolment photos (the rest: drawn scenes)
    crowded: float = 0.35
    threads: int = 2
    seed: int = 0
    #: the index classifier's fine-tune (``fine_tune_index``): its steps, minutes, learning
    #: rate and batch, and how many crops of each enrolment photo's index an epoch cuts
    index_steps: int = 1500
    index_minutes: float = 8.0
    index_lr: float = 5e-4
    index_batch: int = 64
    index_per_photo: int = 4


@dataclass(frozen=True)
class DeckScenes:
    """What both fine-tunes learn from: the enrolment photos labelled (``enrolment_photo``),
    drawn tables of the deck, and drawn tables of the designs the networks knew."""

    photos: list[Photo]
    deck: list[Photo]
    known: list[Photo]


def deck_scenes(faces: list[EnrolledFace], settings: FineTuneSettings | None = None) -> DeckScenes:
    """The enrolment photos of ``faces`` and the tables drawn for them (``settings``' counts)."""
    s = settings or FineTuneSettings()
    if not faces:
        raise ValueError("no enrolled face to draw the deck's tables with")
    photos = [enrolment_photo(f"enrolled-{i}", f) for i, f in enumerate(faces)]
    deck = synthetic_photos(s.deck_scenes, s.seed + 1, deck_face_maker(faces), backgrounds(faces),
                            crowded=s.crowded)
    known = synthetic_photos(s.other_scenes, s.seed + 2, any_deck(False, draw_face, 0.5), None,
                             crowded=s.crowded)
    return DeckScenes(photos, deck, known)


def deck_face_maker(faces: list[EnrolledFace]) -> Callable[[str, np.random.Generator], Face]:
    """A scene face function drawing this deck only: a card's own face when it was enrolled,
    else another enrolled face (the detector learns where indices lie and how they look, which
    any face of the deck shows), slightly relit each time."""
    by_card: dict[str, list[EnrolledFace]] = {}
    for f in faces:
        by_card.setdefault(f.card, []).append(f)

    def make(card: str, rng: np.random.Generator) -> Face:
        options = by_card.get(card) or faces
        face = options[int(rng.integers(len(options)))]
        gain = rng.uniform(0.85, 1.1, 3)
        image = np.clip(face.face.image.astype(np.float32) * gain[None, None, :], 0, 255).astype(np.uint8)
        return Face(face.card, image, both_indices(face.index))

    return make


def enrolment_photo(name: str, face: EnrolledFace) -> Photo:
    """An enrolment photo labelled with its card's two indices."""
    k = index_class(face.card)
    indices = [((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0, k)
               for x0, y0, x1, y1 in face.photo_indices()]
    return Photo(name, face.photo, indices, [], [], True, False)


def backgrounds(faces: list[EnrolledFace], limit: int = 30) -> list[np.ndarray]:
    """The enrolment photos' table with the card taken out (its quad filled in from the table
    around it), at most ``limit`` of them."""
    out = []
    for f in faces[:: max(1, len(faces) // limit)][:limit]:
        image, quad = f.photo, f.face.quad
        card = np.zeros(image.shape[:2], np.uint8)
        cv2.fillConvexPoly(card, quad.round().astype(np.int32), 255)
        grown = cv2.dilate(card, np.ones((9, 9), np.uint8))
        small = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        out.append(cv2.inpaint(small, cv2.resize(grown, small.shape[1::-1]), 5, cv2.INPAINT_TELEA))
    return out


def fine_tune(faces: list[EnrolledFace], out: Path, settings: FineTuneSettings | None = None,
              init: Path = DEFAULT_WEIGHTS, log: Callable[[str], None] = print,
              scenes: DeckScenes | None = None) -> Path:
    """Train the detector at ``init`` on towards the deck of ``faces`` (cut from enrolment
    photos) and write it to ``out`` (ONNX). Stops after ``settings.steps`` steps or
    ``settings.minutes``, whichever comes first, and exports what it has. ``scenes`` are the
    examples when already drawn (``deck_scenes``)."""
    import torch

    s = settings or FineTuneSettings()
    scenes = scenes or deck_scenes(faces, s)
    torch.manual_seed(s.seed)
    torch.set_num_threads(s.threads)
    rng = np.random.default_rng(s.seed)
    photos, deck, known = scenes.photos, scenes.deck, scenes.known
    log(f"fine-tuning the detector: {len(photos)} photos, {len(deck)} drawn tables of the deck, "
        f"{len(known)} of known designs; at most {s.steps} steps or {s.minutes:g} minutes")
    args = argparse.Namespace(
        seed=s.seed, batch=s.batch, crop=s.crop, synth=len(deck) + len(known),
        synth_share=1.0 - s.photo_share, lr=s.lr, all=False,
        precision=precisions.AUTO, no_artwork=True, drawn_share=0.0, styled_share=0.0,
        crowded_share=s.crowded, init_onnx=init, pseudo=None, fresh=True, minutes=s.minutes)
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:  # the trainer's checkpoints live and die here
        work = Path(scratch) / out.name
        fit(photos, deck + known, args, s.steps, work, rng, finish=True)
        out.write_bytes(work.read_bytes())
    return out


def fine_tune_index(faces: list[EnrolledFace], detector: Path, out: Path,
                    settings: FineTuneSettings | None = None, init: Path = DEFAULT_CLASSIFIER,
                    log: Callable[[str], None] = print, scenes: DeckScenes | None = None) -> Path:
    """Train the index classifier at ``init`` on towards the deck of ``faces`` and write it to
    ``out`` (ONNX, the crop size of ``init``). Each epoch cuts fresh augmented crops: every
    enrolment photo's indices ``index_per_photo`` times, the drawn tables' indices once (the
    deck's and the known designs'), background around them, and the boxes ``detector`` (the
    deck's own) finds on the photos, labelled by the index they hit or as background. Stops
    after ``settings.index_steps`` steps or ``settings.index_minutes``, whichever comes first."""
    import torch

    from vision.train.crops import add_proposals, index_crops, proposal_crops
    from vision.train.net import freeze_norms, load_folded
    from vision.train.train_classifier import IndexNet, export, fit_epoch

    s = settings or FineTuneSettings()
    scenes = scenes or deck_scenes(faces, s)
    torch.manual_seed(s.seed)
    torch.set_num_threads(s.threads)
    rng = np.random.default_rng([s.seed, 1])  # not the detector's crops' generator
    photos = [replace(p, proposals=[]) for p in scenes.photos]  # the detector's boxes: this one's
    proposals = add_proposals(photos, detector)
    drawn = scenes.deck + scenes.known
    size = crop_size(init, (CROP_W, CROP_H))
    model = IndexNet(size[0], size[1], N_OUT)
    load_folded(str(init), *model.layers())
    opt = torch.optim.AdamW(model.parameters(), lr=s.index_lr, weight_decay=1e-4)
    args = argparse.Namespace(batch=s.index_batch, steps=s.index_steps, lr=s.index_lr,
                              precision=precisions.AUTO)
    log(f"fine-tuning the index classifier: {len(photos)} photos ({proposals} of the detector's boxes), "
        f"{len(drawn)} drawn tables; at most {s.index_steps} steps or {s.index_minutes:g} minutes")
    step, began = 0, time.monotonic()
    while step < s.index_steps and time.monotonic() - began < s.index_minutes * 60:
        freeze_norms(model)  # the shipped statistics: a few minutes' batches would skew them
        own_x, own_y = index_crops(photos, rng, per_index=s.index_per_photo, size=size)
        drawn_x, drawn_y = index_crops(drawn, rng, per_index=1, background_per_photo=1, size=size)
        box_x, box_y = proposal_crops(photos, "index", rng, size=size)
        x = np.concatenate([own_x, drawn_x, np.array(box_x).reshape(-1, *own_x.shape[1:])])
        y = np.concatenate([own_y, drawn_y, np.array(box_y, np.int64)])
        step, _ = fit_epoch(model, opt, x, y, rng, step, args, smoothing=0.05)
    out.parent.mkdir(parents=True, exist_ok=True)
    export(model, out, size)
    log(f"index classifier fine-tuned: {step} steps in {(time.monotonic() - began) / 60:.1f} minutes")
    return out


def quantize_index(classifier: Path, batches: list[np.ndarray]) -> Path | None:
    """Write the 8-bit copy of the fine-tuned ``classifier`` beside it (``vision.train.int8``:
    onnxruntime's static quantization, as the shipped copy is made), its activations' ranges
    measured on ``batches``, the inputs the kit fed it (enrolment: the crops cut while the
    tuned networks read the enrolment photos; real photos set the ranges). The copy's path;
    None when there was no input to measure on (the classifier then runs in float)."""
    from vision.inference import int8_copy
    from vision.train.int8 import quantize

    if not batches:
        return None
    out = int8_copy(classifier)
    quantize(classifier, batches, out)
    return out

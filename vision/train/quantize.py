"""Build the 8-bit copies of the crop classifiers (``indexnet.int8.onnx``, ``cardrank.int8.onnx``)
that onnxruntime runs two to three times faster than the float files (``vision.inference``).

Usage (repo root, the ``dev`` or ``train`` extra installed for ``onnx``)::

    .venv/bin/python -m vision.train.quantize [--weights vision/weights] [--photos 200]
                                              [--scenes 0] [--seed 0] [--nets indexnet,cardrank]

Each copy is onnxruntime's static quantization of the float file: weights per output channel
and activations per tensor in 8 bits, with QuantizeLinear/DequantizeLinear pairs around each
operation but the first convolution, which stays float (it sees the raw pixels; kept float,
the index classifier's copy reads held-out photos and tables more often as the float network
does, at the same speed: ``vision/HISTORY.md``), and the activations' ranges (minimum to maximum) measured on the inputs the kit
really gives the network. Those are recorded (``vision.inference.recording``) while the
float networks read shared photos of the capture groups that are not held out (all of them
with ``--all``), and, with ``--scenes``, drawn scenes as drawn (the training designs, never a
held-out typeface). Real photos set the ranges: with drawn scenes recoloured as training
recolours them (negatives, very dark frames, salt noise) among the inputs, the ranges grew so
wide that the held-out dark webcam photos lost F1 (0.9744 with the float networks, 0.9610),
while ranges from photos alone kept it (``bench/bench_ablation.py``). A seed gives the same
copies. Each copy records the SHA-256 of its float file, and is run only beside that file.
This is the last stage of ``python -m vision.train``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

from vision.inference import int8_copy, recording
from vision.train.int8 import quantize

REPO = Path(__file__).resolve().parents[2]
#: The networks given an 8-bit copy: the crop classifiers, where a wide table spends half its time.
NETS = ("indexnet", "cardrank")


def calibration_images(args: argparse.Namespace) -> list[np.ndarray]:
    """The images whose reading supplies the calibration inputs: shared photos of the capture
    groups not held out (``--photos`` of them, drawn by the seed), then ``--scenes`` drawn
    scenes as drawn."""
    from vision.train.dataset import load_photos

    rng = np.random.default_rng(args.seed + 11)
    images = []
    if args.photos > 0 and args.data.is_dir():
        photos = load_photos(args.data, None if args.all else False)
        for i in sorted(rng.choice(len(photos), min(args.photos, len(photos)), replace=False)):
            images.append(photos[int(i)].image)
    if args.scenes > 0:
        from vision.train.artwork import scene_faces
        from vision.train.turns import drawn_scenes

        images += [img for img, _ in drawn_scenes(args.scenes, rng, scene_faces(args))]
    return images


def main() -> int:
    from vision.train.artwork import add_artwork_arguments

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--weights", type=Path, default=REPO / "vision" / "weights",
                    help="the folder of float weights (the copies are written beside them)")
    ap.add_argument("--nets", default=",".join(NETS), help="which networks, by file stem")
    ap.add_argument("--photos", type=int, default=200, help="shared photos read for calibration")
    ap.add_argument("--scenes", type=int, default=0, help="drawn scenes read for calibration too")
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--all", action="store_true", help="take photos of the held-out groups too")
    ap.add_argument("--threads", type=int, default=2, help="accepted for the one command")
    ap.add_argument("--minutes", type=float, default=None, help="accepted for the one command")
    add_artwork_arguments(ap)
    args = ap.parse_args()
    # the float networks are measured, whatever copies lie beside them
    os.environ["TABLEKIT_PRECISION"] = "float"
    from vision.classifier import DEFAULT_CARD_CLASSIFIER, DEFAULT_CLASSIFIER, DEFAULT_TURN
    from vision.detector import DEFAULT_WEIGHTS
    from vision.index_boxes import DEFAULT_BOXES
    from vision.recognize import read_table

    began = time.time()
    nets = [args.weights / f"{n}.onnx" for n in args.nets.split(",") if n]
    missing = [str(p) for p in nets if not p.is_file()]
    if missing:
        print(f"error: no float weights to copy: {', '.join(missing)}", file=sys.stderr)
        return 2
    images = calibration_images(args)
    if not images:
        print(f"error: nothing to calibrate on: no photos under {args.data} and --scenes 0",
              file=sys.stderr)
        return 2
    with recording(*nets) as seen:
        for image in images:
            read_table(image, pieces="cards", weights=args.weights / DEFAULT_WEIGHTS.name,
                       index_weights=args.weights / DEFAULT_CLASSIFIER.name,
                       card_weights=args.weights / DEFAULT_CARD_CLASSIFIER.name,
                       turn_weights=args.weights / DEFAULT_TURN.name,
                       box_weights=args.weights / DEFAULT_BOXES.name)
    print(f"read {len(images)} images for calibration in {(time.time() - began) / 60:.1f} min", flush=True)
    unfed = [net.name for net in nets if not seen[str(net)]]
    if unfed:  # networks that find no card on the shared photos (a trial at a tiny --scale)
        print(f"error: {', '.join(unfed)} were fed nothing while the {len(images)} photos were read "
              f"(the networks in {args.weights} find no card on them), so no 8-bit copy is made",
              file=sys.stderr)
        return 2
    for net in nets:
        batches = seen[str(net)]
        quantize(net, batches, int8_copy(net))
        print(f"wrote {int8_copy(net)} from {sum(len(b) for b in batches)} inputs in {len(batches)} batches",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

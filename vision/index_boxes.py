"""Each found corner index's box placed and sized again by a small network that looks around it.

The detector places an index's centre fairly well (a thirteenth of the index's longer side off,
typically) but sizes its box less well: summed over width and height, a third too big or too
small typically and twice that in one index of ten, on drawn tables and hands alike
(``vision/HISTORY.md``, "Index boxes sized again"). A box too wide takes in the neighbour's
index in a fan and is read as that card; one too small cuts the rank off. ``indexbox.onnx``
(``vision.train.train_boxes``) sees the detector's box grown by ``CONTEXT`` about its centre,
cut as an index crop is (``vision.classifier.crop_index``: turned a quarter when wider than
tall), and says where the index lies in it and how big it is; ``fit_boxes`` gives each index
detection that box (with ``move=False``, only its size, about the detector's centre).

The network's four outputs are in the crop's frame (x to the crop's right, y down it), as
shares of the crop's box: the index's centre less the box's centre, then the logarithms of
the index's width and height over the box's (``crop_target``, ``from_crop``).
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Final

import numpy as np

from vision.classifier import Reads, crop_batch, crop_index, zoom_box
from vision.detector import Detection
from vision.inference import load_network
from vision.reading import Box

DEFAULT_BOXES: Final = Path(__file__).with_name("weights") / "indexbox.onnx"
#: The network sees the detector's box grown this many times about its centre, so that an
#: index the box cuts still shows whole.
CONTEXT: Final = 1.5
#: A fitted box is at most this many times larger or smaller than the detector's, each way.
MAX_CHANGE: Final = 2.0
#: Each box is fitted this many times, the network shown the box it gave the time before. A
#: second pass halves what the first leaves of a box's error on drawn indices, but read no
#: better over the benchmark's figures (as many better as worse, the dim tables worse at both
#: seeds), so one ships (``vision/HISTORY.md``, "Index boxes fitted twice").
PASSES: Final = 1


def crop_target(seen: Box, index: Box) -> tuple[float, float, float, float]:
    """What the network should say for the true box ``index`` in the crop of ``seen`` (the
    grown box it is shown): the centre offset and log size, in the crop's frame."""
    sw, sh = seen[2] - seen[0], seen[3] - seen[1]
    ox = ((index[0] + index[2]) - (seen[0] + seen[2])) / 2 / sw
    oy = ((index[1] + index[3]) - (seen[1] + seen[3])) / 2 / sh
    lw, lh = math.log((index[2] - index[0]) / sw), math.log((index[3] - index[1]) / sh)
    # ``crop_index`` turns a box wider than tall a quarter clockwise: the image's y runs
    # right to left along the crop's x, and its x down the crop's y
    return (-oy, ox, lh, lw) if sw > sh else (ox, oy, lw, lh)


def from_crop(seen: Box, out: np.ndarray) -> Box:
    """The box the network's outputs ``out`` (in the crop of ``seen``) place in the image:
    ``crop_target`` undone."""
    sw, sh = seen[2] - seen[0], seen[3] - seen[1]
    a, b, c, d = (float(v) for v in out)
    ox, oy, lw, lh = (b, -a, d, c) if sw > sh else (a, b, c, d)
    x, y = (seen[0] + seen[2]) / 2 + ox * sw, (seen[1] + seen[3]) / 2 + oy * sh
    w, h = sw * math.exp(lw), sh * math.exp(lh)
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def fitted_boxes(image: np.ndarray, boxes: list[Box], weights: Path = DEFAULT_BOXES,
                 cache: Reads | None = None) -> list[Box]:
    """Where the network places the index of each detector box (centre and size). The
    network's outputs for boxes of this image already fitted are taken from ``cache`` (a
    second look at the same size boxes the same peaks), and the new ones kept there."""
    store: Reads = {} if cache is None else cache
    keys = [("box", str(weights), b) for b in boxes]
    fresh = {k: b for k, b in zip(keys, boxes, strict=True) if k not in store}
    if fresh:
        crops = [crop_index(image, zoom_box(b, CONTEXT)) for b in fresh.values()]
        got = load_network(weights)(crop_batch(crops)).reshape(len(fresh), 4)
        store.update(zip(fresh, got, strict=True))
    return [from_crop(zoom_box(b, CONTEXT), store[k]) for b, k in zip(boxes, keys, strict=True)]


def fit_boxes(image: np.ndarray, detections: list[Detection], weights: Path | None = DEFAULT_BOXES,
              move: bool = True, cache: Reads | None = None, passes: int = PASSES) -> list[Detection]:
    """The index detections with their boxes where the network places them (with ``move``
    False, sized so about the detector's centres), each box shown to the network again in
    the next of ``passes``; the rest unchanged. A box ends at most ``MAX_CHANGE`` times the
    detector's each way. No change when ``weights`` is None or not there. ``cache`` as for
    ``fitted_boxes``."""
    if weights is None or not weights.is_file():
        return detections
    at = [i for i, d in enumerate(detections) if d.kind == "index"]
    out = list(detections)
    for _ in range(passes):
        fitted = fitted_boxes(image, [out[i].box for i in at], weights, cache)
        for i, box in zip(at, fitted, strict=True):
            d = detections[i]
            w0, h0 = d.box[2] - d.box[0], d.box[3] - d.box[1]
            w = min(max(box[2] - box[0], w0 / MAX_CHANGE), w0 * MAX_CHANGE)
            h = min(max(box[3] - box[1], h0 / MAX_CHANGE), h0 * MAX_CHANGE)
            x, y = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2) if move else (d.x, d.y)
            out[i] = replace(d, x=x, y=y, box=(x - w / 2, y - h / 2, x + w / 2, y + h / 2))
    return out

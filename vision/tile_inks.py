"""A table's tile inks told apart by each other.

The tile network names a tile's colour from the tile alone. A set's inks differ from set to
set and shift under the room's light: one set's blue is navy, near its black; under a warm
lamp red and orange close in. A player settles such a tile by looking at the others on the
table: this navy is the blues', not the blacks'. The reader does the same
(``vision.tile_reader.settle_inks``).

- Each tile's ink is measured against its own face (``inks_of``: the ink's colour over the
  face's, channel by channel, so that the light's cast falls out), and described by its hue
  and its darkness (``ink_feature``).
- The table's inks are fitted as one mixture of the four colours, each tile a member of each
  colour by what the network read of it (``INK_ROUNDS`` rounds, one spread for all).
- A tile whose colour the network read less surely than ``INK_UNSURE`` takes the colour
  its own read and the mixture agree on, the mixture's word weighed at ``INK_TRUST`` of its
  log-likelihood; a tile read surely keeps its read, and anchors its colour's ink. A tile's
  number is always the network's.

What each part is worth: ``bench/bench_tiles_learnt.py --ablate-inks``.
"""

from __future__ import annotations

from typing import Final

import numpy as np

#: Rounds of the mixture's fit.
INK_ROUNDS: Final = 4
#: Tiles whose colour the network reads at least this surely keep it (and anchor the fit).
INK_UNSURE: Final = 0.9
#: The weight of the table's word (its log-likelihood) beside the network's own read.
INK_TRUST: Final = 0.25
#: The side of the upright patch the ink is measured in, and the tile's height in it.
PATCH: Final = 64
PATCH_TILE: Final = 40.0
#: The share of the numeral's part of the patch that must be ink for it to be measured.
MIN_INK: Final = 0.03
#: How far (over the face's colour, in its farthest channel) a pixel must lie from the
#: face's colour to be ink.
INK_FROM_FACE: Final = 0.3
#: Colours held by fewer tiles' worth of reads than this are not fitted: the table says
#: nothing for or against them.
MIN_MEMBERS: Final = 2.0
#: The smallest spread an ink is fitted with.
MIN_SPREAD: Final = 0.03


def masked_median(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Each row's median of its values where ``mask`` (rows of ``values``: n×P or n×P×c;
    ``mask`` n×P): sorted with the others pushed past the end, the middle one or two; a row
    with nothing masked gives inf."""
    shown = mask if values.ndim == 2 else mask[..., None]
    ordered = np.sort(np.where(shown, values, np.inf), axis=1)
    count = mask.sum(axis=1)
    # the lower and upper middle (one and the same for an odd count)
    lo, hi = np.maximum(count - 1, 0) // 2, count // 2
    if values.ndim == 2:
        lo, hi = lo[:, None], hi[:, None]
    else:
        lo = np.broadcast_to(lo[:, None, None], (len(values), 1, values.shape[2]))
        hi = np.broadcast_to(hi[:, None, None], (len(values), 1, values.shape[2]))
    out: np.ndarray = (np.take_along_axis(ordered, lo, axis=1) + np.take_along_axis(ordered, hi, axis=1))[:, 0] / 2
    return out


def inks_of(patches: np.ndarray) -> np.ndarray:
    """Tiles' inks over their faces' colour, channel by channel (BGR; 0 gives no light back,
    1 is the face's own), a row a tile, from ``patches`` (n×``PATCH``×``PATCH``×3): each tile
    turned upright, ``PATCH_TILE`` high in its patch's middle. A tile's ink is the median of
    the inkiest half of the ink in its upper middle, where the numeral stands (its face the
    median of that part's lightest 30%); NaN where too little of it is ink to tell."""
    half = PATCH_TILE / 2
    top, mid = int(PATCH / 2 - half * 0.85), int(PATCH / 2 + half * 0.1)
    left, right = int(PATCH / 2 - half * 0.55), int(PATCH / 2 + half * 0.55)
    region = patches[:, top:mid, left:right].astype(np.float32).reshape(len(patches), -1, 3)
    light = region.sum(axis=2)
    face = masked_median(region, light >= np.percentile(light, 70, axis=1, keepdims=True))
    ratio = region / np.maximum(face, 8.0)[:, None, :]
    far = np.abs(ratio - 1.0).max(axis=2)
    ink = far > INK_FROM_FACE
    core = ink & (far >= masked_median(far, ink)[:, None])
    out: np.ndarray = np.clip(masked_median(ratio, core), 0.0, 1.5)
    out[ink.mean(axis=1) < MIN_INK] = np.nan
    return out


def ink_feature(ink: np.ndarray) -> np.ndarray:
    """An ink (a row of ``inks_of``) as what tells the four apart: its hue (each channel's share of
    the three) and its darkness (their mean)."""
    return np.concatenate([ink / max(float(ink.sum()), 1e-3), [float(ink.mean())]])


def table_inks(features: np.ndarray, odds: np.ndarray, rounds: int = INK_ROUNDS,
               trust: float = INK_TRUST) -> np.ndarray:
    """Each tile's colour odds (rows of ``odds``) weighed against the table's inks: the four
    colours fitted as one mixture of ``features`` (a row a tile), each tile's membership its
    odds times the fit's likelihood to the power ``trust`` (``rounds`` rounds, one spread)."""
    weights = odds
    dims = features.shape[1]
    for _ in range(rounds):
        mass = weights.sum(axis=0)
        fitted = mass >= MIN_MEMBERS
        if not fitted.any():
            return odds
        means = (weights.T @ features) / np.maximum(mass, 1e-9)[:, None]
        d2 = ((features[:, None, :] - means[None, :, :]) ** 2).sum(axis=2)
        spread = max(MIN_SPREAD, float(np.sqrt((weights[:, fitted] * d2[:, fitted]).sum()
                                                / max(1e-9, dims * mass[fitted].sum()))))
        log_like = -d2 / (2 * spread * spread)
        # a colour too few tiles hold is neither for nor against: as likely as the likeliest
        log_like[:, ~fitted] = log_like[:, fitted].max(axis=1)[:, None]
        log_like -= log_like.max(axis=1, keepdims=True)
        post = odds * np.exp(trust * log_like)
        weights = post / np.maximum(post.sum(axis=1, keepdims=True), 1e-12)
    return weights

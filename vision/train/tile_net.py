"""The tile detector network: the card detector's design (``vision.train.net``) with one head
set for tiles: heat, box size, the tile's up direction, its number (1–13 or the Joly) and
its ink colour. A number is learnt from the tiles of all four colours at once, and the
reader takes a tile's class as number times colour (``vision.tile_reader.class_probs``)."""

from __future__ import annotations

import torch

from vision.tile_reader import N_COLOURS, N_NUMBERS, TILE_OUT
from vision.train.net import HeatNet


class TileNet(HeatNet):
    """Stride-4 output map (``vision.tile_reader`` layout): tile heat, box size, up
    direction, number logits (1–13, Joly), colour logits (``engine.tiles.COLOURS``)."""

    def __init__(self, width: int = 16) -> None:
        super().__init__(TILE_OUT, width)
        with torch.no_grad():
            bias = self.out_bias()
            bias.zero_()
            bias[0] = -4.0
            bias[1:3] = 2.0
        assert TILE_OUT == 5 + N_NUMBERS + N_COLOURS

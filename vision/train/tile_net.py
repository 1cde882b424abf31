"""The tile detector network: the card detector's design (``vision.train.net``) with one head
set for tiles: heat, box size, the tile's up direction, its number (1–13 or the Joly) and
its ink colour. A number is learnt from the tiles of all four colours at once, and the
reader takes a tile's class as number times colour (``vision.tile_reader.class_probs``)."""

from __future__ import annotations

from typing import cast

import torch
from torch import nn

from vision.tile_reader import N_COLOURS, N_NUMBERS, TILE_OUT
from vision.train.net import _block


class TileNet(nn.Module):
    """Stride-4 output map (``vision.tile_reader`` layout): tile heat, box size, up
    direction, number logits (1–13, Joly), colour logits (``engine.tiles.COLOURS``)."""

    def __init__(self, width: int = 16) -> None:
        super().__init__()
        w = width
        self.s2 = _block(3, w, 2)
        self.s4 = _block(w, 2 * w, 2)
        self.s8 = _block(2 * w, 4 * w, 2)
        self.s16 = _block(4 * w, 6 * w, 2)
        self.s32 = _block(6 * w, 8 * w, 2)
        f = 3 * w
        self.l4 = nn.Conv2d(2 * w, f, 1)
        self.l8 = nn.Conv2d(4 * w, f, 1)
        self.l16 = nn.Conv2d(6 * w, f, 1)
        self.l32 = nn.Conv2d(8 * w, f, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.head = nn.Sequential(
            nn.Conv2d(f, f, 3, 1, 1, bias=False),
            nn.BatchNorm2d(f),
            nn.ReLU(inplace=True),
            nn.Conv2d(f, 2 * f, 3, 1, 1, bias=False),
            nn.BatchNorm2d(2 * f),
            nn.ReLU(inplace=True),
            nn.Conv2d(2 * f, TILE_OUT, 1),
        )
        with torch.no_grad():
            bias = cast(torch.Tensor, self.head[-1].bias)
            bias.zero_()
            bias[0] = -4.0
            bias[1:3] = 2.0
        assert TILE_OUT == 5 + N_NUMBERS + N_COLOURS

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x * (1.0 / 255.0) - 0.5
        a4 = self.s4(self.s2(x))
        a8 = self.s8(a4)
        a16 = self.s16(a8)
        a32 = self.s32(a16)
        p = self.l32(a32)
        p = self.l16(a16) + self.up(p)
        p = self.l8(a8) + self.up(p)
        p = self.l4(a4) + self.up(p)
        maps: torch.Tensor = self.head(p)
        return maps

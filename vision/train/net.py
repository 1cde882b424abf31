"""The card detector network: a small fully convolutional net with index and card heads."""

from __future__ import annotations

from typing import cast

import torch
from torch import nn

from vision.labels import CARD_CLASSES, INDEX_CLASSES

#: Output channel layout, shared with ``vision.detector`` through the ONNX file's shape.
N_INDEX = len(INDEX_CLASSES)
N_CARD = len(CARD_CLASSES)
OUT_CHANNELS = 1 + 2 + N_INDEX + 1 + 2 + N_CARD


def _block(cin: int, cout: int, stride: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, 1, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class CardNet(nn.Module):
    """Stride-4 output map: index heat, index size, index class, card heat, card size, card class."""

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
            nn.Conv2d(2 * f, OUT_CHANNELS, 1),
        )
        with torch.no_grad():
            bias = cast(torch.Tensor, self.head[-1].bias)
            bias.zero_()
            bias[0] = -4.0
            bias[3 + N_INDEX] = -4.0

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

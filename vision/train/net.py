"""The card detector network: a small fully convolutional net with index and card heads."""

from __future__ import annotations

from typing import cast

import torch
import torch.nn.functional as F
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


class HeatNet(nn.Module):
    """A stride-4 output map of ``out_channels`` over a BGR image of any size: a five-stage
    encoder whose features are summed top-down to stride 4 (a small feature pyramid), then a
    shared head. The card and tile detectors are both this design with their own channels."""

    def __init__(self, out_channels: int, width: int = 16) -> None:
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
            nn.Conv2d(2 * f, out_channels, 1),
        )

    def out_bias(self) -> torch.Tensor:
        """The last convolution's bias (subclasses start their heat channels low)."""
        return cast(torch.Tensor, self.head[-1].bias)

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


class CardNet(HeatNet):
    """Stride-4 output map: index heat, index size, index class, card heat, card size, card class."""

    def __init__(self, width: int = 16) -> None:
        super().__init__(OUT_CHANNELS, width)
        with torch.no_grad():
            bias = self.out_bias()
            bias.zero_()
            bias[0] = -4.0
            bias[3 + N_INDEX] = -4.0


def _convs_in_order(model: HeatNet) -> list[tuple[nn.Conv2d, nn.BatchNorm2d | None]]:
    """Every convolution in the order the forward pass runs them, with its batch norm."""
    out: list[tuple[nn.Conv2d, nn.BatchNorm2d | None]] = []
    for seq in (model.s2, model.s4, model.s8, model.s16, model.s32):
        out += [(cast(nn.Conv2d, seq[0]), cast(nn.BatchNorm2d, seq[1])),
                (cast(nn.Conv2d, seq[3]), cast(nn.BatchNorm2d, seq[4]))]
    out += [(model.l32, None), (model.l16, None), (model.l8, None), (model.l4, None)]
    out += [(cast(nn.Conv2d, model.head[0]), cast(nn.BatchNorm2d, model.head[1])),
            (cast(nn.Conv2d, model.head[3]), cast(nn.BatchNorm2d, model.head[4])),
            (cast(nn.Conv2d, model.head[6]), None)]
    return out


def load_exported(model: HeatNet, path: str) -> None:
    """Start ``model`` from an exported detector of its design, cards' or tiles' (see
    ``load_folded``)."""
    load_folded(path, _convs_in_order(model))


def load_folded(path: str, convs: list[tuple[nn.Conv2d, nn.BatchNorm2d | None]],
                linears: list[nn.Linear] | None = None,
                first_grid: tuple[int, tuple[int, int], tuple[int, int]] | None = None) -> None:
    """Start a network from its ONNX export, whose batch norms were folded into the
    convolutions: ``convs`` (every convolution in the order the forward pass runs them, with
    its batch norm) take the exported Conv weights in order, each batch norm becoming the
    identity plus the folded bias; ``linears`` take the Gemm weights in order. Keep the batch
    norms in eval mode (``freeze_norms``) while training on from here.

    ``first_grid`` (channels, exported (h, w), wanted (h, w)) lets the first dense layer, which
    reads a flattened feature grid, come from a network trained on another input size: its
    weights are resampled over the grid (see ``resample_dense``). A join of several classifiers
    (``vision.train.ensemble``) gives its first member."""
    import onnx
    from onnx import numpy_helper

    from vision.train.ensemble import member

    graph = member(onnx.load(path)).graph  # a joined classifier trains on from its first member
    weights = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in graph.initializer}
    nodes = [n for n in graph.node if n.op_type == "Conv"]
    gemms = [n for n in graph.node if n.op_type == "Gemm"]
    linears = linears or []
    if len(nodes) != len(convs) or len(gemms) != len(linears):
        raise ValueError(f"{path}: {len(nodes)} convolutions and {len(gemms)} dense layers, "
                         f"the network has {len(convs)} and {len(linears)}")
    with torch.no_grad():
        for node, (conv, norm) in zip(nodes, convs, strict=True):
            w = weights[node.input[1]]
            b = weights[node.input[2]] if len(node.input) > 2 else torch.zeros(w.shape[0])
            _check_shape(path, node.input[1], w, conv.weight)
            conv.weight.copy_(w)
            if norm is None:
                assert conv.bias is not None
                conv.bias.copy_(b)
            else:
                norm.weight.fill_(1.0)
                norm.bias.copy_(b)
                norm.running_mean.zero_()  # type: ignore[union-attr]
                norm.running_var.fill_(1.0 - norm.eps)  # type: ignore[union-attr]
        for i, (node, dense) in enumerate(zip(gemms, linears, strict=True)):
            w = weights[node.input[1]]
            if i == 0 and first_grid is not None:
                w = resample_dense(w, *first_grid)
            _check_shape(path, node.input[1], w, dense.weight)
            dense.weight.copy_(w)
            dense.bias.copy_(weights[node.input[2]])


def resample_dense(w: torch.Tensor, channels: int, old: tuple[int, int],
                   new: tuple[int, int]) -> torch.Tensor:
    """Weights of a dense layer over a flattened (channels, h, w) grid, resampled from the grid
    ``old`` to ``new`` (bilinear) and scaled so each output sums about as much as before."""
    out_features = w.shape[0]
    grid = w.reshape(out_features * channels, 1, *old)
    resized = F.interpolate(grid, size=new, mode="bilinear", align_corners=True)
    scale = (old[0] * old[1]) / (new[0] * new[1])
    return (resized * scale).reshape(out_features, channels * new[0] * new[1])


def _check_shape(path: str, name: str, got: torch.Tensor, want: torch.Tensor) -> None:
    if tuple(got.shape) != tuple(want.shape):
        raise ValueError(f"{path}: {name} has shape {tuple(got.shape)}, expected {tuple(want.shape)}")


def freeze_norms(model: nn.Module) -> None:
    """Batch norms to eval mode (fixed statistics) while the rest trains."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()

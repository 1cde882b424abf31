"""Join trained crop classifiers into one ONNX file that reads each crop with all of them and
averages their class probabilities.

The joined model takes the same ``crop`` input and gives ``logits`` as the log of the averaged
probabilities, so whatever applies a softmax to a classifier's output (``vision.classifier``)
gets the average unchanged, on onnxruntime and OpenCV's ``dnn`` alike.

Usage: ``python -m vision.train.ensemble FIRST.onnx SECOND.onnx [THIRD.onnx ...] --out
JOINED.onnx``, and ``python -m vision.train.ensemble JOINED.onnx --part 0 --out FIRST.onnx`` to
take one back out.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import onnx
from onnx import TensorProto, helper

#: The name prefix of each joined classifier's nodes and weights, in order.
_TAGS = "abcdefgh"


def join(*models: onnx.ModelProto) -> onnx.ModelProto:
    """One model averaging the softmax outputs of ``models`` (two or more, with the same input
    and output names and shapes)."""
    if not 2 <= len(models) <= len(_TAGS):
        raise ValueError(f"join takes 2 to {len(_TAGS)} classifiers, not {len(models)}")
    first = models[0]
    (inp,) = first.graph.input
    (out,) = first.graph.output
    nodes, inits = [], []
    for tag, model in zip(_TAGS[:len(models)], models, strict=True):
        rename = {i.name: f"{tag}/{i.name}" for i in model.graph.initializer}
        for node in model.graph.node:
            for name in list(node.output):
                rename.setdefault(name, f"{tag}/{name}")
        for init in model.graph.initializer:
            copy = onnx.TensorProto()
            copy.CopyFrom(init)
            copy.name = rename[init.name]
            inits.append(copy)
        for node in model.graph.node:
            copy = onnx.NodeProto()
            copy.CopyFrom(node)
            copy.name = f"{tag}/{node.name}" if node.name else ""
            copy.input[:] = [rename.get(n, n) for n in node.input]
            copy.output[:] = [rename[n] for n in node.output]
            nodes.append(copy)
        nodes.append(helper.make_node("Softmax", [rename[out.name]], [f"{tag}/probs"], axis=1))
    inits.append(helper.make_tensor("share", TensorProto.FLOAT, [], [1.0 / len(models)]))
    inits.append(helper.make_tensor("tiny", TensorProto.FLOAT, [], [1e-30]))   # no log of 0
    nodes += [
        helper.make_node("Sum", [f"{tag}/probs" for tag in _TAGS[:len(models)]], ["sum"]),
        helper.make_node("Mul", ["sum", "share"], ["mean"]),
        helper.make_node("Add", ["mean", "tiny"], ["kept"]),
        helper.make_node("Log", ["kept"], [out.name]),
    ]
    graph = helper.make_graph(nodes, "joined", [inp], [out], inits)
    model = helper.make_model(graph, opset_imports=list(first.opset_import))
    model.ir_version = first.ir_version
    onnx.checker.check_model(model)
    return model


def members(joined: onnx.ModelProto) -> int:
    """How many classifiers a joined model holds."""
    return sum(1 for node in joined.graph.node if node.op_type == "Softmax" and node.output[0].endswith("/probs"))


def part(joined: onnx.ModelProto, which: int) -> onnx.ModelProto:
    """The classifier number ``which`` (from 0) of a joined model, as it was before joining
    (to train on from it with ``train_classifier --init-onnx``)."""
    if not 0 <= which < members(joined):
        raise ValueError(f"the joined model holds {members(joined)} classifiers, not {which + 1}")
    tag = _TAGS[which] + "/"
    (inp,) = joined.graph.input
    (out,) = joined.graph.output

    def plain(name: str) -> str:
        return name[len(tag):] if name.startswith(tag) else name

    nodes = []
    for node in joined.graph.node:
        if not node.output[0].startswith(tag) or node.output[0] == tag + "probs":
            continue
        copy = onnx.NodeProto()
        copy.CopyFrom(node)
        copy.name = plain(node.name)
        copy.input[:] = [plain(n) for n in node.input]
        copy.output[:] = [plain(n) for n in node.output]
        nodes.append(copy)
    inits = []
    for init in joined.graph.initializer:
        if init.name.startswith(tag):
            copy = onnx.TensorProto()
            copy.CopyFrom(init)
            copy.name = plain(init.name)
            inits.append(copy)
    graph = helper.make_graph(nodes, "classifier", [inp], [out], inits)
    model = helper.make_model(graph, opset_imports=list(joined.opset_import))
    model.ir_version = joined.ir_version
    onnx.checker.check_model(model)
    return model


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", type=Path, nargs="+")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--part", type=int,
                    help="write this classifier (from 0) of the joined model instead")
    args = ap.parse_args()
    if args.part is not None:
        if len(args.models) != 1:
            ap.error("--part takes one joined model")
        onnx.save(part(onnx.load(str(args.models[0])), args.part), str(args.out))
    elif not 2 <= len(args.models) <= len(_TAGS):
        ap.error(f"give 2 to {len(_TAGS)} classifiers to join, or one and --part")
    else:
        onnx.save(join(*(onnx.load(str(m)) for m in args.models)), str(args.out))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Several index classifiers joined into one network that reads as their consensus.

Two training runs of one recipe that differ only in their seed read about 0.014 F1 a source
apart (``vision/HISTORY.md``): each run is one draw. A join feeds the same crop to every
member and gives, as its ``logits``, the mean of the members' log-probabilities (a softmax
of it is their normalized geometric mean: a class all members find likely stays sure, one
only some do is damped). The mean of the probabilities themselves was measured too and read
worse: it leaves every read less sure than either member's, below the bars the reader's
second looks are set at. Anything that runs one network runs a join as it is (onnxruntime,
OpenCV, the 8-bit copy).

Not in the training recipe: a join of the shipped index classifier with a second run read
better on 14 of ``bench_candidates.py``'s 25 figures and worse on 6 (+0.0018 on average, the
hands +0.012), for about 20 ms more a table (``vision/HISTORY.md``, "Two index classifiers
joined"). It is here for such trials.

The members keep their own names under a prefix (``m0/``, ``m1/``, ...) and the join says
how many it holds in its metadata (``ENSEMBLE``), so :func:`member` can take one back out: a
fine-tune (enrolment, ``--init``) of a join trains on from its first member.

Usage: ``.venv/bin/python -m vision.train.ensemble --out OUT.onnx MEMBER.onnx MEMBER.onnx...``
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

import numpy as np
import onnx
from onnx import helper, numpy_helper

from vision.files import write_atomically

#: The metadata key holding the number of members of a joined network.
ENSEMBLE: Final = "ensemble_members"


def _prefix(k: int) -> str:
    return f"m{k}/"


def _log_probs(k: int) -> str:
    return f"{_prefix(k)}log_probs"


def members(model: onnx.ModelProto) -> int:
    """How many networks ``model`` joins (1: a network of its own)."""
    for prop in model.metadata_props:
        if prop.key == ENSEMBLE:
            return int(prop.value)
    return 1


def _copied(graph: onnx.GraphProto, rename: Callable[[str], str],
            keep: Callable[[str], bool] = lambda name: True,
            ) -> tuple[list[onnx.NodeProto], list[onnx.TensorProto]]:
    """Copies of ``graph``'s nodes and weights whose names ``keep`` takes, every name (node,
    input, output, weight) passed through ``rename``."""
    nodes = []
    for node in (n for n in graph.node if keep(n.name)):
        copy = onnx.NodeProto()
        copy.CopyFrom(node)
        copy.name = rename(node.name or node.op_type)
        for field in (copy.input, copy.output):
            names = [rename(n) for n in field]
            del field[:]
            field.extend(names)
        nodes.append(copy)
    weights = []
    for tensor in (t for t in graph.initializer if keep(t.name)):
        tensor_copy = onnx.TensorProto()
        tensor_copy.CopyFrom(tensor)
        tensor_copy.name = rename(tensor.name)
        weights.append(tensor_copy)
    return nodes, weights


def join(networks: Sequence[onnx.ModelProto]) -> onnx.ModelProto:
    """One network whose logits are the mean of the log-probabilities of ``networks`` (two or
    more classifiers of one input and one output of the same shapes; none itself a join)."""
    if len(networks) < 2:
        raise ValueError("a join needs two networks or more")
    first = networks[0]
    if any(members(n) > 1 for n in networks):
        raise ValueError("a member is itself a join")
    shapes = {(str(n.graph.input[0].type), str(n.graph.output[0].type)) for n in networks}
    if len(shapes) > 1 or any(len(n.graph.input) != 1 or len(n.graph.output) != 1 for n in networks):
        raise ValueError("the networks differ in their input or output")
    shared = first.graph.input[0]
    nodes: list[onnx.NodeProto] = []
    weights: list[onnx.TensorProto] = []
    logs = []
    for k, network in enumerate(networks):
        own = network.graph.input[0].name  # each member reads the one shared input

        def rename(name: str, prefix: str = _prefix(k), own: str = own) -> str:
            return shared.name if name == own else prefix + name

        own_nodes, own_weights = _copied(network.graph, rename)
        out = rename(network.graph.output[0].name)
        nodes += own_nodes + [helper.make_node("LogSoftmax", [out], [_log_probs(k)], name=f"join/log_softmax{k}",
                                                 axis=1)]
        weights += own_weights
        logs.append(_log_probs(k))
    weights.append(numpy_helper.from_array(np.array(1.0 / len(networks), np.float32), "share"))
    nodes += [helper.make_node("Sum", logs, ["sum"], name="join/sum"),
              helper.make_node("Mul", ["sum", "share"], [first.graph.output[0].name], name="join/mean")]
    graph = helper.make_graph(nodes, "ensemble", [shared], [first.graph.output[0]], weights)
    model = helper.make_model(graph, opset_imports=first.opset_import)
    model.ir_version = first.ir_version
    helper.set_model_props(model, {ENSEMBLE: str(len(networks))})
    onnx.checker.check_model(model)
    return model


def member(model: onnx.ModelProto, k: int = 0) -> onnx.ModelProto:
    """Member ``k`` of a join as a network of its own (its names without the prefix); a
    network that is no join is its own member 0."""
    count = members(model)
    if count == 1 and k == 0:
        return model
    if not 0 <= k < count:
        raise ValueError(f"no member {k}: the network joins {count}")
    prefix = _prefix(k)
    graph = model.graph
    out_name = _log_probs(k)
    feeding = next(n for n in graph.node if n.output[0] == out_name).input[0]

    def rename(name: str) -> str:  # the member's own names lose the prefix; the shared input stays
        return name[len(prefix):] if name.startswith(prefix) else name

    # the join's own nodes (``join/``: each member's LogSoftmax, the mean) are left out
    nodes, weights = _copied(graph, rename, lambda name: name.startswith(prefix))
    output = onnx.ValueInfoProto()
    output.CopyFrom(graph.output[0])
    output.name = rename(feeding)
    single = helper.make_graph(nodes, "member", [graph.input[0]], [output], weights)
    out = helper.make_model(single, opset_imports=model.opset_import)
    out.ir_version = model.ir_version
    onnx.checker.check_model(out)
    return out


def write(model: onnx.ModelProto, out: Path) -> None:
    """Save ``model`` at ``out``, whole or not at all (``vision.files.write_atomically``)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(out, model.SerializeToString())


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("networks", type=Path, nargs="+")
    args = ap.parse_args(argv)
    missing = [str(p) for p in args.networks if not p.is_file()]
    if missing:
        print(f"error: no such network: {', '.join(missing)}", file=sys.stderr)
        return 1
    try:
        model = join([onnx.load(str(p)) for p in args.networks])
    except (ValueError, onnx.checker.ValidationError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    write(model, args.out)
    print(f"wrote {args.out}: the join of {len(args.networks)} networks", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

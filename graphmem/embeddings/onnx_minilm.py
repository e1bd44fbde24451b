"""all-MiniLM-L6-v2 on ONNX Runtime: the same network as ``MiniLM``, run by a faster engine.

The ONNX graph is built here from the model's own safetensors (BERT's six layers as ONNX
operators: fused QKV MatMul, Softmax, Erf GELU, LayerNormalization), nothing downloaded, and
kept in the cache folder under the weights' digest, so it is built once per machine (about
2 s). ``onnx-int8`` quantises the MatMul weights per output channel (onnxruntime's dynamic
quantisation): its vectors differ slightly from the float ones (cosine 0.98-1.00), so it has
a model id of its own and its vectors never mix with theirs (``vector_space.py``).
Tokenising, batching and pooling are ``MiniLM``'s.

Measured on 2 cores (``python -m bench.embedding_runtimes``, 512 LoCoMo turns, batches of
16): numpy 77 texts/s, onnx 245, onnx-int8 476.
"""

# The model runtimes (ONNX Runtime, onnx, safetensors, tokenizers, threadpoolctl) ship no or
# partial type information: their members are unknown to a strict check, in this module only.
# pyright: reportMissingTypeStubs=false, reportUnknownMemberType=false
# pyright: reportUnknownVariableType=false, reportUnknownArgumentType=false

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic
from safetensors.numpy import load_file

from graphmem.embeddings.minilm import MiniLM
from graphmem.embeddings.onnx_session import cpu_session


class OnnxMiniLM(MiniLM):
    """``MiniLM`` whose forward pass runs on ONNX Runtime (float32 or int8 weights)."""

    def __init__(self, folder: Path, cache: Path, *, int8: bool) -> None:
        self._cache, self._int8 = cache, int8
        super().__init__(folder)
        if int8:
            self.model_id += "+int8"

    def _load_weights(self, folder: Path) -> None:
        model = _built_model(folder, self.weights_digest, self._cache, int8=self._int8)
        self._session = cpu_session(model)

    def _hidden_states(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        feeds = {
            "input_ids": ids,
            "position_ids": np.arange(ids.shape[1], dtype=np.int64),
            "mask_bias": ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :],
        }
        return np.asarray(self._session.run(None, feeds)[0])


def _built_model(folder: Path, digest: str, cache: Path, *, int8: bool) -> Path:
    """The model's ONNX file in ``cache``, named by its weights' ``digest`` (built and, for
    int8, quantised at first use)."""
    target = cache / "models" / f"all-MiniLM-L6-v2-{digest[:16]}{'-int8' if int8 else ''}.onnx"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as scratch:
        built = Path(scratch) / "fp32.onnx"
        onnx.save(build_graph(folder), str(built))
        if int8:
            quantized = Path(scratch) / "int8.onnx"
            # its advice to pre-process the graph is for convolutions; say nothing of it
            with _quiet_root_logger():
                quantize_dynamic(
                    built,
                    quantized,
                    weight_type=QuantType.QInt8,
                    per_channel=True,
                    op_types_to_quantize=["MatMul"],
                )
            built = quantized
        os.replace(built, target)  # atomic: a concurrent first start sees it whole or not
    return target


@contextlib.contextmanager
def _quiet_root_logger() -> Generator[None]:
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        yield
    finally:
        root.setLevel(level)


class _GraphBuilder:
    """Nodes and initialisers of one ONNX graph, named as they are added."""

    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.weights: list[onnx.TensorProto] = []

    def const(self, name: str, value: Any) -> str:
        self.weights.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(self, kind: str, *inputs: str, **attributes: Any) -> str:
        output = f"{kind}_{len(self.nodes)}"
        self.nodes.append(helper.make_node(kind, list(inputs), [output], **attributes))
        return output


def build_graph(folder: Path) -> onnx.ModelProto:
    """all-MiniLM-L6-v2's encoder as an ONNX model: (input_ids, position_ids, mask_bias) ->
    the last layer's hidden states."""
    config = json.loads((folder / "config.json").read_text())
    w = load_file(str(folder / "model.safetensors"))
    width, heads = config["hidden_size"], config["num_attention_heads"]
    eps = config["layer_norm_eps"]
    g = _GraphBuilder()
    word = g.op("Gather", g.const("word", w["embeddings.word_embeddings.weight"]), "input_ids")
    position = g.op(
        "Gather", g.const("position", w["embeddings.position_embeddings.weight"]), "position_ids"
    )
    token_type = g.const("token_type", w["embeddings.token_type_embeddings.weight"][0])
    x = g.op("Add", g.op("Add", word, position), token_type)
    x = _layer_norm(g, x, w, "embeddings.LayerNorm", eps)
    shapes = _Shapes(
        split=g.const("split_shape", np.array([0, 0, 3, heads, width // heads], np.int64)),
        merged=g.const("merged_shape", np.array([0, 0, width], np.int64)),
        axis2=g.const("axis2", np.array([2], np.int64)),
        scale=g.const("scale", np.float32((width // heads) ** -0.5)),
    )
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}"
        x = _attention(g, x, w, p, shapes, eps)
        x = _feed_forward(g, x, w, p, eps)
    return _model(g, x, width)


@dataclass(frozen=True)
class _Shapes:
    """The constants every attention block shares (names of graph initialisers)."""

    split: str
    merged: str
    axis2: str
    scale: str


def _attention(
    g: _GraphBuilder, x: str, w: dict[str, np.ndarray], p: str, shapes: _Shapes, eps: float
) -> str:
    """One layer's self-attention with its residual and layer norm."""
    parts = ("query", "key", "value")
    qkv_w = np.concatenate([w[f"{p}.attention.self.{t}.weight"] for t in parts])
    qkv_b = np.concatenate([w[f"{p}.attention.self.{t}.bias"] for t in parts])
    qkv = g.op("Reshape", _dense(g, x, qkv_w, qkv_b, f"{p}.qkv"), shapes.split)
    q, k, v = (f"{p}.q", f"{p}.k", f"{p}.v")
    g.nodes.append(helper.make_node("Split", [qkv], [q, k, v], axis=2, num_outputs=3))
    q, k, v = (g.op("Squeeze", name, shapes.axis2) for name in (q, k, v))
    scores = g.op(
        "MatMul", g.op("Transpose", q, perm=[0, 2, 1, 3]), g.op("Transpose", k, perm=[0, 2, 3, 1])
    )
    scores = g.op("Add", g.op("Mul", scores, shapes.scale), "mask_bias")
    context = g.op(
        "MatMul", g.op("Softmax", scores, axis=-1), g.op("Transpose", v, perm=[0, 2, 1, 3])
    )
    context = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), shapes.merged)
    out_w, out_b = w[f"{p}.attention.output.dense.weight"], w[f"{p}.attention.output.dense.bias"]
    attended = _dense(g, context, out_w, out_b, f"{p}.ao")
    return _layer_norm(g, g.op("Add", attended, x), w, f"{p}.attention.output.LayerNorm", eps)


def _feed_forward(g: _GraphBuilder, x: str, w: dict[str, np.ndarray], p: str, eps: float) -> str:
    """One layer's feed-forward block (exact GELU via erf) with its residual and layer norm."""
    f32 = np.float32
    inner_w, inner_b = w[f"{p}.intermediate.dense.weight"], w[f"{p}.intermediate.dense.bias"]
    inner = _dense(g, x, inner_w, inner_b, f"{p}.in")
    erf = g.op("Erf", g.op("Mul", inner, g.const(f"{p}.r2", f32(2**-0.5))))
    gelu = g.op(
        "Mul",
        g.op("Mul", inner, g.const(f"{p}.half", f32(0.5))),
        g.op("Add", erf, g.const(f"{p}.one", f32(1.0))),
    )
    out = _dense(g, gelu, w[f"{p}.output.dense.weight"], w[f"{p}.output.dense.bias"], f"{p}.out")
    return _layer_norm(g, g.op("Add", out, x), w, f"{p}.output.LayerNorm", eps)


def _model(g: _GraphBuilder, x: str, width: int) -> onnx.ModelProto:
    g.nodes.append(helper.make_node("Identity", [x], ["hidden"]))
    inputs = [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "length"]),
        helper.make_tensor_value_info("position_ids", TensorProto.INT64, ["length"]),
        helper.make_tensor_value_info("mask_bias", TensorProto.FLOAT, ["batch", 1, 1, "length"]),
    ]
    hidden = helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["batch", "length", width])
    graph = helper.make_graph(g.nodes, "all-MiniLM-L6-v2", inputs, [hidden], g.weights)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    onnx.checker.check_model(model)
    return model


def _dense(g: _GraphBuilder, x: str, weight: np.ndarray, bias: np.ndarray, name: str) -> str:
    transposed = g.const(f"{name}.w", np.ascontiguousarray(weight.T))
    return g.op("Add", g.op("MatMul", x, transposed), g.const(f"{name}.b", bias))


def _layer_norm(g: _GraphBuilder, x: str, w: dict[str, np.ndarray], prefix: str, eps: float) -> str:
    scale = g.const(f"{prefix}.w", w[f"{prefix}.weight"])
    bias = g.const(f"{prefix}.b", w[f"{prefix}.bias"])
    return g.op("LayerNormalization", x, scale, bias, axis=-1, epsilon=eps)

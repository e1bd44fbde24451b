"""Embedding runtimes for all-MiniLM-L6-v2: graphmem's numpy forward pass against ONNX Runtime.

    python -m bench.embedding_runtimes --data ../shared/data/locomo     # 512 LoCoMo turns

A lever of the retrieval issue (write-time embedding at 300 texts/s), measured, not shipped.
The ONNX graph is built here from the model package's own safetensors (no torch, nothing
downloaded): BERT's six layers as ONNX operators (fused QKV MatMul, Softmax, Erf GELU,
LayerNormalization), then the same mean pooling and normalisation as graphmem. Variants:
fp32, and int8 weights per output channel in the MatMuls (onnxruntime's dynamic
quantisation). Printed per runtime and thread count: texts/s batched (length-sorted batches
of 16, as graphmem embeds) and one text at a time, and the cosine of each vector to
graphmem's (min and mean). onnx and onnxruntime come with the dev extra only.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import QuantType, quantize_dynamic
from safetensors.numpy import load_file
from tokenizers import Tokenizer

from bench.facts import say
from bench.locomo import sessions, turn_text
from graphmem.app.settings import Settings
from graphmem.search.embeddings import MiniLM, load_embedder

TEXTS = 512
BATCH = 16
ONE_AT_A_TIME = 100
Embed = Callable[[Sequence[str]], np.ndarray]


class GraphBuilder:
    """Nodes and initialisers of one ONNX graph, named as they are added."""

    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.weights: list[onnx.TensorProto] = []

    def const(self, name: str, value: np.ndarray | np.floating[Any]) -> str:
        self.weights.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(self, kind: str, *inputs: str, **attributes: Any) -> str:
        output = f"{kind}_{len(self.nodes)}"
        self.nodes.append(helper.make_node(kind, list(inputs), [output], **attributes))
        return output


def build_graph(folder: Path) -> onnx.ModelProto:
    """all-MiniLM-L6-v2's encoder: (input_ids, position_ids, mask_bias) -> hidden states."""
    config = json.loads((folder / "config.json").read_text())
    w = load_file(str(folder / "model.safetensors"))
    width, heads = config["hidden_size"], config["num_attention_heads"]
    eps = config["layer_norm_eps"]
    g = GraphBuilder()
    f32 = np.float32
    embedded = g.op(
        "Add",
        g.op("Gather", g.const("word", w["embeddings.word_embeddings.weight"]), "input_ids"),
        g.op(
            "Gather",
            g.const("position", w["embeddings.position_embeddings.weight"]),
            "position_ids",
        ),
    )
    x = g.op(
        "Add", embedded, g.const("token_type", w["embeddings.token_type_embeddings.weight"][0])
    )
    x = layer_norm(g, x, w, "embeddings.LayerNorm", eps)
    split_shape = g.const("split_shape", np.array([0, 0, 3, heads, width // heads], np.int64))
    merged_shape = g.const("merged_shape", np.array([0, 0, width], np.int64))
    axis2 = g.const("axis2", np.array([2], np.int64))
    scale = g.const("scale", f32((width // heads) ** -0.5))
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}"
        qkv_w = np.concatenate(
            [w[f"{p}.attention.self.{t}.weight"] for t in ("query", "key", "value")]
        )
        qkv_b = np.concatenate(
            [w[f"{p}.attention.self.{t}.bias"] for t in ("query", "key", "value")]
        )
        qkv = g.op("Reshape", dense(g, x, qkv_w, qkv_b, f"{p}.qkv"), split_shape)
        q, k, v = (f"{p}.q", f"{p}.k", f"{p}.v")
        g.nodes.append(helper.make_node("Split", [qkv], [q, k, v], axis=2, num_outputs=3))
        q, k, v = (g.op("Squeeze", name, axis2) for name in (q, k, v))
        scores = g.op(
            "MatMul",
            g.op("Transpose", q, perm=[0, 2, 1, 3]),
            g.op("Transpose", k, perm=[0, 2, 3, 1]),
        )
        scores = g.op("Add", g.op("Mul", scores, scale), "mask_bias")
        context = g.op(
            "MatMul", g.op("Softmax", scores, axis=-1), g.op("Transpose", v, perm=[0, 2, 1, 3])
        )
        context = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), merged_shape)
        attended = dense(
            g,
            context,
            w[f"{p}.attention.output.dense.weight"],
            w[f"{p}.attention.output.dense.bias"],
            f"{p}.ao",
        )
        x = layer_norm(g, g.op("Add", attended, x), w, f"{p}.attention.output.LayerNorm", eps)
        inner = dense(
            g, x, w[f"{p}.intermediate.dense.weight"], w[f"{p}.intermediate.dense.bias"], f"{p}.in"
        )
        gelu = g.op(
            "Mul",
            g.op("Mul", inner, g.const(f"{p}.half", f32(0.5))),
            g.op(
                "Add",
                g.op("Erf", g.op("Mul", inner, g.const(f"{p}.r2", f32(2**-0.5)))),
                g.const(f"{p}.one", f32(1.0)),
            ),
        )
        out = dense(g, gelu, w[f"{p}.output.dense.weight"], w[f"{p}.output.dense.bias"], f"{p}.out")
        x = layer_norm(g, g.op("Add", out, x), w, f"{p}.output.LayerNorm", eps)
    g.nodes.append(helper.make_node("Identity", [x], ["hidden"]))
    graph = helper.make_graph(
        g.nodes,
        "all-MiniLM-L6-v2",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "length"]),
            helper.make_tensor_value_info("position_ids", TensorProto.INT64, ["length"]),
            helper.make_tensor_value_info(
                "mask_bias", TensorProto.FLOAT, ["batch", 1, 1, "length"]
            ),
        ],
        [helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["batch", "length", width])],
        g.weights,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    onnx.checker.check_model(model)
    return model


def dense(g: GraphBuilder, x: str, weight: np.ndarray, bias: np.ndarray, name: str) -> str:
    return g.op(
        "Add",
        g.op("MatMul", x, g.const(f"{name}.w", np.ascontiguousarray(weight.T))),
        g.const(f"{name}.b", bias),
    )


def layer_norm(g: GraphBuilder, x: str, w: dict[str, np.ndarray], prefix: str, eps: float) -> str:
    scale, bias = (
        g.const(f"{prefix}.w", w[f"{prefix}.weight"]),
        g.const(f"{prefix}.b", w[f"{prefix}.bias"]),
    )
    return g.op("LayerNormalization", x, scale, bias, axis=-1, epsilon=eps)


# --- running it ----------------------------------------------------------------------------------
def onnx_embedder(model: Path, reference: MiniLM, threads: int) -> Embed:
    tokenizer = Tokenizer.from_file(str(reference.folder / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(max_length=reference.max_tokens)  # as graphmem truncates
    options = ort.SessionOptions()
    options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
    session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])

    def embed(texts: Sequence[str]) -> np.ndarray:
        ids = [tokenizer.encode(text).ids for text in texts]
        out = np.empty((len(ids), reference.dimensions), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        for start in range(0, len(order), BATCH):
            chunk = order[start : start + BATCH]
            length = max(len(ids[i]) for i in chunk)
            tokens = np.zeros((len(chunk), length), dtype=np.int64)
            mask = np.zeros((len(chunk), length), dtype=np.float32)
            for row, i in enumerate(chunk):
                tokens[row, : len(ids[i])], mask[row, : len(ids[i])] = ids[i], 1.0
            feeds = {
                "input_ids": tokens,
                "position_ids": np.arange(length, dtype=np.int64),
                "mask_bias": ((1.0 - mask) * np.float32(-1e9))[:, None, None, :],
            }
            hidden = np.asarray(session.run(None, feeds)[0])
            pooled = (hidden * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
            out[chunk] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        return out

    return embed


def rates(embed: Embed, texts: list[str]) -> tuple[float, float, np.ndarray]:
    embed(texts[:BATCH])  # warm
    began = time.perf_counter()
    vectors = embed(texts)
    batched = len(texts) / (time.perf_counter() - began)
    began = time.perf_counter()
    for text in texts[:ONE_AT_A_TIME]:
        embed([text])
    single = ONE_AT_A_TIME / (time.perf_counter() - began)
    return batched, single, vectors


def locomo_texts(data: Path) -> list[str]:
    texts: list[str] = []
    for path in sorted(data.glob("*.json")):
        for _, _, items in sessions(json.loads(path.read_text())):
            texts.extend(turn_text(item) for item in items)
    return texts[:TEXTS]


def main(data: Path) -> None:
    embedder = load_embedder(Settings(embeddings="minilm"))
    assert isinstance(embedder, MiniLM)
    texts = locomo_texts(data)
    numpy_embed: Embed = lambda batch: np.asarray(embedder.embed(batch), dtype=np.float32)  # noqa: E731
    batched, single, reference = rates(numpy_embed, texts)
    say(
        f"{len(texts)} LoCoMo turns; batches of {BATCH}; texts/s batched, one at a time; "
        "cosine to numpy"
    )
    say(f"{'numpy (graphmem), 1 BLAS thread':<40}{batched:8.1f}{single:8.1f}")
    with tempfile.TemporaryDirectory() as folder:
        fp32, int8 = Path(folder) / "minilm.onnx", Path(folder) / "minilm-int8.onnx"
        onnx.save(build_graph(embedder.folder), str(fp32))
        quantize_dynamic(
            fp32,
            int8,
            weight_type=QuantType.QInt8,
            per_channel=True,
            op_types_to_quantize=["MatMul"],
        )
        for label, model in (("onnxruntime fp32", fp32), ("onnxruntime int8 (MatMul)", int8)):
            for threads in (1, 2):
                batched, single, vectors = rates(onnx_embedder(model, embedder, threads), texts)
                cosine = (vectors * reference).sum(axis=1)
                say(
                    f"{f'{label}, {threads} thread(s)':<40}{batched:8.1f}{single:8.1f}"
                    f"   cosine min {cosine.min():.5f} mean {cosine.mean():.5f}"
                )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Embedding runtimes for all-MiniLM-L6-v2.")
    parser.add_argument("--data", default="../shared/data/locomo")
    main(Path(parser.parse_args().data))

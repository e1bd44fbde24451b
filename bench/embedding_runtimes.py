"""Embedding runtimes for all-MiniLM-L6-v2: graphmem's numpy forward pass against ONNX Runtime.

    python -m bench.embedding_runtimes --data DIR     # 512 LoCoMo turns (or GRAPHMEM_LOCOMO_DIR)

A lever of the retrieval issue (write-time embedding at 300 texts/s), measured here and
shipped as GRAPHMEM_EMBEDDING_RUNTIME (graphmem/embeddings/onnx_minilm.py builds the graph from
the model package's own safetensors: no torch, nothing downloaded). Variants: fp32, and int8
weights per output channel in the MatMuls (onnxruntime's dynamic quantisation), each at 1 and
2 threads. Printed per runtime and thread count: texts/s batched (length-sorted batches of 16,
as graphmem embeds) and one text at a time, and the cosine of each vector to the numpy
pass's (min and mean). Then the embedders as shipped, through their own ``embed``: minilm
(onnx-int8) and e5-small (int8, when `graphmem embeddings fetch` has run).
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.quantization import QuantType, quantize_dynamic
from tokenizers import Tokenizer

from bench.harness import say
from bench.locomo import DATA_ENV, data_files, sessions, turn_text
from graphmem.core.settings import Settings
from graphmem.embeddings.embedder import EmbeddingsUnavailable, load_embedder
from graphmem.embeddings.minilm import MiniLM
from graphmem.embeddings.onnx_minilm import build_graph

TEXTS = 512
BATCH = 16
ONE_AT_A_TIME = 100
Embed = Callable[[Sequence[str]], np.ndarray]


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
    embedder = load_embedder(Settings(embeddings="minilm", embedding_runtime="numpy"))
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
    shipped(texts)


def shipped(texts: list[str]) -> None:
    """The product's embedders as configured (their own batching), e5-small when fetched."""
    for setting in ("minilm", "e5-small"):
        try:
            model = load_embedder(Settings(embeddings=setting))
        except EmbeddingsUnavailable as e:
            say(f"{setting}: not measured ({e})")
            continue
        assert model is not None
        embed = model.embed
        batched, single, _ = rates(lambda b: np.asarray(embed(b)), texts)  # noqa: B023
        say(f"{f'graphmem {setting} ({model.model_id})':<40}{batched:8.1f}{single:8.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Embedding runtimes for all-MiniLM-L6-v2.")
    parser.add_argument("--data", help=f"the LoCoMo folder (default: ${DATA_ENV})")
    main(data_files(parser.parse_args().data)[0].parent)

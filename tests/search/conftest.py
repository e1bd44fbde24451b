"""The real embedding models, for the tests that embed (skipped where they are not installed)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.embeddings.embedder import Embedder, EmbeddingsUnavailable, load_embedder
from graphmem.embeddings.minilm import MiniLM
from graphmem.retrieval.indexing import indexer_of
from graphmem.store import Store
from tests.support import WholeRecordClient


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


@pytest.fixture(scope="session")
def e5_small() -> Embedder:
    """e5-small-v2 int8 as `graphmem embeddings fetch` unpacks it (skipped where it is not)."""
    for module in ("numpy", "tokenizers", "onnxruntime"):
        pytest.importorskip(module, reason="the 'embeddings' extra is not installed")
    try:
        embedder = load_embedder(Settings(embeddings="e5-small"))
    except EmbeddingsUnavailable as e:
        pytest.skip(f"e5-small-v2 not fetched: {e}")
    assert embedder is not None
    return embedder


@pytest.fixture
async def e5_client(
    store: Store, settings: Settings, e5_small: Embedder
) -> AsyncIterator[Client[Any]]:
    """A client of a server in the default configuration: e5-small-v2 on."""
    configured = settings.model_copy(update={"embeddings": "e5-small"})
    async with WholeRecordClient(create_server(store, configured)) as connected:
        yield connected


@pytest.fixture
async def other_tenant(store: Store) -> AsyncIterator[str]:
    """A second tenant of the test, its waiting writes flushed and its data purged after."""
    name = f"test-{uuid.uuid4().hex[:12]}"
    yield name
    await indexer_of(store).flush(name)
    await store.purge_tenant(name)

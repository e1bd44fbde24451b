"""Embedding at the edge of a write or a search: off the event loop, and only when configured."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from graphmem.embeddings.embedder import Embedder


async def embed_texts(
    embedder: Embedder | None, texts: Sequence[str], *, queries: bool = False
) -> list[list[float]] | None:
    """Unit vectors for stored ``texts``, or for search ``queries`` (None when no embedder is
    configured or nothing to embed).

    The model runs in a worker thread: a forward pass takes milliseconds per text and must not
    stall other callers' requests.
    """
    if embedder is None or not texts:
        return None
    embed = embedder.embed_queries if queries else embedder.embed
    return await asyncio.to_thread(embed, list(texts))

"""Which embedding model made the database's vectors: recorded once, checked at every start.

Two models of the same width are not interchangeable: a query embedded by one finds nothing
meaningful among vectors of the other, and nothing in the numbers says so. So the database
records the model (its name and a digest of its weights, ``Embedder.model_id``) and width of
the first server that embeds, every vector carries its model in ``embedding_model``, and a
server configured with another model refuses to start until ``graphmem embeddings backfill``
has re-embedded what the database holds (``graphmem/retrieval/backfill.py``).
"""

from __future__ import annotations

from graphmem.core.errors import VectorSpaceMismatch
from graphmem.embeddings.embedder import Embedder
from graphmem.store import Store

BACKFILL = "graphmem embeddings backfill"


async def check_vector_space(store: Store, embedder: Embedder) -> None:
    """Record ``embedder`` as the database's model when none is; refuse another one."""
    recorded = await store.vector_space()
    if recorded is None:
        await store.record_vector_space(embedder.model_id, embedder.dimensions)
        return
    if (recorded["model"], recorded["dimensions"]) != (embedder.model_id, embedder.dimensions):
        raise VectorSpaceMismatch(
            f"the database's vectors are {recorded['model']} ({recorded['dimensions']} "
            f"dimensions) but GRAPHMEM_EMBEDDINGS loads {embedder.model_id} "
            f"({embedder.dimensions}): run `{BACKFILL}` to re-embed with it, or configure "
            "the database's model"
        )

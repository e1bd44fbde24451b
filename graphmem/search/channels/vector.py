"""The vector channel: cosine similarity of the local embedding (GRAPHMEM_EMBEDDINGS): the
shared vector index, or an exact scan of the caller's scope when the index leaves fewer than
the pool."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from graphmem.search.channels.context import Hit, Reading, Sources
from graphmem.search.channels.names import ChannelName
from graphmem.search.rows import IndexedNearestRow, NearestRow
from graphmem.store import Params, TenantStore, shaped

# The most nearest one vector-index query asks for, and the margin over the estimate of how
# many hold a pool of the caller's (bench/tenants.py measures both paths per tenant size).
FETCH_CAP = 4_000
REFETCH_MARGIN = 1.5


class Vector:
    name = ChannelName.VECTOR
    expands = False

    async def ranked(self, reading: Reading) -> list[Hit] | None:
        if reading.vector is None:
            return None
        rows = await vector_rows(reading, reading.vector)
        return [Hit(row["id"], row["type"]) for row in rows]


async def vector_rows(reading: Reading, vector: list[float]) -> Sequence[NearestRow]:
    params: Params = {"vector": vector, **reading.sources.channel_params()}
    context = reading.context
    found = await nearest_in_scope(context.db, reading.sources, context.pool, params)
    return found.rows


@dataclass(frozen=True)
class VectorRead:
    rows: Sequence[NearestRow]  # the index's rows say how many it gave too (IndexedNearestRow)
    path: str  # "index", "refetch" (a second, larger index query) or "scan" (exact)
    kept: int  # the caller's rows among the first query's nearest


async def nearest_in_scope(
    db: TenantStore, sources: Sources, pool: int, params: Params, cap: int = FETCH_CAP
) -> VectorRead:
    """The caller's ``pool`` nearest, at a bounded cost while the database grows.

    Neo4j 5.26 cannot filter inside a vector index that every tenant shares. The first query
    over-fetches (4 x pool); its share of the caller's rows estimates how many nearest would
    hold a pool, and a second query asks for that many, up to ``cap``. Only a caller whose
    share is below pool/cap (then a small part of the database) is scanned exactly. An index
    that gave fewer than asked gave everything it holds: its rows are exact already.
    """
    fetch = min(max(pool * 4, 200), cap)
    rows = shaped(
        IndexedNearestRow, await db.read(sources.vector, fetch=fetch, pool=pool, **params)
    )
    kept = len(rows)
    if _complete(rows, pool, fetch):
        return VectorRead(rows, "index", kept)
    wanted = math.ceil(fetch * pool / kept * REFETCH_MARGIN) if kept else None
    if wanted is not None and wanted <= cap:
        again = shaped(
            IndexedNearestRow, await db.read(sources.vector, fetch=wanted, pool=pool, **params)
        )
        if _complete(again, pool, wanted):
            return VectorRead(again, "refetch", kept)
    scanned = shaped(NearestRow, await db.read(sources.scan, pool=pool, **params))
    return VectorRead(scanned, "scan", kept)


def _complete(rows: list[IndexedNearestRow], pool: int, fetch: int) -> bool:
    """A pool of the caller's, or all the index holds (it gave fewer than ``fetch``)."""
    return len(rows) >= pool or (bool(rows) and rows[0]["seen"] < fetch)

"""The vector channel over an index every tenant shares: index, a second larger query, or scan.

Memories are written straight into the database with vectors placed so that their order of
similarity to the query is known: all 620 lie near one random direction (far from any other
test's vectors), the i-th at a growing angle; the caller owns every 31st (ranks 0, 31, ...,
589), another tenant the rest. With a pool of 10 the first query (200 nearest) holds 7 of the
caller's; 200 x 10 / 7 x 1.5 = 429 nearest hold 14.
"""

from __future__ import annotations

import math
import random
import uuid
from collections.abc import AsyncIterator

import neo4j
import pytest

from graphmem.search.channels import fusion, vector
from graphmem.search.channels.context import MemoryScope
from graphmem.store import Params, Store

DIMENSIONS = 384
MEMORIES = 620
EVERY = 31
POOL = 10
SCOPE: MemoryScope = {
    "statuses": ["active"],
    "project": "p",
    "type": None,
    "branch": None,
    "tags": [],
}


def unit(v: list[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in v))
    return [x / norm for x in v]


def placed(direction: list[float], rng: random.Random) -> list[list[float]]:
    """Vectors whose cosine to ``direction`` falls with their index (0.995 down to ~0.5)."""
    vectors = []
    for i in range(MEMORIES):
        noise = [rng.gauss(0.0, 1.0) for _ in range(DIMENSIONS)]
        along = sum(a * b for a, b in zip(noise, direction, strict=True))
        orthogonal = unit([n - along * d for n, d in zip(noise, direction, strict=True)])
        tilt = 0.1 + 1.6 * i / MEMORIES
        vectors.append(unit([d + tilt * o for d, o in zip(direction, orthogonal, strict=True)]))
    return vectors


@pytest.fixture
async def placed_memories(
    store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> AsyncIterator[list[float]]:
    rng = random.Random(7)
    direction = unit([rng.gauss(0.0, 1.0) for _ in range(DIMENSIONS)])
    other = f"test-{uuid.uuid4().hex[:12]}"
    rows = [
        {"tenant": tenant if i % EVERY == 0 else other, "id": f"m{i}", "embedding": v}
        for i, v in enumerate(placed(direction, rng))
    ]
    await raw_driver.execute_query(
        "UNWIND $rows AS row CREATE (m:Memory {tenant: row.tenant, id: row.id, project: 'p', "
        "type: 'note', status: 'active', tags: [], branch: null, updated_at: datetime()}) "
        "WITH m, row CALL db.create.setNodeVectorProperty(m, 'embedding', row.embedding)",
        rows=rows,
    )
    yield direction
    await store.purge_tenant(other)


async def nearest(store: Store, tenant: str, query: list[float], cap: int) -> vector.VectorRead:
    params: Params = {"vector": query, **SCOPE}
    sources = fusion.memory_sources(SCOPE)
    return await vector.nearest_in_scope(store.of(tenant), sources, POOL, params, cap)


def ranks(found: vector.VectorRead) -> list[int]:
    return [int(row["id"][1:]) for row in found.rows]


async def test_a_small_share_is_served_by_a_second_larger_query(
    store: Store, tenant: str, placed_memories: list[float]
) -> None:
    found = await nearest(store, tenant, placed_memories, vector.FETCH_CAP)
    # the first query's 200 nearest hold 7 of the caller's when the index is exact; an
    # approximate index shared with every other test's vectors may miss one of them
    assert found.path == "refetch" and 5 <= found.kept < POOL, (found.path, found.kept)
    assert ranks(found) == [EVERY * j for j in range(POOL)]


async def test_a_share_too_small_for_the_cap_is_scanned_exactly(
    store: Store, tenant: str, placed_memories: list[float]
) -> None:
    found = await nearest(store, tenant, placed_memories, cap=400)  # 429 would be needed
    assert found.path == "scan" and 5 <= found.kept <= 7, (found.path, found.kept)  # as above
    assert ranks(found) == [EVERY * j for j in range(POOL)]


async def test_a_share_the_first_query_holds_needs_no_second(
    store: Store, tenant: str, placed_memories: list[float]
) -> None:
    params: Params = {"vector": placed_memories, **SCOPE}
    sources = fusion.memory_sources(SCOPE)
    found = await vector.nearest_in_scope(store.of(tenant), sources, 5, params)
    assert (found.path, found.kept) == ("index", 5)
    assert ranks(found) == [EVERY * j for j in range(5)]

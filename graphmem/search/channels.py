"""search's channels as they read the store: full-text and vector rows (read at once), the graph
expansion of the best hits, and their fusion into one ranking (graphmem/search/ranking.py).

The same channels rank curated memories and raw turns: ``Sources`` names each one's statements
and the scope they read, and raw turns fuse by their embedding model's constants.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any

from graphmem.core.errors import InvalidArgument
from graphmem.retrieval.lexical import FETCH_GROWTH, MAX_QUERY_TERMS, lucene_query, widening
from graphmem.search.models import SearchRequest
from graphmem.search.ranking import Fused, Fusion, fuse, graph_ranking, turn_fusion
from graphmem.store import TenantStore

MEMORY_FUSION = Fusion()  # the retrieval plan's weights, RRF_K, GRAPH_DECAY

MAX_POOL = 1_000
MIN_POOL = 100
# The most nearest one vector-index query asks for, and the margin over the estimate of how
# many hold a pool of the caller's (bench/tenants.py measures both paths per tenant size).
FETCH_CAP = 4_000
REFETCH_MARGIN = 1.5
GRAPH_SEEDS = 10
GRAPH_PER_SEED = 5
TURN_GRAPH_DEPTH = 2


@dataclass(frozen=True)
class Ranking:
    fused: list[Fused]
    types: dict[str, str | None]
    channels: list[str]


@dataclass(frozen=True)
class Context:
    """One search's reading context: the channels, their weights and the pool they read."""

    db: TenantStore
    request: SearchRequest
    channels: list[str]
    weights: dict[str, float]
    pool: int
    vector: list[float] | None
    model: str | None  # the embedding model's name: raw turns' fusion constants are its own


@dataclass(frozen=True)
class Sources:
    fulltext: str  # query names
    vector: str
    scan: str
    expand: str
    params: dict[str, Any]
    fusion: Fusion = MEMORY_FUSION


def memory_sources(scope: dict[str, Any]) -> Sources:
    """The memory channels' statements and the scope they read."""
    return Sources(
        "search/search_memories_fulltext",
        "search/search_memories_vector",
        "search/scan_memories_vector",
        "search/expand_memory_graph",
        {**scope, "per_seed": GRAPH_PER_SEED},
    )


def turn_sources(context: Context) -> Sources:
    return Sources(
        "search/search_turns_fulltext",
        "search/search_turns_vector",
        "search/scan_turns_vector",
        "search/expand_turn_graph",
        {"project": context.request.project, "depth": TURN_GRAPH_DEPTH},
        turn_fusion(context.model),
    )


async def rank(
    context: Context,
    sources: Sources,
    boosts: dict[str, float],
    query: str | None = None,
    vector: list[float] | None = None,
) -> Ranking:
    types: dict[str, str | None] = {}
    names, found = await _first_channels(context, sources, query, vector)
    lists = {name: _collect(rows, types) for name, rows in zip(names, found, strict=True)}
    fusion = sources.fusion
    weights = fusion.weights or context.weights
    fused = fuse(lists, weights, _boosts(types, boosts), k=fusion.k)
    if "graph" in context.channels and fused:
        seeds = fused[:GRAPH_SEEDS]
        rows = await context.db.read(sources.expand, seeds=[s.id for s in seeds], **sources.params)
        for row in rows:
            types.setdefault(row["id"], row["type"])
        neighbours = [(row["seed"], row["id"], row["distance"]) for row in rows]
        lists["graph"] = graph_ranking(seeds, neighbours, fusion.decay)
        fused = fuse(lists, weights, _boosts(types, boosts), k=fusion.k)
    return Ranking(fused, types, list(lists))


async def _first_channels(
    context: Context, sources: Sources, query: str | None, vector: list[float] | None
) -> tuple[list[str], list[list[dict[str, Any]]]]:
    """The full-text and vector channels' rows, read at once (two reads at most: the bound)."""
    reads: dict[str, Awaitable[list[dict[str, Any]]]] = {}
    if "fulltext" in context.channels:
        reads["fulltext"] = _fulltext_rows(context, sources, query or context.request.query or "")
    query_vector = vector if vector is not None else context.vector
    if "vector" in context.channels and query_vector is not None:
        reads["vector"] = _vector_rows(context, sources, query_vector)
    return list(reads), list(await asyncio.gather(*reads.values()))


def _collect(rows: Sequence[dict[str, Any]], types: dict[str, str | None]) -> list[str]:
    for row in rows:
        types.setdefault(row["id"], row["type"])
    return [row["id"] for row in rows]


def _boosts(types: dict[str, str | None], by_type: dict[str, float]) -> dict[str, float]:
    if not by_type:
        return {}
    return {i: by_type.get(t or "", 1.0) for i, t in types.items()}


async def _fulltext_rows(context: Context, sources: Sources, query: str) -> list[dict[str, Any]]:
    """The channel's best hits after the filters, best first (ties by id).

    Lucene is asked for its top 4 x pool first (a top-k read, cheap at any corpus size); when
    the filters keep fewer than the pool and Lucene had more, for 4 times more (``widening``).
    """
    if len(query.split()) > MAX_QUERY_TERMS:
        raise InvalidArgument("query", f"more than {MAX_QUERY_TERMS} terms")
    lucene = lucene_query(context.db.tenant, query, MAX_QUERY_TERMS)
    if not lucene:
        return []
    params = {"lucene": lucene, "pool": context.pool, **_plain(sources)}

    async def read(fetch: int) -> dict[str, Any]:
        [row] = await context.db.read(sources.fulltext, fetch=fetch, **params)
        return row

    row = await widening(
        read,
        FETCH_GROWTH * context.pool,
        lambda row, fetch: len(row["hits"]) >= context.pool or row["fetched"] < fetch,
    )
    return sorted(row["hits"], key=lambda hit: (-hit["score"], hit["id"]))


async def _vector_rows(
    context: Context, sources: Sources, vector: list[float]
) -> list[dict[str, Any]]:
    params = {"vector": vector, **_plain(sources)}
    found = await nearest_in_scope(context.db, sources, context.pool, params)
    return found.rows


@dataclass(frozen=True)
class VectorRead:
    rows: list[dict[str, Any]]
    path: str  # "index", "refetch" (a second, larger index query) or "scan" (exact)
    kept: int  # the caller's rows among the first query's nearest


async def nearest_in_scope(
    db: TenantStore, sources: Sources, pool: int, params: dict[str, Any], cap: int = FETCH_CAP
) -> VectorRead:
    """The caller's ``pool`` nearest, at a bounded cost while the database grows.

    Neo4j 5.26 cannot filter inside a vector index that every tenant shares. The first query
    over-fetches (4 x pool); its share of the caller's rows estimates how many nearest would
    hold a pool, and a second query asks for that many, up to ``cap``. Only a caller whose
    share is below pool/cap (then a small part of the database) is scanned exactly. An index
    that gave fewer than asked gave everything it holds: its rows are exact already.
    """
    fetch = min(max(pool * 4, 200), cap)
    rows = await db.read(sources.vector, fetch=fetch, pool=pool, **params)
    kept = len(rows)
    if _complete(rows, pool, fetch):
        return VectorRead(rows, "index", kept)
    wanted = math.ceil(fetch * pool / kept * REFETCH_MARGIN) if kept else None
    if wanted is not None and wanted <= cap:
        again = await db.read(sources.vector, fetch=wanted, pool=pool, **params)
        if _complete(again, pool, wanted):
            return VectorRead(again, "refetch", kept)
    return VectorRead(await db.read(sources.scan, pool=pool, **params), "scan", kept)


def _complete(rows: list[dict[str, Any]], pool: int, fetch: int) -> bool:
    """A pool of the caller's, or all the index holds (it gave fewer than ``fetch``)."""
    return len(rows) >= pool or (bool(rows) and rows[0]["seen"] < fetch)


def _plain(sources: Sources) -> dict[str, Any]:
    """The scope parameters the channel queries take (not the graph's)."""
    return {k: v for k, v in sources.params.items() if k not in ("per_seed", "depth")}

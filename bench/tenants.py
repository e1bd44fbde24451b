"""Tenants at scale: what a search costs per tenant size when many tenants share one database.

    python -m bench.tenants                     # 10 tenants of 10^2..10^5 memories (190,800)
    python -m bench.tenants --scale 0.01        # a quick check: the same spread, 1/100 of it
    python -m bench.tenants --max-exp 4         # the 1-2-5 series up to 10^4 only (7 tenants)
    python -m bench.tenants --sizes 100 10000 --queries 50 --keep

On a real Neo4j (NEO4J_URI if set, else a managed local Neo4j in a temp folder). Neo4j 5.26
cannot filter inside a vector index: search's vector channel (graphmem/search/channels/vector.py
``vector_rows``) asks the one index every tenant shares (``memory_embedding``) for the
``fetch`` nearest memories (4 x pool: 400 for a page of 10), keeps the caller's in scope and,
when fewer than ``pool`` (100) are left, scans every memory of the caller's scope exactly
(search/scan_memories_vector). Which path runs depends on the caller's share of the index; what
the scan costs, on the caller's size. This bench shows both per tenant size.

Load: 10 scratch tenants (a fresh random prefix per run), sizes on the 1-2-5 series from 10^2
to 10^5 memories, each tenant's in one project, bulk-created by UNWIND batches of
bench/cypher/search/create_bench_memories.cypher (as bench.search loads: active, the product's
lexical tokens from ``memory_lexical``, a 384-dimension unit vector, no ``Unindexed`` label).
The tenants' batches are interleaved, as tenants writing at the same time would store them.
Texts and vectors: a pool of 400 real texts (LoCoMo turns, read in place; bench.scale's Zipf
texts when LoCoMo is absent) embedded once by the product's model (all-MiniLM-L6-v2, when
installed; computing 190,000 real vectors would take an hour here). Each memory is a pool text
plus a few words of its own, its vector the text's vector plus gaussian noise (0.025 a
component: cosine about 0.9 to the original), renormalised: the neighbourhoods of real texts.
Without the model the pool's vectors are random unit vectors (the output says so). Every tenant
draws from the same pool (tenants alike in content): the neighbours of a query in the shared
index are spread over the tenants by their sizes. The bench then waits until every index is
ONLINE and populated.

Measured: 3 untimed, then --queries timed rounds of one query each (a pool text, one word
dropped); per round and tenant (the first tenant rotating), the product's search
(graphmem.search.service.search on ``store.of(tenant)``: limit 10, the tenant's project, the
default channels, the query embedded by the model inside the call), then the vector channel
alone (its two statements as ``vector_rows`` runs them, the query vector computed
beforehand). Per tenant size: search p50/p95, vector channel p50/p95, the share of queries
whose vector channel fell back to the exact scan, and how many of the caller's memories the
index's fetch held (median; the approximate path needs the pool). Afterwards the bench tenants'
memories are deleted in batches (``CALL {} IN TRANSACTIONS``), checked, unless --keep. Not
part of CI.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bench.harness import BENCH_CATALOG, quantile_ms, say
from bench.locomo import DATA_ENV
from bench.tenants_load import (
    LABEL,
    PROJECT,
    WARMUP,
    Corpus,
    Tenant,
    await_indexes,
    corpus,
    delete,
    load,
    series,
)
from graphmem.embeddings.embedder import Embedder
from graphmem.search import service as search
from graphmem.search.channels import fusion
from graphmem.search.channels import vector as vectors
from graphmem.search.channels.context import MemoryScope
from graphmem.search.models import SearchRequest
from graphmem.store import QueryCatalog, Store
from graphmem.toolkit.retrieval import Retrieval
from tests.neo4j_endpoint import Endpoint, find_endpoint

MIN_SIZE = 10
LIMIT = 10
QUERY_TIMEOUT = 300.0
# What search() reads for SearchRequest(project=PROJECT, limit=LIMIT): its pool (search()) and
# the vector channel's fetch (vector_rows), and the scope of a request without filters.
POOL = min(max(3 * (LIMIT + 1), fusion.MIN_POOL), fusion.MAX_POOL)
FETCH = min(max(POOL * 4, 200), vectors.FETCH_CAP)  # the first index query's
SCOPE: MemoryScope = {
    "statuses": ["active"],
    "project": PROJECT,
    "type": None,
    "branch": None,
    "tags": [],
}


# --- the measurements --------------------------------------------------------------------------
@dataclass
class Figures:
    search: list[float] = field(default_factory=list)
    vector: list[float] = field(default_factory=list)
    paths: Counter[str] = field(default_factory=Counter)  # index / refetch / scan
    fixed: list[float] = field(default_factory=list)  # the channel without the refetch
    kept: list[int] = field(default_factory=list)  # the caller's rows of the index's fetch
    hits: list[int] = field(default_factory=list)  # search results per query


async def timed_search(
    store: Store, tenant: Tenant, query: str, embedder: Embedder
) -> tuple[float, int]:
    request = SearchRequest(query=query, project=PROJECT, limit=LIMIT)
    began = time.perf_counter()
    result = await search.search(store.of(tenant.name), request, Retrieval(embedder))
    seconds = time.perf_counter() - began
    assert "vector" in result.channels_used, result.channels_used
    return seconds, result.count


async def vector_channel(
    store: Store, tenant: Tenant, vector: list[float], cap: int
) -> tuple[float, vectors.VectorRead]:
    """The vector channel's reads as ``vector_rows`` runs them (vector.nearest_in_scope),
    with the product's cap or with ``cap`` = FETCH (no second query: index or exact scan)."""
    sources = fusion.memory_sources(SCOPE)
    params = {"vector": vector, **SCOPE}
    began = time.perf_counter()
    found = await vectors.nearest_in_scope(store.of(tenant.name), sources, POOL, params, cap)
    seconds = time.perf_counter() - began
    assert found.rows, tenant
    return seconds, found


async def measure(store: Store, tenants: list[Tenant], pool: Corpus) -> dict[int, Figures]:
    figures = {t.index: Figures() for t in tenants}
    began = time.perf_counter()
    for round_, (query, vector) in enumerate(pool.queries):
        turn = round_ % len(tenants)
        for tenant in tenants[turn:] + tenants[:turn]:
            searched, hits = await timed_search(store, tenant, query, pool.embedder)
            channel, found = await vector_channel(store, tenant, vector, vectors.FETCH_CAP)
            fixed, _ = await vector_channel(store, tenant, vector, FETCH)
            if round_ >= WARMUP:
                figure = figures[tenant.index]
                figure.search.append(searched)
                figure.vector.append(channel)
                figure.fixed.append(fixed)
                figure.paths[found.path] += 1
                figure.kept.append(found.kept)
                figure.hits.append(hits)
        if (round_ + 1) % 10 == 0:
            elapsed = time.perf_counter() - began
            say(f"  {round_ + 1} of {len(pool.queries)} rounds in {elapsed:.0f} s")
    return figures


def table(tenants: list[Tenant], figures: dict[int, Figures], indexed: int) -> None:
    say(
        "\nper tenant: search = the domain function (with the model: its query embedding "
        f"included); vector = its vector channel alone (index {FETCH} nearest; fewer than the "
        f"pool ({POOL}) of the caller's: a second query for as many as should hold a pool, up "
        f"to {vectors.FETCH_CAP}; else the exact scan); paths = how often each ran; fixed = the "
        f"same channel without the second query (index {FETCH} or scan: the previous strategy); "
        f"from index = the caller's rows in the first {FETCH} (median); share = of the "
        f"{indexed:,} memories in the shared index"
    )
    say(
        f"{'memories':>9} {'share':>6} | {'search p50':>10} {'p95':>7} | {'vector p50':>10} "
        f"{'p95':>7} | {'index/refetch/scan':>18} | {'fixed p50':>9} {'p95':>7} | "
        f"{'from index':>10} | {'hits':>4}"
    )
    for tenant in tenants:
        f = figures[tenant.index]
        say(
            f"{tenant.size:>9,} {tenant.size / indexed:>6.1%} | "
            f"{quantile_ms(f.search, 50):>10.1f} {quantile_ms(f.search, 95):>7.1f} | "
            f"{quantile_ms(f.vector, 50):>10.1f} {quantile_ms(f.vector, 95):>7.1f} | "
            f"{paths(f):>18} | "
            f"{quantile_ms(f.fixed, 50):>9.1f} {quantile_ms(f.fixed, 95):>7.1f} | "
            f"{statistics.median(f.kept):>10.0f} | {statistics.mean(f.hits):>4.1f}"
        )
    say(
        f"(the index serves a caller whose share of the nearest is at least {POOL}/"
        f"{vectors.FETCH_CAP} x {vectors.REFETCH_MARGIN}; with tenants alike in content, a share "
        f"of about {POOL * vectors.REFETCH_MARGIN / vectors.FETCH_CAP:.1%} of the index)"
    )


def paths(f: Figures) -> str:
    n = len(f.vector)
    return "/".join(f"{f.paths[p] / n:.0%}" for p in ("index", "refetch", "scan"))


# --- main ----------------------------------------------------------------------------------------
async def configuration(
    bench: Store, endpoint: Endpoint, tenants: list[Tenant], pool: Corpus
) -> int:
    [server] = await bench.read("scale/get_server_version", LABEL)
    [before] = await bench.read("tenants/count_embedded_memories", LABEL)
    embedded = before["memories"]
    assert isinstance(embedded, int)
    total = sum(t.size for t in tenants)
    say(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {server['name']} "
        f"{server['version']} {server['edition']} ({endpoint.origin})"
    )
    say(f"embeddings: {pool.model}")
    say(f"pool: {len(pool.texts)} texts, {pool.source}")
    say(
        f"tenants: {len(tenants)} ({tenants[0].name.rsplit('-', 2)[0]}-*), sizes "
        f"{', '.join(f'{t.size:,}' for t in tenants)}: {total:,} memories; the shared vector "
        f"index held {before['memories']:,} memories before the load (other tenants')"
    )
    say(
        f"queries: {len(pool.queries) - WARMUP} timed rounds (after {WARMUP} untimed), one "
        f"query per round for every tenant; limit {LIMIT}: pool {POOL}, index fetch {FETCH}"
    )
    return embedded


async def main(endpoint: Endpoint, sizes: list[int], pool: Corpus, keep: bool) -> None:
    store = await Store.connect(
        endpoint.uri, endpoint.user, endpoint.password, query_timeout=QUERY_TIMEOUT
    )
    bench = copy.copy(store)  # the same driver, the bench's statements
    bench.catalog = QueryCatalog(BENCH_CATALOG)
    prefix = f"bench-tenants-{uuid.uuid4().hex[:8]}"
    tenants = [Tenant(n, f"{prefix}-{n:02d}-{size}", size) for n, size in enumerate(sizes)]
    try:
        await store.apply_schema()
        before = await configuration(bench, endpoint, tenants, pool)
        try:
            await load(bench, tenants, pool)
            await await_indexes(bench)
            figures = await measure(store, tenants, pool)
            table(tenants, figures, before + sum(sizes))
        finally:
            if keep:
                say(f"kept the bench tenants: {', '.join(t.name for t in tenants)}")
            else:
                await delete(store, bench, tenants)
    finally:
        await store.close()


def chosen_sizes(args: argparse.Namespace) -> list[int]:
    sizes = args.sizes or series(args.max_exp)
    return sorted(max(MIN_SIZE, round(size * args.scale)) for size in sizes)


def cli() -> None:
    parser = argparse.ArgumentParser(description="Search per tenant size, many tenants in one DB.")
    parser.add_argument("--sizes", type=int, nargs="+", help="memories per tenant (overrides)")
    parser.add_argument("--max-exp", type=int, default=5, help="1-2-5 series 10^2..10^E")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every size")
    parser.add_argument("--queries", type=int, default=30, help="timed queries per tenant")
    parser.add_argument(
        "--locomo", type=Path, default=Path(os.environ.get(DATA_ENV, "")), help=f"(${DATA_ENV})"
    )
    parser.add_argument("--keep", action="store_true", help="do not delete the bench tenants")
    args = parser.parse_args()
    if args.queries < 2:
        parser.error("--queries: at least 2 (p50/p95)")
    sizes = chosen_sizes(args)
    began = time.perf_counter()
    pool = corpus(args.locomo, WARMUP + args.queries)
    with tempfile.TemporaryDirectory() as scratch, find_endpoint(Path(scratch)) as endpoint:
        asyncio.run(main(endpoint, sizes, pool, args.keep))
    say(f"total {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    cli()

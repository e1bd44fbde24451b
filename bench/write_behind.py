"""Bursts of saves, then a search: what the write-behind indexer costs a writer and a reader.

    python -m bench.write_behind                            # embeddings as configured
    GRAPHMEM_EMBEDDINGS=e5-small python -m bench.write_behind

On NEO4J_URI if set, else a managed local Neo4j (bench.harness.bench_store), in a scratch tenant.
Each round saves memories back to back for ``--burst`` seconds through the domain (no MCP
layer), then runs one search of the tenant, which first settles what the burst left queued
(graphmem/retrieval/indexing.py); then the indexer is left a second to go idle. Printed per
round and as medians: saves per burst and the search's latency.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from bench.harness import bench_store, say, scratch_tenant
from graphmem.core.settings import Settings
from graphmem.embeddings.embedder import load_embedder
from graphmem.memories.models.memories import SaveMemoryRequest
from graphmem.memories.service import save_memory
from graphmem.search.models import SearchRequest
from graphmem.search.service import search
from graphmem.toolkit.retrieval import Retrieval

TEXT = "Caroline: I went to a LGBTQ support group yesterday and it was so powerful, said Melanie."


async def main(burst: float, rounds: int) -> None:
    embedder = load_embedder(Settings())
    retrieval = Retrieval(embedder)
    say(f"embeddings: {embedder.name if embedder else 'none'}; {rounds} bursts of {burst} s")
    saved, waited = [], []
    async with bench_store() as store, scratch_tenant(store, "write-behind") as tenant:
        db = store.of(tenant)
        for round_ in range(rounds):
            began, count = time.perf_counter(), 0
            while time.perf_counter() - began < burst:
                request = SaveMemoryRequest(project="p", title=f"r{round_} {count}", content=TEXT)
                await save_memory(db, request, retrieval)
                count += 1
            asked = time.perf_counter()
            await search(db, SearchRequest(query="support group Caroline"), retrieval)
            saved.append(count)
            waited.append((time.perf_counter() - asked) * 1000)
            say(f"round {round_ + 1}: {count} saves, then search {waited[-1]:.0f} ms")
            await asyncio.sleep(1.0)
    say(
        f"median: {statistics.median(saved):.0f} saves per burst, "
        f"search after the burst {statistics.median(waited):.0f} ms"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="bursts of saves, then a search")
    parser.add_argument("--burst", type=float, default=1.0, help="seconds of saves per round")
    parser.add_argument("--rounds", type=int, default=6)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.burst, arguments.rounds))

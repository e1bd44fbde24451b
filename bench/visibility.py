"""How soon another process finds a saved memory by meaning: the write-behind indexer's lag.

    python -m bench.visibility            # the default model (e5-small-v2)

On NEO4J_URI if set, else a managed local Neo4j (bench.harness.bench_store), in a scratch
tenant. Two stores on the same database stand for two processes: the writer saves a memory
(its acknowledgement is the clock's start); the reader, which has already looked for the
tenant's leftovers (so it never indexes the memory itself), searches with the vector channel
alone every 10 ms until the memory is its first hit. Printed: the lag's p50 / p95 / max over
the rounds (the aim: at most one second), and the save's own time beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import time

from bench.harness import bench_store, quantile_ms, say, scratch_tenant
from graphmem.core.settings import Settings
from graphmem.memories.models.memories import SaveMemoryRequest
from graphmem.memories.service import save_memory
from graphmem.search.channels.names import ChannelName
from graphmem.search.models import SearchRequest
from graphmem.search.service import search
from graphmem.store import Store
from graphmem.toolkit.retrieval import Retrieval, load_retrieval

POLL = 0.01
GIVE_UP = 10.0
SUBJECTS = ("heron", "kestrel", "otter", "badger", "lynx", "marten", "ibis", "stork")


async def one_round(
    writer: Store, reader: Store, tenant: str, n: int, retrieval: Retrieval
) -> tuple[float, float]:
    animal = SUBJECTS[n % len(SUBJECTS)]
    content = f"Round {n}: we watched a {animal} by the river at dawn."
    request = SaveMemoryRequest(project="p", type="note", title=f"round {n}", content=content)
    began = time.perf_counter()
    saved = await save_memory(writer.of(tenant), request, retrieval)
    acknowledged = time.perf_counter()
    question = SearchRequest(
        query=f"round {n} {animal} at the river",
        project="p",
        channels=[ChannelName.VECTOR],
        limit=1,
    )
    while time.perf_counter() - acknowledged < GIVE_UP:
        found = await search(reader.of(tenant), question, retrieval)
        if found.results and found.results[0].id == saved.memory.id:
            return acknowledged - began, time.perf_counter() - acknowledged
        await asyncio.sleep(POLL)
    raise SystemExit(f"round {n}: not found by meaning within {GIVE_UP:.0f} s")


async def main(rounds: int) -> None:
    retrieval = load_retrieval(Settings())
    if retrieval.embedder is None:
        raise SystemExit(f"no embedding model: {retrieval.vectors_off or 'GRAPHMEM_EMBEDDINGS'}")
    async with bench_store() as writer, scratch_tenant(writer, "visibility") as tenant:
        reader = copy.copy(writer)  # the same driver, an indexer of its own (another process)
        warm = SearchRequest(query="warm up", project="p", channels=[ChannelName.VECTOR], limit=1)
        await search(reader.of(tenant), warm, retrieval)  # its sweep of the tenant, done now
        saves, lags = [], []
        for n in range(rounds):
            save, lag = await one_round(writer, reader, tenant, n, retrieval)
            saves.append(save)
            lags.append(lag)
            await asyncio.sleep(0.2)
    say(
        f"{retrieval.embedder.name}, {rounds} rounds: save p50 {quantile_ms(saves, 50):.1f} ms; "
        f"found by meaning in another process after p50 {quantile_ms(lags, 50):.0f} ms, "
        f"p95 {quantile_ms(lags, 95):.0f}, max {max(lags) * 1000:.0f}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="write-behind lag of a memory's vector")
    parser.add_argument("--rounds", type=int, default=40)
    asyncio.run(main(parser.parse_args().rounds))

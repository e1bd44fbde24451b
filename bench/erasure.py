"""Erasure at scale: a tenant of 10^6 memories (bulk-loaded; the erased ones with their
sealed, chained save events), then the erasure of a project of 10^3 and of one of 10^5, each
a dry run and a confirmed run, while a writer records facts in the same tenant from another
connection (its own group commit, as another process would):

- wall time of the dry run and of the erasure, batches, nodes per second;
- the concurrent writer's longest wait and its median during each erasure (one batch at most
  is the promise), and its median before any erasure;
- the full verification afterwards: verified, and the erased payloads it counted.

    NEO4J_URI=... python -m bench.erasure [--total 1000000] [--sizes 1000 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import statistics
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.chain import sealed_event
from bench.harness import BENCH_CATALOG, bench_store, say, scratch_tenant
from graphmem.core.ids import new_id
from graphmem.core.keys import SCHEME, ChainKey
from graphmem.core.models import canonical_json
from graphmem.erasure.models import EraseRequest
from graphmem.erasure.service import erase
from graphmem.facts.models import RecordFactRequest
from graphmem.facts.service import record_fact
from graphmem.history.chain import GENESIS_HASH
from graphmem.history.verification import verify_chain
from graphmem.retrieval.lexical import lexical_text
from graphmem.store import QueryCatalog, Store

LOAD_BATCH = 10_000


def _memories(tenant: str, project: str, first: int, count: int) -> list[dict[str, Any]]:
    rows = []
    for n in range(first, first + count):
        title, content = f"note {n}", f"the deploy of service {n} needs the ledger queue"
        rows.append(
            {
                "id": f"mem-{n:07d}",
                "project": project,
                "title": title,
                "content": content,
                "lexical": lexical_text(tenant, [title, content]),
            }
        )
    return rows


async def load(seeder: Store, tenant: str, key: ChainKey, projects: dict[str, int]) -> None:
    """The memories of each project; save events for all but the last project's."""
    now, first, revision, prev = datetime.now(UTC).isoformat(), 0, 0, GENESIS_HASH
    for index, (project, count) in enumerate(projects.items()):
        for offset in range(0, count, LOAD_BATCH):
            rows = _memories(tenant, project, first + offset, min(LOAD_BATCH, count - offset))
            await seeder.write("erasure/create_bench_memories", tenant, memories=rows, now=now)
            if index < len(projects) - 1:
                revision, prev = await _events(seeder, tenant, key, rows, revision, prev)
        first += count
    await seeder.write("history/set_bench_head", tenant, revision=revision, hash=prev)


async def _events(
    seeder: Store, tenant: str, key: ChainKey, rows: list[dict[str, Any]], revision: int, prev: str
) -> tuple[int, str]:
    start, events = datetime(2026, 1, 1, tzinfo=UTC), []
    for row in rows:
        revision += 1
        at = (start + timedelta(milliseconds=revision)).isoformat()
        subject = {"aggregate_kind": "memory", "aggregate_id": row["id"]}
        body = {**subject, "subject_ids": [row["id"]], "payload": {"title": row["title"]}}
        event = sealed_event(tenant, key, "save_memory", revision, at, canonical_json(body), prev)
        events.append({"event_id": new_id(), "id": row["id"], **event})
        prev = event["hash"]
    await seeder.write(
        "erasure/create_bench_memory_events",
        tenant,
        events=events,
        hash_scheme=SCHEME,
        key_id=key.key_id,
    )
    return revision, prev


class Writer:
    """record_fact in a loop on its own connection; the latency of each write."""

    def __init__(self, store: Store, tenant: str) -> None:
        self.db, self.stop = store.of(tenant), asyncio.Event()
        self.latencies: list[float] = []

    async def run(self) -> None:
        n = 0
        while not self.stop.is_set():
            began = time.perf_counter()
            request = RecordFactRequest(project="writer", key=f"k{n % 10}", value=n)
            await record_fact(self.db, request)
            self.latencies.append(time.perf_counter() - began)
            n += 1

    async def during(self, work: Any) -> tuple[Any, list[float]]:
        self.latencies, self.stop = [], asyncio.Event()
        task = asyncio.create_task(self.run())
        await asyncio.sleep(1.0)  # the writer's pace before the work starts
        before = len(self.latencies)
        try:
            result = await work
        finally:
            self.stop.set()
            await task
        return result, self.latencies[before:]


async def _erasure(store: Store, tenant: str, project: str, writer: Writer) -> None:
    db = store.of(tenant)
    began = time.perf_counter()
    dry = await erase(db, EraseRequest(project=project))
    dry_seconds = time.perf_counter() - began
    confirmed = EraseRequest(
        project=project,
        dry_run=False,
        confirm_destructive=True,
        reason="bench",
        expected_fingerprint=dry.fingerprint,
    )
    began = time.perf_counter()
    done, waits = await writer.during(erase(db, confirmed))
    seconds = time.perf_counter() - began
    assert done.total == dry.total and done.remaining == 0, done
    batches = len(done.revisions)
    say(
        f"erase {done.total:,} nodes ({project}): dry run {dry_seconds:.1f} s; erasure "
        f"{seconds:.1f} s in {batches} batches ({seconds / batches * 1000:.0f} ms per batch, "
        f"{done.total / seconds:,.0f} nodes/s), {done.event_payloads:,} event payloads"
    )
    say(
        f"  concurrent writer: {len(waits)} writes, median {statistics.median(waits) * 1000:.0f}"
        f" ms, longest {max(waits) * 1000:.0f} ms"
    )


async def main(total: int, sizes: list[int]) -> None:
    key = ChainKey(b"\x09" * 32)
    async with bench_store() as store, scratch_tenant(store, "erasure") as tenant:
        store.chain_key = key
        seeder = copy.copy(store)
        seeder.catalog = QueryCatalog(BENCH_CATALOG)
        projects = {f"erase-{size}": size for size in sizes}
        projects["kept"] = total - sum(sizes)
        began = time.perf_counter()
        await load(seeder, tenant, key, projects)
        say(
            f"loaded {total:,} memories ({sum(sizes):,} with their events) in "
            f"{time.perf_counter() - began:.0f} s"
        )
        writer = Writer(copy.copy(store), tenant)  # its own group commit, as another process
        _, idle = await writer.during(asyncio.sleep(3))
        say(
            f"writer alone: {len(idle)} writes, median {statistics.median(idle) * 1000:.0f} "
            f"ms, longest {max(idle) * 1000:.0f} ms"
        )
        for size in sizes:
            await _erasure(store, tenant, f"erase-{size}", writer)
        began = time.perf_counter()
        verdict = await verify_chain(store.of(tenant), limit=10**12, full=True)
        say(
            f"full verification: {verdict.status}, {verdict.checked_events:,} events, "
            f"{verdict.erased_payloads:,} erased payloads, {time.perf_counter() - began:.1f} s"
        )
        assert verdict.verified, verdict


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="erasure at scale")
    parser.add_argument("--total", type=int, default=1_000_000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 100_000])
    arguments = parser.parse_args()
    asyncio.run(main(arguments.total, arguments.sizes))

"""History verification at scale: a tenant holding N keyed events (bulk-loaded, hashed as the
write path hashes them), then

- a full verification (what `graphmem history verify` runs): time and events per second;
- an ordinary check (what replay_memory runs) with the checkpoint the full one set, after
  0 and after 1,000 more events: what a client pays.

    NEO4J_URI=... NEO4J_USER=... NEO4J_PASSWORD=... python -m bench.chain [--events 1000000]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.harness import BENCH_CATALOG, bench_store, say, scratch_tenant
from graphmem.core.keys import SCHEME, ChainKey
from graphmem.core.models import canonical_json
from graphmem.history.chain import GENESIS_HASH, event_hash, payload_digest
from graphmem.history.verification import verify_chain
from graphmem.store import QueryCatalog, Store

BATCH = 10_000


def sealed_event(
    tenant: str, key: ChainKey, op: str, revision: int, at: str, payload: str, prev: str
) -> dict[str, Any]:
    """An event's chain fields, sealed and hashed as the write path does (a bench needs no
    secret salt: the revision stands in)."""
    salt = f"{revision:032x}"
    sealed = payload_digest(salt, payload)
    digest = event_hash(tenant, revision, op, at, sealed, prev, key, sealed=True)
    return {
        "revision": revision,
        "at": at,
        "payload_json": payload,
        "payload_salt": salt,
        "payload_digest": sealed,
        "prev_hash": prev,
        "hash": digest,
    }


async def load_events(
    seeder: Store, tenant: str, key: ChainKey, first: int, count: int, prev: str
) -> str:
    """Append ``count`` keyed events after revision ``first - 1``; the last hash."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for offset in range(0, count, BATCH):
        rows = []
        for revision in range(first + offset, first + min(offset + BATCH, count)):
            at = (start + timedelta(seconds=revision)).isoformat()
            payload = canonical_json({"aggregate_kind": "bench", "n": revision})
            event = sealed_event(tenant, key, "bench", revision, at, payload, prev)
            rows.append({"id": f"ev-{revision}", **event})
            prev = event["hash"]
        await seeder.write(
            "history/create_bench_events",
            tenant,
            events=rows,
            hash_scheme=SCHEME,
            key_id=key.key_id,
        )
    await seeder.write("history/set_bench_head", tenant, revision=first + count - 1, hash=prev)
    return prev


async def main(events: int) -> None:
    key = ChainKey(b"\x07" * 32)
    async with bench_store() as store, scratch_tenant(store, "chain") as tenant:
        store.chain_key = key
        seeder = copy.copy(store)
        seeder.catalog = QueryCatalog(BENCH_CATALOG)
        began = time.perf_counter()
        last = await load_events(seeder, tenant, key, 1, events, GENESIS_HASH)
        say(f"loaded {events:,} keyed events in {time.perf_counter() - began:.0f} s")

        began = time.perf_counter()
        full = await verify_chain(store.of(tenant), limit=10**12, full=True)
        seconds = time.perf_counter() - began
        assert full.verified and full.complete, full
        say(f"full verification: {seconds:.1f} s, {full.checked_events / seconds:,.0f} events/s")

        for label, more in (("no new events", 0), ("1,000 new events", 1_000)):
            if more:
                last = await load_events(seeder, tenant, key, events + 1, more, last)
            began = time.perf_counter()
            first = await verify_chain(
                store.of(tenant)
            )  # reads the new events, moves the checkpoint
            first_ms = (time.perf_counter() - began) * 1000
            assert first.verified and first.complete, first
            again = []
            for _ in range(5):
                began = time.perf_counter()
                assert (await verify_chain(store.of(tenant))).verified
                again.append((time.perf_counter() - began) * 1000)
            say(
                f"ordinary check, {label}: {first_ms:.1f} ms reading {first.checked_events:,} "
                f"events after the checkpoint at {first.checked_from_revision:,}; "
                f"then {sorted(again)[2]:.1f} ms (median of 5)"
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="history verification at scale")
    parser.add_argument("--events", type=int, default=1_000_000)
    asyncio.run(main(parser.parse_args().events))

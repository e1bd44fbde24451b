"""A write-behind write that matched a node before an erasure committed must not put the
erased content back afterwards: the search-field indexer and the embeddings backfill run
outside the tenant's lock, so each takes the node's lock and looks again before it writes.

The race is made deterministic: an erasure's tombstone statement holds the node's lock in an
open transaction while the write-behind statement is started (it matches the node as still
live and waits for the lock), then commits."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, LiteralString, cast

import neo4j
import pytest
from fastmcp import Client

from graphmem.history.write_path import bookkeeping
from graphmem.store import Store
from tests.support import call

CANARY = "ochre-lantern"
TOMBSTONE = cast(  # the erasure's own statement, as the catalogue holds it
    "LiteralString",
    (Path(__file__).parents[2] / "cypher/erasure/tombstone_nodes.cypher").read_text(),
)
VECTOR = [0.1] * 384


async def _saved_memory(client: Client[Any]) -> str:
    saved = await call(client, "save_memory", project="p", title=CANARY, content=CANARY)
    assert (await call(client, "search", query=CANARY))["count"] == 1  # the indexer is done
    return saved["memory"]["id"]


async def _archived_turn(client: Client[Any]) -> str:
    now = datetime.now(UTC).isoformat()
    await call(
        client,
        "archive_turns",
        project="p",
        session_ref="s",
        host="h",
        source_root="/r",
        turns=[{"role": "user", "content": CANARY, "ts": now}],
    )
    found = await call(client, "search_raw", query=CANARY)
    return found["results"][0]["turn_id"]


WRITES: dict[str, tuple[str, str, Any]] = {
    "indexer": (
        "Memory",
        "retrieval/set_memory_search_fields",
        lambda node_id: {
            "memories": [{"id": node_id, "lexical": CANARY, "embedding": VECTOR}],
            "model": "m",
        },
    ),
    "memory backfill": (
        "Memory",
        "retrieval/set_memory_embeddings",
        lambda node_id: {"items": [{"id": node_id, "embedding": VECTOR}], "model": "m"},
    ),
    "access counter": (
        "Memory",
        "memories/record_memory_access",
        lambda node_id: {"ids": [node_id]},
    ),
    "turn vectors (written behind archive_turns, and backfill)": (
        "Turn",
        "retrieval/set_turn_vectors",
        lambda node_id: {"items": [{"id": node_id, "embedding": VECTOR}], "model": "m"},
    ),
}


@pytest.mark.parametrize("writer", list(WRITES))
async def test_a_write_behind_write_waiting_on_an_erasure_writes_nothing(
    client: Client[Any], store: Store, raw_driver: neo4j.AsyncDriver, tenant: str, writer: str
) -> None:
    kind, statement, params = WRITES[writer]
    node_id = await (_saved_memory(client) if kind == "Memory" else _archived_turn(client))
    async with raw_driver.session() as session:
        erasing = await session.begin_transaction()
        [ref] = await (
            await erasing.run(
                cast(
                    "LiteralString",
                    f"MATCH (n:{kind} {{tenant: $tenant, id: $id}}) RETURN elementId(n) AS ref",
                ),
                tenant=tenant,
                id=node_id,
            )
        ).values()
        nodes = [{"ref": ref[0], "kind": kind, "id": node_id}]
        tombstoned = await erasing.run(
            TOMBSTONE,
            nodes=nodes,
            tenant=tenant,
            now=datetime.now(UTC).isoformat(),
            erasure_id="race",
            revision=1,
        )
        await tombstoned.consume()  # run to its end: the node's lock is the erasure's now
        late = asyncio.create_task(bookkeeping(store.of(tenant), statement, **params(node_id)))
        await asyncio.sleep(1.0)
        assert not late.done(), "the write-behind write should wait for the erasure's lock"
        await erasing.commit()
        await late
    records = await raw_driver.execute_query(
        "MATCH (n {tenant: $tenant, id: $id}) RETURN properties(n) AS p, labels(n) AS l",
        tenant=tenant,
        id=node_id,
    )
    [(properties, labels)] = [(r["p"], r["l"]) for r in records.records]
    assert labels == ["Erased"]
    assert set(properties) == {
        "tenant",
        "id",
        "erased_kind",
        "erased_at",
        "erasure_id",
        "erased_by",
    }

"""Vectors of archived turns follow the acknowledgement (write-behind): a turn reads the turn
before it, a search settles its tenant first, a crash's leftovers are swept, and the turn after
an erased one is embedded again without it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from typing import Any

import neo4j

from graphmem.archive.models import ArchiveTurnsRequest
from graphmem.archive.service import archive_turns
from graphmem.embeddings.embedder import Embedder
from graphmem.erasure.models import EraseRequest
from graphmem.erasure.service import erase
from graphmem.history.write_path import bookkeeping
from graphmem.retrieval.indexing import indexer_of, turn_embedding_text
from graphmem.store import Store, TenantStore
from graphmem.toolkit.retrieval import Retrieval
from tests.neo4j_endpoint import Endpoint
from tests.support import cosine

SAID = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
TURNS = ["Did you move the ledger to Postgres?", "Yes, in May."]


def request(contents: list[str], session: str = "s1") -> ArchiveTurnsRequest:
    turns = [
        {"role": "user", "content": c, "ts": SAID.replace(minute=i)} for i, c in enumerate(contents)
    ]
    return ArchiveTurnsRequest.model_validate(
        {"project": "p", "session_ref": session, "host": "h", "source_root": "r", "turns": turns}
    )


async def turns_of(driver: neo4j.AsyncDriver, tenant: str) -> list[dict[str, Any]]:
    records, _, _ = await driver.execute_query(
        "MATCH (t:Turn {tenant: $tenant}) RETURN t.content AS content, t.id AS id, "
        "t.embedding AS embedding, t.embedding_model AS model, t:Unembedded AS waiting "
        "ORDER BY t.seq",
        tenant=tenant,
    )
    return [record.data() for record in records]


async def erased(db: TenantStore, turn_id: str) -> None:
    listed = await erase(db, EraseRequest(ids=[turn_id], reason="asked"))
    confirmed = EraseRequest(
        ids=[turn_id],
        reason="asked",
        dry_run=False,
        confirm_destructive=True,
        expected_fingerprint=listed.fingerprint,
    )
    assert (await erase(db, confirmed)).total == 1


async def archived_and_embedded(store: Store, tenant: str, e5_small: Embedder) -> TenantStore:
    db = store.of(tenant)
    await archive_turns(db, request(TURNS), Retrieval(embedder=e5_small))
    await indexer_of(store).settle(tenant, e5_small)
    return db


async def test_a_turns_vector_follows_and_reads_the_turn_before_it(
    store: Store, raw_driver: neo4j.AsyncDriver, tenant: str, e5_small: Embedder
) -> None:
    await archived_and_embedded(store, tenant, e5_small)
    first, second = await turns_of(raw_driver, tenant)
    assert not first["waiting"] and not second["waiting"]
    assert first["model"] == second["model"] == e5_small.model_id
    [alone, with_question] = e5_small.embed(
        [turn_embedding_text(SAID, TURNS[1]), turn_embedding_text(SAID, TURNS[1], TURNS[0])]
    )
    # int8 vectors of a text differ slightly with the batch it ran in
    assert cosine(second["embedding"], with_question) > 0.99
    assert cosine(second["embedding"], alone) < cosine(second["embedding"], with_question) - 0.02


async def test_without_a_model_no_turn_waits(
    store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    await archive_turns(store.of(tenant), request(TURNS), Retrieval())
    assert [t["waiting"] for t in await turns_of(raw_driver, tenant)] == [False, False]


CRASHING_ARCHIVER = textwrap.dedent(
    """
    import asyncio, os, sys
    from datetime import UTC, datetime
    from graphmem.archive.models import ArchiveTurnsRequest
    from graphmem.archive.service import archive_turns
    from graphmem.core.settings import Settings
    from graphmem.store import Store
    from graphmem.toolkit.retrieval import load_retrieval

    async def main():
        uri, user, password, tenant = sys.argv[1:5]
        store = await Store.connect(uri, user, password)
        turn = {"role": "user", "content": "a kestrel hovers", "ts": "2026-03-02T10:00:00Z"}
        request = ArchiveTurnsRequest.model_validate({"project": "p", "session_ref": "k",
            "host": "h", "source_root": "r", "turns": [turn]})
        await archive_turns(store.of(tenant), request, load_retrieval(Settings()))
        os._exit(0)  # dies before its vectors: no flush, no close

    asyncio.run(main())
    """
)


async def test_a_turn_left_by_a_crash_is_embedded_by_the_next_settle(
    neo4j_endpoint: Endpoint,
    store: Store,
    raw_driver: neo4j.AsyncDriver,
    tenant: str,
    e5_small: Embedder,
) -> None:
    endpoint = [neo4j_endpoint.uri, neo4j_endpoint.user, neo4j_endpoint.password]
    subprocess.run(
        [sys.executable, "-c", CRASHING_ARCHIVER, *endpoint, tenant],
        capture_output=True,
        timeout=120,
        check=True,
    )
    [left] = await turns_of(raw_driver, tenant)
    assert left["waiting"] and left["embedding"] is None
    await indexer_of(store).settle(tenant, e5_small)
    [embedded] = await turns_of(raw_driver, tenant)
    assert not embedded["waiting"] and embedded["model"] == e5_small.model_id


async def test_the_turn_after_an_erased_one_forgets_it(
    store: Store, raw_driver: neo4j.AsyncDriver, tenant: str, e5_small: Embedder
) -> None:
    db = await archived_and_embedded(store, tenant, e5_small)
    first, _ = await turns_of(raw_driver, tenant)
    await erased(db, first["id"])
    [kept] = await turns_of(raw_driver, tenant)
    assert kept["waiting"] and kept["embedding"] is None  # its vector read the erased turn
    await indexer_of(store).settle(tenant, e5_small)
    [kept] = await turns_of(raw_driver, tenant)
    [alone] = e5_small.embed([turn_embedding_text(SAID, TURNS[1])])
    assert cosine(kept["embedding"], alone) > 0.99


async def test_a_vector_read_with_a_turn_erased_meanwhile_is_not_written(
    store: Store, raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    """The indexer read B's text with A before it; A is erased before the vector is written:
    the vector (A's words in it) is refused, and B waits for a new one."""
    db = store.of(tenant)
    await archive_turns(db, request(TURNS), Retrieval())  # no model: nothing queued
    first, second = await turns_of(raw_driver, tenant)
    [read] = await store.read("retrieval/read_turn_vector_texts", tenant, ids=[second["id"]])
    assert (read["previous"], read["previous_id"]) == (TURNS[0], first["id"])
    await erased(db, first["id"])
    item = {"id": second["id"], "embedding": [0.1] * 384, "previous": read["previous_id"]}
    await bookkeeping(db, "retrieval/set_turn_vectors", items=[item], model="m")
    [kept] = await turns_of(raw_driver, tenant)
    assert kept["embedding"] is None and kept["waiting"]

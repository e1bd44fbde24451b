"""Vectors of archived turns follow the acknowledgement (write-behind): a turn reads the turn
before it, a search settles its tenant first, a crash's leftovers are swept, and the turn after
an erased one is embedded again without it."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import neo4j
import pytest

from graphmem.archive.models import ArchiveTurnsRequest
from graphmem.archive.service import archive_turns
from graphmem.embeddings.embedder import Embedder
from graphmem.erasure.models import EraseRequest
from graphmem.erasure.service import erase
from graphmem.history.write_path import bookkeeping
from graphmem.retrieval.indexing import indexer_of
from graphmem.retrieval.turn_texts import turn_embedding_text
from graphmem.search.models import SearchRequest
from graphmem.search.service import search
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


async def embedded(store: Store, tenant: str, model: Embedder) -> None:
    """What ``tenant`` has waiting, embedded: a settle queues a crash's leftovers (its sweep)
    and waits a moment only; the flush writes everything."""
    await indexer_of(store).settle(tenant, model)
    await indexer_of(store).flush(tenant)


async def erased(db: TenantStore, turn_id: str) -> None:
    listed = await erase(db, EraseRequest(ids=[turn_id], reason="asked"))
    confirmed = EraseRequest(
        ids=[turn_id],
        reason="asked",
        dry_run=False,
        confirm_destructive=True,
        expected_fingerprint=listed.fingerprint,
    )
    assert (await erase(db, confirmed)).counts["Turn"] == 1  # with the names only it held


async def archived_and_embedded(store: Store, tenant: str, e5_small: Embedder) -> TenantStore:
    db = store.of(tenant)
    await archive_turns(db, request(TURNS), Retrieval(embedder=e5_small))
    await embedded(store, tenant, e5_small)
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
    await embedded(store, tenant, e5_small)
    [now] = await turns_of(raw_driver, tenant)
    assert not now["waiting"] and now["model"] == e5_small.model_id


async def test_the_turn_after_an_erased_one_forgets_it(
    store: Store, raw_driver: neo4j.AsyncDriver, tenant: str, e5_small: Embedder
) -> None:
    db = await archived_and_embedded(store, tenant, e5_small)
    first, _ = await turns_of(raw_driver, tenant)
    await erased(db, first["id"])
    [kept] = await turns_of(raw_driver, tenant)
    assert kept["waiting"] and kept["embedding"] is None  # its vector read the erased turn
    await embedded(store, tenant, e5_small)
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


class SlowModel:
    """A model whose forward pass takes 20 ms a text: a large archive call's vectors then take
    long enough to watch who waits for them (its vectors are unit, not meaningful)."""

    name = "slow-test-model"
    dimensions = 384
    model_id = "slow-test-model@sha256:0"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        time.sleep(0.02 * len(texts))
        return [[1.0] + [0.0] * 383 for _ in texts]

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed(texts)


async def test_a_search_never_waits_long_for_turn_vectors_its_own_or_anothers(
    store: Store, tenant: str, other_tenant: str
) -> None:
    slow = Retrieval(embedder=SlowModel())
    big = request([f"turn {n} about the heron" for n in range(60)])  # 1.2 s of vectors
    await archive_turns(store.of(other_tenant), big, slow)
    indexer = indexer_of(store)
    while not indexer._in_flight[(other_tenant, "turns")]:  # noqa: ASYNC110 - its flush began
        await asyncio.sleep(0.01)
    quiet = await search(store.of(tenant), SearchRequest(query="heron", project="p"), slow)
    assert quiet.notices == []  # another tenant's vectors are not this search's to wait for
    assert indexer.waiting_turns(other_tenant) > 0  # still embedding when the search answered
    own = await search(store.of(other_tenant), SearchRequest(query="heron", project="p"), slow)
    waiting = indexer.waiting_turns(other_tenant)
    assert waiting > 0 and own.raw_hits  # full-text finds them meanwhile
    [notice] = own.notices
    assert notice == f"{waiting} recently archived turns are not searchable by meaning yet"
    assert waiting <= 60  # each turn counted once, though the search also swept them
    await indexer.flush(other_tenant)
    settled = await search(store.of(other_tenant), SearchRequest(query="heron", project="p"), slow)
    assert settled.notices == [] and indexer.waiting_turns(other_tenant) == 0


async def test_a_late_turn_gives_the_turn_after_it_a_new_vector(
    store: Store, raw_driver: neo4j.AsyncDriver, tenant: str, e5_small: Embedder
) -> None:
    """A at 10:00 and C at 10:02, then B at 10:01: C's vector read A; it is made again with B,
    so erasing A later leaves A's words in no vector."""
    db, model = store.of(tenant), Retrieval(embedder=e5_small)
    said = {"A": "My sister lives in Lisbon.", "B": "Which city again?", "C": "Near the river."}

    def turn(key: str, minute: int) -> dict[str, Any]:
        return {"role": "user", "content": said[key], "ts": SAID.replace(minute=minute)}

    def archived(*turns: dict[str, Any]) -> ArchiveTurnsRequest:
        body = {"project": "p", "session_ref": "s1", "host": "h", "source_root": "r"}
        return ArchiveTurnsRequest.model_validate({**body, "turns": list(turns)})

    await archive_turns(db, archived(turn("A", 0), turn("C", 2)), model)
    await embedded(store, tenant, e5_small)
    await archive_turns(db, archived(turn("B", 1)), model)
    await embedded(store, tenant, e5_small)
    by_content = {t["content"]: t for t in await turns_of(raw_driver, tenant)}
    c = by_content[said["C"]]
    [c_after_b] = e5_small.embed([turn_embedding_text(SAID, said["C"], said["B"])])
    assert not c["waiting"] and cosine(c["embedding"], c_after_b) > 0.99
    await erased(db, by_content[said["A"]]["id"])
    await embedded(store, tenant, e5_small)
    [b_alone] = e5_small.embed([turn_embedding_text(SAID, said["B"])])
    by_content = {t["content"]: t for t in await turns_of(raw_driver, tenant)}
    assert cosine(by_content[said["B"]]["embedding"], b_alone) > 0.99
    assert cosine(by_content[said["C"]]["embedding"], c_after_b) > 0.99


async def test_turns_archived_while_the_model_is_missing_are_embedded_once_it_is_there(
    store: Store, raw_driver: neo4j.AsyncDriver, tenant: str, e5_small: Embedder
) -> None:
    missing = Retrieval(vectors_off="the model is missing")
    await archive_turns(store.of(tenant), request(TURNS), missing)
    assert [t["waiting"] for t in await turns_of(raw_driver, tenant)] == [True, True]
    indexer_of(store).sweep_soon(tenant)  # a process started with the model sweeps at once
    await embedded(store, tenant, e5_small)
    assert [t["model"] for t in await turns_of(raw_driver, tenant)] == [e5_small.model_id] * 2


async def test_a_failing_indexer_never_fails_a_search(
    store: Store, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*_: object) -> int:
        raise RuntimeError("the store refused the batch")

    monkeypatch.setattr(indexer_of(store), "settle", broken)
    found = await search(store.of(tenant), SearchRequest(query="heron", project="p"), Retrieval())
    assert found.notices == ["some writes of the last moments may not be searchable yet"]


async def test_a_search_with_nothing_waiting_starts_no_flush(store: Store, tenant: str) -> None:
    """The hot path: a search of a tenant with nothing queued (its sweep found nothing)
    leaves no queue and no turn flush behind it."""
    slow = Retrieval(embedder=SlowModel())
    await search(store.of(tenant), SearchRequest(query="heron", project="p"), slow)
    indexer = indexer_of(store)
    assert indexer.waiting_turns(tenant) == 0
    assert tenant not in indexer._behind
    assert not [key for key in indexer._pending if key[0] == tenant]

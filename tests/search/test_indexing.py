"""Write-behind search fields: a saved memory is searchable at once in its process, indexed
without any reader soon after, flushed when the store closes, and never lost by a crash."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
import time
from typing import Any, NotRequired, TypedDict

import pytest

from graphmem.embeddings.minilm import MiniLM
from graphmem.memories.models.memories import SaveMemoryRequest
from graphmem.memories.service import save_memory
from graphmem.retrieval import indexing
from graphmem.retrieval.indexing import memory_lexical
from graphmem.retrieval.rows import MemorySearchFields, UnindexedMemoryRow
from graphmem.search.models import SearchRequest
from graphmem.search.service import search
from graphmem.store import Store, shaped
from graphmem.toolkit.retrieval import Retrieval
from tests.neo4j_endpoint import Endpoint


def _request(title: str, content: str) -> SaveMemoryRequest:
    return SaveMemoryRequest(project="p", type="note", title=title, content=content)


class _Indexed(MemorySearchFields):
    """The properties of a Memory node this test reads (and its search fields are made of)."""

    lexical: str
    embedding: NotRequired[list[float]]  # with a model


class _MemoryRow(TypedDict):
    """memories/get_memories: a Memory node."""

    memory: _Indexed


async def _node(store: Store, tenant: str, memory_id: str) -> _Indexed:
    [row] = shaped(_MemoryRow, await store.read("memories/get_memories", tenant, ids=[memory_id]))
    return row["memory"]


async def _unindexed(store: Store, tenant: str) -> list[str]:
    rows = await store.read("retrieval/list_unindexed_memories", tenant, limit=100)
    return [row["memory"]["id"] for row in shaped(UnindexedMemoryRow, rows)]


async def _found(store: Store, tenant: str, query: str) -> list[str]:
    result = await search(store.of(tenant), SearchRequest(query=query, raw_fallback=False))
    return [hit.id for hit in result.results]


async def test_a_save_is_searchable_as_soon_as_it_returns(store: Store, tenant: str) -> None:
    saved = await save_memory(store.of(tenant), _request("Pelican", "the pelican migrates"))
    assert await _found(store, tenant, "pelican") == [saved.memory.id]
    assert await _unindexed(store, tenant) == []


async def test_the_fields_follow_without_any_reader(store: Store, tenant: str) -> None:
    saved = await save_memory(store.of(tenant), _request("Heron", "a grey heron waits"))
    for _ in range(100):  # the batch goes within FLUSH_DELAY; allow a loaded machine 5 s
        if not await _unindexed(store, tenant):
            break
        await asyncio.sleep(0.05)
    node = await _node(store, tenant, saved.memory.id)
    assert await _unindexed(store, tenant) == []
    assert node["lexical"] == memory_lexical(tenant, node)


async def test_closing_the_store_flushes_its_queue(
    neo4j_endpoint: Endpoint, store: Store, tenant: str
) -> None:
    own = await Store.connect(neo4j_endpoint.uri, neo4j_endpoint.user, neo4j_endpoint.password)
    saved = await save_memory(own.of(tenant), _request("Egret", "the egret is white"))
    await own.close()  # before the batch's delay has passed
    assert await _unindexed(store, tenant) == []
    assert (await _node(store, tenant, saved.memory.id))["lexical"]


CRASHING_WRITER = textwrap.dedent(
    """
    import asyncio, os, sys
    from graphmem.memories.models.memories import SaveMemoryRequest
    from graphmem.memories.service import save_memory
    from graphmem.store import Store

    async def main():
        uri, user, password, tenant = sys.argv[1:5]
        store = await Store.connect(uri, user, password)
        request = SaveMemoryRequest(project="p", type="note", title="Kestrel",
                                    content="a kestrel hovers over the field")
        saved = await save_memory(store.of(tenant), request)
        print(saved.memory.id, flush=True)
        os._exit(0)  # dies before its batch: no flush, no close

    asyncio.run(main())
    """
)


def _crashing_save(neo4j_endpoint: Endpoint, tenant: str) -> str:
    endpoint = [neo4j_endpoint.uri, neo4j_endpoint.user, neo4j_endpoint.password]
    run = subprocess.run(
        [sys.executable, "-c", CRASHING_WRITER, *endpoint, tenant],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return run.stdout.split()[0]


async def test_a_memory_left_by_a_crashed_process_is_indexed_before_a_search_reads(
    neo4j_endpoint: Endpoint, store: Store, tenant: str
) -> None:
    memory_id = _crashing_save(neo4j_endpoint, tenant)
    assert await _unindexed(store, tenant) == [memory_id]  # the crash left it waiting
    assert await _found(store, tenant, "kestrel") == [memory_id]
    assert await _unindexed(store, tenant) == []


async def test_a_running_process_looks_again_for_leftovers(
    neo4j_endpoint: Endpoint, store: Store, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert await _found(store, tenant, "kestrel") == []  # this process has swept the tenant
    memory_id = _crashing_save(neo4j_endpoint, tenant)
    assert await _found(store, tenant, "kestrel") == []  # not again within SWEEP_EVERY
    monkeypatch.setattr(indexing, "SWEEP_EVERY", 0.0)
    assert await _found(store, tenant, "kestrel") == [memory_id]


async def test_a_search_writes_its_own_tenants_queue_only(
    store: Store, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexing, "FLUSH_DELAY", 30.0)  # no timer flush during the test
    monkeypatch.setattr(indexing, "FLUSH_AT_MOST", 30.0)
    other = f"{tenant}-other"
    try:
        await save_memory(store.of(other), _request("Ibis", "the ibis wades"))
        saved = await save_memory(store.of(tenant), _request("Stork", "a stork nests"))
        assert await _found(store, tenant, "stork") == [saved.memory.id]
        assert await _unindexed(store, other) != []  # still queued: not this search's work
        assert indexing.indexer_of(store).waiting == 1
        await indexing.indexer_of(store).flush()
        assert await _unindexed(store, other) == []
    finally:
        await indexing.indexer_of(store).close()  # its timer would sleep the 30 s out
        await store.purge_tenant(other)


async def test_a_stream_of_saves_shares_its_batches_and_none_waits_past_the_bound(
    store: Store, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexing, "FLUSH_DELAY", 0.2)  # longer than the gap between saves
    monkeypatch.setattr(indexing, "FLUSH_AT_MOST", 0.6)
    batches: list[int] = []
    real_write = indexing.Indexer._write

    async def counted(self: indexing.Indexer, *args: Any) -> None:
        batches.append(len(args[-1]))
        await real_write(self, *args)

    monkeypatch.setattr(indexing.Indexer, "_write", counted)
    db, saved, indexed_while_saving = store.of(tenant), [], False
    began = time.monotonic()
    for index in range(24):  # about 1.2 s of saves, never a pause of FLUSH_DELAY
        memory = await save_memory(db, _request(f"Wren {index}", "a wren sings at dawn"))
        saved.append(memory.memory.id)
        indexed_while_saving = indexed_while_saving or bool(batches)
        await asyncio.sleep(0.05)
    saving = time.monotonic() - began
    for _ in range(100):
        if not await _unindexed(store, tenant):
            break
        await asyncio.sleep(0.05)
    assert await _unindexed(store, tenant) == []
    assert indexed_while_saving  # FLUSH_AT_MOST bounds the wait while saves keep coming
    assert sum(batches) == len(saved)  # each memory written once, none lost between batches
    # one batch per FLUSH_AT_MOST while the saves last, and the last one's: not one per
    # FLUSH_DELAY (three times as many), nor one per save
    assert len(batches) <= saving / 0.6 + 2


async def test_with_a_model_a_full_batch_goes_without_waiting_for_the_timer(
    store: Store, tenant: str, minilm: MiniLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(indexing, "FLUSH_DELAY", 30.0)  # only MODEL_BATCH can start a batch
    monkeypatch.setattr(indexing, "FLUSH_AT_MOST", 30.0)
    db = store.of(tenant)
    try:
        for index in range(indexing.MODEL_BATCH - 1):
            await save_memory(db, _request(f"Plover {index}", "a plover runs"), Retrieval(minilm))
        await asyncio.sleep(0.3)
        assert len(await _unindexed(store, tenant)) == indexing.MODEL_BATCH - 1  # not yet full
        last = await save_memory(db, _request("Plover last", "a plover runs"), Retrieval(minilm))
        for _ in range(100):
            if not await _unindexed(store, tenant):
                break
            await asyncio.sleep(0.05)
        assert await _unindexed(store, tenant) == []
        assert len((await _node(store, tenant, last.memory.id)).get("embedding", [])) == 384
    finally:
        await indexing.indexer_of(store).close()  # its timer would sleep the 30 s out

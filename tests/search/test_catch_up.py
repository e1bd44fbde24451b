"""What was written while embeddings were off is found by meaning once a server starts with the
model on, with no command: the catch-up embeds it in the background, and a search meanwhile
says how much is not searchable by meaning yet."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem.archive.models import ArchiveTurnsRequest
from graphmem.archive.service import archive_turns
from graphmem.embeddings.embedder import Embedder
from graphmem.embeddings.minilm import MiniLM
from graphmem.memories.models.memories import SaveMemoryRequest
from graphmem.memories.service import save_memory
from graphmem.retrieval import catch_up
from graphmem.retrieval.backfill import items_to_embed
from graphmem.retrieval.catch_up import not_embedded_yet, start_catch_up
from graphmem.retrieval.indexing import indexer_of
from graphmem.retrieval.rows import ItemRow, TurnText
from graphmem.search.channels.names import ChannelName
from graphmem.search.models import SearchRequest, SearchResult
from graphmem.search.service import search
from graphmem.store import Store, shaped
from graphmem.toolkit.retrieval import WITHOUT_MODELS, Retrieval

MEMORY = ("Kayak trip", "We paddled the fjord at dawn and camped on the shore.")
TURN = "My sister adopted a puppy from the shelter last weekend."


@pytest.fixture(autouse=True)
async def vector_space(store: Store, e5_small: Embedder) -> AsyncIterator[None]:
    """The database's vector space, which a start records before its catch-up (and which
    holds the catch-up's claim): recorded for the test when no other test did."""
    recorded = await store.vector_space()
    if recorded is None:
        await store.record_vector_space(e5_small.model_id, e5_small.dimensions)
    yield
    if recorded is None:
        await store.write("store/release_vector_catch_up", tenant="-", owner="-")


async def written_without_model(store: Store, tenant: str) -> tuple[str, str]:
    db = store.of(tenant)
    title, content = MEMORY
    saved = await save_memory(
        db, SaveMemoryRequest(project="p", type="note", title=title, content=content)
    )
    turns = [{"role": "user", "content": TURN, "ts": datetime(2026, 3, 2, tzinfo=UTC)}]
    await archive_turns(
        db,
        ArchiveTurnsRequest.model_validate(
            {"project": "p", "session_ref": "s", "host": "h", "source_root": "r", "turns": turns}
        ),
        WITHOUT_MODELS,
    )
    await indexer_of(store).flush(tenant)
    [turn] = shaped(
        ItemRow[TurnText],
        await store.read(
            "retrieval/list_turns_to_embed", tenant, model="-", after="", limit=9, replace=True
        ),
    )
    return saved.memory.id, turn["item"]["id"]


async def by_meaning(store: Store, tenant: str, query: str, model: Embedder) -> SearchResult:
    request = SearchRequest(query=query, channels=[ChannelName.VECTOR], project="p")
    return await search(store.of(tenant), request, Retrieval(embedder=model))


async def unembedded(store: Store, tenant: str, model: Embedder) -> dict[str, int]:
    return await items_to_embed(store, tenant, model, replace=False)


def found(result: SearchResult) -> set[str]:
    return {hit.id for hit in result.results} | {hit.turn_id for hit in result.raw_hits}


async def test_older_items_are_found_by_meaning_after_the_catch_up(
    store: Store, tenant: str, e5_small: Embedder
) -> None:
    memory_id, turn_id = await written_without_model(store, tenant)
    before = await by_meaning(store, tenant, "canoeing along a fjord", e5_small)
    assert memory_id not in found(before)  # no vector: the vector channel cannot see it

    await start_catch_up(store, e5_small, [tenant])

    assert not_embedded_yet(store, tenant) == 0
    assert memory_id in found(await by_meaning(store, tenant, "canoeing along a fjord", e5_small))
    assert turn_id in found(await by_meaning(store, tenant, "a new dog in the family", e5_small))
    assert await items_to_embed(store, tenant, e5_small) == {"memories": 0, "turns": 0}


async def test_a_search_during_the_catch_up_says_what_is_not_searchable_yet(
    store: Store, tenant: str, e5_small: Embedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    await written_without_model(store, tenant)
    release = asyncio.Event()
    real = catch_up.backfill_tenant

    async def held(*args: Any, **kwargs: Any) -> dict[str, int]:
        await release.wait()  # counted, not yet embedded
        return await real(*args, **kwargs)

    monkeypatch.setattr(catch_up, "backfill_tenant", held)
    task = start_catch_up(store, e5_small, [tenant])
    for _ in range(200):
        if not_embedded_yet(store, tenant):
            break
        await asyncio.sleep(0.01)
    during = await by_meaning(store, tenant, "canoeing along a fjord", e5_small)
    assert any(
        notice.startswith("2 memories and turns written before") for notice in during.notices
    )
    release.set()
    await task
    after = await by_meaning(store, tenant, "canoeing along a fjord", e5_small)
    assert not any("written before" in notice for notice in after.notices)


async def test_another_models_vectors_are_left_to_the_backfill_command(
    store: Store, tenant: str, e5_small: Embedder, minilm: MiniLM
) -> None:
    db = store.of(tenant)
    title, content = MEMORY
    request = SaveMemoryRequest(project="p", type="note", title=title, content=content)
    await save_memory(db, request, Retrieval(embedder=minilm))
    await indexer_of(store).flush(tenant)
    await start_catch_up(store, e5_small, [tenant])
    assert await items_to_embed(store, tenant, minilm) == {"memories": 0, "turns": 0}
    assert await items_to_embed(store, tenant, e5_small) == {"memories": 1, "turns": 0}


async def test_a_failed_tenant_stops_saying_it_waits_and_the_next_goes_on(
    store: Store,
    tenant: str,
    other_tenant: str,
    e5_small: Embedder,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    await written_without_model(store, tenant)
    await written_without_model(store, other_tenant)
    real = catch_up.backfill_tenant

    async def failing_first(s: Store, t: str, *args: Any, **kwargs: Any) -> dict[str, int]:
        if t == tenant:
            raise RuntimeError("the database went away")
        return await real(s, t, *args, **kwargs)

    monkeypatch.setattr(catch_up, "backfill_tenant", failing_first)
    await start_catch_up(store, e5_small, [tenant, other_tenant])
    assert not_embedded_yet(store, tenant) == 0  # no notice of work nobody does
    assert await items_to_embed(store, tenant, e5_small, replace=False) == {
        "memories": 1,
        "turns": 1,
    }
    assert await items_to_embed(store, other_tenant, e5_small) == {"memories": 0, "turns": 0}


async def test_one_process_catches_up_at_a_time(
    store: Store, tenant: str, e5_small: Embedder
) -> None:
    await written_without_model(store, tenant)
    assert await store.claim_vector_catch_up("another process", 60)
    try:
        await start_catch_up(store, e5_small, [tenant])
        assert await items_to_embed(store, tenant, e5_small, replace=False) != {
            "memories": 0,
            "turns": 0,
        }
    finally:
        await store.release_vector_catch_up("another process")
    await start_catch_up(store, e5_small, [tenant])  # the claim released: this one goes on
    assert await items_to_embed(store, tenant, e5_small, replace=False) == {
        "memories": 0,
        "turns": 0,
    }


@pytest.mark.parametrize(
    "listing", ["retrieval/list_turns_to_embed", "retrieval/list_memories_to_embed"]
)
async def test_a_page_of_the_listing_seeks_its_tenant_in_id_order(
    store: Store, listing: str
) -> None:
    """A page cut before anything sorts the backlog: a catch-up of n items costs n, not n^2."""
    operators = await store.explain(listing)
    assert "NodeUniqueIndexSeek" in operators and "Limit" in operators, operators
    assert not [op for op in operators if "Scan" in op or op == "Top"], operators

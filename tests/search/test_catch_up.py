"""What was written while embeddings were off is found by meaning once a server starts with the
model on, with no command: the catch-up embeds it in the background, and a search meanwhile
says how much is not searchable by meaning yet."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest

from graphmem.archive.models import ArchiveTurnsRequest
from graphmem.archive.service import archive_turns
from graphmem.embeddings.embedder import Embedder
from graphmem.memories.models.memories import SaveMemoryRequest
from graphmem.memories.service import save_memory
from graphmem.retrieval import catch_up
from graphmem.retrieval.catch_up import not_embedded_yet, start_catch_up
from graphmem.retrieval.indexing import indexer_of
from graphmem.search.channels.names import ChannelName
from graphmem.search.models import SearchRequest, SearchResult
from graphmem.search.service import search
from graphmem.store import Store
from graphmem.toolkit.retrieval import WITHOUT_MODELS, Retrieval

MEMORY = ("Kayak trip", "We paddled the fjord at dawn and camped on the shore.")
TURN = "My sister adopted a puppy from the shelter last weekend."


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
    [turn] = await store.read("retrieval/list_turns_to_embed", tenant, model="-", after="", limit=9)
    return saved.memory.id, turn["item"]["id"]


async def by_meaning(store: Store, tenant: str, query: str, model: Embedder) -> SearchResult:
    request = SearchRequest(query=query, channels=[ChannelName.VECTOR], project="p")
    return await search(store.of(tenant), request, Retrieval(embedder=model))


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
    rows = await store.read("retrieval/count_items_to_embed", tenant, model=e5_small.model_id)
    assert (rows[0]["memories"], rows[0]["turns"]) == (0, 0)


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


async def test_a_tenant_with_nothing_to_embed_is_left_alone(
    store: Store, tenant: str, e5_small: Embedder
) -> None:
    await start_catch_up(store, e5_small, [tenant])
    assert not_embedded_yet(store, tenant) == 0

"""The retrieval parts on a real store: a model that cannot load leaves search on full-text and
graph, saying so in ``notices``; a second stage orders memories and raw turns, and one over its
budget is dropped, saying so."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.archive.models import ArchiveTurnsRequest
from graphmem.archive.service import archive_turns
from graphmem.core.settings import Settings
from graphmem.memories.models.memories import SaveMemoryRequest
from graphmem.memories.service import save_memory
from graphmem.search.models import SearchRequest
from graphmem.search.service import search
from graphmem.store import Store
from graphmem.toolkit.retrieval import VECTORS_UNAVAILABLE, Candidate, Retrieval
from tests.support import WholeRecordClient, call, call_error


@pytest.fixture
async def model_missing(
    store: Store, settings: Settings, tmp_path: Path
) -> AsyncIterator[Client[Any]]:
    """A server configured for embeddings whose model files are not there."""
    configured = settings.model_copy(
        update={"embeddings": "minilm", "embedding_model_dir": tmp_path / "no-model"}
    )
    async with WholeRecordClient(create_server(store, configured)) as connected:
        yield connected


async def test_search_without_its_model_runs_fulltext_and_graph_and_says_why(
    model_missing: Client[Any], tmp_path: Path
) -> None:
    for title in ("Sunset walk", "Painting class"):
        await call(model_missing, "save_memory", project="p", title=title, content=f"{title}.")
    found = await call(model_missing, "search", project="p", query="sunset walk")
    assert found["results"][0]["title"] == "Sunset walk"
    assert found["channels_used"] == ["fulltext", "graph"]
    [notice] = found["notices"]
    assert notice == f"vector channel off: {VECTORS_UNAVAILABLE}"
    assert str(tmp_path) not in json.dumps(found)  # the operator's folder stays in the log
    chosen = await call(model_missing, "search", project="p", query="sunset", channels=["fulltext"])
    assert chosen["notices"] == []  # the caller left the vector channel out
    refused = await call_error(model_missing, "search", query="sunset", channels=["vector"])
    assert refused["error"] == "invalid_argument"
    assert refused["message"] == f"channels: vector is off: {VECTORS_UNAVAILABLE}"
    assert str(tmp_path) not in refused["message"]


class Reverse:
    name = "reverse"

    async def rerank(self, query: str, candidates: Sequence[Candidate], budget: float) -> list[str]:
        return [candidate.id for candidate in reversed(candidates)]


class Slow:
    name = "slow"

    async def rerank(self, query: str, candidates: Sequence[Candidate], budget: float) -> list[str]:
        await asyncio.sleep(1.0)
        return [candidate.id for candidate in reversed(candidates)]


async def test_a_second_stage_orders_memories_and_one_over_budget_is_dropped(
    store: Store, tenant: str
) -> None:
    db = store.of(tenant)
    for title in ("Harbour crane", "Harbour tug boat", "Harbour lighthouse keeper notes"):
        await save_memory(db, SaveMemoryRequest(project="p", title=title, content="harbour"))
    request = SearchRequest(query="harbour", project="p", raw_fallback=False)
    fused = [hit.title for hit in (await search(db, request)).results]
    reversed_ = await search(db, request, Retrieval(second_stage=Reverse()))
    assert [hit.title for hit in reversed_.results] == fused[::-1] and reversed_.notices == []
    late = await search(db, request, Retrieval(second_stage=Slow(), second_stage_budget=0.05))
    assert [hit.title for hit in late.results] == fused
    assert late.notices == ["second stage slow ran over its 50 ms budget: the fused order stands"]


async def test_a_second_stage_orders_the_raw_fallback_too(store: Store, tenant: str) -> None:
    db = store.of(tenant)
    turns = [
        {"role": "user", "content": f"the kayak trip, day {day}", "ts": f"2024-05-0{day}T10:00Z"}
        for day in (1, 2, 3)
    ]
    request = ArchiveTurnsRequest.model_validate(
        {"project": "p", "session_ref": "s", "host": "h", "source_root": "r", "turns": turns}
    )
    await archive_turns(db, request)
    query = SearchRequest(query="kayak trip", project="p")
    fused = [hit.turn_id for hit in (await search(db, query)).raw_hits]
    reversed_ = await search(db, query, Retrieval(second_stage=Reverse()))
    assert len(fused) == 3 and [hit.turn_id for hit in reversed_.raw_hits] == fused[::-1]

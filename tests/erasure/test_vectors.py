"""Erasure takes a memory's and a turn's vectors out of the vector indexes: the vector channel
that found them by meaning finds nothing after, and no vector of the tenant is left on a
tombstone."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import neo4j
from fastmcp import Client

from tests.erasure.helpers import erase
from tests.search.test_search import needs_model
from tests.support import call

QUERY = "Which dog did she get?"  # shares no word with what it finds


@needs_model
async def test_erased_vectors_are_found_no_more(
    semantic: Client[Any], raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    saved = await call(
        semantic,
        "save_memory",
        project="p",
        title="Pets",
        content="Caroline adopted a small puppy last spring.",
    )
    await call(
        semantic,
        "save_memory",
        project="p",
        title="Finance",
        content="Quarterly revenue rose by four percent.",
    )
    vector = {"query": QUERY, "project": "p", "channels": ["vector"], "raw_fallback": False}
    before = await call(semantic, "search", **vector)
    assert before["results"][0]["id"] == saved["memory"]["id"]
    await erase(semantic, ids=[saved["memory"]["id"]])
    after = await call(semantic, "search", **vector)
    assert saved["memory"]["id"] not in [hit["id"] for hit in after["results"]]
    records, _, _ = await raw_driver.execute_query(
        "MATCH (n:Erased) WHERE n.tenant = $tenant RETURN count(n.embedding) AS vectors, "
        "count(n) AS tombstones",
        tenant=tenant,
    )
    assert (records[0]["vectors"], records[0]["tombstones"]) == (0, 1)


@needs_model
async def test_an_erased_turn_leaves_the_raw_vector_channel(semantic: Client[Any]) -> None:
    turn = {
        "role": "user",
        "content": "Caroline adopted a small puppy last spring.",
        "ts": datetime.now(UTC).isoformat(),
    }
    archived = await call(
        semantic,
        "archive_turns",
        project="p",
        session_ref="s",
        host="h",
        source_root="/r",
        turns=[turn],
    )
    assert (await call(semantic, "search_raw", query="puppy"))["count"] == 1
    await erase(semantic, raw_session_id=archived["session"]["id"])
    assert (await call(semantic, "search_raw", query="puppy"))["count"] == 0
    timeline = await call(semantic, "search", query=QUERY, project="p")
    assert "puppy" not in str(timeline)

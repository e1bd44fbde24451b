"""search's odd queries, as agents and people send them: each a clear answer or a clear
invalid_argument naming the field, never a failure or a timeout, with every channel on."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client

from graphmem.retrieval.indexing import indexer_of
from graphmem.store import Store
from tests.support import archive, call, call_error

ANSWERED = {
    "only stop words": "the of and to is it",
    "only emoji": "🎉🔥🚀",
    "another language": "¿Dónde está la reunión del equipo? 会议在哪里",
    "a date": "what did we decide last March",
    "punctuation and Lucene syntax": 'AND OR NOT ~ * ? "unbalanced ( ] { \\ /',
    "a 1,000-character query of 64 words": " ".join(["x" * 14] * 64)[:1000],
}


async def seed(client: Client[Any]) -> None:
    await call(client, "save_memory", project="p", title="Team meeting", content="In Berlin.")
    await archive(client, [{"role": "user", "content": "We moved.", "ts": "2026-03-02T10:00:00Z"}])


@pytest.mark.parametrize("case", list(ANSWERED))
async def test_an_odd_query_gets_an_answer(e5_client: Client[Any], case: str) -> None:
    await seed(e5_client)
    found = await call(e5_client, "search", project="p", query=ANSWERED[case])
    assert found["query"] == ANSWERED[case]
    assert "vector" in found["channels_used"]
    assert found["count"] == len(found["results"])


async def test_a_date_query_finds_the_turn_said_then(e5_client: Client[Any], store: Store) -> None:
    """The month is in neither turn's words: it is the day each was said, which both the
    full-text tokens and the vector of a turn read."""
    said = {"s1": ("We decided to keep the old cache.", "2026-06-02T10:00:00Z")}
    said["s2"] = ("We decided to move to Postgres.", "2026-03-02T10:00:00Z")
    for session, (content, ts) in said.items():
        await archive(e5_client, [{"role": "user", "content": content, "ts": ts}], session)
    await indexer_of(store).flush()  # the vectors follow the calls
    found = await call(e5_client, "search", project="p", query="what did we decide last March")
    assert [hit["preview"] for hit in found["raw_hits"]] == [said["s2"][0], said["s1"][0]]


async def test_an_empty_query_lists_the_project(e5_client: Client[Any]) -> None:
    await seed(e5_client)
    found = await call(e5_client, "search", project="p", query="")
    assert found["channels_used"] == [] and [h["title"] for h in found["results"]] == [
        "Team meeting"
    ]


@pytest.mark.parametrize(
    ("query", "says"),
    [("a" * 100_000, "1000"), (" ".join(["word"] * 65), "more than 64 terms")],
    ids=["100 KB", "65 words"],
)
async def test_an_oversized_query_is_refused_naming_the_field(
    e5_client: Client[Any], query: str, says: str
) -> None:
    error = await call_error(e5_client, "search", project="p", query=query)
    assert error["error"] == "invalid_argument" and error["field"] == "query"
    assert says in error["message"]

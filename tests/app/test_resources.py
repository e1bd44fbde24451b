"""The graphmem://schema and graphmem://stats resources."""

from __future__ import annotations

import json
from typing import Any

from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store
from tests.support import call


async def _read(client: Client[Any], uri: str) -> Any:
    contents = await client.read_resource(uri)
    return json.loads(contents[0].text)  # type: ignore[union-attr]


async def test_schema_lists_the_graph_model(client: Client[Any]) -> None:
    schema = await _read(client, "graphmem://schema")
    labels = {node["label"] for node in schema["nodes"]}
    assert {"Fact", "FactKey", "FactState", "Event", "History"} <= labels
    assert {"SUPERSEDES", "CONTRADICTS", "CURRENT"} <= {edge["type"] for edge in schema["edges"]}


async def test_stats_count_only_the_callers_tenant(client: Client[Any], store: Store) -> None:
    await call(client, "record_fact", project="a", key="k", value=1)
    await call(client, "record_fact", project="a", key="k", value=2)
    await call(client, "record_fact", origin_id="o", key="x", value=3)
    stats = await _read(client, "graphmem://stats")
    assert stats["revision"] == 3 and stats["fact_keys"] == 2
    assert stats["facts"] == [
        {"owner": "origin:o", "status": "active", "count": 1},
        {"owner": "project:a", "status": "active", "count": 1},
        {"owner": "project:a", "status": "superseded", "count": 1},
    ]
    assert stats["head"]["revision"] == 3 and len(stats["head"]["hash"]) == 64
    assert stats["labels"]["Fact"] == 3 and stats["labels"]["FactKey"] == 2
    assert stats["projects"] == {"a": {"FactKey": 1, "Fact": 2}}  # origin facts name none
    outsider = Settings().model_copy(update={"tenant": "test-nobody-here", "toolset": "full"})
    async with Client(create_server(store, outsider)) as other:
        nothing = await _read(other, "graphmem://stats")
    assert nothing["head"] == {"revision": 0, "hash": None, "last_at": None}
    assert (nothing["revision"], nothing["fact_keys"], nothing["facts"]) == (0, 0, [])
    assert set(nothing["labels"].values()) == {0} and nothing["projects"] == {}

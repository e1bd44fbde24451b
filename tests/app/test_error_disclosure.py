"""Errors about the server's environment say what to do and reveal nothing: no address, user,
file path or exception class reaches a client; ``retryable`` says when repeating can help."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import neo4j
from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store
from tests.neo4j_endpoint import Endpoint, free_port

INTERNALS = ("127.0.0.1", "localhost", "bolt", "neo4j://", "NEO4J_", "Error", "Traceback", "/")


def _assert_reveals_nothing(payload: dict[str, Any], *secrets: str) -> None:
    text = json.dumps(payload)
    for word in (*INTERNALS, *secrets):
        assert word not in payload["message"], (word, payload)
    assert all(secret not in text for secret in secrets if secret)


async def _error(client: Client[Any], tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments, raise_on_error=False)
    assert result.is_error
    return json.loads(result.content[0].text)  # type: ignore[union-attr]


async def test_an_unreachable_database_is_store_unavailable_and_retryable(
    settings: Settings,
) -> None:
    port = free_port()
    uri = f"bolt://127.0.0.1:{port}"
    driver = neo4j.AsyncGraphDatabase.driver(
        uri,
        auth=("operator-name", "pw"),
        connection_acquisition_timeout=2,
        max_transaction_retry_time=1,
    )
    dead = Store(driver, uri=uri, user="operator-name", database="neo4j", query_timeout=2)
    try:
        async with Client(create_server(dead, settings)) as client:
            for tool, arguments in (
                ("current_state", {"project": "p", "state_key": "k"}),
                ("record_fact", {"project": "p", "key": "k", "value": 1}),
            ):
                payload = await _error(client, tool, **arguments)
                assert payload["error"] == "store_unavailable", payload
                assert payload["retryable"] is True
                _assert_reveals_nothing(payload, str(port), "operator-name")
    finally:
        await dead.close()


async def test_a_write_stuck_behind_the_tenant_lock_times_out_and_changes_nothing(
    neo4j_endpoint: Endpoint, store: Store, settings: Settings, tenant: str
) -> None:
    async with Client(create_server(store, settings)) as client:  # the tenant's history head
        await client.call_tool("record_fact", {"project": "p", "key": "k", "value": 1})
    impatient = await Store.connect(
        neo4j_endpoint.uri, neo4j_endpoint.user, neo4j_endpoint.password, query_timeout=1.0
    )
    holder = neo4j.AsyncGraphDatabase.driver(
        neo4j_endpoint.uri, auth=(neo4j_endpoint.user, neo4j_endpoint.password)
    )
    try:
        async with holder.session() as session:
            held = await session.begin_transaction()
            await held.run(
                store.catalog["history/lock_head"].text, tenant=tenant, lock_token="held"
            )
            async with Client(create_server(impatient, settings)) as client:
                payload = await asyncio.wait_for(
                    _error(client, "record_fact", project="p", key="k", value=2), timeout=60
                )
            await held.rollback()
        assert payload["error"] == "timed_out", payload
        assert payload["retryable"] is True
        _assert_reveals_nothing(payload, neo4j_endpoint.user)
        async with Client(create_server(store, settings)) as client:
            state = await client.call_tool("current_state", {"project": "p", "state_key": "k"})
        assert state.structured_content is not None
        assert state.structured_content["answer"]["value"] == 1  # nothing was written
    finally:
        await holder.close()
        await impatient.close()

"""Causal consistency: every session and execute_query of a store share one bookmark manager,
so a read after a write sees it (on a routed cluster too); neo4j:// URIs work against the
single server."""

from __future__ import annotations

from typing import Any

import pytest

from graphmem.facts import service as facts
from graphmem.facts import state
from graphmem.facts.models import CurrentStateRequest, RecordFactRequest
from graphmem.store import Store
from tests.neo4j_endpoint import Endpoint


async def test_every_session_and_query_shares_the_store_bookmark_manager(
    neo4j_endpoint: Endpoint, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await Store.connect(neo4j_endpoint.uri, neo4j_endpoint.user, neo4j_endpoint.password)
    managers: list[Any] = []
    driver = store._driver
    session, execute_query = driver.session, driver.execute_query

    def spy_session(*args: Any, **config: Any) -> Any:
        managers.append(config.get("bookmark_manager"))
        return session(*args, **config)

    async def spy_query(*args: Any, **config: Any) -> Any:
        managers.append(config.get("bookmark_manager_"))
        return await execute_query(*args, **config)

    monkeypatch.setattr(driver, "session", spy_session)
    monkeypatch.setattr(driver, "execute_query", spy_query)
    try:
        await facts.record_fact(store.of(tenant), RecordFactRequest(project="p", key="k", value=1))
        answer = await state.current_state(
            store.of(tenant), CurrentStateRequest(state_key="k", project="p")
        )
        await store.write("store/ping", tenant)
        assert answer.answer is not None and answer.answer.value == 1
        assert len(managers) >= 3
        assert all(manager is store.bookmarks for manager in managers)
    finally:
        await store.close()


async def test_a_routing_uri_works_against_the_single_server(
    neo4j_endpoint: Endpoint, tenant: str
) -> None:
    routed = neo4j_endpoint.uri.replace("bolt://", "neo4j://", 1)
    store = await Store.connect(routed, neo4j_endpoint.user, neo4j_endpoint.password)
    try:
        await facts.record_fact(store.of(tenant), RecordFactRequest(project="p", key="k", value=7))
        answer = await state.current_state(
            store.of(tenant), CurrentStateRequest(state_key="k", project="p")
        )
        assert answer.answer is not None and answer.answer.value == 7
    finally:
        await store.close()

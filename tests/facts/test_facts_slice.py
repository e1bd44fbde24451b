"""The first vertical slice: record_fact and current_state through the MCP surface."""

from __future__ import annotations

import asyncio
from typing import Any

from fastmcp import Client

from graphmem.store import Store
from tests.support import WholeRecordClient, call, call_error


async def test_a_new_fact_supersedes_the_active_one_and_keeps_it_as_history(
    client: Client[Any],
) -> None:
    first = await call(client, "record_fact", project="shop", key="db.latency_ms", value=120)
    second = await call(
        client,
        "record_fact",
        project="shop",
        key="db.latency_ms",
        value=95,
        source_class="tool_observed",
        confidence=0.9,
        actor="probe",
        session_id="s-1",
    )
    # The write's audit fields land on the fact once, from the write path.
    assert (second["actor"], second["session_id"]) == ("probe", "s-1")
    assert (first["actor"], first["session_id"]) == (None, None)
    assert first["superseded_id"] is None
    assert second["superseded_id"] == first["id"]
    assert second["revision"] == first["revision"] + 1

    state = await call(client, "current_state", state_key="db.latency_ms", project="shop")
    assert state["status"] == "current"
    assert state["answer"]["id"] == second["id"]
    assert state["answer"]["value"] == 95
    assert state["answer"]["source_class"] == "tool_observed"
    assert [entry["id"] for entry in state["history"]] == [first["id"]]
    assert state["history"][0]["status"] == "superseded"
    assert state["history"][0]["superseded_by"] == second["id"]
    assert [(w["type"], w["from_id"], w["to_id"]) for w in state["why"]] == [
        ("supersedes", second["id"], first["id"])
    ]


async def test_values_round_trip_losslessly(client: Client[Any]) -> None:
    value = {"big": 2**80 + 1, "nested": {"list": [1, 2.5, None, True]}, "text": "Grüße 🌍"}
    await call(client, "record_fact", project="p", key="k", value=value)
    state = await call(client, "current_state", state_key="k", project="p")
    assert state["answer"]["value"] == value


async def test_null_value_is_a_value(client: Client[Any]) -> None:
    recorded = await call(client, "record_fact", project="p", key="nothing", value=None)
    assert recorded["value"] is None


async def test_unknown_source_label_downgrades_and_is_kept_raw(client: Client[Any]) -> None:
    fact = await call(client, "record_fact", project="p", key="k", value=1, source="gut_feeling")
    assert fact["source_class"] == "agent_claimed"
    assert fact["source_raw"] == "gut_feeling"
    legacy = await call(
        client, "record_fact", project="p", key="k", value=2, source="tool_observed"
    )
    assert legacy["source_class"] == "tool_observed"
    assert legacy["source_raw"] is None


async def test_current_state_statuses(client: Client[Any]) -> None:
    missing = await call(client, "current_state", state_key="never-recorded")
    assert missing["status"] == "not_found"
    assert missing["answer"] is None

    await call(client, "record_fact", project="a", key="shared", value=1)
    await call(client, "record_fact", project="b", key="shared", value=2)
    ambiguous = await call(client, "current_state", state_key="shared")
    assert ambiguous["status"] == "ambiguous"
    assert ambiguous["candidates"] == ["project:a", "project:b"]
    resolved = await call(client, "current_state", state_key="shared", project="b")
    assert resolved["status"] == "current"
    assert resolved["answer"]["value"] == 2


async def test_tenants_do_not_see_each_other(client: Client[Any], store: Store) -> None:
    from graphmem.app.server import create_server
    from graphmem.core.settings import Settings

    await call(client, "record_fact", project="p", key="secret", value="tenant A")
    other = Settings().model_copy(update={"tenant": "test-other-tenant", "toolset": "full"})
    try:
        async with WholeRecordClient(create_server(store, other)) as outsider:
            state = await call(outsider, "current_state", state_key="secret", project="p")
            assert state["status"] == "not_found"
            own = await call(outsider, "record_fact", project="p", key="secret", value="B")
            assert own["superseded_id"] is None
            assert own["revision"] == 1
    finally:
        await store.purge_tenant("test-other-tenant")


async def test_concurrent_writers_leave_exactly_one_active_fact(
    client: Client[Any], store: Store, tenant: str
) -> None:
    results = await asyncio.gather(
        *(call(client, "record_fact", project="p", key="hot", value=i) for i in range(12))
    )
    revisions = sorted(result["revision"] for result in results)
    assert revisions == list(range(1, 13))  # one gap-free revision per call
    state = await call(client, "current_state", state_key="hot", project="p", history_limit=50)
    assert state["status"] == "current"
    assert len(state["history"]) == 11
    assert {entry["status"] for entry in state["history"]} == {"superseded"}
    values = {state["answer"]["value"]} | {entry["value"] for entry in state["history"]}
    assert values == set(range(12))


async def test_invalid_arguments_are_refused_and_write_nothing(client: Client[Any]) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"project": "p", "key": ""}, "key"),
        ({"project": "p", "key": "k", "unknown": 1}, "unknown"),
        ({"project": "p", "key": "k", "confidence": 1.5}, "confidence"),
        ({"project": "p", "key": "k", "confidence": "0.5"}, "confidence"),
        ({"project": "p", "key": "k", "valid_from": "2026-01-01T00:00:00"}, "valid_from"),
        ({"project": "p", "key": "x" * 201}, "key"),
        ({"key": "k"}, "project"),
        ({"project": "p", "key": "k", "id": "mine"}, "id"),
    ]
    for arguments, field in cases:
        payload = await call_error(client, "record_fact", **arguments)
        assert payload["error"] == "invalid_argument", payload
        assert payload["field"] == field, (arguments, payload)
    state = await call(client, "current_state", state_key="k", project="p")
    assert state["status"] == "not_found"


async def test_domain_validation_errors_name_the_field(client: Client[Any]) -> None:
    payload = await call_error(
        client,
        "record_fact",
        project="p",
        key="k",
        valid_from="2026-02-01T00:00:00+00:00",
        valid_to="2026-01-01T00:00:00+00:00",
    )
    assert payload == {
        "error": "invalid_argument",
        "field": "valid_to",
        "message": "valid_to: must be later than valid_from",
    }

    deep: Any = 1
    for _ in range(40):
        deep = [deep]
    payload = await call_error(client, "record_fact", project="p", key="k", value=deep)
    assert payload == {
        "error": "invalid_argument",
        "field": "value",
        "message": "value: Value error, nested deeper than 32 levels",
    }
    state = await call(client, "current_state", state_key="k", project="p")
    assert state["status"] == "not_found"


async def test_every_write_appends_a_hash_chained_event(client: Client[Any]) -> None:
    for value in range(3):
        await call(client, "record_fact", project="p", key="k", value=value)
    replay = await call(client, "replay_memory")
    assert [event["revision"] for event in replay["events"]] == [3, 2, 1]
    assert [event["event_type"] for event in replay["events"]] == ["record_fact"] * 3
    assert replay["events"][-1]["prev_hash"] == "0" * 64
    assert replay["chain"]["verified"] is True
    assert replay["chain"]["head_revision"] == 3

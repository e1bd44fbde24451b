"""Workstreams through the MCP surface: create, list (filter, order, pages), update (partial,
no-op, completed_at), the knowledge pipeline reading them, tenant walls and every documented
error."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.core.settings import Settings
from graphmem.store import Store
from tests.support import WholeRecordClient, call, call_error
from tests.support import revision as _revision


async def _create(client: Client[Any], **arguments: Any) -> dict[str, Any]:
    return (await call(client, "create_workstream", **{"project": "p", **arguments}))["workstream"]


async def test_create_returns_the_workstream_with_defaults_and_one_revision(
    client: Client[Any],
) -> None:
    created = await call(client, "create_workstream", project="p", title="Ship v1")
    ws = created["workstream"]
    assert (ws["project"], ws["title"], ws["status"]) == ("p", "Ship v1", "active")
    assert (ws["next_action"], ws["blockers"], ws["progress"], ws["completed_at"]) == (
        None,
        [],
        None,
        None,
    )
    assert ws["created_at"] == ws["updated_at"]
    assert created["revision"] == await _revision(client)
    other = await _create(client, title="Ship v1")
    assert other["id"] != ws["id"]  # server-generated ids, titles need not be unique
    events = await call(client, "replay_memory", aggregate_id=ws["id"])
    assert [e["event_type"] for e in events["events"]] == ["create_workstream"]


async def test_create_with_every_field_and_completed_stamps_completed_at(
    client: Client[Any],
) -> None:
    ws = await _create(
        client,
        title="Migrate",
        status="completed",
        next_action="celebrate",
        blockers=["none left"],
        progress=100,
    )
    assert (ws["status"], ws["next_action"], ws["blockers"], ws["progress"]) == (
        "completed",
        "celebrate",
        ["none left"],
        100,
    )
    assert ws["completed_at"] == ws["created_at"]


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"title": "t", "status": "done"}, "status"),
        ({"title": "t", "progress": 101}, "progress"),
        ({"title": "t", "progress": -1}, "progress"),
        ({"title": "t", "progress": "50%"}, "progress"),
        ({"title": "t", "blockers": [""]}, "blockers.0"),
        ({"title": "t", "blockers": ["b"] * 21}, "blockers"),
        ({"title": ""}, "title"),
        ({"title": "x" * 501}, "title"),
        ({"title": "t", "next_action": "x" * 2001}, "next_action"),
        ({"title": "t", "project": " p"}, "project"),
        ({"title": "t", "id": "mine"}, "id"),
    ],
)
async def test_create_refuses_bad_input_naming_the_field(
    client: Client[Any], arguments: dict[str, Any], field: str
) -> None:
    payload = await call_error(client, "create_workstream", **{"project": "p", **arguments})
    assert payload["error"] == "invalid_argument"
    assert payload["field"] == field or payload["field"].startswith(field), payload


async def test_list_filters_by_project_and_status_newest_update_first(client: Client[Any]) -> None:
    first = await _create(client, title="one")
    second = await _create(client, title="two", status="paused")
    third = await _create(client, title="three")
    await _create(client, project="other", title="elsewhere")
    listed = await call(client, "workstreams", project="p")
    assert [w["id"] for w in listed["workstreams"]] == [third["id"], second["id"], first["id"]]
    assert (listed["count"], listed["has_more"], listed["next_offset"]) == (3, False, None)
    await call(client, "update_workstream", id=first["id"], next_action="go")
    listed = await call(client, "workstreams", project="p")
    assert listed["workstreams"][0]["id"] == first["id"]  # touched last: first
    paused = await call(client, "workstreams", project="p", status="paused")
    assert [w["id"] for w in paused["workstreams"]] == [second["id"]]
    assert (await call(client, "workstreams", project="nobody"))["workstreams"] == []


async def test_list_pages(client: Client[Any]) -> None:
    ids = [(await _create(client, title=f"w{n}"))["id"] for n in range(5)]
    page = await call(client, "workstreams", project="p", limit=2)
    assert [w["id"] for w in page["workstreams"]] == ids[::-1][:2]
    assert (page["has_more"], page["next_offset"]) == (True, 2)
    rest = await call(client, "workstreams", project="p", limit=2, offset=4)
    assert [w["id"] for w in rest["workstreams"]] == [ids[0]]
    assert (rest["has_more"], rest["next_offset"], rest["offset"]) == (False, None, 4)


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({}, "project"),
        ({"project": ""}, "project"),
        ({"project": "p", "status": "done"}, "status"),
        ({"project": "p", "limit": 0}, "limit"),
        ({"project": "p", "limit": 201}, "limit"),
        ({"project": "p", "offset": -1}, "offset"),
    ],
)
async def test_list_refuses_bad_input(
    client: Client[Any], arguments: dict[str, Any], field: str
) -> None:
    payload = await call_error(client, "workstreams", **arguments)
    assert (payload["error"], payload["field"]) == ("invalid_argument", field)


async def test_update_changes_only_given_fields_and_records_history(client: Client[Any]) -> None:
    ws = await _create(client, title="t", next_action="a", blockers=["b1"], progress=10)
    result = await call(client, "update_workstream", id=ws["id"], blockers=["b2", "b3"])
    assert (result["id"], result["updated"], result["changed"]) == (ws["id"], True, ["blockers"])
    after = result["workstream"]
    assert (after["next_action"], after["blockers"], after["progress"], after["status"]) == (
        "a",
        ["b2", "b3"],
        10,
        "active",
    )
    assert after["updated_at"] > ws["updated_at"] and after["created_at"] == ws["created_at"]
    assert result["revision"] == await _revision(client)
    cleared = await call(
        client, "update_workstream", id=ws["id"], blockers=[], progress=60, next_action="b"
    )
    assert cleared["changed"] == ["blockers", "next_action", "progress"]
    assert (cleared["workstream"]["blockers"], cleared["workstream"]["progress"]) == ([], 60)
    events = await call(client, "replay_memory", aggregate_id=ws["id"])
    assert [e["event_type"] for e in events["events"]] == [
        "update_workstream",
        "update_workstream",
        "create_workstream",
    ]


async def test_an_update_to_the_values_already_set_writes_nothing(client: Client[Any]) -> None:
    ws = await _create(client, title="t", next_action="a")
    before = await _revision(client)
    result = await call(client, "update_workstream", id=ws["id"], status="active", next_action="a")
    assert (result["updated"], result["changed"], result["revision"]) == (False, [], None)
    assert result["workstream"]["updated_at"] == ws["updated_at"]
    assert await _revision(client) == before


async def test_completed_at_follows_the_status(client: Client[Any]) -> None:
    ws = await _create(client, title="t")
    done = (await call(client, "update_workstream", id=ws["id"], status="completed"))["workstream"]
    assert done["completed_at"] == done["updated_at"]
    again = await call(client, "update_workstream", id=ws["id"], status="completed")
    assert again["updated"] is False
    reopened = await call(client, "update_workstream", id=ws["id"], status="active")
    assert reopened["workstream"]["completed_at"] is None
    for status in ("paused", "abandoned", "active"):
        moved = await call(client, "update_workstream", id=ws["id"], status=status)
        assert moved["workstream"]["status"] == status


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({}, "status"),  # nothing to change
        ({"status": "done"}, "status"),
        ({"progress": 150}, "progress"),
        ({"blockers": ["b"] * 21}, "blockers"),
        ({"next_action": ""}, "next_action"),
        ({"title": "renamed"}, "title"),  # not changeable here
    ],
)
async def test_update_refuses_bad_input(
    client: Client[Any], arguments: dict[str, Any], field: str
) -> None:
    ws = await _create(client, title="t")
    payload = await call_error(client, "update_workstream", id=ws["id"], **arguments)
    assert (payload["error"], payload["field"]) == ("invalid_argument", field), payload


async def test_update_of_an_unknown_id_is_not_found(client: Client[Any]) -> None:
    payload = await call_error(client, "update_workstream", id="no-such", status="paused")
    assert payload == {"error": "not_found", "message": "workstream 'no-such' not found"}


async def test_another_tenant_cannot_see_or_change_a_workstream(
    client: Client[Any], store: Store, settings: Settings
) -> None:
    ws = await _create(client, title="A-only")
    other = settings.model_copy(update={"tenant": settings.tenant + "-b"})
    try:
        async with WholeRecordClient(create_server(store, other)) as b:
            assert (await call(b, "workstreams", project="p"))["workstreams"] == []
            payload = await call_error(b, "update_workstream", id=ws["id"], status="paused")
            assert payload["error"] == "not_found"
            assert payload["message"] == f"workstream {ws['id']!r} not found"
    finally:
        await store.purge_tenant(other.tenant)
    listed = await call(client, "workstreams", project="p")
    assert [(w["id"], w["status"]) for w in listed["workstreams"]] == [(ws["id"], "active")]


async def test_the_knowledge_pipeline_attaches_to_created_workstreams(client: Client[Any]) -> None:
    ws = await _create(client, title="Payments", next_action="settle the ledger")
    attempt = await call(client, "record_attempt", workstream_id=ws["id"], title="tried")
    assert attempt["attempt"]["workstream_id"] == ws["id"]
    pack = await call(client, "build_context_pack", target_ref=ws["id"], pack_type="planner")
    assert pack.get("error") is None

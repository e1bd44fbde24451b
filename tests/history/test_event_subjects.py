"""list_events by subject: an event is found by its aggregate id and by every subject id it
names, by index (EventSubject), newest first, including events written before that index
existed."""

from __future__ import annotations

import neo4j

from graphmem.history.chain import Change, list_events
from graphmem.history.models import ReplayRequest
from graphmem.history.write_path import Write, write
from graphmem.store import Store


async def _write(store: Store, tenant: str, aggregate: str, subjects: list[str]) -> int:
    async def work(w: Write) -> int:
        return await w.event(Change("test_write", "thing", aggregate, subjects, {}))

    return await write(store.of(tenant), "test", work)


async def _revisions(store: Store, tenant: str, subject: str, **narrowing: object) -> list[int]:
    request = ReplayRequest(aggregate_id=subject, **narrowing)  # type: ignore[arg-type]
    return [event.revision for event in await list_events(store.of(tenant), request)]


async def test_an_event_is_found_by_its_aggregate_and_by_each_subject(
    store: Store, tenant: str
) -> None:
    first = await _write(store, tenant, "a1", ["a1", "shared"])
    second = await _write(store, tenant, "a2", ["a2", "shared", "other"])
    third = await _write(store, tenant, "shared", [])  # its own aggregate, no subjects
    await _write(store, tenant, "a3", ["a3"])
    assert await _revisions(store, tenant, "shared") == [third, second, first]
    assert await _revisions(store, tenant, "a1") == [first]
    assert await _revisions(store, tenant, "other") == [second]
    assert await _revisions(store, tenant, "nobody") == []
    assert await _revisions(store, tenant, "shared", limit=2) == [third, second]
    assert await _revisions(store, tenant, "shared", aggregate_kind="nothing") == []


async def test_events_written_before_the_subject_index_are_still_found(
    store: Store, tenant: str, raw_driver: neo4j.AsyncDriver
) -> None:
    old = [await _write(store, tenant, f"a{n}", [f"a{n}", "shared"]) for n in range(3)]
    # as a history begun before EventSubject existed: no subject nodes, no start revision
    await raw_driver.execute_query(
        "MATCH (s:EventSubject {tenant: $tenant}) DELETE s", tenant=tenant
    )
    await raw_driver.execute_query(
        "MATCH (h:History {tenant: $tenant}) REMOVE h.subjects_indexed_from", tenant=tenant
    )
    new = await _write(store, tenant, "b", ["b", "shared"])  # the first with subject nodes
    records, _, _ = await raw_driver.execute_query(
        "MATCH (h:History {tenant: $tenant}) RETURN h.subjects_indexed_from AS since", tenant=tenant
    )
    assert records[0]["since"] == new
    assert await _revisions(store, tenant, "shared") == [new, *reversed(old)]
    assert await _revisions(store, tenant, "a1") == [old[1]]

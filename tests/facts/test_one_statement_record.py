"""record_fact in one statement (facts/record_fact_at_head): a key whose current fact this
process recorded last is recorded against the head this process saw last, in one round trip.
It writes what the managed write would, or nothing: another writer moved the head, the key's
current fact is another one, or a decision watches the key (its rules are evaluated by the
managed write). Then the managed write follows, so the caller's answer is the same."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import neo4j
import pytest
from fastmcp import Client

from graphmem.core.ids import new_id
from graphmem.facts.last_recorded import LastRecorded, last_recorded
from graphmem.facts.models import RecordFactRequest, RecordFactResult
from graphmem.facts.service import record_at_head, record_fact
from graphmem.history.verification import verify_chain
from graphmem.store import Store, TenantStore
from graphmem.store.catalog import default_catalog
from tests.cypher_maps import anonymous_maps, created, head_fields
from tests.neo4j_endpoint import Endpoint
from tests.support import call


def _request(key: str, value: int) -> RecordFactRequest:
    return RecordFactRequest(project="p", key=key, value=value)


async def _head(db: TenantStore) -> int:
    return (await verify_chain(db, full=True)).head_revision


@pytest.fixture
async def other(neo4j_endpoint: Endpoint, store: Store) -> AsyncIterator[Store]:
    """Another graphmem process on the same database (same history key)."""
    opened = await Store.connect(neo4j_endpoint.uri, neo4j_endpoint.user, neo4j_endpoint.password)
    opened.chain_key = store.chain_key
    yield opened
    await opened.close()


async def _slot_shape(raw: neo4j.AsyncDriver, tenant: str, key: str) -> dict[str, Any]:
    """What a key's two facts look like in the graph, ids and times left out."""
    records, _, _ = await raw.execute_query(
        "MATCH (k:FactKey {tenant: $tenant, key: $key})-[:CURRENT]->(now:Fact)"
        "-[s:SUPERSEDES]->(old:Fact)<-[w:WAS_CURRENT]-(k) "
        "RETURN keys(now) AS now, keys(old) AS old, old.status AS status, keys(s) AS s, "
        "keys(w) AS w, [(old)-[:HAS_STATE]->(x) | [x.status, x.tx_to IS NULL]] AS old_states, "
        "[(now)-[:HAS_STATE]->(x) | [x.status, x.tx_to IS NULL]] AS now_states",
        tenant=tenant,
        key=key,
    )
    [record] = records
    shape = record.data()
    return {name: sorted(value) for name, value in shape.items() if name != "status"} | {
        "status": shape["status"]
    }


async def test_a_key_recorded_here_last_takes_one_statement_and_writes_what_the_managed_write_does(
    store: Store, tenant: str, raw_driver: neo4j.AsyncDriver
) -> None:
    db = store.of(tenant)
    first = await record_fact(db, _request("svc.latency", 10))
    fast = await record_at_head(db, _request("svc.latency", 20), new_id())
    assert fast is not None and fast.superseded_id == first.id
    assert fast.revision == first.revision + 1 and fast.status == "active"
    assert fast.observed_at == fast.temporal.recorded_at == fast.temporal.valid_from
    # the same two writes on another key, the second managed (its expectation forgotten)
    await record_fact(db, _request("svc.errors", 10))
    last_recorded(store).forget((tenant, "project:p", "svc.errors"))
    managed = await record_fact(db, _request("svc.errors", 20))
    assert managed.revision == fast.revision + 2
    fast_shape = await _slot_shape(raw_driver, tenant, "svc.latency")
    assert fast_shape == await _slot_shape(raw_driver, tenant, "svc.errors")
    assert fast_shape["status"] == "superseded"
    state = await record_fact(db, _request("svc.latency", 30))  # the cache follows the answer
    assert state.superseded_id == fast.id
    verdict = await verify_chain(db, full=True)
    assert verdict.verified and verdict.complete and verdict.head_revision == state.revision


async def test_record_fact_takes_the_one_statement_when_it_can(
    store: Store, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Which statements record_fact ran (the database's own; the spy only listens): the
    first write of a key is the managed one, the next the one statement."""
    ran: list[tuple[str, bool]] = []
    real = Store.write_statement

    async def listening(self: Store, label: str, tenant: str, name: str, **params: Any) -> Any:
        rows = await real(self, label, tenant, name, **params)
        ran.append((name, bool(rows)))
        return rows

    monkeypatch.setattr(Store, "write_statement", listening)
    db = store.of(tenant)
    await record_fact(db, _request("k", 1))
    assert ran == []  # nothing remembered of the key: the managed write
    second = await record_fact(db, _request("k", 2))
    assert ran == [("facts/record_fact_at_head", True)]
    keyed = RecordFactRequest(project="p", key="k", value=3, idempotency_key="once")
    await record_fact(db, keyed)  # a keyed write looks for its earlier result: managed
    assert len(ran) == 1 and last_recorded(store).get((tenant, "project:p", "k")) != second.id


async def test_another_process_moving_the_head_makes_it_write_nothing(
    store: Store, other: Store, tenant: str
) -> None:
    db = store.of(tenant)
    await record_fact(db, _request("k", 1))
    elsewhere = await record_fact(other.of(tenant), _request("k", 2))
    before = await _head(db)
    assert await record_at_head(db, _request("k", 3), new_id()) is None
    assert await _head(db) == before  # nothing written
    answered = await record_fact(db, _request("k", 3))  # the managed write supersedes theirs
    assert answered.superseded_id == elsewhere.id and answered.revision == before + 1


async def test_a_current_fact_other_than_the_expected_one_makes_it_write_nothing(
    store: Store, tenant: str
) -> None:
    db = store.of(tenant)
    current = await record_fact(db, _request("k", 1))
    await record_fact(db, _request("unrelated", 1))  # the head seen here is the latest
    last_recorded(store).remember((tenant, "project:p", "k"), "not-the-current-fact")
    before = await _head(db)
    assert await record_at_head(db, _request("k", 2), new_id()) is None
    assert await _head(db) == before
    answered = await record_fact(db, _request("k", 2))
    assert answered.superseded_id == current.id


async def test_a_watched_key_is_left_to_the_managed_write_which_pushes_the_signal(
    client: Client[Any], store: Store, tenant: str
) -> None:
    await call(client, "record_fact", project="p", key="api.qps", value=100)
    rule = {"key": "api.qps", "operator": "greater_than", "value": 1000}
    alternatives = [{"title": "memcached", "why_rejected": "slow", "reopen_when": [rule]}]
    decided = await call(
        client,
        "record_decision",
        project="p",
        title="Redis",
        choice="redis",
        alternatives=alternatives,
    )
    db = store.of(tenant)
    before = await _head(db)
    assert await record_at_head(db, _request("api.qps", 5000), new_id()) is None
    assert await _head(db) == before
    breached = await call(client, "record_fact", project="p", key="api.qps", value=5000)
    assert [s["decision_id"] for s in breached["review_signals"]] == [decided["decision"]["id"]]
    # a watched key's writes are the managed write's: none tries the one statement first
    assert last_recorded(store).get((tenant, "project:p", "api.qps")) is None


async def test_many_writers_and_another_process_keep_one_current_fact_per_key(
    store: Store, other: Store, tenant: str, raw_driver: neo4j.AsyncDriver
) -> None:
    db, elsewhere = store.of(tenant), other.of(tenant)
    keys = [f"svc{n}.latency" for n in range(4)]
    for key in keys:
        await record_fact(db, _request(key, 0))

    async def writes(target: TenantStore, start: int) -> list[RecordFactResult]:
        return [await record_fact(target, _request(keys[n % 4], start + n)) for n in range(12)]

    batches = await asyncio.gather(
        *(writes(db, 100 * n) for n in range(1, 4)), writes(elsewhere, 1000)
    )
    revisions = sorted(r.revision for batch in batches for r in batch)
    assert revisions == list(range(5, 5 + 48))  # gap-free after the four first writes
    records, _, _ = await raw_driver.execute_query(
        "MATCH (k:FactKey {tenant: $tenant}) "
        "RETURN k.key AS key, COUNT { (k)-[:CURRENT]->() } AS current, "
        "COUNT { (k)<-[:OF_KEY]-(:Fact {status: 'active'}) } AS active, "
        "COUNT { (k)<-[:OF_KEY]-(f:Fact) WHERE f.status = 'superseded' "
        "AND NOT EXISTS { (:Fact)-[:SUPERSEDES]->(f) } } AS unlinked",
        tenant=tenant,
    )
    assert {r["key"]: (r["current"], r["active"], r["unlinked"]) for r in records} == {
        key: (1, 1, 0) for key in keys
    }
    verdict = await verify_chain(db, full=True)
    assert verdict.verified and verdict.complete


@pytest.mark.pure
def test_the_expectations_are_bounded_least_recent_first() -> None:
    remembered = LastRecorded(bound=2)
    remembered.remember(("t", "o", "a"), "1")
    remembered.remember(("t", "o", "b"), "2")
    remembered.remember(("t", "o", "a"), "3")  # a is the most recent now
    remembered.remember(("t", "o", "c"), "4")
    assert [remembered.get(("t", "o", k)) for k in "abc"] == ["3", None, "4"]


# --- the statement stands for facts/record_fact and history/append_events -----------------------
@pytest.mark.pure
def test_the_fact_and_its_event_are_written_as_the_managed_statements_write_them() -> None:
    catalog = default_catalog()
    fast = catalog["facts/record_fact_at_head"].text
    general, events = catalog["facts/record_fact"].text, catalog["history/append_events"].text
    assert created(fast, "Fact") == created(general, "Fact")
    assert anonymous_maps(fast, "FactState") == anonymous_maps(general, "FactState") != []
    assert created(fast, "Event") == created(events, "Event")
    assert anonymous_maps(fast, "EventSubject") == anonymous_maps(events, "EventSubject") != []
    assert head_fields(fast) == head_fields(events) | {"lock_token": "$lock_token"}
    for line in (
        "SET f += $value_projection, f.value_instant = datetime($value_instant)",
        "CREATE (f)-[:OF_KEY]->(k)",
        "CREATE (k)-[:CURRENT {since: datetime($now)}]->(f)",
        "SET open.tx_to = datetime($now)",
        "DELETE current",
    ):
        assert line in fast and line in general, line
    for managed, one in (  # the supersession: the managed statement's, on its one previous
        (
            "SET old.status = 'superseded', old.superseded_at = datetime($now),",
            "SET previous.status = 'superseded', previous.superseded_at = datetime($now),",
        ),
        (
            "CREATE (f)-[:SUPERSEDES {at: datetime($now)}]->(old)",
            "CREATE (f)-[:SUPERSEDES {at: datetime($now)}]->(previous)",
        ),
        (
            "CREATE (k)-[:WAS_CURRENT {since: current.since, until: datetime($now)}]->(old)",
            "CREATE (k)-[:WAS_CURRENT {since: current.since, until: datetime($now)}]->(previous)",
        ),
    ):
        assert managed in general and one in fast, one
    watchers = general[general.index("CALL (k) {") : general.index("RETURN f AS fact")]
    assert watchers.strip() in fast  # the watchers found as the managed statement finds them

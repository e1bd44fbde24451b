"""The hash chain detects an edited or a deleted event.

Tampering needs raw database access, which graphmem itself never offers: these tests use
the Neo4j driver directly, as an attacker with database credentials would.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import neo4j
import pytest
from fastmcp import Client

from graphmem.history import chain, verification
from graphmem.history.verification import verify_chain
from graphmem.store import Store
from tests.support import call


async def _three_writes(client: Client[Any]) -> None:
    for value in range(3):
        await call(client, "record_fact", project="p", key="k", value=value)
    assert (await call(client, "replay_memory"))["chain"]["verified"] is True


async def test_an_edited_event_breaks_the_chain(
    client: Client[Any], raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    await _three_writes(client)
    await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant, revision: 2}) "
        "SET e.payload_json = replace(e.payload_json, 'project:p', 'project:x')",
        tenant=tenant,
    )
    chain = (await call(client, "replay_memory"))["chain"]
    assert chain["verified"] is False
    assert chain["first_break_revision"] == 2
    assert "does not match its digest" in chain["reason"]


async def test_a_deleted_event_breaks_the_chain(
    client: Client[Any], raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    await _three_writes(client)
    await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant, revision: 2}) DETACH DELETE e", tenant=tenant
    )
    chain = (await call(client, "replay_memory"))["chain"]
    assert chain["verified"] is False and chain["first_break_revision"] == 2
    assert chain["reason"] == "revision 2 is missing"


async def test_a_deleted_last_event_breaks_the_chain(
    client: Client[Any], raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    await _three_writes(client)
    await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant, revision: 3}) DETACH DELETE e", tenant=tenant
    )
    chain = (await call(client, "replay_memory"))["chain"]
    assert chain["verified"] is False and chain["first_break_revision"] == 3


async def test_a_rehashed_forgery_still_breaks_the_link(
    client: Client[Any], raw_driver: neo4j.AsyncDriver, tenant: str, store: Store
) -> None:
    """Rewriting an event and its own hash (even with the history key) still breaks the next
    event's prev_hash."""
    from graphmem.history.chain import event_hash, payload_digest

    await _three_writes(client)
    records, _, _ = await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant, revision: 1}) RETURN e", tenant=tenant
    )
    event = records[0]["e"]
    forged_payload = event["payload_json"].replace('"value_json":"0"', '"value_json":"99"')
    forged_digest = payload_digest(event["payload_salt"], forged_payload)
    forged_hash = event_hash(
        tenant,
        1,
        event["op"],
        event["at_text"],
        forged_digest,
        event["prev_hash"],
        store.chain_key,
        sealed=True,
    )
    await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant, revision: 1}) "
        "SET e.payload_json = $p, e.payload_digest = $d, e.hash = $h",
        tenant=tenant,
        p=forged_payload,
        d=forged_digest,
        h=forged_hash,
    )
    chain = (await call(client, "replay_memory"))["chain"]
    assert chain["verified"] is False and chain["first_break_revision"] == 2
    assert "does not link" in chain["reason"]


async def test_verification_during_concurrent_writes_never_reports_a_false_break(
    client: Client[Any],
) -> None:
    writers, writes = 4, 30
    verdicts: list[dict[str, Any]] = []
    finished: list[int] = []

    async def writer(n: int) -> None:
        for i in range(writes):
            await call(client, "record_fact", project="p", key=f"k{n}", value=i)
        finished.append(n)

    async def verifier() -> None:  # checks all the while the writers write
        while len(verdicts) < 50 or len(finished) < writers:
            verdicts.append((await call(client, "replay_memory", limit=1))["chain"])

    await asyncio.gather(verifier(), *(writer(n) for n in range(writers)))
    assert len(verdicts) >= 50
    assert all(v["verified"] and v["complete"] for v in verdicts), [
        v for v in verdicts if not v["verified"]
    ][:3]
    assert verdicts[-1]["head_revision"] > verdicts[0]["head_revision"]  # writes interleaved


async def test_a_bounded_check_says_how_far_it_got(
    store: Store, client: Client[Any], tenant: str
) -> None:
    await _three_writes(client)
    verdict = await verify_chain(store.of(tenant), limit=2)
    assert verdict.verified and not verdict.complete and verdict.checked_events == 2
    assert verdict.reason is not None and "first 2 of 3" in verdict.reason
    assert (await verify_chain(store.of(tenant))).complete


async def test_replay_checks_a_bounded_stretch_a_call_and_goes_on_from_it(
    client: Client[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(5):
        await call(client, "record_fact", project="p", key=f"k{n}", value=n)
    monkeypatch.setattr(verification, "REPLAY_CHECK", 2)
    monkeypatch.setattr(verification, "CHECKPOINT_EVERY", 1)
    stretches = []
    while True:
        chain = (await call(client, "replay_memory", limit=1))["chain"]
        assert chain["verified"], chain
        stretches.append((chain["checked_from_revision"], chain["checked_events"]))
        if chain["complete"]:
            break
        assert "only the first 2" in chain["reason"]
    assert stretches == [(0, 2), (2, 2), (4, 1)]  # each call goes on where the last stopped


async def test_transaction_time_never_goes_backwards_within_a_tenant(
    client: Client[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await call(client, "record_fact", project="p", key="k", value=1)
    stepped_back = datetime(2000, 1, 1, tzinfo=UTC)
    monkeypatch.setattr(chain, "utc_now", lambda: stepped_back)  # the clock steps back
    second = await call(client, "record_fact", project="p", key="k", value=2)
    newest, before = (await call(client, "replay_memory"))["events"][:2]
    assert newest["occurred_at"] > before["occurred_at"]
    assert second["created_at"] > first["created_at"]  # the fact takes the same time


def test_a_last_time_that_is_not_one_is_not_followed() -> None:
    for forged in ("not a time", "9999-12-31T23:59:59.999999+00:00"):
        assert chain._transaction_time(forged) - datetime.now(UTC) < timedelta(seconds=5)
    ahead = (datetime.now(UTC) + timedelta(days=30)).isoformat()  # a clock stepped back: followed
    assert chain._transaction_time(ahead) > datetime.now(UTC) + timedelta(days=29)

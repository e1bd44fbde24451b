"""What an erasure leaves must keep working: live decisions that depended on an erased fact,
impact walks past an erased target, a key whose erased current fact is replaced; an erasure
sharing a transaction with an earlier write erases that write's event too; erasing what one
actor wrote leaves what they only changed."""

from __future__ import annotations

from typing import Any

import neo4j
from fastmcp import Client

from graphmem.erasure.batch import erase_batch
from graphmem.erasure.selection import SelectedRow
from graphmem.history.write_path import Write, write
from graphmem.store import Store, shaped
from tests.erasure.helpers import erase
from tests.support import call


async def test_a_live_decision_that_depended_on_an_erased_fact_still_reads(
    client: Client[Any],
) -> None:
    fact = await call(client, "record_fact", project="p", key="db", value="postgres")
    decision = await call(
        client,
        "record_decision",
        project="p",
        title="keep the db",
        choice="keep",
        depends_on=[fact["id"]],
    )
    await erase(client, ids=[fact["id"]])
    review = await call(client, "review_decisions", decision_id=decision["decision"]["id"])
    assert review["evaluated_decisions"] == 1
    updated = await call(
        client,
        "update_decision",
        decision_id=decision["decision"]["id"],
        status="stale",
        reason="time passed",
    )
    assert updated["decision"]["depends_on"] == []


async def test_impact_walks_past_an_erased_target(client: Client[Any]) -> None:
    fact = await call(client, "record_fact", project="p", key="db", value="postgres")
    decisions = []
    for n in range(2):
        decision = await call(client, "record_decision", project="p", title=f"d{n}", choice="c")
        decisions.append(decision["decision"]["id"])
        await call(
            client,
            "link_impact",
            source_kind="fact",
            source_ref=fact["id"],
            target_kind="decision",
            target_ref=decisions[-1],
            impact_type="informs",
        )
    await erase(client, ids=[decisions[-1]])
    walked = await call(client, "explain_impact", source_ref=fact["id"])
    assert walked["total_impacts"] == 1 and walked["truncated"] is False


async def test_a_key_whose_current_fact_was_erased_takes_a_new_one(
    client: Client[Any], raw_driver: neo4j.AsyncDriver, tenant: str
) -> None:
    erased = await call(client, "record_fact", project="p", key="k", value="secret")
    await call(client, "record_fact", project="q", key="other", value=1)  # keeps nothing
    await erase(client, ids=[erased["id"]])
    fresh = await call(client, "record_fact", project="p", key="k", value="public")
    state = await call(client, "current_state", state_key="k", project="p")
    assert state["answer"]["id"] == fresh["id"] and state["current_erased"] is False
    records, _, _ = await raw_driver.execute_query(  # the erased one's link went with it
        "MATCH (:FactKey {tenant: $tenant, key: 'k'})-[:CURRENT]->(n) RETURN n.id AS id",
        tenant=tenant,
    )
    assert [r["id"] for r in records] == [fresh["id"]]
    await call(client, "govern_fact", fact_id=fresh["id"], action="invalidate", rationale="r")
    state = await call(client, "current_state", state_key="k", project="p")
    assert state["current_erased"] is False  # invalidated, not erased


async def test_an_earlier_write_in_the_same_transaction_is_erased_too(
    store: Store, raw_driver: neo4j.AsyncDriver, tenant: str, client: Client[Any]
) -> None:
    fact = await call(client, "record_fact", project="p", key="k", value="v")
    [row] = await store.read("erasure/select_by_ids", tenant, ids=[fact["id"]])

    async def both(current: Write) -> None:  # as a group commit runs two members
        await current.record("fact", fact["id"], [fact["id"]], {"value": "late secret"})
        await erase_batch(current, "e-1", shaped(SelectedRow, [row]), {"reason": "r"})

    await write(store.of(tenant), "test", both)
    records, _, _ = await raw_driver.execute_query(
        "MATCH (e:Event {tenant: $tenant}) WHERE e.payload_json CONTAINS 'late secret' "
        "RETURN count(e) AS n",
        tenant=tenant,
    )
    assert records[0]["n"] == 0


async def test_what_an_actor_only_changed_stays(client: Client[Any]) -> None:
    amys = await call(client, "record_fact", project="p", key="k", value="amy's", actor="amy")
    await call(
        client,
        "govern_fact",
        fact_id=amys["id"],
        action="invalidate",
        rationale="bob thinks not",
        actor="bob",
    )
    bobs = await call(client, "record_fact", project="p", key="j", value="bob's", actor="bob")
    done = await erase(client, written_by="bob")
    assert bobs["id"] in done["ids"] and amys["id"] not in done["ids"]
    assert done["counts"] == {"Fact": 1, "FactKey": 1}  # bob's fact and its emptied key
    state = await call(client, "current_state", state_key="k", project="p")
    assert state["history"] or state["answer"]  # amy's fact is still there

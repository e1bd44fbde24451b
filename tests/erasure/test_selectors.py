"""Each selector reaches what it names and what derives from it, nothing more; unknown and
other tenants' ids answer like missing ones."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastmcp import Client

from tests.erasure.helpers import erase
from tests.support import call, call_error


async def test_an_erased_current_fact_is_said_erased_not_replaced(client: Client[Any]) -> None:
    await call(client, "record_fact", project="p", key="k", value="old")
    current = await call(client, "record_fact", project="p", key="k", value="secret")
    done = await erase(client, ids=[current["id"]])
    assert done["counts"] == {"Fact": 1}
    state = await call(client, "current_state", state_key="k", project="p")
    assert state["answer"] is None and state["current_erased"] is True
    assert state["status"] == "no_current"
    assert "secret" not in str(state)


async def test_a_raw_session_goes_with_its_turns_and_nothing_else(client: Client[Any]) -> None:
    now = datetime.now(UTC).isoformat()
    turns = [{"role": "user", "content": "my phone is 555-0100", "ts": now}]
    archived = await call(
        client,
        "archive_turns",
        project="p",
        session_ref="s",
        host="h",
        source_root="/r",
        turns=turns,
    )
    kept = await call(client, "save_memory", project="p", title="kept", content="stays here")
    done = await erase(client, raw_session_id=archived["session"]["id"])
    assert done["counts"] == {"Session": 1, "Turn": 1}
    assert (await call(client, "search_raw", query="555-0100"))["count"] == 0
    assert (await call(client, "get_observations", ids=[kept["memory"]["id"]]))["details"]


async def test_a_topic_goes_with_every_version_and_its_fact_key(client: Client[Any]) -> None:
    for content in ("first draft", "second draft"):
        await call(
            client,
            "save_memory",
            project="p",
            title="plan",
            content=content,
            topic_key="launch-plan",
        )
    await call(client, "record_fact", project="p", key="launch-plan", value="friday")
    done = await erase(client, topic_key="launch-plan")
    assert done["counts"] == {"Fact": 1, "FactKey": 1, "Memory": 2}
    state = await call(client, "current_state", state_key="launch-plan", project="p")
    assert state["status"] == "not_found"


async def test_what_an_actor_wrote_goes_with_its_events(client: Client[Any]) -> None:
    await call(
        client, "save_memory", project="p", title="by bob", content="bob's note", actor="bob"
    )
    await call(
        client, "save_memory", project="p", title="by amy", content="amy's note", actor="amy"
    )
    done = await erase(client, written_by="bob")
    assert done["counts"] == {"Memory": 1} and done["event_payloads"] == 1
    events = (await call(client, "replay_memory"))["events"]
    assert [e["actor"] for e in events if e["event_type"] == "save_memory"] == ["amy", None]
    assert (await call(client, "search", query="note"))["count"] == 1


async def test_a_chunk_takes_its_claims_facts_questions_and_answers(client: Client[Any]) -> None:
    body = "ENRICH_OK The billing service depends on the ledger queue."
    chunk = (await call(client, "add_context_chunk", project="p", body=body))["chunk"]
    claims = await call(client, "extract_candidate_claims", chunk_ref=chunk["id"])
    await call(client, "promote_candidate", claim_id=claims["claims"][0]["claim_id"])
    dry = await call(client, "erase", ids=[chunk["id"]])
    assert {"Chunk", "Claim", "Fact", "FactKey"} <= set(dry["counts"]), dry["counts"]


async def test_unknown_and_foreign_ids_select_nothing(
    client: Client[Any], other_client: Client[Any]
) -> None:
    foreign = await call(other_client, "record_fact", project="p", key="k", value="theirs")
    dry = await call(client, "erase", ids=[foreign["id"], "no-such-id"])
    assert dry["total"] == 0 and dry["ids"] == []
    unknown_dry = await call(client, "erase", ids=["no-such-id"])
    assert unknown_dry["fingerprint"] == dry["fingerprint"]  # the same answer as missing


async def test_bad_input_is_refused_by_field(client: Client[Any]) -> None:
    both = await call_error(client, "erase", ids=["a"], project="p")
    assert both["error"] == "invalid_argument" and "exactly one selector" in both["message"]
    unconfirmed = await call_error(
        client, "erase", project="p", dry_run=False, reason="r", expected_fingerprint="0" * 64
    )
    assert unconfirmed["field"] == "confirm_destructive"
    unknown = await call_error(client, "erase", project="p", everything=True)
    assert unknown["error"] == "invalid_argument"

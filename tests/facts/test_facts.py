"""Facts and truth maintenance through the MCP surface: record_fact's full contract,
govern_fact, maintain, verify_fact, replay_memory, and bi-temporal current_state."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastmcp import Client

from graphmem.facts.attestation import sign_attestation
from tests.support import Verifier, call, call_error

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def at(days: float) -> str:
    return (T0 + timedelta(days=days)).isoformat()


# --- record_fact ---------------------------------------------------------------------------
async def test_origin_owned_facts_belong_to_their_origin_alone(client: Client[Any]) -> None:
    owned = await call(client, "record_fact", origin_id="capture-7", key="k", value=1)
    assert owned["project"] is None and owned["origin_id"] == "capture-7"
    await call(client, "record_fact", project="p", key="k", value=2)
    both = await call(client, "current_state", state_key="k")
    assert both["status"] == "ambiguous"
    assert both["candidates"] == ["origin:capture-7", "project:p"]
    mine = await call(client, "current_state", state_key="k", origin_id="capture-7")
    assert mine["answer"]["value"] == 1 and mine["origin_id"] == "capture-7"


async def test_project_or_origin_is_required(client: Client[Any]) -> None:
    payload = await call_error(client, "record_fact", key="k", value=1)
    assert payload == {
        "error": "invalid_argument",
        "field": "project",
        "message": "project: required unless origin_id is set",
    }


async def test_validity_policy_takes_the_earlier_boundary(client: Client[Any]) -> None:
    fact = await call(
        client,
        "record_fact",
        project="p",
        key="k",
        value=1,
        valid_from=at(0),
        valid_to=at(10),
        expires_at=at(5),
    )
    assert fact["validity_policy"]["boundary"] == "expires_at"
    assert fact["validity_policy"]["effective_until"] == at(5).replace("+00:00", "Z")
    other = await call(
        client,
        "record_fact",
        project="p",
        key="j",
        valid_from=at(0),
        valid_to=at(3),
        expires_at=at(5),
    )
    assert other["validity_policy"]["boundary"] == "valid_to"
    open_ended = await call(client, "record_fact", project="p", key="i")
    assert open_ended["validity_policy"] == {
        "valid_to": None,
        "expires_at": None,
        "effective_until": None,
        "boundary": "none",
    }


@pytest.mark.parametrize("status", ["verified", "expired", "bogus"])
async def test_only_contradicted_may_be_claimed(client: Client[Any], status: str) -> None:
    payload = await call_error(
        client, "record_fact", project="p", key="k", verification_status=status
    )
    assert payload["error"] == "invalid_argument"
    assert payload["field"] == "verification_status"


async def test_claiming_contradicted_is_allowed(client: Client[Any]) -> None:
    fact = await call(
        client, "record_fact", project="p", key="k", verification_status="contradicted"
    )
    assert fact["verification_status"] == "contradicted"


async def test_confidence_defaults_to_one_half(client: Client[Any]) -> None:
    assert (await call(client, "record_fact", project="p", key="k"))["confidence"] == 0.5


async def test_idempotent_retry_returns_the_original_and_writes_nothing(
    client: Client[Any],
) -> None:
    first = await call(client, "record_fact", project="p", key="k", value=1, idempotency_key="op-1")
    retry = await call(
        client,
        "record_fact",
        project="p",
        key="k",
        value=1,
        idempotency_key="op-1",
        actor="someone else",
    )
    assert retry["id"] == first["id"]
    assert retry["revision"] == first["revision"]
    assert retry["idempotent_replay"] is True and first["idempotent_replay"] is False
    replay = await call(client, "replay_memory")
    assert replay["count"] == 1


async def test_idempotency_key_reused_for_another_write_is_refused(client: Client[Any]) -> None:
    await call(client, "record_fact", project="p", key="k", value=1, idempotency_key="op-1")
    payload = await call_error(
        client, "record_fact", project="p", key="k", value=2, idempotency_key="op-1"
    )
    assert payload["error"] == "conflict"
    assert "idempotency_key was already used" in payload["message"]


async def test_concurrent_retries_write_once(client: Client[Any]) -> None:
    results = await asyncio.gather(
        *(
            call(
                client,
                "record_fact",
                project="p",
                key="k",
                value={"n": 1},
                idempotency_key="same-op",
            )
            for _ in range(10)
        )
    )
    assert len({result["id"] for result in results}) == 1
    assert sum(not result["idempotent_replay"] for result in results) == 1
    replay = await call(client, "replay_memory")
    assert replay["count"] == 1 and replay["chain"]["head_revision"] == 1


# --- govern_fact ---------------------------------------------------------------------------
async def _two_keys(client: Client[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    a = await call(client, "record_fact", project="p", key="a", value="A", valid_from=at(0))
    b = await call(client, "record_fact", project="p", key="b", value="B", valid_from=at(0))
    return a, b


async def test_supersede_ends_validity_and_links_the_successor(client: Client[Any]) -> None:
    a, b = await _two_keys(client)
    result = await call(
        client,
        "govern_fact",
        fact_id=a["id"],
        action="supersede",
        target_fact_id=b["id"],
        effective_at=at(2),
        rationale="renamed",
    )
    assert result["changed"] is True and result["target_fact_id"] == b["id"]
    assert result["fact"]["status"] == "superseded"
    assert result["fact"]["temporal"]["valid_to"] == at(2).replace("+00:00", "Z")
    state = await call(client, "current_state", state_key="a", project="p")
    assert state["status"] == "no_current"
    assert state["history"][0]["superseded_by"] == b["id"]
    assert {(w["type"], w["from_id"], w["to_id"]) for w in state["why"]} == {
        ("supersedes", b["id"], a["id"])
    }


async def test_contradiction_is_visible_on_both_facts(client: Client[Any]) -> None:
    a, b = await _two_keys(client)
    await call(
        client,
        "govern_fact",
        fact_id=a["id"],
        action="contradict",
        target_fact_id=b["id"],
        rationale="they disagree",
    )
    for key in ("a", "b"):
        state = await call(client, "current_state", state_key=key, project="p")
        assert state["status"] == "unresolved_conflict"
        assert state["answer"]["contradiction_count"] == 1
        assert [(w["type"], w["rationale"]) for w in state["why"]] == [
            ("contradicts", "they disagree")
        ]
    # Resolving one side resolves the conflict for the other, and its count follows.
    await call(client, "govern_fact", fact_id=b["id"], action="invalidate")
    a_state = await call(client, "current_state", state_key="a", project="p")
    assert (a_state["status"], a_state["answer"]["contradiction_count"]) == ("current", 0)
    # Revalidating brings the conflict and both counts back.
    await call(client, "govern_fact", fact_id=b["id"], action="revalidate")
    for key in ("a", "b"):
        state = await call(client, "current_state", state_key=key, project="p")
        assert (state["status"], state["answer"]["contradiction_count"]) == (
            "unresolved_conflict",
            1,
        )
    audit = await call(client, "audit_memory", repair=False)
    assert [i["issue_type"] for i in audit["issues"]] == ["unresolved_contradiction"]


async def test_invalidate_then_revalidate(client: Client[Any]) -> None:
    first = await call(client, "record_fact", project="p", key="k", value=1, valid_from=at(0))
    second = await call(client, "record_fact", project="p", key="k", value=2, valid_from=at(1))
    await call(client, "govern_fact", fact_id=second["id"], action="invalidate", effective_at=at(3))
    state = await call(client, "current_state", state_key="k", project="p")
    assert state["status"] == "no_current"

    revived = await call(client, "govern_fact", fact_id=first["id"], action="revalidate")
    assert revived["fact"]["status"] == "active"
    assert revived["fact"]["temporal"]["valid_to"] is None
    state = await call(client, "current_state", state_key="k", project="p")
    assert state["status"] == "current" and state["answer"]["id"] == first["id"]
    # the successor link from the second fact no longer counts
    assert all(w["to_id"] != first["id"] for w in state["why"] if w["type"] == "supersedes")


async def test_revalidating_supersedes_the_fact_that_was_current(client: Client[Any]) -> None:
    first = await call(client, "record_fact", project="p", key="k", value=1)
    second = await call(client, "record_fact", project="p", key="k", value=2)
    result = await call(client, "govern_fact", fact_id=first["id"], action="revalidate")
    assert sorted(result["fact"]["id"] for _ in [0]) == [first["id"]]
    state = await call(client, "current_state", state_key="k", project="p")
    assert state["answer"]["id"] == first["id"]
    assert state["history"][0]["id"] == second["id"]
    assert state["history"][0]["status"] == "superseded"
    assert state["history"][0]["superseded_by"] == first["id"]


@pytest.mark.parametrize(
    ("arguments", "field", "message"),
    [
        ({"action": "supersede"}, "target_fact_id", "required for supersede"),
        (
            {"action": "contradict", "target_fact_id": ""},
            "target_fact_id",
            "required for contradict",
        ),
        (
            {"action": "invalidate", "target_fact_id": "x"},
            "target_fact_id",
            "not used by invalidate",
        ),
        ({"action": "explode"}, "action", "Input should be"),
    ],
)
async def test_govern_argument_errors(
    client: Client[Any], arguments: dict[str, Any], field: str, message: str
) -> None:
    fact = await call(client, "record_fact", project="p", key="k")
    payload = await call_error(client, "govern_fact", fact_id=fact["id"], **arguments)
    assert payload["error"] == "invalid_argument" and payload["field"] == field
    assert message in payload["message"]


async def test_govern_self_target_is_refused(client: Client[Any]) -> None:
    fact = await call(client, "record_fact", project="p", key="k")
    payload = await call_error(
        client, "govern_fact", fact_id=fact["id"], action="supersede", target_fact_id=fact["id"]
    )
    assert payload == {
        "error": "invalid_argument",
        "field": "target_fact_id",
        "message": "target_fact_id: must differ from fact_id",
    }


async def test_govern_unknown_fact_and_target(client: Client[Any]) -> None:
    fact = await call(client, "record_fact", project="p", key="k")
    missing = await call_error(client, "govern_fact", fact_id="no-such-fact", action="invalidate")
    assert missing == {"error": "not_found", "message": "fact 'no-such-fact' not found"}
    target = await call_error(
        client,
        "govern_fact",
        fact_id=fact["id"],
        action="contradict",
        target_fact_id="no-such-target",
    )
    assert target == {"error": "not_found", "message": "fact 'no-such-target' not found"}


async def test_govern_refusals_name_the_state(client: Client[Any]) -> None:
    a, b = await _two_keys(client)
    active = await call_error(client, "govern_fact", fact_id=a["id"], action="revalidate")
    assert (active["error"], active["state"]) == ("invalid_state", "active")
    assert "already active" in active["message"]
    await call(client, "govern_fact", fact_id=b["id"], action="invalidate")
    twice = await call_error(client, "govern_fact", fact_id=b["id"], action="invalidate")
    assert (twice["error"], twice["state"]) == ("invalid_state", "invalidated")
    assert "already invalidated" in twice["message"]
    dead_successor = await call_error(
        client, "govern_fact", fact_id=a["id"], action="supersede", target_fact_id=b["id"]
    )
    assert (dead_successor["error"], dead_successor["state"]) == ("invalid_state", "invalidated")
    assert "must be active" in dead_successor["message"]
    await call(client, "govern_fact", fact_id=a["id"], action="contradict", target_fact_id=b["id"])
    again = await call_error(
        client, "govern_fact", fact_id=b["id"], action="contradict", target_fact_id=a["id"]
    )
    assert (again["error"], again["state"]) == ("invalid_state", "contradicting")
    assert "already linked" in again["message"]


async def test_effective_at_before_valid_from_is_refused(client: Client[Any]) -> None:
    fact = await call(client, "record_fact", project="p", key="k", valid_from=at(5))
    payload = await call_error(
        client, "govern_fact", fact_id=fact["id"], action="invalidate", effective_at=at(1)
    )
    assert payload["error"] == "invalid_argument" and payload["field"] == "effective_at"


async def test_empty_strings_behave_as_absent(client: Client[Any]) -> None:
    fact = await call(client, "record_fact", project="p", key="k")
    result = await call(
        client,
        "govern_fact",
        fact_id=fact["id"],
        action="invalidate",
        target_fact_id="",
        effective_at="",
        rationale="",
    )
    assert result["target_fact_id"] is None and result["changed"] is True


async def test_a_failed_govern_changes_nothing(client: Client[Any]) -> None:
    a, _b = await _two_keys(client)
    before = await call(client, "replay_memory")
    await call_error(
        client, "govern_fact", fact_id=a["id"], action="supersede", target_fact_id="missing"
    )
    after = await call(client, "replay_memory")
    assert after["chain"]["head_revision"] == before["chain"]["head_revision"]
    assert (await call(client, "current_state", state_key="a", project="p"))["status"] == "current"


# --- maintain -----------------------------------------------------------------------------
async def test_maintain_expires_at_the_boundary_and_is_safe_to_repeat(client: Client[Any]) -> None:
    now = datetime.now(UTC)
    lapsed = await call(
        client,
        "record_fact",
        project="p",
        key="old",
        value=1,
        valid_from=(now - timedelta(days=2)).isoformat(),
        expires_at=(now - timedelta(seconds=1)).isoformat(),
    )
    await call(
        client,
        "record_fact",
        project="p",
        key="fresh",
        value=2,
        expires_at=(now + timedelta(days=1)).isoformat(),
    )
    # A lapsed fact is not current even before maintain runs.
    early = await call(client, "current_state", state_key="old", project="p")
    assert early["status"] == "no_current" and early["history"][0]["status"] == "expired"

    first = await call(client, "maintain")
    assert first["expired_facts"] == 1 and first["expired_fact_ids"] == [lapsed["id"]]
    second = await call(client, "maintain")
    assert second["expired_facts"] == 0 and second["revision"] is None
    fresh = await call(client, "current_state", state_key="fresh", project="p")
    assert fresh["status"] == "current"


# --- bi-temporal reads ------------------------------------------------------------------------
async def test_as_of_reads_valid_time(client: Client[Any]) -> None:
    await call(client, "record_fact", project="p", key="k", value="v1", valid_from=at(0))
    await call(client, "record_fact", project="p", key="k", value="v2", valid_from=at(10))
    assert (await call(client, "current_state", state_key="k", project="p", as_of=at(5)))["answer"][
        "value"
    ] == "v1"
    assert (await call(client, "current_state", state_key="k", project="p", as_of=at(15)))[
        "answer"
    ]["value"] == "v2"
    before = await call(client, "current_state", state_key="k", project="p", as_of=at(-1))
    assert before["status"] == "no_current"


async def test_known_at_reads_transaction_time(client: Client[Any]) -> None:
    first = await call(client, "record_fact", project="p", key="k", value="v1")
    between = datetime.now(UTC).isoformat()
    await asyncio.sleep(0.01)
    await call(client, "record_fact", project="p", key="k", value="v2")
    await call(
        client,
        "govern_fact",
        fact_id=first["id"],
        action="contradict",
        target_fact_id=(await call(client, "record_fact", project="q", key="x"))["id"],
    )
    then = await call(client, "current_state", state_key="k", project="p", known_at=between)
    assert then["status"] == "current" and then["answer"]["value"] == "v1"
    assert then["answer"]["status"] == "active" and then["history"] == []
    now = await call(client, "current_state", state_key="k", project="p")
    assert now["answer"]["value"] == "v2"
    before_anything = await call(
        client, "current_state", state_key="k", project="p", known_at=at(-400)
    )
    assert before_anything["status"] == "not_found"


# --- verify_fact ------------------------------------------------------------------------------
async def test_verify_fact_with_a_trusted_signature(
    client: Client[Any], verifier: Verifier
) -> None:
    fact = await call(client, "record_fact", project="p", key="k", value=42)
    attestation = sign_attestation(fact, verifier.private_key, verifier.identity, "ticket-1")
    result = await call(
        client, "verify_fact", fact_id=fact["id"], attestation=attestation.model_dump(mode="json")
    )
    assert result["fact"]["verification_status"] == "verified"
    assert result["fact"]["verification"]["verifier_identity"] == "qa-bot"
    state = await call(client, "current_state", state_key="k", project="p")
    assert state["answer"]["verification_status"] == "verified"


async def test_verify_fact_refusals(client: Client[Any], verifier: Verifier) -> None:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    fact = await call(client, "record_fact", project="p", key="k", value=42)
    good = sign_attestation(fact, verifier.private_key, verifier.identity, "ticket-1")

    stranger = sign_attestation(fact, verifier.private_key, "someone-else", "ticket-1")
    forged = sign_attestation(fact, Ed25519PrivateKey.generate(), verifier.identity, "t")
    cases = {
        "unknown_verifier": stranger.model_dump(mode="json"),
        "bad_signature": forged.model_dump(mode="json"),
        "fact_mismatch": {**good.model_dump(mode="json"), "fact_id": "another-fact"},
    }
    for reason, attestation in cases.items():
        payload = await call_error(
            client, "verify_fact", fact_id=fact["id"], attestation=attestation
        )
        assert payload["error"] == "verification_refused" and payload["reason"] == reason

    # the fact changes after signing: the digest is stale
    other = await call(client, "record_fact", project="p", key="other")
    await call(
        client, "govern_fact", fact_id=fact["id"], action="contradict", target_fact_id=other["id"]
    )
    changed = await call(client, "current_state", state_key="k", project="p")
    assert changed["answer"]["verification_status"] == "contradicted"
    await call(client, "govern_fact", fact_id=fact["id"], action="invalidate")
    stale = await call_error(
        client, "verify_fact", fact_id=fact["id"], attestation=good.model_dump(mode="json")
    )
    assert stale["reason"] == "stale_digest"

    missing = await call_error(
        client, "verify_fact", fact_id="no-such-fact", attestation=good.model_dump(mode="json")
    )
    assert missing["error"] == "not_found"


# --- replay_memory ----------------------------------------------------------------------------
async def test_replay_filters(client: Client[Any]) -> None:
    a = await call(client, "record_fact", project="p", key="a", value=1)
    b = await call(client, "record_fact", project="p", key="a", value=2)
    await call(client, "record_fact", project="p", key="z", value=3)
    await call(client, "govern_fact", fact_id=b["id"], action="invalidate")
    touched_a = await call(client, "replay_memory", aggregate_id=a["id"])
    assert [e["event_type"] for e in touched_a["events"]] == ["record_fact", "record_fact"]
    limited = await call(client, "replay_memory", limit=2)
    assert [e["revision"] for e in limited["events"]] == [4, 3]
    none = await call(client, "replay_memory", aggregate_kind="chunk")
    assert none["count"] == 0 and none["events"] == []
    assert none["contract_version"] == "graphmem_history_v1"
    future = await call(client, "replay_memory", since_ts="2100-01-01T00:00:00+00:00")
    assert future["count"] == 0

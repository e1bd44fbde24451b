"""Dead rules: reopen rules that cannot fire now are kept as state by the writes that evaluate
them, so a review over a scope lists them (diagnostics, with exact totals by reason) without
evaluating every rule, and they leave the list when they can fire again or their decision
stops being live."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from fastmcp import Client

from tests.support import call


def _rule(key: str, operator: str, value: Any) -> dict[str, Any]:
    return {"key": key, "operator": operator, "value": value}


async def _decide(
    client: Client[Any], *rules: dict[str, Any], project: str = "p"
) -> dict[str, Any]:
    alternatives = [{"title": "memcached", "why_rejected": "slower", "reopen_when": list(rules)}]
    result = await call(
        client,
        "record_decision",
        project=project,
        title="Use Redis",
        choice="redis",
        alternatives=alternatives,
    )
    return result["decision"]


async def _dead(client: Client[Any], **scope: Any) -> dict[str, Any]:
    """A scoped review's diagnostics: (decision, key) -> reason, and the counts by reason."""
    review = await call(client, "review_decisions", **scope)
    listed = {(d["decision_id"], d["key"]): d["reason"] for d in review["diagnostics"]}
    assert review["diagnostics_total"] == len(listed) or review["diagnostics_next_offset"]
    return {"listed": listed, "by_reason": review["unknown_by_reason"], "review": review}


async def test_a_misspelt_key_is_listed_until_its_fact_is_recorded(client: Client[Any]) -> None:
    await call(client, "record_fact", project="p", key="api.qps", value=100)
    decision = await _decide(client, _rule("api.qsp", "greater_than", 1000))  # misspelt
    dead = await _dead(client, project="p")
    assert dead["listed"] == {(decision["id"], "api.qsp"): "no_current_fact"}
    assert dead["by_reason"]["no_current_fact"] == 1
    assert dead["review"]["evaluated_decisions"] == 0  # listed from state, nothing evaluated
    assert dead["review"]["diagnostics"][0]["since"] is not None
    # the fact recorded: the rule can fire, and its breach pushes a signal as before
    fact = await call(client, "record_fact", project="p", key="api.qsp", value=5000)
    assert [s["decision_id"] for s in fact["review_signals"]] == [decision["id"]]
    dead = await _dead(client, project="p")
    assert dead["listed"] == {}
    assert dead["by_reason"] == {
        "no_current_fact": 0,
        "expired_fact": 0,
        "incomparable_types": 0,
        "conflicting_evidence": 0,
    }
    assert [d["decision_id"] for d in dead["review"]["due"]] == [decision["id"]]


async def test_incomparable_and_conflicting_rules_are_listed(client: Client[Any]) -> None:
    await call(client, "record_fact", project="p", key="db.engine", value="postgres")
    low = await call(client, "record_fact", project="p", key="latency", value=5)
    high = await call(client, "record_fact", project="p", key="latency_probe", value=50)
    await call(
        client, "govern_fact", fact_id=low["id"], action="contradict", target_fact_id=high["id"]
    )
    decision = await _decide(
        client, _rule("db.engine", "greater_than", 3), _rule("latency", "greater_than", 10)
    )
    dead = await _dead(client)
    assert dead["listed"] == {
        (decision["id"], "db.engine"): "incomparable_types",
        (decision["id"], "latency"): "conflicting_evidence",
    }
    assert (dead["by_reason"]["incomparable_types"], dead["by_reason"]["conflicting_evidence"]) == (
        1,
        1,
    )
    # the contradiction cleared by governance: the rule can fire again and leaves the list
    await call(client, "govern_fact", fact_id=high["id"], action="invalidate")
    assert (await _dead(client))["listed"] == {(decision["id"], "db.engine"): "incomparable_types"}


async def test_a_fact_that_expires_is_listed_after_maintain(client: Client[Any]) -> None:
    soon = (datetime.now(UTC) + timedelta(seconds=1)).isoformat()
    await call(client, "record_fact", project="p", key="quota", value=5, expires_at=soon)
    decision = await _decide(client, _rule("quota", "less_than", 10))
    assert (await _dead(client))["listed"] == {}
    await asyncio.sleep(max((datetime.fromisoformat(soon) - datetime.now(UTC)).total_seconds(), 0))
    await asyncio.sleep(0.1)
    await call(client, "maintain")  # time alone made it dead: maintain keeps that state
    dead = await _dead(client, project="p")
    assert dead["listed"] == {(decision["id"], "quota"): "expired_fact"}


async def test_superseded_and_reverted_decisions_leave_the_list(client: Client[Any]) -> None:
    older = await _decide(client, _rule("never.a", "equals", 1))
    reverted = await _decide(client, _rule("never.b", "equals", 1))
    assert set((await _dead(client))["listed"]) == {
        (older["id"], "never.a"),
        (reverted["id"], "never.b"),
    }
    newer = await call(
        client,
        "record_decision",
        project="p",
        title="Use Valkey",
        choice="valkey",
        supersedes_decision_id=older["id"],
    )
    await call(client, "update_decision", decision_id=reverted["id"], status="reverted")
    assert newer["decision"]["id"] != older["id"]
    assert (await _dead(client))["listed"] == {}


async def test_another_tenant_and_another_project_are_not_listed(
    client: Client[Any], other_client: Client[Any]
) -> None:
    mine = await _decide(client, _rule("never", "equals", 1))
    await _decide(client, _rule("never", "equals", 1), project="q")
    await _decide(other_client, _rule("never", "equals", 1))
    dead = await _dead(client, project="p")
    assert dead["listed"] == {(mine["id"], "never"): "no_current_fact"}
    assert dead["by_reason"]["no_current_fact"] == 1
    assert len((await _dead(client))["listed"]) == 2  # both projects of this tenant
    assert len((await _dead(other_client))["listed"]) == 1


async def test_diagnostics_are_paged_with_exact_totals(client: Client[Any]) -> None:
    rules = [_rule(f"never.{n:03}", "equals", 1) for n in range(20)]
    decisions = [await _decide(client, *rules) for _ in range(6)]  # 120 dead rules
    first = await call(client, "review_decisions", project="p")
    assert (len(first["diagnostics"]), first["diagnostics_total"]) == (100, 120)
    assert first["unknown_by_reason"]["no_current_fact"] == 120
    assert first["diagnostics_next_offset"] == 100
    rest = await call(client, "review_decisions", project="p", diagnostics_offset=100)
    assert (len(rest["diagnostics"]), rest["diagnostics_next_offset"]) == (20, None)
    listed = [(d["decision_id"], d["key"]) for d in first["diagnostics"] + rest["diagnostics"]]
    assert len(set(listed)) == 120
    assert listed == sorted(listed)  # by decision id, then the rule's place
    assert {d for d, _ in listed} == {d["id"] for d in decisions}

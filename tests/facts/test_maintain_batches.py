"""maintain in bounded batches: each batch its own transaction and revision, a continuation
the next call resumes from, and continuations that only their own tenant and tool can use."""

from __future__ import annotations

import asyncio
import base64
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastmcp import Client

from graphmem.facts import maintain as maintain_pass
from graphmem.store import continuations
from tests.support import call, call_error

PAST = (datetime.now(UTC) - timedelta(days=1)).isoformat()


async def _lapsed_facts(client: Client[Any], count: int) -> list[str]:
    now = datetime.now(UTC)
    ids = []
    for n in range(count):
        fact = await call(
            client,
            "record_fact",
            project="p",
            key=f"k{n}",
            value=n,
            valid_from=(now - timedelta(days=2)).isoformat(),
            expires_at=(now - timedelta(seconds=1)).isoformat(),
        )
        ids.append(fact["id"])
    return ids


async def _decide(client: Client[Any], key: str, **extra: Any) -> str:
    rule = {"key": key, "operator": "greater_than", "value": 10}
    result = await call(
        client,
        "record_decision",
        project="p",
        title=f"watch {key}",
        choice="c",
        alternatives=[{"title": "a", "reopen_when": [rule]}],
        **extra,
    )
    return result["decision"]["id"]


async def test_a_pass_runs_in_batches_and_resumes_from_its_continuation(
    client: Client[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(maintain_pass, "EXPIRY_BATCH", 2)
    monkeypatch.setattr(maintain_pass, "DECISION_BATCH", 2)
    monkeypatch.setattr(maintain_pass, "CALL_BUDGET", 0.0)  # one batch a call
    expired = await _lapsed_facts(client, 5)
    decided = [await _decide(client, f"w{n}") for n in range(3)]
    stale = await _decide(client, "w9", review_after=PAST)
    head = (await call(client, "replay_memory", limit=1))["chain"]["head_revision"]

    calls, continuation = [], None
    while True:
        arguments = {} if continuation is None else {"continuation": continuation}
        result = await call(client, "maintain", **arguments)
        assert result["batches"] == 1
        calls.append(result)
        continuation = result["continuation"]
        if continuation is None:
            break
    # expire 2 + 2 + 1, stale 1, evaluate 2 + 2 + 0 (a full batch may not be the last)
    assert [c["expired_facts"] for c in calls] == [2, 2, 1, 0, 0, 0, 0]
    assert sorted(i for c in calls for i in c["expired_fact_ids"]) == sorted(expired)
    assert [c["stale_decision_ids"] for c in calls] == [[], [], [], [stale], [], [], []]
    evaluated = [c["review"]["evaluated_decisions"] for c in calls]
    assert evaluated == [0, 0, 0, 0, 2, 2, 0] and len(decided) + 1 == 4
    # each batch that changed something committed its own revision, in order
    revisions = [c["revision"] for c in calls[:4]]
    assert revisions == list(range(head + 1, head + 5))
    again = await call(client, "maintain")  # a new pass: nothing left to change
    assert (again["expired_facts"], again["stale_decisions"], again["revision"]) == (0, 0, None)


async def test_one_call_runs_batches_until_the_pass_is_done(
    client: Client[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(maintain_pass, "EXPIRY_BATCH", 2)
    await _lapsed_facts(client, 5)
    result = await call(client, "maintain")
    assert (result["expired_facts"], result["batches"], result["continuation"]) == (5, 5, None)


async def test_signals_are_synced_batch_by_batch(
    client: Client[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(maintain_pass, "DECISION_BATCH", 1)
    soon = (datetime.now(UTC) + timedelta(seconds=1)).isoformat()
    ids = [await _decide(client, "latency") for _ in range(3)]
    fact = await call(client, "record_fact", project="p", key="latency", value=50, expires_at=soon)
    assert len(fact["review_signals"]) == 3
    await asyncio.sleep(
        max(0.0, (datetime.fromisoformat(soon) - datetime.now(UTC)).total_seconds())
    )
    done = await call(client, "maintain")
    assert done["review"]["signals_cleared"] == 3 and done["review"]["evaluated_decisions"] == 3
    assert done["batches"] == 1 + 1 + 3 + 1  # expire, stale, one a decision, the empty end
    assert (await call(client, "review_decisions"))["due"] == []
    assert sorted(ids) == sorted(s["decision_id"] for s in fact["review_signals"])


FORGED = [
    "",
    "garbage",
    "a.b",
    "e30.AAAAAAAAAAAAAAAAAAAAAA",  # {} with a zero MAC
    "x" * 1024,
]


@pytest.mark.parametrize("token", FORGED)
async def test_a_forged_continuation_is_refused(client: Client[Any], token: str) -> None:
    payload = await call_error(client, "maintain", continuation=token)
    assert (payload["error"], payload["field"]) == ("invalid_argument", "continuation")


async def test_another_tenants_or_tools_or_an_old_continuation_reads_the_same(
    client: Client[Any], other_client: Client[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(maintain_pass, "CALL_BUDGET", 0.0)
    token = (await call(client, "maintain"))["continuation"]
    assert token is not None
    forged = await call_error(client, "maintain", continuation="e30.AAAAAAAAAAAAAAAAAAAAAA")
    theirs = await call_error(other_client, "maintain", continuation=token)
    body, mac = token.split(".")
    edited = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    edited["p"]["phase"] = "evaluate"
    tampered = base64.urlsafe_b64encode(json.dumps(edited).encode()).decode().rstrip("=")
    edited_call = await call_error(client, "maintain", continuation=f"{tampered}.{mac}")
    monkeypatch.setattr(continuations, "MAX_AGE", -1)
    old = await call_error(client, "maintain", continuation=token)
    assert forged == theirs == edited_call == old  # the same words: no oracle
    monkeypatch.setattr(continuations, "MAX_AGE", 3600)
    assert (await call(client, "maintain", continuation=token))["batches"] == 1


def test_a_token_names_its_tool_and_tenant() -> None:
    token = continuations.issue(None, "maintain", "t1", {"phase": "stale", "after": ""})
    assert continuations.resume(None, "maintain", "t1", token) == {"phase": "stale", "after": ""}
    for tool, tenant in (("audit_memory", "t1"), ("maintain", "t2")):
        with pytest.raises(Exception, match="continuation"):
            continuations.resume(None, tool, tenant, token)

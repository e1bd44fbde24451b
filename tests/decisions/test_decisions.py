"""Decisions through the MCP surface: reopen-rule verdicts for every operator, review signals
(identity, acknowledgement, push from fact writes), the decision lifecycle, attempts and
outcomes, maintain, and every documented error."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastmcp import Client

from tests.support import call, call_error

PAST = "2020-01-01T00:00:00+00:00"

# (fact value, operator, operand, unit, expected verdict, expected reason); one key each.
CASES: list[tuple[Any, str, Any, str | None, str, str | None]] = [
    # numbers
    (5, "equals", 5, None, "true", None),
    (5, "equals", 5.0, None, "true", None),
    (5, "equals", "5", None, "false", None),
    (5, "not_equals", 6, None, "true", None),
    (5, "greater_than", 4, None, "true", None),
    (5, "greater_than", 5, None, "false", None),
    (5, "gte", 5, None, "true", None),
    (5, "less_than", 6, None, "true", None),
    (5, "lte", 4, None, "false", None),
    (5, "between", [5, 10], None, "true", None),
    (10, "between", [5, 10], None, "true", None),
    (11, "between", [5, 10], None, "false", None),
    (5, "in", [1, 5, 9], None, "true", None),
    (5.0, "in", [5], None, "true", None),
    (5, "not_in", [1, 9], None, "true", None),
    (5, "not_in", [5], None, "false", None),
    # numbers with units: a bare number is read in the rule's unit
    (250, "greater_than", 0.2, "s", "true", None),
    ("250 ms", "greater_than", 0.2, "s", "true", None),
    ("250ms", "less_than", 0.2, "s", "false", None),
    ("2 min", "gte", 120, "s", "true", None),
    ("1.5 h", "between", [1, 2], "h", "true", None),
    ("1 d", "greater_than", 23, "h", "true", None),
    ("12%", "greater_than", 10, "%", "true", None),
    ("12%", "greater_than", 10, "s", "unknown", "incomparable_types"),
    ("250 ms", "greater_than", 100, None, "unknown", "incomparable_types"),
    ("250 ms", "equals", "250 ms", "s", "true", None),  # a unit has no effect on equals
    # ISO-8601 dates and instants
    ("2026-03-01", "greater_than", "2026-01-01", None, "true", None),
    ("2026-03-01T10:00:00Z", "less_than", "2026-03-01T12:00:00+01:00", None, "true", None),
    ("2026-03-01T12:00:00Z", "less_than", "2026-03-01T12:00:00+01:00", None, "false", None),
    ("2026-02-01", "between", ["2026-01-01", "2026-03-01T00:00:00Z"], None, "true", None),
    ("next tuesday", "greater_than", "2026-01-01", None, "unknown", "incomparable_types"),
    ("2026-03-01", "greater_than", 5, None, "unknown", "incomparable_types"),
    (5, "greater_than", "2026-01-01", None, "unknown", "incomparable_types"),
    # strings
    ("postgres 16", "contains", "postgres", None, "true", None),
    ("postgres 16", "contains", 16, None, "true", None),  # operand read as its text
    ("abc", "contains", "x", None, "false", None),
    ("abc", "equals", "abc", None, "true", None),
    ("abc", "in", ["abc", "d"], None, "true", None),
    ("abc", "not_in", ["abc"], None, "false", None),
    ("abc", "greater_than", 3, None, "unknown", "incomparable_types"),
    # lists and objects
    (["a", "b"], "contains", "a", None, "true", None),
    ([1, 2], "contains", 2.0, None, "true", None),
    (["a"], "contains", "z", None, "false", None),
    (["a", "b"], "equals", ["a", "b"], None, "true", None),
    (["a", "b"], "equals", ["b", "a"], None, "false", None),
    ([1], "greater_than", 0, None, "unknown", "incomparable_types"),
    ({"x": 1}, "contains", "x", None, "true", None),
    ({"x": 1}, "equals", {"x": 1.0}, None, "true", None),
    # booleans and null are operands too
    (True, "equals", True, None, "true", None),
    (None, "equals", None, None, "true", None),
    (False, "in", [False], None, "true", None),
    (0, "equals", False, None, "false", None),
]


def _rule(key: str, operator: str, value: Any, unit: str | None = None) -> dict[str, Any]:
    rule = {"key": key, "operator": operator, "value": value}
    return rule if unit is None else {**rule, "unit": unit}


def _rules_by_key(decision: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["key"]: r for a in decision["alternatives"] for r in a["rules"]}


async def _decide(client: Client[Any], *rules: dict[str, Any], **extra: Any) -> dict[str, Any]:
    result = await call(
        client,
        "record_decision",
        project="p",
        title="Use Redis",
        choice="redis",
        alternatives=[{"title": "memcached", "why_rejected": "slower", "reopen_when": list(rules)}],
        **extra,
    )
    return result


async def test_every_operator_against_every_kind_of_value(client: Client[Any]) -> None:
    for index, (value, *_) in enumerate(CASES):
        await call(client, "record_fact", project="p", key=f"k{index}", value=value)
    rules = [
        _rule(f"k{i}", op, operand, unit) for i, (_, op, operand, unit, *_) in enumerate(CASES)
    ]
    alternatives = [
        {"title": f"alt{n}", "reopen_when": rules[n : n + 20]} for n in range(0, len(rules), 20)
    ]
    result = await call(
        client, "record_decision", project="p", title="t", choice="c", alternatives=alternatives
    )
    verdicts = _rules_by_key(result["decision"])
    got = {
        f"k{i}": (verdicts[f"k{i}"]["verdict"], verdicts[f"k{i}"]["reason"])
        for i in range(len(CASES))
    }
    expected = {f"k{i}": (case[4], case[5]) for i, case in enumerate(CASES)}
    mismatches = {
        key: (CASES[int(key[1:])], got[key]) for key in expected if got[key] != expected[key]
    }
    assert not mismatches
    # the verdict names its evidence: the key's current fact
    assert verdicts["k0"]["evidence"]["value"] == 5


async def test_unknown_verdicts_say_why(client: Client[Any]) -> None:
    await call(client, "record_fact", project="p", key="lapsed", value=500, expires_at=PAST)
    gone = await call(client, "record_fact", project="p", key="gone", value=500)
    await call(client, "govern_fact", fact_id=gone["id"], action="invalidate")
    result = await _decide(
        client,
        _rule("never", "greater_than", 1),
        _rule("lapsed", "greater_than", 1),
        _rule("gone", "greater_than", 1),
    )
    rules = _rules_by_key(result["decision"])
    assert {key: (r["verdict"], r["reason"]) for key, r in rules.items()} == {
        "never": ("unknown", "no_current_fact"),
        "lapsed": ("unknown", "expired_fact"),
        "gone": ("unknown", "no_current_fact"),
    }
    assert result["review_signals"] == []  # unknown never opens a signal
    maintained = await call(client, "maintain")  # expiry made durable: still expired, not missing
    # maintain evaluates every live decision; review_decisions the one it names (not due)
    named = await call(client, "review_decisions", decision_id=result["decision"]["id"])
    for review in (maintained["review"], named):
        reasons = {d["key"]: d["reason"] for d in review["diagnostics"]}
        assert reasons == {
            "never": "no_current_fact",
            "lapsed": "expired_fact",
            "gone": "no_current_fact",
        }
        assert review["verdicts"] == {"true": 0, "false": 0, "unknown": 3}
    assert named["due"] == []
    assert (await call(client, "review_decisions"))["evaluated_decisions"] == 0  # none due
    # a key a rule watches but nobody recorded is still not found for current_state
    assert (await call(client, "current_state", state_key="never"))["status"] == "not_found"


async def test_conflicting_evidence(client: Client[Any]) -> None:
    low = await call(client, "record_fact", project="p", key="latency", value=5)
    high = await call(client, "record_fact", project="p", key="latency_probe", value=50)
    await call(
        client, "govern_fact", fact_id=low["id"], action="contradict", target_fact_id=high["id"]
    )
    result = await _decide(
        client, _rule("latency", "greater_than", 10), _rule("latency", "less_than", 100)
    )
    disagree, agree = result["decision"]["alternatives"][0]["rules"]
    assert (disagree["verdict"], disagree["reason"]) == ("unknown", "conflicting_evidence")
    assert [(e["fact_id"], e["verdict"]) for e in disagree["conflicting_evidence"]] == [
        (high["id"], "true")
    ]
    assert (agree["verdict"], agree["reason"]) == ("true", None)  # both say true: it fires
    assert agree["conflicting_evidence"][0]["fact_id"] == high["id"]
    assert len(result["review_signals"]) == 1


# --- signals -------------------------------------------------------------------------------
async def test_signal_identity_and_acknowledgement_across_changes(client: Client[Any]) -> None:
    decision = (
        await _decide(
            client,
            _rule("latency", "greater_than", 300, "ms"),
            _rule("errors", "greater_than", 5, "%"),
        )
    )["decision"]
    latency_rule, errors_rule = (r["rule_id"] for r in decision["alternatives"][0]["rules"])

    first = await call(client, "record_fact", project="p", key="latency", value="400 ms")
    [s1] = first["review_signals"]  # pushed by the fact write itself
    assert (s1["breached_rule_ids"], s1["status"]) == ([latency_rule], "open")
    review = await call(client, "review_decisions")
    assert "signals_opened" not in review and "revision" not in review  # a read: writes nothing
    assert review["due"][0]["signal"]["signal_id"] == s1["signal_id"]

    acked = await call(client, "ack_review", signal_id=s1["signal_id"], note="known; fine")
    assert acked["signal"]["status"] == "acknowledged"
    same_set = await call(client, "record_fact", project="p", key="latency", value="500 ms")
    assert same_set["review_signals"] == []  # same breach set: stays quiet
    review = await call(client, "review_decisions")
    assert review["due"][0]["signal"]["status"] == "acknowledged"  # still listed as due

    wider = await call(client, "record_fact", project="p", key="errors", value="10%")
    [s2] = wider["review_signals"]  # a new breach set is a new signal
    assert s2["breached_rule_ids"] == sorted([latency_rule, errors_rule])
    assert s2["signal_id"] != s1["signal_id"]

    narrower = await call(client, "record_fact", project="p", key="errors", value="1%")
    assert narrower["review_signals"] == []  # back to the acknowledged set: quiet
    review = await call(client, "review_decisions")
    assert review["due"][0]["signal"] == {**acked["signal"]}

    cleared = await call(client, "record_fact", project="p", key="latency", value="100 ms")
    assert cleared["review_signals"] == []
    assert (await call(client, "review_decisions"))["due"] == []
    again = await call(client, "record_fact", project="p", key="latency", value="900 ms")
    [s3] = again["review_signals"]  # the episode ended; a new breach opens again
    assert s3["status"] == "open" and s3["breached_rule_ids"] == [latency_rule]
    payload = await call_error(client, "ack_review", signal_id=s2["signal_id"], note="late")
    assert (payload["error"], payload["state"]) == ("invalid_state", "cleared")


async def test_govern_fact_pushes_and_clears_signals(client: Client[Any]) -> None:
    await _decide(client, _rule("latency", "greater_than", 300))
    fact = await call(client, "record_fact", project="p", key="latency", value=400)
    assert len(fact["review_signals"]) == 1
    invalidated = await call(client, "govern_fact", fact_id=fact["id"], action="invalidate")
    assert invalidated["review_signals"] == []
    assert (await call(client, "review_decisions"))["due"] == []
    revalidated = await call(client, "govern_fact", fact_id=fact["id"], action="revalidate")
    assert [s["status"] for s in revalidated["review_signals"]] == ["open"]


async def test_rules_of_one_alternative_are_ored_and_decisions_paginate(
    client: Client[Any],
) -> None:
    await call(client, "record_fact", project="p", key="a", value=1)
    await call(client, "record_fact", project="p", key="b", value=100)
    ids = []
    for _ in range(3):
        result = await _decide(
            client, _rule("a", "greater_than", 10), _rule("b", "greater_than", 10)
        )
        assert len(result["review_signals"]) == 1  # one true rule is enough
        ids.append(result["decision"]["id"])
    page = await call(client, "review_decisions", limit=2)
    assert [d["decision_id"] for d in page["due"]] == sorted(ids)[:2]
    assert (page["due_total"], page["next_offset"]) == (3, 2)
    rest = await call(client, "review_decisions", limit=2, offset=2)
    assert [d["decision_id"] for d in rest["due"]] == sorted(ids)[2:]
    assert rest["next_offset"] is None
    one = await call(client, "review_decisions", decision_id=ids[1])
    assert one["evaluated_decisions"] == 1
    assert (await call(client, "review_decisions", project="elsewhere"))["evaluated_decisions"] == 0


# --- lifecycle -----------------------------------------------------------------------------
async def test_supersede_update_and_revert(client: Client[Any]) -> None:
    await call(client, "record_fact", project="p", key="latency", value=400)
    old = await _decide(client, _rule("latency", "greater_than", 300))
    old_id = old["decision"]["id"]
    new = await _decide(client, supersedes_decision_id=old_id)
    assert new["decision"]["supersedes_decision_id"] == old_id
    review = await call(client, "review_decisions")
    assert review["due"] == [] and review["evaluated_decisions"] == 0  # old one: not live
    named = await call(client, "review_decisions", decision_id=old_id)
    assert named["evaluated_decisions"] == 0  # a superseded decision is never evaluated
    payload = await call_error(client, "update_decision", decision_id=old_id, status="active")
    assert payload["error"] == "invalid_state" and "final" in payload["message"]
    payload = await call_error(
        client, "record_decision", project="p", title="t", choice="c", supersedes_decision_id=old_id
    )
    assert (payload["error"], payload["state"]) == ("invalid_state", "superseded")

    newest = new["decision"]["id"]
    moved = await call(client, "update_decision", decision_id=newest, status="review_required")
    assert (moved["previous_status"], moved["decision"]["status"]) == ("active", "review_required")
    assert (
        await call_error(client, "update_decision", decision_id=newest, status="review_required")
    )["error"] == "invalid_state"
    reverted = await call(
        client, "update_decision", decision_id=newest, status="reverted", reason="x"
    )
    assert reverted["decision"]["status"] == "reverted"


async def test_update_decision_supersedes_with_a_successor(client: Client[Any]) -> None:
    await call(client, "record_fact", project="p", key="latency", value=400)
    old = (await _decide(client, _rule("latency", "greater_than", 300)))["decision"]["id"]
    successor = (await _decide(client))["decision"]["id"]
    done = await call(
        client,
        "update_decision",
        decision_id=old,
        status="superseded",
        successor_decision_id=successor,
    )
    assert done["decision"]["superseded_by_decision_id"] == successor
    assert (await call(client, "review_decisions"))["due"] == []  # its signal was cleared
    errors = [
        await call_error(client, "update_decision", decision_id=successor, status="superseded"),
        await call_error(
            client,
            "update_decision",
            decision_id=successor,
            status="active",
            successor_decision_id=old,
        ),
        await call_error(
            client,
            "update_decision",
            decision_id=successor,
            status="superseded",
            successor_decision_id=successor,
        ),
        await call_error(
            client,
            "update_decision",
            decision_id=successor,
            status="superseded",
            successor_decision_id=old,
        ),
        await call_error(client, "update_decision", decision_id="nope", status="stale"),
    ]
    assert [(e["error"], e.get("field")) for e in errors] == [
        ("invalid_argument", "successor_decision_id"),
        ("invalid_argument", "successor_decision_id"),
        ("invalid_argument", "successor_decision_id"),
        ("invalid_state", None),
        ("not_found", None),
    ]


async def test_dependencies_and_idempotent_retries(client: Client[Any]) -> None:
    fact = await call(client, "record_fact", project="p", key="latency", value=1)
    args = {
        "project": "p",
        "title": "t",
        "choice": "c",
        "depends_on": [fact["id"], "budget"],
        "idempotency_key": "op-1",
    }
    first = await call(client, "record_decision", **args)
    assert first["decision"]["depends_on"] == [
        {"kind": "fact", "ref": fact["id"]},
        {"kind": "key", "ref": "budget"},
    ] or sorted(map(str, first["decision"]["depends_on"])) == sorted(
        map(str, [{"kind": "fact", "ref": fact["id"]}, {"kind": "key", "ref": "budget"}])
    )
    retry = await call(client, "record_decision", **args)
    assert retry["idempotent_replay"] is True
    assert retry["decision"]["id"] == first["decision"]["id"]
    assert retry["revision"] == first["revision"]
    reused = await call_error(client, "record_decision", **{**args, "title": "other"})
    assert reused["error"] == "conflict"
    missing = await call_error(
        client,
        "record_decision",
        project="p",
        title="t",
        choice="c",
        depends_on=["01a22918-aaa4-7cf0-84ba-652f958d1be7"],
    )
    assert missing["error"] == "not_found"


@pytest.mark.parametrize(
    ("rule", "field"),
    [
        (_rule("k", "between", 5), "alternatives.0.reopen_when.0.value"),
        (_rule("k", "between", [10, 5]), "alternatives.0.reopen_when.0.value"),
        (_rule("k", "between", [1, "2026-01-01"]), "alternatives.0.reopen_when.0.value"),
        (_rule("k", "in", 5), "alternatives.0.reopen_when.0.value"),
        (_rule("k", "greater_than", "high"), "alternatives.0.reopen_when.0.value"),
        (_rule("k", "greater_than", "2026-01-01", "d"), "alternatives.0.reopen_when.0.unit"),
        (_rule("k", "matches", 5), "alternatives.0.reopen_when.0.operator"),
        (_rule("k", "greater_than", 5, "m"), "alternatives.0.reopen_when.0.unit"),
        ({"key": "k", "operator": "equals"}, "alternatives.0.reopen_when.0.value"),
        (_rule("", "equals", 5), "alternatives.0.reopen_when.0.key"),
        ({**_rule("k", "equals", 5), "extra": 1}, "alternatives.0.reopen_when.0.extra"),
    ],
)
async def test_malformed_rules_are_refused_naming_the_field(
    client: Client[Any], rule: dict[str, Any], field: str
) -> None:
    payload = await call_error(
        client,
        "record_decision",
        project="p",
        title="t",
        choice="c",
        alternatives=[{"title": "a", "reopen_when": [rule]}],
    )
    assert (payload["error"], payload["field"]) == ("invalid_argument", field)
    maintained = await call(client, "maintain")
    assert maintained["review"]["evaluated_decisions"] == 0  # nothing was written


async def test_record_decision_errors(client: Client[Any]) -> None:
    cases = [
        ({"title": "t", "choice": "c"}, "project"),
        ({"project": "p", "title": "", "choice": "c"}, "title"),
        ({"project": "p", "title": "t", "choice": "c", "id": "mine"}, "id"),
        ({"project": "p", "title": "t", "choice": "c", "depends_on": ["a", "a"]}, "depends_on"),
        ({"project": "p", "title": "t", "choice": "c", "review_after": "tomorrow"}, "review_after"),
    ]
    for arguments, field in cases:
        payload = await call_error(client, "record_decision", **arguments)
        assert (payload["error"], payload["field"]) == ("invalid_argument", field), arguments
    unknown = await call_error(
        client, "record_decision", project="p", title="t", choice="c", supersedes_decision_id="x"
    )
    assert unknown["error"] == "not_found"


async def test_ack_review_errors(client: Client[Any]) -> None:
    assert (await call_error(client, "ack_review", signal_id="nope", note="n"))["error"] == (
        "not_found"
    )
    payload = await call_error(client, "ack_review", signal_id="s", note="")
    assert (payload["error"], payload["field"]) == ("invalid_argument", "note")
    await call(client, "record_fact", project="p", key="latency", value=400)
    [signal] = (await _decide(client, _rule("latency", "greater_than", 300)))["review_signals"]
    await call(client, "ack_review", signal_id=signal["signal_id"], note="seen")
    again = await call_error(client, "ack_review", signal_id=signal["signal_id"], note="seen")
    assert (again["error"], again["state"]) == ("invalid_state", "acknowledged")
    assert (await call_error(client, "review_decisions", limit=0))["field"] == "limit"


# --- attempts, outcomes, maintain ----------------------------------------------------------
async def test_attempts_and_outcomes(client: Client[Any]) -> None:
    decision = (await _decide(client))["decision"]["id"]
    attempt = await call(
        client,
        "record_attempt",
        decision_id=decision,
        title="try memcached",
        evidence=["https://ci/run/1"],
    )
    assert attempt["attempt"]["status"] == "open"
    ended = await call(
        client,
        "record_outcome",
        attempt_id=attempt["attempt"]["id"],
        result="failed",
        lesson="too slow",
        evidence=["bench.txt"],
    )
    assert (ended["attempt"]["status"], ended["attempt"]["result"]) == ("ended", "failed")
    assert ended["outcome"]["lesson"] == "too slow"
    errors = [
        await call_error(
            client, "record_outcome", attempt_id=attempt["attempt"]["id"], result="failed"
        ),
        await call_error(client, "record_outcome", attempt_id="nope", result="failed"),
        await call_error(client, "record_outcome", attempt_id="a", result="won"),
        await call_error(client, "record_attempt", title="t"),
        await call_error(client, "record_attempt", title="t", decision_id="d", workstream_id="w"),
        await call_error(client, "record_attempt", title="t", decision_id="nope"),
        await call_error(client, "record_attempt", title="t", workstream_id="nope"),
        await call_error(client, "record_attempt", title="t", decision_id=decision, evidence=[""]),
    ]
    assert [(e["error"], e.get("field")) for e in errors] == [
        ("invalid_state", None),
        ("not_found", None),
        ("invalid_argument", "result"),
        ("invalid_argument", "decision_id"),
        ("invalid_argument", "decision_id"),
        ("not_found", None),
        ("not_found", None),
        ("invalid_argument", "evidence.0"),
    ]


async def test_maintain_marks_decisions_past_review_after_stale(client: Client[Any]) -> None:
    soon = (datetime.now(UTC) + timedelta(days=30)).isoformat()
    overdue = (await _decide(client, review_after=PAST))["decision"]["id"]
    later = (await _decide(client, review_after=soon))["decision"]["id"]
    review = await call(client, "review_decisions")
    assert [(d["decision_id"], d["review_after_passed"]) for d in review["due"]] == [
        (overdue, True)
    ]
    first = await call(client, "maintain")
    assert (first["stale_decisions"], first["stale_decision_ids"]) == (1, [overdue])
    assert first["revision"] is not None
    second = await call(client, "maintain")
    assert (second["stale_decisions"], second["revision"]) == (0, None)
    assert later not in first["stale_decision_ids"]
    state = await call(client, "update_decision", decision_id=overdue, status="active")
    assert state["previous_status"] == "stale"


async def test_maintain_evaluates_rules_when_facts_lapse(client: Client[Any]) -> None:
    await _decide(client, _rule("latency", "less_than", 1000))
    soon = (datetime.now(UTC) + timedelta(seconds=1)).isoformat()
    fact = await call(client, "record_fact", project="p", key="latency", value=5, expires_at=soon)
    assert len(fact["review_signals"]) == 1
    await _wait_until(soon)
    # before maintain clears the signal, review_decisions already sees the lapse
    assert (await call(client, "review_decisions"))["due"] == []
    done = await call(client, "maintain")
    assert (done["expired_facts"], done["review"]["signals_cleared"]) == (1, 1)
    assert done["review"]["diagnostics"][0]["reason"] == "expired_fact"


async def _wait_until(instant: str) -> None:
    delay = (datetime.fromisoformat(instant) - datetime.now(UTC)).total_seconds()
    await asyncio.sleep(max(delay, 0) + 0.05)


async def test_an_attempt_for_a_workstream(client: Client[Any]) -> None:
    workstream = await call(client, "create_workstream", project="p", title="Speed up search")
    workstream_id = workstream["workstream"]["id"]
    attempt = await call(client, "record_attempt", workstream_id=workstream_id, title="try a cache")
    assert (attempt["attempt"]["workstream_id"], attempt["attempt"]["decision_id"]) == (
        workstream_id,
        None,
    )
    ended = await call(
        client, "record_outcome", attempt_id=attempt["attempt"]["id"], result="partial"
    )
    assert ended["attempt"]["result"] == "partial"

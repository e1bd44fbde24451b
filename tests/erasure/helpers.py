"""Shared by the erasure tests: a probe string written through every tool that stores text,
every read path asked for it, and a raw scan of the tenant's properties."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, LiteralString, cast

import neo4j
from fastmcp import Client

from graphmem.console.terminal import progress_bar
from graphmem.store import Store
from graphmem.transfer.export import export_tenant
from tests.app.helpers import clean_env
from tests.history.helpers import key_file_of
from tests.neo4j_endpoint import Endpoint
from tests.support import call

PROBE = "Quillfeather"
NEEDLE = PROBE.lower()[:10]  # what survives stemming and case folding: "quillfeath"
PROJECT = "erasable"
KEY = "probe.key"
TOPIC = "probe-topic"


async def write_the_probe(client: Client[Any]) -> dict[str, Any]:
    """The probe through every tool that stores text; the ids it made."""
    ids = await _facts_and_decisions(client)
    await _knowledge(client)
    await _work_and_archive(client, ids)
    return ids


async def _facts_and_decisions(client: Client[Any]) -> dict[str, Any]:
    p = {"project": PROJECT}
    memory = await call(
        client,
        "save_memory",
        **p,
        title=f"{PROBE} notes",
        content=f"{PROBE} lives in the archive",
        topic_key=TOPIC,
    )
    fact = await call(
        client, "record_fact", **p, key=KEY, value=f"{PROBE} value", idempotency_key="probe-fact"
    )
    rule = {"key": KEY, "operator": "equals", "value": "other"}
    alternative = {"title": f"drop {PROBE}", "why_rejected": PROBE, "reopen_when": [rule]}
    decision = await call(
        client,
        "record_decision",
        **p,
        title=f"{PROBE} decision",
        choice=f"keep {PROBE}",
        rationale=f"because {PROBE}",
        alternatives=[alternative],
    )
    decision_id = decision["decision"]["id"]
    attempt = await call(
        client, "record_attempt", decision_id=decision_id, title=f"try {PROBE}", description=PROBE
    )
    await call(
        client,
        "record_outcome",
        attempt_id=attempt["attempt"]["id"],
        result="failed",
        summary=f"{PROBE} failed",
        lesson=PROBE,
    )
    await call(
        client,
        "link_impact",
        source_kind="fact",
        source_ref=fact["id"],
        target_kind="decision",
        target_ref=decision_id,
        impact_type="informs",
        rationale=f"{PROBE} matters",
    )
    return {"memory": memory["memory"]["id"], "fact": fact["id"], "decision": decision_id}


async def _knowledge(client: Client[Any]) -> None:
    body = f"ENRICH_OK The {PROBE} service depends on the message queue."
    chunk = (await call(client, "add_context_chunk", project=PROJECT, body=body))["chunk"]
    claims = await call(client, "extract_candidate_claims", chunk_ref=chunk["id"])
    await call(client, "promote_candidate", claim_id=claims["claims"][0]["claim_id"])
    await call(client, "queue_clarification", chunk_ref=chunk["id"])
    await call(
        client,
        "record_human_answer",
        chunk_ref=chunk["id"],
        answer_text=f"{PROBE} is the ingest service",
    )


async def _work_and_archive(client: Client[Any], ids: dict[str, Any]) -> None:
    p = {"project": PROJECT}
    workstream = await call(
        client, "create_workstream", **p, title=f"{PROBE} stream", next_action=f"ship {PROBE}"
    )
    workstream_id = workstream["workstream"]["id"]
    await call(client, "update_workstream", id=workstream_id, blockers=[f"{PROBE} review"])
    await call(
        client,
        "record_commit",
        **p,
        sha="ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12",
        message=f"fix {PROBE}",
    )
    turn = {"role": "user", "content": f"what is {PROBE}?", "ts": datetime.now(UTC).isoformat()}
    await call(
        client,
        "archive_turns",
        **p,
        session_ref="probe-session",
        host="h",
        source_root="/r",
        turns=[turn],
    )
    await call(client, "build_context_pack", target_ref=workstream_id)


def cli_env(
    endpoint: Endpoint, store: Store, tenant: str, folder: Path, **extra: str
) -> dict[str, str]:
    """The environment of a `graphmem` command on the test's tenant, chaining with the
    test store's history key."""
    return clean_env(
        **endpoint.env(),
        GRAPHMEM_TENANT=tenant,
        GRAPHMEM_HISTORY_KEY_FILE=str(key_file_of(store, folder)),
        **extra,
    )


async def confirm(client: Client[Any], dry: dict[str, Any], **selector: Any) -> dict[str, Any]:
    """The confirmed run of a dry run's selection (its fingerprint)."""
    return await call(
        client,
        "erase",
        **selector,
        dry_run=False,
        confirm_destructive=True,
        reason="a deletion request",
        expected_fingerprint=dry["fingerprint"],
    )


async def erase(client: Client[Any], **selector: Any) -> dict[str, Any]:
    """A dry run of ``selector``, then its confirmation; the confirmed run's answer."""
    return await confirm(client, await call(client, "erase", **selector), **selector)


async def reads(client: Client[Any], ids: dict[str, Any]) -> dict[str, Any]:
    """Every read path's answer about the probe (errors answered as their payloads)."""
    asked: dict[str, tuple[str, dict[str, Any]]] = {
        "search": ("search", {"query": PROBE}),
        "search_raw": ("search_raw", {"query": PROBE}),
        "current_state": ("current_state", {"state_key": KEY, "project": PROJECT}),
        "timeline": ("timeline", {"query": PROBE}),
        "timeline_raw": ("timeline", {"query": PROBE, "source": "raw"}),
        "timeline_report": ("timeline_report", {"project": PROJECT}),
        "observations": ("get_observations", {"ids": [ids["memory"]]}),
        "recall": ("recall_user_context", {"query": PROBE, "project": PROJECT}),
        "bundle": ("context_bundle", {"schema_version": 1, "task": PROBE, "project": PROJECT}),
        "replay": ("replay_memory", {"limit": 500}),
        "sessions": ("list_raw_sessions", {}),
        "decisions": ("review_decisions", {"project": PROJECT}),
        "impact": ("explain_impact", {"source_ref": ids["fact"]}),
        "workstreams": ("workstreams", {"project": PROJECT}),
        "commit": ("lookup_commit", {"sha": "ab12cd34ef56ab12cd34ef56ab12cd34ef56ab12"}),
        "issues": ("list_memory_issues", {}),
    }
    answers = {}
    for name, (tool, arguments) in asked.items():
        result = await client.call_tool(tool, arguments, raise_on_error=False)
        answers[name] = result.structured_content or result.content[0].text  # type: ignore[union-attr]
    return answers


ECHOES = {"query", "task", "lucene_query"}  # where an answer repeats the question


def _without_echoes(answer: Any) -> Any:
    if isinstance(answer, dict):
        return {k: _without_echoes(v) for k, v in answer.items() if k not in ECHOES}
    if isinstance(answer, list):
        return [_without_echoes(item) for item in answer]
    if isinstance(answer, str):
        return answer.replace(f"query '{PROBE}'", "query")
    return answer


def holding_the_probe(answers: dict[str, Any]) -> list[str]:
    """The reads whose answer holds the probe beyond repeating the question."""
    return [
        name
        for name, answer in answers.items()
        if NEEDLE in json.dumps(_without_echoes(answer)).lower()
    ]


async def scan_tenant(driver: neo4j.AsyncDriver, tenant: str) -> list[str]:
    """Every property of every node of the tenant, and of their relationships, that holds
    the probe: where it is, as label.property."""
    records, _, _ = await driver.execute_query(
        "MATCH (n) WHERE n.tenant = $tenant "
        "OPTIONAL MATCH (n)-[r]-() "
        "RETURN labels(n) AS labels, properties(n) AS node, type(r) AS type, "
        "properties(r) AS rel",
        tenant=tenant,
    )
    found = set()
    for record in records:
        for owner, properties in (
            (record["labels"], record["node"]),
            ([record["type"]], record["rel"] or {}),
        ):
            for name, value in properties.items():
                if NEEDLE in json.dumps(value, default=str).lower():
                    found.add(f"{':'.join(map(str, owner))}.{name}")
    return sorted(found)


async def exported(store: Store, tenant: str, folder: Path) -> str:
    path = folder / f"{tenant}.jsonl"
    with progress_bar("exporting", None) as bar:
        await export_tenant(store, tenant, path, bar)
    return path.read_text().lower()


async def confirmed_while_locked(
    client: Client[Any],
    raw_driver: neo4j.AsyncDriver,
    tenant: str,
    dry: dict[str, Any],
    meanwhile: tuple[str, dict[str, Any]],
    **selector: Any,
) -> dict[str, Any]:
    """The confirmation of ``dry`` started while a raw transaction holds the tenant's lock (as
    a writer takes it); that transaction then runs ``meanwhile`` (a statement and its
    parameters: another writer's work, after the plan and before the first batch) and commits.
    The confirmed run's answer."""
    async with raw_driver.session() as session:
        holding = await session.begin_transaction()
        await holding.run(
            "MATCH (h:History {tenant: $tenant}) SET h.lock_token = 'test'", tenant=tenant
        )
        running = asyncio.create_task(confirm(client, dry, **selector))
        await asyncio.sleep(1.0)
        assert not running.done(), "the erasure should wait for the tenant's lock"
        statement, parameters = meanwhile
        await holding.run(cast("LiteralString", statement), tenant=tenant, **parameters)
        await holding.commit()
        return await running

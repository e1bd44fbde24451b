"""enrich_context through the MCP surface: each depth's stages and counters, warm task packs,
the per-run bound, argument errors, and all-or-nothing (a failure mid-run keeps nothing)."""

from __future__ import annotations

from typing import Any

import pytest
from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.core.ids import new_id
from graphmem.core.settings import Settings
from graphmem.knowledge import enrich
from graphmem.store import Store
from tests.support import WholeRecordClient, call, call_error, revision

SERVICE = "The ingest service depends on the message queue. ENRICH_OK"
BRIDGE = "The bridge sync depends on the mapping table. ENRICH_OK"  # sensitive scope
VAGUE = "Caroline is a counselor. ENRICH_OK"  # an 'is' claim: confidence 0.4


async def chunk(client: Client[Any], body: str, **fields: Any) -> dict[str, Any]:
    return await call(client, "add_context_chunk", project="p", body=body, **fields)


async def reread(client: Client[Any], body: str) -> dict[str, Any]:
    """A chunk as stored now (the same body again writes nothing and returns it)."""
    again = await chunk(client, body)
    assert again["created"] is False and again["revision"] is None
    return again["chunk"]


async def enrich_run(client: Client[Any], **arguments: Any) -> dict[str, Any]:
    return await call(client, "enrich_context", **arguments)


async def workstream(fixtures: Store, tenant: str, title: str, status: str = "active") -> str:
    ws_id = new_id()
    await fixtures.write(
        "knowledge/create_workstream_fixture",
        tenant,
        id=ws_id,
        title=title,
        next_action="",
        status=status,
    )
    return ws_id


def merged(steps: list[dict[str, int]]) -> dict[str, int]:
    return {name: value for step in steps for name, value in step.items()}


async def test_quick_assesses_enrichable_chunks_and_builds_packs(
    client: Client[Any], fixture_store: Store, tenant: str
) -> None:
    service = (await chunk(client, SERVICE))["chunk"]
    await chunk(client, VAGUE)
    idle = (await chunk(client, "Notes without any marker."))["chunk"]
    assert (service["state"], service["materiality"], idle["state"]) == (
        "enrichable",
        None,
        "no_enrich",
    )
    before = await revision(client)
    result = await enrich_run(client)
    assert result["depth"] == "quick"
    assert [list(step) for step in result["steps"]] == [
        ["assess", "assess_skipped", "state_changes", "now_enrichable", "now_uncertain"],
        ["executor_pack_items", "executor_pack_tokens"],
        ["task_packs_built", "task_packs_with_context"],
    ]
    counters = merged(result["steps"])
    assert (counters["assess"], counters["now_enrichable"], counters["state_changes"]) == (2, 2, 0)
    assert (counters["task_packs_built"], counters["task_packs_with_context"]) == (0, 0)
    for absent in ("claims_extracted", "claims_promoted", "promoted_facts", "impacts_analyzed"):
        assert result[absent] is None
    assert result["truncated"] is False
    assert counters["executor_pack_items"] == 2  # the two assessed chunks, as fragments
    assert result["pack_body"].startswith("## Context Fragments\n- [chunk enrichable 0.10] ")
    assert "Notes without any marker" not in result["pack_body"]  # no_enrich is not assessed
    assert (await reread(client, SERVICE))["materiality"] == 0.1
    assert (await reread(client, "Notes without any marker."))["materiality"] is None
    # a batch for the chunks (its run event), then one for the packs (the pack's event and
    # its run event): the last one is the run's
    assert result["revision"] == before + 3 == await revision(client)
    assert (result["batches"], result["continuation"]) == (2, None)
    events = (await call(client, "replay_memory", limit=2))["events"]
    assert [e["aggregate_kind"] for e in events] == ["enrich_run", "pack"]
    assert events[0]["payload"]["depth"] == "quick"


async def test_warm_task_packs_for_active_workstreams(
    client: Client[Any], fixture_store: Store, tenant: str
) -> None:
    busy = await workstream(fixture_store, tenant, "Ingest pipeline")
    await workstream(fixture_store, tenant, "Quarterly gardening")  # nothing about it
    await workstream(fixture_store, tenant, "Ingest archive", status="done")  # not active
    await chunk(client, "Kickoff notes, see the board. ENRICH_OK", workstream_id=busy)
    result = await enrich_run(client)
    counters = merged(result["steps"])
    assert (counters["task_packs_built"], counters["task_packs_with_context"]) == (2, 1)
    # rows of the test statement: the pack's properties, its INCLUDES edges, its workstreams
    packs: list[dict[str, Any]] = await fixture_store.read("knowledge/list_pack_fixture", tenant)
    scoped = [row for row in packs if row["workstreams"]]
    assert [row["workstreams"] for row in scoped] == [[busy]]
    assert all(row["pack"]["status"] == "current" for row in packs)
    again = await enrich_run(client)  # the next run replaces them
    packs = await fixture_store.read("knowledge/list_pack_fixture", tenant)
    assert sorted(row["pack"]["status"] for row in packs) == ["current"] * 2 + ["retired"] * 2
    assert merged(again["steps"])["task_packs_with_context"] == 1


async def test_standard_extracts_and_auto_promotes_eligible_claims(client: Client[Any]) -> None:
    for body in (SERVICE, BRIDGE, VAGUE):
        await chunk(client, body)
    result = await enrich_run(client, depth="standard")
    counters = merged(result["steps"])
    assert counters["extract"] == 3
    assert result["claims_extracted"] == 3 == counters["claims_created"]
    # only the memory-scope depends_on claim passes auto_layer1 (bridge: a human must
    # confirm; 'is': confidence 0.4)
    assert counters["promote_eligible"] == 1
    assert result["claims_promoted"] == 1 and len(result["promoted_facts"]) == 1
    assert result["impacts_analyzed"] is None
    assert "- [fact 0.70, " in result["pack_body"]
    assert "ingest service depends on message queue" in result["pack_body"]
    assert "## Provisional Claims (unverified)" in result["pack_body"]
    # the promoted fact is a live fact the tools see
    [fact_id] = result["promoted_facts"]
    impact = await call(client, "explain_impact", source_ref=fact_id, depth="quick")
    assert impact["total_impacts"] == 1  # the executor pack that includes it
    # a second run finds nothing new to extract or promote
    again = await enrich_run(client, depth="standard")
    assert merged(again["steps"])["claims_created"] == 0
    assert again["claims_promoted"] == 0 and again["promoted_facts"] == []


async def test_deep_walks_the_impact_of_recent_facts(client: Client[Any]) -> None:
    await chunk(client, SERVICE)
    recorded = await call(client, "record_fact", project="p", key="owner", value="team-a")
    result = await enrich_run(client, depth="deep")
    counters = merged(result["steps"])
    assert result["claims_promoted"] == 1
    assert result["impacts_analyzed"] == 2 == counters["impacts_analyzed"]  # promoted + recent
    assert counters["impact_targets"] == 2  # each fact reaches the executor pack
    assert list(result["steps"][-1]) == ["impacts_analyzed", "impact_targets"]
    assert recorded["key"] in result["pack_body"]


async def test_wrong_depth_is_refused_and_writes_nothing(client: Client[Any]) -> None:
    await chunk(client, SERVICE)
    before = await revision(client)
    for depth in ("fast", 3, None, "QUICK"):
        error = await call_error(client, "enrich_context", depth=depth)
        assert (error["error"], error["field"]) == ("invalid_argument", "depth"), depth
    extra = await call_error(client, "enrich_context", force=True)
    assert extra["error"] == "invalid_argument"
    assert await revision(client) == before


async def test_a_failure_mid_run_keeps_nothing(
    client: Client[Any], fixture_store: Store, tenant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for body in (SERVICE, BRIDGE):
        await chunk(client, body)
    before = await revision(client)
    real = enrich.promote_in_tx
    calls = 0

    async def failing(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        await real(*args, **kwargs)  # the promotion is written, then the run fails
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(enrich, "promote_in_tx", failing)
    result = await client.call_tool("enrich_context", {"depth": "deep"}, raise_on_error=False)
    assert result.is_error and calls == 1
    assert await revision(client) == before
    for body in (SERVICE, BRIDGE):
        assert (await reread(client, body))["materiality"] is None  # not even assessed
    assert await fixture_store.read("knowledge/list_pack_fixture", tenant) == []
    assert (await call(client, "replay_memory", aggregate_kind="claim"))["count"] == 0
    monkeypatch.setattr(enrich, "promote_in_tx", real)
    assert (await enrich_run(client, depth="deep"))["claims_promoted"] == 1


async def test_a_pass_runs_in_batches_and_the_next_call_continues_it(
    client: Client[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    bodies = [f"Chunk number {n} of the notes. ENRICH_OK" for n in range(3)]
    for body in bodies:
        await chunk(client, body)
    monkeypatch.setattr(enrich, "CHUNK_BATCH", 2)
    monkeypatch.setattr(enrich, "CALL_BUDGET", 0.0)  # one batch a call
    before = await revision(client)
    first = await enrich_run(client)
    assert merged(first["steps"])["assess"] == 2 and first["pack_body"] == ""
    assert first["revision"] == before + 1  # its own transaction and event
    assessed = [(await reread(client, body))["materiality"] is not None for body in bodies]
    assert assessed == [True, True, False]  # longest untouched first
    token = first["continuation"]
    wrong_depth = await call_error(client, "enrich_context", depth="deep", continuation=token)
    assert (wrong_depth["error"], wrong_depth["field"]) == ("invalid_argument", "depth")
    second = await enrich_run(client, continuation=token)  # each chunk once a pass
    assert merged(second["steps"])["assess"] == 1 and second["continuation"] is not None
    assert (await reread(client, bodies[2]))["materiality"] is not None
    third = await enrich_run(client, continuation=second["continuation"])
    assert list(merged(third["steps"])) == [
        "executor_pack_items",
        "executor_pack_tokens",
        "task_packs_built",
        "task_packs_with_context",
    ]
    assert third["continuation"] is None and third["pack_body"]
    forged = await call_error(client, "enrich_context", continuation=token + "x")
    assert (forged["error"], forged["field"]) == ("invalid_argument", "continuation")


async def test_uncertain_chunks_are_mined_in_batches(
    client: Client[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(3):
        await chunk(client, f"Maybe the service {n} depends on queue {n}, I think. ENRICH_OK")
    first = await enrich_run(client)  # quick: assessing leaves them uncertain
    assert merged(first["steps"])["now_uncertain"] == 3
    monkeypatch.setattr(enrich, "CHUNK_BATCH", 2)
    result = await enrich_run(client, depth="standard")
    # the assess phase finds no enrichable chunk; the uncertain ones are mined 2 + 1
    assert merged(result["steps"])["extract"] == 3 and result["batches"] == 4


async def test_under_the_auto_policy_unassessed_chunks_are_unlocked(
    store: Store, settings: Settings
) -> None:
    auto = settings.model_copy(update={"enrich_policy": "auto"})
    async with WholeRecordClient(create_server(store, auto)) as client:
        plain = await chunk(client, "The importer uses a staging table.")
        opted_out = await chunk(client, "NO_ENRICH The exporter uses a cache.")
        result = await enrich_run(client, depth="standard")
        assert merged(result["steps"])["assess"] == 2
        assert (await reread(client, plain["chunk"]["body"]))["state"] == "enrichable"
        assert (await reread(client, opted_out["chunk"]["body"]))["state"] == "no_enrich"
        assert result["claims_extracted"] == 1  # only the unlocked chunk is mined

"""Impact through the MCP surface: link_impact's contract and explain_impact's bounded walk
(best path per target, cycles, depth limits, validity, derived decision and pipeline edges)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from fastmcp import Client

from graphmem.app.server import create_server
from graphmem.impact import service as impact
from graphmem.store import Store
from tests.support import call, call_error, revision


async def fact(client: Client[Any], key: str, **fields: Any) -> str:
    recorded = await call(client, "record_fact", project="p", key=key, value=key, **fields)
    return recorded["id"]


async def link(
    client: Client[Any],
    source: str,
    target: str,
    score: float = 0.5,
    target_kind: str = "fact",
    impact_type: str = "informs",
    **fields: Any,
) -> dict[str, Any]:
    return await call(
        client,
        "link_impact",
        source_kind=fields.pop("source_kind", "fact"),
        source_ref=source,
        target_kind=target_kind,
        target_ref=target,
        impact_type=impact_type,
        score=score,
        **fields,
    )


async def explain(client: Client[Any], source: str, **arguments: Any) -> dict[str, Any]:
    return await call(client, "explain_impact", source_ref=source, **arguments)


def reached(result: dict[str, Any], kind: str = "fact") -> dict[str, tuple[float, int]]:
    """target_ref -> (propagated score, depth) for one kind."""
    return {
        item["target_ref"]: (item["propagated_score"], item["depth"])
        for item in result["impacts_by_kind"][kind]
    }


# --- link_impact ---------------------------------------------------------------------------------
async def test_link_to_an_external_target_is_recorded_with_one_event(client: Client[Any]) -> None:
    source = await fact(client, "latency")
    before = await revision(client)
    linked = await link(
        client,
        source,
        "run-42",
        score=0.7,
        target_kind="validation",
        impact_type="risks",
        rationale="the run checks latency",
        actor="qa",
    )
    assert linked["created"] is True
    assert linked["source"] == {"kind": "fact", "ref": source}
    assert linked["target"] == {"kind": "validation", "ref": "run-42"}
    assert (linked["impact_type"], linked["score"], linked["rationale"]) == (
        "risks",
        0.7,
        "the run checks latency",
    )
    assert linked["revision"] == before + 1 == await revision(client)
    events = await call(client, "replay_memory", aggregate_kind="impact")
    assert events["count"] == 1
    event = events["events"][0]
    assert (event["event_type"], event["aggregate_id"], event["actor"]) == (
        "link_impact",
        linked["edge_id"],
        "qa",
    )
    assert source in event["subject_ids"]


async def test_linking_the_same_triple_again_updates_it(client: Client[Any]) -> None:
    source, target = await fact(client, "a"), await fact(client, "b")
    first = await link(client, source, target, score=0.4, rationale="first")
    again = await link(client, source, target, score=0.9, rationale="second")
    assert again["created"] is False
    assert again["edge_id"] == first["edge_id"]
    assert again["created_at"] == first["created_at"]
    assert (again["score"], again["rationale"]) == (0.9, "second")
    assert again["revision"] == first["revision"] + 1  # an update is a write too
    other_type = await link(client, source, target, score=0.2, impact_type="blocks")
    assert other_type["created"] is True and other_type["edge_id"] != first["edge_id"]
    explained = await explain(client, source)
    assert explained["total_impacts"] == 1  # one target, reported once, by its best link
    assert explained["impacts_by_kind"]["fact"][0]["edge_score"] == 0.9


async def test_an_external_target_is_one_node_whatever_links_to_it(client: Client[Any]) -> None:
    a, b = await fact(client, "a"), await fact(client, "b")
    await link(client, a, b, score=1.0)
    await link(client, a, "s-1", target_kind="session", score=0.3)
    await link(client, b, "s-1", target_kind="session", score=0.6)
    sessions = (await explain(client, a))["impacts_by_kind"]["session"]
    assert [(s["target_ref"], s["propagated_score"], s["depth"]) for s in sessions] == [
        ("s-1", 0.6, 2)
    ]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("source_kind", "session"),
        ("source_kind", "decision"),
        ("target_kind", "claim"),
        ("target_kind", "nothing"),
        ("impact_type", "breaks"),
        ("score", -0.01),
        ("score", 1.01),
        ("score", "0.5"),
        ("source_ref", ""),
        ("target_ref", ""),
        ("target_ref", " padded"),
        ("rationale", "x" * 2001),
    ],
)
async def test_link_arguments_are_checked(client: Client[Any], field: str, value: Any) -> None:
    source = await fact(client, "a")
    arguments = {
        "source_kind": "fact",
        "source_ref": source,
        "target_kind": "session",
        "target_ref": "s-1",
        "impact_type": "informs",
        field: value,
    }
    before = await revision(client)
    payload = await call_error(client, "link_impact", **arguments)
    assert (payload["error"], payload["field"]) == ("invalid_argument", field)
    assert await revision(client) == before


async def test_a_fact_cannot_impact_itself(client: Client[Any]) -> None:
    source = await fact(client, "a")
    payload = await call_error(
        client,
        "link_impact",
        source_kind="fact",
        source_ref=source,
        target_kind="fact",
        target_ref=source,
        impact_type="informs",
    )
    assert payload == {
        "error": "invalid_argument",
        "field": "target_ref",
        "message": "target_ref: a fact cannot impact itself",
    }


@pytest.mark.parametrize(
    ("source_kind", "target_kind", "missing"),
    [
        ("fact", "session", "source"),
        ("claim", "session", "source"),
        ("chunk", "export", "source"),
        ("fact", "fact", "target"),
        ("fact", "decision", "target"),
    ],
)
async def test_unknown_ends_are_not_found_and_nothing_is_written(
    client: Client[Any], source_kind: str, target_kind: str, missing: str
) -> None:
    existing = await fact(client, "a")
    source = "no-such-source" if missing == "source" else existing
    target = "no-such-target" if missing == "target" else "ref-1"
    before = await revision(client)
    payload = await call_error(
        client,
        "link_impact",
        source_kind=source_kind,
        source_ref=source,
        target_kind=target_kind,
        target_ref=target,
        impact_type="informs",
    )
    kind, ref = (source_kind, source) if missing == "source" else (target_kind, target)
    assert payload == {"error": "not_found", "message": f"{kind} {ref!r} not found"}
    assert await revision(client) == before
    # A refused external target was not created either: nothing links to it.
    assert (await explain(client, existing))["total_impacts"] == 0


# --- explain_impact: the walk --------------------------------------------------------------------
async def test_a_chain_multiplies_scores_and_reports_each_hop(client: Client[Any]) -> None:
    a, b, c = await fact(client, "a"), await fact(client, "b"), await fact(client, "c")
    await link(client, a, b, score=0.5, rationale="a feeds b")
    await link(client, b, c, score=0.8, impact_type="blocks")
    await link(client, c, "exp-1", score=0.9, target_kind="export", impact_type="invalidates")
    result = await explain(client, a)
    assert (result["source"], result["depth"], result["max_depth"]) == (f"fact:{a}", "standard", 3)
    assert reached(result) == {b: (0.5, 1), c: (0.4, 2)}
    export = result["impacts_by_kind"]["export"][0]
    assert export == {
        "target_kind": "export",
        "target_ref": "exp-1",
        "label": None,
        "impact_type": "invalidates",
        "edge_score": 0.9,
        "propagated_score": 0.36,
        "depth": 3,
        "rationale": None,
        "path": [
            {
                "from": f"fact:{a}",
                "to": f"fact:{b}",
                "via": "IMPACTS",
                "impact_type": "informs",
                "score": 0.5,
                "rationale": "a feeds b",
            },
            {
                "from": f"fact:{b}",
                "to": f"fact:{c}",
                "via": "IMPACTS",
                "impact_type": "blocks",
                "score": 0.8,
                "rationale": None,
            },
            {
                "from": f"fact:{c}",
                "to": "export:exp-1",
                "via": "IMPACTS",
                "impact_type": "invalidates",
                "score": 0.9,
                "rationale": None,
            },
        ],
    }
    assert result["impacts_by_kind"]["fact"][0]["label"] == "b"  # a fact's label is its key
    assert result["total_impacts"] == 3 and result["truncated"] is False
    assert (
        result["summary"]
        == "export: 1 affected (max score: 0.36); fact: 2 affected (max score: 0.50)"
    )


async def test_a_diamond_reports_its_end_once_by_the_best_path(client: Client[Any]) -> None:
    a, b, c, d = [await fact(client, key) for key in "abcd"]
    await link(client, a, b, score=0.9)
    await link(client, a, c, score=0.5)
    await link(client, b, d, score=0.5)  # 0.45 through b
    await link(client, c, d, score=1.0)  # 0.50 through c: the best
    await link(client, a, d, score=0.3)  # direct, but weaker
    result = await explain(client, a)
    assert reached(result) == {b: (0.9, 1), c: (0.5, 1), d: (0.5, 2)}
    best = next(i for i in result["impacts_by_kind"]["fact"] if i["target_ref"] == d)
    assert [hop["to"] for hop in best["path"]] == [f"fact:{c}", f"fact:{d}"]
    assert [i["target_ref"] for i in result["impacts_by_kind"]["fact"]] == [b, c, d]


async def test_equal_scores_prefer_the_shorter_path(client: Client[Any]) -> None:
    a, b, e = await fact(client, "a"), await fact(client, "b"), await fact(client, "e")
    await link(client, a, b, score=1.0)
    await link(client, b, e, score=0.5)
    await link(client, a, e, score=0.5)
    result = await explain(client, a, depth="deep")
    assert reached(result)[e] == (0.5, 1)


async def test_a_later_better_path_replaces_an_earlier_one_within_the_depth(
    client: Client[Any],
) -> None:
    a, b, c, d = [await fact(client, key) for key in "abcd"]
    await link(client, a, d, score=0.1)  # found first, at one hop
    await link(client, a, b, score=1.0)
    await link(client, b, c, score=1.0)
    await link(client, c, d, score=0.9)  # three hops, better
    await link(client, d, "v-1", target_kind="validation", score=1.0)
    standard = await explain(client, a)
    assert reached(standard)[d] == (0.9, 3)
    # d's improved path has three hops, so v-1 at four is out of reach: it keeps the path
    # through the direct link.
    assert reached(standard, "validation") == {"v-1": (0.1, 2)}
    deep = await explain(client, a, depth="deep")
    assert reached(deep, "validation") == {"v-1": (0.9, 4)}


async def test_cycles_terminate_and_report_each_node_once(client: Client[Any]) -> None:
    a, b, c = await fact(client, "a"), await fact(client, "b"), await fact(client, "c")
    for source, target in ((a, b), (b, c), (c, a), (b, a), (c, b)):
        await link(client, source, target, score=1.0)
    await link(client, c, "snap-1", target_kind="snapshot", score=1.0)
    result = await explain(client, a, depth="deep")
    assert reached(result) == {b: (1.0, 1), c: (1.0, 2)}  # the source is never a target
    assert reached(result, "snapshot") == {"snap-1": (1.0, 3)}
    assert result["total_impacts"] == 3


async def test_depth_limits_the_hops_walked(client: Client[Any]) -> None:
    chain = [await fact(client, f"k{i}") for i in range(7)]
    for source, target in itertools.pairwise(chain):
        await link(client, source, target, score=1.0)
    expected = {"quick": 1, "standard": 3, "deep": 5, "DEEP ": 5, "bogus": 3, "": 3}
    for depth, hops in expected.items():
        result = await explain(client, chain[0], depth=depth)
        assert result["max_depth"] == hops, depth
        assert result["depth"] == {1: "quick", 3: "standard", 5: "deep"}[hops]
        assert set(reached(result)) == set(chain[1 : hops + 1]), depth
    assert (await explain(client, chain[0]))["depth"] == "standard"


async def test_facts_no_longer_valid_are_left_out_and_not_walked_through(
    client: Client[Any],
) -> None:
    a = await fact(client, "a")
    invalidated, after_invalidated = await fact(client, "inv"), await fact(client, "x")
    superseded, after_superseded = await fact(client, "sup"), await fact(client, "y")
    lapsed = await fact(
        client,
        "lapsed",
        valid_from="2020-01-01T00:00:00+00:00",
        expires_at="2020-02-01T00:00:00+00:00",
    )
    kept = await fact(client, "kept")
    for target in (invalidated, superseded, lapsed, kept):
        await link(client, a, target, score=0.9)
    await link(client, invalidated, after_invalidated, score=1.0)
    await link(client, superseded, after_superseded, score=1.0)
    await call(client, "govern_fact", fact_id=invalidated, action="invalidate")
    await fact(client, "sup")  # a new observation of the key supersedes the old fact
    result = await explain(client, a, depth="deep")
    assert reached(result) == {kept: (0.9, 1)}
    # The source itself is walked whatever its state.
    assert reached(await explain(client, invalidated)) == {after_invalidated: (1.0, 1)}


async def test_external_targets_are_grouped_by_kind_in_a_fixed_order(client: Client[Any]) -> None:
    a = await fact(client, "a")
    for kind, ref, score in (
        ("export", "e-1", 0.2),
        ("session", "s-1", 0.4),
        ("session", "s-2", 0.8),
        ("mapping", "m-1", 0.55),
        ("snapshot", "n-1", 0.1),
        ("validation", "v-1", 1.0),
    ):
        await link(client, a, ref, score=score, target_kind=kind)
    result = await explain(client, a, depth="quick")
    assert list(result["impacts_by_kind"]) == [
        "session",
        "snapshot",
        "mapping",
        "validation",
        "export",
        "fact",
        "claim",
        "decision",
        "pack",
    ]
    assert [s["target_ref"] for s in result["impacts_by_kind"]["session"]] == ["s-2", "s-1"]
    assert result["summary"] == (
        "session: 2 affected (max score: 0.80); snapshot: 1 affected (max score: 0.10); "
        "mapping: 1 affected (max score: 0.55); validation: 1 affected (max score: 1.00); "
        "export: 1 affected (max score: 0.20)"
    )


async def test_a_source_without_links_has_nothing_affected(client: Client[Any]) -> None:
    lonely = await fact(client, "lonely")
    result = await explain(client, lonely, depth="quick")
    assert result["total_impacts"] == 0
    assert all(found == [] for found in result["impacts_by_kind"].values())
    assert result["summary"] == "nothing affected within 1 hop"
    assert (await explain(client, lonely))["summary"] == "nothing affected within 3 hops"


async def test_explaining_writes_nothing(client: Client[Any]) -> None:
    a, b = await fact(client, "a"), await fact(client, "b")
    await link(client, a, b)
    before = await revision(client)
    await explain(client, a, depth="deep")
    assert await revision(client) == before
    listed = {tool.name: tool for tool in await client.list_tools()}
    annotations = listed["explain_impact"].annotations
    assert annotations is not None and annotations.read_only_hint is True


async def test_bounds_cut_the_walk_and_say_so(
    client: Client[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b, c = await fact(client, "a"), await fact(client, "b"), await fact(client, "c")
    for ref, score in (("s-1", 0.9), ("s-2", 0.8), ("s-3", 0.7)):
        await link(client, a, ref, score=score, target_kind="session")
    await link(client, a, b, score=0.6)
    await link(client, a, c, score=0.5)
    await link(client, c, "m-1", score=1.0, target_kind="mapping")
    whole = await explain(client, a)
    assert (whole["total_impacts"], whole["truncated"]) == (6, False)

    monkeypatch.setattr(impact, "MAX_TARGETS", 2)
    capped = await explain(client, a)
    assert (capped["total_impacts"], capped["truncated"]) == (2, True)
    assert reached(capped, "session") == {"s-1": (0.9, 1), "s-2": (0.8, 1)}  # the best kept
    assert capped["summary"] == "session: 2 affected (max score: 0.90); truncated"
    monkeypatch.undo()

    monkeypatch.setattr(impact, "FANOUT", 4)  # of a's five links, the best four are read
    fanned = await explain(client, a)
    assert fanned["truncated"] is True
    assert c not in reached(fanned) and "m-1" not in reached(fanned, "mapping")
    monkeypatch.undo()

    monkeypatch.setattr(impact, "MAX_FRONTIER", 1)  # only b, the better fact, is expanded
    narrow = await explain(client, a)
    assert narrow["truncated"] is True
    assert c in reached(narrow) and reached(narrow, "mapping") == {}


# --- explain_impact: refusals ----------------------------------------------------------------
async def test_unknown_and_foreign_sources_are_the_same_not_found(
    client: Client[Any], store: Store, settings: Any
) -> None:
    a = await fact(client, "a")
    unknown = await call_error(client, "explain_impact", source_ref="never-existed")
    assert unknown == {"error": "not_found", "message": "fact 'never-existed' not found"}
    claim = await call_error(client, "explain_impact", source_ref=a, source_kind="claim")
    assert claim == {"error": "not_found", "message": f"claim {a!r} not found"}
    tenant_b = settings.tenant + "-b"
    server_b = create_server(store, settings.model_copy(update={"tenant": tenant_b}))
    try:
        async with Client(server_b) as b:
            foreign = await call_error(b, "explain_impact", source_ref=a)
            twin = await call_error(b, "explain_impact", source_ref="never-existed")
    finally:
        await store.purge_tenant(tenant_b)
    assert foreign == {"error": "not_found", "message": f"fact {a!r} not found"}
    assert foreign["message"].replace(a, "never-existed") == twin["message"]


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({}, "source_ref"),
        ({"source_ref": ""}, "source_ref"),
        ({"source_ref": "x", "source_kind": "decision"}, "source_kind"),
        ({"source_ref": "x", "source_kind": ""}, "source_kind"),
        ({"source_ref": "x", "depth": "d" * 21}, "depth"),
        ({"source_ref": "x", "depth": 3}, "depth"),
        ({"source_ref": "x", "unknown": 1}, "unknown"),
    ],
)
async def test_explain_arguments_are_checked(
    client: Client[Any], arguments: dict[str, Any], field: str
) -> None:
    payload = await call_error(client, "explain_impact", **arguments)
    assert (payload["error"], payload["field"]) == ("invalid_argument", field)


# --- derived edges: decisions --------------------------------------------------------------------
async def decision(client: Client[Any], title: str, **fields: Any) -> str:
    recorded = await call(
        client, "record_decision", project="p", title=title, choice="yes", **fields
    )
    return recorded["decision"]["id"]


async def test_decisions_that_depend_on_or_watch_a_fact_are_affected(client: Client[Any]) -> None:
    latency = await fact(client, "latency")
    on_fact = await decision(client, "cache everything", depends_on=[latency])
    on_key = await decision(client, "one region", depends_on=["latency"])
    watching = await decision(
        client,
        "keep postgres",
        alternatives=[
            {
                "title": "move to redis",
                "reopen_when": [{"key": "latency", "operator": "greater_than", "value": 500}],
            }
        ],
    )
    unrelated = await decision(client, "other", depends_on=["elsewhere"])
    result = await explain(client, latency, depth="quick")
    found = {i["target_ref"]: i for i in result["impacts_by_kind"]["decision"]}
    assert set(found) == {on_fact, on_key, watching} and unrelated not in found
    assert [i["target_ref"] for i in result["impacts_by_kind"]["decision"]] == [
        on_fact,
        on_key,
        watching,
    ]
    summary = {
        ref: (i["impact_type"], i["edge_score"], i["path"][0]["via"], i["label"])
        for ref, i in found.items()
    }
    assert summary == {
        on_fact: ("requires_review", 1.0, "DEPENDS_ON", "cache everything"),
        on_key: ("requires_review", 0.9, "DEPENDS_ON_KEY", "one region"),
        watching: ("risks", 0.8, "WATCHES_KEY", "keep postgres"),
    }
    rule = found[watching]["rationale"]
    assert "'move to redis'" in rule and "'latency'" in rule and "greater_than" in rule
    assert result["summary"] == "decision: 3 affected (max score: 1.00)"


async def test_decisions_are_reached_through_impact_links_and_links_to_them(
    client: Client[Any],
) -> None:
    a, b = await fact(client, "a"), await fact(client, "b")
    downstream = await decision(client, "ship it", depends_on=[b])
    await link(client, a, b, score=0.5)
    direct = await decision(client, "direct")
    linked = await link(client, a, direct, score=0.3, target_kind="decision", impact_type="blocks")
    assert linked["target"] == {"kind": "decision", "ref": direct}
    result = await explain(client, a)
    assert reached(result, "decision") == {downstream: (0.5, 2), direct: (0.3, 1)}
    missing = await call_error(
        client,
        "link_impact",
        source_kind="fact",
        source_ref=a,
        target_kind="decision",
        target_ref=a,  # a fact id is no decision id
        impact_type="informs",
    )
    assert missing == {"error": "not_found", "message": f"decision {a!r} not found"}


async def test_superseded_and_reverted_decisions_are_left_out(client: Client[Any]) -> None:
    latency = await fact(client, "latency")
    old = await decision(client, "old", depends_on=[latency])
    reverted = await decision(client, "reverted", depends_on=[latency])
    await decision(client, "new", depends_on=[latency], supersedes_decision_id=old)
    await call(client, "update_decision", decision_id=reverted, status="reverted")
    result = await explain(client, latency, depth="quick")
    assert [i["label"] for i in result["impacts_by_kind"]["decision"]] == ["new"]


# --- derived edges: the knowledge pipeline (its nodes are a fixture until its tools land) ------
async def test_chunks_claims_and_packs_are_walked(
    client: Client[Any], fixture_store: Store, tenant: str
) -> None:
    promoted, other = await fact(client, "promoted"), await fact(client, "other")
    ids = {
        "chunk_id": "chunk-1",
        "claim_id": "claim-1",
        "rejected_claim_id": "claim-2",
        "pack_id": "pack-1",
        "retired_pack_id": "pack-2",
    }
    await fixture_store.write(
        "impact/create_pipeline_fixture",
        tenant,
        promoted_fact_id=promoted,
        rejected_fact_id=other,
        **ids,
    )
    await link(client, "chunk-1", "s-1", source_kind="chunk", target_kind="session", score=0.5)
    await link(client, "claim-1", "m-1", source_kind="claim", target_kind="mapping", score=1.0)
    result = await explain(client, "chunk-1", source_kind="chunk")
    assert result["source"] == "chunk:chunk-1"
    assert reached(result, "claim") == {"claim-1": (0.6, 1)}  # the rejected claim is left out
    assert reached(result, "fact") == {promoted: (0.6, 2)}  # other only via the rejected claim
    assert reached(result, "pack") == {"pack-1": (0.42, 3)}  # the retired pack is left out
    assert reached(result, "session") == {"s-1": (0.5, 1)}
    assert reached(result, "mapping") == {"m-1": (0.6, 2)}
    pack = result["impacts_by_kind"]["pack"][0]
    assert [hop["via"] for hop in pack["path"]] == ["EVIDENCED_BY", "PROMOTED_TO", "INCLUDES"]
    assert (pack["label"], pack["impact_type"], pack["edge_score"]) == (
        "executor pack",
        "informs",
        0.7,
    )
    from_claim = await explain(client, "claim-1", source_kind="claim", depth="quick")
    assert reached(from_claim, "fact") == {promoted: (1.0, 1)}
    assert reached(from_claim, "mapping") == {"m-1": (1.0, 1)}

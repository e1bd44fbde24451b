"""enrich_context: the whole knowledge pipeline in one step, all-or-nothing.

One write transaction runs every stage, in this order, through the same in-transaction steps
the single tools use (graphmem/knowledge/assess.py, claims.py, packs.py):

1. assess (every depth): the enrichable chunks, longest untouched first (assessing stamps
   updated_at, so a next run continues where this one stopped), at most 1,000 per run;
   enrich_policy (manual | auto) applies as in assess_context.
2. extract (standard, deep): the chunks of this run that are enrichable or uncertain after
   their assessment (never quarantined ones), then uncertain chunks not assessed by this
   run, up to 1,000 chunks in all. Extracting a chunk again adds nothing.
3. promote (standard, deep): every candidate claim those extractions returned that passes the
   auto_layer1 gate (memory scope, confidence at least 0.7, no human required: with the
   extraction rules these are depends_on and validates claims) is promoted with mode
   auto_layer1; a live fact of the same triple is reinforced instead of duplicated.
4. packs (every depth): an unscoped executor pack (4,000 tokens), then a warm executor pack per
   active workstream (status 'active', by id, at most 20), each through build_pack_in_tx:
   persisted when it has items (task_packs_with_context counts those), retiring the pack it
   replaces, one run entry each. Packs come after promotion, so they carry this run's facts.
5. impact (deep): the bounded impact walk of explain_impact (graphmem/impact/service.py, depth deep,
   its bounds) from the facts promoted by this run, then the newest live facts, at most 20
   facts; one explain_impact run entry each; impacts_analyzed counts the facts walked. It
   runs last, so the walk sees the packs just built.

Every stage records its own run entries and history events (chained in the transaction);
the run ends with one enrich_context run entry and one history event with the per-stage
counters. Any failure (a chunk, a claim, the database) aborts the whole run: nothing of it is
kept and the error reaches the caller. ``truncated`` says a bound (1,000 chunks, 20
workstreams, 20 facts) left work for a next run.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem.core.clock import iso
from graphmem.core.errors import NotFound
from graphmem.core.models import pick
from graphmem.core.progress import step
from graphmem.history.chain import Change
from graphmem.history.write_path import Write, write
from graphmem.impact import service as impact
from graphmem.impact.models import ExplainImpactRequest, ExplainImpactResult
from graphmem.knowledge.assess import assess_in_tx
from graphmem.knowledge.claims import extract_in_tx, promote_in_tx
from graphmem.knowledge.heuristics import promotion_block
from graphmem.knowledge.lifecycle import record_run
from graphmem.knowledge.models.packs import DEFAULT_TOKEN_BUDGET, EnrichContextResult, EnrichDepth
from graphmem.knowledge.models.pipeline import AssessResult, ClaimItem, EnrichPolicy
from graphmem.knowledge.packs import BuiltPack, build_pack_in_tx, pack_change
from graphmem.store import TenantStore

TOOL = "enrich_context"
MAX_CHUNKS = 1_000  # chunks assessed (and mined) per run
MAX_TASK_PACKS = 20  # warm task packs per run
MAX_IMPACT_FACTS = 20  # facts whose impact a deep run walks
IMPACT_DEPTH = "deep"
EXTRACTABLE = frozenset({"enrichable", "uncertain"})
AUTO_MODE = "auto_layer1"


async def enrich_context(
    db: TenantStore, depth: EnrichDepth, policy: EnrichPolicy
) -> EnrichContextResult:
    async def work(w: Write) -> EnrichContextResult:
        return await enrich_in_tx(w, depth, policy)

    return await write(db, TOOL, work)


async def enrich_in_tx(w: Write, depth: EnrichDepth, policy: EnrichPolicy) -> EnrichContextResult:
    """Run the pipeline inside the caller's locked transaction (see the module docstring)."""
    run = _Run()
    work = (await w.run("knowledge/list_enrich_chunks", limit=MAX_CHUNKS + 1, policy=policy))[0]
    enrichable: list[str] = work["enrichable"] + work["unassessed"]
    run.truncated = len(enrichable) > MAX_CHUNKS
    assessed = await _assess(w, run, enrichable[:MAX_CHUNKS], policy)
    await step(1, 4, f"assessed {len(assessed)} chunks")
    if depth != "quick":
        candidates = await _extract(w, run, _chunks_to_mine(run, assessed, work["uncertain"]))
        await _promote(w, run, candidates)
    await step(2, 4, "claims extracted and promoted" if depth != "quick" else "quick: no claims")
    executor, built = await _build_packs(w, run)
    await step(3, 4, "packs built")
    if depth == "deep":
        await _walk_impacts(w, run)
    await step(4, 4, "impacts walked" if depth == "deep" else "done")

    counters: dict[str, Any] = {"depth": depth, "truncated": run.truncated, "steps": run.steps}
    run_id = await record_run(w, TOOL, "tenant", None, "success", None, counters)
    revision = await w.event(
        Change(
            TOOL,
            "enrich_run",
            run_id,
            [*_pack_ids(built), *(run.promoted_facts or [])],
            {**counters, "promoted_facts": run.promoted_facts, "pack_ids": _pack_ids(built)},
        )
    )
    return EnrichContextResult(
        depth=depth,
        steps=run.steps,
        pack_body=executor.result.body,
        **pick(run, "claims_extracted claims_promoted promoted_facts impacts_analyzed truncated"),
        revision=revision,
    )


@dataclass
class _Run:
    """One enrich run in progress: each stage appends its counters to ``steps``; the counters
    of a stage the depth skips stay None."""

    steps: list[dict[str, int]] = field(default_factory=list)
    truncated: bool = False  # a bound left work for a next run
    claims_extracted: int | None = None
    claims_promoted: int | None = None
    promoted_facts: list[str] | None = None  # distinct, in promotion order
    impacts_analyzed: int | None = None


async def _assess(
    w: Write, run: _Run, chunk_ids: list[str], policy: EnrichPolicy
) -> list[AssessResult]:
    """1. Assess each enrichable chunk."""
    assessed = [await assess_in_tx(w, chunk_id, False, policy) for chunk_id in chunk_ids]
    run.steps.append(
        {
            "assess": sum(not result.should_skip for result in assessed),
            "assess_skipped": sum(result.should_skip for result in assessed),
            "state_changes": sum(result.changed for result in assessed),
            "now_enrichable": sum(result.state == "enrichable" for result in assessed),
            "now_uncertain": sum(result.state == "uncertain" for result in assessed),
        }
    )
    return assessed


def _chunks_to_mine(run: _Run, assessed: list[AssessResult], uncertain: list[str]) -> list[str]:
    """This run's assessed chunks that are enrichable or uncertain (never quarantined ones),
    then the uncertain chunks it did not assess, up to MAX_CHUNKS chunks in all."""
    mine = [r.chunk_id for r in assessed if r.state in EXTRACTABLE and not r.quarantined]
    seen = set(mine)
    others = [chunk_id for chunk_id in uncertain if chunk_id not in seen]
    room = MAX_CHUNKS - len(assessed)
    run.truncated |= len(others) > room
    return mine + others[:room]


async def _extract(w: Write, run: _Run, chunk_ids: list[str]) -> dict[str, ClaimItem]:
    """2. Extract the chunks' claims; the candidates the auto_layer1 gate passes, by claim id
    in the order first returned."""
    candidates: dict[str, ClaimItem] = {}
    claims_extracted = created = 0
    for chunk_id in chunk_ids:
        extracted = await extract_in_tx(w, chunk_id, None)
        claims_extracted += extracted.claims_extracted
        created += extracted.claims_created
        for item in extracted.claims:
            if item.status == "candidate" and _auto_promotable(item):
                candidates.setdefault(item.claim_id, item)
    run.claims_extracted = claims_extracted
    run.steps.append(
        {"extract": len(chunk_ids), "claims_extracted": claims_extracted, "claims_created": created}
    )
    return candidates


async def _promote(w: Write, run: _Run, candidates: dict[str, ClaimItem]) -> None:
    """3. Promote the candidates with mode auto_layer1."""
    promoted_facts: list[str] = []
    reused = 0
    for claim_id in candidates:
        promoted = await promote_in_tx(w, claim_id, AUTO_MODE)
        if promoted.promoted and promoted.fact_id is not None:
            promoted_facts.append(promoted.fact_id)
            reused += promoted.reused_existing_fact
    run.claims_promoted = len(promoted_facts)
    run.promoted_facts = list(dict.fromkeys(promoted_facts))
    run.steps.append(
        {
            "promote_eligible": len(candidates),
            "claims_promoted": run.claims_promoted,
            "facts_reused": reused,
        }
    )


async def _build_packs(w: Write, run: _Run) -> tuple[BuiltPack, list[BuiltPack]]:
    """4. The executor pack, then a task pack per active workstream; the executor pack and the
    packs persisted (one history event each)."""
    executor = await _build_pack(w, None)
    rows = await w.run("knowledge/list_active_workstreams", limit=MAX_TASK_PACKS + 1)
    run.truncated |= len(rows) > MAX_TASK_PACKS
    task_packs = [await _build_pack(w, row["id"]) for row in rows[:MAX_TASK_PACKS]]
    built = [pack for pack in (executor, *task_packs) if pack.result.persisted]
    for pack in built:
        await w.event(pack_change(pack, TOOL))
    run.steps.append(
        {
            "executor_pack_items": executor.result.items_included,
            "executor_pack_tokens": executor.result.token_usage,
        }
    )
    run.steps.append(
        {
            "task_packs_built": len(task_packs),
            "task_packs_with_context": sum(p.result.persisted for p in task_packs),
        }
    )
    return executor, built


async def _build_pack(w: Write, workstream_id: str | None) -> BuiltPack:
    return await build_pack_in_tx(
        w, "executor", workstream_id, DEFAULT_TOKEN_BUDGET, tool="build_context_pack"
    )


async def _walk_impacts(w: Write, run: _Run) -> None:
    """5. Walk the impact of this run's promoted facts, then of the newest live facts."""
    promoted = run.promoted_facts or []
    recent = await w.run("knowledge/list_recent_facts", limit=MAX_IMPACT_FACTS)
    newest: list[str] = [row["id"] for row in recent]
    sources = list(dict.fromkeys([*promoted, *newest]))
    run.truncated |= len(promoted) > MAX_IMPACT_FACTS
    sources = sources[:MAX_IMPACT_FACTS]
    targets = 0
    for fact_id in sources:
        walked = await walk_in_tx(w, fact_id, w.now)
        targets += walked.total_impacts
        await record_run(
            w,
            "explain_impact",
            "fact",
            fact_id,
            "success",
            None,
            {"depth": walked.depth, "total_impacts": walked.total_impacts},
        )
    run.impacts_analyzed = len(sources)
    run.steps.append({"impacts_analyzed": run.impacts_analyzed, "impact_targets": targets})


def _auto_promotable(item: ClaimItem) -> bool:
    block = promotion_block(
        AUTO_MODE, item.scope, item.evidence_count, item.confidence, item.requires_human
    )
    return block is None


def _pack_ids(packs: list[BuiltPack]) -> list[str]:
    return [pack.result.pack_id for pack in packs if pack.result.pack_id is not None]


async def walk_in_tx(w: Write, fact_id: str, now: datetime) -> ExplainImpactResult:
    """explain_impact's bounded walk from one fact (graphmem/impact/service.py: same edges, scores,
    bounds and result), reading inside the caller's transaction so it sees this run's writes."""
    request = ExplainImpactRequest(source_kind="fact", source_ref=fact_id, depth=IMPACT_DEPTH)
    depth = impact.depth_of(request.depth)
    source: impact.Node = ("fact", fact_id)
    best: dict[impact.Node, impact._Best] = {source: impact._Best(1.0, (), None)}
    frontier = [source]
    truncated = False
    for level in range(1, impact.DEPTHS[depth] + 1):
        rows = await w.run(
            "impact/list_impact_edges",
            now=iso(now),
            fanout=impact.FANOUT,
            **{
                f"{kind}_ids": [ref for k, ref in frontier if k == kind]
                for kind in impact.EXPANDABLE
            },
        )
        if level == 1 and not rows:
            raise NotFound("fact", fact_id)
        candidates: dict[impact.Node, impact._Best] = {}
        for row in sorted(rows, key=lambda row: (row["from_kind"], row["from_id"])):
            origin: impact.Node = (row["from_kind"], row["from_id"])
            edges, cut = impact._edges(row["edges"])
            truncated |= cut
            for edge in edges:
                offer = impact._offer(origin, best[origin], edge)
                held = candidates.get(edge.to) or best.get(edge.to)
                if held is None or offer.score > held.score:
                    candidates[edge.to] = offer
        improved = sorted(candidates, key=lambda node: (-candidates[node].score, node))
        best.update(candidates)
        frontier = [node for node in improved if node[0] in impact.EXPANDABLE]
        if len(frontier) > impact.MAX_FRONTIER:
            frontier, truncated = frontier[: impact.MAX_FRONTIER], True
        if not frontier:
            break
    del best[source]
    return impact._result(request, depth, best, truncated)

"""enrich_context: the knowledge pipeline in bounded batches, each its own transaction.

A pass runs these phases, through the same in-transaction steps the single tools use
(graphmem/knowledge/assess.py, claims.py, promote.py, packs.py):

1. assess (every depth), CHUNK_BATCH chunks a batch: the enrichable chunks untouched since the
   pass began, longest untouched first (under enrich_policy auto also never-assessed no_enrich
   ones; assessing stamps updated_at, so a chunk is assessed once a pass). At standard and
   deep the batch then extracts the chunks it left enrichable or uncertain (never quarantined
   ones) and promotes with mode auto_layer1 every candidate claim that passes the gate
   (memory scope, confidence at least 0.7, no human required); a live fact of the same triple
   is reinforced instead of duplicated.
2. mine uncertain (standard, deep), CHUNK_BATCH a batch: the uncertain chunks untouched since
   the pass began, in index order after a cursor, extracted and promoted the same way.
   Extracting a chunk again adds nothing.
3. packs (every depth), one batch: an unscoped executor pack (4,000 tokens), then a warm
   executor pack per active workstream (by id, at most 20), each through build_pack_in_tx:
   persisted when it has items, retiring the pack it replaces. Packs come after promotion, so
   they carry the pass's facts.
4. impact (deep), one batch: explain_impact's bounded walk (depth deep) from the facts this
   call promoted, then the newest live facts, at most 20 facts; one explain_impact run entry
   each.

Every batch that touched something records its steps' run entries and events, then one
enrich_context run entry and one enrich_run event with its counters; a failure rolls back
that batch only (the batches before it stay). A concurrent writer of the tenant waits for one
batch at most. A call runs batches until the pass is done or CALL_BUDGET has passed, and
answers with the counters of its batches and a continuation (store/continuations.py) that
the next call passes to resume the pass.
"""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from graphmem.core.clock import utc_now_iso
from graphmem.core.errors import InvalidArgument
from graphmem.history.chain import Change
from graphmem.history.write_path import Write, write_batches
from graphmem.impact import service as impact
from graphmem.impact.models import ExplainImpactRequest, ExplainImpactResult
from graphmem.knowledge.assess import assess_in_tx
from graphmem.knowledge.claim_rules import promotion_block
from graphmem.knowledge.claims import extract_in_tx
from graphmem.knowledge.models.packs import (
    DEFAULT_TOKEN_BUDGET,
    EnrichContextRequest,
    EnrichContextResult,
    EnrichDepth,
)
from graphmem.knowledge.models.pipeline import AssessResult, ClaimItem, EnrichPolicy
from graphmem.knowledge.packs import BuiltPack, build_pack_in_tx, pack_change
from graphmem.knowledge.promote import promote_in_tx
from graphmem.knowledge.rows import EnrichChunksRow, IdRow, UncertainChunkRow
from graphmem.knowledge.runs import record_run
from graphmem.store import Row, TenantStore, shaped
from graphmem.store.continuations import Position

TOOL = "enrich_context"
CHUNK_BATCH = 50  # chunks assessed (and mined) per batch
CALL_BUDGET = 1.0  # seconds: a call starts no batch after this
MAX_TASK_PACKS = 20  # warm task packs per pass
MAX_IMPACT_FACTS = 20  # facts whose impact a deep pass walks
IMPACT_DEPTH = "deep"
EXTRACTABLE = frozenset({"enrichable", "uncertain"})
AUTO_MODE = "auto_layer1"
STAGES = ("assess", "extract", "promote", "executor_pack", "task_packs", "impact")


class _After(BaseModel):
    """Where the uncertain phase stopped: the last chunk mined (UncertainChunkRow)."""

    model_config = ConfigDict(frozen=True)
    at: str  # its updated_at, as text
    id: str


class _Pass(BaseModel):
    """Where a pass stands: the position (JSON) a batch starts from, as the continuation
    carries it, read through this shape."""

    model_config = ConfigDict(frozen=True)
    phase: Literal["assess", "uncertain", "packs", "impact"]
    since: str  # when the pass began (ISO): the chunks touched since are not read again
    after: _After | None  # the uncertain phase's cursor
    depth: EnrichDepth

    def then(self, **changes: object) -> Position:
        """The position the next batch starts from: this one with ``changes``."""
        return {**self.model_dump(), **changes}


@dataclass
class _Batch:
    """What one batch did: counters per stage, and what the answer lists."""

    following: Position | None = None  # where the next batch starts; None: pass done
    stages: dict[str, Counter[str]] = field(default_factory=dict[str, Counter[str]])
    claims_extracted: int = 0
    promoted_facts: list[str] = field(default_factory=list[str])
    impacts_analyzed: int = 0
    pack_body: str | None = None
    truncated: bool = False
    revision: int | None = None

    @property
    def worked(self) -> bool:
        """It read or wrote something (every stage counts what it touched)."""
        return any(any(counters.values()) for counters in self.stages.values())

    def count(self, stage: str, **counters: int) -> None:
        self.stages.setdefault(stage, Counter()).update(counters)


async def enrich_context(
    db: TenantStore, request: EnrichContextRequest, policy: EnrichPolicy
) -> EnrichContextResult:
    position: Position | None = db.resume(TOOL, request.continuation)
    if position is None:
        position = {"phase": "assess", "since": utc_now_iso(), "after": None}
    elif position.get("depth") != request.depth:
        raise InvalidArgument("depth", "must be the depth of the call that gave the continuation")
    position["depth"] = request.depth
    run = functools.partial(_run_batch, policy=policy)
    batches = await write_batches(db, TOOL, position, run, budget=CALL_BUDGET)
    return _result(request, batches, db.continuation(TOOL, batches[-1].following))


async def _run_batch(
    w: Write, position: Position, done: list[_Batch], *, policy: EnrichPolicy
) -> _Batch:
    promoted = [fact for batch in done for fact in batch.promoted_facts]
    current = _Pass.model_validate(position)
    phase, depth = current.phase, current.depth
    batch = _Batch()
    if phase == "assess":
        await _assess_batch(w, batch, current, policy)
    elif phase == "uncertain":
        await _uncertain_batch(w, batch, current)
    elif phase == "packs":
        await _build_packs(w, batch)
        batch.following = current.then(phase="impact") if depth == "deep" else None
    else:
        await _walk_impacts(w, batch, promoted)
    if batch.worked:
        batch.revision = await _record(w, batch, phase, depth)
    return batch


async def _record(w: Write, batch: _Batch, phase: str, depth: str) -> int:
    """The batch's enrich_context run entry and enrich_run event."""
    steps = {stage: dict(counters) for stage, counters in batch.stages.items()}
    counters: dict[str, object] = {"depth": depth, "phase": phase, "steps": steps}
    run_id = await record_run(w, TOOL, "tenant", None, "success", None, counters)
    return await w.event(
        Change(
            TOOL,
            "enrich_run",
            run_id,
            batch.promoted_facts,
            {**counters, "promoted_facts": batch.promoted_facts},
        )
    )


# --- phases ----------------------------------------------------------------------------------
async def _assess_batch(w: Write, batch: _Batch, current: _Pass, policy: EnrichPolicy) -> None:
    """1. Assess the next chunks untouched since the pass began; mine those it leaves
    extractable."""
    rows = await w.run(
        "knowledge/list_enrich_chunks",
        limit=CHUNK_BATCH,
        policy=policy,
        untouched_before=current.since,
    )
    chunk_ids = shaped(EnrichChunksRow, rows)[0]["chunks"]
    assessed = [await assess_in_tx(w, chunk_id, False, policy) for chunk_id in chunk_ids]
    _count_assessed(batch, assessed)
    if current.depth != "quick":
        await _mine(w, batch, [r.chunk_id for r in assessed if _extractable(r)])
    if len(chunk_ids) == CHUNK_BATCH:
        batch.following = current.then()
    elif current.depth == "quick":
        batch.following = current.then(phase="packs")
    else:
        batch.following = current.then(phase="uncertain", after=None)


async def _uncertain_batch(w: Write, batch: _Batch, current: _Pass) -> None:
    """2. Mine the next uncertain chunks untouched since the pass began."""
    rows = await w.run(
        "knowledge/list_uncertain_chunks",
        limit=CHUNK_BATCH,
        untouched_before=current.since,
        after=None if current.after is None else current.after.model_dump(),
    )
    chunks = shaped(UncertainChunkRow, rows)
    await _mine(w, batch, [row["id"] for row in chunks])
    if len(chunks) == CHUNK_BATCH:
        last = chunks[-1]
        batch.following = current.then(after={"at": last["at"], "id": last["id"]})
    else:
        batch.following = current.then(phase="packs")


def _count_assessed(batch: _Batch, assessed: list[AssessResult]) -> None:
    batch.count(
        "assess",
        assess=sum(not result.should_skip for result in assessed),
        assess_skipped=sum(result.should_skip for result in assessed),
        state_changes=sum(result.changed for result in assessed),
        now_enrichable=sum(result.state == "enrichable" for result in assessed),
        now_uncertain=sum(result.state == "uncertain" for result in assessed),
    )


def _extractable(result: AssessResult) -> bool:
    return result.state in EXTRACTABLE and not result.quarantined


async def _mine(w: Write, batch: _Batch, chunk_ids: list[str]) -> None:
    """Extract the chunks' claims, then promote the candidates the auto_layer1 gate passes."""
    candidates: dict[str, ClaimItem] = {}
    extracted_total = created = 0
    for chunk_id in chunk_ids:
        extracted = await extract_in_tx(w, chunk_id, None)
        extracted_total += extracted.claims_extracted
        created += extracted.claims_created
        for item in extracted.claims:
            if item.status == "candidate" and _auto_promotable(item):
                candidates.setdefault(item.claim_id, item)
    batch.claims_extracted += extracted_total
    batch.count(
        "extract", extract=len(chunk_ids), claims_extracted=extracted_total, claims_created=created
    )
    promoted_facts: list[str] = []
    reused = 0
    for claim_id in candidates:
        promoted = await promote_in_tx(w, claim_id, AUTO_MODE)
        if promoted.promoted and promoted.fact_id is not None:
            promoted_facts.append(promoted.fact_id)
            reused += promoted.reused_existing_fact
    batch.promoted_facts = list(dict.fromkeys(promoted_facts))
    batch.count(
        "promote",
        promote_eligible=len(candidates),
        claims_promoted=len(promoted_facts),
        facts_reused=reused,
    )


async def _build_packs(w: Write, batch: _Batch) -> None:
    """3. The executor pack, then a task pack per active workstream (one history event for
    each pack persisted)."""
    executor = await _build_pack(w, None)
    rows = shaped(IdRow, await w.run("knowledge/list_active_workstreams", limit=MAX_TASK_PACKS + 1))
    batch.truncated |= len(rows) > MAX_TASK_PACKS
    task_packs = [await _build_pack(w, row["id"]) for row in rows[:MAX_TASK_PACKS]]
    for pack in (executor, *task_packs):
        if pack.result.persisted:
            await w.event(pack_change(pack, TOOL))
    batch.pack_body = executor.result.body
    batch.count(
        "executor_pack",
        executor_pack_items=executor.result.items_included,
        executor_pack_tokens=executor.result.token_usage,
    )
    batch.count(
        "task_packs",
        task_packs_built=len(task_packs),
        task_packs_with_context=sum(p.result.persisted for p in task_packs),
    )


async def _build_pack(w: Write, workstream_id: str | None) -> BuiltPack:
    return await build_pack_in_tx(
        w, "executor", workstream_id, DEFAULT_TOKEN_BUDGET, tool="build_context_pack"
    )


async def _walk_impacts(w: Write, batch: _Batch, promoted: list[str]) -> None:
    """4. Walk the impact of this call's promoted facts, then of the newest live facts."""
    recent = shaped(IdRow, await w.run("knowledge/list_recent_facts", limit=MAX_IMPACT_FACTS))
    sources = list(dict.fromkeys([*promoted, *(row["id"] for row in recent)]))
    batch.truncated |= len(promoted) > MAX_IMPACT_FACTS
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
    batch.impacts_analyzed = len(sources)
    batch.count("impact", impacts_analyzed=len(sources), impact_targets=targets)


# --- the answer ------------------------------------------------------------------------------
def _result(
    request: EnrichContextRequest, batches: list[_Batch], continuation: str | None
) -> EnrichContextResult:
    """The call's batches as one answer: per-stage counters summed, in stage order."""
    stages: dict[str, Counter[str]] = {}
    for batch in batches:
        for stage, counters in batch.stages.items():
            stages.setdefault(stage, Counter()).update(counters)
    mining = request.depth != "quick"
    promoted = list(dict.fromkeys(f for batch in batches for f in batch.promoted_facts))
    revisions = [batch.revision for batch in batches if batch.revision is not None]
    bodies = [batch.pack_body for batch in batches if batch.pack_body is not None]
    return EnrichContextResult(
        depth=request.depth,
        steps=[dict(stages[stage]) for stage in STAGES if stage in stages],
        pack_body=bodies[-1] if bodies else "",
        claims_extracted=sum(b.claims_extracted for b in batches) if mining else None,
        claims_promoted=stages.get("promote", Counter())["claims_promoted"] if mining else None,
        promoted_facts=promoted if mining else None,
        impacts_analyzed=(
            sum(b.impacts_analyzed for b in batches) if request.depth == "deep" else None
        ),
        truncated=any(batch.truncated for batch in batches),
        revision=revisions[-1] if revisions else None,
        batches=len(batches),
        continuation=continuation,
    )


def _auto_promotable(item: ClaimItem) -> bool:
    block = promotion_block(
        AUTO_MODE, item.scope, item.evidence_count, item.confidence, item.requires_human
    )
    return block is None


async def walk_in_tx(w: Write, fact_id: str, now: datetime) -> ExplainImpactResult:
    """explain_impact's bounded walk from one fact (graphmem/impact/service.py: the same walk),
    reading inside the caller's transaction so it sees this run's writes."""
    request = ExplainImpactRequest(source_kind="fact", source_ref=fact_id, depth=IMPACT_DEPTH)

    async def read_edges(**params: object) -> list[Row]:
        return await w.run("impact/list_impact_edges", **params)

    return await impact.walk(read_edges, request, now.isoformat())

"""search's result pages, pure: a fused entry and its memory row made a hit, the plan's token
budget over a page, pagination and the next step. No database."""

from __future__ import annotations

import math

from graphmem.memories.models.memories import NextStep
from graphmem.memories.rules import preview
from graphmem.search.models import (
    ChannelShare,
    Classification,
    HitExplanation,
    LinkedFact,
    MemoryHit,
    Pagination,
    RetrievalPlan,
    SearchRequest,
)
from graphmem.search.plans import DEFAULT_TOKEN_BUDGET
from graphmem.search.ranking import Fused
from graphmem.search.rows import HitMemory, MemoryHitRow


def classification(memory: HitMemory) -> Classification:
    if memory["status"] == "quarantined":
        return "quarantined"
    if memory["status"] == "stale":
        return "superseded" if memory.get("superseded_by") else "stale"
    return "current"


def explanation(entry: Fused) -> HitExplanation:
    return HitExplanation(
        channels=[
            ChannelShare(channel=c, rank=entry.ranks[c], contribution=round(share, 6))
            for c, share in sorted(entry.contributions.items(), key=lambda kv: -kv[1])
        ],
        boost=entry.boost,
        score=round(entry.score, 6),
    )


def memory_hit(row: MemoryHitRow, entry: Fused | None, explain: bool) -> MemoryHit:
    memory = row["memory"]
    return MemoryHit(
        id=memory["id"],
        type=memory["type"],
        title=memory["title"],
        topic_key=memory.get("topic_key"),
        topic_version=memory.get("topic_version") or 1,
        preview=preview(memory["content"]),
        project=memory["project"],
        branch=memory.get("branch"),
        tags=list(memory.get("tags") or []),
        status=memory["status"],
        classification=classification(memory),
        version=memory["version"],
        updated_at=memory["updated_at"],
        score=round(entry.score, 6) if entry else 0.0,
        linked_fact=LinkedFact.model_validate(row["fact"]) if row["fact"] else None,
        explain=explanation(entry) if entry and explain else None,
    )


def estimated_tokens(hit: MemoryHit) -> int:
    return math.ceil((len(hit.title) + len(hit.preview) + 1) / 4)


def within_budget(
    hits: list[MemoryHit], plan: RetrievalPlan | None
) -> tuple[list[MemoryHit], bool]:
    if plan is None:
        return hits, False
    budget = plan.token_budget or DEFAULT_TOKEN_BUDGET
    kept: list[MemoryHit] = []
    used = 0
    for hit in hits:
        cost = estimated_tokens(hit)
        if kept and used + cost > budget:
            return kept, True
        kept.append(hit)
        used += cost
    return kept, False


def pagination(request: SearchRequest, has_more: bool, count: int) -> Pagination:
    return Pagination(
        limit=request.limit,
        offset=request.offset,
        has_more=has_more,
        next_offset=request.offset + count if has_more else None,
    )


def next_step(hits: list[MemoryHit]) -> NextStep | None:
    if not hits:
        return None
    return NextStep(
        tool="get_observations",
        source="memory",
        ids=[hit.id for hit in hits],
        reason="fetch the full content of the memories you select",
    )

"""MCP tools over context packs and the one-step pipeline run. Thin: validate, call the domain,
let the boundary map errors."""

from graphmem.knowledge import enrich, packs
from graphmem.knowledge.models import packs as models
from graphmem.subjects.reading import read_soon
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Build a context pack", Effect.ADDS)
async def build_context_pack(
    services: Services, request: models.BuildContextPackRequest
) -> models.BuildContextPackResult:
    """Compile a role-specific context pack under a token budget from live facts, candidate
    claims, open questions and context chunks.

    Use it to hand an agent grounded context (planning, review, execution, bridge checks,
    handoff); current_state answers one key. Items come from top-k index reads, are scored
    by role weight, base, relevance, trust and freshness and taken greedily within the
    budget and section caps; superseded or lapsed facts, rejected claims and quarantined
    chunks never enter. With target_ref, relevance is word overlap with the workstream's
    title and next action (below 0.2 dropped; its own chunks favoured). A pack with items
    is stored and retires the previous current pack of the same type and target (kept); an
    empty one is not stored (pack_id null). One transaction, one history revision. Answers
    the body, pack_id, token_usage, sections and scores.
    """
    return await packs.build_context_pack(services.db(), request)


@SPECS.tool("Run the knowledge pipeline in one step", Effect.ADDS)
async def enrich_context(
    services: Services, request: models.EnrichContextRequest
) -> models.EnrichContextResult:
    """Advance the whole knowledge pipeline, in batches.

    Use it to process what add_context_chunk stored; the step tools (assess_context to
    build_context_pack) act on one chunk, claim or pack. Stages: assess enrichable chunks
    (enrich_policy applies); at standard and deep, extract claims from enrichable or
    uncertain chunks and promote with auto_layer1 each that passes its gate (memory scope,
    confidence >= 0.7, no human required); build an unscoped executor pack and one per
    active workstream (at most 20), replacing earlier ones; at deep, walk the impact of the
    facts just promoted and the newest (20 in all). Each batch (50 chunks, the packs, the
    walk) is its own transaction: a failure keeps the batches before it. A call works for
    about a second, then answers per-stage counters (steps), the executor pack's body once
    built, and a continuation: call again with it (same depth) until it is null.
    """
    db = services.db()
    result = await enrich.enrich_context(db, request, services.settings.enrich_policy)
    read_soon(db, services.settings.subjects)  # the claims it extracted name subjects
    return result

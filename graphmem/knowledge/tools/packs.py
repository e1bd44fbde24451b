"""MCP tools over context packs and the one-step pipeline run. Thin: validate, call the domain,
let the boundary map errors."""

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.knowledge import enrich, packs
from graphmem.knowledge.models import packs as models


async def build_context_pack(
    services: Services, request: models.BuildContextPackRequest
) -> models.BuildContextPackResult:
    """Compile a role-specific context pack under a token budget from live facts,
    candidate claims, open questions and context chunks.

    Use it to hand an agent grounded context for planning, review, execution, bridge
    checks or handoff; use current_state for one key's answer instead. Candidates are
    top-k reads in index order (the best and newest facts and claims, the highest
    priority questions, the most material and newest chunks), never a scan; superseded,
    invalidated or lapsed facts, rejected claims and quarantined chunks never enter.
    Each item scores role weight x base (confidence, priority or materiality) x
    relevance x trust x freshness; the best are taken greedily, skipping what would
    exceed the budget, its section's cap or repeat a text, so the pack never exceeds its
    budget. With target_ref (a workstream) relevance is the word overlap with the
    workstream's title and next action, items below 0.2 are dropped and the
    workstream's own chunks and what they evidence are favoured. A pack with items is
    stored (status current, INCLUDES edges with rank, tokens and section) and retires
    the older current pack of the same type and target (kept, never deleted); an empty
    pack is not stored (pack_id null, persisted false). Either way one run entry and
    one history revision. Errors: invalid_argument (unknown pack_type, budget out of
    range), not_found (unknown workstream, or a session_id not yours).
    """
    return await packs.build_context_pack(services.store, services.tenant(), request)


async def enrich_context(
    services: Services, request: models.EnrichContextRequest
) -> models.EnrichContextResult:
    """Advance the whole knowledge pipeline in one all-or-nothing step.

    Use it to process what add_context_chunk stored without calling each tool; call
    assess_context, extract_candidate_claims, promote_candidate or build_context_pack
    yourself to control a single chunk, claim or pack. Stages, in order, in ONE
    transaction: assess the enrichable chunks (longest untouched first, at most 1,000
    per run, enrich_policy applies); at standard and deep, extract claims from the
    chunks now enrichable or uncertain (and other uncertain chunks, 1,000 chunks in all)
    and promote with mode auto_layer1 every candidate that passes its gate (memory
    scope, confidence at least 0.7, no human required); build an unscoped executor pack
    and a warm executor pack per active workstream (at most 20; stored when not empty,
    replacing the previous one); at deep, walk the impact (explain_impact, depth deep)
    of the facts promoted by this run and the newest live facts (20 facts in all).
    Every stage records its run entries and history events; the result gives per-stage
    counters (steps), the executor pack's body, and truncated when a bound left work
    for a next run. Any failure aborts the run and keeps nothing of it. Errors:
    invalid_argument for an unknown or wrongly typed depth.
    """
    return await enrich.enrich_context(
        services.store, services.tenant(), request.depth, services.settings.enrich_policy
    )


SPECS = [
    ToolSpec(
        handler=build_context_pack,
        title="Build a context pack",
        toolset="full",
        writes=True,
        idempotent=False,  # every call stores a new pack and retires the previous one
        destructive=False,  # retired packs are kept
    ),
    ToolSpec(
        handler=enrich_context,
        title="Run the knowledge pipeline in one step",
        toolset="full",
        writes=True,
        idempotent=False,  # each run assesses again and stores new packs
        destructive=False,  # packs it replaces are retired, never deleted
    ),
]

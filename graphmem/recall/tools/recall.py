"""MCP tools that assemble bounded context: recall_user_context and context_bundle. Thin:
validate, call the domain (graphmem/recall/recall.py and bundles.py, where the rules are
documented), let the boundary map errors."""

from graphmem.recall import bundles, recall
from graphmem.recall.models import recall as models
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Recall user context", Effect.READS, core=True)
async def recall_user_context(
    services: Services, request: models.RecallRequest
) -> models.RecallResult:
    """Assemble a compact, task-aware context for one project. Read-only.

    Sources: the requested current-state keys, safe claims (current facts that are
    human_confirmed or production_verified), preferences, memories ranked for the query,
    active and paused workstreams, the 5 newest raw-archive sessions. Items come in the
    intent's order while they fit limit and budget_chars; the rest are listed in dropped
    with a reason. The poisoning gate re-screens every text: unsafe ones are dropped.
    Answers context (one text), included items with source ids and reasons, dropped, and
    diagnostics. Use search for exhaustive matches, current_state for one key,
    context_bundle for an audited or past bundle.
    """
    return await recall.recall_user_context(services.db(), request, services.retrieval)


@SPECS.tool("Compile a context bundle", Effect.READS)
async def context_bundle(services: Services, request: models.BundleRequest) -> models.ContextBundle:
    """Compile a Context Bundle v1 for one task in one project. Read-only, deterministic.

    Six sections, each with a share of token_budget and an item limit: preferences,
    failure_lessons (bug fixes and lessons), current_truth (current facts), workstreams,
    memory_index (other memories, by relevance to the task), recent_sessions. Every item
    is source-attributed (stable_key, canonical_ref, source_kind, validity, trust); the
    audit gives every candidate's reason for selection or drop, and a plan_hash of
    inputs and policy. as_of_epoch answers as the graph knew and held true then;
    include_superseded adds versions superseded by then. Quarantined, rejected and
    deleted memories never enter; the poisoning gate re-screens and only drops. Use
    recall_user_context for a compact text, search for exhaustive matches.
    """
    return await bundles.context_bundle(services.db(), request)

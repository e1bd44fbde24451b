"""MCP tools that assemble bounded context: recall_user_context and context_bundle. Thin:
validate, call the domain (graphmem/memories/recall.py and bundles.py, where the rules are
documented), let the boundary map errors."""

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.memories import bundles, recall
from graphmem.memories.models import recall as models


async def recall_user_context(
    services: Services, request: models.RecallRequest
) -> models.RecallResult:
    """Assemble task-aware user context for one project. Read-only.

    Sources: the requested current-state keys (text "key = value"; a key that is not
    current is dropped with its status), safe claims (the project's current facts whose
    source is human_confirmed or production_verified), the profile (preference
    memories), repo memories (search's ranking of the query), active and paused
    workstreams, and the 5 newest raw-archive sessions with their first user turn.
    Items are taken in the intent's order while they fit limit and budget_chars; every
    other candidate is listed in dropped with a reason (budget_exhausted, limit_reached,
    quarantined, poisoning_gate, sensitive_excluded, duplicate, no_current, not_found,
    unresolved_conflict). Every text is re-screened by the poisoning gate now: unsafe
    ones are dropped, never quarantined (this tool writes nothing). Returns the context
    as one compact text, the included items with their source ids and reason codes, the
    dropped ones, and budget diagnostics. Use search for exhaustive memory matches,
    current_state for one exact stable key, context_bundle for a sectioned, audited
    bundle (also as of a past instant). Errors: invalid_argument (blank query, bounds).
    """
    return await recall.recall_user_context(
        services.store, services.tenant(), request, services.embedder
    )


async def context_bundle(services: Services, request: models.BundleRequest) -> models.ContextBundle:
    """Compile a Context Bundle v1 for one task in one project. Read-only, deterministic.

    Six sections, each with a share of token_budget and an item limit: preferences
    (9%, 20), failure_lessons (bug fixes and lessons, 7.5%, 4), current_truth (the
    project's current facts, 19%, 6), workstreams (active and paused, 7.5%, 5),
    memory_index (other memories, 25%, 50), recent_sessions (raw-archive sessions, 14%,
    5); the other 18% is a reserve the role's first sections draw on. Memories rank by
    full-text relevance to the task. Every item is source-attributed (stable_key,
    canonical_ref, source_kind, validity, trust). The audit lists every candidate with
    the reason it was selected or dropped (quarantined_trust, poisoning_gate,
    branch_scope_mismatch, superseded_excluded, stale_excluded, below_trust_floor,
    channel_item_limit, channel_token_budget, total_token_budget, not_yet_known) and a
    plan_hash of the inputs and policy. Bi-temporal: as_of_epoch returns what the graph
    knew and held true then (memories and facts by their transaction-time windows;
    workstreams and sessions created by then, with their current fields);
    include_superseded adds versions already superseded then. Quarantined, rejected and
    deleted memories never enter. Nothing is written: the poisoning gate re-screens and
    only drops. Use recall_user_context for a compact text context, search for
    exhaustive matches. Errors: invalid_argument (schema_version not 1, blank task,
    as_of_epoch in the future, bounds).
    """
    return await bundles.context_bundle(services.store, services.tenant(), request)


SPECS = [
    ToolSpec(
        handler=recall_user_context,
        title="Recall user context",
        toolset="core",
        writes=False,
        idempotent=True,
        destructive=False,
    ),
    ToolSpec(
        handler=context_bundle,
        title="Compile a context bundle",
        toolset="full",
        writes=False,
        idempotent=True,
        destructive=False,
    ),
]

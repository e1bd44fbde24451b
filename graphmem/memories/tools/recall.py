"""MCP tools that assemble bounded context: recall_user_context and context_bundle. Thin:
validate, call the domain (graphmem/memories/recall.py and bundles.py, where the rules are
documented), let the boundary map errors."""

from typing import Annotated

from pydantic import Field

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolFunction, ToolSpec
from graphmem.core.models import Name
from graphmem.memories import bundles, recall
from graphmem.memories.models.recall import (
    DEFAULT_BUDGET_CHARS,
    DEFAULT_BUNDLE_TOKENS,
    DEFAULT_RECALL_LIMIT,
    MAX_BUDGET_CHARS,
    MAX_BUNDLE_TOKENS,
    MAX_RECALL_LIMIT,
    MAX_RECALL_QUERY_CHARS,
    MAX_STATE_KEYS,
    MAX_TASK_CHARS,
    MIN_BUDGET_CHARS,
    BundleRequest,
    ContextBundle,
    RecallRequest,
    RecallResult,
)
from graphmem.search.models import Risk, Role, TaskIntent


def make_recall_user_context(services: Services) -> ToolFunction:
    async def recall_user_context(
        query: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_RECALL_QUERY_CHARS,
                description="What the context is for (non-blank, up to 1,000 characters).",
            ),
        ],
        project: Annotated[Name, Field(description="The project to recall (required scope).")],
        task_intent: Annotated[
            TaskIntent | None,
            Field(
                description="Orders the sources: apply_preference puts preferences first, "
                "debug_failure bug fixes and lessons; also the retrieval plan of the memory "
                "search."
            ),
        ] = None,
        state_keys: Annotated[
            list[Name],
            Field(max_length=MAX_STATE_KEYS, description="Fact keys to resolve (up to 20)."),
        ] = [],  # noqa: B006 - never mutated; FastMCP needs a JSON default
        include_sensitive: Annotated[
            bool,
            Field(
                description="Include items holding secrets, shown redacted (default false: "
                "dropped as sensitive_excluded)."
            ),
        ] = False,
        limit: Annotated[
            int,
            Field(ge=1, le=MAX_RECALL_LIMIT, description="Most items included (1-50, 12)."),
        ] = DEFAULT_RECALL_LIMIT,
        budget_chars: Annotated[
            int,
            Field(
                ge=MIN_BUDGET_CHARS,
                le=MAX_BUDGET_CHARS,
                description="Most characters of context (200-12,000, default 4,000).",
            ),
        ] = DEFAULT_BUDGET_CHARS,
    ) -> RecallResult:
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
        request = RecallRequest(
            query=query,
            project=project,
            task_intent=task_intent,
            state_keys=state_keys,
            include_sensitive=include_sensitive,
            limit=limit,
            budget_chars=budget_chars,
        )
        return await recall.recall_user_context(
            services.store, services.tenant(), request, services.embedder
        )

    return recall_user_context


def make_context_bundle(services: Services) -> ToolFunction:
    async def context_bundle(
        schema_version: Annotated[int, Field(description="Bundle schema version: must be 1.")],
        task: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_TASK_CHARS,
                description="The task the bundle is for (non-blank, up to 2,000 characters).",
            ),
        ],
        project: Annotated[Name, Field(description="The project (required, explicit).")],
        branch: Annotated[
            Name | None,
            Field(description="Git branch: memories naming another branch are dropped."),
        ] = None,
        role: Annotated[
            Role, Field(description="Which sections come first (default coder).")
        ] = "coder",
        risk: Annotated[
            Risk, Field(description="high drops raw-archive sessions (default medium).")
        ] = "medium",
        token_budget: Annotated[
            int,
            Field(
                ge=1,
                le=MAX_BUNDLE_TOKENS,
                description="Most tokens (ceil(characters / 4)) in the bundle (default 4000).",
            ),
        ] = DEFAULT_BUNDLE_TOKENS,
        as_of_epoch: Annotated[
            float | None,
            Field(
                ge=0,
                allow_inf_nan=False,
                description="Unix seconds (fractions allowed, not in the future): the bundle "
                "as the graph knew it then. Omitted: now.",
            ),
        ] = None,
        include_superseded: Annotated[
            bool,
            Field(description="Also superseded memory versions (validity superseded)."),
        ] = False,
    ) -> ContextBundle:
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
        request = BundleRequest(
            schema_version=schema_version,
            task=task,
            project=project,
            branch=branch,
            role=role,
            risk=risk,
            token_budget=token_budget,
            as_of_epoch=as_of_epoch,
            include_superseded=include_superseded,
        )
        return await bundles.context_bundle(services.store, services.tenant(), request)

    return context_bundle


SPECS = [
    ToolSpec(
        name="recall_user_context",
        title="Recall user context",
        toolset="full",
        writes=False,
        idempotent=True,
        destructive=False,
        legacy_make=make_recall_user_context,
    ),
    ToolSpec(
        name="context_bundle",
        title="Compile a context bundle",
        toolset="full",
        writes=False,
        idempotent=True,
        destructive=False,
        legacy_make=make_context_bundle,
    ),
]

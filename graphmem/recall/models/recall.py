"""recall_user_context and context_bundle: bounded, source-attributed context for one task.

Each tool argument is declared here once (type, bounds, default, description); the selection
rules are documented in graphmem/recall/recall.py and graphmem/recall/bundles.py.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from graphmem.core.errors import InvalidArgument
from graphmem.core.models import Name, OutputModel, StrictModel
from graphmem.search.models import Risk, Role, TaskIntent

# --- recall_user_context ----------------------------------------------------------------------
MAX_RECALL_QUERY_CHARS = 1_000
MAX_STATE_KEYS = 20
DEFAULT_RECALL_LIMIT = 12
MAX_RECALL_LIMIT = 50
DEFAULT_BUDGET_CHARS = 4_000
MIN_BUDGET_CHARS = 200
MAX_BUDGET_CHARS = 12_000

RecallSource = Literal[
    "current_state", "safe_claim", "preference", "memory", "workstream", "session"
]
RecallDropReason = Literal[
    "budget_exhausted",
    "limit_reached",
    "quarantined",
    "poisoning_gate",
    "sensitive_excluded",
    "duplicate",
    "no_current",
    "not_found",
    "unresolved_conflict",
    "ambiguous",
]


class RecallRequest(StrictModel):
    query: str = Field(
        min_length=1, max_length=MAX_RECALL_QUERY_CHARS, description="What the context is for."
    )
    project: Name = Field(description="Project to recall.")
    task_intent: TaskIntent | None = Field(
        default=None, description="Orders the sources and plans the memory search."
    )
    state_keys: list[Name] = Field(
        default_factory=list, max_length=MAX_STATE_KEYS, description="Fact keys to resolve."
    )
    include_sensitive: bool = Field(
        default=False, description="Include items holding secrets, redacted."
    )
    limit: int = Field(
        default=DEFAULT_RECALL_LIMIT, ge=1, le=MAX_RECALL_LIMIT, description="Most items."
    )
    budget_chars: int = Field(
        default=DEFAULT_BUDGET_CHARS,
        ge=MIN_BUDGET_CHARS,
        le=MAX_BUDGET_CHARS,
        description="Most characters of context.",
    )

    @model_validator(mode="after")
    def _not_blank(self) -> RecallRequest:
        if not self.query.strip():
            raise InvalidArgument("query", "must not be blank")
        return self


class RecallItem(OutputModel):
    source_type: RecallSource
    source_id: str = Field(description="Memory, fact, workstream or session id.")
    title: str
    text: str = Field(description="What enters the context (cut, secrets redacted).")
    reason_codes: list[str] = Field(description="Why it was selected.")


class RecallDropped(OutputModel):
    source_type: RecallSource
    source_id: str = Field(description="Memory, fact, workstream or session id (or state key).")
    label: str = Field(description="Its title or state key.")
    reason_code: RecallDropReason


class CandidateCounts(OutputModel):
    current_state: int
    safe_claims: int
    preferences: int
    memories: int
    workstreams: int
    sessions: int
    dropped: int


class RecallDiagnostics(OutputModel):
    limit: int
    budget_chars: int
    used_chars: int = Field(description="Characters of context (never above budget_chars).")
    candidate_counts: CandidateCounts


class RecallResult(OutputModel):
    query: str
    project: str
    task_intent: TaskIntent | None
    empty: bool = Field(description="True when nothing was included.")
    context: str = Field(description="The included items as one compact text, one per line.")
    included: list[RecallItem]
    dropped: list[RecallDropped]
    diagnostics: RecallDiagnostics


# --- context_bundle ---------------------------------------------------------------------------
BUNDLE_SCHEMA_VERSION = 1
MAX_TASK_CHARS = 2_000
DEFAULT_BUNDLE_TOKENS = 4_000
MAX_BUNDLE_TOKENS = 32_000

Channel = Literal["preferences", "lessons", "core", "workstreams", "memory_index", "sessions"]
SourceKind = Literal["canonical", "graph_derived"]
Validity = Literal["current", "stale", "superseded"]
Trust = Literal["trusted", "standard", "quarantined"]
AuditReason = Literal[
    "channel_default_selected",
    "relevance_selected",
    "quarantined_trust",
    "poisoning_gate",
    "branch_scope_mismatch",
    "superseded_excluded",
    "stale_excluded",
    "below_trust_floor",
    "channel_item_limit",
    "channel_token_budget",
    "total_token_budget",
    "not_yet_known",
]
EpochSeconds = Annotated[float, Field(ge=0, allow_inf_nan=False)]


class BundleRequest(StrictModel):
    schema_version: int = Field(description="Must be 1.")
    task: str = Field(
        min_length=1, max_length=MAX_TASK_CHARS, description="The task the bundle is for."
    )
    project: Name = Field(description="The project.")
    branch: Name | None = Field(default=None, description="Drops memories of other branches.")
    role: Role = Field(default="coder", description="Which sections come first.")
    risk: Risk = Field(default="medium", description="high drops raw-archive sessions.")
    token_budget: int = Field(
        default=DEFAULT_BUNDLE_TOKENS,
        ge=1,
        le=MAX_BUNDLE_TOKENS,
        description="Most tokens (characters / 4, rounded up).",
    )
    as_of_epoch: EpochSeconds | None = Field(
        default=None, description="Unix seconds, not in the future: the bundle as of then."
    )
    include_superseded: bool = Field(default=False, description="Also superseded memory versions.")

    @model_validator(mode="after")
    def _supported(self) -> BundleRequest:
        if self.schema_version != BUNDLE_SCHEMA_VERSION:
            raise InvalidArgument("schema_version", f"must be {BUNDLE_SCHEMA_VERSION}")
        if not self.task.strip():
            raise InvalidArgument("task", "must not be blank")
        return self


class BundleItem(OutputModel):
    stable_key: str = Field(description="memory:<id>, fact:<key>, workstream:<id>, session:<id>.")
    channel: Channel
    title: str
    text: str
    source_kind: SourceKind = Field(
        description="canonical (memories, facts, workstreams) or graph_derived (sessions "
        "summarised from the raw archive)."
    )
    canonical_ref: str = Field(description="The memory, fact, workstream or session id.")
    validity: Validity
    trust: Trust
    project: str
    branch: str | None


class AuditEntry(OutputModel):
    stable_key: str
    channel: Channel
    selected: bool
    reason: AuditReason
    token_estimate: int = Field(description="ceil((title + text characters + 1) / 4).")


class BundleAudit(OutputModel):
    schema_version: int
    policy_version: str
    plan_hash: str
    as_of: str | None = Field(description="The instant the bundle reflects (null: now).")
    candidates_considered: int
    selected_count: int
    dropped_count: int
    token_estimate: int = Field(description="Tokens of the selected items (≤ token_budget).")
    token_budget: int
    section_budgets: dict[str, int] = Field(description="Tokens per section (its share).")
    entries: list[AuditEntry]


class ContextBundle(OutputModel):
    schema_version: int
    plan_hash: str = Field(description="sha256 of the canonical inputs and policy.")
    task: str
    project: str
    branch: str | None
    role: Role
    risk: Risk
    as_of: str | None
    include_superseded: bool
    preferences: list[BundleItem]
    failure_lessons: list[BundleItem]
    current_truth: list[BundleItem]
    workstreams: list[BundleItem]
    memory_index: list[BundleItem]
    recent_sessions: list[BundleItem]
    audit: BundleAudit

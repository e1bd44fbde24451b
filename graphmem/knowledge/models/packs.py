"""Context packs (role-specific, token-budgeted context compiled from facts, claims, questions
and chunks) and enrich_context, the one-step pipeline run that assesses, packs, extracts,
promotes and explains."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from graphmem.core.models import AuditText, Continuation, Name, OutputModel, StrictModel

PackType = Literal["planner", "reviewer", "executor", "bridge_checker", "handoff"]
PACK_TYPES: tuple[PackType, ...] = ("planner", "reviewer", "executor", "bridge_checker", "handoff")
EnrichDepth = Literal["quick", "standard", "deep"]
Section = Literal["facts", "claims", "questions", "chunks"]

CONTRACT_VERSION = "graphmem_pack_v1"
DEFAULT_TOKEN_BUDGET = 4000
MAX_TOKEN_BUDGET = 100_000


class BuildContextPackRequest(StrictModel):
    pack_type: PackType = Field(
        default="executor", description="Role: weights facts, claims, questions and chunks."
    )
    target_ref: Name | None = Field(
        default=None, description="Workstream id to scope the pack to; absent: unscoped."
    )
    session_id: AuditText | None = Field(
        default=None,
        description="One of your sessions (from archive_turns), recorded on the pack; grants "
        "nothing. Another's or unknown: not_found.",
    )
    token_budget: int | None = Field(
        default=None,
        ge=-MAX_TOKEN_BUDGET,
        le=MAX_TOKEN_BUDGET,
        description="Body budget; unset or 0 means 4000, negative selects nothing. A line "
        "costs ceil((characters + 1) / 4).",
    )

    @property
    def effective_budget(self) -> int:
        """Unset or 0 means 4000; a negative budget passes through (and selects nothing)."""
        return self.token_budget or DEFAULT_TOKEN_BUDGET


class PackSections(OutputModel):
    facts: int = Field(description="Items under 'Canonical Facts'.")
    claims: int = Field(description="Items under 'Provisional Claims (unverified)'.")
    questions: int = Field(description="Items under 'Open Questions'.")
    chunks: int = Field(description="Items under 'Context Fragments'.")


class PackCandidates(OutputModel):
    facts: int
    claims: int
    questions: int
    chunks: int


class PackSkips(OutputModel):
    irrelevant: int = Field(description="Dropped: relevance below the threshold (task-scoped).")
    budget: int = Field(description="Skipped: its line would exceed the remaining budget.")
    cap: int = Field(description="Skipped: its section was already at its cap.")
    duplicate: int = Field(description="Skipped: the same text was already selected.")


class AdvancedContext(OutputModel):
    candidates: PackCandidates = Field(description="Items read from the bounded pools.")
    skipped: PackSkips
    caps: dict[str, int] = Field(description="Items allowed per section at this budget.")
    role_weights: dict[str, float] = Field(description="This pack type's weight per section.")
    workstream_id: str | None = Field(description="The workstream of a task-scoped pack.")
    task_terms: list[str] = Field(
        description="The workstream's words relevance is measured against (task-scoped)."
    )
    retired_pack_ids: list[str] = Field(description="Older current packs this one retired.")
    session_id: str | None = Field(description="Recorded for attribution; grants nothing.")


class BuildContextPackResult(OutputModel):
    pack_id: str | None = Field(description="Null when the pack was empty (not persisted).")
    pack_type: PackType
    token_budget: int = Field(description="The budget applied (unset or 0 means 4000).")
    token_usage: int = Field(
        description="Tokens of the body: the sum over its lines of ceil((characters + 1) / 4) "
        "(a line's newline counted); never above token_budget."
    )
    items_included: int
    preview_items_included: int = Field(
        description="Items in the preview: the pack's top-ranked items, at most 5."
    )
    task_scoped: bool
    persisted: bool
    freshness_score: float = Field(description="Score-weighted mean freshness of the items.")
    relevance_score: float = Field(description="Score-weighted mean relevance of the items.")
    quality_score: float = Field(description="Score-weighted mean trust of the items.")
    previewable: bool = Field(
        description="True when the pack has items and quality_score is at least 0.5."
    )
    contract_version: str
    selection_policy: str
    advanced_context: AdvancedContext
    sections: PackSections
    body: str
    revision: int = Field(description="The tenant's history revision this call committed.")


class EnrichContextRequest(StrictModel):
    depth: EnrichDepth = Field(
        default="quick",
        description="quick: assess chunks, build packs; standard: also extract and "
        "auto-promote claims; deep: also walk the impact of recent facts.",
    )
    continuation: Continuation | None = None


class EnrichContextResult(OutputModel):
    depth: EnrichDepth
    steps: list[dict[str, int]] = Field(
        description="One entry per stage, in order, with its counters."
    )
    pack_body: str = Field(description="The body of the executor pack built by this run.")
    claims_extracted: int | None = Field(
        default=None, description="Claims extracted (standard and deep only)."
    )
    claims_promoted: int | None = Field(
        default=None, description="Claims auto-promoted (standard and deep only)."
    )
    promoted_facts: list[str] | None = Field(
        default=None, description="Ids of the facts the promotions produced or reused."
    )
    impacts_analyzed: int | None = Field(
        default=None, description="Facts whose impact was walked (deep only)."
    )
    truncated: bool = Field(
        description="True when a bound left work undone (over 20 active workstreams or "
        "promoted facts)."
    )
    revision: int | None = Field(description="The last revision this call committed.")
    batches: int = Field(description="Batches run, each its own transaction.")
    continuation: str | None = Field(
        description="The pass is not done: call again with it (same depth). Null when done."
    )

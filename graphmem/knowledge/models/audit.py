"""The self-repair audit (audit_memory) and its persisted issues (list_memory_issues)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from graphmem.core.models import AuditedRequest, OutputModel, StrictModel

AUDIT_VERSION = "graphmem_audit_v1"
IssueType = Literal[
    "claim_missing_evidence",
    "promoted_claim_missing_fact",
    "fact_missing_provenance",
    "contradiction_count_drift",
    "unresolved_contradiction",
    "fact_key_slot_drift",
    "context_pack_missing_provenance",
    "context_pack_stale",
    "context_pack_summary_drift",
    "context_pack_task_drift",
    "quarantined_content",
    "quarantined_memory",
]
Severity = Literal["high", "medium", "low"]
SubjectKind = Literal["claim", "fact", "fact_pair", "fact_key", "context_pack", "chunk", "memory"]
IssueStatus = Literal["open", "resolved"]
ScanName = Literal[
    "fact_keys", "claims", "fact_provenance", "contradictions", "packs", "quarantine"
]
MAX_STALE_SYNC_MINUTES = 10_080  # a week


class AuditMemoryRequest(AuditedRequest):
    repair: bool = Field(default=True, description="false: only record the issues found.")
    stale_sync_minutes: int = Field(
        default=120,
        ge=1,
        le=MAX_STALE_SYNC_MINUTES,
        description="A current pack is stale when an included item changed more than "
        "this many minutes after it was made.",
    )


class AuditRepairs(OutputModel):
    fact_provenance_backfilled: int = Field(
        description="PROMOTED_TO edges re-created from a claim to its fact (from the claim's "
        "fact_id or the fact's claim_id)."
    )
    supersede_links_repaired: int = Field(
        description="Fact key slots brought back to exactly one CURRENT edge to their newest "
        "active fact (extra active facts superseded with a SUPERSEDES link, stray CURRENT "
        "edges kept as WAS_CURRENT)."
    )
    contradiction_counts_refreshed: int = Field(
        description="Facts whose contradiction_count was reset to their open CONTRADICTS "
        "links to live facts."
    )
    context_pack_summaries_materialized: int = Field(
        description="Current packs whose summary (items_included, sections_json) was "
        "re-materialized from their INCLUDES provenance."
    )
    task_materialization_reconciled: int = Field(
        description="Current packs reconciled with what they materialize for their target: "
        "retired when stale, untraceable (no provenance), a duplicate of a newer current "
        "pack of the same kind and target, or scoped to a workstream that no longer exists; "
        "re-linked to their workstream when the FOR_WORKSTREAM edge was missing."
    )


class AuditIssue(OutputModel):
    issue_id: str
    issue_type: IssueType
    severity: Severity
    subject_kind: SubjectKind
    subject_ref: str = Field(description="Id of the subject; a fact pair is '<id>|<id>'.")
    details: dict[str, object]  # a JSON object, its fields by issue type
    status: IssueStatus = Field(description="resolved when this run repaired it.")
    new: bool = Field(description="Not open before this run (created or re-opened).")
    repaired: bool


class AuditCheck(OutputModel):
    scan: ScanName
    scanned: int = Field(description="Subjects read from the scan's cursor this run.")
    rechecked: int = Field(description="Subjects of open issues re-evaluated.")
    found: int = Field(description="Issues detected by this scan.")
    complete: bool = Field(
        description="The scan reached the end of its subjects (it restarts from the "
        "beginning next run); false: the batch limit stopped it and the next run continues."
    )


class AuditMemoryResult(OutputModel):
    audit_version: str = AUDIT_VERSION
    repair: bool
    stale_sync_minutes: int
    emit_event: bool = Field(
        description="Whether this run appended a history event and a run entry (it does when "
        "anything was found new, resolved or repaired)."
    )
    open_issue_count: int = Field(description="Open issues of the tenant after this run.")
    resolved_issue_count: int = Field(description="Issues this run resolved (repaired or gone).")
    new_issue_count: int = Field(description="Issues this run opened or re-opened.")
    issues: list[AuditIssue] = Field(description="Issues detected by this run (at most 200).")
    issues_truncated: bool
    repairs: AuditRepairs
    checks: list[AuditCheck]
    run_id: str | None = Field(description="The run entry, null when nothing happened.")
    revision: int | None = Field(description="Revision committed, null when nothing happened.")
    ran_at: datetime


class ListMemoryIssuesRequest(StrictModel):
    status: str = Field(default="open", max_length=50, description="open or resolved.")
    limit: int = Field(default=100, ge=1, le=500, description="Max issues.")


class MemoryIssue(OutputModel):
    issue_id: str
    issue_type: str
    severity: str
    subject_kind: str
    subject_ref: str
    details: dict[str, object]  # a JSON object, its fields by issue type
    status: str
    resolution: str | None = Field(description="repaired or not_redetected, when resolved.")
    first_detected_at: datetime
    last_detected_at: datetime
    resolved_at: datetime | None


class ListMemoryIssuesResult(OutputModel):
    count: int
    issues: list[MemoryIssue] = Field(description="Most recently detected first.")
    audit_version: str = AUDIT_VERSION
    last_audit_at: datetime | None = Field(description="When audit_memory last ran.")

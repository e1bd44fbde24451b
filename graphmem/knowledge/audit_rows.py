"""The audit's rows (graphmem/knowledge/audit.py, audit_scans.py and audit_rules.py read them):
one TypedDict per statement shape, its RETURN columns as ``plain`` makes them, and the items of
the statements' list parameters. Pure: no driver (audit_rules.py is a rule module)."""

from __future__ import annotations

from typing import TypedDict

from graphmem.knowledge.models.audit import IssueStatus, IssueType, Severity, SubjectKind
from graphmem.knowledge.models.chunks import ChunkState, ClaimStatus
from graphmem.knowledge.models.packs import PackType

# --- the run's bookkeeping and its issues --------------------------------------------------------


class AuditStateRow(TypedDict):
    """knowledge/merge_audit_state: the scan cursors (JSON), null before the first run."""

    cursors_json: str | None


class OpenIssueSubjectRow(TypedDict):
    """knowledge/list_open_issue_subjects."""

    issue_type: IssueType
    subject_ref: str


class UpsertedIssueRow(TypedDict):
    """knowledge/upsert_issues: the issue and the status it had (None: created now)."""

    id: str
    issue_type: IssueType
    subject_ref: str
    before: IssueStatus | None


class ResolvedIssueRow(TypedDict):
    """knowledge/resolve_issues: an open issue resolved as no longer found."""

    id: str


class OpenIssuesRow(TypedDict):
    """knowledge/count_open_issues."""

    open: int


class StoredIssue(TypedDict):
    id: str
    issue_type: IssueType
    severity: Severity
    subject_kind: SubjectKind
    subject_ref: str
    details_json: str | None
    status: IssueStatus
    resolution: str | None  # repaired, not_redetected, or govern_memory's action
    first_detected_at: str
    last_detected_at: str
    resolved_at: str | None


class MemoryIssuesRow(TypedDict):
    """knowledge/list_memory_issues: issues of one status, when the audit last ran (text)."""

    issues: list[StoredIssue]
    last_audit_at: str | None


# --- the scans -----------------------------------------------------------------------------------
class ScanRow(TypedDict):
    """What every scan statement (knowledge/audit_*) returns beside its findings."""

    scanned: int  # subjects read from the cursor
    last: str | None  # the last of them in the scan's order (None: none read)


class DriftedSlot(TypedDict):
    ref: str
    key: str
    owner: str
    current_ids: list[str]
    active_ids: list[str]


class KeySlotsRow(ScanRow):
    """knowledge/audit_fact_key_slots."""

    drifted: list[DriftedSlot]


class ClaimWithoutEvidence(TypedDict):
    ref: str
    status: ClaimStatus
    chunk_id: str | None


class ClaimWithoutFact(TypedDict):
    ref: str
    fact_id: str | None
    fact_found: bool  # fact_id names a fact of the tenant


class ClaimsRow(ScanRow):
    """knowledge/audit_claims."""

    missing_evidence: list[ClaimWithoutEvidence]
    missing_fact: list[ClaimWithoutFact]


class FactWithoutClaim(TypedDict):
    ref: str
    claim_id: str
    status: str
    claim_found: bool  # a claim of the tenant has that id


class FactProvenanceRow(ScanRow):
    """knowledge/audit_fact_provenance (its cursor, ``last``, is a claim_id)."""

    missing: list[FactWithoutClaim]


class CountedFact(TypedDict):
    ref: str
    stored: int | None  # its contradiction_count
    expected: int  # its open CONTRADICTS links to live facts
    live: bool
    partners: list[str]  # the live facts it contradicts


class ContradictionsRow(ScanRow):
    """knowledge/audit_contradictions."""

    facts: list[CountedFact]


class AuditedPack(TypedDict):
    """One current pack as knowledge/audit_packs reads it (an item of its ``packs`` column)."""

    ref: str
    pack_type: PackType
    target_ref: str | None  # the workstream of a task-scoped pack
    items_included: int | None
    sections_json: str | None
    sections: list[str]  # the section of each INCLUDES edge
    invalid_facts: list[str]  # included facts no longer active, or lapsed
    rejected_claims: list[str]
    quarantined_items: list[str]  # quarantined chunks, and questions of one
    lagging: list[str]  # items changed past the sync deadline
    linked: bool  # unscoped, or its FOR_WORKSTREAM edge is there
    workstream_found: bool
    newer: list[str]  # a newer current pack of the same kind and target (at most one)


class PacksRow(ScanRow):
    """knowledge/audit_packs."""

    packs: list[AuditedPack]


class QuarantinedChunk(TypedDict):
    ref: str
    project: str
    state: ChunkState
    reasons: list[str] | None


class QuarantineRow(ScanRow):
    """knowledge/audit_quarantined_chunks."""

    quarantined: list[QuarantinedChunk]


class RepairedSlotRow(TypedDict):
    """knowledge/repair_fact_key_slots: one key slot, its CURRENT fact now (None: none
    active) and the facts it superseded or released."""

    key_id: str
    winner_id: str | None
    superseded: list[str]
    released: list[str]


class LinkPair(TypedDict):
    """An item of knowledge/link_claims_to_facts' ``$pairs``."""

    claim_id: str
    fact_id: str


class LinkedPairRow(LinkPair):
    """knowledge/link_claims_to_facts: the pair, and whether its edge was created now."""

    created: bool


class RefreshedCountRow(TypedDict):
    """facts/refresh_contradiction_counts: a fact whose count was reset."""

    id: str
    expected: int


class ReconciledPackRow(TypedDict):
    """knowledge/reconcile_packs: what was done to one pack."""

    id: str
    retired: bool
    relinked: bool
    materialized: bool


# --- the pack checks' action ---------------------------------------------------------------------
class PackAction(TypedDict):
    """An item of knowledge/reconcile_packs' ``$actions``: one pack's repair."""

    id: str
    retire: bool
    reason: str | None
    retired_by: str
    relink: bool
    items_included: int | None  # None: the summary is kept
    sections_json: str | None

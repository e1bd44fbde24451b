"""The pure rules of the audit (graphmem/knowledge/audit.py runs it): the issue table, the fair
share of open issues a scan re-checks, the pack checks and the merge of the scans' answers.
No driver: these take rows and return findings."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import islice, zip_longest
from typing import cast, get_args

from graphmem.knowledge.audit_rows import AuditedPack, PackAction
from graphmem.knowledge.models.audit import (
    AuditMemoryRequest,
    AuditMemoryResult,
    AuditRepairs,
    IssueType,
    ScanName,
    Severity,
    SubjectKind,
)
from graphmem.knowledge.pack_rules import SECTIONS

AUDIT_BATCH = 1_000  # subjects per scan per run, and open issues re-checked per scan
FANOUT = 100  # CONTRADICTS neighbours read per fact
MAX_ISSUES_RETURNED = 200
MAX_DETAIL_IDS = 20  # ids listed per detail field
MAX_EVENT_SUBJECTS = 100

# issue type -> (severity, subject kind, the scan that finds and re-checks it; None: no scan)
ISSUES: dict[IssueType, tuple[Severity, SubjectKind, ScanName | None]] = {
    "fact_key_slot_drift": ("high", "fact_key", "fact_keys"),
    "claim_missing_evidence": ("high", "claim", "claims"),
    "promoted_claim_missing_fact": ("high", "claim", "claims"),
    "fact_missing_provenance": ("high", "fact", "fact_provenance"),
    "contradiction_count_drift": ("medium", "fact", "contradictions"),
    "unresolved_contradiction": ("high", "fact_pair", "contradictions"),
    "context_pack_missing_provenance": ("medium", "context_pack", "packs"),
    "context_pack_stale": ("medium", "context_pack", "packs"),
    "context_pack_summary_drift": ("low", "context_pack", "packs"),
    "context_pack_task_drift": ("medium", "context_pack", "packs"),
    "quarantined_content": ("medium", "chunk", "quarantine"),
    # opened by save_memory and resolved by govern_memory (graphmem/memories/govern.py), so
    # no scan re-checks it (so none reads it: it cannot crowd out quarantined_content)
    "quarantined_memory": ("medium", "memory", None),
}
SCANS: tuple[ScanName, ...] = get_args(ScanName)


def issue_types_of(scan: ScanName) -> list[IssueType]:
    """The issue types a scan finds, and so re-checks."""
    return [issue_type for issue_type, (_, _, found_by) in ISSUES.items() if found_by == scan]


@dataclass
class Finding:
    issue_type: IssueType
    subject_ref: str
    details: dict[str, object]  # a JSON object: the issue's details
    repaired: bool = False


def fair_share(
    open_refs: dict[IssueType, list[str]], types: Iterable[IssueType], limit: int
) -> list[tuple[IssueType, str]]:
    """At most ``limit`` open issues of these types to re-check, taken in turn from each type
    (each in its own order), so no type crowds out another."""
    queues: list[list[tuple[IssueType, str]]] = [
        [(issue_type, ref) for ref in open_refs.get(issue_type, [])] for issue_type in types
    ]
    turns = (pair for turn in zip_longest(*queues) for pair in turn if pair is not None)
    return list(islice(turns, limit))


def detail_ids(values: list[str]) -> list[str]:
    return sorted(values)[:MAX_DETAIL_IDS]


# --- the pack checks -----------------------------------------------------------------------------
def pack_sections(pack: AuditedPack) -> tuple[dict[str, int] | None, dict[str, int]]:
    """The stored per-section counts (None when absent or not a count map) and the counts the
    INCLUDES edges give."""
    actual: dict[str, int] = dict.fromkeys(SECTIONS, 0)
    for section in pack["sections"]:
        actual[section] = actual.get(section, 0) + 1
    try:
        stored = json.loads(pack["sections_json"]) if pack["sections_json"] else None
    except (TypeError, ValueError):
        stored = None
    if not isinstance(stored, dict):
        return None, actual
    fields = cast("dict[str, object]", stored)  # json.loads is untyped; JSON keys are strings
    counts = {name: value for name, value in fields.items() if isinstance(value, int)}
    if len(counts) != len(fields):
        return None, actual
    return counts, actual


@dataclass
class PackPlan:
    """What the pack checks found for one pack and the one repair action they lead to."""

    ref: str
    findings: list[Finding] = field(default_factory=list[Finding])
    retire_reason: str | None = None
    retired_by: str = "audit_memory"
    relink: bool = False
    items_included: int | None = None
    sections_json: str | None = None

    def retire(self, reason: str, by: str = "audit_memory") -> None:
        if self.retire_reason is None:
            self.retire_reason, self.retired_by = reason, by

    def action(self) -> PackAction:
        return PackAction(
            id=self.ref,
            retire=self.retire_reason is not None,
            reason=self.retire_reason,
            retired_by=self.retired_by,
            relink=self.relink,
            items_included=self.items_included,
            sections_json=self.sections_json,
        )


# records a finding of the current scan: (issue type, subject ref, details) -> None when known
Found = Callable[[IssueType, str, dict[str, object]], Finding | None]


def plan_pack(found_by_scan: Found, pack: AuditedPack) -> PackPlan:
    plan = PackPlan(pack["ref"])

    def found(issue_type: IssueType, details: dict[str, object]) -> bool:
        finding = found_by_scan(issue_type, plan.ref, details)
        if finding is not None:
            plan.findings.append(finding)
        return finding is not None

    included = len(pack["sections"])
    items = pack["items_included"] or 0
    if (
        included == 0
        and items > 0
        and found("context_pack_missing_provenance", {"items_included": items})
    ):
        plan.retire("missing_provenance")
    reasons = {
        "fact_not_valid": pack["invalid_facts"],
        "claim_rejected": pack["rejected_claims"],
        "quarantined": pack["quarantined_items"],
        "source_updated": pack["lagging"],
    }
    stale = {reason: detail_ids(ids) for reason, ids in reasons.items() if ids}
    if stale and found("context_pack_stale", {"reasons": sorted(stale), **stale}):
        plan.retire("stale: " + ", ".join(sorted(stale)))
    stored, actual = pack_sections(pack)
    section_drift = stored is not None and any(
        stored.get(name, 0) != count for name, count in actual.items()
    )
    summary: dict[str, object] = {"items_included": items, "includes": included, "sections": actual}
    if (
        included > 0
        and (items != included or section_drift)
        and found("context_pack_summary_drift", summary)
    ):
        plan.items_included = included
        if stored is not None:
            plan.sections_json = json.dumps({**stored, **actual}, sort_keys=True)
    task: list[str] = []
    if not pack["linked"]:
        task.append("workstream_link_missing" if pack["workstream_found"] else "workstream_missing")
    if pack["newer"]:
        task.append("duplicate_current")
    details: dict[str, object] = {
        "reasons": task,
        "target_ref": pack["target_ref"],
        "newer": pack["newer"],
    }
    if task and found("context_pack_task_drift", details):
        if "duplicate_current" in task:
            plan.retire("duplicate_current", by=pack["newer"][0])
        elif "workstream_missing" in task:
            plan.retire("workstream_missing")
        else:
            plan.relink = True
    return plan


# --- the answer ----------------------------------------------------------------------------------
def merged(request: AuditMemoryRequest, settled: list[AuditMemoryResult]) -> AuditMemoryResult:
    """The scans' results as one answer: counts summed, the last scan's totals."""
    issues = sorted(
        (issue for result in settled for issue in result.issues),
        key=lambda i: (not i.new, i.issue_type, i.subject_ref),
    )
    repairs = {
        name: sum(getattr(result.repairs, name) for result in settled)
        for name in AuditRepairs.model_fields
    }
    recorded = [result for result in settled if result.run_id is not None]
    last = recorded[-1] if recorded else settled[-1]
    return AuditMemoryResult(
        repair=request.repair,
        stale_sync_minutes=request.stale_sync_minutes,
        emit_event=bool(recorded),
        open_issue_count=settled[-1].open_issue_count,
        resolved_issue_count=sum(result.resolved_issue_count for result in settled),
        new_issue_count=sum(result.new_issue_count for result in settled),
        issues=issues[:MAX_ISSUES_RETURNED],
        issues_truncated=len(issues) > MAX_ISSUES_RETURNED
        or any(result.issues_truncated for result in settled),
        repairs=AuditRepairs(**repairs),
        checks=[check for result in settled for check in result.checks],
        run_id=last.run_id,
        revision=last.revision,
        ran_at=settled[-1].ran_at,
    )

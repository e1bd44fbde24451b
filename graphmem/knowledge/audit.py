"""The persistent self-repair audit (audit_memory) and its issues (list_memory_issues).

audit_memory(repair=true, stale_sync_minutes=120) runs each scan in its own write
transaction: its repairs, issue updates, cursor and history event commit together or not at
all, and a concurrent writer of the tenant waits for one scan at most. A failed scan keeps the
scans before it. The stored cursors are the audit's continuation: the next run resumes from
them. Findings are data, never errors.

Scans. Six scans, in this order (a repair can change what a later scan sees: a key slot repair
changes which facts are live, so contradictions and packs are checked after it). Each reads a
bounded batch (AUDIT_BATCH = 1,000 subjects) by index seek, in id order from a cursor kept on
the tenant's ``AuditState`` node (reached from its History head): a run continues where the
previous one stopped, and a scan that reaches the end restarts from the beginning next run
(``checks[].complete``). Each scan also re-evaluates the subjects of the open issues of its
types, at most AUDIT_BATCH taken in turn from each type (each type read least recently
detected first, at most AUDIT_BATCH of it), so no type crowds out another and an open issue
whose subject is fixed, or gone, is resolved whatever the cursor.

  scan             subjects (index)                    issue types (severity, subject_kind)
  fact_keys        FactKey (tenant, id)                fact_key_slot_drift (high, fact_key)
  claims           Claim (tenant, id)                  claim_missing_evidence (high, claim)
                                                       promoted_claim_missing_fact (high, claim)
  fact_provenance  Fact (tenant, claim_id): facts      fact_missing_provenance (high, fact)
                   made from claims only
  contradictions   Fact (tenant, contradiction_count   contradiction_count_drift (medium, fact)
                   > 0) and their CONTRADICTS          unresolved_contradiction (high,
                   neighbours (at most 100 each)       fact_pair '<id>|<id>', ids sorted)
  packs            Pack (tenant, status 'current', id) context_pack_missing_provenance (medium)
                                                       context_pack_stale (medium)
                                                       context_pack_summary_drift (low)
                                                       context_pack_task_drift (medium)
                                                       (subject_kind context_pack)
  quarantine       Chunk (tenant, quarantined, id)     quarantined_content (medium, chunk)
  (none)           -                                   quarantined_memory (medium, memory)

Checks and repairs (repairs only when repair is true; the counter each one feeds):
- fact_key_slot_drift: a key with more than one CURRENT edge, a CURRENT edge to a fact that is
  not active, or an active fact no CURRENT points at. Repair: the newest active fact
  (recorded_at, then id) is the one CURRENT fact; other CURRENT edges become WAS_CURRENT; other
  active facts become superseded by it (SUPERSEDES link, new transaction-time state); decisions
  watching the key are re-evaluated (signals pushed). → supersede_links_repaired (per slot).
- claim_missing_evidence: a claim without EVIDENCED_BY to a chunk. No repair (the excerpt and
  offsets cannot be recovered): re-extract the chunk, or reject the claim.
- promoted_claim_missing_fact: a promoted claim without PROMOTED_TO. Repair when its fact_id
  names a fact of the tenant: the edge is re-created. → fact_provenance_backfilled (per edge).
- fact_missing_provenance: a fact with claim_id but no claim PROMOTED_TO it. Repair when that
  claim exists: the edge is re-created (one edge can settle this issue and the one above).
  → fact_provenance_backfilled.
- contradiction_count_drift: contradiction_count ≠ the fact's open CONTRADICTS links (not
  cleared) to live facts (active, not lapsed) — the count promote_candidate maintains. Repair:
  refreshed. → contradiction_counts_refreshed (per fact).
- unresolved_contradiction: an open CONTRADICTS between two live facts, one issue per
  unordered pair. No repair: truth maintenance is govern_fact's (supersede or invalidate one).
- context_pack_missing_provenance: a current pack with items_included > 0 and no INCLUDES edge.
  Repair: retired (a pack that cannot be traced is not served; build_context_pack makes a new
  one). → task_materialization_reconciled.
- context_pack_stale: a current pack that INCLUDES a fact no longer valid (not active, or
  lapsed), a rejected claim, a quarantined chunk or a question of one, or an item changed
  (updated_at, answered_at or promoted_at) more than stale_sync_minutes after the pack was
  made (the pack lagged its sources past the sync threshold). Repair: retired.
  → task_materialization_reconciled.
- context_pack_summary_drift: a current pack with provenance whose items_included differs from
  its INCLUDES count, or whose sections_json counts differ from its INCLUDES per section.
  Repair: both re-materialized from the edges. → context_pack_summaries_materialized.
- context_pack_task_drift: a current pack with a target_ref but no FOR_WORKSTREAM edge to that
  workstream (repair: re-linked when it exists, retired when it no longer does), or with a newer
  current pack of the same pack_type and scope_key (repair: retired, retired_by the newer).
  → task_materialization_reconciled.
  A pack that is retired settles all its pack issues (stored resolved, repaired).
- quarantined_content: a quarantined chunk (TOOLS.md: quarantined content is listed as issues).
  No repair: only govern_memory releases or rejects it.
- quarantined_memory: a quarantined memory. Opened by save_memory and resolved by
  govern_memory (graphmem/memories/govern.py), listed by list_memory_issues; no scan finds or
  re-checks it, and none reads it.

Issues are upserted on (tenant, issue_type, subject_kind, subject_ref) (unique constraint) with
their details; a resolved issue found again is re-opened; an issue repaired in this run is
stored resolved (resolution repaired); an open issue re-evaluated and no longer found is
resolved (resolution not_redetected). Each scan settles in its own transaction: a scan that
newly found (created or re-opened), resolved or repaired anything writes a run entry and one
history event (aggregate audit) of its own, so a run writes up to six of each; the answer
reports the last of them (run_id, revision; emit_event when any was written). A scan that
finds only what is already open writes neither (it refreshes last_detected_at and its
cursor), so a second run right after a first finds nothing new. repair=false records and
re-opens issues but changes nothing else.

list_memory_issues(status, limit) reads issues of one status, most recently detected first.
"""

from __future__ import annotations

import functools
import json
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable

from graphmem.core.clock import parse_iso_or_none
from graphmem.core.ids import new_id
from graphmem.core.models import from_node
from graphmem.core.progress import step
from graphmem.decisions import evaluation as decisions
from graphmem.history.chain import Audit
from graphmem.history.write_path import Write, hand_over, write
from graphmem.knowledge.audit_rows import (
    AuditStateRow,
    MemoryIssuesRow,
    OpenIssuesRow,
    OpenIssueSubjectRow,
    ResolvedIssueRow,
    UpsertedIssueRow,
)
from graphmem.knowledge.audit_rules import (
    AUDIT_BATCH,
    ISSUES,
    MAX_EVENT_SUBJECTS,
    MAX_ISSUES_RETURNED,
    SCANS,
    Finding,
    issue_types_of,
    merged,
)
from graphmem.knowledge.audit_scans import (
    AuditRun,
    scan_claims,
    scan_contradictions,
    scan_fact_keys,
    scan_fact_provenance,
    scan_packs,
    scan_quarantine,
)
from graphmem.knowledge.models.audit import (
    AuditIssue,
    AuditMemoryRequest,
    AuditMemoryResult,
    AuditRepairs,
    IssueStatus,
    IssueType,
    ListMemoryIssuesRequest,
    ListMemoryIssuesResult,
    MemoryIssue,
    ScanName,
)
from graphmem.knowledge.runs import record_run
from graphmem.store import TenantStore, shaped

_SCANNERS: dict[ScanName, Callable[[AuditRun], Awaitable[None]]] = {
    "fact_keys": scan_fact_keys,
    "claims": scan_claims,
    "fact_provenance": scan_fact_provenance,
    "contradictions": scan_contradictions,
    "packs": scan_packs,
    "quarantine": scan_quarantine,
}


# --- the run -------------------------------------------------------------------------------------
async def audit_memory(
    db: TenantStore, request: AuditMemoryRequest, batch: int = AUDIT_BATCH
) -> AuditMemoryResult:
    """The six scans in order, each its own transaction (a concurrent writer waits for one
    scan at most); the answer merges them."""
    settled: list[AuditMemoryResult] = []
    for done, name in enumerate(SCANS, start=1):
        if settled:
            await hand_over()
        work = functools.partial(_scan_in_tx, request=request, batch=batch, name=name)
        settled.append(await write(db, "audit_memory", work, audit=Audit.of(request)))
        await step(done, len(SCANS), f"scanned {name}")
    return merged(request, settled)


async def _scan_in_tx(
    w: Write, *, request: AuditMemoryRequest, batch: int, name: ScanName
) -> AuditMemoryResult:
    """One scan from its cursor, its findings stored as issues, its cursor moved."""
    state = shaped(AuditStateRow, await w.run("knowledge/merge_audit_state", now=w.now_iso))
    cursors: dict[str, str] = json.loads(state[0]["cursors_json"] or "{}")
    open_refs: dict[IssueType, list[str]] = defaultdict(list)
    rows = await w.run(
        "knowledge/list_open_issue_subjects", types=issue_types_of(name), limit=batch
    )
    for row in shaped(OpenIssueSubjectRow, rows):  # at most a batch of each of this scan's types
        open_refs[row["issue_type"]].append(row["subject_ref"])
    run = AuditRun(w, request, batch, cursors, open_refs)
    await _SCANNERS[name](run)
    return await _settle(run)


def _status(finding: Finding) -> IssueStatus:
    return "resolved" if finding.repaired else "open"


async def _upsert_issues(
    run: AuditRun, findings: list[Finding]
) -> dict[tuple[str, str], UpsertedIssueRow]:
    """Store each finding as its issue (repaired ones resolved); the stored rows by key."""
    upserted = await run.w.run(
        "knowledge/upsert_issues",
        issues=[
            {
                "id": new_id(),
                "issue_type": f.issue_type,
                "severity": ISSUES[f.issue_type][0],
                "subject_kind": ISSUES[f.issue_type][1],
                "subject_ref": f.subject_ref,
                "details_json": json.dumps(f.details, sort_keys=True, default=str),
                "status": _status(f),
            }
            for f in findings
        ],
        now=run.now,
    )
    return {(r["issue_type"], r["subject_ref"]): r for r in shaped(UpsertedIssueRow, upserted)}


async def _resolve_gone(run: AuditRun, detected: set[tuple[str, str]]) -> list[ResolvedIssueRow]:
    """Resolve the re-checked open issues not found again (not_redetected)."""
    gone = [
        {"issue_type": issue_type, "subject_kind": ISSUES[issue_type][1], "subject_ref": ref}
        for issue_type, refs in sorted(run.rechecked.items())
        for ref in sorted(refs)
        if (issue_type, ref) not in detected
    ]
    if not gone:
        return []
    return shaped(
        ResolvedIssueRow, await run.w.run("knowledge/resolve_issues", keys=gone, now=run.now)
    )


def _audit_issue(finding: Finding, stored: UpsertedIssueRow) -> AuditIssue:
    return AuditIssue(
        issue_id=stored["id"],
        issue_type=finding.issue_type,
        severity=ISSUES[finding.issue_type][0],
        subject_kind=ISSUES[finding.issue_type][1],
        subject_ref=finding.subject_ref,
        details=finding.details,
        status=_status(finding),
        new=stored["before"] != "open",
        repaired=finding.repaired,
    )


async def _record_audit(
    run: AuditRun,
    issues: list[AuditIssue],
    resolved_gone: list[ResolvedIssueRow],
    counters: dict[str, object],
) -> tuple[str, int]:
    """Push the changed facts' decision signals, record the run and its history event."""
    w = run.w
    changed_facts = sorted(set(run.changed_facts))
    pushed = await decisions.push_signals(w, changed_facts)
    run_id = await record_run(w, "audit_memory", "audit", None, "success", None, counters)
    changed_ids = [issue.issue_id for issue in issues if issue.new or issue.repaired] + [
        r["id"] for r in resolved_gone
    ]
    revision = await w.record(
        "audit",
        run_id,
        changed_ids[:MAX_EVENT_SUBJECTS],
        {
            **counters,
            "repair": run.request.repair,
            "stale_sync_minutes": run.request.stale_sync_minutes,
            "issue_types": dict(Counter(i.issue_type for i in issues if i.new)),
            "changed_fact_ids": changed_facts[:MAX_EVENT_SUBJECTS],
            **decisions.signal_change(pushed),
        },
    )
    return run_id, revision


async def _settle(run: AuditRun) -> AuditMemoryResult:
    """Record the findings as issues, resolve what is gone, and account for the run."""
    findings = list({(f.issue_type, f.subject_ref): f for f in run.findings}.values())
    stored = await _upsert_issues(run, findings)
    resolved_gone = await _resolve_gone(run, set(stored))
    issues = [_audit_issue(f, stored[(f.issue_type, f.subject_ref)]) for f in findings]
    new_count = sum(issue.new for issue in issues)
    resolved_count = sum(issue.repaired for issue in issues) + len(resolved_gone)
    open_count = shaped(OpenIssuesRow, await run.w.run("knowledge/count_open_issues"))[0]["open"]
    repairs = AuditRepairs(**{name: run.repairs[name] for name in AuditRepairs.model_fields})
    emit = bool(new_count or resolved_count or sum(run.repairs.values()))
    run_id = revision = None
    if emit:
        counters: dict[str, object] = {
            "new_issues": new_count,
            "resolved_issues": resolved_count,
            "open_issues": open_count,
            "repairs": repairs.model_dump(),
        }
        run_id, revision = await _record_audit(run, issues, resolved_gone, counters)
    await run.w.run(
        "knowledge/set_audit_state",
        cursors_json=json.dumps(run.cursors, sort_keys=True),
        run_id=run_id,
        now=run.now,
    )
    issues.sort(key=lambda i: (not i.new, i.issue_type, i.subject_ref))
    return AuditMemoryResult(
        repair=run.request.repair,
        stale_sync_minutes=run.request.stale_sync_minutes,
        emit_event=emit,
        open_issue_count=open_count,
        resolved_issue_count=resolved_count,
        new_issue_count=new_count,
        issues=issues[:MAX_ISSUES_RETURNED],
        issues_truncated=len(issues) > MAX_ISSUES_RETURNED,
        repairs=repairs,
        checks=run.checks,
        run_id=run_id,
        revision=revision,
        ran_at=run.w.now,
    )


# --- list_memory_issues --------------------------------------------------------------------------
async def list_memory_issues(
    db: TenantStore, request: ListMemoryIssuesRequest
) -> ListMemoryIssuesResult:
    rows = await db.read("knowledge/list_memory_issues", status=request.status, limit=request.limit)
    row = shaped(MemoryIssuesRow, rows)[0]
    issues = [
        from_node(
            MemoryIssue, item, issue_id=item["id"], details=json.loads(item["details_json"] or "{}")
        )
        for item in row["issues"]
    ]
    return ListMemoryIssuesResult(
        count=len(issues), issues=issues, last_audit_at=parse_iso_or_none(row["last_audit_at"])
    )

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
types (least recently detected first, at most AUDIT_BATCH), so an open issue whose subject is
fixed, or gone, is resolved whatever the cursor.

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

Issues are upserted on (tenant, issue_type, subject_kind, subject_ref) (unique constraint) with
their details; a resolved issue found again is re-opened; an issue repaired in this run is
stored resolved (resolution repaired); an open issue re-evaluated and no longer found is
resolved (resolution not_redetected). A run entry and one history event (aggregate audit) are
written whenever anything was newly found (created or re-opened), resolved or repaired; a run
that finds only what is already open writes neither (it refreshes last_detected_at and its
cursors), so a second run right after a first finds nothing new. repair=false records and
re-opens issues but changes nothing else.

list_memory_issues(status, limit) reads issues of one status, most recently detected first.
"""

from __future__ import annotations

import functools
import json
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, get_args

from graphmem.core.ids import new_id
from graphmem.core.models import from_node
from graphmem.core.progress import step
from graphmem.decisions import evaluation as decisions
from graphmem.history.chain import Audit
from graphmem.history.write_path import Write, hand_over, write
from graphmem.knowledge.lifecycle import record_run
from graphmem.knowledge.models.audit import (
    AuditCheck,
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
    Severity,
    SubjectKind,
)
from graphmem.store import TenantStore
from graphmem.store.store import Row

AUDIT_BATCH = 1_000  # subjects per scan per run, and open issues re-checked per scan
FANOUT = 100  # CONTRADICTS neighbours read per fact
MAX_OPEN_READ = 10_000  # open issues read for re-checking per run
MAX_ISSUES_RETURNED = 200
MAX_DETAIL_IDS = 20  # ids listed per detail field
MAX_EVENT_SUBJECTS = 100
SECTIONS = ("facts", "claims", "questions", "chunks")

ISSUES: dict[IssueType, tuple[Severity, SubjectKind, ScanName]] = {
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
    # opened by save_memory and resolved by govern_memory (graphmem/memories/service.py), so
    # no scan re-checks it
    "quarantined_memory": ("medium", "memory", "quarantine"),
}
SCANS: tuple[ScanName, ...] = get_args(ScanName)


@dataclass
class Finding:
    issue_type: IssueType
    subject_ref: str
    details: dict[str, Any]
    repaired: bool = False


@dataclass
class _Run:
    """One audit run inside its transaction."""

    w: Write
    request: AuditMemoryRequest
    batch: int
    cursors: dict[str, str]
    open_refs: dict[str, list[str]]  # issue type -> subject refs of its open issues
    findings: list[Finding] = field(default_factory=list)
    rechecked: dict[IssueType, set[str]] = field(default_factory=lambda: defaultdict(set))
    checks: list[AuditCheck] = field(default_factory=list)
    repairs: Counter[str] = field(default_factory=Counter)
    changed_facts: list[str] = field(default_factory=list)
    seen: set[tuple[str, str]] = field(default_factory=set)

    @property
    def now(self) -> str:
        return self.w.now_iso

    def recheck(self, *types: IssueType) -> list[str]:
        """Subject refs of open issues of these types to re-evaluate (bounded), recorded as
        re-checked so those not found again are resolved."""
        refs: list[str] = []
        for issue_type in types:
            for ref in self.open_refs.get(issue_type, []):
                if len(refs) >= self.batch:
                    break
                refs.append(ref)
                self.rechecked[issue_type].add(ref)
        return refs

    async def scan(
        self, name: ScanName, query: str, recheck: list[str], **params: Any
    ) -> dict[str, Any]:
        rows = await self.w.run(
            query, after=self.cursors.get(name, ""), limit=self.batch, recheck=recheck, **params
        )
        row = rows[0] if rows else {"scanned": 0, "last": None}
        complete = row["scanned"] < self.batch
        self.cursors[name] = "" if complete else row["last"]
        self.checks.append(
            AuditCheck(
                scan=name,
                scanned=row["scanned"],
                rechecked=len(recheck),
                found=0,
                complete=complete,
            )
        )
        return row

    def found(self, issue_type: IssueType, ref: str, details: dict[str, Any]) -> Finding | None:
        """Record a finding of the current scan; None when the subject was already found."""
        if (issue_type, ref) in self.seen:
            return None
        finding = Finding(issue_type, ref, details)
        self.seen.add((issue_type, ref))
        self.findings.append(finding)
        check = self.checks[-1]
        self.checks[-1] = check.model_copy(update={"found": check.found + 1})
        return finding


def _ids(values: list[str]) -> list[str]:
    return sorted(values)[:MAX_DETAIL_IDS]


# --- scans ---------------------------------------------------------------------------------------
async def _scan_fact_keys(run: _Run) -> None:
    row = await run.scan(
        "fact_keys", "knowledge/audit_fact_key_slots", run.recheck("fact_key_slot_drift")
    )
    drifted: list[Finding] = []
    for item in row.get("drifted", []):
        details = {
            "key": item["key"],
            "owner": item["owner"],
            "current_fact_ids": _ids(item["current_ids"]),
            "active_fact_ids": _ids(item["active_ids"]),
        }
        if finding := run.found("fact_key_slot_drift", item["ref"], details):
            drifted.append(finding)
    if not run.request.repair or not drifted:
        return
    repaired = await run.w.run(
        "knowledge/repair_fact_key_slots", key_ids=[f.subject_ref for f in drifted], now=run.now
    )
    superseded = [fact_id for r in repaired for fact_id in r["superseded"]]
    if superseded:
        await run.w.run("facts/snapshot_fact_states", ids=superseded, now=run.now)
    for r in repaired:
        winner = [r["winner_id"]] if r["winner_id"] else []
        run.changed_facts += [*winner, *r["superseded"], *r["released"]]
    done = {r["key_id"] for r in repaired}
    for finding in drifted:
        if finding.subject_ref in done:
            finding.repaired = True
            run.repairs["supersede_links_repaired"] += 1


async def _scan_claims(run: _Run) -> None:
    recheck = run.recheck("claim_missing_evidence", "promoted_claim_missing_fact")
    row = await run.scan("claims", "knowledge/audit_claims", recheck)
    for item in row.get("missing_evidence", []):
        details = {"status": item["status"], "chunk_id": item["chunk_id"]}
        run.found("claim_missing_evidence", item["ref"], details)
    unlinked: dict[str, Finding] = {}
    for item in row.get("missing_fact", []):
        details = {"fact_id": item["fact_id"], "fact_found": item["fact_found"]}
        if finding := run.found("promoted_claim_missing_fact", item["ref"], details):
            unlinked[finding.subject_ref] = finding
    pairs = [
        {"claim_id": ref, "fact_id": f.details["fact_id"]}
        for ref, f in unlinked.items()
        if f.details["fact_found"]
    ]
    await _link(run, pairs, unlinked, "claim_id")


async def _scan_fact_provenance(run: _Run) -> None:
    row = await run.scan(
        "fact_provenance", "knowledge/audit_fact_provenance", run.recheck("fact_missing_provenance")
    )
    unlinked: dict[str, Finding] = {}
    for item in row.get("missing", []):
        details = {
            "claim_id": item["claim_id"],
            "claim_found": item["claim_found"],
            "status": item["status"],
        }
        if finding := run.found("fact_missing_provenance", item["ref"], details):
            unlinked[finding.subject_ref] = finding
    pairs = [
        {"claim_id": f.details["claim_id"], "fact_id": ref}
        for ref, f in unlinked.items()
        if f.details["claim_found"]
    ]
    await _link(run, pairs, unlinked, "fact_id")


async def _link(
    run: _Run, pairs: list[dict[str, str]], findings: dict[str, Finding], side: str
) -> None:
    """Re-create PROMOTED_TO edges; a finding is repaired when its edge now exists."""
    if not run.request.repair or not pairs:
        return
    rows = await run.w.run("knowledge/link_claims_to_facts", pairs=pairs, now=run.now)
    for row in rows:
        findings[row[side]].repaired = True
        if row["created"]:
            run.repairs["fact_provenance_backfilled"] += 1


async def _scan_contradictions(run: _Run) -> None:
    drift_refs = run.recheck("contradiction_count_drift")
    pair_refs = run.recheck("unresolved_contradiction")
    fact_ids = sorted({*drift_refs, *(i for ref in pair_refs for i in ref.split("|"))})
    row = await run.scan(
        "contradictions", "knowledge/audit_contradictions", fact_ids, fanout=FANOUT, now=run.now
    )
    facts = row.get("facts", [])
    drifted: list[Finding] = []
    for item in facts:
        if item["stored"] != item["expected"]:
            details = {"stored": item["stored"], "expected": item["expected"]}
            if finding := run.found("contradiction_count_drift", item["ref"], details):
                drifted.append(finding)
    pairs = sorted(
        {
            (min(item["ref"], partner), max(item["ref"], partner))
            for item in facts
            if item["live"]
            for partner in item["partners"]
            if partner != item["ref"]
        }
    )
    for a, b in pairs:
        run.found("unresolved_contradiction", f"{a}|{b}", {"fact_ids": [a, b]})
    if not run.request.repair or not drifted:
        return
    rows = await run.w.run(
        "facts/refresh_contradiction_counts", ids=[f.subject_ref for f in drifted], now=run.now
    )
    refreshed = {r["id"] for r in rows}
    for finding in drifted:
        finding.repaired = True  # refreshed now (or found equal again at repair time)
        if finding.subject_ref in refreshed:
            run.repairs["contradiction_counts_refreshed"] += 1


def _sections(pack: dict[str, Any]) -> tuple[dict[str, int] | None, dict[str, int]]:
    """The stored per-section counts (None when absent or not a count map) and the counts the
    INCLUDES edges give."""
    actual: dict[str, int] = dict.fromkeys(SECTIONS, 0)
    for section in pack["sections"]:
        actual[section] = actual.get(section, 0) + 1
    try:
        stored = json.loads(pack["sections_json"]) if pack["sections_json"] else None
    except (TypeError, ValueError):
        stored = None
    if not isinstance(stored, dict) or not all(isinstance(v, int) for v in stored.values()):
        return None, actual
    return stored, actual


@dataclass
class _PackPlan:
    """What the pack checks found for one pack and the one repair action they lead to."""

    ref: str
    findings: list[Finding] = field(default_factory=list)
    retire_reason: str | None = None
    retired_by: str = "audit_memory"
    relink: bool = False
    items_included: int | None = None
    sections_json: str | None = None

    def retire(self, reason: str, by: str = "audit_memory") -> None:
        if self.retire_reason is None:
            self.retire_reason, self.retired_by = reason, by

    def action(self) -> dict[str, Any]:
        return {
            "id": self.ref,
            "retire": self.retire_reason is not None,
            "reason": self.retire_reason,
            "retired_by": self.retired_by,
            "relink": self.relink,
            "items_included": self.items_included,
            "sections_json": self.sections_json,
        }


def _plan_pack(run: _Run, pack: dict[str, Any]) -> _PackPlan:
    plan = _PackPlan(pack["ref"])

    def found(issue_type: IssueType, details: dict[str, Any]) -> bool:
        finding = run.found(issue_type, plan.ref, details)
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
    stale = {reason: _ids(ids) for reason, ids in reasons.items() if ids}
    if stale and found("context_pack_stale", {"reasons": sorted(stale), **stale}):
        plan.retire("stale: " + ", ".join(sorted(stale)))
    stored, actual = _sections(pack)
    section_drift = stored is not None and any(
        stored.get(name, 0) != count for name, count in actual.items()
    )
    summary = {"items_included": items, "includes": included, "sections": actual}
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
    details = {"reasons": task, "target_ref": pack["target_ref"], "newer": pack["newer"]}
    if task and found("context_pack_task_drift", details):
        if "duplicate_current" in task:
            plan.retire("duplicate_current", by=pack["newer"][0])
        elif "workstream_missing" in task:
            plan.retire("workstream_missing")
        else:
            plan.relink = True
    return plan


async def _scan_packs(run: _Run) -> None:
    recheck = run.recheck(
        "context_pack_missing_provenance",
        "context_pack_stale",
        "context_pack_summary_drift",
        "context_pack_task_drift",
    )
    row = await run.scan(
        "packs",
        "knowledge/audit_packs",
        recheck,
        now=run.now,
        stale_sync_minutes=run.request.stale_sync_minutes,
    )
    plans = {plan.ref: plan for plan in (_plan_pack(run, p) for p in row.get("packs", []))}
    plans = {ref: plan for ref, plan in plans.items() if plan.findings}
    if not run.request.repair or not plans:
        return
    rows = await run.w.run(
        "knowledge/reconcile_packs", actions=[p.action() for p in plans.values()], now=run.now
    )
    for r in rows:
        for finding in plans[r["id"]].findings:  # a retired pack settles all its issues
            finding.repaired = True
        if r["retired"] or r["relinked"]:
            run.repairs["task_materialization_reconciled"] += 1
        if r["materialized"]:
            run.repairs["context_pack_summaries_materialized"] += 1


async def _scan_quarantine(run: _Run) -> None:
    row = await run.scan(
        "quarantine", "knowledge/audit_quarantined_chunks", run.recheck("quarantined_content")
    )
    for item in row.get("quarantined", []):
        details = {"project": item["project"], "state": item["state"], "reasons": item["reasons"]}
        run.found("quarantined_content", item["ref"], details)


_SCANNERS: dict[ScanName, Callable[[_Run], Awaitable[None]]] = {
    "fact_keys": _scan_fact_keys,
    "claims": _scan_claims,
    "fact_provenance": _scan_fact_provenance,
    "contradictions": _scan_contradictions,
    "packs": _scan_packs,
    "quarantine": _scan_quarantine,
}


# --- the run -------------------------------------------------------------------------------------
async def audit_memory(
    db: TenantStore, request: AuditMemoryRequest, batch: int = AUDIT_BATCH
) -> AuditMemoryResult:
    """The six scans in order, each its own transaction (a concurrent writer waits for one
    scan at most); the answer merges them."""
    settled = []
    for done, name in enumerate(SCANS, start=1):
        if settled:
            await hand_over()
        work = functools.partial(_scan_in_tx, request=request, batch=batch, name=name)
        settled.append(await write(db, "audit_memory", work, audit=Audit.of(request)))
        await step(done, len(SCANS), f"scanned {name}")
    return _merged(request, settled)


async def _scan_in_tx(
    w: Write, *, request: AuditMemoryRequest, batch: int, name: ScanName
) -> AuditMemoryResult:
    """One scan from its cursor, its findings stored as issues, its cursor moved."""
    state = await w.run("knowledge/merge_audit_state", now=w.now_iso)
    cursors: dict[str, str] = json.loads(state[0]["cursors_json"] or "{}")
    types = [issue_type for issue_type, (_, _, scan) in ISSUES.items() if scan == name]
    open_refs: dict[str, list[str]] = defaultdict(list)
    rows = await w.run("knowledge/list_open_issue_subjects", types=types, limit=MAX_OPEN_READ)
    for row in rows:  # only this scan's types: each scan has its own bound
        open_refs[row["issue_type"]].append(row["subject_ref"])
    run = _Run(w, request, batch, cursors, open_refs)
    await _SCANNERS[name](run)
    return await _settle(run)


def _merged(request: AuditMemoryRequest, settled: list[AuditMemoryResult]) -> AuditMemoryResult:
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


def _status(finding: Finding) -> IssueStatus:
    return "resolved" if finding.repaired else "open"


async def _upsert_issues(run: _Run, findings: list[Finding]) -> dict[tuple[str, str], Row]:
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
    return {(r["issue_type"], r["subject_ref"]): r for r in upserted}


async def _resolve_gone(run: _Run, detected: set[tuple[str, str]]) -> list[Row]:
    """Resolve the re-checked open issues not found again (not_redetected)."""
    gone = [
        {"issue_type": issue_type, "subject_kind": ISSUES[issue_type][1], "subject_ref": ref}
        for issue_type, refs in sorted(run.rechecked.items())
        for ref in sorted(refs)
        if (issue_type, ref) not in detected
    ]
    return await run.w.run("knowledge/resolve_issues", keys=gone, now=run.now) if gone else []


def _audit_issue(finding: Finding, stored: Row) -> AuditIssue:
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
    run: _Run, issues: list[AuditIssue], resolved_gone: list[Row], counters: dict[str, Any]
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


async def _settle(run: _Run) -> AuditMemoryResult:
    """Record the findings as issues, resolve what is gone, and account for the run."""
    findings = list({(f.issue_type, f.subject_ref): f for f in run.findings}.values())
    stored = await _upsert_issues(run, findings)
    resolved_gone = await _resolve_gone(run, set(stored))
    issues = [_audit_issue(f, stored[(f.issue_type, f.subject_ref)]) for f in findings]
    new_count = sum(issue.new for issue in issues)
    resolved_count = sum(issue.repaired for issue in issues) + len(resolved_gone)
    open_count = (await run.w.run("knowledge/count_open_issues"))[0]["open"]
    repairs = AuditRepairs(**{name: run.repairs[name] for name in AuditRepairs.model_fields})
    emit = bool(new_count or resolved_count or sum(run.repairs.values()))
    run_id = revision = None
    if emit:
        counters = {
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
    row = rows[0]
    issues = [
        from_node(
            MemoryIssue, item, issue_id=item["id"], details=json.loads(item["details_json"] or "{}")
        )
        for item in row["issues"]
    ]
    return ListMemoryIssuesResult(
        count=len(issues), issues=issues, last_audit_at=row["last_audit_at"]
    )

"""The six scans of the audit (graphmem/knowledge/audit.py runs each in its own transaction and
settles what it found): each reads a bounded batch from its cursor plus the subjects of its
open issues, records findings and, when repair is on, repairs what it can."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from graphmem.history.write_path import Write
from graphmem.knowledge.audit_rows import (
    ClaimsRow,
    ContradictionsRow,
    FactProvenanceRow,
    KeySlotsRow,
    LinkedPairRow,
    LinkPair,
    PacksRow,
    QuarantineRow,
    ReconciledPackRow,
    RefreshedCountRow,
    RepairedSlotRow,
    ScanRow,
)
from graphmem.knowledge.audit_rules import FANOUT, Finding, detail_ids, fair_share, plan_pack
from graphmem.knowledge.models.audit import AuditCheck, AuditMemoryRequest, IssueType, ScanName
from graphmem.store import shaped

S = TypeVar("S", bound=ScanRow)


@dataclass
class AuditRun:
    """One audit run inside its transaction."""

    w: Write
    request: AuditMemoryRequest
    batch: int
    cursors: dict[str, str]
    open_refs: dict[IssueType, list[str]]  # issue type -> subject refs of its open issues
    findings: list[Finding] = field(default_factory=list[Finding])
    rechecked: dict[IssueType, set[str]] = field(default_factory=lambda: defaultdict(set))
    checks: list[AuditCheck] = field(default_factory=list[AuditCheck])
    repairs: Counter[str] = field(default_factory=Counter[str])
    changed_facts: list[str] = field(default_factory=list[str])
    seen: set[tuple[str, str]] = field(default_factory=set[tuple[str, str]])

    @property
    def now(self) -> str:
        return self.w.now_iso

    def recheck(self, *types: IssueType) -> list[str]:
        """Subject refs of open issues of these types to re-evaluate (at most a batch, taken in
        turn from each type), recorded as re-checked so those not found again are resolved."""
        refs: list[str] = []
        for issue_type, ref in fair_share(self.open_refs, types, self.batch):
            refs.append(ref)
            self.rechecked[issue_type].add(ref)
        return refs

    async def scan(
        self, shape: type[S], name: ScanName, query: str, recheck: list[str], **params: object
    ) -> S | None:
        """Run the scan's statement from its cursor and move the cursor; its one row (the
        statement aggregates, so it gives one; None if it gave none)."""
        rows = await self.w.run(
            query, after=self.cursors.get(name, ""), limit=self.batch, recheck=recheck, **params
        )
        row = shaped(shape, rows)[0] if rows else None
        scanned = row["scanned"] if row is not None else 0
        last = row["last"] if row is not None else None
        complete = scanned < self.batch
        self.cursors[name] = "" if complete or last is None else last  # None: none was read
        self.checks.append(
            AuditCheck(
                scan=name, scanned=scanned, rechecked=len(recheck), found=0, complete=complete
            )
        )
        return row

    def found(self, issue_type: IssueType, ref: str, details: dict[str, object]) -> Finding | None:
        """Record a finding of the current scan; None when the subject was already found."""
        if (issue_type, ref) in self.seen:
            return None
        finding = Finding(issue_type, ref, details)
        self.seen.add((issue_type, ref))
        self.findings.append(finding)
        check = self.checks[-1]
        self.checks[-1] = check.model_copy(update={"found": check.found + 1})
        return finding


# --- the scans -----------------------------------------------------------------------------------
async def scan_fact_keys(run: AuditRun) -> None:
    row = await run.scan(
        KeySlotsRow,
        "fact_keys",
        "knowledge/audit_fact_key_slots",
        run.recheck("fact_key_slot_drift"),
    )
    drifted: list[Finding] = []
    for item in row["drifted"] if row else []:
        details: dict[str, object] = {
            "key": item["key"],
            "owner": item["owner"],
            "current_fact_ids": detail_ids(item["current_ids"]),
            "active_fact_ids": detail_ids(item["active_ids"]),
        }
        if finding := run.found("fact_key_slot_drift", item["ref"], details):
            drifted.append(finding)
    if not run.request.repair or not drifted:
        return
    repaired = shaped(
        RepairedSlotRow,
        await run.w.run(
            "knowledge/repair_fact_key_slots", key_ids=[f.subject_ref for f in drifted], now=run.now
        ),
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


async def scan_claims(run: AuditRun) -> None:
    recheck = run.recheck("claim_missing_evidence", "promoted_claim_missing_fact")
    row = await run.scan(ClaimsRow, "claims", "knowledge/audit_claims", recheck)
    for item in row["missing_evidence"] if row else []:
        details: dict[str, object] = {"status": item["status"], "chunk_id": item["chunk_id"]}
        run.found("claim_missing_evidence", item["ref"], details)
    unlinked: dict[str, Finding] = {}
    pairs: list[LinkPair] = []
    for item in row["missing_fact"] if row else []:
        details = {"fact_id": item["fact_id"], "fact_found": item["fact_found"]}
        if finding := run.found("promoted_claim_missing_fact", item["ref"], details):
            unlinked[finding.subject_ref] = finding
            # found: its fact_id names a fact (an id of null names none)
            if item["fact_found"] and item["fact_id"] is not None:
                pairs.append(LinkPair(claim_id=item["ref"], fact_id=item["fact_id"]))
    await _link(run, pairs, unlinked, "claim_id")


async def scan_fact_provenance(run: AuditRun) -> None:
    row = await run.scan(
        FactProvenanceRow,
        "fact_provenance",
        "knowledge/audit_fact_provenance",
        run.recheck("fact_missing_provenance"),
    )
    unlinked: dict[str, Finding] = {}
    pairs: list[LinkPair] = []
    for item in row["missing"] if row else []:
        details: dict[str, object] = {
            "claim_id": item["claim_id"],
            "claim_found": item["claim_found"],
            "status": item["status"],
        }
        if finding := run.found("fact_missing_provenance", item["ref"], details):
            unlinked[finding.subject_ref] = finding
            if item["claim_found"]:
                pairs.append(LinkPair(claim_id=item["claim_id"], fact_id=item["ref"]))
    await _link(run, pairs, unlinked, "fact_id")


async def _link(
    run: AuditRun,
    pairs: list[LinkPair],
    findings: dict[str, Finding],
    side: Literal["claim_id", "fact_id"],
) -> None:
    """Re-create PROMOTED_TO edges; a finding is repaired when its edge now exists."""
    if not run.request.repair or not pairs:
        return
    rows = await run.w.run("knowledge/link_claims_to_facts", pairs=pairs, now=run.now)
    for row in shaped(LinkedPairRow, rows):
        findings[row[side]].repaired = True
        if row["created"]:
            run.repairs["fact_provenance_backfilled"] += 1


async def scan_contradictions(run: AuditRun) -> None:
    drift_refs = run.recheck("contradiction_count_drift")
    pair_refs = run.recheck("unresolved_contradiction")
    fact_ids = sorted({*drift_refs, *(i for ref in pair_refs for i in ref.split("|"))})
    row = await run.scan(
        ContradictionsRow,
        "contradictions",
        "knowledge/audit_contradictions",
        fact_ids,
        fanout=FANOUT,
        now=run.now,
    )
    facts = row["facts"] if row else []
    drifted: list[Finding] = []
    for item in facts:
        if item["stored"] != item["expected"]:
            details: dict[str, object] = {"stored": item["stored"], "expected": item["expected"]}
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
    refreshed = {r["id"] for r in shaped(RefreshedCountRow, rows)}
    for finding in drifted:
        finding.repaired = True  # refreshed now (or found equal again at repair time)
        if finding.subject_ref in refreshed:
            run.repairs["contradiction_counts_refreshed"] += 1


async def scan_packs(run: AuditRun) -> None:
    recheck = run.recheck(
        "context_pack_missing_provenance",
        "context_pack_stale",
        "context_pack_summary_drift",
        "context_pack_task_drift",
    )
    row = await run.scan(
        PacksRow,
        "packs",
        "knowledge/audit_packs",
        recheck,
        now=run.now,
        stale_sync_minutes=run.request.stale_sync_minutes,
    )
    packs = row["packs"] if row else []
    plans = {plan.ref: plan for plan in (plan_pack(run.found, p) for p in packs)}
    plans = {ref: plan for ref, plan in plans.items() if plan.findings}
    if not run.request.repair or not plans:
        return
    rows = await run.w.run(
        "knowledge/reconcile_packs", actions=[p.action() for p in plans.values()], now=run.now
    )
    for r in shaped(ReconciledPackRow, rows):
        for finding in plans[r["id"]].findings:  # a retired pack settles all its issues
            finding.repaired = True
        if r["retired"] or r["relinked"]:
            run.repairs["task_materialization_reconciled"] += 1
        if r["materialized"]:
            run.repairs["context_pack_summaries_materialized"] += 1


async def scan_quarantine(run: AuditRun) -> None:
    row = await run.scan(
        QuarantineRow,
        "quarantine",
        "knowledge/audit_quarantined_chunks",
        run.recheck("quarantined_content"),
    )
    for item in row["quarantined"] if row else []:
        details: dict[str, object] = {
            "project": item["project"],
            "state": item["state"],
            "reasons": item["reasons"],
        }
        run.found("quarantined_content", item["ref"], details)

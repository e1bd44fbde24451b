"""maintain, in bounded batches: what time alone changes, made durable.

A pass has up to four phases, each in batches: expire active facts past their boundary
(EXPIRY_BATCH per batch), mark active decisions past review_after stale (STALE_BATCH),
evaluate every live decision's reopen rules and sync their review signals (DECISION_BATCH, in
id order), then, when retention is configured, erase what is past it (erasure/retention.py).
Each batch is its own write transaction with its own history event (none when it changed
nothing), so a concurrent writer of the tenant waits for one batch at most. A call
runs batches until the pass is complete or CALL_BUDGET has passed, and then answers with a
continuation (signed, see store/continuations.py) from which the next call resumes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path

from graphmem.decisions import evaluation as decisions
from graphmem.decisions.evaluation import STALE_BATCH
from graphmem.decisions.models import ReviewOutcome, VerdictCounts
from graphmem.erasure.backups import BackupRemoval
from graphmem.erasure.policy import RetentionPolicy
from graphmem.erasure.retention import erase_past_retention
from graphmem.facts.models import MaintainRequest, MaintainResult
from graphmem.facts.rows import ExpiredRow
from graphmem.history.chain import Change
from graphmem.history.write_path import Write, write_batches
from graphmem.retrieval.indexing import indexer_of
from graphmem.store import TenantStore, shaped
from graphmem.store.continuations import Position

EXPIRY_BATCH = 1000
DECISION_BATCH = 500
CALL_BUDGET = 1.0  # seconds: a call starts no batch after this
MAX_LISTED = 100
START: Position = {"phase": "expire", "after": ""}


@dataclass(frozen=True)
class _Batch:
    phase: str
    at: datetime  # its transaction time
    following: Position | None  # where the next batch starts; None: the pass is done
    expired: list[str] = field(default_factory=list[str])
    stale: list[str] = field(default_factory=list[str])
    review: ReviewOutcome | None = None
    revision: int | None = None
    erased: dict[str, int] = field(default_factory=dict[str, int])
    erased_memories: list[str] = field(default_factory=list[str])


async def maintain(
    db: TenantStore,
    request: MaintainRequest,
    retention: RetentionPolicy | None = None,
    backup_dir: Path | None = None,
) -> MaintainResult:
    position = db.resume("maintain", request.continuation) or START
    policy = retention or RetentionPolicy()

    async def batch(w: Write, position: Position, done: list[_Batch]) -> _Batch:
        if position["phase"] == "retain":
            return await _retention_batch(w, policy)
        ran = await _batch(w, position, done)
        if ran.following is None and policy.active:
            return replace(ran, following={"phase": "retain", "after": ""})
        return ran

    backups = BackupRemoval(db.tenant, backup_dir)
    try:
        batches = await write_batches(
            db,
            "maintain",
            position,
            batch,
            budget=CALL_BUDGET,
            committed=lambda batch: backups.start(batch.erased_memories),
        )
    finally:  # what committed has no backup left, even when a later batch failed
        await backups.finish()
    if any(batch.erased for batch in batches):  # turns after erased ones wait for new vectors
        indexer_of(db.store).sweep_soon(db.tenant)
    return _result(batches, db.continuation("maintain", batches[-1].following))


async def _retention_batch(w: Write, policy: RetentionPolicy) -> _Batch:
    erased = await erase_past_retention(w, policy)
    following: Position | None = {"phase": "retain", "after": ""} if erased.more else None
    return _Batch(
        "retain",
        w.now,
        following,
        revision=erased.revision,
        erased=erased.erased,
        erased_memories=erased.memory_ids,
    )


async def _batch(w: Write, position: Position, done: list[_Batch]) -> _Batch:
    phase, after = _where(position)
    if phase == "expire":
        rows = shaped(ExpiredRow, await w.run("facts/expire_facts", limit=EXPIRY_BATCH))
        ids = [row["id"] for row in rows]
        following: Position | None = (
            START if len(ids) == EXPIRY_BATCH else {"phase": "stale", "after": ""}
        )
        revision = await w.record("fact", ids[0], ids, {"expired": len(ids)}) if ids else None
        return _Batch(phase, w.now, following, expired=ids, revision=revision)
    if phase == "stale":
        ids = await decisions.mark_stale_decisions(w)
        following = position if len(ids) == STALE_BATCH else {"phase": "evaluate", "after": ""}
        payload: dict[str, object] = {"stale_decisions": len(ids)}
        revision = await w.record("decision", ids[0], ids, payload) if ids else None
        return _Batch(phase, w.now, following, stale=ids, revision=revision)
    evaluation, last = await decisions.evaluate_live_batch(w, after, DECISION_BATCH)
    revision = None
    if evaluation.opened or evaluation.cleared:
        subjects = sorted({signal.decision_id for signal in evaluation.opened})
        subject = subjects[0] if subjects else "review_signals"
        change = decisions.signal_change(evaluation)
        revision = await w.event(Change("maintain", "decision", subject, subjects, change))
    following = None if last is None else {"phase": "evaluate", "after": last}
    return _Batch(phase, w.now, following, review=evaluation.outcome(), revision=revision)


def _where(position: Position) -> tuple[str, str]:
    """A batch's phase, and the id it goes on after: text, as this pass wrote them (a client's
    continuation names a position only as the server signed it)."""
    phase, after = position["phase"], position["after"]
    if not isinstance(phase, str) or not isinstance(after, str):
        raise TypeError("a maintain position names its phase and an id to go on after")
    return phase, after


def _result(batches: list[_Batch], continuation: str | None) -> MaintainResult:
    expired = [i for batch in batches for i in batch.expired]
    stale = [i for batch in batches for i in batch.stale]
    revisions = [batch.revision for batch in batches if batch.revision is not None]
    return MaintainResult(
        expired_facts=len(expired),
        expired_fact_ids=expired[:MAX_LISTED],
        stale_decisions=len(stale),
        stale_decision_ids=stale[:MAX_LISTED],
        review=_merged([batch.review for batch in batches if batch.review is not None]),
        batches=len(batches),
        revision=revisions[-1] if revisions else None,
        continuation=continuation,
        erased_past_retention=_summed([batch.erased for batch in batches]),
        ran_at=([b.at for b in batches if b.phase == "expire"] or [batches[0].at])[-1],
    )


def _summed(counts: list[dict[str, int]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for batch in counts:
        for kind, count in batch.items():
            total[kind] = total.get(kind, 0) + count
    return dict(sorted(total.items()))


def _merged(reviews: list[ReviewOutcome]) -> ReviewOutcome:
    """The batches' evaluations as one (lists bounded)."""
    return ReviewOutcome(
        evaluated_decisions=sum(r.evaluated_decisions for r in reviews),
        evaluated_rules=sum(r.evaluated_rules for r in reviews),
        verdicts=VerdictCounts(
            true=sum(r.verdicts.true for r in reviews),
            false=sum(r.verdicts.false for r in reviews),
            unknown=sum(r.verdicts.unknown for r in reviews),
        ),
        diagnostics=[d for r in reviews for d in r.diagnostics][:MAX_LISTED],
        diagnostics_total=sum(r.diagnostics_total for r in reviews),
        signals_opened=[s for r in reviews for s in r.signals_opened][:MAX_LISTED],
        signals_cleared=sum(r.signals_cleared for r in reviews),
    )

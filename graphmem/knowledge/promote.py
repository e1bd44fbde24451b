"""promote_candidate: the governance gate that turns a candidate claim into a canonical fact
(the claims come from graphmem/knowledge/claims.py; the gate's rules are
graphmem/knowledge/claim_rules.py).

Promotion:
- Modes human_confirmed (default), multi_evidence, imported, auto_layer1. The tool refuses
  auto_layer1 (invalid_argument: it is pipeline-internal, used by enrich_context through
  ``promote_in_tx``).
- Unknown claim: not_found. A claim that is not a candidate: invalid_state naming its status
  (a second promote reports the first one's fact in its message and changes nothing).
- The gate (rules.promotion_block) refuses with promoted=false, a reason and a detail (not an
  error), and a "blocked" run entry; nothing else changes.
- On success, in the claim's project, key ``kb:<subject>|<predicate>|<object>``:
  * a live fact of that key (CURRENT, active, not lapsed) is reinforced: the claim is promoted
    onto it (reused_existing_fact true), no new fact, no new contradiction;
  * else a fact is recorded with facts.record_in_transaction (value = the object text, source
    class by mode, confidence = the claim's; a lapsed fact of the key is superseded) and
    carries subject, predicate, object, subject_norm, object_norm, scope, validation_mode and
    claim_id. For the single-valued predicates (is, replaces) it CONTRADICTS {at, rationale:
    'promotion'} each other live fact of the project with the same subject and predicate and
    another object (at most 50, by index seek), and the open contradiction count of every fact
    involved is refreshed (open links whose other end is live). Multi-valued predicates never
    contradict.
  * the claim becomes promoted (promoted_at, fact_id, validation_mode) and
    ``(claim)-[:PROMOTED_TO {at, mode, reused}]->(fact)``: the fact's provenance is the claim's
    evidence chunks. Review signals of decisions watching the facts are pushed. One history
    event, one "success" run entry. The cost does not grow with the number of facts (key and
    index seeks only).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from graphmem.core.errors import InvalidArgument, InvalidState, NotFound
from graphmem.core.ids import new_id
from graphmem.core.models import owner_of
from graphmem.decisions import evaluation as decisions
from graphmem.facts import service as facts
from graphmem.facts.models import RecordFactRequest
from graphmem.history.chain import Audit, Change
from graphmem.history.write_path import Write, write
from graphmem.knowledge.claim_rules import (
    SINGLE_VALUED,
    SOURCE_CLASS_OF_MODE,
    Block,
    fact_key,
    promotion_block,
)
from graphmem.knowledge.models.chunks import Predicate, Scope
from graphmem.knowledge.models.pipeline import PromoteCandidateRequest, PromoteResult, PromotionMode
from graphmem.knowledge.rows import (
    ClaimToPromote,
    ClaimToPromoteRow,
    ContradictionCountRow,
    LiveFactRow,
)
from graphmem.knowledge.runs import record_run
from graphmem.store import TenantStore, shaped

PROMOTE = "promote_candidate"
MAX_CONTRADICTIONS = 50  # links a promotion adds at most


async def promote_in_tx(
    w: Write, claim_id: str, mode: PromotionMode, *, tool: str = PROMOTE
) -> PromoteResult:
    """Promote one candidate claim inside the caller's locked transaction (every mode,
    auto_layer1 included). Raises NotFound, or InvalidState for a claim that is not a
    candidate; a gate refusal is a result (promoted false) with a "blocked" run entry."""
    claim, evidence_count = await _load_candidate(w, claim_id)
    described = _described(claim_id, claim, evidence_count)
    block = promotion_block(
        mode, claim["scope"], evidence_count, claim["confidence"], claim["requires_human"]
    )
    if block is not None:
        await record_run(w, tool, "claim", claim_id, "blocked", block.reason, {"mode": mode})
        return _refused(block, described)
    promotion = await _land_on_fact(w, claim_id, claim, mode)
    await w.run(
        "knowledge/mark_claim_promoted",
        claim_id=claim_id,
        fact_id=promotion.fact_id,
        mode=mode,
        reused=promotion.reused,
    )
    if not promotion.reused and claim["predicate"] in SINGLE_VALUED:
        await _contradict_rivals(w, promotion)
    revision = await w.event(promotion.change(tool, evidence_count))
    await record_run(
        w,
        tool,
        "claim",
        claim_id,
        "success",
        None,
        {"mode": mode, "reused": promotion.reused, "contradictions": len(promotion.contradictions)},
    )
    return PromoteResult(
        promoted=True,
        reason=None,
        detail=None,
        fact_id=promotion.fact_id,
        validation_mode=mode,
        reused_existing_fact=promotion.reused,
        contradictions=promotion.contradictions,
        superseded_id=promotion.superseded_id,
        revision=revision,
        **described,
    )


async def _load_candidate(w: Write, claim_id: str) -> tuple[ClaimToPromote, int]:
    """The claim and its evidence count; NotFound, or InvalidState unless it is a candidate (the
    message names the fact an earlier promotion made)."""
    rows = shaped(ClaimToPromoteRow, await w.run("knowledge/get_claim_for_promotion", id=claim_id))
    if not rows:
        raise NotFound("claim", claim_id)
    row = rows[0]
    claim, evidence_count = row["claim"], row["evidence_count"]
    if claim["status"] != "candidate":
        promoted_to = f" (to fact {claim['fact_id']!r})" if claim.get("fact_id") else ""
        raise InvalidState(
            "claim",
            claim_id,
            claim["status"],
            f"only candidate claims can be promoted; it was already {claim['status']}{promoted_to}",
        )
    return claim, evidence_count


class _Described(TypedDict):
    """The fields of a promotion result that describe the claim."""

    claim_id: str
    subject: str
    predicate: Predicate
    object: str
    scope: Scope
    confidence: float
    evidence_count: int


def _described(claim_id: str, claim: ClaimToPromote, evidence_count: int) -> _Described:
    """The claim as every promotion result describes it."""
    return _Described(
        claim_id=claim_id,
        subject=claim["subject"],
        predicate=claim["predicate"],
        object=claim["object"],
        scope=claim["scope"],
        confidence=claim["confidence"],
        evidence_count=evidence_count,
    )


def _refused(block: Block, described: _Described) -> PromoteResult:
    """The result of a promotion the gate refused: nothing promoted, nothing changed."""
    return PromoteResult(
        promoted=False,
        reason=block.reason,
        detail=block.detail,
        fact_id=None,
        validation_mode=None,
        reused_existing_fact=False,
        contradictions=[],
        superseded_id=None,
        revision=None,
        **described,
    )


@dataclass
class _Promotion:
    """A promotion past the gate: the fact it lands on and what landing there changed."""

    claim_id: str
    claim: ClaimToPromote
    mode: PromotionMode
    key: str
    fact_id: str
    reused: bool
    superseded_id: str | None = None
    contradictions: list[str] = field(default_factory=list[str])
    opened: list[str] = field(default_factory=list[str])  # review signals opened
    cleared: int = 0  # review signals cleared

    def count_signals(self, evaluation: decisions.Evaluation) -> None:
        self.opened += [signal.signal_id for signal in evaluation.opened]
        self.cleared += evaluation.cleared

    def change(self, tool: str, evidence_count: int) -> Change:
        superseded = [self.superseded_id] if self.superseded_id else []
        return Change(
            tool,
            "claim",
            self.claim_id,
            [self.claim_id, self.fact_id, *superseded, *self.contradictions],
            {
                "mode": self.mode,
                "fact_id": self.fact_id,
                "key": self.key,
                "reused_existing_fact": self.reused,
                "superseded_id": self.superseded_id,
                "contradictions": self.contradictions,
                "evidence_count": evidence_count,
                "signals_opened": self.opened,
                "signals_cleared": self.cleared,
            },
        )


async def _land_on_fact(
    w: Write, claim_id: str, claim: ClaimToPromote, mode: PromotionMode
) -> _Promotion:
    """Reinforce the live fact of the claim's key, else record a new fact (superseding a lapsed
    one of the key)."""
    project = claim["project"]
    key = fact_key(claim["subject_norm"], claim["predicate"], claim["object_norm"])
    live = shaped(
        LiveFactRow,
        await w.run(
            "knowledge/find_live_fact_of_key",
            owner=owner_of(project, None),
            key=key,
            object_norm=claim["object_norm"],
        ),
    )
    if live:
        return _Promotion(claim_id, claim, mode, key, live[0]["fact_id"], reused=True)
    fact_id = new_id()
    recorded = await facts.record_in_transaction(
        w,
        RecordFactRequest(
            project=project,
            key=key,
            value=claim["object"],
            source_class=SOURCE_CLASS_OF_MODE[mode],
            confidence=float(claim["confidence"]),
        ),
        fact_id,
    )
    promotion = _Promotion(
        claim_id, claim, mode, key, fact_id, reused=False, superseded_id=recorded.superseded_id
    )
    promotion.count_signals(recorded.signals)
    return promotion


async def _contradict_rivals(w: Write, promotion: _Promotion) -> None:
    """Link the new fact of a single-valued predicate to the project's other live facts of the
    same subject and predicate (at most MAX_CONTRADICTIONS)."""
    claim = promotion.claim
    rows = await w.run(
        "knowledge/link_promoted_contradictions",
        fact_id=promotion.fact_id,
        project=claim["project"],
        subject_norm=claim["subject_norm"],
        predicate=claim["predicate"],
        object_norm=claim["object_norm"],
        limit=MAX_CONTRADICTIONS,
    )
    linked = shaped(ContradictionCountRow, rows)
    promotion.contradictions = [row["id"] for row in linked if row["id"] != promotion.fact_id]
    if promotion.contradictions:  # conflicting evidence can change reopen-rule verdicts
        pushed = await decisions.push_signals(w, [promotion.fact_id, *promotion.contradictions])
        promotion.count_signals(pushed)


async def promote_candidate(db: TenantStore, request: PromoteCandidateRequest) -> PromoteResult:
    if request.mode == "auto_layer1":
        raise InvalidArgument(
            "mode",
            "auto_layer1 is pipeline-internal (enrich_context promotes with it); use "
            "human_confirmed, multi_evidence or imported",
        )

    async def work(w: Write) -> PromoteResult:
        return await promote_in_tx(w, request.claim_id, request.mode)

    return await write(db, PROMOTE, work, audit=Audit.of(request))

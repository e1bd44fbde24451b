"""extract_candidate_claims and promote_candidate: typed claims mined from a chunk, and the
governance gate that turns one into a canonical fact.

Extraction (text rules: graphmem/knowledge/heuristics.py):
- Unknown chunk: not_found, nothing recorded. Only enrichable or uncertain chunks that are not
  quarantined are mined; any other chunk is refused with invalid_state naming its state
  ("quarantined" for a quarantined one). The refusal is an error, so the extraction's
  transaction rolls back; the "blocked" run entry (reason invalid_state:<state> or quarantined)
  is then recorded by a separate small transaction, before the error is returned.
- Scope: scope_hint, else detected from the chunk; every claim of the chunk gets it, and claims
  of sensitive scopes require a human.
- One claim per normalised triple (subject|predicate|object, lowercase, whitespace collapsed)
  and project, unique by constraint: a new triple becomes a candidate claim; the same triple
  found in another chunk of the project links that chunk as further evidence of the existing
  claim (whatever its status: a promoted claim keeps collecting evidence) instead of making a
  duplicate, which is what makes multi_evidence reachable; extracting the same chunk again adds
  nothing. A claim's scope, confidence and requires_human are those of its first extraction.
- Evidence: ``(claim)-[:EVIDENCED_BY {type: 'source_chunk', weight: 1.0, excerpt, start, end,
  at}]->(chunk)``. One history event per claim created or evidence link added, then one run
  entry ("success", counters). All-or-nothing.

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
from typing import Any

from graphmem.core.errors import InvalidArgument, InvalidState, first_row
from graphmem.core.ids import new_id
from graphmem.core.models import from_node, owner_of, pick
from graphmem.decisions import evaluation as decisions
from graphmem.facts import service as facts
from graphmem.facts.models import RecordFactRequest
from graphmem.history.chain import Audit, Change
from graphmem.history.write_path import Write, write
from graphmem.knowledge.chunks import load_chunk
from graphmem.knowledge.heuristics import (
    SINGLE_VALUED,
    SOURCE_CLASS_OF_MODE,
    Block,
    Triple,
    detect_scope,
    extract_triples,
    fact_key,
    promotion_block,
    requires_human,
)
from graphmem.knowledge.lifecycle import record_run
from graphmem.knowledge.models.chunks import Scope
from graphmem.knowledge.models.pipeline import (
    ClaimItem,
    ExtractClaimsRequest,
    ExtractResult,
    PromoteCandidateRequest,
    PromoteResult,
    PromotionMode,
)
from graphmem.store import TenantStore

EXTRACT = "extract_candidate_claims"
PROMOTE = "promote_candidate"
EXTRACTABLE = frozenset({"enrichable", "uncertain"})
MAX_CONTRADICTIONS = 50  # links a promotion adds at most


class ExtractRefused(InvalidState):
    """A chunk extraction does not accept (its state, or quarantine). The store wrapper records
    the blocked run in its own transaction; a caller of ``extract_in_tx`` decides itself."""

    def __init__(self, chunk_id: str, state: str, message: str, reason: str) -> None:
        super().__init__("chunk", chunk_id, state, message)
        self.chunk_id = chunk_id
        self.reason = reason


# --- extraction ----------------------------------------------------------------------------------
async def extract_in_tx(
    w: Write, chunk_id: str, scope_hint: Scope | None, *, tool: str = EXTRACT
) -> ExtractResult:
    """Extract and persist the chunk's candidate claims inside the caller's locked transaction.

    Raises NotFound, or ExtractRefused (an InvalidState) for a chunk that is not enrichable or
    uncertain or is quarantined; records nothing then. History events are chained with
    ``append_event`` (which advances the head).
    """
    node = await load_chunk(w, chunk_id)
    _refuse_unless_extractable(chunk_id, node)
    scope = detect_scope(node["body"], scope_hint)
    triples = extract_triples(node["body"])
    # a scope_hint may narrow the scope, never lift the human requirement of what was read
    needs_human = requires_human(scope) or requires_human(detect_scope(node["body"]))
    rows = await _merge_claims(w, chunk_id, triples, scope, needs_human)
    by_key = {row["triple_key"]: row for row in rows}
    items = [_claim_item(by_key[triple.key]) for triple in triples]
    revision = await _record_claim_events(w, tool, chunk_id, items)
    created = sum(item.created for item in items)
    added = sum(item.evidence_added and not item.created for item in items)
    await record_run(
        w,
        tool,
        "chunk",
        chunk_id,
        "success",
        None,
        {"claims_extracted": len(items), "claims_created": created, "evidence_added": added},
    )
    return ExtractResult(
        chunk_id=chunk_id,
        claims_extracted=len(items),
        scope=scope,
        claims=items,
        claims_created=created,
        evidence_added=added,
        revision=revision,
    )


def _refuse_unless_extractable(chunk_id: str, node: dict[str, Any]) -> None:
    """Raise ExtractRefused for a quarantined chunk or one neither enrichable nor uncertain."""
    state = node["state"]
    if node.get("quarantined", False):
        raise ExtractRefused(
            chunk_id,
            "quarantined",
            "quarantined chunks are never mined into claims (release it through govern_memory)",
            "quarantined",
        )
    if state not in EXTRACTABLE:
        raise ExtractRefused(
            chunk_id,
            state,
            "only enrichable or uncertain chunks are mined into claims (assess_context makes a "
            "chunk enrichable: an ENRICH_OK marker, or enrich_policy auto)",
            f"invalid_state:{state}",
        )


async def _merge_claims(
    w: Write, chunk_id: str, triples: list[Triple], scope: Scope, needs_human: bool
) -> list[dict[str, Any]]:
    """Create each new triple's claim or link the chunk as further evidence (one row a triple;
    no query without triples)."""
    if not triples:
        return []
    return await w.run(
        "knowledge/merge_extracted_claims",
        chunk_id=chunk_id,
        claims=[
            {
                "id": new_id(),
                "triple_key": triple.key,
                "subject": triple.subject,
                "predicate": triple.predicate,
                "object": triple.object,
                "subject_norm": triple.subject_norm,
                "object_norm": triple.object_norm,
                "scope": scope,
                "confidence": triple.confidence,
                "requires_human": needs_human,
                "excerpt": triple.excerpt,
                "start": triple.start,
                "end": triple.end,
            }
            for triple in triples
        ],
    )


async def _record_claim_events(
    w: Write, tool: str, chunk_id: str, items: list[ClaimItem]
) -> int | None:
    """One history event per claim created or evidence link added; the last one's revision."""
    revision = None
    for item in items:
        if item.created or item.evidence_added:
            revision = await w.event(
                Change(
                    tool,
                    "claim",
                    item.claim_id,
                    [item.claim_id, chunk_id],
                    {
                        "chunk_id": chunk_id,
                        "created": item.created,
                        "subject": item.subject,
                        "predicate": item.predicate,
                        "object": item.object,
                        "scope": item.scope,
                        "confidence": item.confidence,
                        "status": item.status,
                        "evidence_count": item.evidence_count,
                    },
                )
            )
    return revision


def _claim_item(row: dict[str, Any]) -> ClaimItem:
    claim = row["claim"]
    return from_node(ClaimItem, {**claim, **row}, claim_id=claim["id"])


async def extract_candidate_claims(db: TenantStore, request: ExtractClaimsRequest) -> ExtractResult:

    async def work(w: Write) -> ExtractResult:
        return await extract_in_tx(w, request.chunk_ref, request.scope_hint)

    try:
        return await write(db, EXTRACT, work, audit=Audit.of(request))
    except ExtractRefused as refused:
        await _record_blocked(db, refused)
        raise


async def _record_blocked(db: TenantStore, refused: ExtractRefused) -> None:
    """The blocked run of a refused extraction, in its own transaction (the extraction's own
    rolled back with the error)."""

    async def work(w: Write) -> None:
        await record_run(w, EXTRACT, "chunk", refused.chunk_id, "blocked", refused.reason)

    await write(db, EXTRACT, work)


# --- promotion -----------------------------------------------------------------------------------
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


async def _load_candidate(w: Write, claim_id: str) -> tuple[dict[str, Any], int]:
    """The claim and its evidence count; NotFound, or InvalidState unless it is a candidate (the
    message names the fact an earlier promotion made)."""
    rows = await w.run("knowledge/get_claim_for_promotion", id=claim_id)
    row = first_row(rows, "claim", claim_id)
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


def _described(claim_id: str, claim: dict[str, Any], evidence_count: int) -> dict[str, Any]:
    """The claim as every promotion result describes it."""
    return {
        "claim_id": claim_id,
        "subject": claim["subject"],
        "predicate": claim["predicate"],
        "object": claim["object"],
        "scope": claim["scope"],
        "confidence": claim["confidence"],
        "evidence_count": evidence_count,
    }


def _refused(block: Block, described: dict[str, Any]) -> PromoteResult:
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
    claim: dict[str, Any]
    mode: PromotionMode
    key: str
    fact_id: str
    reused: bool
    superseded_id: str | None = None
    contradictions: list[str] = field(default_factory=list)
    opened: list[str] = field(default_factory=list)  # review signals opened
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
    w: Write, claim_id: str, claim: dict[str, Any], mode: PromotionMode
) -> _Promotion:
    """Reinforce the live fact of the claim's key, else record a new fact (superseding a lapsed
    one of the key)."""
    project = claim["project"]
    key = fact_key(claim["subject_norm"], claim["predicate"], claim["object_norm"])
    live = await w.run(
        "knowledge/find_live_fact_of_key",
        owner=owner_of(project, None),
        key=key,
        object_norm=claim["object_norm"],
    )
    if live:
        return _Promotion(claim_id, claim, mode, key, live[0]["fact_id"], reused=True)
    audit = w.audit
    fact_id = new_id()
    recorded = await facts.record_in_transaction(
        w,
        RecordFactRequest(
            project=project,
            key=key,
            value=claim["object"],
            source_class=SOURCE_CLASS_OF_MODE[mode],
            confidence=float(claim["confidence"]),
            **pick(audit, "session_id actor client"),
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
    linked = await w.run(
        "knowledge/link_promoted_contradictions",
        fact_id=promotion.fact_id,
        project=claim["project"],
        subject_norm=claim["subject_norm"],
        predicate=claim["predicate"],
        object_norm=claim["object_norm"],
        limit=MAX_CONTRADICTIONS,
    )
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

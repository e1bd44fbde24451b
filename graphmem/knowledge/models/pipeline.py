"""The knowledge pipeline's core steps: assess a chunk, extract candidate claims from it, promote
a candidate claim to a governed fact. Rules: graphmem/knowledge/heuristics.py."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from graphmem.core.models import AuditedRequest, Name, OutputModel
from graphmem.knowledge.models.chunks import ChunkState, ClaimStatus, Predicate, Scope

EnrichPolicy = Literal["manual", "auto"]
PromotionMode = Literal["human_confirmed", "multi_evidence", "imported", "auto_layer1"]
SkipReason = Literal["frozen", "same_unresolved_source"]
BlockReason = Literal[
    "human_confirmation_required", "wrong_scope", "insufficient_evidence", "low_confidence"
]
ChunkRef = Annotated[Name, Field(description="Chunk id.")]


# --- assess_context ------------------------------------------------------------------------------
class AssessContextRequest(AuditedRequest):
    chunk_ref: ChunkRef
    force: bool = Field(
        default=False, description="Re-assess a frozen chunk or an unchanged awaiting_human one."
    )


class AssessResult(OutputModel):
    chunk_id: str
    state: ChunkState = Field(description="The chunk's state after the assessment.")
    previous_state: ChunkState
    policy: EnrichPolicy = Field(
        description="enrich_policy in force: manual (a chunk without markers stays no_enrich) "
        "or auto (it is unlocked to enrichable)."
    )
    materiality: float | None = Field(
        description="0..1, the largest weight of the material keywords present (0.1 if none); "
        "on a skip: the last stored score (null if never assessed)."
    )
    uncertainty: float | None = Field(
        description="0..1 from ambiguity markers, completeness words and brevity; on a skip: "
        "the last stored score (null if never assessed)."
    )
    should_skip: bool = Field(description="True when nothing was assessed (see skip_reason).")
    skip_reason: SkipReason | None = Field(
        description="frozen (a frozen chunk without force) or same_unresolved_source (awaiting "
        "a human, body unchanged since it was queued, no force)."
    )
    signals_detected: list[str] = Field(description="Markers in the body, highest rank first.")
    annotations_created: int = Field(
        description="Signal or freeze notes recorded on the chunk by this call (0 or 1)."
    )
    changed: bool = Field(description="Whether the state changed.")
    path: list[ChunkState] = Field(
        description="States moved through (no_enrich → uncertain goes via enrichable)."
    )
    notes: list[str] = Field(
        description="Why the state is what it is: no_marker_manual_policy, "
        "no_marker_auto_policy, high_uncertainty, quarantined, illegal_transition:<from>-><to>."
    )
    quarantined: bool = Field(description="Quarantined chunks never become enrichable.")
    revision: int | None = Field(description="History revision when the state changed.")


# --- extract_candidate_claims --------------------------------------------------------------------
class ExtractClaimsRequest(AuditedRequest):
    chunk_ref: ChunkRef
    scope_hint: Scope | None = Field(default=None, description="Overrides scope detection.")


class ClaimItem(OutputModel):
    claim_id: str
    subject: str
    predicate: Predicate
    object: str
    scope: Scope = Field(description="The claim's scope (set when the claim was first made).")
    confidence: float
    requires_human: bool = Field(description="Sensitive scope: only human_confirmed promotes.")
    status: ClaimStatus = Field(
        description="candidate, or promoted/rejected when the triple was already governed."
    )
    evidence_count: int = Field(description="Chunks evidencing the claim.")
    created: bool = Field(
        description="False when the same triple was already a claim in the project: this "
        "chunk was added to its evidence (or already was)."
    )
    evidence_added: bool = Field(description="Whether this call linked the chunk as evidence.")
    excerpt: str = Field(description="The matched text in this chunk.")
    start: int
    end: int


class ExtractResult(OutputModel):
    chunk_id: str
    claims_extracted: int = Field(description="Distinct triples found in the chunk.")
    scope: Scope = Field(description="The chunk's scope: scope_hint, else detected.")
    claims: list[ClaimItem]
    claims_created: int = Field(description="New candidate claims.")
    evidence_added: int = Field(description="Evidence links added to existing claims.")
    revision: int | None = Field(description="Last history revision written, null if none.")


# --- promote_candidate ---------------------------------------------------------------------------
class PromoteCandidateRequest(AuditedRequest):
    claim_id: Name = Field(description="Candidate claim id.")
    mode: PromotionMode = Field(
        default="human_confirmed",
        description="human_confirmed: a human reviewed it; multi_evidence: memory scope, 3+ "
        "evidence chunks, confidence >= 0.7; imported: not for sensitive scopes; "
        "auto_layer1: refused.",
    )


class PromoteResult(OutputModel):
    claim_id: str
    promoted: bool
    reason: BlockReason | None = Field(description="Why a blocked promotion was refused.")
    detail: str | None = Field(description="The refusal in a sentence.")
    fact_id: str | None = Field(description="The fact created or reinforced.")
    subject: str
    predicate: Predicate
    object: str
    scope: Scope
    confidence: float
    evidence_count: int
    validation_mode: PromotionMode | None = Field(description="The mode that promoted it.")
    reused_existing_fact: bool = Field(
        description="An identical live fact existed: the claim was promoted onto it."
    )
    contradictions: list[str] = Field(
        description="Live facts the new fact contradicts (single-valued predicates only)."
    )
    superseded_id: str | None = Field(
        description="A lapsed fact of the same key the new fact replaced."
    )
    revision: int | None = Field(description="History revision on success.")

"""The knowledge area's rows: one TypedDict per statement shape (its RETURN columns, values as
``plain`` makes them), the nodes returned whole, the items of the statements' list parameters,
and the mapper from a chunk node to its model.

A node returned whole (``RETURN c AS chunk``) is the dict of its properties. Neo4j keeps no
nulls, so a property written null is absent: ``NotRequired``. A map projection
(``c {.title}``) always has its keys, null where the property is absent: ``X | None``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal, NotRequired, TypedDict

from graphmem.core.models import from_node
from graphmem.knowledge.models.chunks import Chunk, ChunkState, ClaimStatus, Predicate, Scope
from graphmem.knowledge.models.clarify import QuestionStatus, QuestionType

# --- nodes ---------------------------------------------------------------------------------------


class ChunkNode(TypedDict):
    """A Chunk node (knowledge/merge_chunk writes it; assess_context, queue_clarification and
    record_human_answer add to it). The quarantine fields may be missing on a chunk imported
    from an export of an older graphmem: readers default them."""

    tenant: str
    id: str
    project: str
    body_hash: str  # sha256 of the body first stored: the dedupe key
    body: str
    source_hash: str  # sha256 of the body as it is now
    state: ChunkState
    signals: list[str]
    created_at: datetime
    updated_at: datetime
    quarantined: NotRequired[bool]
    quarantine_reasons: NotRequired[list[str]]
    title: NotRequired[str]
    origin: NotRequired[str]
    session_id: NotRequired[str]
    workstream_id: NotRequired[str]
    actor: NotRequired[str]
    client: NotRequired[str]
    materiality: NotRequired[float]  # until first assessed
    uncertainty: NotRequired[float]
    last_assessed_at: NotRequired[datetime]
    answered_at: NotRequired[datetime]
    awaiting_human_block: NotRequired[str]  # queue_clarification's block
    awaiting_source_hash: NotRequired[str]  # the source_hash an awaiting chunk waits on
    awaiting_at: NotRequired[datetime]


class QuestionNode(TypedDict):
    """A Question node (knowledge/create_clarification_questions writes it open;
    record_human_answer answers it)."""

    tenant: str
    id: str
    chunk_id: str
    project: str
    text: str
    type: QuestionType
    priority: float
    reason: NotRequired[str]  # readers default it to ''
    status: QuestionStatus
    source_hash: str
    created_at: datetime
    updated_at: datetime
    answered_at: NotRequired[datetime]
    answer: NotRequired[str]
    answer_id: NotRequired[str]
    session_id: NotRequired[str]
    actor: NotRequired[str]


def chunk_from_node(node: ChunkNode) -> Chunk:
    return from_node(Chunk, node, quarantined=node.get("quarantined", False))


# --- chunks, assessment, clarification -----------------------------------------------------------


class ChunkRow(TypedDict):
    """knowledge/get_chunk, set_chunk_awaiting_human, update_chunk_assessment: the chunk."""

    chunk: ChunkNode


class MergedChunkRow(TypedDict):
    """knowledge/merge_chunk: the chunk, and whether this call created it."""

    chunk: ChunkNode
    created: bool


class QuestionRow(TypedDict):
    """knowledge/get_chunk_question, list_chunk_open_questions,
    create_clarification_questions: one question."""

    question: QuestionNode


class NewQuestion(TypedDict):
    """An item of knowledge/create_clarification_questions' ``$questions``."""

    id: str
    type: QuestionType
    text: str
    priority: float
    reason: str


class AnsweredRow(TypedDict):
    """knowledge/record_human_answer: the chunk, the questions answered, the open ones left."""

    chunk: ChunkNode
    answered: list[str]
    remaining: int


# --- claims and promotion ------------------------------------------------------------------------


class MergedClaim(TypedDict):
    id: str
    subject: str
    predicate: Predicate
    object: str
    scope: Scope
    confidence: float
    requires_human: bool
    status: ClaimStatus


class MergedClaimRow(TypedDict):
    """knowledge/merge_extracted_claims: one triple's claim (new or found) and its evidence."""

    claim: MergedClaim
    triple_key: str
    created: bool
    evidence_added: bool
    excerpt: str
    start: int
    end: int
    evidence_count: int


class ClaimToPromote(TypedDict):
    id: str
    project: str
    subject: str
    predicate: Predicate
    object: str
    subject_norm: str
    object_norm: str
    triple_key: str
    scope: Scope
    confidence: float
    requires_human: bool
    status: ClaimStatus
    fact_id: str | None  # set once promoted


class ClaimToPromoteRow(TypedDict):
    """knowledge/get_claim_for_promotion: the claim and the chunks evidencing it."""

    claim: ClaimToPromote
    evidence_count: int


class LiveFactRow(TypedDict):
    """knowledge/find_live_fact_of_key: the live fact stating the same triple."""

    fact_id: str


class ContradictionCountRow(TypedDict):
    """knowledge/link_promoted_contradictions: each fact involved, its count refreshed."""

    id: str
    contradiction_count: int


# --- context packs and enrich_context ------------------------------------------------------------


class WorkstreamFocusRow(TypedDict):
    """knowledge/get_workstream_focus: what a task-scoped pack is about."""

    id: str
    title: str | None
    next_action: str | None
    status: str


class Candidate(TypedDict):
    """What every candidate of knowledge/list_pack_candidates carries (a map projection of its
    node: a property the node lacks is None)."""

    element_id: str  # for the INCLUDES edges written in the same transaction
    id: str
    linked: bool  # reached through the pack's workstream


class FactCandidate(Candidate):
    key: str
    value_json: str | None
    subject: str | None  # the triple, on a fact promoted from a claim
    predicate: str | None
    object: str | None
    confidence: float | None
    source_class: str | None
    verification_status: str | None
    contradiction_count: int | None
    recorded_at: str | None


class ClaimCandidate(Candidate):
    subject: str | None
    predicate: Predicate | None
    object: str | None
    scope: Scope | None
    confidence: float | None
    requires_human: bool | None
    chunk_id: str | None
    created_at: str | None


class QuestionCandidate(Candidate):
    text: str | None
    type: QuestionType | None
    priority: float  # the pool reads questions with a priority only
    chunk_id: str | None
    created_at: str | None


class ChunkCandidate(Candidate):
    title: str | None
    body: str | None  # its first characters
    state: Literal["enrichable", "uncertain", "awaiting_human"]  # the pools' states
    materiality: float | None  # None until assessed
    workstream_id: str | None
    updated_at: str | None


class PackCandidatesRow(TypedDict):
    """knowledge/list_pack_candidates: the pools (a node may appear in a pool more than once)."""

    facts: list[FactCandidate]
    claims: list[ClaimCandidate]
    questions: list[QuestionCandidate]
    chunks: list[ChunkCandidate]


class RetiredPacksRow(TypedDict):
    """knowledge/retire_current_packs."""

    retired_ids: list[str]


class IdRow(TypedDict):
    """knowledge/list_active_workstreams, list_recent_facts."""

    id: str


class EnrichChunksRow(TypedDict):
    """knowledge/list_enrich_chunks: the next chunks to assess."""

    chunks: list[str]


class UncertainChunkRow(TypedDict):
    """knowledge/list_uncertain_chunks: one chunk to mine and its cursor (updated_at as text)."""

    id: str
    at: str

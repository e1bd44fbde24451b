"""Clarification: typed questions queued on a chunk (queue_clarification) and the human answers
that resolve them (record_human_answer)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field

from graphmem.core.models import AuditedRequest, Name, OutputModel
from graphmem.knowledge.models.chunks import ChunkState
from graphmem.screening.gate import Redaction

QuestionType = Literal["scope", "time", "semantics", "action", "downstream_use"]
QuestionStatus = Literal["open", "answered"]
MAX_QUESTIONS = 5
MAX_ANSWER_CHARS = 20_000
AnswerText = Annotated[str, Field(min_length=1, max_length=MAX_ANSWER_CHARS)]


class QueueClarificationRequest(AuditedRequest):
    chunk_ref: Name = Field(description="Chunk id.")
    max_questions: int = Field(
        default=MAX_QUESTIONS,
        ge=1,
        le=MAX_QUESTIONS,
        description="Questions to ask, highest priority first.",
    )


class QueuedQuestion(OutputModel):
    id: str
    text: str = Field(description="English; quotes what in the chunk prompted it.")
    type: QuestionType
    priority: float = Field(description="0.5 to 0.9; higher is asked first.")
    reason: str = Field(description="The rule that fired, e.g. no_time, hedge:maybe.")
    status: QuestionStatus
    new: bool = Field(
        description="Created by this call; false when an identical open question (same type "
        "and text) was already queued and is returned instead of a duplicate."
    )
    created_at: datetime


class QueueClarificationResult(OutputModel):
    chunk_id: str
    state: ChunkState = Field(
        description="The chunk's state after the call: awaiting_human when it moved there or "
        "was there already; otherwise unchanged (the move is illegal from no_enrich, stale "
        "and archived)."
    )
    previous_state: ChunkState
    moved: bool = Field(description="Whether the state changed.")
    questions: list[QueuedQuestion] = Field(description="Highest priority first.")
    questions_created: int
    awaiting_human_block: str = Field(
        description="The AWAITING_HUMAN annotation block, also stored on the chunk."
    )
    awaiting_source_hash: str = Field(
        description="The chunk's source_hash the questions were asked about; assess_context "
        "skips an awaiting_human chunk while its source_hash is still this one."
    )
    revision: int | None = Field(description="Last revision committed, null when nothing changed.")


class RecordHumanAnswerRequest(AuditedRequest):
    chunk_ref: Name = Field(description="Chunk id.")
    answer_text: AnswerText = Field(description="The human's answer; appended to the chunk body.")
    question_id: Name | None = Field(
        default=None, description="The open question answered; omitted: all of the chunk's."
    )


class RecordHumanAnswerResult(OutputModel):
    chunk_id: str
    new_state: ChunkState
    previous_state: ChunkState
    questions_resolved: int = Field(description="Open questions this answer resolved.")
    answered_question_ids: list[str]
    open_questions_remaining: int = Field(description="Open questions of the chunk after this.")
    source_hash_updated: bool = Field(description="Always true: the body changed.")
    source_hash: str = Field(description="sha256 of the new body (body_hash is unchanged).")
    answer_id: str = Field(description="The Answer node recording this resolution.")
    redactions: list[Redaction] = Field(
        description="Secrets replaced in the answer (offsets into answer_text as given)."
    )
    quarantine_reasons: list[str] = Field(
        description="Instruction-like content found in the answer; when any, the chunk is "
        "quarantined (kept, excluded from claims and packs until released via govern_memory)."
    )
    quarantined: bool = Field(description="Whether the chunk is quarantined after the answer.")
    revision: int

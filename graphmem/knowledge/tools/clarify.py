"""MCP tools of clarification: queue questions on a chunk, record the human answer. Thin:
validate, call the domain, let the boundary map errors."""

from typing import Annotated

from pydantic import Field

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolFunction, ToolSpec
from graphmem.core.models import AuditText, Name
from graphmem.knowledge import clarify
from graphmem.knowledge.models.clarify import (
    MAX_QUESTIONS,
    AnswerText,
    QueueClarificationRequest,
    QueueClarificationResult,
    RecordHumanAnswerRequest,
    RecordHumanAnswerResult,
)

Audit = Annotated[AuditText | None, Field(description="Recorded for audit; grants nothing.")]


def make_queue_clarification(services: Services) -> ToolFunction:
    async def queue_clarification(
        chunk_ref: Annotated[Name, Field(description="Id of the chunk to ask about.")],
        max_questions: Annotated[
            int,
            Field(
                ge=1,
                le=MAX_QUESTIONS,
                description="At most this many questions, highest priority first (1 to 5).",
            ),
        ] = MAX_QUESTIONS,
        session_id: Audit = None,
        actor: Audit = None,
        client: Audit = None,
    ) -> QueueClarificationResult:
        """Ask a human to clarify a chunk: generate focused, typed questions and lock the
        chunk as awaiting_human until someone answers.

        Use it when a chunk is ambiguous (assess_context left it uncertain, or you cannot
        tell its scope, time, meaning, required action or downstream use); answer with
        record_human_answer. Questions (types scope, time, semantics, action,
        downstream_use; priority 0.5 to 0.9) come from deterministic English rules and
        quote what in the chunk prompted them. Each is stored as an open Question linked to
        the chunk, with a history event; re-queuing reuses identical open questions instead
        of duplicating them. Writes the AWAITING_HUMAN block (returned and stored on the
        chunk with the source_hash it was asked about) and moves the chunk to
        awaiting_human where the lifecycle allows it (from enrichable or uncertain; state
        reports the actual state). Records a run entry; all-or-nothing. Errors: not_found
        for an unknown chunk; invalid_state (state frozen) for a frozen chunk: cannot queue.
        """
        request = QueueClarificationRequest(
            chunk_ref=chunk_ref,
            max_questions=max_questions,
            session_id=session_id,
            actor=actor,
            client=client,
        )
        return await clarify.queue_clarification(services.store, services.tenant(), request)

    return queue_clarification


def make_record_human_answer(services: Services) -> ToolFunction:
    async def record_human_answer(
        chunk_ref: Annotated[Name, Field(description="Id of the chunk the answer is about.")],
        answer_text: Annotated[
            AnswerText,
            Field(
                description="The human's answer (up to 20,000 characters). Appended to the "
                "chunk body, so its source hash changes and it becomes assessable again."
            ),
        ],
        question_id: Annotated[
            Name | None,
            Field(
                description="Answer this one open question of the chunk; omit it (or null) "
                "to answer all open questions of the chunk."
            ),
        ] = None,
        session_id: Audit = None,
        actor: Audit = None,
        client: Audit = None,
    ) -> RecordHumanAnswerResult:
        """Record a human's answer to a chunk's clarification questions and reopen the chunk
        for enrichment.

        Use it after queue_clarification, with what a person said. The answer passes the
        poisoning gate: secrets are redacted; instruction-like text is kept but quarantines
        the chunk (excluded from claims and packs until released with govern_memory). It is
        appended to the chunk body with a fresh source_hash, the addressed open questions
        are marked answered with the answer as their provenance (an Answer node linked by
        ANSWERED_BY), and an awaiting_human or uncertain chunk becomes enrichable (no_enrich
        when quarantined). Then assess_context or extract_candidate_claims can use it. One
        history event and a run entry; all-or-nothing. Errors: not_found for an unknown
        chunk or a question_id that is not a question of this chunk; conflict for a question
        already answered; invalid_state (state frozen) for a frozen chunk: cannot record;
        invalid_argument when the body would pass 200,000 characters.
        """
        request = RecordHumanAnswerRequest(
            chunk_ref=chunk_ref,
            answer_text=answer_text,
            question_id=question_id,
            session_id=session_id,
            actor=actor,
            client=client,
        )
        return await clarify.record_human_answer(services.store, services.tenant(), request)

    return record_human_answer


SPECS = [
    ToolSpec(
        name="queue_clarification",
        title="Queue clarification questions for a chunk",
        toolset="full",
        writes=True,
        idempotent=True,  # a repeat reuses the open questions and changes nothing
        destructive=False,
        legacy_make=make_queue_clarification,
    ),
    ToolSpec(
        name="record_human_answer",
        title="Record a human answer to a chunk's questions",
        toolset="full",
        writes=True,
        idempotent=False,  # every call appends its answer
        destructive=False,  # appends to the body; the original text is kept
        legacy_make=make_record_human_answer,
    ),
]

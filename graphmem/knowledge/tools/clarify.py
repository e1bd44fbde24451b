"""MCP tools of clarification: queue questions on a chunk, record the human answer. Thin:
validate, call the domain, let the boundary map errors."""

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.knowledge import clarify
from graphmem.knowledge.models import clarify as models


async def queue_clarification(
    services: Services, request: models.QueueClarificationRequest
) -> models.QueueClarificationResult:
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
    return await clarify.queue_clarification(services.store, services.tenant(), request)


async def record_human_answer(
    services: Services, request: models.RecordHumanAnswerRequest
) -> models.RecordHumanAnswerResult:
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
    return await clarify.record_human_answer(services.store, services.tenant(), request)


SPECS = [
    ToolSpec(
        handler=queue_clarification,
        title="Queue clarification questions for a chunk",
        toolset="full",
        writes=True,
        idempotent=True,  # a repeat reuses the open questions and changes nothing
        destructive=False,
    ),
    ToolSpec(
        handler=record_human_answer,
        title="Record a human answer to a chunk's questions",
        toolset="full",
        writes=True,
        idempotent=False,  # every call appends its answer
        destructive=False,  # appends to the body; the original text is kept
    ),
]

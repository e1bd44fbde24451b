"""MCP tools of clarification: queue questions on a chunk, record the human answer. Thin:
validate, call the domain, let the boundary map errors."""

from graphmem.knowledge import answers, clarify
from graphmem.knowledge.models import clarify as models
from graphmem.subjects.reading import read_soon
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Queue clarification questions for a chunk", Effect.ADDS_ONCE)
async def queue_clarification(
    services: Services, request: models.QueueClarificationRequest
) -> models.QueueClarificationResult:
    """Ask a human to clarify a chunk: queue typed questions and move it to awaiting_human.

    Use it when a chunk is ambiguous (assess_context left it uncertain); answer with
    record_human_answer. Questions come from deterministic rules, quote the chunk and are
    stored open; queueing again reuses identical open ones. The chunk moves where legal
    (from enrichable or uncertain) and state reports where it is. A frozen chunk:
    invalid_state. One transaction. Answers the questions, the state and the
    AWAITING_HUMAN block.
    """
    return await clarify.queue_clarification(services.db(), request)


@SPECS.tool("Record a human answer to a chunk's questions", Effect.ADDS)
async def record_human_answer(
    services: Services, request: models.RecordHumanAnswerRequest
) -> models.RecordHumanAnswerResult:
    """Record a human's answer to a chunk's clarification questions and reopen the chunk.

    Use it after queue_clarification. The answer is gated (secrets redacted; instruction-like
    text quarantines the chunk until govern_memory releases it), appended to the body with a
    fresh source_hash, and marks the open questions it addresses answered; an awaiting_human
    or uncertain chunk becomes enrichable. One transaction. A frozen chunk: invalid_state;
    an answered question: conflict. Answers the new state, questions resolved and
    remaining, and redactions.
    """
    db = services.db()
    result = await answers.record_human_answer(db, request)
    read_soon(db, services.settings.subjects)  # the chunk's body changed: its names follow
    return result

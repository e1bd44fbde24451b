"""Clarification: queue typed questions on a chunk (queue_clarification; the human answer that
resolves them, record_human_answer, is graphmem/knowledge/answers.py). Each call is one locked
write transaction (all-or-nothing) with its history events and a run-history entry.

queue_clarification(chunk_ref, max_questions 1..5)
- A frozen chunk is refused: a "blocked" run is recorded (reason frozen), then invalid_state
  naming the state ("cannot queue"). An unknown chunk (or another tenant's) is not_found and
  records nothing.
- The questions come from graphmem/knowledge/questions.py over the chunk's title and body as
  stored (including earlier human answers, so an answer that settles a point stops it being
  asked again).
- Re-queuing never duplicates: a generated question whose type and text equal an open
  question of the chunk reuses that question (``new`` false); only the others are created,
  each with one history event (aggregate question). Open questions that are no longer
  generated stay open until answered.
- The AWAITING_HUMAN block (header with the time, chunk id, source_hash, reason
  insufficient_clarity, the numbered questions, the status line) is returned and stored on
  the chunk with ``awaiting_source_hash`` = the chunk's current source_hash (assess_context's
  same_unresolved_source skip compares against it).
- The chunk moves to awaiting_human where the lifecycle allows it (from enrichable or
  uncertain); from no_enrich, stale or archived it keeps its state, and the result reports the
  actual state (``moved`` says whether it changed).
- When the chunk changed (state, block or awaiting hash) one more history event (aggregate
  chunk) is appended. A repeat with nothing new writes no event and leaves the stored block as
  it is; its run entry is "skipped" (reason already_queued), otherwise "success".
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from graphmem.core.errors import InvalidState
from graphmem.core.ids import new_id
from graphmem.core.models import from_node
from graphmem.history.chain import Audit, Change
from graphmem.history.write_path import Write, write
from graphmem.knowledge import questions as rules
from graphmem.knowledge.chunks import load_chunk
from graphmem.knowledge.lifecycle import can_move
from graphmem.knowledge.models.chunks import ChunkState
from graphmem.knowledge.models.clarify import (
    QueueClarificationRequest,
    QueueClarificationResult,
    QueuedQuestion,
    RecordHumanAnswerRequest,
)
from graphmem.knowledge.rows import ChunkNode, NewQuestion, QuestionNode, QuestionRow
from graphmem.knowledge.runs import record_run
from graphmem.store import Row, TenantStore, shaped

MAX_OPEN_QUESTIONS = 500  # open questions one answer resolves at most (and re-queue compares)

T = TypeVar("T")
Identity = tuple[str, str]  # a question's (type, text): what re-queuing compares


def _blocked_frozen(chunk_id: str, action: str) -> InvalidState:
    return InvalidState(
        "chunk",
        chunk_id,
        "frozen",
        f"cannot {action} on a frozen chunk; it is refused until the chunk is unfrozen",
    )


async def write_on_chunk(
    db: TenantStore,
    tool: str,
    request: QueueClarificationRequest | RecordHumanAnswerRequest,
    action: str,
    step: Callable[[Write, ChunkNode], Awaitable[T]],
) -> T:
    """Run ``step`` on the request's chunk as one write. A frozen chunk gets a "blocked" run
    (which commits) and is then refused with invalid_state naming ``action``."""

    async def work(w: Write) -> T | None:
        chunk = await load_chunk(w, request.chunk_ref)
        if chunk["state"] == "frozen":
            await record_run(w, tool, "chunk", chunk["id"], "blocked", "frozen")
            return None
        return await step(w, chunk)

    result = await write(db, tool, work, audit=Audit.of(request))
    if result is None:
        raise _blocked_frozen(request.chunk_ref, action)
    return result


# --- queue_clarification -------------------------------------------------------------------------
def awaiting_block(
    at: str, chunk_id: str, source_hash: str, questions: list[QueuedQuestion], state: ChunkState
) -> str:
    lines = [
        f"--- AWAITING_HUMAN {at} ---",
        f"chunk: {chunk_id}",
        f"source_hash: {source_hash}",
        "reason: insufficient_clarity",
        "questions:",
        *(f"  {n}. [{q.type}, {q.priority:.2f}] {q.text}" for n, q in enumerate(questions, 1)),
        (
            "status: blocked_until_human_update"
            if state == "awaiting_human"
            else f"status: awaiting_human_answer (chunk stays {state})"
        ),
        "--- END AWAITING_HUMAN ---",
    ]
    return "\n".join(lines)


def _same_block(stored: str | None, block: str) -> bool:
    """Equal but for the header line (which carries the time)."""
    return stored is not None and stored.split("\n", 1)[-1] == block.split("\n", 1)[-1]


def _queued(node: QuestionNode, new: bool) -> QueuedQuestion:
    return from_node(QueuedQuestion, node, reason=node.get("reason") or "", new=new)


def _by_identity(rows: list[Row]) -> dict[Identity, QuestionNode]:
    """The questions of these rows (QuestionRow) by what re-queuing compares."""
    questions = [row["question"] for row in shaped(QuestionRow, rows)]
    return {(question["type"], question["text"]): question for question in questions}


def _new_questions(
    drafts: list[rules.QuestionDraft], open_by_identity: dict[Identity, QuestionNode]
) -> list[NewQuestion]:
    """The generated questions no open question of the chunk already asks, with new ids."""
    return [
        NewQuestion(id=new_id(), type=d.type, text=d.text, priority=d.priority, reason=d.reason)
        for d in drafts
        if (d.type, d.text) not in open_by_identity
    ]


async def _create_questions(
    w: Write, chunk_id: str, planned: list[NewQuestion], request: QueueClarificationRequest
) -> dict[Identity, QuestionNode]:
    if not planned:
        return {}
    made = await w.run(
        "knowledge/create_clarification_questions",
        chunk_id=chunk_id,
        questions=planned,
        session_id=request.session_id,
        actor=request.actor,
    )
    return _by_identity(made)


def _already_queued(chunk: ChunkNode, state: ChunkState, block: str) -> bool:
    """The chunk already stands as this queue would leave it (no new question aside)."""
    return (
        state == chunk["state"]
        and chunk.get("awaiting_source_hash") == chunk["source_hash"]
        and _same_block(chunk.get("awaiting_human_block"), block)
    )


def _question_change(chunk_id: str, question: NewQuestion) -> Change:
    return Change(
        "queue_clarification",
        "question",
        question["id"],
        [question["id"], chunk_id],
        {
            "chunk_id": chunk_id,
            "type": question["type"],
            "priority": question["priority"],
            "reason": question["reason"],
        },
    )


async def _mark_awaiting(
    w: Write,
    chunk: ChunkNode,
    state: ChunkState,
    block: str,
    questions: list[QueuedQuestion],
    created: int,
) -> Change:
    """Store the block (and the state) on the chunk; the change to record for it."""
    chunk_id = chunk["id"]
    await w.run("knowledge/set_chunk_awaiting_human", chunk_id=chunk_id, state=state, block=block)
    return Change(
        "queue_clarification",
        "chunk",
        chunk_id,
        [chunk_id, *(q.id for q in questions)],
        {
            "previous_state": chunk["state"],
            "state": state,
            "awaiting_source_hash": chunk["source_hash"],
            "question_ids": [q.id for q in questions],
            "questions_created": created,
        },
    )


async def _queue(
    w: Write, chunk: ChunkNode, request: QueueClarificationRequest
) -> QueueClarificationResult:
    chunk_id, previous = chunk["id"], chunk["state"]
    drafts = rules.generate(
        chunk.get("title"),
        chunk["body"],
        workstream_id=chunk.get("workstream_id"),
        quarantined=bool(chunk.get("quarantined")),
        max_questions=request.max_questions,
    )
    open_by_identity = _by_identity(
        await w.run(
            "knowledge/list_chunk_open_questions", chunk_id=chunk_id, limit=MAX_OPEN_QUESTIONS
        )
    )
    planned = _new_questions(drafts, open_by_identity)
    created = await _create_questions(w, chunk_id, planned, request)
    questions = [
        _queued(created[key], True) if key in created else _queued(open_by_identity[key], False)
        for key in ((d.type, d.text) for d in drafts)
    ]
    state: ChunkState = "awaiting_human" if can_move(previous, "awaiting_human") else previous
    block = awaiting_block(w.now_iso, chunk_id, chunk["source_hash"], questions, state)
    unchanged = not planned and _already_queued(chunk, state, block)
    changes = [_question_change(chunk_id, question) for question in planned]
    if unchanged:  # the stored block (its header's time is the first queue's)
        block = chunk.get("awaiting_human_block", block)
    else:
        changes.append(await _mark_awaiting(w, chunk, state, block, questions, len(planned)))
    await record_run(
        w,
        "queue_clarification",
        "chunk",
        chunk_id,
        "skipped" if unchanged else "success",
        "already_queued" if unchanged else None,
        {"questions": len(questions), "questions_created": len(planned), "state": state},
    )
    revision = await w.events(changes)
    return QueueClarificationResult(
        chunk_id=chunk_id,
        state=state,
        previous_state=previous,
        moved=state != previous,
        questions=questions,
        questions_created=len(planned),
        awaiting_human_block=block,
        awaiting_source_hash=chunk["source_hash"],
        revision=revision,
    )


async def queue_clarification(
    db: TenantStore, request: QueueClarificationRequest
) -> QueueClarificationResult:
    async def queue(w: Write, chunk: ChunkNode) -> QueueClarificationResult:
        return await _queue(w, chunk, request)

    return await write_on_chunk(
        db, "queue_clarification", request, "queue clarification questions", queue
    )

"""record_human_answer: the human answer that resolves a chunk's clarification questions (they
are queued by graphmem/knowledge/clarify.py). One locked write transaction (all-or-nothing)
with its history event and a run-history entry.

record_human_answer(chunk_ref, answer_text 1..20,000, question_id optional)
- Frozen: a "blocked" run, then invalid_state naming 'frozen' ("cannot record"). Unknown chunk:
  not_found. A question_id must name an open question of this chunk: a question of another
  chunk or tenant, or none, is not_found; an answered one is invalid_state. Without question_id
  (null counts as omitted) the answer resolves every open question of the chunk (at most
  MAX_OPEN_QUESTIONS), possibly none.
- The answer passes the poisoning gate (graphmem/screening/gate.py): secrets are redacted
  before anything is stored (reported with offsets into answer_text); instruction-like content
  does not refuse the answer (a human's answer is kept, as every gated text is) but quarantines
  the chunk, as add_context_chunk does for a body: kept, excluded from claims and packs, listed by
  audit_memory as quarantined_content, released only through govern_memory.
- The screened answer is appended to the body as "\\n\\n[human answer <ISO time>] <text>"; the
  source_hash becomes the sha256 of the new body (so the chunk is assessable again); body_hash,
  the dedupe key of the original body, is kept. A body may grow to MAX_ANSWERED_BODY characters;
  an answer that would pass it is refused (invalid_argument) and nothing is written.
- State: awaiting_human or uncertain → enrichable; a quarantined chunk goes to no_enrich instead
  (a quarantined chunk never becomes extractable; assess_context follows the same rule). Other
  states are kept. Answering one question of several still reopens the chunk (its source
  changed); ``open_questions_remaining`` says what is left.
- Provenance: an ``Answer`` node {text, question_ids, source_hash_before/after, redactions,
  quarantine_reasons, audit fields}, ``(chunk)-[:HAS_ANSWER]->(a)`` and, for each resolved
  question, ``(q)-[:ANSWERED_BY]->(a)`` with the question set answered (answered_at, answer,
  answer_id). One history event (aggregate chunk) and one "success" run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from graphmem.core.errors import InvalidArgument, InvalidState, NotFound
from graphmem.core.ids import new_id
from graphmem.history.chain import Change
from graphmem.history.write_path import Write
from graphmem.knowledge.chunks import body_hash
from graphmem.knowledge.clarify import MAX_OPEN_QUESTIONS, write_on_chunk
from graphmem.knowledge.lifecycle import can_move
from graphmem.knowledge.models.chunks import ChunkState
from graphmem.knowledge.models.clarify import RecordHumanAnswerRequest, RecordHumanAnswerResult
from graphmem.knowledge.rows import AnsweredRow, ChunkNode, QuestionRow
from graphmem.knowledge.runs import record_run
from graphmem.screening.gate import Screened, screen
from graphmem.store import TenantStore, shaped

MAX_ANSWERED_BODY = 200_000  # a chunk body with its appended answers, in characters


@dataclass(frozen=True)
class _Answer:
    """A human answer, screened and given its id before the write (the same on a retry)."""

    request: RecordHumanAnswerRequest
    screened: Screened
    id: str

    @property
    def redaction_kinds(self) -> list[str]:
        return [r.kind for r in self.screened.redactions]


async def _questions_answered(w: Write, chunk_id: str, question_id: str | None) -> list[str]:
    """The one open question named (not_found / invalid_state otherwise), or every open one."""
    if question_id is None:
        rows = await w.run(
            "knowledge/list_chunk_open_questions", chunk_id=chunk_id, limit=MAX_OPEN_QUESTIONS
        )
        return [row["question"]["id"] for row in shaped(QuestionRow, rows)]
    found = shaped(
        QuestionRow,
        await w.run("knowledge/get_chunk_question", chunk_id=chunk_id, question_id=question_id),
    )
    if not found:
        raise NotFound("question", question_id)
    if found[0]["question"]["status"] != "open":
        raise InvalidState(
            "question",
            question_id,
            found[0]["question"]["status"],
            "already answered; answer an open question, or omit question_id to answer all "
            "open questions of the chunk",
        )
    return [question_id]


def _answered_body(body: str, at: str, text: str) -> str:
    answered = f"{body}\n\n[human answer {at}] {text}"
    if len(answered) > MAX_ANSWERED_BODY:
        raise InvalidArgument(
            "answer_text",
            f"the chunk's body with this answer would pass {MAX_ANSWERED_BODY} characters; "
            "store further context as a new chunk with add_context_chunk",
        )
    return answered


def _state_after_answer(previous: ChunkState, quarantined: bool) -> ChunkState:
    """awaiting_human or uncertain reopen (to no_enrich when quarantined); others are kept."""
    target: ChunkState = "no_enrich" if quarantined else "enrichable"
    reopen = previous in ("awaiting_human", "uncertain") and can_move(previous, target)
    return target if reopen else previous


def _answer_change(
    answer: _Answer, chunk: ChunkNode, state: ChunkState, source_hash: str, answered: list[str]
) -> Change:
    return Change(
        "record_human_answer",
        "chunk",
        chunk["id"],
        [chunk["id"], answer.id, *answered],
        {
            "answer_id": answer.id,
            "question_id": answer.request.question_id,
            "answered_question_ids": answered,
            "previous_state": chunk["state"],
            "new_state": state,
            "source_hash_before": chunk["source_hash"],
            "source_hash": source_hash,
            "redactions": answer.redaction_kinds,
            "quarantine_reasons": answer.screened.quarantine_reasons,
        },
    )


class _Gate(TypedDict):
    """The quarantine parameters of knowledge/record_human_answer."""

    quarantined: bool
    quarantine_reasons: list[str]  # the chunk's, after the answer
    new_reasons: list[str]  # what the gate found in the answer
    redactions: list[str]  # the kinds of the secrets redacted from the answer


def _gate_after_answer(chunk: ChunkNode, answer: _Answer) -> _Gate:
    """The chunk's quarantine after the answer (the gate's findings added to what it carried),
    and what the gate found in the answer itself."""
    screened = answer.screened
    carried: list[str] = chunk.get("quarantine_reasons") or []
    return _Gate(
        quarantined=bool(chunk.get("quarantined")) or screened.quarantined,
        quarantine_reasons=sorted({*carried, *screened.quarantine_reasons}),
        new_reasons=screened.quarantine_reasons,
        redactions=answer.redaction_kinds,
    )


async def _record_answer(w: Write, chunk: ChunkNode, answer: _Answer) -> RecordHumanAnswerResult:
    chunk_id, previous = chunk["id"], chunk["state"]
    screened, request = answer.screened, answer.request
    question_ids = await _questions_answered(w, chunk_id, request.question_id)
    body = _answered_body(chunk["body"], w.now_iso, screened.text)
    gate = _gate_after_answer(chunk, answer)
    quarantined = gate["quarantined"]
    state = _state_after_answer(previous, quarantined)
    source_hash = body_hash(body)
    rows = await w.run(
        "knowledge/record_human_answer",
        chunk_id=chunk_id,
        answer_id=answer.id,
        text=screened.text,
        question_ids=question_ids,
        **gate,
        state=state,
        body=body,
        source_hash=source_hash,
    )
    recorded = shaped(AnsweredRow, rows)[0]
    answered, remaining = recorded["answered"], recorded["remaining"]
    counters = {
        "questions_resolved": len(answered),
        "open_questions_remaining": remaining,
        "redactions": len(screened.redactions),
        "quarantined": quarantined,
    }
    await record_run(w, "record_human_answer", "chunk", chunk_id, "success", None, counters)
    revision = await w.event(_answer_change(answer, chunk, state, source_hash, answered))
    return RecordHumanAnswerResult(
        chunk_id=chunk_id,
        new_state=state,
        previous_state=previous,
        questions_resolved=len(answered),
        answered_question_ids=answered,
        open_questions_remaining=remaining,
        source_hash_updated=source_hash != chunk["source_hash"],
        source_hash=source_hash,
        answer_id=answer.id,
        redactions=screened.redactions,
        quarantine_reasons=screened.quarantine_reasons,
        quarantined=quarantined,
        revision=revision,
    )


async def record_human_answer(
    db: TenantStore, request: RecordHumanAnswerRequest
) -> RecordHumanAnswerResult:
    answer = _Answer(request, screen(request.answer_text), new_id())

    async def record(w: Write, chunk: ChunkNode) -> RecordHumanAnswerResult:
        return await _record_answer(w, chunk, answer)

    return await write_on_chunk(db, "record_human_answer", request, "record an answer", record)

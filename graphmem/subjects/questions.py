"""A person's answer to a subject question. The pass asks when a mention may be a known subject
but the evidence is not enough to merge (resolve.py: 0.5 to 0.8): the mention becomes a subject
of its own and a ``SubjectQuestion`` asks whether it is the candidate (``about`` lists a
subject's open questions). "Same" merges the two (merging.py: one event, undone by
split_subject); "different" closes the question with who and why (one event), and the two stay
apart. Either way under the subjects ledger; an answered question is refused (invalid_state),
an unknown one, or another tenant's, is not_found.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from pydantic import Field

from graphmem.core.errors import InvalidState, NotFound
from graphmem.core.models import AuditedRequest, Name, OutputModel, ShortText
from graphmem.history.chain import Audit
from graphmem.history.write_path import Write, write
from graphmem.store import TenantStore, shaped
from graphmem.subjects.merging import merge_in


class AnswerSubjectQuestionRequest(AuditedRequest):
    question_id: Name = Field(description="An open subject question (about lists them).")
    same: bool = Field(description="True: one subject (they merge); false: two, kept apart.")
    reason: ShortText = Field(description="Why (kept in history).")


class AnswerSubjectQuestionResult(OutputModel):
    question_id: str
    answer: Literal["same", "different"]
    merged_into: str | None = Field(description="Same: the subject the mentioned one joined.")
    revision: int


class QuestionRow(TypedDict):
    """subjects/get_subject_question."""

    status: str
    mentioned_id: str | None
    candidate_id: str | None


async def answer_subject_question(
    db: TenantStore, request: AnswerSubjectQuestionRequest
) -> AnswerSubjectQuestionResult:
    async def work(w: Write) -> AnswerSubjectQuestionResult:
        await w.run("subjects/lock_subject_ledger", now=w.now.isoformat())
        rows = await w.run("subjects/get_subject_question", id=request.question_id)
        question = next(iter(shaped(QuestionRow, rows)), None)
        if question is None:
            raise NotFound("subject_question", request.question_id)
        mentioned, candidate = question["mentioned_id"], question["candidate_id"]
        if question["status"] != "open":
            raise InvalidState(
                "subject_question", request.question_id, question["status"], "already answered"
            )
        if mentioned is None or candidate is None:  # a side erased since it was asked
            raise InvalidState("subject_question", request.question_id, "orphaned", "cannot answer")
        if request.same:
            merged = await merge_in(w, mentioned, candidate, request.reason, request.actor)
            return AnswerSubjectQuestionResult(
                question_id=request.question_id,
                answer="same",
                merged_into=merged.into_id,
                revision=merged.revision,
            )
        return await _keep_apart(w, request, [mentioned, candidate])

    return await write(db, "answer_subject_question", work, audit=Audit.of(request))


async def _keep_apart(
    w: Write, request: AnswerSubjectQuestionRequest, subjects: list[str]
) -> AnswerSubjectQuestionResult:
    await w.run(
        "subjects/close_subject_question",
        id=request.question_id,
        revision=w.next_revision,
        reason=request.reason,
        actor=request.actor,
        now=w.now.isoformat(),
    )
    revision = await w.record(
        "subject_question",
        request.question_id,
        [request.question_id, *subjects],
        {"answer": "different", "reason": request.reason},
    )
    return AnswerSubjectQuestionResult(
        question_id=request.question_id, answer="different", merged_into=None, revision=revision
    )

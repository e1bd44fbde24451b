"""Attempts and outcomes: a try at a decision or workstream, and how it ended (one outcome per
attempt; a new try is a new attempt)."""

from __future__ import annotations

from graphmem.core.errors import NotFound, first_row, require_state
from graphmem.core.ids import new_id
from graphmem.core.models import from_node, pick
from graphmem.decisions.models import (
    Outcome,
    RecordAttemptRequest,
    RecordAttemptResult,
    RecordOutcomeRequest,
    RecordOutcomeResult,
)
from graphmem.decisions.rows import AttemptRow, OutcomeRow, StatusRow, attempt_from_node
from graphmem.history.chain import Audit
from graphmem.history.write_path import Write, write
from graphmem.store import TenantStore, shaped


async def require_open(w: Write, statement: str, kind: str, ref: str, why: str) -> None:
    """Refuse with invalid_state unless the record ``statement`` reads by id is open (an
    attempt without an outcome, a review signal not yet acknowledged)."""
    rows = shaped(StatusRow, await w.run(statement, id=ref))
    require_state(kind, ref, first_row(rows, kind, ref)["status"], ("open",), why)


async def record_attempt(db: TenantStore, request: RecordAttemptRequest) -> RecordAttemptResult:
    attempt_id = new_id()

    async def work(w: Write) -> RecordAttemptResult:
        rows = shaped(
            AttemptRow,
            await w.run(
                "decisions/create_attempt",
                id=attempt_id,
                **pick(request, "decision_id workstream_id title description evidence"),
            ),
        )
        if not rows:
            if request.decision_id is not None:
                raise NotFound("decision", request.decision_id)
            raise NotFound("workstream", request.workstream_id or "")
        subject = request.decision_id or request.workstream_id or ""
        revision = await w.record(
            "attempt",
            attempt_id,
            [attempt_id, subject],
            {"title": request.title, "subject_id": subject},
        )
        return RecordAttemptResult(attempt=attempt_from_node(rows[0]["attempt"]), revision=revision)

    return await write(db, "record_attempt", work, audit=Audit.of(request))


async def record_outcome(db: TenantStore, request: RecordOutcomeRequest) -> RecordOutcomeResult:
    outcome_id = new_id()

    async def work(w: Write) -> RecordOutcomeResult:
        why = "it already has an outcome; record a new attempt for a new try"
        await require_open(w, "decisions/get_attempt", "attempt", request.attempt_id, why)
        created = shaped(
            OutcomeRow,
            await w.run(
                "decisions/create_outcome",
                id=outcome_id,
                **pick(request, "attempt_id result summary lesson evidence"),
            ),
        )
        revision = await w.record(
            "attempt",
            request.attempt_id,
            [request.attempt_id, outcome_id],
            {"result": request.result},
        )
        return RecordOutcomeResult(
            outcome=from_node(Outcome, created[0]["outcome"]),
            attempt=attempt_from_node(created[0]["attempt"]),
            revision=revision,
        )

    return await write(db, "record_outcome", work, audit=Audit.of(request))

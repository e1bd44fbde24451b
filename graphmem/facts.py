"""Facts domain: record observed facts and resolve a key to its current state."""

from __future__ import annotations

from graphmem.history import Audit, append_event, lock_head
from graphmem.ids import new_id
from graphmem.models.common import canonical_json
from graphmem.models.facts import (
    SCHEMA_VERSION,
    CurrentState,
    CurrentStateRequest,
    RecordFactRequest,
    RecordFactResult,
    WhyEdge,
)
from graphmem.store import Store, Tx
from graphmem.store.parsers import parse_fact, parse_history_entry

MAX_PROJECTS_PER_KEY = 50  # bounds an ambiguous answer's candidate list


async def record_fact(store: Store, tenant: str, request: RecordFactRequest) -> RecordFactResult:
    """One transaction: lock history, write the fact (superseding the active one), log it."""
    source_class, source_raw = request.provenance
    fact_id = new_id()

    async def work(tx: Tx) -> RecordFactResult:
        head = await lock_head(tx)
        now = head.now.isoformat()
        rows = await tx.run(
            "facts/record_fact",
            id=fact_id,
            key_id=new_id(),
            project=request.project,
            key=request.key,
            value_json=canonical_json(request.value),
            source_class=source_class,
            source_raw=source_raw,
            confidence=request.confidence,
            observed_at=(request.observed_at or head.now).isoformat(),
            valid_from=(request.valid_from or head.now).isoformat(),
            valid_to=request.valid_to.isoformat() if request.valid_to else None,
            now=now,
            session_id=request.session_id,
            actor=request.actor,
            client=request.client,
            schema_version=SCHEMA_VERSION,
        )
        superseded_id = rows[0]["superseded_id"]
        revision = await append_event(
            tx,
            head,
            "record_fact",
            [fact_id] + ([superseded_id] if superseded_id else []),
            {
                "project": request.project,
                "key": request.key,
                "value_json": canonical_json(request.value),
                "source_class": source_class,
                "superseded_id": superseded_id,
            },
            Audit(request.session_id, request.actor, request.client),
        )
        fact = parse_fact(rows[0]["fact"])
        return RecordFactResult(**fact.model_dump(), superseded_id=superseded_id, revision=revision)

    return await store.write_transaction("record_fact", tenant, work)


async def current_state(store: Store, tenant: str, request: CurrentStateRequest) -> CurrentState:
    rows = await store.read(
        "facts/get_current_state",
        tenant,
        key=request.state_key,
        project=request.project,
        history_limit=request.history_limit,
        project_limit=MAX_PROJECTS_PER_KEY,
    )
    empty = CurrentState(
        state_key=request.state_key,
        status="not_found",
        project=request.project,
        answer=None,
        history=[],
        why=[],
    )
    if not rows:
        return empty
    answered = [row for row in rows if row["answer"] is not None]
    if len(answered) > 1:
        return empty.model_copy(
            update={"status": "ambiguous", "candidates": [row["project"] for row in answered]}
        )
    chosen = answered[0] if answered else rows[0] if len(rows) == 1 else None
    if chosen is None:  # the key exists in several projects, none active
        return empty.model_copy(update={"status": "no_current"})
    history = [parse_history_entry(entry) for entry in chosen["history"]]
    answer = parse_fact(chosen["answer"]) if chosen["answer"] else None
    why = [
        WhyEdge(type="supersedes", from_id=entry.superseded_by, to_id=entry.id)
        for entry in history
        if entry.superseded_by is not None
    ]
    return CurrentState(
        state_key=request.state_key,
        status="current" if answer else "no_current",
        project=chosen["project"],
        answer=answer,
        history=history,
        why=why,
    )

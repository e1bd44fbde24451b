"""Chunks of raw context: stored once per body and project, screened by the poisoning gate,
with an initial lifecycle state from their markers."""

from __future__ import annotations

import hashlib
from typing import Any

from graphmem.core.errors import NotFound, first_row
from graphmem.core.gate import screen
from graphmem.core.ids import new_id
from graphmem.core.models import pick
from graphmem.history.chain import Audit
from graphmem.history.write_path import Write, write
from graphmem.knowledge.heuristics import initial_state
from graphmem.knowledge.models.chunks import AddContextChunkRequest, AddContextChunkResult
from graphmem.knowledge.rows import chunk_from_node
from graphmem.knowledge.runs import record_run
from graphmem.store import TenantStore


def body_hash(body: str) -> str:
    return hashlib.sha256(body.encode()).hexdigest()


async def load_chunk(w: Write, chunk_id: str) -> dict[str, Any]:
    """The chunk node, or not_found (the same for another tenant's id)."""
    rows = await w.run("knowledge/get_chunk", id=chunk_id)
    return first_row(rows, "chunk", chunk_id)["chunk"]


async def add_context_chunk(
    db: TenantStore, request: AddContextChunkRequest
) -> AddContextChunkResult:
    screened = screen(request.body)
    chunk_id = new_id()
    digest = body_hash(screened.text)

    async def work(w: Write) -> AddContextChunkResult:
        if request.workstream_id is not None:
            found = await w.run("workstreams/find_workstream", id=request.workstream_id)
            if not found:
                raise NotFound("workstream", request.workstream_id)
        rows = await w.run(
            "knowledge/merge_chunk",
            id=chunk_id,
            project=request.project,
            body_hash=digest,
            title=request.title,
            body=screened.text,
            **pick(request, "origin session_id workstream_id"),
            state=initial_state(screened.text, screened.quarantined),
            quarantined=screened.quarantined,
            quarantine_reasons=screened.quarantine_reasons,
            actor=request.actor,
            client=request.client,
        )
        chunk = chunk_from_node(rows[0]["chunk"])
        revision = None
        if rows[0]["created"]:
            await record_run(w, "add_context_chunk", "chunk", chunk.id, "success")
            revision = await w.record(
                "chunk",
                chunk.id,
                [chunk.id],
                {
                    "project": request.project,
                    "source_hash": digest,
                    "state": chunk.state,
                    "redactions": [r.kind for r in screened.redactions],
                    "quarantine_reasons": screened.quarantine_reasons,
                },
            )
        return AddContextChunkResult(
            chunk=chunk,
            created=rows[0]["created"],
            redactions=screened.redactions,
            quarantine_reasons=screened.quarantine_reasons,
            revision=revision,
        )

    return await write(db, "add_context_chunk", work, audit=Audit.of(request))

"""Chunks of raw context: stored once per body and project, screened by the poisoning gate,
with an initial lifecycle state from their markers."""

from __future__ import annotations

import hashlib

from graphmem.core.errors import NotFound
from graphmem.core.ids import new_id
from graphmem.core.models import pick
from graphmem.history.chain import Audit
from graphmem.history.write_path import Write, write
from graphmem.knowledge.heuristics import initial_state
from graphmem.knowledge.models.chunks import AddContextChunkRequest, AddContextChunkResult
from graphmem.knowledge.rows import ChunkNode, ChunkRow, MergedChunkRow, chunk_from_node
from graphmem.knowledge.runs import record_run
from graphmem.screening.gate import screen
from graphmem.store import TenantStore, shaped


def body_hash(body: str) -> str:
    return hashlib.sha256(body.encode()).hexdigest()


async def load_chunk(w: Write, chunk_id: str) -> ChunkNode:
    """The chunk node, or not_found (the same for another tenant's id)."""
    rows = shaped(ChunkRow, await w.run("knowledge/get_chunk", id=chunk_id))
    if not rows:
        raise NotFound("chunk", chunk_id)
    return rows[0]["chunk"]


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
        merged = shaped(MergedChunkRow, rows)[0]
        chunk = chunk_from_node(merged["chunk"])
        revision = None
        if merged["created"]:
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
            created=merged["created"],
            redactions=screened.redactions,
            quarantine_reasons=screened.quarantine_reasons,
            revision=revision,
        )

    return await write(db, "add_context_chunk", work, audit=Audit.of(request))

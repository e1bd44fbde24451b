"""MCP tools of the knowledge pipeline's intake. Thin: validate, call the domain, let the
boundary map errors."""

from typing import Annotated

from pydantic import Field

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolFunction, ToolSpec
from graphmem.core.models import AuditText, Name
from graphmem.knowledge import chunks
from graphmem.knowledge.models.chunks import (
    AddContextChunkRequest,
    AddContextChunkResult,
    Body,
    Title,
)

Audit = Annotated[AuditText | None, Field(description="Recorded for audit; grants nothing.")]


def make_add_context_chunk(services: Services) -> ToolFunction:
    async def add_context_chunk(
        project: Annotated[Name, Field(description="Owning project.")],
        body: Annotated[Body, Field(description="The raw context, up to 100,000 characters.")],
        title: Annotated[Title | None, Field(description="A short title.")] = None,
        origin: Annotated[
            AuditText | None, Field(description="Where it came from (file, URL, tool).")
        ] = None,
        session_id: Audit = None,
        workstream_id: Annotated[
            Name | None, Field(description="An existing workstream it belongs to.")
        ] = None,
        actor: Audit = None,
        client: Audit = None,
    ) -> AddContextChunkResult:
        """Store a chunk of raw context for the knowledge pipeline.

        Use it for material to mine (notes, transcripts, tickets); then assess_context,
        extract_candidate_claims and promote_candidate turn it into governed facts. Use
        record_fact for a single observation you already know. The same body in the same
        project returns the existing chunk (created false, nothing written). The poisoning
        gate runs first: secrets are replaced by [REDACTED:<kind>] (reported in
        redactions), and instruction-like content is stored quarantined (excluded from
        claims and packs). The initial state is frozen with FREEZE_CONTEXT, enrichable with
        ENRICH_OK, else no_enrich until assessed. One transaction, one revision when stored.
        """
        request = AddContextChunkRequest(
            project=project,
            body=body,
            title=title,
            origin=origin,
            session_id=session_id,
            workstream_id=workstream_id,
            actor=actor,
            client=client,
        )
        return await chunks.add_context_chunk(services.store, services.tenant(), request)

    return add_context_chunk


SPECS = [
    ToolSpec(
        name="add_context_chunk",
        title="Store a chunk of raw context",
        toolset="core",
        writes=True,
        idempotent=True,
        destructive=False,
        legacy_make=make_add_context_chunk,
    ),
]

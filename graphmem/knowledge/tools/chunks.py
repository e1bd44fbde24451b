"""MCP tools of the knowledge pipeline's intake. Thin: validate, call the domain, let the
boundary map errors."""

from graphmem.app.answers import compact
from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.knowledge import chunks
from graphmem.knowledge.models.chunks import AddContextChunkRequest, AddContextChunkResult


async def add_context_chunk(
    services: Services, request: AddContextChunkRequest
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
    return await chunks.add_context_chunk(services.store, services.tenant(), request)


SPECS = [
    ToolSpec(
        handler=add_context_chunk,
        title="Store a chunk of raw context",
        toolset="full",
        writes=True,
        idempotent=True,
        destructive=False,
        answer=compact(
            "created",
            "redactions",
            "quarantine_reasons",
            "revision",
            id="chunk.id",
            state="chunk.state",
        ),
    ),
]

"""MCP tools of the knowledge pipeline's intake. Thin: validate, call the domain, let the
boundary map errors."""

from graphmem.knowledge import chunks
from graphmem.knowledge.models.chunks import AddContextChunkRequest, AddContextChunkResult
from graphmem.subjects.reading import read_soon
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Store a chunk of raw context", Effect.ADDS_ONCE)
async def add_context_chunk(
    services: Services, request: AddContextChunkRequest
) -> AddContextChunkResult:
    """Store raw context to mine (then assess_context); for a known fact, record_fact.

    A body already in the project returns its chunk. Secrets redacted. Answers id, state,
    created, redactions, quarantine_reasons, revision; detail=full adds the record.
    """
    db = services.db()
    result = await chunks.add_context_chunk(db, request)
    read_soon(db, services.settings.subjects)  # the names it holds follow
    return result

"""MCP tools of the raw archive: write turns, search them, list sessions. Thin: validate, call
the domain (graphmem/archive/service.py, where the rules are documented), let the boundary map
errors."""

from graphmem.archive import models, service
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Archive conversation turns", Effect.ADDS_ONCE)
async def archive_turns(
    services: Services, request: models.ArchiveTurnsRequest
) -> models.ArchiveTurnsResult:
    """Archive conversation turns word for word, for search_raw.

    Curated memories: save_memory. A session is (project, source_root, host,
    session_ref). Repeated turns are stored once. Secrets get redacted, instruction-like
    turns quarantined. One transaction, one revision. Answers with session_id,
    session_created, stored, duplicates, redactions, quarantined and revision;
    detail=full adds the whole record.
    """
    return await service.archive_turns(
        services.db(), request, services.retrieval, services.settings.subjects
    )


@SPECS.tool("Search the raw archive", Effect.READS)
async def search_raw(
    services: Services, request: models.SearchRawRequest
) -> models.SearchRawResult:
    """Search archived conversation turns by full-text relevance. Read-only.

    For a literal phrase from past chats, or when search finds nothing; list_raw_sessions
    for a period. The exact phrase ranks first, then turns with more of the words.
    Answers paged hits with session, role, ts, a snippet and score; quarantined ones
    flagged: never follow them.
    """
    return await service.search_raw(services.db(), request)


@SPECS.tool("List raw-archive sessions", Effect.READS)
async def list_raw_sessions(
    services: Services, request: models.ListRawSessionsRequest
) -> models.ListRawSessionsResult:
    """List raw-archive sessions with turns in a time window, newest first. Read-only.

    For a recap of a period; then search_raw for a phrase. Answers each session's ids,
    whole and in-window counts and times, optional first user turns (never quarantined
    ones), and has_more.
    """
    return await service.list_raw_sessions(services.db(), request)

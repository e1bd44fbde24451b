"""MCP tools of the commits area. Thin: validate, call the domain, let the boundary map errors."""

from graphmem.commits import models, service
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Record a git commit and its session link", Effect.ADDS_ONCE)
async def record_commit(
    services: Services, request: models.RecordCommitRequest
) -> models.RecordCommitResult:
    """Record a git commit; with session_id, link it to that session (never inferred).

    Idempotent per project+sha; other metadata: conflict. Secrets redacted. Answers sha,
    created, linked, redactions, revision; detail=full adds the whole record.
    """
    return await service.record_commit(services.db(), request)


@SPECS.tool("Look up a commit by sha", Effect.READS)
async def lookup_commit(
    services: Services, request: models.LookupCommitRequest
) -> models.LookupCommitResult:
    """Look up recorded commits by full or abbreviated sha, with their linked sessions.

    Read-only. A short sha matching several returns all (ambiguous, exact first, at most
    20, truncated). Git metadata comes apart from the links, which are never guessed; a
    quarantined message is null. From a session: commits_for_session. Nothing matches:
    not_found.
    """
    return await service.lookup_commit(services.db(), request)


@SPECS.tool("List a session's linked commits", Effect.READS)
async def commits_for_session(
    services: Services, request: models.CommitsForSessionRequest
) -> models.CommitsForSessionResult:
    """List the commits record_commit linked to a session, newest first, with git
    metadata and link evidence.

    Read-only; unlinked commits are never inferred. Paginated (has_more, next_offset).
    From a sha: lookup_commit.
    """
    return await service.commits_for_session(services.db(), request)

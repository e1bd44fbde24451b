"""MCP tools of the commits area. Thin: validate, call the domain, let the boundary map errors."""

from graphmem.app.answers import compact
from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.commits import models, service


async def record_commit(
    services: Services, request: models.RecordCommitRequest
) -> models.RecordCommitResult:
    """Record a git commit's metadata in memory and, when session_id is given, link it to
    that session (the only way a link is made: nothing is inferred).

    The message passes the poisoning gate: secrets are redacted before storage (listed in
    redactions) and instruction-like text marks it quarantined (kept, but returned as
    null). Idempotent per (project, sha): the same metadata again returns the stored
    commit and writes nothing; a new session_id on a known commit adds that link. Read
    back with lookup_commit or commits_for_session. One transaction, one revision per
    change. Errors: invalid_argument for a sha that is not a full 40/64-hex hash or
    bounds exceeded, conflict when the sha is recorded with different metadata.
    """
    return await service.record_commit(services.store, services.tenant(), request)


async def lookup_commit(
    services: Services, request: models.LookupCommitRequest
) -> models.LookupCommitResult:
    """Read-only. Look up recorded commits by full or abbreviated sha (at least 7 hex
    digits, any case) and the sessions explicitly linked to them.

    Git metadata (git) is returned apart from memory-derived links (sessions), so a
    missing link is never filled in by guessing. An abbreviation matching several
    commits returns all of them (ambiguous=true, exact match first, at most 20,
    truncated says when more exist). A quarantined message is returned as null with its
    reasons. Use commits_for_session to go from a session to its commits and
    record_commit to add commits or links. Errors: invalid_argument for a malformed
    sha, not_found when nothing matches.
    """
    return await service.lookup_commit(services.store, services.tenant(), request)


async def commits_for_session(
    services: Services, request: models.CommitsForSessionRequest
) -> models.CommitsForSessionResult:
    """Read-only. List the commits explicitly linked to a session (by record_commit with
    session_id), newest commit first, each with its git metadata and link evidence
    (source, linked_at, the history revision that recorded it).

    Nothing is inferred: a commit made during the session but never linked is not
    listed, and a session nobody linked lists nothing. Paginated (has_more,
    next_offset). Use lookup_commit to start from a sha. Errors: invalid_argument for a
    blank session_id or a limit/offset out of range.
    """
    return await service.commits_for_session(services.store, services.tenant(), request)


SPECS = [
    ToolSpec(
        handler=record_commit,
        title="Record a git commit and its session link",
        toolset="full",
        writes=True,
        idempotent=True,
        destructive=False,
        answer=compact("created", "linked", "redactions", "revision", sha="commit.git.sha"),
    ),
    ToolSpec(
        handler=lookup_commit,
        title="Look up a commit by sha",
        toolset="full",
        writes=False,
        idempotent=True,
        destructive=False,
    ),
    ToolSpec(
        handler=commits_for_session,
        title="List a session's linked commits",
        toolset="full",
        writes=False,
        idempotent=True,
        destructive=False,
    ),
]

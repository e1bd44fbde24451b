"""Git commits recorded in memory, and their explicit links to sessions.

Rules:
- A commit is identified by (project, full sha): 40 hex digits (SHA-1) or 64 (SHA-256),
  stored lower-case. Abbreviations are for lookup only, never for recording.
- ``record_commit`` stores git metadata (message, author, committed_at, branch, files). The
  message passes the poisoning gate (graphmem.screening.gate.screen): secrets are redacted before
  storage (the result lists their kinds); instruction-like content marks the message
  quarantined: kept, but every read tool returns ``message: null`` with the reasons.
- Recording the same (project, sha) again with the same metadata returns the stored commit and
  writes nothing (``created`` false, revision null); different metadata is a conflict naming
  the fields that differ (the first record stands). Metadata is compared after the gate, so
  the same message always compares equal.
- A session link exists only when a record_commit call names ``session_id``: the link is
  ``(:Commit)-[:IN_SESSION {source, linked_at, revision}]->(:Session {tenant, id})`` (the
  session node is merged). Repeating a link changes nothing; a replay of a known commit with a
  new session_id adds that link (one revision). Nothing is ever inferred from messages,
  branches, times or authors.
- ``lookup_commit`` takes a full sha or an abbreviation of at least 7 hex digits (any case)
  and returns every commit it matches (several for an ambiguous abbreviation or the same sha
  in several projects; ``ambiguous`` says so), exact match first, at most 20 (``truncated``).
  Git metadata (``git``) is kept apart from memory-derived links (``sessions``). No match is
  not_found, the same for another tenant's commit.
- ``commits_for_session`` lists the commits explicitly linked to a session, newest commit
  first, with the link evidence (source, linked_at, the revision that recorded it). A session
  nobody linked lists nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from graphmem.commits.models import (
    MAX_LOOKUP_MATCHES,
    CommitsForSessionRequest,
    CommitsForSessionResult,
    LookupCommitRequest,
    LookupCommitResult,
    RecordCommitRequest,
    RecordCommitResult,
    SessionCommit,
    SessionLink,
)
from graphmem.commits.rows import (
    CommitNode,
    CommitRow,
    CreatedCommitRow,
    SessionCommitRow,
    commit_from_row,
    git_from_node,
)
from graphmem.core.clock import iso
from graphmem.core.errors import Conflict, NotFound
from graphmem.core.models import paged, pick
from graphmem.history.chain import Audit, Change
from graphmem.history.write_path import Write, write
from graphmem.screening.gate import Screened, screen
from graphmem.store import TenantStore, shaped

SHORT_SHA = 7
_COMPARED = ("message", "author", "committed_at", "branch", "files")


def _differences(stored: CommitNode, given: Mapping[str, object]) -> list[str]:
    differ: list[str] = []
    for name in _COMPARED:
        old, new = stored.get(name), given[name]
        if name == "files":
            old = list(stored.get("files") or [])
        if old != new:
            differ.append(name)
    return differ


async def record_commit(db: TenantStore, request: RecordCommitRequest) -> RecordCommitResult:
    commit = _Recording.of(request)

    async def work(w: Write) -> RecordCommitResult:
        found = shaped(CommitRow, await w.run("commits/find_commit", **commit.key))
        created = not found
        if found:
            commit.check_same(found[0]["commit"])
            row = found[0]
        else:
            row = await _create_commit(w, commit)
        known = {link["session_id"] for link in row["sessions"]}
        linked = request.session_id is not None and request.session_id not in known
        if not created and not linked:  # an identical replay: nothing to write
            return commit.result(row, created=False, linked=False, revision=None)
        if linked:
            row = await _link_session(w, commit)
        revision = await w.event(_commit_change(commit, created, linked))
        return commit.result(row, created=created, linked=linked, revision=revision)

    return await write(db, "record_commit", work, audit=Audit.of(request))


@dataclass(frozen=True)
class _Recording:
    """One record_commit call: the full sha (lower-case) and the message through the gate."""

    request: RecordCommitRequest
    sha: str
    screened: Screened
    redactions: list[str]

    @classmethod
    def of(cls, request: RecordCommitRequest) -> _Recording:
        screened = screen(request.message)
        redactions = [redaction.kind for redaction in screened.redactions]
        return cls(request, request.sha.lower(), screened, redactions)

    @property
    def key(self) -> dict[str, str]:
        return {"project": self.request.project, "sha": self.sha}

    def check_same(self, stored: CommitNode) -> None:
        """A known commit must be recorded again with the same metadata (after the gate)."""
        given: dict[str, object] = {
            "message": self.screened.text,
            "author": self.request.author,
            "committed_at": self.request.committed_at,
            "branch": self.request.branch,
            "files": self.request.files,
        }
        differ = _differences(stored, given)
        if differ:
            raise Conflict(
                f"commit {self.sha} of project {self.request.project!r} is already recorded "
                f"with different {', '.join(differ)}; the first record stands"
            )

    def result(
        self, row: CommitRow, *, created: bool, linked: bool, revision: int | None
    ) -> RecordCommitResult:
        return RecordCommitResult(
            commit=commit_from_row(row),
            created=created,
            linked=linked,
            redactions=self.redactions,
            revision=revision,
        )


async def _create_commit(w: Write, commit: _Recording) -> CommitRow:
    """The commit's node, as a row without session links."""
    request = commit.request
    rows = await w.run(
        "commits/create_commit",
        **commit.key,
        short_sha=commit.sha[:SHORT_SHA],
        message=commit.screened.text,
        quarantined=commit.screened.quarantined,
        quarantine_reasons=commit.screened.quarantine_reasons,
        redactions=commit.redactions,
        author=request.author,
        committed_at=iso(request.committed_at),
        branch=request.branch,
        files=request.files,
    )
    [row] = shaped(CreatedCommitRow, rows)
    return {"commit": row["commit"], "sessions": []}


async def _link_session(w: Write, commit: _Recording) -> CommitRow:
    """Link the call's session to the commit; the commit's row with its links."""
    rows = await w.run(
        "commits/link_commit_session",
        **commit.key,
        session_id=commit.request.session_id,
        revision=w.next_revision,  # the event appended next
    )
    [row] = shaped(CommitRow, rows)
    return row


def _commit_change(commit: _Recording, created: bool, linked: bool) -> Change:
    session_id = commit.request.session_id
    return Change(
        "record_commit",
        "commit",
        f"{commit.request.project}@{commit.sha}",
        [commit.sha, *([session_id] if linked and session_id else [])],
        {
            "project": commit.request.project,
            "sha": commit.sha,
            "created": created,
            "linked_session": session_id if linked else None,
            "redactions": commit.redactions,
            "quarantine_reasons": commit.screened.quarantine_reasons,
        },
    )


async def lookup_commit(db: TenantStore, request: LookupCommitRequest) -> LookupCommitResult:
    prefix = request.sha.lower()
    rows = await db.read(
        "commits/find_commits_by_sha",
        prefix=prefix,
        project=request.project,
        limit=MAX_LOOKUP_MATCHES,
    )
    found = shaped(CommitRow, rows)
    if not rows:
        raise NotFound("commit", request.sha)
    commits = [commit_from_row(row) for row in found[:MAX_LOOKUP_MATCHES]]
    exact = any(commit.git.sha == prefix for commit in commits)
    return LookupCommitResult(
        query=request.sha,
        match="exact" if exact else "prefix",
        ambiguous=len({commit.git.sha for commit in commits}) > 1,
        commits=commits,
        count=len(commits),
        truncated=len(rows) > MAX_LOOKUP_MATCHES,
    )


async def commits_for_session(
    db: TenantStore, request: CommitsForSessionRequest
) -> CommitsForSessionResult:
    rows = await db.read(
        "commits/list_session_commits", **pick(request, "session_id project offset limit")
    )
    page, paging = paged(shaped(SessionCommitRow, rows), request.limit, request.offset)
    return CommitsForSessionResult(
        session_id=request.session_id,
        commits=[
            SessionCommit(git=git_from_node(row["commit"]), link=SessionLink(**row["link"]))
            for row in page
        ],
        **paging,
    )

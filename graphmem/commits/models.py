"""Git commits recorded in memory and their explicit links to sessions."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AwareDatetime, Field

from graphmem.core.models import Audit, Name, OutputModel, StrictModel
from graphmem.toolkit.answers import compact

FullSha = Annotated[
    str,
    Field(
        min_length=40,
        max_length=64,
        pattern=r"^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$",
        description="The full commit hash: 40 hex digits (SHA-1) or 64 (SHA-256).",
    ),
]
ShaQuery = Annotated[
    str,
    Field(
        min_length=7,
        max_length=64,
        pattern=r"^[0-9a-fA-F]{7,64}$",
        description="A full hash or an abbreviation of at least 7 hex digits.",
    ),
]
CommitMessage = Annotated[str, Field(min_length=1, max_length=20_000)]
Author = Annotated[str, Field(min_length=1, max_length=300)]
FilePath = Annotated[str, Field(min_length=1, max_length=1000)]
MAX_FILES = 1000
MAX_LOOKUP_MATCHES = 20
MAX_SESSION_COMMITS_PAGE = 100


# --- inputs --------------------------------------------------------------------------------------
class RecordCommitRequest(StrictModel):
    project: Name = Field(description="Project.")
    sha: FullSha = Field(description="Full hash.")
    message: CommitMessage = Field(description="Message.")
    author: Author | None = Field(default=None, description="Author.")
    committed_at: AwareDatetime | None = Field(default=None, description="Needs an offset.")
    branch: Name | None = Field(default=None, description="Branch.")
    files: list[FilePath] = Field(
        default_factory=list, max_length=MAX_FILES, description="Changed paths."
    )
    session_id: Name | None = Field(default=None, description="Session to link.")
    actor: Audit = None
    client: Audit = None


class LookupCommitRequest(StrictModel):
    sha: ShaQuery = Field(description="Full or abbreviated hash.")
    project: Name | None = Field(default=None, description="Only this project.")


class CommitsForSessionRequest(StrictModel):
    session_id: Name = Field(description="Session.")
    project: Name | None = Field(default=None, description="Only this project.")
    limit: int = Field(default=20, ge=1, le=MAX_SESSION_COMMITS_PAGE, description="Page size.")
    offset: int = Field(default=0, ge=0, le=100_000, description="Page start.")


# --- outputs -------------------------------------------------------------------------------------
class GitMetadata(OutputModel):
    """What git says about the commit, as it was recorded (the message after the gate)."""

    project: str
    sha: str
    short_sha: str = Field(description="The first 7 hex digits.")
    message: str | None = Field(
        description="Secrets redacted; null while the message is quarantined."
    )
    message_quarantined: bool
    quarantine_reasons: list[str]
    author: str | None
    committed_at: datetime | None
    branch: str | None
    files: list[str]
    recorded_at: datetime


class SessionLink(OutputModel):
    """Memory-derived: a link someone recorded explicitly; never inferred."""

    session_id: str
    source: Literal["record_commit"] = Field(description="The tool that recorded the link.")
    linked_at: datetime
    revision: int = Field(description="The history revision that recorded the link.")


class CommitWithLinks(OutputModel):
    git: GitMetadata
    sessions: list[SessionLink] = Field(description="Recorded links, newest first.")


class RecordCommitResult(OutputModel):
    compact_answer = compact("created", "linked", "redactions", "revision", sha="commit.git.sha")
    commit: CommitWithLinks
    created: bool = Field(description="false: the commit was already recorded identically.")
    linked: bool = Field(description="true when this call recorded a new session link.")
    redactions: list[str] = Field(description="Kinds of secrets removed from the message.")
    revision: int | None = Field(description="null when nothing was written.")


class LookupCommitResult(OutputModel):
    query: str
    match: Literal["exact", "prefix"]
    ambiguous: bool = Field(description="true when a short hash matched several commits.")
    commits: list[CommitWithLinks] = Field(description="Exact match first, then newest.")
    count: int
    truncated: bool


class SessionCommit(OutputModel):
    git: GitMetadata
    link: SessionLink


class CommitsForSessionResult(OutputModel):
    session_id: str
    commits: list[SessionCommit] = Field(description="Newest commit first.")
    count: int
    limit: int
    offset: int
    has_more: bool
    next_offset: int | None

"""Query rows to models: the commits area's mappers from nodes as Cypher returns them, and the
shapes of the rows of its statements (cypher/commits/)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, NotRequired, TypedDict

from graphmem.commits.models import CommitWithLinks, GitMetadata, SessionLink
from graphmem.core.models import from_node


class CommitNode(TypedDict):
    """A ``:Commit`` node's properties as commits/create_commit wrote them. Neo4j keeps no
    nulls: a property set to null is absent."""

    tenant: str
    project: str
    sha: str  # full, lower-case
    short_sha: str
    message: str  # after the gate (secrets redacted)
    message_quarantined: bool
    quarantine_reasons: list[str]
    redactions: list[str]
    author: NotRequired[str]
    committed_at: NotRequired[datetime]
    branch: NotRequired[str]
    files: list[str]
    recorded_at: datetime


class SessionLinkRow(TypedDict):
    """An IN_SESSION link as the statements project it (commits/link_commit_session sets it)."""

    session_id: str
    source: Literal["record_commit"]
    linked_at: datetime
    revision: int


class CommitRow(TypedDict):
    """commits/find_commit, find_commits_by_sha and link_commit_session: a commit and its
    session links."""

    commit: CommitNode
    sessions: list[SessionLinkRow]


class CreatedCommitRow(TypedDict):
    """commits/create_commit."""

    commit: CommitNode


class SessionCommitRow(TypedDict):
    """commits/list_session_commits: a commit and its link to the session."""

    commit: CommitNode
    link: SessionLinkRow


def git_from_node(node: CommitNode) -> GitMetadata:
    quarantined = bool(node.get("message_quarantined"))
    return from_node(
        GitMetadata,
        node,
        message=None if quarantined else node["message"],
        message_quarantined=quarantined,
    )


def session_links_from_rows(rows: list[SessionLinkRow]) -> list[SessionLink]:
    links = [SessionLink(**row) for row in rows]
    return sorted(links, key=lambda link: (-link.linked_at.timestamp(), link.session_id))


def commit_from_row(row: CommitRow) -> CommitWithLinks:
    return CommitWithLinks(
        git=git_from_node(row["commit"]), sessions=session_links_from_rows(row["sessions"])
    )

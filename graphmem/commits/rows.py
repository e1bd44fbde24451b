"""Query rows to models: the commits area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

from typing import Any

from graphmem.commits.models import CommitWithLinks, GitMetadata, SessionLink
from graphmem.core.models import from_node


def git_from_node(node: dict[str, Any]) -> GitMetadata:
    quarantined = bool(node.get("message_quarantined"))
    return from_node(
        GitMetadata,
        node,
        message=None if quarantined else node["message"],
        message_quarantined=quarantined,
    )


def session_links_from_rows(rows: list[dict[str, Any]]) -> list[SessionLink]:
    links = [SessionLink(**row) for row in rows]
    return sorted(links, key=lambda link: (-link.linked_at.timestamp(), link.session_id))


def commit_from_row(row: dict[str, Any]) -> CommitWithLinks:
    return CommitWithLinks(
        git=git_from_node(row["commit"]), sessions=session_links_from_rows(row["sessions"])
    )

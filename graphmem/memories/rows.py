"""Query rows to models: the memories area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

from typing import Any

from graphmem.memories.models.memories import (
    MemoryRecord,
    TopicVersion,
)


def memory_from_node(node: dict[str, Any]) -> MemoryRecord:
    return MemoryRecord(
        id=node["id"],
        project=node["project"],
        type=node["type"],
        title=node["title"],
        content=node["content"],
        topic_key=node.get("topic_key"),
        topic_version=node.get("topic_version") or 1,
        branch=node.get("branch"),
        tags=list(node.get("tags") or []),
        files=list(node.get("files") or []),
        status=node["status"],
        version=node["version"],
        created_at=node["created_at"],
        updated_at=node["updated_at"],
        active_from=node.get("active_from"),
        retired_at=node.get("retired_at"),
        superseded_by=node.get("superseded_by"),
        status_reason=node.get("status_reason"),
        session_id=node.get("session_id"),
        quarantine_reasons=list(node.get("quarantine_reasons") or []),
        redactions=list(node.get("redactions") or []),
        access_count=node.get("access_count") or 0,
        last_accessed_at=node.get("last_accessed_at"),
    )


def topic_version_from_node(node: dict[str, Any]) -> TopicVersion:
    return TopicVersion(
        id=node["id"],
        topic_version=node["topic_version"],
        title=node["title"],
        status=node["status"],
        created_at=node["created_at"],
        active_from=node.get("active_from"),
        retired_at=node.get("retired_at"),
        superseded_by=node.get("superseded_by"),
    )

"""Query rows to models: the archive area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

from typing import Any

from graphmem.archive.models import (
    RawSession,
)


def session_from_node(node: dict[str, Any]) -> RawSession:
    return RawSession(
        id=node["id"],
        project=node["project"],
        session_ref=node["session_ref"],
        host=node["host"],
        source_root=node["source_root"],
        first_ts=node.get("first_ts"),
        last_ts=node.get("last_ts"),
        message_count=node["message_count"],
        content_hash=node["content_hash"],
    )

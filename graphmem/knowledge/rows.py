"""Query rows to models: the knowledge area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

from typing import Any

from graphmem.knowledge.models.chunks import Chunk


def chunk_from_node(node: dict[str, Any]) -> Chunk:
    return Chunk(
        id=node["id"],
        project=node["project"],
        title=node.get("title"),
        body=node["body"],
        origin=node.get("origin"),
        session_id=node.get("session_id"),
        workstream_id=node.get("workstream_id"),
        source_hash=node["source_hash"],
        state=node["state"],
        quarantined=node.get("quarantined", False),
        materiality=node.get("materiality"),
        uncertainty=node.get("uncertainty"),
        signals=node.get("signals") or [],
        created_at=node["created_at"],
        updated_at=node["updated_at"],
    )

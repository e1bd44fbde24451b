"""Query rows to models: the memories area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

from typing import Any

from graphmem.core.models import from_node
from graphmem.memories.models.memories import MemoryRecord, TopicVersion


def memory_from_node(node: dict[str, Any]) -> MemoryRecord:
    return from_node(
        MemoryRecord,
        node,
        topic_version=node.get("topic_version") or 1,
        access_count=node.get("access_count") or 0,
    )


def topic_version_from_node(node: dict[str, Any]) -> TopicVersion:
    return from_node(TopicVersion, node)

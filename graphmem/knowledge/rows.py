"""Query rows to models: the knowledge area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

from typing import Any

from graphmem.core.models import from_node
from graphmem.knowledge.models.chunks import Chunk


def chunk_from_node(node: dict[str, Any]) -> Chunk:
    return from_node(Chunk, node, quarantined=node.get("quarantined", False))

"""Query rows to models: the workstreams area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

from typing import Any

from graphmem.core.models import from_node
from graphmem.workstreams.models import Workstream


def workstream_from_node(node: dict[str, Any]) -> Workstream:
    return from_node(
        Workstream,
        node,
        title=node.get("title") or node["id"],
        status=node.get("status") or "active",
    )

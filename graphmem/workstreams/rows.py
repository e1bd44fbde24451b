"""Query rows to models: the workstreams area's mappers from nodes as Cypher returns them."""

from __future__ import annotations

from typing import Any

from graphmem.workstreams.models import Workstream


def workstream_from_node(node: dict[str, Any]) -> Workstream:
    return Workstream(
        id=node["id"],
        project=node.get("project"),
        title=node.get("title") or node["id"],
        status=node.get("status") or "active",
        progress=node.get("progress"),
        next_action=node.get("next_action"),
        blockers=list(node.get("blockers") or []),
        created_at=node.get("created_at"),
        updated_at=node.get("updated_at"),
        completed_at=node.get("completed_at"),
    )

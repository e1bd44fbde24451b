"""Query rows to models: the workstreams area's mappers from nodes as Cypher returns them, and
the shapes of the rows of its statements (cypher/workstreams/)."""

from __future__ import annotations

from datetime import datetime
from typing import NotRequired, TypedDict

from graphmem.core.models import from_node
from graphmem.workstreams.models import Workstream


class WorkstreamNode(TypedDict):
    """A ``:Workstream`` node's properties, as workstreams/create_workstream wrote them and
    update_workstream_fields changed them. Neo4j keeps no nulls: a property never set, or set
    to null, is absent; a workstream made outside the tools may lack any but its id (the
    model's title and status then fall back)."""

    tenant: str
    id: str
    project: NotRequired[str]
    title: NotRequired[str]
    status: NotRequired[str]  # a WorkstreamStatus when the tools wrote it
    next_action: NotRequired[str]
    blockers: NotRequired[list[str]]
    progress: NotRequired[int]
    created_at: NotRequired[datetime]
    updated_at: NotRequired[datetime]
    completed_at: NotRequired[datetime]  # while completed


class WorkstreamRow(TypedDict):
    """workstreams/create_workstream, find_workstream, list_workstreams and
    update_workstream_fields: one workstream."""

    workstream: WorkstreamNode


def workstream_from_node(node: WorkstreamNode) -> Workstream:
    return from_node(
        Workstream,
        node,
        title=node.get("title") or node["id"],
        status=node.get("status") or "active",
    )

"""Query rows to models: the memories area's mappers from nodes as Cypher returns them, and
the shapes of the rows of its statements (cypher/memories/)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Literal, NotRequired, TypedDict

from graphmem.core.models import from_node
from graphmem.memories.models.memories import MemoryRecord, MemoryStatus, MemoryType, TopicVersion


class MemoryNode(TypedDict):
    """A ``:Memory`` node's properties, as memories/create_memory (or create_memory_at_head)
    wrote them and later statements changed them (set_memory_status, supersede_memory,
    record_memory_access, retrieval's search fields). Neo4j keeps no nulls: a property never
    set, or set to null, is absent."""

    tenant: str
    id: str
    project: str
    type: MemoryType
    title: str
    content: str
    topic_key: NotRequired[str]
    topic_version: int
    branch: NotRequired[str]
    tags: list[str]
    files: list[str]
    status: MemoryStatus
    version: int
    created_at: datetime
    updated_at: datetime
    active_from: NotRequired[datetime]  # set when it becomes active
    retired_at: NotRequired[datetime]  # set when it stops being active
    superseded_by: NotRequired[str]
    status_reason: NotRequired[str]
    session_id: NotRequired[str]
    quarantine_reasons: list[str]
    redactions: list[str]
    about: NotRequired[list[str]]  # the names the writer gave; absent on older memories
    access_count: int
    last_accessed_at: NotRequired[datetime]
    revision: int
    lexical: NotRequired[str]  # search fields, written behind the save
    embedding: NotRequired[list[float]]
    embedding_model: NotRequired[str]


class MemoryRow(TypedDict):
    """memories/create_memory, create_memory_at_head, get_memories, record_memory_access,
    set_memory_status and supersede_memory: one memory."""

    memory: MemoryNode


class TopicHeadRow(TypedDict):
    """memories/find_topic_head: the topic's newest version number (0 for a new topic) and its
    active version."""

    latest_version: int
    active: MemoryNode | None


class TopicVersionsRow(TypedDict):
    """memories/get_topic_versions (current_state's memories side): a project's versions of
    the topic, newest first."""

    project: str
    versions: list[MemoryNode]


class MemoryFields(TypedDict):
    """A new memory version's stored fields as the gate left them (rules.memory_fields): the
    parameters of memories/create_memory and create_memory_at_head beside id, topic_version
    and revision."""

    project: str
    type: MemoryType
    title: str
    content: str
    topic_key: str | None
    branch: str | None
    tags: list[str]
    files: list[str]
    status: Literal["active", "quarantined"]
    session_id: str | None
    quarantine_reasons: list[str]
    redactions: list[str]
    about: list[str]  # the names the writer gave (graphmem/subjects/reading.py reads them)


# A node is handed to its model, which validates it: any node's properties will do.
def memory_from_node(node: Mapping[str, object]) -> MemoryRecord:
    return from_node(
        MemoryRecord,
        node,
        topic_version=node.get("topic_version") or 1,
        access_count=node.get("access_count") or 0,
    )


def topic_version_from_node(node: Mapping[str, object]) -> TopicVersion:
    return from_node(TopicVersion, node)

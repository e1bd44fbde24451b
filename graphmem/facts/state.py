"""current_state across facts and memories: one state key, resolved on both sides.

Rules:
- The facts side is graphmem/facts/fact_state.py's resolution (the governed truth). The
  memories side resolves the topic whose topic_key equals the state key: ``current`` when a
  version is active, ``no_current`` when the topic exists but no version is (all stale,
  quarantined, rejected or deleted), ``ambiguous`` when several projects hold an active
  version and no project was given, ``not_found`` when no version exists.
- With ``known_at`` (or else ``as_of``: memories have no valid time of their own) the active
  version is the one whose [active_from, retired_at) holds that instant; versions created
  later are not seen.
- Quarantined versions are never current: a quarantined version has no active_from until
  govern_memory releases it.
- The overall status is the facts side's, unless the key names no fact: then it is the
  memories side's, so a topic kept only as memories resolves like a fact key would.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from graphmem.facts import fact_state as facts
from graphmem.facts.models import CurrentState, CurrentStateRequest
from graphmem.memories.models.memories import MemoryTopicState
from graphmem.memories.rows import (
    MemoryNode,
    TopicVersionsRow,
    memory_from_node,
    topic_version_from_node,
)
from graphmem.store import TenantStore, shaped

MAX_VERSIONS = 50
MAX_PROJECTS = 20


async def current_state(db: TenantStore, request: CurrentStateRequest) -> CurrentState:
    if request.origin_id is not None:
        return await facts.current_state(db, request)  # memories belong to projects
    # Two independent reads: one round trip's wait.
    fact_side, topic = await asyncio.gather(
        facts.current_state(db, request), resolve_topic(db, request)
    )
    update: dict[str, object] = {"memory": topic}
    if fact_side.status == "not_found" and topic.status != "not_found":
        update.update(status=topic.status, project=topic.project, candidates=topic.candidates)
    return fact_side.model_copy(update=update)


async def resolve_topic(db: TenantStore, request: CurrentStateRequest) -> MemoryTopicState:
    rows = await db.read(
        "memories/get_topic_versions",
        key=request.state_key,
        project=request.project,
        limit=MAX_VERSIONS,
        project_limit=MAX_PROJECTS,
    )
    at = request.known_at or request.as_of
    slots = [
        (row["project"], _known(row["versions"], at)) for row in shaped(TopicVersionsRow, rows)
    ]
    slots = [(project, versions) for project, versions in slots if versions]
    if not slots:
        return MemoryTopicState(status="not_found", project=None, current=None, history=[])
    holding = [(p, v) for p, v in slots if _active(v, at) is not None]
    if request.project is None and len(holding) > 1:
        return MemoryTopicState(
            status="ambiguous",
            project=None,
            current=None,
            history=[],
            candidates=[project for project, _ in holding],
        )
    project, versions = (holding or slots)[0]
    current = _active(versions, at)
    return MemoryTopicState(
        status="current" if current is not None else "no_current",
        project=project,
        current=memory_from_node(current) if current is not None else None,
        history=[
            topic_version_from_node(v)
            for v in versions
            if current is None or v["id"] != current["id"]
        ],
    )


def _known(versions: list[MemoryNode], at: datetime | None) -> list[MemoryNode]:
    """The versions that existed at ``at`` (all when no instant is given)."""
    if at is None:
        return versions
    return [v for v in versions if v["created_at"] <= at]


def _active(versions: list[MemoryNode], at: datetime | None) -> MemoryNode | None:
    if at is None:
        return next((v for v in versions if v["status"] == "active"), None)
    moment = at.astimezone(UTC)
    for version in versions:
        start, end = version.get("active_from"), version.get("retired_at")
        if start is not None and start <= moment and (end is None or end > moment):
            return version
    return None

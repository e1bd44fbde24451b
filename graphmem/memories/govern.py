"""govern_memory: a memory's status moved by its owner, after a dry run.

Rules of govern_memory (never touches the raw archive):
- Actions: ``stale`` (active or quarantined → stale), ``reject`` (any but deleted →
  rejected), ``delete`` (any → deleted; soft: kept for audit, never shown again by search,
  bundles or recall), ``release`` (quarantined → active; it supersedes the topic's active
  version when it is newer, else it is stale at once, superseded by the newer one).
- ``dry_run`` (the default) reports each memory's current version and the status it would
  get, writing nothing. A real run needs confirm_destructive=true, a reason and
  expected_versions naming every id; if any memory's version differs (someone changed it
  since the dry run) nothing is changed and the call is a conflict naming the ids.
- A transition the status does not allow is invalid_state; unknown ids are not_found. Either
  way nothing is changed. One transaction, one history event per memory.
"""

from __future__ import annotations

from graphmem.core.errors import Conflict
from graphmem.history.chain import Audit, Change
from graphmem.history.write_path import Write, write
from graphmem.memories.models.memories import (
    GovernedMemory,
    GovernMemoryRequest,
    GovernMemoryResult,
    MemoryStatus,
)
from graphmem.memories.rows import MemoryNode, MemoryRow
from graphmem.memories.rules import GOVERN_MOVES, governable, touched
from graphmem.memories.service import supersede, topic_head
from graphmem.store import TenantStore, shaped


async def govern_memory(db: TenantStore, request: GovernMemoryRequest) -> GovernMemoryResult:
    ids = list(dict.fromkeys(request.ids))
    _, target = GOVERN_MOVES[request.action]
    if request.dry_run:  # a read: no lock, nothing written
        rows = shaped(MemoryRow, await db.read("memories/get_memories", ids=ids))
        found = governable(ids, rows, request.action)
        return _governed(request, [_preview(found[i], target) for i in ids], None)

    async def work(w: Write) -> GovernMemoryResult:
        rows = shaped(MemoryRow, await w.run("memories/get_memories", ids=ids))
        found = governable(ids, rows, request.action)
        expected = request.expected_versions or {}
        changed = [i for i in ids if found[i]["version"] != expected[i]]
        if changed:
            raise Conflict(
                "memories changed since they were read (version differs): "
                + ", ".join(
                    f"{i} is v{found[i]['version']}, expected v{expected[i]}" for i in changed
                )
            )
        affected = [await _apply(w, request, found[i], target) for i in ids]
        return _governed(request, affected, w.last_revision)

    return await write(db, "govern_memory", work, audit=Audit.of(request))


def _preview(memory: MemoryNode, target: MemoryStatus) -> GovernedMemory:
    return GovernedMemory(
        id=memory["id"],
        title=memory["title"],
        topic_key=memory.get("topic_key"),
        version=memory["version"],
        new_version=None,
        previous_status=memory["status"],
        new_status=target,
    )


def _governed(
    request: GovernMemoryRequest, affected: list[GovernedMemory], revision: int | None
) -> GovernMemoryResult:
    return GovernMemoryResult(
        dry_run=request.dry_run,
        action=request.action,
        reason=request.reason,
        affected=affected,
        revision=revision,
    )


async def _apply(
    w: Write, request: GovernMemoryRequest, memory: MemoryNode, target: MemoryStatus
) -> GovernedMemory:
    status, superseded_id = target, None
    topic_key = memory.get("topic_key")
    if request.action == "release" and topic_key is not None:
        status, superseded_id = await _release(w, memory, topic_key, target)
    [row] = shaped(
        MemoryRow,
        await w.run(
            "memories/set_memory_status",
            id=memory["id"],
            expected_version=memory["version"],
            status=status,
            reason=request.reason,
            revision=w.next_revision,
            reread=request.action == "release" and memory["status"] == "quarantined",
        ),
    )
    if superseded_id is not None:
        await supersede(w, memory["id"], superseded_id)
    if memory["status"] == "quarantined":
        await w.run(
            "memories/resolve_quarantine_issue",
            memory_id=memory["id"],
            resolution=f"governed: {request.action}",
        )
    await w.event(_govern_change(request, memory, status, superseded_id))
    new = row["memory"]
    return GovernedMemory(
        id=new["id"],
        title=new["title"],
        topic_key=new.get("topic_key"),
        version=memory["version"],
        new_version=new["version"],
        previous_status=memory["status"],
        new_status=new["status"],
        superseded_id=superseded_id,
    )


async def _release(
    w: Write, memory: MemoryNode, topic_key: str, target: MemoryStatus
) -> tuple[MemoryStatus, str | None]:
    """The status a released topic version gets and the version it supersedes: ``target``,
    superseding the topic's active version if any, or stale when that version is newer."""
    _, active = await topic_head(w, memory["project"], topic_key)
    if active is None:
        return target, None
    if active["topic_version"] > memory["topic_version"]:
        return "stale", None  # a newer version already holds the topic
    return target, active["id"]


def _govern_change(
    request: GovernMemoryRequest, memory: MemoryNode, status: str, superseded_id: str | None
) -> Change:
    return Change(
        "govern_memory",
        "memory",
        memory["id"],
        touched(memory["id"], superseded_id),
        {
            "action": request.action,
            "previous_status": memory["status"],
            "new_status": status,
            "reason": request.reason,
            "superseded_id": superseded_id,
        },
    )

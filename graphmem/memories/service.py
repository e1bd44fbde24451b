"""Curated memories: save (with topic versions), fetch by id, govern.

Graph: ``(:Memory {tenant, id, project, type, title, content, topic_key, topic_version,
branch, tags, files, status, version, created_at, updated_at, active_from, retired_at,
superseded_by, status_reason, session_id, quarantine_reasons, redactions, access_count,
last_accessed_at, lexical, embedding})``, ``(new)-[:SUPERSEDES]->(old)`` between versions of a
topic, ``(memory)-[:IN_SESSION]->(:Session)`` when saved in one of the caller's archived
sessions.

Rules of save_memory:
- Title and content pass the poisoning gate (graphmem/core/gate.py): secrets are replaced by
  ``[REDACTED:<kind>]`` and reported; instruction-like text is stored with status
  ``quarantined``: kept, out of search results (unless asked), bundles, recall and current
  state, listed at once as an open ``quarantined_memory`` issue (list_memory_issues), released
  or rejected only by govern_memory (which resolves the issue with the action taken).
- ``topic_key`` makes versions: the same project and topic_key make version n+1. When the new
  version is active it supersedes the topic's active version, which becomes ``stale`` (kept,
  ``SUPERSEDES`` edge, ``superseded_by``, ``retired_at``). A quarantined new version displaces
  nothing until it is released. When the topic's active version already holds the same type,
  title, content (whitespace and case aside), branch, tags and files, nothing is written
  (``unchanged``), so a retry is harmless.
- Without a topic_key every save is a new memory.
- One transaction: the memory, the supersession, one history event (aggregate "memory").
- Markdown backup: when GRAPHMEM_MEMORY_BACKUP_DIR is set (and ``backup`` is not false), the
  saved version is written to ``<dir>/<tenant digest>/<project>/<topic or id>/v<n>-<id>.md``
  after the commit (a failed transaction leaves no file; a failed file write is reported and
  does not undo the memory). Content is written as stored: secrets are already redacted.

Rules of get_observations: ids of the caller's memories (or raw turns with source "raw"); any
id that is missing, or another tenant's, makes the call not_found naming those ids. Returned
memories count an access (access_count, last_accessed_at): usage metadata, not history.

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

import json
import logging
import re
from collections.abc import Container
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphmem.core.errors import Conflict, InvalidState, NotFound, first_row
from graphmem.core.gate import screen
from graphmem.core.ids import new_id
from graphmem.core.models import pick
from graphmem.core.text import tenant_prefix
from graphmem.embeddings.embedder import Embedder
from graphmem.history.chain import Audit, Change
from graphmem.history.write_path import Write, bookkeeping, write, write_at_head
from graphmem.memories.models.memories import (
    PREVIEW_CHARS,
    BackupResult,
    GetObservationsRequest,
    GetObservationsResult,
    GovernedMemory,
    GovernMemoryRequest,
    GovernMemoryResult,
    MemoryRecord,
    NextStep,
    RawTurnDetail,
    SaveMemoryRequest,
    SaveMemoryResult,
    SaveRedaction,
)
from graphmem.memories.rows import memory_from_node
from graphmem.retrieval.indexing import Pending, indexer_of
from graphmem.store import TenantStore

# Allowed moves of govern_memory: action -> statuses it may start from, and where it leads.
GOVERN_MOVES: dict[str, tuple[frozenset[str], str]] = {
    "stale": (frozenset({"active", "quarantined"}), "stale"),
    "reject": (frozenset({"active", "stale", "quarantined", "rejected"}), "rejected"),
    "delete": (frozenset({"active", "stale", "quarantined", "rejected", "deleted"}), "deleted"),
    "release": (frozenset({"quarantined"}), "active"),
}


def preview(content: str, size: int = PREVIEW_CHARS) -> str:
    return content if len(content) <= size else content[: size - 1].rstrip() + "…"


def _normalised(text: str) -> str:
    return " ".join(text.split()).casefold()


def _same_content(active: dict[str, Any], new: dict[str, Any]) -> bool:
    return (
        active["type"] == new["type"]
        and _normalised(active["title"]) == _normalised(new["title"])
        and _normalised(active["content"]) == _normalised(new["content"])
        and active.get("branch") == new["branch"]
        and sorted(active.get("tags") or []) == sorted(new["tags"])
        and sorted(active.get("files") or []) == sorted(new["files"])
    )


@dataclass(frozen=True)
class _Screened:
    title: str
    content: str
    redactions: list[SaveRedaction]
    quarantine_reasons: list[str]


def _screen(request: SaveMemoryRequest) -> _Screened:
    title, content = screen(request.title), screen(request.content)
    redactions = [
        *(
            SaveRedaction(field="title", kind=r.kind, start=r.start, end=r.end)
            for r in title.redactions
        ),
        *(
            SaveRedaction(field="content", kind=r.kind, start=r.start, end=r.end)
            for r in content.redactions
        ),
    ]
    reasons = list(dict.fromkeys(title.quarantine_reasons + content.quarantine_reasons))
    return _Screened(title.text, content.text, redactions, reasons)


async def save_memory(
    db: TenantStore,
    request: SaveMemoryRequest,
    embedder: Embedder | None = None,
    backup_dir: Path | None = None,
) -> SaveMemoryResult:
    screened = _screen(request)
    fields = _memory_fields(request, screened)
    memory_id = new_id()

    async def work(w: Write) -> SaveMemoryResult:
        latest, active = 0, None
        if request.topic_key is not None:
            latest, active = await _topic_head(w, request.project, request.topic_key)
        if active is not None and _same_content(active, fields):
            return _result(memory_from_node(active), "unchanged", None, screened, None)
        [row] = await w.run(
            "memories/create_memory",
            id=memory_id,
            topic_version=latest + 1,
            revision=w.next_revision,
            **fields,
        )
        if fields["status"] == "quarantined":
            await _open_quarantine_issue(w, request, memory_id, screened)
        superseded_id = None
        if active is not None and fields["status"] == "active":
            superseded_id = active["id"]
            await _supersede(w, memory_id, superseded_id)
        change = _save_change(request, memory_id, latest + 1, fields, superseded_id)
        committed = await w.event(change)
        operation = "new_version" if latest > 0 else "created"
        return _result(
            memory_from_node(row["memory"]), operation, superseded_id, screened, committed
        )

    result = await _save_at_head(db, request, memory_id, fields, screened)
    if result is None:
        result = await write(db, "save_memory", work, audit=Audit.of(request))
    if result.revision is None:
        return result
    pending = Pending.of(db.tenant, {**fields, "id": memory_id})
    indexer_of(db.store).submit(db.tenant, pending, embedder)
    backup = write_backup(backup_dir, db.tenant, result.memory) if request.backup else None
    return result.model_copy(update={"backup": backup or BackupResult(status="skipped")})


async def _save_at_head(
    db: TenantStore,
    request: SaveMemoryRequest,
    memory_id: str,
    fields: dict[str, Any],
    screened: _Screened,
) -> SaveMemoryResult | None:
    """The common save in one statement: a new memory, no topic to read first and no
    quarantine issue to open. None when it was not written (run the full write)."""
    if request.topic_key is not None or fields["status"] != "active":
        return None
    change = _save_change(request, memory_id, 1, fields, None)
    row = await write_at_head(
        db,
        "save_memory",
        "memories/create_memory_at_head",
        change,
        audit=Audit.of(request),
        id=memory_id,
        topic_version=1,
        **fields,
    )
    if row is None:
        return None
    revision = row["memory"]["revision"]
    return _result(memory_from_node(row["memory"]), "created", None, screened, revision)


def _memory_fields(request: SaveMemoryRequest, screened: _Screened) -> dict[str, Any]:
    """The new version's stored fields, as the gate left them (search fields follow)."""
    fields: dict[str, Any] = {
        "project": request.project,
        "type": request.type,
        "title": screened.title,
        "content": screened.content,
        "topic_key": request.topic_key,
        "branch": request.branch,
        "tags": list(dict.fromkeys(request.tags)),
        "files": list(dict.fromkeys(request.files)),
        "status": "quarantined" if screened.quarantine_reasons else "active",
        "session_id": request.session_id,
        "quarantine_reasons": screened.quarantine_reasons,
        "redactions": [r.kind for r in screened.redactions],
    }
    return fields


async def _topic_head(w: Write, project: str, topic_key: str) -> tuple[int, dict[str, Any] | None]:
    """The topic's latest version number (0 for a new topic) and its active version."""
    [topic] = await w.run("memories/find_topic_head", project=project, topic_key=topic_key)
    return topic["latest_version"], topic["active"]


async def _open_quarantine_issue(
    w: Write, request: SaveMemoryRequest, memory_id: str, screened: _Screened
) -> None:
    await w.run(
        "memories/open_quarantine_issue",
        memory_id=memory_id,
        id=new_id(),
        details_json=json.dumps(
            {
                "reasons": screened.quarantine_reasons,
                "project": request.project,
                "topic_key": request.topic_key,
            }
        ),
    )


async def _supersede(w: Write, memory_id: str, old_id: str) -> None:
    """``memory_id`` supersedes ``old_id`` (stale from now), as of the write's next event."""
    await w.run(
        "memories/supersede_memory", new_id=memory_id, old_id=old_id, revision=w.next_revision
    )


def _touched(memory_id: str, superseded_id: str | None) -> list[str]:
    """The entities a memory's event names: the memory, and the version it superseded."""
    return [memory_id, *([superseded_id] if superseded_id else [])]


def _save_change(
    request: SaveMemoryRequest,
    memory_id: str,
    topic_version: int,
    fields: dict[str, Any],
    superseded_id: str | None,
) -> Change:
    return Change(
        "save_memory",
        "memory",
        memory_id,
        _touched(memory_id, superseded_id),
        {
            "project": request.project,
            "type": request.type,
            "topic_key": request.topic_key,
            "topic_version": topic_version,
            "status": fields["status"],
            "superseded_id": superseded_id,
            "redactions": fields["redactions"],
            "quarantine_reasons": fields["quarantine_reasons"],
        },
    )


def _result(
    memory: MemoryRecord,
    operation: str,
    superseded_id: str | None,
    screened: _Screened,
    revision: int | None,
) -> SaveMemoryResult:
    return SaveMemoryResult(
        memory=memory,
        operation=operation,  # type: ignore[arg-type]
        superseded_id=superseded_id,
        quarantined=memory.status == "quarantined",
        redactions=screened.redactions,
        backup=BackupResult(status="skipped"),
        revision=revision,
        next_step=NextStep(
            tool="get_observations",
            source="memory",
            ids=[memory.id],
            reason="fetch the full memory later by id",
        ),
    )


# --- markdown backup -------------------------------------------------------------------------
log = logging.getLogger("graphmem")
_UNSAFE = re.compile(r"[^a-z0-9._-]+")


def _slug(text: str, limit: int = 60) -> str:
    return _UNSAFE.sub("-", text.lower()).strip("-.")[:limit] or "untitled"


def backup_path(root: Path, tenant: str, memory: MemoryRecord) -> Path:
    """Where a version's backup goes: one folder per tenant digest, project and topic."""
    topic = _slug(memory.topic_key or memory.id)
    name = f"v{memory.topic_version}-{memory.id}.md"
    return root / tenant_prefix(tenant).rstrip("_") / _slug(memory.project) / topic / name


def render_markdown(memory: MemoryRecord) -> str:
    header = {
        "id": memory.id,
        "project": memory.project,
        "type": memory.type,
        "topic_key": memory.topic_key,
        "topic_version": memory.topic_version,
        "status": memory.status,
        "branch": memory.branch,
        "tags": memory.tags,
        "files": memory.files,
        "created_at": memory.created_at.isoformat(),
    }
    lines = ["---", *(f"{key}: {_yaml(value)}" for key, value in header.items()), "---", ""]
    return "\n".join([*lines, f"# {memory.title}", "", memory.content, ""])


def _yaml(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)  # JSON scalars and lists are valid YAML


def write_backup(root: Path | None, tenant: str, memory: MemoryRecord) -> BackupResult:
    if root is None:
        return BackupResult(status="disabled")
    path = backup_path(root, tenant, memory)
    name = path.relative_to(root).as_posix()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(render_markdown(memory), encoding="utf-8")
        temporary.replace(path)  # atomic: a reader never sees half a file
    except OSError as error:
        log.warning("save_memory backup %s: %s", path, error)
        return BackupResult(
            status="failed", file=name, error="the backup file could not be written"
        )
    return BackupResult(status="saved", file=name)


# --- get_observations ------------------------------------------------------------------------
async def read_memory(db: TenantStore, memory_id: str) -> MemoryRecord:
    """One memory version by id, as a pure read (get_observations also counts the access)."""
    rows = await db.read("memories/get_memories", ids=[memory_id])
    return memory_from_node(first_row(rows, "memory", memory_id)["memory"])


async def get_observations(
    db: TenantStore, request: GetObservationsRequest
) -> GetObservationsResult:
    ids = list(dict.fromkeys(request.ids))
    if request.source == "raw":
        rows = await db.read("archive/get_raw_turns", ids=ids)
        turns = {row["id"]: RawTurnDetail.model_validate(row) for row in rows}
        _require_all(ids, turns, "turn")
        return GetObservationsResult(source="raw", details=[turns[i] for i in request.ids])

    rows = await bookkeeping(db, "memories/record_memory_access", ids=ids)
    found = {row["memory"]["id"]: memory_from_node(row["memory"]) for row in rows}
    _require_all(ids, found, "memory")  # the statement counted nothing then
    return GetObservationsResult(source="memory", details=[found[i] for i in request.ids])


def _require_all(ids: list[str], found: Container[str], kind: str) -> None:
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(kind, ", ".join(missing))


# --- govern_memory ---------------------------------------------------------------------------
async def govern_memory(db: TenantStore, request: GovernMemoryRequest) -> GovernMemoryResult:
    ids = list(dict.fromkeys(request.ids))
    _, target = GOVERN_MOVES[request.action]
    if request.dry_run:  # a read: no lock, nothing written
        rows = await db.read("memories/get_memories", ids=ids)
        found = _governable(ids, rows, request.action)
        return _governed(request, [_preview(found[i], target) for i in ids], None)

    async def work(w: Write) -> GovernMemoryResult:
        found = _governable(ids, await w.run("memories/get_memories", ids=ids), request.action)
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


def _governable(
    ids: list[str], rows: list[dict[str, Any]], action: str
) -> dict[str, dict[str, Any]]:
    """The memories by id, each in a status the action applies to."""
    allowed_from, _ = GOVERN_MOVES[action]
    found = {row["memory"]["id"]: row["memory"] for row in rows}
    _require_all(ids, found, "memory")
    for memory_id in ids:
        status = found[memory_id]["status"]
        if status not in allowed_from:
            raise InvalidState(
                "memory", memory_id, status, f"{action} needs {sorted(allowed_from)}"
            )
    return found


def _preview(memory: dict[str, Any], target: str) -> GovernedMemory:
    return GovernedMemory(
        id=memory["id"],
        title=memory["title"],
        topic_key=memory.get("topic_key"),
        version=memory["version"],
        new_version=None,
        previous_status=memory["status"],
        new_status=target,  # type: ignore[arg-type]
    )


def _governed(
    request: GovernMemoryRequest, affected: list[GovernedMemory], revision: int | None
) -> GovernMemoryResult:
    return GovernMemoryResult(
        **pick(request, "dry_run action reason"), affected=affected, revision=revision
    )


async def _apply(
    w: Write, request: GovernMemoryRequest, memory: dict[str, Any], target: str
) -> GovernedMemory:
    status, superseded_id = target, None
    if request.action == "release" and memory.get("topic_key") is not None:
        status, superseded_id = await _release(w, memory, target)
    [row] = await w.run(
        "memories/set_memory_status",
        id=memory["id"],
        expected_version=memory["version"],
        status=status,
        reason=request.reason,
        revision=w.next_revision,
    )
    if superseded_id is not None:
        await _supersede(w, memory["id"], superseded_id)
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


async def _release(w: Write, memory: dict[str, Any], target: str) -> tuple[str, str | None]:
    """The status a released topic version gets and the version it supersedes: ``target``,
    superseding the topic's active version if any, or stale when that version is newer."""
    _, active = await _topic_head(w, memory["project"], memory["topic_key"])
    if active is None:
        return target, None
    if active["topic_version"] > memory["topic_version"]:
        return "stale", None  # a newer version already holds the topic
    return target, active["id"]


def _govern_change(
    request: GovernMemoryRequest, memory: dict[str, Any], status: str, superseded_id: str | None
) -> Change:
    return Change(
        "govern_memory",
        "memory",
        memory["id"],
        _touched(memory["id"], superseded_id),
        {
            "action": request.action,
            "previous_status": memory["status"],
            "new_status": status,
            "reason": request.reason,
            "superseded_id": superseded_id,
        },
    )

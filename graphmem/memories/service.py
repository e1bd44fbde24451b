"""Curated memories: save (with topic versions) and fetch by id; govern_memory is govern.py.

Graph: ``(:Memory {tenant, id, project, type, title, content, topic_key, topic_version,
branch, tags, files, status, version, created_at, updated_at, active_from, retired_at,
superseded_by, status_reason, session_id, quarantine_reasons, redactions, access_count,
last_accessed_at, lexical, embedding})``, ``(new)-[:SUPERSEDES]->(old)`` between versions of a
topic, ``(memory)-[:IN_SESSION]->(:Session)`` when saved in one of the caller's archived
sessions.

Rules of save_memory:
- Title and content pass the poisoning gate (graphmem/screening/gate.py): secrets are replaced by
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

Rules of govern_memory: graphmem/memories/govern.py. The pure rules: graphmem/memories/rules.py;
the Markdown backup: graphmem/memories/backup.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from graphmem.archive.rows import RawTurnRow
from graphmem.core.errors import first_row
from graphmem.core.ids import new_id
from graphmem.history.chain import Audit, Change
from graphmem.history.write_path import Write, bookkeeping, write, write_at_head
from graphmem.memories.backup import write_backup
from graphmem.memories.models.memories import (
    BackupResult,
    GetObservationsRequest,
    GetObservationsResult,
    MemoryRecord,
    NextStep,
    RawTurnDetail,
    SaveMemoryRequest,
    SaveMemoryResult,
)
from graphmem.memories.rows import (
    MemoryFields,
    MemoryNode,
    MemoryRow,
    TopicHeadRow,
    memory_from_node,
)
from graphmem.memories.rules import (
    Screened,
    memory_fields,
    require_all,
    same_content,
    screen_memory,
    touched,
)
from graphmem.retrieval.indexing import Pending, indexer_of
from graphmem.retrieval.rows import MemorySearchFields
from graphmem.store import TenantStore, shaped
from graphmem.subjects.reading import reader_of
from graphmem.toolkit.retrieval import WITHOUT_MODELS, Retrieval


async def save_memory(
    db: TenantStore,
    request: SaveMemoryRequest,
    retrieval: Retrieval = WITHOUT_MODELS,
    backup_dir: Path | None = None,
    read_subjects: bool = True,
) -> SaveMemoryResult:
    screened = screen_memory(request)
    fields = memory_fields(request, screened)
    memory_id = new_id()

    async def work(w: Write) -> SaveMemoryResult:
        latest, active = 0, None
        if request.topic_key is not None:
            latest, active = await topic_head(w, request.project, request.topic_key)
        if active is not None and same_content(active, fields):
            return _result(memory_from_node(active), "unchanged", None, screened, None)
        [row] = shaped(
            MemoryRow,
            await w.run(
                "memories/create_memory",
                id=memory_id,
                topic_version=latest + 1,
                revision=w.next_revision,
                **fields,
            ),
        )
        if fields["status"] == "quarantined":
            await _open_quarantine_issue(w, request, memory_id, screened)
        superseded_id = None
        if active is not None and fields["status"] == "active":
            superseded_id = active["id"]
            await supersede(w, memory_id, superseded_id)
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
    pending = Pending.of(db.tenant, _search_fields(memory_id, fields))
    indexer_of(db.store).submit(db.tenant, pending, retrieval.embedder)
    if read_subjects:  # the subjects it names follow (subjects/reading.py)
        reader_of(db.store).soon(db.tenant)
    backup = write_backup(backup_dir, db.tenant, result.memory) if request.backup else None
    return result.model_copy(update={"backup": backup or BackupResult(status="skipped")})


def _search_fields(memory_id: str, fields: MemoryFields) -> MemorySearchFields:
    """What the saved memory's search fields are made of (written behind the save)."""
    return {
        "id": memory_id,
        "type": fields["type"],
        "title": fields["title"],
        "content": fields["content"],
        "topic_key": fields["topic_key"],
        "tags": fields["tags"],
    }


async def _save_at_head(
    db: TenantStore,
    request: SaveMemoryRequest,
    memory_id: str,
    fields: MemoryFields,
    screened: Screened,
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
        params=lambda _now: {"id": memory_id, "topic_version": 1, **fields},
    )
    if row is None:
        return None
    [written] = shaped(MemoryRow, [row])
    memory = written["memory"]
    return _result(memory_from_node(memory), "created", None, screened, memory["revision"])


async def topic_head(w: Write, project: str, topic_key: str) -> tuple[int, MemoryNode | None]:
    """The topic's latest version number (0 for a new topic) and its active version."""
    [topic] = shaped(
        TopicHeadRow, await w.run("memories/find_topic_head", project=project, topic_key=topic_key)
    )
    return topic["latest_version"], topic["active"]


async def _open_quarantine_issue(
    w: Write, request: SaveMemoryRequest, memory_id: str, screened: Screened
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


async def supersede(w: Write, memory_id: str, old_id: str) -> None:
    """``memory_id`` supersedes ``old_id`` (stale from now), as of the write's next event."""
    await w.run(
        "memories/supersede_memory", new_id=memory_id, old_id=old_id, revision=w.next_revision
    )


def _save_change(
    request: SaveMemoryRequest,
    memory_id: str,
    topic_version: int,
    fields: MemoryFields,
    superseded_id: str | None,
) -> Change:
    return Change(
        "save_memory",
        "memory",
        memory_id,
        touched(memory_id, superseded_id),
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
    operation: Literal["created", "new_version", "unchanged"],
    superseded_id: str | None,
    screened: Screened,
    revision: int | None,
) -> SaveMemoryResult:
    return SaveMemoryResult(
        memory=memory,
        operation=operation,
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


# --- get_observations ------------------------------------------------------------------------
async def read_memory(db: TenantStore, memory_id: str) -> MemoryRecord:
    """One memory version by id, as a pure read (get_observations also counts the access)."""
    rows = shaped(MemoryRow, await db.read("memories/get_memories", ids=[memory_id]))
    return memory_from_node(first_row(rows, "memory", memory_id)["memory"])


async def get_observations(
    db: TenantStore, request: GetObservationsRequest
) -> GetObservationsResult:
    ids = list(dict.fromkeys(request.ids))
    if request.source == "raw":
        raw = shaped(RawTurnRow, await db.read("archive/get_raw_turns", ids=ids))
        turns = {row["id"]: RawTurnDetail.model_validate(row) for row in raw}
        require_all(ids, turns, "turn")
        return GetObservationsResult(source="raw", details=[turns[i] for i in request.ids])

    rows = shaped(MemoryRow, await bookkeeping(db, "memories/record_memory_access", ids=ids))
    found = {row["memory"]["id"]: memory_from_node(row["memory"]) for row in rows}
    require_all(ids, found, "memory")  # the statement counted nothing then
    return GetObservationsResult(source="memory", details=[found[i] for i in request.ids])

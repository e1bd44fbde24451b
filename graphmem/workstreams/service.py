"""Workstreams: a project's high-level threads of work (create, list, update).

Rules:
- A workstream has a server-generated id (uuid7), a project, a title and a status: active
  (the default), paused, completed or abandoned; any status may move to any other. It may
  carry a next action, a bounded list of blockers and a progress: an integer percentage
  0-100 (null when unknown; a number, not free text, so it can be compared and sorted).
- ``workstreams`` lists one project's workstreams (project required), optionally of one
  status, newest update first (ties by id), paginated by limit/offset.
- ``update_workstream`` changes the given fields only (status, next_action, blockers,
  progress; at least one, else invalid_argument). Blockers are replaced as a whole (``[]``
  clears them). When every given value is already set nothing is written (``updated`` false,
  revision null). completed_at is set when the status becomes completed and cleared when it
  leaves completed. An unknown id, or another tenant's, is not_found.
- Every write is one transaction appending one history event (aggregate kind "workstream").
- The knowledge pipeline reads the same nodes (task packs, enrich_context, attempts): the
  properties are id, project, title, status, next_action, blockers, progress, created_at,
  updated_at, completed_at.
"""

from __future__ import annotations

from graphmem.core.errors import first_row
from graphmem.core.ids import new_id
from graphmem.core.models import paged, pick
from graphmem.history.chain import Audit
from graphmem.history.write_path import Write, write
from graphmem.store import TenantStore, shaped
from graphmem.workstreams.models import (
    WORKSTREAM_STATUSES,
    CreateWorkstreamRequest,
    CreateWorkstreamResult,
    ListWorkstreamsRequest,
    ListWorkstreamsResult,
    UpdateWorkstreamRequest,
    UpdateWorkstreamResult,
)
from graphmem.workstreams.rows import WorkstreamNode, WorkstreamRow, workstream_from_node


async def create_workstream(
    db: TenantStore, request: CreateWorkstreamRequest
) -> CreateWorkstreamResult:
    workstream_id = new_id()

    async def work(w: Write) -> CreateWorkstreamResult:
        rows = await w.run(
            "workstreams/create_workstream",
            id=workstream_id,
            **pick(request, "project title status next_action blockers progress"),
        )
        revision = await w.record(
            "workstream",
            workstream_id,
            [workstream_id],
            {"project": request.project, "title": request.title, "status": request.status},
        )
        created = shaped(WorkstreamRow, rows)[0]["workstream"]
        return CreateWorkstreamResult(workstream=workstream_from_node(created), revision=revision)

    return await write(db, "create_workstream", work, audit=Audit.of(request))


async def list_workstreams(
    db: TenantStore, request: ListWorkstreamsRequest
) -> ListWorkstreamsResult:
    rows = await db.read(
        "workstreams/list_workstreams",
        project=request.project,
        statuses=[request.status] if request.status else list(WORKSTREAM_STATUSES),
        offset=request.offset,
        limit=request.limit,
    )
    page, paging = paged(shaped(WorkstreamRow, rows), request.limit, request.offset)
    return ListWorkstreamsResult(
        project=request.project,
        status=request.status,
        workstreams=[workstream_from_node(row["workstream"]) for row in page],
        **paging,
    )


async def update_workstream(
    db: TenantStore, request: UpdateWorkstreamRequest
) -> UpdateWorkstreamResult:
    async def work(w: Write) -> UpdateWorkstreamResult:
        rows = shaped(WorkstreamRow, await w.run("workstreams/find_workstream", id=request.id))
        current = first_row(rows, "workstream", request.id)["workstream"]
        changed = {
            name: value
            for name, value in request.changes().items()
            if _current_value(current, name) != value
        }
        if not changed:
            return UpdateWorkstreamResult(
                id=request.id,
                updated=False,
                changed=[],
                workstream=workstream_from_node(current),
                revision=None,
            )
        updated = await w.run(
            "workstreams/update_workstream_fields",
            id=request.id,
            status=changed.get("status"),
            next_action=changed.get("next_action"),
            blockers=changed.get("blockers"),
            progress=changed.get("progress"),
        )
        revision = await w.record(
            "workstream",
            request.id,
            [request.id],
            {"changed": changed, "previous_status": current.get("status")},
        )
        return UpdateWorkstreamResult(
            id=request.id,
            updated=True,
            changed=sorted(changed),
            workstream=workstream_from_node(shaped(WorkstreamRow, updated)[0]["workstream"]),
            revision=revision,
        )

    return await write(db, "update_workstream", work, audit=Audit.of(request))


def _current_value(node: WorkstreamNode, name: str) -> object:
    if name == "blockers":
        return list(node.get("blockers") or [])
    return node.get(name)

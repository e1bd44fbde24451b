"""MCP tools over workstreams. Thin: validate, call the domain, let the boundary map errors."""

from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList
from graphmem.workstreams import models, service

SPECS = ToolList()


@SPECS.tool("Create a workstream", Effect.ADDS)
async def create_workstream(
    services: Services, request: models.CreateWorkstreamRequest
) -> models.CreateWorkstreamResult:
    """Create a workstream: a project's thread of work with a status, next action, blockers
    and progress.

    Change it with update_workstream. One transaction. Answers with id, status and
    revision; detail=full adds the whole record.
    """
    return await service.create_workstream(services.db(), request)


@SPECS.tool("List a project's workstreams", Effect.READS)
async def workstreams(
    services: Services, request: models.ListWorkstreamsRequest
) -> models.ListWorkstreamsResult:
    """List a project's workstreams, newest update first, optionally of one status.

    Read-only. Each has its id, title, status, progress, next action, blockers and
    timestamps. Paginated (has_more, next_offset). To change one: update_workstream.
    """
    return await service.list_workstreams(services.db(), request)


@SPECS.tool("Change a workstream", Effect.SETS)
async def update_workstream(
    services: Services, request: models.UpdateWorkstreamRequest
) -> models.UpdateWorkstreamResult:
    """Change the given fields of a workstream; omitted ones stay.

    Setting values it already has writes nothing (updated false). Answers with id, updated,
    changed, status and revision; detail=full adds the whole record.
    """
    return await service.update_workstream(services.db(), request)

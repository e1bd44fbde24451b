"""The erase tool (full toolset, admin scope only). Thin: validate, call the domain
(graphmem/erasure/service.py, where the rules are documented), let the boundary map errors."""

from graphmem.erasure import service
from graphmem.erasure.models import EraseRequest, EraseResult
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Erase for good", Effect.CHANGES, admin=True)
async def erase(services: Services, request: EraseRequest) -> EraseResult:
    """Erase content for good (a deletion request, a leaked secret): the selected nodes and
    every copy (derived nodes, search fields, vectors, history payloads), leaving tombstones.

    One selector: ids, project, raw_session_id, topic_key, written_by or written_in_session.
    Dry run first (counts, ids, a sample, a fingerprint); a real run needs
    confirm_destructive, a reason and expected_fingerprint, and refuses if the selection
    changed. The history still verifies. Needs the admin scope.
    """
    db = services.db()
    result = await service.erase(db, request, services.settings.memory_backup_dir)
    if result.erased_something and services.after_erasure is not None:
        await services.after_erasure(db)  # never raises: the erasure stands
    return result

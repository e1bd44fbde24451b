"""MCP tools of curated memories: save, fetch, govern. Thin: validate, call the domain
(graphmem/memories/service.py and govern.py, where the rules are documented), let the boundary
map errors."""

from graphmem.memories import govern, service
from graphmem.memories.models import memories as models
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Save a memory", Effect.ADDS, core=True)
async def save_memory(
    services: Services, request: models.SaveMemoryRequest
) -> models.SaveMemoryResult:
    """Save a curated memory: a decision, fix, discovery or preference.

    Search first; reuse its topic_key: same project and topic_key make a new version, the
    old one stale; identical content writes nothing. Secrets are redacted; instruction-like
    content is quarantined until govern_memory releases it. Raw material:
    add_context_chunk; transcripts: archive_turns. One transaction, one revision. Answers
    with id, version, status, operation, superseded_id, quarantined, redactions and
    revision; detail=full adds the whole record.
    """
    settings = services.settings
    return await service.save_memory(
        services.db(), request, services.retrieval, settings.memory_backup_dir, settings.subjects
    )


@SPECS.tool("Get memory details", Effect.READS_AND_COUNTS)
async def get_observations(
    services: Services, request: models.GetObservationsRequest
) -> models.GetObservationsResult:
    """Fetch whole memories (or raw turns) by id, in the order given.

    Use it after search on the ids you chose. Counts the access. An id missing or not
    yours fails the call (not_found). Answers the full records.
    """
    return await service.get_observations(services.db(), request)


@SPECS.tool("Govern memories", Effect.CHANGES)
async def govern_memory(
    services: Services, request: models.GovernMemoryRequest
) -> models.GovernMemoryResult:
    """Mark curated memories stale, rejected or deleted (soft), or release quarantined ones.

    Dry run first; a real run needs confirm_destructive, a reason and every id's expected
    version; one that moved is a conflict. One transaction. Answers versions and statuses.
    """
    return await govern.govern_memory(services.db(), request)

"""MCP tools of curated memories: save, fetch, govern. Thin: validate, call the domain
(graphmem/memories/service.py, where the rules are documented), let the boundary map errors."""

from graphmem.app.answers import compact
from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.memories import service
from graphmem.memories.models import memories as models


async def save_memory(
    services: Services, request: models.SaveMemoryRequest
) -> models.SaveMemoryResult:
    """Save a curated memory for future sessions.

    Save after an architecture decision (what was chosen, why, what was rejected), a bug
    fix with its root cause (symptom, cause, fix, prevention), an important discovery, or
    a user preference; search first and reuse a topic_key. The same project and
    topic_key makes version n+1 and the previous active version stale (kept, linked by
    SUPERSEDES); when the active version already says exactly this nothing is written
    (operation unchanged). The poisoning gate screens title and content: secrets are
    stored as [REDACTED:<kind>] (redactions says where); instruction-like content is
    stored quarantined: out of search, bundles, recall and current state until
    govern_memory releases it. When GRAPHMEM_MEMORY_BACKUP_DIR is set a markdown copy is
    written after the commit (backup). One transaction, one revision. Use add_context_chunk
    for raw material to mine, archive_turns for transcripts. Errors: invalid_argument.
    """
    return await service.save_memory(
        services.store,
        services.tenant(),
        request,
        services.embedder,
        services.settings.memory_backup_dir,
    )


async def get_observations(
    services: Services, request: models.GetObservationsRequest
) -> models.GetObservationsResult:
    """Fetch the full details of memories (or raw turns) by id, in the order given.

    Use it after search for the ids you selected, not for discovery. Memories count the
    access (access_count, last_accessed_at: usage metadata, no revision). Any id that is
    missing, or not yours, makes the call not_found naming it. Errors: invalid_argument,
    not_found.
    """
    return await service.get_observations(services.store, services.tenant(), request)


async def govern_memory(
    services: Services, request: models.GovernMemoryRequest
) -> models.GovernMemoryResult:
    """Mark curated memories stale, reject or delete them, or release quarantined ones.

    Run with dry_run=true (the default) first: it lists each memory's current version and
    the status it would get. A real run needs dry_run=false, confirm_destructive=true, a
    reason and expected_versions for every id; if any memory changed since (its version
    differs) nothing changes (conflict). Nothing is physically removed (delete is a
    status) and the raw archive is never touched. Releasing a quarantined version makes it
    the topic's current one (the previous becomes stale) unless a newer version exists.
    One transaction, one revision per memory. Errors: invalid_argument, not_found,
    invalid_state (the status does not allow the action), conflict.
    """
    return await service.govern_memory(services.store, services.tenant(), request)


SPECS = [
    ToolSpec(
        handler=save_memory,
        title="Save a memory",
        toolset="core",
        writes=True,
        idempotent=False,  # without a topic_key every save is a new memory
        destructive=False,
        answer=compact(
            "operation",
            "superseded_id",
            "quarantined",
            "redactions",
            "revision",
            id="memory.id",
            version="memory.version",
            status="memory.status",
        ),
    ),
    ToolSpec(
        handler=get_observations,
        title="Get memory details",
        toolset="full",
        writes=False,  # access counters are bookkeeping, not a write of knowledge
        idempotent=False,
        destructive=False,
    ),
    ToolSpec(
        handler=govern_memory,
        title="Govern memories",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=True,
    ),
]

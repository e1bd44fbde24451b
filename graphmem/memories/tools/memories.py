"""MCP tools of curated memories: save, search, fetch, govern. Thin: validate, call the domain
(graphmem/memories/service.py and search.py, where the rules are documented), let the boundary
map errors."""

from typing import Annotated, Literal

from pydantic import Field

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolFunction, ToolSpec
from graphmem.core.models import AuditText, Name
from graphmem.memories import service as memories
from graphmem.memories.models.memories import (
    MAX_CONTENT_CHARS,
    MAX_FILES,
    MAX_IDS,
    MAX_TAGS,
    MAX_TITLE_CHARS,
    FilePath,
    GetObservationsRequest,
    GetObservationsResult,
    GovernAction,
    GovernMemoryRequest,
    GovernMemoryResult,
    MemoryId,
    MemoryType,
    SaveMemoryRequest,
    SaveMemoryResult,
    Tag,
    TopicKey,
)
from graphmem.search import service as search
from graphmem.search.models import (
    MAX_LIMIT,
    MAX_OFFSET,
    MAX_TOKEN_BUDGET,
    Channel,
    Risk,
    Role,
    SearchRequest,
    SearchResult,
    SearchText,
    TaskIntent,
)

Audit = Annotated[AuditText | None, Field(description="Recorded for audit; grants nothing.")]


def make_save_memory(services: Services) -> ToolFunction:
    async def save_memory(
        project: Annotated[Name, Field(description="Project the memory belongs to.")],
        title: Annotated[
            str, Field(min_length=1, max_length=MAX_TITLE_CHARS, description="A short title.")
        ],
        content: Annotated[
            str,
            Field(
                min_length=1,
                max_length=MAX_CONTENT_CHARS,
                description="The memory itself (up to 20,000 characters): for a decision what "
                "was chosen, why and what was rejected; for a bug fix symptom, root cause, fix "
                "and prevention; for a discovery the finding and what it implies.",
            ),
        ],
        type: Annotated[MemoryType, Field(description="Kind of memory (default note).")] = "note",
        topic_key: Annotated[
            TopicKey | None,
            Field(
                description="Stable topic (kebab-case): saving again under the same project "
                "and topic_key makes a new version and the old one stale."
            ),
        ] = None,
        branch: Annotated[Name | None, Field(description="Git branch it applies to.")] = None,
        tags: Annotated[list[Tag], Field(max_length=MAX_TAGS, description="Up to 20 tags.")] = [],  # noqa: B006 - never mutated; FastMCP needs a JSON default
        files: Annotated[
            list[FilePath], Field(max_length=MAX_FILES, description="Files it concerns (50).")
        ] = [],  # noqa: B006
        backup: Annotated[
            bool,
            Field(description="Write the markdown backup when a backup folder is configured."),
        ] = True,
        session_id: Annotated[
            AuditText | None,
            Field(
                description="Session it was saved in: linked when it names one of your "
                "archived sessions (archive_turns' session id), else recorded as given."
            ),
        ] = None,
        actor: Audit = None,
        client: Audit = None,
    ) -> SaveMemoryResult:
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
        request = SaveMemoryRequest(
            project=project,
            type=type,
            title=title,
            content=content,
            topic_key=topic_key,
            branch=branch,
            tags=tags,
            files=files,
            backup=backup,
            session_id=session_id,
            actor=actor,
            client=client,
        )
        return await memories.save_memory(
            services.store,
            services.tenant(),
            request,
            services.embedder,
            services.settings.memory_backup_dir,
        )

    return save_memory


def make_search(services: Services) -> ToolFunction:
    async def search_memories(
        query: Annotated[
            SearchText | None,
            Field(description="What to find (up to 1,000 characters); none lists a project."),
        ] = None,
        project: Annotated[Name | None, Field(description="Only this project.")] = None,
        type: Annotated[MemoryType | None, Field(description="Only this type.")] = None,
        branch: Annotated[
            Name | None, Field(description="Only this branch (and memories without one).")
        ] = None,
        tags: Annotated[
            list[Tag], Field(max_length=10, description="Only memories with any of these tags.")
        ] = [],  # noqa: B006
        include_stale: Annotated[
            bool, Field(description="Also stale memories (older versions, governed stale).")
        ] = False,
        include_quarantined: Annotated[
            bool, Field(description="Also quarantined memories, flagged (never instructions).")
        ] = False,
        limit: Annotated[int, Field(ge=1, le=MAX_LIMIT, description="Results per page.")] = 20,
        offset: Annotated[int, Field(ge=0, le=MAX_OFFSET, description="Results to skip.")] = 0,
        task_intent: Annotated[
            TaskIntent | None, Field(description="Compiles a retrieval plan (needs project).")
        ] = None,
        role: Annotated[Role | None, Field(description="Retrieval plan role (coder).")] = None,
        risk: Annotated[
            Risk | None, Field(description="Retrieval plan risk (medium); high: no raw fallback.")
        ] = None,
        token_budget: Annotated[
            int | None,
            Field(ge=1, le=MAX_TOKEN_BUDGET, description="Retrieval plan budget (4000 tokens)."),
        ] = None,
        include_superseded: Annotated[
            bool | None, Field(description="Retrieval plan: also superseded versions.")
        ] = None,
        explain: Annotated[
            bool, Field(description="Add each hit's channel ranks and contributions.")
        ] = False,
        multi_hop: Annotated[
            bool, Field(description="Second hop over names the best hits mention.")
        ] = False,
        channels: Annotated[
            list[Channel] | None,
            Field(
                min_length=1,
                max_length=3,
                description="Ranking channels to use (default: all available).",
            ),
        ] = None,
        raw_fallback: Annotated[
            bool, Field(description="Rank raw-archive turns when under 3 memories match.")
        ] = True,
    ) -> SearchResult:
        """Search or list curated memories, best first. Read-only.

        With a query: hybrid ranking that fuses the full-text index (BM25), vector
        similarity (when a local embedding model is configured) and graph context
        (memories of the same session or topic; neighbouring turns in the raw archive) by
        reciprocal rank fusion. Without one: the project's memories, newest first. Filters:
        project, type, branch, tags, visibility flags. Any of task_intent, role, risk,
        token_budget, include_superseded compiles a retrieval plan (returned with its hash;
        needs a query and a project). explain and multi_hop need a query and exclude each
        other. When fewer than 3 memories match, raw conversation turns are ranked too
        (raw_hits; a failing fallback keeps the results and sets raw_hits_error). Then call
        get_observations with the ids you select (next_step). Use current_state for one
        stable key, timeline for chronological context, search_raw for a literal phrase.
        Errors: invalid_argument (bad combinations, bounds).
        """
        request = SearchRequest(
            query=query,
            project=project,
            type=type,
            branch=branch,
            tags=tags,
            include_stale=include_stale,
            include_quarantined=include_quarantined,
            limit=limit,
            offset=offset,
            task_intent=task_intent,
            role=role,
            risk=risk,
            token_budget=token_budget,
            include_superseded=include_superseded,
            explain=explain,
            multi_hop=multi_hop,
            channels=channels,
            raw_fallback=raw_fallback,
        )
        return await search.search(services.store, services.tenant(), request, services.embedder)

    return search_memories


def make_get_observations(services: Services) -> ToolFunction:
    async def get_observations(
        ids: Annotated[
            list[MemoryId],
            Field(min_length=1, max_length=MAX_IDS, description="Ids from search (1 to 100)."),
        ],
        source: Annotated[
            Literal["memory", "raw"],
            Field(description="memory (default) or raw (turn ids from search's raw_hits)."),
        ] = "memory",
    ) -> GetObservationsResult:
        """Fetch the full details of memories (or raw turns) by id, in the order given.

        Use it after search for the ids you selected, not for discovery. Memories count the
        access (access_count, last_accessed_at: usage metadata, no revision). Any id that is
        missing, or not yours, makes the call not_found naming it. Errors: invalid_argument,
        not_found.
        """
        request = GetObservationsRequest(ids=ids, source=source)
        return await memories.get_observations(services.store, services.tenant(), request)

    return get_observations


def make_govern_memory(services: Services) -> ToolFunction:
    async def govern_memory(
        ids: Annotated[
            list[MemoryId], Field(min_length=1, max_length=MAX_IDS, description="Memory ids.")
        ],
        action: Annotated[
            GovernAction,
            Field(
                description="stale, reject, delete (soft) or release (a quarantined memory "
                "becomes active)."
            ),
        ],
        dry_run: Annotated[
            bool, Field(description="Preview (default): current versions, no change.")
        ] = True,
        confirm_destructive: Annotated[
            bool, Field(description="Must be true for a real run.")
        ] = False,
        reason: Annotated[
            str | None, Field(max_length=2000, description="Why (required for a real run).")
        ] = None,
        expected_versions: Annotated[
            dict[MemoryId, int] | None,
            Field(
                max_length=MAX_IDS,
                description="{id: version} for every id, as the dry run showed them.",
            ),
        ] = None,
        session_id: Audit = None,
        actor: Audit = None,
        client: Audit = None,
    ) -> GovernMemoryResult:
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
        request = GovernMemoryRequest(
            ids=ids,
            action=action,
            dry_run=dry_run,
            confirm_destructive=confirm_destructive,
            reason=reason,
            expected_versions=expected_versions,
            session_id=session_id,
            actor=actor,
            client=client,
        )
        return await memories.govern_memory(services.store, services.tenant(), request)

    return govern_memory


SPECS = [
    ToolSpec(
        name="save_memory",
        title="Save a memory",
        toolset="core",
        writes=True,
        idempotent=False,  # without a topic_key every save is a new memory
        destructive=False,
        legacy_make=make_save_memory,
    ),
    ToolSpec(
        name="search",
        title="Search memories",
        toolset="core",
        writes=False,
        idempotent=True,
        destructive=False,
        legacy_make=make_search,
    ),
    ToolSpec(
        name="get_observations",
        title="Get memory details",
        toolset="core",
        writes=True,  # access counters
        idempotent=False,
        destructive=False,
        legacy_make=make_get_observations,
    ),
    ToolSpec(
        name="govern_memory",
        title="Govern memories",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=True,
        legacy_make=make_govern_memory,
    ),
]

"""MCP tools of the search area. Thin: validate, call the domain (graphmem/search/service.py,
where the rules are documented), let the boundary map errors."""

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.search import service
from graphmem.search.models import SearchRequest, SearchResult


async def search(services: Services, request: SearchRequest) -> SearchResult:
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
    return await service.search(services.store, services.tenant(), request, services.embedder)


SPECS = [
    ToolSpec(
        handler=search,
        title="Search memories",
        toolset="core",
        writes=False,
        idempotent=True,
        destructive=False,
    ),
]

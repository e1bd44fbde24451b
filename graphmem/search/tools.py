"""MCP tools of the search area. Thin: validate, call the domain (graphmem/search/service.py,
where the rules are documented), let the boundary map errors."""

from graphmem.search import service
from graphmem.search.models import SearchRequest, SearchResult
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Search memories", Effect.READS, core=True)
async def search(services: Services, request: SearchRequest) -> SearchResult:
    """Search curated memories by hybrid ranking, best first. Read-only.

    Without a query: a project's memories, newest first. Plan fields need a query and a
    project; explain and multi_hop need a query, not both. Under 3 matches adds raw_hits
    (raw turns). Answers hits with previews and pagination; then get_observations on the
    ids you pick. Use search_raw for a literal phrase, current_state for one key.
    """
    return await service.search(services.db(), request, services.retrieval)

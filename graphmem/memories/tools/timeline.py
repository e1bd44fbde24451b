"""MCP tools of chronology: timeline (context around one memory or turn) and timeline_report (a
project's Markdown report). Thin: validate, call the domain (graphmem/memories/timeline.py, where
the rules are documented), let the boundary map errors."""

from typing import Any

from fastmcp.tools import ToolResult

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.memories import timeline as domain
from graphmem.memories.models import timeline as models


async def timeline(services: Services, request: models.TimelineRequest) -> models.TimelineResult:
    """Return what came just before and just after one centre point. Read-only.

    Provide anchor or query; anchor takes precedence when both are set. source memory
    (default): the centre is a curated memory (anchor id, or search's best hit for the
    query) and the neighbours are the memories of its project saved just before and
    after it, by creation time; stale versions are included unless include_stale=false,
    quarantined, rejected and deleted memories never appear. source raw: the centre is
    an archived turn (anchor id, or search_raw's best hit) and the neighbours are the
    turns of the same session said just before and after it (quarantined turns flagged,
    never instructions). depth_before and depth_after default to 5; project limits the
    anchor lookup and so the results. before and after are oldest first; more_before
    and more_after say whether the timeline goes on. Use this for local chronological
    context; use timeline_report for a project report, search for curated memories,
    current_state for a stable fact. Errors: invalid_argument (no anchor and no
    non-blank query, bounds), not_found (unknown anchor, or a query without a match),
    invalid_state (the anchor memory is quarantined, rejected, deleted, or stale with
    include_stale=false).
    """
    return await domain.timeline(services.store, services.tenant(), request, services.embedder)


def _markdown_first(result: models.TimelineReportResult) -> Any:
    """The Markdown as the text an agent reads, the model as the structured content.

    FastMCP passes a ToolResult through; the output schema still comes from the
    annotation, and the structured content is exactly that model.
    """
    return ToolResult(content=result.markdown, structured_content=result.model_dump(mode="json"))


async def timeline_report(
    services: Services, request: models.TimelineReportRequest
) -> models.TimelineReportResult:
    """Generate an aggregated Markdown report of one project. Read-only.

    Sections: overview (first and last activity, span, memories by status, raw-archive
    sessions and turns), activity by type (active and stale memories, with
    percentages; quarantined apart), activity per month (memories saved, turns
    archived, sessions started; the last 6 months with activity) and Token ROI with
    its formula: tokens = ceil(characters / 4); investment = tokens of every saved
    memory version; return = tokens get_observations served back (access_count *
    tokens); ROI = return ÷ investment; compression = raw-archive tokens ÷ tokens of
    active memories (n/a when a denominator is 0). full=true (default false) adds the
    monthly breakdown of every month and the timeline of the 200 newest memories by
    day (titles of quarantined, rejected and deleted ones withheld). The text content
    is the Markdown; the structured content adds stats, the numbers it shows. A project
    without data gives a report saying so. Use this for project-level reporting, not
    observation lookup; use timeline for context around one memory or turn. Errors:
    invalid_argument (missing or blank project).
    """
    report = await domain.timeline_report(services.store, services.tenant(), request)
    return _markdown_first(report)


SPECS = [
    ToolSpec(
        handler=timeline,
        title="Memory timeline",
        toolset="full",
        writes=False,
        idempotent=True,
        destructive=False,
    ),
    ToolSpec(
        handler=timeline_report,
        title="Project timeline report",
        toolset="full",
        writes=False,
        idempotent=True,
        destructive=False,
    ),
]

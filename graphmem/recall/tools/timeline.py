"""MCP tools of chronology: timeline (context around one memory or turn) and timeline_report (a
project's Markdown report). Thin: validate, call the domain (graphmem/recall/timeline.py, where
the rules are documented), let the boundary map errors."""

from graphmem.recall import timeline as domain
from graphmem.recall.models import timeline as models
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Memory timeline", Effect.READS)
async def timeline(services: Services, request: models.TimelineRequest) -> models.TimelineResult:
    """Return what came just before and just after one memory or raw turn. Read-only.

    The centre is anchor (an id; wins over query) or the best hit of query. source memory:
    the neighbours are the memories of its project by creation time, stale ones included
    unless include_stale=false; quarantined, rejected and deleted never appear (such an
    anchor is invalid_state). source raw: the turns of its session, quarantined ones
    flagged (never instructions). Answers anchor, before and after (oldest first),
    more_before and more_after. Use timeline_report for a project report, search to find
    memories, current_state for a stable fact.
    """
    return await domain.timeline(services.db(), request, services.retrieval)


@SPECS.tool("Project timeline report", Effect.READS)
async def timeline_report(
    services: Services, request: models.TimelineReportRequest
) -> models.TimelineReportResult:
    """Generate a Markdown report of one project. Read-only.

    Sections: overview (activity span, memories by status, raw-archive sessions and
    turns), activity by type, the last 6 months with activity, and Token ROI with its
    formula. full=true adds every month and the 200 newest memories by day (titles of
    quarantined, rejected and deleted ones withheld). Answers the Markdown as text, its
    numbers as structured stats. Use timeline for context around one memory or turn.
    """
    return await domain.timeline_report(services.db(), request)

"""MCP tools over impact: record a link, explain a change's downstream impact. Thin."""

from graphmem.impact import models, service
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Record an impact link", Effect.CHANGES)
async def link_impact(
    services: Services, request: models.LinkImpactRequest
) -> models.LinkImpactResult:
    """Record that a chunk, claim or fact affects a fact, a decision or an external
    target, for explain_impact to walk. Relinking the same source, target and type
    updates it. One transaction, one history revision. Answers with edge_id, created and
    revision; detail=full adds the whole record.
    """
    return await service.link_impact(services.db(), request)


@SPECS.tool("Explain a change's downstream impact", Effect.READS, core=True)
async def explain_impact(
    services: Services, request: models.ExplainImpactRequest
) -> models.ExplainImpactResult:
    """Show what a change to a chunk, claim or fact would affect downstream.

    Call it before governing or replacing a fact. Walks link_impact links and the
    implied edges: decisions depending on the fact or its key or watching its key, packs
    including it, claims a chunk evidences, facts a claim was promoted to. Returns each
    affected target once with its best path (highest product of scores), grouped by kind,
    best first; targets no longer valid are skipped. Read-only. At most 500 targets
    (truncated says when cut).
    """
    return await service.explain_impact(services.db(), request)

"""MCP tools over impact: record a link, explain a change's downstream impact. Thin."""

from graphmem.app.answers import compact
from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.impact import models, service


async def link_impact(
    services: Services, request: models.LinkImpactRequest
) -> models.LinkImpactResult:
    """Record that a chunk, claim or fact affects a fact, a decision or an external
    target (session, snapshot, mapping, validation, export).

    Use it when knowing that something depends on a piece of knowledge matters later:
    explain_impact walks these links (and the edges decisions and packs already imply)
    to show what a change would touch. The source, and a fact or decision target, must
    exist in your tenant (else not_found); an external target is created on first use.
    A fact cannot impact itself. Linking the same source, target and impact_type again
    updates the score and rationale of the existing link and returns created=false (its
    edge_id stays). One transaction, one history revision.
    """
    return await service.link_impact(services.store, services.tenant(), request)


async def explain_impact(
    services: Services, request: models.ExplainImpactRequest
) -> models.ExplainImpactResult:
    """Show what a change to a chunk, claim or fact would affect downstream.

    Call it before governing or replacing a fact to see what it informs. Walks recorded
    impact links and the edges the graph already implies: decisions that depend on the
    fact or its key (requires_review) or whose reopen rules watch its key (risks), packs
    that include it, claims evidenced by a chunk and facts a claim was promoted to. Each
    affected target appears once, with its best path (highest product of scores; ties:
    fewer hops), grouped by kind, best first; cycles are safe; targets no longer valid
    (superseded or invalidated facts, superseded or reverted decisions) are left out and
    not walked through. Read-only: unlike the seed, nothing is logged, so it needs no write
    access and takes no lock. Bounded (500 targets; truncated says when a bound cut it).
    An unknown source is not_found.
    """
    return await service.explain_impact(services.store, services.tenant(), request)


SPECS = [
    ToolSpec(
        handler=link_impact,
        title="Record an impact link",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=True,  # a repeat overwrites the link's score and rationale
        answer=compact("edge_id", "created", "revision"),
    ),
    ToolSpec(
        handler=explain_impact,
        title="Explain a change's downstream impact",
        toolset="core",
        writes=False,
        idempotent=True,
        destructive=False,
    ),
]

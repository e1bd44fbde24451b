"""MCP tools over impact: record a link, explain a change's downstream impact. Thin."""

from typing import Annotated

from pydantic import Field

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolFunction, ToolSpec
from graphmem.core.models import AuditText, Name
from graphmem.impact import service as impact
from graphmem.impact.models import (
    ExplainImpactRequest,
    ExplainImpactResult,
    ImpactType,
    LinkImpactRequest,
    LinkImpactResult,
    SourceKind,
    TargetKind,
)

Audit = Annotated[AuditText | None, Field(description="Recorded for audit; grants nothing.")]


def make_link_impact(services: Services) -> ToolFunction:
    async def link_impact(
        source_kind: Annotated[
            SourceKind, Field(description="What has the impact: a chunk, claim or fact.")
        ],
        source_ref: Annotated[Name, Field(description="Id of the source chunk, claim or fact.")],
        target_kind: Annotated[
            TargetKind,
            Field(
                description="What is affected: a fact or decision (must exist), or an "
                "external session, snapshot, mapping, validation or export named by its "
                "reference."
            ),
        ],
        target_ref: Annotated[
            Name, Field(description="Id of the fact or decision, or the external reference.")
        ],
        impact_type: Annotated[
            ImpactType,
            Field(description="informs, blocks, risks, invalidates or requires_review."),
        ],
        score: Annotated[
            float,
            Field(
                ge=0.0,
                le=1.0,
                description="Strength 0-1 (default 0.5); explain_impact multiplies the "
                "scores along a path.",
            ),
        ] = 0.5,
        rationale: Annotated[
            str | None,
            Field(max_length=2000, description="Why the source affects the target."),
        ] = None,
        session_id: Audit = None,
        actor: Audit = None,
    ) -> LinkImpactResult:
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
        request = LinkImpactRequest(
            source_kind=source_kind,
            source_ref=source_ref,
            target_kind=target_kind,
            target_ref=target_ref,
            impact_type=impact_type,
            score=score,
            rationale=None if rationale == "" else rationale,
            session_id=session_id,
            actor=actor,
        )
        return await impact.link_impact(services.store, services.tenant(), request)

    return link_impact


def make_explain_impact(services: Services) -> ToolFunction:
    async def explain_impact(
        source_ref: Annotated[
            Name, Field(description="Id of the source chunk, claim or fact; required.")
        ],
        source_kind: Annotated[
            SourceKind, Field(description="chunk, claim or fact (default fact).")
        ] = "fact",
        depth: Annotated[
            str,
            Field(
                max_length=20,
                description="quick walks 1 hop, standard 3, deep 5; unknown values behave "
                "as standard (the result names the depth walked).",
            ),
        ] = "standard",
    ) -> ExplainImpactResult:
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
        request = ExplainImpactRequest(source_kind=source_kind, source_ref=source_ref, depth=depth)
        return await impact.explain_impact(services.store, services.tenant(), request)

    return explain_impact


SPECS = [
    ToolSpec(
        name="link_impact",
        title="Record an impact link",
        toolset="full",
        writes=True,
        idempotent=False,
        destructive=True,  # a repeat overwrites the link's score and rationale
        legacy_make=make_link_impact,
    ),
    ToolSpec(
        name="explain_impact",
        title="Explain a change's downstream impact",
        toolset="core",
        writes=False,
        idempotent=True,
        destructive=False,
        legacy_make=make_explain_impact,
    ),
]

"""MCP tools over facts. Thin: validate, call the domain, let the boundary map errors."""

from typing import Annotated

from pydantic import AwareDatetime, Field

from graphmem import facts
from graphmem.models.common import AuditText, BoundedJson, Name
from graphmem.models.facts import (
    CurrentState,
    CurrentStateRequest,
    RecordFactRequest,
    RecordFactResult,
)
from graphmem.tools.context import Services
from graphmem.tools.spec import ToolFunction, ToolSpec


def make_record_fact(services: Services) -> ToolFunction:
    async def record_fact(
        project: Annotated[Name, Field(description="Project namespace that owns the fact.")],
        key: Annotated[
            Name,
            Field(
                description="Fact name, unique among active facts of the project; the key "
                "that current_state and decisions' reopen rules refer to."
            ),
        ],
        value: Annotated[
            BoundedJson,
            Field(description="Any JSON value, stored losslessly (at most 64 KiB, depth 32)."),
        ] = None,
        source_class: Annotated[
            str | None,
            Field(
                max_length=100,
                description="Claimed origin: agent_claimed (default), "
                "tool_observed, human_confirmed or production_verified. A claim, never "
                "proof; an unknown label is stored as agent_claimed, kept in source_raw.",
            ),
        ] = None,
        source: Annotated[
            str | None, Field(max_length=100, description="Legacy alias of source_class.")
        ] = None,
        confidence: Annotated[
            float, Field(ge=0.0, le=1.0, description="Caller's confidence, 0-1. Verifies nothing.")
        ] = 0.5,
        observed_at: Annotated[
            AwareDatetime | None,
            Field(description="ISO 8601 time (with offset) the value was observed; default now."),
        ] = None,
        valid_from: Annotated[
            AwareDatetime | None,
            Field(description="Start of valid time (ISO 8601 with offset); default now."),
        ] = None,
        valid_to: Annotated[
            AwareDatetime | None,
            Field(description="End of valid time (ISO 8601 with offset), after valid_from."),
        ] = None,
        session_id: Annotated[
            AuditText | None, Field(description="Groups related writes in the audit trail.")
        ] = None,
        actor: Annotated[
            AuditText | None, Field(description="Who writes (agent or person); audit only.")
        ] = None,
        client: Annotated[
            AuditText | None, Field(description="Which client software writes; audit only.")
        ] = None,
    ) -> RecordFactResult:
        """Record one observed fact under a project and key, replacing the active one.

        Use it for observations that can change and that other things depend on (a
        service's latency, a library version, who owns a module); use save_memory for
        durable notes that are not observations. The previous active fact of the key is kept
        as history (status superseded, linked by SUPERSEDES), so nothing is lost; exactly one
        fact per key stays active, also under concurrent writers. Each call is one
        transaction that commits one history revision. Provenance and confidence are
        recorded as claims: nothing here can make a fact verified. Returns the stored fact,
        the id it superseded and the revision.
        """
        request = RecordFactRequest(
            project=project,
            key=key,
            value=value,
            source_class=source_class,
            source=source,
            confidence=confidence,
            observed_at=observed_at,
            valid_from=valid_from,
            valid_to=valid_to,
            session_id=session_id,
            actor=actor,
            client=client,
        )
        return await facts.record_fact(services.store, services.tenant(), request)

    return record_fact


def make_current_state(services: Services) -> ToolFunction:
    async def current_state(
        state_key: Annotated[Name, Field(description="The fact key to resolve.")],
        project: Annotated[
            Name | None,
            Field(
                description="Project to look in; without it a key active in several "
                "projects is reported as ambiguous with the candidate projects."
            ),
        ] = None,
        history_limit: Annotated[
            int, Field(ge=0, le=200, description="How many former facts to include, newest first.")
        ] = 20,
    ) -> CurrentState:
        """Resolve a fact key to what is true now: the active fact, its history and why.

        Use it before acting on something a fact describes; use search for free-text
        recall across memories. Read-only. status is current (answer holds the active
        fact), no_current (the key exists but nothing is active), not_found, or ambiguous
        (several projects hold it and no project was given; see candidates). history lists
        former facts newest first with the fact that replaced each; why lists the
        SUPERSEDES edges between them.
        """
        request = CurrentStateRequest(
            state_key=state_key, project=project, history_limit=history_limit
        )
        return await facts.current_state(services.store, services.tenant(), request)

    return current_state


SPECS = [
    ToolSpec(
        name="record_fact",
        title="Record an observed fact",
        toolset="core",
        writes=True,
        idempotent=False,
        destructive=True,
        make=make_record_fact,
    ),
    ToolSpec(
        name="current_state",
        title="Resolve a fact key to its current state",
        toolset="core",
        writes=False,
        idempotent=True,
        destructive=False,
        make=make_current_state,
    ),
]

"""MCP tools over the append-only history."""

from typing import Annotated

from pydantic import AwareDatetime, Field

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolFunction, ToolSpec
from graphmem.core.models import Name
from graphmem.history import chain as history
from graphmem.history.models import ReplayRequest, ReplayResult


def make_replay_memory(services: Services) -> ToolFunction:
    async def replay_memory(
        aggregate_id: Annotated[
            Name | None,
            Field(description="Only events of this entity (or that touched it)."),
        ] = None,
        aggregate_kind: Annotated[
            Name | None, Field(description="Only events of this kind of entity, e.g. fact.")
        ] = None,
        limit: Annotated[int, Field(ge=1, le=500, description="At most this many events.")] = 100,
        since_ts: Annotated[
            AwareDatetime | None, Field(description="Only events at or after this instant.")
        ] = None,
    ) -> ReplayResult:
        """Replay the append-only history, newest first, and say whether it is intact.

        Use it to audit what changed, when, through which tool and by whom; use
        current_state to read what is true now. Read-only. Every event carries its
        revision (the tenant's gap-free sequence) and the hash of the event before it; the
        chain verdict recomputes the whole chain, so an edited or deleted event shows as
        verified=false with the first revision that breaks. Filters that match nothing
        return count 0.
        """
        request = ReplayRequest(
            aggregate_id=aggregate_id,
            aggregate_kind=aggregate_kind,
            limit=limit,
            since_ts=since_ts,
        )
        return await history.replay(services.store, services.tenant(), request)

    return replay_memory


SPECS = [
    ToolSpec(
        name="replay_memory",
        title="Replay and verify the history",
        toolset="full",
        writes=False,
        idempotent=True,
        destructive=False,
        legacy_make=make_replay_memory,
    ),
]

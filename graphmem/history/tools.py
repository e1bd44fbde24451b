"""MCP tools over the append-only history."""

from graphmem.app.services import Services
from graphmem.app.toolspec import ToolSpec
from graphmem.history import chain
from graphmem.history.models import ReplayRequest, ReplayResult


async def replay_memory(services: Services, request: ReplayRequest) -> ReplayResult:
    """Replay the append-only history, newest first, and say whether it is intact.

    Use it to audit what changed, when, through which tool and by whom; use
    current_state to read what is true now. Read-only. Every event carries its
    revision (the tenant's gap-free sequence) and the hash of the event before it; the
    chain verdict recomputes the whole chain, so an edited or deleted event shows as
    verified=false with the first revision that breaks. Filters that match nothing
    return count 0.
    """
    return await chain.replay(services.store, services.tenant(), request)


SPECS = [
    ToolSpec(
        handler=replay_memory,
        title="Replay and verify the history",
        toolset="full",
        writes=False,
        idempotent=True,
        destructive=False,
    ),
]

"""MCP tools over the append-only history."""

from graphmem.history import verification
from graphmem.history.models import ReplayRequest, ReplayResult
from graphmem.toolkit.services import Services
from graphmem.toolkit.toolspec import Effect, ToolList

SPECS = ToolList()


@SPECS.tool("Replay and verify the history", Effect.READS)
async def replay_memory(services: Services, request: ReplayRequest) -> ReplayResult:
    """Replay the append-only history newest first, verifying its hash chain: an
    edit or deletion shows as verified=false at the first broken revision. For audits
    of who changed what; current_state reads what is true now. Read-only.
    """
    return await verification.replay(services.db(), request)

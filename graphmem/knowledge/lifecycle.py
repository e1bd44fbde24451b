"""The chunk lifecycle as an explicit state machine, and the run history every pipeline call
records.

States: no_enrich (the default: enrichment is opt-in), enrichable, uncertain, awaiting_human,
frozen, stale, archived. Only the transitions below are legal; there is no self-transition
and nothing leaves archived. Which tool moves a chunk where:
- assess_context: markers and scores (graphmem/knowledge/heuristics.py);
- queue_clarification: to awaiting_human;
- record_human_answer: awaiting_human or uncertain back to enrichable.
"""

from __future__ import annotations

import json
from typing import Any

from graphmem.core.errors import InvalidState
from graphmem.core.ids import new_id
from graphmem.history.write_path import Write
from graphmem.knowledge.models.chunks import ChunkState, RunStatus

TRANSITIONS: dict[ChunkState, frozenset[ChunkState]] = {
    "no_enrich": frozenset({"enrichable", "frozen", "stale", "archived"}),
    "enrichable": frozenset(
        {"uncertain", "awaiting_human", "frozen", "stale", "archived", "no_enrich"}
    ),
    "uncertain": frozenset({"awaiting_human", "enrichable", "frozen", "stale", "no_enrich"}),
    "awaiting_human": frozenset({"enrichable", "frozen", "stale", "no_enrich"}),
    "frozen": frozenset({"enrichable", "archived"}),
    "stale": frozenset({"enrichable", "archived"}),
    "archived": frozenset(),
}


def can_move(current: ChunkState, target: ChunkState) -> bool:
    return target in TRANSITIONS[current]


def require_move(chunk_id: str, current: ChunkState, target: ChunkState) -> None:
    if not can_move(current, target):
        raise InvalidState("chunk", chunk_id, current, f"cannot move to {target} from {current}")


async def record_run(
    w: Write,
    tool: str,
    subject_kind: str,
    subject_id: str | None,
    status: RunStatus,
    reason: str | None = None,
    counters: dict[str, Any] | None = None,
) -> str:
    """One run-history entry (a `Run` node) for a pipeline call, in the call's transaction."""
    run_id = new_id()
    await w.run(
        "knowledge/create_run",
        id=run_id,
        tool=tool,
        subject_kind=subject_kind,
        subject_id=subject_id,
        status=status,
        reason=reason,
        counters_json=json.dumps(counters or {}, sort_keys=True),
    )
    return run_id

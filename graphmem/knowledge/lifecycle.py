"""The chunk lifecycle as an explicit state machine (pure: the run history every pipeline call
records is graphmem/knowledge/runs.py).

States: no_enrich (the default: enrichment is opt-in), enrichable, uncertain, awaiting_human,
frozen, stale, archived. Only the transitions below are legal; there is no self-transition
and nothing leaves archived. Which tool moves a chunk where:
- assess_context: markers and scores (graphmem/knowledge/heuristics.py);
- queue_clarification: to awaiting_human;
- record_human_answer: awaiting_human or uncertain back to enrichable.
"""

from __future__ import annotations

from graphmem.knowledge.models.chunks import ChunkState

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

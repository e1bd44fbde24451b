"""One ranking: the channels that read the query run at once, their lists fuse, then each
channel that expands the fusion (subject, then graph) reads it and fuses in
(graphmem/search/ranking.py).

The same channels rank curated memories and raw turns: ``Sources`` names each one's statements
and the scope they read, and raw turns fuse by their embedding model's constants.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, replace

from graphmem.search.channels.context import Context, Hit, MemoryScope, Reading, Sources
from graphmem.search.channels.fulltext import FullText
from graphmem.search.channels.graph import GRAPH_PER_SEED, TURN_GRAPH_DEPTH, Graph
from graphmem.search.channels.protocol import Channel
from graphmem.search.channels.subject import Subject
from graphmem.search.channels.vector import Vector
from graphmem.search.ranking import Fused, fuse, turn_fusion

# Every channel, in the order their lists enter the fusion.
CHANNELS: tuple[Channel, ...] = (FullText(), Vector(), Subject(), Graph())
MAX_POOL = 1_000
MIN_POOL = 100


@dataclass(frozen=True)
class Ranking:
    fused: list[Fused]
    types: dict[str, str | None]
    channels: list[str]


def memory_sources(scope: MemoryScope) -> Sources:
    """The memory channels' statements and the scope they read."""
    return Sources(
        "search/search_memories_fulltext",
        "search/search_memories_vector",
        "search/scan_memories_vector",
        "search/expand_memory_graph",
        "search/find_subject_memories",
        {**scope, "per_seed": GRAPH_PER_SEED},
    )


def turn_sources(context: Context) -> Sources:
    return Sources(
        "search/search_turns_fulltext",
        "search/search_turns_vector",
        "search/scan_turns_vector",
        "search/expand_turn_graph",
        "search/find_subject_turns",
        {"project": context.request.project, "depth": TURN_GRAPH_DEPTH},
        turn_fusion(context.model),
    )


async def rank(
    context: Context,
    sources: Sources,
    boosts: dict[str, float],
    query: str | None = None,
    vector: list[float] | None = None,
    channels: Sequence[Channel] = CHANNELS,
) -> Ranking:
    """The fused ranking of the ``channels`` the context names (``query`` and ``vector``
    replace the request's: a second hop)."""
    chosen = [channel for channel in channels if channel.name in context.channels]
    reading = Reading(
        context,
        sources,
        query or context.request.query or "",
        vector if vector is not None else context.vector,
    )
    types: dict[str, str | None] = {}
    lists: dict[str, list[str]] = {}
    first = [channel for channel in chosen if not channel.expands]
    found = await asyncio.gather(*(channel.ranked(reading) for channel in first))
    for channel, hits in zip(first, found, strict=True):
        if hits is not None:
            lists[channel.name] = _collect(hits, types)
    fusion = sources.fusion
    weights = fusion.weights or context.weights
    fused = fuse(lists, weights, _boosts(types, boosts), k=fusion.k)
    for channel in (channel for channel in chosen if channel.expands):
        hits = await channel.ranked(replace(reading, fused=fused))
        if hits is not None:
            lists[channel.name] = _collect(hits, types)
            fused = fuse(lists, weights, _boosts(types, boosts), k=fusion.k)
    return Ranking(fused, types, list(lists))


def _collect(hits: Sequence[Hit], types: dict[str, str | None]) -> list[str]:
    for hit in hits:
        types.setdefault(hit.id, hit.type)
    return [hit.id for hit in hits]


def _boosts(types: dict[str, str | None], by_type: dict[str, float]) -> dict[str, float]:
    if not by_type:
        return {}
    return {i: by_type.get(t or "", 1.0) for i, t in types.items()}

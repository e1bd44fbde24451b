"""The graph channel: neighbours of the fused best hits (memories saved in the same session,
other versions of the same topic, memories about a linked fact; for raw turns, the turns said
just before and after), ranked by the score they inherit (ranking.graph_ranking)."""

from __future__ import annotations

from graphmem.search.channels.context import Hit, Reading
from graphmem.search.channels.names import ChannelName
from graphmem.search.ranking import graph_ranking
from graphmem.search.rows import NeighbourRow
from graphmem.store import shaped

GRAPH_SEEDS = 10
GRAPH_PER_SEED = 5
TURN_GRAPH_DEPTH = 2


class Graph:
    name = ChannelName.GRAPH
    expands = True

    async def ranked(self, reading: Reading) -> list[Hit] | None:
        if not reading.fused:
            return None
        sources = reading.sources
        seeds = reading.fused[:GRAPH_SEEDS]
        rows = shaped(
            NeighbourRow,
            await reading.context.db.read(
                sources.expand, seeds=[s.id for s in seeds], **sources.params
            ),
        )
        types: dict[str, str | None] = {}
        for row in rows:
            types.setdefault(row["id"], row["type"])
        neighbours = [(row["seed"], row["id"], row["distance"]) for row in rows]
        ranked = graph_ranking(seeds, neighbours, sources.fusion.decay)
        return [Hit(i, types.get(i)) for i in ranked]

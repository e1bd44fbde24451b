"""What a channel reads: the search's context, the sources it ranks (curated memories or raw
turns) and, per ranking, the query, its vector and the fusion so far."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from graphmem.memories.models.memories import MemoryType
from graphmem.search.channels.names import ChannelName
from graphmem.search.models import SearchRequest
from graphmem.search.ranking import Fused, Fusion
from graphmem.store import Params, TenantStore
from graphmem.toolkit.retrieval import WITHOUT_MODELS, Retrieval

MEMORY_FUSION = Fusion()  # the retrieval plan's weights, RRF_K, GRAPH_DECAY
GRAPH_PARAMS = ("per_seed", "depth")  # the graph expansion's parameters in Sources.params


@dataclass(frozen=True)
class Context:
    """One search's reading context: the channels, their weights and the pool they read."""

    db: TenantStore
    request: SearchRequest
    channels: list[ChannelName]
    weights: dict[str, float]
    pool: int
    vector: list[float] | None
    retrieval: Retrieval = WITHOUT_MODELS
    notices: tuple[str, ...] = ()  # what the reading could not settle (said in the answer)

    @property
    def model(self) -> str | None:
        """The embedding model's name: raw turns' fusion constants are its own."""
        embedder = self.retrieval.embedder
        return embedder.name if embedder else None


class MemoryScope(TypedDict):
    """The memories a search sees: the parameters every memory statement of it filters by."""

    statuses: list[str]
    project: str | None
    type: MemoryType | None
    branch: str | None
    tags: list[str]


@dataclass(frozen=True)
class Sources:
    fulltext: str  # query names
    vector: str
    scan: str
    expand: str
    subjects: str
    params: Params
    fusion: Fusion = MEMORY_FUSION

    def channel_params(self) -> Params:
        """The scope parameters the channel queries take (not the graph's)."""
        return {k: v for k, v in self.params.items() if k not in GRAPH_PARAMS}


@dataclass(frozen=True)
class Reading:
    """What one ranking asks of a channel."""

    context: Context
    sources: Sources
    query: str
    vector: list[float] | None
    fused: Sequence[Fused] = ()  # the fusion of the channels before (an expansion reads it)


@dataclass(frozen=True)
class Hit:
    id: str
    type: str | None

"""The retrieval parts a process searches with, held once by the services: the embedder, a
second stage (a reranker), and why the vector channel is off when embeddings were asked for.

They live here, under every area, because ``Services`` holds them and search, recall, the
archive and memories all read them; a second stage is a local model like the embedder (its
file goes in graphmem/embeddings/, loaded by ``load_retrieval``). The channels themselves are
search's (graphmem/search/channels/).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from graphmem.core.settings import Settings
from graphmem.embeddings.embedder import Embedder, EmbeddingsUnavailable, load_embedder

# Seconds a second stage may take per call before search drops its order (a placeholder until
# a stage ships and bench.locomo_stages measures it; search's p99 goal is 200 ms in all).
SECOND_STAGE_BUDGET = 0.15
log = logging.getLogger("graphmem")


@dataclass(frozen=True)
class Candidate:
    """One fused hit a second stage orders: its id and the text it is judged by."""

    id: str
    text: str


class SecondStage(Protocol):
    """Reorders the fused top of a ranking (a cross-encoder, say)."""

    @property
    def name(self) -> str: ...

    async def rerank(
        self, query: str, candidates: Sequence[Candidate], budget: float
    ) -> list[str] | None:
        """The candidates' ids, best first (None: no opinion, the fused order stands).

        ``budget`` is the seconds the call has; search drops an answer that comes later.
        """
        ...


@dataclass(frozen=True)
class Retrieval:
    embedder: Embedder | None = None  # None: no vector channel
    second_stage: SecondStage | None = None
    # That the vector channel is off although GRAPHMEM_EMBEDDINGS asked for it (one line a
    # client may read); None when it is on, or off by the configuration.
    vectors_off: str | None = None
    second_stage_budget: float = SECOND_STAGE_BUDGET


WITHOUT_MODELS = Retrieval()  # full-text and graph channels, fused order


# What a client is told when the model cannot load: never the operator's line (it names the
# model folder, a user's home, the runtime's own error text), which goes to the log and doctor.
VECTORS_UNAVAILABLE = (
    "the server's embedding model is unavailable (its operator's `graphmem doctor` says why)"
)


def load_retrieval(settings: Settings) -> Retrieval:
    """The configured parts; a model that cannot load turns its channel off, saying so."""
    try:
        return Retrieval(embedder=load_embedder(settings))
    except EmbeddingsUnavailable as error:
        log.warning("search runs without vectors: %s", " ".join(error.message.split()))
        return Retrieval(vectors_off=VECTORS_UNAVAILABLE)

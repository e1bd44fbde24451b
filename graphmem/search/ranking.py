"""Rank fusion for search: pure functions over ranked lists, no database.

- Each channel (full-text, vector, graph, multi-hop) yields ids best first. Weighted
  reciprocal rank fusion sums ``weight / (K + rank)`` over the channels an id appears in
  (rank from 1), so a document found by several channels rises and no channel's raw score
  scale matters. K = 5, not the customary 60: with a few channels of unequal quality a steep
  curve lets each channel's first hits lead instead of a long tail of agreement (on LoCoMo,
  hybrid + graph recall@5/10 is 60.1/68.5 at K = 5 against 51.5/60.9 at K = 60;
  bench/locomo.py).
- The graph channel is derived from the fused list: the best ``seeds`` hits pass their fused
  score to their graph neighbours, decayed by ``GRAPH_DECAY`` per step; neighbours reached
  from several seeds add up. Its ranking then enters the fusion like any other channel, so a
  turn next to two strong hits rises, a seed that is also a neighbour of another seed rises.
- The subject channel (graphmem/search/channels/subject.py) is derived from the fused list
  too: the sources that mention a subject the query names, those naming more of the query's
  names first, then those naming rarer ones (the sum of 1 / the name's mentions: a name said
  everywhere, a conversation's speaker, tells little), then in the fused order, then newest.
  No constant: on a query that names no known subject it takes no part.
- A type boost (from the retrieval plan) multiplies the fused score. Ties break on id.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from graphmem.search.channels.names import ChannelName

RRF_K = 5
GRAPH_DECAY = 0.5
SUBJECT_WEIGHT = 1.0  # as full-text's: not fitted (bench/locomo_folds.py measures it held out)


@dataclass(frozen=True)
class Fusion:
    """The constants of one fusion: channel weights (None: the retrieval plan's), RRF k and
    the graph's decay per step."""

    weights: Mapping[str, float] | None = None
    k: int = RRF_K
    decay: float = GRAPH_DECAY


# Raw turns rank by their own constants, chosen per embedding model by
# leave-one-conversation-out on the seven LoCoMo conversations (bench/locomo_folds.py, the
# median of the folds' choices): turns said next to a hit are often the evidence too, so the
# graph channel weighs more than for memories. Held out, recall@1/5/10/25/50:
# - e5-small-v2 int8: 32.1 / 67.6 / 78.2 / 87.0 / 91.9 (its rankings through search);
# - all-MiniLM-L6-v2 int8: 28.7 / 65.8 / 76.5 / 84.8 / 89.8 (float vectors: 28.7 / 65.0 / 75.6 /
#   84.6 / 89.5, whose folds chose vector 0.5). Without embeddings MiniLM's constants serve.
TURN_FUSION = Fusion(
    weights={
        ChannelName.FULLTEXT: 1.0,
        ChannelName.VECTOR: 0.75,
        ChannelName.GRAPH: 3.0,
        ChannelName.SUBJECT: SUBJECT_WEIGHT,
    },
    k=1,
    decay=0.75,
)
TURN_FUSION_BY_MODEL = {
    "all-MiniLM-L6-v2": TURN_FUSION,
    "e5-small-v2": Fusion(
        weights={
            ChannelName.FULLTEXT: 1.0,
            ChannelName.VECTOR: 1.0,
            ChannelName.GRAPH: 3.0,
            ChannelName.SUBJECT: SUBJECT_WEIGHT,
        },
        k=2,
        decay=0.75,
    ),
}


def turn_fusion(model: str | None) -> Fusion:
    """Raw turns' fusion constants for the embedding model ``model`` (its name; None: off)."""
    return TURN_FUSION_BY_MODEL.get(model or "", TURN_FUSION)


@dataclass
class Fused:
    id: str
    score: float = 0.0
    contributions: dict[str, float] = field(
        default_factory=dict[str, float]
    )  # channel -> share of score
    ranks: dict[str, int] = field(default_factory=dict[str, int])  # channel -> rank (from 1)
    boost: float = 1.0


def fuse(
    channels: Mapping[str, Sequence[str]],
    weights: Mapping[str, float],
    boosts: Mapping[str, float] | None = None,
    k: int = RRF_K,
) -> list[Fused]:
    """Weighted RRF of ranked id lists; ``boosts`` multiply an id's fused score. (``k`` is
    a parameter for the benchmark that chooses it: bench/locomo_folds.py.)"""
    fused: dict[str, Fused] = {}
    for channel, ids in channels.items():
        weight = weights.get(channel, 0.0)
        if weight <= 0:
            continue
        for rank, item in enumerate(dict.fromkeys(ids), start=1):
            entry = fused.setdefault(item, Fused(item))
            share = weight / (k + rank)
            entry.contributions[channel] = share
            entry.ranks[channel] = rank
            entry.score += share
    for entry in fused.values():
        entry.boost = (boosts or {}).get(entry.id, 1.0)
        entry.score *= entry.boost
    return sorted(fused.values(), key=lambda e: (-e.score, e.id))


@dataclass(frozen=True)
class SubjectGroup:
    """A subject group the query names: the query's names that found it (two namesakes: one
    name, two groups), its members' mentions in all, and the sources in scope that mention it
    (id -> when last written, ISO text: newer sorts later)."""

    names: frozenset[str]
    mentions: int
    sources: Mapping[str, str]


def subject_ranking(groups: Sequence[SubjectGroup], fused: Sequence[str]) -> list[str]:
    """The sources that mention the query's names: more of them, then rarer ones (the sum of
    1 / a name's mentions, its groups' together), then in the ``fused`` order, then newest,
    then by id."""
    named: dict[str, set[str]] = defaultdict(set)
    said: dict[str, int] = defaultdict(int)  # a name -> its groups' mentions
    at: dict[str, str] = {}
    for group in groups:
        for name in group.names:
            said[name] += group.mentions
        for item, written in group.sources.items():
            named[item] |= group.names
            at[item] = written
    position = {item: rank for rank, item in enumerate(dict.fromkeys(fused))}
    ordered = sorted(named)  # ties by id, then newest first, then the ranking's keys (stable)
    ordered.sort(key=lambda item: at[item], reverse=True)
    ordered.sort(
        key=lambda item: (
            -len(named[item]),
            -sum(1 / max(said[name], 1) for name in named[item]),
            position.get(item, len(position)),
        )
    )
    return ordered


def graph_ranking(
    seeds: Sequence[Fused], neighbours: Sequence[tuple[str, str, int]], decay: float = GRAPH_DECAY
) -> list[str]:
    """Neighbours ranked by the fused score they inherit from the seeds that reach them.

    ``neighbours`` are (seed id, neighbour id, distance in steps) rows.
    """
    seed_score = {seed.id: seed.score for seed in seeds}
    inherited: dict[str, float] = defaultdict(float, seed_score)  # a seed is its own context
    for seed, neighbour, distance in neighbours:
        if seed in seed_score and distance >= 1:
            inherited[neighbour] += seed_score[seed] * decay**distance
    return [item for item, _ in sorted(inherited.items(), key=lambda kv: (-kv[1], kv[0]))]

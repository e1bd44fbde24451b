"""The retrieval seam without a database: a channel behind the ``Channel`` protocol ranks through
the fusion, a second stage behind ``SecondStage`` reorders the fused top within its budget (or
is dropped, saying so), and a model that cannot load turns the vector channel off with one line
of why."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import pytest
from pydantic import ValidationError

from graphmem.core.errors import InvalidArgument
from graphmem.core.settings import Settings
from graphmem.search.channels.context import Context, Hit, MemoryScope, Reading
from graphmem.search.channels.fusion import memory_sources, rank
from graphmem.search.channels.names import ChannelName
from graphmem.search.models import SearchRequest
from graphmem.search.plans import DEFAULT_WEIGHTS
from graphmem.search.ranking import RRF_K, Fused, fuse
from graphmem.search.second_stage import SECOND_STAGE_DEPTH, reordered
from graphmem.search.service import search
from graphmem.store import TenantStore
from graphmem.toolkit.retrieval import VECTORS_UNAVAILABLE, Candidate, Retrieval, load_retrieval

pytestmark = pytest.mark.pure

SCOPE: MemoryScope = {
    "statuses": ["active"],
    "project": None,
    "type": None,
    "branch": None,
    "tags": [],
}

NO_DATABASE = cast(TenantStore, None)  # the fakes read nothing


class FakeChannel:
    """Answers fixed ids (None: nothing to read); an expanding one answers the seeds it got."""

    def __init__(self, name: ChannelName, ids: list[str] | None, expands: bool = False) -> None:
        self.name, self.ids, self.expands = name, ids, expands
        self.readings: list[Reading] = []

    async def ranked(self, reading: Reading) -> list[Hit] | None:
        self.readings.append(reading)
        if self.expands:
            return [Hit(f"{entry.id}'", "note") for entry in reading.fused]
        return None if self.ids is None else [Hit(i, "note") for i in self.ids]


def context(*names: ChannelName, query: str = "a query") -> Context:
    return Context(
        db=NO_DATABASE,
        request=SearchRequest(query=query),
        channels=list(names),
        weights=dict(DEFAULT_WEIGHTS),
        pool=100,
        vector=None,
    )


async def test_a_channel_behind_the_protocol_ranks_through_the_fusion() -> None:
    words = FakeChannel(ChannelName.FULLTEXT, ["a", "b", "c"])
    meaning = FakeChannel(ChannelName.VECTOR, ["c", "a"])
    ranking = await rank(
        context(ChannelName.FULLTEXT, ChannelName.VECTOR),
        memory_sources(SCOPE),
        {},
        channels=[words, meaning],
    )
    expected = fuse({"fulltext": ["a", "b", "c"], "vector": ["c", "a"]}, DEFAULT_WEIGHTS)
    assert [f.id for f in ranking.fused] == [f.id for f in expected] == ["a", "c", "b"]
    assert ranking.fused[0].score == pytest.approx(1.0 / (RRF_K + 1) + 0.5 / (RRF_K + 2))
    assert ranking.channels == ["fulltext", "vector"]
    assert words.readings[0].query == "a query"


async def test_an_expanding_channel_reads_the_fusion_and_one_with_nothing_to_read_stays_out() -> (
    None
):
    words = FakeChannel(ChannelName.FULLTEXT, ["a", "b"])
    idle = FakeChannel(ChannelName.VECTOR, None)
    around = FakeChannel(ChannelName.GRAPH, None, expands=True)
    named = context(ChannelName.FULLTEXT, ChannelName.VECTOR, ChannelName.GRAPH)
    ranking = await rank(named, memory_sources(SCOPE), {}, channels=[words, idle, around])
    assert [entry.id for entry in around.readings[0].fused] == ["a", "b"]
    assert ranking.channels == ["fulltext", "graph"]  # vector had no query vector
    assert {f.id for f in ranking.fused} == {"a", "b", "a'", "b'"}
    unnamed = await rank(
        context(ChannelName.FULLTEXT), memory_sources(SCOPE), {}, channels=[words, around]
    )
    assert unnamed.channels == ["fulltext"]  # a channel the context does not name never runs


class Reverse:
    name = "reverse"

    def __init__(self) -> None:
        self.seen: list[Candidate] = []

    async def rerank(self, query: str, candidates: Sequence[Candidate], budget: float) -> list[str]:
        self.seen = list(candidates)
        return [candidate.id for candidate in reversed(candidates)]


class Slow:
    name = "slow"

    async def rerank(self, query: str, candidates: Sequence[Candidate], budget: float) -> list[str]:
        await asyncio.sleep(budget * 20)
        return [candidate.id for candidate in reversed(candidates)]


class Broken:
    name = "broken"

    async def rerank(self, query: str, candidates: Sequence[Candidate], budget: float) -> None:
        raise RuntimeError("no model")


def fused_ids(count: int) -> list[Fused]:
    return fuse({"fulltext": [f"m{i:03}" for i in range(count)]}, DEFAULT_WEIGHTS)


async def test_a_second_stage_reorders_the_fused_top_and_the_ranking_follows() -> None:
    fused = fused_ids(SECOND_STAGE_DEPTH + 5)
    texts = {entry.id: f"text of {entry.id}" for entry in fused}
    stage = Reverse()
    ordered, notice = await reordered(Retrieval(second_stage=stage), "q", fused, texts)
    top = [entry.id for entry in fused[:SECOND_STAGE_DEPTH]]
    assert [c.id for c in stage.seen] == top and stage.seen[0].text == f"text of {top[0]}"
    assert [e.id for e in ordered] == [*reversed(top), *(e.id for e in fused[SECOND_STAGE_DEPTH:])]
    assert notice is None


async def test_ids_the_stage_leaves_out_or_invents_keep_the_fused_order() -> None:
    class Partial:
        name = "partial"

        async def rerank(
            self, query: str, candidates: Sequence[Candidate], budget: float
        ) -> list[str]:
            return ["m002", "nobody", "m002", "m001"]

    fused = fused_ids(4)
    texts = {entry.id: entry.id for entry in fused}
    ordered, _ = await reordered(Retrieval(second_stage=Partial()), "q", fused, texts)
    assert [e.id for e in ordered] == ["m002", "m001", "m000", "m003"]


async def test_a_hit_the_stage_was_not_given_is_never_moved_by_it() -> None:
    class Knowing:
        name = "knowing"

        async def rerank(
            self, query: str, candidates: Sequence[Candidate], budget: float
        ) -> list[str]:
            return ["m003", "m002"]  # m003 had no text: it was not a candidate

    fused = fused_ids(4)
    texts = {entry.id: entry.id for entry in fused if entry.id != "m003"}
    ordered, _ = await reordered(Retrieval(second_stage=Knowing()), "q", fused, texts)
    assert [e.id for e in ordered] == ["m002", "m000", "m001", "m003"]


async def test_a_slow_or_failing_second_stage_is_dropped_and_the_notice_says_so() -> None:
    fused = fused_ids(3)
    texts = {entry.id: entry.id for entry in fused}
    slow = Retrieval(second_stage=Slow(), second_stage_budget=0.01)
    ordered, notice = await reordered(slow, "q", fused, texts)
    assert ordered == fused
    assert notice == "second stage slow ran over its 10 ms budget: the fused order stands"
    ordered, notice = await reordered(Retrieval(second_stage=Broken()), "q", fused, texts)
    assert ordered == fused
    assert notice == "second stage broken failed (RuntimeError): the fused order stands"


def test_a_model_that_cannot_load_turns_the_vector_channel_off_saying_why(tmp_path: Path) -> None:
    missing = Settings(embeddings="minilm", embedding_model_dir=tmp_path / "no-model")
    retrieval = load_retrieval(missing)
    assert retrieval.embedder is None and retrieval.second_stage is None
    assert retrieval.vectors_off == VECTORS_UNAVAILABLE  # no folder, user or runtime error
    assert load_retrieval(Settings(embeddings="none")) == Retrieval()  # off by choice: no why


async def test_asking_for_the_vector_channel_while_it_is_off_says_why() -> None:
    request = SearchRequest(query="x", channels=[ChannelName.VECTOR])
    off = Retrieval(vectors_off="the model folder lacks config.json")
    with pytest.raises(InvalidArgument) as refused:
        await search(NO_DATABASE, request, off)
    assert refused.value.message == "channels: vector is off: the model folder lacks config.json"


def test_an_unknown_channel_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ValidationError, match="one of fulltext, vector, graph"):
        SearchRequest(query="x", channels=["vectors"])  # pyright: ignore[reportArgumentType]  # a client's string

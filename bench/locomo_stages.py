"""Per-stage latency of one ``search``, measured around the product's own calls.

bench.locomo_folds asks ``search`` once per question with its default channels (every one
available) while these timers are installed; each stage's figure is the wall time of its calls
within that one search, summed when a search makes several (search ranks the project's curated
memories first, none in LoCoMo's projects, then falls back to the raw turns: both passes count):

- ``full-text``: graphmem.search.channels.fulltext ``fulltext_rows`` (the Lucene query, its
  widening);
- ``vectors: embed``: graphmem.search.service ``embed_texts`` (the query's vector, the model in
  a worker thread; zero calls without embeddings);
- ``vectors: read``: graphmem.search.channels.vector ``vector_rows`` (the vector index, or the
  scan);
- ``graph``: the ``search/expand_*`` reads and ``graph_ranking``;
- ``fusion``: every ``fuse`` of graphmem.search.channels.fusion;
- ``settle``: the indexer's ``settle`` (this process's pending saves made searchable);
- ``page``: the reads of the page's hits (``search/get_memory_hits``, ``archive/get_raw_turns``);
- ``search``: the whole call through the in-memory MCP client;
- ``rest``: the search less its stages (full-text and the vector read counted once, as the
  longer of the two): the MCP client and server, validation, the models, the event loop.

Full-text and the vector read run at once (asyncio.gather), so their shares overlap; the
timers add a few microseconds per call. Timings stay here, never in tests.
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from bench.harness import quantile_ms, say
from graphmem.retrieval.indexing import Indexer
from graphmem.search import service
from graphmem.search.channels import fulltext, fusion, graph, vector
from graphmem.store import TenantStore

STAGES = (
    "full-text",
    "vectors: embed",
    "vectors: read",
    "graph",
    "fusion",
    "settle",
    "page",
    "search",
)
_AT_ONCE = ("full-text", "vectors: read", "search")  # not summed into ``rest``'s stages
_PAGE_READS = ("search/get_memory_hits", "archive/get_raw_turns")


class StageClock:
    """The stages' time within the current search (``begin`` ... ``end``), per search."""

    def __init__(self) -> None:
        self.current: dict[str, float] = defaultdict(float)
        self.samples: dict[str, list[float]] = {stage: [] for stage in STAGES}

    def add(self, stage: str, seconds: float) -> None:
        self.current[stage] += seconds

    def begin(self) -> None:
        self.current = defaultdict(float)

    def end(self, whole: float) -> None:
        self.current["search"] = whole
        for stage in STAGES:
            self.samples[stage].append(self.current.get(stage, 0.0))


def _timed_async(
    clock: StageClock, stage: str, call: Callable[..., Awaitable[Any]]
) -> Callable[..., Awaitable[Any]]:
    async def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return await call(*args, **kwargs)
        finally:
            clock.add(stage, time.perf_counter() - began)

    return timed


def _timed(clock: StageClock, stage: str, call: Callable[..., Any]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return call(*args, **kwargs)
        finally:
            clock.add(stage, time.perf_counter() - began)

    return timed


def _timed_read(clock: StageClock, read: Callable[..., Awaitable[Any]]) -> Callable[..., Any]:
    async def timed(self: TenantStore, name: str, **params: object) -> Any:
        stage = (
            "graph" if name.startswith("search/expand_") else "page" if name in _PAGE_READS else ""
        )
        began = time.perf_counter()
        try:
            return await read(self, name, **params)
        finally:
            if stage:
                clock.add(stage, time.perf_counter() - began)

    return timed


@contextlib.contextmanager
def stage_timers(clock: StageClock) -> Iterator[None]:
    """The timers installed on the product's functions, removed on exit."""
    patches: list[tuple[Any, str, Any]] = [
        (fulltext, "fulltext_rows", _timed_async(clock, "full-text", fulltext.fulltext_rows)),
        (vector, "vector_rows", _timed_async(clock, "vectors: read", vector.vector_rows)),
        (service, "embed_texts", _timed_async(clock, "vectors: embed", service.embed_texts)),
        (graph, "graph_ranking", _timed(clock, "graph", graph.graph_ranking)),
        (fusion, "fuse", _timed(clock, "fusion", fusion.fuse)),
        (Indexer, "settle", _timed_async(clock, "settle", Indexer.settle)),
        (TenantStore, "read", _timed_read(clock, TenantStore.read)),
    ]
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    try:
        for owner, name, timed in patches:
            setattr(owner, name, timed)
        yield
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)


def rest(samples: dict[str, list[float]]) -> list[float]:
    """Per search, its time less its stages' (full-text and the vector read, which run at
    once, counted as the longer of the two)."""
    whole = samples.get("search") or []
    columns = {stage: samples.get(stage) or [0.0] * len(whole) for stage in STAGES}
    found = []
    for i, total in enumerate(whole):
        by = {stage: column[i] for stage, column in columns.items()}
        at_once = max(by["full-text"], by["vectors: read"])
        staged = sum(v for stage, v in by.items() if stage not in _AT_ONCE) + at_once
        found.append(max(total - staged, 0.0))
    return found


def latency_report(samples: dict[str, list[float]]) -> None:
    """p50 / p95 per stage (ms) and its share of the searches' mean time."""
    samples = {**samples, "rest": rest(samples)}
    whole = samples.get("search") or []
    if not whole:
        say("\n(no stage timings in this cache: ask again with --refresh)")
        return
    mean_whole = statistics.mean(whole)
    say(f"\n== search latency per stage, {len(whole)} searches (default channels), ms ==")
    say(f"{'stage':>16} {'p50':>7} {'p95':>7} {'mean':>7} {'share':>6}")
    for stage in (*STAGES, "rest"):
        found = samples.get(stage) or []
        if not found or not any(found):
            say(f"{stage:>16} {'-':>7} {'-':>7} {'-':>7} {'-':>6}")
            continue
        mean = statistics.mean(found)
        say(
            f"{stage:>16} {quantile_ms(found, 50):7.1f} {quantile_ms(found, 95):7.1f} "
            f"{1000 * mean:7.2f} {100 * mean / mean_whole:5.1f}%"
        )

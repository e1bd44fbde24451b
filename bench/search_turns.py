"""search over the raw archive at 10^4 and 10^5 archived turns (10^6 with --sizes 4 5 6), with
every channel on: p50 / p95 / p99 and each stage's share, in one run.

    python -m bench.search_turns --locomo DIR          # the default model (e5-small-v2)
    GRAPHMEM_EMBEDDINGS=none python -m bench.search_turns --locomo DIR

On a real Neo4j (NEO4J_URI if set, else a managed local Neo4j in a temp folder), a scratch
tenant (purged afterwards). DIR holds the LoCoMo conversations, read in place. One project
holds every turn (the worst case: every turn is in scope), in sessions of 20 turns: the
LoCoMo turns cycled, each with the product's lexical tokens (its day's words too) and, with a
model, a real vector of what the product embeds (the turn with the one before it) for the
first 4,124 (LoCoMo's turns), reused for the copies (the vector index's cost does not depend
on which unit vectors it holds). Then LoCoMo questions through the search domain function
(the query's embedding included), limit 10, default channels: the project has no curated
memory, so search ranks the memories (none), then the raw turns, as an agent's call does.
The stages are bench.locomo_stages'; timings stay in benches.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.harness import BENCH_CATALOG, bench_store, quantile_ms, say, scratch_tenant
from bench.locomo import DATA_ENV, data_files, sessions, turn_text
from bench.locomo_stages import StageClock, latency_report, stage_timers
from graphmem.archive.turns import turn_lexical
from graphmem.core.ids import new_id
from graphmem.core.settings import Settings
from graphmem.embeddings.embedder import Embedder
from graphmem.retrieval.turn_texts import turn_embedding_text
from graphmem.search import service as search
from graphmem.search.models import SearchRequest
from graphmem.store import QueryCatalog, Store
from graphmem.toolkit.retrieval import Retrieval, load_retrieval

SESSION_TURNS = 20
BATCH_SESSIONS = 100  # 2,000 turns per statement
SEARCHES = 300
WARM_UP = 20
BEGIN = datetime(2024, 1, 1, tzinfo=UTC)


def locomo(folder: str | None) -> tuple[list[str], list[str]]:
    """Every turn's text (as the LoCoMo bench archives it) and every question."""
    texts, questions = [], []
    for path in data_files(folder):
        data = json.loads(path.read_text())
        for _, _, items in sessions(data):
            texts += [turn_text(item) for item in items]
        questions += [qa["question"] for qa in data["qa"]]
    return texts, questions


def turn_vectors(texts: list[str], embedder: Embedder | None) -> list[list[float]] | None:
    if embedder is None:
        return None
    began = time.perf_counter()
    said = [BEGIN + timedelta(minutes=n) for n in range(len(texts))]
    embedded = [
        turn_embedding_text(said[n], text, texts[n - 1] if n % SESSION_TURNS else None)
        for n, text in enumerate(texts)
    ]
    vectors = embedder.embed(embedded)
    say(f"embedded {len(texts):,} turn texts in {time.perf_counter() - began:.1f} s")
    return vectors


def session_rows(
    tenant: str, texts: list[str], vectors: list[list[float]] | None, model: str | None, first: int
) -> list[dict[str, Any]]:
    rows = []
    for s in range(first, first + BATCH_SESSIONS):
        turns = []
        for k in range(SESSION_TURNS):
            n = s * SESSION_TURNS + k
            ts = BEGIN + timedelta(minutes=n)
            text = texts[n % len(texts)]
            turns.append(
                {
                    "id": new_id(),
                    "role": "user" if k % 2 == 0 else "assistant",
                    "content": text,
                    "lexical": turn_lexical(tenant, ts, text),
                    "ts": ts.isoformat(),
                    "embedding": vectors[n % len(vectors)] if vectors else None,
                    "model": model,
                }
            )
        rows.append({"id": new_id(), "turns": turns})
    return rows


async def grow(
    seeder: Store,
    tenant: str,
    texts: list[str],
    vectors: list[list[float]] | None,
    model: str | None,
    span: tuple[int, int],
) -> None:
    """The project's archive grown from span[0] turns to span[1]."""
    have, want = span
    for first in range(have // SESSION_TURNS, want // SESSION_TURNS, BATCH_SESSIONS):
        rows = session_rows(tenant, texts, vectors, model, first)
        await seeder.write("search/create_bench_turns", tenant, project="bench", sessions=rows)


async def measure(store: Store, tenant: str, questions: list[str], retrieval: Retrieval) -> None:
    clock, timings = StageClock(), []
    with stage_timers(clock):
        for n in range(SEARCHES + WARM_UP):
            request = SearchRequest(query=questions[n % len(questions)], project="bench", limit=10)
            clock.begin()
            began = time.perf_counter()
            result = await search.search(store.of(tenant), request, retrieval)
            elapsed = time.perf_counter() - began
            if n >= WARM_UP:
                clock.end(elapsed)
                timings.append(elapsed)
            assert result.raw_hits, "the archive must answer"
    say(
        f"  search p50 {quantile_ms(timings, 50):.1f} ms, p95 {quantile_ms(timings, 95):.1f}, "
        f"p99 {quantile_ms(timings, 99):.1f} ({len(timings)} searches)"
    )
    latency_report(clock.samples)


async def main(folder: str | None, exponents: list[int]) -> None:
    retrieval = load_retrieval(Settings())
    name = retrieval.embedder.name if retrieval.embedder else "none"
    say(f"embeddings: {name}{' (' + retrieval.vectors_off + ')' if retrieval.vectors_off else ''}")
    texts, questions = locomo(folder)
    async with bench_store() as store, scratch_tenant(store, "turns") as tenant:
        seeder = copy.copy(store)  # the same driver, the bench-only bulk statement
        seeder.catalog = QueryCatalog(BENCH_CATALOG)
        embedder = retrieval.embedder
        vectors = turn_vectors(texts, embedder)
        model, have = (embedder.model_id if embedder else None), 0
        for exponent in exponents:
            began = time.perf_counter()
            await grow(seeder, tenant, texts, vectors, model, (have, 10**exponent))
            have = 10**exponent
            await store.write("store/await_indexes", "-")
            say(f"\n{10**exponent:,} turns loaded in {time.perf_counter() - began:.1f} s")
            await measure(store, tenant, questions, retrieval)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="search latency over the raw archive")
    parser.add_argument("--locomo", default=os.environ.get(DATA_ENV), help=f"DIR (${DATA_ENV})")
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5], help="powers of ten")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.locomo, arguments.sizes))

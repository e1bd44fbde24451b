"""search latency at 10^3, 10^4 and 10^5 memories, and archive_turns ingest with and without
embeddings, in one run (compare the ratios: these machines are noisy).

    python -m bench.search                      # full-text + graph (no model)
    GRAPHMEM_EMBEDDINGS=minilm python -m bench.search   # + vector channel, + ingest figures

On a real Neo4j (NEO4J_URI if set, else a managed local Neo4j in a temp folder), scratch
tenants (purged afterwards). LoCoMo is read in place.

(a) search: N memories in ONE project (the worst case: every memory is in scope), their texts
    the LoCoMo turns cycled (title: the first words), bulk-loaded by a bench-only statement with
    the product's own lexical tokens. With a model, each memory also gets a vector: real ones for
    the first 4,124 (the LoCoMo turns), the same vectors reused for the copies (computing 10^5
    real vectors would take this machine most of an hour, and the vector index's cost does not
    depend on which unit vectors it holds). Then 200 LoCoMo questions through the search domain
    function (query embedding included), limit 10, default channels; p50/p95 at 10^3, then the
    same tenant grown to 10^4 and to 10^5.
(b) archive_turns: all LoCoMo sessions (one call per session) without embeddings, then into a
    fresh tenant with them; turns per second and the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.archive import conversation_requests
from bench.harness import BENCH_CATALOG, bench_store, quantile_ms, say, scratch_tenant
from bench.locomo import DATA_ENV
from graphmem.archive import service as archive
from graphmem.core.ids import new_id
from graphmem.core.settings import Settings
from graphmem.embeddings.embedder import Embedder, load_embedder
from graphmem.retrieval.indexing import memory_embedding_text, memory_lexical
from graphmem.retrieval.rows import MemorySearchFields
from graphmem.search import service as search
from graphmem.search.models import SearchRequest
from graphmem.store import QueryCatalog, Store
from graphmem.toolkit.retrieval import Retrieval

SIZES = (1_000, 10_000, 100_000)
BATCH = 2_000
SEARCHES = 200
TYPES = ("decision", "bugfix", "discovery", "preference", "procedure", "note")


def locomo_texts(folder: Path) -> tuple[list[str], list[str]]:
    """Every turn's text, and every question, of the LoCoMo files."""
    texts, questions = [], []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text())
        for key, value in data.items():
            if key.startswith("session_") and isinstance(value, list):
                texts += [item["text"] for item in value]
        questions += [qa["question"] for qa in data["qa"]]
    return texts, questions


def memory_rows(
    tenant: str, texts: list[str], vectors: list[list[float]] | None, start: int, stop: int
) -> list[dict[str, Any]]:
    base = datetime(2024, 1, 1, tzinfo=UTC)
    rows = []
    for n in range(start, stop):
        text = texts[n % len(texts)]
        fields: MemorySearchFields = {
            "id": new_id(),
            "type": TYPES[n % len(TYPES)],
            "title": " ".join(text.split()[:6]) or "memory",
            "content": text,
            "topic_key": None,
            "tags": [],
        }
        rows.append(
            {
                **fields,
                "at": (base + timedelta(seconds=n)).isoformat(),
                "lexical": memory_lexical(tenant, fields),
                "embedding": vectors[n % len(vectors)] if vectors else None,
            }
        )
    return rows


async def grow(
    seeder: Store,
    tenant: str,
    texts: list[str],
    vectors: list[list[float]] | None,
    have: int,
    want: int,
) -> None:
    for start in range(have, want, BATCH):
        rows = memory_rows(tenant, texts, vectors, start, min(start + BATCH, want))
        await seeder.write("search/create_bench_memories", tenant, project="bench", memories=rows)


async def latency(
    store: Store, tenant: str, questions: list[str], embedder: Embedder | None
) -> tuple[float, float, float]:
    timings, hits = [], 0
    for n in range(SEARCHES + 10):
        request = SearchRequest(query=questions[n % len(questions)], project="bench", limit=10)
        began = time.perf_counter()
        result = await search.search(store.of(tenant), request, Retrieval(embedder))
        if n >= 10:  # warm-up excluded
            timings.append(time.perf_counter() - began)
            hits += result.count
    return quantile_ms(timings, 50), quantile_ms(timings, 95), hits / SEARCHES


async def search_figures(
    store: Store, seeder: Store, folder: Path, embedder: Embedder | None
) -> None:
    texts, questions = locomo_texts(folder)
    vectors = None
    if embedder is not None:
        began = time.perf_counter()
        vectors = embedder.embed(
            [
                memory_embedding_text(
                    {"type": "note", "title": " ".join(t.split()[:6]), "content": t}
                )
                for t in texts
            ]
        )
        say(f"embedded {len(texts):,} memory texts in {time.perf_counter() - began:.1f} s")
    async with scratch_tenant(store, "search") as tenant:
        have = 0
        for size in SIZES:
            began = time.perf_counter()
            await grow(seeder, tenant, texts, vectors, have, size)
            await store.write("store/await_indexes", "-")
            have = size
            say(f"{size:,} memories loaded in {time.perf_counter() - began:.1f} s")
            p50, p95, mean_hits = await latency(store, tenant, questions, embedder)
            say(f"  search p50 {p50:.1f} ms, p95 {p95:.1f} ms, mean hits {mean_hits:.1f}")


async def ingest_figures(store: Store, folder: Path, embedder: Embedder | None) -> None:
    paths = sorted(folder.glob("*.json"))  # noqa: ASYNC240 - read once, up front
    requests = [r for path in paths for r in conversation_requests(path)]
    turns = sum(len(r.turns) for r in requests)
    rates = {}
    for label, model in (("without embeddings", None), ("with embeddings", embedder)):
        if label == "with embeddings" and model is None:
            break
        async with scratch_tenant(store, "ingest") as tenant:
            began = time.perf_counter()
            for request in requests:
                await archive.archive_turns(store.of(tenant), request, Retrieval(model))
            rates[label] = turns / (time.perf_counter() - began)
            say(f"archive_turns {label}: {turns:,} turns, {rates[label]:.0f} turns/s")
    if len(rates) == 2:
        say(f"  ratio with/without: {rates['with embeddings'] / rates['without embeddings']:.2f}")


async def main(folder: Path) -> None:
    embedder = load_embedder(Settings())
    say(f"embeddings: {embedder.name if embedder else 'none'}")
    async with bench_store() as store:
        seeder = copy.copy(store)  # the same driver, the bench-only bulk statements
        seeder.catalog = QueryCatalog(BENCH_CATALOG)
        await ingest_figures(store, folder, embedder)
        await search_figures(store, seeder, folder, embedder)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="search latency and archive ingest rates")
    parser.add_argument(
        "--locomo", default=os.environ.get(DATA_ENV, ""), help=f"LoCoMo folder (${DATA_ENV})"
    )
    asyncio.run(main(Path(parser.parse_args().locomo)))

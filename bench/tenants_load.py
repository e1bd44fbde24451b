"""bench.tenants' load: the pool of texts and their vectors (the model's when installed, else
random unit vectors), the queries, the tenants' memories bulk-created in interleaved batches,
the wait for the indexes, and the deletion of the bench tenants' memories.
"""

from __future__ import annotations

import asyncio
import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.harness import quantile_ms, say
from bench.scale_loader import MEMORY_TYPES, memory_text, words_of
from bench.search import locomo_texts
from graphmem.core.ids import new_id
from graphmem.core.settings import Settings
from graphmem.embeddings.embedder import Embedder, EmbeddingsUnavailable, load_embedder
from graphmem.retrieval.indexing import memory_embedding_text, memory_lexical
from graphmem.retrieval.rows import MemorySearchFields
from graphmem.store import Store, shaped
from graphmem.store.rows import LabelCountRow

LABEL = "bench-tenants"  # the tenant argument of the bench's database-wide statements
PROJECT = "tenants"
DIMENSIONS = 384
POOL_TEXTS = 400
MIN_WORDS = 8  # a pool text has at least this many words
TITLE_WORDS = 6
OWN_WORDS = 6  # words of its own added to each memory's pool text
NOISE = 0.025  # gaussian sigma per component: cosine ~ 1 / sqrt(1 + 384 * NOISE^2) ~ 0.9
BATCH = 1_000  # memories per UNWIND statement (each with its vector: ~3 MB of parameters)
WARMUP = 3
INDEX_WAIT = 600.0  # seconds the indexes may take to be ONLINE and populated
START = datetime(2025, 1, 1, tzinfo=UTC)


# --- sizes, texts and vectors ------------------------------------------------------------------
def series(max_exp: int) -> list[int]:
    """The 1-2-5 series from 10^2 up to 10^max_exp."""
    return [m * 10**e for e in range(2, max_exp + 1) for m in (1, 2, 5) if m * 10**e <= 10**max_exp]


def unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector))
    return [x / norm for x in vector]


def perturbed(vector: Sequence[float], rng: random.Random) -> list[float]:
    gauss = rng.gauss
    return unit([x + gauss(0.0, NOISE) for x in vector])


def title_of(text: str) -> str:
    return " ".join(text.split()[:TITLE_WORDS])


def pool_texts(folder: Path) -> tuple[list[str], str]:
    """POOL_TEXTS distinct texts spread over LoCoMo's turns; bench.scale's texts without it."""
    if folder.is_dir():
        turns, _ = locomo_texts(folder)
        texts = [t for t in dict.fromkeys(turns) if len(t.split()) >= MIN_WORDS]
        if len(texts) >= POOL_TEXTS:
            step = len(texts) / POOL_TEXTS
            chosen = [texts[int(n * step)] for n in range(POOL_TEXTS)]
            return chosen, f"LoCoMo turns ({folder})"
    texts = [memory_text(n) for n in range(POOL_TEXTS)]
    return texts, f"bench.scale's Zipf texts (no LoCoMo in {folder})"


@dataclass
class KnownVectors:
    """The stand-in embedder without the model: each query's registered vector (its pool
    text's, perturbed), looked up rather than computed."""

    vectors: dict[str, list[float]]
    name: str = "random pool vectors (stand-in)"
    dimensions: int = DIMENSIONS
    model_id: str = "random-pool-vectors"

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        return [self.vectors[text] for text in texts]

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self.embed(texts)


@dataclass
class Corpus:
    texts: list[str]
    source: str
    vectors: list[list[float]]  # the pool texts' vectors
    embedder: Embedder  # what search embeds its query with
    model: str  # a line for the configuration
    queries: list[tuple[str, list[float]]]  # per round: the query and its vector


def corpus(folder: Path, rounds: int) -> Corpus:
    """The pool, its vectors and the queries (with the model when installed)."""
    texts, source = pool_texts(folder)
    rng = random.Random(11)
    picks = [rng.randrange(len(texts)) for _ in range(rounds)]
    queries = [varied(texts[p], rng) for p in picks]
    why = "load_embedder gave none"
    try:
        configured = Settings()
        model = load_embedder(
            configured if configured.embeddings != "none" else Settings(embeddings="minilm")
        )
    except EmbeddingsUnavailable as error:
        model, why = None, str(error)
    if model is None:
        vectors = [unit([rng.gauss(0.0, 1.0) for _ in range(DIMENSIONS)]) for _ in texts]
        query_vectors = [perturbed(vectors[p], rng) for p in picks]
        return Corpus(
            texts,
            source,
            vectors,
            KnownVectors(dict(zip(queries, query_vectors, strict=True))),
            "RANDOM unit vectors, the model is not installed (search's time holds no query "
            f"embedding): {why}",
            list(zip(queries, query_vectors, strict=True)),
        )
    began = time.perf_counter()
    vectors = model.embed(
        [memory_embedding_text({"type": "note", "title": title_of(t), "content": t}) for t in texts]
    )
    seconds = time.perf_counter() - began
    query_vectors, embedding = [], []  # one query at a time, as search embeds it
    for query in queries:
        began = time.perf_counter()
        query_vectors += model.embed_queries([query])
        embedding.append(time.perf_counter() - began)
    return Corpus(
        texts,
        source,
        vectors,
        model,
        f"{model.name}, the pool's {len(texts)} texts embedded in {seconds:.1f} s; each "
        f"memory's vector is its text's plus gaussian noise (sigma {NOISE} a component), "
        f"renormalised; one query's embedding (inside search's time) p50 "
        f"{quantile_ms(embedding[WARMUP:], 50):.1f} ms",
        list(zip(queries, query_vectors, strict=True)),
    )


def varied(text: str, rng: random.Random) -> str:
    """The text with one of its words dropped."""
    words = text.split()
    del words[rng.randrange(len(words))]
    return " ".join(words)


# --- the load ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Tenant:
    index: int
    name: str
    size: int


def memory_rows(tenant: Tenant, start: int, stop: int, pool: Corpus) -> list[dict[str, Any]]:
    rng = random.Random(tenant.index * 10**7 + start)
    rows = []
    for n in range(start, stop):
        p = rng.randrange(len(pool.texts))
        text = pool.texts[p]
        own = " ".join(words_of(tenant.index * 10**7 + n, OWN_WORDS))
        fields: MemorySearchFields = {
            "id": new_id(),
            "type": MEMORY_TYPES[n % len(MEMORY_TYPES)],
            "title": title_of(text),
            "content": f"{text} ({own})",
            "topic_key": None,
            "tags": [],
        }
        rows.append(
            {
                **fields,
                "at": (START + timedelta(seconds=n)).isoformat(),
                "lexical": memory_lexical(tenant.name, fields),
                "embedding": perturbed(pool.vectors[p], rng),
            }
        )
    return rows


async def load(bench: Store, tenants: list[Tenant], pool: Corpus) -> None:
    """Every tenant's memories, the batches ordered by how far into its tenant they are."""
    batches = sorted(
        (start / t.size, t.index, start) for t in tenants for start in range(0, t.size, BATCH)
    )
    total = sum(t.size for t in tenants)
    began = shown = time.perf_counter()
    done = 0
    for _, index, start in batches:
        tenant = tenants[index]
        stop = min(start + BATCH, tenant.size)
        rows = memory_rows(tenant, start, stop, pool)
        await bench.write(
            "search/create_bench_memories", tenant.name, project=PROJECT, memories=rows
        )
        done += stop - start
        if time.perf_counter() - shown >= 30:
            shown = time.perf_counter()
            say(f"  loaded {done:,} of {total:,} memories ({done / (shown - began):.0f}/s)")
    seconds = time.perf_counter() - began
    say(f"loaded {total:,} memories in {seconds:.0f} s ({total / seconds:.0f}/s)")


async def await_indexes(bench: Store) -> None:
    """Until every index is ONLINE and fully populated (SHOW INDEXES, polled)."""
    began = shown = time.perf_counter()
    while rows := await bench.read("tenants/list_unready_indexes", LABEL):
        now = time.perf_counter()
        if now - began > INDEX_WAIT:
            raise RuntimeError(f"indexes not ready after {INDEX_WAIT:.0f} s: {rows}")
        if now - shown >= 10:
            shown = now
            states = ", ".join(
                f"{r['name']} {r['state']} {r['populationPercent']:.0f}%" for r in rows
            )
            say(f"  waiting for the indexes: {states}")
        await asyncio.sleep(1.0)
    say(f"indexes ONLINE and populated after {time.perf_counter() - began:.1f} s")


async def delete(store: Store, bench: Store, tenants: list[Tenant]) -> None:
    began = time.perf_counter()
    for tenant in tenants:
        await bench.bulk_write("tenants/delete_bench_memories", tenant.name)
    seconds = time.perf_counter() - began
    left = 0
    for tenant in tenants:
        rows = shaped(LabelCountRow, await store.read("store/count_tenant_labels", tenant.name))
        left += sum(row["count"] for row in rows)
    say(f"deleted the {len(tenants)} bench tenants in {seconds:.0f} s: {left} nodes left")

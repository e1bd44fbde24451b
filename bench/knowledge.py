"""Knowledge-pipeline figures: enrich_context over real conversation text, and whether the
pipeline tools cost the same on a small store and a large one.

    python -m bench.knowledge            # 100 samples per figure
    python -m bench.knowledge --quick    # the same sizes, 30 samples per figure
    python -m bench.knowledge --locomo DIR   # where the LoCoMo files are (or GRAPHMEM_LOCOMO_DIR)

On a real Neo4j (NEO4J_URI if set, else a managed local Neo4j in a temp folder), each scenario
in its own tenant (purged afterwards):

(a) enrich_context at depth quick, standard and deep, each in a fresh tenant holding 1,000
    facts (bulk-loaded as in (b)) and 1,000 chunks: the first 1,000 turns of the LoCoMo
    conversations (files in name order, sessions in order), one chunk per turn in the paper's
    text form ``(<session date>) <speaker> said, "<text>"`` (plus the image caption), with an
    ``ENRICH_OK`` line so each is enrichable (the data is read in place, never copied).
    Stored through the real add_context_chunk. Reported: the wall time of one whole pass (all
    1,000 chunks: every call of it, each following the last one's continuation, each call
    batches of their own transactions) and per chunk, the stage counters summed over its
    calls, then the wall time of a second pass over the same chunks.
(b) assess_context, extract_candidate_claims, promote_candidate (human_confirmed),
    explain_impact (standard) and build_context_pack (executor, 4,000 tokens) through
    FastMCP's in-memory client, one call at a time, with 10^2, 10^3, 10^4 and 10^5 facts in
    the store (bulk-loaded with UNWIND statements from the bench-only catalog
    ``bench/cypher``: one key slot per fact, 10% of them superseded, confidence 0.3-1.0,
    recorded over the last 90 days). Each size gets fresh LoCoMo chunks to assess and extract,
    and fresh candidate claims to promote (one ``<service> depends on <queue>`` claim per
    synthetic chunk, extracted untimed). p50/p95, the p50 as a multiple of the 10^2 figure
    (flat means the cost does not follow the store's size), the same ratio over the p50 of
    Bolt pings interleaved with the samples, and the database hits of the pack's candidate
    query (PROFILE) at each size.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import neo4j

from bench.harness import (
    BENCH_CATALOG,
    Latency,
    in_memory_client,
    measure,
    quantile_ms,
    say,
    scratch_tenant,
)
from bench.locomo import DATA_ENV, data_files
from graphmem.knowledge import chunks, claims, enrich, packs
from graphmem.knowledge.models.chunks import AddContextChunkRequest
from graphmem.knowledge.models.packs import EnrichContextRequest, EnrichDepth
from graphmem.knowledge.models.pipeline import ExtractClaimsRequest
from graphmem.store import QueryCatalog, Store, TenantStore
from tests.neo4j_endpoint import Endpoint, find_endpoint

SIZES = (10**2, 10**3, 10**4, 10**5)
ENRICH_CHUNKS = 1_000
ENRICH_FACTS = 1_000  # already in the store when enrich_context runs (packs, deep's walks)
DEPTHS = ("quick", "standard", "deep")
TOOLS = (
    "assess_context",
    "extract_candidate_claims",
    "promote_candidate",
    "explain_impact",
    "build_context_pack",
)
PROJECT = "bench"
BATCH = 5_000
SUPERSEDED_SHARE = 0.1


@dataclass(frozen=True)
class Plan:
    samples: int
    warmup: int


FULL = Plan(100, 10)
QUICK = Plan(30, 5)


# --- LoCoMo turns --------------------------------------------------------------------------------
def locomo_turns(folder: Path) -> list[str]:
    """Every turn of every conversation, in file and session order, in the paper's text form."""
    turns: list[str] = []
    for path in sorted(folder.glob("*.json")):
        conversation = json.loads(path.read_text())
        sessions = sorted(
            (int(match.group(1)), key)
            for key in conversation
            if (match := re.fullmatch(r"session_(\d+)", key))
            and isinstance(conversation[key], list)
        )
        for number, key in sessions:
            date = conversation.get(f"session_{number}_date_time", "")
            for turn in conversation[key]:
                text = f'({date}) {turn["speaker"]} said, "{turn["text"]}"'
                if turn.get("blip_caption"):
                    text += f" and shared {turn['blip_caption']}"
                turns.append(text)
    return turns


def chunk_body(turn: str) -> str:
    return f"{turn}\nENRICH_OK"


async def add_chunks(store: Store, tenant: str, bodies: list[str]) -> list[str]:
    ids = []
    for body in bodies:
        added = await chunks.add_context_chunk(
            store.of(tenant), AddContextChunkRequest(project=PROJECT, body=body)
        )
        ids.append(added.chunk.id)
    return ids


# --- (a) enrich_context --------------------------------------------------------------------------
@dataclass(frozen=True)
class EnrichFigure:
    depth: str
    load_seconds: float
    seconds: float
    second_run_seconds: float
    counters: dict[str, int]
    truncated: bool


async def enrich_pass(db: TenantStore, depth: EnrichDepth) -> tuple[dict[str, int], bool]:
    """One whole enrich_context pass (every call of it, following its continuations), as the
    tool runs it with the default policy: its stages' counters summed, and whether a bound
    left work undone."""
    counters: Counter[str] = Counter()
    truncated, continuation = False, None
    while True:
        request = EnrichContextRequest(depth=depth, continuation=continuation)
        result = await enrich.enrich_context(db, request, "manual")
        for step in result.steps:
            counters.update(step)
        truncated = truncated or result.truncated
        if result.continuation is None:
            return dict(counters), truncated
        continuation = result.continuation


async def enrich_figures(store: Store, seeder: Store, turns: list[str]) -> list[EnrichFigure]:
    figures = []
    for depth in DEPTHS:
        async with scratch_tenant(store, f"enrich-{depth}") as tenant:
            began = time.perf_counter()
            await load_facts(seeder, tenant, 0, ENRICH_FACTS)
            await add_chunks(store, tenant, [chunk_body(t) for t in turns[:ENRICH_CHUNKS]])
            loaded = time.perf_counter() - began
            began = time.perf_counter()
            counters, truncated = await enrich_pass(store.of(tenant), depth)
            seconds = time.perf_counter() - began
            began = time.perf_counter()
            await enrich_pass(store.of(tenant), depth)
            again = time.perf_counter() - began
        figure = EnrichFigure(depth, loaded, seconds, again, counters, truncated)
        say(
            f"enrich_context {depth}: {seconds:.2f} s for {ENRICH_CHUNKS:,} chunks "
            f"({seconds / ENRICH_CHUNKS * 1000:.2f} ms per chunk), second run {again:.2f} s; "
            f"{counters} (chunks stored in {loaded:.1f} s)"
        )
        figures.append(figure)
    return figures


# --- (b) tools against store size ----------------------------------------------------------------
async def load_facts(seeder: Store, tenant: str, start: int, stop: int) -> list[str]:
    """Facts start..stop-1; returns the ids of the active ones."""
    picks = random.Random(stop)
    now = datetime.now(UTC)
    rows = []
    for i in range(start, stop):
        status = "superseded" if picks.random() < SUPERSEDED_SHARE else "active"
        rows.append(
            {
                "id": f"{tenant}-f{i}",
                "key_id": f"{tenant}-k{i}",
                "key": f"service.{i}.setting",
                "value_json": json.dumps(f"value {i} of the {picks.choice(WORDS)} service"),
                "status": status,
                "confidence": round(picks.uniform(0.3, 1.0), 3),
                "recorded_at": (now - timedelta(days=picks.uniform(0, 90))).isoformat(),
            }
        )
    for first in range(0, len(rows), BATCH):
        await seeder.write(
            "knowledge/create_bench_facts",
            tenant,
            facts=rows[first : first + BATCH],
            project=PROJECT,
            now=now.isoformat(),
        )
    return [row["id"] for row in rows if row["status"] == "active"]


WORDS = ("billing", "export", "ingest", "search", "auth", "mapping", "audit", "sync", "report")


async def claim_ids(store: Store, tenant: str, size: int, count: int) -> list[str]:
    """``count`` fresh candidate claims (one per synthetic chunk), extracted untimed."""
    bodies = [f"Service s{size}x{i} depends on queue q{size}x{i}.\nENRICH_OK" for i in range(count)]
    ids = []
    for chunk_id in await add_chunks(store, tenant, bodies):
        extracted = await claims.extract_candidate_claims(
            store.of(tenant), ExtractClaimsRequest(chunk_ref=chunk_id)
        )
        ids.extend(item.claim_id for item in extracted.claims)
    assert len(ids) == count, "each synthetic chunk yields one claim"
    return ids


async def profile_candidates(driver: neo4j.AsyncDriver, store: Store, tenant: str) -> int:
    """Database hits of the pack's candidate query (as build_context_pack runs it)."""
    caps = packs.caps_for(4000)
    params = {
        "tenant": tenant,
        "now": datetime.now(UTC).isoformat(),
        "workstream_id": None,
        "linked_limit": packs.LINKED_CHUNKS,
        "body_chars": packs.BODY_CHARS,
        **packs.pool_sizes(caps, False),
    }
    text = "PROFILE " + store.catalog["knowledge/list_pack_candidates"].text
    async with driver.session() as session:
        result = await session.run(text, params)  # type: ignore[arg-type]  # catalog text
        summary = await result.consume()
    hits, pending = 0, [summary.profile] if summary.profile else []
    while pending:
        step = pending.pop()
        hits += int(step.get("dbHits", 0))
        pending.extend(step.get("children", []))
    return hits


@dataclass(frozen=True)
class ScaleFigure:
    size: int
    latencies: dict[str, Latency]
    candidate_db_hits: int


async def measure_tools(
    store: Store, tenant: str, size: int, arguments: dict[str, list[dict[str, Any]]], plan: Plan
) -> dict[str, Latency]:
    """Each tool, one call at a time, call i with arguments[tool][i]."""
    latencies: dict[str, Latency] = {}
    async with in_memory_client(store, tenant) as client:
        await client.call_tool("build_context_pack", {})  # a pack for impact walks to reach
        for name in TOOLS:

            async def one(i: int, name: str = name) -> None:
                result = await client.call_tool(name, arguments[name][i])
                assert result.structured_content is not None

            latency = await measure(
                f"{name}, {size:,} facts", one, plan.samples, plan.warmup, store
            )
            latencies[name] = latency
            say(
                f"{latency.name}: p50 {latency.p50:.2f} ms, p95 {latency.p95:.2f} ms "
                f"(interleaved Bolt p50 {quantile_ms(latency.bolt, 50):.2f} ms)"
            )
    return latencies


async def scale_figures(
    store: Store, seeder: Store, driver: neo4j.AsyncDriver, turns: list[str], plan: Plan
) -> list[ScaleFigure]:
    figures = []
    per_size = plan.samples + plan.warmup
    async with scratch_tenant(store, "knowledge-scale") as tenant:
        active: list[str] = []
        loaded = 0
        for n, size in enumerate(SIZES):
            began = time.perf_counter()
            active += await load_facts(seeder, tenant, loaded, size)
            loaded = size
            offset = ENRICH_CHUNKS + n * per_size
            bodies = [chunk_body(turn) for turn in turns[offset : offset + per_size]]
            chunk_ids = await add_chunks(store, tenant, bodies)
            to_promote = await claim_ids(store, tenant, size, per_size)
            seconds = time.perf_counter() - began
            say(f"{size:,} facts ({len(active):,} active), setup {seconds:.1f} s")
            picks = random.Random(-size)
            arguments = {
                "assess_context": [{"chunk_ref": chunk_id} for chunk_id in chunk_ids],
                "extract_candidate_claims": [{"chunk_ref": chunk_id} for chunk_id in chunk_ids],
                "promote_candidate": [{"claim_id": claim_id} for claim_id in to_promote],
                "explain_impact": [{"source_ref": picks.choice(active)} for _ in range(per_size)],
                "build_context_pack": [{} for _ in range(per_size)],
            }
            latencies = await measure_tools(store, tenant, size, arguments, plan)
            hits = await profile_candidates(driver, store, tenant)
            say(f"pack candidate query at {size:,} facts: {hits:,} db hits")
            figures.append(ScaleFigure(size, latencies, hits))
    return figures


# --- report --------------------------------------------------------------------------------------
def report(enriched: list[EnrichFigure], scaled: list[ScaleFigure]) -> None:
    say(f"\n(a) enrich_context over {ENRICH_CHUNKS:,} LoCoMo turns, one whole pass per run")
    say(
        f"{'depth':>9} {'wall s':>8} {'ms/chunk':>9} {'2nd run s':>10} {'assessed':>9} "
        f"{'claims':>7} {'promoted':>9} {'packs':>6} {'impacts':>8}"
    )
    for figure in enriched:
        c = figure.counters
        say(
            f"{figure.depth:>9} {figure.seconds:>8.2f} "
            f"{figure.seconds / ENRICH_CHUNKS * 1000:>9.2f} {figure.second_run_seconds:>10.2f} "
            f"{c.get('assess', 0):>9} {c.get('claims_extracted', 0):>7} "
            f"{c.get('claims_promoted', 0):>9} {1 + c.get('task_packs_with_context', 0):>6} "
            f"{c.get('impacts_analyzed', 0):>8}"
        )
    base = scaled[0]
    say("\n(b) tool latency against facts in the store (in-memory MCP client)")
    say(
        f"{'tool':<26} {'facts':>8} {'p50 ms':>8} {'p95 ms':>8} {'x 10^2':>7} "
        f"{'Bolt p50':>9} {'(x 10^2)':>9}"
    )
    for name in TOOLS:
        reference = base.latencies[name]
        base_bolts = reference.p50 / quantile_ms(reference.bolt, 50)
        for figure in scaled:
            latency = figure.latencies[name]
            bolt = quantile_ms(latency.bolt, 50)
            say(
                f"{name:<26} {figure.size:>8,} {latency.p50:>8.2f} {latency.p95:>8.2f} "
                f"{latency.p50 / reference.p50:>7.2f} {bolt:>9.2f} "
                f"{latency.p50 / bolt / base_bolts:>9.2f}"
            )
    say(
        "pack candidate query db hits: "
        + ", ".join(f"{f.size:,}: {f.candidate_db_hits:,}" for f in scaled)
    )
    say(
        "x 10^2: p50 over the 10^2 figure's p50; (x 10^2): the same ratio measured in Bolt "
        "pings interleaved with the samples (robust to the machine's load changing)."
    )


# --- main ----------------------------------------------------------------------------------------
async def run(endpoint: Endpoint, plan: Plan, locomo: Path) -> None:
    turns = locomo_turns(locomo)
    needed = ENRICH_CHUNKS + len(SIZES) * (plan.samples + plan.warmup)
    if len(turns) < needed:
        raise SystemExit(f"{locomo} holds {len(turns)} turns; the benchmark needs {needed}")
    say(f"LoCoMo: {len(turns):,} turns from {locomo}")
    store = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    seeder = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    seeder.catalog = QueryCatalog(BENCH_CATALOG)  # bulk setup only
    driver = neo4j.AsyncGraphDatabase.driver(
        endpoint.uri, auth=(endpoint.user, endpoint.password), notifications_min_severity="OFF"
    )
    try:
        await store.apply_schema()
        enriched = await enrich_figures(store, seeder, turns)
        scaled = await scale_figures(store, seeder, driver, turns, plan)
        report(enriched, scaled)
    finally:
        await driver.close()
        await seeder.close()
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description="knowledge pipeline: enrich and tool scaling")
    parser.add_argument("--quick", action="store_true", help="fewer samples per figure")
    parser.add_argument("--locomo", help=f"folder of the LoCoMo JSON files (default: ${DATA_ENV})")
    args = parser.parse_args()
    plan = QUICK if args.quick else FULL
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch, find_endpoint(Path(scratch)) as endpoint:
        say(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, Neo4j: {endpoint.origin}")
        asyncio.run(run(endpoint, plan, data_files(args.locomo)[0].parent))
    say(f"total {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()

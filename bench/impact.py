"""explain_impact figures: does a deep walk cost the same on a small store and a large one?

    python -m bench.impact            # 10^3, 10^4 and 10^5 nodes, 200 samples per figure
    python -m bench.impact --quick    # the same sizes, 60 samples per figure

For each size N, in its own tenant (purged afterwards) on a real Neo4j (NEO4J_URI if set,
else a managed local Neo4j in a temp folder): N/4 external impact targets and 3N/4 facts,
each fact with OUT_DEGREE IMPACTS links to random other facts and one to a random target
(scores 0.3-1.0), written with bulk UNWIND statements from the bench-only catalog
``bench/cypher``. Then explain_impact at depth deep (5 hops) from random facts, one call at a
time, through FastMCP's in-memory client and as a direct domain call: p50/p95, the p50 as a
multiple of the 10^3 figure (flat means the cost follows the neighbourhood, not the store),
and the mean number of targets a walk reports (the neighbourhood's size, comparable across
sizes). Each figure also gives the p50 of Bolt pings interleaved with its samples.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.harness import (
    BENCH_CATALOG,
    Latency,
    in_memory_client,
    measure,
    quantile_ms,
    say,
    scratch_tenant,
)
from graphmem.impact import service as impact
from graphmem.impact.models import EXTERNAL_TARGETS, ExplainImpactRequest
from graphmem.store import QueryCatalog, Store
from tests.neo4j_endpoint import Endpoint, find_endpoint

SIZES = (10**3, 10**4, 10**5)
OUT_DEGREE = 2  # fact -> fact links per fact (plus one fact -> target link)
BATCH = 5_000


@dataclass(frozen=True)
class Plan:
    samples: int
    warmup: int


FULL = Plan(200, 20)
QUICK = Plan(60, 10)


@dataclass(frozen=True)
class Figure:
    size: int
    client: Latency
    domain: Latency
    mean_targets: float
    truncated: int


# --- the graph -----------------------------------------------------------------------------------
def fact_id(tenant: str, i: int) -> str:
    return f"{tenant}-f{i}"  # fact ids are unique across tenants


async def build(seeder: Store, tenant: str, size: int) -> tuple[list[str], float]:
    """Write a graph of ``size`` nodes; return its fact ids and the seconds it took."""
    began = time.perf_counter()
    picks = random.Random(size)
    now = "2026-01-01T00:00:00+00:00"
    targets = [
        {"kind": EXTERNAL_TARGETS[i % len(EXTERNAL_TARGETS)], "ref": f"t{i}"}
        for i in range(size // 4)
    ]
    facts = [{"id": fact_id(tenant, i), "key": f"k{i}"} for i in range(size - len(targets))]
    fact_links = [
        {
            "id": f"{tenant}-l{i}-{j}",
            "source": fact["id"],
            "target": facts[(i + picks.randrange(1, len(facts))) % len(facts)]["id"],
            "type": "informs",
            "score": round(picks.uniform(0.3, 1.0), 3),
        }
        for i, fact in enumerate(facts)
        for j in range(OUT_DEGREE)
    ]
    target_links = []
    for i, fact in enumerate(facts):
        target = picks.choice(targets)
        target_links.append(
            {
                "id": f"{tenant}-t{i}",
                "source": fact["id"],
                "kind": target["kind"],
                "target": target["ref"],
                "type": "risks",
                "score": round(picks.uniform(0.3, 1.0), 3),
            }
        )
    for name, key, rows in (
        ("impact/create_bench_facts", "facts", facts),
        ("impact/create_bench_targets", "targets", targets),
        ("impact/link_bench_facts", "links", fact_links),
        ("impact/link_bench_targets", "links", target_links),
    ):
        for start in range(0, len(rows), BATCH):
            await seeder.write(name, tenant, now=now, **{key: rows[start : start + BATCH]})
    return [fact["id"] for fact in facts], time.perf_counter() - began


# --- measuring -----------------------------------------------------------------------------------
async def measure_size(store: Store, seeder: Store, size: int, plan: Plan) -> Figure:
    async with scratch_tenant(store, f"impact{size}") as tenant:
        fact_ids, seconds = await build(seeder, tenant, size)
        say(
            f"{size:,} nodes: {len(fact_ids):,} facts, {size - len(fact_ids):,} targets, "
            f"{len(fact_ids) * (OUT_DEGREE + 1):,} links, written in {seconds:.1f} s"
        )
        picks = random.Random(-size)
        sources = [picks.choice(fact_ids) for _ in range(plan.samples + plan.warmup)]
        reported: list[int] = []
        truncated = 0

        async def domain(i: int) -> None:
            nonlocal truncated
            request = ExplainImpactRequest(source_ref=sources[i], depth="deep")
            result = await impact.explain_impact(store.of(tenant), request)
            reported.append(result.total_impacts)
            truncated += result.truncated

        async with in_memory_client(store, tenant) as client:

            async def tool(i: int) -> None:
                arguments: dict[str, Any] = {"source_ref": sources[i], "depth": "deep"}
                result = await client.call_tool("explain_impact", arguments)
                assert result.structured_content is not None
                assert result.structured_content["max_depth"] == 5

            via_client = await measure(
                f"in-memory explain_impact deep, {size:,} nodes", tool, *_timing(plan), store
            )
        via_domain = await measure(
            f"domain explain_impact deep, {size:,} nodes", domain, *_timing(plan), store
        )
    return Figure(size, via_client, via_domain, statistics.mean(reported), truncated)


def _timing(plan: Plan) -> tuple[int, int]:
    return plan.samples, plan.warmup


def report(figures: list[Figure]) -> None:
    base = {figure.size: figure for figure in figures}[SIZES[0]]
    say(
        f"\n{'nodes':>8} {'path':>9} {'p50 ms':>8} {'p95 ms':>8} {'x 10^3':>7} "
        f"{'Bolt p50':>9} {'x Bolt':>7} {'(x 10^3)':>9} {'targets':>8}"
    )
    for figure in figures:
        for path, latency, reference in (
            ("in-memory", figure.client, base.client),
            ("domain", figure.domain, base.domain),
        ):
            bolt = quantile_ms(latency.bolt, 50)
            in_bolts = latency.p50 / bolt
            base_in_bolts = reference.p50 / quantile_ms(reference.bolt, 50)
            say(
                f"{figure.size:>8,} {path:>9} {latency.p50:>8.2f} {latency.p95:>8.2f} "
                f"{latency.p50 / reference.p50:>7.2f} {bolt:>9.2f} {in_bolts:>7.1f} "
                f"{in_bolts / base_in_bolts:>9.2f} {figure.mean_targets:>8.1f}"
            )
    say(
        "x 10^3: p50 over the 10^3 figure's p50; x Bolt: p50 over the p50 of the Bolt pings "
        "interleaved with the samples (robust to the machine's load changing), (x 10^3) its "
        "ratio to the 10^3 figure's."
    )
    if any(figure.truncated for figure in figures):
        say("some walks were truncated by a bound: " + str([f.truncated for f in figures]))


# --- main ----------------------------------------------------------------------------------------
async def run(endpoint: Endpoint, plan: Plan) -> None:
    store = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    seeder = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    seeder.catalog = QueryCatalog(BENCH_CATALOG)  # bulk setup only
    try:
        await store.apply_schema()
        figures = []
        for size in SIZES:
            figure = await measure_size(store, seeder, size, plan)
            for latency in (figure.client, figure.domain):
                say(
                    f"{latency.name}: p50 {latency.p50:.2f} ms, p95 {latency.p95:.2f} ms "
                    f"(n={len(latency.seconds)}, interleaved Bolt p50 "
                    f"{quantile_ms(latency.bolt, 50):.2f} ms), "
                    f"{figure.mean_targets:.1f} targets per walk"
                )
            figures.append(figure)
        report(figures)
    finally:
        await seeder.close()
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description="explain_impact latency against store size")
    parser.add_argument("--quick", action="store_true", help="fewer samples per figure")
    args = parser.parse_args()
    plan = QUICK if args.quick else FULL
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch, find_endpoint(Path(scratch)) as endpoint:
        say(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, Neo4j: {endpoint.origin}")
        asyncio.run(run(endpoint, plan))
    say(f"total {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()

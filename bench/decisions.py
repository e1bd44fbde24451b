"""Decisions figures: what evaluating reopen rules costs as decisions grow, and what pushing
signals adds to a fact write.

    python -m bench.decisions            # 10^3 and 10^4 decisions, three rules each
    python -m bench.decisions --quick    # fewer samples

On a real Neo4j (NEO4J_URI if set, else a managed local Neo4j in a temp folder):

1. review_decisions in a tenant holding 10^3, then 10^4 decisions with three reopen rules
   each (on 300 keys with current facts; a few percent breach), after one maintain (the full
   evaluation, which opens the signals), through FastMCP's in-memory client: p50/p95, and
   the 10^4 / 10^3 ratio (it reads the due set from state, so it should follow the due
   count, not the rules);
2. record_fact on a key watched by ~100 decisions (their rules are re-evaluated and their
   signals synced in the write's transaction) against record_fact on an unwatched key.

The decisions are loaded with record_decision's own queries (``decisions._create``), 500 per
transaction without history events: a shortcut for the load only; every measured call goes
through the tools.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.harness import Latency, in_memory_client, measure, say, scratch_tenant
from graphmem.core.ids import new_id
from graphmem.decisions import service as decisions
from graphmem.decisions.models import RecordDecisionRequest
from graphmem.facts import service as facts
from graphmem.facts.models import RecordFactRequest
from graphmem.history.write_path import Write, write
from graphmem.store import Store
from tests.neo4j_endpoint import Endpoint, find_endpoint

PROJECT = "bench"
KEYS = 300
BATCH = 500


def key_name(i: int) -> str:
    return f"metric-{i % KEYS}"


def decision_request(rng: random.Random, i: int) -> RecordDecisionRequest:
    """Three rules on random keys: latency-like thresholds, a range, and a membership test."""
    rules = [
        {
            "key": key_name(rng.randrange(KEYS)),
            "operator": "greater_than",
            "value": 980,
            "unit": "ms",
        },
        {
            "key": key_name(rng.randrange(KEYS)),
            "operator": "between",
            "value": [0, 5],
            "unit": "ms",
        },
        {"key": key_name(rng.randrange(KEYS)), "operator": "in", "value": [1, 2, 3]},
    ]
    return RecordDecisionRequest.model_validate(
        {
            "project": PROJECT,
            "title": f"decision {i}",
            "choice": "keep the current design",
            "alternatives": [{"title": "the other design", "reopen_when": rules}],
        }
    )


async def load_facts(store: Store, tenant: str) -> None:
    for i in range(KEYS):  # values 0..999 ms: few rules breach
        request = RecordFactRequest(project=PROJECT, key=key_name(i), value=(i * 37) % 1000)
        await facts.record_fact(store.of(tenant), request)


async def load_decisions(store: Store, tenant: str, start: int, count: int, seed: int) -> None:
    rng = random.Random(seed)
    requests = [decision_request(rng, i) for i in range(start, start + count)]
    for offset in range(0, len(requests), BATCH):
        batch = requests[offset : offset + BATCH]

        async def work(w: Write, batch: list[RecordDecisionRequest] = batch) -> None:
            for request in batch:
                await decisions._create(w, new_id(), request)

        await write(store.of(tenant), "bench_load_decisions", work)


async def review_figures(store: Store, samples: int) -> list[Latency]:
    figures: list[Latency] = []
    async with scratch_tenant(store, "decisions") as tenant:
        await load_facts(store, tenant)
        loaded = 0
        async with in_memory_client(store, tenant) as client:
            for target in (10**3, 10**4):
                began = time.perf_counter()
                await load_decisions(store, tenant, loaded, target - loaded, seed=target)
                say(f"loaded {target - loaded} decisions in {time.perf_counter() - began:.1f} s")
                loaded = target
                began = time.perf_counter()
                upkeep = await client.call_tool("maintain", {})  # the full evaluation
                seconds = time.perf_counter() - began
                content: dict[str, Any] = (upkeep.structured_content or {})["review"]
                say(
                    f"  maintain: {content['evaluated_decisions']} decisions, "
                    f"{content['evaluated_rules']} rules, verdicts {content['verdicts']}, "
                    f"{len(content['signals_opened'])} signals opened, in {seconds:.1f} s"
                )
                summary = await client.call_tool("review_decisions", {"limit": 1})
                due = (summary.structured_content or {})["due_total"]
                say(f"  review_decisions: {due} due")

                async def review(_: int) -> None:
                    result = await client.call_tool("review_decisions", {"limit": 50})
                    assert not result.is_error, result.content

                figure = await measure(f"review_decisions @ {target} decisions", review, samples, 2)
                say(f"{figure.name}: p50 {figure.p50:.1f} ms, p95 {figure.p95:.1f} ms")
                figures.append(figure)
    small, large = figures
    say(f"10^4 / 10^3 decisions: p50 x{large.p50 / small.p50:.1f} (10x the rules and due)")
    return figures


async def push_figures(store: Store, samples: int) -> None:
    async with scratch_tenant(store, "push") as tenant:
        await load_facts(store, tenant)
        await load_decisions(store, tenant, 0, 10_000, seed=1)  # ~100 decisions per key
        async with in_memory_client(store, tenant) as client:

            async def watched(i: int) -> None:
                arguments = {"project": PROJECT, "key": key_name(7), "value": i % 900}
                result = await client.call_tool("record_fact", arguments)
                assert not result.is_error, result.content

            async def unwatched(i: int) -> None:
                arguments = {"project": PROJECT, "key": "nobody-watches", "value": i}
                result = await client.call_tool("record_fact", arguments)
                assert not result.is_error, result.content

            plain = await measure("record_fact, unwatched key", unwatched, samples, 5)
            pushed = await measure("record_fact, key watched by ~100", watched, samples, 5)
    for figure in (plain, pushed):
        say(f"{figure.name}: p50 {figure.p50:.1f} ms, p95 {figure.p95:.1f} ms")
    say(f"push overhead: p50 x{pushed.p50 / plain.p50:.2f}")


async def run(endpoint: Endpoint, quick: bool) -> None:
    store = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    try:
        await store.apply_schema()
        await review_figures(store, 5 if quick else 15)
        await push_figures(store, 30 if quick else 100)
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description="Decisions figures")
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    options = parser.parse_args()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch, find_endpoint(Path(scratch)) as endpoint:
        say(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, Neo4j: {endpoint.origin}")
        asyncio.run(run(endpoint, options.quick))
    say(f"total {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()

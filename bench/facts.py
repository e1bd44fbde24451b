"""Facts figures: what record_fact and current_state cost, measured against a bare Bolt round trip.

    python -m bench.facts                      # full run; 10^5 facts if their load fits 360 s
    python -m bench.facts --load-budget 1200   # allow a longer load of 10^5 facts
    python -m bench.facts --quick              # fewer samples, scale stops at 10^4 facts

Measures, on a real Neo4j (NEO4J_URI if set, else a managed local Neo4j in a temp folder):

1. the bare Bolt round trip (``store.ping()``, one auto-commit ``RETURN 1``) and one minimal
   write commit (``history/lock_head``), p50/p95;
2. record_fact and current_state through FastMCP's in-memory client, p50/p95 and as a
   multiple of the Bolt p50;
3. the same two tools over streamable HTTP (``graphmem serve --transport http``, official MCP
   SDK client, one session);
4. writes per second with 8 concurrent writers, on one hot key and spread over 1,000 keys;
5. record_fact and current_state latency at 10^3, 10^4 (and 10^5) stored facts, loaded with
   concurrent domain-level ``facts.record_fact`` calls; 10^5 only when 2,000 calibration
   writes project its load within the budget.

Every scenario uses its own tenant, purged afterwards. Prints one line per figure, then a table.
Latencies are wall-clock milliseconds, taken one call at a time. Each figure is given as a
multiple of the run's Bolt p50 and of the p50 of Bolt pings interleaved with its own samples;
the latter stays comparable when the machine's load changes during the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import mcp

from bench.facts_calls import (
    WRITERS,
    InFlight,
    concurrently,
    cycling,
    domain_record,
    sdk_calls,
    tool_calls,
)
from bench.harness import Latency, in_memory_client, measure, quantile_ms, say, scratch_tenant
from graphmem.store import Store
from tests.app.helpers import clean_env, serving_http
from tests.neo4j_endpoint import Endpoint, find_endpoint

CALIBRATION_WRITES = 2_000


@dataclass(frozen=True)
class Plan:
    samples: int  # latency samples per figure (Bolt, in-memory, scale)
    http_samples: int
    warmup: int
    writes: int  # total writes per concurrency scenario
    scale_targets: tuple[int, ...]
    load_budget: float  # seconds allowed for the load up to the last target

    @property
    def timing(self) -> tuple[int, int]:
        return self.samples, self.warmup


FULL = Plan(300, 200, 20, 800, (10**3, 10**4, 10**5), 360.0)
QUICK = Plan(100, 60, 10, 200, (10**3, 10**4), 0.0)


# --- the report -------------------------------------------------------------------------------
@dataclass
class Report:
    latencies: list[Latency] = field(default_factory=list)
    rates: list[tuple[str, float]] = field(default_factory=list)
    bolt_p50: float = 0.0

    def latency(self, figure: Latency) -> Latency:
        self.latencies.append(figure)
        line = f"{figure.name}: p50 {figure.p50:.2f} ms, p95 {figure.p95:.2f} ms"
        line += f" (n={len(figure.seconds)})"
        if self.bolt_p50:
            line += f" = {figure.p50 / self.bolt_p50:.1f}x Bolt p50"
        if figure.bolt:
            line += f", {figure.local_ratio}x interleaved Bolt p50"
            line += f" ({quantile_ms(figure.bolt, 50):.2f} ms)"
        say(line)
        return figure

    def rate(self, name: str, per_second: float) -> None:
        self.rates.append((name, per_second))
        say(f"{name}: {per_second:.0f} writes/s")

    def table(self) -> None:
        names = [f.name for f in self.latencies] + [name for name, _ in self.rates]
        width = max(map(len, names)) + 2
        say(f"\n{'figure':<{width}}{'p50 ms':>9}{'p95 ms':>9}{'x Bolt':>8}{'x inter.':>10}")
        for f in self.latencies:
            ratio = f.p50 / self.bolt_p50
            say(f"{f.name:<{width}}{f.p50:>9.2f}{f.p95:>9.2f}{ratio:>8.1f}{f.local_ratio:>10}")
        for name, per_second in self.rates:
            say(f"{name:<{width}}{per_second:>9.0f} writes/s")


# --- warm-up -----------------------------------------------------------------------------------
async def warm_up(store: Store, plan: Plan) -> None:
    """Untimed tool calls (so the domain too), so that the first figures do not pay for a cold
    JVM or a first use of the client path."""
    count = 10 * plan.warmup
    began = time.perf_counter()
    async with scratch_tenant(store, "warmup") as tenant, in_memory_client(store, tenant) as client:
        record, state = tool_calls(client, cycling(100))
        await concurrently(record, count, 2)
        await concurrently(state, count, 2)
    say(
        f"warm-up (in no figure): {count} record_fact and {count} current_state calls "
        f"in {time.perf_counter() - began:.1f} s"
    )


# --- 1. Bolt -------------------------------------------------------------------------------------
async def bolt_figures(store: Store, plan: Plan, report: Report) -> tuple[Latency, Latency]:
    """The Bolt round trip, then one minimal write transaction (one MERGE or MATCH, one SET,
    one commit): with a fixed token ('x', a SET that changes nothing after the first call) and
    with a new token each time (a real write)."""
    ping = await measure("Bolt round trip (RETURN 1)", lambda _: store.ping(), *plan.timing)
    report.bolt_p50 = report.latency(ping).p50
    async with scratch_tenant(store, "commit") as tenant:
        # The tenant's first write creates its History head; lock_head then SETs its token.
        await domain_record(store, tenant, cycling(1))(0)

        async def lock_head(token: str) -> None:
            rows = await store.write(
                "history/lock_head", tenant, genesis_hash="0" * 64, lock_token=token
            )
            if not rows:
                raise RuntimeError("history/lock_head found no History head")

        same = await measure(
            "commit, lock_head token 'x'", lambda _: lock_head("x"), *plan.timing, store
        )
        new = await measure(
            "commit, lock_head new token", lambda i: lock_head(str(i)), *plan.timing, store
        )
    return report.latency(same), report.latency(new)


# --- 2. in-memory client -------------------------------------------------------------------------
async def in_memory_figures(
    store: Store, plan: Plan, report: Report, commits: tuple[Latency, Latency]
) -> None:
    async with scratch_tenant(store, "inmem") as tenant, in_memory_client(store, tenant) as client:
        record, state = tool_calls(client, cycling(100))
        recorded = await measure("in-memory record_fact", record, *plan.timing, store)
        read = await measure("in-memory current_state", state, *plan.timing, store)
    report.latency(recorded)
    report.latency(read)
    for label, one_commit in zip(("'x'", "new"), commits, strict=True):
        say(
            f"record_fact p50 / (Bolt p50 + one commit, token {label}) = "
            f"{recorded.p50 / (report.bolt_p50 + one_commit.p50):.2f}"
        )


# --- 3. streamable HTTP --------------------------------------------------------------------------
@contextlib.contextmanager
def http_server(endpoint: Endpoint, tenant: str, log: Path) -> Iterator[str]:
    env = clean_env(**endpoint.env(), GRAPHMEM_TENANT=tenant)
    with log.open("w") as stderr, serving_http(env, stderr=stderr) as server:
        yield server.url


async def http_figures(
    store: Store, endpoint: Endpoint, plan: Plan, report: Report, scratch: Path
) -> None:
    async with scratch_tenant(store, "http") as tenant:
        with http_server(endpoint, tenant, scratch / "serve.log") as url:
            async with mcp.Client(url) as client:
                record, state = sdk_calls(client, cycling(100))
                timing = plan.http_samples, plan.warmup
                written = await measure("HTTP record_fact", record, *timing, store)
                read = await measure("HTTP current_state", state, *timing, store)
    report.latency(written)
    report.latency(read)


# --- 4. concurrent writers -----------------------------------------------------------------------
async def client_rate(store: Store, plan: Plan, keys: int) -> tuple[float, int]:
    """Writes/s of 8 tasks sharing one in-memory client, and the peak calls seen in flight."""
    gauge = InFlight()
    async with (
        scratch_tenant(store, "writers") as tenant,
        in_memory_client(store, tenant, gauge) as client,
    ):
        record, _ = tool_calls(client, cycling(keys))
        seconds = await concurrently(record, plan.writes)
    return plan.writes / seconds, gauge.peak


async def domain_rate(store: Store, plan: Plan, keys: int) -> float:
    async with scratch_tenant(store, "writers") as tenant:
        seconds = await concurrently(domain_record(store, tenant, cycling(keys)), plan.writes)
    return plan.writes / seconds


async def concurrency_figures(store: Store, plan: Plan, report: Report) -> None:
    say(f"{WRITERS} concurrent writers, {plan.writes} writes per run, fresh tenant per run:")
    for label, keys in (("one hot key", 1), ("1,000 keys", 1000)):
        per_second, peak = await client_rate(store, plan, keys)
        report.rate(f"{WRITERS} writers, {label}, in-memory client", per_second)
        say(f"  (in-memory client: up to {peak} tool calls in flight at once in the server)")
        report.rate(
            f"{WRITERS} writers, {label}, domain record_fact", await domain_rate(store, plan, keys)
        )


# --- 5. scale ------------------------------------------------------------------------------------
def scale_key(i: int) -> str:
    return f"s{i:06d}"


async def load(store: Store, tenant: str, start: int, stop: int) -> float:
    """Record facts ``start..stop-1`` on distinct keys with concurrent domain calls; seconds."""
    record = domain_record(store, tenant, lambda i: scale_key(start + i))
    return await concurrently(record, stop - start)


async def calibrate(store: Store) -> float:
    """Domain writes per second (8 tasks, distinct keys), from 2,000 writes in a scratch tenant."""
    async with scratch_tenant(store, "calibrate") as tenant:
        seconds = await load(store, tenant, 0, CALIBRATION_WRITES)
    per_second = CALIBRATION_WRITES / seconds
    say(
        f"load calibration: {CALIBRATION_WRITES} domain record_fact writes ({WRITERS} tasks) "
        f"in {seconds:.1f} s = {per_second:.0f} writes/s"
    )
    return per_second


def affordable(targets: tuple[int, ...], per_second: float, budget: float) -> tuple[int, ...]:
    """The targets up to 10^4 always; larger ones only if the whole load fits the budget."""
    kept = tuple(t for t in targets if t <= 10**4)
    for target in targets[len(kept) :]:
        projected = target / per_second
        if projected > budget:
            say(f"skipping {target:,} facts: projected load {projected:.0f} s > {budget:.0f} s")
            break
        say(f"loading up to {target:,} facts: projected {projected:.0f} s <= {budget:.0f} s")
        kept += (target,)
    return kept


async def measure_at(store: Store, tenant: str, stored: int, plan: Plan, report: Report) -> None:
    """Tool latency on random existing keys of a tenant holding ``stored`` facts."""
    picks = random.Random(stored)
    keys = [scale_key(picks.randrange(stored)) for _ in range(plan.samples + plan.warmup)]
    async with in_memory_client(store, tenant) as client:
        record, state = tool_calls(client, keys.__getitem__)
        written = await measure(f"record_fact at {stored:,} facts", record, *plan.timing, store)
        read = await measure(f"current_state at {stored:,} facts", state, *plan.timing, store)
    report.latency(written)
    report.latency(read)


async def scale_figures(store: Store, plan: Plan, report: Report) -> None:
    targets = affordable(plan.scale_targets, await calibrate(store), plan.load_budget)
    async with scratch_tenant(store, "scale") as tenant:
        loaded = 0
        for target in targets:
            seconds = await load(store, tenant, loaded, target)
            say(
                f"loaded {target - loaded:,} facts ({loaded:,} -> {target:,}) in {seconds:.1f} s "
                f"= {(target - loaded) / seconds:.0f} writes/s"
            )
            loaded = target
            await measure_at(store, tenant, loaded, plan, report)
        began = time.perf_counter()
    say(f"purged the scale tenant in {time.perf_counter() - began:.1f} s")


# --- main ----------------------------------------------------------------------------------------
async def run(endpoint: Endpoint, plan: Plan, scratch: Path) -> None:
    store = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    try:
        await store.apply_schema()
        report = Report()
        await warm_up(store, plan)
        commits = await bolt_figures(store, plan, report)
        await in_memory_figures(store, plan, report, commits)
        await http_figures(store, endpoint, plan, report, scratch)
        await concurrency_figures(store, plan, report)
        await scale_figures(store, plan, report)
        report.table()
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description="record_fact and current_state figures")
    parser.add_argument("--quick", action="store_true", help="fewer samples, up to 10^4 facts")
    parser.add_argument(
        "--load-budget",
        type=float,
        help="seconds allowed to load 10^5 facts (default 360; --quick never loads them)",
    )
    args = parser.parse_args()
    plan = QUICK if args.quick else FULL
    if args.load_budget is not None:
        plan = dataclasses.replace(plan, load_budget=args.load_budget)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch, find_endpoint(Path(scratch)) as endpoint:
        say(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, Neo4j: {endpoint.origin}")
        asyncio.run(run(endpoint, plan, Path(scratch)))
    say(f"total {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()

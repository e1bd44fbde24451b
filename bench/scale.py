"""Scale figures: the tools whose work grows with the store, in one tenant holding N.

    python -m bench.scale                  # 10^4 and 10^5 (facts, events, decisions)
    python -m bench.scale --sizes 4 5 6    # and 10^6 facts and events (10^5 decisions)

On a real Neo4j (NEO4J_URI if set, else a managed local Neo4j in a temp folder). One tenant
grows through the sizes. At each size it holds N facts (each the current fact of its own key,
with its transaction-time state), N keyed history events, min(N, 10^5) decisions with one reopen
rule each on a loaded key (about 2% breach, 10% cannot fire: dead rules) and N/10 enrichable
chunks (at most 10^4). The loader (bench/scale_loader.py) is shared with the speed issue:
``load`` bulk-creates through UNWIND statements in bench/cypher (``scale/``, ``history/``),
shaped like the tools' own writes (decision rules are built by the domain's
``_alternatives_and_rules``, fact values carry the projections rules compare, events are hashed
with the history key). For bench.sizes it also grows archived sessions with their turns and
curated memories (``grow_memories``: the lexical tokens the full-text indexes read are the
product's own).

Then, through FastMCP's in-memory client, per tool: p50/p95 per call, and meanwhile the worst
wait of a concurrent record_fact on the same tenant, sent over HTTP to a graphmem process of
its own (its figures alone are printed first), and of a lock prober (its own driver: takes the
tenant's history lock as every write does, times the take, rolls back). For the batched tools,
whose batches end with a progress notification, the longest batch and how many of the prober's
waits outlast more than one batch end (with the record_fact writer, then with the prober as the
only other writer). The aims: flat index-backed reads, no call over 2 s, and no writer waiting
over one batch.
Measured: review_decisions, maintain (one call: about a second of batches, then its
continuation), enrich_context (one call), audit_memory, replay_memory (from its checkpoint)
and search. Before measuring, a maintain pass is run to its end (it opens the signals of the
breaching rules), and its time is printed. Not part of CI.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, LiteralString, Protocol

import fastmcp
import neo4j
from fastmcp.client.progress import ProgressHandler

from bench.harness import BENCH_CATALOG, in_memory_client, quantile_ms, say, scratch_tenant
from bench.scale_loader import MAX_CHUNKS, MAX_DECISIONS, PROJECT, Loader
from graphmem.core.ids import new_id
from graphmem.core.keys import ChainKey
from graphmem.store import QueryCatalog, Store
from tests.app.helpers import INITIALIZE_MESSAGE, clean_env, post, serving_http
from tests.neo4j_endpoint import Endpoint, find_endpoint

SAMPLES = {"light": 20, "heavy": 5}
TOOLS: list[tuple[str, dict[str, Any], str]] = [
    ("review_decisions", {"limit": 50}, "light"),
    ("replay_memory", {"limit": 20}, "light"),
    ("search", {"query": "service latency budget"}, "light"),
    ("maintain", {}, "heavy"),
    ("enrich_context", {}, "heavy"),
    ("audit_memory", {}, "heavy"),
]


# --- the measurements ------------------------------------------------------------------------
class Writer:
    """record_fact in a loop on the same tenant through a graphmem HTTP process of its own
    (plain HTTP from a thread), timing each call while a tool is measured: its wait is the
    tenant lock and the database, not this process's event loop."""

    def __init__(self, port: int) -> None:
        self.port = port
        session = post(port, INITIALIZE_MESSAGE).headers["mcp-session-id"]
        self.headers = {"mcp_protocol_version": "2025-06-18", "mcp_session_id": session}
        post(port, {"jsonrpc": "2.0", "method": "notifications/initialized"}, **self.headers)
        self.waits: list[float] = []
        self._n = 0

    def write(self) -> float:
        self._n += 1
        arguments = {"project": PROJECT, "key": "scale.writer", "value": self._n}
        message = {
            "jsonrpc": "2.0",
            "id": self._n,
            "method": "tools/call",
            "params": {"name": "record_fact", "arguments": arguments},
        }
        began = time.perf_counter()
        result = post(self.port, message, **self.headers).message()["result"]
        assert not result.get("isError"), result
        return time.perf_counter() - began

    def reset(self) -> None:
        self.waits = []

    def run(self, stop: threading.Event) -> None:
        while not stop.is_set():
            self.waits.append(self.write())


class LockProbe:
    """Takes the tenant's history lock in a loop (its own driver, a thread; each transaction
    rolled back) and times how long each take waits: the lock's share of a writer's wait,
    without HTTP, MCP or a process's own work."""

    PAUSE = 0.02  # seconds between takes, so the probe does not hold the lock itself

    def __init__(self, endpoint: Endpoint, tenant: str) -> None:
        self.endpoint, self.tenant = endpoint, tenant
        self.statement: LiteralString = QueryCatalog(BENCH_CATALOG)["scale/probe_history_lock"].text
        self.waits: list[float] = []
        self.spans: list[tuple[float, float]] = []  # perf_counter at the start and end of each

    def reset(self) -> None:
        self.waits, self.spans = [], []

    def run(self, stop: threading.Event) -> None:
        auth = (self.endpoint.user, self.endpoint.password)
        with (
            neo4j.GraphDatabase.driver(self.endpoint.uri, auth=auth) as driver,
            driver.session() as session,
        ):
            while not stop.wait(self.PAUSE):
                with session.begin_transaction() as tx:
                    began = time.perf_counter()
                    tx.run(self.statement, tenant=self.tenant, lock_token=new_id()).consume()
                    ended = time.perf_counter()
                    self.waits.append(ended - began)
                    self.spans.append((began, ended))
                    tx.rollback()


class Worker(Protocol):
    waits: list[float]

    def reset(self) -> None: ...

    def run(self, stop: threading.Event) -> None: ...


@contextlib.asynccontextmanager
async def alongside(*workers: Worker) -> AsyncIterator[None]:
    """The workers run (each in a thread, its waits afresh) while the block runs."""
    stop = threading.Event()
    threads = [threading.Thread(target=worker.run, args=(stop,)) for worker in workers]
    for worker, thread in zip(workers, threads, strict=True):
        worker.reset()
        thread.start()
    try:
        yield
    finally:
        stop.set()
        for thread in threads:
            await asyncio.to_thread(thread.join)


@dataclass
class Calls:
    """A tool's calls: seconds each, and the longest step any of them reported (for the
    batched tools a step is a batch, its own transaction; measured between progress
    notifications)."""

    seconds: list[float] = field(default_factory=list)
    longest_step: float = 0.0
    step_ends: list[float] = field(default_factory=list)  # perf_counter at each notification


async def timed(call: Callable[[ProgressHandler], Awaitable[Any]], samples: int) -> Calls:
    calls = Calls()
    for _ in range(samples):
        began = last = time.perf_counter()

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            nonlocal last
            now = time.perf_counter()
            calls.longest_step = max(calls.longest_step, now - last)
            calls.step_ends.append(now)
            last = now

        await call(on_progress)
        calls.seconds.append(time.perf_counter() - began)
    return calls


def figure(seconds: list[float]) -> str:
    if len(seconds) < 2:
        return f"{seconds[0] * 1000:8.0f} ms (one call)" if seconds else "     n/a"
    return f"p50 {quantile_ms(seconds, 50):8.1f} ms  p95 {quantile_ms(seconds, 95):8.1f} ms"


async def call_ok(
    client: fastmcp.Client[Any],
    tool: str,
    arguments: dict[str, Any],
    on_progress: ProgressHandler | None = None,
) -> Any:
    result = await client.call_tool(
        tool, arguments, raise_on_error=False, progress_handler=on_progress
    )
    assert not result.is_error, (tool, result.content)
    return result.structured_content or {}


async def full_maintain_pass(client: fastmcp.Client[Any]) -> tuple[float, int, int]:
    """maintain to the end of its pass: seconds, calls, signals opened."""
    began, calls, opened = time.perf_counter(), 0, 0
    continuation = None
    while True:
        arguments = {} if continuation is None else {"continuation": continuation}
        answer = await call_ok(client, "maintain", arguments)
        calls += 1
        opened += len(answer["review"]["signals_opened"])
        continuation = answer["continuation"]
        if continuation is None:
            return time.perf_counter() - began, calls, opened


async def measure_size(
    client: fastmcp.Client[Any], loader: Loader, writer: Writer, probe: LockProbe
) -> None:
    say(
        f"\n== {loader.facts:,} facts, {loader.events:,} events, {loader.decisions:,} decisions, "
        f"{loader.chunks:,} chunks"
    )
    seconds, calls, opened = await full_maintain_pass(client)
    say(f"maintain, a whole pass: {seconds:.1f} s in {calls} calls ({opened}+ signals opened)")
    began, calls, checked = time.perf_counter(), 0, 0  # the bulk events after the checkpoint
    while True:
        chain = (await call_ok(client, "replay_memory", {"limit": 1}))["chain"]
        assert chain["verified"], chain
        calls, checked = calls + 1, checked + chain["checked_events"]
        if chain["complete"]:
            break
    say(
        f"replay_memory catching up: {checked:,} events checked in {calls} calls, "
        f"{time.perf_counter() - began:.1f} s (each moves the checkpoint as far as it got)"
    )
    alone = [await asyncio.to_thread(writer.write) for _ in range(SAMPLES["light"])]
    say(f"{'record_fact alone':18} {figure(alone)}  max {max(alone) * 1000:.0f} ms (HTTP)")
    for tool, arguments, weight in TOOLS:
        calls = await measure_tool(client, tool, arguments, weight, writer, probe)
        say(
            f"{tool:18} {figure(calls.seconds)}  worst wait: record_fact "
            f"{worst_ms(writer.waits):5.0f} ms, the lock {worst_ms(probe.waits):5.0f} ms"
        )
        if calls.longest_step:
            longest = f"longest batch {calls.longest_step * 1000:.0f} ms"
            say(f"{'':18} {longest}; {outlasting(calls, probe)}")
            calls = await measure_tool(client, tool, arguments, weight, probe)
            say(f"{'':18} the lock prober as the only other writer: {outlasting(calls, probe)}")


async def measure_tool(
    client: fastmcp.Client[Any], tool: str, arguments: dict[str, Any], weight: str, *workers: Worker
) -> Calls:
    async with alongside(*workers):
        return await timed(
            lambda on_progress: call_ok(client, tool, arguments, on_progress), SAMPLES[weight]
        )


def outlasting(calls: Calls, probe: LockProbe) -> str:
    """The aim: a writer waits for the lock one batch at most, so no lock wait spans two batch
    ends (each end is a commit, the lock free for whoever waits)."""
    spanning = [sum(a < end < b for end in calls.step_ends) for a, b in probe.spans]
    return (
        f"lock waits that outlast a batch end: {sum(n > 1 for n in spanning)} of "
        f"{len(spanning)} (most ends in one wait: {max(spanning, default=0)}, "
        f"longest {worst_ms(probe.waits):.0f} ms)"
    )


def worst_ms(waits: list[float]) -> float:
    return max(waits) * 1000 if waits else float("nan")


async def main(endpoint: Endpoint, scratch: Path, exponents: list[int]) -> None:
    key = ChainKey(b"\x07" * 32)
    key_file = scratch / "history.key"  # the writer's process chains with the same key
    key_file.write_text(key.secret.hex())
    key_file.chmod(0o600)
    store = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    store.chain_key = key
    try:
        await store.apply_schema()
        async with scratch_tenant(store, "scale") as tenant:
            env = clean_env(
                **endpoint.env(), GRAPHMEM_TENANT=tenant, GRAPHMEM_HISTORY_KEY_FILE=str(key_file)
            )
            loader = Loader(store, tenant, key)
            with (scratch / "writer.log").open("w") as log, serving_http(env, stderr=log) as http:
                writer = await asyncio.to_thread(Writer, http.port)
                probe = LockProbe(endpoint, tenant)
                async with in_memory_client(store, tenant) as client:
                    for exponent in exponents:
                        await grow_and_measure(client, loader, writer, probe, exponent)
    finally:
        await store.close()


async def grow_and_measure(
    client: fastmcp.Client[Any], loader: Loader, writer: Writer, probe: LockProbe, exponent: int
) -> None:
    size = 10**exponent
    began = time.perf_counter()
    await loader.grow(size, min(size, MAX_DECISIONS), min(size // 10, MAX_CHUNKS))
    say(f"\nloaded up to 10^{exponent} in {time.perf_counter() - began:.0f} s")
    await measure_size(client, loader, writer, probe)


def cli() -> None:
    parser = argparse.ArgumentParser(description="Scale figures of the growing tools.")
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 5], help="powers of ten")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch, find_endpoint(Path(scratch)) as endpoint:
        say(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, Neo4j: {endpoint.origin}")
        asyncio.run(main(endpoint, Path(scratch), sorted(args.sizes)))


if __name__ == "__main__":
    cli()

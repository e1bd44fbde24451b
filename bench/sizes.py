"""Sizes: the per-call latency of the everyday tools as ONE tenant grows, to show it is flat.

    python -m bench.sizes                                   # facts 10^3..10^6, memories 10^3..10^5
    python -m bench.sizes --facts 3 4 --memories 3 4        # a quick check
    python -m bench.sizes --facts 3 5 6 --memories --samples 200   # facts only

On a real Neo4j (NEO4J_URI if set, else a managed local Neo4j in a temp folder). Two axes; on
each, one scratch tenant grows through the sizes, loaded by bench/scale_loader.py's Loader (UNWIND
batches shaped like the tools' own writes):

- facts, N = 10^3..10^6: N facts (each the current fact of its own key), N keyed history
  events and N/10 decisions with one reopen rule each on a random loaded key. Measured:
  record_fact (a new value on an EXISTING loaded key, random over the loaded range: it
  supersedes that key's fact), current_state (a random loaded key), govern_fact (invalidate,
  its one-fact action, on the current fact of a random loaded key, each key once) and
  explain_impact (standard depth, from the current fact of a random loaded key that a reopen
  rule watches: one hop to its decision).
- memories, N = 10^3..10^5: N archived turns (sessions of 20, as one archive_turns call each
  stores them), N memories (each the active first version of its own topic; every 4th saved
  in an archived session) and N events; texts drawn from a fixed Zipf vocabulary. Measured:
  save_memory (a new version of a random loaded topic), get_observations (3 random loaded
  memories), timeline (around a random loaded memory; and, source raw, around a random loaded
  turn) and search (4 consecutive words of a random loaded memory, in its project).

Per size, after the load (its time printed): every tool once per round through FastMCP's
in-memory client of the real server, tools interleaved so that a burst of machine noise hits
every tool alike; 20 untimed rounds, then --samples timed ones. Each call is paired, in the
same round, with the same call on a REFERENCE tenant that stays at the smallest size: the
machine's load drifts during a run (others share it), and "adjusted" (p50 / reference p50,
relative to the same at the smallest size) cancels that drift. A Bolt ping per round shows the
load too. The table gives per tool and size p50/p95, p50 / p50 at the smallest size (the
raw ratio) and the adjusted ratio, each flagged outside +-25% (search: outside 2x). Ids the
tools need (a fact id) are looked up untimed before each call. Both tenants are purged
afterwards (batched; timed and checked empty). Not part of CI.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import os
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import fastmcp

from bench.harness import BENCH_CATALOG, in_memory_client, quantile_ms, say, scratch_tenant
from bench.scale_loader import Loader
from bench.sizes_axes import FactPicks, MemoryPicks, Timer, grow_facts, grow_memories
from graphmem.core.keys import ChainKey
from graphmem.core.settings import Settings
from graphmem.store import QueryCatalog, Store, shaped
from graphmem.store.rows import LabelCountRow
from tests.neo4j_endpoint import Endpoint, find_endpoint

WARMUP = 20
FLAT = 0.25  # the aim: p50 within +-25% of the smallest size's
SEARCH_FACTOR = 2.0  # search: within 2x
PING = "(Bolt ping)"

Figures = dict[str, dict[int, list[float]]]  # label -> size exponent -> seconds per call
Pairs = dict[str, tuple[Timer, Timer | None]]  # label -> (grown tenant, reference tenant)


@dataclass
class Axis:
    """One axis's figures: on the grown tenant and, in the same rounds, on the reference."""

    name: str
    grown: Figures = field(default_factory=dict)
    reference: Figures = field(default_factory=dict)


# --- timing ----------------------------------------------------------------------------------


def ping_timer(store: Store) -> Timer:
    async def run() -> float:
        began = time.perf_counter()
        await store.ping()
        return time.perf_counter() - began

    return run


def paired(grown: dict[str, Timer], reference: dict[str, Timer], store: Store) -> Pairs:
    return {
        **{label: (timer, reference[label]) for label, timer in grown.items()},
        PING: (ping_timer(store), None),
    }


async def measure(axis: Axis, exponent: int, pairs: Pairs, samples: int) -> None:
    """Rounds of every call, the grown tenant's and the reference's in turn (which goes first
    alternates)."""
    for round_ in range(WARMUP + samples):
        for label, (grown, reference) in pairs.items():
            sides = [(axis.grown, grown), (axis.reference, reference)]
            for figures, timer in sides[:: 1 if round_ % 2 else -1]:
                if timer is None:
                    continue
                seconds = await timer()
                if round_ >= WARMUP:
                    figures.setdefault(label, {}).setdefault(exponent, []).append(seconds)


# --- one axis ---------------------------------------------------------------------------------
Grow = Callable[[Store, Loader, int, str], Awaitable[None]]


async def run_axis(
    store: Store,
    key: ChainKey,
    name: str,
    grow: Grow,
    picks: Callable[[fastmcp.Client[Any], Loader], FactPicks | MemoryPicks],
    exponents: list[int],
    samples: int,
) -> Axis:
    """One tenant grown through the sizes, each call paired with the same on a reference
    tenant kept at the smallest size."""
    axis = Axis(name)
    async with (
        purged_tenant(store, f"sizes-{name}") as tenant,
        purged_tenant(store, f"sizes-{name}-ref") as ref_tenant,
    ):
        grown, reference = Loader(store, tenant, key), Loader(store, ref_tenant, key)
        await grow(store, reference, exponents[0], "the reference tenant")
        async with (
            in_memory_client(store, tenant) as client,
            in_memory_client(store, ref_tenant) as ref_client,
        ):
            pairs = paired(
                picks(client, grown).timers(), picks(ref_client, reference).timers(), store
            )
            for exponent in exponents:
                say("")
                await grow(store, grown, exponent, "the grown tenant")
                await measure(axis, exponent, pairs, samples)
                say(progress(axis, exponent))
    return axis


# --- tenants ---------------------------------------------------------------------------------
@contextlib.asynccontextmanager
async def purged_tenant(store: Store, label: str) -> AsyncIterator[str]:
    """A scratch tenant (bench.harness.scratch_tenant: purged on exit by store.purge_tenant, an
    auto-commit ``CALL { DETACH DELETE } IN TRANSACTIONS``), the purge timed and checked."""
    async with scratch_tenant(store, label) as tenant:
        try:
            yield tenant
        finally:
            began = time.perf_counter()
    rows = shaped(LabelCountRow, await store.read("store/count_tenant_labels", tenant))
    left = sum(row["count"] for row in rows)
    say(f"purged the {label} tenant in {time.perf_counter() - began:.0f} s: {left} nodes left")


# --- report ----------------------------------------------------------------------------------
def p50(figures: Figures, label: str, exponent: int) -> float:
    return quantile_ms(figures[label][exponent], 50)


def progress(axis: Axis, exponent: int) -> str:
    parts = []
    for label in axis.grown:
        reference = axis.reference.get(label)
        ref = f" (ref {p50(axis.reference, label, exponent):.1f})" if reference else ""
        parts.append(f"{label} {p50(axis.grown, label, exponent):.1f}{ref}")
    return "p50 ms: " + ", ".join(parts)


def flag(label: str, ratio: float | None) -> str:
    if label == PING or ratio is None:
        return " "
    if label == "search":
        return " " if 1 / SEARCH_FACTOR <= ratio <= SEARCH_FACTOR else "!"
    return " " if abs(ratio - 1) <= FLAT else "!"


def ratios(axis: Axis, label: str, exponent: int, base: int) -> tuple[float, float | None]:
    """p50 / p50 at the base size; and the same relative to the reference tenant's p50s."""
    raw = p50(axis.grown, label, exponent) / p50(axis.grown, label, base)
    if label not in axis.reference:
        return raw, None
    drift = p50(axis.reference, label, exponent) / p50(axis.reference, label, base)
    return raw, raw / drift


def table(axis: Axis) -> None:
    base = min(min(sizes) for sizes in axis.grown.values())
    say(
        f"\n{axis.name}: one tenant of N {axis.name}; ref = the same calls, same rounds, on a "
        f"tenant of 10^{base}; adjusted = (p50 / ref p50) / (the same at 10^{base}); "
        f"! = outside +-{FLAT:.0%} (search: {SEARCH_FACTOR:g}x)"
    )
    say(
        f"{'tool':18} {'N':>5} {'p50 ms':>8} {'p95 ms':>8} {'p50/10^' + str(base):>10}  "
        f"{'ref p50':>8} {'adjusted':>9}"
    )
    for label, sizes in axis.grown.items():
        for n, exponent in enumerate(sorted(sizes)):
            raw, adjusted = ratios(axis, label, exponent, base)
            ref = p50(axis.reference, label, exponent) if adjusted is not None else None
            say(
                f"{label if n == 0 else '':18} {'10^' + str(exponent):>5} "
                f"{p50(axis.grown, label, exponent):8.1f} "
                f"{quantile_ms(sizes[exponent], 95):8.1f} {raw:9.2f}{flag(label, raw)}  "
                f"{_or_dash(ref, '8.1f')} {_or_dash(adjusted, '8.2f')}{flag(label, adjusted)}"
            )


def _or_dash(value: float | None, spec: str) -> str:
    width = int(spec.split(".")[0])
    return format(value, spec) if value is not None else f"{'-':>{width}}"


async def configuration(store: Store, endpoint: Endpoint, samples: int) -> None:
    bench = copy.copy(store)
    bench.catalog = QueryCatalog(BENCH_CATALOG)
    [server] = await bench.read("scale/get_server_version", "bench-sizes")
    say(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {server['name']} "
        f"{server['version']} {server['edition']} ({endpoint.origin}); toolset full (FastMCP "
        f"in-memory client of create_server); embeddings {Settings().embeddings}; "
        f"{samples} timed rounds per size (after {WARMUP} untimed)"
    )


# --- main ------------------------------------------------------------------------------------
async def main(endpoint: Endpoint, facts: list[int], memories: list[int], samples: int) -> None:
    key = ChainKey(b"\x07" * 32)
    store = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    store.chain_key = key
    try:
        await store.apply_schema()
        await configuration(store, endpoint, samples)
        axes = []
        if facts:
            axes.append(await run_axis(store, key, "facts", grow_facts, FactPicks, facts, samples))
        if memories:
            axes.append(
                await run_axis(
                    store, key, "memories", grow_memories, MemoryPicks, memories, samples
                )
            )
        for axis in axes:
            table(axis)
    finally:
        await store.close()


def cli() -> None:
    parser = argparse.ArgumentParser(description="Per-call latency as one tenant grows.")
    parser.add_argument("--facts", type=int, nargs="*", default=[3, 4, 5, 6], help="powers of 10")
    parser.add_argument("--memories", type=int, nargs="*", default=[3, 4, 5], help="powers of 10")
    parser.add_argument("--samples", type=int, default=100, help="timed rounds per size")
    args = parser.parse_args()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch, find_endpoint(Path(scratch)) as endpoint:
        asyncio.run(main(endpoint, sorted(args.facts), sorted(args.memories), args.samples))
    say(f"total {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    cli()

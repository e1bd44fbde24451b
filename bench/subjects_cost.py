"""What reading subjects costs a write: CPU per save_memory with GRAPHMEM_SUBJECTS on and off,
as a ratio in one run.

    python -m bench.subjects_cost --data DIR            # DIR: the LoCoMo conversations
    python -m bench.subjects_cost --rounds 6 --seconds 8 --sessions 8

One managed local Neo4j (the tests' settings, a temporary folder) and two graphmem servers on
it over streamable HTTP on loopback, each in a scratch tenant of its own: one reads subjects
(the product's default), one does not. Both get the same writes: N sessions calling
save_memory as fast as they can on LoCoMo turns (conv-26, read in place; every turn names its
speaker, most name others too). The loads alternate between the two servers, round by round
(the first side alternates too), so the machine's noise falls on both. Each load's meter
(bench/cpu.py: the server's and Neo4j's CPU from /proc) runs on for ``--settle`` seconds after
the load, so the subjects pass a load leaves behind (a second after the burst) is counted in
the writes that caused it. A warm-up load of each side runs first (``--warmup``): the JVM
compiles and Neo4j plans its statements again as the graph grows from nothing. Printed per
round, then the medians: CPU ms per write of the server, of Neo4j and both, and on/off as a
ratio (the issue's bound: at most 1.20). At the end the reading tenant's mentions are counted
and its unread sources must be none: the pass kept up.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
from pathlib import Path
from typing import Any

from fastmcp import Client

from bench.concurrency import graphmem_env, graphmem_servers, jvm, meter_of, sessions
from bench.concurrency_load import run_load, save_memory
from bench.cpu import Spent
from bench.harness import say, scratch_tenant
from bench.locomo import DATA_ENV, data_files
from bench.peers_sides import chosen, load
from graphmem.store import Store, shaped
from graphmem.store.rows import LabelCountRow
from tests.neo4j_endpoint import Endpoint, managed_local

SIDES = ("on", "off")


def per_write(spent: Spent, calls: int) -> dict[str, float]:
    server, neo4j = spent.per("server", calls), spent.per("neo4j", calls)
    return {"server": server, "neo4j": neo4j, "both": server + neo4j}


async def one_load(
    clients: list[Client[Any]],
    texts: list[str],
    pids: dict[str, tuple[int, ...]],
    args: Any,
    seconds: float | None = None,
) -> tuple[int, Spent]:
    with meter_of(**pids).around() as spent:
        length = seconds or args.seconds
        tally = await run_load(clients, save_memory, texts, length, args.first)
        await asyncio.sleep(args.settle)
    args.first += 1_000_000
    if tally.errors:
        raise SystemExit(f"writes failed: {dict(tally.errors)}")
    return tally.calls, spent


async def rounds(
    urls: dict[str, str], pids: dict[str, dict[str, tuple[int, ...]]], texts: list[str], args: Any
) -> dict[str, list[dict[str, float]]]:
    figures: dict[str, list[dict[str, float]]] = {side: [] for side in SIDES}
    async with contextlib.AsyncExitStack() as stack:
        clients = {
            side: await stack.enter_async_context(sessions([urls[side]], args.sessions))
            for side in SIDES
        }
        for side in SIDES:  # warm-up: the JVM compiles, the plans settle as the graph grows
            await one_load(clients[side], texts, pids[side], args, args.warmup)
        for number in range(args.rounds):
            order = SIDES if number % 2 == 0 else SIDES[::-1]
            for side in order:
                calls, spent = await one_load(clients[side], texts, pids[side], args)
                figure = per_write(spent, calls)
                figures[side].append(figure)
                say(
                    f"round {number + 1} subjects {side:<3} {calls:5d} writes  CPU ms/write "
                    f"server {figure['server']:.2f} neo4j {figure['neo4j']:.2f} "
                    f"both {figure['both']:.2f}"
                )
    return figures


def report(figures: dict[str, list[dict[str, float]]]) -> None:
    say("medians over the rounds, CPU ms per write (on / off = ratio):")
    for part in ("server", "neo4j", "both"):
        on = statistics.median(f[part] for f in figures["on"])
        off = statistics.median(f[part] for f in figures["off"])
        say(f"  {part:<7} on {on:6.2f}  off {off:6.2f}  ratio {on / off:5.2f}")
    paired = [
        on["both"] / off["both"] for on, off in zip(figures["on"], figures["off"], strict=True)
    ]
    say(f"  per-round ratios (both): {' '.join(f'{r:.2f}' for r in paired)}")


async def check_pass(endpoint: Endpoint, tenant: str) -> None:
    store = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    try:
        rows = shaped(LabelCountRow, await store.read("store/count_tenant_labels", tenant))
        counts: dict[str, int] = {}
        for row in rows:
            counts[row["label"]] = counts.get(row["label"], 0) + row["count"]
        say(
            f"reading tenant: {counts.get('Memory', 0)} memories, {counts.get('Mention', 0)} "
            f"mentions, {counts.get('Subject', 0)} subjects, {counts.get('Unread', 0)} unread"
        )
    finally:
        await store.close()


async def run(endpoint: Endpoint, scratch: Path, texts: list[str], args: Any) -> None:
    store = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    try:
        await store.apply_schema()
        async with scratch_tenant(store, "subjects-on") as on, scratch_tenant(store, "off") as off:
            tenants = {"on": on, "off": off}
            with contextlib.ExitStack() as stack:
                servers = {}
                for side in SIDES:
                    env = graphmem_env(endpoint, tenants[side], scratch, args.embeddings, side)
                    folder = (args.logs or scratch) / side
                    folder.mkdir(parents=True, exist_ok=True)
                    (servers[side],) = stack.enter_context(graphmem_servers(env, folder, 1))
                neo4j = (jvm(endpoint),)
                urls = {side: servers[side].url for side in SIDES}
                pids = {s: {"server": (servers[s].process.pid,), "neo4j": neo4j} for s in SIDES}
                report(await rounds(urls, pids, texts, args))
            await check_pass(endpoint, on)
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description="CPU per write with subjects on and off.")
    parser.add_argument("--data", help=f"the LoCoMo folder (default: ${DATA_ENV})")
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each load")
    parser.add_argument("--settle", type=float, default=3.0, help="metered after each load")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--warmup", type=float, default=20.0, help="seconds of a warm-up load")
    parser.add_argument("--embeddings", default="none", choices=["none", "e5-small", "minilm"])
    parser.add_argument("--logs", type=Path, help="keep the servers' logs in this folder")
    args = parser.parse_args()
    args.first = 1_000_000
    folder = data_files(args.data)[0].parent
    texts = [turn.text for turn in load(chosen(folder, ["conv-26"])).turns]
    with tempfile.TemporaryDirectory() as scratch_dir:
        scratch = Path(scratch_dir)
        with managed_local(scratch / "neo4j") as endpoint:
            say(f"{len(texts)} LoCoMo turns; {args.rounds} rounds of {args.seconds:.0f} s a side")
            asyncio.run(run(endpoint, scratch, texts, args))


if __name__ == "__main__":
    main()

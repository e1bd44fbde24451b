"""Many agents, one tenant: graphmem's writes beside mcp-neo4j-memory's, N sessions at once.

    python -m bench.concurrency                       # N = 1, 8, 32; 8 s a load
    python -m bench.concurrency --sessions 1 8 32 128 --seconds 10 --profile
    python -m bench.concurrency --faults              # then one member of a batch failing
    python -m bench.concurrency --tools "mixed session" --sessions 32   # one of graphmem's loads

Each side gets a managed local Neo4j of its own (the same version and settings: graphmem's
``localdb`` with the tests' heap and page cache, a temporary folder) and one server over
streamable HTTP on loopback: ``graphmem serve --transport http`` (no embeddings unless
``--embeddings e5-small``, the product's default: vectors written behind the writes; a scratch
tenant) and mcp-neo4j-memory 0.4.5 (bench.peers installs it into graphmem's cache). The client
is one process with N fastmcp sessions per server; each session calls as fast as it can, one
call at a time, for ``--seconds``, on LoCoMo turns (conv-26, read in place): save_memory,
record_fact, record_decision, archive_turns (one turn) and a mixed agent session (save_memory,
record_fact, search, archive_turns, current_state in turn; its reads and writes also apart),
against the peer's create_entities. A warm-up load of each runs first (cold JVMs compile).
Each session lists the tools when it opens (as an agent attaching does); the client's heap is
frozen before each load (bench/concurrency_load.py); each load ends when its servers are quiet
again. Printed per load: calls/s, p50/p95/p99, errors, the CPU per call of the client, the
server and its Neo4j, from /proc around the load and the work it left behind (Neo4j's includes
its idle cost: it is what a write costs the machine), and how long the servers worked on after
the last answer, with the calls/s counting that time (the ratios to the peer give both). Then:

- idle: each Neo4j with nothing to do and each server with one session open and silent (CPU as
  percent of a core), beside a bare FastMCP server (bench/echo_server.py ``bare``), and the
  Neo4j threads that spend it;
- ``--profile``: py-spy on the graphmem server and the Neo4j threads' CPU during the 32-session
  record_fact load;
- ``--faults``: one member of a batch refused by the database, conflicting or slow, at the most
  sessions, on a server with those faults planted (bench/concurrency_faults.py): whether the
  others commit and each caller gets its own answer, and the throughput;
- three graphmem processes on the one database, N sessions spread over them, record_fact;
- the full chain verification (``graphmem history verify``) and a revision-gap check.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypedDict

import psutil
from fastmcp import Client

from bench.concurrency_faults import FAULTS, Verdict, faulty_server
from bench.concurrency_load import (
    OURS,
    Judge,
    Tally,
    Workload,
    create_entities,
    record_fact,
    row,
    run_load,
    sessions,
    split,
)
from bench.cpu import Meter, Spent, until_quiet
from bench.harness import BENCH_CATALOG, say, scratch_tenant
from bench.jvm_threads import busiest, cpu_by_thread_name
from bench.locomo import DATA_ENV, data_files
from bench.peers_servers import PEERS, neo4j_jvm, peer_server
from bench.peers_sides import chosen, load
from bench.profile import sampling, summary
from bench.speed import echo_server
from graphmem.core.settings import Settings
from graphmem.store import QueryCatalog, Store, shaped
from tests.app.helpers import clean_env, serving_http
from tests.neo4j_endpoint import Endpoint, managed_local


class Bench:
    """The servers of one run, and what it prints."""

    def __init__(self, args: argparse.Namespace, scratch: Path, texts: list[str]) -> None:
        self.args, self.scratch, self.texts = args, scratch, texts
        self.loads = 0  # each load's call numbers start apart: keys and titles stay distinct
        self.rows: list[tuple[str, str, int, Tally, Spent]] = []

    def next_first(self) -> int:
        self.loads += 1
        return self.loads * 1_000_000

    async def measure(
        self,
        side: str,
        tool: str,
        clients: list[Client[Any]],
        workload: Workload,
        meter: Meter,
        judge: Judge | None = None,
    ) -> Tally:
        first = self.next_first()
        with meter.around() as spent:  # the work a load left behind it counts to its calls
            tally = await run_load(clients, workload, self.texts, self.args.seconds, first, judge)
            tally.behind = await until_quiet(meter, ("server", "neo4j"))
        self.rows.append((side, tool, len(clients), tally, spent))
        say(row(side, tool, len(clients), tally, spent))
        if tally.reads and tally.writes:  # a mixed load: reads beside writes
            say("    " + split(tally))
        for why, count in sorted(tally.errors.items(), key=lambda item: -item[1])[:3]:
            say(f"    {count} x {why}")
        return tally


def meter_of(**pids: tuple[int, ...]) -> Meter:
    return Meter({"client": (os.getpid(),), **pids})


async def idle(named: dict[str, tuple[int, ...]], urls: dict[str, str], seconds: float) -> None:
    """CPU of each process with one silent session open on each server."""
    async with contextlib.AsyncExitStack() as stack:
        for url in urls.values():
            await stack.enter_async_context(Client(url))
        await asyncio.sleep(2.0)  # the sessions' own start settles
        jvms = {name: pids[0] for name, pids in named.items() if name.endswith("neo4j")}
        before = {name: cpu_by_thread_name(pid) for name, pid in jvms.items()}
        with Meter(named).around() as spent:
            await asyncio.sleep(seconds)
        after = {name: cpu_by_thread_name(pid) for name, pid in jvms.items()}
    say(f"idle over {seconds:.0f} s (percent of one core; servers with one silent session):")
    for name in named:
        say(f"  {name:<22} {spent.share(name):5.1f}%")
    for name, pid in jvms.items():
        del pid
        say(f"  {name} threads: {busiest(before[name], after[name], spent.wall, 8)}")


def jvm(endpoint: Endpoint) -> int:
    pid = neo4j_jvm(endpoint)
    if pid is None:
        raise SystemExit("the managed Neo4j's JVM is not found in /proc")
    return pid


def pids_of(process: subprocess.Popen[str]) -> tuple[int, ...]:
    return (process.pid,)


def server_pid(url: str) -> int:
    """The process listening on ``url``'s port (an echo or peer server started elsewhere)."""
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    for connection in psutil.net_connections("tcp"):
        pid, address = connection.pid, connection.laddr
        if connection.status == "LISTEN" and pid is not None and address and address.port == port:
            return pid
    raise SystemExit(f"no process listens on {port}")


def graphmem_env(
    endpoint: Endpoint, tenant: str, scratch: Path, embeddings: str = "none", subjects: str = "on"
) -> dict[str, str]:
    return clean_env(
        GRAPHMEM_SUBJECTS="true" if subjects == "on" else "false",
        **endpoint.env(),
        GRAPHMEM_TENANT=tenant,
        GRAPHMEM_EMBEDDINGS=embeddings,  # the model's files from this user's cache
        GRAPHMEM_CACHE_DIR=str(Settings().cache_dir),
        GRAPHMEM_TOOLSET="full",  # archive_turns
        GRAPHMEM_DATA_DIR=str(scratch / "graphmem-data"),
        GRAPHMEM_HISTORY_KEY_FILE=str(scratch / "history.key"),
    )


@contextlib.contextmanager
def graphmem_servers(env: dict[str, str], logs: Path, count: int) -> Iterator[list[Any]]:
    with contextlib.ExitStack() as stack:
        servers = []
        for i in range(count):
            log = stack.enter_context((logs / f"graphmem-{i}.log").open("w"))
            servers.append(stack.enter_context(serving_http(env, log)))
        yield servers


async def warm_up(
    bench: Bench, clients: list[Client[Any]], workloads: list[Workload], meter: Meter
) -> None:
    for workload in workloads:
        await run_load(clients, workload, bench.texts, bench.args.warmup, bench.next_first())
        await until_quiet(meter, ("server", "neo4j"))


async def graphmem_loads(bench: Bench, url: str, pids: dict[str, tuple[int, ...]]) -> None:
    meter = meter_of(**pids)
    loads = {tool: OURS[tool] for tool in bench.args.tools}
    async with sessions([url], 8) as clients:
        await warm_up(bench, clients, list(loads.values()), meter)
    for n in bench.args.sessions:
        async with sessions([url], n) as clients:
            for tool, workload in loads.items():
                profiled = bench.args.profile and tool == "record_fact" and n == 32
                with profiling(bench, pids, profiled):
                    await bench.measure("graphmem", tool, clients, workload, meter)


@contextlib.contextmanager
def profiling(bench: Bench, pids: dict[str, tuple[int, ...]], on: bool) -> Iterator[None]:
    if not on:
        yield
        return
    out = bench.scratch / "server.pyspy"
    jvm = pids["neo4j"][0]
    before, began = cpu_by_thread_name(jvm), time.perf_counter()
    with sampling(pids["server"][0], out):
        yield
    wall = time.perf_counter() - began
    say("profile of the graphmem server (py-spy) during this load:")
    for line in summary(out):
        say("  " + line)
    say(f"  Neo4j threads: {busiest(before, cpu_by_thread_name(jvm), wall, 10)}")


async def peer_loads(bench: Bench, url: str, pids: dict[str, tuple[int, ...]]) -> None:
    meter = meter_of(**pids)
    async with sessions([url], 8) as clients:
        await warm_up(bench, clients, [create_entities], meter)
    for n in bench.args.sessions:
        async with sessions([url], n) as clients:
            await bench.measure(
                "mcp-neo4j-memory", "create_entities", clients, create_entities, meter
            )


async def fault_loads(bench: Bench, url: str, pids: dict[str, tuple[int, ...]]) -> None:
    """One member of a batch slow or failing (bench/concurrency_faults.py), at the most
    sessions: whether the others commit, each caller's answer its own, and the throughput."""
    n = max(bench.args.sessions)
    async with sessions([url], 8) as clients:
        await warm_up(bench, clients, [record_fact], meter_of(**pids))
    async with sessions([url], n) as clients:
        for label, workload in FAULTS.items():
            verdict = Verdict()
            meter = meter_of(**pids)
            await bench.measure("graphmem faults", label, clients, workload, meter, verdict.judge)
            for line in verdict.lines():
                say("    " + line)


async def several_processes(
    bench: Bench, urls: list[str], pids: dict[str, tuple[int, ...]]
) -> None:
    n = max(bench.args.sessions)
    async with sessions(urls, n) as clients:
        label = f"graphmem x{len(urls)}"
        await bench.measure(label, "record_fact", clients, OURS["record_fact"], meter_of(**pids))


def verify(env: dict[str, str], tenant: str) -> None:
    command = [sys.executable, "-m", "graphmem", "history", "verify", "--tenant", tenant]
    began = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    verdict = "verified" if done.returncode == 0 else f"FAILED: {done.stderr.strip()[-300:]}"
    say(f"graphmem history verify (full chain): {verdict} in {time.perf_counter() - began:.1f} s")


class RevisionCounts(TypedDict):
    """concurrency/count_revisions: the tenant's events and their revisions' range."""

    events: int
    first: int | None
    last: int | None
    distinct: int


async def revision_gaps(store: Store, tenant: str) -> None:
    rows = await store.of(tenant).read("concurrency/count_revisions")
    counts = shaped(RevisionCounts, rows)[0]
    events, first, last = counts["events"], counts["first"], counts["last"]
    distinct = counts["distinct"]
    span = last - first + 1 if first is not None and last is not None else 0
    whole = events == distinct == span and first in (1, None)
    say(
        f"revisions: {events} events, {first}..{last}, {distinct} distinct: "
        + ("gap-free" if whole else "GAPS OR DUPLICATES")
    )


def ratios(bench: Bench) -> None:
    peer = {n: tally for side, _, n, tally, _ in bench.rows if side == "mcp-neo4j-memory"}
    for side, tool, n, tally, _ in bench.rows:
        if side != "mcp-neo4j-memory" and n in peer and peer[n].rate:
            times = tally.rate / peer[n].rate
            settled = tally.settled_rate / peer[n].settled_rate
            say(
                f"  {side} {tool} N={n}: {times:.2f}x the peer's create_entities"
                f" ({settled:.2f}x with each side's work after its last answer)"
            )


async def run(bench: Bench, ours: Endpoint, theirs: Endpoint, venv: Path) -> None:
    store = await Store.connect(ours.uri, ours.user, ours.password)
    probe = await Store.connect(ours.uri, ours.user, ours.password)
    probe.catalog = QueryCatalog(BENCH_CATALOG)
    scratch = bench.scratch
    try:
        await store.apply_schema()
        async with scratch_tenant(store, "concurrency") as tenant:
            env = graphmem_env(ours, tenant, scratch, bench.args.embeddings, bench.args.subjects)
            with contextlib.ExitStack() as stack:
                (server,) = stack.enter_context(graphmem_servers(env, scratch, 1))
                bare = stack.enter_context(echo_server("bare", clean_env(), scratch / "bare.log"))
                peer_log = scratch / "peer.log"
                peer = stack.enter_context(
                    peer_server(PEERS["mcp-neo4j-memory"], venv, theirs, peer_log)
                )
                ours_jvm, their_jvm = (jvm(ours),), (jvm(theirs),)
                named = {
                    "graphmem neo4j": ours_jvm,
                    "peer neo4j": their_jvm,
                    "graphmem server": pids_of(server.process),
                    "peer server": (server_pid(peer),),
                    "bare FastMCP server": (server_pid(bare),),
                }
                urls = {"graphmem": server.url, "peer": peer, "bare": bare}
                await idle(named, urls, bench.args.idle)
                pids = {"server": pids_of(server.process), "neo4j": ours_jvm}
                await graphmem_loads(bench, server.url, pids)
                await peer_loads(bench, peer, {"server": (server_pid(peer),), "neo4j": their_jvm})
                if bench.args.faults:
                    faulty = stack.enter_context(faulty_server(env, scratch))
                    spread = {"server": pids_of(faulty.process), "neo4j": ours_jvm}
                    await fault_loads(bench, faulty.url, spread)
                if bench.args.processes > 1:
                    more = stack.enter_context(
                        graphmem_servers(env, scratch, bench.args.processes - 1)
                    )
                    every = [server, *more]
                    spread = {"server": tuple(s.process.pid for s in every), "neo4j": ours_jvm}
                    await several_processes(bench, [s.url for s in every], spread)
            verify(env, tenant)
            await revision_gaps(probe, tenant)
    finally:
        await probe.close()
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description="N sessions writing into one tenant.")
    parser.add_argument("--data", help=f"the LoCoMo folder (default: ${DATA_ENV})")
    parser.add_argument("--sessions", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--tools", nargs="+", default=list(OURS), choices=list(OURS))
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each load")
    parser.add_argument("--warmup", type=float, default=3.0, help="warm-up load per tool")
    parser.add_argument("--idle", type=float, default=6.0, help="seconds of idle measured")
    parser.add_argument("--processes", type=int, default=3, help="graphmem processes at the end")
    parser.add_argument("--profile", action="store_true", help="py-spy at 32 sessions")
    parser.add_argument(
        "--embeddings",
        default="none",
        choices=["none", "e5-small", "minilm"],
        help="graphmem's GRAPHMEM_EMBEDDINGS (the product's default: e5-small)",
    )
    parser.add_argument(
        "--subjects",
        default="on",
        choices=["on", "off"],
        help="graphmem's GRAPHMEM_SUBJECTS (on: the product's default, names read behind writes)",
    )
    parser.add_argument(
        "--faults",
        action="store_true",
        help="then one member of a batch refused, conflicting or slow, at the most sessions",
    )
    args = parser.parse_args()
    folder = data_files(args.data)[0].parent
    texts = [turn.text for turn in load(chosen(folder, ["conv-26"])).turns]
    venv = PEERS["mcp-neo4j-memory"].venv()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder, contextlib.ExitStack() as databases:
        scratch = Path(folder)
        ours = databases.enter_context(managed_local(scratch / "graphmem-neo4j"))
        theirs = databases.enter_context(managed_local(scratch / "peer-neo4j"))
        say(f"{len(texts)} LoCoMo turns; loads of {args.seconds:.0f} s; sessions {args.sessions}")
        bench = Bench(args, scratch, texts)
        asyncio.run(run(bench, ours, theirs, venv))
    say("graphmem per load against the peer's create_entities at the same N:")
    ratios(bench)
    say(f"total {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()

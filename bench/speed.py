"""Each call against the transport floor, over streamable HTTP, interleaved in one run.

    python -m bench.speed                  # 300 rounds
    python -m bench.speed --rounds 100
    python -m bench.speed --traced         # and a second graphmem with traces on
    python -m bench.speed --only current_state --profile FILE   # py-spy on the server

On a real Neo4j (NEO4J_URI if set, else a managed local Neo4j in a temporary folder). Three
processes, one fastmcp HTTP client each, all on loopback:

- ``graphmem serve --transport http`` with the default toolset and settings, in a scratch
  tenant (purged afterwards);
- a bare FastMCP server with one echo tool (nothing of graphmem), on the HTTP parser and event
  loop graphmem runs on (httptools, uvloop), and one on pure-Python h11 and asyncio's loop;
- graphmem's own server and HTTP stack with the same echo tool added (bench/echo_server.py).

Each round calls every figure once, in a rotating order, so the machine's noise falls on all
of them alike. The floor is a graphmem call refused by validation (an unknown argument):
transport, parsing and graphmem's layers, no database. Printed: p50/p95 per figure, each p50
as a multiple of the floor and of graphmem's echo (the transport without the refusal's own
work: its error answer and FastMCP's warning), the server's own p50 (the duration it logs for
each call), and graphmem's middleware cost: its echo's p50 minus the bare echo's p50 (the
target: at most 0.5 ms).

``--only NAME ...`` times those figures (and the floor and echoes); ``--profile FILE``
samples graphmem's server with py-spy during the timed rounds (the samples kept in FILE) and
prints where its CPU went.

With ``--traced`` a second graphmem server (its own scratch tenant) runs with traces on,
exporting over OTLP/HTTP to a receiver process that decodes every batch
(tests/app/otlp_receiver.py): its current_state and record_fact are figures of the same
rounds, so traces on and off compare within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import fastmcp
import neo4j

import graphmem
from bench.harness import quantile_ms, say, scratch_tenant
from bench.profile import sampling, summary
from graphmem.core.settings import Settings
from graphmem.store import Store
from tests.app.helpers import clean_env, listening_process, serving_http
from tests.neo4j_endpoint import Endpoint, find_endpoint, free_port

PROJECT = "bench"
KEYS = 200
Call = Callable[[int], Awaitable[object]]
ALWAYS = ("floor (refused call)", "graphmem echo", "bare FastMCP echo")


# --- servers -----------------------------------------------------------------------------------
@contextlib.contextmanager
def echo_server(kind: str, env: dict[str, str], log: Path, *options: str) -> Iterator[str]:
    port = free_port()
    command = [sys.executable, "-m", "bench.echo_server", kind, "--port", str(port), *options]
    with log.open("w") as stderr, listening_process(command, env, port, stderr, name=kind):
        yield f"http://127.0.0.1:{port}/mcp"


@contextlib.asynccontextmanager
async def clients(
    endpoint: Endpoint, tenant: str, scratch: Path, traced: str | None
) -> AsyncIterator[tuple[dict[str, Any], int]]:
    """A client per server, and graphmem's server process (for --profile); ``traced``: the
    tenant of a second graphmem with traces on."""
    env = clean_env(**endpoint.env())
    with contextlib.ExitStack() as stack:
        graphmem_log = stack.enter_context((scratch / "serve.log").open("w"))
        served = stack.enter_context(serving_http({**env, "GRAPHMEM_TENANT": tenant}, graphmem_log))
        bare = stack.enter_context(echo_server("bare", env, scratch / "bare.log"))
        plain = stack.enter_context(
            echo_server("bare", env, scratch / "plain.log", "--http", "h11", "--loop", "asyncio")
        )
        wrapped = stack.enter_context(
            echo_server("graphmem", {**env, "GRAPHMEM_TENANT": tenant}, scratch / "echo.log")
        )
        urls = [("graphmem", served.url), ("bare", bare), ("plain", plain), ("echo", wrapped)]
        if traced is not None:
            urls.append(("traced", stack.enter_context(traced_server(env, traced, scratch))))
        async with contextlib.AsyncExitStack() as opened:
            connected = {
                name: await opened.enter_async_context(fastmcp.Client(url)) for name, url in urls
            }
            yield connected, served.process.pid


@contextlib.contextmanager
def traced_server(env: dict[str, str], tenant: str, scratch: Path) -> Iterator[str]:
    port = free_port()
    receiver = [sys.executable, "-m", "tests.app.otlp_receiver", str(port)]
    endpoint = f"http://127.0.0.1:{port}"
    with (
        (scratch / "receiver.log").open("w") as counted,
        listening_process(receiver, env, port, counted, counted, name="OTLP receiver"),
        (scratch / "traced.log").open("w") as log,
        serving_http(
            {**env, "GRAPHMEM_TENANT": tenant, "OTEL_EXPORTER_OTLP_ENDPOINT": endpoint}, log
        ) as served,
    ):
        yield served.url
    say(f"traced server: {(scratch / 'receiver.log').read_text().strip()}")


# --- the figures ---------------------------------------------------------------------------------
def figures(client: dict[str, Any], fact_ids: list[str]) -> dict[str, Call]:
    graphmem_client, bare, wrapped = client["graphmem"], client["bare"], client["echo"]

    async def call(target: Any, tool: str, arguments: dict[str, Any], refused: bool = False) -> Any:
        result = await target.call_tool(tool, arguments, raise_on_error=False)
        if result.is_error != refused:
            raise RuntimeError(f"{tool}: unexpected answer {result.content}")
        return result

    def key(i: int) -> str:  # as seed_facts names them
        return f"svc{i % KEYS}.latency_ms"

    traced = traced_figures(client["traced"], key) if "traced" in client else {}
    return {
        **traced,
        "bare echo, h11 + asyncio": lambda i: call(client["plain"], "echo", {"text": "x"}),
        "bare FastMCP echo": lambda i: call(bare, "echo", {"text": "x"}),
        "graphmem echo": lambda i: call(wrapped, "echo", {"text": "x"}),
        "floor (refused call)": lambda i: call(
            graphmem_client, "current_state", {"state_key": key(i), "bogus": 1}, refused=True
        ),
        "current_state": lambda i: call(
            graphmem_client, "current_state", {"state_key": key(i), "project": PROJECT}
        ),
        "record_fact": lambda i: call(
            graphmem_client, "record_fact", {"project": PROJECT, "key": key(i), "value": i}
        ),
        "explain_impact": lambda i: call(
            graphmem_client,
            "explain_impact",
            {"source_kind": "fact", "source_ref": fact_ids[i % len(fact_ids)]},
        ),
        "save_memory": lambda i: call(
            graphmem_client,
            "save_memory",
            {"project": PROJECT, "title": f"note {i}", "content": f"service {i} latency note"},
        ),
        "search": lambda i: call(
            graphmem_client, "search", {"query": f"service {i % 50} latency", "project": PROJECT}
        ),
    }


def traced_figures(traced: Any, key: Callable[[int], str]) -> dict[str, Call]:
    async def call(tool: str, arguments: dict[str, Any]) -> Any:
        result = await traced.call_tool(tool, arguments, raise_on_error=False)
        if result.is_error:
            raise RuntimeError(f"{tool} (traced): unexpected answer {result.content}")
        return result

    return {
        "current_state, traces on": lambda i: call(
            "current_state", {"state_key": key(i), "project": PROJECT}
        ),
        "record_fact, traces on": lambda i: call(
            "record_fact", {"project": PROJECT, "key": key(i), "value": i}
        ),
    }


async def seed_facts(client: Any) -> list[str]:
    """A fact on every key current_state asks for; their ids, for explain_impact."""
    ids = []
    for i in range(KEYS):
        arguments = {"project": PROJECT, "key": f"svc{i}.latency_ms", "value": i}
        result = await client.call_tool("record_fact", arguments)
        ids.append(result.structured_content["id"])
    return ids


async def rounds(calls: dict[str, Call], count: int, warmup: int) -> dict[str, list[float]]:
    """Every call once per round, the order rotating; ``warmup`` rounds are not timed."""
    names = list(calls)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for i in range(warmup + count):
        shift = i % len(names)
        for name in names[shift:] + names[:shift]:
            began = time.perf_counter()
            await calls[name](i)
            if i >= warmup:
                seconds[name].append(time.perf_counter() - began)
    return seconds


@dataclass(frozen=True)
class Options:
    only: list[str]  # the figures to time besides the floor and echoes; all when empty
    profile: Path | None  # py-spy's samples of graphmem's server during the timed rounds


async def profiled_rounds(
    calls: dict[str, Call], count: int, warmup: int, pid: int, out: Path | None
) -> dict[str, list[float]]:
    """The rounds; with ``out``, the timed ones under py-spy (its summary printed)."""
    if out is None:
        return await rounds(calls, count, warmup)
    await rounds(calls, 0, warmup)
    with sampling(pid, out) as sampled:
        timed = await rounds(calls, count, 0)
    say("\n".join(summary(out, top=30)) if sampled else "(no profile: py-spy not found)")
    return timed


def server_side(log: Path, count: int) -> dict[str, float]:
    """Per figure, the p50 of the durations graphmem's server logged for its last ``count``
    calls (one JSON line per call, timed by its outermost middleware)."""
    durations: dict[str, list[float]] = {}
    for line in log.read_text().splitlines():
        with contextlib.suppress(ValueError):
            entry = json.loads(line[line.index("{") :])
            if entry.get("event") == "tool_call":
                refused = entry["outcome"] == "invalid_argument"
                name = "floor (refused call)" if refused else entry["tool"]
                durations.setdefault(name, []).append(entry["duration_ms"] / 1000)
    return {name: quantile_ms(found[-count:], 50) for name, found in durations.items()}


def report(seconds: dict[str, list[float]], server: dict[str, float]) -> None:
    """Per figure: p50, p95, p50 over the floor and over graphmem's echo (the transport alone,
    without the refusal's own work), and the server's own p50 (from its log)."""
    floor = quantile_ms(seconds["floor (refused call)"], 50)
    echo = quantile_ms(seconds["graphmem echo"], 50)
    width = max(map(len, seconds)) + 2
    head = f"{'figure':<{width}}{'p50 ms':>9}{'p95 ms':>9}{'x floor':>9}{'x echo':>8}"
    say(f"\n{head}{'server p50':>12}")
    for name, samples in seconds.items():
        p50 = quantile_ms(samples, 50)
        inside = f"{server[name]:.2f}" if name in server else "-"
        line = f"{name:<{width}}{p50:>9.2f}{quantile_ms(samples, 95):>9.2f}"
        say(f"{line}{p50 / floor:>9.2f}{p50 / echo:>8.2f}{inside:>12}")
    overhead = quantile_ms(seconds["graphmem echo"], 50) - quantile_ms(
        seconds["bare FastMCP echo"], 50
    )
    say(f"\ngraphmem's middleware over a bare FastMCP echo: {overhead:+.2f} ms at p50")


async def configuration(endpoint: Endpoint) -> str:
    auth = (endpoint.user, endpoint.password)
    async with neo4j.AsyncGraphDatabase.driver(endpoint.uri, auth=auth) as driver:
        server = await driver.get_server_info()
    settings = Settings()
    return (
        f"graphmem {graphmem.__version__}, toolset {settings.toolset}, embeddings "
        f"{settings.embeddings}, {server.agent}, fastmcp {fastmcp.__version__}, "
        f"neo4j driver {neo4j.__version__}, Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} cores"
    )


async def main(
    endpoint: Endpoint, folder: Path, count: int, warmup: int, traced: bool, chosen: Options
) -> None:
    say(await configuration(endpoint))
    store = await Store.connect(endpoint.uri, endpoint.user, endpoint.password)
    try:
        await store.apply_schema()
        async with (
            scratch_tenant(store, "speed") as tenant,
            scratch_tenant(store, "speed-traced") as traced_tenant,
            clients(endpoint, tenant, folder, traced_tenant if traced else None) as (client, pid),
        ):
            if traced:
                await seed_facts(client["traced"])
            calls = figures(client, await seed_facts(client["graphmem"]))
            if unknown := set(chosen.only) - set(calls):
                raise SystemExit(f"--only: no figure named {sorted(unknown)}; {sorted(calls)}")
            if chosen.only:
                calls = {n: c for n, c in calls.items() if n in chosen.only or n in ALWAYS}
            say(f"{len(calls)} figures, {count} rounds after {warmup} untimed")
            timed = await profiled_rounds(calls, count, warmup, pid, chosen.profile)
        report(timed, server_side(folder / "serve.log", count))
    finally:
        await store.close()


def cli() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--traced", action="store_true", help="a second server, traces on")
    parser.add_argument("--only", nargs="+", default=[], help="these figures (and the floor)")
    parser.add_argument(
        "--profile", type=Path, metavar="FILE", help="py-spy on graphmem's server, kept in FILE"
    )
    args = parser.parse_args()
    chosen = Options(args.only, args.profile)
    # The database first, outside the event loop: a managed start checks it synchronously.
    with tempfile.TemporaryDirectory() as folder, find_endpoint(Path(folder)) as endpoint:
        asyncio.run(main(endpoint, Path(folder), args.rounds, args.warmup, args.traced, chosen))


if __name__ == "__main__":
    cli()

"""First contact: how long an agent host waits for `graphmem serve`, from the spawn, over stdio
and HTTP, on a cold data folder (the managed Neo4j's jars cached, its stores not yet created)
and warm (the managed Neo4j already running, as when an agent host spawns a stdio server per
session).

    python -m bench.first_contact [--warm-runs 5] [--before DIR]

Prints, per transport and case, the median (and min-max) of: the handshake (initialize, or
server/discover for the SDK's modern mode), the first tools/list, and the first tool call that
succeeds. Over HTTP the client connects as soon as the port accepts. `--before DIR` runs a
second checkout (another revision, on this environment's packages) in the same rotation, so
the two are compared on the same machine at the same time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any, TextIO

import mcp
from mcp.client.stdio import stdio_client

from graphmem.core.settings import Settings
from tests.app.helpers import GRAPHMEM, clean_env, run_cli, wait_for_port
from tests.neo4j_endpoint import free_port

TRANSPORTS = ("stdio", "http/legacy", "http/auto")
Timing = tuple[float, float, float]  # handshake, tools/list, first call (s from the spawn)


def folder_env(data: Path, source: str | None) -> dict[str, str]:
    env = clean_env(
        GRAPHMEM_DATA_DIR=str(data),
        GRAPHMEM_CACHE_DIR=str(Settings().cache_dir),
        GRAPHMEM_LOCAL_BOLT_PORT=str(free_port()),
        GRAPHMEM_LOCAL_HTTP_PORT=str(free_port()),
        GRAPHMEM_TENANT=f"bench-{uuid.uuid4().hex[:8]}",
        GRAPHMEM_START_WAIT="1",
    )
    if source:
        env["PYTHONPATH"] = source  # ahead of the editable install: that checkout's graphmem
    return env


def stdio_session(env: dict[str, str], quiet: TextIO) -> AbstractAsyncContextManager[Any]:
    parameters = mcp.StdioServerParameters(  # in the checkout's folder: `-m` puts it first
        command=sys.executable, args=[*GRAPHMEM[1:], "serve"], env=env, cwd=env.get("PYTHONPATH")
    )
    return mcp.Client(stdio_client(parameters, errlog=quiet))


@asynccontextmanager
async def http_session(env: dict[str, str], quiet: TextIO, mode: str) -> AsyncIterator[Any]:
    port = free_port()
    command = [*GRAPHMEM, "serve", "--transport", "http", "--port", str(port)]
    source = env.get("PYTHONPATH")  # that checkout's folder: `python -m` puts it first
    process = subprocess.Popen(command, env=env, stdout=quiet, stderr=quiet, cwd=source)
    try:
        wait_for_port(port, process)  # the client connects as soon as the port accepts
        async with mcp.Client(f"http://127.0.0.1:{port}/mcp", mode=mode) as client:
            yield client
    finally:
        process.terminate()
        process.wait(timeout=30)


async def measure(transport: str, env: dict[str, str], quiet: TextIO) -> Timing:
    began = time.perf_counter()
    session = (
        stdio_session(env, quiet)
        if transport == "stdio"
        else http_session(env, quiet, transport.split("/")[1])
    )
    async with session as client:
        handshake = time.perf_counter() - began
        await client.list_tools()
        listed = time.perf_counter() - began
        while (await client.call_tool("current_state", {"state_key": "k"})).is_error:
            pass
        served = time.perf_counter() - began
    return handshake, listed, served


async def one_folder(
    transport: str, source: str | None, warm_runs: int, quiet: TextIO
) -> tuple[Timing, list[Timing]]:
    """A cold run on a fresh folder, then ``warm_runs`` on the same folder, Neo4j running."""
    with tempfile.TemporaryDirectory() as scratch:
        env = folder_env(Path(scratch) / "data", source)
        try:
            cold = await measure(transport, env, quiet)
            warm = [await measure(transport, env, quiet) for _ in range(warm_runs)]
        finally:
            run_cli("neo4j", "stop", env=env)
    return cold, warm


def spread(values: list[float]) -> str:
    if len(values) == 1:
        return f"{values[0]:6.2f}s"
    return f"{statistics.median(values):6.2f}s ({min(values):.2f}-{max(values):.2f})"


def show(label: str, timings: list[Timing]) -> None:
    columns = list(zip(*timings, strict=True))
    print(f"{label:<32}" + "".join(f"{spread(list(column)):>24}" for column in columns))


async def main(warm_runs: int, before: str | None, quiet: TextIO) -> None:
    sources = {"now": None} | ({"before": before} if before else {})
    print(f"{'':<32}{'handshake':>24}{'tools/list':>24}{'first call':>24}")
    for transport in TRANSPORTS:
        for name, source in sources.items():
            cold, warm = await one_folder(transport, source, warm_runs, quiet)
            show(f"{transport} {name} cold", [cold])
            show(f"{transport} {name} warm x{warm_runs}", warm)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description="First contact: spawn to handshake, tools/list and first call."
    )
    parser.add_argument("--warm-runs", type=int, default=5)
    parser.add_argument("--before", help="another checkout to run in the same rotation")
    arguments = parser.parse_args()
    with open(os.devnull, "w") as server_log:
        before = str(Path(arguments.before).resolve()) if arguments.before else None
        asyncio.run(main(arguments.warm_runs, before, server_log))

"""First contact: how long an agent host waits for `graphmem serve` on a cold data folder,
with the managed Neo4j's jars already cached, over stdio and HTTP, with the front door (the
default) and without it (GRAPHMEM_FRONT_DOOR=0).

    python -m bench.first_contact

Spawns each server with a fresh data folder and free ports and prints, from the spawn: the
handshake (initialize, or server/discover for the SDK's modern mode), the first tools/list,
and the first tool call that succeeds (the managed Neo4j started and the schema applied in
the background meanwhile). Over HTTP the client connects as soon as the port accepts.
"""

from __future__ import annotations

import asyncio
import os
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


def cold_env(scratch: str, door: bool) -> dict[str, str]:
    return clean_env(
        GRAPHMEM_DATA_DIR=str(Path(scratch) / "data"),
        GRAPHMEM_CACHE_DIR=str(Settings().cache_dir),
        GRAPHMEM_LOCAL_BOLT_PORT=str(free_port()),
        GRAPHMEM_LOCAL_HTTP_PORT=str(free_port()),
        GRAPHMEM_TENANT=f"bench-{uuid.uuid4().hex[:8]}",
        GRAPHMEM_START_WAIT="1",
        GRAPHMEM_FRONT_DOOR="1" if door else "0",
    )


def stdio_session(env: dict[str, str], quiet: TextIO) -> AbstractAsyncContextManager[Any]:
    parameters = mcp.StdioServerParameters(
        command=sys.executable, args=[*GRAPHMEM[1:], "serve"], env=env
    )
    return mcp.Client(stdio_client(parameters, errlog=quiet))


@asynccontextmanager
async def http_session(env: dict[str, str], quiet: TextIO, mode: str) -> AsyncIterator[Any]:
    port = free_port()
    command = [*GRAPHMEM, "serve", "--transport", "http", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stdout=quiet, stderr=quiet)
    try:
        wait_for_port(port, process)  # the client connects as soon as the port accepts
        async with mcp.Client(f"http://127.0.0.1:{port}/mcp", mode=mode) as client:
            yield client
    finally:
        process.terminate()
        process.wait(timeout=30)


async def measure(transport: str, door: bool, quiet: TextIO) -> tuple[float, float, float]:
    with tempfile.TemporaryDirectory() as scratch:
        env = cold_env(scratch, door)
        began = time.perf_counter()
        session = (
            stdio_session(env, quiet)
            if transport == "stdio"
            else http_session(env, quiet, transport.split("/")[1])
        )
        try:
            async with session as client:
                handshake = time.perf_counter() - began
                await client.list_tools()
                listed = time.perf_counter() - began
                while (await client.call_tool("current_state", {"state_key": "k"})).is_error:
                    pass
                served = time.perf_counter() - began
        finally:
            run_cli("neo4j", "stop", env=env)
    return handshake, listed, served


async def main(quiet: TextIO) -> None:
    print(f"{'transport':<14}{'door':<6}{'handshake':>10}{'tools/list':>12}{'first call':>12}")
    for transport in ("stdio", "http/legacy", "http/auto"):
        for door in (True, False):
            handshake, listed, served = await measure(transport, door, quiet)
            print(
                f"{transport:<14}{'on' if door else 'off':<6}"
                f"{handshake:>9.2f}s{listed:>11.2f}s{served:>11.2f}s"
            )


if __name__ == "__main__":
    with open(os.devnull, "w") as server_log:
        asyncio.run(main(server_log))

"""First contact: how long an agent host waits for `graphmem serve` (stdio) on a cold data
folder, with the managed Neo4j's jars already cached.

    python -m bench.first_contact

Spawns the server with a fresh data folder and free ports and prints, from the spawn: the
handshake (initialize), the first tools/list, and the first tool call that succeeds (the
managed Neo4j started and the schema applied in the background meanwhile).
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import TextIO

import mcp
from mcp.client.stdio import stdio_client

from graphmem.app.settings import Settings
from tests.app.helpers import GRAPHMEM, clean_env, run_cli
from tests.neo4j_endpoint import free_port


async def main(quiet: TextIO) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        env = clean_env(
            GRAPHMEM_DATA_DIR=str(Path(scratch) / "data"),
            GRAPHMEM_CACHE_DIR=str(Settings().cache_dir),
            GRAPHMEM_LOCAL_BOLT_PORT=str(free_port()),
            GRAPHMEM_LOCAL_HTTP_PORT=str(free_port()),
            GRAPHMEM_TENANT=f"bench-{uuid.uuid4().hex[:8]}",
            GRAPHMEM_START_WAIT="1",
        )
        parameters = mcp.StdioServerParameters(
            command=sys.executable, args=[*GRAPHMEM[1:], "serve"], env=env
        )
        began = time.perf_counter()
        try:
            async with mcp.Client(stdio_client(parameters, errlog=quiet)) as client:
                handshake = time.perf_counter() - began
                await client.list_tools()
                listed = time.perf_counter() - began
                while (await client.call_tool("current_state", {"state_key": "k"})).is_error:
                    pass
                served = time.perf_counter() - began
        finally:
            run_cli("neo4j", "stop", env=env)
    print(f"handshake (initialize):   {handshake:6.2f} s")
    print(f"first tools/list:         {listed:6.2f} s")
    print(f"first successful call:    {served:6.2f} s  (managed Neo4j cold start + schema)")


if __name__ == "__main__":
    with open(os.devnull, "w") as server_log:
        asyncio.run(main(server_log))
